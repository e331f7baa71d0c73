/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk symbol namespace: one macro pair for both spellings of the namespace.
 *
 * Linux 6.13 changed EXPORT_SYMBOL_NS_GPL() and MODULE_IMPORT_NS() to take a
 * string literal ("PFMK"); earlier kernels take a bare token (PFMK) and
 * stringify it themselves.  pfmk's own Kbuild probes <linux/export.h> and
 * defines PFMK_NS_STRING or PFMK_NS_TOKEN.  Client modules built by their
 * own Kbuild have no probe, so they fall back on the kernel version: this is
 * the only version test in pfmk, and it is in a header clients include.
 */
#ifndef _PFMK_NS_H
#define _PFMK_NS_H

#include <linux/export.h>
#include <linux/module.h>
#include <linux/version.h>

#if !defined(PFMK_NS_STRING) && !defined(PFMK_NS_TOKEN)
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define PFMK_NS_STRING
#else
#define PFMK_NS_TOKEN
#endif
#endif

#ifdef PFMK_NS_STRING
#define PFMK_EXPORT_SYMBOL(sym)	EXPORT_SYMBOL_NS_GPL(sym, "PFMK")
#define PFMK_IMPORT_NS()	MODULE_IMPORT_NS("PFMK")
#else
#define PFMK_EXPORT_SYMBOL(sym)	EXPORT_SYMBOL_NS_GPL(sym, PFMK)
#define PFMK_IMPORT_NS()	MODULE_IMPORT_NS(PFMK)
#endif

#endif /* _PFMK_NS_H */
