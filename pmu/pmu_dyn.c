// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk's dynamic PMU descriptions: one built at run time for a registered
 * perf PMU that no pfmk description describes, from the PMU's own sysfs
 * "format" group.  The PMC layout is in <pfmk/pmu_dyn.h>.
 *
 * A dynamic description is cached while used: contexts (and
 * pfmk_encode()) of one PMU share one, counted in ->users under
 * pfmk_dyn_lock; the last user frees it (after an RCU grace period).  It
 * pins the PMU's module from its creation to its end, so that the PMU
 * stays registered while a context may load it.  The PMU is found by
 * name through pmu/perf_pmu.c alone.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/compat.h>

#include "internal.h"

static DEFINE_MUTEX(pfmk_dyn_lock);
static LIST_HEAD(pfmk_dyn_list);

static const char * const pfmk_dyn_word_names[PFMK_DYN_WORDS] = {
	"CTRL", "CONFIG", "CONFIG1", "CONFIG2", "CONFIG3",
};

static struct pfmk_dyn *pfmk_to_dyn(const struct pfmk_pmu_desc *desc)
{
	return container_of(desc, struct pfmk_dyn, desc);
}

/* The config word (0: config, 1..3: config1..3) PMC @reg holds, or -1. */
static int pfmk_dyn_word(unsigned int reg)
{
	return reg < PFMK_DYN_NUM_PMDS ? -1 : reg / PFMK_DYN_NUM_PMDS - 1;
}

/**
 * pfmk_dyn_parse_format() - parse the value of a "format" attribute
 * @val: e.g. "config:0-7", "config1:0", "config:0-7,32-35".
 * @word: output: 0 for config, 1 to 3 for config1 to config3.
 * @mask: output: the bits, in that word, of the field.
 *
 * Context: any context.
 * Return: 0; -EINVAL for a malformed value, a bit above 63, a range
 * running backwards, ranges that overlap, or a word this kernel's
 * perf_event_attr does not have (config3 before 6.3).
 */
int pfmk_dyn_parse_format(const char *val, unsigned int *word, u64 *mask)
{
	unsigned int lo, hi, w;
	u64 bits, m = 0;
	const char *p;
	int n;

	if (!strncmp(val, "config:", 7)) {
		w = 0;
		p = val + 7;
	} else if (!strncmp(val, "config", 6) && val[6] >= '1' &&
		   val[6] <= '3' && val[7] == ':') {
		w = val[6] - '0';
		p = val + 8;
	} else {
		return -EINVAL;
	}
	if (w >= PFMK_DYN_NUM_CONFIGS)
		return -EINVAL;
	for (;;) {
		/* Bit numbers are 0 to 63: two digits at most (%u wraps). */
		if (sscanf(p, "%u%n", &lo, &n) != 1 || !isdigit(*p) || n > 2)
			return -EINVAL;
		p += n;
		hi = lo;
		if (*p == '-') {
			p++;
			if (sscanf(p, "%u%n", &hi, &n) != 1 || !isdigit(*p) ||
			    n > 2)
				return -EINVAL;
			p += n;
		}
		if (lo > hi || hi > 63)
			return -EINVAL;
		bits = GENMASK_ULL(hi, lo);
		if (m & bits)
			return -EINVAL;
		m |= bits;
		if (!*p)
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	*word = w;
	*mask = m;
	return 0;
}
EXPORT_SYMBOL_GPL(pfmk_dyn_parse_format);

struct pfmk_dyn_scan {
	struct pfmk_dyn	*dyn;
	unsigned int	max;
};

/* Count the "format" attributes, to size the field table. */
static int pfmk_dyn_count(void *arg, const char *name, const char *val)
{
	(*(unsigned int *)arg)++;
	return 0;
}

static int pfmk_dyn_add_field(void *arg, const char *name, const char *val)
{
	struct pfmk_dyn_scan *scan = arg;
	struct pfmk_dyn *dyn = scan->dyn;
	struct pfmk_dyn_field *f = NULL;
	unsigned int i, word;
	u64 mask;

	if (pfmk_dyn_parse_format(val, &word, &mask) ||
	    strlen(name) >= PFMK_DYN_FIELD_LEN) {
		pr_info_ratelimited("PMU %s: format %s=\"%s\" not understood, ignored\n",
				    dyn->name, name, val);
		return 0;
	}
	/* A field of ->attr_update comes after, and replaces, its twin. */
	for (i = 0; i < dyn->nr_fields; i++)
		if (!strcmp(dyn->fields[i].name, name))
			f = &dyn->fields[i];
	if (!f) {
		if (dyn->nr_fields >= scan->max)
			return 0;
		f = &dyn->fields[dyn->nr_fields++];
		strscpy(f->name, name, sizeof(f->name));
	}
	f->word = word;
	f->mask = mask;
	return 0;
}

static int pfmk_dyn_read_format(struct pfmk_dyn *dyn)
{
	struct pfmk_dyn_scan scan = { .dyn = dyn };
	unsigned int i, n = 0;
	int ret;

	ret = pfmk_perf_pmu_attrs(dyn->pmu, dyn->name, "format",
				  pfmk_dyn_count, &n);
	if (ret || !n)
		return ret;
	dyn->fields = kcalloc(n, sizeof(*dyn->fields), GFP_KERNEL);
	if (!dyn->fields)
		return -ENOMEM;
	scan.max = n;
	ret = pfmk_perf_pmu_attrs(dyn->pmu, dyn->name, "format",
				  pfmk_dyn_add_field,
				  &scan);
	if (ret)
		return ret;
	dyn->formatted = true;
	for (i = 0; i < dyn->nr_fields; i++)
		dyn->masks[dyn->fields[i].word] |= dyn->fields[i].mask;
	return 0;
}

static int pfmk_dyn_to_attr(const struct pfmk_pmu_desc *desc,
			    unsigned int reg, u64 val,
			    struct perf_event_attr *attr)
{
	if (reg >= PFMK_DYN_NUM_PMDS || !(val & PFMK_DYN_EN))
		return PFMK_PMC_OFF;
	attr->type = pfmk_to_dyn(desc)->type;
	attr->exclude_user = !!(val & PFMK_DYN_XUSER);
	attr->exclude_kernel = !!(val & PFMK_DYN_XKERN);
	attr->exclude_hv = !!(val & PFMK_DYN_XHV);
	attr->exclude_idle = !!(val & PFMK_DYN_XIDLE);
	return 0;
}

/*
 * The config words come from their PMCs; a PMU that left since the
 * description was made (a driver unbound without its module going) fails
 * the load, rather than its type reaching a PMU registered after it.
 */
static int pfmk_dyn_pmd_attr(const struct pfmk_pmu_desc *desc,
			     unsigned int pmd, const u64 *pmcs,
			     struct perf_event_attr *attr)
{
	struct pfmk_dyn *dyn = pfmk_to_dyn(desc);

	if (!pfmk_perf_pmu_alive(dyn->pmu, dyn->name, dyn->type))
		return -EOPNOTSUPP;
	attr->config = pmcs[PFMK_DYN_PMC(pmd, PFMK_DYN_CONFIG)];
	attr->config1 = pmcs[PFMK_DYN_PMC(pmd, PFMK_DYN_CONFIG1)];
	attr->config2 = pmcs[PFMK_DYN_PMC(pmd, PFMK_DYN_CONFIG2)];
#ifdef PFMK_HAVE_ATTR_CONFIG3
	attr->config3 = pmcs[PFMK_DYN_PMC(pmd, PFMK_DYN_CONFIG3)];
#endif
	return 0;
}

/* PMDs 16 and up never count; the config words program PMD n's event. */
static u64 pfmk_dyn_pmd_pmc(const struct pfmk_pmu_desc *desc,
			    unsigned int pmd, const u64 *pmcs)
{
	return pmd < PFMK_DYN_NUM_PMDS ? pmcs[pmd] : 0;
}

static bool pfmk_dyn_pmc_shared(const struct pfmk_pmu_desc *desc,
				unsigned int reg, u64 val)
{
	return reg >= PFMK_DYN_NUM_PMDS;
}

/**
 * pfmk_pmu_is_dyn() - is a description a dynamic one?
 * @desc: a description.
 *
 * Context: any context.
 * Return: true for a description built by pfmk_dyn_get().
 */
bool pfmk_pmu_is_dyn(const struct pfmk_pmu_desc *desc)
{
	return desc->pmc_to_attr == pfmk_dyn_to_attr;
}

/**
 * pfmk_dyn_check_event() - is an event of a dynamic description on its PMU?
 * @desc: a dynamic description.
 * @event: an event just created from one of its PMC values.
 * @sw: output, see pfmk_perf_pmu_check_event().
 *
 * Context: process context; may sleep.
 * Return: 0 or -EOPNOTSUPP, as pfmk_perf_pmu_check_event().
 */
int pfmk_dyn_check_event(const struct pfmk_pmu_desc *desc,
			 struct perf_event *event, bool *sw)
{
	const struct pfmk_dyn *dyn = pfmk_to_dyn(desc);

	return pfmk_perf_pmu_check_event(dyn->pmu, dyn->name, event, sw);
}

/*
 * A description of @pmu, whose @type and module @owner were read under
 * perf_pmu.c's lock: @pmu itself is only compared and handed back there.
 */
static struct pfmk_dyn *pfmk_dyn_build(struct pmu *pmu, int type,
				       struct module *owner, const char *name)
{
	struct pfmk_dyn *dyn;
	unsigned int i;
	int w, ret;

	dyn = pfmk_kzalloc_obj(*dyn, GFP_KERNEL);
	if (!dyn)
		return ERR_PTR(-ENOMEM);
	dyn->pmu = pmu;
	dyn->type = type;
	strscpy(dyn->name, name, sizeof(dyn->name));
	ret = pfmk_dyn_read_format(dyn);
	if (ret)
		goto err;
	for (i = 0; i < PFMK_DYN_NUM_PMCS; i++) {
		w = pfmk_dyn_word(i);
		dyn->regs[i].name = pfmk_dyn_word_names[w + 1];
		if (w < 0)
			dyn->regs[i].rsvd_msk = ~PFMK_DYN_CTRL_VALID;
		else if (w >= PFMK_DYN_NUM_CONFIGS)
			dyn->regs[i].rsvd_msk = ~0ULL;
		else if (dyn->formatted)
			dyn->regs[i].rsvd_msk = ~dyn->masks[w];
	}
	dyn->desc.name = dyn->name;
	dyn->desc.owner = owner;
	dyn->desc.num_pmcs = PFMK_DYN_NUM_PMCS;
	dyn->desc.pmc_desc = dyn->regs;
	dyn->desc.pmc_to_attr = pfmk_dyn_to_attr;
	dyn->desc.pmd_pmc = pfmk_dyn_pmd_pmc;
	dyn->desc.pmc_shared = pfmk_dyn_pmc_shared;
	dyn->desc.pmd_attr = pfmk_dyn_pmd_attr;
	ret = pfmk_pmu_prepare(&dyn->desc);
	if (ret)
		goto err;
	dyn->users = 1;
	return dyn;
err:
	kfree(dyn->fields);
	kfree(dyn);
	return ERR_PTR(ret);
}

/**
 * pfmk_dyn_get() - the dynamic description of a perf PMU
 * @name: the PMU's sysfs name.
 *
 * Shares the cached description of the PMU if there is one (the same
 * PMU, still registered with the same type), else builds one, which pins
 * the PMU's module until its last user is gone.
 *
 * Context: process context; may sleep.
 * Return: the description, to be released with pfmk_pmu_put();
 * ERR_PTR(-ENOENT) if no perf PMU of that name is registered or the name
 * is too long; ERR_PTR(-ENOMEM).
 */
const struct pfmk_pmu_desc *pfmk_dyn_get(const char *name)
{
	struct module *owner;
	struct pfmk_dyn *dyn;
	struct pmu *pmu;
	int type;

	if (!name[0] || strnlen(name, PFMK_PMU_NAME_LEN) >= PFMK_PMU_NAME_LEN)
		return ERR_PTR(-ENOENT);
	pmu = pfmk_perf_pmu_get(name, &type, &owner);
	if (IS_ERR(pmu))
		return ERR_CAST(pmu);

	mutex_lock(&pfmk_dyn_lock);
	list_for_each_entry(dyn, &pfmk_dyn_list, node) {
		if (dyn->pmu == pmu && dyn->type == type &&
		    !strcmp(dyn->name, name)) {
			dyn->users++;
			mutex_unlock(&pfmk_dyn_lock);
			/* The cached description pins the module already. */
			pfmk_perf_pmu_put(owner);
			return &dyn->desc;
		}
	}
	dyn = pfmk_dyn_build(pmu, type, owner, name);
	if (!IS_ERR(dyn))
		list_add(&dyn->node, &pfmk_dyn_list);
	mutex_unlock(&pfmk_dyn_lock);
	if (IS_ERR(dyn)) {
		pfmk_perf_pmu_put(owner);
		return ERR_CAST(dyn);
	}
	return &dyn->desc;
}

/**
 * pfmk_dyn_put() - release a dynamic description
 * @desc: a description of pfmk_dyn_get().
 *
 * The last user frees it and unpins the PMU's module.
 *
 * Context: process context; may sleep.
 */
void pfmk_dyn_put(const struct pfmk_pmu_desc *desc)
{
	struct pfmk_dyn *dyn = pfmk_to_dyn(desc);
	struct module *owner = dyn->desc.owner;
	bool last;

	mutex_lock(&pfmk_dyn_lock);
	last = !--dyn->users;
	if (last)
		list_del(&dyn->node);
	mutex_unlock(&pfmk_dyn_lock);
	if (!last)
		return;
	kfree(dyn->fields);
	kfree_rcu(dyn, rcu);
	/* Not through dyn->pmu: an unbound driver may have freed it. */
	pfmk_perf_pmu_put(owner);
}

/**
 * pfmk_dyn_count_cached() - number of dynamic descriptions in the cache
 *
 * For tests: one per PMU that open contexts use.
 *
 * Context: process context; may sleep.
 * Return: the number.
 */
unsigned int pfmk_dyn_count_cached(void)
{
	struct pfmk_dyn *dyn;
	unsigned int n = 0;

	mutex_lock(&pfmk_dyn_lock);
	list_for_each_entry(dyn, &pfmk_dyn_list, node)
		n++;
	mutex_unlock(&pfmk_dyn_lock);
	return n;
}
EXPORT_SYMBOL_GPL(pfmk_dyn_count_cached);
