// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk install test: a minimal client of the installed client kit.
 *
 * Built out of tree by scripts/install-test.sh against the kit of "make
 * headers_install" only (<pfmk/pfmk.h>, client.kbuild, Module.symvers),
 * to check that the kit is complete: the module must link to pfmk's
 * exports and import the PFMK symbol namespace.  At load it opens one
 * system-wide context counting cpu-clock on the current CPU for 20 ms.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>

PFMK_IMPORT_NS();

static int __init pfmk_install_client_init(void)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_pmc pmc = { .reg_value = PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK) };
	struct pfarg_pmd pmd = { .reg_num = 0 };
	struct pfarg_load load = { .load_pid = raw_smp_processor_id() };
	struct completion done;
	void *desc;
	int ret;

	init_completion(&done);
	ret = pfmk_create_context(&ctx, NULL, 0, &done, &desc, NULL);
	if (ret)
		return ret;
	ret = pfmk_write_pmcs(desc, &pmc, 1);
	if (!ret)
		ret = pfmk_write_pmds(desc, &pmd, 1);
	if (!ret)
		ret = pfmk_load_context(desc, &load);
	if (!ret)
		ret = pfmk_start(desc, NULL);
	if (!ret) {
		msleep(20);
		ret = pfmk_read_pmds(desc, &pmd, 1);
	}
	if (!ret)
		pr_info("cpu-clock %llu ns on CPU %u\n", pmd.reg_value, load.load_pid);
	pfmk_close(desc);
	return ret;
}

static void __exit pfmk_install_client_exit(void)
{
}

module_init(pfmk_install_client_init);
module_exit(pfmk_install_client_exit);

MODULE_DESCRIPTION("pfmk install test: a client built against the installed kit");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
