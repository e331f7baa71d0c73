// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fixture of coccinelle/pfmk_hdr_count.cocci: a default-format buffer read
 * without the acquire that pairs with pfmk's release of hdr_count.
 * hdr_count_fixed.c is its corrected twin.
 */
#include <linux/compiler.h>
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
	u64 i, n = r->hdr->hdr_count;	/* expect: pfmk_hdr_count */

	for (i = 0; i < n; i++)
		r->ips += ent[i].ip;
}

static bool hc_has_samples(struct pfm_dfl_smpl_hdr *hdr)
{
	return READ_ONCE(hdr->hdr_count) != 0;	/* expect: pfmk_hdr_count */
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
MODULE_DESCRIPTION("pfmk Coccinelle fixture: hdr_count without acquire");
MODULE_LICENSE("GPL");
