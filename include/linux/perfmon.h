/* SPDX-License-Identifier: GPL-2.0-only */
/**
 * DOC: 2006 KAPI clients
 *
 * <linux/perfmon.h> for 2006 perfmon2 KAPI clients.
 *
 * perfmon2 was never merged, so no kernel ships this header.  Client
 * modules that include it, as the 2006 KAPI clients did, get pfmk's KAPI
 * and an import of the PFMK symbol namespace, and so build unchanged.
 * New code should include <pfmk/pfmk.h> and import the namespace itself
 * with PFMK_IMPORT_NS().
 */
#ifndef _LINUX_PERFMON_H
#define _LINUX_PERFMON_H

#include <pfmk/pfmk.h>

#ifdef MODULE
PFMK_IMPORT_NS();
#endif

#endif /* _LINUX_PERFMON_H */
