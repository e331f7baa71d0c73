// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_emu_smoke: hardware events on the emulated x86 core PMU
 * (pfmk_emu_pmu.ko, loaded first), on every kernel (KTAP).
 *
 * Every count is predicted from the emulator's increments per tick
 * (pfmk_emu_pmu.h): the generic HARDWARE, HW_CACHE and RAW encodings,
 * a 2006 client's x86 register images through a zeroed pfarg_ctx (fixed
 * counters included), the counter-mask fields, and sampling whose
 * overflows arrive as NMIs.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/perfmon.h>
#include <linux/perfmon_dfl_smpl.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl.h>

#include "pfmk_emu_pmu.h"
#include "pfmk_ktap.h"
#include "pfmk_test_file.h"
#include "pfmk_test_ops.h"

static bool need_perf_overflow;
module_param(need_perf_overflow, bool, 0444);
MODULE_PARM_DESC(need_perf_overflow,
		 "the harness patched the kernel to export perf_event_overflow(): the throttling case must run");

static unsigned int emu_failed;
static struct completion emu_done;
static const char *emu_skip;

/* Bytes of the default-format buffer of a sampling case. */
#define EMU_SMPL_BUF	16384

/* pfmk_ktap_check(), counted in emu_failed. */
#define emu_check(...)	pfmk_ktap_check(&emu_failed, __VA_ARGS__)

/*
 * The set-up the cases share, a check each step: a context on the
 * generic PMU (with a default-format buffer of @smpl_size bytes, if
 * not 0), loaded on a CPU and started; a PMC; a PMD read and compared.
 */
static bool emu_create(const char *t, u64 smpl_size, void **desc, void **buf)
{
	*desc = NULL;
	return emu_check(t, "create", 0, pfmk_test_create(NULL, smpl_size,
							  &emu_done, desc,
							  buf));
}

static bool emu_load_start(const char *t, void *desc, int cpu)
{
	return emu_check(t, "load", 0, pfmk_test_load(desc, cpu)) &&
	       emu_check(t, "start", 0, pfmk_start(desc, NULL));
}

/* Close @desc (if created); did the case since @failed pass every check? */
static bool emu_close(const char *t, void *desc, unsigned int failed)
{
	if (desc)
		emu_check(t, "close", 0, pfmk_close(desc));
	return emu_failed == failed;
}

static int emu_write_pmc(void *desc, u16 set, u16 reg, u64 val)
{
	struct pfarg_pmc pmc = { .reg_num = reg, .reg_set = set,
				 .reg_value = val };

	return pfmk_write_pmcs(desc, &pmc, 1);
}

/* PMD @num of set @set reads @expect (a check named @what). */
static bool emu_check_pmd(const char *t, void *desc, u16 set, u16 num,
			  const char *what, u64 expect)
{
	struct pfarg_pmd pmd = { .reg_num = num, .reg_set = set };

	return emu_check(t, "read_pmds", 0, pfmk_read_pmds(desc, &pmd, 1)) &&
	       emu_check(t, what, expect, pmd.reg_value);
}

/* A PMD that overflows every @period events, reset to the same. */
static void emu_sampler_pmd(struct pfarg_pmd *pmd, u16 num, u64 period)
{
	memset(pmd, 0, sizeof(*pmd));
	pmd->reg_num = num;
	pmd->reg_value = -period;
	pmd->reg_short_reset = -period;
	pmd->reg_long_reset = -period;
}

static struct perf_event *emu_counter(u32 type, u64 config, bool xuser,
				      int cpu)
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.config = config,
		.exclude_user = xuser,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
}

/* An event of perf's own API, and what it counts in its case's ticks. */
struct emu_perf_ev {
	u32	type;
	u64	config;
	bool	xuser;
	u64	count;
};

#define EMU_PERF_MAX	5

/*
 * A kernel counter per event of @ev on the first CPU, @user and @kernel
 * ticks, then each count exact and, if @ran, each event running all the
 * time it was enabled; @e[] for emu_perf_release().  False if a counter
 * could not be created.
 */
static bool emu_perf_count(const char *t, const struct emu_perf_ev *ev,
			   unsigned int n, u64 user, u64 kernel, bool ran,
			   struct perf_event **e)
{
	int cpu = cpumask_first(cpu_online_mask);
	unsigned int i;
	u64 val, en, run;

	for (i = 0; i < n; i++) {
		e[i] = emu_counter(ev[i].type, ev[i].config, ev[i].xuser, cpu);
		if (IS_ERR(e[i])) {
			emu_check(t, "create", 0, PTR_ERR(e[i]));
			e[i] = NULL;
			return false;
		}
	}
	emu_check(t, "tick", 0, pfmk_emu_tick(cpu, user, kernel));
	for (i = 0; i < n; i++) {
		val = perf_event_read_value(e[i], &en, &run);
		emu_check(t, "count", ev[i].count, val);
		if (ran)
			emu_check(t, "ran all the time", en, run);
	}
	return true;
}

static void emu_perf_release(struct perf_event **e, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (e[i])
			perf_event_release_kernel(e[i]);
}

/*
 * perf's own API on the emulated PMU: generic ids, cache ids, raw codes,
 * over 5 user and 7 kernel ticks.
 */
static bool emu_perf_generic(const char *t)
{
	static const struct emu_perf_ev ev[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false,
		  12 * PFMK_EMU_INC_CYCLES },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false,
		  12 * PFMK_EMU_INC_INSTR },
		{ PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_LL |
		  PERF_COUNT_HW_CACHE_OP_READ << 8 |
		  PERF_COUNT_HW_CACHE_RESULT_MISS << 16, false,
		  12 * PFMK_EMU_INC_LLC_MISS },
		{ PERF_TYPE_RAW, PFMK_EMU_LLC_REF, false,
		  12 * PFMK_EMU_INC_LLC_REF },
		/* User mode excluded: the 7 kernel ticks. */
		{ PERF_TYPE_RAW, PFMK_EMU_CYCLES, true, 7 * PFMK_EMU_INC_CYCLES },
	};
	struct perf_event *e[EMU_PERF_MAX] = { }, *bad;
	unsigned int failed = emu_failed;

	static_assert(ARRAY_SIZE(ev) <= EMU_PERF_MAX);
	if (!emu_perf_count(t, ev, ARRAY_SIZE(ev), 5, 7, true, e))
		goto out;
	/* A code the PMU does not know: refused, as on hardware. */
	bad = emu_counter(PERF_TYPE_RAW, 0x1234, false,
			  cpumask_first(cpu_online_mask));
	if (emu_check(t, "unknown code", -ENOENT, PTR_ERR_OR_ZERO(bad)))
		bad = NULL;
	if (!IS_ERR_OR_NULL(bad))
		perf_event_release_kernel(bad);
out:
	emu_perf_release(e, ARRAY_SIZE(ev));
	return emu_failed == failed;
}

/* cmask, inv and edge, over 3 user ticks (cycles: +4 a tick). */
static bool emu_perf_cmask(const char *t)
{
	static const struct emu_perf_ev ev[] = {
		{ PERF_TYPE_RAW, PFMK_EMU_CYCLES | 1ULL << 24, false, 3 },	/* >= 1 */
		{ PERF_TYPE_RAW, PFMK_EMU_CYCLES | 5ULL << 24, false, 0 },	/* >= 5 */
		{ PERF_TYPE_RAW, PFMK_EMU_CYCLES | 5ULL << 24 | BIT_ULL(23),
		  false, 3 },							/* < 5 */
		{ PERF_TYPE_RAW, PFMK_EMU_CYCLES | 1ULL << 24 | BIT_ULL(18),
		  false, 1 },							/* edge */
	};
	struct perf_event *e[EMU_PERF_MAX] = { };
	unsigned int failed = emu_failed;

	static_assert(ARRAY_SIZE(ev) <= EMU_PERF_MAX);
	emu_perf_count(t, ev, ARRAY_SIZE(ev), 3, 0, false, e);
	emu_perf_release(e, ARRAY_SIZE(ev));
	return emu_failed == failed;
}

/* Say which PMD was wrong, and whether its event ran. */
static void emu_why(const char *t, void *desc, u16 num)
{
	struct pfmk_pmd_time time = { };
	struct pfarg_pmd pmd = { .reg_num = num };

	if (pfmk_read_pmds_time(desc, &pmd, &time, 1)) {
		pr_info("# %s: PMD%u: not readable\n", t, num);
		return;
	}
	pr_info("# %s: PMD%u: value %llu, enabled %llu ns, running %llu ns\n",
		t, num, pmd.reg_value, time.time_enabled, time.time_running);
}

/*
 * A 2006 client: zeroed statics (CPU 0), libpfm's images, the fixed
 * counters through PMC16: every PMD exact.
 */
static bool emu_client2006_images(const char *t)
{
	static const struct {
		u16 pmc;
		u64 image;
		u16 pmd;
		u64 expect;
	} r[] = {
		{ 0, 0x53003c, 0, 8 * PFMK_EMU_INC_CYCLES },	/* cycles */
		{ 1, 0x5300c0, 1, 8 * PFMK_EMU_INC_INSTR },	/* instructions */
		{ 2, 0x51003c, 2, 5 * PFMK_EMU_INC_CYCLES },	/* USR only */
		{ 3, 0x52412e, 3, 3 * PFMK_EMU_INC_LLC_MISS },	/* OS only */
		/* fixed 0 (OS|USR), fixed 1 (USR), fixed 2 (OS) */
		{ 16, 0x123, 16, 8 * PFMK_EMU_INC_INSTR },
		{ 16, 0x123, 17, 5 * PFMK_EMU_INC_CYCLES },
		{ 16, 0x123, 18, 3 * PFMK_EMU_INC_REF_TSC },
	};
	static struct pfarg_ctx ctx;
	static struct pfarg_load load;
	static struct pfarg_start start;
	unsigned int failed = emu_failed, i;
	void *desc = NULL;

	ctx.ctx_flags = PFM_FL_SYSTEM_WIDE;
	if (!emu_check(t, "create", 0, pfmk_create_context(&ctx, NULL, 0,
							   &emu_done, &desc,
							   NULL)))
		return false;
	for (i = 0; i < ARRAY_SIZE(r); i++) {
		if (i && r[i].pmc == r[i - 1].pmc)
			continue;
		if (!emu_check(t, "write_pmcs", 0,
			       emu_write_pmc(desc, 0, r[i].pmc, r[i].image)))
			goto out;
	}
	/* The 2006 client's own zeroed pfarg_load and pfarg_start. */
	if (!emu_check(t, "load", 0, pfmk_load_context(desc, &load)) ||
	    !emu_check(t, "start", 0, pfmk_start(desc, &start)))
		goto out;
	emu_check(t, "tick", 0, pfmk_emu_tick(0, 5, 3));
	emu_check(t, "stop", 0, pfmk_stop(desc));
	for (i = 0; i < ARRAY_SIZE(r); i++)
		if (!emu_check_pmd(t, desc, 0, r[i].pmd, "PMD", r[i].expect))
			emu_why(t, desc, r[i].pmd);
out:
	return emu_close(t, desc, failed);
}

/* pfmk's generic encodings of hardware events, exact. */
static bool emu_pfmk_generic(const char *t)
{
	static const struct {
		u64 pmc;
		u64 expect;
	} r[] = {
		{ PFMK_GEN_HW(PERF_COUNT_HW_CPU_CYCLES), 6 * PFMK_EMU_INC_CYCLES },
		{ PFMK_GEN_PMC(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_LL |
			       PERF_COUNT_HW_CACHE_OP_READ << 8 |
			       PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16),
		  6 * PFMK_EMU_INC_LLC_REF },
		{ PFMK_GEN_PMC(PERF_TYPE_RAW, PFMK_EMU_BR_MISS),
		  6 * PFMK_EMU_INC_BR_MISS },
		{ PFMK_GEN_HW(PERF_COUNT_HW_INSTRUCTIONS) | PFMK_GEN_XUSER,
		  4 * PFMK_EMU_INC_INSTR },
	};
	int cpu = cpumask_last(cpu_online_mask);
	unsigned int failed = emu_failed, i;
	void *desc;

	if (!emu_create(t, 0, &desc, NULL))
		return false;
	for (i = 0; i < ARRAY_SIZE(r); i++)
		if (!emu_check(t, "write_pmcs", 0,
			       emu_write_pmc(desc, 0, i, r[i].pmc)))
			goto out;
	if (!emu_load_start(t, desc, cpu))
		goto out;
	emu_check(t, "tick", 0, pfmk_emu_tick(cpu, 2, 4));
	emu_check(t, "stop", 0, pfmk_stop(desc));
	for (i = 0; i < ARRAY_SIZE(r); i++)
		emu_check_pmd(t, desc, 0, i, "PMD", r[i].expect);
out:
	return emu_close(t, desc, failed);
}

/*
 * Sampling on cycles every 40 (10 ticks) with the default format,
 * recording instructions: each overflow is a real NMI, pfmk's overflow
 * handler runs in it, and every entry is exact.  emu_smpl_run() samples,
 * a case per behaviour checks the result.
 */
struct emu_smpl {
	void			*desc;
	struct pfm_dfl_smpl_hdr	*hdr;
	int			cpu;
	u64			nmis;	/* raised by the 100 ticks */
};

/* Create, program, load, start, 100 ticks; @s->desc for emu_close(). */
static bool emu_smpl_run(const char *t, struct emu_smpl *s)
{
	struct pfarg_pmc pmc[2] = {
		{ .reg_num = 0, .reg_value = 0x53003c },
		{ .reg_num = 1, .reg_value = 0x5300c0 },
	};
	struct pfarg_pmd pmd[2] = { { .reg_num = 0 }, { .reg_num = 1 } };
	void *buf = NULL;
	u64 nmis;

	s->cpu = cpumask_last(cpu_online_mask);
	if (!emu_create(t, EMU_SMPL_BUF, &s->desc, &buf))
		return false;
	s->hdr = buf;
	emu_sampler_pmd(&pmd[0], 0, 40);
	pmd[0].reg_flags = PFM_REGFL_OVFL_NOTIFY;
	pmd[0].reg_smpl_pmds[0] = 1ULL << 1;
	if (!emu_check(t, "write_pmcs", 0, pfmk_write_pmcs(s->desc, pmc, 2)) ||
	    !emu_check(t, "write_pmds", 0, pfmk_write_pmds(s->desc, pmd, 2)) ||
	    !emu_load_start(t, s->desc, s->cpu))
		return false;
	nmis = pfmk_emu_nmis(s->cpu);
	emu_check(t, "tick", 0, pfmk_emu_tick(s->cpu, 100, 0));
	s->nmis = pfmk_emu_nmis(s->cpu) - nmis;
	return true;
}

/* A sampling case: emu_smpl_run(), @check if it ran, close. */
static bool emu_smpl_case(const char *t,
			  void (*check)(const char *t, struct emu_smpl *s))
{
	unsigned int failed = emu_failed;
	struct emu_smpl s;

	if (emu_smpl_run(t, &s))
		check(t, &s);
	return emu_close(t, s.desc, failed);
}

/* Each of the 10 overflows is an NMI, and pfmk handles it there. */
static void emu_sampling_nmi_check(const char *t, struct emu_smpl *s)
{
	emu_check(t, "NMIs", 10, s->nmis);
	emu_check(t, "overflow handled in NMI", 1, pfmk_emu_handler_in_nmi());
}

static bool emu_sampling_nmi(const char *t)
{
	return emu_smpl_case(t, emu_sampling_nmi_check);
}

/* 10 entries, each with the instructions at its overflow, on its CPU. */
static void emu_sampling_nmi_entries_check(const char *t, struct emu_smpl *s)
{
	struct pfm_dfl_smpl_entry *ent;
	u64 i, n;

	/* Pairs with the format's release store of hdr_count. */
	n = smp_load_acquire(&s->hdr->hdr_count);
	emu_check(t, "entries", 10, n);
	ent = (void *)(s->hdr + 1);
	for (i = 0; i < n && i < 10; i++) {
		u64 *val = (u64 *)(ent + 1);

		emu_check(t, "entry's instructions",
			  (i + 1) * 10 * PFMK_EMU_INC_INSTR, *val);
		emu_check(t, "entry's cpu", s->cpu, ent->cpu);
		ent = (void *)(val + 1);
	}
}

static bool emu_sampling_nmi_entries(const char *t)
{
	return emu_smpl_case(t, emu_sampling_nmi_entries_check);
}

/* The context's statistics count the 10, none nested; it runs on. */
static void emu_sampling_nmi_stats_check(const char *t, struct emu_smpl *s)
{
	struct pfmk_ctx_stats st;

	if (emu_check(t, "stats", 0, pfmk_get_stats(s->desc, &st))) {
		emu_check(t, "ovfl_count", 10, st.ovfl_count);
		emu_check(t, "smpl_count", 10, st.smpl_count);
		emu_check(t, "ovfl_nested", 0, st.ovfl_nested);
	}
	emu_check(t, "state", PFM_CTX_LOADED | PFMK_STATE_STARTED,
		  pfmk_get_state(s->desc));
}

static bool emu_sampling_nmi_stats(const char *t)
{
	return emu_smpl_case(t, emu_sampling_nmi_stats_check);
}

/*
 * Event sets carry more hardware events than the PMU has counters: set 0
 * and set 1 each fill the four general counters and set 0 the fixed
 * ones; each set counts exactly the ticks it was active for.
 * emu_sets_run() counts, a case per set (and one for the fixed counter)
 * checks the result.
 */
static const u64 emu_sets_img[2][4] = {
	{ 0x53003c, 0x5300c0, 0x534f2e, 0x53412e },
	{ 0x5300c4, 0x5300c5, 0x53013c, 0x534f2e },
};

static const u64 emu_sets_inc[2][4] = {
	{ PFMK_EMU_INC_CYCLES, PFMK_EMU_INC_INSTR, PFMK_EMU_INC_LLC_REF,
	  PFMK_EMU_INC_LLC_MISS },
	{ PFMK_EMU_INC_BRANCH, PFMK_EMU_INC_BR_MISS, PFMK_EMU_INC_BUS,
	  PFMK_EMU_INC_LLC_REF },
};

/* The ticks each set is active for. */
static const u64 emu_sets_ticks[2] = { 2, 3 };

/*
 * Create two sets, program them, load, then start each set in turn for
 * its ticks and stop; *@desc for emu_close().
 */
static bool emu_sets_run(const char *t, void **desc)
{
	int cpu = cpumask_last(cpu_online_mask);
	struct pfarg_setdesc sd = { .set_id = 1 };
	struct pfarg_start start = { };
	unsigned int s, i;

	if (!emu_create(t, 0, desc, NULL) ||
	    !emu_check(t, "create_evtsets", 0,
		       pfmk_create_evtsets(*desc, &sd, 1)))
		return false;
	for (s = 0; s < 2; s++)
		for (i = 0; i < 4; i++)
			if (!emu_check(t, "write_pmcs", 0,
				       emu_write_pmc(*desc, s, i,
						     emu_sets_img[s][i])))
				return false;
	if (!emu_check(t, "write_pmcs PMC16", 0,
		       emu_write_pmc(*desc, 0, 16, 0x33)) ||
	    !emu_check(t, "load", 0, pfmk_test_load(*desc, cpu)))
		return false;
	for (s = 0; s < 2; s++) {
		start.start_set = s;
		emu_check(t, "start", 0, pfmk_start(*desc, &start));
		emu_check(t, "tick", 0, pfmk_emu_tick(cpu, emu_sets_ticks[s], 0));
		emu_check(t, "stop", 0, pfmk_stop(*desc));
	}
	return true;
}

/* A sets case: emu_sets_run(), @check of set @set if it ran, close. */
static bool emu_sets_case(const char *t, u16 set,
			  void (*check)(const char *t, void *desc, u16 set))
{
	unsigned int failed = emu_failed;
	void *desc;

	if (emu_sets_run(t, &desc))
		check(t, desc, set);
	return emu_close(t, desc, failed);
}

/* Each general counter of @set counted exactly the set's ticks. */
static void emu_sets_general_check(const char *t, void *desc, u16 set)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		emu_check_pmd(t, desc, set, i, "PMD",
			      emu_sets_ticks[set] * emu_sets_inc[set][i]);
}

/* Set 0's fixed cycles counter (PMD 17) counted set 0's ticks. */
static void emu_sets_fixed_check(const char *t, void *desc, u16 set)
{
	emu_check_pmd(t, desc, set, 17, "fixed cycles",
		      emu_sets_ticks[set] * PFMK_EMU_INC_CYCLES);
}

static bool emu_sets_multiplex(const char *t)
{
	return emu_sets_case(t, 0, emu_sets_general_check);
}

static bool emu_sets_multiplex_set1(const char *t)
{
	return emu_sets_case(t, 1, emu_sets_general_check);
}

static bool emu_sets_multiplex_fixed(const char *t)
{
	return emu_sets_case(t, 0, emu_sets_fixed_check);
}

/*
 * More hardware events than counters in one set: six events that only
 * general counters can count, on four.  Perf multiplexes them (pfmk's
 * events are not pinned) and pfmk's times say so: every event ran, none
 * all the time, never more than four at once, and what each counted is
 * what the ticks gave while it ran.  emu_mux_run() counts, a case per
 * behaviour checks the result.
 */
static const struct {
	u64	pmc;
	u64	inc;
} emu_mux_ev[] = {
	{ PFMK_GEN_HW(PERF_COUNT_HW_CACHE_REFERENCES), PFMK_EMU_INC_LLC_REF },
	{ PFMK_GEN_HW(PERF_COUNT_HW_CACHE_MISSES), PFMK_EMU_INC_LLC_MISS },
	{ PFMK_GEN_HW(PERF_COUNT_HW_BRANCH_INSTRUCTIONS), PFMK_EMU_INC_BRANCH },
	{ PFMK_GEN_HW(PERF_COUNT_HW_BRANCH_MISSES), PFMK_EMU_INC_BR_MISS },
	{ PFMK_GEN_HW(PERF_COUNT_HW_BUS_CYCLES), PFMK_EMU_INC_BUS },
	{ PFMK_GEN_PMC(PERF_TYPE_RAW, PFMK_EMU_LLC_REF), PFMK_EMU_INC_LLC_REF },
};

#define EMU_MUX_NR	ARRAY_SIZE(emu_mux_ev)

static struct emu_mux {
	void			*desc;
	u64			ticks;
	struct pfmk_pmd_time	time[EMU_MUX_NR];
	struct pfarg_pmd	pmd[EMU_MUX_NR];
} emu_mux;

/* The six events, 300 ms of a tick a millisecond, their values and times. */
static bool emu_mux_run(const char *t, struct emu_mux *m)
{
	int cpu = cpumask_last(cpu_online_mask);
	unsigned long end;
	unsigned int i;

	m->desc = NULL;
	m->ticks = 0;
	if (pfmk_emu_nr_gp() != 4) {
		pr_info("# %s: the case assumes 4 general counters\n", t);
		return false;
	}
	if (!emu_create(t, 0, &m->desc, NULL))
		return false;
	for (i = 0; i < EMU_MUX_NR; i++)
		if (!emu_check(t, "write_pmcs", 0,
			       emu_write_pmc(m->desc, 0, i, emu_mux_ev[i].pmc)))
			return false;
	if (!emu_load_start(t, m->desc, cpu))
		return false;
	/* One kernel-mode tick a millisecond while perf rotates. */
	end = jiffies + msecs_to_jiffies(300);
	while (time_before(jiffies, end)) {
		emu_check(t, "tick", 0, pfmk_emu_tick(cpu, 0, 1));
		m->ticks++;
		usleep_range(1000, 1100);
	}
	emu_check(t, "stop", 0, pfmk_stop(m->desc));
	memset(m->pmd, 0, sizeof(m->pmd));
	for (i = 0; i < EMU_MUX_NR; i++)
		m->pmd[i].reg_num = i;
	return emu_check(t, "read_pmds_time", 0,
			 pfmk_read_pmds_time(m->desc, m->pmd, m->time,
					     EMU_MUX_NR));
}

/*
 * A multiplexing case: emu_mux_run(), @check if it ran, then say why a
 * check failed, and close.
 */
static bool emu_mux_case(const char *t,
			 void (*check)(const char *t, struct emu_mux *m))
{
	unsigned int failed = emu_failed, i;
	bool ran = emu_mux_run(t, &emu_mux);

	if (ran)
		check(t, &emu_mux);
	if (emu_mux.desc && emu_failed != failed)
		for (i = 0; i < EMU_MUX_NR; i++)
			emu_why(t, emu_mux.desc, i);
	return emu_close(t, emu_mux.desc, failed) && ran;
}

/* Every event ran, none all the time. */
static void emu_perf_multiplex_check(const char *t, struct emu_mux *m)
{
	unsigned int i;

	for (i = 0; i < EMU_MUX_NR; i++) {
		emu_check(t, "ran", 1, m->time[i].time_running > 0);
		emu_check(t, "not all the time", 1,
			  m->time[i].time_running < m->time[i].time_enabled);
	}
}

static bool emu_perf_multiplex(const char *t)
{
	return emu_mux_case(t, emu_perf_multiplex_check);
}

/* Each counted, whole ticks, never more than every tick gave. */
static void emu_perf_multiplex_counts_check(const char *t, struct emu_mux *m)
{
	unsigned int i;
	u64 value;

	for (i = 0; i < EMU_MUX_NR; i++) {
		value = m->pmd[i].reg_value;
		emu_check(t, "counted", 1, value > 0);
		emu_check(t, "at most every tick", 1,
			  value <= m->ticks * emu_mux_ev[i].inc);
		emu_check(t, "whole ticks", 0, value % emu_mux_ev[i].inc);
	}
}

static bool emu_perf_multiplex_counts(const char *t)
{
	return emu_mux_case(t, emu_perf_multiplex_counts_check);
}

/*
 * Four counters: the running times add up to at most 4x enabled, within
 * 1% (perf stamps each event's times at its own switch).
 */
static void emu_perf_multiplex_four_check(const char *t, struct emu_mux *m)
{
	u64 enabled = 0, running = 0;
	unsigned int i;

	for (i = 0; i < EMU_MUX_NR; i++) {
		enabled = max(enabled, m->time[i].time_enabled);
		running += m->time[i].time_running;
	}
	emu_check(t, "at most four at once", 1,
		  running * 100 <= 4 * enabled * 101);
}

static bool emu_perf_multiplex_four(const char *t)
{
	return emu_mux_case(t, emu_perf_multiplex_four_check);
}

/*
 * Hardware events across CPU hotplug: the counts are kept while the CPU
 * is away and go on, exactly, once pfmk re-armed the events on the
 * emulated PMU.
 */
static bool emu_hotplug(const char *t)
{
	int cpu = cpumask_last(cpu_online_mask);
	unsigned int failed = emu_failed;
	void *desc;

	if (!cpu) {
		pr_info("# %s: one CPU: nothing to take offline\n", t);
		return true;
	}
	if (!emu_create(t, 0, &desc, NULL))
		return false;
	if (!emu_check(t, "write_pmcs", 0, emu_write_pmc(desc, 0, 0, 0x53003c)) ||
	    !emu_check(t, "write_pmcs", 0, emu_write_pmc(desc, 0, 16, 0x3)) ||
	    !emu_load_start(t, desc, cpu))
		goto out;
	emu_check(t, "tick", 0, pfmk_emu_tick(cpu, 4, 0));
	if (!emu_check(t, "remove_cpu", 0, remove_cpu(cpu)))
		goto out;
	emu_check(t, "state offline",
		  PFM_CTX_LOADED | PFMK_STATE_STARTED | PFMK_STATE_OFFLINE,
		  pfmk_get_state(desc));
	emu_check_pmd(t, desc, 0, 0, "cycles kept", 4 * PFMK_EMU_INC_CYCLES);
	emu_check(t, "add_cpu", 0, add_cpu(cpu));
	emu_check(t, "state online", PFM_CTX_LOADED | PFMK_STATE_STARTED,
		  pfmk_get_state(desc));
	emu_check(t, "tick", 0, pfmk_emu_tick(cpu, 3, 0));
	emu_check_pmd(t, desc, 0, 0, "cycles go on", 7 * PFMK_EMU_INC_CYCLES);
	emu_check_pmd(t, desc, 0, 16, "instructions go on",
		      7 * PFMK_EMU_INC_INSTR);
out:
	return emu_close(t, desc, failed);
}

#define EMU_NO_OVERFLOW \
	"kernel does not export perf_event_overflow() (stock kernel): no perf throttling for an emulated PMU"
#define EMU_SYSCTL_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"

/* Read or write kernel.perf_event_max_sample_rate. */
static int emu_sample_rate(int *rate, bool write)
{
	return pfmk_test_sysctl(EMU_SYSCTL_RATE, rate, write);
}

/*
 * perf's throttling, entered from the emulated NMI as from a real PMU's
 * (kernels exporting perf_event_overflow()).  With the sample rate set to
 * 4 * HZ, perf's max_samples_per_tick is 4 and it throttles at the 4th
 * interrupt of a tick: a burst of 20 overflows in one tick gives 4
 * samples, the 4th seen by pfmk as throttled (its entry marked, the
 * header counting it), and the PMU stops the event; at a later tick of
 * this CPU perf starts it again and it samples on, unmarked.
 * emu_thr_burst() sets up and bursts, a case per behaviour checks.
 */
#define EMU_THR_PER_TICK	4

struct emu_thr {
	void			*desc;
	struct pfm_dfl_smpl_hdr	*hdr;
	int			cpu;
	int			old_rate;
	bool			rate_set;	/* old_rate to restore */
	bool			pinned;		/* migrate_disable() */
	u64			nmis;		/* NMIs of the burst */
	u64			stops;		/* PMU stops of the burst */
};

/* The sample rate and a sampling context on this CPU; false: see @th. */
static bool emu_thr_setup(const char *t, struct emu_thr *th)
{
	int rate = EMU_THR_PER_TICK * HZ;
	void *buf = NULL;

	memset(th, 0, sizeof(*th));
	if (!pfmk_emu_perf_overflow()) {
		if (need_perf_overflow)
			emu_check(t, "built with PFMK_HAVE_PERF_EVENT_OVERFLOW", 1, 0);
		else
			emu_skip = EMU_NO_OVERFLOW;
		return false;
	}
	if (!emu_check(t, "read " EMU_SYSCTL_RATE, 0,
		       emu_sample_rate(&th->old_rate, false)) ||
	    !emu_check(t, "write " EMU_SYSCTL_RATE, 0,
		       emu_sample_rate(&rate, true)))
		return false;
	th->rate_set = true;
	/* This CPU's own ticks unthrottle the event: stay on it. */
	migrate_disable();
	th->pinned = true;
	th->cpu = smp_processor_id();
	if (!emu_create(t, EMU_SMPL_BUF, &th->desc, &buf))
		return false;
	th->hdr = buf;
	return true;
}

/* Cycles sampled every tick, then 20 ticks at once; false: see @th. */
static bool emu_thr_burst(const char *t, struct emu_thr *th)
{
	struct pfarg_pmd pmd;
	u64 nmis, stops;

	if (!emu_thr_setup(t, th))
		return false;
	/* Cycles +4 a tick: one overflow a tick. */
	emu_sampler_pmd(&pmd, 0, PFMK_EMU_INC_CYCLES);
	if (!emu_check(t, "write_pmcs", 0,
		       emu_write_pmc(th->desc, 0, 0,
				     PFMK_GEN_HW(PERF_COUNT_HW_CPU_CYCLES))) ||
	    !emu_check(t, "write_pmds", 0, pfmk_write_pmds(th->desc, &pmd, 1)) ||
	    !emu_load_start(t, th->desc, th->cpu))
		return false;
	nmis = pfmk_emu_nmis(th->cpu);
	stops = pfmk_emu_throttles(th->cpu);
	/* 20 ticks in one interrupts-off burst: within one perf tick. */
	emu_check(t, "tick", 0, pfmk_emu_tick(th->cpu, 0, 20));
	th->nmis = pfmk_emu_nmis(th->cpu) - nmis;
	th->stops = pfmk_emu_throttles(th->cpu) - stops;
	return true;
}

/*
 * A throttling case: emu_thr_burst(), @check if it burst, then undo what
 * emu_thr_setup() did.
 */
static bool emu_thr_case(const char *t,
			 void (*check)(const char *t, struct emu_thr *th))
{
	unsigned int failed = emu_failed;
	struct emu_thr th;

	if (emu_thr_burst(t, &th))
		check(t, &th);
	emu_close(t, th.desc, failed);
	if (th.pinned)
		migrate_enable();
	if (th.rate_set)
		emu_check(t, "restore " EMU_SYSCTL_RATE, 0,
			  emu_sample_rate(&th.old_rate, true));
	return emu_failed == failed;
}

/* perf throttles at the 4th interrupt of a tick and stops the PMU. */
static void emu_throttle_check(const char *t, struct emu_thr *th)
{
	struct pfmk_ctx_stats st;
	u64 n;

	emu_check(t, "NMIs until throttled", EMU_THR_PER_TICK, th->nmis);
	emu_check(t, "PMU stops", 1, th->stops);
	/* Pairs with the format's release store of hdr_count. */
	n = smp_load_acquire(&th->hdr->hdr_count);
	emu_check(t, "entries", EMU_THR_PER_TICK, n);
	emu_check(t, "stats", 0, pfmk_get_stats(th->desc, &st));
	emu_check(t, "overflows", EMU_THR_PER_TICK, st.ovfl_count);
	emu_check(t, "nested", 0, st.ovfl_nested);
}

static bool emu_throttle(const char *t)
{
	return emu_thr_case(t, emu_throttle_check);
}

/* pfmk sees the 4th throttled: its entry marked, the header counting it. */
static void emu_throttle_marked_check(const char *t, struct emu_thr *th)
{
	struct pfm_dfl_smpl_entry *ent = (void *)(th->hdr + 1);
	struct pfmk_ctx_stats st;
	u64 n;

	emu_check(t, "stats", 0, pfmk_get_stats(th->desc, &st));
	emu_check(t, "pfmk saw it throttled", 1, st.throttled);
	for (n = 0; n < EMU_THR_PER_TICK; n++)
		emu_check(t, "entry marked throttled",
			  n == EMU_THR_PER_TICK - 1 ?
			  PFMK_DFL_ENT_THROTTLED : 0, ent[n].reserved);
	emu_check(t, "header counts it", 1,
		  th->hdr->hdr_reserved[PFMK_DFL_HDR_THROTTLED]);
}

static bool emu_throttle_marked(const char *t)
{
	return emu_thr_case(t, emu_throttle_marked_check);
}

/* A later tick of this CPU starts the event again: it samples, unmarked. */
static void emu_throttle_unthrottles_check(const char *t, struct emu_thr *th)
{
	struct pfm_dfl_smpl_entry *ent = (void *)(th->hdr + 1);
	unsigned long end = jiffies + 2 * HZ;
	struct pfmk_ctx_stats st;
	u64 n;

	/* Busy on this CPU until one of its ticks has started it again. */
	do {
		mdelay(1000 / HZ + 1);
		emu_check(t, "tick", 0, pfmk_emu_tick(th->cpu, 0, 1));
		/* Pairs with the format's release store of hdr_count. */
		n = smp_load_acquire(&th->hdr->hdr_count);
	} while (n == EMU_THR_PER_TICK && time_before(jiffies, end));
	emu_check(t, "samples again after a tick", EMU_THR_PER_TICK + 1, n);
	emu_check(t, "stats", 0, pfmk_get_stats(th->desc, &st));
	emu_check(t, "throttled once", 1, st.throttled);
	emu_check(t, "next entry not marked", 0,
		  ent[EMU_THR_PER_TICK].reserved);
}

static bool emu_throttle_unthrottles(const char *t)
{
	return emu_thr_case(t, emu_throttle_unthrottles_check);
}

/*
 * A nested overflow: an NMI overflow of the context while its overflow
 * handler runs for another PMD (a cpu-clock hrtimer, hard-irq).  A
 * sampling format that raises an emulated overflow from inside ->handler()
 * makes the nesting happen at every cpu-clock overflow: pfmk counts each
 * as nested and drops it, and the context carries on.
 */
static atomic_t emu_nest_calls, emu_nest_raised;

static ssize_t emu_nest_size(const void *arg, unsigned int npmds)
{
	return PAGE_SIZE;
}

static void emu_nest_init(void *buf, void *priv, size_t size, const void *arg,
			  unsigned int npmds)
{
}

static int emu_nest_handler(void *buf, void *priv, struct pfmk_ovfl_arg *arg)
{
	u64 nmis;

	if (arg->ovfl_pmd == 0 && !in_nmi()) {
		atomic_inc(&emu_nest_calls);
		/*
		 * Cycles on PMD1 overflow at this tick: an NMI, now (unless
		 * pfmk_stop() already stopped the cycles event).
		 */
		nmis = pfmk_emu_nmis(arg->cpu);
		pfmk_emu_tick_local(1);
		if (pfmk_emu_nmis(arg->cpu) != nmis)
			atomic_inc(&emu_nest_raised);
	}
	arg->ovfl_ctrl = PFM_OVFL_CTRL_RESET;
	return 0;
}

static void emu_nest_restart(void *buf, void *priv)
{
}

static struct pfmk_smpl_fmt emu_nest_fmt = {
	.name		= "pfmk_emu_nest",
	.uuid		= { 0x70, 0x66, 0x6d, 0x6b, 0x2d, 0x65, 0x6d, 0x75,
			    0x2d, 0x6e, 0x65, 0x73, 0x74, 0x00, 0x00, 0x01 },
	.owner		= THIS_MODULE,
	.arg_size	= sizeof(u64),
	.get_size	= emu_nest_size,
	.init		= emu_nest_init,
	.handler	= emu_nest_handler,
	.restart	= emu_nest_restart,
};

struct emu_nest {
	void	*desc;
	int	cpu;
	bool	registered;
	u64	nmis;		/* before the context ran */
	int	calls;		/* cpu-clock overflows in 100 ms of both */
	int	raised;		/* of them, with an NMI inside */
};

/* cpu-clock every 2 ms, cycles every tick, both on; false: see @n. */
static bool emu_nest_start(const char *t, struct emu_nest *n)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_pmc pmc[2] = {
		{ .reg_num = 0, .reg_value = PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK) },
		{ .reg_num = 1, .reg_value = PFMK_GEN_HW(PERF_COUNT_HW_CPU_CYCLES) },
	};
	struct pfarg_pmd pmd[2];
	void *buf = NULL;
	u64 fmt_arg = 0;

	memset(n, 0, sizeof(*n));
	n->cpu = cpumask_last(cpu_online_mask);
	if (!emu_check(t, "register format", 0,
		       pfmk_smpl_fmt_register(&emu_nest_fmt)))
		return false;
	n->registered = true;
	atomic_set(&emu_nest_raised, 0);
	atomic_set(&emu_nest_calls, 0);
	memcpy(ctx.ctx_smpl_buf_id, emu_nest_fmt.uuid, sizeof(pfm_uuid_t));
	if (!emu_check(t, "create", 0,
		       pfmk_create_context(&ctx, &fmt_arg, sizeof(fmt_arg),
					   &emu_done, &n->desc, &buf)))
		return false;
	/* cpu-clock every 2 ms; cycles overflow at the first tick. */
	emu_sampler_pmd(&pmd[0], 0, 2000000);
	emu_sampler_pmd(&pmd[1], 1, PFMK_EMU_INC_CYCLES);
	n->nmis = pfmk_emu_nmis(n->cpu);
	return emu_check(t, "write_pmcs", 0, pfmk_write_pmcs(n->desc, pmc, 2)) &&
	       emu_check(t, "write_pmds", 0, pfmk_write_pmds(n->desc, pmd, 2)) &&
	       emu_load_start(t, n->desc, n->cpu);
}

/*
 * emu_nest_start(), then 100 ms of both running.  pfmk_start() enables
 * cpu-clock, then cycles: an overflow between the two finds cycles
 * stopped, as may the last one before stop.  From here to the second
 * snapshot both run: every overflow raises an NMI, but for the one a
 * snapshot may catch in progress.
 */
static bool emu_nest_run(const char *t, struct emu_nest *n)
{
	int calls0, raised0;

	if (!emu_nest_start(t, n))
		return false;
	calls0 = atomic_read(&emu_nest_calls);
	raised0 = atomic_read(&emu_nest_raised);
	msleep(100);
	n->calls = atomic_read(&emu_nest_calls) - calls0;
	n->raised = atomic_read(&emu_nest_raised) - raised0;
	return true;
}

/*
 * A nesting case: emu_nest_run(), @check if it ran, close, unregister
 * the format.
 */
static bool emu_nest_case(const char *t,
			  void (*check)(const char *t, struct emu_nest *n))
{
	unsigned int failed = emu_failed;
	struct emu_nest n;

	if (emu_nest_run(t, &n))
		check(t, &n);
	emu_close(t, n.desc, failed);
	if (n.registered)
		pfmk_smpl_fmt_unregister(&emu_nest_fmt);
	return emu_failed == failed;
}

/* While both run, every cpu-clock overflow has an NMI overflow inside. */
static void emu_nested_check(const char *t, struct emu_nest *n)
{
	emu_check(t, "cpu-clock overflowed", 1, n->calls > 0);
	emu_check(t, "an NMI in every cpu-clock overflow while both ran",
		  1, n->raised >= n->calls - 1);
	emu_check(t, "stop", 0, pfmk_stop(n->desc));
}

static bool emu_nested(const char *t)
{
	return emu_nest_case(t, emu_nested_check);
}

/* Each nested overflow counted and dropped; the context carries on. */
static void emu_nested_dropped_check(const char *t, struct emu_nest *n)
{
	struct pfmk_ctx_stats st;
	int raised, calls;

	emu_check(t, "stop", 0, pfmk_stop(n->desc));
	raised = atomic_read(&emu_nest_raised);
	calls = atomic_read(&emu_nest_calls);
	emu_check(t, "stats", 0, pfmk_get_stats(n->desc, &st));
	emu_check(t, "NMIs", raised, pfmk_emu_nmis(n->cpu) - n->nmis);
	emu_check(t, "nested", raised, st.ovfl_nested);
	/* The nested ones are dropped: only cpu-clock's are handled. */
	emu_check(t, "overflows handled", calls, st.ovfl_count);
	emu_check(t, "throttled", 0, st.throttled);
}

static bool emu_nested_dropped(const char *t)
{
	return emu_nest_case(t, emu_nested_dropped_check);
}

struct emu_test {
	const char	*name;
	bool		(*run)(const char *name);
};

static const struct emu_test emu_tests[] = {
	{ "perf_generic_exact", emu_perf_generic },
	{ "perf_cmask_inv_edge", emu_perf_cmask },
	{ "client2006_images_exact", emu_client2006_images },
	{ "pfmk_generic_hw_exact", emu_pfmk_generic },
	{ "sampling_in_nmi", emu_sampling_nmi },
	{ "sampling_nmi_entries_exact", emu_sampling_nmi_entries },
	{ "sampling_nmi_stats", emu_sampling_nmi_stats },
	{ "sets_multiplex_hw", emu_sets_multiplex },
	{ "sets_multiplex_hw_set1", emu_sets_multiplex_set1 },
	{ "sets_multiplex_hw_fixed", emu_sets_multiplex_fixed },
	{ "perf_multiplex_hw", emu_perf_multiplex },
	{ "perf_multiplex_hw_counts", emu_perf_multiplex_counts },
	{ "perf_multiplex_hw_four_at_once", emu_perf_multiplex_four },
	{ "hotplug_hw", emu_hotplug },
	{ "throttle_hw", emu_throttle },
	{ "throttle_hw_entry_marked", emu_throttle_marked },
	{ "throttle_hw_unthrottles", emu_throttle_unthrottles },
	{ "nested_overflow_nmi", emu_nested },
	{ "nested_overflow_dropped", emu_nested_dropped },
};

static bool emu_run_case(void *unused, const struct emu_test *t,
			 const char **skip)
{
	bool ok;

	emu_skip = NULL;
	ok = t->run(t->name);
	*skip = emu_skip;
	return ok;
}

static int __init pfmk_emu_smoke_init(void)
{
	struct pfmk_ktap k;

	init_completion(&emu_done);
	pfmk_ktap_run(&k, emu_tests, ARRAY_SIZE(emu_tests), emu_run_case,
		      NULL);
	pfmk_ktap_diag("pfmk_emu_smoke: %u checks failed", emu_failed);
	pfmk_ktap_end(&k);
	return 0;
}

static void __exit pfmk_emu_smoke_exit(void)
{
}

module_init(pfmk_emu_smoke_init);
module_exit(pfmk_emu_smoke_exit);

MODULE_DESCRIPTION("pfmk: hardware events on the emulated x86 core PMU (KTAP)");
MODULE_LICENSE("GPL");
