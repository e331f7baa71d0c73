// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_sets_time: switching on timeout with cpu-clock,
 * runs and durations against the timeout.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>

#include "pfmk_kunit.h"

#define SETS_TIMEOUT_US	50000
#define SETS_RUN_MS	1500
#define SETS_NR		3

/**
 * struct sets_time_set - what one set of a sets_time_run reports
 * @runs: its set_runs.
 * @act: its set_act_duration, in ns.
 * @trimmed: @act less the run's worst switch latency (one stall per set
 *	is tolerated), 0 if that is more.
 * @count: its cpu-clock PMD, in ns.
 * @timeout: its set_timeout, in us.
 */
struct sets_time_set {
	u64	runs;
	u64	act;
	u64	trimmed;
	u64	count;
	u32	timeout;
};

/**
 * struct sets_time_run - a run of sets switching on timeout
 * @desc: the context, stopped.
 * @st: its statistics.
 * @per_run: a set's timeout plus the mean switch latency, in ns.
 * @set: what each set reports.
 * @runs: the runs of all sets.
 * @total: the active time of all sets, in ns.
 */
struct sets_time_run {
	void			*desc;
	struct pfmk_ctx_stats	st;
	u64			per_run;
	struct sets_time_set	set[SETS_NR];
	u64			runs;
	u64			total;
};

/* Read what set @id of @r reports into @r->set[@id], and log it. */
static void sets_time_read_set(struct kunit *test, struct sets_time_run *r,
			       u16 id)
{
	struct pfarg_setinfo info = pfmkt_set_info(test, r->desc, id);
	struct sets_time_set *s = &r->set[id];

	s->runs = info.set_runs;
	s->act = info.set_act_duration;
	s->trimmed = s->act > r->st.switch_lat_max ?
		     s->act - r->st.switch_lat_max : 0;
	s->count = pfmkt_read_set_pmd(test, r->desc, id, 0);
	s->timeout = info.set_timeout;
	r->runs += s->runs;
	r->total += s->act;
	kunit_info(test, "set %u: %llu runs, %llu us active, mean %llu us, cpu-clock %llu us\n",
		   id, s->runs, s->act / 1000,
		   div64_u64(s->act, max_t(u64, s->runs, 1)) / 1000,
		   s->count / 1000);
}

/*
 * Three sets switching every 50 ms, each counting cpu-clock, for 1.5 s.
 * A set's run lasts its timeout plus the switch latency (the timer's
 * expiry to the switch work, reported by the context's stats), which is
 * the host's business in an emulated guest and grows with the host's
 * load.  So each bound is taken against timeout + mean latency, measured
 * in the same run (@r->per_run).
 */
static void sets_time_run(struct kunit *test, struct sets_time_run *r)
{
	struct pfmk_ctx_stats *st = &r->st;
	u16 id;

	r->desc = pfmkt_create(test, "");
	for (id = 0; id < SETS_NR; id++) {
		KUNIT_ASSERT_EQ(test, pfmkt_mkset(r->desc, id,
						  PFM_SETFL_TIME_SWITCH,
						  SETS_TIMEOUT_US, 0), 0);
		pfmkt_write_set_pmc(test, r->desc, id, 0,
				    PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK));
	}
	/* cpu-clock is perf's own software event: every kernel has it. */
	pfmkt_load_start(test, r->desc, pfmkt_cpu());
	msleep(SETS_RUN_MS);
	KUNIT_ASSERT_EQ(test, pfmk_stop(r->desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_get_stats(r->desc, st), 0);
	kunit_info(test, "%llu switches, latency mean %llu us, max %llu us\n",
		   st->set_switches,
		   st->set_switches ? st->switch_lat_total / st->set_switches / 1000 : 0,
		   st->switch_lat_max / 1000);
	r->per_run = SETS_TIMEOUT_US * NSEC_PER_USEC +
		     (st->set_switches ?
		      div64_u64(st->switch_lat_total, st->set_switches) : 0);
	r->runs = 0;
	r->total = 0;
	for (id = 0; id < SETS_NR; id++)
		sets_time_read_set(test, r, id);
}

/* Set @id of @r, which must have run. */
static const struct sets_time_set *sets_time_ran(struct kunit *test,
						 const struct sets_time_run *r,
						 u16 id)
{
	KUNIT_ASSERT_GT_MSG(test, r->set[id].runs, 0, "set %u never ran", id);
	return &r->set[id];
}

/* Each set reports the timeout it was given, after the run too. */
static void sets_time_timeout_reported(struct kunit *test)
{
	struct sets_time_run r;
	u16 id;

	sets_time_run(test, &r);
	for (id = 0; id < SETS_NR; id++)
		KUNIT_EXPECT_EQ_MSG(test, sets_time_ran(test, &r, id)->timeout,
				    SETS_TIMEOUT_US, "set %u", id);
}

/*
 * Each set's mean active time per run within 25% of timeout + mean
 * latency (its worst latency taken out once for the upper bound: one
 * stall per set is tolerated).  A timeout taken twice over, or never
 * firing, still fails whatever the latency.
 */
static void sets_time_active_bounds(struct kunit *test)
{
	u64 timeout_ns = SETS_TIMEOUT_US * NSEC_PER_USEC;
	const struct sets_time_set *s;
	struct sets_time_run r;
	u16 id;

	sets_time_run(test, &r);
	for (id = 0; id < SETS_NR; id++) {
		s = sets_time_ran(test, &r, id);
		KUNIT_EXPECT_GE_MSG(test, s->act, s->runs * timeout_ns * 3 / 4,
				    "set %u", id);
		KUNIT_EXPECT_LE_MSG(test, s->trimmed, s->runs * r.per_run * 5 / 4,
				    "set %u", id);
	}
}

/*
 * Each set's cpu-clock count within 25% of its active time (its worst
 * latency taken out for the lower bound).
 */
static void sets_time_cpuclock_agrees(struct kunit *test)
{
	const struct sets_time_set *s;
	struct sets_time_run r;
	u16 id;

	sets_time_run(test, &r);
	for (id = 0; id < SETS_NR; id++) {
		s = sets_time_ran(test, &r, id);
		KUNIT_EXPECT_GE_MSG(test, s->count, s->trimmed * 3 / 4,
				    "set %u", id);
		KUNIT_EXPECT_LE_MSG(test, s->count, s->act * 5 / 4,
				    "set %u", id);
	}
}

/* The same run: one switch less than the runs of all sets. */
static void sets_time_switches_match_runs(struct kunit *test)
{
	struct sets_time_run r;

	sets_time_run(test, &r);
	KUNIT_EXPECT_EQ(test, r.st.set_switches, r.runs - 1);
}

/* The same run: the sets were active for most of the elapsed time. */
static void sets_time_active_most(struct kunit *test)
{
	struct sets_time_run r;

	sets_time_run(test, &r);
	KUNIT_EXPECT_GE(test, r.total, (u64)SETS_RUN_MS * NSEC_PER_MSEC * 3 / 4);
}

/*
 * The same run: the number of runs within 25% of what the elapsed time
 * allows (timeout + mean latency for the lower bound, the timeout alone
 * for the upper).
 */
static void sets_time_runs_rate(struct kunit *test)
{
	struct sets_time_run r;

	sets_time_run(test, &r);
	KUNIT_EXPECT_GE(test, r.runs * 4,
			div64_u64((u64)SETS_RUN_MS * NSEC_PER_MSEC * 3,
				  r.per_run));
	KUNIT_EXPECT_LE(test, r.runs * 4,
			SETS_RUN_MS * 1000 / SETS_TIMEOUT_US * 5 + 4);
}

static struct kunit_case pfmk_sets_time_cases[] = {
	KUNIT_CASE_SLOW(sets_time_timeout_reported),
	KUNIT_CASE_SLOW(sets_time_active_bounds),
	KUNIT_CASE_SLOW(sets_time_cpuclock_agrees),
	KUNIT_CASE_SLOW(sets_time_switches_match_runs),
	KUNIT_CASE_SLOW(sets_time_active_most),
	KUNIT_CASE_SLOW(sets_time_runs_rate),
	{}
};

static struct kunit_suite pfmk_sets_time_suite = {
	.name = "pfmk_sets_time",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_sets_time_cases,
};

kunit_test_suites(&pfmk_sets_time_suite);
