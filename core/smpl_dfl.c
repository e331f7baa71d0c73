// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk default sampling format (<pfmk/smpl_dfl.h>), registered by the core.
 *
 * The buffer is a header and a run of variable-size entries.  The overflow
 * path (one at a time per context) appends an entry, then publishes it:
 * hdr_cur_offs first, hdr_count last with a release store.  The common
 * entry, without PMD values nor AUX snippet, is written in place by
 * core/ovfl.c; the others by pfmk_dfl_handler(); both through the helpers
 * of core/smpl_dfl.h (pfmk_dfl_room(), pfmk_dfl_entry_fill(),
 * pfmk_dfl_commit()).
 * As perfmon2 2.2's default format, it asks the core to reset the PMD
 * after each entry (PFM_OVFL_CTRL_RESET); when less than hdr_min_buf_space
 * is left after an entry, the buffer is full: hdr_overflows grows and it
 * asks for PFM_OVFL_CTRL_NOTIFY | PFM_OVFL_CTRL_MASK (the notification
 * goes out if the PMD has PFM_REGFL_OVFL_NOTIFY); pfmk_restart() empties
 * the buffer.
 *
 * The owner can write the whole buffer, header included: the sizes and
 * the write offset that bound the handler's writes live in the format's
 * private state (struct pfmk_dfl_priv), as perf bounds its ring buffer
 * with kernel-private sizes; the header is output only.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <pfmk/aux.h>
#include <pfmk/smpl_dfl.h>

#include "internal.h"
#include "smpl_dfl.h"

/*
 * Largest buffer the default format itself accepts (its offsets are kept
 * in 64 bits, this only bounds the arithmetic); pfmk's max_smpl_buf limit
 * (64 MiB by default, core/limits.c) applies below it.
 */
#define PFMK_DFL_BUF_MAX	SZ_1G

static_assert(PFMK_DFL_AUX_MAX <= PFMK_SMPL_AUX_MAX);

/*
 * pfmk AUX: bytes an AUX snippet adds to each entry (0 without
 * reserved1 in the argument; see <pfmk/aux.h>); kept in hdr_reserved[0].
 */
static size_t pfmk_dfl_aux_bytes(const struct pfm_dfl_smpl_arg *arg)
{
	if (!arg->reserved1)
		return 0;
	return sizeof(struct pfmk_dfl_aux_snippet) + arg->reserved1;
}

static size_t pfmk_dfl_max_entry(unsigned int npmds, size_t aux)
{
	return sizeof(struct pfm_dfl_smpl_entry) + npmds * sizeof(u64) + aux;
}

static ssize_t pfmk_dfl_get_size(const void *data, unsigned int npmds)
{
	const struct pfm_dfl_smpl_arg *arg = data;

	if (arg->reserved1) {
		if (arg->reserved1 % 8 || arg->reserved1 > PFMK_DFL_AUX_MAX)
			return -EINVAL;
		if (!pfmk_aux_buf_supported())
			return -EOPNOTSUPP;
	}
	if (arg->buf_size < sizeof(struct pfm_dfl_smpl_hdr) +
			    pfmk_dfl_max_entry(npmds, pfmk_dfl_aux_bytes(arg)))
		return -EINVAL;
	if (arg->buf_size > PFMK_DFL_BUF_MAX)
		return -E2BIG;
	return arg->buf_size;
}

static void pfmk_dfl_init(void *buf, void *data, size_t size,
			  const void *argp, unsigned int npmds)
{
	const struct pfm_dfl_smpl_arg *arg = argp;
	struct pfm_dfl_smpl_hdr *hdr = buf;
	struct pfmk_dfl_priv *priv = data;

	priv->buf_size = size;
	priv->aux_bytes = pfmk_dfl_aux_bytes(arg);
	priv->max_entry = pfmk_dfl_max_entry(npmds, priv->aux_bytes);
	priv->cur = sizeof(*hdr);
	hdr->hdr_version = PFM_DFL_SMPL_VERSION;
	hdr->hdr_buf_size = size;
	hdr->hdr_buf_flags = arg->buf_flags;
	hdr->hdr_min_buf_space = priv->max_entry;
	hdr->hdr_reserved[0] = priv->aux_bytes;
	hdr->hdr_cur_offs = priv->cur;
	hdr->hdr_count = 0;
	hdr->hdr_overflows = 0;
}

/* pfmk AUX: a snippet header and the last AUX bytes, zero-padded. */
static void pfmk_dfl_aux(const struct pfmk_ovfl_arg *arg, void *at,
			 size_t bytes)
{
	struct pfmk_dfl_aux_snippet *snip = at;
	size_t max = bytes - sizeof(*snip);

	snip->head = arg->aux_head;
	snip->len = arg->aux_len;
	snip->flags = arg->aux_flags;
	if (arg->aux_len)
		memcpy(snip + 1, arg->aux_data, arg->aux_len);
	memset((void *)(snip + 1) + arg->aux_len, 0, max - arg->aux_len);
}

/* pfmk AUX: the snippet bytes the core copies for each entry. */
static size_t pfmk_dfl_aux_size(const void *argp)
{
	const struct pfm_dfl_smpl_arg *arg = argp;

	return arg->reserved1;
}

/* The buffer is full: count it, ask for a notification and masking. */
static void pfmk_dfl_full(struct pfm_dfl_smpl_hdr *hdr,
			  struct pfmk_dfl_priv *priv, struct pfmk_ovfl_arg *arg)
{
	WRITE_ONCE(hdr->hdr_overflows, ++priv->overflows);
	arg->ovfl_ctrl = PFM_OVFL_CTRL_NOTIFY | PFM_OVFL_CTRL_MASK;
}

/**
 * pfmk_dfl_handler() - record one overflow in a default-format buffer
 * @buf: the sampling buffer.
 * @data: the format's private state (struct pfmk_dfl_priv).
 * @arg: the overflow; ->ovfl_ctrl is set.
 *
 * Not static: the overflow path calls it directly (INDIRECT_CALL_1()).
 *
 * Context: the overflow path (NMI, hard-irq, or a software event's task
 * with interrupts on), one call at a time per context.
 * Return: 0 if recorded, -ENOBUFS if the buffer had no room.
 */
int pfmk_dfl_handler(void *buf, void *data, struct pfmk_ovfl_arg *arg)
{
	struct pfm_dfl_smpl_hdr *hdr = buf;
	struct pfmk_dfl_priv *priv = data;
	struct pfm_dfl_smpl_entry *ent;
	size_t cur, size;

	size = sizeof(*ent) + arg->nr_smpl_pmds * sizeof(u64) +
	       priv->aux_bytes;
	if (!pfmk_dfl_room(priv, size)) {
		pfmk_dfl_full(hdr, priv, arg);
		return -ENOBUFS;
	}

	cur = priv->cur;
	ent = buf + cur;
	pfmk_dfl_entry_fill(ent, arg);
	if (arg->nr_smpl_pmds)
		memcpy(ent + 1, arg->smpl_pmds_val,
		       arg->nr_smpl_pmds * sizeof(u64));
	if (priv->aux_bytes)	/* pfmk AUX: the snippet */
		pfmk_dfl_aux(arg, (u64 *)(ent + 1) + arg->nr_smpl_pmds,
			     priv->aux_bytes);

	arg->ovfl_ctrl = pfmk_dfl_commit(buf, priv, cur + size,
					 arg->throttled);
	return 0;
}

static void pfmk_dfl_restart(void *buf, void *data)
{
	struct pfm_dfl_smpl_hdr *hdr = buf;
	struct pfmk_dfl_priv *priv = data;

	priv->cur = sizeof(*hdr);
	priv->count = 0;
	hdr->hdr_cur_offs = priv->cur;
	/* The next handler runs after the restart's unmask (a release). */
	WRITE_ONCE(hdr->hdr_count, 0);
}

static struct pfmk_smpl_fmt pfmk_dfl_fmt = {
	.name		= PFM_DFL_SMPL_NAME,
	.uuid		= PFM_DFL_SMPL_UUID,
	.owner		= THIS_MODULE,
	.arg_size	= sizeof(struct pfm_dfl_smpl_arg),
	.priv_size	= sizeof(struct pfmk_dfl_priv),
	.get_size	= pfmk_dfl_get_size,
	.init		= pfmk_dfl_init,
	.handler	= pfmk_dfl_handler,
	.restart	= pfmk_dfl_restart,
	.aux_size	= pfmk_dfl_aux_size,
};

/**
 * pfmk_smpl_dfl_init() - register the default sampling format
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int pfmk_smpl_dfl_init(void)
{
	return pfmk_smpl_fmt_register(&pfmk_dfl_fmt);
}

/**
 * pfmk_smpl_dfl_exit() - unregister the default sampling format
 *
 * Context: module exit.
 */
void pfmk_smpl_dfl_exit(void)
{
	pfmk_smpl_fmt_unregister(&pfmk_dfl_fmt);
}
