// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_dyn_kunit.ko: its perf PMU, "pfmk_kunit_fmt", the helpers its
 * suites share, and the module's init and exit (pfmk_kunit_dyn.h).
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
#include <pfmk/encode.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_dyn.h>

#include "pfmk_kunit.h"
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

int dynt_init(struct kunit *test)
{
	struct dynt_priv *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	init_completion(&p->done);
	test->priv = p;
	return 0;
}

void dynt_exit(struct kunit *test)
{
	struct dynt_priv *p = test->priv;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p->descs); i++)
		if (p->descs[i])
			KUNIT_EXPECT_EQ(test, pfmk_close(p->descs[i]), 0);
}

/* Create a context of @req, which must succeed; closed by dynt_close(). */
void *dynt_create(struct kunit *test, struct pfarg_ctx *req)
{
	struct dynt_priv *p = test->priv;
	void *desc = NULL;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, pfmk_create_context(req, NULL, 0, &p->done,
						  &desc, NULL), 0);
	for (i = 0; i < ARRAY_SIZE(p->descs); i++) {
		if (!p->descs[i]) {
			p->descs[i] = desc;
			return desc;
		}
	}
	pfmk_close(desc);
	KUNIT_FAIL(test, "too many contexts");
	return NULL;
}

void dynt_close(struct kunit *test, void *desc)
{
	struct dynt_priv *p = test->priv;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p->descs); i++)
		if (p->descs[i] == desc)
			p->descs[i] = NULL;
	KUNIT_EXPECT_EQ(test, pfmk_close(desc), 0);
}

/*
 * A context counting @events (event i on PMD i), created from a zeroed
 * request: pfmk_encode() picks the description.  Loaded on @cpu, not
 * started.
 */
void *dynt_events(struct kunit *test, const char * const *events,
		  unsigned int n, int cpu)
{
	unsigned int max = n * PFMK_ENCODE_MAX_PMCS, count;
	struct pfarg_load load;
	struct pfarg_pmc *pmcs;
	struct pfarg_ctx req;
	void *desc;

	pmcs = kunit_kcalloc(test, max, sizeof(*pmcs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pmcs);
	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmkt_encode_events(&req, events, n, pmcs, max,
						  &count), 0);
	desc = dynt_create(test, &req);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmcs, count), 0);
	pfmkt_load_req(&load, cpu, 0);
	KUNIT_ASSERT_EQ(test, pfmk_load_context(desc, &load), 0);
	return desc;
}

u64 dynt_read(struct kunit *test, void *desc, u16 reg)
{
	struct pfarg_pmd pmd;

	pfmkt_pmd_req(&pmd, 0, reg, 0);
	KUNIT_EXPECT_EQ(test, pfmk_read_pmds(desc, &pmd, 1), 0);
	return pmd.reg_value;
}

static int __init pfmk_dyn_kunit_init(void)
{
	return 0;
}
module_init(pfmk_dyn_kunit_init);

static void __exit pfmk_dyn_kunit_exit(void)
{
	if (fmt_registered)
		perf_pmu_unregister(&fmt_pmu);
}
module_exit(pfmk_dyn_kunit_exit);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk KUnit tests of dynamic PMU descriptions and pfmk_encode()");
MODULE_LICENSE("GPL");
