// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk module: initialization and exit.
 *
 * pfmk cannot be unloaded while a context exists: every open context holds
 * a reference on pfmk's module (and on its PMU description's module);
 * client modules also pin pfmk through their symbol references.  Contexts
 * left open by a client module that unloads are closed by core/reclaim.c.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "internal.h"
#include "smpl_dfl.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

static int __init pfmk_init(void)
{
	int ret;

	pfmk_desc_init();
	ret = pfmk_ctx_cache_init();
	if (ret)
		return ret;
	ret = pfmk_pmu_generic_init();
	if (ret)
		goto err_cache;
	ret = pfmk_pmu_x86_init();
	if (ret)
		goto err_generic;
	ret = pfmk_smpl_dfl_init();
	if (ret)
		goto err_x86;
	ret = pfmk_hotplug_init();
	if (ret)
		goto err_dfl;
	ret = pfmk_sets_wq_init();
	if (ret)
		goto err_hotplug;
	ret = pfmk_reclaim_init();
	if (ret)
		goto err_sets;
	ret = pfmk_crash_init();
	if (ret)
		goto err_reclaim;
	pfmk_debugfs_init();
	pr_info("perfmon2 KAPI %u.%u on perf_events loaded\n",
		PFM_VERSION_MAJ, PFM_VERSION_MIN);
	return 0;

err_reclaim:
	pfmk_reclaim_exit();
err_sets:
	pfmk_sets_wq_exit();
err_hotplug:
	pfmk_hotplug_exit();
err_dfl:
	pfmk_smpl_dfl_exit();
err_x86:
	pfmk_pmu_x86_exit();
err_generic:
	pfmk_pmu_generic_exit();
err_cache:
	pfmk_ctx_cache_exit();
	return ret;
}

static void __exit pfmk_exit(void)
{
	pfmk_debugfs_exit();
	pfmk_crash_exit();
	pfmk_reclaim_exit();
	/* Flushes the hotplug works still queued for closed contexts. */
	pfmk_hotplug_exit();
	pfmk_sets_wq_exit();
	pfmk_smpl_dfl_exit();
	pfmk_pmu_x86_exit();
	pfmk_pmu_generic_exit();
	pfmk_perf_pmu_exit();
	/* pfmk_ctx_free() callbacks of closed contexts must not outlive us. */
	rcu_barrier();
	pfmk_ctx_cache_exit();
	pfmk_desc_exit();
}

module_init(pfmk_init);
module_exit(pfmk_exit);

MODULE_DESCRIPTION("pfmk: perfmon2 kernel-level monitoring API on perf_events");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
