// SPDX-License-Identifier: GPL-2.0-only
/// The default sampling format publishes an entry with a release store of
/// the header's hdr_count, after writing the entry (<pfmk/smpl_dfl.h>).  A
/// reader must load hdr_count with smp_load_acquire(&hdr->hdr_count),
/// which pairs with it: after a plain load (or READ_ONCE()), the entries
/// below the count may not be visible yet on a weakly ordered CPU, nor
/// kept in order by the compiler on any.
//
// Keywords: hdr_count, smp_load_acquire, pfm_dfl_smpl_hdr
// Confidence: Moderate
// Copyright: (C) 2026 The pfmk authors
// URL: Documentation/install.rst
// Comments: any field named hdr_count is taken to be the default format's;
//  stores to it (a client's own test of a corrupt header) are not reported.
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

@ok@
expression E, V;
position p;
@@

(
smp_load_acquire(&E->hdr_count@p)
|
smp_load_acquire(&(E)->hdr_count@p)
|
E->hdr_count@p = V
|
WRITE_ONCE(E->hdr_count@p, V)
|
smp_store_release(&E->hdr_count@p, V)
)

@r@
expression E;
position p != ok.p;
@@

E->hdr_count@p

@depends on context@
expression r.E;
position r.p;
@@

* E->hdr_count@p

@script:python depends on org@
p << r.p;
@@

cocci.print_main("hdr_count read without smp_load_acquire()", p)

@script:python depends on report@
p << r.p;
@@

msg = "ERROR: hdr_count read without smp_load_acquire(): entries below it may not be visible yet; use smp_load_acquire(&hdr->hdr_count), which pairs with pfmk's release store"
coccilib.report.print_report(p[0], msg)
