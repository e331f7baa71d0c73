// SPDX-License-Identifier: GPL-2.0-only
/// A context that pfmk_create_context() created must be closed on every
/// error path of the function that created it: pfmk_close() it before
/// returning (pfmk reclaims a leaked context only when the module that
/// created it unloads, and counts it against max_contexts until then).
///
/// Only a descriptor in a local variable is followed, in a function that
/// closes it on some other path, and only until the descriptor is stored
/// elsewhere (then its new owner closes it).
//
// Keywords: pfmk_create_context, pfmk_close
// Confidence: Moderate
// Copyright: (C) 2026 The pfmk authors
// URL: Documentation/install.rst
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

@r exists@
identifier create = {pfmk_create_context, __pfmk_create_context};
local idexpression d;
expression ret, E;
statement S;
position p1, p2;
@@

(
ret = create@p1(..., &d, ...);
... when != pfmk_close(d)
if (<+... ret ...+>) S
|
if (<+... create@p1(..., &d, ...) ...+>) S
)
... when != pfmk_close(d)
    when != E = d
if (...) {
  ... when != pfmk_close(d)
      when != E = d
  return@p2 ...;
}
... when any
pfmk_close(d)

@depends on context@
identifier r.create;
position r.p1, r.p2;
@@

* create@p1(...)
...
* return@p2 ...;

@script:python depends on org@
p1 << r.p1;
p2 << r.p2;
@@

cocci.print_main("context created here", p1)
cocci.print_secs("returns without pfmk_close()", p2)

@script:python depends on report@
p1 << r.p1;
p2 << r.p2;
@@

msg = "ERROR: context created on line %s is not closed on this error path: pfmk_close() it before returning" % (p1[0].line)
coccilib.report.print_report(p2[0], msg)
