/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_test_thread.h - kthreads the test modules share
 *
 * For the KTAP modules, the KUnit suites (through pfmk_kunit.h) and
 * pfmk_bench: the start of a thread, waited for until it runs, the end
 * of a thread that waits for kthread_stop(), a thread that keeps its CPU
 * busy, and msr/tsc/ measured against ktime on such a CPU.
 *
 * pfmk_smoke (KTAP) and pfmk_dyn (KUnit) both check that msr/tsc/ counts
 * TSC ticks.  Both stay: the stock kernels have no KUnit, so pfmk_smoke's
 * case is the only one that runs there, and pfmk_dyn's is the debug
 * kernels' one next to the other dynamic descriptions.  The measurement
 * is here once; each module judges it with its own assertions.  Static
 * inline, as pfmk_ktap.h: no object to link into each module.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_TEST_THREAD_H
#define _PFMK_TEST_THREAD_H

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "pfmk_test_ops.h"

/**
 * pfmk_test_kthread_park() - end a thread, waiting for kthread_stop()
 *
 * A thread that handed over its results waits here, so that kthread_stop()
 * does not find it gone.
 *
 * Context: the thread, process context; sleeps.
 * Return: 0, the thread's exit code.
 */
static inline int pfmk_test_kthread_park(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/**
 * pfmk_test_kthread_start() - start a kthread and wait until it runs
 * @fn: the thread's function; it completes @started once it runs.
 * @arg: @fn's argument.
 * @cpu: the CPU to bind the thread to, or < 0 to leave it unbound.
 * @started: initialised here, then completed by @fn.
 * @name: the thread's name; "/@cpu" is added to it when bound.
 *
 * kthread_create(), kthread_bind() to @cpu, wake_up_process(), then wait
 * for @started: on return @fn got to its complete().  The caller stops
 * the thread with kthread_stop(); when this fails there is no thread.
 *
 * Context: process context; sleeps.
 * Return: the thread, or kthread_create()'s ERR_PTR().
 */
static inline struct task_struct *
pfmk_test_kthread_start(int (*fn)(void *), void *arg, int cpu,
			struct completion *started, const char *name)
{
	struct task_struct *t;

	init_completion(started);
	if (cpu >= 0)
		t = kthread_create(fn, arg, "%s/%d", name, cpu);
	else
		t = kthread_create(fn, arg, "%s", name);
	if (IS_ERR(t))
		return t;
	if (cpu >= 0)
		kthread_bind(t, cpu);
	wake_up_process(t);
	wait_for_completion(started);
	return t;
}

/**
 * pfmk_test_spin_fn() - keep a CPU busy until kthread_stop()
 * @arg: a struct completion, completed once the thread runs.
 *
 * The function of a kthread bound to the CPU a test counts on.
 *
 * Context: a kthread.
 * Return: 0.
 */
static inline int pfmk_test_spin_fn(void *arg)
{
	complete(arg);
	while (!kthread_should_stop()) {
		cpu_relax();
		cond_resched();
	}
	return 0;
}

/**
 * struct pfmk_test_tsc - what pfmk_test_msr_tsc() measured
 * @got: TSC ticks msr/tsc/ counted between the two reads.
 * @lo: ktime x tsc_khz over the shortest window between the two reads.
 * @hi: the same over the longest window.
 */
struct pfmk_test_tsc {
	u64	got;
	u64	lo;
	u64	hi;
};

#ifdef CONFIG_X86
#include <asm/tsc.h>

/**
 * pfmk_test_msr_tsc() - msr/tsc/ ticks over 200 ms of a busy CPU
 * @desc: a started context whose PMD 0 counts msr/tsc/ on @cpu.
 * @cpu: the CPU, kept busy meanwhile by a thread bound to it.
 * @w: the count and the ktime windows it must lie in, in TSC ticks.
 *
 * A guest's TSC is the one its kernel calibrated tsc_khz against.  A read
 * is an IPI to @cpu, whose vCPU a loaded host may hold for milliseconds:
 * each read is bracketed by ktime, and a caller expects @w->got within 2%
 * of @w->lo and @w->hi.  The thread is stopped before this returns,
 * whatever failed.
 *
 * Context: process context, sleeps.
 * Return: 0, kthread_create()'s errno, or pfmk_read_pmds()'s.
 */
static inline int pfmk_test_msr_tsc(void *desc, int cpu,
				    struct pfmk_test_tsc *w)
{
	struct completion started;
	struct task_struct *t;
	ktime_t t0[2], t1[2];
	u64 v0, v1;
	int r0, r1;

	t = pfmk_test_kthread_start(pfmk_test_spin_fn, &started, cpu, &started,
				    "pfmk_test_spin");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t0[0] = ktime_get();
	r0 = pfmk_test_read_pmds(desc, 0, 1, &v0);
	t0[1] = ktime_get();
	msleep(200);
	t1[0] = ktime_get();
	r1 = pfmk_test_read_pmds(desc, 0, 1, &v1);
	t1[1] = ktime_get();
	kthread_stop(t);
	w->got = v1 - v0;
	w->lo = div_u64(ktime_to_ns(ktime_sub(t1[0], t0[1])) * tsc_khz,
			1000000);
	w->hi = div_u64(ktime_to_ns(ktime_sub(t1[1], t0[0])) * tsc_khz,
			1000000);
	return r0 ?: r1;
}
#endif /* CONFIG_X86 */

#endif /* _PFMK_TEST_THREAD_H */
