// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk default sampling format (<pfmk/smpl_dfl.h>), registered by the core.
 *
 * The buffer is a header and a run of variable-size entries.  The handler
 * (one at a time per context, in NMI or hard-irq) appends an entry, then
 * publishes it: hdr_cur_offs first, hdr_count last with a release store.
 * When less than hdr_min_buf_space is left after an entry, the buffer is
 * full: hdr_overflows grows, and the core masks the context and notifies
 * the owner; pfmk_restart() empties the buffer.
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

/*
 * Largest buffer the default format itself accepts (its offsets are kept
 * in 64 bits, this only bounds the arithmetic); pfmk's max_smpl_buf limit
 * (64 MiB by default, core/limits.c) applies below it.
 */
#define PFMK_DFL_BUF_MAX	SZ_1G

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
		if (!pfmk_aux_supported())
			return -EOPNOTSUPP;
	}
	if (arg->buf_size < sizeof(struct pfm_dfl_smpl_hdr) +
			    pfmk_dfl_max_entry(npmds, pfmk_dfl_aux_bytes(arg)))
		return -EINVAL;
	if (arg->buf_size > PFMK_DFL_BUF_MAX)
		return -E2BIG;
	return arg->buf_size;
}

static void pfmk_dfl_init(void *buf, size_t size, const void *data,
			  unsigned int npmds)
{
	const struct pfm_dfl_smpl_arg *arg = data;
	struct pfm_dfl_smpl_hdr *hdr = buf;

	hdr->hdr_version = PFM_DFL_SMPL_VERSION;
	hdr->hdr_buf_size = size;
	hdr->hdr_buf_flags = arg->buf_flags;
	hdr->hdr_min_buf_space = pfmk_dfl_max_entry(npmds,
						    pfmk_dfl_aux_bytes(arg));
	hdr->hdr_reserved[0] = pfmk_dfl_aux_bytes(arg);
	hdr->hdr_cur_offs = sizeof(*hdr);
	hdr->hdr_count = 0;
	hdr->hdr_overflows = 0;
}

/* pfmk AUX: a snippet header and the last AUX bytes, zero-padded. */
static void pfmk_dfl_aux(const struct pfmk_ovfl_arg *arg, void *at,
			 size_t bytes)
{
	struct pfmk_dfl_aux_snippet *snip = at;
	size_t max = bytes - sizeof(*snip);

	pfmk_aux_snippet(arg->ctx, snip + 1, max, snip);
	memset((void *)(snip + 1) + snip->len, 0, max - snip->len);
}

static int pfmk_dfl_handler(void *buf, const struct pfmk_ovfl_arg *arg)
{
	struct pfm_dfl_smpl_hdr *hdr = buf;
	struct pfm_dfl_smpl_entry *ent;
	size_t size, cur = hdr->hdr_cur_offs;

	size = sizeof(*ent) + arg->nr_smpl_pmds * sizeof(u64) +
	       hdr->hdr_reserved[0];
	if (cur + size > hdr->hdr_buf_size) {
		WRITE_ONCE(hdr->hdr_overflows, hdr->hdr_overflows + 1);
		return PFMK_SMPL_DROPPED;
	}

	ent = buf + cur;
	ent->pid = arg->pid;
	ent->ovfl_pmd = arg->ovfl_pmd;
	ent->reserved = 0;
	ent->last_reset_val = arg->last_reset_val;
	ent->ip = arg->ip;
	ent->tstamp = arg->tstamp;
	ent->cpu = arg->cpu;
	ent->set = arg->active_set;
	ent->tgid = arg->tgid;
	memcpy(ent + 1, arg->smpl_pmds_val, arg->nr_smpl_pmds * sizeof(u64));
	if (hdr->hdr_reserved[0])	/* pfmk AUX: the snippet */
		pfmk_dfl_aux(arg, (u64 *)(ent + 1) + arg->nr_smpl_pmds,
			     hdr->hdr_reserved[0]);

	cur += size;
	WRITE_ONCE(hdr->hdr_cur_offs, cur);
	/* Publish the entry: pairs with the reader's smp_load_acquire(). */
	smp_store_release(&hdr->hdr_count, hdr->hdr_count + 1);

	if (cur + hdr->hdr_min_buf_space > hdr->hdr_buf_size) {
		WRITE_ONCE(hdr->hdr_overflows, hdr->hdr_overflows + 1);
		return PFMK_SMPL_FULL;
	}
	return 0;
}

static void pfmk_dfl_restart(void *buf)
{
	struct pfm_dfl_smpl_hdr *hdr = buf;

	hdr->hdr_cur_offs = sizeof(*hdr);
	/* The next handler runs after the restart's unmask (a release). */
	WRITE_ONCE(hdr->hdr_count, 0);
}

static struct pfmk_smpl_fmt pfmk_dfl_fmt = {
	.name		= PFM_DFL_SMPL_NAME,
	.uuid		= PFM_DFL_SMPL_UUID,
	.owner		= THIS_MODULE,
	.arg_size	= sizeof(struct pfm_dfl_smpl_arg),
	.get_size	= pfmk_dfl_get_size,
	.init		= pfmk_dfl_init,
	.handler	= pfmk_dfl_handler,
	.restart	= pfmk_dfl_restart,
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
