/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PMC layout of pfmk's dynamic PMU descriptions: one built at run time for
 * any registered perf PMU, from the PMU's own sysfs "format" attributes.
 *
 * A context selects one with ctx_pmu_name = the perf PMU's sysfs name
 * ("msr", "intel_pt", "uncore_imc_0", "tracepoint", ...) when no pfmk
 * description of that name is registered, or with PFMK_DYN_PREFIX and the
 * name ("perf:pfmk_test") always.  A dynamic description has
 * PFMK_DYN_NUM_PMDS counters; PMD n (n < PFMK_DYN_NUM_PMDS) is programmed
 * by PFMK_DYN_WORDS PMCs, as perfmon2 programmed PEBS or the offcore
 * response with extra PMCs:
 *
 *   PMC n        control word (PFMK_DYN_CTRL)
 *   PMC 16 + n   attr.config  (PFMK_DYN_CONFIG)
 *   PMC 32 + n   attr.config1 (PFMK_DYN_CONFIG1)
 *   PMC 48 + n   attr.config2 (PFMK_DYN_CONFIG2)
 *   PMC 64 + n   attr.config3 (PFMK_DYN_CONFIG3; reserved, must be 0, on
 *                kernels whose perf_event_attr has no config3)
 *
 * Control word:
 *
 *   bit  63     EN    1: PMD n counts; 0: PMD n is unused
 *   bit  55     XIDLE attr.exclude_idle
 *   bit  54     XHV   attr.exclude_hv
 *   bit  53     XKERN attr.exclude_kernel
 *   bit  52     XUSER attr.exclude_user
 *   others            reserved, must be 0
 *
 * A config word may set only the bits of the PMU's format fields in that
 * word (a PMU without a "format" group: any bit); pfmk_write_pmcs()
 * refuses other bits with -EINVAL and PFM_REG_RETFL_EINVAL.  The config
 * words are written while the context is unloaded (-EBUSY otherwise); a
 * control word also while it is loaded and stopped.  PMDs 16 and up
 * exist (the core has as many PMDs as PMCs) but never count.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_PMU_DYN_H
#define _PFMK_PMU_DYN_H

#include <linux/bits.h>
#include <linux/types.h>

#define PFMK_DYN_PREFIX		"perf:"
#define PFMK_DYN_NUM_PMDS	16
#define PFMK_DYN_WORDS		5
#define PFMK_DYN_NUM_PMCS	(PFMK_DYN_NUM_PMDS * PFMK_DYN_WORDS)

#define PFMK_DYN_CTRL		0
#define PFMK_DYN_CONFIG		1
#define PFMK_DYN_CONFIG1	2
#define PFMK_DYN_CONFIG2	3
#define PFMK_DYN_CONFIG3	4

#define PFMK_DYN_EN		BIT_ULL(63)
#define PFMK_DYN_XIDLE		BIT_ULL(55)
#define PFMK_DYN_XHV		BIT_ULL(54)
#define PFMK_DYN_XKERN		BIT_ULL(53)
#define PFMK_DYN_XUSER		BIT_ULL(52)
#define PFMK_DYN_CTRL_VALID	(PFMK_DYN_EN | PFMK_DYN_XIDLE | PFMK_DYN_XHV | \
				 PFMK_DYN_XKERN | PFMK_DYN_XUSER)

/**
 * PFMK_DYN_PMC() - the PMC of a dynamic description holding a PMD's word
 * @pmd: PMD number, below PFMK_DYN_NUM_PMDS.
 * @word: PFMK_DYN_CTRL, PFMK_DYN_CONFIG or PFMK_DYN_CONFIG1..3.
 */
#define PFMK_DYN_PMC(pmd, word)	((word) * PFMK_DYN_NUM_PMDS + (pmd))

/* For tests: the format parser, and the cache's size. */
int pfmk_dyn_parse_format(const char *val, unsigned int *word, u64 *mask);
unsigned int pfmk_dyn_count_cached(void);

#endif /* _PFMK_PMU_DYN_H */
