/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk x86 PMU descriptions: perfmon2's register images on x86 core PMUs.
 *
 * Two native descriptions, with perfmon2's register numbering:
 *
 *  "intel_arch"  Intel architectural perfmon v1 to v5: PMC n (0..15) is an
 *                IA32_PERFEVTSELn image programming general counter PMD n;
 *                PMC16 is an IA32_FIXED_CTR_CTRL image programming the
 *                fixed counters PMD16 (instructions retired), PMD17 (core
 *                cycles), PMD18 (reference cycles) and PMD19 (topdown
 *                slots, v5), as many as the CPU has.
 *  "amd64"       AMD64: PMC0-3 (PMC0-5 with the core performance counter
 *                extensions) are PERF_CTLn images programming PMD0-5.
 *
 * An image is validated as the hardware would (reserved bits: -EINVAL with
 * PFM_REG_RETFL_EINVAL); EN (bit 22) clear leaves the PMD unused; INT is
 * ignored (pfmk owns the interrupts); USR/OS select exclude_user and
 * exclude_kernel; event select, umask, edge, inv, cmask (and AMD's event
 * bits 11:8 at 35:32) become the PERF_TYPE_RAW config of x86 perf.
 *
 * Which description is native comes from CPUID when the kernel has an x86
 * core PMU, or from an emulator that registered one (a guest without a
 * core PMU) and announces what it emulates.  The default description (an
 * empty ctx_pmu_name) routes PMC values with bit 63 clear (an x86 image
 * never has it; a generic value always does) to the native description.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_X86_H
#define _PFMK_X86_H

#include <linux/types.h>

#define PFMK_X86_INTEL_NAME	"intel_arch"
#define PFMK_X86_AMD_NAME	"amd64"

/* perfmon2's numbering of the Intel fixed counters. */
#define PFMK_X86_FIXED_PMC	16	/* IA32_FIXED_CTR_CTRL */
#define PFMK_X86_FIXED_PMD0	16	/* IA32_FIXED_CTR0 */
#define PFMK_X86_MAX_GP		16	/* general counters, at most */
#define PFMK_X86_MAX_FIXED	4	/* fixed counters, at most */
#define PFMK_X86_AMD_MAX_GP	6

#define PFMK_X86_INTEL		1
#define PFMK_X86_AMD		2

#define PFMK_X86_AMD_PERFCTR_CORE	0x1	/* amd_flags: six core counters */

/**
 * struct pfmk_x86_pmu_info - what an x86 core PMU is
 * @source: "cpuid", or the name of the emulator that announced it.
 * @vendor: PFMK_X86_INTEL or PFMK_X86_AMD.
 * @family: CPU family.
 * @model: CPU model.
 * @version: Intel architectural perfmon version (1 to 5); 0 on AMD.
 * @nr_gp: general counters.
 * @nr_fixed: fixed counters (Intel, version 2 on; 0 on AMD).
 * @gp_width: bits of a general counter.
 * @fixed_width: bits of a fixed counter.
 * @amd_flags: PFMK_X86_AMD_* (AMD only).
 */
struct pfmk_x86_pmu_info {
	const char	*source;
	u8		vendor;
	u8		family;
	u8		model;
	u8		version;
	u8		nr_gp;
	u8		nr_fixed;
	u8		gp_width;
	u8		fixed_width;
	u32		amd_flags;
};

struct perf_event_attr;

int pfmk_x86_pmu_announce(const struct pfmk_x86_pmu_info *info);
void pfmk_x86_pmu_retract(const struct pfmk_x86_pmu_info *info);
int pfmk_x86_image_check(unsigned int reg, u64 val);
int pfmk_x86_image_to_attr(unsigned int pmd, u64 val,
			   struct perf_event_attr *attr);

#endif /* _PFMK_X86_H */
