// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_fuzz: a seeded random fuzzer of the pfmk KAPI with an oracle.  Runs
 * at module load and prints a KTAP document (pfmk_ktap.h).  The
 * deterministic CPU hotplug test is pfmk_hotplug_stress.c.
 *
 * Fuzzer: @threads kernel threads issue @ops random KAPI calls in total,
 * with valid and invalid arguments, on a table of FZ_NSLOTS shared
 * descriptors, plus forged handles and stale handles of closed contexts.
 * Some contexts sample with the default format on the "pfmk_test" PMU,
 * which the threads tick on CPU 0 and 1.  AUX calls, the global counters
 * and the registration and unregistration of a PMU description of this
 * module ("pfmk_fuzz") are part of the mix.  With @hotplug, another thread
 * takes CPU 1 offline and online again all along.
 *
 * The oracle: each slot of the table has a model of its context (loaded
 * or not, on which CPU, started, masked, its sets, the class of each PMC,
 * the value of PMDs 0-7 of set 0, an AUX set-up), kept under the slot's
 * mutex.  A call that changes a context takes the mutex for the call and
 * its update of the model, so that no other fuzzer thread acts on that
 * context meanwhile; the result must be the exact outcome the model
 * predicts from the state and the arguments (api.rst's order: descriptor,
 * arguments, state).  What other threads and the hardware still change
 * behind the mutex is bounded and widens the prediction to exactly the
 * outcomes it allows:
 *
 *  - overflows mask a started context at any time: restart of a context
 *    that may be masked gives 0 or -EBUSY, pfmk_get_state() LOADED or
 *    MASKED; a MASKED state seen under the mutex stays until restart;
 *  - the hotplug thread: a load on CPU 1 may give -ENODEV, and a context
 *    loaded there may show PFMK_STATE_OFFLINE;
 *  - other threads tick the test PMU: counts of started contexts are
 *    predicted only in the deterministic mode (below); in every mode the
 *    values of a stopped or unloaded context's PMDs are exact (as written)
 *    or stable (as first read after a stop);
 *  - max_events is pfmk-wide: loads and reprogramming may give -ENOMEM.
 *
 * Calls that change nothing (reads, states, statistics, messages) run
 * partly without the mutex, racing with every other call on the context:
 * they may then also give -EBADF (a racing close), and an argument that
 * is invalid whatever the state must give its errno, never 0.  Messages
 * are checked by type and content against the model; blocking reads are
 * woken by a partner (complete(), close or signal).
 *
 * Floors: minimum numbers of successful creates, loads, starts and
 * overflows per 100000 operations (FZ_FLOOR_*); messages are counted.
 *
 * Deterministic mode: with threads=1 and hotplug=0 the single thread runs
 * on CPU 0 and ticks only CPU 0, generic contexts count no time-based
 * events, and the exact PMD values of started test PMU contexts are
 * predicted; the calls (and the exactly predicted results) then follow
 * from the seed alone, so a report replays.  Each load first runs that
 * mode with seed 1 (a fixed regression run) and twice with @seed, and the
 * two runs with @seed must hash the same.
 *
 * Module init always returns 0: the harness reads the verdict from KTAP.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/bitops.h>
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
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/prandom.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/aux.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_ktap.h"
#include "pfmk_test_cpu.h"
#include "pfmk_test_pmu.h"

static ulong seed = 1;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the fuzzer's generators (printed; replay with it)");

static uint ops = 20000;
module_param(ops, uint, 0444);
MODULE_PARM_DESC(ops, "total number of fuzzer operations, all threads together");

static uint threads = 4;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "number of fuzzer threads (1 to 8; 1 and hotplug=0: deterministic)");

static bool hotplug = true;
module_param(hotplug, bool, 0444);
MODULE_PARM_DESC(hotplug, "toggle CPU 1 offline and online during the fuzzing");

static uint det_ops = 3000;
module_param(det_ops, uint, 0444);
MODULE_PARM_DESC(det_ops, "operations of each deterministic run (seed 1, then twice the seed)");

static bool aux_expected;
module_param(aux_expected, bool, 0444);
MODULE_PARM_DESC(aux_expected, "the kernel has pfmk's AUX patch (set by the harness)");

#define FZ_MAX_THREADS		8
#define FZ_NSLOTS		16
#define FZ_STALE		8
#define FZ_TRACE		16
#define FZ_MAX_REPORTS		24
#define FZ_FULL_DUMPS		3
#define FZ_HP_CPU		1
#define FZ_MAX_SETS		64	/* PFMK_MAX_SETS */
#define FZ_MAX_REGS		64	/* PMCs of the largest description */
#define FZ_VREGS		8	/* PMDs of set 0 whose values are modelled */
#define FZ_PMU_NAME		"pfmk_fuzz"
#define FZ_PMU_REGS		4
/* Sampling periods of generic events: at least 1 ms, TCG is slow. */
#define FZ_GEN_PERIOD_MIN	1000000ULL
#define FZ_TEST_PERIOD_MAX	200
/* Partner: wake a blocked pfmk_read() after this long. */
#define FZ_BLOCK_MS		5
#define FZ_WAIT_MS		5000

/*
 * Floors per 100000 operations of the main run (4 threads, hotplug):
 * about a fifth of the lowest of the runs measured (testing.rst).
 */
#define FZ_FLOOR_CREATES	400
#define FZ_FLOOR_LOADS		250
#define FZ_FLOOR_STARTS		120
#define FZ_FLOOR_OVERFLOWS	60
#define FZ_FLOOR_MESSAGES	0	/* printed, not judged: see the KTAP loop */

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
	FZ_AUX_SETUP,
	FZ_AUX_COPY,
	FZ_GLOBAL_STATS,
	FZ_PMU_TOGGLE,
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
	[FZ_AUX_SETUP]		= "aux_setup",
	[FZ_AUX_COPY]		= "aux_copy",
	[FZ_GLOBAL_STATS]	= "get_global_stats",
	[FZ_PMU_TOGGLE]		= "pmu_(un)register",
	[FZ_TICK]		= "test_pmu_tick",
};

/*
 * Relative frequency of each operation.  Creation evicts (closes) the
 * context of its slot: at 4 in ~120, a context lives some 400 calls,
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

/* Outcomes, as bits: the errnos kapi/kapi.c documents, 0 and a message. */
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
#define E_NXIO		BIT(12)
#define E_OK		BIT(13)	/* 0 */
#define E_MSG		BIT(14)	/* pfmk_read(): sizeof(union pfm_msg) */

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

/* Result histogram buckets: 0, positive, errno 1..FZ_MAX_ERRNO, others. */
#define FZ_MAX_ERRNO		133
#define FZ_H_OK			0
#define FZ_H_POS		(FZ_MAX_ERRNO + 1)
#define FZ_H_RESTARTSYS		(FZ_MAX_ERRNO + 2)
#define FZ_H_OTHER		(FZ_MAX_ERRNO + 3)
#define FZ_NHIST		(FZ_MAX_ERRNO + 4)

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

/* PMU descriptions of the contexts in the table. */
enum fz_kind {
	FZ_KIND_GENERIC,
	FZ_KIND_TEST,
	FZ_KIND_FUZZ,	/* this module's "pfmk_fuzz": dummy events */
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

/* Class of a PMC value. */
enum fz_cls {
	FZ_C_OFF,	/* valid, no event */
	FZ_C_SW,	/* valid, an event every machine has */
	FZ_C_HW,	/* valid, a hardware event (a PMU may lack it) */
	FZ_C_BAD,	/* rejected by pfmk_write_pmcs() */
};

/* What the model knows of a PMD value. */
enum fz_vstate {
	FZ_V_UNKNOWN,	/* counting, or changed by an overflow */
	FZ_V_KNOWN,	/* exactly val */
	FZ_V_LATCH,	/* stable until the next start: the next read sets it */
};

/* Masked or not, as far as the model knows. */
enum { FZ_M_NO, FZ_M_MAYBE, FZ_M_YES };

/**
 * struct fz_model - what the oracle knows of a slot's context
 * @loaded: loaded on @cpu.
 * @cpu: the CPU, when loaded.
 * @started: monitoring started.
 * @mask: FZ_M_*: an overflow may mask a started context at any time.
 * @smpl: created with the default sampling format.
 * @no_msg: created with PFM_FL_OVFL_NO_MSG.
 * @aux: an AUX set-up (pfmk_aux_setup() succeeded).
 * @rules: a set was given switching flags (values no longer predicted).
 * @ever_started: a start was tried (messages need one).
 * @cpus: CPUs a load was tried on (messages name one).
 * @nsets: number of sets; @set_id[0] is set 0.
 * @set_id: the sets' ids.
 * @cls: enum fz_cls of each PMC of each set.
 * @pmc: values of PMCs 0 to FZ_VREGS - 1 of set 0.
 * @vstate: enum fz_vstate of PMDs 0 to FZ_VREGS - 1 of set 0.
 * @val: their values.
 */
struct fz_model {
	bool		loaded;
	int		cpu;
	bool		started;
	u8		mask;
	bool		smpl;
	bool		no_msg;
	bool		aux;
	bool		rules;
	bool		ever_started;
	u32		cpus;
	unsigned int	nsets;
	u16		set_id[FZ_MAX_SETS];
	u8		cls[FZ_MAX_SETS][FZ_MAX_REGS];
	u64		pmc[FZ_VREGS];
	u8		vstate[FZ_VREGS];
	u64		val[FZ_VREGS];
};

/**
 * struct fz_slot - an entry of the shared descriptor table
 * @lock: protects @desc, @kind and @m; held across the calls that the
 *	oracle predicts exactly.
 * @desc: descriptor, or NULL.
 * @kind: enum fz_kind of @desc.
 * @m: the model of @desc's context.
 * @done: completion of every context created for this slot; static, so
 *	it outlives them.
 */
struct fz_slot {
	struct mutex		lock;	/* protects desc, kind, m */
	void			*desc;
	enum fz_kind		kind;
	struct fz_model		m;
	struct completion	done;
};

static struct fz_slot *fz_slots;

/**
 * struct fz_trace - one entry of a thread's recent-call ring
 * @n: operation number in the thread.
 * @op: enum fz_op.
 * @hkind: enum fz_handle.
 * @slot: slot index, or -1.
 * @locked: the call ran under the slot's mutex.
 * @handle: the descriptor passed.
 * @arg: main argument (count, CPU, flags, size), for the report.
 * @expect: the outcomes the oracle allowed.
 * @ret: result.
 */
struct fz_trace {
	u32	n;
	u8	op;
	u8	hkind;
	s8	slot;
	u8	locked;
	u64	handle;
	s64	arg;
	u32	expect;
	long	ret;
};

/* Failure kinds, one KTAP case each. */
enum {
	FZ_F_UNDOC,	/* outside the Return: line */
	FZ_F_BADF,	/* forged or stale handle without -EBADF */
	FZ_F_STATE,	/* pfmk_get_state() not what the model allows */
	FZ_F_ORACLE,	/* an outcome the model does not allow */
	FZ_F_VALUE,	/* a PMD value the model contradicts */
	FZ_F_MSG,	/* a message of a wrong type or content */
	FZ_F_NR,
};

static const char * const fz_fail_name[FZ_F_NR] = {
	"UNDOCUMENTED", "BADF", "STATE", "ORACLE", "VALUE", "MSG",
};

/* Successes counted for the floors. */
enum { FZ_N_CREATE, FZ_N_LOAD, FZ_N_START, FZ_N_OVFL, FZ_N_MSG, FZ_N_NR };

static const char * const fz_floor_name[FZ_N_NR] = {
	"creates", "loads", "starts", "overflows", "messages",
};

static const unsigned int fz_floor[FZ_N_NR] = {
	FZ_FLOOR_CREATES, FZ_FLOOR_LOADS, FZ_FLOOR_STARTS, FZ_FLOOR_OVERFLOWS,
	FZ_FLOOR_MESSAGES,
};

/**
 * struct fz_thread - a fuzzer thread
 * @task: the kthread.
 * @id: index.
 * @rng: its generator, seeded from the seed and @id.
 * @nops: operations to run.
 * @done_ops: operations run.
 * @finished: all @nops run.
 * @blocked_slot: slot whose descriptor a blocking pfmk_read() waits on,
 *	or -1; read by the partner.
 * @blocked_since: jiffies when @blocked_slot was set.
 * @wake_how: how the partner wakes it (deterministic mode: drawn by the
 *	thread).
 * @block_seq: blocking reads started.
 * @partner_seq: the last of them the partner woke (deterministic mode).
 * @closes: successful pfmk_close() calls.
 * @fail: failures per FZ_F_*.
 * @n: successes per FZ_N_*.
 * @hash: hash of the calls and of the exactly predicted results.
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
	struct rnd_state	rng;
	unsigned long		nops;
	unsigned long		done_ops;
	bool			finished;
	int			blocked_slot;
	unsigned long		blocked_since;
	unsigned int		wake_how;
	unsigned long		block_seq;
	unsigned long		partner_seq;
	unsigned long		closes;
	unsigned long		fail[FZ_F_NR];
	u64			n[FZ_N_NR];
	u64			hash;
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

/* The run in progress. */
static struct fz_thread *fz_threads[FZ_MAX_THREADS];
static unsigned int fz_nthreads;
static ulong fz_seed;		/* seed of the run */
static bool fz_det;		/* deterministic run */
static bool fz_hp_on;		/* the hotplug thread runs */
static bool fz_no_hw;		/* perf has no hardware PMU */
static atomic_t fz_reports[FZ_F_NR + 1];
static atomic_t fz_partner_wakes[3];
static unsigned long fz_partner_closes;
static atomic64_t fz_ovfl_closed = ATOMIC64_INIT(0);
static unsigned int fz_weight_total;

/* The PMU description "pfmk_fuzz", registered and unregistered. */
static DEFINE_MUTEX(fz_pmu_lock);
static bool fz_pmu_registered;

/* The hotplug thread, and why it did not run. */
static struct task_struct *fz_hp_task;
static const char *fz_hp_skip;
static unsigned long fz_hp_cycles;
static unsigned long fz_hp_remove_failed;
static unsigned long fz_hp_add_failed;
static bool fz_hp_cpu_lost;

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

static u64 fz_seed_of(unsigned long s, unsigned int id)
{
	u64 z = s + 0x9e3779b97f4a7c15ULL * (id + 1);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void fz_hash(struct fz_thread *t, u64 v)
{
	t->hash = (t->hash ^ v) * 0x100000001b3ULL;
}

static unsigned int fz_nregs(enum fz_kind kind)
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
static int fz_set_idx(const struct fz_model *m, u16 id)
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
static struct fz_slot *fz_slot_of(int s)
{
	return &fz_slots[s < 0 ? 0 : s];
}

static void fz_record(struct fz_thread *t, enum fz_op op, enum fz_handle hk,
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

static bool fz_report_ok(void)
{
	return atomic_inc_return(&fz_reports[FZ_F_NR]) <= FZ_MAX_REPORTS;
}

/* Count a failure; report the first ones with every thread's calls. */
static void fz_fail(struct fz_thread *t, unsigned int kind, const char *fmt,
		    ...) __printf(3, 4);

static void fz_fail(struct fz_thread *t, unsigned int kind, const char *fmt,
		    ...)
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
static void fz_check(struct fz_thread *t, enum fz_op op, enum fz_handle hk,
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

/* What a call on a loaded context may get from perf's events. */
static u32 fz_event_outcomes(bool hw)
{
	/* max_events is pfmk-wide: another thread's events count too. */
	u32 e = fz_det ? 0 : E_NOMEM;

	if (hw)
		return e | E_OPNOTSUPP | (fz_no_hw ? 0 : E_OK | E_INVAL | E_NOENT);
	return e | E_OK;
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
static int fz_close_locked(struct fz_thread *t, struct fz_slot *slot,
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

static void fz_op_create(struct fz_thread *t)
{
	static const pfm_uuid_t dfl_uuid = PFM_DFL_SMPL_UUID;
	static const u64 sizes[] = { 1024, 4096, 8192, 16384 };
	struct pfm_dfl_smpl_arg arg;
	void *smpl_arg = NULL, *desc = NULL, *buf = NULL, *old;
	void **descp;
	size_t smpl_size = 0;
	struct completion *c;
	struct pfarg_ctx req;
	enum fz_kind kind = FZ_KIND_GENERIC;
	bool smpl = false, fmt_unknown = false, name_ok = true, pmu_lock;
	int s = fz_below(t, FZ_NSLOTS);
	struct fz_slot *slot = &fz_slots[s];
	unsigned int i;
	u32 expect;
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
	if (r < 40) {
		kind = FZ_KIND_TEST;
		strscpy(req.ctx_pmu_name, PFMK_TEST_PMU_NAME,
			sizeof(req.ctx_pmu_name));
	} else if (r < 48) {
		kind = FZ_KIND_FUZZ;
		strscpy(req.ctx_pmu_name, FZ_PMU_NAME, sizeof(req.ctx_pmu_name));
	} else if (r < 85) {
		;	/* "" selects generic */
	} else if (r < 92) {
		strscpy(req.ctx_pmu_name, PFMK_GENERIC_NAME,
			sizeof(req.ctx_pmu_name));
	} else if (r < 96) {
		strscpy(req.ctx_pmu_name, "pfmk_nonexistent",
			sizeof(req.ctx_pmu_name));
		name_ok = false;
	} else {
		memset(req.ctx_pmu_name, 'x', sizeof(req.ctx_pmu_name));
	}

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
		/* An unknown format (never the default's UUID). */
		for (i = 0; i < sizeof(req.ctx_smpl_buf_id); i++)
			req.ctx_smpl_buf_id[i] = fz_rand(t);
		req.ctx_smpl_buf_id[0] = ~dfl_uuid[0];
		fmt_unknown = true;
		smpl_arg = &arg;
		smpl_size = sizeof(arg);
	} else if (r < 40) {
		/* An argument without a format. */
		smpl_arg = &arg;
		smpl_size = sizeof(arg);
	}
	c = fz_pct(t, 98) ? &slot->done : NULL;
	descp = fz_pct(t, 98) ? &desc : NULL;

	/* The prediction, in pfmk_ctx_create()'s order. */
	if (!c || !descp ||
	    !(req.ctx_flags & PFM_FL_SYSTEM_WIDE) ||
	    (req.ctx_flags & ~(PFM_FL_SYSTEM_WIDE | PFM_FL_OVFL_NO_MSG)) ||
	    !memchr(req.ctx_pmu_name, 0, sizeof(req.ctx_pmu_name)))
		expect = E_INVAL;
	else if (!name_ok)
		expect = E_NOENT;
	else
		expect = 0;	/* after the PMU: below, under fz_pmu_lock */

	pmu_lock = kind == FZ_KIND_FUZZ;
	mutex_lock(&slot->lock);
	if (pmu_lock)
		mutex_lock(&fz_pmu_lock);
	if (!expect && pmu_lock && !fz_pmu_registered)
		expect = E_NOENT;
	if (!expect) {
		size_t min = sizeof(struct pfm_dfl_smpl_hdr) +
			     sizeof(struct pfm_dfl_smpl_entry) +
			     fz_nregs(kind) * sizeof(u64);

		if (!smpl && !fmt_unknown)
			expect = smpl_arg || smpl_size ? E_INVAL : E_OK;
		else if (fmt_unknown || !smpl_arg || smpl_size != sizeof(arg))
			expect = E_INVAL;
		else if (arg.buf_size < min)
			expect = E_INVAL;
		else if (arg.buf_size > (64ULL << 20))
			expect = E_2BIG;
		else
			expect = E_OK;
	}
	ret = pfmk_create_context(&req, smpl_arg, smpl_size, c, descp,
				  fz_pct(t, 80) ? &buf : NULL);
	if (pmu_lock)
		mutex_unlock(&fz_pmu_lock);
	fz_check(t, FZ_CREATE, FZ_H_SLOT, s, true, NULL, req.ctx_flags,
		 expect, ret);
	if (ret) {
		mutex_unlock(&slot->lock);
		return;
	}
	t->n[FZ_N_CREATE]++;
	if (req.ctx_fd != -1 || (smpl && !req.ctx_smpl_buf_size) ||
	    (!smpl && req.ctx_smpl_buf_size))
		fz_fail(t, FZ_F_ORACLE, "create: ctx_fd %d, ctx_smpl_buf_size %llu (sampling %d)",
			req.ctx_fd, req.ctx_smpl_buf_size, smpl);
	old = slot->desc;
	slot->desc = desc;
	slot->kind = kind;
	fz_model_init(&slot->m);
	slot->m.smpl = smpl;
	slot->m.no_msg = req.ctx_flags & PFM_FL_OVFL_NO_MSG;
	if (old) {
		ret = fz_close_locked(t, slot, old);
		fz_check(t, FZ_CLOSE, FZ_H_SLOT, s, true, old, 0, E_OK, ret);
		if (!ret)
			t->closes++;
	}
	mutex_unlock(&slot->lock);
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
	unsigned int nregs = fz_nregs(kind);
	int i, n = fz_count(t, PFM_MAX_PMCS, nregs);
	bool hw = false, locked = hk == FZ_H_SLOT;
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
	if (locked) {
		expect = fz_count_err(n, PFM_MAX_PMCS, req);
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
	}
	ret = pfmk_write_pmcs(desc, req, n);
	fz_check(t, FZ_WRITE_PMCS, hk, s, locked, desc, n, expect, ret);
	if (ret || !locked)
		return;
	for (i = 0; i < n; i++) {
		int si = fz_set_idx(m, req[i].reg_set);
		unsigned int r = req[i].reg_num;

		m->cls[si][r] = fz_pmc_cls(kind, req[i].reg_value);
		if (!si && r < FZ_VREGS)
			m->pmc[r] = req[i].reg_value;
	}
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
	u32 r;

	for (i = 0; i < n && i < PFM_MAX_PMDS; i++) {
		memset(&req[i], 0, sizeof(req[i]));
		req[i].reg_num = fz_reg(t, kind);
		req[i].reg_set = fz_set(t);
		r = fz_below(t, 100);
		if (r < 35)
			req[i].reg_flags = PFM_REGFL_OVFL_NOTIFY;
		else if (r < 42)
			req[i].reg_flags = PFM_REGFL_RANDOM |
					   (fz_pct(t, 50) ? PFM_REGFL_OVFL_NOTIFY : 0);
		else if (r < 47)
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
	if (fz_pct(t, 2))
		req = NULL;
	if (locked) {
		expect = fz_count_err(n, PFM_MAX_PMDS, req);
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
	}
	ret = pfmk_write_pmds(desc, req, n);
	fz_check(t, FZ_WRITE_PMDS, hk, s, locked, desc, n, expect, ret);
	if (ret || !locked)
		return;
	for (i = 0; i < n; i++) {
		if (req[i].reg_set || req[i].reg_num >= FZ_VREGS)
			continue;
		m->vstate[req[i].reg_num] = FZ_V_KNOWN;
		m->val[req[i].reg_num] = req[i].reg_value;
	}
}

/* Check the values read against the model; learn the latched ones. */
static void fz_check_values(struct fz_thread *t, int s,
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

static void fz_op_read_pmds(struct fz_thread *t, int s, void *desc,
			    enum fz_handle hk, enum fz_kind kind, bool locked,
			    bool time)
{
	enum fz_op op = time ? FZ_READ_PMDS_TIME : FZ_READ_PMDS;
	struct pfarg_pmd *req = t->pmds;
	struct pfmk_pmd_time *times = t->times;
	unsigned int nregs = fz_nregs(kind);
	int i, n = fz_count(t, PFM_MAX_PMDS, nregs);
	bool other_set = false;
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
	if (hk == FZ_H_SLOT) {
		expect = time && !times ? E_INVAL :
			 fz_count_err(n, PFM_MAX_PMDS, req);
		for (i = 0; !expect && i < n; i++) {
			if (req[i].reg_num >= nregs)
				expect = E_INVAL;
			else if (locked &&
				 fz_set_idx(&fz_slot_of(s)->m, req[i].reg_set) < 0)
				expect = E_INVAL;
			other_set |= req[i].reg_set != 0;
		}
		/* Racing: the sets may change; a closed context: -EBADF. */
		if (!expect)
			expect = locked || !other_set ? E_OK : E_OK | E_INVAL;
		if (!locked)
			expect |= E_BADF;
	}
	if (time)
		ret = pfmk_read_pmds_time(desc, req, times, n);
	else
		ret = pfmk_read_pmds(desc, req, n);
	fz_check(t, op, hk, s, locked, desc, n, expect, ret);
	if (!ret && locked)
		fz_check_values(t, s, req, n);
}

static void fz_op_load(struct fz_thread *t, int s, void *desc,
		       enum fz_handle hk)
{
	struct fz_model *m = &fz_slot_of(s)->m;
	bool locked = hk == FZ_H_SLOT;
	struct pfarg_load req, *reqp;
	u32 r = fz_below(t, 100), expect = 0;
	unsigned int cpu;
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
	reqp = fz_pct(t, 3) ? NULL : &req;
	cpu = req.load_pid;
	if (locked) {
		if (!reqp || cpu >= nr_cpu_ids || !cpu_possible(cpu) ||
		    fz_set_idx(m, req.load_set) < 0) {
			expect = E_INVAL;
		} else if (m->loaded) {
			expect = E_BUSY;
		} else {
			u32 ev = fz_event_outcomes(fz_model_hw(m));

			/* The AUX set-up is attached last. */
			if (m->aux && (ev & E_OK))
				ev = (ev & ~E_OK) |
				     (aux_expected ? E_INVAL : E_OPNOTSUPP);
			/* The hotplug thread may have CPU 1 offline. */
			if (cpu == FZ_HP_CPU && fz_hp_on)
				expect = E_NODEV | ev;
			else
				expect = cpu_online(cpu) ? ev : E_NODEV;
		}
		if (cpu < 32)
			m->cpus |= BIT(cpu);
	}
	ret = pfmk_load_context(desc, reqp);
	fz_check(t, FZ_LOAD, hk, s, locked, desc, req.load_pid, expect, ret);
	if (ret || !locked)
		return;
	t->n[FZ_N_LOAD]++;
	m->loaded = true;
	m->cpu = cpu;
	m->started = false;
	m->mask = FZ_M_NO;
}

static void fz_op_start(struct fz_thread *t, int s, void *desc,
			enum fz_handle hk)
{
	struct fz_slot *slot = fz_slot_of(s);
	struct fz_model *m = &slot->m;
	struct pfarg_start req, *reqp;
	bool locked = hk == FZ_H_SLOT;
	u32 expect = 0;
	long ret;

	memset(&req, 0, sizeof(req));
	req.start_set = fz_set(t);
	reqp = fz_pct(t, 70) ? NULL : &req;
	if (locked) {
		expect = reqp && fz_set_idx(m, req.start_set) < 0 ? E_INVAL :
			 !m->loaded ? E_NOTCONN :
			 m->started ? E_ALREADY : E_OK;
		m->ever_started = true;
	}
	ret = pfmk_start(desc, reqp);
	fz_check(t, FZ_START, hk, s, locked, desc, req.start_set, expect, ret);
	if (ret || !locked)
		return;
	t->n[FZ_N_START]++;
	m->started = true;
	m->mask = m->mask == FZ_M_YES ? FZ_M_YES : FZ_M_MAYBE;
	fz_model_values(slot, true);
}

static void fz_op_simple(struct fz_thread *t, enum fz_op op, int s,
			 void *desc, enum fz_handle hk)
{
	struct fz_slot *slot = fz_slot_of(s);
	struct fz_model *m = &slot->m;
	bool locked = hk == FZ_H_SLOT;
	unsigned int r;
	u32 expect = 0;
	long ret;

	if (locked) {
		if (!m->loaded)
			expect = E_NOTCONN;
		else if (op == FZ_STOP)
			expect = m->started ? E_OK : E_ALREADY;
		else if (op == FZ_RESTART)
			expect = m->mask == FZ_M_NO ? E_BUSY :
				 m->mask == FZ_M_YES ? E_OK : E_OK | E_BUSY;
		else
			expect = E_OK;
	}
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
	if (!locked || (ret && ret != -EBUSY))
		return;
	switch (op) {
	case FZ_STOP:
		if (ret)
			return;
		m->started = false;
		fz_model_values(slot, false);
		break;
	case FZ_RESTART:
		/* Notifying PMDs were reloaded with their long reset value. */
		if (!ret)
			for (r = 0; r < FZ_VREGS; r++)
				if (fz_may_change(slot, r))
					m->vstate[r] = FZ_V_UNKNOWN;
		if (!ret && !m->started)
			fz_model_values(slot, false);
		m->mask = m->started ? FZ_M_MAYBE : FZ_M_NO;
		break;
	default:
		if (ret)
			return;
		m->loaded = false;
		m->cpu = -1;
		m->started = false;
		m->mask = FZ_M_NO;
		fz_model_values(slot, false);
		break;
	}
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

/* Check a message by type and content against the model of its slot. */
static void fz_check_msg(struct fz_thread *t, int s, void *desc, bool locked,
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

static void fz_op_read(struct fz_thread *t, int s, void *desc,
		       enum fz_handle hk, bool locked, bool block)
{
	union pfm_msg msg;
	size_t sz = sizeof(msg);
	union pfm_msg *mp = &msg;
	u32 expect = 0;
	long ret;

	if (fz_pct(t, 3))
		sz = fz_pct(t, 50) ? sizeof(msg) - 1 : fz_rand(t);
	else if (fz_pct(t, 2))
		mp = NULL;
	memset(&msg, 0, sizeof(msg));
	if (hk == FZ_H_SLOT) {
		if (!mp || sz != sizeof(msg))
			expect = E_INVAL;
		else if (block)
			expect = E_MSG | E_OK | E_RESTARTSYS | E_BADF;
		else
			expect = E_MSG | E_AGAIN;
		if (!locked)
			expect |= E_BADF;
	}
	if (block) {
		t->wake_how = fz_below(t, 3);
		WRITE_ONCE(t->block_seq, t->block_seq + 1);
		WRITE_ONCE(t->blocked_since, jiffies);
		/* Publish the slot after the time; pairs with the partner. */
		smp_store_release(&t->blocked_slot, s);
		ret = pfmk_read(desc, mp, sz, 0);
		WRITE_ONCE(t->blocked_slot, -1);
	} else {
		ret = pfmk_read(desc, mp, sz, fz_pct(t, 50) ? 1 : fz_rand(t) | 1);
	}
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
	struct fz_model *m = &fz_slot_of(s)->m;
	int ret = pfmk_get_state(desc);
	int state = ret & 0xff, flags = ret & ~0xff;
	bool ok;

	fz_check(t, FZ_GET_STATE, hk, s, locked, desc, 0, 0, ret);
	if (ret <= 0)
		return;
	ok = state >= PFM_CTX_UNLOADED && state <= PFM_CTX_MASKED &&
	     !(flags & ~(PFMK_STATE_STARTED | PFMK_STATE_OFFLINE)) &&
	     (state != PFM_CTX_UNLOADED || !flags);
	if (ok && locked) {
		/* The model's state; MASKED and OFFLINE as far as it knows. */
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

static void fz_op_sets(struct fz_thread *t, int s, void *desc,
		       enum fz_handle hk, bool locked, enum fz_op op)
{
	struct fz_slot *slot = fz_slot_of(s);
	struct fz_model *m = &slot->m;
	int i, j, n = fz_count(t, PFM_MAX_PMCS, 3), nr_new = 0;
	struct pfarg_setdesc *sets = t->sets;
	struct pfarg_setinfo *infos = t->infos;
	bool other = false, rules = false;
	u32 expect = 0;
	long ret;

	for (i = 0; i < n && i < PFM_MAX_PMCS; i++) {
		if (op == FZ_CREATE_SETS) {
			memset(&sets[i], 0, sizeof(sets[i]));
			sets[i].set_id = fz_pct(t, 70) ? 0 : fz_rand(t);
			if (fz_pct(t, 20))
				sets[i].set_flags = fz_rand(t) & 7;
			sets[i].set_timeout = fz_rand(t);
		} else {
			memset(&infos[i], 0, sizeof(infos[i]));
			infos[i].set_id = fz_pct(t, 70) ? 0 : fz_rand(t);
		}
	}
	if (fz_pct(t, 2)) {
		sets = NULL;
		infos = NULL;
	}
	if (hk == FZ_H_SLOT) {
		expect = fz_count_err(n, PFM_MAX_PMCS,
				      op == FZ_CREATE_SETS ? (void *)sets :
							     (void *)infos);
		if (!expect && op != FZ_GETINFO_SETS && m->loaded)
			expect = E_BUSY;
		for (i = 0; !expect && i < n; i++) {
			if (op == FZ_CREATE_SETS) {
				u32 f = sets[i].set_flags;

				rules |= f != 0;
				if (((f & PFM_SETFL_TIME_SWITCH) &&
				     ((f & PFM_SETFL_OVFL_SWITCH) ||
				      !sets[i].set_timeout)))
					expect = E_INVAL;
				for (j = 0; j < i; j++)
					if (sets[j].set_id == sets[i].set_id)
						expect = E_INVAL;
				if (fz_set_idx(m, sets[i].set_id) < 0)
					nr_new++;
				continue;
			}
			other |= infos[i].set_id != 0;
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
		if (!expect && op == FZ_CREATE_SETS)
			expect = m->nsets + nr_new > FZ_MAX_SETS ? E_2BIG :
				 E_OK | (fz_det ? 0 : E_NOMEM);
		if (!expect)
			expect = E_OK;
		if (!locked) {
			/* getinfo: sets other than 0 may come and go. */
			if (other && !(expect & E_2BIG))
				expect |= E_OK | E_INVAL;
			expect |= E_BADF;
		}
	}
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
	if (ret || !locked || op == FZ_GETINFO_SETS)
		return;
	for (i = 0; i < n; i++) {
		int si;

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

static int fz_aux_sink(void *data, const void *src, size_t len)
{
	return 0;
}

static void fz_op_aux(struct fz_thread *t, int s, void *desc,
		      enum fz_handle hk, enum fz_kind kind, enum fz_op op)
{
	static const size_t sizes[] = {
		0, PFMK_AUX_MIN_SIZE, 2 * PFMK_AUX_MIN_SIZE, 65536,
		PFMK_AUX_MIN_SIZE + 8, PFMK_AUX_MAX_SIZE * 2, 64,
	};
	struct fz_model *m = &fz_slot_of(s)->m;
	bool locked = hk == FZ_H_SLOT;
	struct pfmk_aux_info info;
	unsigned int pmd, flags;
	u32 expect = 0;
	size_t size;
	long ret;

	if (op == FZ_AUX_COPY) {
		bool fn = fz_pct(t, 95), inf = fz_pct(t, 95);

		if (locked)
			expect = !fn || !inf ? E_INVAL :
				 !aux_expected ? E_OPNOTSUPP :
				 !m->aux ? E_NXIO :
				 !m->loaded ? E_NOTCONN : 0;
		ret = pfmk_aux_copy(desc, 4096, fn ? fz_aux_sink : NULL, NULL,
				    inf ? &info : NULL);
		fz_check(t, op, hk, s, locked, desc, 0, expect, ret);
		return;
	}
	pmd = fz_pct(t, 90) ? fz_below(t, fz_nregs(kind)) :
			      fz_nregs(kind) + fz_below(t, 4);
	size = sizes[fz_below(t, ARRAY_SIZE(sizes))];
	flags = fz_pct(t, 90) ? fz_below(t, 2) : fz_rand(t);
	if (locked) {
		if (pmd >= fz_nregs(kind) || (flags & ~PFMK_AUX_SNAPSHOT) ||
		    (size && (size < PFMK_AUX_MIN_SIZE ||
			      size > PFMK_AUX_MAX_SIZE || !is_power_of_2(size))))
			expect = E_INVAL;
		else if (!aux_expected)
			expect = E_OPNOTSUPP;
		else if (m->loaded)
			expect = E_BUSY;
		else
			expect = E_OK | (size && !fz_det ? E_NOMEM : 0);
	}
	ret = pfmk_aux_setup(desc, pmd, size, flags);
	fz_check(t, op, hk, s, locked, desc, size, expect, ret);
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
	if (ret)
		return;
	/* Read without a lock: each field is consistent with itself only. */
	if (st.ctx_freed > st.ctx_created || st.ctx_open > st.ctx_created)
		fz_fail(t, FZ_F_ORACLE, "global stats: created %llu freed %llu open %llu",
			st.ctx_created, st.ctx_freed, st.ctx_open);
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

static struct pfmk_pmu_desc fz_pmu_desc = {
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

/*
 * Deterministic runs: what @ticks ticks on CPU 0 do to the model's PMD
 * values.  An overflow, or a PMD whose value is unknown (it may
 * overflow), leaves every counting PMD unknown and the context maybe
 * masked.
 */
static void fz_tick_model(u64 ticks)
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

static void fz_one(struct fz_thread *t)
{
	enum fz_op op = fz_pick_op(t);
	struct pfmk_ctx_stats stats;
	enum fz_handle hk;
	enum fz_kind kind;
	bool locked, stats_null;
	void *desc;
	int s, cpu;
	u64 ticks;

	switch (op) {
	case FZ_CREATE:
		fz_op_create(t);
		return;
	case FZ_GLOBAL_STATS:
		fz_op_global_stats(t);
		return;
	case FZ_PMU_TOGGLE:
		fz_op_pmu_toggle(t);
		return;
	case FZ_TICK:
		cpu = fz_pct(t, 50) ? 0 : FZ_HP_CPU;
		ticks = 1 + fz_below(t, fz_pct(t, 90) ? 50 : 2000);
		if (fz_det)
			cpu = 0;
		pfmk_test_pmu_tick(cpu, ticks);
		if (fz_det)
			fz_tick_model(ticks);
		fz_record(t, FZ_TICK, FZ_H_SLOT, -1, false, NULL, cpu, E_OK, 0);
		return;
	default:
		break;
	}
	/* A blocking read races: the partner closes under the mutex. */
	desc = fz_pick(t, &hk, &kind, &s, &locked, fz_may_race(op));
	if (op == FZ_READ_BLOCK && locked) {
		mutex_unlock(&fz_slots[s].lock);
		locked = false;
	}
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
		stats_null = fz_pct(t, 5);
		fz_check(t, op, hk, s, locked, desc, stats_null,
			 hk != FZ_H_SLOT ? 0 :
			 (stats_null ? E_INVAL : E_OK) | (locked ? 0 : E_BADF),
			 pfmk_get_stats(desc, stats_null ? NULL : &stats));
		break;
	case FZ_AUX_SETUP:
	case FZ_AUX_COPY:
		fz_op_aux(t, s, desc, hk, kind, op);
		break;
	default:
		fz_op_sets(t, s, desc, hk, locked, op);
		break;
	}
	if (s >= 0)
		fz_unpick(s, locked);
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

/*
 * Toggle CPU 1 until stopped.  A cycle holds cpu_hotplug_lock for writing
 * most of the time, which blocks every loader and unloader of contexts
 * (cpuhp instances) and every tick: pause nine times as long as the
 * cycle took, so that the fuzzer gets 90% of the time.
 */
static int fz_hp_thread_fn(void *data)
{
	struct rnd_state rng;
	u64 t0, ms;

	prandom_seed_state(&rng, fz_seed_of(fz_seed, FZ_MAX_THREADS));
	while (!kthread_should_stop()) {
		t0 = ktime_get_ns();
		if (remove_cpu(FZ_HP_CPU)) {
			fz_hp_remove_failed++;
			usleep_range(10000, 11000);
			continue;
		}
		msleep(1 + prandom_u32_state(&rng) % 4);
		if (!add_cpu(FZ_HP_CPU)) {
			WRITE_ONCE(fz_hp_cycles, fz_hp_cycles + 1);
		} else {
			fz_hp_add_failed++;
			if (!pfmk_test_cpu_up(FZ_HP_CPU)) {
				fz_hp_cpu_lost = true;
				break;
			}
			WRITE_ONCE(fz_hp_cycles, fz_hp_cycles + 1);
		}
		ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
		msleep(min_t(u64, 9 * ms, 5000) + 1 +
		       prandom_u32_state(&rng) % 8);
	}
	while (!kthread_should_stop())
		usleep_range(10000, 11000);
	return 0;
}

/*
 * The partner of blocking reads: a thread blocked long enough is woken
 * by a complete(), by a close of its slot's context (under the slot's
 * mutex, the model follows) or by a signal.  Deterministic runs take the
 * way the thread drew.
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
		/* Deterministic: one wake-up per blocking read. */
		if (fz_det) {
			if (READ_ONCE(t->block_seq) == t->partner_seq)
				continue;
			t->partner_seq = READ_ONCE(t->block_seq);
		}
		slot = &fz_slots[s];
		how = fz_det ? READ_ONCE(t->wake_how) : (*round)++ % 3;
		atomic_inc(&fz_partner_wakes[how]);
		switch (how) {
		case 0:
			complete(&slot->done);
			break;
		case 1:
			mutex_lock(&slot->lock);
			desc = slot->desc;
			ret = desc ? fz_close_locked(t, slot, desc) : -EBADF;
			mutex_unlock(&slot->lock);
			if (!ret)
				fz_partner_closes++;
			else if (desc && fz_report_ok())
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
 * struct fz_result - verdicts of a fuzzer run
 * @ops_done: operations run by all threads.
 * @creates: contexts created.
 * @closes: successful closes, the final ones included.
 * @fail: failures per FZ_F_*.
 * @n: successes per FZ_N_*.
 * @hash: hash of every thread's calls and exact results.
 * @freed_ok: pfmk's global counters back to their start values.
 * @elapsed_ns: fuzzing time.
 */
struct fz_result {
	unsigned long	ops_done;
	unsigned long	creates;
	unsigned long	closes;
	unsigned long	fail[FZ_F_NR];
	u64		n[FZ_N_NR];
	u64		hash;
	bool		freed_ok;
	u64		elapsed_ns;
};

static void fz_print_table(void)
{
	unsigned int op, b, i;
	u64 count, h;
	char line[320];
	int len;

	pr_info("# calls and results (seed %lu, %u threads):\n", fz_seed,
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
			else
				len += scnprintf(line + len, sizeof(line) - len,
						 " %pe=%llu", ERR_PTR(-(long)b),
						 h);
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

static int fz_alloc_threads(unsigned int n, unsigned long nops)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct fz_thread *t = kvzalloc(sizeof(*t), GFP_KERNEL);

		if (!t)
			return -ENOMEM;
		fz_threads[fz_nthreads++] = t;
		t->id = i;
		prandom_seed_state(&t->rng, fz_seed_of(fz_seed, i));
		t->hash = 0xcbf29ce484222325ULL;
		t->nops = nops / n + (i < nops % n);
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

/*
 * One fuzzer run: @nthreads threads, @nops operations, the hotplug thread
 * if @hp.  Deterministic with one thread and no hotplug.
 */
static void fz_run(struct fz_result *res, unsigned long run_seed,
		   unsigned int nthreads, unsigned long nops, bool hp)
{
	struct pfmk_global_stats start, now;
	unsigned long round = 0, done, next_report = nops / 10;
	unsigned int i, f, left;
	u64 t0;

	memset(res, 0, sizeof(*res));
	fz_seed = run_seed;
	fz_det = nthreads == 1 && !hp;
	fz_hp_on = false;
	fz_hp_cycles = 0;
	fz_hp_remove_failed = 0;
	fz_hp_add_failed = 0;
	fz_partner_closes = 0;
	atomic64_set(&fz_ovfl_closed, 0);
	for (i = 0; i < ARRAY_SIZE(fz_partner_wakes); i++)
		atomic_set(&fz_partner_wakes[i], 0);
	for (i = 0; i < FZ_NSLOTS; i++) {
		fz_slots[i].desc = NULL;
		reinit_completion(&fz_slots[i].done);
	}
	/* Every run starts with "pfmk_fuzz" registered: runs replay. */
	mutex_lock(&fz_pmu_lock);
	if (!fz_pmu_registered)
		fz_pmu_registered = !pfmk_pmu_register(&fz_pmu_desc);
	mutex_unlock(&fz_pmu_lock);
	for (i = 0; i < ARRAY_SIZE(fz_reports); i++)
		atomic_set(&fz_reports[i], 0);
	if (fz_alloc_threads(nthreads, nops)) {
		pr_info("# out of memory\n");
		res->fail[FZ_F_ORACLE]++;
		fz_free_threads();
		return;
	}
	if (fz_global_snapshot(&start))
		pr_info("# pfmk_get_global_stats() failed\n");
	pr_info("# fuzz: seed %lu, %lu ops, %u threads, hotplug %d%s\n",
		run_seed, nops, nthreads, hp,
		fz_det ? ", deterministic" : "");

	fz_hp_skip = hp ? pfmk_test_cpu_unavailable(FZ_HP_CPU) : "hotplug=0";
	t0 = ktime_get_ns();
	if (!fz_hp_skip) {
		fz_hp_on = true;
		fz_hp_task = kthread_run(fz_hp_thread_fn, NULL, "pfmk_fuzz_hp");
		if (IS_ERR(fz_hp_task)) {
			pr_info("# cannot start the hotplug thread\n");
			fz_hp_task = NULL;
		}
	} else if (hp) {
		pr_info("# no CPU hotplug during the fuzzing: %s\n",
			fz_hp_skip);
	}
	for (i = 0; i < fz_nthreads; i++) {
		struct fz_thread *t = fz_threads[i];

		t->task = kthread_create(fz_thread_fn, t, "pfmk_fuzz/%u", i);
		if (IS_ERR(t->task)) {
			pr_info("# cannot start thread %u: %ld\n", i,
				PTR_ERR(t->task));
			t->task = NULL;
			continue;
		}
		/* Deterministic: ticks of CPU 0 run on this CPU, in order. */
		if (fz_det)
			kthread_bind(t->task, 0);
		wake_up_process(t->task);
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
		if (!fz_det && next_report && done >= next_report) {
			pr_info("# progress: %lu ops, %lu hotplug cycles, %llu ms\n",
				done, READ_ONCE(fz_hp_cycles),
				div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC));
			next_report += nops / 10;
		}
	} while (left);
	res->elapsed_ns = ktime_get_ns() - t0;
	if (fz_hp_task) {
		kthread_stop(fz_hp_task);
		fz_hp_task = NULL;
	}
	for (i = 0; i < FZ_NSLOTS; i++) {
		struct fz_slot *slot = &fz_slots[i];

		mutex_lock(&slot->lock);
		if (slot->desc && !fz_close_locked(fz_threads[0], slot,
						   slot->desc))
			res->closes++;
		slot->desc = NULL;
		mutex_unlock(&slot->lock);
	}
	for (i = 0; i < fz_nthreads; i++) {
		struct fz_thread *t = fz_threads[i];

		if (t->task)
			kthread_stop(t->task);
		res->ops_done += t->done_ops;
		res->creates += t->n[FZ_N_CREATE];
		res->closes += t->closes;
		for (f = 0; f < FZ_F_NR; f++)
			res->fail[f] += t->fail[f];
		for (f = 0; f < FZ_N_NR; f++)
			res->n[f] += t->n[f];
		res->hash = (res->hash ^ t->hash) * 0x100000001b3ULL;
	}
	res->n[FZ_N_OVFL] = atomic64_read(&fz_ovfl_closed);
	res->closes += fz_partner_closes;
	if (!cpu_online(FZ_HP_CPU) && hp && pfmk_test_cpu_up(FZ_HP_CPU))
		pr_info("# CPU 1 brought back online at the end\n");
	fz_hp_on = false;

	res->freed_ok = fz_wait_freed(&start, &now);
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

	if (!fz_det)
		fz_print_table();
	pr_info("# successes: creates %llu loads %llu starts %llu overflows %llu messages %llu\n",
		res->n[FZ_N_CREATE], res->n[FZ_N_LOAD], res->n[FZ_N_START],
		res->n[FZ_N_OVFL], res->n[FZ_N_MSG]);
	pr_info("# failures: undocumented %lu badf %lu state %lu oracle %lu value %lu msg %lu; hash 0x%016llx\n",
		res->fail[FZ_F_UNDOC], res->fail[FZ_F_BADF],
		res->fail[FZ_F_STATE], res->fail[FZ_F_ORACLE],
		res->fail[FZ_F_VALUE], res->fail[FZ_F_MSG], res->hash);
	pr_info("# partner wake-ups: complete %d, close %d, signal %d\n",
		atomic_read(&fz_partner_wakes[0]),
		atomic_read(&fz_partner_wakes[1]),
		atomic_read(&fz_partner_wakes[2]));
	pr_info("# %lu ops in %llu ms: %llu ops/s; hotplug cycles %lu (remove failed %lu, add failed %lu)\n",
		res->ops_done, div_u64(res->elapsed_ns, NSEC_PER_MSEC),
		div64_u64((u64)res->ops_done * NSEC_PER_SEC,
			  max_t(u64, res->elapsed_ns, 1)),
		fz_hp_cycles, fz_hp_remove_failed, fz_hp_add_failed);
	fz_free_threads();
}

static bool fz_clean(const struct fz_result *r)
{
	unsigned int f;

	for (f = 0; f < FZ_F_NR; f++)
		if (r->fail[f])
			return false;
	return r->freed_ok;
}

#define FZ_NCASES	16

static int __init pfmk_fuzz_init(void)
{
	struct fz_result res, det1, det2, reg;
	struct pfmk_ktap k;
	unsigned int i;
	bool hp_ok;
	u64 floor;

	for (i = 0; i < FZ_NR_OPS; i++)
		fz_weight_total += fz_op_weight[i];
	pfmk_ktap_plan(&k, KBUILD_MODNAME, FZ_NCASES);
	pr_info("# pfmk_fuzz: seed %lu (replay: seed=%lu threads=1 hotplug=0), aux_expected %d\n",
		seed, seed, aux_expected);
	fz_slots = kvcalloc(FZ_NSLOTS, sizeof(*fz_slots), GFP_KERNEL);
	if (!fz_slots) {
		pfmk_ktap_diag("out of memory");
		for (i = 1; i <= FZ_NCASES; i++)
			pfmk_ktap_result(&k, "fuzz", false);
		pfmk_ktap_end(&k);
		return 0;
	}
	for (i = 0; i < FZ_NSLOTS; i++) {
		mutex_init(&fz_slots[i].lock);
		init_completion(&fz_slots[i].done);
	}
	fz_no_hw = pfmk_test_hw_cycles_expected(0) == -EOPNOTSUPP;
	/* Deterministic runs: seed 1 for regressions, then twice the seed. */
	fz_run(&reg, 1, 1, det_ops, false);
	fz_run(&det1, seed, 1, det_ops, false);
	fz_run(&det2, seed, 1, det_ops, false);
	/* The main run. */
	fz_run(&res, seed, clamp_val(threads, 1, FZ_MAX_THREADS), ops,
	       hotplug);
	hp_ok = fz_hp_cycles > 0 && !fz_hp_cpu_lost;

	pfmk_ktap_result(&k, "ops_completed", res.ops_done == ops);
	pfmk_ktap_result(&k, "errnos_documented", !res.fail[FZ_F_UNDOC]);
	pfmk_ktap_result(&k, "forged_handles_ebadf", !res.fail[FZ_F_BADF]);
	pfmk_ktap_result(&k, "states_valid", !res.fail[FZ_F_STATE]);
	pfmk_ktap_result(&k, "outcomes_predicted", !res.fail[FZ_F_ORACLE]);
	pfmk_ktap_result(&k, "pmd_values", !res.fail[FZ_F_VALUE]);
	pfmk_ktap_result(&k, "messages_valid", !res.fail[FZ_F_MSG]);
	for (i = 0; i < FZ_N_NR; i++) {
		char name[32];

		/*
		 * Overflow messages are too rare in the random mix (0 to 7
		 * per 100000 operations) for a floor that never fails by
		 * chance: counted and printed, each checked by
		 * messages_valid; the hotplug cases and the KUnit suites
		 * require messages exactly.
		 */
		if (i == FZ_N_MSG) {
			pr_info("# messages read: %llu\n", res.n[i]);
			continue;
		}
		floor = div_u64((u64)fz_floor[i] * ops, 100000);
		snprintf(name, sizeof(name), "floor_%s", fz_floor_name[i]);
		if (res.n[i] < floor)
			pr_info("# %s: %llu, below the floor of %llu\n",
				name, res.n[i], floor);
		pfmk_ktap_result(&k, name, res.n[i] >= floor);
	}
	pfmk_ktap_result(&k, "all_contexts_freed", res.freed_ok);
	pfmk_ktap_result(&k, "deterministic_seed1",
			 fz_clean(&reg) && reg.ops_done == det_ops);
	pfmk_ktap_result(&k, "deterministic_seed",
			 fz_clean(&det1) && fz_clean(&det2));
	if (det1.hash != det2.hash)
		pr_info("# replay: hashes 0x%016llx and 0x%016llx differ\n",
			det1.hash, det2.hash);
	pfmk_ktap_result(&k, "replay_identical",
			 det1.hash == det2.hash && det1.ops_done == det_ops &&
			 det2.ops_done == det_ops);
	if (fz_hp_skip)
		pfmk_ktap_skip(&k, "hotplug_cycles", fz_hp_skip);
	else
		pfmk_ktap_result(&k, "hotplug_cycles", hp_ok);

	mutex_lock(&fz_pmu_lock);
	if (fz_pmu_registered)
		pfmk_pmu_unregister(&fz_pmu_desc);
	fz_pmu_registered = false;
	mutex_unlock(&fz_pmu_lock);
	for (i = 0; i < FZ_NSLOTS; i++)
		mutex_destroy(&fz_slots[i].lock);
	kvfree(fz_slots);
	fz_slots = NULL;

	pfmk_ktap_end(&k);
	pr_info("# pfmk_fuzz: done\n");
	return 0;
}

static void __exit pfmk_fuzz_exit(void)
{
}

module_init(pfmk_fuzz_init);
module_exit(pfmk_fuzz_exit);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk KAPI fuzzer with an oracle (KTAP output)");
MODULE_LICENSE("GPL");
