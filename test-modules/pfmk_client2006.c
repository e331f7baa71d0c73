// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_client2006: a perfmon2 KAPI client written as 2006 clients were.
 *
 * SystemTap's 2006 runtime (runtime/perf.c) is the model: it includes
 * only <linux/perfmon.h>, passes zeroed static arguments (a pfarg_ctx with
 * PFM_FL_SYSTEM_WIDE, a pfarg_load and a pfarg_start, so CPU 0), a static
 * struct completion it never initialises, register values from a table
 * (libpfm computed them), and reads one PMD at a time through a pfarg_pmd
 * on the stack with only reg_num and reg_set set.  The module runs these
 * clients at load and prints a KTAP document; init always returns 0, the
 * harness reads the verdict from the KTAP lines.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/perfmon.h>
#include <linux/string.h>

/* The generic encoding of cpu-clock, as a table of values would hold it:
 * bit 63 (enable), perf type 1 (software) at 51:48, config 0. */
#define C2006_CPU_CLOCK		0x8001000000000000ULL

/* Filler for the request fields 2006 clients never set. */
#define C2006_GARBAGE		0xa5

static struct pfarg_ctx c2006_ctx;
static struct pfarg_load c2006_load;
static struct pfarg_start c2006_start;
/* Never initialised, as in SystemTap's runtime. */
static struct completion c2006_done;

static unsigned int c2006_failed;

static bool c2006_check(const char *test, const char *what, long long expected,
			long long actual)
{
	if (expected == actual)
		return true;
	pr_info("# %s: %s: expected %lld, got %lld\n", test, what, expected,
		actual);
	c2006_failed++;
	return false;
}

/* Read one PMD as SystemTap did: the rest of the request is stack junk. */
static int c2006_read_pmd(void *desc, u16 num, u64 *value, u32 *flags)
{
	struct pfarg_pmd pmd;
	int ret;

	memset(&pmd, C2006_GARBAGE, sizeof(pmd));
	pmd.reg_num = num;
	pmd.reg_set = 0;
	ret = pfmk_read_pmds(desc, &pmd, 1);
	*value = pmd.reg_value;
	*flags = pmd.reg_flags;
	return ret;
}

/*
 * Count cpu-clock on CPU 0 for 20 ms and read it through requests whose
 * flags, reset values and bit vectors hold garbage.
 */
static bool c2006_count_cpu_clock(const char *t)
{
	unsigned int failed = c2006_failed;
	struct pfarg_pmc pmc;
	u64 value, prev;
	void *desc = NULL;
	u32 flags;

	c2006_ctx.ctx_flags = PFM_FL_SYSTEM_WIDE;
	if (!c2006_check(t, "create", 0,
			 pfmk_create_context(&c2006_ctx, NULL, 0, &c2006_done,
					     &desc, NULL)))
		return false;
	memset(&pmc, 0, sizeof(pmc));
	pmc.reg_num = 0;
	pmc.reg_value = C2006_CPU_CLOCK;
	if (!c2006_check(t, "write_pmcs", 0, pfmk_write_pmcs(desc, &pmc, 1)) ||
	    !c2006_check(t, "load", 0, pfmk_load_context(desc, &c2006_load)) ||
	    !c2006_check(t, "start", 0, pfmk_start(desc, &c2006_start)))
		goto out;
	msleep(20);
	if (c2006_check(t, "read_pmds", 0,
			c2006_read_pmd(desc, 0, &value, &flags))) {
		c2006_check(t, "cpu-clock >= 10 ms", 1,
			    value >= 10 * NSEC_PER_MSEC);
		c2006_check(t, "input flags kept, no error flag",
			    0xa5a5a5a5U & ~PFM_REG_RETFL_MASK, flags);
	}
	prev = value;
	msleep(2);
	if (c2006_check(t, "second read_pmds", 0,
			c2006_read_pmd(desc, 0, &value, &flags)))
		c2006_check(t, "cpu-clock grows", 1, value > prev);
	c2006_check(t, "stop", 0, pfmk_stop(desc));
	c2006_check(t, "unload", 0, pfmk_unload_context(desc));
out:
	c2006_check(t, "close", 0, pfmk_close(desc));
	return c2006_failed == failed;
}

struct c2006_test {
	const char	*name;
	bool		(*run)(const char *name);
};

static const struct c2006_test c2006_tests[] = {
	{ "count_cpu_clock_stack_pmd", c2006_count_cpu_clock },
};

static int __init pfmk_client2006_init(void)
{
	unsigned int i;

	pr_info("KTAP version 1\n");
	pr_info("1..%zu\n", ARRAY_SIZE(c2006_tests));
	for (i = 0; i < ARRAY_SIZE(c2006_tests); i++)
		pr_info("%s %u %s\n",
			c2006_tests[i].run(c2006_tests[i].name) ? "ok" : "not ok",
			i + 1, c2006_tests[i].name);
	pr_info("# pfmk_client2006: %u checks failed\n", c2006_failed);
	return 0;
}

static void __exit pfmk_client2006_exit(void)
{
}

module_init(pfmk_client2006_init);
module_exit(pfmk_client2006_exit);

MODULE_DESCRIPTION("pfmk: perfmon2 2006-style KAPI clients (KTAP output)");
MODULE_LICENSE("GPL");
