// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk PMU description registry.
 *
 * PMU description modules register a struct pfmk_pmu_desc (<pfmk/pmu.h>);
 * contexts select one by name at creation and pin its module until they
 * are closed, so a description never goes away under a context.  As in
 * perfmon2, creating a context does not load a description module: load
 * it first.
 *
 * pfmk_pmu_lock serializes registration; contexts look descriptions up
 * under RCU, which unregistration waits for.  A name that no registered
 * description has, or PFMK_DYN_PREFIX and a name, selects the dynamic
 * description of the perf PMU of that name (pmu/pmu_dyn.c).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/pmu_generic.h>

#include "internal.h"

static DEFINE_MUTEX(pfmk_pmu_lock);
static LIST_HEAD(pfmk_pmu_list);

static struct pfmk_pmu_desc *pfmk_pmu_find(const char *name)
{
	struct pfmk_pmu_desc *desc;

	list_for_each_entry_rcu(desc, &pfmk_pmu_list, list,
				lockdep_is_held(&pfmk_pmu_lock))
		if (!strcmp(desc->name, name))
			return desc;
	return NULL;
}

/*
 * Find the PMDs that the default PMC values leave unused, so that loads
 * need not ask ->pmc_to_attr() about them (pfmk_pmds_dfl_on()): most
 * PMDs of a set stay at their default.  A PMD whose default value counts,
 * or is an error, or (with ->pmd_pmc()) follows another PMC's default, is
 * asked at every load, as before.
 *
 * A description registered again while contexts of its previous
 * registration load gets the same bitmap (->pmc_to_attr() answers from
 * the register and value alone): it is stored only if it changed, so that
 * those loads read no bitmap being rewritten.  So is the bitmap of the
 * PMCs whose default is not 0, which a create writes (pfmk_sets_init()).
 */
static void pfmk_pmu_find_dfl_off(struct pfmk_pmu_desc *desc, u64 *pmcs)
{
	DECLARE_BITMAP(off, PFM_MAX_HW_PMDS);
	DECLARE_BITMAP(set, PFM_MAX_HW_PMDS);
	struct perf_event_attr attr;
	unsigned int i;
	u64 val;

	bitmap_zero(off, PFM_MAX_HW_PMDS);
	bitmap_zero(set, PFM_MAX_HW_PMDS);
	for (i = 0; i < desc->num_pmcs; i++) {
		pmcs[i] = desc->pmc_desc[i].dfl_val;
		if (pmcs[i])
			__set_bit(i, set);
	}
	if (!bitmap_equal(set, desc->dfl_set, PFM_MAX_HW_PMDS))
		bitmap_copy(desc->dfl_set, set, PFM_MAX_HW_PMDS);
	for (i = 0; i < desc->num_pmcs; i++) {
		val = pfmk_pmd_pmc(desc, i, pmcs);
		if (val != pmcs[i])
			continue;
		memset(&attr, 0, sizeof(attr));
		if (desc->pmc_to_attr(desc, i, val, &attr) == PFMK_PMC_OFF)
			__set_bit(i, off);
	}
	if (!bitmap_equal(off, desc->dfl_off, PFM_MAX_HW_PMDS))
		bitmap_copy(desc->dfl_off, off, PFM_MAX_HW_PMDS);
}

/**
 * pfmk_pmu_prepare() - find the PMDs a description's defaults leave unused
 * @desc: a description about to be used without registration (dynamic).
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int pfmk_pmu_prepare(struct pfmk_pmu_desc *desc)
{
	u64 *pmcs = kmalloc_array(desc->num_pmcs, sizeof(*pmcs), GFP_KERNEL);

	if (!pmcs)
		return -ENOMEM;
	pfmk_pmu_find_dfl_off(desc, pmcs);
	kfree(pmcs);
	return 0;
}

/**
 * pfmk_pmu_registered() - is a description of that name registered?
 * @name: description name.
 *
 * Context: any context but NMI.
 * Return: true if one is (it may be unregistered right after).
 */
bool pfmk_pmu_registered(const char *name)
{
	bool found;

	rcu_read_lock();
	found = !!pfmk_pmu_find(name);
	rcu_read_unlock();
	return found;
}

/**
 * pfmk_pmu_register() - register a PMU description
 * @desc: the description; it must stay valid until unregistered.
 *
 * Asks ->pmc_to_attr() about each PMD's default value (see
 * &struct pfmk_pmu_desc).
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL if @desc is malformed (no name or a name of
 * PFMK_PMU_NAME_LEN characters or more, no registers or more than
 * PFM_MAX_HW_PMDS, no register table, no ->pmc_to_attr()); -EEXIST if a
 * description of that name is registered; -ENOMEM.
 */
int pfmk_pmu_register(struct pfmk_pmu_desc *desc)
{
	u64 *pmcs;
	int ret = 0;

	if (!desc || !desc->name || !desc->name[0] ||
	    strnlen(desc->name, PFMK_PMU_NAME_LEN) >= PFMK_PMU_NAME_LEN ||
	    !desc->num_pmcs || desc->num_pmcs > PFM_MAX_HW_PMDS ||
	    !desc->pmc_desc || !desc->pmc_to_attr)
		return -EINVAL;
	pmcs = kmalloc_array(desc->num_pmcs, sizeof(*pmcs), GFP_KERNEL);
	if (!pmcs)
		return -ENOMEM;

	mutex_lock(&pfmk_pmu_lock);
	if (pfmk_pmu_find(desc->name)) {
		ret = -EEXIST;
	} else {
		pfmk_pmu_find_dfl_off(desc, pmcs);
		list_add_tail_rcu(&desc->list, &pfmk_pmu_list);
	}
	mutex_unlock(&pfmk_pmu_lock);
	kfree(pmcs);
	if (!ret)
		pr_info("PMU description %s registered (%u PMCs/PMDs)\n",
			desc->name, desc->num_pmcs);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_pmu_register);

/**
 * pfmk_pmu_unregister() - unregister a PMU description
 * @desc: a description registered with pfmk_pmu_register().
 *
 * New lookups no longer find @desc.  Contexts pin the description's
 * module, not its registration: contexts created from @desc, one by a
 * lookup that raced with this call included, keep using it, and the
 * module cannot go before they close.  Returns after an RCU grace period,
 * so that no lookup still walks past @desc when its module frees it.
 *
 * Context: process context; may sleep.
 */
void pfmk_pmu_unregister(struct pfmk_pmu_desc *desc)
{
	mutex_lock(&pfmk_pmu_lock);
	list_del_rcu(&desc->list);
	mutex_unlock(&pfmk_pmu_lock);
	/* No lookup still walks past @desc, which may go with its module. */
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(pfmk_pmu_unregister);

/**
 * pfmk_pmu_get() - find a description and pin its module
 * @name: description name, or NULL for the generic description.
 *
 * A registered description of that name first; else, the dynamic
 * description of the perf PMU of that name (@name less PFMK_DYN_PREFIX,
 * which selects a dynamic description always).
 *
 * Context: process context; may sleep.
 * Return: the description, ERR_PTR(-ENOENT) if no description and no
 * perf PMU of that name exist (or the module is going away), or another
 * error of pfmk_dyn_get().
 */
const struct pfmk_pmu_desc *pfmk_pmu_get(const char *name)
{
	struct pfmk_pmu_desc *desc;

	if (name && str_has_prefix(name, PFMK_DYN_PREFIX))
		return pfmk_dyn_get(name + strlen(PFMK_DYN_PREFIX));
	/*
	 * Under RCU: a description found here is not freed before the
	 * section ends, and one whose module is going away fails
	 * try_module_get().
	 */
	rcu_read_lock();
	desc = pfmk_pmu_find(name ? name : PFMK_GENERIC_NAME);
	if (desc && !try_module_get(desc->owner))
		desc = NULL;
	rcu_read_unlock();
	if (!desc && name)
		return pfmk_dyn_get(name);
	return desc ? desc : ERR_PTR(-ENOENT);
}

/**
 * pfmk_pmu_put() - unpin a description taken with pfmk_pmu_get()
 * @desc: the description.
 *
 * Context: process context; may sleep.
 */
void pfmk_pmu_put(const struct pfmk_pmu_desc *desc)
{
	if (pfmk_pmu_is_dyn(desc))
		pfmk_dyn_put(desc);
	else
		module_put(desc->owner);
}
