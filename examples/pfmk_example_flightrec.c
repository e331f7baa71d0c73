// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_example_flightrec: an AUX flight recorder in a kernel thread.
 *
 * Keeps a snapshot-mode (overwrite) AUX buffer running on one CPU and,
 * each time the chosen event fires, copies the last @kib KiB out and
 * prints a summary.  The chosen event is the overflow of the AUX PMD
 * itself after @trigger events (PFM_REGFL_OVFL_NOTIFY): the owner is
 * woken through its completion, takes the snapshot, and restarts.
 *
 * The event is a string, as perf takes it (pfmk_encode()): by default
 * "pfmk_aux_test/rate=4,period_us=100/", the synthetic AUX PMU of
 * pfmk_test_aux_pmu.ko (a timer writing numbered records), whose records
 * it also verifies.  On real hardware: event=intel_pt//, event=arm_spe_0//
 * or event=cs_etm// (Documentation/aux.rst).  On a kernel without pfmk's
 * kernel-owned AUX patch it says so and ends.
 *
 * If the kernel oopses or panics while it records, pfmk freezes the
 * context, keeps the newest @freeze_kib KiB of the trace and prints a
 * summary in the kernel log (pfmk_crash_setup(), Documentation/
 * postmortem.rst): a crash dump or pstore then has what led up to it.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <pfmk/compat.h>
#include <pfmk/aux.h>
#include <pfmk/crash.h>
#include <pfmk/encode.h>
#include <pfmk/pfmk.h>

#include "../test-modules/pfmk_test_aux_pmu.h"

PFMK_IMPORT_NS();

static unsigned int seconds = 3;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long to record, in seconds (1-3600)");

#define FLIGHTREC_TEST_EVENT	PFMK_TEST_AUX_NAME "/rate=4,period_us=100/"

static char *event = FLIGHTREC_TEST_EVENT;
module_param(event, charp, 0444);
MODULE_PARM_DESC(event, "the AUX event, as perf names it (default: " FLIGHTREC_TEST_EVENT ")");

static unsigned int kib = 16;
module_param(kib, uint, 0444);
MODULE_PARM_DESC(kib, "KiB copied out at each trigger (1-4096)");

static unsigned int buf_kib = 64;
module_param(buf_kib, uint, 0444);
MODULE_PARM_DESC(buf_kib, "AUX buffer size in KiB (a power of two)");

static ulong trigger = 5000;
module_param(trigger, ulong, 0444);
MODULE_PARM_DESC(trigger, "events of PMD 0 between snapshots");

static unsigned int cpu;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "CPU to record");

static unsigned int freeze_kib = 4;
module_param(freeze_kib, uint, 0444);
MODULE_PARM_DESC(freeze_kib, "KiB of the newest trace a crash keeps (0-64)");

struct flightrec {
	struct completion	done;
	void			*desc;
	u8			*snap;
	size_t			len;
	size_t			cap;
	unsigned int		snapshots;
	u64			bytes;
	u64			bad;
	unsigned int		errors;
};

static struct task_struct *flightrec_thread;

static int flightrec_sink(void *data, const void *src, size_t len)
{
	struct flightrec *f = data;

	if (f->len + len > f->cap)
		return -ENOSPC;
	memcpy(f->snap + f->len, src, len);
	f->len += len;
	return 0;
}

/* Records of the synthetic PMU that fail their checks (0 for other PMUs). */
static u64 flightrec_verify(const struct flightrec *f,
			    const struct pfmk_aux_info *info)
{
	const struct pfmk_test_aux_rec *r = (const void *)f->snap;
	u64 i, n = f->len / PFMK_TEST_AUX_REC, seq, bad = 0;

	if (strncmp(event, PFMK_TEST_AUX_NAME "/", strlen(PFMK_TEST_AUX_NAME) + 1) ||
	    !n)
		return 0;
	seq = r[0].seq;
	for (i = 0; i < n; i++)
		if (!pfmk_test_aux_rec_ok(&r[i], seq + i))
			bad++;
	return bad;
}

static int flightrec_open(struct flightrec *f)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_pmc c[PFMK_ENCODE_MAX_PMCS];
	unsigned int n;
	struct pfarg_pmd d = {
		.reg_num = 0,
		.reg_flags = PFM_REGFL_OVFL_NOTIFY,
		.reg_value = -(u64)trigger,
		.reg_short_reset = -(u64)trigger,
		.reg_long_reset = -(u64)trigger,
	};
	struct pfarg_load load = { .load_pid = cpu };
	int ret;

	/* The string chooses the PMU, and so the context's description. */
	ret = pfmk_encode(event, 0, &ctx, c, ARRAY_SIZE(c), &n);
	if (ret)
		return ret;
	ret = pfmk_create_context(&ctx, NULL, 0, &f->done, &f->desc, NULL);
	if (ret)
		return ret;
	ret = pfmk_write_pmcs(f->desc, c, n) ?:
	      pfmk_write_pmds(f->desc, &d, 1) ?:
	      pfmk_aux_setup(f->desc, 0, (size_t)buf_kib << 10,
			     PFMK_AUX_SNAPSHOT) ?:
	      pfmk_crash_setup(f->desc, PFMK_CRASH_FREEZE | PFMK_CRASH_LOG,
			       (size_t)freeze_kib << 10) ?:
	      pfmk_load_context(f->desc, &load) ?:
	      pfmk_start(f->desc, NULL);
	if (ret) {
		pfmk_close(f->desc);
		f->desc = NULL;
	}
	return ret;
}

static void flightrec_snapshot(struct flightrec *f)
{
	struct pfmk_aux_info info;
	int ret;

	f->len = 0;
	ret = pfmk_aux_copy(f->desc, f->cap, flightrec_sink, f, &info);
	if (ret) {
		pr_warn("copy failed: %d\n", ret);
		f->errors++;
		return;
	}
	f->snapshots++;
	f->bytes += f->len;
	f->bad += flightrec_verify(f, &info);
	pr_info("snapshot %u: %zu bytes [%llu, %llu) of %llu written%s%s, %llu lost\n",
		f->snapshots, f->len, info.from, info.to, info.head,
		(info.flags & PFMK_AUX_WRAPPED) ? ", wrapped" : "",
		(info.flags & PFMK_AUX_TRUNCATED) ? ", truncated" : "",
		info.lost);
}

static int flightrec_fn(void *data)
{
	struct flightrec *f = data;
	unsigned long deadline;
	union pfm_msg msg;
	int ret;

	ret = flightrec_open(f);
	if (ret == -EOPNOTSUPP)
		pr_info("no kernel-owned AUX buffers on this kernel (needs pfmk's patch, see Documentation/aux.rst)\n");
	else if (ret)
		pr_warn("cannot record %s on CPU %u: %d\n", event, cpu, ret);
	/* A kernel without the patch is not an error of this example. */
	if (ret && ret != -EOPNOTSUPP)
		f->errors++;

	deadline = jiffies + seconds * HZ;
	while (f->desc && !kthread_should_stop() &&
	       time_before(jiffies, deadline)) {
		wait_for_completion_interruptible_timeout(&f->done,
							  deadline - jiffies);
		while (pfmk_read(f->desc, &msg, sizeof(msg), 1) ==
		       sizeof(msg)) {
			flightrec_snapshot(f);
			if (pfmk_restart(f->desc))
				f->errors++;
		}
	}
	if (f->desc) {
		if (pfmk_stop(f->desc))
			f->errors++;
		pr_info("%u snapshots, %llu bytes copied, %llu bad records\n",
			f->snapshots, f->bytes, f->bad);
	}
	/* A record that does not verify is a failure too. */
	pr_info("done errors=%llu\n", f->errors + f->bad);

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	if (f->desc)
		pfmk_close(f->desc);
	vfree(f->snap);
	kfree(f);
	return 0;
}

static int __init pfmk_flightrec_init(void)
{
	struct flightrec *f;
	int ret;

	if (!seconds || seconds > 3600 || !kib || kib > 4096 || !trigger ||
	    freeze_kib > PFMK_CRASH_AUX_MAX >> 10 ||
	    cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	f = pfmk_kzalloc_obj(*f, GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	init_completion(&f->done);
	f->cap = (size_t)kib << 10;
	f->snap = vmalloc(f->cap);
	if (!f->snap) {
		kfree(f);
		return -ENOMEM;
	}
	flightrec_thread = kthread_run(flightrec_fn, f, "pfmk_flightrec");
	if (!IS_ERR(flightrec_thread))
		return 0;
	ret = PTR_ERR(flightrec_thread);
	vfree(f->snap);
	kfree(f);
	return ret;
}

static void __exit pfmk_flightrec_exit(void)
{
	kthread_stop(flightrec_thread);
}

module_init(pfmk_flightrec_init);
module_exit(pfmk_flightrec_exit);

MODULE_DESCRIPTION("pfmk example: AUX flight recorder in a kernel thread");
MODULE_AUTHOR("The pfmk authors");
MODULE_LICENSE("GPL");
