#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Decode the summaries pfmk printed at a crash, from pstore or any log.

usage: pfmk-pstore.py [--json] [FILE ...]      (default: /sys/fs/pstore/dmesg-*)

At an oops or a panic, pfmk prints the contexts it froze that were set up
with PFMK_CRASH_LOG (core/crash.c, Documentation/postmortem.rst) in lines
"pfmk-crash: begin v1 ...", "ctx", "pmd", "sample", "aux", "auxdata",
"end".  pstore/ramoops keeps the end of the kernel log across the reboot
(/sys/fs/pstore/dmesg-ramoops-N, "<level>[time] " before each line); a
serial console log or dmesg has them too.  This prints each crash's
contexts: descriptor, CPU, PMD values, the newest samples with their
functions, and the newest AUX bytes (hex, with the CRC32 of what the
freeze kept); --json prints the same as JSON.  A summary cut short (the
record was full, the machine died while printing) is reported as such.
"""
import argparse
import glob
import json
import re
import sys
import zlib

LINE_RE = re.compile(r"pfmk-crash: (\w+) (.*)$")
KV_RE = re.compile(r"(\w+)=(\S+)")
SYM_RE = re.compile(r" ip=\S+ (.*)$")


def ints(d):
    out = {}
    for k, v in d.items():
        try:
            out[k] = int(v, 0)
        except ValueError:
            out[k] = v
    return out


def parse(lines):
    """The crashes in @lines: a list of {reason, cpu, complete, contexts}."""
    crashes, cur = [], None
    for raw in lines:
        m = LINE_RE.search(raw.rstrip("\r\n"))
        if not m:
            continue
        kind, rest = m.groups()
        if kind == "begin":
            cur = {"header": ints(dict(KV_RE.findall(rest))), "complete": False,
                   "contexts": {}}
            cur["header"]["version"] = rest.split()[0]
            crashes.append(cur)
            continue
        if cur is None:
            continue
        if kind == "end":
            cur["complete"] = True
            cur["end"] = ints(dict(KV_RE.findall(rest)))
            cur = None
            continue
        if kind == "sample":
            # "desc=.. n=.. ... ip=0x.. function+0x1/0x2 [module]"
            kv = ints(dict(KV_RE.findall(rest)))
            sym = SYM_RE.search(rest)
            kv["sym"] = sym.group(1) if sym else "?"
            kv["function"] = kv["sym"].split("+", 1)[0]
        elif kind == "auxdata":
            head, hexbytes = rest.rsplit(" ", 1)
            kv = ints(dict(KV_RE.findall(head)))
            kv["hex"] = hexbytes
        else:
            kv = ints(dict(KV_RE.findall(rest)))
        desc = kv.get("desc")
        if desc is None:
            continue
        c = cur["contexts"].setdefault(desc, {"pmds": {}, "samples": [], "aux": None,
                                              "auxdata": ""})
        if kind == "ctx":
            c.update(kv)
        elif kind == "pmd":
            c["pmds"][kv["num"]] = kv["value"]
        elif kind == "sample":
            c["samples"].append(kv)
        elif kind == "aux":
            c["aux"] = kv
        elif kind == "auxdata":
            c["auxdata"] += kv["hex"]
    for cr in crashes:
        for c in cr["contexts"].values():
            if c["aux"]:
                data = bytes.fromhex(c["auxdata"])
                c["aux"]["logged_ok"] = len(data) == c["aux"].get("logged")
                c["aux"]["logged_crc32"] = zlib.crc32(data) & 0xffffffff
    return crashes


def main(argv):
    ap = argparse.ArgumentParser(description="pfmk's crash summaries in pstore or a log")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args(argv)
    files = args.files or sorted(glob.glob("/sys/fs/pstore/dmesg-*"))
    crashes = []
    for fn in files:
        with open(fn, errors="replace") as f:
            for cr in parse(f):
                cr["file"] = fn
                crashes.append(cr)
    if args.json:
        json.dump({"crashes": crashes}, sys.stdout, indent=1)
        print()
        return 0 if crashes else 1
    if not crashes:
        print("no pfmk crash summary in %s" % (" ".join(files) or "(no file)"))
        return 1
    for cr in crashes:
        h = cr["header"]
        print("%s: crash (%s) on cpu %s, %d contexts%s" % (
            cr["file"], h.get("reason"), h.get("cpu"), len(cr["contexts"]),
            "" if cr["complete"] else ", CUT SHORT"))
        for desc, c in cr["contexts"].items():
            print("  context %#x cpu %s state %s set %s: %s overflows, %s samples%s" % (
                desc, c.get("ctx_cpu"), c.get("state"), c.get("set"), c.get("ovfl"),
                c.get("smpl"), " (TORN)" if c.get("flags", 0) & 1 else ""))
            for num, v in sorted(c["pmds"].items()):
                print("    pmd%-3d %20d" % (num, v))
            for s in c["samples"]:
                print("    sample #%d cpu %d pid %d %s" % (s["n"], s["cpu"], s["pid"], s["sym"]))
            a = c["aux"]
            if a:
                print("    AUX: %d bytes kept ending at %d, crc32 %#010x; the last %d logged:" % (
                    a["kept"], a["head"], a["crc32"], a["logged"]))
                for i in range(0, len(c["auxdata"]), 64):
                    print("      " + c["auxdata"][i:i + 64])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
