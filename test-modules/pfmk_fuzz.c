// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_fuzz: a seeded random fuzzer of the pfmk KAPI, and a deterministic
 * CPU hotplug test.  Runs at module load and prints a KTAP document.
 *
 * Fuzzer: @threads kernel threads issue @ops random KAPI calls in total,
 * with valid and invalid arguments, on a table of FZ_NSLOTS shared
 * descriptors (so threads race on the same contexts: close against read,
 * unload against start, create evicting a context another thread uses),
 * plus forged handles (random 64-bit values, tampered cookies, kernel
 * pointers, NULL) and stale handles of contexts the thread closed.  Some
 * contexts sample with the default format on the "pfmk_test" PMU, which
 * the threads tick on CPU 0 and 1.  Blocking pfmk_read() calls are woken
 * by a partner (the module's init thread): a complete(), a close of the
 * context or a signal.  With @hotplug, another thread takes CPU 1 offline
 * and online again all along.
 *
 * Every result is checked against the errnos the kernel-doc of
 * kapi/kapi.c documents for the call; forged and stale handles must give
 * exactly -EBADF.  Each thread draws its calls from its own xorshift
 * generator seeded from @seed and its index, so a run is replayed with
 * the same seed (the interleaving of the threads differs, the calls of
 * each thread do not until their results differ).  At the end every
 * context is closed, and pfmk's global counters must be back where they
 * were: no context open or alive, no perf event held.
 *
 * Hotplug test: @hp_cycles offline/online cycles of CPU 1 with three
 * contexts loaded and started on it: exact counting on "pfmk_test",
 * sampling on "pfmk_test" with the default format, and cpu-clock.  PMDs
 * must never go backwards and must grow after each re-arm, each cycle
 * must bring an OFFLINE and an ONLINE message to each context, and
 * pfmk_get_state() must show PFMK_STATE_OFFLINE while CPU 1 is away.
 *
 * Module init always returns 0: the harness reads the verdict from KTAP.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_test_pmu.h"

static ulong seed = 1;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the fuzzer's generators (printed; replay with it)");

static uint ops = 20000;
module_param(ops, uint, 0444);
MODULE_PARM_DESC(ops, "total number of fuzzer operations, all threads together");

static uint threads = 4;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "number of fuzzer threads (1 to 8)");

static bool hotplug = true;
module_param(hotplug, bool, 0444);
MODULE_PARM_DESC(hotplug, "toggle CPU 1 offline and online during the fuzzing");

static uint hp_cycles = 50;
module_param(hp_cycles, uint, 0444);
MODULE_PARM_DESC(hp_cycles, "offline/online cycles of the hotplug test (0: skip)");

#define FZ_MAX_THREADS		8
#define FZ_NSLOTS		16
#define FZ_STALE		8
#define FZ_TRACE		16
#define FZ_MAX_REPORTS		24
#define FZ_HP_CPU		1
/* Sampling periods of generic events: at least 1 ms, TCG is slow. */
#define FZ_GEN_PERIOD_MIN	1000000ULL
#define FZ_TEST_PERIOD_MAX	200
/* Partner: wake a blocked pfmk_read() after this long. */
#define FZ_BLOCK_MS		5
#define FZ_WAIT_MS		5000

/* The calls, and the ticks of the test PMU. */
enum fz_op {
	FZ_CREATE,
	FZ_WRITE_PMCS,
	FZ_WRITE_PMDS,
	FZ_READ_PMDS,
	FZ_READ_PMDS_TIME,
	FZ_LOAD,
	FZ_START,
	FZ_STOP,
	FZ_RESTART,
	FZ_UNLOAD,
	FZ_CLOSE,
	FZ_READ,
	FZ_READ_BLOCK,
	FZ_GET_STATE,
	FZ_GET_STATS,
	FZ_CREATE_SETS,
	FZ_DELETE_SETS,
	FZ_GETINFO_SETS,
	FZ_TICK,
	FZ_NR_OPS,
};

static const char * const fz_op_name[FZ_NR_OPS] = {
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
	[FZ_TICK]		= "test_pmu_tick",
};

/*
 * Relative frequency of each operation.  Creation evicts (closes) the
 * context of its slot: at 4 in ~100, a context lives some 400 calls,
 * long enough to be loaded, started, to overflow, and to see its CPU go
 * offline and come back.
 */
static const u8 fz_op_weight[FZ_NR_OPS] = {
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
	[FZ_CLOSE]		= 4,
	[FZ_READ]		= 5,
	[FZ_READ_BLOCK]		= 1,
	[FZ_GET_STATE]		= 5,
	[FZ_GET_STATS]		= 3,
	[FZ_CREATE_SETS]	= 2,
	[FZ_DELETE_SETS]	= 2,
	[FZ_GETINFO_SETS]	= 2,
	[FZ_TICK]		= 8,
};

/* The errnos kapi/kapi.c documents, as bits. */
#define E_BADF		BIT(0)
#define E_INVAL		BIT(1)
#define E_2BIG		BIT(2)
#define E_NOENT		BIT(3)
#define E_BUSY		BIT(4)
#define E_NOTCONN	BIT(5)
#define E_ALREADY	BIT(6)
#define E_NODEV		BIT(7)
#define E_OPNOTSUPP	BIT(8)
#define E_AGAIN		BIT(9)
#define E_RESTARTSYS	BIT(10)
#define E_NOMEM		BIT(11)

static u32 fz_errno_bit(long err)
{
	switch (err) {
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
	default:		return 0;
	}
}

/*
 * The Return: lines of kapi/kapi.c (create: __pfmk_create_context()).
 * write_pmcs() on a loaded context re-creates events, "so the errors of
 * pfmk_load_context() can also occur".  load_context() also allows
 * "another negative errno from perf": the fuzzer only programs events
 * perf accepts or has no PMU for, so anything beyond the named errnos is
 * reported.
 */
static const u32 fz_allowed[FZ_NR_OPS] = {
	[FZ_CREATE]		= E_INVAL | E_NOENT | E_2BIG | E_NOMEM,
	[FZ_WRITE_PMCS]		= E_BADF | E_INVAL | E_2BIG | E_BUSY | E_NOMEM |
				  E_NODEV | E_OPNOTSUPP,
	[FZ_WRITE_PMDS]		= E_BADF | E_INVAL | E_2BIG | E_BUSY,
	[FZ_READ_PMDS]		= E_BADF | E_INVAL | E_2BIG,
	[FZ_READ_PMDS_TIME]	= E_BADF | E_INVAL | E_2BIG,
	[FZ_LOAD]		= E_BADF | E_INVAL | E_BUSY | E_NODEV |
				  E_OPNOTSUPP | E_NOMEM,
	[FZ_START]		= E_BADF | E_INVAL | E_NOTCONN | E_ALREADY,
	[FZ_STOP]		= E_BADF | E_NOTCONN | E_ALREADY,
	[FZ_RESTART]		= E_BADF | E_NOTCONN | E_BUSY,
	[FZ_UNLOAD]		= E_BADF | E_NOTCONN,
	[FZ_CLOSE]		= E_BADF,
	[FZ_READ]		= E_BADF | E_INVAL | E_AGAIN | E_RESTARTSYS,
	[FZ_READ_BLOCK]		= E_BADF | E_INVAL | E_AGAIN | E_RESTARTSYS,
	[FZ_GET_STATE]		= E_BADF,
	[FZ_GET_STATS]		= E_BADF | E_INVAL,
	[FZ_CREATE_SETS]	= E_BADF | E_INVAL | E_2BIG | E_BUSY | E_NOMEM,
	[FZ_DELETE_SETS]	= E_BADF | E_INVAL | E_2BIG | E_BUSY,
	[FZ_GETINFO_SETS]	= E_BADF | E_INVAL | E_2BIG,
	[FZ_TICK]		= 0,
};

/* Result histogram buckets: 0, positive, errno 1..FZ_MAX_ERRNO, others. */
#define FZ_MAX_ERRNO		133
#define FZ_H_OK			0
#define FZ_H_POS		(FZ_MAX_ERRNO + 1)
#define FZ_H_RESTARTSYS		(FZ_MAX_ERRNO + 2)
#define FZ_H_OTHER		(FZ_MAX_ERRNO + 3)
#define FZ_NHIST		(FZ_MAX_ERRNO + 4)

static const char *fz_errno_name(unsigned int e)
{
	switch (e) {
	case EBADF:		return "EBADF";
	case EINVAL:		return "EINVAL";
	case E2BIG:		return "E2BIG";
	case ENOENT:		return "ENOENT";
	case EBUSY:		return "EBUSY";
	case ENOTCONN:		return "ENOTCONN";
	case EALREADY:		return "EALREADY";
	case ENODEV:		return "ENODEV";
	case EOPNOTSUPP:	return "EOPNOTSUPP";
	case EAGAIN:		return "EAGAIN";
	case ENOMEM:		return "ENOMEM";
	default:		return NULL;
	}
}

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

/* Kinds of context in the table. */
enum fz_kind {
	FZ_KIND_GENERIC,
	FZ_KIND_TEST,
	FZ_KIND_GENERIC_SMPL,
	FZ_KIND_TEST_SMPL,
};

/* Where a handle came from. */
enum fz_handle {
	FZ_H_SLOT,	/* the table: live, or closed by a racing thread */
	FZ_H_EMPTY,	/* an empty table slot: NULL */
	FZ_H_NULL,
	FZ_H_FORGED,
	FZ_H_STALE,	/* closed by this thread */
};

static const char * const fz_handle_name[] = {
	[FZ_H_SLOT] = "slot", [FZ_H_EMPTY] = "empty-slot", [FZ_H_NULL] = "NULL",
	[FZ_H_FORGED] = "forged", [FZ_H_STALE] = "stale",
};

/**
 * struct fz_slot - an entry of the shared descriptor table
 * @lock: protects @desc and @kind.
 * @desc: descriptor, or NULL.
 * @kind: enum fz_kind of @desc.
 * @done: completion of every context created for this slot; static, so
 *	it outlives them.
 */
struct fz_slot {
	spinlock_t		lock;	/* protects desc, kind */
	void			*desc;
	enum fz_kind		kind;
	struct completion	done;
};

static struct fz_slot fz_slots[FZ_NSLOTS];

/**
 * struct fz_trace - one entry of a thread's recent-call ring
 * @n: operation number in the thread.
 * @op: enum fz_op.
 * @hkind: enum fz_handle.
 * @handle: the descriptor passed.
 * @arg: main argument (count, CPU, flags, size), for the report.
 * @ret: result.
 */
struct fz_trace {
	u32	n;
	u8	op;
	u8	hkind;
	u64	handle;
	s64	arg;
	long	ret;
};

/**
 * struct fz_thread - a fuzzer thread
 * @task: the kthread.
 * @id: index.
 * @rng: xorshift64* state.
 * @nops: operations to run.
 * @done_ops: operations run.
 * @finished: all @nops run.
 * @blocked_slot: slot whose descriptor a blocking pfmk_read() waits on,
 *	or -1; read by the partner.
 * @blocked_since: jiffies when @blocked_slot was set.
 * @creates: successful pfmk_create_context() calls.
 * @closes: successful pfmk_close() calls.
 * @undocumented: results outside the documented set.
 * @bad_ebadf: forged or stale handles that did not give -EBADF.
 * @bad_state: impossible pfmk_get_state() values.
 * @stale: descriptors this thread closed.
 * @nstale: number of entries of @stale used.
 * @trace: ring of the last FZ_TRACE calls.
 * @ntrace: calls recorded in @trace.
 * @hist: results per call and bucket.
 * @pmcs: PMC vector, PFM_MAX_PMCS entries.
 * @pmds: PMD vector, PFM_MAX_PMDS entries.
 * @times: pfmk_read_pmds_time() output, PFM_MAX_PMDS entries.
 * @sets: set descriptions, PFM_MAX_PMCS entries.
 * @infos: set infos, PFM_MAX_PMCS entries.
 */
struct fz_thread {
	struct task_struct	*task;
	unsigned int		id;
	u64			rng;
	unsigned long		nops;
	unsigned long		done_ops;
	bool			finished;
	int			blocked_slot;
	unsigned long		blocked_since;
	unsigned long		creates;
	unsigned long		closes;
	unsigned long		undocumented;
	unsigned long		bad_ebadf;
	unsigned long		bad_state;
	void			*stale[FZ_STALE];
	unsigned int		nstale;
	struct fz_trace		trace[FZ_TRACE];
	unsigned int		ntrace;
	u64			hist[FZ_NR_OPS][FZ_NHIST];
	struct pfarg_pmc	*pmcs;
	struct pfarg_pmd	*pmds;
	struct pfmk_pmd_time	*times;
	struct pfarg_setdesc	*sets;
	struct pfarg_setinfo	*infos;
};

static struct fz_thread *fz_threads[FZ_MAX_THREADS];
static unsigned int fz_nthreads;
static atomic_t fz_reports = ATOMIC_INIT(0);
static atomic_t fz_partner_wakes[3];
static unsigned long fz_partner_closes;
static unsigned int fz_weight_total;

/* The hotplug thread, and why it did not run. */
static struct task_struct *fz_hp_task;
static const char *fz_hp_skip;
static unsigned long fz_hp_cycles;
static unsigned long fz_hp_remove_failed;
static unsigned long fz_hp_add_failed;
static bool fz_hp_cpu_lost;

/* xorshift64*: deterministic, private to its user. */
static u64 fz_next(u64 *state)
{
	u64 x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static u64 fz_rand(struct fz_thread *t)
{
	return fz_next(&t->rng);
}

/* Uniform enough in [0, n) for n much below 2^32. */
static u32 fz_below(struct fz_thread *t, u32 n)
{
	return (u32)(((fz_rand(t) >> 32) * n) >> 32);
}

/* True with probability @pct percent. */
static bool fz_pct(struct fz_thread *t, u32 pct)
{
	return fz_below(t, 100) < pct;
}

static u64 fz_seed_of(unsigned long s, unsigned int id)
{
	u64 z = s + 0x9e3779b97f4a7c15ULL * (id + 1);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z ?: 1;
}

static bool fz_is_test(enum fz_kind kind)
{
	return kind == FZ_KIND_TEST || kind == FZ_KIND_TEST_SMPL;
}

static unsigned int fz_nregs(enum fz_kind kind)
{
	return fz_is_test(kind) ? PFMK_TEST_NUM_PMCS : PFMK_GENERIC_NUM_PMCS;
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

static void fz_record(struct fz_thread *t, enum fz_op op, enum fz_handle hk,
		      void *handle, s64 arg, long ret)
{
	struct fz_trace *tr = &t->trace[t->ntrace++ % FZ_TRACE];

	t->hist[op][fz_bucket(ret)]++;
	tr->n = t->done_ops;
	tr->op = op;
	tr->hkind = hk;
	tr->handle = (u64)(unsigned long)handle;
	tr->arg = arg;
	tr->ret = ret;
}

static void fz_dump_trace(struct fz_thread *t)
{
	unsigned int i, n = min_t(unsigned int, t->ntrace, FZ_TRACE);

	pr_info("# thread %u (seed %lu): last %u calls, oldest first:\n",
		t->id, seed, n);
	for (i = t->ntrace - n; i != t->ntrace; i++) {
		struct fz_trace *tr = &t->trace[i % FZ_TRACE];

		pr_info("#   op %u %s handle %s 0x%llx arg %lld -> %ld\n",
			tr->n, fz_op_name[tr->op], fz_handle_name[tr->hkind],
			tr->handle, tr->arg, tr->ret);
	}
}

static bool fz_report_slot(void)
{
	return atomic_inc_return(&fz_reports) <= FZ_MAX_REPORTS;
}

/* Check a call's result; record it.  @ret > 0 is checked by the caller. */
static void fz_check(struct fz_thread *t, enum fz_op op, enum fz_handle hk,
		     void *handle, s64 arg, long ret, bool pos_ok)
{
	bool bad_handle = hk != FZ_H_SLOT && op != FZ_CREATE && op != FZ_TICK;

	fz_record(t, op, hk, handle, arg, ret);
	if (bad_handle && ret != -EBADF) {
		t->bad_ebadf++;
		if (fz_report_slot()) {
			pr_info("# BADF: thread %u op %lu: %s on a %s handle 0x%lx returned %ld, not -EBADF\n",
				t->id, t->done_ops, fz_op_name[op],
				fz_handle_name[hk], (unsigned long)handle, ret);
			fz_dump_trace(t);
		}
		return;
	}
	if (op == FZ_TICK || !ret || (ret > 0 && pos_ok))
		return;
	if (ret < 0 && (fz_errno_bit(ret) & fz_allowed[op]))
		return;
	t->undocumented++;
	if (fz_report_slot()) {
		pr_info("# UNDOCUMENTED: thread %u op %lu: %s (handle %s 0x%lx, arg %lld) returned %ld\n",
			t->id, t->done_ops, fz_op_name[op], fz_handle_name[hk],
			(unsigned long)handle, arg, ret);
		fz_dump_trace(t);
	}
}

/* Take the descriptor out of @slot if it is still @desc. */
static void fz_slot_clear(struct fz_slot *slot, void *desc)
{
	spin_lock(&slot->lock);
	if (slot->desc == desc)
		slot->desc = NULL;
	spin_unlock(&slot->lock);
}

static void fz_close_evicted(struct fz_thread *t, void *desc)
{
	long ret;

	if (!desc)
		return;
	ret = pfmk_close(desc);
	fz_check(t, FZ_CLOSE, FZ_H_SLOT, desc, 0, ret, false);
	if (!ret)
		t->closes++;
}

/* Pick the handle of the next call. */
static void *fz_pick(struct fz_thread *t, enum fz_handle *hk,
		     enum fz_kind *kind, int *slotp)
{
	u32 r = fz_below(t, 100);
	struct fz_slot *slot;
	void *desc;
	int i, s;

	*slotp = -1;
	*kind = fz_pct(t, 50) ? FZ_KIND_TEST : FZ_KIND_GENERIC;
	if (r < 82) {
		/* Prefer a live slot: try three. */
		for (i = 0; i < 3; i++) {
			s = fz_below(t, FZ_NSLOTS);
			slot = &fz_slots[s];
			spin_lock(&slot->lock);
			desc = slot->desc;
			if (desc)
				*kind = slot->kind;
			spin_unlock(&slot->lock);
			if (desc)
				break;
		}
		*slotp = s;
		*hk = desc ? FZ_H_SLOT : FZ_H_EMPTY;
		return desc;
	}
	if (r < 88) {
		*hk = FZ_H_FORGED;
		switch (fz_below(t, 5)) {
		case 0:	/* random bits */
			return (void *)(unsigned long)fz_rand(t);
		case 1:	/* a live descriptor with an even (never valid) cookie */
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

static void fz_op_create(struct fz_thread *t)
{
	static const pfm_uuid_t dfl_uuid = PFM_DFL_SMPL_UUID;
	static const u64 sizes[] = { 1024, 4096, 8192, 16384 };
	struct pfm_dfl_smpl_arg arg;
	void *smpl_arg = NULL, *desc = NULL, *buf = NULL, *old;
	size_t smpl_size = 0;
	struct completion *c;
	struct pfarg_ctx req;
	enum fz_kind kind;
	bool test, smpl = false;
	int s = fz_below(t, FZ_NSLOTS);
	unsigned int i;
	long ret;
	u32 r;

	memset(&req, 0, sizeof(req));
	memset(&arg, 0, sizeof(arg));
	r = fz_below(t, 100);
	if (r < 90)
		req.ctx_flags = PFM_FL_SYSTEM_WIDE |
				(fz_pct(t, 20) ? PFM_FL_OVFL_NO_MSG : 0);
	else if (r < 93)
		req.ctx_flags = PFM_FL_SYSTEM_WIDE | PFM_FL_NOTIFY_BLOCK;
	else if (r < 96)
		req.ctx_flags = PFM_FL_SYSTEM_WIDE | PFM_FL_MAP_SETS;
	else
		req.ctx_flags = fz_rand(t);

	r = fz_below(t, 100);
	test = r < 45;
	if (test)
		strscpy(req.ctx_pmu_name, PFMK_TEST_PMU_NAME,
			sizeof(req.ctx_pmu_name));
	else if (r < 85)
		;	/* "" selects generic */
	else if (r < 92)
		strscpy(req.ctx_pmu_name, PFMK_GENERIC_NAME,
			sizeof(req.ctx_pmu_name));
	else if (r < 96)
		strscpy(req.ctx_pmu_name, "pfmk_nonexistent",
			sizeof(req.ctx_pmu_name));
	else
		memset(req.ctx_pmu_name, 'x', sizeof(req.ctx_pmu_name));

	r = fz_below(t, 100);
	if (r < 35) {
		smpl = true;
		memcpy(req.ctx_smpl_buf_id, dfl_uuid, sizeof(dfl_uuid));
		smpl_arg = &arg;
		smpl_size = sizeof(arg);
		if (fz_pct(t, 85))
			arg.buf_size = sizes[fz_below(t, ARRAY_SIZE(sizes))];
		else if (fz_pct(t, 50))
			arg.buf_size = fz_below(t, 200);
		else
			arg.buf_size = (64ULL << 20) + 1 + fz_below(t, 4096);
		if (fz_pct(t, 4))
			smpl_size--;
		else if (fz_pct(t, 4))
			smpl_arg = NULL;
	} else if (r < 38) {
		/* An unknown format. */
		for (i = 0; i < sizeof(req.ctx_smpl_buf_id); i++)
			req.ctx_smpl_buf_id[i] = fz_rand(t);
		smpl_arg = &arg;
		smpl_size = sizeof(arg);
	} else if (r < 40) {
		/* An argument without a format. */
		smpl_arg = &arg;
		smpl_size = sizeof(arg);
	}

	c = fz_pct(t, 98) ? &fz_slots[s].done : NULL;
	ret = pfmk_create_context(&req, smpl_arg, smpl_size, c,
				  fz_pct(t, 98) ? &desc : NULL,
				  fz_pct(t, 80) ? &buf : NULL);
	fz_check(t, FZ_CREATE, FZ_H_SLOT, NULL, req.ctx_flags, ret, false);
	if (ret && !(fz_errno_bit(ret) & fz_allowed[FZ_CREATE]) &&
	    atomic_read(&fz_reports) <= FZ_MAX_REPORTS)
		pr_info("# create_context: flags 0x%x pmu \"%.*s\" format %d arg %d size %zu buf_size %llu c %d -> %ld\n",
			req.ctx_flags, (int)sizeof(req.ctx_pmu_name),
			req.ctx_pmu_name, smpl, !!smpl_arg, smpl_size,
			arg.buf_size, !!c, ret);
	if (ret)
		return;
	t->creates++;
	if (req.ctx_fd != -1 || (smpl && !req.ctx_smpl_buf_size) ||
	    (!smpl && req.ctx_smpl_buf_size)) {
		t->undocumented++;
		if (fz_report_slot())
			pr_info("# CREATE: thread %u op %lu: ctx_fd %d, ctx_smpl_buf_size %llu (sampling %d)\n",
				t->id, t->done_ops, req.ctx_fd,
				req.ctx_smpl_buf_size, smpl);
	}
	kind = test ? (smpl ? FZ_KIND_TEST_SMPL : FZ_KIND_TEST) :
		      (smpl ? FZ_KIND_GENERIC_SMPL : FZ_KIND_GENERIC);
	spin_lock(&fz_slots[s].lock);
	old = fz_slots[s].desc;
	fz_slots[s].desc = desc;
	fz_slots[s].kind = kind;
	spin_unlock(&fz_slots[s].lock);
	fz_close_evicted(t, old);
}

static u64 fz_pmc_value(struct fz_thread *t, enum fz_kind kind)
{
	static const u64 sw[] = {
		PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK,
		PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CONTEXT_SWITCHES,
		PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_DUMMY,
	};
	u32 r = fz_below(t, 100);
	u64 v;

	if (fz_is_test(kind)) {
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
		v = PFMK_GEN_SW(sw[fz_below(t, ARRAY_SIZE(sw))]);
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
	return fz_rand(t);
}

static void fz_op_write_pmcs(struct fz_thread *t, void *desc,
			     enum fz_handle hk, enum fz_kind kind)
{
	struct pfarg_pmc *req = t->pmcs;
	int i, n = fz_count(t, PFM_MAX_PMCS, fz_nregs(kind));
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
	ret = pfmk_write_pmcs(desc, fz_pct(t, 2) ? NULL : req, n);
	fz_check(t, FZ_WRITE_PMCS, hk, desc, n, ret, false);
}

/* A PMD value: counting, sampling (negative, with a sane period), junk. */
static u64 fz_pmd_value(struct fz_thread *t, enum fz_kind kind)
{
	u32 r = fz_below(t, 100);

	if (r < 35)
		return fz_pct(t, 50) ? 0 : fz_below(t, 1000000);
	if (r < 85) {
		if (fz_is_test(kind))
			return -(u64)(1 + fz_below(t, FZ_TEST_PERIOD_MAX));
		return -(FZ_GEN_PERIOD_MIN + fz_below(t, 9000000));
	}
	if (r < 90 && fz_is_test(kind))
		return -1ULL - fz_below(t, 2);
	/* Random: a negative one has a period far above FZ_GEN_PERIOD_MIN. */
	return fz_rand(t) | (fz_is_test(kind) ? 0 : BIT_ULL(62));
}

static void fz_op_write_pmds(struct fz_thread *t, void *desc,
			     enum fz_handle hk, enum fz_kind kind)
{
	struct pfarg_pmd *req = t->pmds;
	unsigned int nregs = fz_nregs(kind);
	int i, n = fz_count(t, PFM_MAX_PMDS, nregs);
	u64 mask = nregs >= 64 ? ~0ULL : BIT_ULL(nregs) - 1;
	long ret;
	u32 r;

	for (i = 0; i < n && i < PFM_MAX_PMDS; i++) {
		memset(&req[i], 0, sizeof(req[i]));
		req[i].reg_num = fz_reg(t, kind);
		req[i].reg_set = fz_set(t);
		r = fz_below(t, 100);
		if (r < 15)
			req[i].reg_flags = PFM_REGFL_OVFL_NOTIFY;
		else if (r < 22)
			req[i].reg_flags = PFM_REGFL_RANDOM |
					   (fz_pct(t, 50) ? PFM_REGFL_OVFL_NOTIFY : 0);
		else if (r < 27)
			req[i].reg_flags = fz_rand(t);
		req[i].reg_value = fz_pmd_value(t, kind);
		req[i].reg_short_reset = fz_pct(t, 70) ? req[i].reg_value :
					 fz_pmd_value(t, kind);
		req[i].reg_long_reset = fz_pct(t, 70) ? req[i].reg_value :
					fz_pmd_value(t, kind);
		r = fz_below(t, 100);
		if (r < 80)
			req[i].reg_smpl_pmds[0] = fz_rand(t) & mask;
		else if (r < 90)
			req[i].reg_smpl_pmds[fz_below(t, PFM_PMD_BV)] =
				fz_rand(t);
		if (fz_pct(t, 20))
			req[i].reg_reset_pmds[0] = fz_rand(t) & mask;
		else if (fz_pct(t, 5))
			req[i].reg_reset_pmds[fz_below(t, PFM_PMD_BV)] =
				fz_rand(t);
		req[i].reg_random_mask = fz_pct(t, 50) ? 0xff :
					 fz_rand(t) & 0xfffff;
		req[i].reg_random_seed = fz_rand(t);
		req[i].reg_smpl_eventid = fz_rand(t);
	}
	ret = pfmk_write_pmds(desc, fz_pct(t, 2) ? NULL : req, n);
	fz_check(t, FZ_WRITE_PMDS, hk, desc, n, ret, false);
}

static void fz_op_read_pmds(struct fz_thread *t, void *desc,
			    enum fz_handle hk, enum fz_kind kind, bool time)
{
	struct pfarg_pmd *req = t->pmds;
	int i, n = fz_count(t, PFM_MAX_PMDS, fz_nregs(kind));
	long ret;

	for (i = 0; i < n && i < PFM_MAX_PMDS; i++) {
		memset(&req[i], 0, sizeof(req[i]));
		req[i].reg_num = fz_reg(t, kind);
		req[i].reg_set = fz_set(t);
	}
	if (fz_pct(t, 2))
		req = NULL;
	if (time) {
		ret = pfmk_read_pmds_time(desc, req,
					  fz_pct(t, 3) ? NULL : t->times, n);
		fz_check(t, FZ_READ_PMDS_TIME, hk, desc, n, ret, false);
	} else {
		ret = pfmk_read_pmds(desc, req, n);
		fz_check(t, FZ_READ_PMDS, hk, desc, n, ret, false);
	}
}

static void fz_op_load(struct fz_thread *t, void *desc, enum fz_handle hk)
{
	struct pfarg_load req;
	u32 r = fz_below(t, 100);
	long ret;

	memset(&req, 0, sizeof(req));
	if (r < 45)
		req.load_pid = 0;
	else if (r < 90)
		req.load_pid = FZ_HP_CPU;
	else if (r < 93)
		req.load_pid = nr_cpu_ids;
	else if (r < 96)
		req.load_pid = U32_MAX;
	else
		req.load_pid = fz_rand(t);
	req.load_set = fz_set(t);
	ret = pfmk_load_context(desc, fz_pct(t, 3) ? NULL : &req);
	fz_check(t, FZ_LOAD, hk, desc, req.load_pid, ret, false);
}

static void fz_op_start(struct fz_thread *t, void *desc, enum fz_handle hk)
{
	struct pfarg_start req;
	long ret;

	memset(&req, 0, sizeof(req));
	req.start_set = fz_set(t);
	ret = pfmk_start(desc, fz_pct(t, 70) ? NULL : &req);
	fz_check(t, FZ_START, hk, desc, req.start_set, ret, false);
}

static void fz_op_close(struct fz_thread *t, void *desc, enum fz_handle hk,
			int s)
{
	long ret = pfmk_close(desc);

	fz_check(t, FZ_CLOSE, hk, desc, 0, ret, false);
	if (ret)
		return;
	t->closes++;
	if (s >= 0)
		fz_slot_clear(&fz_slots[s], desc);
	t->stale[t->nstale++ % FZ_STALE] = desc;
}

static void fz_check_msg(struct fz_thread *t, const union pfm_msg *msg)
{
	u32 type = msg->type;

	if (type == PFM_MSG_OVFL || type == PFMK_MSG_CPU_OFFLINE ||
	    type == PFMK_MSG_CPU_ONLINE)
		return;
	t->undocumented++;
	if (fz_report_slot())
		pr_info("# MSG: thread %u op %lu: message of unknown type %u\n",
			t->id, t->done_ops, type);
}

static void fz_op_read(struct fz_thread *t, void *desc, enum fz_handle hk,
		       int s, bool block)
{
	union pfm_msg msg;
	size_t sz = sizeof(msg);
	union pfm_msg *m = &msg;
	long ret;

	if (fz_pct(t, 3))
		sz = fz_pct(t, 50) ? sizeof(msg) - 1 : fz_rand(t);
	else if (fz_pct(t, 2))
		m = NULL;
	memset(&msg, 0, sizeof(msg));
	if (block) {
		WRITE_ONCE(t->blocked_since, jiffies);
		/* Publish the slot after the time; pairs with the partner. */
		smp_store_release(&t->blocked_slot, s);
		ret = pfmk_read(desc, m, sz, 0);
		WRITE_ONCE(t->blocked_slot, -1);
	} else {
		ret = pfmk_read(desc, m, sz, fz_pct(t, 50) ? 1 : fz_rand(t) | 1);
	}
	fz_check(t, block ? FZ_READ_BLOCK : FZ_READ, hk, desc, sz, ret,
		 ret == sizeof(msg));
	if (ret == sizeof(msg))
		fz_check_msg(t, &msg);
	if (signal_pending(current))
		flush_signals(current);
}

static void fz_op_get_state(struct fz_thread *t, void *desc,
			    enum fz_handle hk)
{
	int ret = pfmk_get_state(desc);
	int state = ret & 0xff, flags = ret & ~0xff;
	bool ok;

	fz_check(t, FZ_GET_STATE, hk, desc, 0, ret, ret > 0);
	if (ret <= 0)
		return;
	ok = state >= PFM_CTX_UNLOADED && state <= PFM_CTX_MASKED &&
	     !(flags & ~(PFMK_STATE_STARTED | PFMK_STATE_OFFLINE)) &&
	     (state != PFM_CTX_UNLOADED || !flags);
	if (ok)
		return;
	t->bad_state++;
	if (fz_report_slot()) {
		pr_info("# STATE: thread %u op %lu: pfmk_get_state() = 0x%x\n",
			t->id, t->done_ops, ret);
		fz_dump_trace(t);
	}
}

static void fz_op_sets(struct fz_thread *t, void *desc, enum fz_handle hk,
		       enum fz_op op)
{
	int i, n = fz_count(t, PFM_MAX_PMCS, 3);
	long ret;

	for (i = 0; i < n && i < PFM_MAX_PMCS; i++) {
		if (op == FZ_CREATE_SETS) {
			memset(&t->sets[i], 0, sizeof(t->sets[i]));
			t->sets[i].set_id = fz_pct(t, 70) ? 0 : fz_rand(t);
			if (fz_pct(t, 20))
				t->sets[i].set_flags = fz_rand(t) & 7;
			t->sets[i].set_timeout = fz_rand(t);
		} else {
			memset(&t->infos[i], 0, sizeof(t->infos[i]));
			t->infos[i].set_id = fz_pct(t, 70) ? 0 : fz_rand(t);
		}
	}
	switch (op) {
	case FZ_CREATE_SETS:
		ret = pfmk_create_evtsets(desc, fz_pct(t, 2) ? NULL : t->sets,
					  n);
		break;
	case FZ_DELETE_SETS:
		ret = pfmk_delete_evtsets(desc, fz_pct(t, 2) ? NULL : t->infos,
					  n);
		break;
	default:
		ret = pfmk_getinfo_evtsets(desc,
					   fz_pct(t, 2) ? NULL : t->infos, n);
		break;
	}
	fz_check(t, op, hk, desc, n, ret, false);
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

static void fz_one(struct fz_thread *t)
{
	enum fz_op op = fz_pick_op(t);
	struct pfmk_ctx_stats stats;
	enum fz_handle hk;
	enum fz_kind kind;
	void *desc;
	int s, cpu;
	u64 ticks;

	if (op == FZ_CREATE) {
		fz_op_create(t);
		return;
	}
	if (op == FZ_TICK) {
		cpu = fz_pct(t, 50) ? 0 : FZ_HP_CPU;
		ticks = 1 + fz_below(t, fz_pct(t, 90) ? 50 : 2000);
		pfmk_test_pmu_tick(cpu, ticks);
		fz_record(t, FZ_TICK, FZ_H_SLOT, NULL, cpu, 0);
		return;
	}
	desc = fz_pick(t, &hk, &kind, &s);
	switch (op) {
	case FZ_WRITE_PMCS:
		fz_op_write_pmcs(t, desc, hk, kind);
		break;
	case FZ_WRITE_PMDS:
		fz_op_write_pmds(t, desc, hk, kind);
		break;
	case FZ_READ_PMDS:
	case FZ_READ_PMDS_TIME:
		fz_op_read_pmds(t, desc, hk, kind, op == FZ_READ_PMDS_TIME);
		break;
	case FZ_LOAD:
		fz_op_load(t, desc, hk);
		break;
	case FZ_START:
		fz_op_start(t, desc, hk);
		break;
	case FZ_STOP:
		fz_check(t, op, hk, desc, 0, pfmk_stop(desc), false);
		break;
	case FZ_RESTART:
		fz_check(t, op, hk, desc, 0, pfmk_restart(desc), false);
		break;
	case FZ_UNLOAD:
		fz_check(t, op, hk, desc, 0, pfmk_unload_context(desc), false);
		break;
	case FZ_CLOSE:
		fz_op_close(t, desc, hk, s);
		break;
	case FZ_READ:
	case FZ_READ_BLOCK:
		fz_op_read(t, desc, hk, s, op == FZ_READ_BLOCK && s >= 0);
		break;
	case FZ_GET_STATE:
		fz_op_get_state(t, desc, hk);
		break;
	case FZ_GET_STATS:
		fz_check(t, op, hk, desc, 0,
			 pfmk_get_stats(desc, fz_pct(t, 5) ? NULL : &stats),
			 false);
		break;
	default:
		fz_op_sets(t, desc, hk, op);
		break;
	}
}

static int fz_thread_fn(void *data)
{
	struct fz_thread *t = data;

	allow_signal(SIGUSR1);
	while (t->done_ops < t->nops && !kthread_should_stop()) {
		fz_one(t);
		WRITE_ONCE(t->done_ops, t->done_ops + 1);
		if (!(t->done_ops & 63))
			cond_resched();
	}
	flush_signals(current);
	/* Publish the results; pairs with the reader in fz_run(). */
	smp_store_release(&t->finished, true);
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Can CPU FZ_HP_CPU go offline?  NULL if yes, else why not. */
static const char *fz_hp_unavailable(void)
{
	if (nr_cpu_ids <= FZ_HP_CPU || !cpu_possible(FZ_HP_CPU))
		return "CPU 1 does not exist";
	if (!cpu_online(FZ_HP_CPU))
		return "CPU 1 is offline";
	if (!cpu_is_hotpluggable(FZ_HP_CPU))
		return "CPU 1 is not hot-pluggable";
	return NULL;
}

/* Bring CPU FZ_HP_CPU back, retrying a little; false if it stays away. */
static bool fz_cpu_up(void)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (!add_cpu(FZ_HP_CPU) || cpu_online(FZ_HP_CPU))
			return true;
		msleep(20);
	}
	return false;
}

/*
 * Toggle CPU 1 until stopped.  A cycle holds cpu_hotplug_lock for writing
 * most of the time, which blocks every loader and unloader of contexts
 * (cpuhp instances) and every tick: pause nine times as long as the
 * cycle took, so that the fuzzer gets 90% of the time.
 */
static int fz_hp_thread_fn(void *data)
{
	u64 rng = fz_seed_of(seed, FZ_MAX_THREADS);
	u64 t0, ms;

	while (!kthread_should_stop()) {
		t0 = ktime_get_ns();
		if (remove_cpu(FZ_HP_CPU)) {
			fz_hp_remove_failed++;
			usleep_range(10000, 11000);
			continue;
		}
		msleep(1 + (fz_next(&rng) >> 62));
		if (!add_cpu(FZ_HP_CPU)) {
			fz_hp_cycles++;
		} else {
			fz_hp_add_failed++;
			if (!fz_cpu_up()) {
				fz_hp_cpu_lost = true;
				break;
			}
			fz_hp_cycles++;
		}
		ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
		msleep(min_t(u64, 9 * ms, 5000) + 1 + (fz_next(&rng) >> 61));
	}
	while (!kthread_should_stop())
		usleep_range(10000, 11000);
	return 0;
}

/*
 * The partner of blocking reads: a thread blocked long enough is woken
 * by a complete(), by a close of its slot's context, or by a signal.
 */
static void fz_partner(unsigned long *round)
{
	unsigned int i, how;
	struct fz_slot *slot;
	void *desc;
	int s, ret;

	for (i = 0; i < fz_nthreads; i++) {
		struct fz_thread *t = fz_threads[i];

		/* blocked_since is valid for this slot: see fz_op_read(). */
		s = smp_load_acquire(&t->blocked_slot);
		if (s < 0 || time_before(jiffies, READ_ONCE(t->blocked_since) +
					 msecs_to_jiffies(FZ_BLOCK_MS)))
			continue;
		slot = &fz_slots[s];
		how = (*round)++ % 3;
		atomic_inc(&fz_partner_wakes[how]);
		switch (how) {
		case 0:
			complete(&slot->done);
			break;
		case 1:
			spin_lock(&slot->lock);
			desc = slot->desc;
			slot->desc = NULL;
			spin_unlock(&slot->lock);
			/* -EBADF if a racing thread closed it: fine. */
			ret = desc ? pfmk_close(desc) : -EBADF;
			if (!ret)
				fz_partner_closes++;
			else if (ret != -EBADF && fz_report_slot())
				pr_info("# partner: close of 0x%lx: %d\n",
					(unsigned long)desc, ret);
			complete(&slot->done);
			break;
		default:
			send_sig(SIGUSR1, t->task, 1);
			break;
		}
	}
}

/**
 * struct fz_result - verdicts of the fuzzer
 * @ops_done: operations run by all threads.
 * @creates: contexts created.
 * @closes: successful closes, the final ones included.
 * @undocumented: results outside the documented errnos.
 * @bad_ebadf: forged or stale handles without -EBADF.
 * @bad_state: impossible states.
 * @freed_ok: pfmk's global counters back to their start values.
 * @elapsed_ns: fuzzing time.
 */
struct fz_result {
	unsigned long	ops_done;
	unsigned long	creates;
	unsigned long	closes;
	unsigned long	undocumented;
	unsigned long	bad_ebadf;
	unsigned long	bad_state;
	bool		freed_ok;
	u64		elapsed_ns;
};

static void fz_print_table(void)
{
	unsigned int op, b, i;
	u64 count, h;
	char line[256];
	int len;

	pr_info("# calls and results (seed %lu, %u threads):\n", seed,
		fz_nthreads);
	for (op = 0; op < FZ_NR_OPS; op++) {
		count = 0;
		for (b = 0; b < FZ_NHIST; b++)
			for (i = 0; i < fz_nthreads; i++)
				count += fz_threads[i]->hist[op][b];
		len = scnprintf(line, sizeof(line), "%-16s %8llu:",
				fz_op_name[op], count);
		for (b = 0; b < FZ_NHIST; b++) {
			h = 0;
			for (i = 0; i < fz_nthreads; i++)
				h += fz_threads[i]->hist[op][b];
			if (!h)
				continue;
			if (b == FZ_H_OK)
				len += scnprintf(line + len, sizeof(line) - len,
						 " 0=%llu", h);
			else if (b == FZ_H_POS)
				len += scnprintf(line + len, sizeof(line) - len,
						 " >0=%llu", h);
			else if (b == FZ_H_RESTARTSYS)
				len += scnprintf(line + len, sizeof(line) - len,
						 " ERESTARTSYS=%llu", h);
			else if (b == FZ_H_OTHER)
				len += scnprintf(line + len, sizeof(line) - len,
						 " other=%llu", h);
			else if (fz_errno_name(b))
				len += scnprintf(line + len, sizeof(line) - len,
						 " %s=%llu", fz_errno_name(b), h);
			else
				len += scnprintf(line + len, sizeof(line) - len,
						 " -%u=%llu", b, h);
		}
		pr_info("#   %s\n", line);
	}
}

/* Wait until pfmk's counters settle back to @start (RCU frees). */
static bool fz_wait_freed(const struct pfmk_global_stats *start,
			  struct pfmk_global_stats *now)
{
	unsigned long end = jiffies + msecs_to_jiffies(FZ_WAIT_MS);

	for (;;) {
		rcu_barrier();
		if (pfmk_get_global_stats(now))
			return false;
		if (now->ctx_alive == start->ctx_alive &&
		    now->ctx_open == start->ctx_open &&
		    now->events == start->events)
			return true;
		if (time_after(jiffies, end))
			return false;
		msleep(20);
	}
}

/* Let contexts closed before the fuzzer be freed, then snapshot. */
static int fz_global_snapshot(struct pfmk_global_stats *st)
{
	unsigned long end = jiffies + msecs_to_jiffies(FZ_WAIT_MS);
	int ret;

	for (;;) {
		rcu_barrier();
		ret = pfmk_get_global_stats(st);
		if (ret || st->ctx_alive == st->ctx_open ||
		    time_after(jiffies, end))
			return ret;
		msleep(20);
	}
}

static void fz_run(struct fz_result *res)
{
	struct pfmk_global_stats start, now;
	unsigned long round = 0, done, next_report = ops / 10;
	unsigned int i, left;
	u64 t0;
	void *desc;

	memset(res, 0, sizeof(*res));
	if (fz_global_snapshot(&start))
		pr_info("# pfmk_get_global_stats() failed\n");
	pr_info("# fuzz: seed %lu, %u ops, %u threads, hotplug %d\n", seed,
		ops, fz_nthreads, hotplug);
	pr_info("# at start: ctx_alive %llu ctx_open %llu events %llu\n",
		start.ctx_alive, start.ctx_open, start.events);

	t0 = ktime_get_ns();
	for (i = 0; i < fz_nthreads; i++) {
		struct fz_thread *t = fz_threads[i];

		t->task = kthread_run(fz_thread_fn, t, "pfmk_fuzz/%u", i);
		if (IS_ERR(t->task)) {
			pr_info("# cannot start thread %u: %ld\n", i,
				PTR_ERR(t->task));
			t->task = NULL;
		}
	}
	fz_hp_skip = hotplug ? fz_hp_unavailable() : "hotplug=0";
	if (!fz_hp_skip) {
		fz_hp_task = kthread_run(fz_hp_thread_fn, NULL, "pfmk_fuzz_hp");
		if (IS_ERR(fz_hp_task)) {
			pr_info("# cannot start the hotplug thread\n");
			fz_hp_task = NULL;
		}
	} else {
		pr_info("# no CPU hotplug during the fuzzing: %s\n",
			fz_hp_skip);
	}

	do {
		usleep_range(5000, 6000);
		fz_partner(&round);
		left = 0;
		done = 0;
		for (i = 0; i < fz_nthreads; i++) {
			struct fz_thread *t = fz_threads[i];

			/* The thread's counters are final once it finished. */
			if (t->task && !smp_load_acquire(&t->finished))
				left++;
			done += READ_ONCE(t->done_ops);
		}
		if (next_report && done >= next_report) {
			pr_info("# progress: %lu ops, %lu hotplug cycles, %llu ms\n",
				done, READ_ONCE(fz_hp_cycles),
				div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC));
			next_report += ops / 10;
		}
	} while (left);
	res->elapsed_ns = ktime_get_ns() - t0;
	if (fz_hp_task) {
		kthread_stop(fz_hp_task);
		fz_hp_task = NULL;
	}
	for (i = 0; i < fz_nthreads; i++) {
		struct fz_thread *t = fz_threads[i];

		if (t->task)
			kthread_stop(t->task);
		res->ops_done += t->done_ops;
		res->creates += t->creates;
		res->closes += t->closes;
		res->undocumented += t->undocumented;
		res->bad_ebadf += t->bad_ebadf;
		res->bad_state += t->bad_state;
	}

	for (i = 0; i < FZ_NSLOTS; i++) {
		spin_lock(&fz_slots[i].lock);
		desc = fz_slots[i].desc;
		fz_slots[i].desc = NULL;
		spin_unlock(&fz_slots[i].lock);
		if (desc && !pfmk_close(desc))
			res->closes++;
	}
	res->closes += fz_partner_closes;
	if (!cpu_online(FZ_HP_CPU) && hotplug && fz_cpu_up())
		pr_info("# CPU 1 brought back online at the end\n");

	res->freed_ok = fz_wait_freed(&start, &now);
	pr_info("# at end: ctx_alive %llu ctx_open %llu events %llu smpl_bytes %llu mem_bytes %llu\n",
		now.ctx_alive, now.ctx_open, now.events, now.smpl_bytes,
		now.mem_bytes);
	pr_info("# created %llu (fuzzer: %lu), freed %llu, closed by the fuzzer %lu; cpu_offline %llu cpu_online %llu rearm_failed %llu\n",
		now.ctx_created - start.ctx_created, res->creates,
		now.ctx_freed - start.ctx_freed, res->closes,
		now.cpu_offline - start.cpu_offline,
		now.cpu_online - start.cpu_online,
		now.rearm_failed - start.rearm_failed);
	if (now.ctx_created - start.ctx_created != res->creates ||
	    now.ctx_freed - start.ctx_freed != res->creates ||
	    res->closes != res->creates)
		res->freed_ok = false;

	fz_print_table();
	pr_info("# partner wake-ups: complete %d, close %d, signal %d\n",
		atomic_read(&fz_partner_wakes[0]),
		atomic_read(&fz_partner_wakes[1]),
		atomic_read(&fz_partner_wakes[2]));
	pr_info("# %lu ops in %llu ms: %llu ops/s; hotplug cycles %lu (remove failed %lu, add failed %lu)\n",
		res->ops_done, div_u64(res->elapsed_ns, NSEC_PER_MSEC),
		div64_u64((u64)res->ops_done * NSEC_PER_SEC,
			  max_t(u64, res->elapsed_ns, 1)),
		fz_hp_cycles, fz_hp_remove_failed, fz_hp_add_failed);
}

/* The hotplug test. */

#define HP_TICKS	100
#define HP_PERIOD	10
#define HP_STEP1	3
#define HP_STEP_SMPL1	2
#define HP_SMPL_BUF	(64 * 1024)

enum { HP_COUNT, HP_SMPL, HP_CLOCK, HP_NCTX };

static const char * const hp_ctx_name[HP_NCTX] = {
	"counting", "sampling", "cpu-clock",
};

/**
 * struct hp_state - the hotplug test
 * @desc: the three contexts.
 * @done: their completions.
 * @hdr: the sampling buffer of @desc[HP_SMPL].
 * @last: last value read of PMD 0 and 1 of each context.
 * @fail: failed checks per KTAP case.
 * @cycles: cycles run.
 */
struct hp_state {
	void			*desc[HP_NCTX];
	struct completion	done[HP_NCTX];
	struct pfm_dfl_smpl_hdr	*hdr;
	u64			last[HP_NCTX][2];
	unsigned int		fail[4];
	unsigned int		cycles;
};

enum { HP_CASE_COUNT, HP_CASE_SMPL, HP_CASE_MSGS, HP_CASE_STATS };

static const char * const hp_case_name[] = {
	"hotplug_counting", "hotplug_sampling", "hotplug_messages",
	"hotplug_global_stats",
};

static bool hp_fail(struct hp_state *hp, unsigned int c, const char *fmt, ...)
	__printf(3, 4);

static bool hp_fail(struct hp_state *hp, unsigned int c, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (hp->fail[c]++ < 8) {
		va_start(args, fmt);
		vaf.fmt = fmt;
		vaf.va = &args;
		pr_info("# %s: cycle %u: %pV\n", hp_case_name[c], hp->cycles,
			&vaf);
		va_end(args);
	}
	return false;
}

static int hp_create(struct hp_state *hp, int i, bool test, bool smpl)
{
	static const pfm_uuid_t uuid = PFM_DFL_SMPL_UUID;
	struct pfm_dfl_smpl_arg arg;
	struct pfarg_ctx req;
	void *buf = NULL;
	int ret;

	memset(&req, 0, sizeof(req));
	memset(&arg, 0, sizeof(arg));
	req.ctx_flags = PFM_FL_SYSTEM_WIDE;
	if (test)
		strscpy(req.ctx_pmu_name, PFMK_TEST_PMU_NAME,
			sizeof(req.ctx_pmu_name));
	if (smpl) {
		memcpy(req.ctx_smpl_buf_id, uuid, sizeof(uuid));
		arg.buf_size = HP_SMPL_BUF;
	}
	init_completion(&hp->done[i]);
	ret = pfmk_create_context(&req, smpl ? &arg : NULL,
				  smpl ? sizeof(arg) : 0, &hp->done[i],
				  &hp->desc[i], &buf);
	if (smpl)
		hp->hdr = buf;
	return ret;
}

static int hp_setup(struct hp_state *hp)
{
	struct pfarg_load load = { .load_pid = FZ_HP_CPU };
	struct pfarg_pmc pmc[2];
	struct pfarg_pmd pmd[2];
	int i, ret;

	ret = hp_create(hp, HP_COUNT, true, false) ?:
	      hp_create(hp, HP_SMPL, true, true) ?:
	      hp_create(hp, HP_CLOCK, false, false);
	if (ret)
		return ret;

	memset(pmc, 0, sizeof(pmc));
	pmc[0].reg_num = 0;
	pmc[0].reg_value = PFMK_TEST_PMC(1);
	pmc[1].reg_num = 1;
	pmc[1].reg_value = PFMK_TEST_PMC(HP_STEP1);
	ret = pfmk_write_pmcs(hp->desc[HP_COUNT], pmc, 2);
	if (ret)
		return ret;
	pmc[1].reg_value = PFMK_TEST_PMC(HP_STEP_SMPL1);
	ret = pfmk_write_pmcs(hp->desc[HP_SMPL], pmc, 2);
	if (ret)
		return ret;
	memset(pmd, 0, sizeof(pmd));
	pmd[0].reg_num = 0;
	pmd[0].reg_value = -(u64)HP_PERIOD;
	pmd[0].reg_short_reset = -(u64)HP_PERIOD;
	pmd[0].reg_long_reset = -(u64)HP_PERIOD;
	pmd[0].reg_smpl_pmds[0] = BIT_ULL(1);
	pmd[1].reg_num = 1;
	ret = pfmk_write_pmds(hp->desc[HP_SMPL], pmd, 2);
	if (ret)
		return ret;
	memset(pmc, 0, sizeof(pmc));
	pmc[0].reg_value = PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK);
	ret = pfmk_write_pmcs(hp->desc[HP_CLOCK], pmc, 1);
	if (ret)
		return ret;
	for (i = 0; i < HP_NCTX; i++) {
		ret = pfmk_load_context(hp->desc[i], &load) ?:
		      pfmk_start(hp->desc[i], NULL);
		if (ret)
			return ret;
	}
	/* PMD 0 of the sampling context starts at -HP_PERIOD. */
	hp->last[HP_SMPL][0] = -(u64)HP_PERIOD;
	return 0;
}

/* Read PMD 0 and 1 of context @i; never backwards (PMD 0 of HP_SMPL wraps). */
static bool hp_read(struct hp_state *hp, int i, u64 *val)
{
	struct pfarg_pmd pmd[2];
	int ret, n = i == HP_CLOCK ? 1 : 2;

	memset(pmd, 0, sizeof(pmd));
	pmd[1].reg_num = 1;
	ret = pfmk_read_pmds(hp->desc[i], pmd, n);
	if (ret)
		return hp_fail(hp, i == HP_SMPL ? HP_CASE_SMPL : HP_CASE_COUNT,
			       "%s: read_pmds: %d", hp_ctx_name[i], ret);
	val[0] = pmd[0].reg_value;
	val[1] = n == 2 ? pmd[1].reg_value : 0;
	if ((i != HP_SMPL && val[0] < hp->last[i][0]) ||
	    val[1] < hp->last[i][1])
		hp_fail(hp, i == HP_SMPL ? HP_CASE_SMPL : HP_CASE_COUNT,
			"%s: went backwards: %llu %llu after %llu %llu",
			hp_ctx_name[i], val[0], val[1], hp->last[i][0],
			hp->last[i][1]);
	return true;
}

/* Check the exact counts after @ticks ticks of this cycle. */
static void hp_check_counts(struct hp_state *hp, u64 total_ticks)
{
	u64 v[2], n;

	if (hp_read(hp, HP_COUNT, v)) {
		if (v[0] != total_ticks || v[1] != HP_STEP1 * total_ticks)
			hp_fail(hp, HP_CASE_COUNT,
				"counting: PMDs %llu %llu, expected %llu %llu",
				v[0], v[1], total_ticks,
				HP_STEP1 * total_ticks);
		hp->last[HP_COUNT][0] = v[0];
		hp->last[HP_COUNT][1] = v[1];
	}
	if (hp_read(hp, HP_SMPL, v)) {
		if (v[1] != HP_STEP_SMPL1 * total_ticks)
			hp_fail(hp, HP_CASE_SMPL, "sampling: PMD1 %llu, expected %llu",
				v[1], HP_STEP_SMPL1 * total_ticks);
		hp->last[HP_SMPL][1] = v[1];
	}
	/* Entries below hdr_count are complete: pairs with the writer. */
	n = smp_load_acquire(&hp->hdr->hdr_count);
	if (n != total_ticks / HP_PERIOD)
		hp_fail(hp, HP_CASE_SMPL, "sampling: %llu entries, expected %llu",
			n, total_ticks / HP_PERIOD);
}

/* Wait for a message of @type on every context; check its fields. */
static void hp_wait_msgs(struct hp_state *hp, u32 type)
{
	unsigned long end = jiffies + msecs_to_jiffies(FZ_WAIT_MS);
	bool got[HP_NCTX] = { };
	unsigned int i, left = HP_NCTX;
	union pfm_msg msg;
	ssize_t ret;

	while (left) {
		for (i = 0; i < HP_NCTX; i++) {
			if (got[i])
				continue;
			ret = pfmk_read(hp->desc[i], &msg, sizeof(msg), 1);
			if (ret == -EAGAIN)
				continue;
			if (ret != sizeof(msg)) {
				hp_fail(hp, HP_CASE_MSGS, "%s: pfmk_read: %zd",
					hp_ctx_name[i], ret);
				got[i] = true;
				left--;
				continue;
			}
			if (msg.type != type ||
			    msg.pfmk_cpu_msg.msg_cpu != FZ_HP_CPU ||
			    msg.pfmk_cpu_msg.msg_cycle != hp->cycles + 1)
				hp_fail(hp, HP_CASE_MSGS,
					"%s: message type 0x%x cpu %u cycle %llu, expected 0x%x cpu %d cycle %u",
					hp_ctx_name[i], msg.type,
					msg.pfmk_cpu_msg.msg_cpu,
					msg.pfmk_cpu_msg.msg_cycle, type,
					FZ_HP_CPU, hp->cycles + 1);
			got[i] = true;
			left--;
		}
		if (!left)
			break;
		if (time_after(jiffies, end)) {
			for (i = 0; i < HP_NCTX; i++)
				if (!got[i])
					hp_fail(hp, HP_CASE_MSGS,
						"%s: no 0x%x message within %d ms",
						hp_ctx_name[i], type,
						FZ_WAIT_MS);
			break;
		}
		usleep_range(500, 1000);
	}
}

/* Poll until no context shows PFMK_STATE_OFFLINE (re-armed). */
static void hp_wait_rearmed(struct hp_state *hp)
{
	unsigned long end = jiffies + msecs_to_jiffies(FZ_WAIT_MS);
	int i, st;

	for (i = 0; i < HP_NCTX; i++) {
		for (;;) {
			st = pfmk_get_state(hp->desc[i]);
			if (st < 0 || !(st & PFMK_STATE_OFFLINE))
				break;
			if (time_after(jiffies, end))
				break;
			usleep_range(500, 1000);
		}
		if (st != (PFM_CTX_LOADED | PFMK_STATE_STARTED))
			hp_fail(hp, i == HP_SMPL ? HP_CASE_SMPL : HP_CASE_COUNT,
				"%s: state 0x%x after re-arm", hp_ctx_name[i],
				st);
	}
}

static void hp_cycle(struct hp_state *hp, u64 *total_ticks)
{
	union pfm_msg msg;
	unsigned int i;
	u64 v[2], clk;
	int st, ret;

	/* Online: everything counts. */
	pfmk_test_pmu_tick(FZ_HP_CPU, HP_TICKS);
	*total_ticks += HP_TICKS;
	hp_check_counts(hp, *total_ticks);
	if (hp_read(hp, HP_CLOCK, v)) {
		if (v[0] <= hp->last[HP_CLOCK][0])
			hp_fail(hp, HP_CASE_COUNT,
				"cpu-clock did not grow: %llu after %llu",
				v[0], hp->last[HP_CLOCK][0]);
		hp->last[HP_CLOCK][0] = v[0];
	}
	if (pfmk_test_pmu_nr_active(FZ_HP_CPU) != 4)
		hp_fail(hp, HP_CASE_COUNT, "%u test PMU events active, expected 4",
			pfmk_test_pmu_nr_active(FZ_HP_CPU));

	ret = remove_cpu(FZ_HP_CPU);
	if (ret) {
		hp_fail(hp, HP_CASE_COUNT, "remove_cpu: %d", ret);
		return;
	}
	hp_wait_msgs(hp, PFMK_MSG_CPU_OFFLINE);
	for (i = 0; i < HP_NCTX; i++) {
		st = pfmk_get_state(hp->desc[i]);
		if (st != (PFM_CTX_LOADED | PFMK_STATE_STARTED |
			   PFMK_STATE_OFFLINE))
			hp_fail(hp, HP_CASE_MSGS,
				"%s: state 0x%x while CPU 1 is offline",
				hp_ctx_name[i], st);
	}
	/* Offline: the saved values, ticks go nowhere. */
	pfmk_test_pmu_tick(FZ_HP_CPU, HP_TICKS);
	hp_check_counts(hp, *total_ticks);
	if (hp_read(hp, HP_CLOCK, v))
		hp->last[HP_CLOCK][0] = v[0];
	clk = hp->last[HP_CLOCK][0];

	if (!fz_cpu_up()) {
		hp_fail(hp, HP_CASE_COUNT, "add_cpu failed");
		return;
	}
	hp_wait_msgs(hp, PFMK_MSG_CPU_ONLINE);
	hp_wait_rearmed(hp);
	for (i = 0; i < HP_NCTX; i++)
		if (pfmk_read(hp->desc[i], &msg, sizeof(msg), 1) != -EAGAIN)
			hp_fail(hp, HP_CASE_MSGS, "%s: extra message",
				hp_ctx_name[i]);
	usleep_range(1000, 2000);
	if (hp_read(hp, HP_CLOCK, v) && v[0] <= clk)
		hp_fail(hp, HP_CASE_COUNT,
			"cpu-clock did not grow after re-arm: %llu after %llu",
			v[0], clk);
	hp->cycles++;
}

static void hp_run(unsigned int first_case)
{
	struct pfmk_global_stats g0, g1;
	struct hp_state *hp;
	const char *why = fz_hp_unavailable();
	u64 total_ticks = 0, off, on;
	unsigned int i, c;
	int ret;

	if (!hp_cycles)
		why = "hp_cycles=0";
	if (why) {
		for (c = 0; c < ARRAY_SIZE(hp_case_name); c++)
			pr_info("ok %u %s # SKIP %s\n", first_case + c,
				hp_case_name[c], why);
		return;
	}
	hp = kzalloc(sizeof(*hp), GFP_KERNEL);
	if (!hp) {
		for (c = 0; c < ARRAY_SIZE(hp_case_name); c++)
			pr_info("not ok %u %s\n", first_case + c,
				hp_case_name[c]);
		return;
	}
	ret = pfmk_get_global_stats(&g0);
	if (ret)
		hp_fail(hp, HP_CASE_STATS, "pfmk_get_global_stats: %d", ret);
	ret = hp_setup(hp);
	if (ret) {
		hp_fail(hp, HP_CASE_COUNT, "setup: %d", ret);
	} else {
		for (i = 0; i < hp_cycles; i++) {
			hp_cycle(hp, &total_ticks);
			if (hp->cycles != i + 1)
				break;
		}
	}
	pr_info("# hotplug: %u of %u cycles of CPU 1 with 3 contexts loaded on it\n",
		hp->cycles, hp_cycles);
	if (!ret && hp->cycles != hp_cycles)
		hp_fail(hp, HP_CASE_COUNT, "stopped after %u cycles", hp->cycles);
	ret = pfmk_get_global_stats(&g1);
	if (ret) {
		hp_fail(hp, HP_CASE_STATS, "pfmk_get_global_stats: %d", ret);
	} else {
		off = g1.cpu_offline - g0.cpu_offline;
		on = g1.cpu_online - g0.cpu_online;
		pr_info("# hotplug: cpu_offline +%llu cpu_online +%llu rearm_failed +%llu\n",
			off, on, g1.rearm_failed - g0.rearm_failed);
		if (off != HP_NCTX * hp->cycles || on != HP_NCTX * hp->cycles ||
		    g1.rearm_failed != g0.rearm_failed)
			hp_fail(hp, HP_CASE_STATS,
				"cpu_offline +%llu, cpu_online +%llu, rearm_failed +%llu; expected +%u, +%u, +0",
				off, on, g1.rearm_failed - g0.rearm_failed,
				HP_NCTX * hp->cycles, HP_NCTX * hp->cycles);
	}
	for (i = 0; i < HP_NCTX; i++)
		if (hp->desc[i] && pfmk_close(hp->desc[i]))
			hp_fail(hp, HP_CASE_COUNT, "%s: close failed",
				hp_ctx_name[i]);
	if (!cpu_online(FZ_HP_CPU))
		fz_cpu_up();
	for (c = 0; c < ARRAY_SIZE(hp_case_name); c++)
		pr_info("%s %u %s\n", hp->fail[c] ? "not ok" : "ok",
			first_case + c, hp_case_name[c]);
	kfree(hp);
}

static void fz_free_threads(void)
{
	unsigned int i;

	for (i = 0; i < fz_nthreads; i++) {
		struct fz_thread *t = fz_threads[i];

		kvfree(t->pmcs);
		kvfree(t->pmds);
		kvfree(t->times);
		kvfree(t->sets);
		kvfree(t->infos);
		kvfree(t);
		fz_threads[i] = NULL;
	}
	fz_nthreads = 0;
}

static int fz_alloc_threads(void)
{
	unsigned int i, n = clamp_val(threads, 1, FZ_MAX_THREADS);

	for (i = 0; i < n; i++) {
		struct fz_thread *t = kvzalloc(sizeof(*t), GFP_KERNEL);

		if (!t)
			return -ENOMEM;
		fz_threads[fz_nthreads++] = t;
		t->id = i;
		t->rng = fz_seed_of(seed, i);
		t->nops = ops / n + (i < ops % n);
		t->blocked_slot = -1;
		t->pmcs = kvcalloc(PFM_MAX_PMCS, sizeof(*t->pmcs), GFP_KERNEL);
		t->pmds = kvcalloc(PFM_MAX_PMDS, sizeof(*t->pmds), GFP_KERNEL);
		t->times = kvcalloc(PFM_MAX_PMDS, sizeof(*t->times), GFP_KERNEL);
		t->sets = kvcalloc(PFM_MAX_PMCS, sizeof(*t->sets), GFP_KERNEL);
		t->infos = kvcalloc(PFM_MAX_PMCS, sizeof(*t->infos), GFP_KERNEL);
		if (!t->pmcs || !t->pmds || !t->times || !t->sets || !t->infos)
			return -ENOMEM;
	}
	return 0;
}

static void fz_ktap(unsigned int n, const char *name, bool ok)
{
	pr_info("%s %u %s\n", ok ? "ok" : "not ok", n, name);
}

static int __init pfmk_fuzz_init(void)
{
	struct fz_result res;
	unsigned int i;

	for (i = 0; i < FZ_NR_OPS; i++)
		fz_weight_total += fz_op_weight[i];
	for (i = 0; i < FZ_NSLOTS; i++) {
		spin_lock_init(&fz_slots[i].lock);
		init_completion(&fz_slots[i].done);
	}
	pr_info("KTAP version 1\n");
	pr_info("1..%zu\n", 6 + ARRAY_SIZE(hp_case_name));
	if (fz_alloc_threads()) {
		fz_free_threads();
		for (i = 1; i <= 6; i++)
			pr_info("not ok %u fuzz # out of memory\n", i);
	} else {
		fz_run(&res);
		fz_ktap(1, "ops_completed", res.ops_done == ops);
		fz_ktap(2, "errnos_documented", !res.undocumented);
		fz_ktap(3, "forged_handles_ebadf", !res.bad_ebadf);
		fz_ktap(4, "states_valid", !res.bad_state);
		fz_ktap(5, "all_contexts_freed", res.freed_ok);
		if (fz_hp_skip)
			pr_info("ok 6 hotplug_cycles # SKIP %s\n", fz_hp_skip);
		else
			fz_ktap(6, "hotplug_cycles",
				fz_hp_cycles > 0 && !fz_hp_cpu_lost);
		fz_free_threads();
	}
	hp_run(7);
	pr_info("# pfmk_fuzz: done\n");
	return 0;
}

static void __exit pfmk_fuzz_exit(void)
{
}

module_init(pfmk_fuzz_init);
module_exit(pfmk_fuzz_exit);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk KAPI fuzzer and CPU hotplug test (KTAP output)");
MODULE_LICENSE("GPL");
