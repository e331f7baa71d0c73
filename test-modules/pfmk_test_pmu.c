// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_test_pmu: a deterministic perf PMU and its pfmk PMU description.
 *
 * The perf PMU "pfmk_test" has CPU-bound events that advance only when a
 * test calls pfmk_test_pmu_tick(), so tests can assert exact counts.  The
 * pfmk PMU description "pfmk_test" programs contexts with it.  The
 * encodings are documented in pfmk_test_pmu.h.
 *
 * Each CPU keeps the list of its started events.  ->add, ->del, ->start
 * and ->stop run on the event's CPU with interrupts disabled, and so does
 * the tick, which runs as a hard irq_work on the CPU: the list needs no
 * lock.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/irq_regs.h>
#include <pfmk/compat.h>
#include <pfmk/ns.h>
#include <pfmk/pmu.h>

#include "pfmk_test_pmu.h"
#include "pfmk_test_pmu_cb.h"

/**
 * struct pfmk_test_event - state of one event, in &perf_event.pmu_private
 * @node: entry in its CPU's list of started events; empty while stopped.
 * @event: the perf event.
 * @step: STEP of the event (attr.config bits 15..0).
 * @ovfl_pending: its period ran out in the current chunk of a tick.
 */
struct pfmk_test_event {
	struct list_head	node;
	struct perf_event	*event;
	u64			step;
	bool			ovfl_pending;
};

/**
 * struct pfmk_test_cpu - the started events of one CPU
 * @started: list of &pfmk_test_event.node.
 * @nr_started: number of entries of @started.
 */
struct pfmk_test_cpu {
	struct list_head	started;
	unsigned int		nr_started;
};

static DEFINE_PER_CPU(struct pfmk_test_cpu, pfmk_test_cpus);

static struct pmu pfmk_test_pmu;

static void pfmk_test_tick_work_fn(struct irq_work *work);

/* One tick at a time: the mutex protects the irq_work and its argument. */
static DEFINE_MUTEX(pfmk_test_tick_lock);
static u64 pfmk_test_tick_ticks;
static struct irq_work pfmk_test_tick_work =
	IRQ_WORK_INIT_HARD(pfmk_test_tick_work_fn);

static int pfmk_test_event_init(struct perf_event *event)
{
	u64 config = event->attr.config;
	struct pfmk_test_event *te;

	if (event->attr.type != pfmk_test_pmu.type)
		return -ENOENT;
	if (event->cpu < 0)
		return -EINVAL;
	if ((config & ~PFMK_TEST_CONFIG_STEP) || !config)
		return -EINVAL;
	if (event->attr.freq || event->attr.sigtrap)
		return -EINVAL;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	te = pfmk_kzalloc_obj(*te, GFP_KERNEL);
	if (!te)
		return -ENOMEM;
	INIT_LIST_HEAD(&te->node);
	te->event = event;
	te->step = config;
	event->pmu_private = te;
	event->destroy = pfmk_test_pmu_destroy;
	return 0;
}

/* Reload the period of a sampling event if the last one ran out. */
static void pfmk_test_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 period = hwc->sample_period;
	s64 left = local64_read(&hwc->period_left);

	if (left > 0)
		return;
	if (left <= -period)
		left = period;
	else
		left += period;
	hwc->last_period = period;
	local64_set(&hwc->period_left, left);
}

static void pfmk_test_start(struct perf_event *event, int flags)
{
	struct pfmk_test_cpu *tc = this_cpu_ptr(&pfmk_test_cpus);
	struct pfmk_test_event *te = event->pmu_private;

	if (!(event->hw.state & PERF_HES_STOPPED))
		return;
	if (is_sampling_event(event))
		pfmk_test_set_period(event);
	te->ovfl_pending = false;
	event->hw.state = 0;
	list_add_tail(&te->node, &tc->started);
	tc->nr_started++;
}

static void pfmk_test_stop(struct perf_event *event, int flags)
{
	struct pfmk_test_cpu *tc = this_cpu_ptr(&pfmk_test_cpus);
	struct pfmk_test_event *te = event->pmu_private;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	list_del_init(&te->node);
	tc->nr_started--;
	/* The count lives in event->count: always up to date. */
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/* Ticks until a started sampling event's period runs out (at least 1). */
static u64 pfmk_test_ticks_to_ovfl(const struct pfmk_test_event *te)
{
	s64 left = local64_read(&te->event->hw.period_left);

	return left > 0 ? div64_u64(left + te->step - 1, te->step) : 1;
}

/*
 * One overflow of a sampling event whose period ran out: the handler runs
 * first, then the next period starts from hw.sample_period, which the
 * handler may have changed (pfmk's short reset).  What the tick added
 * beyond the end of the period carries over, modulo the period: like an
 * hrtimer that keeps to its grid, one interrupt covers every period the
 * tick went through, and the periods skipped are the handler's to notice.
 */
static void pfmk_test_overflow(struct pfmk_test_event *te,
			       struct pt_regs *regs)
{
	struct perf_event *event = te->event;
	struct hw_perf_event *hwc = &event->hw;
	u64 past = -local64_read(&hwc->period_left);
	perf_overflow_handler_t handler;
	struct perf_sample_data data;
	u64 rem;

	perf_sample_data_init(&data, 0, hwc->last_period);
	handler = READ_ONCE(event->overflow_handler);
	handler(event, &data, regs);
	hwc->last_period = hwc->sample_period;
	div64_u64_rem(past, hwc->sample_period, &rem);
	local64_set(&hwc->period_left, hwc->sample_period - rem);
}

/*
 * Advance every started event of this CPU by @ticks, all together: in
 * chunks that end where the next sampling event overflows, so that the
 * other events have counted the same ticks when its handler runs.
 * Handlers may stop events (taking them off @tc->started) or start some.
 */
static void pfmk_test_tick_work_fn(struct irq_work *work)
{
	struct pfmk_test_cpu *tc = this_cpu_ptr(&pfmk_test_cpus);
	u64 n, ticks = READ_ONCE(pfmk_test_tick_ticks);
	struct pfmk_test_event *te;
	struct pt_regs *regs, caller_regs;
	bool again;

	regs = get_irq_regs();
	if (!regs) {
		memset(&caller_regs, 0, sizeof(caller_regs));
		perf_fetch_caller_regs(&caller_regs);
		regs = &caller_regs;
	}

	while (ticks) {
		n = ticks;
		list_for_each_entry(te, &tc->started, node)
			if (is_sampling_event(te->event))
				n = min(n, pfmk_test_ticks_to_ovfl(te));

		list_for_each_entry(te, &tc->started, node) {
			local64_add(n * te->step, &te->event->count);
			te->ovfl_pending = false;
			if (!is_sampling_event(te->event))
				continue;
			local64_sub(n * te->step, &te->event->hw.period_left);
			te->ovfl_pending =
				local64_read(&te->event->hw.period_left) <= 0;
		}
		ticks -= n;

		/* Rescan after each handler: it may change the list. */
		do {
			again = false;
			list_for_each_entry(te, &tc->started, node) {
				if (!te->ovfl_pending)
					continue;
				te->ovfl_pending = false;
				pfmk_test_overflow(te, regs);
				again = true;
				break;
			}
		} while (again);
	}
}

static void pfmk_test_tick_queue(void *info)
{
	/* Runs on the target CPU: run the tick in hard-irq context there. */
	irq_work_queue(&pfmk_test_tick_work);
}

/**
 * pfmk_test_pmu_tick() - advance the test PMU's counters on one CPU
 * @cpu: the CPU.
 * @ticks: number of ticks.
 *
 * Adds @ticks times STEP to the count of every "pfmk_test" event added and
 * started on @cpu, and runs the overflow handler of sampling events whose
 * period runs out, in hard-irq context on @cpu.  Returns when done.  Does
 * nothing if @cpu is not an online CPU.
 *
 * Context: process context; may sleep.
 */
void pfmk_test_pmu_tick(int cpu, u64 ticks)
{
	might_sleep();
	if (cpu < 0 || cpu >= nr_cpu_ids || !ticks)
		return;

	cpus_read_lock();
	mutex_lock(&pfmk_test_tick_lock);
	if (cpu_online(cpu)) {
		WRITE_ONCE(pfmk_test_tick_ticks, ticks);
		if (!smp_call_function_single(cpu, pfmk_test_tick_queue,
					      NULL, 1))
			irq_work_sync(&pfmk_test_tick_work);
	}
	mutex_unlock(&pfmk_test_tick_lock);
	cpus_read_unlock();
}
EXPORT_SYMBOL_GPL(pfmk_test_pmu_tick);

static void pfmk_test_nr_active_fn(void *info)
{
	*(unsigned int *)info = this_cpu_read(pfmk_test_cpus.nr_started);
}

/**
 * pfmk_test_pmu_nr_active() - number of test PMU events counting on a CPU
 * @cpu: the CPU.
 *
 * Context: process context.
 * Return: the number of "pfmk_test" events currently added and started on
 * @cpu; 0 if @cpu is not an online CPU.
 */
unsigned int pfmk_test_pmu_nr_active(int cpu)
{
	unsigned int nr = 0;

	if (cpu < 0 || cpu >= nr_cpu_ids)
		return 0;
	if (smp_call_function_single(cpu, pfmk_test_nr_active_fn, &nr, 1))
		return 0;
	return nr;
}
EXPORT_SYMBOL_GPL(pfmk_test_pmu_nr_active);

/**
 * pfmk_test_pmu_period_left() - what a sampling event has left of its period
 * @event: a "pfmk_test" sampling event.
 *
 * The test PMU keeps its events' periods: a test asks it, not perf's
 * hw state.
 *
 * Return: the event's hw.period_left (after an overflow, what the next
 * period has left once the ticks past the last one carried over).
 */
s64 pfmk_test_pmu_period_left(struct perf_event *event)
{
	return local64_read(&event->hw.period_left);
}
EXPORT_SYMBOL_GPL(pfmk_test_pmu_period_left);

/**
 * pfmk_test_pmu_type() - perf type of the test PMU
 *
 * Return: the dynamic perf_event_attr.type of the "pfmk_test" PMU.
 */
int pfmk_test_pmu_type(void)
{
	return pfmk_test_pmu.type;
}
EXPORT_SYMBOL_GPL(pfmk_test_pmu_type);

/**
 * pfmk_test_hw_cycles_expected() - what loading a hardware cycles event gives
 * @cpu: the CPU.
 *
 * Not about the test PMU, but shared by the tests that load it: asks perf
 * directly.  If it can count CPU cycles on @cpu, a pfmk load must succeed;
 * if perf has no PMU for the event (-ENOENT), the load must fail with
 * -EOPNOTSUPP; another perf error must come back as is.
 *
 * Context: process context; may sleep.
 * Return: the errno pfmk_load_context() must return, or 0.
 */
int pfmk_test_hw_cycles_expected(int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.size = sizeof(attr),
		.disabled = 1,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(event))
		return PTR_ERR(event) == -ENOENT ? -EOPNOTSUPP : PTR_ERR(event);
	perf_event_release_kernel(event);
	return 0;
}
EXPORT_SYMBOL_GPL(pfmk_test_hw_cycles_expected);

PMU_FORMAT_ATTR(step, "config:0-15");

static struct attribute *pfmk_test_format_attrs[] = {
	&format_attr_step.attr,
	NULL,
};

static const struct attribute_group pfmk_test_format_group = {
	.name = "format",
	.attrs = pfmk_test_format_attrs,
};

static const struct attribute_group *pfmk_test_attr_groups[] = {
	&pfmk_test_format_group,
	NULL,
};

static struct pmu pfmk_test_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
	.attr_groups	= pfmk_test_attr_groups,
	.event_init	= pfmk_test_event_init,
	.add		= pfmk_test_pmu_add,
	.del		= pfmk_test_pmu_del,
	.start		= pfmk_test_start,
	.stop		= pfmk_test_stop,
	.read		= pfmk_test_pmu_read,	/* ticks add to event->count */
};

/* The pfmk PMU description. */

static int pfmk_test_pmc_check(const struct pfmk_pmu_desc *desc,
			       unsigned int reg, u64 val)
{
	if ((val & PFMK_TEST_PMC_EN) && !(val & PFMK_TEST_PMC_STEP))
		return -EINVAL;
	return 0;
}

static struct pfmk_test_hold *pfmk_test_hold;

/**
 * pfmk_test_pmu_hold_next_load() - block the next event creation
 * @hold: the next pmc_to_attr() call completes @hold->entered, then waits
 *	for @hold->release (at most 30 s); NULL disarms.
 *
 * pmc_to_attr() runs under the context's mutex (at load, for each PMD
 * whose PMC was written, or at a write_pmcs of a loaded context; also at
 * registration, without a context): tests use this to hold that mutex
 * while other calls on the context contend for it.
 *
 * Return: the hold that was armed and not taken, if any.
 */
struct pfmk_test_hold *pfmk_test_pmu_hold_next_load(struct pfmk_test_hold *hold)
{
	return xchg(&pfmk_test_hold, hold);
}
EXPORT_SYMBOL_GPL(pfmk_test_pmu_hold_next_load);

static int pfmk_test_pmc_to_attr(const struct pfmk_pmu_desc *desc,
				 unsigned int reg, u64 val,
				 struct perf_event_attr *attr)
{
	struct pfmk_test_hold *hold = NULL;

	/* Read first: loads (and make bench) pay no atomic when unarmed. */
	if (unlikely(READ_ONCE(pfmk_test_hold)))
		hold = xchg(&pfmk_test_hold, NULL);
	if (hold) {
		complete(&hold->entered);
		wait_for_completion_timeout(&hold->release, 30 * HZ);
	}
	if (!(val & PFMK_TEST_PMC_EN))
		return PFMK_PMC_OFF;
	if (!(val & PFMK_TEST_PMC_STEP) || (val & PFMK_TEST_PMC_RSVD))
		return -EINVAL;
	attr->type = pfmk_test_pmu.type;
	attr->config = val & PFMK_TEST_PMC_STEP;
	return 0;
}

#define PFMK_TEST_REG(n) \
	{ .name = "PMC" #n, .dfl_val = 0, .rsvd_msk = PFMK_TEST_PMC_RSVD }

static const struct pfmk_reg_desc pfmk_test_pmcs[PFMK_TEST_NUM_PMCS] = {
	PFMK_TEST_REG(0), PFMK_TEST_REG(1), PFMK_TEST_REG(2), PFMK_TEST_REG(3),
	PFMK_TEST_REG(4), PFMK_TEST_REG(5), PFMK_TEST_REG(6), PFMK_TEST_REG(7),
};

static struct pfmk_pmu_desc pfmk_test_desc = {
	.name		= PFMK_TEST_PMU_NAME,
	.owner		= THIS_MODULE,
	.num_pmcs	= PFMK_TEST_NUM_PMCS,
	.pmc_desc	= pfmk_test_pmcs,
	.pmc_check	= pfmk_test_pmc_check,
	.pmc_to_attr	= pfmk_test_pmc_to_attr,
};

static int __init pfmk_test_pmu_init(void)
{
	int cpu, ret;

	for_each_possible_cpu(cpu)
		INIT_LIST_HEAD(&per_cpu(pfmk_test_cpus, cpu).started);

	ret = perf_pmu_register(&pfmk_test_pmu, PFMK_TEST_PMU_NAME, -1);
	if (ret) {
		pr_err("perf_pmu_register() failed: %d\n", ret);
		return ret;
	}
	ret = pfmk_pmu_register(&pfmk_test_desc);
	if (ret) {
		pr_err("pfmk_pmu_register() failed: %d\n", ret);
		perf_pmu_unregister(&pfmk_test_pmu);
		return ret;
	}
	return 0;
}

static void __exit pfmk_test_pmu_exit(void)
{
	pfmk_pmu_unregister(&pfmk_test_desc);
	perf_pmu_unregister(&pfmk_test_pmu);
}

module_init(pfmk_test_pmu_init);
module_exit(pfmk_test_pmu_exit);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk deterministic test PMU and PMU description");
MODULE_LICENSE("GPL");
