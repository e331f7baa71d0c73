// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_postmortem: what the post-mortem tests record, then crash on
 * request (scripts/postmortem-test.sh, Documentation/postmortem.rst).
 *
 * At load it runs, for @ms milliseconds, three contexts on CPU @cpu:
 *
 * - "flightrec": a snapshot-mode AUX buffer of @aux_kib KiB on the
 *   synthetic AUX PMU (its timer writes numbered records), PMD 0 counting
 *   the records, set up to freeze at a crash with the summary logged and
 *   the newest @keep AUX bytes kept;
 * - "sampler": cpu-clock every @period_us in the default sampling format,
 *   frozen and logged at a crash as well;
 * - "notifier": no crash set-up; PMD 0 on the test PMU overflows once
 *   with PFM_REGFL_OVFL_NOTIFY and its message is left in the queue.
 *
 * Then it stops them, so that nothing changes any more, and prints what
 * they hold, in "pfmk-pm:" lines the harness compares with what
 * scripts/pfmk-drgn.py finds in a memory dump of the guest and, after a
 * crash, in pstore: the descriptors, the PMD values, the sample count and
 * the top functions of the samples, the AUX stream position and the
 * CRC32 of its bytes (all of them, and the newest @keep).  Writing
 * "oops" to the parameter "crash" then oopses in the writer (a trap),
 * which with panic_on_oops panics.  The contexts stay open until the
 * module is removed.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) "pfmk-pm: " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <pfmk/aux.h>
#include <pfmk/compat.h>
#include <pfmk/crash.h>
#include <pfmk/encode.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_test_aux_pmu.h"
#include "pfmk_test_ops.h"
#include "pfmk_test_pmu.h"

PFMK_IMPORT_NS();

static unsigned int cpu;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "CPU to record");

static unsigned int ms = 1000;
module_param(ms, uint, 0444);
MODULE_PARM_DESC(ms, "how long to record, in milliseconds");

static unsigned int aux_kib = 64;
module_param(aux_kib, uint, 0444);
MODULE_PARM_DESC(aux_kib, "AUX buffer size in KiB (a power of two)");

static unsigned int keep = 4096;
module_param(keep, uint, 0444);
MODULE_PARM_DESC(keep, "newest AUX bytes a crash keeps");

static unsigned int period_us = 1000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "cpu-clock sampling period in microseconds");

#define PM_SMPL_BUF	(256U << 10)
#define PM_TOP		3
#define PM_NAMES	256
#define PM_NOTIFY_AT	10

static struct completion pm_done;
static void *pm_desc[3];
static const char *const pm_role[3] = { "flightrec", "sampler", "notifier" };

struct pm_name {
	char	name[KSYM_NAME_LEN];
	u64	count;
};

/* Context @i on @event (perf's syntax), or on pfmk_test's PMC 0 if NULL. */
static int pm_open(unsigned int i, const char *event, void *smpl_arg,
		   size_t smpl_size, void **buf)
{
	struct pfarg_pmc c[PFMK_ENCODE_MAX_PMCS] = { };
	struct pfarg_ctx req = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	static const pfm_uuid_t dfl = PFM_DFL_SMPL_UUID;
	unsigned int n = 1;
	int ret;

	if (event) {
		ret = pfmk_encode(event, 0, &req, c, ARRAY_SIZE(c), &n);
		if (ret)
			return ret;
	} else {
		strscpy(req.ctx_pmu_name, PFMK_TEST_PMU_NAME,
			sizeof(req.ctx_pmu_name));
		c[0].reg_value = PFMK_TEST_PMC(1);
	}
	if (smpl_arg)
		memcpy(req.ctx_smpl_buf_id, dfl, sizeof(dfl));
	ret = pfmk_create_context(&req, smpl_arg, smpl_size, &pm_done,
				  &pm_desc[i], buf);
	if (ret)
		return ret;
	return pfmk_write_pmcs(pm_desc[i], c, n);
}

static int pm_pmd(unsigned int i, u64 value, u32 flags)
{
	struct pfarg_pmd d = {
		.reg_value = value,
		.reg_short_reset = value,
		.reg_long_reset = value,
		.reg_flags = flags,
	};

	return pfmk_write_pmds(pm_desc[i], &d, 1);
}

static int pm_load_start(unsigned int i)
{
	return pfmk_test_load_start(pm_desc[i], cpu);
}

static u64 pm_read_pmd0(unsigned int i)
{
	u64 v;

	return pfmk_test_read_pmds(pm_desc[i], 0, 1, &v) ? ~0ULL : v;
}

static int pm_report_aux(void)
{
	struct pfmk_test_aux_out c = { .cap = (size_t)aux_kib << 10 };
	struct pfmk_aux_info info;
	size_t k;
	int ret;

	c.buf = vmalloc(c.cap);
	if (!c.buf)
		return -ENOMEM;
	ret = pfmk_aux_copy(pm_desc[0], c.cap, pfmk_test_aux_sink, &c, &info);
	if (!ret) {
		k = min_t(size_t, keep, c.len);
		pr_info("ctx desc=%#lx role=%s aux_head=%llu aux_bytes=%zu aux_crc32=%#x keep_bytes=%zu keep_crc32=%#x\n",
			(unsigned long)pm_desc[0], pm_role[0], info.head, c.len,
			crc32_le(~0, c.buf, c.len) ^ ~0, k,
			crc32_le(~0, c.buf + c.len - k, k) ^ ~0);
	}
	vfree(c.buf);
	return ret;
}

static int pm_cmp_count(const void *a, const void *b)
{
	const struct pm_name *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The function of @ip as the harness's decoder names it. */
static void pm_symbol(char *name, unsigned long ip)
{
	char *p;

	if (!sprint_symbol_no_offset(name, ip) || !strcmp(name, "0x0") ||
	    name[0] == '0') {
		snprintf(name, KSYM_NAME_LEN, "%#lx", ip);
		return;
	}
	p = strchr(name, ' ');		/* " [module]" */
	if (p)
		*p = '\0';
}

static int pm_report_samples(const struct pfm_dfl_smpl_hdr *hdr)
{
	const struct pfm_dfl_smpl_entry *ent = (const void *)(hdr + 1);
	/* Pairs with the release of the writer's commit. */
	u64 i, count = smp_load_acquire(&hdr->hdr_count);
	unsigned int n = 0, j;
	struct pm_name *names;
	char *name;

	names = kvcalloc(PM_NAMES, sizeof(*names), GFP_KERNEL);
	name = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	if (!names || !name) {
		kvfree(names);
		kfree(name);
		return -ENOMEM;
	}
	for (i = 0; i < count; i++) {
		pm_symbol(name, ent[i].ip);
		for (j = 0; j < n && strcmp(names[j].name, name); j++)
			;
		if (j == n) {
			if (n == PM_NAMES)
				continue;
			strscpy(names[n++].name, name, KSYM_NAME_LEN);
		}
		names[j].count++;
	}
	sort(names, n, sizeof(*names), pm_cmp_count, NULL);
	pr_info("ctx desc=%#lx role=%s pmd0=%llu samples=%llu\n",
		(unsigned long)pm_desc[1], pm_role[1], pm_read_pmd0(1), count);
	for (j = 0; j < min_t(unsigned int, n, PM_TOP); j++)
		pr_info("top desc=%#lx rank=%u count=%llu name=%s\n",
			(unsigned long)pm_desc[1], j, names[j].count,
			names[j].name);
	kvfree(names);
	kfree(name);
	return 0;
}

static void pm_close(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pm_desc); i++) {
		if (pm_desc[i])
			pfmk_close(pm_desc[i]);
		pm_desc[i] = NULL;
	}
}

static int pm_crash_set(const char *val, const struct kernel_param *kp)
{
	if (!sysfs_streq(val, "oops"))
		return -EINVAL;
	pr_info("crashing now\n");
	/* An oops: the trap's die(), then panic_on_oops's panic(). */
	__builtin_trap();
	return 0;
}

static const struct kernel_param_ops pm_crash_ops = {
	.set = pm_crash_set,
};
module_param_cb(crash, &pm_crash_ops, NULL, 0200);
MODULE_PARM_DESC(crash, "write \"oops\" to oops (a trap) in the writer");

static int __init pm_init(void)
{
	struct pfm_dfl_smpl_arg arg = { .buf_size = PM_SMPL_BUF };
	char aux_event[64];
	void *smpl_buf;
	int ret;

	if (cpu >= nr_cpu_ids || !cpu_online(cpu) || !ms || !keep ||
	    keep > PFMK_CRASH_AUX_MAX || !period_us)
		return -EINVAL;
	init_completion(&pm_done);
	snprintf(aux_event, sizeof(aux_event), "%s/rate=4,period_us=200/",
		 PFMK_TEST_AUX_NAME);
	ret = pm_open(0, aux_event, NULL, 0, NULL) ?:
	      pm_pmd(0, 0, 0) ?:
	      pfmk_aux_setup(pm_desc[0], 0, (size_t)aux_kib << 10,
			     PFMK_AUX_SNAPSHOT) ?:
	      pfmk_crash_setup(pm_desc[0], PFMK_CRASH_FREEZE | PFMK_CRASH_LOG,
			       keep) ?:
	      pm_open(1, "cpu-clock", &arg, sizeof(arg), &smpl_buf) ?:
	      pm_pmd(1, -(u64)period_us * NSEC_PER_USEC, 0) ?:
	      pfmk_crash_setup(pm_desc[1], PFMK_CRASH_FREEZE | PFMK_CRASH_LOG,
			       0) ?:
	      pm_open(2, NULL, NULL, 0, NULL) ?:
	      pm_pmd(2, -(u64)PM_NOTIFY_AT, PFM_REGFL_OVFL_NOTIFY) ?:
	      pm_load_start(0) ?: pm_load_start(1) ?: pm_load_start(2);
	if (ret)
		goto err;
	pfmk_test_pmu_tick(cpu, PM_NOTIFY_AT);
	msleep(ms);
	ret = pfmk_stop(pm_desc[0]) ?: pfmk_stop(pm_desc[1]) ?:
	      pfmk_stop(pm_desc[2]);
	if (ret)
		goto err;

	pr_info("setup contexts=%u cpu=%u\n", (unsigned int)ARRAY_SIZE(pm_desc),
		cpu);
	pr_info("ctx desc=%#lx role=%s pmd0=%llu\n", (unsigned long)pm_desc[0],
		pm_role[0], pm_read_pmd0(0));
	ret = pm_report_aux() ?: pm_report_samples(smpl_buf);
	if (ret)
		goto err;
	pr_info("ctx desc=%#lx role=%s pmd0=%llu state=%d\n",
		(unsigned long)pm_desc[2], pm_role[2], pm_read_pmd0(2),
		pfmk_get_state(pm_desc[2]));
	pr_info("recorded\n");
	return 0;
err:
	pr_warn("failed: %d\n", ret);
	pm_close();
	return ret;
}

static void __exit pm_exit(void)
{
	pm_close();
}

module_init(pm_init);
module_exit(pm_exit);

MODULE_DESCRIPTION("pfmk test: what the post-mortem tests record, and a crash");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
