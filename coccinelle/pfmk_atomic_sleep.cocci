// SPDX-License-Identifier: GPL-2.0-only
/// Every KAPI call but pfmk_get_global_stats() and pfmk_aux_supported()
/// may sleep (perf and pfmk take mutexes): none may be made under a
/// spinlock or rwlock, in an RCU read-side section, with preemption,
/// interrupts or bottom halves off, or from a function that runs in
/// atomic context: a hard interrupt handler, a timer, hrtimer or tasklet,
/// an IPI (smp_call_function*(), on_each_cpu()), an RCU callback or the
/// copy function of pfmk_aux_copy().  Move the call out of the section,
/// or defer it to a work item or a kthread.  A kernel with
/// CONFIG_DEBUG_ATOMIC_SLEEP reports the cases this misses at run time
/// (the calls start with might_sleep()'s check, __might_sleep()).
//
// Keywords: might_sleep, spin_lock, rcu_read_lock, interrupt handler
// Confidence: High
// Copyright: (C) 2026 The pfmk authors
// URL: Documentation/install.rst
// Comments: a section is taken to end at the first unlock of any kind
//  (nested sections are not told apart), and callbacks are recognised by
//  their registration in the same file.
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

@locked exists@
identifier f = {pfmk_create_context, __pfmk_create_context, pfmk_write_pmcs,
		pfmk_write_pmds, pfmk_read_pmds, pfmk_read_pmds_time,
		pfmk_restart, pfmk_stop, pfmk_start, pfmk_load_context,
		pfmk_unload_context, pfmk_delete_evtsets, pfmk_create_evtsets,
		pfmk_getinfo_evtsets, pfmk_close, pfmk_read, pfmk_get_state,
		pfmk_get_stats, pfmk_aux_setup, pfmk_aux_copy, pfmk_encode};
position p1, p2;
@@

(
spin_lock@p1
|
spin_lock_irq@p1
|
spin_lock_irqsave@p1
|
spin_lock_bh@p1
|
raw_spin_lock@p1
|
raw_spin_lock_irq@p1
|
raw_spin_lock_irqsave@p1
|
read_lock@p1
|
read_lock_irq@p1
|
read_lock_irqsave@p1
|
read_lock_bh@p1
|
write_lock@p1
|
write_lock_irq@p1
|
write_lock_irqsave@p1
|
write_lock_bh@p1
|
rcu_read_lock@p1
|
rcu_read_lock_bh@p1
|
rcu_read_lock_sched@p1
|
preempt_disable@p1
|
local_irq_disable@p1
|
local_irq_save@p1
|
local_bh_disable@p1
)
 (...);
... when != \(spin_unlock\|spin_unlock_irq\|spin_unlock_irqrestore\|spin_unlock_bh\|raw_spin_unlock\|raw_spin_unlock_irq\|raw_spin_unlock_irqrestore\|read_unlock\|read_unlock_irq\|read_unlock_irqrestore\|read_unlock_bh\|write_unlock\|write_unlock_irq\|write_unlock_irqrestore\|write_unlock_bh\|rcu_read_unlock\|rcu_read_unlock_bh\|rcu_read_unlock_sched\|preempt_enable\|preempt_enable_no_resched\|local_irq_enable\|local_irq_restore\|local_bh_enable\)(...);
f@p2(...)

@cb@
identifier h;
expression E1, E2;
@@

(
request_irq(E1, h, ...)
|
devm_request_irq(E1, E2, h, ...)
|
request_threaded_irq(E1, h, ...)
|
timer_setup(E1, h, ...)
|
hrtimer_setup(E1, h, ...)
|
pfmk_hrtimer_setup(E1, h, ...)
|
tasklet_setup(E1, h)
|
tasklet_init(E1, h, ...)
|
smp_call_function_single(E1, h, ...)
|
smp_call_function_many(E1, h, ...)
|
smp_call_function(h, ...)
|
on_each_cpu(h, ...)
|
call_rcu(E1, h)
|
pfmk_aux_copy(E1, E2, h, ...)
|
E1->function = h
|
E1.function = h
)

@atomic exists@
identifier cb.h;
identifier f = {pfmk_create_context, __pfmk_create_context, pfmk_write_pmcs,
		pfmk_write_pmds, pfmk_read_pmds, pfmk_read_pmds_time,
		pfmk_restart, pfmk_stop, pfmk_start, pfmk_load_context,
		pfmk_unload_context, pfmk_delete_evtsets, pfmk_create_evtsets,
		pfmk_getinfo_evtsets, pfmk_close, pfmk_read, pfmk_get_state,
		pfmk_get_stats, pfmk_aux_setup, pfmk_aux_copy, pfmk_encode};
position p2;
@@

h(...)
{
<+...
f@p2(...)
...+>
}

@depends on context@
identifier locked.f;
position locked.p1, locked.p2;
identifier l;
@@

* l@p1(...);
...
* f@p2(...)

@depends on context@
identifier atomic.f;
position atomic.p2;
@@

* f@p2(...)

@script:python depends on org@
f << locked.f;
p1 << locked.p1;
p2 << locked.p2;
@@

cocci.print_main("%s() may sleep" % f, p2)
cocci.print_secs("atomic section", p1)

@script:python depends on org@
f << atomic.f;
h << cb.h;
p2 << atomic.p2;
@@

cocci.print_main("%s() may sleep, in %s()" % (f, h), p2)

@script:python depends on report@
f << locked.f;
p1 << locked.p1;
p2 << locked.p2;
@@

msg = "ERROR: %s() may sleep: called in the atomic section (lock, RCU read side, preemption or interrupts off) entered on line %s; move the call out of it" % (f, p1[0].line)
coccilib.report.print_report(p2[0], msg)

@script:python depends on report@
f << atomic.f;
h << cb.h;
p2 << atomic.p2;
@@

msg = "ERROR: %s() may sleep: %s() runs in atomic context (interrupt handler, timer, tasklet, IPI, RCU or pfmk_aux_copy() callback); defer the call to a work item or a kthread" % (f, h)
coccilib.report.print_report(p2[0], msg)
