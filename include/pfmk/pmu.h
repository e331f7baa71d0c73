/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk PMU descriptions: the plug-in interface for PMU description modules.
 *
 * As in perfmon2, a PMU description tells the core which PMC and PMD
 * registers exist and what a PMC value means.  In pfmk a PMC value does
 * not go to a machine register: the description turns it into a
 * perf_event_attr, and the core counts with a perf kernel counter.
 *
 * Register model: PMC n programs PMD n (counter pairs), so a description
 * has as many PMDs as PMCs.  A description may say otherwise for some PMDs
 * (->pmd_pmc(): Intel's IA32_FIXED_CTR_CTRL, PMC16, programs the fixed
 * counters PMD16 on).  A PMD whose PMC is disabled (the description's
 * ->pmc_to_attr() returns PFMK_PMC_OFF) has no perf event and keeps the
 * value last written to it.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_PMU_H
#define _PFMK_PMU_H

#include <linux/bitmap.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <pfmk/pfmk.h>

/* ->pmc_to_attr() return value: this PMC value leaves its PMD unused. */
#define PFMK_PMC_OFF	1

/**
 * struct pfmk_reg_desc - description of one PMC
 * @name: register name, for messages and debugfs.
 * @dfl_val: value of the PMC until pfmk_write_pmcs() writes it.
 * @rsvd_msk: bits that must be zero; pfmk_write_pmcs() rejects values
 *	with any of them set, with -EINVAL.
 */
struct pfmk_reg_desc {
	const char	*name;
	u64		dfl_val;
	u64		rsvd_msk;
};

/**
 * struct pfmk_pmu_desc - a PMU description
 * @name: unique name, selected at context creation by
 *	&pfarg_ctx.ctx_pmu_name; at most PFMK_PMU_NAME_LEN - 1 characters.
 * @owner: module implementing the description (THIS_MODULE); pinned while
 *	a context uses the description.
 * @num_pmcs: number of PMCs and of PMDs, at most PFM_MAX_HW_PMDS.
 * @pmc_desc: @num_pmcs register descriptions, not to be changed while the
 *	description is registered or a context created from it is open.
 * @pmc_check: optional: semantic check of a PMC value whose reserved bits
 *	are clear, at pfmk_write_pmcs() time.  Return 0 or -EINVAL.  Must not
 *	sleep, must not depend on the CPU or on the events the running
 *	machine has (those fail at load time).
 * @pmc_to_attr: fill @attr for PMC @reg with value @val (the core has
 *	zeroed it and sets size, disabled, pinned and the sampling fields
 *	afterwards).  Return 0, PFMK_PMC_OFF, or a negative errno.  Called
 *	at load time, in process context, and once per PMD at registration
 *	with the default values.  The answer must depend on @reg and @val
 *	only: a PMD that the defaults leave unused (PFMK_PMC_OFF) is not
 *	asked about again while its PMC was not written.
 * @pmd_pmc: optional: the value that programs PMD @pmd, from the set's
 *	PMC values @pmcs; without it, PMC @pmd's.  ->pmc_to_attr() then gets
 *	@pmd as @reg and this value as @val.  Also called at registration,
 *	with the default values.
 * @pmc_shared: optional: does value @val of PMC @reg program PMDs other
 *	than PMD @reg?  Such a PMC is written while the context is unloaded
 *	(-EBUSY otherwise), when the core re-creates every event anyway.
 *	Without it, a description with ->pmd_pmc() has every PMC written so.
 * @pmd_attr: optional: complete @attr of PMD @pmd from the set's PMC
 *	values @pmcs, after ->pmc_to_attr() accepted the value that programs
 *	it: for a PMD programmed by several PMCs (perfmon2's extra control
 *	registers; the config words of a dynamic description).  The other
 *	PMCs it reads must be ones ->pmc_shared() says are shared.  Return 0
 *	or a negative errno, which fails the load or the write.
 * @list: private to the core.
 * @dfl_off: private to the core: the PMDs that the default PMC values
 *	leave unused (->pmc_to_attr() said PFMK_PMC_OFF at registration).
 * @dfl_set: private to the core: the PMCs whose default value is not 0.
 *
 * Context: the callbacks run in process context with the context's mutex
 * held (->pmc_to_attr() and ->pmd_pmc() also at registration, under the
 * registry's mutex); they must not call back into pfmk.
 */
struct pfmk_pmu_desc {
	const char			*name;
	struct module			*owner;
	unsigned int			num_pmcs;
	const struct pfmk_reg_desc	*pmc_desc;
	int (*pmc_check)(const struct pfmk_pmu_desc *desc, unsigned int reg,
			 u64 val);
	int (*pmc_to_attr)(const struct pfmk_pmu_desc *desc, unsigned int reg,
			   u64 val, struct perf_event_attr *attr);
	u64 (*pmd_pmc)(const struct pfmk_pmu_desc *desc, unsigned int pmd,
		       const u64 *pmcs);
	bool (*pmc_shared)(const struct pfmk_pmu_desc *desc, unsigned int reg,
			   u64 val);
	int (*pmd_attr)(const struct pfmk_pmu_desc *desc, unsigned int pmd,
			const u64 *pmcs, struct perf_event_attr *attr);
	struct list_head		list;
	DECLARE_BITMAP(dfl_off, PFM_MAX_HW_PMDS);
	DECLARE_BITMAP(dfl_set, PFM_MAX_HW_PMDS);
};

int pfmk_pmu_register(struct pfmk_pmu_desc *desc);
void pfmk_pmu_unregister(struct pfmk_pmu_desc *desc);

/**
 * module_pfmk_pmu() - declare a module that only registers a PMU description
 * @__desc: the &struct pfmk_pmu_desc.
 *
 * Expands to the module's init and exit functions.
 */
#define module_pfmk_pmu(__desc) \
	module_driver(__desc, pfmk_pmu_register, pfmk_pmu_unregister)

#endif /* _PFMK_PMU_H */
