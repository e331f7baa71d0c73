// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk sampling formats: registry, and the buffers of contexts.
 *
 * A context selects a format by UUID at creation (pfarg_ctx
 * .ctx_smpl_buf_id) and pins the format's module until it is closed.  The
 * buffer is vzalloc()ed, never mapped to user space, and its kernel
 * address is returned to the owner, who reads it directly.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "internal.h"
#include "smpl_dfl.h"

static DEFINE_MUTEX(pfmk_smpl_lock);
static LIST_HEAD(pfmk_smpl_list);

static struct pfmk_smpl_fmt *pfmk_smpl_find(const pfm_uuid_t uuid)
{
	struct pfmk_smpl_fmt *fmt;

	lockdep_assert_held(&pfmk_smpl_lock);
	list_for_each_entry(fmt, &pfmk_smpl_list, list)
		if (!memcmp(fmt->uuid, uuid, sizeof(pfm_uuid_t)))
			return fmt;
	return NULL;
}

/**
 * pfmk_smpl_fmt_register() - register a sampling format
 * @fmt: the format; it must stay valid until unregistered.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL if @fmt lacks a name, a non-zero UUID or a callback;
 * -EEXIST if a format with the same UUID is registered.
 */
int pfmk_smpl_fmt_register(struct pfmk_smpl_fmt *fmt)
{
	int ret = 0;

	if (!fmt || !fmt->name || !memchr_inv(fmt->uuid, 0, sizeof(pfm_uuid_t)) ||
	    !fmt->get_size || !fmt->init || !fmt->handler || !fmt->restart)
		return -EINVAL;

	mutex_lock(&pfmk_smpl_lock);
	if (pfmk_smpl_find(fmt->uuid))
		ret = -EEXIST;
	else
		list_add_tail(&fmt->list, &pfmk_smpl_list);
	mutex_unlock(&pfmk_smpl_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_smpl_fmt_register);

/**
 * pfmk_smpl_fmt_unregister() - unregister a sampling format
 * @fmt: a format registered with pfmk_smpl_fmt_register().
 *
 * Contexts pin the format's module, so no context uses @fmt any more.
 *
 * Context: process context; may sleep.
 */
void pfmk_smpl_fmt_unregister(struct pfmk_smpl_fmt *fmt)
{
	mutex_lock(&pfmk_smpl_lock);
	list_del(&fmt->list);
	mutex_unlock(&pfmk_smpl_lock);
}
EXPORT_SYMBOL_GPL(pfmk_smpl_fmt_unregister);

/* All zero: no sampling format (two loads, not a byte loop). */
static bool pfmk_uuid_null(const pfm_uuid_t id)
{
	u64 w[2];

	static_assert(sizeof(pfm_uuid_t) == sizeof(w));
	memcpy(w, id, sizeof(w));
	return !(w[0] | w[1]);
}

/* The format of @uuid with its module pinned, or NULL if none is registered. */
static struct pfmk_smpl_fmt *pfmk_smpl_fmt_get(const pfm_uuid_t uuid)
{
	struct pfmk_smpl_fmt *fmt;

	mutex_lock(&pfmk_smpl_lock);
	fmt = pfmk_smpl_find(uuid);
	if (fmt && !try_module_get(fmt->owner))
		fmt = NULL;
	mutex_unlock(&pfmk_smpl_lock);
	return fmt;
}

/*
 * What @fmt asks for with @smpl_arg: its buffer's bytes (*@size) and the
 * AUX snippet's scratch space (*@aux), each checked against its limit.
 * Returns 0 or the errno of pfmk_smpl_setup().
 */
static int pfmk_smpl_sizes(const struct pfmk_smpl_fmt *fmt,
			   const void *smpl_arg, size_t smpl_size,
			   unsigned int npmds, ssize_t *size, size_t *aux)
{
	if (!smpl_arg || smpl_size != fmt->arg_size)
		return -EINVAL;
	*size = fmt->get_size(smpl_arg, npmds);
	if (*size < 0)
		return *size;
	if (*size > READ_ONCE(pfmk_max_smpl_buf))
		return -E2BIG;
	/* pfmk AUX: the snippet's scratch space follows the PMD values. */
	*aux = fmt->aux_size ? fmt->aux_size(smpl_arg) : 0;
	if (*aux > PFMK_SMPL_AUX_MAX)
		return -EINVAL;
	return 0;
}

/*
 * The PMD values (and AUX scratch space), the format's private data and
 * the buffer of @ctx; returns 0, or -ENOMEM with none of them left.
 */
static int pfmk_smpl_alloc(struct pfmk_ctx *ctx,
			   const struct pfmk_smpl_fmt *fmt, ssize_t size,
			   size_t aux, unsigned int npmds)
{
	ctx->smpl_vals = kzalloc(npmds * sizeof(u64) + aux, GFP_KERNEL);
	if (!ctx->smpl_vals)
		return -ENOMEM;
	ctx->smpl_aux = aux ? ctx->smpl_vals + npmds : NULL;
	ctx->smpl_aux_max = aux;
	if (fmt->priv_size) {
		ctx->smpl_priv = kzalloc(fmt->priv_size, GFP_KERNEL);
		if (!ctx->smpl_priv)
			goto err_vals;
	}
	ctx->smpl_buf = vzalloc(size);
	if (!ctx->smpl_buf)
		goto err_priv;
	return 0;

err_priv:
	kfree(ctx->smpl_priv);
	ctx->smpl_priv = NULL;
err_vals:
	kfree(ctx->smpl_vals);
	ctx->smpl_vals = NULL;
	ctx->smpl_aux = NULL;
	ctx->smpl_aux_max = 0;
	return -ENOMEM;
}

/**
 * pfmk_smpl_setup() - give a new context its sampling format and buffer
 * @ctx: the context being created (its PMU description is set).
 * @req: the creation request.
 * @smpl_arg: the format's argument.
 * @smpl_size: size of @smpl_arg.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL for an unknown format, a missing or mis-sized
 * argument, or an argument without a format, or what the format's
 * ->get_size() rejects with (-EINVAL, -E2BIG); -E2BIG for a buffer above
 * the max_smpl_buf limit; -ENOMEM when all buffers together would go
 * above max_smpl_mem, or out of memory.  Nothing is left allocated on
 * error.
 */
int pfmk_smpl_setup(struct pfmk_ctx *ctx, const struct pfarg_ctx *req,
		    void *smpl_arg, size_t smpl_size)
{
	unsigned int npmds = ctx->pmu->num_pmcs;
	struct pfmk_smpl_fmt *fmt;
	size_t aux;
	ssize_t size;
	int ret;

	if (pfmk_uuid_null(req->ctx_smpl_buf_id))
		return (smpl_arg || smpl_size) ? -EINVAL : 0;
	fmt = pfmk_smpl_fmt_get(req->ctx_smpl_buf_id);
	if (!fmt)
		return -EINVAL;
	ret = pfmk_smpl_sizes(fmt, smpl_arg, smpl_size, npmds, &size, &aux);
	if (ret)
		goto err_put;
	ret = -ENOMEM;
	if (!pfmk_charge_long(&pfmk_counters.smpl_bytes, size,
			      READ_ONCE(pfmk_max_smpl_mem)))
		goto err_put;
	ret = pfmk_smpl_alloc(ctx, fmt, size, aux, npmds);
	if (ret) {
		atomic_long_sub(size, &pfmk_counters.smpl_bytes);
		goto err_put;
	}

	fmt->init(ctx->smpl_buf, ctx->smpl_priv, size, smpl_arg, npmds);
	ctx->smpl_size = size;
	ctx->smpl_plain = fmt->handler == pfmk_dfl_handler &&
			  !((struct pfmk_dfl_priv *)ctx->smpl_priv)->aux_bytes;
	ctx->fmt = fmt;
	return 0;

err_put:
	module_put(fmt->owner);
	return ret;
}

/**
 * __pfmk_smpl_free() - free a context's sampling buffer, unpin its format
 * @ctx: the context; no overflow handler or irq_work of it can run.
 *
 * Context: process context.
 */
void __pfmk_smpl_free(struct pfmk_ctx *ctx)
{
	if (!ctx->fmt)
		return;
	vfree(ctx->smpl_buf);
	kfree(ctx->smpl_priv);
	kfree(ctx->smpl_vals);
	atomic_long_sub(ctx->smpl_size, &pfmk_counters.smpl_bytes);
	module_put(ctx->fmt->owner);
	ctx->smpl_buf = NULL;
	ctx->smpl_priv = NULL;
	ctx->smpl_vals = NULL;
	ctx->smpl_aux = NULL;
	ctx->smpl_aux_max = 0;
	ctx->smpl_plain = false;
	ctx->fmt = NULL;
}
