/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What pfmk_kunit_smpl_notify.c and pfmk_kunit_smpl_full.c (the suites
 * pfmk_smpl_notify and pfmk_smpl_full) share: the sizes and periods of
 * their notifying PMDs and the check of one overflow notification.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef PFMK_KUNIT_SMPL_NOTIFY_H
#define PFMK_KUNIT_SMPL_NOTIFY_H

#include <kunit/test.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

#define SMPL_TEST_MIN		(PFMKT_ENTRY + 8 * PFMK_TEST_NUM_PMCS)
/* An entry with one sampled PMD. */
#define NOTIFY_ENTRY1		(PFMKT_ENTRY + 8)
/* Room for four entries of NOTIFY_ENTRY1, then less than the minimum. */
#define NOTIFY_BUF4		(PFMKT_HDR + SMPL_TEST_MIN + 3 * NOTIFY_ENTRY1)

/* The notifying PMD: period and long reset. */
#define NOTIFY_P		4ULL
#define NOTIFY_L		10ULL
/* The buffer cases' PMD: period; PMD1 counts FULL_STEP1 per tick. */
#define FULL_P			5ULL
#define FULL_STEP1		3ULL

/*
 * The notification came, with one overflow message (PMD0 on @cpu) and
 * no other.
 */
static inline void notify_expect_one_msg(struct kunit *test, void *desc,
					 int cpu)
{
	pfmkt_wait_notify(test);
	pfmkt_expect_ovfl_msg(test, desc, 0, cpu);
	pfmkt_expect_no_msg(test, desc);
}

#endif /* PFMK_KUNIT_SMPL_NOTIFY_H */
