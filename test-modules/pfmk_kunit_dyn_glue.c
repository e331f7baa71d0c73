// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_dyn_glue (pfmk_dyn_kunit.ko): what
 * pmu/perf_pmu.c relies on in the kernel, a PMU found by name on perf's
 * bus, its driver data and its format attributes.  Fails if a kernel
 * changes it.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>

#include "pfmk_kunit.h"
#include "pfmk_kunit_dyn.h"

/* A disabled software event of this task (the dummy one). */
static struct perf_event *glue_sw_event(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(attr),
		.disabled = 1,
	};

	return pfmkt_perf_create(test, &(struct pfmkt_perf){
		.attr = &attr,
		.cpu = -1,
		.task = current,
	});
}

/*
 * A software event's PMU has a device on a bus, with the struct pmu as
 * driver data: what pmu/perf_pmu.c finds.
 */
static void glue_event_dev(struct kunit *test)
{
	struct perf_event *event = glue_sw_event(test);

	KUNIT_ASSERT_NOT_NULL(test, event->pmu->dev);
	KUNIT_EXPECT_NOT_NULL(test, event->pmu->dev->bus);
	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(event->pmu->dev),
			    (void *)event->pmu);
}

/*
 * On that bus a PMU's name finds its device, with the struct pmu as
 * driver data: the lookup of pmu/perf_pmu.c.
 */
static void glue_lookup_by_name(struct kunit *test)
{
	struct perf_event *event = glue_sw_event(test);
	struct device *dev;

	KUNIT_ASSERT_NOT_NULL(test, event->pmu->dev);
	KUNIT_ASSERT_NOT_NULL(test, event->pmu->dev->bus);
	dev = bus_find_device_by_name(event->pmu->dev->bus, NULL,
				      FMT_PMU_NAME);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(dev), (void *)&fmt_pmu);
	KUNIT_EXPECT_PTR_EQ(test, fmt_pmu.dev, dev);
	put_device(dev);
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

/*
 * A context of a dynamic description of this module's PMU.
 * @before: output: this module's reference count before its create.
 */
static void *glue_dyn_ctx(struct kunit *test, int *before)
{
	struct pfarg_ctx req;

	*before = module_refcount(THIS_MODULE);
	pfmkt_ctx_req(&req, FMT_PMU_NAME, 0, false);
	return pfmkt_create_req(test, &req, NULL);
}

/* Dynamic descriptions pin the PMU's module (pmu->module) while used. */
static void glue_pins_module(struct kunit *test)
{
	int before;

	glue_dyn_ctx(test, &before);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), before + 1);
}

/* The last close of a dynamic description's context unpins the module. */
static void glue_module_unpinned_after_close(struct kunit *test)
{
	int before;
	void *desc = glue_dyn_ctx(test, &before);

	KUNIT_ASSERT_EQ(test, module_refcount(THIS_MODULE), before + 1);
	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), before);
}

/*
 * perf schedules a PMU as software when its task_ctx_nr is perf_sw_context:
 * pfmk_perf_pmu_check_event() reads it to tell the PMUs whose overflow
 * handler may run with interrupts on (a page fault's, in the faulting
 * task).  Perf's own software PMUs (cpu-clock's, and the one of page
 * faults and other software events) must say so.
 */
static const u64 glue_sw_configs[] = {
	PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
};

static void glue_sw_desc(const u64 *config, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "software config %llu",
		 (unsigned long long)*config);
}

KUNIT_ARRAY_PARAM(glue_sw, glue_sw_configs, glue_sw_desc);

static void glue_sw_context(struct kunit *test)
{
	const u64 *config = test->param_value;
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = *config,
		.size = sizeof(attr),
		.disabled = 1,
	};
	struct perf_event *event;

	event = pfmkt_perf_create(test, &(struct pfmkt_perf){
		.attr = &attr,
		.cpu = -1,
		.task = current,
	});
	KUNIT_EXPECT_EQ(test, event->pmu->task_ctx_nr, perf_sw_context);
}

static struct kunit_case glue_cases[] = {
	KUNIT_CASE(glue_event_dev),
	KUNIT_CASE(glue_lookup_by_name),
	KUNIT_CASE(glue_format_show),
	KUNIT_CASE(glue_pins_module),
	KUNIT_CASE(glue_module_unpinned_after_close),
	KUNIT_CASE_PARAM(glue_sw_context, glue_sw_gen_params),
	{}
};

static struct kunit_suite dyn_glue_suite = {
	.name = "pfmk_dyn_glue",
	.suite_init = dynt_suite_init,
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = glue_cases,
};

kunit_test_suites(&dyn_glue_suite);
