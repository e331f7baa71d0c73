#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the harness's verdicts: scripts/results.py.

make test's verdict on a guest is only as good as the parser that reads its
console.  These run results.py on recorded guest console logs
(scripts/fixtures/results/, README there: where each was recorded and which
steps were kept), each with the plan of the steps it holds; its KTAP parser
on the shapes the kernels print, the manifest's kinds of kernel, the
examples' output checks, and the summary whose last line and exit status are
make test's.  The recorded logs are real guests' lines, verbatim, cut to
whole steps:

  pass.log        a green debug-6.1 run: KUnit suites (6.1's layout),
                  parameterized cases, an expected skip, an example, the
                  bench, kmemleak's boot leaks;
  pass-arm64.log  a green debug-arm64-6.12 run: 6.12's KUnit layout;
  pass-stock.log  a green Debian 6.1 run: pfmk's own KTAP modules;
  fail.log        a Debian 6.1 run of pfmk_smoke with one check inverted
                  (bad_descriptor expects get_state() to succeed);
  crash.log       the post-mortem test's debug-6.1 guest, which oopses on
                  purpose in its step "crash" and panics;
  killed.log      a Debian 6.1 run of pfmk_smoke with a 90 s sleep in
                  cpu_clock_plausible, killed by the watchdog (stall 30 s).

Two shapes no recorded log has: a KUnit expectation failing inside a
parameterized case, and a KUnit suite cut by an oops.  The Debian kernels
have no KUnit (CONFIG_KUNIT is not set); the recorded debug guests are a
green make test and the post-mortem's crash, which is outside any suite;
recording them needs a debug-kernel guest running a broken KUnit module.
synthetic-kunit-fail.log and synthetic-kunit-crash.log (plan
synthetic.plan.json) are hand-written in those shapes and kept for them
alone.  The manifest check's own tests are
scripts/test_manifest_sources.py, the crash decoder's
scripts/test_pstore.py.

usage: python3 scripts/test_results.py   (run by scripts/check.sh)
"""
import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import examples_check  # noqa: E402
import results  # noqa: E402

FIX = os.path.join(HERE, "fixtures", "results")
PLANS = {"pass": "plan.json", "synthetic-kunit-fail": "synthetic.plan.json",
         "synthetic-kunit-crash": "synthetic.plan.json"}


def plan_of(name):
    return os.path.join(FIX, PLANS.get(name, name + ".plan.json"))


def parse_rows(name, qemu_rc=0):
    return results.parse("fixture", os.path.join(FIX, name + ".log"), plan_of(name), qemu_rc)


def parse(name, qemu_rc=0):
    return {r["suite"]: r for r in parse_rows(name, qemu_rc)}


def counts(r):
    return (r["passed"], r["failed"], r["skipped"], r["missing"])


def summary_of(rows):
    """results.py summary on @rows: (exit status, last line)."""
    d = tempfile.mkdtemp()
    try:
        with open(os.path.join(d, "rows.json"), "w") as f:
            json.dump(rows, f)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = results.summary(d)
    finally:
        shutil.rmtree(d)
    return rc, out.getvalue().splitlines()[-1]


class Passing(unittest.TestCase):
    """The green runs: every row passes, with the kernel's own counts."""

    def test_debug_every_row_green(self):
        for r in parse_rows("pass"):
            self.assertEqual((r["failed"], r["missing"]), (0, 0), r)

    def test_debug_kunit_counts(self):
        rows = parse("pass")
        # pfmk_aux_kunit's two suites, aux_unsupported the plan's skip;
        # pfmk_reuse and pfmk_throttle count their parameters' leaves.
        self.assertEqual(counts(rows["pfmk_aux"]), (34, 0, 1, 0))
        self.assertEqual(counts(rows["pfmk_aux_life"]), (29, 0, 0, 0))
        self.assertEqual(counts(rows["pfmk_glue"]), (3, 0, 0, 0))
        self.assertEqual(counts(rows["pfmk_reuse"]), (8, 0, 0, 0))
        self.assertEqual(counts(rows["pfmk_throttle"]), (8, 0, 0, 0))

    def agree_with_kunit_totals(self, name):
        # KUnit's "# Totals: pass:P fail:F skip:S" line of each suite.
        with open(os.path.join(FIX, name + ".log")) as f:
            tot = [tuple(int(x) for x in m.groups()) for m in
                   re.finditer(r"# Totals: pass:(\d+) fail:(\d+) skip:(\d+)", f.read())]
        rows = parse(name)
        got = [(rows[s]["passed"], rows[s]["failed"], rows[s]["skipped"]) for s in
               ("pfmk_aux", "pfmk_aux_life", "pfmk_glue", "pfmk_reuse", "pfmk_throttle")]
        self.assertEqual(got, tot)

    def test_debug_counts_agree_with_kunit_totals(self):
        self.agree_with_kunit_totals("pass")

    def test_arm64_counts_agree_with_kunit_totals(self):
        # 6.12's layout: each module's suites under a top-level document.
        self.agree_with_kunit_totals("pass-arm64")

    def test_arm64_every_row_green(self):
        rows = parse("pass-arm64")
        for r in rows.values():
            self.assertEqual((r["failed"], r["missing"]), (0, 0), r)
        # encode_msr_tsc, the plan's skip on arm64.
        self.assertEqual(counts(rows["pfmk_smoke"]), (22, 0, 1, 0))
        self.assertEqual(counts(rows["insmod/rmmod"]), (11, 0, 0, 0))

    def test_debug_other_steps(self):
        rows = parse("pass")
        self.assertEqual(counts(rows["insmod/rmmod"]), (11, 0, 0, 0))
        for s in ("kmemleak-baseline", "reclaim", "example:pfmk_example_sets",
                  "pfmk_bench", "kmemleak", "tracepoints", "guest run", "reports"):
            self.assertEqual(counts(rows[s]), (1, 0, 0, 0), s)

    def test_stock_counts(self):
        rows = parse("pass-stock")
        for r in rows.values():
            self.assertEqual((r["failed"], r["missing"]), (0, 0), r)
        # "# pfmk_emu_smoke: 0 of 19 failed": 16 passed, the plan's 3 skips.
        self.assertEqual(counts(rows["pfmk_smoke"]), (23, 0, 0, 0))
        self.assertEqual(counts(rows["pfmk_client2006"]), (3, 0, 0, 0))
        self.assertEqual(counts(rows["pfmk_emu_smoke"]), (16, 0, 3, 0))
        self.assertEqual(counts(rows["pfmk_aux_smoke"]), (1, 0, 4, 0))
        self.assertEqual(counts(rows["insmod/rmmod"]), (13, 0, 0, 0))

    def test_stock_skips_outside_the_plan_fail(self):
        with open(plan_of("pass-stock")) as f:
            plan = json.load(f)
        plan["expected_skips"] = {}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(plan, f)
        try:
            rows = results.parse("fixture", os.path.join(FIX, "pass-stock.log"), f.name, 0)
        finally:
            os.unlink(f.name)
        r = {x["suite"]: x for x in rows}["pfmk_emu_smoke"]
        self.assertEqual(counts(r), (16, 3, 0, 0))
        self.assertIn("unexpected skip: throttle_hw (not in the plan's expected skips)",
                      r["notes"])

    def test_summary_green(self):
        rc, last = summary_of(parse_rows("pass-stock"))
        # 13 insmods and rmmods, 43 KTAP cases, 4 other steps, the guest
        # run and the reports; the plan's 7 skips.
        self.assertEqual((rc, last), (0, "62 passed, 0 failed, 7 skipped"))


class Failing(unittest.TestCase):
    """fail.log: pfmk_smoke's bad_descriptor fails, the rest passes."""

    def test_failing_case_counted(self):
        # "# pfmk_smoke: 1 of 23 failed".
        self.assertEqual(counts(parse("fail")["pfmk_smoke"]), (22, 1, 0, 0))

    def test_failing_case_says_why(self):
        notes = parse("fail")["pfmk_smoke"]["notes"]
        self.assertEqual(notes[0], "not ok bad_descriptor")
        self.assertEqual(notes[1:], ["  # bad_descriptor: get_state: expected 0, got -9"] * 4)

    def test_other_suites_keep_their_verdict(self):
        rows = parse("fail")
        self.assertEqual(counts(rows["pfmk_client2006"]), (3, 0, 0, 0))
        self.assertEqual(counts(rows["pfmk_emu_smoke"]), (16, 0, 3, 0))
        self.assertEqual(counts(rows["guest run"]), (1, 0, 0, 0))
        self.assertEqual(counts(rows["reports"]), (1, 0, 0, 0))

    def test_summary_fails(self):
        rc, last = summary_of(parse_rows("fail"))
        # 11 insmods and rmmods, 41 KTAP cases, tracepoints, the guest run
        # and the reports.
        self.assertEqual((rc, last), (1, "55 passed, 1 failed, 3 skipped"))


class Crashed(unittest.TestCase):
    """crash.log: the guest oopses in the step "crash" and panics."""

    def test_crashed_step_missing(self):
        r = parse("crash")["crash"]
        self.assertEqual(counts(r), (0, 0, 0, 1))
        self.assertEqual(r["notes"], ["step crash never ended (crash or hang)"])

    def test_steps_before_the_crash_pass(self):
        rows = parse("crash")
        self.assertEqual(counts(rows["insmod/rmmod"]), (4, 0, 0, 0))
        self.assertEqual(counts(rows["dump:live"]), (1, 0, 0, 0))

    def test_plan_not_finished(self):
        g = parse("crash")["guest run"]
        self.assertEqual((g["failed"], g["notes"]), (1, ["QEMU rc=0, plan did not finish"]))

    def test_oops_and_panic_reported(self):
        notes = parse("crash")["reports"]["notes"]
        self.assertEqual(len(notes), 2, notes)
        self.assertIn("invalid opcode: 0000 [#1] PREEMPT SMP KASAN", notes[0])
        self.assertIn("Kernel panic - not syncing: Fatal exception", notes[1])


# What the watchdog wrote (scripts/run-guest.sh), seconds aside.
KILLED_RE = (r"^QEMU killed: no step began or ended for \d+s \(stall limit 30s\); "
             r"step insmod:pfmk_smoke had run \d+s; .*, plan did not finish$")


class Killed(unittest.TestCase):
    """killed.log: pfmk_smoke hangs in its case 12 of 23 and the watchdog
    kills QEMU; the plan's later steps never start."""

    def test_guest_row_says_why(self):
        g = parse("killed", qemu_rc=124)["guest run"]
        self.assertEqual(g["failed"], 1)
        self.assertRegex(g["notes"][0], KILLED_RE)

    def test_cut_suite_counts_missing_cases(self):
        r = parse("killed", qemu_rc=124)["pfmk_smoke"]
        self.assertEqual(counts(r), (11, 0, 0, 12))
        self.assertEqual(r["notes"], ["step insmod:pfmk_smoke never ended (crash or hang)",
                                      "plan 1..23 but 11 results"])

    def test_missing_cases_count_as_failed(self):
        rc, last = summary_of(parse_rows("killed", qemu_rc=124))
        # 12 cases, 5 rmmods and pfmk_client2006 missing, the guest failed.
        self.assertEqual((rc, last), (1, "15 passed, 19 failed, 0 skipped"))

    def test_later_steps_never_started(self):
        rows = parse("killed", qemu_rc=124)
        # The three insmods before the hang keep their verdict.
        self.assertEqual(counts(rows["insmod/rmmod"]), (3, 0, 0, 5))
        self.assertIn("step rmmod:pfmk_smoke never started", rows["insmod/rmmod"]["notes"])
        self.assertEqual(counts(rows["pfmk_client2006"]), (0, 0, 0, 1))
        self.assertEqual(counts(rows["reports"]), (1, 0, 0, 0))

    def test_killed_without_watchdog_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write("PFMK-PLAN-BEGIN fixture fixture 6.12\n")
        try:
            rows = results.parse("fixture", f.name, plan_of("killed"), 124)
        finally:
            os.unlink(f.name)
        g = {r["suite"]: r for r in rows}["guest run"]
        self.assertIn("QEMU killed by the watchdog", g["notes"][0])


class SyntheticKunit(unittest.TestCase):
    """The KUnit shapes no recorded log has (module docstring)."""

    def test_fail_counts_each_failing_leaf(self):
        rows = parse("synthetic-kunit-fail")
        r = rows["pfmk_fx"]
        # fx_count and fx_modes/snapshot failed; fx_modes/stop-when-full passed.
        self.assertEqual(counts(r), (1, 2, 1, 0))
        self.assertIn("not ok fx_count", r["notes"])
        self.assertTrue(any("EXPECTATION FAILED" in n for n in r["notes"]), r["notes"])
        self.assertEqual(counts(rows["pfmk_fx_more"]), (1, 0, 0, 0))
        self.assertEqual(rows["guest run"]["failed"], 0)

    def test_crash_is_missing_and_reported(self):
        rows = parse("synthetic-kunit-crash")
        self.assertGreater(rows["pfmk_fx"]["missing"], 0)
        self.assertIn("step insmod:pfmk_fx_kunit never ended (crash or hang)",
                      rows["pfmk_fx"]["notes"])
        self.assertEqual(counts(rows["tracepoints"]), (0, 0, 0, 1))
        self.assertEqual(rows["insmod/rmmod"]["missing"], 2)
        self.assertEqual(rows["guest run"]["failed"], 1)
        self.assertIn("plan did not finish", rows["guest run"]["notes"][0])
        self.assertTrue(any("NULL pointer dereference" in n for n in rows["reports"]["notes"]))
        self.assertTrue(any("Kernel panic" in n for n in rows["reports"]["notes"]))


def ktap(text):
    root = results.parse_ktap(text.splitlines())
    return results.count(root, frozenset({"skipped_ok"}))


class Ktap(unittest.TestCase):
    def test_prfmt_prefixed_document(self):
        c = ktap("pfmk_smoke: KTAP version 1\npfmk_smoke: 1..2\n"
                 "pfmk_smoke: ok 1 a\npfmk_smoke: not ok 2 b\n")
        self.assertEqual((c["passed"], c["failed"]), (1, 1))

    def test_skip_outside_plan_fails(self):
        c = ktap("KTAP version 1\n1..2\nok 1 skipped_ok # SKIP no CPU\n"
                 "ok 2 other # SKIP no CPU\n")
        self.assertEqual((c["skipped"], c["failed"]), (1, 1))

    def test_not_ok_skip_fails(self):
        c = ktap("KTAP version 1\n1..1\nnot ok 1 skipped_ok # SKIP\n")
        self.assertEqual(c["failed"], 1)

    def test_short_plan_is_missing(self):
        c = ktap("KTAP version 1\n1..3\nok 1 a\n")
        self.assertEqual((c["passed"], c["missing"]), (1, 2))

    def test_kernel_lines_between_results(self):
        c = ktap("KTAP version 1\n1..2\nok 1 a\nsmpboot: CPU 1 is now offline\nok 2 b\n")
        self.assertEqual((c["passed"], c["failed"], c["missing"]), (2, 0, 0))


class ManifestKinds(unittest.TestCase):
    MAN = {"m_kunit": {"kinds": ["debug", "arm64-debug"],
                       "suites": {"s_all": ["a"], "s_x86": ["b"]},
                       "suite_kinds": {"s_x86": ["debug"]}}}

    def check(self, kind, ran):
        return {r["suite"]: r for r in results.manifest_check("k", kind, self.MAN, ran,
                                                              {"m_kunit"})}

    def test_suite_of_some_kinds_not_required_elsewhere(self):
        self.assertEqual(self.check("arm64-debug", {"m_kunit": {"s_all": ["a"]}}), {})

    def test_suite_of_some_kinds_required_there(self):
        got = self.check("debug", {"m_kunit": {"s_all": ["a"]}})
        self.assertIn("suite s_x86 of m_kunit did not run", got["manifest:s_x86"]["notes"])

    def test_suite_of_some_kinds_ran_elsewhere_fails(self):
        got = self.check("arm64-debug", {"m_kunit": {"s_all": ["a"], "s_x86": ["b"]}})
        self.assertEqual(got["manifest:s_x86"]["failed"], 1)

    def test_module_of_other_kinds_not_planned(self):
        self.assertEqual(self.check("arm64-stock-icount", {}), {})


class Examples(unittest.TestCase):
    def problems(self, variant, rows):
        lines = ["pfmk_example_count: 2 events, PMU description \"generic\"",
                 "pfmk_example_count: CPU                cycles         instructions"]
        lines += ["pfmk_example_count: %d %20d %20d" % r for r in rows]
        lines.append("pfmk_example_count: done errors=0")
        return examples_check.example_problems("example:pfmk_example_count@" + variant,
                                               lines, "stock")

    def test_arm64_cycles_equal_instructions(self):
        self.assertEqual(self.problems("pmu", [(0, 1034494963, 1034493749)]), [])

    def test_arm64_cycles_not_instructions(self):
        got = self.problems("pmu", [(0, 1034494963, 934493749)])
        self.assertTrue(any("not equal within 0.1%" in p for p in got), got)

    def test_arm64_no_count(self):
        self.assertTrue(self.problems("pmu", [(0, 0, 0)]))


class Summary(unittest.TestCase):
    """results.py summary: make test's last line and exit status."""

    @staticmethod
    def row(suite, passed=1, failed=0, skipped=0, missing=0, notes=()):
        return {"kernel": "k", "suite": suite, "passed": passed, "failed": failed,
                "skipped": skipped, "missing": missing, "notes": list(notes)}

    def run_summary(self, *files):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        for i, rows in enumerate(files):
            with open(os.path.join(d, "r%d.json" % i), "w") as f:
                json.dump(rows, f)
        with open(os.path.join(d, "not-rows.txt"), "w") as f:
            f.write("ignored")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = results.summary(d)
        return rc, out.getvalue().splitlines()

    def test_green_sums_every_file(self):
        rc, out = self.run_summary([self.row("a", 3, skipped=1)], [self.row("b", 2)])
        self.assertEqual((rc, out[-1]), (0, "5 passed, 0 failed, 1 skipped"))

    def test_failed_row_exits_one_with_notes(self):
        rc, out = self.run_summary([self.row("a", 3), self.row("b", 1, 2, notes=["b: x"])])
        self.assertEqual((rc, out[-1]), (1, "4 passed, 2 failed, 0 skipped"))
        self.assertTrue(any(line.endswith("<-- FAIL") and " b " in line for line in out))
        self.assertIn("      b: x", out)

    def test_missing_counts_as_failed(self):
        rc, out = self.run_summary([self.row("a", 0, missing=4)])
        self.assertEqual((rc, out[-1]), (1, "0 passed, 4 failed, 0 skipped"))


if __name__ == "__main__":
    unittest.main()
