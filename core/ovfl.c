// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk overflow path: perfmon2's 64-bit virtual PMDs on perf overflows.
 *
 * A PMD overflows when its 64-bit value wraps past 2^64.  A PMD whose
 * value or reset values have bit 63 set ("negative": within 2^63 events
 * of overflowing) is a sampling PMD: its perf event is created with
 * sample_period = 2^64 - value, and its overflow handler is
 * pfmk_ovfl_handler().  Other PMDs only count.  At each overflow, as in
 * perfmon2 2.2 (pfm_overflow_handler()):
 *
 *  1. with a sampling format, the format records an entry with the
 *     values of the PMD's reg_smpl_pmds and answers with PFM_OVFL_CTRL_*
 *     bits (the default format: RESET, or NOTIFY | MASK when the buffer
 *     is full; its common entry is written here, see pfmk_ovfl_record());
 *     without a format the answer is NOTIFY | MASK, except that
 *     an overflow that completes a PFM_SETFL_OVFL_SWITCH count of a PMD
 *     without PFM_REGFL_OVFL_NOTIFY switches sets instead of masking;
 *  2. without MASK, the PMD and its reg_reset_pmds are reloaded with their
 *     short reset values if RESET was asked, or a set switch is requested
 *     if the overflow completed a switch count;
 *  3. with MASK, the context is masked and nothing is reset: the PMD and
 *     its reg_reset_pmds wait for pfmk_restart(), which reloads them with
 *     their long reset values (a switch that came due meanwhile waits for
 *     it too); the PMD saturates (its perf period becomes the largest);
 *  4. with NOTIFY, the owner is notified only if the PMD has
 *     PFM_REGFL_OVFL_NOTIFY: a message (unless PFM_FL_OVFL_NO_MSG) and
 *     its completion.
 *
 * A reset value r means the next overflow comes after 2^64 - r events;
 * PFM_REGFL_RANDOM subtracts (random & reg_random_mask) from r, so the
 * period grows by a pseudo-random amount within the mask, drawn from a
 * Park-Miller generator seeded with reg_random_seed (perfmon2's).
 *
 * While masked, the PMDs keep counting (perf cannot stop an event from
 * NMI); overflows of other sampling PMDs reload their short reset but
 * record nothing.
 *
 * This runs in NMI (hardware PMUs), hard-irq (hrtimer and test PMUs) or,
 * for some software events (page faults), in the task that raised the
 * event with interrupts on, on the context's CPU: no locks, no
 * allocation, no complete().  Notifications go through ctx->irq_work.
 * The overflow statistics it keeps are read here too, next to their
 * writer, by pfmk_ctx_get_stats() (process context, ctx->mutex held).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/indirect_call_wrapper.h>
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>

#include "internal.h"
#include "perf.h"
#include "smpl_dfl.h"
#include "trace.h"

/* Park-Miller "minimal standard" generator, Carta's method (perfmon2). */
static u32 pfmk_random32(u32 *state)
{
	u32 seed = *state % 0x7fffffff;
	u64 p;
	u32 lo;

	if (!seed)
		seed = 1;
	p = (u64)16807 * seed;
	lo = (p & 0x7fffffff) + (u32)(p >> 31);
	if (lo & 0x80000000)
		lo = (lo & 0x7fffffff) + 1;
	*state = lo;
	return lo;
}

/**
 * pfmk_pmd_randomize() - a reset value less its random part
 * @pmd: a PMD with PFM_REGFL_RANDOM.
 * @val: its long or short reset value.
 *
 * Out of line: most PMDs are not randomized (pfmk_pmd_reset_value()).
 *
 * Context: any context; the caller owns the PMD's overflow state.
 * Return: the value to reload.
 */
u64 pfmk_pmd_randomize(struct pfmk_pmd *pmd, u64 val)
{
	u64 r = pfmk_random32(&pmd->rand_state);

	if (pmd->random_mask >> 31)
		r |= (u64)pfmk_random32(&pmd->rand_state) << 31;
	return val - (r & pmd->random_mask);
}

/**
 * pfmk_pmd_samples() - does a PMD need an overflow handler?
 * @pmd: the PMD.
 *
 * Return: true if its value or a reset value has bit 63 set.
 */
bool pfmk_pmd_samples(const struct pfmk_pmd *pmd)
{
	return (pmd->value | pmd->short_reset | pmd->long_reset) >> 63;
}

/* Value of a PMD at an overflow; @count is its event's count. */
static u64 pfmk_pmd_value_at(const struct pfmk_pmd *pmd, u64 count)
{
	return pmd->value + (count - pmd->perf_base);
}

/*
 * Reload a PMD with its short reset value; @count is its event's count,
 * @past how far the PMD ran past zero (0 for a PMD that did not overflow).
 * Like the PMU, which keeps counting from the overflow, the PMD keeps
 * @past modulo the new period, and whole periods in @past were missed:
 * the next overflow then comes when perf's comes.  @plain: the plain
 * sample's reset (pfmk_ovfl_handler()): no random part, and @ovfl set.
 */
static __always_inline void __pfmk_pmd_short_reset(struct pfmk_ctx *ctx,
						   struct pfmk_pmd *pmd,
						   u64 count, u64 past,
						   struct perf_event *ovfl,
						   bool plain)
{
	u64 val = plain ? pmd->short_reset : pfmk_pmd_reset_value(pmd, false);
	u64 period = pfmk_pmd_period(val), carry = 0;

	if (unlikely(past))
		ctx->stats.ovfl_missed += div64_u64_rem(past, period, &carry);
	pmd->value = val + carry;
	pmd->perf_base = count;
	pmd->last_reset_val = val;
	if (plain || ovfl)
		pfmk_perf_set_period_ovfl(ovfl, period);
	else
		pfmk_perf_set_period_nmi(pfmk_pmd_event_ovfl(pmd), period);
}

static __always_inline void pfmk_pmd_short_reset(struct pfmk_ctx *ctx,
						 struct pfmk_pmd *pmd,
						 u64 count, u64 past,
						 struct perf_event *ovfl)
{
	__pfmk_pmd_short_reset(ctx, pmd, count, past, ovfl, false);
}

static noinline void pfmk_ovfl_reset_set(struct pfmk_ctx *ctx,
					 struct pfmk_set *set,
					 const struct pfmk_pmd *pmd)
{
	const unsigned long *mask = (const unsigned long *)pmd->reset_pmds;
	unsigned int j;

	for_each_set_bit(j, mask, PFM_MAX_PMDS) {
		struct pfmk_pmd *other = &set->pmds[j];
		struct perf_event *event;

		/* A PMD waiting for its long reset is left alone. */
		if (other == pmd || other->reset_pending)
			continue;
		event = pfmk_pmd_event_ovfl(other);
		pfmk_pmd_short_reset(ctx, other,
				     event ? pfmk_perf_count_nmi(event) : 0, 0,
				     NULL);
	}
}

/* The short reset of @pmd's reg_reset_pmds; most PMDs name none. */
static __always_inline void pfmk_ovfl_reset_others(struct pfmk_ctx *ctx,
						   struct pfmk_set *set,
						   const struct pfmk_pmd *pmd)
{
	if (pmd->has_reset_pmds)
		pfmk_ovfl_reset_set(ctx, set, pmd);
}

/* The values of @pmd's reg_smpl_pmds into ctx->smpl_vals; returns how many. */
static unsigned int pfmk_ovfl_smpl_vals(struct pfmk_ctx *ctx,
					struct pfmk_set *set,
					const struct pfmk_pmd *pmd, u64 count)
{
	const unsigned long *mask = (const unsigned long *)pmd->smpl_pmds;
	unsigned int j, n = 0;

	for_each_set_bit(j, mask, PFM_MAX_PMDS) {
		struct pfmk_pmd *p = &set->pmds[j];
		struct perf_event *event = pfmk_pmd_event_ovfl(p);

		if (!event)
			ctx->smpl_vals[n++] = p->value;
		else if (p == pmd)
			ctx->smpl_vals[n++] = pfmk_pmd_value_at(p, count);
		else
			ctx->smpl_vals[n++] =
				pfmk_pmd_value_at(p, pfmk_perf_count_nmi(event));
	}
	return n;
}

/*
 * The default format's entry without PMD values nor AUX snippet, written
 * in place: what pfmk_dfl_handler() writes for such an overflow, without
 * building a struct pfmk_ovfl_arg and calling it.  For a context whose
 * format is the default one without AUX snippets (ctx->smpl_plain) and a
 * PMD without reg_smpl_pmds.  Returns the format's answer, or 0 if the
 * entry does not fit (the handler then records the buffer full).
 */
static __always_inline u32 pfmk_ovfl_record_dfl(struct pfmk_ctx *ctx,
						struct pfmk_set *set,
						struct pfmk_pmd *pmd,
						struct pt_regs *regs, u64 now,
						bool throttled)
{
	struct pfmk_dfl_priv *priv = ctx->smpl_priv;
	struct pfm_dfl_smpl_entry *ent;
	struct pfmk_ovfl_arg arg = {
		.ovfl_pmd = pmd->num,
		.active_set = set->id,
		.throttled = throttled,
		.last_reset_val = pmd->last_reset_val,
	};

	/* Every entry fits within max_entry: only the end of the buffer counts. */
	if (unlikely(priv->cur + sizeof(*ent) > priv->buf_size))
		return 0;
	arg.cpu = smp_processor_id();
	arg.pid = task_pid_nr(current);
	arg.tgid = task_tgid_nr(current);
	arg.ip = regs ? instruction_pointer(regs) : 0;
	arg.tstamp = now;
	ent = ctx->smpl_buf + priv->cur;
	pfmk_dfl_entry_fill(ent, &arg);
	ctx->stats.smpl_count++;
	return pfmk_dfl_commit(ctx->smpl_buf, priv, sizeof(*ent), throttled);
}

/* Record a sample through the format's ->handler(); returns its answer. */
static noinline u32 pfmk_ovfl_record_fmt(struct pfmk_ctx *ctx,
					 struct pfmk_set *set,
					 struct pfmk_pmd *pmd, u64 count,
					 struct pt_regs *regs, u64 now,
					 bool throttled)
{
	struct pfmk_ovfl_arg arg = { };
	unsigned int n = 0;

	if (pmd->has_smpl_pmds)
		n = pfmk_ovfl_smpl_vals(ctx, set, pmd, count);

	arg.ovfl_pmd = pmd->num;
	arg.active_set = set->id;
	arg.cpu = smp_processor_id();
	arg.pid = task_pid_nr(current);
	arg.tgid = task_tgid_nr(current);
	arg.ip = regs ? instruction_pointer(regs) : 0;
	arg.tstamp = now;
	arg.throttled = throttled;
	arg.last_reset_val = pmd->last_reset_val;
	arg.eventid = pmd->eventid;
	arg.nr_smpl_pmds = n;
	arg.smpl_pmds_val = ctx->smpl_vals;
	/* pfmk AUX: the snippet, if the format records one and there is AUX */
	if (unlikely(ctx->smpl_aux_max) && rcu_access_pointer(ctx->aux))
		pfmk_aux_snippet(ctx, &arg);

	/* The default format is called directly, without a retpoline. */
	if (!INDIRECT_CALL_1(ctx->fmt->handler, pfmk_dfl_handler,
			     ctx->smpl_buf, ctx->smpl_priv, &arg))
		ctx->stats.smpl_count++;
	return arg.ovfl_ctrl;
}

/*
 * Record a sample; returns the format's PFM_OVFL_CTRL_* answer.  The
 * default format's common entry, without PMD values, is written here.
 */
static __always_inline u32 pfmk_ovfl_record(struct pfmk_ctx *ctx,
					    struct pfmk_set *set,
					    struct pfmk_pmd *pmd, u64 count,
					    struct pt_regs *regs, u64 now,
					    bool throttled)
{
	u32 ctrl;

	if (likely(ctx->smpl_plain) && !pmd->has_smpl_pmds) {
		ctrl = pfmk_ovfl_record_dfl(ctx, set, pmd, regs, now,
					    throttled);
		if (likely(ctrl))
			return ctrl;
	}
	return pfmk_ovfl_record_fmt(ctx, set, pmd, count, regs, now,
				    throttled);
}

/*
 * Leave @pmd unreset until pfmk_restart(), and without interrupts: a
 * sampling event's next period becomes the largest (events of this
 * context and CPU; restart reprograms them with perf_event_period()).
 */
static void pfmk_pmd_saturate(struct pfmk_pmd *pmd)
{
	pmd->reset_pending = true;
	pfmk_perf_set_period_nmi(pfmk_pmd_event_ovfl(pmd), S64_MAX);
}

/*
 * Mask the context on an overflow of @pmd: nothing is reset; @pmd and its
 * reg_reset_pmds get their long reset at pfmk_restart().  @pmd saturates:
 * its count runs on from the wrap with no further interrupt, as a
 * perfmon2 PMD left unreset (perf cannot stop the event from NMI).
 */
static void pfmk_ovfl_mask(struct pfmk_ctx *ctx, struct pfmk_set *set,
			   struct pfmk_pmd *pmd)
{
	const unsigned long *mask = (const unsigned long *)pmd->reset_pmds;
	unsigned int j;

	WRITE_ONCE(ctx->masked, true);
	pfmk_pmd_saturate(pmd);
	for_each_set_bit(j, mask, PFM_MAX_PMDS)
		pfmk_pmd_saturate(&set->pmds[j]);
}

/*
 * Without RESET and without MASK (a format may answer so): the PMD counts
 * on from where it is (past its wrap, or just before it where the PMU
 * reloaded an older period), as an unreset perfmon2 PMD, until its next
 * 64-bit overflow.
 */
static void pfmk_pmd_run_on(struct pfmk_pmd *pmd, struct perf_event *event,
			    u64 count, u64 past)
{
	pmd->value = past;
	pmd->perf_base = count;
	pfmk_perf_set_period_ovfl(event, pfmk_pmd_period(past));
}

static void pfmk_ovfl_notify(struct pfmk_ctx *ctx, struct pfmk_set *set,
			     struct pfmk_pmd *pmd, struct pt_regs *regs)
{
	struct pfm_ovfl_msg *msg = &ctx->pending_msg.pfm_ovfl_msg;

	ctx->stats.notify_count++;
	atomic_set(&ctx->notify_wake, 1);
	if (ctx->flags & PFM_FL_OVFL_NO_MSG)
		return;
	/*
	 * One message in flight: a format may notify without masking, and
	 * the irq_work may be copying the previous one (NMIs are not held
	 * off by its lock).  A notification that finds one pending only
	 * wakes the owner, and is counted as a message dropped.
	 */
	if (READ_ONCE(ctx->msg_pending)) {
		ctx->stats.msgs_dropped++;
		return;
	}

	memset(msg, 0, sizeof(*msg));
	msg->msg_type = PFM_MSG_OVFL;
	msg->msg_ovfl_pid = task_tgid_nr(current);
	msg->msg_ovfl_tid = task_pid_nr(current);
	msg->msg_ovfl_pmds[pmd->num / 64] = BIT_ULL(pmd->num % 64);
	msg->msg_active_set = set->id;
	msg->msg_ovfl_cpu = smp_processor_id();
	msg->msg_ovfl_ip = regs ? instruction_pointer(regs) : 0;
	/* The message is complete before the irq_work sees the flag. */
	smp_store_release(&ctx->msg_pending, true);
}

/* Out of line: its arguments are not worked out unless it is enabled. */
static noinline void pfmk_ovfl_trace(struct pfmk_ctx *ctx, struct pfmk_set *set,
				     struct pfmk_pmd *pmd, bool masked,
				     bool notify, bool full)
{
	trace_pfmk_overflow(pfmk_desc_of(ctx), pmd->num, set->id, masked,
			    notify, full);
}

/**
 * pfmk_ovfl_handler() - perf overflow handler of sampling PMDs
 * @event: the overflowing event; its context is the PMD.
 * @data: perf sample data (unused).
 * @regs: interrupted registers.
 *
 * Context: NMI or hard-irq on the context's CPU, or, for software events
 * such as page faults, the task that caused the event with preemption off
 * and interrupts on.  Takes no lock.
 */
void pfmk_ovfl_handler(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	struct pfmk_pmd *pmd = pfmk_perf_handler_ctx(event);
	struct pfmk_ctx *ctx = pmd->ctx;
	struct pfmk_set *set = pmd->set;
	bool notify = false, kick = false, full = false, masked = false;
	bool must_switch, has_notify, throttled;
	u64 count, past, now = 0;
	u32 ctrl;

	/* Counted even when nested or masked: no entry then tells it. */
	throttled = pfmk_perf_throttled(event);
	if (unlikely(throttled))
		atomic64_inc(&ctx->throttled);
	/* Frozen by a crash (core/crash.c): the buffers stay as they were. */
	if (unlikely(READ_ONCE(ctx->frozen)))
		return;
	/* A handler this one interrupted, on this CPU, owns the context. */
	if (local_cmpxchg(&ctx->ovfl_busy, 0, 1)) {
		atomic64_inc(&ctx->ovfl_nested);
		return;
	}

	/*
	 * The sample's time, read first: no other value but @throttled is
	 * live across the call, so none other is saved and reloaded around
	 * it.  A masked overflow records nothing and wastes the read, but
	 * it is rare: masking saturates the PMD that overflowed, so only
	 * the set's other sampling PMDs can still interrupt, and testing
	 * ->masked here would add a load and a branch to every sample.
	 */
	if (ctx->fmt)
		now = local_clock();
	raw_write_seqcount_begin(&ctx->ovfl_seq);
	ctx->stats.ovfl_count++;
	count = pfmk_perf_count_ovfl(event);
	/*
	 * How far the PMD ran past zero.  It may not have wrapped yet where
	 * the PMU reloaded an older period before calling us (see
	 * pfmk_pmd_short_reset()): then there is nothing to carry.
	 */
	past = pfmk_pmd_value_at(pmd, count);
	if (past > S64_MAX)
		past = 0;

	if (READ_ONCE(ctx->masked)) {
		/*
		 * Masked: record nothing, count nothing towards a switch.  A
		 * PMD waiting for its long reset stays saturated; others
		 * reload their short reset.
		 */
		ctx->stats.ovfl_masked++;
		masked = true;
		if (!pmd->reset_pending) {
			pfmk_pmd_short_reset(ctx, pmd, count, past, event);
			pfmk_ovfl_reset_others(ctx, set, pmd);
		}
		goto out;
	}

	/*
	 * The plain sample: an in-place entry of the default format, then
	 * the short reset it answers with while the buffer has room, for a
	 * PMD that resets no other PMD nor randomizes its period, in a set
	 * that does not switch on overflows.  What the general path below
	 * does for it, with a few of its tests.
	 */
	if (likely(ctx->smpl_plain && pmd->ovfl_plain) &&
	    !(set->flags & PFM_SETFL_OVFL_SWITCH)) {
		ctrl = pfmk_ovfl_record_dfl(ctx, set, pmd, regs, now,
					    throttled);
		if (likely(ctrl == PFM_OVFL_CTRL_RESET)) {
			/* No random part (ovfl_plain); @event overflowed. */
			__pfmk_pmd_short_reset(ctx, pmd, count, past, event,
					       true);
			goto out;
		}
		/* Full: after this entry, or before it (the format records). */
		if (!ctrl)
			ctrl = pfmk_ovfl_record_fmt(ctx, set, pmd, count, regs,
						    now, throttled);
		must_switch = false;
		has_notify = pmd->flags & PFM_REGFL_OVFL_NOTIFY;
		goto decide;
	}

	/* PFM_SETFL_OVFL_SWITCH: the Nth overflow of this PMD switches. */
	must_switch = (set->flags & PFM_SETFL_OVFL_SWITCH) &&
		      pmd->ovfl_switch_left && !--pmd->ovfl_switch_left;
	has_notify = pmd->flags & PFM_REGFL_OVFL_NOTIFY;
	if (ctx->fmt) {
		ctrl = pfmk_ovfl_record(ctx, set, pmd, count, regs, now,
					throttled);
	} else {
		/* 2.2 without a format: saturate and mask, notify if asked. */
		ctrl = PFM_OVFL_CTRL_NOTIFY;
		if (!must_switch || has_notify)
			ctrl |= PFM_OVFL_CTRL_MASK;
	}
decide:
	full = ctrl & PFM_OVFL_CTRL_MASK;

	if (!(ctrl & PFM_OVFL_CTRL_MASK)) {
		if ((ctrl & PFM_OVFL_CTRL_RESET) || must_switch) {
			pfmk_pmd_short_reset(ctx, pmd, count, past, event);
			pfmk_ovfl_reset_others(ctx, set, pmd);
		} else {
			pfmk_pmd_run_on(pmd, event, count,
					pfmk_pmd_value_at(pmd, count));
		}
	} else {
		pfmk_ovfl_mask(ctx, set, pmd);
	}
	/* A switch that came due while masking waits for pfmk_restart(). */
	if (must_switch) {
		ctx->switch_kick_ns = ktime_get_mono_fast_ns();
		atomic_set(&ctx->switch_kick, 1);
		kick = true;
	}
	notify = has_notify && (ctrl & PFM_OVFL_CTRL_NOTIFY);
	if (notify)
		pfmk_ovfl_notify(ctx, set, pmd, regs);
out:
	if (trace_pfmk_overflow_enabled())
		pfmk_ovfl_trace(ctx, set, pmd, masked, notify, full);

	raw_write_seqcount_end(&ctx->ovfl_seq);
	/* Only handlers on this CPU look at it: program order is enough. */
	barrier();
	local_set(&ctx->ovfl_busy, 0);

	if (notify || kick)
		irq_work_queue(&ctx->irq_work);
}

/**
 * pfmk_ovfl_work() - deliver a notification out of the overflow path
 * @work: the context's irq_work.
 *
 * Queues the pending message, if any, and completes the owner's
 * completion; requests the event set switch an overflow asked for.
 * pfmk_restart() and pfmk_close() wait for this to finish (irq_work_sync())
 * before touching the pending message or the completion.
 *
 * Context: hard-irq, on the context's CPU.
 */
void pfmk_ovfl_work(struct irq_work *work)
{
	struct pfmk_ctx *ctx = container_of(work, struct pfmk_ctx, irq_work);

	/* xchg: an NMI may set these again while we run. */
	if (atomic_xchg(&ctx->switch_kick, 0))
		pfmk_set_request_switch(ctx, ctx->switch_kick_ns);
	/* Pairs with the release in pfmk_ovfl_notify(). */
	if (smp_load_acquire(&ctx->msg_pending)) {
		union pfm_msg msg = ctx->pending_msg;
		bool queued;

		/* Copied: the overflow path may build the next one now. */
		smp_store_release(&ctx->msg_pending, false);
		queued = pfmk_msgq_push(&ctx->msgq, &msg);
		trace_pfmk_msg(pfmk_desc_of(ctx), msg.type, queued);
	}
	if (atomic_xchg(&ctx->notify_wake, 0))
		complete(ctx->completion);
}

/**
 * pfmk_ctx_get_stats() - snapshot of a context's overflow statistics
 * @ctx: the context, locked.
 * @stats: output.
 *
 * Context: process context; ctx->mutex held.
 */
void pfmk_ctx_get_stats(struct pfmk_ctx *ctx, struct pfmk_ctx_stats *stats)
{
	unsigned int seq;

	lockdep_assert_held(&ctx->mutex);

	/* The overflow path updates the counters inside ovfl_seq. */
	do {
		seq = raw_read_seqcount_begin(&ctx->ovfl_seq);
		*stats = ctx->stats;
	} while (read_seqcount_retry(&ctx->ovfl_seq, seq));
	/* Dropped at a full queue, and coalesced in the overflow path. */
	stats->msgs_dropped = ctx->stats.msgs_dropped +
			      READ_ONCE(ctx->msgq.dropped);
	stats->ovfl_nested = atomic64_read(&ctx->ovfl_nested);
	stats->throttled = atomic64_read(&ctx->throttled);
}
