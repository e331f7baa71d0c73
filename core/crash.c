// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk post-mortem (<pfmk/crash.h>): contexts frozen at an oops or a
 * panic, and their summary in the kernel log for pstore.
 *
 * A context set up with pfmk_crash_setup() owns a struct pfmk_crash (its
 * record), allocated then with room for what a freeze keeps, and linked
 * on pfmk_crash_list.  pfmk's die notifier (DIE_OOPS) and panic notifier
 * walk that list in the crashing context itself and, for each record not
 * frozen yet, claim it (cmpxchg: one CPU freezes a context), set
 * ctx->frozen (the overflow handler then returns at once: no sample, no
 * reset, no message), and copy into the record the PMD values of the
 * active set, the sample count and the newest AUX bytes; then they print
 * the summaries of the contexts that asked for it.
 *
 * The crash path takes no lock, never sleeps, never waits for another
 * CPU and runs in NMI too (a panic from the NMI watchdog): other CPUs
 * may be stopped anywhere, their locks held and their seqcount write
 * sections open (Documentation/locking.rst, "The crash path").  So:
 *
 * - the list is an RCU list, walked under rcu_read_lock(); its writers
 *   (set-up, removal, close) take pfmk_crash_lock in process context, and
 *   a record leaves the list, then a grace period passes, before it or
 *   anything of its context the freeze reads is freed: the sampling
 *   buffer, the events (perf frees them after a grace period anyway), the
 *   PMU description's module (pmu->read()), the AUX set-up;
 * - values under a seqcount are read with a bounded number of tries; a
 *   value still moving is kept with PFMK_CRASH_TORN;
 * - the work is bounded: a walk of the records, per context its PMDs,
 *   at most PFMK_CRASH_AUX_MAX bytes copied, and for the log at most
 *   PFMK_CRASH_LOG_CTXS contexts, of which a bounded walk of the sampling
 *   buffer (its size is bounded by max_smpl_buf);
 * - a crash inside the crash path (this CPU already in it) returns at
 *   once: no recursion.
 *
 * What the freeze does not do: stop the PMU.  perf offers no NMI-safe
 * way to disable an event of another CPU; the events count on, and an
 * AUX PMU on a CPU that runs on (an oops without a panic) goes on
 * writing its buffer.  The record keeps the values at the freeze and the
 * newest AUX bytes; after a panic the other CPUs are stopped before the
 * panic notifiers run, and the crashing CPU runs with interrupts off.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) "pfmk-crash: " fmt

#include <linux/delay.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/rculist.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <pfmk/crash.h>
#include <pfmk/compat.h>

#include "test_hooks.h"
#include "internal.h"
#include "perf.h"
#include "smpl_dfl.h"

/* Tries to read a value under a seqcount before keeping it torn. */
#define PFMK_CRASH_TRIES	100

/* Version of the summary's line format (scripts/pfmk-pstore.py). */
#define PFMK_CRASH_LOG_VERSION	1

/**
 * struct pfmk_crash - the crash set-up of a context and what a freeze kept
 * @node: entry in pfmk_crash_list (RCU).
 * @ctx: the context; valid while the record is on the list, and one grace
 *	period after it left it.
 * @flags: PFMK_CRASH_* set-up flags.
 * @claimed: 0, or the reason of the freeze that claimed the record
 *	(cmpxchg: one CPU freezes a context).
 * @logged: the summary was printed, or is being printed (xchg: one CPU
 *	prints a summary).
 * @mem: bytes of the record, charged to smpl_bytes and mem_bytes.
 * @info: what the freeze kept; @info.reason is written last, with
 *	release.
 * @aux_keep: room of @aux, in bytes.
 * @pmds: @info.npmds PMD values, then @aux.
 * @aux: the newest AUX bytes (@info.aux_len of them), after @pmds.
 */
struct pfmk_crash {
	struct list_head	node;
	struct pfmk_ctx		*ctx;
	unsigned int		flags;
	atomic_t		claimed;
	int			logged;
	size_t			mem;
	struct pfmk_crash_info	info;
	size_t			aux_keep;
	u8			*aux;
	u64			pmds[];
};

static LIST_HEAD(pfmk_crash_list);
static DEFINE_MUTEX(pfmk_crash_lock);	/* writers of pfmk_crash_list */
/*
 * Records on pfmk_crash_list; written under pfmk_crash_lock, a decrement
 * with release after the record left the list, so that a walk that reads
 * it (acquire) sees the list without that record.
 */
static unsigned int pfmk_crash_nr;

/* How long a panic waits for another CPU's freeze of a record, in us. */
#define PFMK_CRASH_TAKEOVER_US	10000

/*
 * CRC-32 (IEEE 802.3, reflected, as crc32_le() and zlib compute it) from
 * a table of pfmk's own: from 7.2 on, the kernel's crc32_le() may use the
 * FPU, which it refuses in NMI with a warning; the crash path can be an
 * NMI (a panic from the NMI watchdog).  Filled at module load.
 */
static u32 pfmk_crash_crc_table[256] __ro_after_init;

static void pfmk_crash_crc_init(void)
{
	unsigned int i, k;
	u32 c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (c & 1 ? 0xedb88320 : 0);
		pfmk_crash_crc_table[i] = c;
	}
}

static u32 pfmk_crash_crc32(const u8 *p, size_t len)
{
	u32 c = ~0U;

	while (len--)
		c = (c >> 8) ^ pfmk_crash_crc_table[(c ^ *p++) & 0xff];
	return ~c;
}

/* This CPU is in the crash path (a crash in it must not recurse). */
static DEFINE_PER_CPU(int, pfmk_crash_nest);

/* Contexts the last crash path froze (pfmk_crash_test_notify()). */
static unsigned int pfmk_crash_last;

/*
 * A value read under a seqcount whose writer may be stopped inside its
 * section: a bounded number of tries, never an unbounded spin.
 */
static bool pfmk_crash_seq_ok(const seqcount_t *s, unsigned int seq)
{
	return !(seq & 1) && !read_seqcount_retry(s, seq);
}

/* The value of a PMD now, as the lockless read works it out. */
static u64 pfmk_crash_pmd_value(struct pfmk_pmd *pmd)
{
	struct perf_event *event = pfmk_pmd_event_rcu(pmd);

	if (!event)
		return READ_ONCE(pmd->value);
	return READ_ONCE(pmd->value) +
	       (pfmk_perf_count_local(event) - READ_ONCE(pmd->perf_base));
}

/*
 * Keep the PMD values of the active set and the counts.  ctx->state_seq
 * guards the events and values process context changes, ctx->ovfl_seq
 * those of the overflow handler.
 */
static void pfmk_crash_keep_pmds(struct pfmk_ctx *ctx, struct pfmk_crash *rec)
{
	struct pfmk_crash_info *info = &rec->info;
	const struct pfm_dfl_smpl_hdr *hdr = NULL;
	unsigned int i, n = info->npmds, tries;
	unsigned int sseq, oseq;
	struct pfmk_set *set;

	if (ctx->fmt && ctx->fmt->handler == pfmk_dfl_handler)
		hdr = ctx->smpl_buf;

	for (tries = 0; tries < PFMK_CRASH_TRIES; tries++) {
		sseq = raw_read_seqcount(&ctx->state_seq);
		oseq = raw_read_seqcount(&ctx->ovfl_seq);
		set = rcu_dereference_check(ctx->active_set,
					    rcu_read_lock_any_held());
		info->set = set ? READ_ONCE(set->id) : 0;
		info->ctx_cpu = READ_ONCE(ctx->cpu);
		for (i = 0; i < n; i++)
			rec->pmds[i] = set ? pfmk_crash_pmd_value(&set->pmds[i]) : 0;
		info->ovfl_count = READ_ONCE(ctx->stats.ovfl_count);
		/* Pairs with the release of pfmk_dfl_commit(). */
		info->smpl_count = hdr ? smp_load_acquire(&hdr->hdr_count) :
				   READ_ONCE(ctx->stats.smpl_count);
		if (pfmk_crash_seq_ok(&ctx->state_seq, sseq) &&
		    pfmk_crash_seq_ok(&ctx->ovfl_seq, oseq))
			return;
		cpu_relax();
	}
	info->flags |= PFMK_CRASH_TORN;
}

/*
 * Freeze one context; the caller claimed its record, or took it over
 * (@flags PFMK_CRASH_TORN: another CPU may have written part of it).
 */
static void pfmk_crash_freeze(struct pfmk_crash *rec, unsigned int reason,
			      u32 flags)
{
	struct pfmk_crash_info *info = &rec->info;
	struct pfmk_ctx *ctx = rec->ctx;
	struct pfmk_dfl_aux_snippet snip;

	/* First: from here on the overflow handler records nothing. */
	WRITE_ONCE(ctx->frozen, true);
	/* A panic's takeover of a freeze starts afresh. */
	info->flags = flags;
	/*
	 * The flag before the reads below: a handler that missed it is in
	 * its ovfl_seq section, which the reads retry on, or about to enter
	 * it for one last entry.
	 */
	smp_mb();
	info->cpu = raw_smp_processor_id();
	info->tstamp = local_clock();
	pfmk_crash_keep_pmds(ctx, rec);
	/*
	 * No IPI in a crash: another CPU's events are read as their last
	 * overflow or read left them.
	 */
	if (info->ctx_cpu >= 0 && info->ctx_cpu != info->cpu &&
	    READ_ONCE(ctx->started) && !READ_ONCE(ctx->offline))
		info->flags |= PFMK_CRASH_REMOTE;
	if (rec->aux_keep) {
		pfmk_aux_crash_copy(ctx, rec->aux, rec->aux_keep, &snip);
		info->aux_head = snip.head;
		info->aux_len = snip.len;
		if (snip.flags & PFMK_AUX_WRAPPED)
			info->flags |= PFMK_CRASH_AUX_WRAPPED;
	}
	/* What was kept is complete before the reason says it is there. */
	smp_store_release(&info->reason, reason);
}

static const char *pfmk_crash_reason(unsigned int reason)
{
	return reason == PFMK_CRASH_PANIC ? "panic" : "oops";
}

/* Size of a default-format entry for an overflow of @pmd in @set. */
static size_t pfmk_crash_entry_size(const struct pfmk_set *set,
				    unsigned int pmd, size_t aux_bytes)
{
	const unsigned long *mask =
		(const unsigned long *)set->pmds[pmd].smpl_pmds;

	return sizeof(struct pfm_dfl_smpl_entry) +
	       sizeof(u64) * bitmap_weight(mask, PFM_MAX_PMDS) + aux_bytes;
}

/*
 * Print the newest PFMK_CRASH_LOG_SAMPLES entries of a default-format
 * buffer: its entries have the sizes their PMDs' reg_smpl_pmds give, so
 * the buffer is walked from the start, at most hdr_count entries within
 * its size (bounded by max_smpl_buf).
 */
static void pfmk_crash_log_samples(struct pfmk_ctx *ctx, unsigned long desc,
				   u64 count)
{
	const struct pfm_dfl_smpl_hdr *hdr = ctx->smpl_buf;
	struct pfmk_dfl_priv *priv = ctx->smpl_priv;
	size_t offs[PFMK_CRASH_LOG_SAMPLES], off = sizeof(*hdr), size;
	size_t aux_bytes = READ_ONCE(priv->aux_bytes);
	size_t end = min_t(size_t, READ_ONCE(priv->buf_size), ctx->smpl_size);
	const struct pfm_dfl_smpl_entry *ent;
	struct pfmk_set *set = NULL;
	u64 i, n = 0;

	for (i = 0; i < count; i++) {
		if (off + sizeof(*ent) > end)
			break;
		ent = ctx->smpl_buf + off;
		if (!set || READ_ONCE(set->id) != ent->set)
			set = pfmk_set_find_rcu(ctx, ent->set);
		if (!set || ent->ovfl_pmd >= ctx->nregs)
			break;
		size = pfmk_crash_entry_size(set, ent->ovfl_pmd, aux_bytes);
		if (off + size > end)
			break;
		offs[n++ % PFMK_CRASH_LOG_SAMPLES] = off;
		off += size;
	}
	for (i = n > PFMK_CRASH_LOG_SAMPLES ? n - PFMK_CRASH_LOG_SAMPLES : 0;
	     i < n; i++) {
		ent = ctx->smpl_buf + offs[i % PFMK_CRASH_LOG_SAMPLES];
		pr_info("sample desc=%#lx n=%llu pmd=%u cpu=%u pid=%u tstamp=%llu ip=%#llx %pS\n",
			desc, i, ent->ovfl_pmd, ent->cpu, ent->pid,
			ent->tstamp, ent->ip, (void *)(unsigned long)ent->ip);
	}
}

/* The summary of a frozen context, in lines scripts/pfmk-pstore.py reads. */
static void pfmk_crash_log(struct pfmk_crash *rec)
{
	const struct pfmk_crash_info *info = &rec->info;
	struct pfmk_ctx *ctx = rec->ctx;
	unsigned long desc = pfmk_desc_of(ctx);
	unsigned int i, len, kept, printed = 0;
	const u8 *aux;

	pr_info("ctx desc=%#lx reason=%s cpu=%d ctx_cpu=%d state=%u started=%d set=%u flags=%#x tstamp=%llu ovfl=%llu smpl=%llu npmds=%u\n",
		desc, pfmk_crash_reason(info->reason), info->cpu,
		info->ctx_cpu, READ_ONCE(ctx->state), READ_ONCE(ctx->started),
		info->set, info->flags, info->tstamp, info->ovfl_count,
		info->smpl_count, info->npmds);
	for (i = 0; i < info->npmds && printed < PFMK_CRASH_LOG_PMDS; i++) {
		if (!rec->pmds[i])
			continue;
		pr_info("pmd desc=%#lx num=%u value=%llu\n", desc, i,
			rec->pmds[i]);
		printed++;
	}
	if (ctx->fmt && ctx->fmt->handler == pfmk_dfl_handler)
		pfmk_crash_log_samples(ctx, desc, info->smpl_count);
	/* Read once: a freeze taken over may still move it. */
	kept = min_t(u32, READ_ONCE(info->aux_len), rec->aux_keep);
	if (kept) {
		len = min_t(u32, kept, PFMK_CRASH_LOG_AUX);
		aux = rec->aux + kept - len;
		pr_info("aux desc=%#lx head=%llu kept=%u crc32=%#x logged=%u\n",
			desc, info->aux_head, kept,
			pfmk_crash_crc32(rec->aux, kept), len);
		for (i = 0; i < len; i += 32)
			pr_info("auxdata desc=%#lx at=%llu %*phN\n", desc,
				info->aux_head - len + i,
				(int)min_t(unsigned int, 32, len - i), aux + i);
	}
}

/*
 * At a panic, whose notifiers run after the other CPUs were stopped: a
 * record another CPU claimed (an oops there) but never finished freezing
 * is taken over, once that CPU had a bounded time to finish (it may have
 * escaped the stop: smp_send_stop() gives up after a second).  Returns
 * true if the caller must freeze the record itself.
 */
static bool pfmk_crash_takeover(struct pfmk_crash *rec)
{
	unsigned int us;

	/* No sleeping here: a busy wait, in steps of a few microseconds. */
	for (us = 0; us < PFMK_CRASH_TAKEOVER_US; us += 5) {
		/* Pairs with the release of pfmk_crash_freeze(). */
		if (smp_load_acquire(&rec->info.reason))
			return false;
		udelay(5);
	}
	/* Pairs with the release of pfmk_crash_freeze(). */
	return !smp_load_acquire(&rec->info.reason);
}

/*
 * Freeze every record of the list not claimed yet, and at a panic those
 * an oops on another CPU claimed but never froze; walks at most @max
 * records.  Returns how many it froze.  RCU held.
 */
static unsigned int pfmk_crash_freeze_each(unsigned int reason,
					   unsigned int max)
{
	unsigned int n = 0, seen = 0;
	struct pfmk_crash *rec;

	list_for_each_entry_rcu(rec, &pfmk_crash_list, node) {
		if (seen++ == max)
			break;
		if (atomic_cmpxchg(&rec->claimed, 0, reason)) {
			if (reason != PFMK_CRASH_PANIC ||
			    !pfmk_crash_takeover(rec))
				continue;
			pfmk_crash_freeze(rec, reason, PFMK_CRASH_TORN);
			n++;
			continue;
		}
		pfmk_crash_freeze(rec, reason, 0);
		n++;
	}
	return n;
}

/*
 * Print the summary of each frozen record that asked for it
 * (PFMK_CRASH_LOG) and was not printed yet, between a begin and an end
 * line, at most PFMK_CRASH_LOG_CTXS of them; walks at most @max records.
 * RCU held.
 */
static void pfmk_crash_log_each(unsigned int reason, int cpu,
				unsigned int max)
{
	unsigned int logged = 0, reason_kept, seen = 0;
	struct pfmk_crash *rec;

	list_for_each_entry_rcu(rec, &pfmk_crash_list, node) {
		if (seen++ == max)
			break;
		/* Pairs with the release of pfmk_crash_freeze(). */
		reason_kept = smp_load_acquire(&rec->info.reason);
		if (!(rec->flags & PFMK_CRASH_LOG) || !reason_kept)
			continue;
		/*
		 * An oops prints what it froze; a panic, once the other
		 * CPUs are stopped, also what an oops on another CPU froze
		 * and had no time to print.
		 */
		if (reason != PFMK_CRASH_PANIC && rec->info.cpu != cpu)
			continue;
		if (READ_ONCE(rec->logged) || xchg(&rec->logged, 1))
			continue;
		if (!logged)
			pr_info("begin v%u reason=%s cpu=%d\n",
				PFMK_CRASH_LOG_VERSION,
				pfmk_crash_reason(reason), cpu);
		pfmk_crash_log(rec);
		if (++logged == PFMK_CRASH_LOG_CTXS)
			break;
	}
	if (logged)
		pr_info("end contexts=%u\n", logged);
}

/**
 * pfmk_crash_freeze_all() - the crash path: freeze every set-up context
 * @reason: PFMK_CRASH_OOPS or PFMK_CRASH_PANIC.
 *
 * First every context is frozen (fast: their capture stops as early as
 * can be), then the summaries are printed (slow: a console may take
 * milliseconds a line).
 *
 * Context: the crashing context: any, NMI included, interrupts off
 * (die(), panic()); takes no lock.
 * Return: the number of contexts this call froze.
 */
static unsigned int pfmk_crash_freeze_all(unsigned int reason)
{
	int cpu = raw_smp_processor_id();
	unsigned int n = 0, max;

	if (this_cpu_inc_return(pfmk_crash_nest) > 1)
		goto out;
	/*
	 * A list a memory corruption made circular must not hang the crash
	 * path: each walk stops after as many records as were added.
	 */
	max = smp_load_acquire(&pfmk_crash_nr);
	rcu_read_lock();
	n = pfmk_crash_freeze_each(reason, max);
	pfmk_crash_log_each(reason, cpu, max);
	rcu_read_unlock();
	WRITE_ONCE(pfmk_crash_last, n);
out:
	this_cpu_dec(pfmk_crash_nest);
	return n;
}

static int pfmk_crash_die(struct notifier_block *nb, unsigned long val,
			  void *data)
{
	if (val == DIE_OOPS)
		pfmk_crash_freeze_all(PFMK_CRASH_OOPS);
	return NOTIFY_DONE;
}

static int pfmk_crash_panic(struct notifier_block *nb, unsigned long val,
			    void *data)
{
	pfmk_crash_freeze_all(PFMK_CRASH_PANIC);
	return NOTIFY_DONE;
}

/* Before the other die notifiers: the capture stops as early as can be. */
static struct notifier_block pfmk_crash_die_nb = {
	.notifier_call	= pfmk_crash_die,
	.priority	= INT_MAX,
};

/* Before the other panic notifiers: one of them may not come back. */
static struct notifier_block pfmk_crash_panic_nb = {
	.notifier_call	= pfmk_crash_panic,
	.priority	= INT_MAX,
};

/**
 * pfmk_crash_test_notify() - call pfmk's die or panic hook, for tests
 * @reason: PFMK_CRASH_OOPS: the die notifier with DIE_OOPS;
 *	PFMK_CRASH_PANIC: the panic notifier; anything else: the die
 *	notifier with a notification that is not an oops (DIE_TRAP on
 *	x86), which must freeze nothing.
 *
 * Runs the hook as the kernel would, with interrupts off, on every
 * context set up with PFMK_CRASH_FREEZE: for the KUnit suite
 * pfmk_crash, which simulates a crash without crashing.
 *
 * Only in the harness's builds (core/test_hooks.h): any caller freezes
 * every context of the machine.
 *
 * Context: process context, not atomic.
 * Return: the number of contexts the hook froze.
 */
#ifdef PFMK_TEST_HOOKS
int pfmk_crash_test_notify(unsigned int reason)
{
	unsigned long flags;
	int before;

	might_sleep();
	local_irq_save(flags);
	before = this_cpu_read(pfmk_crash_nest);
	WRITE_ONCE(pfmk_crash_last, 0);
	if (reason == PFMK_CRASH_PANIC)
		pfmk_crash_panic(&pfmk_crash_panic_nb, 0, "pfmk test");
	else
		pfmk_crash_die(&pfmk_crash_die_nb,
			       reason == PFMK_CRASH_OOPS ? DIE_OOPS :
			       PFMK_CRASH_TEST_NOT_OOPS,
			       NULL);
	local_irq_restore(flags);
	WARN_ON_ONCE(before);
	return READ_ONCE(pfmk_crash_last);
}
EXPORT_SYMBOL_NS_GPL(pfmk_crash_test_notify, PFMK_TEST_NS);
#endif

/*
 * A record and the newest AUX bytes it keeps count, from the set-up on,
 * as a sampling buffer does: in smpl_bytes against max_smpl_mem, and in
 * mem_bytes.
 */
static struct pfmk_crash *pfmk_crash_alloc(struct pfmk_ctx *ctx,
					   unsigned int flags, size_t aux_keep)
{
	size_t mem = struct_size_t(struct pfmk_crash, pmds, ctx->nregs) +
		     aux_keep;
	struct pfmk_crash *rec;

	if (!pfmk_charge_long(&pfmk_counters.smpl_bytes, mem,
			      READ_ONCE(pfmk_max_smpl_mem)))
		return NULL;
	rec = kzalloc(mem, GFP_KERNEL);
	if (!rec) {
		atomic_long_sub(mem, &pfmk_counters.smpl_bytes);
		return NULL;
	}
	atomic_long_add(mem, &pfmk_counters.mem_bytes);
	rec->mem = mem;
	rec->ctx = ctx;
	rec->flags = flags;
	rec->aux_keep = aux_keep;
	rec->aux = (u8 *)&rec->pmds[ctx->nregs];
	rec->info.npmds = ctx->nregs;
	rec->info.ctx_cpu = -1;
	return rec;
}

static void pfmk_crash_free_rec(struct pfmk_crash *rec)
{
	atomic_long_sub(rec->mem, &pfmk_counters.smpl_bytes);
	atomic_long_sub(rec->mem, &pfmk_counters.mem_bytes);
	kfree(rec);
}

/*
 * Take a context's record off the list and wait until no crash path can
 * be inside it.  Returns false, with the record back on the list, if a
 * crash path froze the context meanwhile: a frozen context keeps its
 * record until it is closed.
 */
static bool pfmk_crash_unlink(struct pfmk_ctx *ctx, bool closing)
{
	struct pfmk_crash *rec = ctx->crash;

	lockdep_assert_held(&ctx->mutex);

	mutex_lock(&pfmk_crash_lock);
	list_del_rcu(&rec->node);
	/* After the unlink: pairs with the acquire of the crash path's walk. */
	smp_store_release(&pfmk_crash_nr, pfmk_crash_nr - 1);
	mutex_unlock(&pfmk_crash_lock);
	/*
	 * A crash path that found the record before it left the list may
	 * still read the record and the context, or print them: after this,
	 * none does, and none finds it any more.
	 */
	synchronize_rcu();
	if (!closing && READ_ONCE(ctx->frozen)) {
		mutex_lock(&pfmk_crash_lock);
		WRITE_ONCE(pfmk_crash_nr, pfmk_crash_nr + 1);
		list_add_tail_rcu(&rec->node, &pfmk_crash_list);
		mutex_unlock(&pfmk_crash_lock);
		return false;
	}
	ctx->crash = NULL;
	pfmk_crash_free_rec(rec);
	return true;
}

/**
 * pfmk_ctx_crash_setup() - set up, replace or remove a context's freeze
 * @ctx: the context, locked.
 * @flags: as for pfmk_crash_setup(), checked: 0 removes the set-up.
 * @aux_keep: as for pfmk_crash_setup(), checked.
 *
 * Context: process context; may sleep (a grace period when a set-up is
 * replaced or removed); ctx->mutex held.
 * Return: 0; -EBUSY if the context is frozen; -ENOMEM at the
 * max_smpl_mem limit or out of memory.
 */
int pfmk_ctx_crash_setup(struct pfmk_ctx *ctx, unsigned int flags,
			 size_t aux_keep)
{
	struct pfmk_crash *rec = NULL;

	lockdep_assert_held(&ctx->mutex);

	if (READ_ONCE(ctx->frozen))
		return -EBUSY;
	if (flags) {
		rec = pfmk_crash_alloc(ctx, flags, aux_keep);
		if (!rec)
			return -ENOMEM;
	}
	if (ctx->crash && !pfmk_crash_unlink(ctx, false)) {
		if (rec)
			pfmk_crash_free_rec(rec);
		return -EBUSY;
	}
	if (!rec)
		return 0;
	ctx->crash = rec;
	mutex_lock(&pfmk_crash_lock);
	WRITE_ONCE(pfmk_crash_nr, pfmk_crash_nr + 1);
	list_add_tail_rcu(&rec->node, &pfmk_crash_list);
	mutex_unlock(&pfmk_crash_lock);
	return 0;
}

/**
 * __pfmk_crash_close() - forget the crash set-up of a context being closed
 * @ctx: the context, locked, dead, not yet unloaded.
 *
 * Called first in pfmk_ctx_close(): the crash path never sees a context
 * whose buffers, events or PMU description are being released.
 *
 * Context: process context; may sleep (a grace period, for contexts
 * with a set-up only); ctx->mutex held.
 */
void __pfmk_crash_close(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);

	if (ctx->crash)
		pfmk_crash_unlink(ctx, true);
}

/**
 * pfmk_ctx_crash_read() - what a freeze kept of a context
 * @ctx: the context, locked.
 * @info: output.
 * @pmds: as for pfmk_crash_read(), checked by the caller.
 * @count: as for pfmk_crash_read().
 * @aux: as for pfmk_crash_read().
 * @aux_size: as for pfmk_crash_read().
 *
 * Context: process context; ctx->mutex held.
 * Return: 0; -ENXIO without a set-up; -EINVAL for a PMD number the
 * description does not have (its reg_flags get PFM_REG_RETFL_NOTAVAIL,
 * as pfmk_read_pmds() gives).
 */
int pfmk_ctx_crash_read(struct pfmk_ctx *ctx, struct pfmk_crash_info *info,
			struct pfarg_pmd *pmds, int count, void *aux,
			size_t aux_size)
{
	struct pfmk_crash *rec = ctx->crash;
	size_t len;
	int i;

	lockdep_assert_held(&ctx->mutex);

	if (!rec)
		return -ENXIO;
	for (i = 0; i < count; i++) {
		if (pmds[i].reg_num >= rec->info.npmds) {
			pmds[i].reg_flags = (pmds[i].reg_flags &
					     ~PFM_REG_RETFL_MASK) |
					    PFM_REG_RETFL_NOTAVAIL;
			return -EINVAL;
		}
	}
	memset(info, 0, sizeof(*info));
	/* Pairs with the release of pfmk_crash_freeze(). */
	if (!smp_load_acquire(&rec->info.reason)) {
		info->ctx_cpu = -1;
		info->npmds = rec->info.npmds;
		for (i = 0; i < count; i++)
			pmds[i].reg_value = 0;
		return 0;
	}
	/* The freeze is done with it: the context is frozen until close. */
	*info = rec->info;
	for (i = 0; i < count; i++)
		pmds[i].reg_value = rec->pmds[pmds[i].reg_num];
	if (aux) {
		len = min_t(size_t, aux_size, info->aux_len);
		memcpy(aux, rec->aux + info->aux_len - len, len);
	}
	return 0;
}

/**
 * pfmk_crash_init() - register the die and panic hooks
 *
 * Context: process context, at module load.
 * Return: 0 or an error of register_die_notifier().
 */
int pfmk_crash_init(void)
{
	int ret;

	pfmk_crash_crc_init();
	ret = register_die_notifier(&pfmk_crash_die_nb);
	if (ret)
		return ret;
	atomic_notifier_chain_register(&panic_notifier_list,
				       &pfmk_crash_panic_nb);
	return 0;
}

/**
 * pfmk_crash_exit() - unregister the hooks
 *
 * No context is left (each pins pfmk), so the list is empty; the
 * unregistrations wait for the hooks running.
 *
 * Context: process context, at module unload.
 */
void pfmk_crash_exit(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list,
					 &pfmk_crash_panic_nb);
	unregister_die_notifier(&pfmk_crash_die_nb);
}
