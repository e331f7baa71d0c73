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

/*
 * What a format's ->handler() asks the core to do about the overflow it
 * recorded, in pfmk_ovfl_arg.ovfl_ctrl (perfmon2 2.2's names and values):
 * NOTIFY sends a notification if the overflowed PMD has
 * PFM_REGFL_OVFL_NOTIFY; RESET reloads the PMD and its reg_reset_pmds with
 * their short reset values; MASK masks the context until pfmk_restart(),
 * which reloads them with their long reset values instead.
 */
#define PFM_OVFL_CTRL_NOTIFY	0x1
#define PFM_OVFL_CTRL_RESET	0x2
#define PFM_OVFL_CTRL_MASK	0x4

/* Most AUX bytes a format may record per overflow (->aux_size()). */
#define PFMK_SMPL_AUX_MAX	4096

/**
 * struct pfmk_ovfl_arg - one overflow, as handed to a format's ->handler()
 * @ovfl_pmd: the PMD that overflowed.
 * @active_set: event set active at the overflow.
 * @cpu: CPU of the overflow.
 * @pid: thread id of the interrupted task.
 * @tgid: thread group id of the interrupted task.
 * @ip: interrupted instruction pointer.
 * @tstamp: local_clock() at the overflow.
 * @throttled: pfmk: perf throttled the PMD's event at this overflow (it
 *	had raised too many interrupts in one tick): the event is stopped
 *	until a later tick starts it again, and the overflows it would
 *	have raised meanwhile are lost.  The default format records it as
 *	PFMK_DFL_ENT_THROTTLED.
 * @last_reset_val: value the PMD was reset to before this overflow.
 * @eventid: reg_smpl_eventid of the PMD.
 * @nr_smpl_pmds: number of values in @smpl_pmds_val.
 * @smpl_pmds_val: values of the PMDs in the PMD's reg_smpl_pmds, lowest
 *	index first, at the overflow.
 * @aux_data: pfmk AUX: the last bytes of the context's AUX stream before
 *	@aux_head, @aux_len of them, copied by the core before ->handler()
 *	when the format records snippets (->aux_size()) and the context has
 *	an AUX buffer; else NULL.
 * @aux_head: AUX stream position at the overflow; the snippet ends there.
 * @aux_len: valid bytes at @aux_data; 0 without AUX data.
 * @aux_flags: PFMK_AUX_WRAPPED if the stream wrapped (snapshot mode).
 * @ovfl_ctrl: output of ->handler(): PFM_OVFL_CTRL_* bits, 0 on entry.
 */
struct pfmk_ovfl_arg {
	u16		ovfl_pmd;
	u16		active_set;
	u16		cpu;
	bool		throttled;
	u32		pid;
	u32		tgid;
	u64		ip;
	u64		tstamp;
	u64		last_reset_val;
	u64		eventid;
	unsigned int	nr_smpl_pmds;
	const u64	*smpl_pmds_val;
	const void	*aux_data;
	u64		aux_head;
	u32		aux_len;
	u32		aux_flags;
	u32		ovfl_ctrl;
};

/**
 * struct pfmk_smpl_fmt - a sampling format
 * @name: name, for messages.
 * @uuid: identifier matched against pfarg_ctx.ctx_smpl_buf_id.
 * @owner: module implementing the format (THIS_MODULE); pinned while a
 *	context uses the format.
 * @arg_size: size of the sampling argument the format expects.
 * @priv_size: bytes of format-private state per context (zeroed kernel
 *	memory the owner never sees, passed as @priv): keep there whatever
 *	bounds the writes of ->handler() (sizes, offsets), never in the
 *	buffer, which the owner can write.
 * @get_size: validate the argument; return the buffer size in bytes, or
 *	a negative errno (-EINVAL, -E2BIG).  @npmds is the number of PMDs of
 *	the context.
 * @init: initialize a zeroed buffer of @size bytes and the private state.
 * @handler: record one overflow and set @arg->ovfl_ctrl.  Runs in NMI,
 *	hard-irq, or (some software events: page faults) the task that
 *	raised the event with interrupts on and preemption off, on the
 *	context's CPU, one call at a time per context: no locks, no
 *	allocation, no sleeping.  Return 0 when the
 *	overflow was recorded, -ENOBUFS when there was no room for it.
 * @restart: empty the buffer; called by pfmk_restart() in process
 *	context while no ->handler() can run.
 * @aux_size: optional (pfmk AUX): how many of the last AUX bytes the
 *	format records per overflow with its argument @arg, at most
 *	PFMK_SMPL_AUX_MAX; 0 or no callback: none.  Called once, after
 *	->get_size() accepted @arg.  The core then copies up to that many
 *	bytes into pfmk_ovfl_arg.aux_data before each ->handler() call of a
 *	context with an AUX buffer (<pfmk/aux.h>).
 * @list: private to the core.
 */
struct pfmk_smpl_fmt {
	const char	*name;
	pfm_uuid_t	uuid;
	struct module	*owner;
	size_t		arg_size;
	size_t		priv_size;
	ssize_t (*get_size)(const void *arg, unsigned int npmds);
	void (*init)(void *buf, void *priv, size_t size, const void *arg,
		     unsigned int npmds);
	int (*handler)(void *buf, void *priv, struct pfmk_ovfl_arg *arg);
	void (*restart)(void *buf, void *priv);
	size_t (*aux_size)(const void *arg);
	struct list_head list;
};

int pfmk_smpl_fmt_register(struct pfmk_smpl_fmt *fmt);
void pfmk_smpl_fmt_unregister(struct pfmk_smpl_fmt *fmt);

#endif /* _PFMK_SMPL_H */
