// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suites: the set-up helpers every KUnit module of the tests
 * shares (declared in pfmk_kunit.h).
 *
 * pfmk_kunit.ko links this object; each other KUnit module links a copy
 * of its own through a wrapper that includes this file
 * (pfmk_<module>_kunit_util.c): Kbuild compiles an object once, with one
 * KBUILD_MODNAME, so the same .o is not linked into two modules (W=1
 * warns "is added to multiple modules" from 6.12's Kbuild on), as the
 * kernel's drivers that share a core between modules do
 * (drivers/net/ethernet/natsemi/{jazz,mac,xt}sonic.c include sonic.c).
 * No module exports these symbols, so the copies never meet.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/stddef.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <pfmk/aux.h>
#include <pfmk/encode.h>
#include <pfmk/pfmk.h>

#include "pfmk_kunit.h"
#include "pfmk_test_file.h"
#include "pfmk_test_pmu.h"

/**
 * pfmkt_init_priv() - suite init: allocate a suite's own per-test state
 * @test: the test.
 * @size: size of the suite's state, whose first member is a struct
 *	pfmkt_priv (test->priv points at both); zeroed.
 *
 * For a suite whose cases keep more than struct pfmkt_priv; its exit
 * calls pfmkt_exit() before it undoes its own set-up.
 *
 * Return: 0, -ENOMEM, or -EINVAL if @size cannot hold a struct pfmkt_priv.
 */
int pfmkt_init_priv(struct kunit *test, size_t size)
{
	struct pfmkt_priv *priv;

	if (size < sizeof(*priv))
		return -EINVAL;
	priv = kunit_kzalloc(test, size, GFP_KERNEL);
	if (!priv)
		return -ENOMEM;
	init_completion(&priv->done);
	priv->offline_cpu = -1;
	test->priv = priv;
	return 0;
}

/**
 * pfmkt_init() - suite init: allocate the per-test state
 * @test: the test.
 *
 * Return: 0 or -ENOMEM.
 */
int pfmkt_init(struct kunit *test)
{
	return pfmkt_init_priv(test, sizeof(struct pfmkt_priv));
}

/**
 * struct pfmkt_ctx_res - an open context, as a KUnit resource of the test
 * @res: the resource; its data points here.
 * @test: the test, whose expectation the close is.
 * @desc: the context, NULL once the test closed it.
 *
 * Allocated with kunit_kzalloc() before the resource is added, so KUnit
 * frees the memory after the resource's release (resources go in reverse
 * order of their addition).
 */
struct pfmkt_ctx_res {
	struct kunit_resource	res;
	struct kunit		*test;
	void			*desc;
};

static void pfmkt_ctx_release(struct kunit_resource *res)
{
	struct pfmkt_ctx_res *r = res->data;

	if (r->desc)
		KUNIT_EXPECT_EQ(r->test, pfmk_close(r->desc), 0);
	r->desc = NULL;
}

/* Match a context resource: of @desc, or any with @desc NULL. */
static bool pfmkt_ctx_match(struct kunit *test, struct kunit_resource *res,
			    void *desc)
{
	struct pfmkt_ctx_res *r = res->data;

	return res->free == pfmkt_ctx_release && (!desc || r->desc == desc);
}

/* Release the resource (the close, if @close) of a tracked context. */
static bool pfmkt_ctx_drop(struct kunit *test, void *desc, bool close)
{
	struct kunit_resource *res;
	struct pfmkt_ctx_res *r;

	res = kunit_find_resource(test, pfmkt_ctx_match, desc);
	if (!res)
		return false;
	r = res->data;
	if (!close)
		r->desc = NULL;
	kunit_remove_resource(test, res);
	kunit_put_resource(res);
	return true;
}

/**
 * pfmkt_exit() - suite exit: close what the test left open
 * @test: the test.
 *
 * Runs even when the test aborted on a failed assertion.  A context that
 * cannot be closed is a failure of the test.
 */
void pfmkt_exit(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;

	if (!priv)
		return;
	/* Newest first, as KUnit's cleanup would. */
	while (pfmkt_ctx_drop(test, NULL, true))
		;
	if (priv->offline_cpu >= 0) {
		KUNIT_EXPECT_EQ(test, add_cpu(priv->offline_cpu), 0);
		priv->offline_cpu = -1;
	}
}

static void pfmkt_track(struct kunit *test, void *desc)
{
	struct pfmkt_ctx_res *r;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	if (r) {
		r->test = test;
		r->desc = desc;
		if (!kunit_add_resource(test, NULL, pfmkt_ctx_release, &r->res,
					r))
			return;
	}
	pfmk_close(desc);
	KUNIT_ASSERT_TRUE_MSG(test, false, "cannot track a context: out of memory");
}

/**
 * pfmkt_forget() - stop tracking a context the test closes itself
 * @test: the test.
 * @desc: its descriptor.
 */
void pfmkt_forget(struct kunit *test, void *desc)
{
	pfmkt_ctx_drop(test, desc, false);
}

/**
 * pfmkt_try_create() - pfmk_create_context() with the test's completion
 * @test: the test.
 * @req: the request.
 * @desc: output: the descriptor, tracked if the call succeeded.
 *
 * Return: what pfmk_create_context() returned.
 */
int pfmkt_try_create(struct kunit *test, struct pfarg_ctx *req, void **desc)
{
	return pfmkt_try_create_arg(test, req, NULL, 0, desc, NULL);
}

/* pfmk_create_context() with @done, tracked if it succeeded. */
static int pfmkt_do_create(struct kunit *test, struct pfarg_ctx *req,
			   void *arg, size_t size, struct completion *done,
			   void **desc, void **buf)
{
	int ret;

	ret = pfmk_create_context(req, arg, size, done, desc, buf);
	if (!ret)
		pfmkt_track(test, *desc);
	return ret;
}

/**
 * pfmkt_try_create_arg() - pfmkt_try_create() with a sampling argument
 * @test: the test.
 * @req: the request.
 * @arg: the sampling format's argument.
 * @size: its size.
 * @desc: output: the descriptor, tracked if the call succeeded.
 * @buf: output, may be NULL: the sampling buffer's address.
 *
 * Return: what pfmk_create_context() returned.
 */
int pfmkt_try_create_arg(struct kunit *test, struct pfarg_ctx *req,
			 void *arg, size_t size, void **desc, void **buf)
{
	struct pfmkt_priv *priv = test->priv;

	return pfmkt_do_create(test, req, arg, size, &priv->done, desc, buf);
}

/**
 * pfmkt_create_req() - create a context of a request, or abort the test
 * @test: the test.
 * @req: the request, no sampling format.
 * @done: the completion to give pfmk; NULL for the test's own.
 *
 * Return: the descriptor, tracked.
 */
void *pfmkt_create_req(struct kunit *test, struct pfarg_ctx *req,
		       struct completion *done)
{
	struct pfmkt_priv *priv = test->priv;
	void *desc = NULL;

	KUNIT_ASSERT_EQ(test, pfmkt_do_create(test, req, NULL, 0,
					      done ?: &priv->done, &desc,
					      NULL), 0);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	return desc;
}

/**
 * pfmkt_create() - create a context, or abort the test
 * @test: the test.
 * @pmu: name of the PMU description ("" for generic).
 *
 * Return: the descriptor, tracked.
 */
void *pfmkt_create(struct kunit *test, const char *pmu)
{
	struct pfarg_ctx req;

	pfmkt_ctx_req(&req, pmu, 0, false);
	return pfmkt_create_req(test, &req, NULL);
}

/**
 * pfmkt_create_events() - a context counting events given as strings
 * @test: the test.
 * @events: the events, for pfmk_encode(): event i on PMD i.
 * @n: number of @events.
 * @cpu: the CPU to load it on.
 *
 * Created from a zeroed request, so that pfmk_encode() picks the PMU
 * description; written and loaded, not started; aborts the test on any
 * error.
 *
 * Return: the descriptor, tracked.
 */
void *pfmkt_create_events(struct kunit *test, const char * const *events,
			  unsigned int n, int cpu)
{
	unsigned int max = n * PFMK_ENCODE_MAX_PMCS, count;
	struct pfarg_pmc *pmcs;
	struct pfarg_ctx req;
	void *desc;

	pmcs = kunit_kcalloc(test, max, sizeof(*pmcs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pmcs);
	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmkt_encode_events(&req, events, n, pmcs, max,
						  &count), 0);
	desc = pfmkt_create_req(test, &req, NULL);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmcs, count), 0);
	pfmkt_load(test, desc, cpu);
	return desc;
}

/**
 * pfmkt_close() - close a tracked context, expecting success
 * @test: the test.
 * @desc: its descriptor.
 */
void pfmkt_close(struct kunit *test, void *desc)
{
	pfmkt_forget(test, desc);
	KUNIT_EXPECT_EQ(test, pfmk_close(desc), 0);
}

/**
 * pfmkt_write_pmc() - write one PMC, or abort the test
 * @test: the test.
 * @desc: the context.
 * @reg: PMC number.
 * @value: PMC value.
 */
void pfmkt_write_pmc(struct kunit *test, void *desc, u16 reg, u64 value)
{
	KUNIT_ASSERT_EQ(test, pfmkt_try_write_pmc(desc, reg, value), 0);
}

/**
 * pfmkt_try_write_pmc() - write one PMC of set 0
 * @desc: the context.
 * @reg: PMC number.
 * @value: the value.
 *
 * Return: what pfmk_write_pmcs() returns.
 */
int pfmkt_try_write_pmc(void *desc, u16 reg, u64 value)
{
	struct pfarg_pmc pmc;

	pfmkt_pmc_req(&pmc, 0, reg, value);
	return pfmk_write_pmcs(desc, &pmc, 1);
}

/**
 * pfmkt_try_write_pmd() - write one PMD of set 0
 * @desc: the context.
 * @reg: PMD number.
 * @value: the value.
 *
 * Return: what pfmk_write_pmds() returns.
 */
int pfmkt_try_write_pmd(void *desc, u16 reg, u64 value)
{
	struct pfarg_pmd pmd;

	pfmkt_pmd_req(&pmd, 0, reg, value);
	return pfmk_write_pmds(desc, &pmd, 1);
}

/**
 * pfmkt_mkset() - create or modify one event set
 * @desc: the context.
 * @id: the set's id.
 * @flags: PFM_SETFL_* flags.
 * @timeout: the switch timeout, in microseconds.
 * @next: the explicit next set (with PFM_SETFL_EXPL_NEXT).
 *
 * Return: what pfmk_create_evtsets() returns.
 */
int pfmkt_mkset(void *desc, u16 id, u32 flags, u32 timeout, u16 next)
{
	struct pfarg_setdesc d;

	memset(&d, 0, sizeof(d));
	d.set_id = id;
	d.set_flags = flags;
	d.set_timeout = timeout;
	d.set_id_next = next;
	return pfmk_create_evtsets(desc, &d, 1);
}

/**
 * pfmkt_create_two_sets() - a context with two sets, each counting, or abort
 * @test: the test.
 * @flags0: PFM_SETFL_* flags of set 0.
 * @flags1: PFM_SETFL_* flags of set 1.
 * @timeout_us: the switch timeout of those sets that switch on time.
 *
 * Each set's PMC 0 counts the test PMU's step-1 event.
 *
 * Return: the context, on the test PMU, not yet loaded.
 */
void *pfmkt_create_two_sets(struct kunit *test, u32 flags0, u32 flags1,
			    u32 timeout_us)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	u32 flags[2] = { flags0, flags1 };
	u16 id;

	for (id = 0; id < 2; id++) {
		KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, id, flags[id],
						  flags[id] & PFM_SETFL_TIME_SWITCH ?
						  timeout_us : 0, 0), 0);
		pfmkt_write_set_pmc(test, desc, id, 0, PFMK_TEST_PMC(1));
	}
	return desc;
}

/**
 * pfmkt_create_counting() - a context whose PMD 0 counts, not yet loaded
 * @test: the test.
 * @step: what PMD 0 gains per tick of the test PMU.
 * @init: PMD 0's initial value.
 *
 * Return: the context, on the test PMU.
 */
void *pfmkt_create_counting(struct kunit *test, u64 step, u64 init)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(step));
	pfmkt_write_pmd(test, desc, 0, init);
	return desc;
}

/**
 * pfmkt_create_started() - pfmkt_create_counting(), loaded and started
 * @test: the test.
 * @cpu: the CPU to load on.
 * @step: what PMD 0 gains per tick of the test PMU.
 * @init: PMD 0's initial value.
 *
 * Return: the context, counting on @cpu.
 */
void *pfmkt_create_started(struct kunit *test, int cpu, u64 step, u64 init)
{
	void *desc = pfmkt_create_counting(test, step, init);

	pfmkt_load_start(test, desc, cpu);
	return desc;
}

/**
 * pfmkt_write_pmd() - write one PMD value, or abort the test
 * @test: the test.
 * @desc: the context.
 * @reg: PMD number.
 * @value: the value.
 */
void pfmkt_write_pmd(struct kunit *test, void *desc, u16 reg, u64 value)
{
	struct pfarg_pmd pmd;

	pfmkt_pmd_req(&pmd, 0, reg, value);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, &pmd, 1), 0);
}

/**
 * pfmkt_read_pmd() - read one PMD, or abort the test
 * @test: the test.
 * @desc: the context.
 * @reg: PMD number.
 *
 * Return: the PMD's value.
 */
u64 pfmkt_read_pmd(struct kunit *test, void *desc, u16 reg)
{
	struct pfarg_pmd pmd;

	pfmkt_pmd_req(&pmd, 0, reg, 0);
	KUNIT_ASSERT_EQ(test, pfmk_read_pmds(desc, &pmd, 1), 0);
	return pmd.reg_value;
}

/**
 * pfmkt_load_cpu() - pfmk_load_context() on a CPU, set 0
 * @desc: the context.
 * @cpu: load_pid.
 *
 * Return: what pfmk_load_context() returned.
 */
int pfmkt_load_cpu(void *desc, u32 cpu)
{
	struct pfarg_load load;

	pfmkt_load_req(&load, cpu, 0);
	return pfmk_load_context(desc, &load);
}

/**
 * pfmkt_load() - load a context on a CPU, or abort the test
 * @test: the test.
 * @desc: the context.
 * @cpu: the CPU.
 */
void pfmkt_load(struct kunit *test, void *desc, int cpu)
{
	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(desc, cpu), 0);
}

/**
 * pfmkt_load_start() - load a context on a CPU and start it, or abort
 * @test: the test.
 * @desc: the context, unloaded.
 * @cpu: an online CPU.
 *
 * The context must then be loaded and started: a test that wants the
 * errno of either call makes it itself.
 */
void pfmkt_load_start(struct kunit *test, void *desc, int cpu)
{
	pfmkt_load(test, desc, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

/**
 * pfmkt_try_create_dfl() - create a context with the default format
 * @test: the test.
 * @pmu: name of the PMU description ("" for generic).
 * @flags: PFM_FL_* flags besides PFM_FL_SYSTEM_WIDE.
 * @buf_size: size of the sampling buffer; 0 for no format at all.
 * @desc: output: the descriptor, tracked, if the call succeeded.
 * @buf: output, may be NULL: the buffer, NULL if none.
 *
 * Return: what pfmk_create_context() returned.
 */
int pfmkt_try_create_dfl(struct kunit *test, const char *pmu, u32 flags,
			 u64 buf_size, void **desc, void **buf)
{
	struct pfm_dfl_smpl_arg arg;
	struct pfarg_ctx req;
	int ret;

	pfmkt_ctx_req(&req, pmu, flags, buf_size);
	memset(&arg, 0, sizeof(arg));
	arg.buf_size = buf_size;
	ret = pfmkt_try_create_arg(test, &req, buf_size ? &arg : NULL,
				   buf_size ? sizeof(arg) : 0, desc, buf);
	if (!ret && buf_size)
		KUNIT_ASSERT_EQ(test, req.ctx_smpl_buf_size, buf_size);
	return ret;
}

/**
 * pfmkt_create_dfl() - create a context with the default format, or abort
 * @test: the test.
 * @pmu: name of the PMU description ("" for generic).
 * @flags: PFM_FL_* flags besides PFM_FL_SYSTEM_WIDE.
 * @buf_size: size of the sampling buffer; 0 for no format at all.
 * @buf: output, may be NULL: the buffer, NULL if none.
 *
 * Return: the descriptor, tracked.
 */
void *pfmkt_create_dfl(struct kunit *test, const char *pmu, u32 flags,
		       u64 buf_size, void **buf)
{
	void *desc = NULL, *local;

	if (!buf)
		buf = &local;
	*buf = NULL;
	KUNIT_ASSERT_EQ(test, pfmkt_try_create_dfl(test, pmu, flags, buf_size,
						   &desc, buf), 0);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	if (buf_size)
		KUNIT_ASSERT_NOT_NULL(test, *buf);
	return desc;
}

/**
 * pfmkt_write_smpl_pmd() - write one PMD with its sampling fields, or abort
 * @test: the test.
 * @desc: the context.
 * @reg: PMD number.
 * @p: the fields; those not named are 0.
 */
void pfmkt_write_smpl_pmd(struct kunit *test, void *desc, u16 reg,
			  const struct pfmkt_pmd *p)
{
	struct pfarg_pmd pmd;

	pfmkt_pmd_req(&pmd, p->set, reg, p->value);
	pmd.reg_flags = p->flags;
	pmd.reg_short_reset = p->short_reset;
	pmd.reg_long_reset = p->long_reset;
	pmd.reg_smpl_pmds[0] = p->smpl_pmds;
	pmd.reg_reset_pmds[0] = p->reset_pmds;
	pmd.reg_random_mask = p->mask;
	pmd.reg_random_seed = p->seed;
	pmd.reg_smpl_eventid = p->eventid;
	pmd.reg_ovfl_switch_cnt = p->switch_cnt;
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, &pmd, 1), 0);
}

/**
 * pfmkt_write_sampler_pmd() - a PMD that samples every @period events
 * @test: the test.
 * @desc: the context.
 * @reg: PMD number.
 * @period: the period, for the value and both resets.
 * @p: its other fields (set, flags, smpl_pmds, switch_cnt, ...); those
 *     not named are 0, its value and resets are not used.
 */
void pfmkt_write_sampler_pmd(struct kunit *test, void *desc, u16 reg,
			     u64 period, const struct pfmkt_pmd *p)
{
	struct pfmkt_pmd pmd = *p;

	pmd.value = -period;
	pmd.short_reset = -period;
	pmd.long_reset = -period;
	pfmkt_write_smpl_pmd(test, desc, reg, &pmd);
}

/**
 * pfmkt_write_sampler() - a PMD of set 0 that samples every @period events
 * @test: the test.
 * @desc: the context.
 * @reg: PMD number.
 * @period: the period, for the value and both resets.
 * @flags: reg_flags.
 * @smpl_pmds: reg_smpl_pmds[0].
 */
void pfmkt_write_sampler(struct kunit *test, void *desc, u16 reg, u64 period,
			 u32 flags, u64 smpl_pmds)
{
	const struct pfmkt_pmd p = {
		.flags = flags,
		.smpl_pmds = smpl_pmds,
	};

	pfmkt_write_sampler_pmd(test, desc, reg, period, &p);
}

/**
 * pfmkt_set_info() - pfmk_getinfo_evtsets() of one set, or abort the test
 * @test: the test.
 * @desc: the context.
 * @id: the set.
 *
 * Return: the set's information.
 */
struct pfarg_setinfo pfmkt_set_info(struct kunit *test, void *desc, u16 id)
{
	struct pfarg_setinfo info;

	memset(&info, 0, sizeof(info));
	info.set_id = id;
	KUNIT_ASSERT_EQ(test, pfmk_getinfo_evtsets(desc, &info, 1), 0);
	return info;
}

/**
 * pfmkt_stats() - pfmk_get_stats(), or abort the test
 * @test: the test.
 * @desc: the context.
 * @st: output, poisoned first so that a field left unwritten shows.
 */
void pfmkt_stats(struct kunit *test, void *desc, struct pfmk_ctx_stats *st)
{
	memset(st, 0x5a, sizeof(*st));
	KUNIT_ASSERT_EQ(test, pfmk_get_stats(desc, st), 0);
}

#define PFMKT_STAT(f)	{ #f, offsetof(struct pfmk_ctx_stats, f) }

/*
 * The fields pfmkt_expect_stats() compares: every count, and the reserved
 * words, which must read 0.  Not switch_lat_max and switch_lat_total,
 * which are times.
 */
static const struct {
	const char	*name;
	size_t		off;
} pfmkt_stat_fields[] = {
	PFMKT_STAT(ovfl_count),
	PFMKT_STAT(smpl_count),
	PFMKT_STAT(ovfl_masked),
	PFMKT_STAT(ovfl_nested),
	PFMKT_STAT(throttled),
	PFMKT_STAT(ovfl_missed),
	PFMKT_STAT(notify_count),
	PFMKT_STAT(msgs_dropped),
	PFMKT_STAT(restarts),
	PFMKT_STAT(set_switches),
	PFMKT_STAT(reserved[0]),
	PFMKT_STAT(reserved[1]),
	PFMKT_STAT(reserved[2]),
	PFMKT_STAT(reserved[3]),
};

/**
 * pfmkt_expect_stats() - a context's statistics are exactly @want
 * @test: the test.
 * @desc: the context.
 * @want: the expected counts; a field not named in it must be 0.
 *
 * One expectation per field, which a failure names.
 */
void pfmkt_expect_stats(struct kunit *test, void *desc,
			const struct pfmk_ctx_stats *want)
{
	struct pfmk_ctx_stats st;
	unsigned int i;
	u64 got, exp;

	pfmkt_stats(test, desc, &st);
	for (i = 0; i < ARRAY_SIZE(pfmkt_stat_fields); i++) {
		got = *(u64 *)((char *)&st + pfmkt_stat_fields[i].off);
		exp = *(u64 *)((char *)want + pfmkt_stat_fields[i].off);
		KUNIT_EXPECT_EQ_MSG(test, got, exp, "stats.%s",
				    pfmkt_stat_fields[i].name);
	}
}

/*
 * The names of struct pfmk_ctx_stats and struct pfmk_global_stats fields,
 * by u64 index: what PFMKT_ST() and PFMKT_GST() select.
 */
static const char * const pfmkt_ctx_stat_names[] = {
	[PFMKT_ST_IDX(ovfl_count)] = "ovfl_count",
	[PFMKT_ST_IDX(smpl_count)] = "smpl_count",
	[PFMKT_ST_IDX(ovfl_masked)] = "ovfl_masked",
	[PFMKT_ST_IDX(ovfl_nested)] = "ovfl_nested",
	[PFMKT_ST_IDX(throttled)] = "throttled",
	[PFMKT_ST_IDX(ovfl_missed)] = "ovfl_missed",
	[PFMKT_ST_IDX(notify_count)] = "notify_count",
	[PFMKT_ST_IDX(msgs_dropped)] = "msgs_dropped",
	[PFMKT_ST_IDX(restarts)] = "restarts",
	[PFMKT_ST_IDX(set_switches)] = "set_switches",
	[PFMKT_ST_IDX(switch_lat_max)] = "switch_lat_max",
	[PFMKT_ST_IDX(switch_lat_total)] = "switch_lat_total",
};

static const char * const pfmkt_global_stat_names[] = {
	[PFMKT_GST_IDX(ctx_alive)] = "ctx_alive",
	[PFMKT_GST_IDX(ctx_created)] = "ctx_created",
	[PFMKT_GST_IDX(ctx_freed)] = "ctx_freed",
	[PFMKT_GST_IDX(ctx_open)] = "ctx_open",
	[PFMKT_GST_IDX(ctx_reclaimed)] = "ctx_reclaimed",
	[PFMKT_GST_IDX(events)] = "events",
	[PFMKT_GST_IDX(smpl_bytes)] = "smpl_bytes",
	[PFMKT_GST_IDX(mem_bytes)] = "mem_bytes",
	[PFMKT_GST_IDX(cpu_offline)] = "cpu_offline",
	[PFMKT_GST_IDX(cpu_online)] = "cpu_online",
	[PFMKT_GST_IDX(rearm_failed)] = "rearm_failed",
};

/* Every field before the reserved words is named. */
static_assert(offsetof(struct pfmk_ctx_stats, reserved) ==
	      ARRAY_SIZE(pfmkt_ctx_stat_names) * sizeof(u64));
static_assert(offsetof(struct pfmk_global_stats, reserved) ==
	      ARRAY_SIZE(pfmkt_global_stat_names) * sizeof(u64));

/* got[i] == base[i] + want[i] for every i in @fields, naming the field. */
static void pfmkt_expect_fields(struct kunit *test, const char *kind,
				const char * const *names, unsigned int nr,
				const u64 *got, const u64 *base,
				const u64 *want, unsigned long fields)
{
	unsigned int i;
	u64 exp;

	for_each_set_bit(i, &fields, nr) {
		exp = (base ? base[i] : 0) + want[i];
		KUNIT_EXPECT_EQ_MSG(test, got[i], exp, "%s.%s", kind, names[i]);
	}
}

/**
 * pfmkt_expect_stats_in() - some fields of read statistics are exactly @want
 * @test: the test.
 * @got: statistics the case read.
 * @want: the expected values of the fields in @fields.
 * @fields: PFMKT_ST() bits: the fields compared; the others are not.
 */
void pfmkt_expect_stats_in(struct kunit *test,
			   const struct pfmk_ctx_stats *got,
			   const struct pfmk_ctx_stats *want,
			   unsigned long fields)
{
	pfmkt_expect_fields(test, "stats", pfmkt_ctx_stat_names,
			    ARRAY_SIZE(pfmkt_ctx_stat_names), (const u64 *)got,
			    NULL, (const u64 *)want, fields);
}

/**
 * pfmkt_gstats() - the pfmk-wide statistics, or abort the test
 * @test: the test.
 *
 * Return: what pfmk_get_global_stats() gave.
 */
struct pfmk_global_stats pfmkt_gstats(struct kunit *test)
{
	struct pfmk_global_stats st;

	KUNIT_ASSERT_EQ(test, pfmk_get_global_stats(&st), 0);
	return st;
}

/**
 * pfmkt_expect_gstats() - some pfmk-wide counters moved by exactly @delta
 * @test: the test.
 * @before: the counters before.
 * @after: the counters after.
 * @delta: what each field in @fields gained (a decrease as its two's
 *	complement, -(u64)n: the sum wraps like the counter).
 * @fields: PFMKT_GST() bits: the fields compared; the others are not.
 */
void pfmkt_expect_gstats(struct kunit *test,
			 const struct pfmk_global_stats *before,
			 const struct pfmk_global_stats *after,
			 const struct pfmk_global_stats *delta,
			 unsigned long fields)
{
	pfmkt_expect_fields(test, "gstats", pfmkt_global_stat_names,
			    ARRAY_SIZE(pfmkt_global_stat_names),
			    (const u64 *)after, (const u64 *)before,
			    (const u64 *)delta, fields);
}

/**
 * pfmkt_expect_no_msg() - the context has no message queued
 * @test: the test.
 * @desc: the context.
 */
void pfmkt_expect_no_msg(struct kunit *test, void *desc)
{
	union pfm_msg msg;

	KUNIT_EXPECT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)-EAGAIN);
}

/**
 * pfmkt_expect_ovfl_msg() - take the next message: an overflow of one PMD
 * @test: the test.
 * @desc: the context.
 * @pmd: the PMD its msg_ovfl_pmds must name, alone.
 * @cpu: the CPU it must name.
 *
 * The message must be there (non-blocking read) and name set 0.
 */
void pfmkt_expect_ovfl_msg(struct kunit *test, void *desc, unsigned int pmd,
			   int cpu)
{
	union pfm_msg msg;
	unsigned int i;

	memset(&msg, 0x5a, sizeof(msg));
	KUNIT_ASSERT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)sizeof(msg));
	KUNIT_EXPECT_EQ(test, msg.type, (u32)PFM_MSG_OVFL);
	for (i = 0; i < PFM_HW_PMD_BV; i++)
		KUNIT_EXPECT_EQ_MSG(test, msg.pfm_ovfl_msg.msg_ovfl_pmds[i],
				    i == pmd / 64 ? BIT_ULL(pmd % 64) : 0,
				    "msg_ovfl_pmds[%u]", i);
	KUNIT_EXPECT_EQ(test, msg.pfm_ovfl_msg.msg_ovfl_cpu, (u16)cpu);
	KUNIT_EXPECT_EQ(test, msg.pfm_ovfl_msg.msg_active_set, (u16)0);
}

/**
 * pfmkt_cpu() - the CPU single-CPU tests load their contexts on
 *
 * The highest online CPU: on SMP it is usually not the CPU the test
 * thread started on, so loads and ticks cross CPUs.
 *
 * Return: an online CPU.
 */
int pfmkt_cpu(void)
{
	return cpumask_last(cpu_online_mask);
}

/**
 * pfmkt_write_set_pmc() - write one PMC of a set, which must succeed
 * @test: the test.
 * @desc: the context.
 * @set: set identifier.
 * @reg: PMC number.
 * @value: PMC value.
 */
void pfmkt_write_set_pmc(struct kunit *test, void *desc, u16 set, u16 reg,
			 u64 value)
{
	struct pfarg_pmc pmc;

	pfmkt_pmc_req(&pmc, set, reg, value);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, &pmc, 1), 0);
}

/**
 * pfmkt_read_set_pmd() - read one PMD of a set, which must succeed
 * @test: the test.
 * @desc: the context.
 * @set: set identifier.
 * @reg: PMD number.
 *
 * Return: the PMD's value.
 */
u64 pfmkt_read_set_pmd(struct kunit *test, void *desc, u16 set, u16 reg)
{
	struct pfarg_pmd pmd;

	pfmkt_pmd_req(&pmd, set, reg, 0);
	KUNIT_ASSERT_EQ(test, pfmk_read_pmds(desc, &pmd, 1), 0);
	return pmd.reg_value;
}

/**
 * pfmkt_wait_set_runs() - wait (2 s at most) until a set has run @runs times
 * @desc: the context.
 * @id: set identifier.
 * @runs: runs to wait for.
 *
 * Return: true if the set ran exactly @runs times by then.
 */
bool pfmkt_wait_set_runs(void *desc, u16 id, u64 runs)
{
	unsigned long end = jiffies + 2 * HZ;
	struct pfarg_setinfo info;

	do {
		memset(&info, 0, sizeof(info));
		info.set_id = id;
		if (pfmk_getinfo_evtsets(desc, &info, 1))
			return false;
		if (info.set_runs >= runs)
			return info.set_runs == runs;
		usleep_range(50, 100);
	} while (time_before(jiffies, end));
	return false;
}

/**
 * pfmkt_wait_notify() - wait for the context's completion (10 s at most)
 * @test: the test; fails if nothing completes it in time.
 */
void pfmkt_wait_notify(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;

	KUNIT_ASSERT_NE_MSG(test, wait_for_completion_timeout(&priv->done,
							      10 * HZ),
			    0UL, "no completion within %d s", 10);
}

/**
 * pfmkt_hp_cpu() - the CPU a hotplug case takes offline
 * @test: the test; skipped on a single-CPU machine.
 *
 * Return: the highest online CPU other than 0.
 */
int pfmkt_hp_cpu(struct kunit *test)
{
	int cpu;

	for (cpu = nr_cpu_ids - 1; cpu > 0; cpu--)
		if (cpu_online(cpu))
			return cpu;
	kunit_skip(test, "needs a second online CPU, have %u",
		   num_online_cpus());
	return -1;
}

/**
 * pfmkt_other_cpu() - an online CPU other than @cpu
 * @cpu: the CPU to avoid.
 *
 * Return: the CPU, or -1 on a single-CPU machine.
 */
int pfmkt_other_cpu(int cpu)
{
	unsigned int other = cpumask_any_but(cpu_online_mask, cpu);

	return other < nr_cpu_ids ? other : -1;
}

/**
 * pfmkt_other_cpu_or_skip() - an online CPU other than @cpu, or skip
 * @test: the test; skipped on a single-CPU machine.
 * @cpu: the CPU to avoid.
 *
 * Return: the CPU.
 */
int pfmkt_other_cpu_or_skip(struct kunit *test, int cpu)
{
	int other = pfmkt_other_cpu(cpu);

	if (other < 0)
		kunit_skip(test, "needs a second online CPU");
	return other;
}

/**
 * pfmkt_aux_patch() - does the kernel carry pfmk's AUX patch? checked
 * @test: the test; fails if the harness did not say, or if
 *	pfmk_aux_supported() disagrees with what it said.
 *
 * The AUX cases skip on the harness's answer (pfmk_test_aux_patch()),
 * never on pfmk's: a pfmk that reports no AUX support on a kernel the
 * harness patched fails here instead of skipping, and so does one that
 * reports support on a kernel without the patch.
 *
 * Context: process context; sleeps.
 * Return: whether the kernel carries the patch.
 */
bool pfmkt_aux_patch(struct kunit *test)
{
	int patch = pfmk_test_aux_patch();

	KUNIT_ASSERT_GE_MSG(test, patch, 0,
			    "the harness did not say whether the kernel has pfmk's AUX patch (pfmk_test_aux_pmu aux_patch=0|1)");
	KUNIT_ASSERT_EQ_MSG(test, (int)pfmk_aux_supported(), patch,
			    "pfmk_aux_supported() contradicts the harness's aux_patch");
	return patch;
}

/**
 * pfmkt_offline() - take @cpu offline for the rest of the case
 * @test: the test; the case's exit brings @cpu back if it fails first.
 * @cpu: the CPU.
 *
 * remove_cpu() failing on an SMP machine is a failure, not a skip.
 */
void pfmkt_offline(struct kunit *test, int cpu)
{
	struct pfmkt_priv *priv = test->priv;

	KUNIT_ASSERT_EQ_MSG(test, remove_cpu(cpu), 0, "remove_cpu(%d)", cpu);
	priv->offline_cpu = cpu;
}

/**
 * pfmkt_online() - bring back the CPU pfmkt_offline() took away
 * @test: the test.
 * @cpu: the CPU.
 */
void pfmkt_online(struct kunit *test, int cpu)
{
	struct pfmkt_priv *priv = test->priv;

	KUNIT_ASSERT_EQ_MSG(test, add_cpu(cpu), 0, "add_cpu(%d)", cpu);
	priv->offline_cpu = -1;
}

/**
 * struct pfmkt_perf_res - a raw perf event, as a KUnit resource of the test
 * @res: the resource; its data points here.
 * @event: the event, released (perf_event_release_kernel()) with the
 *	resource.
 *
 * Allocated with kunit_kzalloc() before the event is created, so KUnit
 * frees the memory after the release, and memory the test allocated
 * before the event (its overflow handler's context) after it too.
 */
struct pfmkt_perf_res {
	struct kunit_resource	res;
	struct perf_event	*event;
};

static void pfmkt_perf_free(struct kunit_resource *res)
{
	struct pfmkt_perf_res *r = res->data;

	perf_event_release_kernel(r->event);
}

static bool pfmkt_perf_match(struct kunit *test, struct kunit_resource *res,
			     void *event)
{
	struct pfmkt_perf_res *r = res->data;

	return res->free == pfmkt_perf_free && r->event == event;
}

/**
 * pfmkt_perf_try_create() - perf_event_create_kernel_counter() for a test
 * @test: the test.
 * @p: the event: its attributes, CPU or task, overflow handler.
 *
 * The event is a resource of the test, released when the test ends, or
 * aborts on a failed assertion, unless pfmkt_perf_release() released it
 * first: a case can ASSERT its set-up without leaking a raw event.  Only
 * perf's exported API is used.
 *
 * Return: the event, or the ERR_PTR() perf returned (nothing tracked).
 */
struct perf_event *pfmkt_perf_try_create(struct kunit *test,
					 const struct pfmkt_perf *p)
{
	struct perf_event *event;
	struct pfmkt_perf_res *r;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	event = perf_event_create_kernel_counter(p->attr, p->cpu, p->task,
						 p->handler, p->context);
	if (IS_ERR(event))
		return event;
	r->event = event;
	if (kunit_add_resource(test, NULL, pfmkt_perf_free, &r->res, r)) {
		perf_event_release_kernel(event);
		KUNIT_ASSERT_TRUE_MSG(test, false, "cannot track a perf event");
	}
	return event;
}

/**
 * pfmkt_perf_create() - pfmkt_perf_try_create(), or abort the test
 * @test: the test.
 * @p: the event.
 *
 * Return: the event, a resource of the test.
 */
struct perf_event *pfmkt_perf_create(struct kunit *test,
				     const struct pfmkt_perf *p)
{
	struct perf_event *event = pfmkt_perf_try_create(test, p);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "perf event: %ld",
			       PTR_ERR(event));
	return event;
}

/**
 * pfmkt_perf_release() - release a raw event of the test now
 * @test: the test.
 * @event: an event of pfmkt_perf_try_create(), not released yet.
 *
 * For a case whose release is what it tests, or comes before it.
 */
void pfmkt_perf_release(struct kunit *test, struct perf_event *event)
{
	struct kunit_resource *res;

	res = kunit_find_resource(test, pfmkt_perf_match, event);
	KUNIT_ASSERT_NOT_NULL_MSG(test, res, "perf event not tracked");
	kunit_remove_resource(test, res);
	kunit_put_resource(res);
}

/**
 * pfmkt_bad() - count one result that breaks a contract, keep its details
 * @bad: the thread's record.
 * @ret: the return value.
 * @entry: the vector entry of @value, or -1 for none.
 * @value: the value.
 *
 * Context: the test thread that owns @bad; read after it stopped.
 */
void pfmkt_bad(struct pfmkt_bad *bad, long ret, int entry, u64 value)
{
	bad->nr++;
	bad->ret = ret;
	bad->entry = entry;
	bad->value = value;
}
