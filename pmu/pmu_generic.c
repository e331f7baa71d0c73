// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk's generic PMU description: any perf software event, the generic
 * hardware and cache events, and raw events.  The PMC encoding is in
 * <pfmk/pmu_generic.h>.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/perf_event.h>
#include <pfmk/pmu_generic.h>

#include "../core/internal.h"

static struct pfmk_reg_desc pfmk_generic_regs[PFMK_GENERIC_NUM_PMCS];

static unsigned int pfmk_generic_type(u64 val)
{
	return (val & PFMK_GEN_TYPE_MASK) >> PFMK_GEN_TYPE_SHIFT;
}

static int pfmk_generic_check_cache(u64 config)
{
	if (config >> 24)
		return -EINVAL;
	if ((config & 0xff) >= PERF_COUNT_HW_CACHE_MAX ||
	    ((config >> 8) & 0xff) >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    ((config >> 16) & 0xff) >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	return 0;
}

static int pfmk_generic_check(const struct pfmk_pmu_desc *desc,
			      unsigned int reg, u64 val)
{
	u64 config = val & PFMK_GEN_CONFIG_MASK;

	if (!(val & PFMK_GEN_EN))
		return 0;

	switch (pfmk_generic_type(val)) {
	case PERF_TYPE_HARDWARE:
		return config < PERF_COUNT_HW_MAX ? 0 : -EINVAL;
	case PERF_TYPE_SOFTWARE:
		/* BPF_OUTPUT is an output channel, not a countable event. */
		if (config >= PERF_COUNT_SW_MAX ||
		    config == PERF_COUNT_SW_BPF_OUTPUT)
			return -EINVAL;
		return 0;
	case PERF_TYPE_HW_CACHE:
		return pfmk_generic_check_cache(config);
	case PERF_TYPE_RAW:
		return 0;
	default:
		return -EINVAL;
	}
}

static int pfmk_generic_to_attr(const struct pfmk_pmu_desc *desc,
				unsigned int reg, u64 val,
				struct perf_event_attr *attr)
{
	if (!(val & PFMK_GEN_EN))
		return PFMK_PMC_OFF;

	attr->type = pfmk_generic_type(val);
	attr->config = val & PFMK_GEN_CONFIG_MASK;
	attr->exclude_user = !!(val & PFMK_GEN_XUSER);
	attr->exclude_kernel = !!(val & PFMK_GEN_XKERN);
	attr->exclude_hv = !!(val & PFMK_GEN_XHV);
	attr->exclude_idle = !!(val & PFMK_GEN_XIDLE);
	return 0;
}

static struct pfmk_pmu_desc pfmk_generic_desc = {
	.name		= PFMK_GENERIC_NAME,
	.owner		= THIS_MODULE,
	.num_pmcs	= PFMK_GENERIC_NUM_PMCS,
	.pmc_desc	= pfmk_generic_regs,
	.pmc_check	= pfmk_generic_check,
	.pmc_to_attr	= pfmk_generic_to_attr,
};

/**
 * pfmk_pmu_generic_init() - register the generic description
 *
 * Context: module init.
 * Return: 0 or a negative errno from pfmk_pmu_register().
 */
int pfmk_pmu_generic_init(void)
{
	unsigned int i;

	for (i = 0; i < PFMK_GENERIC_NUM_PMCS; i++) {
		pfmk_generic_regs[i].name = "PMC";
		pfmk_generic_regs[i].dfl_val = 0;
		pfmk_generic_regs[i].rsvd_msk = PFMK_GEN_RSVD_MASK;
	}
	return pfmk_pmu_register(&pfmk_generic_desc);
}

/**
 * pfmk_pmu_generic_exit() - unregister the generic description
 *
 * Context: module exit.
 */
void pfmk_pmu_generic_exit(void)
{
	pfmk_pmu_unregister(&pfmk_generic_desc);
}
