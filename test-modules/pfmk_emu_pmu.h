/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_emu_pmu: an emulated x86 core PMU for machines that have none.
 *
 * Where the kernel has no x86 core PMU (QEMU TCG guests), the module
 * registers a perf PMU at type PERF_TYPE_RAW, so that perf hands it
 * PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE and PERF_TYPE_RAW events as it
 * hands them to the CPU's PMU on hardware, and announces to pfmk an Intel
 * architectural perfmon v2 PMU (<pfmk/x86.h>): NR_GP general counters
 * (module parameter nr_gp, 4 by default) and 3 fixed counters, 48 bits
 * wide, with x86 perf's scheduling constraints (instructions retired and
 * core cycles on their fixed counter or a general one, reference cycles
 * (0x0300) on fixed counter 2 only, everything else on general counters;
 * an event that finds no free counter is not scheduled, as on hardware).
 *
 * Its counters advance only when a test calls pfmk_emu_tick(cpu, user,
 * kernel): each tick is one unit of work in user or kernel mode, during
 * which every event counts the increment of its event code below (events
 * excluding that mode count nothing); with a cmask the event counts 1 per
 * tick whose increment is >= cmask (< cmask with inv), with edge only the
 * first such tick after one that was not.  Unknown event codes are
 * refused (-ENOENT, which pfmk turns into -EOPNOTSUPP at load).
 *
 * For demos (make demo) the module can run free instead: with run_hz=N a
 * per-CPU timer counts run_scale ticks N times a second on every busy CPU,
 * in the mode the timer interrupted (an idle CPU is halted and counts
 * nothing), and an overflow NMI reports the interrupted registers as the
 * sampled context.  The counts then follow the timer, not the workload:
 * they are marked EMULATED wherever they are printed.
 *
 * A counter that wraps past 2^48 raises a real NMI on its CPU (an NMI IPI
 * through the local APIC); the NMI handler folds the count, reloads the
 * period and enters perf there, so pfmk's overflow path runs in NMI
 * context as on hardware.  Where the kernel exports perf_event_overflow()
 * (pfmk's debug kernels, patches/linux-<series>/test-only/, found by the
 * PFMK_HAVE_PERF_EVENT_OVERFLOW Kbuild probe) the NMI calls it as
 * x86_pmu_handle_irq() does, and stops an event perf throttles; stock
 * kernels do not export it, and there the event's overflow handler is
 * called directly, without perf's throttling.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_EMU_PMU_H
#define _PFMK_EMU_PMU_H

#include <linux/types.h>

#define PFMK_EMU_NAME		"pfmk_emu_cpu"
#define PFMK_EMU_NR_FIXED	3
#define PFMK_EMU_MAX_GP		8
#define PFMK_EMU_WIDTH		48

/* Intel architectural event codes (umask << 8 | event) and increments. */
#define PFMK_EMU_CYCLES		0x003c	/* unhalted core cycles */
#define PFMK_EMU_INC_CYCLES	4
#define PFMK_EMU_BUS_CYCLES	0x013c	/* unhalted reference (bus) cycles */
#define PFMK_EMU_INC_BUS	1
#define PFMK_EMU_INSTR		0x00c0	/* instructions retired */
#define PFMK_EMU_INC_INSTR	3
#define PFMK_EMU_LLC_REF	0x4f2e	/* LLC references */
#define PFMK_EMU_INC_LLC_REF	2
#define PFMK_EMU_LLC_MISS	0x412e	/* LLC misses */
#define PFMK_EMU_INC_LLC_MISS	1
#define PFMK_EMU_BRANCH		0x00c4	/* branch instructions retired */
#define PFMK_EMU_INC_BRANCH	2
#define PFMK_EMU_BR_MISS	0x00c5	/* branch misses retired */
#define PFMK_EMU_INC_BR_MISS	1
#define PFMK_EMU_REF_TSC	0x0300	/* reference cycles, fixed 2 only */
#define PFMK_EMU_INC_REF_TSC	2

int pfmk_emu_tick(int cpu, u64 user, u64 kernel);
void pfmk_emu_tick_local(u64 kernel);
u64 pfmk_emu_nmis(int cpu);
u64 pfmk_emu_throttles(int cpu);
bool pfmk_emu_perf_overflow(void);
bool pfmk_emu_handler_in_nmi(void);
unsigned int pfmk_emu_nr_gp(void);

#endif /* _PFMK_EMU_PMU_H */
