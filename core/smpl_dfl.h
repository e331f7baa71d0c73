/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk's default sampling format (core/smpl_dfl.c), its internals: the
 * private state of a context's buffer and the three steps that write an
 * entry, shared by the format's handler and by the overflow path
 * (core/ovfl.c), which writes the entries of the default format in place.
 * The buffer's layout, what clients see, is <pfmk/smpl_dfl.h>.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_CORE_SMPL_DFL_H
#define _PFMK_CORE_SMPL_DFL_H

#include <linux/compiler.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/types.h>
#include <asm/barrier.h>
#include <pfmk/smpl.h>
#include <pfmk/smpl_dfl.h>

/**
 * struct pfmk_dfl_priv - the default format's private state per context
 * @buf_size: size of the buffer.
 * @max_entry: size of the largest entry (hdr_min_buf_space).
 * @aux_bytes: AUX snippet bytes per entry (hdr_reserved[0]).
 * @cur: offset of the next entry (hdr_cur_offs).
 * @count: entries in the buffer (hdr_count).
 * @overflows: times the buffer was full (hdr_overflows).
 * @throttled: entries of throttled overflows
 *	(hdr_reserved[PFMK_DFL_HDR_THROTTLED]).
 */
struct pfmk_dfl_priv {
	size_t	buf_size;
	size_t	max_entry;
	size_t	aux_bytes;
	size_t	cur;
	u64	count;
	u64	overflows;
	u64	throttled;
};

/**
 * pfmk_dfl_room() - does a default-format buffer have room for an entry?
 * @priv: the format's private state.
 * @size: size of the entry.
 *
 * Every bound comes from @priv, never from the buffer, which its owner
 * may write.
 *
 * Context: the overflow path (NMI, hard-irq, or a software event's task
 * with interrupts on), owning the context (ctx->ovfl_busy).
 * Return: true if @size bytes fit at priv->cur.
 */
static __always_inline bool pfmk_dfl_room(const struct pfmk_dfl_priv *priv,
					  size_t size)
{
	return size <= priv->max_entry && priv->cur + size <= priv->buf_size;
}

/**
 * pfmk_dfl_entry_fill() - write the fixed part of a default-format entry
 * @ent: the entry, at priv->cur in the buffer.
 * @arg: the overflow.
 *
 * The one writer of struct pfm_dfl_smpl_entry, for pfmk_dfl_handler() and
 * for the overflow path's in-place entry (whose @arg is a local the
 * compiler keeps in registers).
 *
 * Context: the overflow path, owning the context (ctx->ovfl_busy).
 */
static __always_inline void
pfmk_dfl_entry_fill(struct pfm_dfl_smpl_entry *ent,
		    const struct pfmk_ovfl_arg *arg)
{
	ent->pid = arg->pid;
	ent->ovfl_pmd = arg->ovfl_pmd;
	ent->reserved = arg->throttled ? PFMK_DFL_ENT_THROTTLED : 0;
	ent->last_reset_val = arg->last_reset_val;
	ent->ip = arg->ip;
	ent->tstamp = arg->tstamp;
	ent->cpu = arg->cpu;
	ent->set = arg->active_set;
	ent->tgid = arg->tgid;
}

/**
 * pfmk_dfl_commit() - publish the entry written at priv->cur
 * @buf: the sampling buffer.
 * @priv: the format's private state.
 * @end: offset of the entry's end: priv->cur plus its size, checked by
 *	pfmk_dfl_room() (the caller's copy: the entry's stores may alias
 *	@priv for the compiler, which would load priv->cur again).
 * @throttled: the entry is of a throttled overflow (pfmk_ovfl_arg).
 *
 * hdr_cur_offs and the count of throttled entries first, hdr_count last
 * with a release store (pairs with the reader's smp_load_acquire()).  As
 * perfmon2 2.2, the buffer is full when no further entry of the largest
 * size fits after this one.
 *
 * Context: the overflow path (NMI, hard-irq, or a software event's task
 * with interrupts on), owning the context (ctx->ovfl_busy).
 * Return: PFM_OVFL_CTRL_RESET, or NOTIFY | MASK when the buffer is full.
 */
static __always_inline u32 pfmk_dfl_commit(void *buf,
					   struct pfmk_dfl_priv *priv,
					   size_t end, bool throttled)
{
	struct pfm_dfl_smpl_hdr *hdr = buf;

	priv->cur = end;
	WRITE_ONCE(hdr->hdr_cur_offs, end);
	if (unlikely(throttled))
		WRITE_ONCE(hdr->hdr_reserved[PFMK_DFL_HDR_THROTTLED],
			   ++priv->throttled);
	/* Publish the entry: pairs with the reader's smp_load_acquire(). */
	smp_store_release(&hdr->hdr_count, ++priv->count);
	if (end + priv->max_entry > priv->buf_size) {
		WRITE_ONCE(hdr->hdr_overflows, ++priv->overflows);
		return PFM_OVFL_CTRL_NOTIFY | PFM_OVFL_CTRL_MASK;
	}
	return PFM_OVFL_CTRL_RESET;
}

/**
 * pfmk_dfl_record_plain() - an entry without PMD values, written in place
 * @buf: the sampling buffer.
 * @priv: its private state.
 * @arg: the overflow's arguments, without PMD values nor AUX snippet;
 *	their CPU, task and IP are filled in here, once the entry fits.
 * @regs: the interrupted registers, or NULL.
 * @smpl_count: the context's sample count, incremented if the entry fits.
 *
 * What pfmk_dfl_handler() writes for such an overflow, without the call:
 * the overflow path's plain sample.
 *
 * Context: the overflow path, owning the context (ctx->ovfl_busy).
 * Return: the format's answer (see pfmk_dfl_commit()), or 0 if the entry
 * does not fit: the caller then calls the format, which records the
 * buffer full.
 */
static __always_inline u32 pfmk_dfl_record_plain(void *buf,
						 struct pfmk_dfl_priv *priv,
						 struct pfmk_ovfl_arg *arg,
						 struct pt_regs *regs,
						 u64 *smpl_count)
{
	size_t cur = priv->cur;
	struct pfm_dfl_smpl_entry *ent = buf + cur;

	/* Every entry fits within max_entry: only the buffer's end counts. */
	if (unlikely(cur + sizeof(*ent) > priv->buf_size))
		return 0;
	arg->cpu = smp_processor_id();
	arg->pid = task_pid_nr(current);
	arg->tgid = task_tgid_nr(current);
	arg->ip = regs ? instruction_pointer(regs) : 0;
	pfmk_dfl_entry_fill(ent, arg);
	(*smpl_count)++;
	return pfmk_dfl_commit(buf, priv, cur + sizeof(*ent), arg->throttled);
}

int pfmk_dfl_handler(void *buf, void *data, struct pfmk_ovfl_arg *arg);
int pfmk_smpl_dfl_init(void);
void pfmk_smpl_dfl_exit(void);

#endif /* _PFMK_CORE_SMPL_DFL_H */
