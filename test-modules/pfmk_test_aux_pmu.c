// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_test_aux_pmu: a synthetic AUX PMU ("pfmk_aux_test") writing a
 * verifiable stream through perf_aux_output_begin()/end() from an hrtimer
 * or on request, and its pfmk PMU description.  See pfmk_test_aux_pmu.h
 * for the encoding and the stream.
 *
 * ->add, ->del, ->start and ->stop run on the event's CPU with interrupts
 * disabled; so do the timer (a hard, pinned hrtimer) and
 * pfmk_test_aux_write() (an IPI): an event's state and its CPU's list of
 * started events need no lock.  One AUX transaction per batch of
 * records, begun and ended in the same interrupt.
 *
 * It registers and works on any kernel; without pfmk's kernel-owned AUX
 * patch only user space (perf record) can give its events a buffer.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/irq_regs.h>
#include <pfmk/compat.h>
#include <pfmk/ns.h>
#include <pfmk/pmu.h>

#include "../pmu/compat_internal.h"
#include "pfmk_test_aux_pmu.h"
#include "pfmk_test_pmu_cb.h"

/*
 * Whether the kernel carries pfmk's kernel-owned AUX patch, as the harness
 * that built it says (scripts/mkinitramfs.sh).  The AUX tests read it
 * (pfmk_test_aux_patch() in pfmk_test_file.h) to decide what runs and what
 * skips, and check pfmk_aux_supported() against it.
 */
static int aux_patch = -1;
module_param(aux_patch, int, 0444);
MODULE_PARM_DESC(aux_patch, "the kernel carries pfmk's AUX patch: 1 or 0, set by the harness; -1: not said, the AUX tests fail");

/**
 * struct pfmk_taux_buf - the PMU's view of an AUX buffer (setup_aux)
 * @pages: the buffer's pages (the kernel's array).
 * @nr_pages: number of pages.
 * @overwrite: snapshot mode.
 */
struct pfmk_taux_buf {
	void	**pages;
	int	nr_pages;
	bool	overwrite;
};

/* Reports snapshot heads as offsets inside the buffer (Intel PT, BTS)? */
static bool pfmk_taux_offset_head(const struct perf_event *event,
				  const struct pfmk_taux_buf *buf)
{
	return buf->overwrite && (event->attr.config & PFMK_TEST_AUX_OFFSET);
}

/**
 * struct pfmk_taux_event - state of one event, in &perf_event.pmu_private
 * @node: entry in its CPU's list of started events; empty while stopped.
 * @event: the perf event.
 * @timer: writes @rate records every @period_ns, if @period_ns.
 * @rate: records per timer tick.
 * @period_ns: timer period.
 * @seq: sequence number of the next record.
 * @handle: the AUX transaction in progress.
 */
struct pfmk_taux_event {
	struct list_head		node;
	struct perf_event		*event;
	struct hrtimer			timer;
	u64				rate;
	u64				period_ns;
	u64				seq;
	struct perf_output_handle	handle;
};

static DEFINE_PER_CPU(struct list_head, pfmk_taux_started);

static struct pmu pfmk_taux_pmu;

/* Write @nrec records, one AUX transaction; count them all. */
static void pfmk_taux_emit(struct pfmk_taux_event *te, u64 nrec)
{
	struct perf_output_handle *h = &te->handle;
	struct perf_event *event = te->event;
	struct pfmk_taux_buf *buf;
	u64 i, fit, size, room, pos, len;

	buf = perf_aux_output_begin(h, event);
	if (buf) {
		size = (u64)buf->nr_pages << PAGE_SHIFT;
		room = buf->overwrite ? U64_MAX : h->size;
		fit = min(nrec, room / PFMK_TEST_AUX_REC);
		for (i = 0; i < fit; i++) {
			struct pfmk_test_aux_rec *r;

			pos = (h->head + i * PFMK_TEST_AUX_REC) & (size - 1);
			r = buf->pages[pos >> PAGE_SHIFT] + offset_in_page(pos);
			r->magic = PFMK_TEST_AUX_MAGIC;
			r->cpu = smp_processor_id();
			r->seq = te->seq + i;
			r->payload = pfmk_test_aux_payload(r->seq);
			r->csum = pfmk_test_aux_csum(r);
		}
		if (fit < nrec)
			perf_aux_output_flag(h, PERF_AUX_FLAG_TRUNCATED);
		len = fit * PFMK_TEST_AUX_REC;
		if (pfmk_taux_offset_head(event, buf)) {
			/* As pt_event_stop() ends a snapshot transaction. */
			h->head = (h->head + len) & (size - 1);
			len = size;
		} else if (buf->overwrite) {
			h->head += len;
		}
		/* The records are in memory before the head moves. */
		smp_wmb();
		perf_aux_output_end(h, len);
	}
	te->seq += nrec;
	local64_add(nrec, &event->count);
}

/*
 * Produce @nrec records, in batches that end where a sampling event's
 * period runs out: its handler then runs with the batch committed.
 */
static void pfmk_taux_produce(struct pfmk_taux_event *te, u64 nrec,
			      struct pt_regs *regs)
{
	struct perf_event *event = te->event;
	struct hw_perf_event *hwc = &event->hw;
	perf_overflow_handler_t handler;
	struct perf_sample_data data;
	struct pt_regs caller_regs;
	u64 n;
	s64 left;

	if (!regs) {
		memset(&caller_regs, 0, sizeof(caller_regs));
		perf_fetch_caller_regs(&caller_regs);
		regs = &caller_regs;
	}
	while (nrec && !(hwc->state & PERF_HES_STOPPED)) {
		n = nrec;
		left = local64_read(&hwc->period_left);
		if (is_sampling_event(event) && left > 0)
			n = min(n, (u64)left);
		pfmk_taux_emit(te, n);
		nrec -= n;
		if (!is_sampling_event(event))
			continue;
		local64_sub(n, &hwc->period_left);
		if (local64_read(&hwc->period_left) > 0)
			continue;
		perf_sample_data_init(&data, 0, hwc->last_period);
		handler = READ_ONCE(event->overflow_handler);
		handler(event, &data, regs);
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
}

static enum hrtimer_restart pfmk_taux_timer_fn(struct hrtimer *t)
{
	struct pfmk_taux_event *te = container_of(t, struct pfmk_taux_event,
						  timer);

	if (te->event->hw.state & PERF_HES_STOPPED)
		return HRTIMER_NORESTART;
	pfmk_taux_produce(te, te->rate, get_irq_regs());
	hrtimer_forward_now(t, ns_to_ktime(te->period_ns));
	return HRTIMER_RESTART;
}

static int pfmk_taux_event_init(struct perf_event *event)
{
	u64 config = event->attr.config;
	struct pfmk_taux_event *te;
	u64 period_us;

	if (event->attr.type != pfmk_taux_pmu.type)
		return -ENOENT;
	if (event->cpu < 0)
		return -EINVAL;
	if ((config & ~(PFMK_TEST_AUX_RATE | PFMK_TEST_AUX_PERIOD |
			PFMK_TEST_AUX_OFFSET)) ||
	    !(config & PFMK_TEST_AUX_RATE))
		return -EINVAL;
	period_us = (config & PFMK_TEST_AUX_PERIOD) >> 16;
	if (period_us && period_us < 10)
		return -EINVAL;
	if (event->attr.freq || event->attr.sigtrap)
		return -EINVAL;

	te = pfmk_kzalloc_obj(*te, GFP_KERNEL);
	if (!te)
		return -ENOMEM;
	INIT_LIST_HEAD(&te->node);
	te->event = event;
	te->rate = config & PFMK_TEST_AUX_RATE;
	te->period_ns = period_us * NSEC_PER_USEC;
	pfmk_hrtimer_setup(&te->timer, pfmk_taux_timer_fn, CLOCK_MONOTONIC,
			   HRTIMER_MODE_REL_PINNED_HARD);
	event->pmu_private = te;
	event->destroy = pfmk_test_pmu_destroy;
	return 0;
}

static void pfmk_taux_start(struct perf_event *event, int flags)
{
	struct pfmk_taux_event *te = event->pmu_private;
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED))
		return;
	if (is_sampling_event(event) &&
	    local64_read(&hwc->period_left) <= 0) {
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
	hwc->state = 0;
	list_add_tail(&te->node, this_cpu_ptr(&pfmk_taux_started));
	if (te->period_ns)
		hrtimer_start(&te->timer, ns_to_ktime(te->period_ns),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

static void pfmk_taux_stop(struct perf_event *event, int flags)
{
	struct pfmk_taux_event *te = event->pmu_private;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	list_del_init(&te->node);
	/* Pinned to this CPU, whose interrupts are off: not running now. */
	hrtimer_try_to_cancel(&te->timer);
}

/* Runs of adjacent pages in the last buffer set up (for the tests). */
static atomic_t pfmk_taux_last_runs;

static void *pfmk_taux_setup_aux(struct perf_event *event, void **pages,
				 int nr_pages, bool overwrite)
{
	struct pfmk_taux_buf *buf;
	int i, runs = 1;

	/* Records never straddle pages: whole pages, power-of-two count. */
	if (nr_pages <= 0 || (nr_pages & (nr_pages - 1)))
		return NULL;
	for (i = 1; i < nr_pages; i++)
		if (pages[i] != pages[i - 1] + PAGE_SIZE)
			runs++;
	atomic_set(&pfmk_taux_last_runs, runs);
	buf = pfmk_kzalloc_obj(*buf, GFP_KERNEL);
	if (!buf)
		return NULL;
	buf->pages = pages;
	buf->nr_pages = nr_pages;
	buf->overwrite = overwrite;
	return buf;
}

static void pfmk_taux_free_aux(void *data)
{
	kfree(data);
}

static void pfmk_taux_write_fn(void *info)
{
	struct list_head *started = this_cpu_ptr(&pfmk_taux_started);
	struct pfmk_taux_event *te, *tmp;
	u64 nrec = *(u64 *)info;

	list_for_each_entry_safe(te, tmp, started, node)
		pfmk_taux_produce(te, nrec, get_irq_regs());
}

/**
 * pfmk_test_aux_write() - write records on a CPU now
 * @cpu: the CPU.
 * @nrec: records to write for each started "pfmk_aux_test" event of @cpu.
 *
 * Runs the writer on @cpu with interrupts disabled, as the timer would,
 * and returns when it is done.
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENXIO if @cpu is not online.
 */
int pfmk_test_aux_write(int cpu, u64 nrec)
{
	int ret;

	if (cpu < 0 || cpu >= nr_cpu_ids)
		return -ENXIO;
	cpus_read_lock();
	ret = cpu_online(cpu) ?
	      smp_call_function_single(cpu, pfmk_taux_write_fn, &nrec, 1) :
	      -ENXIO;
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_test_aux_write);

/**
 * pfmk_test_aux_type() - perf type of the synthetic AUX PMU
 *
 * Return: the dynamic perf_event_attr.type of "pfmk_aux_test".
 */
int pfmk_test_aux_type(void)
{
	return pfmk_taux_pmu.type;
}
EXPORT_SYMBOL_GPL(pfmk_test_aux_type);

/**
 * pfmk_test_aux_last_runs() - layout of the last AUX buffer set up
 *
 * Context: any context.
 * Return: the number of runs of adjacent pages (in the kernel's linear
 * map) in the AUX buffer most recently handed to this PMU's setup_aux.
 */
unsigned int pfmk_test_aux_last_runs(void)
{
	return atomic_read(&pfmk_taux_last_runs);
}
EXPORT_SYMBOL_GPL(pfmk_test_aux_last_runs);

PMU_FORMAT_ATTR(rate, "config:0-15");
PMU_FORMAT_ATTR(period_us, "config:16-46");
PMU_FORMAT_ATTR(offset_head, "config:47");

static struct attribute *pfmk_taux_format_attrs[] = {
	&format_attr_rate.attr,
	&format_attr_period_us.attr,
	&format_attr_offset_head.attr,
	NULL,
};

static const struct attribute_group pfmk_taux_format_group = {
	.name = "format",
	.attrs = pfmk_taux_format_attrs,
};

static const struct attribute_group *pfmk_taux_attr_groups[] = {
	&pfmk_taux_format_group,
	NULL,
};

/*
 * Intel PT asks for large AUX allocations (PERF_PMU_CAP_AUX_PREFER_LARGE,
 * 6.8 and later; earlier kernels allocate high-order AUX pages for every
 * PMU): so does this one, so that AUX buffers are laid out in memory as
 * a real tracer's are.
 */
#ifdef PERF_PMU_CAP_AUX_PREFER_LARGE
#define PFMK_TAUX_CAPS	(PERF_PMU_CAP_ITRACE | PERF_PMU_CAP_NO_EXCLUDE | \
			 PERF_PMU_CAP_AUX_PREFER_LARGE)
#else
#define PFMK_TAUX_CAPS	(PERF_PMU_CAP_ITRACE | PERF_PMU_CAP_NO_EXCLUDE)
#endif

static struct pmu pfmk_taux_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PFMK_TAUX_CAPS,
	.attr_groups	= pfmk_taux_attr_groups,
	.event_init	= pfmk_taux_event_init,
	.add		= pfmk_test_pmu_add,
	.del		= pfmk_test_pmu_del,
	.start		= pfmk_taux_start,
	.stop		= pfmk_taux_stop,
	.read		= pfmk_test_pmu_read,	/* records add to event->count */
	.setup_aux	= pfmk_taux_setup_aux,
	.free_aux	= pfmk_taux_free_aux,
};

/* The pfmk PMU description. */

static int pfmk_taux_pmc_to_attr(const struct pfmk_pmu_desc *desc,
				 unsigned int reg, u64 val,
				 struct perf_event_attr *attr)
{
	if (!(val & PFMK_TEST_AUX_PMC_EN))
		return PFMK_PMC_OFF;
	attr->type = pfmk_taux_pmu.type;
	attr->config = val & (PFMK_TEST_AUX_RATE | PFMK_TEST_AUX_PERIOD |
			      PFMK_TEST_AUX_OFFSET);
	return 0;
}

static int pfmk_taux_pmc_check(const struct pfmk_pmu_desc *desc,
			       unsigned int reg, u64 val)
{
	if ((val & PFMK_TEST_AUX_PMC_EN) && !(val & PFMK_TEST_AUX_RATE))
		return -EINVAL;
	return 0;
}

#define PFMK_TAUX_RSVD	(~(PFMK_TEST_AUX_PMC_EN | PFMK_TEST_AUX_RATE | \
			   PFMK_TEST_AUX_PERIOD | PFMK_TEST_AUX_OFFSET))

static const struct pfmk_reg_desc pfmk_taux_pmcs[PFMK_TEST_AUX_NUM_PMCS] = {
	{ .name = "AUX0", .rsvd_msk = PFMK_TAUX_RSVD },
	{ .name = "AUX1", .rsvd_msk = PFMK_TAUX_RSVD },
};

static struct pfmk_pmu_desc pfmk_taux_desc = {
	.name		= PFMK_TEST_AUX_NAME,
	.owner		= THIS_MODULE,
	.num_pmcs	= PFMK_TEST_AUX_NUM_PMCS,
	.pmc_desc	= pfmk_taux_pmcs,
	.pmc_check	= pfmk_taux_pmc_check,
	.pmc_to_attr	= pfmk_taux_pmc_to_attr,
};

static int __init pfmk_taux_init(void)
{
	int cpu, ret;

	if (aux_patch < -1 || aux_patch > 1)
		return -EINVAL;
	for_each_possible_cpu(cpu)
		INIT_LIST_HEAD(per_cpu_ptr(&pfmk_taux_started, cpu));

	ret = perf_pmu_register(&pfmk_taux_pmu, PFMK_TEST_AUX_NAME, -1);
	if (ret) {
		pr_err("perf_pmu_register() failed: %d\n", ret);
		return ret;
	}
	ret = pfmk_pmu_register(&pfmk_taux_desc);
	if (ret) {
		pr_err("pfmk_pmu_register() failed: %d\n", ret);
		perf_pmu_unregister(&pfmk_taux_pmu);
	}
	return ret;
}

static void __exit pfmk_taux_exit(void)
{
	pfmk_pmu_unregister(&pfmk_taux_desc);
	perf_pmu_unregister(&pfmk_taux_pmu);
}

module_init(pfmk_taux_init);
module_exit(pfmk_taux_exit);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk synthetic AUX PMU and PMU description");
MODULE_LICENSE("GPL");
