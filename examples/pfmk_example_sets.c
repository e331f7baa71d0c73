// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk example: event sets rotating on a timer.
 *
 * A kernel thread measures eight events on CPU 0 as four event sets of two
 * events, switching every `switch_ms` milliseconds, for `seconds`
 * seconds.  A PMU with two counters could not count them at once; with
 * sets, each pair is counted exactly while its set is active, and the
 * table gives each set's runs and active time, from which the full-run
 * totals are extrapolated.  In the emulated test guests the events are
 * software events (the only ones there); on hardware the same code takes
 * hardware events from the generic description.
 *
 *   insmod pfmk_example_sets.ko seconds=3 switch_ms=10
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/perfmon.h>
#include <linux/slab.h>
#include <pfmk/compat.h>
#include <pfmk/pmu_generic.h>

static unsigned int seconds = 3;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long to measure, in seconds (1-3600)");

static unsigned int switch_ms = 10;
module_param(switch_ms, uint, 0444);
MODULE_PARM_DESC(switch_ms, "time each set stays active, in ms (1-10000)");

#define NSETS		4
#define PER_SET		2

static const struct {
	const char	*name;
	u64		pmc;
} events[NSETS][PER_SET] = {
	{ { "cpu-clock(ns)",   PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK) },
	  { "ctx-switches",    PFMK_GEN_SW(PERF_COUNT_SW_CONTEXT_SWITCHES) } },
	{ { "task-clock(ns)",  PFMK_GEN_SW(PERF_COUNT_SW_TASK_CLOCK) },
	  { "page-faults",     PFMK_GEN_SW(PERF_COUNT_SW_PAGE_FAULTS) } },
	{ { "cpu-migrations",  PFMK_GEN_SW(PERF_COUNT_SW_CPU_MIGRATIONS) },
	  { "minor-faults",    PFMK_GEN_SW(PERF_COUNT_SW_PAGE_FAULTS_MIN) } },
	{ { "major-faults",    PFMK_GEN_SW(PERF_COUNT_SW_PAGE_FAULTS_MAJ) },
	  { "cpu-clock(ns)",   PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK) } },
};

/* The KAPI argument vectors, too big for the stack together. */
struct sets_args {
	struct pfarg_setdesc	sd[NSETS];
	struct pfarg_setinfo	info[NSETS];
	struct pfarg_pmc	pmcs[NSETS * PER_SET];
	struct pfarg_pmd	pmds[NSETS * PER_SET];
};

static struct task_struct *sets_thread;
static struct completion sets_done;
static struct sets_args *args;
static void *sets_desc;

static int sets_setup(void)
{
	struct pfarg_setdesc *sd = args->sd;
	struct pfarg_pmc *pmcs = args->pmcs;
	struct pfarg_pmd *pmds = args->pmds;
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_load load = { .load_pid = 0 };
	unsigned int s, e, n = 0;
	int ret;

	ret = pfmk_create_context(&ctx, NULL, 0, &sets_done, &sets_desc, NULL);
	if (ret) {
		sets_desc = NULL;
		return ret;
	}
	for (s = 0; s < NSETS; s++) {
		sd[s].set_id = s;
		sd[s].set_flags = PFM_SETFL_TIME_SWITCH;
		sd[s].set_timeout = switch_ms * USEC_PER_MSEC;
		for (e = 0; e < PER_SET; e++, n++) {
			pmcs[n].reg_num = e;
			pmcs[n].reg_set = s;
			pmcs[n].reg_value = events[s][e].pmc;
			pmds[n].reg_num = e;
			pmds[n].reg_set = s;
		}
	}
	return pfmk_create_evtsets(sets_desc, sd, NSETS) ?:
	       pfmk_write_pmcs(sets_desc, pmcs, n) ?:
	       pfmk_write_pmds(sets_desc, pmds, n) ?:
	       pfmk_load_context(sets_desc, &load) ?:
	       pfmk_start(sets_desc, NULL);
}

static int sets_report(void)
{
	struct pfarg_setinfo *info = args->info;
	struct pfarg_pmd *pmds = args->pmds;
	struct pfmk_ctx_stats st;
	unsigned int s, e, n = 0;
	u64 total = 0;

	memset(args, 0, sizeof(*args));
	for (s = 0; s < NSETS; s++) {
		info[s].set_id = s;
		for (e = 0; e < PER_SET; e++, n++) {
			pmds[n].reg_num = e;
			pmds[n].reg_set = s;
		}
	}
	if (pfmk_getinfo_evtsets(sets_desc, info, NSETS) ||
	    pfmk_read_pmds(sets_desc, pmds, n) ||
	    pfmk_get_stats(sets_desc, &st)) {
		pr_err("cannot read the sets\n");
		return 1;
	}
	for (s = 0; s < NSETS; s++)
		total += info[s].set_act_duration;
	pr_info("CPU 0: %u sets of %u events, switching every %u ms, for %u s\n",
		NSETS, PER_SET, switch_ms, seconds);
	pr_info("%-3s %6s %10s %6s  %-16s %14s %16s\n", "set", "runs",
		"active(ms)", "share", "event", "count", "est. full run");
	for (s = 0, n = 0; s < NSETS; s++) {
		u64 act = info[s].set_act_duration;

		for (e = 0; e < PER_SET; e++, n++)
			pr_info("%-3u %6llu %10llu %5llu%%  %-16s %14llu %16llu\n",
				s, info[s].set_runs, act / NSEC_PER_MSEC,
				total ? div64_u64(act * 100, total) : 0,
				events[s][e].name, pmds[n].reg_value,
				act ? mul_u64_u64_div_u64(pmds[n].reg_value,
							  total, act) : 0);
	}
	pr_info("%llu switches, switch latency mean %llu us, max %llu us\n",
		st.set_switches,
		st.set_switches ? div64_u64(st.switch_lat_total,
					    st.set_switches) / NSEC_PER_USEC : 0,
		st.switch_lat_max / NSEC_PER_USEC);
	return 0;
}

static int sets_fn(void *data)
{
	unsigned long deadline = jiffies + seconds * HZ;
	unsigned int errors = 0;
	int ret;

	ret = sets_setup();
	if (ret) {
		pr_err("cannot set up the sets: %d\n", ret);
		errors++;
	} else {
		while (!kthread_should_stop() && time_before(jiffies, deadline))
			schedule_timeout_interruptible(deadline - jiffies);
		if (pfmk_stop(sets_desc))
			errors++;
		errors += sets_report();
	}
	pr_info("done errors=%u\n", errors);

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	if (sets_desc)
		pfmk_close(sets_desc);
	return 0;
}

static int __init pfmk_example_sets_init(void)
{
	if (!seconds || seconds > 3600 || !switch_ms || switch_ms > 10000)
		return -EINVAL;
	args = pfmk_kzalloc_obj(*args, GFP_KERNEL);
	if (!args)
		return -ENOMEM;
	init_completion(&sets_done);
	sets_thread = kthread_run(sets_fn, NULL, "pfmk_sets");
	if (IS_ERR(sets_thread)) {
		kfree(args);
		return PTR_ERR(sets_thread);
	}
	return 0;
}

static void __exit pfmk_example_sets_exit(void)
{
	kthread_stop(sets_thread);
	kfree(args);
}

module_init(pfmk_example_sets_init);
module_exit(pfmk_example_sets_exit);

MODULE_DESCRIPTION("pfmk example: event sets rotating on a timer");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
