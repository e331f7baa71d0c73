// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KAPI: the exported calls of the AUX extension (<pfmk/aux.h>).
 *
 * As in kapi/kapi.c: look the descriptor up and lock the context
 * (-EBADF first), check the arguments, hand over to core/aux.c.  Without
 * pfmk's kernel-owned AUX patch, pfmk_aux_setup() and pfmk_aux_copy()
 * return -EOPNOTSUPP and log a hint once.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/log2.h>
#include <linux/printk.h>
#include <pfmk/aux.h>

#include "../core/internal.h"

/**
 * pfmk_aux_supported() - does this kernel support kernel-owned AUX buffers?
 *
 * Context: any context.
 * Return: true if pfmk was built against a kernel with the patch.
 */
bool pfmk_aux_supported(void)
{
	return pfmk_aux_buf_supported();
}
EXPORT_SYMBOL_GPL(pfmk_aux_supported);

static void pfmk_aux_hint(int ret)
{
	if (ret == -EOPNOTSUPP)
		pr_info_once("AUX buffers need a kernel with pfmk's kernel-owned AUX patch (patches/linux-<series>/, see Documentation/aux.rst)\n");
}

/**
 * pfmk_aux_setup() - give a PMD of a context an AUX buffer
 * @desc: context descriptor.
 * @pmd: the PMD, of event set 0; its event must be of an AUX PMU
 *	(PFMK_AUX_PMUS), which is checked at load.  It captures while set 0
 *	is the active set.
 * @size: AUX buffer size in bytes: a power of two from PFMK_AUX_MIN_SIZE
 *	to PFMK_AUX_MAX_SIZE; 0 removes the set-up.
 * @flags: PFMK_AUX_SNAPSHOT for overwrite (snapshot) mode; without it the
 *	PMU stops when the buffer is full, until pfmk_aux_copy() makes room.
 *
 * The buffer is allocated and attached when the context is loaded
 * (pfmk_load_context() then fails with -EINVAL if the PMD has no event or
 * its PMU is not an AUX PMU, or with perf's error) and freed when it is
 * unloaded or closed.  One AUX PMD per context; a new call replaces the
 * set-up.
 *
 * Context: process context; may sleep.
 * The buffer (and one data page) counts from the set-up on in pfmk's
 * smpl_bytes, against the max_smpl_mem limit, and in mem_bytes.
 *
 * Return: 0; -EBADF; -EINVAL for a bad @pmd, @size or @flags;
 * -EOPNOTSUPP if the kernel lacks the kernel-owned AUX patch (a hint is
 * logged once); -EBUSY if the context is loaded; -ENOMEM at the
 * max_smpl_mem limit or out of memory.
 */
int pfmk_aux_setup(void *desc, unsigned int pmd, size_t size,
		   unsigned int flags)
{
	struct pfmk_ctx *ctx;
	int ret = -EINVAL;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (flags & ~PFMK_AUX_SNAPSHOT)
		goto out;
	if (size && (size < PFMK_AUX_MIN_SIZE || size > PFMK_AUX_MAX_SIZE ||
		     !is_power_of_2(size)))
		goto out;
	ret = pfmk_ctx_aux_setup(ctx, pmd, size, flags);
	pfmk_aux_hint(ret);
out:
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_aux_setup);

/**
 * pfmk_aux_copy() - copy AUX data out of a loaded context
 * @desc: context descriptor.
 * @max: at most this many bytes.
 * @fn: receives the data, in stream order, piece by piece; must not sleep.
 * @data: passed to @fn.
 * @info: output: what was copied, and the buffer's history.
 *
 * Snapshot mode: copies the last min(@max, buffer size) bytes before the
 * head; while monitoring runs, the AUX event is paused (disabled) for the
 * copy.  Stop-when-full mode: copies from the tail (the end of the
 * previous copy) up to @max bytes, then hands the space back to the PMU
 * and, if the PMU stopped on a full buffer while monitoring runs, resumes
 * it.  @info->flags tells whether the stream wrapped (snapshot) and
 * whether the PMU truncated its output since the previous copy.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL if @fn or @info is NULL; -ENXIO if the
 * context has no AUX set-up; -ENOTCONN if it is not loaded; -EFAULT if
 * @fn stopped the copy; -EOPNOTSUPP without the kernel patch.
 */
int pfmk_aux_copy(void *desc, size_t max, pfmk_aux_copy_t fn, void *data,
		  struct pfmk_aux_info *info)
{
	struct pfmk_ctx *ctx;
	int ret = -EINVAL;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (fn && info) {
		ret = pfmk_ctx_aux_copy(ctx, max, fn, data, info);
		pfmk_aux_hint(ret);
	}
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_aux_copy);
