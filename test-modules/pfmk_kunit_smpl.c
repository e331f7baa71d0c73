// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suites: sampling, overflow messages and restart
 * (Documentation/sampling.rst).
 *
 * pfmk_smpl_args: creation with the default sampling format, its header
 * and its argument checks; pfmk_get_stats() arguments.
 * pfmk_smpl_exact: exact overflows, samples, resets and random periods
 * on the deterministic test PMU.
 * pfmk_smpl_notify: masking, messages, restart, a full buffer, blocked
 * readers, close and unload while sampling.
 * pfmk_smpl_cpuclock: 10 kHz cpu-clock sampling on every online CPU; the
 * task and ip of an overflow that interrupts a known kernel thread.
 *
 * The test PMU advances all started events of a CPU together, in chunks
 * that end where the next sampling event's period runs out: at an
 * overflow, every other PMD has counted the same ticks.  It calls the
 * handler once per tick that ends a period and carries the excess modulo
 * the period; pfmk's short reset carries it too (the PMD keeps what it
 * counted past zero, modulo the new period, and whole periods in it are
 * ovfl_missed), so overflows stay on the grid of the period.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

#define SMPL_HDR		sizeof(struct pfm_dfl_smpl_hdr)
#define SMPL_ENTRY		sizeof(struct pfm_dfl_smpl_entry)
#define SMPL_TEST_MIN		(SMPL_ENTRY + 8 * PFMK_TEST_NUM_PMCS)
#define SMPL_GEN_MIN		(SMPL_ENTRY + 8 * PFMK_GENERIC_NUM_PMCS)
#define SMPL_BUF_MAX		(64ULL << 20)
#define SMPL_TIMEOUT		(10 * HZ)
#define SMPL_STARTED		(PFM_CTX_LOADED | PFMK_STATE_STARTED)
#define SMPL_MASKED		(PFM_CTX_MASKED | PFMK_STATE_STARTED)

/* Park-Miller modulus, 2^31 - 1. */
#define SMPL_PM_MOD		0x7fffffffU

/* pfmk_create_context() with the test's completion; tracked on success. */
static int smpl_try_create(struct kunit *test, struct pfarg_ctx *req,
			   void *arg, size_t size, void **desc, void **buf)
{
	return pfmkt_try_create_arg(test, req, arg, size, desc, buf);
}

/*
 * Create a context with the default format and a buffer of @buf_size
 * bytes (or none if @buf_size is 0), or abort the test.
 */
static void *smpl_create(struct kunit *test, const char *pmu, u32 flags,
			 u64 buf_size, void **buf)
{
	struct pfm_dfl_smpl_arg arg;
	struct pfarg_ctx req;
	void *desc = NULL;

	*buf = NULL;
	pfmkt_ctx_req(&req, pmu, flags, buf_size);
	memset(&arg, 0, sizeof(arg));
	arg.buf_size = buf_size;
	KUNIT_ASSERT_EQ(test, smpl_try_create(test, &req,
					      buf_size ? &arg : NULL,
					      buf_size ? sizeof(arg) : 0,
					      &desc, buf), 0);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	if (buf_size) {
		KUNIT_ASSERT_NOT_NULL(test, *buf);
		KUNIT_ASSERT_EQ(test, req.ctx_smpl_buf_size, buf_size);
	}
	return desc;
}

/**
 * struct smpl_pmd - parameters of one PMD write
 * @value: reg_value.
 * @short_reset: reg_short_reset.
 * @long_reset: reg_long_reset.
 * @flags: reg_flags.
 * @smpl_pmds: reg_smpl_pmds[0].
 * @reset_pmds: reg_reset_pmds[0].
 * @mask: reg_random_mask.
 * @seed: reg_random_seed.
 * @eventid: reg_smpl_eventid.
 */
struct smpl_pmd {
	u64	value;
	u64	short_reset;
	u64	long_reset;
	u32	flags;
	u64	smpl_pmds;
	u64	reset_pmds;
	u64	mask;
	u32	seed;
	u64	eventid;
};

static void smpl_write_pmd(struct kunit *test, void *desc, u16 reg,
			   const struct smpl_pmd *p)
{
	struct pfarg_pmd pmd;

	memset(&pmd, 0, sizeof(pmd));
	pmd.reg_num = reg;
	pmd.reg_flags = p->flags;
	pmd.reg_value = p->value;
	pmd.reg_short_reset = p->short_reset;
	pmd.reg_long_reset = p->long_reset;
	pmd.reg_smpl_pmds[0] = p->smpl_pmds;
	pmd.reg_reset_pmds[0] = p->reset_pmds;
	pmd.reg_random_mask = p->mask;
	pmd.reg_random_seed = p->seed;
	pmd.reg_smpl_eventid = p->eventid;
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(desc, &pmd, 1), 0);
}

/* A sampling PMD: every @period events, short and long reset alike. */
static void smpl_write_sampler(struct kunit *test, void *desc, u16 reg,
			       u64 period, u32 flags, u64 smpl_pmds)
{
	struct smpl_pmd p = {
		.value = -period,
		.short_reset = -period,
		.long_reset = -period,
		.flags = flags,
		.smpl_pmds = smpl_pmds,
	};

	smpl_write_pmd(test, desc, reg, &p);
}

static void smpl_load_start(struct kunit *test, void *desc, int cpu)
{
	pfmkt_load(test, desc, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
}

static void smpl_stats(struct kunit *test, void *desc,
		       struct pfmk_ctx_stats *st)
{
	memset(st, 0x5a, sizeof(*st));
	KUNIT_ASSERT_EQ(test, pfmk_get_stats(desc, st), 0);
}

static u64 smpl_hdr_count(void *buf)
{
	struct pfm_dfl_smpl_hdr *hdr = buf;

	/* Pairs with the handler's release: the entries are complete. */
	return smp_load_acquire(&hdr->hdr_count);
}

/* Entry @i of a buffer whose entries carry @nvals values each. */
static const struct pfm_dfl_smpl_entry *smpl_entry(void *buf, unsigned int i,
						   unsigned int nvals)
{
	return buf + SMPL_HDR + i * (SMPL_ENTRY + nvals * sizeof(u64));
}

static const u64 *smpl_vals(const struct pfm_dfl_smpl_entry *ent)
{
	return (const u64 *)(ent + 1);
}

static void smpl_expect_no_msg(struct kunit *test, void *desc)
{
	union pfm_msg msg;

	KUNIT_EXPECT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)-EAGAIN);
}

/* pfmk_smpl_args */

static void smpl_expect_hdr(struct kunit *test, void *buf, u64 size,
			    u64 min_space, u32 flags)
{
	struct pfm_dfl_smpl_hdr *hdr = buf;

	KUNIT_EXPECT_EQ(test, hdr->hdr_version, PFM_DFL_SMPL_VERSION);
	KUNIT_EXPECT_EQ(test, hdr->hdr_buf_size, size);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, (u64)SMPL_HDR);
	/* Pairs with the format's release store of hdr_count. */
	KUNIT_EXPECT_EQ(test, smp_load_acquire(&hdr->hdr_count), 0ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 0ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_min_buf_space, min_space);
	KUNIT_EXPECT_EQ(test, hdr->hdr_buf_flags, flags);
}

/* The layout of <pfmk/smpl_dfl.h> is perfmon2's. */
static void smpl_args_layout(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, SMPL_HDR, (size_t)128);
	KUNIT_EXPECT_EQ(test, SMPL_ENTRY, (size_t)40);
	KUNIT_EXPECT_EQ(test, sizeof(struct pfm_dfl_smpl_arg), (size_t)64);
	KUNIT_EXPECT_EQ(test, PFM_DFL_SMPL_VERSION, 0x10000U);
}

/* Successful creations and the header they initialize. */
static void smpl_args_create(struct kunit *test)
{
	static const struct {
		const char	*pmu;
		u64		size;
		u64		min;
	} cases[] = {
		{ PFMK_TEST_PMU_NAME, 4096, SMPL_TEST_MIN },
		{ PFMK_TEST_PMU_NAME, SMPL_HDR + SMPL_TEST_MIN, SMPL_TEST_MIN },
		{ PFMK_TEST_PMU_NAME, 1000003, SMPL_TEST_MIN },
		{ PFMK_TEST_PMU_NAME, SMPL_BUF_MAX, SMPL_TEST_MIN },
		{ "", 8192, SMPL_GEN_MIN },
		{ PFMK_GENERIC_NAME, SMPL_HDR + SMPL_GEN_MIN, SMPL_GEN_MIN },
	};
	struct pfm_dfl_smpl_arg arg;
	struct pfarg_ctx req;
	unsigned int i;
	void *desc, *buf;

	KUNIT_EXPECT_EQ(test, SMPL_TEST_MIN, (size_t)(40 + 8 * 8));
	KUNIT_EXPECT_EQ(test, SMPL_GEN_MIN, (size_t)(40 + 8 * 64));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		pfmkt_ctx_req(&req, cases[i].pmu, 0, true);
		req.ctx_fd = 77;
		req.ctx_smpl_buf_size = 99;
		memset(&arg, 0, sizeof(arg));
		arg.buf_size = cases[i].size;
		arg.buf_flags = 0xa5000000 | i;
		desc = NULL;
		buf = NULL;
		KUNIT_ASSERT_EQ_MSG(test, smpl_try_create(test, &req, &arg,
							  sizeof(arg), &desc,
							  &buf), 0,
				    "%s, %llu bytes", cases[i].pmu,
				    cases[i].size);
		KUNIT_EXPECT_NOT_NULL(test, buf);
		KUNIT_EXPECT_EQ(test, req.ctx_fd, -1);
		KUNIT_EXPECT_EQ(test, req.ctx_smpl_buf_size, cases[i].size);
		if (buf)
			smpl_expect_hdr(test, buf, cases[i].size, cases[i].min,
					0xa5000000 | i);
		KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
		pfmkt_close(test, desc);
	}

	/* The buffer is optional output. */
	pfmkt_ctx_req(&req, PFMK_TEST_PMU_NAME, 0, true);
	memset(&arg, 0, sizeof(arg));
	arg.buf_size = 4096;
	KUNIT_ASSERT_EQ(test, smpl_try_create(test, &req, &arg, sizeof(arg),
					      &desc, NULL), 0);
	KUNIT_EXPECT_EQ(test, req.ctx_smpl_buf_size, 4096ULL);
	pfmkt_close(test, desc);

	/* Without a format: no buffer. */
	pfmkt_ctx_req(&req, PFMK_TEST_PMU_NAME, 0, false);
	req.ctx_smpl_buf_size = 99;
	buf = &req;
	KUNIT_ASSERT_EQ(test, smpl_try_create(test, &req, NULL, 0, &desc, &buf),
			0);
	KUNIT_EXPECT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, req.ctx_smpl_buf_size, 0ULL);
	pfmkt_close(test, desc);
}

static void smpl_expect_create(struct kunit *test, const char *pmu, bool dfl,
			       const u8 *uuid, void *arg, size_t size, int err,
			       const char *what)
{
	struct pfarg_ctx req;
	void *desc = NULL, *buf = NULL;
	int ret;

	pfmkt_ctx_req(&req, pmu, 0, dfl);
	if (uuid)
		memcpy(req.ctx_smpl_buf_id, uuid, sizeof(pfm_uuid_t));
	ret = smpl_try_create(test, &req, arg, size, &desc, &buf);
	KUNIT_EXPECT_EQ_MSG(test, ret, err, "%s", what);
	if (!ret)
		pfmkt_close(test, desc);
}

/* Rejected formats, arguments and buffer sizes. */
static void smpl_args_errors(struct kunit *test)
{
	static const u8 unknown[16] = { 0xd1, 0x39, 0xb2, 0x9e, 0x62, 0xe8,
					0x40, 0xe4, 0xb4, 0x02, 0x73, 0x07,
					0x87, 0x92, 0xe9, 0x38 };
	static const u8 last_byte[16] = { [15] = 1 };
	struct {
		struct pfm_dfl_smpl_arg arg;
		u64 extra;
	} big;
	struct pfm_dfl_smpl_arg *arg = &big.arg;
	const size_t sz = sizeof(*arg);

	memset(&big, 0, sizeof(big));
	arg->buf_size = 4096;

	smpl_expect_create(test, PFMK_TEST_PMU_NAME, false, unknown, arg, sz,
			   -EINVAL, "unknown uuid");
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, false, last_byte, arg, sz,
			   -EINVAL, "uuid 0...01");
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, true, NULL, NULL, 0,
			   -EINVAL, "format without argument");
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, true, NULL, NULL, sz,
			   -EINVAL, "format, NULL argument with a size");
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, true, NULL, arg, 0,
			   -EINVAL, "format, argument of size 0");
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, true, NULL, arg, sz - 1,
			   -EINVAL, "format, argument too short");
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, true, NULL, arg, sz + 8,
			   -EINVAL, "format, argument too long");
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, false, NULL, arg, sz,
			   -EINVAL, "argument without format");
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, false, NULL, NULL, sz,
			   -EINVAL, "size without format");

	arg->buf_size = SMPL_HDR + SMPL_TEST_MIN - 1;
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, true, NULL, arg, sz,
			   -EINVAL, "test PMU: one byte too small");
	arg->buf_size = SMPL_HDR + SMPL_GEN_MIN - 1;
	smpl_expect_create(test, "", true, NULL, arg, sz, -EINVAL,
			   "generic: one byte too small");
	arg->buf_size = SMPL_HDR + SMPL_TEST_MIN;
	smpl_expect_create(test, "", true, NULL, arg, sz, -EINVAL,
			   "generic: test PMU minimum");
	arg->buf_size = 0;
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, true, NULL, arg, sz,
			   -EINVAL, "size 0");
	arg->buf_size = SMPL_BUF_MAX + 1;
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, true, NULL, arg, sz,
			   -E2BIG, "64 MiB + 1");
	arg->buf_size = U64_MAX;
	smpl_expect_create(test, PFMK_TEST_PMU_NAME, true, NULL, arg, sz,
			   -E2BIG, "U64_MAX");
	/* The other checks still apply with a format. */
	arg->buf_size = 4096;
	smpl_expect_create(test, "no_such_pmu", true, NULL, arg, sz, -ENOENT,
			   "unknown PMU");
}

/* pfmk_get_stats(): arguments, and zeroes on a new context. */
static void smpl_args_stats(struct kunit *test)
{
	struct pfmk_ctx_stats st;
	int local = 0;
	unsigned int i;
	void *desc, *buf;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, 4096, &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_stats(desc, NULL), -EINVAL);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_count, 0ULL);
	KUNIT_EXPECT_EQ(test, st.smpl_count, 0ULL);
	KUNIT_EXPECT_EQ(test, st.ovfl_masked, 0ULL);
	KUNIT_EXPECT_EQ(test, st.ovfl_nested, 0ULL);
	KUNIT_EXPECT_EQ(test, st.throttled, 0ULL);
	KUNIT_EXPECT_EQ(test, st.ovfl_missed, 0ULL);
	KUNIT_EXPECT_EQ(test, st.notify_count, 0ULL);
	KUNIT_EXPECT_EQ(test, st.msgs_dropped, 0ULL);
	KUNIT_EXPECT_EQ(test, st.restarts, 0ULL);
	for (i = 0; i < ARRAY_SIZE(st.reserved); i++)
		KUNIT_EXPECT_EQ(test, st.reserved[i], 0ULL);

	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, pfmk_get_stats(desc, &st), -EBADF);
	KUNIT_EXPECT_EQ(test, pfmk_get_stats(desc, NULL), -EBADF);
	KUNIT_EXPECT_EQ(test, pfmk_get_stats(NULL, &st), -EBADF);
	KUNIT_EXPECT_EQ(test, pfmk_get_stats((void *)0x1234, &st), -EBADF);
	KUNIT_EXPECT_EQ(test, pfmk_get_stats(&local, &st), -EBADF);
}

static struct kunit_case pfmk_smpl_args_cases[] = {
	KUNIT_CASE(smpl_args_layout),
	KUNIT_CASE(smpl_args_create),
	KUNIT_CASE(smpl_args_errors),
	KUNIT_CASE(smpl_args_stats),
	{}
};

struct kunit_suite pfmk_smpl_args_suite = {
	.name = "pfmk_smpl_args",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_args_cases,
};

/* pfmk_smpl_exact */

#define EXACT_P		5ULL
#define EXACT_K		23U
#define EXACT_STEP1	3ULL
#define EXACT_BUF	4096ULL

/*
 * PMC0 step 1 samples every EXACT_P ticks and records PMD1, which counts
 * with step 3.
 */
static void *smpl_exact_setup(struct kunit *test, int cpu, void **buf,
			      u64 smpl_pmds)
{
	void *desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, buf);

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(EXACT_STEP1));
	smpl_write_sampler(test, desc, 0, EXACT_P, 0, smpl_pmds);
	smpl_load_start(test, desc, cpu);
	return desc;
}

static void smpl_clock_fn(void *t)
{
	*(u64 *)t = local_clock();
}

/* local_clock() of @cpu, the clock of its entries' tstamp, read there. */
static u64 smpl_clock_on(int cpu)
{
	u64 t = 0;

	smp_call_function_single(cpu, smpl_clock_fn, &t, 1);
	return t;
}

/* The exact scenario: entries, header, PMD values and statistics. */
static void smpl_exact_entries(struct kunit *test)
{
	const unsigned int n = EXACT_K / EXACT_P;
	const struct pfm_dfl_smpl_entry *ent;
	struct pfm_dfl_smpl_hdr *hdr;
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	u64 tstamp = 0, t0, t1;
	unsigned int i;
	void *desc, *buf;

	desc = smpl_exact_setup(test, cpu, &buf, BIT_ULL(1));
	hdr = buf;
	t0 = smpl_clock_on(cpu);
	pfmk_test_pmu_tick(cpu, EXACT_P - 1);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 0ULL);
	pfmk_test_pmu_tick(cpu, EXACT_K - (EXACT_P - 1));
	t1 = smpl_clock_on(cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);

	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), (u64)n);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, SMPL_HDR + 48ULL * n);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 0ULL);
	for (i = 0; i < n; i++) {
		ent = smpl_entry(buf, i, 1);
		KUNIT_EXPECT_EQ_MSG(test, ent->ovfl_pmd, (u16)0, "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ent->reserved, (u16)0, "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ent->last_reset_val, -EXACT_P,
				    "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ent->cpu, (u16)cpu, "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ent->set, (u16)0, "entry %u", i);
		/* Taken on the CPU between t0 and t1, in overflow order. */
		KUNIT_EXPECT_GE_MSG(test, ent->tstamp, max(tstamp, t0),
				    "entry %u", i);
		KUNIT_EXPECT_LE_MSG(test, ent->tstamp, t1, "entry %u", i);
		/* Overflow i at tick P * (i + 1), which PMD1 has had. */
		KUNIT_EXPECT_EQ_MSG(test, smpl_vals(ent)[0],
				    EXACT_STEP1 * EXACT_P * (i + 1),
				    "PMD1 in entry %u", i);
		tstamp = ent->tstamp;
	}
	/* Nothing beyond the last entry. */
	KUNIT_EXPECT_EQ(test, smpl_entry(buf, n, 1)->tstamp, 0ULL);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			-EXACT_P + EXACT_K % EXACT_P);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1),
			EXACT_STEP1 * EXACT_K);

	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_count, (u64)n);
	KUNIT_EXPECT_EQ(test, st.smpl_count, (u64)n);
	KUNIT_EXPECT_EQ(test, st.ovfl_masked, 0ULL);
	KUNIT_EXPECT_EQ(test, st.ovfl_nested, 0ULL);
	KUNIT_EXPECT_EQ(test, st.throttled, 0ULL);
	KUNIT_EXPECT_EQ(test, st.ovfl_missed, 0ULL);
	KUNIT_EXPECT_EQ(test, st.notify_count, 0ULL);
	KUNIT_EXPECT_EQ(test, st.msgs_dropped, 0ULL);
	KUNIT_EXPECT_EQ(test, st.restarts, 0ULL);
	smpl_expect_no_msg(test, desc);

	/* Stopped: nothing moves. */
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	pfmk_test_pmu_tick(cpu, 3 * EXACT_P);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), (u64)n);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			-EXACT_P + EXACT_K % EXACT_P);

	/* Started again: the period continues where it was. */
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, EXACT_P - 1 - EXACT_K % EXACT_P);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), (u64)n);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), (u64)n + 1);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -EXACT_P);
	pfmkt_close(test, desc);
}

/*
 * The header is output only: a client that scribbles over the size, the
 * write offset, the AUX snippet size and the count makes the handler
 * neither write outside the buffer (KASAN) nor skip or misplace an entry.
 */
static void smpl_exact_scribble(struct kunit *test)
{
	const unsigned int n = EXACT_K / EXACT_P;
	struct pfm_dfl_smpl_hdr *hdr;
	int cpu = pfmkt_cpu();
	unsigned int i;
	void *desc, *buf;

	desc = smpl_exact_setup(test, cpu, &buf, BIT_ULL(1));
	hdr = buf;
	pfmk_test_pmu_tick(cpu, EXACT_P);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 1ULL);

	WRITE_ONCE(hdr->hdr_buf_size, U64_MAX >> 1);
	WRITE_ONCE(hdr->hdr_cur_offs, EXACT_BUF - 8);
	WRITE_ONCE(hdr->hdr_min_buf_space, 0);
	WRITE_ONCE(hdr->hdr_count, 1000);
	pfmk_test_pmu_tick(cpu, EXACT_K - EXACT_P);

	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), (u64)n);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, SMPL_HDR + 48ULL * n);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 0ULL);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, smpl_vals(smpl_entry(buf, i, 1))[0],
				    EXACT_STEP1 * EXACT_P * (i + 1),
				    "PMD1 in entry %u", i);

	/* A huge offset and a short size: still the private bounds. */
	WRITE_ONCE(hdr->hdr_cur_offs, U64_MAX - 16);
	WRITE_ONCE(hdr->hdr_buf_size, 0);
	pfmk_test_pmu_tick(cpu, EXACT_P);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), (u64)n + 1);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, SMPL_HDR + 48ULL * (n + 1));
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
	pfmkt_close(test, desc);
}

/*
 * The overflowing PMD in its own reg_smpl_pmds, between two others: the
 * values come lowest PMD first, and the overflowing PMD's is 0.
 */
static void smpl_exact_self(struct kunit *test)
{
	const struct pfm_dfl_smpl_entry *ent;
	struct pfm_dfl_smpl_hdr *hdr;
	int cpu = pfmkt_cpu();
	unsigned int i;
	void *desc, *buf;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, &buf);
	hdr = buf;
	pfmkt_write_pmc(test, desc, 3, PFMK_TEST_PMC(1));
	pfmkt_write_pmd(test, desc, 2, 777);
	pfmkt_write_pmd(test, desc, 5, 1ULL << 40);
	/* PMD 2 and 5 have no event: their written value is recorded. */
	smpl_write_sampler(test, desc, 3, EXACT_P, 0,
			   BIT_ULL(5) | BIT_ULL(3) | BIT_ULL(2));
	smpl_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 3 * EXACT_P + 1);

	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 3ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, SMPL_HDR + 3 * (40ULL + 24));
	for (i = 0; i < 3; i++) {
		ent = smpl_entry(buf, i, 3);
		KUNIT_EXPECT_EQ(test, ent->ovfl_pmd, (u16)3);
		KUNIT_EXPECT_EQ(test, ent->last_reset_val, -EXACT_P);
		KUNIT_EXPECT_EQ(test, smpl_vals(ent)[0], 777ULL);
		KUNIT_EXPECT_EQ(test, smpl_vals(ent)[1], 0ULL);
		KUNIT_EXPECT_EQ(test, smpl_vals(ent)[2], 1ULL << 40);
	}
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 3), -EXACT_P + 1);
	pfmkt_close(test, desc);
}

/*
 * STEP 4, period 10: the PMD and the test PMU both carry the overshoot,
 * so overflows come where the count crosses a multiple of 10 (counts 12,
 * 20, 32, 40, 52, 60: ticks 3, 5, 8, 10, 13, 15).  At count 12 the PMD
 * is 2 past zero: the sample shows 2, the reset leaves -10 + 2 % 10 =
 * -8, and the next overflow is 2 ticks later at count 20, exactly 0 past
 * zero (sample 0, PMD -10).  No period is skipped: ovfl_missed stays 0.
 */
static void smpl_exact_step_carry(struct kunit *test)
{
	static const u64 past[] = { 2, 0, 2, 0, 2, 0 };
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	unsigned int i;
	void *desc, *buf;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, &buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(4));
	smpl_write_sampler(test, desc, 0, 10, 0, BIT_ULL(0));
	smpl_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 2);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 0ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL + 8);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 1ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL + 2);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 1ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL + 6);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 2ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL);
	/* Ticks 6..14 in one call: overflows at ticks 8, 10 and 13. */
	pfmk_test_pmu_tick(cpu, 9);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 5ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL + 6);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 6ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL);
	for (i = 0; i < ARRAY_SIZE(past); i++) {
		const struct pfm_dfl_smpl_entry *ent = smpl_entry(buf, i, 1);

		KUNIT_EXPECT_EQ_MSG(test, ent->last_reset_val, -10ULL,
				    "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, smpl_vals(ent)[0], past[i],
				    "entry %u", i);
	}
	KUNIT_EXPECT_EQ(test, smpl_entry(buf, 6, 1)->tstamp, 0ULL);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_count, 6ULL);
	KUNIT_EXPECT_EQ(test, st.smpl_count, 6ULL);
	KUNIT_EXPECT_EQ(test, st.ovfl_missed, 0ULL);
	pfmkt_close(test, desc);
}

/*
 * STEP 25, period 10: one overflow per tick, which went through 2 or 3
 * periods.  Tick 1: count 25, the PMD 15 past zero: 1 period missed,
 * reset to -10 + 5.  Tick 2: count 50, PMD -5 + 25 = 20 past zero: 2
 * missed, reset to -10.  Ticks 3 and 4 repeat this.  Samples + missed
 * periods = 4 + 6 = 10 = 100 / 10, the periods elapsed.
 */
static void smpl_exact_step_missed(struct kunit *test)
{
	static const u64 past[] = { 15, 20, 15, 20 };
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	unsigned int i;
	void *desc, *buf;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, &buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(25));
	smpl_write_sampler(test, desc, 0, 10, 0, BIT_ULL(0));
	smpl_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 1ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL + 5);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_missed, 1ULL);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 2ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_missed, 3ULL);
	pfmk_test_pmu_tick(cpu, 2);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 4ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL);
	for (i = 0; i < ARRAY_SIZE(past); i++) {
		const struct pfm_dfl_smpl_entry *ent = smpl_entry(buf, i, 1);

		KUNIT_EXPECT_EQ_MSG(test, ent->last_reset_val, -10ULL,
				    "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, smpl_vals(ent)[0], past[i],
				    "entry %u", i);
	}
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_count, 4ULL);
	KUNIT_EXPECT_EQ(test, st.smpl_count, 4ULL);
	KUNIT_EXPECT_EQ(test, st.ovfl_missed, 6ULL);
	KUNIT_EXPECT_EQ(test, st.smpl_count + st.ovfl_missed, 100ULL / 10);
	pfmkt_close(test, desc);
}

/*
 * Sampling without a format and without notification, as perfmon2 2.2:
 * the first overflow masks the context and leaves the PMD unreset
 * (saturation); nothing is notified; pfmk_restart() reloads the long
 * reset.  A PMD with value 0 only counts.
 */
static void smpl_exact_no_format(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, 0, &buf);
	KUNIT_EXPECT_NULL(test, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(1));
	smpl_write_sampler(test, desc, 0, 7, 0, BIT_ULL(1));
	smpl_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 6);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
	pfmk_test_pmu_tick(cpu, 44);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	/* Not reset: it ran on from its wrap at tick 7. */
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 50ULL - 7);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 50ULL);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_count, 1ULL);
	KUNIT_EXPECT_EQ(test, st.smpl_count, 0ULL);
	KUNIT_EXPECT_EQ(test, st.notify_count, 0ULL);
	KUNIT_EXPECT_EQ(test, st.ovfl_missed, 0ULL);
	smpl_expect_no_msg(test, desc);
	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));

	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -7ULL);
	pfmk_test_pmu_tick(cpu, 7);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_count, 2ULL);
	KUNIT_EXPECT_EQ(test, st.notify_count, 0ULL);
	pfmkt_close(test, desc);
}

/*
 * reg_reset_pmds: PMD1 samples and resets PMD0 and PMD2 to their short
 * reset values at each overflow (ticks P, 2P, 3P), after recording them.
 * Both have had the overflow's tick when that happens: after k >= P
 * ticks they hold their reset value + k % P, and each entry records the
 * value P ticks after the previous reset.
 */
static void smpl_exact_reset_pmds(struct kunit *test)
{
	const u64 v0 = 5, r0 = 1000, v2 = 1ULL << 32, r2 = 77;
	struct smpl_pmd p0 = {
		.value = v0,
		.short_reset = r0,
		.long_reset = 2 * r0,
	};
	struct smpl_pmd p1 = {
		.value = -EXACT_P,
		.short_reset = -EXACT_P,
		.long_reset = -EXACT_P,
		.reset_pmds = BIT_ULL(0) | BIT_ULL(2),
		.smpl_pmds = BIT_ULL(0) | BIT_ULL(2),
	};
	struct smpl_pmd p2 = {
		.value = v2,
		.short_reset = r2,
		.long_reset = 2 * r2,
	};
	const u64 *val;
	int cpu = pfmkt_cpu();
	unsigned int k;
	void *desc, *buf;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, &buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 2, PFMK_TEST_PMC(1));
	smpl_write_pmd(test, desc, 0, &p0);
	smpl_write_pmd(test, desc, 1, &p1);
	smpl_write_pmd(test, desc, 2, &p2);
	smpl_load_start(test, desc, cpu);

	for (k = 1; k <= 3 * EXACT_P + 2; k++) {
		pfmk_test_pmu_tick(cpu, 1);
		KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, desc, 0),
				    k < EXACT_P ? v0 + k : r0 + k % EXACT_P,
				    "PMD0 after %u ticks", k);
		KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, desc, 2),
				    k < EXACT_P ? v2 + k : r2 + k % EXACT_P,
				    "PMD2 after %u ticks", k);
	}
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 3ULL);
	/* Recorded before the reset. */
	val = smpl_vals(smpl_entry(buf, 0, 2));
	KUNIT_EXPECT_EQ(test, val[0], v0 + EXACT_P);
	KUNIT_EXPECT_EQ(test, val[1], v2 + EXACT_P);
	for (k = 1; k < 3; k++) {
		val = smpl_vals(smpl_entry(buf, k, 2));
		KUNIT_EXPECT_EQ_MSG(test, val[0], r0 + EXACT_P, "entry %u", k);
		KUNIT_EXPECT_EQ_MSG(test, val[1], r2 + EXACT_P, "entry %u", k);
		KUNIT_EXPECT_EQ(test, smpl_entry(buf, k, 2)->ovfl_pmd, (u16)1);
	}
	KUNIT_EXPECT_EQ(test, smpl_entry(buf, 0, 2)->ovfl_pmd, (u16)1);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1),
			-EXACT_P + 2);
	pfmkt_close(test, desc);
}

/*
 * reg_reset_pmds across a mask, without a format: PMD0's overflow at tick
 * 7 masks and leaves PMD0 and its reg_reset_pmds (PMD2, counting) unreset
 * until pfmk_restart(), which gives both their long reset.  PMD1 (period
 * 11, also resetting PMD2) overflows while masked: it reloads its own
 * short reset, but PMD2, waiting for its long reset, is left alone.
 */
static void smpl_exact_reset_pmds_mask(struct kunit *test)
{
	const u64 v2 = 100, r2 = 1000, l2 = 5000;
	struct smpl_pmd p0 = {
		.value = -7ULL,
		.short_reset = -7ULL,
		.long_reset = -70ULL,
		.reset_pmds = BIT_ULL(2),
	};
	struct smpl_pmd p1 = {
		.value = -11ULL,
		.short_reset = -11ULL,
		.long_reset = -110ULL,
		.reset_pmds = BIT_ULL(2),
	};
	struct smpl_pmd p2 = {
		.value = v2,
		.short_reset = r2,
		.long_reset = l2,
	};
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	unsigned int i;
	void *desc, *buf;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, 0, &buf);
	for (i = 0; i < 3; i++)
		pfmkt_write_pmc(test, desc, i, PFMK_TEST_PMC(1));
	smpl_write_pmd(test, desc, 0, &p0);
	smpl_write_pmd(test, desc, 1, &p1);
	smpl_write_pmd(test, desc, 2, &p2);
	smpl_load_start(test, desc, cpu);

	pfmk_test_pmu_tick(cpu, 7);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	/* Unreset: PMD0 from its wrap, PMD2 counting on. */
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 2), v2 + 7);

	pfmk_test_pmu_tick(cpu, 4);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_count, 2ULL);
	KUNIT_EXPECT_EQ(test, st.ovfl_masked, 1ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 4ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), -11ULL);
	/* Waiting for its long reset: not PMD1's short reset. */
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 2), v2 + 11);

	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -70ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), -11ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 2), l2);
	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 2), l2 + 3);
	pfmkt_close(test, desc);
}

/* The reference Park-Miller generator of Documentation/sampling.rst. */
static u32 smpl_pm_next(u32 *state)
{
	u32 s, rem;

	s = *state % SMPL_PM_MOD;
	if (!s)
		s = 1;
	div_u64_rem((u64)16807 * s, SMPL_PM_MOD, &rem);
	*state = rem;
	return rem;
}

static u64 smpl_pm_draw(u32 *state, u64 mask)
{
	u64 x = smpl_pm_next(state);

	if (mask >> 31)
		x |= (u64)smpl_pm_next(state) << 31;
	return x & mask;
}

#define RANDOM_P	20ULL
#define RANDOM_N	10U

static void smpl_exact_random_one(struct kunit *test, u32 seed, u64 mask)
{
	const struct pfm_dfl_smpl_entry *ent;
	u64 add[RANDOM_N], gap = RANDOM_P;
	struct smpl_pmd p = {
		.value = -RANDOM_P,
		.short_reset = -RANDOM_P,
		.long_reset = -RANDOM_P,
		.flags = PFM_REGFL_RANDOM,
		.mask = mask,
		.seed = seed,
	};
	bool varies = false;
	int cpu = pfmkt_cpu();
	u32 state = seed;
	unsigned int i;
	void *desc, *buf;

	for (i = 0; i < RANDOM_N; i++) {
		add[i] = smpl_pm_draw(&state, mask);
		if (i && add[i] != add[0])
			varies = true;
	}
	KUNIT_ASSERT_TRUE_MSG(test, varies, "seed %u mask %#llx", seed, mask);

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, &buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	smpl_write_pmd(test, desc, 0, &p);
	smpl_load_start(test, desc, cpu);

	/* Overflow i comes gap_i ticks after overflow i - 1. */
	for (i = 0; i < RANDOM_N; i++) {
		pfmk_test_pmu_tick(cpu, gap - 1);
		KUNIT_ASSERT_EQ_MSG(test, smpl_hdr_count(buf), (u64)i,
				    "seed %u: overflow %u came early", seed, i);
		pfmk_test_pmu_tick(cpu, 1);
		KUNIT_ASSERT_EQ_MSG(test, smpl_hdr_count(buf), (u64)i + 1,
				    "seed %u: no overflow %u after %llu ticks",
				    seed, i, gap);
		KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, desc, 0),
				    -RANDOM_P - add[i], "seed %u: reset %u",
				    seed, i);
		gap = RANDOM_P + add[i];
	}
	for (i = 0; i < RANDOM_N; i++) {
		u64 expected = i ? -RANDOM_P - add[i - 1] : -RANDOM_P;

		ent = smpl_entry(buf, i, 0);
		KUNIT_EXPECT_EQ_MSG(test, ent->last_reset_val, expected,
				    "seed %u: entry %u", seed, i);
		KUNIT_EXPECT_GE(test, -ent->last_reset_val, RANDOM_P);
		KUNIT_EXPECT_LE(test, -ent->last_reset_val, RANDOM_P + mask);
	}
	pfmkt_close(test, desc);
}

/* PFM_REGFL_RANDOM: reproducible periods within the mask. */
static void smpl_exact_random(struct kunit *test)
{
	smpl_exact_random_one(test, 12345, 0xf);
	smpl_exact_random_one(test, 1, 0x1f);
	/* 2^31 - 1 % (2^31 - 1) is 0, which the generator turns into 1. */
	smpl_exact_random_one(test, SMPL_PM_MOD, 0x1f);
	smpl_exact_random_one(test, 0, 0x7);
	smpl_exact_random_one(test, 0xdeadbeef, 0x3c);
}

/* A random mask wider than 31 bits draws twice per reset. */
static void smpl_exact_random_wide(struct kunit *test)
{
	const u64 mask = (3ULL << 32) | 0x7;
	struct smpl_pmd p = {
		.value = -RANDOM_P,
		.short_reset = -RANDOM_P,
		.long_reset = -RANDOM_P,
		.flags = PFM_REGFL_RANDOM,
		.mask = mask,
		.seed = 4242,
	};
	struct pfarg_pmd pmd;
	int cpu = pfmkt_cpu();
	u32 state = p.seed;
	void *desc, *buf;
	u64 add;

	/* Seed 4242 draws bits above 31: a single draw would not. */
	add = smpl_pm_draw(&state, mask);
	KUNIT_ASSERT_EQ(test, add, 0x300000006ULL);
	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, &buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	smpl_write_pmd(test, desc, 0, &p);
	smpl_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, RANDOM_P + 3);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 1ULL);

	memset(&pmd, 0, sizeof(pmd));
	KUNIT_ASSERT_EQ(test, pfmk_read_pmds(desc, &pmd, 1), 0);
	KUNIT_EXPECT_EQ(test, pmd.reg_last_reset_val, -RANDOM_P - add);
	KUNIT_EXPECT_EQ(test, pmd.reg_value, -RANDOM_P - add + 3);
	pfmkt_close(test, desc);
}

/* write_pmds on a loaded, stopped context: the new value decides. */
static void smpl_exact_write_loaded(struct kunit *test)
{
	struct smpl_pmd p = {
		.value = -4ULL,
		.short_reset = -6ULL,
		.long_reset = -6ULL,
	};
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, EXACT_BUF, &buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	smpl_write_sampler(test, desc, 0, 10, 0, 0);
	smpl_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 7);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL + 7);
	smpl_write_pmd(test, desc, 0, &p);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -4ULL);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);

	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 0ULL);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 1ULL);
	KUNIT_EXPECT_EQ(test, smpl_entry(buf, 0, 0)->last_reset_val, -4ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -6ULL);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 1ULL);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 2ULL);
	KUNIT_EXPECT_EQ(test, smpl_entry(buf, 1, 0)->last_reset_val, -6ULL);

	/* Written to a counting value: the PMD no longer samples. */
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	pfmkt_write_pmd(test, desc, 0, 100);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 30);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 2ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 130ULL);
	pfmkt_close(test, desc);
}

static struct kunit_case pfmk_smpl_exact_cases[] = {
	KUNIT_CASE(smpl_exact_entries),
	KUNIT_CASE(smpl_exact_self),
	KUNIT_CASE(smpl_exact_step_carry),
	KUNIT_CASE(smpl_exact_step_missed),
	KUNIT_CASE(smpl_exact_no_format),
	KUNIT_CASE(smpl_exact_reset_pmds),
	KUNIT_CASE(smpl_exact_reset_pmds_mask),
	KUNIT_CASE(smpl_exact_random),
	KUNIT_CASE(smpl_exact_random_wide),
	KUNIT_CASE(smpl_exact_write_loaded),
	KUNIT_CASE(smpl_exact_scribble),
	{}
};

struct kunit_suite pfmk_smpl_exact_suite = {
	.name = "pfmk_smpl_exact",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_exact_cases,
};

/* pfmk_smpl_notify */

/* Read one OVFL message for PMD @pmd on @cpu, without blocking. */
static void smpl_expect_msg(struct kunit *test, void *desc, unsigned int pmd,
			    int cpu)
{
	union pfm_msg msg;
	unsigned int i;

	memset(&msg, 0x5a, sizeof(msg));
	KUNIT_ASSERT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)sizeof(msg));
	KUNIT_EXPECT_EQ(test, msg.type, (u32)PFM_MSG_OVFL);
	for (i = 0; i < PFM_HW_PMD_BV; i++)
		KUNIT_EXPECT_EQ_MSG(test, msg.pfm_ovfl_msg.msg_ovfl_pmds[i],
				    i == pmd / 64 ? BIT_ULL(pmd % 64) : 0,
				    "msg_ovfl_pmds[%u]", i);
	KUNIT_EXPECT_EQ(test, msg.pfm_ovfl_msg.msg_ovfl_cpu, (u16)cpu);
	KUNIT_EXPECT_EQ(test, msg.pfm_ovfl_msg.msg_active_set, (u16)0);
}

#define NOTIFY_P	4ULL
#define NOTIFY_L	10ULL

/* PMD0 samples every NOTIFY_P ticks with OVFL_NOTIFY, long reset -L. */
static void *smpl_notify_setup(struct kunit *test, int cpu, u32 ctx_flags,
			       u64 buf_size, void **buf)
{
	struct smpl_pmd p = {
		.value = -NOTIFY_P,
		.short_reset = -NOTIFY_P,
		.long_reset = -NOTIFY_L,
		.flags = PFM_REGFL_OVFL_NOTIFY,
	};
	void *desc;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, ctx_flags, buf_size, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	smpl_write_pmd(test, desc, 0, &p);
	smpl_load_start(test, desc, cpu);
	return desc;
}

/* OVFL_NOTIFY without a format: mask, message, restart, long reset. */
static void smpl_notify_msg(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = smpl_notify_setup(test, cpu, 0, 0, &buf);
	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -EBUSY);
	pfmk_test_pmu_tick(cpu, NOTIFY_P - 1);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
	smpl_expect_no_msg(test, desc);
	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));

	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	pfmkt_wait_notify(test);
	smpl_expect_msg(test, desc, 0, cpu);
	smpl_expect_no_msg(test, desc);

	/*
	 * Masked: the PMD is not reset (its short reset is dropped, the
	 * long reset waits for restart) and runs on from its wrap with no
	 * further overflow; nothing is notified.
	 */
	pfmk_test_pmu_tick(cpu, 2 * NOTIFY_P + 1);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			2 * NOTIFY_P + 1);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_count, 1ULL);
	KUNIT_EXPECT_EQ(test, st.ovfl_masked, 0ULL);
	KUNIT_EXPECT_EQ(test, st.notify_count, 1ULL);
	KUNIT_EXPECT_EQ(test, st.smpl_count, 0ULL);
	KUNIT_EXPECT_EQ(test, st.restarts, 0ULL);
	smpl_expect_no_msg(test, desc);
	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));

	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -EBUSY);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.restarts, 1ULL);
	KUNIT_EXPECT_EQ(test, st.notify_count, 1ULL);

	/* The next overflow comes after exactly L ticks. */
	pfmk_test_pmu_tick(cpu, NOTIFY_L - 1);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -1ULL);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 0ULL);
	pfmkt_wait_notify(test);
	smpl_expect_msg(test, desc, 0, cpu);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_count, 2ULL);
	KUNIT_EXPECT_EQ(test, st.notify_count, 2ULL);
	KUNIT_EXPECT_EQ(test, st.msgs_dropped, 0ULL);

	/* Restart on a stopped, masked context; then unloaded: -ENOTCONN. */
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_MASKED);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -ENOTCONN);
	pfmkt_close(test, desc);
}

/* PFM_FL_OVFL_NO_MSG: masked and completed, but no message. */
static void smpl_notify_no_msg(struct kunit *test)
{
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = smpl_notify_setup(test, cpu, PFM_FL_OVFL_NO_MSG, 0, &buf);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	pfmkt_wait_notify(test);
	smpl_expect_no_msg(test, desc);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.notify_count, 1ULL);
	KUNIT_EXPECT_EQ(test, st.msgs_dropped, 0ULL);
	KUNIT_EXPECT_EQ(test, st.restarts, 1ULL);
	smpl_expect_no_msg(test, desc);
	pfmkt_close(test, desc);
}

/* Nine notifications unread: eight messages queued, one dropped. */
static void smpl_notify_queue_full(struct kunit *test)
{
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	unsigned int i;
	void *desc, *buf;

	desc = smpl_notify_setup(test, cpu, 0, 0, &buf);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	for (i = 0; i < 9; i++) {
		KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
		pfmkt_wait_notify(test);
		KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
		if (i < 8)
			pfmk_test_pmu_tick(cpu, NOTIFY_L);
	}
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.notify_count, 9ULL);
	KUNIT_EXPECT_EQ(test, st.msgs_dropped, 1ULL);
	KUNIT_EXPECT_EQ(test, st.restarts, 9ULL);
	for (i = 0; i < 8; i++)
		smpl_expect_msg(test, desc, 0, cpu);
	smpl_expect_no_msg(test, desc);
	pfmkt_close(test, desc);
}

/*
 * A full buffer: 376 bytes hold four 48-byte entries, after which less
 * than hdr_min_buf_space (104) is left.
 */
static void smpl_notify_buffer_full(struct kunit *test)
{
	const u64 size = SMPL_HDR + SMPL_TEST_MIN + 3 * 48;
	struct pfmkt_priv *priv = test->priv;
	const struct pfm_dfl_smpl_entry *ent;
	struct pfm_dfl_smpl_hdr *hdr;
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	struct smpl_pmd p = {
		.value = -EXACT_P,
		.short_reset = -EXACT_P,
		.long_reset = -NOTIFY_L,
		.flags = PFM_REGFL_OVFL_NOTIFY,
		.smpl_pmds = BIT_ULL(1),
	};
	unsigned int i;
	void *desc, *buf;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, size, &buf);
	hdr = buf;
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(EXACT_STEP1));
	smpl_write_pmd(test, desc, 0, &p);
	smpl_load_start(test, desc, cpu);

	pfmk_test_pmu_tick(cpu, 3 * EXACT_P);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 3ULL);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 0ULL);
	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));

	pfmk_test_pmu_tick(cpu, EXACT_P);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 4ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, SMPL_HDR + 4 * 48ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 1ULL);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	pfmkt_wait_notify(test);
	smpl_expect_msg(test, desc, 0, cpu);
	smpl_expect_no_msg(test, desc);

	/* Masked: the PMD saturates, nothing is recorded. */
	pfmk_test_pmu_tick(cpu, 3 * EXACT_P);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 4ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 1ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 3 * EXACT_P);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_count, 4ULL);
	KUNIT_EXPECT_EQ(test, st.smpl_count, 4ULL);
	KUNIT_EXPECT_EQ(test, st.ovfl_masked, 0ULL);
	KUNIT_EXPECT_EQ(test, st.notify_count, 1ULL);
	for (i = 0; i < 4; i++) {
		ent = smpl_entry(buf, i, 1);
		KUNIT_EXPECT_EQ(test, ent->last_reset_val, -EXACT_P);
		KUNIT_EXPECT_EQ(test, ent->cpu, (u16)cpu);
	}

	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 0ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, (u64)SMPL_HDR);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 1ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);

	/* Recording resumes from the long reset. */
	pfmk_test_pmu_tick(cpu, NOTIFY_L - 1);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 0ULL);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 1ULL);
	KUNIT_EXPECT_EQ(test, smpl_entry(buf, 0, 1)->last_reset_val,
			-NOTIFY_L);
	pfmk_test_pmu_tick(cpu, EXACT_P);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 2ULL);
	KUNIT_EXPECT_EQ(test, smpl_entry(buf, 1, 1)->last_reset_val, -EXACT_P);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.smpl_count, 6ULL);
	KUNIT_EXPECT_EQ(test, st.restarts, 1ULL);
	pfmkt_close(test, desc);
}

/*
 * An overflow that finds no room before it writes (pfmk_dfl_full()).  A
 * full buffer masks the context, and only an unload unmasks it without
 * emptying the buffer: loaded again, an entry larger than the room left
 * is refused, counted in hdr_overflows, and masks and notifies again, as
 * perfmon2 2.2's default format does.  376 bytes hold four 48-byte
 * entries and leave 56; the PMD then samples three PMDs (64 bytes).
 */
static void smpl_notify_full_before_entry(struct kunit *test)
{
	const u64 size = SMPL_HDR + SMPL_TEST_MIN + 3 * 48;
	struct pfm_dfl_smpl_hdr *hdr;
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	struct smpl_pmd p = {
		.value = -EXACT_P,
		.short_reset = -EXACT_P,
		.long_reset = -EXACT_P,
		.flags = PFM_REGFL_OVFL_NOTIFY,
		.smpl_pmds = BIT_ULL(1),
	};
	void *desc, *buf;
	unsigned int i;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0, size, &buf);
	hdr = buf;
	for (i = 0; i < 4; i++)
		pfmkt_write_pmc(test, desc, i, PFMK_TEST_PMC(1));
	smpl_write_pmd(test, desc, 0, &p);
	smpl_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 4 * EXACT_P);
	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 4ULL);
	KUNIT_ASSERT_EQ(test, hdr->hdr_overflows, 1ULL);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	pfmkt_wait_notify(test);
	smpl_expect_msg(test, desc, 0, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	p.smpl_pmds = BIT_ULL(1) | BIT_ULL(2) | BIT_ULL(3);
	smpl_write_pmd(test, desc, 0, &p);
	smpl_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, EXACT_P);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 4ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, SMPL_HDR + 4 * 48ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 2ULL);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	pfmkt_wait_notify(test);
	smpl_expect_msg(test, desc, 0, cpu);
	smpl_expect_no_msg(test, desc);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.smpl_count, 4ULL);
	KUNIT_EXPECT_EQ(test, st.notify_count, 2ULL);
	pfmkt_close(test, desc);
}

/*
 * A full buffer and a PMD without PFM_REGFL_OVFL_NOTIFY: the default
 * format asks for NOTIFY | MASK, and as in perfmon2 2.2 the context masks
 * but the notification is not sent (it is subject to the PMD's flag).
 */
static void smpl_notify_full_silent(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	struct smpl_pmd p = {
		.value = -NOTIFY_P,
		.short_reset = -NOTIFY_P,
		.long_reset = -NOTIFY_L,
	};
	void *desc, *buf;

	desc = smpl_create(test, PFMK_TEST_PMU_NAME, 0,
			   SMPL_HDR + SMPL_TEST_MIN, &buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	smpl_write_pmd(test, desc, 0, &p);
	smpl_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 1ULL);
	msleep(20);
	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));
	smpl_expect_no_msg(test, desc);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.notify_count, 0ULL);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 0ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
	pfmkt_close(test, desc);
}

/*
 * A 2006 sampling client: the default format, a buffer with room for
 * many entries, a PMD with PFM_REGFL_OVFL_NOTIFY.  As on perfmon2 2.2,
 * every overflow is recorded and reset; the notification comes only
 * when the buffer is full.
 */
static void smpl_notify_only_when_full(struct kunit *test)
{
	const unsigned int room = 10;
	struct pfmkt_priv *priv = test->priv;
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	/* Ten entries of 40 bytes (no sampled PMD) before it is full. */
	desc = smpl_notify_setup(test, cpu, 0, SMPL_HDR + SMPL_TEST_MIN +
				 (room - 1) * SMPL_ENTRY, &buf);
	pfmk_test_pmu_tick(cpu, (room - 1) * NOTIFY_P);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), (u64)room - 1);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_STARTED);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_P);
	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));
	smpl_expect_no_msg(test, desc);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), (u64)room);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	pfmkt_wait_notify(test);
	smpl_expect_msg(test, desc, 0, cpu);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.smpl_count, (u64)room);
	KUNIT_EXPECT_EQ(test, st.notify_count, 1ULL);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
	pfmkt_close(test, desc);
}

/**
 * struct smpl_reader - a kthread blocked in pfmk_read()
 * @desc: the descriptor.
 * @started: the thread runs.
 * @finished: pfmk_read() returned.
 * @ret: what it returned.
 * @msg: the message it read.
 */
struct smpl_reader {
	void			*desc;
	struct completion	started;
	struct completion	finished;
	ssize_t			ret;
	union pfm_msg		msg;
};

static int smpl_reader_fn(void *data)
{
	struct smpl_reader *r = data;

	complete(&r->started);
	r->ret = pfmk_read(r->desc, &r->msg, sizeof(r->msg), 0);
	complete(&r->finished);

	return pfmkt_kthread_park();
}

/* A reader blocked in pfmk_read() is woken by an overflow notification. */
static void smpl_notify_blocked_reader(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	int cpu = pfmkt_cpu();
	struct smpl_reader *r;
	struct task_struct *t;
	void *desc, *buf;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	desc = smpl_notify_setup(test, cpu, 0, 0, &buf);
	r->desc = desc;
	r->ret = 1;
	init_completion(&r->started);
	init_completion(&r->finished);
	t = kthread_run(smpl_reader_fn, r, "pfmk_smpl_read");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&r->started);
	msleep(20);
	KUNIT_EXPECT_FALSE(test, completion_done(&r->finished));

	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	if (!wait_for_completion_timeout(&r->finished, SMPL_TIMEOUT)) {
		KUNIT_FAIL(test, "pfmk_read() was not woken");
		complete_all(&priv->done);
		wait_for_completion(&r->finished);
	}
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, r->ret, (ssize_t)sizeof(r->msg));
	KUNIT_EXPECT_EQ(test, r->msg.type, (u32)PFM_MSG_OVFL);
	KUNIT_EXPECT_EQ(test, r->msg.pfm_ovfl_msg.msg_ovfl_pmds[0], 1ULL);
	KUNIT_EXPECT_EQ(test, r->msg.pfm_ovfl_msg.msg_ovfl_cpu, (u16)cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	smpl_expect_no_msg(test, desc);
	KUNIT_EXPECT_EQ(test, pfmk_restart(desc), 0);
	pfmkt_close(test, desc);
}

/*
 * Close while started and masked, messages queued and the last
 * notification maybe still in flight.
 */
static void smpl_notify_close_masked(struct kunit *test)
{
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	unsigned int i;
	union pfm_msg msg;
	void *desc, *buf;

	/* Room for one entry: every overflow fills the buffer. */
	desc = smpl_notify_setup(test, cpu, 0, SMPL_HDR + SMPL_TEST_MIN, &buf);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	for (i = 0; i < 3; i++) {
		pfmkt_wait_notify(test);
		KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
		pfmk_test_pmu_tick(cpu, NOTIFY_L);
	}
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.notify_count, 4ULL);
	KUNIT_EXPECT_EQ(test, st.smpl_count, 4ULL);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), 1ULL);
	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)-EBADF);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* Unload while sampling: values folded, buffer kept. */
static void smpl_notify_unload(struct kunit *test)
{
	const unsigned int n = EXACT_K / EXACT_P;
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = smpl_exact_setup(test, cpu, &buf, BIT_ULL(1));
	pfmk_test_pmu_tick(cpu, EXACT_K);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
	pfmk_test_pmu_tick(cpu, EXACT_K);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), (u64)n);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			-EXACT_P + EXACT_K % EXACT_P);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1),
			EXACT_STEP1 * EXACT_K);
	smpl_stats(test, desc, &st);
	KUNIT_EXPECT_EQ(test, st.ovfl_count, (u64)n);
	KUNIT_EXPECT_EQ(test, st.smpl_count, (u64)n);

	/* Loaded again: the period goes on from the folded value. */
	smpl_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, EXACT_P - EXACT_K % EXACT_P);
	KUNIT_EXPECT_EQ(test, smpl_hdr_count(buf), (u64)n + 1);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -EXACT_P);
	pfmkt_close(test, desc);
}

/*
 * A sampling format of the tests' own (perfmon2 2.2's plug-in interface):
 * it keeps each pfmk_ovfl_arg it is handed and answers smpl_fmt_ctrl, so
 * that each PFM_OVFL_CTRL_* answer can be checked against what the core
 * does with it.  Registered for the suite (smpl_fmt_suite_init()).
 */
#define SMPL_FMT_RECS	8

struct smpl_fmt_rec {
	u16	ovfl_pmd;
	u16	active_set;
	u16	cpu;
	u64	last_reset_val;
	u64	eventid;
	u32	nr_smpl_pmds;
	u64	vals[2];
};

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
 * A context with the test format answering @ctrl, started on @cpu: PMD0
 * as @p0 counts ticks, PMD1 counts three per tick.
 */
static void *smpl_fmt_setup(struct kunit *test, int cpu, u32 ctrl,
			    const struct smpl_pmd *p0,
			    struct smpl_fmt_buf **buf)
{
	struct pfarg_ctx req;
	void *desc = NULL, *b = NULL;
	u64 arg = 1;

	pfmkt_ctx_req(&req, PFMK_TEST_PMU_NAME, 0, false);
	memcpy(req.ctx_smpl_buf_id, smpl_test_fmt.uuid,
	       sizeof(req.ctx_smpl_buf_id));
	KUNIT_ASSERT_EQ(test, smpl_try_create(test, &req, &arg, sizeof(arg),
					      &desc, &b), 0);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, req.ctx_smpl_buf_size,
			(u64)sizeof(struct smpl_fmt_buf));
	*buf = b;
	WRITE_ONCE(smpl_fmt_ctrl, ctrl);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(3));
	smpl_write_pmd(test, desc, 0, p0);
	smpl_load_start(test, desc, cpu);
	return desc;
}

/*
 * What a format is handed: the PMD, the set, the CPU, the value the PMD
 * was last reset to, its reg_smpl_eventid and the values of its
 * reg_smpl_pmds at the overflow.
 */
static void smpl_fmt_args(struct kunit *test)
{
	struct smpl_pmd p0 = {
		.value = -5ULL,
		.short_reset = -6ULL,
		.long_reset = -6ULL,
		.smpl_pmds = BIT_ULL(1),
		.eventid = 0xfeedfaceULL,
	};
	struct smpl_fmt_buf *b;
	int cpu = pfmkt_cpu();
	void *desc;

	desc = smpl_fmt_setup(test, cpu, PFM_OVFL_CTRL_RESET, &p0, &b);
	pfmk_test_pmu_tick(cpu, 12);
	KUNIT_ASSERT_EQ(test, smpl_fmt_count(b), 2U);
	KUNIT_EXPECT_EQ(test, b->rec[0].ovfl_pmd, (u16)0);
	KUNIT_EXPECT_EQ(test, b->rec[0].active_set, (u16)0);
	KUNIT_EXPECT_EQ(test, b->rec[0].cpu, (u16)cpu);
	KUNIT_EXPECT_EQ(test, b->rec[0].eventid, 0xfeedfaceULL);
	KUNIT_EXPECT_EQ(test, b->rec[0].nr_smpl_pmds, 1U);
	KUNIT_EXPECT_EQ(test, b->rec[0].vals[0], 3ULL * 5);
	/* The first overflow: the value written; then the short reset. */
	KUNIT_EXPECT_EQ(test, b->rec[0].last_reset_val, -5ULL);
	KUNIT_EXPECT_EQ(test, b->rec[1].last_reset_val, -6ULL);
	KUNIT_EXPECT_EQ(test, b->rec[1].eventid, 0xfeedfaceULL);
	KUNIT_EXPECT_EQ(test, b->rec[1].vals[0], 3ULL * 11);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -6ULL + 1);
	pfmkt_close(test, desc);
}

/*
 * What the core does with each answer of a format (perfmon2 2.2's
 * pfm_overflow_handler()): RESET reloads the short reset, neither RESET
 * nor MASK lets the PMD count on from its wrap, MASK masks and leaves it
 * for pfmk_restart() (long reset, the format's ->restart()), and NOTIFY
 * notifies only a PMD with PFM_REGFL_OVFL_NOTIFY.
 */
static void smpl_fmt_ctrl_answers(struct kunit *test)
{
	static const struct {
		u32	ctrl;
		u32	flags;
		u64	pmd0;	/* after 6 ticks, period 4 */
		bool	masked;
		bool	msg;
	} c[] = {
		{ 0, PFM_REGFL_OVFL_NOTIFY, 2, false, false },
		{ PFM_OVFL_CTRL_NOTIFY, PFM_REGFL_OVFL_NOTIFY, 2, false, true },
		{ PFM_OVFL_CTRL_RESET, PFM_REGFL_OVFL_NOTIFY, -2ULL, false, false },
		{ PFM_OVFL_CTRL_RESET | PFM_OVFL_CTRL_NOTIFY,
		  PFM_REGFL_OVFL_NOTIFY, -2ULL, false, true },
		{ PFM_OVFL_CTRL_RESET | PFM_OVFL_CTRL_NOTIFY, 0, -2ULL, false,
		  false },
		{ PFM_OVFL_CTRL_MASK | PFM_OVFL_CTRL_NOTIFY,
		  PFM_REGFL_OVFL_NOTIFY, 2, true, true },
		{ PFM_OVFL_CTRL_MASK, PFM_REGFL_OVFL_NOTIFY, 2, true, false },
		{ PFM_OVFL_CTRL_MASK | PFM_OVFL_CTRL_RESET, 0, 2, true, false },
	};
	struct pfmk_ctx_stats st;
	struct smpl_fmt_buf *b;
	int cpu = pfmkt_cpu();
	unsigned int i;
	void *desc;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct smpl_pmd p0 = {
			.value = -4ULL,
			.short_reset = -4ULL,
			.long_reset = -10ULL,
			.flags = c[i].flags,
		};

		desc = smpl_fmt_setup(test, cpu, c[i].ctrl, &p0, &b);
		pfmk_test_pmu_tick(cpu, 6);
		KUNIT_EXPECT_EQ_MSG(test, smpl_fmt_count(b), 1U, "answer %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, desc, 0),
				    c[i].pmd0, "answer %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pfmk_get_state(desc),
				    c[i].masked ? SMPL_MASKED : SMPL_STARTED,
				    "answer %u", i);
		smpl_stats(test, desc, &st);
		KUNIT_EXPECT_EQ_MSG(test, st.smpl_count, 1ULL, "answer %u", i);
		KUNIT_EXPECT_EQ_MSG(test, st.notify_count, c[i].msg ? 1ULL : 0,
				    "answer %u", i);
		if (c[i].msg) {
			/* The message comes through the context's irq_work. */
			pfmkt_wait_notify(test);
			smpl_expect_msg(test, desc, 0, cpu);
		} else {
			smpl_expect_no_msg(test, desc);
		}
		if (c[i].masked) {
			KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
			KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, desc, 0),
					    -10ULL, "answer %u", i);
			KUNIT_EXPECT_EQ_MSG(test, b->restarts, 1U,
					    "answer %u", i);
			KUNIT_EXPECT_EQ_MSG(test, b->count, 0U, "answer %u", i);
			KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
					SMPL_STARTED);
		} else {
			KUNIT_EXPECT_EQ(test, pfmk_restart(desc), -EBUSY);
			KUNIT_EXPECT_EQ_MSG(test, b->restarts, 0U,
					    "answer %u", i);
		}
		pfmkt_close(test, desc);
	}
}

static struct kunit_case pfmk_smpl_notify_cases[] = {
	KUNIT_CASE(smpl_notify_msg),
	KUNIT_CASE(smpl_notify_no_msg),
	KUNIT_CASE(smpl_notify_queue_full),
	KUNIT_CASE(smpl_notify_buffer_full),
	KUNIT_CASE(smpl_notify_full_before_entry),
	KUNIT_CASE(smpl_notify_full_silent),
	KUNIT_CASE(smpl_notify_only_when_full),
	KUNIT_CASE(smpl_notify_blocked_reader),
	KUNIT_CASE(smpl_notify_close_masked),
	KUNIT_CASE(smpl_notify_unload),
	KUNIT_CASE(smpl_fmt_args),
	KUNIT_CASE(smpl_fmt_ctrl_answers),
	{}
};

struct kunit_suite pfmk_smpl_notify_suite = {
	.name = "pfmk_smpl_notify",
	.suite_init = smpl_fmt_suite_init,
	.suite_exit = smpl_fmt_suite_exit,
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_notify_cases,
};

/* pfmk_smpl_cpuclock */

#define CLOCK_PERIOD		100000ULL		/* ns: 10 kHz */
#define CLOCK_RUN_MS		2000
#define CLOCK_BUF		(256ULL << 10)

/**
 * struct clock_ctx - one cpu-clock sampling context
 * @desc: the descriptor.
 * @buf: its buffer.
 * @cpu: its CPU.
 * @t_start: ktime_get_ns() before pfmk_start().
 * @t_stop: ktime_get_ns() after pfmk_stop().
 * @entries: entries read from the buffer.
 * @fills: buffers drained on notification.
 * @bad: malformed entries.
 */
struct clock_ctx {
	void	*desc;
	void	*buf;
	int	cpu;
	u64	t_start;
	u64	t_stop;
	u64	entries;
	u64	fills;
	u64	bad;
};

/* Check and count the entries of @c's buffer. */
static void clock_read_entries(struct kunit *test, struct clock_ctx *c)
{
	const struct pfm_dfl_smpl_entry *ent;
	u64 i, n = smpl_hdr_count(c->buf), tstamp = 0;

	for (i = 0; i < n; i++) {
		ent = smpl_entry(c->buf, i, 0);
		if (ent->ovfl_pmd || ent->cpu != c->cpu || ent->set ||
		    ent->last_reset_val != -CLOCK_PERIOD ||
		    !ent->tstamp || ent->tstamp < tstamp) {
			if (!c->bad)
				KUNIT_FAIL(test,
					   "CPU %d entry %llu: pmd %u cpu %u set %u reset %#llx tstamp %llu after %llu",
					   c->cpu, i, ent->ovfl_pmd, ent->cpu,
					   ent->set, ent->last_reset_val,
					   ent->tstamp, tstamp);
			c->bad++;
		}
		tstamp = ent->tstamp;
	}
	c->entries += n;
}

/* Drain a full buffer: read it, restart, read the message. */
static void clock_drain(struct kunit *test, struct clock_ctx *c)
{
	clock_read_entries(test, c);
	KUNIT_ASSERT_EQ(test, pfmk_restart(c->desc), 0);
	c->fills++;
	smpl_expect_msg(test, c->desc, 0, c->cpu);
}

/*
 * cpu-clock at 10 kHz on every online CPU for 2 s, draining on
 * notifications.  Timers of an emulated guest fire late: the periods a
 * late interrupt skipped count in ovfl_missed.
 */
static void smpl_cpuclock_10khz(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	struct clock_ctx *ctx;
	struct pfmk_ctx_stats st;
	unsigned int nr = 0, i;
	u64 end, expected, got;
	int cpu, state;

	ctx = kunit_kcalloc(test, nr_cpu_ids, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	for_each_online_cpu(cpu) {
		struct clock_ctx *c = &ctx[nr++];

		c->cpu = cpu;
		c->desc = smpl_create(test, "", 0, CLOCK_BUF, &c->buf);
		pfmkt_write_pmc(test, c->desc, 0,
				PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK));
		/* Notified when the buffer is full (perfmon2 2.2). */
		smpl_write_sampler(test, c->desc, 0, CLOCK_PERIOD,
				   PFM_REGFL_OVFL_NOTIFY, 0);
		pfmkt_load(test, c->desc, cpu);
	}

	for (i = 0; i < nr; i++) {
		ctx[i].t_start = ktime_get_ns();
		KUNIT_ASSERT_EQ(test, pfmk_start(ctx[i].desc, NULL), 0);
	}
	end = ktime_get_ns() + CLOCK_RUN_MS * NSEC_PER_MSEC;
	while (ktime_get_ns() < end) {
		wait_for_completion_timeout(&priv->done, msecs_to_jiffies(10));
		for (i = 0; i < nr; i++) {
			state = pfmk_get_state(ctx[i].desc);
			if (state == SMPL_MASKED)
				clock_drain(test, &ctx[i]);
			else
				KUNIT_ASSERT_EQ(test, state, SMPL_STARTED);
		}
	}
	for (i = 0; i < nr; i++) {
		KUNIT_ASSERT_EQ(test, pfmk_stop(ctx[i].desc), 0);
		ctx[i].t_stop = ktime_get_ns();
	}

	for (i = 0; i < nr; i++) {
		struct clock_ctx *c = &ctx[i];
		bool masked = pfmk_get_state(c->desc) == PFM_CTX_MASKED;

		clock_read_entries(test, c);
		smpl_stats(test, c->desc, &st);
		expected = div_u64(c->t_stop - c->t_start, CLOCK_PERIOD);
		got = st.smpl_count + st.ovfl_missed;
		kunit_info(test,
			   "CPU %d: %llu ms, expected %llu: smpl_count %llu ovfl_missed %llu ovfl_masked %llu throttled %llu ovfl_count %llu fills %llu\n",
			   c->cpu, div_u64(c->t_stop - c->t_start,
					   NSEC_PER_MSEC),
			   expected, st.smpl_count, st.ovfl_missed,
			   st.ovfl_masked, st.throttled, st.ovfl_count,
			   c->fills);
		KUNIT_EXPECT_EQ(test, c->bad, 0ULL);
		KUNIT_EXPECT_EQ(test, st.smpl_count, c->entries);
		KUNIT_EXPECT_EQ(test, st.notify_count, c->fills + masked);
		KUNIT_EXPECT_EQ(test, st.restarts, c->fills);
		KUNIT_EXPECT_EQ(test, st.msgs_dropped, 0ULL);
		KUNIT_EXPECT_EQ(test, st.ovfl_count,
				st.smpl_count + st.ovfl_masked);
		KUNIT_EXPECT_GT(test, st.smpl_count, 0ULL);
		if (st.throttled)
			continue;
		KUNIT_EXPECT_GE_MSG(test, got * 10, expected * 8, "CPU %d",
				    c->cpu);
		KUNIT_EXPECT_LE_MSG(test, got * 10, expected * 12, "CPU %d",
				    c->cpu);
	}
	for (i = 0; i < nr; i++)
		pfmkt_close(test, ctx[i].desc);
}

#define SPIN_PERIOD		1000000ULL		/* ns: 1 ms */
#define SPIN_MAX		(2 * HZ)

/**
 * struct clock_spinner - a kernel thread spinning on one CPU
 * @spinning: set once it spins, with softirqs (and preemption) off.
 * @stop: set by the test to end the spin.
 * @gave_up: it stopped on its own timeout, not on @stop.
 * @done: completed when it no longer spins.
 */
struct clock_spinner {
	bool			spinning;
	bool			stop;
	bool			gave_up;
	struct completion	done;
};

/*
 * Spins, bounded by SPIN_MAX, until the test says stop.  With softirqs
 * off nothing else runs on its CPU meanwhile but hard interrupts, which
 * the cpu-clock hrtimer's interrupt cannot nest in: an overflow of the
 * spin interrupts this function, in this task.  Without KASAN's calls in
 * the loop (6.1's KASAN_OUTLINE), its ip is in this function.
 */
static int __no_sanitize_address clock_spinner_fn(void *data)
{
	struct clock_spinner *s = data;
	unsigned long end;

	local_bh_disable();
	end = jiffies + SPIN_MAX;
	WRITE_ONCE(s->spinning, true);
	/*
	 * Not cpu_relax(): arm64's is plain inline, which GCC does not inline
	 * into this unsanitized function, and the ip would name it instead.
	 */
	while (!READ_ONCE(s->stop) && time_before(jiffies, end))
		barrier();
	s->gave_up = !READ_ONCE(s->stop);
	local_bh_enable();
	complete(&s->done);
	return pfmkt_kthread_park();
}

/*
 * The message and the entry of an overflow name the task it interrupted:
 * a kernel thread spins on another CPU, whose cpu-clock context is
 * started only once it spins.  The first overflow fills the one-entry
 * buffer: one entry, one message, the context masked.  Its tid is the
 * thread's pid, its pid the thread's tgid, its ip in the spinning function.
 */
static void smpl_cpuclock_msg_task(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	char *ip_sym, *fn_sym;
	const struct pfm_dfl_smpl_entry *ent;
	struct clock_spinner *s;
	struct pfm_ovfl_msg *m;
	struct task_struct *k;
	unsigned long end, notified;
	union pfm_msg msg;
	pid_t pid, tgid;
	void *desc, *buf;
	int cpu;

	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids)
		kunit_skip(test, "needs a second online CPU");
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	init_completion(&s->done);
	/* Symbol names: too large for the stack. */
	ip_sym = kunit_kzalloc(test, 2 * KSYM_SYMBOL_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ip_sym);
	fn_sym = ip_sym + KSYM_SYMBOL_LEN;

	desc = smpl_create(test, "", 0, SMPL_HDR + SMPL_GEN_MIN, &buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK));
	smpl_write_sampler(test, desc, 0, SPIN_PERIOD, PFM_REGFL_OVFL_NOTIFY,
			   0);
	pfmkt_load(test, desc, cpu);

	k = kthread_create(clock_spinner_fn, s, "pfmk_spin/%d", cpu);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	kthread_bind(k, cpu);
	pid = task_pid_nr(k);
	tgid = task_tgid_nr(k);
	wake_up_process(k);

	/*
	 * Sleep on an hrtimer: were this thread moved to the spinning CPU, a
	 * timer-wheel timeout would wait there for the end of the spin.
	 */
	end = jiffies + SMPL_TIMEOUT;
	while (!READ_ONCE(s->spinning) && time_before(jiffies, end))
		usleep_range(100, 200);
	notified = 0;
	if (READ_ONCE(s->spinning)) {
		KUNIT_EXPECT_EQ(test, pfmk_start(desc, NULL), 0);
		notified = wait_for_completion_timeout(&priv->done,
						       SMPL_TIMEOUT);
	}
	WRITE_ONCE(s->stop, true);
	wait_for_completion(&s->done);
	kthread_stop(k);
	KUNIT_ASSERT_TRUE_MSG(test, READ_ONCE(s->spinning),
			      "the thread on CPU %d did not spin", cpu);
	/* Not a failure: the test may have been slow to see the notification. */
	if (s->gave_up)
		kunit_info(test, "the spin timed out after %d ms\n",
			   jiffies_to_msecs(SPIN_MAX));
	KUNIT_ASSERT_NE_MSG(test, notified, 0UL, "no notification");
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), SMPL_MASKED);
	snprintf(fn_sym, KSYM_SYMBOL_LEN, "%ps", clock_spinner_fn);

	memset(&msg, 0x5a, sizeof(msg));
	KUNIT_ASSERT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)sizeof(msg));
	m = &msg.pfm_ovfl_msg;
	KUNIT_EXPECT_EQ(test, msg.type, (u32)PFM_MSG_OVFL);
	KUNIT_EXPECT_EQ(test, m->msg_ovfl_pmds[0], 1ULL);
	KUNIT_EXPECT_EQ(test, m->msg_ovfl_cpu, (u16)cpu);
	KUNIT_EXPECT_EQ(test, (pid_t)m->msg_ovfl_tid, pid);
	KUNIT_EXPECT_EQ(test, (pid_t)m->msg_ovfl_pid, tgid);
	snprintf(ip_sym, KSYM_SYMBOL_LEN, "%ps", (void *)m->msg_ovfl_ip);
	KUNIT_EXPECT_STREQ_MSG(test, ip_sym, fn_sym, "msg_ovfl_ip %pS",
			       (void *)m->msg_ovfl_ip);
	KUNIT_EXPECT_GE(test, m->msg_ovfl_ip,
			(u64)(unsigned long)clock_spinner_fn);
	smpl_expect_no_msg(test, desc);

	KUNIT_ASSERT_EQ(test, smpl_hdr_count(buf), 1ULL);
	ent = smpl_entry(buf, 0, 0);
	KUNIT_EXPECT_EQ(test, ent->cpu, (u16)cpu);
	KUNIT_EXPECT_EQ(test, (pid_t)ent->pid, pid);
	KUNIT_EXPECT_EQ(test, (pid_t)ent->tgid, tgid);
	KUNIT_EXPECT_EQ(test, ent->ip, m->msg_ovfl_ip);
	pfmkt_close(test, desc);
}

static struct kunit_case pfmk_smpl_cpuclock_cases[] = {
	KUNIT_CASE_SLOW(smpl_cpuclock_10khz),
	KUNIT_CASE(smpl_cpuclock_msg_task),
	{}
};

struct kunit_suite pfmk_smpl_cpuclock_suite = {
	.name = "pfmk_smpl_cpuclock",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_cpuclock_cases,
};
