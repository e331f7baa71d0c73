// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk AUX policy (<pfmk/aux.h>): which PMD of a context owns a
 * kernel-owned AUX buffer, when the buffer comes and goes, what it costs,
 * and what samples and copies see of it.  The buffer itself is handled by
 * the wrappers of pmu/aux.h; the exported calls are in kapi/aux.c.
 *
 * A context has at most one AUX PMD (ctx->aux, set up while unloaded): a
 * PMD of event set 0, which captures while set 0 is the active set.
 * Its buffer lives as long as the PMD's perf event: attached at load
 * (pfmk_aux_load()), freed at unload (pfmk_aux_unload()), both under
 * ctx->mutex.  A write of the AUX PMD's PMC or PMD on a loaded, stopped
 * context replaces the PMD's event: the replacement gets a new buffer
 * before anything is changed (pfmk_aux_attach_new()), then takes over
 * the buffer's ownership while the old event and its buffer go
 * (pfmk_aux_rebind()); what the old buffer held is lost, as on a new
 * load.  pfmk_ctx_aux_copy() runs under ctx->mutex too.  The sampling
 * path (pfmk_aux_snippet()) runs in NMI or hard-irq context on the
 * context's CPU and only reads.
 *
 * Without the kernel patch, no set-up can be made (-EOPNOTSUPP), so every
 * call here finds ctx->aux NULL.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/log2.h>
#include <linux/slab.h>
#include <pfmk/aux.h>
#include <pfmk/compat.h>

#include "internal.h"

/**
 * struct pfmk_aux - the AUX set-up of a context
 * @pmd: the AUX PMD, of set 0.
 * @buf: its buffer; @buf.event is the PMD's event while it owns one.
 * @rcu: frees the set-up after the crash path (core/crash.c), which
 *	reads it without ctx->mutex.
 */
struct pfmk_aux {
	unsigned int		pmd;
	struct pfmk_aux_buf	buf;
	struct rcu_head		rcu;
};

/**
 * __pfmk_aux_load() - attach the AUX buffer of a context being loaded
 * @ctx: the context, locked; its sets' events exist, disabled.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0; -EINVAL if the AUX PMD has no event or its PMU is not an
 * AUX PMU pfmk knows; an error of perf_event_attach_kernel_aux().
 */
int __pfmk_aux_load(struct pfmk_ctx *ctx)
{
	struct pfmk_aux *aux = pfmk_ctx_aux(ctx);
	struct perf_event *event;
	int ret;

	lockdep_assert_held(&ctx->mutex);

	if (!aux)
		return 0;
	/* The AUX PMD is a PMD of set 0: it captures while set 0 is active. */
	event = pfmk_pmd_event(&ctx->set0.pmds[aux->pmd]);
	if (!event)
		return -EINVAL;
	ret = pfmk_aux_buf_attach(&aux->buf, event);
	if (ret)
		return ret;
	pfmk_aux_buf_switch(&aux->buf, event);
	return 0;
}

/* Is PMD @num of @set the AUX PMD of a loaded context? */
static bool pfmk_aux_is_pmd(const struct pfmk_ctx *ctx,
			    const struct pfmk_set *set, unsigned int num)
{
	const struct pfmk_aux *aux = pfmk_ctx_aux(ctx);

	return aux && rcu_access_pointer(aux->buf.event) &&
	       set == &ctx->set0 && num == aux->pmd;
}

/**
 * pfmk_aux_attach_new() - give a replacement event of the AUX PMD a buffer
 * @ctx: the context, locked, loaded and stopped.
 * @set: the set of the PMD being rewritten.
 * @num: the PMD being rewritten.
 * @event: its new, disabled event.
 *
 * Called before anything of the write is applied, so that a failure
 * leaves the context as it was; the caller destroys @event on error
 * (which frees the buffer with it).
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0 (also when @num is not the AUX PMD); -EBUSY if @event is NULL
 * (the write disables the AUX PMD's PMC: unload first); -EINVAL if @event
 * is not of an AUX PMU pfmk knows; an error of
 * perf_event_attach_kernel_aux().
 */
int pfmk_aux_attach_new(struct pfmk_ctx *ctx, const struct pfmk_set *set,
			unsigned int num, struct perf_event *event)
{
	lockdep_assert_held(&ctx->mutex);
	if (!pfmk_aux_is_pmd(ctx, set, num))
		return 0;
	if (!event)
		return -EBUSY;
	return pfmk_aux_buf_attach(&pfmk_ctx_aux(ctx)->buf, event);
}

/**
 * pfmk_aux_rebind() - make the AUX PMD's replacement event the AUX event
 * @ctx: the context, locked, loaded and stopped: no overflow handler runs.
 * @set: as for pfmk_aux_attach_new().
 * @num: as for pfmk_aux_attach_new().
 * @event: the replacement, given a buffer by pfmk_aux_attach_new().
 *
 * Detaches the old event's buffer; the caller then releases the old
 * event.  Nothing is done when @num is not the AUX PMD.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_aux_rebind(struct pfmk_ctx *ctx, const struct pfmk_set *set,
		     unsigned int num, struct perf_event *event)
{
	lockdep_assert_held(&ctx->mutex);
	if (!pfmk_aux_is_pmd(ctx, set, num))
		return;
	pfmk_aux_buf_switch(&pfmk_ctx_aux(ctx)->buf, event);
}

/**
 * __pfmk_aux_unload() - free the AUX buffer of a context being unloaded
 * @ctx: the context, locked, stopped: no overflow handler runs.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void __pfmk_aux_unload(struct pfmk_ctx *ctx)
{
	struct pfmk_aux *aux = pfmk_ctx_aux(ctx);

	lockdep_assert_held(&ctx->mutex);

	if (!aux || !rcu_access_pointer(aux->buf.event))
		return;
	pfmk_aux_buf_switch(&aux->buf, NULL);
}

/**
 * pfmk_aux_snippet() - fill in the AUX snippet of an overflow
 * @ctx: the context of the overflow, with an AUX set-up and a sampling
 *	format that records snippets (ctx->smpl_aux_max bytes of them).
 * @arg: the overflow being handed to the format.
 *
 * Copies the last AUX bytes before the head into ctx->smpl_aux, the
 * context's scratch space, and points @arg at them.
 *
 * Context: the overflow path (NMI or hard-irq) on the context's CPU.
 */
void pfmk_aux_snippet(struct pfmk_ctx *ctx, struct pfmk_ovfl_arg *arg)
{
	/*
	 * Not rcu_dereference_check(): this may run in NMI, where no lockdep
	 * check belongs.  The set-up changes only while the context is
	 * unloaded, when no overflow handler runs.
	 */
	struct pfmk_aux *aux = rcu_dereference_raw(ctx->aux);
	struct pfmk_dfl_aux_snippet snip;

	pfmk_aux_buf_snippet(&aux->buf, ctx->smpl_aux, ctx->smpl_aux_max,
			     &snip);
	arg->aux_data = ctx->smpl_aux;
	arg->aux_head = snip.head;
	arg->aux_len = snip.len;
	arg->aux_flags = snip.flags;
}

/**
 * pfmk_aux_crash_copy() - the newest AUX bytes of a context, at a crash
 * @ctx: the context, on pfmk's crash list (core/crash.c): not closed.
 * @dst: destination.
 * @max: bytes wanted.
 * @snip: output: where the bytes end in the stream, how many, whether
 *	the stream wrapped (all zero without an AUX buffer).
 *
 * Without ctx->mutex: the set-up is freed after a grace period, the
 * buffer's event is published with rcu_assign_pointer() and freed by perf
 * after one, and the kernel's copy runs under RCU.
 *
 * Context: the crash path (any context, NMI included), under
 * rcu_read_lock().
 */
void pfmk_aux_crash_copy(struct pfmk_ctx *ctx, void *dst, size_t max,
			 struct pfmk_dfl_aux_snippet *snip)
{
	struct pfmk_aux *aux = rcu_dereference_check(ctx->aux,
						     rcu_read_lock_any_held());

	if (!aux) {
		memset(snip, 0, sizeof(*snip));
		return;
	}
	pfmk_aux_buf_snippet(&aux->buf, dst, max, snip);
}

/**
 * pfmk_ctx_aux_copy() - copy AUX data out of a loaded context
 * @ctx: the context, locked.
 * @max: as for pfmk_aux_copy().
 * @fn: as for pfmk_aux_copy().
 * @data: as for pfmk_aux_copy().
 * @info: as for pfmk_aux_copy().
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: as for pfmk_aux_copy(), -EBADF and -EINVAL excepted.
 */
int pfmk_ctx_aux_copy(struct pfmk_ctx *ctx, size_t max, pfmk_aux_copy_t fn,
		      void *data, struct pfmk_aux_info *info)
{
	struct pfmk_aux *aux = pfmk_ctx_aux(ctx);
	bool running;

	lockdep_assert_held(&ctx->mutex);

	if (!pfmk_aux_buf_supported())
		return -EOPNOTSUPP;
	if (!aux)
		return -ENXIO;
	if (ctx->state == PFM_CTX_UNLOADED || !rcu_access_pointer(aux->buf.event))
		return -ENOTCONN;
	/*
	 * Events keep counting while masked: paused and resumed alike.  With
	 * event sets, set 0's events (the AUX PMD's) run only while it is
	 * the active set.
	 */
	running = ctx->started && pfmk_ctx_active_set(ctx) == &ctx->set0;
	return pfmk_aux_buf_copy(&aux->buf, max, running, fn, data, info);
}

/**
 * pfmk_aux_pmd_set_up() - is a PMD the AUX PMD of a context?
 * @ctx: the context, locked.
 * @set: a set of the context.
 * @num: a PMD number.
 *
 * Context: ctx->mutex held.
 * Return: true if @ctx has an AUX set-up on PMD @num of @set.
 */
bool pfmk_aux_pmd_set_up(const struct pfmk_ctx *ctx,
			 const struct pfmk_set *set, unsigned int num)
{
	lockdep_assert_held(&ctx->mutex);

	const struct pfmk_aux *aux = pfmk_ctx_aux(ctx);

	return aux && set == &ctx->set0 && num == aux->pmd;
}

/*
 * An AUX set-up is memory the caller makes pfmk allocate (at load): it
 * counts from the set-up on, as a sampling buffer does, in smpl_bytes
 * against max_smpl_mem and in mem_bytes (its data page included).
 */
static size_t pfmk_aux_mem(size_t size)
{
	return size + PAGE_SIZE;
}

static bool pfmk_aux_charge(size_t size)
{
	if (!pfmk_charge_long(&pfmk_counters.smpl_bytes, pfmk_aux_mem(size),
			      READ_ONCE(pfmk_max_smpl_mem)))
		return false;
	atomic_long_add(pfmk_aux_mem(size), &pfmk_counters.mem_bytes);
	return true;
}

static void pfmk_aux_uncharge(size_t size)
{
	atomic_long_sub(pfmk_aux_mem(size), &pfmk_counters.smpl_bytes);
	atomic_long_sub(pfmk_aux_mem(size), &pfmk_counters.mem_bytes);
}

/**
 * __pfmk_aux_free() - forget the AUX set-up of a context being closed
 * @ctx: the context, locked and unloaded.
 *
 * Context: process context; ctx->mutex held.
 */
void __pfmk_aux_free(struct pfmk_ctx *ctx)
{
	struct pfmk_aux *aux = pfmk_ctx_aux(ctx);

	lockdep_assert_held(&ctx->mutex);

	if (!aux)
		return;
	RCU_INIT_POINTER(ctx->aux, NULL);
	pfmk_aux_uncharge(aux->buf.size);
	/* The crash path may be reading it: see pfmk_aux_crash_copy(). */
	kfree_rcu(aux, rcu);
}

/* What a set-up says: the AUX PMD, the buffer's size and flags. */
static void pfmk_aux_describe(struct pfmk_aux *aux, unsigned int pmd,
			      size_t size, unsigned int flags)
{
	aux->pmd = pmd;
	aux->buf.size = size;
	aux->buf.flags = flags;
}

/* A new set-up, filled in before it is published. */
static int pfmk_aux_create(struct pfmk_ctx *ctx, unsigned int pmd,
			   size_t size, unsigned int flags)
{
	struct pfmk_aux *aux;

	aux = pfmk_kzalloc_obj(*aux, GFP_KERNEL);
	if (!aux)
		return -ENOMEM;
	if (!pfmk_aux_charge(size)) {
		kfree(aux);
		return -ENOMEM;
	}
	pfmk_aux_describe(aux, pmd, size, flags);
	aux->buf.lock = &ctx->mutex;
	/* The crash path reads it without ctx->mutex: pfmk_aux_crash_copy(). */
	rcu_assign_pointer(ctx->aux, aux);
	return 0;
}

/**
 * pfmk_ctx_aux_setup() - set up, replace or remove a context's AUX PMD
 * @ctx: the context, locked.
 * @pmd: as for pfmk_aux_setup().
 * @size: as for pfmk_aux_setup(), checked by the caller.
 * @flags: as for pfmk_aux_setup(), checked by the caller.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0; -EINVAL for a PMD the description does not have;
 * -EOPNOTSUPP without the kernel patch; -EBUSY if the context is loaded;
 * -ENOMEM at the max_smpl_mem limit or out of memory.
 */
int pfmk_ctx_aux_setup(struct pfmk_ctx *ctx, unsigned int pmd, size_t size,
		       unsigned int flags)
{
	struct pfmk_aux *aux;

	lockdep_assert_held(&ctx->mutex);

	if (pmd >= ctx->pmu->num_pmcs)
		return -EINVAL;
	if (!pfmk_aux_buf_supported())
		return -EOPNOTSUPP;
	if (ctx->state != PFM_CTX_UNLOADED)
		return -EBUSY;
	if (!size) {
		pfmk_aux_free(ctx);
		return 0;
	}
	aux = pfmk_ctx_aux(ctx);
	if (!aux)
		return pfmk_aux_create(ctx, pmd, size, flags);
	if (size > aux->buf.size) {
		/* Only the growth is charged: the set-up is replaced. */
		if (!pfmk_charge_long(&pfmk_counters.smpl_bytes,
				      size - aux->buf.size,
				      READ_ONCE(pfmk_max_smpl_mem)))
			return -ENOMEM;
		atomic_long_add(size - aux->buf.size,
				&pfmk_counters.mem_bytes);
	} else {
		atomic_long_sub(aux->buf.size - size,
				&pfmk_counters.smpl_bytes);
		atomic_long_sub(aux->buf.size - size,
				&pfmk_counters.mem_bytes);
	}
	/*
	 * Changed in place: unloaded, it owns no buffer (buf.event is NULL),
	 * and buf.event is all the crash path reads of it.
	 */
	pfmk_aux_describe(aux, pmd, size, flags);
	return 0;
}
