// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_smpl_step: a sampling PMD that counts more than
 * one per tick, on the deterministic test PMU (Documentation/sampling.rst).
 *
 * The test PMU calls the handler once per tick that ends a period and
 * carries the excess modulo the period; pfmk's short reset carries it too
 * (the PMD keeps what it counted past zero, modulo the new period, and
 * whole periods in it are ovfl_missed), so overflows stay on the grid of
 * the period.  Split from pfmk_smpl_exact, which had grown past 1,200
 * lines.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

#define STEP_BUF	4096ULL

/* PMD0 counts @step per tick and samples itself every @period. */
static void *exact_step_setup(struct kunit *test, int cpu, u64 step,
			      u64 period, void **buf)
{
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, STEP_BUF, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(step));
	pfmkt_write_sampler(test, desc, 0, period, 0, BIT_ULL(0));
	pfmkt_load_start(test, desc, cpu);
	return desc;
}

/* Each entry records a reset of -@period and a sampled value of @past. */
static void exact_expect_past(struct kunit *test, void *buf, u64 period,
			      const u64 *past, unsigned int n)
{
	const struct pfm_dfl_smpl_entry *ent;
	unsigned int i;

	for (i = 0; i < n; i++) {
		ent = pfmkt_entry(buf, i, 1);
		KUNIT_EXPECT_EQ_MSG(test, ent->last_reset_val, -period,
				    "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pfmkt_entry_vals(ent)[0], past[i],
				    "entry %u", i);
	}
}

/* Tick @cpu @ticks times: then @count entries and PMD0 at @pmd0. */
static void exact_tick_expect(struct kunit *test, void *desc, void *buf,
			      int cpu, u64 ticks, u64 count, u64 pmd0)
{
	pfmk_test_pmu_tick(cpu, ticks);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), count);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), pmd0);
}

/*
 * STEP 4, period 10: the PMD and the test PMU both carry the overshoot,
 * so overflows come where the count crosses a multiple of 10 (counts 12,
 * 20, 32, 40, 52, 60: ticks 3, 5, 8, 10, 13, 15).  At count 12 the PMD
 * is 2 past zero: the sample shows 2, the reset leaves -10 + 2 % 10 =
 * -8, and the next overflow is 2 ticks later at count 20, exactly 0 past
 * zero (sample 0, PMD -10).  No period is skipped: ovfl_missed stays 0.
 */
static void smpl_exact_step_carry(struct kunit *test)
{
	static const u64 past[] = { 2, 0, 2, 0, 2, 0 };
	const struct pfmk_ctx_stats want = { .ovfl_count = 6, .smpl_count = 6 };
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = exact_step_setup(test, cpu, 4, 10, &buf);
	exact_tick_expect(test, desc, buf, cpu, 2, 0, -10ULL + 8);
	exact_tick_expect(test, desc, buf, cpu, 1, 1, -10ULL + 2);
	exact_tick_expect(test, desc, buf, cpu, 1, 1, -10ULL + 6);
	exact_tick_expect(test, desc, buf, cpu, 1, 2, -10ULL);
	/* Ticks 6..14 in one call: overflows at ticks 8, 10 and 13. */
	exact_tick_expect(test, desc, buf, cpu, 9, 5, -10ULL + 6);
	exact_tick_expect(test, desc, buf, cpu, 1, 6, -10ULL);
	exact_expect_past(test, buf, 10, past, ARRAY_SIZE(past));
	KUNIT_EXPECT_EQ(test, pfmkt_entry(buf, 6, 1)->tstamp, 0ULL);
	pfmkt_expect_stats(test, desc, &want);
}

/*
 * STEP 25, period 10: one overflow per tick, which went through 2 or 3
 * periods.  Tick 1: count 25, the PMD 15 past zero: 1 period missed,
 * reset to -10 + 5.  Tick 2: count 50, PMD -5 + 25 = 20 past zero: 2
 * missed, reset to -10.  Ticks 3 and 4, in one call, repeat this.
 * Samples + missed periods = 4 + 6 = 10 = 100 / 10, the periods elapsed.
 */
static const u64 exact_missed_calls[] = { 1, 1, 2 };

/**
 * struct exact_missed - what exact_missed_calls[@call] leaves
 * @call: the last call of pfmk_test_pmu_tick() given.
 * @count: entries in the buffer.
 * @pmd0: PMD0 after the reset.
 * @stats: the context's statistics.
 */
struct exact_missed {
	unsigned int		call;
	u64			count;
	u64			pmd0;
	struct pfmk_ctx_stats	stats;
};

static const struct exact_missed exact_misseds[] = {
	{ 0, 1, -10ULL + 5,
	  { .ovfl_count = 1, .smpl_count = 1, .ovfl_missed = 1 } },
	{ 1, 2, -10ULL,
	  { .ovfl_count = 2, .smpl_count = 2, .ovfl_missed = 3 } },
	{ 2, 4, -10ULL,
	  { .ovfl_count = 4, .smpl_count = 4, .ovfl_missed = 6 } },
};

static void exact_missed_desc(const struct exact_missed *m, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "call %u: %llu tick(s)",
		 m->call + 1, exact_missed_calls[m->call]);
}

KUNIT_ARRAY_PARAM(exact_missed, exact_misseds, exact_missed_desc);

/* exact_step_setup() with step 25, period 10, then calls 0..@last. */
static void *exact_missed_setup(struct kunit *test, int cpu,
				unsigned int last, void **buf)
{
	void *desc = exact_step_setup(test, cpu, 25, 10, buf);
	unsigned int i;

	for (i = 0; i <= last; i++)
		pfmk_test_pmu_tick(cpu, exact_missed_calls[i]);
	return desc;
}

/* Each call: one entry per tick, PMD0 reset past its carry, the stats. */
static void smpl_exact_step_missed(struct kunit *test)
{
	const struct exact_missed *m = test->param_value;
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = exact_missed_setup(test, cpu, m->call, &buf);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), m->count);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), m->pmd0);
	pfmkt_expect_stats(test, desc, &m->stats);
}

/* The entries record how far past zero each overflow was: 15 or 20. */
static void smpl_exact_step_missed_past(struct kunit *test)
{
	static const u64 past[] = { 15, 20, 15, 20 };
	void *buf;

	exact_missed_setup(test, pfmkt_cpu(),
			   ARRAY_SIZE(exact_missed_calls) - 1, &buf);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), (u64)ARRAY_SIZE(past));
	exact_expect_past(test, buf, 10, past, ARRAY_SIZE(past));
}

/* Samples plus missed periods are the periods elapsed: 100 / 10. */
static void smpl_exact_step_missed_sum(struct kunit *test)
{
	struct pfmk_ctx_stats st;
	void *desc, *buf;

	desc = exact_missed_setup(test, pfmkt_cpu(),
				  ARRAY_SIZE(exact_missed_calls) - 1, &buf);
	pfmkt_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.smpl_count + st.ovfl_missed, 100ULL / 10);
}

static struct kunit_case pfmk_smpl_step_cases[] = {
	KUNIT_CASE(smpl_exact_step_carry),
	KUNIT_CASE_PARAM(smpl_exact_step_missed, exact_missed_gen_params),
	KUNIT_CASE(smpl_exact_step_missed_past),
	KUNIT_CASE(smpl_exact_step_missed_sum),
	{}
};

static struct kunit_suite pfmk_smpl_step_suite = {
	.name = "pfmk_smpl_step",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_step_cases,
};

kunit_test_suites(&pfmk_smpl_step_suite);
