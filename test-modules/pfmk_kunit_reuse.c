// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_reuse_kunit: a context created in the memory of a closed one finds
 * set 0's registers clean.
 *
 * A create does not clear set 0's registers: the cache's constructor left
 * them clean, and each close cleans the PMDs its context may have changed
 * and zeroes its PMC values (core/sets.c, pfmk_sets_free();
 * Documentation/locking.rst, "Type-stable contexts").  These cases dirty
 * registers the ways a client can, close, and check that the next
 * contexts read every PMD as new, round after round.  The race case does
 * it from two threads at once, so that a context created on one CPU may
 * take the memory of one closed on another.
 *
 * Whether a create got the memory of a context dirtied before is seen
 * through the slab allocator's exported tracepoints (kmem_cache_free,
 * kmem_cache_alloc): the rounds go on until enough creates did, and a
 * case where none did fails, since it would have checked nothing (KASAN's
 * quarantine holds freed memory back for many rounds; KFENCE may hand out
 * memory of its own).
 *
 * A create does not set the switch timer up either: the first set that
 * switches on time does, and a close cancels it only then.  The timer case
 * checks that contexts in the memory of one that armed it switch sets on
 * time, and that plain ones close.
 *
 * The PMD cases use the generic description, built into pfmk.  The PMC
 * case registers a description of its own, "pfmk_kt_reuse" (as many PMCs
 * of software events, so that its contexts come from the same cache), in
 * which PMD 1 follows PMC 0 while PMC 1 is 0 (->pmd_pmc(), as the generic
 * description's PMD 17 on follow an x86 image in PMC 16): a PMC value a
 * close left behind would program a PMD of the next context whose own
 * PMC that context wrote.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/xarray.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu.h>
#include <pfmk/pmu_generic.h>
#include <trace/events/kmem.h>

#include "pfmk_kunit.h"

#define REUSE_NREGS	PFMK_GENERIC_NUM_PMCS
/*
 * Rounds of dirtying a context and checking a new one, their bound in
 * time, and the creates in memory a dirtied context left after which they
 * stop.  On KASAN kernels a closed context's memory waits an RCU grace
 * period (CONFIG_SLUB_RCU_DEBUG), then in KASAN's quarantine, and comes
 * back to the cache only after much other memory was freed.
 */
#define REUSE_ROUNDS	20000
#define REUSE_TIME	(30 * HZ)
#define REUSE_WANT	16
/* The race: rounds of the reader, and its bound in time. */
#define REUSE_RACE_ROUNDS	2000
#define REUSE_RACE_TIME		(5 * HZ)
#define REUSE_MAGIC	0x5a5a5a5a5a5aULL
/* Runs of the event case until its PMD counted something. */
#define REUSE_EVENT_RUNS	8
/*
 * Runs of the timer case until its set switched: the switch is the
 * work's, which a TCG guest on a loaded host may not run for several of
 * the 2 ms runs (the bound is for a broken switch, not a slow one).
 */
#define REUSE_SWITCH_RUNS	200
/* Sampling period of the PMD cases, in ns of cpu-clock: 50 us. */
#define REUSE_PERIOD	50000ULL

/* The PMC case's description: bit 63 enables, bits 0-7 a PERF_COUNT_SW_*. */
#define REUSE_TD_NAME	"pfmk_kt_reuse"
#define REUSE_TD_EN	BIT_ULL(63)
#define REUSE_TD_CONFIG	0xffULL
#define REUSE_TD_PMC(id)	(REUSE_TD_EN | (id))

/* What the tracepoint probes watch in the test's thread. */
enum reuse_watch {
	REUSE_WATCH_NONE,
	REUSE_WATCH_ALLOC,	/* a create: did it get dirtied memory? */
	REUSE_WATCH_FREE,	/* a close: which memory went back? */
};

/**
 * struct reuset - state of one test
 * @c: the completion given to pfmk_create_context().
 * @pmd: a read or write vector of every PMD.
 * @dirtier: the race case's second thread, stopped at exit.
 * @dirtier_err: the first error of @dirtier.
 * @dirtier_rounds: contexts @dirtier dirtied and closed.
 * @ovfl_rounds: contexts of the PMD cases whose sampling PMD overflowed.
 * @task: the test's thread, the only one the probes watch.
 * @watch: what they watch now.
 * @dirty: memory a dirtied context of @task left, by address, to its cache
 *	(removed when a clean context of @task leaves it).
 * @freed: the memory the last close of @task gave back, or NULL.
 * @freed_cache: its cache.
 * @reused: the last create of @task got memory of @dirty.
 * @probes: the probes are registered.
 */
struct reuset {
	struct completion	c;
	struct pfarg_pmd	pmd[REUSE_NREGS];
	struct task_struct	*dirtier;
	int			dirtier_err;
	atomic_t		dirtier_rounds;
	unsigned int		ovfl_rounds;
	struct task_struct	*task;
	enum reuse_watch	watch;
	struct xarray		dirty;
	const void		*freed;
	const void		*freed_cache;
	bool			reused;
	bool			probes;
};

static int reuse_td_to_attr(const struct pfmk_pmu_desc *d, unsigned int reg,
			    u64 val, struct perf_event_attr *attr)
{
	if (!(val & REUSE_TD_EN))
		return PFMK_PMC_OFF;
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = val & REUSE_TD_CONFIG;
	return 0;
}

/* PMD 1 follows PMC 0 while PMC 1 is 0. */
static u64 reuse_td_pmd_pmc(const struct pfmk_pmu_desc *d, unsigned int pmd,
			    const u64 *pmcs)
{
	if (pmd == 1 && !pmcs[1])
		return pmcs[0];
	return pmcs[pmd];
}

static bool reuse_td_pmc_shared(const struct pfmk_pmu_desc *d,
				unsigned int reg, u64 val)
{
	return reg == 0 && val;
}

static struct pfmk_reg_desc reuse_td_regs[REUSE_NREGS];

static struct pfmk_pmu_desc reuse_td_desc = {
	.name = REUSE_TD_NAME, .owner = THIS_MODULE,
	.num_pmcs = REUSE_NREGS, .pmc_desc = reuse_td_regs,
	.pmc_to_attr = reuse_td_to_attr, .pmd_pmc = reuse_td_pmd_pmc,
	.pmc_shared = reuse_td_pmc_shared,
};

static bool reuse_watching(struct reuset *t, enum reuse_watch w)
{
	return current == t->task && in_task() && READ_ONCE(t->watch) == w;
}

static void reuse_probe_alloc(void *data, unsigned long call_site,
			      const void *ptr, struct kmem_cache *s,
			      gfp_t gfp_flags, int node)
{
	struct reuset *t = data;

	if (reuse_watching(t, REUSE_WATCH_ALLOC) &&
	    xa_load(&t->dirty, (unsigned long)ptr) == s)
		t->reused = true;
}

static void reuse_probe_free(void *data, unsigned long call_site,
			     const void *ptr, const struct kmem_cache *s)
{
	struct reuset *t = data;

	if (reuse_watching(t, REUSE_WATCH_FREE)) {
		t->freed = ptr;
		t->freed_cache = s;
	}
}

static int reuset_init(struct kunit *test)
{
	struct reuset *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	int ret;

	if (!t)
		return -ENOMEM;
	init_completion(&t->c);
	xa_init(&t->dirty);
	t->task = current;
	test->priv = t;
	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		return 0;
	ret = register_trace_kmem_cache_alloc(reuse_probe_alloc, t);
	if (ret)
		return ret;
	ret = register_trace_kmem_cache_free(reuse_probe_free, t);
	if (ret) {
		unregister_trace_kmem_cache_alloc(reuse_probe_alloc, t);
		tracepoint_synchronize_unregister();
		return ret;
	}
	t->probes = true;
	return 0;
}

static void reuset_exit(struct kunit *test)
{
	struct reuset *t = test->priv;

	if (t->dirtier)
		kthread_stop(t->dirtier);
	if (t->probes) {
		unregister_trace_kmem_cache_free(reuse_probe_free, t);
		unregister_trace_kmem_cache_alloc(reuse_probe_alloc, t);
		tracepoint_synchronize_unregister();
	}
	xa_destroy(&t->dirty);
}

static int reuse_suite_init(struct kunit_suite *suite)
{
	unsigned int i;

	for (i = 0; i < REUSE_NREGS; i++) {
		reuse_td_regs[i].name = "PMC";
		reuse_td_regs[i].rsvd_msk = ~(REUSE_TD_EN | REUSE_TD_CONFIG);
	}
	return pfmk_pmu_register(&reuse_td_desc);
}

static void reuse_suite_exit(struct kunit_suite *suite)
{
	pfmk_pmu_unregister(&reuse_td_desc);
}

/*
 * An unloaded context of description @pmu ("" for generic).  Not
 * pfmkt_try_create(): that one tracks the context as a resource of the
 * test and takes the completion of a struct pfmkt_priv, but the race
 * case's dirtier runs in a kthread with no test to track it in, and
 * failing there must return an errno, not abort a test.  Every context
 * here is closed by the helper that made it.  The helpers of
 * pfmk_kunit_util.c that take no test (pfmkt_try_write_pmc(),
 * pfmkt_load_cpu(), the request builders) are shared.
 */
static int reuse_create(struct reuset *t, const char *pmu, void **desc)
{
	struct pfarg_ctx req = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	int ret;

	strscpy(req.ctx_pmu_name, pmu, sizeof(req.ctx_pmu_name));
	if (current == t->task) {
		t->reused = false;
		WRITE_ONCE(t->watch, REUSE_WATCH_ALLOC);
	}
	ret = pfmk_create_context(&req, NULL, 0, &t->c, desc, NULL);
	if (current == t->task)
		WRITE_ONCE(t->watch, REUSE_WATCH_NONE);
	return ret;
}

/*
 * Generic KASAN keeps freed objects in a quarantine and gives them back
 * to their cache only after about 1/32 of RAM was freed after them: a
 * close frees a few KiB, so a dirtied context's memory would come back
 * about a thousand rounds later, past the bound in time on a debug guest.
 * Freeing REUSE_PUSH objects of 4 KiB after each dirty close (512 KiB)
 * brings it back within tens of rounds.  Without generic KASAN, nothing.
 */
#define REUSE_PUSH	128

static void reuse_push_quarantine(void)
{
	unsigned int i;

	if (!IS_ENABLED(CONFIG_KASAN_GENERIC))
		return;
	for (i = 0; i < REUSE_PUSH; i++)
		kfree(kmalloc(SZ_4K, GFP_KERNEL));
}

/*
 * Close a context; note which memory it gave back if @dirty (pfmk frees
 * the memory of an unloaded context nobody else holds at its close).
 */
static int reuse_close(struct reuset *t, void *desc, bool dirty)
{
	unsigned long key;
	int ret;

	if (current != t->task)
		return pfmk_close(desc);
	t->freed = NULL;
	WRITE_ONCE(t->watch, REUSE_WATCH_FREE);
	ret = pfmk_close(desc);
	WRITE_ONCE(t->watch, REUSE_WATCH_NONE);
	if (!t->freed)
		return ret;
	key = (unsigned long)t->freed;
	if (!dirty) {
		xa_erase(&t->dirty, key);
		return ret;
	}
	reuse_push_quarantine();
	return ret ?: xa_err(xa_store(&t->dirty, key, (void *)t->freed_cache,
				      GFP_KERNEL));
}

/* A PMD request for PMD @num, with PMD @reset in its reset bit vector. */
static void reuse_pmd_req(struct pfarg_pmd *pmd, unsigned int num,
			  unsigned int reset, u64 value)
{
	pfmkt_pmd_req(pmd, 0, num, value);
	pmd->reg_long_reset = value;
	pmd->reg_short_reset = value;
	pmd->reg_ovfl_switch_cnt = 3;
	pmd->reg_smpl_eventid = 7;
	__set_bit(reset, (unsigned long *)pmd->reg_reset_pmds);
}

/*
 * Dirty PMD @num the way pfmk_write_pmds() does, with PMD @reset in its
 * reset bit vector, and close.
 */
static int reuse_dirty_written(struct reuset *t, struct pfarg_pmd *pmd,
			       unsigned int num, unsigned int reset)
{
	void *desc;
	int ret;

	ret = reuse_create(t, "", &desc);
	if (ret)
		return ret;
	reuse_pmd_req(pmd, num, reset, REUSE_MAGIC);
	ret = pfmk_write_pmds(desc, pmd, 1);
	return reuse_close(t, desc, true) ?: ret;
}

/*
 * Count for a while on the first online CPU.  With @ovfl, pfmk_restart()
 * after the stop tells whether a sampling PMD overflowed meanwhile:
 * without a sampling format that masks the context, which pfmk_restart()
 * then unmasks (0), else -EBUSY.
 */
static int reuse_run(void *desc, bool ovfl)
{
	int ret;

	ret = pfmkt_load_cpu(desc, cpumask_first(cpu_online_mask)) ?:
	      pfmk_start(desc, NULL);
	if (ret)
		return ret;
	mdelay(2);
	ret = pfmk_stop(desc);
	if (!ret && ovfl)
		ret = pfmk_restart(desc);
	return pfmk_unload_context(desc) ?: ret;
}

/**
 * struct reuse_check - how a new context is checked
 * @pmu: its description ("" for generic).
 * @nregs: its PMDs, all read.
 * @pmc: a PMC written before counting with it, or NULL: no write, no run.
 *	Where the probes tell, it counts only in memory a dirtied context
 *	of the test left, so that the rounds before such memory comes back
 *	are quick.
 */
struct reuse_check {
	const char		*pmu;
	unsigned int		nregs;
	const struct pfarg_pmc	*pmc;
};

static const struct reuse_check reuse_check_generic = { "", REUSE_NREGS };

/*
 * Read every PMD of a new context, after counting with it if @chk says
 * so: 0 if each reads as new, 1 (and @bad) if one does not, or -errno.
 */
static int reuse_read_new(struct reuset *t, const struct reuse_check *chk,
			  struct pfarg_pmd *pmd, unsigned int *bad)
{
	struct pfarg_pmc pmc;
	unsigned int i;
	void *desc;
	int ret;

	ret = reuse_create(t, chk->pmu, &desc);
	if (ret)
		return ret;
	if (chk->pmc && (t->reused || !t->probes)) {
		pmc = *chk->pmc;
		ret = pfmk_write_pmcs(desc, &pmc, 1) ?: reuse_run(desc, false);
	}
	if (ret) {
		reuse_close(t, desc, false);
		return ret;
	}
	for (i = 0; i < chk->nregs; i++)
		pfmkt_pmd_req(&pmd[i], 0, i, 0);
	ret = pfmk_read_pmds(desc, pmd, chk->nregs);
	for (i = 0; !ret && i < chk->nregs; i++) {
		if (pmd[i].reg_value || pmd[i].reg_last_reset_val ||
		    pmd[i].reg_ovfl_switch_cnt) {
			*bad = i;
			ret = 1;
		}
	}
	return reuse_close(t, desc, false) ?: ret;
}

/*
 * Dirty a context with @dirty, close it, then check that a new one reads
 * as new (@chk), round after round, until REUSE_WANT new contexts were
 * created in memory a dirtied one left, or the bounds; at least one must
 * have been.
 */
static void reuse_cycle(struct kunit *test,
			int (*dirty)(struct reuset *t, const void *arg),
			const void *arg, const struct reuse_check *chk)
{
	struct reuset *t = test->priv;
	unsigned long end = jiffies + REUSE_TIME;
	unsigned int i, bad = 0, reused = 0;

	for (i = 0; i < REUSE_ROUNDS && time_before(jiffies, end) &&
	     reused < REUSE_WANT; i++) {
		KUNIT_ASSERT_EQ(test, dirty(t, arg), 0);
		KUNIT_ASSERT_EQ_MSG(test, reuse_read_new(t, chk, t->pmd, &bad),
				    0, "round %u: PMD %u not new", i, bad);
		reused += t->reused;
		cond_resched();
	}
	kunit_info(test, "%u rounds, %u in reused memory\n", i, reused);
	if (t->probes)
		KUNIT_EXPECT_GT_MSG(test, reused, 0,
				    "no create reused a dirtied context");
}

/* PMD written, sampling; PMD in its reset bit vector (PMD cases). */
struct reuse_param {
	unsigned int	num;
	unsigned int	reset;
	const char	*name;
};

static const struct reuse_param reuse_params[] = {
	{ 0, 1, "reg0_reset1" },
	{ 5, 63, "reg5_reset63" },
	{ 31, 2, "reg31_reset2" },
	{ 63, 0, "reg63_reset0" },
};

static void reuse_param_desc(const struct reuse_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(reuse, reuse_params, reuse_param_desc);

/*
 * PMD @num written by the client, sampling cpu-clock, with PMD @reset in
 * its reset bit vector: its overflow, in most rounds, masks the context
 * and leaves both PMDs waiting for their reset (pfmk_restart() reloads
 * them); closed.  The case checks that some rounds overflowed.
 */
static int reuse_dirty_pmd(struct reuset *t, const void *arg)
{
	const struct reuse_param *p = arg;
	struct pfarg_pmc pmc = {
		.reg_num = p->num,
		.reg_value = PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK),
	};
	struct pfarg_pmd pmd;
	void *desc;
	int ret;

	ret = reuse_create(t, "", &desc);
	if (ret)
		return ret;
	reuse_pmd_req(&pmd, p->num, p->reset, -REUSE_PERIOD);
	ret = pfmk_write_pmcs(desc, &pmc, 1) ?: pfmk_write_pmds(desc, &pmd, 1) ?:
	      reuse_run(desc, true);
	/* No overflow this time (the period is short, not bounded). */
	if (ret == -EBUSY)
		ret = 0;
	else if (!ret)
		t->ovfl_rounds++;
	return reuse_close(t, desc, true) ?: ret;
}

/* A PMD written and overflowed reads as new in the next contexts. */
static void reuse_written_pmd_clean(struct kunit *test)
{
	struct reuset *t = test->priv;

	reuse_cycle(test, reuse_dirty_pmd, test->param_value,
		    &reuse_check_generic);
	KUNIT_EXPECT_GT_MSG(test, t->ovfl_rounds, 0, "no overflow");
}

/* PMC 0 of "pfmk_kt_reuse" counting cpu-clock; the context stays unloaded. */
static int reuse_dirty_pmc(struct reuset *t, const void *arg)
{
	void *desc;
	int ret;

	ret = reuse_create(t, REUSE_TD_NAME, &desc);
	if (ret)
		return ret;
	ret = pfmkt_try_write_pmc(desc, 0,
				  REUSE_TD_PMC(PERF_COUNT_SW_CPU_CLOCK));
	return reuse_close(t, desc, true) ?: ret;
}

/* The next context writes PMC 1 = 0 only: PMD 1 follows PMC 0. */
static const struct pfarg_pmc reuse_pmc1_off = { .reg_num = 1 };

static const struct reuse_check reuse_check_td = {
	REUSE_TD_NAME, REUSE_NREGS, &reuse_pmc1_off,
};

/*
 * A PMC written in a context is 0 in the next ones: PMD 1, which follows
 * PMC 0 while PMC 1 is 0, has no event there and reads 0 after counting.
 */
static void reuse_written_pmc_clean(struct kunit *test)
{
	reuse_cycle(test, reuse_dirty_pmc, NULL, &reuse_check_td);
}

/* PMD 40 counted by an event, its count folded at unload, and closed. */
static int reuse_dirty_event(struct reuset *t, const void *arg)
{
	struct pfarg_pmd pmd;
	unsigned int runs;
	void *desc;
	int ret;

	ret = reuse_create(t, "", &desc);
	if (ret)
		return ret;
	pfmkt_pmd_req(&pmd, 0, 40, 0);
	ret = pfmkt_try_write_pmc(desc, 40,
				  PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK));
	/*
	 * The PMD must be dirty: its event's count.  cpu-clock counts with
	 * the clock of the CPU it counts on, which may be idle: on a guest
	 * that clock can stand still over the 2 ms run.  Count again, a
	 * few times.
	 */
	for (runs = 0; !ret && !pmd.reg_value && runs < REUSE_EVENT_RUNS;
	     runs++)
		ret = reuse_run(desc, false) ?: pfmk_read_pmds(desc, &pmd, 1);
	if (!ret && !pmd.reg_value)
		ret = -ENODATA;
	return reuse_close(t, desc, true) ?: ret;
}

/* A PMD whose event counted, folded at unload, reads as new after. */
static void reuse_event_pmd_clean(struct kunit *test)
{
	reuse_cycle(test, reuse_dirty_event, NULL, &reuse_check_generic);
}

/* Sets 0 and 1 of a context, each switching after 100 us. */
static int reuse_time_sets(void *desc)
{
	struct pfarg_setdesc d[2] = {
		{ .set_id = 0, .set_flags = PFM_SETFL_TIME_SWITCH,
		  .set_timeout = 100 },
		{ .set_id = 1, .set_flags = PFM_SETFL_TIME_SWITCH,
		  .set_timeout = 100 },
	};

	return pfmk_create_evtsets(desc, d, ARRAY_SIZE(d));
}

/*
 * A context whose sets switch on time, run and closed (its switch timer
 * set up and armed), then one created in its memory: its timer is set up
 * again by the first set that switches on time, and switches (set 1 ran).
 * A plain context then closes in that memory without setting it up
 * (reuse_read_new()).
 */
static void reuse_switch_timer(struct kunit *test)
{
	struct reuset *t = test->priv;
	unsigned long end = jiffies + REUSE_TIME;
	unsigned int i, bad = 0, reused = 0, runs;
	struct pfarg_setinfo info;
	void *desc;
	int ret;

	for (i = 0; i < REUSE_ROUNDS && time_before(jiffies, end) &&
	     reused < REUSE_WANT; i++) {
		KUNIT_ASSERT_EQ(test, reuse_create(t, "", &desc), 0);
		ret = reuse_time_sets(desc) ?: reuse_run(desc, false);
		KUNIT_ASSERT_EQ(test, reuse_close(t, desc, true) ?: ret, 0);
		KUNIT_ASSERT_EQ(test, reuse_create(t, "", &desc), 0);
		memset(&info, 0, sizeof(info));
		info.set_id = 1;
		/* Until the timer switched: a 100 us timeout, 2 ms runs. */
		ret = reuse_time_sets(desc);
		for (runs = 0; !ret && !info.set_runs && runs < REUSE_SWITCH_RUNS;
		     runs++)
			ret = reuse_run(desc, false) ?:
			      pfmk_getinfo_evtsets(desc, &info, 1);
		reused += t->reused;
		KUNIT_ASSERT_EQ(test, reuse_close(t, desc, true), 0);
		KUNIT_ASSERT_EQ(test, ret, 0);
		KUNIT_ASSERT_GT_MSG(test, info.set_runs, 0ULL,
				    "round %u: no switch", i);
		KUNIT_ASSERT_EQ_MSG(test, reuse_read_new(t, &reuse_check_generic,
							 t->pmd, &bad),
				    0, "round %u: PMD %u not new", i, bad);
		cond_resched();
	}
	kunit_info(test, "%u rounds, %u in reused memory\n", i, reused);
	if (t->probes)
		KUNIT_EXPECT_GT_MSG(test, reused, 0,
				    "no create reused a timer's context");
}

static int reuse_dirtier(void *data)
{
	struct reuset *t = data;
	struct pfarg_pmd pmd;
	unsigned int n = 0;
	int ret = 0;

	/* Dirty until the first error, then wait for kthread_stop(). */
	while (!kthread_should_stop()) {
		if (!ret)
			ret = reuse_dirty_written(t, &pmd, n % REUSE_NREGS,
						  (n * 7) % REUSE_NREGS);
		if (ret)
			WRITE_ONCE(t->dirtier_err, ret);
		else
			atomic_set(&t->dirtier_rounds, ++n);
		cond_resched();
	}
	return 0;
}

/*
 * Contexts created while another thread dirties and closes others, on
 * another CPU where there is one: each reads as new.
 */
static void reuse_race_create_close(struct kunit *test)
{
	struct reuset *t = test->priv;
	unsigned long end = jiffies + REUSE_RACE_TIME;
	unsigned int i, bad = 0, cpu = raw_smp_processor_id();
	unsigned int other = cpumask_any_but(cpu_online_mask, cpu);
	struct task_struct *thr;
	int ret = 0;

	thr = kthread_create(reuse_dirtier, t, "pfmk_reuse_dirty");
	KUNIT_ASSERT_FALSE(test, IS_ERR(thr));
	if (other < nr_cpu_ids)
		kthread_bind(thr, other);
	t->dirtier = thr;
	wake_up_process(thr);
	for (i = 0; i < REUSE_RACE_ROUNDS && time_before(jiffies, end); i++) {
		ret = reuse_read_new(t, &reuse_check_generic, t->pmd, &bad);
		if (ret)
			break;
		cond_resched();
	}
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "round %u: PMD %u not new", i, bad);
	kthread_stop(thr);
	t->dirtier = NULL;
	KUNIT_EXPECT_EQ(test, READ_ONCE(t->dirtier_err), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&t->dirtier_rounds), 0);
}

static struct kunit_case pfmk_reuse_cases[] = {
	KUNIT_CASE_PARAM(reuse_written_pmd_clean, reuse_gen_params),
	KUNIT_CASE_SLOW(reuse_written_pmc_clean),
	KUNIT_CASE_SLOW(reuse_event_pmd_clean),
	KUNIT_CASE_SLOW(reuse_race_create_close),
	KUNIT_CASE_SLOW(reuse_switch_timer),
	{}
};

static struct kunit_suite pfmk_reuse_suite = {
	.name = "pfmk_reuse",
	.init = reuset_init,
	.exit = reuset_exit,
	.suite_init = reuse_suite_init,
	.suite_exit = reuse_suite_exit,
	.test_cases = pfmk_reuse_cases,
};

kunit_test_suites(&pfmk_reuse_suite);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk KUnit suite: contexts created in reused memory");
MODULE_LICENSE("GPL");
