// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_bench: what pfmk costs over the bare in-kernel perf API.
 *
 * Micro mode (the default) runs every measurement from a kernel thread
 * pinned on CPU `cpu` and prints one line per result:
 *
 *   pfmk_bench: result name=<id> arg=<n> base_ns=<ns> cand_ns=<ns>
 *               ratio_med=<r> ratio_min=<r> rounds=<n>
 *   pfmk_bench: scale ctxs=<n> pmds=<p> create_ns=<ns> start_ns=<ns>
 *               read_ns=<ns> raw_start_ns=<ns> rounds=<n>
 *   pfmk_bench: skip name=<id> reason=<word>
 *   pfmk_bench: done results=<n> scales=<n> skips=<n>
 *
 * Each measurement runs `warmup` + `rounds` rounds; a round measures the
 * baseline (the raw perf kernel API, or a raw irq_work ping-pong), then
 * the candidate (pfmk), on the same CPU and the same events, and the
 * warm-up rounds are discarded.  base_ns and cand_ns are medians of the
 * per-operation times; ratio_med and ratio_min are the median and the
 * minimum of the per-round ratios candidate / baseline.  Nothing here
 * judges the numbers: scripts/bench.py compares them with the targets.
 * Times come from ktime_get_ns(): in a TCG guest the TSC is marked
 * unstable and local_clock() is clamped to the tick, which can make a
 * short interval read as 0.
 *
 * Workload mode (`work` > 0) runs a fixed CPU-bound loop of `work`
 * million iterations in one pinned kernel thread per online CPU, with
 * pfmk sampling cpu-clock on every CPU at `smpl_hz` (0: no sampling),
 * or with raw cpu-clock events at `raw_hz` whose handler only counts (the
 * floor: what the machine's timer interrupt and perf's overflow path
 * cost per sample before anyone records anything), and prints
 *
 *   pfmk_bench: workload hz=<f> cpus=<n> ns_max=<ns> ns_sum=<ns> samples=<n>
 *
 * scripts/bench.sh runs it without sampling, with pfmk sampling and under
 * `perf record -a -F <f>`, interleaved (see Documentation/performance.rst).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <pfmk/compat.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_test_pmu.h"

PFMK_IMPORT_NS();

#define BENCH_MAX_ROUNDS	101
#define BENCH_MAX_K		PFMK_TEST_NUM_PMCS
#define BENCH_MAX_CTX		64

static unsigned int rounds = 11;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "measured rounds per measurement (1-101)");

static unsigned int warmup = 2;
module_param(warmup, uint, 0444);
MODULE_PARM_DESC(warmup, "warm-up rounds, discarded (0-10)");

static unsigned int iters = 200;
module_param(iters, uint, 0444);
MODULE_PARM_DESC(iters, "operations per round and side (1-1000000)");

static unsigned int ovfls = 256;
module_param(ovfls, uint, 0444);
MODULE_PARM_DESC(ovfls, "test PMU overflows per round (1-100000)");

static unsigned int pings = 50;
module_param(pings, uint, 0444);
MODULE_PARM_DESC(pings, "wake-ups per round (1-100000)");

static unsigned int max_ctx = BENCH_MAX_CTX;
module_param(max_ctx, uint, 0444);
MODULE_PARM_DESC(max_ctx, "largest number of contexts of the scaling run (1-64)");

static unsigned int scale_rounds = 5;
module_param(scale_rounds, uint, 0444);
MODULE_PARM_DESC(scale_rounds, "measured rounds of the scaling run (1-101)");

static unsigned int clock_spin = 4;
module_param(clock_spin, uint, 0444);
MODULE_PARM_DESC(clock_spin, "cpu-clock sampling cost: loop length, millions (1-1000)");

static unsigned int clock_period_us = 100;
module_param(clock_period_us, uint, 0444);
MODULE_PARM_DESC(clock_period_us, "cpu-clock sampling cost: period in us (10-100000)");

static unsigned int cpu;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "CPU of the micro measurements");

static unsigned int work;
module_param(work, uint, 0444);
MODULE_PARM_DESC(work, "workload mode: loop length per CPU, millions (0: micro mode)");

static unsigned int smpl_hz;
module_param(smpl_hz, uint, 0444);
MODULE_PARM_DESC(smpl_hz, "workload mode: pfmk cpu-clock sampling frequency (0: none)");

static unsigned int raw_hz;
module_param(raw_hz, uint, 0444);
MODULE_PARM_DESC(raw_hz, "workload mode: raw cpu-clock events with a counting handler at this frequency (0: none)");

/* Per-round totals of one measurement. */
struct bench_rounds {
	u64	base[BENCH_MAX_ROUNDS];
	u64	cand[BENCH_MAX_ROUNDS];
	u64	extra[BENCH_MAX_ROUNDS];
	u64	tmp[BENCH_MAX_ROUNDS];
	u64	floor[BENCH_MAX_ROUNDS];
};

/* State of the micro measurements, allocated once. */
struct bench {
	struct bench_rounds	r;
	struct pfarg_pmc	pmc[BENCH_MAX_K];
	struct pfarg_pmd	pmd[BENCH_MAX_K];
	struct perf_event	*ev[BENCH_MAX_K];
	void			*desc[BENCH_MAX_CTX];
	struct perf_event	*scale_ev[BENCH_MAX_CTX * BENCH_MAX_K];
	u64			scale_raw[BENCH_MAX_ROUNDS];
	struct completion	ctx_done;	/* completion of pfmk contexts */
	unsigned int		nr_results;
	unsigned int		nr_scales;
	unsigned int		nr_skips;

	/* Wake-up latency. */
	struct irq_work		raw_work;
	struct completion	raw_done;	/* completed by raw_work */
	struct completion	ack;		/* waiter -> driver */
	struct completion	waiter_end;
	void			*wake_desc;	/* NULL: raw ping-pong */
	unsigned int		wake_n;
	u64			wake_t0;
	u64			wake_sum;
	int			wake_err;

	/* Raw cpu-clock handler calls. */
	atomic64_t		raw_calls;

	/* The pinned thread running the measurements. */
	struct completion	runner_done;
	int			runner_ret;
};

static u64 bench_sink;

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 median(const u64 *v, unsigned int n, u64 *tmp)
{
	memcpy(tmp, v, n * sizeof(*v));
	sort(tmp, n, sizeof(*tmp), cmp_u64, NULL);
	return n & 1 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* Print one result: per-op medians and the median and min of the ratios. */
static void bench_report(struct bench *b, const char *name, unsigned int arg,
			 unsigned int ops)
{
	struct bench_rounds *r = &b->r;
	u64 base, cand, rmed, rmin;
	unsigned int i;

	for (i = 0; i < rounds; i++)
		r->extra[i] = div64_u64(r->cand[i] * 1000, r->base[i] ?: 1);
	rmed = median(r->extra, rounds, r->tmp);
	rmin = r->tmp[0];
	base = div_u64(median(r->base, rounds, r->tmp), ops);
	cand = div_u64(median(r->cand, rounds, r->tmp), ops);
	pr_info("result name=%s arg=%u base_ns=%llu cand_ns=%llu ratio_med=%llu.%03llu ratio_min=%llu.%03llu rounds=%u\n",
		name, arg, base, cand, rmed / 1000, rmed % 1000,
		rmin / 1000, rmin % 1000, rounds);
	b->nr_results++;
}

/* Record round @i (warm-up rounds are not recorded). */
static void bench_store(struct bench *b, unsigned int i, u64 base, u64 cand)
{
	if (i < warmup)
		return;
	b->r.base[i - warmup] = base;
	b->r.cand[i - warmup] = cand;
}

/* A fixed CPU-bound loop: @n xorshift steps. */
static u64 bench_spin(u64 n)
{
	u64 x = 88172645463325252ULL, i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (!(i & 0xffff))
			cond_resched();
	}
	return x;
}

/* A raw "pfmk_test" event on the bench CPU, counting or sampling. */
static struct perf_event *bench_raw_create(u64 period,
					   perf_overflow_handler_t handler,
					   void *context)
{
	struct perf_event_attr attr = {
		.type		= pfmk_test_pmu_type(),
		.config		= 1,
		.size		= sizeof(attr),
		.disabled	= 1,
		.sample_period	= period,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL, handler,
						context);
}

static int bench_raw_create_k(struct bench *b, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < k; i++) {
		b->ev[i] = bench_raw_create(0, NULL, NULL);
		if (IS_ERR(b->ev[i])) {
			int ret = PTR_ERR(b->ev[i]);

			while (i--)
				perf_event_release_kernel(b->ev[i]);
			return ret;
		}
	}
	return 0;
}

static void bench_raw_release_k(struct bench *b, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < k; i++)
		perf_event_release_kernel(b->ev[i]);
}

/* A pfmk context on the test PMU with @k counting PMDs, loaded on the CPU. */
static int bench_ctx_open(struct bench *b, void **desc, unsigned int k)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_load load = { .load_pid = cpu };
	int ret;

	strscpy(ctx.ctx_pmu_name, PFMK_TEST_PMU_NAME, sizeof(ctx.ctx_pmu_name));
	ret = pfmk_create_context(&ctx, NULL, 0, &b->ctx_done, desc, NULL);
	if (ret)
		return ret;
	ret = pfmk_write_pmcs(*desc, b->pmc, k) ?: pfmk_load_context(*desc, &load);
	if (ret)
		pfmk_close(*desc);
	return ret;
}

/* 1. read_pmds of k PMDs vs perf_event_read_value() of the same k events. */
static int bench_read(struct bench *b, unsigned int k)
{
	unsigned int i, j, n;
	u64 t0, t1, t2, en, run;
	void *desc;
	int ret;

	ret = bench_raw_create_k(b, k);
	if (ret)
		return ret;
	ret = bench_ctx_open(b, &desc, k);
	if (ret)
		goto out_raw;
	for (j = 0; j < k; j++)
		perf_event_enable(b->ev[j]);
	ret = pfmk_start(desc, NULL);
	for (i = 0; !ret && i < warmup + rounds; i++) {
		t0 = ktime_get_ns();
		for (n = 0; n < iters; n++)
			for (j = 0; j < k; j++)
				bench_sink += perf_event_read_value(b->ev[j],
								    &en, &run);
		t1 = ktime_get_ns();
		for (n = 0; n < iters && !ret; n++)
			ret = pfmk_read_pmds(desc, b->pmd, k);
		t2 = ktime_get_ns();
		bench_store(b, i, t1 - t0, t2 - t1);
	}
	pfmk_close(desc);
	if (!ret)
		bench_report(b, "read_pmds", k, iters);
out_raw:
	bench_raw_release_k(b, k);
	return ret;
}

/* 2. start + stop vs perf_event_enable() + perf_event_disable(). */
static int bench_start_stop(struct bench *b, unsigned int k)
{
	unsigned int i, j, n;
	u64 t0, t1, t2, t3;
	void *desc;
	int ret;

	ret = bench_raw_create_k(b, k);
	if (ret)
		return ret;
	ret = bench_ctx_open(b, &desc, k);
	if (ret)
		goto out_raw;
	for (i = 0; !ret && i < warmup + rounds; i++) {
		t0 = ktime_get_ns();
		for (n = 0; n < iters; n++) {
			for (j = 0; j < k; j++)
				perf_event_enable(b->ev[j]);
			for (j = 0; j < k; j++)
				perf_event_disable(b->ev[j]);
		}
		t1 = ktime_get_ns();
		for (n = 0; n < iters && !ret; n++)
			ret = pfmk_start(desc, NULL) ?: pfmk_stop(desc);
		t2 = ktime_get_ns();
		/*
		 * The floor under pfmk's side: two KAPI calls that only look
		 * the descriptor up and take and drop the context's mutex.
		 */
		for (n = 0; n < iters && !ret; n++)
			ret = min(pfmk_get_state(desc), 0) ?:
			      min(pfmk_get_state(desc), 0);
		t3 = ktime_get_ns();
		bench_store(b, i, t1 - t0, t2 - t1);
		if (i >= warmup)
			b->r.floor[i - warmup] = t3 - t2;
	}
	pfmk_close(desc);
	if (!ret) {
		bench_report(b, "start_stop", k, iters);
		pr_info("floor name=start_stop arg=%u kapi2_ns=%llu\n", k,
			div_u64(median(b->r.floor, rounds, b->r.tmp), iters));
	}
out_raw:
	bench_raw_release_k(b, k);
	return ret;
}

/* 3. create + write_pmcs + load + close vs raw create + release. */
static int bench_create_close(struct bench *b, unsigned int k)
{
	unsigned int i, n, cnt = max(iters / 10, 1U);
	u64 t0, t1, t2;
	void *desc;
	int ret = 0;

	for (i = 0; !ret && i < warmup + rounds; i++) {
		t0 = ktime_get_ns();
		for (n = 0; n < cnt && !ret; n++) {
			ret = bench_raw_create_k(b, k);
			if (!ret)
				bench_raw_release_k(b, k);
		}
		t1 = ktime_get_ns();
		for (n = 0; n < cnt && !ret; n++) {
			ret = bench_ctx_open(b, &desc, k);
			if (!ret)
				ret = pfmk_close(desc);
		}
		t2 = ktime_get_ns();
		bench_store(b, i, t1 - t0, t2 - t1);
	}
	if (!ret)
		bench_report(b, "create_close", k, cnt);
	return ret;
}

static void bench_noop_handler(struct perf_event *event,
			       struct perf_sample_data *data,
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

/* A pfmk sampling context with one PMD of period @period, default format. */
static int bench_smpl_open(struct bench *b, void **desc, bool test_pmu,
			   u64 period, size_t buf_size, unsigned int on_cpu)
{
	static const pfm_uuid_t dfl_uuid = PFM_DFL_SMPL_UUID;
	struct pfm_dfl_smpl_arg arg = { .buf_size = buf_size };
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_load load = { .load_pid = on_cpu };
	struct pfarg_pmc pmc = { };
	struct pfarg_pmd *pmd = &b->pmd[0];
	void *buf;
	int ret;

	memcpy(ctx.ctx_smpl_buf_id, dfl_uuid, sizeof(pfm_uuid_t));
	if (test_pmu) {
		strscpy(ctx.ctx_pmu_name, PFMK_TEST_PMU_NAME,
			sizeof(ctx.ctx_pmu_name));
		pmc.reg_value = PFMK_TEST_PMC(1);
	} else {
		pmc.reg_value = PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK);
	}
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
		      (ovfls + 2) * sizeof(struct pfm_dfl_smpl_entry);
	struct perf_event *ev;
	unsigned int i;
	u64 t0, t1, t2;
	void *desc;
	int ret = 0;

	ev = bench_raw_create(1, handler, rec);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	for (i = 0; !ret && i < warmup + rounds; i++) {
		/* A fresh buffer every round: it never fills. */
		ret = bench_smpl_open(b, &desc, true, 1, size, cpu);
		if (ret)
			break;
		if (rec)
			rec->n = 0;
		perf_event_enable(ev);
		t0 = ktime_get_ns();
		pfmk_test_pmu_tick(cpu, ovfls);
		t1 = ktime_get_ns();
		perf_event_disable(ev);
		ret = pfmk_start(desc, NULL);
		if (!ret) {
			t1 = ktime_get_ns();
			pfmk_test_pmu_tick(cpu, ovfls);
			t2 = ktime_get_ns();
			ret = pfmk_stop(desc);
			bench_store(b, i, t1 - t0, t2 - t1);
		}
		pfmk_close(desc);
	}
	perf_event_release_kernel(ev);
	if (!ret)
		bench_report(b, name, 1, ovfls);
	return ret;
}

/*
 * 4a'. The same sample against a raw handler that records the same entry
 * (bench_record_handler()): pfmk's own cost per sample, beyond the work
 * any sampler does.
 */
static int bench_smpl_rawrec(struct bench *b)
{
	struct bench_rec rec = { .max = ovfls + 2 };
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
static int bench_smpl_cpuclock(struct bench *b)
{
	u64 period = (u64)clock_period_us * NSEC_PER_USEC;
	u64 spin = (u64)clock_spin * 1000000, t0, t1, t2, t3, tn, nr;
	struct pfmk_ctx_stats st = { };
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_SOFTWARE,
		.config		= PERF_COUNT_SW_CPU_CLOCK,
		.size		= sizeof(attr),
		.disabled	= 1,
		.sample_period	= period,
	};
	/* Enough for the loop at 100x the expected duration of TCG. */
	size_t size = 1 << 20;
	struct perf_event *ev;
	unsigned int i;
	void *desc;
	int ret = 0;

	ev = perf_event_create_kernel_counter(&attr, cpu, NULL,
					      bench_count_handler, b);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	for (i = 0; !ret && i < warmup + rounds; i++) {
		ret = bench_smpl_open(b, &desc, false, period, size, cpu);
		if (ret)
			break;
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
			break;
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
	}
	perf_event_release_kernel(ev);
	if (!ret)
		bench_report(b, "smpl_cpuclock", clock_period_us, 1);
	return ret;
}

static void bench_raw_work_fn(struct irq_work *work)
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
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* One side of a wake-up round: @desc NULL for the raw ping-pong. */
static int bench_wake_side(struct bench *b, void *desc, unsigned int wcpu,
			   u64 *sum)
{
	struct task_struct *t;
	unsigned int n;

	b->wake_desc = desc;
	b->wake_n = pings;
	b->wake_sum = 0;
	b->wake_err = 0;
	reinit_completion(&b->ack);
	reinit_completion(&b->raw_done);
	reinit_completion(&b->waiter_end);
	t = kthread_create_on_cpu(bench_waiter_fn, b, wcpu, "pfmk_bench_w/%u");
	if (IS_ERR(t))
		return PTR_ERR(t);
	wake_up_process(t);
	for (n = 0; n < pings; n++) {
		wait_for_completion(&b->ack);
		WRITE_ONCE(b->wake_t0, ktime_get_ns());
		pfmk_test_pmu_tick(cpu, 1);
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
	struct pfarg_load load = { .load_pid = cpu };
	struct pfarg_pmc pmc = { .reg_value = PFMK_TEST_PMC(1) };
	struct pfarg_pmd *pmd = &b->pmd[0];
	unsigned int i, wcpu;
	struct perf_event *ev;
	u64 base, cand;
	void *desc;
	int ret;

	/* The waiter runs on another CPU when there is one. */
	wcpu = cpumask_any_but(cpu_online_mask, cpu);
	if (wcpu >= nr_cpu_ids)
		wcpu = cpu;

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
	for (i = 0; !ret && i < warmup + rounds; i++) {
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
		bench_report(b, "wakeup", wcpu == cpu ? 1 : 2, pings);
out_raw:
	perf_event_release_kernel(ev);
	init_completion(&b->ctx_done);
	return ret;
}

/* Time perf_event_enable() of @nr raw events on the CPU, for comparison. */
static int bench_scale_raw(struct bench *b, unsigned int nr, u64 *ns)
{
	unsigned int j;
	u64 t0;

	for (j = 0; j < nr; j++) {
		b->scale_ev[j] = bench_raw_create(0, NULL, NULL);
		if (IS_ERR(b->scale_ev[j])) {
			int ret = PTR_ERR(b->scale_ev[j]);

			while (j--)
				perf_event_release_kernel(b->scale_ev[j]);
			return ret;
		}
	}
	t0 = ktime_get_ns();
	for (j = 0; j < nr; j++)
		perf_event_enable(b->scale_ev[j]);
	*ns = ktime_get_ns() - t0;
	for (j = 0; j < nr; j++)
		perf_event_release_kernel(b->scale_ev[j]);
	return 0;
}

/*
 * 7. Create/start/read cost of @n contexts of @p PMDs each.  Starting n
 * contexts grows faster than n (perf reschedules the CPU's events at each
 * enable): scale_rounds keeps the run short.
 */
static int bench_scale_one(struct bench *b, unsigned int n, unsigned int p)
{
	unsigned int i, c, rep, reps = max(iters / 20, 1U);
	u64 t0, t1, t2, t3, raw;
	int ret = 0;

	for (i = 0; !ret && i < warmup + scale_rounds; i++) {
		unsigned int opened = 0;

		t0 = ktime_get_ns();
		for (c = 0; c < n && !ret; c++) {
			ret = bench_ctx_open(b, &b->desc[c], p);
			opened += !ret;
		}
		t1 = ktime_get_ns();
		for (c = 0; c < opened && !ret; c++)
			ret = pfmk_start(b->desc[c], NULL);
		t2 = ktime_get_ns();
		for (rep = 0; rep < reps && !ret; rep++)
			for (c = 0; c < opened && !ret; c++)
				ret = pfmk_read_pmds(b->desc[c], b->pmd, p);
		t3 = ktime_get_ns();
		for (c = 0; c < opened; c++)
			pfmk_close(b->desc[c]);
		if (ret)
			break;
		ret = bench_scale_raw(b, n * p, &raw);
		if (i >= warmup) {
			b->scale_raw[i - warmup] = raw;
			b->r.base[i - warmup] = t1 - t0;
			b->r.cand[i - warmup] = t2 - t1;
			b->r.extra[i - warmup] = div_u64(t3 - t2, reps);
		}
	}
	if (ret)
		return ret;
	t0 = median(b->r.base, scale_rounds, b->r.tmp);
	t1 = median(b->r.cand, scale_rounds, b->r.tmp);
	t2 = median(b->r.extra, scale_rounds, b->r.tmp);
	t3 = median(b->scale_raw, scale_rounds, b->r.tmp);
	pr_info("scale ctxs=%u pmds=%u create_ns=%llu start_ns=%llu read_ns=%llu raw_start_ns=%llu rounds=%u\n",
		n, p, t0, t1, t2, t3, scale_rounds);
	b->nr_scales++;
	return 0;
}

static int bench_scale(struct bench *b)
{
	static const unsigned int pmds[] = { 1, BENCH_MAX_K };
	unsigned int n, j;
	int ret = 0;

	for (j = 0; j < ARRAY_SIZE(pmds) && !ret; j++) {
		for (n = 1; n <= max_ctx && !ret; n *= 2)
			ret = bench_scale_one(b, n, pmds[j]);
		if (!ret && !is_power_of_2(max_ctx))
			ret = bench_scale_one(b, max_ctx, pmds[j]);
	}
	return ret;
}

static int bench_micro(struct bench *b)
{
	static const unsigned int ks[] = { 1, 4, BENCH_MAX_K };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < BENCH_MAX_K; i++) {
		b->pmc[i].reg_num = i;
		b->pmc[i].reg_value = PFMK_TEST_PMC(1);
		b->pmd[i].reg_num = i;
	}
	for (i = 0; i < ARRAY_SIZE(ks) && !ret; i++)
		ret = bench_read(b, ks[i]);
	for (i = 0; i < ARRAY_SIZE(ks) && !ret; i++)
		ret = bench_start_stop(b, ks[i]);
	for (i = 0; i < ARRAY_SIZE(ks) && !ret; i++)
		ret = bench_create_close(b, ks[i]);
	if (ret) {
		pr_err("error: counting measurements: %d\n", ret);
		return ret;
	}
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
	/* Restore the counting PMD arguments the scaling run reads with. */
	for (i = 0; i < BENCH_MAX_K; i++) {
		memset(&b->pmd[i], 0, sizeof(b->pmd[i]));
		b->pmd[i].reg_num = i;
	}
	ret = bench_scale(b);
	if (ret) {
		pr_err("error: scale: %d\n", ret);
		return ret;
	}
	pr_info("skip name=aux_copyout reason=see-pfmk_aux_smoke-on-patched-kernels\n");
	b->nr_skips++;
	pr_info("done results=%u scales=%u skips=%u\n", b->nr_results,
		b->nr_scales, b->nr_skips);
	return 0;
}

/* Workload mode. */

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
	c->sink = bench_spin((u64)work * 1000000);
	c->ns = ktime_get_ns() - t0;
	if (atomic_dec_and_test(&w->running))
		complete(&w->all_done);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static int wl_open(struct bench *b, struct wl *w, unsigned int c)
{
	u64 period = div_u64(NSEC_PER_SEC, smpl_hz);
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
		.sample_period	= div_u64(NSEC_PER_SEC, raw_hz),
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, c, NULL, wl_raw_handler, w);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	w->cpus[c].raw = ev;
	return 0;
}

static int bench_workload(struct bench *b)
{
	struct task_struct *drain = NULL;
	u64 ns_max = 0, ns_sum = 0, samples = 0;
	unsigned int c, nr = 0;
	struct pfmk_ctx_stats st;
	struct wl *w;
	int ret = 0;

	w = kzalloc_obj(*w, GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->cpus = kcalloc(nr_cpu_ids, sizeof(*w->cpus), GFP_KERNEL);
	if (!w->cpus) {
		kfree(w);
		return -ENOMEM;
	}
	init_completion(&w->go);
	init_completion(&w->ctx_done);
	init_completion(&w->all_done);

	/* CPUs do not go offline during a run: the plan does no hotplug. */
	for_each_online_cpu(c) {
		struct task_struct *t;

		if (smpl_hz) {
			ret = wl_open(b, w, c);
			if (ret)
				break;
		}
		if (raw_hz) {
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
		nr++;
	}
	if (!ret && smpl_hz) {
		drain = kthread_run(wl_drain_fn, w, "pfmk_bench_drain");
		if (IS_ERR(drain)) {
			ret = PTR_ERR(drain);
			drain = NULL;
		}
	}
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
	for (c = 0; c < nr_cpu_ids; c++) {
		struct wl_cpu *wc = &w->cpus[c];

		if (wc->task) {
			if (ret)
				complete_all(&w->go);
			kthread_stop(wc->task);
			ns_max = max(ns_max, wc->ns);
			ns_sum += wc->ns;
			bench_sink += wc->sink;
		}
		if (wc->raw)
			perf_event_disable(wc->raw);
		/* The stop fails only where the set-up failed (ret): no samples. */
		if (wc->desc && !pfmk_stop(wc->desc) &&
		    !pfmk_get_stats(wc->desc, &st))
			samples += st.smpl_count;
	}
	if (drain)
		kthread_stop(drain);
	for (c = 0; c < nr_cpu_ids; c++) {
		if (w->cpus[c].desc)
			pfmk_close(w->cpus[c].desc);
		if (w->cpus[c].raw)
			perf_event_release_kernel(w->cpus[c].raw);
	}
	samples += atomic64_read(&w->raw_samples);
	bench_sink += w->touched;
	kfree(w->cpus);
	kfree(w);
	if (ret) {
		pr_err("error: workload: %d\n", ret);
		return ret;
	}
	pr_info("workload hz=%u cpus=%u ns_max=%llu ns_sum=%llu samples=%llu\n",
		smpl_hz ?: raw_hz, nr, ns_max, ns_sum, samples);
	return 0;
}

/* The pinned thread running the micro measurements. */
static int bench_runner_fn(void *data)
{
	struct bench *b = data;

	b->runner_ret = bench_micro(b);
	complete(&b->runner_done);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static int __init pfmk_bench_init(void)
{
	struct task_struct *t;
	struct bench *b;
	int ret;

	if (!rounds || rounds > BENCH_MAX_ROUNDS || !scale_rounds ||
	    scale_rounds > BENCH_MAX_ROUNDS || warmup > 10 || !iters ||
	    iters > 1000000 || !ovfls || ovfls > 100000 || !pings ||
	    pings > 100000 || !max_ctx || max_ctx > BENCH_MAX_CTX ||
	    !clock_spin || clock_spin > 1000 || clock_period_us < 10 ||
	    clock_period_us > 100000 || work > 100000 || smpl_hz > 100000 ||
	    raw_hz > 100000 || (smpl_hz && raw_hz))
		return -EINVAL;
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;

	b = kvzalloc_obj(*b, GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	init_completion(&b->ctx_done);
	init_completion(&b->raw_done);
	init_completion(&b->ack);
	init_completion(&b->waiter_end);
	init_completion(&b->runner_done);
	init_irq_work(&b->raw_work, bench_raw_work_fn);

	if (work) {
		ret = bench_workload(b);
		goto out;
	}

	t = kthread_create_on_cpu(bench_runner_fn, b, cpu, "pfmk_bench/%u");
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		goto out;
	}
	wake_up_process(t);
	/* Short waits: the run may outlast the hung-task timeout. */
	while (!wait_for_completion_timeout(&b->runner_done, HZ))
		;
	kthread_stop(t);
	ret = b->runner_ret;
out:
	irq_work_sync(&b->raw_work);
	kvfree(b);
	return ret;
}

static void __exit pfmk_bench_exit(void)
{
}

module_init(pfmk_bench_init);
module_exit(pfmk_bench_exit);

MODULE_DESCRIPTION("pfmk benchmarks: pfmk vs the raw perf kernel API");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
