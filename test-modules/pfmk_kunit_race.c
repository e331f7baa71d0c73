// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_race: concurrency, pfmk_read() and descriptor
 * lifetime.
 *
 * Closes racing with reads of the same descriptor, starts and stops racing
 * with reads, pfmk_read() woken by a completion, a signal or a close, and
 * descriptors that stay dead while many contexts come and go.  KASAN and
 * lockdep, when built in, report what the assertions cannot see.
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
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/compat.h>
#include <pfmk/pfmk.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

#define RACE_ITERATIONS		200
#define RACE_VALUE		12345ULL
#define RACE_TIMEOUT		(10 * HZ)
#define RACE_NR_GROW		600
#define RACE_STARTED		(PFM_CTX_LOADED | PFMK_STATE_STARTED)

/**
 * struct race_reader - a kthread hammering one descriptor
 * @desc: the descriptor.
 * @monotonic: PMD 0 must not decrease (else: must equal RACE_VALUE).
 * @started: the thread runs.
 * @nr_ok: successful read_pmds calls.
 * @nr_ebadf: read_pmds calls that returned -EBADF.
 * @bad: results that break the contract (entry 0: PMD 0, -1: the state).
 * @last: last PMD value read.
 */
struct race_reader {
	void			*desc;
	bool			monotonic;
	struct completion	started;
	unsigned long		nr_ok;
	unsigned long		nr_ebadf;
	struct pfmkt_bad	bad;
	u64			last;
};

static int race_reader_fn(void *data)
{
	struct race_reader *r = data;
	struct pfarg_pmd pmd;
	bool dead = false;
	int ret;

	complete(&r->started);
	while (!kthread_should_stop()) {
		memset(&pmd, 0, sizeof(pmd));
		ret = pfmk_read_pmds(r->desc, &pmd, 1);
		if (ret == -EBADF) {
			dead = true;
			r->nr_ebadf++;
		} else if (ret || dead) {
			/* An error, or a success after -EBADF. */
			pfmkt_bad(&r->bad, ret, 0, pmd.reg_value);
		} else {
			r->nr_ok++;
			if (r->monotonic ? pmd.reg_value < r->last :
					   pmd.reg_value != RACE_VALUE)
				pfmkt_bad(&r->bad, ret, 0, pmd.reg_value);
			r->last = pmd.reg_value;
		}

		ret = pfmk_get_state(r->desc);
		if (ret == -EBADF)
			dead = true;
		else if (dead || (ret != RACE_STARTED && ret != PFM_CTX_LOADED))
			pfmkt_bad(&r->bad, ret, -1, 0);
		cond_resched();
	}
	return 0;
}

/* Start a reader, on another CPU than the caller's when there is one. */
static struct task_struct *race_start_reader(struct kunit *test,
					     struct race_reader *r)
{
	int cpu = pfmkt_other_cpu(raw_smp_processor_id());
	struct task_struct *t;

	t = pfmk_test_kthread_start(race_reader_fn, r, cpu, &r->started,
				    "pfmk_race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	return t;
}

/**
 * struct race_close_run - what race_run_close_vs_read() saw
 * @nr_ok: successful reads, over all iterations.
 * @nr_ebadf: reads that saw -EBADF, over all iterations.
 * @bad: the reader's contract breaks in @bad_iter, the last iteration.
 * @bad_iter: the iteration whose reader saw the contract broken.
 * @nr_leaked: iterations that left an event active after the close.
 * @leak_iter: the first of them.
 * @leak_active: how many events it left active.
 */
struct race_close_run {
	unsigned long		nr_ok;
	unsigned long		nr_ebadf;
	struct pfmkt_bad	bad;
	unsigned int		bad_iter;
	unsigned int		nr_leaked;
	unsigned int		leak_iter;
	unsigned int		leak_active;
};

/*
 * RACE_ITERATIONS times, a started context closed while a reader reads
 * it from another CPU, at a varying moment; the reader is stopped before
 * the next.  Stops at the first iteration whose reader saw the contract
 * broken.  Nothing aborts the run while a reader runs: it uses @c.
 */
static void race_run_close_vs_read(struct kunit *test,
				   struct race_close_run *c)
{
	int cpu = pfmkt_cpu();
	struct race_reader *r;
	struct task_struct *t;
	unsigned int i, active;
	void *desc;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	for (i = 0; i < RACE_ITERATIONS && !c->bad.nr; i++) {
		desc = pfmkt_create_started(test, cpu, 1, RACE_VALUE);
		memset(r, 0, sizeof(*r));
		r->desc = desc;
		t = race_start_reader(test, r);

		/* Vary the moment of the close. */
		if (i % 3 == 1)
			usleep_range(10, 20 + i);
		else if (i % 3 == 2)
			udelay(i % 50);
		pfmkt_close(test, desc);
		if (i % 2)
			usleep_range(10, 50);
		kthread_stop(t);

		c->nr_ok += r->nr_ok;
		c->nr_ebadf += r->nr_ebadf;
		c->bad = r->bad;
		c->bad_iter = i;
		active = pfmk_test_pmu_nr_active(cpu);
		if (active && !c->nr_leaked++) {
			c->leak_iter = i;
			c->leak_active = active;
		}
	}
}

/* Close racing with read_pmds/get_state: 0 or -EBADF, nothing else. */
static void race_close_vs_read(struct kunit *test)
{
	struct race_close_run c = {};

	race_run_close_vs_read(test, &c);
	kunit_info(test, "%lu reads succeeded, %lu saw -EBADF\n", c.nr_ok,
		   c.nr_ebadf);
	KUNIT_EXPECT_EQ_MSG(test, c.bad.nr, 0UL,
			    "iteration %u: returned %ld, value %llu",
			    c.bad_iter, c.bad.ret, c.bad.value);
	KUNIT_EXPECT_GT(test, c.nr_ok + c.nr_ebadf, 0UL);
}

/*
 * A close racing with a reader releases the context's events, once the
 * reader is gone, in every iteration.
 */
static void race_close_releases_events(struct kunit *test)
{
	struct race_close_run c = {};

	race_run_close_vs_read(test, &c);
	KUNIT_EXPECT_EQ_MSG(test, c.nr_leaked, 0U,
			    "iteration %u left %u events active", c.leak_iter,
			    c.leak_active);
}

/*
 * A context counting 1 a tick from RACE_VALUE, started on the test CPU,
 * stopped and started RACE_ITERATIONS times, ticked between, while @r
 * reads it from another CPU: the calls never fail.  The reader is
 * stopped on return.
 */
static void *race_run_start_stop(struct kunit *test, struct race_reader **r)
{
	int cpu = pfmkt_cpu();
	struct task_struct *t;
	unsigned int i;
	void *desc;

	*r = kunit_kzalloc(test, sizeof(**r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *r);
	desc = pfmkt_create_started(test, cpu, 1, RACE_VALUE);
	(*r)->desc = desc;
	(*r)->monotonic = true;
	t = race_start_reader(test, *r);
	for (i = 0; i < RACE_ITERATIONS; i++) {
		pfmk_test_pmu_tick(cpu, 1);
		KUNIT_EXPECT_EQ(test, pfmk_stop(desc), 0);
		pfmk_test_pmu_tick(cpu, 1);
		KUNIT_EXPECT_EQ(test, pfmk_start(desc, NULL), 0);
	}
	kthread_stop(t);
	return desc;
}

/* start/stop racing with reads: read values never go back, nor fail. */
static void race_start_stop_vs_read(struct kunit *test)
{
	struct race_reader *r;

	race_run_start_stop(test, &r);
	KUNIT_EXPECT_EQ_MSG(test, r->bad.nr, 0UL, "returned %ld, value %llu",
			    r->bad.ret, r->bad.value);
	KUNIT_EXPECT_EQ(test, r->nr_ebadf, 0UL);
}

/* start/stop racing with reads: the ticks while started all count. */
static void race_start_stop_counts(struct kunit *test)
{
	struct race_reader *r;
	void *desc = race_run_start_stop(test, &r);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			RACE_VALUE + RACE_ITERATIONS);
}

/**
 * struct race_msg_reader - a kthread blocked in pfmk_read()
 * @desc: the descriptor.
 * @allow_kill: the thread accepts SIGKILL.
 * @self_kill: the thread sends itself SIGKILL before reading.
 * @ret: what pfmk_read() returned.
 * @msg: the message buffer.
 * @started: the thread is about to call pfmk_read().
 * @finished: pfmk_read() returned.
 */
struct race_msg_reader {
	void			*desc;
	bool			allow_kill;
	bool			self_kill;
	ssize_t			ret;
	union pfm_msg		msg;
	struct completion	started;
	struct completion	finished;
};

static int race_msg_reader_fn(void *data)
{
	struct race_msg_reader *r = data;

	if (r->allow_kill)
		allow_signal(SIGKILL);
	if (r->self_kill)
		send_sig(SIGKILL, current, 1);
	complete(&r->started);
	r->ret = pfmk_read(r->desc, &r->msg, sizeof(r->msg), 0);
	flush_signals(current);
	complete(&r->finished);

	return pfmk_test_kthread_park();
}

/* Start @r's thread; an ERR_PTR() if there is none, without failing. */
static struct task_struct *race_try_start_msg_reader(struct race_msg_reader *r)
{
	init_completion(&r->finished);
	r->ret = 1;
	return pfmk_test_kthread_start(race_msg_reader_fn, r, -1, &r->started,
				       "pfmk_read");
}

static struct task_struct *race_start_msg_reader(struct kunit *test,
						 struct race_msg_reader *r)
{
	struct task_struct *t = race_try_start_msg_reader(r);

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	return t;
}

/*
 * Wait for the reader to return; if it does not, wake it through the
 * context's completion so that the test can end, and fail.
 */
static void race_join_msg_reader(struct kunit *test, struct task_struct *t,
				 struct race_msg_reader *r)
{
	struct pfmkt_priv *priv = test->priv;

	if (!wait_for_completion_timeout(&r->finished, RACE_TIMEOUT)) {
		KUNIT_FAIL(test, "pfmk_read() did not return");
		complete_all(&priv->done);
		wait_for_completion(&r->finished);
	}
	kthread_stop(t);
}

/* A message reader of @desc, not started. */
static struct race_msg_reader *race_msg_reader_new(struct kunit *test,
						   void *desc)
{
	struct race_msg_reader *r = kunit_kzalloc(test, sizeof(*r),
						  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->desc = desc;
	return r;
}

/* A context whose completion someone else completed. */
static void *race_completed_ctx(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	complete(&priv->done);
	return desc;
}

/*
 * The completion completed by someone else before pfmk_read(): it
 * returns 0 at once.
 */
static void race_read_completion(struct kunit *test)
{
	void *desc = race_completed_ctx(test);
	union pfm_msg msg;

	KUNIT_EXPECT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 0),
			(ssize_t)0);
}

/* That read consumes the completion: a second, non-blocking one -EAGAIN. */
static void race_read_completion_consumed(struct kunit *test)
{
	void *desc = race_completed_ctx(test);
	union pfm_msg msg;

	KUNIT_ASSERT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 0),
			(ssize_t)0);
	KUNIT_EXPECT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)-EAGAIN);
}

/*
 * Poll, with a bound, until @r's reader sleeps interruptibly without
 * having returned: the only such sleep between its start and its return
 * is pfmk_read()'s wait on the completion (its park comes after
 * ->finished).  The state is read before ->finished, so a parked reader
 * is not taken for a waiting one.
 */
static bool race_reader_waits(struct task_struct *t,
			      struct race_msg_reader *r)
{
	unsigned long end = jiffies + RACE_TIMEOUT;

	for (;;) {
		if ((READ_ONCE(t->__state) & TASK_INTERRUPTIBLE) &&
		    !completion_done(&r->finished))
			return true;
		if (completion_done(&r->finished) || time_after(jiffies, end))
			return false;
		usleep_range(100, 200);
	}
}

/*
 * Start a reader of @desc (@allow_kill: it takes SIGKILL) and ASSERT that
 * it waits in pfmk_read(); if it does not, it is woken and joined first.
 */
static struct task_struct *race_waiting_reader(struct kunit *test,
					       void *desc, bool allow_kill,
					       struct race_msg_reader **rp)
{
	struct pfmkt_priv *priv = test->priv;
	struct race_msg_reader *r = race_msg_reader_new(test, desc);
	struct task_struct *t;
	bool waits;

	r->allow_kill = allow_kill;
	t = race_start_msg_reader(test, r);
	waits = race_reader_waits(t, r);
	if (!waits) {
		complete_all(&priv->done);
		race_join_msg_reader(test, t, r);
	}
	KUNIT_ASSERT_TRUE_MSG(test, waits, "pfmk_read() did not wait");
	*rp = r;
	return t;
}

/*
 * With no message and nothing completed, pfmk_read() waits: its reader
 * gets to the wait, and 20 ms later still has not returned.
 */
static void race_read_blocks(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct race_msg_reader *r = race_msg_reader_new(test, desc);
	struct task_struct *t;

	t = race_start_msg_reader(test, r);
	KUNIT_EXPECT_TRUE(test, race_reader_waits(t, r));
	msleep(20);
	KUNIT_EXPECT_FALSE(test, completion_done(&r->finished));
	complete(&priv->done);
	race_join_msg_reader(test, t, r);
}

/* The completion completed while pfmk_read() waits: it returns 0. */
static void race_read_completion_waiting(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct race_msg_reader *r;
	struct task_struct *t;

	t = race_waiting_reader(test, desc, false, &r);
	complete(&priv->done);
	race_join_msg_reader(test, t, r);
	KUNIT_EXPECT_EQ(test, r->ret, (ssize_t)0);
}

/* A signal pending before pfmk_read() ends it with -ERESTARTSYS. */
static void race_read_signal(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct race_msg_reader *r = race_msg_reader_new(test, desc);
	struct task_struct *t;

	r->allow_kill = true;
	r->self_kill = true;
	t = race_start_msg_reader(test, r);
	race_join_msg_reader(test, t, r);
	KUNIT_EXPECT_EQ(test, r->ret, (ssize_t)-ERESTARTSYS);
}

/* A signal while pfmk_read() waits ends the wait with -ERESTARTSYS. */
static void race_read_signal_waiting(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct race_msg_reader *r;
	struct task_struct *t;

	t = race_waiting_reader(test, desc, true, &r);
	send_sig(SIGKILL, t, 1);
	race_join_msg_reader(test, t, r);
	KUNIT_EXPECT_EQ(test, r->ret, (ssize_t)-ERESTARTSYS);
}

/* The context stays as it was after that signal: unloaded. */
static void race_read_signal_keeps_state(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct race_msg_reader *r;
	struct task_struct *t;

	t = race_waiting_reader(test, desc, true, &r);
	send_sig(SIGKILL, t, 1);
	race_join_msg_reader(test, t, r);
	KUNIT_ASSERT_EQ(test, r->ret, (ssize_t)-ERESTARTSYS);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/* Closing a context wakes its waiting readers, which get -EBADF. */
static void race_close_wakes_reader(struct kunit *test)
{
	void *desc = pfmkt_create_started(test, pfmkt_cpu(), 1, RACE_VALUE);
	struct race_msg_reader *r;
	struct task_struct *t;

	t = race_waiting_reader(test, desc, false, &r);
	pfmkt_close(test, desc);
	race_join_msg_reader(test, t, r);
	KUNIT_EXPECT_EQ(test, r->ret, (ssize_t)-EBADF);
}

/**
 * struct race_shared - two readers of two contexts that share a completion
 * @ra: the reader of the context closed first.
 * @rb: the reader of the other, which waits first.
 */
struct race_shared {
	struct race_msg_reader	*ra;
	struct race_msg_reader	*rb;
};

/*
 * The completion may be shared by several contexts (and other events of
 * the owner): B's reader waits, then A's; A is closed and its reader
 * joined, then B and its reader.  Both readers are joined when it
 * returns, whatever failed.
 */
static void race_shared_run(struct kunit *test, struct race_shared *s)
{
	struct task_struct *ta, *tb;
	bool waiting;

	s->ra = race_msg_reader_new(test, pfmkt_create(test,
						       PFMK_TEST_PMU_NAME));
	s->rb = race_msg_reader_new(test, pfmkt_create(test,
						       PFMK_TEST_PMU_NAME));
	/* B's reader waits first, so a single complete() would wake it. */
	tb = race_start_msg_reader(test, s->rb);
	msleep(20);
	ta = race_try_start_msg_reader(s->ra);
	if (IS_ERR(ta)) {
		/* B's reader is not left behind: B's close ends its wait. */
		pfmkt_close(test, s->rb->desc);
		race_join_msg_reader(test, tb, s->rb);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ta));
	}
	msleep(20);
	waiting = !completion_done(&s->ra->finished) &&
		  !completion_done(&s->rb->finished);
	pfmkt_close(test, s->ra->desc);
	race_join_msg_reader(test, ta, s->ra);
	pfmkt_close(test, s->rb->desc);
	race_join_msg_reader(test, tb, s->rb);
	KUNIT_ASSERT_TRUE_MSG(test, waiting,
			      "a reader returned before its context's close");
}

/* Closing a context of a shared completion wakes its own reader. */
static void race_close_shared_completion_wakes_own_reader(struct kunit *test)
{
	struct race_shared s;

	race_shared_run(test, &s);
	KUNIT_EXPECT_EQ(test, s.ra->ret, (ssize_t)-EBADF);
}

/*
 * The other context's reader may have been woken by the first close (0)
 * or waited on until its own context's close (-EBADF).
 */
static void race_close_shared_completion_other_reader_ok(struct kunit *test)
{
	struct race_shared s;

	race_shared_run(test, &s);
	KUNIT_EXPECT_TRUE_MSG(test, s.rb->ret == 0 || s.rb->ret == -EBADF,
			      "returned %zd", s.rb->ret);
}

#define RACE_NR_NEW	1000
#define RACE_NR_OPEN	32

/*
 * Create and close a context, then create and close RACE_NR_NEW contexts
 * (half of them generic) and leave RACE_NR_OPEN open in @open.
 * @old: output: the closed context's descriptor.
 * @reused: output: how many of the new descriptors equal @old.
 * Return: how many of the checks every 100 contexts found @old valid.
 */
static unsigned int race_churn(struct kunit *test, void **open, void **old,
			       unsigned int *reused)
{
	unsigned int i, valid = 0;
	void *desc;

	*old = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	pfmkt_close(test, *old);
	*reused = 0;
	for (i = 0; i < RACE_NR_NEW; i++) {
		desc = pfmkt_create(test, i % 2 ? "" : PFMK_TEST_PMU_NAME);
		*reused += desc == *old;
		pfmkt_close(test, desc);
		if (i % 100 == 0)
			valid += pfmk_get_state(*old) != -EBADF;
	}
	for (i = 0; i < RACE_NR_OPEN; i++) {
		open[i] = pfmkt_create(test, PFMK_TEST_PMU_NAME);
		*reused += open[i] == *old;
	}
	return valid;
}

/* A closed descriptor is not handed out again while many come and go. */
static void race_handles_not_reused(struct kunit *test)
{
	void *open[RACE_NR_OPEN];
	unsigned int reused;
	void *old;

	race_churn(test, open, &old, &reused);
	KUNIT_EXPECT_EQ_MSG(test, reused, 0, "closed descriptor handed out");
}

/* A closed descriptor does not become valid again while many come and go. */
static void race_handles_not_valid_again(struct kunit *test)
{
	void *open[RACE_NR_OPEN];
	unsigned int reused;
	void *old;

	KUNIT_EXPECT_EQ_MSG(test, race_churn(test, open, &old, &reused), 0,
			    "closed descriptor valid again");
}

/* After that churn, calls on the closed descriptor are refused: -EBADF. */
static void race_handles_closed_refused(struct kunit *test)
{
	void *open[RACE_NR_OPEN];
	unsigned int reused;
	void *old;

	race_churn(test, open, &old, &reused);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(old), -EBADF);
	KUNIT_EXPECT_EQ(test, pfmk_read_pmds(old, NULL, 0), -EBADF);
	KUNIT_EXPECT_EQ(test, pfmk_close(old), -EBADF);
}

/* The contexts left open through that churn are still UNLOADED. */
static void race_handles_open_unloaded(struct kunit *test)
{
	void *open[RACE_NR_OPEN];
	unsigned int i, reused;
	void *old;

	race_churn(test, open, &old, &reused);
	for (i = 0; i < RACE_NR_OPEN; i++)
		KUNIT_EXPECT_EQ(test, pfmk_get_state(open[i]),
				PFM_CTX_UNLOADED);
}

/*
 * Create RACE_NR_GROW contexts in @open, enough to replace the descriptor
 * table several times (64 slots at first, doubled when full; no suite
 * before this one holds as many open), ticking @cpu now and then.
 *
 * Return: 0, or the errno of the first create that failed.
 */
static int race_grow_table(struct kunit *test, void **open, int cpu)
{
	struct pfarg_ctx req;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < RACE_NR_GROW && !ret; i++) {
		pfmkt_ctx_req(&req, i % 2 ? "" : PFMK_TEST_PMU_NAME, 0, false);
		ret = pfmkt_try_create(test, &req, &open[i]);
		if (i % 64 == 0)
			pfmk_test_pmu_tick(cpu, 1);
	}
	return ret;
}

/*
 * Close every other context of @open (filled by race_grow_table()) and
 * create one in its place, until a create fails.
 *
 * Return: the highest table index of the contexts created.
 */
static u32 race_refill_half(struct kunit *test, void **open)
{
	struct pfarg_ctx req;
	unsigned int i;
	u32 top = 0;

	for (i = 0; i < RACE_NR_GROW && open[i]; i += 2) {
		pfmkt_close(test, open[i]);
		open[i] = NULL;
		pfmkt_ctx_req(&req, "", 0, false);
		if (pfmkt_try_create(test, &req, &open[i]))
			break;
		top = max(top, lower_32_bits((unsigned long)open[i]));
	}
	return top;
}

/* Close the contexts of @open. */
static void race_close_all(struct kunit *test, void **open)
{
	unsigned int i;

	for (i = 0; i < RACE_NR_GROW; i++)
		if (open[i])
			pfmkt_close(test, open[i]);
}

/**
 * struct race_growth - what a table growth run found
 * @r: the reader of the started context, stopped.
 * @desc: the started context.
 * @ret: race_grow_table()'s result.
 * @nr_lost: descriptors created before the growth that did not resolve
 *	to their unloaded context after it.
 * @lost: the state the last of them returned.
 */
struct race_growth {
	struct race_reader	*r;
	void			*desc;
	int			ret;
	unsigned int		nr_lost;
	int			lost;
};

/*
 * Lookups racing with the descriptor table's growth and its slots'
 * reuse: a reader hammers one started context while the table grows and
 * half of its slots are freed and taken again; every descriptor created
 * is looked up once the table grew.  Nothing aborts the run while the
 * reader runs: it uses @g.
 */
static void race_run_table_growth(struct kunit *test, struct race_growth *g)
{
	int cpu = pfmkt_cpu();
	struct task_struct *t;
	unsigned int i;
	void **open;
	int st;

	open = kunit_kcalloc(test, RACE_NR_GROW, sizeof(*open), GFP_KERNEL);
	g->r = kunit_kzalloc(test, sizeof(*g->r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, open);
	KUNIT_ASSERT_NOT_NULL(test, g->r);
	g->desc = pfmkt_create_started(test, cpu, 1, RACE_VALUE);
	g->r->desc = g->desc;
	g->r->monotonic = true;
	t = race_start_reader(test, g->r);
	g->ret = race_grow_table(test, open, cpu);
	for (i = 0; i < RACE_NR_GROW && open[i]; i++) {
		st = pfmk_get_state(open[i]);
		if (st != PFM_CTX_UNLOADED) {
			g->nr_lost++;
			g->lost = st;
		}
	}
	race_refill_half(test, open);
	kthread_stop(t);
	race_close_all(test, open);
}

/* Reads racing with the descriptor table's growth never fail. */
static void race_read_vs_table_growth(struct kunit *test)
{
	struct race_growth g = {};

	race_run_table_growth(test, &g);
	KUNIT_EXPECT_EQ_MSG(test, g.r->bad.nr, 0UL, "returned %ld, value %llu",
			    g.r->bad.ret, g.r->bad.value);
	KUNIT_EXPECT_EQ(test, g.r->nr_ebadf, 0UL);
	KUNIT_EXPECT_GT(test, g.r->nr_ok, 0UL);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(g.desc), RACE_STARTED);
}

/*
 * The table grows (its array replaced) while read: every descriptor
 * created before a replacement still resolves after it.
 */
static void race_table_growth_old_resolve(struct kunit *test)
{
	struct race_growth g = {};

	race_run_table_growth(test, &g);
	KUNIT_EXPECT_EQ(test, g.ret, 0);
	KUNIT_EXPECT_EQ_MSG(test, g.nr_lost, 0U, "state %d", g.lost);
}

/*
 * Freed slots of a grown descriptor table are reused: with every other
 * slot freed and refilled, no new descriptor's index is past the highest
 * the table had.
 */
static void race_table_slots_reused(struct kunit *test)
{
	unsigned int i;
	u32 top = 0;
	void **open;

	open = kunit_kcalloc(test, RACE_NR_GROW, sizeof(*open), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, open);
	KUNIT_ASSERT_EQ(test, race_grow_table(test, open, pfmkt_cpu()), 0);
	for (i = 0; i < RACE_NR_GROW && open[i]; i++)
		top = max(top, lower_32_bits((unsigned long)open[i]));
	KUNIT_EXPECT_LE(test, race_refill_half(test, open), top);
	race_close_all(test, open);
}

/* A KAPI call run by a kernel thread, for calls that block. */
struct race_call {
	void *desc;
	int which;
	long ret;
	struct task_struct *task;
	struct completion done;
};

enum { RACE_LOAD, RACE_CLOSE, RACE_STATE, RACE_NR_CALLS };

/* How far race_queue_behind_load() got. */
enum { RACE_NONE, RACE_CLOSING, RACE_QUEUED, RACE_STUCK };

/* What a close-vs-waiting-call case shares with its threads. */
struct race_wait {
	struct pfmk_test_hold hold;
	struct race_call call[RACE_NR_CALLS];
	int got;
};

static int race_call_fn(void *arg)
{
	struct race_call *c = arg;
	struct pfarg_load load;

	switch (c->which) {
	case RACE_LOAD:
		pfmkt_load_req(&load, pfmkt_cpu(), 0);
		c->ret = pfmk_load_context(c->desc, &load);
		break;
	case RACE_CLOSE:
		c->ret = pfmk_close(c->desc);
		break;
	default:
		c->ret = pfmk_get_state(c->desc);
	}
	complete(&c->done);
	return 0;
}

static bool race_call_start(struct race_call *c, void *desc, int which)
{
	struct task_struct *t;

	c->desc = desc;
	c->which = which;
	init_completion(&c->done);
	t = kthread_create(race_call_fn, c, "pfmk_race_call/%d", which);
	if (IS_ERR(t))
		return false;
	get_task_struct(t);
	c->task = t;
	wake_up_process(t);
	return true;
}

/* Wait until a started call sleeps uninterruptibly: on the mutex, here. */
static bool race_call_sleeps(struct race_call *c)
{
	unsigned long end = jiffies + RACE_TIMEOUT;

	while (!(READ_ONCE(c->task->__state) & TASK_UNINTERRUPTIBLE)) {
		if (completion_done(&c->done) || time_after(jiffies, end))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

/* Wait for a started call; false if it never returned. */
static bool race_call_finish(struct race_call *c)
{
	bool done;

	if (!c->task)
		return true;
	done = wait_for_completion_timeout(&c->done, RACE_TIMEOUT);
	put_task_struct(c->task);
	c->task = NULL;
	return done;
}

/*
 * The load holds the context's mutex, blocked in the test PMU's
 * pmc_to_attr(); then the close, then a call, queue on the mutex, in
 * that order.  Releases the load whatever happened.
 *
 * Return: RACE_QUEUED if all three got there, RACE_CLOSING if the close
 * was started, RACE_NONE if not, RACE_STUCK if a call never returned.
 */
static int race_queue_behind_load(struct kunit *test, struct race_wait *w,
				  void *desc)
{
	int i, got = RACE_NONE;
	bool finished = true;

	pfmk_test_pmu_hold_next_load(&w->hold);
	if (!race_call_start(&w->call[RACE_LOAD], desc, RACE_LOAD) ||
	    !wait_for_completion_timeout(&w->hold.entered, RACE_TIMEOUT)) {
		KUNIT_FAIL(test, "the load did not reach the test PMU");
		goto out;
	}
	if (!race_call_start(&w->call[RACE_CLOSE], desc, RACE_CLOSE)) {
		KUNIT_FAIL(test, "no thread for the close");
		goto out;
	}
	got = RACE_CLOSING;
	if (!race_call_sleeps(&w->call[RACE_CLOSE]) ||
	    !race_call_start(&w->call[RACE_STATE], desc, RACE_STATE) ||
	    !race_call_sleeps(&w->call[RACE_STATE])) {
		KUNIT_FAIL(test, "the close and the call did not both wait");
		goto out;
	}
	got = RACE_QUEUED;
out:
	/* Disarm, if the load never took the hold, and let it go on. */
	pfmk_test_pmu_hold_next_load(NULL);
	complete(&w->hold.release);
	for (i = 0; i < RACE_NR_CALLS; i++)
		finished &= race_call_finish(&w->call[i]);
	if (!finished) {
		KUNIT_FAIL(test, "a call never returned");
		return RACE_STUCK;
	}
	return got;
}

/*
 * A context on the test PMU whose load holds its mutex while a close,
 * then a call, queue on it (race_queue_behind_load()); @g0 gets the
 * global stats from before the context.  The context is closed: *@desc
 * is no longer tracked.
 *
 * Return: the calls (->got says how far they got), or NULL when the
 * case is over: the set-up failed, or a call never returned (it keeps
 * the memory and the context, on purpose).
 */
static struct race_wait *race_close_queued(struct kunit *test,
					   struct pfmk_global_stats *g0,
					   void **desc)
{
	struct race_wait *w;

	KUNIT_ASSERT_EQ(test, pfmk_get_global_stats(g0), 0);
	*desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	pfmkt_write_pmc(test, *desc, 0, PFMK_TEST_PMC(1));
	/* Not kunit memory: a call that never returns keeps using it. */
	w = pfmk_kzalloc_obj(*w, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	init_completion(&w->hold.entered);
	init_completion(&w->hold.release);

	w->got = race_queue_behind_load(test, w, *desc);
	if (w->got == RACE_STUCK)
		return NULL;
	if (w->got == RACE_NONE) {
		pfmkt_close(test, *desc);
		kfree(w);
		return NULL;
	}
	pfmkt_forget(test, *desc);
	return w;
}

/*
 * race_close_queued() run to the end: the calls all queued, and their
 * returns in @ret.  Aborts the case if they did not (the set-up failed).
 */
static void race_close_queued_rets(struct kunit *test,
				   struct pfmk_global_stats *g0,
				   long *ret, void **desc)
{
	struct race_wait *w;
	int got, i;

	w = race_close_queued(test, g0, desc);
	KUNIT_ASSERT_NOT_NULL(test, w);
	got = w->got;
	for (i = 0; i < RACE_NR_CALLS; i++)
		ret[i] = w->call[i].ret;
	kfree(w);
	KUNIT_ASSERT_EQ(test, got, RACE_QUEUED);
}

/**
 * struct race_queued_ret - what one call of race_close_queued_rets() returns
 * @name: the row's name.
 * @call: RACE_LOAD, RACE_CLOSE or RACE_STATE.
 * @ret: its return.
 */
struct race_queued_ret {
	const char	*name;
	unsigned int	call;
	long		ret;
};

/*
 * A call that finds the context's mutex busy sleeps on it.  A close
 * queued behind a load, then a call queued behind both
 * (race_close_queued_rets()): the load that held the mutex returns 0, the
 * close that gets it next returns 0, and the call queued behind the close
 * gets -EBADF once it has the mutex.
 */
static const struct race_queued_ret race_queued_rets[] = {
	{ "load_runs",	RACE_LOAD,	0 },
	{ "close_runs",	RACE_CLOSE,	0 },
	{ "ebadf",	RACE_STATE,	-EBADF },
};

static void race_queued_ret_desc(const struct race_queued_ret *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(race_queued_ret, race_queued_rets, race_queued_ret_desc);

static void race_close_vs_waiting_call_rets(struct kunit *test)
{
	const struct race_queued_ret *r = test->param_value;
	struct pfmk_global_stats g0;
	long ret[RACE_NR_CALLS];
	void *desc;

	race_close_queued_rets(test, &g0, ret, &desc);
	KUNIT_EXPECT_EQ(test, ret[r->call], r->ret);
}

/* After all that, the descriptor is closed: a later call gets -EBADF. */
static void race_close_vs_waiting_call_closed_after(struct kunit *test)
{
	struct pfmk_global_stats g0;
	long ret[RACE_NR_CALLS];
	void *desc;

	race_close_queued_rets(test, &g0, ret, &desc);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), -EBADF);
}

/*
 * The call waiting on the mutex holds a reference of its own, as every
 * call holds one (pfmk_desc_lock()).  Turned away by the close queued
 * before it, it drops the reference: no event of the test PMU stays
 * active.
 */
static void race_waiting_call_drops_ref_events(struct kunit *test)
{
	struct pfmk_global_stats g0;
	long ret[RACE_NR_CALLS];
	void *desc;

	race_close_queued_rets(test, &g0, ret, &desc);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(pfmkt_cpu()), 0U);
}

/*
 * And no context stays open or alive: the pfmk-wide counters are back
 * where they were before the context.
 */
static void race_waiting_call_drops_ref_ctx(struct kunit *test)
{
	struct pfmk_global_stats g0, g;
	long ret[RACE_NR_CALLS];
	void *desc;

	race_close_queued_rets(test, &g0, ret, &desc);
	KUNIT_ASSERT_EQ(test, pfmk_get_global_stats(&g), 0);
	KUNIT_EXPECT_EQ(test, g.ctx_open, g0.ctx_open);
	KUNIT_EXPECT_LE(test, g.ctx_alive, g0.ctx_alive);
}

static struct kunit_case pfmk_race_cases[] = {
	KUNIT_CASE_SLOW(race_close_vs_read),
	KUNIT_CASE_SLOW(race_close_releases_events),
	KUNIT_CASE(race_start_stop_vs_read),
	KUNIT_CASE(race_start_stop_counts),
	KUNIT_CASE(race_read_completion),
	KUNIT_CASE(race_read_completion_consumed),
	KUNIT_CASE(race_read_blocks),
	KUNIT_CASE(race_read_completion_waiting),
	KUNIT_CASE(race_read_signal),
	KUNIT_CASE(race_read_signal_waiting),
	KUNIT_CASE(race_read_signal_keeps_state),
	KUNIT_CASE(race_close_wakes_reader),
	KUNIT_CASE(race_close_shared_completion_wakes_own_reader),
	KUNIT_CASE(race_close_shared_completion_other_reader_ok),
	KUNIT_CASE(race_handles_not_reused),
	KUNIT_CASE(race_handles_not_valid_again),
	KUNIT_CASE(race_handles_closed_refused),
	KUNIT_CASE(race_handles_open_unloaded),
	KUNIT_CASE_SLOW(race_read_vs_table_growth),
	KUNIT_CASE_SLOW(race_table_growth_old_resolve),
	KUNIT_CASE_SLOW(race_table_slots_reused),
	KUNIT_CASE_PARAM(race_close_vs_waiting_call_rets,
			 race_queued_ret_gen_params),
	KUNIT_CASE(race_close_vs_waiting_call_closed_after),
	KUNIT_CASE(race_waiting_call_drops_ref_events),
	KUNIT_CASE(race_waiting_call_drops_ref_ctx),
	{}
};

static struct kunit_suite pfmk_race_suite = {
	.name = "pfmk_race",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_race_cases,
};

kunit_test_suites(&pfmk_race_suite);
