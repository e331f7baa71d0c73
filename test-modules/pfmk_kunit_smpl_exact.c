// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_smpl_exact: exact overflows, samples, resets and
 * random periods on the deterministic test PMU (Documentation/sampling.rst).
 *
 * The test PMU advances all started events of a CPU together, in chunks
 * that end where the next sampling event's period runs out: at an
 * overflow, every other PMD has counted the same ticks.  It calls the
 * handler once per tick that ends a period and carries the excess modulo
 * the period; pfmk's short reset carries it too (the PMD keeps what it
 * counted past zero, modulo the new period, and whole periods in it are
 * ovfl_missed), so overflows stay on the grid of the period.  Random
 * periods are pfmk_smpl_random's (pfmk_kunit_smpl_random.c).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

/* PMD0 (step 1) samples every EXACT_P ticks; EXACT_K ticks are given. */
#define EXACT_P		5ULL
#define EXACT_K		23U
#define EXACT_N		(EXACT_K / EXACT_P)
#define EXACT_STEP1	3ULL
#define EXACT_BUF	4096ULL
/* An entry with one sampled PMD. */
#define EXACT_ENTRY	(PFMKT_ENTRY + 8)

/*
 * PMC0 step 1 samples every EXACT_P ticks and records PMD1, which counts
 * with step 3.
 */
static void *exact_setup(struct kunit *test, int cpu, void **buf)
{
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(EXACT_STEP1));
	pfmkt_write_sampler(test, desc, 0, EXACT_P, 0, BIT_ULL(1));
	pfmkt_load_start(test, desc, cpu);
	return desc;
}

/* exact_setup(), then EXACT_K ticks: EXACT_N overflows. */
static void *exact_run(struct kunit *test, int cpu, void **buf)
{
	void *desc = exact_setup(test, cpu, buf);

	pfmk_test_pmu_tick(cpu, EXACT_K);
	return desc;
}

static void smpl_clock_fn(void *t)
{
	*(u64 *)t = local_clock();
}

/* local_clock() of @cpu, the clock of its entries' tstamp, read there. */
static u64 smpl_clock_on(int cpu)
{
	u64 t = 0;

	smp_call_function_single(cpu, smpl_clock_fn, &t, 1);
	return t;
}

/* Nothing is recorded before the first period ends. */
static void smpl_exact_none_before_period(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *buf;

	exact_setup(test, cpu, &buf);
	pfmk_test_pmu_tick(cpu, EXACT_P - 1);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 0ULL);
	KUNIT_EXPECT_EQ(test, ((struct pfm_dfl_smpl_hdr *)buf)->hdr_cur_offs,
			(u64)PFMKT_HDR);
}

/* exact_run(), its EXACT_N entries there; *@cpu its CPU. */
static void *exact_entries_run(struct kunit *test, int *cpu)
{
	void *buf;

	*cpu = pfmkt_cpu();
	exact_run(test, *cpu, &buf);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), (u64)EXACT_N);
	return buf;
}

/* The header: an entry per period written, no overflow of the buffer. */
static void smpl_exact_entries_hdr(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;
	int cpu;

	hdr = exact_entries_run(test, &cpu);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs,
			PFMKT_HDR + EXACT_ENTRY * EXACT_N);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 0ULL);
}

/* Each entry names its PMD, its reset, its CPU and its set. */
static void smpl_exact_entries_fields(struct kunit *test)
{
	const struct pfm_dfl_smpl_entry *ent;
	unsigned int i;
	void *buf;
	int cpu;

	buf = exact_entries_run(test, &cpu);
	for (i = 0; i < EXACT_N; i++) {
		ent = pfmkt_entry(buf, i, 1);
		KUNIT_EXPECT_EQ_MSG(test, ent->ovfl_pmd, (u16)0, "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ent->reserved, (u16)0, "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ent->last_reset_val, -EXACT_P,
				    "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ent->cpu, (u16)cpu, "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ent->set, (u16)0, "entry %u", i);
	}
}

/* Each entry records PMD1 as it was at its overflow. */
static void smpl_exact_entries_peer_values(struct kunit *test)
{
	unsigned int i;
	void *buf;
	int cpu;

	buf = exact_entries_run(test, &cpu);
	/* Overflow i at tick P * (i + 1), which PMD1 has had. */
	for (i = 0; i < EXACT_N; i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    pfmkt_entry_vals(pfmkt_entry(buf, i, 1))[0],
				    EXACT_STEP1 * EXACT_P * (i + 1),
				    "PMD1 in entry %u", i);
}

/* Nothing is written beyond the last entry. */
static void smpl_exact_entries_end(struct kunit *test)
{
	void *buf;
	int cpu;

	buf = exact_entries_run(test, &cpu);
	KUNIT_EXPECT_EQ(test, pfmkt_entry(buf, EXACT_N, 1)->tstamp, 0ULL);
}

/* Entries are stamped on their CPU's clock, in overflow order. */
static void smpl_exact_entry_tstamp(struct kunit *test)
{
	const struct pfm_dfl_smpl_entry *ent;
	int cpu = pfmkt_cpu();
	u64 tstamp = 0, t0, t1;
	unsigned int i;
	void *buf;

	exact_setup(test, cpu, &buf);
	t0 = smpl_clock_on(cpu);
	pfmk_test_pmu_tick(cpu, EXACT_K);
	t1 = smpl_clock_on(cpu);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), (u64)EXACT_N);
	for (i = 0; i < EXACT_N; i++) {
		ent = pfmkt_entry(buf, i, 1);
		KUNIT_EXPECT_GE_MSG(test, ent->tstamp, max(tstamp, t0),
				    "entry %u", i);
		KUNIT_EXPECT_LE_MSG(test, ent->tstamp, t1, "entry %u", i);
		tstamp = ent->tstamp;
	}
}

/* The overflows, with no notification asked, leave the context started. */
static void smpl_exact_after_started(struct kunit *test)
{
	void *buf, *desc = exact_run(test, pfmkt_cpu(), &buf);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

/* After the overflows, the sampling PMD runs on from its short reset. */
static void smpl_exact_after_short_reset(struct kunit *test)
{
	void *buf, *desc = exact_run(test, pfmkt_cpu(), &buf);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			-EXACT_P + EXACT_K % EXACT_P);
}

/* The sampled PMD beside it only counts: every tick, no reset. */
static void smpl_exact_after_peer_counts(struct kunit *test)
{
	void *buf, *desc = exact_run(test, pfmkt_cpu(), &buf);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1),
			EXACT_STEP1 * EXACT_K);
}

/* Every overflow is sampled, none notified, none missed: no message. */
static void smpl_exact_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = {
		.ovfl_count = EXACT_N,
		.smpl_count = EXACT_N,
	};
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = exact_run(test, cpu, &buf);
	pfmkt_expect_stats(test, desc, &want);
	pfmkt_expect_no_msg(test, desc);
}

/* Stopped, a context records nothing and its PMDs do not move. */
static void smpl_exact_stop_freezes(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = exact_run(test, cpu, &buf);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	pfmk_test_pmu_tick(cpu, 3 * EXACT_P);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), (u64)EXACT_N);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			-EXACT_P + EXACT_K % EXACT_P);
}

/* Started again, the period continues where it was stopped. */
static void smpl_exact_restart_continues(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = exact_run(test, cpu, &buf);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	pfmk_test_pmu_tick(cpu, 3 * EXACT_P);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, EXACT_P - 1 - EXACT_K % EXACT_P);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), (u64)EXACT_N);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), (u64)EXACT_N + 1);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -EXACT_P);
}

/*
 * The header is output only: a client that scribbles over the size, the
 * write offset, the minimum space and the count makes the handler
 * neither write outside the buffer (KASAN) nor skip or misplace an entry.
 */
static void smpl_exact_scribble(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;
	int cpu = pfmkt_cpu();
	unsigned int i;
	void *buf;

	exact_setup(test, cpu, &buf);
	hdr = buf;
	pfmk_test_pmu_tick(cpu, EXACT_P);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), 1ULL);

	WRITE_ONCE(hdr->hdr_buf_size, U64_MAX >> 1);
	WRITE_ONCE(hdr->hdr_cur_offs, EXACT_BUF - 8);
	WRITE_ONCE(hdr->hdr_min_buf_space, 0);
	WRITE_ONCE(hdr->hdr_count, 1000);
	pfmk_test_pmu_tick(cpu, EXACT_K - EXACT_P);

	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), (u64)EXACT_N);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs,
			PFMKT_HDR + EXACT_ENTRY * EXACT_N);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 0ULL);
	for (i = 0; i < EXACT_N; i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    pfmkt_entry_vals(pfmkt_entry(buf, i, 1))[0],
				    EXACT_STEP1 * EXACT_P * (i + 1),
				    "PMD1 in entry %u", i);
}

/* A huge write offset and a size of 0: still the private bounds. */
static void smpl_exact_scribble_offset(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = exact_setup(test, cpu, &buf);
	hdr = buf;
	pfmk_test_pmu_tick(cpu, EXACT_P);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), 1ULL);

	WRITE_ONCE(hdr->hdr_cur_offs, U64_MAX - 16);
	WRITE_ONCE(hdr->hdr_buf_size, 0);
	pfmk_test_pmu_tick(cpu, EXACT_P);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 2ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, PFMKT_HDR + 2 * EXACT_ENTRY);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

/*
 * PMD3 (step 1) samples every EXACT_P ticks with itself in its
 * reg_smpl_pmds, between PMD2 (written 777) and PMD5 (written 2^40),
 * which have no event; 3 * EXACT_P + 1 ticks given: three entries.
 */
static void *exact_self_run(struct kunit *test, void **buf)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, buf);
	pfmkt_write_pmc(test, desc, 3, PFMK_TEST_PMC(1));
	pfmkt_write_pmd(test, desc, 2, 777);
	pfmkt_write_pmd(test, desc, 5, 1ULL << 40);
	pfmkt_write_sampler(test, desc, 3, EXACT_P, 0,
			    BIT_ULL(5) | BIT_ULL(3) | BIT_ULL(2));
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 3 * EXACT_P + 1);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(*buf), 3ULL);
	return desc;
}

/* An entry carries the three values of reg_smpl_pmds. */
static void smpl_exact_self_entry_size(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;
	void *buf;

	exact_self_run(test, &buf);
	hdr = buf;
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, PFMKT_HDR + 3 * (40ULL + 24));
}

/* Each entry names the overflowing PMD and its reset. */
static void smpl_exact_self_entries(struct kunit *test)
{
	const struct pfm_dfl_smpl_entry *ent;
	unsigned int i;
	void *buf;

	exact_self_run(test, &buf);
	for (i = 0; i < 3; i++) {
		ent = pfmkt_entry(buf, i, 3);
		KUNIT_EXPECT_EQ_MSG(test, ent->ovfl_pmd, (u16)3, "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ent->last_reset_val, -EXACT_P,
				    "entry %u", i);
	}
}

/*
 * PMDs without an event record their written values, lowest PMD first:
 * PMD2 before, PMD5 after the overflowing PMD3.
 */
static void smpl_exact_self_unused_recorded(struct kunit *test)
{
	const u64 *val;
	unsigned int i;
	void *buf;

	exact_self_run(test, &buf);
	for (i = 0; i < 3; i++) {
		val = pfmkt_entry_vals(pfmkt_entry(buf, i, 3));
		KUNIT_EXPECT_EQ_MSG(test, val[0], 777ULL, "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, val[2], 1ULL << 40, "entry %u", i);
	}
}

/* The overflowing PMD records itself as 0, in its place among them. */
static void smpl_exact_self_self_recorded(struct kunit *test)
{
	unsigned int i;
	void *buf;

	exact_self_run(test, &buf);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    pfmkt_entry_vals(pfmkt_entry(buf, i, 3))[1],
				    0ULL, "entry %u", i);
}

/* After the run, the overflowing PMD has had one tick of its period. */
static void smpl_exact_self_pmd_after(struct kunit *test)
{
	void *buf, *desc = exact_self_run(test, &buf);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 3), -EXACT_P + 1);
}

/**
 * struct exact_nf - exact_no_format()'s context and what it saw
 * @desc: the context, 50 ticks given.
 * @state6: its state after 6 ticks, before PMD0's first period ends.
 */
struct exact_nf {
	void	*desc;
	int	state6;
};

/*
 * No format, no notification, PMD0 samples every 7 ticks, PMD1 counts:
 * 50 ticks given.
 */
static struct exact_nf exact_no_format(struct kunit *test, int cpu)
{
	struct exact_nf nf;

	nf.desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, 0, NULL);
	pfmkt_write_pmc(test, nf.desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, nf.desc, 1, PFMK_TEST_PMC(1));
	pfmkt_write_sampler(test, nf.desc, 0, 7, 0, BIT_ULL(1));
	pfmkt_load_start(test, nf.desc, cpu);
	pfmk_test_pmu_tick(cpu, 6);
	nf.state6 = pfmk_get_state(nf.desc);
	pfmk_test_pmu_tick(cpu, 44);
	return nf;
}

/* Sampling without a format: the context runs until the first overflow. */
static void smpl_exact_no_format_not_before(struct kunit *test)
{
	struct exact_nf nf = exact_no_format(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, nf.state6, PFMKT_STARTED);
}

/*
 * Sampling without a format and without notification, as perfmon2 2.2:
 * the first overflow masks the context, and no further one is counted.
 */
static void smpl_exact_no_format(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 1 };
	struct exact_nf nf = exact_no_format(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmk_get_state(nf.desc), PFMKT_MASKED);
	pfmkt_expect_stats(test, nf.desc, &want);
}

/* The masking overflow leaves its PMD unreset (saturation). */
static void smpl_exact_no_format_unreset(struct kunit *test)
{
	struct exact_nf nf = exact_no_format(test, pfmkt_cpu());

	/* Not reset: it ran on from its wrap at tick 7. */
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, nf.desc, 0), 50ULL - 7);
}

/* A PMD with value 0 beside it only counts, masked or not. */
static void smpl_exact_no_format_counts(struct kunit *test)
{
	struct exact_nf nf = exact_no_format(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, nf.desc, 1), 50ULL);
}

/* Nothing is notified: no message, no completion. */
static void smpl_exact_no_format_silent(struct kunit *test)
{
	struct exact_nf nf = exact_no_format(test, pfmkt_cpu());
	struct pfmkt_priv *priv = test->priv;

	pfmkt_expect_no_msg(test, nf.desc);
	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));
}

/* pfmk_restart() of it reloads the long reset and unmasks it. */
static void smpl_exact_no_format_restart(struct kunit *test)
{
	struct exact_nf nf = exact_no_format(test, pfmkt_cpu());

	KUNIT_ASSERT_EQ(test, pfmk_restart(nf.desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(nf.desc), PFMKT_STARTED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, nf.desc, 0), -7ULL);
}

/* Restarted, its next overflow masks it again. */
static void smpl_exact_no_format_masks_again(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 2, .restarts = 1 };
	int cpu = pfmkt_cpu();
	struct exact_nf nf = exact_no_format(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_restart(nf.desc), 0);
	pfmk_test_pmu_tick(cpu, 7);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(nf.desc), PFMKT_MASKED);
	pfmkt_expect_stats(test, nf.desc, &want);
}

#define RESET_V0	5ULL
#define RESET_R0	1000ULL
#define RESET_V2	0x100000000ULL
#define RESET_R2	77ULL

/*
 * PMD1 samples every EXACT_P ticks and resets PMD0 and PMD2 (counting,
 * written RESET_V*, short resets RESET_R*) to their short reset values
 * at each overflow, after recording them.
 */
static void *exact_reset_setup(struct kunit *test, int cpu, void **buf)
{
	const struct pfmkt_pmd p0 = {
		.value = RESET_V0,
		.short_reset = RESET_R0,
		.long_reset = 2 * RESET_R0,
	};
	const struct pfmkt_pmd p1 = {
		.value = -EXACT_P,
		.short_reset = -EXACT_P,
		.long_reset = -EXACT_P,
		.reset_pmds = BIT_ULL(0) | BIT_ULL(2),
		.smpl_pmds = BIT_ULL(0) | BIT_ULL(2),
	};
	const struct pfmkt_pmd p2 = {
		.value = RESET_V2,
		.short_reset = RESET_R2,
		.long_reset = 2 * RESET_R2,
	};
	void *desc;
	u16 i;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, buf);
	for (i = 0; i < 3; i++)
		pfmkt_write_pmc(test, desc, i, PFMK_TEST_PMC(1));
	pfmkt_write_smpl_pmd(test, desc, 0, &p0);
	pfmkt_write_smpl_pmd(test, desc, 1, &p1);
	pfmkt_write_smpl_pmd(test, desc, 2, &p2);
	pfmkt_load_start(test, desc, cpu);
	return desc;
}

/* exact_reset_setup(), then @k ticks given one at a time. */
static void *exact_reset_ticked(struct kunit *test, int cpu, unsigned int k,
				void **buf)
{
	void *desc = exact_reset_setup(test, cpu, buf);

	while (k--)
		pfmk_test_pmu_tick(cpu, 1);
	return desc;
}

/* The tick counts smpl_exact_reset_pmds_values() reads after. */
static const unsigned int exact_reset_ks[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
};

static_assert(ARRAY_SIZE(exact_reset_ks) == 3 * EXACT_P + 2);

static void exact_reset_k_desc(const unsigned int *k, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u ticks", *k);
}

KUNIT_ARRAY_PARAM(exact_reset_k, exact_reset_ks, exact_reset_k_desc);

/*
 * reg_reset_pmds: the reset PMDs have had the overflow's tick when it
 * resets them: after k >= P ticks they hold their reset value + k % P,
 * before, their written value + k.
 */
static void smpl_exact_reset_pmds_values(struct kunit *test)
{
	const unsigned int k = *(const unsigned int *)test->param_value;
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = exact_reset_ticked(test, cpu, k, &buf);
	KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, desc, 0),
			    k < EXACT_P ? RESET_V0 + k : RESET_R0 + k % EXACT_P,
			    "PMD0 after %u ticks", k);
	KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, desc, 2),
			    k < EXACT_P ? RESET_V2 + k : RESET_R2 + k % EXACT_P,
			    "PMD2 after %u ticks", k);
}

/* The overflowing PMD that resets them runs on from its own reset. */
static void smpl_exact_reset_pmds_self(struct kunit *test)
{
	void *desc, *buf;

	desc = exact_reset_ticked(test, pfmkt_cpu(), 3 * EXACT_P + 2, &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), -EXACT_P + 2);
}

/*
 * The entries record the reset PMDs before their reset: each the value P
 * ticks after the previous reset (the first after the written value).
 */
static void smpl_exact_reset_pmds_recorded(struct kunit *test)
{
	const u64 *val;
	int cpu = pfmkt_cpu();
	unsigned int k;
	void *buf;

	exact_reset_setup(test, cpu, &buf);
	pfmk_test_pmu_tick(cpu, 3 * EXACT_P + 2);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), 3ULL);
	val = pfmkt_entry_vals(pfmkt_entry(buf, 0, 2));
	KUNIT_EXPECT_EQ(test, val[0], RESET_V0 + EXACT_P);
	KUNIT_EXPECT_EQ(test, val[1], RESET_V2 + EXACT_P);
	for (k = 1; k < 3; k++) {
		val = pfmkt_entry_vals(pfmkt_entry(buf, k, 2));
		KUNIT_EXPECT_EQ_MSG(test, val[0], RESET_R0 + EXACT_P,
				    "entry %u", k);
		KUNIT_EXPECT_EQ_MSG(test, val[1], RESET_R2 + EXACT_P,
				    "entry %u", k);
	}
	for (k = 0; k < 3; k++)
		KUNIT_EXPECT_EQ_MSG(test, pfmkt_entry(buf, k, 2)->ovfl_pmd,
				    (u16)1, "entry %u", k);
}

#define MASK_V2		100ULL
#define MASK_R2		1000ULL
#define MASK_L2		5000ULL

/*
 * No format: PMD0 (period 7, long reset 70, resets @reset0) and PMD1
 * (period 11, long reset 110, resets @reset1), PMD @pmd counting from
 * MASK_V2 (short reset MASK_R2, long MASK_L2), every PMD up to @pmd
 * enabled; 7 ticks given: PMD0's overflow masks the context.
 */
static void *exact_mask_setup(struct kunit *test, int cpu, u64 reset0,
			      u64 reset1, u16 pmd)
{
	const struct pfmkt_pmd p0 = {
		.value = -7ULL,
		.short_reset = -7ULL,
		.long_reset = -70ULL,
		.reset_pmds = reset0,
	};
	const struct pfmkt_pmd p1 = {
		.value = -11ULL,
		.short_reset = -11ULL,
		.long_reset = -110ULL,
		.reset_pmds = reset1,
	};
	const struct pfmkt_pmd p2 = {
		.value = MASK_V2,
		.short_reset = MASK_R2,
		.long_reset = MASK_L2,
	};
	void *desc;
	u16 i;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, 0, NULL);
	for (i = 0; i <= pmd; i++)
		pfmkt_write_pmc(test, desc, i, PFMK_TEST_PMC(1));
	pfmkt_write_smpl_pmd(test, desc, 0, &p0);
	pfmkt_write_smpl_pmd(test, desc, 1, &p1);
	pfmkt_write_smpl_pmd(test, desc, pmd, &p2);
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 7);
	return desc;
}

/* exact_mask_setup() with PMD0 and PMD1 both resetting PMD2. */
static void *exact_reset_mask_setup(struct kunit *test, int cpu)
{
	return exact_mask_setup(test, cpu, BIT_ULL(2), BIT_ULL(2), 2);
}

/* PMD0's overflow, without a format, masks the context. */
static void smpl_exact_reset_pmds_mask_masks(struct kunit *test)
{
	void *desc = exact_reset_mask_setup(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
}

/*
 * An overflow that masks leaves its PMD and its reg_reset_pmds unreset
 * until pfmk_restart(): PMD0 runs on from its wrap, PMD2 counts on.
 */
static void smpl_exact_reset_pmds_mask(struct kunit *test)
{
	void *desc = exact_reset_mask_setup(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 2), MASK_V2 + 7);
}

/* exact_reset_mask_setup(), then 4 ticks: PMD1 overflows while masked. */
static void *exact_reset_masked_ovfl(struct kunit *test, int cpu)
{
	void *desc = exact_reset_mask_setup(test, cpu);

	pfmk_test_pmu_tick(cpu, 4);
	return desc;
}

/* The overflow while masked is counted as such. */
static void smpl_exact_reset_pmds_masked_ovfl_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 2,
					     .ovfl_masked = 1 };
	void *desc = exact_reset_masked_ovfl(test, pfmkt_cpu());

	pfmkt_expect_stats(test, desc, &want);
}

/* The masking PMD0 still runs on from its wrap. */
static void smpl_exact_reset_pmds_masked_ovfl_unreset(struct kunit *test)
{
	void *desc = exact_reset_masked_ovfl(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 4ULL);
}

/* PMD1, overflowing while masked, reloads its own short reset. */
static void smpl_exact_reset_pmds_masked_ovfl_reloads(struct kunit *test)
{
	void *desc = exact_reset_masked_ovfl(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), -11ULL);
}

/*
 * But PMD2 of PMD1's reg_reset_pmds, waiting for the masking PMD0's
 * long reset, is left alone: it counts on.
 */
static void smpl_exact_reset_pmds_masked_ovfl(struct kunit *test)
{
	void *desc = exact_reset_masked_ovfl(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 2), MASK_V2 + 11);
}

/*
 * No format: PMD0 (period 7) masks the context; PMD1 (period 11) then
 * overflows while masked, and PMD3 of its reg_reset_pmds, which the
 * masking PMD0 does not name, is not waiting for a long reset: both
 * reload their short reset.
 */
static void smpl_exact_masked_ovfl_resets_others(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = exact_mask_setup(test, cpu, 0, BIT_ULL(3), 3);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	pfmk_test_pmu_tick(cpu, 4);
	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), -11ULL + 3);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 3), MASK_R2 + 3);
}

/* exact_reset_masked_ovfl(), then pfmk_restart(). */
static void *exact_reset_restarted(struct kunit *test, int cpu)
{
	void *desc = exact_reset_masked_ovfl(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	return desc;
}

/* pfmk_restart() unmasks the context. */
static void smpl_exact_reset_pmds_restart_state(struct kunit *test)
{
	void *desc = exact_reset_restarted(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

/**
 * struct exact_restart_pmd - a PMD after exact_reset_restarted()
 * @pmd: the PMD.
 * @want: its value.
 * @role: its role, and the rule that gives it @want.
 */
struct exact_restart_pmd {
	u16		pmd;
	u64		want;
	const char	*role;
};

static const struct exact_restart_pmd exact_restart_pmds[] = {
	{ 0, -70ULL, "masking PMD0: its long reset" },
	{ 1, -11ULL, "PMD1, overflowed while masked: its short reset, kept" },
	{ 2, MASK_L2, "PMD2 of PMD0's reg_reset_pmds: its long reset" },
};

static void exact_restart_pmd_desc(const struct exact_restart_pmd *r,
				   char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", r->role);
}

KUNIT_ARRAY_PARAM(exact_restart_pmd, exact_restart_pmds,
		  exact_restart_pmd_desc);

/*
 * pfmk_restart() gives the masking PMD and its reset PMDs their long
 * reset, and leaves the PMD that reset itself while masked alone.
 */
static void smpl_exact_reset_pmds_restart(struct kunit *test)
{
	const struct exact_restart_pmd *r = test->param_value;
	void *desc = exact_reset_restarted(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, desc, r->pmd), r->want,
			    "PMD%u", r->pmd);
}

/* After that restart, PMD2 counts on from its long reset. */
static void smpl_exact_reset_pmds_restart_counts(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = exact_reset_restarted(test, cpu);

	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 2), MASK_L2 + 3);
}

/* PMD0 samples every 10 ticks; 7 ticks, then stopped. */
static void *exact_stopped_at_7(struct kunit *test, int cpu, void **buf)
{
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_sampler(test, desc, 0, 10, 0, 0);
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 7);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL + 7);
	return desc;
}

/*
 * exact_stopped_at_7()'s context given PMD0 = -4 (short and long reset -6)
 * by write_pmds while loaded and stopped.
 */
static void *exact_write_loaded(struct kunit *test, int cpu, void **buf)
{
	const struct pfmkt_pmd p = {
		.value = -4ULL,
		.short_reset = -6ULL,
		.long_reset = -6ULL,
	};
	void *desc;

	desc = exact_stopped_at_7(test, cpu, buf);
	pfmkt_write_smpl_pmd(test, desc, 0, &p);
	return desc;
}

/* write_pmds on a loaded, stopped context: the PMD reads the new value. */
static void smpl_exact_write_loaded_value(struct kunit *test)
{
	void *buf, *desc = exact_write_loaded(test, pfmkt_cpu(), &buf);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -4ULL);
}

/*
 * Started again after that write, the new value decides when the next
 * overflow comes.
 */
static void smpl_exact_write_loaded(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = exact_write_loaded(test, cpu, &buf);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 0ULL);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), 1ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_entry(buf, 0, 0)->last_reset_val, -4ULL);
}

/* exact_write_loaded(), started: 4 ticks bring its first overflow. */
static void *exact_write_loaded_ovfl(struct kunit *test, int cpu, void **buf)
{
	void *desc = exact_write_loaded(test, cpu, buf);

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 4);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(*buf), 1ULL);
	return desc;
}

/* After that overflow the PMD runs the short reset written with it. */
static void smpl_exact_write_loaded_reset(struct kunit *test)
{
	void *buf, *desc = exact_write_loaded_ovfl(test, pfmkt_cpu(), &buf);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -6ULL);
}

/* Its next overflow comes that short reset later and records it. */
static void smpl_exact_write_loaded_reset_period(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *buf;

	exact_write_loaded_ovfl(test, cpu, &buf);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 1ULL);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), 2ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_entry(buf, 1, 0)->last_reset_val, -6ULL);
}

/* Written to a counting value on a loaded context: it no longer samples. */
static void smpl_exact_write_loaded_counting(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = exact_stopped_at_7(test, cpu, &buf);
	pfmkt_write_pmd(test, desc, 0, 100);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 30);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 0ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 130ULL);
}

/*
 * Two PMDs (step 1) whose periods of EXACT_P end on the same tick, given
 * on @cpu: two entries.
 */
static void *exact_two_pmds(struct kunit *test, int cpu, void **buf)
{
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(1));
	pfmkt_write_sampler(test, desc, 0, EXACT_P, 0, 0);
	pfmkt_write_sampler(test, desc, 1, EXACT_P, 0, 0);
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, EXACT_P);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(*buf), 2ULL);
	return desc;
}

/* Both overflows are recorded, each with its PMD, reset and CPU. */
static void smpl_exact_same_tick_both_recorded(struct kunit *test)
{
	const struct pfm_dfl_smpl_entry *e0, *e1;
	int cpu = pfmkt_cpu();
	void *buf;

	exact_two_pmds(test, cpu, &buf);
	e0 = pfmkt_entry(buf, 0, 0);
	e1 = pfmkt_entry(buf, 1, 0);
	KUNIT_EXPECT_EQ(test, BIT(e0->ovfl_pmd) | BIT(e1->ovfl_pmd), 3UL);
	KUNIT_EXPECT_EQ(test, e0->last_reset_val, -EXACT_P);
	KUNIT_EXPECT_EQ(test, e1->last_reset_val, -EXACT_P);
	KUNIT_EXPECT_EQ(test, e0->cpu, (u16)cpu);
	KUNIT_EXPECT_EQ(test, e1->cpu, (u16)cpu);
}

/* Both PMDs are reset to their period. */
static void smpl_exact_same_tick_both_reset(struct kunit *test)
{
	void *desc, *buf;

	desc = exact_two_pmds(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -EXACT_P);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), -EXACT_P);
}

/* Two overflows, two samples. */
static void smpl_exact_same_tick_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 2, .smpl_count = 2 };
	void *desc, *buf;

	desc = exact_two_pmds(test, pfmkt_cpu(), &buf);
	pfmkt_expect_stats(test, desc, &want);
}

/* The overflows, with no notification asked, leave the context started. */
static void smpl_exact_same_tick_started(struct kunit *test)
{
	void *desc, *buf;

	desc = exact_two_pmds(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

/**
 * struct exact_ticker - a kernel thread that ticks its own CPU once
 * @cpu: the CPU it is bound to.
 * @ticks: ticks to give.
 * @started: completed once it runs, before the tick.
 * @done: completed after the tick.
 */
struct exact_ticker {
	int			cpu;
	u64			ticks;
	struct completion	started;
	struct completion	done;
};

static int exact_ticker_fn(void *data)
{
	struct exact_ticker *t = data;

	complete(&t->started);
	pfmk_test_pmu_tick(t->cpu, t->ticks);
	complete(&t->done);
	return pfmk_test_kthread_park();
}

#ifdef CONFIG_X86_64
#define EXACT_KERNEL_START	((u64)__START_KERNEL_map)
#else
#define EXACT_KERNEL_START	((u64)PAGE_OFFSET)
#endif

/*
 * Entries record the task the overflow interrupted: a kernel thread
 * bound to the CPU ticks it, so it is the interrupted task; the ip is a
 * kernel text address.
 */
static void smpl_exact_entry_task(struct kunit *test)
{
	const struct pfm_dfl_smpl_entry *ent;
	struct exact_ticker t;
	struct task_struct *k;
	unsigned long ticked;
	pid_t pid, tgid;
	void *desc, *buf;

	t.cpu = pfmkt_cpu();
	t.ticks = EXACT_P;
	init_completion(&t.done);
	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, &buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_sampler(test, desc, 0, EXACT_P, 0, 0);
	pfmkt_load_start(test, desc, t.cpu);

	k = pfmk_test_kthread_start(exact_ticker_fn, &t, t.cpu, &t.started,
				    "pfmk_smpl_tick");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	pid = task_pid_nr(k);
	tgid = task_tgid_nr(k);
	ticked = wait_for_completion_timeout(&t.done, 10 * HZ);
	kthread_stop(k);
	KUNIT_ASSERT_NE(test, ticked, 0UL);

	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), 1ULL);
	ent = pfmkt_entry(buf, 0, 0);
	KUNIT_EXPECT_EQ(test, (pid_t)ent->pid, pid);
	KUNIT_EXPECT_EQ(test, (pid_t)ent->tgid, tgid);
	KUNIT_EXPECT_EQ(test, ent->cpu, (u16)t.cpu);
	KUNIT_EXPECT_GE_MSG(test, ent->ip, EXACT_KERNEL_START,
			    "ip %#llx is not a kernel text address", ent->ip);
}

static struct kunit_case pfmk_smpl_exact_cases[] = {
	KUNIT_CASE(smpl_exact_none_before_period),
	KUNIT_CASE(smpl_exact_entries_hdr),
	KUNIT_CASE(smpl_exact_entries_fields),
	KUNIT_CASE(smpl_exact_entries_peer_values),
	KUNIT_CASE(smpl_exact_entries_end),
	KUNIT_CASE(smpl_exact_entry_tstamp),
	KUNIT_CASE(smpl_exact_after_started),
	KUNIT_CASE(smpl_exact_after_short_reset),
	KUNIT_CASE(smpl_exact_after_peer_counts),
	KUNIT_CASE(smpl_exact_stats),
	KUNIT_CASE(smpl_exact_stop_freezes),
	KUNIT_CASE(smpl_exact_restart_continues),
	KUNIT_CASE(smpl_exact_self_entry_size),
	KUNIT_CASE(smpl_exact_self_entries),
	KUNIT_CASE(smpl_exact_self_unused_recorded),
	KUNIT_CASE(smpl_exact_self_self_recorded),
	KUNIT_CASE(smpl_exact_self_pmd_after),
	KUNIT_CASE(smpl_exact_no_format_not_before),
	KUNIT_CASE(smpl_exact_no_format),
	KUNIT_CASE(smpl_exact_no_format_unreset),
	KUNIT_CASE(smpl_exact_no_format_counts),
	KUNIT_CASE(smpl_exact_no_format_silent),
	KUNIT_CASE(smpl_exact_no_format_restart),
	KUNIT_CASE(smpl_exact_no_format_masks_again),
	KUNIT_CASE_PARAM(smpl_exact_reset_pmds_values,
			 exact_reset_k_gen_params),
	KUNIT_CASE(smpl_exact_reset_pmds_self),
	KUNIT_CASE(smpl_exact_reset_pmds_recorded),
	KUNIT_CASE(smpl_exact_reset_pmds_mask_masks),
	KUNIT_CASE(smpl_exact_reset_pmds_mask),
	KUNIT_CASE(smpl_exact_reset_pmds_masked_ovfl_stats),
	KUNIT_CASE(smpl_exact_reset_pmds_masked_ovfl_unreset),
	KUNIT_CASE(smpl_exact_reset_pmds_masked_ovfl_reloads),
	KUNIT_CASE(smpl_exact_reset_pmds_masked_ovfl),
	KUNIT_CASE(smpl_exact_masked_ovfl_resets_others),
	KUNIT_CASE(smpl_exact_reset_pmds_restart_state),
	KUNIT_CASE_PARAM(smpl_exact_reset_pmds_restart,
			 exact_restart_pmd_gen_params),
	KUNIT_CASE(smpl_exact_reset_pmds_restart_counts),
	KUNIT_CASE(smpl_exact_write_loaded_value),
	KUNIT_CASE(smpl_exact_write_loaded),
	KUNIT_CASE(smpl_exact_write_loaded_reset),
	KUNIT_CASE(smpl_exact_write_loaded_reset_period),
	KUNIT_CASE(smpl_exact_write_loaded_counting),
	KUNIT_CASE(smpl_exact_scribble),
	KUNIT_CASE(smpl_exact_scribble_offset),
	KUNIT_CASE(smpl_exact_same_tick_both_recorded),
	KUNIT_CASE(smpl_exact_same_tick_both_reset),
	KUNIT_CASE(smpl_exact_same_tick_stats),
	KUNIT_CASE(smpl_exact_same_tick_started),
	KUNIT_CASE(smpl_exact_entry_task),
	{}
};

static struct kunit_suite pfmk_smpl_exact_suite = {
	.name = "pfmk_smpl_exact",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_exact_cases,
};

kunit_test_suites(&pfmk_smpl_exact_suite);
