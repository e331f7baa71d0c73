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
 * The driver (here and pfmk_fuzz_ops.c) draws and makes the calls; the
 * oracle (pfmk_fuzz_oracle.c) predicts the outcomes each call may have
 * from its model of the slot's context, judges the results and keeps the
 * model; pfmk_fuzz.h is what they share.  Blocking reads are woken by a
 * partner (complete(), close or signal): fz_partner().
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
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu.h>

#include "pfmk_fuzz.h"
#include "pfmk_ktap.h"
#include "pfmk_test_cpu.h"
#include "pfmk_test_pmu.h"
#include "pfmk_test_thread.h"

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

bool fz_aux_expected;
module_param_named(aux_expected, fz_aux_expected, bool, 0444);
MODULE_PARM_DESC(aux_expected, "the kernel has pfmk's AUX patch (set by the harness)");

static const char * const fz_floor_name[FZ_N_NR] = {
	"creates", "loads", "starts", "overflows", "messages",
};

static const unsigned int fz_floor[FZ_N_NR] = {
	FZ_FLOOR_CREATES, FZ_FLOOR_LOADS, FZ_FLOOR_STARTS, FZ_FLOOR_OVERFLOWS,
	FZ_FLOOR_MESSAGES,
};

/* The table of slots, and the run in progress. */
struct fz_slot *fz_slots;
struct fz_thread *fz_threads[FZ_MAX_THREADS];
unsigned int fz_nthreads;
ulong fz_seed;		/* seed of the run */
bool fz_det;		/* deterministic run */
bool fz_hp_on;		/* the hotplug thread runs */
bool fz_no_hw;		/* perf has no hardware PMU */
atomic_t fz_reports[FZ_F_NR + 1];
static atomic_t fz_partner_wakes[3];
static unsigned long fz_partner_closes;
atomic64_t fz_ovfl_closed = ATOMIC64_INIT(0);
unsigned int fz_weight_total;

/* The hotplug thread, and why it did not run. */
static struct task_struct *fz_hp_task;
static const char *fz_hp_skip;
unsigned long fz_hp_cycles;
static unsigned long fz_hp_remove_failed;
static unsigned long fz_hp_add_failed;
static bool fz_hp_cpu_lost;

static u64 fz_seed_of(unsigned long s, unsigned int id)
{
	u64 z = s + 0x9e3779b97f4a7c15ULL * (id + 1);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
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
	return pfmk_test_kthread_park();
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

/* Reset what a run keeps, for a run of @run_seed. */
static void fz_run_reset(unsigned long run_seed, unsigned int nthreads,
			 bool hp)
{
	unsigned int i;

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
}

/* Start the hotplug thread, unless fz_hp_skip says why not. */
static void fz_start_hotplug(bool hp)
{
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
}

static void fz_start_threads(void)
{
	unsigned int i;

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
}

/*
 * Partner the threads' blocking reads until every thread finished its
 * operations; print the progress every tenth of @nops.
 */
static void fz_wait_threads(unsigned long nops, u64 t0)
{
	unsigned long round = 0, done, next_report = nops / 10;
	unsigned int i, left;

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
}

/* Close what the table still holds; count the closes in @res. */
static void fz_close_slots(struct fz_result *res)
{
	unsigned int i;

	for (i = 0; i < FZ_NSLOTS; i++) {
		struct fz_slot *slot = &fz_slots[i];

		mutex_lock(&slot->lock);
		if (slot->desc && !fz_close_locked(fz_threads[0], slot,
						   slot->desc))
			res->closes++;
		slot->desc = NULL;
		mutex_unlock(&slot->lock);
	}
}

/* Stop the hotplug thread and the threads; sum their results in @res. */
static void fz_stop_run(struct fz_result *res)
{
	unsigned int i, f;

	if (fz_hp_task) {
		kthread_stop(fz_hp_task);
		fz_hp_task = NULL;
	}
	fz_close_slots(res);
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
}

/*
 * Every context the run created is closed and freed, and pfmk's counters
 * are back at @start: res->freed_ok.
 */
static void fz_check_freed(struct fz_result *res,
			   const struct pfmk_global_stats *start, bool hp)
{
	struct pfmk_global_stats now;

	if (!cpu_online(FZ_HP_CPU) && hp && pfmk_test_cpu_up(FZ_HP_CPU))
		pr_info("# CPU 1 brought back online at the end\n");
	fz_hp_on = false;

	res->freed_ok = fz_wait_freed(start, &now);
	pr_info("# created %llu (fuzzer: %lu), freed %llu, closed by the fuzzer %lu; cpu_offline %llu cpu_online %llu rearm_failed %llu\n",
		now.ctx_created - start->ctx_created, res->creates,
		now.ctx_freed - start->ctx_freed, res->closes,
		now.cpu_offline - start->cpu_offline,
		now.cpu_online - start->cpu_online,
		now.rearm_failed - start->rearm_failed);
	if (now.ctx_created - start->ctx_created != res->creates ||
	    now.ctx_freed - start->ctx_freed != res->creates ||
	    res->closes != res->creates)
		res->freed_ok = false;
}

static void fz_print_result(const struct fz_result *res)
{
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
}

/*
 * One fuzzer run: @nthreads threads, @nops operations, the hotplug thread
 * if @hp.  Deterministic with one thread and no hotplug.
 */
static void fz_run(struct fz_result *res, unsigned long run_seed,
		   unsigned int nthreads, unsigned long nops, bool hp)
{
	struct pfmk_global_stats start;
	u64 t0;

	memset(res, 0, sizeof(*res));
	fz_run_reset(run_seed, nthreads, hp);
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
	fz_start_hotplug(hp);
	fz_start_threads();
	fz_wait_threads(nops, t0);
	res->elapsed_ns = ktime_get_ns() - t0;
	fz_stop_run(res);
	fz_check_freed(res, &start, hp);
	fz_print_result(res);
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

/*
 * The KTAP cases, in the order the module reports them: the main run's
 * (fz_report_main()), the deterministic runs' (fz_report_det()), the
 * hotplug thread's.  scripts/manifest_sources.py checks this table against
 * test-modules/manifest.json; fz_result() checks each report against it.
 */
static const char * const fz_case_name[] = {
	"ops_completed",
	"errnos_documented",
	"forged_handles_ebadf",
	"states_valid",
	"outcomes_predicted",
	"pmd_values",
	"messages_valid",
	"floor_creates",
	"floor_loads",
	"floor_starts",
	"floor_overflows",
	"all_contexts_freed",
	"deterministic_seed1",
	"deterministic_seed",
	"replay_identical",
	"hotplug_cycles",
};

#define FZ_NCASES	ARRAY_SIZE(fz_case_name)

/*
 * Report the next case, @name; a name that is not the table's next one
 * fails, so that the table cannot drift from what the module prints.
 */
static void fz_result(struct pfmk_ktap *k, const char *name, bool ok)
{
	bool listed = k->n < FZ_NCASES && !strcmp(name, fz_case_name[k->n]);

	if (!listed)
		pfmk_ktap_diag("%s: not case %u of fz_case_name[]", name, k->n + 1);
	pfmk_ktap_result(k, name, ok && listed);
}

/* The cases of the main run: its failures by kind, floors, freed. */
static void fz_report_main(struct pfmk_ktap *k, const struct fz_result *res)
{
	unsigned int i;
	u64 floor;

	fz_result(k, "ops_completed", res->ops_done == ops);
	fz_result(k, "errnos_documented", !res->fail[FZ_F_UNDOC]);
	fz_result(k, "forged_handles_ebadf", !res->fail[FZ_F_BADF]);
	fz_result(k, "states_valid", !res->fail[FZ_F_STATE]);
	fz_result(k, "outcomes_predicted", !res->fail[FZ_F_ORACLE]);
	fz_result(k, "pmd_values", !res->fail[FZ_F_VALUE]);
	fz_result(k, "messages_valid", !res->fail[FZ_F_MSG]);
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
			pr_info("# messages read: %llu\n", res->n[i]);
			continue;
		}
		floor = div_u64((u64)fz_floor[i] * ops, 100000);
		snprintf(name, sizeof(name), "floor_%s", fz_floor_name[i]);
		if (res->n[i] < floor)
			pr_info("# %s: %llu, below the floor of %llu\n",
				name, res->n[i], floor);
		fz_result(k, name, res->n[i] >= floor);
	}
	fz_result(k, "all_contexts_freed", res->freed_ok);
}

/* The cases of the deterministic runs: clean, and the two replays equal. */
static void fz_report_det(struct pfmk_ktap *k, const struct fz_result *reg,
			  const struct fz_result *det1,
			  const struct fz_result *det2)
{
	fz_result(k, "deterministic_seed1",
		  fz_clean(reg) && reg->ops_done == det_ops);
	fz_result(k, "deterministic_seed", fz_clean(det1) && fz_clean(det2));
	if (det1->hash != det2->hash)
		pr_info("# replay: hashes 0x%016llx and 0x%016llx differ\n",
			det1->hash, det2->hash);
	fz_result(k, "replay_identical",
		  det1->hash == det2->hash && det1->ops_done == det_ops &&
		  det2->ops_done == det_ops);
}

/* The table of slots; false without memory. */
static bool fz_setup(void)
{
	unsigned int i;

	for (i = 0; i < FZ_NR_OPS; i++)
		fz_weight_total += fz_op_weight[i];
	fz_slots = kvcalloc(FZ_NSLOTS, sizeof(*fz_slots), GFP_KERNEL);
	if (!fz_slots)
		return false;
	for (i = 0; i < FZ_NSLOTS; i++) {
		mutex_init(&fz_slots[i].lock);
		init_completion(&fz_slots[i].done);
	}
	fz_no_hw = pfmk_test_hw_cycles_expected(0) == -EOPNOTSUPP;
	return true;
}

/* "pfmk_fuzz" unregistered, the table freed. */
static void fz_teardown(void)
{
	unsigned int i;

	mutex_lock(&fz_pmu_lock);
	if (fz_pmu_registered)
		pfmk_pmu_unregister(&fz_pmu_desc);
	fz_pmu_registered = false;
	mutex_unlock(&fz_pmu_lock);
	for (i = 0; i < FZ_NSLOTS; i++)
		mutex_destroy(&fz_slots[i].lock);
	kvfree(fz_slots);
	fz_slots = NULL;
}

static int __init pfmk_fuzz_init(void)
{
	struct fz_result res, det1, det2, reg;
	struct pfmk_ktap k;
	unsigned int i;

	pfmk_ktap_plan(&k, KBUILD_MODNAME, FZ_NCASES);
	pr_info("# pfmk_fuzz: seed %lu (replay: seed=%lu threads=1 hotplug=0), aux_expected %d\n",
		seed, seed, fz_aux_expected);
	if (!fz_setup()) {
		pfmk_ktap_diag("out of memory");
		for (i = 0; i < FZ_NCASES; i++)
			pfmk_ktap_result(&k, fz_case_name[i], false);
		pfmk_ktap_end(&k);
		return 0;
	}
	/* Deterministic runs: seed 1 for regressions, then twice the seed. */
	fz_run(&reg, 1, 1, det_ops, false);
	fz_run(&det1, seed, 1, det_ops, false);
	fz_run(&det2, seed, 1, det_ops, false);
	/* The main run. */
	fz_run(&res, seed, clamp_val(threads, 1, FZ_MAX_THREADS), ops,
	       hotplug);

	fz_report_main(&k, &res);
	fz_report_det(&k, &reg, &det1, &det2);
	if (fz_hp_skip)
		pfmk_ktap_skip(&k, "hotplug_cycles", fz_hp_skip);
	else
		fz_result(&k, "hotplug_cycles",
			  fz_hp_cycles > 0 && !fz_hp_cpu_lost);
	fz_teardown();
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
