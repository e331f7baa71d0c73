// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_bench on the machine's own PMU (module parameter hw=1): make bench
 * runs it on arm64, in QEMU's instruction-count mode, where Linux's
 * armv8_pmuv3 driver drives QEMU's PMUv3 and the cycle counter advances
 * once per instruction.
 *
 * The counting rows (pfmk_bench_count.c) then count PERF_TYPE_HARDWARE
 * cycles and instructions, alternately (bench_hw_config()), on both
 * sides, at k = 1, 4 and BENCH_HW_MAX_K.  The sampling row, smpl_hw,
 * takes one sample on a cycles overflow through the driver's interrupt:
 * a fixed loop (clock_spin million bench_spin() steps) is timed alone,
 * under a raw cycles event of period hw_period whose overflow handler
 * does nothing, and under a pfmk context sampling the same event at the
 * same period into the default format.  The cost of one sample is the
 * extra time over the number of overflows, and the result line
 *
 *   pfmk_bench: result name=smpl_hw arg=<hw_period> base_ns=<raw>
 *               cand_ns=<pfmk> ...
 *
 * gives both per sample.  The raw side's overflows are those of its
 * count (perf keeps the period left across disable and enable); pfmk's
 * are its samples.  A throttled pfmk event fails the row: its samples
 * would not be all the overflows.  Before the rows, one line names the
 * PMU the hardware events went to:
 *
 *   pfmk_bench: pmu name=<pmu> events=cycles,instructions ks=<k>,<k>,<k>
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/perf_event.h>
#include <linux/timekeeping.h>
#include <pfmk/compat.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_bench.h"

PFMK_IMPORT_NS();

/* PMD @i's PERF_TYPE_HARDWARE event: cycles, instructions, cycles, ... */
u64 bench_hw_config(unsigned int i)
{
	return i & 1 ? PERF_COUNT_HW_INSTRUCTIONS : PERF_COUNT_HW_CPU_CYCLES;
}

static struct perf_event *bench_hw_cycles(u64 period)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.config		= PERF_COUNT_HW_CPU_CYCLES,
		.size		= sizeof(attr),
		.disabled	= 1,
		.sample_period	= period,
	};

	return perf_event_create_kernel_counter(&attr, opt_cpu, NULL,
						period ? bench_noop_handler : NULL,
						NULL);
}

/* The "pmu" line; an error where the machine has no hardware PMU. */
int bench_hw_pmu_line(void)
{
	struct perf_event *ev = bench_hw_cycles(0);

	if (IS_ERR(ev))
		return PTR_ERR(ev);
	pr_info("pmu name=%s events=cycles,instructions ks=1,4,%u\n",
		ev->pmu->name, BENCH_HW_MAX_K);
	perf_event_release_kernel(ev);
	return 0;
}

/* Time the loop of @spin steps. */
static u64 bench_hw_spin(u64 spin)
{
	u64 t0 = ktime_get_ns();

	bench_sink += bench_spin(spin);
	return ktime_get_ns() - t0;
}

/* Per-sample cost: time over the loop alone per overflow (>= 1). */
static u64 bench_hw_per_sample(u64 ns, u64 alone, u64 n)
{
	return ns > alone && n ? max(div64_u64(ns - alone, n), 1ULL) : 1;
}

/* 4c. One sample on a cycles overflow: pfmk vs a no-op perf handler. */
int bench_smpl_hw(struct bench *b)
{
	u64 period = opt_hw_period, spin = (u64)opt_clock_spin * 1000000;
	/* Room for twice the loop's overflows at one instruction a step. */
	size_t size = sizeof(struct pfm_dfl_smpl_hdr) +
		      (2 * div64_u64(spin, period) + 64) *
		      sizeof(struct pfm_dfl_smpl_entry);
	u64 alone, raw, cand = 0, c0, c1, en, run, n;
	struct pfmk_ctx_stats st = { };
	struct perf_event *ev;
	unsigned int i;
	void *desc;
	int ret = 0;

	ev = bench_hw_cycles(period);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	for (i = 0; !ret && i < opt_warmup + opt_rounds; i++) {
		ret = bench_smpl_open(b, &desc, NULL,
				      PFMK_GEN_HW(PERF_COUNT_HW_CPU_CYCLES),
				      period, size, opt_cpu);
		if (ret)
			break;
		alone = bench_hw_spin(spin);

		c0 = perf_event_read_value(ev, &en, &run);
		perf_event_enable(ev);
		raw = bench_hw_spin(spin);
		perf_event_disable(ev);
		c1 = perf_event_read_value(ev, &en, &run);
		n = div64_u64(c1, period) - div64_u64(c0, period);
		raw = bench_hw_per_sample(raw, alone, n);

		ret = pfmk_start(desc, NULL);
		if (!ret) {
			cand = bench_hw_spin(spin);
			ret = pfmk_stop(desc) ?: pfmk_get_stats(desc, &st);
		}
		pfmk_close(desc);
		if (!ret && st.throttled)
			ret = -EAGAIN;
		if (!ret) {
			cand = bench_hw_per_sample(cand, alone, st.smpl_count);
			bench_store(b, i, raw, cand);
		}
	}
	perf_event_release_kernel(ev);
	if (!ret)
		bench_report(b, "smpl_hw", opt_hw_period, 1);
	return ret;
}
