// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_test_pmu: the deterministic test PMU itself,
 * driven through perf directly, so that the pfmk suites can trust it.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

/* Overflows whose count the handler records. */
#define TPMU_NR_RECORD	16

/**
 * struct tpmu_ovfl - what the overflow handler saw
 * @nr: number of calls.
 * @bad_context: calls not in hard-irq context with interrupts off, or
 *	without registers.
 * @bad_cpu: calls on another CPU than the event's.
 * @bad_period: calls whose sample period was not the event's.
 * @count: the event's count at the first TPMU_NR_RECORD calls.
 * @peer: another event, or NULL.
 * @peer_count: @peer's count at the first TPMU_NR_RECORD calls.
 */
struct tpmu_ovfl {
	atomic_t		nr;
	atomic_t		bad_context;
	atomic_t		bad_cpu;
	atomic_t		bad_period;
	u64			count[TPMU_NR_RECORD];
	struct perf_event	*peer;
	u64			peer_count[TPMU_NR_RECORD];
};

static void tpmu_overflow(struct perf_event *event,
			  struct perf_sample_data *data, struct pt_regs *regs)
{
	struct tpmu_ovfl *o = event->overflow_handler_context;
	int n = atomic_inc_return(&o->nr);

	if (!in_hardirq() || !irqs_disabled() || !regs)
		atomic_inc(&o->bad_context);
	if (smp_processor_id() != event->cpu)
		atomic_inc(&o->bad_cpu);
	if (data->period != event->attr.sample_period)
		atomic_inc(&o->bad_period);
	if (n > TPMU_NR_RECORD)
		return;
	/*
	 * Not perf_event_read_value(): it takes a mutex, and this is hard
	 * irq.  The test PMU keeps no count in hardware (its read does
	 * nothing): the tick added its chunk to event->count, and to every
	 * other started event's of this CPU (@o->peer's), before it called
	 * this handler, so the raw count is the count at the overflow.
	 */
	o->count[n - 1] = local64_read(&event->count);
	if (o->peer)
		o->peer_count[n - 1] = local64_read(&o->peer->count);
}

static struct perf_event *tpmu_create(struct kunit *test,
				      struct perf_event_attr *attr, int cpu,
				      struct tpmu_ovfl *o)
{
	const struct pfmkt_perf p = {
		.attr = attr,
		.cpu = cpu,
		.handler = o ? tpmu_overflow : NULL,
		.context = o,
	};

	attr->type = pfmk_test_pmu_type();
	attr->size = sizeof(*attr);
	return pfmkt_perf_create(test, &p);
}

static u64 tpmu_value(struct perf_event *event)
{
	u64 enabled, running;

	return perf_event_read_value(event, &enabled, &running);
}

/**
 * struct tpmu_bad_attr - an event the test PMU's event_init refuses
 * @name: the case.
 * @config: attr.config.
 * @task: bound to the current task (CPU -1), not to a CPU.
 * @freq: in frequency mode (100 Hz).
 * @exclude_kernel: attr.exclude_kernel.
 * @err: the errno.
 */
struct tpmu_bad_attr {
	const char	*name;
	u64		config;
	bool		task;
	bool		freq;
	bool		exclude_kernel;
	long		err;
};

static const struct tpmu_bad_attr tpmu_bad_attrs[] = {
	{ .name = "step_0", .config = 0, .err = -EINVAL },
	{ .name = "bit_16", .config = BIT_ULL(16) | 1, .err = -EINVAL },
	{ .name = "bit_63", .config = BIT_ULL(63) | 1, .err = -EINVAL },
	/* CPU-bound events only. */
	{ .name = "task_bound", .config = 1, .task = true, .err = -EINVAL },
	/* No frequency mode: a tick is not a unit of time. */
	{ .name = "freq", .config = 1, .freq = true, .err = -EINVAL },
	/* PERF_PMU_CAP_NO_EXCLUDE. */
	{ .name = "exclude_kernel", .config = 1, .exclude_kernel = true,
	  .err = -EINVAL },
};

static void tpmu_bad_attr_desc(const struct tpmu_bad_attr *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tpmu_bad_attr, tpmu_bad_attrs, tpmu_bad_attr_desc);

/* event_init refuses what the encoding does not allow. */
static void tpmu_event_init_refuses(struct kunit *test)
{
	const struct tpmu_bad_attr *c = test->param_value;
	struct perf_event_attr attr;
	struct perf_event *event;

	KUNIT_ASSERT_GT(test, pfmk_test_pmu_type(), (int)PERF_TYPE_MAX - 1);

	memset(&attr, 0, sizeof(attr));
	attr.type = pfmk_test_pmu_type();
	attr.size = sizeof(attr);
	attr.config = c->config;
	attr.exclude_kernel = c->exclude_kernel;
	if (c->freq) {
		attr.freq = 1;
		attr.sample_freq = 100;
	}
	event = pfmkt_perf_try_create(test, &(struct pfmkt_perf){
		.attr = &attr,
		.cpu = c->task ? -1 : pfmkt_cpu(),
		.task = c->task ? current : NULL,
	});
	/* 0 if perf took it: a tracked event, released when the case ends. */
	KUNIT_EXPECT_EQ(test, (long)PTR_ERR_OR_ZERO(event), c->err);
}

/* An event on @cpu counting 5 per tick, created disabled. */
static struct perf_event *tpmu_disabled(struct kunit *test, int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.config = 5;
	attr.disabled = 1;
	return tpmu_create(test, &attr, cpu, NULL);
}

/* An event created disabled is not active. */
static void tpmu_counts_not_before_enabled_inactive(struct kunit *test)
{
	int cpu = pfmkt_cpu();

	tpmu_disabled(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* An event created disabled does not count. */
static void tpmu_counts_not_before_enabled(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event = tpmu_disabled(test, cpu);

	pfmk_test_pmu_tick(cpu, 7);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 0ULL);
}

/* tpmu_disabled()'s event, enabled. */
static struct perf_event *tpmu_enabled(struct kunit *test, int cpu)
{
	struct perf_event *event = tpmu_disabled(test, cpu);

	perf_event_enable(event);
	return event;
}

/* Enabled, an event is active. */
static void tpmu_counts_while_enabled_active(struct kunit *test)
{
	int cpu = pfmkt_cpu();

	tpmu_enabled(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
}

/* Enabled, an event counts ticks * STEP. */
static void tpmu_counts_while_enabled(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event = tpmu_enabled(test, cpu);

	pfmk_test_pmu_tick(cpu, 100);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 500ULL);
}

/* Read, an enabled event counts on from its count. */
static void tpmu_counts_while_enabled_after_read(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event = tpmu_enabled(test, cpu);

	pfmk_test_pmu_tick(cpu, 100);
	KUNIT_ASSERT_EQ(test, tpmu_value(event), 500ULL);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 505ULL);
}

/* An event on @cpu that counted 101 ticks by 5, then disabled. */
static struct perf_event *tpmu_counted_505(struct kunit *test, int cpu)
{
	struct perf_event *event = tpmu_enabled(test, cpu);

	pfmk_test_pmu_tick(cpu, 101);
	perf_event_disable(event);
	return event;
}

/* Disabled again, an event is not active. */
static void tpmu_counts_not_after_disabled_inactive(struct kunit *test)
{
	int cpu = pfmkt_cpu();

	tpmu_counted_505(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* Disabled again, an event keeps its count. */
static void tpmu_counts_not_after_disabled(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event = tpmu_counted_505(test, cpu);

	pfmk_test_pmu_tick(cpu, 1000);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 505ULL);
}

/*
 * Counts are 64 bits wide: 2^40 ticks in one go add 5 * 2^40 to a count
 * started again after a stop.
 */
static void tpmu_counts_wide(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event = tpmu_counted_505(test, cpu);

	perf_event_enable(event);
	pfmk_test_pmu_tick(cpu, 1ULL << 40);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 505ULL + 5 * (1ULL << 40));
}

/* Releasing a started event detaches it. */
static void tpmu_release_detaches(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event = tpmu_enabled(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
	pfmkt_perf_release(test, event);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* No CPU: -1, or nr_cpu_ids (not a constant, hence the flag). */
static const bool tpmu_no_cpus[] = { false, true };

static void tpmu_no_cpu_desc(const bool *past_last, char *desc)
{
	strscpy(desc, *past_last ? "nr_cpu_ids" : "cpu_-1",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tpmu_no_cpu, tpmu_no_cpus, tpmu_no_cpu_desc);

/* The CPU of @test's row of tpmu_no_cpus[]. */
static int tpmu_no_cpu(struct kunit *test)
{
	return *(const bool *)test->param_value ? (int)nr_cpu_ids : -1;
}

/* A tick on no CPU is ignored: an event started on a CPU does not count it. */
static void tpmu_tick_no_cpu(struct kunit *test)
{
	struct perf_event *event = tpmu_enabled(test, pfmkt_cpu());

	pfmk_test_pmu_tick(tpmu_no_cpu(test), 1);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 0ULL);
}

/* No CPU counts as having an active event, though a real CPU has one. */
static void tpmu_tick_no_cpu_inactive(struct kunit *test)
{
	tpmu_enabled(test, pfmkt_cpu());
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(tpmu_no_cpu(test)), 0U);
}

/*
 * A counting event (STEP 1) on the test's CPU, *@cpu, with *@other
 * another online CPU (skipped without one).
 */
static struct perf_event *tpmu_other_cpu_event(struct kunit *test, int *cpu,
					       int *other)
{
	struct perf_event_attr attr;

	*cpu = pfmkt_cpu();
	*other = cpumask_first(cpu_online_mask);
	if (*other == *cpu)
		kunit_skip(test, "needs 2 online CPUs, have %u",
			   num_online_cpus());
	memset(&attr, 0, sizeof(attr));
	attr.config = 1;
	return tpmu_create(test, &attr, *cpu, NULL);
}

/* An event is active on its own CPU. */
static void tpmu_tick_other_cpu_active(struct kunit *test)
{
	int cpu, other;

	tpmu_other_cpu_event(test, &cpu, &other);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
}

/* An event is not active on another CPU. */
static void tpmu_tick_other_cpu_inactive(struct kunit *test)
{
	int cpu, other;

	tpmu_other_cpu_event(test, &cpu, &other);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(other), 0U);
}

/* Ticks on another CPU leave an event alone. */
static void tpmu_tick_other_cpu(struct kunit *test)
{
	int cpu, other;
	struct perf_event *event = tpmu_other_cpu_event(test, &cpu, &other);

	pfmk_test_pmu_tick(other, 10);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 0ULL);
}

/* After another CPU's ticks, an event counts its own CPU's. */
static void tpmu_tick_other_cpu_own(struct kunit *test)
{
	int cpu, other;
	struct perf_event *event = tpmu_other_cpu_event(test, &cpu, &other);

	pfmk_test_pmu_tick(other, 10);
	KUNIT_ASSERT_EQ(test, tpmu_value(event), 0ULL);
	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 10ULL);
}

/* The handler ran in its context, on its CPU, with its period. */
static void tpmu_expect_clean(struct kunit *test, struct tpmu_ovfl *o)
{
	KUNIT_EXPECT_EQ(test, atomic_read(&o->bad_context), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->bad_cpu), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->bad_period), 0);
}

/* A sampling event counting @step per tick, period @period, on @cpu. */
static struct perf_event *tpmu_sampler(struct kunit *test, int cpu, u64 step,
				       u64 period, struct tpmu_ovfl **o)
{
	struct perf_event_attr attr;

	*o = kunit_kzalloc(test, sizeof(**o), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *o);
	memset(&attr, 0, sizeof(attr));
	attr.config = step;
	attr.sample_period = period;
	return tpmu_create(test, &attr, cpu, *o);
}

/* STEP 3, period 10: no overflow at count 9 (3 ticks). */
static void tpmu_sampling_overflows_not_yet(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct tpmu_ovfl *o;

	tpmu_sampler(test, cpu, 3, 10, &o);
	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 0);
}

/* STEP 3, period 10: the first overflow at count 12 (3 + 1 ticks). */
static void tpmu_sampling_overflows_first(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct tpmu_ovfl *o;

	tpmu_sampler(test, cpu, 3, 10, &o);
	pfmk_test_pmu_tick(cpu, 3);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 1);
}

/* A sampler of STEP 3, period 10 on @cpu, ticked 3, 1, then 96 times. */
static struct perf_event *tpmu_sampled_100(struct kunit *test, int cpu,
					   struct tpmu_ovfl **o)
{
	struct perf_event *event = tpmu_sampler(test, cpu, 3, 10, o);

	pfmk_test_pmu_tick(cpu, 3);
	pfmk_test_pmu_tick(cpu, 1);
	pfmk_test_pmu_tick(cpu, 96);
	return event;
}

/* STEP 3, period 10, 100 ticks: counted 300. */
static void tpmu_sampling_overflows_value(struct kunit *test)
{
	struct tpmu_ovfl *o;
	struct perf_event *event = tpmu_sampled_100(test, pfmkt_cpu(), &o);

	KUNIT_EXPECT_EQ(test, tpmu_value(event), 300ULL);
}

/* STEP 3, period 10, 100 ticks: 30 overflows. */
static void tpmu_sampling_overflows(struct kunit *test)
{
	struct tpmu_ovfl *o;

	tpmu_sampled_100(test, pfmkt_cpu(), &o);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 30);
}

/* STEP 3, period 10: overflow k at the first count >= 10 * k. */
static void tpmu_sampling_overflows_counts(struct kunit *test)
{
	struct tpmu_ovfl *o;
	unsigned int k;

	tpmu_sampled_100(test, pfmkt_cpu(), &o);
	for (k = 1; k <= TPMU_NR_RECORD; k++)
		KUNIT_EXPECT_EQ_MSG(test, o->count[k - 1],
				    3 * DIV_ROUND_UP(10ULL * k, 3),
				    "count at overflow %u", k);
}

/* STEP 3, period 10: each overflow in the handler's context, its CPU. */
static void tpmu_sampling_overflows_clean(struct kunit *test)
{
	struct tpmu_ovfl *o;

	tpmu_sampled_100(test, pfmkt_cpu(), &o);
	tpmu_expect_clean(test, o);
}

/* STEP 3, period 10 on @cpu: 100 ticks, stopped, 100 more ticks. */
static struct perf_event *tpmu_sampled_stopped(struct kunit *test, int cpu,
					       struct tpmu_ovfl **o)
{
	struct perf_event *event = tpmu_sampler(test, cpu, 3, 10, o);

	pfmk_test_pmu_tick(cpu, 100);
	perf_event_disable(event);
	pfmk_test_pmu_tick(cpu, 100);
	return event;
}

/*
 * Stopped after 100 ticks, a sampling event overflows no more: its 30
 * calls (300 counted, period 10) and none in the 100 ticks after.
 */
static void tpmu_sampling_stopped(struct kunit *test)
{
	struct tpmu_ovfl *o;

	tpmu_sampled_stopped(test, pfmkt_cpu(), &o);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 30);
}

/* Stopped after 100 ticks, a sampling event does not count. */
static void tpmu_sampling_stopped_value(struct kunit *test)
{
	struct tpmu_ovfl *o;
	struct perf_event *event = tpmu_sampled_stopped(test, pfmkt_cpu(), &o);

	KUNIT_EXPECT_EQ(test, tpmu_value(event), 300ULL);
}

/*
 * STEP 25, period 10: one handler call per tick however many periods
 * it went through; the excess carries modulo the period, so the
 * overflows stay on the grid of multiples of 10:
 *   tick 1: count 25, left 10 - 25 = -15, next 10 - 15 % 10 = 5;
 *   tick 2: count 50, left  5 - 25 = -20, next 10 - 20 % 10 = 10;
 *   tick 3: count 75, left 10 - 25 = -15, next 5.
 */
struct tpmu_big_step {
	unsigned int	ticks;
	s64		left;
};

static const struct tpmu_big_step tpmu_big_steps[] = {
	{ 1, 5 }, { 2, 10 }, { 3, 5 },
};

/* The ticks of the cases that check every call (the calls recorded). */
#define TPMU_BIG_TICKS	3
static_assert(TPMU_BIG_TICKS <= TPMU_NR_RECORD);

static void tpmu_big_step_desc(const struct tpmu_big_step *b, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "tick %u", b->ticks);
}

KUNIT_ARRAY_PARAM(tpmu_big_step, tpmu_big_steps, tpmu_big_step_desc);

/* A sampler of STEP 25, period 10 on @cpu, ticked once @ticks times. */
static struct perf_event *tpmu_big_stepped(struct kunit *test, int cpu,
					   unsigned int ticks,
					   struct tpmu_ovfl **o)
{
	struct perf_event *event = tpmu_sampler(test, cpu, 25, 10, o);
	unsigned int k;

	for (k = 0; k < ticks; k++)
		pfmk_test_pmu_tick(cpu, 1);
	return event;
}

/* STEP 25, period 10: one handler call per tick. */
static void tpmu_sampling_one_call_per_tick(struct kunit *test)
{
	const struct tpmu_big_step *b = test->param_value;
	struct tpmu_ovfl *o;

	tpmu_big_stepped(test, pfmkt_cpu(), b->ticks, &o);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), b->ticks);
}

/* STEP 25, period 10: the excess carries modulo the period. */
static void tpmu_sampling_one_call_left(struct kunit *test)
{
	const struct tpmu_big_step *b = test->param_value;
	struct perf_event *event;
	struct tpmu_ovfl *o;

	event = tpmu_big_stepped(test, pfmkt_cpu(), b->ticks, &o);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_period_left(event), b->left);
}

/* STEP 25, period 10, TPMU_BIG_TICKS ticks: the count at each call. */
static void tpmu_sampling_one_call_counts(struct kunit *test)
{
	struct tpmu_ovfl *o;
	unsigned int k;

	tpmu_big_stepped(test, pfmkt_cpu(), TPMU_BIG_TICKS, &o);
	for (k = 1; k <= TPMU_BIG_TICKS; k++)
		KUNIT_EXPECT_EQ_MSG(test, o->count[k - 1], 25ULL * k,
				    "tick %u", k);
}

/* STEP 25, period 10, TPMU_BIG_TICKS ticks: 25 a tick counted. */
static void tpmu_sampling_one_call_value(struct kunit *test)
{
	struct perf_event *event;
	struct tpmu_ovfl *o;

	event = tpmu_big_stepped(test, pfmkt_cpu(), TPMU_BIG_TICKS, &o);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 25ULL * TPMU_BIG_TICKS);
}

/*
 * STEP 25, period 10, TPMU_BIG_TICKS ticks: each call in its context, on
 * its CPU.
 */
static void tpmu_sampling_one_call_clean(struct kunit *test)
{
	struct tpmu_ovfl *o;

	tpmu_big_stepped(test, pfmkt_cpu(), TPMU_BIG_TICKS, &o);
	tpmu_expect_clean(test, o);
}

/*
 * STEP 1, period 10 on @cpu: 7 ticks, stopped, 50 ticks, started again,
 * 2 ticks: 9 counted.
 */
static void tpmu_carried(struct kunit *test, int cpu, struct tpmu_ovfl **o)
{
	struct perf_event *event = tpmu_sampler(test, cpu, 1, 10, o);

	pfmk_test_pmu_tick(cpu, 7);
	perf_event_disable(event);
	pfmk_test_pmu_tick(cpu, 50);
	perf_event_enable(event);
	pfmk_test_pmu_tick(cpu, 2);
}

/* The period carries across a stop: 7 + 2 ticks do not overflow. */
static void tpmu_sampling_period_carries_not_yet(struct kunit *test)
{
	struct tpmu_ovfl *o;

	tpmu_carried(test, pfmkt_cpu(), &o);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 0);
}

/* The period carries across a stop: 7 + 3 ticks overflow once. */
static void tpmu_sampling_period_carries(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct tpmu_ovfl *o;

	tpmu_carried(test, cpu, &o);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 1);
}

/* The period carries across a stop: the overflow at count 10. */
static void tpmu_sampling_period_carries_count(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct tpmu_ovfl *o;

	tpmu_carried(test, cpu, &o);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, o->count[0], 10ULL);
}

/**
 * struct tpmu_three - three sampling and counting events of one CPU
 * @cpu: their CPU.
 * @ev: A (step 1, period 10), B (step 4, period 6), C (step 5, counting).
 * @o: what A's and B's handlers saw; A sees B, added before it, B sees
 *	C, added after it.
 */
struct tpmu_three {
	int			cpu;
	struct perf_event	*ev[3];
	struct tpmu_ovfl	*o[2];
};

/* Create @t's three events on @t->cpu, B first, then A, then C. */
static void tpmu_create_three(struct kunit *test, struct tpmu_three *t)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.config = 4;
	attr.sample_period = 6;
	t->ev[1] = tpmu_create(test, &attr, t->cpu, t->o[1]);
	memset(&attr, 0, sizeof(attr));
	attr.config = 1;
	attr.sample_period = 10;
	t->ev[0] = tpmu_create(test, &attr, t->cpu, t->o[0]);
	memset(&attr, 0, sizeof(attr));
	attr.config = 5;
	t->ev[2] = tpmu_create(test, &attr, t->cpu, NULL);
	t->o[0]->peer = t->ev[1];
	t->o[1]->peer = t->ev[2];
}

/*
 * All started events advance together, in chunks that end at the next
 * overflow: a handler sees the other events at the same tick, whether
 * they were added before or after its event.  A: STEP 1, period 10,
 * overflows at ticks 10, 20, 30.  B: STEP 4, period 6, overflow k at
 * the first tick t with 4 * t >= 6 * k, t = DIV_ROUND_UP(3 * k, 2):
 * ticks 2, 3, 5, 6, ... 29, 30, 20 overflows in 30 ticks.  C counts by
 * 5 and does not sample.  At tick 30 A and B overflow in the same chunk.
 * The three events, all active, after those 30 ticks.
 */
static struct tpmu_three *tpmu_three_ticked(struct kunit *test)
{
	struct tpmu_three *t;
	unsigned int k;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (k = 0; k < ARRAY_SIZE(t->o); k++) {
		t->o[k] = kunit_kzalloc(test, sizeof(*t->o[k]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, t->o[k]);
	}
	t->cpu = pfmkt_cpu();
	tpmu_create_three(test, t);
	KUNIT_ASSERT_EQ(test, pfmk_test_pmu_nr_active(t->cpu), 3U);
	pfmk_test_pmu_tick(t->cpu, 30);
	return t;
}

/**
 * struct tpmu_together - what one of the three events counted
 * @name: A, B or C.
 * @ev: its index in tpmu_three.ev.
 * @value: its count after the 30 ticks.
 */
struct tpmu_together {
	const char	*name;
	unsigned int	ev;
	u64		value;
};

static const struct tpmu_together tpmu_togethers[] = {
	{ "A", 0, 30 }, { "B", 1, 120 }, { "C", 2, 150 },
};

static void tpmu_together_desc(const struct tpmu_together *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tpmu_together, tpmu_togethers, tpmu_together_desc);

/* After 30 ticks A, B and C counted 30, 120 and 150. */
static void tpmu_ticks_together_values(struct kunit *test)
{
	const struct tpmu_together *r = test->param_value;
	struct tpmu_three *t = tpmu_three_ticked(test);

	KUNIT_EXPECT_EQ(test, tpmu_value(t->ev[r->ev]), r->value);
}

/**
 * struct tpmu_sampled - what one of the two samplers' handlers saw
 * @name: A or B.
 * @o: its index in tpmu_three.o.
 * @nr: its overflows in the 30 ticks.
 * @nr_rec: the overflows whose counts are checked.
 * @peer: its peer's name.
 * @num: overflow k at tick DIV_ROUND_UP(@num * k, @den).
 * @den: see @num.
 * @step: its STEP.
 * @peer_step: its peer's STEP.
 */
struct tpmu_sampled {
	const char	*name;
	unsigned int	o;
	int		nr;
	unsigned int	nr_rec;
	const char	*peer;
	u64		num;
	u64		den;
	u64		step;
	u64		peer_step;
};

static const struct tpmu_sampled tpmu_sampleds[] = {
	{ "A", 0, 3, 3, "B", 10, 1, 1, 4 },
	{ "B", 1, 20, TPMU_NR_RECORD, "C", 3, 2, 4, 5 },
};

static void tpmu_sampled_desc(const struct tpmu_sampled *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tpmu_sampled, tpmu_sampleds, tpmu_sampled_desc);

/* A overflows 3 times in the 30 ticks, B 20 times. */
static void tpmu_ticks_together_nr(struct kunit *test)
{
	const struct tpmu_sampled *r = test->param_value;
	struct tpmu_three *t = tpmu_three_ticked(test);

	KUNIT_EXPECT_EQ(test, atomic_read(&t->o[r->o]->nr), r->nr);
}

/* A overflows at ticks 10, 20, 30, B at DIV_ROUND_UP(3 * k, 2). */
static void tpmu_ticks_together_counts(struct kunit *test)
{
	const struct tpmu_sampled *r = test->param_value;
	struct tpmu_three *t = tpmu_three_ticked(test);
	unsigned int k;
	u64 tick;

	for (k = 1; k <= r->nr_rec; k++) {
		tick = DIV_ROUND_UP(r->num * k, r->den);
		KUNIT_EXPECT_EQ_MSG(test, t->o[r->o]->count[k - 1],
				    r->step * tick, "%s: count at overflow %u",
				    r->name, k);
	}
}

/* A sees B, added before it, B sees C, added after it, at the same tick. */
static void tpmu_ticks_together_peer(struct kunit *test)
{
	const struct tpmu_sampled *r = test->param_value;
	struct tpmu_three *t = tpmu_three_ticked(test);
	unsigned int k;
	u64 tick;

	for (k = 1; k <= r->nr_rec; k++) {
		tick = DIV_ROUND_UP(r->num * k, r->den);
		KUNIT_EXPECT_EQ_MSG(test, t->o[r->o]->peer_count[k - 1],
				    r->peer_step * tick, "%s: %s at overflow %u",
				    r->name, r->peer, k);
	}
}

/* A's and B's handlers ran in their context, on their CPU. */
static void tpmu_ticks_together_clean(struct kunit *test)
{
	const struct tpmu_sampled *r = test->param_value;
	struct tpmu_three *t = tpmu_three_ticked(test);

	tpmu_expect_clean(test, t->o[r->o]);
}

/* Released, the three events leave none active. */
static void tpmu_ticks_together_release(struct kunit *test)
{
	struct tpmu_three *t = tpmu_three_ticked(test);
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(t->ev); k++)
		pfmkt_perf_release(test, t->ev[k]);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(t->cpu), 0U);
}

static struct kunit_case pfmk_test_pmu_cases[] = {
	KUNIT_CASE_PARAM(tpmu_event_init_refuses, tpmu_bad_attr_gen_params),
	KUNIT_CASE(tpmu_counts_not_before_enabled_inactive),
	KUNIT_CASE(tpmu_counts_not_before_enabled),
	KUNIT_CASE(tpmu_counts_while_enabled_active),
	KUNIT_CASE(tpmu_counts_while_enabled),
	KUNIT_CASE(tpmu_counts_while_enabled_after_read),
	KUNIT_CASE(tpmu_counts_not_after_disabled_inactive),
	KUNIT_CASE(tpmu_counts_not_after_disabled),
	KUNIT_CASE(tpmu_counts_wide),
	KUNIT_CASE(tpmu_release_detaches),
	KUNIT_CASE_PARAM(tpmu_tick_no_cpu, tpmu_no_cpu_gen_params),
	KUNIT_CASE_PARAM(tpmu_tick_no_cpu_inactive, tpmu_no_cpu_gen_params),
	KUNIT_CASE(tpmu_tick_other_cpu_active),
	KUNIT_CASE(tpmu_tick_other_cpu_inactive),
	KUNIT_CASE(tpmu_tick_other_cpu),
	KUNIT_CASE(tpmu_tick_other_cpu_own),
	KUNIT_CASE(tpmu_sampling_overflows_not_yet),
	KUNIT_CASE(tpmu_sampling_overflows_first),
	KUNIT_CASE(tpmu_sampling_overflows_value),
	KUNIT_CASE(tpmu_sampling_overflows),
	KUNIT_CASE(tpmu_sampling_overflows_counts),
	KUNIT_CASE(tpmu_sampling_overflows_clean),
	KUNIT_CASE(tpmu_sampling_stopped),
	KUNIT_CASE(tpmu_sampling_stopped_value),
	KUNIT_CASE_PARAM(tpmu_sampling_one_call_per_tick,
			 tpmu_big_step_gen_params),
	KUNIT_CASE_PARAM(tpmu_sampling_one_call_left,
			 tpmu_big_step_gen_params),
	KUNIT_CASE(tpmu_sampling_one_call_counts),
	KUNIT_CASE(tpmu_sampling_one_call_value),
	KUNIT_CASE(tpmu_sampling_one_call_clean),
	KUNIT_CASE(tpmu_sampling_period_carries_not_yet),
	KUNIT_CASE(tpmu_sampling_period_carries),
	KUNIT_CASE(tpmu_sampling_period_carries_count),
	KUNIT_CASE_PARAM(tpmu_ticks_together_values,
			 tpmu_together_gen_params),
	KUNIT_CASE_PARAM(tpmu_ticks_together_nr, tpmu_sampled_gen_params),
	KUNIT_CASE_PARAM(tpmu_ticks_together_counts, tpmu_sampled_gen_params),
	KUNIT_CASE_PARAM(tpmu_ticks_together_peer, tpmu_sampled_gen_params),
	KUNIT_CASE_PARAM(tpmu_ticks_together_clean, tpmu_sampled_gen_params),
	KUNIT_CASE(tpmu_ticks_together_release),
	{}
};

static struct kunit_suite pfmk_test_pmu_suite = {
	.name = "pfmk_test_pmu",
	.test_cases = pfmk_test_pmu_cases,
};

kunit_test_suites(&pfmk_test_pmu_suite);
