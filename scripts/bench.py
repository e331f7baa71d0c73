#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""pfmk benchmarks: parse pfmk_bench output, check it, print the table.

usage:
  bench.py report <console.log|-> <summary.json> [kernel-id [icount.log]]
                  [--arm64 <arm64.log> [--arm64-kernel <kernel-id>]]
  bench.py check <console.log>

"report" prints the table of scripts/bench.sh (make bench) and writes the
machine-readable summary; it exits 1 if the output is malformed or a
measurement is missing.  With icount.log, the console log of make bench's
instruction-count pass (the micro run alone in QEMU's icount mode, where
1 ns of guest time is one instruction), it also prints the instruction
ratios and, for each missed target, whether the instructions miss it too
(the gap is pfmk's) or meet it (the emulator's); an icount log that holds
no result is a problem, one with gaps only a note.  "check" only
validates the micro run (check_lines() of scripts/bench_format.py, which
scripts/results.py runs on make test's tiny run).  "-" for console.log:
no x86 run.

With --arm64, the console log of make bench's arm64 pass (pfmk_bench hw=1
on Linux's armv8_pmuv3 driver, in QEMU's icount mode on one vCPU: every
figure is a count of instructions, and QEMU's cycle counter advances once
per instruction), its rows are parsed (EXPECTED_ARM64), judged on the
same targets in instructions (arm64_rows()) and printed in a table of
their own; summary.json holds them under "arm64", and every judged row
says its architecture ("arch").  A missing or incomplete arm64 log is a
problem.

The module's line formats are documented in test-modules/pfmk_bench_main.c and
the method in Documentation/performance.rst.  Every row with a target is
judged here, on the figure the target names (TARGETS): the time or the
instruction ratio (medians of the per-round ratios) or the instructions
over the printed floor; summary.json holds target, measured figure and
verdict per row.  Nothing in make test judges them.
"""

import glob
import io
import json
import os
import re
import statistics
import sys

from bench_format import WL_RE, check_lines, clean, parse_micro

RUN_RE = re.compile(r"pfmk-bench: run round=(\d+) variant=(\w+) hz=(\d+)")
RUN_END_RE = re.compile(r"pfmk-bench: end rc=(-?\d+)")
PERF_SAMPLES_RE = re.compile(r"pfmk-bench: out: \[ perf record: Captured .*\((\d+) samples\)")

# The arm64 pass (hw=1): the counting rows at k = 1, 4 and every counter of
# QEMU's PMUv3 (BENCH_HW_MAX_K), one sample on a cycles overflow; no
# scaling run, no skip.
EXPECTED_ARM64 = [
    ("read_pmds", (1, 4, 7)),
    ("start_stop", (1, 4, 7)),
    ("create_close", (1, 4, 7)),
    ("smpl_hw", None),
]
ARM64_PMU = "armv8_pmuv3"

# The targets of Documentation/performance.rst, judged by this script.  A
# target names the figure it is judged on:
#   time       the median of the per-round time ratios pfmk / baseline
#   insns      the same ratio in the instruction-count run
#   insns_over_floor  pfmk's instructions per operation over the baseline's,
#              minus the floor the bench prints (two locked KAPI calls)
# and the bound that figure must meet ("<=" for costs).  k is the number of
# events of the row (its arg); a target with k None applies to every k.
TARGETS = [
    # name, k (None: every k; ">=4": from 4 up), metric, bound
    ("read_pmds", None, "time", 1.10),
    ("start_stop", 1, "insns_over_floor", 100),
    ("start_stop", ">=4", "time", 1.05),
    ("create_close", 1, "insns", 1.50),
    ("create_close", ">=4", "insns", 1.20),
    ("smpl_record", None, "time", 2.0),
    ("smpl_hw", None, "insns", 2.0),
    ("wakeup", None, "time", 1.20),
]
# The workload (item 6), per sample, judged at this frequency only.
WORKLOAD_TARGET_HZ = 10000
WORKLOAD_TARGET = 0.6   # pfmk's cost per sample / perf record's


def target_of(name, arg):
    """The target of a row as a dict (metric, op, value, text), or None."""
    for n, k, metric, value in TARGETS:
        if n != name:
            continue
        if k is None or k == arg or (k == ">=4" and arg >= 4):
            unit = {"time": "", "insns": " insn", "insns_over_floor": " insns"}[metric]
            text = ("<=%d%s over floor" % (value, unit) if metric == "insns_over_floor"
                    else "<=%.2f%s" % (value, unit))
            return {"metric": metric, "op": "<=", "value": value, "text": text}
    return None


def judge(measured, target):
    """"met", "MISSED", "n/a" (target, figure not measured) or "report"."""
    if target is None:
        return "report"
    if measured is None:
        return "n/a"
    ok = measured <= target["value"] if target["op"] == "<=" else measured >= target["value"]
    return "met" if ok else "MISSED"


ITEM = {"read_pmds": 1, "start_stop": 2, "create_close": 3, "smpl_record": 4, "smpl_rawrec": 4,
        "smpl_cpuclock": 4, "smpl_hw": 4, "wakeup": 5}
LABEL = {
    "read_pmds": "read_pmds vs perf_event_read_value",
    "start_stop": "start+stop vs enable+disable",
    "create_close": "create+write_pmcs+load+close vs create+release",
    "smpl_record": "one dfl sample vs no-op handler (test PMU)",
    "smpl_rawrec": "one dfl sample vs handler recording same entry",
    "smpl_cpuclock": "one dfl sample vs counting handler (cpu-clock)",
    "wakeup": "overflow -> waiting kthread vs irq_work ping-pong",
    "smpl_hw": "one dfl sample vs no-op handler (cycles ovfl irq)",
}


def parse_workload(lines):
    """Workload runs: list of dicts round, variant, hz, rc, ns_sum, ns_max, ..."""
    runs, cur = [], None
    for text in lines:
        m = RUN_RE.search(text)
        if m:
            cur = {"round": int(m.group(1)), "variant": m.group(2), "hz": int(m.group(3)),
                   "rc": None, "ns_sum": None, "ns_max": None, "samples": None}
            runs.append(cur)
            continue
        if cur is None:
            continue
        m = WL_RE.search(text)
        if m:
            cur["ns_max"] = int(m.group(3))
            cur["ns_sum"] = int(m.group(4))
            if not cur["variant"].startswith("perf"):
                cur["samples"] = int(m.group(5))
            continue
        m = PERF_SAMPLES_RE.search(text)
        if m:
            cur["samples"] = int(m.group(1))
            continue
        m = RUN_END_RE.search(text)
        if m:
            cur["rc"] = int(m.group(1))
            cur = None
    return runs


def _workload_by_round(runs, problems):
    """{hz: {round: {variant: run}}} of the runs that exited 0 with a
    time; each other run is a problem."""
    by = {}
    for r in runs:
        if r["rc"] != 0 or r["ns_sum"] is None:
            problems.append("workload run round=%d %s %d Hz failed (rc=%s)" % (
                r["round"], r["variant"], r["hz"], r["rc"]))
            continue
        by.setdefault(r["hz"], {}).setdefault(r["round"], {})[r["variant"]] = r
    return by


def _own_ratio(v, base, cost):
    """pfmk's cost above the floor over perf record's (at pfmk's period if
    measured) in one round, or None.  The floor: raw events whose handler
    only counts; what is left above it is the sampler's own."""
    if "raw" in v and v["raw"]["samples"] and "pfmk" in cost:
        floor = (v["raw"]["ns_sum"] - base) / v["raw"]["samples"]
        ref = cost.get("perf")
        if "perfc" in v and v["perfc"]["samples"]:
            ref = (v["perfc"]["ns_sum"] - base) / v["perfc"]["samples"]
        if ref is not None and ref - floor > 0:
            return (cost["pfmk"] - floor) / (ref - floor)
    return None


def _workload_round(v, acc):
    """Add one complete round v ({variant: run}) to the accumulators acc:
    slowdowns, their ratio, samples and cost per sample.

    Per sample: extra ns over the same round's unsampled run, divided
    by the samples that run took (the only fair figure when the two
    tools take different numbers of samples at the same rate).
    """
    base = v["none"]["ns_sum"]
    a = v["pfmk"]["ns_sum"] / base - 1
    b = v["perf"]["ns_sum"] / base - 1
    acc["sp"].append(a)
    acc["sf"].append(b)
    if b > 0:
        acc["ratios"].append(a / b)
    samples, per = acc["samples"], acc["per"]
    for s in ("pfmk", "perf"):
        if v[s]["samples"] is not None:
            samples[s].append(v[s]["samples"])
    cost = {}
    for s in ("pfmk", "perf"):
        if v[s]["samples"]:
            cost[s] = (v[s]["ns_sum"] - base) / v[s]["samples"]
            per[s].append(cost[s])
    if len(cost) == 2 and cost["perf"] > 0:
        acc["per_ratios"].append(cost["pfmk"] / cost["perf"])
    # Optional variants: perf record at pfmk's fixed period (the
    # same sample count), and the floor.
    for s in ("perfc", "raw"):
        if s in v and v[s]["samples"]:
            per.setdefault(s, []).append((v[s]["ns_sum"] - base) / v[s]["samples"])
            samples.setdefault(s, []).append(v[s]["samples"])
    own = _own_ratio(v, base, cost)
    if own is not None:
        acc["own_ratios"].append(own)


def _med(xs):
    """The median of xs, None if empty or missing."""
    return statistics.median(xs) if xs else None


def _workload_row(hz, by_round, rounds, acc):
    """The summary row of one frequency from its accumulated rounds."""
    sp, sf, ratios, samples = acc["sp"], acc["sf"], acc["ratios"], acc["samples"]
    per, per_ratios, own_ratios = acc["per"], acc["per_ratios"], acc["own_ratios"]
    return {
        "hz": hz, "rounds": len(sp),
        "slowdown_pfmk_med": statistics.median(sp),
        "slowdown_perf_med": statistics.median(sf),
        "ratio_med": _med(ratios),
        "ratio_of_medians": (statistics.median(sp) / statistics.median(sf)
                             if statistics.median(sf) > 0 else None),
        "ratio_min": min(ratios) if ratios else None,
        "rounds_perf_not_slower": len(sp) - len(ratios),
        "samples_pfmk_med": _med(samples["pfmk"]),
        "samples_perf_med": _med(samples["perf"]),
        "none_ns_sum_med": statistics.median(by_round[k]["none"]["ns_sum"] for k in rounds
                                             if "none" in by_round[k]),
        "ns_per_sample_pfmk_med": _med(per["pfmk"]),
        "ns_per_sample_perf_med": _med(per["perf"]),
        "per_sample_ratio_med": _med(per_ratios),
        "per_sample_ratio_of_medians": (
            statistics.median(per["pfmk"]) / statistics.median(per["perf"])
            if per["pfmk"] and per["perf"] and statistics.median(per["perf"]) > 0
            else None),
        "per_sample_ratio_min": min(per_ratios) if per_ratios else None,
        "samples_perfc_med": _med(samples.get("perfc")),
        "samples_raw_med": _med(samples.get("raw")),
        "ns_per_sample_perfc_med": _med(per.get("perfc")),
        "ns_per_sample_floor_med": _med(per.get("raw")),
        "own_ratio_med": _med(own_ratios),
        "own_ratio_min": min(own_ratios) if own_ratios else None,
        "own_ratio_max": max(own_ratios) if own_ratios else None,
        "per_sample_ratio_max": max(per_ratios) if per_ratios else None,
    }


def workload_summary(runs):
    """Per frequency: slowdowns and the pfmk/perf ratio over measured rounds."""
    problems = []
    by = _workload_by_round(runs, problems)
    out = []
    for hz in sorted(by):
        rounds = sorted(k for k in by[hz] if k > 0)   # round 0: warm-up
        acc = {"sp": [], "sf": [], "ratios": [], "samples": {"pfmk": [], "perf": []},
               "per": {"pfmk": [], "perf": []}, "per_ratios": [], "own_ratios": []}
        for k in rounds:
            v = by[hz][k]
            if not all(x in v for x in ("none", "pfmk", "perf")):
                problems.append("workload %d Hz round %d incomplete" % (hz, k))
                continue
            _workload_round(v, acc)
        if not acc["sp"]:
            problems.append("workload %d Hz: no measured round" % hz)
            continue
        out.append(_workload_row(hz, by[hz], rounds, acc))
    return out, problems


def fit(xs, ys):
    """Least squares y = a + b x: (a, b, r2)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    b = sxy / sxx if sxx else 0.0
    a = my - b * mx
    ss_tot = sum((y - my) ** 2 for y in ys)
    ss_res = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    r2 = 1 - ss_res / ss_tot if ss_tot else 1.0
    return a, b, r2


def scaling_summary(scales):
    """Per PMDs-per-context and metric: slope (ns per context), R^2, linear?"""
    out = []
    for p in sorted({s["pmds"] for s in scales}):
        pts = sorted((s for s in scales if s["pmds"] == p), key=lambda s: s["ctxs"])
        if len(pts) < 2:
            continue
        xs = [s["ctxs"] for s in pts]
        for metric in ("create_ns", "start_ns", "read_ns", "raw_start_ns"):
            ys = [s[metric] for s in pts]
            a, b, r2 = fit(xs, ys)
            # Marginal cost over the last doubling vs the first one.
            first = (ys[1] - ys[0]) / (xs[1] - xs[0])
            last = (ys[-1] - ys[-2]) / (xs[-1] - xs[-2])
            growth = last / first if first > 0 else None
            linear = r2 >= 0.98 and growth is not None and growth <= 2.0
            out.append({"pmds": p, "metric": metric[:-3], "ctxs": xs, "ns": ys,
                        "slope_ns_per_ctx": b, "intercept_ns": a, "r2": r2,
                        "marginal_growth": growth, "linear": linear})
    return out


# AUX copy-out bytes/s / memcpy bytes/s, at least this, by buffer size in KiB
# (a fixed cost per call weighs most on the smallest buffer).
# Judged only on a kernel without debug options (kernel ids debug-* report).
AUX_TARGETS = {4: 0.2, 64: 0.5, 1024: 0.8}
AUX_RE = re.compile(r"# aux_copy_throughput: (\d+) KiB buffer, (\d+) rounds of (\d+) copies: "
                    r"copy-out (\d+) MB/s, memcpy (\d+) MB/s, ratio median ([\d.]+) best ([\d.]+)")


AUX_CALL_RE = re.compile(r"# aux_copy_throughput: (\d+) KiB buffer, ns per call: copy-out (\d+), "
                         r"memcpy (\d+), pfmk_get_state (\d+)")


def aux_copyout():
    """Item 8: pfmk_aux_smoke's copy-out figures need the AUX kernel
    patch, which Debian's kernels lack.  Parsed from make bench's AUX run
    on the patched kernel without debug options ($PFMK_LOGS/bench-aux-*.log,
    judged) and from the last make test's debug kernels
    ($PFMK_LOGS/debug-*.log, reported only)."""
    logs = os.environ.get("PFMK_LOGS", "")
    out = []
    paths = []
    if logs:
        paths = sorted(glob.glob(os.path.join(logs, "debug-*.log")) +
                       glob.glob(os.path.join(logs, "bench-aux-*.log")))
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                c = AUX_CALL_RE.search(clean(line))
                if c:
                    kib = int(c.group(1))
                    for a in out:
                        if a["log"] == path and a["kib"] == kib:
                            a.update(copy_ns=int(c.group(2)), memcpy_ns=int(c.group(3)),
                                     call_ns=int(c.group(4)))
                m = AUX_RE.search(clean(line))
                if m:
                    kib, rounds, loops, mbc, mbm = (int(x) for x in m.groups()[:5])
                    out.append(dict(kernel=os.path.basename(path)[:-4].replace("bench-", "", 1), kib=kib,
                                    rounds=rounds, copies=loops, copyout_mbs=mbc,
                                    memcpy_mbs=mbm, ratio_med=float(m.group(6)),
                                    ratio_best=float(m.group(7)), log=path))
    return out


def parse_icount(path):
    """The micro run of the instruction-count pass: (micro or None, notes).
    None when the log is missing or holds no result line."""
    try:
        with open(path, errors="replace") as f:
            lines = [clean(x) for x in f]
    except OSError as e:
        return None, ["cannot read %s: %s" % (path, e.strerror)]
    micro, notes = parse_micro(lines)
    if not micro["results"]:
        # Not the list of every missing item: what went wrong, if known.
        notes = ["no result line"] + [n for n in notes if n.startswith(
            ("pfmk_bench error", "malformed"))]
    if any(x.startswith("PFMK-HOST: QEMU killed") for x in lines):
        notes.append("QEMU timed out")
    return (micro if micro["results"] else None), notes


def icount_match(micro, name, arg):
    """The icount result for a timed row: the same name and arg or, when it
    has a single one, the same name (wakeup's arg says whether the waiter
    had a CPU of its own, which one vCPU cannot give it)."""
    same = [r for r in micro["results"] if r["name"] == name]
    for r in same:
        if r["arg"] == arg:
            return r
    return same[0] if len(same) == 1 else None


def attribution(verdict_, metric, insn_ratio, bound):
    """Whose is a missed target.  One judged in instructions is pfmk's: the
    instructions are its own.  One judged in time is pfmk's if the
    instruction ratio misses the same bound too, the emulator's if it meets
    it, n/a without an instruction count."""
    if verdict_ != "MISSED":
        return None
    if metric in ("insns", "insns_over_floor"):
        return "pfmk"
    if insn_ratio is None or bound is None:
        return "n/a"
    return "pfmk" if insn_ratio > bound else "emulator"


def arm64_rows(path, kernel):
    """The arm64 pass (pfmk_bench hw=1 in QEMU's icount mode): (the summary's
    "arm64" dict, problems).  Every figure is instructions, so every target
    is judged on instructions: the median ratio (a target judged on time in
    the x86 run) or pfmk's instructions over the floor; a missed one is
    pfmk's (attribution())."""
    out = {"log": path, "kernel": kernel, "status": "ok", "pmu": None, "rows": [],
           "emulated": "QEMU TCG -icount shift=0, one vCPU: cycles = instructions"}
    try:
        with open(path, errors="replace") as f:
            lines = [clean(x) for x in f]
    except OSError as e:
        out["status"] = "no result"
        return out, ["arm64 run: cannot read %s: %s" % (path, e.strerror)]
    micro, problems = parse_micro(lines, EXPECTED_ARM64, [], scales=False)
    out["pmu"] = micro["pmu"]
    if micro["pmu"] is None:
        problems.append("no 'pfmk_bench: pmu' line")
    elif micro["pmu"]["name"] != ARM64_PMU:
        problems.append("hardware events on PMU %s, not %s" % (micro["pmu"]["name"], ARM64_PMU))
    if any(x.startswith("PFMK-HOST: QEMU killed") for x in lines):
        problems.append("QEMU timed out")
    for r in micro["results"]:
        t = target_of(r["name"], r["arg"])
        if t is not None and t["metric"] == "time":
            t = dict(t, metric="insns", text=t["text"] + " insn")
        floor = micro["floors"].get((r["name"], r["arg"]))
        over = r["cand_ns"] - r["base_ns"] - floor if floor is not None else None
        metric = t["metric"] if t else None
        measured = {"insns": r["ratio_med"], "insns_over_floor": over, None: None}[metric]
        v = judge(measured, t)
        out["rows"].append({
            "arch": "arm64", "kernel": kernel, "name": r["name"], "arg": r["arg"],
            "item": ITEM[r["name"]], "target": t, "base_insns": r["base_ns"],
            "cand_insns": r["cand_ns"], "delta_insns": r["cand_ns"] - r["base_ns"],
            "ratio_med": r["ratio_med"], "ratio_min": r["ratio_min"], "rounds": r["rounds"],
            "kapi2_insns": floor, "insns_over_floor": over, "measured": measured,
            "verdict": v, "met": {"met": True, "MISSED": False}.get(v),
            "attribution": attribution(v, metric, None, None)})
    if problems:
        out["status"] = "problems" if micro["results"] else "no result"
    return out, ["arm64 run: " + p for p in problems]


def judged_label(x):
    """A short name for a judged row of the micro run, workload or AUX."""
    if x.get("arch") == "arm64":
        return "arm64 %s k=%d" % (x["name"], x["arg"])
    if "hz" in x:
        return "workload %d Hz" % x["hz"]
    if "kib" in x:
        return "aux_copyout %s %d KiB" % (x["kernel"], x["kib"])
    return "%s k=%d" % (x["name"], x["arg"])


def read_log(log):
    """The cleaned lines of a console log; none for "-" (no x86 run)."""
    if log == "-":
        return []
    with open(log, errors="replace") as f:
        return [clean(x) for x in f]


def timed_rows(micro):
    """The timed run's micro rows, each with its item, target and cost over raw."""
    rows = []
    for r in micro["results"]:
        rows.append(dict(r, arch="x86_64", item=ITEM[r["name"]],
                         target=target_of(r["name"], r["arg"]),
                         delta_ns=r["cand_ns"] - r["base_ns"],
                         kapi2_ns=micro["floors"].get((r["name"], r["arg"]))))
    return rows


def judge_workload(wl):
    """Decide each workload row's target and verdict (only WORKLOAD_TARGET_HZ
    is judged, per sample: slowdowns divided by samples taken)."""
    for w in wl:
        w["arch"] = "x86_64"
        t = None
        if w["hz"] == WORKLOAD_TARGET_HZ:
            t = {"metric": "time", "op": "<=", "value": WORKLOAD_TARGET,
                 "text": "<=%.2f" % WORKLOAD_TARGET}
        w["target"] = t
        w["measured"] = w["per_sample_ratio_med"]
        w["verdict"] = judge(w["measured"], t)
        w["met"] = {"met": True, "MISSED": False}.get(w["verdict"])


def load_icount(icount_log, problems):
    """Parse the instruction-count pass: (icount summary, its micro or None).
    Decides its status; a log without a result is added to problems."""
    icount = {"log": icount_log, "status": "not run", "notes": [], "rows": [],
              "attributions": []}
    imicro = None
    if icount_log is not None:
        imicro, icount["notes"] = parse_icount(icount_log)
        if imicro is None:
            icount["status"] = "no result"
            problems.append("icount run: no result in %s%s" % (
                icount_log, ": " + "; ".join(icount["notes"]) if icount["notes"] else ""))
        else:
            icount["status"] = "problems" if icount["notes"] else "ok"
    return icount, imicro


def judge_row(r, imicro):
    """Decide one timed row's measured figure, verdict and attribution from
    its target's metric; return the matching icount result (or None)."""
    m = icount_match(imicro, r["name"], r["arg"]) if imicro else None
    ratio = m["ratio_med"] if m else None
    t = r["target"]
    r["insn_ratio_med"] = ratio
    r["insns_over_floor"] = None
    if m and m["arg"] == r["arg"] and (m["name"], m["arg"]) in imicro["floors"]:
        r["insns_over_floor"] = (m["cand_ns"] - m["base_ns"] -
                                 imicro["floors"][(m["name"], m["arg"])])
    metric = t["metric"] if t else None
    r["measured"] = {"time": r["ratio_med"], "insns": ratio,
                     "insns_over_floor": r["insns_over_floor"], None: None}[metric]
    r["verdict"] = judge(r["measured"], t)
    r["met"] = {"met": True, "MISSED": False}.get(r["verdict"])
    r["attribution"] = attribution(r["verdict"], metric, ratio, t["value"] if t else None)
    return m


def judge_rows(rows, imicro, icount):
    """Judge every timed row.  Verdicts stay time-based; the instruction
    ratio only says whose a missed target is (recorded in icount).
    Return {(name, arg): (instruction ratio, attribution)}."""
    insn = {}
    for r in rows:
        m = judge_row(r, imicro)
        ratio, attr = r["insn_ratio_med"], r["attribution"]
        insn[(r["name"], r["arg"])] = (ratio, attr)
        if attr is not None:
            icount["attributions"].append({
                "name": r["name"], "arg": r["arg"], "item": r["item"], "target": r["target"],
                "ratio_med": r["ratio_med"], "verdict": r["verdict"],
                "insn_ratio_med": ratio, "icount_arg": m["arg"] if m else None,
                "attribution": attr})
    return insn


def icount_rows(imicro):
    """The instruction-count pass's own rows, in instructions."""
    out = []
    for m in imicro["results"]:
        out.append({
            "name": m["name"], "arg": m["arg"], "item": ITEM[m["name"]],
            "target": target_of(m["name"], m["arg"]),
            "base_insns": m["base_ns"], "cand_insns": m["cand_ns"],
            "delta_insns": m["cand_ns"] - m["base_ns"],
            "ratio_med": m["ratio_med"], "ratio_min": m["ratio_min"],
            "rounds": m["rounds"],
            "kapi2_insns": imicro["floors"].get((m["name"], m["arg"]))})
    return out


def num(x, fmt="%.3f"):
    """x in fmt, or "n/a" when not measured."""
    return fmt % x if x is not None else "n/a"


def table_line(item, label, arg, base, cand, rmed, rmin, insn, target, verdict_, attr):
    """Print one row of the main table."""
    print(("%-2d %-48s %4s %11s %11s %9s %9s %10s %7s  %-7s %s" % (
        item, label, arg, base, cand, rmed, rmin, insn, target, verdict_,
        attr or "")).rstrip())


def judge_aux(a):
    """Decide an AUX copy-out row's target and verdict.  Higher is better
    here: the target is a floor.  A debug kernel's ratio measures KASAN and
    lockdep: reported, not judged."""
    t = AUX_TARGETS.get(a["kib"])
    a["target"] = ({"metric": "time", "op": ">=", "value": t, "text": ">=%.2f" % t}
                   if t and not a["kernel"].startswith("debug-") else None)
    a["measured"] = a["ratio_med"]
    a["verdict"] = judge(a["measured"], a["target"])
    a["met"] = {"met": True, "MISSED": False}.get(a["verdict"])


def print_main_table(rows, insn, wl):
    """Print the main table (timed rows, workload, AUX copy-out); return the
    AUX rows, judged."""
    hdr = "%-2s %-48s %4s %11s %11s %9s %9s %10s %7s  %-7s %s" % (
        "#", "measurement (pfmk vs baseline)", "arg", "base ns/op", "pfmk ns/op",
        "ratio med", "ratio min", "insn ratio", "target", "verdict", "attribution")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        ratio, attr = insn[(r["name"], r["arg"])]
        table_line(r["item"], LABEL[r["name"]], r["arg"], r["base_ns"], r["cand_ns"],
                   "%.3f" % r["ratio_med"], "%.3f" % r["ratio_min"],
                   "%.3f" % ratio if ratio is not None else "-",
                   r["target"]["text"] if r["target"] else "-", r["verdict"], attr)
    for w in wl:
        table_line(6, "cost per sample %d Hz (vs perf record -a)" % w["hz"],
                   "", num(w["ns_per_sample_perf_med"], "%.0f"),
                   num(w["ns_per_sample_pfmk_med"], "%.0f"),
                   num(w["per_sample_ratio_med"]), num(w["per_sample_ratio_min"]), "-",
                   w["target"]["text"] if w["target"] else "-", w["verdict"],
                   attribution(w["verdict"], "time", None, None))
    aux = aux_copyout()
    for a in aux:
        judge_aux(a)
        table_line(8, "AUX copy-out vs memcpy, %s, %d KiB" % (a["kernel"], a["kib"]),
                   "", "", "", "%.3f" % a["ratio_med"], "", "-",
                   a["target"]["text"] if a["target"] else "-",
                   a["verdict"], attribution(a["verdict"], "time", None, None))
    if not aux:
        print("%-2d %-48s %s" % (8, "AUX copy-out vs memcpy",
                                 "no result: make bench's AUX run (PFMK_BENCH_AUX) or make test's debug kernels"))
    return aux


def print_icount_rows(icount, imicro, rows):
    """Print the instruction-count pass's rows, floors and arg mismatches."""
    ihdr = "   %-2s %-48s %4s %11s %11s %10s %9s %9s" % (
        "#", "measurement (pfmk vs baseline)", "arg", "base insns", "pfmk insns",
        "pfmk-base", "ratio med", "ratio min")
    print(ihdr)
    for m in icount["rows"]:
        print("   %-2d %-48s %4d %11d %11d %10d %9.3f %9.3f" % (
            m["item"], LABEL[m["name"]], m["arg"], m["base_insns"], m["cand_insns"],
            m["delta_insns"], m["ratio_med"], m["ratio_min"]))
    for m in icount["rows"]:
        if m["kapi2_insns"] is not None:
            print("   2: k=%d: pfmk - raw %d insns, floor (two pfmk_get_state) %d insns,"
                  " rest %d insns" % (m["arg"], m["delta_insns"], m["kapi2_insns"],
                                      m["delta_insns"] - m["kapi2_insns"]))
    for r in rows:
        m = icount_match(imicro, r["name"], r["arg"])
        if m and m["arg"] != r["arg"]:
            print("   %d: %s arg=%d is compared with the timed run's arg=%d%s" % (
                r["item"], r["name"], m["arg"], r["arg"],
                ": one vCPU, the waiter runs on the driver's CPU"
                if r["name"] == "wakeup" else ""))


def print_icount(icount_log, icount, imicro, rows):
    """Print the instructions-per-op section: which of not run, no result
    or the pass's table."""
    if icount_log is None:
        print("instructions per op: no icount run (PFMK_BENCH_ICOUNT=0); insn ratio and "
              "attribution n/a")
    elif imicro is None:
        print("instructions per op: the icount run gave no result (%s): %s" % (
            icount_log, "; ".join(icount["notes"]) or "no result line"))
    else:
        print("instructions per op (icount run, one vCPU: 1 ns of guest time = 1 instruction;"
              " %s)" % icount_log)
        print_icount_rows(icount, imicro, rows)
        if icount["notes"]:
            print("   icount run problems (not counted as failures of the report): " +
                  "; ".join(icount["notes"]))
    print("   insn ratio: the icount run's median ratio; attribution of a MISSED time verdict:"
          " pfmk if the instruction ratio misses the target too, emulator if it meets it,"
          " n/a without an instruction count")


def print_floors(rows):
    """Print item 2's cost over raw against its floor, if a row has one."""
    floors = [r for r in rows if r["kapi2_ns"] is not None]
    if floors:
        print()
        print("2: pfmk's cost over the raw side per start+stop, and the floor under it: two KAPI"
              " calls that only look the descriptor up and take the context mutex (pfmk_get_state)")
        for r in floors:
            print("   k=%d: pfmk - raw %d ns, floor %d ns, rest %d ns" % (
                r["arg"], r["delta_ns"], r["kapi2_ns"], r["delta_ns"] - r["kapi2_ns"]))


def print_workload_notes(wl):
    """Print item 6's notes: slowdowns, per-sample costs and the floor."""
    print("6: slowdown = workload time / same-round time without sampling - 1, median of "
          "%s rounds;" % (", ".join(str(w["rounds"]) for w in wl) or "0"))
    print("   ratio = pfmk slowdown / perf record slowdown per round (rounds where perf record "
          "did not slow the loop down: %s)" % ", ".join(
              str(w["rounds_perf_not_slower"]) for w in wl))
    for w in wl:
        print("   %5d Hz: slowdown pfmk %+.1f%%, perf record %+.1f%% (ratio of medians %s);"
              " samples per run (median): pfmk %s, perf record %s" % (
                  w["hz"], 100 * w["slowdown_pfmk_med"], 100 * w["slowdown_perf_med"],
                  num(w["ratio_of_medians"]), w["samples_pfmk_med"], w["samples_perf_med"]))
        print("          per sample: pfmk %s ns, perf record %s ns; ratio median %s, "
              "ratio of medians %s, spread over rounds %s..%s" % (
                  num(w["ns_per_sample_pfmk_med"], "%.0f"),
                  num(w["ns_per_sample_perf_med"], "%.0f"),
                  num(w["per_sample_ratio_med"]), num(w["per_sample_ratio_of_medians"]),
                  num(w["per_sample_ratio_min"]), num(w["per_sample_ratio_max"])))
        if w["ns_per_sample_floor_med"] is not None:
            print("          floor (raw cpu-clock events, handler only counts): %s ns per sample"
                  " (%s samples); perf record -c (pfmk's period): %s ns (%s samples)" % (
                      num(w["ns_per_sample_floor_med"], "%.0f"), w["samples_raw_med"],
                      num(w["ns_per_sample_perfc_med"], "%.0f"), w["samples_perfc_med"]))
            print("          above the floor: pfmk / perf record = median %s, spread %s..%s" % (
                num(w["own_ratio_med"]), num(w["own_ratio_min"]), num(w["own_ratio_max"])))


def print_scaling(scal):
    """Print item 7: the cost of n contexts and whether it grows linearly."""
    print("7: scaling, cost of n contexts (ns) for n = %s" % (
        ",".join(str(x) for x in scal[0]["ctxs"]) if scal else "-"))
    print("   %-5s %-9s %12s %8s %8s  %s" % ("pmds", "metric", "slope ns/ctx", "R^2",
                                              "growth", "linear?"))
    for s in scal:
        print("   %-5d %-9s %12.0f %8.4f %8s  %s" % (
            s["pmds"], s["metric"], s["slope_ns_per_ctx"], s["r2"],
            "%.2f" % s["marginal_growth"] if s["marginal_growth"] is not None else "n/a",
            "yes" if s["linear"] else "NO"))
    print("   growth: marginal cost per context over the last doubling / over the first;"
          " linear: R^2 >= 0.98 and growth <= 2;")
    print("   raw_start: perf_event_enable() of the same number of raw events (n x pmds)")


def print_aux_notes(aux):
    """Print item 8's notes: where the AUX figures come from, per-call costs."""
    if aux:
        print()
        print("8: from make bench's AUX run and the last make test (%s): ratio = copy-out bytes/s / memcpy bytes/s, "
              "median and best of the rounds; copy-out MB/s: %s" % (
                  ", ".join(sorted({a["log"] for a in aux})),
                  ", ".join("%s %d KiB %d" % (a["kernel"], a["kib"], a["copyout_mbs"])
                            for a in aux)))
        for a in aux:
            if "call_ns" in a:
                print("   %s %4d KiB: ns per call: copy-out %d, memcpy %d, a locked KAPI call "
                      "(pfmk_get_state) %d; copy-out - memcpy - locked call = %d" % (
                          a["kernel"], a["kib"], a["copy_ns"], a["memcpy_ns"], a["call_ns"],
                          a["copy_ns"] - a["memcpy_ns"] - a["call_ns"]))


def print_x86(rows, insn, wl, scal, icount_log, icount, imicro):
    """Print every x86 section; return the AUX rows, judged."""
    aux = print_main_table(rows, insn, wl)
    print()
    print_icount(icount_log, icount, imicro, rows)
    print_floors(rows)
    print()
    print_workload_notes(wl)
    print()
    print_scaling(scal)
    print_aux_notes(aux)
    return aux


def print_arm64_rows(arm):
    """Print the arm64 pass's table and its floors."""
    ahdr = "   %-2s %-48s %7s %11s %11s %10s %9s %9s %22s  %-7s %s" % (
        "#", "measurement (pfmk vs raw perf, arm64)", "arg", "base insns", "pfmk insns",
        "pfmk-base", "ratio med", "ratio min", "target", "verdict", "attribution")
    print(ahdr)
    print("   " + "-" * (len(ahdr) - 3))
    for a in arm["rows"]:
        print(("   %-2d %-48s %7d %11d %11d %10d %9.3f %9.3f %22s  %-7s %s" % (
            a["item"], LABEL[a["name"]], a["arg"], a["base_insns"], a["cand_insns"],
            a["delta_insns"], a["ratio_med"], a["ratio_min"],
            a["target"]["text"] if a["target"] else "-", a["verdict"],
            a["attribution"] or "")).rstrip())
    for a in arm["rows"]:
        if a["kapi2_insns"] is not None:
            print("   2: k=%d: pfmk - raw %d insns, floor (two pfmk_get_state) %d insns,"
                  " rest %d insns" % (a["arg"], a["delta_insns"], a["kapi2_insns"],
                                      a["insns_over_floor"]))


def report_arm64(arm64_log, arm64_kernel, problems):
    """Judge and print the arm64 pass if it ran; its problems go to problems.
    Return its summary."""
    arm = {"log": None, "status": "not run", "rows": []}
    if arm64_log is None:
        return arm
    arm, arm_problems = arm64_rows(arm64_log, arm64_kernel or "arm64")
    problems += arm_problems
    print()
    pmu = arm["pmu"] or {"name": "?", "events": "?"}
    print("arm64 (%s, %s driver, events %s; %s):" % (
        arm["kernel"], pmu["name"], pmu["events"], arm64_log))
    print("   QEMU -icount shift=0, one vCPU: every figure is guest instructions per op,"
          " exact and repeatable;")
    print("   under icount QEMU's cycle counter advances once per instruction (cycles ="
          " instructions)")
    print_arm64_rows(arm)
    print("   4: smpl_hw: arg = the period in cycles; per sample = loop time under the"
          " event - loop time alone, over the overflows (raw: a no-op handler)")
    print("   ks 1, 4, 7: 7 is every counter of QEMU's PMUv3; attribution of a MISSED"
          " instruction target: pfmk")
    return arm


def print_tally(judged):
    """Count the verdicts of every judged row, print the targets line and
    return the counts."""
    tally = {v: sum(1 for x in judged if x["verdict"] == v) for v in ("met", "MISSED", "n/a")}
    print()
    print("targets: %d met, %d missed, %d not measured (%s)" % (
        tally["met"], tally["MISSED"], tally["n/a"],
        "; ".join("%s: %s" % (judged_label(x), x["verdict"])
                  for x in judged if x["verdict"] in ("MISSED", "n/a")) or "none"))
    return tally


def report(log, summary_file, kernel, icount_log=None, arm64_log=None, arm64_kernel=None):
    """Judge a bench run, print its table, write summary_file; 1 if the
    output is malformed or a measurement is missing."""
    x86 = log != "-"
    lines = read_log(log)
    micro, problems = parse_micro(lines)
    if not x86:
        problems = []
    runs = parse_workload(lines)
    wl, wl_problems = workload_summary(runs)
    problems += wl_problems
    if x86 and not runs:
        problems.append("no workload runs")
    scal = scaling_summary(micro["scales"])
    rows = timed_rows(micro)
    judge_workload(wl)
    icount, imicro = load_icount(icount_log, problems)
    insn = judge_rows(rows, imicro, icount)
    if imicro:
        icount["rows"] += icount_rows(imicro)

    print("pfmk benchmarks on %s (QEMU TCG, emulated: compare ratios, not ns)%s" % (
        kernel, "" if x86 else ": x86 not run"))
    print()
    # Without an x86 run its sections would be empty: not printed.
    real_stdout = sys.stdout
    if not x86:
        sys.stdout = io.StringIO()
    aux = print_x86(rows, insn, wl, scal, icount_log, icount, imicro)
    sys.stdout = real_stdout
    arm = report_arm64(arm64_log, arm64_kernel, problems)
    tally = print_tally(rows + wl + aux + arm["rows"])
    return write_summary(summary_file, kernel, tally, rows, wl, icount, arm, runs, scal, aux,
                         micro["skips"], problems)


def write_summary(summary_file, kernel, tally, rows, wl, icount, arm, runs, scal, aux, skips,
                  problems):
    """Write summary.json and print the problems: 1 if there are any."""
    summary = {
        "kernel": kernel,
        "targets": {"met": tally["met"], "missed": tally["MISSED"],
                    "not_measured": tally["n/a"]}, "emulated": "QEMU TCG", "micro": rows, "workload": wl,
        "icount": icount,
        "arm64": arm,
        "workload_runs": runs, "scaling": scal,
        "aux_copyout": aux,
        "skipped": [dict(s, note="measured by pfmk_aux_smoke on the patched debug kernels"
                         " (make test): see aux_copyout") for s in skips],
        "problems": problems,
    }
    with open(summary_file, "w") as f:
        json.dump(summary, f, indent=1)
    if problems:
        print()
        print("PROBLEMS:")
        for p in problems:
            print("  " + p)
        return 1
    return 0


def main(argv):
    argv = list(argv)
    opts = {}
    for o in ("--arm64", "--arm64-kernel"):
        if o in argv:
            i = argv.index(o)
            if i + 1 >= len(argv):
                sys.stderr.write(__doc__)
                return 2
            opts[o] = argv[i + 1]
            del argv[i:i + 2]
    if len(argv) in (4, 5, 6) and argv[1] == "report":
        icount_log = argv[5] if len(argv) == 6 and argv[5] != "-" else None
        return report(argv[2], argv[3], argv[4] if len(argv) >= 5 else "?", icount_log,
                      opts.get("--arm64"), opts.get("--arm64-kernel"))
    if len(argv) == 3 and argv[1] == "check":
        with open(argv[2], errors="replace") as f:
            problems = check_lines(f.readlines())
        for p in problems:
            print(p)
        return 1 if problems else 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
