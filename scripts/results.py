#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""pfmk test results: parse guest console logs, record rows, print the summary.

usage:
  results.py parse <kernel-id> <console.log> <plan.json> <qemu-rc> <out.json>
  results.py row <out.json> <kernel> <suite> <passed> <failed> <skipped> <missing> [note...]
  results.py summary <results-dir>
  results.py cases <console.log> <plan.json>

"cases" prints, as JSON, the KTAP modules, suites and cases that ran in a
console log: what test-modules/manifest.json lists for that kind of kernel.

A result file holds a list of rows {kernel, suite, passed, failed, skipped,
missing, notes}. "summary" prints the kernel x suite table, the notes of every
row that did not pass, and as its last line "N passed, N failed, N skipped",
where missing tests count as failed. It exits 1 if anything failed or was
missing.
"""

import json
import os
import re
import sys

# The output checks of the steps judged on what they printed (kinds
# "example" and "bench", _step_rows()).  Imported, not passed in by the
# caller: what a step printed is part of its verdict, and every caller of
# parse() (main()'s "parse", which scripts/test.sh runs, and "cases"; the
# harness's tests) wants the one verdict make test gives, so a parameter
# would only let a caller get another.  Both are leaves (they import the
# standard library only): split out of this file to be tested on their
# own (scripts/test_examples.py, scripts/test_bench.py) and, bench_format,
# to be shared with bench.py; not to be swapped.
import bench_format
from examples_check import example_problems

# The checked-in list of KTAP modules, suites and cases (make test compares
# what ran with it; adding a case means adding it there).
MANIFEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "test-modules", "manifest.json")

PREFIX_RE = re.compile(r"^(\[\s*\d+\.\d+\]\s?)?(\[\s*[TC]\d+\]\s?)?")
BEGIN_RE = re.compile(r"PFMK-STEP-BEGIN (\S+)")
END_RE = re.compile(r"PFMK-STEP-END (\S+) rc=(-?\d+)")
DONE_RE = re.compile(r"PFMK-PLAN-DONE")

# KTAP / TAP syntax (kernel 6.1 and 6.12 KUnit, plus pr_info documents).
VERSION_RE = re.compile(r"^(KTAP|TAP) version \d+\s*$")
PLAN_RE = re.compile(r"^1\.\.(\d+)\s*$")
SUBTEST_RE = re.compile(r"^# Subtest: (.*)$")
RESULT_RE = re.compile(
    r"^(ok|not ok) (\d+)(?: -)?(?: ([^#]*?))?\s*(?:#\s*(SKIP|TODO)\b\s*(.*))?$",
    re.IGNORECASE)
# Optional "modname: " prefix added by pr_fmt() in front of KTAP lines.
PRFMT_RE = re.compile(r"^[A-Za-z0-9_]+: (.*)$")

# Kernel reports. PRIMARY headers start a report; SECONDARY lines only count
# when no primary header was seen shortly before (e.g. a bare dump_stack()).
PRIMARY = [re.compile(p) for p in (
    r"BUG:", r"WARNING:", r"\bOops\b", r"general protection", r"[Kk]ernel panic",
    r"INFO: task .* blocked", r"unreferenced object", r"UBSAN:",
    r"possible circular locking", r"inconsistent lock state",
    r"possible recursive locking", r"INFO: trying to register non-static key",
    r"INFO: rcu_\w+ (self-)?detected stall", r"detected expedited stalls",
    r"soft lockup", r"hard LOCKUP",
    r"suspicious RCU usage", r"KASAN: ", r"kernel BUG at", r"ODEBUG:",
    r"list_(add|del) corruption", r"Unable to handle kernel",
)]
SECONDARY = [re.compile(p) for p in (
    r"Call Trace", r"^=====+\s*$", r"\bKASAN\b", r"\blockdep\b.*(warning|turning off)",
)]
END_TRACE_RE = re.compile(r"---\[ end (trace|Kernel panic)")
MERGE_PRIMARY = 12   # a primary within this many lines of the last one: same report
MERGE_SECONDARY = 200  # a secondary within this many lines of a primary: same report


def clean(line):
    line = line.rstrip("\r\n")
    return PREFIX_RE.sub("", line, count=1)


def ktap_line(text):
    """Return (indent, stripped) if text is a KTAP syntax line, else None."""
    for cand in (text, None):
        if cand is None:
            m = PRFMT_RE.match(text)
            if not m:
                return None
            cand = m.group(1)
        stripped = cand.lstrip(" \t")
        indent = len(cand) - len(stripped)
        if (VERSION_RE.match(stripped) or PLAN_RE.match(stripped)
                or SUBTEST_RE.match(stripped) or RESULT_RE.match(stripped)):
            return indent, stripped
    return None


class Node:
    def __init__(self, indent, name=None):
        self.indent = indent
        self.name = name
        self.plan = None
        self.results = []   # list of (status, name, directive, children Node|None)
        self.pending = []   # finished child documents not yet attached to a result


def parse_ktap(lines):
    """Parse KTAP lines; return the root Node (or None if no KTAP at all)."""
    stack = []
    seen = False

    def close_deeper(indent):
        # Pop nodes deeper than indent; attach them to their parent as pending.
        while stack and stack[-1].indent > indent:
            child = stack.pop()
            if stack:
                stack[-1].pending.append(child)
            else:
                root = Node(indent)
                root.pending.append(child)
                stack.append(root)

    def node_at(indent):
        close_deeper(indent)
        if not stack or stack[-1].indent < indent:
            stack.append(Node(indent))
        return stack[-1]

    for text in lines:
        k = ktap_line(text)
        if not k:
            continue
        seen = True
        indent, s = k
        if VERSION_RE.match(s):
            node_at(indent)
        elif SUBTEST_RE.match(s):
            n = node_at(indent)
            if n.name is None and not n.results:
                n.name = SUBTEST_RE.match(s).group(1).strip()
        elif PLAN_RE.match(s):
            n = node_at(indent)
            if n.plan is None:
                n.plan = int(PLAN_RE.match(s).group(1))
        else:
            m = RESULT_RE.match(s)
            n = node_at(indent)
            children = n.pending.pop() if n.pending else None
            # Earlier unattached children (should not happen) are kept.
            status = m.group(1).lower()
            name = (m.group(3) or "").strip()
            directive = (m.group(4) or "").upper()
            n.results.append((status, name, directive, children))
    if not seen:
        return None
    close_deeper(stack[0].indent)
    while len(stack) > 1:
        child = stack.pop()
        stack[-1].pending.append(child)
    return stack[0] if stack else None


def count(node, allowed=frozenset()):
    """Count leaf test cases: dict passed/failed/skipped/missing + notes.

    A skipped case counts as skipped only when its name is in @allowed (the
    plan's expected skips for this row); any other skip, and any
    "not ok ... # SKIP", is a failure.
    """
    c = {"passed": 0, "failed": 0, "skipped": 0, "missing": 0, "notes": []}

    def add(o):
        for k in ("passed", "failed", "skipped", "missing"):
            c[k] += o[k]
        c["notes"] += o["notes"]

    nres = len(node.results) + len(node.pending)
    for status, name, directive, children in node.results:
        if children is not None and (children.results or children.pending):
            sub = count(children, allowed)
            add(sub)
            if status == "not ok" and sub["failed"] == 0 and sub["missing"] == 0:
                # The parent failed without a failing leaf (e.g. suite init).
                c["failed"] += 1
                c["notes"].append("not ok %s (no failing subtest)" % name)
        elif directive == "SKIP" and status == "not ok":
            c["failed"] += 1
            c["notes"].append("not ok %s # SKIP: a skip must say ok" % name)
        elif directive == "SKIP" and name not in allowed:
            c["failed"] += 1
            c["notes"].append("unexpected skip: %s (not in the plan's expected skips)" % name)
        elif directive == "SKIP":
            c["skipped"] += 1
        elif status == "ok":
            c["passed"] += 1
        else:
            c["failed"] += 1
            c["notes"].append("not ok %s" % name)
    for child in node.pending:
        # A subtest document without its result line: crashed mid-way.
        add(count(child, allowed))
        c["notes"].append("subtest %s has no result line" % (child.name or "?"))
        if not child.results and not child.pending:
            c["missing"] += max(child.plan or 1, 1)
    if node.plan is not None and node.plan > nres:
        c["missing"] += node.plan - nres
        c["notes"].append("%s: plan 1..%d but %d results" %
                          (node.name or "document", node.plan, nres))
    return c


NOT_OK_NOTE_RE = re.compile(r"^not ok (\w+)\b")
DIAG_LIMIT = 12


def with_diag(notes, lines):
    """Follow each "not ok NAME" note with the step's "# NAME: ..." lines.

    KUnit prints a failed expectation as "# NAME: EXPECTATION FAILED at
    file:line" and then, indented and untagged, the expression and the
    values it had; pfmk's own KTAP modules print "# NAME: ..." for each
    failed check.  The summary (and so CI's output) then says why a case
    failed, not only which: the tagged lines and what follows each of them
    up to the next KTAP or diagnostic line, DIAG_LIMIT lines at most.
    """
    out = []
    for n in notes:
        out.append(n)
        m = NOT_OK_NOTE_RE.match(n)
        if not m:
            continue
        tag = "# %s: " % m.group(1)
        diag, more = [], 0
        i = 0
        while i < len(lines):
            if tag not in lines[i]:
                i += 1
                continue
            block = [lines[i]]
            i += 1
            while (i < len(lines) and lines[i].startswith(" ")
                   and not ktap_line(lines[i])
                   and not lines[i].lstrip().startswith("#")):
                block.append(lines[i])
                i += 1
            for t in block:
                if len(diag) < DIAG_LIMIT:
                    diag.append(t.strip())
                else:
                    more += 1
        out += ["  " + t[:200] for t in diag]
        if more:
            out.append("  ... %d more such lines in the log" % more)
    return out


def case_names(node):
    """Names of the cases of a KTAP (sub)document, crashed ones included."""
    return [r[1] for r in node.results] + [c.name or "?" for c in node.pending]


def suites(root, step, skips=None):
    """Split a KTAP document in rows: one per top-level subtest with children.

    @skips maps a row name to the case names expected to skip there.
    """
    skips = skips or {}
    rows = []
    leaf = Node(root.indent, step)
    leaf.plan = None
    for r in root.results:
        status, name, directive, children = r
        if children is not None and (children.results or children.pending):
            tmp = Node(root.indent)
            tmp.results = [r]
            rows.append((name or step, count(tmp, frozenset(skips.get(name or step, ()))),
                         case_names(children)))
        else:
            leaf.results.append(r)
    for child in root.pending:
        tmp = Node(root.indent)
        tmp.pending = [child]
        rows.append((child.name or step,
                     count(tmp, frozenset(skips.get(child.name or step, ()))),
                     case_names(child)))
    rest = count(leaf, frozenset(skips.get(step, ())))
    nres = len(root.results) + len(root.pending)
    if root.plan is not None and root.plan > nres:
        rest["missing"] += root.plan - nres
        rest["notes"].append("plan 1..%d but %d results" % (root.plan, nres))
    if leaf.results or rest["missing"] or not rows:
        rows.append((step, rest, case_names(leaf)))
    return rows


def load_manifest(path):
    """The checked-in manifest: {module: {"kinds": [...], "suites": {suite: [cases]},
    optionally "suite_kinds": {suite: [...]}}}: a suite listed there runs on
    those kinds only (e.g. the x86 register images' suite: not on arm64)."""
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def manifest_check(kernel, kind, manifest, ran, planned):
    """Rows for what the manifest expects and did not run, or ran unlisted.

    @ran: {module: {suite: [case names]}} from the KTAP output of this run;
    @planned: KTAP modules of the plan.  Cases that ran but failed are
    already counted by their own rows; here only presence is judged.
    """
    rows = []
    for mod, ent in sorted(manifest.items()):
        if mod.startswith("_") or kind not in ent.get("kinds", ()):
            continue
        if mod not in planned:
            rows.append(row(kernel, "manifest:" + mod, failed=1,
                            notes=["module %s is in the manifest but not in the plan" % mod]))
            continue
        got = ran.get(mod, {})
        only = ent.get("suite_kinds", {})
        for suite, cases in sorted(ent["suites"].items()):
            have = got.get(suite)
            if suite in only and kind not in only[suite]:
                if have is not None:
                    rows.append(row(kernel, "manifest:" + suite, failed=1,
                                    notes=["suite %s of %s ran on a %s kernel, which the "
                                           "manifest does not list for it" % (suite, mod, kind)]))
                continue
            if have is None:
                rows.append(row(kernel, "manifest:" + suite, failed=1,
                                notes=["suite %s of %s did not run" % (suite, mod)]))
                continue
            lost = [c for c in cases if c not in have]
            extra = [c for c in have if c not in cases]
            if lost or extra:
                rows.append(row(kernel, "manifest:" + suite, failed=len(lost) + len(extra),
                                notes=["case %s did not run" % c for c in lost] +
                                ["case %s ran but is not in the manifest" % c for c in extra]))
        for suite in sorted(set(got) - set(ent["suites"])):
            rows.append(row(kernel, "manifest:" + suite, failed=1,
                            notes=["suite %s of %s is not in the manifest" % (suite, mod)]))
    for mod in sorted(planned - set(k for k in manifest if not k.startswith("_"))):
        rows.append(row(kernel, "manifest:" + mod, failed=1,
                        notes=["KTAP module %s is not in the manifest" % mod]))
    return rows


# pfmk's own warnings (pr_warn in core/): a report, unless printed by a step
# that provokes them on purpose.  {pattern: step-name prefixes allowed}.
PFMK_WARNINGS = {
    re.compile(r"^pfmk: module \S+ unloaded with \d+ open context"): ("reclaim",),
    re.compile(r"^pfmk: context \S+: cannot re-arm on CPU\d+"): ("insmod:pfmk_kunit",),
}


def pfmk_warnings(lines):
    """[(line number, text)] of pfmk warnings outside the steps that expect them."""
    out, step = [], None
    for i, text in enumerate(lines):
        m = BEGIN_RE.search(text)
        if m:
            step = m.group(1)
            continue
        for pat, allowed in PFMK_WARNINGS.items():
            if pat.search(text) and not (step and step.startswith(allowed)):
                out.append((i + 1, "pfmk warning in step %s: %s" % (step, text.strip())))
    return out


KMEMLEAK_RE = re.compile(r"^kmemleak-report: (.*)$")
KMEMLEAK_FRAME_RE = re.compile(r"\[<[^>]*>\]\s+([^+\s]+)")
BOOT_COMM_RE = re.compile(r'^\s*comm "swapper/0", pid 0,')
IDLE_FRAMES = {"do_idle", "cpu_startup_entry", "rest_init", "arch_call_rest_init"}


def kmemleak_reports(lines):
    """Yield (first index, last index, boot task?, frame names) per object
    of the guest's "kmemleak-report:" lines (kmemleak_report in
    scripts/guest-init.sh)."""
    i = 0
    while i < len(lines):
        m = KMEMLEAK_RE.match(lines[i])
        if not m or not m.group(1).startswith("unreferenced object"):
            i += 1
            continue
        first, boot, frames = i, False, set()
        i += 1
        while i < len(lines):
            m = KMEMLEAK_RE.match(lines[i])
            if not m or m.group(1).startswith("unreferenced object"):
                break
            boot = boot or bool(BOOT_COMM_RE.match(m.group(1)))
            f = KMEMLEAK_FRAME_RE.search(m.group(1))
            if f:
                frames.add(f.group(1))
            i += 1
        yield first, i - 1, boot, frames


def known_boot_leaks(lines):
    """Indexes of the lines of kmemleak reports of objects the boot allocated.

    kmemleak_baseline (scripts/guest-init.sh) reports and clears the boot's
    own leaks before the first insmod, but kmemleak's scan is conservative:
    an object a stale stack slot still pointed to then may be reported by a
    later scan (Documentation/testing.rst, "What make test does").  An object
    allocated by the boot task (swapper/0, pid 0) under start_kernel(), and
    not in its idle loop (where interrupts of any origin run on CPU 0's
    stack), was allocated before init ran and before any module was
    loaded: not a leak of pfmk's, whenever kmemleak gets to report it.
    """
    skip = set()
    for first, last, boot, frames in kmemleak_reports(lines):
        if boot and "start_kernel" in frames and not frames & IDLE_FRAMES:
            skip.update(range(first, last + 1))
    return skip


def scan_reports(lines):
    """Return [(line number, header text)], one entry per kernel report."""
    reports = []
    last_prim = last_any = -10**9
    boot_leaks = known_boot_leaks(lines)
    for i, text in enumerate(lines):
        # Step markers, and the boot-time leaks the guest reports and
        # clears before the first insmod (kmemleak_baseline), also when a
        # later scan finds one the baseline missed.
        if ("PFMK-" in text or text.startswith("kmemleak-baseline:")
                or i in boot_leaks):
            continue
        if END_TRACE_RE.search(text):
            last_prim = last_any = -10**9   # the next header is a new report
            continue
        if any(p.search(text) for p in PRIMARY):
            if reports and reports[-1][2] and i - reports[-1][3] <= 3:
                # A "=====" banner started it: name the report by its header.
                reports[-1][1], reports[-1][2] = text.strip(), False
            elif i - last_prim > MERGE_PRIMARY:
                reports.append([i + 1, text.strip(), False, i])
            last_prim = last_any = i
        elif any(p.search(text) for p in SECONDARY):
            if i - last_any > MERGE_SECONDARY:
                reports.append([i + 1, text.strip(), True, i])
                last_any = i
    return [(r[0], r[1]) for r in reports]


def row(kernel, suite, passed=0, failed=0, skipped=0, missing=0, notes=None):
    return {"kernel": kernel, "suite": suite, "passed": passed, "failed": failed,
            "skipped": skipped, "missing": missing, "notes": notes or []}


LAST_RAN = {}


def _read_console(log):
    """The cleaned lines of a console log; none if QEMU left no log."""
    try:
        with open(log, errors="replace") as f:
            return [clean(x) for x in f]
    except FileNotFoundError:
        return []


def _step_marks(lines):
    """Where each plan step began and ended: ({name: begin index},
    {name: (end index, rc)}, whether the plan's done line was printed)."""
    begins, ends = {}, {}
    for i, text in enumerate(lines):
        m = BEGIN_RE.search(text)
        if m:
            begins.setdefault(m.group(1), i)
        m = END_RE.search(text)
        if m:
            ends.setdefault(m.group(1), (i, int(m.group(2))))
    done = any(DONE_RE.search(x) for x in lines)
    return begins, ends, done


def _ktap_rows(kernel, name, label, seg, rc, notes, plan, ran):
    """The rows of a KTAP step: one per suite (recorded in ran), a failed
    insmod, or a missing or failed row when it printed no KTAP."""
    root = parse_ktap(seg)
    if root is None:
        if rc == 0:
            return [row(kernel, label, missing=1,
                        notes=notes + ["no KTAP output from %s" % name])]
        return [row(kernel, label, failed=1 if rc is not None else 0,
                    missing=1 if rc is None else 0,
                    notes=notes + ["%s rc=%s, no KTAP output" % (name, rc)])]
    rows = []
    for sname, c, cases in suites(root, label, plan.get("expected_skips", {})):
        ran.setdefault(label, {})[sname] = cases
        rows.append(row(kernel, sname, c["passed"], c["failed"], c["skipped"],
                        c["missing"], notes + with_diag(c["notes"], seg)))
    if rc is not None and rc != 0:
        rows.append(row(kernel, label + " (insmod)", failed=1,
                        notes=["%s rc=%d" % (name, rc)]))
    return rows


def _output_row(kernel, name, label, rc, notes, problems_of):
    """The one row of a step judged on its output (an example, or the bench
    module's line format: its numbers are not judged): missing if it never
    ended, else passed unless problems_of() or its rc finds a problem."""
    if rc is None:
        return row(kernel, label, missing=1, notes=notes)
    problems = problems_of()
    if rc != 0:
        problems.insert(0, "%s rc=%d" % (name, rc))
    return row(kernel, label, passed=0 if problems else 1,
               failed=1 if problems else 0, notes=problems[:20])


def _rc_step(kernel, name, rc, notes, life, rows):
    """Count a step judged on its rc alone: insmod and rmmod in the
    life row, another step in a row of its own."""
    target = life if name.startswith(("insmod:", "rmmod:")) else None
    if target is None:
        target = row(kernel, name)
        rows.append(target)
    if rc is None:
        target["missing"] += 1
        target["notes"] += notes
    elif rc == 0:
        target["passed"] += 1
    else:
        target["failed"] += 1
        target["notes"].append("%s rc=%d" % (name, rc))


def _unstarted_step(kernel, st, label, life, rows):
    """Count a step that did not run: its module not built, or it never
    started (insmod and rmmod in the life row)."""
    name, kind = st["name"], st["kind"]
    if st.get("missing_module"):
        rows.append(row(kernel, label, missing=1,
                        notes=["expected module %s was not built" % label]))
        return
    note = "step %s never started" % name
    if kind == "rc" and name.startswith(("insmod:", "rmmod:")):
        life["missing"] += 1
        life["notes"].append(note)
    else:
        rows.append(row(kernel, label, missing=1, notes=[note]))


def _step_rows(kernel, plan, lines, begins, ends):
    """The rows of the plan's steps, in plan order (insmod/rmmod first),
    and {module: {suite: cases}} of the KTAP that ran."""
    rows, ran = [], {}
    life = row(kernel, "insmod/rmmod")
    for st in plan["steps"]:
        name, kind = st["name"], st["kind"]
        label = name.split(":", 1)[-1] if kind in ("ktap", "bench") else name
        if st.get("missing_module") or name not in begins:
            _unstarted_step(kernel, st, label, life, rows)
            continue
        b = begins[name]
        e, rc = ends.get(name, (len(lines), None))
        seg = lines[b + 1:e]
        notes = [] if rc is not None else ["step %s never ended (crash or hang)" % name]
        if kind == "ktap":
            rows += _ktap_rows(kernel, name, label, seg, rc, notes, plan, ran)
        elif kind == "example":
            rows.append(_output_row(kernel, name, name, rc, notes,
                                    lambda: example_problems(name, seg, plan.get("mode"))))
        elif kind == "bench":
            rows.append(_output_row(kernel, name, label, rc, notes,
                                    lambda: bench_format.check_lines(seg)))
        else:
            _rc_step(kernel, name, rc, notes, life, rows)
    if life["passed"] or life["failed"] or life["missing"]:
        rows.insert(0, life)
    return rows, ran


def _guest_row(kernel, lines, done, qemu_rc):
    """The guest run's row: passed if the plan finished and QEMU exited 0;
    else why (the watchdog's line says which step stalled, for how long,
    and whether the console still moved)."""
    guest = row(kernel, "guest run")
    if done and qemu_rc == 0:
        guest["passed"] = 1
    else:
        guest["failed"] = 1
        why = "QEMU rc=%d" % qemu_rc
        if qemu_rc == 124:
            killed = [x.split("PFMK-HOST: ", 1)[1] for x in lines if "PFMK-HOST: QEMU killed" in x]
            why = killed[-1] if killed else "QEMU killed by the watchdog"
        guest["notes"].append("%s, plan %s" % (why, "finished" if done else "did not finish"))
    return guest


def _manifest_rows(kernel, plan, ran):
    """On a stock or debug plan, the manifest's check against what ran."""
    manifest = load_manifest(MANIFEST)
    if plan.get("mode") not in ("stock", "debug"):
        return []
    planned = set(st["name"].split(":", 1)[-1] for st in plan["steps"]
                  if st["kind"] == "ktap")
    if manifest is None:
        return [row(kernel, "manifest", failed=1, notes=["no %s" % MANIFEST])]
    return manifest_check(kernel, plan.get("kind", plan["mode"]), manifest, ran, planned)


def parse(kernel, log, plan_file, qemu_rc):
    """The rows of one guest run: its plan's steps, the guest run, the
    manifest check and the kernel reports in its console log."""
    with open(plan_file) as f:
        plan = json.load(f)
    lines = _read_console(log)
    begins, ends, done = _step_marks(lines)
    rows, ran = _step_rows(kernel, plan, lines, begins, ends)
    rows.append(_guest_row(kernel, lines, done, qemu_rc))
    LAST_RAN.clear()
    LAST_RAN.update(ran)
    rows += _manifest_rows(kernel, plan, ran)
    reps = scan_reports(lines) + pfmk_warnings(lines)
    rep = row(kernel, "reports", passed=0 if reps else 1, failed=len(reps),
              notes=["%s:%d: %s" % (os.path.basename(log), n, t) for n, t in reps])
    rows.append(rep)
    return rows


def summary(results_dir):
    rows = []
    for fn in sorted(os.listdir(results_dir)):
        if fn.endswith(".json"):
            with open(os.path.join(results_dir, fn)) as f:
                rows += json.load(f)
    kw = max([len("kernel")] + [len(r["kernel"]) for r in rows])
    sw = max([len("suite")] + [len(r["suite"]) for r in rows])
    hdr = "%-*s  %-*s  %6s  %6s  %7s  %7s" % (kw, "kernel", sw, "suite", "passed",
                                                "failed", "skipped", "missing")
    print(hdr)
    print("-" * len(hdr))
    tot = {"passed": 0, "failed": 0, "skipped": 0, "missing": 0}
    bad = []
    for r in rows:
        flag = "  <-- FAIL" if r["failed"] or r["missing"] else ""
        print("%-*s  %-*s  %6d  %6d  %7d  %7d%s" % (kw, r["kernel"], sw, r["suite"],
                                                   r["passed"], r["failed"], r["skipped"],
                                                   r["missing"], flag))
        for k in tot:
            tot[k] += r[k]
        if r["failed"] or r["missing"]:
            bad.append(r)
    print("-" * len(hdr))
    print("%-*s  %-*s  %6d  %6d  %7d  %7d" % (kw, "total", sw, "", tot["passed"],
                                              tot["failed"], tot["skipped"], tot["missing"]))
    if bad:
        print()
        print("Failures (missing tests count as failed):")
        for r in bad:
            print("  %s / %s:" % (r["kernel"], r["suite"]))
            for n in r["notes"][:30] or ["(no details)"]:
                print("      " + n)
            if len(r["notes"]) > 30:
                print("      ... %d more" % (len(r["notes"]) - 30))
    print()
    print("%d passed, %d failed, %d skipped" % (tot["passed"], tot["failed"] + tot["missing"],
                                                tot["skipped"]))
    return 1 if tot["failed"] or tot["missing"] else 0


def main(argv):
    if len(argv) >= 6 and argv[1] == "parse":
        rows = parse(argv[2], argv[3], argv[4], int(argv[5]))
        with open(argv[6], "w") as f:
            json.dump(rows, f, indent=1)
        bad = sum(r["failed"] + r["missing"] for r in rows)
        return 1 if bad else 0
    if len(argv) >= 9 and argv[1] == "row":
        r = row(argv[3], argv[4], int(argv[5]), int(argv[6]), int(argv[7]), int(argv[8]),
                argv[9:])
        with open(argv[2], "w") as f:
            json.dump([r], f, indent=1)
        return 0
    if len(argv) == 4 and argv[1] == "cases":
        parse("-", argv[2], argv[3], 0)
        json.dump(LAST_RAN, sys.stdout, indent=1, sort_keys=True)
        print()
        return 0
    if len(argv) == 3 and argv[1] == "summary":
        return summary(argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
