// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk's one look into perf's PMU registry: a registered perf PMU by its
 * sysfs name, and the attributes of its sysfs groups.
 *
 * Why this file exists: the kernel exports no lookup of a perf PMU by
 * name to modules (perf_pmu_register() keeps its PMUs in a static list
 * and IDR).  What a module can reach is public: every registered PMU has
 * a device on perf's "event_source" bus, named after the PMU, whose
 * driver data is the struct pmu (perf's pmu_dev_alloc() does
 * dev_set_drvdata(pmu->dev, pmu) in 6.1, 6.12 and 7.2), and the bus is
 * the ->bus of any PMU's device; pfmk takes it from a software event it
 * creates and releases once.  The attributes of a PMU's "format" and
 * "events" groups are device attributes (perf's sysfs ops are those of a
 * device): pfmk reads them by calling their ->show() (7.2:
 * or ->show_const()), as sysfs does, honouring the group's
 * ->is_visible() (or ->is_visible_const()).  Nothing else in pfmk relies on
 * these facts; test-modules/pfmk_kunit_dyn.c checks each of them, so a
 * kernel that changes them fails the suite, not a user.
 *
 * Lifetime: perf_pmu_unregister() waits for an RCU grace period between
 * taking a PMU off its lists and deleting its device (6.1, 6.12 and 7.2
 * alike), so a device found on the bus inside an RCU read-side section
 * has a live struct pmu until the section ends; the lookup pins the PMU's
 * module before it ends.  A PMU that goes away without its module (a
 * driver unbound through sysfs) is caught by pfmk_perf_pmu_alive() at
 * the next load.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "internal.h"

/* perf's "event_source" bus, found once (it is static in perf). */
static typeof(((struct device *)NULL)->bus) pfmk_pmu_bus;
static DEFINE_MUTEX(pfmk_pmu_bus_lock);

/*
 * The bus of a software event's PMU: every PMU pfmk can name sits on it.
 * The event counts nothing (disabled, per task) and is released at once.
 */
static int pfmk_perf_find_bus(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(attr),
		.disabled = 1,
	};
	struct perf_event *event;
	int ret = 0;

	mutex_lock(&pfmk_pmu_bus_lock);
	if (READ_ONCE(pfmk_pmu_bus))
		goto out;
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL,
						 NULL);
	if (IS_ERR(event)) {
		ret = PTR_ERR(event);
		goto out;
	}
	if (event->pmu->dev && event->pmu->dev->bus)
		WRITE_ONCE(pfmk_pmu_bus, event->pmu->dev->bus);
	else
		ret = -ENOENT;
	perf_event_release_kernel(event);
out:
	mutex_unlock(&pfmk_pmu_bus_lock);
	return ret;
}

/**
 * pfmk_perf_pmu_get() - find a registered perf PMU by name and pin it
 * @name: the PMU's sysfs name (/sys/bus/event_source/devices/<name>).
 *
 * Context: process context; may sleep.
 * Return: the PMU, whose module is pinned until pfmk_perf_pmu_put();
 * ERR_PTR(-ENOENT) if no PMU of that name is registered (or its module
 * is going away), or the error creating the probe event gave.
 */
struct pmu *pfmk_perf_pmu_get(const char *name)
{
	struct device *dev;
	struct pmu *pmu;
	int ret;

	ret = pfmk_perf_find_bus();
	if (ret)
		return ERR_PTR(ret);
	/*
	 * The RCU section keeps a PMU found here registered (see above) until
	 * its module is pinned; bus_find_device_by_name() does not sleep.
	 */
	rcu_read_lock();
	dev = bus_find_device_by_name(READ_ONCE(pfmk_pmu_bus), NULL, name);
	pmu = dev ? dev_get_drvdata(dev) : NULL;
	if (pmu && (pmu->dev != dev || !try_module_get(pmu->module)))
		pmu = NULL;
	rcu_read_unlock();
	if (dev)
		put_device(dev);
	return pmu ? pmu : ERR_PTR(-ENOENT);
}

/**
 * pfmk_perf_pmu_put() - unpin a PMU taken with pfmk_perf_pmu_get()
 * @pmu: the PMU.
 *
 * Context: any context.
 */
void pfmk_perf_pmu_put(struct pmu *pmu)
{
	module_put(pmu->module);
}

/**
 * pfmk_perf_pmu_alive() - is a pinned PMU still registered as it was?
 * @pmu: a PMU taken with pfmk_perf_pmu_get().
 * @name: its name.
 * @type: its perf type when it was taken.
 *
 * Context: process context; may sleep.
 * Return: true if the PMU of that name is @pmu, with type @type.
 */
bool pfmk_perf_pmu_alive(struct pmu *pmu, const char *name, int type)
{
	struct pmu *now = pfmk_perf_pmu_get(name);
	bool alive;

	if (IS_ERR(now))
		return false;
	alive = now == pmu && now->type == type;
	pfmk_perf_pmu_put(now);
	return alive;
}

/* An attribute's mode as sysfs shows it (0: hidden). */
static umode_t pfmk_perf_attr_mode(struct pmu *pmu,
				   const struct attribute_group *g,
				   struct attribute *a, int i)
{
	if (g->is_visible)
		return g->is_visible(&pmu->dev->kobj, a, i);
#ifdef PFMK_HAVE_SYSFS_CONST
	if (g->is_visible_const)
		return g->is_visible_const(&pmu->dev->kobj, a, i);
#endif
	return a->mode;
}

/* An attribute's text as sysfs shows it, or a negative errno. */
static ssize_t pfmk_perf_attr_show(struct pmu *pmu, struct attribute *a,
				   char *page)
{
	struct device_attribute *dattr;

	dattr = container_of(a, struct device_attribute, attr);
	if (dattr->show)
		return dattr->show(pmu->dev, dattr, page);
#ifdef PFMK_HAVE_SYSFS_CONST
	if (dattr->show_const)
		return dattr->show_const(pmu->dev, dattr, page);
#endif
	return -EIO;
}

static int pfmk_perf_group_walk(struct pmu *pmu,
				const struct attribute_group **groups,
				const char *group, char *page,
				int (*fn)(void *arg, const char *name,
					  const char *val),
				void *arg)
{
	const struct attribute_group *g;
	struct attribute *a;
	unsigned int i;
	umode_t mode;
	ssize_t len;
	int ret;

	for (; groups && *groups; groups++) {
		g = *groups;
		if (!g->name || strcmp(g->name, group) || !g->attrs)
			continue;
		for (i = 0; g->attrs[i]; i++) {
			a = g->attrs[i];
			mode = pfmk_perf_attr_mode(pmu, g, a, i);
			if (!(mode & 0444))
				continue;
			memset(page, 0, PAGE_SIZE);
			len = pfmk_perf_attr_show(pmu, a, page);
			if (len <= 0 || len >= PAGE_SIZE)
				continue;
			page[len] = 0;
			strim(page);
			ret = fn(arg, a->name, page);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/**
 * pfmk_perf_pmu_attrs() - read the attributes of one of a PMU's groups
 * @pmu: a PMU taken with pfmk_perf_pmu_get().
 * @group: the group's name: "format" or "events".
 * @fn: called with @arg, the attribute's name and its value (trimmed);
 *	a non-zero return ends the walk with that value.
 * @arg: passed to @fn.
 *
 * Walks the PMU's ->attr_groups, then its ->attr_update (which perf adds
 * to the same sysfs groups), skipping what ->is_visible() hides, as sysfs
 * does: an attribute of both comes twice, ->attr_update's last.
 *
 * Context: process context; may sleep.
 * Return: 0, -ENOMEM, or @fn's first non-zero return.
 */
int pfmk_perf_pmu_attrs(struct pmu *pmu, const char *group,
			int (*fn)(void *arg, const char *name, const char *val),
			void *arg)
{
	char *page;
	int ret;

	if (!pmu->dev)
		return 0;
	/* sysfs_emit() insists on a page-aligned buffer. */
	page = (char *)__get_free_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	ret = pfmk_perf_group_walk(pmu, pmu->attr_groups, group, page, fn, arg);
	if (!ret)
		ret = pfmk_perf_group_walk(pmu, pmu->attr_update, group, page,
					   fn, arg);
	free_page((unsigned long)page);
	return ret;
}
