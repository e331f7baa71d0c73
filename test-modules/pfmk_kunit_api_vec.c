// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_api_vec: the vectors of the register and set
 * calls, and the PMC values write_pmcs takes.
 *
 * Vector counts (negative, over the maximum, zero, a NULL vector), PMC
 * values each description refuses or takes, and vectors refused whole:
 * a bad last entry flags that entry and applies none, on an unloaded or
 * a loaded context.  The descriptors, creation, load, start, read and
 * set arguments are pfmk_kunit_api.c's; the register numbers, sets and
 * flags of each entry pfmk_kunit_api_regs.c's.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

enum api_op {
	API_WRITE_PMCS, API_WRITE_PMDS, API_READ_PMDS, API_READ_PMDS_TIME,
	API_CREATE_SETS, API_DELETE_SETS, API_GETINFO_SETS,
};

/**
 * struct api_vec_op - a call that takes a vector and its count
 * @name: the call.
 * @op: which.
 * @entry_size: the size of an entry of its vector.
 * @max: the most entries it takes.
 */
struct api_vec_op {
	const char	*name;
	enum api_op	op;
	size_t		entry_size;
	int		max;
};

static const struct api_vec_op api_vec_ops[] = {
	{ "write_pmcs", API_WRITE_PMCS, sizeof(struct pfarg_pmc),
	  PFM_MAX_PMCS },
	{ "write_pmds", API_WRITE_PMDS, sizeof(struct pfarg_pmd),
	  PFM_MAX_PMDS },
	{ "read_pmds", API_READ_PMDS, sizeof(struct pfarg_pmd), PFM_MAX_PMDS },
	{ "read_pmds_time", API_READ_PMDS_TIME, sizeof(struct pfarg_pmd),
	  PFM_MAX_PMDS },
	{ "create_evtsets", API_CREATE_SETS, sizeof(struct pfarg_setdesc),
	  PFM_MAX_PMCS },
	{ "delete_evtsets", API_DELETE_SETS, sizeof(struct pfarg_setinfo),
	  PFM_MAX_PMCS },
	{ "getinfo_evtsets", API_GETINFO_SETS, sizeof(struct pfarg_setinfo),
	  PFM_MAX_PMCS },
};

static void api_vec_op_desc(const struct api_vec_op *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(api_vec_op, api_vec_ops, api_vec_op_desc);

/**
 * struct api_vec_run - the call of a case and what it is given
 * @desc: an unloaded context of the test PMU.
 * @req: a vector of the call's max + 1 entries.
 * @time: a read_pmds_time() time vector as long.
 */
struct api_vec_run {
	void			*desc;
	void			*req;
	struct pfmk_pmd_time	*time;
};

/* The context and vectors for the call of @test's parameter. */
static void api_vec_start(struct kunit *test, struct api_vec_run *r)
{
	const struct api_vec_op *v = test->param_value;

	r->desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	r->time = kunit_kcalloc(test, PFM_MAX_PMDS + 1, sizeof(*r->time),
				GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->time);
	r->req = kunit_kcalloc(test, v->max + 1, v->entry_size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->req);
}

/* The call of @test's parameter with @req and @count. */
static int api_vec(struct kunit *test, struct api_vec_run *r, void *req,
		   int count)
{
	const struct api_vec_op *v = test->param_value;

	switch (v->op) {
	case API_WRITE_PMCS:
		return pfmk_write_pmcs(r->desc, req, count);
	case API_WRITE_PMDS:
		return pfmk_write_pmds(r->desc, req, count);
	case API_READ_PMDS:
		return pfmk_read_pmds(r->desc, req, count);
	case API_READ_PMDS_TIME:
		return pfmk_read_pmds_time(r->desc, req, r->time, count);
	case API_CREATE_SETS:
		return pfmk_create_evtsets(r->desc, req, count);
	case API_DELETE_SETS:
		return pfmk_delete_evtsets(r->desc, req, count);
	default:
		return pfmk_getinfo_evtsets(r->desc, req, count);
	}
}

/* A negative vector count: -EINVAL. */
static void api_vector_negative(struct kunit *test)
{
	struct api_vec_run r;

	api_vec_start(test, &r);
	KUNIT_EXPECT_EQ(test, api_vec(test, &r, r.req, -1), -EINVAL);
}

/* A refused vector count changes nothing: the context still unloaded. */
static void api_vector_negative_unloaded(struct kunit *test)
{
	struct api_vec_run r;

	api_vec_start(test, &r);
	KUNIT_ASSERT_EQ(test, api_vec(test, &r, r.req, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(r.desc), PFM_CTX_UNLOADED);
}

/* The most negative vector count, INT_MIN: -EINVAL. */
static void api_vector_int_min(struct kunit *test)
{
	struct api_vec_run r;

	api_vec_start(test, &r);
	KUNIT_EXPECT_EQ(test, api_vec(test, &r, r.req, INT_MIN), -EINVAL);
}

/* A vector count over the call's maximum: -E2BIG. */
static void api_vector_too_large(struct kunit *test)
{
	const struct api_vec_op *v = test->param_value;
	struct api_vec_run r;

	api_vec_start(test, &r);
	KUNIT_EXPECT_EQ(test, api_vec(test, &r, r.req, v->max + 1), -E2BIG);
}

/* The largest vector count, INT_MAX: -E2BIG. */
static void api_vector_int_max(struct kunit *test)
{
	struct api_vec_run r;

	api_vec_start(test, &r);
	KUNIT_EXPECT_EQ(test, api_vec(test, &r, r.req, INT_MAX), -E2BIG);
}

/* A count of zero with a vector does nothing and succeeds. */
static void api_vector_zero(struct kunit *test)
{
	struct api_vec_run r;

	api_vec_start(test, &r);
	KUNIT_EXPECT_EQ(test, api_vec(test, &r, r.req, 0), 0);
}

/* So does a count of zero without a vector. */
static void api_vector_zero_null(struct kunit *test)
{
	struct api_vec_run r;

	api_vec_start(test, &r);
	KUNIT_EXPECT_EQ(test, api_vec(test, &r, NULL, 0), 0);
}

/* A NULL vector with a count: -EINVAL. */
static void api_vector_null(struct kunit *test)
{
	struct api_vec_run r;

	api_vec_start(test, &r);
	KUNIT_EXPECT_EQ(test, api_vec(test, &r, NULL, 1), -EINVAL);
}

static void api_expect_bad_pmc(struct kunit *test, void *desc, u64 value)
{
	struct pfarg_pmc pmc;

	memset(&pmc, 0, sizeof(pmc));
	pmc.reg_num = 2;
	pmc.reg_value = value;
	KUNIT_EXPECT_EQ_MSG(test, pfmk_write_pmcs(desc, &pmc, 1), -EINVAL,
			    "PMC value 0x%llx", value);
	KUNIT_EXPECT_TRUE_MSG(test, pmc.reg_flags & PFM_REG_RETFL_EINVAL,
			      "PMC value 0x%llx", value);
}

static void api_expect_good_pmc(struct kunit *test, void *desc, u64 value)
{
	struct pfarg_pmc pmc;

	memset(&pmc, 0, sizeof(pmc));
	pmc.reg_num = 2;
	pmc.reg_value = value;
	KUNIT_EXPECT_EQ_MSG(test, pfmk_write_pmcs(desc, &pmc, 1), 0,
			    "PMC value 0x%llx", value);
}

/**
 * struct api_pmc_value - a PMC value and what write_pmcs makes of it
 * @what: the description of the row.
 * @pmu: the description the context is on.
 * @value: the value, written to PMC 2.
 */
struct api_pmc_value {
	const char	*what;
	const char	*pmu;
	u64		value;
};

#define API_T		PFMK_TEST_PMU_NAME
#define API_CLK		PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK)
#define API_CACHE(c)	PFMK_GEN_PMC(PERF_TYPE_HW_CACHE, c)

/* Invalid values: write_pmcs fails with RETFL_EINVAL. */
static const struct api_pmc_value api_bad_pmcs[] = {
	{ "step 0", API_T, PFMK_TEST_PMC(0) },
	{ "step 0x10000", API_T, PFMK_TEST_PMC(0x10000) },
	{ "step 1, bit 62", API_T, PFMK_TEST_PMC(1) | BIT_ULL(62) },
	{ "step 1, bit 16", API_T, PFMK_TEST_PMC(1) | BIT_ULL(16) },
	{ "bit 40 alone", API_T, BIT_ULL(40) },
	{ "all ones", API_T, ~0ULL },
	{ "cpu-clock, bit 62", "", API_CLK | BIT_ULL(62) },
	{ "cpu-clock, bit 56", "", API_CLK | BIT_ULL(56) },
	{ "cpu-clock, bit 40", "", API_CLK | BIT_ULL(40) },
	{ "cpu-clock, bit 47", "", API_CLK | BIT_ULL(47) },
	{ "breakpoint", "", PFMK_GEN_PMC(PERF_TYPE_BREAKPOINT, 0) },
	{ "type 15", "", PFMK_GEN_PMC(15, 0) },
	{ "software MAX", "", PFMK_GEN_SW(PERF_COUNT_SW_MAX) },
	{ "BPF output", "", PFMK_GEN_SW(PERF_COUNT_SW_BPF_OUTPUT) },
	{ "software 0xffffffffff", "", PFMK_GEN_SW(0xffffffffffULL) },
	{ "hardware MAX", "", PFMK_GEN_HW(PERF_COUNT_HW_MAX) },
	{ "cache id MAX", "", API_CACHE(PERF_COUNT_HW_CACHE_MAX) },
	{ "cache op MAX", "", API_CACHE(PERF_COUNT_HW_CACHE_OP_MAX << 8) },
	{ "cache result MAX", "",
	  API_CACHE(PERF_COUNT_HW_CACHE_RESULT_MAX << 16) },
};

/* Valid values, taken by write_pmcs (a tracepoint id perf checks at load). */
static const struct api_pmc_value api_good_pmcs[] = {
	{ "0", API_T, 0 },
	{ "1", API_T, 1 },
	{ "step 1", API_T, PFMK_TEST_PMC(1) },
	{ "step 0xffff", API_T, PFMK_TEST_PMC(0xffff) },
	{ "tracepoint 1", "", PFMK_GEN_PMC(PERF_TYPE_TRACEPOINT, 1) },
	{ "0", "", 0 },
	{ "cpu-clock", "", API_CLK },
	{ "cpu-clock, XIDLE and XHV", "",
	  API_CLK | PFMK_GEN_XIDLE | PFMK_GEN_XHV },
	{ "cycles", "", PFMK_GEN_HW(PERF_COUNT_HW_CPU_CYCLES) },
	{ "L1D read miss", "",
	  API_CACHE(PERF_COUNT_HW_CACHE_L1D |
		    PERF_COUNT_HW_CACHE_OP_READ << 8 |
		    PERF_COUNT_HW_CACHE_RESULT_MISS << 16) },
	{ "raw 0x3c", "", PFMK_GEN_PMC(PERF_TYPE_RAW, 0x3c) },
};

static void api_pmc_value_desc(const struct api_pmc_value *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s: %s",
		 v->pmu[0] ? v->pmu : "generic", v->what);
}

KUNIT_ARRAY_PARAM(api_bad_pmc, api_bad_pmcs, api_pmc_value_desc);
KUNIT_ARRAY_PARAM(api_good_pmc, api_good_pmcs, api_pmc_value_desc);

/* An invalid PMC value fails at write_pmcs, with RETFL_EINVAL. */
static void api_pmc_bad_values(struct kunit *test)
{
	const struct api_pmc_value *v = test->param_value;
	void *desc = pfmkt_create(test, v->pmu);

	api_expect_bad_pmc(test, desc, v->value);
}

/* A valid PMC value is taken by write_pmcs. */
static void api_pmc_good_values(struct kunit *test)
{
	const struct api_pmc_value *v = test->param_value;
	void *desc = pfmkt_create(test, v->pmu);

	api_expect_good_pmc(test, desc, v->value);
}

/*
 * PMC vector: PMC0 step 1, PMC1 step 2, PMC2 @pmc2; PMD vector: PMD0 111,
 * PMD1 222, PMD @pmd2_reg 333.
 */
static void api_vectors(struct pfarg_pmc *pmc, struct pfarg_pmd *pmd,
			u64 pmc2, u16 pmd2_reg)
{
	pfmkt_pmc_req(&pmc[0], 0, 0, PFMK_TEST_PMC(1));
	pfmkt_pmc_req(&pmc[1], 0, 1, PFMK_TEST_PMC(2));
	pfmkt_pmc_req(&pmc[2], 0, 2, pmc2);
	pfmkt_pmd_req(&pmd[0], 0, 0, 111);
	pfmkt_pmd_req(&pmd[1], 0, 1, 222);
	pfmkt_pmd_req(&pmd[2], 0, pmd2_reg, 333);
}

/* An unloaded context and api_vectors() with a bad last PMC and PMD. */
static void *api_bad_vectors(struct kunit *test, struct pfarg_pmc *pmc,
			     struct pfarg_pmd *pmd)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	api_vectors(pmc, pmd, PFMK_TEST_PMC(0), PFMK_TEST_NUM_PMCS);
	return desc;
}

/* A PMC vector with a bad last entry is refused, only that entry flagged. */
static void api_vector_atomic(struct kunit *test)
{
	struct pfarg_pmc pmc[3];
	struct pfarg_pmd pmd[3];
	void *desc = api_bad_vectors(test, pmc, pmd);

	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, pmc, 3), -EINVAL);
	KUNIT_EXPECT_TRUE(test, pmc[2].reg_flags & PFM_REG_RETFL_EINVAL);
	KUNIT_EXPECT_FALSE(test, PFM_REG_HAS_ERROR(pmc[0].reg_flags));
	KUNIT_EXPECT_FALSE(test, PFM_REG_HAS_ERROR(pmc[1].reg_flags));
}

/* So is a PMD vector with a bad last entry, the entry flagged. */
static void api_vector_atomic_pmds(struct kunit *test)
{
	struct pfarg_pmc pmc[3];
	struct pfarg_pmd pmd[3];
	void *desc = api_bad_vectors(test, pmc, pmd);

	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmc, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, pfmk_write_pmds(desc, pmd, 3), -EINVAL);
	KUNIT_EXPECT_TRUE(test, pmd[2].reg_flags & PFM_REG_RETFL_NOTAVAIL);
}

/*
 * Set-up: api_bad_vectors() written, both refused, the context loaded and
 * started.  Return: the context.
 */
static void *api_refused_started(struct kunit *test)
{
	struct pfarg_pmc pmc[3];
	struct pfarg_pmd pmd[3];
	void *desc = api_bad_vectors(test, pmc, pmd);

	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmc, 3), -EINVAL);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, pmd, 3), -EINVAL);
	pfmkt_load_start(test, desc, pfmkt_cpu());
	return desc;
}

/*
 * The refused vectors are refused whole: no PMC before the bad entry is
 * applied, so the start creates no event...
 */
static void api_vector_atomic_no_event(struct kunit *test)
{
	api_refused_started(test);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(pfmkt_cpu()), 0U);
}

/*
 * ... and no PMD before it either: PMDs 0 and 1 read 0, not the 111 and
 * 222 of the vector, after 10 ticks.
 */
static void api_vector_atomic_pmds_not_applied(struct kunit *test)
{
	void *desc = api_refused_started(test);

	pfmk_test_pmu_tick(pfmkt_cpu(), 10);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 0ULL);
}

/*
 * A loaded context and the vectors of api_vectors(), fixed (PMC 2 step 3,
 * PMD 2), with the error flags a refused write left in them.
 */
static void *api_loaded_vectors(struct kunit *test, struct pfarg_pmc *pmc,
				struct pfarg_pmd *pmd)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	pfmkt_load(test, desc, pfmkt_cpu());
	api_vectors(pmc, pmd, PFMK_TEST_PMC(3), 2);
	pmc[2].reg_flags = PFM_REG_RETFL_EINVAL;
	pmd[2].reg_flags = PFM_REG_RETFL_NOTAVAIL;
	return desc;
}

/* api_loaded_vectors() written, started, 10 ticks, stopped. */
static void *api_loaded_ran(struct kunit *test, struct pfarg_pmc *pmc,
			    struct pfarg_pmd *pmd)
{
	void *desc = api_loaded_vectors(test, pmc, pmd);

	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmc, 3), 0);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, pmd, 3), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(pfmkt_cpu(), 10);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	return desc;
}

/* A bad last PMC on api_loaded_ran()'s context. */
static void api_bad_pmc_vector(struct pfarg_pmc *pmc)
{
	pmc[0].reg_value = PFMK_TEST_PMC(100);
	pmc[1].reg_value = 0;
	pmc[2].reg_value = PFMK_TEST_PMC(1) | BIT_ULL(20);
}

/* Fixed, the PMC vector goes through loaded, its error flag cleared. */
static void api_vector_fixed_pmcs_flag_cleared(struct kunit *test)
{
	struct pfarg_pmc pmc[3];
	struct pfarg_pmd pmd[3];
	void *desc = api_loaded_vectors(test, pmc, pmd);

	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, pmc, 3), 0);
	KUNIT_EXPECT_FALSE(test, PFM_REG_HAS_ERROR(pmc[2].reg_flags));
}

/* Then so does the fixed PMD vector, its error flag cleared. */
static void api_vector_fixed_pmds_flag_cleared(struct kunit *test)
{
	struct pfarg_pmc pmc[3];
	struct pfarg_pmd pmd[3];
	void *desc = api_loaded_vectors(test, pmc, pmd);

	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmc, 3), 0);
	KUNIT_EXPECT_EQ(test, pfmk_write_pmds(desc, pmd, 3), 0);
	KUNIT_EXPECT_FALSE(test, PFM_REG_HAS_ERROR(pmd[2].reg_flags));
}

/* Set-up: api_loaded_vectors() written, the context started. */
static void *api_loaded_started(struct kunit *test)
{
	struct pfarg_pmc pmc[3];
	struct pfarg_pmd pmd[3];
	void *desc = api_loaded_vectors(test, pmc, pmd);

	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmc, 3), 0);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, pmd, 3), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	return desc;
}

/* The vectors written on a loaded context make their events once started. */
static void api_vector_loaded_active(struct kunit *test)
{
	api_loaded_started(test);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(pfmkt_cpu()), 3U);
}

/* ... which count from the PMD values written. */
static void api_vector_loaded_counts(struct kunit *test)
{
	void *desc = api_loaded_started(test);

	pfmk_test_pmu_tick(pfmkt_cpu(), 10);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 121ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 242ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 2), 363ULL);
}

/* A vector with a bad last PMC on a loaded context: refused, flagged. */
static void api_vector_loaded_refused(struct kunit *test)
{
	struct pfarg_pmc pmc[3];
	struct pfarg_pmd pmd[3];
	void *desc = api_loaded_ran(test, pmc, pmd);

	api_bad_pmc_vector(pmc);
	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, pmc, 3), -EINVAL);
	KUNIT_EXPECT_TRUE(test, pmc[2].reg_flags & PFM_REG_RETFL_EINVAL);
}

/*
 * Set-up: api_loaded_ran(), then a vector with a bad last PMC refused, and
 * the context started again.
 */
static void *api_loaded_refused_restarted(struct kunit *test)
{
	struct pfarg_pmc pmc[3];
	struct pfarg_pmd pmd[3];
	void *desc = api_loaded_ran(test, pmc, pmd);

	api_bad_pmc_vector(pmc);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmc, 3), -EINVAL);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	return desc;
}

/* The refused vector leaves the loaded context's events as they are... */
static void api_vector_loaded_keeps_active(struct kunit *test)
{
	api_loaded_refused_restarted(test);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(pfmkt_cpu()), 3U);
}

/* ... counting on with their old values. */
static void api_vector_loaded_keeps(struct kunit *test)
{
	void *desc = api_loaded_refused_restarted(test);

	pfmk_test_pmu_tick(pfmkt_cpu(), 1);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 122ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 244ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 2), 366ULL);
}

static struct kunit_case pfmk_api_vec_cases[] = {
	KUNIT_CASE_PARAM(api_vector_negative, api_vec_op_gen_params),
	KUNIT_CASE_PARAM(api_vector_negative_unloaded, api_vec_op_gen_params),
	KUNIT_CASE_PARAM(api_vector_int_min, api_vec_op_gen_params),
	KUNIT_CASE_PARAM(api_vector_too_large, api_vec_op_gen_params),
	KUNIT_CASE_PARAM(api_vector_int_max, api_vec_op_gen_params),
	KUNIT_CASE_PARAM(api_vector_zero, api_vec_op_gen_params),
	KUNIT_CASE_PARAM(api_vector_zero_null, api_vec_op_gen_params),
	KUNIT_CASE_PARAM(api_vector_null, api_vec_op_gen_params),
	KUNIT_CASE_PARAM(api_pmc_bad_values, api_bad_pmc_gen_params),
	KUNIT_CASE_PARAM(api_pmc_good_values, api_good_pmc_gen_params),
	KUNIT_CASE(api_vector_atomic),
	KUNIT_CASE(api_vector_atomic_pmds),
	KUNIT_CASE(api_vector_atomic_no_event),
	KUNIT_CASE(api_vector_atomic_pmds_not_applied),
	KUNIT_CASE(api_vector_fixed_pmcs_flag_cleared),
	KUNIT_CASE(api_vector_fixed_pmds_flag_cleared),
	KUNIT_CASE(api_vector_loaded_active),
	KUNIT_CASE(api_vector_loaded_counts),
	KUNIT_CASE(api_vector_loaded_refused),
	KUNIT_CASE(api_vector_loaded_keeps_active),
	KUNIT_CASE(api_vector_loaded_keeps),
	{}
};

static struct kunit_suite pfmk_api_vec_suite = {
	.name = "pfmk_api_vec",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_api_vec_cases,
};

kunit_test_suites(&pfmk_api_vec_suite);
