// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_api_args: argument checking of every KAPI call.
 *
 * Descriptors (NULL, garbage, kernel pointers, forged, closed), context
 * creation requests, load and start arguments, pfmk_read() arguments,
 * the sets getinfo_evtsets names.  Failing calls must change nothing.
 * The vector counts, PMC values and vector atomicity are
 * pfmk_kunit_api_vec.c's; the register numbers, sets and flags of the
 * register calls pfmk_kunit_api_regs.c's.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

/*
 * The calls a descriptor that is not one must fail with -EBADF: every call
 * with valid arguments otherwise, pfmk_read() blocking or not, then calls
 * with a bad argument besides (-EBADF is checked before anything else)
 * and pfmk_close().
 */
enum api_call {
	API_C_WRITE_PMCS,
	API_C_WRITE_PMDS,
	API_C_READ_PMDS,
	API_C_READ_PMDS_TIME,
	API_C_RESTART,
	API_C_STOP,
	API_C_START,
	API_C_LOAD,
	API_C_UNLOAD,
	API_C_DELETE_SETS,
	API_C_CREATE_SETS,
	API_C_GETINFO_SETS,
	API_C_GET_STATE,
	API_C_READ_NONBLOCK,
	API_C_READ_BLOCK,
	API_C_WRITE_PMCS_BAD,
	API_C_WRITE_PMDS_NULL,
	API_C_READ_PMDS_BAD,
	API_C_READ_PMDS_TIME_NULL,
	API_C_LOAD_NULL,
	API_C_GETINFO_SETS_BAD,
	API_C_READ_NULL,
	API_C_CLOSE,
	API_NR_CALLS
};

static const char * const api_call_names[API_NR_CALLS] = {
	"write_pmcs", "write_pmds", "read_pmds", "read_pmds_time", "restart",
	"stop", "start", "load_context", "unload_context", "delete_evtsets",
	"create_evtsets", "getinfo_evtsets", "get_state", "read_nonblocking",
	"read_blocking", "write_pmcs_null_neg", "write_pmds_null",
	"read_pmds_null_int_max", "read_pmds_time_null_time",
	"load_context_null", "getinfo_evtsets_null_neg", "read_null_0",
	"close",
};

/* The register calls of enum api_call, valid arguments but @desc. */
static long api_call_regs(void *desc, enum api_call call)
{
	struct pfmk_pmd_time time;
	struct pfarg_pmc pmc;
	struct pfarg_pmd pmd;

	memset(&pmc, 0, sizeof(pmc));
	memset(&pmd, 0, sizeof(pmd));
	switch (call) {
	case API_C_WRITE_PMCS:
		return pfmk_write_pmcs(desc, &pmc, 1);
	case API_C_WRITE_PMDS:
		return pfmk_write_pmds(desc, &pmd, 1);
	case API_C_READ_PMDS:
		return pfmk_read_pmds(desc, &pmd, 1);
	case API_C_READ_PMDS_TIME:
		return pfmk_read_pmds_time(desc, &pmd, &time, 1);
	case API_C_WRITE_PMCS_BAD:
		return pfmk_write_pmcs(desc, NULL, -1);
	case API_C_WRITE_PMDS_NULL:
		return pfmk_write_pmds(desc, NULL, 1);
	case API_C_READ_PMDS_BAD:
		return pfmk_read_pmds(desc, NULL, INT_MAX);
	default:
		return pfmk_read_pmds_time(desc, &pmd, NULL, 1);
	}
}

/* The control and set calls of enum api_call, valid arguments but @desc. */
static long api_call_ctl(void *desc, enum api_call call)
{
	struct pfarg_setdesc setdesc;
	struct pfarg_setinfo setinfo;
	struct pfarg_start start;
	struct pfarg_load load;

	memset(&setdesc, 0, sizeof(setdesc));
	memset(&setinfo, 0, sizeof(setinfo));
	memset(&start, 0, sizeof(start));
	memset(&load, 0, sizeof(load));
	load.load_pid = pfmkt_cpu();
	switch (call) {
	case API_C_RESTART:
		return pfmk_restart(desc);
	case API_C_STOP:
		return pfmk_stop(desc);
	case API_C_START:
		return pfmk_start(desc, &start);
	case API_C_LOAD:
		return pfmk_load_context(desc, &load);
	case API_C_UNLOAD:
		return pfmk_unload_context(desc);
	case API_C_DELETE_SETS:
		return pfmk_delete_evtsets(desc, &setinfo, 1);
	case API_C_CREATE_SETS:
		return pfmk_create_evtsets(desc, &setdesc, 1);
	case API_C_GETINFO_SETS:
		return pfmk_getinfo_evtsets(desc, &setinfo, 1);
	case API_C_GET_STATE:
		return pfmk_get_state(desc);
	case API_C_LOAD_NULL:
		return pfmk_load_context(desc, NULL);
	case API_C_GETINFO_SETS_BAD:
		return pfmk_getinfo_evtsets(desc, NULL, -5);
	default:
		return pfmk_close(desc);
	}
}

/* @call of enum api_call on @desc.  Return: what it returned. */
static long api_call(struct kunit *test, void *desc, enum api_call call)
{
	struct pfmkt_priv *priv = test->priv;
	union pfm_msg msg;
	long ret;

	switch (call) {
	case API_C_WRITE_PMCS ... API_C_READ_PMDS_TIME:
	case API_C_WRITE_PMCS_BAD ... API_C_READ_PMDS_TIME_NULL:
		return api_call_regs(desc, call);
	case API_C_READ_NONBLOCK:
		return pfmk_read(desc, &msg, sizeof(msg), 1);
	case API_C_READ_BLOCK:
		/* Must not wait: if it does, the completion wakes it with 0. */
		complete(&priv->done);
		ret = pfmk_read(desc, &msg, sizeof(msg), 0);
		reinit_completion(&priv->done);
		return ret;
	case API_C_READ_NULL:
		return pfmk_read(desc, NULL, 0, 1);
	default:
		return api_call_ctl(desc, call);
	}
}

/* Every call on @desc fails with -EBADF, whatever its other arguments. */
static void api_expect_ebadf(struct kunit *test, void *desc, const char *what)
{
	unsigned int c;

	for (c = 0; c < API_NR_CALLS; c++)
		KUNIT_EXPECT_EQ_MSG(test, api_call(test, desc, c), (long)-EBADF,
				    "%s: %s", what, api_call_names[c]);
}

/*
 * A table over descriptor kinds and calls is an array of one byte a row,
 * its contents unused: row i is kind i / API_NR_CALLS, call
 * i % API_NR_CALLS of enum api_call.
 */
static unsigned int api_row_kind(const u8 *rows, const u8 *row)
{
	return (row - rows) / API_NR_CALLS;
}

static enum api_call api_row_call(const u8 *rows, const u8 *row)
{
	return (row - rows) % API_NR_CALLS;
}

/* What a row of api_bad_handles[] passes as a descriptor. */
enum api_handle {
	API_HANDLE_ADDR,
	API_HANDLE_LOCAL,
	API_HANDLE_REQ,
	API_HANDLE_TEST,
};

/**
 * struct api_bad_handle - a pointer that is not a descriptor
 * @what: the description of the row.
 * @kind: an address, or a pointer to the case's stack or its test.
 * @addr: the address, for API_HANDLE_ADDR.
 */
struct api_bad_handle {
	const char	*what;
	enum api_handle	kind;
	unsigned long	addr;
};

static const struct api_bad_handle api_bad_handles[] = {
	{ "NULL", API_HANDLE_ADDR, 0 },
	{ "0x1234", API_HANDLE_ADDR, 0x1234 },
	{ "-1", API_HANDLE_ADDR, -1UL },
	{ "&local", API_HANDLE_LOCAL },
	{ "&req", API_HANDLE_REQ },
	{ "test", API_HANDLE_TEST },
	{ "1", API_HANDLE_ADDR, 1 },
};

/* The rows of api_bad_descriptors: a handle of api_bad_handles[], a call. */
static const u8 api_bad_handle_rows[ARRAY_SIZE(api_bad_handles) *
				    API_NR_CALLS];

static void api_bad_handle_desc(const u8 *row, char *desc)
{
	const u8 *rows = api_bad_handle_rows;

	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s",
		 api_bad_handles[api_row_kind(rows, row)].what,
		 api_call_names[api_row_call(rows, row)]);
}

KUNIT_ARRAY_PARAM(api_bad_handle, api_bad_handle_rows, api_bad_handle_desc);

/*
 * NULL, garbage and kernel pointers are not descriptors: each call fails
 * with -EBADF, and writes nothing through the pointer.
 */
static void api_bad_descriptors(struct kunit *test)
{
	const u8 *rows = api_bad_handle_rows, *row = test->param_value;
	const struct api_bad_handle *h;
	struct pfarg_ctx req;
	int local = 0;
	void *desc;

	h = &api_bad_handles[api_row_kind(rows, row)];
	switch (h->kind) {
	case API_HANDLE_LOCAL:
		desc = &local;
		break;
	case API_HANDLE_REQ:
		desc = &req;
		break;
	case API_HANDLE_TEST:
		desc = test;
		break;
	default:
		desc = (void *)h->addr;
	}
	KUNIT_EXPECT_EQ(test, api_call(test, desc, api_row_call(rows, row)),
			(long)-EBADF);
	/* Nothing wrote through the pointer. */
	KUNIT_EXPECT_EQ(test, local, 0);
}

/* The rows of api_forged_descriptors: the bit of the handle flipped. */
static const u8 api_forged_rows[BITS_PER_LONG];

static void api_forged_desc(const u8 *row, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "bit %td", row - api_forged_rows);
}

KUNIT_ARRAY_PARAM(api_forged, api_forged_rows, api_forged_desc);

/*
 * A context and another, created after it; returns the first's handle
 * with bit @bit flipped.  Never the other's: the flip keeps either the
 * first's slot or its cookie, and consecutive contexts differ in both
 * (core/desc.c).
 */
static void *api_forged_handle(struct kunit *test, unsigned int bit)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	void *other = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	void *forged = (void *)((unsigned long)desc ^ BIT(bit));

	KUNIT_ASSERT_PTR_NE(test, forged, other);
	return forged;
}

/*
 * A valid handle with a bit flipped is not one: every call fails with
 * -EBADF on it, next to another live context.
 */
static void api_forged_descriptors(struct kunit *test)
{
	unsigned int bit = (const u8 *)test->param_value - api_forged_rows;
	char what[16];

	snprintf(what, sizeof(what), "bit %u", bit);
	api_expect_ebadf(test, api_forged_handle(test, bit), what);
}

/*
 * Every call on every such forged handle leaves the real one, and the
 * other context, as they were (what the calls return is
 * api_forged_descriptors').
 */
static void api_forged_descriptors_unaffected(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	void *other = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	unsigned long h = (unsigned long)desc;
	unsigned int bit, c;

	for (bit = 0; bit < BITS_PER_LONG; bit++) {
		if ((void *)(h ^ BIT(bit)) == other)
			continue;
		for (c = 0; c < API_NR_CALLS; c++)
			api_call(test, (void *)(h ^ BIT(bit)), c);
	}
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(other), PFM_CTX_UNLOADED);
}

/*
 * Nor is a valid handle plus or minus 1, or inverted: every call fails
 * with -EBADF, and the real one still works.
 */
static void api_forged_descriptors_near(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	unsigned long h = (unsigned long)desc;

	api_expect_ebadf(test, (void *)(h + 1), "desc + 1");
	api_expect_ebadf(test, (void *)(h - 1), "desc - 1");
	api_expect_ebadf(test, (void *)~h, "~desc");
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/* The states a context of api_ctx_in() is in. */
enum api_state {
	API_UNLOADED,
	API_LOADED,
	API_STARTED,
};

static const char * const api_state_names[] = {
	[API_UNLOADED] = "unloaded",
	[API_LOADED] = "loaded",
	[API_STARTED] = "started",
};

/*
 * A context of the test PMU in @state on @cpu; loaded or started, with
 * PMC 0 counting step 1.
 */
static void *api_ctx_in(struct kunit *test, enum api_state state, int cpu)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	if (state == API_UNLOADED)
		return desc;
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	if (state == API_LOADED)
		pfmkt_load(test, desc, cpu);
	else
		pfmkt_load_start(test, desc, cpu);
	return desc;
}

/* The rows of api_closed_descriptors: a state of enum api_state, a call. */
static const u8 api_closed_rows[ARRAY_SIZE(api_state_names) * API_NR_CALLS];

static void api_closed_desc(const u8 *row, char *desc)
{
	const u8 *rows = api_closed_rows;

	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "closed %s %s",
		 api_state_names[api_row_kind(rows, row)],
		 api_call_names[api_row_call(rows, row)]);
}

KUNIT_ARRAY_PARAM(api_closed, api_closed_rows, api_closed_desc);

/* A closed descriptor is dead, whatever state it was closed in. */
static void api_closed_descriptors(struct kunit *test)
{
	const u8 *rows = api_closed_rows, *row = test->param_value;
	void *desc = api_ctx_in(test, api_row_kind(rows, row), pfmkt_cpu());

	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, api_call(test, desc, api_row_call(rows, row)),
			(long)-EBADF);
}

/* Closing a started context releases its events. */
static void api_close_releases_events(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = api_ctx_in(test, API_STARTED, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* Which pointer argument of pfmk_create_context() a row passes as NULL. */
enum api_null {
	API_NULL_NONE,
	API_NULL_REQ,
	API_NULL_DONE,
	API_NULL_DESC,
};

/**
 * struct api_bad_create - a pfmk_create_context() call that is refused
 * @what: the description of the row.
 * @null: the pointer argument given as NULL.
 * @flags: ctx_flags.
 * @pmu: ctx_pmu_name (NULL: "").
 * @fill: how many leading bytes of ctx_pmu_name are 'x' instead.
 * @uuid_last: the last byte of ctx_smpl_buf_id.
 * @arg: with a sampling argument (else NULL).
 * @size: the argument's size.
 * @err: the errno.
 */
struct api_bad_create {
	const char	*what;
	enum api_null	null;
	u32		flags;
	const char	*pmu;
	u8		fill;
	u8		uuid_last;
	bool		arg;
	size_t		size;
	int		err;
};

#define API_SW		PFM_FL_SYSTEM_WIDE
#define API_NAME_LEN	PFMK_PMU_NAME_LEN

static const struct api_bad_create api_bad_creates[] = {
	{ "NULL request", API_NULL_REQ, API_SW, .err = -EINVAL },
	{ "NULL completion", API_NULL_DONE, API_SW, .err = -EINVAL },
	{ "NULL descriptor", API_NULL_DESC, API_SW, .err = -EINVAL },
	{ "no flags", .flags = 0, .err = -EINVAL },
	{ "OVFL_NO_MSG alone", .flags = PFM_FL_OVFL_NO_MSG, .err = -EINVAL },
	{ "NOTIFY_BLOCK", .flags = API_SW | PFM_FL_NOTIFY_BLOCK,
	  .err = -EINVAL },
	{ "MAP_SETS", .flags = API_SW | PFM_FL_MAP_SETS, .err = -EINVAL },
	{ "flag 0x8000", .flags = API_SW | 0x8000, .err = -EINVAL },
	{ "flag 0x80000000", .flags = API_SW | 0x80000000, .err = -EINVAL },
	{ "sampling format", .flags = API_SW, .uuid_last = 1, .err = -EINVAL },
	{ "argument of size 0, no format", .flags = API_SW, .arg = true,
	  .err = -EINVAL },
	{ "NULL argument with a size", .flags = API_SW, .size = 8,
	  .err = -EINVAL },
	{ "argument without format", .flags = API_SW, .arg = true, .size = 8,
	  .err = -EINVAL },
	{ "name not NUL-terminated", .flags = API_SW, .fill = API_NAME_LEN,
	  .err = -EINVAL },
	{ "unknown 31-character name", .flags = API_SW,
	  .fill = API_NAME_LEN - 1, .err = -ENOENT },
	{ "unknown name", .flags = API_SW, .pmu = "no_such_pmu",
	  .err = -ENOENT },
	{ "name in upper case", .flags = API_SW, .pmu = "PFMK_TEST",
	  .err = -ENOENT },
	{ "name with a trailing blank", .flags = API_SW, .pmu = "generic ",
	  .err = -ENOENT },
};

static void api_bad_create_desc(const struct api_bad_create *c, char *desc)
{
	strscpy(desc, c->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(api_bad_create, api_bad_creates, api_bad_create_desc);

/* pfmk_create_context() argument checks: the errno, no descriptor. */
static void api_create_args(struct kunit *test)
{
	const struct api_bad_create *c = test->param_value;
	struct pfmkt_priv *priv = test->priv;
	struct pfarg_ctx req;
	void *desc = NULL;
	u64 data = 0;
	int ret;

	pfmkt_ctx_req(&req, c->pmu ?: "", 0, false);
	req.ctx_flags = c->flags;
	memset(req.ctx_pmu_name, 'x', c->fill);
	req.ctx_smpl_buf_id[sizeof(pfm_uuid_t) - 1] = c->uuid_last;
	if (c->null == API_NULL_NONE)
		ret = pfmkt_try_create_arg(test, &req, c->arg ? &data : NULL,
					   c->size, &desc, NULL);
	else
		ret = pfmk_create_context(c->null == API_NULL_REQ ? NULL : &req,
					  NULL, 0,
					  c->null == API_NULL_DONE ?
					  NULL : &priv->done,
					  c->null == API_NULL_DESC ?
					  NULL : &desc, NULL);
	KUNIT_EXPECT_EQ_MSG(test, ret, c->err, "%s", c->what);
	KUNIT_EXPECT_NULL_MSG(test, desc, "%s", c->what);
}

/**
 * struct api_pmu - a PMU description and its register count
 * @name: the name a request gives ("" for generic).
 * @nregs: its PMCs and PMDs.
 */
struct api_pmu {
	const char	*name;
	unsigned int	nregs;
};

static const struct api_pmu api_pmus[] = {
	{ "", PFMK_GENERIC_NUM_PMCS },
	{ PFMK_GENERIC_NAME, PFMK_GENERIC_NUM_PMCS },
	{ PFMK_TEST_PMU_NAME, PFMK_TEST_NUM_PMCS },
};

static void api_pmu_desc(const struct api_pmu *p, char *desc)
{
	strscpy(desc, p->name[0] ? p->name : "generic (\"\")",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(api_pmu, api_pmus, api_pmu_desc);

/*
 * A creation that succeeds: a descriptor, ctx_fd -1, no buffer, the
 * context unloaded (the suite's exit closes it, expecting 0).
 */
static void api_create_success(struct kunit *test)
{
	const struct api_pmu *p = test->param_value;
	struct pfarg_ctx req;
	void *desc = NULL, *buf;

	pfmkt_ctx_req(&req, p->name, 0, false);
	req.ctx_flags |= PFM_FL_OVFL_NO_MSG;
	req.ctx_fd = 1234;
	req.ctx_smpl_buf_size = 99;
	buf = &req;
	KUNIT_ASSERT_EQ(test, pfmkt_try_create_arg(test, &req, NULL, 0, &desc,
						   &buf), 0);
	KUNIT_EXPECT_NOT_NULL(test, desc);
	KUNIT_EXPECT_EQ(test, req.ctx_fd, -1);
	KUNIT_EXPECT_EQ(test, req.ctx_smpl_buf_size, 0ULL);
	KUNIT_EXPECT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/* Set-up: a new context of @test's description, asserted unloaded. */
static void *api_created(struct kunit *test)
{
	const struct api_pmu *p = test->param_value;
	void *desc = pfmkt_create(test, p->name);

	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
	return desc;
}

/* A new context has the description's registers: the last one valid. */
static void api_create_regs(struct kunit *test)
{
	const struct api_pmu *p = test->param_value;
	void *desc = api_created(test);
	struct pfarg_pmc pmc;

	pfmkt_pmc_req(&pmc, 0, p->nregs - 1, 0);
	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, &pmc, 1), 0);
}

/* ... and no more: the register after the last one is refused. */
static void api_create_regs_next(struct kunit *test)
{
	const struct api_pmu *p = test->param_value;
	void *desc = api_created(test);
	struct pfarg_pmc pmc;

	pfmkt_pmc_req(&pmc, 0, p->nregs, 0);
	KUNIT_EXPECT_EQ(test, pfmk_write_pmcs(desc, &pmc, 1), -EINVAL);
}

/* Set 0 of a new context: its PMCs and PMDs available, never run. */
static void api_create_set_info(struct kunit *test)
{
	const struct api_pmu *p = test->param_value;
	struct pfarg_setinfo info;
	unsigned int w;
	void *desc;
	u64 bits;

	desc = pfmkt_create(test, p->name);
	memset(&info, 0, sizeof(info));
	KUNIT_ASSERT_EQ(test, pfmk_getinfo_evtsets(desc, &info, 1), 0);
	for (w = 0; w < PFM_PMC_BV; w++) {
		bits = 0;
		if (p->nregs >= (w + 1) * 64)
			bits = ~0ULL;
		else if (p->nregs > w * 64)
			bits = BIT_ULL(p->nregs - w * 64) - 1;
		KUNIT_EXPECT_EQ_MSG(test, info.set_avail_pmcs[w], bits,
				    "word %u", w);
		KUNIT_EXPECT_EQ_MSG(test, info.set_avail_pmds[w], bits,
				    "word %u", w);
	}
	KUNIT_EXPECT_EQ(test, info.set_runs, 0ULL);
	KUNIT_EXPECT_EQ(test, info.set_act_duration, 0ULL);
}

/* What a row of api_bad_loads[] loads on: the case's CPU, or nr_cpu_ids. */
#define API_LOAD_CPU	(-1LL)
#define API_LOAD_NR_IDS	(-2LL)

/**
 * struct api_bad_load - a pfmk_load_context() call that is refused
 * @what: the description of the row.
 * @null: with a NULL request.
 * @cpu: load_pid: a CPU number, API_LOAD_CPU or API_LOAD_NR_IDS (known
 *	at run time only).
 * @set: load_set.
 * @err: the errno expected.
 */
struct api_bad_load {
	const char	*what;
	bool		null;
	s64		cpu;
	u16		set;
	int		err;
};

static const struct api_bad_load api_bad_loads[] = {
	{ "NULL load", .null = true, .cpu = API_LOAD_CPU, .err = -EINVAL },
	{ "load_set 1", .cpu = API_LOAD_CPU, .set = 1, .err = -EINVAL },
	{ "CPU nr_cpu_ids", .cpu = API_LOAD_NR_IDS, .err = -EINVAL },
	{ "CPU 0xffffffff", .cpu = 0xffffffff, .err = -EINVAL },
	{ "CPU 0x80000000", .cpu = 0x80000000, .err = -EINVAL },
};

static void api_bad_load_desc(const struct api_bad_load *l, char *desc)
{
	strscpy(desc, l->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(api_bad_load, api_bad_loads, api_bad_load_desc);

/*
 * A context of the test PMU, PMC 0 counting step 1, and the
 * pfmk_load_context() of @test's row of api_bad_loads[] on it.
 * @descp: output: the context.
 *
 * Return: what pfmk_load_context() returned.
 */
static int api_bad_load_try(struct kunit *test, void **descp)
{
	const struct api_bad_load *l = test->param_value;
	struct pfarg_load load;
	u32 cpu;

	*descp = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	pfmkt_write_pmc(test, *descp, 0, PFMK_TEST_PMC(1));
	if (l->cpu == API_LOAD_CPU)
		cpu = pfmkt_cpu();
	else if (l->cpu == API_LOAD_NR_IDS)
		cpu = nr_cpu_ids;
	else
		cpu = l->cpu;
	pfmkt_load_req(&load, cpu, l->set);
	return pfmk_load_context(*descp, l->null ? NULL : &load);
}

/* Set-up: api_bad_load_try(), the load refused with the row's errno. */
static void *api_load_refused(struct kunit *test)
{
	const struct api_bad_load *l = test->param_value;
	void *desc;

	KUNIT_ASSERT_EQ_MSG(test, api_bad_load_try(test, &desc), l->err,
			    "%s", l->what);
	return desc;
}

/* A pfmk_load_context() with a bad argument: the row's errno. */
static void api_load_args_refused(struct kunit *test)
{
	const struct api_bad_load *l = test->param_value;
	void *desc;

	KUNIT_EXPECT_EQ_MSG(test, api_bad_load_try(test, &desc), l->err,
			    "%s", l->what);
}

/* After a refused pfmk_load_context(), the context is still unloaded. */
static void api_load_refused_unloaded(struct kunit *test)
{
	void *desc = api_load_refused(test);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/* After a refused pfmk_load_context(), pfmk_start() finds it unloaded. */
static void api_load_refused_no_start(struct kunit *test)
{
	void *desc = api_load_refused(test);

	KUNIT_EXPECT_EQ(test, pfmk_start(desc, NULL), -ENOTCONN);
}

/* pfmk_load_context() of set 0 loads. */
static void api_load_set0_ok(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct pfarg_load load;

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load_req(&load, pfmkt_cpu(), 0);
	KUNIT_EXPECT_EQ(test, pfmk_load_context(desc, &load), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
}

/* pfmk_start() of a set other than 0, the only one: refused. */
static const u16 api_bad_start_sets[] = { 1, 0xffff };

static void api_bad_start_set_desc(const u16 *set, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "start_set %#x", *set);
}

KUNIT_ARRAY_PARAM(api_bad_start_set, api_bad_start_sets,
		  api_bad_start_set_desc);

/* A refused pfmk_start(): -EINVAL, still loaded, no event active. */
static void api_start_args_refused(struct kunit *test)
{
	const u16 set = *(const u16 *)test->param_value;
	int cpu = pfmkt_cpu();
	void *desc = api_ctx_in(test, API_LOADED, cpu);
	struct pfarg_start start;

	memset(&start, 0, sizeof(start));
	start.start_set = set;
	KUNIT_EXPECT_EQ(test, pfmk_start(desc, &start), -EINVAL);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* pfmk_start() of set 0 starts. */
static void api_start_set0_ok(struct kunit *test)
{
	void *desc = api_ctx_in(test, API_LOADED, pfmkt_cpu());
	struct pfarg_start start;

	memset(&start, 0, sizeof(start));
	KUNIT_EXPECT_EQ(test, pfmk_start(desc, &start), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

/* Stopped, pfmk_start() with no argument starts again: the event runs. */
static void api_start_null_restarts(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = api_ctx_in(test, API_STARTED, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
}

static const size_t api_bad_msg_sizes[] = {
	0, 1, sizeof(union pfm_msg) - 1, sizeof(union pfm_msg) + 1, SIZE_MAX
};

static void api_bad_msg_size_desc(const size_t *size, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "size %zu", *size);
}

KUNIT_ARRAY_PARAM(api_bad_msg_size, api_bad_msg_sizes, api_bad_msg_size_desc);

/*
 * A blocking pfmk_read() of a size other than one message: -EINVAL,
 * never a wait.
 */
static void api_read_size(struct kunit *test)
{
	const size_t size = *(const size_t *)test->param_value;
	struct pfmkt_priv *priv = test->priv;
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	union pfm_msg msg;

	/* If the call wrongly waits, the completion ends the wait with 0. */
	complete(&priv->done);
	KUNIT_EXPECT_EQ_MSG(test, pfmk_read(desc, &msg, size, 0),
			    (ssize_t)-EINVAL, "size %zu", size);
	reinit_completion(&priv->done);
}

/* A nonblocking pfmk_read() of a size other than one message: -EINVAL. */
static void api_read_size_nonblock(struct kunit *test)
{
	const size_t size = *(const size_t *)test->param_value;
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	union pfm_msg msg;

	KUNIT_EXPECT_EQ_MSG(test, pfmk_read(desc, &msg, size, 1),
			    (ssize_t)-EINVAL, "size %zu", size);
}

/* A blocking pfmk_read() into NULL: -EINVAL, never a wait. */
static void api_read_null_msg(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	/* If the call wrongly waits, the completion ends the wait with 0. */
	complete(&priv->done);
	KUNIT_EXPECT_EQ(test, pfmk_read(desc, NULL, sizeof(union pfm_msg), 0),
			(ssize_t)-EINVAL);
	reinit_completion(&priv->done);
}

/* A nonblocking pfmk_read() into NULL: -EINVAL. */
static void api_read_null_msg_nonblock(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	KUNIT_EXPECT_EQ(test, pfmk_read(desc, NULL, sizeof(union pfm_msg), 1),
			(ssize_t)-EINVAL);
}

/* A nonblocking pfmk_read() with no message queued: -EAGAIN. */
static void api_read_nonblock_empty(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	union pfm_msg msg;

	KUNIT_EXPECT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)-EAGAIN);
}

/* pfmk_read_pmds_time() with no time vector: -EINVAL. */
static void api_read_pmds_time_null(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct pfarg_pmd pmd;

	memset(&pmd, 0, sizeof(pmd));
	KUNIT_EXPECT_EQ(test, pfmk_read_pmds_time(desc, &pmd, NULL, 1),
			-EINVAL);
}

/**
 * struct api_noset - a getinfo_evtsets() vector naming a set that is not
 * @what: the description of the row.
 * @count: the entries of the vector.
 * @idx: the entry of the set.
 * @set_id: the set.
 */
struct api_noset {
	const char	*what;
	int		count;
	unsigned int	idx;
	u16		set_id;
};

static const struct api_noset api_nosets[] = {
	{ "set 1 after set 0", 2, 1, 1 },
	{ "set 0xffff", 1, 0, 0xffff },
};

static void api_noset_desc(const struct api_noset *n, char *desc)
{
	strscpy(desc, n->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(api_noset, api_nosets, api_noset_desc);

/* getinfo_evtsets of a set other than 0: -EINVAL, the entry NOSET. */
static void api_evtsets_noset(struct kunit *test)
{
	const struct api_noset *n = test->param_value;
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct pfarg_setinfo info[2];

	memset(info, 0, sizeof(info));
	info[n->idx].set_id = n->set_id;
	KUNIT_EXPECT_EQ(test, pfmk_getinfo_evtsets(desc, info, n->count),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, info[n->idx].set_flags & PFM_REG_RETFL_NOSET);
}

/*
 * getinfo_evtsets of set 0 flags no error in its entry, unlike the
 * refused ones of api_evtsets_noset (its return and PMCs are
 * api_create_set_info's).
 */
static void api_evtsets_set0(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct pfarg_setinfo info;

	memset(&info, 0, sizeof(info));
	KUNIT_ASSERT_EQ(test, pfmk_getinfo_evtsets(desc, &info, 1), 0);
	KUNIT_EXPECT_FALSE(test, PFM_REG_HAS_ERROR(info.set_flags));
}

/* Set 0 exists: defining it (no switching) is accepted. */
static void api_evtsets_create_set0(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct pfarg_setdesc setdesc;

	memset(&setdesc, 0, sizeof(setdesc));
	KUNIT_EXPECT_EQ(test, pfmk_create_evtsets(desc, &setdesc, 1), 0);
}

static struct kunit_case pfmk_api_args_cases[] = {
	KUNIT_CASE_PARAM(api_bad_descriptors, api_bad_handle_gen_params),
	KUNIT_CASE_PARAM(api_forged_descriptors, api_forged_gen_params),
	KUNIT_CASE(api_forged_descriptors_unaffected),
	KUNIT_CASE(api_forged_descriptors_near),
	KUNIT_CASE_PARAM(api_closed_descriptors, api_closed_gen_params),
	KUNIT_CASE(api_close_releases_events),
	KUNIT_CASE_PARAM(api_create_args, api_bad_create_gen_params),
	KUNIT_CASE_PARAM(api_create_success, api_pmu_gen_params),
	KUNIT_CASE_PARAM(api_create_regs, api_pmu_gen_params),
	KUNIT_CASE_PARAM(api_create_regs_next, api_pmu_gen_params),
	KUNIT_CASE_PARAM(api_create_set_info, api_pmu_gen_params),
	KUNIT_CASE_PARAM(api_load_args_refused, api_bad_load_gen_params),
	KUNIT_CASE_PARAM(api_load_refused_unloaded, api_bad_load_gen_params),
	KUNIT_CASE_PARAM(api_load_refused_no_start, api_bad_load_gen_params),
	KUNIT_CASE(api_load_set0_ok),
	KUNIT_CASE_PARAM(api_start_args_refused, api_bad_start_set_gen_params),
	KUNIT_CASE(api_start_set0_ok),
	KUNIT_CASE(api_start_null_restarts),
	KUNIT_CASE_PARAM(api_read_size, api_bad_msg_size_gen_params),
	KUNIT_CASE_PARAM(api_read_size_nonblock, api_bad_msg_size_gen_params),
	KUNIT_CASE(api_read_null_msg),
	KUNIT_CASE(api_read_null_msg_nonblock),
	KUNIT_CASE(api_read_nonblock_empty),
	KUNIT_CASE(api_read_pmds_time_null),
	KUNIT_CASE_PARAM(api_evtsets_noset, api_noset_gen_params),
	KUNIT_CASE(api_evtsets_set0),
	KUNIT_CASE(api_evtsets_create_set0),
	{}
};

static struct kunit_suite pfmk_api_args_suite = {
	.name = "pfmk_api_args",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_api_args_cases,
};

kunit_test_suites(&pfmk_api_args_suite);
