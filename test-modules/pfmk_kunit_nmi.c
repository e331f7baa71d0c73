// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite: overflows of a real PMU driver delivered as NMIs.
 *
 * arm64 only (test-modules/Kbuild), planned by the harness on the arm64
 * debug kernel alone (CONFIG_ARM64_PSEUDO_NMI, booted with
 * irqchip.gicv3_pseudo_nmi=1), in its guest in QEMU's instruction-count
 * mode on one vCPU (Documentation/testing.rst, "arm64"): Linux's
 * armv8_pmuv3 driver then takes the PMU's overflow interrupt as a
 * pseudo-NMI, and pfmk's overflow path runs in NMI context, which no
 * other kernel pfmk is tested on gives it from a real driver.
 *
 * A sampling format of the suite's own records, for every overflow, what
 * the core handed it and the context it ran in (in_nmi(),
 * irqs_disabled()); the default format's entries are checked against the
 * known loop the samples interrupt, as pfmk_pmu_exact does on the stock
 * kernels, where interrupts may delay an overflow: here none may.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/kallsyms.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/encode.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"

/* Sampling period and loop length, in cycles = instructions (icount). */
#define NMIT_PERIOD	1000000ULL
#define NMIT_INSNS	(50 * NMIT_PERIOD)
#define NMIT_WANT	(NMIT_INSNS / NMIT_PERIOD)
#define NMIT_MAX	128

/*
 * Two instructions an iteration; @n >= 1.  pfmk_pmu_exact's pmx_loop() is
 * the same loop, kept apart: its code is part of what that module counts
 * exactly, and each module finds its loop in samples by its name.
 */
static noinline void nmit_loop(u64 n)
{
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n"
		     : "+r" (n) : : "cc");
}

/* The loop with interrupts off: only an NMI can interrupt it. */
static noinline void nmit_loop_irqs_off(u64 n)
{
	unsigned long flags;

	local_irq_save(flags);
	nmit_loop(n);
	local_irq_restore(flags);
}

static bool nmit_ip_in_loop(u64 ip)
{
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(sym, ip);
	return !strncmp(sym, "nmit_loop", 9) &&
	       (sym[9] == '\0' || sym[9] == ' ');
}

/* ---- a format of the suite's own: the handler's context ----------- */

/**
 * struct nmit_rec - one overflow, as the suite's format saw it
 * @in_nmi: in_nmi() in the handler.
 * @irqs_off: irqs_disabled() in the handler.
 * @cpu: the CPU it ran on.
 * @ovfl_cpu: pfmk_ovfl_arg.cpu.
 * @ip: pfmk_ovfl_arg.ip.
 */
struct nmit_rec {
	u8	in_nmi;
	u8	irqs_off;
	u16	cpu;
	u16	ovfl_cpu;
	u64	ip;
};

/**
 * struct nmit_buf - the suite's format's buffer
 * @count: records written (published with release).
 * @rec: the records.
 */
struct nmit_buf {
	u64		count;
	struct nmit_rec	rec[NMIT_MAX];
};

/**
 * struct nmit_priv - the format's private state of a context
 * @n: records written, the writer's copy.
 */
struct nmit_priv {
	u64	n;
};

static ssize_t nmit_fmt_size(const void *arg, unsigned int npmds)
{
	return sizeof(struct nmit_buf);
}

static void nmit_fmt_init(void *buf, void *priv, size_t size, const void *arg,
			  unsigned int npmds)
{
}

static int nmit_fmt_handler(void *buf, void *priv, struct pfmk_ovfl_arg *arg)
{
	struct nmit_priv *p = priv;
	struct nmit_buf *b = buf;
	struct nmit_rec *r;

	arg->ovfl_ctrl = PFM_OVFL_CTRL_RESET;
	if (p->n >= NMIT_MAX)
		return -ENOBUFS;
	r = &b->rec[p->n];
	r->in_nmi = !!in_nmi();
	r->irqs_off = irqs_disabled();
	r->cpu = raw_smp_processor_id();
	r->ovfl_cpu = arg->cpu;
	r->ip = arg->ip;
	/* The record is complete before the reader sees the count. */
	smp_store_release(&b->count, ++p->n);
	return 0;
}

static void nmit_fmt_restart(void *buf, void *priv)
{
}

static struct pfmk_smpl_fmt nmit_fmt = {
	.name		= "pfmk_kunit_nmi",
	.uuid		= { 0x70, 0x66, 0x6d, 0x6b, 0x2d, 0x6b, 0x75, 0x6e,
			    0x69, 0x74, 0x2d, 0x6e, 0x6d, 0x69, 0x00, 0x01 },
	.owner		= THIS_MODULE,
	.arg_size	= sizeof(u64),
	.priv_size	= sizeof(struct nmit_priv),
	.get_size	= nmit_fmt_size,
	.init		= nmit_fmt_init,
	.handler	= nmit_fmt_handler,
	.restart	= nmit_fmt_restart,
};

/* ---- set-up ------------------------------------------------------- */

/**
 * struct nmit_state - per-test state, in test->priv
 * @base: the shared per-test state, whose contexts pfmkt_exit() closes.
 * @desc: the test's context.
 * @cpu: the CPU it counts on, which the test thread runs on.
 * @fmt_registered: the suite's format is registered, by this test.
 */
struct nmit_state {
	struct pfmkt_priv	base;
	void			*desc;
	int			cpu;
	bool			fmt_registered;
};

static_assert(offsetof(struct nmit_state, base) == 0);

static int nmit_init(struct kunit *test)
{
	struct nmit_state *st;
	int ret;

	ret = pfmkt_init_priv(test, sizeof(*st));
	if (ret)
		return ret;
	st = test->priv;
	st->cpu = pfmkt_cpu();
	return 0;
}

/*
 * The test's contexts closed (pfmkt_exit()), then the suite's format
 * unregistered if the test registered it: a case that failed before it
 * unregistered it itself does not leave it registered.
 */
static void nmit_exit(struct kunit *test)
{
	struct nmit_state *st = test->priv;

	pfmkt_exit(test);
	if (st && st->fmt_registered)
		pfmk_smpl_fmt_unregister(&nmit_fmt);
}

/*
 * The test thread (KUnit's, one per case) runs on the context's CPU from
 * now on.
 */
static void nmit_pin(struct kunit *test)
{
	struct nmit_state *st = test->priv;

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(st->cpu)),
			0);
	KUNIT_ASSERT_EQ(test, (int)raw_smp_processor_id(), st->cpu);
}

/*
 * A started context on the test's CPU whose PMD 0 samples @event every
 * NMIT_PERIOD events, recording PMD 1 (instructions, generic or by name
 * with @event) in each sample, with the format @uuid and argument @arg.
 * Returns the buffer.
 */
static void *nmit_open(struct kunit *test, const char *event,
		       const pfm_uuid_t uuid, void *arg, size_t arg_size,
		       u32 pmd_flags)
{
	const char *events[2] = { event, "instructions" };
	struct pfarg_pmc pmcs[2 * PFMK_ENCODE_MAX_PMCS];
	struct nmit_state *st = test->priv;
	struct pfarg_pmd pmd[2];
	struct pfarg_ctx req;
	unsigned int n;
	void *buf = NULL;

	if (strchr(event, '/'))
		events[1] = "armv8_pmuv3/inst_retired/";
	pfmkt_ctx_req(&req, "", 0, false);
	memcpy(req.ctx_smpl_buf_id, uuid, sizeof(pfm_uuid_t));
	KUNIT_ASSERT_EQ(test, pfmkt_encode_events(&req, events, 2, pmcs,
						  ARRAY_SIZE(pmcs), &n), 0);
	KUNIT_ASSERT_EQ(test, pfmkt_try_create_arg(test, &req, arg, arg_size,
						   &st->desc, &buf), 0);
	pfmkt_pmd_req(&pmd[0], 0, 0, -NMIT_PERIOD);
	pmd[0].reg_flags = pmd_flags;
	pmd[0].reg_short_reset = -NMIT_PERIOD;
	pmd[0].reg_long_reset = -NMIT_PERIOD;
	pmd[0].reg_smpl_pmds[0] = BIT_ULL(1);
	pfmkt_pmd_req(&pmd[1], 0, 1, 0);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(st->desc, pmcs, n), 0);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(st->desc, pmd, 2), 0);
	pfmkt_load_start(test, st->desc, st->cpu);
	return buf;
}

/**
 * struct nmit_own_row - a run of the suite's format
 * @event: generic cycles, or the PMU's own event by name (pfmk_encode()).
 * @irqs_off: the loop runs with interrupts off.
 */
struct nmit_own_row {
	const char	*event;
	bool		irqs_off;
};

static const struct nmit_own_row nmit_own_rows[] = {
	{ "cycles", false },
	{ "cycles", true },
	{ "armv8_pmuv3/cpu_cycles/", false },
	{ "armv8_pmuv3/cpu_cycles/", true },
};

static void nmit_own_desc(const struct nmit_own_row *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s, interrupts %s", r->event,
		 r->irqs_off ? "off" : "on");
}

KUNIT_ARRAY_PARAM(nmit_own, nmit_own_rows, nmit_own_desc);

/* The two events alone, for the default format. */
static const char * const nmit_events[] = {
	"cycles", "armv8_pmuv3/cpu_cycles/",
};

static void nmit_event_desc(const char * const *ev, char *desc)
{
	strscpy(desc, *ev, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nmit_event, nmit_events, nmit_event_desc);

/* ---- the cases ----------------------------------------------------- */

/**
 * struct nmit_own - what a run of the suite's format saw
 * @b: its buffer.
 * @n: the overflows it recorded, at most NMIT_MAX of them in @b.
 * @stats: the context's statistics once stopped.
 */
struct nmit_own {
	struct nmit_buf		*b;
	u64			n;
	struct pfmk_ctx_stats	stats;
};

/*
 * The suite's format over NMIT_INSNS instructions of the loop, with
 * interrupts on or off (the row's), then stopped: what it saw in @o.
 */
static void nmit_run_own(struct kunit *test, struct nmit_own *o)
{
	const struct nmit_own_row *row = test->param_value;
	struct nmit_state *st = test->priv;
	u64 arg = 0;

	KUNIT_ASSERT_EQ(test, pfmk_smpl_fmt_register(&nmit_fmt), 0);
	st->fmt_registered = true;
	nmit_pin(test);
	o->b = nmit_open(test, row->event, nmit_fmt.uuid, &arg, sizeof(arg),
			 0);
	if (row->irqs_off)
		nmit_loop_irqs_off(NMIT_INSNS / 2);
	else
		nmit_loop(NMIT_INSNS / 2);
	KUNIT_ASSERT_EQ(test, pfmk_stop(st->desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_get_stats(st->desc, &o->stats), 0);
	/* Pairs with the handler's release. */
	o->n = min_t(u64, smp_load_acquire(&o->b->count), NMIT_MAX);
	kunit_info(test, "%s: %llu overflows, loop with interrupts %s\n",
		   row->event, o->n, row->irqs_off ? "off" : "on");
	kunit_info(test, "%llu by the core's count, %llu missed periods\n",
		   o->stats.ovfl_count, o->stats.ovfl_missed);
}

/*
 * The overflow handler runs in NMI context, from the real driver:
 * in_nmi(), interrupts off.
 */
static void nmi_overflow_handler(struct kunit *test)
{
	struct nmit_own o;
	u64 i;

	nmit_run_own(test, &o);
	for (i = 0; i < o.n; i++) {
		KUNIT_EXPECT_TRUE_MSG(test, o.b->rec[i].in_nmi,
				      "overflow %llu not in NMI", i);
		KUNIT_EXPECT_TRUE(test, o.b->rec[i].irqs_off);
	}
}

/* Every overflow ran, and says it ran, on the context's CPU. */
static void nmi_overflow_on_cpu(struct kunit *test)
{
	struct nmit_state *st = test->priv;
	struct nmit_own o;
	u64 i;

	nmit_run_own(test, &o);
	for (i = 0; i < o.n; i++) {
		KUNIT_EXPECT_EQ(test, (int)o.b->rec[i].cpu, st->cpu);
		KUNIT_EXPECT_EQ(test, (int)o.b->rec[i].ovfl_cpu, st->cpu);
	}
}

/* No overflow from NMI misses a period. */
static void nmi_overflow_none_missed(struct kunit *test)
{
	struct nmit_own o;

	nmit_run_own(test, &o);
	KUNIT_EXPECT_EQ(test, o.stats.ovfl_missed, 0ULL);
}

/*
 * One overflow per period of the loop's instructions at least (the first
 * may come before it), more when the CPU ran other code during the loop
 * (interrupt handlers, these NMIs themselves): it counts too.
 */
static void nmi_overflow_count(struct kunit *test)
{
	struct nmit_own o;

	nmit_run_own(test, &o);
	KUNIT_EXPECT_GE(test, o.n + 1, NMIT_WANT);
}

/*
 * The overflows land inside the loop: with interrupts off, all of the
 * loop's periods end inside it (an overflow delivered as an interrupt
 * could not have come before the loop ended); with interrupts on, NMIs
 * may also land in the handlers of interrupts taken meanwhile (a few in
 * a hundred on the debug kernel).
 */
static void nmi_overflow_in_loop(struct kunit *test)
{
	const struct nmit_own_row *row = test->param_value;
	struct nmit_own o;
	u64 i, in_loop = 0;

	nmit_run_own(test, &o);
	for (i = 0; i < o.n; i++)
		in_loop += nmit_ip_in_loop(o.b->rec[i].ip);
	if (row->irqs_off)
		KUNIT_EXPECT_GE(test, in_loop + 1, NMIT_WANT);
	else
		KUNIT_EXPECT_GE(test, in_loop * 10, o.n * 8);
}

/**
 * struct nmit_dfl_ent - a default-format entry of the exact run
 * @e: the entry.
 * @pmd1: PMD 1, instructions, recorded in it.
 */
struct nmit_dfl_ent {
	struct pfm_dfl_smpl_entry	e;
	u64				pmd1;
};

/**
 * struct nmit_dfl - what the default format's exact run saw
 * @hdr: its buffer's header.
 * @ent: its entries.
 * @n: how many, at most NMIT_MAX.
 * @stats: the context's statistics once stopped.
 */
struct nmit_dfl {
	struct pfm_dfl_smpl_hdr	*hdr;
	struct nmit_dfl_ent	*ent;
	u64			n;
	struct pfmk_ctx_stats	stats;
};

/*
 * The default format over the loop with interrupts off (one CPU online:
 * QEMU counts every vCPU's instructions in each CPU's counter), then
 * stopped: what it saw in @d.
 */
static void nmit_dfl_run(struct kunit *test, struct nmit_dfl *d)
{
	static const pfm_uuid_t dfl = PFM_DFL_SMPL_UUID;
	const char *event = *(const char * const *)test->param_value;
	struct nmit_state *st = test->priv;
	struct pfm_dfl_smpl_arg arg;

	if (num_online_cpus() != 1)
		kunit_skip(test, "exact distances need one CPU online");
	memset(&arg, 0, sizeof(arg));
	arg.buf_size = sizeof(*d->hdr) + NMIT_MAX * sizeof(*d->ent);
	nmit_pin(test);
	d->hdr = nmit_open(test, event, dfl, &arg, sizeof(arg), 0);
	nmit_loop_irqs_off(NMIT_INSNS / 2);
	KUNIT_ASSERT_EQ(test, pfmk_stop(st->desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_get_stats(st->desc, &d->stats), 0);
	d->n = min_t(u64, pfmkt_hdr_count(d->hdr), NMIT_MAX);
	d->ent = (void *)(d->hdr + 1);
}

/*
 * A sample every period of the loop's instructions, each of the loop's
 * exactly one period of instructions after the one before (the recorded
 * instructions, less a period per sample, never vary): no overflow waits
 * for interrupts to be enabled.
 */
static void nmi_smpl_dfl_exact(struct kunit *test)
{
	struct nmit_dfl d;
	u64 i, base = 0;
	bool first = true;

	nmit_dfl_run(test, &d);
	for (i = 0; i < d.n; i++) {
		if (!nmit_ip_in_loop(d.ent[i].e.ip))
			continue;
		if (first)
			base = d.ent[i].pmd1 - i * NMIT_PERIOD;
		first = false;
		KUNIT_EXPECT_EQ_MSG(test, d.ent[i].pmd1 - i * NMIT_PERIOD, base,
				    "sample %llu late or early", i);
	}
}

/* The loop's samples (and some in the start and stop paths) all taken. */
static void nmi_smpl_dfl_exact_in_loop(struct kunit *test)
{
	struct nmit_dfl d;
	u64 i, in_loop = 0;

	nmit_dfl_run(test, &d);
	for (i = 0; i < d.n; i++)
		in_loop += nmit_ip_in_loop(d.ent[i].e.ip);
	KUNIT_EXPECT_GE(test, in_loop + 1, NMIT_WANT);
}

/* The loop's samples record the context's CPU. */
static void nmi_smpl_dfl_exact_on_cpu(struct kunit *test)
{
	struct nmit_state *st = test->priv;
	struct nmit_dfl d;
	u64 i;

	nmit_dfl_run(test, &d);
	for (i = 0; i < d.n; i++)
		if (nmit_ip_in_loop(d.ent[i].e.ip))
			KUNIT_EXPECT_EQ(test, (int)d.ent[i].e.cpu, st->cpu);
}

/* The buffer, with room for every sample, lost no overflow. */
static void nmi_smpl_dfl_exact_no_overflow_lost(struct kunit *test)
{
	struct nmit_dfl d;

	nmit_dfl_run(test, &d);
	KUNIT_EXPECT_EQ(test, d.hdr->hdr_overflows, 0ULL);
}

/* None is missed nor throttled. */
static void nmi_smpl_dfl_exact_none_missed(struct kunit *test)
{
	struct nmit_dfl d;

	nmit_dfl_run(test, &d);
	pfmkt_expect_stats_in(test, &d.stats, &(struct pfmk_ctx_stats){},
			      PFMKT_ST(ovfl_missed) | PFMKT_ST(throttled));
}

/*
 * A default-format buffer with room for 4 samples and
 * PFM_REGFL_OVFL_NOTIFY, counting cycles on the test's CPU, filled inside
 * the loop: waits for the notification (queued from NMI through
 * irq_work).
 *
 * Return: the buffer's header.
 */
static struct pfm_dfl_smpl_hdr *nmit_notified(struct kunit *test)
{
	static const pfm_uuid_t dfl = PFM_DFL_SMPL_UUID;
	struct pfm_dfl_smpl_arg arg;
	struct pfm_dfl_smpl_hdr *hdr;

	/*
	 * Full when less than the largest entry of the generic description
	 * (a value for each of its PMDs) is left: after the fourth.
	 */
	memset(&arg, 0, sizeof(arg));
	arg.buf_size = sizeof(*hdr) + sizeof(struct pfm_dfl_smpl_entry) +
		       PFMK_GENERIC_NUM_PMCS * sizeof(u64) +
		       3 * (sizeof(struct pfm_dfl_smpl_entry) + sizeof(u64));
	nmit_pin(test);
	hdr = nmit_open(test, "cycles", dfl, &arg, sizeof(arg),
			PFM_REGFL_OVFL_NOTIFY);
	nmit_loop(NMIT_INSNS / 2);
	pfmkt_wait_notify(test);
	return hdr;
}

/* Notification from NMI: the context masks. */
static void nmi_smpl_notify(struct kunit *test)
{
	struct nmit_state *st = test->priv;

	nmit_notified(test);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(st->desc),
			PFM_CTX_MASKED | PFMK_STATE_STARTED);
}

/* Notification from NMI: the buffer is full, with its 4 entries. */
static void nmi_smpl_notify_entries(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr = nmit_notified(test);

	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(hdr), 4ULL);
}

/* Notification from NMI: the overflow message of PMD 0 arrives. */
static void nmi_smpl_notify_msg(struct kunit *test)
{
	struct nmit_state *st = test->priv;
	union pfm_msg msg;

	nmit_notified(test);
	KUNIT_ASSERT_EQ(test, pfmk_read(st->desc, &msg, sizeof(msg), 1),
			(ssize_t)sizeof(msg));
	KUNIT_EXPECT_EQ(test, msg.type, PFM_MSG_OVFL);
	KUNIT_EXPECT_EQ(test, msg.pfm_ovfl_msg.msg_ovfl_pmds[0], 1ULL);
}

/* pfmk_restart() after a notification from NMI empties the buffer. */
static void nmi_smpl_restart_empties(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr = nmit_notified(test);
	struct nmit_state *st = test->priv;

	KUNIT_EXPECT_EQ(test, pfmk_restart(st->desc), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(hdr), 0ULL);
}

/* After pfmk_restart(), the context samples again from NMI. */
static void nmi_smpl_restart_samples(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr = nmit_notified(test);
	struct nmit_state *st = test->priv;

	KUNIT_ASSERT_EQ(test, pfmk_restart(st->desc), 0);
	nmit_loop(NMIT_INSNS / 4);
	KUNIT_EXPECT_EQ(test, pfmk_stop(st->desc), 0);
	KUNIT_EXPECT_GE(test, pfmkt_hdr_count(hdr), 1ULL);
}

static struct kunit_case pfmk_nmi_cases[] = {
	KUNIT_CASE_PARAM(nmi_overflow_handler, nmit_own_gen_params),
	KUNIT_CASE_PARAM(nmi_overflow_on_cpu, nmit_own_gen_params),
	KUNIT_CASE_PARAM(nmi_overflow_none_missed, nmit_own_gen_params),
	KUNIT_CASE_PARAM(nmi_overflow_count, nmit_own_gen_params),
	KUNIT_CASE_PARAM(nmi_overflow_in_loop, nmit_own_gen_params),
	KUNIT_CASE_PARAM(nmi_smpl_dfl_exact, nmit_event_gen_params),
	KUNIT_CASE_PARAM(nmi_smpl_dfl_exact_in_loop, nmit_event_gen_params),
	KUNIT_CASE_PARAM(nmi_smpl_dfl_exact_on_cpu, nmit_event_gen_params),
	KUNIT_CASE_PARAM(nmi_smpl_dfl_exact_no_overflow_lost,
			 nmit_event_gen_params),
	KUNIT_CASE_PARAM(nmi_smpl_dfl_exact_none_missed, nmit_event_gen_params),
	KUNIT_CASE(nmi_smpl_notify),
	KUNIT_CASE(nmi_smpl_notify_entries),
	KUNIT_CASE(nmi_smpl_notify_msg),
	KUNIT_CASE(nmi_smpl_restart_empties),
	KUNIT_CASE(nmi_smpl_restart_samples),
	{}
};

static struct kunit_suite pfmk_nmi_suite = {
	.name = "pfmk_nmi",
	.init = nmit_init,
	.exit = nmit_exit,
	.test_cases = pfmk_nmi_cases,
};

kunit_test_suites(&pfmk_nmi_suite);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk KUnit tests: PMU overflows as NMIs (arm64)");
MODULE_LICENSE("GPL");
