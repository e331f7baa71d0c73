// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_api_regs: the register calls' checks of each
 * entry of their vectors.
 *
 * write_pmcs, write_pmds, read_pmds and read_pmds_time, each given a
 * register number out of range, a set other than 0, unknown flags, or the
 * flags perfmon2 defines: one KUNIT_ARRAY_PARAM row per call and value.
 * A refused vector changes nothing (pfmk_kunit_api.c holds the other
 * argument checks).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

#define API_REG_NR	3

/* The register calls, which take a vector of pfarg_pmc or pfarg_pmd. */
enum api_reg_op {
	API_WRITE_PMCS, API_WRITE_PMDS, API_READ_PMDS, API_READ_PMDS_TIME,
};

static const char * const api_reg_calls[] = {
	[API_WRITE_PMCS] = "write_pmcs",
	[API_WRITE_PMDS] = "write_pmds",
	[API_READ_PMDS] = "read_pmds",
	[API_READ_PMDS_TIME] = "read_pmds_time",
};

/**
 * struct api_reg_row - a register call given a vector with one bad entry
 * @op: the call: API_WRITE_PMCS, API_WRITE_PMDS, API_READ_PMDS or
 *	API_READ_PMDS_TIME.
 * @pmu: the description of the context.
 * @nr: the entries of the vector, at most API_REG_NR.
 * @bad: the index of the bad entry; entry i of the others is register i.
 * @reg: the bad entry's register number.
 * @set: its reg_set.
 * @flags: its reg_flags.
 */
struct api_reg_row {
	enum api_reg_op	op;
	const char	*pmu;
	u8		nr;
	u8		bad;
	u16		reg;
	u16		set;
	u32		flags;
};

static void api_reg_row_desc(const struct api_reg_row *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s reg %u set %u flags %#x",
		 api_reg_calls[r->op], r->pmu[0] ? r->pmu : "generic", r->reg,
		 r->set, r->flags);
}

/* @r's vector into @pmd, @value in every entry. */
static void api_reg_vec(const struct api_reg_row *r, struct pfarg_pmd *pmd,
			u64 value)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++)
		pfmkt_pmd_req(&pmd[i], 0, i, value);
	pmd[r->bad].reg_num = r->reg;
	pmd[r->bad].reg_set = r->set;
	pmd[r->bad].reg_flags = r->flags;
}

/*
 * @r's call on @desc with the vector @pmd (as PMC requests for
 * write_pmcs, whose return flags are copied back into @pmd).
 *
 * Return: what the call returned.
 */
static int api_reg_call(void *desc, const struct api_reg_row *r,
			struct pfarg_pmd *pmd)
{
	struct pfmk_pmd_time time[API_REG_NR];
	struct pfarg_pmc pmc[API_REG_NR];
	unsigned int i;
	int ret;

	switch (r->op) {
	case API_WRITE_PMDS:
		return pfmk_write_pmds(desc, pmd, r->nr);
	case API_READ_PMDS:
		return pfmk_read_pmds(desc, pmd, r->nr);
	case API_READ_PMDS_TIME:
		return pfmk_read_pmds_time(desc, pmd, time, r->nr);
	default:
		break;
	}
	for (i = 0; i < r->nr; i++) {
		pfmkt_pmc_req(&pmc[i], pmd[i].reg_set, pmd[i].reg_num,
			      pmd[i].reg_value);
		pmc[i].reg_flags = pmd[i].reg_flags;
	}
	ret = pfmk_write_pmcs(desc, pmc, r->nr);
	for (i = 0; i < r->nr; i++)
		pmd[i].reg_flags = pmc[i].reg_flags;
	return ret;
}

/* Every register call, a register out of range in the middle. */
static const struct api_reg_row api_bad_regs[] = {
	{ API_WRITE_PMCS, PFMK_TEST_PMU_NAME, 3, 1, PFMK_TEST_NUM_PMCS },
	{ API_WRITE_PMCS, PFMK_TEST_PMU_NAME, 3, 1, 0xffff },
	{ API_WRITE_PMCS, PFMK_TEST_PMU_NAME, 3, 1, PFM_MAX_PMCS },
	{ API_WRITE_PMCS, "", 3, 1, PFMK_GENERIC_NUM_PMCS },
	{ API_WRITE_PMCS, "", 3, 1, 0xffff },
	{ API_WRITE_PMCS, "", 3, 1, PFM_MAX_PMCS },
	{ API_WRITE_PMDS, PFMK_TEST_PMU_NAME, 3, 1, PFMK_TEST_NUM_PMCS },
	{ API_WRITE_PMDS, PFMK_TEST_PMU_NAME, 3, 1, 0xffff },
	{ API_WRITE_PMDS, PFMK_TEST_PMU_NAME, 3, 1, PFM_MAX_PMCS },
	{ API_WRITE_PMDS, "", 3, 1, PFMK_GENERIC_NUM_PMCS },
	{ API_WRITE_PMDS, "", 3, 1, 0xffff },
	{ API_WRITE_PMDS, "", 3, 1, PFM_MAX_PMCS },
	{ API_READ_PMDS, PFMK_TEST_PMU_NAME, 3, 1, PFMK_TEST_NUM_PMCS },
	{ API_READ_PMDS, PFMK_TEST_PMU_NAME, 3, 1, 0xffff },
	{ API_READ_PMDS, PFMK_TEST_PMU_NAME, 3, 1, PFM_MAX_PMCS },
	{ API_READ_PMDS, "", 3, 1, PFMK_GENERIC_NUM_PMCS },
	{ API_READ_PMDS, "", 3, 1, 0xffff },
	{ API_READ_PMDS, "", 3, 1, PFM_MAX_PMCS },
	/* The last entry bad, for a change. */
	{ API_READ_PMDS_TIME, PFMK_TEST_PMU_NAME, 3, 2, PFMK_TEST_NUM_PMCS },
	{ API_READ_PMDS_TIME, PFMK_TEST_PMU_NAME, 3, 2, 0xffff },
	{ API_READ_PMDS_TIME, PFMK_TEST_PMU_NAME, 3, 2, PFM_MAX_PMCS },
	{ API_READ_PMDS_TIME, "", 3, 2, PFMK_GENERIC_NUM_PMCS },
	{ API_READ_PMDS_TIME, "", 3, 2, 0xffff },
	{ API_READ_PMDS_TIME, "", 3, 2, PFM_MAX_PMCS },
};

KUNIT_ARRAY_PARAM(api_bad_reg, api_bad_regs, api_reg_row_desc);

/*
 * A register out of range in the middle of a vector: -EINVAL, the entry
 * flagged NOTAVAIL, the entries before it not flagged, nothing written.
 */
static void api_reg_num_range(struct kunit *test)
{
	const struct api_reg_row *r = test->param_value;
	struct pfarg_pmd pmd[API_REG_NR];
	unsigned int i;
	void *desc;

	desc = pfmkt_create(test, r->pmu);
	api_reg_vec(r, pmd, r->op == API_WRITE_PMCS ? 0 : 42);
	KUNIT_EXPECT_EQ(test, api_reg_call(desc, r, pmd), -EINVAL);
	KUNIT_EXPECT_TRUE(test, pmd[r->bad].reg_flags & PFM_REG_RETFL_NOTAVAIL);
	for (i = 0; i < r->bad; i++)
		KUNIT_EXPECT_FALSE_MSG(test, PFM_REG_HAS_ERROR(pmd[i].reg_flags),
				       "entry %u", i);
	/* Nothing was written: PMD 0 is still 0. */
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 0ULL);
}

/* Every register call, reg_set 1 or 0xffff: after a good entry (writes). */
static const struct api_reg_row api_bad_sets[] = {
	{ API_WRITE_PMCS, PFMK_TEST_PMU_NAME, 2, 1, 1, 1 },
	{ API_WRITE_PMCS, PFMK_TEST_PMU_NAME, 2, 1, 1, 0xffff },
	{ API_WRITE_PMDS, PFMK_TEST_PMU_NAME, 2, 1, 1, 1 },
	{ API_WRITE_PMDS, PFMK_TEST_PMU_NAME, 2, 1, 1, 0xffff },
	{ API_READ_PMDS, PFMK_TEST_PMU_NAME, 1, 0, 0, 1 },
	{ API_READ_PMDS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0xffff },
	{ API_READ_PMDS_TIME, PFMK_TEST_PMU_NAME, 1, 0, 0, 1 },
	{ API_READ_PMDS_TIME, PFMK_TEST_PMU_NAME, 1, 0, 0, 0xffff },
};

KUNIT_ARRAY_PARAM(api_bad_set, api_bad_sets, api_reg_row_desc);

/* reg_set other than 0: -EINVAL and NOSET (no event sets yet). */
static void api_reg_set(struct kunit *test)
{
	const struct api_reg_row *r = test->param_value;
	void *desc = pfmkt_create(test, r->pmu);
	struct pfarg_pmd pmd[API_REG_NR];
	unsigned int i;

	api_reg_vec(r, pmd, r->op == API_WRITE_PMCS ? PFMK_TEST_PMC(1) : 5);
	KUNIT_EXPECT_EQ(test, api_reg_call(desc, r, pmd), -EINVAL);
	KUNIT_EXPECT_TRUE(test, pmd[r->bad].reg_flags & PFM_REG_RETFL_NOSET);
	for (i = 0; i < r->bad; i++)
		KUNIT_EXPECT_FALSE_MSG(test, PFM_REG_HAS_ERROR(pmd[i].reg_flags),
				       "entry %u", i);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 0ULL);
}

/* The writes, unknown register flags. */
static const struct api_reg_row api_bad_write_flags[] = {
	{ API_WRITE_PMCS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0, 0x8 },
	{ API_WRITE_PMCS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0, 0x100 },
	{ API_WRITE_PMCS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0, 0x8000 },
	{ API_WRITE_PMDS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0, 0x8 },
	{ API_WRITE_PMDS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0, 0x100 },
	{ API_WRITE_PMDS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0, 0x8000 },
};

KUNIT_ARRAY_PARAM(api_bad_write_flags, api_bad_write_flags,
		  api_reg_row_desc);

/* Unknown register flags: a write refuses them, the entry flagged EINVAL. */
static void api_reg_flags_refused(struct kunit *test)
{
	const struct api_reg_row *r = test->param_value;
	void *desc = pfmkt_create(test, r->pmu);
	struct pfarg_pmd pmd[API_REG_NR];

	api_reg_vec(r, pmd, r->op == API_WRITE_PMCS ? PFMK_TEST_PMC(1) : 3);
	KUNIT_EXPECT_EQ(test, api_reg_call(desc, r, pmd), -EINVAL);
	KUNIT_EXPECT_TRUE(test, pmd[0].reg_flags & PFM_REG_RETFL_EINVAL);
	/* Nothing was written: PMD 0 is still 0. */
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 0ULL);
}

/* The reads, unknown register flags (read_pmds with a stale EINVAL too). */
static const struct api_reg_row api_bad_read_flags[] = {
	{ API_READ_PMDS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0,
	  0x8 | PFM_REG_RETFL_EINVAL },
	{ API_READ_PMDS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0,
	  0x100 | PFM_REG_RETFL_EINVAL },
	{ API_READ_PMDS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0,
	  0x8000 | PFM_REG_RETFL_EINVAL },
	{ API_READ_PMDS_TIME, PFMK_TEST_PMU_NAME, 1, 0, 0, 0, 0x8 },
	{ API_READ_PMDS_TIME, PFMK_TEST_PMU_NAME, 1, 0, 0, 0, 0x100 },
	{ API_READ_PMDS_TIME, PFMK_TEST_PMU_NAME, 1, 0, 0, 0, 0x8000 },
};

KUNIT_ARRAY_PARAM(api_bad_read_flags, api_bad_read_flags, api_reg_row_desc);

/*
 * Unknown register flags: a read ignores input flags, as perfmon2 2.2
 * did (a request from the stack may hold anything there), and clears the
 * return flags.
 */
static void api_reg_flags_read_ignored(struct kunit *test)
{
	const struct api_reg_row *r = test->param_value;
	void *desc = pfmkt_create(test, r->pmu);
	struct pfarg_pmd pmd[API_REG_NR];

	api_reg_vec(r, pmd, 0);
	KUNIT_EXPECT_EQ(test, api_reg_call(desc, r, pmd), 0);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_flags,
			r->flags & ~PFM_REG_RETFL_MASK);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 0ULL);
}

/* The flags perfmon2 defines: NO_EMUL64 on a PMC, OVFL_NOTIFY on a PMD. */
static const struct api_reg_row api_valid_flags[] = {
	{ API_WRITE_PMCS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0, PFM_REGFL_NO_EMUL64 },
	{ API_WRITE_PMDS, PFMK_TEST_PMU_NAME, 1, 0, 0, 0,
	  PFM_REGFL_OVFL_NOTIFY },
};

KUNIT_ARRAY_PARAM(api_valid_flags, api_valid_flags, api_reg_row_desc);

/* The flags perfmon2 defines are accepted, no error flag returned. */
static void api_reg_flags_valid(struct kunit *test)
{
	const struct api_reg_row *r = test->param_value;
	void *desc = pfmkt_create(test, r->pmu);
	struct pfarg_pmd pmd[API_REG_NR];

	api_reg_vec(r, pmd, r->op == API_WRITE_PMCS ? PFMK_TEST_PMC(1) : 3);
	KUNIT_EXPECT_EQ(test, api_reg_call(desc, r, pmd), 0);
	KUNIT_EXPECT_FALSE(test, PFM_REG_HAS_ERROR(pmd[0].reg_flags));
}

/*
 * A PMD written with PFM_REGFL_OVFL_NOTIFY reads back its value, and so
 * does a read through the vector just written, flags and all.
 */
static void api_reg_flags_valid_read(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct pfarg_pmd pmd;

	pfmkt_pmd_req(&pmd, 0, 0, 3);
	pmd.reg_flags = PFM_REGFL_OVFL_NOTIFY;
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, &pmd, 1), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 3ULL);
	KUNIT_EXPECT_EQ(test, pfmk_read_pmds(desc, &pmd, 1), 0);
	KUNIT_EXPECT_EQ(test, pmd.reg_value, 3ULL);
}

static struct kunit_case pfmk_api_regs_cases[] = {
	KUNIT_CASE_PARAM(api_reg_num_range, api_bad_reg_gen_params),
	KUNIT_CASE_PARAM(api_reg_set, api_bad_set_gen_params),
	KUNIT_CASE_PARAM(api_reg_flags_refused, api_bad_write_flags_gen_params),
	KUNIT_CASE_PARAM(api_reg_flags_read_ignored,
			 api_bad_read_flags_gen_params),
	KUNIT_CASE_PARAM(api_reg_flags_valid, api_valid_flags_gen_params),
	KUNIT_CASE(api_reg_flags_valid_read),
	{}
};

static struct kunit_suite pfmk_api_regs_suite = {
	.name = "pfmk_api_regs",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_api_regs_cases,
};

kunit_test_suites(&pfmk_api_regs_suite);
