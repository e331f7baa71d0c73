// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suites: edge cases that no other suite covers.
 *
 * pfmk_edge: PMU description names, the module pin a context holds on
 * its description, and PMCs left at a default value that counts, or
 * programmed through another PMC.
 *
 * pfmk_edge_hotplug: stop and start while the context's CPU is away, and
 * a re-arm that fails on the max_events limit.
 *
 * Every case runs on the deterministic test PMU (pfmk_test_pmu_tick()),
 * so counts and states are exact.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

#define EDGE_STARTED	(PFM_CTX_LOADED | PFMK_STATE_STARTED)
#define EDGE_OFFLINE	PFMK_STATE_OFFLINE

/* A PMU description of this module, for the registry cases. */
#define EDGE_PMU_NAME	"pfmk_kt_edge"

/* max_events as the suite found it, restored by edge_exit(). */
static char edge_saved_max_events[24];

static const struct pfmk_reg_desc edge_pmc_desc[1] = {
	{ .name = "PMC0", .rsvd_msk = ~BIT_ULL(63) },
};

static int edge_pmc_to_attr(const struct pfmk_pmu_desc *d, unsigned int reg,
			    u64 val, struct perf_event_attr *attr)
{
	return PFMK_PMC_OFF;
}

/* Two descriptions of the same name; @edge_desc_a registers first. */
static struct pfmk_pmu_desc edge_desc_a = {
	.name = EDGE_PMU_NAME, .owner = THIS_MODULE, .num_pmcs = 1,
	.pmc_desc = edge_pmc_desc, .pmc_to_attr = edge_pmc_to_attr,
};

static struct pfmk_pmu_desc edge_desc_b = {
	.name = EDGE_PMU_NAME, .owner = THIS_MODULE, .num_pmcs = 1,
	.pmc_desc = edge_pmc_desc, .pmc_to_attr = edge_pmc_to_attr,
};

static bool edge_desc_a_registered;

/*
 * "pfmk_kt_dfl": three PMCs in the test PMU's encoding.  PMC0's default
 * counts (2 per tick), PMC1's and PMC2's are off.  PMD2 follows PMC1
 * while PMC1 carries EDGE_DFL_SHARE and PMC2 is 0 (->pmd_pmc()), as
 * Intel's fixed counters follow an image in PMC16.
 */
#define EDGE_DFL_NAME	"pfmk_kt_dfl"
#define EDGE_DFL_SHARE	BIT_ULL(62)

static atomic_t edge_dfl_asked;
static bool edge_dfl_registered;

static int edge_dfl_to_attr(const struct pfmk_pmu_desc *d, unsigned int reg,
			    u64 val, struct perf_event_attr *attr)
{
	atomic_inc(&edge_dfl_asked);
	if (!(val & PFMK_TEST_PMC_EN))
		return PFMK_PMC_OFF;
	attr->type = pfmk_test_pmu_type();
	attr->config = val & PFMK_TEST_PMC_STEP;
	return 0;
}

static u64 edge_dfl_pmd_pmc(const struct pfmk_pmu_desc *d, unsigned int pmd,
			    const u64 *pmcs)
{
	if (pmd == 2 && !pmcs[2] && (pmcs[1] & EDGE_DFL_SHARE))
		return pmcs[1] & ~EDGE_DFL_SHARE;
	return pmcs[pmd];
}

static bool edge_dfl_pmc_shared(const struct pfmk_pmu_desc *d,
				unsigned int reg, u64 val)
{
	return reg == 1 && (val & EDGE_DFL_SHARE);
}

static const struct pfmk_reg_desc edge_dfl_regs[3] = {
	{ .name = "PMC0", .dfl_val = PFMK_TEST_PMC(2),
	  .rsvd_msk = PFMK_TEST_PMC_RSVD },
	{ .name = "PMC1", .rsvd_msk = PFMK_TEST_PMC_RSVD & ~EDGE_DFL_SHARE },
	{ .name = "PMC2", .rsvd_msk = PFMK_TEST_PMC_RSVD },
};

static struct pfmk_pmu_desc edge_dfl_desc = {
	.name = EDGE_DFL_NAME, .owner = THIS_MODULE, .num_pmcs = 3,
	.pmc_desc = edge_dfl_regs, .pmc_to_attr = edge_dfl_to_attr,
	.pmd_pmc = edge_dfl_pmd_pmc, .pmc_shared = edge_dfl_pmc_shared,
};

static int edge_init(struct kunit *test)
{
	int ret;

	ret = pfmkt_param_io("max_events", edge_saved_max_events,
			     sizeof(edge_saved_max_events), false);
	if (ret)
		return ret;
	return pfmkt_init(test);
}

static void edge_exit(struct kunit *test)
{
	pfmkt_exit(test);
	if (edge_desc_a_registered) {
		pfmk_pmu_unregister(&edge_desc_a);
		edge_desc_a_registered = false;
	}
	if (edge_dfl_registered) {
		pfmk_pmu_unregister(&edge_dfl_desc);
		edge_dfl_registered = false;
	}
	KUNIT_EXPECT_EQ(test, pfmkt_param_io("max_events",
					     edge_saved_max_events, 0, true),
			0);
}

/* pfmk_edge */

/* A second description of a registered name: -EEXIST, as documented. */
static void edge_pmu_duplicate_name(struct kunit *test)
{
	static struct pfmk_pmu_desc dup_test = {
		.name = PFMK_TEST_PMU_NAME, .owner = THIS_MODULE,
		.num_pmcs = 1, .pmc_desc = edge_pmc_desc,
		.pmc_to_attr = edge_pmc_to_attr,
	};
	int ret;

	ret = pfmk_pmu_register(&dup_test);
	if (!ret)
		pfmk_pmu_unregister(&dup_test);
	KUNIT_EXPECT_EQ(test, ret, -EEXIST);

	KUNIT_ASSERT_EQ(test, pfmk_pmu_register(&edge_desc_a), 0);
	edge_desc_a_registered = true;
	ret = pfmk_pmu_register(&edge_desc_b);
	if (!ret)
		pfmk_pmu_unregister(&edge_desc_b);
	KUNIT_EXPECT_EQ(test, ret, -EEXIST);
}

/*
 * A context pins its description's module (one reference, from create to
 * close), so the module cannot be unloaded under it; after the close the
 * description can go, and the name is unknown again.
 */
static void edge_pmu_pinned(struct kunit *test)
{
	struct pfarg_ctx req;
	void *desc = NULL;
	int base;

	KUNIT_ASSERT_EQ(test, pfmk_pmu_register(&edge_desc_a), 0);
	edge_desc_a_registered = true;
	pfmkt_ctx_req(&req, EDGE_PMU_NAME, 0, false);
	base = module_refcount(THIS_MODULE);
	KUNIT_ASSERT_EQ(test, pfmkt_try_create(test, &req, &desc), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), base + 1);
	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), base);

	pfmk_pmu_unregister(&edge_desc_a);
	edge_desc_a_registered = false;
	KUNIT_EXPECT_EQ(test, pfmkt_try_create(test, &req, &desc), -ENOENT);
}

/*
 * Register "pfmk_kt_dfl", create a context of it, write PMC1 and PMC2
 * unless 0 and load it on @cpu, counting the load's ->pmc_to_attr() calls
 * in edge_dfl_asked.
 */
static void *edge_dfl_load(struct kunit *test, int cpu, u64 pmc1, u64 pmc2)
{
	void *desc;

	KUNIT_ASSERT_EQ(test, pfmk_pmu_register(&edge_dfl_desc), 0);
	edge_dfl_registered = true;
	desc = pfmkt_create(test, EDGE_DFL_NAME);
	if (pmc1)
		pfmkt_write_pmc(test, desc, 1, pmc1);
	if (pmc2)
		pfmkt_write_pmc(test, desc, 2, pmc2);
	atomic_set(&edge_dfl_asked, 0);
	pfmkt_load(test, desc, cpu);
	return desc;
}

/* Start, tick @ticks on @cpu, stop: PMD0..PMD2 then read @want. */
static void edge_dfl_run(struct kunit *test, void *desc, int cpu, u64 ticks,
			 const u64 *want)
{
	unsigned int i;

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, ticks);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, desc, i), want[i],
				    "PMD%u", i);
}

/*
 * A PMC whose default value counts needs no write: the load creates its
 * event.  The load asks the description about that PMD only; the others
 * were found off by default at registration.
 */
static void edge_pmu_default_on(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = edge_dfl_load(test, cpu, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&edge_dfl_asked), 1);
	edge_dfl_run(test, desc, cpu, 5, (const u64[]){ 10, 0, 0 });
}

/*
 * A written PMC that programs another PMD (->pmc_shared()): the load
 * visits every PMD, and PMD2, never written and off by default, follows
 * PMC1.  Written back to its default, PMC1 leaves both unused again.
 */
static void edge_pmu_default_shared(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = edge_dfl_load(test, cpu, EDGE_DFL_SHARE | PFMK_TEST_PMC(3), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&edge_dfl_asked), 3);
	edge_dfl_run(test, desc, cpu, 4, (const u64[]){ 8, 12, 12 });

	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	pfmkt_write_pmc(test, desc, 1, 0);
	pfmkt_load(test, desc, cpu);
	edge_dfl_run(test, desc, cpu, 1, (const u64[]){ 10, 12, 12 });
}

/*
 * A PMC written on a loaded context programs its PMD as a load would: PMC2
 * written back to 0 leaves PMD2 following PMC1 (->pmd_pmc()), not unused.
 */
static void edge_pmu_loaded_write_follows(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = edge_dfl_load(test, cpu, EDGE_DFL_SHARE | PFMK_TEST_PMC(3),
			     PFMK_TEST_PMC(5));
	edge_dfl_run(test, desc, cpu, 2, (const u64[]){ 4, 6, 10 });

	pfmkt_write_pmc(test, desc, 2, 0);
	edge_dfl_run(test, desc, cpu, 1, (const u64[]){ 6, 9, 13 });
}

static struct kunit_case pfmk_edge_cases[] = {
	KUNIT_CASE(edge_pmu_duplicate_name),
	KUNIT_CASE(edge_pmu_pinned),
	KUNIT_CASE(edge_pmu_default_on),
	KUNIT_CASE(edge_pmu_default_shared),
	KUNIT_CASE(edge_pmu_loaded_write_follows),
	{}
};

struct kunit_suite pfmk_edge_suite = {
	.name = "pfmk_edge",
	.init = edge_init,
	.exit = edge_exit,
	.test_cases = pfmk_edge_cases,
};

/* pfmk_edge_hotplug */

/*
 * stop and start while the CPU is away only record whether to count: a
 * context stopped offline comes back stopped, one started offline comes
 * back counting.
 */
static void edge_hp_stop_start_offline(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc;

	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 10);

	pfmkt_offline(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), EDGE_STARTED | EDGE_OFFLINE);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | EDGE_OFFLINE);
	KUNIT_EXPECT_EQ(test, pfmk_stop(desc), -EALREADY);
	pfmkt_online(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 10ULL);

	pfmkt_offline(test, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), EDGE_STARTED | EDGE_OFFLINE);
	KUNIT_EXPECT_EQ(test, pfmk_start(desc, NULL), -EALREADY);
	pfmkt_online(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), EDGE_STARTED);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 15ULL);
}

/*
 * A re-arm over max_events fails: the context stays loaded and offline,
 * rearm_failed counts it, no event is left behind and no ONLINE message
 * is sent; with the limit back, the next call re-arms it.
 */
static void edge_hp_rearm_failed(struct kunit *test)
{
	struct pfmk_global_stats before, after;
	int cpu = pfmkt_hp_cpu(test);
	union pfm_msg msg;
	char limit[24];
	void *desc;

	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 10);

	pfmkt_offline(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), EDGE_STARTED | EDGE_OFFLINE);
	pfmkt_expect_msg(test, desc, PFMK_MSG_CPU_OFFLINE, cpu, 1);
	KUNIT_ASSERT_EQ(test, pfmk_get_global_stats(&before), 0);
	/* Room for one of the two events. */
	snprintf(limit, sizeof(limit), "%llu", before.events + 1);
	KUNIT_ASSERT_EQ(test, pfmkt_param_io("max_events", limit, 0, true), 0);

	pfmkt_online(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), EDGE_STARTED | EDGE_OFFLINE);
	KUNIT_ASSERT_EQ(test, pfmk_get_global_stats(&after), 0);
	KUNIT_EXPECT_GT(test, after.rearm_failed, before.rearm_failed);
	KUNIT_EXPECT_EQ(test, after.events, before.events);
	KUNIT_EXPECT_EQ(test, after.cpu_online, before.cpu_online);
	KUNIT_EXPECT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)-EAGAIN);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 10ULL);

	KUNIT_ASSERT_EQ(test, pfmkt_param_io("max_events",
					     edge_saved_max_events, 0, true),
			0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), EDGE_STARTED);
	pfmkt_expect_msg(test, desc, PFMK_MSG_CPU_ONLINE, cpu, 1);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 15ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 15ULL);
}

static struct kunit_case pfmk_edge_hotplug_cases[] = {
	KUNIT_CASE(edge_hp_stop_start_offline),
	KUNIT_CASE(edge_hp_rearm_failed),
	{}
};

struct kunit_suite pfmk_edge_hotplug_suite = {
	.name = "pfmk_edge_hotplug",
	.init = edge_init,
	.exit = edge_exit,
	.test_cases = pfmk_edge_hotplug_cases,
};
