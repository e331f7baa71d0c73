// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk event sets: perfmon2's user-defined sets and their switching.
 *
 * A context has one or more event sets, each with its own PMC values and
 * 64-bit PMDs.  Set 0 always exists and holds the registers of callers
 * that never create sets.  While the context is loaded, exactly one set,
 * the active set, counts; the others keep their values.  The active set
 * changes ("switches") to the next set:
 *
 *  - PFM_SETFL_TIME_SWITCH: after the set's timeout (set_timeout, in us;
 *    at least PFMK_SET_MIN_TIMEOUT_US) of being active;
 *  - PFM_SETFL_OVFL_SWITCH: after reg_ovfl_switch_cnt overflows of any of
 *    the set's PMDs that have one.
 *
 * The next set is set_id_next with PFM_SETFL_EXPL_NEXT, otherwise the set
 * with the next higher id, wrapping around to the lowest.
 *
 * Every set's perf events are created at load and stay created; only the
 * active set's are enabled.  A switch disables the old set's events and
 * enables the new set's, so their values carry over untouched.  perf
 * calls sleep, and switches are requested by an hrtimer (hard-irq) or the
 * overflow path (NMI, through ctx->irq_work), so the switch itself runs in
 * ctx->switch_work, under ctx->mutex.  The delay between the request and
 * the new set counting is counted in the context's statistics
 * (switch_lat_max, switch_lat_total).  A switch requested while the
 * context is MASKED waits for pfmk_restart(), as in perfmon2; stopping or
 * unloading the context drops it.
 *
 * All functions here expect ctx->mutex held unless they say otherwise.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "../pmu/compat_internal.h"
#include "internal.h"
#include "perf.h"
#include "trace.h"

static struct workqueue_struct *pfmk_sets_wq;

/**
 * pfmk_set_regs_size() - bytes of a set's register arrays
 * @nregs: PMCs (and PMDs) of the description.
 *
 * The PMDs then the PMC values, stored behind the set (and, for set 0,
 * behind the context: core/context.c allocates both at once).
 *
 * Context: any context.
 * Return: the size in bytes.
 */
size_t pfmk_set_regs_size(unsigned int nregs)
{
	return nregs * (sizeof(struct pfmk_pmd) + sizeof(u64));
}

/**
 * pfmk_set_clean() - set 0's first PMDs as a new context finds them
 * @ctx: the context whose memory holds them.
 * @regs: set 0's registers (ctx->set0_regs).
 * @nregs: how many PMDs, from 0.
 *
 * Zero, but for what a PMD of @ctx's set 0 always holds: its number, its
 * context and its set.  The cache's constructor cleans every PMD of the
 * size class, and zeroes the PMC values; the close of a context
 * (pfmk_sets_free()) cleans the PMDs it may have changed and zeroes the
 * PMC values it used, so that a create reusing the memory need not touch
 * them but for PMCs whose default is not 0.
 *
 * Context: any context; nothing else uses the PMDs.
 */
void pfmk_set_clean(struct pfmk_ctx *ctx, void *regs, unsigned int nregs)
{
	struct pfmk_pmd *pmds = regs;
	unsigned int i;

	memset(pmds, 0, nregs * sizeof(*pmds));
	for (i = 0; i < nregs; i++) {
		pmds[i].num = i;
		pmds[i].ctx = ctx;
		pmds[i].set = &ctx->set0;
	}
}

/*
 * Give @set its id and register arrays, laid out in @regs: @room PMDs,
 * then the PMC values, all zero, and their defaults written.  Set 0's
 * PMDs are clean already (pfmk_set_clean()); another set's get their
 * number, context and set here.
 */
static void pfmk_set_init(struct pfmk_ctx *ctx, struct pfmk_set *set, u16 id,
			  void *regs, unsigned int room)
{
	const struct pfmk_pmu_desc *pmu = ctx->pmu;
	unsigned int i, nregs = ctx->nregs;

	set->id = id;
	set->pmds = regs;
	set->pmcs = (u64 *)(set->pmds + room);
	for_each_set_bit(i, pmu->dfl_set, nregs)
		set->pmcs[i] = pmu->pmc_desc[i].dfl_val;
	if (set == &ctx->set0)
		return;
	for (i = 0; i < nregs; i++) {
		set->pmds[i].num = i;
		set->pmds[i].ctx = ctx;
		set->pmds[i].set = set;
	}
}

/* A set other than set 0, in one allocation with its registers. */
static struct pfmk_set *pfmk_set_alloc(struct pfmk_ctx *ctx, u16 id)
{
	struct pfmk_set *set;

	set = kzalloc(sizeof(*set) + pfmk_set_regs_size(ctx->nregs),
		      GFP_KERNEL);
	if (set)
		pfmk_set_init(ctx, set, id, set + 1, ctx->nregs);
	return set;
}

static size_t pfmk_set_mem(const struct pfmk_ctx *ctx)
{
	return sizeof(struct pfmk_set) + pfmk_set_regs_size(ctx->nregs);
}

/*
 * Free a set taken off the list: after a grace period, since the lockless
 * read path may still be looking at it.  Set 0 is part of the context and
 * goes with it.
 */
static void pfmk_set_free(struct pfmk_ctx *ctx, struct pfmk_set *set)
{
	if (set != &ctx->set0)
		kfree_rcu(set, rcu);
}

/* Insert @set into the context's list, keeping it sorted by id. */
static void pfmk_set_insert(struct pfmk_ctx *ctx, struct pfmk_set *set)
{
	struct pfmk_set *pos;

	list_for_each_entry(pos, &ctx->sets, list) {
		if (pos->id > set->id) {
			list_add_tail_rcu(&set->list, &pos->list);
			ctx->nr_sets++;
			return;
		}
	}
	list_add_tail_rcu(&set->list, &ctx->sets);
	ctx->nr_sets++;
}

static enum hrtimer_restart pfmk_set_timeout(struct hrtimer *timer)
{
	struct pfmk_ctx *ctx = container_of(timer, struct pfmk_ctx,
					    switch_timer);

	/* Due when the timer was due: a late timer is latency too. */
	pfmk_set_request_switch(ctx, ktime_to_ns(hrtimer_get_expires(timer)));
	return HRTIMER_NORESTART;
}

static void pfmk_set_switch_work(struct work_struct *work);

/**
 * pfmk_sets_init() - give a new context its set 0
 * @ctx: the context being created, its PMU description and nregs set;
 *	set 0's registers are in ctx->set0_regs, clean (pfmk_set_clean()).
 *
 * Context: process context.
 */
void pfmk_sets_init(struct pfmk_ctx *ctx)
{
	INIT_LIST_HEAD(&ctx->sets);
	ctx->nr_sets = 0;
	/* The switch timer waits for a set that needs it. */
	ctx->switch_timer_ready = false;
	INIT_WORK(&ctx->switch_work, pfmk_set_switch_work);
	atomic_set(&ctx->switch_req, 0);
	ctx->switch_req_ns = 0;
	pfmk_set_init(ctx, &ctx->set0, 0, ctx->set0_regs,
		      pfmk_set0_room(ctx));
	pfmk_set_insert(ctx, &ctx->set0);
	/* Not yet published: no reader to order against. */
	RCU_INIT_POINTER(ctx->active_set, &ctx->set0);
}

/**
 * pfmk_sets_free() - free every set of a context
 * @ctx: the context, unloaded and dead, or never published: no handler,
 *	work or lockless reader is left in its registers.
 *
 * Cleans set 0's PMDs up to the last one the context may have changed,
 * and zeroes its PMC values, so that the next context in this memory finds
 * them clean.  Set 0, part of the context, stays on the list, alone: the
 * next create starts the list again (pfmk_sets_init()).
 *
 * Context: process context; may sleep.
 */
void pfmk_sets_free(struct pfmk_ctx *ctx)
{
	struct pfmk_set *set, *tmp;

	/* Never armed unless set up (pfmk_set_timer_prepare()). */
	if (ctx->switch_timer_ready)
		hrtimer_cancel(&ctx->switch_timer);
	list_for_each_entry_safe(set, tmp, &ctx->sets, list) {
		if (set == &ctx->set0)
			continue;
		list_del_rcu(&set->list);
		pfmk_set_free(ctx, set);
	}
	/* Set 0 stays listed; pfmk_sets_init() starts the list again. */
	ctx->nr_sets = 1;
	RCU_INIT_POINTER(ctx->active_set, NULL);
	pfmk_set_clean(ctx, ctx->set0_regs, ctx->set0.pmd_span);
	ctx->set0.pmd_span = 0;
	memset(ctx->set0.pmcs, 0, ctx->nregs * sizeof(*ctx->set0.pmcs));
}

/**
 * pfmk_set_find() - find a set of a context by identifier
 * @ctx: the context.
 * @id: set identifier.
 *
 * Context: ctx->mutex held (lockless readers: pfmk_set_find_rcu()).
 * Return: the set, or NULL if the context has no set @id.
 */
struct pfmk_set *pfmk_set_find(struct pfmk_ctx *ctx, u16 id)
{
	struct pfmk_set *set;

	lockdep_assert_held(&ctx->mutex);
	list_for_each_entry(set, &ctx->sets, list) {
		if (set->id == id)
			return set;
		if (set->id > id)
			break;
	}
	return NULL;
}

/**
 * pfmk_set_find_rcu() - pfmk_set_find() for lockless readers
 * @ctx: the context.
 * @id: set identifier.
 *
 * Context: rcu_read_lock() held, or interrupts off.
 * Return: the set, or NULL; it stays allocated until the RCU section ends.
 */
struct pfmk_set *pfmk_set_find_rcu(struct pfmk_ctx *ctx, u16 id)
{
	struct pfmk_set *set;

	list_for_each_entry_rcu(set, &ctx->sets, list) {
		u16 sid = READ_ONCE(set->id);

		if (sid == id)
			return set;
		if (sid > id)
			break;
	}
	return NULL;
}

/*
 * ns since the activation of @set, a set without events (no set->clk).
 * local_clock() is per CPU and may be a little behind on the CPU reading
 * it now (start, stop and getinfo may run on different CPUs): a negative
 * difference counts as 0.
 */
static u64 pfmk_set_active_ns(const struct pfmk_set *set)
{
	s64 d = local_clock() - set->act_start;

	return d > 0 ? d : 0;
}

/* ns @set's clock PMD was enabled since it became its clock, at @now. */
static u64 pfmk_set_clk_ns(const struct pfmk_set *set, u64 now)
{
	return now > set->clk_base ? now - set->clk_base : 0;
}

/*
 * perfmon2's set_act_duration: the ns @set was active, counting.  Read
 * from the enabled time of its clock PMD's events (perf updates it at
 * their enable and disable, which start, stop and switches do anyway), or,
 * for a set without events, from local_clock() at its activations.
 */
static u64 pfmk_set_active_time(struct pfmk_ctx *ctx, struct pfmk_set *set)
{
	u64 t = set->duration;

	lockdep_assert_held(&ctx->mutex);
	if (set->clk)
		t += pfmk_set_clk_ns(set, pfmk_perf_enabled(set->clk));
	if (set->act_start)
		t += pfmk_set_active_ns(set);
	/*
	 * perf brings an inactive (multiplexed) event's enabled time up to
	 * date with the clock of the CPU reading it, which may lag the one
	 * that read it last: never report less than before.
	 */
	set->act_seen = max(set->act_seen, t);
	return set->act_seen;
}

/**
 * pfmk_set_time_source() - choose what times a set whose events changed
 * @ctx: the context, locked.
 * @set: a set of @ctx, not counting (the context stopped, or the set not
 *	active, or its CPU away), whose events were just created, replaced
 *	or released.
 * @fresh: @set's events were all just created, never enabled (a load).
 *
 * A set is timed by the enabled time of one of its PMDs' events
 * (set->clk), so that start, stop and switches read no clock.  The PMD
 * stays the set's clock for as long as it has an event when the set's
 * events change: the time of its released events is kept in the PMD
 * (pfmk_perf_release()), so an event replaced by a write, or released by
 * an unload or by its CPU leaving and created again, times on.  A PMD
 * left without an event folds its time into set->duration and the set
 * takes another.  An AUX PMD never times the set: perf disables an AUX
 * event on its own when its buffer is full.  A set with no other event
 * is timed by local_clock() at its activations.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_set_time_source(struct pfmk_ctx *ctx, struct pfmk_set *set,
			  bool fresh)
{
	unsigned int i, n = min(ctx->pmu->num_pmcs, set->ev_span);
	struct pfmk_pmd *clk = set->clk;

	lockdep_assert_held(&ctx->mutex);
	if (clk && pfmk_pmd_event(clk) &&
	    !pfmk_aux_pmd_set_up(ctx, set, clk->num))
		return;
	/* Not counting: a set timed by the clock has folded its time. */
	WARN_ON_ONCE(set->act_start);
	if (clk) {
		set->duration += pfmk_set_clk_ns(set, fresh ? clk->time_enabled :
						       pfmk_perf_enabled(clk));
		set->clk = NULL;
	}
	for (i = 0; i < n; i++) {
		clk = &set->pmds[i];
		if (!pfmk_pmd_event(clk) || pfmk_aux_pmd_set_up(ctx, set, i))
			continue;
		set->clk_base = fresh ? clk->time_enabled :
					pfmk_perf_enabled(clk);
		set->clk = clk;
		return;
	}
}

/* The set that follows @set. */
static struct pfmk_set *pfmk_set_next(struct pfmk_ctx *ctx,
				      struct pfmk_set *set)
{
	struct pfmk_set *next;

	if (set->flags & PFM_SETFL_EXPL_NEXT) {
		next = pfmk_set_find(ctx, set->id_next);
		if (next)
			return next;
	}
	if (list_is_last(&set->list, &ctx->sets))
		return list_first_entry(&ctx->sets, struct pfmk_set, list);
	return list_next_entry(set, list);
}

/**
 * pfmk_sets_load() - create the perf events of every set
 * @ctx: the context being loaded; ctx->cpu set.
 *
 * Every set's events exist while loaded, disabled but for the active
 * set's once started: a switch only disables and enables events.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0, or the first error of pfmk_perf_load_set(); no event is left
 * behind on error.
 */
int pfmk_sets_load(struct pfmk_ctx *ctx)
{
	struct pfmk_set *set;
	int ret;

	lockdep_assert_held(&ctx->mutex);

	list_for_each_entry(set, &ctx->sets, list) {
		ret = pfmk_perf_load_set(set, ctx->pmu, ctx->cpu);
		if (ret) {
			list_for_each_entry_continue_reverse(set, &ctx->sets,
							     list)
				pfmk_perf_unload_set(set, ctx->pmu->num_pmcs);
			return ret;
		}
	}
	list_for_each_entry(set, &ctx->sets, list)
		pfmk_set_time_source(ctx, set, true);
	return 0;
}

/**
 * pfmk_sets_unload() - fold the counts and release the events of every set
 * @ctx: the context, stopped.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_sets_unload(struct pfmk_ctx *ctx)
{
	struct pfmk_set *set;

	lockdep_assert_held(&ctx->mutex);

	list_for_each_entry(set, &ctx->sets, list)
		pfmk_perf_unload_set(set, ctx->pmu->num_pmcs);
}

/* Reload a set's overflow-switch counts (read_pmds reports what is left). */
static void pfmk_set_reload_switch_counts(struct pfmk_ctx *ctx,
					  struct pfmk_set *set)
{
	unsigned int i;

	for (i = 0; i < ctx->nregs; i++)
		WRITE_ONCE(set->pmds[i].ovfl_switch_left,
			   set->pmds[i].ovfl_switch_cnt);
}

/* pfmk_set_resume(), inline in pfmk_set_activate(): pfmk_start()'s path. */
static __always_inline void __pfmk_set_resume(struct pfmk_ctx *ctx,
					      struct pfmk_set *set)
{
	pfmk_perf_enable_set(set, ctx->pmu->num_pmcs);
	/*
	 * The enable started the clock PMD's enabled time.  A set without
	 * events is active from here to its deactivation, on local_clock()
	 * as perf's own times (perf_clock()) and perfmon2's set durations
	 * (sched_clock()): ktime_get_ns() reads the clocksource, an MMIO
	 * read where the TSC is not trusted.
	 */
	if (unlikely(!set->clk))
		set->act_start = local_clock();
	if (set->flags & PFM_SETFL_TIME_SWITCH)
		hrtimer_start(&ctx->switch_timer,
			      ns_to_ktime((u64)set->timeout_us * NSEC_PER_USEC),
			      HRTIMER_MODE_REL);
}

/**
 * pfmk_set_resume() - let the active set count again where it stopped
 * @ctx: the context, loaded and started, with no set counting.
 *
 * Unlike pfmk_set_activate(), not a new run: the overflow-switch counts
 * go on; a PFM_SETFL_TIME_SWITCH set gets a whole timeout again.  Used
 * when a CPU comes back and when a switch is called off.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_set_resume(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	__pfmk_set_resume(ctx, pfmk_ctx_active_set(ctx));
}

/**
 * pfmk_set_activate() - make a set the active one and start it counting
 * @ctx: the context, loaded and started, with no set counting.
 * @set: the set.
 *
 * Reloads the set's overflow-switch counts, enables its events and, with
 * PFM_SETFL_TIME_SWITCH, arms its timeout.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_set_activate(struct pfmk_ctx *ctx, struct pfmk_set *set)
{
	lockdep_assert_held(&ctx->mutex);
	rcu_assign_pointer(ctx->active_set, set);
	/*
	 * Only overflows of a PFM_SETFL_OVFL_SWITCH set count down; in any
	 * other set, the counts are still those pfmk_write_pmds() wrote or
	 * pfmk_set_describe() reloaded.
	 */
	if (set->flags & PFM_SETFL_OVFL_SWITCH)
		pfmk_set_reload_switch_counts(ctx, set);
	set->runs++;
	/* While the CPU is away nothing counts: its re-arm resumes. */
	if (!ctx->offline)
		__pfmk_set_resume(ctx, set);
}

/**
 * pfmk_set_deactivate() - stop the active set counting
 * @ctx: the context, loaded and started.
 *
 * Cancels the timeout, disables the set's events and waits for a handler
 * the disable missed (no overflow handler of theirs runs after this).
 * The disable ends the set's active time; a set without events accounts
 * it here.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_set_deactivate(struct pfmk_ctx *ctx)
{
	struct pfmk_set *set = pfmk_ctx_active_set(ctx);

	lockdep_assert_held(&ctx->mutex);
	/* Only such a set arms it, and sets do not change while loaded. */
	if (set->flags & PFM_SETFL_TIME_SWITCH)
		hrtimer_cancel(&ctx->switch_timer);
	pfmk_perf_disable_set(set, ctx->pmu->num_pmcs);
	pfmk_ctx_sync_handlers(ctx);
	if (set->act_start) {
		set->duration += pfmk_set_active_ns(set);
		set->act_start = 0;
	}
}

/**
 * pfmk_set_request_switch() - ask for a switch to the next set
 * @ctx: the context.
 * @when: CLOCK_MONOTONIC ns when the switch came due.
 *
 * Called by the set's timer, or by the overflow path through
 * ctx->irq_work.  The switch work holds a context reference.
 *
 * Context: hard-irq or process context; not NMI.
 */
void pfmk_set_request_switch(struct pfmk_ctx *ctx, u64 when)
{
	if (atomic_xchg(&ctx->switch_req, 1))
		return;
	WRITE_ONCE(ctx->switch_req_ns, when);
	refcount_inc(&ctx->ref);
	if (!queue_work(pfmk_sets_wq, &ctx->switch_work))
		pfmk_desc_put(ctx);
}

/* Switch from the active set to the next one. */
static void pfmk_set_switch(struct pfmk_ctx *ctx)
{
	struct pfmk_set *cur = pfmk_ctx_active_set(ctx);
	struct pfmk_set *next = pfmk_set_next(ctx, cur);
	u64 lat;
	unsigned int i;

	pfmk_set_deactivate(ctx);
	/*
	 * An overflow between the caller's check and the disable may have
	 * masked the context: then the switch waits for pfmk_restart(), and
	 * the set that raised the notification counts on until then.
	 */
	if (READ_ONCE(ctx->masked)) {
		pfmk_set_resume(ctx);
		return;
	}
	/* The overflow path is quiet: record which PMDs made us switch. */
	memset(cur->ovfl_pmds, 0, sizeof(cur->ovfl_pmds));
	for (i = 0; i < ctx->pmu->num_pmcs; i++)
		if (cur->pmds[i].ovfl_switch_cnt &&
		    !cur->pmds[i].ovfl_switch_left)
			__set_bit(i, (unsigned long *)cur->ovfl_pmds);
	atomic_set(&ctx->switch_req, 0);
	pfmk_set_activate(ctx, next);

	lat = ktime_get_ns() - READ_ONCE(ctx->switch_req_ns);
	trace_pfmk_set_switch(pfmk_desc_of(ctx), cur->id, next->id, lat);
	ctx->stats.set_switches++;
	ctx->stats.switch_lat_total += lat;
	if (lat > ctx->stats.switch_lat_max)
		ctx->stats.switch_lat_max = lat;
}

/**
 * pfmk_set_switch_pending() - do a requested switch, if it can be done
 * @ctx: the context, locked.
 *
 * A request is dropped if the context is no longer loaded and started,
 * and kept while it is masked or its CPU is offline (pfmk_restart() and
 * the re-arm call this again).
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_set_switch_pending(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	if (!atomic_read(&ctx->switch_req))
		return;
	if (ctx->dead || ctx->state == PFM_CTX_UNLOADED || !ctx->started) {
		atomic_set(&ctx->switch_req, 0);
		return;
	}
	/*
	 * Kept while masked (pfmk_restart() calls this again) and while the
	 * CPU is away (its re-arm does): the overflow-switch count that
	 * asked for it is spent, only the switch reloads it.
	 */
	if (READ_ONCE(ctx->masked) || ctx->offline)
		return;
	pfmk_set_switch(ctx);
}

static void pfmk_set_switch_work(struct work_struct *work)
{
	struct pfmk_ctx *ctx = container_of(work, struct pfmk_ctx,
					    switch_work);

	mutex_lock(&ctx->mutex);
	pfmk_set_switch_pending(ctx);
	mutex_unlock(&ctx->mutex);
	pfmk_desc_put(ctx);
}

static int pfmk_setdesc_error(struct pfarg_setdesc *d, u32 retfl)
{
	d->set_flags |= retfl;
	return -EINVAL;
}

/* Is @id defined, counting the sets of @req (before @n) and @ctx's? */
static bool pfmk_set_id_known(struct pfmk_ctx *ctx,
			      const struct pfarg_setdesc *req, int count,
			      u16 id)
{
	int i;

	if (pfmk_set_find(ctx, id))
		return true;
	for (i = 0; i < count; i++)
		if (req[i].set_id == id)
			return true;
	return false;
}

static int pfmk_check_setdesc(struct pfmk_ctx *ctx, struct pfarg_setdesc *req,
			      int count, int n)
{
	struct pfarg_setdesc *d = &req[n];
	int i;

	if (d->set_flags & ~PFMK_SET_FLAGS)
		return pfmk_setdesc_error(d, PFM_REG_RETFL_EINVAL);
	if ((d->set_flags & PFM_SETFL_TIME_SWITCH) &&
	    (d->set_flags & PFM_SETFL_OVFL_SWITCH))
		return pfmk_setdesc_error(d, PFM_REG_RETFL_EINVAL);
	if ((d->set_flags & PFM_SETFL_TIME_SWITCH) && !d->set_timeout)
		return pfmk_setdesc_error(d, PFM_REG_RETFL_EINVAL);
	for (i = 0; i < n; i++)
		if (req[i].set_id == d->set_id)
			return pfmk_setdesc_error(d, PFM_REG_RETFL_EINVAL);
	if ((d->set_flags & PFM_SETFL_EXPL_NEXT) &&
	    !pfmk_set_id_known(ctx, req, count, d->set_id_next))
		return pfmk_setdesc_error(d, PFM_REG_RETFL_NOSET);
	return 0;
}

static void pfmk_set_describe(struct pfmk_ctx *ctx, struct pfmk_set *set,
			      const struct pfarg_setdesc *d)
{
	unsigned int i;

	/*
	 * Overflows of the set as it was may have counted its switch
	 * counts down: reload them here, since pfmk_set_activate() only
	 * does for a set that switches on overflows.
	 */
	pfmk_set_reload_switch_counts(ctx, set);
	set->flags = d->set_flags;
	/*
	 * PFM_SETFL_OVFL_SWITCH keeps its overflows off the plain path.  A
	 * PMD past pmd_span was never written, so it cannot overflow, and
	 * pfmk_pmd_apply() decides its path when it is: set 0 stays clean
	 * (zero) past pmd_span, as its reuse wants.
	 */
	for (i = 0; i < set->pmd_span; i++)
		pfmk_pmd_set_plain(&set->pmds[i]);
	set->id_next = d->set_id_next;
	set->timeout_us = 0;
	if (d->set_flags & PFM_SETFL_TIME_SWITCH)
		set->timeout_us = max_t(u32, d->set_timeout,
					PFMK_SET_MIN_TIMEOUT_US);
}

/*
 * Check each of the @count set descriptions of @req (their return flags
 * cleared first) and count in *@nr_new those of sets @ctx does not have.
 * Returns 0 or the first description's error.
 */
static int pfmk_check_setdescs(struct pfmk_ctx *ctx, struct pfarg_setdesc *req,
			       int count, unsigned int *nr_new)
{
	int i, ret;

	for (i = 0; i < count; i++)
		req[i].set_flags &= ~PFM_REG_RETFL_MASK;
	for (i = 0; i < count; i++) {
		ret = pfmk_check_setdesc(ctx, req, count, i);
		if (ret)
			return ret;
		if (!pfmk_set_find(ctx, req[i].set_id))
			(*nr_new)++;
	}
	return 0;
}

/*
 * The sets of @req that @ctx does not have, allocated before anything
 * changes: an array of @count, NULL where the set exists, or NULL if out
 * of memory (nothing left allocated then).
 */
static struct pfmk_set **pfmk_sets_alloc_new(struct pfmk_ctx *ctx,
					     const struct pfarg_setdesc *req,
					     int count)
{
	struct pfmk_set **new;
	int i;

	new = kcalloc(count, sizeof(*new), GFP_KERNEL);
	if (!new)
		return NULL;
	for (i = 0; i < count; i++) {
		if (pfmk_set_find(ctx, req[i].set_id))
			continue;
		new[i] = pfmk_set_alloc(ctx, req[i].set_id);
		if (!new[i])
			goto err;
	}
	return new;

err:
	while (i--)
		if (new[i])
			pfmk_set_free(ctx, new[i]);
	kfree(new);
	return NULL;
}

/*
 * Set the switch timer up before the first set of @req that switches on
 * a timeout is described: only such a set arms it (__pfmk_set_resume()).
 * Unloaded, so no set counts and the timer is not armed.
 */
static void pfmk_set_timer_prepare(struct pfmk_ctx *ctx,
				   const struct pfarg_setdesc *req, int count)
{
	int i;

	lockdep_assert_held(&ctx->mutex);
	if (ctx->switch_timer_ready)
		return;
	for (i = 0; i < count; i++) {
		if (req[i].set_flags & PFM_SETFL_TIME_SWITCH) {
			pfmk_hrtimer_setup(&ctx->switch_timer, pfmk_set_timeout,
					   CLOCK_MONOTONIC, HRTIMER_MODE_REL);
			ctx->switch_timer_ready = true;
			return;
		}
	}
}

/*
 * Insert the sets of @new (from pfmk_sets_alloc_new()) and describe every
 * set of @req; readers of the lockless path see all the new sets, or none.
 */
static void pfmk_sets_define(struct pfmk_ctx *ctx,
			     const struct pfarg_setdesc *req, int count,
			     struct pfmk_set **new)
{
	int i;

	pfmk_ctx_write_begin(ctx);
	for (i = 0; i < count; i++) {
		struct pfmk_set *set = new[i];

		if (set) {
			pfmk_set_insert(ctx, set);
			ctx->mem += pfmk_set_mem(ctx);
			atomic_long_add(pfmk_set_mem(ctx),
					&pfmk_counters.mem_bytes);
		} else {
			set = pfmk_set_find(ctx, req[i].set_id);
		}
		pfmk_set_describe(ctx, set, &req[i]);
	}
	pfmk_ctx_write_end(ctx);
}

/**
 * pfmk_ctx_create_sets() - define event sets (see pfmk_create_evtsets())
 * @ctx: the context, locked.
 * @req: set descriptions.
 * @count: number of entries.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0 or a negative errno; on error no set was created or changed.
 */
int pfmk_ctx_create_sets(struct pfmk_ctx *ctx, struct pfarg_setdesc *req,
			 int count)
{
	struct pfmk_set **new;
	unsigned int nr_new = 0;
	int ret;

	lockdep_assert_held(&ctx->mutex);

	ret = pfmk_check_count(count, PFM_MAX_PMCS, req);
	if (ret)
		return ret;
	/* Sets are defined while unloaded, whatever the entries say. */
	if (ctx->state != PFM_CTX_UNLOADED)
		return -EBUSY;
	ret = pfmk_check_setdescs(ctx, req, count, &nr_new);
	if (ret)
		return ret;
	if (ctx->nr_sets + nr_new > PFMK_MAX_SETS)
		return -E2BIG;

	new = pfmk_sets_alloc_new(ctx, req, count);
	if (!new)
		return -ENOMEM;
	pfmk_set_timer_prepare(ctx, req, count);
	pfmk_sets_define(ctx, req, count, new);
	kfree(new);
	return 0;
}

/* Is set @id the explicit next set of a set that stays? */
static bool pfmk_set_referenced(struct pfmk_ctx *ctx,
				const struct pfarg_setinfo *req, int count,
				u16 id)
{
	struct pfmk_set *set;
	int i;

	list_for_each_entry(set, &ctx->sets, list) {
		bool deleted = false;

		if (!(set->flags & PFM_SETFL_EXPL_NEXT) || set->id_next != id)
			continue;
		for (i = 0; i < count; i++)
			if (req[i].set_id == set->id)
				deleted = true;
		if (!deleted)
			return true;
	}
	return false;
}

/**
 * pfmk_ctx_delete_sets() - delete event sets (see pfmk_delete_evtsets())
 * @ctx: the context, locked.
 * @req: sets to delete.
 * @count: number of entries.
 *
 * Context: process context; ctx->mutex held.
 * Return: 0 or a negative errno; on error no set was deleted.
 */
int pfmk_ctx_delete_sets(struct pfmk_ctx *ctx, struct pfarg_setinfo *req,
			 int count)
{
	int i, j, ret;

	lockdep_assert_held(&ctx->mutex);

	ret = pfmk_check_count(count, PFM_MAX_PMCS, req);
	if (ret)
		return ret;
	if (ctx->state != PFM_CTX_UNLOADED)
		return -EBUSY;
	for (i = 0; i < count; i++) {
		u16 id = req[i].set_id;

		req[i].set_flags = 0;
		if (!pfmk_set_find(ctx, id)) {
			req[i].set_flags = PFM_REG_RETFL_NOSET;
			return -EINVAL;
		}
		/* Set 0 stays; so does a set another set names as next. */
		if (!id || pfmk_set_referenced(ctx, req, count, id)) {
			req[i].set_flags = PFM_REG_RETFL_EINVAL;
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (req[j].set_id == id) {
				req[i].set_flags = PFM_REG_RETFL_EINVAL;
				return -EINVAL;
			}
		}
	}

	/* A lockless read that found a set before this retries. */
	pfmk_ctx_write_begin(ctx);
	for (i = 0; i < count; i++) {
		struct pfmk_set *set = pfmk_set_find(ctx, req[i].set_id);

		list_del_rcu(&set->list);
		ctx->nr_sets--;
		ctx->mem -= pfmk_set_mem(ctx);
		atomic_long_sub(pfmk_set_mem(ctx), &pfmk_counters.mem_bytes);
		pfmk_set_free(ctx, set);
	}
	pfmk_ctx_write_end(ctx);
	return 0;
}

/**
 * pfmk_ctx_getinfo_sets() - report on event sets (see pfmk_getinfo_evtsets())
 * @ctx: the context, locked.
 * @req: sets to report on; set_id is input, the rest output.
 * @count: number of entries.
 *
 * Context: process context; may sleep (reads perf's enabled time of the
 *	sets' clock events); ctx->mutex held.
 * Return: 0 or a negative errno.
 */
int pfmk_ctx_getinfo_sets(struct pfmk_ctx *ctx, struct pfarg_setinfo *req,
			  int count)
{
	unsigned int n = ctx->pmu->num_pmcs;
	int i, ret;

	lockdep_assert_held(&ctx->mutex);

	ret = pfmk_check_count(count, PFM_MAX_PMCS, req);
	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		if (!pfmk_set_find(ctx, req[i].set_id)) {
			req[i].set_flags = PFM_REG_RETFL_NOSET;
			return -EINVAL;
		}
	}
	for (i = 0; i < count; i++) {
		struct pfmk_set *set = pfmk_set_find(ctx, req[i].set_id);

		req[i].set_id_next = pfmk_set_next(ctx, set)->id;
		req[i].set_flags = set->flags;
		memcpy(req[i].set_ovfl_pmds, set->ovfl_pmds,
		       sizeof(req[i].set_ovfl_pmds));
		req[i].set_runs = set->runs;
		req[i].set_timeout = set->timeout_us;
		req[i].set_act_duration = pfmk_set_active_time(ctx, set);
		memset(req[i].set_avail_pmcs, 0, sizeof(req[i].set_avail_pmcs));
		memset(req[i].set_avail_pmds, 0, sizeof(req[i].set_avail_pmds));
		bitmap_set((unsigned long *)req[i].set_avail_pmcs, 0, n);
		bitmap_set((unsigned long *)req[i].set_avail_pmds, 0, n);
	}
	return 0;
}

/**
 * pfmk_sets_wq_init() - create the set switching workqueue
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int pfmk_sets_wq_init(void)
{
	/* High priority: the switch latency is part of the measurement. */
	pfmk_sets_wq = alloc_workqueue("pfmk_sets", WQ_UNBOUND | WQ_HIGHPRI, 0);
	return pfmk_sets_wq ? 0 : -ENOMEM;
}

/**
 * pfmk_sets_wq_exit() - flush and destroy the set switching workqueue
 *
 * Context: process context; may sleep.
 */
void pfmk_sets_wq_exit(void)
{
	destroy_workqueue(pfmk_sets_wq);
}
