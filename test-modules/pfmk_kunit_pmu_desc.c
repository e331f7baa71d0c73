// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_pmu_desc: PMU descriptions (<pfmk/pmu.h>) registered
 * by a module: names (-EEXIST for a second description of a name), the
 * module pin a context holds on its description, and PMCs left at a
 * default value that counts, or programmed through another PMC
 * (->pmd_pmc(), ->pmc_shared()), at load and by a write on a loaded
 * context.  The descriptions count on the deterministic test PMU
 * (pfmk_test_pmu_tick()), so the counts are exact.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

/* A PMU description of this module, for the registry cases. */
#define PDESC_PMU_NAME	"pfmk_kt_desc"

static const struct pfmk_reg_desc pdesc_pmc_desc[1] = {
	{ .name = "PMC0", .rsvd_msk = ~BIT_ULL(63) },
};

static int pdesc_pmc_to_attr(const struct pfmk_pmu_desc *d, unsigned int reg,
			     u64 val, struct perf_event_attr *attr)
{
	return PFMK_PMC_OFF;
}

/* Two descriptions of the same name; @pdesc_a registers first. */
static struct pfmk_pmu_desc pdesc_a = {
	.name = PDESC_PMU_NAME, .owner = THIS_MODULE, .num_pmcs = 1,
	.pmc_desc = pdesc_pmc_desc, .pmc_to_attr = pdesc_pmc_to_attr,
};

static struct pfmk_pmu_desc pdesc_b = {
	.name = PDESC_PMU_NAME, .owner = THIS_MODULE, .num_pmcs = 1,
	.pmc_desc = pdesc_pmc_desc, .pmc_to_attr = pdesc_pmc_to_attr,
};

static bool pdesc_a_registered;

/*
 * "pfmk_kt_dfl": three PMCs in the test PMU's encoding.  PMC0's default
 * counts (2 per tick), PMC1's and PMC2's are off.  PMD2 follows PMC1
 * while PMC1 carries PDESC_DFL_SHARE and PMC2 is 0 (->pmd_pmc()), as
 * Intel's fixed counters follow an image in PMC16.
 */
#define PDESC_DFL_NAME	"pfmk_kt_dfl"
#define PDESC_DFL_SHARE	BIT_ULL(62)

static atomic_t pdesc_dfl_asked;
static bool pdesc_dfl_registered;

static int pdesc_dfl_to_attr(const struct pfmk_pmu_desc *d, unsigned int reg,
			     u64 val, struct perf_event_attr *attr)
{
	atomic_inc(&pdesc_dfl_asked);
	if (!(val & PFMK_TEST_PMC_EN))
		return PFMK_PMC_OFF;
	attr->type = pfmk_test_pmu_type();
	attr->config = val & PFMK_TEST_PMC_STEP;
	return 0;
}

static u64 pdesc_dfl_pmd_pmc(const struct pfmk_pmu_desc *d, unsigned int pmd,
			     const u64 *pmcs)
{
	if (pmd == 2 && !pmcs[2] && (pmcs[1] & PDESC_DFL_SHARE))
		return pmcs[1] & ~PDESC_DFL_SHARE;
	return pmcs[pmd];
}

static bool pdesc_dfl_pmc_shared(const struct pfmk_pmu_desc *d,
				 unsigned int reg, u64 val)
{
	return reg == 1 && (val & PDESC_DFL_SHARE);
}

static const struct pfmk_reg_desc pdesc_dfl_regs[3] = {
	{ .name = "PMC0", .dfl_val = PFMK_TEST_PMC(2),
	  .rsvd_msk = PFMK_TEST_PMC_RSVD },
	{ .name = "PMC1", .rsvd_msk = PFMK_TEST_PMC_RSVD & ~PDESC_DFL_SHARE },
	{ .name = "PMC2", .rsvd_msk = PFMK_TEST_PMC_RSVD },
};

static struct pfmk_pmu_desc pdesc_dfl_desc = {
	.name = PDESC_DFL_NAME, .owner = THIS_MODULE, .num_pmcs = 3,
	.pmc_desc = pdesc_dfl_regs, .pmc_to_attr = pdesc_dfl_to_attr,
	.pmd_pmc = pdesc_dfl_pmd_pmc, .pmc_shared = pdesc_dfl_pmc_shared,
};

static void pdesc_exit(struct kunit *test)
{
	pfmkt_exit(test);
	if (pdesc_a_registered) {
		pfmk_pmu_unregister(&pdesc_a);
		pdesc_a_registered = false;
	}
	if (pdesc_dfl_registered) {
		pfmk_pmu_unregister(&pdesc_dfl_desc);
		pdesc_dfl_registered = false;
	}
}

/* Register @pdesc_a, unregistered by pdesc_exit() if the test does not. */
static void pdesc_a_register(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, pfmk_pmu_register(&pdesc_a), 0);
	pdesc_a_registered = true;
}

/* Register @d, expected to fail; unregister it if it did not. */
static int pdesc_try_register(struct pfmk_pmu_desc *d)
{
	int ret = pfmk_pmu_register(d);

	if (!ret)
		pfmk_pmu_unregister(d);
	return ret;
}

/*
 * A second description of a name another module registered: -EEXIST, as
 * documented.
 */
static void pmu_desc_duplicate_name(struct kunit *test)
{
	static struct pfmk_pmu_desc dup_test = {
		.name = PFMK_TEST_PMU_NAME, .owner = THIS_MODULE,
		.num_pmcs = 1, .pmc_desc = pdesc_pmc_desc,
		.pmc_to_attr = pdesc_pmc_to_attr,
	};

	KUNIT_EXPECT_EQ(test, pdesc_try_register(&dup_test), -EEXIST);
}

/* A second description of a name this module registered: -EEXIST too. */
static void pmu_desc_duplicate_own_name(struct kunit *test)
{
	pdesc_a_register(test);
	KUNIT_EXPECT_EQ(test, pdesc_try_register(&pdesc_b), -EEXIST);
}

/*
 * Register "pfmk_kt_a" and create a context of it.
 * @base: output: the module's reference count before the create.
 */
static void *pdesc_pinning_ctx(struct kunit *test, int *base)
{
	struct pfarg_ctx req;
	void *desc = NULL;

	pdesc_a_register(test);
	pfmkt_ctx_req(&req, PDESC_PMU_NAME, 0, false);
	*base = module_refcount(THIS_MODULE);
	KUNIT_ASSERT_EQ(test, pfmkt_try_create(test, &req, &desc), 0);
	return desc;
}

/*
 * A context pins its description's module: one reference from create on,
 * so the module cannot be unloaded under it.
 */
static void pmu_desc_module_pinned(struct kunit *test)
{
	int base;

	pdesc_pinning_ctx(test, &base);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), base + 1);
}

/* The close of that context drops its reference on the module. */
static void pmu_desc_module_unpinned_after_close(struct kunit *test)
{
	int base;
	void *desc = pdesc_pinning_ctx(test, &base);

	KUNIT_ASSERT_EQ(test, module_refcount(THIS_MODULE), base + 1);
	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), base);
}

/*
 * After the close the description can go, and its name is unknown again:
 * create gives -ENOENT.
 */
static void pmu_desc_gone_unknown(struct kunit *test)
{
	struct pfarg_ctx req;
	void *desc = NULL;

	pdesc_a_register(test);
	pfmkt_ctx_req(&req, PDESC_PMU_NAME, 0, false);
	KUNIT_ASSERT_EQ(test, pfmkt_try_create(test, &req, &desc), 0);
	pfmkt_close(test, desc);

	pfmk_pmu_unregister(&pdesc_a);
	pdesc_a_registered = false;
	KUNIT_EXPECT_EQ(test, pfmkt_try_create(test, &req, &desc), -ENOENT);
}

/*
 * Register "pfmk_kt_dfl", create a context of it, write PMC1 and PMC2
 * unless 0 and load it on @cpu, counting the load's ->pmc_to_attr() calls
 * in pdesc_dfl_asked.
 */
static void *pdesc_dfl_load(struct kunit *test, int cpu, u64 pmc1, u64 pmc2)
{
	void *desc;

	KUNIT_ASSERT_EQ(test, pfmk_pmu_register(&pdesc_dfl_desc), 0);
	pdesc_dfl_registered = true;
	desc = pfmkt_create(test, PDESC_DFL_NAME);
	if (pmc1)
		pfmkt_write_pmc(test, desc, 1, pmc1);
	if (pmc2)
		pfmkt_write_pmc(test, desc, 2, pmc2);
	atomic_set(&pdesc_dfl_asked, 0);
	pfmkt_load(test, desc, cpu);
	return desc;
}

/* Start, tick @ticks on @cpu, stop. */
static void pdesc_dfl_tick(struct kunit *test, void *desc, int cpu, u64 ticks)
{
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, ticks);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
}

/* Start, tick @ticks on @cpu, stop: PMD0..PMD2 then read @want. */
static void pdesc_dfl_run(struct kunit *test, void *desc, int cpu, u64 ticks,
			  const u64 *want)
{
	unsigned int i;

	pdesc_dfl_tick(test, desc, cpu, ticks);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, desc, i), want[i],
				    "PMD%u", i);
}

/* pdesc_dfl_run() as set-up: PMD0..PMD2 must read @want. */
static void pdesc_dfl_run_setup(struct kunit *test, void *desc, int cpu,
				u64 ticks, const u64 *want)
{
	unsigned int i;

	pdesc_dfl_tick(test, desc, cpu, ticks);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ_MSG(test, pfmkt_read_pmd(test, desc, i), want[i],
				    "PMD%u", i);
}

/*
 * A PMC whose default value counts needs no write: the load creates its
 * event.  The load asks the description about that PMD only; the others
 * were found off by default at registration.
 */
static void pmu_desc_default_on(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = pdesc_dfl_load(test, cpu, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pdesc_dfl_asked), 1);
	pdesc_dfl_run(test, desc, cpu, 5, (const u64[]){ 10, 0, 0 });
}

/*
 * A written PMC that programs another PMD (->pmc_shared()): the load
 * visits every PMD, and PMD2, never written and off by default, follows
 * PMC1.
 */
static void pmu_desc_default_shared(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = pdesc_dfl_load(test, cpu, PDESC_DFL_SHARE | PFMK_TEST_PMC(3), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pdesc_dfl_asked), 3);
	pdesc_dfl_run(test, desc, cpu, 4, (const u64[]){ 8, 12, 12 });
}

/* Written back to its default, PMC1 leaves PMD1 and PMD2 unused again. */
static void pmu_desc_default_shared_reset(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = pdesc_dfl_load(test, cpu, PDESC_DFL_SHARE | PFMK_TEST_PMC(3), 0);
	pdesc_dfl_run_setup(test, desc, cpu, 4, (const u64[]){ 8, 12, 12 });
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	pfmkt_write_pmc(test, desc, 1, 0);
	pfmkt_load(test, desc, cpu);
	pdesc_dfl_run(test, desc, cpu, 1, (const u64[]){ 10, 12, 12 });
}

/*
 * A PMC written on a loaded context programs its PMD as a load would: PMC2
 * written back to 0 leaves PMD2 following PMC1 (->pmd_pmc()), not unused.
 */
static void pmu_desc_loaded_write_follows(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = pdesc_dfl_load(test, cpu, PDESC_DFL_SHARE | PFMK_TEST_PMC(3),
			      PFMK_TEST_PMC(5));
	pdesc_dfl_run_setup(test, desc, cpu, 2, (const u64[]){ 4, 6, 10 });

	pfmkt_write_pmc(test, desc, 2, 0);
	pdesc_dfl_run(test, desc, cpu, 1, (const u64[]){ 6, 9, 13 });
}

static struct kunit_case pfmk_pmu_desc_cases[] = {
	KUNIT_CASE(pmu_desc_duplicate_name),
	KUNIT_CASE(pmu_desc_duplicate_own_name),
	KUNIT_CASE(pmu_desc_module_pinned),
	KUNIT_CASE(pmu_desc_module_unpinned_after_close),
	KUNIT_CASE(pmu_desc_gone_unknown),
	KUNIT_CASE(pmu_desc_default_on),
	KUNIT_CASE(pmu_desc_default_shared),
	KUNIT_CASE(pmu_desc_default_shared_reset),
	KUNIT_CASE(pmu_desc_loaded_write_follows),
	{}
};

static struct kunit_suite pfmk_pmu_desc_suite = {
	.name = "pfmk_pmu_desc",
	.init = pfmkt_init,
	.exit = pdesc_exit,
	.test_cases = pfmk_pmu_desc_cases,
};

kunit_test_suites(&pfmk_pmu_desc_suite);
