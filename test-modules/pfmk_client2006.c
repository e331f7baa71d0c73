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
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/perfmon.h>
#include <linux/perfmon_dfl_smpl.h>
#include <linux/string.h>

#include "pfmk_ktap.h"

/*
 * The generic encoding of cpu-clock, as a table of values would hold it:
 * bit 63 (enable), perf type 1 (software) at 51:48, config 0.
 */
#define C2006_CPU_CLOCK		0x8001000000000000ULL

/* Sampling: one sample per ms of cpu-clock (ns), for 300 ms. */
#define C2006_PERIOD_NS		1000000ULL
#define C2006_RUN_MS		300
#define C2006_BUF_SIZE		65536

/* Filler for the request fields 2006 clients never set. */
#define C2006_GARBAGE		0xa5

static struct pfarg_ctx c2006_ctx;
static struct pfarg_load c2006_load;
static struct pfarg_start c2006_start;
/* Never initialised, as in SystemTap's runtime. */
static struct completion c2006_done;

static unsigned int c2006_failed;

/* pfmk_ktap_check(), counted in c2006_failed. */
#define c2006_check(...)	pfmk_ktap_check(&c2006_failed, __VA_ARGS__)

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
	usleep_range(2000, 3000);
	if (c2006_check(t, "second read_pmds", 0,
			c2006_read_pmd(desc, 0, &value, &flags)))
		c2006_check(t, "cpu-clock grows", 1, value > prev);
	c2006_check(t, "stop", 0, pfmk_stop(desc));
	c2006_check(t, "unload", 0, pfmk_unload_context(desc));
out:
	c2006_check(t, "close", 0, pfmk_close(desc));
	return c2006_failed == failed;
}

/*
 * libpfm's x86 images for unhalted core cycles (PMC0) and instructions
 * retired (PMC1) on a zeroed context.  Where the machine has no x86 core
 * PMU (the guests), write_pmcs refuses them with -EINVAL and
 * PFM_REG_RETFL_EINVAL; where it has one, they count: never a silent
 * zero.
 */
static bool c2006_x86_images(const char *t)
{
	static struct pfarg_ctx xctx;
	unsigned int failed = c2006_failed;
	struct pfarg_pmc pmc[2];
	void *desc = NULL;
	u64 value;
	u32 flags;
	int ret;

	xctx.ctx_flags = PFM_FL_SYSTEM_WIDE;
	if (!c2006_check(t, "create", 0,
			 pfmk_create_context(&xctx, NULL, 0, &c2006_done,
					     &desc, NULL)))
		return false;
	memset(pmc, 0, sizeof(pmc));
	pmc[0].reg_num = 0;
	pmc[0].reg_value = 0x53003cULL;
	pmc[1].reg_num = 1;
	pmc[1].reg_value = 0x5300c0ULL;
	ret = pfmk_write_pmcs(desc, pmc, 2);
	if (ret) {
		pr_info("# %s: images refused (%d): no x86 core PMU\n", t, ret);
		c2006_check(t, "write_pmcs", -EINVAL, ret);
		c2006_check(t, "PFM_REG_RETFL_EINVAL on PMC0", 1,
			    !!(pmc[0].reg_flags & PFM_REG_RETFL_EINVAL));
		goto out;
	}
	pr_info("# %s: images accepted: counting on the core PMU\n", t);
	if (!c2006_check(t, "load", 0, pfmk_load_context(desc, &c2006_load)) ||
	    !c2006_check(t, "start", 0, pfmk_start(desc, &c2006_start)))
		goto out;
	msleep(20);
	c2006_check(t, "stop", 0, pfmk_stop(desc));
	if (c2006_check(t, "read_pmds", 0,
			c2006_read_pmd(desc, 0, &value, &flags)))
		c2006_check(t, "cycles > 0", 1, value > 0);
	if (c2006_check(t, "read_pmds", 0,
			c2006_read_pmd(desc, 1, &value, &flags)))
		c2006_check(t, "instructions > 0", 1, value > 0);
out:
	c2006_check(t, "close", 0, pfmk_close(desc));
	return c2006_failed == failed;
}

/*
 * A 2006 sampling client: the default format chosen by UUID, a 64 KiB
 * buffer, PMD 0 sampling cpu-clock every 1 ms with PFM_REGFL_OVFL_NOTIFY
 * and recording PMD 1.  On perfmon2 2.2 every overflow was recorded and
 * the notification came only when the buffer was full (not in 300 ms):
 * about 300 entries, no masking, no message.
 */
static bool c2006_sample_cpu_clock(const char *t)
{
	static const pfm_uuid_t uuid = PFM_DFL_SMPL_UUID;
	static struct pfarg_ctx sctx;
	unsigned int failed = c2006_failed;
	struct pfm_dfl_smpl_arg arg;
	struct pfm_dfl_smpl_hdr *hdr;
	struct pfarg_pmc pmc[2];
	struct pfarg_pmd pmd[2];
	void *desc = NULL, *buf = NULL;
	u64 count, t0, ms;

	sctx.ctx_flags = PFM_FL_SYSTEM_WIDE;
	memcpy(sctx.ctx_smpl_buf_id, uuid, sizeof(uuid));
	memset(&arg, 0, sizeof(arg));
	arg.buf_size = C2006_BUF_SIZE;
	if (!c2006_check(t, "create", 0,
			 pfmk_create_context(&sctx, &arg, sizeof(arg),
					     &c2006_done, &desc, &buf)))
		return false;
	hdr = buf;
	memset(pmc, 0, sizeof(pmc));
	pmc[0].reg_num = 0;
	pmc[0].reg_value = C2006_CPU_CLOCK;
	pmc[1].reg_num = 1;
	pmc[1].reg_value = C2006_CPU_CLOCK;
	memset(pmd, 0, sizeof(pmd));
	pmd[0].reg_num = 0;
	pmd[0].reg_flags = PFM_REGFL_OVFL_NOTIFY;
	pmd[0].reg_value = -C2006_PERIOD_NS;
	pmd[0].reg_short_reset = -C2006_PERIOD_NS;
	pmd[0].reg_long_reset = -C2006_PERIOD_NS;
	pmd[0].reg_smpl_pmds[0] = 1ULL << 1;
	pmd[1].reg_num = 1;
	if (!c2006_check(t, "write_pmcs", 0, pfmk_write_pmcs(desc, pmc, 2)) ||
	    !c2006_check(t, "write_pmds", 0, pfmk_write_pmds(desc, pmd, 2)) ||
	    !c2006_check(t, "load", 0, pfmk_load_context(desc, &c2006_load)) ||
	    !c2006_check(t, "start", 0, pfmk_start(desc, &c2006_start)))
		goto out;
	t0 = ktime_get_ns();
	msleep(C2006_RUN_MS);
	c2006_check(t, "stop", 0, pfmk_stop(desc));
	ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
	/* Pairs with the format's release store of hdr_count. */
	count = smp_load_acquire(&hdr->hdr_count);
	pr_info("# %s: %llu entries in %llu ms\n", t, count, ms);
	/*
	 * One per ms the context ran: at least half of them (an emulated
	 * guest loses timer ticks), at most one more than the ms elapsed.
	 */
	c2006_check(t, "entries >= 150", 1, count >= C2006_RUN_MS / 2);
	c2006_check(t, "entries <= elapsed ms + 1", 1, count <= ms + 1);
	c2006_check(t, "buffer not full", 0, hdr->hdr_overflows);
	c2006_check(t, "not masked", PFM_CTX_LOADED, pfmk_get_state(desc));
	c2006_check(t, "no notification", 0, completion_done(&c2006_done));
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
	{ "sample_cpu_clock_dfl_notify", c2006_sample_cpu_clock },
	{ "x86_images_count_or_refused", c2006_x86_images },
};

static bool c2006_run_case(void *unused, const struct c2006_test *t,
			   const char **skip)
{
	return t->run(t->name);
}

static int __init pfmk_client2006_init(void)
{
	struct pfmk_ktap k;

	pfmk_ktap_run(&k, c2006_tests, ARRAY_SIZE(c2006_tests),
		      c2006_run_case, NULL);
	pfmk_ktap_diag("pfmk_client2006: %u checks failed", c2006_failed);
	pfmk_ktap_end(&k);
	return 0;
}

static void __exit pfmk_client2006_exit(void)
{
}

module_init(pfmk_client2006_init);
module_exit(pfmk_client2006_exit);

MODULE_DESCRIPTION("pfmk: perfmon2 2006-style KAPI clients (KTAP output)");
MODULE_LICENSE("GPL");
