#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the harness's verdicts: results.py, manifest_sources.py, pfmk-pstore.py.

make test's verdict on a guest is only as good as the parser that reads its
console.  These run results.py on recorded guest logs (scripts/fixtures/
results/: a passing run, a failing case, a crash mid-suite, a guest the
watchdog killed) against a small plan, its KTAP parser on the shapes the
kernels print, the manifest check on sources made to disagree, and the
decoder of pfmk's crash summaries (pfmk-pstore.py) on a ramoops record.

usage: python3 scripts/test_results.py   (run by scripts/check.sh)
"""
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import manifest_sources  # noqa: E402
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


class ManifestSources(unittest.TestCase):
    SRC = """
static struct kunit_case fx_cases[] = {
	KUNIT_CASE(fx_a),
	KUNIT_CASE_SLOW(fx_b),
	/* KUNIT_CASE(fx_commented_out), */
	KUNIT_CASE_PARAM(fx_c, fx_gen_params),
	{}
};
static struct kunit_suite fx_suite = {
	.name = "pfmk_fx",
	.test_cases = fx_cases,
};
"""

    def test_sources_parsed(self):
        self.assertEqual(manifest_sources.source_suites(self.SRC),
                         {"pfmk_fx": ["fx_a", "fx_b", "fx_c"]})

    def test_kbuild_objects(self):
        mods = manifest_sources.kbuild_modules(
            "obj-m += a_kunit.o\na_kunit-y := x.o \\\n\t\ty.o\nb-y := z.o\n")
        self.assertEqual(mods, {"a_kunit": ["x", "y"], "b": ["z"]})

    def test_kbuild_arch_objects(self):
        # An object of some architectures only (the x86 images' suite).
        mods = manifest_sources.kbuild_modules(
            "a_kunit-y := x.o\na_kunit-$(CONFIG_X86) += y.o\n")
        self.assertEqual(mods, {"a_kunit": ["x", "y"]})

    def test_differences(self):
        src = {"pfmk_fx_kunit": {"pfmk_fx": ["fx_a", "fx_new"], "pfmk_fy": ["y"]}}
        man = {"pfmk_fx_kunit": {"suites": {"pfmk_fx": ["fx_a", "fx_old"],
                                            "pfmk_fz": ["z"]}},
               "pfmk_gone_kunit": {"suites": {}}}
        got = manifest_sources.compare(man, src)
        self.assertIn("pfmk_fx_kunit/pfmk_fx: case fx_new is in the sources, not in the manifest",
                      got)
        self.assertIn("pfmk_fx_kunit/pfmk_fx: case fx_old is in the manifest, not in the sources",
                      got)
        self.assertIn("pfmk_fx_kunit: suite pfmk_fy is in the sources, not in the manifest", got)
        self.assertIn("pfmk_fx_kunit: suite pfmk_fz is in the manifest, not in the sources", got)
        self.assertIn("pfmk_gone_kunit: in the manifest, but no Kbuild module of that name", got)

    def test_order_matters(self):
        got = manifest_sources.compare({"m_kunit": {"suites": {"s": ["b", "a"]}}},
                                       {"m_kunit": {"s": ["a", "b"]}})
        self.assertEqual(got, ["m_kunit/s: cases listed in another order than the sources'"])

    def test_case_lengths(self):
        src = ("static void fx_a(struct kunit *test)\n{\n" + "\tx();\n" * 57 + "}\n"
               "static void fx_b(struct kunit *test)\n{\n" + "\tx();\n" * 58 + "}\n"
               "static void fx_helper(void)\n{\n" + "\tx();\n" * 99 + "}\n"
               + self.SRC)
        self.assertEqual(manifest_sources.kunit_case_lengths(src),
                         {"fx_a": (60, "case fx_a"), "fx_b": (61, "case fx_b")})
        self.assertEqual(manifest_sources.size_problems("fx.c", src),
                         ["fx.c: case fx_b has 61 lines, more than 60"])

    @staticmethod
    def kfunc(name, body_lines, calls=()):
        return ("static void %s(struct kunit *test)\n{\n" % name
                + "".join("\t%s(test);\n" % c for c in calls)
                + "\tx();\n" * (body_lines - len(calls)) + "}\n\n")

    def test_long_helper_of_a_case_rejected(self):
        # A case that hands its body to a helper of its source is still
        # one case: the helper is held to the case's limit, on its own
        # even when two cases share it (no sum then).
        src = (self.kfunc("fx_body", 58) + self.kfunc("fx_a", 3, ["fx_body"])
               + self.kfunc("fx_b", 3, ["fx_body"]) + self.SRC)
        self.assertEqual(manifest_sources.size_problems("fx.c", src),
                         ["fx.c: fx_body, run by case fx_a, has 61 lines, more than 60"])
        self.assertEqual(manifest_sources.size_problems(
            "fx.c", src.replace("\tx();\n" * 58, "\tx();\n" * 57, 1)), [])

    def test_helper_of_a_helper_rejected(self):
        src = (self.kfunc("fx_deep", 58) + self.kfunc("fx_body", 3, ["fx_deep"])
               + self.kfunc("fx_a", 3, ["fx_body"]) + self.kfunc("fx_b", 3, ["fx_body"])
               + self.SRC)
        self.assertEqual(manifest_sources.size_problems("fx.c", src),
                         ["fx.c: fx_deep, run by case fx_a, has 61 lines, more than 60"])

    def test_helper_through_initializer_rejected(self):
        src = (self.kfunc("fx_cb", 58)
               + "static struct fx_ops fx_ops = {\n\t.handler = fx_cb,\n};\n\n"
               + "static void fx_a(struct kunit *test)\n{\n\treg(&fx_ops);\n}\n\n"
               + "static void fx_b(struct kunit *test)\n{\n\treg(&fx_ops);\n}\n\n"
               + self.SRC)
        self.assertEqual(manifest_sources.size_problems("fx.c", src),
                         ["fx.c: fx_cb, run by case fx_a, has 61 lines, more than 60"])

    def test_helper_of_many_cases_once(self):
        # Each function is measured once, on its own, for the first case
        # (by name) that reaches it.
        src = (self.kfunc("fx_body", 58) + self.kfunc("fx_a", 3, ["fx_body"])
               + self.kfunc("fx_b", 3, ["fx_body"]) + self.SRC)
        self.assertEqual(manifest_sources.size_problems("fx.c", src),
                         ["fx.c: fx_body, run by case fx_a, has 61 lines, more than 60"])

    def test_single_use_helpers_summed(self):
        # Two helpers only fx_a reaches are its body cut up: 6 + 33 + 33
        # lines, each within the limit, 72 together; 60 together pass.
        src = (self.kfunc("fx_h1", 30) + self.kfunc("fx_h2", 30)
               + self.kfunc("fx_a", 3, ["fx_h1", "fx_h2"]) + self.kfunc("fx_b", 3)
               + self.SRC)
        self.assertEqual(manifest_sources.size_problems("fx.c", src),
                         ["fx.c: case fx_a has 72 lines with its single-use helpers "
                          "fx_h1 (33), fx_h2 (33), more than 60"])
        self.assertEqual(manifest_sources.size_problems(
            "fx.c", src.replace("\tx();\n" * 30, "\tx();\n" * 18, 1)), [])

    def test_single_use_helper_of_a_helper_summed(self):
        src = (self.kfunc("fx_h2", 30) + self.kfunc("fx_h1", 30, ["fx_h2"])
               + self.kfunc("fx_a", 3, ["fx_h1"]) + self.kfunc("fx_b", 3) + self.SRC)
        self.assertEqual(manifest_sources.size_problems("fx.c", src),
                         ["fx.c: case fx_a has 72 lines with its single-use helpers "
                          "fx_h1 (33), fx_h2 (33), more than 60"])

    def test_shared_helpers_not_summed(self):
        # The same helpers, shared by two cases, are set-up: each is held
        # to the limit on its own, not added to either case.
        src = (self.kfunc("fx_h1", 30) + self.kfunc("fx_h2", 30)
               + self.kfunc("fx_a", 3, ["fx_h1", "fx_h2"])
               + self.kfunc("fx_b", 3, ["fx_h1", "fx_h2"]) + self.SRC)
        self.assertEqual(manifest_sources.size_problems("fx.c", src), [])
        # One shared, one not: only the one fx_a has alone is added.
        src = (self.kfunc("fx_h1", 30) + self.kfunc("fx_h2", 56)
               + self.kfunc("fx_a", 3, ["fx_h1", "fx_h2"])
               + self.kfunc("fx_b", 3, ["fx_h1"]) + self.SRC)
        self.assertEqual(manifest_sources.size_problems("fx.c", src),
                         ["fx.c: case fx_a has 65 lines with its single-use helpers "
                          "fx_h2 (59), more than 60"])

    def test_single_use_helper_through_initializer_summed(self):
        # A callback only fx_a's static structure names is fx_a's.
        src = (self.kfunc("fx_cb", 40)
               + "static struct fx_ops fx_ops = {\n\t.handler = fx_cb,\n};\n\n"
               + "static void fx_a(struct kunit *test)\n{\n\treg(&fx_ops);\n"
               + "\tx();\n" * 19 + "}\n\n"
               + self.kfunc("fx_b", 3) + self.SRC)
        self.assertEqual(manifest_sources.size_problems("fx.c", src),
                         ["fx.c: case fx_a has 66 lines with its single-use helpers "
                          "fx_cb (43), more than 60"])
        shared = src.replace(self.kfunc("fx_b", 3),
                             "static void fx_b(struct kunit *test)\n{\n\treg(&fx_ops);\n}\n\n")
        self.assertEqual(manifest_sources.size_problems("fx.c", shared), [])

    def test_other_source_not_counted(self):
        # The shared set-up of another source (pfmk_kunit_util.c, which the
        # pfmk_<name>_kunit_util.c wrappers #include) is not a case's body.
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        with open(os.path.join(d, "fx.c"), "w") as f:
            f.write(self.kfunc("fx_a", 3, ["fxt_setup"]) + self.kfunc("fx_b", 3)
                    + self.SRC)
        with open(os.path.join(d, "fx_util.c"), "w") as f:
            f.write(self.kfunc("fxt_setup", 99))
        with open(os.path.join(d, "fx_kunit_util.c"), "w") as f:
            f.write('#include "fx_util.c"\n')
        self.assertEqual(manifest_sources.sizes(d, {}), [])

    def test_tree_kunit_helper_seen(self):
        # A helper of a tree's KUnit case, made long in a copy, is seen:
        # this fails if the reach is taken out of size_problems().
        testdir = os.path.join(HERE, "..", "test-modules")
        with open(os.path.join(testdir, "pfmk_kunit_api.c")) as f:
            src = f.read()
        head = ("static void api_expect_ebadf(struct kunit *test, void *desc, "
                "const char *what)\n{\n")
        self.assertIn(head, src)
        base = manifest_sources.size_problems("api.c", src)
        got = manifest_sources.size_problems("api.c", src.replace(head, head + "\tx();\n" * 60))
        # The 60 lines may also take the file over FILE_MAX_LINES: not
        # what this test is about.
        new = [p for p in got if p not in base and "split it by topic" not in p]
        self.assertEqual(len(new), 1)
        self.assertRegex(new[0], r"^api\.c: api_expect_ebadf, run by case api_\w+, "
                         r"has \d+ lines, more than 60$")

    def test_file_length(self):
        got = manifest_sources.size_problems("fx.c", "x;\n" * 1201)
        self.assertEqual(got, ["fx.c: 1201 lines, more than 1200: split it by topic"])
        self.assertEqual(manifest_sources.size_problems("fx.c", "x;\n" * 1200), [])

    def test_tree_sizes(self):
        testdir = os.path.join(HERE, "..", "test-modules")
        self.assertEqual(manifest_sources.sizes(testdir), [])

    def test_tree_agrees(self):
        testdir = os.path.join(HERE, "..", "test-modules")
        with open(os.path.join(testdir, "manifest.json")) as f:
            man = results.json.load(f)
        src = manifest_sources.kunit_modules(testdir)
        self.assertGreater(sum(len(c) for s in src.values() for c in s.values()), 100)
        ktap, problems = manifest_sources.ktap_modules(testdir)
        self.assertEqual(problems, [])
        self.assertEqual(sorted(ktap), sorted(manifest_sources.KTAP_TABLES))
        self.assertGreater(sum(len(c) for s in ktap.values() for c in s.values()), 50)
        self.assertEqual(manifest_sources.compare(man, dict(src, **ktap)), [])


class ManifestKtap(unittest.TestCase):
    """The KTAP modules that are not KUnit: their static case tables."""

    SRC = """
static const struct m_test m_tests[] = {
	{ "m_first", m_first },
	/* { "m_commented_out", m_gone }, */
	{ "m_second", m_second, true },
};
static const char * const m_names[] = {
	"n_a", "n_b",
	"n_c",
};
"""
    MAN = {"m": {"suites": {"m": ["m_first", "m_second"]}}}

    def tree(self, src):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        with open(os.path.join(d, "m.c"), "w") as f:
            f.write(src)
        return manifest_sources.ktap_modules(d, {"m": ("m.c", "m_tests")})

    def test_struct_table(self):
        self.assertEqual(manifest_sources.table_names(self.SRC, "m_tests"),
                         ["m_first", "m_second"])

    def test_name_table(self):
        self.assertEqual(manifest_sources.table_names(self.SRC, "m_names"),
                         ["n_a", "n_b", "n_c"])

    def test_agrees(self):
        ktap, problems = self.tree(self.SRC)
        self.assertEqual(problems, [])
        self.assertEqual(manifest_sources.compare(self.MAN, ktap), [])

    def test_case_added_to_source_only(self):
        ktap, _ = self.tree(self.SRC.replace('{ "m_second"', '{ "m_new", m_new },\n\t{ "m_second"'))
        self.assertEqual(manifest_sources.compare(self.MAN, ktap),
                         ["m/m: case m_new is in the sources, not in the manifest"])

    def test_table_gone(self):
        ktap, problems = self.tree("static int x;\n")
        self.assertEqual(problems, ["m: no table m_tests in m.c"])
        self.assertEqual(manifest_sources.compare(self.MAN, ktap),
                         ["m: in the manifest, but no case table found for it "
                          "(KTAP_TABLES, scripts/manifest_sources.py)"])


class ManifestKtapSizes(unittest.TestCase):
    """The KTAP modules' cases held to CASE_MAX_LINES, helpers included."""

    @staticmethod
    def func(name, body_lines, calls=()):
        return ("static bool %s(const char *t)\n{\n" % name
                + "".join("\t%s(t);\n" % c for c in calls)
                + "\tx();\n" * (body_lines - len(calls)) + "\treturn true;\n}\n\n")

    def problems(self, src, table="m_tests"):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        with open(os.path.join(d, "m.c"), "w") as f:
            f.write(src)
        return manifest_sources.ktap_size_problems(d, {"m": ("m.c", table)})

    TABLE = ("static const struct m_test m_tests[] = {\n"
             "\t{ \"m_short\", m_short },\n\t{ \"m_long\", m_long, true },\n};\n")

    def test_long_case_rejected(self):
        # 3 + 57 + 1 = 61 lines, definition to closing brace.
        src = self.func("m_short", 56) + self.func("m_long", 57) + self.TABLE
        self.assertEqual(self.problems(src),
                         ["m.c: case m_long has 61 lines, more than 60"])

    def test_sixty_lines_pass(self):
        src = self.func("m_short", 56) + self.func("m_long", 56) + self.TABLE
        self.assertEqual(self.problems(src), [])

    def test_long_helper_of_a_case_rejected(self):
        # A case that hands its body to a helper is still one case.
        src = (self.func("m_body", 57) + self.func("m_short", 3, ["m_body"])
               + self.func("m_long", 3, ["m_body"]) + self.TABLE)
        self.assertEqual(self.problems(src),
                         ["m.c: m_body, run by case m_long, has 61 lines, more than 60"])

    def test_helper_of_a_helper_rejected(self):
        src = (self.func("m_deep", 57) + self.func("m_body", 3, ["m_deep"])
               + self.func("m_short", 3, ["m_deep"]) + self.func("m_long", 3, ["m_body"])
               + self.TABLE)
        self.assertEqual(self.problems(src),
                         ["m.c: m_deep, run by case m_long, has 61 lines, more than 60"])

    def test_sizes_include_ktap(self):
        # What make check runs (sizes()) holds the KTAP cases too.
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        with open(os.path.join(d, "m.c"), "w") as f:
            f.write(self.func("m_short", 3) + self.func("m_long", 57) + self.TABLE)
        self.assertEqual(manifest_sources.sizes(d, {"m": ("m.c", "m_tests")}),
                         ["m.c: case m_long has 61 lines, more than 60"])

    def test_helper_through_initializer_rejected(self):
        # A callback reached through a static structure the case uses.
        src = (self.func("m_cb", 57)
               + "static struct m_ops m_fmt = {\n\t.handler = m_cb,\n};\n\n"
               + "static bool m_short(const char *t)\n{\n\treturn reg(&m_fmt);\n}\n\n"
               + "static bool m_long(const char *t)\n{\n\treturn reg(&m_fmt);\n}\n\n"
               + self.TABLE)
        self.assertEqual(self.problems(src),
                         ["m.c: m_cb, run by case m_long, has 61 lines, more than 60"])

    def test_single_use_helpers_summed(self):
        # 6 + 33 + 33: m_long's two private helpers, each short, too long
        # together; the same two shared with m_short are set-up.
        src = (self.func("m_h1", 29) + self.func("m_h2", 29) + self.func("m_short", 3)
               + self.func("m_long", 2, ["m_h1", "m_h2"]) + self.TABLE)
        self.assertEqual(self.problems(src),
                         ["m.c: case m_long has 72 lines with its single-use helpers "
                          "m_h1 (33), m_h2 (33), more than 60"])
        shared = src.replace(self.func("m_short", 3),
                             self.func("m_short", 3, ["m_h1", "m_h2"]))
        self.assertEqual(self.problems(shared), [])

    def test_init_rooted_module_not_summed(self):
        # A table of names only: one module_init() run is the module's one
        # case; its functions are held to the limit each, not summed (49 +
        # 42 + 5 lines here).
        src = ("static const char * const m_names[] = {\n\t\"a\", \"b\",\n};\n\n"
               + self.func("m_run1", 45) + self.func("m_run2", 38)
               + "static int __init m_init(void)\n{\n\treturn m_run1(0) + m_run2(0);\n}\n\n"
               + "module_init(m_init);\n")
        self.assertEqual(self.problems(src, "m_names"), [])

    def test_function_no_case_runs_not_counted(self):
        src = (self.func("m_short", 3) + self.func("m_long", 3)
               + self.func("m_unused", 99) + self.TABLE)
        self.assertEqual(self.problems(src), [])

    def test_name_table_counts_the_run(self):
        # Names only: the cases are the verdicts of what module_init runs.
        src = ("static const char * const m_names[] = {\n\t\"a\", \"b\",\n};\n\n"
               + self.func("m_run", 57)
               + "static int __init m_init(void)\n{\n\treturn m_run(0);\n}\n\n"
               + "module_init(m_init);\n")
        self.assertEqual(self.problems(src, "m_names"),
                         ["m.c: m_run, run by the cases of m_names, has 61 lines, "
                          "more than 60"])

    def test_tree_sizes_include_ktap(self):
        # The tree's own long KTAP case, copied, is seen.
        testdir = os.path.join(HERE, "..", "test-modules")
        with open(os.path.join(testdir, "pfmk_emu_smoke.c")) as f:
            src = f.read()
        long = src.replace("static bool emu_hotplug(const char *t)\n{\n",
                           "static bool emu_hotplug(const char *t)\n{\n" + "\tx();\n" * 60)
        new = set(self.problems(long, "emu_tests")) - set(self.problems(src, "emu_tests"))
        self.assertEqual(len(new), 1)
        self.assertRegex(new.pop(), r"^m\.c: case emu_hotplug has \d+ lines")


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


def load_pstore():
    import importlib.util
    spec = importlib.util.spec_from_file_location("pfmk_pstore",
                                                  os.path.join(HERE, "pfmk-pstore.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# A ramoops record as pstore shows it: a header, "<level>[time] " prefixes,
# other messages between pfmk's lines, a module symbol; then a second crash
# cut short.
PSTORE_RECORD = """Oops#1 Part1
<6>[   46.1] pfmk-crash: begin v1 reason=oops cpu=1
<6>[   46.1] pfmk-crash: ctx desc=0x9423ad400000001 reason=oops cpu=1 ctx_cpu=1 state=2 started=0 set=0 flags=0x2 tstamp=1 ovfl=0 smpl=0 npmds=80
<6>[   46.1] pfmk-crash: pmd desc=0x9423ad400000001 num=0 value=16812
<4>[   46.1] some other message
<6>[   46.1] pfmk-crash: aux desc=0x9423ad400000001 head=537984 kept=4096 crc32=0x1864c521 logged=64
<6>[   46.1] pfmk-crash: auxdata desc=0x9423ad400000001 at=537920 4155585201000000aa41000000000000dfc5623cad1aef7ee580d799f3fbd3cf
<6>[   46.1] pfmk-crash: auxdata desc=0x9423ad400000001 at=537952 4155585201000000ab410000000000002a48d7bc149ca79c819be4789f5ed1f7
<6>[   46.2] pfmk-crash: ctx desc=0x182642be00000002 reason=oops cpu=1 ctx_cpu=1 state=2 started=0 set=0 flags=0x0 tstamp=2 ovfl=945 smpl=945 npmds=64
<6>[   46.2] pfmk-crash: pmd desc=0x182642be00000002 num=0 value=1944297
<6>[   46.2] pfmk-crash: sample desc=0x182642be00000002 n=943 pmd=0 cpu=1 pid=63 tstamp=3 ip=0xffffffffa000e0cf pfmk_set_deactivate+0x2f/0x2f0 [pfmk]
<6>[   46.2] pfmk-crash: sample desc=0x182642be00000002 n=944 pmd=0 cpu=1 pid=0 tstamp=4 ip=0xffffffff81a89113 default_idle+0x13/0x20
<6>[   46.2] pfmk-crash: end contexts=2
<6>[   50.0] pfmk-crash: begin v1 reason=panic cpu=0
<6>[   50.0] pfmk-crash: ctx desc=0x5 reason=panic cpu=0 ctx_cpu=0 state=2 started=1 set=0 flags=0x1 tstamp=5 ovfl=1 smpl=1 npmds=8
"""


class PstoreDecoder(unittest.TestCase):
    def test_record(self):
        crashes = load_pstore().parse(PSTORE_RECORD.splitlines())
        self.assertEqual(len(crashes), 2)
        first, cut = crashes
        self.assertTrue(first["complete"])
        self.assertFalse(cut["complete"])
        self.assertEqual(first["header"]["reason"], "oops")
        fr = first["contexts"][0x9423ad400000001]
        self.assertEqual(fr["pmds"], {0: 16812})
        self.assertEqual(fr["aux"]["crc32"], 0x1864c521)
        self.assertTrue(fr["aux"]["logged_ok"])
        self.assertEqual(len(fr["auxdata"]), 128)
        sm = first["contexts"][0x182642be00000002]
        self.assertEqual(sm["smpl"], 945)
        self.assertEqual([(x["n"], x["function"]) for x in sm["samples"]],
                         [(943, "pfmk_set_deactivate"), (944, "default_idle")])
        self.assertEqual(cut["contexts"][5]["flags"], 1)


if __name__ == "__main__":
    unittest.main()
