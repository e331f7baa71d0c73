/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel interfaces that differ between the kernels pfmk builds against
 * (Linux 6.1 to 7.2), wrapped in one place as LTTng's wrapper/ headers do.
 * Each difference is chosen by a feature probe: a macro's own definition,
 * or a probe in client.kbuild, which greps the target kernel's headers and
 * defines PFMK_HAVE_<feature>; there is no LINUX_VERSION_CODE test, so a
 * distribution kernel with a backport gets the right spelling.  The
 * symbol namespace form is in <pfmk/ns.h>.
 */
#ifndef _PFMK_COMPAT_H
#define _PFMK_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/slab.h>

/**
 * pfmk_hrtimer_setup() - initialize an hrtimer with its callback
 * @timer: the timer.
 * @function: its expiry callback.
 * @clock_id: the clock, e.g. CLOCK_MONOTONIC.
 * @mode: the timer mode (HRTIMER_MODE_*).
 *
 * hrtimer_setup() (Linux 6.13) sets the callback with the rest and
 * replaced hrtimer_init(), which later kernels no longer have; before it,
 * hrtimer_init() and an assignment of @timer->function do the same.
 * Probe: PFMK_HAVE_HRTIMER_SETUP.
 */
static inline void
pfmk_hrtimer_setup(struct hrtimer *timer,
		   enum hrtimer_restart (*function)(struct hrtimer *),
		   clockid_t clock_id, enum hrtimer_mode mode)
{
#ifdef PFMK_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, function, clock_id, mode);
#else
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
#endif
}

/*
 * kzalloc_obj() and kvzalloc_obj() allocate one zeroed object of the type
 * of their first argument (x = kzalloc_obj(*x, GFP_KERNEL)), and newer
 * kernels' checkpatch asks for them instead of kzalloc(sizeof(*x), ...).
 * Where <linux/slab.h> lacks them they are defined here; their probe is
 * the macro itself.  pfmk always passes the gfp flags.
 */
#ifndef kzalloc_obj
#define kzalloc_obj(P, GFP)	({ typeof(P) *__p = kzalloc(sizeof(P), GFP); __p; })
#endif
#ifndef kvzalloc_obj
#define kvzalloc_obj(P, GFP)	({ typeof(P) *__p = kvzalloc(sizeof(P), GFP); __p; })
#endif

#endif /* _PFMK_COMPAT_H */
