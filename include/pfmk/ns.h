/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk symbol namespace, spelled for the kernel being built against.
 *
 * Linux 6.13 changed EXPORT_SYMBOL_NS_GPL() and MODULE_IMPORT_NS() to take
 * a string literal ("PFMK"); earlier kernels take a bare token (PFMK) and
 * stringify it.  PFMK_NS is the one macro that covers both: pass it as the
 * namespace argument of either macro.  client.kbuild (included by pfmk's
 * own Kbuild and by client modules' Kbuild files) probes <linux/export.h>
 * and defines PFMK_NS_STRING or PFMK_NS_TOKEN; there is no version test.
 * pfmk's own exports are plain EXPORT_SYMBOL_GPL() with
 * DEFAULT_SYMBOL_NAMESPACE, which its Kbuild sets from another probe.
 */
#ifndef _PFMK_NS_H
#define _PFMK_NS_H

#include <linux/export.h>
#include <linux/module.h>

#if defined(PFMK_NS_STRING)
#define PFMK_NS		"PFMK"
#elif defined(PFMK_NS_TOKEN)
#define PFMK_NS		PFMK
#else
#error "pfmk: include pfmk's client.kbuild from your Kbuild (it probes the namespace form)"
#endif

/**
 * PFMK_IMPORT_NS() - import the PFMK symbol namespace into a client module
 */
#define PFMK_IMPORT_NS()	MODULE_IMPORT_NS(PFMK_NS)

#endif /* _PFMK_NS_H */
