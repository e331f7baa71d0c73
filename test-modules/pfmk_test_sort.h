/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_test_sort.h - sorting measurements in the test modules
 *
 * pfmk_aux_smoke, pfmk_pmu_exact and pfmk_bench sort arrays of u64 (for
 * medians and most frequent values).  The kernel's sort() needs a compare
 * function and lib/ has none for u64.  Static inline, as pfmk_ktap.h: no
 * object to link into each module.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_TEST_SORT_H
#define _PFMK_TEST_SORT_H

#include <linux/sort.h>
#include <linux/types.h>

static inline int pfmk_test_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * pfmk_test_sort_u64() - sort u64 values in ascending order
 * @v: the values.
 * @n: how many.
 *
 * Context: any context (sort() does not sleep).
 */
static inline void pfmk_test_sort_u64(u64 *v, size_t n)
{
	sort(v, n, sizeof(*v), pfmk_test_cmp_u64, NULL);
}

#endif /* _PFMK_TEST_SORT_H */
