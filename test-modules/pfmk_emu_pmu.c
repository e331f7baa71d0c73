// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_emu_pmu: an emulated x86 core PMU for machines that have none
 * (see pfmk_emu_pmu.h for what it emulates and how tests drive it).
 *
 * Like x86 perf: a 48-bit counter programmed with -left of the period
 * (x86_perf_event_set_period()), its count folded into event->count by
 * the difference of two readings (x86_perf_event_update()), and an
 * overflow interrupt that reloads the period before it calls the event's
 * overflow handler.  The interrupt is a real NMI: the emulated counter's
 * wrap sends an NMI IPI to its own CPU through the local APIC, and the
 * NMI_LOCAL handler registered here does the work.
 *
 * Locking: a CPU's counters (struct pfmk_emu_cpu) are touched only on
 * that CPU, by perf's ->add/->del/->start/->stop/->read (interrupts off),
 * by the tick (an irq_work) and by the NMI handler, which can interrupt
 * the others: slots are published with WRITE_ONCE() and an event's state
 * is freed only after ->del.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/irq_regs.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>
#include <pfmk/compat.h>
#include <pfmk/ns.h>
#include <pfmk/x86.h>

#include "../pmu/compat_internal.h"
#include "pfmk_emu_pmu.h"
#include "pfmk_test_pmu_cb.h"

#define EMU_MASK		GENMASK_ULL(PFMK_EMU_WIDTH - 1, 0)
#define EMU_MAX_PERIOD		(EMU_MASK >> 1)
#define EMU_NR_SLOTS		(PFMK_EMU_MAX_GP + PFMK_EMU_NR_FIXED)
#define EMU_FIXED_SLOT(i)	(PFMK_EMU_MAX_GP + (i))

/* x86 raw config fields. */
#define EMU_SEL_CODE		GENMASK_ULL(15, 0)
#define EMU_SEL_EDGE		BIT_ULL(18)
#define EMU_SEL_INV		BIT_ULL(23)
#define EMU_SEL_CMASK		GENMASK_ULL(31, 24)
#define EMU_RAW_MASK		(EMU_SEL_CODE | EMU_SEL_EDGE | EMU_SEL_INV | \
				 EMU_SEL_CMASK)

static unsigned int nr_gp = 4;
module_param(nr_gp, uint, 0444);
MODULE_PARM_DESC(nr_gp, "general counters, 1 to 8 (default 4)");

/*
 * Free-running mode, for demos (make demo): a per-CPU timer ticks the
 * CPU's counters run_hz times a second, run_scale ticks at a time, in the
 * mode the timer interrupted, and not while the CPU idles (an idle CPU
 * is halted: no core cycles).  Off (0) for tests, which tick exactly.
 */
static unsigned int run_hz;
module_param(run_hz, uint, 0444);
MODULE_PARM_DESC(run_hz, "free-running ticks per second and CPU, 0 (tests drive the counters) to 10000");

static unsigned int run_scale = 250000;
module_param(run_scale, uint, 0444);
MODULE_PARM_DESC(run_scale, "units of work per free-running tick, 1 to 1000000 (default 250000: 1 GHz of cycles at 1000 Hz)");

/**
 * struct pfmk_emu_code - an event code the emulated PMU counts
 * @code: umask << 8 | event select.
 * @inc: increment per tick.
 * @fixed: the fixed counter that can count it, or -1.
 * @fixed_only: it cannot go on a general counter.
 */
struct pfmk_emu_code {
	u16	code;
	u8	inc;
	s8	fixed;
	bool	fixed_only;
};

static const struct pfmk_emu_code pfmk_emu_codes[] = {
	{ PFMK_EMU_INSTR,	PFMK_EMU_INC_INSTR,	0, false },
	{ PFMK_EMU_CYCLES,	PFMK_EMU_INC_CYCLES,	1, false },
	{ PFMK_EMU_REF_TSC,	PFMK_EMU_INC_REF_TSC,	2, true },
	{ PFMK_EMU_BUS_CYCLES,	PFMK_EMU_INC_BUS,	-1, false },
	{ PFMK_EMU_LLC_REF,	PFMK_EMU_INC_LLC_REF,	-1, false },
	{ PFMK_EMU_LLC_MISS,	PFMK_EMU_INC_LLC_MISS,	-1, false },
	{ PFMK_EMU_BRANCH,	PFMK_EMU_INC_BRANCH,	-1, false },
	{ PFMK_EMU_BR_MISS,	PFMK_EMU_INC_BR_MISS,	-1, false },
};

/* The generic hardware events, as x86 perf maps them on Intel. */
static const u16 pfmk_emu_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= PFMK_EMU_CYCLES,
	[PERF_COUNT_HW_INSTRUCTIONS]		= PFMK_EMU_INSTR,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= PFMK_EMU_LLC_REF,
	[PERF_COUNT_HW_CACHE_MISSES]		= PFMK_EMU_LLC_MISS,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= PFMK_EMU_BRANCH,
	[PERF_COUNT_HW_BRANCH_MISSES]		= PFMK_EMU_BR_MISS,
	[PERF_COUNT_HW_BUS_CYCLES]		= PFMK_EMU_BUS_CYCLES,
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= PFMK_EMU_REF_TSC,
};

/**
 * struct pfmk_emu_event - an event's emulated counter
 * @event: the perf event.
 * @ec: what it counts.
 * @cmask: counter mask (0: count increments).
 * @inv: invert the cmask comparison.
 * @edge: count only the first tick of a run that meets the cmask.
 * @last: the previous tick met the cmask (for @edge).
 * @ctr: the 48-bit counter.
 */
struct pfmk_emu_event {
	struct perf_event		*event;
	const struct pfmk_emu_code	*ec;
	u8				cmask;
	bool				inv;
	bool				edge;
	bool				last;
	u64				ctr;
};

/**
 * struct pfmk_emu_cpu - one CPU's counters
 * @slot: general counters 0..7, then the fixed counters.
 * @pending: slots whose counter wrapped, for the NMI handler.
 * @nmis: NMIs handled.
 * @throttles: events stopped because perf throttled them.
 * @tick_regs: free-running mode: the registers the timer interrupted,
 *	reported by the overflow NMI as the sampled context (on hardware the
 *	NMI interrupts the code that made the counter wrap), or NULL.
 * @timer: free-running mode: the tick.
 */
struct pfmk_emu_cpu {
	struct pfmk_emu_event	*slot[EMU_NR_SLOTS];
	unsigned long		pending;
	u64			nmis;
	u64			throttles;
	struct pt_regs		*tick_regs;
	struct hrtimer		timer;
};

static DEFINE_PER_CPU(struct pfmk_emu_cpu, pfmk_emu_cpus);
static bool pfmk_emu_saw_nmi;
static struct pmu pfmk_emu_pmu;

static const struct pfmk_emu_code *pfmk_emu_find(u16 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pfmk_emu_codes); i++)
		if (pfmk_emu_codes[i].code == code)
			return &pfmk_emu_codes[i];
	return NULL;
}

/* The raw config of an event, as x86 perf would program it. */
static int pfmk_emu_config(struct perf_event *event, u64 *config)
{
	u64 c = event->attr.config;

	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
		if (c >= PERF_COUNT_HW_MAX || !pfmk_emu_hw_map[c])
			return -ENOENT;
		*config = pfmk_emu_hw_map[c];
		return 0;
	case PERF_TYPE_HW_CACHE:
		/* LL read accesses and misses, as on Intel. */
		if ((c & 0xff) != PERF_COUNT_HW_CACHE_LL ||
		    ((c >> 8) & 0xff) != PERF_COUNT_HW_CACHE_OP_READ)
			return -ENOENT;
		switch (c >> 16) {
		case PERF_COUNT_HW_CACHE_RESULT_ACCESS:
			*config = PFMK_EMU_LLC_REF;
			return 0;
		case PERF_COUNT_HW_CACHE_RESULT_MISS:
			*config = PFMK_EMU_LLC_MISS;
			return 0;
		}
		return -ENOENT;
	case PERF_TYPE_RAW:
		if (c & ~EMU_RAW_MASK)
			return -EINVAL;
		*config = c;
		return 0;
	}
	return -ENOENT;
}

static int pfmk_emu_event_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	const struct pfmk_emu_code *ec;
	struct pfmk_emu_event *ee;
	u64 config;
	int ret;

	if (event->attr.type != PERF_TYPE_RAW &&
	    event->attr.type != PERF_TYPE_HARDWARE &&
	    event->attr.type != PERF_TYPE_HW_CACHE)
		return -ENOENT;
	ret = pfmk_emu_config(event, &config);
	if (ret)
		return ret;
	ec = pfmk_emu_find(config & EMU_SEL_CODE);
	if (!ec)
		return -ENOENT;
	if (event->cpu < 0 || event->attr.freq || event->attr.sigtrap)
		return -EINVAL;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	ee = pfmk_kzalloc_obj(*ee, GFP_KERNEL);
	if (!ee)
		return -ENOMEM;
	ee->event = event;
	ee->ec = ec;
	ee->cmask = (config & EMU_SEL_CMASK) >> 24;
	ee->inv = config & EMU_SEL_INV;
	ee->edge = config & EMU_SEL_EDGE;
	event->pmu_private = ee;
	event->destroy = pfmk_test_pmu_destroy;
	hwc->idx = -1;
	hwc->config = config;
	if (!is_sampling_event(event)) {
		hwc->sample_period = EMU_MAX_PERIOD;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
	return 0;
}

/* Fold the counter into event->count (x86_perf_event_update()). */
static void pfmk_emu_update(struct pfmk_emu_event *ee)
{
	struct hw_perf_event *hwc = &ee->event->hw;
	u64 prev = local64_read(&hwc->prev_count);
	u64 now = READ_ONCE(ee->ctr);
	u64 delta = (now - prev) & EMU_MASK;

	local64_set(&hwc->prev_count, now);
	local64_add(delta, &ee->event->count);
	local64_sub(delta, &hwc->period_left);
}

/* Program -left of the period (x86_perf_event_set_period()). */
static void pfmk_emu_set_period(struct pfmk_emu_event *ee)
{
	struct hw_perf_event *hwc = &ee->event->hw;
	s64 left = local64_read(&hwc->period_left);
	s64 period = hwc->sample_period;

	if (left <= -period) {
		left = period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
	}
	if (left <= 0) {
		left += period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
	}
	if (left > (s64)EMU_MAX_PERIOD)
		left = EMU_MAX_PERIOD;
	local64_set(&hwc->prev_count, (u64)-left & EMU_MASK);
	WRITE_ONCE(ee->ctr, (u64)-left & EMU_MASK);
}

static void pfmk_emu_start(struct perf_event *event, int flags)
{
	struct pfmk_emu_event *ee = event->pmu_private;

	if (!(event->hw.state & PERF_HES_STOPPED))
		return;
	if (flags & PERF_EF_RELOAD)
		pfmk_emu_set_period(ee);
	ee->last = false;
	event->hw.state = 0;
}

static void pfmk_emu_stop(struct perf_event *event, int flags)
{
	struct pfmk_emu_event *ee = event->pmu_private;
	struct hw_perf_event *hwc = &event->hw;

	hwc->state |= PERF_HES_STOPPED;
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		pfmk_emu_update(ee);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

/* A free counter that can count @ee: its fixed one first, as x86 perf. */
static int pfmk_emu_pick(struct pfmk_emu_cpu *c, struct pfmk_emu_event *ee)
{
	unsigned int i;

	if (ee->ec->fixed >= 0 && !ee->cmask && !ee->edge && !ee->inv &&
	    !c->slot[EMU_FIXED_SLOT(ee->ec->fixed)])
		return EMU_FIXED_SLOT(ee->ec->fixed);
	if (ee->ec->fixed_only)
		return -EAGAIN;
	for (i = 0; i < nr_gp; i++)
		if (!c->slot[i])
			return i;
	return -EAGAIN;
}

static int pfmk_emu_add(struct perf_event *event, int flags)
{
	struct pfmk_emu_cpu *c = this_cpu_ptr(&pfmk_emu_cpus);
	struct pfmk_emu_event *ee = event->pmu_private;
	int idx = pfmk_emu_pick(c, ee);

	if (idx < 0)
		return idx;	/* no counter: perf leaves it unscheduled */
	event->hw.idx = idx;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	WRITE_ONCE(c->slot[idx], ee);
	if (flags & PERF_EF_START)
		pfmk_emu_start(event, PERF_EF_RELOAD);
	return 0;
}

static void pfmk_emu_del(struct perf_event *event, int flags)
{
	struct pfmk_emu_cpu *c = this_cpu_ptr(&pfmk_emu_cpus);
	int idx = event->hw.idx;

	pfmk_emu_stop(event, PERF_EF_UPDATE);
	if (idx < 0)
		return;
	WRITE_ONCE(c->slot[idx], NULL);
	clear_bit(idx, &c->pending);
	event->hw.idx = -1;
}

static void pfmk_emu_read(struct perf_event *event)
{
	pfmk_emu_update(event->pmu_private);
}

/* The NMI of the counters that wrapped. */
static int pfmk_emu_nmi(unsigned int cmd, struct pt_regs *regs)
{
	struct pfmk_emu_cpu *c = this_cpu_ptr(&pfmk_emu_cpus);
	unsigned long pending = xchg(&c->pending, 0);
	struct perf_sample_data data;
#ifndef PFMK_HAVE_PERF_EVENT_OVERFLOW
	perf_overflow_handler_t handler;
#endif
	struct pfmk_emu_event *ee;
	struct perf_event *event;
	unsigned int bit;

	if (!pending)
		return NMI_DONE;
	c->nmis++;
	if (c->tick_regs)
		regs = c->tick_regs;
	if (in_nmi())
		WRITE_ONCE(pfmk_emu_saw_nmi, true);
	for_each_set_bit(bit, &pending, EMU_NR_SLOTS) {
		ee = READ_ONCE(c->slot[bit]);
		if (!ee)
			continue;
		event = ee->event;
		if (event->hw.state & PERF_HES_STOPPED)
			continue;
		pfmk_emu_update(ee);
		perf_sample_data_init(&data, 0, event->hw.last_period);
		pfmk_emu_set_period(ee);
		if (!is_sampling_event(event))
			continue;
#ifdef PFMK_HAVE_PERF_EVENT_OVERFLOW
		/*
		 * As x86_pmu_handle_irq(): perf counts the interrupt, calls
		 * the overflow handler and, past max_samples_per_tick in
		 * one tick, throttles: the PMU stops the event until perf
		 * starts it again at a later tick.
		 */
		if (perf_event_overflow(event, &data, regs)) {
			pfmk_emu_stop(event, 0);
			c->throttles++;
		}
#else
		/*
		 * perf_event_overflow() is not exported (stock kernels): call
		 * the handler as it would, without perf's throttling.
		 */
		handler = READ_ONCE(event->overflow_handler);
		if (handler)
			handler(event, &data, regs);
#endif
	}
	return NMI_HANDLED;
}

/* The increment of @ee over @n ticks in a mode it counts. */
static u64 pfmk_emu_inc(struct pfmk_emu_event *ee, u64 n)
{
	bool met;

	if (!ee->cmask)
		return ee->ec->inc * n;
	met = ee->inv ? ee->ec->inc < ee->cmask : ee->ec->inc >= ee->cmask;
	if (ee->edge) {
		bool first = met && !ee->last;

		ee->last = met;
		return first;
	}
	return met * n;
}

/* Raise the NMI of wrapped counters and wait until it was handled. */
static void pfmk_emu_raise(struct pfmk_emu_cpu *c)
{
	unsigned int spins = 0;

	apic->send_IPI(smp_processor_id(), NMI_VECTOR);
	while (READ_ONCE(c->pending) && spins++ < 1000000)
		cpu_relax();
	if (READ_ONCE(c->pending))
		pr_warn_once("CPU%d: emulated overflow NMI not delivered\n",
			     smp_processor_id());
}

/*
 * @n ticks in user (@user) or kernel mode on this CPU, at once: a counter
 * that wraps raises one NMI, however far past the wrap it went.
 */
static void pfmk_emu_tick_n(struct pfmk_emu_cpu *c, bool user, u64 n)
{
	struct pfmk_emu_event *ee;
	unsigned int i;
	u64 v;

	for (i = 0; i < EMU_NR_SLOTS; i++) {
		ee = c->slot[i];
		if (!ee || (ee->event->hw.state & PERF_HES_STOPPED))
			continue;
		if (user ? ee->event->attr.exclude_user :
			   ee->event->attr.exclude_kernel)
			continue;
		v = ee->ctr + pfmk_emu_inc(ee, n);
		if (v > EMU_MASK)
			set_bit(i, &c->pending);
		WRITE_ONCE(ee->ctr, v & EMU_MASK);
	}
	if (READ_ONCE(c->pending))
		pfmk_emu_raise(c);
}

/**
 * pfmk_emu_tick_local() - count kernel-mode ticks on this CPU, now
 * @kernel: ticks of kernel-mode work.
 *
 * For tests that need an overflow NMI at a chosen point (a nested
 * overflow, from inside another overflow handler); pfmk_emu_tick() is the
 * usual way.
 *
 * Context: hard-irq context or interrupts disabled, not NMI.
 */
void pfmk_emu_tick_local(u64 kernel)
{
	struct pfmk_emu_cpu *c = this_cpu_ptr(&pfmk_emu_cpus);

	lockdep_assert_irqs_disabled();
	while (kernel--)
		pfmk_emu_tick_n(c, false, 1);
}
EXPORT_SYMBOL_GPL(pfmk_emu_tick_local);

static DEFINE_MUTEX(pfmk_emu_tick_lock);
static u64 pfmk_emu_tick_user, pfmk_emu_tick_kernel;

static void pfmk_emu_tick_fn(struct irq_work *work)
{
	struct pfmk_emu_cpu *c = this_cpu_ptr(&pfmk_emu_cpus);
	u64 i;

	for (i = 0; i < pfmk_emu_tick_user; i++)
		pfmk_emu_tick_n(c, true, 1);
	for (i = 0; i < pfmk_emu_tick_kernel; i++)
		pfmk_emu_tick_n(c, false, 1);
}

static struct irq_work pfmk_emu_tick_work = IRQ_WORK_INIT_HARD(pfmk_emu_tick_fn);

static void pfmk_emu_tick_queue(void *info)
{
	irq_work_queue(&pfmk_emu_tick_work);
}

/**
 * pfmk_emu_tick() - let a CPU's emulated counters count
 * @cpu: the CPU.
 * @user: ticks of user-mode work, first.
 * @kernel: ticks of kernel-mode work, then.
 *
 * Runs the ticks on @cpu in hard-irq context; each wrap raises its NMI,
 * which is handled before the next tick.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL for a bad @cpu; -ENXIO if @cpu is offline.
 */
int pfmk_emu_tick(int cpu, u64 user, u64 kernel)
{
	int ret = -ENXIO;

	might_sleep();
	if (cpu < 0 || cpu >= nr_cpu_ids)
		return -EINVAL;
	cpus_read_lock();
	mutex_lock(&pfmk_emu_tick_lock);
	if (cpu_online(cpu)) {
		pfmk_emu_tick_user = user;
		pfmk_emu_tick_kernel = kernel;
		ret = smp_call_function_single(cpu, pfmk_emu_tick_queue, NULL,
					       1);
		if (!ret)
			irq_work_sync(&pfmk_emu_tick_work);
	}
	mutex_unlock(&pfmk_emu_tick_lock);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_emu_tick);

/**
 * pfmk_emu_nmis() - NMIs the emulated PMU handled on a CPU
 * @cpu: the CPU.
 *
 * Context: any context.
 * Return: the count, 0 for a bad @cpu.
 */
u64 pfmk_emu_nmis(int cpu)
{
	if (cpu < 0 || cpu >= nr_cpu_ids)
		return 0;
	return READ_ONCE(per_cpu(pfmk_emu_cpus, cpu).nmis);
}
EXPORT_SYMBOL_GPL(pfmk_emu_nmis);

/**
 * pfmk_emu_throttles() - overflows at which perf throttled an event
 * @cpu: the CPU.
 *
 * Context: any context.
 * Return: how often perf_event_overflow() asked the emulated PMU of @cpu
 * to stop an event; always 0 where the kernel does not export it.
 */
u64 pfmk_emu_throttles(int cpu)
{
	if (cpu < 0 || cpu >= nr_cpu_ids)
		return 0;
	return READ_ONCE(per_cpu(pfmk_emu_cpus, cpu).throttles);
}
EXPORT_SYMBOL_GPL(pfmk_emu_throttles);

/**
 * pfmk_emu_perf_overflow() - does the emulator enter perf_event_overflow()?
 *
 * Context: any context.
 * Return: true where the kernel exports perf_event_overflow() (pfmk's
 * debug kernels, patches/linux-<series>/test-only/): perf then counts,
 * and throttles, the emulated interrupts as it does a real PMU's.
 */
bool pfmk_emu_perf_overflow(void)
{
#ifdef PFMK_HAVE_PERF_EVENT_OVERFLOW
	return true;
#else
	return false;
#endif
}
EXPORT_SYMBOL_GPL(pfmk_emu_perf_overflow);

/**
 * pfmk_emu_handler_in_nmi() - did the overflow handling run in NMI context?
 *
 * Context: any context.
 * Return: true once an overflow was handled with in_nmi() true.
 */
bool pfmk_emu_handler_in_nmi(void)
{
	return READ_ONCE(pfmk_emu_saw_nmi);
}
EXPORT_SYMBOL_GPL(pfmk_emu_handler_in_nmi);

/**
 * pfmk_emu_nr_gp() - general counters of the emulated PMU
 *
 * Context: any context.
 * Return: the nr_gp module parameter.
 */
unsigned int pfmk_emu_nr_gp(void)
{
	return nr_gp;
}
EXPORT_SYMBOL_GPL(pfmk_emu_nr_gp);

static struct pmu pfmk_emu_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.event_init	= pfmk_emu_event_init,
	.add		= pfmk_emu_add,
	.del		= pfmk_emu_del,
	.start		= pfmk_emu_start,
	.stop		= pfmk_emu_stop,
	.read		= pfmk_emu_read,
};

/*
 * Free-running mode: the tick counts run_scale units of work in the mode
 * the timer interrupted, and the overflow NMI it raises samples that
 * context (tick_regs), as the NMI of a real counter samples the code that
 * made it wrap.  An idle CPU is halted and counts nothing.
 */
static enum hrtimer_restart pfmk_emu_run_tick(struct hrtimer *t)
{
	struct pfmk_emu_cpu *c = container_of(t, struct pfmk_emu_cpu, timer);
	struct pt_regs *regs = get_irq_regs();

	if (regs && !is_idle_task(current)) {
		c->tick_regs = regs;
		pfmk_emu_tick_n(c, user_mode(regs), run_scale);
		c->tick_regs = NULL;
	}
	hrtimer_forward_now(t, ns_to_ktime(NSEC_PER_SEC / run_hz));
	return HRTIMER_RESTART;
}

static enum cpuhp_state pfmk_emu_run_state;

/* CPU hotplug callbacks: they run on the CPU coming up or going down. */
static int pfmk_emu_run_online(unsigned int cpu)
{
	struct pfmk_emu_cpu *c = this_cpu_ptr(&pfmk_emu_cpus);

	pfmk_hrtimer_setup(&c->timer, pfmk_emu_run_tick, CLOCK_MONOTONIC,
			   HRTIMER_MODE_REL_PINNED_HARD);
	hrtimer_start(&c->timer, ns_to_ktime(NSEC_PER_SEC / run_hz),
		      HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

static int pfmk_emu_run_offline(unsigned int cpu)
{
	hrtimer_cancel(&this_cpu_ptr(&pfmk_emu_cpus)->timer);
	return 0;
}

/* What pfmk is told: Intel architectural perfmon v2 (fixed counters). */
static struct pfmk_x86_pmu_info pfmk_emu_info = {
	.source		= KBUILD_MODNAME,
	.vendor		= PFMK_X86_INTEL,
	.family		= 6,
	.model		= 0x0f,		/* Core 2: perfmon v2 */
	.version	= 2,
	.nr_fixed	= PFMK_EMU_NR_FIXED,
	.gp_width	= PFMK_EMU_WIDTH,
	.fixed_width	= PFMK_EMU_WIDTH,
};

static int __init pfmk_emu_init(void)
{
	struct x86_pmu_capability cap = { };
	int ret;

	if (!nr_gp || nr_gp > PFMK_EMU_MAX_GP || run_hz > 10000 ||
	    !run_scale || run_scale > 1000000)
		return -EINVAL;
	pfmk_x86_pmu_capability(&cap);
	if (cap.num_counters_gp) {
		pr_info("this kernel has an x86 core PMU (%d counters): not emulating one\n",
			cap.num_counters_gp);
		return -EEXIST;
	}
	ret = perf_pmu_register(&pfmk_emu_pmu, PFMK_EMU_NAME, PERF_TYPE_RAW);
	if (ret)
		return ret;
	if (pfmk_emu_pmu.type != PERF_TYPE_RAW) {
		/* Somebody else is the core PMU. */
		ret = -EBUSY;
		goto err_pmu;
	}
	ret = register_nmi_handler(NMI_LOCAL, pfmk_emu_nmi, 0, "pfmk_emu");
	if (ret)
		goto err_pmu;
	pfmk_emu_info.nr_gp = nr_gp;
	if (run_hz) {
		ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "pfmk_emu:run",
					pfmk_emu_run_online,
					pfmk_emu_run_offline);
		if (ret < 0)
			goto err_nmi;
		pfmk_emu_run_state = ret;
	}
	ret = pfmk_x86_pmu_announce(&pfmk_emu_info);
	if (ret)
		goto err_run;
	pr_info("emulated x86 core PMU %s: %u general + %u fixed counters, %u bits, overflows as NMIs\n",
		PFMK_EMU_NAME, nr_gp, PFMK_EMU_NR_FIXED, PFMK_EMU_WIDTH);
	if (run_hz)
		pr_info("free-running: %u ticks/s of %u units on busy CPUs (EMULATED counts, not a real CPU's)\n",
			run_hz, run_scale);
	return 0;

err_run:
	if (run_hz)
		cpuhp_remove_state(pfmk_emu_run_state);
err_nmi:
	unregister_nmi_handler(NMI_LOCAL, "pfmk_emu");
err_pmu:
	perf_pmu_unregister(&pfmk_emu_pmu);
	return ret;
}

static void __exit pfmk_emu_exit(void)
{
	pfmk_x86_pmu_retract(&pfmk_emu_info);
	if (run_hz)
		cpuhp_remove_state(pfmk_emu_run_state);
	unregister_nmi_handler(NMI_LOCAL, "pfmk_emu");
	perf_pmu_unregister(&pfmk_emu_pmu);
}

module_init(pfmk_emu_init);
module_exit(pfmk_emu_exit);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk: an emulated x86 core PMU with NMI overflows (tests)");
MODULE_LICENSE("GPL");
