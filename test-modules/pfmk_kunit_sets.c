// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_sets_args: every invalid set description or
 * deletion gets its documented errno and return flag and changes nothing;
 * load_set and start_set choose the set a start runs.  Set switching is
 * in pfmk_kunit_sets_switch.c, switching on timeout in
 * pfmk_kunit_sets_time.c.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

static bool sets_exists(void *desc, u16 id)
{
	struct pfarg_setinfo info;

	memset(&info, 0, sizeof(info));
	info.set_id = id;
	return pfmk_getinfo_evtsets(desc, &info, 1) == 0;
}

/**
 * struct sets_bad_desc - a set creation that is refused
 * @what: the description of the row.
 * @d: the set descriptions.
 * @n: how many of @d the request holds.
 * @flag: the return flag of the last entry (0: not checked); the entry
 *	before it, in a request of two, is not flagged.
 * @absent: a set the request would have created, which must not exist.
 */
struct sets_bad_desc {
	const char		*what;
	struct pfarg_setdesc	d[2];
	int			n;
	u32			flag;
	u16			absent;
};

#define SETS_TS	PFM_SETFL_TIME_SWITCH
#define SETS_EN	PFM_SETFL_EXPL_NEXT

static const struct sets_bad_desc sets_bad_descs[] = {
	{ "unknown flag", { { .set_id = 1, .set_flags = 0x80 } }, 1, 0, 1 },
	{ "both switch kinds",
	  { { .set_id = 1, .set_flags = SETS_TS | PFM_SETFL_OVFL_SWITCH,
	      .set_timeout = 100 } }, 1, 0, 1 },
	{ "time switch without timeout",
	  { { .set_id = 1, .set_flags = SETS_TS } }, 1, 0, 1 },
	{ "explicit next set that does not exist",
	  { { .set_id = 1, .set_flags = SETS_EN, .set_id_next = 7 } }, 1, 0,
	  1 },
	{ "duplicate id in one request",
	  { { .set_id = 3 }, { .set_id = 3 } }, 2, PFM_REG_RETFL_EINVAL, 3 },
	{ "a bad entry after a good one",
	  { { .set_id = 4 },
	    { .set_id = 5, .set_flags = SETS_EN, .set_id_next = 9 } }, 2,
	  PFM_REG_RETFL_NOSET, 4 },
};

static void sets_bad_desc_desc(const struct sets_bad_desc *b, char *desc)
{
	strscpy(desc, b->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sets_bad_desc, sets_bad_descs, sets_bad_desc_desc);

/* Invalid set descriptions: -EINVAL, the return flag, and no change. */
static void sets_bad_descriptions(struct kunit *test)
{
	const struct sets_bad_desc *b = test->param_value;
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct pfarg_setdesc d[2];

	memcpy(d, b->d, sizeof(d));
	KUNIT_EXPECT_EQ(test, pfmk_create_evtsets(desc, d, b->n), -EINVAL);
	if (b->flag) {
		KUNIT_EXPECT_FALSE(test, PFM_REG_HAS_ERROR(d[0].set_flags));
		KUNIT_EXPECT_TRUE(test, d[b->n - 1].set_flags & b->flag);
	}
	KUNIT_EXPECT_FALSE(test, sets_exists(desc, b->absent));
}

/* Sets 4 and 5, 5's explicit next set 4, defined in the same request. */
static void *sets_create_next(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct pfarg_setdesc d[2];

	memset(d, 0, sizeof(d));
	d[0].set_id = 4;
	d[1].set_id = 5;
	d[1].set_flags = SETS_EN;
	d[1].set_id_next = 4;
	KUNIT_ASSERT_EQ(test, pfmk_create_evtsets(desc, d, 2), 0);
	return desc;
}

/* An explicit next set defined in the same request is accepted. */
static void sets_next_same_request(struct kunit *test)
{
	void *desc = sets_create_next(test);

	KUNIT_EXPECT_EQ(test, pfmkt_set_info(test, desc, 5).set_id_next, 4);
}

/* Implicit next: the next higher id, wrapping around. */
static void sets_next_implicit(struct kunit *test)
{
	void *desc = sets_create_next(test);

	KUNIT_EXPECT_EQ(test, pfmkt_set_info(test, desc, 0).set_id_next, 4);
	KUNIT_EXPECT_EQ(test, pfmkt_set_info(test, desc, 4).set_id_next, 5);
}

/* A context with 64 sets, the most it may have: 0, 3, 6, ..., 189. */
static void *sets_create_64(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	u16 id;

	for (id = 1; id < 64; id++)
		KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, id * 3, 0, 0, 0), 0);
	return desc;
}

/* The number of sets is bounded: 64 in all. */
static void sets_limit(struct kunit *test)
{
	void *desc = sets_create_64(test);

	KUNIT_EXPECT_EQ(test, pfmkt_mkset(desc, 1000, 0, 0, 0), -E2BIG);
	KUNIT_EXPECT_FALSE(test, sets_exists(desc, 1000));
}

/* At the limit, redefining an existing set is not a new one: it applies. */
static void sets_limit_redefine(struct kunit *test)
{
	void *desc = sets_create_64(test);

	KUNIT_EXPECT_EQ(test, pfmkt_mkset(desc, 3, PFM_SETFL_TIME_SWITCH, 10,
					  0), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_set_info(test, desc, 3).set_flags,
			PFM_SETFL_TIME_SWITCH);
}

/* The effective timeout is rounded up to the minimum (100 us). */
static void sets_timeout_rounded(struct kunit *test)
{
	void *desc = sets_create_64(test);

	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 3, PFM_SETFL_TIME_SWITCH, 10,
					  0), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_set_info(test, desc, 3).set_timeout, 100);
}

/*
 * Sets 1 and 2, 2's explicit next set 1; @loaded: loaded on a CPU,
 * starting with set 1.
 */
static void *sets_create_linked(struct kunit *test, bool loaded)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	struct pfarg_load load;

	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 1, 0, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 2, SETS_EN, 0, 1), 0);
	if (loaded) {
		pfmkt_load_req(&load, pfmkt_cpu(), 1);
		KUNIT_ASSERT_EQ(test, pfmk_load_context(desc, &load), 0);
	}
	return desc;
}

/**
 * struct sets_bad_del - a set deletion that is refused
 * @what: the description of the row.
 * @ids: the sets to delete.
 * @n: how many of @ids the request holds.
 * @loaded: on a loaded context (sets_create_linked()).
 * @err: the errno.
 * @flag: the return flag of the first entry (0: not checked; the rows
 *	with one are listed in sets_bad_del_flags[] too).
 */
struct sets_bad_del {
	const char	*what;
	u16		ids[2];
	int		n;
	bool		loaded;
	int		err;
	u32		flag;
};

static const struct sets_bad_del sets_bad_dels[] = {
	{ "set 0", { 0 }, 1, false, -EINVAL, PFM_REG_RETFL_EINVAL },
	{ "unknown set", { 9 }, 1, false, -EINVAL, PFM_REG_RETFL_NOSET },
	{ "explicit next set of another", { 1 }, 1, false, -EINVAL,
	  PFM_REG_RETFL_EINVAL },
	{ "set 1 twice, still referenced", { 1, 1 }, 2, false, -EINVAL, 0 },
	{ "set 2 twice", { 2, 2 }, 2, false, -EINVAL, 0 },
	{ "loaded", { 2 }, 1, true, -EBUSY, 0 },
	{ "loaded, the active set", { 1 }, 1, true, -EBUSY, 0 },
};

static void sets_bad_del_desc(const struct sets_bad_del *b, char *desc)
{
	strscpy(desc, b->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sets_bad_del, sets_bad_dels, sets_bad_del_desc);

/* The rows of sets_bad_dels[] that name a return flag. */
static const struct sets_bad_del *const sets_bad_del_flags[] = {
	&sets_bad_dels[0], &sets_bad_dels[1], &sets_bad_dels[2],
};

static void sets_bad_del_flag_desc(const struct sets_bad_del *const *b,
				   char *desc)
{
	sets_bad_del_desc(*b, desc);
}

KUNIT_ARRAY_PARAM(sets_bad_del_flag, sets_bad_del_flags,
		  sets_bad_del_flag_desc);

/*
 * Set-up: sets_create_linked() in @desc, loaded as @b says, and the
 * deletion of @b tried with @info.  Return: what pfmk_delete_evtsets()
 * returned.
 */
static int sets_bad_delete(struct kunit *test, const struct sets_bad_del *b,
			   void **desc, struct pfarg_setinfo *info)
{
	*desc = sets_create_linked(test, b->loaded);
	memset(info, 0, 2 * sizeof(*info));
	info[0].set_id = b->ids[0];
	info[1].set_id = b->ids[1];
	return pfmk_delete_evtsets(*desc, info, b->n);
}

/* A refused deletion returns the row's errno. */
static void sets_bad_deletes_errno(struct kunit *test)
{
	const struct sets_bad_del *b = test->param_value;
	struct pfarg_setinfo info[2];
	void *desc;

	KUNIT_EXPECT_EQ(test, sets_bad_delete(test, b, &desc, info), b->err);
}

/* A refused deletion flags its first entry with the row's return flag. */
static void sets_bad_deletes_flag(struct kunit *test)
{
	const struct sets_bad_del *const *bp = test->param_value;
	const struct sets_bad_del *b = *bp;
	struct pfarg_setinfo info[2];
	void *desc;

	KUNIT_ASSERT_EQ(test, sets_bad_delete(test, b, &desc, info), b->err);
	KUNIT_EXPECT_TRUE(test, info[0].set_flags & b->flag);
}

/* A refused deletion deletes nothing: sets 1 and 2 stay (unloaded). */
static void sets_bad_deletes_keeps_sets(struct kunit *test)
{
	const struct sets_bad_del *b = test->param_value;
	struct pfarg_setinfo info[2];
	void *desc;

	KUNIT_ASSERT_EQ(test, sets_bad_delete(test, b, &desc, info), b->err);
	if (b->loaded)
		KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_EXPECT_TRUE(test, sets_exists(desc, 1));
	KUNIT_EXPECT_TRUE(test, sets_exists(desc, 2));
}

/* Loaded: no set can be created either. */
static void sets_create_loaded(struct kunit *test)
{
	void *desc = sets_create_linked(test, true);

	KUNIT_EXPECT_EQ(test, pfmkt_mkset(desc, 6, 0, 0, 0), -EBUSY);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_EXPECT_FALSE(test, sets_exists(desc, 6));
}

/* Both at once: set 2 goes, so set 1 is free to go. */
static void sets_delete_both(struct kunit *test)
{
	void *desc = sets_create_linked(test, false);
	struct pfarg_setinfo info[2];

	memset(info, 0, sizeof(info));
	info[0].set_id = 2;
	info[1].set_id = 1;
	KUNIT_EXPECT_EQ(test, pfmk_delete_evtsets(desc, info, 2), 0);
	KUNIT_EXPECT_FALSE(test, sets_exists(desc, 1));
	KUNIT_EXPECT_FALSE(test, sets_exists(desc, 2));
}

/* Sets 0 and 2, PMC 0 of each counting the test PMU's step-1 event. */
static void *sets_create_0_2(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 2, 0, 0, 0), 0);
	pfmkt_write_set_pmc(test, desc, 0, 0, PFMK_TEST_PMC(1));
	pfmkt_write_set_pmc(test, desc, 2, 0, PFMK_TEST_PMC(1));
	return desc;
}

/* pfmk_load_context() on the test CPU with load_set @set. */
static int sets_load_set(void *desc, u16 set)
{
	struct pfarg_load load;

	pfmkt_load_req(&load, pfmkt_cpu(), set);
	return pfmk_load_context(desc, &load);
}

/*
 * sets_create_0_2() loaded on set 2, started, 7 ticks, stopped: set 2's
 * PMD 0 holds 7.
 */
static void *sets_ran_set_2(struct kunit *test)
{
	void *desc = sets_create_0_2(test);

	KUNIT_ASSERT_EQ(test, sets_load_set(desc, 2), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(pfmkt_cpu(), 7);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	return desc;
}

/* pfmk_start() with start_set @set. */
static int sets_start_set(void *desc, u16 set)
{
	struct pfarg_start start;

	memset(&start, 0, sizeof(start));
	start.start_set = set;
	return pfmk_start(desc, &start);
}

/* A load_set that does not exist: -EINVAL. */
static void sets_load_set_unknown(struct kunit *test)
{
	void *desc = sets_create_0_2(test);

	KUNIT_EXPECT_EQ(test, sets_load_set(desc, 5), -EINVAL);
}

/* load_set chooses the set the first start runs. */
static void sets_load_set_chosen(struct kunit *test)
{
	void *desc = sets_ran_set_2(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 2, 0), 7);
	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 0, 0), 0);
}

/* A start_set that does not exist: -EINVAL. */
static void sets_start_set_unknown(struct kunit *test)
{
	void *desc = sets_ran_set_2(test);

	KUNIT_EXPECT_EQ(test, sets_start_set(desc, 5), -EINVAL);
}

/* sets_ran_set_2() started again with start_set 0, then 3 ticks. */
static void *sets_started_set_0(struct kunit *test)
{
	void *desc = sets_ran_set_2(test);

	KUNIT_ASSERT_EQ(test, sets_start_set(desc, 0), 0);
	pfmk_test_pmu_tick(pfmkt_cpu(), 3);
	return desc;
}

/* start_set chooses the set a later start runs: set 0 counts the ticks. */
static void sets_start_set_counts_chosen(struct kunit *test)
{
	void *desc = sets_started_set_0(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 0, 0), 3);
}

/* The set start_set did not choose counts nothing more: set 2 keeps 7. */
static void sets_start_set_others_frozen(struct kunit *test)
{
	void *desc = sets_started_set_0(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 2, 0), 7);
}

/* Each set ran once: set 2 in the first start, set 0 in the second. */
static void sets_start_set_runs(struct kunit *test)
{
	void *desc = sets_started_set_0(test);

	KUNIT_EXPECT_EQ(test, pfmkt_set_info(test, desc, 0).set_runs, 1);
	KUNIT_EXPECT_EQ(test, pfmkt_set_info(test, desc, 2).set_runs, 1);
}

static struct kunit_case pfmk_sets_args_cases[] = {
	KUNIT_CASE_PARAM(sets_bad_descriptions, sets_bad_desc_gen_params),
	KUNIT_CASE(sets_next_same_request),
	KUNIT_CASE(sets_next_implicit),
	KUNIT_CASE(sets_limit),
	KUNIT_CASE(sets_limit_redefine),
	KUNIT_CASE(sets_timeout_rounded),
	KUNIT_CASE_PARAM(sets_bad_deletes_errno, sets_bad_del_gen_params),
	KUNIT_CASE_PARAM(sets_bad_deletes_flag, sets_bad_del_flag_gen_params),
	KUNIT_CASE_PARAM(sets_bad_deletes_keeps_sets, sets_bad_del_gen_params),
	KUNIT_CASE(sets_create_loaded),
	KUNIT_CASE(sets_delete_both),
	KUNIT_CASE(sets_load_set_unknown),
	KUNIT_CASE(sets_load_set_chosen),
	KUNIT_CASE(sets_start_set_unknown),
	KUNIT_CASE(sets_start_set_counts_chosen),
	KUNIT_CASE(sets_start_set_others_frozen),
	KUNIT_CASE(sets_start_set_runs),
	{}
};

static struct kunit_suite pfmk_sets_args_suite = {
	.name = "pfmk_sets_args",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_sets_args_cases,
};

kunit_test_suites(&pfmk_sets_args_suite);
