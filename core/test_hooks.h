/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk's hooks for its own KUnit suites: the crash hooks run on demand
 * (pfmk_crash), and a wait for the CPU hotplug work (pfmk_hotplug).
 *
 * Not an interface for clients: it is not installed with <pfmk/crash.h>,
 * it exists only on kernels with KUnit, and it is exported in a namespace
 * of its own (PFMK_TEST_NS), which only pfmk's test modules import.  A
 * client that could call the crash hook could freeze every context of
 * every owner.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_TEST_HOOKS_H
#define _PFMK_TEST_HOOKS_H

#include <linux/kdebug.h>
#include <pfmk/ns.h>

/* The namespace, spelled as PFMK_NS is for the kernel being built against. */
#if defined(PFMK_NS_STRING)
#define PFMK_TEST_NS	"PFMK_TEST"
#else
#define PFMK_TEST_NS	PFMK_TEST
#endif

/* What a simulated die notification says when it is not an oops. */
#define PFMK_CRASH_TEST_NOT_OOPS	(DIE_OOPS + 1)

#if IS_ENABLED(CONFIG_KUNIT)
int pfmk_crash_test_notify(unsigned int reason);
void pfmk_hotplug_test_flush(void);
#endif

#endif /* _PFMK_TEST_HOOKS_H */
