// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk on an architecture without x86 core PMUs (arm64): perfmon2's x86
 * register images have nothing to program.  The default description
 * (pmu/pmu_generic.c) routes a PMC value without PFMK_GEN_EN to these
 * calls, which refuse it with -EINVAL, as pmu/pmu_x86.c does on an x86
 * machine without a core PMU: a 2006 client's x86 images are refused at
 * pfmk_write_pmcs(), never silently counted as something else.  The x86
 * descriptions and the emulator's announcement (<pfmk/x86.h>) exist in
 * x86 builds only (Kbuild).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/types.h>
#include <pfmk/x86.h>

#include "internal.h"

/**
 * pfmk_x86_image_check() - an x86 register image, where there is no x86
 * @reg: PMC number.
 * @val: the image.
 *
 * Context: any context.
 * Return: -EINVAL: no x86 core PMU on this architecture.
 */
int pfmk_x86_image_check(unsigned int reg, u64 val)
{
	return -EINVAL;
}

/**
 * pfmk_x86_image_to_attr() - the perf event of an x86 image, where there
 * is no x86
 * @pmd: PMD number.
 * @val: the image.
 * @attr: output, left untouched.
 *
 * Not reached: pfmk_x86_image_check() refused the image at write time.
 *
 * Context: any context.
 * Return: -EINVAL.
 */
int pfmk_x86_image_to_attr(unsigned int pmd, u64 val,
			   struct perf_event_attr *attr)
{
	return -EINVAL;
}

/**
 * pfmk_x86_fixed_pmd() - does an image of PMC16 program PMD @pmd?
 * @pmd: a PMD number.
 *
 * Context: any context.
 * Return: false: there are no x86 fixed counters here.
 */
bool pfmk_x86_fixed_pmd(unsigned int pmd)
{
	return false;
}

/**
 * pfmk_pmu_x86_init() - say that register images are refused
 *
 * Context: module init.
 * Return: 0.
 */
int pfmk_pmu_x86_init(void)
{
	pr_info("no x86 core PMU on this architecture: x86 register images are refused\n");
	return 0;
}

/**
 * pfmk_pmu_x86_exit() - nothing to undo
 *
 * Context: module exit.
 */
void pfmk_pmu_x86_exit(void)
{
}
