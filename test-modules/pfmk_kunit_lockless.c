// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_lockless: the lockless pfmk_read_pmds() path
 * against everything that changes what it reads.
 *
 * Each case runs reader kthreads hammering pfmk_read_pmds(), one bound to
 * the context's CPU (the local path: ->read() with interrupts off) and one
 * on another CPU (the IPI path), while the test thread closes the context,
 * unloads and reloads it, takes its CPU offline and back, lets the event
 * sets switch on their timeout, or creates and deletes a set.  Readers
 * check every result: only 0 (or -EBADF once closed, -EINVAL with NOSET
 * for a set being deleted), never -EAGAIN; a counting PMD never goes back;
 * an unused PMD reads exactly what was written; a set's PMD never shows
 * another set's value.  KASAN and lockdep report the rest.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/bits.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

/* Wall time each case's loop may take (TCG, KASAN). */
#define LL_BUDGET		(HZ * 3 / 2)
#define LL_MAX_REQ		6
/* PMD 0 counts (PMC 0 enabled), PMD 1 is unused and keeps its value. */
#define LL_COUNT_BASE		1000000ULL
#define LL_EXACT		0x5a5a5a5aULL
#define LL_NR_SETS		3
#define LL_SET_SPAN		BIT_ULL(32)
#define LL_STARTED		(PFM_CTX_LOADED | PFMK_STATE_STARTED)

/* What a reader checks of one entry's value. */
enum ll_check {
	LL_EXACT_VAL,	/* == expect */
	LL_MONO,	/* never decreases, in [expect, expect + LL_SET_SPAN) */
	LL_ZERO_OR,	/* 0 or expect (a set created, then written) */
};

/**
 * struct ll_reader - a kthread hammering pfmk_read_pmds()
 * @desc: the descriptor.
 * @cpu: CPU the thread is bound to, or -1 for none.
 * @n: number of entries of @req.
 * @req: the vector read; reg_num and reg_set are the input.
 * @check: how each entry's value is checked.
 * @expect: the value each check refers to.
 * @ebadf_ok: -EBADF is expected (the context is closed meanwhile).
 * @noset_entry: entry whose set may be missing (-EINVAL, NOSET), or -1.
 * @started: the thread runs.
 * @last: last value of each entry.
 * @nr_ok: successful reads.
 * @nr_ebadf: reads that returned -EBADF.
 * @nr_noset: reads that found the set of @noset_entry missing.
 * @bad: results that break the contract.
 */
struct ll_reader {
	void			*desc;
	int			cpu;
	int			n;
	struct pfarg_pmd	req[LL_MAX_REQ];
	enum ll_check		check[LL_MAX_REQ];
	u64			expect[LL_MAX_REQ];
	bool			ebadf_ok;
	int			noset_entry;
	struct completion	started;
	u64			last[LL_MAX_REQ];
	unsigned long		nr_ok;
	unsigned long		nr_ebadf;
	unsigned long		nr_noset;
	struct pfmkt_bad	bad;
};

static bool ll_value_ok(struct ll_reader *r, int i, u64 v)
{
	switch (r->check[i]) {
	case LL_EXACT_VAL:
		return v == r->expect[i];
	case LL_MONO:
		if (v < r->last[i] || v < r->expect[i] ||
		    v - r->expect[i] >= LL_SET_SPAN)
			return false;
		r->last[i] = v;
		return true;
	case LL_ZERO_OR:
		return !v || v == r->expect[i];
	}
	return false;
}

static int ll_reader_fn(void *data)
{
	struct ll_reader *r = data;
	struct pfarg_pmd req[LL_MAX_REQ];
	bool dead = false;
	int i, ret;

	complete(&r->started);
	while (!kthread_should_stop()) {
		memset(req, 0, sizeof(req));
		for (i = 0; i < r->n; i++) {
			req[i].reg_num = r->req[i].reg_num;
			req[i].reg_set = r->req[i].reg_set;
		}
		ret = pfmk_read_pmds(r->desc, req, r->n);
		if (ret == -EBADF && r->ebadf_ok) {
			dead = true;
			r->nr_ebadf++;
		} else if (ret == -EINVAL && !dead && r->noset_entry >= 0 &&
			   (req[r->noset_entry].reg_flags &
			    PFM_REG_RETFL_MASK) == PFM_REG_RETFL_NOSET) {
			r->nr_noset++;
		} else if (ret || dead) {
			/* -EAGAIN, another error, or a success after -EBADF. */
			pfmkt_bad(&r->bad, ret, -1, 0);
		} else {
			r->nr_ok++;
			for (i = 0; i < r->n; i++) {
				if (!ll_value_ok(r, i, req[i].reg_value)) {
					pfmkt_bad(&r->bad, 0, i,
						  req[i].reg_value);
					break;
				}
			}
		}
		cond_resched();
	}
	return 0;
}

/* Add entry (@set, @pmd) to @r, checked by @check against @expect. */
static void ll_entry(struct ll_reader *r, u16 set, u16 pmd,
		     enum ll_check check, u64 expect)
{
	r->req[r->n].reg_set = set;
	r->req[r->n].reg_num = pmd;
	r->check[r->n] = check;
	r->expect[r->n] = expect;
	r->last[r->n] = 0;
	r->n++;
}

static struct ll_reader *ll_reader_alloc(struct kunit *test, void *desc,
					 int cpu)
{
	struct ll_reader *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->desc = desc;
	r->cpu = cpu;
	r->noset_entry = -1;
	return r;
}

static struct task_struct *ll_reader_start(struct ll_reader *r)
{
	return pfmk_test_kthread_start(ll_reader_fn, r, r->cpu, &r->started,
				       "pfmk_ll");
}

/* Start both readers, or none. */
static void ll_readers_start(struct kunit *test, struct ll_reader **r,
			     struct task_struct **t)
{
	t[0] = ll_reader_start(r[0]);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t[0]));
	t[1] = ll_reader_start(r[1]);
	if (IS_ERR(t[1]))
		kthread_stop(t[0]);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t[1]));
}

/* Stop both readers. */
static void ll_readers_stop(struct ll_reader **r, struct task_struct **t)
{
	kthread_stop(t[0]);
	kthread_stop(t[1]);
}

/* The race's verdict: neither reader saw a result break the contract. */
static void ll_expect_readers_sane(struct kunit *test, struct ll_reader **r)
{
	int i;

	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_EQ_MSG(test, r[i]->bad.nr, 0UL,
				    "reader %d on CPU%d: returned %ld, entry %d, value %#llx",
				    i, r[i]->cpu, r[i]->bad.ret, r[i]->bad.entry,
				    r[i]->bad.value);
}

/**
 * struct ll_fail - the call made while readers run that failed
 * @what: the call.
 * @i: the iteration.
 * @ret: what it returned, or 0 while none failed.
 */
struct ll_fail {
	const char	*what;
	unsigned int	i;
	int		ret;
};

/*
 * A call made while readers run: failing, it is kept in @f and ends the
 * loop (the readers must be stopped before the case returns, so no
 * assertion there: ll_assert_calls() once they are).
 */
static bool ll_ok(struct ll_fail *f, int ret, const char *what,
		  unsigned int i)
{
	if (ret) {
		f->what = what;
		f->i = i;
		f->ret = ret;
	}
	return !ret;
}

/* Every call made while the readers ran succeeded, or abort the case. */
static void ll_assert_calls(struct kunit *test, const struct ll_fail *f)
{
	KUNIT_ASSERT_EQ_MSG(test, f->ret, 0, "%s, iteration %u", f->what,
			    f->i);
}

/* pfmk_write_pmds() of one PMD of a set. */
static int ll_write(void *desc, u16 set, u16 reg, u64 value)
{
	struct pfarg_pmd pmd;

	memset(&pmd, 0, sizeof(pmd));
	pmd.reg_set = set;
	pmd.reg_num = reg;
	pmd.reg_value = value;
	return pfmk_write_pmds(desc, &pmd, 1);
}

/* One PMD of a set, or ~0 if the read fails. */
static u64 ll_read(void *desc, u16 set, u16 reg)
{
	struct pfarg_pmd pmd;

	memset(&pmd, 0, sizeof(pmd));
	pmd.reg_set = set;
	pmd.reg_num = reg;
	return pfmk_read_pmds(desc, &pmd, 1) ? ~0ULL : pmd.reg_value;
}

/*
 * A context on the test PMU: PMD 0 counts one per tick from @base, PMD 1
 * is unused with LL_EXACT; loaded on @cpu and started.
 */
static void *ll_create_started(struct kunit *test, int cpu, u64 base)
{
	void *desc = pfmkt_create_counting(test, 1, base);

	pfmkt_write_pmd(test, desc, 1, LL_EXACT);
	pfmkt_load_start(test, desc, cpu);
	return desc;
}

/* Two readers of PMD 0 (counting) and PMD 1 (exact), one per CPU. */
static void ll_readers_setup(struct kunit *test, struct ll_reader **r,
			     void *desc, int cpu0, int cpu1, u64 base)
{
	int i;

	r[0] = ll_reader_alloc(test, desc, cpu0);
	r[1] = ll_reader_alloc(test, desc, cpu1);
	for (i = 0; i < 2; i++) {
		ll_entry(r[i], 0, 0, LL_MONO, base);
		ll_entry(r[i], 0, 1, LL_EXACT_VAL, LL_EXACT);
	}
}

/**
 * struct ll_close - what closes racing with reads saw
 * @r: the readers of the last close, stopped (the first that saw a
 *	result break the contract, if one did: the race ends there).
 * @closes: the closes done.
 * @nr_ok: successful reads, of every close.
 * @nr_ebadf: reads that returned -EBADF, of every close.
 * @nr_active: closes after which the test PMU still had a counter on.
 */
struct ll_close {
	struct ll_reader	*r[2];
	unsigned int		closes;
	unsigned long		nr_ok;
	unsigned long		nr_ebadf;
	unsigned long		nr_active;
};

/*
 * Up to 60 contexts, each started, read on both paths (r[0] local, r[1]
 * IPI) and closed at a varying moment; the readers stopped after each.
 * At least one context was closed when it returns.
 */
static void ll_run_close(struct kunit *test, struct ll_close *c)
{
	int cpu = pfmkt_cpu(), other = pfmkt_other_cpu_or_skip(test, cpu);
	unsigned long end = jiffies + LL_BUDGET;
	struct task_struct *t[2];
	unsigned int i, j;
	void *desc;

	for (i = 0; i < 60 && time_before(jiffies, end); i++) {
		desc = ll_create_started(test, cpu, LL_COUNT_BASE);
		ll_readers_setup(test, c->r, desc, cpu, other, LL_COUNT_BASE);
		c->r[0]->ebadf_ok = true;
		c->r[1]->ebadf_ok = true;
		ll_readers_start(test, c->r, t);

		/* Count a little, then close at a varying moment. */
		for (j = 0; j < i % 4; j++)
			pfmk_test_pmu_tick(cpu, 1 + j);
		if (i % 3 == 1)
			usleep_range(10, 20 + i);
		else if (i % 3 == 2)
			udelay(i % 50);
		pfmkt_close(test, desc);
		c->closes++;
		if (i % 2)
			usleep_range(10, 50);

		ll_readers_stop(c->r, t);
		for (j = 0; j < 2; j++) {
			c->nr_ok += c->r[j]->nr_ok;
			c->nr_ebadf += c->r[j]->nr_ebadf;
		}
		if (pfmk_test_pmu_nr_active(cpu))
			c->nr_active++;
		if (c->r[0]->bad.nr || c->r[1]->bad.nr)
			break;
	}
	kunit_info(test, "%u closes, %lu reads, %lu -EBADF\n", c->closes,
		   c->nr_ok, c->nr_ebadf);
	KUNIT_ASSERT_GT(test, c->closes, 0U);
}

/* Close racing with reads on both paths: 0 until -EBADF, values sane. */
static void lockless_read_vs_close(struct kunit *test)
{
	struct ll_close c = {};

	ll_run_close(test, &c);
	ll_expect_readers_sane(test, c.r);
	KUNIT_EXPECT_GT(test, c.nr_ok, 0UL);
	KUNIT_EXPECT_GT(test, c.nr_ebadf, 0UL);
}

/* A close racing with reads leaves no counter of the context on. */
static void lockless_close_releases_events(struct kunit *test)
{
	struct ll_close c = {};

	ll_run_close(test, &c);
	KUNIT_EXPECT_EQ_MSG(test, c.nr_active, 0UL,
			    "%lu of %u closes left a counter on",
			    c.nr_active, c.closes);
}

/**
 * struct ll_run - what a race of the test thread against two readers saw
 * @r: the readers, stopped: what they saw (ll_expect_readers_sane()).
 * @desc: the context, started.
 * @ticks: the ticks the test PMU counted for it.
 * @cycles: the cycles (unload and load, hotplug, or ticks) done.
 * @nr_bad: cycles after which the test thread found a wrong value.
 * @bad: the last wrong value it found.
 * @switches: the set switches done (ll_run_set_switch()).
 * @fail: the call of the test thread that failed, if one did.
 */
struct ll_run {
	struct ll_reader	*r[2];
	void			*desc;
	u64			ticks;
	unsigned int		cycles;
	unsigned long		nr_bad;
	u64			bad;
	u64			switches;
	struct ll_fail		fail;
};

/*
 * Unload and reload racing with reads on both paths: events released and
 * created, PMD values folded and rewritten (with the value they have)
 * while stopped.  @run->nr_bad counts unloads that folded another value
 * than the ticks counted.  The readers are stopped, and every call of
 * the test thread succeeded (or the case is aborted), when it returns.
 */
static void ll_run_unload(struct kunit *test, struct ll_run *run)
{
	int cpu = pfmkt_cpu(), other = pfmkt_other_cpu_or_skip(test, cpu);
	unsigned long end = jiffies + LL_BUDGET;
	void *desc = ll_create_started(test, cpu, LL_COUNT_BASE);
	struct ll_fail *f = &run->fail;
	struct task_struct *t[2];
	unsigned int i;
	u64 v;

	run->desc = desc;
	ll_readers_setup(test, run->r, desc, cpu, other, LL_COUNT_BASE);
	ll_readers_start(test, run->r, t);
	for (i = 0; i < 200 && time_before(jiffies, end); i++) {
		pfmk_test_pmu_tick(cpu, 1 + i % 3);
		run->ticks += 1 + i % 3;
		if (!ll_ok(f, pfmk_stop(desc), "stop", i))
			break;
		/* Loaded, stopped: a new event replaces the old one. */
		if (i % 2 && !ll_ok(f, ll_write(desc, 0, 0,
						LL_COUNT_BASE + run->ticks),
				    "write loaded", i))
			break;
		if (!ll_ok(f, pfmk_unload_context(desc), "unload", i))
			break;
		v = ll_read(desc, 0, 0);
		if (v != LL_COUNT_BASE + run->ticks) {
			run->nr_bad++;
			run->bad = v;
		}
		/* Unloaded: the values themselves, rewritten as they are. */
		if (!ll_ok(f, ll_write(desc, 0, 1, LL_EXACT), "write", i) ||
		    !ll_ok(f, pfmkt_load_cpu(desc, cpu), "load", i) ||
		    !ll_ok(f, pfmk_start(desc, NULL), "start", i))
			break;
	}
	run->cycles = i;
	ll_readers_stop(run->r, t);
	kunit_info(test, "%u unloads, %lu + %lu reads\n", i,
		   run->r[0]->nr_ok, run->r[1]->nr_ok);
	ll_assert_calls(test, f);
}

/*
 * Reads racing with unload and reload succeed, on both paths, and never
 * break the contract (the local reader is r[0], the IPI one r[1]).
 */
static void lockless_read_vs_unload(struct kunit *test)
{
	struct ll_run run = {};

	ll_run_unload(test, &run);
	ll_expect_readers_sane(test, run.r);
	KUNIT_EXPECT_GT(test, run.r[0]->nr_ok, 0UL);
	KUNIT_EXPECT_GT(test, run.r[1]->nr_ok, 0UL);
}

/* Each unload racing with reads folds the exact count. */
static void lockless_unload_folds_exact(struct kunit *test)
{
	struct ll_run run = {};

	ll_run_unload(test, &run);
	KUNIT_ASSERT_GT(test, run.cycles, 0U);
	KUNIT_EXPECT_EQ_MSG(test, run.nr_bad, 0UL,
			    "an unload folded %#llx", run.bad);
}

/* Unloads and reloads racing with reads leave the exact counts. */
static void lockless_unload_counts_kept(struct kunit *test)
{
	struct ll_run run = {};

	ll_run_unload(test, &run);
	KUNIT_ASSERT_GT(test, run.cycles, 0U);
	KUNIT_ASSERT_EQ(test, pfmk_stop(run.desc), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, run.desc, 0),
			LL_COUNT_BASE + run.ticks);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, run.desc, 1), LL_EXACT);
}

/*
 * The context's CPU going offline and back while read.  The readers may
 * not be bound to the CPU that leaves: r[0] is on CPU 0, r[1] is free to
 * run anywhere (on the context's CPU, when online, it reads locally).
 * @run->nr_bad counts cycles after which the context was not re-armed.
 * The readers are stopped, and every remove_cpu() and add_cpu()
 * succeeded (or the case is aborted), when it returns.
 */
static void ll_run_hotplug(struct kunit *test, struct ll_run *run)
{
	int cpu = pfmkt_hp_cpu(test);
	unsigned long end = jiffies + LL_BUDGET;
	void *desc = ll_create_started(test, cpu, LL_COUNT_BASE);
	struct task_struct *t[2];
	unsigned int i;
	int st;

	run->desc = desc;
	ll_readers_setup(test, run->r, desc, 0, -1, LL_COUNT_BASE);
	ll_readers_start(test, run->r, t);
	for (i = 0; i < 8 && time_before(jiffies, end); i++) {
		pfmk_test_pmu_tick(cpu, 3);
		run->ticks += 3;
		if (!ll_ok(&run->fail, remove_cpu(cpu), "remove_cpu", i))
			break;
		usleep_range(100, 200 + 100 * i);
		if (!ll_ok(&run->fail, add_cpu(cpu), "add_cpu", i)) {
			/* pfmkt_exit() tries again. */
			((struct pfmkt_priv *)test->priv)->offline_cpu = cpu;
			break;
		}
		/* A locked call applies the hotplug events: re-armed now. */
		st = pfmk_get_state(desc);
		if (st != LL_STARTED) {
			run->nr_bad++;
			run->bad = st;
		}
	}
	run->cycles = i;
	pfmk_test_pmu_tick(cpu, 2);
	run->ticks += 2;
	ll_readers_stop(run->r, t);
	kunit_info(test, "%u hotplug cycles, %lu + %lu reads\n", i,
		   run->r[0]->nr_ok, run->r[1]->nr_ok);
	ll_assert_calls(test, &run->fail);
}

/*
 * Reads racing with the context's CPU going offline and back: -EAGAIN
 * never leaks, values stay sane across the suspend and the re-arm.
 */
static void lockless_read_vs_hotplug(struct kunit *test)
{
	struct ll_run run = {};

	ll_run_hotplug(test, &run);
	KUNIT_ASSERT_GT(test, run.cycles, 0U);
	ll_expect_readers_sane(test, run.r);
	KUNIT_EXPECT_GT(test, run.r[0]->nr_ok, 0UL);
}

/* Each CPU's return re-arms the context, read meanwhile: started again. */
static void lockless_hotplug_rearmed(struct kunit *test)
{
	struct ll_run run = {};

	ll_run_hotplug(test, &run);
	KUNIT_ASSERT_GT(test, run.cycles, 0U);
	KUNIT_EXPECT_EQ_MSG(test, run.nr_bad, 0UL,
			    "state %lld after a cycle", (s64)run.bad);
}

/* Hotplug cycles racing with reads keep the exact counts. */
static void lockless_hotplug_counts_kept(struct kunit *test)
{
	struct ll_run run = {};

	ll_run_hotplug(test, &run);
	KUNIT_ASSERT_GT(test, run.cycles, 0U);
	KUNIT_ASSERT_EQ(test, pfmk_stop(run.desc), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, run.desc, 0),
			LL_COUNT_BASE + run.ticks);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, run.desc, 1), LL_EXACT);
}

/* Base of set @s's counting PMD 0, and the exact value of its PMD 1. */
static u64 ll_set_base(unsigned int s)
{
	return (s + 1) * LL_SET_SPAN;
}

static u64 ll_set_exact(unsigned int s)
{
	return LL_EXACT + s;
}

/*
 * A context with LL_NR_SETS sets switching on the shortest timeout, each
 * with PMD0 counting from ll_set_base() and PMD1 unused at
 * ll_set_exact().
 */
static void *ll_create_switching(struct kunit *test)
{
	struct pfarg_setdesc sd[LL_NR_SETS];
	struct pfarg_pmd pmd;
	unsigned int s;
	void *desc;

	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	memset(sd, 0, sizeof(sd));
	for (s = 0; s < LL_NR_SETS; s++) {
		sd[s].set_id = s;
		sd[s].set_flags = PFM_SETFL_TIME_SWITCH;
		sd[s].set_timeout = 1;	/* raised to the minimum */
	}
	KUNIT_ASSERT_EQ(test, pfmk_create_evtsets(desc, sd, LL_NR_SETS), 0);
	for (s = 0; s < LL_NR_SETS; s++) {
		pfmkt_write_set_pmc(test, desc, s, 0, PFMK_TEST_PMC(1));
		pfmkt_pmd_req(&pmd, s, 0, ll_set_base(s));
		KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, &pmd, 1), 0);
		pfmkt_pmd_req(&pmd, s, 1, ll_set_exact(s));
		KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, &pmd, 1), 0);
	}
	return desc;
}

/* Ticks landed on the active set, none while a switch was under way. */
static void ll_expect_sets(struct kunit *test, void *desc, u64 ticks)
{
	unsigned int s;
	u64 sum = 0, v;

	for (s = 0; s < LL_NR_SETS; s++) {
		v = pfmkt_read_set_pmd(test, desc, s, 0);
		KUNIT_EXPECT_GE(test, v, ll_set_base(s));
		KUNIT_EXPECT_LE(test, v, ll_set_base(s) + ticks);
		sum += v - ll_set_base(s);
		KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, s, 1),
				ll_set_exact(s));
	}
	KUNIT_EXPECT_LE(test, sum, ticks);
}

/*
 * Sets switching on their timeout (the shortest) for LL_BUDGET while two
 * readers, one per path (r[0] local, r[1] IPI), read every set's PMDs in
 * one vector.  When it returns the readers are stopped, the context
 * stopped; @run->switches says how often its sets switched.
 */
static void ll_run_set_switch(struct kunit *test, struct ll_run *run)
{
	int cpu = pfmkt_cpu(), other = pfmkt_other_cpu_or_skip(test, cpu);
	unsigned long end = jiffies + LL_BUDGET;
	struct ll_reader **r = run->r;
	struct pfmk_ctx_stats stats;
	struct task_struct *t[2];
	unsigned int s, i;

	run->desc = ll_create_switching(test);
	r[0] = ll_reader_alloc(test, run->desc, cpu);
	r[1] = ll_reader_alloc(test, run->desc, other);
	for (i = 0; i < 2; i++) {
		for (s = 0; s < LL_NR_SETS; s++) {
			ll_entry(r[i], s, 0, LL_MONO, ll_set_base(s));
			ll_entry(r[i], s, 1, LL_EXACT_VAL, ll_set_exact(s));
		}
	}
	pfmkt_load_start(test, run->desc, cpu);
	ll_readers_start(test, r, t);

	for (i = 0; i < 2000 && time_before(jiffies, end); i++) {
		pfmk_test_pmu_tick(cpu, 1);
		run->ticks++;
		if (i % 8 == 7)
			usleep_range(50, 150);
	}
	run->cycles = i;
	ll_readers_stop(r, t);
	KUNIT_ASSERT_EQ(test, pfmk_stop(run->desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_get_stats(run->desc, &stats), 0);
	run->switches = stats.set_switches;
	kunit_info(test, "%llu ticks, %llu switches, %lu + %lu reads\n",
		   run->ticks, run->switches, r[0]->nr_ok, r[1]->nr_ok);
}

/*
 * Every set's PMDs read in one vector while the sets switch, on both
 * paths: reads succeed, each set keeps its own values, counting ones
 * never go back, unused ones read exactly what was written.
 */
static void lockless_read_vs_set_switch(struct kunit *test)
{
	struct ll_run run = {};

	ll_run_set_switch(test, &run);
	KUNIT_ASSERT_GE(test, run.switches, 3ULL);
	ll_expect_readers_sane(test, run.r);
	KUNIT_EXPECT_GT(test, run.r[0]->nr_ok, 0UL);
	KUNIT_EXPECT_GT(test, run.r[1]->nr_ok, 0UL);
}

/*
 * Reads racing with the switches leave each set the ticks it got while
 * active, none while a switch was under way, and its unused PMD as it
 * was written.
 */
static void lockless_set_switch_counts_kept(struct kunit *test)
{
	struct ll_run run = {};

	ll_run_set_switch(test, &run);
	KUNIT_ASSERT_GE(test, run.switches, 3ULL);
	ll_expect_sets(test, run.desc, run.ticks);
}

/*
 * A set created, written and deleted while read with set 0: the read
 * gives set 1's values or says it has no set 1 (-EINVAL, NOSET), and
 * never looks at a set that went away in the middle.
 */
static void lockless_read_vs_set_delete(struct kunit *test)
{
	int cpu = pfmkt_cpu(), other = pfmkt_other_cpu_or_skip(test, cpu);
	unsigned long end = jiffies + LL_BUDGET;
	struct pfarg_setdesc sd;
	struct pfarg_setinfo si;
	struct task_struct *t[2];
	struct ll_fail f = {};
	struct ll_reader *r[2];
	unsigned int i;
	void *desc;

	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	pfmkt_write_pmd(test, desc, 0, LL_EXACT);
	for (i = 0; i < 2; i++) {
		r[i] = ll_reader_alloc(test, desc, i ? other : cpu);
		ll_entry(r[i], 0, 0, LL_EXACT_VAL, LL_EXACT);
		ll_entry(r[i], 1, 0, LL_ZERO_OR, ll_set_exact(1));
		ll_entry(r[i], 1, 1, LL_ZERO_OR, ll_set_exact(2));
		r[i]->noset_entry = 1;
	}
	ll_readers_start(test, r, t);

	for (i = 0; i < 500 && time_before(jiffies, end); i++) {
		memset(&sd, 0, sizeof(sd));
		sd.set_id = 1;
		if (!ll_ok(&f, pfmk_create_evtsets(desc, &sd, 1), "create", i) ||
		    !ll_ok(&f, ll_write(desc, 1, 0, ll_set_exact(1)), "write",
			   i) ||
		    !ll_ok(&f, ll_write(desc, 1, 1, ll_set_exact(2)), "write",
			   i))
			break;
		if (i % 2)
			udelay(i % 20);
		memset(&si, 0, sizeof(si));
		si.set_id = 1;
		if (!ll_ok(&f, pfmk_delete_evtsets(desc, &si, 1), "delete", i))
			break;
	}
	ll_readers_stop(r, t);
	ll_expect_readers_sane(test, r);
	kunit_info(test, "%u deletes, %lu + %lu reads, %lu + %lu without set 1\n",
		   i, r[0]->nr_ok, r[1]->nr_ok, r[0]->nr_noset,
		   r[1]->nr_noset);
	KUNIT_EXPECT_GT(test, r[0]->nr_ok + r[1]->nr_ok, 0UL);
	ll_assert_calls(test, &f);
}

static struct kunit_case pfmk_lockless_cases[] = {
	KUNIT_CASE(lockless_read_vs_close),
	KUNIT_CASE(lockless_close_releases_events),
	KUNIT_CASE(lockless_read_vs_unload),
	KUNIT_CASE(lockless_unload_folds_exact),
	KUNIT_CASE(lockless_unload_counts_kept),
	KUNIT_CASE_SLOW(lockless_read_vs_hotplug),
	KUNIT_CASE_SLOW(lockless_hotplug_rearmed),
	KUNIT_CASE_SLOW(lockless_hotplug_counts_kept),
	KUNIT_CASE(lockless_read_vs_set_switch),
	KUNIT_CASE(lockless_set_switch_counts_kept),
	KUNIT_CASE(lockless_read_vs_set_delete),
	{}
};

static struct kunit_suite pfmk_lockless_suite = {
	.name = "pfmk_lockless",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_lockless_cases,
};

kunit_test_suites(&pfmk_lockless_suite);
