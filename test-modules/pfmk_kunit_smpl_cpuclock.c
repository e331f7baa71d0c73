// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_smpl_cpuclock: 10 kHz cpu-clock sampling on every
 * online CPU; the task and ip of an overflow that interrupts a known
 * kernel thread, in its message and in its entry.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/pid.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"

#define SMPL_GEN_MIN		(PFMKT_ENTRY + 8 * PFMK_GENERIC_NUM_PMCS)
#define SMPL_TIMEOUT		(10 * HZ)

#define CLOCK_PERIOD		100000ULL		/* ns: 10 kHz */
#define CLOCK_RUN_MS		2000
#define CLOCK_BUF		(256ULL << 10)

/**
 * struct clock_ctx - one cpu-clock sampling context
 * @desc: the descriptor.
 * @buf: its buffer.
 * @cpu: its CPU.
 * @t_start: ktime_get_ns() before pfmk_start().
 * @t_stop: ktime_get_ns() after pfmk_stop().
 * @entries: entries read from the buffer.
 * @fills: buffers drained on notification.
 * @bad: malformed entries.
 * @bad_at: the index, among @entries, of the first malformed entry.
 * @bad_ent: that entry.
 * @bad_after: the timestamp of the entry before it in its buffer, or 0.
 * @bad_msgs: drains whose message was not PMD 0's overflow on @cpu.
 * @bad_ret: what pfmk_read() returned for the first of them.
 * @bad_msg: the message it read.
 */
struct clock_ctx {
	void			*desc;
	void			*buf;
	int			cpu;
	u64			t_start;
	u64			t_stop;
	u64			entries;
	u64			fills;
	u64			bad;
	u64			bad_at;
	struct pfm_dfl_smpl_entry bad_ent;
	u64			bad_after;
	u64			bad_msgs;
	ssize_t			bad_ret;
	union pfm_msg		bad_msg;
};

/* Count the entries of @c's buffer; note the first malformed one. */
static void clock_read_entries(struct clock_ctx *c)
{
	const struct pfm_dfl_smpl_entry *ent;
	u64 i, n = pfmkt_hdr_count(c->buf), tstamp = 0;

	for (i = 0; i < n; i++) {
		ent = pfmkt_entry(c->buf, i, 0);
		if (ent->ovfl_pmd || ent->cpu != c->cpu || ent->set ||
		    ent->last_reset_val != -CLOCK_PERIOD ||
		    !ent->tstamp || ent->tstamp < tstamp) {
			if (!c->bad) {
				c->bad_at = c->entries + i;
				c->bad_ent = *ent;
				c->bad_after = tstamp;
			}
			c->bad++;
		}
		tstamp = ent->tstamp;
	}
	c->entries += n;
}

/* Take @c's next message; note it unless it is PMD 0's overflow on its CPU. */
static void clock_read_msg(struct clock_ctx *c)
{
	union pfm_msg msg;
	unsigned int i;
	ssize_t ret;
	bool ok;

	memset(&msg, 0x5a, sizeof(msg));
	ret = pfmk_read(c->desc, &msg, sizeof(msg), 1);
	ok = ret == (ssize_t)sizeof(msg) && msg.type == PFM_MSG_OVFL &&
	     msg.pfm_ovfl_msg.msg_ovfl_cpu == c->cpu &&
	     !msg.pfm_ovfl_msg.msg_active_set;
	for (i = 0; i < PFM_HW_PMD_BV; i++)
		ok &= msg.pfm_ovfl_msg.msg_ovfl_pmds[i] == (i ? 0 : 1);
	if (ok)
		return;
	if (!c->bad_msgs) {
		c->bad_ret = ret;
		c->bad_msg = msg;
	}
	c->bad_msgs++;
}

/* Drain a full buffer: read it, restart, read the message. */
static void clock_drain(struct kunit *test, struct clock_ctx *c)
{
	clock_read_entries(c);
	KUNIT_ASSERT_EQ(test, pfmk_restart(c->desc), 0);
	c->fills++;
	clock_read_msg(c);
}

/* A cpu-clock sampling context loaded on each online CPU; returns how many. */
static unsigned int clock_create_all(struct kunit *test, struct clock_ctx *ctx)
{
	unsigned int nr = 0;
	int cpu;

	for_each_online_cpu(cpu) {
		struct clock_ctx *c = &ctx[nr++];

		c->cpu = cpu;
		c->desc = pfmkt_create_dfl(test, "", 0, CLOCK_BUF, &c->buf);
		pfmkt_write_pmc(test, c->desc, 0,
				PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK));
		/* Notified when the buffer is full (perfmon2 2.2). */
		pfmkt_write_sampler(test, c->desc, 0, CLOCK_PERIOD,
				    PFM_REGFL_OVFL_NOTIFY, 0);
		pfmkt_load(test, c->desc, cpu);
	}
	return nr;
}

/* Start all, drain each buffer as it fills for CLOCK_RUN_MS, stop all. */
static void clock_run(struct kunit *test, struct clock_ctx *ctx,
		      unsigned int nr)
{
	struct pfmkt_priv *priv = test->priv;
	unsigned int i;
	int state;
	u64 end;

	for (i = 0; i < nr; i++) {
		ctx[i].t_start = ktime_get_ns();
		KUNIT_ASSERT_EQ(test, pfmk_start(ctx[i].desc, NULL), 0);
	}
	end = ktime_get_ns() + CLOCK_RUN_MS * NSEC_PER_MSEC;
	while (ktime_get_ns() < end) {
		wait_for_completion_timeout(&priv->done, msecs_to_jiffies(10));
		for (i = 0; i < nr; i++) {
			state = pfmk_get_state(ctx[i].desc);
			if (state == PFMKT_MASKED)
				clock_drain(test, &ctx[i]);
			else
				KUNIT_ASSERT_EQ(test, state, PFMKT_STARTED);
		}
	}
	for (i = 0; i < nr; i++) {
		KUNIT_ASSERT_EQ(test, pfmk_stop(ctx[i].desc), 0);
		ctx[i].t_stop = ktime_get_ns();
	}
}

/*
 * cpu-clock at 10 kHz on every online CPU for CLOCK_RUN_MS, draining
 * each buffer on its notification, then stopped with the last entries
 * read: returns the contexts, *@nr of them.
 */
static struct clock_ctx *clock_sample_all(struct kunit *test,
					  unsigned int *nr)
{
	struct clock_ctx *ctx;
	unsigned int i;

	ctx = kunit_kcalloc(test, nr_cpu_ids, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	*nr = clock_create_all(test, ctx);
	clock_run(test, ctx, *nr);
	for (i = 0; i < *nr; i++)
		clock_read_entries(&ctx[i]);
	return ctx;
}

/*
 * cpu-clock at 10 kHz on every online CPU for 2 s, draining on
 * notifications: every entry is well formed (PMD 0, its CPU, set 0,
 * reset to the period, timestamps in order).
 */
static void smpl_cpuclock_10khz_entries(struct kunit *test)
{
	const struct pfm_dfl_smpl_entry *e;
	struct clock_ctx *ctx, *c;
	unsigned int nr, i;

	ctx = clock_sample_all(test, &nr);
	for (i = 0; i < nr; i++) {
		c = &ctx[i];
		e = &c->bad_ent;
		KUNIT_EXPECT_EQ_MSG(test, c->bad, 0ULL,
				    "CPU %d entry %llu: pmd %u cpu %u set %u reset %#llx tstamp %llu after %llu",
				    c->cpu, c->bad_at, e->ovfl_pmd, e->cpu,
				    e->set, e->last_reset_val, e->tstamp,
				    c->bad_after);
	}
}

/*
 * The same run: the message of each drained buffer is PMD 0's overflow,
 * on its CPU, in set 0.
 */
static void smpl_cpuclock_10khz_msgs(struct kunit *test)
{
	const struct pfm_ovfl_msg *m;
	struct clock_ctx *ctx, *c;
	unsigned int nr, i;

	ctx = clock_sample_all(test, &nr);
	for (i = 0; i < nr; i++) {
		c = &ctx[i];
		m = &c->bad_msg.pfm_ovfl_msg;
		KUNIT_EXPECT_EQ_MSG(test, c->bad_msgs, 0ULL,
				    "CPU %d, %llu drains; the first bad: read %zd type %u pmds %#llx cpu %u set %u",
				    c->cpu, c->fills, c->bad_ret,
				    c->bad_msg.type, m->msg_ovfl_pmds[0],
				    m->msg_ovfl_cpu, m->msg_active_set);
	}
}

/*
 * The same run: the statistics are consistent with the entries read, the
 * buffers drained and the messages.
 */
static void smpl_cpuclock_10khz_stats(struct kunit *test)
{
	struct pfmk_ctx_stats st;
	struct clock_ctx *ctx, *c;
	unsigned int nr, i;
	bool masked;

	ctx = clock_sample_all(test, &nr);
	for (i = 0; i < nr; i++) {
		c = &ctx[i];
		masked = pfmk_get_state(c->desc) == PFM_CTX_MASKED;
		pfmkt_stats(test, c->desc, &st);
		pfmkt_expect_stats_in(test, &st,
				      &(struct pfmk_ctx_stats){
					.smpl_count = c->entries,
					.notify_count = c->fills + masked,
					.restarts = c->fills },
				      PFMKT_ST(smpl_count) |
				      PFMKT_ST(notify_count) |
				      PFMKT_ST(restarts) |
				      PFMKT_ST(msgs_dropped));
	}
}

/*
 * The same run: every overflow was either sampled or came while the
 * context was masked, on each CPU.
 */
static void smpl_cpuclock_10khz_ovfl_sum(struct kunit *test)
{
	struct pfmk_ctx_stats st;
	struct clock_ctx *ctx;
	unsigned int nr, i;

	ctx = clock_sample_all(test, &nr);
	for (i = 0; i < nr; i++) {
		pfmkt_stats(test, ctx[i].desc, &st);
		KUNIT_EXPECT_EQ_MSG(test, st.ovfl_count,
				    st.smpl_count + st.ovfl_masked, "CPU %d",
				    ctx[i].cpu);
	}
}

/* The same run: every CPU sampled. */
static void smpl_cpuclock_10khz_sampled(struct kunit *test)
{
	struct pfmk_ctx_stats st;
	struct clock_ctx *ctx;
	unsigned int nr, i;

	ctx = clock_sample_all(test, &nr);
	for (i = 0; i < nr; i++) {
		pfmkt_stats(test, ctx[i].desc, &st);
		KUNIT_EXPECT_GT_MSG(test, st.smpl_count, 0ULL, "CPU %d",
				    ctx[i].cpu);
	}
}

/*
 * The same run: unless perf throttled it, each CPU's samples plus missed
 * periods are within 20 % of the periods of its run.  Timers of an
 * emulated guest fire late: the periods a late interrupt skipped count
 * in ovfl_missed.
 */
static void smpl_cpuclock_10khz_rate(struct kunit *test)
{
	struct pfmk_ctx_stats st;
	struct clock_ctx *ctx, *c;
	u64 expected, got;
	unsigned int nr, i;

	ctx = clock_sample_all(test, &nr);
	for (i = 0; i < nr; i++) {
		c = &ctx[i];
		pfmkt_stats(test, c->desc, &st);
		expected = div_u64(c->t_stop - c->t_start, CLOCK_PERIOD);
		got = st.smpl_count + st.ovfl_missed;
		kunit_info(test,
			   "CPU %d: %llu ms, expected %llu: smpl_count %llu ovfl_missed %llu ovfl_masked %llu throttled %llu ovfl_count %llu fills %llu\n",
			   c->cpu, div_u64(c->t_stop - c->t_start, NSEC_PER_MSEC),
			   expected, st.smpl_count, st.ovfl_missed,
			   st.ovfl_masked, st.throttled, st.ovfl_count, c->fills);
		if (st.throttled)
			continue;
		KUNIT_EXPECT_GE_MSG(test, got * 10, expected * 8, "CPU %d",
				    c->cpu);
		KUNIT_EXPECT_LE_MSG(test, got * 10, expected * 12, "CPU %d",
				    c->cpu);
	}
}

#define SPIN_PERIOD		1000000ULL		/* ns: 1 ms */
#define SPIN_MAX		(2 * HZ)

/**
 * struct clock_spinner - a kernel thread spinning on one CPU
 * @spinning: set once it spins, with softirqs (and preemption) off.
 * @stop: set by the test to end the spin.
 * @gave_up: it stopped on its own timeout, not on @stop.
 * @done: completed when it no longer spins.
 */
struct clock_spinner {
	bool			spinning;
	bool			stop;
	bool			gave_up;
	struct completion	done;
};

/*
 * Spins, bounded by SPIN_MAX, until the test says stop.  With softirqs
 * off nothing else runs on its CPU meanwhile but hard interrupts, which
 * the cpu-clock hrtimer's interrupt cannot nest in: an overflow of the
 * spin interrupts this function, in this task.  Without KASAN's calls in
 * the loop (6.1's KASAN_OUTLINE), its ip is in this function.
 */
static int __no_sanitize_address clock_spinner_fn(void *data)
{
	struct clock_spinner *s = data;
	unsigned long end;

	local_bh_disable();
	end = jiffies + SPIN_MAX;
	WRITE_ONCE(s->spinning, true);
	/*
	 * Not cpu_relax(): arm64's is plain inline, which GCC does not inline
	 * into this unsanitized function, and the ip would name it instead.
	 */
	while (!READ_ONCE(s->stop) && time_before(jiffies, end))
		barrier();
	s->gave_up = !READ_ONCE(s->stop);
	local_bh_enable();
	complete(&s->done);
	return pfmk_test_kthread_park();
}

/**
 * struct clock_spin_run - an overflow that interrupted the spinner
 * @desc: the cpu-clock context.
 * @buf: its buffer, one entry long.
 * @cpu: the spinner's CPU.
 * @pid: the spinner's pid.
 * @tgid: the spinner's tgid.
 * @state: the context's state once notified.
 * @msg: the overflow's message, read.
 */
struct clock_spin_run {
	void			*desc;
	void			*buf;
	int			cpu;
	pid_t			pid;
	pid_t			tgid;
	int			state;
	struct pfm_ovfl_msg	msg;
};

/*
 * A kernel thread spins on @cpu; started only once it spins, a cpu-clock
 * context there samples with a one-entry buffer until the first overflow
 * fills it and notifies.  Nothing aborts the test while the thread runs:
 * its set-up steps are asserted once it is stopped.
 */
static void clock_spin_sample(struct kunit *test, struct clock_spin_run *run,
			      struct clock_spinner *s)
{
	struct pfmkt_priv *priv = test->priv;
	unsigned long end, notified = 0;
	struct task_struct *k;
	int started = 0;

	k = kthread_create(clock_spinner_fn, s, "pfmk_spin/%d", run->cpu);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	kthread_bind(k, run->cpu);
	run->pid = task_pid_nr(k);
	run->tgid = task_tgid_nr(k);
	wake_up_process(k);

	/*
	 * Sleep on an hrtimer: were this thread moved to the spinning CPU, a
	 * timer-wheel timeout would wait there for the end of the spin.
	 */
	end = jiffies + SMPL_TIMEOUT;
	while (!READ_ONCE(s->spinning) && time_before(jiffies, end))
		usleep_range(100, 200);
	if (READ_ONCE(s->spinning)) {
		started = pfmk_start(run->desc, NULL);
		if (!started)
			notified = wait_for_completion_timeout(&priv->done,
							       SMPL_TIMEOUT);
	}
	WRITE_ONCE(s->stop, true);
	wait_for_completion(&s->done);
	kthread_stop(k);
	KUNIT_ASSERT_TRUE_MSG(test, READ_ONCE(s->spinning),
			      "the thread on CPU %d did not spin", run->cpu);
	KUNIT_ASSERT_EQ(test, started, 0);
	/* Not a failure: the test may have been slow to see the notification. */
	if (s->gave_up)
		kunit_info(test, "the spin timed out after %d ms\n",
			   jiffies_to_msecs(SPIN_MAX));
	KUNIT_ASSERT_NE_MSG(test, notified, 0UL, "no notification");
	run->state = pfmk_get_state(run->desc);
}

/*
 * An overflow of cpu-clock on another CPU, interrupting a spinning
 * thread; its message read.
 */
static void clock_spin_overflow(struct kunit *test, struct clock_spin_run *run)
{
	struct clock_spinner *s;
	union pfm_msg msg;

	run->cpu = pfmkt_other_cpu_or_skip(test, raw_smp_processor_id());
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	init_completion(&s->done);

	run->desc = pfmkt_create_dfl(test, "", 0, PFMKT_HDR + SMPL_GEN_MIN,
				     &run->buf);
	pfmkt_write_pmc(test, run->desc, 0,
			PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK));
	pfmkt_write_sampler(test, run->desc, 0, SPIN_PERIOD,
			    PFM_REGFL_OVFL_NOTIFY, 0);
	pfmkt_load(test, run->desc, run->cpu);
	clock_spin_sample(test, run, s);

	memset(&msg, 0x5a, sizeof(msg));
	KUNIT_ASSERT_EQ(test, pfmk_read(run->desc, &msg, sizeof(msg), 1),
			(ssize_t)sizeof(msg));
	run->msg = msg.pfm_ovfl_msg;
}

/* The overflow that fills the one-entry buffer masks the context. */
static void smpl_cpuclock_spin_masked(struct kunit *test)
{
	struct clock_spin_run run;

	clock_spin_overflow(test, &run);
	KUNIT_EXPECT_EQ(test, run.state, PFMKT_MASKED);
}

/* Its message is an overflow of PMD 0 on the spinner's CPU. */
static void smpl_cpuclock_msg_ovfl(struct kunit *test)
{
	struct clock_spin_run run;

	clock_spin_overflow(test, &run);
	KUNIT_EXPECT_EQ(test, run.msg.msg_type, (u32)PFM_MSG_OVFL);
	KUNIT_EXPECT_EQ(test, run.msg.msg_ovfl_pmds[0], 1ULL);
	KUNIT_EXPECT_EQ(test, run.msg.msg_ovfl_cpu, (u16)run.cpu);
}

/* Masked, the context queues no second message. */
static void smpl_cpuclock_msg_one(struct kunit *test)
{
	struct clock_spin_run run;

	clock_spin_overflow(test, &run);
	pfmkt_expect_no_msg(test, run.desc);
}

/*
 * The message of an overflow names the task it interrupted: its tid is
 * the spinning thread's pid, its pid the thread's tgid.
 */
static void smpl_cpuclock_msg_task(struct kunit *test)
{
	struct clock_spin_run run;

	clock_spin_overflow(test, &run);
	KUNIT_EXPECT_EQ(test, (pid_t)run.msg.msg_ovfl_tid, run.pid);
	KUNIT_EXPECT_EQ(test, (pid_t)run.msg.msg_ovfl_pid, run.tgid);
}

/* Its ip is in the spinning function. */
static void smpl_cpuclock_msg_ip(struct kunit *test)
{
	struct clock_spin_run run;
	char *ip_sym, *fn_sym;

	/* Symbol names: too large for the stack. */
	ip_sym = kunit_kzalloc(test, 2 * KSYM_SYMBOL_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ip_sym);
	fn_sym = ip_sym + KSYM_SYMBOL_LEN;
	clock_spin_overflow(test, &run);

	snprintf(fn_sym, KSYM_SYMBOL_LEN, "%ps", clock_spinner_fn);
	snprintf(ip_sym, KSYM_SYMBOL_LEN, "%ps", (void *)run.msg.msg_ovfl_ip);
	KUNIT_EXPECT_STREQ_MSG(test, ip_sym, fn_sym, "msg_ovfl_ip %pS",
			       (void *)run.msg.msg_ovfl_ip);
	KUNIT_EXPECT_GE(test, run.msg.msg_ovfl_ip,
			(u64)(unsigned long)clock_spinner_fn);
}

/* The entry of that overflow names the same task, CPU and ip. */
static void smpl_cpuclock_entry_task(struct kunit *test)
{
	const struct pfm_dfl_smpl_entry *ent;
	struct clock_spin_run run;

	clock_spin_overflow(test, &run);

	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(run.buf), 1ULL);
	ent = pfmkt_entry(run.buf, 0, 0);
	KUNIT_EXPECT_EQ(test, ent->cpu, (u16)run.cpu);
	KUNIT_EXPECT_EQ(test, (pid_t)ent->pid, run.pid);
	KUNIT_EXPECT_EQ(test, (pid_t)ent->tgid, run.tgid);
	KUNIT_EXPECT_EQ(test, ent->ip, run.msg.msg_ovfl_ip);
}

static struct kunit_case pfmk_smpl_cpuclock_cases[] = {
	KUNIT_CASE_SLOW(smpl_cpuclock_10khz_entries),
	KUNIT_CASE_SLOW(smpl_cpuclock_10khz_msgs),
	KUNIT_CASE_SLOW(smpl_cpuclock_10khz_stats),
	KUNIT_CASE_SLOW(smpl_cpuclock_10khz_ovfl_sum),
	KUNIT_CASE_SLOW(smpl_cpuclock_10khz_sampled),
	KUNIT_CASE_SLOW(smpl_cpuclock_10khz_rate),
	KUNIT_CASE(smpl_cpuclock_spin_masked),
	KUNIT_CASE(smpl_cpuclock_msg_ovfl),
	KUNIT_CASE(smpl_cpuclock_msg_one),
	KUNIT_CASE(smpl_cpuclock_msg_task),
	KUNIT_CASE(smpl_cpuclock_msg_ip),
	KUNIT_CASE(smpl_cpuclock_entry_task),
	{}
};

static struct kunit_suite pfmk_smpl_cpuclock_suite = {
	.name = "pfmk_smpl_cpuclock",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_cpuclock_cases,
};

kunit_test_suites(&pfmk_smpl_cpuclock_suite);
