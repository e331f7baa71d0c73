// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_sets_switch: switching on overflow on the
 * deterministic test PMU, with exact switch counts and per-set values
 * over many switches, a switch that comes due while MASKED waiting for
 * pfmk_restart(), and sampling entries of the set whose PMD overflowed.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

/* Make PMD @reg of set @set sample every @period events. */
static void sets_write_sampling(struct kunit *test, void *desc, u16 set,
				u16 reg, u64 period, u64 switch_cnt, u32 flags)
{
	const struct pfmkt_pmd p = {
		.set = set, .switch_cnt = switch_cnt, .flags = flags,
	};

	pfmkt_write_sampler_pmd(test, desc, reg, period, &p);
}

#define SETS_CYCLES	50

/*
 * Two sets switching on overflow on the test PMU: set 0 after 1 overflow
 * of period 20, set 1 after 1 overflow of period 5.  (Without a sampling
 * format, as in perfmon2 2.2, an overflow that does not complete a switch
 * count masks the context: a count of 1 switches without masking.)  A
 * counting PMD 1 in each set.  Run for SETS_CYCLES cycles of both sets,
 * then stopped.
 */
static void *sets_ovfl_switch_run(struct kunit *test)
{
	void *desc = pfmkt_create_two_sets(test, PFM_SETFL_OVFL_SWITCH,
				     PFM_SETFL_OVFL_SWITCH, 0);
	int cpu = pfmkt_cpu();
	unsigned int k, i;

	pfmkt_write_set_pmc(test, desc, 0, 1, PFMK_TEST_PMC(1));
	pfmkt_write_set_pmc(test, desc, 1, 1, PFMK_TEST_PMC(2));
	sets_write_sampling(test, desc, 0, 0, 20, 1, 0);
	sets_write_sampling(test, desc, 1, 0, 5, 1, 0);
	pfmkt_load_start(test, desc, cpu);

	for (k = 1; k <= SETS_CYCLES; k++) {
		for (i = 0; i < 20; i++)
			pfmk_test_pmu_tick(cpu, 1);
		KUNIT_ASSERT_TRUE_MSG(test, pfmkt_wait_set_runs(desc, 1, k),
				      "cycle %u: no switch to set 1", k);
		for (i = 0; i < 5; i++)
			pfmk_test_pmu_tick(cpu, 1);
		KUNIT_ASSERT_TRUE_MSG(test, pfmkt_wait_set_runs(desc, 0, k + 1),
				      "cycle %u: no switch to set 0", k);
	}
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	return desc;
}

/*
 * Switching on overflow: the counting PMD of each set counts exactly the
 * ticks its set was active for.
 */
static void sets_ovfl_switch_counts(struct kunit *test)
{
	void *desc = sets_ovfl_switch_run(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 0, 1), 20 * SETS_CYCLES);
	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 1, 1),
			2 * 5 * SETS_CYCLES);
}

/* Switching on overflow: each set's sampling PMD is reset to -period. */
static void sets_ovfl_switch_reset(struct kunit *test)
{
	void *desc = sets_ovfl_switch_run(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 0, 0), -20ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 1, 0), -5ULL);
}

/* Switching on overflow: the context's stats count switches, overflows. */
static void sets_ovfl_switch_stats(struct kunit *test)
{
	void *desc = sets_ovfl_switch_run(test);
	struct pfmk_ctx_stats st;

	KUNIT_ASSERT_EQ(test, pfmk_get_stats(desc, &st), 0);
	pfmkt_expect_stats_in(test, &st,
			      &(struct pfmk_ctx_stats){
				.set_switches = 2 * SETS_CYCLES,
				.ovfl_count = 2 * SETS_CYCLES },
			      PFMKT_ST(set_switches) | PFMKT_ST(ovfl_count));
	KUNIT_EXPECT_GT(test, st.switch_lat_max, 0);
	kunit_info(test, "%llu switches, latency mean %llu ns, max %llu ns\n",
		   st.set_switches,
		   st.switch_lat_total / max_t(u64, st.set_switches, 1),
		   st.switch_lat_max);
}

/**
 * struct sets_ovfl_info - what sets_ovfl_switch_run() leaves in a set's info
 * @name: the row.
 * @set: the set.
 * @runs: its runs (set 0 runs once more: first, and after the last switch).
 * @next: the set it switches to.
 */
struct sets_ovfl_info {
	const char	*name;
	u16		set;
	u64		runs;
	u16		next;
};

static const struct sets_ovfl_info sets_ovfl_infos[] = {
	{ "set_0", 0, SETS_CYCLES + 1, 1 },
	{ "set_1", 1, SETS_CYCLES, 0 },
};

static void sets_ovfl_info_desc(const struct sets_ovfl_info *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sets_ovfl_info, sets_ovfl_infos, sets_ovfl_info_desc);

/* Switching on overflow: each set's runs and next set, a row per set. */
static void sets_ovfl_switch_setinfo(struct kunit *test)
{
	const struct sets_ovfl_info *r = test->param_value;
	void *desc = sets_ovfl_switch_run(test);
	struct pfarg_setinfo info;

	info = pfmkt_set_info(test, desc, r->set);
	KUNIT_EXPECT_EQ(test, info.set_runs, r->runs);
	KUNIT_EXPECT_EQ(test, info.set_id_next, r->next);
}

/* Switching on overflow: set 0's info names the PMD that overflowed. */
static void sets_ovfl_switch_setinfo_ovfl(struct kunit *test)
{
	void *desc = sets_ovfl_switch_run(test);
	struct pfarg_setinfo info;

	info = pfmkt_set_info(test, desc, 0);
	KUNIT_EXPECT_EQ(test, info.set_ovfl_pmds[0], 1);
}

/*
 * Explicit next sets: four sets switching on each overflow, set 0 naming
 * set 2 and set 3 naming set 1, so that the sets run 0, 2, 3, 1, 2, 3, 1
 * (in id order they would run 0, 1, 2, 3, 0, ...).  Each switch is
 * awaited on the set it must land on, and only that set's runs grow.
 */
static void sets_expl_next_order(struct kunit *test)
{
	static const u16 order[] = { 2, 3, 1, 2, 3, 1 };
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	u64 runs[4] = { 1, 0, 0, 0 };
	int cpu = pfmkt_cpu();
	unsigned int i, s;

	/* A next set must exist when it is named: set 0 last. */
	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 1, PFM_SETFL_OVFL_SWITCH, 0, 0),
			0);
	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 2, PFM_SETFL_OVFL_SWITCH, 0, 0),
			0);
	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 3, PFM_SETFL_OVFL_SWITCH |
					  PFM_SETFL_EXPL_NEXT, 0, 1), 0);
	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 0, PFM_SETFL_OVFL_SWITCH |
					  PFM_SETFL_EXPL_NEXT, 0, 2), 0);
	for (s = 0; s < 4; s++) {
		pfmkt_write_set_pmc(test, desc, s, 0, PFMK_TEST_PMC(1));
		sets_write_sampling(test, desc, s, 0, 10, 1, 0);
	}
	pfmkt_load_start(test, desc, cpu);

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		pfmk_test_pmu_tick(cpu, 10);
		runs[order[i]]++;
		KUNIT_ASSERT_TRUE_MSG(test, pfmkt_wait_set_runs(desc, order[i],
								runs[order[i]]),
				      "switch %u: set %u did not run", i,
				      order[i]);
		for (s = 0; s < 4; s++)
			KUNIT_ASSERT_EQ_MSG(test, pfmkt_set_info(test, desc, s).set_runs,
					    runs[s], "switch %u, set %u", i, s);
	}
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
}

/*
 * Two sets, set 0 switching after one notifying overflow of its PMD 0
 * (period 10), started on @cpu; 10 ticks: the overflow message of set 0
 * read (blocking), the context MASKED.
 */
static void *sets_masked_at_switch(struct kunit *test, int cpu)
{
	void *desc = pfmkt_create_two_sets(test, PFM_SETFL_OVFL_SWITCH, 0, 0);
	union pfm_msg msg;

	sets_write_sampling(test, desc, 0, 0, 10, 1, PFM_REGFL_OVFL_NOTIFY);
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_ASSERT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 0),
			(ssize_t)sizeof(msg));
	KUNIT_ASSERT_EQ(test, msg.type, PFM_MSG_OVFL);
	KUNIT_ASSERT_EQ(test, msg.pfm_ovfl_msg.msg_active_set, 0);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_MASKED | PFMK_STATE_STARTED);
	return desc;
}

/* A switch due while MASKED waits for pfmk_restart(). */
static void sets_masked_switch_waits(struct kunit *test)
{
	void *desc = sets_masked_at_switch(test, pfmkt_cpu());

	/* Give the switch work every chance to run: it must not switch. */
	msleep(50);
	KUNIT_EXPECT_EQ(test, pfmkt_set_info(test, desc, 1).set_runs, 0);
	KUNIT_EXPECT_EQ(test, pfmkt_set_info(test, desc, 0).set_runs, 1);
}

/* sets_masked_at_switch() on @cpu, then restarted. */
static void *sets_masked_restarted(struct kunit *test, int cpu)
{
	void *desc = sets_masked_at_switch(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	return desc;
}

/* restart unmasks and switches before it returns. */
static void sets_masked_switch_on_restart(struct kunit *test)
{
	void *desc = sets_masked_restarted(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_set_info(test, desc, 1).set_runs, 1);
}

/* After that restart, set 1 counts. */
static void sets_masked_restart_counts(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = sets_masked_restarted(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmkt_set_info(test, desc, 1).set_runs, 1);
	pfmk_test_pmu_tick(cpu, 4);
	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 1, 0), 4);
}

#define SETS_MASKED_ROUNDS	200

/**
 * struct sets_masked_break - the first round a fact broke in, while masked
 * @round: that round, or -1 if the fact held in every round.
 * @set: the set that overflowed in that round.
 * @got: what the round saw.
 * @want: what it should have seen.
 */
struct sets_masked_break {
	int	round;
	u16	set;
	u64	got;
	u64	want;
};

/**
 * struct sets_masked_tally - what the rounds of sets_masked_rounds() saw
 * @active: the counting PMD of the set that overflowed counted the tick.
 * @other: the other set's counting PMD did not move.
 * @runs: no set started a run (the runs of both sets, summed).
 * @state: the context stayed MASKED (and started).
 */
struct sets_masked_tally {
	struct sets_masked_break active, other, runs, state;
};

/* If @got is not @want and @b holds no round yet, note round @round. */
static void sets_masked_note(struct sets_masked_break *b, unsigned int round,
			     u16 set, u64 got, u64 want)
{
	if (got == want || b->round >= 0)
		return;
	b->round = round;
	b->set = set;
	b->got = got;
	b->want = want;
}

/*
 * One round of sets_masked_rounds(): tick until an overflow masks the
 * context, read its message, tick once more while masked, note in @t what
 * broke, and restart.
 */
static void sets_masked_round(struct kunit *test, void *desc, int cpu,
			      unsigned int round, struct sets_masked_tally *t)
{
	struct pfmkt_priv *priv = test->priv;
	struct pfarg_setinfo before[2], after[2];
	union pfm_msg msg;
	u64 c0, c1;
	u16 id;

	/* A tick in a switch's gap overflows nothing: tick again. */
	while (!completion_done(&priv->done))
		pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&priv->done, HZ),
			0UL);
	KUNIT_ASSERT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)sizeof(msg));
	id = msg.pfm_ovfl_msg.msg_active_set;
	KUNIT_ASSERT_LT(test, id, 2);
	before[0] = pfmkt_set_info(test, desc, 0);
	before[1] = pfmkt_set_info(test, desc, 1);
	c0 = pfmkt_read_set_pmd(test, desc, id, 1);
	c1 = pfmkt_read_set_pmd(test, desc, !id, 1);
	/* Several timeouts go by while masked. */
	usleep_range(400, 500);
	pfmk_test_pmu_tick(cpu, 1);
	after[0] = pfmkt_set_info(test, desc, 0);
	after[1] = pfmkt_set_info(test, desc, 1);
	sets_masked_note(&t->active, round, id,
			 pfmkt_read_set_pmd(test, desc, id, 1), c0 + 1);
	sets_masked_note(&t->other, round, id,
			 pfmkt_read_set_pmd(test, desc, !id, 1), c1);
	sets_masked_note(&t->runs, round, id,
			 after[0].set_runs + after[1].set_runs,
			 before[0].set_runs + before[1].set_runs);
	sets_masked_note(&t->state, round, id, pfmk_get_state(desc),
			 PFM_CTX_MASKED | PFMK_STATE_STARTED);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
}

/*
 * Two sets switching every 100 us, each with a PMD that notifies at every
 * tick of the test PMU (no format: each overflow masks) and a counting
 * PMD, run for SETS_MASKED_ROUNDS rounds of sets_masked_round(); @t:
 * the first round each fact broke in.  Between an overflow message and
 * pfmk_restart() the set that overflowed stays the active one: a tick
 * while masked lands in its counter, and no set starts a new run.  A
 * switch that races with the masking overflow must be called off, not
 * done on a masked context.
 */
static void sets_masked_rounds(struct kunit *test, struct sets_masked_tally *t)
{
	void *desc = pfmkt_create_two_sets(test, PFM_SETFL_TIME_SWITCH,
				     PFM_SETFL_TIME_SWITCH, 100);
	int cpu = pfmkt_cpu();
	unsigned int round;
	u16 id;

	memset(t, 0, sizeof(*t));
	t->active.round = -1;
	t->other.round = -1;
	t->runs.round = -1;
	t->state.round = -1;
	for (id = 0; id < 2; id++) {
		pfmkt_write_set_pmc(test, desc, id, 1, PFMK_TEST_PMC(1));
		sets_write_sampling(test, desc, id, 0, 1, 0,
				    PFM_REGFL_OVFL_NOTIFY);
	}
	pfmkt_load_start(test, desc, cpu);
	for (round = 0; round < SETS_MASKED_ROUNDS; round++)
		sets_masked_round(test, desc, cpu, round, t);
}

/* @b held in every round: what broke, @what, and in which round if not. */
static void sets_masked_expect(struct kunit *test,
			       const struct sets_masked_break *b,
			       const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, b->got, b->want,
			    "round %d (set %u overflowed): %s", b->round,
			    b->set, what);
}

/* While masked, no set switch happens, though timeouts expire. */
static void sets_masked_no_time_switch(struct kunit *test)
{
	struct sets_masked_tally t;

	sets_masked_rounds(test, &t);
	sets_masked_expect(test, &t.runs, "a set switch while masked");
}

/*
 * While masked, the set that overflowed stays active: a tick lands in its
 * counter and in no other set's.
 */
static void sets_masked_sets_frozen(struct kunit *test)
{
	struct sets_masked_tally t;

	sets_masked_rounds(test, &t);
	sets_masked_expect(test, &t.active, "the set that overflowed stopped");
	sets_masked_expect(test, &t.other, "the other set counted");
}

/* Until pfmk_restart(), the context stays MASKED, whatever the timeouts. */
static void sets_masked_state_kept(struct kunit *test)
{
	struct sets_masked_tally t;

	sets_masked_rounds(test, &t);
	sets_masked_expect(test, &t.state, "not MASKED");
}

/*
 * A context whose set 0 (PFM_SETFL_OVFL_SWITCH) samples PMD 0 with a
 * switch count of 1: an overflow at the second tick switches to set 1.
 */
static void *sets_switch_at_second_tick(struct kunit *test)
{
	void *desc = pfmkt_create_two_sets(test, PFM_SETFL_OVFL_SWITCH, 0, 0);

	sets_write_sampling(test, desc, 0, 0, 2, 1, 0);
	return desc;
}

/*
 * stop() lets a switch an overflow just asked for land, and drops it: a
 * start right after does not switch sets.  (A switch done before the
 * stop is legitimate: it is counted before the snapshot.)
 */
static void sets_stop_drops_switch(struct kunit *test)
{
	void *desc = sets_switch_at_second_tick(test);
	struct pfmk_ctx_stats st;
	int cpu = pfmkt_cpu();
	unsigned int round;
	u64 switches;

	for (round = 0; round < 50; round++) {
		pfmkt_load_start(test, desc, cpu);
		pfmk_test_pmu_tick(cpu, 2);
		KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
		KUNIT_ASSERT_EQ(test, pfmk_get_stats(desc, &st), 0);
		switches = st.set_switches;
		KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
		usleep_range(200, 300);
		KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
		KUNIT_ASSERT_EQ(test, pfmk_get_stats(desc, &st), 0);
		KUNIT_ASSERT_EQ_MSG(test, st.set_switches, switches,
				    "round %u: switched after start", round);
		KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	}
}

/* The switch count read back for PMD @reg of set @set. */
static u64 sets_read_switch_cnt(struct kunit *test, void *desc, u16 set,
				u16 reg)
{
	struct pfarg_pmd pmd;

	memset(&pmd, 0, sizeof(pmd));
	pmd.reg_num = reg;
	pmd.reg_set = set;
	KUNIT_EXPECT_EQ(test, pfmk_read_pmds(desc, &pmd, 1), 0);
	return pmd.reg_ovfl_switch_cnt;
}

/*
 * sets_switch_at_second_tick() run on @cpu until the overflow switched
 * to set 1, then stopped.
 */
static void *sets_switched_once(struct kunit *test, int cpu)
{
	void *desc = sets_switch_at_second_tick(test);

	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 2);
	KUNIT_ASSERT_TRUE(test, pfmkt_wait_set_runs(desc, 1, 1));
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	return desc;
}

/*
 * sets_switched_once(), unloaded, and set 0 redescribed without
 * PFM_SETFL_OVFL_SWITCH.
 */
static void *sets_redescribed(struct kunit *test, int cpu)
{
	void *desc = sets_switched_once(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 0, 0, 0, 0), 0);
	return desc;
}

/* The overflow that switched counted the PMD's switch count down to 0. */
static void sets_switch_cnt_counted_down(struct kunit *test)
{
	void *desc = sets_switched_once(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, sets_read_switch_cnt(test, desc, 0, 0), 0ULL);
}

/*
 * A set redescribed without PFM_SETFL_OVFL_SWITCH after overflows counted
 * its switch count down reports the count written, not what was left.
 */
static void sets_redescribe_reloads_switch_cnt(struct kunit *test)
{
	void *desc = sets_redescribed(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, sets_read_switch_cnt(test, desc, 0, 0), 1ULL);
}

/* The redescribed set's switch count is still the one written after a run. */
static void sets_redescribe_switch_cnt_kept(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = sets_redescribed(test, cpu);

	pfmkt_load_start(test, desc, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_EXPECT_EQ(test, sets_read_switch_cnt(test, desc, 0, 0), 1ULL);
}

/*
 * Stopping a PFM_SETFL_TIME_SWITCH set cancels its timeout: a run that
 * starts on a set without one, before the old timeout would have
 * expired, is not switched by it.
 */
static void sets_stop_cancels_timeout(struct kunit *test)
{
	void *desc = pfmkt_create_two_sets(test, PFM_SETFL_TIME_SWITCH, 0, 20000);
	struct pfmk_ctx_stats st;
	struct pfarg_load load;
	int cpu = pfmkt_cpu();
	u64 switches;

	pfmkt_load_start(test, desc, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	/* A slow emulated CPU may take 20 ms between start and stop. */
	KUNIT_ASSERT_EQ(test, pfmk_get_stats(desc, &st), 0);
	switches = st.set_switches;

	pfmkt_load_req(&load, cpu, 1);
	KUNIT_ASSERT_EQ(test, pfmk_load_context(desc, &load), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	/* Three times set 0's 20 ms timeout. */
	msleep(60);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_get_stats(desc, &st), 0);
	KUNIT_EXPECT_EQ(test, st.set_switches, switches);
	KUNIT_EXPECT_EQ(test, pfmkt_set_info(test, desc, 0).set_runs, 1ULL);
}

/*
 * A sampling context (default format) with sets 0 and 1, both switching
 * on overflows.
 */
static void *sets_create_smpl(struct kunit *test, void **buf)
{
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, 4096, buf);
	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 0, PFM_SETFL_OVFL_SWITCH, 0,
					  0), 0);
	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 1, PFM_SETFL_OVFL_SWITCH, 0,
					  0), 0);
	return desc;
}

/* Entry @i (one value) is of @set and @pmd, reset to -@period, with @val. */
static void sets_expect_entry(struct kunit *test, void *buf, unsigned int i,
			      u16 set, u16 pmd, u64 period, u64 val)
{
	const struct pfm_dfl_smpl_entry *ent = pfmkt_entry(buf, i, 1);

	KUNIT_EXPECT_EQ_MSG(test, ent->set, set, "entry %u", i);
	KUNIT_EXPECT_EQ_MSG(test, ent->ovfl_pmd, pmd, "entry %u", i);
	KUNIT_EXPECT_EQ_MSG(test, ent->last_reset_val, -period, "entry %u", i);
	KUNIT_EXPECT_EQ_MSG(test, pfmkt_entry_vals(ent)[0], val, "entry %u", i);
}

/*
 * Sampling in two sets switching on overflow: set 0 samples PMD0 every
 * 10 ticks (records PMD1, step 1) and switches after 1 overflow; set 1
 * samples PMD2 every 4 ticks (records PMD3, step 3) and switches after
 * 2.  Run until set 0 is back, then stopped: three entries.
 */
static void *sets_smpl_run(struct kunit *test, void **buf)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = sets_create_smpl(test, buf);
	pfmkt_write_set_pmc(test, desc, 0, 0, PFMK_TEST_PMC(1));
	pfmkt_write_set_pmc(test, desc, 0, 1, PFMK_TEST_PMC(1));
	pfmkt_write_set_pmc(test, desc, 1, 2, PFMK_TEST_PMC(1));
	pfmkt_write_set_pmc(test, desc, 1, 3, PFMK_TEST_PMC(3));
	pfmkt_write_sampler_pmd(test, desc, 0, 10,
				&(struct pfmkt_pmd){ .smpl_pmds = BIT_ULL(1),
						     .switch_cnt = 1 });
	pfmkt_write_sampler_pmd(test, desc, 2, 4,
				&(struct pfmkt_pmd){ .set = 1,
						     .smpl_pmds = BIT_ULL(3),
						     .switch_cnt = 2 });
	pfmkt_load_start(test, desc, cpu);

	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_ASSERT_TRUE_MSG(test, pfmkt_wait_set_runs(desc, 1, 1),
			      "no switch to set 1");
	pfmk_test_pmu_tick(cpu, 4);
	pfmk_test_pmu_tick(cpu, 4);
	KUNIT_ASSERT_TRUE_MSG(test, pfmkt_wait_set_runs(desc, 0, 2),
			      "no switch back to set 0");
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	return desc;
}

/* Entries carry their set and PMD, and the values of their set's PMD. */
static void sets_smpl_entries(struct kunit *test)
{
	void *buf;

	sets_smpl_run(test, &buf);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), 3ULL);
	sets_expect_entry(test, buf, 0, 0, 0, 10, 10);
	sets_expect_entry(test, buf, 1, 1, 2, 4, 3 * 4);
	sets_expect_entry(test, buf, 2, 1, 2, 4, 3 * 8);
}

/* Each set's recorded PMD counts only its set's ticks. */
static void sets_smpl_counts(struct kunit *test)
{
	void *buf, *desc = sets_smpl_run(test, &buf);

	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 0, 1), 10ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 1, 3), 3 * 8ULL);
}

/* Each set's sampling PMD is reset to -period. */
static void sets_smpl_reset(struct kunit *test)
{
	void *buf, *desc = sets_smpl_run(test, &buf);

	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 0, 0), -10ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_set_pmd(test, desc, 1, 2), -4ULL);
}

/*
 * The same with entries of the default format's common part only (no
 * reg_smpl_pmds: the overflow path writes them in place): set 0 samples
 * PMD0 every 10 ticks and switches after 2 overflows, set 1 samples PMD2
 * every 4 ticks and switches after 1.  Each overflow records its entry
 * and counts towards its set's switch.
 */
static void sets_smpl_entries_plain(struct kunit *test)
{
	static const u16 want_set[] = { 0, 0, 1 }, want_pmd[] = { 0, 0, 2 };
	const struct pfm_dfl_smpl_entry *ent;
	int cpu = pfmkt_cpu();
	void *desc, *buf;
	unsigned int i;

	desc = sets_create_smpl(test, &buf);
	pfmkt_write_set_pmc(test, desc, 0, 0, PFMK_TEST_PMC(1));
	pfmkt_write_set_pmc(test, desc, 1, 2, PFMK_TEST_PMC(1));
	pfmkt_write_sampler_pmd(test, desc, 0, 10,
				&(struct pfmkt_pmd){ .switch_cnt = 2 });
	pfmkt_write_sampler_pmd(test, desc, 2, 4,
				&(struct pfmkt_pmd){ .set = 1, .switch_cnt = 1 });
	pfmkt_load_start(test, desc, cpu);

	pfmk_test_pmu_tick(cpu, 10);
	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_ASSERT_TRUE_MSG(test, pfmkt_wait_set_runs(desc, 1, 1),
			      "no switch to set 1");
	pfmk_test_pmu_tick(cpu, 4);
	KUNIT_ASSERT_TRUE_MSG(test, pfmkt_wait_set_runs(desc, 0, 2),
			      "no switch back to set 0");
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);

	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), 3ULL);
	for (i = 0; i < ARRAY_SIZE(want_set); i++) {
		ent = pfmkt_entry(buf, i, 0);
		KUNIT_EXPECT_EQ_MSG(test, ent->set, want_set[i], "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ent->ovfl_pmd, want_pmd[i],
				    "entry %u", i);
	}
}

/*
 * PFM_SETFL_OVFL_SWITCH given to set 0 after its sampling PMD (period 10,
 * switch count 1) was written (default format, no reg_smpl_pmds: a plain
 * sample but for the flag), started, and 10 ticks: one overflow.
 */
static void *sets_described_after_write(struct kunit *test, void **buf)
{
	int cpu = pfmkt_cpu();
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, 4096, buf);
	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 1, 0, 0, 0), 0);
	pfmkt_write_set_pmc(test, desc, 0, 0, PFMK_TEST_PMC(1));
	pfmkt_write_set_pmc(test, desc, 1, 0, PFMK_TEST_PMC(1));
	pfmkt_write_sampler_pmd(test, desc, 0, 10,
				&(struct pfmkt_pmd){ .switch_cnt = 1 });
	KUNIT_ASSERT_EQ(test, pfmkt_mkset(desc, 0, PFM_SETFL_OVFL_SWITCH, 0,
					  0), 0);
	pfmkt_load_start(test, desc, cpu);

	pfmk_test_pmu_tick(cpu, 10);
	return desc;
}

/* The overflow completes the switch count and the set switches. */
static void sets_switch_described_after_write(struct kunit *test)
{
	void *buf, *desc = sets_described_after_write(test, &buf);

	KUNIT_EXPECT_TRUE_MSG(test, pfmkt_wait_set_runs(desc, 1, 1),
			      "no switch to set 1");
}

/* The overflow that switched took one sample. */
static void sets_switch_after_write_sampled(struct kunit *test)
{
	void *buf, *desc = sets_described_after_write(test, &buf);

	KUNIT_ASSERT_TRUE_MSG(test, pfmkt_wait_set_runs(desc, 1, 1),
			      "no switch to set 1");
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 1ULL);
}

static struct kunit_case pfmk_sets_switch_cases[] = {
	KUNIT_CASE_SLOW(sets_ovfl_switch_counts),
	KUNIT_CASE_SLOW(sets_ovfl_switch_reset),
	KUNIT_CASE_SLOW(sets_ovfl_switch_stats),
	KUNIT_CASE_PARAM(sets_ovfl_switch_setinfo, sets_ovfl_info_gen_params),
	KUNIT_CASE_SLOW(sets_ovfl_switch_setinfo_ovfl),
	KUNIT_CASE(sets_expl_next_order),
	KUNIT_CASE(sets_masked_switch_waits),
	KUNIT_CASE(sets_masked_switch_on_restart),
	KUNIT_CASE(sets_masked_restart_counts),
	KUNIT_CASE_SLOW(sets_masked_no_time_switch),
	KUNIT_CASE_SLOW(sets_masked_sets_frozen),
	KUNIT_CASE_SLOW(sets_masked_state_kept),
	KUNIT_CASE(sets_stop_drops_switch),
	KUNIT_CASE(sets_switch_cnt_counted_down),
	KUNIT_CASE(sets_redescribe_reloads_switch_cnt),
	KUNIT_CASE(sets_redescribe_switch_cnt_kept),
	KUNIT_CASE(sets_stop_cancels_timeout),
	KUNIT_CASE(sets_smpl_entries),
	KUNIT_CASE(sets_smpl_counts),
	KUNIT_CASE(sets_smpl_reset),
	KUNIT_CASE(sets_smpl_entries_plain),
	KUNIT_CASE(sets_switch_described_after_write),
	KUNIT_CASE(sets_switch_after_write_sampled),
	{}
};

static struct kunit_suite pfmk_sets_switch_suite = {
	.name = "pfmk_sets_switch",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_sets_switch_cases,
};

kunit_test_suites(&pfmk_sets_switch_suite);
