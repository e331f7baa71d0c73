#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of scripts/manifest_sources.py: the manifest check and the size rules.

manifest.json is checked against the KUnit suites and KTAP tables the
sources define, every case is held to 60 lines with the same-file
helpers only it reaches, and to 9 verdicts with every same-file helper it
reaches.  These run the parsers and the rules on sources made to
disagree, and on the tree itself.

usage: python3 scripts/test_manifest_sources.py   (run by scripts/check.sh)
"""
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import manifest_sources  # noqa: E402

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

    def test_trailing_close_rejected(self):
        # The suite's exit closes a tracked context and expects 0: a case
        # closes one itself only to test the close or what follows it.
        src = ("static void fx_a(struct kunit *test)\n{\n\tx();\n"
               "\tpfmkt_close(test, desc);\n}\n"
               "static void fx_b(struct kunit *test)\n{\n"
               "\tpfmkt_close(test, desc);\n\tx();\n}\n" + self.SRC)
        self.assertEqual(manifest_sources.size_problems("fx.c", src),
                         ["fx.c: case fx_a ends with pfmkt_close(): "
                          "the suite's exit closes it"])
        self.assertEqual(manifest_sources.size_problems(
            "fx.c", src.replace("\tpfmkt_close(test, desc);\n}", "}", 1)), [])

    def close_problems(self, body):
        """close_problems() of a source whose one case fx_a has @body."""
        src = ("static void fx_a(struct kunit *test)\n{\n" + body + "}\n"
               "static struct kunit_case fx_cases[] = {\n"
               "\tKUNIT_CASE(fx_a),\n\t{}\n};\n")
        return manifest_sources.close_problems("fx.c", src)

    BAD = ["fx.c: case fx_a ends with pfmkt_close(): the suite's exit closes it"]

    def test_trailing_close_then_forget(self):
        # Forgetting the descriptor after the close is no statement of the
        # case: it still ends with the close.
        for forget in ("\tt->desc = NULL;\n", "\tdesc = NULL;\n",
                       "\tt->d[1] = NULL;\n\tt->desc = NULL;\n"):
            self.assertEqual(self.close_problems(
                "\tx();\n\tpfmkt_close(test, t->desc);\n" + forget), self.BAD)
        self.assertEqual(self.close_problems(
            "\tpfmkt_close(test, t->desc);\n\tt->desc = NULL;\n"
            "\tKUNIT_EXPECT_EQ(test, nr_active(), 0U);\n"), [])
        # An assignment of something else is a statement.
        self.assertEqual(self.close_problems(
            "\tpfmkt_close(test, t->desc);\n\tt->n = count(t);\n"), [])

    def test_trailing_close_before_else(self):
        # The close is the last statement of its branch: the other branch
        # (a skip) does not make it any less the case's end.
        bad = ("#ifdef CONFIG_X86\n\tx();\n\tpfmkt_close(test, desc);\n"
               "#else\n\tkunit_skip(test, \"x86 only\");\n#endif\n")
        self.assertEqual(self.close_problems(bad), self.BAD)
        self.assertEqual(self.close_problems(bad.replace(
            "#else", "#elif defined(CONFIG_ARM64)\n\ty();\n#else")), self.BAD)
        self.assertEqual(self.close_problems(bad.replace(
            "close(test, desc);\n", "close(test, desc);\n\tx();\n")), [])
        # Code after the #endif is the case's end, not the close.
        self.assertEqual(self.close_problems(bad + "\tx();\n"), [])

    def test_trailing_close_before_endif(self):
        bad = ("\tx();\n#ifdef CONFIG_X86\n\tpfmkt_close(test, desc);\n"
               "#endif\n")
        self.assertEqual(self.close_problems(bad), self.BAD)
        # Nested conditionals in the other branch are skipped whole.
        self.assertEqual(self.close_problems(
            "#ifdef A\n\tpfmkt_close(test, desc);\n#else\n#ifdef B\n"
            "\ty();\n#endif\n\tz();\n#endif\n"), self.BAD)
        self.assertEqual(self.close_problems(
            "#ifdef CONFIG_X86\n\tpfmkt_close(test, desc);\n#endif\n"
            "\tKUNIT_EXPECT_EQ(test, nr_active(), 0U);\n"), [])

    def test_trailing_close_in_last_branch(self):
        # The braceless body of a last if or else.
        self.assertEqual(self.close_problems(
            "\tret = try(test, &desc);\n\tif (!ret)\n"
            "\t\tpfmkt_close(test, desc);\n"), self.BAD)
        self.assertEqual(self.close_problems(
            "\tif (a)\n\t\tx();\n\telse\n\t\tpfmkt_close(test, desc);\n"),
            self.BAD)
        self.assertEqual(self.close_problems(
            "\tif (!ret)\n\t\tpfmkt_close(test, desc);\n\tx();\n"), [])
        # A loop's body is not the case's last statement.
        self.assertEqual(self.close_problems(
            "\tfor (i = 0; i < n; i++)\n\t\tpfmkt_close(test, d[i]);\n"), [])

    def test_trailing_close_untracked(self):
        # A context the suite's exit does not close: the case closes it.
        self.assertEqual(self.close_problems(
            "\tpfmkt_forget(test, desc);\n\tx();\n"
            "\tpfmkt_close(test, desc);\n"), [])
        self.assertEqual(self.close_problems(
            "\tKUNIT_ASSERT_EQ(test, pfmk_create_context(&req, NULL, 0, &done,\n"
            "\t\t\t\t\t\t   &desc, NULL), 0);\n"
            "\tpfmkt_close(test, desc);\n"), [])
        # Another descriptor forgotten, or created raw, is not this one.
        self.assertEqual(self.close_problems(
            "\tpfmkt_forget(test, other);\n\tpfmkt_close(test, desc);\n"),
            self.BAD)
        self.assertEqual(self.close_problems(
            "\tpfmk_create_context(&req, NULL, 0, &done, &desc_b, NULL);\n"
            "\tpfmkt_close(test, desc);\n"), self.BAD)

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
            man = json.load(f)
        src = manifest_sources.kunit_modules(testdir)
        self.assertGreater(sum(len(c) for s in src.values() for c in s.values()), 100)
        ktap, problems = manifest_sources.ktap_modules(testdir)
        self.assertEqual(problems, [])
        self.assertEqual(sorted(ktap), sorted(manifest_sources.KTAP_TABLES))
        self.assertGreater(sum(len(c) for s in ktap.values() for c in s.values()), 50)
        self.assertEqual(manifest_sources.compare(man, dict(src, **ktap)), [])


class ManifestVerdicts(unittest.TestCase):
    """Each KUnit case held to VERDICT_MAX verdicts, shared helpers included."""

    CASES = ("static struct kunit_case fx_cases[] = {\n"
             "\tKUNIT_CASE(fx_a),\n\tKUNIT_CASE(fx_b),\n\t{}\n};\n")

    @staticmethod
    def func(name, verdicts, calls=(), macro="KUNIT_EXPECT_EQ(test, x(), 0)"):
        return ("static void %s(struct kunit *test)\n{\n" % name
                + "".join("\t%s(test);\n" % c for c in calls)
                + ("\t%s;\n" % macro) * verdicts + "}\n\n")

    def test_shared_helper_verdicts_rejected(self):
        # Two one-line cases and the ten verdicts of the helper they share
        # (nmit_run_own() before 2b9a210): a body, not set-up.
        src = (self.func("fx_run", 10) + self.func("fx_a", 0, ["fx_run"])
               + self.func("fx_b", 0, ["fx_run"]) + self.CASES)
        self.assertEqual(manifest_sources.size_problems("fx.c", src), [
            "fx.c: case %s reaches 10 verdicts (KUNIT_EXPECT_*, KUNIT_FAIL: fx_run 10), "
            "more than 9: one behaviour per case" % c for c in ("fx_a", "fx_b")])
        nine = src.replace("\tKUNIT_EXPECT_EQ(test, x(), 0);\n", "", 1)
        self.assertEqual(manifest_sources.size_problems("fx.c", nine), [])

    def test_own_and_helpers_summed(self):
        # The case's own verdicts, a shared helper's and a single-use
        # helper's (through a helper of a helper) add up.
        src = (self.func("fx_deep", 3) + self.func("fx_mine", 1, ["fx_deep"])
               + self.func("fx_run", 3) + self.func("fx_a", 3, ["fx_run", "fx_mine"])
               + self.func("fx_b", 0, ["fx_run"]) + self.CASES)
        self.assertEqual(manifest_sources.verdict_problems("fx.c", src, {}), [
            "fx.c: case fx_a reaches 10 verdicts (KUNIT_EXPECT_*, KUNIT_FAIL: fx_a 3, "
            "fx_deep 3, fx_mine 1, fx_run 3), more than 9: one behaviour per case"])

    def test_fail_counted_asserts_not(self):
        src = (self.func("fx_run", 9, macro="KUNIT_ASSERT_EQ(test, x(), 0)")
               + self.func("fx_a", 9, ["fx_run"]) + self.func("fx_b", 0) + self.CASES)
        self.assertEqual(manifest_sources.verdict_problems("fx.c", src, {}), [])
        failed = src.replace("\tfx_run(test);\n",
                             "\tfx_run(test);\n\tif (bad)\n\t\tKUNIT_FAIL(test, \"bad\");\n")
        self.assertEqual(len(manifest_sources.verdict_problems("fx.c", failed, {})), 1)

    def test_one_result_fields_pass(self):
        # Nine fields of one result compared (count_read_fields): one
        # fact; a comment or a string naming a verdict is none.
        src = (self.func("fx_a", 9) + self.func("fx_b", 0) + self.CASES)
        self.assertEqual(manifest_sources.verdict_problems("fx.c", src, {}), [])
        noted = src.replace("{\n", "{\n\t/* KUNIT_EXPECT_EQ(test, 1, 1); */\n"
                            "\tpr_info(\"KUNIT_FAIL(\");\n", 1)
        self.assertEqual(manifest_sources.verdict_problems("fx.c", noted, {}), [])

    TABLE = ("struct fx_row {\n\tconst char *name;\n\tvoid (*run)(struct kunit *test);\n};\n\n"
             "static const struct fx_row fx_rows[] = {\n"
             "\t{ \"one\", fx_one },\n\t{ \"two\", fx_two },\n};\n\n"
             "KUNIT_ARRAY_PARAM(fx_row, fx_rows, NULL);\n\n"
             "static void fx_a(struct kunit *test)\n{\n"
             "\tconst struct fx_row *r = test->param_value;\n\n"
             "\tKUNIT_EXPECT_EQ(test, r->run(test), 0);\n}\n\n"
             + "static struct kunit_case fx_cases[] = {\n"
             "\tKUNIT_CASE_PARAM(fx_a, fx_row_gen_params),\n\t{}\n};\n")

    def test_table_rows_counted_each(self):
        # A row is one case: it reaches the function its row names, not
        # the other rows' (1 + 6 and 1 + 8 here, not 15).
        src = self.func("fx_one", 6) + self.func("fx_two", 8) + self.TABLE
        self.assertEqual(manifest_sources.case_verdicts(src)["fx_a"][:2], (9, 1))
        self.assertEqual(manifest_sources.verdict_problems("fx.c", src, {}), [])
        src = self.func("fx_one", 6) + self.func("fx_two", 9) + self.TABLE
        self.assertEqual(manifest_sources.verdict_problems("fx.c", src, {}), [
            "fx.c: case fx_a, row 1, reaches 10 verdicts (KUNIT_EXPECT_*, KUNIT_FAIL: "
            "fx_a 1, fx_two 9), more than 9: one behaviour per case"])

    def test_table_named_by_the_case_counted_per_row(self):
        # A case that names its table (a row's index) still runs one row.
        src = (self.func("fx_one", 6) + self.func("fx_two", 8)
               + self.TABLE.replace("\tKUNIT_EXPECT_EQ(test, r->run(test), 0);\n",
                                    "\tKUNIT_EXPECT_EQ(test, r->run(test), r - fx_rows);\n"))
        self.assertEqual(manifest_sources.case_verdicts(src)["fx_a"][:2], (9, 1))

    def test_allow_list(self):
        src = (self.func("fx_run", 10) + self.func("fx_a", 0, ["fx_run"])
               + self.func("fx_b", 0) + self.CASES)
        self.assertEqual(manifest_sources.verdict_problems(
            "fx.c", src, {"fx_a": "left for the lead"}), [])
        # An entry no longer over the limit is taken out.
        self.assertEqual(manifest_sources.verdict_problems(
            "fx.c", src, {"fx_a": "x", "fx_b": "x"}),
            ["fx.c: case fx_b reaches 0 verdicts, no more than 9: "
             "take it out of VERDICT_ALLOW"])
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        with open(os.path.join(d, "fx.c"), "w") as f:
            f.write(src)
        self.assertEqual(manifest_sources.verdict_allow_problems(
            d, {"fx_a": "x", "fx_gone": "x"}),
            ["VERDICT_ALLOW: fx_gone is no KUnit case of %s: take it out" % d])

    def test_other_source_not_counted(self):
        # pfmk_kunit_util.c's verdicts (pfmkt_expect_stats(), ...) are
        # set-up every case shares, outside its source.
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        with open(os.path.join(d, "fx.c"), "w") as f:
            f.write(self.func("fx_a", 9, ["fxt_expect"]) + self.func("fx_b", 0) + self.CASES)
        with open(os.path.join(d, "fx_util.c"), "w") as f:
            f.write(self.func("fxt_expect", 30))
        self.assertEqual(manifest_sources.sizes(d, {}), [])

    def test_tree_allow_list_current(self):
        testdir = os.path.join(HERE, "..", "test-modules")
        self.assertEqual(manifest_sources.verdict_allow_problems(testdir), [])

    def test_tree_shared_helper_seen(self):
        # The tree's shared nmit_run_own(), given ten verdicts in a copy,
        # makes every case that starts from it an offender.
        testdir = os.path.join(HERE, "..", "test-modules")
        with open(os.path.join(testdir, "pfmk_kunit_nmi.c")) as f:
            src = f.read()
        head = "static void nmit_run_own(struct kunit *test, struct nmit_own *o)\n{\n"
        self.assertIn(head, src)
        base = manifest_sources.size_problems("nmi.c", src)
        got = manifest_sources.size_problems(
            "nmi.c", src.replace(head, head + "\tKUNIT_EXPECT_EQ(test, 1, 1);\n" * 10))
        new = [p for p in got if p not in base]
        self.assertGreaterEqual(len(new), 2)
        for p in new:
            self.assertRegex(p, r"^nmi\.c: case nmi_\w+(, row \d+,)? reaches \d+ verdicts "
                             r"\(KUNIT_EXPECT_\*, KUNIT_FAIL: .*nmit_run_own 10.*\), more than 9")


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


class Regenerate(unittest.TestCase):
    """--write: the case lists come from the sources, the kinds stay."""

    MAN = {"_comment": ["c"],
           "m_kunit": {"kinds": ["debug"],
                       "suites": {"s_b": ["old"], "s_gone": ["x"]},
                       "suite_kinds": {"s_gone": ["debug"]}},
           "m_other": {"kinds": ["stock"], "suites": {"m_other": ["a"]}}}
    SRC = {"m_kunit": {"s_a": ["new1"], "s_b": ["b2", "b1"]}}

    def test_cases_from_sources(self):
        got = manifest_sources.regenerate(self.MAN, self.SRC)["m_kunit"]
        self.assertEqual(got["suites"], {"s_b": ["b2", "b1"], "s_a": ["new1"]})
        self.assertEqual(list(got["suites"]), ["s_b", "s_a"])

    def test_gone_suite_leaves_its_kinds(self):
        got = manifest_sources.regenerate(self.MAN, self.SRC)["m_kunit"]
        self.assertEqual(got["kinds"], ["debug"])
        self.assertNotIn("suite_kinds", got)

    def test_module_without_sources_kept(self):
        got = manifest_sources.regenerate(self.MAN, self.SRC)
        self.assertEqual(got["m_other"], self.MAN["m_other"])
        self.assertEqual(got["_comment"], ["c"])
        self.assertEqual(manifest_sources.compare(got, self.SRC),
                         ["m_other: in the manifest, but no case table found for it "
                          "(KTAP_TABLES, scripts/manifest_sources.py)"])

    def test_tree_round_trip(self):
        testdir = os.path.join(HERE, "..", "test-modules")
        with open(os.path.join(testdir, "manifest.json")) as f:
            text = f.read()
        man = json.loads(text)
        ktap, _ = manifest_sources.ktap_modules(testdir)
        src = dict(manifest_sources.kunit_modules(testdir), **ktap)
        self.assertEqual(json.dumps(manifest_sources.regenerate(man, src), indent=1) + "\n",
                         text)


if __name__ == "__main__":
    unittest.main()
