// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk descriptors: the opaque handles of the KAPI.
 *
 * A descriptor is never a kernel pointer.  It packs a context's index in
 * pfmk_ctx_xa (lower 32 bits, allocated cyclically, never 0) and a random
 * 31-bit cookie drawn at creation (upper 32 bits, bit 63 always clear, so
 * no descriptor looks like an x86-64 kernel address).  A lookup succeeds
 * only if the index holds a context with the same cookie, so NULL, forged,
 * garbage and stale descriptors all fail with -EBADF, even after the index
 * has been reused.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "internal.h"

static DEFINE_XARRAY_ALLOC1(pfmk_ctx_xa);
static u32 pfmk_ctx_next;

static unsigned long pfmk_desc_encode(const struct pfmk_ctx *ctx)
{
	return ((unsigned long)ctx->cookie << 32) | ctx->id;
}

/**
 * pfmk_desc_alloc() - publish a new context under a new descriptor
 * @ctx: the context, fully initialized.
 * @desc: output: the descriptor.
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM (-EBUSY if all 2^32 - 1 indexes are in use).
 */
int pfmk_desc_alloc(struct pfmk_ctx *ctx, void **desc)
{
	int ret;

	BUILD_BUG_ON(BITS_PER_LONG < 64);
	ctx->cookie = (get_random_u32() & 0x7fffffff) | 1;
	ret = xa_alloc_cyclic(&pfmk_ctx_xa, &ctx->id, ctx, xa_limit_32b,
			      &pfmk_ctx_next, GFP_KERNEL);
	if (ret < 0)
		return ret;
	*desc = (void *)pfmk_desc_encode(ctx);
	return 0;
}

/**
 * pfmk_desc_free() - unpublish a context's descriptor
 * @ctx: the context.
 *
 * New lookups of the descriptor fail from now on; calls already holding a
 * reference find the context dead under its mutex.
 *
 * Context: process context.
 */
void pfmk_desc_free(struct pfmk_ctx *ctx)
{
	xa_erase(&pfmk_ctx_xa, ctx->id);
}

/**
 * pfmk_desc_get() - look a descriptor up and take a context reference
 * @desc: the descriptor given by the caller.
 *
 * Context: any context.
 * Return: the context with a reference held, or NULL.
 */
struct pfmk_ctx *pfmk_desc_get(void *desc)
{
	unsigned long h = (unsigned long)desc;
	struct pfmk_ctx *ctx;

	if (!lower_32_bits(h) || (h >> 63))
		return NULL;

	rcu_read_lock();
	ctx = xa_load(&pfmk_ctx_xa, lower_32_bits(h));
	if (ctx && (READ_ONCE(ctx->cookie) != upper_32_bits(h) ||
		    !refcount_inc_not_zero(&ctx->ref)))
		ctx = NULL;
	rcu_read_unlock();
	return ctx;
}

/**
 * pfmk_ctx_put() - drop a context reference
 * @ctx: the context.
 *
 * The last reference frees the context's memory after an RCU grace period.
 *
 * Context: any context.
 */
void pfmk_ctx_put(struct pfmk_ctx *ctx)
{
	if (refcount_dec_and_test(&ctx->ref)) {
		atomic64_inc(&pfmk_counters.freed);
		kfree_rcu(ctx, rcu);
	}
}

/**
 * pfmk_desc_next() - iterate over the published contexts
 * @index: in: first index to look at; out: the index found.  Start at 0
 *	and add 1 to the index found before the next call.
 *
 * Context: any context that may take a reference (not NMI).
 * Return: the next context at or after *@index, referenced (drop the
 * reference with pfmk_ctx_put()), or NULL at the end.
 */
struct pfmk_ctx *pfmk_desc_next(unsigned long *index)
{
	struct pfmk_ctx *ctx;

	rcu_read_lock();
	for (;;) {
		ctx = xa_find(&pfmk_ctx_xa, index, ULONG_MAX, XA_PRESENT);
		if (!ctx || refcount_inc_not_zero(&ctx->ref))
			break;
		(*index)++;
	}
	rcu_read_unlock();
	return ctx;
}

/**
 * pfmk_desc_of() - the descriptor of a context
 * @ctx: the context.
 *
 * Context: any context.
 * Return: the descriptor pfmk_create_context() returned for @ctx.
 */
unsigned long pfmk_desc_of(const struct pfmk_ctx *ctx)
{
	return pfmk_desc_encode(ctx);
}

/**
 * pfmk_ctx_lock() - look a descriptor up and lock its context
 * @desc: the descriptor given by the caller.
 *
 * Context: process context; may sleep.
 * Return: the context, referenced and with its mutex held, or
 * ERR_PTR(-EBADF) for an unknown, forged or closed descriptor.
 */
struct pfmk_ctx *pfmk_ctx_lock(void *desc)
{
	struct pfmk_ctx *ctx = pfmk_desc_get(desc);

	if (!ctx)
		return ERR_PTR(-EBADF);
	mutex_lock(&ctx->mutex);
	if (ctx->dead) {
		mutex_unlock(&ctx->mutex);
		pfmk_ctx_put(ctx);
		return ERR_PTR(-EBADF);
	}
	/* Every call sees the CPU hotplug events that came before it. */
	pfmk_hotplug_sync(ctx);
	return ctx;
}

/**
 * pfmk_ctx_unlock() - unlock a context locked by pfmk_ctx_lock()
 * @ctx: the context.
 *
 * Context: process context.
 */
void pfmk_ctx_unlock(struct pfmk_ctx *ctx)
{
	mutex_unlock(&ctx->mutex);
	pfmk_ctx_put(ctx);
}
