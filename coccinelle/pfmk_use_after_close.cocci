// SPDX-License-Identifier: GPL-2.0-only
/// A descriptor is invalid once pfmk_close() returns: a later KAPI call on
/// it fails with -EBADF (pfmk validates every descriptor, so memory is
/// safe, but the call does nothing and a second pfmk_close() hides a
/// double teardown).  Make the call before the close, or clear the
/// descriptor at the close and test it.
//
// Keywords: pfmk_close, use after close, double close
// Confidence: High
// Copyright: (C) 2026 The pfmk authors
// URL: Documentation/install.rst
// Comments: the close must be a statement of its own (code that tests the
//  close's return, as a test of -EBADF does, is not followed), and a
//  descriptor given a new value in between (a create, an assignment) is
//  not reported.
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

@r exists@
idexpression d;
expression E;
identifier f = {pfmk_write_pmcs, pfmk_write_pmds, pfmk_read_pmds,
		pfmk_read_pmds_time, pfmk_restart, pfmk_stop, pfmk_start,
		pfmk_load_context, pfmk_unload_context, pfmk_delete_evtsets,
		pfmk_create_evtsets, pfmk_getinfo_evtsets, pfmk_close, pfmk_read,
		pfmk_get_state, pfmk_get_stats, pfmk_aux_setup, pfmk_aux_copy};
position p1, p2;
@@

pfmk_close@p1(d);
... when != d = E
    when != &d
f@p2(d, ...)

@depends on context@
identifier r.f;
idexpression r.d;
position r.p1, r.p2;
@@

* pfmk_close@p1(d);
...
* f@p2(d, ...)

@script:python depends on org@
f << r.f;
p1 << r.p1;
p2 << r.p2;
@@

cocci.print_main("%s() after pfmk_close()" % f, p2)
cocci.print_secs("closed here", p1)

@script:python depends on report@
f << r.f;
p1 << r.p1;
p2 << r.p2;
@@

msg = "ERROR: %s() on a descriptor closed on line %s: it fails with -EBADF; call it before pfmk_close(), or clear the descriptor at the close" % (f, p1[0].line)
coccilib.report.print_report(p2[0], msg)
