// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk reclaim: contexts left open by a module that goes away.
 *
 * A context records the module that created it (the caller of
 * pfmk_create_context()).  A client module must close its contexts before
 * it unloads: its completion, its sampling-buffer reader and its code are
 * about to disappear.  If it does not, pfmk closes them when the module
 * goes (MODULE_STATE_GOING, after the module's exit function returned and
 * before its memory is freed), so no overflow handler, irq_work or
 * hotplug work of such a context runs afterwards, and warns once.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/notifier.h>

#include "internal.h"

static unsigned int pfmk_reclaim_module(struct module *mod)
{
	unsigned long index = 0;
	unsigned int n = 0;
	struct pfmk_ctx *ctx;

	while ((ctx = pfmk_desc_next(&index))) {
		if (ctx->owner == mod) {
			mutex_lock(&ctx->mutex);
			if (!ctx->dead) {
				pfmk_ctx_close(ctx);
				n++;
			}
			mutex_unlock(&ctx->mutex);
		}
		pfmk_desc_put(ctx);
		index++;
	}
	return n;
}

static int pfmk_module_notify(struct notifier_block *nb, unsigned long action,
			      void *data)
{
	struct module *mod = data;
	unsigned int n;

	if (action != MODULE_STATE_GOING || mod == THIS_MODULE)
		return NOTIFY_DONE;
	n = pfmk_reclaim_module(mod);
	if (n) {
		atomic64_add(n, &pfmk_counters.reclaimed);
		pr_warn_once("module %s unloaded with %u open context(s); pfmk closed them (further reclaims are counted in debugfs pfmk/stats)\n",
			     mod->name, n);
	}
	return NOTIFY_OK;
}

static struct notifier_block pfmk_module_nb = {
	.notifier_call = pfmk_module_notify,
};

/**
 * pfmk_reclaim_init() - start watching client modules
 *
 * Context: process context; may sleep.
 * Return: 0 or a negative errno.
 */
int pfmk_reclaim_init(void)
{
	return register_module_notifier(&pfmk_module_nb);
}

/**
 * pfmk_reclaim_exit() - stop watching client modules
 *
 * Context: process context; may sleep.
 */
void pfmk_reclaim_exit(void)
{
	unregister_module_notifier(&pfmk_module_nb);
}
