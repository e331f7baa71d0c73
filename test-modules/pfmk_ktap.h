/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_ktap.h - the KTAP document of the test modules that run without KUnit
 *
 * pfmk_smoke, pfmk_client2006, pfmk_emu_smoke, pfmk_aux_smoke, pfmk_fuzz and
 * pfmk_hotplug_stress run their cases at module load, on every kernel
 * (Debian's have no KUnit), and print one flat KTAP document with
 * pr_info(), which scripts/results.py reads from the console log:
 *
 *	KTAP version 1
 *	1..<cases>
 *	# <diagnostic>
 *	ok <n> <case>
 *	not ok <n> <case>
 *	ok <n> <case> # SKIP <reason>
 *	# <suite>: <failed> of <cases> failed
 *
 * The same lines as KUnit's for a flat suite, without the "# Subtest"
 * header: the step name (ktap:<module>) names the suite.  Every case gets
 * exactly one result line, numbered in order from 1; a case that cannot
 * run says why with a SKIP, never by leaving its line out.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_KTAP_H
#define _PFMK_KTAP_H

#include <linux/printk.h>
#include <linux/types.h>

/**
 * struct pfmk_ktap - one KTAP document being printed
 * @suite: the module's name, in the closing diagnostic.
 * @planned: cases announced by the plan line.
 * @n: result lines printed so far.
 * @failed: of them, "not ok".
 */
struct pfmk_ktap {
	const char	*suite;
	unsigned int	planned;
	unsigned int	n;
	unsigned int	failed;
};

/* A diagnostic line ("# ..."). */
#define pfmk_ktap_diag(fmt, ...)	pr_info("# " fmt "\n", ##__VA_ARGS__)

/**
 * pfmk_ktap_check() - compare a result with what a case expects
 * @failed: the failed checks of the running case (or module), counted
 *	up on a mismatch.
 * @test: the running case's name, for the diagnostic.
 * @what: what was compared.
 * @expected: the value the case expects.
 * @actual: the value it got.
 *
 * The check every KTAP module makes: a mismatch prints a diagnostic
 * line ("# <case>: <what>: expected <e>, got <a>") and counts a failure.
 *
 * Return: @expected == @actual.
 */
static inline bool pfmk_ktap_check(unsigned int *failed, const char *test,
				   const char *what, long long expected,
				   long long actual)
{
	if (expected == actual)
		return true;
	pfmk_ktap_diag("%s: %s: expected %lld, got %lld", test, what, expected,
		       actual);
	(*failed)++;
	return false;
}

/**
 * pfmk_ktap_check_u64() - pfmk_ktap_check() of two u64, also in hex
 * @failed: as pfmk_ktap_check()'s.
 * @test: as pfmk_ktap_check()'s.
 * @what: as pfmk_ktap_check()'s.
 * @expected: as pfmk_ktap_check()'s.
 * @actual: as pfmk_ktap_check()'s.
 *
 * Return: @expected == @actual.
 */
static inline bool pfmk_ktap_check_u64(unsigned int *failed, const char *test,
				       const char *what, u64 expected,
				       u64 actual)
{
	if (expected == actual)
		return true;
	pfmk_ktap_diag("%s: %s: expected %llu (0x%llx), got %llu (0x%llx)",
		       test, what, expected, expected, actual, actual);
	(*failed)++;
	return false;
}

/**
 * pfmk_ktap_check_true() - a condition a case expects to hold
 * @failed: as pfmk_ktap_check()'s.
 * @test: as pfmk_ktap_check()'s.
 * @what: the condition, for the diagnostic.
 * @cond: its value.
 *
 * Return: @cond.
 */
static inline bool pfmk_ktap_check_true(unsigned int *failed, const char *test,
					const char *what, bool cond)
{
	if (cond)
		return true;
	pfmk_ktap_diag("%s: %s: false", test, what);
	(*failed)++;
	return false;
}

/**
 * pfmk_ktap_plan() - start the document: version and plan lines
 * @k: the document.
 * @suite: its name (the module's).
 * @cases: number of result lines that will follow.
 */
static inline void pfmk_ktap_plan(struct pfmk_ktap *k, const char *suite,
				  unsigned int cases)
{
	k->suite = suite;
	k->planned = cases;
	k->n = 0;
	k->failed = 0;
	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", cases);
}

/**
 * pfmk_ktap_result() - the result line of the next case
 * @k: the document.
 * @name: the case's name.
 * @ok: it passed.
 */
static inline void pfmk_ktap_result(struct pfmk_ktap *k, const char *name,
				    bool ok)
{
	k->n++;
	if (!ok)
		k->failed++;
	pr_info("%s %u %s\n", ok ? "ok" : "not ok", k->n, name);
}

/**
 * pfmk_ktap_skip() - the next case did not run
 * @k: the document.
 * @name: the case's name.
 * @reason: why, after "# SKIP".
 */
static inline void pfmk_ktap_skip(struct pfmk_ktap *k, const char *name,
				  const char *reason)
{
	k->n++;
	pr_info("ok %u %s # SKIP %s\n", k->n, name, reason);
}

/**
 * pfmk_ktap_report() - the result line of a case that ran or was skipped
 * @k: the document.
 * @name: the case's name.
 * @ok: it passed (or did not fail before deciding to skip).
 * @skip: why it skipped, or NULL; a failed case is reported failed.
 */
static inline void pfmk_ktap_report(struct pfmk_ktap *k, const char *name,
				    bool ok, const char *skip)
{
	if (ok && skip)
		pfmk_ktap_skip(k, name, skip);
	else
		pfmk_ktap_result(k, name, ok);
}

/**
 * pfmk_ktap_run() - plan and run a table of cases, one result line each
 * @k: the document.
 * @cases: the module's table, of @nr entries with a @name member each.
 * @nr: ARRAY_SIZE(@cases).
 * @run_case: bool run_case(arg, &cases[i], const char **skip): runs the
 *	case, returns whether it passed and sets *skip (NULL before the
 *	call) to say why it did not run.
 * @arg: the module's state, passed to @run_case.
 *
 * The runner loop of every KTAP module; the suite is KBUILD_MODNAME.  A
 * macro, for the tables are of each module's own type.
 */
#define pfmk_ktap_run(k, cases, nr, run_case, arg)			\
do {									\
	struct pfmk_ktap *__k = (k);					\
	__auto_type __c = &(cases)[0];					\
	unsigned int __i, __nr = (nr);					\
									\
	pfmk_ktap_plan(__k, KBUILD_MODNAME, __nr);			\
	for (__i = 0; __i < __nr; __i++) {				\
		const char *__skip = NULL;				\
		bool __ok = run_case(arg, &__c[__i], &__skip);		\
									\
		pfmk_ktap_report(__k, __c[__i].name, __ok, __skip);	\
	}								\
} while (0)

/**
 * pfmk_ktap_end() - close the document with a summary diagnostic
 * @k: the document.
 *
 * Return: the number of failed cases.
 */
static inline unsigned int pfmk_ktap_end(struct pfmk_ktap *k)
{
	if (k->n != k->planned)
		pfmk_ktap_diag("%s: %u results for a plan of %u", k->suite,
			       k->n, k->planned);
	pfmk_ktap_diag("%s: %u of %u failed", k->suite, k->failed, k->planned);
	return k->failed;
}

#endif /* _PFMK_KTAP_H */
