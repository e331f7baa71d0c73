// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_test_pmu: the deterministic test PMU itself,
 * driven through perf directly, so that the pfmk suites can trust it.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/atomic.h>
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
	o->count[n - 1] = local64_read(&event->count);
	if (o->peer)
		o->peer_count[n - 1] = local64_read(&o->peer->count);
}

static struct perf_event *tpmu_create(struct perf_event_attr *attr, int cpu,
				      struct tpmu_ovfl *o)
{
	attr->type = pfmk_test_pmu_type();
	attr->size = sizeof(*attr);
	return perf_event_create_kernel_counter(attr, cpu, NULL,
						o ? tpmu_overflow : NULL, o);
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

/* event_init rejects what the encoding does not allow. */
static void tpmu_event_init_checks(struct kunit *test)
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
	event = perf_event_create_kernel_counter(&attr,
						 c->task ? -1 : pfmkt_cpu(),
						 c->task ? current : NULL,
						 NULL, NULL);
	if (!IS_ERR(event))
		perf_event_release_kernel(event);
	KUNIT_EXPECT_TRUE(test, IS_ERR(event));
	if (IS_ERR(event))
		KUNIT_EXPECT_EQ(test, PTR_ERR(event), c->err);
}

/* An event on @cpu counting 5 per tick, created disabled. */
static struct perf_event *tpmu_disabled(struct kunit *test, int cpu)
{
	struct perf_event_attr attr;
	struct perf_event *event;

	memset(&attr, 0, sizeof(attr));
	attr.config = 5;
	attr.disabled = 1;
	event = tpmu_create(&attr, cpu, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	return event;
}

/* An event created disabled is not active and does not count. */
static void tpmu_counts_not_before_enabled(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event = tpmu_disabled(test, cpu);

	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
	pfmk_test_pmu_tick(cpu, 7);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 0ULL);
	perf_event_release_kernel(event);
}

/* Enabled, an event is active and counts ticks * STEP. */
static void tpmu_counts_while_enabled(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event = tpmu_disabled(test, cpu);

	perf_event_enable(event);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
	pfmk_test_pmu_tick(cpu, 100);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 500ULL);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 505ULL);
	perf_event_release_kernel(event);
}

/* An event on @cpu that counted 101 ticks by 5, then disabled. */
static struct perf_event *tpmu_counted_505(struct kunit *test, int cpu)
{
	struct perf_event *event = tpmu_disabled(test, cpu);

	perf_event_enable(event);
	pfmk_test_pmu_tick(cpu, 101);
	perf_event_disable(event);
	return event;
}

/* Disabled again, an event is not active and keeps its count. */
static void tpmu_counts_not_after_disabled(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event = tpmu_counted_505(test, cpu);

	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
	pfmk_test_pmu_tick(cpu, 1000);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 505ULL);
	perf_event_release_kernel(event);
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
	perf_event_release_kernel(event);
}

/* Releasing a started event detaches it. */
static void tpmu_release_detaches(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event = tpmu_disabled(test, cpu);

	perf_event_enable(event);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
	perf_event_release_kernel(event);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/*
 * Ticks on no CPU (-1, nr_cpu_ids) are ignored, and no such CPU has an
 * active event.
 */
static void tpmu_tick_no_cpu(struct kunit *test)
{
	pfmk_test_pmu_tick(-1, 1);
	pfmk_test_pmu_tick(nr_cpu_ids, 1);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(-1), 0U);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(nr_cpu_ids), 0U);
}

/*
 * Ticks on another CPU leave an event alone: it is active on its own
 * CPU only, and counts that CPU's ticks only.
 */
static void tpmu_tick_other_cpu(struct kunit *test)
{
	int cpu = pfmkt_cpu(), other = cpumask_first(cpu_online_mask);
	struct perf_event_attr attr;
	struct perf_event *event;

	if (other == cpu)
		kunit_skip(test, "needs 2 online CPUs, have %u",
			   num_online_cpus());

	memset(&attr, 0, sizeof(attr));
	attr.config = 1;
	event = tpmu_create(&attr, cpu, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(other), 0U);
	pfmk_test_pmu_tick(other, 10);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 0ULL);
	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 10ULL);
	perf_event_release_kernel(event);
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
	return tpmu_create(&attr, cpu, *o);
}

/*
 * STEP 3, period 10: overflow k at the first count >= 10 * k, in the
 * handler's context, on the event's CPU.
 */
static void tpmu_sampling_overflows(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event;
	struct tpmu_ovfl *o;
	unsigned int k;

	event = tpmu_sampler(test, cpu, 3, 10, &o);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 0);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 1);
	pfmk_test_pmu_tick(cpu, 96);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 300ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 30);
	for (k = 1; k <= TPMU_NR_RECORD; k++)
		KUNIT_EXPECT_EQ_MSG(test, o->count[k - 1],
				    3 * DIV_ROUND_UP(10ULL * k, 3),
				    "count at overflow %u", k);
	tpmu_expect_clean(test, o);
	perf_event_release_kernel(event);
}

/*
 * STEP 3, period 10, 100 ticks, then stopped: the event neither counts
 * nor overflows.
 */
static void tpmu_sampling_stopped(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event;
	struct tpmu_ovfl *o;

	event = tpmu_sampler(test, cpu, 3, 10, &o);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	pfmk_test_pmu_tick(cpu, 100);
	perf_event_disable(event);
	pfmk_test_pmu_tick(cpu, 100);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 30);
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 300ULL);
	perf_event_release_kernel(event);
}

/*
 * STEP 25, period 10: one handler call per tick however many periods
 * it went through; the excess carries modulo the period, so the
 * overflows stay on the grid of multiples of 10:
 *   tick 1: count 25, left 10 - 25 = -15, next 10 - 15 % 10 = 5;
 *   tick 2: count 50, left  5 - 25 = -20, next 10 - 20 % 10 = 10;
 *   tick 3: count 75, left 10 - 25 = -15, next 5.
 */
static void tpmu_sampling_one_call_per_tick(struct kunit *test)
{
	static const s64 left[] = { 5, 10, 5 };
	int cpu = pfmkt_cpu();
	struct perf_event *event;
	struct tpmu_ovfl *o;
	unsigned int k;

	event = tpmu_sampler(test, cpu, 25, 10, &o);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	for (k = 1; k <= ARRAY_SIZE(left); k++) {
		pfmk_test_pmu_tick(cpu, 1);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&o->nr), k, "tick %u", k);
		KUNIT_EXPECT_EQ_MSG(test, o->count[k - 1], 25ULL * k,
				    "tick %u", k);
		KUNIT_EXPECT_EQ_MSG(test,
				    local64_read(&event->hw.period_left),
				    left[k - 1], "tick %u", k);
	}
	KUNIT_EXPECT_EQ(test, tpmu_value(event), 75ULL);
	tpmu_expect_clean(test, o);
	perf_event_release_kernel(event);
}

/* The period carries across a stop: 7 + 3 ticks overflow once. */
static void tpmu_sampling_period_carries(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	struct perf_event *event;
	struct tpmu_ovfl *o;

	event = tpmu_sampler(test, cpu, 1, 10, &o);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	pfmk_test_pmu_tick(cpu, 7);
	perf_event_disable(event);
	pfmk_test_pmu_tick(cpu, 50);
	perf_event_enable(event);
	pfmk_test_pmu_tick(cpu, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 0);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->nr), 1);
	KUNIT_EXPECT_EQ(test, o->count[0], 10ULL);
	perf_event_release_kernel(event);
}

/*
 * Three events of one CPU: A (step 1, period 10), B (step 4, period 6),
 * C (step 5, counting).  A sees B, added before it; B sees C, added
 * after it.  False, and none left, if one cannot be created.
 */
static bool tpmu_create_three(int cpu, struct perf_event **ev,
			      struct tpmu_ovfl *oa, struct tpmu_ovfl *ob)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.config = 4;
	attr.sample_period = 6;
	ev[1] = tpmu_create(&attr, cpu, ob);
	if (IS_ERR(ev[1]))
		return false;
	memset(&attr, 0, sizeof(attr));
	attr.config = 1;
	attr.sample_period = 10;
	ev[0] = tpmu_create(&attr, cpu, oa);
	if (IS_ERR(ev[0]))
		goto out_b;
	memset(&attr, 0, sizeof(attr));
	attr.config = 5;
	ev[2] = tpmu_create(&attr, cpu, NULL);
	if (IS_ERR(ev[2]))
		goto out_a;
	oa->peer = ev[1];
	ob->peer = ev[2];
	return true;
out_a:
	perf_event_release_kernel(ev[0]);
out_b:
	perf_event_release_kernel(ev[1]);
	return false;
}

/**
 * struct tpmu_three - the events of tpmu_create_three() after 30 ticks
 * @cpu: their CPU.
 * @ev: A, B and C.
 * @oa: what A's handler saw.
 * @ob: what B's handler saw.
 */
struct tpmu_three {
	int			cpu;
	struct perf_event	*ev[3];
	struct tpmu_ovfl	*oa;
	struct tpmu_ovfl	*ob;
};

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

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->oa = kunit_kzalloc(test, sizeof(*t->oa), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->oa);
	t->ob = kunit_kzalloc(test, sizeof(*t->ob), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->ob);
	t->cpu = pfmkt_cpu();
	KUNIT_ASSERT_TRUE(test, tpmu_create_three(t->cpu, t->ev, t->oa, t->ob));
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(t->cpu), 3U);
	pfmk_test_pmu_tick(t->cpu, 30);
	return t;
}

/* Release the three events: none is left active. */
static void tpmu_three_release(struct kunit *test, struct tpmu_three *t)
{
	unsigned int k;

	for (k = 0; k < 3; k++)
		perf_event_release_kernel(t->ev[k]);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(t->cpu), 0U);
}

/* After 30 ticks A, B and C counted 30, 120 and 150. */
static void tpmu_ticks_together_values(struct kunit *test)
{
	struct tpmu_three *t = tpmu_three_ticked(test);

	KUNIT_EXPECT_EQ(test, tpmu_value(t->ev[0]), 30ULL);
	KUNIT_EXPECT_EQ(test, tpmu_value(t->ev[1]), 120ULL);
	KUNIT_EXPECT_EQ(test, tpmu_value(t->ev[2]), 150ULL);
	tpmu_three_release(test, t);
}

/* A overflows at ticks 10, 20, 30 and sees B, added before it, there. */
static void tpmu_ticks_together_a(struct kunit *test)
{
	struct tpmu_three *t = tpmu_three_ticked(test);
	struct tpmu_ovfl *oa = t->oa;
	unsigned int k;

	KUNIT_EXPECT_EQ(test, atomic_read(&oa->nr), 3);
	for (k = 1; k <= 3; k++) {
		KUNIT_EXPECT_EQ_MSG(test, oa->count[k - 1], 10ULL * k,
				    "A: count at overflow %u", k);
		KUNIT_EXPECT_EQ_MSG(test, oa->peer_count[k - 1], 40ULL * k,
				    "A: B at overflow %u", k);
	}
	tpmu_expect_clean(test, oa);
	tpmu_three_release(test, t);
}

/* B overflows 20 times and sees C, added after it, at the same tick. */
static void tpmu_ticks_together_b(struct kunit *test)
{
	struct tpmu_three *t = tpmu_three_ticked(test);
	struct tpmu_ovfl *ob = t->ob;
	unsigned int k;
	u64 tick;

	KUNIT_EXPECT_EQ(test, atomic_read(&ob->nr), 20);
	for (k = 1; k <= TPMU_NR_RECORD; k++) {
		tick = DIV_ROUND_UP(3ULL * k, 2);
		KUNIT_EXPECT_EQ_MSG(test, ob->count[k - 1], 4 * tick,
				    "B: count at overflow %u", k);
		KUNIT_EXPECT_EQ_MSG(test, ob->peer_count[k - 1], 5 * tick,
				    "B: C at overflow %u", k);
	}
	tpmu_expect_clean(test, ob);
	tpmu_three_release(test, t);
}

static struct kunit_case pfmk_test_pmu_cases[] = {
	KUNIT_CASE_PARAM(tpmu_event_init_checks, tpmu_bad_attr_gen_params),
	KUNIT_CASE(tpmu_counts_not_before_enabled),
	KUNIT_CASE(tpmu_counts_while_enabled),
	KUNIT_CASE(tpmu_counts_not_after_disabled),
	KUNIT_CASE(tpmu_counts_wide),
	KUNIT_CASE(tpmu_release_detaches),
	KUNIT_CASE(tpmu_tick_no_cpu),
	KUNIT_CASE(tpmu_tick_other_cpu),
	KUNIT_CASE(tpmu_sampling_overflows),
	KUNIT_CASE(tpmu_sampling_stopped),
	KUNIT_CASE(tpmu_sampling_one_call_per_tick),
	KUNIT_CASE(tpmu_sampling_period_carries),
	KUNIT_CASE(tpmu_ticks_together_values),
	KUNIT_CASE(tpmu_ticks_together_a),
	KUNIT_CASE(tpmu_ticks_together_b),
	{}
};

static struct kunit_suite pfmk_test_pmu_suite = {
	.name = "pfmk_test_pmu",
	.test_cases = pfmk_test_pmu_cases,
};

kunit_test_suites(&pfmk_test_pmu_suite);
