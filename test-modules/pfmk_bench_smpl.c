// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_bench: the sampling rows (one default-format sample on the test
 * PMU and on cpu-clock) and the overflow notification to a waiting thread.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <pfmk/compat.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_bench.h"
#include "pfmk_test_thread.h"

PFMK_IMPORT_NS();

void bench_noop_handler(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs)
{
}

/*
 * What a raw-perf user writes to keep the same sample: the default
 * format's entry (pid, tgid, ip, timestamp, cpu) appended to a buffer,
 * published with a release.  The buffer never fills in a round.
 */
struct bench_rec {
	struct pfm_dfl_smpl_entry	*ent;
	unsigned int			n;
	unsigned int			max;
	u64				count;
};

static void bench_record_handler(struct perf_event *event,
				 struct perf_sample_data *data,
				 struct pt_regs *regs)
{
	struct bench_rec *r = event->overflow_handler_context;
	struct pfm_dfl_smpl_entry *ent;

	if (r->n >= r->max)
		return;
	ent = &r->ent[r->n++];
	ent->pid = task_pid_nr(current);
	ent->tgid = task_tgid_nr(current);
	ent->ovfl_pmd = 0;
	ent->reserved = 0;
	ent->last_reset_val = -1ULL;
	ent->ip = regs ? instruction_pointer(regs) : 0;
	ent->tstamp = local_clock();
	ent->cpu = smp_processor_id();
	ent->set = 0;
	/* Publish the entry, as the default format does. */
	smp_store_release(&r->count, r->count + 1);
}

static void bench_count_handler(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
	struct bench *b = event->overflow_handler_context;

	atomic64_inc(&b->raw_calls);
}

/*
 * A pfmk sampling context with one PMD of period @period, default format:
 * PMC value @pmc_value of PMU description @pmu_name (NULL: the generic one).
 */
int bench_smpl_open(struct bench *b, void **desc, const char *pmu_name,
		    u64 pmc_value, u64 period, size_t buf_size,
		    unsigned int on_cpu)
{
	static const pfm_uuid_t dfl_uuid = PFM_DFL_SMPL_UUID;
	struct pfm_dfl_smpl_arg arg = { .buf_size = buf_size };
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_load load = { .load_pid = on_cpu };
	struct pfarg_pmc pmc = { .reg_value = pmc_value };
	struct pfarg_pmd *pmd = &b->pmd[0];
	void *buf;
	int ret;

	memcpy(ctx.ctx_smpl_buf_id, dfl_uuid, sizeof(pfm_uuid_t));
	if (pmu_name)
		strscpy(ctx.ctx_pmu_name, pmu_name, sizeof(ctx.ctx_pmu_name));
	ret = pfmk_create_context(&ctx, &arg, sizeof(arg), &b->ctx_done, desc,
				  &buf);
	if (ret)
		return ret;
	memset(pmd, 0, sizeof(*pmd));
	pmd->reg_value = -period;
	pmd->reg_short_reset = -period;
	pmd->reg_long_reset = -period;
	ret = pfmk_write_pmcs(*desc, &pmc, 1) ?:
	      pfmk_write_pmds(*desc, pmd, 1) ?:
	      pfmk_load_context(*desc, &load);
	if (ret)
		pfmk_close(*desc);
	return ret;
}

/*
 * 4a. Recording one default-format sample: test PMU overflows (period 1)
 * into a pfmk context vs into a raw event whose handler does nothing.
 * Both sides include the test PMU's tick; the difference is pfmk's.
 */
static int bench_smpl_record(struct bench *b, const char *name,
			     perf_overflow_handler_t handler, struct bench_rec *rec)
{
	size_t size = sizeof(struct pfm_dfl_smpl_hdr) +
		      (opt_ovfls + 2) * sizeof(struct pfm_dfl_smpl_entry);
	struct perf_event *ev;
	unsigned int i;
	u64 t0, t1, t2;
	void *desc;
	int ret = 0;

	ev = bench_raw_create(1, handler, rec);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	for (i = 0; !ret && i < opt_warmup + opt_rounds; i++) {
		/* A fresh buffer every round: it never fills. */
		ret = bench_smpl_open(b, &desc, PFMK_TEST_PMU_NAME,
				      PFMK_TEST_PMC(1), 1, size, opt_cpu);
		if (ret)
			break;
		if (rec)
			rec->n = 0;
		perf_event_enable(ev);
		t0 = ktime_get_ns();
		pfmk_test_pmu_tick(opt_cpu, opt_ovfls);
		t1 = ktime_get_ns();
		perf_event_disable(ev);
		ret = pfmk_start(desc, NULL);
		if (!ret) {
			t1 = ktime_get_ns();
			pfmk_test_pmu_tick(opt_cpu, opt_ovfls);
			t2 = ktime_get_ns();
			ret = pfmk_stop(desc);
			bench_store(b, i, t1 - t0, t2 - t1);
		}
		pfmk_close(desc);
	}
	perf_event_release_kernel(ev);
	if (!ret)
		bench_report(b, name, 1, opt_ovfls);
	return ret;
}

/*
 * 4a'. The same sample against a raw handler that records the same entry
 * (bench_record_handler()): pfmk's own cost per sample, beyond the work
 * any sampler does.
 */
static int bench_smpl_rawrec(struct bench *b)
{
	struct bench_rec rec = { .max = opt_ovfls + 2 };
	int ret;

	rec.ent = vzalloc(array_size(rec.max, sizeof(*rec.ent)));
	if (!rec.ent)
		return -ENOMEM;
	ret = bench_smpl_record(b, "smpl_rawrec", bench_record_handler, &rec);
	vfree(rec.ent);
	return ret;
}

/*
 * 4b. The same on cpu-clock, which has no deterministic trigger: time a
 * fixed loop without sampling, under a raw cpu-clock event with a handler
 * that only counts, and under a pfmk context; the cost of one sample is
 * the extra time over the number of samples.
 */
/*
 * One round of 4b: the loop alone, under the raw event @ev, under a new
 * pfmk context; stores the per-sample costs as round @i.
 */
static int bench_smpl_cpuclock_round(struct bench *b, struct perf_event *ev,
				     unsigned int i, u64 period, u64 spin)
{
	/* Enough for the loop at 100x the expected duration of TCG. */
	size_t size = 1 << 20;
	struct pfmk_ctx_stats st = { };
	u64 t0, t1, t2, t3, tn, nr;
	void *desc;
	int ret;

	ret = bench_smpl_open(b, &desc, NULL,
			      PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK),
			      period, size, opt_cpu);
	if (ret)
		return ret;
	t0 = ktime_get_ns();
	bench_sink += bench_spin(spin);
	t1 = ktime_get_ns();
	tn = t1 - t0;

	atomic64_set(&b->raw_calls, 0);
	perf_event_enable(ev);
	t0 = ktime_get_ns();
	bench_sink += bench_spin(spin);
	t1 = ktime_get_ns();
	perf_event_disable(ev);
	nr = atomic64_read(&b->raw_calls) ?: 1;
	t1 = t1 - t0 > tn ? div64_u64(t1 - t0 - tn, nr) : 0;

	ret = pfmk_start(desc, NULL);
	if (ret) {
		pfmk_close(desc);
		return ret;
	}
	t2 = ktime_get_ns();
	bench_sink += bench_spin(spin);
	t3 = ktime_get_ns();
	ret = pfmk_stop(desc) ?: pfmk_get_stats(desc, &st);
	pfmk_close(desc);
	nr = st.smpl_count ?: 1;
	t3 = t3 - t2 > tn ? div64_u64(t3 - t2 - tn, nr) : 0;
	/* Per-sample costs; a round lost in the noise counts as 1 ns. */
	bench_store(b, i, max(t1, 1ULL), max(t3, 1ULL));
	return ret;
}

static int bench_smpl_cpuclock(struct bench *b)
{
	u64 period = (u64)opt_clock_period_us * NSEC_PER_USEC;
	u64 spin = (u64)opt_clock_spin * 1000000;
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_SOFTWARE,
		.config		= PERF_COUNT_SW_CPU_CLOCK,
		.size		= sizeof(attr),
		.disabled	= 1,
		.sample_period	= period,
	};
	struct perf_event *ev;
	unsigned int i;
	int ret = 0;

	ev = perf_event_create_kernel_counter(&attr, opt_cpu, NULL,
					      bench_count_handler, b);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	for (i = 0; !ret && i < opt_warmup + opt_rounds; i++)
		ret = bench_smpl_cpuclock_round(b, ev, i, period, spin);
	perf_event_release_kernel(ev);
	if (!ret)
		bench_report(b, "smpl_cpuclock", opt_clock_period_us, 1);
	return ret;
}

void bench_raw_work_fn(struct irq_work *work)
{
	struct bench *b = container_of(work, struct bench, raw_work);

	complete(&b->raw_done);
}

static void bench_wake_handler(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	struct bench *b = event->overflow_handler_context;

	irq_work_queue(&b->raw_work);
}

/* The waiting kernel thread of the wake-up measurement. */
static int bench_waiter_fn(void *data)
{
	struct bench *b = data;
	union pfm_msg msg;
	unsigned int n;
	int ret = 0;

	complete(&b->ack);
	for (n = 0; n < b->wake_n && !ret; n++) {
		if (b->wake_desc) {
			ssize_t r;

			/*
			 * 0: woken by a completion whose message an earlier
			 * call already took without waiting; wait again.
			 */
			do {
				r = pfmk_read(b->wake_desc, &msg, sizeof(msg), 0);
			} while (!r);
			ret = r == sizeof(msg) ? 0 : r < 0 ? r : -EIO;
		} else {
			ret = wait_for_completion_interruptible(&b->raw_done);
		}
		b->wake_sum += ktime_get_ns() - READ_ONCE(b->wake_t0);
		if (!ret && b->wake_desc)
			ret = pfmk_restart(b->wake_desc);
		complete(&b->ack);
	}
	b->wake_err = ret;
	/* After an error the driver must not wait for the missing acks. */
	complete_all(&b->ack);
	complete(&b->waiter_end);
	return pfmk_test_kthread_park();
}

/* One side of a wake-up round: @desc NULL for the raw ping-pong. */
static int bench_wake_side(struct bench *b, void *desc, unsigned int wcpu,
			   u64 *sum)
{
	struct task_struct *t;
	unsigned int n;

	b->wake_desc = desc;
	b->wake_n = opt_pings;
	b->wake_sum = 0;
	b->wake_err = 0;
	reinit_completion(&b->ack);
	reinit_completion(&b->raw_done);
	reinit_completion(&b->waiter_end);
	t = kthread_create_on_cpu(bench_waiter_fn, b, wcpu, "pfmk_bench_w/%u");
	if (IS_ERR(t))
		return PTR_ERR(t);
	wake_up_process(t);
	for (n = 0; n < opt_pings; n++) {
		wait_for_completion(&b->ack);
		WRITE_ONCE(b->wake_t0, ktime_get_ns());
		pfmk_test_pmu_tick(opt_cpu, 1);
	}
	wait_for_completion(&b->waiter_end);
	kthread_stop(t);
	*sum = b->wake_sum;
	return b->wake_err;
}

/* 5. Overflow to the waiting thread: pfmk notification vs irq_work ping-pong. */
static int bench_wakeup(struct bench *b)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_load load = { .load_pid = opt_cpu };
	struct pfarg_pmc pmc = { .reg_value = PFMK_TEST_PMC(1) };
	struct pfarg_pmd *pmd = &b->pmd[0];
	unsigned int i, wcpu;
	struct perf_event *ev;
	u64 base, cand;
	void *desc;
	int ret;

	/* The waiter runs on another CPU when there is one. */
	wcpu = cpumask_any_but(cpu_online_mask, opt_cpu);
	if (wcpu >= nr_cpu_ids)
		wcpu = opt_cpu;

	ev = bench_raw_create(1, bench_wake_handler, b);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	strscpy(ctx.ctx_pmu_name, PFMK_TEST_PMU_NAME, sizeof(ctx.ctx_pmu_name));
	init_completion(&b->ctx_done);
	ret = pfmk_create_context(&ctx, NULL, 0, &b->ctx_done, &desc, NULL);
	if (ret)
		goto out_raw;
	memset(pmd, 0, sizeof(*pmd));
	pmd->reg_flags = PFM_REGFL_OVFL_NOTIFY;
	pmd->reg_value = -1ULL;
	pmd->reg_short_reset = -1ULL;
	pmd->reg_long_reset = -1ULL;
	ret = pfmk_write_pmcs(desc, &pmc, 1) ?: pfmk_write_pmds(desc, pmd, 1) ?:
	      pfmk_load_context(desc, &load);
	for (i = 0; !ret && i < opt_warmup + opt_rounds; i++) {
		perf_event_enable(ev);
		ret = bench_wake_side(b, NULL, wcpu, &base);
		perf_event_disable(ev);
		if (ret)
			break;
		ret = pfmk_start(desc, NULL);
		if (ret)
			break;
		ret = bench_wake_side(b, desc, wcpu, &cand);
		ret = pfmk_stop(desc) ?: ret;
		bench_store(b, i, base, cand);
	}
	pfmk_close(desc);
	if (!ret)
		bench_report(b, "wakeup", wcpu == opt_cpu ? 1 : 2, opt_pings);
out_raw:
	perf_event_release_kernel(ev);
	init_completion(&b->ctx_done);
	return ret;
}

/* The sampling and notification rows, in order; reports its error. */
int bench_smpl(struct bench *b)
{
	int ret;

	ret = bench_smpl_record(b, "smpl_record", bench_noop_handler, NULL);
	if (ret) {
		pr_err("error: smpl_record: %d\n", ret);
		return ret;
	}
	ret = bench_smpl_rawrec(b);
	if (ret) {
		pr_err("error: smpl_rawrec: %d\n", ret);
		return ret;
	}
	ret = bench_smpl_cpuclock(b);
	if (ret) {
		pr_err("error: smpl_cpuclock: %d\n", ret);
		return ret;
	}
	ret = bench_wakeup(b);
	if (ret) {
		pr_err("error: wakeup: %d\n", ret);
		return ret;
	}
	return 0;
}
