// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk AUX support (<pfmk/aux.h>): kernel-owned AUX buffers for PMDs of
 * AUX-capable PMUs, on the kernel API added by pfmk's kernel patch
 * (patches/linux-<series>/, PFMK_HAVE_KERNEL_AUX Kbuild probe).
 *
 * A context has at most one AUX PMD (ctx->aux, set up while unloaded): a
 * PMD of event set 0, which captures while set 0 is the active set.
 * Its buffer lives as long as the PMD's perf event: attached at load
 * (pfmk_aux_load()), freed at unload (pfmk_aux_unload()), both under
 * ctx->mutex.  A write of the AUX PMD's PMC or PMD on a loaded, stopped
 * context replaces the PMD's event: the replacement gets a new buffer
 * before anything is changed (pfmk_aux_attach_new()), then takes over
 * aux->event while the old event and its buffer go (pfmk_aux_rebind());
 * what the old buffer held is lost, as on a new load.
 * pfmk_aux_copy() runs under ctx->mutex too.  The sampling path
 * (pfmk_aux_snippet()) runs in NMI or hard-irq context on the context's
 * CPU and only reads: aux->event is published with
 * WRITE_ONCE() while the events are disabled, and the kernel's copy
 * runs under RCU, so a buffer is never freed under a reader.
 *
 * Without the patch, the calls return -EOPNOTSUPP and log a hint once.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/log2.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/compat.h>
#include <pfmk/aux.h>
#include <pfmk/ns.h>

#include "../core/internal.h"

/**
 * struct pfmk_aux - the AUX set-up of a context
 * @pmd: the AUX PMD.
 * @size: AUX buffer size in bytes.
 * @flags: PFMK_AUX_* set-up flags.
 * @event: the PMD's event while it owns a buffer, else NULL.
 * @truncated: truncated transactions seen by the previous copy.
 */
struct pfmk_aux {
	unsigned int		pmd;
	size_t			size;
	unsigned int		flags;
	struct perf_event	*event;
	u64			truncated;
};

#ifdef PFMK_HAVE_KERNEL_AUX

/**
 * pfmk_aux_supported() - does this kernel support kernel-owned AUX buffers?
 *
 * Context: any context.
 * Return: true if pfmk was built against a kernel with the patch.
 */
bool pfmk_aux_supported(void)
{
	return true;
}

/* Data pages of the kernel-owned buffer: room for the PERF_RECORD_AUX. */
#define PFMK_AUX_DATA_PAGES	1

static bool pfmk_aux_pmu_ok(const struct perf_event *event)
{
	static const char * const names[] = PFMK_AUX_PMUS;
	const char *name = event->pmu->name;
	unsigned int i;

	if (!name)
		return false;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strncmp(name, names[i], strlen(names[i])))
			return true;
	return false;
}

static int pfmk_aux_attach(struct pfmk_aux *aux, struct perf_event *event)
{
	if (!pfmk_aux_pmu_ok(event))
		return -EINVAL;
	return perf_event_attach_kernel_aux(event, PFMK_AUX_DATA_PAGES,
					    aux->size >> PAGE_SHIFT,
					    (aux->flags & PFMK_AUX_SNAPSHOT) ?
					    PERF_KERNEL_AUX_OVERWRITE : 0);
}

/**
 * pfmk_aux_load() - attach the AUX buffer of a context being loaded
 * @ctx: the context, locked; its sets' events exist, disabled.
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0; -EINVAL if the AUX PMD has no event or its PMU is not an
 * AUX PMU pfmk knows; an error of perf_event_attach_kernel_aux().
 */
int pfmk_aux_load(struct pfmk_ctx *ctx)
{
	struct pfmk_aux *aux = ctx->aux;
	struct perf_event *event;
	int ret;

	lockdep_assert_held(&ctx->mutex);

	if (!aux)
		return 0;
	/* The AUX PMD is a PMD of set 0: it captures while set 0 is active. */
	event = ctx->set0.pmds[aux->pmd].event;
	if (!event)
		return -EINVAL;
	ret = pfmk_aux_attach(aux, event);
	if (ret)
		return ret;
	aux->truncated = 0;
	WRITE_ONCE(aux->event, event);
	return 0;
}

/* Is PMD @num of @set the AUX PMD of a loaded context? */
static bool pfmk_aux_is_pmd(const struct pfmk_ctx *ctx,
			    const struct pfmk_set *set, unsigned int num)
{
	const struct pfmk_aux *aux = ctx->aux;

	return aux && aux->event && set == &ctx->set0 && num == aux->pmd;
}

/**
 * pfmk_aux_attach_new() - give a replacement event of the AUX PMD a buffer
 * @ctx: the context, locked, loaded and stopped.
 * @set: the set of the PMD being rewritten.
 * @num: the PMD being rewritten.
 * @event: its new, disabled event.
 *
 * Called before anything of the write is applied, so that a failure
 * leaves the context as it was; the caller destroys @event on error
 * (which frees the buffer with it).
 *
 * Context: process context; may sleep; ctx->mutex held.
 * Return: 0 (also when @num is not the AUX PMD); -EBUSY if @event is NULL
 * (the write disables the AUX PMD's PMC: unload first); -EINVAL if @event
 * is not of an AUX PMU pfmk knows; an error of
 * perf_event_attach_kernel_aux().
 */
int pfmk_aux_attach_new(struct pfmk_ctx *ctx, const struct pfmk_set *set,
			unsigned int num, struct perf_event *event)
{
	lockdep_assert_held(&ctx->mutex);
	if (!pfmk_aux_is_pmd(ctx, set, num))
		return 0;
	if (!event)
		return -EBUSY;
	return pfmk_aux_attach(ctx->aux, event);
}

/**
 * pfmk_aux_rebind() - make the AUX PMD's replacement event the AUX event
 * @ctx: the context, locked, loaded and stopped: no overflow handler runs.
 * @set: as for pfmk_aux_attach_new().
 * @num: as for pfmk_aux_attach_new().
 * @event: the replacement, given a buffer by pfmk_aux_attach_new().
 *
 * Detaches the old event's buffer; the caller then releases the old
 * event.  Nothing is done when @num is not the AUX PMD.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_aux_rebind(struct pfmk_ctx *ctx, const struct pfmk_set *set,
		     unsigned int num, struct perf_event *event)
{
	struct pfmk_aux *aux = ctx->aux;
	struct perf_event *old;

	lockdep_assert_held(&ctx->mutex);
	if (!pfmk_aux_is_pmd(ctx, set, num))
		return;
	old = aux->event;
	aux->truncated = 0;
	WRITE_ONCE(aux->event, event);
	perf_event_detach_kernel_aux(old);
}

/**
 * pfmk_aux_unload() - free the AUX buffer of a context being unloaded
 * @ctx: the context, locked, stopped: no overflow handler runs.
 *
 * Context: process context; may sleep; ctx->mutex held.
 */
void pfmk_aux_unload(struct pfmk_ctx *ctx)
{
	struct pfmk_aux *aux = ctx->aux;
	struct perf_event *event;

	lockdep_assert_held(&ctx->mutex);

	if (!aux || !aux->event)
		return;
	event = aux->event;
	WRITE_ONCE(aux->event, NULL);
	perf_event_detach_kernel_aux(event);
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
 * pfmk_aux_snippet() - copy the last AUX bytes for a sample
 * @ctx: the context of the overflow.
 * @dst: destination.
 * @max: bytes wanted.
 * @snip: output: the snippet header.
 *
 * The snippet is the data committed at the AUX PMU's last transaction end
 * (perf_aux_output_end()), which is where the head stands: a hardware
 * tracer that stays enabled (Intel PT in snapshot mode takes no PMI) may
 * have written past it and over the oldest bytes copied, and in
 * stop-when-full mode the head lags by up to the wakeup watermark.
 * Documentation/aux.rst, "Snippets".
 *
 * Context: the overflow path (NMI or hard-irq) on the context's CPU.
 */
void pfmk_aux_snippet(struct pfmk_ctx *ctx, void *dst, size_t max,
		      struct pfmk_dfl_aux_snippet *snip)
{
	struct perf_kernel_aux_state st;
	struct pfmk_aux *aux = ctx->aux;
	struct perf_event *event;
	u64 n;
	long ret;

	memset(snip, 0, sizeof(*snip));
	event = aux ? READ_ONCE(aux->event) : NULL;
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

static int pfmk_ctx_aux_copy(struct pfmk_ctx *ctx, size_t max,
			     pfmk_aux_copy_t fn, void *data,
			     struct pfmk_aux_info *info)
{
	struct pfmk_aux_cb cb = { .fn = fn, .data = data };
	struct pfmk_aux *aux = ctx->aux;
	struct perf_kernel_aux_state st;
	bool running;
	struct perf_event *event;
	u64 from, to;
	long ret;

	if (!aux)
		return -ENXIO;
	if (ctx->state == PFM_CTX_UNLOADED || !aux->event)
		return -ENOTCONN;
	event = aux->event;
	/*
	 * Events keep counting while masked: paused and resumed alike.  With
	 * event sets, set 0's events (the AUX PMD's) run only while it is
	 * the active set.
	 */
	running = ctx->started && ctx->active_set == &ctx->set0;

	/* A snapshot is taken with the PMU paused: nothing moves under it. */
	if (running && (aux->flags & PFMK_AUX_SNAPSHOT))
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
	if (st.truncated != aux->truncated)
		info->flags |= PFMK_AUX_TRUNCATED;
	aux->truncated = st.truncated;
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
	if (running && (aux->flags & PFMK_AUX_SNAPSHOT))
		perf_event_enable(event);
	return ret;
}

#else /* !PFMK_HAVE_KERNEL_AUX */

bool pfmk_aux_supported(void)
{
	return false;
}

int pfmk_aux_load(struct pfmk_ctx *ctx)
{
	return ctx->aux ? -EOPNOTSUPP : 0;
}

void pfmk_aux_unload(struct pfmk_ctx *ctx)
{
}

int pfmk_aux_attach_new(struct pfmk_ctx *ctx, const struct pfmk_set *set,
			unsigned int num, struct perf_event *event)
{
	return 0;
}

void pfmk_aux_rebind(struct pfmk_ctx *ctx, const struct pfmk_set *set,
		     unsigned int num, struct perf_event *event)
{
}

void pfmk_aux_snippet(struct pfmk_ctx *ctx, void *dst, size_t max,
		      struct pfmk_dfl_aux_snippet *snip)
{
	memset(snip, 0, sizeof(*snip));
}

static int pfmk_ctx_aux_copy(struct pfmk_ctx *ctx, size_t max,
			     pfmk_aux_copy_t fn, void *data,
			     struct pfmk_aux_info *info)
{
	return -EOPNOTSUPP;
}

#endif /* PFMK_HAVE_KERNEL_AUX */
EXPORT_SYMBOL_GPL(pfmk_aux_supported);

static void pfmk_aux_hint(void)
{
	pr_info_once("AUX buffers need a kernel with pfmk's kernel-owned AUX patch (patches/linux-<series>/, see Documentation/aux.rst)\n");
}

/**
 * pfmk_aux_pmd_set_up() - is a PMD the AUX PMD of a context?
 * @ctx: the context, locked.
 * @set: a set of the context.
 * @num: a PMD number.
 *
 * Context: ctx->mutex held.
 * Return: true if @ctx has an AUX set-up on PMD @num of @set.
 */
bool pfmk_aux_pmd_set_up(const struct pfmk_ctx *ctx,
			 const struct pfmk_set *set, unsigned int num)
{
	lockdep_assert_held(&ctx->mutex);

	return ctx->aux && set == &ctx->set0 && num == ctx->aux->pmd;
}

/*
 * An AUX set-up is memory the caller makes pfmk allocate (at load): it
 * counts from the set-up on, as a sampling buffer does, in smpl_bytes
 * against max_smpl_mem and in mem_bytes (its data page included).
 */
static size_t pfmk_aux_mem(size_t size)
{
	return size + PAGE_SIZE;
}

static bool pfmk_aux_charge(size_t size)
{
	if (!pfmk_charge_long(&pfmk_counters.smpl_bytes, pfmk_aux_mem(size),
			      READ_ONCE(pfmk_max_smpl_mem)))
		return false;
	atomic_long_add(pfmk_aux_mem(size), &pfmk_counters.mem_bytes);
	return true;
}

static void pfmk_aux_uncharge(size_t size)
{
	atomic_long_sub(pfmk_aux_mem(size), &pfmk_counters.smpl_bytes);
	atomic_long_sub(pfmk_aux_mem(size), &pfmk_counters.mem_bytes);
}

/**
 * pfmk_aux_free() - forget the AUX set-up of a context being closed
 * @ctx: the context, locked and unloaded.
 *
 * Context: process context; ctx->mutex held.
 */
void pfmk_aux_free(struct pfmk_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);

	if (ctx->aux)
		pfmk_aux_uncharge(ctx->aux->size);
	kfree(ctx->aux);
	ctx->aux = NULL;
}

static int pfmk_ctx_aux_setup(struct pfmk_ctx *ctx, unsigned int pmd,
			      size_t size, unsigned int flags)
{
	struct pfmk_aux *aux;

	if (pmd >= ctx->pmu->num_pmcs || (flags & ~PFMK_AUX_SNAPSHOT))
		return -EINVAL;
	if (size && (size < PFMK_AUX_MIN_SIZE || size > PFMK_AUX_MAX_SIZE ||
		     !is_power_of_2(size)))
		return -EINVAL;
	if (!pfmk_aux_supported()) {
		pfmk_aux_hint();
		return -EOPNOTSUPP;
	}
	if (ctx->state != PFM_CTX_UNLOADED)
		return -EBUSY;
	if (!size) {
		pfmk_aux_free(ctx);
		return 0;
	}
	aux = ctx->aux;
	if (!aux) {
		aux = kzalloc_obj(*aux, GFP_KERNEL);
		if (!aux)
			return -ENOMEM;
		if (!pfmk_aux_charge(size)) {
			kfree(aux);
			return -ENOMEM;
		}
		ctx->aux = aux;
	} else if (size > aux->size) {
		/* Only the growth is charged: the set-up is replaced. */
		if (!pfmk_charge_long(&pfmk_counters.smpl_bytes,
				      size - aux->size,
				      READ_ONCE(pfmk_max_smpl_mem)))
			return -ENOMEM;
		atomic_long_add(size - aux->size, &pfmk_counters.mem_bytes);
	} else {
		atomic_long_sub(aux->size - size, &pfmk_counters.smpl_bytes);
		atomic_long_sub(aux->size - size, &pfmk_counters.mem_bytes);
	}
	aux->pmd = pmd;
	aux->size = size;
	aux->flags = flags;
	return 0;
}

/**
 * pfmk_aux_setup() - give a PMD of a context an AUX buffer
 * @desc: context descriptor.
 * @pmd: the PMD, of event set 0; its event must be of an AUX PMU
 *	(PFMK_AUX_PMUS), which is checked at load.  It captures while set 0
 *	is the active set.
 * @size: AUX buffer size in bytes: a power of two from PFMK_AUX_MIN_SIZE
 *	to PFMK_AUX_MAX_SIZE; 0 removes the set-up.
 * @flags: PFMK_AUX_SNAPSHOT for overwrite (snapshot) mode; without it the
 *	PMU stops when the buffer is full, until pfmk_aux_copy() makes room.
 *
 * The buffer is allocated and attached when the context is loaded
 * (pfmk_load_context() then fails with -EINVAL if the PMD has no event or
 * its PMU is not an AUX PMU, or with perf's error) and freed when it is
 * unloaded or closed.  One AUX PMD per context; a new call replaces the
 * set-up.
 *
 * Context: process context; may sleep.
 * The buffer (and one data page) counts from the set-up on in pfmk's
 * smpl_bytes, against the max_smpl_mem limit, and in mem_bytes.
 *
 * Return: 0; -EBADF; -EINVAL for a bad @pmd, @size or @flags;
 * -EOPNOTSUPP if the kernel lacks the kernel-owned AUX patch (a hint is
 * logged once); -EBUSY if the context is loaded; -ENOMEM at the
 * max_smpl_mem limit or out of memory.
 */
int pfmk_aux_setup(void *desc, unsigned int pmd, size_t size,
		   unsigned int flags)
{
	struct pfmk_ctx *ctx = pfmk_ctx_lock(desc);
	int ret;

	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfmk_ctx_aux_setup(ctx, pmd, size, flags);
	pfmk_ctx_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_aux_setup);

/**
 * pfmk_aux_copy() - copy AUX data out of a loaded context
 * @desc: context descriptor.
 * @max: at most this many bytes.
 * @fn: receives the data, in stream order, piece by piece; must not sleep.
 * @data: passed to @fn.
 * @info: output: what was copied, and the buffer's history.
 *
 * Snapshot mode: copies the last min(@max, buffer size) bytes before the
 * head; while monitoring runs, the AUX event is paused (disabled) for the
 * copy.  Stop-when-full mode: copies from the tail (the end of the
 * previous copy) up to @max bytes, then hands the space back to the PMU
 * and, if the PMU stopped on a full buffer while monitoring runs, resumes
 * it.  @info->flags tells whether the stream wrapped (snapshot) and
 * whether the PMU truncated its output since the previous copy.
 *
 * Context: process context; may sleep.
 * Return: 0; -EBADF; -EINVAL if @fn or @info is NULL; -ENXIO if the
 * context has no AUX set-up; -ENOTCONN if it is not loaded; -EFAULT if
 * @fn stopped the copy; -EOPNOTSUPP without the kernel patch.
 */
int pfmk_aux_copy(void *desc, size_t max, pfmk_aux_copy_t fn, void *data,
		  struct pfmk_aux_info *info)
{
	struct pfmk_ctx *ctx;
	int ret;

	ctx = pfmk_ctx_lock(desc);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = -EINVAL;
	if (fn && info) {
		ret = pfmk_ctx_aux_copy(ctx, max, fn, data, info);
		if (ret == -EOPNOTSUPP)
			pfmk_aux_hint();
	}
	pfmk_ctx_unlock(ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(pfmk_aux_copy);
