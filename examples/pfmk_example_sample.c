// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk example: sample an event on every CPU from a kernel thread.
 *
 * One system-wide context per online CPU samples `event`, an event string
 * as perf record -e takes it (pfmk_encode()), into a default-format
 * buffer: cpu-clock (the default) or task-clock every `period_us`
 * microseconds (1000: 1 kHz), any other event every `period` events: the
 * CPU's core cycles (event=cycles, a hardware event: its overflow
 * interrupt is an NMI), a tracepoint (event=sched:sched_switch period=1:
 * every context switch), a PMU's event by name (event=msr/tsc/).
 * A kernel thread sleeps on one completion shared by all contexts; when
 * a buffer fills, its context is masked and notifies: the thread drains
 * the message and the buffer, then restarts the context.  After
 * `seconds` seconds it stops, drains what is left and prints the kernel
 * functions that took the most samples (user space counts as one).
 *
 *   insmod pfmk_example_sample.ko seconds=3
 *   insmod pfmk_example_sample.ko seconds=3 event=cycles
 *   insmod pfmk_example_sample.ko seconds=3 event=sched:sched_switch period=1
 *
 * The last line is "done errors=N", N the number of calls that failed.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <pfmk/compat.h>
#include <pfmk/encode.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

PFMK_IMPORT_NS();

static unsigned int seconds = 5;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long to sample, in seconds (1-3600)");

static unsigned int period_us = 1000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "cpu-clock, task-clock: sampling period in microseconds (100-1000000)");

static char *event = "cpu-clock";
module_param(event, charp, 0444);
MODULE_PARM_DESC(event, "the event, as perf record -e takes it (default cpu-clock)");

static ulong period = 1000000;
module_param(period, ulong, 0444);
MODULE_PARM_DESC(period, "other events: sampling period in events (1-10^10)");

static unsigned int top = 10;
module_param(top, uint, 0444);
MODULE_PARM_DESC(top, "how many functions to print");

#define BUF_SIZE	(32 * 1024)
#define MAX_IPS		2048

struct ip_count {
	unsigned long	ip;
	unsigned int	count;
	char		name[KSYM_NAME_LEN];
};

struct sampler {
	struct completion	done;
	void			**desc;		/* per CPU, NULL if none */
	struct pfm_dfl_smpl_hdr	**buf;		/* per CPU */
	struct ip_count		*ips;
	unsigned int		nr_ips;
	u64			samples;
	u64			lost;
	u64			restarts;
	unsigned int		errors;
};

static struct task_struct *sampler_thread;

/* The context request and PMC values pfmk_encode() made of `event`. */
static struct pfarg_ctx ev_ctx;
static struct pfarg_pmc ev_pmcs[PFMK_ENCODE_MAX_PMCS];
static unsigned int ev_npmcs;
static u64 ev_period;
static bool ev_clock;

static void account_ip(struct sampler *s, unsigned long ip)
{
	unsigned int i;

	s->samples++;
	/* One bucket for user space: this example is about the kernel. */
	if (ip < PAGE_OFFSET)
		ip = 0;
	for (i = 0; i < s->nr_ips; i++) {
		if (s->ips[i].ip == ip) {
			s->ips[i].count++;
			return;
		}
	}
	if (s->nr_ips == MAX_IPS) {
		s->lost++;
		return;
	}
	s->ips[s->nr_ips].ip = ip;
	s->ips[s->nr_ips].count = 1;
	s->nr_ips++;
}

/* Read every entry the buffer holds; the context is masked or stopped. */
static void drain_buffer(struct sampler *s, struct pfm_dfl_smpl_hdr *hdr)
{
	struct pfm_dfl_smpl_entry *ent = (void *)(hdr + 1);
	u64 i, count;

	/* Entries below hdr_count are complete: pairs with the writer. */
	count = smp_load_acquire(&hdr->hdr_count);

	/* PMD 0 records no other PMD: entries are all the same size. */
	for (i = 0; i < count; i++)
		account_ip(s, ent[i].ip);
}

static int open_cpu(struct sampler *s, unsigned int cpu)
{
	static const pfm_uuid_t dfl_uuid = PFM_DFL_SMPL_UUID;
	struct pfm_dfl_smpl_arg arg = { .buf_size = BUF_SIZE };
	struct pfarg_pmd pmd = { };
	struct pfarg_ctx ctx = ev_ctx;
	struct pfarg_load load = { .load_pid = cpu };
	void *buf;
	int ret;

	memcpy(ctx.ctx_smpl_buf_id, dfl_uuid, sizeof(pfm_uuid_t));
	ret = pfmk_create_context(&ctx, &arg, sizeof(arg), &s->done,
				  &s->desc[cpu], &buf);
	if (ret) {
		s->desc[cpu] = NULL;
		return ret;
	}
	s->buf[cpu] = buf;

	pmd.reg_value = -ev_period;
	pmd.reg_short_reset = -ev_period;
	pmd.reg_long_reset = -ev_period;
	/* Notify when the buffer is full (the format masks the context). */
	pmd.reg_flags = PFM_REGFL_OVFL_NOTIFY;
	ret = pfmk_write_pmcs(s->desc[cpu], ev_pmcs, ev_npmcs) ?:
	      pfmk_write_pmds(s->desc[cpu], &pmd, 1) ?:
	      pfmk_load_context(s->desc[cpu], &load) ?:
	      pfmk_start(s->desc[cpu], NULL);
	if (ret) {
		pfmk_close(s->desc[cpu]);
		s->desc[cpu] = NULL;
	}
	return ret;
}

/* Handle the notifications of every context: drain full buffers. */
static void poll_messages(struct sampler *s)
{
	union pfm_msg msg;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		if (!s->desc[cpu])
			continue;
		while (pfmk_read(s->desc[cpu], &msg, sizeof(msg), 1) ==
		       sizeof(msg)) {
			if (msg.type != PFM_MSG_OVFL)
				continue;
			drain_buffer(s, s->buf[cpu]);
			if (!pfmk_restart(s->desc[cpu]))
				s->restarts++;
			else
				s->errors++;
		}
	}
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct ip_count *)a)->name,
		      ((const struct ip_count *)b)->name);
}

static int cmp_count(const void *a, const void *b)
{
	const struct ip_count *x = a, *y = b;

	return x->count == y->count ? 0 : x->count < y->count ? 1 : -1;
}

static void print_top(struct sampler *s)
{
	unsigned int i, n = 0;

	/* Merge the sampled addresses by function. */
	for (i = 0; i < s->nr_ips; i++) {
		if (s->ips[i].ip)
			sprint_symbol_no_offset(s->ips[i].name, s->ips[i].ip);
		else
			strscpy(s->ips[i].name, "[user space]",
				sizeof(s->ips[i].name));
	}
	sort(s->ips, s->nr_ips, sizeof(*s->ips), cmp_name, NULL);
	for (i = 0; i < s->nr_ips; i++) {
		if (n && !strcmp(s->ips[n - 1].name, s->ips[i].name))
			s->ips[n - 1].count += s->ips[i].count;
		else
			s->ips[n++] = s->ips[i];
	}
	sort(s->ips, n, sizeof(*s->ips), cmp_count, NULL);

	pr_info("%llu samples of %s, %u functions, %llu buffer restarts\n",
		s->samples, event, n, s->restarts);
	pr_info("%8s %6s  %s\n", "samples", "%", "function");
	for (i = 0; i < n && i < top; i++) {
		u64 pct = div64_u64(s->ips[i].count * 100ULL, s->samples ?: 1);

		if (s->ips[i].ip)
			pr_info("%8u %5llu%%  %ps\n", s->ips[i].count, pct,
				(void *)s->ips[i].ip);
		else
			pr_info("%8u %5llu%%  %s\n", s->ips[i].count, pct,
				s->ips[i].name);
	}
}

static int sampler_fn(void *data)
{
	struct sampler *s = data;
	unsigned long deadline;
	unsigned int cpu;
	int ret;

	pr_info("sampling %s every %llu %s\n", event, ev_period,
		ev_clock ? "ns" : "events");
	for_each_online_cpu(cpu) {
		ret = open_cpu(s, cpu);
		if (!ret)
			continue;
		s->errors++;
		if (ret == -EOPNOTSUPP)
			pr_warn("CPU %u: no PMU counts %s here (%d)\n", cpu,
				event, ret);
		else
			pr_warn("CPU %u: cannot sample: %d\n", cpu, ret);
	}

	deadline = jiffies + seconds * HZ;
	while (!kthread_should_stop() && time_before(jiffies, deadline)) {
		wait_for_completion_interruptible_timeout(&s->done,
							  deadline - jiffies);
		poll_messages(s);
	}

	for_each_possible_cpu(cpu) {
		if (!s->desc[cpu])
			continue;
		if (pfmk_stop(s->desc[cpu]))
			s->errors++;
		drain_buffer(s, s->buf[cpu]);
	}
	print_top(s);
	pr_info("done errors=%u\n", s->errors);

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}

	for_each_possible_cpu(cpu)
		if (s->desc[cpu] && pfmk_close(s->desc[cpu]))
			pr_warn("CPU %u: close failed\n", cpu);
	kvfree(s->ips);
	kfree(s->buf);
	kfree(s->desc);
	kfree(s);
	return 0;
}

/* A generic PMC value of cpu-clock or task-clock, any modifiers. */
static bool is_clock(const struct pfarg_ctx *ctx, u64 pmc)
{
	const u64 m = PFMK_GEN_TYPE_MASK | PFMK_GEN_CONFIG_MASK;

	return !ctx->ctx_pmu_name[0] &&
	       ((pmc & m) == (PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK) & m) ||
		(pmc & m) == (PFMK_GEN_SW(PERF_COUNT_SW_TASK_CLOCK) & m));
}

/* `event` as PMC values of PMD 0, and its period. */
static int encode_event(void)
{
	int ret;

	ev_ctx.ctx_flags = PFM_FL_SYSTEM_WIDE;
	ret = pfmk_encode(event, 0, &ev_ctx, ev_pmcs, ARRAY_SIZE(ev_pmcs),
			  &ev_npmcs);
	if (ret) {
		pr_err("event \"%s\": %d\n", event, ret);
		return ret;
	}
	ev_clock = is_clock(&ev_ctx, ev_pmcs[0].reg_value);
	ev_period = ev_clock ? (u64)period_us * NSEC_PER_USEC : period;
	return 0;
}

static int __init pfmk_example_init(void)
{
	struct sampler *s;
	int ret;

	if (!seconds || seconds > 3600 || period_us < 100 ||
	    period_us > 1000000 || !period || period > 10000000000ULL ||
	    !event)
		return -EINVAL;
	ret = encode_event();
	if (ret)
		return ret;
	ret = -ENOMEM;
	s = pfmk_kzalloc_obj(*s, GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	init_completion(&s->done);
	s->desc = kcalloc(nr_cpu_ids, sizeof(*s->desc), GFP_KERNEL);
	s->buf = kcalloc(nr_cpu_ids, sizeof(*s->buf), GFP_KERNEL);
	s->ips = kvcalloc(MAX_IPS, sizeof(*s->ips), GFP_KERNEL);
	if (!s->desc || !s->buf || !s->ips)
		goto err;
	sampler_thread = kthread_run(sampler_fn, s, "pfmk_sample");
	if (!IS_ERR(sampler_thread))
		return 0;
	ret = PTR_ERR(sampler_thread);
err:
	kvfree(s->ips);
	kfree(s->buf);
	kfree(s->desc);
	kfree(s);
	return ret;
}

static void __exit pfmk_example_exit(void)
{
	kthread_stop(sampler_thread);
}

module_init(pfmk_example_init);
module_exit(pfmk_example_exit);

MODULE_DESCRIPTION("pfmk example: per-CPU sampling of any event from a kernel thread");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
