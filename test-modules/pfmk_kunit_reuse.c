// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_reuse_kunit: a context created in the memory of a closed one finds
 * set 0's registers clean.
 *
 * A create does not clear set 0's registers: the cache's constructor left
 * them clean, and each close cleans the PMDs its context may have changed
 * and zeroes its PMC values (core/sets.c, pfmk_sets_free();
 * Documentation/locking.rst, "Type-stable contexts").  These cases dirty
 * registers of the generic description (64 PMDs) the ways a client can,
 * close, and check that the next contexts read every PMD as new, and count
 * nothing with the PMCs at their defaults; the race case does it from two threads at once, so
 * that a context created on one CPU may take the memory of one closed on
 * another.  The generic description is built into pfmk: no precondition.
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
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>

#include "pfmk_kunit.h"

#define REUSE_NREGS	PFMK_GENERIC_NUM_PMCS
/*
 * Rounds of dirtying a context and checking a new one, and their bound in
 * time: on KASAN kernels a closed context's memory waits in KASAN's
 * quarantine, and comes back to the cache only after many others.
 */
#define REUSE_ROUNDS	3000
#define REUSE_TIME	(3 * HZ)
/* The race: rounds of the reader, and its bound in time. */
#define REUSE_RACE_ROUNDS	2000
#define REUSE_RACE_TIME		(5 * HZ)
#define REUSE_MAGIC	0x5a5a5a5a5a5aULL
/* Runs of the event case until its PMD counted something. */
#define REUSE_EVENT_RUNS	8

/**
 * struct reuset - state of one test
 * @c: the completion given to pfmk_create_context().
 * @pmd: a read or write vector of every PMD.
 * @dirtier: the race case's second thread, stopped at exit.
 * @dirtier_err: the first error of @dirtier.
 * @dirtier_rounds: contexts @dirtier dirtied and closed.
 */
struct reuset {
	struct completion	c;
	struct pfarg_pmd	pmd[REUSE_NREGS];
	struct task_struct	*dirtier;
	int			dirtier_err;
	atomic_t		dirtier_rounds;
};

static int reuset_init(struct kunit *test)
{
	struct reuset *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	if (!t)
		return -ENOMEM;
	init_completion(&t->c);
	test->priv = t;
	return 0;
}

static void reuset_exit(struct kunit *test)
{
	struct reuset *t = test->priv;

	if (t->dirtier)
		kthread_stop(t->dirtier);
}

/*
 * A context of the generic description, unloaded.  Not pfmkt_try_create():
 * that one tracks the context as a resource of the test and takes the
 * completion of a struct pfmkt_priv, but the race case's dirtier runs in
 * a kthread with no test to track it in, and failing there must return
 * an errno, not abort a test.  Every context here is closed by the
 * helper that made it.  The helpers of pfmk_kunit_util.c that take no
 * test (pfmkt_try_write_pmc(), pfmkt_load_cpu(), the request builders)
 * are shared.
 */
static int reuse_create(struct reuset *t, void **desc)
{
	struct pfarg_ctx req = { .ctx_flags = PFM_FL_SYSTEM_WIDE };

	return pfmk_create_context(&req, NULL, 0, &t->c, desc, NULL);
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

	ret = reuse_create(t, &desc);
	if (ret)
		return ret;
	pfmkt_pmd_req(pmd, 0, num, REUSE_MAGIC);
	pmd->reg_long_reset = REUSE_MAGIC;
	pmd->reg_short_reset = REUSE_MAGIC;
	pmd->reg_ovfl_switch_cnt = 3;
	pmd->reg_smpl_eventid = 7;
	__set_bit(reset, (unsigned long *)pmd->reg_reset_pmds);
	ret = pfmk_write_pmds(desc, pmd, 1);
	return pfmk_close(desc) ?: ret;
}

/* A counting event on PMC @num, cpu-clock; the context stays unloaded. */
static int reuse_dirty_pmc(struct reuset *t, unsigned int num)
{
	void *desc;
	int ret;

	ret = reuse_create(t, &desc);
	if (ret)
		return ret;
	ret = pfmkt_try_write_pmc(desc, num,
				  PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK));
	return pfmk_close(desc) ?: ret;
}

/* Count for a while with the PMCs as a new context has them. */
static int reuse_run(void *desc)
{
	int ret;

	ret = pfmkt_load_cpu(desc, cpumask_first(cpu_online_mask)) ?:
	      pfmk_start(desc, NULL);
	if (ret)
		return ret;
	mdelay(2);
	return pfmk_stop(desc) ?: pfmk_unload_context(desc);
}

/*
 * Read every PMD of a new context, after counting with it if @run: 0 if
 * each reads as new, or -errno.
 */
static int reuse_read_new(struct reuset *t, struct pfarg_pmd *pmd,
			  unsigned int *bad, bool run)
{
	unsigned int i;
	void *desc;
	int ret;

	ret = reuse_create(t, &desc);
	if (ret)
		return ret;
	ret = run ? reuse_run(desc) : 0;
	if (ret) {
		pfmk_close(desc);
		return ret;
	}
	for (i = 0; i < REUSE_NREGS; i++)
		pfmkt_pmd_req(&pmd[i], 0, i, 0);
	ret = pfmk_read_pmds(desc, pmd, REUSE_NREGS);
	for (i = 0; !ret && i < REUSE_NREGS; i++) {
		if (pmd[i].reg_value || pmd[i].reg_last_reset_val ||
		    pmd[i].reg_ovfl_switch_cnt) {
			*bad = i;
			ret = 1;
		}
	}
	return pfmk_close(desc) ?: ret;
}

/*
 * Dirty a context with @dirty, close it, then check that a new one reads
 * as new (after counting with it if @run), round after round.
 */
static void reuse_cycle(struct kunit *test,
			int (*dirty)(struct reuset *t, const void *arg),
			const void *arg, bool run)
{
	struct reuset *t = test->priv;
	unsigned long end = jiffies + REUSE_TIME;
	unsigned int i, bad = 0;

	for (i = 0; i < REUSE_ROUNDS && time_before(jiffies, end); i++) {
		KUNIT_ASSERT_EQ(test, dirty(t, arg), 0);
		KUNIT_ASSERT_EQ_MSG(test, reuse_read_new(t, t->pmd, &bad, run), 0,
				    "round %u: PMD %u not new", i, bad);
		cond_resched();
	}
}

/* Register written; PMD in its reset bit vector (PMD cases). */
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

/* A PMD written by the client reads as new in the next contexts. */
static int reuse_dirty_pmd(struct reuset *t, const void *arg)
{
	const struct reuse_param *p = arg;
	struct pfarg_pmd pmd;

	return reuse_dirty_written(t, &pmd, p->num, p->reset);
}

static void reuse_written_pmd_clean(struct kunit *test)
{
	reuse_cycle(test, reuse_dirty_pmd, test->param_value, false);
}

/*
 * A PMC written (and left unloaded) is at its default, off, in the next
 * contexts: counting with them leaves every PMD at 0.
 */
static int reuse_dirty_pmc_arg(struct reuset *t, const void *arg)
{
	const struct reuse_param *p = arg;

	return reuse_dirty_pmc(t, p->num);
}

static void reuse_written_pmc_clean(struct kunit *test)
{
	reuse_cycle(test, reuse_dirty_pmc_arg, test->param_value, true);
}

/* PMD 40 counted by an event, its count folded at unload, and closed. */
static int reuse_dirty_event(struct reuset *t, const void *arg)
{
	struct pfarg_pmd pmd;
	unsigned int runs;
	void *desc;
	int ret;

	ret = reuse_create(t, &desc);
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
		ret = reuse_run(desc) ?: pfmk_read_pmds(desc, &pmd, 1);
	if (!ret && !pmd.reg_value)
		ret = -ENODATA;
	return pfmk_close(desc) ?: ret;
}

/* A PMD whose event counted, folded at unload, reads as new after. */
static void reuse_event_pmd_clean(struct kunit *test)
{
	reuse_cycle(test, reuse_dirty_event, NULL, false);
}

static int reuse_dirtier(void *data)
{
	struct reuset *t = data;
	struct pfarg_pmd pmd;
	unsigned int n = 0;
	int ret = 0;

	while (!kthread_should_stop()) {
		if (!ret) {
			ret = reuse_dirty_written(t, &pmd, n % REUSE_NREGS,
						  (n * 7) % REUSE_NREGS);
			if (ret)
				WRITE_ONCE(t->dirtier_err, ret);
			else
				atomic_inc(&t->dirtier_rounds);
			n++;
		}
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
		ret = reuse_read_new(t, t->pmd, &bad, false);
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
	KUNIT_CASE_PARAM(reuse_written_pmc_clean, reuse_gen_params),
	KUNIT_CASE_SLOW(reuse_event_pmd_clean),
	KUNIT_CASE_SLOW(reuse_race_create_close),
	{}
};

static struct kunit_suite pfmk_reuse_suite = {
	.name = "pfmk_reuse",
	.init = reuset_init,
	.exit = reuset_exit,
	.test_cases = pfmk_reuse_cases,
};

kunit_test_suites(&pfmk_reuse_suite);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk KUnit suite: contexts created in reused memory");
MODULE_LICENSE("GPL");
