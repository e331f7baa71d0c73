/* SPDX-License-Identifier: GPL-2.0-only */
/**
 * DOC: 2006 default sampling format
 *
 * <linux/perfmon_dfl_smpl.h> for 2006 perfmon2 KAPI clients: the default
 * sampling format, as pfmk implements it: it includes <pfmk/smpl_dfl.h>,
 * which defines the buffer header and entries.
 */
#ifndef _LINUX_PERFMON_DFL_SMPL_H
#define _LINUX_PERFMON_DFL_SMPL_H

#include <pfmk/smpl_dfl.h>

#endif /* _LINUX_PERFMON_DFL_SMPL_H */
