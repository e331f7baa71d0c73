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

/*
 * Set @id ran, and was active for its runs times its timeout plus the
 * switch latency (@per_run), within 25 %; its cpu-clock counted that.
 */
static void sets_time_expect_set(struct kunit *test, void *desc, u16 id,
				 const struct pfmk_ctx_stats *st, u64 per_run)
{
	u64 timeout_ns = SETS_TIMEOUT_US * NSEC_PER_USEC;
	struct pfarg_setinfo info = pfmkt_set_info(test, desc, id);
	u64 act = info.set_act_duration, trimmed, count;

	trimmed = act > st->switch_lat_max ? act - st->switch_lat_max : 0;
	count = pfmkt_read_set_pmd(test, desc, id, 0);
	KUNIT_ASSERT_GT(test, info.set_runs, 0);
	kunit_info(test, "set %u: %llu runs, %llu us active, mean %llu us, cpu-clock %llu us\n",
		   id, info.set_runs, act / 1000,
		   div64_u64(act, info.set_runs) / 1000, count / 1000);
	KUNIT_EXPECT_EQ(test, info.set_timeout, SETS_TIMEOUT_US);
	KUNIT_EXPECT_GE(test, act, info.set_runs * timeout_ns * 3 / 4);
	KUNIT_EXPECT_LE(test, trimmed, info.set_runs * per_run * 5 / 4);
	KUNIT_EXPECT_GE(test, count, trimmed * 3 / 4);
	KUNIT_EXPECT_LE(test, count, act * 5 / 4);
}

/**
 * struct sets_time_run - a run of sets switching on timeout
 * @desc: the context, stopped.
 * @st: its statistics.
 * @per_run: a set's timeout plus the mean switch latency, in ns.
 */
struct sets_time_run {
	void			*desc;
	struct pfmk_ctx_stats	st;
	u64			per_run;
};

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
}

/*
 * Each set's mean active time per run within 25% of timeout + mean
 * latency (its worst latency taken out once for the upper bound: one
 * stall per set is tolerated), its cpu-clock count within 25% of its
 * active time.  A timeout taken twice over, or never firing, still fails
 * whatever the latency.
 */
static void sets_time_switch_cpuclock_sets(struct kunit *test)
{
	struct sets_time_run r;
	u16 id;

	sets_time_run(test, &r);
	for (id = 0; id < SETS_NR; id++)
		sets_time_expect_set(test, r.desc, id, &r.st, r.per_run);
}

/*
 * The same run: one switch less than runs, the sets active for most of
 * the elapsed time, and the number of runs within 25% of what the
 * elapsed time allows.
 */
static void sets_time_switch_cpuclock_runs(struct kunit *test)
{
	struct pfarg_setinfo info;
	u64 runs = 0, total = 0;
	struct sets_time_run r;
	u16 id;

	sets_time_run(test, &r);
	for (id = 0; id < SETS_NR; id++) {
		info = pfmkt_set_info(test, r.desc, id);
		runs += info.set_runs;
		total += info.set_act_duration;
	}
	KUNIT_EXPECT_EQ(test, r.st.set_switches, runs - 1);
	KUNIT_EXPECT_GE(test, total, (u64)SETS_RUN_MS * NSEC_PER_MSEC * 3 / 4);
	KUNIT_EXPECT_GE(test, runs * 4,
			div64_u64((u64)SETS_RUN_MS * NSEC_PER_MSEC * 3,
				  r.per_run));
	KUNIT_EXPECT_LE(test, runs * 4,
			SETS_RUN_MS * 1000 / SETS_TIMEOUT_US * 5 + 4);
}

static struct kunit_case pfmk_sets_time_cases[] = {
	KUNIT_CASE_SLOW(sets_time_switch_cpuclock_sets),
	KUNIT_CASE_SLOW(sets_time_switch_cpuclock_runs),
	{}
};

static struct kunit_suite pfmk_sets_time_suite = {
	.name = "pfmk_sets_time",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_sets_time_cases,
};

kunit_test_suites(&pfmk_sets_time_suite);
