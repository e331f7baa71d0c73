/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk KUnit suites: helpers shared by every KUnit module of the tests
 * (pfmk_kunit_util.c, linked into each: test-modules/Kbuild).
 *
 * Every test that uses pfmkt_init()/pfmkt_exit() as its suite's init and
 * exit gets a struct pfmkt_priv in test->priv; a suite with more per-test
 * state embeds it as the first member of its own (pfmkt_init_priv()).
 * Each context created through pfmkt_create() and its kin is a KUnit
 * resource of the test (kunit_add_resource(): 6.1 has no
 * kunit_add_action(), which came in 6.5, and resources work the same on
 * 6.1, 6.12 and 7.2), whose release closes it if the test ended (or
 * aborted on a failed assertion) without closing it.  pfmkt_exit()
 * releases them first thing, before a suite's exit unregisters a PMU
 * description they pin; KUnit's own cleanup would only run after the
 * suite's exit.  A test calls pfmkt_close() only where the close is what
 * it tests, or comes before what it tests; never as its last statement.
 * A CPU a test took offline is brought back.  A raw perf event a test
 * creates (pfmkt_perf_create()) is a resource of the test the same way,
 * released with perf_event_release_kernel() when the test ends or
 * aborts, by KUnit's cleanup (it pins no PMU description).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_KUNIT_H
#define _PFMK_KUNIT_H

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <pfmk/encode.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_test_thread.h"

/* KUnit's speed attribute appeared in 6.6: plain cases before. */
#ifndef KUNIT_CASE_SLOW
#define KUNIT_CASE_SLOW(test_name)	KUNIT_CASE(test_name)
#endif

/* States of a started context, running and masked. */
#define PFMKT_STARTED	(PFM_CTX_LOADED | PFMK_STATE_STARTED)
#define PFMKT_MASKED	(PFM_CTX_MASKED | PFMK_STATE_STARTED)

/* The default format's header and the common part of its entries. */
#define PFMKT_HDR	sizeof(struct pfm_dfl_smpl_hdr)
#define PFMKT_ENTRY	sizeof(struct pfm_dfl_smpl_entry)

/* Select fields of pfmkt_expect_stats_in() and pfmkt_expect_gstats(). */
#define PFMKT_ST_IDX(f)	(offsetof(struct pfmk_ctx_stats, f) / sizeof(u64))
#define PFMKT_GST_IDX(f)	(offsetof(struct pfmk_global_stats, f) / sizeof(u64))
#define PFMKT_ST(f)	BIT(PFMKT_ST_IDX(f))
#define PFMKT_GST(f)	BIT(PFMKT_GST_IDX(f))

/**
 * struct pfmkt_priv - per-test state, in test->priv
 * @done: the completion every context of the test is created with, but
 *	those of pfmkt_create_req() given another.
 * @offline_cpu: CPU taken offline by the test, or -1.
 */
struct pfmkt_priv {
	struct completion	done;
	int			offline_cpu;
};

/*
 * Request builders: every suite builds its pfarg_ctx, pfarg_pmc, pfarg_pmd
 * and pfarg_load through these, so that a request is zeroed the same way
 * everywhere and a field the KAPI adds is set in one place.  A test that
 * wants a bad request builds a good one, then breaks the one field.
 */

/**
 * pfmkt_ctx_req() - a system-wide context request
 * @req: the request, zeroed first.
 * @pmu: name of the PMU description ("" for generic).
 * @flags: PFM_FL_* flags besides PFM_FL_SYSTEM_WIDE.
 * @dfl: with the default sampling format (its argument is the caller's).
 */
static inline void pfmkt_ctx_req(struct pfarg_ctx *req, const char *pmu,
				 u32 flags, bool dfl)
{
	static const pfm_uuid_t dfl_uuid = PFM_DFL_SMPL_UUID;

	memset(req, 0, sizeof(*req));
	req->ctx_flags = PFM_FL_SYSTEM_WIDE | flags;
	strscpy(req->ctx_pmu_name, pmu, sizeof(req->ctx_pmu_name));
	if (dfl)
		memcpy(req->ctx_smpl_buf_id, dfl_uuid, sizeof(dfl_uuid));
}

/**
 * pfmkt_pmc_req() - a PMC write request
 * @pmc: the request, zeroed first.
 * @set: set identifier.
 * @reg: PMC number.
 * @value: PMC value.
 */
static inline void pfmkt_pmc_req(struct pfarg_pmc *pmc, u16 set, u16 reg,
				 u64 value)
{
	memset(pmc, 0, sizeof(*pmc));
	pmc->reg_set = set;
	pmc->reg_num = reg;
	pmc->reg_value = value;
}

/**
 * pfmkt_pmd_req() - a PMD read or write request, no sampling fields
 * @pmd: the request, zeroed first.
 * @set: set identifier.
 * @reg: PMD number.
 * @value: PMD value (0 for a read).
 */
static inline void pfmkt_pmd_req(struct pfarg_pmd *pmd, u16 set, u16 reg,
				 u64 value)
{
	memset(pmd, 0, sizeof(*pmd));
	pmd->reg_set = set;
	pmd->reg_num = reg;
	pmd->reg_value = value;
}

/**
 * pfmkt_load_req() - a load request on a CPU
 * @load: the request, zeroed first.
 * @cpu: load_pid.
 * @set: the set to start with.
 */
static inline void pfmkt_load_req(struct pfarg_load *load, u32 cpu, u16 set)
{
	memset(load, 0, sizeof(*load));
	load->load_pid = cpu;
	load->load_set = set;
}

/**
 * pfmkt_encode_events() - encode events for PMDs 0, 1, ... of one context
 * @req: the context request: pfmk_encode() may set its ctx_pmu_name.
 * @events: the event strings, event i for PMD i.
 * @n: number of @events.
 * @pmcs: output: the PMC write requests of all events, in order.
 * @max: room in @pmcs.
 * @count: output: number of requests written.
 *
 * Return: 0 or the first error of pfmk_encode().
 */
static inline int pfmkt_encode_events(struct pfarg_ctx *req,
				      const char * const *events,
				      unsigned int n, struct pfarg_pmc *pmcs,
				      unsigned int max, unsigned int *count)
{
	unsigned int i, got;
	int ret;

	*count = 0;
	for (i = 0; i < n; i++) {
		ret = pfmk_encode(events[i], i, req, pmcs + *count,
				  max - *count, &got);
		if (ret)
			return ret;
		*count += got;
	}
	return 0;
}

/**
 * struct pfmkt_pmd - every field of a PMD write a sampling test sets
 * @set: reg_set.
 * @value: reg_value.
 * @short_reset: reg_short_reset.
 * @long_reset: reg_long_reset.
 * @flags: reg_flags.
 * @smpl_pmds: reg_smpl_pmds[0].
 * @reset_pmds: reg_reset_pmds[0].
 * @mask: reg_random_mask.
 * @seed: reg_random_seed.
 * @eventid: reg_smpl_eventid.
 * @switch_cnt: reg_ovfl_switch_cnt.
 */
struct pfmkt_pmd {
	u16	set;
	u64	value;
	u64	short_reset;
	u64	long_reset;
	u32	flags;
	u64	smpl_pmds;
	u64	reset_pmds;
	u64	mask;
	u32	seed;
	u64	eventid;
	u64	switch_cnt;
};

/**
 * struct pfmkt_bad - what a test thread saw break a contract
 * @nr: results that break the contract.
 * @ret: last unexpected return value.
 * @entry: vector entry of the last unexpected value, or -1 for none.
 * @value: last unexpected value.
 */
struct pfmkt_bad {
	unsigned long	nr;
	long		ret;
	int		entry;
	u64		value;
};

/**
 * struct pfmkt_perf - a raw perf event a test creates (pfmkt_perf_create())
 * @attr: its attributes.
 * @cpu: its CPU, or -1 with @task: always set (0 is CPU 0).
 * @task: its task, or NULL for a CPU event.
 * @handler: its overflow handler, or NULL.
 * @context: the handler's context.
 */
struct pfmkt_perf {
	struct perf_event_attr	*attr;
	int			cpu;
	struct task_struct	*task;
	perf_overflow_handler_t	handler;
	void			*context;
};

/**
 * pfmkt_hdr_count() - hdr_count of a default-format buffer
 * @buf: the buffer.
 *
 * Return: the number of complete entries.
 */
static inline u64 pfmkt_hdr_count(void *buf)
{
	struct pfm_dfl_smpl_hdr *hdr = buf;

	/* Pairs with the handler's release: the entries are complete. */
	return smp_load_acquire(&hdr->hdr_count);
}

/**
 * pfmkt_entry() - entry @i of a default-format buffer
 * @buf: the buffer.
 * @i: the entry's index.
 * @nvals: the values each entry carries (bits in reg_smpl_pmds).
 *
 * Return: the entry.
 */
static inline const struct pfm_dfl_smpl_entry *
pfmkt_entry(void *buf, unsigned int i, unsigned int nvals)
{
	return buf + PFMKT_HDR + i * (PFMKT_ENTRY + nvals * sizeof(u64));
}

/**
 * pfmkt_entry_vals() - the PMD values an entry carries
 * @ent: the entry.
 *
 * Return: its values, lowest PMD first.
 */
static inline const u64 *pfmkt_entry_vals(const struct pfm_dfl_smpl_entry *ent)
{
	return (const u64 *)(ent + 1);
}

int pfmkt_init_priv(struct kunit *test, size_t size);
int pfmkt_init(struct kunit *test);
void pfmkt_exit(struct kunit *test);

int pfmkt_try_create(struct kunit *test, struct pfarg_ctx *req, void **desc);
int pfmkt_try_create_arg(struct kunit *test, struct pfarg_ctx *req,
			 void *arg, size_t size, void **desc, void **buf);
void *pfmkt_create_req(struct kunit *test, struct pfarg_ctx *req,
		       struct completion *done);
void *pfmkt_create(struct kunit *test, const char *pmu);
void *pfmkt_create_events(struct kunit *test, const char * const *events,
			  unsigned int n, int cpu);
void pfmkt_close(struct kunit *test, void *desc);
void pfmkt_forget(struct kunit *test, void *desc);

void pfmkt_write_pmc(struct kunit *test, void *desc, u16 reg, u64 value);
void pfmkt_write_pmd(struct kunit *test, void *desc, u16 reg, u64 value);
int pfmkt_try_write_pmc(void *desc, u16 reg, u64 value);
int pfmkt_try_write_pmd(void *desc, u16 reg, u64 value);
int pfmkt_mkset(void *desc, u16 id, u32 flags, u32 timeout, u16 next);
void *pfmkt_create_two_sets(struct kunit *test, u32 flags0, u32 flags1,
			    u32 timeout_us);
void *pfmkt_create_counting(struct kunit *test, u64 step, u64 init);
void *pfmkt_create_started(struct kunit *test, int cpu, u64 step, u64 init);
u64 pfmkt_read_pmd(struct kunit *test, void *desc, u16 reg);
int pfmkt_load_cpu(void *desc, u32 cpu);
void pfmkt_load(struct kunit *test, void *desc, int cpu);
void pfmkt_load_start(struct kunit *test, void *desc, int cpu);
int pfmkt_try_create_dfl(struct kunit *test, const char *pmu, u32 flags,
			 u64 buf_size, void **desc, void **buf);
void *pfmkt_create_dfl(struct kunit *test, const char *pmu, u32 flags,
		       u64 buf_size, void **buf);
void pfmkt_write_smpl_pmd(struct kunit *test, void *desc, u16 reg,
			  const struct pfmkt_pmd *p);
void pfmkt_write_sampler_pmd(struct kunit *test, void *desc, u16 reg,
			     u64 period, const struct pfmkt_pmd *p);
void pfmkt_write_sampler(struct kunit *test, void *desc, u16 reg, u64 period,
			 u32 flags, u64 smpl_pmds);
struct pfarg_setinfo pfmkt_set_info(struct kunit *test, void *desc, u16 id);
void pfmkt_stats(struct kunit *test, void *desc, struct pfmk_ctx_stats *st);
void pfmkt_expect_stats(struct kunit *test, void *desc,
			const struct pfmk_ctx_stats *want);
void pfmkt_expect_stats_in(struct kunit *test,
			   const struct pfmk_ctx_stats *got,
			   const struct pfmk_ctx_stats *want,
			   unsigned long fields);
struct pfmk_global_stats pfmkt_gstats(struct kunit *test);
void pfmkt_expect_gstats(struct kunit *test,
			 const struct pfmk_global_stats *before,
			 const struct pfmk_global_stats *after,
			 const struct pfmk_global_stats *delta,
			 unsigned long fields);
void pfmkt_expect_no_msg(struct kunit *test, void *desc);
void pfmkt_expect_ovfl_msg(struct kunit *test, void *desc, unsigned int pmd,
			   int cpu);
int pfmkt_cpu(void);
void pfmkt_write_set_pmc(struct kunit *test, void *desc, u16 set, u16 reg,
			 u64 value);
u64 pfmkt_read_set_pmd(struct kunit *test, void *desc, u16 set, u16 reg);
bool pfmkt_wait_set_runs(void *desc, u16 id, u64 runs);
void pfmkt_wait_notify(struct kunit *test);
int pfmkt_hp_cpu(struct kunit *test);
int pfmkt_other_cpu(int cpu);
int pfmkt_other_cpu_or_skip(struct kunit *test, int cpu);
bool pfmkt_aux_patch(struct kunit *test);
void pfmkt_offline(struct kunit *test, int cpu);
void pfmkt_online(struct kunit *test, int cpu);
void pfmkt_expect_msg(struct kunit *test, void *desc, u32 type, int cpu,
		      u64 cycle);
void pfmkt_bad(struct pfmkt_bad *bad, long ret, int entry, u64 value);
struct perf_event *pfmkt_perf_try_create(struct kunit *test,
					 const struct pfmkt_perf *p);
struct perf_event *pfmkt_perf_create(struct kunit *test,
				     const struct pfmkt_perf *p);
void pfmkt_perf_release(struct kunit *test, struct perf_event *event);

#endif /* _PFMK_KUNIT_H */
