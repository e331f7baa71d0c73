// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk perf glue: one perf kernel counter per used PMD, serving core/.
 *
 * A PMD's 64-bit virtual value is pmd->value + (perf count - pmd->perf_base).
 * pfmk_perf_sync() folds the perf count into pmd->value; it runs whenever a
 * PMD is written or its event goes away, so values carry across stop,
 * unload, load and PMC reprogramming.
 *
 * Events are created disabled on the context's CPU, without a task, not
 * pinned: when perf must multiplex, pfmk_read_pmds_time() tells.  A
 * sampling PMD (see core/ovfl.c) gets sample_period = 2^64 - value and
 * pfmk_ovfl_handler(); while it runs, the handler moves value and
 * perf_base, and readers retry on ctx->ovfl_seq.  Every function here but
 * pfmk_perf_value_here() (the lockless read) may sleep
 * (perf_event_enable() and friends take the perf context mutex); those
 * that act on a context's PMDs run under its mutex.
 *
 * perf's exported calls only, declared with the accessors of what pfmk
 * reads or writes of perf's own structures in core/perf.h.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/string.h>
#include <linux/perf_event.h>

#include "internal.h"
#include "perf.h"

/*
 * Does perf call the overflow handler of such an event with interrupts on?
 * Software events may, from the task that caused them (page faults and
 * the other fault counters, with preemption off), but for the
 * hrtimer-driven cpu-clock and task-clock; tracepoints and breakpoints
 * from their hook's context.  Hardware PMUs call it in NMI or hard-irq,
 * and so do the PMUs of pfmk's test descriptions (dynamic types).  The
 * PMUs of dynamic descriptions are told by their PMU once the event
 * exists (pfmk_perf_create()).
 */
static bool pfmk_perf_handler_irqs_on(const struct perf_event_attr *attr)
{
	switch (attr->type) {
	case PERF_TYPE_SOFTWARE:
		return attr->config != PERF_COUNT_SW_CPU_CLOCK &&
		       attr->config != PERF_COUNT_SW_TASK_CLOCK;
	case PERF_TYPE_TRACEPOINT:
	case PERF_TYPE_BREAKPOINT:
		return true;
	default:
		return false;
	}
}

/*
 * perf's kernel counter of @attr on @cpu, counted against the max_events
 * limit: the event, or ERR_PTR(-ENOMEM) at the limit, ERR_PTR(-EOPNOTSUPP)
 * if no PMU of the running machine knows the event, or perf's ERR_PTR.
 */
static struct perf_event *pfmk_perf_counter(struct perf_event_attr *attr,
					    int cpu,
					    perf_overflow_handler_t handler,
					    struct pfmk_pmd *pmd)
{
	struct perf_event *event;

	if (!pfmk_charge(&pfmk_counters.events, READ_ONCE(pfmk_max_events)))
		return ERR_PTR(-ENOMEM);
	event = perf_event_create_kernel_counter(attr, cpu, NULL, handler, pmd);
	if (IS_ERR(event)) {
		atomic_dec(&pfmk_counters.events);
		if (PTR_ERR(event) == -ENOENT)
			return ERR_PTR(-EOPNOTSUPP);
	}
	return event;
}

/*
 * Is the new @event the one @pmu asked for, on @cpu?  0, or the errno of
 * pfmk_perf_create(); *@sw tells whether perf schedules a dynamic
 * description's PMU as software (its handler may run with interrupts on).
 */
static int pfmk_perf_check_event(const struct pfmk_pmu_desc *pmu,
				 struct perf_event *event, int cpu, bool *sw)
{
	/*
	 * Uncore-style drivers move an event to the CPU their cpumask
	 * lists (event_init() sets event->cpu): a context counts on its own
	 * CPU, so such an event is refused rather than counted elsewhere.
	 */
	if (pfmk_perf_event_cpu(event) != cpu)
		return -EXDEV;
	/*
	 * A dynamic description's event must be on the PMU it was built for
	 * (a type number may have gone to another PMU meanwhile).  A PMU
	 * that perf schedules as software may call the handler from its hook
	 * with interrupts on (kprobe, uprobe): counted as such; so are
	 * cpu_clock, msr or intel_pt, whose handlers run with interrupts
	 * off, at the cost of a wait at stop.
	 */
	if (pfmk_pmu_is_dyn(pmu))
		return pfmk_dyn_check_event(pmu, event, sw);
	return 0;
}

/**
 * pfmk_perf_create() - create the perf event programmed by a PMC
 * @pmu: the context's PMU description.
 * @reg: PMC number.
 * @pmc: PMC value.
 * @pmcs: the set's PMC values, for the description's ->pmd_attr().
 * @cpu: CPU to count on.
 * @pmd: the PMD the event counts for (the overflow handler's context).
 * @cfg: the PMD value and resets deciding sampling and the first period:
 *	@pmd, or the values about to be written to it.
 *
 * The event counts against the max_events limit until
 * pfmk_perf_destroy() (or pfmk_perf_release()) releases it.
 *
 * Context: process context; may sleep.
 * Return: a disabled event; NULL if the PMC leaves its PMD unused;
 * ERR_PTR(-ENOMEM) at the max_events limit; ERR_PTR(-EOPNOTSUPP) if the
 * running machine has no PMU for the event, ERR_PTR(-ENODEV) if @cpu is
 * offline, ERR_PTR(-EXDEV) if the PMU counts the event on another CPU
 * (an uncore PMU's cpumask), or another ERR_PTR from perf.
 */
struct perf_event *pfmk_perf_create(const struct pfmk_pmu_desc *pmu,
				    unsigned int reg, u64 pmc, const u64 *pmcs,
				    int cpu, struct pfmk_pmd *pmd,
				    const struct pfmk_pmd *cfg)
{
	perf_overflow_handler_t handler = NULL;
	struct perf_event_attr attr = { };
	struct perf_event *event;
	bool irqs_on = false;
	bool sw = false;
	int ret;

	/* Most PMCs of a description stay at a default that is off. */
	if (pfmk_pmd_dfl_off(pmu, reg, pmc))
		return NULL;
	ret = pmu->pmc_to_attr(pmu, reg, pmc, &attr);
	if (ret == PFMK_PMC_OFF)
		return NULL;
	if (!ret && pmu->pmd_attr)
		ret = pmu->pmd_attr(pmu, reg, pmcs, &attr);
	if (ret)
		return ERR_PTR(ret);

	attr.size = sizeof(attr);
	attr.disabled = 1;
	if (pfmk_pmd_samples(cfg)) {
		attr.sample_period = pfmk_pmd_period(cfg->value);
		handler = pfmk_ovfl_handler;
		irqs_on = pfmk_perf_handler_irqs_on(&attr);
	}

	event = pfmk_perf_counter(&attr, cpu, handler, pmd);
	if (IS_ERR(event))
		return event;
	ret = pfmk_perf_check_event(pmu, event, cpu, &sw);
	if (ret) {
		pfmk_perf_destroy(event);
		return ERR_PTR(ret);
	}
	irqs_on |= handler && sw;
	/* Only an event that exists makes stop wait (pfmk_ctx_sync_handlers()). */
	if (irqs_on && handler)
		pmd->ctx->ovfl_irqs_on = true;
	return event;
}

/**
 * pfmk_perf_probe() - check that the running machine can count a PMC's event
 * @pmu: the context's PMU description.
 * @reg: PMC number.
 * @pmc: PMC value.
 * @pmcs: the set's PMC values (see pfmk_perf_create()).
 * @gone: the context's CPU, offline or on its way out.
 *
 * For PMC writes on a context whose CPU is offline: creates the event,
 * disabled and without sampling, on another online CPU and releases it, so
 * the write fails as it would on an online CPU instead of at re-arm.
 *
 * Context: process context; may sleep.
 * Return: 0, or the error pfmk_perf_create() would give for the event.
 */
int pfmk_perf_probe(const struct pfmk_pmu_desc *pmu, unsigned int reg, u64 pmc,
		    const u64 *pmcs, int gone)
{
	struct pfmk_pmd cfg = { };
	struct perf_event *event;
	unsigned int cpu = cpumask_any_but(cpu_online_mask, gone);

	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	event = pfmk_perf_create(pmu, reg, pmc, pmcs, cpu, &cfg, &cfg);
	if (IS_ERR(event))
		/* That CPU left too: the write stands, re-arm will tell. */
		return PTR_ERR(event) == -ENODEV ? 0 : PTR_ERR(event);
	pfmk_perf_destroy(event);
	return 0;
}

/**
 * pfmk_perf_destroy() - release an event made by pfmk_perf_create()
 * @event: the event, or NULL.
 *
 * Context: process context; may sleep.
 */
void pfmk_perf_destroy(struct perf_event *event)
{
	if (!event)
		return;
	perf_event_release_kernel(event);
	atomic_dec(&pfmk_counters.events);
}

/**
 * pfmk_perf_value() - current value of a PMD
 * @pmd: the PMD.
 * @enabled: output: ns enabled, over all of the PMD's events.
 * @running: output: ns running, over all of the PMD's events.
 *
 * Context: process context; may sleep.
 * Return: the 64-bit virtual value.
 */
u64 pfmk_perf_value(struct pfmk_pmd *pmd, u64 *enabled, u64 *running)
{
	struct perf_event *event = pfmk_pmd_event(pmd);
	seqcount_t *seq = &pmd->ctx->ovfl_seq;
	u64 count, val, en = 0, run = 0;
	unsigned int start;

	*enabled = pmd->time_enabled;
	*running = pmd->time_running;
	if (!event)
		return pmd->value;

	do {
		start = raw_read_seqcount_begin(seq);
		count = perf_event_read_value(event, &en, &run);
		val = pmd->value + (count - pmd->perf_base);
	} while (read_seqcount_retry(seq, start));
	*enabled += en;
	*running += run;
	return val;
}

/**
 * pfmk_perf_enabled() - the enabled time of a PMD's events
 * @pmd: the PMD.
 *
 * What perf_event_read_value() reports: the ns the event was enabled,
 * brought up to date if it is (an IPI to its CPU if it counts there),
 * plus what the PMD's released events were (pfmk_perf_release()).  It
 * grows only while pfmk has the event enabled: while its set is active
 * and the context started (core/sets.c times sets with it).  The cases of
 * pfmk_set_time fail if that changes: set_time_stop_start (grows by the
 * time started, not while stopped or unloaded) and set_time_hotplug (not
 * while the CPU is away).
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: the PMD's enabled ns, over all of its events.
 */
u64 pfmk_perf_enabled(struct pfmk_pmd *pmd)
{
	struct perf_event *event = pfmk_pmd_event(pmd);
	u64 en = 0, run = 0;

	lockdep_assert_held(&pmd->ctx->mutex);
	if (event)
		perf_event_read_value(event, &en, &run);
	return pmd->time_enabled + en;
}

/**
 * pfmk_perf_value_here() - a PMD's value, read without sleeping
 * @pmd: the PMD, found under RCU by the lockless read path.
 * @val: output: the 64-bit virtual value.
 *
 * The event is read on this CPU if it counts here or not at all
 * (pfmk_perf_count_here()); an event counting on another CPU cannot be
 * read here.  perf frees events after an RCU grace period, so an event
 * the caller still sees stays readable; a change of @pmd's event, value
 * or base is caught by the caller's retry on ctx->state_seq, an overflow
 * handler's by the retry on ovfl_seq here.
 *
 * An overflow handler found inside its ovfl_seq section is not waited for:
 * software events (page faults, ...) call it with interrupts on, so this
 * read, running in an IPI on that CPU, may have interrupted it, and would
 * spin there for ever.  The caller takes the locked path instead.
 *
 * Context: interrupts off, within an RCU read-side section.
 * Return: 0 with *@val set; -EREMOTE if the event is counting on another
 * CPU; -EAGAIN if an overflow handler is updating the context.
 */
int pfmk_perf_value_here(struct pfmk_pmd *pmd, u64 *val)
{
	seqcount_t *seq = &pmd->ctx->ovfl_seq;
	struct perf_event *event;
	unsigned int start;
	u64 count, v;

	lockdep_assert_irqs_disabled();
	do {
		start = raw_read_seqcount(seq);
		if (start & 1)
			return -EAGAIN;
		v = pmd->value;
		event = pfmk_pmd_event_rcu(pmd);
		if (event) {
			if (pfmk_perf_count_here(event, &count))
				return -EREMOTE;
			v += count - pmd->perf_base;
		}
	} while (read_seqcount_retry(seq, start));
	*val = v;
	return 0;
}

/**
 * pfmk_perf_sync() - fold a PMD's perf count into its value
 * @pmd: the PMD.
 *
 * Context: process context; may sleep.
 */
void pfmk_perf_sync(struct pfmk_pmd *pmd)
{
	struct perf_event *event = pfmk_pmd_event(pmd);
	u64 count, en, run;

	if (!event)
		return;
	count = perf_event_read_value(event, &en, &run);
	pfmk_ctx_write_begin(pmd->ctx);
	pmd->value += count - pmd->perf_base;
	pmd->perf_base = count;
	pfmk_ctx_write_end(pmd->ctx);
}

/**
 * pfmk_perf_set_period() - give a sampling PMD's event a new period
 * @pmd: the PMD, of a context whose events cannot overflow now (stopped,
 *	or disabled by pfmk_restart()).
 * @val: the PMD's new value; the event's period becomes its distance to
 *	the wrap.
 *
 * Counting PMDs (no event, or an event without a period) are left alone.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_perf_set_period(struct pfmk_pmd *pmd, u64 val)
{
	struct perf_event *event = pfmk_pmd_event(pmd);

	lockdep_assert_held(&pmd->ctx->mutex);
	if (event && is_sampling_event(event))
		perf_event_period(event, pfmk_pmd_period(val));
}

/**
 * pfmk_perf_release() - fold a PMD's count and release its event
 * @pmd: the PMD.
 *
 * A closed context's counts are not folded: nothing can read them.
 *
 * Context: process context; may sleep.
 */
void pfmk_perf_release(struct pfmk_pmd *pmd)
{
	struct perf_event *event = pfmk_pmd_event(pmd);
	u64 count = 0, en = 0, run = 0;
	bool fold = !pmd->ctx->dead;

	if (!event)
		return;
	if (fold)
		count = perf_event_read_value(event, &en, &run);
	pfmk_ctx_write_begin(pmd->ctx);
	if (fold)
		pmd->value += count - pmd->perf_base;
	pmd->perf_base = 0;
	pfmk_pmd_set_event(pmd, NULL);
	pfmk_ctx_write_end(pmd->ctx);
	pmd->time_enabled += en;
	pmd->time_running += run;
	/* Lockless readers may still look at it: perf frees it after RCU. */
	pfmk_perf_destroy(event);
}

/*
 * The PMDs a load asks the description about: those whose PMC was written,
 * and those not off by default.  Any other PMD is programmed by its
 * default value, which left it unused when the description registered
 * (pfmk_pmd_dfl_off()): a load of a description of 64 PMCs, of which the
 * client wrote two, visits two PMDs, not 64.  Where a written PMC programs
 * other PMDs (pfmk_pmc_is_shared()), every PMD is visited.
 */
static void pfmk_perf_pmds_to_load(const struct pfmk_set *set,
				   const struct pfmk_pmu_desc *pmu,
				   unsigned long *todo)
{
	unsigned int j, n = pmu->num_pmcs;

	/* Without ->pmd_pmc(), PMC n programs PMD n alone. */
	if (pmu->pmd_pmc) {
		for_each_set_bit(j, set->pmcs_written, n) {
			if (pfmk_pmc_is_shared(pmu, j, set->pmcs[j])) {
				bitmap_fill(todo, n);
				return;
			}
		}
	}
	pfmk_pmds_dfl_on(pmu, todo);
	bitmap_or(todo, todo, set->pmcs_written, n);
}

/**
 * pfmk_perf_load_set() - create the events of a set's used PMDs
 * @set: the set, without events (loading, or re-arming after a CPU left).
 * @pmu: the context's PMU description.
 * @cpu: CPU to count on.
 *
 * Context: process context; may sleep.
 * Return: 0, or the first error of pfmk_perf_create(); no event is left
 * behind on error.
 */
int pfmk_perf_load_set(struct pfmk_set *set, const struct pfmk_pmu_desc *pmu,
		       int cpu)
{
	DECLARE_BITMAP(todo, PFM_MAX_HW_PMDS);
	unsigned int i;

	pfmk_perf_pmds_to_load(set, pmu, todo);
	for_each_set_bit(i, todo, pmu->num_pmcs) {
		struct perf_event *event;

		event = pfmk_perf_create(pmu, i, pfmk_pmd_pmc(pmu, i, set->pmcs),
					 set->pmcs, cpu, &set->pmds[i],
					 &set->pmds[i]);
		if (IS_ERR(event)) {
			pfmk_perf_unload_set(set, i);
			return PTR_ERR(event);
		}
		/* Unused PMD: it has no event and a base of 0 already. */
		if (!event)
			continue;
		pfmk_ctx_write_begin(set->pmds[i].ctx);
		pfmk_pmd_set_event(&set->pmds[i], event);
		set->pmds[i].perf_base = 0;
		pfmk_ctx_write_end(set->pmds[i].ctx);
		pfmk_set_event_added(set, i);
	}
	return 0;
}

/**
 * pfmk_perf_unload_set() - fold and release the events of a set
 * @set: the set.
 * @nregs: number of PMDs to release, from 0.
 *
 * Context: process context; may sleep.
 */
void pfmk_perf_unload_set(struct pfmk_set *set, unsigned int nregs)
{
	unsigned int i, n = min(nregs, set->ev_span);

	for (i = 0; i < n; i++)
		pfmk_perf_release(&set->pmds[i]);
	/* Every PMD, or on a failed load every one that had an event. */
	if (nregs >= set->ev_span)
		set->ev_span = 0;
}
