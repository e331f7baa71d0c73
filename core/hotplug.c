// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk CPU hotplug: loaded contexts survive their CPU going away.
 *
 * perfmon2 unloaded a system-wide context whose CPU went offline; perf
 * detaches the CPU's events and leaves them dead.  pfmk keeps the context
 * loaded: when its CPU goes offline the PMD values are saved (the events'
 * final counts folded in) and the events released; the owner gets a
 * PFMK_MSG_CPU_OFFLINE message and pfmk_get_state() shows
 * PFMK_STATE_OFFLINE.  When the CPU comes back the events are created
 * again from the saved values, enabled if the context was started, and
 * the owner gets PFMK_MSG_CPU_ONLINE.  Counting and sampling go on from
 * where they were; the time the CPU was away is not counted.
 *
 * Every loaded context is on the list of its CPU (pfmk_hp_cpus), added by
 * pfmk_ctx_load() and removed by pfmk_ctx_unload(); one cpuhp state
 * (CPUHP_AP_ONLINE_DYN) walks the list of the CPU coming or going, as perf
 * walks its per-CPU contexts.  A cpuhp instance per context would take
 * the cpuhp state mutex and walk its instance list at every load and
 * close, for what a per-CPU list does under a spinlock.  The
 * list's spinlock orders a context's addition and removal with the
 * callbacks: once removed, no callback touches the context.  The addition
 * checks, under the same lock, the CPU's up flag, which the callbacks
 * flip: it never falls between the offline callback and the end of an
 * operation (below).  The callbacks run under cpu_hotplug_lock, where
 * neither ctx->mutex nor perf_event_release_kernel() (which may take
 * cpu_hotplug_lock for perf's static keys) is allowed; so they only
 * record what happened and queue ctx->hp_work:
 *
 *   offline callback:  hp_gone = 1, hp_gen++     (before perf detaches)
 *   online callback:   hp_gone = 0               (after perf re-attaches)
 *
 * pfmk_hotplug_sync(), run by the work and at the start of every KAPI call
 * on the context (both under ctx->mutex), compares hp_gen with hp_done: a
 * difference means the events were (or are about to be) detached, so it
 * saves and releases them and reports OFFLINE.  It re-arms an offline
 * context once hp_gone is clear and the CPU is online.  An offline/online
 * pair that completes before the work runs is caught by the generation,
 * and gives both messages.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>

#include "internal.h"
#include "test_hooks.h"
#include "trace.h"

/**
 * struct pfmk_hp_cpu - the loaded contexts of one CPU
 * @lock: protects @up and @ctxs; taken in process context only, innermost.
 * @up: pfmk's online callback ran for this CPU, and its offline callback
 *	has not since.  Not cpu_online(): with CPU hotplug state control, a
 *	CPU can stop between the two, online, pfmk's callback run.
 * @ctxs: the contexts loaded on this CPU, by ctx->hp_entry.  An hlist: no
 *	callback needs the order, and its addition at every load and removal
 *	at every unload are not the out-of-line checked calls of a
 *	list_head's on CONFIG_DEBUG_LIST kernels (Debian's); lockdep kernels
 *	check instead that a context is added once (pfmk_hotplug_attach()).
 */
struct pfmk_hp_cpu {
	spinlock_t		lock;	/* protects @up and @ctxs */
	bool			up;
	struct hlist_head	ctxs;
};

static DEFINE_PER_CPU(struct pfmk_hp_cpu, pfmk_hp_cpus);
static enum cpuhp_state pfmk_hp_state;
static struct workqueue_struct *pfmk_hp_wq;

static void pfmk_hotplug_msg(struct pfmk_ctx *ctx, u32 type, int cycle)
{
	union pfm_msg msg = { };

	msg.pfmk_cpu_msg.msg_type = type;
	msg.pfmk_cpu_msg.msg_cpu = ctx->cpu;
	msg.pfmk_cpu_msg.msg_cycle = cycle;
	pfmk_ctx_notify(ctx, &msg);
}

/*
 * Save the PMD values and drop the events of a context losing its CPU;
 * @cycle is the hotplug generation being applied.
 */
static void pfmk_hotplug_suspend(struct pfmk_ctx *ctx, int cycle)
{
	/*
	 * Stop the active set as stop does: its switch timer and its active
	 * time end with its events; nothing switches while the CPU is away.
	 */
	if (ctx->started)
		pfmk_set_deactivate(ctx);
	pfmk_aux_unload(ctx);	/* pfmk AUX: the buffer goes with the event */
	pfmk_sets_unload(ctx);
	/* A notification raised before the CPU left is delivered first. */
	irq_work_sync(&ctx->irq_work);
	WRITE_ONCE(ctx->offline, true);
	atomic64_inc(&pfmk_counters.cpu_offline);
	trace_pfmk_hotplug(pfmk_desc_of(ctx), ctx->cpu, PFMK_TR_OFFLINE, 0);
	pfmk_hotplug_msg(ctx, PFMK_MSG_CPU_OFFLINE, cycle);
}

/* Create the events again from the saved values. */
static void pfmk_hotplug_rearm(struct pfmk_ctx *ctx)
{
	int ret;

	ret = pfmk_sets_load(ctx);
	/* pfmk AUX: a new buffer, its stream from 0 */
	if (!ret) {
		ret = pfmk_aux_load(ctx);
		if (ret)
			pfmk_sets_unload(ctx);
	}
	if (ret) {
		/* Stay offline; the next hotplug event or call retries. */
		atomic64_inc(&pfmk_counters.rearm_failed);
		trace_pfmk_hotplug(pfmk_desc_of(ctx), ctx->cpu,
				   PFMK_TR_REARM_FAILED, ret);
		pr_warn_ratelimited("context %#lx: cannot re-arm on CPU%d: %d\n",
				    pfmk_desc_of(ctx), ctx->cpu, ret);
		return;
	}
	atomic64_inc(&pfmk_counters.cpu_online);
	trace_pfmk_hotplug(pfmk_desc_of(ctx), ctx->cpu, PFMK_TR_REARM, 0);
	/*
	 * The message is queued before @offline is cleared: a pfmk_read()
	 * whose pfmk_hotplug_pending() sees nothing pending finds it (the
	 * caller's next calls wait for the mutex until the re-arm is done).
	 */
	pfmk_hotplug_msg(ctx, PFMK_MSG_CPU_ONLINE, ctx->hp_done);
	/* Release: pairs with the acquire in pfmk_hotplug_pending(). */
	smp_store_release(&ctx->offline, false);
	/* Counting, the active time and the switch timer resume together. */
	if (ctx->started)
		pfmk_set_resume(ctx);
	/* A switch that was due when the CPU left happens now. */
	pfmk_set_switch_pending(ctx);
}

/**
 * pfmk_hotplug_sync() - apply the CPU hotplug events seen for a context
 * @ctx: the context, locked.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_hotplug_sync(struct pfmk_ctx *ctx)
{
	int gen = atomic_read(&ctx->hp_gen);

	lockdep_assert_held(&ctx->mutex);

	if (ctx->state == PFM_CTX_UNLOADED || ctx->dead)
		return;
	if (gen != ctx->hp_done) {
		if (!ctx->offline)
			pfmk_hotplug_suspend(ctx, gen);
		/* After the message: see pfmk_hotplug_pending(). */
		smp_store_release(&ctx->hp_done, gen);
	}
	/* Pairs with the barrier before hp_gone is cleared by the callback. */
	if (ctx->offline && !atomic_read_acquire(&ctx->hp_gone) &&
	    cpu_online(ctx->cpu))
		pfmk_hotplug_rearm(ctx);
}

/**
 * pfmk_hotplug_sync_unlocked() - pfmk_hotplug_sync() for an unlocked context
 * @ctx: the context, referenced, not locked.
 *
 * Takes the context's mutex only if a hotplug event is pending, so that
 * pfmk_read() sees the messages of the events that came before it.
 *
 * Context: process context; may sleep.
 */
void pfmk_hotplug_sync_unlocked(struct pfmk_ctx *ctx)
{
	if (!pfmk_hotplug_pending(ctx))
		return;
	mutex_lock(&ctx->mutex);
	pfmk_hotplug_sync(ctx);
	mutex_unlock(&ctx->mutex);
}

static void pfmk_hotplug_work(struct work_struct *work)
{
	struct pfmk_ctx *ctx = container_of(work, struct pfmk_ctx, hp_work);

	mutex_lock(&ctx->mutex);
	pfmk_hotplug_sync(ctx);
	mutex_unlock(&ctx->mutex);
	pfmk_desc_put(ctx);
}

/**
 * pfmk_hotplug_queue() - have the hotplug work look at a context
 * @ctx: the context; the caller holds a reference, or the lock of the CPU
 *	list the context is on.
 *
 * The queued work holds a reference on @ctx.
 *
 * Context: any context but NMI.
 */
void pfmk_hotplug_queue(struct pfmk_ctx *ctx)
{
	refcount_inc(&ctx->ref);
	if (!queue_work(pfmk_hp_wq, &ctx->hp_work))
		pfmk_desc_put(ctx);
}

/*
 * A context is on @cpu's list only while it is loaded on @cpu, and stays
 * alive while it is on it (unload, before close, takes it off under the
 * lock): the reference the work takes is taken on a live context.
 */
static int pfmk_cpu_offline(unsigned int cpu)
{
	struct pfmk_hp_cpu *hc = per_cpu_ptr(&pfmk_hp_cpus, cpu);
	struct pfmk_ctx *ctx;

	spin_lock(&hc->lock);
	hc->up = false;
	hlist_for_each_entry(ctx, &hc->ctxs, hp_entry) {
		atomic_set(&ctx->hp_gone, 1);
		atomic_inc(&ctx->hp_gen);
		pfmk_hotplug_queue(ctx);
	}
	spin_unlock(&hc->lock);
	return 0;
}

static int pfmk_cpu_online(unsigned int cpu)
{
	struct pfmk_hp_cpu *hc = per_cpu_ptr(&pfmk_hp_cpus, cpu);
	struct pfmk_ctx *ctx;

	spin_lock(&hc->lock);
	hc->up = true;
	hlist_for_each_entry(ctx, &hc->ctxs, hp_entry) {
		atomic_set_release(&ctx->hp_gone, 0);
		pfmk_hotplug_queue(ctx);
	}
	spin_unlock(&hc->lock);
	return 0;
}

/**
 * pfmk_hotplug_init_ctx() - initialize a new context's hotplug state
 * @ctx: the context being created.
 *
 * Context: any context.
 */
void pfmk_hotplug_init_ctx(struct pfmk_ctx *ctx)
{
	INIT_HLIST_NODE(&ctx->hp_entry);
	INIT_WORK(&ctx->hp_work, pfmk_hotplug_work);
	atomic_set(&ctx->hp_gone, 0);
	atomic_set(&ctx->hp_gen, 0);
	WRITE_ONCE(ctx->hp_done, 0);
	WRITE_ONCE(ctx->offline, false);
}

/**
 * pfmk_hotplug_attach() - watch the CPU of a context being loaded
 * @ctx: the context, locked, ctx->cpu set, no events yet.
 *
 * Under the list's lock, which pfmk's callbacks take: either pfmk's
 * offline callback for ctx->cpu already ran (the CPU is leaving or gone:
 * -ENODEV, until its online callback runs), or it will find the context.
 * Without the check, the context could join the list after the offline
 * callback ran and before perf detached the CPU's events, and lose its
 * events unseen.
 *
 * Context: process context; ctx->mutex held.
 * Return: 0, or -ENODEV if ctx->cpu is not up for pfmk: offline, going
 * offline, or coming online before pfmk's online callback (not watched
 * then).
 */
int pfmk_hotplug_attach(struct pfmk_ctx *ctx)
{
	struct pfmk_hp_cpu *hc = per_cpu_ptr(&pfmk_hp_cpus, ctx->cpu);
	int ret = 0;

	lockdep_assert_held(&ctx->mutex);
	atomic_set(&ctx->hp_gone, 0);
	atomic_set(&ctx->hp_gen, 0);
	WRITE_ONCE(ctx->hp_done, 0);
	WRITE_ONCE(ctx->offline, false);
	/* Added twice, the list would loop its callbacks forever. */
	lockdep_assert(hlist_unhashed(&ctx->hp_entry));
	spin_lock(&hc->lock);
	if (hc->up)
		hlist_add_head(&ctx->hp_entry, &hc->ctxs);
	else
		ret = -ENODEV;
	spin_unlock(&hc->lock);
	return ret;
}

/**
 * pfmk_hotplug_detach() - stop watching the CPU of a context
 * @ctx: the context, locked, being unloaded.
 *
 * A work already queued still runs; it finds the context unloaded.
 *
 * Context: process context; ctx->mutex held.
 */
void pfmk_hotplug_detach(struct pfmk_ctx *ctx)
{
	struct pfmk_hp_cpu *hc = per_cpu_ptr(&pfmk_hp_cpus, ctx->cpu);

	lockdep_assert_held(&ctx->mutex);
	spin_lock(&hc->lock);
	hlist_del_init(&ctx->hp_entry);
	spin_unlock(&hc->lock);
	/*
	 * No callback runs for @ctx any more.  An event that came since the
	 * caller's sync concerns a CPU the context is leaving: it is dropped
	 * (the work finds the context unloaded), and must not make every
	 * lockless read of the unloaded context take the mutex until the
	 * next load.
	 */
	smp_store_release(&ctx->hp_done, atomic_read(&ctx->hp_gen));
	WRITE_ONCE(ctx->offline, false);
}

/**
 * pfmk_hotplug_init() - register pfmk's cpuhp state
 *
 * Context: process context; may sleep.
 * Return: 0 or a negative errno.
 */
int pfmk_hotplug_init(void)
{
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu) {
		spin_lock_init(&per_cpu_ptr(&pfmk_hp_cpus, cpu)->lock);
		INIT_HLIST_HEAD(&per_cpu_ptr(&pfmk_hp_cpus, cpu)->ctxs);
	}
	pfmk_hp_wq = alloc_workqueue("pfmk_hotplug", WQ_UNBOUND, 0);
	if (!pfmk_hp_wq)
		return -ENOMEM;
	/*
	 * With the startup callback run on every CPU at or above the state
	 * (an empty list: it only marks the CPU up), not on the online ones:
	 * a CPU parked below it (CPU hotplug state control) stays down for
	 * pfmk.
	 */
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "pfmk:online",
				pfmk_cpu_online, pfmk_cpu_offline);
	if (ret < 0) {
		destroy_workqueue(pfmk_hp_wq);
		return ret;
	}
	pfmk_hp_state = ret;
	return 0;
}

/**
 * pfmk_hotplug_test_flush() - wait for the hotplug work queued so far
 *
 * For tests that read pfmk-wide counters after a CPU came back: a context
 * whose re-arm failed is retried by every sync, and the work the online
 * callback queued may retry it after the test's own call did, holding an
 * event while it tries.  Once this returns, no work queued before it runs.
 *
 * Context: process context; may sleep; no context's mutex held.
 */
#if IS_ENABLED(CONFIG_KUNIT)
void pfmk_hotplug_test_flush(void)
{
	flush_workqueue(pfmk_hp_wq);
}
EXPORT_SYMBOL_NS_GPL(pfmk_hotplug_test_flush, PFMK_TEST_NS);
#endif

/**
 * pfmk_hotplug_exit() - unregister pfmk's cpuhp state
 *
 * No context is left (each one holds a reference on pfmk), but works of
 * closed contexts may still be queued: they are flushed.
 *
 * Context: process context; may sleep.
 */
void pfmk_hotplug_exit(void)
{
	cpuhp_remove_state_nocalls(pfmk_hp_state);
	destroy_workqueue(pfmk_hp_wq);
}
