/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk sampling formats: the plug-in interface.
 *
 * As in perfmon2, a sampling format owns the layout of a context's
 * sampling buffer.  pfmk allocates the buffer (vmalloc, never mapped to
 * user space) and hands its kernel address to the context's owner; the
 * format's ->handler() records one overflow into it.  The core registers
 * the default format (<pfmk/smpl_dfl.h>); other formats register with
 * pfmk_smpl_fmt_register() and are selected by UUID in
 * pfarg_ctx.ctx_smpl_buf_id.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_SMPL_H
#define _PFMK_SMPL_H

#include <linux/list.h>
#include <linux/module.h>
#include <pfmk/pfmk.h>

/* ->handler() return values besides 0 (recorded, room left). */
#define PFMK_SMPL_FULL		1	/* recorded, now full: notify, mask */
#define PFMK_SMPL_DROPPED	2	/* no room: not recorded; notify, mask */

/**
 * struct pfmk_ovfl_arg - one overflow, as handed to a format's ->handler()
 * @ovfl_pmd: the PMD that overflowed.
 * @active_set: event set active at the overflow.
 * @cpu: CPU of the overflow.
 * @pid: thread id of the interrupted task.
 * @tgid: thread group id of the interrupted task.
 * @ip: interrupted instruction pointer.
 * @tstamp: local_clock() at the overflow.
 * @last_reset_val: value the PMD was reset to before this overflow.
 * @eventid: reg_smpl_eventid of the PMD.
 * @nr_smpl_pmds: number of values in @smpl_pmds_val.
 * @smpl_pmds_val: values of the PMDs in the PMD's reg_smpl_pmds, lowest
 *	index first, at the overflow.
 * @ctx: the context, opaque; pfmk's default format reads its AUX buffer.
 */
struct pfmk_ovfl_arg {
	u16		ovfl_pmd;
	u16		active_set;
	u16		cpu;
	u32		pid;
	u32		tgid;
	u64		ip;
	u64		tstamp;
	u64		last_reset_val;
	u64		eventid;
	unsigned int	nr_smpl_pmds;
	const u64	*smpl_pmds_val;
	void		*ctx;
};

/**
 * struct pfmk_smpl_fmt - a sampling format
 * @name: name, for messages.
 * @uuid: identifier matched against pfarg_ctx.ctx_smpl_buf_id.
 * @owner: module implementing the format (THIS_MODULE); pinned while a
 *	context uses the format.
 * @arg_size: size of the sampling argument the format expects.
 * @get_size: validate the argument; return the buffer size in bytes, or
 *	a negative errno (-EINVAL, -E2BIG).  @npmds is the number of PMDs of
 *	the context.
 * @init: initialize a zeroed buffer of @size bytes.
 * @handler: record one overflow.  Runs in NMI or hard-irq context on the
 *	context's CPU, one call at a time per context: no locks, no
 *	allocation, no sleeping.  Return 0, PFMK_SMPL_FULL or
 *	PFMK_SMPL_DROPPED; the last two notify the owner and mask the
 *	context.
 * @restart: empty the buffer; called by pfmk_restart() in process
 *	context while no ->handler() can run.
 * @list: private to the core.
 */
struct pfmk_smpl_fmt {
	const char	*name;
	pfm_uuid_t	uuid;
	struct module	*owner;
	size_t		arg_size;
	ssize_t (*get_size)(const void *arg, unsigned int npmds);
	void (*init)(void *buf, size_t size, const void *arg,
		     unsigned int npmds);
	int (*handler)(void *buf, const struct pfmk_ovfl_arg *arg);
	void (*restart)(void *buf);
	struct list_head list;
};

int pfmk_smpl_fmt_register(struct pfmk_smpl_fmt *fmt);
void pfmk_smpl_fmt_unregister(struct pfmk_smpl_fmt *fmt);

#endif /* _PFMK_SMPL_H */
