// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk AUX wrappers (pmu/aux.h): kernel-owned AUX buffers on perf events,
 * over the API of pfmk's kernel patch (patches/linux-<series>/).  Built
 * only when the PFMK_HAVE_KERNEL_AUX probe finds that API.
 *
 * Which event of which context owns a buffer, and when, is the core's
 * business; these calls only attach, switch, read and copy.  The caller
 * serializes them, except pfmk_aux_buf_snippet(), which runs in the
 * overflow path (NMI or hard-irq, on the event's CPU) and only reads: the
 * owning event is published with rcu_assign_pointer() while the events
 * are disabled, and the kernel's copy runs under RCU, so a buffer is never
 * freed under a reader.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/minmax.h>
#include <linux/perf_event.h>
#include <linux/string.h>

#include "internal.h"

/* @buf->event for the calls the caller serializes with @buf->lock. */
static struct perf_event *pfmk_aux_buf_owner(const struct pfmk_aux_buf *buf)
{
	return rcu_dereference_protected(buf->event,
					 lockdep_is_held(buf->lock));
}

/* Data pages of the kernel-owned buffer: room for the PERF_RECORD_AUX. */
#define PFMK_AUX_DATA_PAGES	1

/* Is @event of an AUX PMU pfmk knows (PFMK_AUX_PMUS)? */
static bool pfmk_aux_pmu_ok(const struct perf_event *event)
{
	static const char * const names[] = PFMK_AUX_PMUS;
	const char *name = pfmk_perf_event_pmu_name(event);
	unsigned int i;

	if (!name)
		return false;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strncmp(name, names[i], strlen(names[i])))
			return true;
	return false;
}

/**
 * pfmk_aux_buf_attach() - give an event a kernel-owned AUX buffer
 * @buf: the buffer's size and flags (@buf->event is left alone).
 * @event: a disabled event.
 *
 * The buffer lives as long as @event, or until pfmk_aux_buf_switch()
 * detaches it.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL if @event is not of an AUX PMU pfmk knows; an error
 * of perf_event_attach_kernel_aux().
 */
int pfmk_aux_buf_attach(const struct pfmk_aux_buf *buf,
			struct perf_event *event)
{
	if (!pfmk_aux_pmu_ok(event))
		return -EINVAL;
	return perf_event_attach_kernel_aux(event, PFMK_AUX_DATA_PAGES,
					    buf->size >> PAGE_SHIFT,
					    (buf->flags & PFMK_AUX_SNAPSHOT) ?
					    PERF_KERNEL_AUX_OVERWRITE : 0);
}

/**
 * pfmk_aux_buf_switch() - make another event the owner of the buffer
 * @buf: the buffer.
 * @event: the new owner, given a buffer by pfmk_aux_buf_attach(), or
 *	NULL.
 *
 * Publishes @event as @buf->event, with a stream from 0, then detaches
 * the previous owner's buffer, if any.  The events must be disabled: no
 * overflow handler reads @buf meanwhile.
 *
 * Context: process context; may sleep; @buf->lock held.
 */
void pfmk_aux_buf_switch(struct pfmk_aux_buf *buf, struct perf_event *event)
{
	struct perf_event *old = pfmk_aux_buf_owner(buf);

	buf->truncated = 0;
	rcu_assign_pointer(buf->event, event);
	if (old)
		perf_event_detach_kernel_aux(old);
}

static unsigned long pfmk_aux_memcpy(void *data, const void *src,
				     unsigned long len)
{
	void **dst = data;

	memcpy(*dst, src, len);
	*dst += len;
	return 0;
}

/**
 * pfmk_aux_buf_snippet() - copy the last AUX bytes for a sample
 * @buf: the buffer.
 * @dst: destination.
 * @max: bytes wanted.
 * @snip: output: the snippet header (all zero without an owning event).
 *
 * The snippet is the data committed at the AUX PMU's last transaction end
 * (perf_aux_output_end()), which is where the head stands: a hardware
 * tracer that stays enabled (Intel PT in snapshot mode takes no PMI) may
 * have written past it and over the oldest bytes copied, and in
 * stop-when-full mode the head lags by up to the wakeup watermark.
 * Documentation/aux.rst, "Snippets".
 *
 * Context: the overflow path (NMI or hard-irq) on the event's CPU, or the
 * crash path (any context) under rcu_read_lock().
 */
void pfmk_aux_buf_snippet(const struct pfmk_aux_buf *buf, void *dst,
			  size_t max, struct pfmk_dfl_aux_snippet *snip)
{
	/*
	 * Not rcu_dereference_check(): this may run in NMI, where no lockdep
	 * check belongs.  The overflow path runs only while the events are
	 * enabled, and the owner changes only while they are disabled; the
	 * crash path holds rcu_read_lock(), and perf frees a released event
	 * after a grace period.
	 */
	struct perf_event *event = rcu_dereference_raw(buf->event);
	struct perf_kernel_aux_state st;
	u64 n;
	long ret;

	memset(snip, 0, sizeof(*snip));
	if (!event || perf_event_kernel_aux_state(event, &st, false))
		return;
	n = min3((u64)max, st.head, st.size);
	if (!st.overwrite)
		n = min(n, st.head - st.tail);
	snip->head = st.head;
	snip->flags = (st.overwrite && st.head > st.size) ?
		      PFMK_AUX_WRAPPED : 0;
	ret = perf_event_copy_kernel_aux(event, st.head - n, st.head,
					 pfmk_aux_memcpy, &dst);
	if (ret > 0)
		snip->len = ret;
}

struct pfmk_aux_cb {
	pfmk_aux_copy_t	fn;
	void		*data;
};

static unsigned long pfmk_aux_call(void *data, const void *src,
				   unsigned long len)
{
	struct pfmk_aux_cb *cb = data;

	return cb->fn(cb->data, src, len) ? len : 0;
}

/**
 * pfmk_aux_buf_copy() - copy AUX data out of a buffer
 * @buf: the buffer, with an owning event.
 * @max: at most this many bytes.
 * @running: the owning event is enabled (monitoring runs on it).
 * @fn: receives the data (pfmk_aux_copy()).
 * @data: passed to @fn.
 * @info: output, as for pfmk_aux_copy().
 *
 * In snapshot mode the event is paused (disabled) for the copy while
 * @running; in stop-when-full mode the space copied is handed back to the
 * PMU and, while @running, the event is enabled again in case the PMU
 * stopped it on a full buffer.
 *
 * Context: process context; may sleep; @buf->lock held.
 * Return: 0; -EFAULT if @fn stopped the copy; an error of the kernel's
 * AUX calls.
 */
int pfmk_aux_buf_copy(struct pfmk_aux_buf *buf, size_t max, bool running,
		      pfmk_aux_copy_t fn, void *data,
		      struct pfmk_aux_info *info)
{
	struct pfmk_aux_cb cb = { .fn = fn, .data = data };
	struct perf_event *event = pfmk_aux_buf_owner(buf);
	bool pause = running && (buf->flags & PFMK_AUX_SNAPSHOT);
	struct perf_kernel_aux_state st;
	u64 from, to;
	long ret;

	/* A snapshot is taken with the PMU paused: nothing moves under it. */
	if (pause)
		perf_event_disable(event);
	ret = perf_event_kernel_aux_state(event, &st, true);
	if (ret)
		goto out;

	if (st.overwrite) {
		to = st.head;
		from = to - min3((u64)max, st.head, st.size);
	} else {
		from = st.tail;
		to = from + min((u64)max, st.head - st.tail);
	}
	ret = perf_event_copy_kernel_aux(event, from, to, pfmk_aux_call, &cb);
	if (ret < 0)
		goto out;

	memset(info, 0, sizeof(*info));
	info->head = st.head;
	info->from = from;
	info->to = to;
	info->size = st.size;
	info->truncated = st.truncated;
	if (st.overwrite && st.head > st.size) {
		info->flags |= PFMK_AUX_WRAPPED;
		info->lost = st.head - st.size;
	}
	if (st.truncated != buf->truncated)
		info->flags |= PFMK_AUX_TRUNCATED;
	buf->truncated = st.truncated;
	ret = 0;

	if (!st.overwrite) {
		ret = perf_event_consume_kernel_aux(event, to);
		/*
		 * A PMU that found the buffer full disabled the event; enabling
		 * an enabled event does nothing.
		 */
		if (!ret && running)
			perf_event_enable(event);
	}
out:
	if (pause)
		perf_event_enable(event);
	return ret;
}
