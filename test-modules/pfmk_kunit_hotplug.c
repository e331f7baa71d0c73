// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_hotplug: one offline/online cycle of a CPU at a
 * time, with exact expectations: PMD values and sampling phase preserved,
 * state and messages, writes, unload and close while the CPU is away;
 * stop and start while it is away; a re-arm that fails on the max_events
 * limit.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/perf_event.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>

#include "../core/test_hooks.h"
#include "pfmk_kunit.h"
#include "pfmk_test_file.h"
#include "pfmk_test_pmu.h"

/*
 * Take the next message and check it is of @type for @cpu, of @cycle:
 * each field an expectation or an assertion, as @kind says.  A message
 * must be there to check (asserted).  The KUnit macro that takes the
 * kind as a value is the one KUNIT_EXPECT_EQ() and KUNIT_ASSERT_EQ()
 * both expand to, the same on 6.1, 6.12 and 7.2.
 */
static void hotplug_check_msg(struct kunit *test, enum kunit_assert_type kind,
			      void *desc, u32 type, int cpu, u64 cycle)
{
	union pfm_msg msg;

	KUNIT_ASSERT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)sizeof(msg));
	KUNIT_BINARY_INT_ASSERTION(test, kind, msg.type, ==, type, NULL);
	KUNIT_BINARY_INT_ASSERTION(test, kind, msg.pfmk_cpu_msg.msg_cpu, ==,
				   cpu, NULL);
	KUNIT_BINARY_INT_ASSERTION(test, kind, msg.pfmk_cpu_msg.msg_cycle, ==,
				   cycle, NULL);
}

/**
 * pfmkt_expect_msg() - take the next message, of @type for @cpu
 * @test: the test.
 * @desc: the context.
 * @type: PFMK_MSG_CPU_OFFLINE or PFMK_MSG_CPU_ONLINE.
 * @cpu: the CPU the message must name.
 * @cycle: the hotplug cycle it must carry.
 *
 * Its fields are expectations: a wrong one fails the case, which goes on.
 */
void pfmkt_expect_msg(struct kunit *test, void *desc, u32 type,
		      int cpu, u64 cycle)
{
	hotplug_check_msg(test, KUNIT_EXPECTATION, desc, type, cpu, cycle);
}

/*
 * Take the next message, which a set-up expects: of @type for @cpu, of
 * @cycle; or abort the case.
 */
static void hotplug_take_msg(struct kunit *test, void *desc, u32 type,
			     int cpu, u64 cycle)
{
	hotplug_check_msg(test, KUNIT_ASSERTION, desc, type, cpu, cycle);
}

/*
 * A context counting on @cpu, started: PMD 0 one per tick, PMD 1 three;
 * 100 ticks counted.
 */
static void *hotplug_counting(struct kunit *test, int cpu)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(3));
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 100);
	return desc;
}

/* Take @cpu away and back, and let the hotplug work re-arm. */
static void hotplug_cycle(struct kunit *test, int cpu)
{
	pfmkt_offline(test, cpu);
	pfmkt_online(test, cpu);
	pfmk_hotplug_test_flush();
}

/* Counts are kept while the CPU is away. */
static void hotplug_count_kept_offline(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_counting(test, cpu);

	pfmkt_offline(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 100);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 300);
}

/*
 * hotplug_counting() on @cpu, which goes away and comes back; 50 more
 * ticks counted.  The hotplug work has re-armed the context before the
 * ticks (a KAPI call on the context would too).
 */
static void *hotplug_back(struct kunit *test, int cpu)
{
	void *desc = hotplug_counting(test, cpu);

	hotplug_cycle(test, cpu);
	pfmk_test_pmu_tick(cpu, 50);
	return desc;
}

/* Counts go on from where they were when the CPU is back. */
static void hotplug_count_preserved(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_back(test, cpu);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 150);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 450);
}

/* Counts go on across a second cycle as across the first. */
static void hotplug_count_preserved_two_cycles(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_back(test, cpu);

	hotplug_cycle(test, cpu);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 151);
}

/* A started context is OFFLINE while its CPU is away. */
static void hotplug_state_offline(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_counting(test, cpu);

	pfmkt_offline(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED | PFMK_STATE_OFFLINE);
}

/* A started context is no longer OFFLINE once its CPU is back. */
static void hotplug_state_online(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_counting(test, cpu);

	pfmkt_offline(test, cpu);
	pfmkt_online(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED);
}

/*
 * hotplug_counting() on @cpu, which goes away, the hotplug work done.
 * @before: output: the pfmk-wide counters before it went.
 */
static void hotplug_away(struct kunit *test, int cpu,
			 struct pfmk_global_stats *before)
{
	hotplug_counting(test, cpu);
	*before = pfmkt_gstats(test);
	pfmkt_offline(test, cpu);
	pfmk_hotplug_test_flush();
}

/*
 * The context's perf events are released while the CPU is away: the
 * pfmk-wide count, read once the hotplug work is done.
 */
static void hotplug_events_released(struct kunit *test)
{
	struct pfmk_global_stats before;

	hotplug_away(test, pfmkt_hp_cpu(test), &before);
	KUNIT_EXPECT_EQ(test, pfmkt_gstats(test).events, before.events - 2);
}

/* The context's perf events are created again when the CPU is back. */
static void hotplug_events_recreated(struct kunit *test)
{
	struct pfmk_global_stats before;
	int cpu = pfmkt_hp_cpu(test);

	hotplug_away(test, cpu, &before);
	pfmkt_online(test, cpu);
	pfmk_hotplug_test_flush();
	KUNIT_EXPECT_EQ(test, pfmkt_gstats(test).events, before.events);
}

/* Read @n messages of @desc, whatever they are. */
static void hotplug_drain_msgs(struct kunit *test, void *desc, unsigned int n)
{
	union pfm_msg msg;

	while (n--)
		KUNIT_ASSERT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
				(ssize_t)sizeof(msg));
}

/* The CPU going away sends an OFFLINE message with the cycle's number. */
static void hotplug_msg_offline(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_counting(test, cpu);

	pfmkt_offline(test, cpu);
	pfmkt_expect_msg(test, desc, PFMK_MSG_CPU_OFFLINE, cpu, 1);
}

/*
 * The CPU coming back sends an ONLINE message with the cycle's number,
 * after the OFFLINE one, and nothing else.
 */
static void hotplug_msg_online(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_counting(test, cpu);
	union pfm_msg msg;

	pfmkt_offline(test, cpu);
	hotplug_drain_msgs(test, desc, 1);
	pfmkt_online(test, cpu);
	pfmkt_expect_msg(test, desc, PFMK_MSG_CPU_ONLINE, cpu, 1);
	KUNIT_EXPECT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1), -EAGAIN);
}

/* A second cycle's OFFLINE and ONLINE messages are numbered 2. */
static void hotplug_msg_second_cycle(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_counting(test, cpu);

	pfmkt_offline(test, cpu);
	pfmkt_online(test, cpu);
	hotplug_drain_msgs(test, desc, 2);
	pfmkt_offline(test, cpu);
	pfmkt_online(test, cpu);
	pfmkt_expect_msg(test, desc, PFMK_MSG_CPU_OFFLINE, cpu, 2);
	pfmkt_expect_msg(test, desc, PFMK_MSG_CPU_ONLINE, cpu, 2);
}

/*
 * A context sampling PMD 0 with period 10 on @cpu, with the default
 * format, which resets per overflow (without a format, the first
 * overflow would mask the context, as in perfmon2 2.2); 35 ticks leave
 * 5 to go in the period in flight.
 */
static void *hotplug_sampling(struct kunit *test, int cpu)
{
	void *desc;
	int i;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, 64 << 10, NULL);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_sampler(test, desc, 0, 10, 0, 0);
	pfmkt_load_start(test, desc, cpu);
	for (i = 0; i < 35; i++)
		pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, desc, 0), -5ULL);
	return desc;
}

/* A sampling PMD keeps its phase while the CPU is away. */
static void hotplug_sampling_phase_offline(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_sampling(test, cpu);

	pfmkt_offline(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -5ULL);
}

/*
 * hotplug_sampling() on @cpu, then a cycle (the context back from
 * OFFLINE), then 35 ticks: 5 finish the period in flight, then 3 whole
 * periods.
 */
static void *hotplug_sampling_cycled(struct kunit *test, int cpu)
{
	void *desc = hotplug_sampling(test, cpu);
	int i;

	pfmkt_offline(test, cpu);
	pfmkt_online(test, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc) & PFMK_STATE_OFFLINE, 0);
	for (i = 0; i < 35; i++)
		pfmk_test_pmu_tick(cpu, 1);
	return desc;
}

/*
 * A sampling PMD keeps its phase across a cycle: the period in flight
 * resumes when the CPU is back, and the next ones follow from it.
 */
static void hotplug_sampling_phase(struct kunit *test)
{
	void *desc = hotplug_sampling_cycled(test, pfmkt_hp_cpu(test));

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -10ULL);
}

/* Across that cycle no overflow is lost: 3 before, 4 after, none missed. */
static void hotplug_sampling_phase_stats(struct kunit *test)
{
	void *desc = hotplug_sampling_cycled(test, pfmkt_hp_cpu(test));
	struct pfmk_ctx_stats st;

	KUNIT_ASSERT_EQ(test, pfmk_get_stats(desc, &st), 0);
	pfmkt_expect_stats_in(test, &st,
			      &(struct pfmk_ctx_stats){ .ovfl_count = 7 },
			      PFMKT_ST(ovfl_count) | PFMKT_ST(ovfl_missed));
}

/* Sum of runs and active time of sets 0 and 1. */
static void hotplug_sets_sum(struct kunit *test, void *desc, u64 *runs,
			     u64 *ns)
{
	struct pfarg_setinfo info[2];

	memset(info, 0, sizeof(info));
	info[1].set_id = 1;
	KUNIT_ASSERT_EQ(test, pfmk_getinfo_evtsets(desc, info, 2), 0);
	*runs = info[0].set_runs + info[1].set_runs;
	*ns = info[0].set_act_duration + info[1].set_act_duration;
}

/*
 * Two sets switching every ms on @cpu, started, which then goes away.
 * @runs, @ns: output: their runs and active time once it is away.
 */
static void *hotplug_sets_away(struct kunit *test, int cpu, u64 *runs,
			       u64 *ns)
{
	void *desc;

	desc = pfmkt_create_two_sets(test, PFM_SETFL_TIME_SWITCH,
				     PFM_SETFL_TIME_SWITCH, 1000);
	pfmkt_load_start(test, desc, cpu);
	msleep(20);
	pfmkt_offline(test, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED | PFMK_STATE_OFFLINE);
	hotplug_sets_sum(test, desc, runs, ns);
	return desc;
}

/* Sets stop switching while their CPU is away: no runs, no active time. */
static void hotplug_sets_suspended(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	u64 runs, ns, runs2, ns2;
	void *desc;

	desc = hotplug_sets_away(test, cpu, &runs, &ns);
	msleep(100);
	hotplug_sets_sum(test, desc, &runs2, &ns2);
	KUNIT_EXPECT_EQ_MSG(test, runs2, runs, "sets switched while offline");
	KUNIT_EXPECT_EQ_MSG(test, ns2, ns, "active time while offline");
}

/* Sets switch again, and count active time, once their CPU is back. */
static void hotplug_sets_resumed(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	u64 runs, ns, runs2, ns2;
	void *desc;

	desc = hotplug_sets_away(test, cpu, &runs, &ns);
	pfmkt_online(test, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED);
	msleep(50);
	hotplug_sets_sum(test, desc, &runs2, &ns2);
	KUNIT_EXPECT_GT_MSG(test, runs2, runs, "no switch after online");
	KUNIT_EXPECT_GT_MSG(test, ns2, ns, "no active time after online");
}

/* A context with sets sends the OFFLINE message when its CPU goes away. */
static void hotplug_sets_msg_offline(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	u64 runs, ns;
	void *desc;

	desc = hotplug_sets_away(test, cpu, &runs, &ns);
	pfmkt_expect_msg(test, desc, PFMK_MSG_CPU_OFFLINE, cpu, 1);
}

/* A context with sets sends the ONLINE message when its CPU comes back. */
static void hotplug_sets_msg_online(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	u64 runs, ns;
	void *desc;

	desc = hotplug_sets_away(test, cpu, &runs, &ns);
	hotplug_drain_msgs(test, desc, 1);
	pfmkt_online(test, cpu);
	pfmkt_expect_msg(test, desc, PFMK_MSG_CPU_ONLINE, cpu, 1);
}

/* Runs of set @id. */
static u64 hotplug_set_runs(struct kunit *test, void *desc, u16 id)
{
	return pfmkt_set_info(test, desc, id).set_runs;
}

/* Set 0's PMD 0: notify at each overflow, switch after one. */
static const struct pfmkt_pmd hotplug_notify_switch = {
	.flags = PFM_REGFL_OVFL_NOTIFY, .switch_cnt = 1,
};

/*
 * A set switch that came due with a masking overflow on @cpu waits for
 * pfmk_restart(): the CPU goes away, then the context is restarted.
 */
static void *hotplug_switch_restarted_away(struct kunit *test, int cpu)
{
	void *desc;

	desc = pfmkt_create_two_sets(test, PFM_SETFL_OVFL_SWITCH, 0, 0);
	/* Without a format the overflow masks, and notifies. */
	pfmkt_write_sampler_pmd(test, desc, 0, 4, &hotplug_notify_switch);
	pfmkt_load_start(test, desc, cpu);

	pfmk_test_pmu_tick(cpu, 4);
	pfmkt_wait_notify(test);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_MASKED | PFMK_STATE_STARTED);

	pfmkt_offline(test, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	return desc;
}

/* A restart while the CPU is away keeps the switch that came due. */
static void hotplug_switch_kept(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_switch_restarted_away(test, cpu);

	msleep(20);
	KUNIT_EXPECT_EQ_MSG(test, hotplug_set_runs(test, desc, 1), 0ULL,
			    "switched while the CPU was away");
}

/* A restart while the CPU is away unmasks: loaded, started, offline. */
static void hotplug_switch_restart_state(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_switch_restarted_away(test, cpu);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED | PFMK_STATE_OFFLINE);
}

/* The re-arm does the kept switch: set 1 runs once the CPU is back. */
static void hotplug_switch_at_rearm(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_switch_restarted_away(test, cpu);

	pfmkt_online(test, cpu);
	KUNIT_EXPECT_TRUE_MSG(test, pfmkt_wait_set_runs(desc, 1, 1),
			      "the kept switch was not done at the re-arm");
	KUNIT_EXPECT_EQ(test, hotplug_set_runs(test, desc, 0), 1ULL);
}

/*
 * A context loaded on @cpu, which then goes offline: where the calls
 * while the CPU is away start from.  On the test PMU, stopped, PMD 0
 * counting one per tick; @generic: on the generic description, no event.
 * @hw: output, may be NULL: what a hardware cycles event on @cpu gives
 * (pfmk_test_hw_cycles_expected()), asked before the CPU went away.
 */
static void *hotplug_loaded_offline(struct kunit *test, int cpu, bool generic,
				    int *hw)
{
	void *desc = pfmkt_create(test, generic ? "" : PFMK_TEST_PMU_NAME);

	if (!generic)
		pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, cpu);
	if (hw)
		*hw = pfmk_test_hw_cycles_expected(cpu);
	pfmkt_offline(test, cpu);
	return desc;
}

/* The writes while offline: PMC 0 step 2, PMC 1 step 5, PMD 1 1000. */
static void hotplug_offline_rewrite(struct kunit *test, void *desc)
{
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(2));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(5));
	pfmkt_write_pmd(test, desc, 1, 1000);
}

/* A stopped, offline context takes new PMC values without events. */
static void hotplug_offline_write(struct kunit *test)
{
	struct pfmk_global_stats before;
	int cpu = pfmkt_hp_cpu(test);
	void *desc;

	desc = hotplug_loaded_offline(test, cpu, false, NULL);
	before = pfmkt_gstats(test);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_OFFLINE);
	hotplug_offline_rewrite(test, desc);
	KUNIT_EXPECT_EQ(test, pfmkt_gstats(test).events, before.events);
}

/*
 * Starting is allowed while offline; counting waits for the CPU and
 * uses the values written while it was away.
 */
static void hotplug_offline_start_rearms(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc;

	desc = hotplug_loaded_offline(test, cpu, false, NULL);
	hotplug_offline_rewrite(test, desc);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmkt_online(test, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_STARTED);
	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 20);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 1050);
}

/*
 * A context on the generic description whose CPU went away, then a
 * write of a hardware cycles event.  @hw: output: what the write must
 * give (pfmk_test_hw_cycles_expected()); @ret: output: what it gave.
 */
static void *hotplug_offline_hw_write(struct kunit *test, int cpu, int *hw,
				      int *ret)
{
	struct pfarg_pmc pmc;
	void *desc;

	desc = hotplug_loaded_offline(test, cpu, true, hw);
	pfmkt_pmc_req(&pmc, 0, 0, PFMK_GEN_HW(PERF_COUNT_HW_CPU_CYCLES));
	*ret = pfmk_write_pmcs(desc, &pmc, 1);
	return desc;
}

/* An event the machine lacks is refused while offline. */
static void hotplug_offline_hw_refused(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	int hw, ret;

	hotplug_offline_hw_write(test, cpu, &hw, &ret);
	KUNIT_EXPECT_EQ(test, ret, hw);
}

/*
 * The write refused while offline leaves the re-arm alone: the context
 * comes back loaded, not offline.
 */
static void hotplug_offline_hw_rearm(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	int hw, ret;
	void *desc;

	desc = hotplug_offline_hw_write(test, cpu, &hw, &ret);
	pfmkt_online(test, cpu);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
}

/* Unloading an offline context works. */
static void hotplug_offline_unload(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc;

	desc = hotplug_loaded_offline(test, cpu, false, NULL);
	KUNIT_EXPECT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/* A context unloaded while @cpu is away. */
static void *hotplug_unloaded_offline(struct kunit *test, int cpu)
{
	void *desc = hotplug_loaded_offline(test, cpu, false, NULL);

	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	return desc;
}

/* Loading a context on an offline CPU is refused. */
static void hotplug_offline_load_refused(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_unloaded_offline(test, cpu);

	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, cpu), -ENODEV);
}

/*
 * A context unloaded while @cpu is away, a load on it refused; then the
 * CPU is back.
 */
static void *hotplug_unloaded_back(struct kunit *test, int cpu)
{
	void *desc = hotplug_unloaded_offline(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(desc, cpu), -ENODEV);
	pfmkt_online(test, cpu);
	return desc;
}

/*
 * A context unloaded while its CPU is away, a load on it refused, stays
 * unloaded when the CPU is back.
 */
static void hotplug_offline_unloaded_stays(struct kunit *test)
{
	void *desc = hotplug_unloaded_back(test, pfmkt_hp_cpu(test));

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/*
 * A context unloaded while its CPU is away, a load on it refused, counts
 * nothing when the CPU is back.
 */
static void hotplug_offline_unloaded_no_count(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_unloaded_back(test, cpu);

	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 0);
}

/* Closing a started context while its CPU is away frees it. */
static void hotplug_offline_close(struct kunit *test)
{
	struct pfmk_global_stats before;
	int cpu = pfmkt_hp_cpu(test);
	void *desc;

	desc = hotplug_loaded_offline(test, cpu, false, NULL);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	before = pfmkt_gstats(test);
	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, pfmkt_gstats(test).ctx_open, before.ctx_open - 1);
	pfmkt_online(test, cpu);
}

#define HP_RACE_CYCLES	20
#define HP_RACE_CTXS	16

/**
 * struct hp_race - a load-vs-offline race, shared with its hotplug thread
 * @cpu: the CPU that goes and comes.
 * @err: what remove_cpu() or add_cpu() returned, if it failed.
 * @done: the hotplug thread is done.
 * @n: loads tried.
 * @nodev: loads refused with -ENODEV.
 * @bad: the first load that failed otherwise: its errno, or 0.
 * @kept: the contexts loaded, started and not closed yet.
 */
struct hp_race {
	int		cpu;
	int		err;
	struct completion done;
	unsigned int	n;
	unsigned int	nodev;
	int		bad;
	void		*kept[HP_RACE_CTXS];
};

/* Takes the CPU away and back HP_RACE_CYCLES times, away for a while. */
static int hp_race_fn(void *data)
{
	struct hp_race *hr = data;
	unsigned int i;

	for (i = 0; i < HP_RACE_CYCLES; i++) {
		hr->err = remove_cpu(hr->cpu);
		if (hr->err)
			break;
		usleep_range(500, 1000);
		hr->err = add_cpu(hr->cpu);
		if (hr->err)
			break;
		usleep_range(100, 300);
	}
	complete(&hr->done);
	return 0;
}

/*
 * Create a tracked context counting the test PMU's PMD 0, load it on
 * @cpu and start it, without aborting the test: 0 or the errno of the
 * step that failed (*@desc, if set, is still tracked).
 */
static int hp_race_load(struct kunit *test, int cpu, void **desc)
{
	struct pfarg_load load;
	struct pfarg_ctx req;
	struct pfarg_pmc pmc;
	int ret;

	*desc = NULL;
	pfmkt_ctx_req(&req, PFMK_TEST_PMU_NAME, 0, false);
	ret = pfmkt_try_create(test, &req, desc);
	if (ret)
		return ret;
	pfmkt_pmc_req(&pmc, 0, 0, PFMK_TEST_PMC(1));
	ret = pfmk_write_pmcs(*desc, &pmc, 1);
	if (ret)
		return ret;
	pfmkt_load_req(&load, cpu, 0);
	ret = pfmk_load_context(*desc, &load);
	return ret ? ret : pfmk_start(*desc, NULL);
}

/* Each context kept is started and counts, CPU back; then closed. */
static void hp_race_expect_counting(struct kunit *test, struct hp_race *hr)
{
	unsigned int i;
	u64 before;

	for (i = 0; i < HP_RACE_CTXS; i++) {
		if (!hr->kept[i])
			continue;
		before = pfmkt_read_pmd(test, hr->kept[i], 0);
		KUNIT_EXPECT_EQ(test, pfmk_get_state(hr->kept[i]),
				PFM_CTX_LOADED | PFMK_STATE_STARTED);
		pfmk_test_pmu_tick(hr->cpu, 1);
		KUNIT_EXPECT_EQ_MSG(test, pfmkt_read_pmd(test, hr->kept[i], 0),
				    before + 1, "context in slot %u", i);
		pfmkt_close(test, hr->kept[i]);
	}
}

/*
 * Loads and closes racing with the CPU going and coming, until the
 * hotplug thread is done or a load fails otherwise than with -ENODEV:
 * round robin, a close of a loaded context every load.  The CPU is back
 * and the race was run (some loads met the CPU away, unless one failed
 * otherwise: hr->bad, the verdict of hotplug_load_vs_offline()) when it
 * returns.  Nothing in the loop aborts the case: the hotplug thread
 * uses @hr.
 *
 * Return: the race, its contexts still loaded.
 */
static struct hp_race *hp_race_run(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	struct task_struct *t;
	struct hp_race *hr;
	unsigned int slot;
	void *desc;
	int ret;

	hr = kunit_kzalloc(test, sizeof(*hr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hr);
	hr->cpu = pfmkt_hp_cpu(test);
	init_completion(&hr->done);
	t = kthread_run(hp_race_fn, hr, "pfmk_hp_race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	while (!completion_done(&hr->done) && !hr->bad) {
		slot = hr->n++ % HP_RACE_CTXS;
		if (hr->kept[slot]) {
			pfmkt_close(test, hr->kept[slot]);
			hr->kept[slot] = NULL;
		}
		ret = hp_race_load(test, hr->cpu, &desc);
		if (!ret)
			hr->kept[slot] = desc;
		else if (desc)
			pfmkt_close(test, desc);
		if (ret == -ENODEV)
			hr->nodev++;
		else if (ret)
			hr->bad = ret;
	}
	wait_for_completion(&hr->done);
	/* pfmkt_exit() brings the CPU back if it is still away. */
	if (!cpu_online(hr->cpu))
		priv->offline_cpu = hr->cpu;
	KUNIT_ASSERT_EQ_MSG(test, hr->err, 0, "remove_cpu/add_cpu(%d)",
			    hr->cpu);
	kunit_info(test, "%u loads, %u refused on an offline CPU\n", hr->n,
		   hr->nodev);
	/* Run to its end (no load failed otherwise), it met the CPU away. */
	if (!hr->bad)
		KUNIT_ASSERT_GT(test, hr->nodev, 0U);
	return hr;
}

/*
 * Each load racing with the CPU going and coming either succeeds or
 * fails with -ENODEV.  Closing a loaded context while the CPU comes and
 * goes leaves nothing behind: a close that left its context on the
 * CPU's hotplug list would have the next callback touch freed memory
 * (KASAN).  pfmkt_exit() closes the contexts kept.
 */
static void hotplug_load_vs_offline(struct kunit *test)
{
	struct hp_race *hr = hp_race_run(test);

	KUNIT_EXPECT_EQ_MSG(test, hr->bad, 0, "load %u on CPU%d: %d", hr->n,
			    hr->cpu, hr->bad);
}

/*
 * A load that succeeded while the CPU went and came ends with a started
 * context whose events count once the CPU is back.  A load that joined
 * the CPU's hotplug list after the offline callback, while perf was
 * still to detach the CPU's events, would keep dead events and count
 * nothing.
 */
static void hotplug_load_vs_offline_counts(struct kunit *test)
{
	hp_race_expect_counting(test, hp_race_run(test));
}

/* max_events as the hotplug suite found it, restored by hotplug_exit(). */
static char hotplug_saved_max_events[24];

static int hotplug_init(struct kunit *test)
{
	int ret;

	ret = pfmk_test_param_io("max_events", hotplug_saved_max_events,
				 sizeof(hotplug_saved_max_events), false);
	if (ret)
		return ret;
	return pfmkt_init(test);
}

static void hotplug_exit(struct kunit *test)
{
	pfmkt_exit(test);
	KUNIT_EXPECT_EQ(test, pfmk_test_param_io("max_events",
						 hotplug_saved_max_events, 0, true),
			0);
}

/*
 * A context counting PMD 0 on @cpu, 10 ticks counted, @started or not;
 * then @cpu goes away.
 */
static void *hotplug_counted_away(struct kunit *test, int cpu, bool started)
{
	void *desc;

	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	if (started)
		pfmkt_load_start(test, desc, cpu);
	else
		pfmkt_load(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 10);
	pfmkt_offline(test, cpu);
	return desc;
}

/* A started context stopped while its CPU is away. */
static void *hotplug_stopped_away(struct kunit *test, int cpu)
{
	void *desc = hotplug_counted_away(test, cpu, true);

	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc),
			PFMKT_STARTED | PFMK_STATE_OFFLINE);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	return desc;
}

/* stop while the CPU is away only records not to count. */
static void hotplug_stop_offline(struct kunit *test)
{
	void *desc = hotplug_stopped_away(test, pfmkt_hp_cpu(test));

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFM_CTX_LOADED | PFMK_STATE_OFFLINE);
}

/* A second stop while the CPU is away finds the context stopped. */
static void hotplug_stop_offline_again(struct kunit *test)
{
	void *desc = hotplug_stopped_away(test, pfmkt_hp_cpu(test));

	KUNIT_EXPECT_EQ(test, pfmk_stop(desc), -EALREADY);
}

/* hotplug_stopped_away(), then the CPU is back. */
static void *hotplug_stopped_back(struct kunit *test, int cpu)
{
	void *desc = hotplug_stopped_away(test, cpu);

	pfmkt_online(test, cpu);
	return desc;
}

/*
 * A context stopped while its CPU was away comes back loaded and
 * stopped, its events not re-armed.
 */
static void hotplug_stop_offline_online(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_stopped_back(test, cpu);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_LOADED);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* A context stopped while its CPU was away counts nothing once back. */
static void hotplug_stop_offline_online_no_count(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_stopped_back(test, cpu);

	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 10ULL);
}

/* A stopped context started while its CPU is away. */
static void *hotplug_started_away(struct kunit *test, int cpu)
{
	void *desc = hotplug_counted_away(test, cpu, false);

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	return desc;
}

/* start while the CPU is away only records to count. */
static void hotplug_start_offline(struct kunit *test)
{
	void *desc = hotplug_started_away(test, pfmkt_hp_cpu(test));

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFMKT_STARTED | PFMK_STATE_OFFLINE);
}

/* A second start while the CPU is away finds the context started. */
static void hotplug_start_offline_again(struct kunit *test)
{
	void *desc = hotplug_started_away(test, pfmkt_hp_cpu(test));

	KUNIT_EXPECT_EQ(test, pfmk_start(desc, NULL), -EALREADY);
}

/* hotplug_started_away(), then the CPU is back. */
static void *hotplug_started_back(struct kunit *test, int cpu)
{
	void *desc = hotplug_started_away(test, cpu);

	pfmkt_online(test, cpu);
	return desc;
}

/* A context started while its CPU was away comes back started. */
static void hotplug_start_offline_online(struct kunit *test)
{
	void *desc = hotplug_started_back(test, pfmkt_hp_cpu(test));

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

/* A context started while its CPU was away counts once back. */
static void hotplug_start_offline_online_counts(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_started_back(test, cpu);

	/* The call that re-arms it, if the hotplug work has not yet. */
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 5ULL);
}

/*
 * A context counting on two events of @cpu, which goes offline and comes
 * back with max_events leaving room for one of them: the re-arm fails.
 * @before: output: the global counters before the CPU came back.
 */
static void *hotplug_rearm_over_limit(struct kunit *test, int cpu,
				      struct pfmk_global_stats *before)
{
	char limit[24];
	void *desc;

	desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(1));
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 10);

	pfmkt_offline(test, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc),
			PFMKT_STARTED | PFMK_STATE_OFFLINE);
	hotplug_take_msg(test, desc, PFMK_MSG_CPU_OFFLINE, cpu, 1);
	*before = pfmkt_gstats(test);
	snprintf(limit, sizeof(limit), "%llu", before->events + 1);
	KUNIT_ASSERT_EQ(test, pfmk_test_param_io("max_events", limit, 0, true), 0);
	pfmkt_online(test, cpu);
	/* The online callback's work retries the re-arm: let it finish. */
	pfmk_hotplug_test_flush();
	return desc;
}

/* A re-arm over max_events fails: the context stays loaded and offline. */
static void hotplug_rearm_failed_stays_offline(struct kunit *test)
{
	struct pfmk_global_stats before;
	int cpu = pfmkt_hp_cpu(test);
	void *desc;

	desc = hotplug_rearm_over_limit(test, cpu, &before);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc),
			PFMKT_STARTED | PFMK_STATE_OFFLINE);
}

/* A failed re-arm is counted in rearm_failed. */
static void hotplug_rearm_failed_counted(struct kunit *test)
{
	struct pfmk_global_stats before, after;
	int cpu = pfmkt_hp_cpu(test);

	hotplug_rearm_over_limit(test, cpu, &before);
	after = pfmkt_gstats(test);
	KUNIT_EXPECT_GT(test, after.rearm_failed, before.rearm_failed);
}

/*
 * A failed re-arm leaves no event behind, and the CPU's coming back
 * re-armed nothing: events and cpu_online unchanged.
 */
static void hotplug_rearm_failed_no_event(struct kunit *test)
{
	struct pfmk_global_stats before, after;
	int cpu = pfmkt_hp_cpu(test);

	hotplug_rearm_over_limit(test, cpu, &before);
	after = pfmkt_gstats(test);
	pfmkt_expect_gstats(test, &before, &after, &(struct pfmk_global_stats){},
			    PFMKT_GST(events) | PFMKT_GST(cpu_online));
}

/* A failed re-arm sends no ONLINE message: the queue is empty. */
static void hotplug_rearm_failed_no_online_msg(struct kunit *test)
{
	struct pfmk_global_stats before;
	int cpu = pfmkt_hp_cpu(test);
	union pfm_msg msg;
	void *desc;

	desc = hotplug_rearm_over_limit(test, cpu, &before);
	KUNIT_EXPECT_EQ(test, pfmk_read(desc, &msg, sizeof(msg), 1),
			(ssize_t)-EAGAIN);
}

/* After a failed re-arm nothing counts: PMD 0 keeps its 10 ticks. */
static void hotplug_rearm_failed_no_count(struct kunit *test)
{
	struct pfmk_global_stats before;
	int cpu = pfmkt_hp_cpu(test);
	void *desc;

	desc = hotplug_rearm_over_limit(test, cpu, &before);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 10ULL);
}

/* hotplug_rearm_over_limit(), then max_events as it was. */
static void *hotplug_rearm_limit_back(struct kunit *test, int cpu)
{
	struct pfmk_global_stats before;
	void *desc;

	desc = hotplug_rearm_over_limit(test, cpu, &before);
	KUNIT_ASSERT_EQ(test, pfmk_test_param_io("max_events",
						 hotplug_saved_max_events, 0, true),
			0);
	return desc;
}

/*
 * With the limit back, the next call on the context re-arms it: started,
 * the ONLINE message sent.
 */
static void hotplug_rearm_retried(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_rearm_limit_back(test, cpu);

	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
	pfmkt_expect_msg(test, desc, PFMK_MSG_CPU_ONLINE, cpu, 1);
}

/* Re-armed by the next call once the limit is back, both events count. */
static void hotplug_rearm_retried_counts(struct kunit *test)
{
	int cpu = pfmkt_hp_cpu(test);
	void *desc = hotplug_rearm_limit_back(test, cpu);

	/* The call that re-arms. */
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 15ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 15ULL);
}

static struct kunit_case pfmk_hotplug_cases[] = {
	KUNIT_CASE(hotplug_count_kept_offline),
	KUNIT_CASE(hotplug_count_preserved),
	KUNIT_CASE(hotplug_count_preserved_two_cycles),
	KUNIT_CASE(hotplug_state_offline),
	KUNIT_CASE(hotplug_state_online),
	KUNIT_CASE(hotplug_events_released),
	KUNIT_CASE(hotplug_events_recreated),
	KUNIT_CASE(hotplug_msg_offline),
	KUNIT_CASE(hotplug_msg_online),
	KUNIT_CASE(hotplug_msg_second_cycle),
	KUNIT_CASE(hotplug_sampling_phase_offline),
	KUNIT_CASE(hotplug_sampling_phase),
	KUNIT_CASE(hotplug_sampling_phase_stats),
	KUNIT_CASE(hotplug_sets_suspended),
	KUNIT_CASE(hotplug_sets_resumed),
	KUNIT_CASE(hotplug_sets_msg_offline),
	KUNIT_CASE(hotplug_sets_msg_online),
	KUNIT_CASE(hotplug_offline_write),
	KUNIT_CASE(hotplug_offline_start_rearms),
	KUNIT_CASE(hotplug_offline_hw_refused),
	KUNIT_CASE(hotplug_offline_hw_rearm),
	KUNIT_CASE(hotplug_offline_unload),
	KUNIT_CASE(hotplug_offline_load_refused),
	KUNIT_CASE(hotplug_offline_unloaded_stays),
	KUNIT_CASE(hotplug_offline_unloaded_no_count),
	KUNIT_CASE(hotplug_offline_close),
	KUNIT_CASE(hotplug_switch_kept),
	KUNIT_CASE(hotplug_switch_restart_state),
	KUNIT_CASE(hotplug_switch_at_rearm),
	KUNIT_CASE_SLOW(hotplug_load_vs_offline),
	KUNIT_CASE_SLOW(hotplug_load_vs_offline_counts),
	KUNIT_CASE(hotplug_stop_offline),
	KUNIT_CASE(hotplug_stop_offline_again),
	KUNIT_CASE(hotplug_stop_offline_online),
	KUNIT_CASE(hotplug_stop_offline_online_no_count),
	KUNIT_CASE(hotplug_start_offline),
	KUNIT_CASE(hotplug_start_offline_again),
	KUNIT_CASE(hotplug_start_offline_online),
	KUNIT_CASE(hotplug_start_offline_online_counts),
	KUNIT_CASE(hotplug_rearm_failed_stays_offline),
	KUNIT_CASE(hotplug_rearm_failed_counted),
	KUNIT_CASE(hotplug_rearm_failed_no_event),
	KUNIT_CASE(hotplug_rearm_failed_no_online_msg),
	KUNIT_CASE(hotplug_rearm_failed_no_count),
	KUNIT_CASE(hotplug_rearm_retried),
	KUNIT_CASE(hotplug_rearm_retried_counts),
	{}
};

static struct kunit_suite pfmk_hotplug_suite = {
	.name = "pfmk_hotplug",
	.init = hotplug_init,
	.exit = hotplug_exit,
	.test_cases = pfmk_hotplug_cases,
};

kunit_test_suites(&pfmk_hotplug_suite);
