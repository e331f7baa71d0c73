// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk's generic PMU description: any perf software event, the generic
 * hardware and cache events, raw events and tracepoints.  The PMC encoding
 * is in <pfmk/pmu_generic.h>.
 *
 * It is also the default description (an empty ctx_pmu_name), which a
 * 2006 client gets with a zeroed pfarg_ctx: a generic value always has bit
 * 63 (PFMK_GEN_EN) set and an x86 register image never has, so a non-zero
 * value without bit 63 is an image, routed to the native x86 description
 * (pmu/pmu_x86.c) with perfmon2's numbering, PMC16's fixed counters
 * included.  Without a native description such a value is refused with
 * -EINVAL: it would count nothing.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/perf_event.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/x86.h>

#include "internal.h"

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

/* A register image of the native PMU, not a generic value. */
static bool pfmk_generic_is_image(u64 val)
{
	return val && !(val & PFMK_GEN_EN);
}

static int pfmk_generic_check(const struct pfmk_pmu_desc *desc,
			      unsigned int reg, u64 val)
{
	u64 config = val & PFMK_GEN_CONFIG_MASK;

	if (pfmk_generic_is_image(val))
		return pfmk_x86_image_check(reg, val);
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
	case PERF_TYPE_TRACEPOINT:	/* a tracepoint id, checked at load */
		return 0;
	default:
		return -EINVAL;
	}
}

static int pfmk_generic_to_attr(const struct pfmk_pmu_desc *desc,
				unsigned int reg, u64 val,
				struct perf_event_attr *attr)
{
	if (pfmk_generic_is_image(val))
		return pfmk_x86_image_to_attr(reg, val, attr);
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

/*
 * PMD17 on (Intel's further fixed counters) follow an image in PMC16
 * while their own PMC is unused.
 */
static u64 pfmk_generic_pmd_pmc(const struct pfmk_pmu_desc *desc,
				unsigned int pmd, const u64 *pmcs)
{
	if (!pmcs[pmd] && pfmk_x86_fixed_pmd(pmd) &&
	    pfmk_generic_is_image(pmcs[PFMK_X86_FIXED_PMC]))
		return pmcs[PFMK_X86_FIXED_PMC];
	return pmcs[pmd];
}

static bool pfmk_generic_pmc_shared(const struct pfmk_pmu_desc *desc,
				    unsigned int reg, u64 val)
{
	return reg == PFMK_X86_FIXED_PMC && pfmk_generic_is_image(val);
}

static struct pfmk_pmu_desc pfmk_generic_desc = {
	.name		= PFMK_GENERIC_NAME,
	.owner		= THIS_MODULE,
	.num_pmcs	= PFMK_GENERIC_NUM_PMCS,
	.pmc_desc	= pfmk_generic_regs,
	.pmc_check	= pfmk_generic_check,
	.pmc_to_attr	= pfmk_generic_to_attr,
	.pmd_pmc	= pfmk_generic_pmd_pmc,
	.pmc_shared	= pfmk_generic_pmc_shared,
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
