// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fixture of coccinelle/pfmk_unchecked_ret.cocci: a 2006-style teardown
 * and read that ignore the return values.  unchecked_ret_fixed.c is its
 * corrected twin.
 */
#include <linux/module.h>
#include <linux/perfmon.h>

static void *ur_desc;
static u64 ur_value;

static void ur_teardown(void *desc)
{
	struct pfarg_pmd pmd = { .reg_num = 0 };

	pfmk_stop(desc);	/* expect: pfmk_unchecked_ret */
	pfmk_read_pmds(desc, &pmd, 1);	/* expect: pfmk_unchecked_ret */
	ur_value = pmd.reg_value;
	pfmk_unload_context(desc);	/* expect: pfmk_unchecked_ret */
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
MODULE_DESCRIPTION("pfmk Coccinelle fixture: return values ignored");
MODULE_LICENSE("GPL");
