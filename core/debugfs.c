// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk debugfs: what is alive, so that users and tests can see leaks.
 *
 *   /sys/kernel/debug/pfmk/contexts	one line per open context
 *   /sys/kernel/debug/pfmk/stats	pfmk-wide counters and limits
 *
 * Both files are read-only, for root; their formats are described in
 * Documentation/reliability.rst and may grow columns at the end.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "internal.h"

static struct dentry *pfmk_debugfs_dir;

static const char *pfmk_state_name(int state)
{
	switch (state & 0xff) {
	case PFM_CTX_UNLOADED:
		return "unloaded";
	case PFM_CTX_LOADED:
		return "loaded";
	case PFM_CTX_MASKED:
		return "masked";
	default:
		return "?";
	}
}

static void pfmk_debugfs_ctx(struct seq_file *m, struct pfmk_ctx *ctx)
{
	struct pfmk_ctx_stats st;
	unsigned int i, pmds = 0;
	int state;

	state = pfmk_ctx_state(ctx);
	for (i = 0; i < ctx->pmu->num_pmcs; i++)
		pmds += !!pfmk_pmd_event(&pfmk_ctx_active_set(ctx)->pmds[i]);
	pfmk_ovfl_get_stats(ctx, &st);
	seq_printf(m, "%#018lx %4d %-8s %-7s %-7s %4u %4u %10llu %8u %10llu %9llu %-10s %s\n",
		   pfmk_desc_of(ctx), ctx->cpu, pfmk_state_name(state),
		   (state & PFMK_STATE_STARTED) ? "started" : "stopped",
		   (state & PFMK_STATE_OFFLINE) ? "offline" : "-",
		   ctx->nr_sets, pmds, st.smpl_count, READ_ONCE(ctx->msgq.count),
		   st.ovfl_count, st.throttled, ctx->pmu->name,
		   ctx->owner ? module_name(ctx->owner) : "-");
}

static int pfmk_contexts_show(struct seq_file *m, void *v)
{
	unsigned long index = 0;
	struct pfmk_ctx *ctx;

	seq_puts(m, "# handle            cpu state    run     cpu     sets pmds    samples     msgs  overflows throttles pmu        owner\n");
	while ((ctx = pfmk_desc_next(&index))) {
		mutex_lock(&ctx->mutex);
		if (!ctx->dead)
			pfmk_debugfs_ctx(m, ctx);
		mutex_unlock(&ctx->mutex);
		pfmk_desc_put(ctx);
		index++;
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pfmk_contexts);

static int pfmk_stats_show(struct seq_file *m, void *v)
{
	struct pfmk_global_stats st;

	pfmk_get_counters(&st);
	seq_printf(m, "contexts_alive %llu\n", st.ctx_alive);
	seq_printf(m, "contexts_created %llu\n", st.ctx_created);
	seq_printf(m, "contexts_freed %llu\n", st.ctx_freed);
	seq_printf(m, "contexts_open %llu\n", st.ctx_open);
	seq_printf(m, "contexts_reclaimed %llu\n", st.ctx_reclaimed);
	seq_printf(m, "events %llu\n", st.events);
	seq_printf(m, "smpl_bytes %llu\n", st.smpl_bytes);
	seq_printf(m, "mem_bytes %llu\n", st.mem_bytes);
	seq_printf(m, "cpu_offline %llu\n", st.cpu_offline);
	seq_printf(m, "cpu_online %llu\n", st.cpu_online);
	seq_printf(m, "rearm_failed %llu\n", st.rearm_failed);
	seq_printf(m, "max_contexts %u\n", READ_ONCE(pfmk_max_contexts));
	seq_printf(m, "max_events %u\n", READ_ONCE(pfmk_max_events));
	seq_printf(m, "max_smpl_buf %lu\n", READ_ONCE(pfmk_max_smpl_buf));
	seq_printf(m, "max_smpl_mem %lu\n", READ_ONCE(pfmk_max_smpl_mem));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pfmk_stats);

/**
 * pfmk_debugfs_init() - create /sys/kernel/debug/pfmk
 *
 * debugfs is a debugging aid: failures are ignored, as debugfs wants.
 *
 * Context: process context; may sleep.
 */
void pfmk_debugfs_init(void)
{
	pfmk_debugfs_dir = debugfs_create_dir("pfmk", NULL);
	debugfs_create_file("contexts", 0400, pfmk_debugfs_dir, NULL,
			    &pfmk_contexts_fops);
	debugfs_create_file("stats", 0400, pfmk_debugfs_dir, NULL,
			    &pfmk_stats_fops);
}

/**
 * pfmk_debugfs_exit() - remove /sys/kernel/debug/pfmk
 *
 * Context: process context; may sleep.
 */
void pfmk_debugfs_exit(void)
{
	debugfs_remove_recursive(pfmk_debugfs_dir);
}
