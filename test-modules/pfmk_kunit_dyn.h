/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_dyn_kunit.ko, the KUnit suites of dynamic PMU descriptions and
 * pfmk_encode(): what its files share.
 *
 * pfmk_kunit_dyn_pmu.c  the module's perf PMU, "pfmk_kunit_fmt", whose
 *                       format has multi-range fields, fields in
 *                       config1..config3, a hidden field, an
 *                       ->attr_update field and aliases; the module's
 *                       init and exit (the per-test helpers are the
 *                       shared ones of pfmk_kunit.h)
 * pfmk_kunit_dyn_glue.c pfmk_dyn_glue: what pmu/perf_pmu.c relies on in
 *                       the kernel (a PMU found by name on perf's bus,
 *                       its driver data, its format attributes): fails
 *                       if a kernel changes it
 * pfmk_kunit_encode.c   pfmk_dyn_format, the "format" attribute parser;
 *                       pfmk_encode, the string syntax, every form and
 *                       every error, on pfmk_kunit_fmt
 * pfmk_kunit_dyn.c      pfmk_dyn: dynamic descriptions through the KAPI
 *                       (the attr perf gets, reserved bits, the shared
 *                       cache, exact or measured counts on PMUs nobody
 *                       here wrote, msr and tracepoints, and on pfmk_test)
 * pfmk_kunit_dyn_gone.c pfmk_dyn_gone: a PMU that goes away under a
 *                       dynamic description
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_KUNIT_DYN_H
#define _PFMK_KUNIT_DYN_H

#include <kunit/test.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/types.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_dyn.h>

#define FMT_PMU_NAME	"pfmk_kunit_fmt"
/* Config words of its events: config, config1, config2 (, config3). */
#ifdef PFMK_HAVE_ATTR_CONFIG3
#define FMT_WORDS	4U
#else
#define FMT_WORDS	3U
#endif

/* The PMC of config word @i of PMD 0 of a dynamic description. */
#define DYNT_W(i)	PFMK_DYN_PMC(0, PFMK_DYN_CONFIG + (i))

/* pfmk_kunit_fmt, and the attr of the last event it accepted. */
extern spinlock_t fmt_lock;
extern struct perf_event_attr fmt_last;
extern unsigned int fmt_inits;
extern struct pmu fmt_pmu;
/* Its format attributes; the third is "split", "config:16-19,32-35". */
extern struct attribute *fmt_format_attrs[];

int dynt_suite_init(struct kunit_suite *suite);

#endif /* _PFMK_KUNIT_DYN_H */
