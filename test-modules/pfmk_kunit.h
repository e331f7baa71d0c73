/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk KUnit suites: helpers shared by the files of pfmk_kunit.ko.
 *
 * Every test that uses pfmkt_init()/pfmkt_exit() as its suite's init and
 * exit gets a struct pfmkt_priv in test->priv.  Contexts created through
 * pfmkt_create() are tracked there and closed by pfmkt_exit() if the test
 * ended (or aborted on a failed assertion) without closing them; a CPU a
 * test took offline is brought back.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_KUNIT_H
#define _PFMK_KUNIT_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/types.h>
#include <pfmk/pfmk.h>

/* KUnit's speed attribute appeared in 6.6: plain cases before. */
#ifndef KUNIT_CASE_SLOW
#define KUNIT_CASE_SLOW(test_name)	KUNIT_CASE(test_name)
#endif

/* Most contexts one test may have open at once. */
#define PFMKT_MAX_CTX		64

/**
 * struct pfmkt_priv - per-test state, in test->priv
 * @done: the completion every context of the test is created with.
 * @desc: open contexts, closed by pfmkt_exit().
 * @offline_cpu: CPU taken offline by the test, or -1.
 */
struct pfmkt_priv {
	struct completion	done;
	void			*desc[PFMKT_MAX_CTX];
	int			offline_cpu;
};

int pfmkt_init(struct kunit *test);
void pfmkt_exit(struct kunit *test);

int pfmkt_try_create(struct kunit *test, struct pfarg_ctx *req, void **desc);
int pfmkt_try_create_arg(struct kunit *test, struct pfarg_ctx *req,
			 void *arg, size_t size, void **desc, void **buf);
void *pfmkt_create(struct kunit *test, const char *pmu);
void pfmkt_close(struct kunit *test, void *desc);
void pfmkt_forget(struct kunit *test, void *desc);

void pfmkt_write_pmc(struct kunit *test, void *desc, u16 reg, u64 value);
void pfmkt_write_pmd(struct kunit *test, void *desc, u16 reg, u64 value);
u64 pfmkt_read_pmd(struct kunit *test, void *desc, u16 reg);
int pfmkt_load_cpu(void *desc, u32 cpu);
void pfmkt_load(struct kunit *test, void *desc, int cpu);
int pfmkt_cpu(void);
void pfmkt_write_set_pmc(struct kunit *test, void *desc, u16 set, u16 reg,
			 u64 value);
u64 pfmkt_read_set_pmd(struct kunit *test, void *desc, u16 set, u16 reg);
bool pfmkt_wait_set_runs(void *desc, u16 id, u64 runs);
void pfmkt_wait_notify(struct kunit *test);
int pfmkt_param_io(const char *name, char *buf, size_t len, bool write);
int pfmkt_hp_cpu(struct kunit *test);
void pfmkt_offline(struct kunit *test, int cpu);
void pfmkt_online(struct kunit *test, int cpu);
void pfmkt_expect_msg(struct kunit *test, void *desc, u32 type, int cpu,
		      u64 cycle);

extern struct kunit_suite pfmk_x86_suite;
extern struct kunit_suite pfmk_test_pmu_suite;
extern struct kunit_suite pfmk_api_args_suite;
extern struct kunit_suite pfmk_state_suite;
extern struct kunit_suite pfmk_count_suite;
extern struct kunit_suite pfmk_multi_suite;
extern struct kunit_suite pfmk_race_suite;
extern struct kunit_suite pfmk_smpl_args_suite;
extern struct kunit_suite pfmk_smpl_exact_suite;
extern struct kunit_suite pfmk_smpl_notify_suite;
extern struct kunit_suite pfmk_smpl_cpuclock_suite;
extern struct kunit_suite pfmk_limits_suite;
extern struct kunit_suite pfmk_hotplug_suite;
extern struct kunit_suite pfmk_sets_args_suite;
extern struct kunit_suite pfmk_sets_switch_suite;
extern struct kunit_suite pfmk_sets_time_suite;
extern struct kunit_suite pfmk_edge_suite;
extern struct kunit_suite pfmk_edge_hotplug_suite;

#endif /* _PFMK_KUNIT_H */
