// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk's one look into perf's PMU registry: a registered perf PMU by its
 * sysfs name, the attributes of its sysfs groups, and the name of an
 * event's PMU.
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
 * these facts; the pfmk_dyn_glue and pfmk_encode suites
 * (test-modules/pfmk_kunit_dyn_glue.c, pfmk_kunit_encode.c) check each of
 * them, so a kernel that changes them fails a suite, not a user.
 *
 * Lifetime: nothing perf exports keeps a struct pmu alive.  Its driver
 * may free it as soon as perf_pmu_unregister() returns (a module's exit,
 * or a device unbound while the module stays), and that deletes the PMU's
 * device first (device_del()), which calls the bus's notifiers.  So every
 * use of a struct pmu found on the bus (the lookup and the pin of its
 * module, calls of its sysfs callbacks) runs under pfmk_pmu_reg_lock, and
 * a bus notifier takes that lock at BUS_NOTIFY_DEL_DEVICE: the deletion,
 * and the driver's free after it, wait for a use in progress.  From then
 * until BUS_NOTIFY_REMOVED_DEVICE the device is marked dying here and a
 * lookup does not find it.  Outside the lock pfmk keeps the pointer only
 * to compare it (pfmk_perf_pmu_alive(), pfmk_perf_pmu_check_event()) and
 * the module it pinned.  pfmk_pmu_reg_lock is innermost: perf may delete
 * a PMU's device under its pmus_lock (6.1's unregister, the error paths
 * of registration), so nothing here creates a perf event or registers a
 * PMU with it held.  It is one lock for every PMU: a device deletion
 * waits for a walk of another PMU's attributes, whose callbacks (format
 * and event strings, in every driver read) take no lock.  Not covered:
 * a device_add() that fails after putting the device on the bus removes
 * it without a notification (ENOMEM during a registration); and more
 * than PFMK_PMU_DYING_MAX deletions at once are counted, not named.
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
#include <linux/sched/mm.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "internal.h"

/*
 * The fields of perf's structures this file reads, each with the type it
 * relies on: a kernel that changes one breaks the build here.  Their
 * meaning is checked by the pfmk_dyn_glue suite (task_ctx_nr:
 * glue_sw_context; the device and its driver data: glue_event_dev and
 * glue_lookup_by_name;
 * ->module: glue_pins_module) and by the dynamic descriptions' cases
 * (->type, ->name; ->attr_groups and ->attr_update: the formats and
 * events they describe).
 */
#define pfmk_pmu_field(type, member, t) \
	static_assert(__same_type(typeof_member(struct type, member), t))

pfmk_pmu_field(perf_event, pmu, struct pmu *);
pfmk_pmu_field(pmu, dev, struct device *);
pfmk_pmu_field(pmu, module, struct module *);
pfmk_pmu_field(pmu, name, const char *);
pfmk_pmu_field(pmu, type, int);
pfmk_pmu_field(pmu, task_ctx_nr, int);
pfmk_pmu_field(pmu, attr_groups, const struct attribute_group **);
pfmk_pmu_field(pmu, attr_update, const struct attribute_group **);

/*
 * perf's "event_source" bus, found once (it is static in perf).  Typed
 * as struct device's ->bus is, which is the compat probe: the bus became
 * a const struct bus_type * in 6.4, and typeof() follows the kernel
 * being built against without a version test.
 */
static typeof(((struct device *)NULL)->bus) pfmk_pmu_bus;
static DEFINE_MUTEX(pfmk_pmu_bus_lock);

/*
 * Held across every use of a struct pmu found on the bus, and by the bus
 * notifier when a PMU device is deleted (see the top of this file).
 * Protects the dying devices below.
 */
static DEFINE_MUTEX(pfmk_pmu_reg_lock);

/* Devices between BUS_NOTIFY_DEL_DEVICE and BUS_NOTIFY_REMOVED_DEVICE. */
#define PFMK_PMU_DYING_MAX	8
static struct device *pfmk_pmu_dying[PFMK_PMU_DYING_MAX];
/* Dying devices that did not fit: every lookup fails meanwhile. */
static unsigned int pfmk_pmu_dying_lost;

static int pfmk_pmu_bus_event(struct notifier_block *nb,
			      unsigned long action, void *data)
{
	struct device *dev = data;
	unsigned int i;

	if (action != BUS_NOTIFY_DEL_DEVICE &&
	    action != BUS_NOTIFY_REMOVED_DEVICE)
		return NOTIFY_DONE;
	mutex_lock(&pfmk_pmu_reg_lock);
	if (action == BUS_NOTIFY_DEL_DEVICE) {
		for (i = 0; i < PFMK_PMU_DYING_MAX && pfmk_pmu_dying[i]; i++)
			;
		if (i < PFMK_PMU_DYING_MAX)
			pfmk_pmu_dying[i] = dev;
		else
			pfmk_pmu_dying_lost++;
	} else {
		for (i = 0; i < PFMK_PMU_DYING_MAX; i++)
			if (pfmk_pmu_dying[i] == dev)
				break;
		if (i < PFMK_PMU_DYING_MAX)
			pfmk_pmu_dying[i] = NULL;
		else if (pfmk_pmu_dying_lost)
			pfmk_pmu_dying_lost--;
	}
	mutex_unlock(&pfmk_pmu_reg_lock);
	return NOTIFY_DONE;
}

static struct notifier_block pfmk_pmu_bus_nb = {
	.notifier_call = pfmk_pmu_bus_event,
};

/*
 * The bus of a software event's PMU: every PMU pfmk can name sits on it.
 * The event counts nothing (disabled, per task) and is released at once.
 * The bus notifier is registered with it.
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

	if (READ_ONCE(pfmk_pmu_bus))
		return 0;
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
		ret = bus_register_notifier(event->pmu->dev->bus,
					    &pfmk_pmu_bus_nb);
	else
		ret = -ENOENT;
	if (!ret)
		WRITE_ONCE(pfmk_pmu_bus, event->pmu->dev->bus);
	perf_event_release_kernel(event);
out:
	mutex_unlock(&pfmk_pmu_bus_lock);
	return ret;
}

/* Is @dev being deleted?  Called with pfmk_pmu_reg_lock held. */
static bool pfmk_pmu_dev_dying(const struct device *dev)
{
	unsigned int i;

	lockdep_assert_held(&pfmk_pmu_reg_lock);
	if (pfmk_pmu_dying_lost)
		return true;
	for (i = 0; i < PFMK_PMU_DYING_MAX; i++)
		if (pfmk_pmu_dying[i] == dev)
			return true;
	return false;
}

/*
 * The PMU of that name, or NULL; live until pfmk_pmu_reg_lock is
 * released.
 */
static struct pmu *pfmk_perf_pmu_find(const char *name)
{
	struct device *dev;
	struct pmu *pmu = NULL;

	lockdep_assert_held(&pfmk_pmu_reg_lock);
	dev = bus_find_device_by_name(READ_ONCE(pfmk_pmu_bus), NULL, name);
	if (!dev)
		return NULL;
	if (!pfmk_pmu_dev_dying(dev)) {
		pmu = dev_get_drvdata(dev);
		if (pmu && pmu->dev != dev)
			pmu = NULL;
	}
	put_device(dev);
	return pmu;
}

/**
 * pfmk_perf_pmu_get() - find a registered perf PMU by name and pin it
 * @name: the PMU's sysfs name (/sys/bus/event_source/devices/<name>).
 * @type: output: its perf type.
 * @owner: output: its module, now pinned.
 *
 * Context: process context; may sleep.
 * Return: the PMU, whose module is pinned until pfmk_perf_pmu_put() of
 * that module; ERR_PTR(-ENOENT) if no PMU of that name is registered (or
 * it or its module is going away), or the error finding perf's bus gave.
 * The PMU itself may go away meanwhile (a driver unbound): only compare
 * the pointer, or hand it to pfmk_perf_pmu_alive() and
 * pfmk_perf_pmu_attrs(), which check it again.
 */
struct pmu *pfmk_perf_pmu_get(const char *name, int *type,
			      struct module **owner)
{
	struct pmu *pmu;
	int ret;

	ret = pfmk_perf_find_bus();
	if (ret)
		return ERR_PTR(ret);
	mutex_lock(&pfmk_pmu_reg_lock);
	pmu = pfmk_perf_pmu_find(name);
	if (pmu && !try_module_get(pmu->module))
		pmu = NULL;
	if (pmu) {
		*type = pmu->type;
		*owner = pmu->module;
	}
	mutex_unlock(&pfmk_pmu_reg_lock);
	return pmu ? pmu : ERR_PTR(-ENOENT);
}

/**
 * pfmk_perf_pmu_put() - unpin a PMU's module pinned by pfmk_perf_pmu_get()
 * @owner: the PMU's module, as pfmk_perf_pmu_get() found it (NULL for a
 *	built-in PMU).
 *
 * Context: any context.
 */
void pfmk_perf_pmu_put(struct module *owner)
{
	module_put(owner);
}

/**
 * pfmk_perf_pmu_alive() - is a PMU still registered as it was?
 * @pmu: a PMU of pfmk_perf_pmu_get(), maybe gone since.
 * @name: its name.
 * @type: its perf type when it was taken.
 *
 * Context: process context; may sleep.
 * Return: true if the PMU of that name is @pmu, with type @type.
 */
bool pfmk_perf_pmu_alive(struct pmu *pmu, const char *name, int type)
{
	struct pmu *now;
	bool alive;

	if (pfmk_perf_find_bus())
		return false;
	mutex_lock(&pfmk_pmu_reg_lock);
	now = pfmk_perf_pmu_find(name);
	alive = now && now == pmu && now->type == type;
	mutex_unlock(&pfmk_pmu_reg_lock);
	return alive;
}

/**
 * pfmk_perf_pmu_check_event() - is a new event on the PMU it was meant for?
 * @pmu: a PMU of pfmk_perf_pmu_get(), maybe gone since.
 * @name: its name.
 * @event: an event just created for it, disabled.
 * @sw: output: the PMU is scheduled as software (perf_sw_context): it
 *	may call overflow handlers with interrupts on.
 *
 * perf hands a freed type number to the next PMU registered (6.12 and
 * 7.2 free it before the old PMU's device goes): a check by name before
 * the event is created cannot tell, the event's own PMU can: another
 * PMU with @pmu's type.  (Another PMU of another type is perf's routing
 * of an event @pmu declined, as cpu_clock takes the software type's
 * config 0.)  7.2 detaches the events of an unregistered PMU (->pmu
 * NULL): refused too.
 *
 * Context: process context; may sleep.
 * Return: 0, or -EOPNOTSUPP if @event is not on @pmu or @pmu is no longer
 * the PMU of that name.
 */
int pfmk_perf_pmu_check_event(struct pmu *pmu, const char *name,
			      struct perf_event *event, bool *sw)
{
	struct pmu *ep;
	int ret = -EOPNOTSUPP;

	if (pfmk_perf_find_bus())
		return ret;
	mutex_lock(&pfmk_pmu_reg_lock);
	ep = READ_ONCE(event->pmu);
	/*
	 * perf may hand an event to another PMU than its type's when that
	 * one declines it ("software/config=0/" is cpu_clock's): fine, as
	 * long as the other PMU does not hold the type itself now.
	 */
	if (ep && pfmk_perf_pmu_find(name) == pmu &&
	    (ep == pmu || ep->type != pmu->type)) {
		*sw = ep->task_ctx_nr == perf_sw_context;
		ret = 0;
	}
	mutex_unlock(&pfmk_pmu_reg_lock);
	return ret;
}

/**
 * pfmk_perf_event_pmu_name() - the name of the perf PMU an event is on
 * @event: an event pfmk created and holds.
 *
 * No perf call gives an event's PMU or its name, so this reads
 * event->pmu->name, the sysfs name its driver set before
 * perf_pmu_register() (6.1, 6.12 and 7.2).  An event holds its PMU's
 * module, so the string stays while pfmk holds @event; 7.2 detaches the
 * events of an unregistered PMU (->pmu NULL), which have no name here.
 * The pfmk_aux suite (test-modules/pfmk_kunit_aux.c) fails if the name
 * moves: its cases attach buffers to events of "pfmk_aux_test", and
 * aux_not_aux_pmu checks that another PMU's event is refused.
 *
 * Context: any context.
 * Return: the PMU's name, or NULL if @event has no PMU or its PMU no name.
 */
const char *pfmk_perf_event_pmu_name(const struct perf_event *event)
{
	const struct pmu *pmu = READ_ONCE(event->pmu);

	return pmu ? pmu->name : NULL;
}

/**
 * pfmk_perf_pmu_exit() - stop watching perf's bus
 *
 * Context: module exit.
 */
void pfmk_perf_pmu_exit(void)
{
	if (pfmk_pmu_bus)
		bus_unregister_notifier(pfmk_pmu_bus, &pfmk_pmu_bus_nb);
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
			ret = fn(arg, a->name, strim(page));
			if (ret)
				return ret;
		}
	}
	return 0;
}

/**
 * pfmk_perf_pmu_attrs() - read the attributes of one of a PMU's groups
 * @pmu: a PMU of pfmk_perf_pmu_get(), maybe gone since.
 * @name: its name.
 * @group: the group's name: "format" or "events".
 * @fn: called with @arg, the attribute's name and its value (trimmed);
 *	a non-zero return ends the walk with that value.  It runs under
 *	pfmk_pmu_reg_lock, I/O reclaim off: it must take no lock and create
 *	no perf event.
 * @arg: passed to @fn.
 *
 * Walks the PMU's ->attr_groups, then its ->attr_update (which perf adds
 * to the same sysfs groups), skipping what ->is_visible() hides, as sysfs
 * does: an attribute of both comes twice, ->attr_update's last.  The
 * PMU is looked up again by @name first and cannot go away during the
 * walk.
 *
 * Context: process context; may sleep.
 * Return: 0, -ENODEV if @pmu is no longer the PMU of that name, -ENOMEM,
 * or @fn's first non-zero return.
 */
int pfmk_perf_pmu_attrs(struct pmu *pmu, const char *name, const char *group,
			int (*fn)(void *arg, const char *name, const char *val),
			void *arg)
{
	unsigned int noio;
	char *page;
	int ret;

	/* sysfs_emit() insists on a page-aligned buffer. */
	page = (char *)__get_free_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	ret = pfmk_perf_find_bus();
	if (ret)
		goto out;
	mutex_lock(&pfmk_pmu_reg_lock);
	/* device_del() waits on the lock with I/O reclaim off: so do we. */
	noio = memalloc_noio_save();
	if (pfmk_perf_pmu_find(name) != pmu)
		ret = -ENODEV;
	else if (pmu->dev)
		ret = pfmk_perf_group_walk(pmu, pmu->attr_groups, group, page,
					   fn, arg);
	if (!ret && pmu->dev)
		ret = pfmk_perf_group_walk(pmu, pmu->attr_update, group, page,
					   fn, arg);
	memalloc_noio_restore(noio);
	mutex_unlock(&pfmk_pmu_reg_lock);
out:
	free_page((unsigned long)page);
	return ret;
}
