#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The suites and cases the test sources define, checked against manifest.json.

test-modules/manifest.json lists every KTAP module, suite and case make test
must see run (scripts/results.py).  The same list is in the sources:

- each KUnit module's objects (test-modules/Kbuild, "<module>-y := ...")
  define `struct kunit_suite` objects whose .test_cases arrays list their
  cases (KUNIT_CASE(), KUNIT_CASE_SLOW(), KUNIT_CASE_PARAM(), ...);
- each of the other KTAP modules (smoke, fuzz, hotplug, ...) is one suite
  named after the module, whose cases are the names of a static table in
  its source, in the order the module runs them (KTAP_TABLES).

This reads them and reports every difference, so a case added, renamed or
dropped in a source file without the manifest (or the other way round)
fails before any kernel is booted.

It also holds the test sources to the sizes a reader can take in: no
test-modules/*.[ch] file over FILE_MAX_LINES lines, and no function a
case runs over CASE_MAX_LINES lines (its definition to its closing
brace).  A case runs its own function and every function of the same
source it reaches, directly or through a static initializer, so a case
that hands its body to a helper is still one case; each function is
measured once, on its own.  Nor may a case's own lines plus those of
its single-use helpers (the functions it reaches that no other case of
its source reaches) be over CASE_MAX_LINES: a body cut into helpers
only it runs is still its body.  A helper two or more cases reach is
set-up they share and is not added.  Functions of other sources (the shared
set-up of pfmk_kunit_util.c, which the pfmk_<name>_kunit_util.c wrappers
#include) are not counted: they are set-up every case shares.  A KUnit
case is a KUNIT_CASE*() function; a KTAP case the function its table
names ({ "name", fn, ... }); a KTAP module whose table holds names only
("a", "b", ...) prints the verdicts of one run as its cases, so its
cases run everything its module_init() function reaches; that one run
is held to the per-function limit only, not summed.

Lines are not the only way to hide a body: a helper two cases share can
hold the verdicts of several behaviours while each case is a one-line
call of it.  So each KUnit case is also held to VERDICT_MAX verdicts
(KUNIT_EXPECT_*() and KUNIT_FAIL(), as written in the source: a verdict
in a loop is one) over its own function and every function of its
source it reaches, shared or not (verdict_problems()); KUNIT_ASSERT_*()
are its preconditions and do not count, nor do other sources'.  A row
of a KUNIT_CASE_PARAM() table is a case: it counts the functions its row
names too, and the case is held to its row that reaches the most.

usage: scripts/manifest_sources.py [--write] [test-modules-dir]
Prints one line per difference or size over its limit; exits 1 if there is
any.  With --write it first rewrites the case lists of manifest.json from
the sources (regenerate()): cases are never listed by hand; what a module
runs on (kinds, suite_kinds) and any new module are still written by hand,
and reported until they are.
"""
import json
import os
import re
import sys

CASE_RE = re.compile(r"\bKUNIT_CASE(?:_SLOW|_PARAM|_PARAM_ATTR|_ATTR)?\s*\(\s*(\w+)")
CASES_RE = re.compile(r"struct\s+kunit_case\s+(\w+)\s*\[\s*\]\s*=\s*\{(.*?)\n\};", re.S)
SUITE_RE = re.compile(r"struct\s+kunit_suite\s+\w+\s*=\s*\{(.*?)\n\};", re.S)
NAME_RE = re.compile(r"\.name\s*=\s*\"([^\"]+)\"")
TESTS_RE = re.compile(r"\.test_cases\s*=\s*(\w+)")
COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"')
DEF_NAME_RE = re.compile(r"(\w+)\s*\(")
OBJ_RE = re.compile(r"^[a-z][^(;]*?\b(\w+)\s*(?:\[[^\]]*\]\s*)?=\s*\{")
IDENT_RE = re.compile(r"\b[A-Za-z_]\w*\b")

CASE_MAX_LINES = 60
FILE_MAX_LINES = 1200

# The verdicts one case may reach (verdict_problems()).  Measured over the
# tree at afbeb7a (633 KUnit cases: 0 to 9 verdicts, 546 of them 1 to 3),
# and at c9bf61c, before the last cases that checked several behaviours
# were split: those reached 10 to 25 (nmi_overflow_* through the shared
# nmit_run_own(), smpl_args_create, smpl_fmt_args, api_*_descriptors),
# while the most a case checking one result reaches is 9, the fields of
# one read or one buffer (count_read_fields, smpl_exact_entries).
VERDICT_MAX = 9
VERDICT_RE = re.compile(r"\bKUNIT_(?:EXPECT_\w+|FAIL)\s*\(")

# Cases allowed more than VERDICT_MAX verdicts until they are split:
# {case function: why it is left}.  An entry that is no longer over the
# limit, or no longer a case, is reported, so the list only shrinks.
VERDICT_ALLOW = {
}

# The KTAP modules that are not KUnit: module -> (source, name table).  A
# table is an array of names ("a", "b", ...) or of structures whose first
# member is the name ({ "a", fn }, ...).
KTAP_TABLES = {
    "pfmk_smoke": ("pfmk_smoke.c", "smoke_tests"),
    "pfmk_emu_smoke": ("pfmk_emu_smoke.c", "emu_tests"),
    "pfmk_pmu_exact": ("pfmk_pmu_exact.c", "pmx_cases"),
    "pfmk_aux_smoke": ("pfmk_aux_smoke.c", "auxs_tests"),
    "pfmk_client2006": ("pfmk_client2006.c", "c2006_tests"),
    "pfmk_hotplug_stress": ("pfmk_hotplug_stress.c", "hp_case_name"),
    "pfmk_fuzz": ("pfmk_fuzz_run.c", "fz_case_name"),
}


def kbuild_modules(kbuild_text):
    """{module: [object basenames]} from "<module>-y := a.o b.o \\" lines,
    and "<module>-$(CONFIG_X86) += ..." ones (objects of some architectures:
    their suites are listed in the manifest's "suite_kinds")."""
    text = kbuild_text.replace("\\\n", " ")
    mods = {}
    for m in re.finditer(r"^(\w+)-(?:y|\$\(CONFIG_\w+\))\s*:?\+?=\s*(.*)$", text, re.M):
        mods.setdefault(m.group(1), []).extend(
            o[:-2] for o in m.group(2).split() if o.endswith(".o"))
    return mods


def source_suites(c_text):
    """{suite name: [case names in order]} defined by one C source."""
    text = COMMENT_RE.sub("", c_text)
    arrays = {m.group(1): CASE_RE.findall(m.group(2)) for m in CASES_RE.finditer(text)}
    suites = {}
    for m in SUITE_RE.finditer(text):
        body = m.group(1)
        name, tests = NAME_RE.search(body), TESTS_RE.search(body)
        if name and tests and tests.group(1) in arrays:
            suites[name.group(1)] = arrays[tests.group(1)]
    return suites


def table_names(c_text, table):
    """The names of the static table @table in one C source, in order, or
    None if the source has no such table."""
    text = COMMENT_RE.sub("", c_text)
    m = re.search(r"\b%s\s*\[[^\]]*\]\s*=\s*\{(.*?)\n\};" % re.escape(table), text, re.S)
    if m is None:
        return None
    body = m.group(1)
    if "{" in body:
        return re.findall(r"\{\s*\"([^\"]*)\"", body)
    return re.findall(r"\"([^\"]*)\"", body)


def ktap_modules(testdir, tables=None):
    """({module: {module: [cases]}}, problems) for the KTAP modules of
    @testdir that are not KUnit: each is one suite named after itself."""
    out, problems = {}, []
    for mod, (src, table) in sorted((KTAP_TABLES if tables is None else tables).items()):
        path = os.path.join(testdir, src)
        names = None
        if os.path.exists(path):
            with open(path) as f:
                names = table_names(f.read(), table)
        if names is None:
            problems.append("%s: no table %s in %s" % (mod, table, src))
            continue
        out[mod] = {mod: names}
    return out, problems


def definitions(c_text):
    """({function: (first line, lines, body)}, {object: initializer}) of
    one C source: the functions defined in it (a "{" alone on a line after
    their declarator, to the next "}" alone) and its top-level objects
    with a braced initializer ("<decl> name[] = {" to "};")."""
    lines = c_text.split("\n")
    funcs, objs = {}, {}
    for i, line in enumerate(lines):
        if line == "{":
            start = i - 1
            while start > 0 and lines[start][:1] in ("\t", " "):
                start -= 1
            m = DEF_NAME_RE.search(" ".join(lines[start:i]))
            end = i
            while end < len(lines) - 1 and lines[end] != "}":
                end += 1
            if m:
                funcs[m.group(1)] = (start + 1, end - start + 1,
                                     "\n".join(lines[i:end + 1]))
            continue
        m = OBJ_RE.match(line)
        if m and not line.rstrip().endswith(";"):
            end = i
            while end < len(lines) - 1 and lines[end] != "};":
                end += 1
            objs[m.group(1)] = "\n".join(lines[i:end + 1])
    return funcs, objs


def names_in(code):
    """The identifiers of @code, its comments and strings left out."""
    return set(IDENT_RE.findall(STRING_RE.sub('""', COMMENT_RE.sub("", code))))


def ktap_case_roots(c_text, table):
    """{function: the case it runs} of the functions the cases of table
    @table start from: the functions its entries name ({ "name", fn, ...}:
    case fn), or, for a table of names only, the module's init function
    ("the cases of <table>").  None if there is no such table."""
    text = COMMENT_RE.sub("", c_text)
    m = re.search(r"\b%s\s*\[[^\]]*\]\s*=\s*\{(.*?)\n\};" % re.escape(table), text, re.S)
    if m is None:
        return None
    fns = re.findall(r"\{\s*\"[^\"]*\"\s*,\s*(\w+)", m.group(1))
    if fns:
        return {fn: "case " + fn for fn in fns}
    return {fn: "the cases of " + table
            for fn in re.findall(r"\bmodule_init\s*\(\s*(\w+)\s*\)", text)}


def kunit_case_roots(c_text):
    """{function: the case it runs} of the KUNIT_CASE*() functions of one
    C source."""
    return {fn: "case " + fn for fn in CASE_RE.findall(COMMENT_RE.sub("", c_text))}


def reach_lengths(c_text, roots):
    """{function: (its lines, the case it is run by)} of every function of
    one C source that the functions @roots ({function: case}) reach,
    directly or through a static initializer, each counted once: a root
    for itself, any other function for the first root, by name, that
    reaches it (reach_sets())."""
    funcs, _ = definitions(c_text)
    reach = reach_sets(c_text, roots)
    out = {r: (funcs[r][1], roots[r]) for r in reach}
    for root in sorted(reach):
        for name in sorted(reach[root] - set(out)):
            out[name] = (funcs[name][1], roots[root])
    return out


def reach_sets(c_text, roots):
    """{root: the functions of one C source it reaches, itself included}
    for each function of @roots defined in the source, directly or
    through a static initializer."""
    funcs, objs = definitions(c_text)
    out = {}
    for root in sorted(r for r in roots if r in funcs):
        seen, todo = {root}, [funcs[root][2]]
        while todo:
            for name in sorted(names_in(todo.pop()) - seen):
                if name in funcs:
                    todo.append(funcs[name][2])
                elif name in objs:
                    todo.append(objs[name])
                else:
                    continue
                seen.add(name)
        out[root] = seen & set(funcs)
    return out


def summed_problems(src, c_text, roots):
    """The cases of @roots ({function: case}) whose own lines plus those
    of their single-use helpers are over CASE_MAX_LINES.  A single-use
    helper is a function of the source the case reaches (directly or
    through a static initializer) and no other case of the source does:
    it is part of the case's body, however it is cut up.  A helper two or
    more cases reach is set-up they share, held to the limit on its own
    (reach_problems()), and not added."""
    funcs, _ = definitions(c_text)
    reach = reach_sets(c_text, roots)
    problems = []
    for root in sorted(reach):
        others = set()
        for other, fns in reach.items():
            if other != root:
                others |= fns
        own = sorted(reach[root] - others - {root})
        total = funcs[root][1] + sum(funcs[f][1] for f in own)
        if own and total > CASE_MAX_LINES:
            problems.append("%s: %s has %d lines with its single-use helpers %s, "
                            "more than %d"
                            % (src, roots[root], total,
                               ", ".join("%s (%d)" % (f, funcs[f][1]) for f in own),
                               CASE_MAX_LINES))
    return problems


def verdicts_in(code):
    """The verdicts (VERDICT_RE) written in @code, its comments and
    strings left out."""
    return len(VERDICT_RE.findall(STRING_RE.sub('""', COMMENT_RE.sub("", code))))


def _reach(funcs, objs, code, skip=()):
    """The functions of @funcs that @code reaches, directly or through
    the objects of @objs, those named in @skip left out."""
    seen, todo, out = set(skip), [code], set()
    while todo:
        for name in sorted(names_in(todo.pop()) - seen):
            if name in funcs:
                todo.append(funcs[name][2])
                out.add(name)
            elif name in objs:
                todo.append(objs[name])
            else:
                continue
            seen.add(name)
    return out


def table_rows(init):
    """The rows of the braced initializer @init ("... = { a, { b, c }, };"):
    the text of each top-level element, comments and strings left out."""
    text = STRING_RE.sub('""', COMMENT_RE.sub("", init))
    text = text[text.find("{") + 1:]
    rows, depth, cur = [], 0, ""
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                break
        if ch == "," and depth == 0:
            rows.append(cur)
            cur = ""
        else:
            cur += ch
    rows.append(cur)
    return [r for r in rows if r.strip()]


def param_tables(c_text):
    """{case function: its KUNIT_ARRAY_PARAM() table} of the
    KUNIT_CASE_PARAM() cases of one C source whose generator is a
    KUNIT_ARRAY_PARAM*(name, array, ...) of the source."""
    text = COMMENT_RE.sub("", c_text)
    arrays = dict(re.findall(r"\bKUNIT_ARRAY_PARAM(?:_DESC)?\s*\(\s*(\w+)\s*,\s*(\w+)", text))
    out = {}
    for fn, gen in re.findall(r"\bKUNIT_CASE_PARAM\w*\s*\(\s*(\w+)\s*,\s*(\w+)", text):
        if gen.endswith("_gen_params") and gen[:-len("_gen_params")] in arrays:
            out[fn] = arrays[gen[:-len("_gen_params")]]
    return out


def case_verdicts(c_text):
    """{case function: (verdicts, row, {function: its verdicts})} of the
    KUnit cases of one C source: the verdicts (verdicts_in()) of the case's
    function and of every function of the source it reaches, shared or
    not.  A case of a KUNIT_ARRAY_PARAM() table is counted once per row
    (each row runs as a case of its own), with the functions that row
    names; the row that reaches the most is kept (its index; None for a
    case without a table, or whose rows name no function)."""
    funcs, objs = definitions(c_text)
    tables = param_tables(c_text)
    out = {}
    for case in sorted(kunit_case_roots(c_text)):
        if case not in funcs:
            continue
        table = tables.get(case)
        base = {case} | _reach(funcs, objs, funcs[case][2], {case, table})
        rows = [None]
        if table in objs:
            rows = [_reach(funcs, objs, r, base | {table}) for r in table_rows(objs[table])]
            if not any(rows):
                rows = [None]
        best = None
        for i, extra in enumerate(rows):
            fns = base | (extra or set())
            per = {f: verdicts_in(funcs[f][2]) for f in sorted(fns)}
            n = sum(per.values())
            if best is None or n > best[0]:
                best = (n, i if extra is not None else None, per)
        out[case] = best
    return out


def verdict_problems(src, c_text, allow=None):
    """The KUnit cases of one C source that reach more than VERDICT_MAX
    verdicts (case_verdicts()), but for those of @allow (VERDICT_ALLOW
    if None), and the entries of @allow this source defines that are no
    longer over the limit."""
    allow = VERDICT_ALLOW if allow is None else allow
    problems = []
    for case, (n, row, per) in sorted(case_verdicts(c_text).items()):
        if n <= VERDICT_MAX:
            if case in allow:
                problems.append("%s: case %s reaches %d verdicts, no more than %d: "
                                "take it out of VERDICT_ALLOW" % (src, case, n, VERDICT_MAX))
            continue
        if case in allow:
            continue
        where = ", ".join("%s %d" % (f, c) for f, c in
                          sorted(per.items(), key=lambda x: (x[0] != case, x[0])) if c)
        problems.append("%s: case %s%s reaches %d verdicts (KUNIT_EXPECT_*, KUNIT_FAIL: "
                        "%s), more than %d: one behaviour per case"
                        % (src, case, "" if row is None else ", row %d," % row, n,
                           where, VERDICT_MAX))
    return problems


def verdict_allow_problems(testdir, allow=None):
    """The entries of @allow (VERDICT_ALLOW if None) that are not a
    KUnit case of any C source of @testdir."""
    allow = VERDICT_ALLOW if allow is None else allow
    cases = set()
    for n in sorted(os.listdir(testdir)):
        if n.endswith(".c") and not n.endswith(".mod.c"):
            with open(os.path.join(testdir, n)) as f:
                cases |= set(kunit_case_roots(f.read()))
    return ["VERDICT_ALLOW: %s is no KUnit case of %s: take it out" % (c, testdir)
            for c in sorted(set(allow) - cases)]


def ktap_case_lengths(c_text, table):
    """{function: (its lines, the case it is run by)} of every function of
    one KTAP module's source that a case of table @table runs."""
    return reach_lengths(c_text, ktap_case_roots(c_text, table) or {})


def kunit_case_lengths(c_text):
    """{function: (its lines, the case it is run by)} of every function of
    one KUnit source that a KUNIT_CASE*() case of it runs."""
    return reach_lengths(c_text, kunit_case_roots(c_text))


def reach_problems(src, lengths):
    """The functions of @lengths (reach_lengths() of source @src) over
    CASE_MAX_LINES."""
    problems = []
    for name, (n, case) in sorted(lengths.items()):
        if n <= CASE_MAX_LINES:
            continue
        if case == "case " + name:
            problems.append("%s: case %s has %d lines, more than %d"
                            % (src, name, n, CASE_MAX_LINES))
        else:
            problems.append("%s: %s, run by %s, has %d lines, more than %d"
                            % (src, name, case, n, CASE_MAX_LINES))
    return problems


def ktap_size_problems(testdir, tables=None):
    """The functions the KTAP modules' cases run over CASE_MAX_LINES."""
    problems = []
    for mod, (src, table) in sorted((KTAP_TABLES if tables is None else tables).items()):
        path = os.path.join(testdir, src)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            text = f.read()
        roots = ktap_case_roots(text, table) or {}
        problems += reach_problems(src, reach_lengths(text, roots))
        # A table of names only (pfmk_fuzz_run.c, pfmk_hotplug_stress.c)
        # prints the verdicts of one run: the module is one case, rooted in
        # module_init(), which reaches every function of the source, so its
        # sum would be the module's length, not a case's.  Its functions
        # are held to the limit each, on their own, and no more.
        if all(case == "case " + fn for fn, case in roots.items()):
            problems += summed_problems(src, text, roots)
    return problems


def kunit_sources(testdir):
    """{module: [paths of its C sources]} for the *_kunit modules of @testdir."""
    with open(os.path.join(testdir, "Kbuild")) as f:
        mods = kbuild_modules(f.read())
    out = {}
    for mod, objs in mods.items():
        if mod.endswith("kunit"):
            paths = [os.path.join(testdir, obj + ".c") for obj in objs]
            out[mod] = [p for p in paths if os.path.exists(p)]
    return out


def kunit_modules(testdir):
    """{module: {suite: [cases]}} for the *_kunit modules of @testdir."""
    out = {}
    for mod, paths in kunit_sources(testdir).items():
        suites = {}
        for path in paths:
            with open(path) as f:
                suites.update(source_suites(f.read()))
        out[mod] = suites
    return out


CLOSE_RE = re.compile(r"^(\t+)pfmkt_close\(test, ([^;]*)\);$")
# A statement that only forgets a descriptor: "desc = NULL;", "t->desc = NULL;".
FORGET_RE = re.compile(r"^\t+[A-Za-z_][\w.\[\]>-]*\s*=\s*NULL;$")
# A line that opens the braceless body of a branch: "if (...)", "else".
BRANCH_RE = re.compile(r"^\t+(?:\} )?(?:else(?: if\b.*)?|if\b.*)$")


def _skip_cond(lines, i):
    """The index past the #endif that ends the #else or #elif at @i."""
    depth = 0
    while i < len(lines):
        word = lines[i].lstrip().split()[0] if lines[i].strip() else ""
        if word in ("#if", "#ifdef", "#ifndef"):
            depth += 1
        elif word == "#endif":
            if depth == 0:
                return i + 1
            depth -= 1
        i += 1
    return i


def _ends_after(lines, i):
    """Whether nothing but forgotten descriptors (FORGET_RE), the other
    branches of a conditional (#else ... #endif) and #endif lines come
    from @i to the function's closing brace."""
    while i < len(lines):
        line = lines[i]
        word = line.lstrip().split()[0] if line.strip() else ""
        if line == "}":
            return True
        if word in ("#else", "#elif"):
            i = _skip_cond(lines, i + 1)
        elif word == "#endif" or not line.strip() or FORGET_RE.match(line):
            i += 1
        else:
            return False
    return False


def _untracked(lines, i, desc):
    """Whether the context @desc closed at line @i is one the suite's exit
    does not close: the case stopped tracking it (pfmkt_forget()) or
    created it with pfmk_create_context() itself."""
    d = re.escape(desc.strip())
    forget = re.compile(r"\bpfmkt_forget\(test, %s\)" % d)
    raw = re.compile(r"\b(?:__)?pfmk_create_context\([^;]*&\s*%s\s*[,)]" % d)
    before = "\n".join(lines[:i])
    return bool(forget.search(before) or raw.search(before))


def trailing_close(body):
    """Whether the function body @body (its "{" to its "}") ends with a
    pfmkt_close() of a context the suite's exit would close: as its last
    statement, or the braceless body of a last if or else, followed by
    nothing but statements that only forget the descriptor ("t->desc =
    NULL;") and the other branches of a conditional (the close before
    "#else" or "#endif").  A close of an untracked context (_untracked())
    is not one."""
    lines = body.split("\n")
    for i, line in enumerate(lines):
        m = CLOSE_RE.match(line)
        if not m or not _ends_after(lines, i + 1):
            continue
        if len(m.group(1)) > 1 and not (
                len(m.group(1)) == 2 and BRANCH_RE.match(lines[i - 1])):
            continue
        if not _untracked(lines, i, m.group(2)):
            return True
    return False


def close_problems(name, c_text):
    """The KUnit cases of one source that end with a pfmkt_close()
    (trailing_close()): the suite's exit closes what a case left open, and
    expects it to succeed, so a case closes only what it tests."""
    funcs, _ = definitions(c_text)
    return ["%s: case %s ends with pfmkt_close(): the suite's exit closes it"
            % (name, case) for case in sorted(kunit_case_roots(c_text))
            if case in funcs and trailing_close(funcs[case][2])]


def size_problems(name, c_text):
    """The functions the KUnit cases of one source run over
    CASE_MAX_LINES, the file over FILE_MAX_LINES, the cases that end
    with a pfmkt_close() (close_problems()) and those that reach more
    than VERDICT_MAX verdicts (verdict_problems())."""
    problems = close_problems(name, c_text)
    nlines = c_text.count("\n")
    if nlines > FILE_MAX_LINES:
        problems.append("%s: %d lines, more than %d: split it by topic"
                        % (name, nlines, FILE_MAX_LINES))
    roots = kunit_case_roots(c_text)
    return (problems + reach_problems(name, reach_lengths(c_text, roots))
            + summed_problems(name, c_text, roots) + verdict_problems(name, c_text))


def sizes(testdir, tables=None):
    """size_problems() of every *.c and *.h file of @testdir (case lengths
    concern the KUnit sources, the only ones with KUNIT_CASE()),
    ktap_size_problems() of its KTAP modules, and the VERDICT_ALLOW
    entries that are no case (verdict_allow_problems())."""
    problems = []
    paths = sorted(os.path.join(testdir, n) for n in os.listdir(testdir)
                   if n.endswith((".c", ".h")) and not n.endswith(".mod.c"))
    for path in paths:
        with open(path) as f:
            problems += size_problems(os.path.basename(path), f.read())
    return (problems + ktap_size_problems(testdir, tables)
            + verdict_allow_problems(testdir))


def compare(manifest, sources):
    """Differences between the manifest's modules and the sources'."""
    problems = []
    for mod, suites in sorted(sources.items()):
        ent = manifest.get(mod)
        if ent is None:
            problems.append("%s: module defines suites but is not in the manifest" % mod)
            continue
        listed = ent.get("suites", {})
        for suite in sorted(set(suites) | set(listed)):
            if suite not in listed:
                problems.append("%s: suite %s is in the sources, not in the manifest" % (mod, suite))
            elif suite not in suites:
                problems.append("%s: suite %s is in the manifest, not in the sources" % (mod, suite))
            elif suites[suite] != listed[suite]:
                src, man = suites[suite], listed[suite]
                for c in src:
                    if c not in man:
                        problems.append("%s/%s: case %s is in the sources, not in the manifest"
                                        % (mod, suite, c))
                for c in man:
                    if c not in src:
                        problems.append("%s/%s: case %s is in the manifest, not in the sources"
                                        % (mod, suite, c))
                if sorted(src) == sorted(man):
                    problems.append("%s/%s: cases listed in another order than the sources'"
                                    % (mod, suite))
    for mod in sorted(manifest):
        if mod.startswith("_") or mod in sources:
            continue
        if mod.endswith("_kunit"):
            problems.append("%s: in the manifest, but no Kbuild module of that name" % mod)
        else:
            problems.append("%s: in the manifest, but no case table found for it "
                            "(KTAP_TABLES, scripts/manifest_sources.py)" % mod)
    return problems


def regenerate(manifest, sources):
    """@manifest with the suites and cases of every module it lists as the
    sources define them: suites it lists keep their place, new ones follow,
    and a suite gone from the sources leaves its suite_kinds entry too.
    Modules the sources or the manifest lack are left for compare()."""
    out = {}
    for mod, ent in manifest.items():
        if mod.startswith("_") or mod not in sources:
            out[mod] = ent
            continue
        src = sources[mod]
        ent = dict(ent)
        old = ent.get("suites", {})
        order = [x for x in old if x in src] + [x for x in src if x not in old]
        ent["suites"] = {x: list(src[x]) for x in order}
        kinds = {k: v for k, v in ent.get("suite_kinds", {}).items() if k in src}
        if kinds:
            ent["suite_kinds"] = kinds
        else:
            ent.pop("suite_kinds", None)
        out[mod] = ent
    return out


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    write = len(argv) > 1 and argv[1] == "--write"
    if write:
        argv = argv[:1] + argv[2:]
    testdir = argv[1] if len(argv) > 1 else os.path.join(here, "..", "test-modules")
    path = os.path.join(testdir, "manifest.json")
    with open(path) as f:
        manifest = json.load(f)
    ktap, problems = ktap_modules(testdir)
    sources = dict(kunit_modules(testdir), **ktap)
    if write:
        manifest = regenerate(manifest, sources)
        with open(path, "w") as f:
            json.dump(manifest, f, indent=1)
            f.write("\n")
    problems += compare(manifest, sources) + sizes(testdir)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
