#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the examples' output checks (scripts/examples_check.py).

Each example's output as a guest printed it (a Debian 6.12 guest, the
flight recorder's from a debug-6.12 one), which passes, and the same with
what a broken example or kernel would print instead, which fails with the
check's reason.  The count example's arm64 variant (@pmu) is tested in
scripts/test_results.py.

usage: python3 scripts/test_examples.py   (run by scripts/check.sh)
"""
import json
import os
import re
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import examples_check  # noqa: E402
import results  # noqa: E402

COUNT = """\
pfmk_example_count: CPU     cpu-clock(ns)   task-clock(ns)   ctx-switches  page-faults
pfmk_example_count: 0          3096189396       3096205700             82          334
pfmk_example_count: 1          3064263715       3064251566             68          191
pfmk_example_count: done errors=0
"""

COUNT_HW = """\
pfmk_example_count: CPU            cycles     instructions    IPC   LLC-misses
pfmk_example_count: 0          1362000000       1020750000   0.74    340250000
pfmk_example_count: 1          1456000000       1092000000   0.75    364000000
pfmk_example_count: done errors=0
"""

COUNT_STRINGS = """\
pfmk_example_count: 4 events in 2 contexts per CPU
pfmk_example_count: context 0: PMU description "msr", 1 events
pfmk_example_count: context 1: PMU description "generic", 3 events
pfmk_example_count: CPU              msr/tsc/   sched:sched_switch     context-switches            cpu-clock
pfmk_example_count: 0              7903189398                   73                   73           3028487327
pfmk_example_count: 1              7850696958                   62                   62           3021319519
pfmk_example_count: done errors=0
"""

SAMPLE = """\
pfmk_example_sample: sampling cpu-clock every 1000000 ns
pfmk_example_sample: 4452 samples of cpu-clock, 96 functions, 4 buffer restarts
pfmk_example_sample:  samples      %  function
pfmk_example_sample:     4279    96%  pv_native_safe_halt
pfmk_example_sample:       20     0%  _raw_spin_unlock_irqrestore
pfmk_example_sample:       10     0%  [user space]
pfmk_example_sample:        9     0%  finish_task_switch.isra.0
pfmk_example_sample: done errors=0
"""

SAMPLE_TP = """\
pfmk_example_sample: sampling sched:sched_switch every 2 events
pfmk_example_sample: 73 samples of sched:sched_switch, 1 functions, 0 buffer restarts
pfmk_example_sample:  samples      %  function
pfmk_example_sample:       73   100%  __schedule
pfmk_example_sample: done errors=0
"""

SETS = """\
pfmk_example_sets: CPU 0: 4 sets of 2 events, switching every 10 ms, for 3 s
pfmk_example_sets: set   runs active(ms)  share  event                     count    est. full run
pfmk_example_sets: 0       62        808    26%  cpu-clock(ns)         803840636       3082292754
pfmk_example_sets: 0       62        808    26%  ctx-switches                 49              187
pfmk_example_sets: 1       62        756    24%  task-clock(ns)        756121805       3095213808
pfmk_example_sets: 1       62        756    24%  page-faults                   5               20
pfmk_example_sets: 246 switches, switch latency mean 2721 us, max 33466 us
pfmk_example_sets: done errors=0
"""

FLIGHTREC_DEBUG = """\
pfmk_example_flightrec: snapshot 1: 16384 bytes [143744, 160128) of 160128 written, wrapped, 94592 lost
pfmk_example_flightrec: snapshot 2: 16384 bytes [304128, 320512) of 320512 written, wrapped, 254976 lost
pfmk_example_flightrec: 2 snapshots, 32768 bytes copied, 0 bad records
pfmk_example_flightrec: done errors=0
"""

FLIGHTREC_STOCK = """\
pfmk_example_flightrec: no kernel-owned AUX buffers on this kernel (needs pfmk's patch, see Documentation/aux.rst)
pfmk_example_flightrec: done errors=0
"""


def drop(text, pattern):
    """@text without its lines matching @pattern."""
    return "".join(x + "\n" for x in text.splitlines() if not re.search(pattern, x))


def problems(step, text, mode="stock"):
    return examples_check.example_problems("example:" + step, text.splitlines(), mode)


class Common(unittest.TestCase):
    def test_no_done_line(self):
        self.assertEqual(problems("pfmk_example_sets", SETS.replace("done errors=0", "")),
                         ["no 'done errors=0' line"])

    def test_other_modules_lines_ignored(self):
        # The sets' rows printed amid the count table are not its rows.
        head, _, rest = COUNT.partition("\n")
        self.assertEqual(problems("pfmk_example_count", head + "\n" + SETS + rest), [])

    def test_count_variant_without_check_not_judged(self):
        self.assertEqual(problems("pfmk_example_count@other",
                                  "pfmk_example_count: done errors=0"), [])


class Count(unittest.TestCase):
    def test_recorded_passes(self):
        self.assertEqual(problems("pfmk_example_count", COUNT), [])

    def test_cpu_without_time_fails(self):
        got = problems("pfmk_example_count", COUNT.replace("3064263715", "0"))
        self.assertEqual(got, ["CPU 1 counted no cpu-clock time"])

    def test_malformed_row_fails(self):
        got = problems("pfmk_example_count", COUNT.replace(" 191", " 191 7"))
        self.assertEqual(len(got), 1)
        self.assertIn("malformed row", got[0])

    def test_table_without_rows_fails(self):
        text = drop(COUNT, r"^pfmk_example_count: \d+\s")
        self.assertEqual(problems("pfmk_example_count", text), ["a table without rows"])


class CountHw(unittest.TestCase):
    def test_recorded_passes(self):
        self.assertEqual(problems("pfmk_example_count@hw", COUNT_HW), [])

    def test_llc_off_ratio_fails(self):
        # 8% more LLC misses than a quarter of the cycles.
        got = problems("pfmk_example_count@hw", COUNT_HW.replace("364000000", "393120000"))
        self.assertEqual(len(got), 1, got)
        self.assertIn("CPU 1:", got[0])
        self.assertIn("not the emulated 4:3:1", got[0])

    def test_instructions_off_ratio_fails(self):
        got = problems("pfmk_example_count@hw", COUNT_HW.replace("1020750000", "1090000000"))
        self.assertEqual(len(got), 1, got)
        self.assertIn("CPU 0:", got[0])

    def test_ipc_column_off_fails(self):
        got = problems("pfmk_example_count@hw", COUNT_HW.replace("0.74", "0.70"))
        self.assertEqual(len(got), 1, got)

    def test_no_cycles_fails(self):
        # Nothing counted fails whatever the IPC column says.
        got = problems("pfmk_example_count@hw",
                       COUNT_HW.replace("1362000000       1020750000   0.74    340250000",
                                        "0                0   0.75            0"))
        self.assertEqual(len(got), 1, got)

    def test_cpu_clock_table_fails(self):
        self.assertIn("no table header matching", problems("pfmk_example_count@hw", COUNT)[0])


class CountStrings(unittest.TestCase):
    def test_recorded_passes(self):
        self.assertEqual(problems("pfmk_example_count@strings", COUNT_STRINGS), [])

    def test_tracepoint_and_switches_apart_fails(self):
        # 62 against 72: more than 3 + 10% apart.
        text = COUNT_STRINGS.replace("62                   62", "62                   72")
        self.assertEqual(problems("pfmk_example_count@strings", text),
                         ["CPU 1: sched:sched_switch 62, context-switches 72"])

    def test_tracepoint_and_switches_close_passes(self):
        # 62 against 71: 3 + 10% of 62 is 9.
        text = COUNT_STRINGS.replace("62                   62", "62                   71")
        self.assertEqual(problems("pfmk_example_count@strings", text), [])

    def test_column_not_counted_fails(self):
        text = COUNT_STRINGS.replace("7850696958", "0")
        self.assertEqual(problems("pfmk_example_count@strings", text),
                         ["CPU 1 counted no msr/tsc/"])

    def test_no_header_fails(self):
        text = drop(COUNT_STRINGS, r": CPU\s")
        self.assertEqual(problems("pfmk_example_count@strings", text), ["no table header"])


class Sample(unittest.TestCase):
    def test_recorded_passes(self):
        self.assertEqual(problems("pfmk_example_sample", SAMPLE), [])

    def test_no_samples_fails(self):
        got = problems("pfmk_example_sample", SAMPLE.replace("4452 samples", "0 samples"))
        self.assertEqual(got, ["no samples: 0 samples of cpu-clock, 96 functions, "
                               "4 buffer restarts"])

    def test_no_summary_line_fails(self):
        got = problems("pfmk_example_sample", SAMPLE.replace("4452 samples of", "samples of"))
        self.assertEqual(got, ["no 'N samples of EVENT, N functions, N buffer restarts' line"])

    def test_only_user_space_fails(self):
        text = drop(SAMPLE, r"\d+%\s+[\w.]+$")
        self.assertEqual(problems("pfmk_example_sample", text),
                         ["no kernel function among the top samples"])

    def test_table_without_rows_fails(self):
        text = drop(SAMPLE, r"\d+%\s")
        self.assertEqual(problems("pfmk_example_sample", text), ["a table without rows"])

    def test_tracepoint_recorded_passes(self):
        self.assertEqual(problems("pfmk_example_sample@tracepoint", SAMPLE_TP), [])

    def test_tracepoint_outside_scheduler_fails(self):
        got = problems("pfmk_example_sample@tracepoint",
                       SAMPLE_TP.replace("__schedule", "do_syscall_64"))
        self.assertEqual(got, ["sched:sched_switch samples outside the scheduler: "
                               "['do_syscall_64']"])

    def test_cpu_clock_top_need_not_be_scheduler(self):
        # Only the tracepoint variant asks for the scheduler.
        self.assertEqual(problems("pfmk_example_sample@cycles",
                                  SAMPLE_TP.replace("__schedule", "do_syscall_64")), [])


class Sets(unittest.TestCase):
    def test_recorded_passes(self):
        self.assertEqual(problems("pfmk_example_sets", SETS), [])

    def test_no_switches_fails(self):
        got = problems("pfmk_example_sets", SETS.replace("246 switches", "0 switches"))
        self.assertEqual(got, ["no set switches"])

    def test_no_set_rows_fails(self):
        text = drop(SETS, r"\d+%\s")
        self.assertEqual(problems("pfmk_example_sets", text), ["no set rows"])


class Flightrec(unittest.TestCase):
    def test_debug_recorded_passes(self):
        self.assertEqual(problems("pfmk_example_flightrec", FLIGHTREC_DEBUG, "debug"), [])

    def test_debug_bad_records_fail(self):
        text = FLIGHTREC_DEBUG.replace("0 bad records", "1 bad records")
        self.assertEqual(problems("pfmk_example_flightrec", text, "debug"),
                         ["2 snapshots, 32768 bytes copied, 1 bad records"])

    def test_debug_no_snapshots_fail(self):
        text = FLIGHTREC_DEBUG.replace("2 snapshots", "0 snapshots")
        self.assertEqual(len(problems("pfmk_example_flightrec", text, "debug")), 1)

    def test_debug_without_aux_fails(self):
        self.assertEqual(problems("pfmk_example_flightrec", FLIGHTREC_STOCK, "debug"),
                         ["no snapshot summary on a patched kernel"])

    def test_stock_recorded_passes(self):
        self.assertEqual(problems("pfmk_example_flightrec", FLIGHTREC_STOCK, "stock"), [])

    def test_stock_without_no_aux_line_fails(self):
        self.assertEqual(problems("pfmk_example_flightrec", FLIGHTREC_DEBUG, "stock"),
                         ["no 'no kernel-owned AUX buffers' line on an unpatched kernel"])


class ResultsRow(unittest.TestCase):
    """results.py judges an example step with these checks."""

    def row(self, text):
        plan = {"kernel": "fixture", "mode": "stock", "missing_modules": [],
                "expected_skips": {},
                "steps": [{"name": "example:pfmk_example_sets", "kind": "example",
                           "missing_module": False}]}
        log = "PFMK-STEP-BEGIN example:pfmk_example_sets\n%sPFMK-STEP-END " \
              "example:pfmk_example_sets rc=0\nPFMK-PLAN-DONE\n" % text
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "plan.json"), "w") as f:
                json.dump(plan, f)
            with open(os.path.join(d, "console.log"), "w") as f:
                f.write(log)
            rows = results.parse("fixture", os.path.join(d, "console.log"),
                                 os.path.join(d, "plan.json"), 0)
        r = {x["suite"]: x for x in rows}["example:pfmk_example_sets"]
        return r["passed"], r["failed"], r["notes"]

    def test_passing_output(self):
        self.assertEqual(self.row(SETS), (1, 0, []))

    def test_failing_output(self):
        self.assertEqual(self.row(SETS.replace("246 switches", "0 switches")),
                         (0, 1, ["no set switches"]))


if __name__ == "__main__":
    unittest.main()
