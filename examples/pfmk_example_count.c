// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk example: count events on every CPU from a kernel thread.
 *
 * A kernel thread creates a system-wide context on every online CPU
 * (with events=, one per PMU description) through the 2006 KAPI calls,
 * counts for `seconds` seconds, prints a per-CPU table, then waits for
 * rmmod, which closes everything.  It includes <linux/perfmon.h> as a
 * 2006 client did, and so needs no namespace import of its own.
 *
 *   insmod pfmk_example_count.ko seconds=3           software events
 *   insmod pfmk_example_count.ko seconds=3 mode=hw   the CPU's PMU
 *   insmod pfmk_example_count.ko events=msr/tsc/,msr/aperf/
 *   insmod pfmk_example_count.ko events=msr/tsc/,sched:sched_switch,cs
 *
 * mode=sw counts cpu-clock, task-clock, context switches and page faults;
 * mode=hw counts core cycles, instructions retired and last-level cache
 * misses through perf's generic hardware events, whatever the CPU, and
 * prints instructions per cycle.  A CPU without a core PMU that perf
 * knows (a virtual machine without PMU passthrough) refuses hardware
 * events at load with -EOPNOTSUPP.  events= takes up to 8 events as
 * perf stat -e does, comma-separated, turned into PMC values by
 * pfmk_encode() and printed under their names.  One context counts the
 * events of one PMU description (generic events and tracepoints, or the
 * events of one PMU by name): events that need different descriptions
 * get a context each on every CPU, up to 4, loaded and started one after
 * the other.
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
#define NGROUPS		4

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

/*
 * The events of one PMU description: one context of each group on every
 * CPU.  mode=sw and mode=hw are one group; events= makes one group per
 * description its events need.
 */
struct group {
	struct pfarg_ctx	ctx;		/* the request: flags, description */
	struct pfarg_pmc	pmcs[NEVENTS * PFMK_ENCODE_MAX_PMCS];
	unsigned int		npmcs;
	unsigned int		nev;		/* it counts on PMDs 0..nev-1 */
	unsigned int		col[NEVENTS];	/* the column of PMD i */
};

static struct group groups[NGROUPS];
static unsigned int ngroups;
static const struct event_desc *events;	/* mode=sw or mode=hw */
static const char *names[NEVENTS];		/* events=: the strings */
static unsigned int nevents;
static unsigned int errors;

struct cpu_session {
	void			*desc[NGROUPS];
	struct completion	done;
	int			err;
	u64			counts[NEVENTS];
};

static struct task_struct *counter_thread;

/* Create, program, load and start the context of group @g on @cpu. */
static int group_open(struct cpu_session *s, struct group *g,
		      unsigned int cpu, void **desc)
{
	struct pfarg_ctx ctx = g->ctx;
	struct pfarg_load load = { .load_pid = cpu };
	struct pfarg_pmd *pmds;
	unsigned int i;
	int ret;

	/* struct pfarg_pmd is large: NEVENTS of them off the stack. */
	pmds = kcalloc(NEVENTS, sizeof(*pmds), GFP_KERNEL);
	if (!pmds)
		return -ENOMEM;
	ret = pfmk_create_context(&ctx, NULL, 0, &s->done, desc, NULL);
	if (ret) {
		*desc = NULL;
		kfree(pmds);
		return ret;
	}
	for (i = 0; i < g->nev; i++)
		pmds[i].reg_num = i;
	ret = pfmk_write_pmcs(*desc, g->pmcs, g->npmcs) ?:
	      pfmk_write_pmds(*desc, pmds, g->nev) ?:
	      pfmk_load_context(*desc, &load) ?:
	      pfmk_start(*desc, NULL);
	kfree(pmds);
	return ret;
}

static int session_open(struct cpu_session *s, unsigned int cpu)
{
	unsigned int i;
	int ret;

	init_completion(&s->done);
	for (i = 0; i < ngroups; i++) {
		ret = group_open(s, &groups[i], cpu, &s->desc[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int session_read(struct cpu_session *s)
{
	struct pfarg_pmd *pmds;
	unsigned int i, j;
	int ret = 0;

	pmds = kcalloc(NEVENTS, sizeof(*pmds), GFP_KERNEL);
	if (!pmds)
		return -ENOMEM;
	for (i = 0; i < ngroups && !ret; i++) {
		for (j = 0; j < groups[i].nev; j++)
			pmds[j].reg_num = j;
		ret = pfmk_read_pmds(s->desc[i], pmds, groups[i].nev);
		for (j = 0; j < groups[i].nev && !ret; j++)
			s->counts[groups[i].col[j]] = pmds[j].reg_value;
	}
	kfree(pmds);
	return ret;
}

static int session_stop(struct cpu_session *s)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ngroups; i++)
		ret = pfmk_stop(s->desc[i]) ?: ret;
	return ret;
}

static bool session_opened(struct cpu_session *s)
{
	return s->desc[0];
}

/* events=: a column per event, headed by its string. */
static void print_str_table(struct cpu_session *sessions)
{
	char line[16 + NEVENTS * 24];
	unsigned int cpu, i, n;

	n = scnprintf(line, sizeof(line), "%-4s", "CPU");
	for (i = 0; i < nevents; i++)
		n += scnprintf(line + n, sizeof(line) - n, " %20.20s",
			       names[i]);
	pr_info("%s\n", line);
	for_each_possible_cpu(cpu) {
		struct cpu_session *s = &sessions[cpu];

		if (!session_opened(s))
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

	if (!events) {
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

		if (!session_opened(s))
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
	unsigned int cpu, i;

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

		if (!session_opened(s) || s->err)
			continue;
		s->err = session_stop(s);
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
		for (i = 0; i < ngroups; i++)
			if (sessions[cpu].desc[i] &&
			    pfmk_close(sessions[cpu].desc[i]))
				pr_warn("CPU %u: close failed\n", cpu);
	kfree(sessions);
	return 0;
}

/* mode=sw or mode=hw: one group of fixed PMC values. */
static void fixed_group(const struct event_desc *table, unsigned int n)
{
	struct group *g = &groups[0];
	unsigned int i;

	events = table;
	g->ctx.ctx_flags = PFM_FL_SYSTEM_WIDE;
	for (i = 0; i < n; i++) {
		g->pmcs[i].reg_num = i;
		g->pmcs[i].reg_value = table[i].pmc;
		g->col[i] = i;
	}
	g->npmcs = n;
	g->nev = n;
	nevents = n;
	ngroups = 1;
}

/*
 * The group of the description @event needs: pfmk_encode() of it for PMD
 * 0 of a fresh request names the description; a new group if none has it.
 */
static int find_group(const char *event, struct group **out)
{
	struct pfarg_pmc pmcs[PFMK_ENCODE_MAX_PMCS];
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	unsigned int i, got;
	int ret;

	ret = pfmk_encode(event, 0, &ctx, pmcs, ARRAY_SIZE(pmcs), &got);
	if (ret)
		return ret;
	for (i = 0; i < ngroups; i++) {
		if (!strcmp(groups[i].ctx.ctx_pmu_name, ctx.ctx_pmu_name)) {
			*out = &groups[i];
			return 0;
		}
	}
	if (ngroups == NGROUPS) {
		pr_err("events of more than %u PMU descriptions\n", NGROUPS);
		return -E2BIG;
	}
	*out = &groups[ngroups++];
	(*out)->ctx.ctx_flags = PFM_FL_SYSTEM_WIDE;
	return 0;
}

/* Split events= at its commas; event i goes to the next PMD of its group. */
static int parse_events(void)
{
	static char buf[512];
	char *p = buf, *tok;
	struct group *g;
	unsigned int got, i;
	int ret;

	if (strscpy(buf, events_param, sizeof(buf)) < 0)
		return -E2BIG;
	while ((tok = strsep(&p, ",")) != NULL) {
		if (nevents == NEVENTS) {
			pr_err("at most %u events\n", NEVENTS);
			return -E2BIG;
		}
		ret = find_group(tok, &g);
		if (!ret)
			ret = pfmk_encode(tok, g->nev, &g->ctx,
					  g->pmcs + g->npmcs,
					  ARRAY_SIZE(g->pmcs) - g->npmcs, &got);
		if (ret) {
			pr_err("event \"%s\": %d\n", tok, ret);
			return ret;
		}
		g->npmcs += got;
		g->col[g->nev++] = nevents;
		names[nevents++] = tok;
	}
	pr_info("%u events in %u contexts per CPU\n", nevents, ngroups);
	for (i = 0; i < ngroups; i++)
		pr_info("context %u: PMU description \"%s\", %u events\n", i,
			groups[i].ctx.ctx_pmu_name[0] ?
			groups[i].ctx.ctx_pmu_name : "generic", groups[i].nev);
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
		if (ret)
			return ret;
	} else if (!strcmp(mode, "sw")) {
		fixed_group(sw_events, ARRAY_SIZE(sw_events));
	} else if (!strcmp(mode, "hw")) {
		fixed_group(hw_events, ARRAY_SIZE(hw_events));
	} else {
		return -EINVAL;
	}
	sessions = kcalloc(nr_cpu_ids, sizeof(*sessions), GFP_KERNEL);
	if (!sessions)
		return -ENOMEM;
	counter_thread = kthread_run(counter_fn, sessions, "pfmk_count");
	if (IS_ERR(counter_thread)) {
		kfree(sessions);
		return PTR_ERR(counter_thread);
	}
	return 0;
}

static void __exit pfmk_example_exit(void)
{
	kthread_stop(counter_thread);
}

module_init(pfmk_example_init);
module_exit(pfmk_example_exit);

MODULE_DESCRIPTION("pfmk example: per-CPU event counts from a kernel thread");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
