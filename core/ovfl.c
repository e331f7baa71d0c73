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
 * writer, by pfmk_ovfl_get_stats() (process context, ctx->mutex held).
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

/**
 * pfmk_pmd_set_plain() - may a PMD's overflows take the plain sample?
 * @pmd: the PMD.
 *
 * The plain sample (pfmk_ovfl_plain()) takes the default format without
 * AUX snippets, a PMD that resets no other PMD, records no PMD values nor
 * randomizes its period, in a set that does not switch on overflows.
 * Called whenever one of these changes: a PMD written, a set described.
 *
 * Context: process context; the PMD's ctx->mutex held, its events
 * disabled.
 */
void pfmk_pmd_set_plain(struct pfmk_pmd *pmd)
{
	lockdep_assert_held(&pmd->ctx->mutex);

	pmd->ovfl_plain = pmd->ctx->smpl_plain && !pmd->has_reset_pmds &&
			  !pmd->has_smpl_pmds &&
			  !(pmd->flags & PFM_REGFL_RANDOM) &&
			  !(pmd->set->flags & PFM_SETFL_OVFL_SWITCH);
}

/* Value of a PMD at an overflow; @count is its event's count. */
static u64 pfmk_pmd_value_at(const struct pfmk_pmd *pmd, u64 count)
{
	return pmd->value + (count - pmd->perf_base);
}

/*
 * Reload a PMD with @val, whose period is @period; @count is its event's
 * count, @past how far the PMD ran past zero (0 for a PMD that did not
 * overflow).  Like the PMU, which keeps counting from the overflow, the
 * PMD keeps @past modulo the new period, and whole periods in @past were
 * missed: the next overflow then comes when perf's comes.
 */
static __always_inline void pfmk_pmd_reload(struct pfmk_ctx *ctx,
					    struct pfmk_pmd *pmd, u64 val,
					    u64 period, u64 count, u64 past)
{
	u64 carry;

	pmd->value = val;
	if (unlikely(past)) {
		ctx->stats.ovfl_missed += div64_u64_rem(past, period, &carry);
		pmd->value = val + carry;
	}
	pmd->perf_base = count;
	pmd->last_reset_val = val;
}

/*
 * Reload a PMD with its short reset value, random part included; @ovfl is
 * @pmd's event if it is the one that overflowed, else NULL.
 */
static __always_inline void pfmk_pmd_short_reset(struct pfmk_ctx *ctx,
						 struct pfmk_pmd *pmd,
						 u64 count, u64 past,
						 struct perf_event *ovfl)
{
	u64 val = pfmk_pmd_reset_value(pmd, false);
	u64 period = pfmk_pmd_period(val);

	pfmk_pmd_reload(ctx, pmd, val, period, count, past);
	if (ovfl)
		pfmk_perf_set_period_self(ovfl, period);
	else
		pfmk_perf_set_period_peer(pfmk_pmd_event_ovfl(pmd), period);
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
				     event ? pfmk_perf_count_local(event) : 0, 0,
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
				pfmk_pmd_value_at(p, pfmk_perf_count_local(event));
	}
	return n;
}

/*
 * The default format's entry without PMD values nor AUX snippet, written
 * in place (pfmk_dfl_record_plain()), for a context whose format is the
 * default one without AUX snippets (ctx->smpl_plain) and a PMD without
 * reg_smpl_pmds.  Returns the format's answer, or 0 if the entry does not
 * fit (the handler then records the buffer full).
 */
static __always_inline u32 pfmk_ovfl_record_dfl(struct pfmk_ctx *ctx,
						struct pfmk_set *set,
						struct pfmk_pmd *pmd,
						struct pt_regs *regs, u64 now,
						bool throttled)
{
	struct pfmk_ovfl_arg arg = {
		.ovfl_pmd = pmd->num,
		.active_set = set->id,
		.throttled = throttled,
		.last_reset_val = pmd->last_reset_val,
		.tstamp = now,
	};

	return pfmk_dfl_record_plain(ctx->smpl_buf, ctx->smpl_priv, &arg, regs,
				     &ctx->stats.smpl_count);
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
	pfmk_perf_set_period_peer(pfmk_pmd_event_ovfl(pmd), S64_MAX);
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
			    u64 count)
{
	u64 past = pfmk_pmd_value_at(pmd, count);

	pmd->value = past;
	pmd->perf_base = count;
	pfmk_perf_set_period_self(event, pfmk_pmd_period(past));
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

/*
 * The overflow handler, in parts.  pfmk_ovfl_handler() reads the time,
 * sends a throttled overflow to pfmk_ovfl_throttled() (which counts it),
 * takes the context (pfmk_ovfl_enter()) and sends the overflow down one
 * of three paths, each of which opens the ovfl_seq write section
 * (pfmk_ovfl_begin()), then closes it and gives the context back
 * (pfmk_ovfl_end()):
 *
 * - masked: pfmk_ovfl_masked(), from pfmk_ovfl_enter(); a context frozen
 *   by a crash is given back at once;
 * - the plain sample, the common case: pfmk_ovfl_plain(), inline;
 * - everything else: pfmk_ovfl_general(), which records (or answers as
 *   2.2 without a format) and leaves the decision to pfmk_ovfl_decide(),
 *   as the plain sample does when it finds the buffer full.
 */

/*
 * One handler at a time owns the context's overflow state: a handler this
 * one interrupted, on this CPU, owns it now.  Returns false if so.
 */
static __always_inline bool pfmk_ovfl_get(struct pfmk_ctx *ctx)
{
	if (likely(!local_cmpxchg(&ctx->ovfl_busy, 0, 1)))
		return true;
	atomic64_inc(&ctx->ovfl_nested);
	return false;
}

static __always_inline void pfmk_ovfl_put(struct pfmk_ctx *ctx)
{
	/* Only handlers on this CPU look at it: program order is enough. */
	barrier();
	local_set(&ctx->ovfl_busy, 0);
}

/* Open the write section the readers of PMD values and stats retry on. */
static __always_inline void pfmk_ovfl_begin(struct pfmk_ctx *ctx)
{
	raw_write_seqcount_begin(&ctx->ovfl_seq);
	ctx->stats.ovfl_count++;
}

/* Close it and give the context back. */
static __always_inline void pfmk_ovfl_end(struct pfmk_ctx *ctx,
					  struct pfmk_pmd *pmd, bool masked,
					  bool notify, bool full)
{
	if (trace_pfmk_overflow_enabled())
		pfmk_ovfl_trace(ctx, pmd->set, pmd, masked, notify, full);
	raw_write_seqcount_end(&ctx->ovfl_seq);
	pfmk_ovfl_put(ctx);
}

/*
 * How far the PMD ran past zero, from its event's @count.  It may not have
 * wrapped yet where the PMU reloaded an older period before calling us
 * (see pfmk_pmd_reload()): then there is nothing to carry.
 */
static __always_inline u64 pfmk_ovfl_past(const struct pfmk_pmd *pmd,
					  u64 count)
{
	u64 past = pfmk_pmd_value_at(pmd, count);

	return past > S64_MAX ? 0 : past;
}

/*
 * Masked: record nothing, count nothing towards a switch.  A PMD waiting
 * for its long reset stays saturated; others reload their short reset.
 */
static noinline void pfmk_ovfl_masked(struct pfmk_ctx *ctx,
				      struct pfmk_pmd *pmd,
				      struct perf_event *event)
{
	u64 count;

	pfmk_ovfl_begin(ctx);
	ctx->stats.ovfl_masked++;
	if (!pmd->reset_pending) {
		count = pfmk_perf_count_self(event);
		pfmk_pmd_short_reset(ctx, pmd, count,
				     pfmk_ovfl_past(pmd, count), event);
		pfmk_ovfl_reset_others(ctx, pmd->set, pmd);
	}
	pfmk_ovfl_end(ctx, pmd, true, false, false);
}

/*
 * What the format (or 2.2 without one) answered, done: reset, run on or
 * mask, then the switch request and the notification, both delivered by
 * ctx->irq_work; @count is the event's, @must_switch tells that this
 * overflow completed the PMD's PFM_SETFL_OVFL_SWITCH count.  Ends the
 * overflow (pfmk_ovfl_end()).
 */
static noinline void pfmk_ovfl_decide(struct pfmk_pmd *pmd,
				      struct perf_event *event,
				      struct pt_regs *regs, u64 count,
				      u32 ctrl, bool must_switch)
{
	struct pfmk_ctx *ctx = pmd->ctx;
	struct pfmk_set *set = pmd->set;
	bool full = ctrl & PFM_OVFL_CTRL_MASK;
	bool notify;

	if (full) {
		pfmk_ovfl_mask(ctx, set, pmd);
	} else if ((ctrl & PFM_OVFL_CTRL_RESET) || must_switch) {
		pfmk_pmd_short_reset(ctx, pmd, count,
				     pfmk_ovfl_past(pmd, count), event);
		pfmk_ovfl_reset_others(ctx, set, pmd);
	} else {
		pfmk_pmd_run_on(pmd, event, count);
	}
	/* A switch that came due while masking waits for pfmk_restart(). */
	if (must_switch) {
		ctx->switch_kick_ns = ktime_get_mono_fast_ns();
		atomic_set(&ctx->switch_kick, 1);
	}
	notify = (pmd->flags & PFM_REGFL_OVFL_NOTIFY) &&
		 (ctrl & PFM_OVFL_CTRL_NOTIFY);
	if (notify)
		pfmk_ovfl_notify(ctx, set, pmd, regs);
	pfmk_ovfl_end(ctx, pmd, false, notify, full);
	if (notify || must_switch)
		irq_work_queue(&ctx->irq_work);
}

/*
 * 2.2 without a format: saturate and mask, notify if asked; an overflow
 * that completes the switch count of a PMD without PFM_REGFL_OVFL_NOTIFY
 * switches instead of masking.
 */
static u32 pfmk_ovfl_no_fmt_ctrl(const struct pfmk_pmd *pmd, bool must_switch)
{
	if (must_switch && !(pmd->flags & PFM_REGFL_OVFL_NOTIFY))
		return PFM_OVFL_CTRL_NOTIFY;
	return PFM_OVFL_CTRL_NOTIFY | PFM_OVFL_CTRL_MASK;
}

/*
 * Any overflow but the plain sample: a format other than the default one
 * or with AUX snippets, no format, a PMD with reg_smpl_pmds,
 * reg_reset_pmds or a random period, a set that switches on overflows, an
 * overflow perf throttled (@throttled: its entry is marked).
 */
static noinline void pfmk_ovfl_general(struct pfmk_ctx *ctx,
				       struct pfmk_pmd *pmd,
				       struct perf_event *event,
				       struct pt_regs *regs, u64 now,
				       bool throttled)
{
	struct pfmk_set *set = pmd->set;
	bool must_switch;
	u64 count;
	u32 ctrl;

	pfmk_ovfl_begin(ctx);
	count = pfmk_perf_count_self(event);
	/* PFM_SETFL_OVFL_SWITCH: the Nth overflow of this PMD switches. */
	must_switch = (set->flags & PFM_SETFL_OVFL_SWITCH) &&
		      pmd->ovfl_switch_left && !--pmd->ovfl_switch_left;
	if (ctx->fmt)
		ctrl = pfmk_ovfl_record(ctx, set, pmd, count, regs, now,
					throttled);
	else
		ctrl = pfmk_ovfl_no_fmt_ctrl(pmd, must_switch);
	pfmk_ovfl_decide(pmd, event, regs, count, ctrl, must_switch);
}

/*
 * The plain sample, of a PMD with ovfl_plain at an overflow perf did not
 * throttle: an in-place entry of the default format, then the short reset
 * it answers with while the buffer has room.  A full buffer (after this
 * entry, or before it: the format then records) goes to the general
 * path's decision.
 */
static __always_inline void pfmk_ovfl_plain(struct pfmk_ctx *ctx,
					    struct pfmk_pmd *pmd,
					    struct perf_event *event,
					    struct pt_regs *regs, u64 now)
{
	u64 count;
	u32 ctrl;

	pfmk_ovfl_begin(ctx);
	ctrl = pfmk_ovfl_record_dfl(ctx, pmd->set, pmd, regs, now, false);
	count = pfmk_perf_count_self(event);
	if (unlikely(ctrl != PFM_OVFL_CTRL_RESET)) {
		if (!ctrl)
			ctrl = pfmk_ovfl_record_fmt(ctx, pmd->set, pmd, count,
						    regs, now, false);
		pfmk_ovfl_decide(pmd, event, regs, count, ctrl, false);
		return;
	}
	/* No random part (ovfl_plain): the short reset value as it is. */
	pfmk_pmd_reload(ctx, pmd, pmd->short_reset, pmd->short_period, count,
			pfmk_ovfl_past(pmd, count));
	pfmk_perf_set_period_self(event, pmd->short_period);
	pfmk_ovfl_end(ctx, pmd, false, false, false);
}

/*
 * Take the context for this overflow: false if a handler this one
 * interrupted owns it, or if it is masked (the masked path is done here)
 * or frozen.  Masked and frozen are read in one load, once the context
 * is ours: a handler that masks it cannot come in between.
 */
static __always_inline bool pfmk_ovfl_enter(struct pfmk_ctx *ctx,
					    struct pfmk_pmd *pmd,
					    struct perf_event *event)
{
	if (!pfmk_ovfl_get(ctx))
		return false;
	if (likely(!READ_ONCE(ctx->ovfl_off)))
		return true;
	/* Frozen by a crash (core/crash.c): the buffers stay as they were. */
	if (READ_ONCE(ctx->frozen))
		pfmk_ovfl_put(ctx);
	else
		pfmk_ovfl_masked(ctx, pmd, event);
	return false;
}

/*
 * An overflow at which perf throttled the event: counted even when nested,
 * masked or frozen (no entry then tells it), then the general path marks
 * its entry.
 */
static noinline void pfmk_ovfl_throttled(struct pfmk_ctx *ctx,
					 struct pfmk_pmd *pmd,
					 struct perf_event *event,
					 struct pt_regs *regs, u64 now)
{
	atomic64_inc(&ctx->throttled);
	if (pfmk_ovfl_enter(ctx, pmd, event))
		pfmk_ovfl_general(ctx, pmd, event, regs, now, true);
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
	/*
	 * The sample's time, read first: no value but the arguments is live
	 * across the call, so none other is saved and reloaded around it.
	 * A nested or masked overflow, or one without a format (each masks),
	 * wastes the read, but they are rare.  So does every overflow of a
	 * context frozen by an oops without a panic (its events run on at
	 * their last period), and each such overflow that finds the context
	 * busy counts in ovfl_nested.  Read before the context is taken, the
	 * time may be earlier than that of an entry a nested handler records
	 * first (Documentation/sampling.rst).
	 */
	u64 now = local_clock();
	struct pfmk_pmd *pmd = pfmk_perf_handler_ctx(event);
	struct pfmk_ctx *ctx = pmd->ctx;

	if (unlikely(pfmk_perf_throttled(event))) {
		pfmk_ovfl_throttled(ctx, pmd, event, regs, now);
		return;
	}
	if (!pfmk_ovfl_enter(ctx, pmd, event))
		return;
	if (likely(pmd->ovfl_plain))
		pfmk_ovfl_plain(ctx, pmd, event, regs, now);
	else
		pfmk_ovfl_general(ctx, pmd, event, regs, now, false);
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
 * pfmk_ovfl_get_stats() - snapshot of a context's overflow statistics
 * @ctx: the context, locked.
 * @stats: output.
 *
 * Context: process context; ctx->mutex held.
 */
void pfmk_ovfl_get_stats(struct pfmk_ctx *ctx, struct pfmk_ctx_stats *stats)
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
