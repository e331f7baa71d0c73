/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_test_cpu.h - CPU hotplug helpers of the test modules without KUnit
 *
 * pfmk_fuzz and pfmk_hotplug_stress take a CPU offline and back; the KUnit
 * suites have their own helpers in pfmk_kunit.h.  Static inline, as
 * pfmk_ktap.h: no object to link into each module.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_TEST_CPU_H
#define _PFMK_TEST_CPU_H

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>

/**
 * pfmk_test_cpu_unavailable() - can a CPU be taken offline for a test?
 * @cpu: the CPU.
 *
 * Return: NULL if it can, else why not (a skip reason).
 */
static inline const char *pfmk_test_cpu_unavailable(unsigned int cpu)
{
	if (nr_cpu_ids <= cpu || !cpu_possible(cpu))
		return "the CPU does not exist";
	if (!cpu_online(cpu))
		return "the CPU is offline";
	if (!cpu_is_hotpluggable(cpu))
		return "the CPU is not hot-pluggable";
	return NULL;
}

/**
 * pfmk_test_cpu_up() - bring a CPU back, retrying for up to two seconds
 * @cpu: the CPU.
 *
 * add_cpu() fails while another hotplug operation is in progress.
 *
 * Context: process context; sleeps.
 * Return: true if @cpu is online.
 */
static inline bool pfmk_test_cpu_up(unsigned int cpu)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (!add_cpu(cpu) || cpu_online(cpu))
			return true;
		msleep(20);
	}
	return false;
}

#endif /* _PFMK_TEST_CPU_H */
