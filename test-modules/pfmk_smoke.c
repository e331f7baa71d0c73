// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_smoke: smoke tests of the pfmk KAPI for kernels without KUnit.
 *
 * Runs at module load and prints a KTAP document with pr_info(): a life
 * cycle with exact counts on the deterministic "pfmk_test" PMU, cpu-clock
 * counts bounded by elapsed time, a few errnos, and events given as
 * strings to pfmk_encode() (pfmk_test by name, cpu-clock, the software
 * PMU by name, msr/tsc/, sched:sched_switch).  Module init always
 * returns 0: the harness reads the verdict from the KTAP lines.  The
 * KUnit suites (pfmk_kunit) cover the same ground in depth.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/string.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif
#include <pfmk/encode.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_ktap.h"
#include "pfmk_test_ops.h"
#include "pfmk_test_pmu.h"
#include "pfmk_test_thread.h"

#define SMOKE_INIT0		BIT_ULL(40)
#define SMOKE_INIT1		5ULL
#define SMOKE_STEP0		3
#define SMOKE_STEP1		7

/**
 * struct smoke - state shared by the smoke tests, which run in order
 * @name: name of the running test, for diagnostics.
 * @failed: failed checks of the running test.
 * @skip_reason: why the running test skips, or NULL.
 * @desc: the life-cycle context on the test PMU, NULL once closed.
 * @cpu: CPU the life-cycle context is loaded on.
 * @expect: expected values of PMD 0 and 1 of @desc.
 * @done: completion given to pfmk_create_context().
 */
struct smoke {
	const char		*name;
	unsigned int		failed;
	const char		*skip_reason;
	void			*desc;
	int			cpu;
	u64			expect[2];
	struct completion	done;
};

static struct smoke smoke;

/* pfmk_ktap.h's checks, counted in the running test's failures. */
static bool smoke_check(struct smoke *s, const char *what, long long expected,
			long long actual)
{
	return pfmk_ktap_check(&s->failed, s->name, what, expected, actual);
}

static bool smoke_check_u64(struct smoke *s, const char *what, u64 expected,
			    u64 actual)
{
	return pfmk_ktap_check_u64(&s->failed, s->name, what, expected, actual);
}

static bool smoke_check_true(struct smoke *s, const char *what, bool cond)
{
	return pfmk_ktap_check_true(&s->failed, s->name, what, cond);
}

static void smoke_skip(struct smoke *s, const char *reason)
{
	s->skip_reason = reason;
}

/* The life-cycle tests need the context of the first one. */
static bool smoke_need_ctx(struct smoke *s)
{
	if (s->desc)
		return true;
	smoke_skip(s, "no life-cycle context (an earlier test failed)");
	return false;
}

static int smoke_create(struct smoke *s, const char *pmu, void **desc)
{
	return pfmk_test_create(pmu, 0, &s->done, desc, NULL);
}

/* Read PMD 0 and 1 of the life-cycle context and compare to s->expect. */
static void smoke_check_pmds(struct smoke *s)
{
	struct pfarg_pmd pmd[2];

	memset(pmd, 0, sizeof(pmd));
	pmd[0].reg_num = 0;
	pmd[1].reg_num = 1;
	if (!smoke_check(s, "read_pmds", 0, pfmk_read_pmds(s->desc, pmd, 2)))
		return;
	smoke_check_u64(s, "PMD0", s->expect[0], pmd[0].reg_value);
	smoke_check_u64(s, "PMD1", s->expect[1], pmd[1].reg_value);
}

static void smoke_lifecycle_create(struct smoke *s)
{
	void *desc = NULL;

	if (!smoke_check(s, "create", 0,
			 smoke_create(s, PFMK_TEST_PMU_NAME, &desc)))
		return;
	s->desc = desc;
	smoke_check(s, "state", PFM_CTX_UNLOADED, pfmk_get_state(desc));
}

static void smoke_lifecycle_program(struct smoke *s)
{
	struct pfarg_pmc pmc[2];
	struct pfarg_pmd pmd[2];

	if (!smoke_need_ctx(s))
		return;
	memset(pmc, 0, sizeof(pmc));
	pmc[0].reg_num = 0;
	pmc[0].reg_value = PFMK_TEST_PMC(SMOKE_STEP0);
	pmc[1].reg_num = 1;
	pmc[1].reg_value = PFMK_TEST_PMC(SMOKE_STEP1);
	smoke_check(s, "write_pmcs", 0, pfmk_write_pmcs(s->desc, pmc, 2));

	memset(pmd, 0, sizeof(pmd));
	pmd[0].reg_num = 0;
	pmd[0].reg_value = SMOKE_INIT0;
	pmd[1].reg_num = 1;
	pmd[1].reg_value = SMOKE_INIT1;
	smoke_check(s, "write_pmds", 0, pfmk_write_pmds(s->desc, pmd, 2));
	s->expect[0] = SMOKE_INIT0;
	s->expect[1] = SMOKE_INIT1;
	smoke_check_pmds(s);
}

static void smoke_lifecycle_load_start(struct smoke *s)
{
	if (!smoke_need_ctx(s))
		return;
	if (!smoke_check(s, "load", 0, pfmk_test_load(s->desc, s->cpu)))
		return;
	smoke_check(s, "state after load", PFM_CTX_LOADED,
		    pfmk_get_state(s->desc));
	smoke_check(s, "active events while stopped", 0,
		    pfmk_test_pmu_nr_active(s->cpu));
	pfmk_test_pmu_tick(s->cpu, 100);
	smoke_check_pmds(s);

	if (!smoke_check(s, "start", 0, pfmk_start(s->desc, NULL)))
		return;
	smoke_check(s, "state after start",
		    PFM_CTX_LOADED | PFMK_STATE_STARTED,
		    pfmk_get_state(s->desc));
	smoke_check(s, "active events while started", 2,
		    pfmk_test_pmu_nr_active(s->cpu));
}

static void smoke_lifecycle_count(struct smoke *s)
{
	if (!smoke_need_ctx(s))
		return;
	pfmk_test_pmu_tick(s->cpu, 1000);
	s->expect[0] += 1000 * SMOKE_STEP0;
	s->expect[1] += 1000 * SMOKE_STEP1;
	smoke_check_pmds(s);
	pfmk_test_pmu_tick(s->cpu, 1);
	s->expect[0] += SMOKE_STEP0;
	s->expect[1] += SMOKE_STEP1;
	smoke_check_pmds(s);
}

static void smoke_lifecycle_stop(struct smoke *s)
{
	if (!smoke_need_ctx(s))
		return;
	if (!smoke_check(s, "stop", 0, pfmk_stop(s->desc)))
		return;
	smoke_check(s, "state after stop", PFM_CTX_LOADED,
		    pfmk_get_state(s->desc));
	smoke_check(s, "active events after stop", 0,
		    pfmk_test_pmu_nr_active(s->cpu));
	pfmk_test_pmu_tick(s->cpu, 500);
	smoke_check_pmds(s);
}

static void smoke_lifecycle_restart(struct smoke *s)
{
	if (!smoke_need_ctx(s))
		return;
	if (!smoke_check(s, "start again", 0, pfmk_start(s->desc, NULL)))
		return;
	pfmk_test_pmu_tick(s->cpu, 10);
	s->expect[0] += 10 * SMOKE_STEP0;
	s->expect[1] += 10 * SMOKE_STEP1;
	smoke_check_pmds(s);
}

static void smoke_lifecycle_unload(struct smoke *s)
{
	if (!smoke_need_ctx(s))
		return;
	if (!smoke_check(s, "unload", 0, pfmk_unload_context(s->desc)))
		return;
	smoke_check(s, "state after unload", PFM_CTX_UNLOADED,
		    pfmk_get_state(s->desc));
	smoke_check(s, "active events after unload", 0,
		    pfmk_test_pmu_nr_active(s->cpu));
	pfmk_test_pmu_tick(s->cpu, 77);
	smoke_check_pmds(s);
}

static void smoke_lifecycle_close(struct smoke *s)
{
	struct pfarg_pmd pmd;
	void *desc = s->desc;

	if (!smoke_need_ctx(s))
		return;
	s->desc = NULL;
	if (!smoke_check(s, "close", 0, pfmk_close(desc)))
		return;
	memset(&pmd, 0, sizeof(pmd));
	smoke_check(s, "read_pmds after close", -EBADF,
		    pfmk_read_pmds(desc, &pmd, 1));
	smoke_check(s, "close after close", -EBADF, pfmk_close(desc));
}

static void smoke_bad_descriptor(struct smoke *s)
{
	struct pfarg_pmd pmd;
	int local;
	void *bad[] = { NULL, (void *)0x1234, (void *)-1L, &local };
	unsigned int i;

	memset(&pmd, 0, sizeof(pmd));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		smoke_check(s, "read_pmds", -EBADF,
			    pfmk_read_pmds(bad[i], &pmd, 1));
		smoke_check(s, "start", -EBADF, pfmk_start(bad[i], NULL));
		smoke_check(s, "get_state", -EBADF, pfmk_get_state(bad[i]));
		smoke_check(s, "close", -EBADF, pfmk_close(bad[i]));
	}
}

static void smoke_bad_state(struct smoke *s)
{
	struct pfarg_load load;
	void *desc = NULL;

	if (!smoke_check(s, "create", 0, smoke_create(s, "", &desc)))
		return;
	smoke_check(s, "start unloaded", -ENOTCONN, pfmk_start(desc, NULL));
	smoke_check(s, "stop unloaded", -ENOTCONN, pfmk_stop(desc));
	smoke_check(s, "unload unloaded", -ENOTCONN, pfmk_unload_context(desc));
	smoke_check(s, "restart unloaded", -ENOTCONN, pfmk_restart(desc));

	memset(&load, 0, sizeof(load));
	load.load_pid = s->cpu;
	if (smoke_check(s, "load", 0, pfmk_load_context(desc, &load))) {
		smoke_check(s, "load loaded", -EBUSY,
			    pfmk_load_context(desc, &load));
		smoke_check(s, "stop stopped", -EALREADY, pfmk_stop(desc));
		smoke_check(s, "restart not masked", -EBUSY,
			    pfmk_restart(desc));
		if (smoke_check(s, "start", 0, pfmk_start(desc, NULL)))
			smoke_check(s, "start started", -EALREADY,
				    pfmk_start(desc, NULL));
	}
	smoke_check(s, "close", 0, pfmk_close(desc));
}

static void smoke_invalid_pmc(struct smoke *s)
{
	struct pfarg_pmc pmc[2];
	struct pfarg_pmd pmd;
	void *desc = NULL;

	if (!smoke_check(s, "create", 0,
			 smoke_create(s, PFMK_TEST_PMU_NAME, &desc)))
		return;

	/* A good entry and one with a reserved bit: nothing is applied. */
	memset(pmc, 0, sizeof(pmc));
	pmc[0].reg_num = 0;
	pmc[0].reg_value = PFMK_TEST_PMC(1);
	pmc[1].reg_num = 1;
	pmc[1].reg_value = PFMK_TEST_PMC(1) | BIT_ULL(40);
	smoke_check(s, "reserved bit", -EINVAL, pfmk_write_pmcs(desc, pmc, 2));
	smoke_check_true(s, "PFM_REG_RETFL_EINVAL on the bad entry",
			 pmc[1].reg_flags & PFM_REG_RETFL_EINVAL);
	smoke_check_true(s, "no error flag on the good entry",
			 !PFM_REG_HAS_ERROR(pmc[0].reg_flags));

	memset(pmc, 0, sizeof(pmc));
	pmc[0].reg_num = 0;
	pmc[0].reg_value = PFMK_TEST_PMC(0);
	smoke_check(s, "EN with STEP 0", -EINVAL,
		    pfmk_write_pmcs(desc, pmc, 1));
	smoke_check_true(s, "PFM_REG_RETFL_EINVAL on STEP 0",
			 pmc[0].reg_flags & PFM_REG_RETFL_EINVAL);

	memset(pmc, 0, sizeof(pmc));
	pmc[0].reg_num = PFMK_TEST_NUM_PMCS;
	pmc[0].reg_value = PFMK_TEST_PMC(1);
	smoke_check(s, "PMC out of range", -EINVAL,
		    pfmk_write_pmcs(desc, pmc, 1));
	smoke_check_true(s, "PFM_REG_RETFL_NOTAVAIL",
			 pmc[0].reg_flags & PFM_REG_RETFL_NOTAVAIL);

	/* PMC 0 must still be disabled: loaded and started, it counts 0. */
	if (smoke_check(s, "load", 0, pfmk_test_load(desc, s->cpu)) &&
	    smoke_check(s, "start", 0, pfmk_start(desc, NULL))) {
		smoke_check(s, "active events", 0,
			    pfmk_test_pmu_nr_active(s->cpu));
		pfmk_test_pmu_tick(s->cpu, 10);
		memset(&pmd, 0, sizeof(pmd));
		smoke_check(s, "read_pmds", 0, pfmk_read_pmds(desc, &pmd, 1));
		smoke_check_u64(s, "PMD0 of the rejected vector", 0,
				pmd.reg_value);
	}
	smoke_check(s, "close", 0, pfmk_close(desc));
}

static void smoke_local_clock_fn(void *t)
{
	*(u64 *)t = local_clock();
}

/* local_clock() of @cpu, read there. */
static u64 smoke_local_clock(int cpu)
{
	u64 t = 0;

	smp_call_function_single(cpu, smoke_local_clock_fn, &t, 1);
	return t;
}

/*
 * A cpu-clock context of @cpu, loaded and started, in *@desc (NULL if a
 * step failed: it is closed); *@t0 and *@t0s are @cpu's local_clock()
 * before and after the start.
 */
static bool smoke_clock_start(struct smoke *s, int cpu, void **desc,
			      u64 *t0, u64 *t0s)
{
	struct pfarg_pmc pmc;

	*desc = NULL;
	if (!smoke_check(s, "create", 0, smoke_create(s, "", desc)))
		return false;
	memset(&pmc, 0, sizeof(pmc));
	pmc.reg_value = PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK);
	if (smoke_check(s, "write_pmcs", 0, pfmk_write_pmcs(*desc, &pmc, 1)) &&
	    smoke_check(s, "load", 0, pfmk_test_load(*desc, cpu))) {
		*t0 = smoke_local_clock(cpu);
		if (smoke_check(s, "start", 0, pfmk_start(*desc, NULL))) {
			*t0s = smoke_local_clock(cpu);
			return true;
		}
	}
	smoke_check(s, "close", 0, pfmk_close(*desc));
	*desc = NULL;
	return false;
}

/*
 * cpu-clock counts local_clock() of its CPU.  Without a stable TSC (QEMU
 * TCG's default CPU model) that clock follows the tick and may lag ktime
 * by several ticks on a loaded host, so the bounds are taken on the
 * event's CPU by the same clock: t0 before the start, t0s after it, t1r
 * before the read, t1 after it; the count lies in [t1r - t0s, t1 - t0].
 */
static void smoke_cpu_clock(struct smoke *s)
{
	int cpu = raw_smp_processor_id();
	u64 t0, t0s, t1r, t1;
	struct pfarg_pmd pmd;
	void *desc;

	if (!smoke_clock_start(s, cpu, &desc, &t0, &t0s))
		return;
	msleep(20);
	t1r = smoke_local_clock(cpu);
	memset(&pmd, 0, sizeof(pmd));
	smoke_check(s, "read_pmds", 0, pfmk_read_pmds(desc, &pmd, 1));
	t1 = smoke_local_clock(cpu);
	if (pmd.reg_value < t1r - t0s || pmd.reg_value > t1 - t0 ||
	    !pmd.reg_value) {
		pr_info("# %s: cpu-clock %llu ns, CPU %d's clock %llu..%llu ns\n",
			s->name, pmd.reg_value, cpu, t1r - t0s, t1 - t0);
		s->failed++;
	}
	smoke_check(s, "close", 0, pfmk_close(desc));
}

/*
 * The count grows once the CPU's clock has moved past the read; an idle
 * CPU's clamped clock may stand still for up to a tick.
 */
static void smoke_cpu_clock_grows(struct smoke *s)
{
	int cpu = raw_smp_processor_id(), i;
	struct pfarg_pmd pmd;
	u64 t0, t0s, t1, prev;
	void *desc;

	if (!smoke_clock_start(s, cpu, &desc, &t0, &t0s))
		return;
	msleep(20);
	memset(&pmd, 0, sizeof(pmd));
	smoke_check(s, "read_pmds", 0, pfmk_read_pmds(desc, &pmd, 1));
	prev = pmd.reg_value;
	t1 = smoke_local_clock(cpu);
	for (i = 0; i < 1000 && smoke_local_clock(cpu) <= t1; i++)
		usleep_range(100, 200);
	smoke_check(s, "read_pmds", 0, pfmk_read_pmds(desc, &pmd, 1));
	smoke_check_true(s, "cpu-clock grows while started",
			 pmd.reg_value > prev);
	smoke_check(s, "close", 0, pfmk_close(desc));
}

/* Stopped, the count stands still. */
static void smoke_cpu_clock_stop_freezes(struct smoke *s)
{
	struct pfarg_pmd pmd;
	u64 t0, t0s, prev;
	void *desc;

	if (!smoke_clock_start(s, raw_smp_processor_id(), &desc, &t0, &t0s))
		return;
	msleep(20);
	smoke_check(s, "stop", 0, pfmk_stop(desc));
	memset(&pmd, 0, sizeof(pmd));
	smoke_check(s, "read_pmds", 0, pfmk_read_pmds(desc, &pmd, 1));
	prev = pmd.reg_value;
	usleep_range(5000, 6000);
	smoke_check(s, "read_pmds", 0, pfmk_read_pmds(desc, &pmd, 1));
	smoke_check_u64(s, "cpu-clock frozen while stopped", prev,
			pmd.reg_value);
	smoke_check(s, "close", 0, pfmk_close(desc));
}

static void smoke_hw_event(struct smoke *s)
{
	struct pfarg_pmc pmc;
	void *desc = NULL;
	int cpu = s->cpu, expected, ret;

	if (!smoke_check(s, "create", 0, smoke_create(s, "", &desc)))
		return;
	memset(&pmc, 0, sizeof(pmc));
	pmc.reg_value = PFMK_GEN_HW(PERF_COUNT_HW_CPU_CYCLES);
	if (smoke_check(s, "write_pmcs", 0, pfmk_write_pmcs(desc, &pmc, 1))) {
		expected = pfmk_test_hw_cycles_expected(cpu);
		pr_info("# %s: hardware cycles on CPU %d: perf says %d\n",
			s->name, cpu, expected);
		ret = pfmk_test_load(desc, cpu);
		smoke_check(s, "load", expected, ret);
		smoke_check(s, "state", ret ? PFM_CTX_UNLOADED : PFM_CTX_LOADED,
			    pfmk_get_state(desc));
	}
	smoke_check(s, "close", 0, pfmk_close(desc));
}

/* Create a pfmk_test context with a default-format buffer of @size bytes. */
static int smoke_create_smpl(struct smoke *s, u64 size, void **desc,
			     struct pfm_dfl_smpl_hdr **hdr)
{
	void *buf = NULL;
	int ret;

	ret = pfmk_test_create(PFMK_TEST_PMU_NAME, size, &s->done, desc, &buf);
	*hdr = buf;
	return ret;
}

/* Number of published entries of a default-format buffer. */
static u64 smoke_hdr_count(struct pfm_dfl_smpl_hdr *hdr)
{
	/* Entries below the count are complete: pairs with the writer. */
	return smp_load_acquire(&hdr->hdr_count);
}

/*
 * PMD0 samples every SMOKE_PERIOD ticks (STEP 1) and records PMD1, which
 * counts SMOKE_STEP1 per tick: SMOKE_TICKS ticks give exact entries.
 */
#define SMOKE_PERIOD	10
#define SMOKE_TICKS	35

/* A default-format buffer with room for exactly one entry. */
#define SMOKE_ONE_ENTRY	(sizeof(struct pfm_dfl_smpl_hdr) + \
			 sizeof(struct pfm_dfl_smpl_entry) + \
			 PFMK_TEST_NUM_PMCS * sizeof(u64))

static int smoke_program_smpl(void *desc, int cpu, u32 flags, u64 long_reset)
{
	struct pfarg_pmc pmc[2];
	struct pfarg_pmd pmd[2];

	memset(pmc, 0, sizeof(pmc));
	memset(pmd, 0, sizeof(pmd));
	pmc[0].reg_num = 0;
	pmc[0].reg_value = PFMK_TEST_PMC(1);
	pmc[1].reg_num = 1;
	pmc[1].reg_value = PFMK_TEST_PMC(SMOKE_STEP1);
	pmd[0].reg_num = 0;
	pmd[0].reg_flags = flags;
	pmd[0].reg_value = -(u64)SMOKE_PERIOD;
	pmd[0].reg_short_reset = -(u64)SMOKE_PERIOD;
	pmd[0].reg_long_reset = long_reset;
	pmd[0].reg_smpl_pmds[0] = BIT_ULL(1);
	pmd[1].reg_num = 1;
	return pfmk_write_pmcs(desc, pmc, 2) ?: pfmk_write_pmds(desc, pmd, 2) ?:
	       pfmk_test_load(desc, cpu) ?: pfmk_start(desc, NULL);
}

static void smoke_sampling_exact(struct smoke *s)
{
	struct pfm_dfl_smpl_entry *ent;
	struct pfm_dfl_smpl_hdr *hdr;
	void *desc = NULL;
	u64 i, count, *val;

	if (!smoke_check(s, "create", 0,
			 smoke_create_smpl(s, 4096, &desc, &hdr)))
		return;
	if (!smoke_check(s, "program", 0,
			 smoke_program_smpl(desc, s->cpu, 0, 0)))
		goto out;
	pfmk_test_pmu_tick(s->cpu, SMOKE_TICKS);

	count = smoke_hdr_count(hdr);
	smoke_check_u64(s, "entries", SMOKE_TICKS / SMOKE_PERIOD, count);
	ent = (void *)(hdr + 1);
	for (i = 0; i < count && i < SMOKE_TICKS / SMOKE_PERIOD; i++) {
		val = (u64 *)(ent + 1);
		smoke_check(s, "ovfl_pmd", 0, ent->ovfl_pmd);
		smoke_check(s, "cpu", s->cpu, ent->cpu);
		smoke_check_u64(s, "last_reset_val", -(u64)SMOKE_PERIOD,
				ent->last_reset_val);
		smoke_check_u64(s, "sampled PMD1",
				SMOKE_STEP1 * SMOKE_PERIOD * (i + 1), *val);
		ent = (void *)(val + 1);
	}
out:
	smoke_check(s, "close", 0, pfmk_close(desc));
}

static void smoke_sampling_notify(struct smoke *s)
{
	struct pfm_dfl_smpl_hdr *hdr;
	union pfm_msg msg;
	void *desc = NULL;

	/*
	 * Room for one entry: the default format asks for a notification
	 * and masking when the buffer is full (perfmon2 2.2), here at the
	 * first overflow.
	 */
	reinit_completion(&s->done);
	if (!smoke_check(s, "create", 0,
			 smoke_create_smpl(s, SMOKE_ONE_ENTRY, &desc, &hdr)))
		return;
	if (!smoke_check(s, "program", 0,
			 smoke_program_smpl(desc, s->cpu, PFM_REGFL_OVFL_NOTIFY,
					    -2ULL * SMOKE_PERIOD)))
		goto out;
	pfmk_test_pmu_tick(s->cpu, SMOKE_PERIOD);
	smoke_check_true(s, "completion signalled",
			 wait_for_completion_timeout(&s->done, 5 * HZ));
	smoke_check(s, "state", PFM_CTX_MASKED | PFMK_STATE_STARTED,
		    pfmk_get_state(desc));
	smoke_check(s, "read", sizeof(msg),
		    pfmk_read(desc, &msg, sizeof(msg), 1));
	smoke_check(s, "message type", PFM_MSG_OVFL, msg.type);
	smoke_check_u64(s, "overflowed PMDs", 1,
			msg.pfm_ovfl_msg.msg_ovfl_pmds[0]);
	smoke_check_u64(s, "entries before restart", 1,
			smoke_hdr_count(hdr));
	smoke_check(s, "restart", 0, pfmk_restart(desc));
	smoke_check(s, "state after restart", PFM_CTX_LOADED | PFMK_STATE_STARTED,
		    pfmk_get_state(desc));
	smoke_check(s, "restart while not masked", -EBUSY, pfmk_restart(desc));
	smoke_check_u64(s, "entries after restart", 0,
			smoke_hdr_count(hdr));
	/* The long reset: the next overflow comes 2 periods later. */
	pfmk_test_pmu_tick(s->cpu, 2 * SMOKE_PERIOD - 1);
	smoke_check_u64(s, "no overflow before the long period", 0,
			smoke_hdr_count(hdr));
	pfmk_test_pmu_tick(s->cpu, 1);
	smoke_check_u64(s, "overflow after the long period", 1,
			smoke_hdr_count(hdr));
out:
	smoke_check(s, "close", 0, pfmk_close(desc));
}

/*
 * Events as strings (pfmk_encode()), on PMUs nobody here wrote: event i
 * of @events programs PMD i of a context whose description pfmk_encode()
 * chose; loaded on @cpu and started.  Return 0 or the first error.
 */
static int smoke_encode_ctx(struct smoke *s, const char * const *events,
			    unsigned int n, int cpu, void **desc)
{
	struct pfarg_pmc pmcs[4 * PFMK_ENCODE_MAX_PMCS];
	unsigned int i, got, count = 0;
	struct pfarg_ctx req;
	int ret;

	*desc = NULL;
	memset(&req, 0, sizeof(req));
	req.ctx_flags = PFM_FL_SYSTEM_WIDE;
	for (i = 0; i < n && i < 4; i++) {
		ret = pfmk_encode(events[i], i, &req, pmcs + count,
				  ARRAY_SIZE(pmcs) - count, &got);
		if (!smoke_check(s, events[i], 0, ret))
			return ret;
		count += got;
	}
	ret = pfmk_create_context(&req, NULL, 0, &s->done, desc, NULL);
	if (!smoke_check(s, "create", 0, ret))
		return ret;
	ret = pfmk_write_pmcs(*desc, pmcs, count);
	if (!ret)
		ret = pfmk_test_load(*desc, cpu);
	if (!ret)
		ret = pfmk_start(*desc, NULL);
	if (!smoke_check(s, "write, load, start", 0, ret)) {
		pfmk_close(*desc);
		*desc = NULL;
	}
	return ret;
}

static u64 smoke_read1(struct smoke *s, void *desc, u16 reg)
{
	u64 v;

	smoke_check(s, "read_pmds", 0, pfmk_test_read_pmds(desc, reg, 1, &v));
	return v;
}

/* pfmk_test by name, through its format attribute: exact counts. */
static void smoke_encode_pfmk_test(struct smoke *s)
{
	static const char * const ev[] = { "pfmk_test/step=3/" };
	void *desc;

	if (smoke_encode_ctx(s, ev, 1, s->cpu, &desc))
		return;
	pfmk_test_pmu_tick(s->cpu, 5);
	smoke_check(s, "stop", 0, pfmk_stop(desc));
	pfmk_test_pmu_tick(s->cpu, 5);
	smoke_check_u64(s, "pfmk_test/step=3/ after 5 ticks", 15,
			smoke_read1(s, desc, 0));
	smoke_check(s, "close", 0, pfmk_close(desc));
}

/* A clock event of @ev: at least 40 ms counted in 50. */
static void smoke_encode_clock(struct smoke *s, const char * const *ev)
{
	void *desc;
	u64 v;

	if (smoke_encode_ctx(s, ev, 1, s->cpu, &desc))
		return;
	msleep(50);
	smoke_check(s, "stop", 0, pfmk_stop(desc));
	v = smoke_read1(s, desc, 0);
	if (!smoke_check_true(s, "counted 40 ms at least",
			      v >= 40 * NSEC_PER_MSEC))
		pr_info("# %s: %s counted %llu ns\n", s->name, ev[0], v);
	smoke_check(s, "close", 0, pfmk_close(desc));
}

/* cpu-clock by its generic name. */
static void smoke_encode_cpu_clock(struct smoke *s)
{
	static const char * const ev[] = { "cpu-clock" };

	smoke_encode_clock(s, ev);
}

/* cpu-clock through the software PMU by name: its dynamic description. */
static void smoke_encode_software_by_name(struct smoke *s)
{
	static const char * const ev[] = { "software/config=0/" };

	smoke_encode_clock(s, ev);
}

/*
 * msr/tsc/: within 2% of ktime x tsc_khz over 200 ms, on a busy CPU
 * (pfmk_test_msr_tsc(), shared with pfmk_dyn's dyn_msr_tsc: this case is
 * the stock kernels' coverage, which have no KUnit).
 */
static void smoke_encode_msr_tsc(struct smoke *s)
{
#ifdef CONFIG_X86
	static const char * const ev[] = { "msr/tsc/" };
	struct pfmk_test_tsc w;
	void *desc;

	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz) {
		smoke_skip(s, "no TSC");
		return;
	}
	if (smoke_encode_ctx(s, ev, 1, s->cpu, &desc))
		return;
	if (!smoke_check(s, "kthread and read_pmds", 0,
			 pfmk_test_msr_tsc(desc, s->cpu, &w)))
		goto out;
	pr_info("# %s: msr/tsc/ %llu ticks, ktime x tsc_khz %llu to %llu\n",
		s->name, w.got, w.lo, w.hi);
	if (w.got < w.lo - w.lo / 50 || w.got > w.hi + w.hi / 50)
		s->failed++;
out:
	smoke_check(s, "close", 0, pfmk_close(desc));
#else
	smoke_skip(s, "the msr PMU is x86's");
#endif
}

/* A thread bound to the counted CPU switches out 100 times, then parks. */
static int smoke_switch_fn(void *arg)
{
	int i;

	for (i = 0; i < 100; i++)
		usleep_range(100, 200);
	complete(arg);
	return pfmk_test_kthread_park();
}

/*
 * sched:sched_switch counts what context-switches counts: both fire for
 * every switch; pfmk enables and disables the two events one after the
 * other, and the CPU may switch in between: within 2 + 2%.
 */
static void smoke_encode_sched_switch(struct smoke *s)
{
	static const char * const ev[] = {
		"sched:sched_switch", "context-switches",
	};
	struct completion done;
	struct task_struct *t;
	void *desc;
	u64 tp, cs;

	init_completion(&done);
	if (smoke_encode_ctx(s, ev, 2, s->cpu, &desc))
		return;
	t = kthread_create(smoke_switch_fn, &done, "pfmk_smoke_sw");
	if (!smoke_check(s, "kthread", 0, PTR_ERR_OR_ZERO(t)))
		goto out;
	kthread_bind(t, s->cpu);
	wake_up_process(t);
	wait_for_completion(&done);
	smoke_check(s, "stop", 0, pfmk_stop(desc));
	kthread_stop(t);
	tp = smoke_read1(s, desc, 0);
	cs = smoke_read1(s, desc, 1);
	if (tp < 100 || tp > cs + 2 + cs / 50 || cs > tp + 2 + tp / 50) {
		pr_info("# %s: sched:sched_switch %llu, context-switches %llu\n",
			s->name, tp, cs);
		s->failed++;
	}
out:
	smoke_check(s, "close", 0, pfmk_close(desc));
}

/* Bad strings get their errnos. */
static void smoke_encode_errnos(struct smoke *s)
{
	struct pfarg_pmc pmcs[PFMK_ENCODE_MAX_PMCS];
	struct pfarg_ctx req;
	unsigned int n;

	memset(&req, 0, sizeof(req));
	smoke_check(s, "nosuch_pmu/x/", -ENOENT,
		    pfmk_encode("nosuch_pmu/x/", 0, &req, pmcs, 5, &n));
	smoke_check(s, "no/tp", -ENOENT,
		    pfmk_encode("nosys:noevent", 0, &req, pmcs, 5, &n));
	smoke_check(s, "unknown term", -EINVAL,
		    pfmk_encode("pfmk_test/nosuch=1/", 0, &req, pmcs, 5, &n));
	smoke_check(s, "too wide", -EINVAL,
		    pfmk_encode("pfmk_test/step=0x10000/", 0, &req, pmcs, 5,
				&n));
	smoke_check(s, "malformed", -EINVAL,
		    pfmk_encode("pfmk_test/step=1", 0, &req, pmcs, 5, &n));
	smoke_check(s, "max", -E2BIG,
		    pfmk_encode("pfmk_test/step=1/", 0, &req, pmcs, 1, &n));
	smoke_check(s, "bad modifier", -EINVAL,
		    pfmk_encode("cycles:z", 0, &req, pmcs, 5, &n));
}

struct smoke_test {
	const char	*name;
	void		(*run)(struct smoke *s);
};

static const struct smoke_test smoke_tests[] = {
	{ "lifecycle_create", smoke_lifecycle_create },
	{ "lifecycle_program", smoke_lifecycle_program },
	{ "lifecycle_load_start", smoke_lifecycle_load_start },
	{ "lifecycle_count_exact", smoke_lifecycle_count },
	{ "lifecycle_stop_freezes", smoke_lifecycle_stop },
	{ "lifecycle_restart_grows", smoke_lifecycle_restart },
	{ "lifecycle_unload_folds", smoke_lifecycle_unload },
	{ "lifecycle_close", smoke_lifecycle_close },
	{ "bad_descriptor", smoke_bad_descriptor },
	{ "bad_state", smoke_bad_state },
	{ "invalid_pmc", smoke_invalid_pmc },
	{ "cpu_clock_plausible", smoke_cpu_clock },
	{ "cpu_clock_grows", smoke_cpu_clock_grows },
	{ "cpu_clock_stop_freezes", smoke_cpu_clock_stop_freezes },
	{ "hw_event_load", smoke_hw_event },
	{ "sampling_exact", smoke_sampling_exact },
	{ "sampling_notify_restart", smoke_sampling_notify },
	{ "encode_pfmk_test_exact", smoke_encode_pfmk_test },
	{ "encode_cpu_clock", smoke_encode_cpu_clock },
	{ "encode_software_by_name", smoke_encode_software_by_name },
	{ "encode_msr_tsc", smoke_encode_msr_tsc },
	{ "encode_sched_switch", smoke_encode_sched_switch },
	{ "encode_errnos", smoke_encode_errnos },
};

static bool smoke_run_case(struct smoke *s, const struct smoke_test *t,
			   const char **skip)
{
	s->name = t->name;
	s->failed = 0;
	s->skip_reason = NULL;
	t->run(s);
	*skip = s->skip_reason;
	return !s->failed;
}

static int __init pfmk_smoke_init(void)
{
	struct smoke *s = &smoke;
	struct pfmk_ktap k;

	init_completion(&s->done);
	s->cpu = cpumask_last(cpu_online_mask);

	pfmk_ktap_run(&k, smoke_tests, ARRAY_SIZE(smoke_tests),
		      smoke_run_case, s);
	/* A failed life-cycle step may leave its context behind. */
	if (s->desc) {
		pfmk_close(s->desc);
		s->desc = NULL;
	}
	pfmk_ktap_end(&k);
	return 0;
}

static void __exit pfmk_smoke_exit(void)
{
}

module_init(pfmk_smoke_init);
module_exit(pfmk_smoke_exit);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk KAPI smoke tests (KTAP output)");
MODULE_LICENSE("GPL");
