/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk pmu/ internal header: what the PMU layer offers the core.
 *
 * pmu/ is the leaf of pfmk's layers (kapi -> core -> pmu): the PMU
 * description registry, the generic and x86 descriptions, and the
 * wrappers over the kernel-owned AUX buffer API (pmu/aux.h).  Nothing
 * here knows a context, an event set or a PMD: the callers in the core
 * pass descriptions, register values and perf events.  No file of pmu/
 * includes a header of the core or calls into it.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_PMU_INTERNAL_H
#define _PFMK_PMU_INTERNAL_H

#include <linux/types.h>
#include <pfmk/pmu.h>

/* pmu/aux.c: kernel-owned AUX buffers, or their stubs */
#include "aux.h"

/* pmu/pmu_desc.c: PMU description registry */
const struct pfmk_pmu_desc *pfmk_pmu_get(const char *name);
void pfmk_pmu_put(const struct pfmk_pmu_desc *desc);
u64 pfmk_pmd_pmc(const struct pfmk_pmu_desc *pmu, unsigned int pmd,
		 const u64 *pmcs);

/* pmu/pmu_generic.c: the built-in generic description */
int pfmk_pmu_generic_init(void);
void pfmk_pmu_generic_exit(void);

/* pmu/pmu_x86.c: the native x86 descriptions */
int pfmk_pmu_x86_init(void);
void pfmk_pmu_x86_exit(void);
bool pfmk_x86_fixed_pmd(unsigned int pmd);

#endif /* _PFMK_PMU_INTERNAL_H */
