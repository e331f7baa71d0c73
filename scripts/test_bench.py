#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of make bench's verdicts: the targets scripts/bench.py judges, and
the check of pfmk_bench's line format (scripts/bench_format.py) that
make test's tiny bench run goes through.

A bench run is only as good as the script that judges it.  These build
console logs in pfmk_bench's line formats (a timed run, an
instruction-count run, the arm64 pass on the real PMU, a make test log
with the AUX copy-out lines), run
"bench.py report" on them and check, per row, the target, the figure it is
judged on and the verdict in summary.json.

usage: python3 scripts/test_bench.py   (run by make check, row harness)
"""
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench  # noqa: E402
import bench_format  # noqa: E402

# name -> {arg: (base, cand, ratio_med)}: every result a micro run must have.
MICRO = {
    "read_pmds": {1: (1000, 400, 0.400), 4: (4000, 700, 0.175), 8: (8000, 1100, 0.138)},
    "start_stop": {1: (2154, 2700, 1.254), 4: (8000, 8300, 1.040), 8: (16000, 16600, 1.040)},
    "create_close": {1: (4525, 8266, 1.830), 4: (18000, 22000, 1.222), 8: (36000, 43000, 1.194)},
    "smpl_record": {0: (156, 292, 1.920)},
    "smpl_rawrec": {0: (213, 292, 1.390)},
    "smpl_cpuclock": {0: (1000, 1010, 1.010)},
    "wakeup": {1: (45000, 50000, 1.119)},
}


def micro_lines(micro, floors, skips=("aux_copyout",)):
    out = []
    for name, per in micro.items():
        for arg, (base, cand, ratio) in per.items():
            out.append("pfmk_bench: result name=%s arg=%d base_ns=%d cand_ns=%d "
                       "ratio_med=%.3f ratio_min=%.3f rounds=11" % (
                           name, arg, base, cand, ratio, ratio * 0.9))
    for (name, arg), ns in floors.items():
        out.append("pfmk_bench: floor name=%s arg=%d kapi2_ns=%d" % (name, arg, ns))
    scales = []
    for pmds in (1, 8):
        for n in (1, 2, 4, 8):
            scales.append("pfmk_bench: scale ctxs=%d pmds=%d create_ns=%d start_ns=%d "
                          "read_ns=%d raw_start_ns=%d rounds=5" % (
                              n, pmds, 9000 * n, 1000 * n, 300 * n, 900 * n))
    out += scales
    out += ["pfmk_bench: skip name=%s reason=no_aux_patch" % s for s in skips]
    out.append("pfmk_bench: done results=%d scales=%d skips=%d" % (
        sum(len(v) for v in micro.values()), len(scales), len(skips)))
    return out


def workload_lines(per_sample):
    """Workload rounds 0 (warm-up) and 1..3 at each hz of per_sample
    {hz: (pfmk ns per sample, perf ns per sample)}, 1000 samples each."""
    out = []
    for hz, (pfmk, perf) in per_sample.items():
        for rnd in range(4):
            for variant, extra in (("none", 0), ("pfmk", pfmk), ("perf", perf)):
                out.append("pfmk-bench: run round=%d variant=%s hz=%d" % (rnd, variant, hz))
                ns = 10 ** 9 + extra * 1000
                out.append("pfmk_bench: workload hz=%d cpus=2 ns_max=%d ns_sum=%d samples=%d"
                           % (hz, ns, ns, 1000 if variant == "pfmk" else 0))
                if variant == "perf":
                    out.append("pfmk-bench: out: [ perf record: Captured and wrote 0.1 MB "
                               "perf.data (1000 samples) ]")
                out.append("pfmk-bench: end rc=0")
    return out


AUX_LOG = [
    "# aux_copy_throughput: 4 KiB buffer, 5 rounds of 100 copies: copy-out 300 MB/s, "
    "memcpy 3000 MB/s, ratio median 0.100 best 0.120",
    "# aux_copy_throughput: 1024 KiB buffer, 5 rounds of 10 copies: copy-out 2700 MB/s, "
    "memcpy 3000 MB/s, ratio median 0.900 best 0.950",
]


class Run:
    """One bench.py report over logs written to a temporary directory."""

    def __init__(self, timed, icount=None, aux_logs=None, arm64=None):
        self.dir = tempfile.TemporaryDirectory()
        d = self.dir.name
        self.argv = ["bench.py", "report",
                     self.write("timed.log", timed) if timed is not None else "-",
                     os.path.join(d, "summary.json"), "debian-6.1"]
        if icount is not None:
            self.argv.append(self.write("icount.log", icount))
        if arm64 is not None:
            self.argv += ["--arm64", self.write("arm64.log", arm64),
                          "--arm64-kernel", "debian-arm64-6.1"]
        env = os.path.join(d, "logs")
        os.mkdir(env)
        for name, lines in (aux_logs or {}).items():
            self.write(os.path.join("logs", name), lines)
        old = os.environ.get("PFMK_LOGS")
        os.environ["PFMK_LOGS"] = env
        try:
            with contextlib.redirect_stdout(io.StringIO()) as out:
                self.rc = bench.main(self.argv)
        finally:
            if old is None:
                del os.environ["PFMK_LOGS"]
            else:
                os.environ["PFMK_LOGS"] = old
        self.table = out.getvalue()
        with open(self.argv[3]) as f:
            self.summary = json.load(f)
        self.dir.cleanup()

    def write(self, name, lines):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def row(self, name, arg):
        (r,) = [r for r in self.summary["micro"] if r["name"] == name and r["arg"] == arg]
        return r

    def arm(self, name, arg):
        (r,) = [r for r in self.summary["arm64"]["rows"]
                if r["name"] == name and r["arg"] == arg]
        return r


# The arm64 pass (pfmk_bench hw=1): name -> {arg: (base, cand, ratio)}, in
# instructions; start_stop k=1 is 90 over the floor of 392.
ARM64 = {
    "read_pmds": {1: (623, 381, 0.611), 4: (2547, 930, 0.365), 7: (4472, 1480, 0.331)},
    "start_stop": {1: (3151, 3151 + 392 + 90, 1.153), 4: (22248, 22878, 1.028),
                   7: (55600, 56244, 1.011)},
    "create_close": {1: (4560, 6800, 1.491), 4: (17120, 24360, 1.435),
                     7: (27296, 32000, 1.172)},
    "smpl_hw": {1000000: (873, 959, 1.098)},
}
ARM64_FLOORS = {("start_stop", 1): 392, ("start_stop", 4): 392, ("start_stop", 7): 392}


def arm64_lines(micro=ARM64, pmu="armv8_pmuv3"):
    out = ["hw perfevents: enabled with armv8_pmuv3 PMU driver, 7 counters available",
           "pfmk_bench: pmu name=%s events=cycles,instructions ks=1,4,7" % pmu]
    for name, per in micro.items():
        for arg, (base, cand, ratio) in per.items():
            out.append("pfmk_bench: result name=%s arg=%d base_ns=%d cand_ns=%d "
                       "ratio_med=%.3f ratio_min=%.3f rounds=11" % (
                           name, arg, base, cand, ratio, ratio * 0.9))
    for (name, arg), ns in ARM64_FLOORS.items():
        out.append("pfmk_bench: floor name=%s arg=%d kapi2_ns=%d" % (name, arg, ns))
    out.append("pfmk_bench: done results=%d scales=0 skips=0" % sum(len(v) for v in micro.values()))
    return out


FLOORS = {("start_stop", 1): 354, ("start_stop", 4): 354, ("start_stop", 8): 354}
WORKLOAD = workload_lines({1000: (30000, 35000), 10000: (24000, 20000)})


def with_ratio(micro, name, arg, ratio, cand=None):
    m = {k: dict(v) for k, v in micro.items()}
    base, c, _ = m[name][arg]
    m[name][arg] = (base, c if cand is None else cand, ratio)
    return m


class Format(unittest.TestCase):
    """check_lines(): what results.py runs on make test's bench run."""

    def lines(self, micro=None, extra=()):
        # As the console has them: a printk timestamp, a line end.
        body = micro_lines(MICRO if micro is None else micro, FLOORS) + list(extra)
        return ["[   12.345678] %s\n" % x for x in body]

    def test_well_formed_run(self):
        self.assertEqual(bench_format.check_lines(self.lines()), [])

    def test_missing_result(self):
        micro = {k: dict(v) for k, v in MICRO.items()}
        del micro["start_stop"][4]
        self.assertIn("missing result start_stop arg=4",
                      bench_format.check_lines(self.lines(micro)))

    def test_malformed_line(self):
        problems = bench_format.check_lines(self.lines(extra=["pfmk_bench: result name=x"]))
        self.assertIn("malformed line: pfmk_bench: result name=x", problems)

    def test_no_done_line(self):
        lines = [x for x in self.lines() if "pfmk_bench: done" not in x]
        self.assertIn("no 'pfmk_bench: done' line", bench_format.check_lines(lines))

    def test_module_error(self):
        problems = bench_format.check_lines(self.lines(extra=["pfmk_bench: error: no PMU"]))
        self.assertIn("pfmk_bench error: no PMU", problems)


class Targets(unittest.TestCase):
    def test_target_table(self):
        # (name, k) -> (metric, bound): the targets of performance.rst.
        want = {("read_pmds", 1): ("time", 1.10), ("read_pmds", 8): ("time", 1.10),
                ("start_stop", 1): ("insns_over_floor", 100),
                ("start_stop", 4): ("time", 1.05), ("start_stop", 8): ("time", 1.05),
                ("create_close", 1): ("insns", 1.50), ("create_close", 4): ("insns", 1.20),
                ("create_close", 8): ("insns", 1.20), ("smpl_record", 0): ("time", 2.0),
                ("wakeup", 1): ("time", 1.20)}
        for (name, k), (metric, value) in want.items():
            t = bench.target_of(name, k)
            self.assertEqual((t["metric"], t["value"]), (metric, value), (name, k))
        for name in ("smpl_rawrec", "smpl_cpuclock"):
            self.assertIsNone(bench.target_of(name, 0))

    def test_judge_bounds(self):
        le = {"op": "<=", "value": 1.10}
        ge = {"op": ">=", "value": 0.5}
        self.assertEqual(bench.judge(1.10, le), "met")
        self.assertEqual(bench.judge(1.101, le), "MISSED")
        self.assertEqual(bench.judge(0.5, ge), "met")
        self.assertEqual(bench.judge(0.49, ge), "MISSED")
        self.assertEqual(bench.judge(None, le), "n/a")
        self.assertEqual(bench.judge(3.0, None), "report")


class Report(unittest.TestCase):
    def setUp(self):
        # The instruction-count run: start_stop k=1 is 2154 + 354 + 90,
        # 90 over the floor; create_close 1.45 / 1.25 / 1.15.
        imicro = with_ratio(MICRO, "start_stop", 1, 1.209, cand=2154 + 354 + 90)
        imicro = with_ratio(imicro, "create_close", 1, 1.450)
        imicro = with_ratio(imicro, "create_close", 4, 1.250)
        imicro = with_ratio(imicro, "create_close", 8, 1.150)
        self.icount = micro_lines(imicro, FLOORS)

    def test_every_row_has_target_and_verdict(self):
        run = Run(micro_lines(MICRO, FLOORS) + WORKLOAD, self.icount)
        self.assertEqual(run.rc, 0, run.table)
        for r in run.summary["micro"]:
            self.assertIn(r["verdict"], ("met", "MISSED", "n/a", "report"), r)
            if r["target"] is not None:
                self.assertIn(r["met"], (True, False), r)
                self.assertIn(r["target"]["text"], run.table)

    def test_start_stop_one_judged_over_floor(self):
        run = Run(micro_lines(MICRO, FLOORS) + WORKLOAD, self.icount)
        r = run.row("start_stop", 1)
        # Timed 1.254 would miss any ratio target; instructions over the
        # floor are 90 <= 100.
        self.assertEqual((r["measured"], r["verdict"], r["met"]), (90, "met", True))

    def test_start_stop_over_floor_missed_is_pfmk(self):
        icount = micro_lines(with_ratio(MICRO, "start_stop", 1, 1.3, cand=2154 + 354 + 101),
                             FLOORS)
        run = Run(micro_lines(MICRO, FLOORS) + WORKLOAD, icount)
        r = run.row("start_stop", 1)
        self.assertEqual((r["measured"], r["verdict"], r["attribution"]),
                         (101, "MISSED", "pfmk"))

    def test_create_close_judged_in_instructions(self):
        run = Run(micro_lines(MICRO, FLOORS) + WORKLOAD, self.icount)
        got = {k: (run.row("create_close", k)["measured"], run.row("create_close", k)["verdict"])
               for k in (1, 4, 8)}
        self.assertEqual(got, {1: (1.45, "met"), 4: (1.25, "MISSED"), 8: (1.15, "met")})

    def test_instruction_targets_not_measured_without_icount(self):
        run = Run(micro_lines(MICRO, FLOORS) + WORKLOAD)
        self.assertEqual(run.row("create_close", 1)["verdict"], "n/a")
        self.assertEqual(run.row("start_stop", 1)["verdict"], "n/a")
        self.assertEqual(run.row("read_pmds", 1)["verdict"], "met")
        self.assertGreaterEqual(run.summary["targets"]["not_measured"], 4)

    def test_time_targets(self):
        micro = with_ratio(MICRO, "start_stop", 4, 1.051)
        micro = with_ratio(micro, "read_pmds", 8, 1.2)
        run = Run(micro_lines(micro, FLOORS) + WORKLOAD, self.icount)
        self.assertEqual(run.row("start_stop", 4)["verdict"], "MISSED")
        self.assertEqual(run.row("start_stop", 8)["verdict"], "met")
        self.assertEqual(run.row("read_pmds", 8)["verdict"], "MISSED")
        self.assertEqual(run.row("smpl_record", 0)["verdict"], "met")
        self.assertEqual(run.row("smpl_rawrec", 0)["verdict"], "report")

    def test_time_miss_attributed_by_instructions(self):
        timed = with_ratio(MICRO, "smpl_record", 0, 2.5)
        run = Run(micro_lines(timed, FLOORS) + WORKLOAD, self.icount)
        self.assertEqual(run.row("smpl_record", 0)["attribution"], "emulator")
        icount = micro_lines(with_ratio(MICRO, "smpl_record", 0, 2.1), FLOORS)
        run = Run(micro_lines(timed, FLOORS) + WORKLOAD, icount)
        self.assertEqual(run.row("smpl_record", 0)["attribution"], "pfmk")

    def test_workload_judged_at_10khz_per_sample(self):
        run = Run(micro_lines(MICRO, FLOORS) + WORKLOAD, self.icount)
        wl = {w["hz"]: w for w in run.summary["workload"]}
        self.assertEqual(wl[1000]["verdict"], "report")
        # 24000 / 20000 per sample: 1.2 > 0.6.
        self.assertAlmostEqual(wl[10000]["measured"], 1.2)
        self.assertEqual((wl[10000]["verdict"], wl[10000]["met"]), ("MISSED", False))
        run = Run(micro_lines(MICRO, FLOORS) +
                  workload_lines({10000: (11000, 20000)}), self.icount)
        self.assertEqual(run.summary["workload"][0]["verdict"], "met")

    def test_aux_judged_on_kernel_without_debug_options(self):
        logs = {"debug-6.12.log": AUX_LOG, "bench-aux-6.12.log": AUX_LOG}
        run = Run(micro_lines(MICRO, FLOORS) + WORKLOAD, self.icount, logs)
        aux = {(a["kernel"], a["kib"]): a for a in run.summary["aux_copyout"]}
        self.assertEqual(aux[("debug-6.12", 4)]["verdict"], "report")
        self.assertEqual(aux[("aux-6.12", 4)]["verdict"], "MISSED")
        self.assertEqual(aux[("aux-6.12", 1024)]["verdict"], "met")

    def test_tally(self):
        run = Run(micro_lines(MICRO, FLOORS) + WORKLOAD, self.icount)
        judged = run.summary["micro"] + run.summary["workload"]
        t = run.summary["targets"]
        self.assertEqual(t["met"], sum(1 for x in judged if x["verdict"] == "met"))
        self.assertEqual(t["missed"], sum(1 for x in judged if x["verdict"] == "MISSED"))
        self.assertIn("targets: %d met, %d missed" % (t["met"], t["missed"]), run.table)


class Arm64(unittest.TestCase):
    """The arm64 pass: parsed, judged in instructions, beside the x86 rows."""

    def run_arm64(self, arm64, timed=True):
        x86 = micro_lines(MICRO, FLOORS) + WORKLOAD if timed else None
        return Run(x86, micro_lines(MICRO, FLOORS) if timed else None, arm64=arm64)

    def test_every_row_judged_in_instructions(self):
        run = self.run_arm64(arm64_lines())
        self.assertEqual(run.rc, 0, run.table)
        arm = run.summary["arm64"]
        self.assertEqual((arm["status"], arm["pmu"]["name"]), ("ok", "armv8_pmuv3"))
        got = {(r["name"], r["arg"]): (r["arch"], r["target"]["metric"], r["measured"],
                                       r["verdict"]) for r in arm["rows"]}
        self.assertEqual(got, {
            ("read_pmds", 1): ("arm64", "insns", 0.611, "met"),
            ("read_pmds", 4): ("arm64", "insns", 0.365, "met"),
            ("read_pmds", 7): ("arm64", "insns", 0.331, "met"),
            ("start_stop", 1): ("arm64", "insns_over_floor", 90, "met"),
            ("start_stop", 4): ("arm64", "insns", 1.028, "met"),
            ("start_stop", 7): ("arm64", "insns", 1.011, "met"),
            ("create_close", 1): ("arm64", "insns", 1.491, "met"),
            ("create_close", 4): ("arm64", "insns", 1.435, "MISSED"),
            ("create_close", 7): ("arm64", "insns", 1.172, "met"),
            ("smpl_hw", 1000000): ("arm64", "insns", 1.098, "met"),
        })

    def test_missed_is_pfmk_and_counted(self):
        micro = with_ratio(ARM64, "smpl_hw", 1000000, 2.01)
        micro = with_ratio(micro, "start_stop", 1, 1.2, cand=3151 + 392 + 101)
        run = self.run_arm64(arm64_lines(micro))
        self.assertEqual((run.arm("smpl_hw", 1000000)["verdict"],
                          run.arm("smpl_hw", 1000000)["attribution"]), ("MISSED", "pfmk"))
        self.assertEqual((run.arm("start_stop", 1)["measured"],
                          run.arm("start_stop", 1)["verdict"]), (101, "MISSED"))
        judged = (run.summary["micro"] + run.summary["workload"] +
                  run.summary["arm64"]["rows"])
        self.assertEqual(run.summary["targets"]["missed"],
                         sum(1 for x in judged if x["verdict"] == "MISSED"))
        self.assertIn("arm64 smpl_hw k=1000000: MISSED", run.table)

    def test_table_beside_x86_says_cycles_are_instructions(self):
        run = self.run_arm64(arm64_lines())
        self.assertIn("x86_64", {r["arch"] for r in run.summary["micro"]})
        self.assertLess(run.table.index("read_pmds vs perf_event_read_value"),
                        run.table.index("arm64 (debian-arm64-6.1, armv8_pmuv3"))
        self.assertIn("cycle counter advances once per instruction", run.table)
        self.assertIn("one dfl sample vs no-op handler (cycles ovfl irq)", run.table)

    def test_arm64_alone(self):
        run = self.run_arm64(arm64_lines(), timed=False)
        self.assertEqual(run.rc, 0, run.table)
        self.assertEqual(run.summary["micro"], [])
        self.assertEqual(len(run.summary["arm64"]["rows"]), 10)
        self.assertIn("x86 not run", run.table)
        self.assertNotIn("measurement (pfmk vs baseline)", run.table)
        self.assertNotIn("7: scaling", run.table)

    def test_missing_row_is_a_problem(self):
        micro = {k: v for k, v in ARM64.items() if k != "smpl_hw"}
        lines = [x.replace("results=10", "results=9") for x in arm64_lines(micro)]
        run = self.run_arm64(lines)
        self.assertEqual(run.rc, 1)
        self.assertIn("arm64 run: missing result smpl_hw", run.summary["problems"])

    def test_other_pmu_is_a_problem(self):
        run = self.run_arm64(arm64_lines(pmu="pfmk_test"))
        self.assertEqual(run.rc, 1)
        self.assertIn("arm64 run: hardware events on PMU pfmk_test, not armv8_pmuv3",
                      run.summary["problems"])

    def test_empty_log_is_a_problem(self):
        run = self.run_arm64(["PFMK-HOST: QEMU killed: no step began or ended"])
        self.assertEqual((run.rc, run.summary["arm64"]["status"]), (1, "no result"))


if __name__ == "__main__":
    unittest.main()
