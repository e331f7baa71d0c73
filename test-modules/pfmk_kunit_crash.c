// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_crash_kunit: KUnit suite of pfmk's post-mortem freeze
 * (<pfmk/crash.h>, core/crash.c).
 *
 * A crash is simulated by calling pfmk's die or panic hook directly, as
 * the kernel would, with interrupts off (pfmk_crash_test_notify()): every
 * context set up with PFMK_CRASH_FREEZE at that moment is frozen, so each
 * case closes what it opened.  The sampling contexts run on the
 * deterministic test PMU (pfmk_test_pmu.ko), whose ticks make every
 * sample and count exact; the AUX cases on the synthetic AUX PMU
 * (pfmk_test_aux_pmu.ko), which the debug kernels' patch lets a kernel
 * context own.  Its own module: it freezes every set-up context of the
 * machine.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/aux.h>
#include <pfmk/crash.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

#include "../core/test_hooks.h"
#include "pfmk_kunit.h"
#include "pfmk_test_aux_pmu.h"
#include "pfmk_test_pmu.h"

PFMK_IMPORT_NS();
MODULE_IMPORT_NS(PFMK_TEST_NS);

/* Sampling: PMD 0 (step 1) every CRT_P ticks records PMD 1 (step 3). */
#define CRT_P		5ULL
#define CRT_STEP1	3ULL
#define CRT_BUF		4096ULL
#define CRT_ENTRY	(sizeof(struct pfm_dfl_smpl_entry) + sizeof(u64))

/**
 * struct crt - state of one test
 * @base: the shared per-test state, whose contexts pfmkt_exit() closes.
 * @cpu: CPU the contexts are loaded on.
 */
struct crt {
	struct pfmkt_priv	base;
	int			cpu;
};

static_assert(offsetof(struct crt, base) == 0);

static int crt_init(struct kunit *test)
{
	struct crt *t;
	int ret;

	ret = pfmkt_init_priv(test, sizeof(*t));
	if (ret)
		return ret;
	t = test->priv;
	t->cpu = cpumask_first(cpu_online_mask);
	return 0;
}

/*
 * The flag a freeze sets when the crashing CPU is not the context's: its
 * events were read as their last overflow left them (no IPI in a crash).
 */
static u32 crt_remote(const struct pfmk_crash_info *info)
{
	return info->cpu != info->ctx_cpu ? PFMK_CRASH_REMOTE : 0;
}

/*
 * A context on the test PMU, sampling with the default format, loaded on
 * t->cpu and started; its buffer in *@buf.  @flags: its crash set-up,
 * none if 0.
 */
static void *crt_sampler(struct kunit *test, unsigned int flags, void **buf)
{
	struct crt *t = test->priv;
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, CRT_BUF, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(CRT_STEP1));
	pfmkt_write_sampler(test, desc, 0, CRT_P, 0, BIT_ULL(1));
	pfmkt_write_pmd(test, desc, 1, 0);
	if (flags)
		KUNIT_ASSERT_EQ(test, pfmk_crash_setup(desc, flags, 0), 0);
	pfmkt_load_start(test, desc, t->cpu);
	return desc;
}

/* The reasons a crash freezes for: the die notifier's oops, a panic. */
static const unsigned int crt_reasons[] = { PFMK_CRASH_OOPS, PFMK_CRASH_PANIC };

static void crt_reason_desc(const unsigned int *r, char *desc)
{
	strscpy(desc, *r == PFMK_CRASH_OOPS ? "oops" : "panic",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crt_reason, crt_reasons, crt_reason_desc);

/* Arguments of pfmk_crash_setup() and the errno each must give. */
struct crt_setup_case {
	const char	*name;
	unsigned int	flags;
	size_t		aux_keep;
	int		ret;
};

static const struct crt_setup_case crt_setup_cases[] = {
	{ "freeze", PFMK_CRASH_FREEZE, 0, 0 },
	{ "freeze_log_aux", PFMK_CRASH_FREEZE | PFMK_CRASH_LOG,
	  PFMK_CRASH_AUX_MAX, 0 },
	{ "remove", 0, 0, 0 },
	{ "unknown_flag", PFMK_CRASH_FREEZE | 0x4, 0, -EINVAL },
	{ "log_without_freeze", PFMK_CRASH_LOG, 0, -EINVAL },
	{ "aux_too_big", PFMK_CRASH_FREEZE, PFMK_CRASH_AUX_MAX + 1, -EINVAL },
	{ "aux_without_flags", 0, 8, -EINVAL },
};

static void crt_setup_desc(const struct crt_setup_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crt_setup, crt_setup_cases, crt_setup_desc);

/* Each set-up argument gives its documented errno, on a live context. */
static void crash_setup_args(struct kunit *test)
{
	const struct crt_setup_case *c = test->param_value;
	void *desc;

	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	KUNIT_EXPECT_EQ(test, pfmk_crash_setup(desc, c->flags, c->aux_keep),
			c->ret);
}

/* NULL or a stack address: -EBADF, before any other argument is checked. */
static void crash_setup_bad_desc(struct kunit *test)
{
	const struct crt_setup_case *c = test->param_value;
	unsigned long local;

	KUNIT_EXPECT_EQ(test, pfmk_crash_setup(NULL, c->flags, c->aux_keep),
			-EBADF);
	KUNIT_EXPECT_EQ(test, pfmk_crash_setup(&local, c->flags, c->aux_keep),
			-EBADF);
}

/**
 * struct crt_read_case - a pfmk_crash_read() that is refused
 * @name: the case.
 * @setup: the context is set up to freeze (PFMK_CRASH_FREEZE) first.
 * @null_desc: the descriptor is NULL.
 * @null_info: @info is NULL.
 * @pmds: a PMD array is passed.
 * @count: the PMD count.
 * @reg: the PMD's number, when @pmds.
 * @aux_size: the AUX size, with a NULL AUX pointer.
 * @ret: the errno.
 * @reg_flags: the PMD's PFM_REG_RETFL_* afterwards, when @pmds.
 */
struct crt_read_case {
	const char	*name;
	bool		setup;
	bool		null_desc;
	bool		null_info;
	bool		pmds;
	int		count;
	u16		reg;
	size_t		aux_size;
	int		ret;
	u32		reg_flags;
};

static const struct crt_read_case crt_read_cases[] = {
	{ .name = "not_set_up", .ret = -ENXIO },
	{ .name = "null_info", .setup = true, .null_info = true,
	  .ret = -EINVAL },
	{ .name = "null_pmds_count_1", .setup = true, .count = 1,
	  .ret = -EINVAL },
	{ .name = "count_minus_1", .setup = true, .pmds = true, .count = -1,
	  .ret = -EINVAL },
	{ .name = "count_over_pmds", .setup = true, .pmds = true,
	  .count = PFMK_TEST_NUM_PMCS + 1, .ret = -E2BIG },
	{ .name = "null_aux_size_8", .setup = true, .aux_size = 8,
	  .ret = -EINVAL },
	{ .name = "pmd_out_of_range", .setup = true, .pmds = true, .count = 1,
	  .reg = PFMK_TEST_NUM_PMCS, .ret = -EINVAL,
	  .reg_flags = PFM_REG_RETFL_NOTAVAIL },
	{ .name = "null_desc", .setup = true, .null_desc = true,
	  .ret = -EBADF },
};

static void crt_read_desc(const struct crt_read_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crt_read, crt_read_cases, crt_read_desc);

/* Each bad argument of pfmk_crash_read() gives its documented errno. */
static void crash_info_args(struct kunit *test)
{
	const struct crt_read_case *c = test->param_value;
	struct pfmk_crash_info info;
	struct pfarg_pmd pmd;
	void *desc;

	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	if (c->setup)
		KUNIT_ASSERT_EQ(test, pfmk_crash_setup(desc, PFMK_CRASH_FREEZE,
						       0), 0);
	pfmkt_pmd_req(&pmd, 0, c->reg, 0);
	KUNIT_EXPECT_EQ(test, pfmk_crash_read(c->null_desc ? NULL : desc,
					      c->null_info ? NULL : &info,
					      c->pmds ? &pmd : NULL, c->count,
					      NULL, c->aux_size), c->ret);
	if (c->pmds)
		KUNIT_EXPECT_EQ(test, pmd.reg_flags & PFM_REG_RETFL_MASK,
				c->reg_flags);
}

/*
 * A context set up to freeze but not frozen, read: *@info and *@pmd (PMD
 * 1, its value 77 before the read) as pfmk_crash_read() filled them.
 */
static void *crt_read_unfrozen(struct kunit *test,
			       struct pfmk_crash_info *info,
			       struct pfarg_pmd *pmd)
{
	u8 aux[8];
	void *desc;

	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	KUNIT_ASSERT_EQ(test, pfmk_crash_setup(desc, PFMK_CRASH_FREEZE, 0), 0);
	pfmkt_pmd_req(pmd, 0, 1, 77);
	KUNIT_ASSERT_EQ(test, pfmk_crash_read(desc, info, pmd, 1, aux,
					      sizeof(aux)), 0);
	return desc;
}

/* A set-up context that is not frozen reads as such: no reason, no CPU. */
static void crash_info_not_frozen(struct kunit *test)
{
	struct pfmk_crash_info info;
	struct pfarg_pmd pmd;

	crt_read_unfrozen(test, &info, &pmd);
	KUNIT_EXPECT_EQ(test, info.reason, (u32)PFMK_CRASH_NONE);
	KUNIT_EXPECT_EQ(test, info.ctx_cpu, -1);
	KUNIT_EXPECT_EQ(test, info.npmds, (u16)PFMK_TEST_NUM_PMCS);
}

/* Its PMDs read as zeros: nothing was frozen. */
static void crash_info_not_frozen_pmd(struct kunit *test)
{
	struct pfmk_crash_info info;
	struct pfarg_pmd pmd;

	crt_read_unfrozen(test, &info, &pmd);
	KUNIT_EXPECT_EQ(test, pmd.reg_value, 0ULL);
}

/* Reading a context that is not frozen does not freeze it. */
static void crash_info_read_does_not_freeze(struct kunit *test)
{
	struct pfmk_crash_info info;
	struct pfarg_pmd pmd;
	void *desc;

	desc = crt_read_unfrozen(test, &info, &pmd);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc) & PFMK_STATE_FROZEN, 0);
}

/*
 * crt_sampler() set up to freeze, @before ticks, frozen by a crash for
 * @reason, then @after ticks more; @copy (if not NULL, CRT_BUF bytes):
 * the buffer as it was at the crash.
 */
static void *crt_frozen(struct kunit *test, unsigned int reason, u64 before,
			u64 after, void **buf, void *copy)
{
	struct crt *t = test->priv;
	void *desc;

	desc = crt_sampler(test, PFMK_CRASH_FREEZE, buf);
	pfmk_test_pmu_tick(t->cpu, before);
	if (copy)
		memcpy(copy, *buf, CRT_BUF);
	KUNIT_ASSERT_EQ(test, pfmk_crash_test_notify(reason), 1);
	pfmk_test_pmu_tick(t->cpu, after);
	return desc;
}

/* The samples crt_frozen() takes before the crash. */
#define CRT_K		7ULL

/*
 * crt_frozen() for the row's reason, CRT_K periods before the crash and 5
 * after; *@copy: the buffer as it was at the crash, which holds CRT_K
 * entries.
 */
static void *crt_samples_frozen(struct kunit *test, void **buf, void **copy)
{
	const unsigned int *reason = test->param_value;
	void *desc;

	*copy = kunit_kmalloc(test, CRT_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *copy);
	desc = crt_frozen(test, *reason, CRT_K * CRT_P, 5 * CRT_P, buf, *copy);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(*copy), CRT_K);
	return desc;
}

/*
 * A crash stops sampling: after it, the buffer stays byte for byte as it
 * was though the PMU goes on overflowing.
 */
static void crash_samples_kept(struct kunit *test)
{
	void *buf, *copy;

	crt_samples_frozen(test, &buf, &copy);
	KUNIT_EXPECT_EQ(test, memcmp(copy, buf, CRT_BUF), 0);
}

/* ... its header still counts the samples of the crash. */
static void crash_samples_kept_count(struct kunit *test)
{
	void *buf, *copy;

	crt_samples_frozen(test, &buf, &copy);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), CRT_K);
}

/* ... and the freeze kept the context's counts of the crash. */
static void crash_samples_kept_stats(struct kunit *test)
{
	struct pfmk_ctx_stats st;
	void *desc, *buf, *copy;

	desc = crt_samples_frozen(test, &buf, &copy);
	KUNIT_ASSERT_EQ(test, pfmk_get_stats(desc, &st), 0);
	pfmkt_expect_stats_in(test, &st,
			      &(struct pfmk_ctx_stats){ .ovfl_count = CRT_K,
							.smpl_count = CRT_K },
			      PFMKT_ST(ovfl_count) | PFMKT_ST(smpl_count));
}

/* The record of a freeze: its reason, the counts, the context's CPU. */
static void crash_info_record(struct kunit *test)
{
	const unsigned int *reason = test->param_value;
	struct crt *t = test->priv;
	struct pfmk_crash_info info;
	void *desc, *buf;

	desc = crt_frozen(test, *reason, CRT_K * CRT_P, 5 * CRT_P, &buf, NULL);
	KUNIT_ASSERT_EQ(test, pfmk_crash_read(desc, &info, NULL, 0, NULL, 0),
			0);
	KUNIT_EXPECT_EQ(test, info.reason, *reason);
	KUNIT_EXPECT_EQ(test, info.smpl_count, CRT_K);
	KUNIT_EXPECT_EQ(test, info.ovfl_count, CRT_K);
	KUNIT_EXPECT_EQ(test, info.ctx_cpu, t->cpu);
	KUNIT_EXPECT_EQ(test, info.flags, crt_remote(&info));
}

/*
 * crt_frozen() for the row's reason, 3 samples and 2 ticks into the next
 * period before the crash, 11 ticks after it; @info and @pmd: the record
 * and PMD 0 and 1 as pfmk_crash_read() returns them.
 */
static void *crt_pmds_frozen(struct kunit *test, struct pfmk_crash_info *info,
			     struct pfarg_pmd pmd[2])
{
	const unsigned int *reason = test->param_value;
	void *desc, *buf;

	desc = crt_frozen(test, *reason, 3 * CRT_P + 2, 11, &buf, NULL);
	pfmkt_pmd_req(&pmd[0], 0, 0, 0);
	pfmkt_pmd_req(&pmd[1], 0, 1, 0);
	KUNIT_ASSERT_EQ(test, pfmk_crash_read(desc, info, pmd, 2, NULL, 0), 0);
	return desc;
}

/* The freeze keeps the PMD values of that moment, exactly, and their set. */
static void crash_pmds_at_freeze(struct kunit *test)
{
	struct pfmk_crash_info info;
	struct pfarg_pmd pmd[2];

	crt_pmds_frozen(test, &info, pmd);
	KUNIT_EXPECT_EQ(test, pmd[0].reg_value, -CRT_P + 2);
	KUNIT_EXPECT_EQ(test, pmd[1].reg_value, (3 * CRT_P + 2) * CRT_STEP1);
	KUNIT_EXPECT_EQ(test, info.set, 0);
}

/* ... while the events count on: the live value of PMD 1 grows. */
static void crash_pmds_at_freeze_live(struct kunit *test)
{
	struct pfmk_crash_info info;
	struct pfarg_pmd pmd[2];
	void *desc;

	desc = crt_pmds_frozen(test, &info, pmd);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1),
			(3 * CRT_P + 2 + 11) * CRT_STEP1);
}

/* ... and a frozen context says so in its state. */
static void crash_pmds_at_freeze_state(struct kunit *test)
{
	struct pfmk_crash_info info;
	struct pfarg_pmd pmd[2];
	void *desc;

	desc = crt_pmds_frozen(test, &info, pmd);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED | PFMK_STATE_FROZEN);
}

/* Frozen until close: the set-up cannot change any more. */
static void crash_setup_busy_frozen(struct kunit *test)
{
	const unsigned int *reason = test->param_value;
	void *desc, *buf;

	desc = crt_frozen(test, *reason, 3 * CRT_P + 2, 11, &buf, NULL);
	KUNIT_EXPECT_EQ(test, pfmk_crash_setup(desc, 0, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, pfmk_crash_setup(desc, PFMK_CRASH_FREEZE, 0),
			-EBUSY);
}

/**
 * struct crt_untouched - a context a crash leaves alone
 * @name: the row.
 * @removed: set up (freeze and log), then the set-up removed; else none.
 * @reason: the crash.
 */
struct crt_untouched {
	const char	*name;
	bool		removed;
	unsigned int	reason;
};

static const struct crt_untouched crt_untouched_cases[] = {
	{ "plain, oops", false, PFMK_CRASH_OOPS },
	{ "plain, panic", false, PFMK_CRASH_PANIC },
	{ "set-up removed, oops", true, PFMK_CRASH_OOPS },
	{ "set-up removed, panic", true, PFMK_CRASH_PANIC },
};

static void crt_untouched_desc(const struct crt_untouched *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crt_untouched, crt_untouched_cases, crt_untouched_desc);

/*
 * A sampler with no set-up (@removed: whose set-up was removed), 2
 * periods, a crash for @reason that freezes nothing, 3 periods more.
 */
static void *crt_unfrozen(struct kunit *test, bool removed,
			  unsigned int reason, void **buf)
{
	struct crt *t = test->priv;
	void *desc;

	desc = crt_sampler(test, removed ?
			   PFMK_CRASH_FREEZE | PFMK_CRASH_LOG : 0, buf);
	if (removed)
		KUNIT_ASSERT_EQ(test, pfmk_crash_setup(desc, 0, 0), 0);
	pfmk_test_pmu_tick(t->cpu, 2 * CRT_P);
	KUNIT_ASSERT_EQ(test, pfmk_crash_test_notify(reason), 0);
	pfmk_test_pmu_tick(t->cpu, 3 * CRT_P);
	return desc;
}

/*
 * A context without a set-up, or whose set-up was removed, is untouched:
 * it samples on after the crash, and is not frozen.
 */
static void crash_other_untouched(struct kunit *test)
{
	const struct crt_untouched *c = test->param_value;
	void *desc, *buf;

	desc = crt_unfrozen(test, c->removed, c->reason, &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 5ULL);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED);
}

/* A context whose set-up was removed has no record after a crash. */
static void crash_removed_no_record(struct kunit *test)
{
	const unsigned int *reason = test->param_value;
	struct pfmk_crash_info info;
	void *desc, *buf;

	desc = crt_unfrozen(test, true, *reason, &buf);
	KUNIT_EXPECT_EQ(test, pfmk_crash_read(desc, &info, NULL, 0, NULL, 0),
			-ENXIO);
}

/*
 * A freeze-set-up sampler, a die event that is not an oops, then 2
 * periods: returns the context; *@ret: the die hook's return.
 */
static void *crt_die_other(struct kunit *test, void **buf, int *ret)
{
	struct crt *t = test->priv;
	void *desc;

	desc = crt_sampler(test, PFMK_CRASH_FREEZE, buf);
	*ret = pfmk_crash_test_notify(PFMK_CRASH_NONE);
	pfmk_test_pmu_tick(t->cpu, 2 * CRT_P);
	return desc;
}

/* The die notifier freezes only for an oops, not for other die events. */
static void crash_die_not_oops(struct kunit *test)
{
	void *buf;
	int ret;

	crt_die_other(test, &buf, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
}

/* After a die event that is not an oops, the context samples on. */
static void crash_die_not_oops_samples(struct kunit *test)
{
	void *buf;
	int ret;

	crt_die_other(test, &buf, &ret);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 2ULL);
}

/* A die event that is not an oops leaves the record's reason none. */
static void crash_die_not_oops_reason(struct kunit *test)
{
	struct pfmk_crash_info info;
	void *desc, *buf;
	int ret;

	desc = crt_die_other(test, &buf, &ret);
	KUNIT_ASSERT_EQ(test, pfmk_crash_read(desc, &info, NULL, 0, NULL, 0),
			0);
	KUNIT_EXPECT_EQ(test, info.reason, (u32)PFMK_CRASH_NONE);
}

/*
 * An oops then the panic it leads to: a sampler set up to freeze and log,
 * a period and a tick, an oops that freezes it, a period more, then the
 * panic.  Returns the context; *@ret: the panic hook's return.
 */
static void *crt_oops_panic(struct kunit *test, void **buf, int *ret)
{
	struct crt *t = test->priv;
	void *desc;

	desc = crt_sampler(test, PFMK_CRASH_FREEZE | PFMK_CRASH_LOG, buf);
	pfmk_test_pmu_tick(t->cpu, CRT_P + 1);
	KUNIT_ASSERT_EQ(test, pfmk_crash_test_notify(PFMK_CRASH_OOPS), 1);
	pfmk_test_pmu_tick(t->cpu, CRT_P);
	*ret = pfmk_crash_test_notify(PFMK_CRASH_PANIC);
	return desc;
}

/* The panic after an oops finds nothing left to freeze. */
static void crash_oops_then_panic(struct kunit *test)
{
	void *buf;
	int ret;

	crt_oops_panic(test, &buf, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
}

/* The panic after an oops keeps the oops as the record's reason. */
static void crash_oops_then_panic_reason(struct kunit *test)
{
	struct pfmk_crash_info info;
	void *desc, *buf;
	int ret;

	desc = crt_oops_panic(test, &buf, &ret);
	KUNIT_ASSERT_EQ(test, pfmk_crash_read(desc, &info, NULL, 0, NULL, 0),
			0);
	KUNIT_EXPECT_EQ(test, info.reason, (u32)PFMK_CRASH_OOPS);
}

/* The panic after an oops keeps the PMDs as the oops froze them. */
static void crash_oops_then_panic_pmds(struct kunit *test)
{
	struct pfmk_crash_info info;
	struct pfarg_pmd pmd;
	void *desc, *buf;
	int ret;

	desc = crt_oops_panic(test, &buf, &ret);
	pfmkt_pmd_req(&pmd, 0, 1, 0);
	KUNIT_ASSERT_EQ(test, pfmk_crash_read(desc, &info, &pmd, 1, NULL, 0),
			0);
	KUNIT_EXPECT_EQ(test, pmd.reg_value, (CRT_P + 1) * CRT_STEP1);
}

/* The panic after an oops keeps the samples as the oops froze them. */
static void crash_oops_then_panic_samples(struct kunit *test)
{
	void *buf;
	int ret;

	crt_oops_panic(test, &buf, &ret);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 1ULL);
}

/* A sampler frozen by the crash of the row's reason, then closed. */
static void crt_frozen_closed(struct kunit *test)
{
	const unsigned int *reason = test->param_value;
	struct crt *t = test->priv;
	void *desc, *buf;

	desc = crt_sampler(test, PFMK_CRASH_FREEZE | PFMK_CRASH_LOG, &buf);
	pfmk_test_pmu_tick(t->cpu, 2 * CRT_P);
	KUNIT_ASSERT_EQ(test, pfmk_crash_test_notify(*reason), 1);
	pfmkt_close(test, desc);
	rcu_barrier();
}

/*
 * Closing a frozen context frees its record and everything else: the
 * pfmk-wide counters are back where they were before it was created
 * (KASAN and kmemleak watch the rest).
 */
static void crash_close_after_freeze(struct kunit *test)
{
	struct pfmk_global_stats before, after;

	before = pfmkt_gstats(test);
	crt_frozen_closed(test);
	after = pfmkt_gstats(test);
	pfmkt_expect_gstats(test, &before, &after, &(struct pfmk_global_stats){},
			    PFMKT_GST(ctx_open) | PFMKT_GST(ctx_alive) |
			    PFMKT_GST(smpl_bytes) | PFMKT_GST(mem_bytes) |
			    PFMKT_GST(events));
}

/* After a frozen context's close, a new crash finds nothing to freeze. */
static void crash_close_after_freeze_renotify(struct kunit *test)
{
	const unsigned int *reason = test->param_value;

	crt_frozen_closed(test);
	KUNIT_EXPECT_EQ(test, pfmk_crash_test_notify(*reason), 0);
}

/* The AUX cases: the snapshot buffer, what a freeze keeps of it, records. */
#define CRT_AUX_SIZE	16384
#define CRT_AUX_KEEP	4096
#define CRT_AUX_BEFORE	1000ULL
#define CRT_AUX_AFTER	700ULL

/*
 * A context on the synthetic AUX PMU, set up to freeze and keep
 * CRT_AUX_KEEP bytes of its snapshot buffer, CRT_AUX_BEFORE records
 * written, an oops that freezes it, CRT_AUX_AFTER records more; @info and
 * *@kept: the record and the AUX bytes pfmk_crash_read() returns.
 */
static void crt_aux_frozen(struct kunit *test, struct pfmk_crash_info *info,
			   u8 **kept)
{
	struct crt *t = test->priv;
	void *desc;

	/* The harness loads this suite only on kernels with the AUX patch. */
	KUNIT_ASSERT_TRUE(test, pfmk_aux_supported());
	*kept = kunit_kzalloc(test, CRT_AUX_KEEP, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *kept);
	desc = pfmkt_create(test, PFMK_TEST_AUX_NAME);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_AUX_PMC(1, 0));
	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(desc, 0, CRT_AUX_SIZE,
					     PFMK_AUX_SNAPSHOT), 0);
	KUNIT_ASSERT_EQ(test, pfmk_crash_setup(desc, PFMK_CRASH_FREEZE,
					       CRT_AUX_KEEP), 0);
	pfmkt_load_start(test, desc, t->cpu);

	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, CRT_AUX_BEFORE), 0);
	/* The notifier froze the one context set up. */
	KUNIT_ASSERT_EQ(test, pfmk_crash_test_notify(PFMK_CRASH_OOPS), 1);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, CRT_AUX_AFTER), 0);

	KUNIT_ASSERT_EQ(test, pfmk_crash_read(desc, info, NULL, 0, *kept,
					      CRT_AUX_KEEP), 0);
	KUNIT_ASSERT_EQ(test, info->aux_len, (u32)CRT_AUX_KEEP);
}

/*
 * The newest AUX bytes at the freeze are kept, ending at the stream
 * position of the freeze, though the PMU writes on into the buffer: the
 * last CRT_AUX_KEEP / 32 records before it, in order, intact.
 */
static void crash_aux_kept(struct kunit *test)
{
	const struct pfmk_test_aux_rec *r;
	struct pfmk_crash_info info;
	unsigned int i, n;
	u8 *kept;

	crt_aux_frozen(test, &info, &kept);
	r = (const void *)kept;
	n = CRT_AUX_KEEP / PFMK_TEST_AUX_REC;
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(test,
				  pfmk_test_aux_rec_ok(&r[i],
						       CRT_AUX_BEFORE - n + i));
}

/* ... the record's AUX head is the stream position of the freeze. */
static void crash_aux_kept_head(struct kunit *test)
{
	struct pfmk_crash_info info;
	u8 *kept;

	crt_aux_frozen(test, &info, &kept);
	KUNIT_EXPECT_EQ(test, info.aux_head,
			CRT_AUX_BEFORE * PFMK_TEST_AUX_REC);
}

/* ... and its flags say the stream had wrapped: older bytes are gone. */
static void crash_aux_kept_flags(struct kunit *test)
{
	struct pfmk_crash_info info;
	u8 *kept;

	crt_aux_frozen(test, &info, &kept);
	KUNIT_EXPECT_EQ(test, info.flags,
			PFMK_CRASH_AUX_WRAPPED | crt_remote(&info));
}

static struct kunit_case pfmk_crash_cases[] = {
	KUNIT_CASE_PARAM(crash_setup_args, crt_setup_gen_params),
	KUNIT_CASE_PARAM(crash_setup_bad_desc, crt_setup_gen_params),
	KUNIT_CASE_PARAM(crash_info_args, crt_read_gen_params),
	KUNIT_CASE(crash_info_not_frozen),
	KUNIT_CASE(crash_info_not_frozen_pmd),
	KUNIT_CASE(crash_info_read_does_not_freeze),
	KUNIT_CASE_PARAM(crash_samples_kept, crt_reason_gen_params),
	KUNIT_CASE_PARAM(crash_samples_kept_count, crt_reason_gen_params),
	KUNIT_CASE_PARAM(crash_samples_kept_stats, crt_reason_gen_params),
	KUNIT_CASE_PARAM(crash_info_record, crt_reason_gen_params),
	KUNIT_CASE_PARAM(crash_pmds_at_freeze, crt_reason_gen_params),
	KUNIT_CASE_PARAM(crash_pmds_at_freeze_live, crt_reason_gen_params),
	KUNIT_CASE_PARAM(crash_pmds_at_freeze_state, crt_reason_gen_params),
	KUNIT_CASE_PARAM(crash_setup_busy_frozen, crt_reason_gen_params),
	KUNIT_CASE_PARAM(crash_other_untouched, crt_untouched_gen_params),
	KUNIT_CASE_PARAM(crash_removed_no_record, crt_reason_gen_params),
	KUNIT_CASE(crash_die_not_oops),
	KUNIT_CASE(crash_die_not_oops_samples),
	KUNIT_CASE(crash_die_not_oops_reason),
	KUNIT_CASE(crash_oops_then_panic),
	KUNIT_CASE(crash_oops_then_panic_reason),
	KUNIT_CASE(crash_oops_then_panic_pmds),
	KUNIT_CASE(crash_oops_then_panic_samples),
	KUNIT_CASE_PARAM(crash_close_after_freeze, crt_reason_gen_params),
	KUNIT_CASE_PARAM(crash_close_after_freeze_renotify,
			 crt_reason_gen_params),
	KUNIT_CASE(crash_aux_kept),
	KUNIT_CASE(crash_aux_kept_head),
	KUNIT_CASE(crash_aux_kept_flags),
	{}
};

static struct kunit_suite pfmk_crash_suite = {
	.name = "pfmk_crash",
	.init = crt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_crash_cases,
};

kunit_test_suites(&pfmk_crash_suite);

MODULE_DESCRIPTION("pfmk KUnit: contexts frozen at an oops or a panic");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
