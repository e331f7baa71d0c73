// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_aux_life: what a context's life does to its AUX
 * buffer, on the synthetic AUX PMU "pfmk_aux_test".
 *
 * The AUX PMD rewritten on a loaded, stopped context (a new event, a new
 * buffer), close and unload while the PMU writes, the context's CPU
 * offline and back (the buffer goes with the event), and stop, or a
 * switch away from set 0, then drain, in both modes.  Skipped, as
 * pfmk_aux is, on a kernel the harness says lacks the AUX patch
 * (pfmk_kunit_aux.h).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/string.h>
#include <pfmk/aux.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"
#include "pfmk_kunit_aux.h"
#include "pfmk_test_aux_pmu.h"

/* Check the @i-th default-format entry of @buf: a snippet ending at @end. */
static void auxt_expect_snippet(struct kunit *test, void *buf, u64 i,
				u64 snip, u64 end)
{
	struct pfm_dfl_smpl_entry *ent;
	struct pfmk_dfl_aux_snippet *sn;

	ent = buf + sizeof(struct pfm_dfl_smpl_hdr) +
	      i * (sizeof(*ent) + sizeof(*sn) + snip);
	sn = (void *)(ent + 1);
	KUNIT_EXPECT_EQ(test, sn->head, end * AUXT_REC);
	KUNIT_EXPECT_EQ(test, (u64)sn->len, snip);
	auxt_expect_recs(test, sn + 1, snip / AUXT_REC, end - snip / AUXT_REC);
}

#define AUXT_REWRITE_PERIOD	8ULL
#define AUXT_REWRITE_SNIP	128ULL

/*
 * The AUX PMD of a loaded, stopped context rewritten through write_pmcs
 * or write_pmds: each write gives the PMD a new event, which must take
 * the AUX buffer over (a new one: the stream restarts at 0).  Copy,
 * sampling with snippets, unload and close then use the new event only,
 * never the freed old one (KASAN would report its AUX buffer).
 *
 * A context whose PMD0 samples the synthetic AUX PMU every
 * AUXT_REWRITE_PERIOD records, with AUXT_REWRITE_SNIP-byte snippets:
 * loaded, started, five records written (no overflow), stopped.
 * @pmc, @pmd: output: the requests it was programmed with.
 *
 * Return: its buffer.
 */
static void *auxt_rewrite_setup(struct kunit *test, struct pfarg_pmc *pmc,
				struct pfarg_pmd *pmd)
{
	struct pfm_dfl_smpl_arg arg = { .buf_size = 64 << 10,
					.reserved1 = AUXT_REWRITE_SNIP };
	const u64 period = AUXT_REWRITE_PERIOD;
	struct auxt *t = test->priv;
	void *buf = NULL;

	auxt_need_patch(test);
	auxt_create(test, &arg, sizeof(arg), &buf);
	*pmc = (struct pfarg_pmc){ .reg_value = PFMK_TEST_AUX_PMC(1, 0) };
	*pmd = (struct pfarg_pmd){ .reg_value = -period,
				   .reg_short_reset = -period,
				   .reg_long_reset = -period };
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(t->desc, pmc, 1), 0);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(t->desc, pmd, 1), 0);
	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(t->desc, 0, 4 * PAGE_SIZE, 0), 0);
	pfmkt_load_start(test, t->desc, t->cpu);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 5), 0);
	KUNIT_ASSERT_EQ(test, pfmk_stop(t->desc), 0);
	return buf;
}

/**
 * struct auxt_rewrite - how the AUX PMD of auxt_rewrite_setup() is rewritten
 * @name: the row's name.
 * @pmds: through write_pmds (its PMD request again), else write_pmcs (its
 *	PMC request again).
 * @periods: AUXT_REWRITE_PERIODs of records the new event then writes.
 * @stopped: stopped again before the copy (else copied while it runs,
 *	and stopped after).
 */
struct auxt_rewrite {
	const char	*name;
	bool		pmds;
	u64		periods;
	bool		stopped;
};

static const struct auxt_rewrite auxt_rewrites[] = {
	{ "write_pmcs", false, 2, true },
	{ "write_pmds", true, 1, false },
};

static void auxt_rewrite_desc(const struct auxt_rewrite *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(auxt_rewrite, auxt_rewrites, auxt_rewrite_desc);

/*
 * auxt_rewrite_setup(), its AUX PMD then rewritten as @test's row of
 * auxt_rewrites[] says.  Return: the sampling buffer.
 */
static void *auxt_rewritten(struct kunit *test)
{
	const struct auxt_rewrite *r = test->param_value;
	struct auxt *t = test->priv;
	struct pfarg_pmc pmc;
	struct pfarg_pmd pmd;
	void *buf;

	buf = auxt_rewrite_setup(test, &pmc, &pmd);
	if (r->pmds)
		KUNIT_ASSERT_EQ(test, pfmk_write_pmds(t->desc, &pmd, 1), 0);
	else
		KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(t->desc, &pmc, 1), 0);
	return buf;
}

/*
 * write_pmcs or write_pmds on the loaded, stopped context makes a new
 * event: the trace of the old one is dropped.
 */
static void aux_rewrite_loaded(struct kunit *test)
{
	struct pfmk_aux_info info;

	auxt_rewritten(test);
	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info), 0ULL);
}

/*
 * auxt_rewritten(), then the new event of that write started and its
 * records copied (stopped first, or while it runs, then stopped): the copy
 * returns all of them.  Return: the sampling buffer.
 */
static void *auxt_rewritten_copied(struct kunit *test)
{
	const struct auxt_rewrite *r = test->param_value;
	const u64 n = r->periods * AUXT_REWRITE_PERIOD;
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;
	void *buf = auxt_rewritten(test);

	KUNIT_ASSERT_EQ(test, pfmk_start(t->desc, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, n), 0);
	if (r->stopped)
		KUNIT_ASSERT_EQ(test, pfmk_stop(t->desc), 0);
	KUNIT_ASSERT_EQ(test, auxt_copy(test, SIZE_MAX, &info), n);
	if (!r->stopped)
		KUNIT_ASSERT_EQ(test, pfmk_stop(t->desc), 0);
	return buf;
}

/* The new event of that write traces a new stream: its records from 0. */
static void aux_rewrite_loaded_copies_new_stream(struct kunit *test)
{
	const struct auxt_rewrite *r = test->param_value;
	struct auxt *t = test->priv;

	auxt_rewritten_copied(test);
	auxt_expect_recs(test, t->out.buf, r->periods * AUXT_REWRITE_PERIOD,
			 0);
}

/* The new event of that write samples with its snippets: one a period. */
static void aux_rewrite_loaded_snippets(struct kunit *test)
{
	const struct auxt_rewrite *r = test->param_value;
	const u64 period = AUXT_REWRITE_PERIOD;
	void *buf = auxt_rewritten_copied(test);
	u64 i;

	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), r->periods);
	for (i = 0; i < r->periods; i++)
		auxt_expect_snippet(test, buf, i, AUXT_REWRITE_SNIP,
				    (i + 1) * period);
}

/*
 * The AUX PMD's PMC disabled on auxt_rewrite_setup()'s context.
 * Return: what write_pmcs returned.
 */
static int auxt_rewrite_disable(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfarg_pmc pmc;
	struct pfarg_pmd pmd;

	auxt_rewrite_setup(test, &pmc, &pmd);
	pmc.reg_value = 0;
	return pfmk_write_pmcs(t->desc, &pmc, 1);
}

/* Disabling the AUX PMD's PMC while loaded is refused. */
static void aux_rewrite_loaded_disable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, auxt_rewrite_disable(test), -EBUSY);
}

/* The refused disable keeps the trace: its 5 records are copied. */
static void aux_rewrite_loaded_disable_keeps(struct kunit *test)
{
	struct pfmk_aux_info info;

	KUNIT_ASSERT_EQ(test, auxt_rewrite_disable(test), -EBUSY);
	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info), 5ULL);
}

/**
 * struct auxt_close - how a capturing context ends
 * @name: the row's name.
 * @flags: pfmk_aux_setup()'s flags.
 * @unload: unloaded before the close.
 */
struct auxt_close {
	const char	*name;
	unsigned int	flags;
	bool		unload;
};

static const struct auxt_close auxt_closes[] = {
	{ "stop-when-full close", 0, false },
	{ "snapshot close", PFMK_AUX_SNAPSHOT, false },
	{ "stop-when-full unload close", 0, true },
	{ "snapshot unload close", PFMK_AUX_SNAPSHOT, true },
};

static void auxt_close_desc(const struct auxt_close *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(auxt_close, auxt_closes, auxt_close_desc);

/* Close and unload while the timer writes: nothing left behind. */
static void aux_close_capturing(struct kunit *test)
{
	const struct auxt_close *c = test->param_value;
	struct pfmk_global_stats before, after;
	struct auxt *t = test->priv;

	auxt_need_patch(test);
	before = pfmkt_gstats(test);
	auxt_create(test, NULL, 0, NULL);
	pfmkt_write_pmc(test, t->desc, 0, PFMK_TEST_AUX_PMC(4, 50));
	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(t->desc, 0, 2 * PAGE_SIZE,
					     c->flags), 0);
	pfmkt_load_start(test, t->desc, t->cpu);
	msleep(30);
	if (c->unload)
		KUNIT_ASSERT_EQ(test, pfmk_unload_context(t->desc), 0);
	pfmkt_close(test, t->desc);
	t->desc = NULL;
	/* Its event and memory went with it (KASAN and kmemleak: the rest). */
	after = pfmkt_gstats(test);
	pfmkt_expect_gstats(test, &before, &after, &(struct pfmk_global_stats){},
			    PFMKT_GST(ctx_open) | PFMKT_GST(events) |
			    PFMKT_GST(mem_bytes));
}

/*
 * CPU hotplug: the buffer goes with the PMD's event and comes back with
 * it, empty, while the PMD's count goes on.
 *
 * A context started on a CPU that can go offline, 50 records written, the
 * CPU taken offline.
 */
static void auxt_hp_offline(struct kunit *test)
{
	struct auxt *t = test->priv;

	auxt_need_patch(test);
	t->cpu = pfmkt_hp_cpu(test);
	auxt_start(test, PFMK_TEST_AUX_PMC(1, 0), PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 50), 0);
	pfmkt_offline(test, t->cpu);
}

/* auxt_hp_offline(), the CPU back online: the context still started. */
static void auxt_hp_back(struct kunit *test)
{
	struct auxt *t = test->priv;

	auxt_hp_offline(test);
	pfmkt_online(test, t->cpu);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(t->desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED);
}

/* No copy while the CPU is offline: its buffer went with its event. */
static void aux_hotplug_copy_offline(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;

	auxt_hp_offline(test);
	KUNIT_EXPECT_EQ(test, pfmk_aux_copy(t->desc, SIZE_MAX,
					    pfmk_test_aux_sink, &t->out,
					    &info), -ENOTCONN);
}

/* Back online, a new buffer: its stream starts again from 0. */
static void aux_hotplug_new_buffer(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;

	auxt_hp_back(test);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 10), 0);
	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info), 10ULL);
	KUNIT_EXPECT_EQ(test, info.from, 0ULL);
	auxt_expect_recs(test, t->out.buf, 10, 0);
}

/* Back online, the PMD's count goes on from where it was. */
static void aux_hotplug_count(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfarg_pmd pmd = { .reg_num = 0 };

	auxt_hp_back(test);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 10), 0);
	KUNIT_ASSERT_EQ(test, pfmk_read_pmds(t->desc, &pmd, 1), 0);
	KUNIT_EXPECT_EQ(test, pmd.reg_value, 60ULL);
}

/*
 * Stop, then drain: what the PMU captured before pfmk_stop() is all there
 * after it, at its stream positions, in both modes (as user-space perf
 * reads the AUX area after disabling its events).
 */
struct auxt_mode {
	const char	*name;
	unsigned int	flags;
};

static const struct auxt_mode auxt_modes[] = {
	{ "stop-when-full", 0 },
	{ "snapshot", PFMK_AUX_SNAPSHOT },
};

static void auxt_mode_desc(const struct auxt_mode *m, char *desc)
{
	strscpy(desc, m->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(auxt_mode, auxt_modes, auxt_mode_desc);

/*
 * Set-up: a context of mode @flags, an AUX buffer of 4 pages, started,
 * @recs records written, stopped.
 */
static void auxt_stopped(struct kunit *test, unsigned int flags, u64 recs)
{
	struct auxt *t = test->priv;

	auxt_need_patch(test);
	auxt_start(test, PFMK_TEST_AUX_PMC(1, 0), 4 * PAGE_SIZE, flags);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, recs), 0);
	KUNIT_ASSERT_EQ(test, pfmk_stop(t->desc), 0);
}

/* Stopped after 100 records: a copy drains them all, at their positions. */
static void aux_stop_then_copy(struct kunit *test)
{
	const struct auxt_mode *m = test->param_value;
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;

	auxt_stopped(test, m->flags, 100);
	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info), 100ULL);
	auxt_expect_recs(test, t->out.buf, 100, 0);
	KUNIT_EXPECT_EQ(test, info.head, 100ULL * AUXT_REC);
	KUNIT_EXPECT_EQ(test, info.from, 0ULL);
	KUNIT_EXPECT_EQ(test, info.to, info.head);
	KUNIT_EXPECT_EQ(test, info.flags, 0U);
}

/*
 * Set-up: auxt_stopped() of 40 records, then a copy bounded to 10 of
 * them (asserted), into the test's copy buffer.  Return: whether the mode
 * is a snapshot.
 */
static bool auxt_copied_part(struct kunit *test, struct pfmk_aux_info *info)
{
	const struct auxt_mode *m = test->param_value;

	auxt_stopped(test, m->flags, 40);
	KUNIT_ASSERT_EQ(test, auxt_copy(test, 10 * AUXT_REC, info), 10ULL);
	return m->flags & PFMK_AUX_SNAPSHOT;
}

/*
 * A bounded copy of a stopped context of 40 records: 10 records, the
 * oldest of a stop-when-full stream, the newest of a snapshot.
 */
static void aux_stop_copy_part(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;
	bool snap = auxt_copied_part(test, &info);

	auxt_expect_recs(test, t->out.buf, 10, snap ? 30 : 0);
}

/*
 * A second copy of that stopped context, after the bounded one: what the
 * first left (consumed), or the same snapshot again.
 */
static void aux_stop_copy_again(struct kunit *test)
{
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;
	bool snap = auxt_copied_part(test, &info);

	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info),
			snap ? 40ULL : 30ULL);
	auxt_expect_recs(test, t->out.buf, snap ? 40 : 30, snap ? 0 : 10);
	KUNIT_EXPECT_EQ(test, info.head, 40ULL * AUXT_REC);
	KUNIT_EXPECT_EQ(test, info.from, snap ? 0ULL : 10ULL * AUXT_REC);
}

/*
 * The flow of a first-time user: a timer-driven PMU, no copy while it
 * runs, stop, drain: every record the PMD counted is in the copy.
 */
static void aux_stop_copy_timer(struct kunit *test)
{
	const struct auxt_mode *m = test->param_value;
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;
	u64 n, count;

	auxt_need_patch(test);
	auxt_start(test, PFMK_TEST_AUX_PMC(4, 1000), 4 * PAGE_SIZE, m->flags);
	msleep(50);
	KUNIT_ASSERT_EQ(test, pfmk_stop(t->desc), 0);
	count = pfmkt_read_set_pmd(test, t->desc, 0, 0);
	KUNIT_ASSERT_GT(test, count, 0ULL);
	/* 50 ms at 128 bytes a millisecond: less than the 16 KiB buffer. */
	KUNIT_ASSERT_LT(test, count * AUXT_REC, 4 * PAGE_SIZE);

	n = auxt_copy(test, SIZE_MAX, &info);
	KUNIT_EXPECT_EQ(test, n, count);
	auxt_expect_recs(test, t->out.buf, n, 0);
	KUNIT_EXPECT_EQ(test, info.head, count * AUXT_REC);
	KUNIT_EXPECT_EQ(test, info.truncated, 0ULL);
}

/*
 * Set-up of the set-switch cases, in mode @flags: sets 0 and 1, PMC 0 of
 * each on the AUX PMU, set 0's AUX buffer; loaded and started on set 0,
 * 30 records captured, stopped, started again on set 1, 7 records
 * written.
 */
static void auxt_switched(struct kunit *test, unsigned int flags)
{
	struct pfarg_setdesc sd = { .set_id = 1 };
	struct pfarg_start st = { .start_set = 1 };
	struct auxt *t = test->priv;
	struct pfarg_pmc pmc;

	auxt_need_patch(test);
	auxt_create(test, NULL, 0, NULL);
	KUNIT_ASSERT_EQ(test, pfmk_create_evtsets(t->desc, &sd, 1), 0);
	pfmkt_write_pmc(test, t->desc, 0, PFMK_TEST_AUX_PMC(1, 0));
	pfmkt_pmc_req(&pmc, 1, 1, PFMK_TEST_AUX_PMC(1, 0));
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(t->desc, &pmc, 1), 0);
	KUNIT_ASSERT_EQ(test, pfmk_aux_setup(t->desc, 0, 4 * PAGE_SIZE,
					     flags), 0);
	pfmkt_load_start(test, t->desc, t->cpu);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 30), 0);
	KUNIT_ASSERT_EQ(test, pfmk_stop(t->desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(t->desc, &st), 0);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 7), 0);
}

/* A switch to set 1: only set 1's PMD counts what the PMU writes. */
static void aux_switch_counts_set1(struct kunit *test)
{
	const struct auxt_mode *m = test->param_value;
	struct auxt *t = test->priv;

	auxt_switched(test, m->flags);
	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, t->desc, 1, 1), 7ULL);
}

/*
 * A switch to set 1 leaves set 0, and its AUX PMD, inactive while the
 * context runs: what set 0 captured is drained as after a stop.
 */
static void aux_switch_then_copy(struct kunit *test)
{
	const struct auxt_mode *m = test->param_value;
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;

	auxt_switched(test, m->flags);
	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info), 30ULL);
	auxt_expect_recs(test, t->out.buf, 30, 0);
	KUNIT_EXPECT_EQ(test, info.head, 30ULL * AUXT_REC);
}

/* Back on set 0 after a drain: its stream goes on where it stopped. */
static void aux_switch_back_goes_on(struct kunit *test)
{
	const struct auxt_mode *m = test->param_value;
	struct pfarg_start st = { .start_set = 0 };
	struct auxt *t = test->priv;
	struct pfmk_aux_info info;

	auxt_switched(test, m->flags);
	KUNIT_ASSERT_EQ(test, auxt_copy(test, SIZE_MAX, &info), 30ULL);
	KUNIT_ASSERT_EQ(test, pfmk_stop(t->desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(t->desc, &st), 0);
	KUNIT_ASSERT_EQ(test, pfmk_test_aux_write(t->cpu, 5), 0);
	KUNIT_EXPECT_EQ(test, auxt_copy(test, SIZE_MAX, &info),
			m->flags ? 35ULL : 5ULL);
	KUNIT_EXPECT_EQ(test, info.head, 35ULL * AUXT_REC);
}

static struct kunit_case pfmk_aux_life_cases[] = {
	KUNIT_CASE_PARAM(aux_rewrite_loaded, auxt_rewrite_gen_params),
	KUNIT_CASE_PARAM(aux_rewrite_loaded_copies_new_stream,
			 auxt_rewrite_gen_params),
	KUNIT_CASE_PARAM(aux_rewrite_loaded_snippets, auxt_rewrite_gen_params),
	KUNIT_CASE(aux_rewrite_loaded_disable),
	KUNIT_CASE(aux_rewrite_loaded_disable_keeps),
	KUNIT_CASE_PARAM(aux_close_capturing, auxt_close_gen_params),
	KUNIT_CASE(aux_hotplug_copy_offline),
	KUNIT_CASE(aux_hotplug_new_buffer),
	KUNIT_CASE(aux_hotplug_count),
	KUNIT_CASE_PARAM(aux_stop_then_copy, auxt_mode_gen_params),
	KUNIT_CASE_PARAM(aux_stop_copy_part, auxt_mode_gen_params),
	KUNIT_CASE_PARAM(aux_stop_copy_again, auxt_mode_gen_params),
	KUNIT_CASE_PARAM(aux_stop_copy_timer, auxt_mode_gen_params),
	KUNIT_CASE_PARAM(aux_switch_counts_set1, auxt_mode_gen_params),
	KUNIT_CASE_PARAM(aux_switch_then_copy, auxt_mode_gen_params),
	KUNIT_CASE_PARAM(aux_switch_back_goes_on, auxt_mode_gen_params),
	{}
};

static struct kunit_suite pfmk_aux_life_suite = {
	.name = "pfmk_aux_life",
	.init = auxt_init,
	.exit = auxt_exit,
	.test_cases = pfmk_aux_life_cases,
};

kunit_test_suites(&pfmk_aux_life_suite);
