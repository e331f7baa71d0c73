// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_count: what the PMDs of one context count.
 *
 * The life cycle with exact counts on the deterministic test PMU and
 * plausible ones on cpu-clock, vectors of 1, 4 and all PMDs, initial
 * values, enabled/running times, hardware events, offline CPUs.  Several
 * contexts at once are pfmk_multi's (pfmk_kunit_multi.c).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

/*
 * cpu-clock reads the event CPU's local_clock(), the bound ktime: allow
 * two scheduler ticks (jiffies-based sched_clock) and a millisecond.
 */
#define COUNT_CLOCK_SLACK	(2 * TICK_NSEC + NSEC_PER_MSEC)

#define COUNT_INIT		BIT_ULL(40)

/* Read @n PMDs listed in @regs into @val, or abort the test. */
static void count_read(struct kunit *test, void *desc, const u16 *regs,
		       unsigned int n, u64 *val)
{
	struct pfarg_pmd *pmd;
	unsigned int i;

	pmd = kunit_kcalloc(test, n, sizeof(*pmd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pmd);
	for (i = 0; i < n; i++)
		pmd[i].reg_num = regs[i];
	KUNIT_ASSERT_EQ(test, pfmk_read_pmds(desc, pmd, n), 0);
	for (i = 0; i < n; i++)
		val[i] = pmd[i].reg_value;
	kunit_kfree(test, pmd);
}

/*
 * PMD i of the life-cycle context: STEP i + 1 from COUNT_INIT + i, all
 * eight read in one call (the shapes of a read, one PMD, a few scattered
 * or all, are count_read_vectors_generic()'s).
 */
static void count_expect_all(struct kunit *test, void *desc, u64 ticks)
{
	static const u16 all[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	u64 val[PFMK_TEST_NUM_PMCS];
	unsigned int i;

	count_read(test, desc, all, ARRAY_SIZE(all), val);
	for (i = 0; i < ARRAY_SIZE(all); i++)
		KUNIT_EXPECT_EQ_MSG(test, val[i],
				    COUNT_INIT + i + ticks * (i + 1),
				    "PMD %u after %llu ticks", i, ticks);
}

/* The stages of the exact life cycle, in order. */
enum count_stage {
	COUNT_WRITTEN,
	COUNT_LOADED,
	COUNT_STARTED,
	COUNT_STOPPED,
	COUNT_RESTARTED,
	COUNT_UNLOADED,
};

/*
 * The life-cycle context on the test PMU: PMD i steps i + 1 per tick from
 * COUNT_INIT + i, brought on @cpu through every stage up to @stage:
 * loaded (5 ticks), started (1000), stopped (300), started again (7),
 * unloaded.
 */
static void *count_exact_at(struct kunit *test, int cpu,
			    enum count_stage stage)
{
	struct pfarg_pmc *pmc;
	struct pfarg_pmd *pmd;
	unsigned int i;
	void *desc;

	pmc = kunit_kcalloc(test, PFMK_TEST_NUM_PMCS, sizeof(*pmc), GFP_KERNEL);
	pmd = kunit_kcalloc(test, PFMK_TEST_NUM_PMCS, sizeof(*pmd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pmc);
	KUNIT_ASSERT_NOT_NULL(test, pmd);
	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	for (i = 0; i < PFMK_TEST_NUM_PMCS; i++) {
		pfmkt_pmc_req(&pmc[i], 0, i, PFMK_TEST_PMC(i + 1));
		pfmkt_pmd_req(&pmd[i], 0, i, COUNT_INIT + i);
	}
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmc, PFMK_TEST_NUM_PMCS),
			0);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, pmd, PFMK_TEST_NUM_PMCS),
			0);
	if (stage >= COUNT_LOADED) {
		pfmkt_load(test, desc, cpu);
		pfmk_test_pmu_tick(cpu, 5);
	}
	if (stage >= COUNT_STARTED) {
		KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
		pfmk_test_pmu_tick(cpu, 1000);
	}
	if (stage >= COUNT_STOPPED) {
		KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
		pfmk_test_pmu_tick(cpu, 300);
	}
	if (stage >= COUNT_RESTARTED) {
		KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
		pfmk_test_pmu_tick(cpu, 7);
	}
	if (stage >= COUNT_UNLOADED)
		KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	return desc;
}

/* Written, not loaded: the PMDs read back their initial values. */
static void count_exact_written(struct kunit *test)
{
	void *desc = count_exact_at(test, pfmkt_cpu(), COUNT_WRITTEN);

	count_expect_all(test, desc, 0);
}

/* Loaded: the context is in the loaded state. */
static void count_exact_loaded_state(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_exact_at(test, cpu, COUNT_WRITTEN);

	pfmkt_load(test, desc, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
}

/* Loaded, not started: no event active. */
static void count_exact_loaded_inactive(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_exact_at(test, cpu, COUNT_WRITTEN);

	pfmkt_load(test, desc, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* Loaded, not started: nothing counts. */
static void count_exact_loaded(struct kunit *test)
{
	void *desc = count_exact_at(test, pfmkt_cpu(), COUNT_LOADED);

	count_expect_all(test, desc, 0);
}

/* Started: every event active. */
static void count_exact_started_active(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_exact_at(test, cpu, COUNT_LOADED);

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu),
			PFMK_TEST_NUM_PMCS);
}

/* Started: each PMD counts its step per tick. */
static void count_exact_started(struct kunit *test)
{
	void *desc = count_exact_at(test, pfmkt_cpu(), COUNT_STARTED);

	count_expect_all(test, desc, 1000);
}

/* Stopped: no event active. */
static void count_exact_stopped_inactive(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_exact_at(test, cpu, COUNT_STARTED);

	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* Stopped: the counts frozen. */
static void count_exact_stopped(struct kunit *test)
{
	void *desc = count_exact_at(test, pfmkt_cpu(), COUNT_STOPPED);

	count_expect_all(test, desc, 1000);
}

/* Started again: counting goes on from the frozen counts. */
static void count_exact_restarted(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_exact_at(test, cpu, COUNT_STOPPED);

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 7);
	count_expect_all(test, desc, 1007);
}

/* Unloaded: the context is in the unloaded state. */
static void count_exact_unloaded_state(struct kunit *test)
{
	void *desc = count_exact_at(test, pfmkt_cpu(), COUNT_UNLOADED);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/* Unloaded: no event left. */
static void count_exact_unloaded_inactive(struct kunit *test)
{
	int cpu = pfmkt_cpu();

	count_exact_at(test, cpu, COUNT_UNLOADED);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* Unloaded: the PMDs keep their last counts. */
static void count_exact_unloaded(struct kunit *test)
{
	void *desc = count_exact_at(test, pfmkt_cpu(), COUNT_UNLOADED);

	count_expect_all(test, desc, 1007);
}

/* Unloaded: the PMDs keep their last counts through more ticks. */
static void count_exact_unloaded_frozen(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_exact_at(test, cpu, COUNT_UNLOADED);

	pfmk_test_pmu_tick(cpu, 13);
	count_expect_all(test, desc, 1007);
}

/* Closed after its life cycle: the descriptor is dead. */
static void count_exact_closed(struct kunit *test)
{
	void *desc = count_exact_at(test, pfmkt_cpu(), COUNT_UNLOADED);
	struct pfarg_pmd pmd;

	pfmkt_close(test, desc);
	pfmkt_pmd_req(&pmd, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, pfmk_read_pmds(desc, &pmd, 1), -EBADF);
}

/*
 * The life-cycle context on cpu-clock: generic PMD 0 from 0, PMD 1 from
 * COUNT_INIT, loaded on @cpu and brought through every stage up to
 * @stage (COUNT_RESTARTED at most): started, stopped, started again.
 * *@t0 is the time before the first start (of the load if not started).
 */
static void *count_clock_at(struct kunit *test, int cpu,
			    enum count_stage stage, u64 *t0)
{
	void *desc = pfmkt_create(test, "");

	pfmkt_write_pmc(test, desc, 0, PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK));
	pfmkt_write_pmc(test, desc, 1, PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK));
	pfmkt_write_pmd(test, desc, 1, COUNT_INIT);
	pfmkt_load(test, desc, cpu);
	*t0 = ktime_get_ns();
	if (stage >= COUNT_STARTED) {
		KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
		usleep_range(2000, 3000);
	}
	if (stage >= COUNT_STOPPED)
		KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	if (stage >= COUNT_RESTARTED) {
		KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
		usleep_range(2000, 3000);
	}
	return desc;
}

static const u16 count_clock_regs[] = { 0, 1 };

/* Read generic PMDs 0 and 1 of @desc into @v. */
static void count_clock_read(struct kunit *test, void *desc, u64 *v)
{
	count_read(test, desc, count_clock_regs, 2, v);
}

/* cpu-clock loaded, not started: the PMDs keep their initial values. */
static void count_clock_loaded(struct kunit *test)
{
	u64 t0, v[2];
	void *desc = count_clock_at(test, pfmkt_cpu(), COUNT_LOADED, &t0);

	usleep_range(2000, 3000);
	count_clock_read(test, desc, v);
	KUNIT_EXPECT_EQ(test, v[0], 0ULL);
	KUNIT_EXPECT_EQ(test, v[1], COUNT_INIT);
}

/* cpu-clock started: each PMD counts plausible nanoseconds. */
static void count_clock_started(struct kunit *test)
{
	u64 t0, elapsed, v[2];
	void *desc = count_clock_at(test, pfmkt_cpu(), COUNT_LOADED, &t0);

	t0 = ktime_get_ns();
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	msleep(20);
	count_clock_read(test, desc, v);
	elapsed = ktime_get_ns() - t0;
	KUNIT_EXPECT_GE(test, v[0], 10 * NSEC_PER_MSEC);
	KUNIT_EXPECT_LE(test, v[0], elapsed + COUNT_CLOCK_SLACK);
	KUNIT_EXPECT_GE(test, v[1], COUNT_INIT + 10 * NSEC_PER_MSEC);
	KUNIT_EXPECT_LE(test, v[1], COUNT_INIT + elapsed + COUNT_CLOCK_SLACK);
}

/* cpu-clock running: each PMD grows between two reads. */
static void count_clock_running(struct kunit *test)
{
	u64 t0, v[2], w[2];
	void *desc = count_clock_at(test, pfmkt_cpu(), COUNT_STARTED, &t0);

	count_clock_read(test, desc, v);
	usleep_range(2000, 3000);
	count_clock_read(test, desc, w);
	KUNIT_EXPECT_GT(test, w[0], v[0]);
	KUNIT_EXPECT_GT(test, w[1], v[1]);
}

/* cpu-clock stopped: the counts kept. */
static void count_clock_stopped(struct kunit *test)
{
	u64 t0, v[2], w[2];
	void *desc = count_clock_at(test, pfmkt_cpu(), COUNT_STARTED, &t0);

	count_clock_read(test, desc, w);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	count_clock_read(test, desc, v);
	KUNIT_EXPECT_GE(test, v[0], w[0]);
}

/* cpu-clock stopped: the counts frozen. */
static void count_clock_frozen(struct kunit *test)
{
	u64 t0, v[2], w[2];
	void *desc = count_clock_at(test, pfmkt_cpu(), COUNT_STOPPED, &t0);

	count_clock_read(test, desc, v);
	usleep_range(5000, 6000);
	count_clock_read(test, desc, w);
	KUNIT_EXPECT_EQ(test, w[0], v[0]);
	KUNIT_EXPECT_EQ(test, w[1], v[1]);
}

/*
 * count_clock_at()'s context stopped, read into @w, started again for 2
 * to 3 ms, then read into @v; the time since the first start.
 */
static u64 count_clock_restart(struct kunit *test, u64 *w, u64 *v)
{
	u64 t0;
	void *desc = count_clock_at(test, pfmkt_cpu(), COUNT_STOPPED, &t0);

	count_clock_read(test, desc, w);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	usleep_range(2000, 3000);
	count_clock_read(test, desc, v);
	return ktime_get_ns() - t0;
}

/* cpu-clock started again: counting goes on. */
static void count_clock_restarted(struct kunit *test)
{
	u64 v[2], w[2];

	count_clock_restart(test, w, v);
	KUNIT_EXPECT_GT(test, v[0], w[0]);
}

/* cpu-clock started again: the count within the time elapsed. */
static void count_clock_restarted_bounded(struct kunit *test)
{
	u64 elapsed, v[2], w[2];

	elapsed = count_clock_restart(test, w, v);
	KUNIT_EXPECT_LE(test, v[0], elapsed + COUNT_CLOCK_SLACK);
}

/* cpu-clock unloaded: the counts frozen. */
static void count_clock_unloaded(struct kunit *test)
{
	u64 t0, v[2], w[2];
	void *desc = count_clock_at(test, pfmkt_cpu(), COUNT_RESTARTED, &t0);

	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	count_clock_read(test, desc, v);
	usleep_range(2000, 3000);
	count_clock_read(test, desc, w);
	KUNIT_EXPECT_EQ(test, w[0], v[0]);
	KUNIT_EXPECT_EQ(test, w[1], v[1]);
}

/* The value count_vectors_desc() writes to generic PMD @i. */
static u64 count_vec_value(unsigned int i)
{
	return ((u64)i << 48) | (i * 0x1111ULL);
}

/* Read the @n generic PMDs @regs of @desc, expect count_vec_value() each. */
static void count_expect_vec(struct kunit *test, void *desc, const u16 *regs,
			     unsigned int n)
{
	u64 val[PFMK_GENERIC_NUM_PMCS];
	unsigned int i;

	count_read(test, desc, regs, n, val);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, val[i], count_vec_value(regs[i]),
				    "PMD %u", regs[i]);
}

/* A generic context with count_vec_value() in each of its 64 PMDs. */
static void *count_vectors_desc(struct kunit *test)
{
	struct pfarg_pmd *pmd;
	unsigned int i;
	void *desc;

	desc = pfmkt_create(test, "");
	pmd = kunit_kcalloc(test, PFMK_GENERIC_NUM_PMCS, sizeof(*pmd),
			    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pmd);
	for (i = 0; i < PFMK_GENERIC_NUM_PMCS; i++) {
		pmd[i].reg_num = i;
		pmd[i].reg_value = count_vec_value(i);
	}
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, pmd,
					      PFMK_GENERIC_NUM_PMCS), 0);
	return desc;
}

/* Unloaded, then loaded (not started: the fields do not depend on it). */
static const bool count_loaded[] = { false, true };

static void count_loaded_desc(const bool *loaded, char *desc)
{
	strscpy(desc, *loaded ? "loaded" : "unloaded", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(count_loaded, count_loaded, count_loaded_desc);

/**
 * struct count_vec - a vector of generic PMDs read in one call
 * @name: the vector.
 * @regs: its PMDs, or NULL: all of them, in reverse order (to catch index
 *	mix-ups).
 * @n: the number of PMDs in @regs.
 * @started: the context is loaded and started (no PMC enabled: the values
 *	stay), else unloaded.
 */
struct count_vec {
	const char	*name;
	const u16	*regs;
	unsigned int	n;
	bool		started;
};

static const u16 count_vec_one[] = { PFMK_GENERIC_NUM_PMCS - 1 };
static const u16 count_vec_four[] = { 42, 0, 63, 17 };
static const u16 count_vec_dup[] = { 5, 5, 9, 5 };

#define COUNT_VEC(v, s) \
	{ #v, count_vec_##v, ARRAY_SIZE(count_vec_##v), s }
#define COUNT_VEC_ALL(s) \
	{ "all", NULL, PFMK_GENERIC_NUM_PMCS, s }

static const struct count_vec count_vecs[] = {
	COUNT_VEC(one, false),
	COUNT_VEC(four, false),
	COUNT_VEC(dup, false),
	COUNT_VEC_ALL(false),
	COUNT_VEC(one, true),
	COUNT_VEC(four, true),
	COUNT_VEC(dup, true),
	COUNT_VEC_ALL(true),
};

static void count_vec_desc(const struct count_vec *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s", v->name,
		 v->started ? "started" : "unloaded");
}

KUNIT_ARRAY_PARAM(count_vec, count_vecs, count_vec_desc);

/* Vectors of 1, 4 and all 64 PMDs of the generic description. */
static void count_read_vectors_generic(struct kunit *test)
{
	const struct count_vec *v = test->param_value;
	u16 all[PFMK_GENERIC_NUM_PMCS];
	const u16 *regs = v->regs;
	unsigned int i;
	void *desc;

	if (!regs) {
		for (i = 0; i < PFMK_GENERIC_NUM_PMCS; i++)
			all[i] = PFMK_GENERIC_NUM_PMCS - 1 - i;
		regs = all;
	}
	desc = count_vectors_desc(test);
	if (v->started)
		pfmkt_load_start(test, desc, pfmkt_cpu());

	count_expect_vec(test, desc, regs, v->n);
}

/*
 * A context of the test PMU on @cpu: PMC 0 enabled (STEP 1), PMC 1 not
 * (STEP 0xffff without the enable bit), PMC 6 left 0, PMD 1 at 77 and
 * PMD 6 at ~0, started.
 */
static void *count_disabled_started(struct kunit *test, int cpu)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, 0xffff);
	pfmkt_write_pmd(test, desc, 1, 77);
	pfmkt_write_pmd(test, desc, 6, ~0ULL);
	pfmkt_load_start(test, desc, cpu);
	return desc;
}

/* Only the PMD whose PMC is enabled has an active event. */
static void count_disabled_pmd_inactive(struct kunit *test)
{
	int cpu = pfmkt_cpu();

	count_disabled_started(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
}

/* A PMD whose PMC is disabled keeps the value written to it. */
static void count_disabled_pmd(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_disabled_started(test, cpu);

	pfmk_test_pmu_tick(cpu, 9);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 77ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 6), ~0ULL);
}

/* Next to disabled PMDs, the enabled one counts. */
static void count_disabled_pmd_enabled_counts(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_disabled_started(test, cpu);

	pfmk_test_pmu_tick(cpu, 9);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 9ULL);
}

/*
 * read_pmds follows perfmon2 2.2: it reads reg_num and reg_set only, keeps
 * the input bits of reg_flags, and writes reg_value, the return flags,
 * reg_last_reset_val and reg_ovfl_switch_cnt; every other field of the
 * request is left as the caller had it (a pfarg_pmd from the stack).
 *
 * PMD 3 written 10 (resets 1111 and 2222, switch count 5) and PMD 4
 * written 20, the context loaded or not (the test's parameter: the
 * fields do not depend on the state), then both read into @pmd filled
 * with 0x5a in every field but reg_num and reg_set.
 */
static void count_fields_read(struct kunit *test, struct pfarg_pmd *pmd)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	const bool *loaded = test->param_value;

	memset(pmd, 0, 2 * sizeof(*pmd));
	pmd[0].reg_num = 3;
	pmd[0].reg_value = 10;
	pmd[0].reg_long_reset = 1111;
	pmd[0].reg_short_reset = 2222;
	pmd[0].reg_ovfl_switch_cnt = 5;
	pmd[1].reg_num = 4;
	pmd[1].reg_value = 20;
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, pmd, 2), 0);
	pfmkt_write_pmc(test, desc, 3, PFMK_TEST_PMC(1));
	/* Loaded, not started. */
	if (*loaded)
		pfmkt_load(test, desc, pfmkt_cpu());

	memset(pmd, 0x5a, 2 * sizeof(*pmd));
	pmd[0].reg_num = 3;
	pmd[0].reg_set = 0;
	pmd[1].reg_num = 4;
	pmd[1].reg_set = 0;
	KUNIT_ASSERT_EQ(test, pfmk_read_pmds(desc, pmd, 2), 0);
}

/* The output fields: values, last reset value and switch count. */
static void count_read_fields_values(struct kunit *test)
{
	struct pfarg_pmd pmd[2];

	count_fields_read(test, pmd);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_value, 10ULL);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_last_reset_val, 10ULL);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_ovfl_switch_cnt, 5ULL);
	KUNIT_EXPECT_EQ(test, pmd[1].reg_value, 20ULL);
	KUNIT_EXPECT_EQ(test, pmd[1].reg_ovfl_switch_cnt, 0ULL);
}

/* The input-only fields are left as the caller had them. */
static void count_read_fields_inputs_untouched(struct kunit *test)
{
	struct pfarg_pmd pmd[2];

	count_fields_read(test, pmd);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_long_reset, 0x5a5a5a5a5a5a5a5aULL);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_short_reset, 0x5a5a5a5a5a5a5a5aULL);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_smpl_eventid, 0x5a5a5a5a5a5a5a5aULL);
}

/* reg_flags keeps its input bits, its return bits cleared. */
static void count_read_fields_flags_masked(struct kunit *test)
{
	struct pfarg_pmd pmd[2];

	count_fields_read(test, pmd);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_flags,
			0x5a5a5a5aU & ~PFM_REG_RETFL_MASK);
}

/*
 * Read PMDs 0 and 1 of @desc with their times into @pmd and @time, or
 * abort the test, also if PMD 0 ran longer than it was enabled: times
 * that cannot be compared are no state to start from.
 */
static void count_read_time(struct kunit *test, void *desc,
			    struct pfarg_pmd *pmd, struct pfmk_pmd_time *time)
{
	memset(pmd, 0, 2 * sizeof(*pmd));
	memset(time, 0, 2 * sizeof(*time));
	pmd[0].reg_num = 0;
	pmd[1].reg_num = 1;
	KUNIT_ASSERT_EQ(test, pfmk_read_pmds_time(desc, pmd, time, 2), 0);
	KUNIT_ASSERT_LE(test, time[0].time_running, time[0].time_enabled);
}

/*
 * A context whose PMD 0 counts 2 a tick from 1000, loaded and started
 * for 2 to 3 ms and 4 ticks, then read into @pmd and @time: PMD 0 at 1008.
 */
static void *count_time_started(struct kunit *test, struct pfarg_pmd *pmd,
				struct pfmk_pmd_time *time)
{
	void *desc = pfmkt_create_counting(test, 2, 1000);
	int cpu = pfmkt_cpu();

	pfmkt_load_start(test, desc, cpu);
	usleep_range(2000, 3000);
	pfmk_test_pmu_tick(cpu, 4);
	count_read_time(test, desc, pmd, time);
	return desc;
}

/* Never loaded: the value written, no enabled or running time. */
static void count_read_pmds_time_unloaded(struct kunit *test)
{
	void *desc = pfmkt_create_counting(test, 2, 1000);
	struct pfmk_pmd_time a[2];
	struct pfarg_pmd pmd[2];

	count_read_time(test, desc, pmd, a);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_value, 1000ULL);
	KUNIT_EXPECT_EQ(test, a[0].time_enabled, 0ULL);
	KUNIT_EXPECT_EQ(test, a[0].time_running, 0ULL);
}

/*
 * 2 to 3 ms after @a was read, PMD 0 of @desc has been enabled that much
 * longer, and running longer.
 */
static void count_expect_time_grows(struct kunit *test, void *desc,
				    const struct pfmk_pmd_time *a)
{
	struct pfmk_pmd_time b[2];
	struct pfarg_pmd pmd[2];

	usleep_range(2000, 3000);
	count_read_time(test, desc, pmd, b);
	KUNIT_EXPECT_GE(test, b[0].time_enabled,
			a[0].time_enabled + 2 * NSEC_PER_MSEC);
	KUNIT_EXPECT_GT(test, b[0].time_running, a[0].time_running);
}

/* count_time_started() stopped, then read into @pmd and @time. */
static void *count_time_stopped(struct kunit *test, struct pfarg_pmd *pmd,
				struct pfmk_pmd_time *time)
{
	void *desc = count_time_started(test, pmd, time);

	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	count_read_time(test, desc, pmd, time);
	return desc;
}

/* Started, read with its times: PMD 0 counted 4 ticks by 2. */
static void count_read_pmds_time_started_value(struct kunit *test)
{
	struct pfmk_pmd_time a[2];
	struct pfarg_pmd pmd[2];

	count_time_started(test, pmd, a);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_value, 1008ULL);
}

/* Times run once started. */
static void count_read_pmds_time_started(struct kunit *test)
{
	struct pfmk_pmd_time a[2];
	struct pfarg_pmd pmd[2];

	count_time_started(test, pmd, a);
	KUNIT_EXPECT_GE(test, a[0].time_enabled, 2 * NSEC_PER_MSEC);
	KUNIT_EXPECT_GT(test, a[0].time_running, 0ULL);
}

/* Started, a PMD without an event (PMD 1) has no time. */
static void count_read_pmds_time_no_event(struct kunit *test)
{
	struct pfmk_pmd_time a[2];
	struct pfarg_pmd pmd[2];

	count_time_started(test, pmd, a);
	KUNIT_EXPECT_EQ(test, a[1].time_enabled, 0ULL);
	KUNIT_EXPECT_EQ(test, a[1].time_running, 0ULL);
}

/* Times grow while started: a second read has more. */
static void count_read_pmds_time_grows(struct kunit *test)
{
	struct pfmk_pmd_time a[2];
	struct pfarg_pmd pmd[2];
	void *desc;

	desc = count_time_started(test, pmd, a);
	count_expect_time_grows(test, desc, a);
}

/* Enabled and running times do not grow while stopped. */
static void count_read_pmds_time_stopped(struct kunit *test)
{
	struct pfmk_pmd_time a[2], b[2];
	struct pfarg_pmd pmd[2];
	void *desc;

	desc = count_time_stopped(test, pmd, a);
	usleep_range(2000, 3000);
	count_read_time(test, desc, pmd, b);
	KUNIT_EXPECT_EQ(test, b[0].time_enabled, a[0].time_enabled);
	KUNIT_EXPECT_EQ(test, b[0].time_running, a[0].time_running);
}

/*
 * count_time_stopped() (read into @a), unloaded, then read again into
 * @pmd and @b.
 */
static void count_time_unloaded(struct kunit *test, struct pfarg_pmd *pmd,
				struct pfmk_pmd_time *a,
				struct pfmk_pmd_time *b)
{
	void *desc = count_time_stopped(test, pmd, a);

	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	count_read_time(test, desc, pmd, b);
}

/* Unload folds the times. */
static void count_read_pmds_time_folded(struct kunit *test)
{
	struct pfmk_pmd_time a[2], b[2];
	struct pfarg_pmd pmd[2];

	count_time_unloaded(test, pmd, a, b);
	KUNIT_EXPECT_EQ(test, b[0].time_enabled, a[0].time_enabled);
	KUNIT_EXPECT_EQ(test, b[0].time_running, a[0].time_running);
}

/* Unload folds the value. */
static void count_read_pmds_time_folded_value(struct kunit *test)
{
	struct pfmk_pmd_time a[2], b[2];
	struct pfarg_pmd pmd[2];

	count_time_unloaded(test, pmd, a, b);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_value, 1008ULL);
}

/* Unloaded, then loaded and started again: the times grow on. */
static void count_read_pmds_time_reload(struct kunit *test)
{
	struct pfmk_pmd_time a[2];
	struct pfarg_pmd pmd[2];
	void *desc;

	desc = count_time_stopped(test, pmd, a);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	pfmkt_load_start(test, desc, pfmkt_cpu());
	count_expect_time_grows(test, desc, a);
}

/*
 * Hardware events are accepted at write_pmcs and load only where perf
 * counts them.  Which case runs is decided by the machine the harness
 * boots, asked of perf (not of pfmk): the x86 TCG guests have no core PMU
 * (the count_hw_event_refused* cases run), the arm64 guests have QEMU's
 * PMUv3 (the count_hw_event_loads* cases run); Documentation/testing.rst.
 */
#define COUNT_HW_NONE	"perf counts no hardware cycles on this CPU"
#define COUNT_HW_SOME	"perf counts hardware cycles on this CPU"
#define COUNT_HW_CYCLES	PFMK_GEN_HW(PERF_COUNT_HW_CPU_CYCLES)

/* Unloaded context: PMD 0 cpu-clock from 5, PMD 1 hardware cycles. */
static void *count_hw_create(struct kunit *test, int cpu, int expected)
{
	void *desc = pfmkt_create(test, "");

	kunit_info(test, "perf on hardware cycles, CPU %d: %d\n", cpu,
		   expected);
	pfmkt_write_pmc(test, desc, 0, PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK));
	pfmkt_write_pmc(test, desc, 1, COUNT_HW_CYCLES);
	pfmkt_write_pmd(test, desc, 0, 5);
	return desc;
}

/*
 * Set-up of the cases where perf has no PMU for hardware cycles (skipped
 * where it has one): count_hw_create()'s context, whose load perf refused
 * with @expected.
 */
static void *count_hw_refused(struct kunit *test, int *expected)
{
	int cpu = pfmkt_cpu();
	void *desc;

	*expected = pfmk_test_hw_cycles_expected(cpu);
	if (!*expected)
		kunit_skip(test, COUNT_HW_SOME);
	desc = count_hw_create(test, cpu, *expected);
	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(desc, cpu), *expected);
	return desc;
}

/* count_hw_refused()'s context without the hardware event, loaded. */
static void *count_hw_loaded(struct kunit *test, int *expected)
{
	void *desc = count_hw_refused(test, expected);

	pfmkt_write_pmc(test, desc, 1, 0);
	pfmkt_load(test, desc, pfmkt_cpu());
	return desc;
}

/* No PMU for it: the load gives perf's errno, the context unloaded. */
static void count_hw_event_refused(struct kunit *test)
{
	int expected;
	void *desc = count_hw_refused(test, &expected);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/* After the refused load the context cannot start. */
static void count_hw_event_refused_start(struct kunit *test)
{
	int expected;
	void *desc = count_hw_refused(test, &expected);

	KUNIT_EXPECT_EQ(test, pfmk_start(desc, NULL), -ENOTCONN);
}

/* After the refused load PMD 0 keeps the value written. */
static void count_hw_event_refused_pmd(struct kunit *test)
{
	int expected;
	void *desc = count_hw_refused(test, &expected);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 5ULL);
}

/* Refused, then without the hardware event: the load goes through. */
static void count_hw_event_refused_removed(struct kunit *test)
{
	int expected;
	void *desc = count_hw_refused(test, &expected);

	pfmkt_write_pmc(test, desc, 1, 0);
	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), 0);
}

/* Refused, then loaded without the hardware event: in the loaded state. */
static void count_hw_event_refused_removed_state(struct kunit *test)
{
	int expected;
	void *desc = count_hw_loaded(test, &expected);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
}

/* Reprogrammed on the loaded context: refused with perf's errno. */
static void count_hw_event_refused_reprogram(struct kunit *test)
{
	int expected;
	void *desc = count_hw_loaded(test, &expected);

	KUNIT_EXPECT_EQ(test, pfmkt_try_write_pmc(desc, 1, COUNT_HW_CYCLES),
			expected);
}

/* The refused reprogramming leaves the context loaded. */
static void count_hw_event_refused_reprogram_state(struct kunit *test)
{
	int expected;
	void *desc = count_hw_loaded(test, &expected);

	KUNIT_ASSERT_EQ(test, pfmkt_try_write_pmc(desc, 1, COUNT_HW_CYCLES),
			expected);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
}

/*
 * count_hw_loaded()'s context, the hardware event refused again on PMD 1,
 * then started for 2 to 3 ms.
 */
static void *count_hw_reprogram_started(struct kunit *test)
{
	int expected;
	void *desc = count_hw_loaded(test, &expected);

	KUNIT_ASSERT_EQ(test, pfmkt_try_write_pmc(desc, 1, COUNT_HW_CYCLES),
			expected);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	usleep_range(2000, 3000);
	return desc;
}

/* After the refused reprogramming, PMD 0 counts. */
static void count_hw_event_refused_counts(struct kunit *test)
{
	void *desc = count_hw_reprogram_started(test);

	KUNIT_EXPECT_GT(test, pfmkt_read_pmd(test, desc, 0), 5ULL);
}

/* After the refused reprogramming, PMD 1 does not count. */
static void count_hw_event_refused_counts_not_pmd1(struct kunit *test)
{
	void *desc = count_hw_reprogram_started(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 0ULL);
}

/* After the refused reprogramming, the context is started. */
static void count_hw_event_refused_counts_started(struct kunit *test)
{
	void *desc = count_hw_reprogram_started(test);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED);
}

/*
 * Set-up of the cases where perf has a PMU for hardware cycles (skipped
 * where it has none): count_hw_create()'s context, not loaded.
 */
static void *count_hw_some(struct kunit *test)
{
	int cpu = pfmkt_cpu(), expected = pfmk_test_hw_cycles_expected(cpu);

	if (expected)
		kunit_skip(test, COUNT_HW_NONE " (%d)", expected);
	return count_hw_create(test, cpu, expected);
}

/* A PMU for it: the hardware event loads. */
static void count_hw_event_loads(struct kunit *test)
{
	void *desc = count_hw_some(test);

	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), 0);
}

/* Loaded with the hardware event, the context is in the loaded state. */
static void count_hw_event_loads_state(struct kunit *test)
{
	void *desc = count_hw_some(test);

	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
}

/* count_hw_some()'s context loaded and started for 2 to 3 ms. */
static void *count_hw_started(struct kunit *test)
{
	void *desc = count_hw_some(test);

	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	usleep_range(2000, 3000);
	return desc;
}

/* Started, the hardware event counts. */
static void count_hw_event_loads_counts(struct kunit *test)
{
	void *desc = count_hw_started(test);

	KUNIT_EXPECT_GT(test, pfmkt_read_pmd(test, desc, 1), 0ULL);
}

/* Started with the hardware event, the context is in the started state. */
static void count_hw_event_loads_started(struct kunit *test)
{
	void *desc = count_hw_started(test);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED);
}

/*
 * A context of the test PMU counting 1 a tick on PMD 0, unloaded, and the
 * test's CPU taken offline (skipped without a second online CPU).
 */
static void *count_offline_setup(struct kunit *test, int cpu)
{
	void *desc;

	if (num_online_cpus() < 2 || cpu == 0)
		kunit_skip(test, "needs a second online CPU to take offline, have %u",
			   num_online_cpus());

	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_offline(test, cpu);
	return desc;
}

/* Loading on a CPU that is possible but offline: -ENODEV. */
static void count_load_offline_cpu(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_offline_setup(test, cpu);

	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, cpu), -ENODEV);
}

/* The load refused on an offline CPU leaves the context unloaded. */
static void count_load_offline_cpu_state(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_offline_setup(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(desc, cpu), -ENODEV);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/* count_offline_setup()'s context, refused there, and the CPU back. */
static void *count_offline_back(struct kunit *test, int cpu)
{
	void *desc = count_offline_setup(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(desc, cpu), -ENODEV);
	pfmkt_online(test, cpu);
	return desc;
}

/* Refused there, the context loads once the CPU is back. */
static void count_load_offline_cpu_back(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_offline_back(test, cpu);

	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, cpu), 0);
}

/* Refused there, the context counts once the CPU is back. */
static void count_load_offline_cpu_back_counts(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = count_offline_back(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(desc, cpu), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 3ULL);
}

static struct kunit_case pfmk_count_cases[] = {
	KUNIT_CASE(count_exact_written),
	KUNIT_CASE(count_exact_loaded_state),
	KUNIT_CASE(count_exact_loaded_inactive),
	KUNIT_CASE(count_exact_loaded),
	KUNIT_CASE(count_exact_started_active),
	KUNIT_CASE(count_exact_started),
	KUNIT_CASE(count_exact_stopped_inactive),
	KUNIT_CASE(count_exact_stopped),
	KUNIT_CASE(count_exact_restarted),
	KUNIT_CASE(count_exact_unloaded_state),
	KUNIT_CASE(count_exact_unloaded_inactive),
	KUNIT_CASE(count_exact_unloaded),
	KUNIT_CASE(count_exact_unloaded_frozen),
	KUNIT_CASE(count_exact_closed),
	KUNIT_CASE(count_clock_loaded),
	KUNIT_CASE(count_clock_started),
	KUNIT_CASE(count_clock_running),
	KUNIT_CASE(count_clock_stopped),
	KUNIT_CASE(count_clock_frozen),
	KUNIT_CASE(count_clock_restarted),
	KUNIT_CASE(count_clock_restarted_bounded),
	KUNIT_CASE(count_clock_unloaded),
	KUNIT_CASE_PARAM(count_read_vectors_generic, count_vec_gen_params),
	KUNIT_CASE(count_disabled_pmd_inactive),
	KUNIT_CASE(count_disabled_pmd),
	KUNIT_CASE(count_disabled_pmd_enabled_counts),
	KUNIT_CASE_PARAM(count_read_fields_values, count_loaded_gen_params),
	KUNIT_CASE_PARAM(count_read_fields_inputs_untouched,
			 count_loaded_gen_params),
	KUNIT_CASE_PARAM(count_read_fields_flags_masked,
			 count_loaded_gen_params),
	KUNIT_CASE(count_read_pmds_time_unloaded),
	KUNIT_CASE(count_read_pmds_time_started_value),
	KUNIT_CASE(count_read_pmds_time_started),
	KUNIT_CASE(count_read_pmds_time_no_event),
	KUNIT_CASE(count_read_pmds_time_grows),
	KUNIT_CASE(count_read_pmds_time_stopped),
	KUNIT_CASE(count_read_pmds_time_folded),
	KUNIT_CASE(count_read_pmds_time_folded_value),
	KUNIT_CASE(count_read_pmds_time_reload),
	KUNIT_CASE(count_hw_event_refused),
	KUNIT_CASE(count_hw_event_refused_start),
	KUNIT_CASE(count_hw_event_refused_pmd),
	KUNIT_CASE(count_hw_event_refused_removed),
	KUNIT_CASE(count_hw_event_refused_removed_state),
	KUNIT_CASE(count_hw_event_refused_reprogram),
	KUNIT_CASE(count_hw_event_refused_reprogram_state),
	KUNIT_CASE(count_hw_event_refused_counts),
	KUNIT_CASE(count_hw_event_refused_counts_not_pmd1),
	KUNIT_CASE(count_hw_event_refused_counts_started),
	KUNIT_CASE(count_hw_event_loads),
	KUNIT_CASE(count_hw_event_loads_state),
	KUNIT_CASE(count_hw_event_loads_counts),
	KUNIT_CASE(count_hw_event_loads_started),
	KUNIT_CASE(count_load_offline_cpu),
	KUNIT_CASE(count_load_offline_cpu_state),
	KUNIT_CASE(count_load_offline_cpu_back),
	KUNIT_CASE(count_load_offline_cpu_back_counts),
	{}
};

static struct kunit_suite pfmk_count_suite = {
	.name = "pfmk_count",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_count_cases,
};

kunit_test_suites(&pfmk_count_suite);
