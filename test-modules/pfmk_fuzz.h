/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_fuzz: what the fuzzer's driver (pfmk_fuzz_ops.c, pfmk_fuzz_run.c),
 * its oracle (pfmk_fuzz_oracle.c) and its judge (pfmk_fuzz_judge.c)
 * share: the calls, the outcomes, the model of a context, the table of
 * slots, the threads and the run.
 *
 * The driver draws each call and its arguments from a thread's generator
 * and makes it; the oracle says, from the model of the slot's context and
 * the arguments, which outcomes the call may have (E_* bits, the
 * fz_expect_*() functions) and updates the model with what the call did
 * (the fz_model_*() functions); the judge (pfmk_fuzz_judge.c) checks the
 * result against them (fz_check()).  Oracle and judge draw no random
 * numbers: the calls follow from the seed alone.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_FUZZ_H
#define _PFMK_FUZZ_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu.h>
#include <pfmk/smpl_dfl.h>

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
#define FZ_FLOOR_OVERFLOWS	10
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

extern const char * const fz_op_name[FZ_NR_OPS];
extern const u8 fz_op_weight[FZ_NR_OPS];

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

/* Result histogram buckets: 0, positive, errno 1..FZ_MAX_ERRNO, others. */
#define FZ_MAX_ERRNO		133
#define FZ_H_OK			0
#define FZ_H_POS		(FZ_MAX_ERRNO + 1)
#define FZ_H_RESTARTSYS		(FZ_MAX_ERRNO + 2)
#define FZ_H_OTHER		(FZ_MAX_ERRNO + 3)
#define FZ_NHIST		(FZ_MAX_ERRNO + 4)

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

extern const char * const fz_handle_name[];

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

extern struct fz_slot *fz_slots;

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

/* Successes counted for the floors. */
enum { FZ_N_CREATE, FZ_N_LOAD, FZ_N_START, FZ_N_OVFL, FZ_N_MSG, FZ_N_NR };

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

/**
 * struct fz_create - the arguments of a pfmk_create_context() call
 * @req: the context request.
 * @arg: the default format's argument.
 * @smpl_arg: the argument passed: @arg or NULL.
 * @smpl_size: the size passed.
 * @kind: the description the request names.
 * @smpl: with the default format's UUID.
 * @fmt_unknown: with an unknown format's UUID.
 * @name_ok: the description's name exists (or may: "pfmk_fuzz").
 * @c: the completion passed, or NULL.
 * @descp: the output passed: &@desc, or NULL.
 * @desc: the new context.
 */
struct fz_create {
	struct pfarg_ctx	req;
	struct pfm_dfl_smpl_arg	arg;
	void			*smpl_arg;
	size_t			smpl_size;
	enum fz_kind		kind;
	bool			smpl;
	bool			fmt_unknown;
	bool			name_ok;
	struct completion	*c;
	void			**descp;
	void			*desc;
};

/* The run in progress (pfmk_fuzz_run.c). */
extern struct fz_thread *fz_threads[FZ_MAX_THREADS];
extern unsigned int fz_nthreads;
extern ulong fz_seed;		/* seed of the run */
extern bool fz_det;		/* deterministic run */
extern bool fz_hp_on;		/* the hotplug thread runs */
extern bool fz_no_hw;		/* perf has no hardware PMU */
extern bool fz_aux_expected;	/* the kernel has pfmk's AUX patch */
extern unsigned long fz_hp_cycles;
extern atomic_t fz_reports[FZ_F_NR + 1];
extern atomic64_t fz_ovfl_closed;
extern unsigned int fz_weight_total;

/* The PMU description "pfmk_fuzz", registered and unregistered. */
extern struct mutex fz_pmu_lock;
extern bool fz_pmu_registered;
extern struct pfmk_pmu_desc fz_pmu_desc;

/* The driver (pfmk_fuzz_ops.c). */
void fz_one(struct fz_thread *t);
int fz_close_locked(struct fz_thread *t, struct fz_slot *slot, void *desc);

/* The oracle (pfmk_fuzz_oracle.c): the model. */
unsigned int fz_nregs(enum fz_kind kind);
struct fz_slot *fz_slot_of(int s);
int fz_set_idx(const struct fz_model *m, u16 id);

/* The judge (pfmk_fuzz_judge.c): results checked, failures reported. */
void fz_fail(struct fz_thread *t, unsigned int kind, const char *fmt, ...)
	__printf(3, 4);
void fz_record(struct fz_thread *t, enum fz_op op, enum fz_handle hk,
	       int s, bool locked, void *handle, s64 arg, u32 expect,
	       long ret);
bool fz_report_ok(void);
void fz_check(struct fz_thread *t, enum fz_op op, enum fz_handle hk,
	      int s, bool locked, void *handle, s64 arg, u32 expect,
	      long ret);

/* The oracle's predictions, and its model's updates after a success. */
u32 fz_expect_create(const struct fz_create *a);
u32 fz_expect_create_fmt(const struct fz_create *a, u32 expect,
			 bool pmu_registered);
void *fz_model_created(struct fz_thread *t, struct fz_slot *slot,
		       const struct fz_create *a, void *desc);
u32 fz_expect_write_pmcs(const struct fz_model *m, enum fz_kind kind,
			 const struct pfarg_pmc *req, int n);
void fz_model_write_pmcs(struct fz_model *m, enum fz_kind kind,
			 const struct pfarg_pmc *req, int n);
u32 fz_expect_write_pmds(const struct fz_model *m, enum fz_kind kind,
			 const struct pfarg_pmd *req, int n);
void fz_model_write_pmds(struct fz_model *m, const struct pfarg_pmd *req,
			 int n);
u32 fz_expect_read_pmds(const struct fz_model *m, enum fz_kind kind,
			const struct pfarg_pmd *req, bool time,
			const void *times, int n);
u32 fz_expect_load(struct fz_model *m, const struct pfarg_load *req,
		   bool null);
void fz_model_loaded(struct fz_model *m, unsigned int cpu);
u32 fz_expect_start(struct fz_model *m, const struct pfarg_start *req);
void fz_model_started(struct fz_slot *slot);
u32 fz_expect_simple(const struct fz_model *m, enum fz_op op);
void fz_model_simple(struct fz_slot *slot, enum fz_op op, long ret);
u32 fz_expect_read(bool slot, bool msg, size_t sz, bool block, bool locked);
u32 fz_expect_get_stats(bool slot, bool null, bool locked);
u32 fz_expect_sets(const struct fz_model *m, enum fz_op op,
		   const struct pfarg_setdesc *sets,
		   const struct pfarg_setinfo *infos, int n, bool locked,
		   bool *rules);
void fz_model_sets(struct fz_model *m, enum fz_op op,
		   const struct pfarg_setdesc *sets,
		   const struct pfarg_setinfo *infos, int n, bool rules);
u32 fz_expect_aux_copy(const struct fz_model *m, bool fn, bool info);
u32 fz_expect_aux_setup(const struct fz_model *m, enum fz_kind kind,
			unsigned int pmd, size_t size, unsigned int flags);

/* The judge of what a call returned beyond its errno (pfmk_fuzz_judge.c). */
void fz_check_values(struct fz_thread *t, int s, const struct pfarg_pmd *req,
		     int n);
void fz_check_msg(struct fz_thread *t, int s, void *desc, bool locked,
		  const union pfm_msg *msg);
void fz_check_state(struct fz_thread *t, int s, bool locked, int ret);
void fz_check_global_stats(struct fz_thread *t,
			   const struct pfmk_global_stats *st);
void fz_tick_model(u64 ticks);

#endif /* _PFMK_FUZZ_H */
