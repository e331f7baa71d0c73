/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_bench: what its files share (pfmk_bench_main.c documents the
 * module, its parameters and its output).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_BENCH_H
#define _PFMK_BENCH_H

#include <linux/completion.h>
#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <pfmk/pfmk.h>

#include "pfmk_test_pmu.h"

#define BENCH_MAX_ROUNDS	101
#define BENCH_MAX_K		PFMK_TEST_NUM_PMCS
#define BENCH_MAX_CTX		64
/*
 * hw=1: the counting rows' largest k, every counter of QEMU's PMUv3 (the
 * cycle counter and six event counters), so that no row multiplexes.
 */
#define BENCH_HW_MAX_K		7

/* The module parameters (pfmk_bench_main.c), under their own names. */
extern unsigned int opt_rounds;
extern unsigned int opt_warmup;
extern unsigned int opt_iters;
extern unsigned int opt_ovfls;
extern unsigned int opt_pings;
extern unsigned int opt_max_ctx;
extern unsigned int opt_scale_rounds;
extern unsigned int opt_clock_spin;
extern unsigned int opt_clock_period_us;
extern unsigned int opt_cpu;
extern unsigned int opt_work;
extern unsigned int opt_smpl_hz;
extern unsigned int opt_raw_hz;
extern unsigned int opt_hw;
extern unsigned int opt_hw_period;
extern unsigned int opt_steps;

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

extern u64 bench_sink;

u64 bench_median(const u64 *v, unsigned int n, u64 *tmp);
void bench_report(struct bench *b, const char *name, unsigned int arg,
		  unsigned int ops);
void bench_store(struct bench *b, unsigned int i, u64 base, u64 cand);
u64 bench_spin(u64 n);
struct perf_event *bench_raw_create(u64 period, perf_overflow_handler_t handler,
				    void *context);
int bench_raw_create_k(struct bench *b, unsigned int k);
void bench_raw_release_k(struct bench *b, unsigned int k);
int bench_ctx_open(struct bench *b, void **desc, unsigned int k);

/* Counting: read, start+stop, create..close, scaling (pfmk_bench_count.c). */
int bench_read(struct bench *b, unsigned int k);
int bench_start_stop(struct bench *b, unsigned int k);
int bench_create_close(struct bench *b, unsigned int k);
int bench_create_steps(struct bench *b, unsigned int k);
int bench_scale(struct bench *b);

/* Sampling and notification (pfmk_bench_smpl.c). */
void bench_noop_handler(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs);
int bench_smpl_open(struct bench *b, void **desc, const char *pmu_name,
		    u64 pmc_value, u64 period, size_t buf_size,
		    unsigned int on_cpu);
int bench_smpl(struct bench *b);
void bench_raw_work_fn(struct irq_work *work);

/* The machine's own PMU, hw=1 (pfmk_bench_pmu.c). */
u64 bench_hw_config(unsigned int i);
int bench_hw_pmu_line(void);
int bench_smpl_hw(struct bench *b);

/* Workload mode (pfmk_bench_workload.c). */
int bench_workload(struct bench *b);

#endif /* _PFMK_BENCH_H */
