// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_multi: several contexts counting at once, on one
 * CPU and on two CPUs, each its own (one context's counts are
 * pfmk_count's, pfmk_kunit_count.c).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <pfmk/pfmk.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

/**
 * struct multi_pair - two contexts on two CPUs
 * @cpu_a: the first online CPU.
 * @cpu_b: the test's CPU, another one.
 * @a: a context counting 1 a tick from 0, started on @cpu_a.
 * @b: a context counting 2 a tick from 0, started on @cpu_b.
 */
struct multi_pair {
	int	cpu_a;
	int	cpu_b;
	void	*a;
	void	*b;
};

/* @p's two contexts (skipped without a second online CPU). */
static void multi_two_cpus_pair(struct kunit *test, struct multi_pair *p)
{
	p->cpu_a = cpumask_first(cpu_online_mask);
	p->cpu_b = pfmkt_cpu();
	if (p->cpu_a == p->cpu_b)
		kunit_skip(test, "needs 2 online CPUs, have %u",
			   num_online_cpus());

	p->a = pfmkt_create_started(test, p->cpu_a, 1, 0);
	p->b = pfmkt_create_started(test, p->cpu_b, 2, 0);
}

/* Two contexts on two CPUs: each the only one active on its CPU. */
static void multi_two_cpus_active(struct kunit *test)
{
	struct multi_pair p;

	multi_two_cpus_pair(test, &p);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(p.cpu_a), 1U);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(p.cpu_b), 1U);
}

/* Two contexts on two CPUs: ticks on one CPU count in its context only. */
static void multi_two_cpus_apart(struct kunit *test)
{
	struct multi_pair p;

	multi_two_cpus_pair(test, &p);
	pfmk_test_pmu_tick(p.cpu_a, 10);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, p.a, 0), 10ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, p.b, 0), 0ULL);
}

/* Two contexts on two CPUs: then the other CPU's ticks count in its own. */
static void multi_two_cpus_apart_other(struct kunit *test)
{
	struct multi_pair p;

	multi_two_cpus_pair(test, &p);
	pfmk_test_pmu_tick(p.cpu_a, 10);
	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, p.a, 0), 10ULL);
	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, p.b, 0), 0ULL);
	pfmk_test_pmu_tick(p.cpu_b, 10);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, p.a, 0), 10ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, p.b, 0), 20ULL);
}

/* multi_two_cpus_pair() ticked 10 times on each CPU, then @p->a stopped. */
static void multi_two_cpus_stopped(struct kunit *test, struct multi_pair *p)
{
	multi_two_cpus_pair(test, p);
	pfmk_test_pmu_tick(p->cpu_a, 10);
	pfmk_test_pmu_tick(p->cpu_b, 10);
	KUNIT_ASSERT_EQ(test, pfmk_stop(p->a), 0);
}

/* Two contexts on two CPUs: stopping one leaves the other active. */
static void multi_two_cpus_stop(struct kunit *test)
{
	struct multi_pair p;

	multi_two_cpus_stopped(test, &p);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(p.cpu_a), 0U);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(p.cpu_b), 1U);
}

/* Two contexts on two CPUs: stopping one does not stop the other. */
static void multi_two_cpus_stop_counts(struct kunit *test)
{
	struct multi_pair p;

	multi_two_cpus_stopped(test, &p);
	pfmk_test_pmu_tick(p.cpu_a, 10);
	pfmk_test_pmu_tick(p.cpu_b, 10);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, p.a, 0), 10ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, p.b, 0), 40ULL);
}

/* multi_two_cpus_pair(), 10 ticks on @p->cpu_b, then @p->a closed. */
static void multi_two_cpus_closed(struct kunit *test, struct multi_pair *p)
{
	multi_two_cpus_pair(test, p);
	pfmk_test_pmu_tick(p->cpu_b, 10);
	pfmkt_close(test, p->a);
}

/* Two contexts on two CPUs: closing one leaves nothing on its CPU. */
static void multi_two_cpus_close(struct kunit *test)
{
	struct multi_pair p;

	multi_two_cpus_closed(test, &p);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(p.cpu_a), 0U);
}

/* Two contexts on two CPUs: closing one leaves the other's count. */
static void multi_two_cpus_close_keeps(struct kunit *test)
{
	struct multi_pair p;

	multi_two_cpus_closed(test, &p);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, p.b, 0), 20ULL);
}

/* Two contexts on two CPUs: closing one leaves the other counting. */
static void multi_two_cpus_close_counts(struct kunit *test)
{
	struct multi_pair p;

	multi_two_cpus_closed(test, &p);
	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, p.b, 0), 20ULL);
	pfmk_test_pmu_tick(p.cpu_b, 1);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, p.b, 0), 22ULL);
}

/* Two contexts on two CPUs: closing one leaves the other started. */
static void multi_two_cpus_close_started(struct kunit *test)
{
	struct multi_pair p;

	multi_two_cpus_closed(test, &p);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(p.b),
			PFM_CTX_LOADED | PFMK_STATE_STARTED);
}

/*
 * Two contexts started on @cpu, @a counting 1 and @b 3 a tick from 1000,
 * and ticked 10 times.
 */
static void multi_same_cpu_pair(struct kunit *test, int cpu, void **a,
				void **b)
{
	*a = pfmkt_create_started(test, cpu, 1, 0);
	*b = pfmkt_create_started(test, cpu, 3, 1000);
	pfmk_test_pmu_tick(cpu, 10);
}

/* Two contexts on one CPU: both active. */
static void multi_same_cpu_active(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *a, *b;

	multi_same_cpu_pair(test, cpu, &a, &b);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 2U);
}

/* Two contexts on one CPU: each counts its own. */
static void multi_same_cpu_apart(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *a, *b;

	multi_same_cpu_pair(test, cpu, &a, &b);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, a, 0), 10ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, b, 0), 1030ULL);
}

/* Two contexts on one CPU: stopping one leaves the other active. */
static void multi_same_cpu_stop(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *a, *b;

	multi_same_cpu_pair(test, cpu, &a, &b);
	KUNIT_ASSERT_EQ(test, pfmk_stop(a), 0);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
}

/* Two contexts on one CPU: stopping one leaves the other started. */
static void multi_same_cpu_stop_started(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *a, *b;

	multi_same_cpu_pair(test, cpu, &a, &b);
	KUNIT_ASSERT_EQ(test, pfmk_stop(a), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(b),
			PFM_CTX_LOADED | PFMK_STATE_STARTED);
}

/* Two contexts on one CPU: stopping one does not stop the other. */
static void multi_same_cpu_stop_counts(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *a, *b;

	multi_same_cpu_pair(test, cpu, &a, &b);
	KUNIT_ASSERT_EQ(test, pfmk_stop(a), 0);
	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, a, 0), 10ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, b, 0), 1060ULL);
}

/*
 * Two contexts on one CPU: writing one does not write the other.  @a's
 * PMD written with 500 (it reads so) and started again: @b counts on
 * from its own 1030, 3 a tick, not from the value written to @a.
 */
static void multi_same_cpu_write(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *a, *b;

	multi_same_cpu_pair(test, cpu, &a, &b);
	KUNIT_ASSERT_EQ(test, pfmk_stop(a), 0);
	pfmkt_write_pmd(test, a, 0, 500);
	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, a, 0), 500ULL);
	KUNIT_ASSERT_EQ(test, pfmk_start(a, NULL), 0);
	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, b, 0), 1060ULL);
}

/* Two contexts on one CPU: closing one leaves the other active. */
static void multi_same_cpu_close_one(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *a, *b;

	multi_same_cpu_pair(test, cpu, &a, &b);
	pfmkt_close(test, b);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
}

/* Two contexts on one CPU: closing one leaves the other's count. */
static void multi_same_cpu_close_one_keeps(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *a, *b;

	multi_same_cpu_pair(test, cpu, &a, &b);
	pfmkt_close(test, b);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, a, 0), 10ULL);
}

/* Two contexts on one CPU: closing one leaves the other counting. */
static void multi_same_cpu_close_one_counts(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *a, *b;

	multi_same_cpu_pair(test, cpu, &a, &b);
	pfmkt_close(test, b);
	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, a, 0), 10ULL);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, a, 0), 11ULL);
}

/* Two contexts on one CPU: closing both leaves nothing active. */
static void multi_same_cpu_close_both(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *a, *b;

	multi_same_cpu_pair(test, cpu, &a, &b);
	pfmkt_close(test, b);
	KUNIT_ASSERT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
	pfmk_test_pmu_tick(cpu, 1);
	pfmkt_close(test, a);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

#define MULTI_NR	16

/* MULTI_NR contexts started on @cpu, context i counting i + 1 from i << 32. */
static void multi_many_started(struct kunit *test, int cpu, void **desc)
{
	unsigned int i;

	for (i = 0; i < MULTI_NR; i++)
		desc[i] = pfmkt_create_started(test, cpu, i + 1, (u64)i << 32);
}

/* Many contexts on one CPU: all active. */
static void multi_many_active(struct kunit *test)
{
	void *desc[MULTI_NR];
	int cpu = pfmkt_cpu();

	multi_many_started(test, cpu, desc);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), MULTI_NR);
}

/* Many contexts on one CPU: each counts its own. */
static void multi_many_apart(struct kunit *test)
{
	void *desc[MULTI_NR];
	int cpu = pfmkt_cpu();
	unsigned int i;

	multi_many_started(test, cpu, desc);
	pfmk_test_pmu_tick(cpu, 100);
	for (i = 0; i < MULTI_NR; i++)
		KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc[i], 0),
				((u64)i << 32) + 100 * (i + 1));
}

/* multi_many_started(), 100 ticks, then the even contexts closed. */
static void multi_many_half_close(struct kunit *test, int cpu, void **desc)
{
	unsigned int i;

	multi_many_started(test, cpu, desc);
	pfmk_test_pmu_tick(cpu, 100);
	for (i = 0; i < MULTI_NR; i += 2)
		pfmkt_close(test, desc[i]);
}

/* Many contexts on one CPU, half of them closed midway: half active. */
static void multi_many_half_closed_active(struct kunit *test)
{
	void *desc[MULTI_NR];
	int cpu = pfmkt_cpu();

	multi_many_half_close(test, cpu, desc);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), MULTI_NR / 2);
}

/* Many contexts on one CPU, half of them closed midway: those are dead. */
static void multi_many_half_closed_dead(struct kunit *test)
{
	void *desc[MULTI_NR];
	int cpu = pfmkt_cpu();
	unsigned int i;

	multi_many_half_close(test, cpu, desc);
	for (i = 0; i < MULTI_NR; i += 2)
		KUNIT_EXPECT_EQ(test, pfmk_get_state(desc[i]), -EBADF);
}

/* Many contexts on one CPU, half of them closed midway: the rest count. */
static void multi_many_half_closed(struct kunit *test)
{
	void *desc[MULTI_NR];
	int cpu = pfmkt_cpu();
	unsigned int i;

	multi_many_half_close(test, cpu, desc);
	pfmk_test_pmu_tick(cpu, 10);
	for (i = 1; i < MULTI_NR; i += 2)
		KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc[i], 0),
				((u64)i << 32) + 110 * (i + 1));
}

/* Many contexts on one CPU, half closed midway: closing the rest ends all. */
static void multi_many_all_closed(struct kunit *test)
{
	void *desc[MULTI_NR];
	int cpu = pfmkt_cpu();
	unsigned int i;

	multi_many_half_close(test, cpu, desc);
	KUNIT_ASSERT_EQ(test, pfmk_test_pmu_nr_active(cpu), MULTI_NR / 2);
	pfmk_test_pmu_tick(cpu, 10);
	for (i = 1; i < MULTI_NR; i += 2)
		pfmkt_close(test, desc[i]);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

static struct kunit_case pfmk_multi_cases[] = {
	KUNIT_CASE(multi_two_cpus_active),
	KUNIT_CASE(multi_two_cpus_apart),
	KUNIT_CASE(multi_two_cpus_apart_other),
	KUNIT_CASE(multi_two_cpus_stop),
	KUNIT_CASE(multi_two_cpus_stop_counts),
	KUNIT_CASE(multi_two_cpus_close),
	KUNIT_CASE(multi_two_cpus_close_keeps),
	KUNIT_CASE(multi_two_cpus_close_counts),
	KUNIT_CASE(multi_two_cpus_close_started),
	KUNIT_CASE(multi_same_cpu_active),
	KUNIT_CASE(multi_same_cpu_apart),
	KUNIT_CASE(multi_same_cpu_stop),
	KUNIT_CASE(multi_same_cpu_stop_started),
	KUNIT_CASE(multi_same_cpu_stop_counts),
	KUNIT_CASE(multi_same_cpu_write),
	KUNIT_CASE(multi_same_cpu_close_one),
	KUNIT_CASE(multi_same_cpu_close_one_keeps),
	KUNIT_CASE(multi_same_cpu_close_one_counts),
	KUNIT_CASE(multi_same_cpu_close_both),
	KUNIT_CASE(multi_many_active),
	KUNIT_CASE(multi_many_apart),
	KUNIT_CASE(multi_many_half_closed_active),
	KUNIT_CASE(multi_many_half_closed_dead),
	KUNIT_CASE(multi_many_half_closed),
	KUNIT_CASE(multi_many_all_closed),
	{}
};

static struct kunit_suite pfmk_multi_suite = {
	.name = "pfmk_multi",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_multi_cases,
};

kunit_test_suites(&pfmk_multi_suite);
