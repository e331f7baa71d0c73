// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_state: the context state machine.
 *
 * Every call in every state (UNLOADED, LOADED stopped, LOADED started)
 * returns the documented errno, one table row per call and state, and a
 * refused call changes neither the state nor the counts.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>

#include "pfmk_kunit.h"
#include "pfmk_test_pmu.h"

#define STATE_STARTED	(PFM_CTX_LOADED | PFMK_STATE_STARTED)

/**
 * enum state_setup - the state a row brings its context into
 * @ST_UNLOADED: created, PMC 0 programmed, never loaded.
 * @ST_LOADED: loaded on the test CPU, not started.
 * @ST_STARTED: loaded on the test CPU and started.
 * @ST_UNLOADED_AGAIN: started, then unloaded.
 */
enum state_setup {
	ST_UNLOADED,
	ST_LOADED,
	ST_STARTED,
	ST_UNLOADED_AGAIN,
};

/**
 * enum state_call - the KAPI call a row makes
 * @SC_WRITE_PMC0: pfmk_write_pmcs() of PMC 0.
 * @SC_WRITE_PMC1: pfmk_write_pmcs() of PMC 1.
 * @SC_WRITE_PMD0: pfmk_write_pmds() of PMD 0.
 * @SC_LOAD: pfmk_load_context() on the test CPU.
 * @SC_LOAD_FIRST: pfmk_load_context() on the first online CPU.
 * @SC_START: pfmk_start().
 * @SC_STOP: pfmk_stop().
 * @SC_RESTART: pfmk_restart().
 * @SC_UNLOAD: pfmk_unload_context().
 * @SC_MKSET: pfmk_create_evtsets() of set 0.
 * @SC_DELETE: pfmk_delete_evtsets() of set 0.
 * @SC_GETINFO: pfmk_getinfo_evtsets() of set 0.
 */
enum state_call {
	SC_WRITE_PMC0,
	SC_WRITE_PMC1,
	SC_WRITE_PMD0,
	SC_LOAD,
	SC_LOAD_FIRST,
	SC_START,
	SC_STOP,
	SC_RESTART,
	SC_UNLOAD,
	SC_MKSET,
	SC_DELETE,
	SC_GETINFO,
};

static const char * const state_setup_names[] = {
	[ST_UNLOADED] = "unloaded",
	[ST_LOADED] = "loaded",
	[ST_STARTED] = "started",
	[ST_UNLOADED_AGAIN] = "unloaded again",
};

static const char * const state_call_names[] = {
	[SC_WRITE_PMC0] = "write_pmcs 0",
	[SC_WRITE_PMC1] = "write_pmcs 1",
	[SC_WRITE_PMD0] = "write_pmds 0",
	[SC_LOAD] = "load",
	[SC_LOAD_FIRST] = "load on the first CPU",
	[SC_START] = "start",
	[SC_STOP] = "stop",
	[SC_RESTART] = "restart",
	[SC_UNLOAD] = "unload",
	[SC_MKSET] = "create_evtsets 0",
	[SC_DELETE] = "delete_evtsets 0",
	[SC_GETINFO] = "getinfo_evtsets 0",
};

/**
 * struct state_row - one KAPI call in one context state
 * @state: the state the context is in before the call.
 * @call: the call.
 * @err: what the call returns.
 * @after: pfmk_get_state() after the call (a refused call changes nothing).
 */
struct state_row {
	enum state_setup	state;
	enum state_call		call;
	int			err;
	int			after;
};

#define UNL	PFM_CTX_UNLOADED
#define LOD	PFM_CTX_LOADED
#define STA	STATE_STARTED

static const struct state_row state_rows[] = {
	{ ST_UNLOADED, SC_WRITE_PMC0, 0, UNL },
	{ ST_UNLOADED, SC_WRITE_PMC1, 0, UNL },
	{ ST_UNLOADED, SC_WRITE_PMD0, 0, UNL },
	{ ST_UNLOADED, SC_LOAD, 0, LOD },
	{ ST_UNLOADED, SC_LOAD_FIRST, 0, LOD },
	{ ST_UNLOADED, SC_START, -ENOTCONN, UNL },
	{ ST_UNLOADED, SC_STOP, -ENOTCONN, UNL },
	{ ST_UNLOADED, SC_RESTART, -ENOTCONN, UNL },
	{ ST_UNLOADED, SC_UNLOAD, -ENOTCONN, UNL },
	{ ST_UNLOADED, SC_MKSET, 0, UNL },
	{ ST_UNLOADED, SC_DELETE, -EINVAL, UNL },
	{ ST_UNLOADED, SC_GETINFO, 0, UNL },

	{ ST_LOADED, SC_WRITE_PMC0, 0, LOD },
	{ ST_LOADED, SC_WRITE_PMC1, 0, LOD },
	{ ST_LOADED, SC_WRITE_PMD0, 0, LOD },
	{ ST_LOADED, SC_LOAD, -EBUSY, LOD },
	{ ST_LOADED, SC_LOAD_FIRST, -EBUSY, LOD },
	{ ST_LOADED, SC_START, 0, STA },
	{ ST_LOADED, SC_STOP, -EALREADY, LOD },
	{ ST_LOADED, SC_RESTART, -EBUSY, LOD },
	{ ST_LOADED, SC_UNLOAD, 0, UNL },
	{ ST_LOADED, SC_MKSET, -EBUSY, LOD },
	{ ST_LOADED, SC_DELETE, -EBUSY, LOD },
	{ ST_LOADED, SC_GETINFO, 0, LOD },

	{ ST_STARTED, SC_WRITE_PMC0, -EBUSY, STA },
	{ ST_STARTED, SC_WRITE_PMC1, -EBUSY, STA },
	{ ST_STARTED, SC_WRITE_PMD0, -EBUSY, STA },
	{ ST_STARTED, SC_LOAD, -EBUSY, STA },
	{ ST_STARTED, SC_LOAD_FIRST, -EBUSY, STA },
	{ ST_STARTED, SC_START, -EALREADY, STA },
	{ ST_STARTED, SC_STOP, 0, LOD },
	{ ST_STARTED, SC_RESTART, -EBUSY, STA },
	{ ST_STARTED, SC_UNLOAD, 0, UNL },
	{ ST_STARTED, SC_MKSET, -EBUSY, STA },
	{ ST_STARTED, SC_DELETE, -EBUSY, STA },
	{ ST_STARTED, SC_GETINFO, 0, STA },

	{ ST_UNLOADED_AGAIN, SC_STOP, -ENOTCONN, UNL },
};

static void state_row_desc(const struct state_row *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s: %s",
		 state_setup_names[r->state], state_call_names[r->call]);
}

KUNIT_ARRAY_PARAM(state_row, state_rows, state_row_desc);

/* A context on the test PMU in state @state, PMC 0 counting when started. */
static void *state_setup(struct kunit *test, enum state_setup state)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	int cpu = pfmkt_cpu();

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(3));
	pfmkt_write_pmd(test, desc, 0, 1000);
	if (state == ST_LOADED)
		pfmkt_load(test, desc, cpu);
	if (state == ST_STARTED || state == ST_UNLOADED_AGAIN)
		pfmkt_load_start(test, desc, cpu);
	if (state == ST_UNLOADED_AGAIN)
		KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	return desc;
}

static int state_set0(void *desc, enum state_call call)
{
	struct pfarg_setinfo info;

	memset(&info, 0, sizeof(info));
	if (call == SC_DELETE)
		return pfmk_delete_evtsets(desc, &info, 1);
	return pfmk_getinfo_evtsets(desc, &info, 1);
}

static int state_call(void *desc, enum state_call call)
{
	switch (call) {
	case SC_WRITE_PMC0:
		return pfmkt_try_write_pmc(desc, 0, PFMK_TEST_PMC(9));
	case SC_WRITE_PMC1:
		return pfmkt_try_write_pmc(desc, 1, PFMK_TEST_PMC(9));
	case SC_WRITE_PMD0:
		return pfmkt_try_write_pmd(desc, 0, 5);
	case SC_LOAD:
		return pfmkt_load_cpu(desc, pfmkt_cpu());
	case SC_LOAD_FIRST:
		return pfmkt_load_cpu(desc, cpumask_first(cpu_online_mask));
	case SC_START:
		return pfmk_start(desc, NULL);
	case SC_STOP:
		return pfmk_stop(desc);
	case SC_RESTART:
		return pfmk_restart(desc);
	case SC_UNLOAD:
		return pfmk_unload_context(desc);
	case SC_MKSET:
		return pfmkt_mkset(desc, 0, 0, 0, 0);
	case SC_DELETE:
	case SC_GETINFO:
		return state_set0(desc, call);
	}
	return -EINVAL;	/* no such row */
}

/*
 * Every call in every state returns its errno and leaves the state the
 * row says; an event counts on the test CPU exactly while started.
 */
static void state_call_errno(struct kunit *test)
{
	const struct state_row *r = test->param_value;
	void *desc = state_setup(test, r->state);

	KUNIT_EXPECT_EQ(test, state_call(desc, r->call), r->err);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), r->after);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(pfmkt_cpu()),
			r->after == STA ? 1U : 0U);
}

/* Unloaded, PMC 0 at STEP 1 and PMD 0 written with 10. */
static void *state_unloaded_written(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmd(test, desc, 0, 10);
	return desc;
}

/* UNLOADED: a PMD written reads back. */
static void state_unloaded_pmds(struct kunit *test)
{
	void *desc = state_unloaded_written(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 10ULL);
}

static void state_refused_desc(const enum state_call *call, char *desc)
{
	strscpy(desc, state_call_names[*call], KUNIT_PARAM_DESC_SIZE);
}

/* The calls refused (or read-only) while UNLOADED, one row each. */
static const enum state_call state_unloaded_refused[] = {
	SC_START, SC_STOP, SC_UNLOAD, SC_RESTART, SC_GETINFO,
};

KUNIT_ARRAY_PARAM(state_unloaded_refused, state_unloaded_refused,
		  state_refused_desc);

/* UNLOADED: a call refused there keeps the PMDs. */
static void state_unloaded_refused_keep(struct kunit *test)
{
	const enum state_call *call = test->param_value;
	void *desc = state_unloaded_written(test);

	state_call(desc, *call);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 10ULL);
}

/*
 * Loaded on the test CPU and stopped, PMC 0 rewritten (STEP 2) and PMD 0
 * written with 20 while loaded.
 */
static void *state_loaded_written(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, pfmkt_cpu());
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(2));
	pfmkt_write_pmd(test, desc, 0, 20);
	return desc;
}

/* LOADED and stopped: a PMD write takes effect. */
static void state_loaded_stopped_pmds(struct kunit *test)
{
	void *desc = state_loaded_written(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 20ULL);
}

/* LOADED and stopped: nothing counts. */
static void state_loaded_stopped_no_count(struct kunit *test)
{
	void *desc = state_loaded_written(test);

	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, desc, 0), 20ULL);
	pfmk_test_pmu_tick(pfmkt_cpu(), 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 20ULL);
}

/* LOADED and stopped: unload keeps the PMDs. */
static void state_loaded_stopped_unload_keeps(struct kunit *test)
{
	void *desc = state_loaded_written(test);

	pfmk_test_pmu_tick(pfmkt_cpu(), 5);
	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, desc, 0), 20ULL);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 20ULL);
}

/* The writes refused while started, one row each. */
static const enum state_call state_started_refused[] = {
	SC_WRITE_PMC0, SC_WRITE_PMC1, SC_WRITE_PMD0,
};

KUNIT_ARRAY_PARAM(state_started_refused, state_started_refused,
		  state_refused_desc);

/* LOADED and started: a refused write changes nothing. */
static void state_started_refused_keep(struct kunit *test)
{
	const enum state_call *call = test->param_value;
	void *desc = state_setup(test, ST_STARTED);

	state_call(desc, *call);
	/* STEP 3 from 1000. */
	pfmk_test_pmu_tick(pfmkt_cpu(), 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 1015ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 1), 0ULL);
}

/* LOADED and started, then unloaded: nothing counts any more. */
static void state_started_unload_stops(struct kunit *test)
{
	void *desc = state_setup(test, ST_STARTED);
	int cpu = pfmkt_cpu();

	/* STEP 3 from 1000. */
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, desc, 0), 1015ULL);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 1015ULL);
}

/* The states a context is closed in, one row each. */
static const enum state_setup state_close_rows[] = {
	ST_UNLOADED, ST_LOADED, ST_STARTED,
};

static void state_close_desc(const enum state_setup *st, char *desc)
{
	strscpy(desc, state_setup_names[*st], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(state_close, state_close_rows, state_close_desc);

/* close works in every state: the descriptor is gone. */
static void state_close_any_state(struct kunit *test)
{
	const enum state_setup *st = test->param_value;
	void *desc = state_setup(test, *st);

	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), -EBADF);
}

/* close of a started context detaches its events. */
static void state_close_releases_events(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	int cpu = pfmkt_cpu();

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 7, PFMK_TEST_PMC(1));
	pfmkt_load_start(test, desc, cpu);
	KUNIT_ASSERT_EQ(test, pfmk_test_pmu_nr_active(cpu), 2U);
	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(cpu), 0U);
}

/* A context counting 2 a tick from 0, loaded on @cpu and started. */
static void *state_pmds_started(struct kunit *test, int cpu)
{
	void *desc = pfmkt_create_counting(test, 2, 0);

	pfmkt_load_start(test, desc, cpu);
	return desc;
}

/* write_pmds on a loaded, stopped context: a value near the top wraps. */
static void state_write_pmds_wraps(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = state_pmds_started(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	/* Like a 64-bit counter. */
	pfmkt_write_pmd(test, desc, 0, ~0ULL - 3);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 3);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 2ULL);
}

/*
 * state_pmds_started(), 50 ticks (PMD 0 at 100), stopped, PMD 0 written
 * with 1000.
 */
static void *state_pmds_written(struct kunit *test, int cpu)
{
	void *desc = state_pmds_started(test, cpu);

	pfmk_test_pmu_tick(cpu, 50);
	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, desc, 0), 100ULL);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	pfmkt_write_pmd(test, desc, 0, 1000);
	return desc;
}

/* write_pmds on a loaded, stopped context takes effect at once. */
static void state_write_pmds_loaded(struct kunit *test)
{
	void *desc = state_pmds_written(test, pfmkt_cpu());

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 1000ULL);
}

/* Started again, the PMD counts on from the value written while loaded. */
static void state_write_pmds_loaded_counts(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc = state_pmds_written(test, cpu);

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(cpu, 5);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 1010ULL);
}

/*
 * Set-up of the write_pmcs cases: PMC 0 at STEP 1 loaded on the test CPU,
 * started, 10 ticks, stopped: PMD 0 holds 10.
 */
static void *state_pmcs_stopped(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	int cpu = pfmkt_cpu();

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 10);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	return desc;
}

/* write_pmcs on a loaded, stopped context keeps the PMD's value. */
static void state_write_pmcs_loaded(struct kunit *test)
{
	void *desc = state_pmcs_stopped(test);

	/* New STEP, same value. */
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(100));
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 10ULL);
}

/* state_pmcs_stopped(), then PMC 0 at STEP 100 written, started. */
static void *state_pmcs_restepped(struct kunit *test)
{
	void *desc = state_pmcs_stopped(test);

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(100));
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	return desc;
}

/* write_pmcs on a loaded, stopped context re-creates the events. */
static void state_write_pmcs_loaded_recreates(struct kunit *test)
{
	state_pmcs_restepped(test);
	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(pfmkt_cpu()), 1U);
}

/* The re-created event counts at the new STEP, on from the kept value. */
static void state_write_pmcs_loaded_step(struct kunit *test)
{
	void *desc = state_pmcs_restepped(test);
	int cpu = pfmkt_cpu();

	KUNIT_ASSERT_EQ(test, pfmk_test_pmu_nr_active(cpu), 1U);
	pfmk_test_pmu_tick(cpu, 2);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 210ULL);
}

/*
 * state_pmcs_stopped(), then PMC 0 disabled and PMC 5 at STEP 7 written
 * while loaded, started, 3 ticks.
 */
static void *state_pmcs_disabled(struct kunit *test)
{
	void *desc = state_pmcs_stopped(test);

	pfmkt_write_pmc(test, desc, 0, 0);
	pfmkt_write_pmc(test, desc, 5, PFMK_TEST_PMC(7));
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	pfmk_test_pmu_tick(pfmkt_cpu(), 3);
	return desc;
}

/* Disabled: the PMD's event goes, the PMD keeps its value. */
static void state_write_pmcs_loaded_disable(struct kunit *test)
{
	void *desc = state_pmcs_disabled(test);

	KUNIT_EXPECT_EQ(test, pfmk_test_pmu_nr_active(pfmkt_cpu()), 1U);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 10ULL);
}

/* A PMC enabled while loaded, next to a disabled one, counts. */
static void state_write_pmcs_loaded_enable(struct kunit *test)
{
	void *desc = state_pmcs_disabled(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 5), 21ULL);
}

/*
 * PMD 0 at 2^40 counting 4 a tick, started on the test CPU, 25 ticks,
 * unloaded: the value folded is 2^40 + 100.
 */
static void *state_reload_unloaded(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);
	int cpu = pfmkt_cpu();

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(4));
	pfmkt_write_pmd(test, desc, 0, 1ULL << 40);
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, 25);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	return desc;
}

/* Unload folds the counts into the PMD. */
static void state_unload_folds(struct kunit *test)
{
	void *desc = state_reload_unloaded(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			(1ULL << 40) + 100);
}

/* state_reload_unloaded(), then loaded again on the first online CPU. */
static void *state_reload_loaded(struct kunit *test)
{
	void *desc = state_reload_unloaded(test);

	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			(1ULL << 40) + 100);
	pfmkt_load(test, desc, cpumask_first(cpu_online_mask));
	return desc;
}

/* A later load, on any CPU, keeps the folded value. */
static void state_reload_keeps_value(struct kunit *test)
{
	void *desc = state_reload_loaded(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			(1ULL << 40) + 100);
}

/* state_reload_loaded(), the folded value checked, then started. */
static void *state_reload_started(struct kunit *test)
{
	void *desc = state_reload_loaded(test);

	KUNIT_ASSERT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			(1ULL << 40) + 100);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	return desc;
}

/* Started after the reload, the event is on the CPU of the new load. */
static void state_reload_moves_event(struct kunit *test)
{
	state_reload_started(test);
	KUNIT_EXPECT_EQ(test,
			pfmk_test_pmu_nr_active(cpumask_first(cpu_online_mask)),
			1U);
}

/* Started after the reload, the PMD counts on from the folded value. */
static void state_reload_continues(struct kunit *test)
{
	void *desc = state_reload_started(test);
	int other = cpumask_first(cpu_online_mask);

	KUNIT_ASSERT_EQ(test, pfmk_test_pmu_nr_active(other), 1U);
	pfmk_test_pmu_tick(other, 25);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			(1ULL << 40) + 200);
}

/*
 * state_reload_unloaded(), then loaded and started again on the first
 * online CPU, 25 ticks counted there, and unloaded.
 */
static void *state_reload_reunloaded(struct kunit *test)
{
	void *desc = state_reload_unloaded(test);
	int other = cpumask_first(cpu_online_mask);

	pfmkt_load_start(test, desc, other);
	KUNIT_ASSERT_EQ(test, pfmk_test_pmu_nr_active(other), 1U);
	pfmk_test_pmu_tick(other, 25);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	return desc;
}

/* Unloaded after the reload: the events go. */
static void state_reload_unload_releases(struct kunit *test)
{
	state_reload_reunloaded(test);
	KUNIT_EXPECT_EQ(test,
			pfmk_test_pmu_nr_active(cpumask_first(cpu_online_mask)),
			0U);
}

/* Unloaded after the reload: the counts stay. */
static void state_reload_unload_keeps_value(struct kunit *test)
{
	void *desc = state_reload_reunloaded(test);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0),
			(1ULL << 40) + 200);
}

static void state_getinfo(struct kunit *test, void *desc,
			  struct pfarg_setinfo *info)
{
	memset(info, 0, sizeof(*info));
	KUNIT_EXPECT_EQ(test, pfmk_getinfo_evtsets(desc, info, 1), 0);
}

/* Set-up: PMC 0 on the test PMU, loaded on the test CPU, not started. */
static void *state_set_loaded(struct kunit *test)
{
	void *desc = pfmkt_create(test, PFMK_TEST_PMU_NAME);

	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_load(test, desc, pfmkt_cpu());
	return desc;
}

/* state_set_loaded(), then started and left running 2 ms. */
static void *state_set_ran(struct kunit *test)
{
	void *desc = state_set_loaded(test);

	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	usleep_range(2000, 3000);
	return desc;
}

/* Loaded, never started: no run, no active duration. */
static void state_set_runs_loaded(struct kunit *test)
{
	void *desc = state_set_loaded(test);
	struct pfarg_setinfo a;

	state_getinfo(test, desc, &a);
	KUNIT_EXPECT_EQ(test, a.set_runs, 0ULL);
	KUNIT_EXPECT_EQ(test, a.set_act_duration, 0ULL);
}

/* Started 2 ms ago: one run, at least 2 ms of active duration. */
static void state_set_runs_duration(struct kunit *test)
{
	void *desc = state_set_ran(test);
	struct pfarg_setinfo a;

	state_getinfo(test, desc, &a);
	KUNIT_EXPECT_EQ(test, a.set_runs, 1ULL);
	KUNIT_EXPECT_GE(test, a.set_act_duration, 2 * NSEC_PER_MSEC);
}

/* Started: set_act_duration grows while started. */
static void state_set_duration_grows(struct kunit *test)
{
	void *desc = state_set_ran(test);
	struct pfarg_setinfo a, b;

	state_getinfo(test, desc, &a);
	usleep_range(2000, 3000);
	state_getinfo(test, desc, &b);
	KUNIT_EXPECT_GE(test, b.set_act_duration,
			a.set_act_duration + 2 * NSEC_PER_MSEC);
}

/* Stopped: set_act_duration stays, set_runs too. */
static void state_set_duration_stopped(struct kunit *test)
{
	void *desc = state_set_ran(test);
	struct pfarg_setinfo a, b;

	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	state_getinfo(test, desc, &a);
	usleep_range(2000, 3000);
	state_getinfo(test, desc, &b);
	KUNIT_EXPECT_EQ(test, b.set_act_duration, a.set_act_duration);
	KUNIT_EXPECT_EQ(test, b.set_runs, 1ULL);
}

/* state_set_ran(), then stopped and started twice more, and unloaded. */
static void *state_set_unloaded(struct kunit *test)
{
	void *desc = state_set_ran(test);

	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_start(desc, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	return desc;
}

/* set_runs counts every start. */
static void state_set_runs_unloaded(struct kunit *test)
{
	void *desc = state_set_unloaded(test);
	struct pfarg_setinfo a;

	state_getinfo(test, desc, &a);
	KUNIT_EXPECT_EQ(test, a.set_runs, 3ULL);
}

/* Unloaded: set_act_duration stays. */
static void state_set_duration_unloaded(struct kunit *test)
{
	void *desc = state_set_unloaded(test);
	struct pfarg_setinfo a, b;

	state_getinfo(test, desc, &a);
	usleep_range(2000, 3000);
	state_getinfo(test, desc, &b);
	KUNIT_EXPECT_EQ(test, b.set_act_duration, a.set_act_duration);
}

static struct kunit_case pfmk_state_cases[] = {
	KUNIT_CASE_PARAM(state_call_errno, state_row_gen_params),
	KUNIT_CASE(state_unloaded_pmds),
	KUNIT_CASE_PARAM(state_unloaded_refused_keep,
			 state_unloaded_refused_gen_params),
	KUNIT_CASE(state_loaded_stopped_pmds),
	KUNIT_CASE(state_loaded_stopped_no_count),
	KUNIT_CASE(state_loaded_stopped_unload_keeps),
	KUNIT_CASE_PARAM(state_started_refused_keep,
			 state_started_refused_gen_params),
	KUNIT_CASE(state_started_unload_stops),
	KUNIT_CASE_PARAM(state_close_any_state, state_close_gen_params),
	KUNIT_CASE(state_close_releases_events),
	KUNIT_CASE(state_write_pmds_wraps),
	KUNIT_CASE(state_write_pmds_loaded),
	KUNIT_CASE(state_write_pmds_loaded_counts),
	KUNIT_CASE(state_write_pmcs_loaded),
	KUNIT_CASE(state_write_pmcs_loaded_recreates),
	KUNIT_CASE(state_write_pmcs_loaded_step),
	KUNIT_CASE(state_write_pmcs_loaded_disable),
	KUNIT_CASE(state_write_pmcs_loaded_enable),
	KUNIT_CASE(state_unload_folds),
	KUNIT_CASE(state_reload_keeps_value),
	KUNIT_CASE(state_reload_moves_event),
	KUNIT_CASE(state_reload_continues),
	KUNIT_CASE(state_reload_unload_releases),
	KUNIT_CASE(state_reload_unload_keeps_value),
	KUNIT_CASE(state_set_runs_loaded),
	KUNIT_CASE(state_set_runs_duration),
	KUNIT_CASE(state_set_duration_grows),
	KUNIT_CASE(state_set_duration_stopped),
	KUNIT_CASE(state_set_runs_unloaded),
	KUNIT_CASE(state_set_duration_unloaded),
	{}
};

static struct kunit_suite pfmk_state_suite = {
	.name = "pfmk_state",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_state_cases,
};

kunit_test_suites(&pfmk_state_suite);
