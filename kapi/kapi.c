// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KAPI: the exported calls.
 *
 * The fourteen perfmon2 KAPI calls of 2006, with their 2006 signatures,
 * and pfmk's extensions.  Each call looks its descriptor up (-EBADF for
 * NULL, unknown, forged or closed descriptors, checked first), locks the
 * context (pfmk_desc_lock(): a reference, then ctx->mutex), and hands over
 * to core/.  Two calls do not hold the mutex throughout:
 *
 * - pfmk_read_pmds() reads a loaded, running context without the mutex
 *   or a reference (pfmk_read_pmds_lockless(), core/regs.c) and locks the
 *   context only when that path declines (-EAGAIN);
 * - pfmk_read() holds only a reference (pfmk_desc_get()): it waits for a
 *   message without the mutex, so that pfmk_close() and the other calls
 *   can run meanwhile (core/msgq.c), and takes the mutex only to catch up
 *   with a pending CPU hotplug event.
 *
 * All calls run in process context and may sleep; a call never leaves the
 * context half changed: on error the context is as it was.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>

#include "../core/internal.h"

/**
 * __pfmk_create_context() - create a system-wide monitoring context
 * @req: context description: ctx_flags must have PFM_FL_SYSTEM_WIDE and
 *	may have PFM_FL_OVFL_NO_MSG; ctx_pmu_name selects the PMU description
 *	("" for "generic"); ctx_smpl_buf_id is a sampling format's UUID (all
 *	zeroes for none).  On success ctx_fd is set to -1 and
 *	ctx_smpl_buf_size to the sampling buffer's size (0 without one).
 * @smpl_arg: the sampling format's argument (NULL without a format).
 * @smpl_size: size of @smpl_arg, the format's arg_size (0 without one).
 * @c: the owner's completion, initialized by the owner; pfmk_read() waits
 *	on it.  It must stay valid until pfmk_close() returns.
 * @desc: output: the context's descriptor.
 * @buf: output, may be NULL: the sampling buffer's kernel address (NULL
 *	without a format).
 * @owner: the module creating the context (pfmk_create_context() passes
 *	THIS_MODULE), or NULL for built-in code.  When that module unloads
 *	with the context still open, pfmk closes the context and warns.
 *
 * Callers use pfmk_create_context(), which supplies @owner.  The context
 * starts UNLOADED, with every PMC at its description's default value and
 * every PMD at 0.
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL if @req, @c or @desc is NULL, a flag is
 * missing or unknown (PFM_FL_NOTIFY_BLOCK and PFM_FL_MAP_SETS included),
 * ctx_pmu_name is not NUL-terminated, the sampling format is unknown, or
 * its argument is missing, mis-sized or rejected; -ENOENT if no PMU
 * description of that name is registered; -E2BIG for a sampling buffer
 * above the max_smpl_buf limit; -ENOMEM at the max_contexts or
 * max_smpl_mem limit, or out of memory.
 */
int __pfmk_create_context(struct pfarg_ctx *req, void *smpl_arg,
			  size_t smpl_size, struct completion *c, void **desc,
			  void **buf, struct module *owner)
{
	pfmk_might_sleep();
	return pfmk_ctx_create(req, smpl_arg, smpl_size, c, desc, buf, owner);
}
EXPORT_SYMBOL_GPL(__pfmk_create_context);

/**
 * pfmk_write_pmcs() - program PMCs
 * @desc: context descriptor.
 * @req: @count PMC numbers, sets and values.
 * @count: number of entries, 0 to PFM_MAX_PMCS.
 *
 * Every entry is validated before any is applied.  Values the description
 * rejects fail here, not at load.  On a loaded, stopped context the
 * affected events are re-created at once (so the errors of
 * pfmk_load_context() can also occur); the PMDs keep their values.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF for a bad descriptor; -EINVAL for a negative @count,
 * a NULL @req or an invalid entry (whose reg_flags then has
 * PFM_REG_RETFL_NOTAVAIL for a register out of range, PFM_REG_RETFL_NOSET
 * for an unknown set, PFM_REG_RETFL_EINVAL for bad flags or value);
 * -E2BIG for @count above PFM_MAX_PMCS; -EBUSY while monitoring is
 * started, or for disabling the AUX PMD's PMC of a loaded context;
 * -ENOMEM.
 */
int pfmk_write_pmcs(void *desc, struct pfarg_pmc *req, int count)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_write_pmcs(ctx, req, count);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_write_pmcs);

/**
 * pfmk_write_pmds() - set PMD values and their overflow parameters
 * @desc: context descriptor.
 * @req: @count PMD numbers, sets, 64-bit values and reset parameters.
 * @count: number of entries, 0 to PFM_MAX_PMDS.
 *
 * On a loaded context the PMD continues counting from the new value.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL for a negative @count, a NULL @req or an
 * invalid entry (reg_flags marked as for pfmk_write_pmcs(); bit vectors
 * naming PMDs that do not exist are PFM_REG_RETFL_EINVAL); -E2BIG for
 * @count above PFM_MAX_PMDS; -EBUSY while monitoring is started.
 */
int pfmk_write_pmds(void *desc, struct pfarg_pmd *req, int count)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_write_pmds(ctx, req, count);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_write_pmds);

/**
 * pfmk_read_pmds() - read 64-bit PMD values
 * @desc: context descriptor.
 * @req: @count PMD numbers and sets.  As in perfmon2 2.2, only reg_num
 *	and reg_set are read (the rest may be uninitialised); reg_value,
 *	reg_last_reset_val, reg_ovfl_switch_cnt (overflows left before the
 *	set switches) and the PFM_REG_RETFL_* bits of reg_flags are written,
 *	the input bits of reg_flags and every other field are left alone.
 * @count: number of entries, 0 to PFM_MAX_PMDS.
 *
 * Legal in every state: a loaded context returns live values, an unloaded
 * one the values as last folded.  A value is the value last written plus
 * what perf counted while monitoring was started since.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL for a negative @count, a NULL @req, or an
 * entry out of range (PFM_REG_RETFL_NOTAVAIL) or of an unknown set
 * (PFM_REG_RETFL_NOSET); -E2BIG for @count above PFM_MAX_PMDS.
 */
int pfmk_read_pmds(void *desc, struct pfarg_pmd *req, int count)
{
	struct pfmk_ctx *ctx;
	int ret;

	/*
	 * The locked path may sleep: say so even when it is not taken.  The
	 * lockless one takes no mutex: keep the preemption point, for a
	 * caller that polls.
	 */
	might_sleep();
	ret = pfmk_read_pmds_lockless(desc, req, count);
	if (ret != -EAGAIN)
		return ret;
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_read_pmds(ctx, req, NULL, count);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_read_pmds);

/**
 * pfmk_read_pmds_time() - read PMDs with their enabled and running times
 * @desc: context descriptor.
 * @req: as for pfmk_read_pmds().
 * @time: @count entries, filled in: ns each PMD's events were enabled and
 *	actually counting, summed over all loads.
 * @count: number of entries, 0 to PFM_MAX_PMDS.
 *
 * pfmk extension.  time_running below time_enabled means perf multiplexed
 * the event with others and the PMD missed part of what happened.
 *
 * Context: process context; may sleep.
 * Return: as pfmk_read_pmds(); -EINVAL also for a NULL @time.
 */
int pfmk_read_pmds_time(void *desc, struct pfarg_pmd *req,
			struct pfmk_pmd_time *time, int count)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = time ? pfmk_ctx_read_pmds(ctx, req, time, count) : -EINVAL;
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_read_pmds_time);

/**
 * pfmk_restart() - resume monitoring after an overflow notification
 * @desc: context descriptor.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -ENOTCONN if the context is not loaded; -EBUSY if
 * monitoring is not masked.
 */
int pfmk_restart(void *desc)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_restart(ctx);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_restart);

/**
 * pfmk_stop() - stop monitoring
 * @desc: context descriptor.
 *
 * The PMDs keep their values; pfmk_start() continues from them.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -ENOTCONN if the context is not loaded; -EALREADY if
 * monitoring is not started.
 */
int pfmk_stop(void *desc)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_stop(ctx);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_stop);

/**
 * pfmk_start() - start monitoring
 * @desc: context descriptor.
 * @req: may be NULL to start with the active set (the set loaded, or the
 *	set active when monitoring was last stopped); start_set selects the
 *	set to start with.
 *
 * The set starts counting; with PFM_SETFL_TIME_SWITCH its timeout starts.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL for an unknown start_set; -ENOTCONN if the
 * context is not loaded; -EALREADY if monitoring is started.
 */
int pfmk_start(void *desc, struct pfarg_start *req)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_start(ctx, req);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_start);

/**
 * pfmk_load_context() - attach a context to a CPU
 * @desc: context descriptor.
 * @req: load_pid is the CPU to monitor; load_set the set to make active.
 *
 * Creates the perf events of the PMDs whose PMCs are enabled, in every
 * event set, stopped (each counts against the max_events limit).  Any CPU
 * may make the call, unlike in 2006.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL for a NULL @req, a CPU that does not exist
 * or an unknown set; -EBUSY if already loaded; -ENODEV if the CPU is
 * offline, going offline, or coming online but not yet up for pfmk (its
 * hotplug callback has not run); -EOPNOTSUPP if the running machine has
 * no PMU for one of the events (for example hardware events in an
 * emulated guest); -EXDEV if
 * a PMU counts one of them on another CPU (an uncore PMU's cpumask: load
 * on a CPU it lists); -ENOMEM at the max_events limit or out of memory;
 * another negative errno from perf.  The context stays unloaded on
 * error.
 */
int pfmk_load_context(void *desc, struct pfarg_load *req)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_load(ctx, req);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_load_context);

/**
 * pfmk_unload_context() - detach a context from its CPU
 * @desc: context descriptor.
 *
 * Stops monitoring if started, folds the counts into the PMDs and
 * releases the perf events.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -ENOTCONN if the context is not loaded.
 */
int pfmk_unload_context(void *desc)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_unload(ctx);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_unload_context);

/**
 * pfmk_delete_evtsets() - delete event sets
 * @desc: context descriptor.
 * @req: @count set identifiers.
 * @count: number of entries, 0 to PFM_MAX_PMCS.
 *
 * Only while unloaded.  Set 0 always exists and cannot be deleted, nor can
 * a set that a remaining set names as its explicit next set.  Every entry
 * is checked before any set is deleted.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL for a negative @count, a NULL @req, set 0, a
 * set named as next by another, a set listed twice (set_flags
 * PFM_REG_RETFL_EINVAL) or an unknown set (PFM_REG_RETFL_NOSET); -E2BIG
 * for @count above PFM_MAX_PMCS; -EBUSY if the context is loaded (so the
 * active set can never be deleted).
 */
int pfmk_delete_evtsets(void *desc, struct pfarg_setinfo *req, int count)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_delete_sets(ctx, req, count);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_delete_evtsets);

/**
 * pfmk_create_evtsets() - define event sets
 * @desc: context descriptor.
 * @req: @count set descriptions.
 * @count: number of entries, 0 to PFM_MAX_PMCS.
 *
 * Creates each set that does not exist (with its PMCs at their default
 * values and its PMDs at 0) and sets the switching rules of every listed
 * set: PFM_SETFL_TIME_SWITCH switches to the next set after set_timeout
 * microseconds (rounded up to PFMK_SET_MIN_TIMEOUT_US), and
 * PFM_SETFL_OVFL_SWITCH after reg_ovfl_switch_cnt overflows of one of the
 * set's PMDs; the next set is set_id_next with PFM_SETFL_EXPL_NEXT, else the
 * set with the next higher id, wrapping around.  Every entry is checked
 * before any is applied; only while unloaded.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL for a negative @count, a NULL @req, or a bad
 * entry, whose set_flags then has PFM_REG_RETFL_EINVAL (unknown flag,
 * both TIME_SWITCH and OVFL_SWITCH, TIME_SWITCH with a zero timeout, an id
 * listed twice) or PFM_REG_RETFL_NOSET (EXPL_NEXT naming a set that
 * neither exists nor is in @req); -E2BIG for @count above PFM_MAX_PMCS or
 * more than PFMK_MAX_SETS sets in all; -EBUSY if the context is loaded;
 * -ENOMEM.
 */
int pfmk_create_evtsets(void *desc, struct pfarg_setdesc *req, int count)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_create_sets(ctx, req, count);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_create_evtsets);

/**
 * pfmk_getinfo_evtsets() - report on event sets
 * @desc: context descriptor.
 * @req: @count entries; set_id is input, the other fields are filled in:
 *	set_flags (the set's PFM_SETFL_* flags), set_id_next (the set it
 *	switches to), set_runs (activations), set_act_duration (ns active),
 *	set_timeout (effective timeout, us), set_ovfl_pmds (PMDs whose
 *	overflows made the set switch last time), set_avail_pmcs and
 *	set_avail_pmds.
 * @count: number of entries, 0 to PFM_MAX_PMCS.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL for a negative @count, a NULL @req or an
 * unknown set (set_flags PFM_REG_RETFL_NOSET); -E2BIG.
 */
int pfmk_getinfo_evtsets(void *desc, struct pfarg_setinfo *req, int count)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_getinfo_sets(ctx, req, count);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_getinfo_evtsets);

/**
 * pfmk_close() - destroy a context
 * @desc: context descriptor.
 *
 * Legal in every state: stops, unloads and frees everything the context
 * owns.  Calls racing with the close on the same descriptor either finish
 * before it or fail with -EBADF; pfmk_read() calls waiting on the context
 * are woken and return -EBADF.  The descriptor is invalid afterwards.
 *
 * Context: process context; may sleep.  Unlike 2006, never from an
 * interrupt handler, because releasing perf events sleeps.
 * Return: 0, or -EBADF.
 */
int pfmk_close(void *desc)
{
	struct pfmk_ctx *ctx;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	/* The close drops the creation reference; ours goes at the unlock. */
	pfmk_ctx_close(ctx);
	pfmk_desc_unlock(ctx);
	return 0;
}
EXPORT_SYMBOL_GPL(pfmk_close);

/**
 * pfmk_read() - read one message, waiting on the context's completion
 * @desc: context descriptor.
 * @msg: output: the message.
 * @sz: sizeof(*@msg).
 * @noblock: non-zero: do not wait.
 *
 * Without a queued message, waits on the completion given to
 * pfmk_create_context().  Other code may complete it too: a return of 0
 * means "woken, but no pfmk message", and the caller decides why.
 *
 * Context: process context; may sleep, with @noblock too: it waits for
 * the context's mutex while a CPU hotplug event is pending.
 * Return: sizeof(*@msg) with a message copied to @msg; 0 if woken without
 * a message; -EAGAIN if @noblock and no message is queued; -ERESTARTSYS
 * if a signal interrupted the wait; -EINVAL for a NULL @msg or a wrong
 * @sz; -EBADF for a bad descriptor or a context closed during the wait.
 */
ssize_t pfmk_read(void *desc, union pfm_msg *msg, size_t sz, int noblock)
{
	struct pfmk_ctx *ctx;
	ssize_t ret;

	/* No mutex without a pending hotplug event: a poller's preemption point. */
	might_sleep();
	ctx = pfmk_desc_get(desc);
	if (!ctx)
		return -EBADF;
	if (!msg || sz != sizeof(*msg)) {
		ret = -EINVAL;
	} else {
		/* Messages of hotplug events that came before this call. */
		pfmk_hotplug_sync_unlocked(ctx);
		ret = pfmk_msgq_read(ctx, msg, noblock);
	}
	pfmk_desc_put(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_read);

/**
 * pfmk_get_state() - state of a context
 * @desc: context descriptor.
 *
 * pfmk extension.
 *
 * Context: process context; may sleep.
 * Return: PFM_CTX_UNLOADED, PFM_CTX_LOADED or PFM_CTX_MASKED, OR'ed with
 * PFMK_STATE_STARTED while monitoring is started and with
 * PFMK_STATE_OFFLINE while the context's CPU is offline (the context
 * stays loaded and re-arms when the CPU returns) and with
 * PFMK_STATE_FROZEN once a crash froze it (pfmk_crash_setup()); -EBADF.
 */
int pfmk_get_state(void *desc)
{
	struct pfmk_ctx *ctx;
	int ret;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_state(ctx);
	pfmk_desc_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_get_state);

/**
 * pfmk_get_stats() - overflow statistics of a context
 * @desc: context descriptor.
 * @stats: output.
 *
 * pfmk extension: how many overflows the context saw, recorded, dropped
 * while masked or nested, and how often perf throttled its events.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL for a NULL @stats.
 */
int pfmk_get_stats(void *desc, struct pfmk_ctx_stats *stats)
{
	struct pfmk_ctx *ctx;

	pfmk_might_sleep();
	ctx = pfmk_desc_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (stats)
		pfmk_ovfl_get_stats(ctx, stats);
	pfmk_desc_unlock(ctx);
	return stats ? 0 : -EINVAL;
}
EXPORT_SYMBOL_GPL(pfmk_get_stats);

/**
 * pfmk_get_global_stats() - pfmk-wide counters
 * @stats: output.
 *
 * pfmk extension: contexts created, freed and open, perf events and
 * memory held, contexts reclaimed from unloaded modules, CPU hotplug
 * events.  Tests use it to check that nothing leaked; debugfs pfmk/stats
 * shows the same numbers.
 *
 * Context: any context but NMI.
 * Return: 0; -EINVAL if @stats is NULL.
 */
int pfmk_get_global_stats(struct pfmk_global_stats *stats)
{
	if (!stats)
		return -EINVAL;
	pfmk_get_counters(stats);
	return 0;
}
EXPORT_SYMBOL_GPL(pfmk_get_global_stats);
