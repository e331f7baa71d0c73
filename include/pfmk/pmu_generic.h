/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PMC encoding of pfmk's "generic" PMU description.
 *
 * The generic description is built into pfmk and is the default of every
 * context.  It has PFMK_GENERIC_NUM_PMCS counter pairs; PMC n programs
 * PMD n.  A PMC value selects one perf event:
 *
 *   bit  63     EN    1: PMD n counts the event; 0: PMD n is unused
 *   bits 62..56       reserved, must be 0
 *   bit  55     XIDLE exclude the idle task (attr.exclude_idle)
 *   bit  54     XHV   exclude the hypervisor (attr.exclude_hv)
 *   bit  53     XKERN exclude the kernel (attr.exclude_kernel)
 *   bit  52     XUSER exclude user space (attr.exclude_user)
 *   bits 51..48 TYPE  perf type: 0 PERF_TYPE_HARDWARE, 1 PERF_TYPE_SOFTWARE,
 *                     2 PERF_TYPE_TRACEPOINT, 3 PERF_TYPE_HW_CACHE,
 *                     4 PERF_TYPE_RAW; others invalid
 *   bits 47..40       reserved, must be 0
 *   bits 39..0  CONFIG attr.config:
 *                     HARDWARE: a PERF_COUNT_HW_* id
 *                     SOFTWARE: a PERF_COUNT_SW_* id (not BPF_OUTPUT)
 *                     TRACEPOINT: the tracepoint's id, checked at load
 *                     HW_CACHE: id | op << 8 | result << 16
 *                     RAW:      the PMU's raw event code, checked at load
 *
 * pfmk_write_pmcs() rejects reserved bits, unknown types and out-of-range
 * ids with -EINVAL.  Events the running machine lacks (hardware events in
 * an emulated guest, raw codes the PMU refuses) fail at
 * pfmk_load_context() with -EOPNOTSUPP.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_PMU_GENERIC_H
#define _PFMK_PMU_GENERIC_H

#include <linux/bits.h>
#include <linux/perf_event.h>

#define PFMK_GENERIC_NAME	"generic"
#define PFMK_GENERIC_NUM_PMCS	64

#define PFMK_GEN_EN		BIT_ULL(63)
#define PFMK_GEN_XIDLE		BIT_ULL(55)
#define PFMK_GEN_XHV		BIT_ULL(54)
#define PFMK_GEN_XKERN		BIT_ULL(53)
#define PFMK_GEN_XUSER		BIT_ULL(52)
#define PFMK_GEN_TYPE_SHIFT	48
#define PFMK_GEN_TYPE_MASK	GENMASK_ULL(51, 48)
#define PFMK_GEN_CONFIG_MASK	GENMASK_ULL(39, 0)
#define PFMK_GEN_RSVD_MASK	(GENMASK_ULL(62, 56) | GENMASK_ULL(47, 40))

/**
 * PFMK_GEN_PMC() - build an enabled generic PMC value
 * @type: PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE, PERF_TYPE_TRACEPOINT,
 *	PERF_TYPE_HW_CACHE or PERF_TYPE_RAW.
 * @config: the event's attr.config.
 */
#define PFMK_GEN_PMC(type, config) \
	(PFMK_GEN_EN | ((u64)(type) << PFMK_GEN_TYPE_SHIFT) | \
	 ((u64)(config) & PFMK_GEN_CONFIG_MASK))

/**
 * PFMK_GEN_SW() - generic PMC value counting a software event
 * @id: a PERF_COUNT_SW_* id.
 */
#define PFMK_GEN_SW(id)		PFMK_GEN_PMC(PERF_TYPE_SOFTWARE, id)

/**
 * PFMK_GEN_HW() - generic PMC value counting a generic hardware event
 * @id: a PERF_COUNT_HW_* id.
 */
#define PFMK_GEN_HW(id)		PFMK_GEN_PMC(PERF_TYPE_HARDWARE, id)

#endif /* _PFMK_PMU_GENERIC_H */
