// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_dyn (pfmk_dyn_kunit.ko): dynamic descriptions
 * through the KAPI.  The attr perf gets, reserved bits, the shared
 * cache, a PMU that moves its events, and exact or measured counts on
 * PMUs nobody here wrote (msr, tracepoints, the software PMU, the
 * synthetic AUX PMU) and on pfmk_test.  The module's PMU is in
 * pfmk_kunit_dyn_pmu.c.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <pfmk/aux.h>
#include <pfmk/encode.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_dyn.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "pfmk_kunit.h"
#include "pfmk_kunit_dyn.h"
#include "pfmk_test_aux_pmu.h"
#include "pfmk_test_pmu.h"
#include "pfmk_test_thread.h"

/* Every word of the PMC layout reaches perf's attr. */
static void dyn_attr_reaches_perf(struct kunit *test)
{
	static const char * const ev[] = {
		FMT_PMU_NAME "/ev_a,split=0xa5,flag,ext=5,hi=2,upd=3/u",
	};
	struct perf_event_attr a;
	unsigned int inits;

	spin_lock(&fmt_lock);
	inits = fmt_inits;
	spin_unlock(&fmt_lock);
	pfmkt_create_events(test, ev, 1, pfmkt_cpu());
	spin_lock(&fmt_lock);
	a = fmt_last;
	KUNIT_EXPECT_GT(test, fmt_inits, inits);
	spin_unlock(&fmt_lock);
	KUNIT_EXPECT_EQ(test, a.type, fmt_pmu.type);
	KUNIT_EXPECT_EQ(test, a.config,
			BIT_ULL(63) | 0xa00050111ULL);
	KUNIT_EXPECT_EQ(test, a.config1, 5ULL);
	KUNIT_EXPECT_EQ(test, a.config2, 0x20000000003ULL);
	KUNIT_EXPECT_FALSE(test, a.exclude_user);
	KUNIT_EXPECT_TRUE(test, a.exclude_kernel);
	KUNIT_EXPECT_TRUE(test, a.exclude_hv);
}

/**
 * struct dyn_reg_write - one PMC write to the module's PMU
 * @name: the case.
 * @reg: the PMC.
 * @val: the value.
 * @ret: the errno.
 * @flags: the PMC's PFM_REG_RETFL_* afterwards.
 */
struct dyn_reg_write {
	const char	*name;
	u16		reg;
	u64		val;
	int		ret;
	u32		flags;
};

#define DYNT_BAD(n, r, v) \
	{ n, r, v, -EINVAL, PFM_REG_RETFL_EINVAL }

static const struct dyn_reg_write dyn_reg_writes[] = {
	DYNT_BAD("ctrl_bit_0", 0, PFMK_DYN_EN | BIT_ULL(0)),
	DYNT_BAD("ctrl_bit_62", 1, BIT_ULL(62)),
	/* the hidden field's bits are no field's */
	DYNT_BAD("config_bit_20", DYNT_W(0), BIT_ULL(20)),
	DYNT_BAD("config_bit_36", DYNT_W(0), BIT_ULL(36)),
	DYNT_BAD("config1_bit_32", DYNT_W(1), BIT_ULL(32)),
	DYNT_BAD("config2_bit_4", DYNT_W(2), BIT_ULL(4)),
#ifdef PFMK_HAVE_ATTR_CONFIG3
	DYNT_BAD("config3_bit_8", DYNT_W(3), BIT_ULL(8)),
#else
	DYNT_BAD("config3_bit_0", DYNT_W(3), BIT_ULL(0)),
#endif
	/* every field's bits at once, and bit 63, are taken */
	{ "config_all_fields", DYNT_W(0), 0xf000fffffULL | BIT_ULL(63), 0, 0 },
	{ "config2_all_fields", DYNT_W(2), 0xff000000000fULL | BIT_ULL(63),
	  0, 0 },
	{ "pmc_out_of_range", PFMK_DYN_NUM_PMCS, 0, -EINVAL,
	  PFM_REG_RETFL_NOTAVAIL },
};

static void dyn_reg_write_desc(const struct dyn_reg_write *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dyn_reg_write, dyn_reg_writes, dyn_reg_write_desc);

/*
 * Bits outside the format fields, or the control word's: -EINVAL and
 * PFM_REG_RETFL_EINVAL; the fields' own bits are taken.
 */
static void dyn_reserved_bits(struct kunit *test)
{
	const struct dyn_reg_write *c = test->param_value;
	struct pfarg_ctx req;
	struct pfarg_pmc pmc;
	void *desc;

	pfmkt_ctx_req(&req, FMT_PMU_NAME, 0, false);
	desc = pfmkt_create_req(test, &req, NULL);
	pfmkt_pmc_req(&pmc, 0, c->reg, c->val);
	KUNIT_EXPECT_EQ_MSG(test, pfmk_write_pmcs(desc, &pmc, 1), c->ret,
			    "PMC%u = 0x%llx", c->reg, c->val);
	KUNIT_EXPECT_EQ(test, pmc.reg_flags & PFM_REG_RETFL_MASK, c->flags);
}

/*
 * Two contexts of the module's PMU, @a by its name (which caches the
 * description), @b by the prefixed name.  Return: the count cached before.
 */
static unsigned int dynt_shared_pair(struct kunit *test, void **a, void **b)
{
	unsigned int base = pfmk_dyn_count_cached();
	struct pfarg_ctx req;

	pfmkt_ctx_req(&req, FMT_PMU_NAME, 0, false);
	*a = pfmkt_create_req(test, &req, NULL);
	KUNIT_ASSERT_EQ(test, pfmk_dyn_count_cached(), base + 1);
	pfmkt_ctx_req(&req, PFMK_DYN_PREFIX FMT_PMU_NAME, 0, false);
	*b = pfmkt_create_req(test, &req, NULL);
	return base;
}

/* Two contexts of one PMU share its description. */
static void dyn_shared_cache(struct kunit *test)
{
	unsigned int base;
	void *a, *b;

	base = dynt_shared_pair(test, &a, &b);
	KUNIT_EXPECT_EQ(test, pfmk_dyn_count_cached(), base + 1);
}

/* Two contexts of one PMU: the first close keeps the description. */
static void dyn_shared_cache_first_close(struct kunit *test)
{
	unsigned int base;
	void *a, *b;

	base = dynt_shared_pair(test, &a, &b);
	pfmkt_close(test, a);
	KUNIT_EXPECT_EQ(test, pfmk_dyn_count_cached(), base + 1);
}

/* Two contexts of one PMU: the last close frees the description. */
static void dyn_shared_cache_last_close(struct kunit *test)
{
	unsigned int base;
	void *a, *b;

	base = dynt_shared_pair(test, &a, &b);
	pfmkt_close(test, a);
	pfmkt_close(test, b);
	KUNIT_EXPECT_EQ(test, pfmk_dyn_count_cached(), base);
}

/* Names that are no description and no PMU. */
static const char * const dyn_unknown_names[] = {
	"pfmk_no_such_pmu",
	PFMK_DYN_PREFIX,
};

static void dyn_unknown_name_desc(const char * const *name, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "name \"%s\"", *name);
}

KUNIT_ARRAY_PARAM(dyn_unknown_name, dyn_unknown_names, dyn_unknown_name_desc);

/* A name that is no description and no PMU: -ENOENT at create. */
static void dyn_unknown_pmu(struct kunit *test)
{
	const char * const *name = test->param_value;
	struct pfarg_ctx req;
	void *desc = NULL;

	pfmkt_ctx_req(&req, *name, 0, false);
	KUNIT_EXPECT_EQ(test, pfmkt_try_create(test, &req, &desc), -ENOENT);
}

/* A loaded context of the module's PMU counting "event=1". */
static void *dynt_event1_loaded(struct kunit *test)
{
	static const char * const ev[] = { FMT_PMU_NAME "/event=1/" };

	return pfmkt_create_events(test, ev, 1, pfmkt_cpu());
}

/* Config words are written unloaded only: -EBUSY loaded. */
static void dyn_config_words_unloaded(struct kunit *test)
{
	struct pfarg_pmc pmc;
	void *desc;

	desc = dynt_event1_loaded(test);
	pfmkt_pmc_req(&pmc, 0, DYNT_W(0), 2);
	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, &pmc, 1), -EBUSY);
}

/* A control word is written loaded too, and reaches perf's attr. */
static void dyn_ctrl_word_loaded(struct kunit *test)
{
	struct pfarg_pmc pmc;
	void *desc;

	desc = dynt_event1_loaded(test);
	pfmkt_pmc_req(&pmc, 0, 0, PFMK_DYN_EN | PFMK_DYN_XUSER);
	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, &pmc, 1), 0);
	KUNIT_EXPECT_TRUE(test, fmt_last.exclude_user);
	KUNIT_EXPECT_EQ(test, fmt_last.config, 1ULL);
}

/*
 * A context of the module's PMU whose event the PMU moves to the first
 * online CPU (an uncore PMU's cpumask), written and unloaded.
 */
static void *dynt_moved_setup(struct kunit *test)
{
	static const char * const ev[] = { FMT_PMU_NAME "/event=1,home/" };
	unsigned int max = PFMK_ENCODE_MAX_PMCS, count;
	struct pfarg_pmc *pmcs;
	struct pfarg_ctx req;
	void *desc;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second online CPU");
	pmcs = kunit_kcalloc(test, max, sizeof(*pmcs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pmcs);
	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmkt_encode_events(&req, ev, 1, pmcs, max,
						  &count), 0);
	desc = pfmkt_create_req(test, &req, NULL);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmcs, count), 0);
	return desc;
}

/* Such an event's load on another CPU fails with -EXDEV. */
static void dyn_moved_event_refused(struct kunit *test)
{
	struct pfarg_load load;
	void *desc;

	desc = dynt_moved_setup(test);
	pfmkt_load_req(&load, pfmkt_cpu(), 0);
	KUNIT_EXPECT_EQ(test, pfmk_load_context(desc, &load), -EXDEV);
}

/* Refused elsewhere, it loads on the CPU the PMU moves it to. */
static void dyn_moved_event_home(struct kunit *test)
{
	int home = cpumask_first(cpu_online_mask);
	struct pfarg_load load;
	void *desc;

	desc = dynt_moved_setup(test);
	pfmkt_load_req(&load, pfmkt_cpu(), 0);
	KUNIT_ASSERT_EQ(test, pfmk_load_context(desc, &load), -EXDEV);
	pfmkt_load_req(&load, home, 0);
	KUNIT_EXPECT_EQ(test, pfmk_load_context(desc, &load), 0);
}

/**
 * struct dynt_exact - a pfmk_test event by name and its exact count
 * @name: the row.
 * @ev: the event string.
 * @count: PMD 0 after 5 ticks started, then 5 stopped.
 */
struct dynt_exact {
	const char	*name;
	const char	*ev;
	u64		count;
};

static const struct dynt_exact dynt_exacts[] = {
	{ "step_3", "pfmk_test/step=3/", 15 },
	{ "step_0xffff", "pfmk_test/step=0xffff/", 5 * 0xffffULL },
	{ "config_7", "pfmk_test/config=7/", 35 },
};

static void dynt_exact_desc(const struct dynt_exact *e, char *desc)
{
	strscpy(desc, e->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dynt_exact, dynt_exacts, dynt_exact_desc);

/*
 * pfmk_test by name: exact counts through its format attribute (step=,
 * or the whole config word), counted while started only.
 */
static void dyn_pfmk_test_exact(struct kunit *test)
{
	const struct dynt_exact *e = test->param_value;
	int cpu = pfmkt_cpu();
	void *desc;

	desc = pfmkt_create_events(test, &e->ev, 1, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), e->count);
}

/*
 * msr/tsc/ counts TSC ticks: within 2% of ktime x tsc_khz over 200 ms on
 * a CPU kept busy by a thread bound to it (pfmk_test_msr_tsc(), shared
 * with pfmk_smoke's encode_msr_tsc, the stock kernels' coverage).
 */
static void dyn_msr_tsc(struct kunit *test)
{
#ifdef CONFIG_X86
	static const char * const ev[] = { "msr/tsc/" };
	int cpu = pfmkt_cpu();
	struct pfmk_test_tsc w;
	void *desc;

	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz)
		kunit_skip(test, "no TSC");
	desc = pfmkt_create_events(test, ev, 1, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	/* Reads without assertions: the spinning thread stops first. */
	KUNIT_ASSERT_EQ(test, pfmk_test_msr_tsc(desc, cpu, &w), 0);
	kunit_info(test, "msr/tsc/: %llu ticks, ktime x tsc_khz %llu to %llu\n",
		   w.got, w.lo, w.hi);
	KUNIT_EXPECT_GT(test, w.got, w.lo - w.lo / 50);
	KUNIT_EXPECT_LT(test, w.got, w.hi + w.hi / 50);
#else
	kunit_skip(test, "the msr PMU is x86's");
#endif
}

struct dynt_switcher {
	struct completion	go;
	struct completion	done;
	int			rounds;
};

static int dynt_switch_fn(void *arg)
{
	struct dynt_switcher *s = arg;
	int i;

	wait_for_completion(&s->go);
	for (i = 0; i < s->rounds; i++)
		usleep_range(100, 200);
	complete(&s->done);
	return pfmk_test_kthread_park();
}

/*
 * sched:sched_switch counts what the software context-switch event
 * counts on the same CPU over the same window: both fire in __schedule()
 * for every switch.  pfmk enables (and disables) a context's events one
 * after the other, an IPI each, and the CPU may switch tasks in between:
 * the counts agree within 2 + 2% (DYNT_TP_SLACK()).
 */
#define DYNT_TP_SLACK(n)	(2 + (n) / 50)

static void dyn_tp_sched_switch(struct kunit *test)
{
	static const char * const ev[] = {
		"sched:sched_switch", "context-switches",
	};
	struct dynt_switcher s = { .rounds = 200 };
	int cpu = pfmkt_cpu();
	struct task_struct *t;
	u64 tp, cs;
	void *desc;

	init_completion(&s.go);
	init_completion(&s.done);
	desc = pfmkt_create_events(test, ev, 2, cpu);
	t = kthread_create(dynt_switch_fn, &s, "pfmkt_switch");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, cpu);
	wake_up_process(t);
	/* No assertion until the thread is stopped: it uses this stack. */
	KUNIT_EXPECT_EQ(test, pfmk_start(desc, NULL), 0);
	complete(&s.go);
	wait_for_completion(&s.done);
	KUNIT_EXPECT_EQ(test, pfmk_stop(desc), 0);
	kthread_stop(t);
	tp = pfmkt_read_pmd(test, desc, 0);
	cs = pfmkt_read_pmd(test, desc, 1);
	kunit_info(test, "sched:sched_switch %llu, context-switches %llu\n",
		   tp, cs);
	KUNIT_EXPECT_GE(test, tp, 100ULL);
	KUNIT_EXPECT_LE(test, tp, cs + DYNT_TP_SLACK(cs));
	KUNIT_EXPECT_LE(test, cs, tp + DYNT_TP_SLACK(tp));
}

/* cpu-clock by name and the software PMU by name agree with ktime. */
static void dyn_software_by_name(struct kunit *test)
{
	static const char * const gen[] = { "cpu-clock" };
	static const char * const dyn[] = { "software/config=0/" };
	void *a, *b;
	u64 ca, cb;

	a = pfmkt_create_events(test, gen, 1, pfmkt_cpu());
	b = pfmkt_create_events(test, dyn, 1, pfmkt_cpu());
	KUNIT_ASSERT_EQ(test, pfmk_start(a, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(b, NULL), 0);
	msleep(100);
	KUNIT_ASSERT_EQ(test, pfmk_stop(b), 0);
	KUNIT_ASSERT_EQ(test, pfmk_stop(a), 0);
	ca = pfmkt_read_pmd(test, a, 0);
	cb = pfmkt_read_pmd(test, b, 0);
	KUNIT_EXPECT_GE(test, ca, 90ULL * NSEC_PER_MSEC);
	KUNIT_EXPECT_GE(test, cb, 90ULL * NSEC_PER_MSEC);
	KUNIT_EXPECT_LE(test, cb, ca);
}

struct dynt_aux_copy {
	u64	nrec;
	u64	bad;
	size_t	off;	/* bytes of the record being assembled */
	u8	rec[PFMK_TEST_AUX_REC];
};

/* Check each record of the stream in order (pieces may split records). */
static int dynt_aux_fn(void *data, const void *src, size_t len)
{
	struct dynt_aux_copy *c = data;
	size_t n;

	while (len) {
		n = min(len, sizeof(c->rec) - c->off);
		memcpy(c->rec + c->off, src, n);
		c->off += n;
		src += n;
		len -= n;
		if (c->off < sizeof(c->rec))
			continue;
		if (!pfmk_test_aux_rec_ok((void *)c->rec, c->nrec))
			c->bad++;
		c->nrec++;
		c->off = 0;
	}
	return 0;
}

static const char * const dynt_aux_ev[] = { PFMK_TEST_AUX_NAME "/rate=1/" };

/*
 * Encode dynt_aux_ev into a request and @pmcs (PFMK_ENCODE_MAX_PMCS);
 * return the PMC count.  Skipped on a kernel without pfmk's kernel-owned
 * AUX patch, which the kernels this suite runs on (pfmk's debug kernels)
 * carry.
 */
static unsigned int dynt_aux_encode(struct kunit *test, struct pfarg_ctx *req,
				    struct pfarg_pmc **pmcs)
{
	unsigned int max = PFMK_ENCODE_MAX_PMCS, count;

#ifndef PFMK_HAVE_KERNEL_AUX
	kunit_skip(test, "the kernel lacks pfmk's kernel-owned AUX patch");
#endif
	*pmcs = kunit_kcalloc(test, max, sizeof(**pmcs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *pmcs);
	pfmkt_ctx_req(req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmkt_encode_events(req, dynt_aux_ev, 1, *pmcs,
						  max, &count), 0);
	return count;
}

/*
 * AUX on a PMU selected by name: the synthetic AUX PMU resolves to its
 * dynamic description ("perf:pfmk_aux_test", from pfmk_encode()).
 */
static void dyn_aux_named_pmu(struct kunit *test)
{
	struct pfarg_pmc *pmcs;
	struct pfarg_ctx req;

	dynt_aux_encode(test, &req, &pmcs);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name,
			   PFMK_DYN_PREFIX PFMK_TEST_AUX_NAME);
}

/*
 * A context of that description, with an AUX area, loaded and started on
 * the test CPU; 40 records written, stopped, and the area copied out
 * through dynt_aux_fn() into *@c, the copy's info in *@info.
 */
static void *dynt_aux_copied(struct kunit *test, struct dynt_aux_copy *c,
			     struct pfmk_aux_info *info)
{
	struct pfarg_pmc *pmcs;
	struct pfarg_ctx req;
	int cpu = pfmkt_cpu();
	unsigned int count;
	void *desc;

	count = dynt_aux_encode(test, &req, &pmcs);
	desc = pfmkt_create_req(test, &req, NULL);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmcs, count), 0);
	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(desc, 0, 4 * PFMK_AUX_MIN_SIZE,
					     0), 0);
	pfmkt_load_start(test, desc, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(cpu, 40), 0);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_aux_copy(desc, SIZE_MAX, dynt_aux_fn, c,
					    info), 0);
	return desc;
}

/* Such a context copies its AUX records out intact: all 40, in order. */
static void dyn_aux_named_pmu_copy(struct kunit *test)
{
	struct dynt_aux_copy c = { };
	struct pfmk_aux_info info;

	dynt_aux_copied(test, &c, &info);
	KUNIT_EXPECT_EQ(test, info.head, 40ULL * PFMK_TEST_AUX_REC);
	KUNIT_EXPECT_EQ(test, info.to - info.from, 40ULL * PFMK_TEST_AUX_REC);
	KUNIT_EXPECT_EQ(test, c.nrec, 40ULL);
	KUNIT_EXPECT_EQ(test, c.bad, 0ULL);
}

/* Its PMD counts the records the AUX event wrote. */
static void dyn_aux_named_pmu_count(struct kunit *test)
{
	struct dynt_aux_copy c = { };
	struct pfmk_aux_info info;
	void *desc;

	desc = dynt_aux_copied(test, &c, &info);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 40ULL);
}

static struct kunit_case dyn_cases[] = {
	KUNIT_CASE(dyn_attr_reaches_perf),
	KUNIT_CASE_PARAM(dyn_reserved_bits, dyn_reg_write_gen_params),
	KUNIT_CASE(dyn_shared_cache),
	KUNIT_CASE(dyn_shared_cache_first_close),
	KUNIT_CASE(dyn_shared_cache_last_close),
	KUNIT_CASE_PARAM(dyn_unknown_pmu, dyn_unknown_name_gen_params),
	KUNIT_CASE(dyn_config_words_unloaded),
	KUNIT_CASE(dyn_ctrl_word_loaded),
	KUNIT_CASE(dyn_moved_event_refused),
	KUNIT_CASE(dyn_moved_event_home),
	KUNIT_CASE_PARAM(dyn_pfmk_test_exact, dynt_exact_gen_params),
	KUNIT_CASE_SLOW(dyn_msr_tsc),
	KUNIT_CASE_SLOW(dyn_tp_sched_switch),
	KUNIT_CASE(dyn_software_by_name),
	KUNIT_CASE(dyn_aux_named_pmu),
	KUNIT_CASE(dyn_aux_named_pmu_copy),
	KUNIT_CASE(dyn_aux_named_pmu_count),
	{}
};

static struct kunit_suite dyn_suite = {
	.name = "pfmk_dyn",
	.suite_init = dynt_suite_init,
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = dyn_cases,
};

kunit_test_suites(&dyn_suite);
