// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk contexts: creation, the state machine and teardown.
 *
 * States (ctx->state, plus ctx->started while loaded):
 *
 *   UNLOADED --load--> LOADED(stopped) --start--> LOADED(started)
 *      ^                   |    ^                     |
 *      +------unload-------+    +--------stop---------+
 *      ^                                              |
 *      +-------------------unload---------------------+
 *
 * close is legal in every state and goes through unload.  MASKED is
 * entered by the sampling path and left by restart.  Every call that is
 * illegal in the current state fails with the errno the table in
 * Documentation/state-machine.rst gives; the state is then unchanged.
 *
 * The pfmk_ctx_*() calls on a context expect ctx->mutex held (the kapi/
 * layer takes it) and assert it; creation, the context caches and
 * pfmk_ctx_free() run before a context can be locked, or after.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait_bit.h>

#include "internal.h"
#include "perf.h"
#include "trace.h"

/*
 * Contexts come from caches of their own, one per size class of PMU
 * description: set 0's registers are allocated with the context, so the
 * object's size is the description's.  Descriptions with more registers
 * than the last class use kzalloc().
 *
 * The caches are SLAB_TYPESAFE_BY_RCU, as those of other objects RCU
 * readers look up (sighand_struct, anon_vma, struct file): a closed
 * context goes back to its cache at once, not one grace period later, so
 * a run of creates and closes reuses warm objects instead of taking a new
 * slab every few contexts (the kmalloc() size the first class falls in
 * holds 8 objects a slab).  The price is that a lookup under RCU may find
 * a context freed and reused; the fields of the type-stable group of
 * struct pfmk_ctx are set up once per object by the constructor, never
 * cleared, and every lockless user checks pfmk_ctx_is() once it has
 * pinned the memory.
 *
 * Set 0's registers are not cleared by a create either: the constructor
 * cleans the PMDs of the whole class, and each close those its context
 * may have changed (pfmk_sets_free()), so that a context of a description
 * of 64 PMDs, of which a client uses one, costs one PMD at create and
 * close, not 64.
 */
#define PFMK_CTX_MIN_REGS	8
#define PFMK_CTX_CACHES		4	/* up to 8, 16, 32 and 64 registers */

static struct kmem_cache *pfmk_ctx_cache[PFMK_CTX_CACHES];
static const char *const pfmk_ctx_cache_name[PFMK_CTX_CACHES] = {
	"pfmk_ctx_8", "pfmk_ctx_16", "pfmk_ctx_32", "pfmk_ctx_64",
};

static unsigned int pfmk_ctx_class(unsigned int nregs)
{
	return order_base_2(max(nregs, PFMK_CTX_MIN_REGS)) -
	       ilog2(PFMK_CTX_MIN_REGS);
}

static size_t pfmk_ctx_size(unsigned int nregs)
{
	return sizeof(struct pfmk_ctx) + pfmk_set_regs_size(nregs);
}

/*
 * The type-stable fields, and set 0's PMDs, clean: once per object, never
 * again (a close leaves the PMDs it changed clean, pfmk_sets_free()).
 */
static void pfmk_ctx_ctor(struct pfmk_ctx *ctx, unsigned int class,
			  unsigned int nregs)
{
	mutex_init(&ctx->mutex);
	seqcount_init(&ctx->state_seq);
	refcount_set(&ctx->ref, 0);
	ctx->cookie = 0;
	ctx->dead = true;
	ctx->cache_class = class;
	atomic_set(&ctx->read_passes, 0);
	pfmk_set_clean(ctx, ctx->set0_regs, nregs);
	/* Set 0's PMC values, after the PMDs (pfmk_sets_init()). */
	memset((struct pfmk_pmd *)ctx->set0_regs + nregs, 0, nregs * sizeof(u64));
}

static void pfmk_ctx_ctor_8(void *obj)
{
	pfmk_ctx_ctor(obj, 0, PFMK_CTX_MIN_REGS);
}

static void pfmk_ctx_ctor_16(void *obj)
{
	pfmk_ctx_ctor(obj, 1, PFMK_CTX_MIN_REGS << 1);
}

static void pfmk_ctx_ctor_32(void *obj)
{
	pfmk_ctx_ctor(obj, 2, PFMK_CTX_MIN_REGS << 2);
}

static void pfmk_ctx_ctor_64(void *obj)
{
	pfmk_ctx_ctor(obj, 3, PFMK_CTX_MIN_REGS << 3);
}

static void (*const pfmk_ctx_ctors[PFMK_CTX_CACHES])(void *) = {
	pfmk_ctx_ctor_8, pfmk_ctx_ctor_16, pfmk_ctx_ctor_32, pfmk_ctx_ctor_64,
};

/**
 * pfmk_set0_room() - PMDs of room in set 0's registers
 * @ctx: the context.
 *
 * Those of its size class, or @ctx->nregs beyond the classes; set 0's
 * PMC values follow them (pfmk_sets_init()).
 *
 * Context: any context.
 * Return: the number of PMDs.
 */
unsigned int pfmk_set0_room(const struct pfmk_ctx *ctx)
{
	if (ctx->cache_class < PFMK_CTX_CACHES)
		return PFMK_CTX_MIN_REGS << ctx->cache_class;
	return ctx->nregs;
}

/**
 * pfmk_ctx_cache_init() - create the context caches
 *
 * Context: process context, at module load; may sleep.
 * Return: 0 or -ENOMEM.
 */
int pfmk_ctx_cache_init(void)
{
	unsigned int i;

	for (i = 0; i < PFMK_CTX_CACHES; i++) {
		pfmk_ctx_cache[i] =
			kmem_cache_create(pfmk_ctx_cache_name[i],
					  pfmk_ctx_size(PFMK_CTX_MIN_REGS << i),
					  __alignof__(struct pfmk_ctx),
					  SLAB_HWCACHE_ALIGN |
					  SLAB_TYPESAFE_BY_RCU, pfmk_ctx_ctors[i]);
		if (!pfmk_ctx_cache[i]) {
			pfmk_ctx_cache_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * pfmk_ctx_cache_exit() - destroy the context caches
 *
 * Every context must be freed: the caller has waited for the pending
 * pfmk_ctx_free() callbacks (rcu_barrier()).
 *
 * Context: process context, at module unload; may sleep.
 */
void pfmk_ctx_cache_exit(void)
{
	unsigned int i;

	for (i = 0; i < PFMK_CTX_CACHES; i++) {
		kmem_cache_destroy(pfmk_ctx_cache[i]);
		pfmk_ctx_cache[i] = NULL;
	}
}

/*
 * A context with room for set 0's registers, cleared up to its message
 * ring but for the type-stable fields, which hold the constructor's values
 * or those the last context left: dead, no reference, an old cookie, the
 * mutex unlocked (a call takes it only with a reference,
 * pfmk_desc_lock()).  Set 0's PMDs are clean (pfmk_set_clean()), its PMC
 * values 0; the message ring, the set switching and the hotplug fields
 * hold what they held, for the create to set up.
 */
static struct pfmk_ctx *pfmk_ctx_alloc(unsigned int nregs)
{
	unsigned int class = pfmk_ctx_class(nregs);
	size_t from = offsetof(struct pfmk_ctx, id);
	size_t ring = offsetof(struct pfmk_ctx, msgq.msgs);
	struct pfmk_ctx *ctx;

	/* The type-stable group comes first, up to @id. */
	BUILD_BUG_ON(offsetof(struct pfmk_ctx, read_passes) >= from);
	/*
	 * The ring's slots end the message ring, and the set switching
	 * fields come right after it: no field lies between the cleared
	 * ones and those pfmk_sets_init() and pfmk_hotplug_init_ctx() set.
	 */
	BUILD_BUG_ON(offsetofend(struct pfmk_ctx, msgq.msgs) !=
		     offsetofend(struct pfmk_ctx, msgq));
	BUILD_BUG_ON(ALIGN(offsetofend(struct pfmk_ctx, msgq),
			   __alignof__(struct hrtimer)) !=
		     offsetof(struct pfmk_ctx, switch_timer));

	if (class >= PFMK_CTX_CACHES) {
		ctx = kzalloc(pfmk_ctx_size(nregs), GFP_KERNEL);
		if (ctx)
			pfmk_ctx_ctor(ctx, PFMK_CTX_CACHES, nregs);
		return ctx;
	}
	ctx = kmem_cache_alloc(pfmk_ctx_cache[class], GFP_KERNEL);
	if (!ctx)
		return NULL;
	/*
	 * Nor the message ring: pfmk_msgq_init() empties it, and a message
	 * is read only after it was queued.  Nor what follows it, the set
	 * switching and hotplug fields: pfmk_sets_init() and
	 * pfmk_hotplug_init_ctx() set each of them up, and the switch timer
	 * is set up before its first use (switch_timer_ready).
	 */
	memset((char *)ctx + from, 0, ring - from);
	return ctx;
}

static void pfmk_ctx_free_rcu(struct rcu_head *rcu)
{
	kfree(container_of(rcu, struct pfmk_ctx, rcu));
}

/**
 * pfmk_ctx_free() - give a context's memory back
 * @ctx: the context, whose last reference was just dropped.
 *
 * Lockless users that found the context before its descriptor was
 * unpublished may still look at it: a context of a size class goes back
 * to its type-stable cache now, a larger one is freed after an RCU grace
 * period.
 *
 * Context: any context but NMI.
 */
void pfmk_ctx_free(struct pfmk_ctx *ctx)
{
	unsigned int class = ctx->cache_class;

	if (class < PFMK_CTX_CACHES)
		kmem_cache_free(pfmk_ctx_cache[class], ctx);
	else
		call_rcu(&ctx->rcu, pfmk_ctx_free_rcu);
}

/*
 * Does a PMU name of PFMK_PMU_NAME_LEN bytes hold a NUL?  A word at a
 * time: (w - 0x01..) & ~w & 0x80.. is not 0 exactly when a byte of w is 0.
 */
static bool pfmk_name_terminated(const char *name)
{
	const u64 ones = 0x0101010101010101ULL;
	unsigned int i;
	u64 w;

	BUILD_BUG_ON(PFMK_PMU_NAME_LEN % sizeof(w));
	for (i = 0; i < PFMK_PMU_NAME_LEN; i += sizeof(w)) {
		memcpy(&w, name + i, sizeof(w));
		if ((w - ones) & ~w & (ones << 7))
			return true;
	}
	return false;
}

/* The arguments of pfmk_ctx_create(): -EINVAL unless all are usable. */
static int pfmk_ctx_check_args(const struct pfarg_ctx *req,
			       const struct completion *c, void **desc)
{
	if (!req || !c || !desc)
		return -EINVAL;
	if (!(req->ctx_flags & PFM_FL_SYSTEM_WIDE))
		return -EINVAL;
	if (req->ctx_flags & ~PFMK_CTX_FLAGS)
		return -EINVAL;
	BUILD_BUG_ON(sizeof(req->ctx_pmu_name) != PFMK_PMU_NAME_LEN);
	if (!pfmk_name_terminated(req->ctx_pmu_name))
		return -EINVAL;
	return 0;
}

/**
 * pfmk_completion_blank() - is a completion all zero bytes?
 * @c: a completion a client passed to pfmk_create_context().
 *
 * 2006 clients passed a static completion they never initialised
 * (SystemTap's runtime did): complete() on it would follow a NULL wait
 * list.  No exported function tells whether a completion was
 * initialised, and the fields that would tell are the scheduler's.  This
 * looks at no field: a completion that has a waiter (a list entry) or a
 * count of completions is never all zero, so init_completion() on an
 * all-zero one loses nothing, whatever the layout; an initialised
 * completion is not all zero either (its empty wait list points to
 * itself).  pfmk_glue's cases (test-modules/pfmk_kunit_glue.c) fail if
 * this changes: glue_completion_zero (an all-zero completion is
 * initialised), glue_completion_done_kept (a count of completions is
 * kept) and glue_completion_waiter_kept (a waiter is kept).
 *
 * The read races with writers on purpose: another CPU may complete or
 * wait on @c meanwhile, if an initialised @c is shared with a live
 * context (its irq_work completes it, its owner waits on it).  Such
 * writes take the completion's own lock, which this cannot take without
 * knowing the completion was initialised, and none makes @c all zero:
 * its wait list head always holds kernel addresses (itself or a waiter),
 * whose upper address bits are all ones in any value a torn read may mix.
 * An all-zero @c has no writer but its creators, which serialise on
 * pfmk_completion_lock.  Hence data_race(): a racy read gives the same
 * answer.
 *
 * Context: any context.
 * Return: true if @c is all zero bytes (never initialised).
 */
static bool pfmk_completion_blank(const struct completion *c)
{
	const unsigned long *w = (const unsigned long *)c;
	unsigned long any = 0;
	unsigned int i;

	/* Word by word, inline: it holds pointers, so it is word aligned. */
	BUILD_BUG_ON(sizeof(*c) % sizeof(*w));
	for (i = 0; i < sizeof(*c) / sizeof(*w); i++)
		/* Racy on purpose: no concurrent write makes it all zero. */
		any |= data_race(w[i]);
	return !any;
}

/* Serialises pfmk_completion_prepare()'s check with its initialisation. */
static DEFINE_SPINLOCK(pfmk_completion_lock);

/*
 * Initialise a completion a 2006 client left all zero
 * (pfmk_completion_blank() says why that is safe).  A completion may be
 * shared by contexts created at once: under the lock, the second creator
 * finds it initialised, and no owner can wait on it before the first
 * creator's initialisation is done.
 */
static void pfmk_completion_prepare(struct completion *c)
{
	spin_lock(&pfmk_completion_lock);
	if (pfmk_completion_blank(c))
		init_completion(c);
	spin_unlock(&pfmk_completion_lock);
}

/**
 * pfmk_ctx_new() - a new context of a description, not yet published
 * @pmu: the description, pinned by the caller (the context keeps the pin).
 * @req: context description, checked.
 * @c: the owner's completion, prepared.
 * @owner: the calling module, or NULL for built-in code.
 *
 * The context has its creation reference and cookie, set 0 and no
 * sampling format; it is still dead, so that no lookup can use it before
 * pfmk_ctx_publish().  Undo with pfmk_ctx_discard().
 *
 * Context: process context; may sleep.
 * Return: the context, or NULL if out of memory.
 */
static struct pfmk_ctx *pfmk_ctx_new(const struct pfmk_pmu_desc *pmu,
				     const struct pfarg_ctx *req,
				     struct completion *c, struct module *owner)
{
	/* One allocation: the context and set 0's registers. */
	struct pfmk_ctx *ctx = pfmk_ctx_alloc(pmu->num_pmcs);

	if (!ctx)
		return NULL;
	ctx->nregs = pmu->num_pmcs;
	pfmk_desc_prepare(ctx);
	ctx->state = PFM_CTX_UNLOADED;
	ctx->cpu = -1;
	ctx->flags = req->ctx_flags;
	ctx->completion = c;
	atomic_set(&ctx->readers, 0);
	ctx->pmu = pmu;
	pfmk_msgq_init(&ctx->msgq);
	local_set(&ctx->ovfl_busy, 0);
	seqcount_init(&ctx->ovfl_seq);
	init_irq_work(&ctx->irq_work, pfmk_ovfl_work);
	atomic_set(&ctx->notify_wake, 0);
	atomic_set(&ctx->switch_kick, 0);
	atomic64_set(&ctx->ovfl_nested, 0);
	atomic64_set(&ctx->throttled, 0);
	ctx->owner = owner;
	pfmk_hotplug_init_ctx(ctx);
	pfmk_sets_init(ctx);
	return ctx;
}

/*
 * Undo pfmk_ctx_new() (its sampling format already freed).  A lookup that
 * found this memory before it was reused may hold a reference for an
 * instant: the last one frees, without counting a context freed
 * (->counted clear).
 */
static void pfmk_ctx_discard(struct pfmk_ctx *ctx)
{
	pfmk_sets_free(ctx);
	pfmk_desc_put(ctx);
}

/* Count a context in the module's reference and pfmk's counters. */
static void pfmk_ctx_count(struct pfmk_ctx *ctx, bool on)
{
	if (on) {
		ctx->counted = true;
		__module_get(THIS_MODULE);
		atomic_long_add(ctx->mem, &pfmk_counters.mem_bytes);
		atomic64_inc(&pfmk_counters.created);
		return;
	}
	atomic64_dec(&pfmk_counters.created);
	atomic_long_sub(ctx->mem, &pfmk_counters.mem_bytes);
	ctx->counted = false;
	module_put(THIS_MODULE);
}

/**
 * pfmk_ctx_publish() - count a new context and give it its descriptor
 * @ctx: the context, set up (pfmk_ctx_new(), pfmk_smpl_setup()).
 * @req: output: ctx_fd and ctx_smpl_buf_size.
 * @desc: output: descriptor.
 * @buf: output, optional: sampling buffer address.
 *
 * What the caller needs of the context is read before it is published:
 * from then on a racing pfmk_close() of the descriptor may free it, and a
 * create reuse the memory.
 *
 * Context: process context; may sleep.
 * Return: 0, or the error of pfmk_desc_alloc(); on error the context is
 * uncounted and its sampling format freed, the rest is the caller's.
 */
static int pfmk_ctx_publish(struct pfmk_ctx *ctx, struct pfarg_ctx *req,
			    void **desc, void **buf)
{
	void *smpl_buf = ctx->smpl_buf;
	size_t smpl_buf_size = ctx->smpl_size;
	int ret;

	ctx->mem = sizeof(*ctx) + ctx->smpl_size +
		   ctx->nregs * (sizeof(u64) + sizeof(struct pfmk_pmd) +
				 (ctx->fmt ? sizeof(u64) : 0));
	pfmk_ctx_count(ctx, true);
	ret = pfmk_desc_alloc(ctx, desc);
	if (ret) {
		pfmk_ctx_count(ctx, false);
		pfmk_smpl_free(ctx);
		return ret;
	}
	req->ctx_fd = -1;
	req->ctx_smpl_buf_size = smpl_buf_size;
	if (buf)
		*buf = smpl_buf;
	return 0;
}

/**
 * pfmk_ctx_create() - create a context (see pfmk_create_context())
 * @req: context description.
 * @smpl_arg: sampling format argument.
 * @smpl_size: size of @smpl_arg.
 * @c: the owner's completion.
 * @desc: output: descriptor.
 * @buf: output, optional: sampling buffer address.
 * @owner: the calling module, or NULL for built-in code.
 *
 * Each open context holds a reference on pfmk's module and counts against
 * the max_contexts limit until it is closed.
 *
 * Context: process context; may sleep.
 * Return: 0 or a negative errno; nothing is left allocated on error.
 */
int pfmk_ctx_create(struct pfarg_ctx *req, void *smpl_arg, size_t smpl_size,
		    struct completion *c, void **desc, void **buf,
		    struct module *owner)
{
	const struct pfmk_pmu_desc *pmu;
	struct pfmk_ctx *ctx;
	int ret;

	ret = pfmk_ctx_check_args(req, c, desc);
	if (ret)
		return ret;
	if (!pfmk_charge(&pfmk_counters.open, READ_ONCE(pfmk_max_contexts)))
		return -ENOMEM;
	pfmk_completion_prepare(c);

	pmu = pfmk_pmu_get(req->ctx_pmu_name[0] ? req->ctx_pmu_name : NULL);
	if (IS_ERR(pmu)) {
		ret = PTR_ERR(pmu);
		goto err_open;
	}
	ctx = pfmk_ctx_new(pmu, req, c, owner);
	if (!ctx) {
		ret = -ENOMEM;
		goto err_pmu;
	}
	ret = pfmk_smpl_setup(ctx, req, smpl_arg, smpl_size);
	if (!ret)
		ret = pfmk_ctx_publish(ctx, req, desc, buf);
	if (ret)
		goto err_ctx;
	return 0;

err_ctx:
	pfmk_ctx_discard(ctx);
err_pmu:
	pfmk_pmu_put(pmu);
err_open:
	atomic_dec(&pfmk_counters.open);
	return ret;
}

/**
 * pfmk_ctx_notify() - queue a message for the owner and wake it
 * @ctx: the context.
 * @msg: the message, copied.
 *
 * A full queue drops the message (counted in msgs_dropped); the owner is
 * woken either way.  The overflow path queues its messages through
 * ctx->irq_work instead (pfmk_ovfl_work()).
 *
 * Context: process context; ctx->mutex held.
 */
void pfmk_ctx_notify(struct pfmk_ctx *ctx, const union pfm_msg *msg)
{
	bool queued;

	lockdep_assert_held(&ctx->mutex);
	queued = pfmk_msgq_push(&ctx->msgq, msg);

	trace_pfmk_msg(pfmk_desc_of(ctx), msg->type, queued);
	complete(ctx->completion);
}

static void pfmk_trace_state(struct pfmk_ctx *ctx, unsigned int op)
{
	/* The state is worked out only for a tracer. */
	if (trace_pfmk_state_enabled())
		trace_pfmk_state(pfmk_desc_of(ctx), ctx->cpu, op,
				 pfmk_ctx_state(ctx));
}

/**
 * pfmk_ctx_load() - attach a context to a CPU (see pfmk_load_context())
 * @ctx: the context, locked.
 * @req: load arguments.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0 or a negative errno; the context stays unloaded on error.
 */
int pfmk_ctx_load(struct pfmk_ctx *ctx, const struct pfarg_load *req)
{
	struct pfmk_set *set;
	unsigned int cpu;
	int ret;

	lockdep_assert_held(&ctx->mutex);

	if (!req)
		return -EINVAL;
	cpu = req->load_pid;
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	set = pfmk_set_find(ctx, req->load_set);
	if (!set)
		return -EINVAL;
	if (ctx->state != PFM_CTX_UNLOADED)
		return -EBUSY;
	if (!cpu_online(cpu))
		return -ENODEV;

	/*
	 * Listen to hotplug before creating events; attaching checks the CPU
	 * (-ENODEV): a CPU going away from then on is seen by core/hotplug.c.
	 */
	WRITE_ONCE(ctx->cpu, cpu);
	ret = pfmk_hotplug_attach(ctx);
	if (ret)
		goto err_cpu;
	rcu_assign_pointer(ctx->active_set, set);
	ret = pfmk_sets_load(ctx);
	if (ret)
		goto err_detach;
	/* pfmk AUX: attach the AUX PMD's buffer (core/aux.c) */
	ret = pfmk_aux_load(ctx);
	if (ret) {
		pfmk_sets_unload(ctx);
		goto err_detach;
	}
	ctx->state = PFM_CTX_LOADED;
	ctx->started = false;
	pfmk_trace_state(ctx, PFMK_TR_LOAD);
	return 0;

err_detach:
	pfmk_hotplug_detach(ctx);
err_cpu:
	rcu_assign_pointer(ctx->active_set, &ctx->set0);
	WRITE_ONCE(ctx->cpu, -1);
	return ret;
}

/**
 * pfmk_ctx_unload() - detach a context from its CPU
 * @ctx: the context, locked.
 *
 * Stops monitoring if it runs and folds the perf counts into the PMDs.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0, or -ENOTCONN if the context is not loaded.
 */
int pfmk_ctx_unload(struct pfmk_ctx *ctx)
{
	struct pfmk_set *set;
	unsigned int i;

	lockdep_assert_held(&ctx->mutex);

	if (ctx->state == PFM_CTX_UNLOADED)
		return -ENOTCONN;
	if (ctx->started)
		pfmk_ctx_stop(ctx);
	pfmk_hotplug_detach(ctx);
	pfmk_aux_unload(ctx);	/* pfmk AUX: free the AUX buffer */
	pfmk_sets_unload(ctx);
	/*
	 * The last stop waited for a software event's handler already.
	 * Waiting again costs such contexts one grace period per unload
	 * and keeps the rule local: no handler runs when the caller frees
	 * the buffer it writes or the completion its irq_work takes.
	 */
	pfmk_ctx_sync_handlers(ctx);
	ctx->ovfl_irqs_on = false;
	/* No handler can run any more; let a queued notification finish. */
	irq_work_sync(&ctx->irq_work);
	/*
	 * Unloading ends a notification: nothing is left to restart.  Only
	 * a masked context has PMDs waiting for their reset (the overflow
	 * path masks before it leaves one unreset).
	 */
	if (READ_ONCE(ctx->masked))
		list_for_each_entry(set, &ctx->sets, list)
			for (i = 0; i < ctx->pmu->num_pmcs; i++)
				set->pmds[i].reset_pending = false;
	WRITE_ONCE(ctx->masked, false);
	atomic_set(&ctx->switch_req, 0);
	rcu_assign_pointer(ctx->active_set, &ctx->set0);
	WRITE_ONCE(ctx->cpu, -1);
	ctx->state = PFM_CTX_UNLOADED;
	pfmk_trace_state(ctx, PFMK_TR_UNLOAD);
	return 0;
}

/**
 * pfmk_ctx_start() - start monitoring (see pfmk_start())
 * @ctx: the context, locked.
 * @req: optional start arguments: start_set is the set to start with.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0 or a negative errno.
 */
int pfmk_ctx_start(struct pfmk_ctx *ctx, const struct pfarg_start *req)
{
	struct pfmk_set *set = pfmk_ctx_active_set(ctx);

	lockdep_assert_held(&ctx->mutex);

	if (req) {
		set = pfmk_set_find(ctx, req->start_set);
		if (!set)
			return -EINVAL;
	}
	if (ctx->state == PFM_CTX_UNLOADED)
		return -ENOTCONN;
	if (ctx->started)
		return -EALREADY;

	pfmk_set_activate(ctx, set);
	ctx->started = true;
	pfmk_trace_state(ctx, PFMK_TR_START);
	return 0;
}

/**
 * pfmk_ctx_stop() - stop monitoring (see pfmk_stop())
 * @ctx: the context, locked.
 *
 * A set switch that was due and not done yet is dropped.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0, -ENOTCONN if unloaded, -EALREADY if not started.
 */
int pfmk_ctx_stop(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);

	if (ctx->state == PFM_CTX_UNLOADED)
		return -ENOTCONN;
	if (!ctx->started)
		return -EALREADY;

	pfmk_set_deactivate(ctx);
	/*
	 * No handler runs now; a switch an overflow asked for just before
	 * may still sit in the irq_work: let it land, then drop it, so that
	 * a quick start does not switch at once.  irq_work_sync() waits
	 * while the work is busy: test that here, without the call.  (On
	 * PREEMPT_RT it also waits for a grace period after the work, for
	 * callers that free it; stop frees nothing, unload syncs in full.)
	 * A switch requested anyway finds the context stopped.  Only the
	 * check of might_sleep(), without its preemption point: the calls
	 * that lead here (pfmk_stop(), unload, close, reclaim) are short
	 * under ctx->mutex.
	 */
	__might_sleep(__FILE__, __LINE__);
	if (irq_work_is_busy(&ctx->irq_work))
		irq_work_sync(&ctx->irq_work);
	atomic_set(&ctx->switch_kick, 0);
	atomic_set(&ctx->switch_req, 0);
	ctx->started = false;
	pfmk_trace_state(ctx, PFMK_TR_STOP);
	return 0;
}

/**
 * pfmk_ctx_restart() - resume monitoring after an overflow notification
 * @ctx: the context, locked.
 *
 * Pauses the context's events, reloads the PMDs that notified with their
 * long reset value, empties the sampling buffer, unmasks, and resumes; then
 * does the event set switch that came due while masked, if any.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0, -ENOTCONN if unloaded, -EBUSY if not masked.
 */
int pfmk_ctx_restart(struct pfmk_ctx *ctx)
{
	struct pfmk_set *set = pfmk_ctx_active_set(ctx), *rset;
	unsigned int i, n = ctx->pmu->num_pmcs;

	lockdep_assert_held(&ctx->mutex);

	if (ctx->state == PFM_CTX_UNLOADED)
		return -ENOTCONN;
	if (!READ_ONCE(ctx->masked))
		return -EBUSY;

	/* From here on no handler and no irq_work of ours runs. */
	if (ctx->started) {
		pfmk_perf_disable_set(set, n);
		pfmk_ctx_sync_handlers(ctx);
	}
	irq_work_sync(&ctx->irq_work);

	/* Every set: a PMD left unreset never stays behind in another. */
	list_for_each_entry(rset, &ctx->sets, list) {
		for (i = 0; i < n; i++) {
			struct pfmk_pmd *pmd = &rset->pmds[i];
			u64 val;

			if (!pmd->reset_pending)
				continue;
			pmd->reset_pending = false;
			pfmk_perf_sync(pmd);
			val = pfmk_pmd_reset_value(pmd, true);
			pfmk_ctx_write_begin(ctx);
			pmd->value = val;
			pmd->last_reset_val = val;
			pfmk_ctx_write_end(ctx);
			pfmk_perf_set_period(pmd, val);
		}
	}
	if (ctx->fmt)
		ctx->fmt->restart(ctx->smpl_buf, ctx->smpl_priv);
	ctx->stats.restarts++;
	/* The buffer is empty before the handler can see the unmask. */
	smp_store_release(&ctx->masked, false);

	if (ctx->started)
		pfmk_perf_enable_set(set, n);
	pfmk_trace_state(ctx, PFMK_TR_RESTART);
	/* A set switch that came due while masked happens now. */
	pfmk_set_switch_pending(ctx);
	return 0;
}

/**
 * pfmk_ctx_state() - state of a context for pfmk_get_state()
 * @ctx: the context, locked.
 *
 * Context: ctx->mutex held.
 * Return: PFM_CTX_* state, OR'ed with PFMK_STATE_STARTED if started.
 */
int pfmk_ctx_state(struct pfmk_ctx *ctx)
{
	int state = ctx->state;

	lockdep_assert_held(&ctx->mutex);

	if (state == PFM_CTX_LOADED && READ_ONCE(ctx->masked))
		state = PFM_CTX_MASKED;
	if (ctx->offline)
		state |= PFMK_STATE_OFFLINE;
	if (READ_ONCE(ctx->frozen))
		state |= PFMK_STATE_FROZEN;
	return state | (ctx->started ? PFMK_STATE_STARTED : 0);
}

/**
 * pfmk_ctx_close() - tear a context down (see pfmk_close())
 * @ctx: the context, locked; the caller still unlocks and puts it.
 *
 * Unpublishes the descriptor and marks the context dead, unloads it (its
 * counts are not folded: nothing can read them), wakes the pfmk_read()
 * callers waiting on it (they return -EBADF), frees everything it owns
 * and drops the creation reference.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_ctx_close(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);

	/* Off the crash list first: the crash path reads what goes below. */
	pfmk_crash_close(ctx);

	/*
	 * Dead before the unload: lookups fail from here on, lockless
	 * readers see ->dead (-EBADF), and the unload does not fold counts
	 * that nobody can read any more.  No mutex_destroy(): the mutex
	 * is type-stable, set up once by the cache's constructor, and the
	 * next context in this memory uses it as it is.
	 */
	pfmk_desc_free(ctx);
	pfmk_ctx_write_begin(ctx);
	WRITE_ONCE(ctx->dead, true);
	pfmk_ctx_write_end(ctx);
	/*
	 * A lockless read pass that entered before ->dead was set may still
	 * be looking at the registers and events; one that enters now sees
	 * ->dead.  They are short, with interrupts off: wait for them, so
	 * that none is inside when the memory is reused.  Order ->dead
	 * before ->read_passes; pairs with pfmk_read_pmds_here().
	 */
	smp_mb();
	atomic_cond_read_acquire(&ctx->read_passes, !VAL);
	if (ctx->state != PFM_CTX_UNLOADED)
		pfmk_ctx_unload(ctx);
	pfmk_trace_state(ctx, PFMK_TR_CLOSE);
	/* Order ->dead before ->readers; pairs with pfmk_msgq_read(). */
	smp_mb();
	/*
	 * The completion may be shared: complete() wakes its oldest waiter,
	 * maybe not one of ours.  Complete until our readers are gone; the
	 * others see a wake-up without a message, which sharing allows.
	 */
	while (atomic_read(&ctx->readers) > 0) {
		complete(ctx->completion);
		wait_var_event_timeout(&ctx->readers,
				       !atomic_read(&ctx->readers), HZ / 100);
	}

	/*
	 * Unloaded and dead: no handler, irq_work or work can queue a
	 * message any more, so an empty queue needs no flush.
	 */
	if (READ_ONCE(ctx->msgq.count))
		pfmk_msgq_flush(&ctx->msgq);
	pfmk_smpl_free(ctx);
	pfmk_aux_free(ctx);	/* pfmk AUX: the set-up */
	pfmk_sets_free(ctx);
	pfmk_pmu_put(ctx->pmu);
	ctx->pmu = NULL;
	atomic_long_sub(ctx->mem, &pfmk_counters.mem_bytes);
	atomic_dec(&pfmk_counters.open);
	pfmk_desc_put(ctx);
	module_put(THIS_MODULE);
}
