// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_dyn_kunit.ko: its perf PMU, "pfmk_kunit_fmt", and the module's
 * init and exit (pfmk_kunit_dyn.h).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_dyn.h>

#include "pfmk_kunit_dyn.h"

/* The PMU of this module: every event is accepted, its attr recorded. */
DEFINE_SPINLOCK(fmt_lock);
struct perf_event_attr fmt_last;
unsigned int fmt_inits;

static int fmt_event_init(struct perf_event *event)
{
	if (event->attr.type != fmt_pmu.type)
		return -ENOENT;
	if (event->cpu < 0)
		return -EINVAL;
	/* "home": counts on the first online CPU, as uncore PMUs move theirs. */
	if (event->attr.config2 & BIT_ULL(63))
		event->cpu = cpumask_first(cpu_online_mask);
	spin_lock(&fmt_lock);
	fmt_last = event->attr;
	fmt_inits++;
	spin_unlock(&fmt_lock);
	return 0;
}

static int fmt_add(struct perf_event *event, int flags)
{
	return 0;
}

static void fmt_nop(struct perf_event *event, int flags)
{
}

static void fmt_read(struct perf_event *event)
{
}

PMU_FORMAT_ATTR(event, "config:0-7");
PMU_FORMAT_ATTR(umask, "config:8-15");
PMU_FORMAT_ATTR(split, "config:16-19,32-35");
PMU_FORMAT_ATTR(flag, "config:63");
PMU_FORMAT_ATTR(ext, "config1:0-31");
PMU_FORMAT_ATTR(hi, "config2:40-47");
#ifdef PFMK_HAVE_ATTR_CONFIG3
PMU_FORMAT_ATTR(ext3, "config3:0-7");
#endif
PMU_FORMAT_ATTR(hidden, "config:20-23");
PMU_FORMAT_ATTR(bogus, "cnfig:0-3");
PMU_FORMAT_ATTR(upd, "config2:0-3");
PMU_FORMAT_ATTR(home, "config2:63");

struct attribute *fmt_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_umask.attr,
	&format_attr_split.attr,
	&format_attr_flag.attr,
	&format_attr_ext.attr,
	&format_attr_hi.attr,
#ifdef PFMK_HAVE_ATTR_CONFIG3
	&format_attr_ext3.attr,
#endif
	&format_attr_hidden.attr,
	&format_attr_bogus.attr,
	&format_attr_home.attr,
	NULL,
};

static umode_t fmt_format_visible(struct kobject *kobj, struct attribute *a,
				  int i)
{
	return a == &format_attr_hidden.attr ? 0 : a->mode;
}

static const struct attribute_group fmt_format_group = {
	.name = "format",
	.attrs = fmt_format_attrs,
	.is_visible = fmt_format_visible,
};

static ssize_t fmt_alias_show(struct device *dev, struct device_attribute *a,
			      char *page)
{
	struct perf_pmu_events_attr *pa =
		container_of(a, struct perf_pmu_events_attr, attr);

	return sysfs_emit(page, "%s\n", pa->event_str);
}

#define FMT_ALIAS(_name, _str)						\
	static struct perf_pmu_events_attr fmt_alias_##_name = {	\
		.attr = __ATTR(_name, 0444, fmt_alias_show, NULL),	\
		.event_str = _str,					\
	}

FMT_ALIAS(ev_a, "event=0x11,umask=0x1");
FMT_ALIAS(ev_b, "event=0x3c");
FMT_ALIAS(ev_wide, "event=0x1ff");
FMT_ALIAS(ev_bad, "nosuch=1");

static struct attribute *fmt_events_attrs[] = {
	&fmt_alias_ev_a.attr.attr,
	&fmt_alias_ev_b.attr.attr,
	&fmt_alias_ev_wide.attr.attr,
	&fmt_alias_ev_bad.attr.attr,
	NULL,
};

static const struct attribute_group fmt_events_group = {
	.name = "events",
	.attrs = fmt_events_attrs,
};

static const struct attribute_group *fmt_groups[] = {
	&fmt_format_group,
	&fmt_events_group,
	NULL,
};

static struct attribute *fmt_update_attrs[] = {
	&format_attr_upd.attr,
	NULL,
};

static const struct attribute_group fmt_update_group = {
	.name = "format",
	.attrs = fmt_update_attrs,
};

static const struct attribute_group *fmt_update[] = {
	&fmt_update_group,
	NULL,
};

struct pmu fmt_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.attr_groups	= fmt_groups,
	.attr_update	= fmt_update,
	.event_init	= fmt_event_init,
	.add		= fmt_add,
	.del		= fmt_nop,
	.start		= fmt_nop,
	.stop		= fmt_nop,
	.read		= fmt_read,
};

/*
 * The PMU is registered by the first suite that runs (6.1 runs a module's
 * suites before its init function, later kernels after) and unregistered
 * at module exit: a struct pmu is registered once.
 */
static DEFINE_MUTEX(fmt_reg_lock);
static bool fmt_registered;

int dynt_suite_init(struct kunit_suite *suite)
{
	int ret = 0;

	mutex_lock(&fmt_reg_lock);
	if (!fmt_registered) {
		ret = perf_pmu_register(&fmt_pmu, FMT_PMU_NAME, -1);
		fmt_registered = !ret;
	}
	mutex_unlock(&fmt_reg_lock);
	return ret;
}

static void __exit pfmk_dyn_kunit_exit(void)
{
	if (fmt_registered)
		perf_pmu_unregister(&fmt_pmu);
}
module_exit(pfmk_dyn_kunit_exit);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk KUnit tests of dynamic PMU descriptions and pfmk_encode()");
MODULE_LICENSE("GPL");
