/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_test_pmu_cb.h - struct pmu callbacks the test PMUs share
 *
 * The deterministic pfmk_test PMU, the synthetic AUX PMU and the emulated
 * x86 core PMU keep their event's state in event->pmu_private, allocated
 * at event_init; the first two keep the count in event->count and add
 * and remove an event the same way, around their own start and stop.
 * Static inline, as pfmk_ktap.h: each PMU module takes the addresses of
 * its own copies.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_TEST_PMU_CB_H
#define _PFMK_TEST_PMU_CB_H

#include <linux/perf_event.h>
#include <linux/slab.h>

/**
 * pfmk_test_pmu_destroy() - event->destroy: free the event's pmu_private
 * @event: the event.
 *
 * Context: as perf's event->destroy (process context).
 */
static inline void pfmk_test_pmu_destroy(struct perf_event *event)
{
	kfree(event->pmu_private);
	event->pmu_private = NULL;
}

/**
 * pfmk_test_pmu_add() - pmu->add of a PMU that never runs out of counters
 * @event: the event.
 * @flags: PERF_EF_START to start it (through its PMU's start, reloading
 *	the period).
 *
 * Context: as perf's pmu->add (interrupts off, the event's CPU).
 * Return: 0.
 */
static inline int pfmk_test_pmu_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		event->pmu->start(event, PERF_EF_RELOAD);
	return 0;
}

/**
 * pfmk_test_pmu_del() - pmu->del: stop the event (its PMU's stop)
 * @event: the event.
 * @flags: unused: the count is always brought up to date.
 *
 * Context: as perf's pmu->del (interrupts off, the event's CPU).
 */
static inline void pfmk_test_pmu_del(struct perf_event *event, int flags)
{
	event->pmu->stop(event, PERF_EF_UPDATE);
}

/**
 * pfmk_test_pmu_read() - pmu->read of a PMU that counts in event->count
 * @event: the event.
 *
 * Nothing to fold: the PMU adds to event->count directly.
 *
 * Context: as perf's pmu->read.
 */
static inline void pfmk_test_pmu_read(struct perf_event *event)
{
}

#endif /* _PFMK_TEST_PMU_CB_H */
