// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_glue_kunit: what pfmk relies on of other subsystems beyond their
 * exports (pfmk_completion_blank(), core/context.c), checked on the
 * running kernel.
 *
 * pfmk_glue: the completion a client gives pfmk_create_context().  pfmk
 * initialises one that is all zero bytes (a 2006 client's static
 * completion, never initialised) and leaves any other alone, which holds
 * only as long as a completion that was completed, or has a waiter, is
 * never all zero: these cases fail if a kernel changes that.  (The perf
 * fields pfmk reads, core/perf.h, are checked by the suites named there.)
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>

#include "pfmk_kunit.h"

#define GLUE_TIMEOUT	(10 * HZ)

/**
 * struct gluet - state of one test
 * @base: the shared per-test state, whose contexts pfmkt_exit() closes.
 * @c: the completion given to pfmk_create_context(), zeroed: not the
 *	initialised one of @base.
 * @waiter: a thread waiting on @c, stopped at exit.
 * @waiting: completed by @waiter just before it waits on @c.
 * @woken: what @waiter's wait on @c returned.
 */
struct gluet {
	struct pfmkt_priv	base;
	struct completion	c;
	struct task_struct	*waiter;
	struct completion	waiting;
	long			woken;
};

static_assert(offsetof(struct gluet, base) == 0);

static int gluet_init(struct kunit *test)
{
	struct gluet *t;
	int ret;

	ret = pfmkt_init_priv(test, sizeof(*t));
	if (ret)
		return ret;
	t = test->priv;
	init_completion(&t->waiting);
	return 0;
}

static void gluet_exit(struct kunit *test)
{
	struct gluet *t = test->priv;

	if (!t)
		return;
	pfmkt_exit(test);
	/* Wakes a waiter pfmk's create may have left behind. */
	if (t->waiter) {
		complete_all(&t->c);
		kthread_stop(t->waiter);
	}
}

/* pfmk_create_context() with t->c; the exit closes the context. */
static void gluet_create(struct kunit *test)
{
	struct gluet *t = test->priv;
	struct pfarg_ctx req;

	pfmkt_ctx_req(&req, "", 0, false);
	pfmkt_create_req(test, &req, &t->c);
}

/* A completion never initialised (all zero) works once given to pfmk. */
static void glue_completion_zero(struct kunit *test)
{
	struct gluet *t = test->priv;

	KUNIT_ASSERT_NULL(test, memchr_inv(&t->c, 0, sizeof(t->c)));
	gluet_create(test);
	KUNIT_EXPECT_NOT_NULL(test, memchr_inv(&t->c, 0, sizeof(t->c)));
	KUNIT_EXPECT_FALSE(test, try_wait_for_completion(&t->c));
	complete(&t->c);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&t->c, GLUE_TIMEOUT),
			0UL);
}

/* A completion completed before pfmk_create_context() stays completed. */
static void glue_completion_done_kept(struct kunit *test)
{
	struct gluet *t = test->priv;

	init_completion(&t->c);
	complete(&t->c);
	gluet_create(test);
	KUNIT_EXPECT_TRUE(test, try_wait_for_completion(&t->c));
	KUNIT_EXPECT_FALSE(test, try_wait_for_completion(&t->c));
}

static int gluet_waiter(void *data)
{
	struct gluet *t = data;

	complete(&t->waiting);
	t->woken = wait_for_completion_timeout(&t->c, GLUE_TIMEOUT);
	return pfmk_test_kthread_park();
}

/* A thread waiting on the completion is woken by a complete() after. */
static void glue_completion_waiter_kept(struct kunit *test)
{
	struct gluet *t = test->priv;
	unsigned long end = jiffies + GLUE_TIMEOUT;
	struct task_struct *thr;

	init_completion(&t->c);
	thr = kthread_run(gluet_waiter, t, "pfmk_glue_waiter");
	KUNIT_ASSERT_FALSE(test, IS_ERR(thr));
	t->waiter = thr;
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&t->waiting,
							  GLUE_TIMEOUT), 0UL);
	/* On the completion's wait list once it sleeps. */
	while (task_is_running(t->waiter) && time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
	KUNIT_ASSERT_FALSE(test, task_is_running(t->waiter));

	gluet_create(test);
	complete(&t->c);
	end = jiffies + GLUE_TIMEOUT;
	while (!READ_ONCE(t->woken) && time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
	KUNIT_EXPECT_GT(test, READ_ONCE(t->woken), 0L);
}

static struct kunit_case pfmk_glue_cases[] = {
	KUNIT_CASE(glue_completion_zero),
	KUNIT_CASE(glue_completion_done_kept),
	KUNIT_CASE(glue_completion_waiter_kept),
	{}
};

static struct kunit_suite pfmk_glue_suite = {
	.name = "pfmk_glue",
	.init = gluet_init,
	.exit = gluet_exit,
	.test_cases = pfmk_glue_cases,
};

kunit_test_suites(&pfmk_glue_suite);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk KUnit suite: other subsystems' internals pfmk relies on");
MODULE_LICENSE("GPL");
