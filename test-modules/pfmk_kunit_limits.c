// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_limits: every limit of core/limits.c gives its
 * documented errno at limit + 1, allocates nothing (checked through
 * pfmk_get_global_stats()), and leaves the caller's other contexts alone.
 * The limits are module parameters; the tests set them as an
 * administrator would, through /sys/module/pfmk/parameters/
 * (pfmk_test_param_io()), and restore them.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <pfmk/aux.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"
#include "pfmk_test_file.h"
#include "pfmk_test_pmu.h"

static const char * const pfmkt_params[] = {
	"max_contexts", "max_events", "max_smpl_buf", "max_smpl_mem",
};

/* Values saved by pfmk_limits_init(), restored by pfmk_limits_exit(). */
static char pfmkt_saved[ARRAY_SIZE(pfmkt_params)][24];

static void limits_set(struct kunit *test, const char *name, u64 val)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", val);
	KUNIT_ASSERT_EQ_MSG(test, pfmk_test_param_io(name, buf, 0, true), 0,
			    "write %s=%s", name, buf);
}

static int pfmk_limits_init(struct kunit *test)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(pfmkt_params); i++) {
		ret = pfmk_test_param_io(pfmkt_params[i], pfmkt_saved[i],
					 sizeof(pfmkt_saved[i]), false);
		if (ret)
			return ret;
	}
	return pfmkt_init(test);
}

static void pfmk_limits_exit(struct kunit *test)
{
	unsigned int i;

	pfmkt_exit(test);
	for (i = 0; i < ARRAY_SIZE(pfmkt_params); i++)
		KUNIT_EXPECT_EQ(test,
				pfmk_test_param_io(pfmkt_params[i],
						   pfmkt_saved[i], 0, true),
				0);
}

/* What a failed request must leave as it was. */
static void limits_expect_nothing_allocated(struct kunit *test,
					    const struct pfmk_global_stats *a,
					    const struct pfmk_global_stats *b)
{
	pfmkt_expect_gstats(test, a, b, &(struct pfmk_global_stats){},
			    PFMKT_GST(ctx_open) | PFMKT_GST(ctx_created) |
			    PFMKT_GST(events) | PFMKT_GST(smpl_bytes) |
			    PFMKT_GST(mem_bytes));
}

/*
 * Two contexts @a and @b opened, and max_contexts set to the contexts
 * open then: the next create is one over the limit.
 */
static void limits_contexts_at_limit(struct kunit *test, void **a, void **b)
{
	limits_set(test, "max_contexts", pfmkt_gstats(test).ctx_open + 2);
	*a = pfmkt_create(test, "");
	*b = pfmkt_create(test, "");
}

/* A context request; its create at the limit is refused (asserted). */
static void limits_contexts_refused(struct kunit *test, struct pfarg_ctx *req)
{
	void *c = NULL;

	pfmkt_ctx_req(req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmkt_try_create(test, req, &c), -ENOMEM);
}

/* max_contexts: the (limit + 1)th open context gets -ENOMEM, no memory. */
static void limits_max_contexts_over(struct kunit *test)
{
	struct pfmk_global_stats before, after;
	struct pfarg_ctx req;
	void *a, *b, *c = NULL;

	limits_contexts_at_limit(test, &a, &b);
	before = pfmkt_gstats(test);
	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_EXPECT_EQ(test, pfmkt_try_create(test, &req, &c), -ENOMEM);
	after = pfmkt_gstats(test);
	limits_expect_nothing_allocated(test, &before, &after);
}

/* max_contexts: a refused create leaves the caller's contexts alone. */
static void limits_max_contexts_others(struct kunit *test)
{
	struct pfarg_ctx req;
	void *a, *b;

	limits_contexts_at_limit(test, &a, &b);
	limits_contexts_refused(test, &req);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(a), PFM_CTX_UNLOADED);
}

/* max_contexts: closing a context at the limit makes room for one. */
static void limits_max_contexts_close(struct kunit *test)
{
	struct pfarg_ctx req;
	void *a, *b, *c = NULL;

	limits_contexts_at_limit(test, &a, &b);
	limits_contexts_refused(test, &req);
	pfmkt_close(test, b);
	KUNIT_EXPECT_EQ(test, pfmkt_try_create(test, &req, &c), 0);
}

/*
 * The max_events context: three events of the test PMU, not loaded.
 * @before: output: the global counters before the limit is set.
 */
static void *limits_events_ctx(struct kunit *test,
			       struct pfmk_global_stats *before)
{
	void *desc;
	u16 i;

	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	for (i = 0; i < 3; i++)
		pfmkt_write_pmc(test, desc, i, PFMK_TEST_PMC(1));
	*before = pfmkt_gstats(test);
	return desc;
}

/* The max_events context loaded on @cpu, max_events exactly its events. */
static void *limits_events_at_limit(struct kunit *test, int cpu,
				    struct pfmk_global_stats *before)
{
	void *desc = limits_events_ctx(test, before);

	limits_set(test, "max_events", before->events + 3);
	pfmkt_load(test, desc, cpu);
	return desc;
}

/* max_events: a load beyond it gets -ENOMEM and changes nothing. */
static void limits_max_events_over(struct kunit *test)
{
	struct pfmk_global_stats before, after;
	void *desc = limits_events_ctx(test, &before);

	limits_set(test, "max_events", before.events + 2);
	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), -ENOMEM);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
	after = pfmkt_gstats(test);
	limits_expect_nothing_allocated(test, &before, &after);
}

/* max_events: exactly at the limit, the load takes every event. */
static void limits_max_events_at(struct kunit *test)
{
	struct pfmk_global_stats before;

	limits_events_at_limit(test, pfmkt_cpu(), &before);
	KUNIT_EXPECT_EQ(test, pfmkt_gstats(test).events, before.events + 3);
}

/* A write of a fourth event to the max_events context at the limit. */
static int limits_events_write_one_more(void *desc)
{
	struct pfarg_pmc pmc;

	pfmkt_pmc_req(&pmc, 0, 3, PFMK_TEST_PMC(1));
	return pfmk_write_pmcs(desc, &pmc, 1);
}

/* max_events: one event more when loaded gets -ENOMEM and takes none. */
static void limits_max_events_write(struct kunit *test)
{
	struct pfmk_global_stats before;
	void *desc;

	desc = limits_events_at_limit(test, pfmkt_cpu(), &before);
	KUNIT_EXPECT_EQ(test, limits_events_write_one_more(desc), -ENOMEM);
	KUNIT_EXPECT_EQ(test, pfmkt_gstats(test).events, before.events + 3);
}

/* max_events: after a refused write, the loaded events count on. */
static void limits_max_events_write_others_count(struct kunit *test)
{
	struct pfmk_global_stats before;
	int cpu = pfmkt_cpu();
	void *desc;

	desc = limits_events_at_limit(test, cpu, &before);
	KUNIT_ASSERT_EQ(test, limits_events_write_one_more(desc), -ENOMEM);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 7);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 7);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 3), 0);
}

/* max_events: closing the context at the limit gives its events back. */
static void limits_max_events_close(struct kunit *test)
{
	struct pfmk_global_stats before;
	void *desc;

	desc = limits_events_at_limit(test, pfmkt_cpu(), &before);
	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, pfmkt_gstats(test).events, before.events);
}

#define LIMITS_SMPL_BUF	SZ_1M

/* max_smpl_buf set to LIMITS_SMPL_BUF; @before: the counters then. */
static void limits_smpl_buf_set(struct kunit *test,
				struct pfmk_global_stats *before)
{
	limits_set(test, "max_smpl_buf", LIMITS_SMPL_BUF);
	*before = pfmkt_gstats(test);
}

/* max_smpl_buf: a buffer of limit + 1 bytes gets -E2BIG. */
static void limits_max_smpl_buf_over(struct kunit *test)
{
	struct pfmk_global_stats before, after;
	void *desc;

	limits_smpl_buf_set(test, &before);
	KUNIT_EXPECT_EQ(test, pfmkt_try_create_dfl(test, "", 0,
						   LIMITS_SMPL_BUF + 1,
						   &desc, NULL), -E2BIG);
	after = pfmkt_gstats(test);
	limits_expect_nothing_allocated(test, &before, &after);
}

/* max_smpl_buf: a buffer of exactly the limit is accepted and charged. */
static void limits_max_smpl_buf_at(struct kunit *test)
{
	struct pfmk_global_stats before, after;
	void *desc;

	limits_smpl_buf_set(test, &before);
	KUNIT_ASSERT_EQ(test, pfmkt_try_create_dfl(test, "", 0,
						   LIMITS_SMPL_BUF, &desc,
						   NULL), 0);
	after = pfmkt_gstats(test);
	KUNIT_EXPECT_EQ(test, after.smpl_bytes,
			before.smpl_bytes + LIMITS_SMPL_BUF);
	KUNIT_EXPECT_GE(test, after.mem_bytes,
			before.mem_bytes + LIMITS_SMPL_BUF);
}

/*
 * A buffer of 1 MiB, and max_smpl_mem set to leave 4096 bytes: 8192 more
 * would go over by 4096, 4096 fit exactly.
 * @before: output: the counters with the first buffer.
 */
static void limits_smpl_mem_near(struct kunit *test,
				 struct pfmk_global_stats *before)
{
	void *desc;

	*before = pfmkt_gstats(test);
	limits_set(test, "max_smpl_mem", before->smpl_bytes + SZ_1M + 4096);
	KUNIT_ASSERT_EQ(test, pfmkt_try_create_dfl(test, "", 0, SZ_1M, &desc,
						   NULL), 0);
	*before = pfmkt_gstats(test);
}

/* max_smpl_mem: a buffer that would take the total over gets -ENOMEM. */
static void limits_max_smpl_mem_over(struct kunit *test)
{
	struct pfmk_global_stats before, after;
	void *desc;

	limits_smpl_mem_near(test, &before);
	KUNIT_EXPECT_EQ(test, pfmkt_try_create_dfl(test, "", 0, 8192, &desc,
						   NULL), -ENOMEM);
	after = pfmkt_gstats(test);
	limits_expect_nothing_allocated(test, &before, &after);
}

/* max_smpl_mem: a buffer that takes the total exactly to it is charged. */
static void limits_max_smpl_mem_at(struct kunit *test)
{
	struct pfmk_global_stats before;
	void *desc;

	limits_smpl_mem_near(test, &before);
	KUNIT_EXPECT_EQ(test, pfmkt_try_create_dfl(test, "", 0, 4096, &desc,
						   NULL), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_gstats(test).smpl_bytes,
			before.smpl_bytes + 4096);
}

#define LIMITS_AUX	(4 * PAGE_SIZE)
/* An AUX set-up is charged with its data page. */
#define LIMITS_AUX_COST	(LIMITS_AUX + PAGE_SIZE)

/*
 * A context, and max_smpl_mem set to what one AUX set-up of LIMITS_AUX
 * bytes costs on top of the counts in @before; skipped where the harness
 * says the kernel lacks pfmk AUX (pfmkt_aux_patch()).
 */
static void *limits_aux_ctx(struct kunit *test,
			    struct pfmk_global_stats *before)
{
	void *desc;

	if (!pfmkt_aux_patch(test))
		kunit_skip(test, "the harness says the kernel lacks pfmk's kernel-owned AUX patch");
	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	*before = pfmkt_gstats(test);
	limits_set(test, "max_smpl_mem", before->smpl_bytes + LIMITS_AUX_COST);
	return desc;
}

/* limits_aux_ctx() with its AUX set-up made: the limit is reached. */
static void *limits_aux_charged(struct kunit *test,
				struct pfmk_global_stats *before)
{
	void *desc = limits_aux_ctx(test, before);

	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(desc, 0, LIMITS_AUX, 0), 0);
	return desc;
}

/* pfmk AUX: a set-up over max_smpl_mem gets -ENOMEM, charges nothing. */
static void limits_aux_mem_over(struct kunit *test)
{
	struct pfmk_global_stats before, st;
	void *desc = limits_aux_ctx(test, &before);

	KUNIT_EXPECT_EQ(test, pfmk_aux_setup(desc, 0, 2 * LIMITS_AUX, 0),
			-ENOMEM);
	st = pfmkt_gstats(test);
	pfmkt_expect_gstats(test, &before, &st, &(struct pfmk_global_stats){},
			    PFMKT_GST(smpl_bytes) | PFMKT_GST(mem_bytes));
}

/*
 * pfmk AUX: a set-up counts in smpl_bytes and mem_bytes from the set-up
 * on, its data page included.
 */
static void limits_aux_mem_charged(struct kunit *test)
{
	struct pfmk_global_stats before, st;

	limits_aux_charged(test, &before);
	st = pfmkt_gstats(test);
	pfmkt_expect_gstats(test, &before, &st,
			    &(struct pfmk_global_stats){
				.smpl_bytes = LIMITS_AUX_COST,
				.mem_bytes = LIMITS_AUX_COST },
			    PFMKT_GST(smpl_bytes) | PFMKT_GST(mem_bytes));
}

/* pfmk AUX: a bigger replacement does not fit: the set-up stays. */
static void limits_aux_mem_bigger(struct kunit *test)
{
	struct pfmk_global_stats before;
	void *desc = limits_aux_charged(test, &before);

	KUNIT_EXPECT_EQ(test, pfmk_aux_setup(desc, 0, 2 * LIMITS_AUX, 0),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, pfmkt_gstats(test).smpl_bytes,
			before.smpl_bytes + LIMITS_AUX_COST);
}

/* pfmk AUX: a smaller replacement fits and is charged its own size. */
static void limits_aux_mem_smaller(struct kunit *test)
{
	struct pfmk_global_stats before;
	void *desc = limits_aux_charged(test, &before);

	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(desc, 0, LIMITS_AUX / 2, 0), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_gstats(test).smpl_bytes,
			before.smpl_bytes + LIMITS_AUX / 2 + PAGE_SIZE);
}

/* pfmk AUX: removing the set-up gives everything back. */
static void limits_aux_mem_remove(struct kunit *test)
{
	struct pfmk_global_stats before, st;
	void *desc = limits_aux_charged(test, &before);

	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(desc, 0, 0, 0), 0);
	st = pfmkt_gstats(test);
	pfmkt_expect_gstats(test, &before, &st, &(struct pfmk_global_stats){},
			    PFMKT_GST(smpl_bytes) | PFMKT_GST(mem_bytes));
}

/* pfmk AUX: closing with a set-up uncharges it too. */
static void limits_aux_mem_close(struct kunit *test)
{
	struct pfmk_global_stats before;
	void *desc = limits_aux_charged(test, &before);

	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, pfmkt_gstats(test).smpl_bytes, before.smpl_bytes);
}

/*
 * A context of the test PMU with every PMC written, loaded.
 * @before: output: the global counters before its create.
 */
static void *limits_accounting_loaded(struct kunit *test,
				      struct pfmk_global_stats *before)
{
	void *desc;
	u16 i;

	*before = pfmkt_gstats(test);
	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	for (i = 0; i < PFMK_TEST_NUM_PMCS; i++)
		pfmkt_write_pmc(test, desc, i, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, pfmkt_cpu());
	return desc;
}

/* A loaded context counts as open, with its events and its memory. */
static void limits_accounting_charged(struct kunit *test)
{
	struct pfmk_global_stats before, after;

	limits_accounting_loaded(test, &before);
	after = pfmkt_gstats(test);
	pfmkt_expect_gstats(test, &before, &after,
			    &(struct pfmk_global_stats){
				.ctx_open = 1, .events = PFMK_TEST_NUM_PMCS },
			    PFMKT_GST(ctx_open) | PFMKT_GST(events));
	KUNIT_EXPECT_GT(test, after.mem_bytes, before.mem_bytes);
}

/* Creating and closing returns every counter to where it was. */
static void limits_accounting_balanced(struct kunit *test)
{
	struct pfmk_global_stats before, after;

	pfmkt_close(test, limits_accounting_loaded(test, &before));
	rcu_barrier();
	after = pfmkt_gstats(test);
	pfmkt_expect_gstats(test, &before, &after,
			    &(struct pfmk_global_stats){ .ctx_created = 1,
							 .ctx_freed = 1 },
			    PFMKT_GST(ctx_open) | PFMKT_GST(ctx_created) |
			    PFMKT_GST(ctx_freed) | PFMKT_GST(events) |
			    PFMKT_GST(mem_bytes));
}

static struct kunit_case pfmk_limits_cases[] = {
	KUNIT_CASE(limits_max_contexts_over),
	KUNIT_CASE(limits_max_contexts_others),
	KUNIT_CASE(limits_max_contexts_close),
	KUNIT_CASE(limits_max_events_over),
	KUNIT_CASE(limits_max_events_at),
	KUNIT_CASE(limits_max_events_write),
	KUNIT_CASE(limits_max_events_write_others_count),
	KUNIT_CASE(limits_max_events_close),
	KUNIT_CASE(limits_max_smpl_buf_over),
	KUNIT_CASE(limits_max_smpl_buf_at),
	KUNIT_CASE(limits_max_smpl_mem_over),
	KUNIT_CASE(limits_max_smpl_mem_at),
	KUNIT_CASE(limits_aux_mem_over),
	KUNIT_CASE(limits_aux_mem_charged),
	KUNIT_CASE(limits_aux_mem_bigger),
	KUNIT_CASE(limits_aux_mem_smaller),
	KUNIT_CASE(limits_aux_mem_remove),
	KUNIT_CASE(limits_aux_mem_close),
	KUNIT_CASE(limits_accounting_charged),
	KUNIT_CASE(limits_accounting_balanced),
	{}
};

static struct kunit_suite pfmk_limits_suite = {
	.name = "pfmk_limits",
	.init = pfmk_limits_init,
	.exit = pfmk_limits_exit,
	.test_cases = pfmk_limits_cases,
};

kunit_test_suites(&pfmk_limits_suite);
