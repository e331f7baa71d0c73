// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_state: the context state machine.
 *
 * Every call in every state (UNLOADED, LOADED stopped, LOADED started)
 * returns the documented errno, and a refused call changes neither the
 * state nor the counts.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

#define STATE_STARTED	(PFM_CTX_LOADED | PFMK_STATE_STARTED)

static int state_delete_set0(void *desc)
{
	struct pfarg_setinfo info;

	memset(&info, 0, sizeof(info));
	return pfmk_delete_evtsets(desc, &info, 1);
}

static int state_getinfo_set0(void *desc)
{
	struct pfarg_setinfo info;

	memset(&info, 0, sizeof(info));
	return pfmk_getinfo_evtsets(desc, &info, 1);
}

/* UNLOADED: programming and reading work, monitoring calls do not. */
static void state_unloaded(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	KUNIT_EXPECT_EQ(test, pfmkt_try_write_pmc(desc, 0, PFMK_TEST_PMC(1)),
			0);
	KUNIT_EXPECT_EQ(test, pfmkt_try_write_pmd(desc, 0, 10), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 10ULL);
	KUNIT_EXPECT_EQ(test, pfmk_start(desc, NULL), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, pfmk_stop(desc), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, pfmk_unload_context(desc), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, state_getinfo_set0(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(pfmkt_cpu()), 0U);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 10ULL);
	pfmkt_close(test, desc);
}

/* LOADED and stopped. */
static void state_loaded_stopped(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	int cpu = pfmkt_cpu();

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, cpu), -EBUSY);
	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc,
					     cpumask_first(cpu_online_mask)),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, pfmk_stop(desc), -EALREADY);
	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -EBUSY);
	KUNIT_EXPECT_EQ(test, pfmkt_mkset(desc, 0, 0, 0, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, state_delete_set0(desc), -EBUSY);
	KUNIT_EXPECT_EQ(test, state_getinfo_set0(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);

	KUNIT_EXPECT_EQ(test, pfmkt_try_write_pmc(desc, 0, PFMK_TEST_PMC(2)),
			0);
	KUNIT_EXPECT_EQ(test, pfmkt_try_write_pmd(desc, 0, 20), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 20ULL);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 20ULL);

	KUNIT_EXPECT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 20ULL);
	pfmkt_close(test, desc);
}

/* LOADED and started: no reprogramming; unload stops first. */
static void state_loaded_started(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	int cpu = pfmkt_cpu();

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(3));
	pfmkt_write_pmd(test, desc, 0, 1000);
	pfmkt_load_start(test, desc, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), STATE_STARTED);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);

	KUNIT_EXPECT_EQ(test, pfmkt_try_write_pmc(desc, 0, PFMK_TEST_PMC(9)),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, pfmkt_try_write_pmc(desc, 1, PFMK_TEST_PMC(9)),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, pfmkt_try_write_pmd(desc, 0, 5), -EBUSY);
	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, cpu), -EBUSY);
	KUNIT_EXPECT_EQ(test, pfmk_start(desc, NULL), -EALREADY);
	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -EBUSY);
	KUNIT_EXPECT_EQ(test, pfmkt_mkset(desc, 0, 0, 0, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, state_delete_set0(desc), -EBUSY);
	KUNIT_EXPECT_EQ(test, state_getinfo_set0(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), STATE_STARTED);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);

	/* The refused writes changed nothing: STEP 3 from 1000. */
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 1015ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 0ULL);

	KUNIT_EXPECT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 1015ULL);
	KUNIT_EXPECT_EQ(test, pfmk_stop(desc), -ENOTCONN);
	pfmkt_close(test, desc);
}

/* close works in every state and detaches the events. */
static void state_close_any_state(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *a, *b, *c;

	a = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	b = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	c = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	pfmkt_write_pmc(test, a, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, b, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, c, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, c, 7, PFMK_TEST_PMC(1));
	pfmkt_load(test, b, cpu);
	pfmkt_load_start(test, c, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 2U);

	pfmkt_close(test, c);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
	pfmkt_close(test, b);
	pfmkt_close(test, a);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(a), -EBADF);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(b), -EBADF);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(c), -EBADF);
}

/* write_pmds on a loaded, stopped context takes effect at once. */
static void state_write_pmds_loaded(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	int cpu = pfmkt_cpu();

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(2));
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 50);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 100ULL);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);

	pfmkt_write_pmd(test, desc, 0, 1000);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 1000ULL);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 1010ULL);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);

	/* A value near the top wraps like a 64-bit counter. */
	pfmkt_write_pmd(test, desc, 0, ~0ULL - 3);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 2ULL);
	pfmkt_close(test, desc);
}

/* write_pmcs on a loaded, stopped context re-creates the events. */
static void state_write_pmcs_loaded(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	int cpu = pfmkt_cpu();

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);

	/* New STEP, same value. */
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(100));
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 10ULL);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
	pfmk_test_pmu_tick(cpu, 2);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 210ULL);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);

	/* Disabled: the PMD keeps its value and stops counting. */
	pfmkt_write_pmc(test, desc, 0, 0);
	pfmkt_write_pmc(test, desc, 5, PFMK_TEST_PMC(7));
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 210ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 5), 21ULL);
	pfmkt_close(test, desc);
}

/* A later load continues from the folded value, on any CPU. */
static void state_reload_continues(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	int cpu = pfmkt_cpu(), other = cpumask_first(cpu_online_mask);

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(4));
	pfmkt_write_pmd(test, desc, 0, 1ULL << 40);
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 25);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			(1ULL << 40) + 100);

	pfmkt_load(test, desc, other);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			(1ULL << 40) + 100);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(other), 1U);
	pfmk_test_pmu_tick(other, 25);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			(1ULL << 40) + 200);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(other), 0U);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			(1ULL << 40) + 200);
	pfmkt_close(test, desc);
}

static void state_getinfo(struct kunit *test, void *desc,
			  struct pfarg_setinfo *info)
{
	memset(info, 0, sizeof(*info));
	KUNIT_EXPECT_EQ(test, pfmk_getinfo_evtsets(desc, info, 1), 0);
}

/* set_runs counts starts; set_act_duration grows only while started. */
static void state_set_runs_duration(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct pfarg_setinfo a, b;
	int cpu = pfmkt_cpu();

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, cpu);
	state_getinfo(test, desc, &a);
	KUNIT_EXPECT_EQ(test, a.set_runs, 0ULL);
	KUNIT_EXPECT_EQ(test, a.set_act_duration, 0ULL);

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	usleep_range(2000, 3000);
	state_getinfo(test, desc, &a);
	KUNIT_EXPECT_EQ(test, a.set_runs, 1ULL);
	KUNIT_EXPECT_GE(test, a.set_act_duration, 2 * NSEC_PER_MSEC);
	usleep_range(2000, 3000);
	state_getinfo(test, desc, &b);
	KUNIT_EXPECT_GE(test, b.set_act_duration,
			a.set_act_duration + 2 * NSEC_PER_MSEC);

	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	state_getinfo(test, desc, &a);
	usleep_range(2000, 3000);
	state_getinfo(test, desc, &b);
	KUNIT_EXPECT_EQ(test, b.set_act_duration, a.set_act_duration);
	KUNIT_EXPECT_EQ(test, b.set_runs, 1ULL);

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	state_getinfo(test, desc, &a);
	KUNIT_EXPECT_EQ(test, a.set_runs, 3ULL);
	usleep_range(2000, 3000);
	state_getinfo(test, desc, &b);
	KUNIT_EXPECT_EQ(test, b.set_act_duration, a.set_act_duration);
	pfmkt_close(test, desc);
}

static struct kunit_case pfmk_state_cases[] = {
	KUNIT_CASE(state_unloaded),
	KUNIT_CASE(state_loaded_stopped),
	KUNIT_CASE(state_loaded_started),
	KUNIT_CASE(state_close_any_state),
	KUNIT_CASE(state_write_pmds_loaded),
	KUNIT_CASE(state_write_pmcs_loaded),
	KUNIT_CASE(state_reload_continues),
	KUNIT_CASE(state_set_runs_duration),
	{}
};

static struct kunit_suite pfmk_state_suite = {
	.name = "pfmk_state",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_state_cases,
};

kunit_test_suites(&pfmk_state_suite);
