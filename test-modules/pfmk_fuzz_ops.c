// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_fuzz: the driver's calls.  Each thread draws a call (weighted by
 * fz_op_weight), a handle (a slot of the table, forged, stale or NULL)
 * and arguments, valid and invalid, from its own generator; asks the
 * oracle (pfmk_fuzz_oracle.c) for the outcomes the call may have, makes
 * the call, and has the oracle judge the result and update its model.
 * Every random number is drawn here, in an order that depends only on
 * the seed and on the results the model determines: a deterministic run
 * replays.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/prandom.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <pfmk/aux.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_fuzz.h"
#include "pfmk_test_pmu.h"

/*
 * Relative frequency of each operation.  Creation evicts (closes) the
 * context of its slot: at 4 in ~120, a context lives some 400 calls,
 * long enough to be loaded, started, to overflow, and to see its CPU go
 * offline and come back.
 */
const u8 fz_op_weight[FZ_NR_OPS] = {
	[FZ_CREATE]		= 4,
	[FZ_WRITE_PMCS]		= 9,
	[FZ_WRITE_PMDS]		= 9,
	[FZ_READ_PMDS]		= 8,
	[FZ_READ_PMDS_TIME]	= 3,
	[FZ_LOAD]		= 9,
	[FZ_START]		= 9,
	[FZ_STOP]		= 5,
	[FZ_RESTART]		= 5,
	[FZ_UNLOAD]		= 4,
	[FZ_CLOSE]		= 2,
	[FZ_READ]		= 8,
	[FZ_READ_BLOCK]		= 1,
	[FZ_GET_STATE]		= 5,
	[FZ_GET_STATS]		= 3,
	[FZ_CREATE_SETS]	= 2,
	[FZ_DELETE_SETS]	= 2,
	[FZ_GETINFO_SETS]	= 2,
	[FZ_AUX_SETUP]		= 2,
	[FZ_AUX_COPY]		= 1,
	[FZ_GLOBAL_STATS]	= 1,
	[FZ_PMU_TOGGLE]		= 1,
	[FZ_TICK]		= 12,
};

/* The PMU description "pfmk_fuzz", registered and unregistered. */
DEFINE_MUTEX(fz_pmu_lock);
bool fz_pmu_registered;

static u64 fz_rand(struct fz_thread *t)
{
	u64 hi = prandom_u32_state(&t->rng);

	return hi << 32 | prandom_u32_state(&t->rng);
}

/* Uniform enough in [0, n) for n much below 2^32. */
static u32 fz_below(struct fz_thread *t, u32 n)
{
	return (u32)(((u64)prandom_u32_state(&t->rng) * n) >> 32);
}

/* True with probability @pct percent. */
static bool fz_pct(struct fz_thread *t, u32 pct)
{
	return fz_below(t, 100) < pct;
}

/*
 * Pick the handle of the next call.  For a slot, *@locked says whether
 * the call runs under the slot's mutex (returned held) or races.
 */
static void *fz_pick(struct fz_thread *t, enum fz_handle *hk,
		     enum fz_kind *kind, int *slotp, bool *locked,
		     bool may_race)
{
	u32 r = fz_below(t, 100);
	struct fz_slot *slot;
	void *desc = NULL;
	int i, s = 0;

	*slotp = -1;
	*locked = false;
	*kind = fz_pct(t, 50) ? FZ_KIND_TEST : FZ_KIND_GENERIC;
	if (r < 82) {
		bool race = may_race && !fz_det && fz_pct(t, 30);

		/* Prefer a live slot: try three. */
		for (i = 0; i < 3; i++) {
			s = fz_below(t, FZ_NSLOTS);
			slot = &fz_slots[s];
			mutex_lock(&slot->lock);
			desc = slot->desc;
			if (desc)
				*kind = slot->kind;
			if (desc || i == 2)
				break;
			mutex_unlock(&slot->lock);
		}
		*slotp = s;
		*hk = desc ? FZ_H_SLOT : FZ_H_EMPTY;
		if (race || !desc)
			mutex_unlock(&fz_slots[s].lock);
		else
			*locked = true;
		return desc;
	}
	if (r < 88) {
		*hk = FZ_H_FORGED;
		switch (fz_below(t, 5)) {
		case 0:	/* random bits */
			return (void *)(unsigned long)fz_rand(t);
		case 1:	/* a live descriptor with one cookie bit flipped */
			desc = READ_ONCE(fz_slots[fz_below(t, FZ_NSLOTS)].desc);
			return (void *)((unsigned long)desc ^ BIT_ULL(32));
		case 2:	/* a kernel pointer */
			return t;
		case 3:	/* index 0 */
			return (void *)(unsigned long)(fz_rand(t) << 32);
		default: /* bit 63 */
			return (void *)(unsigned long)(fz_rand(t) | BIT_ULL(63));
		}
	}
	if (r < 95 && t->nstale) {
		*hk = FZ_H_STALE;
		return t->stale[fz_below(t, min_t(unsigned int, t->nstale,
						 FZ_STALE))];
	}
	*hk = FZ_H_NULL;
	return NULL;
}

static void fz_unpick(int s, bool locked)
{
	if (locked)
		mutex_unlock(&fz_slots[s].lock);
}

/* Close a slot's context under its mutex: collect its overflow count. */
int fz_close_locked(struct fz_thread *t, struct fz_slot *slot,
		    void *desc)
{
	struct pfmk_ctx_stats st;
	int ret;

	if (!pfmk_get_stats(desc, &st))
		atomic64_add(st.ovfl_count, &fz_ovfl_closed);
	ret = pfmk_close(desc);
	if (!ret && slot->desc == desc)
		slot->desc = NULL;
	return ret;
}

/* A register number: mostly valid (and low, for generic), sometimes not. */
static u16 fz_reg(struct fz_thread *t, enum fz_kind kind)
{
	unsigned int n = fz_nregs(kind);

	if (fz_pct(t, 90))
		return fz_below(t, min(n, 8U));
	if (fz_pct(t, 50))
		return n + fz_below(t, 4);
	return fz_rand(t);
}

static u16 fz_set(struct fz_thread *t)
{
	return fz_pct(t, 95) ? 0 : fz_rand(t);
}

/* A vector count for a call that accepts up to @max entries. */
static int fz_count(struct fz_thread *t, int max, unsigned int nregs)
{
	u32 r = fz_below(t, 100);

	if (r < 82)
		return 1 + fz_below(t, min(nregs + 1, 8U));
	if (r < 87)
		return 0;
	if (r < 90)
		return fz_pct(t, 50) ? -1 : (int)(fz_rand(t) | BIT_ULL(31));
	if (r < 94)
		return fz_pct(t, 50) ? max + 1 : INT_MAX;
	if (r < 97)
		return max;
	return 8 + fz_below(t, max - 7);
}

/* Draw the flags of a context request. */
static void fz_gen_create_flags(struct fz_thread *t, struct pfarg_ctx *req)
{
	u32 r = fz_below(t, 100);

	if (r < 90)
		req->ctx_flags = PFM_FL_SYSTEM_WIDE |
				 (fz_pct(t, 20) ? PFM_FL_OVFL_NO_MSG : 0);
	else if (r < 93)
		req->ctx_flags = PFM_FL_SYSTEM_WIDE | PFM_FL_NOTIFY_BLOCK;
	else if (r < 96)
		req->ctx_flags = PFM_FL_SYSTEM_WIDE | PFM_FL_MAP_SETS;
	else
		req->ctx_flags = fz_rand(t);
}

/* Draw the PMU description of a context request. */
static void fz_gen_create_pmu(struct fz_thread *t, struct fz_create *a)
{
	char *name = a->req.ctx_pmu_name;
	size_t size = sizeof(a->req.ctx_pmu_name);
	u32 r = fz_below(t, 100);

	if (r < 40) {
		a->kind = FZ_KIND_TEST;
		strscpy(name, PFMK_TEST_PMU_NAME, size);
	} else if (r < 48) {
		a->kind = FZ_KIND_FUZZ;
		strscpy(name, FZ_PMU_NAME, size);
	} else if (r < 85) {
		;	/* "" selects generic */
	} else if (r < 92) {
		strscpy(name, PFMK_GENERIC_NAME, size);
	} else if (r < 96) {
		strscpy(name, "pfmk_nonexistent", size);
		a->name_ok = false;
	} else {
		memset(name, 'x', size);
	}
}

/* Draw the sampling format and its argument of a context request. */
static void fz_gen_create_smpl(struct fz_thread *t, struct fz_create *a)
{
	static const pfm_uuid_t dfl_uuid = PFM_DFL_SMPL_UUID;
	static const u64 sizes[] = { 1024, 4096, 8192, 16384 };
	u8 *id = a->req.ctx_smpl_buf_id;
	u32 r = fz_below(t, 100);
	unsigned int i;

	if (r < 35) {
		a->smpl = true;
		memcpy(id, dfl_uuid, sizeof(dfl_uuid));
		a->smpl_arg = &a->arg;
		a->smpl_size = sizeof(a->arg);
		if (fz_pct(t, 85))
			a->arg.buf_size = sizes[fz_below(t, ARRAY_SIZE(sizes))];
		else if (fz_pct(t, 50))
			a->arg.buf_size = fz_below(t, 200);
		else
			a->arg.buf_size = (64ULL << 20) + 1 + fz_below(t, 4096);
		if (fz_pct(t, 4))
			a->smpl_size--;
		else if (fz_pct(t, 4))
			a->smpl_arg = NULL;
	} else if (r < 38) {
		/* An unknown format (never the default's UUID). */
		for (i = 0; i < sizeof(a->req.ctx_smpl_buf_id); i++)
			id[i] = fz_rand(t);
		id[0] = ~dfl_uuid[0];
		a->fmt_unknown = true;
		a->smpl_arg = &a->arg;
		a->smpl_size = sizeof(a->arg);
	} else if (r < 40) {
		/* An argument without a format. */
		a->smpl_arg = &a->arg;
		a->smpl_size = sizeof(a->arg);
	}
}

/* Draw every argument of a pfmk_create_context() for @slot. */
static void fz_gen_create(struct fz_thread *t, struct fz_slot *slot,
			  struct fz_create *a)
{
	memset(a, 0, sizeof(*a));
	a->kind = FZ_KIND_GENERIC;
	a->name_ok = true;
	fz_gen_create_flags(t, &a->req);
	fz_gen_create_pmu(t, a);
	fz_gen_create_smpl(t, a);
	a->c = fz_pct(t, 98) ? &slot->done : NULL;
	a->descp = fz_pct(t, 98) ? &a->desc : NULL;
}

/*
 * Create a context for a random slot; a success evicts (closes) the
 * context the slot held.
 */
static void fz_op_create(struct fz_thread *t)
{
	int s = fz_below(t, FZ_NSLOTS);
	struct fz_slot *slot = &fz_slots[s];
	bool pmu_lock;
	struct fz_create a;
	void *buf = NULL, *old;
	u32 expect;
	long ret;

	fz_gen_create(t, slot, &a);
	expect = fz_expect_create(&a);
	pmu_lock = a.kind == FZ_KIND_FUZZ;
	mutex_lock(&slot->lock);
	if (pmu_lock)
		mutex_lock(&fz_pmu_lock);
	expect = fz_expect_create_fmt(&a, expect,
				      pmu_lock && fz_pmu_registered);
	ret = pfmk_create_context(&a.req, a.smpl_arg, a.smpl_size, a.c,
				  a.descp, fz_pct(t, 80) ? &buf : NULL);
	if (pmu_lock)
		mutex_unlock(&fz_pmu_lock);
	fz_check(t, FZ_CREATE, FZ_H_SLOT, s, true, NULL, a.req.ctx_flags,
		 expect, ret);
	if (ret) {
		mutex_unlock(&slot->lock);
		return;
	}
	t->n[FZ_N_CREATE]++;
	old = fz_model_created(t, slot, &a, a.desc);
	if (old) {
		ret = fz_close_locked(t, slot, old);
		fz_check(t, FZ_CLOSE, FZ_H_SLOT, s, true, old, 0, E_OK, ret);
		if (!ret)
			t->closes++;
	}
	mutex_unlock(&slot->lock);
}

/* Draw PMC value for a context of @kind. */
static u64 fz_pmc_value(struct fz_thread *t, enum fz_kind kind)
{
	static const u64 sw[] = {
		PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK,
		PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CONTEXT_SWITCHES,
		PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_DUMMY,
	};
	u32 r = fz_below(t, 100);
	u64 v;

	if (kind != FZ_KIND_GENERIC) {
		if (r < 70)
			return PFMK_TEST_PMC(1 + fz_below(t, 16));
		if (r < 80)
			return 0;
		if (r < 85)
			return PFMK_TEST_PMC(0);
		if (r < 92)
			return PFMK_TEST_PMC(1) | BIT_ULL(16 + fz_below(t, 47));
		return fz_rand(t);
	}
	if (r < 55) {
		/* Deterministic runs count nothing that depends on time. */
		v = PFMK_GEN_SW(fz_det ? PERF_COUNT_SW_DUMMY :
				sw[fz_below(t, ARRAY_SIZE(sw))]);
		if (fz_pct(t, 15))
			v |= PFMK_GEN_XIDLE << fz_below(t, 4) >> 3;
		return v;
	}
	if (r < 65)
		return PFMK_GEN_HW(fz_below(t, PERF_COUNT_HW_MAX + 1));
	if (r < 70)
		return PFMK_GEN_PMC(PERF_TYPE_RAW, fz_rand(t));
	if (r < 73)
		return PFMK_GEN_PMC(PERF_TYPE_HW_CACHE, fz_rand(t) & 0x70707);
	if (r < 83)
		return 0;
	v = fz_rand(t);
	/* Not a register image of the native PMU: the model has no x86. */
	return (v & PFMK_GEN_EN) || (v & PFMK_GEN_RSVD_MASK) ? v : 0;
}

static void fz_op_write_pmcs(struct fz_thread *t, int s, void *desc,
			     enum fz_handle hk, enum fz_kind kind)
{
	struct fz_model *m = &fz_slot_of(s)->m;
	struct pfarg_pmc *req = t->pmcs;
	int i, n = fz_count(t, PFM_MAX_PMCS, fz_nregs(kind));
	bool locked = hk == FZ_H_SLOT;
	u32 expect = 0;
	long ret;

	for (i = 0; i < n && i < PFM_MAX_PMCS; i++) {
		memset(&req[i], 0, sizeof(req[i]));
		req[i].reg_num = fz_reg(t, kind);
		req[i].reg_set = fz_set(t);
		if (fz_pct(t, 8))
			req[i].reg_flags = fz_pct(t, 50) ? PFM_REGFL_NO_EMUL64 :
							   fz_rand(t);
		req[i].reg_value = fz_pmc_value(t, kind);
	}
	if (fz_pct(t, 2))
		req = NULL;
	if (locked)
		expect = fz_expect_write_pmcs(m, kind, req, n);
	ret = pfmk_write_pmcs(desc, req, n);
	fz_check(t, FZ_WRITE_PMCS, hk, s, locked, desc, n, expect, ret);
	if (!ret && locked)
		fz_model_write_pmcs(m, kind, req, n);
}

/* A PMD value: counting, sampling (negative, with a sane period), junk. */
static u64 fz_pmd_value(struct fz_thread *t, enum fz_kind kind)
{
	u32 r = fz_below(t, 100);

	if (r < 35)
		return fz_pct(t, 50) ? 0 : fz_below(t, 1000000);
	if (r < 85) {
		if (kind != FZ_KIND_GENERIC)
			return -(u64)(1 + fz_below(t, FZ_TEST_PERIOD_MAX));
		return -(FZ_GEN_PERIOD_MIN + fz_below(t, 9000000));
	}
	if (r < 90 && kind != FZ_KIND_GENERIC)
		return -1ULL - fz_below(t, 2);
	/* Random: a negative one has a period far above FZ_GEN_PERIOD_MIN. */
	return fz_rand(t) | (kind != FZ_KIND_GENERIC ? 0 : BIT_ULL(62));
}

/* Draw the flags of a PMD write. */
static u32 fz_pmd_flags(struct fz_thread *t)
{
	u32 r = fz_below(t, 100);

	if (r < 35)
		return PFM_REGFL_OVFL_NOTIFY;
	if (r < 42)
		return PFM_REGFL_RANDOM |
		       (fz_pct(t, 50) ? PFM_REGFL_OVFL_NOTIFY : 0);
	if (r < 47)
		return fz_rand(t);
	return 0;
}

/* Draw one PMD write of a context of @kind; @mask: its PMDs. */
static void fz_gen_pmd(struct fz_thread *t, enum fz_kind kind, u64 mask,
		       struct pfarg_pmd *req)
{
	u32 r;

	memset(req, 0, sizeof(*req));
	req->reg_num = fz_reg(t, kind);
	req->reg_set = fz_set(t);
	req->reg_flags = fz_pmd_flags(t);
	req->reg_value = fz_pmd_value(t, kind);
	req->reg_short_reset = fz_pct(t, 70) ? req->reg_value :
			       fz_pmd_value(t, kind);
	req->reg_long_reset = fz_pct(t, 70) ? req->reg_value :
			      fz_pmd_value(t, kind);
	r = fz_below(t, 100);
	if (r < 80)
		req->reg_smpl_pmds[0] = fz_rand(t) & mask;
	else if (r < 90)
		req->reg_smpl_pmds[fz_below(t, PFM_PMD_BV)] = fz_rand(t);
	if (fz_pct(t, 20))
		req->reg_reset_pmds[0] = fz_rand(t) & mask;
	else if (fz_pct(t, 5))
		req->reg_reset_pmds[fz_below(t, PFM_PMD_BV)] = fz_rand(t);
	req->reg_random_mask = fz_pct(t, 50) ? 0xff : fz_rand(t) & 0xfffff;
	req->reg_random_seed = fz_rand(t);
	req->reg_smpl_eventid = fz_rand(t);
}

static void fz_op_write_pmds(struct fz_thread *t, int s, void *desc,
			     enum fz_handle hk, enum fz_kind kind)
{
	struct fz_model *m = &fz_slot_of(s)->m;
	struct pfarg_pmd *req = t->pmds;
	unsigned int nregs = fz_nregs(kind);
	int i, n = fz_count(t, PFM_MAX_PMDS, nregs);
	u64 mask = nregs >= 64 ? ~0ULL : BIT_ULL(nregs) - 1;
	bool locked = hk == FZ_H_SLOT;
	u32 expect = 0;
	long ret;

	for (i = 0; i < n && i < PFM_MAX_PMDS; i++)
		fz_gen_pmd(t, kind, mask, &req[i]);
	if (fz_pct(t, 2))
		req = NULL;
	if (locked)
		expect = fz_expect_write_pmds(m, kind, req, n);
	ret = pfmk_write_pmds(desc, req, n);
	fz_check(t, FZ_WRITE_PMDS, hk, s, locked, desc, n, expect, ret);
	if (!ret && locked)
		fz_model_write_pmds(m, req, n);
}

static void fz_op_read_pmds(struct fz_thread *t, int s, void *desc,
			    enum fz_handle hk, enum fz_kind kind, bool locked,
			    bool time)
{
	enum fz_op op = time ? FZ_READ_PMDS_TIME : FZ_READ_PMDS;
	struct pfarg_pmd *req = t->pmds;
	struct pfmk_pmd_time *times = t->times;
	int i, n = fz_count(t, PFM_MAX_PMDS, fz_nregs(kind));
	u32 expect = 0;
	long ret;

	for (i = 0; i < n && i < PFM_MAX_PMDS; i++) {
		memset(&req[i], 0, sizeof(req[i]));
		req[i].reg_num = fz_reg(t, kind);
		req[i].reg_set = fz_set(t);
	}
	if (fz_pct(t, 2))
		req = NULL;
	if (time && fz_pct(t, 3))
		times = NULL;
	if (hk == FZ_H_SLOT)
		expect = fz_expect_read_pmds(locked ? &fz_slot_of(s)->m : NULL,
					     kind, req, time, times, n);
	if (time)
		ret = pfmk_read_pmds_time(desc, req, times, n);
	else
		ret = pfmk_read_pmds(desc, req, n);
	fz_check(t, op, hk, s, locked, desc, n, expect, ret);
	if (!ret && locked)
		fz_check_values(t, s, req, n);
}

/* Draw a load request: mostly CPU 0 or FZ_HP_CPU. */
static void fz_gen_load(struct fz_thread *t, struct pfarg_load *req)
{
	u32 r = fz_below(t, 100);

	memset(req, 0, sizeof(*req));
	if (r < 45)
		req->load_pid = 0;
	else if (r < 90)
		req->load_pid = FZ_HP_CPU;
	else if (r < 93)
		req->load_pid = nr_cpu_ids;
	else if (r < 96)
		req->load_pid = U32_MAX;
	else
		req->load_pid = fz_rand(t);
	req->load_set = fz_set(t);
}

static void fz_op_load(struct fz_thread *t, int s, void *desc,
		       enum fz_handle hk)
{
	struct fz_model *m = &fz_slot_of(s)->m;
	bool locked = hk == FZ_H_SLOT;
	struct pfarg_load req, *reqp;
	u32 expect = 0;
	long ret;

	fz_gen_load(t, &req);
	reqp = fz_pct(t, 3) ? NULL : &req;
	if (locked)
		expect = fz_expect_load(m, &req, !reqp);
	ret = pfmk_load_context(desc, reqp);
	fz_check(t, FZ_LOAD, hk, s, locked, desc, req.load_pid, expect, ret);
	if (ret || !locked)
		return;
	t->n[FZ_N_LOAD]++;
	fz_model_loaded(m, req.load_pid);
}

static void fz_op_start(struct fz_thread *t, int s, void *desc,
			enum fz_handle hk)
{
	struct fz_slot *slot = fz_slot_of(s);
	struct pfarg_start req, *reqp;
	bool locked = hk == FZ_H_SLOT;
	u32 expect = 0;
	long ret;

	memset(&req, 0, sizeof(req));
	req.start_set = fz_set(t);
	reqp = fz_pct(t, 70) ? NULL : &req;
	if (locked)
		expect = fz_expect_start(&slot->m, reqp);
	ret = pfmk_start(desc, reqp);
	fz_check(t, FZ_START, hk, s, locked, desc, req.start_set, expect, ret);
	if (ret || !locked)
		return;
	t->n[FZ_N_START]++;
	fz_model_started(slot);
}

/* pfmk_stop(), pfmk_restart() or pfmk_unload_context(). */
static void fz_op_simple(struct fz_thread *t, enum fz_op op, int s,
			 void *desc, enum fz_handle hk)
{
	struct fz_slot *slot = fz_slot_of(s);
	bool locked = hk == FZ_H_SLOT;
	u32 expect = 0;
	long ret;

	if (locked)
		expect = fz_expect_simple(&slot->m, op);
	switch (op) {
	case FZ_STOP:
		ret = pfmk_stop(desc);
		break;
	case FZ_RESTART:
		ret = pfmk_restart(desc);
		break;
	default:
		ret = pfmk_unload_context(desc);
		break;
	}
	fz_check(t, op, hk, s, locked, desc, 0, expect, ret);
	if (locked)
		fz_model_simple(slot, op, ret);
}

static void fz_op_close(struct fz_thread *t, int s, void *desc,
			enum fz_handle hk)
{
	bool locked = hk == FZ_H_SLOT;
	long ret;

	if (locked)
		ret = fz_close_locked(t, &fz_slots[s], desc);
	else
		ret = pfmk_close(desc);
	fz_check(t, FZ_CLOSE, hk, s, locked, desc, 0, locked ? E_OK : 0, ret);
	if (ret)
		return;
	t->closes++;
	t->stale[t->nstale++ % FZ_STALE] = desc;
}

/* A blocking pfmk_read(), which the partner wakes (fz_partner()). */
static long fz_read_block(struct fz_thread *t, int s, void *desc,
			  union pfm_msg *mp, size_t sz)
{
	long ret;

	t->wake_how = fz_below(t, 3);
	WRITE_ONCE(t->block_seq, t->block_seq + 1);
	WRITE_ONCE(t->blocked_since, jiffies);
	/* Publish the slot after the time; pairs with the partner. */
	smp_store_release(&t->blocked_slot, s);
	ret = pfmk_read(desc, mp, sz, 0);
	WRITE_ONCE(t->blocked_slot, -1);
	return ret;
}

static void fz_op_read(struct fz_thread *t, int s, void *desc,
		       enum fz_handle hk, bool locked, bool block)
{
	union pfm_msg msg;
	size_t sz = sizeof(msg);
	union pfm_msg *mp = &msg;
	u32 expect;
	long ret;

	if (fz_pct(t, 3))
		sz = fz_pct(t, 50) ? sizeof(msg) - 1 : fz_rand(t);
	else if (fz_pct(t, 2))
		mp = NULL;
	memset(&msg, 0, sizeof(msg));
	expect = fz_expect_read(hk == FZ_H_SLOT, mp, sz, block, locked);
	if (block)
		ret = fz_read_block(t, s, desc, mp, sz);
	else
		ret = pfmk_read(desc, mp, sz, fz_pct(t, 50) ? 1 : fz_rand(t) | 1);
	fz_check(t, block ? FZ_READ_BLOCK : FZ_READ, hk, s, locked, desc, sz,
		 expect, ret);
	if (ret == sizeof(msg) && hk == FZ_H_SLOT)
		fz_check_msg(t, s, desc, locked, &msg);
	if (signal_pending(current))
		flush_signals(current);
}

static void fz_op_get_state(struct fz_thread *t, int s, void *desc,
			    enum fz_handle hk, bool locked)
{
	int ret = pfmk_get_state(desc);

	fz_check(t, FZ_GET_STATE, hk, s, locked, desc, 0, 0, ret);
	fz_check_state(t, s, locked, ret);
}

static void fz_op_get_stats(struct fz_thread *t, int s, void *desc,
			    enum fz_handle hk, bool locked)
{
	struct pfmk_ctx_stats stats;
	bool null = fz_pct(t, 5);

	fz_check(t, FZ_GET_STATS, hk, s, locked, desc, null,
		 fz_expect_get_stats(hk == FZ_H_SLOT, null, locked),
		 pfmk_get_stats(desc, null ? NULL : &stats));
}

/* Draw the @n set descriptions (create) or infos (delete, getinfo). */
static void fz_gen_sets(struct fz_thread *t, enum fz_op op, int n)
{
	int i;

	for (i = 0; i < n && i < PFM_MAX_PMCS; i++) {
		if (op == FZ_CREATE_SETS) {
			struct pfarg_setdesc *d = &t->sets[i];

			memset(d, 0, sizeof(*d));
			d->set_id = fz_pct(t, 70) ? 0 : fz_rand(t);
			if (fz_pct(t, 20))
				d->set_flags = fz_rand(t) & 7;
			d->set_timeout = fz_rand(t);
		} else {
			memset(&t->infos[i], 0, sizeof(t->infos[i]));
			t->infos[i].set_id = fz_pct(t, 70) ? 0 : fz_rand(t);
		}
	}
}

/* pfmk_create_evtsets(), pfmk_delete_evtsets() or getinfo. */
static void fz_op_sets(struct fz_thread *t, int s, void *desc,
		       enum fz_handle hk, bool locked, enum fz_op op)
{
	struct fz_model *m = &fz_slot_of(s)->m;
	int n = fz_count(t, PFM_MAX_PMCS, 3);
	struct pfarg_setdesc *sets = t->sets;
	struct pfarg_setinfo *infos = t->infos;
	bool rules = false;
	u32 expect = 0;
	long ret;

	fz_gen_sets(t, op, n);
	if (fz_pct(t, 2)) {
		sets = NULL;
		infos = NULL;
	}
	if (hk == FZ_H_SLOT)
		expect = fz_expect_sets(m, op, sets, infos, n, locked, &rules);
	switch (op) {
	case FZ_CREATE_SETS:
		ret = pfmk_create_evtsets(desc, sets, n);
		break;
	case FZ_DELETE_SETS:
		ret = pfmk_delete_evtsets(desc, infos, n);
		break;
	default:
		ret = pfmk_getinfo_evtsets(desc, infos, n);
		break;
	}
	fz_check(t, op, hk, s, locked, desc, n, expect, ret);
	if (!ret && locked && op != FZ_GETINFO_SETS)
		fz_model_sets(m, op, sets, infos, n, rules);
}

static int fz_aux_sink(void *data, const void *src, size_t len)
{
	return 0;
}

static void fz_op_aux_copy(struct fz_thread *t, int s, void *desc,
			   enum fz_handle hk)
{
	bool fn = fz_pct(t, 95), inf = fz_pct(t, 95);
	bool locked = hk == FZ_H_SLOT;
	struct pfmk_aux_info info;
	u32 expect = 0;
	long ret;

	if (locked)
		expect = fz_expect_aux_copy(&fz_slot_of(s)->m, fn, inf);
	ret = pfmk_aux_copy(desc, 4096, fn ? fz_aux_sink : NULL, NULL,
			    inf ? &info : NULL);
	fz_check(t, FZ_AUX_COPY, hk, s, locked, desc, 0, expect, ret);
}

static void fz_op_aux_setup(struct fz_thread *t, int s, void *desc,
			    enum fz_handle hk, enum fz_kind kind)
{
	static const size_t sizes[] = {
		0, PFMK_AUX_MIN_SIZE, 2 * PFMK_AUX_MIN_SIZE, 65536,
		PFMK_AUX_MIN_SIZE + 8, PFMK_AUX_MAX_SIZE * 2, 64,
	};
	struct fz_model *m = &fz_slot_of(s)->m;
	bool locked = hk == FZ_H_SLOT;
	unsigned int pmd, flags;
	u32 expect = 0;
	size_t size;
	long ret;

	pmd = fz_pct(t, 90) ? fz_below(t, fz_nregs(kind)) :
			      fz_nregs(kind) + fz_below(t, 4);
	size = sizes[fz_below(t, ARRAY_SIZE(sizes))];
	flags = fz_pct(t, 90) ? fz_below(t, 2) : fz_rand(t);
	if (locked)
		expect = fz_expect_aux_setup(m, kind, pmd, size, flags);
	ret = pfmk_aux_setup(desc, pmd, size, flags);
	fz_check(t, FZ_AUX_SETUP, hk, s, locked, desc, size, expect, ret);
	if (!ret && locked)
		m->aux = size != 0;
}

static void fz_op_global_stats(struct fz_thread *t)
{
	struct pfmk_global_stats st;
	bool null = fz_pct(t, 5);
	long ret;

	ret = pfmk_get_global_stats(null ? NULL : &st);
	fz_check(t, FZ_GLOBAL_STATS, FZ_H_SLOT, -1, false, NULL, null,
		 null ? E_INVAL : E_OK, ret);
	if (!ret)
		fz_check_global_stats(t, &st);
}

/* The PMU description "pfmk_fuzz": dummy software events. */
static int fz_pmu_to_attr(const struct pfmk_pmu_desc *desc, unsigned int reg,
			  u64 val, struct perf_event_attr *attr)
{
	if (!(val & PFMK_TEST_PMC_EN))
		return PFMK_PMC_OFF;
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_DUMMY;
	return 0;
}

static struct pfmk_reg_desc fz_pmu_regs[FZ_PMU_REGS] = {
	[0 ... FZ_PMU_REGS - 1] = {
		.name = "PMC", .rsvd_msk = ~(PFMK_TEST_PMC_EN | 0xffULL),
	},
};

struct pfmk_pmu_desc fz_pmu_desc = {
	.name		= FZ_PMU_NAME,
	.owner		= THIS_MODULE,
	.num_pmcs	= FZ_PMU_REGS,
	.pmc_desc	= fz_pmu_regs,
	.pmc_to_attr	= fz_pmu_to_attr,
};

static void fz_op_pmu_toggle(struct fz_thread *t)
{
	long ret = 0;

	mutex_lock(&fz_pmu_lock);
	if (fz_pmu_registered)
		pfmk_pmu_unregister(&fz_pmu_desc);
	else
		ret = pfmk_pmu_register(&fz_pmu_desc);
	if (!ret)
		fz_pmu_registered = !fz_pmu_registered;
	fz_check(t, FZ_PMU_TOGGLE, FZ_H_SLOT, -1, true, NULL,
		 fz_pmu_registered, E_OK, ret);
	mutex_unlock(&fz_pmu_lock);
}

/* Tick the test PMU on CPU 0 or FZ_HP_CPU (CPU 0 when deterministic). */
static void fz_op_tick(struct fz_thread *t)
{
	int cpu = fz_pct(t, 50) ? 0 : FZ_HP_CPU;
	u64 ticks = 1 + fz_below(t, fz_pct(t, 90) ? 50 : 2000);

	if (fz_det)
		cpu = 0;
	pfmk_test_pmu_tick(cpu, ticks);
	if (fz_det)
		fz_tick_model(ticks);
	fz_record(t, FZ_TICK, FZ_H_SLOT, -1, false, NULL, cpu, E_OK, 0);
}

static enum fz_op fz_pick_op(struct fz_thread *t)
{
	unsigned int i, r;

	r = fz_below(t, fz_weight_total);
	for (i = 0; i < FZ_NR_OPS; i++) {
		if (r < fz_op_weight[i])
			return i;
		r -= fz_op_weight[i];
	}
	return FZ_TICK;
}

/* Calls that change nothing may race with the others on a context. */
static bool fz_may_race(enum fz_op op)
{
	switch (op) {
	case FZ_READ_PMDS:
	case FZ_READ_PMDS_TIME:
	case FZ_READ:
	case FZ_READ_BLOCK:
	case FZ_GET_STATE:
	case FZ_GET_STATS:
	case FZ_GETINFO_SETS:
		return true;
	default:
		return false;
	}
}

/* Make call @op, which takes no descriptor; false if it takes one. */
static bool fz_one_global(struct fz_thread *t, enum fz_op op)
{
	switch (op) {
	case FZ_CREATE:
		fz_op_create(t);
		return true;
	case FZ_GLOBAL_STATS:
		fz_op_global_stats(t);
		return true;
	case FZ_PMU_TOGGLE:
		fz_op_pmu_toggle(t);
		return true;
	case FZ_TICK:
		fz_op_tick(t);
		return true;
	default:
		return false;
	}
}

/* Make call @op on @desc (slot @s, under its mutex if @locked). */
static void fz_one_desc(struct fz_thread *t, enum fz_op op, int s,
			void *desc, enum fz_handle hk, enum fz_kind kind,
			bool locked)
{
	switch (op) {
	case FZ_WRITE_PMCS:
		fz_op_write_pmcs(t, s, desc, hk, kind);
		break;
	case FZ_WRITE_PMDS:
		fz_op_write_pmds(t, s, desc, hk, kind);
		break;
	case FZ_READ_PMDS:
	case FZ_READ_PMDS_TIME:
		fz_op_read_pmds(t, s, desc, hk, kind, locked,
				op == FZ_READ_PMDS_TIME);
		break;
	case FZ_LOAD:
		fz_op_load(t, s, desc, hk);
		break;
	case FZ_START:
		fz_op_start(t, s, desc, hk);
		break;
	case FZ_STOP:
	case FZ_RESTART:
	case FZ_UNLOAD:
		fz_op_simple(t, op, s, desc, hk);
		break;
	case FZ_CLOSE:
		fz_op_close(t, s, desc, hk);
		break;
	case FZ_READ:
	case FZ_READ_BLOCK:
		fz_op_read(t, s, desc, hk, locked,
			   op == FZ_READ_BLOCK && s >= 0);
		break;
	case FZ_GET_STATE:
		fz_op_get_state(t, s, desc, hk, locked);
		break;
	case FZ_GET_STATS:
		fz_op_get_stats(t, s, desc, hk, locked);
		break;
	case FZ_AUX_SETUP:
		fz_op_aux_setup(t, s, desc, hk, kind);
		break;
	case FZ_AUX_COPY:
		fz_op_aux_copy(t, s, desc, hk);
		break;
	default:
		fz_op_sets(t, s, desc, hk, locked, op);
		break;
	}
}

/**
 * fz_one() - draw one call and make it, judged by the oracle
 * @t: the thread.
 */
void fz_one(struct fz_thread *t)
{
	enum fz_op op = fz_pick_op(t);
	enum fz_handle hk;
	enum fz_kind kind;
	bool locked;
	void *desc;
	int s;

	if (fz_one_global(t, op))
		return;
	desc = fz_pick(t, &hk, &kind, &s, &locked, fz_may_race(op));
	/* A blocking read races: the partner closes under the mutex. */
	if (op == FZ_READ_BLOCK && locked) {
		mutex_unlock(&fz_slots[s].lock);
		locked = false;
	}
	fz_one_desc(t, op, s, desc, hk, kind, locked);
	if (s >= 0)
		fz_unpick(s, locked);
}
