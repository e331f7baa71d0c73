// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_set_time: perfmon2's set_act_duration, the time
 * an event set was active (counting), across what changes its source.
 *
 * A set with events is timed by the enabled time perf keeps for one of
 * its PMDs' events (core/sets.c, pfmk_set_time_source()), a set without
 * events by local_clock() at its activations.  Each case checks that the
 * duration grows by at least the time the set counted and by no more
 * than the wall time around it, and that it does not move while the set
 * does not count: across stop and start, a switch, a PMC rewrite while
 * loaded (events replaced, moved, gone, new), its CPU leaving and coming
 * back (events released and created again), and getinfo racing with
 * start, stop and switches, and with unload and load, on the same
 * context.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

/* How long a set counts in a step, in ms: 10 jiffies at HZ=250. */
#define ST_RUN_MS		40
/* Switch timeout of the switching cases, us. */
#define ST_TIMEOUT_US		5000
#define ST_SWITCH_MS		150
/* Wall time the race case runs. */
#define ST_RACE_BUDGET		(HZ / 2)

static u64 st_dur(struct kunit *test, void *desc, u16 id)
{
	return pfmkt_set_info(test, desc, id).set_act_duration;
}

/*
 * The set's clock (local_clock(), or perf's, on the same) and ktime agree
 * within a quarter and two jiffies: where the TSC is unstable (Debian
 * 6.1 on QEMU's default CPU model), local_clock() is clamped to a window
 * around each CPU's last tick.  The least a set's duration may grow over
 * @ns of sleep, and the most over @wall ns of wall time: a duration
 * counted twice over exceeds it.
 */
static u64 st_least(u64 ns)
{
	return ns > jiffies_to_nsecs(2) ? ns - jiffies_to_nsecs(2) : 0;
}

static u64 st_most(u64 wall)
{
	return wall + wall / 4 + jiffies_to_nsecs(2);
}

/**
 * struct st_span - the wall time of a run
 * @inner: from the start's return to the stop's call: the set counted
 *	at least that long (msleep() may sleep less than asked when the
 *	jiffies lag behind, so the sleep is measured, not assumed).
 * @outer: from the start's call to the stop's return: at most that.
 */
struct st_span {
	u64	inner;
	u64	outer;
};

/* Start, let the context count ST_RUN_MS, stop. */
static struct st_span st_run(struct kunit *test, void *desc)
{
	u64 t0 = ktime_get_ns(), t1;
	struct st_span span;

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	t1 = ktime_get_ns();
	msleep(ST_RUN_MS);
	span.inner = ktime_get_ns() - t1;
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	span.outer = ktime_get_ns() - t0;
	return span;
}

/*
 * Set 0's duration grows by the time it ran over st_run(), no less and
 * no more: @desc is loaded and stopped.  set_time_stopped_frozen()
 * checks that it then stands.
 */
static void st_expect_run(struct kunit *test, void *desc)
{
	u64 a = st_dur(test, desc, 0), b;
	struct st_span span = st_run(test, desc);

	b = st_dur(test, desc, 0);
	KUNIT_EXPECT_GE(test, b, a + st_least(span.inner));
	KUNIT_EXPECT_LE(test, b - a, st_most(span.outer));
}

/* A context with PMC 0 on the test PMU, loaded on the test CPU. */
static void *st_loaded(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, pfmkt_cpu());
	return desc;
}

/* st_loaded(), run once and stopped; *@d the duration it got. */
static void *st_ran_once(struct kunit *test, u64 *d)
{
	void *desc = st_loaded(test);

	st_run(test, desc);
	*d = st_dur(test, desc, 0);
	KUNIT_ASSERT_GT(test, *d, 0ULL);
	return desc;
}

/* st_ran_once(), then unloaded. */
static void *st_ran_unloaded(struct kunit *test, u64 *d)
{
	void *desc = st_ran_once(test, d);

	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	return desc;
}

/* A set with an event starts from 0. */
static void set_time_from_zero(struct kunit *test)
{
	void *desc = st_loaded(test);

	KUNIT_EXPECT_EQ(test, st_dur(test, desc, 0), 0ULL);
}

/* It grows over its first run. */
static void set_time_first_run(struct kunit *test)
{
	void *desc = st_loaded(test);

	st_expect_run(test, desc);
}

/* st_ran_once(), its duration left out. */
static void *st_ran_once_only(struct kunit *test)
{
	u64 d;

	return st_ran_once(test, &d);
}

/* Started again after a stop, it grows from where it stood. */
static void set_time_stop_start(struct kunit *test)
{
	void *desc = st_ran_once_only(test);

	st_expect_run(test, desc);
}

/* Unloaded, the duration stands. */
static void set_time_kept_unloaded(struct kunit *test)
{
	u64 d;
	void *desc = st_ran_unloaded(test, &d);

	KUNIT_EXPECT_EQ(test, st_dur(test, desc, 0), d);
}

/* Loaded again, the duration stands. */
static void set_time_kept_reloaded(struct kunit *test)
{
	u64 d;
	void *desc = st_ran_unloaded(test, &d);

	pfmkt_load(test, desc, pfmkt_cpu());
	KUNIT_EXPECT_EQ(test, st_dur(test, desc, 0), d);
}

/* st_ran_unloaded(), then loaded again with the duration it had. */
static void *st_reloaded(struct kunit *test)
{
	u64 d;
	void *desc = st_ran_unloaded(test, &d);

	pfmkt_load(test, desc, pfmkt_cpu());
	KUNIT_ASSERT_EQ(test, st_dur(test, desc, 0), d);
	return desc;
}

/* Loaded again, the duration grows from there. */
static void set_time_grows_reloaded(struct kunit *test)
{
	void *desc = st_reloaded(test);

	st_expect_run(test, desc);
}

/* A context without events, loaded on the test CPU. */
static void *st_loaded_no_event(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	pfmkt_load(test, desc, pfmkt_cpu());
	return desc;
}

/* A set without events: timed by the clock, the same way. */
static void set_time_no_event(struct kunit *test)
{
	void *desc = st_loaded_no_event(test);

	st_expect_run(test, desc);
}

/* st_loaded_no_event(), run once and stopped. */
static void *st_no_event_ran(struct kunit *test)
{
	void *desc = st_loaded_no_event(test);

	st_run(test, desc);
	return desc;
}

/* A set without events, run a second time: timed the same way again. */
static void set_time_no_event_again(struct kunit *test)
{
	void *desc = st_no_event_ran(test);

	st_expect_run(test, desc);
}

/* A context with PMC 0 and PMC 1 on the test PMU, loaded. */
static void *st_loaded_two(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, pfmkt_cpu());
	return desc;
}

/* A set with two events: timed by one of them, the same way. */
static void set_time_two_events(struct kunit *test)
{
	void *desc = st_loaded_two(test);

	st_expect_run(test, desc);
}

/*
 * Set 0 (an event) and set 1 (no event) switching on their timeout,
 * started for ST_SWITCH_MS and stopped: @s gets their set info, *@wall
 * the wall time from start to stop; each set ran at least twice.
 */
static void *st_switched(struct kunit *test, struct pfarg_setinfo *s,
			 u64 *wall)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	u64 t0;
	u16 id;

	for (id = 0; id < 2; id++)
		KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, id,
						  PFM_SETFL_TIME_SWITCH,
						  ST_TIMEOUT_US, 0), 0);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, pfmkt_cpu());
	t0 = ktime_get_ns();
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	msleep(ST_SWITCH_MS);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	*wall = ktime_get_ns() - t0;
	for (id = 0; id < 2; id++) {
		s[id] = pfmkt_set_info(test, desc, id);
		kunit_info(test, "set %u: %llu runs, %llu us\n", id,
			   s[id].set_runs, s[id].set_act_duration / 1000);
		KUNIT_ASSERT_GE(test, s[id].set_runs, 2ULL);
	}
	return desc;
}

/*
 * Sets switching on their timeout: each is active about its runs'
 * timeouts, together no more than the wall time.
 */
static void set_time_switch(struct kunit *test)
{
	u64 timeout = (u64)ST_TIMEOUT_US * NSEC_PER_USEC;
	struct pfarg_setinfo s[2];
	u64 wall;
	u16 id;

	st_switched(test, s, &wall);
	/* Every run but maybe the last lasted its timeout. */
	for (id = 0; id < 2; id++)
		KUNIT_EXPECT_GE(test, s[id].set_act_duration,
				(s[id].set_runs - 1) * timeout * 3 / 4);
	KUNIT_EXPECT_LE(test, s[0].set_act_duration + s[1].set_act_duration,
			st_most(wall));
}

/* Sets that switched on their timeout: neither grows once stopped. */
static void set_time_switch_stopped(struct kunit *test)
{
	struct pfarg_setinfo s[2];
	void *desc;
	u64 wall;
	u16 id;

	desc = st_switched(test, s, &wall);
	msleep(ST_RUN_MS);
	for (id = 0; id < 2; id++)
		KUNIT_EXPECT_EQ(test, st_dur(test, desc, id),
				s[id].set_act_duration);
}

/**
 * struct st_rewrite - a PMC rewrite while loaded, and what it does
 * @name: the row's name.
 * @before: PMC 0 and 1 at load (0: not written).
 * @after: PMC 0 and 1 written while loaded (0: off).
 * @nr_after: how many of @after are written (from PMC 0).
 */
struct st_rewrite {
	const char	*name;
	u64		before[2];
	u64		after[2];
	unsigned int	nr_after;
};

static const struct st_rewrite st_rewrites[] = {
	{ "event_replaced", { PFMK_TEST_PMC(1), 0 }, { PFMK_TEST_PMC(2) }, 1 },
	{ "clock_pmd_off", { PFMK_TEST_PMC(1), PFMK_TEST_PMC(1) }, { 0 }, 1 },
	{ "last_event_off", { PFMK_TEST_PMC(1), 0 }, { 0 }, 1 },
	{ "first_event_on", { 0, 0 }, { PFMK_TEST_PMC(1) }, 1 },
	{ "both_replaced", { PFMK_TEST_PMC(1), PFMK_TEST_PMC(1) },
	  { PFMK_TEST_PMC(3), PFMK_TEST_PMC(2) }, 2 },
};

static void st_rewrite_desc(const struct st_rewrite *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(st_rewrite, st_rewrites, st_rewrite_desc);

/*
 * A context with a row's PMCs, loaded, run once (set 0's duration grew:
 * set_time_first_run(), set_time_two_events() and set_time_no_event()
 * check by how much), then the row's PMCs rewritten while loaded and
 * stopped; *@d gets set 0's duration from before the rewrite.
 */
static void *st_rewritten(struct kunit *test, const struct st_rewrite *r,
			  u64 *d)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	u16 i;

	for (i = 0; i < 2; i++)
		if (r->before[i])
			pfmkt_write_pmc(test, desc, i, r->before[i]);
	pfmkt_load(test, desc, pfmkt_cpu());
	st_run(test, desc);
	*d = st_dur(test, desc, 0);
	KUNIT_ASSERT_GT(test, *d, 0ULL);
	for (i = 0; i < r->nr_after; i++)
		pfmkt_write_pmc(test, desc, i, r->after[i]);
	return desc;
}

/*
 * PMCs rewritten while loaded (and stopped) replace, release or create
 * events: the duration carries over unchanged.
 */
static void set_time_pmc_rewrite(struct kunit *test)
{
	u64 d;
	void *desc = st_rewritten(test, test->param_value, &d);

	KUNIT_EXPECT_EQ_MSG(test, st_dur(test, desc, 0), d,
			    "changed by the rewrite");
}

/* After such a rewrite, the duration grows from there. */
static void set_time_pmc_rewrite_grows(struct kunit *test)
{
	u64 d;
	void *desc = st_rewritten(test, test->param_value, &d);

	st_expect_run(test, desc);
}

/**
 * struct st_ready - a set-up after which set 0 is loaded, stopped and run
 * @name: the row's name.
 * @ready: the set-up, when @r is NULL.
 * @r: else the PMC rewrite of st_rewritten().
 */
struct st_ready {
	const char			*name;
	void				*(*ready)(struct kunit *test);
	const struct st_rewrite		*r;
};

/* The set-ups of the cases that run set 0 with st_expect_run(). */
static const struct st_ready st_readies[] = {
	{ "first_run", st_loaded },
	{ "stop_start", st_ran_once_only },
	{ "reloaded", st_reloaded },
	{ "no_event", st_loaded_no_event },
	{ "no_event_again", st_no_event_ran },
	{ "two_events", st_loaded_two },
	{ "rewrite_event_replaced", NULL, &st_rewrites[0] },
	{ "rewrite_clock_pmd_off", NULL, &st_rewrites[1] },
	{ "rewrite_last_event_off", NULL, &st_rewrites[2] },
	{ "rewrite_first_event_on", NULL, &st_rewrites[3] },
	{ "rewrite_both_replaced", NULL, &st_rewrites[4] },
};

static_assert(ARRAY_SIZE(st_rewrites) == 5);

static void st_ready_desc(const struct st_ready *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(st_ready, st_readies, st_ready_desc);

/*
 * After a run from each of those set-ups, the duration stands while the
 * context is stopped, loaded or not.
 */
static void set_time_stopped_frozen(struct kunit *test)
{
	const struct st_ready *row = test->param_value;
	void *desc;
	u64 b, d;

	if (row->r)
		desc = st_rewritten(test, row->r, &d);
	else
		desc = row->ready(test);
	st_run(test, desc);
	b = st_dur(test, desc, 0);
	msleep(ST_RUN_MS);
	KUNIT_EXPECT_EQ_MSG(test, st_dur(test, desc, 0), b,
			    "grew while stopped");
}

/*
 * A context on @cpu started, left counting ST_RUN_MS (*@slept: measured),
 * then its CPU taken offline (its events are released).
 */
static void *st_hp_offline(struct kunit *test, int cpu, u64 *slept)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	u64 t1;

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load_start(test, desc, cpu);
	t1 = ktime_get_ns();
	msleep(ST_RUN_MS);
	*slept = ktime_get_ns() - t1;
	pfmkt_offline(test, cpu);
	return desc;
}

/* st_hp_offline(), the context found OFFLINE. */
static void *st_hp_away(struct kunit *test, int cpu, u64 *slept)
{
	void *desc = st_hp_offline(test, cpu, slept);

	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED |
			PFMK_STATE_OFFLINE);
	return desc;
}

/* A started context's CPU leaves: the time before stays. */
static void set_time_hotplug(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	u64 slept;
	void *desc = st_hp_away(test, cpu, &slept);

	KUNIT_EXPECT_GE(test, st_dur(test, desc, 0), st_least(slept));
}

/* None is counted while the CPU is away. */
static void set_time_hotplug_away(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	u64 a, slept;
	void *desc = st_hp_away(test, cpu, &slept);

	a = st_dur(test, desc, 0);
	msleep(ST_RUN_MS);
	KUNIT_EXPECT_EQ_MSG(test, st_dur(test, desc, 0), a,
			    "grew while the CPU was away");
}

/*
 * st_hp_offline(), its set's duration then in *@a, and the CPU brought
 * back (the events are created again) from *@t0 on.
 */
static void *st_hp_back(struct kunit *test, int cpu, u64 *a, u64 *t0)
{
	u64 slept;
	void *desc = st_hp_offline(test, cpu, &slept);

	*a = st_dur(test, desc, 0);
	*t0 = ktime_get_ns();
	pfmkt_online(test, cpu);
	return desc;
}

/* The CPU comes back: the context is started on it again. */
static void set_time_hotplug_online(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	u64 a, t0;
	void *desc = st_hp_back(test, cpu, &a, &t0);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED);
}

/*
 * The CPU comes back: the set is timed again from the time it had.  The
 * re-arm is the hotplug work's, or the next call's on the context
 * (pfmk_get_state() here), whichever comes first: the set counts from its
 * return on, not from the online's.
 */
static void set_time_hotplug_online_timed(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	u64 a, t0, t1, slept;
	void *desc = st_hp_back(test, cpu, &a, &t0);

	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED);
	t1 = ktime_get_ns();
	msleep(ST_RUN_MS);
	slept = ktime_get_ns() - t1;
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	t0 = ktime_get_ns() - t0;
	KUNIT_EXPECT_GE(test, st_dur(test, desc, 0), a + st_least(slept));
	KUNIT_EXPECT_LE(test, st_dur(test, desc, 0) - a, st_most(t0));
}

/**
 * struct st_race - a thread of the race case
 * @desc: the context.
 * @started: completed once the thread runs.
 * @calls: calls made.
 * @last: each set's last duration read (getinfo thread).
 * @bad: calls that failed, durations that went back.
 */
struct st_race {
	void			*desc;
	struct completion	started;
	unsigned long		calls;
	u64			last[2];
	struct pfmkt_bad	bad;
};

/* Start and stop without end, for a few hundred us each. */
static int st_race_start_stop(void *arg)
{
	struct st_race *r = arg;
	long ret;

	complete(&r->started);
	while (!kthread_should_stop()) {
		ret = pfmk_start(r->desc, NULL);
		if (ret)
			pfmkt_bad(&r->bad, ret, 0, 0);
		usleep_range(100, 400);
		ret = pfmk_stop(r->desc);
		if (ret)
			pfmkt_bad(&r->bad, ret, 1, 0);
		r->calls += 2;
		usleep_range(10, 100);
	}
	return 0;
}

/*
 * Read both sets' durations without end: they never go back.  Set 1 has
 * no event: its clock is local_clock(), read on this thread's CPU and on
 * the CPUs that start and stop it, a tick apart at most.
 */
static int st_race_getinfo(void *arg)
{
	struct st_race *r = arg;
	struct pfarg_setinfo info[2];
	u64 slack[2] = { 0, TICK_NSEC };
	long ret;
	int i;

	complete(&r->started);
	while (!kthread_should_stop()) {
		memset(info, 0, sizeof(info));
		info[1].set_id = 1;
		ret = pfmk_getinfo_evtsets(r->desc, info, 2);
		r->calls++;
		if (ret) {
			pfmkt_bad(&r->bad, ret, -1, 0);
			continue;
		}
		for (i = 0; i < 2; i++) {
			if (info[i].set_act_duration + slack[i] < r->last[i])
				pfmkt_bad(&r->bad, 0, i,
					  info[i].set_act_duration);
			r->last[i] = max(r->last[i], info[i].set_act_duration);
		}
		cond_resched();
	}
	return 0;
}

/* A thread of @fn on @cpu, running; an ERR_PTR() if none, not failing. */
static struct task_struct *st_race_thread(int (*fn)(void *),
					  struct st_race *r, int cpu)
{
	return pfmk_test_kthread_start(fn, r, cpu, &r->started, "pfmk_st");
}

/*
 * A context of two sets switching on the minimum timeout, set 0 with an
 * event, set 1 without, loaded on @cpu and stopped, for the race cases;
 * @gi, its getinfo thread's record, is set up for it.
 */
static void *st_race_ctx(struct kunit *test, int cpu, struct st_race **gi)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	u16 id;

	*gi = kunit_kzalloc(test, sizeof(**gi), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *gi);
	for (id = 0; id < 2; id++)
		KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, id,
						  PFM_SETFL_TIME_SWITCH, 100,
						  0), 0);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, cpu);
	(*gi)->desc = desc;
	return desc;
}

/**
 * struct st_race_run - what a race saw, for its cases
 * @gi: the getinfo thread's record (its context in ->desc).
 * @ss: the start and stop thread's record (start_stop race only).
 * @ret: the first error of the reload loop (reload race only).
 * @wall: the race's wall time, in ns, from before it to after.
 */
struct st_race_run {
	struct st_race	*gi;
	struct st_race	*ss;
	long		ret;
	u64		wall;
};

/*
 * getinfo racing with start, stop and switches on the same context, the
 * threads on different CPUs where there are two; stopped after it.
 */
static void st_race_start_stop_run(struct kunit *test, struct st_race_run *run)
{
	int cpu = pfmkt_cpu();
	struct task_struct *t1, *t2;
	void *desc = st_race_ctx(test, cpu, &run->gi);
	u64 t0 = ktime_get_ns();

	run->ss = kunit_kzalloc(test, sizeof(*run->ss), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run->ss);
	run->ss->desc = desc;
	t1 = st_race_thread(st_race_start_stop, run->ss, cpu);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t1));
	t2 = st_race_thread(st_race_getinfo, run->gi, pfmkt_other_cpu(cpu));
	if (IS_ERR(t2))
		kthread_stop(t1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t2));
	schedule_timeout_interruptible(ST_RACE_BUDGET);
	kthread_stop(t1);
	kthread_stop(t2);
	kunit_info(test, "%lu start/stop calls\n", run->ss->calls);
	kunit_info(test, "%lu getinfo calls\n", run->gi->calls);
	KUNIT_ASSERT_GT(test, run->ss->calls, 0UL);
	KUNIT_ASSERT_GT(test, run->gi->calls, 0UL);
	run->wall = ktime_get_ns() - t0;
}

/*
 * getinfo racing with unload and load (the sets' events released and
 * created again, their time sources chosen again) between runs.
 */
static void st_race_reload_run(struct kunit *test, struct st_race_run *run)
{
	int cpu = pfmkt_cpu();
	unsigned long end = jiffies + ST_RACE_BUDGET;
	struct task_struct *t;
	void *desc = st_race_ctx(test, cpu, &run->gi);
	u64 t0 = ktime_get_ns();
	long ret = 0;

	t = st_race_thread(st_race_getinfo, run->gi, pfmkt_other_cpu(cpu));
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	while (time_before(jiffies, end) && !ret) {
		ret = pfmk_start(desc, NULL);
		usleep_range(100, 400);
		ret = ret ?: pfmk_stop(desc);
		ret = ret ?: pfmk_unload_context(desc);
		usleep_range(10, 100);
		ret = ret ?: pfmkt_load_cpu(desc, cpu);
	}
	kthread_stop(t);
	run->ret = ret;
	kunit_info(test, "%lu getinfo calls\n", run->gi->calls);
	KUNIT_ASSERT_GT(test, run->gi->calls, 0UL);
	run->wall = ktime_get_ns() - t0;
}

/* Start and stop never fail while getinfo races with them. */
static void set_time_race_start_stop(struct kunit *test)
{
	struct st_race_run run = {};

	st_race_start_stop_run(test, &run);
	KUNIT_EXPECT_EQ_MSG(test, run.ss->bad.nr, 0UL, "start/stop returned %ld",
			    run.ss->bad.ret);
}

/* Start, stop, unload and load never fail while getinfo races with them. */
static void set_time_race_reload(struct kunit *test)
{
	struct st_race_run run = {};

	st_race_reload_run(test, &run);
	KUNIT_EXPECT_EQ(test, run.ret, 0L);
}

/**
 * struct st_race_kind - a race of the verdict cases
 * @name: the row's name.
 * @run: runs it.
 */
struct st_race_kind {
	const char	*name;
	void		(*run)(struct kunit *test, struct st_race_run *run);
};

static const struct st_race_kind st_race_kinds[] = {
	{ "start_stop", st_race_start_stop_run },
	{ "reload", st_race_reload_run },
};

static void st_race_kind_desc(const struct st_race_kind *k, char *desc)
{
	strscpy(desc, k->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(st_race_kind, st_race_kinds, st_race_kind_desc);

/*
 * After the row's race, stopped: getinfo always succeeded and never saw
 * a duration go back, and each set's final one is at least the last it
 * saw.
 */
static void set_time_race_sane(struct kunit *test)
{
	const struct st_race_kind *k = test->param_value;
	struct st_race_run run = {};
	struct pfarg_setinfo s;
	u16 id;

	k->run(test, &run);
	KUNIT_EXPECT_EQ_MSG(test, run.gi->bad.nr, 0UL,
			    "getinfo returned %ld, set %d went back to %llu",
			    run.gi->bad.ret, run.gi->bad.entry,
			    run.gi->bad.value);
	for (id = 0; id < 2; id++) {
		s = pfmkt_set_info(test, run.gi->desc, id);
		KUNIT_EXPECT_GE(test, s.set_act_duration, run.gi->last[id]);
	}
}

/*
 * After the row's race, stopped: the sets' durations together are not 0
 * and stay within the race's wall time.
 */
static void set_time_race_within_wall(struct kunit *test)
{
	const struct st_race_kind *k = test->param_value;
	struct st_race_run run = {};
	u64 total = 0;
	u16 id;

	k->run(test, &run);
	for (id = 0; id < 2; id++)
		total += pfmkt_set_info(test, run.gi->desc, id).set_act_duration;
	KUNIT_EXPECT_GT(test, total, 0ULL);
	KUNIT_EXPECT_LE(test, total, st_most(run.wall));
}

static struct kunit_case pfmk_set_time_cases[] = {
	KUNIT_CASE(set_time_from_zero),
	KUNIT_CASE(set_time_first_run),
	KUNIT_CASE(set_time_stop_start),
	KUNIT_CASE(set_time_kept_unloaded),
	KUNIT_CASE(set_time_kept_reloaded),
	KUNIT_CASE(set_time_grows_reloaded),
	KUNIT_CASE(set_time_no_event),
	KUNIT_CASE(set_time_no_event_again),
	KUNIT_CASE(set_time_two_events),
	KUNIT_CASE(set_time_switch),
	KUNIT_CASE(set_time_switch_stopped),
	KUNIT_CASE_PARAM(set_time_pmc_rewrite, st_rewrite_gen_params),
	KUNIT_CASE_PARAM(set_time_pmc_rewrite_grows, st_rewrite_gen_params),
	KUNIT_CASE_PARAM(set_time_stopped_frozen, st_ready_gen_params),
	KUNIT_CASE(set_time_hotplug),
	KUNIT_CASE(set_time_hotplug_away),
	KUNIT_CASE(set_time_hotplug_online),
	KUNIT_CASE(set_time_hotplug_online_timed),
	KUNIT_CASE(set_time_race_start_stop),
	KUNIT_CASE(set_time_race_reload),
	KUNIT_CASE_PARAM(set_time_race_sane, st_race_kind_gen_params),
	KUNIT_CASE_PARAM(set_time_race_within_wall, st_race_kind_gen_params),
	{}
};

static struct kunit_suite pfmk_set_time_suite = {
	.name = "pfmk_set_time",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_set_time_cases,
};

kunit_test_suites(&pfmk_set_time_suite);
