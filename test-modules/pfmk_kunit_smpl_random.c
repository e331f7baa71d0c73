// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_smpl_random: PFM_REGFL_RANDOM, reset values
 * randomized by the Park-Miller generator, checked against the reference
 * generator of Documentation/sampling.rst on the deterministic test PMU.
 * Split from pfmk_smpl_exact, which had grown past 1,200 lines.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

#define RANDOM_BUF	4096ULL

/* Park-Miller modulus, 2^31 - 1. */
#define SMPL_PM_MOD	0x7fffffffU

/* The reference Park-Miller generator of Documentation/sampling.rst. */
static u32 smpl_pm_next(u32 *state)
{
	u32 s, rem;

	s = *state % SMPL_PM_MOD;
	if (!s)
		s = 1;
	div_u64_rem((u64)16807 * s, SMPL_PM_MOD, &rem);
	*state = rem;
	return rem;
}

static u64 smpl_pm_draw(u32 *state, u64 mask)
{
	u64 x = smpl_pm_next(state);

	if (mask >> 31)
		x |= (u64)smpl_pm_next(state) << 31;
	return x & mask;
}

#define RANDOM_P	20ULL
#define RANDOM_N	10U

/**
 * struct exact_random - a seed and a mask of PFM_REGFL_RANDOM
 * @seed: reg_random_seed.
 * @mask: reg_random_mask.
 */
struct exact_random {
	u32	seed;
	u64	mask;
};

static const struct exact_random exact_randoms[] = {
	{ 12345, 0xf },
	{ 1, 0x1f },
	/* 2^31 - 1 % (2^31 - 1) is 0, which the generator turns into 1. */
	{ SMPL_PM_MOD, 0x1f },
	{ 0, 0x7 },
	{ 0xdeadbeef, 0x3c },
};

static void exact_random_desc(const struct exact_random *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "seed %u mask %#llx", r->seed,
		 r->mask);
}

KUNIT_ARRAY_PARAM(exact_random, exact_randoms, exact_random_desc);

/* A context whose PMD0 (step 1) samples with PFM_REGFL_RANDOM. */
static void *exact_random_setup(struct kunit *test, int cpu, u32 seed,
				u64 mask, void **buf)
{
	const struct pfmkt_pmd p = {
		.value = -RANDOM_P,
		.short_reset = -RANDOM_P,
		.long_reset = -RANDOM_P,
		.flags = PFM_REGFL_RANDOM,
		.mask = mask,
		.seed = seed,
	};
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, RANDOM_BUF, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_smpl_pmd(test, desc, 0, &p);
	pfmkt_load_start(test, desc, cpu);
	return desc;
}

/* Overflow i comes gap_i ticks after overflow i - 1, reset by draw i. */
static void exact_random_ticks(struct kunit *test, void *desc, void *buf,
			       int cpu, const u64 *add)
{
	u64 gap = RANDOM_P;
	unsigned int i;

	for (i = 0; i < RANDOM_N; i++) {
		pfmk_test_pmu_tick(cpu, gap - 1);
		KUNIT_ASSERT_EQ_MSG(test, pfmkt_hdr_count(buf), (u64)i,
				    "overflow %u came early", i);
		pfmk_test_pmu_tick(cpu, 1);
		KUNIT_ASSERT_EQ_MSG(test, pfmkt_hdr_count(buf), (u64)i + 1,
				    "no overflow %u after %llu ticks", i, gap);
		KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, desc, 0),
				    -RANDOM_P - add[i], "reset %u", i);
		gap = RANDOM_P + add[i];
	}
}

/* PFM_REGFL_RANDOM: reproducible periods within the mask. */
static void smpl_exact_random(struct kunit *test)
{
	const struct exact_random *r = test->param_value;
	const struct pfm_dfl_smpl_entry *ent;
	u64 add[RANDOM_N], expected;
	int cpu = pfmkt_cpu();
	u32 state = r->seed;
	bool varies = false;
	unsigned int i;
	void *desc, *buf;

	for (i = 0; i < RANDOM_N; i++) {
		add[i] = smpl_pm_draw(&state, r->mask);
		if (i && add[i] != add[0])
			varies = true;
	}
	KUNIT_ASSERT_TRUE(test, varies);

	desc = exact_random_setup(test, cpu, r->seed, r->mask, &buf);
	exact_random_ticks(test, desc, buf, cpu, add);
	for (i = 0; i < RANDOM_N; i++) {
		expected = i ? -RANDOM_P - add[i - 1] : -RANDOM_P;
		ent = pfmkt_entry(buf, i, 0);
		KUNIT_EXPECT_EQ_MSG(test, ent->last_reset_val, expected,
				    "entry %u", i);
		KUNIT_EXPECT_GE(test, -ent->last_reset_val, RANDOM_P);
		KUNIT_EXPECT_LE(test, -ent->last_reset_val, RANDOM_P + r->mask);
	}
}

/* A random mask wider than 31 bits draws twice per reset. */
static void smpl_exact_random_wide(struct kunit *test)
{
	const u64 mask = (3ULL << 32) | 0x7;
	struct pfarg_pmd pmd;
	int cpu = pfmkt_cpu();
	u32 state = 4242;
	void *desc, *buf;
	u64 add;

	/* Seed 4242 draws bits above 31: a single draw would not. */
	add = smpl_pm_draw(&state, mask);
	KUNIT_ASSERT_EQ(test, add, 0x300000006ULL);
	desc = exact_random_setup(test, cpu, 4242, mask, &buf);
	pfmk_test_pmu_tick(cpu, RANDOM_P + 3);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), 1ULL);

	memset(&pmd, 0, sizeof(pmd));
	KUNIT_ASSERT_EQ(test, pfmk_read_pmds(desc, &pmd, 1), 0);
	KUNIT_EXPECT_EQ(test, pmd.reg_last_reset_val, -RANDOM_P - add);
	KUNIT_EXPECT_EQ(test, pmd.reg_value, -RANDOM_P - add + 3);
}

static struct kunit_case pfmk_smpl_random_cases[] = {
	KUNIT_CASE_PARAM(smpl_exact_random, exact_random_gen_params),
	KUNIT_CASE(smpl_exact_random_wide),
	{}
};

static struct kunit_suite pfmk_smpl_random_suite = {
	.name = "pfmk_smpl_random",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_random_cases,
};

kunit_test_suites(&pfmk_smpl_random_suite);
