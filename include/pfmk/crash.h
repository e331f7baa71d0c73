/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk post-mortem extension: a context can ask to be frozen when the
 * kernel oopses or panics.  pfmk's die and panic hooks then stop its
 * sampling (the overflow handler records nothing more: the sampling
 * buffer, the messages and the PMD resets stay as they were), keep the
 * values of its PMDs, its sample count and the newest bytes of its AUX
 * buffer as they were at that moment, and, if asked, print a bounded
 * summary of them in the kernel log, which pstore/ramoops keeps across
 * the reboot.  A crash dump (kdump, a hypervisor's memory dump) holds the
 * context itself: scripts/pfmk-drgn.py decodes it.
 *
 * A 2006 client never calls pfmk_crash_setup() and is unaffected.  See
 * Documentation/postmortem.rst.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_CRASH_H
#define _PFMK_CRASH_H

#include <linux/types.h>
#include <pfmk/pfmk.h>

/* pfmk_crash_setup() flags */
#define PFMK_CRASH_FREEZE	0x1	/* freeze the context at an oops or a panic */
#define PFMK_CRASH_LOG		0x2	/* and print its summary in the kernel log */

/* Most newest AUX bytes a freeze keeps (pfmk_crash_setup()'s @aux_keep). */
#define PFMK_CRASH_AUX_MAX	(64U << 10)

/* What the summary in the kernel log holds at most, per context. */
#define PFMK_CRASH_LOG_PMDS	32	/* PMD values */
#define PFMK_CRASH_LOG_SAMPLES	8	/* newest default-format samples */
#define PFMK_CRASH_LOG_AUX	256	/* newest AUX bytes, in hex */
#define PFMK_CRASH_LOG_CTXS	16	/* contexts per crash */

/* &pfmk_crash_info.reason: what froze the context */
#define PFMK_CRASH_NONE		0	/* not frozen */
#define PFMK_CRASH_OOPS		1	/* an oops (die notifier, DIE_OOPS) */
#define PFMK_CRASH_PANIC	2	/* a panic (panic notifier) */

/* &pfmk_crash_info.flags */
/* a value moved while it was read (a writer on a CPU stopped in it) */
#define PFMK_CRASH_TORN		0x1
/* the AUX stream had wrapped in snapshot mode: older bytes are gone */
#define PFMK_CRASH_AUX_WRAPPED	0x2
/*
 * the context counted on another CPU than the crashing one: its PMD
 * values are those its last overflow or read left (no IPI in a crash)
 */
#define PFMK_CRASH_REMOTE	0x4

/**
 * struct pfmk_crash_info - what a freeze kept of a context
 * @reason: PFMK_CRASH_NONE (not frozen), PFMK_CRASH_OOPS or
 *	PFMK_CRASH_PANIC.
 * @cpu: CPU that froze the context (the crashing one).
 * @ctx_cpu: the context's CPU at the freeze, -1 if it was unloaded.
 * @flags: PFMK_CRASH_TORN, PFMK_CRASH_AUX_WRAPPED, PFMK_CRASH_REMOTE.
 * @tstamp: local_clock() at the freeze, ns.
 * @ovfl_count: overflows the context had seen (pfmk_ctx_stats.ovfl_count).
 * @smpl_count: samples in the buffer: the default format's hdr_count,
 *	another format's pfmk_ctx_stats.smpl_count.
 * @aux_head: AUX stream position at the freeze (0 without AUX).
 * @aux_len: newest AUX bytes kept, ending at @aux_head.
 * @set: the event set active at the freeze, whose PMD values were kept.
 * @npmds: number of PMD values kept (the PMDs of the description).
 */
struct pfmk_crash_info {
	__u32	reason;
	__s32	cpu;
	__s32	ctx_cpu;
	__u32	flags;
	__u64	tstamp;
	__u64	ovfl_count;
	__u64	smpl_count;
	__u64	aux_head;
	__u32	aux_len;
	__u16	set;
	__u16	npmds;
};

__pfmk_must_check int pfmk_crash_setup(void *desc, unsigned int flags,
				       size_t aux_keep);
__pfmk_must_check int pfmk_crash_read(void *desc, struct pfmk_crash_info *info,
				      struct pfarg_pmd *pmds, int count,
				      void *aux, size_t aux_size);

#endif /* _PFMK_CRASH_H */
