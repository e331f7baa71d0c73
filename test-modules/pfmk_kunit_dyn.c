// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suites of dynamic PMU descriptions and pfmk_encode():
 *
 * pfmk_dyn_glue     what pmu/perf_pmu.c relies on in the kernel (a PMU
 *                   found by name on perf's bus, its driver data, its
 *                   format attributes): fails if a kernel changes it;
 * pfmk_dyn_format   the "format" attribute parser;
 * pfmk_encode       the string syntax, every form and every error, on a
 *                   PMU of this module ("pfmk_kunit_fmt") whose format
 *                   has multi-range fields, fields in config1..config3,
 *                   a hidden field, an ->attr_update field and aliases;
 * pfmk_dyn          dynamic descriptions through the KAPI: the attr perf
 *                   gets, reserved bits, the shared cache, the module
 *                   pin, and exact or measured counts on PMUs nobody
 *                   here wrote (msr, tracepoints) and on pfmk_test.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <pfmk/aux.h>
#include <pfmk/encode.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_dyn.h>
#include <pfmk/pmu_generic.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "pfmk_kunit.h"
#include "pfmk_test_aux_pmu.h"
#include "pfmk_test_pmu.h"

#define FMT_PMU_NAME	"pfmk_kunit_fmt"
/* Config words of its events: config, config1, config2 (, config3). */
#ifdef PFMK_HAVE_ATTR_CONFIG3
#define FMT_WORDS	4U
#else
#define FMT_WORDS	3U
#endif

/* The PMU of this module: every event is accepted, its attr recorded. */
static DEFINE_SPINLOCK(fmt_lock);
static struct perf_event_attr fmt_last;
static unsigned int fmt_inits;
static struct pmu fmt_pmu;

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

static struct attribute *fmt_format_attrs[] = {
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

static struct pmu fmt_pmu = {
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

static int dynt_suite_init(struct kunit_suite *suite)
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

/* The CPU loads go to: the last online one, as pfmk_kunit's pfmkt_cpu(). */
static int dynt_cpu(void)
{
	return cpumask_last(cpu_online_mask);
}

/* Per-test state: the contexts to close if the test ends early. */
struct dynt_priv {
	struct completion	done;
	void			*descs[4];
};

static int dynt_init(struct kunit *test)
{
	struct dynt_priv *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	init_completion(&p->done);
	test->priv = p;
	return 0;
}

static void dynt_exit(struct kunit *test)
{
	struct dynt_priv *p = test->priv;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p->descs); i++)
		if (p->descs[i])
			KUNIT_EXPECT_EQ(test, pfmk_close(p->descs[i]), 0);
}

/* Create a context of @req, which must succeed; closed by dynt_close(). */
static void *dynt_create(struct kunit *test, struct pfarg_ctx *req)
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

static void dynt_close(struct kunit *test, void *desc)
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
static void *dynt_events(struct kunit *test, const char * const *events,
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

static u64 dynt_read(struct kunit *test, void *desc, u16 reg)
{
	struct pfarg_pmd pmd;

	pfmkt_pmd_req(&pmd, 0, reg, 0);
	KUNIT_EXPECT_EQ(test, pfmk_read_pmds(desc, &pmd, 1), 0);
	return pmd.reg_value;
}

/* ---- pfmk_dyn_glue: what pmu/perf_pmu.c relies on ---- */

/*
 * A software event's PMU has a device on a bus where its name finds it,
 * with the struct pmu as driver data: the lookup of pmu/perf_pmu.c.
 */
static void glue_bus_lookup(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(attr),
		.disabled = 1,
	};
	struct perf_event *event;
	struct device *dev;

	event = perf_event_create_kernel_counter(&attr, -1, current, NULL,
						 NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	KUNIT_EXPECT_NOT_NULL(test, event->pmu->dev);
	if (event->pmu->dev) {
		KUNIT_EXPECT_NOT_NULL(test, event->pmu->dev->bus);
		KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(event->pmu->dev),
				    (void *)event->pmu);
		dev = bus_find_device_by_name(event->pmu->dev->bus, NULL,
					      FMT_PMU_NAME);
		KUNIT_EXPECT_NOT_NULL(test, dev);
		if (dev) {
			KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(dev),
					    (void *)&fmt_pmu);
			KUNIT_EXPECT_PTR_EQ(test, fmt_pmu.dev, dev);
			put_device(dev);
		}
	}
	perf_event_release_kernel(event);
}

/* A format attribute is a device attribute whose show() gives its text. */
static void glue_format_show(struct kunit *test)
{
	struct device_attribute *da =
		container_of(fmt_format_attrs[2], struct device_attribute,
			     attr);
	char *page = (char *)__get_free_page(GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_GT(test, da->show(fmt_pmu.dev, da, page), 0);
	KUNIT_EXPECT_STREQ(test, strim(page), "config:16-19,32-35");
	free_page((unsigned long)page);
}

/* Dynamic descriptions pin the PMU's module (pmu->module). */
static void glue_pins_module(struct kunit *test)
{
	int before = module_refcount(THIS_MODULE);
	struct pfarg_ctx req;
	void *desc;

	pfmkt_ctx_req(&req, FMT_PMU_NAME, 0, false);
	desc = dynt_create(test, &req);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), before + 1);
	dynt_close(test, desc);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), before);
}

static struct kunit_case glue_cases[] = {
	KUNIT_CASE(glue_bus_lookup),
	KUNIT_CASE(glue_format_show),
	KUNIT_CASE(glue_pins_module),
	{}
};

static struct kunit_suite dyn_glue_suite = {
	.name = "pfmk_dyn_glue",
	.suite_init = dynt_suite_init,
	.init = dynt_init,
	.exit = dynt_exit,
	.test_cases = glue_cases,
};

/* ---- pfmk_dyn_format: the format parser ---- */

struct fmt_case {
	const char	*val;
	int		ret;
	unsigned int	word;
	u64		mask;
};

static const struct fmt_case fmt_cases[] = {
	{ "config:0-7", 0, 0, 0xff },
	{ "config:0", 0, 0, 1 },
	{ "config:63", 0, 0, BIT_ULL(63) },
	{ "config:0-63", 0, 0, ~0ULL },
	{ "config:0-7,32-35", 0, 0, 0xf000000ffULL },
	{ "config:1,3,5", 0, 0, 0x2a },
	{ "config1:0", 0, 1, 1 },
	{ "config2:40-47", 0, 2, 0xff0000000000ULL },
#ifdef PFMK_HAVE_ATTR_CONFIG3
	{ "config3:0-7", 0, 3, 0xff },
#else
	{ "config3:0-7", -EINVAL },
#endif
	{ "config4:0", -EINVAL },
	{ "config:", -EINVAL },
	{ "config:7-0", -EINVAL },
	{ "config:64", -EINVAL },
	{ "config:0-64", -EINVAL },
	{ "config:4294967296", -EINVAL },	/* wraps to bit 0 in %u */
	{ "config:0-4294967303", -EINVAL },	/* wraps to bit 7 */
	{ "config:0-7,4", -EINVAL },
	{ "config:0-7,", -EINVAL },
	{ "config:-1", -EINVAL },
	{ "config:a", -EINVAL },
	{ "cnfig:0", -EINVAL },
	{ "", -EINVAL },
};

static void fmt_case_desc(const struct fmt_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->val);
}

KUNIT_ARRAY_PARAM(fmt, fmt_cases, fmt_case_desc);

static void format_parse(struct kunit *test)
{
	const struct fmt_case *c = test->param_value;
	unsigned int word = 99;
	u64 mask = 0;

	KUNIT_ASSERT_EQ(test, pfmk_dyn_parse_format(c->val, &word, &mask),
			c->ret);
	if (c->ret)
		return;
	KUNIT_EXPECT_EQ(test, word, c->word);
	KUNIT_EXPECT_EQ(test, mask, c->mask);
}

static struct kunit_case format_cases[] = {
	KUNIT_CASE_PARAM(format_parse, fmt_gen_params),
	{}
};

static struct kunit_suite dyn_format_suite = {
	.name = "pfmk_dyn_format",
	.test_cases = format_cases,
};

/* ---- pfmk_encode: the syntax ---- */

#define W(i)		PFMK_DYN_PMC(0, PFMK_DYN_CONFIG + (i))
#define XU		PFMK_DYN_XUSER
#define XK		PFMK_DYN_XKERN
#define XH		PFMK_DYN_XHV

/**
 * struct enc_case - an event string and the PMC values it must give
 * @event: the string, encoded for PMD 0 of a zeroed request.
 * @ctx: the ctx_pmu_name it must set.
 * @ctrl: PMC 0's value.
 * @config: the config words (PMU events), by PMC: those the PMU has.
 */
struct enc_case {
	const char	*event;
	const char	*ctx;
	u64		ctrl;
	u64		config[4];
};

#define GEN(t, c)	(PFMK_GEN_PMC(t, c))
#define DYN		PFMK_DYN_EN

static const struct enc_case enc_cases[] = {
	{ "cycles", "", GEN(0, PERF_COUNT_HW_CPU_CYCLES) },
	{ "cpu-cycles", "", GEN(0, PERF_COUNT_HW_CPU_CYCLES) },
	{ "instructions", "", GEN(0, PERF_COUNT_HW_INSTRUCTIONS) },
	{ "cache-misses", "", GEN(0, PERF_COUNT_HW_CACHE_MISSES) },
	{ "branch-misses", "", GEN(0, PERF_COUNT_HW_BRANCH_MISSES) },
	{ "ref-cycles", "", GEN(0, PERF_COUNT_HW_REF_CPU_CYCLES) },
	{ "cpu-clock", "", GEN(1, PERF_COUNT_SW_CPU_CLOCK) },
	{ "task-clock", "", GEN(1, PERF_COUNT_SW_TASK_CLOCK) },
	{ "context-switches", "", GEN(1, PERF_COUNT_SW_CONTEXT_SWITCHES) },
	{ "cs", "", GEN(1, PERF_COUNT_SW_CONTEXT_SWITCHES) },
	{ "cpu-migrations", "", GEN(1, PERF_COUNT_SW_CPU_MIGRATIONS) },
	{ "page-faults", "", GEN(1, PERF_COUNT_SW_PAGE_FAULTS) },
	{ "major-faults", "", GEN(1, PERF_COUNT_SW_PAGE_FAULTS_MAJ) },
	{ "L1-dcache-loads", "", GEN(3, 0) },
	{ "L1-dcache-load-misses", "", GEN(3, 0x10000) },
	{ "LLC-store-misses", "", GEN(3, 0x10102) },
	{ "L1-icache-prefetches", "", GEN(3, 0x201) },
	{ "dTLB-load-misses", "", GEN(3, 0x10003) },
	{ "branch-loads", "", GEN(3, 5) },
	{ "node-stores", "", GEN(3, 0x106) },
	{ "cycles:u", "", GEN(0, 0) | PFMK_GEN_XKERN | PFMK_GEN_XHV },
	{ "cycles:k", "", GEN(0, 0) | PFMK_GEN_XUSER | PFMK_GEN_XHV },
	{ "cycles:uk", "", GEN(0, 0) | PFMK_GEN_XHV },
	{ "cpu-clock:ukh", "", GEN(1, 0) },
	{ FMT_PMU_NAME "//", FMT_PMU_NAME, DYN, { 0 } },
	{ FMT_PMU_NAME "//k", FMT_PMU_NAME, DYN | XU | XH, { 0 } },
	{ FMT_PMU_NAME "/event=0x12/", FMT_PMU_NAME, DYN, { 0x12 } },
	{ FMT_PMU_NAME "/event=18,umask=0xab/", FMT_PMU_NAME, DYN,
	  { 0xab12 } },
	{ FMT_PMU_NAME "/ event=1 , umask=2 /", FMT_PMU_NAME, DYN,
	  { 0x201 } },
	{ FMT_PMU_NAME "/event=1,event=2/", FMT_PMU_NAME, DYN, { 2 } },
	/* multi-range: value bits 0-3 to 16-19, 4-7 to 32-35 */
	{ FMT_PMU_NAME "/split=0xa5/", FMT_PMU_NAME, DYN,
	  { 0xa00050000ULL } },
	{ FMT_PMU_NAME "/split=0xff/", FMT_PMU_NAME, DYN,
	  { 0xf000f0000ULL } },
	{ FMT_PMU_NAME "/flag/", FMT_PMU_NAME, DYN, { BIT_ULL(63) } },
	{ FMT_PMU_NAME "/flag=1/", FMT_PMU_NAME, DYN, { BIT_ULL(63) } },
	{ FMT_PMU_NAME "/ext=0xffffffff/", FMT_PMU_NAME, DYN,
	  { 0, 0xffffffff } },
	{ FMT_PMU_NAME "/hi=0x81/", FMT_PMU_NAME, DYN,
	  { 0, 0, 0x810000000000ULL } },
	{ FMT_PMU_NAME "/upd=15/", FMT_PMU_NAME, DYN, { 0, 0, 15 } },
#ifdef PFMK_HAVE_ATTR_CONFIG3
	{ FMT_PMU_NAME "/ext3=0x7f/", FMT_PMU_NAME, DYN, { 0, 0, 0, 0x7f } },
#endif
	{ FMT_PMU_NAME "/config=0xab12/", FMT_PMU_NAME, DYN, { 0xab12 } },
	{ FMT_PMU_NAME "/config1=7/", FMT_PMU_NAME, DYN, { 0, 7 } },
	{ FMT_PMU_NAME "/ev_a/", FMT_PMU_NAME, DYN, { 0x111 } },
	{ FMT_PMU_NAME "/EV_B/", FMT_PMU_NAME, DYN, { 0x3c } },
	{ FMT_PMU_NAME "/ev_a,umask=3/", FMT_PMU_NAME, DYN, { 0x311 } },
	{ FMT_PMU_NAME "/event=1/u", FMT_PMU_NAME, DYN | XK | XH, { 1 } },
	{ FMT_PMU_NAME "/event=1/:k", FMT_PMU_NAME, DYN | XU | XH, { 1 } },
	{ "pfmk_test/step=3/", PFMK_DYN_PREFIX "pfmk_test", DYN, { 3 } },
	{ "software/config=9/", "software", DYN, { 9 } },
};

static void enc_case_desc(const struct enc_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->event);
}

KUNIT_ARRAY_PARAM(enc, enc_cases, enc_case_desc);

static void encode_forms(struct kunit *test)
{
	const struct enc_case *c = test->param_value;
	struct pfarg_pmc pmcs[PFMK_ENCODE_MAX_PMCS];
	struct pfarg_ctx req;
	unsigned int count = 99, i;

	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmk_encode(c->event, 0, &req, pmcs,
					  ARRAY_SIZE(pmcs), &count), 0);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name, c->ctx);
	KUNIT_ASSERT_GE(test, count, 1U);
	KUNIT_EXPECT_EQ(test, pmcs[0].reg_num, 0);
	KUNIT_EXPECT_EQ(test, pmcs[0].reg_value, c->ctrl);
	KUNIT_EXPECT_EQ(test, pmcs[0].reg_set, 0);
	if (!c->ctx[0]) {
		KUNIT_EXPECT_EQ(test, count, 1U);
		return;
	}
	/* The PMU's config words follow, each in its own PMC. */
	KUNIT_EXPECT_GE(test, count, 2U);
	for (i = 1; i < count; i++) {
		unsigned int w = pmcs[i].reg_num / PFMK_DYN_NUM_PMDS - 1;

		KUNIT_ASSERT_LT(test, w, 4U);
		KUNIT_EXPECT_EQ(test, pmcs[i].reg_num, W(w));
		KUNIT_EXPECT_EQ_MSG(test, pmcs[i].reg_value, c->config[w],
				    "config word %u", w);
	}
}

/* The tracepoint form gives the tracepoint's id, in the generic type. */
static void encode_tracepoint(struct kunit *test)
{
	struct pfarg_pmc pmcs[2];
	struct pfarg_ctx req;
	unsigned int count;
	u64 v;

	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmk_encode("sched:sched_switch", 0, &req, pmcs,
					  2, &count), 0);
	KUNIT_EXPECT_EQ(test, count, 1U);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name, "");
	v = pmcs[0].reg_value;
	KUNIT_EXPECT_EQ(test, v & ~PFMK_GEN_CONFIG_MASK,
			PFMK_GEN_PMC(PERF_TYPE_TRACEPOINT, 0));
	KUNIT_EXPECT_NE(test, v & PFMK_GEN_CONFIG_MASK, 0ULL);
	KUNIT_ASSERT_EQ(test, pfmk_encode("sched:sched_switch:k", 3, &req,
					  pmcs, 2, &count), 0);
	KUNIT_EXPECT_EQ(test, pmcs[0].reg_num, 3);
	KUNIT_EXPECT_EQ(test, pmcs[0].reg_value,
			v | PFMK_GEN_XUSER | PFMK_GEN_XHV);
}

struct enc_err {
	const char	*event;
	const char	*ctx;
	unsigned int	pmd;
	unsigned int	max;
	int		ret;
};

static const struct enc_err enc_errs[] = {
	{ "", "", 0, 5, -EINVAL },
	{ "nosuchevent", "", 0, 5, -ENOENT },
	{ "cycles:x", "", 0, 5, -EINVAL },
	{ "L1-dcache-load", "", 0, 5, -ENOENT },
	{ "L1-dcache-misses", "", 0, 5, -ENOENT },
	{ "L2-dcache-loads", "", 0, 5, -ENOENT },
	{ "LLC-prefetchs", "", 0, 5, -ENOENT },
	{ "cycles:", "", 0, 5, -EINVAL },
	{ "nosys:noevent", "", 0, 5, -ENOENT },
	{ "sched:", "", 0, 5, -EINVAL },
	{ "sched:sched_switch:q", "", 0, 5, -EINVAL },
	{ "no_such_pmu/event=1/", "", 0, 5, -ENOENT },
	{ FMT_PMU_NAME "/event=1", "", 0, 5, -EINVAL },
	{ "/event=1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=1/x", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=1/u/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/nosuch=1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/nosuch/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/hidden=1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/bogus=1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=0x100/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/split=0x100/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/flag=2/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=zz/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=-1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/,/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/ev_wide/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/ev_bad/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/ev_a=1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/config=0x100000/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/config4=1/", "", 0, 5, -EINVAL },
#ifndef PFMK_HAVE_ATTR_CONFIG3
	{ FMT_PMU_NAME "/config3=1/", "", 0, 5, -EINVAL },
#endif
	/* mixes one context cannot carry */
	{ FMT_PMU_NAME "/event=1/", "", 1, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=1/", "pfmk_test", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=1/", "msr", 0, 5, -EINVAL },
	{ "pfmk_test/step=1/", "pfmk_test", 0, 5, -EINVAL },
	{ "cycles", FMT_PMU_NAME, 0, 5, -EINVAL },
	{ "sched:sched_switch", FMT_PMU_NAME, 1, 5, -EINVAL },
	/* PMDs the description lacks */
	{ "cycles", "", PFMK_GENERIC_NUM_PMCS, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=1/", FMT_PMU_NAME, PFMK_DYN_NUM_PMDS, 5,
	  -EINVAL },
	/* room */
	{ "cycles", "", 0, 0, -E2BIG },
	{ FMT_PMU_NAME "/event=1/", "", 0, 1, -E2BIG },
	{ FMT_PMU_NAME "/event=1/", "", 0, 3, -E2BIG },
};

static void enc_err_desc(const struct enc_err *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\" ctx \"%s\" pmd %u max %u",
		 c->event, c->ctx, c->pmd, c->max);
}

KUNIT_ARRAY_PARAM(enc_err, enc_errs, enc_err_desc);

/* Every error: its errno, nothing written, *count 0, the name kept. */
static void encode_errors(struct kunit *test)
{
	const struct enc_err *c = test->param_value;
	struct pfarg_pmc pmcs[PFMK_ENCODE_MAX_PMCS + 1];
	struct pfarg_ctx req;
	unsigned int count = 99, i;

	memset(pmcs, 0x5a, sizeof(pmcs));
	pfmkt_ctx_req(&req, c->ctx, 0, false);
	KUNIT_EXPECT_EQ(test, pfmk_encode(c->event, c->pmd, &req, pmcs,
					  c->max, &count), c->ret);
	KUNIT_EXPECT_EQ(test, count, 0U);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name, c->ctx);
	for (i = 0; i < ARRAY_SIZE(pmcs); i++)
		KUNIT_EXPECT_EQ(test, pmcs[i].reg_value, 0x5a5a5a5a5a5a5a5aULL);
}

/* NULL pointers, an unterminated name, an overlong string. */
static void encode_bad_args(struct kunit *test)
{
	struct pfarg_pmc pmcs[PFMK_ENCODE_MAX_PMCS];
	struct pfarg_ctx req;
	unsigned int count;
	char *big;

	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_EXPECT_EQ(test, pfmk_encode(NULL, 0, &req, pmcs, 5, &count),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pfmk_encode("cycles", 0, NULL, pmcs, 5, &count),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pfmk_encode("cycles", 0, &req, NULL, 5, &count),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pfmk_encode("cycles", 0, &req, pmcs, 5, NULL),
			-EINVAL);
	memset(req.ctx_pmu_name, 'a', sizeof(req.ctx_pmu_name));
	KUNIT_EXPECT_EQ(test, pfmk_encode("cycles", 0, &req, pmcs, 5, &count),
			-EINVAL);
	pfmkt_ctx_req(&req, "", 0, false);
	big = kunit_kzalloc(test, 300, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, 'c', 299);
	KUNIT_EXPECT_EQ(test, pfmk_encode(big, 0, &req, pmcs, 5, &count),
			-EINVAL);
}

/* Events of one PMU in one context: PMD 0 names it, the others fit. */
static void encode_one_pmu_mix(struct kunit *test)
{
	static const char * const ev[] = {
		FMT_PMU_NAME "/event=1/", FMT_PMU_NAME "/ev_b/",
		FMT_PMU_NAME "/ext=2/k",
	};
	static const char * const gen[] = {
		"cycles", "sched:sched_switch", "cpu-clock:u",
	};
	struct pfarg_pmc pmcs[3 * PFMK_ENCODE_MAX_PMCS];
	struct pfarg_ctx req;
	unsigned int count;

	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmkt_encode_events(&req, ev, 3, pmcs,
						  ARRAY_SIZE(pmcs), &count), 0);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name, FMT_PMU_NAME);
	KUNIT_EXPECT_EQ(test, count, 3 * (1 + FMT_WORDS));
	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmkt_encode_events(&req, gen, 3, pmcs,
						  ARRAY_SIZE(pmcs), &count), 0);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name, "");
	KUNIT_EXPECT_EQ(test, count, 3U);
	KUNIT_EXPECT_EQ(test, pmcs[2].reg_num, 2);
}

static struct kunit_case encode_cases[] = {
	KUNIT_CASE_PARAM(encode_forms, enc_gen_params),
	KUNIT_CASE(encode_tracepoint),
	KUNIT_CASE_PARAM(encode_errors, enc_err_gen_params),
	KUNIT_CASE(encode_bad_args),
	KUNIT_CASE(encode_one_pmu_mix),
	{}
};

static struct kunit_suite encode_suite = {
	.name = "pfmk_encode",
	.suite_init = dynt_suite_init,
	.test_cases = encode_cases,
};

/* ---- pfmk_dyn: dynamic descriptions through the KAPI ---- */

/* Every word of the PMC layout reaches perf's attr. */
static void dyn_attr_reaches_perf(struct kunit *test)
{
	static const char * const ev[] = {
		FMT_PMU_NAME "/ev_a,split=0xa5,flag,ext=5,hi=2,upd=3/u",
	};
	struct perf_event_attr a;
	unsigned int inits;
	void *desc;

	spin_lock(&fmt_lock);
	inits = fmt_inits;
	spin_unlock(&fmt_lock);
	desc = dynt_events(test, ev, 1, dynt_cpu());
	spin_lock(&fmt_lock);
	a = fmt_last;
	KUNIT_EXPECT_GT(test, fmt_inits, inits);
	spin_unlock(&fmt_lock);
	KUNIT_EXPECT_EQ(test, a.type, fmt_pmu.type);
	KUNIT_EXPECT_EQ(test, a.config,
			BIT_ULL(63) | 0xa00050111ULL);
	KUNIT_EXPECT_EQ(test, a.config1, 5ULL);
	KUNIT_EXPECT_EQ(test, a.config2, 0x20000000003ULL);
	KUNIT_EXPECT_FALSE(test, a.exclude_user);
	KUNIT_EXPECT_TRUE(test, a.exclude_kernel);
	KUNIT_EXPECT_TRUE(test, a.exclude_hv);
	dynt_close(test, desc);
}

static void dyn_write_expect_einval(struct kunit *test, void *desc, u16 reg,
				    u64 val)
{
	struct pfarg_pmc pmc;

	pfmkt_pmc_req(&pmc, 0, reg, val);
	KUNIT_EXPECT_EQ_MSG(test, pfmk_write_pmcs(desc, &pmc, 1), -EINVAL,
			    "PMC%u = 0x%llx", reg, val);
	KUNIT_EXPECT_TRUE(test, PFM_REG_RETFL_EINVAL & pmc.reg_flags);
}

/* Bits outside the format fields, or the control word's: -EINVAL. */
static void dyn_reserved_bits(struct kunit *test)
{
	struct pfarg_ctx req;
	struct pfarg_pmc pmc;
	void *desc;

	pfmkt_ctx_req(&req, FMT_PMU_NAME, 0, false);
	desc = dynt_create(test, &req);
	dyn_write_expect_einval(test, desc, 0, PFMK_DYN_EN | BIT_ULL(0));
	dyn_write_expect_einval(test, desc, 1, BIT_ULL(62));
	/* the hidden field's bits are no field's */
	dyn_write_expect_einval(test, desc, W(0), BIT_ULL(20));
	dyn_write_expect_einval(test, desc, W(0), BIT_ULL(36));
	dyn_write_expect_einval(test, desc, W(1), BIT_ULL(32));
	dyn_write_expect_einval(test, desc, W(2), BIT_ULL(4));
#ifdef PFMK_HAVE_ATTR_CONFIG3
	dyn_write_expect_einval(test, desc, W(3), BIT_ULL(8));
#else
	dyn_write_expect_einval(test, desc, W(3), BIT_ULL(0));
#endif
	pfmkt_pmc_req(&pmc, 0, W(0), 0xf000fffffULL | BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, &pmc, 1), 0);
	pfmkt_pmc_req(&pmc, 0, W(2), 0xff000000000fULL | BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, &pmc, 1), 0);
	pfmkt_pmc_req(&pmc, 0, PFMK_DYN_NUM_PMCS, 0);
	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, &pmc, 1), -EINVAL);
	dynt_close(test, desc);
}

/* Two contexts of one PMU share its description; the last frees it. */
static void dyn_shared_cache(struct kunit *test)
{
	unsigned int base = pfmk_dyn_count_cached();
	struct pfarg_ctx req;
	void *a, *b;

	pfmkt_ctx_req(&req, FMT_PMU_NAME, 0, false);
	a = dynt_create(test, &req);
	KUNIT_EXPECT_EQ(test, pfmk_dyn_count_cached(), base + 1);
	pfmkt_ctx_req(&req, PFMK_DYN_PREFIX FMT_PMU_NAME, 0, false);
	b = dynt_create(test, &req);
	KUNIT_EXPECT_EQ(test, pfmk_dyn_count_cached(), base + 1);
	dynt_close(test, a);
	KUNIT_EXPECT_EQ(test, pfmk_dyn_count_cached(), base + 1);
	dynt_close(test, b);
	KUNIT_EXPECT_EQ(test, pfmk_dyn_count_cached(), base);
}

/* A name that is no description and no PMU: -ENOENT at create. */
static void dyn_unknown_pmu(struct kunit *test)
{
	struct dynt_priv *p = test->priv;
	struct pfarg_ctx req;
	void *desc = NULL;

	pfmkt_ctx_req(&req, "pfmk_no_such_pmu", 0, false);
	KUNIT_EXPECT_EQ(test, pfmk_create_context(&req, NULL, 0, &p->done,
						  &desc, NULL), -ENOENT);
	pfmkt_ctx_req(&req, PFMK_DYN_PREFIX, 0, false);
	KUNIT_EXPECT_EQ(test, pfmk_create_context(&req, NULL, 0, &p->done,
						  &desc, NULL), -ENOENT);
}

/* Config words are written unloaded; a control word also loaded. */
static void dyn_config_words_unloaded(struct kunit *test)
{
	static const char * const ev[] = { FMT_PMU_NAME "/event=1/" };
	struct pfarg_pmc pmc;
	void *desc;

	desc = dynt_events(test, ev, 1, dynt_cpu());
	pfmkt_pmc_req(&pmc, 0, W(0), 2);
	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, &pmc, 1), -EBUSY);
	pfmkt_pmc_req(&pmc, 0, 0, PFMK_DYN_EN | PFMK_DYN_XUSER);
	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, &pmc, 1), 0);
	KUNIT_EXPECT_TRUE(test, fmt_last.exclude_user);
	KUNIT_EXPECT_EQ(test, fmt_last.config, 1ULL);
	dynt_close(test, desc);
}

/*
 * A PMU that moves the event to another CPU (an uncore PMU's cpumask):
 * the load fails with -EXDEV on other CPUs, works on that one.
 */
static void dyn_moved_event_refused(struct kunit *test)
{
	static const char * const ev[] = { FMT_PMU_NAME "/event=1,home/" };
	unsigned int max = PFMK_ENCODE_MAX_PMCS, count;
	int home = cpumask_first(cpu_online_mask);
	struct pfarg_load load;
	struct pfarg_pmc *pmcs;
	struct pfarg_ctx req;
	void *desc;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second online CPU");
	pmcs = kunit_kcalloc(test, max, sizeof(*pmcs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pmcs);
	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmkt_encode_events(&req, ev, 1, pmcs, max,
						  &count), 0);
	desc = dynt_create(test, &req);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmcs, count), 0);
	pfmkt_load_req(&load, cpumask_last(cpu_online_mask), 0);
	KUNIT_EXPECT_EQ(test, pfmk_load_context(desc, &load), -EXDEV);
	pfmkt_load_req(&load, home, 0);
	KUNIT_EXPECT_EQ(test, pfmk_load_context(desc, &load), 0);
	dynt_close(test, desc);
}

/* pfmk_test by name: exact counts through its format attribute. */
static void dyn_pfmk_test_exact(struct kunit *test)
{
	static const char * const ev[] = {
		"pfmk_test/step=3/", "pfmk_test/step=0xffff/",
		"pfmk_test/config=7/",
	};
	int cpu = dynt_cpu();
	void *desc;

	desc = dynt_events(test, ev, 3, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, dynt_read(test, desc, 0), 15ULL);
	KUNIT_EXPECT_EQ(test, dynt_read(test, desc, 1), 5 * 0xffffULL);
	KUNIT_EXPECT_EQ(test, dynt_read(test, desc, 2), 35ULL);
	dynt_close(test, desc);
}

#ifdef CONFIG_X86
/* Keeps its CPU busy until kthread_stop(). */
static int dynt_spin_fn(void *arg)
{
	complete(arg);
	while (!kthread_should_stop()) {
		cpu_relax();
		cond_resched();
	}
	return 0;
}
#endif

/*
 * msr/tsc/ counts TSC ticks: within 2% of ktime x tsc_khz over 200 ms on
 * a CPU kept busy by a thread bound to it.  A guest's TSC is the one its
 * kernel calibrated tsc_khz against.  A read is an IPI to that CPU, whose
 * vCPU a loaded host may hold for milliseconds: each read is bracketed by
 * ktime, and the count must lie within 2% of the shortest and longest
 * windows between the two reads.
 */
static void dyn_msr_tsc(struct kunit *test)
{
#ifdef CONFIG_X86
	static const char * const ev[] = { "msr/tsc/" };
	struct completion started;
	int cpu = dynt_cpu();
	struct task_struct *t;
	u64 v0, v1, lo, hi, got;
	ktime_t t0[2], t1[2];
	void *desc;

	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz)
		kunit_skip(test, "no TSC");
	desc = dynt_events(test, ev, 1, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	init_completion(&started);
	t = kthread_create(dynt_spin_fn, &started, "pfmkt_spin");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, cpu);
	wake_up_process(t);
	wait_for_completion(&started);
	/* No assertion until the thread is stopped: it would spin on. */
	t0[0] = ktime_get();
	v0 = dynt_read(test, desc, 0);
	t0[1] = ktime_get();
	msleep(200);
	t1[0] = ktime_get();
	v1 = dynt_read(test, desc, 0);
	t1[1] = ktime_get();
	kthread_stop(t);
	got = v1 - v0;
	lo = div_u64(ktime_to_ns(ktime_sub(t1[0], t0[1])) * tsc_khz, 1000000);
	hi = div_u64(ktime_to_ns(ktime_sub(t1[1], t0[0])) * tsc_khz, 1000000);
	kunit_info(test, "msr/tsc/: %llu ticks, ktime x tsc_khz %llu to %llu\n",
		   got, lo, hi);
	KUNIT_EXPECT_GT(test, got, lo - lo / 50);
	KUNIT_EXPECT_LT(test, got, hi + hi / 50);
	dynt_close(test, desc);
#else
	kunit_skip(test, "the msr PMU is x86's");
#endif
}

struct dynt_switcher {
	struct completion	go;
	struct completion	done;
	int			rounds;
};

static int dynt_switch_fn(void *arg)
{
	struct dynt_switcher *s = arg;
	int i;

	wait_for_completion(&s->go);
	for (i = 0; i < s->rounds; i++)
		usleep_range(100, 200);
	complete(&s->done);
	return pfmkt_kthread_park();
}

/*
 * sched:sched_switch counts what the software context-switch event
 * counts on the same CPU over the same window: both fire in __schedule()
 * for every switch.  pfmk enables (and disables) a context's events one
 * after the other, an IPI each, and the CPU may switch tasks in between:
 * the counts agree within 2 + 2% (DYNT_TP_SLACK()).
 */
#define DYNT_TP_SLACK(n)	(2 + (n) / 50)

static void dyn_tp_sched_switch(struct kunit *test)
{
	static const char * const ev[] = {
		"sched:sched_switch", "context-switches",
	};
	struct dynt_switcher s = { .rounds = 200 };
	int cpu = dynt_cpu();
	struct task_struct *t;
	u64 tp, cs;
	void *desc;

	init_completion(&s.go);
	init_completion(&s.done);
	desc = dynt_events(test, ev, 2, cpu);
	t = kthread_create(dynt_switch_fn, &s, "pfmkt_switch");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, cpu);
	wake_up_process(t);
	/* No assertion until the thread is stopped: it uses this stack. */
	KUNIT_EXPECT_EQ(test, pfmk_start(desc, NULL), 0);
	complete(&s.go);
	wait_for_completion(&s.done);
	KUNIT_EXPECT_EQ(test, pfmk_stop(desc), 0);
	kthread_stop(t);
	tp = dynt_read(test, desc, 0);
	cs = dynt_read(test, desc, 1);
	kunit_info(test, "sched:sched_switch %llu, context-switches %llu\n",
		   tp, cs);
	KUNIT_EXPECT_GE(test, tp, 100ULL);
	KUNIT_EXPECT_LE(test, tp, cs + DYNT_TP_SLACK(cs));
	KUNIT_EXPECT_LE(test, cs, tp + DYNT_TP_SLACK(tp));
	dynt_close(test, desc);
}

/* cpu-clock by name and the software PMU by name agree with ktime. */
static void dyn_software_by_name(struct kunit *test)
{
	static const char * const gen[] = { "cpu-clock" };
	static const char * const dyn[] = { "software/config=0/" };
	void *a, *b;
	u64 ca, cb;

	a = dynt_events(test, gen, 1, dynt_cpu());
	b = dynt_events(test, dyn, 1, dynt_cpu());
	KUNIT_ASSERT_EQ(test, pfmk_start(a, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(b, NULL), 0);
	msleep(100);
	KUNIT_ASSERT_EQ(test, pfmk_stop(b), 0);
	KUNIT_ASSERT_EQ(test, pfmk_stop(a), 0);
	ca = dynt_read(test, a, 0);
	cb = dynt_read(test, b, 0);
	KUNIT_EXPECT_GE(test, ca, 90ULL * NSEC_PER_MSEC);
	KUNIT_EXPECT_GE(test, cb, 90ULL * NSEC_PER_MSEC);
	KUNIT_EXPECT_LE(test, cb, ca);
	dynt_close(test, b);
	dynt_close(test, a);
}

struct dynt_aux_copy {
	u64	nrec;
	u64	bad;
	size_t	off;	/* bytes of the record being assembled */
	u8	rec[PFMK_TEST_AUX_REC];
};

/* Check each record of the stream in order (pieces may split records). */
static int dynt_aux_fn(void *data, const void *src, size_t len)
{
	struct dynt_aux_copy *c = data;
	size_t n;

	while (len) {
		n = min(len, sizeof(c->rec) - c->off);
		memcpy(c->rec + c->off, src, n);
		c->off += n;
		src += n;
		len -= n;
		if (c->off < sizeof(c->rec))
			continue;
		if (!pfmk_test_aux_rec_ok((void *)c->rec, c->nrec))
			c->bad++;
		c->nrec++;
		c->off = 0;
	}
	return 0;
}

/*
 * AUX on a PMU selected by name: the synthetic AUX PMU through its
 * dynamic description ("perf:pfmk_aux_test", from pfmk_encode()), its
 * records copied out intact.  Needs pfmk's kernel-owned AUX patch, which
 * the kernels this suite runs on (pfmk's debug kernels) carry.
 */
static void dyn_aux_named_pmu(struct kunit *test)
{
	static const char * const ev[] = { PFMK_TEST_AUX_NAME "/rate=1/" };
	struct dynt_aux_copy c = { };
	unsigned int max = PFMK_ENCODE_MAX_PMCS, count;
	struct pfmk_aux_info info;
	struct pfarg_pmc *pmcs;
	struct pfarg_load load;
	struct pfarg_ctx req;
	int cpu = dynt_cpu();
	void *desc;

#ifndef PFMK_HAVE_KERNEL_AUX
	kunit_skip(test, "the kernel lacks pfmk's kernel-owned AUX patch");
#endif
	pmcs = kunit_kcalloc(test, max, sizeof(*pmcs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pmcs);
	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmkt_encode_events(&req, ev, 1, pmcs, max,
						  &count), 0);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name,
			   PFMK_DYN_PREFIX PFMK_TEST_AUX_NAME);
	desc = dynt_create(test, &req);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmcs, count), 0);
	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(desc, 0, 4 * PFMK_AUX_MIN_SIZE,
					     0), 0);
	pfmkt_load_req(&load, cpu, 0);
	KUNIT_ASSERT_EQ(test, pfmk_load_context(desc, &load), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(cpu, 40), 0);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_aux_copy(desc, SIZE_MAX, dynt_aux_fn, &c,
					    &info), 0);
	KUNIT_EXPECT_EQ(test, info.head, 40ULL * PFMK_TEST_AUX_REC);
	KUNIT_EXPECT_EQ(test, info.to - info.from, 40ULL * PFMK_TEST_AUX_REC);
	KUNIT_EXPECT_EQ(test, c.nrec, 40ULL);
	KUNIT_EXPECT_EQ(test, c.bad, 0ULL);
	KUNIT_EXPECT_EQ(test, dynt_read(test, desc, 0), 40ULL);
	dynt_close(test, desc);
}

static struct kunit_case dyn_cases[] = {
	KUNIT_CASE(dyn_attr_reaches_perf),
	KUNIT_CASE(dyn_reserved_bits),
	KUNIT_CASE(dyn_shared_cache),
	KUNIT_CASE(dyn_unknown_pmu),
	KUNIT_CASE(dyn_config_words_unloaded),
	KUNIT_CASE(dyn_moved_event_refused),
	KUNIT_CASE(dyn_pfmk_test_exact),
	KUNIT_CASE_SLOW(dyn_msr_tsc),
	KUNIT_CASE_SLOW(dyn_tp_sched_switch),
	KUNIT_CASE(dyn_software_by_name),
	KUNIT_CASE(dyn_aux_named_pmu),
	{}
};

static struct kunit_suite dyn_suite = {
	.name = "pfmk_dyn",
	.suite_init = dynt_suite_init,
	.init = dynt_init,
	.exit = dynt_exit,
	.test_cases = dyn_cases,
};

kunit_test_suites(&dyn_glue_suite, &dyn_format_suite, &encode_suite,
		  &dyn_suite);

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
