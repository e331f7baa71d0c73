// SPDX-License-Identifier: GPL-2.0-only
/// Every KAPI call that can fail returns a negative errno then, and says
/// why in its kernel-doc: a call whose return value is dropped goes on
/// with a context that is not in the state the code assumes.  Check the
/// return value.  pfmk_close() is not reported: it fails only for a
/// descriptor that is not open, and leaves none open either way.
///
/// The calls are __must_check (<pfmk/pfmk.h>), so GCC warns as well; this
/// also covers a build that defines __pfmk_must_check empty.
//
// Keywords: __must_check, return value
// Confidence: High
// Copyright: (C) 2026 The pfmk authors
// URL: Documentation/install.rst
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

@r@
identifier f = {pfmk_create_context, __pfmk_create_context, pfmk_write_pmcs,
		pfmk_write_pmds, pfmk_read_pmds, pfmk_read_pmds_time,
		pfmk_restart, pfmk_stop, pfmk_start, pfmk_load_context,
		pfmk_unload_context, pfmk_delete_evtsets, pfmk_create_evtsets,
		pfmk_getinfo_evtsets, pfmk_read, pfmk_get_state, pfmk_get_stats,
		pfmk_get_global_stats, pfmk_aux_setup, pfmk_aux_copy,
		pfmk_encode};
position p;
@@

f@p(...);

@depends on context@
identifier r.f;
position r.p;
@@

* f@p(...);

@script:python depends on org@
f << r.f;
p << r.p;
@@

cocci.print_main("return value of %s() ignored" % f, p)

@script:python depends on report@
f << r.f;
p << r.p;
@@

msg = "ERROR: return value of %s() ignored: it returns a negative errno on failure (see its kernel-doc); check it" % f
coccilib.report.print_report(p[0], msg)
