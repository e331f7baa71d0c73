// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk descriptors: the opaque handles of the KAPI.
 *
 * A descriptor is never a kernel pointer.  It packs a context's index in
 * the descriptor table plus one (lower 32 bits, never 0) and a 31-bit
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
 * can read pfmk's memory anyway.  It needs no random number per context,
 * which is slow to draw while the CRNG is not seeded yet.
 *
 * The descriptor table is an array of context pointers indexed by the
 * descriptor, published with RCU: a lookup is a bounds check and a load.
 * pfmk_desc_alloc() takes the lowest free index (a bitmap), and when there
 * is none replaces the table with one twice its size, copied, the old one
 * freed a grace period later; pfmk_desc_free() clears the slot.  Both run
 * under pfmk_desc_mutex.  A reader still on a replaced table may find a
 * context closed since: every lookup checks the cookie and ->dead
 * (pfmk_ctx_is()) on memory that stays a context (type-stable, or freed a
 * grace period after its close), as it had to with any table.
 *
 * The reference and lock calls a KAPI call makes through a descriptor
 * live here too, named after it: pfmk_desc_get() and pfmk_desc_put(),
 * pfmk_desc_lock() and pfmk_desc_unlock(), so that the lookup inlines
 * into pfmk_desc_lock(), the path of every locked KAPI call.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "internal.h"

/* The first table's slots, and the most a table may have (then -EBUSY). */
#define PFMK_DESC_MIN		64U
#define PFMK_DESC_MAX		BIT(24)

/**
 * struct pfmk_desc_table - the descriptor table
 * @size: number of slots, a power of two.
 * @busy: bitmap of the slots in use (and reserved), @size bits; written
 *	under pfmk_desc_mutex only.
 * @rcu: frees a replaced table after a grace period.
 * @slot: the contexts, indexed by descriptor minus one; NULL when free.
 *	Written under pfmk_desc_mutex, read under RCU.
 */
struct pfmk_desc_table {
	unsigned int			size;
	unsigned long			*busy;
	struct rcu_head			rcu;
	struct pfmk_ctx __rcu		*slot[];
};

/* Protects the writes to the table and its replacement; innermost. */
static DEFINE_MUTEX(pfmk_desc_mutex);
static struct pfmk_desc_table __rcu *pfmk_desc_tab;
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

static struct pfmk_desc_table *pfmk_desc_table_locked(void)
{
	return rcu_dereference_protected(pfmk_desc_tab,
					 lockdep_is_held(&pfmk_desc_mutex));
}

/* A table of @size slots holding @old's contexts, or NULL. */
static struct pfmk_desc_table *pfmk_desc_table_new(struct pfmk_desc_table *old,
						   unsigned int size)
{
	struct pfmk_desc_table *t;
	size_t bytes = struct_size(t, slot, size);
	struct pfmk_ctx *ctx;
	unsigned int i;

	t = kvzalloc(bytes + BITS_TO_LONGS(size) * sizeof(long), GFP_KERNEL);
	if (!t)
		return NULL;
	t->size = size;
	t->busy = (unsigned long *)((char *)t + bytes);
	if (old) {
		bitmap_copy(t->busy, old->busy, old->size);
		/* Not yet published: no reader to order against. */
		for (i = 0; i < old->size; i++) {
			ctx = rcu_dereference_protected(old->slot[i],
							lockdep_is_held(&pfmk_desc_mutex));
			RCU_INIT_POINTER(t->slot[i], ctx);
		}
	}
	return t;
}

/*
 * The lowest free index, in a table grown if it has none.  Returns the
 * index or a negative errno; pfmk_desc_mutex held.
 */
static int pfmk_desc_reserve(void)
{
	struct pfmk_desc_table *t = pfmk_desc_table_locked(), *n;
	unsigned int idx;

	lockdep_assert_held(&pfmk_desc_mutex);
	idx = t ? find_first_zero_bit(t->busy, t->size) : 0;
	if (!t || idx >= t->size) {
		if (t && t->size >= PFMK_DESC_MAX)
			return -EBUSY;
		n = pfmk_desc_table_new(t, t ? t->size * 2 : PFMK_DESC_MIN);
		if (!n)
			return -ENOMEM;
		rcu_assign_pointer(pfmk_desc_tab, n);
		if (t)
			kvfree_rcu(t, rcu);
		t = n;
	}
	__set_bit(idx, t->busy);
	return idx;
}

/**
 * pfmk_desc_exit() - free the descriptor table
 *
 * Context: process context, at module unload: no context is open.
 */
void pfmk_desc_exit(void)
{
	struct pfmk_desc_table *t;

	mutex_lock(&pfmk_desc_mutex);
	t = pfmk_desc_table_locked();
	WARN_ON(t && !bitmap_empty(t->busy, t->size));
	RCU_INIT_POINTER(pfmk_desc_tab, NULL);
	mutex_unlock(&pfmk_desc_mutex);
	/* No reader left: every context is closed and every call returned. */
	kvfree(t);
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
 * Context: process context; may sleep; takes pfmk_desc_mutex.
 * Return: 0, or -ENOMEM (-EBUSY if the table has 2^24 contexts); the
 * context is left dead on error.
 */
int pfmk_desc_alloc(struct pfmk_ctx *ctx, void **desc)
{
	unsigned long d;
	int idx;

	BUILD_BUG_ON(BITS_PER_LONG < 64);
	mutex_lock(&pfmk_desc_mutex);
	idx = pfmk_desc_reserve();
	if (idx < 0) {
		mutex_unlock(&pfmk_desc_mutex);
		return idx;
	}
	ctx->id = idx;
	/*
	 * Once published, a close (the module reclaim's) may free the
	 * context and a create reuse it: its descriptor is read before.
	 */
	d = pfmk_desc_of(ctx);
	/* The cookie before @dead: pairs with pfmk_ctx_is(). */
	smp_wmb();
	WRITE_ONCE(ctx->dead, false);
	/* Everything written before, ->id included, then the context. */
	rcu_assign_pointer(pfmk_desc_table_locked()->slot[idx], ctx);
	mutex_unlock(&pfmk_desc_mutex);
	*desc = (void *)d;
	return 0;
}

/**
 * pfmk_desc_free() - unpublish a context's descriptor
 * @ctx: the context.
 *
 * New lookups of the descriptor fail from now on; calls already holding a
 * reference find the context dead under its mutex.
 *
 * Context: process context; takes pfmk_desc_mutex.
 */
void pfmk_desc_free(struct pfmk_ctx *ctx)
{
	struct pfmk_desc_table *t;

	mutex_lock(&pfmk_desc_mutex);
	t = pfmk_desc_table_locked();
	RCU_INIT_POINTER(t->slot[ctx->id], NULL);
	__clear_bit(ctx->id, t->busy);
	mutex_unlock(&pfmk_desc_mutex);
}

/* The context at @idx of the current table, or NULL; RCU held. */
static struct pfmk_ctx *pfmk_desc_slot_rcu(unsigned long idx)
{
	struct pfmk_desc_table *t = rcu_dereference(pfmk_desc_tab);

	if (unlikely(!t || idx >= t->size))
		return NULL;
	return rcu_dereference(t->slot[idx]);
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
	struct pfmk_ctx *ctx;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "pfmk lookup outside RCU");
	if (!lower_32_bits(h) || (h >> 63))
		return NULL;
	ctx = pfmk_desc_slot_rcu(lower_32_bits(h) - 1);
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
			pfmk_desc_put(ctx);
			ctx = NULL;
		}
	}
	rcu_read_unlock();
	return ctx;
}

/**
 * pfmk_desc_put() - drop a context reference
 * @ctx: the context.
 *
 * The last reference gives the context's memory back to its cache
 * (pfmk_ctx_free()).
 *
 * Context: any context but NMI.
 */
void pfmk_desc_put(struct pfmk_ctx *ctx)
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
 * reference with pfmk_desc_put()), or NULL at the end.
 */
struct pfmk_ctx *pfmk_desc_next(unsigned long *index)
{
	struct pfmk_desc_table *t;
	struct pfmk_ctx *ctx = NULL;

	rcu_read_lock();
	for (;;) {
		t = rcu_dereference(pfmk_desc_tab);
		if (!t || *index >= t->size) {
			ctx = NULL;
			break;
		}
		ctx = rcu_dereference(t->slot[*index]);
		if (ctx && refcount_inc_not_zero(&ctx->ref)) {
			/*
			 * Pinned, but maybe freed and reused since the load:
			 * keep it only if it is still published here.  The
			 * reference before the load: a stale load could see
			 * the context still published after its reuse.
			 */
			smp_rmb();
			if (pfmk_desc_slot_rcu(*index) == ctx)
				break;
			pfmk_desc_put(ctx);
		}
		(*index)++;
	}
	rcu_read_unlock();
	return ctx;
}

/**
 * pfmk_desc_lock() - look a descriptor up and lock its context
 * @desc: the descriptor given by the caller.
 *
 * Takes a reference and checks the context as pfmk_desc_get() does
 * (here, beside the lookup, which the compiler inlines), then the mutex,
 * then checks that no close ran while the call slept on it.  The
 * reference keeps the memory this context's until pfmk_desc_unlock(), even
 * if a close drops the creation reference meanwhile: its cookie cannot
 * change, and the mutex of a freed context is never touched.
 *
 * Context: process context; may sleep.
 * Return: the context, with a reference and its mutex held, or
 * ERR_PTR(-EBADF) for an unknown, forged or closed descriptor.
 */
struct pfmk_ctx *pfmk_desc_lock(void *desc)
{
	struct pfmk_ctx *ctx;

	rcu_read_lock();
	ctx = pfmk_desc_lookup_rcu(desc);
	if (unlikely(!ctx || !refcount_inc_not_zero(&ctx->ref))) {
		rcu_read_unlock();
		return ERR_PTR(-EBADF);
	}
	rcu_read_unlock();
	/* The reference before the checks: see pfmk_desc_get(). */
	smp_rmb();
	if (unlikely(!pfmk_ctx_is(ctx, (unsigned long)desc)))
		goto err_put;
	mutex_lock(&ctx->mutex);
	/*
	 * Closed while the call waited for the mutex.  The cookie cannot
	 * have changed: the reference keeps the memory this context's.
	 */
	if (unlikely(READ_ONCE(ctx->dead))) {
		mutex_unlock(&ctx->mutex);
		goto err_put;
	}
	/* Every call sees the CPU hotplug events that came before it. */
	if (unlikely(pfmk_hotplug_pending(ctx)))
		pfmk_hotplug_sync(ctx);
	return ctx;

err_put:
	pfmk_desc_put(ctx);
	return ERR_PTR(-EBADF);
}

/**
 * pfmk_desc_unlock() - unlock a context locked by pfmk_desc_lock()
 * @ctx: the context.
 *
 * Unlocks, then drops the call's reference, which may be the last one if
 * the call closed the context (pfmk_close()).
 *
 * Context: process context; ctx->mutex held.
 */
void pfmk_desc_unlock(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	mutex_unlock(&ctx->mutex);
	pfmk_desc_put(ctx);
}
