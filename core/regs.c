// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk registers: pfmk_write_pmcs(), pfmk_write_pmds(), pfmk_read_pmds().
 *
 * Vector calls validate every entry before they apply any: a vector with
 * one bad entry changes nothing, and the bad entry's reg_flags carries a
 * PFM_REG_RETFL_* error flag, as in perfmon2.
 *
 * The pfmk_ctx_*() calls expect ctx->mutex held and assert it; the static
 * validators and appliers they call (pfmk_check_*(), pfmk_pmd_apply(),
 * ...) run only under them.  The lockless read, pfmk_read_pmds_lockless()
 * and the passes it runs (pfmk_read_pmds_pass()), takes no lock: it looks the
 * descriptor up under RCU, pins the context with ctx->read_passes and
 * retries on ctx->state_seq (Documentation/locking.rst, "The lockless
 * read path").
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/slab.h>

#include "internal.h"
#include "perf.h"

/* reg_flags bits 0-15 are input flags; 24-31 are returned errors. */
#define PFMK_REGFL_INPUT	0xffffU

/**
 * pfmk_check_count() - validate the count of a vector call
 * @count: number of entries given by the caller.
 * @max: largest accepted count.
 * @req: the vector.
 *
 * Return: 0 if valid, -EINVAL for a negative count or a NULL vector,
 * -E2BIG for a count above @max.
 */
int pfmk_check_count(int count, int max, const void *req)
{
	if (count < 0)
		return -EINVAL;
	if (count > max)
		return -E2BIG;
	if (count && !req)
		return -EINVAL;
	return 0;
}

/* Mark entry @flags with @err and return -EINVAL. */
static int pfmk_reg_error(pfm_flags_t *flags, u32 err)
{
	*flags = (*flags & ~PFM_REG_RETFL_MASK) | err;
	return -EINVAL;
}

/* Validate the register number, set and flags common to PMCs and PMDs. */
static int pfmk_check_reg(struct pfmk_ctx *ctx, unsigned int num, u16 set,
			  pfm_flags_t *flags, u32 valid_flags)
{
	if (num >= ctx->pmu->num_pmcs)
		return pfmk_reg_error(flags, PFM_REG_RETFL_NOTAVAIL);
	if (!pfmk_set_find(ctx, set))
		return pfmk_reg_error(flags, PFM_REG_RETFL_NOSET);
	if (*flags & PFMK_REGFL_INPUT & ~valid_flags)
		return pfmk_reg_error(flags, PFM_REG_RETFL_EINVAL);
	*flags &= ~PFM_REG_RETFL_MASK;
	return 0;
}

static int pfmk_check_pmc(struct pfmk_ctx *ctx, struct pfarg_pmc *pmc)
{
	const struct pfmk_pmu_desc *pmu = ctx->pmu;
	int ret;

	ret = pfmk_check_reg(ctx, pmc->reg_num, pmc->reg_set, &pmc->reg_flags,
			     PFMK_PMC_FLAGS);
	if (ret)
		return ret;
	if (pmc->reg_value & pmu->pmc_desc[pmc->reg_num].rsvd_msk)
		return pfmk_reg_error(&pmc->reg_flags, PFM_REG_RETFL_EINVAL);
	if (pmu->pmc_check && pmu->pmc_check(pmu, pmc->reg_num, pmc->reg_value))
		return pfmk_reg_error(&pmc->reg_flags, PFM_REG_RETFL_EINVAL);
	return 0;
}

/* Does writing @pmc change what PMDs other than its own count? */
static bool pfmk_pmc_shared(struct pfmk_ctx *ctx, const struct pfarg_pmc *pmc)
{
	u64 old = pfmk_set_find(ctx, pmc->reg_set)->pmcs[pmc->reg_num];

	return pfmk_pmc_is_shared(ctx->pmu, pmc->reg_num, old) ||
	       pfmk_pmc_is_shared(ctx->pmu, pmc->reg_num, pmc->reg_value);
}

/*
 * The value that programs PMD @pmc->reg_num once its PMC holds
 * @pmc->reg_value, as a load works it out (pfmk_pmd_pmc()): with a
 * ->pmd_pmc() description a PMD may follow another PMC while its own is 0
 * (the generic description's PMD17 on, after an image in PMC16).  Only
 * PMCs that program no other PMD are written on a loaded context, so
 * the PMD's value depends on no other PMC written in the same call.
 */
static u64 pfmk_pmc_programs(struct pfmk_ctx *ctx, const struct pfarg_pmc *pmc)
{
	const struct pfmk_pmu_desc *pmu = ctx->pmu;
	struct pfmk_set *set;
	u64 old, val;

	if (!pmu->pmd_pmc)
		return pmc->reg_value;
	set = pfmk_set_find(ctx, pmc->reg_set);
	old = set->pmcs[pmc->reg_num];
	set->pmcs[pmc->reg_num] = pmc->reg_value;
	val = pfmk_pmd_pmc(pmu, pmc->reg_num, set->pmcs);
	set->pmcs[pmc->reg_num] = old;
	return val;
}

/* Release the first @n of @events (NULL entries skipped) and the array. */
static void pfmk_events_free(struct perf_event **events, int n)
{
	while (n--)
		pfmk_perf_destroy(events[n]);
	kfree(events);
}

/*
 * Reprogram PMCs of a loaded, stopped context: create every new event
 * first, so that a failure leaves the old events and values untouched.
 */
static int pfmk_reprogram_loaded(struct pfmk_ctx *ctx, struct pfarg_pmc *req,
				 int count)
{
	struct perf_event **events;
	struct pfmk_set *set;
	int i, ret = 0;

	lockdep_assert_held(&ctx->mutex);
	events = kcalloc(count, sizeof(*events), GFP_KERNEL);
	if (!events)
		return -ENOMEM;

	for (i = 0; i < count; i++) {
		set = pfmk_set_find(ctx, req[i].reg_set);
		events[i] = pfmk_perf_create(ctx->pmu, req[i].reg_num,
					     pfmk_pmc_programs(ctx, &req[i]),
					     set->pmcs, ctx->cpu,
					     &set->pmds[req[i].reg_num],
					     &set->pmds[req[i].reg_num]);
		if (IS_ERR(events[i])) {
			ret = PTR_ERR(events[i]);
			events[i] = NULL;
			goto err;
		}
		/* pfmk AUX: the AUX PMD's new event gets its buffer now. */
		ret = pfmk_aux_attach_new(ctx, set, req[i].reg_num, events[i]);
		if (ret) {
			i++;
			goto err;
		}
	}

	for (i = 0; i < count; i++) {
		struct pfmk_pmd *pmd;

		set = pfmk_set_find(ctx, req[i].reg_set);
		pfmk_set_write_pmc(set, req[i].reg_num, req[i].reg_value);
		pmd = &set->pmds[req[i].reg_num];
		pfmk_aux_rebind(ctx, set, pmd->num, events[i]);
		pfmk_perf_release(pmd);
		pfmk_ctx_write_begin(ctx);
		pfmk_pmd_set_event(pmd, events[i]);
		pmd->perf_base = 0;
		pfmk_ctx_write_end(ctx);
		if (events[i])
			pfmk_set_event_added(set, pmd->num);
	}
	/* A set may have lost the PMD that timed it, or got its first. */
	for (i = 0; i < count; i++)
		pfmk_set_time_source(ctx, pfmk_set_find(ctx, req[i].reg_set),
				     false);
	kfree(events);
	return 0;

err:
	pfmk_events_free(events, i);
	return ret;
}

/*
 * A loaded context's events are created again on its CPU by a write.
 * perf refuses them (-ENODEV) once the CPU is on its way out, which is
 * after pfmk's own hotplug callback has flagged the context (its cpuhp
 * state is torn down before perf's).  Apply that now, under the mutex,
 * and have the caller try again: the context is then offline (the write
 * stores the values, as on a context found offline) or, if the CPU came
 * back meanwhile, loaded on it again.  Returns true if the caller should
 * retry; a bounded number of times, so that a CPU going up and down
 * without end cannot hold the call.
 */
#define PFMK_REGS_HP_RETRIES	3

static bool pfmk_regs_hp_retry(struct pfmk_ctx *ctx, int ret, int *tries)
{
	lockdep_assert_held(&ctx->mutex);

	if (ret != -ENODEV || !pfmk_hotplug_pending(ctx) ||
	    ++*tries > PFMK_REGS_HP_RETRIES)
		return false;
	pfmk_hotplug_sync(ctx);
	return true;
}

/**
 * pfmk_ctx_write_pmcs() - write PMCs (see pfmk_write_pmcs())
 * @ctx: the context, locked.
 * @req: vector of PMC values.
 * @count: number of entries.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0 or a negative errno.
 */
int pfmk_ctx_write_pmcs(struct pfmk_ctx *ctx, struct pfarg_pmc *req, int count)
{
	int i, ret, tries = 0;

	lockdep_assert_held(&ctx->mutex);

	ret = pfmk_check_count(count, PFM_MAX_PMCS, req);
	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		ret = pfmk_check_pmc(ctx, &req[i]);
		if (ret)
			return ret;
	}
	if (ctx->started)
		return -EBUSY;
	if (!count)
		return 0;
	/* A PMC that programs several PMDs is written while unloaded. */
	for (i = 0; i < count && ctx->state != PFM_CTX_UNLOADED; i++)
		if (pfmk_pmc_shared(ctx, &req[i]))
			return -EBUSY;

	while (ctx->state != PFM_CTX_UNLOADED && !ctx->offline) {
		ret = pfmk_reprogram_loaded(ctx, req, count);
		if (!pfmk_regs_hp_retry(ctx, ret, &tries))
			return ret;
	}
	/*
	 * A context whose CPU is offline has no events: store only, once
	 * the events are known to exist, so that re-arming cannot fail.
	 */
	for (i = 0; i < count && ctx->state != PFM_CTX_UNLOADED; i++) {
		/*
		 * pfmk AUX: the AUX PMD's event gets its buffer at re-arm;
		 * a value it could not take would keep the context offline.
		 */
		if (pfmk_aux_pmd_set_up(ctx, pfmk_set_find(ctx, req[i].reg_set),
					req[i].reg_num))
			return -EBUSY;
		ret = pfmk_perf_probe(ctx->pmu, req[i].reg_num,
				      pfmk_pmc_programs(ctx, &req[i]),
				      pfmk_set_find(ctx, req[i].reg_set)->pmcs,
				      ctx->cpu);
		if (ret)
			return ret;
	}

	for (i = 0; i < count; i++)
		pfmk_set_write_pmc(pfmk_set_find(ctx, req[i].reg_set),
				   req[i].reg_num, req[i].reg_value);
	return 0;
}

static int pfmk_check_pmd(struct pfmk_ctx *ctx, struct pfarg_pmd *pmd)
{
	unsigned int n = ctx->pmu->num_pmcs;
	int ret;

	ret = pfmk_check_reg(ctx, pmd->reg_num, pmd->reg_set, &pmd->reg_flags,
			     PFMK_PMD_FLAGS);
	if (ret)
		return ret;
	/* Bit vectors may only name PMDs that exist. */
	if (find_next_bit((unsigned long *)pmd->reg_reset_pmds,
			  PFM_MAX_PMDS, n) < PFM_MAX_PMDS ||
	    find_next_bit((unsigned long *)pmd->reg_smpl_pmds,
			  PFM_MAX_PMDS, n) < PFM_MAX_PMDS)
		return pfmk_reg_error(&pmd->reg_flags, PFM_REG_RETFL_EINVAL);
	return 0;
}

/*
 * Copy the caller's PMD parameters into a PMD (of a set, or a copy of
 * one), its value included.  The PMD and those its reset bit vector names,
 * which an overflow changes, are no longer clean (pfmk_set_pmd_changed()).
 */
static void pfmk_pmd_apply(struct pfmk_pmd *pmd, const struct pfarg_pmd *req)
{
	unsigned long last = find_last_bit((const unsigned long *)req->reg_reset_pmds,
					   PFM_MAX_PMDS);

	pfmk_set_pmd_changed(pmd->set, pmd->num);
	if (last < PFM_MAX_PMDS)
		pfmk_set_pmd_changed(pmd->set, last);
	pmd->value = req->reg_value;
	pmd->long_reset = req->reg_long_reset;
	pmd->short_reset = req->reg_short_reset;
	pmd->short_period = pfmk_pmd_period(pmd->short_reset);
	pmd->ovfl_switch_cnt = req->reg_ovfl_switch_cnt;
	WRITE_ONCE(pmd->ovfl_switch_left, req->reg_ovfl_switch_cnt);
	memcpy(pmd->reset_pmds, req->reg_reset_pmds, sizeof(pmd->reset_pmds));
	memcpy(pmd->smpl_pmds, req->reg_smpl_pmds, sizeof(pmd->smpl_pmds));
	pmd->has_reset_pmds = !bitmap_empty((unsigned long *)pmd->reset_pmds,
					    PFM_MAX_PMDS);
	pmd->has_smpl_pmds = !bitmap_empty((unsigned long *)pmd->smpl_pmds,
					   PFM_MAX_PMDS);
	pmd->eventid = req->reg_smpl_eventid;
	pmd->random_mask = req->reg_random_mask;
	pmd->random_seed = req->reg_random_seed;
	pmd->rand_state = req->reg_random_seed;
	pmd->flags = req->reg_flags & PFMK_PMD_FLAGS;
	pfmk_pmd_set_plain(pmd);
	pmd->last_reset_val = req->reg_value;
	pmd->reset_pending = false;
}

/*
 * On a loaded context a PMD's event samples, and with which first period,
 * according to the PMD's value: create the new events first, so that a
 * failure leaves every PMD as it was.
 */
static int pfmk_write_pmds_loaded(struct pfmk_ctx *ctx, struct pfarg_pmd *req,
				  int count)
{
	struct perf_event **events;
	struct pfmk_pmd cfg;
	int i, ret;

	lockdep_assert_held(&ctx->mutex);
	events = kcalloc(count, sizeof(*events), GFP_KERNEL);
	if (!events)
		return -ENOMEM;

	for (i = 0; i < count; i++) {
		struct pfmk_set *set = pfmk_set_find(ctx, req[i].reg_set);
		struct pfmk_pmd *pmd = &set->pmds[req[i].reg_num];

		if (!pfmk_pmd_event(pmd))
			continue;
		cfg = *pmd;
		pfmk_pmd_apply(&cfg, &req[i]);
		events[i] = pfmk_perf_create(ctx->pmu, pmd->num,
					     pfmk_pmd_pmc(ctx->pmu, pmd->num,
							  set->pmcs),
					     set->pmcs, ctx->cpu, pmd, &cfg);
		if (IS_ERR(events[i])) {
			ret = PTR_ERR(events[i]);
			pfmk_events_free(events, i);
			return ret;
		}
		/* pfmk AUX: the AUX PMD's new event gets its buffer now. */
		ret = pfmk_aux_attach_new(ctx, set, pmd->num, events[i]);
		if (ret) {
			pfmk_events_free(events, i + 1);
			return ret;
		}
	}

	for (i = 0; i < count; i++) {
		struct pfmk_set *set = pfmk_set_find(ctx, req[i].reg_set);
		struct pfmk_pmd *pmd = &set->pmds[req[i].reg_num];

		if (events[i]) {
			pfmk_aux_rebind(ctx, set, pmd->num, events[i]);
			pfmk_perf_release(pmd);
		}
		pfmk_ctx_write_begin(ctx);
		if (events[i]) {
			pfmk_pmd_set_event(pmd, events[i]);
			pmd->perf_base = 0;
		}
		pfmk_pmd_apply(pmd, &req[i]);
		pfmk_ctx_write_end(ctx);
		if (events[i])
			pfmk_set_event_added(set, pmd->num);
	}
	kfree(events);
	return 0;
}

/**
 * pfmk_ctx_write_pmds() - write PMDs (see pfmk_write_pmds())
 * @ctx: the context, locked.
 * @req: vector of PMD values and sampling parameters.
 * @count: number of entries.
 *
 * A value written to a PMD of a loaded context takes effect at once: the
 * PMD continues counting from it, with a new perf event whose first
 * sample period follows the value.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0 or a negative errno.
 */
int pfmk_ctx_write_pmds(struct pfmk_ctx *ctx, struct pfarg_pmd *req, int count)
{
	int i, ret, tries = 0;

	lockdep_assert_held(&ctx->mutex);

	ret = pfmk_check_count(count, PFM_MAX_PMDS, req);
	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		ret = pfmk_check_pmd(ctx, &req[i]);
		if (ret)
			return ret;
	}
	if (ctx->started)
		return -EBUSY;

	if (ctx->state != PFM_CTX_UNLOADED) {
		/* Offline after a retry: no event to create, values stored. */
		do {
			ret = pfmk_write_pmds_loaded(ctx, req, count);
		} while (pfmk_regs_hp_retry(ctx, ret, &tries));
		return ret;
	}
	pfmk_ctx_write_begin(ctx);
	for (i = 0; i < count; i++)
		pfmk_pmd_apply(&pfmk_set_find(ctx, req[i].reg_set)->pmds[req[i].reg_num],
			       &req[i]);
	pfmk_ctx_write_end(ctx);
	return 0;
}

/* A set by id; set 0, the one most reads name, without a list walk. */
static struct pfmk_set *pfmk_read_set(struct pfmk_ctx *ctx, u16 id)
{
	return id ? pfmk_set_find_rcu(ctx, id) : &ctx->set0;
}

/*
 * One pass of the lockless read (see pfmk_read_pmds_lockless()), inside a
 * ctx->state_seq read section, interrupts off.  Returns 0, -EBADF,
 * -EINVAL (an entry flagged), -EREMOTE (an event counts on another CPU),
 * or -EAGAIN (a hotplug event is pending, or an overflow handler is
 * updating the context: the locked path does the read).
 */
static int pfmk_read_pmds_pass(struct pfmk_ctx *ctx, unsigned long desc,
			       struct pfarg_pmd *req, int count)
{
	int i, ret;

	/* Closed, or reused by another context since the lookup. */
	if (!pfmk_ctx_is(ctx, desc))
		return -EBADF;
	ret = pfmk_check_count(count, PFM_MAX_PMDS, req);
	if (ret)
		return ret;
	if (pfmk_hotplug_pending(ctx))
		return -EAGAIN;
	for (i = 0; i < count; i++) {
		if (req[i].reg_num >= ctx->nregs)
			return pfmk_reg_error(&req[i].reg_flags,
					      PFM_REG_RETFL_NOTAVAIL);
		if (!pfmk_read_set(ctx, req[i].reg_set))
			return pfmk_reg_error(&req[i].reg_flags,
					      PFM_REG_RETFL_NOSET);
	}
	for (i = 0; i < count; i++) {
		struct pfmk_set *set = pfmk_read_set(ctx, req[i].reg_set);
		struct pfmk_pmd *pmd;
		u64 val;

		/* Deleted since the check: the caller's retry sees it. */
		if (unlikely(!set))
			return -EAGAIN;
		pmd = &set->pmds[req[i].reg_num];
		ret = pfmk_perf_value_here(pmd, &val);
		if (ret)
			return ret;
		req[i].reg_flags &= ~PFM_REG_RETFL_MASK;
		req[i].reg_value = val;
		req[i].reg_last_reset_val = READ_ONCE(pmd->last_reset_val);
		req[i].reg_ovfl_switch_cnt = READ_ONCE(pmd->ovfl_switch_left);
	}
	return 0;
}

struct pfmk_read_args {
	struct pfmk_ctx		*ctx;
	unsigned long		desc;
	struct pfarg_pmd	*req;
	int			count;
	int			ret;
	int			cpu;	/* -EREMOTE: the context's CPU */
};

/* Runs with interrupts off: here, or on the context's CPU by IPI. */
static void pfmk_read_pmds_here(void *data)
{
	struct pfmk_read_args *a = data;
	unsigned int seq;

	/*
	 * Pin the memory: a close that has not seen the pass waits for it
	 * before the context can be freed and reused.
	 */
	atomic_inc(&a->ctx->read_passes);
	/* ->read_passes before ->dead; pairs with pfmk_ctx_close(). */
	smp_mb__after_atomic();
	do {
		seq = read_seqcount_begin(&a->ctx->state_seq);
		a->ret = pfmk_read_pmds_pass(a->ctx, a->desc, a->req, a->count);
	} while (read_seqcount_retry(&a->ctx->state_seq, seq));
	/* Still pinned, and the context was checked to be the caller's. */
	if (a->ret == -EREMOTE)
		a->cpu = READ_ONCE(a->ctx->cpu);
	/* The pass's reads before the close that waits for it. */
	smp_mb__before_atomic();
	atomic_dec(&a->ctx->read_passes);
}

/**
 * pfmk_read_pmds_lockless() - pfmk_read_pmds() without the context's mutex
 * @desc: context descriptor.
 * @req: as for pfmk_read_pmds().
 * @count: as for pfmk_read_pmds().
 *
 * The read path of a running context: no mutex, no reference.  The
 * descriptor is looked up under RCU, which keeps its sets and perf events
 * allocated (both are freed after a grace period) and the context's
 * memory a context (type-stable, pfmk_ctx_free()); each pass pins it
 * (ctx->read_passes, which close waits for) and checks pfmk_ctx_is();
 * ctx->state_seq gives a consistent view of what process context changes
 * under the mutex, ctx->ovfl_seq of what the overflow handler changes.
 * Events not counting, or counting on this CPU, are read here with
 * interrupts off; if one counts on another CPU, the read runs there, by
 * IPI, as perf_event_read_value() itself would do.  Returns -EAGAIN when
 * the locked path must do the read: a CPU hotplug event is pending, or
 * the context's CPU could not be reached.
 *
 * Context: process context, interrupts on.
 * Return: as pfmk_read_pmds(), or -EAGAIN.
 */
int pfmk_read_pmds_lockless(void *desc, struct pfarg_pmd *req, int count)
{
	struct pfmk_read_args a = {
		.desc = (unsigned long)desc, .req = req, .count = count,
	};
	unsigned long flags;

	rcu_read_lock();
	a.ctx = pfmk_desc_lookup_rcu(desc);
	if (!a.ctx) {
		rcu_read_unlock();
		return -EBADF;
	}
	local_irq_save(flags);
	pfmk_read_pmds_here(&a);
	local_irq_restore(flags);
	/* The IPI's pass pins and checks the context again. */
	if (a.ret == -EREMOTE &&
	    (a.cpu < 0 ||
	     smp_call_function_single(a.cpu, pfmk_read_pmds_here, &a, 1)))
		a.ret = -EAGAIN;
	rcu_read_unlock();
	return a.ret == -EREMOTE ? -EAGAIN : a.ret;
}

/**
 * pfmk_ctx_read_pmds() - read PMDs (see pfmk_read_pmds())
 * @ctx: the context, locked.
 * @req: vector of PMDs to read.
 * @time: optional vector of enabled/running times, @count entries.
 * @count: number of entries.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0 or a negative errno.
 */
int pfmk_ctx_read_pmds(struct pfmk_ctx *ctx, struct pfarg_pmd *req,
		       struct pfmk_pmd_time *time, int count)
{
	int i, ret;

	lockdep_assert_held(&ctx->mutex);

	ret = pfmk_check_count(count, PFM_MAX_PMDS, req);
	if (ret)
		return ret;
	/*
	 * As perfmon2 2.2: only reg_num and reg_set are input, reg_flags
	 * keeps its input bits and gets its return bits; what else the
	 * request holds (a pfarg_pmd from the stack) is never looked at.
	 */
	for (i = 0; i < count; i++) {
		if (req[i].reg_num >= ctx->pmu->num_pmcs)
			return pfmk_reg_error(&req[i].reg_flags,
					      PFM_REG_RETFL_NOTAVAIL);
		if (!pfmk_set_find(ctx, req[i].reg_set))
			return pfmk_reg_error(&req[i].reg_flags,
					      PFM_REG_RETFL_NOSET);
	}

	for (i = 0; i < count; i++) {
		struct pfmk_set *set = pfmk_set_find(ctx, req[i].reg_set);
		struct pfmk_pmd *pmd = &set->pmds[req[i].reg_num];
		u64 enabled, running;

		req[i].reg_flags &= ~PFM_REG_RETFL_MASK;
		req[i].reg_value = pfmk_perf_value(pmd, &enabled, &running);
		req[i].reg_last_reset_val = pmd->last_reset_val;
		/* Overflows left before the set switches (counted down). */
		req[i].reg_ovfl_switch_cnt = READ_ONCE(pmd->ovfl_switch_left);
		if (time) {
			time[i].time_enabled = enabled;
			time[i].time_running = running;
		}
	}
	return 0;
}
