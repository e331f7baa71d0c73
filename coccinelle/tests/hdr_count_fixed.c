// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fixture of coccinelle/pfmk_hdr_count.cocci, corrected twin of
 * hdr_count.c: hdr_count loaded with the acquire that pairs with pfmk's
 * release.
 */
#include <asm/barrier.h>
#include <linux/module.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

PFMK_IMPORT_NS();

struct hc_reader {
	struct pfm_dfl_smpl_hdr	*hdr;
	u64			ips;
};

static struct hc_reader hc;

static void hc_drain(struct hc_reader *r)
{
	struct pfm_dfl_smpl_entry *ent = (void *)(r->hdr + 1);
	/* Entries below hdr_count are complete: pairs with the writer. */
	u64 i, n = smp_load_acquire(&r->hdr->hdr_count);

	for (i = 0; i < n; i++)
		r->ips += ent[i].ip;
}

static bool hc_has_samples(struct pfm_dfl_smpl_hdr *hdr)
{
	/* Pairs with the format's release store of hdr_count. */
	return smp_load_acquire(&hdr->hdr_count) != 0;
}

static int __init hc_init(void)
{
	if (hc.hdr && hc_has_samples(hc.hdr))
		hc_drain(&hc);
	return 0;
}

static void __exit hc_exit(void)
{
}

module_init(hc_init);
module_exit(hc_exit);
MODULE_DESCRIPTION("pfmk Coccinelle fixture: hdr_count without acquire, fixed");
MODULE_LICENSE("GPL");
