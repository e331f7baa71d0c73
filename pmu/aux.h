/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk AUX compat header: the kernel-owned AUX buffers of pfmk's kernel
 * patch (patches/linux-<series>/), wrapped for the core.
 *
 * The PFMK_HAVE_KERNEL_AUX probe (client.kbuild) finds the patch's API in
 * <linux/perf_event.h>; Kbuild then builds pmu/aux.o, which implements
 * the calls below.  Without it, the static inline stubs of this header
 * stand in: no buffer can be attached, every copy fails with -EOPNOTSUPP
 * and a snippet is empty.  This is the one place that tests the probe.
 *
 * The calls act on perf events and on a struct pfmk_aux_buf, never on a
 * context: the core decides which event of which context owns a buffer,
 * and serializes the calls (Documentation/aux.rst).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_PMU_AUX_H
#define _PFMK_PMU_AUX_H

#include <linux/errno.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/types.h>
#include <pfmk/aux.h>

struct perf_event;

/**
 * struct pfmk_aux_buf - a kernel-owned AUX buffer and the event owning it
 * @event: the event that owns the buffer, else NULL; published by
 *	pfmk_aux_buf_switch() while the events are disabled, read by
 *	pfmk_aux_buf_snippet() in the overflow and crash paths (perf frees
 *	an event a grace period after its release).  Others test it with
 *	rcu_access_pointer().
 * @lock: the mutex the caller serializes pfmk_aux_buf_switch() and
 *	pfmk_aux_buf_copy() with (the core's context mutex), set before
 *	either is called: lockdep checks @event's updates and reads against it.
 * @size: buffer size in bytes, a power of two.
 * @flags: PFMK_AUX_SNAPSHOT or 0.
 * @truncated: truncated transactions seen by the previous copy.
 */
struct pfmk_aux_buf {
	struct perf_event __rcu	*event;
	struct mutex		*lock;	/* serializes switch and copy */
	size_t			size;
	unsigned int		flags;
	u64			truncated;
};

#ifdef PFMK_HAVE_KERNEL_AUX

/**
 * pfmk_aux_buf_supported() - was pfmk built with kernel-owned AUX buffers?
 *
 * Context: any context.
 * Return: true if the kernel has pfmk's kernel-owned AUX patch.
 */
static inline bool pfmk_aux_buf_supported(void)
{
	return true;
}

int pfmk_aux_buf_attach(const struct pfmk_aux_buf *buf,
			struct perf_event *event);
void pfmk_aux_buf_switch(struct pfmk_aux_buf *buf, struct perf_event *event);
void pfmk_aux_buf_snippet(const struct pfmk_aux_buf *buf, void *dst,
			  size_t max, struct pfmk_dfl_aux_snippet *snip);
int pfmk_aux_buf_copy(struct pfmk_aux_buf *buf, size_t max, bool running,
		      pfmk_aux_copy_t fn, void *data,
		      struct pfmk_aux_info *info);

#else /* !PFMK_HAVE_KERNEL_AUX */

static inline bool pfmk_aux_buf_supported(void)
{
	return false;
}

static inline int pfmk_aux_buf_attach(const struct pfmk_aux_buf *buf,
				      struct perf_event *event)
{
	return -EOPNOTSUPP;
}

static inline void pfmk_aux_buf_switch(struct pfmk_aux_buf *buf,
				       struct perf_event *event)
{
}

static inline void pfmk_aux_buf_snippet(const struct pfmk_aux_buf *buf,
					void *dst, size_t max,
					struct pfmk_dfl_aux_snippet *snip)
{
	memset(snip, 0, sizeof(*snip));
}

static inline int pfmk_aux_buf_copy(struct pfmk_aux_buf *buf, size_t max,
				    bool running, pfmk_aux_copy_t fn,
				    void *data, struct pfmk_aux_info *info)
{
	return -EOPNOTSUPP;
}

#endif /* PFMK_HAVE_KERNEL_AUX */

#endif /* _PFMK_PMU_AUX_H */
