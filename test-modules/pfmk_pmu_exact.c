// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_pmu_exact: exact counts and samples of a known loop on a real PMU
 * driver (KTAP), arm64 only (test-modules/Kbuild).
 *
 * The harness runs it in the arm64 guests' exact plan: QEMU's "max" CPU,
 * whose PMUv3 Linux drives with its own armv8_pmuv3 driver, in
 * instruction-count mode (-icount shift=0) on one vCPU
 * (scripts/run-guest.sh): there the PMU counts instructions retired, its
 * cycle counter advances once per instruction, and both are exact.  QEMU
 * counts the instructions of every vCPU in one global counter: were there
 * other CPUs, the module would take them offline first and bring them
 * back at the end, so that the one online CPU's counters count its own.
 *
 * The loop, pmx_loop(), retires two instructions per iteration.  Counted
 * with interrupts off between two pfmk_read_pmds() calls, a run of N
 * iterations counts 2N plus the fixed cost of the reads; interrupts and
 * preemption around the loop can only add.  The smallest count of a few
 * runs is the undisturbed one, and the difference between the smallest
 * counts of two loop lengths is exactly twice the difference of their
 * iterations, for cycles and instructions, generic and by name
 * (pfmk_encode()), on the cycle counter and on event counters; in the
 * undisturbed runs all four counts are equal.
 *
 * Sampling: cycles, generic and by name (armv8_pmuv3/cpu_cycles/), at a
 * fixed period P over a loop of L instructions with interrupts on,
 * instructions recorded in each sample (pmx_sample()): about L / P
 * samples in the loop, more elsewhere when the CPU ran other work
 * meanwhile, each of the loop's exactly a whole number of periods after
 * the others, but for the few an interrupt handler delayed; no period
 * missed, none throttled.  Both sample on the PMU's cycle counter (the
 * counting contexts are closed first to free it): QEMU 7.2 raises the
 * overflow interrupt of its event counters late, at the next timer
 * interrupt (Documentation/testing.rst, "Known problems").
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/perfmon.h>
#include <linux/perfmon_dfl_smpl.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/encode.h>

#include "pfmk_ktap.h"
#include "pfmk_test_cpu.h"
#include "pfmk_test_sort.h"

static unsigned int cpu;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "the CPU that stays online and counts (default 0)");

/* Loop lengths (iterations) of the counting cases, and their runs. */
#define PMX_N1		100000ULL
#define PMX_N2		1000000ULL
#define PMX_RUNS	5
/* Sampling: period, loop length (instructions), buffer entries. */
#define PMX_PERIOD	1000000ULL
#define PMX_SMPL_INSNS	(100 * PMX_PERIOD)
#define PMX_SMPL_MAX	512

/* The events counted, two contexts of two PMDs each (generic, by name). */
static const char * const pmx_events[2][2] = {
	{ "cycles", "instructions" },
	{ "armv8_pmuv3/cpu_cycles/", "armv8_pmuv3/inst_retired/" },
};

#define PMX_NEV		4

/**
 * struct pmx - state shared by the cases, which run in order
 * @name: the running case, for diagnostics.
 * @failed: failed checks of the running case.
 * @skip: why the running case skips, or NULL.
 * @alone: why no case can run (pmx_alone()), or NULL.
 * @desc: the two counting contexts.
 * @min1: smallest count of each event over a loop of PMX_N1 iterations.
 * @min2: the same for PMX_N2.
 * @measured: @min1 and @min2 were measured (pmx_need_min()).
 * @offlined: CPUs this module took offline.
 * @done: completion given to pfmk_create_context().
 */
struct pmx {
	const char		*name;
	unsigned int		failed;
	const char		*skip;
	const char		*alone;
	void			*desc[2];
	u64			min1[PMX_NEV];
	u64			min2[PMX_NEV];
	bool			measured;
	cpumask_var_t		offlined;
	struct completion	done;
};

static struct pmx pmx;

/*
 * Two instructions an iteration; @n >= 1.  The same loop as pfmk_nmi's
 * nmit_loop(), kept apart: its code is part of what the exact cases count,
 * on the arm64 icount guest only, and samples find it by its name.
 */
static noinline void pmx_loop(u64 n)
{
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n"
		     : "+r" (n) : : "cc");
}

/* pfmk_ktap.h's checks, counted in the running case's failures. */
static bool pmx_check(struct pmx *p, const char *what, long long want,
		      long long got)
{
	return pfmk_ktap_check(&p->failed, p->name, what, want, got);
}

static bool pmx_check_u64(struct pmx *p, const char *what, u64 want, u64 got)
{
	return pfmk_ktap_check_u64(&p->failed, p->name, what, want, got);
}

static bool pmx_check_true(struct pmx *p, const char *what, bool cond)
{
	return pfmk_ktap_check_true(&p->failed, p->name, what, cond);
}

/*
 * A context of @events (PMD i counts events[i]) on @cpu, started; with
 * @smpl, PMD 0 samples every @period events into a default-format buffer
 * (*@hdr) and records PMD 1 in each entry.
 */
static int pmx_open(struct pmx *p, const char * const *events, bool smpl,
		    u64 period, void **desc, struct pfm_dfl_smpl_hdr **hdr)
{
	static const pfm_uuid_t uuid = PFM_DFL_SMPL_UUID;
	struct pfarg_pmc pmcs[2 * PFMK_ENCODE_MAX_PMCS];
	struct pfm_dfl_smpl_arg arg;
	struct pfarg_load load;
	struct pfarg_pmd pmd[2];
	struct pfarg_ctx req;
	unsigned int i, got, n = 0;
	void *buf = NULL;
	int ret;

	*desc = NULL;
	memset(&req, 0, sizeof(req));
	memset(&arg, 0, sizeof(arg));
	memset(pmd, 0, sizeof(pmd));
	req.ctx_flags = PFM_FL_SYSTEM_WIDE;
	for (i = 0; i < 2; i++) {
		ret = pfmk_encode(events[i], i, &req, pmcs + n,
				  ARRAY_SIZE(pmcs) - n, &got);
		if (!pmx_check(p, events[i], 0, ret))
			return ret;
		n += got;
	}
	if (smpl) {
		memcpy(req.ctx_smpl_buf_id, uuid, sizeof(uuid));
		arg.buf_size = sizeof(**hdr) + PMX_SMPL_MAX *
			       (sizeof(struct pfm_dfl_smpl_entry) + sizeof(u64));
		pmd[0].reg_value = -period;
		pmd[0].reg_short_reset = -period;
		pmd[0].reg_long_reset = -period;
		pmd[0].reg_smpl_pmds[0] = BIT_ULL(1);
	}
	pmd[1].reg_num = 1;
	ret = pfmk_create_context(&req, smpl ? &arg : NULL,
				  smpl ? sizeof(arg) : 0, &p->done, desc,
				  smpl ? &buf : NULL);
	if (!pmx_check(p, "create", 0, ret))
		return ret;
	if (hdr)
		*hdr = buf;
	memset(&load, 0, sizeof(load));
	load.load_pid = cpu;
	ret = pfmk_write_pmcs(*desc, pmcs, n) ?:
	      pfmk_write_pmds(*desc, pmd, 2) ?:
	      pfmk_load_context(*desc, &load) ?: pfmk_start(*desc, NULL);
	if (!pmx_check(p, "write, load, start", 0, ret)) {
		pfmk_close(*desc);
		*desc = NULL;
	}
	return ret;
}

/*
 * All four counters, generic context first.  Its own read, not the shared
 * helper: the exact cases count the instructions between two reads, so
 * this code is part of what they measure.
 */
static int pmx_read(void * const *desc, u64 *v)
{
	struct pfarg_pmd pmd[2];
	int i, ret;

	for (i = 0; i < 2; i++) {
		memset(pmd, 0, sizeof(pmd));
		pmd[1].reg_num = 1;
		ret = pfmk_read_pmds(desc[i], pmd, 2);
		if (ret)
			return ret;
		v[2 * i] = pmd[0].reg_value;
		v[2 * i + 1] = pmd[1].reg_value;
	}
	return 0;
}

/* One run of @n iterations with interrupts off: each counter's delta. */
static int pmx_measure(struct pmx *p, u64 n, u64 *delta)
{
	u64 v0[PMX_NEV], v1[PMX_NEV];
	unsigned long flags;
	int i, ret;

	ret = pmx_read(p->desc, v0);
	if (ret)
		return ret;
	local_irq_save(flags);
	pmx_loop(n);
	local_irq_restore(flags);
	ret = pmx_read(p->desc, v1);
	for (i = 0; i < PMX_NEV; i++)
		delta[i] = v1[i] - v0[i];
	return ret;
}

/* Case: the four events encode, and two contexts count them on @cpu. */
static void pmx_setup(struct pmx *p)
{
	int i;

	for (i = 0; i < 2; i++)
		if (pmx_open(p, pmx_events[i], false, 0, &p->desc[i], NULL))
			return;
}

/* The sampling cases need the cycle counter (below): free it. */
static void pmx_close_counting(struct pmx *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (p->desc[i])
			pmx_check(p, "close a counting context", 0,
				  pfmk_close(p->desc[i]));
		p->desc[i] = NULL;
	}
}

static bool pmx_need_ctx(struct pmx *p)
{
	if (p->desc[0] && p->desc[1])
		return true;
	p->skip = "no counting contexts (events_encode failed)";
	return false;
}

/* Smallest delta of each counter over PMX_RUNS runs of @n iterations. */
static int pmx_min(struct pmx *p, u64 n, u64 *min)
{
	u64 d[PMX_NEV];
	int r, i, ret;

	for (i = 0; i < PMX_NEV; i++)
		min[i] = U64_MAX;
	for (r = 0; r < PMX_RUNS; r++) {
		ret = pmx_measure(p, n, d);
		if (ret)
			return ret;
		for (i = 0; i < PMX_NEV; i++) {
			if (r == 0 || d[i] != min[i])
				pfmk_ktap_diag("%s: run %d, %llu iterations: %s %llu",
					       p->name, r, n,
					       pmx_events[i / 2][i % 2], d[i]);
			min[i] = min(min[i], d[i]);
		}
	}
	return 0;
}

/*
 * The counting cases' measurement, p->min1 and p->min2: taken by the
 * first case that needs it (the runs' errors are its failures), kept for
 * the next; false if a case cannot check them.
 */
static bool pmx_need_min(struct pmx *p)
{
	if (!pmx_need_ctx(p))
		return false;
	if (!p->measured) {
		p->measured = true;
		return pmx_check(p, "runs of N1", 0, pmx_min(p, PMX_N1, p->min1)) &&
		       pmx_check(p, "runs of N2", 0, pmx_min(p, PMX_N2, p->min2));
	}
	if (!p->min2[0] || p->min2[0] == U64_MAX) {
		p->skip = "no measurement (count_loop_exact failed)";
		return false;
	}
	return true;
}

/* Case: 2 (N2 - N1) more instructions and cycles, exactly, per event. */
static void pmx_count_loop_exact(struct pmx *p)
{
	int i;

	if (!pmx_need_min(p))
		return;
	for (i = 0; i < PMX_NEV; i++) {
		pfmk_ktap_diag("%s: %s: %llu for %llu iterations, %llu for %llu",
			       p->name, pmx_events[i / 2][i % 2], p->min1[i],
			       PMX_N1, p->min2[i], PMX_N2);
		pmx_check_u64(p, pmx_events[i / 2][i % 2],
			      2 * (PMX_N2 - PMX_N1), p->min2[i] - p->min1[i]);
		/* The reads' own instructions: a few thousand at most. */
		pmx_check_true(p, "2 N1 <= count <= 2 N1 + 100000",
			       p->min1[i] >= 2 * PMX_N1 &&
			       p->min1[i] <= 2 * PMX_N1 + 100000);
	}
}

/*
 * Case: in an undisturbed run all four count the same: cycles equal
 * instructions under icount, generic events and events by name alike.
 */
static void pmx_count_events_agree(struct pmx *p)
{
	int i;

	if (!pmx_need_min(p))
		return;
	for (i = 1; i < PMX_NEV; i++) {
		pmx_check_u64(p, pmx_events[i / 2][i % 2], p->min1[0],
			      p->min1[i]);
		pmx_check_u64(p, pmx_events[i / 2][i % 2], p->min2[0],
			      p->min2[i]);
	}
}

/* A default-format entry with one recorded PMD. */
struct pmx_entry {
	struct pfm_dfl_smpl_entry	e;
	u64				pmd1;
};

/* Does a sample's ip fall in pmx_loop()? */
static bool pmx_in_loop(const struct pfm_dfl_smpl_entry *e)
{
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(sym, e->ip);
	return !strncmp(sym, "pmx_loop", 8) &&
	       (sym[8] == '\0' || sym[8] == ' ');
}

/*
 * The most frequent PMD 1 value less the periods before it, over the
 * samples taken in the loop (0 if none was).
 */
static u64 pmx_common_offset(const struct pmx_entry *ent, u64 count)
{
	u64 *v, best = 0, i, n = 0, run = 0, best_run = 0;

	v = kcalloc(PMX_SMPL_MAX, sizeof(*v), GFP_KERNEL);
	if (!v)
		return 0;
	for (i = 0; i < count; i++)
		if (pmx_in_loop(&ent[i].e))
			v[n++] = ent[i].pmd1 - i * PMX_PERIOD;
	pfmk_test_sort_u64(v, n);
	for (i = 0; i < n; i++) {
		run = i && v[i] == v[i - 1] ? run + 1 : 1;
		if (run > best_run) {
			best_run = run;
			best = v[i];
		}
	}
	kfree(v);
	return best;
}

/*
 * The samples of pmx_sample() taken in the loop (@in_loop), exactly on
 * time (@on_time), none over 10000 instructions late or behind.
 */
static void pmx_sample_timing(struct pmx *p, const struct pmx_entry *ent,
			      u64 count, u64 *in_loop, u64 *on_time)
{
	u64 i, base = pmx_common_offset(ent, count);

	for (i = 0; i < count; i++) {
		u64 late = ent[i].pmd1 - i * PMX_PERIOD - base;
		u64 early = -late;

		if (!pmx_in_loop(&ent[i].e)) {
			pfmk_ktap_diag("%s: sample %llu at %pS, pid %u", p->name,
				       i, (void *)(unsigned long)ent[i].e.ip,
				       ent[i].e.pid);
			continue;
		}
		(*in_loop)++;
		pmx_check(p, "pid of a sample in the loop", current->pid,
			  ent[i].e.pid);
		*on_time += !late;
		if (late && early <= 10000) {
			pfmk_ktap_diag("%s: sample %llu: PMD 1 %llu instructions behind",
				       p->name, i, early);
			continue;
		}
		if (late)
			pfmk_ktap_diag("%s: sample %llu: %llu instructions late",
				       p->name, i, late);
		pmx_check_true(p, "none over 10000 instructions late or behind",
			       late <= 10000);
	}
}

/*
 * Case: sampling PMD 0 of @events every PMX_PERIOD events over a loop of
 * PMX_SMPL_INSNS instructions with interrupts on; PMD 1 (instructions) is
 * recorded in every entry.  Sample k is taken when the sampled count
 * reaches k periods: its recorded instruction count, less k periods, is
 * the same for every sample the loop was interrupted by, or larger by
 * the few instructions a sample is late when the overflow interrupt
 * waits for interrupts to be enabled again (a timer interrupt's handler;
 * never in NMI).  Never later than such a wait.  Where overflows are
 * NMIs, one may land while perf updates PMD 1's event (between the
 * update of its hardware base and the addition to its count, in
 * armpmu_event_update()): that entry's PMD 1 lags by what the update was
 * adding, a sample "early".  The common value is therefore the mode, not
 * the minimum, and 9 in 10 samples must have it.  What else the CPU ran
 * meanwhile (interrupts, other tasks, more of them on a debug kernel)
 * counts too and may take a few samples outside the loop.
 */
static void pmx_sample(struct pmx *p, const char * const *events)
{
	u64 i, count, want, in_loop = 0, on_time = 0;
	struct pfm_dfl_smpl_hdr *hdr = NULL;
	struct pfmk_ctx_stats st;
	struct pmx_entry *ent;
	void *desc;

	pmx_close_counting(p);
	if (pmx_open(p, events, true, PMX_PERIOD, &desc, &hdr))
		return;
	pmx_loop(PMX_SMPL_INSNS / 2);
	pmx_check(p, "stop", 0, pfmk_stop(desc));
	pmx_check(p, "get_stats", 0, pfmk_get_stats(desc, &st));
	/* Entries below the count are complete: pairs with the writer. */
	count = smp_load_acquire(&hdr->hdr_count);
	want = PMX_SMPL_INSNS / PMX_PERIOD;
	pfmk_ktap_diag("%s: %s every %llu: %llu samples over a loop of %llu instructions",
		       p->name, events[0], PMX_PERIOD, count, PMX_SMPL_INSNS);
	pfmk_ktap_diag("%s: %llu overflows, %llu missed periods, %llu throttled",
		       p->name, st.ovfl_count, st.ovfl_missed, st.throttled);
	/* The loop, plus whatever else ran. */
	pmx_check_true(p, "samples >= loop / period", count >= want);
	pmx_check_u64(p, "overflows", count, st.ovfl_count);
	pmx_check_u64(p, "missed periods", 0, st.ovfl_missed);
	pmx_check_u64(p, "throttled", 0, st.throttled);
	pmx_check_u64(p, "buffer overflows", 0, hdr->hdr_overflows);
	count = min_t(u64, count, PMX_SMPL_MAX);
	ent = (void *)(hdr + 1);
	for (i = 0; i < count; i++) {
		pmx_check(p, "ovfl_pmd", 0, ent[i].e.ovfl_pmd);
		pmx_check(p, "cpu", cpu, ent[i].e.cpu);
	}
	pmx_sample_timing(p, ent, count, &in_loop, &on_time);
	pfmk_ktap_diag("%s: %llu samples in the loop, %llu exactly a period apart",
		       p->name, in_loop, on_time);
	/*
	 * About one sample per period of the loop's instructions: more when
	 * interrupts ran during the loop, whose instructions count too; fewer
	 * where overflows are NMIs (the debug kernel), which may land in
	 * those interrupts' handlers instead (3 in 103 once).
	 */
	pmx_check_true(p, "samples in the loop >= loop / period * 0.9",
		       in_loop * 10 >= want * 9);
	pmx_check_true(p, "9 in 10 samples exactly on time",
		       on_time * 10 >= in_loop * 9);
	pmx_check(p, "close", 0, pfmk_close(desc));
}

static void pmx_sample_cycles(struct pmx *p)
{
	pmx_sample(p, pmx_events[0]);
}

static void pmx_sample_cpu_cycles(struct pmx *p)
{
	pmx_sample(p, pmx_events[1]);
}

struct pmx_case {
	const char	*name;
	void		(*run)(struct pmx *p);
};

static const struct pmx_case pmx_cases[] = {
	{ "events_encode", pmx_setup },
	{ "count_loop_exact", pmx_count_loop_exact },
	{ "count_events_agree", pmx_count_events_agree },
	{ "sample_cycles", pmx_sample_cycles },
	{ "sample_cpu_cycles", pmx_sample_cpu_cycles },
};

/* Every CPU but @cpu offline: QEMU's counters are global (above). */
static const char *pmx_alone(struct pmx *p)
{
	unsigned int c;

	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return "the cpu= CPU is not online";
	for_each_online_cpu(c) {
		if (c == cpu)
			continue;
		if (pfmk_test_cpu_unavailable(c) || remove_cpu(c))
			return "another CPU cannot go offline";
		cpumask_set_cpu(c, p->offlined);
	}
	return NULL;
}

static void pmx_together(struct pmx *p)
{
	unsigned int c;

	for_each_cpu(c, p->offlined)
		if (!pfmk_test_cpu_up(c))
			pfmk_ktap_diag("CPU%u did not come back online", c);
	cpumask_clear(p->offlined);
}

/* A case skips when it cannot measure, even after a failed check. */
static bool pmx_run_case(struct pmx *p, const struct pmx_case *c,
			 const char **skip)
{
	p->name = c->name;
	p->failed = 0;
	p->skip = p->alone;
	if (!p->alone)
		c->run(p);
	*skip = p->skip;
	return p->skip || !p->failed;
}

static int __init pfmk_pmu_exact_init(void)
{
	struct pmx *p = &pmx;
	struct pfmk_ktap k;

	init_completion(&p->done);
	if (!zalloc_cpumask_var(&p->offlined, GFP_KERNEL))
		return -ENOMEM;
	p->alone = pmx_alone(p);
	pfmk_ktap_run(&k, pmx_cases, ARRAY_SIZE(pmx_cases), pmx_run_case, p);
	pmx_close_counting(p);
	pmx_together(p);
	pfmk_ktap_end(&k);
	free_cpumask_var(p->offlined);
	return 0;
}

static void __exit pfmk_pmu_exact_exit(void)
{
}

module_init(pfmk_pmu_exact_init);
module_exit(pfmk_pmu_exact_exit);

MODULE_DESCRIPTION("pfmk: exact counts and samples on a real PMU driver (KTAP)");
MODULE_LICENSE("GPL");
