// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk limits and pfmk-wide accounting.
 *
 * Every resource a caller can make pfmk allocate is bounded by a limit
 * below (module parameters, writable by root at run time through
 * /sys/module/pfmk/parameters/; a new value applies to later requests).
 * A request that would go over a limit fails before anything is
 * allocated: with -E2BIG when the request alone is too big, with -ENOMEM
 * when the total over all contexts would be.  The "Limits" section of
 * Documentation/reliability.rst lists them; the message queue (8 entries
 * a context) and the numbers of registers (the PMU description's) are
 * bounded by construction.
 *
 * The counters are what pfmk_get_global_stats() and debugfs report.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>

#include "internal.h"

unsigned int pfmk_max_contexts = 1024;
module_param_named(max_contexts, pfmk_max_contexts, uint, 0644);
MODULE_PARM_DESC(max_contexts,
		 "open contexts over all callers; create gets -ENOMEM beyond (default 1024)");

unsigned int pfmk_max_events = 4096;
module_param_named(max_events, pfmk_max_events, uint, 0644);
MODULE_PARM_DESC(max_events,
		 "perf events (used PMDs of loaded contexts) over all contexts; -ENOMEM beyond (default 4096)");

unsigned long pfmk_max_smpl_buf = SZ_64M;
module_param_named(max_smpl_buf, pfmk_max_smpl_buf, ulong, 0644);
MODULE_PARM_DESC(max_smpl_buf,
		 "bytes of one sampling buffer; create gets -E2BIG beyond (default 64 MiB)");

unsigned long pfmk_max_smpl_mem = SZ_256M;
module_param_named(max_smpl_mem, pfmk_max_smpl_mem, ulong, 0644);
MODULE_PARM_DESC(max_smpl_mem,
		 "bytes of all sampling buffers; create gets -ENOMEM beyond (default 256 MiB)");

struct pfmk_counters pfmk_counters;

/**
 * pfmk_charge() - take one unit of a counted resource
 * @count: the resource's counter.
 * @limit: the limit.
 *
 * Context: any context.
 * Return: true if @count was below @limit and was incremented.
 */
bool pfmk_charge(atomic_t *count, unsigned int limit)
{
	int old = atomic_read(count);

	do {
		if ((unsigned int)old >= limit)
			return false;
	} while (!atomic_try_cmpxchg(count, &old, old + 1));
	return true;
}

/**
 * pfmk_charge_long() - take @n units of a counted resource
 * @count: the resource's counter.
 * @n: units to take.
 * @limit: the limit.
 *
 * Context: any context.
 * Return: true if @count + @n stayed within @limit and @count was raised.
 */
bool pfmk_charge_long(atomic_long_t *count, unsigned long n,
		      unsigned long limit)
{
	long old = atomic_long_read(count);

	do {
		if (n > limit || (unsigned long)old > limit - n)
			return false;
	} while (!atomic_long_try_cmpxchg(count, &old, old + n));
	return true;
}

/**
 * pfmk_get_counters() - snapshot of the pfmk-wide counters
 * @st: output.
 *
 * The counters are read one by one: a snapshot taken while other callers
 * work is not atomic as a whole.
 *
 * Context: any context.
 */
void pfmk_get_counters(struct pfmk_global_stats *st)
{
	struct pfmk_counters *c = &pfmk_counters;

	memset(st, 0, sizeof(*st));
	st->ctx_freed = atomic64_read(&c->freed);
	st->ctx_created = atomic64_read(&c->created);
	st->ctx_alive = st->ctx_created - st->ctx_freed;
	st->ctx_open = atomic_read(&c->open);
	st->ctx_reclaimed = atomic64_read(&c->reclaimed);
	st->events = atomic_read(&c->events);
	st->smpl_bytes = atomic_long_read(&c->smpl_bytes);
	st->mem_bytes = atomic_long_read(&c->mem_bytes);
	st->cpu_offline = atomic64_read(&c->cpu_offline);
	st->cpu_online = atomic64_read(&c->cpu_online);
	st->rearm_failed = atomic64_read(&c->rearm_failed);
}
