/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_aux_kunit.ko, the KUnit suites of pfmk's AUX support: what its
 * files share.
 *
 * pfmk_kunit_aux.c       pfmk_aux: the per-test state and helpers below,
 *                        argument errnos, a PMU without AUX support,
 *                        stop-when-full streams and truncation, snapshot
 *                        copies (also with an offset head), runs of
 *                        adjacent pages, snippets in samples; the
 *                        module's description
 * pfmk_kunit_aux_life.c  pfmk_aux_life: what the context's life does to
 *                        its AUX buffer: the AUX PMD rewritten while
 *                        loaded, close and unload while capturing, its
 *                        CPU offline and back, stop (or a switch away
 *                        from set 0) then drain
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_KUNIT_AUX_H
#define _PFMK_KUNIT_AUX_H

#include <kunit/test.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <pfmk/aux.h>

#include "pfmk_kunit.h"
#include "pfmk_test_aux_pmu.h"

#define AUXT_REC	PFMK_TEST_AUX_REC

/**
 * struct auxt - state of one test
 * @base: the shared per-test state: pfmkt_exit() closes the contexts and
 *	brings back the CPU the test took offline.
 * @desc: the test's context.
 * @cpu: CPU the context is loaded on.
 * @out: copy-out destination (vmalloc), pfmk_test_aux_sink()'s.
 */
struct auxt {
	struct pfmkt_priv	base;
	void			*desc;
	int			cpu;
	struct pfmk_test_aux_out out;
};

static_assert(offsetof(struct auxt, base) == 0);

/* The suites' init and exit: struct auxt and its copy-out buffer. */
int auxt_init(struct kunit *test);
void auxt_exit(struct kunit *test);
/* Skip the case on a kernel the harness says lacks the AUX patch. */
void auxt_need_patch(struct kunit *test);
void auxt_create(struct kunit *test, void *smpl_arg, size_t smpl_size,
		 void **smpl_buf);
void auxt_start(struct kunit *test, u64 pmc, size_t size,
		unsigned int flags);
u64 auxt_copy(struct kunit *test, size_t max, struct pfmk_aux_info *info);
void auxt_expect_recs(struct kunit *test, const void *buf, u64 n, u64 seq);

#endif /* _PFMK_KUNIT_AUX_H */
