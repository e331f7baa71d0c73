// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suites of the event strings (pfmk_dyn_kunit.ko):
 *
 * pfmk_dyn_format   the "format" attribute parser;
 * pfmk_encode       the string syntax of pfmk_encode(), every form and
 *                   every error, on the module's PMU "pfmk_kunit_fmt"
 *                   (pfmk_kunit_dyn_pmu.c).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <pfmk/encode.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_dyn.h>
#include <pfmk/pmu_generic.h>

#include "pfmk_kunit.h"
#include "pfmk_kunit_dyn.h"

/* ---- pfmk_dyn_format: the format parser ---- */

struct fmt_case {
	const char	*val;
	int		ret;
	unsigned int	word;
	u64		mask;
};

static const struct fmt_case fmt_cases[] = {
	{ "config:0-7", 0, 0, 0xff },
	{ "config:0", 0, 0, 1 },
	{ "config:63", 0, 0, BIT_ULL(63) },
	{ "config:0-63", 0, 0, ~0ULL },
	{ "config:0-7,32-35", 0, 0, 0xf000000ffULL },
	{ "config:1,3,5", 0, 0, 0x2a },
	{ "config1:0", 0, 1, 1 },
	{ "config2:40-47", 0, 2, 0xff0000000000ULL },
#ifdef PFMK_HAVE_ATTR_CONFIG3
	{ "config3:0-7", 0, 3, 0xff },
#else
	{ "config3:0-7", -EINVAL },
#endif
	{ "config4:0", -EINVAL },
	{ "config:", -EINVAL },
	{ "config:7-0", -EINVAL },
	{ "config:64", -EINVAL },
	{ "config:0-64", -EINVAL },
	{ "config:4294967296", -EINVAL },	/* wraps to bit 0 in %u */
	{ "config:0-4294967303", -EINVAL },	/* wraps to bit 7 */
	{ "config:0-7,4", -EINVAL },
	{ "config:0-7,", -EINVAL },
	{ "config:-1", -EINVAL },
	{ "config:a", -EINVAL },
	{ "cnfig:0", -EINVAL },
	{ "", -EINVAL },
};

static void fmt_case_desc(const struct fmt_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->val);
}

KUNIT_ARRAY_PARAM(fmt, fmt_cases, fmt_case_desc);

static void format_parse(struct kunit *test)
{
	const struct fmt_case *c = test->param_value;
	unsigned int word = 99;
	u64 mask = 0;

	KUNIT_ASSERT_EQ(test, pfmk_dyn_parse_format(c->val, &word, &mask),
			c->ret);
	if (c->ret)
		return;
	KUNIT_EXPECT_EQ(test, word, c->word);
	KUNIT_EXPECT_EQ(test, mask, c->mask);
}

static struct kunit_case format_cases[] = {
	KUNIT_CASE_PARAM(format_parse, fmt_gen_params),
	{}
};

static struct kunit_suite dyn_format_suite = {
	.name = "pfmk_dyn_format",
	.test_cases = format_cases,
};

/* ---- pfmk_encode: the syntax ---- */

#define XU		PFMK_DYN_XUSER
#define XK		PFMK_DYN_XKERN
#define XH		PFMK_DYN_XHV

/**
 * struct enc_case - an event string and the PMC values it must give
 * @event: the string, encoded for PMD 0 of a zeroed request.
 * @ctx: the ctx_pmu_name it must set.
 * @ctrl: PMC 0's value.
 * @config: the config words (PMU events), by PMC: those the PMU has.
 */
struct enc_case {
	const char	*event;
	const char	*ctx;
	u64		ctrl;
	u64		config[4];
};

#define GEN(t, c)	(PFMK_GEN_PMC(t, c))
#define DYN		PFMK_DYN_EN

static const struct enc_case enc_cases[] = {
	{ "cycles", "", GEN(0, PERF_COUNT_HW_CPU_CYCLES) },
	{ "cpu-cycles", "", GEN(0, PERF_COUNT_HW_CPU_CYCLES) },
	{ "instructions", "", GEN(0, PERF_COUNT_HW_INSTRUCTIONS) },
	{ "cache-misses", "", GEN(0, PERF_COUNT_HW_CACHE_MISSES) },
	{ "branch-misses", "", GEN(0, PERF_COUNT_HW_BRANCH_MISSES) },
	{ "ref-cycles", "", GEN(0, PERF_COUNT_HW_REF_CPU_CYCLES) },
	{ "cpu-clock", "", GEN(1, PERF_COUNT_SW_CPU_CLOCK) },
	{ "task-clock", "", GEN(1, PERF_COUNT_SW_TASK_CLOCK) },
	{ "context-switches", "", GEN(1, PERF_COUNT_SW_CONTEXT_SWITCHES) },
	{ "cs", "", GEN(1, PERF_COUNT_SW_CONTEXT_SWITCHES) },
	{ "cpu-migrations", "", GEN(1, PERF_COUNT_SW_CPU_MIGRATIONS) },
	{ "page-faults", "", GEN(1, PERF_COUNT_SW_PAGE_FAULTS) },
	{ "major-faults", "", GEN(1, PERF_COUNT_SW_PAGE_FAULTS_MAJ) },
	{ "L1-dcache-loads", "", GEN(3, 0) },
	{ "L1-dcache-load-misses", "", GEN(3, 0x10000) },
	{ "LLC-store-misses", "", GEN(3, 0x10102) },
	{ "L1-icache-prefetches", "", GEN(3, 0x201) },
	{ "dTLB-load-misses", "", GEN(3, 0x10003) },
	{ "branch-loads", "", GEN(3, 5) },
	{ "node-stores", "", GEN(3, 0x106) },
	{ "cycles:u", "", GEN(0, 0) | PFMK_GEN_XKERN | PFMK_GEN_XHV },
	{ "cycles:k", "", GEN(0, 0) | PFMK_GEN_XUSER | PFMK_GEN_XHV },
	{ "cycles:uk", "", GEN(0, 0) | PFMK_GEN_XHV },
	{ "cpu-clock:ukh", "", GEN(1, 0) },
	{ FMT_PMU_NAME "//", FMT_PMU_NAME, DYN, { 0 } },
	{ FMT_PMU_NAME "//k", FMT_PMU_NAME, DYN | XU | XH, { 0 } },
	{ FMT_PMU_NAME "/event=0x12/", FMT_PMU_NAME, DYN, { 0x12 } },
	{ FMT_PMU_NAME "/event=18,umask=0xab/", FMT_PMU_NAME, DYN,
	  { 0xab12 } },
	{ FMT_PMU_NAME "/ event=1 , umask=2 /", FMT_PMU_NAME, DYN,
	  { 0x201 } },
	{ FMT_PMU_NAME "/event=1,event=2/", FMT_PMU_NAME, DYN, { 2 } },
	/* multi-range: value bits 0-3 to 16-19, 4-7 to 32-35 */
	{ FMT_PMU_NAME "/split=0xa5/", FMT_PMU_NAME, DYN,
	  { 0xa00050000ULL } },
	{ FMT_PMU_NAME "/split=0xff/", FMT_PMU_NAME, DYN,
	  { 0xf000f0000ULL } },
	{ FMT_PMU_NAME "/flag/", FMT_PMU_NAME, DYN, { BIT_ULL(63) } },
	{ FMT_PMU_NAME "/flag=1/", FMT_PMU_NAME, DYN, { BIT_ULL(63) } },
	{ FMT_PMU_NAME "/ext=0xffffffff/", FMT_PMU_NAME, DYN,
	  { 0, 0xffffffff } },
	{ FMT_PMU_NAME "/hi=0x81/", FMT_PMU_NAME, DYN,
	  { 0, 0, 0x810000000000ULL } },
	{ FMT_PMU_NAME "/upd=15/", FMT_PMU_NAME, DYN, { 0, 0, 15 } },
#ifdef PFMK_HAVE_ATTR_CONFIG3
	{ FMT_PMU_NAME "/ext3=0x7f/", FMT_PMU_NAME, DYN, { 0, 0, 0, 0x7f } },
#endif
	{ FMT_PMU_NAME "/config=0xab12/", FMT_PMU_NAME, DYN, { 0xab12 } },
	{ FMT_PMU_NAME "/config1=7/", FMT_PMU_NAME, DYN, { 0, 7 } },
	{ FMT_PMU_NAME "/ev_a/", FMT_PMU_NAME, DYN, { 0x111 } },
	{ FMT_PMU_NAME "/EV_B/", FMT_PMU_NAME, DYN, { 0x3c } },
	{ FMT_PMU_NAME "/ev_a,umask=3/", FMT_PMU_NAME, DYN, { 0x311 } },
	{ FMT_PMU_NAME "/event=1/u", FMT_PMU_NAME, DYN | XK | XH, { 1 } },
	{ FMT_PMU_NAME "/event=1/:k", FMT_PMU_NAME, DYN | XU | XH, { 1 } },
	{ "pfmk_test/step=3/", PFMK_DYN_PREFIX "pfmk_test", DYN, { 3 } },
	{ "software/config=9/", "software", DYN, { 9 } },
};

static void enc_case_desc(const struct enc_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->event);
}

KUNIT_ARRAY_PARAM(enc, enc_cases, enc_case_desc);

static void encode_forms(struct kunit *test)
{
	const struct enc_case *c = test->param_value;
	struct pfarg_pmc pmcs[PFMK_ENCODE_MAX_PMCS];
	struct pfarg_ctx req;
	unsigned int count = 99, i;

	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmk_encode(c->event, 0, &req, pmcs,
					  ARRAY_SIZE(pmcs), &count), 0);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name, c->ctx);
	KUNIT_ASSERT_GE(test, count, 1U);
	KUNIT_EXPECT_EQ(test, pmcs[0].reg_num, 0);
	KUNIT_EXPECT_EQ(test, pmcs[0].reg_value, c->ctrl);
	KUNIT_EXPECT_EQ(test, pmcs[0].reg_set, 0);
	if (!c->ctx[0]) {
		KUNIT_EXPECT_EQ(test, count, 1U);
		return;
	}
	/* The PMU's config words follow, each in its own PMC. */
	KUNIT_EXPECT_GE(test, count, 2U);
	for (i = 1; i < count; i++) {
		unsigned int w = pmcs[i].reg_num / PFMK_DYN_NUM_PMDS - 1;

		KUNIT_ASSERT_LT(test, w, 4U);
		KUNIT_EXPECT_EQ(test, pmcs[i].reg_num, DYNT_W(w));
		KUNIT_EXPECT_EQ_MSG(test, pmcs[i].reg_value, c->config[w],
				    "config word %u", w);
	}
}

/* Encode "sched:sched_switch" for PMD 0; return PMC 0's value. */
static u64 enc_sched_switch(struct kunit *test, struct pfarg_ctx *req,
			    struct pfarg_pmc *pmcs, unsigned int *count)
{
	pfmkt_ctx_req(req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmk_encode("sched:sched_switch", 0, req, pmcs,
					  2, count), 0);
	return pmcs[0].reg_value;
}

/* The tracepoint form gives the tracepoint's id, in the generic type. */
static void encode_tracepoint(struct kunit *test)
{
	struct pfarg_pmc pmcs[2];
	struct pfarg_ctx req;
	unsigned int count;
	u64 v;

	v = enc_sched_switch(test, &req, pmcs, &count);
	KUNIT_EXPECT_EQ(test, count, 1U);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name, "");
	KUNIT_EXPECT_EQ(test, v & ~PFMK_GEN_CONFIG_MASK,
			PFMK_GEN_PMC(PERF_TYPE_TRACEPOINT, 0));
	KUNIT_EXPECT_NE(test, v & PFMK_GEN_CONFIG_MASK, 0ULL);
}

/* A tracepoint with a modifier, for another PMD: the same id, excluded. */
static void encode_tracepoint_modifier(struct kunit *test)
{
	struct pfarg_pmc pmcs[2];
	struct pfarg_ctx req;
	unsigned int count;
	u64 v;

	v = enc_sched_switch(test, &req, pmcs, &count);
	KUNIT_ASSERT_EQ(test, pfmk_encode("sched:sched_switch:k", 3, &req,
					  pmcs, 2, &count), 0);
	KUNIT_EXPECT_EQ(test, pmcs[0].reg_num, 3);
	KUNIT_EXPECT_EQ(test, pmcs[0].reg_value,
			v | PFMK_GEN_XUSER | PFMK_GEN_XHV);
}

struct enc_err {
	const char	*event;
	const char	*ctx;
	unsigned int	pmd;
	unsigned int	max;
	int		ret;
};

static const struct enc_err enc_errs[] = {
	{ "", "", 0, 5, -EINVAL },
	{ "nosuchevent", "", 0, 5, -ENOENT },
	{ "cycles:x", "", 0, 5, -EINVAL },
	{ "L1-dcache-load", "", 0, 5, -ENOENT },
	{ "L1-dcache-misses", "", 0, 5, -ENOENT },
	{ "L2-dcache-loads", "", 0, 5, -ENOENT },
	{ "LLC-prefetchs", "", 0, 5, -ENOENT },
	{ "cycles:", "", 0, 5, -EINVAL },
	{ "nosys:noevent", "", 0, 5, -ENOENT },
	{ "sched:", "", 0, 5, -EINVAL },
	{ "sched:sched_switch:q", "", 0, 5, -EINVAL },
	{ "no_such_pmu/event=1/", "", 0, 5, -ENOENT },
	{ FMT_PMU_NAME "/event=1", "", 0, 5, -EINVAL },
	{ "/event=1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=1/x", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=1/u/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/nosuch=1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/nosuch/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/hidden=1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/bogus=1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=0x100/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/split=0x100/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/flag=2/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=zz/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=-1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/,/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/ev_wide/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/ev_bad/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/ev_a=1/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/config=0x100000/", "", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/config4=1/", "", 0, 5, -EINVAL },
#ifndef PFMK_HAVE_ATTR_CONFIG3
	{ FMT_PMU_NAME "/config3=1/", "", 0, 5, -EINVAL },
#endif
	/* mixes one context cannot carry */
	{ FMT_PMU_NAME "/event=1/", "", 1, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=1/", "pfmk_test", 0, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=1/", "msr", 0, 5, -EINVAL },
	{ "pfmk_test/step=1/", "pfmk_test", 0, 5, -EINVAL },
	{ "cycles", FMT_PMU_NAME, 0, 5, -EINVAL },
	{ "sched:sched_switch", FMT_PMU_NAME, 1, 5, -EINVAL },
	/* PMDs the description lacks */
	{ "cycles", "", PFMK_GENERIC_NUM_PMCS, 5, -EINVAL },
	{ FMT_PMU_NAME "/event=1/", FMT_PMU_NAME, PFMK_DYN_NUM_PMDS, 5,
	  -EINVAL },
	/* room */
	{ "cycles", "", 0, 0, -E2BIG },
	{ FMT_PMU_NAME "/event=1/", "", 0, 1, -E2BIG },
	{ FMT_PMU_NAME "/event=1/", "", 0, 3, -E2BIG },
};

static void enc_err_desc(const struct enc_err *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\" ctx \"%s\" pmd %u max %u",
		 c->event, c->ctx, c->pmd, c->max);
}

KUNIT_ARRAY_PARAM(enc_err, enc_errs, enc_err_desc);

/* Every error: its errno, nothing written, *count 0, the name kept. */
static void encode_errors(struct kunit *test)
{
	const struct enc_err *c = test->param_value;
	struct pfarg_pmc pmcs[PFMK_ENCODE_MAX_PMCS + 1];
	struct pfarg_ctx req;
	unsigned int count = 99, i;

	memset(pmcs, 0x5a, sizeof(pmcs));
	pfmkt_ctx_req(&req, c->ctx, 0, false);
	KUNIT_EXPECT_EQ(test, pfmk_encode(c->event, c->pmd, &req, pmcs,
					  c->max, &count), c->ret);
	KUNIT_EXPECT_EQ(test, count, 0U);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name, c->ctx);
	for (i = 0; i < ARRAY_SIZE(pmcs); i++)
		KUNIT_EXPECT_EQ(test, pmcs[i].reg_value, 0x5a5a5a5a5a5a5a5aULL);
}

/**
 * struct enc_bad_arg - a call of pfmk_encode() with a bad argument
 * @name: the case.
 * @event: the event string, or NULL.
 * @long_len: if not 0, the event string is this many 'c's instead.
 * @null_req: the context request is NULL.
 * @null_pmcs: the PMC array is NULL.
 * @null_count: the count pointer is NULL.
 * @unterminated: the request's PMU name fills its field, unterminated.
 * @ret: the errno.
 */
struct enc_bad_arg {
	const char	*name;
	const char	*event;
	size_t		long_len;
	bool		null_req;
	bool		null_pmcs;
	bool		null_count;
	bool		unterminated;
	int		ret;
};

static const struct enc_bad_arg enc_bad_args[] = {
	{ .name = "null_event", .ret = -EINVAL },
	{ .name = "null_req", .event = "cycles", .null_req = true,
	  .ret = -EINVAL },
	{ .name = "null_pmcs", .event = "cycles", .null_pmcs = true,
	  .ret = -EINVAL },
	{ .name = "null_count", .event = "cycles", .null_count = true,
	  .ret = -EINVAL },
	{ .name = "unterminated_pmu_name", .event = "cycles",
	  .unterminated = true, .ret = -EINVAL },
	{ .name = "overlong_event", .long_len = 299, .ret = -EINVAL },
};

static void enc_bad_arg_desc(const struct enc_bad_arg *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(enc_bad_arg, enc_bad_args, enc_bad_arg_desc);

/* NULL pointers, an unterminated name, an overlong string: -EINVAL. */
static void encode_bad_args(struct kunit *test)
{
	const struct enc_bad_arg *c = test->param_value;
	struct pfarg_pmc pmcs[PFMK_ENCODE_MAX_PMCS];
	const char *event = c->event;
	struct pfarg_ctx req;
	unsigned int count;
	char *big;

	pfmkt_ctx_req(&req, "", 0, false);
	if (c->unterminated)
		memset(req.ctx_pmu_name, 'a', sizeof(req.ctx_pmu_name));
	if (c->long_len) {
		big = kunit_kzalloc(test, c->long_len + 1, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, big);
		memset(big, 'c', c->long_len);
		event = big;
	}
	KUNIT_EXPECT_EQ(test, pfmk_encode(event, 0, c->null_req ? NULL : &req,
					  c->null_pmcs ? NULL : pmcs, 5,
					  c->null_count ? NULL : &count),
			c->ret);
}

/*
 * Encode three events for PMD 0, 1 and 2 of a request without a PMU name
 * into @pmcs (room for three events of the module's PMU).
 */
static unsigned int enc_three(struct kunit *test, const char * const *ev,
			      struct pfarg_ctx *req, struct pfarg_pmc *pmcs)
{
	unsigned int count;

	pfmkt_ctx_req(req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmkt_encode_events(req, ev, 3, pmcs,
						  3 * PFMK_ENCODE_MAX_PMCS,
						  &count), 0);
	return count;
}

/*
 * Events of one named PMU in one context: PMD 0 names it, the others fit,
 * each with its config words.
 */
static void encode_one_pmu_named(struct kunit *test)
{
	static const char * const ev[] = {
		FMT_PMU_NAME "/event=1/", FMT_PMU_NAME "/ev_b/",
		FMT_PMU_NAME "/ext=2/k",
	};
	struct pfarg_pmc pmcs[3 * PFMK_ENCODE_MAX_PMCS];
	struct pfarg_ctx req;
	unsigned int count;

	count = enc_three(test, ev, &req, pmcs);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name, FMT_PMU_NAME);
	KUNIT_EXPECT_EQ(test, count, 3 * (1 + FMT_WORDS));
}

/*
 * Generic events of different perf types in one context: no PMU name,
 * one PMC each.
 */
static void encode_one_pmu_generic(struct kunit *test)
{
	static const char * const gen[] = {
		"cycles", "sched:sched_switch", "cpu-clock:u",
	};
	struct pfarg_pmc pmcs[3 * PFMK_ENCODE_MAX_PMCS];
	struct pfarg_ctx req;
	unsigned int count;

	count = enc_three(test, gen, &req, pmcs);
	KUNIT_EXPECT_STREQ(test, req.ctx_pmu_name, "");
	KUNIT_EXPECT_EQ(test, count, 3U);
	KUNIT_EXPECT_EQ(test, pmcs[2].reg_num, 2);
}

static struct kunit_case encode_cases[] = {
	KUNIT_CASE_PARAM(encode_forms, enc_gen_params),
	KUNIT_CASE(encode_tracepoint),
	KUNIT_CASE(encode_tracepoint_modifier),
	KUNIT_CASE_PARAM(encode_errors, enc_err_gen_params),
	KUNIT_CASE_PARAM(encode_bad_args, enc_bad_arg_gen_params),
	KUNIT_CASE(encode_one_pmu_named),
	KUNIT_CASE(encode_one_pmu_generic),
	{}
};

static struct kunit_suite encode_suite = {
	.name = "pfmk_encode",
	.suite_init = dynt_suite_init,
	.test_cases = encode_cases,
};

kunit_test_suites(&dyn_format_suite, &encode_suite);
