/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel interfaces that differ between the kernels pfmk builds against
 * (Linux 6.1 to 7.2), wrapped for pfmk's own code (core/, pmu/) and its
 * test PMUs (test-modules/), as <pfmk/compat.h> wraps those a client may
 * want.  Not installed: nothing here is part of the client kit.  Each
 * difference is chosen by a probe in pfmk's Kbuild, which greps the target
 * kernel's headers or Module.symvers and defines PFMK_HAVE_<feature>;
 * there is no LINUX_VERSION_CODE test, so a distribution kernel with a
 * backport gets the right spelling.
 */
#ifndef _PFMK_COMPAT_INTERNAL_H
#define _PFMK_COMPAT_INTERNAL_H

#include <linux/hrtimer.h>
#include <linux/string.h>
#ifdef CONFIG_X86
#include <asm/perf_event.h>
#include <asm/processor.h>
/* cpuid() moved out of <asm/processor.h> into <asm/cpuid/api.h>. */
#ifdef PFMK_HAVE_ASM_CPUID_API_H
#include <asm/cpuid/api.h>
#endif
#endif

/**
 * pfmk_hrtimer_setup() - initialize an hrtimer with its callback
 * @timer: the timer.
 * @function: its expiry callback.
 * @clock_id: the clock, e.g. CLOCK_MONOTONIC.
 * @mode: the timer mode (HRTIMER_MODE_*).
 *
 * hrtimer_setup() (Linux 6.13) sets the callback with the rest and
 * replaced hrtimer_init(), which later kernels no longer have; before it,
 * hrtimer_init() and an assignment of @timer->function do the same.
 * Probe: PFMK_HAVE_HRTIMER_SETUP.
 */
static inline void
pfmk_hrtimer_setup(struct hrtimer *timer,
		   enum hrtimer_restart (*function)(struct hrtimer *),
		   clockid_t clock_id, enum hrtimer_mode mode)
{
#ifdef PFMK_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, function, clock_id, mode);
#else
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
#endif
}

#ifdef CONFIG_X86
/**
 * pfmk_x86_pmu_capability() - the counters of the CPU's x86 core PMU
 * @cap: output; all zero when there is no core PMU.
 *
 * perf_get_x86_pmu_capability() reports what x86 perf found, but newer
 * kernels export it to KVM only (EXPORT_SYMBOL_FOR_KVM).  Where the
 * kernel's Module.symvers exports it to every module (probe
 * PFMK_HAVE_X86_PMU_CAPABILITY in Kbuild) it is called; elsewhere
 * the counters are read from CPUID as x86 perf reads them: leaf 0xA on
 * Intel (architectural perfmon; version 0 or no leaf: no PMU, as in a
 * QEMU TCG guest), the core performance counter extension on AMD (6
 * counters of 48 bits; without it, none, as in a guest whose hypervisor
 * hides the PMU).  Unlike perf, this cannot tell a PMU that perf refused
 * to drive (e.g. a broken one) from a working one.
 */
static inline void pfmk_x86_pmu_capability(struct x86_pmu_capability *cap)
{
#ifdef PFMK_HAVE_X86_PMU_CAPABILITY
	perf_get_x86_pmu_capability(cap);
#else
	union cpuid10_eax eax;
	union cpuid10_edx edx;
	unsigned int ebx, ecx;

	memset(cap, 0, sizeof(*cap));
	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL) {
		if (!boot_cpu_has(X86_FEATURE_ARCH_PERFMON) ||
		    boot_cpu_data.cpuid_level < 0xa)
			return;
		cpuid(0xa, &eax.full, &ebx, &ecx, &edx.full);
		if (!eax.split.version_id)
			return;
		cap->version = eax.split.version_id;
		cap->num_counters_gp = eax.split.num_counters;
		cap->bit_width_gp = eax.split.bit_width;
		if (cap->version > 1) {
			cap->num_counters_fixed = edx.split.num_counters_fixed;
			cap->bit_width_fixed = edx.split.bit_width_fixed;
		}
	} else if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD &&
		   boot_cpu_has(X86_FEATURE_PERFCTR_CORE)) {
		cap->num_counters_gp = 6;
		cap->bit_width_gp = 48;
	}
#endif
}
#endif /* CONFIG_X86 */

#endif /* _PFMK_COMPAT_INTERNAL_H */
