// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk example: count events on every CPU from a kernel thread.
 *
 * A kernel thread creates one system-wide context per online CPU through
 * the 2006 KAPI calls, counts cpu-clock, task-clock, context switches and
 * page faults for `seconds` seconds, prints a per-CPU table, then waits
 * for rmmod, which closes everything.  It includes <linux/perfmon.h> as a
 * 2006 client did, and so needs no namespace import of its own.
 *
 *   insmod pfmk_example_count.ko seconds=3
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/perfmon.h>
#include <linux/slab.h>
#include <pfmk/pmu_generic.h>

static unsigned int seconds = 5;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long to count, in seconds (1-3600)");

static const struct {
	const char	*name;
	u64		pmc;
} events[] = {
	{ "cpu-clock(ns)",  PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK) },
	{ "task-clock(ns)", PFMK_GEN_SW(PERF_COUNT_SW_TASK_CLOCK) },
	{ "ctx-switches",   PFMK_GEN_SW(PERF_COUNT_SW_CONTEXT_SWITCHES) },
	{ "page-faults",    PFMK_GEN_SW(PERF_COUNT_SW_PAGE_FAULTS) },
};

#define NEVENTS ARRAY_SIZE(events)

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
	struct pfarg_pmd pmds[NEVENTS] = { };
	struct pfarg_ctx ctx = { };
	struct pfarg_load load = { };
	unsigned int i;
	int ret;

	init_completion(&s->done);
	ctx.ctx_flags = PFM_FL_SYSTEM_WIDE;
	ret = pfmk_create_context(&ctx, NULL, 0, &s->done, &s->desc, NULL);
	if (ret) {
		s->desc = NULL;
		return ret;
	}
	for (i = 0; i < NEVENTS; i++) {
		pmcs[i].reg_num = i;
		pmcs[i].reg_value = events[i].pmc;
		pmds[i].reg_num = i;
	}
	ret = pfmk_write_pmcs(s->desc, pmcs, NEVENTS);
	if (!ret)
		ret = pfmk_write_pmds(s->desc, pmds, NEVENTS);
	load.load_pid = cpu;
	if (!ret)
		ret = pfmk_load_context(s->desc, &load);
	if (!ret)
		ret = pfmk_start(s->desc, NULL);
	return ret;
}

static int session_read(struct cpu_session *s)
{
	struct pfarg_pmd pmds[NEVENTS] = { };
	unsigned int i;
	int ret;

	for (i = 0; i < NEVENTS; i++)
		pmds[i].reg_num = i;
	ret = pfmk_read_pmds(s->desc, pmds, NEVENTS);
	for (i = 0; i < NEVENTS && !ret; i++)
		s->counts[i] = pmds[i].reg_value;
	return ret;
}

static void print_table(struct cpu_session *sessions)
{
	unsigned int cpu;

	pr_info("%-4s %16s %16s %14s %12s\n", "CPU", events[0].name,
		events[1].name, events[2].name, events[3].name);
	for_each_possible_cpu(cpu) {
		struct cpu_session *s = &sessions[cpu];

		if (!s->desc)
			continue;
		if (s->err) {
			pr_info("%-4u error %d\n", cpu, s->err);
			continue;
		}
		pr_info("%-4u %16llu %16llu %14llu %12llu\n", cpu,
			s->counts[0], s->counts[1], s->counts[2], s->counts[3]);
	}
}

static int counter_fn(void *data)
{
	struct cpu_session *sessions = data;
	unsigned long deadline;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		sessions[cpu].err = session_open(&sessions[cpu], cpu);
		if (sessions[cpu].err)
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
	}
	print_table(sessions);
	pr_info("done\n");

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}

	for_each_possible_cpu(cpu)
		if (sessions[cpu].desc)
			pfmk_close(sessions[cpu].desc);
	kfree(sessions);
	return 0;
}

static int __init pfmk_example_init(void)
{
	struct cpu_session *sessions;

	if (!seconds || seconds > 3600)
		return -EINVAL;
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
