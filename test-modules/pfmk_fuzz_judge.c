// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_fuzz: the judge.  Every result of a call is recorded in its
 * thread's trace and histogram and checked against the outcomes the
 * model allowed (pfmk_fuzz_oracle.c's fz_expect_*()) and against the
 * documented ones (fz_check()); the values read, the messages and the
 * states against the model of their slot (the fz_check_*()).  A failure
 * is counted by kind and the first ones are reported with the last
 * calls of every thread.  No random number is drawn here.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <pfmk/pfmk.h>

#include "pfmk_fuzz.h"

const char * const fz_op_name[FZ_NR_OPS] = {
	[FZ_CREATE]		= "create_context",
	[FZ_WRITE_PMCS]		= "write_pmcs",
	[FZ_WRITE_PMDS]		= "write_pmds",
	[FZ_READ_PMDS]		= "read_pmds",
	[FZ_READ_PMDS_TIME]	= "read_pmds_time",
	[FZ_LOAD]		= "load_context",
	[FZ_START]		= "start",
	[FZ_STOP]		= "stop",
	[FZ_RESTART]		= "restart",
	[FZ_UNLOAD]		= "unload_context",
	[FZ_CLOSE]		= "close",
	[FZ_READ]		= "read(noblock)",
	[FZ_READ_BLOCK]		= "read(block)",
	[FZ_GET_STATE]		= "get_state",
	[FZ_GET_STATS]		= "get_stats",
	[FZ_CREATE_SETS]	= "create_evtsets",
	[FZ_DELETE_SETS]	= "delete_evtsets",
	[FZ_GETINFO_SETS]	= "getinfo_evtsets",
	[FZ_AUX_SETUP]		= "aux_setup",
	[FZ_AUX_COPY]		= "aux_copy",
	[FZ_GLOBAL_STATS]	= "get_global_stats",
	[FZ_PMU_TOGGLE]		= "pmu_(un)register",
	[FZ_TICK]		= "test_pmu_tick",
};

const char * const fz_handle_name[] = {
	[FZ_H_SLOT] = "slot", [FZ_H_EMPTY] = "empty-slot", [FZ_H_NULL] = "NULL",
	[FZ_H_FORGED] = "forged", [FZ_H_STALE] = "stale",
};

static const char * const fz_fail_name[FZ_F_NR] = {
	"UNDOCUMENTED", "BADF", "STATE", "ORACLE", "VALUE", "MSG",
};

static u32 fz_outcome(long ret)
{
	switch (ret) {
	case 0:			return E_OK;
	case sizeof(union pfm_msg): return E_MSG;
	case -EBADF:		return E_BADF;
	case -EINVAL:		return E_INVAL;
	case -E2BIG:		return E_2BIG;
	case -ENOENT:		return E_NOENT;
	case -EBUSY:		return E_BUSY;
	case -ENOTCONN:		return E_NOTCONN;
	case -EALREADY:		return E_ALREADY;
	case -ENODEV:		return E_NODEV;
	case -EOPNOTSUPP:	return E_OPNOTSUPP;
	case -EAGAIN:		return E_AGAIN;
	case -ERESTARTSYS:	return E_RESTARTSYS;
	case -ENOMEM:		return E_NOMEM;
	case -ENXIO:		return E_NXIO;
	default:		return 0;
	}
}

/*
 * The Return: lines of kapi/kapi.c and kapi/aux.c (create:
 * __pfmk_create_context()), for the calls that race without the slot's
 * mutex, and as a second check of every prediction.
 */
static const u32 fz_documented[FZ_NR_OPS] = {
	[FZ_CREATE]		= E_INVAL | E_NOENT | E_2BIG | E_NOMEM,
	[FZ_WRITE_PMCS]		= E_BADF | E_INVAL | E_2BIG | E_BUSY | E_NOMEM |
				  E_NODEV | E_OPNOTSUPP,
	[FZ_WRITE_PMDS]		= E_BADF | E_INVAL | E_2BIG | E_BUSY | E_NOMEM,
	[FZ_READ_PMDS]		= E_BADF | E_INVAL | E_2BIG,
	[FZ_READ_PMDS_TIME]	= E_BADF | E_INVAL | E_2BIG,
	[FZ_LOAD]		= E_BADF | E_INVAL | E_BUSY | E_NODEV |
				  E_OPNOTSUPP | E_NOMEM,
	[FZ_START]		= E_BADF | E_INVAL | E_NOTCONN | E_ALREADY,
	[FZ_STOP]		= E_BADF | E_NOTCONN | E_ALREADY,
	[FZ_RESTART]		= E_BADF | E_NOTCONN | E_BUSY,
	[FZ_UNLOAD]		= E_BADF | E_NOTCONN,
	[FZ_CLOSE]		= E_BADF,
	[FZ_READ]		= E_BADF | E_INVAL | E_AGAIN | E_MSG,
	[FZ_READ_BLOCK]		= E_BADF | E_INVAL | E_RESTARTSYS | E_MSG,
	[FZ_GET_STATE]		= E_BADF,
	[FZ_GET_STATS]		= E_BADF | E_INVAL,
	[FZ_CREATE_SETS]	= E_BADF | E_INVAL | E_2BIG | E_BUSY | E_NOMEM,
	[FZ_DELETE_SETS]	= E_BADF | E_INVAL | E_2BIG | E_BUSY,
	[FZ_GETINFO_SETS]	= E_BADF | E_INVAL | E_2BIG,
	[FZ_AUX_SETUP]		= E_BADF | E_INVAL | E_OPNOTSUPP | E_BUSY |
				  E_NOMEM,
	[FZ_AUX_COPY]		= E_BADF | E_INVAL | E_NXIO | E_NOTCONN |
				  E_OPNOTSUPP,
	[FZ_GLOBAL_STATS]	= E_INVAL,
};

static unsigned int fz_bucket(long ret)
{
	if (!ret)
		return FZ_H_OK;
	if (ret > 0)
		return FZ_H_POS;
	if (-ret <= FZ_MAX_ERRNO)
		return -ret;
	return ret == -ERESTARTSYS ? FZ_H_RESTARTSYS : FZ_H_OTHER;
}

static void fz_hash(struct fz_thread *t, u64 v)
{
	t->hash = (t->hash ^ v) * 0x100000001b3ULL;
}

void fz_record(struct fz_thread *t, enum fz_op op, enum fz_handle hk,
	       int s, bool locked, void *handle, s64 arg, u32 expect,
		      long ret)
{
	struct fz_trace *tr = &t->trace[t->ntrace % FZ_TRACE];

	t->hist[op][fz_bucket(ret)]++;
	tr->n = t->done_ops;
	tr->op = op;
	tr->hkind = hk;
	tr->slot = s;
	tr->locked = locked;
	tr->handle = (u64)(unsigned long)handle;
	tr->arg = arg;
	tr->expect = expect;
	tr->ret = ret;
	/* Publish the entry; the dump of a failure in another thread reads it. */
	smp_store_release(&t->ntrace, t->ntrace + 1);
	/* The call, and its result when the model determined it. */
	fz_hash(t, op | (u64)hk << 8 | (u64)(u8)s << 16 | (u64)arg << 24);
	if (is_power_of_2(expect))
		fz_hash(t, ret);
}

static void fz_dump_trace(struct fz_thread *t)
{
	/* Pairs with fz_record(): entries below ntrace are written. */
	unsigned int i, end = smp_load_acquire(&t->ntrace);
	unsigned int n = min_t(unsigned int, end, FZ_TRACE);

	pr_info("# thread %u (seed %lu): last %u calls, oldest first:\n",
		t->id, fz_seed, n);
	for (i = end - n; i != end; i++) {
		struct fz_trace *tr = &t->trace[i % FZ_TRACE];

		char err[24] = "";

		if (tr->ret < 0)
			snprintf(err, sizeof(err), " %pe", ERR_PTR(tr->ret));
		pr_info("#   op %u %s %s handle %s 0x%llx slot %d arg %lld expect 0x%x -> %ld%s\n",
			tr->n, fz_op_name[tr->op],
			tr->locked ? "locked" : "unlocked",
			fz_handle_name[tr->hkind], tr->handle, tr->slot,
			tr->arg, tr->expect, tr->ret, err);
	}
}

bool fz_report_ok(void)
{
	return atomic_inc_return(&fz_reports[FZ_F_NR]) <= FZ_MAX_REPORTS;
}

/* Count a failure; report the first ones with every thread's calls. */
void fz_fail(struct fz_thread *t, unsigned int kind, const char *fmt, ...)
{
	struct va_format vaf;
	unsigned int i, nr;
	va_list args;

	t->fail[kind]++;
	nr = atomic_inc_return(&fz_reports[kind]);
	if (nr > FZ_MAX_REPORTS / 4)
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("# %s: seed %lu%s thread %u op %lu: %pV\n", fz_fail_name[kind],
		fz_seed, fz_det ? " (deterministic)" : "", t->id, t->done_ops,
		&vaf);
	va_end(args);
	if (nr > FZ_FULL_DUMPS) {
		fz_dump_trace(t);
		return;
	}
	for (i = 0; i < fz_nthreads; i++)
		fz_dump_trace(fz_threads[i]);
}

static void fz_model_print(const struct fz_slot *slot)
{
	const struct fz_model *m = &slot->m;

	pr_info("#   model: kind %d loaded %d cpu %d started %d mask %u smpl %d no_msg %d aux %d sets %u\n",
		slot->kind, m->loaded, m->cpu, m->started, m->mask, m->smpl,
		m->no_msg, m->aux, m->nsets);
}

/*
 * Check a result against the outcomes @expect allows (0 for a call
 * without prediction) and against the documented ones; record it.
 */
void fz_check(struct fz_thread *t, enum fz_op op, enum fz_handle hk,
	      int s, bool locked, void *handle, s64 arg, u32 expect,
		     long ret)
{
	bool bad_handle = hk != FZ_H_SLOT && op != FZ_CREATE &&
			  op != FZ_GLOBAL_STATS;
	/* pfmk_get_state(): a state, checked by fz_op_get_state(). */
	u32 got = op == FZ_GET_STATE && ret > 0 ? E_OK : fz_outcome(ret);

	if (bad_handle)
		expect = E_BADF;
	fz_record(t, op, hk, s, locked, handle, arg, expect, ret);
	if (bad_handle && ret != -EBADF) {
		fz_fail(t, FZ_F_BADF, "%s on a %s handle 0x%lx returned %ld, not -EBADF",
			fz_op_name[op], fz_handle_name[hk],
			(unsigned long)handle, ret);
		return;
	}
	if (!(got & (fz_documented[op] | E_OK))) {
		fz_fail(t, FZ_F_UNDOC, "%s (handle %s 0x%lx, arg %lld) returned %ld",
			fz_op_name[op], fz_handle_name[hk],
			(unsigned long)handle, arg, ret);
		return;
	}
	if (expect && !(got & expect)) {
		fz_fail(t, FZ_F_ORACLE, "%s (slot %d %s, arg %lld): %ld, allowed 0x%x",
			fz_op_name[op], s, locked ? "locked" : "unlocked", arg,
			ret, expect);
		if (s >= 0 && locked)
			fz_model_print(&fz_slots[s]);
	}
}

/* Check the values read against the model; learn the latched ones. */
void fz_check_values(struct fz_thread *t, int s,
		     const struct pfarg_pmd *req, int n)
{
	struct fz_model *m = &fz_slot_of(s)->m;
	unsigned int r;
	int i;

	for (i = 0; i < n; i++) {
		if (req[i].reg_set || req[i].reg_num >= FZ_VREGS)
			continue;
		r = req[i].reg_num;
		switch (m->vstate[r]) {
		case FZ_V_KNOWN:
			if (req[i].reg_value != m->val[r]) {
				fz_fail(t, FZ_F_VALUE, "slot %d PMD%u = 0x%llx, model 0x%llx",
					s, r, req[i].reg_value, m->val[r]);
				fz_model_print(&fz_slots[s]);
				m->val[r] = req[i].reg_value;
			}
			break;
		case FZ_V_LATCH:
			m->vstate[r] = FZ_V_KNOWN;
			m->val[r] = req[i].reg_value;
			break;
		default:
			break;
		}
	}
}

/* Check a message by type and content against the model of its slot. */
void fz_check_msg(struct fz_thread *t, int s, void *desc, bool locked,
		  const union pfm_msg *msg)
{
	struct fz_slot *slot = &fz_slots[s];
	const struct pfm_ovfl_msg *o = &msg->pfm_ovfl_msg;
	const struct pfmk_cpu_msg *cm = &msg->pfmk_cpu_msg;
	unsigned int i, bits = 0, nregs;
	struct fz_model *m;

	if (!locked)
		mutex_lock(&slot->lock);
	/* The model only grows what it allows: taken after the read. */
	if (slot->desc != desc)
		goto out;
	m = &slot->m;
	nregs = fz_nregs(slot->kind);
	switch (msg->type) {
	case PFM_MSG_OVFL:
		t->n[FZ_N_MSG]++;
		for (i = 0; i < PFM_HW_PMD_BV; i++)
			bits += hweight64(o->msg_ovfl_pmds[i]);
		if (m->no_msg || !m->ever_started || o->msg_ovfl_cpu >= 32 ||
		    !(m->cpus & BIT(o->msg_ovfl_cpu)) || bits != 1 ||
		    __ffs64(o->msg_ovfl_pmds[0] ?: BIT_ULL(63)) >= nregs ||
		    fz_set_idx(m, o->msg_active_set) < 0)
			fz_fail(t, FZ_F_MSG, "slot %d: OVFL pmds 0x%llx cpu %u set %u (%d %d 0x%x)",
				s, o->msg_ovfl_pmds[0], o->msg_ovfl_cpu,
				o->msg_active_set, m->no_msg, m->ever_started,
				m->cpus);
		break;
	case PFMK_MSG_CPU_OFFLINE:
	case PFMK_MSG_CPU_ONLINE:
		if (!fz_hp_on || cm->msg_cpu != FZ_HP_CPU ||
		    !(m->cpus & BIT(FZ_HP_CPU)) || !cm->msg_cycle ||
		    cm->msg_cycle > fz_hp_cycles + 1 || cm->msg_reserved[0] ||
		    cm->msg_reserved[1])
			fz_fail(t, FZ_F_MSG, "slot %d: 0x%x cpu %u cycle %llu (0x%x, %lu cycles)",
				s, cm->msg_type, cm->msg_cpu, cm->msg_cycle,
				m->cpus, READ_ONCE(fz_hp_cycles));
		break;
	default:
		fz_fail(t, FZ_F_MSG, "slot %d: message of unknown type 0x%x",
			s, msg->type);
		break;
	}
out:
	if (!locked)
		mutex_unlock(&slot->lock);
}

/**
 * fz_check_state() - judge what pfmk_get_state() returned
 * @t: the thread.
 * @s: the slot of the context.
 * @locked: the call ran under the slot's mutex: the model's state applies
 *	(MASKED and OFFLINE as far as it knows), and what it saw settles
 *	whether the context is masked.
 * @ret: what pfmk_get_state() returned.
 */
void fz_check_state(struct fz_thread *t, int s, bool locked, int ret)
{
	struct fz_model *m = &fz_slot_of(s)->m;
	int state = ret & 0xff, flags = ret & ~0xff;
	bool ok;

	if (ret <= 0)
		return;
	ok = state >= PFM_CTX_UNLOADED && state <= PFM_CTX_MASKED &&
	     !(flags & ~(PFMK_STATE_STARTED | PFMK_STATE_OFFLINE)) &&
	     (state != PFM_CTX_UNLOADED || !flags);
	if (ok && locked) {
		if (!m->loaded)
			ok = ret == PFM_CTX_UNLOADED;
		else
			ok = state != PFM_CTX_UNLOADED &&
			     !!(flags & PFMK_STATE_STARTED) == m->started &&
			     (!(flags & PFMK_STATE_OFFLINE) ||
			      (fz_hp_on && m->cpu == FZ_HP_CPU)) &&
			     (state == PFM_CTX_MASKED ? m->mask != FZ_M_NO :
							m->mask != FZ_M_YES);
		if (ok && m->loaded)
			m->mask = state == PFM_CTX_MASKED ? FZ_M_YES :
				  m->started ? FZ_M_MAYBE : FZ_M_NO;
	}
	if (ok)
		return;
	fz_fail(t, FZ_F_STATE, "slot %d: pfmk_get_state() = 0x%x", s, ret);
	if (locked)
		fz_model_print(&fz_slots[s]);
}

/**
 * fz_check_global_stats() - judge pfmk_get_global_stats()'s counters
 * @t: the thread.
 * @st: what it returned.
 *
 * Read without a lock: each field is consistent with itself only.
 */
void fz_check_global_stats(struct fz_thread *t,
			   const struct pfmk_global_stats *st)
{
	if (st->ctx_freed > st->ctx_created || st->ctx_open > st->ctx_created)
		fz_fail(t, FZ_F_ORACLE, "global stats: created %llu freed %llu open %llu",
			st->ctx_created, st->ctx_freed, st->ctx_open);
}
