/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk default sampling format: the perfmon2 2006 layout.
 *
 * Select it by copying PFM_DFL_SMPL_UUID into pfarg_ctx.ctx_smpl_buf_id
 * and passing a struct pfm_dfl_smpl_arg as the sampling argument of
 * pfmk_create_context(), which returns the buffer's kernel address.
 *
 * The buffer is a struct pfm_dfl_smpl_hdr followed by entries.  An entry
 * is a struct pfm_dfl_smpl_entry followed by one __u64 per PMD set in the
 * overflowing PMD's reg_smpl_pmds, lowest index first: its size is
 * sizeof(struct pfm_dfl_smpl_entry) + 8 * popcount(reg_smpl_pmds).
 *
 * Which bytes are valid: the writer (the overflow handler on the
 * context's CPU) fills an entry, then publishes it with a release store
 * of hdr_count (hdr_cur_offs is updated before).  A reader loads
 * hdr_count with smp_load_acquire() and may then read that many entries
 * from the start of the buffer; entries never move or change until
 * pfmk_restart() empties the buffer, which only happens at the owner's
 * request.  Read hdr_overflows after hdr_count.
 *
 * pfmk: where perf throttled the PMD's event at an overflow (perfmon2 had
 * no throttling), the entry of that overflow carries
 * PFMK_DFL_ENT_THROTTLED in its reserved field, and
 * hdr_reserved[PFMK_DFL_HDR_THROTTLED] counts such entries: the event was
 * stopped after it, and the overflows it would have raised until perf
 * started it again (a later tick) are missing.  2006 clients, which
 * ignore both fields, read the buffer as before.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_SMPL_DFL_H
#define _PFMK_SMPL_DFL_H

#include <linux/types.h>

/* The 2006 identifier of the default format. */
#define PFM_DFL_SMPL_UUID { \
	0xd1, 0x39, 0xb2, 0x9e, 0x62, 0xe8, 0x40, 0xe4, \
	0xb4, 0x02, 0x73, 0x07, 0x87, 0x92, 0xe9, 0x37}

#define PFM_DFL_SMPL_NAME	"default"

/**
 * struct pfm_dfl_smpl_arg - sampling argument of the default format
 * @buf_size: size of the buffer in bytes, header included.
 * @buf_flags: copied to the header; no flag is defined.
 * @reserved1: pfmk: AUX snippet bytes per entry, 0 for none (see
 *	<pfmk/aux.h>).
 * @reserved: reserved.
 */
struct pfm_dfl_smpl_arg {
	__u64	buf_size;
	__u32	buf_flags;
	__u32	reserved1;
	__u64	reserved[6];
};

/**
 * struct pfm_dfl_smpl_hdr - header at the start of the buffer
 * @hdr_count: number of valid entries (published last, with release).
 * @hdr_cur_offs: offset of the next entry from the start of the buffer.
 * @hdr_overflows: number of times the buffer was full.
 * @hdr_buf_size: size of the buffer in bytes.
 * @hdr_min_buf_space: size of the largest entry this context can write;
 *	the buffer is full when less than this is left.
 * @hdr_version: PFM_DFL_SMPL_VERSION.
 * @hdr_buf_flags: buf_flags of the sampling argument.
 * @hdr_reserved: reserved; pfmk: [0] is the AUX snippet bytes per entry,
 *	[PFMK_DFL_HDR_THROTTLED] the entries recorded with
 *	PFMK_DFL_ENT_THROTTLED since the context was created (written
 *	before hdr_count publishes the entry; pfmk_restart() keeps it, as
 *	hdr_overflows).
 */
struct pfm_dfl_smpl_hdr {
	__u64	hdr_count;
	__u64	hdr_cur_offs;
	__u64	hdr_overflows;
	__u64	hdr_buf_size;
	__u64	hdr_min_buf_space;
	__u32	hdr_version;
	__u32	hdr_buf_flags;
	__u64	hdr_reserved[10];
};

/**
 * struct pfm_dfl_smpl_entry - fixed part of a sample
 * @pid: thread id of the interrupted task (0 for idle).
 * @ovfl_pmd: the PMD that overflowed.
 * @reserved: reserved in perfmon2, 0; pfmk: PFMK_DFL_ENT_* flags.
 * @last_reset_val: value the PMD was last reset to before this overflow.
 * @ip: interrupted instruction pointer.
 * @tstamp: local_clock() at the overflow, in ns.
 * @cpu: CPU of the overflow.
 * @set: event set active at the overflow.
 * @tgid: thread group id of the interrupted task.
 */
struct pfm_dfl_smpl_entry {
	__u32	pid;
	__u16	ovfl_pmd;
	__u16	reserved;
	__u64	last_reset_val;
	__u64	ip;
	__u64	tstamp;
	__u16	cpu;
	__u16	set;
	__u32	tgid;
};

/* pfmk: flags in pfm_dfl_smpl_entry.reserved. */
#define PFMK_DFL_ENT_THROTTLED	0x1	/* perf throttled the event here */

/* pfmk: index in pfm_dfl_smpl_hdr.hdr_reserved of the throttled entries. */
#define PFMK_DFL_HDR_THROTTLED	1

#define PFM_DFL_SMPL_VERSION_MAJ	1U
#define PFM_DFL_SMPL_VERSION_MIN	0U
#define PFM_DFL_SMPL_VERSION	(((PFM_DFL_SMPL_VERSION_MAJ & 0xffff) << 16) | \
				 (PFM_DFL_SMPL_VERSION_MIN & 0xffff))

#endif /* _PFMK_SMPL_DFL_H */
