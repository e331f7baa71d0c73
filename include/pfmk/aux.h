/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk AUX extension: a PMD bound to an AUX-capable PMU (an instruction
 * tracer) gets a kernel-owned AUX buffer that is never mapped to user
 * space; its owner copies the trace out when it chooses, and samples of
 * the default format can carry the last bytes of it.
 *
 * This needs a kernel with pfmk's kernel-owned AUX patch
 * (patches/linux-<series>/, found by the PFMK_HAVE_KERNEL_AUX Kbuild
 * probe); without it every call here returns -EOPNOTSUPP and pfmk logs a
 * one-time hint.  See
 * Documentation/aux.rst.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_AUX_H
#define _PFMK_AUX_H

#include <linux/types.h>
#include <asm/page.h>
#include <pfmk/pfmk.h>

/* pfmk_aux_setup() flags */
#define PFMK_AUX_SNAPSHOT	0x1	/* overwrite (snapshot) mode */

/* Smallest and largest AUX buffer pfmk_aux_setup() accepts, in bytes. */
#define PFMK_AUX_MIN_SIZE	PAGE_SIZE
#define PFMK_AUX_MAX_SIZE	(64UL << 20)

/* &pfmk_aux_info.flags */
/* data was overwritten before &pfmk_aux_info.from (snapshot mode) */
#define PFMK_AUX_WRAPPED	0x1
/* the PMU dropped data since the previous pfmk_aux_copy() */
#define PFMK_AUX_TRUNCATED	0x2

/* PMU names pfmk_aux_setup() accepts at load (prefix match). */
#define PFMK_AUX_PMUS		{ "intel_pt", "arm_spe", "cs_etm", \
				  "pfmk_aux_test" }

/**
 * struct pfmk_aux_info - what one pfmk_aux_copy() copied
 * @head: bytes the PMU has written to the buffer since the context was
 *	loaded (the stream position of its next byte), whether its driver
 *	reports a growing head (arm_spe, CoreSight) or, as intel_pt and
 *	intel_bts do in snapshot mode, an offset inside the buffer: the
 *	kernel patch accumulates the latter at every AUX transaction.  A
 *	driver that laps the buffer more than once within one transaction
 *	is counted one lap (no one can tell more).
 * @from: stream position of the first byte copied.
 * @to: stream position after the last byte copied (@to - @from bytes
 *	were copied).
 * @lost: stream bytes that were overwritten (snapshot mode) or dropped
 *	by the PMU, as far as pfmk can tell: in snapshot mode, the bytes
 *	before @head - size, in total.
 * @truncated: AUX transactions the PMU reported as truncated since load.
 * @size: size of the AUX buffer in bytes.
 * @flags: PFMK_AUX_WRAPPED, PFMK_AUX_TRUNCATED.
 */
struct pfmk_aux_info {
	u64	head;
	u64	from;
	u64	to;
	u64	lost;
	u64	truncated;
	u64	size;
	u32	flags;
};

/**
 * typedef pfmk_aux_copy_t - receives AUX data from pfmk_aux_copy()
 * @data: the caller's argument.
 * @src: the next contiguous piece of AUX data.
 * @len: its length.
 *
 * Called in stream order, under rcu_read_lock(): must not sleep.
 * Return: 0 to continue, non-zero to stop the copy (-EFAULT).
 */
typedef int (*pfmk_aux_copy_t)(void *data, const void *src, size_t len);

/*
 * Default-format AUX snippets: with a snippet size N in
 * pfm_dfl_smpl_arg.reserved1 (0: none, the 2006 layout; else a multiple of
 * 8 up to PFMK_DFL_AUX_MAX), every entry carries, after its PMD values, a
 * struct pfmk_dfl_aux_snippet and N bytes, of which the first @len are
 * the last AUX bytes before @head and the rest are zero.  The header's
 * hdr_reserved[0] then holds sizeof(struct pfmk_dfl_aux_snippet) + N.
 */
#define PFMK_DFL_AUX_MAX	4096

/**
 * struct pfmk_dfl_aux_snippet - AUX snippet header in a default-format entry
 * @head: AUX stream position at the overflow; the snippet ends there.
 * @len: valid bytes of the snippet (less than its size when the stream
 *	is shorter, 0 without an AUX buffer).
 * @flags: PFMK_AUX_WRAPPED if the stream wrapped in snapshot mode.
 */
struct pfmk_dfl_aux_snippet {
	__u64	head;
	__u32	len;
	__u32	flags;
};

__pfmk_must_check int pfmk_aux_setup(void *desc, unsigned int pmd, size_t size,
				     unsigned int flags);
__pfmk_must_check int pfmk_aux_copy(void *desc, size_t max, pfmk_aux_copy_t fn,
				    void *data, struct pfmk_aux_info *info);
bool pfmk_aux_supported(void);

#endif /* _PFMK_AUX_H */
