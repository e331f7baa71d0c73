#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the harness's verdicts: scripts/results.py.

make test's verdict on a guest is only as good as the parser that reads its
console.  These run results.py on recorded guest logs (scripts/fixtures/
results/: a passing run, a failing case, a crash mid-suite, a guest the
watchdog killed) against a small plan, its KTAP parser on the shapes the
kernels print, the manifest's kinds of kernel, the examples' output checks,
and the summary whose last line and exit status are make test's.  The
manifest check's own tests are scripts/test_manifest_sources.py, the crash
decoder's scripts/test_pstore.py.

usage: python3 scripts/test_results.py   (run by scripts/check.sh)
"""
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import results  # noqa: E402

FIX = os.path.join(HERE, "fixtures", "results")


def parse(name, qemu_rc=0):
    rows = results.parse("fixture", os.path.join(FIX, name + ".log"),
                         os.path.join(FIX, "plan.json"), qemu_rc)
    return {r["suite"]: r for r in rows}


def counts(r):
    return (r["passed"], r["failed"], r["skipped"], r["missing"])


class GuestLogs(unittest.TestCase):
    def test_pass_every_row_green(self):
        rows = parse("pass")
        for r in rows.values():
            self.assertEqual((r["failed"], r["missing"]), (0, 0), r)
        # Three leaves and a parameterized case of two: 2 + 2 passed, one
        # expected skip.
        self.assertEqual(counts(rows["pfmk_fx"]), (3, 0, 1, 0))
        self.assertEqual(counts(rows["pfmk_fx_more"]), (1, 0, 0, 0))
        self.assertEqual(counts(rows["insmod/rmmod"]), (3, 0, 0, 0))
        self.assertEqual(counts(rows["guest run"]), (1, 0, 0, 0))
        self.assertEqual(counts(rows["reports"]), (1, 0, 0, 0))

    def test_fail_counts_each_failing_leaf(self):
        rows = parse("fail")
        r = rows["pfmk_fx"]
        # fx_count and fx_modes/snapshot failed; fx_modes/stop-when-full passed.
        self.assertEqual(counts(r), (1, 2, 1, 0))
        self.assertIn("not ok fx_count", r["notes"])
        self.assertTrue(any("EXPECTATION FAILED" in n for n in r["notes"]), r["notes"])
        self.assertEqual(counts(rows["pfmk_fx_more"]), (1, 0, 0, 0))
        self.assertEqual(rows["guest run"]["failed"], 0)

    def test_crash_is_missing_and_reported(self):
        rows = parse("crash")
        self.assertGreater(rows["pfmk_fx"]["missing"], 0)
        self.assertIn("step insmod:pfmk_fx_kunit never ended (crash or hang)",
                      rows["pfmk_fx"]["notes"])
        self.assertEqual(counts(rows["tracepoints"]), (0, 0, 0, 1))
        self.assertEqual(rows["insmod/rmmod"]["missing"], 2)
        self.assertEqual(rows["guest run"]["failed"], 1)
        self.assertIn("plan did not finish", rows["guest run"]["notes"][0])
        self.assertTrue(any("NULL pointer dereference" in n for n in rows["reports"]["notes"]))
        self.assertTrue(any("Kernel panic" in n for n in rows["reports"]["notes"]))

    def test_killed_says_why(self):
        rows = parse("killed", qemu_rc=124)
        g = rows["guest run"]
        self.assertEqual(g["failed"], 1)
        self.assertIn("no step began or ended for 601s", g["notes"][0])
        self.assertIn("step tracepoints had run 601s", g["notes"][0])
        self.assertEqual(counts(rows["tracepoints"]), (0, 0, 0, 1))
        # What ran before the stall keeps its verdict.
        self.assertEqual(counts(rows["pfmk_fx"]), (3, 0, 1, 0))

    def test_killed_without_watchdog_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write("PFMK-PLAN-BEGIN fixture fixture 6.12\n")
        try:
            rows = results.parse("fixture", f.name, os.path.join(FIX, "plan.json"), 124)
        finally:
            os.unlink(f.name)
        g = {r["suite"]: r for r in rows}["guest run"]
        self.assertIn("QEMU killed by the watchdog", g["notes"][0])


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
        return results.example_problems("example:pfmk_example_count@" + variant, lines,
                                        "stock")

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
