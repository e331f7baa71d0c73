// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KAPI: the exported calls of the post-mortem extension
 * (<pfmk/crash.h>).
 *
 * As in kapi/kapi.c: look the descriptor up and lock the context
 * (-EBADF first), check the arguments, hand over to core/crash.c.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <pfmk/crash.h>

#include "../core/internal.h"

/**
 * pfmk_crash_setup() - freeze a context when the kernel crashes
 * @desc: context descriptor.
 * @flags: PFMK_CRASH_FREEZE, with PFMK_CRASH_LOG to print the context's
 *	summary in the kernel log at the crash; 0 removes the set-up.
 * @aux_keep: how many of the newest AUX bytes the freeze copies aside,
 *	at most PFMK_CRASH_AUX_MAX (0 with @flags 0).
 *
 * At an oops (the die notifier's DIE_OOPS) or a panic, pfmk freezes
 * every context set up so, in the crashing context: its overflow handler
 * records nothing more (the sampling buffer, the messages and the PMD
 * resets stay as they were; the events themselves count on), and the
 * PMD values of the active set, the sample count and the newest
 * @aux_keep AUX bytes at that moment are kept, for pfmk_crash_read(),
 * a crash dump (scripts/pfmk-drgn.py) and, with PFMK_CRASH_LOG, the
 * kernel log (pstore).  A frozen context stays frozen until it is
 * closed; pfmk_get_state() then adds PFMK_STATE_FROZEN.  The set-up may
 * be made in any state and stays across loads; replacing or removing it
 * waits for an RCU grace period, and so does closing a context that has
 * one.  What is kept (the PMD values and @aux_keep bytes) is allocated
 * now and counts, as a sampling buffer does, in smpl_bytes against
 * max_smpl_mem and in mem_bytes.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL for unknown @flags, PFMK_CRASH_LOG without
 * PFMK_CRASH_FREEZE, or @aux_keep above PFMK_CRASH_AUX_MAX (or not 0
 * with @flags 0); -EBUSY if a crash froze the context; -ENOMEM at the
 * max_smpl_mem limit or out of memory.
 */
int pfmk_crash_setup(void *desc, unsigned int flags, size_t aux_keep)
{
	struct pfmk_ctx *ctx;
	int ret = -EINVAL;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (flags & ~(PFMK_CRASH_FREEZE | PFMK_CRASH_LOG))
		goto out;
	if (flags && !(flags & PFMK_CRASH_FREEZE))
		goto out;
	if (aux_keep > PFMK_CRASH_AUX_MAX || (!flags && aux_keep))
		goto out;
	ret = pfmk_ctx_crash_setup(ctx, flags, aux_keep);
out:
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_crash_setup);

/**
 * pfmk_crash_read() - what a crash kept of a frozen context
 * @desc: context descriptor.
 * @info: output: @info->reason is PFMK_CRASH_NONE while the context is
 *	not frozen (the other fields are then 0, @info->ctx_cpu -1 and
 *	@info->npmds the number of PMDs a freeze would keep).
 * @pmds: optional: PMDs whose value at the freeze is wanted, by
 *	reg_num, of the set active then (@info->set); reg_value is filled
 *	in (0 while not frozen).
 * @count: number of elements of @pmds.
 * @aux: optional: receives the newest min(@aux_size, @info->aux_len) AUX
 *	bytes kept, in stream order, ending at @info->aux_head.
 * @aux_size: size of @aux.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL if @info is NULL, @count is negative,
 * @pmds is NULL with @count above 0, @aux is NULL with @aux_size above
 * 0, or a reg_num is not a PMD of the description (its reg_flags then
 * have PFM_REG_RETFL_NOTAVAIL); -E2BIG if @count is above the number of
 * PMDs of the description; -ENXIO if the context has no crash set-up.
 */
int pfmk_crash_read(void *desc, struct pfmk_crash_info *info,
		    struct pfarg_pmd *pmds, int count, void *aux,
		    size_t aux_size)
{
	struct pfmk_ctx *ctx;
	int ret = -EINVAL;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (!info || (!aux && aux_size))
		goto out;
	ret = pfmk_check_count(count, ctx->nregs, pmds);
	if (ret)
		goto out;
	ret = pfmk_ctx_crash_read(ctx, info, pmds, count, aux, aux_size);
out:
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_crash_read);
