// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fixture of coccinelle/pfmk_use_after_close.cocci: descriptors used after
 * pfmk_close(), and closed twice.  use_after_close_fixed.c is its
 * corrected twin.
 */
#include <linux/completion.h>
#include <linux/module.h>
#include <pfmk/pfmk.h>

PFMK_IMPORT_NS();

static DECLARE_COMPLETION(uac_done);
static void *uac_desc;

static int uac_probe(void)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	void *desc;
	int ret;

	ret = pfmk_create_context(&ctx, NULL, 0, &uac_done, &desc, NULL);
	if (ret)
		return ret;
	pfmk_close(desc);
	ret = pfmk_get_state(desc);	/* expect: pfmk_use_after_close */
	return ret == PFM_CTX_UNLOADED ? 0 : -EIO;
}

static int __init uac_init(void)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	int ret;

	ret = uac_probe();
	if (ret)
		return ret;
	ret = pfmk_create_context(&ctx, NULL, 0, &uac_done, &uac_desc, NULL);
	if (ret)
		return ret;
	ret = pfmk_start(uac_desc, NULL);
	if (ret)
		pfmk_close(uac_desc);
	return ret;
}

static void __exit uac_exit(void)
{
	union pfm_msg msg;

	pfmk_close(uac_desc);
	while (pfmk_read(uac_desc, &msg, sizeof(msg), 1) > 0)	/* expect: pfmk_use_after_close */
		pr_info("message %u\n", msg.type);
	pfmk_close(uac_desc);	/* expect: pfmk_use_after_close */
}

module_init(uac_init);
module_exit(uac_exit);
MODULE_DESCRIPTION("pfmk Coccinelle fixture: descriptor used after close");
MODULE_LICENSE("GPL");
