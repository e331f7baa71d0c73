/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk core internal header: what core/ offers kapi/, the layer above it,
 * and what the files of core/ share.  It includes pmu/internal.h, the
 * layer below; pmu/ never includes this.  Two headers of core/ are its
 * own business, included only by the files of core/ that need them: the
 * perf glue (core/perf.h: core/perf.c's functions, the inline loops that
 * enable and disable a set's events, and every access to perf's own
 * structures) and the default sampling format's internals
 * (core/smpl_dfl.h).  Client modules use <pfmk/pfmk.h> and <pfmk/pmu.h>
 * only.
 *
 * Naming: pfmk_ctx_*() act on a context whose mutex the caller holds (the
 * kapi/ layer takes it), and assert it with lockdep_assert_held().  The
 * exceptions are named here: the life cycle, which runs before a context
 * can be locked or after nothing can lock it any more (pfmk_ctx_create(),
 * pfmk_ctx_free(), pfmk_ctx_cache_init() and pfmk_ctx_cache_exit(), and
 * the static helpers of core/context.c they call), and pfmk_ctx_is(), the
 * check of a pinned context.  pfmk_desc_*() manage descriptors (handles)
 * and what a call takes through one (core/desc.c): the table, the
 * context's references (pfmk_desc_get(), pfmk_desc_put()) and its lock
 * (pfmk_desc_lock(), pfmk_desc_unlock()).  pfmk_perf_*() are the perf
 * glue (core/perf.h); pfmk_ovfl_*() the overflow path and the statistics
 * it keeps (core/ovfl.c); pfmk_dfl_*() the default format
 * (core/smpl_dfl.h); pfmk_aux_*() the AUX set-up of a context
 * (core/aux.c); pfmk_msgq_*() the message queue, under its own lock.
 *
 * The lock order and lifetimes are the DOC: block below.
 *
 * Copyright (C) 2026 The pfmk authors
 */

/**
 * DOC: Lock order
 *
 * From the outermost lock to the innermost; a lock is taken only inside
 * those above it at a lesser indentation, never inside its siblings::
 *
 *   pfmk_pmu_lock                  PMU description registry (pmu/pmu_desc.c),
 *                                  writers only: lookups are under RCU
 *   pfmk_smpl_lock                 sampling format registry (core/smpl.c)
 *   ctx->mutex                     one context; held by every KAPI call
 *                                  but pfmk_read() (a reference only)
 *                                  and the lockless pfmk_read_pmds()
 *     pfmk_dyn_lock                dynamic descriptions (pmu/pmu_dyn.c)
 *       pfmk_pmu_bus_lock          finding perf's bus (pmu/perf_pmu.c):
 *                                  creates and releases a software event
 *                                  and registers a bus notifier while
 *                                  held, so it encloses what those take
 *                                  (cpu_hotplug_lock for reading,
 *                                  perf_event_context::mutex, the bus's
 *                                  notifier rwsem)
 *       pfmk_pmu_reg_lock          uses of a perf PMU found by name
 *                                  (pmu/perf_pmu.c); innermost: taken by
 *                                  a bus notifier under perf's pmus_lock
 *     cpu_hotplug_lock (read)      perf, when it flips static keys
 *     pfmk_hp_cpus.lock            a CPU's loaded contexts and up flag
 *                                  (core/hotplug.c): under ctx->mutex
 *                                  (attach, detach), and by the cpuhp
 *                                  callbacks under cpu_hotplug_lock held
 *                                  for writing
 *     perf_event_context::mutex    taken inside perf_event_*() calls
 *     pfmk_crash_lock              writers of the crash list (core/crash.c)
 *     ctx->msgq.lock               raw spinlock, irq-safe, never sleeps
 *     pfmk_desc_mutex              descriptor table (core/desc.c); innermost:
 *                                  under ctx->mutex at close, alone at
 *                                  create
 *   pfmk_completion_lock           a leaf, taken alone at create to
 *                                  initialise a blank completion
 *                                  (core/context.c)
 *
 * Every function that requires ctx->mutex says so in its Context: line
 * and asserts it with lockdep_assert_held().
 *
 * CPU hotplug callbacks (core/hotplug.c) run with cpu_hotplug_lock held
 * for writing, so they must not take ctx->mutex (a KAPI call holding it
 * may wait for cpu_hotplug_lock inside perf: creating or releasing a
 * software event flips a static key) nor call perf functions that take
 * cpu_hotplug_lock: they only flag the context and queue ctx->hp_work,
 * which does the work under ctx->mutex.
 *
 * The overflow path (core/ovfl.c) takes no lock: it may run in NMI.  It
 * owns a context's overflow state through ctx->ovfl_busy (one handler at
 * a time; a nested one is counted and dropped) and publishes PMD values
 * and overflow statistics through ctx->ovfl_seq, a seqcount its readers
 * retry on.  Process context changes overflow state only while the
 * context's events are disabled, so never concurrently with a handler:
 * disabling is an IPI to the context's CPU, which a handler in NMI or
 * hard-irq has left; a software event's handler, which runs with
 * interrupts on, is waited for by pfmk_ctx_sync_handlers().
 * Notifications leave the overflow path through ctx->irq_work (hard-irq),
 * which queues the message and completes the owner's completion.
 *
 * No pfmk lock but the context's mutex is held while pfmk calls a PMU
 * description's or a sampling format's callbacks; they must not call back
 * into pfmk.
 *
 * Descriptor lookups run under RCU.  A KAPI call takes a reference
 * (ctx->ref) under RCU, then ctx->mutex, and drops both when it returns
 * (pfmk_desc_lock(), pfmk_desc_unlock()).  A context's memory goes back to
 * its SLAB_TYPESAFE_BY_RCU cache with the last reference: a lookup under
 * RCU may find it reused by a new context, and checks, once it has pinned
 * it (reference or read pass), that it is still the descriptor's
 * (pfmk_ctx_is()).  Everything else a
 * context owns (perf events, registers, the PMU description's module
 * reference) is freed by pfmk_close() under ctx->mutex, after which every
 * call on the context returns -EBADF.
 */

#ifndef _PFMK_INTERNAL_H
#define _PFMK_INTERNAL_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/irqflags.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <asm/local.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu.h>
#include <pfmk/smpl.h>
#include <pfmk/smpl_dfl.h>

#include "../pmu/internal.h"

/* Depth of a context's message queue (perfmon2: PFM_MAX_MSGS). */
#define PFMK_MSGQ_LEN		8

/* Input reg_flags each register type accepts. */
#define PFMK_PMC_FLAGS		PFM_REGFL_NO_EMUL64
#define PFMK_PMD_FLAGS		(PFM_REGFL_OVFL_NOTIFY | PFM_REGFL_RANDOM)

/* Set flags pfmk_create_evtsets() accepts. */
#define PFMK_SET_FLAGS		(PFM_SETFL_OVFL_SWITCH | PFM_SETFL_TIME_SWITCH | \
				 PFM_SETFL_EXPL_NEXT)

/* Most event sets a context may have, set 0 included. */
#define PFMK_MAX_SETS		64

/* Shortest switch timeout, in microseconds; shorter ones are rounded up. */
#define PFMK_SET_MIN_TIMEOUT_US	100

struct pfmk_crash;

/* Context flags pfmk_create_context() accepts. */
#define PFMK_CTX_FLAGS		(PFM_FL_SYSTEM_WIDE | PFM_FL_OVFL_NO_MSG)

/*
 * The check of might_sleep() that opens every KAPI call that locks its
 * context or allocates, without its voluntary preemption point: a caller
 * in atomic context is caught on kernels that check
 * (CONFIG_DEBUG_ATOMIC_SLEEP), a bad descriptor's call too, and a call
 * that goes on reschedules in its mutex_lock() or allocation, which have
 * their own.  Each preemption point is a static call into the scheduler
 * on Debian's kernels: four of them were about 1 % of a create .. close.
 * The calls that may take no mutex (pfmk_read_pmds()'s lockless path,
 * pfmk_read()) keep might_sleep(), for callers that poll.
 */
#define pfmk_might_sleep()	__might_sleep(__FILE__, __LINE__)

/**
 * struct pfmk_pmd - a 64-bit virtual PMD and the perf event behind it
 * @value: virtual value at the last sync with @event.
 * @perf_base: perf count of @event at the last sync.
 * @time_enabled: enabled ns of the events released before @event.
 * @time_running: running ns of the events released before @event.
 * @long_reset: reg_long_reset.
 * @short_reset: reg_short_reset.
 * @short_period: perf sample period of @short_reset (the plain path's).
 * @last_reset_val: reg_last_reset_val.
 * @ovfl_switch_cnt: reg_ovfl_switch_cnt.
 * @ovfl_switch_left: overflows left before the set switches (overflow
 *	path), reloaded from @ovfl_switch_cnt when the set is activated.
 * @reset_pmds: reg_reset_pmds.
 * @smpl_pmds: reg_smpl_pmds.
 * @eventid: reg_smpl_eventid.
 * @random_mask: reg_random_mask.
 * @random_seed: reg_random_seed.
 * @flags: PFM_REGFL_* input flags.
 * @rand_state: state of the PFM_REGFL_RANDOM generator.
 * @reset_pending: masked by its overflow (or in the reg_reset_pmds of the
 *	PMD whose overflow masked): no short reset was done, pfmk_restart()
 *	reloads the long reset value.
 * @has_reset_pmds: @reset_pmds names a PMD (the overflow path's test).
 * @has_smpl_pmds: @smpl_pmds names a PMD (the overflow path's test).
 * @ovfl_plain: an overflow may take the overflow path's plain sample: the
 *	default format without AUX snippets, no @reset_pmds, no @smpl_pmds,
 *	no PFM_REGFL_RANDOM, in a set that does not switch on overflows
 *	(pfmk_pmd_set_plain(), at every change of one of these).
 * @num: PMD number.
 * @ctx: the context, for the overflow handler.
 * @set: the set the PMD belongs to.
 * @event: perf event counting for this PMD while loaded, else NULL.
 *	Written under ctx->mutex, in a ctx->state_seq write section, and
 *	read under RCU by the lockless read (perf frees events after a
 *	grace period): through pfmk_pmd_event() and its kin only.
 *
 * The PMD's current value is @value + (count of @event - @perf_base).
 * While the event can overflow, the overflow handler changes @value,
 * @perf_base, @last_reset_val and @rand_state under ctx->ovfl_seq.
 */
struct pfmk_pmd {
	u64			value;
	u64			perf_base;
	u64			time_enabled;
	u64			time_running;
	u64			long_reset;
	u64			short_reset;
	u64			short_period;
	u64			last_reset_val;
	u64			ovfl_switch_cnt;
	u64			ovfl_switch_left;
	u64			reset_pmds[PFM_PMD_BV];
	u64			smpl_pmds[PFM_PMD_BV];
	u64			eventid;
	u64			random_mask;
	u32			random_seed;
	u32			flags;
	u32			rand_state;
	bool			reset_pending;
	bool			has_reset_pmds;
	bool			has_smpl_pmds;
	bool			ovfl_plain;
	u16			num;
	struct pfmk_ctx		*ctx;
	struct pfmk_set		*set;
	struct perf_event __rcu	*event;
};

/**
 * struct pfmk_set - an event set: PMC values, PMDs and switching rules
 * @list: entry in the context's @sets list, sorted by @id.
 * @id: set identifier.
 * @id_next: next set with PFM_SETFL_EXPL_NEXT.
 * @flags: PFM_SETFL_* flags.
 * @timeout_us: effective switch timeout with PFM_SETFL_TIME_SWITCH, us.
 * @pmcs: PMC values, one per PMC of the description.
 * @pmds: PMDs, one per PMD of the description.
 * @ovfl_pmds: PMDs whose overflows made the set switch, last time.
 * @runs: number of activations (starts and switches to the set).
 * @duration: ns the set was active, but for what @clk's events and the
 *	current activation add (pfmk_set_active_time()).
 * @act_start: with no @clk: local_clock() at the current activation, 0
 *	if not counting; 0 with a @clk.
 * @clk: the PMD whose events' enabled time times the set (perf keeps it
 *	at their enable and disable), or NULL: the set has no event, and
 *	@act_start times it.  Chosen when the set's events change
 *	(pfmk_set_time_source()); its enabled time carries over the
 *	release of its events (the PMD's @time_enabled).
 * @clk_base: enabled ns of @clk when it became the set's clock.
 * @act_seen: the largest active time getinfo reported: perf may read an
 *	inactive event's enabled time on a CPU whose clock lags, a little
 *	behind what it read before (pfmk_set_active_time()).
 * @ev_span: no PMD from this index on has an event (an upper bound, under
 *	ctx->mutex: start, stop and unload go through @pmds up to it, not
 *	all).
 * @pmd_span: no PMD from this index on was changed since the set was
 *	created (an upper bound, under ctx->mutex): the PMDs of a client's
 *	writes (pfmk_pmd_apply()), of those writes' reset bit vectors, which
 *	the overflow path changes, and those that had an event
 *	(pfmk_set_event_added()).  Set 0 is cleaned up to it at close.
 * @pmcs_written: PMCs written since the set was created; a load asks the
 *	description only about these and the PMDs not off by default
 *	(pfmk_perf_load_set()).  Under ctx->mutex.
 * @rcu: frees a set other than set 0 after lockless readers are done.
 *
 * A set and its register arrays are one allocation (set 0's are part of
 * the context's).  The list is changed under ctx->mutex and walked under
 * it or under RCU (the lockless read path, core/regs.c).
 */
struct pfmk_set {
	struct list_head	list;
	struct rcu_head		rcu;
	u16			id;
	u16			id_next;
	u32			flags;
	u32			timeout_us;
	u64			*pmcs;
	struct pfmk_pmd		*pmds;
	u64			ovfl_pmds[PFM_PMD_BV];
	u64			runs;
	u64			duration;
	u64			act_start;
	struct pfmk_pmd		*clk;
	u64			clk_base;
	u64			act_seen;
	unsigned int		ev_span;
	unsigned int		pmd_span;
	DECLARE_BITMAP(pmcs_written, PFM_MAX_HW_PMDS);
};

/**
 * struct pfmk_msgq - bounded message queue of a context
 * @lock: protects the queue; taken with interrupts disabled.
 * @head: index of the oldest message.
 * @count: number of queued messages.
 * @dropped: messages lost because the queue was full.
 * @msgs: ring of messages.
 */
struct pfmk_msgq {
	raw_spinlock_t		lock;	/* see Lock order */
	unsigned int		head;
	unsigned int		count;
	u64			dropped;
	union pfm_msg		msgs[PFMK_MSGQ_LEN];
};

/**
 * struct pfmk_ctx - a monitoring context
 * @mutex: serializes the KAPI calls on the context.
 * @state_seq: lets lockless readers (pfmk_read_pmds()) see a consistent
 *	view of what process context changes under @mutex: each PMD's
 *	event, value and perf_base, @dead and the set list (@cpu is only a
 *	hint to them, read with READ_ONCE()).  A plain seqcount_t, written
 *	only under @mutex with interrupts off: a seqcount_mutex_t reader
 *	would take @mutex on PREEMPT_RT, which the lockless read cannot do
 *	with interrupts off or in its IPI.
 * @ref: references: one from creation until close, one per call in flight.
 * @cookie: keyed tag, the upper half of the descriptor.
 * @dead: closed, or not yet ready to be published: cleared by
 *	pfmk_desc_alloc() just before it publishes, set under @mutex, read
 *	locklessly by waiting readers.
 * @cache_class: the size class whose cache the memory belongs to
 *	(pfmk_ctx_free()); the same for every context the memory holds.
 * @read_passes: lockless read passes inside the context
 *	(pfmk_read_pmds_lockless()); close waits for them to leave.
 * @id: index in the descriptor table.
 * @counted: counted in pfmk_counters.created, so its last reference counts
 *	it freed (a create that fails counts neither).
 * @flags: PFM_FL_* flags given at creation.
 * @pmu: PMU description; its module is pinned until close.
 * @owner: module that created the context (NULL: built-in code); its
 *	contexts are reclaimed when it goes away (core/reclaim.c).
 * @mem: bytes charged to pfmk_counters.mem_bytes for this context.
 * @completion: the owner's completion, for pfmk_read().
 * @fmt: sampling format, or NULL.
 * @smpl_buf: sampling buffer (vmalloc), or NULL.
 * @smpl_size: size of @smpl_buf.
 * @smpl_priv: the format's private state (kmalloc, fmt->priv_size), or
 *	NULL.
 * @smpl_vals: scratch space for the overflow handler, one u64 per PMD.
 * @smpl_aux: scratch space for the AUX snippet of an overflow, after
 *	@smpl_vals in the same allocation; @smpl_aux_max bytes.
 * @smpl_aux_max: AUX snippet bytes the format records per overflow
 *	(->aux_size()), 0 if none.
 * @smpl_plain: the format is the default one, without AUX snippets: the
 *	overflow path may write its entries in place (pfmk_ovfl_handler()).
 * @nregs: number of PMCs and PMDs of the description, for lockless
 *	readers, which must not look at @pmu.
 * @rcu: frees a context of a large PMU description after the last
 *	reference (pfmk_ctx_free()).
 * @state: PFM_CTX_UNLOADED, PFM_CTX_LOADED or PFM_CTX_MASKED.
 * @started: monitoring started (pfmk_start() without pfmk_stop()).
 * @cpu: monitored CPU while loaded, else -1.
 * @set0: the default event set, always present.
 * @sets: every set, @set0 included, sorted by id.
 * @nr_sets: number of sets in @sets.
 * @active_set: the set counting while loaded and started; &@set0 while
 *	unloaded.  Published with RCU: the crash path reads it without
 *	@mutex (pfmk_ctx_active_set() under it).
 * @aux: AUX set-up (core/aux.c), or NULL; published with RCU and freed
 *	after a grace period: the overflow and crash paths read it without
 *	@mutex (pfmk_ctx_aux() under it).
 * @crash: crash set-up (core/crash.c), or NULL.
 * @readers: pfmk_read() calls waiting on @completion (atomic: they wait
 *	without @mutex; close waits for them to leave).
 * @ovfl_irqs_on: a sampling event whose overflow handler runs with
 *	interrupts on (software events) was created since the last unload:
 *	disabling its events does not wait for such a handler, the caller
 *	does (pfmk_ctx_sync_handlers()).
 * @ovfl_busy: an overflow handler of this context is running.  A local_t:
 *	every event of a context counts on @cpu, so its handlers all run
 *	there, and only nest (NMI over hard-irq or a software event's task);
 *	an interrupt-safe cmpxchg without a bus lock is enough.
 * @ovfl_seq: PMD values changed by the overflow handler.
 * @masked: monitoring masked by a notification, until pfmk_restart().
 * @frozen: frozen by a crash (core/crash.c): the overflow handler records
 *	nothing any more; set once, in the crash path, until close.
 * @ovfl_off: @masked and @frozen, read in one load by the overflow
 *	handler (non-zero: neither records); each is written alone, as a
 *	byte, by its own writers.
 * @stats: overflow statistics, written by the overflow handler (one at a
 *	time) and by pfmk_restart() (while no handler runs); msgs_dropped
 *	lives in @msgq, ovfl_nested and throttled below.
 * @ovfl_nested: nested overflows (atomic: the nested handler counts).
 * @throttled: overflows at which perf throttled (atomic, same reason).
 * @irq_work: delivers notifications out of the overflow path.
 * @msg_pending: @pending_msg is to be queued by @irq_work.
 * @notify_wake: @irq_work is to complete the owner's completion.
 * @pending_msg: message built by the overflow handler.
 * @msgq: message queue, under its own irq-safe @msgq.lock.
 * @switch_timer: ends the active set's timeout (PFM_SETFL_TIME_SWITCH).
 *	Set up only once a set of the context has that flag
 *	(pfmk_ctx_create_sets()): most contexts never arm it.
 * @switch_timer_ready: @switch_timer is set up; under @mutex.
 * @switch_work: switches sets, under @mutex (core/sets.c).
 * @switch_req: a switch was requested by the timer or the overflow path
 *	and is not done yet.
 * @switch_req_ns: CLOCK_MONOTONIC ns when the switch came due (the timer's
 *	expiry, or the overflow), for the latency.
 * @switch_kick: the overflow path wants a switch; @irq_work requests it.
 * @switch_kick_ns: ktime_get_mono_fast_ns() (NMI-safe) at that overflow.
 * @hp_entry: on the list of ctx->cpu's loaded contexts (core/hotplug.c)
 *	while loaded; that list's lock protects it.
 * @hp_work: applies CPU hotplug events under @mutex.
 * @hp_gone: set by the offline callback of @cpu, cleared by its online
 *	callback.
 * @hp_gen: offline callbacks of @cpu seen since load.
 * @hp_done: value of @hp_gen the events were last checked against
 *	(written under @mutex, read locklessly for the pending check).
 * @offline: loaded but without events: @cpu went offline; PMD values are
 *	saved and re-armed when it comes back (written under @mutex).
 * @set0_regs: set 0's registers (pfmk_set_regs_size() of the size class's
 *	registers, or of @nregs beyond the classes), allocated with the
 *	context.  A create does not clear them: the constructor, then the
 *	close of the previous context (pfmk_sets_free()), left them clean
 *	(pfmk_set_clean()).
 *
 * The fields are grouped by who may write them, as in perf's struct
 * perf_event_context (DOC: Lock order above):
 *
 * - Type-stable, @mutex to @read_passes: contexts of the size classes
 *   come from SLAB_TYPESAFE_BY_RCU caches (core/context.c), so a lookup
 *   under RCU may find the memory of a context closed, freed and created
 *   again.  These fields keep their meaning across that reuse (set up
 *   once by the cache's constructor, never cleared by a create; so are
 *   @set0_regs, kept clean instead, see there, the message ring's
 *   slots, read only once queued again after pfmk_msgq_init(), and the
 *   set switching and CPU hotplug groups, which pfmk_sets_init() and
 *   pfmk_hotplug_init_ctx() set field by field), and every
 *   lockless user that looks at more than them pins the context first
 *   (@ref or @read_passes) and then checks that it is still the
 *   descriptor's, @dead then @cookie (pfmk_ctx_is()).  @mutex and @dead
 *   are otherwise in the @mutex group, @state_seq too.
 * - Fixed from pfmk_ctx_create() to the last reference, @id to @rcu:
 *   written before the descriptor is published, read anywhere; close
 *   frees what they point to, under @mutex, after every event is gone.
 * - Under @mutex, @nregs to @readers: every KAPI call holds it, except
 *   the lockless read, which retries on @state_seq (Documentation/
 *   locking.rst, "The lockless read path").  The
 *   overflow path reads the sets and @active_set only while the events
 *   run, and process context changes them only with the events disabled.
 * - Overflow path, @ovfl_busy to @msgq: no lock (NMI, hard-irq or a
 *   software event's task on @cpu, one handler at a time through
 *   @ovfl_busy); process context writes
 *   them only while the events are disabled, and reads PMD values and
 *   @stats under @ovfl_seq.
 * - Set switching, @switch_timer to @switch_kick_ns: requested by
 *   @switch_timer or the overflow path, done by @switch_work under @mutex.
 * - CPU hotplug, @hp_entry to @offline: the cpuhp callbacks write the
 *   atomics and queue @hp_work, which applies them under @mutex.
 */
struct pfmk_ctx {
	/* type-stable: kept while the memory is reused, see @mutex */
	struct mutex			mutex;	/* see Lock order */
	seqcount_t			state_seq;
	refcount_t			ref;
	u32				cookie;
	bool				dead;
	u8				cache_class;
	atomic_t			read_passes;

	/* fixed from creation to the last reference */
	u32				id;
	bool				counted;
	u32				flags;
	const struct pfmk_pmu_desc	*pmu;
	struct module			*owner;
	size_t				mem;
	struct completion		*completion;
	const struct pfmk_smpl_fmt	*fmt;
	void				*smpl_buf;
	size_t				smpl_size;
	void				*smpl_priv;
	u64				*smpl_vals;
	void				*smpl_aux;
	size_t				smpl_aux_max;
	bool				smpl_plain;
	struct rcu_head			rcu;

	/* under @mutex */
	unsigned int			nregs;
	unsigned int			state;
	bool				started;
	int				cpu;
	struct pfmk_set			set0;
	struct list_head		sets;
	unsigned int			nr_sets;
	struct pfmk_set __rcu		*active_set;
	struct pfmk_aux __rcu		*aux;
	struct pfmk_crash		*crash;
	atomic_t			readers;
	bool				ovfl_irqs_on;

	/* overflow path: no lock, see @ovfl_busy and @ovfl_seq */
	local_t				ovfl_busy;
	seqcount_t			ovfl_seq;
	union {
		struct {
			bool		masked;
			bool		frozen;
		};
		u16			ovfl_off;
	};
	struct pfmk_ctx_stats		stats;
	atomic64_t			ovfl_nested;
	atomic64_t			throttled;
	struct irq_work			irq_work;
	bool				msg_pending;
	atomic_t			notify_wake;
	union pfm_msg			pending_msg;
	struct pfmk_msgq		msgq;

	/*
	 * Not cleared by a create (pfmk_ctx_alloc()): a field added to the
	 * set switching or hotplug groups is set in pfmk_sets_init() or
	 * pfmk_hotplug_init_ctx().
	 */
	/* set switching: requested locklessly, done under @mutex */
	struct hrtimer			switch_timer;
	bool				switch_timer_ready;
	struct work_struct		switch_work;
	atomic_t			switch_req;
	u64				switch_req_ns;
	atomic_t			switch_kick;
	u64				switch_kick_ns;

	/* CPU hotplug: atomics from cpuhp callbacks, applied under @mutex */
	struct hlist_node		hp_entry;
	struct work_struct		hp_work;
	atomic_t			hp_gone;
	atomic_t			hp_gen;
	int				hp_done;
	bool				offline;

	/* set 0's registers, as the fixed group */
	u64				set0_regs[];
};

/* @ovfl_off covers @masked and @frozen, and nothing else. */
static_assert(sizeof_field(struct pfmk_ctx, ovfl_off) ==
	      sizeof_field(struct pfmk_ctx, masked) +
	      sizeof_field(struct pfmk_ctx, frozen));

/**
 * pfmk_pmd_event() - a PMD's perf event, for its context's lock holder
 * @pmd: the PMD.
 *
 * Context: ctx->mutex held.
 * Return: the event, or NULL.
 */
static inline struct perf_event *pfmk_pmd_event(const struct pfmk_pmd *pmd)
{
	return rcu_dereference_protected(pmd->event,
					 lockdep_is_held(&pmd->ctx->mutex));
}

/**
 * pfmk_ctx_aux() - a context's AUX set-up, for its lock holder
 * @ctx: the context.
 *
 * The overflow path (pfmk_aux_snippet()) and the crash path
 * (pfmk_aux_crash_copy()) read @ctx->aux without the mutex.
 *
 * Context: ctx->mutex held.
 * Return: the set-up, or NULL.
 */
static inline struct pfmk_aux *pfmk_ctx_aux(const struct pfmk_ctx *ctx)
{
	return rcu_dereference_protected(ctx->aux,
					 lockdep_is_held(&ctx->mutex));
}

/**
 * pfmk_ctx_active_set() - a context's active set, for its lock holder
 * @ctx: the context.
 *
 * The crash path reads @ctx->active_set without the mutex, under RCU
 * (pfmk_crash_keep_pmds()); sets are freed a grace period after their
 * deletion.
 *
 * Context: ctx->mutex held.
 * Return: the active set; NULL only while the context is being freed.
 */
static inline struct pfmk_set *pfmk_ctx_active_set(const struct pfmk_ctx *ctx)
{
	return rcu_dereference_protected(ctx->active_set,
					 lockdep_is_held(&ctx->mutex));
}

/**
 * pfmk_pmd_event_ovfl() - a PMD's perf event, for the overflow path
 * @pmd: a PMD of the set whose event overflowed.
 *
 * Lockless by design, not under RCU: process context replaces a PMD's
 * event only while the context's events are disabled, so never under a
 * running handler (DOC: Lock order).
 *
 * Context: an overflow handler of the context (NMI, hard-irq, or a
 * software event's task with preemption off).
 * Return: the event, or NULL.
 */
static __always_inline struct perf_event *
pfmk_pmd_event_ovfl(const struct pfmk_pmd *pmd)
{
	return rcu_dereference_raw(pmd->event);
}

/**
 * pfmk_pmd_event_rcu() - a PMD's perf event, for the lockless read
 * @pmd: a PMD found under RCU.
 *
 * With interrupts off, as the lockless read runs (here or in an IPI), the
 * CPU is in an RCU read-side section, which keeps the event allocated;
 * the caller's retry on ctx->state_seq catches a change of it.
 *
 * Context: interrupts off, or within rcu_read_lock().
 * Return: the event, or NULL.
 */
static inline struct perf_event *pfmk_pmd_event_rcu(const struct pfmk_pmd *pmd)
{
	return rcu_dereference_check(pmd->event, rcu_read_lock_any_held());
}

/**
 * pfmk_pmd_set_event() - publish a PMD's new perf event
 * @pmd: the PMD.
 * @event: the event, or NULL.
 *
 * Context: ctx->mutex held, inside pfmk_ctx_write_begin() and
 * pfmk_ctx_write_end().
 */
static inline void pfmk_pmd_set_event(struct pfmk_pmd *pmd,
				      struct perf_event *event)
{
	lockdep_assert_held(&pmd->ctx->mutex);
	rcu_assign_pointer(pmd->event, event);
}

/**
 * pfmk_ctx_sync_handlers() - wait for overflow handlers the disable missed
 * @ctx: the context, locked, whose events were just disabled or released.
 *
 * Disabling an event is an IPI to its CPU: a handler running there in
 * NMI or hard-irq has finished when it returns.  Some software events'
 * handlers run in the task that raised the event with interrupts on (a
 * page fault): the IPI may have interrupted one, and it goes on
 * afterwards.  It runs with preemption off, an RCU read-side section: an
 * expedited grace period waits for it.  Only contexts with such an event
 * wait, but the grace period interrupts every busy CPU of the machine:
 * ctx->mutex is held across it.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
static inline void pfmk_ctx_sync_handlers(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	if (ctx->ovfl_irqs_on)
		synchronize_rcu_expedited();
}

/**
 * pfmk_ctx_write_begin() - start a change lockless readers must see whole
 * @ctx: the context, locked.
 *
 * Brackets, with pfmk_ctx_write_end(), every change of a PMD's event,
 * value or perf_base, of the context's death, and of its set list.  The
 * section must not sleep.  Interrupts are off in it: the lockless read
 * also runs in an IPI on the context's CPU, and must not spin there on
 * a section it interrupted (lockdep: IN-HARDIRQ-R vs HARDIRQ-ON-W).
 *
 * Context: process context; ctx->mutex held.
 */
static inline void pfmk_ctx_write_begin(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	local_irq_disable();
	write_seqcount_begin(&ctx->state_seq);
}

/**
 * pfmk_ctx_write_end() - end a change started by pfmk_ctx_write_begin()
 * @ctx: the context, locked.
 *
 * Context: process context; ctx->mutex held.
 */
static inline void pfmk_ctx_write_end(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	write_seqcount_end(&ctx->state_seq);
	local_irq_enable();
}

/* core/limits.c: limits and pfmk-wide accounting */
extern unsigned int pfmk_max_contexts;
extern unsigned int pfmk_max_events;
extern unsigned long pfmk_max_smpl_buf;
extern unsigned long pfmk_max_smpl_mem;

/**
 * struct pfmk_counters - pfmk-wide counters (see struct pfmk_global_stats)
 * @created: contexts created.
 * @freed: contexts whose memory was released.
 * @open: contexts not closed yet.
 * @reclaimed: contexts closed because their module went away.
 * @events: perf events held.
 * @smpl_bytes: bytes of sampling buffers.
 * @mem_bytes: bytes held by open contexts.
 * @cpu_offline: contexts taken offline with their CPU.
 * @cpu_online: contexts re-armed.
 * @rearm_failed: failed re-arms.
 */
struct pfmk_counters {
	atomic64_t	created;
	atomic64_t	freed;
	atomic_t	open;
	atomic64_t	reclaimed;
	atomic_t	events;
	atomic_long_t	smpl_bytes;
	atomic_long_t	mem_bytes;
	atomic64_t	cpu_offline;
	atomic64_t	cpu_online;
	atomic64_t	rearm_failed;
};

extern struct pfmk_counters pfmk_counters;

bool pfmk_charge(atomic_t *count, unsigned int limit);
bool pfmk_charge_long(atomic_long_t *count, unsigned long n,
		      unsigned long limit);
void pfmk_get_counters(struct pfmk_global_stats *st);

/* core/hotplug.c: CPU hotplug */
int pfmk_hotplug_init(void);
void pfmk_hotplug_exit(void);
void pfmk_hotplug_init_ctx(struct pfmk_ctx *ctx);
int pfmk_hotplug_attach(struct pfmk_ctx *ctx);
void pfmk_hotplug_detach(struct pfmk_ctx *ctx);
void pfmk_hotplug_sync(struct pfmk_ctx *ctx);
void pfmk_hotplug_sync_unlocked(struct pfmk_ctx *ctx);
void pfmk_hotplug_queue(struct pfmk_ctx *ctx);

/**
 * pfmk_hotplug_pending() - does a context have hotplug work to apply?
 * @ctx: the context.
 *
 * A racy hint, for paths that skip pfmk_hotplug_sync() (which decides
 * under ctx->mutex) when nothing is pending: an offline event not yet
 * applied, or an offline context whose CPU is back.
 *
 * Context: any context.
 * Return: true if pfmk_hotplug_sync() may have something to do.
 */
static inline bool pfmk_hotplug_pending(const struct pfmk_ctx *ctx)
{
	/*
	 * pfmk_hotplug_sync() publishes hp_done, and the re-arm clears
	 * offline, after queueing the event's message: with these acquires
	 * the caller then sees the message.
	 */
	if (atomic_read(&ctx->hp_gen) != smp_load_acquire(&ctx->hp_done))
		return true;
	/* Acquire: pairs with the release in pfmk_hotplug_rearm(). */
	return smp_load_acquire(&ctx->offline) && !atomic_read(&ctx->hp_gone);
}

/* core/reclaim.c: contexts left behind by unloaded modules */
int pfmk_reclaim_init(void);
void pfmk_reclaim_exit(void);

/* core/debugfs.c */
void pfmk_debugfs_init(void);
void pfmk_debugfs_exit(void);

/* core/desc.c: descriptors */
void pfmk_desc_init(void);
void pfmk_desc_exit(void);
void pfmk_desc_prepare(struct pfmk_ctx *ctx);
int pfmk_desc_alloc(struct pfmk_ctx *ctx, void **desc);
void pfmk_desc_free(struct pfmk_ctx *ctx);
struct pfmk_ctx *pfmk_desc_lookup_rcu(void *desc);
struct pfmk_ctx *pfmk_desc_get(void *desc);
void pfmk_desc_put(struct pfmk_ctx *ctx);
struct pfmk_ctx *pfmk_desc_lock(void *desc);
void pfmk_desc_unlock(struct pfmk_ctx *ctx);
struct pfmk_ctx *pfmk_desc_next(unsigned long *index);

/**
 * pfmk_ctx_is() - is a context found under RCU still a descriptor's?
 * @ctx: the context, pinned and ordered after the pin: a reference taken
 *	then smp_rmb(), or a read pass entered (ctx->read_passes) then a
 *	full barrier.
 * @desc: the descriptor it was found by.
 *
 * Contexts are SLAB_TYPESAFE_BY_RCU: the memory a lookup found may since
 * have been closed, freed and given to a new context, which the pin does
 * not prevent.  A new context writes its cookie before it clears @dead
 * (pfmk_desc_alloc()), so a reader that sees @dead clear sees the cookie
 * of the context that cleared it.
 *
 * Context: any context.
 * Return: true if @ctx is the live context of @desc.
 */
static inline bool pfmk_ctx_is(const struct pfmk_ctx *ctx, unsigned long desc)
{
	if (READ_ONCE(ctx->dead))
		return false;
	/* @dead before @cookie: pairs with the smp_wmb() of pfmk_desc_alloc(). */
	smp_rmb();
	return READ_ONCE(ctx->cookie) == upper_32_bits(desc);
}

/**
 * pfmk_desc_of() - the descriptor of a context
 * @ctx: the context.
 *
 * Context: any context.
 * Return: the descriptor pfmk_create_context() returned for @ctx.
 */
static inline unsigned long pfmk_desc_of(const struct pfmk_ctx *ctx)
{
	return ((unsigned long)ctx->cookie << 32) | (ctx->id + 1);
}

/* core/context.c: life cycle and state machine */
unsigned int pfmk_set0_room(const struct pfmk_ctx *ctx);
int pfmk_ctx_cache_init(void);
void pfmk_ctx_cache_exit(void);
void pfmk_ctx_free(struct pfmk_ctx *ctx);
int pfmk_ctx_create(struct pfarg_ctx *req, void *smpl_arg, size_t smpl_size,
		    struct completion *c, void **desc, void **buf,
		    struct module *owner);
void pfmk_ctx_close(struct pfmk_ctx *ctx);
void pfmk_ctx_notify(struct pfmk_ctx *ctx, const union pfm_msg *msg);
int pfmk_ctx_load(struct pfmk_ctx *ctx, const struct pfarg_load *req);
int pfmk_ctx_unload(struct pfmk_ctx *ctx);
int pfmk_ctx_start(struct pfmk_ctx *ctx, const struct pfarg_start *req);
int pfmk_ctx_stop(struct pfmk_ctx *ctx);
int pfmk_ctx_restart(struct pfmk_ctx *ctx);
int pfmk_ctx_state(struct pfmk_ctx *ctx);

/* core/regs.c: PMC and PMD access */
int pfmk_check_count(int count, int max, const void *req);
int pfmk_ctx_write_pmcs(struct pfmk_ctx *ctx, struct pfarg_pmc *req,
			int count);
int pfmk_ctx_write_pmds(struct pfmk_ctx *ctx, struct pfarg_pmd *req,
			int count);
int pfmk_ctx_read_pmds(struct pfmk_ctx *ctx, struct pfarg_pmd *req,
		       struct pfmk_pmd_time *time, int count);
int pfmk_read_pmds_lockless(void *desc, struct pfarg_pmd *req, int count);

/* core/sets.c: event sets */
size_t pfmk_set_regs_size(unsigned int nregs);
void pfmk_set_clean(struct pfmk_ctx *ctx, void *regs, unsigned int nregs);
void pfmk_sets_init(struct pfmk_ctx *ctx);
void pfmk_sets_free(struct pfmk_ctx *ctx);
struct pfmk_set *pfmk_set_find(struct pfmk_ctx *ctx, u16 id);
struct pfmk_set *pfmk_set_find_rcu(struct pfmk_ctx *ctx, u16 id);
int pfmk_sets_load(struct pfmk_ctx *ctx);
void pfmk_sets_unload(struct pfmk_ctx *ctx);
void pfmk_set_activate(struct pfmk_ctx *ctx, struct pfmk_set *set);
void pfmk_set_deactivate(struct pfmk_ctx *ctx);
void pfmk_set_resume(struct pfmk_ctx *ctx);
void pfmk_set_time_source(struct pfmk_ctx *ctx, struct pfmk_set *set,
			  bool fresh);
void pfmk_set_request_switch(struct pfmk_ctx *ctx, u64 when);
void pfmk_set_switch_pending(struct pfmk_ctx *ctx);
int pfmk_sets_wq_init(void);
void pfmk_sets_wq_exit(void);
int pfmk_ctx_create_sets(struct pfmk_ctx *ctx, struct pfarg_setdesc *req,
			 int count);
int pfmk_ctx_delete_sets(struct pfmk_ctx *ctx, struct pfarg_setinfo *req,
			 int count);
int pfmk_ctx_getinfo_sets(struct pfmk_ctx *ctx, struct pfarg_setinfo *req,
			  int count);

/**
 * pfmk_set_pmd_changed() - note that a PMD of a set may not be clean now
 * @set: the set.
 * @num: the PMD's number.
 *
 * Context: ctx->mutex held.
 */
static inline void pfmk_set_pmd_changed(struct pfmk_set *set,
					unsigned int num)
{
	lockdep_assert_held(&set->pmds[num].ctx->mutex);
	if (num >= set->pmd_span)
		set->pmd_span = num + 1;
}

/**
 * pfmk_set_event_added() - note that a PMD of a set got an event
 * @set: the set.
 * @num: the PMD's number.
 *
 * Context: ctx->mutex held.
 */
static inline void pfmk_set_event_added(struct pfmk_set *set,
					unsigned int num)
{
	lockdep_assert_held(&set->pmds[num].ctx->mutex);
	if (num >= set->ev_span)
		set->ev_span = num + 1;
	pfmk_set_pmd_changed(set, num);
}

/**
 * pfmk_set_write_pmc() - store a PMC value in a set
 * @set: the set.
 * @num: the PMC's number.
 * @val: the value, checked.
 *
 * Context: ctx->mutex held.
 */
static inline void pfmk_set_write_pmc(struct pfmk_set *set, unsigned int num,
				      u64 val)
{
	lockdep_assert_held(&set->pmds[num].ctx->mutex);
	set->pmcs[num] = val;
	__set_bit(num, set->pmcs_written);
}

/* core/ovfl.c: overflow path */
void pfmk_ovfl_handler(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs);
void pfmk_ovfl_work(struct irq_work *work);
bool pfmk_pmd_samples(const struct pfmk_pmd *pmd);
void pfmk_pmd_set_plain(struct pfmk_pmd *pmd);
u64 pfmk_pmd_randomize(struct pfmk_pmd *pmd, u64 val);

/**
 * pfmk_pmd_reset_value() - next reset value of a PMD
 * @pmd: the PMD.
 * @long_reset: reload the long reset value (restart) or the short one.
 *
 * Inline: the overflow path calls it at every sample.
 *
 * Context: any context; the caller owns the PMD's overflow state.
 * Return: the value to reload.
 */
static inline u64 pfmk_pmd_reset_value(struct pfmk_pmd *pmd, bool long_reset)
{
	u64 val = long_reset ? pmd->long_reset : pmd->short_reset;

	if (unlikely(pmd->flags & PFM_REGFL_RANDOM))
		return pfmk_pmd_randomize(pmd, val);
	return val;
}

/**
 * pfmk_pmd_period() - perf sample period of a PMD value
 * @val: 64-bit PMD value.
 *
 * Return: events until @val wraps, capped at S64_MAX (the largest
 * period perf accepts).
 */
static inline u64 pfmk_pmd_period(u64 val)
{
	u64 left = -val;

	return (!val || left > S64_MAX) ? S64_MAX : left;
}

void pfmk_ovfl_get_stats(struct pfmk_ctx *ctx, struct pfmk_ctx_stats *stats);

/* core/smpl.c: sampling formats and buffers */
int pfmk_smpl_setup(struct pfmk_ctx *ctx, const struct pfarg_ctx *req,
		    void *smpl_arg, size_t smpl_size);
void __pfmk_smpl_free(struct pfmk_ctx *ctx);

/*
 * The load and close of a context that has no sampling format, AUX or
 * crash set-up (most) test for it inline, not in a call per set-up; the
 * called function tests again, for its other callers.  Context: process
 * context; ctx->mutex held, or the context not yet published (the error
 * path of pfmk_ctx_publish()), hence no assertion here.
 */
static inline void pfmk_smpl_free(struct pfmk_ctx *ctx)
{
	if (ctx->fmt)
		__pfmk_smpl_free(ctx);
}

/* core/msgq.c: message queue */
void pfmk_msgq_init(struct pfmk_msgq *q);
bool pfmk_msgq_push(struct pfmk_msgq *q, const union pfm_msg *msg);
bool pfmk_msgq_pop(struct pfmk_msgq *q, union pfm_msg *msg);
void pfmk_msgq_flush(struct pfmk_msgq *q);
ssize_t pfmk_msgq_read(struct pfmk_ctx *ctx, union pfm_msg *msg,
		       int noblock);

/* core/aux.c: AUX set-ups of contexts (<pfmk/aux.h>) */
int pfmk_ctx_aux_setup(struct pfmk_ctx *ctx, unsigned int pmd, size_t size,
		       unsigned int flags);
int pfmk_ctx_aux_copy(struct pfmk_ctx *ctx, size_t max, pfmk_aux_copy_t fn,
		      void *data, struct pfmk_aux_info *info);
int __pfmk_aux_load(struct pfmk_ctx *ctx);
void __pfmk_aux_unload(struct pfmk_ctx *ctx);
bool pfmk_aux_pmd_set_up(const struct pfmk_ctx *ctx,
			 const struct pfmk_set *set, unsigned int num);
int pfmk_aux_attach_new(struct pfmk_ctx *ctx, const struct pfmk_set *set,
			unsigned int num, struct perf_event *event);
void pfmk_aux_rebind(struct pfmk_ctx *ctx, const struct pfmk_set *set,
		     unsigned int num, struct perf_event *event);
void __pfmk_aux_free(struct pfmk_ctx *ctx);

/*
 * As pfmk_smpl_free(): @ctx->aux is written under the mutex.  Context:
 * process context; ctx->mutex held.
 */
static inline int pfmk_aux_load(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	return rcu_access_pointer(ctx->aux) ? __pfmk_aux_load(ctx) : 0;
}

static inline void pfmk_aux_unload(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	if (rcu_access_pointer(ctx->aux))
		__pfmk_aux_unload(ctx);
}

static inline void pfmk_aux_free(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	if (rcu_access_pointer(ctx->aux))
		__pfmk_aux_free(ctx);
}

void pfmk_aux_snippet(struct pfmk_ctx *ctx, struct pfmk_ovfl_arg *arg);
void pfmk_aux_crash_copy(struct pfmk_ctx *ctx, void *dst, size_t max,
			 struct pfmk_dfl_aux_snippet *snip);

/* core/crash.c: contexts frozen at a crash (<pfmk/crash.h>) */
struct pfmk_crash_info;
int pfmk_crash_init(void);
void pfmk_crash_exit(void);
int pfmk_ctx_crash_setup(struct pfmk_ctx *ctx, unsigned int flags,
			 size_t aux_keep);
int pfmk_ctx_crash_read(struct pfmk_ctx *ctx, struct pfmk_crash_info *info,
			struct pfarg_pmd *pmds, int count, void *aux,
			size_t aux_size);
void __pfmk_crash_close(struct pfmk_ctx *ctx);

/*
 * As pfmk_smpl_free(): @ctx->crash is written under the mutex.  Context:
 * process context; ctx->mutex held.
 */
static inline void pfmk_crash_close(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	if (ctx->crash)
		__pfmk_crash_close(ctx);
}

#endif /* _PFMK_INTERNAL_H */
