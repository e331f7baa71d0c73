// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_fuzz: the oracle.  Each slot of the table has a model of its
 * context (loaded or not, on which CPU, started, masked, its sets, the
 * class of each PMC, the value of PMDs 0-7 of set 0, an AUX set-up), kept
 * under the slot's mutex.  A call that changes a context takes the mutex
 * for the call and its update of the model, so that no other fuzzer
 * thread acts on that context meanwhile; the result must be the exact
 * outcome the model predicts from the state and the arguments (api.rst's
 * order: descriptor, arguments, state).  What other threads and the
 * hardware still change behind the mutex is bounded and widens the
 * prediction to exactly the outcomes it allows:
 *
 *  - overflows mask a started context at any time: restart of a context
 *    that may be masked gives 0 or -EBUSY, pfmk_get_state() LOADED or
 *    MASKED; a MASKED state seen under the mutex stays until restart;
 *  - the hotplug thread: a load on CPU 1 may give -ENODEV, and a context
 *    loaded there may show PFMK_STATE_OFFLINE;
 *  - other threads tick the test PMU: counts of started contexts are
 *    predicted only in the deterministic mode (fz_tick_model()); in every
 *    mode the values of a stopped or unloaded context's PMDs are exact (as
 *    written) or stable (as first read after a stop);
 *  - max_events is pfmk-wide: loads and reprogramming may give -ENOMEM.
 *
 * Calls that change nothing (reads, states, statistics, messages) run
 * partly without the mutex, racing with every other call on the context:
 * they may then also give -EBADF (a racing close), and an argument that
 * is invalid whatever the state must give its errno, never 0.  Messages
 * are checked by type and content against the model.
 *
 * Here: the predictions (fz_expect_*()) and the model's updates after a
 * call (fz_model_*()).  The judge of every result against them and the
 * reports of what it found are in pfmk_fuzz_judge.c.  No random number
 * is drawn here.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <pfmk/aux.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_fuzz.h"
#include "pfmk_test_pmu.h"

unsigned int fz_nregs(enum fz_kind kind)
{
	switch (kind) {
	case FZ_KIND_TEST:
		return PFMK_TEST_NUM_PMCS;
	case FZ_KIND_FUZZ:
		return FZ_PMU_REGS;
	default:
		return PFMK_GENERIC_NUM_PMCS;
	}
}

/* The class of PMC value @v of a context of @kind. */
static enum fz_cls fz_pmc_cls(enum fz_kind kind, u64 v)
{
	u64 config = v & PFMK_GEN_CONFIG_MASK;

	switch (kind) {
	case FZ_KIND_TEST:
		if ((v & PFMK_TEST_PMC_RSVD) ||
		    ((v & PFMK_TEST_PMC_EN) && !(v & PFMK_TEST_PMC_STEP)))
			return FZ_C_BAD;
		return (v & PFMK_TEST_PMC_EN) ? FZ_C_SW : FZ_C_OFF;
	case FZ_KIND_FUZZ:
		if (v & ~(PFMK_TEST_PMC_EN | 0xffULL))
			return FZ_C_BAD;
		return (v & PFMK_TEST_PMC_EN) ? FZ_C_SW : FZ_C_OFF;
	default:
		break;
	}
	if (v & PFMK_GEN_RSVD_MASK)
		return FZ_C_BAD;
	if (!(v & PFMK_GEN_EN))
		return FZ_C_OFF;	/* the generator never makes images */
	switch ((v & PFMK_GEN_TYPE_MASK) >> PFMK_GEN_TYPE_SHIFT) {
	case PERF_TYPE_HARDWARE:
		return config < PERF_COUNT_HW_MAX ? FZ_C_HW : FZ_C_BAD;
	case PERF_TYPE_SOFTWARE:
		return config >= PERF_COUNT_SW_MAX ||
		       config == PERF_COUNT_SW_BPF_OUTPUT ? FZ_C_BAD : FZ_C_SW;
	case PERF_TYPE_HW_CACHE:
		if ((config >> 24) || (config & 0xff) >= PERF_COUNT_HW_CACHE_MAX ||
		    ((config >> 8) & 0xff) >= PERF_COUNT_HW_CACHE_OP_MAX ||
		    ((config >> 16) & 0xff) >= PERF_COUNT_HW_CACHE_RESULT_MAX)
			return FZ_C_BAD;
		return FZ_C_HW;
	case PERF_TYPE_RAW:
	case PERF_TYPE_TRACEPOINT:	/* an id: perf may not know it */
		return FZ_C_HW;
	default:
		return FZ_C_BAD;
	}
}

/* Index of set @id in @m, or -1. */
int fz_set_idx(const struct fz_model *m, u16 id)
{
	unsigned int i;

	for (i = 0; i < m->nsets; i++)
		if (m->set_id[i] == id)
			return i;
	return -1;
}

static void fz_model_init(struct fz_model *m)
{
	memset(m, 0, sizeof(*m));
	m->cpu = -1;
	m->nsets = 1;
	memset(m->vstate, FZ_V_KNOWN, sizeof(m->vstate));
}

/* Is a hardware event programmed in any set? */
static bool fz_model_hw(const struct fz_model *m)
{
	unsigned int s, r;

	for (s = 0; s < m->nsets; s++)
		for (r = 0; r < FZ_MAX_REGS; r++)
			if (m->cls[s][r] == FZ_C_HW)
				return true;
	return false;
}

/*
 * Does PMD @r of set 0 count while started?  Only with an event, and not
 * the dummy events of "pfmk_fuzz".
 */
static bool fz_counts(const struct fz_slot *slot, unsigned int r)
{
	return slot->kind != FZ_KIND_FUZZ && slot->m.cls[0][r] != FZ_C_OFF;
}

/*
 * Can PMD @r of set 0 change while started?  Counting, or reset by the
 * overflow of another PMD naming it in its reg_reset_pmds, event or not;
 * not the PMDs of "pfmk_fuzz", whose dummy events never overflow.
 */
static bool fz_may_change(const struct fz_slot *slot, unsigned int r)
{
	return slot->kind != FZ_KIND_FUZZ;
}

/* Monitoring started or stopped: what the model still knows of values. */
static void fz_model_values(struct fz_slot *slot, bool counting)
{
	struct fz_model *m = &slot->m;
	unsigned int r;

	for (r = 0; r < FZ_VREGS; r++) {
		if (counting) {
			/* Deterministic: counts of the test PMU follow ticks. */
			if (fz_may_change(slot, r) &&
			    !(fz_det && slot->kind == FZ_KIND_TEST &&
			      m->nsets == 1 && !m->rules && m->cpu == 0))
				m->vstate[r] = FZ_V_UNKNOWN;
		} else if (m->vstate[r] == FZ_V_UNKNOWN) {
			m->vstate[r] = FZ_V_LATCH;
		}
	}
}

/* A slot's entry; slot 0 for calls without one (its model is not used). */
struct fz_slot *fz_slot_of(int s)
{
	return &fz_slots[s < 0 ? 0 : s];
}

/* What a call on a loaded context may get from perf's events. */
static u32 fz_event_outcomes(bool hw)
{
	/* max_events is pfmk-wide: another thread's events count too. */
	u32 e = fz_det ? 0 : E_NOMEM;

	if (hw)
		return e | E_OPNOTSUPP | (fz_no_hw ? 0 : E_OK | E_INVAL | E_NOENT);
	return e | E_OK;
}

/* The errno of a vector's count, as pfmk_check_count(); 0 if valid. */
static u32 fz_count_err(int n, int max, const void *req)
{
	if (n < 0)
		return E_INVAL;
	if (n > max)
		return E_2BIG;
	if (n && !req)
		return E_INVAL;
	return 0;
}

/* Does a PMD bit vector name a PMD at or above @nregs? */
static bool fz_bv_beyond(const u64 *bv, unsigned int nregs)
{
	unsigned int i;

	for (i = 0; i < PFM_PMD_BV; i++) {
		u64 w = bv[i];

		if (i * 64 + 64 <= nregs)
			continue;
		if (i * 64 < nregs)
			w &= ~(BIT_ULL(nregs - i * 64) - 1);
		if (w)
			return true;
	}
	return false;
}

/**
 * fz_expect_create() - the outcome of pfmk_create_context(), before the PMU
 * @a: the call's arguments.
 *
 * In pfmk_ctx_create()'s order: the arguments, then the PMU's name.
 *
 * Return: E_INVAL or E_NOENT, or 0 if it depends on the PMU and format.
 */
u32 fz_expect_create(const struct fz_create *a)
{
	const struct pfarg_ctx *req = &a->req;

	if (!a->c || !a->descp ||
	    !(req->ctx_flags & PFM_FL_SYSTEM_WIDE) ||
	    (req->ctx_flags & ~(PFM_FL_SYSTEM_WIDE | PFM_FL_OVFL_NO_MSG)) ||
	    !memchr(req->ctx_pmu_name, 0, sizeof(req->ctx_pmu_name)))
		return E_INVAL;
	return a->name_ok ? 0 : E_NOENT;
}

/**
 * fz_expect_create_fmt() - the outcome of pfmk_create_context(), complete
 * @a: the call's arguments.
 * @expect: what fz_expect_create() said.
 * @pmu_registered: "pfmk_fuzz" is registered (under fz_pmu_lock).
 *
 * Return: the outcome: @expect, or what the PMU, the format and the
 * buffer size give.
 */
u32 fz_expect_create_fmt(const struct fz_create *a, u32 expect,
			 bool pmu_registered)
{
	size_t min = sizeof(struct pfm_dfl_smpl_hdr) +
		     sizeof(struct pfm_dfl_smpl_entry) +
		     fz_nregs(a->kind) * sizeof(u64);

	if (expect)
		return expect;
	if (a->kind == FZ_KIND_FUZZ && !pmu_registered)
		return E_NOENT;
	if (!a->smpl && !a->fmt_unknown)
		return a->smpl_arg || a->smpl_size ? E_INVAL : E_OK;
	if (a->fmt_unknown || !a->smpl_arg || a->smpl_size != sizeof(a->arg))
		return E_INVAL;
	if (a->arg.buf_size < min)
		return E_INVAL;
	if (a->arg.buf_size > (64ULL << 20))
		return E_2BIG;
	return E_OK;
}

/**
 * fz_model_created() - a context was created for @slot
 * @t: the thread, for failures.
 * @slot: its slot, locked.
 * @a: the call's arguments, and what it wrote back.
 * @desc: the new context.
 *
 * Return: the context the slot held before, to close, or NULL.
 */
void *fz_model_created(struct fz_thread *t, struct fz_slot *slot,
		       const struct fz_create *a, void *desc)
{
	void *old = slot->desc;

	if (a->req.ctx_fd != -1 || (a->smpl && !a->req.ctx_smpl_buf_size) ||
	    (!a->smpl && a->req.ctx_smpl_buf_size))
		fz_fail(t, FZ_F_ORACLE, "create: ctx_fd %d, ctx_smpl_buf_size %llu (sampling %d)",
			a->req.ctx_fd, a->req.ctx_smpl_buf_size, a->smpl);
	slot->desc = desc;
	slot->kind = a->kind;
	fz_model_init(&slot->m);
	slot->m.smpl = a->smpl;
	slot->m.no_msg = a->req.ctx_flags & PFM_FL_OVFL_NO_MSG;
	return old;
}

/**
 * fz_expect_write_pmcs() - the outcome of pfmk_write_pmcs()
 * @m: the model of the context.
 * @kind: its description.
 * @req: the vector, or NULL.
 * @n: its count.
 *
 * Return: the outcomes allowed.
 */
u32 fz_expect_write_pmcs(const struct fz_model *m, enum fz_kind kind,
			 const struct pfarg_pmc *req, int n)
{
	unsigned int nregs = fz_nregs(kind);
	u32 expect = fz_count_err(n, PFM_MAX_PMCS, req);
	bool hw = false;
	int i;

	for (i = 0; !expect && i < n; i++) {
		enum fz_cls cls = fz_pmc_cls(kind, req[i].reg_value);

		if (req[i].reg_num >= nregs ||
		    fz_set_idx(m, req[i].reg_set) < 0 ||
		    (req[i].reg_flags & 0xffff & ~PFM_REGFL_NO_EMUL64) ||
		    cls == FZ_C_BAD)
			expect = E_INVAL;
		hw |= cls == FZ_C_HW;
	}
	if (!expect)
		expect = m->started ? E_BUSY :
			 !n || !m->loaded ? E_OK : fz_event_outcomes(hw);
	return expect;
}

/**
 * fz_model_write_pmcs() - pfmk_write_pmcs() succeeded
 * @m: the model of the context.
 * @kind: its description.
 * @req: the vector.
 * @n: its count.
 */
void fz_model_write_pmcs(struct fz_model *m, enum fz_kind kind,
			 const struct pfarg_pmc *req, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		int si = fz_set_idx(m, req[i].reg_set);
		unsigned int r = req[i].reg_num;

		m->cls[si][r] = fz_pmc_cls(kind, req[i].reg_value);
		if (!si && r < FZ_VREGS)
			m->pmc[r] = req[i].reg_value;
	}
}

/**
 * fz_expect_write_pmds() - the outcome of pfmk_write_pmds()
 * @m: the model of the context.
 * @kind: its description.
 * @req: the vector, or NULL.
 * @n: its count.
 *
 * Return: the outcomes allowed.
 */
u32 fz_expect_write_pmds(const struct fz_model *m, enum fz_kind kind,
			 const struct pfarg_pmd *req, int n)
{
	unsigned int nregs = fz_nregs(kind);
	u32 expect = fz_count_err(n, PFM_MAX_PMDS, req);
	int i;

	for (i = 0; !expect && i < n; i++)
		if (req[i].reg_num >= nregs ||
		    fz_set_idx(m, req[i].reg_set) < 0 ||
		    (req[i].reg_flags & 0xffff &
		     ~(PFM_REGFL_OVFL_NOTIFY | PFM_REGFL_RANDOM)) ||
		    fz_bv_beyond(req[i].reg_reset_pmds, nregs) ||
		    fz_bv_beyond(req[i].reg_smpl_pmds, nregs))
			expect = E_INVAL;
	if (!expect)
		expect = m->started ? E_BUSY :
			 !m->loaded ? E_OK : fz_event_outcomes(false);
	return expect;
}

/**
 * fz_model_write_pmds() - pfmk_write_pmds() succeeded: the values are known
 * @m: the model of the context.
 * @req: the vector.
 * @n: its count.
 */
void fz_model_write_pmds(struct fz_model *m, const struct pfarg_pmd *req,
			 int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (req[i].reg_set || req[i].reg_num >= FZ_VREGS)
			continue;
		m->vstate[req[i].reg_num] = FZ_V_KNOWN;
		m->val[req[i].reg_num] = req[i].reg_value;
	}
}

/**
 * fz_expect_read_pmds() - the outcome of pfmk_read_pmds{,_time}()
 * @m: the model of the context, or NULL if the call races (unlocked).
 * @kind: its description.
 * @req: the vector, or NULL.
 * @time: pfmk_read_pmds_time().
 * @times: its output vector, or NULL.
 * @n: the count.
 *
 * Racing, the sets may change and a racing close gives -EBADF.
 *
 * Return: the outcomes allowed.
 */
u32 fz_expect_read_pmds(const struct fz_model *m, enum fz_kind kind,
			const struct pfarg_pmd *req, bool time,
			const void *times, int n)
{
	unsigned int nregs = fz_nregs(kind);
	bool other_set = false;
	u32 expect;
	int i;

	expect = time && !times ? E_INVAL : fz_count_err(n, PFM_MAX_PMDS, req);
	for (i = 0; !expect && i < n; i++) {
		if (req[i].reg_num >= nregs)
			expect = E_INVAL;
		else if (m && fz_set_idx(m, req[i].reg_set) < 0)
			expect = E_INVAL;
		other_set |= req[i].reg_set != 0;
	}
	if (!expect)
		expect = m || !other_set ? E_OK : E_OK | E_INVAL;
	if (!m)
		expect |= E_BADF;
	return expect;
}

/**
 * fz_expect_load() - the outcome of pfmk_load_context()
 * @m: the model of the context; the CPU tried is recorded in it (a
 *	message may name it from now on).
 * @req: the request.
 * @null: NULL is passed instead of @req.
 *
 * Return: the outcomes allowed.
 */
u32 fz_expect_load(struct fz_model *m, const struct pfarg_load *req,
		   bool null)
{
	unsigned int cpu = req->load_pid;
	u32 ev;

	if (cpu < 32)
		m->cpus |= BIT(cpu);
	if (null || cpu >= nr_cpu_ids || !cpu_possible(cpu) ||
	    fz_set_idx(m, req->load_set) < 0)
		return E_INVAL;
	if (m->loaded)
		return E_BUSY;
	ev = fz_event_outcomes(fz_model_hw(m));
	/* The AUX set-up is attached last. */
	if (m->aux && (ev & E_OK))
		ev = (ev & ~E_OK) | (fz_aux_expected ? E_INVAL : E_OPNOTSUPP);
	/* The hotplug thread may have CPU 1 offline. */
	if (cpu == FZ_HP_CPU && fz_hp_on)
		return E_NODEV | ev;
	return cpu_online(cpu) ? ev : E_NODEV;
}

/**
 * fz_model_loaded() - pfmk_load_context() succeeded
 * @m: the model of the context.
 * @cpu: the CPU it is loaded on.
 */
void fz_model_loaded(struct fz_model *m, unsigned int cpu)
{
	m->loaded = true;
	m->cpu = cpu;
	m->started = false;
	m->mask = FZ_M_NO;
}

/**
 * fz_expect_start() - the outcome of pfmk_start()
 * @m: the model of the context; that a start was tried is recorded in it
 *	(an overflow message needs one).
 * @req: the request, or NULL.
 *
 * Return: the outcome.
 */
u32 fz_expect_start(struct fz_model *m, const struct pfarg_start *req)
{
	m->ever_started = true;
	return req && fz_set_idx(m, req->start_set) < 0 ? E_INVAL :
	       !m->loaded ? E_NOTCONN :
	       m->started ? E_ALREADY : E_OK;
}

/**
 * fz_model_started() - pfmk_start() succeeded
 * @slot: the slot of the context.
 *
 * Context: @slot's mutex held.
 */
void fz_model_started(struct fz_slot *slot)
{
	struct fz_model *m = &slot->m;

	lockdep_assert_held(&slot->lock);
	m->started = true;
	m->mask = m->mask == FZ_M_YES ? FZ_M_YES : FZ_M_MAYBE;
	fz_model_values(slot, true);
}

/**
 * fz_expect_simple() - the outcome of pfmk_stop(), restart() or unload()
 * @m: the model of the context.
 * @op: FZ_STOP, FZ_RESTART or FZ_UNLOAD.
 *
 * Return: the outcomes allowed.
 */
u32 fz_expect_simple(const struct fz_model *m, enum fz_op op)
{
	if (!m->loaded)
		return E_NOTCONN;
	if (op == FZ_STOP)
		return m->started ? E_OK : E_ALREADY;
	if (op == FZ_RESTART)
		return m->mask == FZ_M_NO ? E_BUSY :
		       m->mask == FZ_M_YES ? E_OK : E_OK | E_BUSY;
	return E_OK;
}

/* pfmk_restart() returned @ret (0 or -EBUSY). */
static void fz_model_restart(struct fz_slot *slot, long ret)
{
	struct fz_model *m = &slot->m;
	unsigned int r;

	/* Notifying PMDs were reloaded with their long reset value. */
	if (!ret)
		for (r = 0; r < FZ_VREGS; r++)
			if (fz_may_change(slot, r))
				m->vstate[r] = FZ_V_UNKNOWN;
	if (!ret && !m->started)
		fz_model_values(slot, false);
	m->mask = m->started ? FZ_M_MAYBE : FZ_M_NO;
}

/**
 * fz_model_simple() - what pfmk_stop(), restart() or unload() did
 * @slot: the slot of the context.
 * @op: FZ_STOP, FZ_RESTART or FZ_UNLOAD.
 * @ret: what the call returned.
 *
 * Context: @slot's mutex held.
 */
void fz_model_simple(struct fz_slot *slot, enum fz_op op, long ret)
{
	struct fz_model *m = &slot->m;

	lockdep_assert_held(&slot->lock);
	if (op == FZ_RESTART) {
		if (!ret || ret == -EBUSY)
			fz_model_restart(slot, ret);
		return;
	}
	if (ret)
		return;
	m->started = false;
	if (op == FZ_UNLOAD) {
		m->loaded = false;
		m->cpu = -1;
		m->mask = FZ_M_NO;
	}
	fz_model_values(slot, false);
}

/**
 * fz_expect_read() - the outcome of pfmk_read()
 * @slot: the handle is a slot's (else only -EBADF is predicted).
 * @msg: the buffer is not NULL.
 * @sz: its size.
 * @block: a blocking read.
 * @locked: the call runs under the slot's mutex.
 *
 * Return: the outcomes allowed; 0 without a slot.
 */
u32 fz_expect_read(bool slot, bool msg, size_t sz, bool block, bool locked)
{
	u32 expect;

	if (!slot)
		return 0;
	if (!msg || sz != sizeof(union pfm_msg))
		expect = E_INVAL;
	else if (block)
		expect = E_MSG | E_OK | E_RESTARTSYS | E_BADF;
	else
		expect = E_MSG | E_AGAIN;
	return locked ? expect : expect | E_BADF;
}

/**
 * fz_expect_get_stats() - the outcome of pfmk_get_stats()
 * @slot: the handle is a slot's (else only -EBADF is predicted).
 * @null: the output is NULL.
 * @locked: the call runs under the slot's mutex.
 *
 * Return: the outcomes allowed; 0 without a slot.
 */
u32 fz_expect_get_stats(bool slot, bool null, bool locked)
{
	if (!slot)
		return 0;
	return (null ? E_INVAL : E_OK) | (locked ? 0 : E_BADF);
}

/* The outcome of pfmk_create_evtsets() from its descriptions. */
static u32 fz_expect_set_descs(const struct fz_model *m,
			       const struct pfarg_setdesc *sets, int n,
			       bool *rules)
{
	int i, j, nr_new = 0;
	u32 expect = 0;

	for (i = 0; !expect && i < n; i++) {
		u32 f = sets[i].set_flags;

		*rules |= f != 0;
		if (((f & PFM_SETFL_TIME_SWITCH) &&
		     ((f & PFM_SETFL_OVFL_SWITCH) || !sets[i].set_timeout)))
			expect = E_INVAL;
		for (j = 0; j < i; j++)
			if (sets[j].set_id == sets[i].set_id)
				expect = E_INVAL;
		if (fz_set_idx(m, sets[i].set_id) < 0)
			nr_new++;
	}
	if (!expect)
		expect = m->nsets + nr_new > FZ_MAX_SETS ? E_2BIG :
			 E_OK | (fz_det ? 0 : E_NOMEM);
	return expect;
}

/* The outcome of pfmk_delete_evtsets() or getinfo from their set ids. */
static u32 fz_expect_set_infos(const struct fz_model *m, enum fz_op op,
			       const struct pfarg_setinfo *infos, int n,
			       bool *other)
{
	u32 expect = 0;
	int i, j;

	for (i = 0; !expect && i < n; i++) {
		*other |= infos[i].set_id != 0;
		if (fz_set_idx(m, infos[i].set_id) < 0)
			expect = E_INVAL;
		if (op != FZ_DELETE_SETS)
			continue;
		if (!infos[i].set_id)
			expect = E_INVAL;
		for (j = 0; j < n; j++)
			if (j != i && infos[j].set_id == infos[i].set_id)
				expect = E_INVAL;
	}
	return expect;
}

/**
 * fz_expect_sets() - the outcome of the event set calls
 * @m: the model of the context.
 * @op: FZ_CREATE_SETS, FZ_DELETE_SETS or FZ_GETINFO_SETS.
 * @sets: the descriptions (create), or NULL.
 * @infos: the infos (delete, getinfo), or NULL.
 * @n: the count.
 * @locked: the call runs under the slot's mutex.
 * @rules: output: a description has switching flags.
 *
 * Return: the outcomes allowed.
 */
u32 fz_expect_sets(const struct fz_model *m, enum fz_op op,
		   const struct pfarg_setdesc *sets,
		   const struct pfarg_setinfo *infos, int n, bool locked,
		   bool *rules)
{
	bool other = false;
	u32 expect;

	expect = fz_count_err(n, PFM_MAX_PMCS,
			      op == FZ_CREATE_SETS ? (const void *)sets :
						     (const void *)infos);
	if (!expect && op != FZ_GETINFO_SETS && m->loaded)
		expect = E_BUSY;
	if (!expect && op == FZ_CREATE_SETS)
		expect = fz_expect_set_descs(m, sets, n, rules);
	else if (!expect)
		expect = fz_expect_set_infos(m, op, infos, n, &other);
	if (!expect)
		expect = E_OK;
	if (!locked) {
		/* getinfo: sets other than 0 may come and go. */
		if (other && !(expect & E_2BIG))
			expect |= E_OK | E_INVAL;
		expect |= E_BADF;
	}
	return expect;
}

/**
 * fz_model_sets() - pfmk_create_evtsets() or delete succeeded
 * @m: the model of the context.
 * @op: FZ_CREATE_SETS or FZ_DELETE_SETS.
 * @sets: the descriptions (create).
 * @infos: the infos (delete).
 * @n: the count.
 * @rules: a description had switching flags.
 */
void fz_model_sets(struct fz_model *m, enum fz_op op,
		   const struct pfarg_setdesc *sets,
		   const struct pfarg_setinfo *infos, int n, bool rules)
{
	int i, si;

	for (i = 0; i < n; i++) {
		if (op == FZ_CREATE_SETS) {
			if (fz_set_idx(m, sets[i].set_id) >= 0 ||
			    m->nsets >= FZ_MAX_SETS)
				continue;
			si = m->nsets++;
			m->set_id[si] = sets[i].set_id;
			memset(m->cls[si], FZ_C_OFF, sizeof(m->cls[si]));
			continue;
		}
		si = fz_set_idx(m, infos[i].set_id);
		if (si <= 0)
			continue;
		m->nsets--;
		m->set_id[si] = m->set_id[m->nsets];
		memcpy(m->cls[si], m->cls[m->nsets], sizeof(m->cls[si]));
	}
	m->rules |= rules;
}

/**
 * fz_expect_aux_copy() - the outcome of pfmk_aux_copy()
 * @m: the model of the context.
 * @fn: a copy function was passed.
 * @info: an info was passed.
 *
 * Return: the outcome.
 */
u32 fz_expect_aux_copy(const struct fz_model *m, bool fn, bool info)
{
	return !fn || !info ? E_INVAL :
	       !fz_aux_expected ? E_OPNOTSUPP :
	       !m->aux ? E_NXIO :
	       !m->loaded ? E_NOTCONN : 0;
}

/**
 * fz_expect_aux_setup() - the outcome of pfmk_aux_setup()
 * @m: the model of the context.
 * @kind: its description.
 * @pmd: the PMD.
 * @size: the AUX buffer's size.
 * @flags: the flags.
 *
 * Return: the outcomes allowed.
 */
u32 fz_expect_aux_setup(const struct fz_model *m, enum fz_kind kind,
			unsigned int pmd, size_t size, unsigned int flags)
{
	if (pmd >= fz_nregs(kind) || (flags & ~PFMK_AUX_SNAPSHOT) ||
	    (size && (size < PFMK_AUX_MIN_SIZE ||
		      size > PFMK_AUX_MAX_SIZE || !is_power_of_2(size))))
		return E_INVAL;
	if (!fz_aux_expected)
		return E_OPNOTSUPP;
	if (m->loaded)
		return E_BUSY;
	return E_OK | (size && !fz_det ? E_NOMEM : 0);
}

/*
 * Deterministic runs: what @ticks ticks on CPU 0 do to the model's PMD
 * values.  An overflow, or a PMD whose value is unknown (it may
 * overflow), leaves every counting PMD unknown and the context maybe
 * masked.
 */
void fz_tick_model(u64 ticks)
{
	unsigned int s, r;

	for (s = 0; s < FZ_NSLOTS; s++) {
		struct fz_slot *slot = &fz_slots[s];
		struct fz_model *m = &slot->m;
		bool lost = false;

		mutex_lock(&slot->lock);
		if (!slot->desc || slot->kind != FZ_KIND_TEST || !m->loaded ||
		    m->cpu != 0 || !m->started)
			goto next;
		lost = m->nsets != 1 || m->rules || m->mask != FZ_M_NO;
		for (r = 0; r < FZ_VREGS && !lost; r++) {
			u64 add = (m->pmc[r] & PFMK_TEST_PMC_STEP) * ticks;

			if (!fz_counts(slot, r))
				continue;
			if (m->vstate[r] != FZ_V_KNOWN || m->val[r] > U64_MAX - add)
				lost = true;
		}
		for (r = 0; r < FZ_VREGS; r++) {
			if (lost)
				m->vstate[r] = FZ_V_UNKNOWN;
			else if (fz_counts(slot, r))
				m->val[r] += (m->pmc[r] & PFMK_TEST_PMC_STEP) *
					     ticks;
		}
		if (lost && m->mask == FZ_M_NO)
			m->mask = FZ_M_MAYBE;
next:
		mutex_unlock(&slot->lock);
	}
}
