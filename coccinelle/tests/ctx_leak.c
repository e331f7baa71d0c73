// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fixture of coccinelle/pfmk_ctx_leak.cocci: a context created and not
 * closed on an error path.  ctx_leak_fixed.c is its corrected twin.
 */
#include <linux/completion.h>
#include <linux/module.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>

PFMK_IMPORT_NS();

static DECLARE_COMPLETION(leak_done);
static void *leak_desc;

static int leak_open(unsigned int cpu)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_pmc pmc = { .reg_value = PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK) };
	struct pfarg_load load = { .load_pid = cpu };
	void *desc;
	int ret;

	ret = pfmk_create_context(&ctx, NULL, 0, &leak_done, &desc, NULL);
	if (ret)
		return ret;
	ret = pfmk_write_pmcs(desc, &pmc, 1);
	if (ret)
		return ret;	/* expect: pfmk_ctx_leak */
	ret = pfmk_load_context(desc, &load);
	if (ret)
		goto close;
	leak_desc = desc;
	return 0;
close:
	pfmk_close(desc);
	return ret;
}

/* The create in the condition, the error path through a label. */
static int leak_probe(void)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_load load = { .load_pid = 0 };
	void *desc;
	int ret;

	if (pfmk_create_context(&ctx, NULL, 0, &leak_done, &desc, NULL))
		return -ENODEV;
	ret = pfmk_load_context(desc, &load);
	if (ret)
		goto out;
	ret = pfmk_unload_context(desc);
	pfmk_close(desc);
out:
	return ret;	/* expect: pfmk_ctx_leak */
}

static int __init leak_init(void)
{
	return leak_probe() ?: leak_open(0);
}

static void __exit leak_exit(void)
{
	pfmk_close(leak_desc);
}

module_init(leak_init);
module_exit(leak_exit);
MODULE_DESCRIPTION("pfmk Coccinelle fixture: context leak");
MODULE_LICENSE("GPL");
