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
#include <pfmk/pmu_dyn.h>

/* pmu/aux.c: kernel-owned AUX buffers, or their stubs */
#include "aux.h"

/* pmu/pmu_desc.c: PMU description registry */
const struct pfmk_pmu_desc *pfmk_pmu_get(const char *name);
void pfmk_pmu_put(const struct pfmk_pmu_desc *desc);
bool pfmk_pmu_registered(const char *name);
int pfmk_pmu_prepare(struct pfmk_pmu_desc *desc);

/* pmu/perf_pmu.c: perf's PMUs by name (the one file that knows how) */
struct pmu *pfmk_perf_pmu_get(const char *name, int *type,
			      struct module **owner);
void pfmk_perf_pmu_put(struct module *owner);
bool pfmk_perf_pmu_alive(struct pmu *pmu, const char *name, int type);
int pfmk_perf_pmu_check_event(struct pmu *pmu, const char *name,
			      struct perf_event *event, bool *sw);
const char *pfmk_perf_event_pmu_name(const struct perf_event *event);
void pfmk_perf_pmu_exit(void);
int pfmk_perf_pmu_attrs(struct pmu *pmu, const char *name, const char *group,
			int (*fn)(void *arg, const char *name, const char *val),
			void *arg);

/* pmu/pmu_dyn.c: descriptions built at run time for perf PMUs */
#define PFMK_DYN_FIELD_LEN	32
#ifdef PFMK_HAVE_ATTR_CONFIG3
#define PFMK_DYN_NUM_CONFIGS	4	/* config, config1..config3 */
#else
#define PFMK_DYN_NUM_CONFIGS	3	/* config, config1, config2 */
#endif

/**
 * struct pfmk_dyn_field - one field of a PMU's "format" group
 * @name: the field's name (the attribute's).
 * @word: 0 for attr.config, 1 to 3 for config1 to config3.
 * @mask: its bits in that word; a value fills them lowest first.
 */
struct pfmk_dyn_field {
	char		name[PFMK_DYN_FIELD_LEN];
	unsigned int	word;
	u64		mask;
};

/**
 * struct pfmk_dyn - a dynamic PMU description
 * @desc: the description the core uses.
 * @node: in the cache of dynamic descriptions.
 * @users: contexts and lookups holding it, under the cache's mutex.
 * @pmu: the perf PMU, its module pinned while the description lives.
 * @type: the PMU's perf type.
 * @formatted: the PMU has a "format" group.
 * @masks: the bits of config, config1.. that the format fields cover.
 * @nr_fields: number of @fields.
 * @fields: the format fields.
 * @name: the PMU's name, and the description's.
 * @regs: the register table of @desc.
 * @rcu: frees it.
 */
struct pfmk_dyn {
	struct pfmk_pmu_desc	desc;
	struct list_head	node;
	unsigned int		users;
	struct pmu		*pmu;
	int			type;
	bool			formatted;
	u64			masks[PFMK_DYN_NUM_CONFIGS];
	unsigned int		nr_fields;
	struct pfmk_dyn_field	*fields;
	char			name[PFMK_PMU_NAME_LEN];
	struct pfmk_reg_desc	regs[PFMK_DYN_NUM_PMCS];
	struct rcu_head		rcu;
};

const struct pfmk_pmu_desc *pfmk_dyn_get(const char *name);
void pfmk_dyn_put(const struct pfmk_pmu_desc *desc);
bool pfmk_pmu_is_dyn(const struct pfmk_pmu_desc *desc);
int pfmk_dyn_check_event(const struct pfmk_pmu_desc *desc,
			 struct perf_event *event, bool *sw);

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

/* pmu/pmu_x86.c: the native x86 descriptions (pmu/pmu_x86_none.c off x86) */
int pfmk_pmu_x86_init(void);
void pfmk_pmu_x86_exit(void);
bool pfmk_x86_fixed_pmd(unsigned int pmd);

#endif /* _PFMK_PMU_INTERNAL_H */
