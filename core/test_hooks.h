/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk's hooks for its own KUnit suites: the crash hooks run on demand
 * (pfmk_crash), and a wait for the CPU hotplug work (pfmk_hotplug).
 *
 * Not an interface for clients: it is not installed with <pfmk/crash.h>,
 * it exists only on kernels with KUnit, and it is exported in a namespace
 * of its own (PFMK_TEST_NS), which only pfmk's test modules import.  A
 * module that could call the crash hook could freeze every context of
 * every owner, and a namespace is no protection (any module may import
 * it): the crash hook is built only into the harness's pfmk
 * (PFMK_TEST_HOOKS, set by Kbuild when the build asks for it with
 * PFMK_TEST_HOOKS=1, as scripts/build-modules.sh does; never DKMS's or
 * "make modules"'), with the KUnit module that calls it.
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
void pfmk_hotplug_test_flush(void);
#endif
#ifdef PFMK_TEST_HOOKS
int pfmk_crash_test_notify(unsigned int reason);
#endif

#endif /* _PFMK_TEST_HOOKS_H */
