// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk descriptors: the opaque handles of the KAPI.
 *
 * A descriptor is never a kernel pointer.  It packs a context's index in
 * pfmk_ctx_xa plus one (lower 32 bits, never 0) and a 31-bit
 * cookie (upper 32 bits, bit 63 always clear, so no descriptor looks like
 * an x86-64 kernel address).  A lookup succeeds only if the index holds a
 * context with the same cookie, so NULL, forged, garbage and stale
 * descriptors all fail with -EBADF, even after the index has been reused.
 *
 * Cookies are a keyed permutation of a counter: context n gets
 * perm(n), where perm is a bijection of the 31-bit integers (odd
 * multipliers and xor-shifts, whose keys are drawn at module load).
 * Being a bijection, no two of 2^31 consecutive contexts share a cookie
 * (a stale descriptor can never match the context now at its index,
 * which random cookies only made unlikely); being keyed, one descriptor
 * tells nothing of the next one's cookie, so a descriptor cannot be
 * forged from another by arithmetic.  It is not a cryptographic
 * permutation: it stops mistakes and casual forgery, not a module that
 * can read pfmk's memory anyway.  Drawing a random number per context
 * cost more than the rest of pfmk_create_context() on a machine whose
 * CRNG is not seeded yet.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "internal.h"

/*
 * Indexes from 0, descriptors from 1: the lowest free index is 0 whenever one
 * context is open, and a lone entry at index 0 lives in the xarray's head,
 * with no node to allocate at create and free at close (an ALLOC1 array
 * needed one for its first entry, at index 1: a fifth of what pfmk itself
 * added to create + close in the 6.1 guest).
 */
static DEFINE_XARRAY_ALLOC(pfmk_ctx_xa);
static atomic_t pfmk_cookie_next;
static u32 pfmk_cookie_key[4];

#define PFMK_COOKIE_MASK	0x7fffffffU

/* A keyed bijection of [0, 2^31): each step is invertible modulo 2^31. */
static u32 pfmk_cookie_perm(u32 x)
{
	x = (x * pfmk_cookie_key[0] + pfmk_cookie_key[1]) & PFMK_COOKIE_MASK;
	x ^= x >> 16;
	x = (x * pfmk_cookie_key[2]) & PFMK_COOKIE_MASK;
	x ^= x >> 13;
	x = (x * pfmk_cookie_key[3]) & PFMK_COOKIE_MASK;
	return x ^ (x >> 16);
}

/**
 * pfmk_desc_init() - draw the keys of the cookie permutation
 *
 * Context: process context, at module load.
 */
void pfmk_desc_init(void)
{
	get_random_bytes(pfmk_cookie_key, sizeof(pfmk_cookie_key));
	/* Multipliers odd: invertible modulo 2^31. */
	pfmk_cookie_key[0] |= 1;
	pfmk_cookie_key[2] |= 1;
	pfmk_cookie_key[3] |= 1;
	atomic_set(&pfmk_cookie_next, get_random_u32());
}

/**
 * pfmk_desc_prepare() - give a new context its cookie and creation reference
 * @ctx: the context being created, its memory cleared but for the
 *	type-stable fields (@dead still set).
 *
 * The cookie is written before the reference: a lookup that raced with the
 * close of the context this memory held before, and takes a reference on
 * the new one, reads the new cookie after its refcount_inc_not_zero() and
 * lets go (pfmk_desc_get()).
 *
 * Context: process context.
 */
void pfmk_desc_prepare(struct pfmk_ctx *ctx)
{
	u32 cookie;

	/* Never 0: a descriptor must not look like a small integer. */
	do {
		cookie = pfmk_cookie_perm(atomic_inc_return(&pfmk_cookie_next));
	} while (!cookie);
	WRITE_ONCE(ctx->cookie, cookie);
	/* The cookie before the reference: pairs with pfmk_desc_get(). */
	smp_wmb();
	refcount_set(&ctx->ref, 1);
}

/**
 * pfmk_desc_alloc() - publish a new context under a new descriptor
 * @ctx: the context, fully initialized (pfmk_desc_prepare() done).
 * @desc: output: the descriptor.
 *
 * Clears @dead, after the cookie: a lookup that pinned this memory for
 * an older descriptor sees either @dead or the new cookie (pfmk_ctx_is()).
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM (-EBUSY if all 2^32 - 1 indexes are in use); the
 * context is left dead on error.
 */
int pfmk_desc_alloc(struct pfmk_ctx *ctx, void **desc)
{
	int ret;

	BUILD_BUG_ON(BITS_PER_LONG < 64);
	/* The cookie before @dead: pairs with pfmk_ctx_is(). */
	smp_wmb();
	WRITE_ONCE(ctx->dead, false);
	/* xa_alloc() sets ctx->id before the context is visible. */
	ret = xa_alloc(&pfmk_ctx_xa, &ctx->id, ctx, XA_LIMIT(0, U32_MAX - 1),
		       GFP_KERNEL);
	if (ret < 0) {
		WRITE_ONCE(ctx->dead, true);
		return ret;
	}
	*desc = (void *)pfmk_desc_of(ctx);
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
 * pfmk_desc_lookup_rcu() - look a descriptor up without a reference
 * @desc: the descriptor given by the caller.
 *
 * The memory found stays a context until the RCU read-side section ends,
 * but not necessarily this descriptor's: it may be closed meanwhile
 * (ctx->dead, under ctx->state_seq), freed and reused.  The caller pins
 * it, then checks pfmk_ctx_is().
 *
 * Context: rcu_read_lock() held.
 * Return: the context, or NULL.
 */
struct pfmk_ctx *pfmk_desc_lookup_rcu(void *desc)
{
	unsigned long h = (unsigned long)desc;
	XA_STATE(xas, &pfmk_ctx_xa, 0);
	struct pfmk_ctx *ctx;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "pfmk lookup outside RCU");
	if (!lower_32_bits(h) || (h >> 63))
		return NULL;
	/* xa_load() without its own RCU section: the caller's is enough. */
	xas_set(&xas, lower_32_bits(h) - 1);
	do {
		ctx = xas_load(&xas);
		if (xa_is_zero(ctx))
			ctx = NULL;
	} while (xas_retry(&xas, ctx));
	if (ctx && READ_ONCE(ctx->cookie) != upper_32_bits(h))
		return NULL;
	return ctx;
}

/**
 * pfmk_desc_get() - look a descriptor up and take a context reference
 * @desc: the descriptor given by the caller.
 *
 * Context: any context but NMI.
 * Return: the context with a reference held, or NULL if @desc is not a
 * live context's.
 */
struct pfmk_ctx *pfmk_desc_get(void *desc)
{
	struct pfmk_ctx *ctx;

	rcu_read_lock();
	ctx = pfmk_desc_lookup_rcu(desc);
	if (ctx && !refcount_inc_not_zero(&ctx->ref))
		ctx = NULL;
	if (ctx) {
		/* The reference before the cookie: pairs with pfmk_desc_prepare(). */
		smp_rmb();
		if (!pfmk_ctx_is(ctx, (unsigned long)desc)) {
			pfmk_ctx_put(ctx);
			ctx = NULL;
		}
	}
	rcu_read_unlock();
	return ctx;
}

/**
 * pfmk_ctx_put() - drop a context reference
 * @ctx: the context.
 *
 * The last reference gives the context's memory back to its cache
 * (pfmk_ctx_free()).
 *
 * Context: any context but NMI.
 */
void pfmk_ctx_put(struct pfmk_ctx *ctx)
{
	if (refcount_dec_and_test(&ctx->ref)) {
		/* Not a create that failed (pfmk_ctx_create()). */
		if (ctx->counted)
			atomic64_inc(&pfmk_counters.freed);
		pfmk_ctx_free(ctx);
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
		if (!ctx)
			break;
		if (refcount_inc_not_zero(&ctx->ref)) {
			/*
			 * Pinned, but maybe freed and reused since xa_find():
			 * keep it only if it is still published here.  The
			 * reference before the load: a stale load could see
			 * the context still published after its reuse.
			 */
			smp_rmb();
			if (xa_load(&pfmk_ctx_xa, *index) == ctx)
				break;
			pfmk_ctx_put(ctx);
		}
		(*index)++;
	}
	rcu_read_unlock();
	return ctx;
}

/**
 * pfmk_ctx_lock() - look a descriptor up and lock its context
 * @desc: the descriptor given by the caller.
 *
 * Uncontended, the mutex is taken inside the lookup's RCU section and no
 * reference is taken: a context that is not dead holds its creation
 * reference until pfmk_ctx_close(), which needs the mutex.  A context
 * whose mutex is busy is referenced before sleeping on it.
 * ctx->lock_ref tells pfmk_ctx_unlock() which way it was locked;
 * pfmk_ctx_lock_pin() turns the first way into the second.
 *
 * Context: process context; may sleep.
 * Return: the context, with its mutex held (and maybe referenced), or
 * ERR_PTR(-EBADF) for an unknown, forged or closed descriptor.
 */
struct pfmk_ctx *pfmk_ctx_lock(void *desc)
{
	struct pfmk_ctx *ctx;

	rcu_read_lock();
	ctx = pfmk_desc_lookup_rcu(desc);
	if (unlikely(!ctx))
		goto err_rcu;
	if (likely(mutex_trylock(&ctx->mutex))) {
		/* Closed, or reused by another context since the lookup. */
		if (unlikely(!pfmk_ctx_is(ctx, (unsigned long)desc))) {
			mutex_unlock(&ctx->mutex);
			goto err_rcu;
		}
		rcu_read_unlock();
		ctx->lock_ref = false;
	} else {
		if (!refcount_inc_not_zero(&ctx->ref))
			goto err_rcu;
		rcu_read_unlock();
		/* The reference before the checks: see pfmk_desc_get(). */
		smp_rmb();
		mutex_lock(&ctx->mutex);
		if (!pfmk_ctx_is(ctx, (unsigned long)desc)) {
			mutex_unlock(&ctx->mutex);
			pfmk_ctx_put(ctx);
			return ERR_PTR(-EBADF);
		}
		ctx->lock_ref = true;
	}
	/* Every call sees the CPU hotplug events that came before it. */
	if (unlikely(pfmk_hotplug_pending(ctx)))
		pfmk_hotplug_sync(ctx);
	return ctx;

err_rcu:
	rcu_read_unlock();
	return ERR_PTR(-EBADF);
}

/**
 * pfmk_ctx_lock_pin() - hold a reference on a context locked by pfmk_ctx_lock()
 * @ctx: the context.
 *
 * For a call that drops the creation reference under the mutex
 * (pfmk_close()): the context must outlive pfmk_ctx_unlock().
 *
 * Context: process context; ctx->mutex held.
 */
void pfmk_ctx_lock_pin(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	if (!ctx->lock_ref) {
		refcount_inc(&ctx->ref);
		ctx->lock_ref = true;
	}
}

/**
 * pfmk_ctx_unlock() - unlock a context locked by pfmk_ctx_lock()
 * @ctx: the context.
 *
 * Without a reference, the context may be freed as soon as a close that
 * was waiting for the mutex takes it, and mutex_unlock() may still touch
 * the mutex after handing it over.  A context of a size class stays a
 * context with the same mutex (type-stable memory, see pfmk_ctx_free());
 * a larger one is freed one RCU grace period later, and the unlock runs
 * with preemption off, which no grace period ends during (since RCU's
 * flavours were consolidated, v4.20).  Not rcu_read_lock():
 * with lockdep, its section is tracked like a lock, and cost more than
 * the two atomic operations this path saves; a mutex_unlock() with
 * preemption off is legal everywhere, PREEMPT_RT included.
 *
 * Context: process context; ctx->mutex held.
 */
void pfmk_ctx_unlock(struct pfmk_ctx *ctx)
{
	if (ctx->lock_ref) {
		mutex_unlock(&ctx->mutex);
		pfmk_ctx_put(ctx);
		return;
	}
	preempt_disable();
	mutex_unlock(&ctx->mutex);
	preempt_enable();
}
