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

#include <linux/bitmap.h>
#include <linux/types.h>
#include <pfmk/pmu.h>

/* pmu/aux.c: kernel-owned AUX buffers, or their stubs */
#include "aux.h"

/* pmu/pmu_desc.c: PMU description registry */
const struct pfmk_pmu_desc *pfmk_pmu_get(const char *name);
void pfmk_pmu_put(const struct pfmk_pmu_desc *desc);

/**
 * pfmk_pmd_pmc() - the PMC value that programs a PMD
 * @pmu: the context's PMU description.
 * @pmd: PMD number.
 * @pmcs: the set's PMC values.
 *
 * Context: any context.
 * Return: the description's answer (->pmd_pmc()), else PMC @pmd's value.
 */
static inline u64 pfmk_pmd_pmc(const struct pfmk_pmu_desc *pmu,
			       unsigned int pmd, const u64 *pmcs)
{
	return pmu->pmd_pmc ? pmu->pmd_pmc(pmu, pmd, pmcs) : pmcs[pmd];
}

/**
 * pfmk_pmc_is_shared() - may a PMC value program PMDs other than its own?
 * @pmu: the PMU description.
 * @reg: PMC number.
 * @val: the value.
 *
 * Context: any context.
 * Return: the description's answer (->pmc_shared()); without one, true
 * for a description with ->pmd_pmc(), which may program any PMD from any
 * PMC, false otherwise.
 */
static inline bool pfmk_pmc_is_shared(const struct pfmk_pmu_desc *pmu,
				      unsigned int reg, u64 val)
{
	if (!pmu->pmc_shared)
		return !!pmu->pmd_pmc;
	return pmu->pmc_shared(pmu, reg, val);
}

/**
 * pfmk_pmd_dfl_off() - does a PMD's default value leave it unused?
 * @pmu: the PMU description.
 * @pmd: PMD number.
 * @val: the value that programs it (pfmk_pmd_pmc()).
 *
 * Context: any context.
 * Return: true if @val is PMC @pmd's default and ->pmc_to_attr() said
 * PFMK_PMC_OFF for it at registration; the core then needs no event and
 * need not ask again.
 */
static inline bool pfmk_pmd_dfl_off(const struct pfmk_pmu_desc *pmu,
				    unsigned int pmd, u64 val)
{
	return test_bit(pmd, pmu->dfl_off) &&
	       val == pmu->pmc_desc[pmd].dfl_val;
}

/**
 * pfmk_pmds_dfl_on() - the PMDs a description's defaults may leave in use
 * @pmu: the PMU description.
 * @dst: output: a bitmap of @pmu->num_pmcs bits, set for every PMD whose
 *	default value did not answer PFMK_PMC_OFF at registration.
 *
 * Context: any context.
 */
static inline void pfmk_pmds_dfl_on(const struct pfmk_pmu_desc *pmu,
				    unsigned long *dst)
{
	bitmap_complement(dst, pmu->dfl_off, pmu->num_pmcs);
}

/* pmu/pmu_generic.c: the built-in generic description */
int pfmk_pmu_generic_init(void);
void pfmk_pmu_generic_exit(void);

/* pmu/pmu_x86.c: the native x86 descriptions */
int pfmk_pmu_x86_init(void);
void pfmk_pmu_x86_exit(void);
bool pfmk_x86_fixed_pmd(unsigned int pmd);

#endif /* _PFMK_PMU_INTERNAL_H */
