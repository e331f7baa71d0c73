// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_hotplug_stress: a deterministic CPU hotplug test (KTAP), every kernel.
 *
 * Three contexts loaded and started on CPU 1 (counting and sampling on the
 * "pfmk_test" PMU, cpu-clock), then @hp_cycles offline/online cycles of
 * CPU 1: the exact counts and samples while it is online, the saved values
 * while it is offline, one PFMK_MSG_CPU_OFFLINE and one PFMK_MSG_CPU_ONLINE
 * per cycle and context with the cycle number, the re-arm, and pfmk's
 * global statistics (cpu_offline, cpu_online, rearm_failed).  One KTAP case
 * per kind of check; see Documentation/testing.rst.
 *
 * Module init always returns 0: the harness reads the verdict from KTAP.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/bitops.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_ktap.h"
#include "pfmk_test_cpu.h"
#include "pfmk_test_ops.h"
#include "pfmk_test_pmu.h"

static uint hp_cycles = 50;
module_param(hp_cycles, uint, 0444);
MODULE_PARM_DESC(hp_cycles, "offline/online cycles of CPU 1 (0: skip)");

#define HP_CPU		1
#define HP_WAIT_MS	5000
#define HP_CLOCK_WAIT_MS	1000

/* The test. */

#define HP_TICKS	100
#define HP_PERIOD	10
#define HP_STEP1	3
#define HP_STEP_SMPL1	2
#define HP_SMPL_BUF	(64 * 1024)

enum { HP_COUNT, HP_SMPL, HP_CLOCK, HP_NCTX };

static const char * const hp_ctx_name[HP_NCTX] = {
	"counting", "sampling", "cpu-clock",
};

/**
 * struct hp_state - the hotplug test
 * @desc: the three contexts.
 * @done: their completions.
 * @hdr: the sampling buffer of @desc[HP_SMPL].
 * @last: last value read of PMD 0 and 1 of each context.
 * @fail: failed checks per KTAP case.
 * @cycles: cycles run.
 * @clock_waits: cpu-clock reads that had to wait for the clock to move.
 */
struct hp_state {
	void			*desc[HP_NCTX];
	struct completion	done[HP_NCTX];
	struct pfm_dfl_smpl_hdr	*hdr;
	u64			last[HP_NCTX][2];
	unsigned int		fail[4];
	unsigned int		cycles;
	unsigned int		clock_waits;
};

enum { HP_CASE_COUNT, HP_CASE_SMPL, HP_CASE_MSGS, HP_CASE_STATS };

static const char * const hp_case_name[] = {
	"hotplug_counting", "hotplug_sampling", "hotplug_messages",
	"hotplug_global_stats",
};

static bool hp_fail(struct hp_state *hp, unsigned int c, const char *fmt, ...)
	__printf(3, 4);

static bool hp_fail(struct hp_state *hp, unsigned int c, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (hp->fail[c]++ < 8) {
		va_start(args, fmt);
		vaf.fmt = fmt;
		vaf.va = &args;
		pr_info("# %s: cycle %u: %pV\n", hp_case_name[c], hp->cycles,
			&vaf);
		va_end(args);
	}
	return false;
}

static int hp_create(struct hp_state *hp, int i, bool test, bool smpl)
{
	void *buf = NULL;
	int ret;

	init_completion(&hp->done[i]);
	ret = pfmk_test_create(test ? PFMK_TEST_PMU_NAME : NULL,
			       smpl ? HP_SMPL_BUF : 0, &hp->done[i],
			       &hp->desc[i], &buf);
	if (smpl)
		hp->hdr = buf;
	return ret;
}

static int hp_setup(struct hp_state *hp)
{
	struct pfarg_pmc pmc[2];
	struct pfarg_pmd pmd[2];
	int i, ret;

	ret = hp_create(hp, HP_COUNT, true, false) ?:
	      hp_create(hp, HP_SMPL, true, true) ?:
	      hp_create(hp, HP_CLOCK, false, false);
	if (ret)
		return ret;

	memset(pmc, 0, sizeof(pmc));
	pmc[0].reg_num = 0;
	pmc[0].reg_value = PFMK_TEST_PMC(1);
	pmc[1].reg_num = 1;
	pmc[1].reg_value = PFMK_TEST_PMC(HP_STEP1);
	ret = pfmk_write_pmcs(hp->desc[HP_COUNT], pmc, 2);
	if (ret)
		return ret;
	pmc[1].reg_value = PFMK_TEST_PMC(HP_STEP_SMPL1);
	ret = pfmk_write_pmcs(hp->desc[HP_SMPL], pmc, 2);
	if (ret)
		return ret;
	memset(pmd, 0, sizeof(pmd));
	pmd[0].reg_num = 0;
	pmd[0].reg_value = -(u64)HP_PERIOD;
	pmd[0].reg_short_reset = -(u64)HP_PERIOD;
	pmd[0].reg_long_reset = -(u64)HP_PERIOD;
	pmd[0].reg_smpl_pmds[0] = BIT_ULL(1);
	pmd[1].reg_num = 1;
	ret = pfmk_write_pmds(hp->desc[HP_SMPL], pmd, 2);
	if (ret)
		return ret;
	memset(pmc, 0, sizeof(pmc));
	pmc[0].reg_value = PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK);
	ret = pfmk_write_pmcs(hp->desc[HP_CLOCK], pmc, 1);
	if (ret)
		return ret;
	for (i = 0; i < HP_NCTX; i++) {
		ret = pfmk_test_load_start(hp->desc[i], HP_CPU);
		if (ret)
			return ret;
	}
	/* PMD 0 of the sampling context starts at -HP_PERIOD. */
	hp->last[HP_SMPL][0] = -(u64)HP_PERIOD;
	return 0;
}

/* Read PMD 0 and 1 of context @i; never backwards (PMD 0 of HP_SMPL wraps). */
static bool hp_read(struct hp_state *hp, int i, u64 *val)
{
	int ret, n = i == HP_CLOCK ? 1 : 2;

	ret = pfmk_test_read_pmds(hp->desc[i], 0, n, val);
	if (ret)
		return hp_fail(hp, i == HP_SMPL ? HP_CASE_SMPL : HP_CASE_COUNT,
			       "%s: read_pmds: %pe", hp_ctx_name[i],
			       ERR_PTR(ret));
	if (n == 1)
		val[1] = 0;
	if ((i != HP_SMPL && val[0] < hp->last[i][0]) ||
	    val[1] < hp->last[i][1])
		hp_fail(hp, i == HP_SMPL ? HP_CASE_SMPL : HP_CASE_COUNT,
			"%s: went backwards: %llu %llu after %llu %llu",
			hp_ctx_name[i], val[0], val[1], hp->last[i][0],
			hp->last[i][1]);
	return true;
}

/* Check the exact counts after @ticks ticks of this cycle. */
static void hp_check_counts(struct hp_state *hp, u64 total_ticks)
{
	u64 v[2], n;

	if (hp_read(hp, HP_COUNT, v)) {
		if (v[0] != total_ticks || v[1] != HP_STEP1 * total_ticks)
			hp_fail(hp, HP_CASE_COUNT,
				"counting: PMDs %llu %llu, expected %llu %llu",
				v[0], v[1], total_ticks,
				HP_STEP1 * total_ticks);
		hp->last[HP_COUNT][0] = v[0];
		hp->last[HP_COUNT][1] = v[1];
	}
	if (hp_read(hp, HP_SMPL, v)) {
		if (v[1] != HP_STEP_SMPL1 * total_ticks)
			hp_fail(hp, HP_CASE_SMPL, "sampling: PMD1 %llu, expected %llu",
				v[1], HP_STEP_SMPL1 * total_ticks);
		hp->last[HP_SMPL][1] = v[1];
	}
	/* Entries below hdr_count are complete: pairs with the writer. */
	n = smp_load_acquire(&hp->hdr->hdr_count);
	if (n != total_ticks / HP_PERIOD)
		hp_fail(hp, HP_CASE_SMPL, "sampling: %llu entries, expected %llu",
			n, total_ticks / HP_PERIOD);
}

/* Wait for a message of @type on every context; check its fields. */
static void hp_wait_msgs(struct hp_state *hp, u32 type)
{
	unsigned long end = jiffies + msecs_to_jiffies(HP_WAIT_MS);
	bool got[HP_NCTX] = { };
	unsigned int i, left = HP_NCTX;
	union pfm_msg msg;
	ssize_t ret;

	while (left) {
		for (i = 0; i < HP_NCTX; i++) {
			if (got[i])
				continue;
			ret = pfmk_read(hp->desc[i], &msg, sizeof(msg), 1);
			if (ret == -EAGAIN)
				continue;
			if (ret != sizeof(msg)) {
				hp_fail(hp, HP_CASE_MSGS, "%s: pfmk_read: %zd",
					hp_ctx_name[i], ret);
				got[i] = true;
				left--;
				continue;
			}
			if (msg.type != type ||
			    msg.pfmk_cpu_msg.msg_cpu != HP_CPU ||
			    msg.pfmk_cpu_msg.msg_cycle != hp->cycles + 1)
				hp_fail(hp, HP_CASE_MSGS,
					"%s: message type 0x%x cpu %u cycle %llu, expected 0x%x cpu %d cycle %u",
					hp_ctx_name[i], msg.type,
					msg.pfmk_cpu_msg.msg_cpu,
					msg.pfmk_cpu_msg.msg_cycle, type,
					HP_CPU, hp->cycles + 1);
			got[i] = true;
			left--;
		}
		if (!left)
			break;
		if (time_after(jiffies, end)) {
			for (i = 0; i < HP_NCTX; i++)
				if (!got[i])
					hp_fail(hp, HP_CASE_MSGS,
						"%s: no 0x%x message within %d ms",
						hp_ctx_name[i], type,
						HP_WAIT_MS);
			break;
		}
		usleep_range(500, 1000);
	}
}

/* Poll until no context shows PFMK_STATE_OFFLINE (re-armed). */
static void hp_wait_rearmed(struct hp_state *hp)
{
	unsigned long end = jiffies + msecs_to_jiffies(HP_WAIT_MS);
	int i, st;

	for (i = 0; i < HP_NCTX; i++) {
		for (;;) {
			st = pfmk_get_state(hp->desc[i]);
			if (st < 0 || !(st & PFMK_STATE_OFFLINE))
				break;
			if (time_after(jiffies, end))
				break;
			usleep_range(500, 1000);
		}
		if (st != (PFM_CTX_LOADED | PFMK_STATE_STARTED))
			hp_fail(hp, i == HP_SMPL ? HP_CASE_SMPL : HP_CASE_COUNT,
				"%s: state 0x%x after re-arm", hp_ctx_name[i],
				st);
	}
}

/*
 * Wait until the cpu-clock context reads more than @after.  A kernel whose
 * sched_clock is unstable (Debian 6.1 on QEMU's AMD model: no constant_tsc,
 * "Marking TSC unstable due to TSCs unsynchronized") clamps local_clock()
 * to a window around the last tick's time: on an idle CPU 1 it can stand
 * still for up to a tick, and a read right after start or re-arm sees 0 or
 * the saved value.  A context that counts grows within a few ticks; one
 * that was not re-armed never does.
 */
static void hp_clock_grows(struct hp_state *hp, u64 after, const char *when)
{
	unsigned long end = jiffies + msecs_to_jiffies(HP_CLOCK_WAIT_MS);
	unsigned int waited = 0;
	u64 v[2];

	for (;;) {
		if (!hp_read(hp, HP_CLOCK, v))
			return;
		if (v[0] > after)
			break;
		if (!waited++)
			hp->clock_waits++;
		if (time_after(jiffies, end)) {
			hp_fail(hp, HP_CASE_COUNT,
				"cpu-clock did not grow%s within %d ms: %llu after %llu",
				when, HP_CLOCK_WAIT_MS, v[0], after);
			break;
		}
		usleep_range(1000, 2000);
	}
	hp->last[HP_CLOCK][0] = v[0];
}

static void hp_cycle(struct hp_state *hp, u64 *total_ticks)
{
	union pfm_msg msg;
	unsigned int i;
	u64 v[2], clk;
	int st, ret;

	/* Online: everything counts. */
	pfmk_test_pmu_tick(HP_CPU, HP_TICKS);
	*total_ticks += HP_TICKS;
	hp_check_counts(hp, *total_ticks);
	hp_clock_grows(hp, hp->last[HP_CLOCK][0], "");
	if (pfmk_test_pmu_nr_active(HP_CPU) != 4)
		hp_fail(hp, HP_CASE_COUNT, "%u test PMU events active, expected 4",
			pfmk_test_pmu_nr_active(HP_CPU));

	ret = remove_cpu(HP_CPU);
	if (ret) {
		hp_fail(hp, HP_CASE_COUNT, "remove_cpu: %pe", ERR_PTR(ret));
		return;
	}
	hp_wait_msgs(hp, PFMK_MSG_CPU_OFFLINE);
	for (i = 0; i < HP_NCTX; i++) {
		st = pfmk_get_state(hp->desc[i]);
		if (st != (PFM_CTX_LOADED | PFMK_STATE_STARTED |
			   PFMK_STATE_OFFLINE))
			hp_fail(hp, HP_CASE_MSGS,
				"%s: state 0x%x while CPU 1 is offline",
				hp_ctx_name[i], st);
	}
	/* Offline: the saved values, ticks go nowhere. */
	pfmk_test_pmu_tick(HP_CPU, HP_TICKS);
	hp_check_counts(hp, *total_ticks);
	if (hp_read(hp, HP_CLOCK, v))
		hp->last[HP_CLOCK][0] = v[0];
	clk = hp->last[HP_CLOCK][0];

	if (!pfmk_test_cpu_up(HP_CPU)) {
		hp_fail(hp, HP_CASE_COUNT, "add_cpu failed");
		return;
	}
	hp_wait_msgs(hp, PFMK_MSG_CPU_ONLINE);
	hp_wait_rearmed(hp);
	for (i = 0; i < HP_NCTX; i++)
		if (pfmk_read(hp->desc[i], &msg, sizeof(msg), 1) != -EAGAIN)
			hp_fail(hp, HP_CASE_MSGS, "%s: extra message",
				hp_ctx_name[i]);
	hp_clock_grows(hp, clk, " after re-arm");
	hp->cycles++;
}

/*
 * hotplug_global_stats: every cycle took each context offline and back
 * online once (pfmk's global counters since @g0), and no re-arm failed.
 */
static void hp_check_global_stats(struct hp_state *hp,
				  const struct pfmk_global_stats *g0)
{
	struct pfmk_global_stats g1;
	u64 off, on;
	int ret;

	ret = pfmk_get_global_stats(&g1);
	if (ret) {
		hp_fail(hp, HP_CASE_STATS, "pfmk_get_global_stats: %pe",
			ERR_PTR(ret));
		return;
	}
	off = g1.cpu_offline - g0->cpu_offline;
	on = g1.cpu_online - g0->cpu_online;
	pfmk_ktap_diag("hotplug: cpu_offline +%llu cpu_online +%llu rearm_failed +%llu",
		       off, on, g1.rearm_failed - g0->rearm_failed);
	if (off != HP_NCTX * hp->cycles || on != HP_NCTX * hp->cycles ||
	    g1.rearm_failed != g0->rearm_failed)
		hp_fail(hp, HP_CASE_STATS,
			"cpu_offline +%llu, cpu_online +%llu, rearm_failed +%llu; expected +%u, +%u, +0",
			off, on, g1.rearm_failed - g0->rearm_failed,
			HP_NCTX * hp->cycles, HP_NCTX * hp->cycles);
}

static void hp_run(struct pfmk_ktap *k)
{
	struct pfmk_global_stats g0;
	struct hp_state *hp;
	const char *why = pfmk_test_cpu_unavailable(HP_CPU);
	u64 total_ticks = 0;
	unsigned int i, c;
	int ret;

	if (!hp_cycles)
		why = "hp_cycles=0";
	if (why) {
		for (c = 0; c < ARRAY_SIZE(hp_case_name); c++)
			pfmk_ktap_skip(k, hp_case_name[c], why);
		return;
	}
	hp = kzalloc(sizeof(*hp), GFP_KERNEL);
	if (!hp) {
		for (c = 0; c < ARRAY_SIZE(hp_case_name); c++)
			pfmk_ktap_result(k, hp_case_name[c], false);
		return;
	}
	ret = pfmk_get_global_stats(&g0);
	if (ret)
		hp_fail(hp, HP_CASE_STATS, "pfmk_get_global_stats: %pe",
			ERR_PTR(ret));
	ret = hp_setup(hp);
	if (ret) {
		hp_fail(hp, HP_CASE_COUNT, "setup: %pe", ERR_PTR(ret));
	} else {
		for (i = 0; i < hp_cycles; i++) {
			hp_cycle(hp, &total_ticks);
			if (hp->cycles != i + 1)
				break;
		}
	}
	pfmk_ktap_diag("hotplug: %u of %u cycles of CPU 1 with 3 contexts loaded on it",
		       hp->cycles, hp_cycles);
	pfmk_ktap_diag("hotplug: %u cpu-clock reads waited for the clock to move",
		       hp->clock_waits);
	if (!ret && hp->cycles != hp_cycles)
		hp_fail(hp, HP_CASE_COUNT, "stopped after %u cycles", hp->cycles);
	hp_check_global_stats(hp, &g0);
	for (i = 0; i < HP_NCTX; i++)
		if (hp->desc[i] && pfmk_close(hp->desc[i]))
			hp_fail(hp, HP_CASE_COUNT, "%s: close failed",
				hp_ctx_name[i]);
	if (!cpu_online(HP_CPU))
		pfmk_test_cpu_up(HP_CPU);
	for (c = 0; c < ARRAY_SIZE(hp_case_name); c++)
		pfmk_ktap_result(k, hp_case_name[c], !hp->fail[c]);
	kfree(hp);
}

static int __init pfmk_hotplug_stress_init(void)
{
	struct pfmk_ktap k;

	pfmk_ktap_plan(&k, KBUILD_MODNAME, ARRAY_SIZE(hp_case_name));
	hp_run(&k);
	pfmk_ktap_end(&k);
	return 0;
}

static void __exit pfmk_hotplug_stress_exit(void)
{
}

module_init(pfmk_hotplug_stress_init);
module_exit(pfmk_hotplug_stress_exit);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk: CPU hotplug stress of loaded contexts (KTAP output)");
MODULE_LICENSE("GPL");
