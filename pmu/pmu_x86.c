// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk x86 PMU descriptions (<pfmk/x86.h>): Intel architectural perfmon
 * and AMD64 register images, validated as the hardware would and turned
 * into x86 perf's PERF_TYPE_RAW events, and the routing of images written
 * through the default (generic) description.
 *
 * The native core PMU is described once (pfmk_x86_info): from CPUID at
 * load when the kernel has an x86 core PMU, or by an emulator's
 * announcement.  The two descriptions are registered while their vendor's
 * PMU is the native one; their register counts are fixed (16 + 4 Intel,
 * 6 AMD), and which registers exist is checked against the native
 * information at each write.  Announce and retract run under
 * pfmk_x86_lock; the callbacks read the published information with
 * READ_ONCE() (a retracted PMU leaves its last information in place, so a
 * context that still uses the description reads valid memory).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <pfmk/ns.h>
#include <pfmk/pmu.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/x86.h>
#include <asm/cpufeature.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "compat_internal.h"
#include "internal.h"

/* IA32_PERFEVTSELx / AMD PERF_CTLx fields. */
#define X86_SEL_EVENT		GENMASK_ULL(7, 0)
#define X86_SEL_UMASK		GENMASK_ULL(15, 8)
#define X86_SEL_USR		BIT_ULL(16)
#define X86_SEL_OS		BIT_ULL(17)
#define X86_SEL_EDGE		BIT_ULL(18)
#define X86_SEL_PC		BIT_ULL(19)
#define X86_SEL_INT		BIT_ULL(20)
#define X86_SEL_ANY		BIT_ULL(21)
#define X86_SEL_EN		BIT_ULL(22)
#define X86_SEL_INV		BIT_ULL(23)
#define X86_SEL_CMASK		GENMASK_ULL(31, 24)
#define AMD_SEL_EVENT_HI	GENMASK_ULL(35, 32)
#define AMD_SEL_HG		GENMASK_ULL(41, 40)

/* What becomes the PERF_TYPE_RAW config (x86 perf's raw event masks). */
#define X86_RAW_MASK		(X86_SEL_EVENT | X86_SEL_UMASK | X86_SEL_EDGE | \
				 X86_SEL_INV | X86_SEL_CMASK)
#define AMD_RAW_MASK		(X86_RAW_MASK | AMD_SEL_EVENT_HI)

/*
 * Bits an image may have.  Pin control, AnyThread (other threads of the
 * core: not this context's CPU) and AMD's host/guest-only bits have no
 * perf equivalent for a kernel counter: refused rather than ignored.
 */
#define INTEL_SEL_VALID		(X86_RAW_MASK | X86_SEL_USR | X86_SEL_OS | \
				 X86_SEL_INT | X86_SEL_EN)
#define AMD_SEL_VALID		(AMD_RAW_MASK | X86_SEL_USR | X86_SEL_OS | \
				 X86_SEL_INT | X86_SEL_EN)

/* IA32_FIXED_CTR_CTRL: 4 bits per fixed counter. */
#define FIXED_OS		0x1
#define FIXED_USR		0x2
#define FIXED_ANY		0x4
#define FIXED_PMI		0x8

/* x86 perf's encodings of the fixed counters' events. */
static const u64 pfmk_x86_fixed_config[PFMK_X86_MAX_FIXED] = {
	0x00c0,	/* INST_RETIRED.ANY */
	0x003c,	/* CPU_CLK_UNHALTED.THREAD */
	0x0300,	/* CPU_CLK_UNHALTED.REF_TSC (pseudo-encoding) */
	0x0400,	/* TOPDOWN.SLOTS (pseudo-encoding) */
};

static DEFINE_MUTEX(pfmk_x86_lock);
/* The native PMU, or NULL; points to pfmk_x86_slot once published. */
static const struct pfmk_x86_pmu_info *pfmk_x86_info;
static struct pfmk_x86_pmu_info pfmk_x86_slot;
static char pfmk_x86_source[32];
static struct pfmk_pmu_desc *pfmk_x86_registered;

static const struct pfmk_x86_pmu_info *pfmk_x86_native(void)
{
	/* Pairs with the release in pfmk_x86_publish(). */
	return smp_load_acquire(&pfmk_x86_info);
}

/**
 * pfmk_x86_image_check() - validate an x86 register image
 * @reg: PMC number (perfmon2's numbering, see <pfmk/x86.h>).
 * @val: the image.
 *
 * Context: any context.
 * Return: 0 if the native PMU has PMC @reg and @val is a valid image for
 * it; -EINVAL otherwise, and also when there is no native x86 PMU.
 */
int pfmk_x86_image_check(unsigned int reg, u64 val)
{
	const struct pfmk_x86_pmu_info *info = pfmk_x86_native();
	u64 fixed_bits;

	if (!info)
		return -EINVAL;
	if (info->vendor == PFMK_X86_AMD)
		return (reg < info->nr_gp && !(val & ~AMD_SEL_VALID)) ?
		       0 : -EINVAL;
	if (reg < PFMK_X86_MAX_GP)
		return (reg < info->nr_gp && !(val & ~INTEL_SEL_VALID)) ?
		       0 : -EINVAL;
	if (reg != PFMK_X86_FIXED_PMC || !info->nr_fixed)
		return -EINVAL;
	fixed_bits = GENMASK_ULL(4 * info->nr_fixed - 1, 0);
	/* No AnyThread in any field, nothing beyond the counters. */
	if (val & ~fixed_bits)
		return -EINVAL;
	if (val & 0x4444444444444444ULL)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_GPL(pfmk_x86_image_check);

/**
 * pfmk_x86_image_to_attr() - the perf event of an x86 image's PMD
 * @pmd: PMD number: a general counter, or PFMK_X86_FIXED_PMD0 + i.
 * @val: the image of the PMC that programs @pmd (PMC16 for a fixed one),
 *	valid for pfmk_x86_image_check().
 * @attr: output, zeroed by the caller.
 *
 * Context: any context.
 * Return: 0, PFMK_PMC_OFF if the image leaves @pmd unused (a counter the
 * CPU lacks included), -EINVAL if there is no native x86 PMU, or if the
 * image enables a counter the CPU lacks.
 */
int pfmk_x86_image_to_attr(unsigned int pmd, u64 val,
			   struct perf_event_attr *attr)
{
	const struct pfmk_x86_pmu_info *info = pfmk_x86_native();
	unsigned int i;
	u64 field;

	if (!info)
		return -EINVAL;
	/*
	 * An image that leaves its counter unused is off even where the CPU
	 * has no such counter: the description's defaults (0) program every
	 * PMD, and a context of the native description must load.
	 */
	attr->type = PERF_TYPE_RAW;
	if (info->vendor == PFMK_X86_AMD || pmd < PFMK_X86_MAX_GP) {
		if (!(val & X86_SEL_EN))
			return PFMK_PMC_OFF;
		if (pmd >= info->nr_gp)
			return -EINVAL;
		attr->config = val & (info->vendor == PFMK_X86_AMD ?
				      AMD_RAW_MASK : X86_RAW_MASK);
		attr->exclude_user = !(val & X86_SEL_USR);
		attr->exclude_kernel = !(val & X86_SEL_OS);
		return 0;
	}
	i = pmd - PFMK_X86_FIXED_PMD0;
	if (i >= PFMK_X86_MAX_FIXED)
		return -EINVAL;
	field = (val >> (4 * i)) & 0xf;
	if (!(field & (FIXED_OS | FIXED_USR)))
		return PFMK_PMC_OFF;
	if (i >= info->nr_fixed)
		return -EINVAL;
	attr->config = pfmk_x86_fixed_config[i];
	attr->exclude_user = !(field & FIXED_USR);
	attr->exclude_kernel = !(field & FIXED_OS);
	return 0;
}
EXPORT_SYMBOL_GPL(pfmk_x86_image_to_attr);

/**
 * pfmk_x86_fixed_pmd() - does an image of PMC16 program PMD @pmd?
 * @pmd: a PMD number.
 *
 * Context: any context.
 * Return: true if the native PMU is Intel's and @pmd is one of its fixed
 * counters other than the first (PMD16 is PMC16's own PMD).
 */
bool pfmk_x86_fixed_pmd(unsigned int pmd)
{
	const struct pfmk_x86_pmu_info *info = pfmk_x86_native();

	return info && info->vendor == PFMK_X86_INTEL &&
	       pmd > PFMK_X86_FIXED_PMD0 &&
	       pmd < PFMK_X86_FIXED_PMD0 + info->nr_fixed;
}

/* ---- the native descriptions -------------------------------------- */

static struct pfmk_reg_desc pfmk_x86_intel_regs[PFMK_X86_MAX_GP +
					       PFMK_X86_MAX_FIXED];
static struct pfmk_reg_desc pfmk_x86_amd_regs[PFMK_X86_AMD_MAX_GP];

static int pfmk_x86_check(const struct pfmk_pmu_desc *desc, unsigned int reg,
			  u64 val)
{
	return pfmk_x86_image_check(reg, val);
}

/* PMD16 + i of the Intel description are programmed by PMC16. */
static u64 pfmk_x86_intel_pmd_pmc(const struct pfmk_pmu_desc *desc,
				  unsigned int pmd, const u64 *pmcs)
{
	return pmd >= PFMK_X86_FIXED_PMD0 ? pmcs[PFMK_X86_FIXED_PMC] :
					    pmcs[pmd];
}

static bool pfmk_x86_intel_pmc_shared(const struct pfmk_pmu_desc *desc,
				      unsigned int reg, u64 val)
{
	return reg == PFMK_X86_FIXED_PMC;
}

static int pfmk_x86_to_attr(const struct pfmk_pmu_desc *desc,
			    unsigned int reg, u64 val,
			    struct perf_event_attr *attr)
{
	return pfmk_x86_image_to_attr(reg, val, attr);
}

static struct pfmk_pmu_desc pfmk_x86_intel_desc = {
	.name		= PFMK_X86_INTEL_NAME,
	.owner		= THIS_MODULE,
	.num_pmcs	= PFMK_X86_MAX_GP + PFMK_X86_MAX_FIXED,
	.pmc_desc	= pfmk_x86_intel_regs,
	.pmc_check	= pfmk_x86_check,
	.pmc_to_attr	= pfmk_x86_to_attr,
	.pmd_pmc	= pfmk_x86_intel_pmd_pmc,
	.pmc_shared	= pfmk_x86_intel_pmc_shared,
};

static struct pfmk_pmu_desc pfmk_x86_amd_desc = {
	.name		= PFMK_X86_AMD_NAME,
	.owner		= THIS_MODULE,
	.num_pmcs	= PFMK_X86_AMD_MAX_GP,
	.pmc_desc	= pfmk_x86_amd_regs,
	.pmc_check	= pfmk_x86_check,
	.pmc_to_attr	= pfmk_x86_to_attr,
};

static void pfmk_x86_init_regs(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pfmk_x86_intel_regs); i++) {
		pfmk_x86_intel_regs[i].name = i < PFMK_X86_MAX_GP ?
					      "PERFEVTSEL" : "FIXED_CTR_CTRL";
		/* Intel images use bits 31:0 only. */
		pfmk_x86_intel_regs[i].rsvd_msk = GENMASK_ULL(63, 32);
	}
	for (i = 0; i < ARRAY_SIZE(pfmk_x86_amd_regs); i++) {
		pfmk_x86_amd_regs[i].name = "PERF_CTL";
		pfmk_x86_amd_regs[i].rsvd_msk = ~AMD_SEL_VALID;
	}
}

static bool pfmk_x86_info_ok(const struct pfmk_x86_pmu_info *info)
{
	if (!info || !info->source || !info->nr_gp)
		return false;
	if (info->vendor == PFMK_X86_AMD)
		return !info->nr_fixed && !info->version &&
		       info->nr_gp <= (info->amd_flags &
				       PFMK_X86_AMD_PERFCTR_CORE ? 6 : 4);
	return info->vendor == PFMK_X86_INTEL && info->version >= 1 &&
	       info->version <= 5 && info->nr_gp <= PFMK_X86_MAX_GP &&
	       info->nr_fixed <= PFMK_X86_MAX_FIXED &&
	       (info->version >= 2 || !info->nr_fixed);
}

static void pfmk_x86_say(const struct pfmk_x86_pmu_info *info)
{
	if (info->vendor == PFMK_X86_INTEL)
		pr_info("x86 native PMU description %s: GenuineIntel family %u model %u, architectural perfmon v%u, %u general counters (%u bits), %u fixed (%u bits), from %s\n",
			PFMK_X86_INTEL_NAME, info->family, info->model,
			info->version, info->nr_gp, info->gp_width,
			info->nr_fixed, info->fixed_width, info->source);
	else
		pr_info("x86 native PMU description %s: AuthenticAMD family %u model %u, %u core counters%s (%u bits), from %s\n",
			PFMK_X86_AMD_NAME, info->family, info->model,
			info->nr_gp,
			info->amd_flags & PFMK_X86_AMD_PERFCTR_CORE ?
			" (PerfCtrCore)" : "", info->gp_width, info->source);
}

/* Make @info the native PMU and register its description. */
static int pfmk_x86_publish(const struct pfmk_x86_pmu_info *info)
{
	struct pfmk_pmu_desc *desc;
	int ret;

	lockdep_assert_held(&pfmk_x86_lock);
	desc = info->vendor == PFMK_X86_INTEL ? &pfmk_x86_intel_desc :
						&pfmk_x86_amd_desc;
	pfmk_x86_slot = *info;
	strscpy(pfmk_x86_source, info->source, sizeof(pfmk_x86_source));
	pfmk_x86_slot.source = pfmk_x86_source;
	ret = pfmk_pmu_register(desc);
	if (ret)
		return ret;
	pfmk_x86_registered = desc;
	/* The slot is complete before readers see it (pfmk_x86_native()). */
	smp_store_release(&pfmk_x86_info, &pfmk_x86_slot);
	pfmk_x86_say(&pfmk_x86_slot);
	return 0;
}

/**
 * pfmk_x86_pmu_announce() - an emulated x86 core PMU is there
 * @info: what it emulates.
 *
 * For a module that registered an emulated core PMU with perf (type
 * PERF_TYPE_RAW) on a machine without one: pfmk then takes @info as the
 * native PMU, registers its description and routes register images to it.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL for an @info that no x86 CPU has; -EBUSY if a native
 * PMU is already known (the CPU's own, or another announcement).
 */
int pfmk_x86_pmu_announce(const struct pfmk_x86_pmu_info *info)
{
	int ret;

	if (!pfmk_x86_info_ok(info))
		return -EINVAL;
	mutex_lock(&pfmk_x86_lock);
	ret = pfmk_x86_native() ? -EBUSY : pfmk_x86_publish(info);
	mutex_unlock(&pfmk_x86_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_x86_pmu_announce);

/**
 * pfmk_x86_pmu_retract() - an announced PMU goes away
 * @info: the information given to pfmk_x86_pmu_announce().
 *
 * New contexts no longer find the description and images are refused
 * again; contexts that use it keep valid memory (their events pin the
 * emulator's module).  Does nothing if @info was not announced.
 *
 * Context: process context; may sleep.
 */
void pfmk_x86_pmu_retract(const struct pfmk_x86_pmu_info *info)
{
	mutex_lock(&pfmk_x86_lock);
	if (info && pfmk_x86_native() && pfmk_x86_registered &&
	    !strcmp(info->source, pfmk_x86_source)) {
		/* Pairs with pfmk_x86_native(); the slot itself stays. */
		smp_store_release(&pfmk_x86_info, NULL);
		pfmk_pmu_unregister(pfmk_x86_registered);
		pfmk_x86_registered = NULL;
		pr_info("x86 native PMU from %s retracted: register images refused\n",
			pfmk_x86_source);
	}
	mutex_unlock(&pfmk_x86_lock);
}
EXPORT_SYMBOL_GPL(pfmk_x86_pmu_retract);

/* The CPU's own core PMU, as x86 perf found it; false if there is none. */
static bool pfmk_x86_cpuid(struct pfmk_x86_pmu_info *info)
{
	struct x86_pmu_capability cap = { };

	pfmk_x86_pmu_capability(&cap);
	if (!cap.version && boot_cpu_data.x86_vendor != X86_VENDOR_AMD)
		return false;
	if (!cap.num_counters_gp)
		return false;
	memset(info, 0, sizeof(*info));
	info->source = "cpuid";
	info->family = boot_cpu_data.x86;
	info->model = boot_cpu_data.x86_model;
	info->gp_width = cap.bit_width_gp;
	info->fixed_width = cap.bit_width_fixed;
	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL) {
		info->vendor = PFMK_X86_INTEL;
		info->version = min(cap.version, 5);
		info->nr_gp = min(cap.num_counters_gp, PFMK_X86_MAX_GP);
		info->nr_fixed = min(cap.num_counters_fixed,
				     PFMK_X86_MAX_FIXED);
	} else if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD) {
		info->vendor = PFMK_X86_AMD;
		if (boot_cpu_has(X86_FEATURE_PERFCTR_CORE))
			info->amd_flags = PFMK_X86_AMD_PERFCTR_CORE;
		info->nr_gp = min(cap.num_counters_gp, PFMK_X86_AMD_MAX_GP);
	} else {
		return false;
	}
	return pfmk_x86_info_ok(info);
}

/**
 * pfmk_pmu_x86_init() - describe the CPU's x86 core PMU, if it has one
 *
 * Context: module init.
 * Return: 0 or a negative errno from pfmk_pmu_register().
 */
int pfmk_pmu_x86_init(void)
{
	struct pfmk_x86_pmu_info info;
	int ret = 0;

	pfmk_x86_init_regs();
	mutex_lock(&pfmk_x86_lock);
	if (pfmk_x86_cpuid(&info))
		ret = pfmk_x86_publish(&info);
	else
		pr_info("no x86 core PMU (none in CPUID or perf): register images are refused until an emulator announces one\n");
	mutex_unlock(&pfmk_x86_lock);
	return ret;
}

/**
 * pfmk_pmu_x86_exit() - unregister the native description
 *
 * Context: module exit.
 */
void pfmk_pmu_x86_exit(void)
{
	mutex_lock(&pfmk_x86_lock);
	if (pfmk_x86_registered)
		pfmk_pmu_unregister(pfmk_x86_registered);
	pfmk_x86_registered = NULL;
	/* Pairs with pfmk_x86_native(). */
	smp_store_release(&pfmk_x86_info, NULL);
	mutex_unlock(&pfmk_x86_lock);
}
