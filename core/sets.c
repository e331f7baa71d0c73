// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk event sets.
 *
 * Every context has set 0, which holds the PMC values and PMDs of callers
 * that never create sets.  User-defined sets, switching and multiplexing
 * are not implemented yet: create and delete accept set 0 only.
 *
 * All functions here expect ctx->mutex held.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/ktime.h>
#include <linux/slab.h>

#include "internal.h"

/**
 * pfmk_set_init() - allocate the registers of a set
 * @ctx: the context, whose PMU description gives the registers.
 * @set: the set.
 * @id: set identifier.
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int pfmk_set_init(struct pfmk_ctx *ctx, struct pfmk_set *set, u16 id)
{
	const struct pfmk_pmu_desc *pmu = ctx->pmu;
	unsigned int i, nregs = pmu->num_pmcs;

	set->id = id;
	set->pmcs = kcalloc(nregs, sizeof(*set->pmcs), GFP_KERNEL);
	set->pmds = kcalloc(nregs, sizeof(*set->pmds), GFP_KERNEL);
	if (!set->pmcs || !set->pmds) {
		pfmk_set_free(set);
		return -ENOMEM;
	}
	for (i = 0; i < nregs; i++) {
		set->pmcs[i] = pmu->pmc_desc[i].dfl_val;
		set->pmds[i].num = i;
		set->pmds[i].ctx = ctx;
	}
	return 0;
}

/**
 * pfmk_set_free() - free the registers of a set
 * @set: the set, unloaded.
 */
void pfmk_set_free(struct pfmk_set *set)
{
	kfree(set->pmcs);
	kfree(set->pmds);
	set->pmcs = NULL;
	set->pmds = NULL;
}

/**
 * pfmk_set_find() - find a set of a context by identifier
 * @ctx: the context.
 * @id: set identifier.
 *
 * Return: the set, or NULL if the context has no set @id.
 */
struct pfmk_set *pfmk_set_find(struct pfmk_ctx *ctx, u16 id)
{
	return id == ctx->set0.id ? &ctx->set0 : NULL;
}

/**
 * pfmk_ctx_create_sets() - define event sets (see pfmk_create_evtsets())
 * @ctx: the context, locked.
 * @req: set descriptions.
 * @count: number of entries.
 *
 * Context: process context; ctx->mutex held.
 * Return: 0 or a negative errno.
 */
int pfmk_ctx_create_sets(struct pfmk_ctx *ctx, struct pfarg_setdesc *req,
			 int count)
{
	int i, ret;

	ret = pfmk_check_count(count, PFM_MAX_PMCS, req);
	if (ret)
		return ret;
	if (ctx->state != PFM_CTX_UNLOADED)
		return -EBUSY;
	for (i = 0; i < count; i++) {
		/* Set 0 without switching is the only set until sets land. */
		if (req[i].set_id != 0 || req[i].set_flags) {
			req[i].set_flags = PFM_REG_RETFL_EINVAL;
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/**
 * pfmk_ctx_delete_sets() - delete event sets (see pfmk_delete_evtsets())
 * @ctx: the context, locked.
 * @req: sets to delete.
 * @count: number of entries.
 *
 * Context: process context; ctx->mutex held.
 * Return: 0 or a negative errno.
 */
int pfmk_ctx_delete_sets(struct pfmk_ctx *ctx, struct pfarg_setinfo *req,
			 int count)
{
	int ret;

	ret = pfmk_check_count(count, PFM_MAX_PMCS, req);
	if (ret)
		return ret;
	if (ctx->state != PFM_CTX_UNLOADED)
		return -EBUSY;
	if (!count)
		return 0;
	/* Set 0 cannot be deleted, and it is the only set. */
	req[0].set_flags = req[0].set_id ? PFM_REG_RETFL_NOSET :
					   PFM_REG_RETFL_EINVAL;
	return -EINVAL;
}

/**
 * pfmk_ctx_getinfo_sets() - report on event sets (see pfmk_getinfo_evtsets())
 * @ctx: the context, locked.
 * @req: sets to report on; set_id is input, the rest output.
 * @count: number of entries.
 *
 * Context: process context; ctx->mutex held.
 * Return: 0 or a negative errno.
 */
int pfmk_ctx_getinfo_sets(struct pfmk_ctx *ctx, struct pfarg_setinfo *req,
			  int count)
{
	unsigned int n = ctx->pmu->num_pmcs;
	int i, ret;

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

		req[i].set_id_next = set->id;
		req[i].set_flags = 0;
		memset(req[i].set_ovfl_pmds, 0, sizeof(req[i].set_ovfl_pmds));
		req[i].set_runs = set->runs;
		req[i].set_timeout = 0;
		req[i].set_act_duration = set->duration;
		if (set->act_start)
			req[i].set_act_duration += ktime_get_ns() -
						   set->act_start;
		memset(req[i].set_avail_pmcs, 0, sizeof(req[i].set_avail_pmcs));
		memset(req[i].set_avail_pmds, 0, sizeof(req[i].set_avail_pmds));
		bitmap_set((unsigned long *)req[i].set_avail_pmcs, 0, n);
		bitmap_set((unsigned long *)req[i].set_avail_pmds, 0, n);
	}
	return 0;
}
