// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_kunit.ko: the KAPI's KUnit suites, one file per topic (Kbuild);
 * their shared helpers are in pfmk_kunit_util.c.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/module.h>
#include <pfmk/ns.h>

#include "../core/test_hooks.h"

PFMK_IMPORT_NS();
/* pfmk_hotplug_test_flush(), for the hotplug suite */
MODULE_IMPORT_NS(PFMK_TEST_NS);
MODULE_DESCRIPTION("pfmk KAPI KUnit tests");
MODULE_LICENSE("GPL");
