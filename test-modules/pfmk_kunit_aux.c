// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_aux_kunit: KUnit suite pfmk_aux of pfmk's AUX support
 * (<pfmk/aux.h>) on the synthetic AUX PMU "pfmk_aux_test"
 * (pfmk_test_aux_pmu.ko): argument errnos, stop-when-full streams,
 * snapshot copies, snippets in samples; and the helpers of the module's
 * suites (pfmk_kunit_aux.h).  pfmk_kunit_aux_life.c holds pfmk_aux_life.
 *
 * On a kernel the harness says lacks pfmk's kernel-owned AUX patch
 * every case of both suites but aux_unsupported is skipped, with the
 * reason; each case first checks that pfmk_aux_supported() agrees with
 * the harness.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <pfmk/aux.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit_aux.h"

#define AUXT_NO_PATCH \
	"the harness says the kernel lacks pfmk's kernel-owned AUX patch (patches/linux-<series>/): pfmk AUX returns -EOPNOTSUPP"

int auxt_init(struct kunit *test)
{
	struct auxt *t;
	int ret;

	ret = pfmkt_init_priv(test, sizeof(*t));
	if (ret)
		return ret;
	t = test->priv;
	t->out.cap = 1 << 20;
	t->out.buf = vzalloc(t->out.cap);
	if (!t->out.buf)
		return -ENOMEM;
	t->cpu = cpumask_first(cpu_online_mask);
	return 0;
}

void auxt_exit(struct kunit *test)
{
	struct auxt *t = test->priv;

	if (!t)
		return;
	pfmkt_exit(test);
	vfree(t->out.buf);
}

void auxt_need_patch(struct kunit *test)
{
	if (!pfmkt_aux_patch(test))
		kunit_skip(test, AUXT_NO_PATCH);
}

/* Create a context on the "pfmk_aux_test" description, optionally sampling. */
void auxt_create(struct kunit *test, void *smpl_arg, size_t smpl_size,
		 void **smpl_buf)
{
	struct auxt *t = test->priv;
	struct pfarg_ctx req;

	pfmkt_ctx_req(&req, PFMK_TEST_AUX_NAME, 0, !!smpl_arg);
	KUNIT_ASSERT_EQ(test, pfmkt_try_create_arg(test, &req, smpl_arg,
						   smpl_size, &t->desc,
						   smpl_buf), 0);
}

/*
 * Create a context on "pfmk_aux_test" whose PMC 0 is @pmc, give PMD 0 an
 * AUX buffer of @size bytes with @flags, load it on t->cpu and start it.
 */
void auxt_start(struct kunit *test, u64 pmc, size_t size,
		unsigned int flags)
{
	struct auxt *t = test->priv;

	auxt_create(test, NULL, 0, NULL);
	pfmkt_write_pmc(test, t->desc, 0, pmc);
	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(t->desc, 0, size, flags), 0);
	pfmkt_load_start(test, t->desc, t->cpu);
}

/* Copy out; return the number of records copied. */
u64 auxt_copy(struct kunit *test, size_t max, struct pfmk_aux_info *info)
{
	struct auxt *t = test->priv;

	t->out.len = 0;
	KUNIT_ASSERT_EQ(test, pfmk_aux_copy(t->desc, max, pfmk_test_aux_sink,
					    &t->out, info), 0);
	KUNIT_ASSERT_EQ(test, (u64)t->out.len, info->to - info->from);
	KUNIT_ASSERT_EQ(test, info->from % AUXT_REC, 0ULL);
	KUNIT_ASSERT_EQ(test, t->out.len % AUXT_REC, 0UL);
	return t->out.len / AUXT_REC;
}

/* Check @n records of @buf are intact and numbered from @seq. */
void auxt_expect_recs(struct kunit *test, const void *buf, u64 n, u64 seq)
{
	const struct pfmk_test_aux_rec *r = buf;
	u64 i;

	for (i = 0; i < n; i++)
		if (!pfmk_test_aux_rec_ok(&r[i], seq + i)) {
			KUNIT_FAIL(test, "record %llu: seq %llu magic %#x, expected seq %llu",
				   i, r[i].seq, r[i].magic, seq + i);
			return;
		}
}

static void aux_unsupported(struct kunit *test)
{
	struct auxt *t = test->priv;

	if (pfmkt_aux_patch(test))
		kunit_skip(test, "the harness says the kernel has the kernel-owned AUX patch");
	auxt_create(test, NULL, 0, NULL);
	KUNIT_EXPECT_EQ(test, pfmk_aux_setup(t->desc, 0, PAGE_SIZE, 0),
			-EOPNOTSUPP);
}

/* Where a context of aux_args stands before the call it checks. */
enum auxt_at {
	AUXT_AT_NEW,		/* created, no AUX buffer */
	AUXT_AT_SET_UP,		/* PMD 0 has a buffer of a page, PMC 0 off */
	AUXT_AT_STARTED,	/* and PMC 0 on, loaded and started */
};

/* The call aux_args checks. */
enum auxt_op {
	AUXT_OP_SETUP,		/* pfmk_aux_setup() */
	AUXT_OP_COPY,		/* pfmk_aux_copy() of 64 bytes */
	AUXT_OP_LOAD,		/* pfmk_load_context() on t->cpu */
};

/**
 * struct auxt_arg - one AUX call and its errno
 * @name: the case.
 * @at: the context's state before the call.
 * @op: the call.
 * @null_desc: with a NULL descriptor.
 * @pmd: pfmk_aux_setup()'s PMD.
 * @size: pfmk_aux_setup()'s size.
 * @flags: pfmk_aux_setup()'s flags.
 * @null_fn: pfmk_aux_copy() without a callback.
 * @ret: the errno.
 */
struct auxt_arg {
	const char	*name;
	enum auxt_at	at;
	enum auxt_op	op;
	bool		null_desc;
	unsigned int	pmd;
	size_t		size;
	unsigned int	flags;
	bool		null_fn;
	int		ret;
};

static const struct auxt_arg auxt_args[] = {
	{ .name = "setup_null_desc", .null_desc = true, .size = PAGE_SIZE,
	  .ret = -EBADF },
	{ .name = "setup_pmd_out_of_range", .pmd = PFMK_TEST_AUX_NUM_PMCS,
	  .size = PAGE_SIZE, .ret = -EINVAL },
	{ .name = "setup_half_page", .size = PAGE_SIZE / 2, .ret = -EINVAL },
	{ .name = "setup_3_pages", .size = 3 * PAGE_SIZE, .ret = -EINVAL },
	{ .name = "setup_over_max", .size = 2 * PFMK_AUX_MAX_SIZE,
	  .ret = -EINVAL },
	{ .name = "setup_unknown_flag", .size = PAGE_SIZE, .flags = 0x80,
	  .ret = -EINVAL },
	{ .name = "copy_without_buffer", .op = AUXT_OP_COPY, .ret = -ENXIO },
	{ .name = "setup_one_page", .size = PAGE_SIZE, .ret = 0 },
	{ .name = "copy_null_fn", .at = AUXT_AT_SET_UP, .op = AUXT_OP_COPY,
	  .null_fn = true, .ret = -EINVAL },
	{ .name = "copy_unloaded", .at = AUXT_AT_SET_UP, .op = AUXT_OP_COPY,
	  .ret = -ENOTCONN },
	/* The PMD has no event (PMC 0 disabled): the load fails. */
	{ .name = "load_pmc_off", .at = AUXT_AT_SET_UP, .op = AUXT_OP_LOAD,
	  .ret = -EINVAL },
	{ .name = "setup_started", .at = AUXT_AT_STARTED, .size = PAGE_SIZE,
	  .ret = -EBUSY },
};

static void auxt_arg_desc(const struct auxt_arg *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(auxt_arg, auxt_args, auxt_arg_desc);

/* Bring the test's new context to @at. */
static void auxt_reach(struct kunit *test, enum auxt_at at)
{
	struct auxt *t = test->priv;

	auxt_create(test, NULL, 0, NULL);
	if (at == AUXT_AT_NEW)
		return;
	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(t->desc, 0, PAGE_SIZE, 0), 0);
	if (at == AUXT_AT_SET_UP)
		return;
	pfmkt_write_pmc(test, t->desc, 0, PFMK_TEST_AUX_PMC(1, 0));
	pfmkt_load_start(test, t->desc, t->cpu);
}

/* Each AUX call's arguments and states: the documented errno. */
static void aux_args(struct kunit *test)
{
	const struct auxt_arg *c = test->param_value;
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;
	void *desc;
	int ret;

	auxt_need_patch(test);
	auxt_reach(test, c->at);
	desc = c->null_desc ? NULL : t->desc;
	switch (c->op) {
	case AUXT_OP_SETUP:
		ret = pfmk_aux_setup(desc, c->pmd, c->size, c->flags);
		break;
	case AUXT_OP_COPY:
		ret = pfmk_aux_copy(desc, 64,
				    c->null_fn ? NULL : pfmk_test_aux_sink,
				    &t->out, &info);
		break;
	default:
		ret = pfmk_load_context(desc, &(struct pfarg_load)
					{ .load_pid = t->cpu });
		break;
	}
	KUNIT_EXPECT_EQ(test, ret, c->ret);
}

/*
 * A context of the generic description, PMD 0 counting cpu-clock with an
 * AUX buffer, loaded.  Return: what the load returned.
 */
static int auxt_not_aux_load(struct kunit *test)
{
	struct auxt *t = test->priv;

	auxt_need_patch(test);
	t->desc = pfmkt_create(test, "");
	pfmkt_write_pmc(test, t->desc, 0,
			PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK));
	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(t->desc, 0, PAGE_SIZE, 0), 0);
	return pfmk_load_context(t->desc, &(struct pfarg_load)
				 { .load_pid = t->cpu });
}

/* A PMD of a PMU without AUX support is refused at load. */
static void aux_not_aux_pmu(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, auxt_not_aux_load(test), -EINVAL);
}

/* The refused load leaves the context unloaded. */
static void aux_not_aux_pmu_unloaded(struct kunit *test)
{
	struct auxt *t = test->priv;

	KUNIT_ASSERT_EQ(test, auxt_not_aux_load(test), -EINVAL);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(t->desc), PFM_CTX_UNLOADED);
}

/**
 * struct auxt_stream_run - what the copies of auxt_full_stream_run() saw
 * @seq: the records copied in all.
 * @short_at: the first copy that did not return every new record;
 *	U64_MAX if none.
 * @from_at: the first copy that did not start where the last one ended;
 *	U64_MAX if none.
 * @flags_at: the first copy with flags or records truncated; U64_MAX if
 *	none.
 * @bad: the stream position of the first record copied damaged or out of
 *	order; U64_MAX if none.
 */
struct auxt_stream_run {
	u64	seq;
	u64	short_at;
	u64	from_at;
	u64	flags_at;
	u64	bad;
};

/* Note @i in @what, unless an earlier one is there. */
static void auxt_stream_note(u64 *what, u64 i)
{
	if (*what == U64_MAX)
		*what = i;
}

/*
 * Set-up: stop-when-full, a ring of 4 pages, 40 copies of 37, 38, ...
 * records each as they are written: the stream wraps the ring 4 times.
 */
static void auxt_full_stream_run(struct kunit *test,
				 struct auxt_stream_run *run)
{
	struct auxt *t = test->priv;
	const struct pfmk_test_aux_rec *r = (const void *)t->out.buf;
	struct pfmk_aux_info info;
	u64 n, i, j;

	*run = (struct auxt_stream_run){ .short_at = U64_MAX,
					 .from_at = U64_MAX,
					 .flags_at = U64_MAX, .bad = U64_MAX };
	auxt_need_patch(test);
	auxt_start(test, PFMK_TEST_AUX_PMC(1, 0), 4 * PAGE_SIZE, 0);
	for (i = 0; i < 40; i++) {
		KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 37 + i), 0);
		n = auxt_copy(test, SIZE_MAX, &info);
		if (n != 37 + i)
			auxt_stream_note(&run->short_at, i);
		if (info.from != run->seq * AUXT_REC)
			auxt_stream_note(&run->from_at, i);
		if (info.flags || info.truncated)
			auxt_stream_note(&run->flags_at, i);
		for (j = 0; j < n; j++)
			if (!pfmk_test_aux_rec_ok(&r[j], run->seq + j))
				auxt_stream_note(&run->bad, run->seq + j);
		run->seq += n;
	}
	KUNIT_ASSERT_GT(test, run->seq * AUXT_REC, 4 * 4 * PAGE_SIZE);
}

/* Stop-when-full: each copy returns every record written since the last. */
static void aux_full_stream_all_new(struct kunit *test)
{
	struct auxt_stream_run run;

	auxt_full_stream_run(test, &run);
	KUNIT_EXPECT_EQ_MSG(test, run.short_at, U64_MAX,
			    "copy %llu returned fewer or more records",
			    run.short_at);
}

/* Stop-when-full: every record copied intact, in stream order. */
static void aux_full_stream_in_order(struct kunit *test)
{
	struct auxt_stream_run run;

	auxt_full_stream_run(test, &run);
	KUNIT_EXPECT_EQ_MSG(test, run.bad, U64_MAX,
			    "record %llu damaged or out of order", run.bad);
}

/* Stop-when-full: each copy starts where the last one ended. */
static void aux_full_stream_continues(struct kunit *test)
{
	struct auxt_stream_run run;

	auxt_full_stream_run(test, &run);
	KUNIT_EXPECT_EQ_MSG(test, run.from_at, U64_MAX,
			    "copy %llu did not start at the last one's end",
			    run.from_at);
}

/* Stop-when-full, copied as it comes: no copy flagged or truncated. */
static void aux_full_stream_no_flags(struct kunit *test)
{
	struct auxt_stream_run run;

	auxt_full_stream_run(test, &run);
	KUNIT_EXPECT_EQ_MSG(test, run.flags_at, U64_MAX,
			    "copy %llu flagged or truncated", run.flags_at);
}

/*
 * auxt_full_stream_run()'s stream, each copy taking every new record, as
 * set-up: the ring of 4 pages wrapped 4 times, then 10 records more
 * written.  Return: the records copied before those 10.
 */
static u64 auxt_full_wrapped(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct auxt_stream_run run;

	auxt_full_stream_run(test, &run);
	KUNIT_ASSERT_EQ(test, run.short_at, U64_MAX);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 10), 0);
	return run.seq;
}

/* Stop-when-full, the ring wrapped: a bounded copy takes the oldest first. */
static void aux_full_bounded_copy(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;
	u64 seq = auxt_full_wrapped(test);

	KUNIT_EXPECT_EQ(test, auxt_copy(test, 4 * AUXT_REC, &info), 4ULL);
	auxt_expect_recs(test, t->out.buf, 4, seq);
}

/* Stop-when-full, the ring wrapped: after a bounded copy, one takes the rest. */
static void aux_full_bounded_copy_rest(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;
	u64 seq = auxt_full_wrapped(test);

	KUNIT_ASSERT_EQ(test, auxt_copy(test, 4 * AUXT_REC, &info), 4ULL);
	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info), 6ULL);
	auxt_expect_recs(test, t->out.buf, 6, seq + 4);
}

/**
 * struct auxt_timer_run - what the copies of auxt_full_timer_run() saw
 * @seq: the records copied in all.
 * @bad: the stream position of the first record copied damaged or out of
 *	order; U64_MAX if none.
 * @flags: the flags of every copy, or'ed.
 * @truncated: the last copy's truncated count.
 */
struct auxt_timer_run {
	u64	seq;
	u64	bad;
	u32	flags;
	u64	truncated;
};

/* One copy of auxt_full_timer_run(): its records checked and counted. */
static void auxt_timer_copy(struct kunit *test, struct auxt_timer_run *run)
{
	struct auxt *t = test->priv;
	const struct pfmk_test_aux_rec *r = (const void *)t->out.buf;
	struct pfmk_aux_info info;
	u64 i, n = auxt_copy(test, SIZE_MAX, &info);

	for (i = 0; i < n && run->bad == U64_MAX; i++)
		if (!pfmk_test_aux_rec_ok(&r[i], run->seq + i))
			run->bad = run->seq + i;
	run->seq += n;
	run->flags |= info.flags;
	run->truncated = info.truncated;
}

/*
 * Set-up: a stop-when-full context of 16 pages whose timer-driven PMU
 * writes 2 records every 200 us, copied 30 times as it runs, every 10 ms,
 * then stopped and drained.
 */
static void auxt_full_timer_run(struct kunit *test, struct auxt_timer_run *run)
{
	int i;

	*run = (struct auxt_timer_run){ .bad = U64_MAX };
	auxt_need_patch(test);
	auxt_start(test, PFMK_TEST_AUX_PMC(2, 200), 16 * PAGE_SIZE, 0);
	for (i = 0; i < 30; i++) {
		usleep_range(10000, 11000);
		auxt_timer_copy(test, run);
	}
	KUNIT_ASSERT_EQ(test, pfmk_stop(((struct auxt *)test->priv)->desc), 0);
	auxt_timer_copy(test, run);
}

/* Stop-when-full, timer-driven: every record copied intact, in order. */
static void aux_full_timer_copies_in_order(struct kunit *test)
{
	struct auxt_timer_run run;

	auxt_full_timer_run(test, &run);
	KUNIT_EXPECT_EQ_MSG(test, run.bad, U64_MAX,
			    "record %llu damaged or out of order", run.bad);
}

/* Stop-when-full, timer-driven: no copy flagged, nothing truncated. */
static void aux_full_timer_not_truncated(struct kunit *test)
{
	struct auxt_timer_run run;

	auxt_full_timer_run(test, &run);
	KUNIT_EXPECT_EQ(test, run.flags, 0U);
	KUNIT_EXPECT_EQ(test, run.truncated, 0ULL);
}

/*
 * Stop-when-full, timer-driven: records arrived, and every record the PMU
 * produced (PMD 0 counts them) did.
 */
static void aux_full_timer_all_arrived(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfarg_pmd pmd = { .reg_num = 0 };
	struct auxt_timer_run run;

	auxt_full_timer_run(test, &run);
	KUNIT_EXPECT_GT(test, run.seq, 0ULL);
	KUNIT_ASSERT_EQ(test, pfmk_read_pmds(t->desc, &pmd, 1), 0);
	KUNIT_EXPECT_EQ(test, pmd.reg_value, run.seq);
}

/* Records of AUXT_REC bytes in a page. */
#define AUXT_PER_PAGE	((u64)(PAGE_SIZE / AUXT_REC))

/*
 * A stop-when-full context of one page whose PMU wrote AUXT_PER_PAGE - 8
 * records, then 100 more: perf leaves one byte of a stop-when-full
 * buffer free (CIRC_SPACE), so 7 records fit and 93 are dropped, in one
 * truncated transaction.
 */
static void auxt_full_overrun(struct kunit *test)
{
	struct auxt *t = test->priv;

	auxt_need_patch(test);
	auxt_start(test, PFMK_TEST_AUX_PMC(1, 0), PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, AUXT_PER_PAGE - 8),
			0);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 100), 0);
	msleep(20);	/* perf's pending disable runs */
}

/* Stop-when-full: a full buffer truncates exactly once. */
static void aux_full_truncated(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;

	auxt_full_overrun(test);
	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info),
			AUXT_PER_PAGE - 1);
	auxt_expect_recs(test, t->out.buf, AUXT_PER_PAGE - 1, 0);
	KUNIT_EXPECT_EQ(test, info.flags, (u32)PFMK_AUX_TRUNCATED);
	KUNIT_EXPECT_EQ(test, info.truncated, 1ULL);
}

/*
 * auxt_full_overrun(), then the copy that empties the truncated buffer,
 * which resumes the PMU, and 10 records more written.
 */
static void auxt_full_resumed(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;

	auxt_full_overrun(test);
	KUNIT_ASSERT_EQ(test, auxt_copy(test, SIZE_MAX, &info),
			AUXT_PER_PAGE - 1);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 10), 0);
}

/*
 * The copy that empties the truncated buffer resumes the PMU: the next
 * records arrive after a gap of the 93 dropped.
 */
static void aux_full_resumes(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;

	auxt_full_resumed(test);
	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info), 10ULL);
	auxt_expect_recs(test, t->out.buf, 10, AUXT_PER_PAGE - 8 + 100);
	KUNIT_EXPECT_EQ(test, info.flags, 0U);
	KUNIT_EXPECT_EQ(test, info.truncated, 1ULL);
}

/* Resumed and copied, the PMD counted every record, the dropped too. */
static void aux_full_resumes_counted(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfarg_pmd pmd = { .reg_num = 0 };
	struct pfmk_aux_info info;

	auxt_full_resumed(test);
	KUNIT_ASSERT_EQ(test, auxt_copy(test, SIZE_MAX, &info), 10ULL);
	KUNIT_ASSERT_EQ(test, pfmk_read_pmds(t->desc, &pmd, 1), 0);
	KUNIT_EXPECT_EQ(test, pmd.reg_value, AUXT_PER_PAGE - 8 + 110);
}

/* Records a snapshot buffer of 2 pages holds. */
#define AUXT_SNAP_RECS	(2 * PAGE_SIZE / AUXT_REC)

/*
 * A snapshot context of 2 pages, its PMU having written @steps of the
 * writes of 100 records, the rest of the buffer, 1 and 1000 records:
 * not wrapped, exactly full, wrapped by one record, wrapped by 1001.
 * Return: the records written.
 */
static u64 auxt_snap_written(struct kunit *test, unsigned int steps)
{
	const u64 writes[] = { 100, AUXT_SNAP_RECS - 100, 1, 1000 };
	struct auxt *t = test->priv;
	unsigned int i;
	u64 done = 0;

	auxt_need_patch(test);
	auxt_start(test, PFMK_TEST_AUX_PMC(1, 0), 2 * PAGE_SIZE,
		   PFMK_AUX_SNAPSHOT);
	for (i = 0; i < steps && i < ARRAY_SIZE(writes); i++) {
		KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, writes[i]),
				0);
		done += writes[i];
	}
	return done;
}

/**
 * struct auxt_snap - a copy of a snapshot buffer
 * @name: the row's name.
 * @steps: writes of auxt_snap_written().
 * @max: bytes the copy may take (SIZE_MAX: all).
 * @recs: records it copies.
 * @first: number of the first of them.
 * @flags: pfmk_aux_info.flags.
 */
struct auxt_snap {
	const char	*name;
	unsigned int	steps;
	size_t		max;
	u64		recs;
	u64		first;
	u32		flags;
};

static const struct auxt_snap auxt_snaps[] = {
	/* Every record, nothing lost, the head after them. */
	{ "not wrapped", 1, SIZE_MAX, 100, 0, 0 },
	/* The whole buffer, not wrapped. */
	{ "exactly full", 2, SIZE_MAX, AUXT_SNAP_RECS, 0, 0 },
	/* One record more than it holds: the first one is lost. */
	{ "wrapped by one", 3, SIZE_MAX, AUXT_SNAP_RECS, 1, PFMK_AUX_WRAPPED },
	/* Wrapped by many: the newest buffer's worth, never truncation. */
	{ "wrapped by 1001", 4, SIZE_MAX, AUXT_SNAP_RECS, 1001,
	  PFMK_AUX_WRAPPED },
	/* A copy of N bytes: the last N bytes, ending at the head. */
	{ "last 5 records", 4, 5 * AUXT_REC, 5, AUXT_SNAP_RECS + 1001 - 5,
	  PFMK_AUX_WRAPPED },
};

static void auxt_snap_desc(const struct auxt_snap *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(auxt_snap, auxt_snaps, auxt_snap_desc);

/*
 * Snapshot copies end at the head, the stream position of what the PMU
 * wrote; what it overwrote is lost, flagged WRAPPED, never truncated.
 */
static void aux_snapshot_copy(struct kunit *test)
{
	const struct auxt_snap *r = test->param_value;
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;
	u64 done = auxt_snap_written(test, r->steps);

	KUNIT_EXPECT_EQ(test, auxt_copy(test, r->max, &info), r->recs);
	auxt_expect_recs(test, t->out.buf, r->recs, r->first);
	KUNIT_EXPECT_EQ(test, info.flags, r->flags);
	KUNIT_EXPECT_EQ(test, info.head, done * AUXT_REC);
	KUNIT_EXPECT_EQ(test, info.to, info.head);
	KUNIT_EXPECT_EQ(test, info.lost, done > AUXT_SNAP_RECS ?
			(done - AUXT_SNAP_RECS) * AUXT_REC : 0ULL);
	KUNIT_EXPECT_EQ(test, info.truncated, 0ULL);
}

struct auxt_runs {
	struct auxt	*t;
	unsigned int	pieces;
};

static int auxt_count_sink(void *data, const void *src, size_t len)
{
	struct auxt_runs *r = data;

	r->pieces++;
	return pfmk_test_aux_sink(&r->t->out, src, len);
}

/*
 * A copy-out hands over runs of adjacent pages, not page by page: a full
 * 16-page snapshot arrives in exactly as many pieces as its pages form
 * runs (which the test PMU counts at setup_aux; it asks for high-order
 * allocations, as Intel PT does, so that is usually one), every byte
 * intact and in order.
 */
static void aux_copy_runs(struct kunit *test)
{
	struct auxt *t = test->priv;
	size_t size = 16 * PAGE_SIZE;
	u64 n = size / AUXT_REC;
	struct auxt_runs runs = { .t = t };
	struct pfmk_aux_info info;
	unsigned int layout;

	auxt_need_patch(test);
	auxt_start(test, PFMK_TEST_AUX_PMC(1, 0), size, PFMK_AUX_SNAPSHOT);
	layout = pfmk_test_aux_last_runs();
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, n), 0);

	t->out.len = 0;
	KUNIT_ASSERT_EQ(test, pfmk_aux_copy(t->desc, SIZE_MAX, auxt_count_sink,
					    &runs, &info), 0);
	KUNIT_EXPECT_EQ(test, (u64)t->out.len, (u64)size);
	auxt_expect_recs(test, t->out.buf, n, 0);
	kunit_info(test, "%zu KiB: %u runs of adjacent pages, %u pieces\n",
		   size >> 10, layout, runs.pieces);
	KUNIT_EXPECT_EQ(test, runs.pieces, layout);
}

/*
 * A snapshot PMU that reports its head as Intel PT and BTS do in snapshot
 * mode: an offset inside the buffer, with the whole buffer as the size of
 * every transaction.  Set-up: such a context of 2 pages, 100 records
 * written.
 */
static void auxt_offset_start(struct kunit *test)
{
	struct auxt *t = test->priv;

	auxt_need_patch(test);
	auxt_start(test, PFMK_TEST_AUX_PMC(1, 0) | PFMK_TEST_AUX_OFFSET,
		   2 * PAGE_SIZE, PFMK_AUX_SNAPSHOT);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 100), 0);
}

/*
 * auxt_offset_start(), its 100 records copied, then three buffers' worth
 * in all, in transactions shorter than the buffer.  Return: the records
 * written.
 */
static u64 auxt_offset_wrapped(struct kunit *test)
{
	const u64 per_buf = AUXT_SNAP_RECS;
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;
	u64 done = 100, n;

	auxt_offset_start(test);
	KUNIT_ASSERT_EQ(test, auxt_copy(test, SIZE_MAX, &info), done);
	while (done < 3 * per_buf) {
		n = min(3 * per_buf - done, per_buf / 2 + 7);
		KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, n), 0);
		done += n;
	}
	return done;
}

/* Not wrapped, an offset head: every record, the head after them. */
static void aux_snapshot_offset_head(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;

	auxt_offset_start(test);
	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info), 100ULL);
	auxt_expect_recs(test, t->out.buf, 100, 0);
	KUNIT_EXPECT_EQ(test, info.flags, 0U);
	KUNIT_EXPECT_EQ(test, info.head, 100ULL * AUXT_REC);
}

/*
 * Wrapped, an offset head: pfmk still reports the stream position,
 * WRAPPED, the bytes overwritten, and the last buffer in stream order.
 */
static void aux_snapshot_offset_wrapped(struct kunit *test)
{
	const u64 per_buf = AUXT_SNAP_RECS;
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;
	u64 done = auxt_offset_wrapped(test);

	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info), per_buf);
	auxt_expect_recs(test, t->out.buf, per_buf, done - per_buf);
	KUNIT_EXPECT_EQ(test, info.flags, (u32)PFMK_AUX_WRAPPED);
	KUNIT_EXPECT_EQ(test, info.head, done * AUXT_REC);
	KUNIT_EXPECT_EQ(test, info.lost, (done - per_buf) * AUXT_REC);
	KUNIT_EXPECT_EQ(test, info.size, (u64)2 * PAGE_SIZE);
}

/* A copy in the middle of a lap: the buffer still ends at the head. */
static void aux_snapshot_offset_mid_lap(struct kunit *test)
{
	const u64 per_buf = AUXT_SNAP_RECS;
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;
	u64 done = auxt_offset_wrapped(test);

	KUNIT_ASSERT_EQ(test, auxt_copy(test, SIZE_MAX, &info), per_buf);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 33), 0);
	done += 33;
	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info), per_buf);
	auxt_expect_recs(test, t->out.buf, per_buf, done - per_buf);
	KUNIT_EXPECT_EQ(test, info.lost, (done - per_buf) * AUXT_REC);
}

#define AUXT_SNIP	256ULL

/*
 * A context on "pfmk_aux_test" sampling with the default format, 64 KiB,
 * AUXT_SNIP-byte snippets.
 *
 * Return: its buffer.
 */
static void *auxt_snippets_create(struct kunit *test)
{
	struct pfm_dfl_smpl_arg arg = { .buf_size = 64 << 10,
					.reserved1 = AUXT_SNIP };
	void *buf = NULL;

	auxt_need_patch(test);
	auxt_create(test, &arg, sizeof(arg), &buf);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

/* The header sizes entries for their snippets. */
static void aux_snippets_hdr(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr = auxt_snippets_create(test);

	KUNIT_EXPECT_EQ(test, hdr->hdr_reserved[0],
			sizeof(struct pfmk_dfl_aux_snippet) + AUXT_SNIP);
	KUNIT_EXPECT_EQ(test, hdr->hdr_min_buf_space,
			sizeof(struct pfm_dfl_smpl_entry) +
			PFMK_TEST_AUX_NUM_PMCS * sizeof(u64) +
			sizeof(struct pfmk_dfl_aux_snippet) + AUXT_SNIP);
}

/* The period of auxt_snippets_run()'s PMD 0, and the samples it takes. */
#define AUXT_SNIP_PERIOD	50ULL
#define AUXT_SNIP_ENTRIES	4ULL

/*
 * Set-up: auxt_snippets_create(), PMD 0 overflowing every
 * AUXT_SNIP_PERIOD records with a snapshot AUX buffer of a page, 202
 * records written in 23 uneven batches (overflows after 50, 100, 150 and
 * 200), stopped: AUXT_SNIP_ENTRIES samples.  Return: the buffer.
 */
static void *auxt_snippets_run(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfarg_pmd pmd = {
		.reg_num = 0,
		.reg_value = -AUXT_SNIP_PERIOD,
		.reg_short_reset = -AUXT_SNIP_PERIOD,
		.reg_long_reset = -AUXT_SNIP_PERIOD,
	};
	void *buf = auxt_snippets_create(test);
	u64 i;

	pfmkt_write_pmc(test, t->desc, 0, PFMK_TEST_AUX_PMC(1, 0));
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(t->desc, &pmd, 1), 0);
	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(t->desc, 0, PAGE_SIZE,
					     PFMK_AUX_SNAPSHOT), 0);
	pfmkt_load_start(test, t->desc, t->cpu);
	for (i = 0; i < 23; i++)
		KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 3 + i % 15),
				0);
	KUNIT_ASSERT_EQ(test, pfmk_stop(t->desc), 0);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), AUXT_SNIP_ENTRIES);
	return buf;
}

/*
 * Entry @i of auxt_snippets_run()'s buffer @buf: each an entry without
 * PMD values, its snippet header and AUXT_SNIP bytes.
 */
static struct pfm_dfl_smpl_entry *auxt_snippet_entry(void *buf, u64 i)
{
	return buf + sizeof(struct pfm_dfl_smpl_hdr) +
	       i * (sizeof(struct pfm_dfl_smpl_entry) +
		    sizeof(struct pfmk_dfl_aux_snippet) + AUXT_SNIP);
}

/* The snippet of entry @i of auxt_snippets_run()'s buffer @buf. */
static struct pfmk_dfl_aux_snippet *auxt_snippet(void *buf, u64 i)
{
	return (void *)(auxt_snippet_entry(buf, i) + 1);
}

/* Each snippet ends at the stream position of its overflow, AUXT_SNIP long. */
static void aux_snippets_head_len(struct kunit *test)
{
	void *buf = auxt_snippets_run(test);
	u64 i;

	for (i = 0; i < AUXT_SNIP_ENTRIES; i++) {
		KUNIT_EXPECT_EQ(test, auxt_snippet(buf, i)->head,
				(i + 1) * AUXT_SNIP_PERIOD * AUXT_REC);
		KUNIT_EXPECT_EQ(test, (u64)auxt_snippet(buf, i)->len,
				AUXT_SNIP);
	}
}

/* A snippet is flagged WRAPPED once the stream passed the buffer's size. */
static void aux_snippets_wrapped(struct kunit *test)
{
	void *buf = auxt_snippets_run(test);
	u64 i, end;

	for (i = 0; i < AUXT_SNIP_ENTRIES; i++) {
		end = (i + 1) * AUXT_SNIP_PERIOD * AUXT_REC;
		KUNIT_EXPECT_EQ(test, auxt_snippet(buf, i)->flags,
				end > PAGE_SIZE ? (u32)PFMK_AUX_WRAPPED : 0U);
	}
}

/* A snippet holds the last records before its overflow, intact. */
static void aux_snippets_records(struct kunit *test)
{
	const u64 n = AUXT_SNIP / AUXT_REC;
	void *buf = auxt_snippets_run(test);
	u64 i;

	for (i = 0; i < AUXT_SNIP_ENTRIES; i++)
		auxt_expect_recs(test, auxt_snippet(buf, i) + 1, n,
				 (i + 1) * AUXT_SNIP_PERIOD - n);
}

/*
 * The entries are PMD 0's, each followed by its snippet, and the
 * header's current offset ends after the last.
 */
static void aux_snippets_layout(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr = auxt_snippets_run(test);
	void *end;
	u64 i;

	for (i = 0; i < AUXT_SNIP_ENTRIES; i++)
		KUNIT_EXPECT_EQ(test, auxt_snippet_entry(hdr, i)->ovfl_pmd, 0);
	end = auxt_snippet_entry(hdr, AUXT_SNIP_ENTRIES);
	KUNIT_EXPECT_EQ(test, (u64)(end - (void *)hdr), hdr->hdr_cur_offs);
}

static struct kunit_case pfmk_aux_cases[] = {
	KUNIT_CASE(aux_unsupported),
	KUNIT_CASE_PARAM(aux_args, auxt_arg_gen_params),
	KUNIT_CASE(aux_not_aux_pmu),
	KUNIT_CASE(aux_not_aux_pmu_unloaded),
	KUNIT_CASE(aux_full_stream_all_new),
	KUNIT_CASE(aux_full_stream_in_order),
	KUNIT_CASE(aux_full_stream_continues),
	KUNIT_CASE(aux_full_stream_no_flags),
	KUNIT_CASE(aux_full_bounded_copy),
	KUNIT_CASE(aux_full_bounded_copy_rest),
	KUNIT_CASE(aux_full_timer_copies_in_order),
	KUNIT_CASE(aux_full_timer_not_truncated),
	KUNIT_CASE(aux_full_timer_all_arrived),
	KUNIT_CASE(aux_full_truncated),
	KUNIT_CASE(aux_full_resumes),
	KUNIT_CASE(aux_full_resumes_counted),
	KUNIT_CASE_PARAM(aux_snapshot_copy, auxt_snap_gen_params),
	KUNIT_CASE(aux_snapshot_offset_head),
	KUNIT_CASE(aux_snapshot_offset_wrapped),
	KUNIT_CASE(aux_snapshot_offset_mid_lap),
	KUNIT_CASE(aux_copy_runs),
	KUNIT_CASE(aux_snippets_hdr),
	KUNIT_CASE(aux_snippets_head_len),
	KUNIT_CASE(aux_snippets_wrapped),
	KUNIT_CASE(aux_snippets_records),
	KUNIT_CASE(aux_snippets_layout),
	{}
};

static struct kunit_suite pfmk_aux_suite = {
	.name = "pfmk_aux",
	.init = auxt_init,
	.exit = auxt_exit,
	.test_cases = pfmk_aux_cases,
};

kunit_test_suites(&pfmk_aux_suite);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk AUX KUnit suites");
MODULE_LICENSE("GPL");
