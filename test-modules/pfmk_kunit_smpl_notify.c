// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_smpl_notify: masking, overflow messages and
 * pfmk_restart() (Documentation/sampling.rst): a notifying PMD, a full
 * message queue, blocked readers, calls on a masked context, close and
 * unload while sampling (a full buffer: pfmk_smpl_full).  Every case runs on the
 * deterministic test PMU (pfmk_test_pmu_tick()).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"
#include "pfmk_kunit_smpl_notify.h"
#include "pfmk_test_pmu.h"

#define NOTIFY_BUF		4096ULL
/* The entries of 40 bytes (no sampled PMD) room_setup()'s buffer holds. */
#define NOTIFY_ROOM		10U

/* PMD0 samples every NOTIFY_P ticks with OVFL_NOTIFY, long reset -L. */
static void *notify_setup(struct kunit *test, int cpu, u32 ctx_flags,
			  u64 buf_size, void **buf)
{
	const struct pfmkt_pmd p = {
		.value = -NOTIFY_P,
		.short_reset = -NOTIFY_P,
		.long_reset = -NOTIFY_L,
		.flags = PFM_REGFL_OVFL_NOTIFY,
	};
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, ctx_flags, buf_size,
				buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_smpl_pmd(test, desc, 0, &p);
	pfmkt_load_start(test, desc, cpu);
	return desc;
}

/*
 * No format: PMD0 (step 1) samples as in notify_setup(), PMD1 (step 1)
 * counts.  NOTIFY_P ticks mask the context; returns it masked, the
 * notification received (its message unread) and, if @stop, stopped.
 */
static void *notify_masked(struct kunit *test, int cpu, bool stop)
{
	const struct pfmkt_pmd p = {
		.value = -NOTIFY_P,
		.short_reset = -NOTIFY_P,
		.long_reset = -NOTIFY_L,
		.flags = PFM_REGFL_OVFL_NOTIFY,
	};
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, 0, NULL);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(1));
	pfmkt_write_smpl_pmd(test, desc, 0, &p);
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	pfmkt_wait_notify(test);
	if (stop) {
		KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
		KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFM_CTX_MASKED);
	}
	return desc;
}

/*
 * notify_masked() (running), its overflow message read: the message
 * itself is smpl_notify_msg's; here it is set-up.
 */
static void *notify_masked_read(struct kunit *test, int cpu)
{
	void *desc = notify_masked(test, cpu, false);
	union pfm_msg msg;

	memset(&msg, 0x5a, sizeof(msg));
	KUNIT_ASSERT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)sizeof(msg));
	KUNIT_ASSERT_EQ(test, msg.type, (u32)PFM_MSG_OVFL);
	KUNIT_ASSERT_EQ(test, msg.pfm_ovfl_msg.msg_ovfl_pmds[0], 1ULL);
	return desc;
}

/* Before any tick there is nothing to restart. */
static void smpl_notify_restart_before_period(struct kunit *test)
{
	void *desc = notify_setup(test, pfmkt_cpu(), 0, 0, NULL);

	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -EBUSY);
}

/* Before its period ends: no message, no completion. */
static void smpl_notify_none_before_period(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	int cpu = pfmkt_cpu();
	void *desc;

	desc = notify_setup(test, cpu, 0, 0, NULL);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), -EBUSY);
	pfmk_test_pmu_tick(cpu, NOTIFY_P - 1);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
	pfmkt_expect_no_msg(test, desc);
	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));
}

/* OVFL_NOTIFY without a format: the overflow masks and sends one message. */
static void smpl_notify_msg(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = notify_setup(test, cpu, 0, 0, NULL);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	notify_expect_one_msg(test, desc, cpu);
}

/*
 * notify_masked_read(), then 2 * NOTIFY_P + 1 ticks: masked, the PMD is
 * not reset (its short reset is dropped, the long reset waits for
 * restart) and runs on from its wrap.
 */
static void *notify_masked_ran_on(struct kunit *test, int cpu)
{
	void *desc = notify_masked_read(test, cpu);

	pfmk_test_pmu_tick(cpu, 2 * NOTIFY_P + 1);
	return desc;
}

/* Ticks while masked do not unmask the context. */
static void smpl_notify_masked_runs_on_state(struct kunit *test)
{
	void *desc = notify_masked_ran_on(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
}

/* Masked, the PMD is not reset: it counts on from its wrap. */
static void smpl_notify_masked_runs_on_counts(struct kunit *test)
{
	void *desc = notify_masked_ran_on(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 2 * NOTIFY_P + 1);
}

/* Running on past its wrap while masked is no further overflow. */
static void smpl_notify_masked_runs_on_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 1,
					     .notify_count = 1 };
	void *desc = notify_masked_ran_on(test, pfmkt_cpu());

	pfmkt_expect_stats(test, desc, &want);
}

/* Nothing is notified while masked: no message, no completion. */
static void smpl_notify_masked_runs_on_silent(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	void *desc = notify_masked_ran_on(test, pfmkt_cpu());

	pfmkt_expect_no_msg(test, desc);
	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));
}

/* pfmk_restart() unmasks with the long reset. */
static void smpl_notify_restart(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = notify_masked(test, cpu, false);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
}

/* A second pfmk_restart(): -EBUSY, and not counted. */
static void smpl_notify_restart_twice(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 1,
					     .notify_count = 1,
					     .restarts = 1 };
	int cpu = pfmkt_cpu();
	void *desc;

	desc = notify_masked(test, cpu, false);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -EBUSY);
	pfmkt_expect_stats(test, desc, &want);
}

/* notify_masked_read(), restarted, then L - 1 ticks. */
static void *notify_long_almost(struct kunit *test, int cpu)
{
	void *desc = notify_masked_read(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	pfmk_test_pmu_tick(cpu, NOTIFY_L - 1);
	return desc;
}

/* After a restart no overflow comes before L ticks: PMD0 is at -1. */
static void smpl_notify_next_after_long_not_before(struct kunit *test)
{
	void *desc = notify_long_almost(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -1ULL);
}

/* notify_long_almost(), then the L-th tick: the second overflow. */
static void *notify_long_overflowed(struct kunit *test, int cpu)
{
	void *desc = notify_long_almost(test, cpu);

	pfmk_test_pmu_tick(cpu, 1);
	return desc;
}

/* The L-th tick after the restart overflows, masks and notifies. */
static void smpl_notify_next_after_long_masks_and_notifies(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = notify_long_overflowed(test, cpu);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	notify_expect_one_msg(test, desc, cpu);
}

/* The overflow that masks leaves PMD0 at its wrap, 0, not reset. */
static void smpl_notify_next_after_long_pmd_not_reset(struct kunit *test)
{
	void *desc = notify_long_overflowed(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 0ULL);
}

/* Two overflows, two notifications, one restart. */
static void smpl_notify_next_after_long_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 2,
					     .notify_count = 2,
					     .restarts = 1 };
	void *desc = notify_long_overflowed(test, pfmkt_cpu());

	pfmkt_wait_notify(test);
	pfmkt_expect_stats(test, desc, &want);
}

/* Restart on a stopped, masked context: unmasked, still stopped. */
static void smpl_notify_restart_stopped(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = notify_masked(test, cpu, true);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
}

/* Restart on an unloaded context: -ENOTCONN. */
static void smpl_notify_restart_unloaded(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = notify_masked(test, cpu, true);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -ENOTCONN);
}

/* PFM_FL_OVFL_NO_MSG: masked and completed, but no message. */
static void smpl_notify_no_msg(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = notify_setup(test, cpu, PFM_FL_OVFL_NO_MSG, 0, NULL);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	pfmkt_wait_notify(test);
	pfmkt_expect_no_msg(test, desc);
}

/* PFM_FL_OVFL_NO_MSG: masked by NOTIFY_P ticks, notified, restarted. */
static void *notify_no_msg_restarted(struct kunit *test, int cpu)
{
	void *desc;

	desc = notify_setup(test, cpu, PFM_FL_OVFL_NO_MSG, 0, NULL);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	pfmkt_wait_notify(test);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	return desc;
}

/* PFM_FL_OVFL_NO_MSG: restart reloads the long reset. */
static void smpl_notify_no_msg_restart(struct kunit *test)
{
	void *desc = notify_no_msg_restarted(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
}

/* PFM_FL_OVFL_NO_MSG: one overflow, one notification, one restart. */
static void smpl_notify_no_msg_restart_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 1,
					     .notify_count = 1,
					     .restarts = 1 };
	void *desc = notify_no_msg_restarted(test, pfmkt_cpu());

	pfmkt_expect_stats(test, desc, &want);
}

/* PFM_FL_OVFL_NO_MSG: restarted, still no message. */
static void smpl_notify_no_msg_restart_no_msg(struct kunit *test)
{
	void *desc = notify_no_msg_restarted(test, pfmkt_cpu());

	pfmkt_expect_no_msg(test, desc);
}

/*
 * Nine notifications, each restarted, their messages unread: the queue
 * holds eight.
 */
static void *notify_queue_filled(struct kunit *test, int cpu)
{
	unsigned int i;
	void *desc;

	desc = notify_setup(test, cpu, 0, 0, NULL);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	for (i = 0; i < 9; i++) {
		KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
		pfmkt_wait_notify(test);
		KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
		if (i < 8)
			pfmk_test_pmu_tick(cpu, NOTIFY_L);
	}
	return desc;
}

/* Nine notifications, the ninth message dropped (msgs_dropped). */
static void smpl_notify_queue_full_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 9,
					     .notify_count = 9,
					     .msgs_dropped = 1,
					     .restarts = 9 };
	void *desc = notify_queue_filled(test, pfmkt_cpu());

	pfmkt_expect_stats(test, desc, &want);
}

/* The eight messages queued are kept, in order, and no other. */
static void smpl_notify_queue_full_msgs_kept(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	unsigned int i;
	void *desc;

	desc = notify_queue_filled(test, cpu);
	for (i = 0; i < 8; i++)
		pfmkt_expect_ovfl_msg(test, desc, 0, cpu);
	pfmkt_expect_no_msg(test, desc);
}

/*
 * A 2006 sampling client: the default format, a buffer with room for
 * NOTIFY_ROOM entries of 40 bytes (no sampled PMD), a PMD with
 * PFM_REGFL_OVFL_NOTIFY (notify_setup()); @periods periods run.
 */
static void *room_setup(struct kunit *test, int cpu, unsigned int periods,
			void **buf)
{
	void *desc;

	desc = notify_setup(test, cpu, 0, PFMKT_HDR + SMPL_TEST_MIN +
			    (NOTIFY_ROOM - 1) * PFMKT_ENTRY, buf);
	pfmk_test_pmu_tick(cpu, periods * NOTIFY_P);
	return desc;
}

/*
 * room_setup() one period short of filling the buffer: as on perfmon2
 * 2.2, every overflow is recorded (asserted here).
 */
static void *room_not_full(struct kunit *test, int cpu)
{
	void *desc, *buf;

	desc = room_setup(test, cpu, NOTIFY_ROOM - 1, &buf);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), (u64)NOTIFY_ROOM - 1);
	return desc;
}

/* Until the buffer is full nothing is notified: no completion, no message. */
static void smpl_notify_only_when_full_not_yet(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	void *desc = room_not_full(test, pfmkt_cpu());

	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));
	pfmkt_expect_no_msg(test, desc);
}

/* Until the buffer is full the context is not masked. */
static void smpl_notify_only_when_full_not_yet_state(struct kunit *test)
{
	void *desc = room_not_full(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

/* Each overflow recorded before the buffer is full resets the PMD. */
static void smpl_notify_only_when_full_not_yet_reset(struct kunit *test)
{
	void *desc = room_not_full(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_P);
}

/* The last period fills the buffer: every overflow is recorded. */
static void smpl_notify_only_when_full_count(struct kunit *test)
{
	void *buf;

	room_setup(test, pfmkt_cpu(), NOTIFY_ROOM, &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), (u64)NOTIFY_ROOM);
}

/* The entry that fills the buffer masks and notifies, once. */
static void smpl_notify_only_when_full(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = room_setup(test, cpu, NOTIFY_ROOM, &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	notify_expect_one_msg(test, desc, cpu);
}

/* Each overflow recorded, one notification: the last. */
static void smpl_notify_only_when_full_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = NOTIFY_ROOM,
					     .smpl_count = NOTIFY_ROOM,
					     .notify_count = 1 };
	void *desc, *buf;

	desc = room_setup(test, pfmkt_cpu(), NOTIFY_ROOM, &buf);
	pfmkt_wait_notify(test);
	pfmkt_expect_stats(test, desc, &want);
}

/* The restart after the full buffer's notification: the long reset. */
static void smpl_notify_only_when_full_restart(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = room_setup(test, cpu, NOTIFY_ROOM, &buf);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	pfmkt_wait_notify(test);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
}

/**
 * struct notify_reader - a kthread blocked in pfmk_read(), and what it saw
 * @desc: the descriptor.
 * @cpu: its CPU.
 * @started: the thread runs.
 * @finished: pfmk_read() returned.
 * @ret: what it returned.
 * @msg: the message it read.
 * @blocked: pfmk_read() had not returned 20 ms after the thread started.
 * @woken: it returned within 10 s of the overflow.
 */
struct notify_reader {
	void			*desc;
	int			cpu;
	struct completion	started;
	struct completion	finished;
	ssize_t			ret;
	union pfm_msg		msg;
	bool			blocked;
	bool			woken;
};

static int notify_reader_fn(void *data)
{
	struct notify_reader *r = data;

	complete(&r->started);
	r->ret = pfmk_read(r->desc, &r->msg, sizeof(r->msg), 0);
	complete(&r->finished);

	return pfmk_test_kthread_park();
}

/*
 * A kthread reads notify_setup()'s context, blocking; 20 ms later
 * NOTIFY_P ticks notify it.  Returns what it saw, the thread stopped:
 * nothing aborts the test while the thread runs.
 */
static struct notify_reader *notify_reader_run(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	struct notify_reader *r;
	struct task_struct *t;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->cpu = pfmkt_cpu();
	r->desc = notify_setup(test, r->cpu, 0, 0, NULL);
	r->ret = 1;
	init_completion(&r->finished);
	t = pfmk_test_kthread_start(notify_reader_fn, r, -1, &r->started,
				    "pfmk_smpl_read");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	msleep(20);
	r->blocked = !completion_done(&r->finished);

	pfmk_test_pmu_tick(r->cpu, NOTIFY_P);
	r->woken = wait_for_completion_timeout(&r->finished, 10 * HZ) != 0;
	if (!r->woken) {
		/* Woken without a message, pfmk_read() returns 0. */
		complete_all(&priv->done);
		wait_for_completion(&r->finished);
	}
	kthread_stop(t);
	return r;
}

/* notify_reader_run(), the reader woken with a message: set-up. */
static struct notify_reader *notify_reader_read(struct kunit *test)
{
	struct notify_reader *r = notify_reader_run(test);

	KUNIT_ASSERT_TRUE_MSG(test, r->woken, "pfmk_read() was not woken");
	KUNIT_ASSERT_EQ(test, r->ret, (ssize_t)sizeof(r->msg));
	return r;
}

/* pfmk_read() blocks while no message is queued. */
static void smpl_notify_blocked_reader_blocks(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, notify_reader_run(test)->blocked);
}

/* A reader blocked in pfmk_read() is woken by an overflow notification. */
static void smpl_notify_blocked_reader(struct kunit *test)
{
	struct notify_reader *r = notify_reader_run(test);

	KUNIT_EXPECT_TRUE_MSG(test, r->woken, "pfmk_read() was not woken");
	KUNIT_EXPECT_EQ(test, r->ret, (ssize_t)sizeof(r->msg));
}

/* The message it reads is the overflow's. */
static void smpl_notify_blocked_reader_msg(struct kunit *test)
{
	struct notify_reader *r = notify_reader_read(test);

	KUNIT_EXPECT_EQ(test, r->msg.type, (u32)PFM_MSG_OVFL);
	KUNIT_EXPECT_EQ(test, r->msg.pfm_ovfl_msg.msg_ovfl_pmds[0], 1ULL);
	KUNIT_EXPECT_EQ(test, r->msg.pfm_ovfl_msg.msg_ovfl_cpu, (u16)r->cpu);
}

/* The overflow that woke it masked the context. */
static void smpl_notify_blocked_reader_masked(struct kunit *test)
{
	struct notify_reader *r = notify_reader_read(test);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(r->desc), PFMKT_MASKED);
}

/* The reader took the only message. */
static void smpl_notify_blocked_reader_took(struct kunit *test)
{
	struct notify_reader *r = notify_reader_read(test);

	pfmkt_expect_no_msg(test, r->desc);
}

/* Its message read, the context restarts. */
static void smpl_notify_blocked_reader_restart(struct kunit *test)
{
	struct notify_reader *r = notify_reader_read(test);

	KUNIT_EXPECT_EQ(test, pfmk_restart(r->desc), 0);
}

/*
 * A buffer with room for one entry, so that every overflow fills it:
 * four overflows, the first three restarted.  Returns the context
 * started and masked, messages queued and the last notification maybe
 * still in flight.
 */
static void *close_masked_setup(struct kunit *test, int cpu, void **buf)
{
	unsigned int i;
	void *desc;

	desc = notify_setup(test, cpu, 0, PFMKT_HDR + SMPL_TEST_MIN, buf);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	for (i = 0; i < 3; i++) {
		pfmkt_wait_notify(test);
		KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
		pfmk_test_pmu_tick(cpu, NOTIFY_L);
	}
	return desc;
}

/* Before the close: masked by the fourth overflow. */
static void smpl_notify_close_masked_state(struct kunit *test)
{
	void *desc, *buf;

	desc = close_masked_setup(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
}

/* Before the close: each of the four overflows counted. */
static void smpl_notify_close_masked_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 4,
					     .smpl_count = 4,
					     .notify_count = 4,
					     .restarts = 3 };
	void *desc, *buf;

	desc = close_masked_setup(test, pfmkt_cpu(), &buf);
	pfmkt_expect_stats(test, desc, &want);
}

/* Before the close: the fourth overflow's entry fills the buffer. */
static void smpl_notify_close_masked_count(struct kunit *test)
{
	void *buf;

	close_masked_setup(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 1ULL);
}

/*
 * Close while started and masked, messages queued and the last
 * notification maybe still in flight: the descriptor is gone and the
 * events are released.
 */
static void smpl_notify_close_masked(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	union pfm_msg msg;
	void *desc, *buf;

	desc = close_masked_setup(test, cpu, &buf);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)-EBADF);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/*
 * PMD0 samples every FULL_P ticks into a large buffer, recording PMD1
 * (step FULL_STEP1); 23 ticks, then unloaded.
 */
static void *notify_unloaded(struct kunit *test, int cpu, void **buf)
{
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, NOTIFY_BUF, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(FULL_STEP1));
	pfmkt_write_sampler(test, desc, 0, FULL_P, 0, BIT_ULL(1));
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 23);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	return desc;
}

/* Unload while sampling: the context is unloaded. */
static void smpl_notify_unload_state(struct kunit *test)
{
	void *desc, *buf;

	desc = notify_unloaded(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/* Unload while sampling releases the events. */
static void smpl_notify_unload_releases(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *buf;

	notify_unloaded(test, cpu, &buf);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* Unload while sampling keeps the buffer's samples. */
static void smpl_notify_unload_keeps_samples(struct kunit *test)
{
	void *buf;

	notify_unloaded(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 23ULL / FULL_P);
}

/* Unload while sampling folds the PMDs' values, which it keeps. */
static void smpl_notify_unload_keeps_pmds(struct kunit *test)
{
	void *desc, *buf;

	desc = notify_unloaded(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			-FULL_P + 23 % FULL_P);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), FULL_STEP1 * 23);
}

/* notify_unloaded(), then 23 more ticks on its CPU. */
static void *notify_unloaded_ticked(struct kunit *test, int cpu, void **buf)
{
	void *desc = notify_unloaded(test, cpu, buf);

	pfmk_test_pmu_tick(cpu, 23);
	return desc;
}

/* Unloaded, it samples nothing on its CPU's ticks. */
static void smpl_notify_unload_frozen(struct kunit *test)
{
	void *buf;

	notify_unloaded_ticked(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 23ULL / FULL_P);
}

/* Unloaded, the sampling PMD keeps its phase in the period. */
static void smpl_notify_unload_frozen_phase(struct kunit *test)
{
	void *desc, *buf;

	desc = notify_unloaded_ticked(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			-FULL_P + 23 % FULL_P);
}

/* Unloaded, the counting PMD does not count. */
static void smpl_notify_unload_frozen_count(struct kunit *test)
{
	void *desc, *buf;

	desc = notify_unloaded_ticked(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), FULL_STEP1 * 23);
}

/* Unloaded, it does not overflow: only the 23 / FULL_P loaded ones count. */
static void smpl_notify_unload_frozen_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 23 / FULL_P,
					     .smpl_count = 23 / FULL_P };
	void *desc, *buf;

	desc = notify_unloaded_ticked(test, pfmkt_cpu(), &buf);
	pfmkt_expect_stats(test, desc, &want);
}

/* Loaded again: the period goes on from the folded value. */
static void smpl_notify_unload_reload(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = notify_unloaded(test, cpu, &buf);
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, FULL_P - 23 % FULL_P);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 23ULL / FULL_P + 1);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -FULL_P);
}

/* notify_masked() (running), then unloaded. */
static void *notify_masked_unloaded(struct kunit *test, int cpu)
{
	void *desc = notify_masked(test, cpu, false);

	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	return desc;
}

/* Unloading a masked context unmasks it: unloaded. */
static void smpl_notify_unload_masked_state(struct kunit *test)
{
	void *desc = notify_masked_unloaded(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/* Unloading a masked context releases its events. */
static void smpl_notify_unload_masked_releases(struct kunit *test)
{
	int cpu = pfmkt_cpu();

	notify_masked_unloaded(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* Unloading a masked context keeps its values. */
static void smpl_notify_unload_masked_keeps_pmds(struct kunit *test)
{
	void *desc = notify_masked_unloaded(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), NOTIFY_P);
}

/* Unloaded while masked, it has nothing to restart: -ENOTCONN. */
static void smpl_notify_unload_masked_restart(struct kunit *test)
{
	void *desc = notify_masked_unloaded(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -ENOTCONN);
}

/* notify_masked_unloaded(), then loaded again on @cpu. */
static void *notify_masked_reloaded(struct kunit *test, int cpu)
{
	void *desc = notify_masked_unloaded(test, cpu);

	pfmkt_load(test, desc, cpu);
	return desc;
}

/* Loaded again after an unload while masked: loaded, unmasked. */
static void smpl_notify_unload_masked_reload(struct kunit *test)
{
	void *desc = notify_masked_reloaded(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
}

/* Started after that reload: running, nothing left to restart. */
static void smpl_notify_unload_masked_started(struct kunit *test)
{
	void *desc = notify_masked_reloaded(test, pfmkt_cpu());

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -EBUSY);
}

/* Started after that reload, the PMDs count on from their values. */
static void smpl_notify_unload_masked_counts(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = notify_masked_reloaded(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), -EBUSY);
	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), NOTIFY_P + 3);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 3ULL);
}

/*
 * write_pmcs on a masked, stopped context: accepted (the context is
 * loaded and stopped), the context stays masked and the PMD keeps its
 * count.
 */
static void smpl_notify_masked_write_pmcs(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = notify_masked(test, cpu, true);

	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(4));
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_MASKED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), NOTIFY_P);
}

/* A PMC written while masked and stopped counts after restart and start. */
static void smpl_notify_masked_write_pmcs_counts(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = notify_masked(test, cpu, true);

	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(4));
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 2);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), NOTIFY_P + 2 * 4);
}

/*
 * notify_masked(), stopped, and PMD0 written (accepted): value and short
 * reset -3, long reset -7.
 */
static void *masked_write_pmds(struct kunit *test, int cpu)
{
	const struct pfmkt_pmd p = {
		.value = -3ULL,
		.short_reset = -3ULL,
		.long_reset = -7ULL,
		.flags = PFM_REGFL_OVFL_NOTIFY,
	};
	void *desc = notify_masked(test, cpu, true);

	pfmkt_write_smpl_pmd(test, desc, 0, &p);
	return desc;
}

/* write_pmds on a masked, stopped context: the context stays masked. */
static void smpl_notify_masked_write_pmds(struct kunit *test)
{
	void *desc = masked_write_pmds(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_MASKED);
}

/*
 * The written PMD drops its pending long reset (perfmon2 2.2 clears the
 * PMD's pending overflow): restart keeps the new value (-3, not the long
 * reset -7).
 */
static void smpl_notify_masked_write_pmds_restart(struct kunit *test)
{
	void *desc = masked_write_pmds(test, pfmkt_cpu());

	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -3ULL);
}

/* Restarted and started, the PMD overflows after the new period, 3. */
static void smpl_notify_masked_write_pmds_period(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = masked_write_pmds(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 2);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
}

/*
 * start on a masked, stopped context: accepted, and the context stays
 * masked (perfmon2 2.2: "MASKED: nop").
 */
static void smpl_notify_masked_start(struct kunit *test)
{
	void *desc = notify_masked(test, pfmkt_cpu(), true);

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
}

/*
 * notify_masked(), stopped, started again (still masked), then
 * 2 * NOTIFY_P ticks.
 */
static void *notify_masked_started(struct kunit *test, int cpu)
{
	void *desc = notify_masked(test, cpu, true);

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	pfmk_test_pmu_tick(cpu, 2 * NOTIFY_P);
	return desc;
}

/* Started while masked, the context stays masked as it runs. */
static void smpl_notify_masked_start_saturates_state(struct kunit *test)
{
	void *desc = notify_masked_started(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
}

/*
 * Started while masked: the notifying PMD runs on from its wrap, not
 * reset, and the other PMD counts.
 */
static void smpl_notify_masked_start_saturates_pmds(struct kunit *test)
{
	void *desc = notify_masked_started(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 2 * NOTIFY_P);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 3 * NOTIFY_P);
}

/* Started while masked: no further overflow, nothing more notified. */
static void smpl_notify_masked_start_saturates_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 1,
					     .notify_count = 1 };
	void *desc = notify_masked_started(test, pfmkt_cpu());

	pfmkt_expect_stats(test, desc, &want);
}

/* Started while masked, then restarted: unmasked, with the long reset. */
static void smpl_notify_masked_start_restart(struct kunit *test)
{
	void *desc = notify_masked_started(test, pfmkt_cpu());

	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
}

static struct kunit_case pfmk_smpl_notify_cases[] = {
	KUNIT_CASE(smpl_notify_restart_before_period),
	KUNIT_CASE(smpl_notify_none_before_period),
	KUNIT_CASE(smpl_notify_msg),
	KUNIT_CASE(smpl_notify_masked_runs_on_state),
	KUNIT_CASE(smpl_notify_masked_runs_on_counts),
	KUNIT_CASE(smpl_notify_masked_runs_on_stats),
	KUNIT_CASE(smpl_notify_masked_runs_on_silent),
	KUNIT_CASE(smpl_notify_restart),
	KUNIT_CASE(smpl_notify_restart_twice),
	KUNIT_CASE(smpl_notify_next_after_long_not_before),
	KUNIT_CASE(smpl_notify_next_after_long_masks_and_notifies),
	KUNIT_CASE(smpl_notify_next_after_long_pmd_not_reset),
	KUNIT_CASE(smpl_notify_next_after_long_stats),
	KUNIT_CASE(smpl_notify_restart_stopped),
	KUNIT_CASE(smpl_notify_restart_unloaded),
	KUNIT_CASE(smpl_notify_no_msg),
	KUNIT_CASE(smpl_notify_no_msg_restart),
	KUNIT_CASE(smpl_notify_no_msg_restart_stats),
	KUNIT_CASE(smpl_notify_no_msg_restart_no_msg),
	KUNIT_CASE(smpl_notify_queue_full_stats),
	KUNIT_CASE(smpl_notify_queue_full_msgs_kept),
	KUNIT_CASE(smpl_notify_only_when_full_not_yet),
	KUNIT_CASE(smpl_notify_only_when_full_not_yet_state),
	KUNIT_CASE(smpl_notify_only_when_full_not_yet_reset),
	KUNIT_CASE(smpl_notify_only_when_full_count),
	KUNIT_CASE(smpl_notify_only_when_full),
	KUNIT_CASE(smpl_notify_only_when_full_stats),
	KUNIT_CASE(smpl_notify_only_when_full_restart),
	KUNIT_CASE(smpl_notify_blocked_reader_blocks),
	KUNIT_CASE(smpl_notify_blocked_reader),
	KUNIT_CASE(smpl_notify_blocked_reader_msg),
	KUNIT_CASE(smpl_notify_blocked_reader_masked),
	KUNIT_CASE(smpl_notify_blocked_reader_took),
	KUNIT_CASE(smpl_notify_blocked_reader_restart),
	KUNIT_CASE(smpl_notify_close_masked_state),
	KUNIT_CASE(smpl_notify_close_masked_stats),
	KUNIT_CASE(smpl_notify_close_masked_count),
	KUNIT_CASE(smpl_notify_close_masked),
	KUNIT_CASE(smpl_notify_unload_state),
	KUNIT_CASE(smpl_notify_unload_releases),
	KUNIT_CASE(smpl_notify_unload_keeps_samples),
	KUNIT_CASE(smpl_notify_unload_keeps_pmds),
	KUNIT_CASE(smpl_notify_unload_frozen),
	KUNIT_CASE(smpl_notify_unload_frozen_phase),
	KUNIT_CASE(smpl_notify_unload_frozen_count),
	KUNIT_CASE(smpl_notify_unload_frozen_stats),
	KUNIT_CASE(smpl_notify_unload_reload),
	KUNIT_CASE(smpl_notify_unload_masked_state),
	KUNIT_CASE(smpl_notify_unload_masked_releases),
	KUNIT_CASE(smpl_notify_unload_masked_keeps_pmds),
	KUNIT_CASE(smpl_notify_unload_masked_restart),
	KUNIT_CASE(smpl_notify_unload_masked_reload),
	KUNIT_CASE(smpl_notify_unload_masked_started),
	KUNIT_CASE(smpl_notify_unload_masked_counts),
	KUNIT_CASE(smpl_notify_masked_write_pmcs),
	KUNIT_CASE(smpl_notify_masked_write_pmcs_counts),
	KUNIT_CASE(smpl_notify_masked_write_pmds),
	KUNIT_CASE(smpl_notify_masked_write_pmds_restart),
	KUNIT_CASE(smpl_notify_masked_write_pmds_period),
	KUNIT_CASE(smpl_notify_masked_start),
	KUNIT_CASE(smpl_notify_masked_start_saturates_state),
	KUNIT_CASE(smpl_notify_masked_start_saturates_pmds),
	KUNIT_CASE(smpl_notify_masked_start_saturates_stats),
	KUNIT_CASE(smpl_notify_masked_start_restart),
	{}
};

static struct kunit_suite pfmk_smpl_notify_suite = {
	.name = "pfmk_smpl_notify",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_notify_cases,
};

kunit_test_suites(&pfmk_smpl_notify_suite);
