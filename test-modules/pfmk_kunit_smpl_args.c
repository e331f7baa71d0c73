// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_smpl_args: creation with the default sampling
 * format (Documentation/sampling.rst), its header and its argument checks;
 * pfmk_get_stats() arguments.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

#define SMPL_TEST_MIN		(PFMKT_ENTRY + 8 * PFMK_TEST_NUM_PMCS)
#define SMPL_GEN_MIN		(PFMKT_ENTRY + 8 * PFMK_GENERIC_NUM_PMCS)
#define SMPL_BUF_MAX		(64ULL << 20)
#define SMPL_ARG_SIZE		sizeof(struct pfm_dfl_smpl_arg)

/*
 * hdr_min_buf_space is an entry with every PMD of the description; the
 * layout of <pfmk/smpl_dfl.h> itself is checked by kapi/abi.c.
 */
static_assert(SMPL_TEST_MIN == 40 + 8 * 8);
static_assert(SMPL_GEN_MIN == 40 + 8 * 64);

/**
 * struct smpl_good_create - a creation that succeeds
 * @pmu: the description.
 * @size: the buffer size asked for.
 * @min: the hdr_min_buf_space the header must say.
 */
struct smpl_good_create {
	const char	*pmu;
	u64		size;
	u64		min;
};

static const struct smpl_good_create smpl_good_creates[] = {
	{ PFMK_TEST_PMU_NAME, 4096, SMPL_TEST_MIN },
	{ PFMK_TEST_PMU_NAME, PFMKT_HDR + SMPL_TEST_MIN, SMPL_TEST_MIN },
	{ PFMK_TEST_PMU_NAME, 1000003, SMPL_TEST_MIN },
	{ PFMK_TEST_PMU_NAME, SMPL_BUF_MAX, SMPL_TEST_MIN },
	{ "", 8192, SMPL_GEN_MIN },
	{ PFMK_GENERIC_NAME, PFMKT_HDR + SMPL_GEN_MIN, SMPL_GEN_MIN },
};

static void smpl_good_create_desc(const struct smpl_good_create *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %llu bytes",
		 c->pmu[0] ? c->pmu : "generic", c->size);
}

KUNIT_ARRAY_PARAM(smpl_good_create, smpl_good_creates, smpl_good_create_desc);

/*
 * A creation with the default format from the row @c of
 * smpl_good_creates, ctx_fd and ctx_smpl_buf_size set to be overwritten:
 * the buffer in @buf, the request in @req, the buf_flags in @buf_flags.
 */
static void *smpl_args_created(struct kunit *test,
			       const struct smpl_good_create *c,
			       struct pfarg_ctx *req, u32 *buf_flags,
			       void **buf)
{
	struct pfm_dfl_smpl_arg arg;
	void *desc = NULL;

	*buf_flags = 0xa5000000 | (u32)(c - smpl_good_creates);
	*buf = NULL;
	pfmkt_ctx_req(req, c->pmu, 0, true);
	req->ctx_fd = 77;
	req->ctx_smpl_buf_size = 99;
	memset(&arg, 0, sizeof(arg));
	arg.buf_size = c->size;
	arg.buf_flags = *buf_flags;
	KUNIT_ASSERT_EQ(test, pfmkt_try_create_arg(test, req, &arg,
						   sizeof(arg), &desc, buf),
			0);
	KUNIT_ASSERT_NOT_NULL(test, *buf);
	return desc;
}

/*
 * The request answered: ctx_fd -1 (no file), ctx_smpl_buf_size; the
 * context unloaded.
 */
static void smpl_args_create(struct kunit *test)
{
	const struct smpl_good_create *c = test->param_value;
	struct pfarg_ctx req;
	u32 buf_flags;
	void *desc, *buf;

	desc = smpl_args_created(test, c, &req, &buf_flags, &buf);
	KUNIT_EXPECT_EQ(test, req.ctx_fd, -1);
	KUNIT_EXPECT_EQ(test, req.ctx_smpl_buf_size, c->size);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/* The buffer's header initialized, empty. */
static void smpl_args_create_hdr(struct kunit *test)
{
	const struct smpl_good_create *c = test->param_value;
	struct pfm_dfl_smpl_hdr *hdr;
	struct pfarg_ctx req;
	u32 buf_flags;
	void *buf;

	smpl_args_created(test, c, &req, &buf_flags, &buf);
	hdr = buf;
	KUNIT_EXPECT_EQ(test, hdr->hdr_version, PFM_DFL_SMPL_VERSION);
	KUNIT_EXPECT_EQ(test, hdr->hdr_buf_size, c->size);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, (u64)PFMKT_HDR);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 0ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 0ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_min_buf_space, c->min);
	KUNIT_EXPECT_EQ(test, hdr->hdr_buf_flags, buf_flags);
}

/* The buffer's address is an optional output. */
static void smpl_args_create_no_buf_out(struct kunit *test)
{
	struct pfm_dfl_smpl_arg arg;
	struct pfarg_ctx req;
	void *desc = NULL;

	pfmkt_ctx_req(&req, PFMK_TEST_PMU_NAME, 0, true);
	memset(&arg, 0, sizeof(arg));
	arg.buf_size = 4096;
	KUNIT_ASSERT_EQ(test, pfmkt_try_create_arg(test, &req, &arg,
						   sizeof(arg), &desc, NULL),
			0);
	KUNIT_EXPECT_EQ(test, req.ctx_smpl_buf_size, 4096ULL);
}

/* Without a format: no buffer, and ctx_smpl_buf_size says 0. */
static void smpl_args_create_no_format(struct kunit *test)
{
	struct pfarg_ctx req;
	void *desc = NULL, *buf;

	pfmkt_ctx_req(&req, PFMK_TEST_PMU_NAME, 0, false);
	req.ctx_smpl_buf_size = 99;
	buf = &req;
	KUNIT_ASSERT_EQ(test, pfmkt_try_create_arg(test, &req, NULL, 0, &desc,
						   &buf), 0);
	KUNIT_EXPECT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, req.ctx_smpl_buf_size, 0ULL);
}

static const u8 smpl_uuid_unknown[16] = {
	0xd1, 0x39, 0xb2, 0x9e, 0x62, 0xe8, 0x40, 0xe4,
	0xb4, 0x02, 0x73, 0x07, 0x87, 0x92, 0xe9, 0x38,
};

static const u8 smpl_uuid_last_byte[16] = { [15] = 1 };

/**
 * struct smpl_bad_create - a creation that is refused
 * @what: the description of the case.
 * @pmu: the description.
 * @dfl: with the default format's uuid.
 * @uuid: another uuid, or NULL.
 * @arg: with an argument (else NULL).
 * @size: the argument's size.
 * @buf_size: the buffer size in the argument.
 * @err: the errno.
 */
struct smpl_bad_create {
	const char	*what;
	const char	*pmu;
	bool		dfl;
	const u8	*uuid;
	bool		arg;
	size_t		size;
	u64		buf_size;
	int		err;
};

#define SMPL_T	PFMK_TEST_PMU_NAME
#define SMPL_SZ	SMPL_ARG_SIZE

static const struct smpl_bad_create smpl_bad_creates[] = {
	{ "unknown uuid", SMPL_T, false, smpl_uuid_unknown, true, SMPL_SZ,
	  4096, -EINVAL },
	{ "uuid 0...01", SMPL_T, false, smpl_uuid_last_byte, true, SMPL_SZ,
	  4096, -EINVAL },
	{ "format without argument", SMPL_T, true, NULL, false, 0, 4096,
	  -EINVAL },
	{ "format, NULL argument with a size", SMPL_T, true, NULL, false,
	  SMPL_SZ, 4096, -EINVAL },
	{ "format, argument of size 0", SMPL_T, true, NULL, true, 0, 4096,
	  -EINVAL },
	{ "format, argument too short", SMPL_T, true, NULL, true, SMPL_SZ - 1,
	  4096, -EINVAL },
	{ "format, argument too long", SMPL_T, true, NULL, true, SMPL_SZ + 8,
	  4096, -EINVAL },
	{ "argument without format", SMPL_T, false, NULL, true, SMPL_SZ, 4096,
	  -EINVAL },
	{ "size without format", SMPL_T, false, NULL, false, SMPL_SZ, 4096,
	  -EINVAL },
	{ "test PMU: one byte too small", SMPL_T, true, NULL, true, SMPL_SZ,
	  PFMKT_HDR + SMPL_TEST_MIN - 1, -EINVAL },
	{ "generic: one byte too small", "", true, NULL, true, SMPL_SZ,
	  PFMKT_HDR + SMPL_GEN_MIN - 1, -EINVAL },
	{ "generic: test PMU minimum", "", true, NULL, true, SMPL_SZ,
	  PFMKT_HDR + SMPL_TEST_MIN, -EINVAL },
	{ "size 0", SMPL_T, true, NULL, true, SMPL_SZ, 0, -EINVAL },
	{ "64 MiB + 1", SMPL_T, true, NULL, true, SMPL_SZ, SMPL_BUF_MAX + 1,
	  -E2BIG },
	{ "U64_MAX", SMPL_T, true, NULL, true, SMPL_SZ, U64_MAX, -E2BIG },
	/* The other checks still apply with a format. */
	{ "unknown PMU", "no_such_pmu", true, NULL, true, SMPL_SZ, 4096,
	  -ENOENT },
};

static void smpl_bad_create_desc(const struct smpl_bad_create *c, char *desc)
{
	strscpy(desc, c->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(smpl_bad_create, smpl_bad_creates, smpl_bad_create_desc);

/* Rejected formats, arguments and buffer sizes: the documented errno. */
static void smpl_args_errors(struct kunit *test)
{
	const struct smpl_bad_create *c = test->param_value;
	struct {
		struct pfm_dfl_smpl_arg arg;
		u64 extra;
	} big;
	struct pfarg_ctx req;
	void *desc = NULL, *buf = NULL;
	int ret;

	memset(&big, 0, sizeof(big));
	big.arg.buf_size = c->buf_size;
	pfmkt_ctx_req(&req, c->pmu, 0, c->dfl);
	if (c->uuid)
		memcpy(req.ctx_smpl_buf_id, c->uuid, sizeof(pfm_uuid_t));
	ret = pfmkt_try_create_arg(test, &req, c->arg ? &big.arg : NULL,
				   c->size, &desc, &buf);
	KUNIT_EXPECT_EQ_MSG(test, ret, c->err, "%s", c->what);
}

/* pfmk_get_stats() with no output: -EINVAL. */
static void smpl_args_stats_null(struct kunit *test)
{
	void *desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, 4096, NULL);

	KUNIT_EXPECT_EQ(test, pfmk_get_stats(desc, NULL), -EINVAL);
}

/* A new context's statistics are all 0, the reserved words too. */
static void smpl_args_stats_zero(struct kunit *test)
{
	void *desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, 4096, NULL);

	pfmkt_expect_stats(test, desc, &(struct pfmk_ctx_stats){});
}

/* What a row of smpl_bad_descs[] passes to pfmk_get_stats(). */
enum smpl_bad_kind {
	SMPL_BAD_CLOSED,
	SMPL_BAD_ADDR,
	SMPL_BAD_LOCAL,
};

/**
 * struct smpl_bad_desc - a descriptor pfmk_get_stats() refuses
 * @what: the description of the row.
 * @kind: a closed context's, an address, or a pointer to the stack.
 * @addr: the address, for SMPL_BAD_ADDR.
 * @null_st: @st is NULL too.
 */
struct smpl_bad_desc {
	const char		*what;
	enum smpl_bad_kind	kind;
	unsigned long		addr;
	bool			null_st;
};

static const struct smpl_bad_desc smpl_bad_descs[] = {
	{ "closed", SMPL_BAD_CLOSED },
	{ "closed, NULL st", SMPL_BAD_CLOSED, .null_st = true },
	{ "NULL", SMPL_BAD_ADDR, 0 },
	{ "0x1234", SMPL_BAD_ADDR, 0x1234 },
	{ "&local", SMPL_BAD_LOCAL },
};

static void smpl_bad_desc_desc(const struct smpl_bad_desc *b, char *desc)
{
	strscpy(desc, b->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(smpl_bad_desc, smpl_bad_descs, smpl_bad_desc_desc);

/* A closed, NULL or forged descriptor: -EBADF, checked before @st. */
static void smpl_args_stats_bad_desc(struct kunit *test)
{
	const struct smpl_bad_desc *b = test->param_value;
	struct pfmk_ctx_stats st;
	int local = 0;
	void *desc;

	if (b->kind == SMPL_BAD_CLOSED) {
		desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, 4096,
					NULL);
		pfmkt_close(test, desc);
	} else {
		desc = b->kind == SMPL_BAD_LOCAL ? &local : (void *)b->addr;
	}
	KUNIT_EXPECT_EQ(test, pfmk_get_stats(desc, b->null_st ? NULL : &st),
			-EBADF);
}

static struct kunit_case pfmk_smpl_args_cases[] = {
	KUNIT_CASE_PARAM(smpl_args_create, smpl_good_create_gen_params),
	KUNIT_CASE_PARAM(smpl_args_create_hdr, smpl_good_create_gen_params),
	KUNIT_CASE(smpl_args_create_no_buf_out),
	KUNIT_CASE(smpl_args_create_no_format),
	KUNIT_CASE_PARAM(smpl_args_errors, smpl_bad_create_gen_params),
	KUNIT_CASE(smpl_args_stats_null),
	KUNIT_CASE(smpl_args_stats_zero),
	KUNIT_CASE_PARAM(smpl_args_stats_bad_desc, smpl_bad_desc_gen_params),
	{}
};

static struct kunit_suite pfmk_smpl_args_suite = {
	.name = "pfmk_smpl_args",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_args_cases,
};

kunit_test_suites(&pfmk_smpl_args_suite);
