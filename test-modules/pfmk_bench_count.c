// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_bench: the counting rows (read_pmds, start+stop, create..close)
 * and the scaling run of n contexts.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <pfmk/compat.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>

#include "pfmk_bench.h"

PFMK_IMPORT_NS();

static void bench_enable_k(struct bench *b, unsigned int k, bool on)
{
	unsigned int j;

	for (j = 0; j < k; j++) {
		if (on)
			perf_event_enable(b->ev[j]);
		else
			perf_event_disable(b->ev[j]);
	}
}

/* -EBUSY if one of the k raw events waited for a counter (multiplexed). */
static int bench_check_running(struct bench *b, unsigned int k)
{
	unsigned int j;
	u64 en, run;

	for (j = 0; j < k; j++) {
		perf_event_read_value(b->ev[j], &en, &run);
		if (en != run)
			return -EBUSY;
	}
	return 0;
}

/*
 * 1. read_pmds of k PMDs vs perf_event_read_value() of the same k events.
 * On the test PMU both sides count at once; on the machine's PMU (hw=1)
 * 2k events would not fit its counters, so each round enables the raw
 * events for the raw side and starts the context for pfmk's, and fails
 * if a raw event was ever multiplexed.
 */
int bench_read(struct bench *b, unsigned int k)
{
	unsigned int i, j, n;
	u64 t0, t1, t2, en, run, raw;
	void *desc;
	int ret;

	ret = bench_raw_create_k(b, k);
	if (ret)
		return ret;
	ret = bench_ctx_open(b, &desc, k);
	if (ret)
		goto out_raw;
	if (!opt_hw) {
		bench_enable_k(b, k, true);
		ret = pfmk_start(desc, NULL);
	}
	for (i = 0; !ret && i < opt_warmup + opt_rounds; i++) {
		if (opt_hw)
			bench_enable_k(b, k, true);
		t0 = ktime_get_ns();
		for (n = 0; n < opt_iters; n++)
			for (j = 0; j < k; j++)
				bench_sink += perf_event_read_value(b->ev[j],
								    &en, &run);
		t1 = ktime_get_ns();
		raw = t1 - t0;
		if (opt_hw) {
			ret = bench_check_running(b, k);
			bench_enable_k(b, k, false);
			ret = ret ?: pfmk_start(desc, NULL);
			if (ret)
				break;
			t1 = ktime_get_ns();
		}
		for (n = 0; n < opt_iters && !ret; n++)
			ret = pfmk_read_pmds(desc, b->pmd, k);
		t2 = ktime_get_ns();
		if (opt_hw)
			ret = pfmk_stop(desc) ?: ret;
		bench_store(b, i, raw, t2 - t1);
	}
	pfmk_close(desc);
	if (!ret)
		bench_report(b, "read_pmds", k, opt_iters);
out_raw:
	bench_raw_release_k(b, k);
	return ret;
}

/* 2. start + stop vs perf_event_enable() + perf_event_disable(). */
int bench_start_stop(struct bench *b, unsigned int k)
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
	for (i = 0; !ret && i < opt_warmup + opt_rounds; i++) {
		t0 = ktime_get_ns();
		for (n = 0; n < opt_iters; n++) {
			for (j = 0; j < k; j++)
				perf_event_enable(b->ev[j]);
			for (j = 0; j < k; j++)
				perf_event_disable(b->ev[j]);
		}
		t1 = ktime_get_ns();
		for (n = 0; n < opt_iters && !ret; n++)
			ret = pfmk_start(desc, NULL) ?: pfmk_stop(desc);
		t2 = ktime_get_ns();
		/*
		 * The floor under pfmk's side: two KAPI calls that only look
		 * the descriptor up and take and drop the context's mutex.
		 */
		for (n = 0; n < opt_iters && !ret; n++)
			ret = min(pfmk_get_state(desc), 0) ?:
			      min(pfmk_get_state(desc), 0);
		t3 = ktime_get_ns();
		bench_store(b, i, t1 - t0, t2 - t1);
		if (i >= opt_warmup)
			b->r.floor[i - opt_warmup] = t3 - t2;
	}
	pfmk_close(desc);
	if (!ret) {
		bench_report(b, "start_stop", k, opt_iters);
		pr_info("floor name=start_stop arg=%u kapi2_ns=%llu\n", k,
			div_u64(bench_median(b->r.floor, opt_rounds, b->r.tmp), opt_iters));
	}
out_raw:
	bench_raw_release_k(b, k);
	return ret;
}

/*
 * 3. create + write_pmcs + load + close vs raw create + release.  The two
 * sides alternate operation by operation, each operation timed on its
 * own (less one clock read), and a round gives each side the median of
 * its operations.  Both sides release the same perf events, whose frees
 * perf defers past a grace period to the tick's softirq and the kthreads
 * it wakes: timing a loop per side, as the other rows do, put that work,
 * several operations' worth, on whichever loop a tick happened to hit.
 * The median operation is one that no tick hit, on either side.
 */
int bench_create_close(struct bench *b, unsigned int k)
{
	unsigned int i, n, cnt = max(opt_iters / 10, 1U);
	u64 t0, t1, t2, t3, *ops;
	void *desc;
	int ret = 0;

	/* Per operation: base, candidate, then a sort buffer. */
	ops = kcalloc(3 * cnt, sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	for (i = 0; !ret && i < opt_warmup + opt_rounds; i++) {
		for (n = 0; n < cnt && !ret; n++) {
			t0 = ktime_get_ns();
			ret = bench_raw_create_k(b, k);
			if (ret)
				break;
			bench_raw_release_k(b, k);
			t1 = ktime_get_ns();
			ret = bench_ctx_open(b, &desc, k);
			if (!ret)
				ret = pfmk_close(desc);
			t2 = ktime_get_ns();
			t3 = ktime_get_ns();
			ops[n] = t1 - t0 - min(t1 - t0, t3 - t2);
			ops[cnt + n] = t2 - t1 - min(t2 - t1, t3 - t2);
		}
		if (!ret)
			bench_store(b, i,
				    bench_median(ops, cnt, &ops[2 * cnt]) * cnt,
				    bench_median(&ops[cnt], cnt, &ops[2 * cnt]) * cnt);
	}
	kfree(ops);
	if (!ret)
		bench_report(b, "create_close", k, cnt);
	return ret;
}

/*
 * The steps of create..close, one by one, for where the difference goes
 * (module parameter steps=1; Documentation/performance.rst): per
 * operation, as the row measures it (the median operation of a round,
 * then the median over the rounds), raw create, raw release, pfmk
 * create, write_pmcs, load and close, less the cost of a clock read,
 * which the line gives as well.  In instruction-count mode these are
 * instructions.
 */
enum {
	STEP_RAW_CREATE, STEP_RAW_RELEASE, STEP_CREATE, STEP_WRITE_PMCS,
	STEP_LOAD, STEP_CLOSE, STEP_CLOCK, STEPS
};

/* One round: each step's median operation, times @cnt, into @sum. */
static int bench_steps_round(struct bench *b, unsigned int k, unsigned int cnt,
			     u64 *ops, u64 *sum)
{
	struct pfarg_ctx req = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_load load = { .load_pid = opt_cpu };
	u64 t[STEPS + 1];
	unsigned int n, s;
	void *desc;
	int ret = 0;

	if (!opt_hw)
		strscpy(req.ctx_pmu_name, PFMK_TEST_PMU_NAME,
			sizeof(req.ctx_pmu_name));
	for (n = 0; n < cnt && !ret; n++) {
		t[0] = ktime_get_ns();
		ret = bench_raw_create_k(b, k);
		if (ret)
			break;
		t[1] = ktime_get_ns();
		bench_raw_release_k(b, k);
		t[2] = ktime_get_ns();
		ret = pfmk_create_context(&req, NULL, 0, &b->ctx_done, &desc,
					  NULL);
		if (ret)
			break;
		t[3] = ktime_get_ns();
		ret = pfmk_write_pmcs(desc, b->pmc, k);
		t[4] = ktime_get_ns();
		ret = ret ?: pfmk_load_context(desc, &load);
		t[5] = ktime_get_ns();
		ret = pfmk_close(desc) ?: ret;
		t[6] = ktime_get_ns();
		t[7] = ktime_get_ns();
		for (s = 0; s < STEPS; s++)
			ops[s * cnt + n] = t[s + 1] - t[s];
	}
	for (s = 0; !ret && s < STEPS; s++)
		sum[s] = bench_median(&ops[s * cnt], cnt, &ops[STEPS * cnt]) *
			 cnt;
	return ret;
}

int bench_create_steps(struct bench *b, unsigned int k)
{
	static const char *const names[STEPS] = {
		"raw_create", "raw_release", "create", "write_pmcs", "load",
		"close", "clock",
	};
	unsigned int i, s, cnt = max(opt_iters / 10, 1U);
	u64 *v, *ops, sum[STEPS], med[STEPS];
	int ret = 0;

	v = kcalloc(STEPS * BENCH_MAX_ROUNDS, sizeof(*v), GFP_KERNEL);
	/* Per operation and step, then a sort buffer. */
	ops = kcalloc((STEPS + 1) * cnt, sizeof(*ops), GFP_KERNEL);
	if (!v || !ops) {
		kfree(v);
		kfree(ops);
		return -ENOMEM;
	}
	for (i = 0; !ret && i < opt_warmup + opt_rounds; i++) {
		memset(sum, 0, sizeof(sum));
		ret = bench_steps_round(b, k, cnt, ops, sum);
		if (i < opt_warmup)
			continue;
		for (s = 0; s < STEPS; s++)
			v[s * BENCH_MAX_ROUNDS + i - opt_warmup] = sum[s];
	}
	if (!ret) {
		for (s = 0; s < STEPS; s++)
			med[s] = div_u64(bench_median(&v[s * BENCH_MAX_ROUNDS],
						      opt_rounds, b->r.tmp), cnt);
		/* Each step's figure holds one clock read. */
		for (s = 0; s < STEP_CLOCK; s++) {
			med[s] -= min(med[s], med[STEP_CLOCK]);
			pr_info("step name=create_close arg=%u step=%s ns=%llu\n",
				k, names[s], med[s]);
		}
		pr_info("step name=create_close arg=%u step=clock ns=%llu\n", k,
			med[STEP_CLOCK]);
	}
	kfree(ops);
	kfree(v);
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
	unsigned int i, c, rep, reps = max(opt_iters / 20, 1U);
	u64 t0, t1, t2, t3, raw;
	int ret = 0;

	for (i = 0; !ret && i < opt_warmup + opt_scale_rounds; i++) {
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
		if (i >= opt_warmup) {
			b->scale_raw[i - opt_warmup] = raw;
			b->r.base[i - opt_warmup] = t1 - t0;
			b->r.cand[i - opt_warmup] = t2 - t1;
			b->r.extra[i - opt_warmup] = div_u64(t3 - t2, reps);
		}
	}
	if (ret)
		return ret;
	t0 = bench_median(b->r.base, opt_scale_rounds, b->r.tmp);
	t1 = bench_median(b->r.cand, opt_scale_rounds, b->r.tmp);
	t2 = bench_median(b->r.extra, opt_scale_rounds, b->r.tmp);
	t3 = bench_median(b->scale_raw, opt_scale_rounds, b->r.tmp);
	pr_info("scale ctxs=%u pmds=%u create_ns=%llu start_ns=%llu read_ns=%llu raw_start_ns=%llu rounds=%u\n",
		n, p, t0, t1, t2, t3, opt_scale_rounds);
	b->nr_scales++;
	return 0;
}

int bench_scale(struct bench *b)
{
	static const unsigned int pmds[] = { 1, BENCH_MAX_K };
	unsigned int n, j;
	int ret = 0;

	for (j = 0; j < ARRAY_SIZE(pmds) && !ret; j++) {
		for (n = 1; n <= opt_max_ctx && !ret; n *= 2)
			ret = bench_scale_one(b, n, pmds[j]);
		if (!ret && !is_power_of_2(opt_max_ctx))
			ret = bench_scale_one(b, opt_max_ctx, pmds[j]);
	}
	return ret;
}
