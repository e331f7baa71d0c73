// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk module: initialization and exit.
 *
 * pfmk cannot be unloaded while a context exists: every context pins the
 * module of its PMU description, and the generic description belongs to
 * pfmk itself; client modules pin pfmk through their symbol references.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "internal.h"

static int __init pfmk_init(void)
{
	int ret;

	ret = pfmk_pmu_generic_init();
	if (ret)
		return ret;
	ret = pfmk_smpl_dfl_init();
	if (ret) {
		pfmk_pmu_generic_exit();
		return ret;
	}
	pr_info("perfmon2 KAPI %u.%u on perf_events loaded\n",
		PFM_VERSION_MAJ, PFM_VERSION_MIN);
	return 0;
}

static void __exit pfmk_exit(void)
{
	pfmk_smpl_dfl_exit();
	pfmk_pmu_generic_exit();
	/* kfree_rcu() callbacks of closed contexts must not outlive us. */
	rcu_barrier();
}

module_init(pfmk_init);
module_exit(pfmk_exit);

MODULE_DESCRIPTION("pfmk: perfmon2 kernel-level monitoring API on perf_events");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
