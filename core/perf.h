/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk's perf glue: everything core/ uses of perf, in one header.
 *
 * The first half declares core/perf.c, which makes and drives one perf
 * kernel counter per used PMD with perf's exported calls only, and holds
 * two loops over those calls inline (pfmk_perf_enable_set() and
 * pfmk_perf_disable_set(), see below).  The second
 * half is every access to perf's own structures that no exported call
 * serves, inline because the overflow path (NMI) and the lockless read
 * use them.  Each accessor says why no exported function serves.  What
 * each relies on is checked: the types of the fields by the
 * static_assert()s below, which break the build if a kernel changes them,
 * and their meaning by the test cases named with each accessor, which fail
 * if a kernel changes it.  No other file of core/ or kapi/ names a field
 * of perf's structures (struct perf_event, hw_perf_event, pmu): they call
 * these.  The PMU layer's use of perf PMUs found by name (their device,
 * type, module, name and sysfs groups, and whether perf schedules them
 * as software) is the other half of pfmk's perf glue, pmu/perf_pmu.c,
 * with its own type asserts and the cases of pfmk_dyn_glue
 * (glue_event_dev, glue_lookup_by_name, glue_format_show,
 * glue_pins_module, glue_sw_context): no other file of pfmk's module names a field of
 * perf's structures.  Test modules that play a PMU driver (the test PMU,
 * the emulator, the AUX test PMU) or a raw perf user (pfmk_bench's
 * baselines, which pass their own overflow handler context), and the
 * cases that check the test PMU's own state, use perf's structures as
 * any driver or perf user does: they are not pfmk.
 *
 * Included by the files that use perf: perf.c, and context.c, regs.c,
 * sets.c (the functions), ovfl.c and crash.c (the accessors); not by
 * internal.h.  pfmk_perf_enable_set() and pfmk_perf_disable_set() are
 * inline: they are most of what pfmk_start() and pfmk_stop() add to
 * perf's own calls; sets.c and context.c call perf's exported
 * perf_event_enable() and perf_event_disable() through them.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_PERF_H
#define _PFMK_PERF_H

#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/minmax.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <linux/types.h>

#include "internal.h"

/* core/perf.c: perf's exported calls only */
struct perf_event *pfmk_perf_create(const struct pfmk_pmu_desc *pmu,
				    unsigned int reg, u64 pmc, const u64 *pmcs,
				    int cpu, struct pfmk_pmd *pmd,
				    const struct pfmk_pmd *cfg);
void pfmk_perf_release(struct pfmk_pmd *pmd);
void pfmk_perf_destroy(struct perf_event *event);
int pfmk_perf_probe(const struct pfmk_pmu_desc *pmu, unsigned int reg,
		    u64 pmc, const u64 *pmcs, int gone);
void pfmk_perf_sync(struct pfmk_pmd *pmd);
void pfmk_perf_set_period(struct pfmk_pmd *pmd, u64 val);
u64 pfmk_perf_value(struct pfmk_pmd *pmd, u64 *enabled, u64 *running);
int pfmk_perf_value_here(struct pfmk_pmd *pmd, u64 *val);
u64 pfmk_perf_enabled(struct pfmk_pmd *pmd);
int pfmk_perf_load_set(struct pfmk_set *set, const struct pfmk_pmu_desc *pmu,
		       int cpu);
void pfmk_perf_unload_set(struct pfmk_set *set, unsigned int nregs);

/**
 * pfmk_perf_enable_set() - start counting on a set's events
 * @set: the set.
 * @nregs: number of PMDs.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
static inline void pfmk_perf_enable_set(struct pfmk_set *set,
					unsigned int nregs)
{
	unsigned int i, n = min(nregs, set->ev_span);

	lockdep_assert_held(&set->pmds[0].ctx->mutex);
	for (i = 0; i < n; i++) {
		struct perf_event *event = pfmk_pmd_event(&set->pmds[i]);

		if (event)
			perf_event_enable(event);
	}
}

/**
 * pfmk_perf_disable_set() - stop counting on a set's events
 * @set: the set.
 * @nregs: number of PMDs.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
static inline void pfmk_perf_disable_set(struct pfmk_set *set,
					 unsigned int nregs)
{
	unsigned int i, n = min(nregs, set->ev_span);

	lockdep_assert_held(&set->pmds[0].ctx->mutex);
	for (i = 0; i < n; i++) {
		struct perf_event *event = pfmk_pmd_event(&set->pmds[i]);

		if (event)
			perf_event_disable(event);
	}
}

/* What perf exports no call for: perf's own structures, checked */

/* @member of struct @type has type @t: the build breaks if it changes. */
#define pfmk_perf_field(type, member, t) \
	static_assert(__same_type(typeof_member(struct type, member), t))

pfmk_perf_field(perf_event, overflow_handler_context, void *);
pfmk_perf_field(perf_event, count, local64_t);
pfmk_perf_field(perf_event, state, enum perf_event_state);
pfmk_perf_field(perf_event, oncpu, int);
pfmk_perf_field(perf_event, cpu, int);
pfmk_perf_field(hw_perf_event, interrupts, u64);
pfmk_perf_field(hw_perf_event, sample_period, u64);
pfmk_perf_field(pmu, read, void (*)(struct perf_event *));

/*
 * perf's throttling mark, hw.interrupts = MAX_INTERRUPTS: a define
 * private to kernel/events/core.c, (~0ULL) from 6.1 to 7.2.
 */
#define PFMK_PERF_MAX_INTERRUPTS	(~0ULL)

/**
 * pfmk_perf_handler_ctx() - the context an overflow handler was given
 * @event: the event whose handler runs.
 *
 * perf passes its overflow handler the event, not the context given to
 * perf_event_create_kernel_counter(), and has no function returning it
 * (in-tree users, such as KVM's PMU, read the field too).  The handler
 * finds its PMD here: pfmk_smpl_exact's smpl_exact_entries (each entry
 * names the PMD that overflowed), and every other sampling case, fails if
 * it changes.
 *
 * Context: the overflow handler of @event.
 * Return: the overflow handler's context of @event.
 */
static __always_inline void *pfmk_perf_handler_ctx(struct perf_event *event)
{
	return event->overflow_handler_context;
}

/**
 * pfmk_perf_throttled() - did perf throttle an event at this overflow?
 * @event: the event whose handler runs.
 *
 * perf tells throttling only in the event's ring buffer
 * (PERF_RECORD_THROTTLE), which a kernel counter has none of, and by
 * marking the event with hw.interrupts = MAX_INTERRUPTS before it calls
 * the handler; the event is stopped until a later tick unthrottles it
 * (from 7.2 on, perf stops it before calling the handler; before 7.2,
 * just after).  pfmk_throttle's throttle_counted
 * (test-modules/pfmk_kunit_throttle.c) fails if the mark changes: it has
 * perf throttle an event and checks that pfmk counted it; its
 * throttle_entry_marked, that the entry of each throttled overflow says so.
 *
 * Context: the overflow handler of @event.
 * Return: true if perf throttled @event at the overflow being handled.
 */
static __always_inline bool pfmk_perf_throttled(const struct perf_event *event)
{
	return READ_ONCE(event->hw.interrupts) == PFMK_PERF_MAX_INTERRUPTS;
}

/**
 * pfmk_perf_count_self() - the count of an event at its overflow
 * @event: the event whose handler runs.
 *
 * perf brought the count up to date before it called the handler; its
 * readers, perf_event_read_value() (a mutex) and perf_event_read_local()
 * (not exported), cannot serve in NMI.  pfmk_smpl_exact's
 * smpl_exact_step_carry and smpl_exact_step_missed fail if the count
 * changes meaning: how far a PMD ran past zero, which the reset carries
 * and the missed periods count, comes from it.
 *
 * Context: the overflow handler of @event.
 * Return: the count of @event.
 */
static __always_inline u64 pfmk_perf_count_self(struct perf_event *event)
{
	return local64_read(&event->count);
}

/**
 * pfmk_perf_count_local() - the count of an event, up to date on this CPU
 * @event: an event counting on this CPU, or stopped.
 *
 * What perf_event_read_local() does, which perf does not export: an
 * active event on this CPU is brought up to date by its PMU's ->read(),
 * which PMUs make NMI-safe for this very use (perf's own sample
 * read-out).  The cases that read other PMDs at an overflow, on the test
 * PMU, fail if this changes: pfmk_smpl_exact's smpl_exact_self (values of
 * reg_smpl_pmds) and smpl_exact_reset_pmds (the base of reg_reset_pmds),
 * pfmk_smpl_fmt's smpl_fmt_args, and pfmk_crash's crash_pmds_at_freeze.
 *
 * Context: an overflow handler on @event's CPU (NMI, hard-irq, or a
 * software event's task with preemption off), or the crash path
 * (core/crash.c: die or panic notifier, interrupts off, on any CPU: an
 * event active on another CPU is not read, its count is as of its last
 * update).
 * Return: the count of @event.
 */
static __always_inline u64 pfmk_perf_count_local(struct perf_event *event)
{
	if (READ_ONCE(event->state) == PERF_EVENT_STATE_ACTIVE &&
	    READ_ONCE(event->oncpu) == smp_processor_id())
		event->pmu->read(event);
	return local64_read(&event->count);
}

/**
 * pfmk_perf_count_here() - the count of an event, read without sleeping
 * @event: the event, kept allocated by the caller's RCU read-side section.
 * @count: output: its count (pfmk's events count on a CPU, not
 *	inherited: they have no children).
 *
 * The lockless read's version of perf_event_read_local() (not exported):
 * an event counting on this CPU is brought up to date by its PMU's
 * ->read(); an event not counting (oncpu -1) has a stable count, read
 * from any CPU; one counting elsewhere cannot be read here.  With
 * interrupts off, an event counting here can neither be scheduled out
 * nor released (perf removes a CPU event by an IPI to its CPU).
 * pfmk_count's count_exact_started and count_exact_restarted (exact
 * values of counting PMDs, read by this path first) fail if this changes;
 * so does pfmk_lockless's lockless_read_vs_unload (an unused PMD reads
 * exactly what was written, a counting one never goes back, while events
 * come and go).
 *
 * Context: interrupts off, within an RCU read-side section.
 * Return: 0 with *@count set, -EREMOTE if @event counts on another CPU.
 */
static inline int pfmk_perf_count_here(struct perf_event *event, u64 *count)
{
	int oncpu = READ_ONCE(event->oncpu);

	if (oncpu == smp_processor_id())
		event->pmu->read(event);
	else if (oncpu != -1)
		return -EREMOTE;
	*count = local64_read(&event->count);
	return 0;
}

/**
 * pfmk_perf_set_period_self() - the next sample period of an event
 * @event: the event whose handler runs: a sampling event.
 * @period: the period.
 *
 * perf_event_period() takes the event context's mutex: from the overflow
 * path the period is set as perf's own frequency mode sets it
 * (perf_adjust_period()).  hrtimer-based events and the test PMU use it
 * for the next period at once, PMUs that reload before calling the
 * handler (x86 PMCs, software events) from the overflow after.
 * pfmk_smpl_exact's smpl_exact_step_carry (the tick of each overflow
 * after a short reset) and smpl_exact_random (the tick of each overflow
 * after a random reset) fail if this changes.
 *
 * Context: the overflow handler of @event.
 */
static __always_inline void pfmk_perf_set_period_self(struct perf_event *event,
						      u64 period)
{
	WRITE_ONCE(event->hw.sample_period, period);
}

/**
 * pfmk_perf_set_period_peer() - the next sample period of a peer event
 * @event: an event of the context, or NULL.
 * @period: the period.
 *
 * As pfmk_perf_set_period_self(), for an event of the same context and
 * CPU; counting events have no period and are left alone.
 *
 * Context: an overflow handler on @event's CPU.
 */
static __always_inline void pfmk_perf_set_period_peer(struct perf_event *event,
						      u64 period)
{
	if (event && is_sampling_event(event))
		pfmk_perf_set_period_self(event, period);
}

/**
 * pfmk_perf_event_cpu() - the CPU an event counts on
 * @event: an event pfmk created on a CPU.
 *
 * An uncore-style PMU's event_init() moves an event to the CPU its
 * cpumask lists; perf has no function that tells.  pfmk_dyn's
 * dyn_moved_event_refused (a PMU that moves its events: -EXDEV) fails if
 * this changes.
 *
 * Context: any context.
 * Return: the CPU @event counts on.
 */
static inline int pfmk_perf_event_cpu(const struct perf_event *event)
{
	return READ_ONCE(event->cpu);
}

#endif /* _PFMK_PERF_H */
