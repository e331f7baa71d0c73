/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel interfaces that differ between the kernels pfmk builds against
 * (Linux 6.1 to 7.2) and that a client module may want too, wrapped in one
 * place as LTTng's wrapper/ headers do.  Each difference is chosen by a
 * feature probe, here a macro's own definition; there is no
 * LINUX_VERSION_CODE test, so a distribution kernel with a backport gets
 * the right spelling.  The symbol namespace form is in <pfmk/ns.h>; the
 * wrappers only pfmk itself needs are in pmu/compat_internal.h, which is
 * not installed.
 */
#ifndef _PFMK_COMPAT_H
#define _PFMK_COMPAT_H

#include <linux/slab.h>

/*
 * pfmk_kzalloc_obj() and pfmk_kvzalloc_obj() allocate one zeroed object of
 * the type of their first argument (x = pfmk_kzalloc_obj(*x, GFP_KERNEL)):
 * the kernel's kzalloc_obj() and kvzalloc_obj() where <linux/slab.h> has
 * them (newer kernels' checkpatch asks for them instead of
 * kzalloc(sizeof(*x), ...)), an equivalent elsewhere; their probe is the
 * kernel's macro itself.  pfmk-prefixed: a client including this header
 * gets no kernel-looking name defined behind its back.
 */
#ifdef kzalloc_obj
#define pfmk_kzalloc_obj(P, GFP)	kzalloc_obj(P, GFP)
#else
#define pfmk_kzalloc_obj(P, GFP)	\
	({ typeof(P) *__p = kzalloc(sizeof(P), GFP); __p; })
#endif
#ifdef kvzalloc_obj
#define pfmk_kvzalloc_obj(P, GFP)	kvzalloc_obj(P, GFP)
#else
#define pfmk_kvzalloc_obj(P, GFP)	\
	({ typeof(P) *__p = kvzalloc(sizeof(P), GFP); __p; })
#endif

#endif /* _PFMK_COMPAT_H */
