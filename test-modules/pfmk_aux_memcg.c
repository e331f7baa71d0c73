// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_aux_memcg: the AUX pages of a kernel-owned buffer are charged to
 * the memory cgroup of the task that attaches them (kernel patch 0001,
 * __GFP_ACCOUNT).  Used by the guest step memcg-aux of the debug kernels
 * (scripts/mkinitramfs.sh), which runs insmod inside a memory cgroup:
 *
 *   insmod pfmk_aux_memcg.ko kib=8192 expect=-12
 *	in a cgroup whose memory.max is below 8 MiB: loading a context with
 *	an 8 MiB snapshot AUX buffer must fail with -ENOMEM; the module then
 *	loads (nothing held) and is removed;
 *   insmod pfmk_aux_memcg.ko kib=8192 expect=0
 *	without a limit: the load must succeed, and the module keeps the
 *	context loaded until rmmod so that the step can read memory.current
 *	of the cgroup with the buffer in it.
 *
 * Any other outcome fails insmod with -EINVAL and a line saying what was
 * seen.  Needs the synthetic AUX PMU (pfmk_test_aux_pmu) loaded, with the
 * harness's aux_patch=1: the step runs on patched kernels only, and fails
 * if the harness says otherwise or pfmk_aux_supported() contradicts it.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/string.h>
#include <pfmk/aux.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>

#include "pfmk_test_aux_pmu.h"
#include "pfmk_test_file.h"

static unsigned int kib = 8192;
module_param(kib, uint, 0444);
MODULE_PARM_DESC(kib, "AUX buffer size in KiB (a power of two)");

static int expect;
module_param(expect, int, 0444);
MODULE_PARM_DESC(expect, "expected result of pfmk_load_context(): 0 or a -errno");

static struct completion memcg_done;
static void *memcg_desc;

static int __init pfmk_aux_memcg_init(void)
{
	struct pfarg_ctx req = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_pmc pmc = { .reg_num = 0,
				 .reg_value = PFMK_TEST_AUX_PMC(1, 0) };
	struct pfarg_load load = { .load_pid = cpumask_first(cpu_online_mask) };
	int ret;

	ret = pfmk_test_aux_patch();
	if (ret != 1) {
		pr_err("FAIL: the harness does not say the kernel has pfmk's AUX patch (pfmk_test_aux_pmu aux_patch): %d\n",
		       ret);
		return -EINVAL;
	}
	if (!pfmk_aux_supported()) {
		pr_err("FAIL: pfmk reports no AUX support on a patched kernel\n");
		return -EINVAL;
	}
	init_completion(&memcg_done);
	strscpy(req.ctx_pmu_name, PFMK_TEST_AUX_NAME, sizeof(req.ctx_pmu_name));
	ret = pfmk_create_context(&req, NULL, 0, &memcg_done, &memcg_desc,
				  NULL);
	if (ret) {
		pr_err("FAIL: pfmk_create_context: %d\n", ret);
		return -EINVAL;
	}
	ret = pfmk_write_pmcs(memcg_desc, &pmc, 1);
	if (!ret)
		ret = pfmk_aux_setup(memcg_desc, 0, (size_t)kib << 10,
				     PFMK_AUX_SNAPSHOT);
	if (ret) {
		pr_err("FAIL: set-up: %d\n", ret);
		goto fail;
	}
	ret = pfmk_load_context(memcg_desc, &load);
	pr_info("load with a %u KiB AUX buffer: %d (expected %d)\n", kib, ret,
		expect);
	if (ret != expect) {
		pr_err("FAIL: load returned %d, expected %d\n", ret, expect);
		goto fail;
	}
	if (ret) {
		pfmk_close(memcg_desc);
		memcg_desc = NULL;
	}
	pr_info("ok\n");
	return 0;
fail:
	pfmk_close(memcg_desc);
	return -EINVAL;
}

static void __exit pfmk_aux_memcg_exit(void)
{
	if (memcg_desc)
		pfmk_close(memcg_desc);
}

module_init(pfmk_aux_memcg_init);
module_exit(pfmk_aux_memcg_exit);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk test: kernel-owned AUX pages charged to the memory cgroup");
MODULE_LICENSE("GPL");
