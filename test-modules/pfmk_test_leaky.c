// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_test_leaky: a client module that unloads without closing its
 * contexts, to test pfmk's reclaim (core/reclaim.c).
 *
 * On load it creates `contexts` contexts on CPU 0: counting ones, and,
 * every other one, a started cpu-clock sampling context with the default
 * format at 1 kHz and overflow notifications, so that overflow handlers,
 * irq_work and messages are live when the module goes.  It never closes
 * them.  On unload pfmk must close them all (debugfs pfmk/stats counts
 * them in contexts_reclaimed) and warn once; the guest's reclaim step
 * (scripts/mkinitramfs.sh) checks that nothing stays open.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_test_ops.h"

PFMK_IMPORT_NS();

static unsigned int contexts = 4;
module_param(contexts, uint, 0444);
MODULE_PARM_DESC(contexts, "contexts to create and leave open (1-64)");

/* The owner's completion: in this module's memory, gone after unload. */
static struct completion leaky_done;

static int leaky_create(unsigned int i)
{
	struct pfarg_pmc pmc = { };
	struct pfarg_pmd pmd = { };
	struct pfarg_load load = { };
	bool sampling = i & 1;
	void *desc;
	int ret;

	ret = pfmk_test_create(NULL, sampling ? 64 << 10 : 0, &leaky_done,
			       &desc, NULL);
	if (ret)
		return ret;

	pmc.reg_value = PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK);
	ret = pfmk_write_pmcs(desc, &pmc, 1);
	if (ret)
		return ret;
	if (sampling) {
		/* A 1 ms period of cpu-clock, notifying on every overflow. */
		pmd.reg_value = -1000000ULL;
		pmd.reg_short_reset = -1000000ULL;
		pmd.reg_long_reset = -1000000ULL;
		pmd.reg_flags = PFM_REGFL_OVFL_NOTIFY;
		ret = pfmk_write_pmds(desc, &pmd, 1);
		if (ret)
			return ret;
	}
	load.load_pid = 0;
	ret = pfmk_load_context(desc, &load);
	if (ret)
		return ret;
	return pfmk_start(desc, NULL);
}

static int __init leaky_init(void)
{
	unsigned int i;
	int ret;

	if (!contexts || contexts > 64)
		return -EINVAL;
	init_completion(&leaky_done);
	for (i = 0; i < contexts; i++) {
		ret = leaky_create(i);
		if (ret) {
			/* Leave what exists open too: reclaim covers it. */
			pr_err("context %u: %d\n", i, ret);
			return 0;
		}
	}
	pr_info("%u contexts open, leaving them open\n", contexts);
	return 0;
}

static void __exit leaky_exit(void)
{
	pr_info("exiting without closing\n");
}

module_init(leaky_init);
module_exit(leaky_exit);

MODULE_DESCRIPTION("pfmk test: a client that leaks its contexts");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
