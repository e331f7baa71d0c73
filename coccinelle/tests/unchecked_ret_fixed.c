// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fixture of coccinelle/pfmk_unchecked_ret.cocci, corrected twin of
 * unchecked_ret.c: every return value but pfmk_close()'s is checked.
 */
#include <linux/module.h>
#include <linux/perfmon.h>

static void *ur_desc;
static u64 ur_value;

static void ur_teardown(void *desc)
{
	struct pfarg_pmd pmd = { .reg_num = 0 };
	int ret;

	ret = pfmk_stop(desc) ?: pfmk_read_pmds(desc, &pmd, 1);
	if (!ret)
		ur_value = pmd.reg_value;
	if (pfmk_unload_context(desc))
		pr_warn("context was not loaded\n");
	pfmk_close(desc);
}

static int __init ur_init(void)
{
	return 0;
}

static void __exit ur_exit(void)
{
	if (ur_desc)
		ur_teardown(ur_desc);
	pr_info("%llu\n", ur_value);
}

module_init(ur_init);
module_exit(ur_exit);
MODULE_DESCRIPTION("pfmk Coccinelle fixture: return values ignored, fixed");
MODULE_LICENSE("GPL");
