// SPDX-License-Identifier: GPL-2.0-only
/*
 * The KUnit helpers every KUnit module shares, compiled for
 * pfmk_reuse_kunit.ko: an object of its own, as Kbuild wants
 * (pfmk_kunit_util.c says why).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include "pfmk_kunit_util.c"
