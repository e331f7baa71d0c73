// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_smpl_fmt: a sampling format of the tests' own
 * (perfmon2 2.2's plug-in interface, <pfmk/smpl.h>).  It keeps each
 * pfmk_ovfl_arg it is handed and answers smpl_fmt_ctrl, so that what the
 * core hands a format, and what it does with each PFM_OVFL_CTRL_* answer,
 * can be checked.  The suite registers the format (smpl_fmt_suite_init()).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

#define SMPL_FMT_RECS	8

/**
 * struct smpl_fmt_rec - what the format was handed at one overflow
 * @ovfl_pmd: pfmk_ovfl_arg.ovfl_pmd.
 * @active_set: pfmk_ovfl_arg.active_set.
 * @cpu: pfmk_ovfl_arg.cpu.
 * @last_reset_val: pfmk_ovfl_arg.last_reset_val.
 * @eventid: pfmk_ovfl_arg.eventid.
 * @nr_smpl_pmds: pfmk_ovfl_arg.nr_smpl_pmds.
 * @vals: the first two of pfmk_ovfl_arg.smpl_pmds_val.
 */
struct smpl_fmt_rec {
	u16	ovfl_pmd;
	u16	active_set;
	u16	cpu;
	u64	last_reset_val;
	u64	eventid;
	u32	nr_smpl_pmds;
	u64	vals[2];
};

/**
 * struct smpl_fmt_buf - the format's buffer
 * @count: records in @rec.
 * @restarts: calls of its ->restart().
 * @rec: the records.
 */
struct smpl_fmt_buf {
	u32			count;
	u32			restarts;
	struct smpl_fmt_rec	rec[SMPL_FMT_RECS];
};

static u32 smpl_fmt_ctrl;

static ssize_t smpl_fmt_get_size(const void *arg, unsigned int npmds)
{
	return *(const u64 *)arg == 1 ? sizeof(struct smpl_fmt_buf) : -EINVAL;
}

static void smpl_fmt_init(void *buf, void *priv, size_t size,
			  const void *arg, unsigned int npmds)
{
}

static int smpl_fmt_handler(void *buf, void *priv, struct pfmk_ovfl_arg *arg)
{
	struct smpl_fmt_buf *b = buf;
	struct smpl_fmt_rec *r;
	u32 *n = priv, i;

	arg->ovfl_ctrl = READ_ONCE(smpl_fmt_ctrl);
	if (*n >= SMPL_FMT_RECS)
		return -ENOBUFS;
	r = &b->rec[*n];
	r->ovfl_pmd = arg->ovfl_pmd;
	r->active_set = arg->active_set;
	r->cpu = arg->cpu;
	r->last_reset_val = arg->last_reset_val;
	r->eventid = arg->eventid;
	r->nr_smpl_pmds = arg->nr_smpl_pmds;
	for (i = 0; i < min_t(u32, arg->nr_smpl_pmds, 2); i++)
		r->vals[i] = arg->smpl_pmds_val[i];
	/* The record is complete before the reader sees the count. */
	smp_store_release(&b->count, ++*n);
	return 0;
}

static void smpl_fmt_restart(void *buf, void *priv)
{
	struct smpl_fmt_buf *b = buf;

	*(u32 *)priv = 0;
	b->count = 0;
	b->restarts++;
}

static struct pfmk_smpl_fmt smpl_test_fmt = {
	.name		= "pfmk_kunit_fmt",
	.uuid		= { 0x70, 0x66, 0x6d, 0x6b, 0x2d, 0x6b, 0x75, 0x6e,
			    0x69, 0x74, 0x2d, 0x66, 0x6d, 0x74, 0x00, 0x01 },
	.owner		= THIS_MODULE,
	.arg_size	= sizeof(u64),
	.priv_size	= sizeof(u32),
	.get_size	= smpl_fmt_get_size,
	.init		= smpl_fmt_init,
	.handler	= smpl_fmt_handler,
	.restart	= smpl_fmt_restart,
};

static u32 smpl_fmt_count(struct smpl_fmt_buf *b)
{
	/* Pairs with the handler's release: the records are complete. */
	return smp_load_acquire(&b->count);
}

static int smpl_fmt_suite_init(struct kunit_suite *suite)
{
	return pfmk_smpl_fmt_register(&smpl_test_fmt);
}

static void smpl_fmt_suite_exit(struct kunit_suite *suite)
{
	pfmk_smpl_fmt_unregister(&smpl_test_fmt);
}

/*
 * A context with the test format (its argument 1), or abort the case.
 * @req: output: the request, as pfmk_create() left it.
 */
static void *smpl_fmt_create(struct kunit *test, struct pfarg_ctx *req,
			     struct smpl_fmt_buf **buf)
{
	void *desc = NULL, *b = NULL;
	u64 arg = 1;

	pfmkt_ctx_req(req, PFMK_TEST_PMU_NAME, 0, false);
	memcpy(req->ctx_smpl_buf_id, smpl_test_fmt.uuid,
	       sizeof(req->ctx_smpl_buf_id));
	KUNIT_ASSERT_EQ(test, pfmkt_try_create_arg(test, req, &arg,
						   sizeof(arg), &desc, &b), 0);
	KUNIT_ASSERT_NOT_NULL(test, b);
	*buf = b;
	return desc;
}

/* The create reports the size of the buffer the format asked for. */
static void smpl_fmt_buf_size(struct kunit *test)
{
	struct smpl_fmt_buf *b;
	struct pfarg_ctx req;

	smpl_fmt_create(test, &req, &b);
	KUNIT_EXPECT_EQ(test, req.ctx_smpl_buf_size,
			(u64)sizeof(struct smpl_fmt_buf));
}

/*
 * A context with the test format answering @ctrl, started on @cpu: PMD0
 * as @p0 counts ticks, PMD1 counts three per tick.
 */
static void *smpl_fmt_setup(struct kunit *test, int cpu, u32 ctrl,
			    const struct pfmkt_pmd *p0,
			    struct smpl_fmt_buf **buf)
{
	struct pfarg_ctx req;
	void *desc = smpl_fmt_create(test, &req, buf);

	WRITE_ONCE(smpl_fmt_ctrl, ctrl);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(3));
	pfmkt_write_smpl_pmd(test, desc, 0, p0);
	pfmkt_load_start(test, desc, cpu);
	return desc;
}

/*
 * What a format is handed: the PMD, the set, the CPU, the value the PMD
 * was last reset to, its reg_smpl_eventid and the values of its
 * reg_smpl_pmds at the overflow.  fmt_args_run(): PMD0 (step 1, value
 * -5, short reset -6) samples PMD1 (step 3); 12 ticks, two records.
 */
static void *fmt_args_run(struct kunit *test, int cpu,
			  struct smpl_fmt_buf **b)
{
	const struct pfmkt_pmd p0 = {
		.value = -5ULL,
		.short_reset = -6ULL,
		.long_reset = -6ULL,
		.smpl_pmds = BIT_ULL(1),
		.eventid = 0xfeedfaceULL,
	};
	void *desc;

	desc = smpl_fmt_setup(test, cpu, PFM_OVFL_CTRL_RESET, &p0, b);
	pfmk_test_pmu_tick(cpu, 12);
	KUNIT_ASSERT_EQ(test, smpl_fmt_count(*b), 2U);
	return desc;
}

/* The overflowed PMD, the active set and the CPU. */
static void smpl_fmt_args(struct kunit *test)
{
	struct smpl_fmt_buf *b;
	int cpu = pfmkt_cpu();

	fmt_args_run(test, cpu, &b);
	KUNIT_EXPECT_EQ(test, b->rec[0].ovfl_pmd, (u16)0);
	KUNIT_EXPECT_EQ(test, b->rec[0].active_set, (u16)0);
	KUNIT_EXPECT_EQ(test, b->rec[0].cpu, (u16)cpu);
}

/* The PMD's reg_smpl_eventid, at every overflow. */
static void smpl_fmt_args_eventid(struct kunit *test)
{
	struct smpl_fmt_buf *b;

	fmt_args_run(test, pfmkt_cpu(), &b);
	KUNIT_EXPECT_EQ(test, b->rec[0].eventid, 0xfeedfaceULL);
	KUNIT_EXPECT_EQ(test, b->rec[1].eventid, 0xfeedfaceULL);
}

/* The values of reg_smpl_pmds (PMD1 alone) at each overflow. */
static void smpl_fmt_args_smpl_pmds(struct kunit *test)
{
	struct smpl_fmt_buf *b;

	fmt_args_run(test, pfmkt_cpu(), &b);
	KUNIT_EXPECT_EQ(test, b->rec[0].nr_smpl_pmds, 1U);
	KUNIT_EXPECT_EQ(test, b->rec[0].vals[0], 3ULL * 5);
	KUNIT_EXPECT_EQ(test, b->rec[1].vals[0], 3ULL * 11);
}

/* The first overflow: the value written; then the short reset. */
static void smpl_fmt_args_last_reset_val(struct kunit *test)
{
	struct smpl_fmt_buf *b;

	fmt_args_run(test, pfmkt_cpu(), &b);
	KUNIT_EXPECT_EQ(test, b->rec[0].last_reset_val, -5ULL);
	KUNIT_EXPECT_EQ(test, b->rec[1].last_reset_val, -6ULL);
}

/* PFM_OVFL_CTRL_RESET: the PMD goes on from the short reset. */
static void smpl_fmt_args_reset(struct kunit *test)
{
	struct smpl_fmt_buf *b;
	void *desc;

	desc = fmt_args_run(test, pfmkt_cpu(), &b);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -6ULL + 1);
}

/**
 * struct smpl_fmt_answer - an answer of the format and what it must do
 * @ctrl: PFM_OVFL_CTRL_* the handler answers.
 * @flags: reg_flags of the sampling PMD.
 * @pmd0: PMD0 after 6 ticks, period 4.
 * @masked: the context is masked.
 * @msg: a message is sent.
 */
struct smpl_fmt_answer {
	u32	ctrl;
	u32	flags;
	u64	pmd0;
	bool	masked;
	bool	msg;
};

/* The answers that leave the context unmasked. */
static const struct smpl_fmt_answer smpl_fmt_unmasked[] = {
	{ 0, PFM_REGFL_OVFL_NOTIFY, 2, false, false },
	{ PFM_OVFL_CTRL_NOTIFY, PFM_REGFL_OVFL_NOTIFY, 2, false, true },
	{ PFM_OVFL_CTRL_RESET, PFM_REGFL_OVFL_NOTIFY, -2ULL, false, false },
	{ PFM_OVFL_CTRL_RESET | PFM_OVFL_CTRL_NOTIFY, PFM_REGFL_OVFL_NOTIFY,
	  -2ULL, false, true },
	{ PFM_OVFL_CTRL_RESET | PFM_OVFL_CTRL_NOTIFY, 0, -2ULL, false, false },
};

/* The answers that mask it. */
static const struct smpl_fmt_answer smpl_fmt_masked[] = {
	{ PFM_OVFL_CTRL_MASK | PFM_OVFL_CTRL_NOTIFY, PFM_REGFL_OVFL_NOTIFY, 2,
	  true, true },
	{ PFM_OVFL_CTRL_MASK, PFM_REGFL_OVFL_NOTIFY, 2, true, false },
	{ PFM_OVFL_CTRL_MASK | PFM_OVFL_CTRL_RESET, 0, 2, true, false },
};

/* Every answer: both tables above. */
static const struct smpl_fmt_answer *const smpl_fmt_answers[] = {
	&smpl_fmt_unmasked[0], &smpl_fmt_unmasked[1], &smpl_fmt_unmasked[2],
	&smpl_fmt_unmasked[3], &smpl_fmt_unmasked[4],
	&smpl_fmt_masked[0], &smpl_fmt_masked[1], &smpl_fmt_masked[2],
};

static_assert(ARRAY_SIZE(smpl_fmt_answers) ==
	      ARRAY_SIZE(smpl_fmt_unmasked) + ARRAY_SIZE(smpl_fmt_masked));

static void smpl_fmt_answer_desc(const struct smpl_fmt_answer *a, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "ctrl %#x%s", a->ctrl,
		 a->flags & PFM_REGFL_OVFL_NOTIFY ? " notify" : "");
}

KUNIT_ARRAY_PARAM(smpl_fmt_unmasked, smpl_fmt_unmasked, smpl_fmt_answer_desc);
KUNIT_ARRAY_PARAM(smpl_fmt_masked, smpl_fmt_masked, smpl_fmt_answer_desc);

static void smpl_fmt_answers_desc(const struct smpl_fmt_answer *const *a,
				  char *desc)
{
	smpl_fmt_answer_desc(*a, desc);
}

KUNIT_ARRAY_PARAM(smpl_fmt_answers, smpl_fmt_answers, smpl_fmt_answers_desc);

/* The answer of a smpl_fmt_answers case. */
static const struct smpl_fmt_answer *smpl_fmt_answer(struct kunit *test)
{
	return *(const struct smpl_fmt_answer *const *)test->param_value;
}

/*
 * The test format answering @a->ctrl for PMD0 (period 4, long reset 10,
 * @a->flags), 6 ticks after the start: one overflow answered.
 */
static void *smpl_fmt_answered(struct kunit *test, int cpu,
			       const struct smpl_fmt_answer *a,
			       struct smpl_fmt_buf **buf)
{
	const struct pfmkt_pmd p0 = {
		.value = -4ULL,
		.short_reset = -4ULL,
		.long_reset = -10ULL,
		.flags = a->flags,
	};
	void *desc;

	desc = smpl_fmt_setup(test, cpu, a->ctrl, &p0, buf);
	pfmk_test_pmu_tick(cpu, 6);
	return desc;
}

/*
 * What the core does with each answer of a format (perfmon2 2.2's
 * pfm_overflow_handler()): RESET reloads the short reset, neither RESET
 * nor MASK lets the PMD count on from its wrap, MASK masks and leaves it
 * for pfmk_restart(), and NOTIFY notifies only a PMD with
 * PFM_REGFL_OVFL_NOTIFY.  Each answer: the format is called once.
 */
static void smpl_fmt_answer_once(struct kunit *test)
{
	struct smpl_fmt_buf *b;

	smpl_fmt_answered(test, pfmkt_cpu(), smpl_fmt_answer(test), &b);
	KUNIT_EXPECT_EQ(test, smpl_fmt_count(b), 1U);
}

/* Each answer: PMD0 reloaded or counting on from its wrap. */
static void smpl_fmt_answer_pmd0(struct kunit *test)
{
	const struct smpl_fmt_answer *a = smpl_fmt_answer(test);
	struct smpl_fmt_buf *b;
	void *desc = smpl_fmt_answered(test, pfmkt_cpu(), a, &b);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), a->pmd0);
}

/* Each answer: the context masked by MASK only. */
static void smpl_fmt_answer_state(struct kunit *test)
{
	const struct smpl_fmt_answer *a = smpl_fmt_answer(test);
	struct smpl_fmt_buf *b;
	void *desc = smpl_fmt_answered(test, pfmkt_cpu(), a, &b);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			a->masked ? PFMKT_MASKED : PFMKT_STARTED);
}

/* Each answer: one overflow, one sample, a notification if it sends one. */
static void smpl_fmt_answer_stats(struct kunit *test)
{
	const struct smpl_fmt_answer *a = smpl_fmt_answer(test);
	const struct pfmk_ctx_stats want = { .ovfl_count = 1,
					     .smpl_count = 1,
					     .notify_count = a->msg };
	struct smpl_fmt_buf *b;
	void *desc = smpl_fmt_answered(test, pfmkt_cpu(), a, &b);

	pfmkt_expect_stats(test, desc, &want);
}

/* Each answer: a message for NOTIFY on a notifying PMD, else none. */
static void smpl_fmt_answer_msg(struct kunit *test)
{
	const struct smpl_fmt_answer *a = smpl_fmt_answer(test);
	struct smpl_fmt_buf *b;
	int cpu = pfmkt_cpu();
	void *desc = smpl_fmt_answered(test, cpu, a, &b);

	if (a->msg) {
		/* The message comes through the context's irq_work. */
		pfmkt_wait_notify(test);
		pfmkt_expect_ovfl_msg(test, desc, 0, cpu);
	} else {
		pfmkt_expect_no_msg(test, desc);
	}
}

/*
 * smpl_fmt_answered() on the test CPU, the one overflow sampled, the
 * context in the state @a says and its notification, if any, received.
 */
static void *smpl_fmt_settled(struct kunit *test,
			      const struct smpl_fmt_answer *a,
			      struct smpl_fmt_buf **buf)
{
	void *desc = smpl_fmt_answered(test, pfmkt_cpu(), a, buf);

	KUNIT_ASSERT_EQ(test, smpl_fmt_count(*buf), 1U);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc),
			a->masked ? PFMKT_MASKED : PFMKT_STARTED);
	if (a->msg)
		pfmkt_wait_notify(test);
	return desc;
}

/*
 * pfmk_restart() after an answer without MASK: nothing to restart
 * (-EBUSY) and the format is not called.
 */
static void smpl_fmt_ctrl_restart_unmasked(struct kunit *test)
{
	struct smpl_fmt_buf *b;
	void *desc = smpl_fmt_settled(test, test->param_value, &b);

	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -EBUSY);
	KUNIT_EXPECT_EQ(test, b->restarts, 0U);
}

/*
 * smpl_fmt_settled() after an answer with MASK, then pfmk_restart(): it
 * unmasks with the long reset and calls the format's ->restart().
 */
static void *smpl_fmt_restarted(struct kunit *test, struct smpl_fmt_buf **buf)
{
	void *desc = smpl_fmt_settled(test, test->param_value, buf);

	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	return desc;
}

/* pfmk_restart() after MASK: PMD0 from its long reset. */
static void smpl_fmt_ctrl_restart_pmd_reset(struct kunit *test)
{
	struct smpl_fmt_buf *b;
	void *desc = smpl_fmt_restarted(test, &b);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL);
}

/* pfmk_restart() after MASK: the format's ->restart() called once. */
static void smpl_fmt_ctrl_restart_hook(struct kunit *test)
{
	struct smpl_fmt_buf *b;

	smpl_fmt_restarted(test, &b);
	KUNIT_EXPECT_EQ(test, b->restarts, 1U);
}

/* pfmk_restart() after MASK: the format's ->restart() empties its buffer. */
static void smpl_fmt_ctrl_restart_buf_reset(struct kunit *test)
{
	struct smpl_fmt_buf *b;

	smpl_fmt_restarted(test, &b);
	KUNIT_EXPECT_EQ(test, b->count, 0U);
}

/* pfmk_restart() after MASK: the context started again. */
static void smpl_fmt_ctrl_restart_state(struct kunit *test)
{
	struct smpl_fmt_buf *b;
	void *desc = smpl_fmt_restarted(test, &b);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

static struct kunit_case pfmk_smpl_fmt_cases[] = {
	KUNIT_CASE(smpl_fmt_buf_size),
	KUNIT_CASE(smpl_fmt_args),
	KUNIT_CASE(smpl_fmt_args_eventid),
	KUNIT_CASE(smpl_fmt_args_smpl_pmds),
	KUNIT_CASE(smpl_fmt_args_last_reset_val),
	KUNIT_CASE(smpl_fmt_args_reset),
	KUNIT_CASE_PARAM(smpl_fmt_answer_once, smpl_fmt_answers_gen_params),
	KUNIT_CASE_PARAM(smpl_fmt_answer_pmd0, smpl_fmt_answers_gen_params),
	KUNIT_CASE_PARAM(smpl_fmt_answer_state, smpl_fmt_answers_gen_params),
	KUNIT_CASE_PARAM(smpl_fmt_answer_stats, smpl_fmt_answers_gen_params),
	KUNIT_CASE_PARAM(smpl_fmt_answer_msg, smpl_fmt_answers_gen_params),
	KUNIT_CASE_PARAM(smpl_fmt_ctrl_restart_unmasked,
			 smpl_fmt_unmasked_gen_params),
	KUNIT_CASE_PARAM(smpl_fmt_ctrl_restart_pmd_reset,
			 smpl_fmt_masked_gen_params),
	KUNIT_CASE_PARAM(smpl_fmt_ctrl_restart_hook,
			 smpl_fmt_masked_gen_params),
	KUNIT_CASE_PARAM(smpl_fmt_ctrl_restart_buf_reset,
			 smpl_fmt_masked_gen_params),
	KUNIT_CASE_PARAM(smpl_fmt_ctrl_restart_state,
			 smpl_fmt_masked_gen_params),
	{}
};

static struct kunit_suite pfmk_smpl_fmt_suite = {
	.name = "pfmk_smpl_fmt",
	.suite_init = smpl_fmt_suite_init,
	.suite_exit = smpl_fmt_suite_exit,
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_fmt_cases,
};

kunit_test_suites(&pfmk_smpl_fmt_suite);
