/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_test_pmu: a deterministic perf PMU and its pfmk PMU description,
 * for pfmk's tests.
 *
 * The perf PMU "pfmk_test" counts nothing by itself: its counters advance
 * only when a test calls pfmk_test_pmu_tick().  It has CPU-bound events
 * only.  Event encoding (perf_event_attr):
 *
 *   attr.type    the dynamic type of the PMU (pfmk_test_pmu_type(), or
 *                /sys/bus/event_source/devices/pfmk_test/type)
 *   attr.config  bits 15..0  STEP: amount added per tick, 1..65535
 *                bits 63..16 reserved, must be 0
 *   attr.freq    not supported (a tick is not a unit of time)
 *
 * Sampling: an event with a sample_period overflows on the tick that uses
 * up its period; its overflow handler then runs in hard-irq context on the
 * event's CPU, once per tick however many periods the tick went through.
 * The next period is then hw.sample_period (the handler may change it)
 * less what the tick added past the end of the period, modulo the period:
 * like an hrtimer keeping to its grid.  A tick advances every started
 * event of the CPU together: when a handler runs, the other events have
 * counted the same ticks.  The handler is called directly,
 * since perf_event_overflow() is not exported to modules: perf's
 * throttling, event_limit (perf_event_refresh()) and sigtrap do not apply.
 *
 * The pfmk PMU description "pfmk_test" has PFMK_TEST_NUM_PMCS counter
 * pairs; see PFMK_TEST_PMC() for its PMC encoding.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_TEST_PMU_H
#define _PFMK_TEST_PMU_H

#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/types.h>

/* Name of both the perf PMU and the pfmk PMU description. */
#define PFMK_TEST_PMU_NAME	"pfmk_test"

/* Number of PMCs (and PMDs) of the "pfmk_test" PMU description. */
#define PFMK_TEST_NUM_PMCS	8

/* perf attr.config: the STEP field; every other bit is reserved. */
#define PFMK_TEST_CONFIG_STEP	GENMASK_ULL(15, 0)

/* PMC value: EN (bit 63), STEP (bits 15..0), every other bit reserved. */
#define PFMK_TEST_PMC_EN	BIT_ULL(63)
#define PFMK_TEST_PMC_STEP	GENMASK_ULL(15, 0)
#define PFMK_TEST_PMC_RSVD	(~(PFMK_TEST_PMC_EN | PFMK_TEST_PMC_STEP))

/**
 * PFMK_TEST_PMC() - an enabled PMC value of the "pfmk_test" description
 * @step: amount the PMD advances per pfmk_test_pmu_tick() tick, 1..65535.
 *
 * PMC encoding of the "pfmk_test" description:
 *
 *   bit  63     EN    1: PMD n counts; 0: PMD n is unused (keeps its value)
 *   bits 62..16       reserved, must be 0 (pfmk_write_pmcs(): -EINVAL)
 *   bits 15..0  STEP  1..65535; EN with STEP 0 is invalid (-EINVAL)
 *
 * @step is not masked: a value above 65535 sets reserved bits, which is
 * how tests build an invalid PMC value.  The default value of every PMC
 * is 0 (disabled).
 */
#define PFMK_TEST_PMC(step)	(PFMK_TEST_PMC_EN | (u64)(step))

void pfmk_test_pmu_tick(int cpu, u64 ticks);
unsigned int pfmk_test_pmu_nr_active(int cpu);
struct perf_event;
s64 pfmk_test_pmu_period_left(struct perf_event *event);
int pfmk_test_pmu_type(void);
int pfmk_test_hw_cycles_expected(int cpu);

/* See pfmk_test_pmu_hold_next_load(). */
struct pfmk_test_hold {
	struct completion	entered;
	struct completion	release;
};

struct pfmk_test_hold *pfmk_test_pmu_hold_next_load(struct pfmk_test_hold *hold);

#endif /* _PFMK_TEST_PMU_H */
