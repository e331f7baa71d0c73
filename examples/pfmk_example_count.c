// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk example: count events on every CPU from a kernel thread.
 *
 * A kernel thread creates one system-wide context per online CPU through
 * the 2006 KAPI calls, counts for `seconds` seconds, prints a per-CPU
 * table, then waits for rmmod, which closes everything.  It includes
 * <linux/perfmon.h> as a 2006 client did, and so needs no namespace
 * import of its own.
 *
 *   insmod pfmk_example_count.ko seconds=3           software events
 *   insmod pfmk_example_count.ko seconds=3 mode=hw   the CPU's PMU
 *   insmod pfmk_example_count.ko events=msr/tsc/,msr/aperf/
 *   insmod pfmk_example_count.ko events=sched:sched_switch,cs,cpu-clock
 *
 * mode=sw counts cpu-clock, task-clock, context switches and page faults;
 * mode=hw counts core cycles, instructions retired and last-level cache
 * misses through perf's generic hardware events, whatever the CPU, and
 * prints instructions per cycle.  A CPU without a core PMU that perf
 * knows (a virtual machine without PMU passthrough) refuses hardware
 * events at load with -EOPNOTSUPP.  events= takes up to 8 events as
 * perf stat -e does, comma-separated, turned into PMC values by
 * pfmk_encode() and printed under their names; they must fit one context
 * (generic events and tracepoints, or events of one PMU by name).
 *
 * The last line is "done errors=N", N the number of calls that failed.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/perfmon.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/encode.h>
#include <pfmk/pmu_generic.h>

static unsigned int seconds = 5;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long to count, in seconds (1-3600)");

static char *mode = "sw";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "sw: software events (default), hw: cycles, instructions, LLC misses");

static char *events_param;
module_param_named(events, events_param, charp, 0444);
MODULE_PARM_DESC(events, "events as perf stat -e takes them, comma-separated (at most 8); overrides mode");

#define NEVENTS		8
#define NSTR_PMCS	(NEVENTS * PFMK_ENCODE_MAX_PMCS)

struct event_desc {
	const char	*name;
	u64		pmc;
};

static const struct event_desc sw_events[] = {
	{ "cpu-clock(ns)",  PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK) },
	{ "task-clock(ns)", PFMK_GEN_SW(PERF_COUNT_SW_TASK_CLOCK) },
	{ "ctx-switches",   PFMK_GEN_SW(PERF_COUNT_SW_CONTEXT_SWITCHES) },
	{ "page-faults",    PFMK_GEN_SW(PERF_COUNT_SW_PAGE_FAULTS) },
};

/* The fourth column of mode=hw is IPC, computed: three events. */
static const struct event_desc hw_events[] = {
	{ "cycles",         PFMK_GEN_HW(PERF_COUNT_HW_CPU_CYCLES) },
	{ "instructions",   PFMK_GEN_HW(PERF_COUNT_HW_INSTRUCTIONS) },
	{ "LLC-misses",     PFMK_GEN_HW(PERF_COUNT_HW_CACHE_MISSES) },
};

static const struct event_desc *events;
static unsigned int nevents;
static unsigned int errors;

/* events=: the strings, and the context request and PMC writes they give. */
static char *str_names[NEVENTS];
static struct pfarg_ctx str_ctx;
static struct pfarg_pmc *str_pmcs;
static unsigned int str_npmcs;

struct cpu_session {
	void			*desc;
	struct completion	done;
	int			err;
	u64			counts[NEVENTS];
};

static struct task_struct *counter_thread;

static int session_open(struct cpu_session *s, unsigned int cpu)
{
	struct pfarg_pmc pmcs[NEVENTS] = { };
	struct pfarg_ctx ctx = { };
	struct pfarg_load load = { };
	struct pfarg_pmd *pmds;
	unsigned int i;
	int ret;

	/* struct pfarg_pmd is large: NEVENTS of them off the stack. */
	pmds = kcalloc(NEVENTS, sizeof(*pmds), GFP_KERNEL);
	if (!pmds)
		return -ENOMEM;
	init_completion(&s->done);
	ctx.ctx_flags = PFM_FL_SYSTEM_WIDE;
	if (str_pmcs)
		ctx = str_ctx;
	ret = pfmk_create_context(&ctx, NULL, 0, &s->done, &s->desc, NULL);
	if (ret) {
		s->desc = NULL;
		kfree(pmds);
		return ret;
	}
	for (i = 0; i < nevents; i++) {
		pmcs[i].reg_num = i;
		pmcs[i].reg_value = str_pmcs ? 0 : events[i].pmc;
		pmds[i].reg_num = i;
	}
	if (str_pmcs)
		ret = pfmk_write_pmcs(s->desc, str_pmcs, str_npmcs);
	else
		ret = pfmk_write_pmcs(s->desc, pmcs, nevents);
	if (!ret)
		ret = pfmk_write_pmds(s->desc, pmds, nevents);
	load.load_pid = cpu;
	if (!ret)
		ret = pfmk_load_context(s->desc, &load);
	if (!ret)
		ret = pfmk_start(s->desc, NULL);
	kfree(pmds);
	return ret;
}

static int session_read(struct cpu_session *s)
{
	struct pfarg_pmd *pmds;
	unsigned int i;
	int ret;

	pmds = kcalloc(NEVENTS, sizeof(*pmds), GFP_KERNEL);
	if (!pmds)
		return -ENOMEM;
	for (i = 0; i < nevents; i++)
		pmds[i].reg_num = i;
	ret = pfmk_read_pmds(s->desc, pmds, nevents);
	for (i = 0; i < nevents && !ret; i++)
		s->counts[i] = pmds[i].reg_value;
	kfree(pmds);
	return ret;
}

/* events=: a column per event, headed by its string. */
static void print_str_table(struct cpu_session *sessions)
{
	char line[16 + NEVENTS * 24];
	unsigned int cpu, i, n;

	n = scnprintf(line, sizeof(line), "%-4s", "CPU");
	for (i = 0; i < nevents; i++)
		n += scnprintf(line + n, sizeof(line) - n, " %20.20s",
			       str_names[i]);
	pr_info("%s\n", line);
	for_each_possible_cpu(cpu) {
		struct cpu_session *s = &sessions[cpu];

		if (!s->desc)
			continue;
		if (s->err) {
			pr_info("%-4u error %d\n", cpu, s->err);
			continue;
		}
		n = scnprintf(line, sizeof(line), "%-4u", cpu);
		for (i = 0; i < nevents; i++)
			n += scnprintf(line + n, sizeof(line) - n, " %20llu",
				       s->counts[i]);
		pr_info("%s\n", line);
	}
}

static void print_table(struct cpu_session *sessions)
{
	unsigned int cpu;
	u64 ipc;

	if (str_pmcs) {
		print_str_table(sessions);
		return;
	}
	if (events == sw_events)
		pr_info("%-4s %16s %16s %14s %12s\n", "CPU", events[0].name,
			events[1].name, events[2].name, events[3].name);
	else
		pr_info("%-4s %16s %16s %6s %12s\n", "CPU", events[0].name,
			events[1].name, "IPC", events[2].name);
	for_each_possible_cpu(cpu) {
		struct cpu_session *s = &sessions[cpu];

		if (!s->desc)
			continue;
		if (s->err) {
			pr_info("%-4u error %d\n", cpu, s->err);
			continue;
		}
		if (events == sw_events) {
			pr_info("%-4u %16llu %16llu %14llu %12llu\n", cpu,
				s->counts[0], s->counts[1], s->counts[2],
				s->counts[3]);
			continue;
		}
		/* Instructions per cycle, to two decimals. */
		ipc = div64_u64(s->counts[1] * 100, s->counts[0] ?: 1);
		pr_info("%-4u %16llu %16llu %3llu.%02llu %12llu\n", cpu,
			s->counts[0], s->counts[1], ipc / 100, ipc % 100,
			s->counts[2]);
	}
}

static int counter_fn(void *data)
{
	struct cpu_session *sessions = data;
	unsigned long deadline;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		sessions[cpu].err = session_open(&sessions[cpu], cpu);
		if (!sessions[cpu].err)
			continue;
		errors++;
		if (sessions[cpu].err == -EOPNOTSUPP && events == hw_events)
			pr_warn("CPU %u: no core PMU for hardware events (%d)\n",
				cpu, sessions[cpu].err);
		else
			pr_warn("CPU %u: cannot count: %d\n", cpu,
				sessions[cpu].err);
	}

	deadline = jiffies + seconds * HZ;
	while (!kthread_should_stop() && time_before(jiffies, deadline))
		schedule_timeout_interruptible(deadline - jiffies);

	for_each_possible_cpu(cpu) {
		struct cpu_session *s = &sessions[cpu];

		if (!s->desc || s->err)
			continue;
		s->err = pfmk_stop(s->desc);
		if (!s->err)
			s->err = session_read(s);
		if (s->err)
			errors++;
	}
	print_table(sessions);
	pr_info("done errors=%u\n", errors);

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}

	for_each_possible_cpu(cpu)
		if (sessions[cpu].desc && pfmk_close(sessions[cpu].desc))
			pr_warn("CPU %u: close failed\n", cpu);
	kfree(sessions);
	return 0;
}

/*
 * Split events= at its commas and encode event i for PMD i; the first
 * event chooses the context's PMU description.
 */
static int parse_events(void)
{
	static char buf[512];
	unsigned int got;
	char *p = buf, *tok;
	int ret;

	if (strscpy(buf, events_param, sizeof(buf)) < 0)
		return -E2BIG;
	str_pmcs = kcalloc(NSTR_PMCS, sizeof(*str_pmcs), GFP_KERNEL);
	if (!str_pmcs)
		return -ENOMEM;
	str_ctx.ctx_flags = PFM_FL_SYSTEM_WIDE;
	while ((tok = strsep(&p, ",")) != NULL) {
		if (nevents == NEVENTS) {
			pr_err("at most %u events\n", NEVENTS);
			return -E2BIG;
		}
		ret = pfmk_encode(tok, nevents, &str_ctx, str_pmcs + str_npmcs,
				  NSTR_PMCS - str_npmcs, &got);
		if (ret) {
			pr_err("event \"%s\": %d\n", tok, ret);
			return ret;
		}
		str_names[nevents++] = tok;
		str_npmcs += got;
	}
	pr_info("%u events, PMU description \"%s\"\n", nevents,
		str_ctx.ctx_pmu_name[0] ? str_ctx.ctx_pmu_name : "generic");
	return 0;
}

static int __init pfmk_example_init(void)
{
	struct cpu_session *sessions;
	int ret;

	if (!seconds || seconds > 3600)
		return -EINVAL;
	if (events_param && *events_param) {
		ret = parse_events();
		if (ret) {
			kfree(str_pmcs);
			return ret;
		}
	} else if (!strcmp(mode, "sw")) {
		events = sw_events;
		nevents = ARRAY_SIZE(sw_events);
	} else if (!strcmp(mode, "hw")) {
		events = hw_events;
		nevents = ARRAY_SIZE(hw_events);
	} else {
		return -EINVAL;
	}
	sessions = kcalloc(nr_cpu_ids, sizeof(*sessions), GFP_KERNEL);
	if (!sessions) {
		kfree(str_pmcs);
		return -ENOMEM;
	}
	counter_thread = kthread_run(counter_fn, sessions, "pfmk_count");
	if (IS_ERR(counter_thread)) {
		kfree(sessions);
		kfree(str_pmcs);
		return PTR_ERR(counter_thread);
	}
	return 0;
}

static void __exit pfmk_example_exit(void)
{
	kthread_stop(counter_thread);
	kfree(str_pmcs);
}

module_init(pfmk_example_init);
module_exit(pfmk_example_exit);

MODULE_DESCRIPTION("pfmk example: per-CPU event counts from a kernel thread");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
