// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KAPI: the ABI of perfmon2 2.2, checked at build time.
 *
 * 2006 clients were compiled against perfmon2 2.2's include/linux/perfmon.h
 * and perfmon_dfl_smpl.h.  The field offsets and sizes below are written
 * out from 2.2's field order, so that a change to pfmk's headers that
 * moves a field breaks the build, not a client.  This file holds nothing
 * else: it compiles to no code.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

/* Bytes of a PMD bit vector (PFM_PMD_BV u64s). */
#define PFMK_BV8	(8 * PFM_PMD_BV)
static_assert(sizeof(pfm_uuid_t) == 16);
static_assert(offsetof(struct pfarg_ctx, ctx_flags) == 16);
static_assert(offsetof(struct pfarg_ctx, ctx_fd) == 20);
static_assert(offsetof(struct pfarg_ctx, ctx_smpl_buf_size) == 24);
static_assert(offsetof(struct pfarg_ctx, ctx_reserved3) == 32);
static_assert(sizeof(struct pfarg_ctx) == 32 + 12 * 8);
static_assert(offsetof(struct pfarg_pmc, reg_set) == 2);
static_assert(offsetof(struct pfarg_pmc, reg_flags) == 4);
static_assert(offsetof(struct pfarg_pmc, reg_value) == 8);
static_assert(sizeof(struct pfarg_pmc) == 16 + 4 * 8);
static_assert(offsetof(struct pfarg_pmd, reg_set) == 2);
static_assert(offsetof(struct pfarg_pmd, reg_flags) == 4);
static_assert(offsetof(struct pfarg_pmd, reg_value) == 8);
static_assert(offsetof(struct pfarg_pmd, reg_long_reset) == 16);
static_assert(offsetof(struct pfarg_pmd, reg_short_reset) == 24);
static_assert(offsetof(struct pfarg_pmd, reg_last_reset_val) == 32);
static_assert(offsetof(struct pfarg_pmd, reg_ovfl_switch_cnt) == 40);
static_assert(offsetof(struct pfarg_pmd, reg_reset_pmds) == 48);
static_assert(offsetof(struct pfarg_pmd, reg_smpl_pmds) == 48 + PFMK_BV8);
static_assert(offsetof(struct pfarg_pmd, reg_smpl_eventid) ==
	      48 + 2 * PFMK_BV8);
static_assert(offsetof(struct pfarg_pmd, reg_random_mask) ==
	      56 + 2 * PFMK_BV8);
static_assert(offsetof(struct pfarg_pmd, reg_random_seed) ==
	      64 + 2 * PFMK_BV8);
static_assert(sizeof(struct pfarg_pmd) == 96 + 2 * PFMK_BV8);
static_assert(offsetof(struct pfarg_start, start_reserved2) == 4);
static_assert(sizeof(struct pfarg_start) == 32);
static_assert(offsetof(struct pfarg_load, load_set) == 4);
static_assert(offsetof(struct pfarg_load, load_reserved2) == 8);
static_assert(sizeof(struct pfarg_load) == 32);
static_assert(offsetof(struct pfarg_setdesc, set_flags) == 4);
static_assert(offsetof(struct pfarg_setdesc, set_timeout) == 8);
static_assert(offsetof(struct pfarg_setdesc, set_mmap_offset) == 16);
static_assert(sizeof(struct pfarg_setdesc) == 64);
static_assert(offsetof(struct pfarg_setinfo, set_flags) == 4);
static_assert(offsetof(struct pfarg_setinfo, set_ovfl_pmds) == 8);
static_assert(offsetof(struct pfarg_setinfo, set_runs) == 8 + PFMK_BV8);
static_assert(offsetof(struct pfarg_setinfo, set_timeout) == 16 + PFMK_BV8);
static_assert(offsetof(struct pfarg_setinfo, set_act_duration) ==
	      24 + PFMK_BV8);
static_assert(offsetof(struct pfarg_setinfo, set_mmap_offset) ==
	      32 + PFMK_BV8);
static_assert(offsetof(struct pfm_ovfl_msg, msg_ovfl_pid) == 4);
static_assert(offsetof(struct pfm_ovfl_msg, msg_ovfl_pmds) == 8);
static_assert(offsetof(struct pfm_ovfl_msg, msg_active_set) ==
	      8 + 8 * PFM_HW_PMD_BV);
static_assert(offsetof(struct pfm_ovfl_msg, msg_ovfl_cpu) ==
	      10 + 8 * PFM_HW_PMD_BV);
static_assert(offsetof(struct pfm_ovfl_msg, msg_ovfl_tid) ==
	      12 + 8 * PFM_HW_PMD_BV);
static_assert(offsetof(struct pfm_ovfl_msg, msg_ovfl_ip) ==
	      16 + 8 * PFM_HW_PMD_BV);
static_assert(offsetof(union pfm_msg, type) == 0);
static_assert(offsetof(union pfm_msg, pfm_ovfl_msg) == 0);
static_assert(sizeof(union pfm_msg) >= sizeof(struct pfm_ovfl_msg));
/* The default sampling format (perfmon_dfl_smpl.h). */
static_assert(offsetof(struct pfm_dfl_smpl_arg, buf_flags) == 8);
static_assert(sizeof(struct pfm_dfl_smpl_arg) == 64);
static_assert(offsetof(struct pfm_dfl_smpl_hdr, hdr_cur_offs) == 8);
static_assert(offsetof(struct pfm_dfl_smpl_hdr, hdr_overflows) == 16);
static_assert(offsetof(struct pfm_dfl_smpl_hdr, hdr_buf_size) == 24);
static_assert(offsetof(struct pfm_dfl_smpl_hdr, hdr_min_buf_space) == 32);
static_assert(offsetof(struct pfm_dfl_smpl_hdr, hdr_version) == 40);
static_assert(offsetof(struct pfm_dfl_smpl_hdr, hdr_buf_flags) == 44);
static_assert(sizeof(struct pfm_dfl_smpl_hdr) == 128);
static_assert(PFM_DFL_SMPL_VERSION == 0x10000);
static_assert(offsetof(struct pfm_dfl_smpl_entry, ovfl_pmd) == 4);
static_assert(offsetof(struct pfm_dfl_smpl_entry, last_reset_val) == 8);
static_assert(offsetof(struct pfm_dfl_smpl_entry, ip) == 16);
static_assert(offsetof(struct pfm_dfl_smpl_entry, tstamp) == 24);
static_assert(offsetof(struct pfm_dfl_smpl_entry, cpu) == 32);
static_assert(offsetof(struct pfm_dfl_smpl_entry, set) == 34);
static_assert(offsetof(struct pfm_dfl_smpl_entry, tgid) == 36);
static_assert(sizeof(struct pfm_dfl_smpl_entry) == 40);
