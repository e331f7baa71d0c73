#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The line format of a pfmk_bench micro run, and its check.

pfmk_bench (test-modules/pfmk_bench_main.c) prints one line per result,
floor, scaling point and skip, then a "done" line that counts them.
parse_micro() reads those lines and lists what is malformed or missing;
check_lines() is that check alone.  Two scripts need it: bench.py, which
judges make bench's numbers, and results.py, which only checks that make
test's tiny bench run is well-formed.  It lives here so that neither
imports the other; scripts/test_bench.py tests it (make check).
"""

import math
import re

PREFIX_RE = re.compile(r"^(\[\s*\d+\.\d+\]\s?)?(\[\s*[TC]\d+\]\s?)?")
NUM = r"(\d+)"
RATIO = r"(\d+\.\d{3})"
RESULT_RE = re.compile(
    r"pfmk_bench: result name=(\w+) arg=%s base_ns=%s cand_ns=%s "
    r"ratio_med=%s ratio_min=%s rounds=%s\s*$" % (NUM, NUM, NUM, RATIO, RATIO, NUM))
SCALE_RE = re.compile(
    r"pfmk_bench: scale ctxs=%s pmds=%s create_ns=%s start_ns=%s read_ns=%s "
    r"raw_start_ns=%s rounds=%s\s*$" % ((NUM,) * 7))
FLOOR_RE = re.compile(r"pfmk_bench: floor name=(\w+) arg=(\d+) kapi2_ns=(\d+)")
SKIP_RE = re.compile(r"pfmk_bench: skip name=(\w+) reason=(\S+)\s*$")
DONE_RE = re.compile(r"pfmk_bench: done results=%s scales=%s skips=%s\s*$" % ((NUM,) * 3))
ERROR_RE = re.compile(r"pfmk_bench: error: (.*)$")
WL_RE = re.compile(r"pfmk_bench: workload hz=%s cpus=%s ns_max=%s ns_sum=%s samples=%s\s*$"
                   % ((NUM,) * 5))

# What one micro run must contain: (name, args).
EXPECTED = [
    ("read_pmds", (1, 4, 8)),
    ("start_stop", (1, 4, 8)),
    ("create_close", (1, 4, 8)),
    ("smpl_record", None),
    ("smpl_rawrec", None),
    ("smpl_cpuclock", None),
    ("wakeup", None),
]
EXPECTED_SKIPS = ["aux_copyout"]
PMU_RE = re.compile(r"pfmk_bench: pmu name=(\S+) events=(\S+) ks=(\S+)\s*$")
# Items whose per-operation cost is a difference of two timings.
DIFFERENCE_ITEMS = {"smpl_cpuclock"}


def clean(line):
    return PREFIX_RE.sub("", line.rstrip("\r\n"), count=1)


def _micro_line(text, out, problems):
    """Record one pfmk_bench line of a micro run in out: a result, scale,
    floor, skip, done or pmu line; an error line or a malformed one is a
    problem; workload lines are left to parse_workload()."""
    m = PMU_RE.search(text)
    if m:
        out["pmu"] = {"name": m.group(1), "events": m.group(2), "ks": m.group(3)}
        return
    m = RESULT_RE.search(text)
    if m:
        out["results"].append({
            "name": m.group(1), "arg": int(m.group(2)),
            "base_ns": int(m.group(3)), "cand_ns": int(m.group(4)),
            "ratio_med": float(m.group(5)), "ratio_min": float(m.group(6)),
            "rounds": int(m.group(7))})
        return
    m = SCALE_RE.search(text)
    if m:
        v = [int(x) for x in m.groups()]
        out["scales"].append({"ctxs": v[0], "pmds": v[1], "create_ns": v[2],
                              "start_ns": v[3], "read_ns": v[4], "raw_start_ns": v[5],
                              "rounds": v[6]})
        return
    m = FLOOR_RE.search(text)
    if m:
        out["floors"][(m.group(1), int(m.group(2)))] = int(m.group(3))
        return
    m = SKIP_RE.search(text)
    if m:
        out["skips"].append({"name": m.group(1), "reason": m.group(2)})
        return
    m = DONE_RE.search(text)
    if m:
        out["done"] = [int(x) for x in m.groups()]
        return
    m = ERROR_RE.search(text)
    if m:
        problems.append("pfmk_bench error: " + m.group(1).strip())
        return
    if WL_RE.search(text):
        return
    if re.search(r"pfmk_bench: (result|scale|skip|done)\b", text):
        problems.append("malformed line: " + text.strip())


def _micro_missing(out, expected):
    """The problems of a micro run as a whole: no done line or one that
    disagrees with what was parsed, and each expected result missing."""
    problems = []
    if out["done"] is None:
        problems.append("no 'pfmk_bench: done' line")
    elif out["done"] != [len(out["results"]), len(out["scales"]), len(out["skips"])]:
        problems.append("done line says %s results/scales/skips, parsed %d/%d/%d" % (
            out["done"], len(out["results"]), len(out["scales"]), len(out["skips"])))
    have = {(r["name"], r["arg"]) for r in out["results"]}
    names = {r["name"] for r in out["results"]}
    for name, args in expected:
        if args is None:
            if name not in names:
                problems.append("missing result %s" % name)
            continue
        for a in args:
            if (name, a) not in have:
                problems.append("missing result %s arg=%d" % (name, a))
    return problems


def _micro_insane(results):
    """The results whose figures cannot be a measurement, as problems.

    Sanity bounds, not performance targets: a median ratio that is
    zero, negative or not finite means a broken measurement.  The
    best round may be 0: the module prints ratios to 1/1000, and a
    per-sample cost computed as a difference of two timings
    (DIFFERENCE_ITEMS) can be lost in the noise of one round (it then
    counts 1 ns against a base of microseconds).  For those items the
    median may be 0 for the same reason in a short run.
    """
    problems = []
    for r in results:
        if r["base_ns"] == 0 and r["cand_ns"] == 0:
            problems.append("%s arg=%d: no time measured" % (r["name"], r["arg"]))
        elif not (0 <= r["ratio_min"] <= r["ratio_med"] < math.inf) or \
                (r["ratio_med"] == 0 and r["name"] not in DIFFERENCE_ITEMS):
            problems.append("%s arg=%d: ratio median %s best %s out of sanity bounds" % (
                r["name"], r["arg"], r["ratio_med"], r["ratio_min"]))
    return problems


def parse_micro(lines, expected=None, expected_skips=None, scales=True):
    """Parse a micro run (by default x86's: EXPECTED, EXPECTED_SKIPS and a
    scaling run). Returns (dict, problems)."""
    expected = EXPECTED if expected is None else expected
    expected_skips = EXPECTED_SKIPS if expected_skips is None else expected_skips
    out = {"results": [], "scales": [], "skips": [], "done": None, "floors": {},
           "pmu": None}
    problems = []
    for text in lines:
        if "pfmk_bench: " in text:
            _micro_line(text, out, problems)
    problems += _micro_missing(out, expected)
    problems += _micro_insane(out["results"])
    if scales and not out["scales"]:
        problems.append("no scaling lines")
    for s in expected_skips:
        if s not in {x["name"] for x in out["skips"]}:
            problems.append("missing skip line for %s" % s)
    return out, problems


def check_lines(lines):
    """Problems of a micro run's output (empty list: well-formed)."""
    return parse_micro([clean(x) for x in lines])[1]
