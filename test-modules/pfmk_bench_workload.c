// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_bench's workload mode (module parameter work > 0): a fixed loop
 * on every CPU, without sampling, under pfmk sampling or under raw
 * cpu-clock events (pfmk_bench_main.c documents its output line).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <pfmk/compat.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_bench.h"
#include "pfmk_test_thread.h"

PFMK_IMPORT_NS();

/*
 * Room for every sample of a run (4 MiB: 87000 entries per CPU, 8.7 s at
 * 10 kHz), as perf record loses none: a buffer that fills masks the
 * context until the drain thread restarts it, and the interrupts taken
 * meanwhile would be paid for without being counted as samples.
 */
#define WL_BUF_SIZE	(4 * 1024 * 1024)

struct wl_cpu {
	struct task_struct	*task;
	void			*desc;
	struct perf_event	*raw;
	struct pfm_dfl_smpl_hdr	*buf;
	u64			ns;
	u64			sink;
};

struct wl {
	struct wl_cpu		*cpus;		/* nr_cpu_ids entries */
	atomic64_t		raw_samples;
	struct completion	go;
	struct completion	ctx_done;
	atomic_t		running;
	struct completion	all_done;
	u64			touched;
};

/* Read every recorded sample (a cheap consumer); the caller restarts. */
static void wl_drain(struct wl *w, struct wl_cpu *c)
{
	struct pfm_dfl_smpl_entry *ent = (void *)(c->buf + 1);
	u64 i, count;

	/* Entries below hdr_count are complete: pairs with the writer. */
	count = smp_load_acquire(&c->buf->hdr_count);
	for (i = 0; i < count; i++)
		w->touched += ent[i].ip;
}

static int wl_drain_fn(void *data)
{
	struct wl *w = data;
	union pfm_msg msg;
	unsigned int c;
	int ret;

	while (!kthread_should_stop()) {
		wait_for_completion_interruptible_timeout(&w->ctx_done, HZ / 10);
		for_each_online_cpu(c) {
			struct wl_cpu *wc = &w->cpus[c];

			if (!wc->desc)
				continue;
			while (pfmk_read(wc->desc, &msg, sizeof(msg), 1) ==
			       sizeof(msg)) {
				wl_drain(w, wc);
				ret = pfmk_restart(wc->desc);
				/* -EBUSY: unmasked by an earlier message's restart. */
				WARN_ON_ONCE(ret && ret != -EBUSY);
			}
		}
	}
	return 0;
}

static int wl_worker_fn(void *data)
{
	struct wl *w = data;
	struct wl_cpu *c = &w->cpus[smp_processor_id()];
	u64 t0;

	wait_for_completion(&w->go);
	t0 = ktime_get_ns();
	c->sink = bench_spin((u64)opt_work * 1000000);
	c->ns = ktime_get_ns() - t0;
	if (atomic_dec_and_test(&w->running))
		complete(&w->all_done);
	return pfmk_test_kthread_park();
}

static int wl_open(struct bench *b, struct wl *w, unsigned int c)
{
	u64 period = div_u64(NSEC_PER_SEC, opt_smpl_hz);
	struct pfarg_pmd *pmd = &b->pmd[0];
	static const pfm_uuid_t dfl_uuid = PFM_DFL_SMPL_UUID;
	struct pfm_dfl_smpl_arg arg = { .buf_size = WL_BUF_SIZE };
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_load load = { .load_pid = c };
	struct pfarg_pmc pmc = {
		.reg_value = PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK),
	};
	struct wl_cpu *wc = &w->cpus[c];
	void *buf;
	int ret;

	memcpy(ctx.ctx_smpl_buf_id, dfl_uuid, sizeof(pfm_uuid_t));
	ret = pfmk_create_context(&ctx, &arg, sizeof(arg), &w->ctx_done,
				  &wc->desc, &buf);
	if (ret) {
		wc->desc = NULL;
		return ret;
	}
	wc->buf = buf;
	memset(pmd, 0, sizeof(*pmd));
	pmd->reg_value = -period;
	pmd->reg_short_reset = -period;
	pmd->reg_long_reset = -period;
	return pfmk_write_pmcs(wc->desc, &pmc, 1) ?:
	       pfmk_write_pmds(wc->desc, pmd, 1) ?:
	       pfmk_load_context(wc->desc, &load) ?:
	       pfmk_start(wc->desc, NULL);
}

/*
 * The floor of sampling: what the machine's timer interrupt and perf's
 * overflow path cost without any recording.  The handler only counts.
 */
static void wl_raw_handler(struct perf_event *event,
			   struct perf_sample_data *data, struct pt_regs *regs)
{
	struct wl *w = event->overflow_handler_context;

	atomic64_inc(&w->raw_samples);
}

static int wl_open_raw(struct wl *w, unsigned int c)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_SOFTWARE,
		.config		= PERF_COUNT_SW_CPU_CLOCK,
		.size		= sizeof(attr),
		.sample_period	= div_u64(NSEC_PER_SEC, opt_raw_hz),
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, c, NULL, wl_raw_handler, w);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	w->cpus[c].raw = ev;
	return 0;
}

/* What a run gives its output line. */
struct wl_result {
	unsigned int	nr;		/* CPUs that ran the loop */
	u64		ns_max;		/* the slowest CPU's loop */
	u64		ns_sum;		/* all CPUs' loops */
	u64		samples;	/* pfmk's and raw perf's */
};

static struct wl *wl_alloc(void)
{
	struct wl *w;

	w = pfmk_kzalloc_obj(*w, GFP_KERNEL);
	if (!w)
		return NULL;
	w->cpus = kcalloc(nr_cpu_ids, sizeof(*w->cpus), GFP_KERNEL);
	if (!w->cpus) {
		kfree(w);
		return NULL;
	}
	init_completion(&w->go);
	init_completion(&w->ctx_done);
	init_completion(&w->all_done);
	return w;
}

/*
 * On every online CPU: its pfmk context and raw event (as the parameters
 * ask) and its worker thread, not woken yet; @r->nr counts the threads.
 */
static int wl_setup(struct bench *b, struct wl *w, struct wl_result *r)
{
	struct task_struct *t;
	unsigned int c;
	int ret = 0;

	/* CPUs do not go offline during a run: the plan does no hotplug. */
	for_each_online_cpu(c) {
		if (opt_smpl_hz) {
			ret = wl_open(b, w, c);
			if (ret)
				break;
		}
		if (opt_raw_hz) {
			ret = wl_open_raw(w, c);
			if (ret)
				break;
		}
		t = kthread_create_on_cpu(wl_worker_fn, w, c, "pfmk_bench_wl/%u");
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			break;
		}
		w->cpus[c].task = t;
		r->nr++;
	}
	return ret;
}

/*
 * Wake the workers; without a set-up error (@ret), let them loop and wait
 * until all are done.
 */
static void wl_run(struct wl *w, unsigned int nr, int ret)
{
	unsigned int c;

	atomic_set(&w->running, nr);
	for (c = 0; c < nr_cpu_ids; c++)
		if (w->cpus[c].task)
			wake_up_process(w->cpus[c].task);
	if (!ret) {
		complete_all(&w->go);
		/* Short waits: the loop may run longer than the hung-task timeout. */
		while (!wait_for_completion_timeout(&w->all_done, HZ))
			;
	}
}

/* Stop the workers and the events; their times and samples into @r. */
static void wl_stop(struct wl *w, int ret, struct wl_result *r)
{
	struct pfmk_ctx_stats st;
	unsigned int c;

	for (c = 0; c < nr_cpu_ids; c++) {
		struct wl_cpu *wc = &w->cpus[c];

		if (wc->task) {
			if (ret)
				complete_all(&w->go);
			kthread_stop(wc->task);
			r->ns_max = max(r->ns_max, wc->ns);
			r->ns_sum += wc->ns;
			bench_sink += wc->sink;
		}
		if (wc->raw)
			perf_event_disable(wc->raw);
		/* The stop fails only where the set-up failed (ret): no samples. */
		if (wc->desc && !pfmk_stop(wc->desc) &&
		    !pfmk_get_stats(wc->desc, &st))
			r->samples += st.smpl_count;
	}
}

/* Close and release every CPU's events, count raw samples, free @w. */
static void wl_free(struct wl *w, struct wl_result *r)
{
	unsigned int c;

	for (c = 0; c < nr_cpu_ids; c++) {
		if (w->cpus[c].desc)
			pfmk_close(w->cpus[c].desc);
		if (w->cpus[c].raw)
			perf_event_release_kernel(w->cpus[c].raw);
	}
	r->samples += atomic64_read(&w->raw_samples);
	bench_sink += w->touched;
	kfree(w->cpus);
	kfree(w);
}

int bench_workload(struct bench *b)
{
	struct task_struct *drain = NULL;
	struct wl_result r = { };
	struct wl *w;
	int ret;

	w = wl_alloc();
	if (!w)
		return -ENOMEM;
	ret = wl_setup(b, w, &r);
	if (!ret && opt_smpl_hz) {
		drain = kthread_run(wl_drain_fn, w, "pfmk_bench_drain");
		if (IS_ERR(drain)) {
			ret = PTR_ERR(drain);
			drain = NULL;
		}
	}
	wl_run(w, r.nr, ret);
	wl_stop(w, ret, &r);
	if (drain)
		kthread_stop(drain);
	wl_free(w, &r);
	if (ret) {
		pr_err("error: workload: %d\n", ret);
		return ret;
	}
	pr_info("workload hz=%u cpus=%u ns_max=%llu ns_sum=%llu samples=%llu\n",
		opt_smpl_hz ?: opt_raw_hz, r.nr, r.ns_max, r.ns_sum, r.samples);
	return 0;
}
