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
 * With steps=1 it runs only the create..close rows, each followed by the
 * time of each step of both sides (pfmk_bench_count.c):
 *
 *   pfmk_bench: step name=create_close arg=<k> step=<step> ns=<ns>
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
 * With hw=1 the micro mode runs on the machine's own PMU instead of the
 * test PMU: the counting rows on PERF_TYPE_HARDWARE cycles and
 * instructions, then one sample on a cycles overflow (smpl_hw), no more
 * (pfmk_bench_pmu.c; make bench runs it on arm64).
 *
 * Files: this one (parameters, shared helpers, the runner),
 * pfmk_bench_count.c (counting rows and the scaling run),
 * pfmk_bench_smpl.c (sampling and notification rows),
 * pfmk_bench_pmu.c (the machine's PMU, hw=1) and
 * pfmk_bench_workload.c (workload mode).
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
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/compat.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>

#include "pfmk_bench.h"
#include "pfmk_test_sort.h"
#include "pfmk_test_thread.h"

PFMK_IMPORT_NS();

unsigned int opt_rounds = 11;
module_param_named(rounds, opt_rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "measured rounds per measurement (1-101)");

unsigned int opt_warmup = 2;
module_param_named(warmup, opt_warmup, uint, 0444);
MODULE_PARM_DESC(warmup, "warm-up rounds, discarded (0-10)");

unsigned int opt_iters = 200;
module_param_named(iters, opt_iters, uint, 0444);
MODULE_PARM_DESC(iters, "operations per round and side (1-1000000)");

unsigned int opt_ovfls = 256;
module_param_named(ovfls, opt_ovfls, uint, 0444);
MODULE_PARM_DESC(ovfls, "test PMU overflows per round (1-100000)");

unsigned int opt_pings = 50;
module_param_named(pings, opt_pings, uint, 0444);
MODULE_PARM_DESC(pings, "wake-ups per round (1-100000)");

unsigned int opt_max_ctx = BENCH_MAX_CTX;
module_param_named(max_ctx, opt_max_ctx, uint, 0444);
MODULE_PARM_DESC(max_ctx, "largest number of contexts of the scaling run (1-64)");

unsigned int opt_scale_rounds = 5;
module_param_named(scale_rounds, opt_scale_rounds, uint, 0444);
MODULE_PARM_DESC(scale_rounds, "measured rounds of the scaling run (1-101)");

unsigned int opt_clock_spin = 4;
module_param_named(clock_spin, opt_clock_spin, uint, 0444);
MODULE_PARM_DESC(clock_spin, "cpu-clock sampling cost: loop length, millions (1-1000)");

unsigned int opt_clock_period_us = 100;
module_param_named(clock_period_us, opt_clock_period_us, uint, 0444);
MODULE_PARM_DESC(clock_period_us, "cpu-clock sampling cost: period in us (10-100000)");

unsigned int opt_cpu;
module_param_named(cpu, opt_cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "CPU of the micro measurements");

unsigned int opt_work;
module_param_named(work, opt_work, uint, 0444);
MODULE_PARM_DESC(work, "workload mode: loop length per CPU, millions (0: micro mode)");

unsigned int opt_smpl_hz;
module_param_named(smpl_hz, opt_smpl_hz, uint, 0444);
MODULE_PARM_DESC(smpl_hz, "workload mode: pfmk cpu-clock sampling frequency (0: none)");

unsigned int opt_raw_hz;
module_param_named(raw_hz, opt_raw_hz, uint, 0444);
MODULE_PARM_DESC(raw_hz, "workload mode: raw cpu-clock events with a counting handler at this frequency (0: none)");

unsigned int opt_hw;
module_param_named(hw, opt_hw, uint, 0444);
MODULE_PARM_DESC(hw, "1: the machine's PMU (cycles, instructions) instead of the test PMU");

unsigned int opt_hw_period = 1000000;
module_param_named(hw_period, opt_hw_period, uint, 0444);
MODULE_PARM_DESC(hw_period, "hw=1: cycles per sample of the cycles-overflow row (1000-100000000)");

unsigned int opt_steps;
module_param_named(steps, opt_steps, uint, 0444);
MODULE_PARM_DESC(steps, "1: only create..close and its steps, one by one (pfmk_bench_count.c)");

u64 bench_sink;

u64 bench_median(const u64 *v, unsigned int n, u64 *tmp)
{
	memcpy(tmp, v, n * sizeof(*v));
	pfmk_test_sort_u64(tmp, n);
	return n & 1 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* Print one result: per-op medians and the median and min of the ratios. */
void bench_report(struct bench *b, const char *name, unsigned int arg,
		  unsigned int ops)
{
	struct bench_rounds *r = &b->r;
	u64 base, cand, rmed, rmin;
	unsigned int i;

	for (i = 0; i < opt_rounds; i++)
		r->extra[i] = div64_u64(r->cand[i] * 1000, r->base[i] ?: 1);
	rmed = bench_median(r->extra, opt_rounds, r->tmp);
	rmin = r->tmp[0];
	base = div_u64(bench_median(r->base, opt_rounds, r->tmp), ops);
	cand = div_u64(bench_median(r->cand, opt_rounds, r->tmp), ops);
	pr_info("result name=%s arg=%u base_ns=%llu cand_ns=%llu ratio_med=%llu.%03llu ratio_min=%llu.%03llu rounds=%u\n",
		name, arg, base, cand, rmed / 1000, rmed % 1000,
		rmin / 1000, rmin % 1000, opt_rounds);
	b->nr_results++;
}

/* Record round @i (warm-up rounds are not recorded). */
void bench_store(struct bench *b, unsigned int i, u64 base, u64 cand)
{
	if (i < opt_warmup)
		return;
	b->r.base[i - opt_warmup] = base;
	b->r.cand[i - opt_warmup] = cand;
}

/* A fixed CPU-bound loop: @n xorshift steps. */
u64 bench_spin(u64 n)
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
struct perf_event *bench_raw_create(u64 period, perf_overflow_handler_t handler,
				    void *context)
{
	struct perf_event_attr attr = {
		.type		= pfmk_test_pmu_type(),
		.config		= 1,
		.size		= sizeof(attr),
		.disabled	= 1,
		.sample_period	= period,
	};

	return perf_event_create_kernel_counter(&attr, opt_cpu, NULL, handler,
						context);
}

/* A counting event of the machine's PMU: PMD @i's event of hw=1. */
static struct perf_event *bench_hw_create(unsigned int i)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.config		= bench_hw_config(i),
		.size		= sizeof(attr),
		.disabled	= 1,
	};

	return perf_event_create_kernel_counter(&attr, opt_cpu, NULL, NULL,
						NULL);
}

int bench_raw_create_k(struct bench *b, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < k; i++) {
		b->ev[i] = opt_hw ? bench_hw_create(i) :
				    bench_raw_create(0, NULL, NULL);
		if (IS_ERR(b->ev[i])) {
			int ret = PTR_ERR(b->ev[i]);

			while (i--)
				perf_event_release_kernel(b->ev[i]);
			return ret;
		}
	}
	return 0;
}

void bench_raw_release_k(struct bench *b, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < k; i++)
		perf_event_release_kernel(b->ev[i]);
}

/* A pfmk context of @k counting PMDs (b->pmc), loaded on the CPU. */
int bench_ctx_open(struct bench *b, void **desc, unsigned int k)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_load load = { .load_pid = opt_cpu };
	int ret;

	/* hw=1: the generic description, PERF_TYPE_HARDWARE events. */
	if (!opt_hw)
		strscpy(ctx.ctx_pmu_name, PFMK_TEST_PMU_NAME,
			sizeof(ctx.ctx_pmu_name));
	ret = pfmk_create_context(&ctx, NULL, 0, &b->ctx_done, desc, NULL);
	if (ret)
		return ret;
	ret = pfmk_write_pmcs(*desc, b->pmc, k) ?: pfmk_load_context(*desc, &load);
	if (ret)
		pfmk_close(*desc);
	return ret;
}

/* The PMC and PMD arguments of the counting rows; hw=1: the PMU's line. */
static int bench_micro_setup(struct bench *b)
{
	unsigned int i;
	int ret;

	for (i = 0; i < BENCH_MAX_K; i++) {
		b->pmc[i].reg_num = i;
		b->pmc[i].reg_value = opt_hw ? PFMK_GEN_HW(bench_hw_config(i)) :
					       PFMK_TEST_PMC(1);
		b->pmd[i].reg_num = i;
	}
	if (!opt_hw)
		return 0;
	ret = bench_hw_pmu_line();
	if (ret)
		pr_err("error: no hardware PMU: %d\n", ret);
	return ret;
}

/* The counting rows at each k, or with steps=1 create..close's steps. */
static int bench_micro_count(struct bench *b, const unsigned int *ks,
			     unsigned int nr_ks)
{
	unsigned int i;
	int ret = 0;

	if (opt_steps) {
		for (i = 0; i < nr_ks && !ret; i++)
			ret = bench_create_close(b, ks[i]) ?:
			      bench_create_steps(b, ks[i]);
		if (ret)
			pr_err("error: create..close steps: %d\n", ret);
		return ret;
	}
	for (i = 0; i < nr_ks && !ret; i++)
		ret = bench_read(b, ks[i]);
	for (i = 0; i < nr_ks && !ret; i++)
		ret = bench_start_stop(b, ks[i]);
	for (i = 0; i < nr_ks && !ret; i++)
		ret = bench_create_close(b, ks[i]);
	if (ret)
		pr_err("error: counting measurements: %d\n", ret);
	return ret;
}

/* The test PMU's rows after the counting ones: sampling, then scaling. */
static int bench_micro_smpl_scale(struct bench *b)
{
	unsigned int i;
	int ret;

	ret = bench_smpl(b);
	if (ret)
		return ret;
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
	return 0;
}

static int bench_micro(struct bench *b)
{
	static const unsigned int test_ks[] = { 1, 4, BENCH_MAX_K };
	static const unsigned int hw_ks[] = { 1, 4, BENCH_HW_MAX_K };
	const unsigned int *ks = opt_hw ? hw_ks : test_ks;
	int ret;

	static_assert(ARRAY_SIZE(test_ks) == ARRAY_SIZE(hw_ks));
	static_assert(BENCH_HW_MAX_K <= BENCH_MAX_K);
	ret = bench_micro_setup(b) ?:
	      bench_micro_count(b, ks, ARRAY_SIZE(test_ks));
	if (ret || opt_steps)
		goto out;
	if (opt_hw) {
		/* The machine's PMU: one sample on a cycles overflow, no more. */
		ret = bench_smpl_hw(b);
		if (ret)
			pr_err("error: smpl_hw: %d\n", ret);
	} else {
		ret = bench_micro_smpl_scale(b);
	}
out:
	if (!ret)
		pr_info("done results=%u scales=%u skips=%u\n", b->nr_results,
			b->nr_scales, b->nr_skips);
	return ret;
}

/* The pinned thread running the micro measurements. */
static int bench_runner_fn(void *data)
{
	struct bench *b = data;

	b->runner_ret = bench_micro(b);
	complete(&b->runner_done);
	return pfmk_test_kthread_park();
}

static int __init pfmk_bench_init(void)
{
	struct task_struct *t;
	struct bench *b;
	int ret;

	if (!opt_rounds || opt_rounds > BENCH_MAX_ROUNDS || !opt_scale_rounds ||
	    opt_scale_rounds > BENCH_MAX_ROUNDS || opt_warmup > 10 || !opt_iters ||
	    opt_iters > 1000000 || !opt_ovfls || opt_ovfls > 100000 || !opt_pings ||
	    opt_pings > 100000 || !opt_max_ctx || opt_max_ctx > BENCH_MAX_CTX ||
	    !opt_clock_spin || opt_clock_spin > 1000 || opt_clock_period_us < 10 ||
	    opt_clock_period_us > 100000 || opt_work > 100000 || opt_smpl_hz > 100000 ||
	    opt_raw_hz > 100000 || (opt_smpl_hz && opt_raw_hz) || opt_hw > 1 ||
	    opt_steps > 1 || (opt_steps && opt_work) ||
	    (opt_hw && opt_work) || opt_hw_period < 1000 ||
	    opt_hw_period > 100000000)
		return -EINVAL;
	if (opt_cpu >= nr_cpu_ids || !cpu_online(opt_cpu))
		return -EINVAL;

	b = pfmk_kvzalloc_obj(*b, GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	init_completion(&b->ctx_done);
	init_completion(&b->raw_done);
	init_completion(&b->ack);
	init_completion(&b->waiter_end);
	init_completion(&b->runner_done);
	init_irq_work(&b->raw_work, bench_raw_work_fn);

	if (opt_work) {
		ret = bench_workload(b);
		goto out;
	}

	t = kthread_create_on_cpu(bench_runner_fn, b, opt_cpu, "pfmk_bench/%u");
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

