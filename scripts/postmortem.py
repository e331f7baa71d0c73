#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The post-mortem test's host side: one guest, two memory dumps, a reboot.

usage: postmortem.py --id ID --kernel BZIMAGE --vmlinux VMLINUX
                     --modules DIR --initrd INITRD --out DIR --rows FILE

Boots the guest (scripts/run-guest.sh, with a QMP socket, a second serial
port for the guest to wait on, ramoops in a memmap= region, panic=0) whose
plan scripts/postmortem-test.sh wrote, and follows its console:

1. "PFMK-PM-DUMP live": test-modules/pfmk_postmortem.ko has recorded and
   printed what it holds; QMP dump-guest-memory writes live.elf, the
   guest is told to go on, and scripts/pfmk-drgn.py decodes the dump;
2. the guest oopses (panic_on_oops): pfmk's die hook freezes the
   contexts and prints their summary, the panic stops the guest;
   panic.elf is dumped and decoded; QMP system_reset reboots the guest,
   RAM kept;
3. the second boot finds pfmk's summary in pstore, prints it and powers
   off; scripts/pfmk-pstore.py decodes it.

Then compares: what drgn found in each dump with what the guest printed
(context count, PMD values, sample count and top functions, the AUX
stream position and the CRC32 of its bytes, the pending message; after the
crash the values kept at the freeze), the summary in the console and in
pstore with the same, and the console for kernel reports.  Writes one
results row per check (scripts/results.py row format) to --rows.
"""
import argparse
import json
import os
import re
import socket
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import results  # noqa: E402  (scripts/results.py: clean(), scan_reports())

RAMOOPS_ADDR = 0x38000000
# panic=0: the panicked guest stays for the dump; no_timer_check: a
# loaded host makes the IO-APIC timer check fail at boot (a panic before
# anything runs).
CMDLINE = ("panic=0 no_timer_check memmap=1M$%#x ramoops.mem_address=%#x "
           "ramoops.mem_size=0x100000 ramoops.record_size=0x20000 ramoops.console_size=0 "
           "ramoops.ftrace_size=0 ramoops.pmsg_size=0" % (RAMOOPS_ADDR, RAMOOPS_ADDR))
PM_RE = re.compile(r"pfmk-pm: (\w+) (.*)$")
KV_RE = re.compile(r"(\w+)=(\S+)")


def say(msg):
    print("[pfmk %s] postmortem: %s" % (time.strftime("%H:%M:%S"), msg), file=sys.stderr, flush=True)


def load_pstore_decoder():
    import importlib.util
    spec = importlib.util.spec_from_file_location("pfmk_pstore", os.path.join(HERE, "pfmk-pstore.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Qmp:
    def __init__(self, path, timeout=120):
        end = time.time() + timeout
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                if time.time() > end:
                    raise
                time.sleep(0.5)
        self.f = self.s.makefile("rw")
        json.loads(self.f.readline())                 # the greeting
        self.cmd("qmp_capabilities")

    def cmd(self, name, **args):
        self.f.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        self.f.flush()
        while True:
            r = json.loads(self.f.readline())
            if "return" in r:
                return r["return"]
            if "error" in r:
                raise RuntimeError("QMP %s: %s" % (name, r["error"]))


def connect_unix(path, timeout=120):
    end = time.time() + timeout
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            if time.time() > end:
                raise
            time.sleep(0.5)


def log_lines(path):
    try:
        with open(path, errors="replace") as f:
            return [results.clean(x) for x in f]
    except FileNotFoundError:
        return []


def guest_prints(lines):
    """pfmk_postmortem's lines: {desc: {role, ...}}, tops, header."""
    ctxs, tops, head = {}, {}, {}
    for x in lines:
        m = PM_RE.search(x)
        if not m:
            continue
        kind, rest = m.groups()
        kv = dict(KV_RE.findall(rest))
        if kind == "setup":
            head = {"contexts": int(kv["contexts"]), "cpu": int(kv["cpu"])}
        elif kind == "ctx":
            d = int(kv.pop("desc"), 16)
            c = ctxs.setdefault(d, {})
            for k, v in kv.items():
                c[k] = v if k == "role" else int(v, 0)
        elif kind == "top":
            d = int(kv["desc"], 16)
            tops.setdefault(d, []).append((kv["name"], int(kv["count"])))
    for d, t in tops.items():
        ctxs.setdefault(d, {})["top"] = t
    return head, ctxs


class Check:
    def __init__(self, name):
        self.name = name
        self.bad = []
        self.n = 0

    def eq(self, what, got, want):
        self.n += 1
        if got != want:
            self.bad.append("%s: got %r, expected %r" % (what, got, want))

    def true(self, what, cond):
        self.eq(what, bool(cond), True)


def pmd0(ctx):
    for s in ctx["sets"]:
        if s["active"] or s["id"] == 0:
            return s["pmds"][0]["value"]
    return None


def check_dump(name, dump, head, gp, after_crash):
    """drgn's view of a dump against what the guest printed."""
    ck = Check(name)
    if dump is None:
        ck.bad.append("no drgn output (see the log)")
        return ck
    by = {c["desc"]: c for c in dump["contexts"]}
    ck.eq("contexts", len(by), head.get("contexts"))
    for d, g in gp.items():
        c = by.get(d)
        role = g.get("role", "?")
        if c is None:
            ck.bad.append("%s %#x: not in the dump" % (role, d))
            continue
        ck.eq("%s pmd0" % role, pmd0(c), g.get("pmd0"))
        ck.eq("%s cpu" % role, c["cpu"], head.get("cpu"))
        cr = c["crash"]
        if role == "flightrec":
            a = c["aux"] or {}
            ck.eq("flightrec AUX head", a.get("head"), g.get("aux_head"))
            ck.eq("flightrec AUX bytes", a.get("bytes"), g.get("aux_bytes"))
            ck.eq("flightrec AUX crc32", a.get("crc32"), g.get("aux_crc32"))
            ck.eq("flightrec pmu", c["pmu"], "pfmk_aux_test")
        if role == "sampler":
            s = c["samples"] or {}
            ck.eq("sampler samples", s.get("count"), g.get("samples"))
            ck.eq("sampler top functions", [(t["name"], t["count"]) for t in s.get("top", [])][:len(g.get("top", []))],
                  g.get("top"))
        if role == "notifier":
            m = c["messages"]["queued"]
            ck.eq("notifier state", c["state"], "MASKED")
            ck.eq("notifier pending messages", [(x["type"], x.get("pmds")) for x in m], [("OVFL", [0])])
            ck.eq("notifier crash set-up", cr, None)
            continue
        if not after_crash:
            ck.eq("%s frozen before the crash" % role, c["frozen"], False)
            ck.eq("%s crash reason before the crash" % role, cr and cr["reason"], "none")
            continue
        ck.eq("%s frozen" % role, c["frozen"], True)
        ck.eq("%s frozen by" % role, cr and cr["reason"], "oops")
        if not cr or cr["reason"] == "none":
            continue
        ck.eq("%s pmd0 at the freeze" % role, cr["pmds"][0], g.get("pmd0"))
        ck.eq("%s freeze flags" % role, cr["flags_kept"] & 1, 0)
        ck.true("%s summary logged" % role, cr["logged"])
        if role == "flightrec":
            ck.eq("flightrec AUX head at the freeze", cr["aux_head"], g.get("aux_head"))
            ck.eq("flightrec AUX bytes kept", cr["aux_len"], g.get("keep_bytes"))
            ck.eq("flightrec AUX kept crc32", cr["aux_crc32"], g.get("keep_crc32"))
        if role == "sampler":
            ck.eq("sampler samples at the freeze", cr["smpl_count"], g.get("samples"))
    return ck


def check_summary(name, crashes, head, gp, dump):
    """pfmk's crash summary (console or pstore) against the guest and drgn."""
    ck = Check(name)
    full = [c for c in crashes if c["complete"]]
    if not full:
        ck.bad.append("no complete pfmk-crash summary (%d cut short)" % len(crashes))
        return ck
    cr = full[-1]
    ck.eq("reason", cr["header"].get("reason"), "oops")
    frozen = {d: g for d, g in gp.items() if g.get("role") in ("flightrec", "sampler")}
    ck.eq("contexts summarized", sorted(cr["contexts"]), sorted(frozen))
    by = {c["desc"]: c for c in dump["contexts"]} if dump else {}
    for d, g in frozen.items():
        c = cr["contexts"].get(d)
        role = g["role"]
        if not c:
            continue
        ck.eq("%s pmd0" % role, c["pmds"].get(0, 0), g.get("pmd0"))
        ck.eq("%s cpu" % role, c.get("ctx_cpu"), head.get("cpu"))
        if role == "sampler":
            ck.eq("sampler samples", c.get("smpl"), g.get("samples"))
            want = [e for e in (by.get(d, {}).get("samples") or {}).get("entries", [])
                    if e["n"] >= g.get("samples", 0) - 8]
            ck.eq("sampler newest samples (n, function)", [(s["n"], s["function"]) for s in c["samples"]],
                  [(e["n"], e["sym"].split("+", 1)[0]) for e in want])
        if role == "flightrec":
            a = c["aux"] or {}
            ck.eq("flightrec AUX head", a.get("head"), g.get("aux_head"))
            ck.eq("flightrec AUX kept crc32", a.get("crc32"), g.get("keep_crc32"))
            ck.true("flightrec AUX bytes logged whole", a.get("logged_ok"))
            f = (by.get(d, {}).get("aux") or {}).get("file")
            if f and os.path.exists(f):
                with open(f, "rb") as fh:
                    tail = fh.read()[-a.get("logged", 0):]
                ck.eq("flightrec AUX logged bytes = the dump's newest", c["auxdata"], tail.hex())
    return ck


# x86-64 without KASLR (nokaslr) and 4-level paging: where the kernel
# image and the direct map are.
START_KERNEL_MAP = 0xffffffff80000000
PAGE_OFFSET = 0xffff888000000000


# The kernel image's mapping covers the first 512 MiB (no KASLR).
KERNEL_IMAGE_SIZE = 512 << 20


def _system_map(path):
    """{symbol: address} of a System.map."""
    syms = {}
    with open(path) as f:
        for line in f:
            a, _, name = line.split()
            syms[name] = int(a, 16)
    return syms


def _elf_phdrs(f, elf):
    """The ELF header (64 bytes, to rewrite) and the program headers, each a
    list of its eight fields; ValueError if f is not ELF64."""
    ehdr = bytearray(f.read(64))
    if ehdr[:4] != b"\x7fELF" or ehdr[4] != 2:
        raise ValueError("%s: not an ELF64 file" % elf)
    phoff, = struct.unpack_from("<Q", ehdr, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", ehdr, 0x36)
    phdrs = []
    for k in range(phnum):
        f.seek(phoff + k * phentsize)
        phdrs.append(list(struct.unpack("<IIQQQQQQ", f.read(56))))
    return ehdr, phdrs


def _phys_read(f, loads, pa, n):
    """n bytes of the dump at physical address pa."""
    for _, _, off, _, base, fsz, _, _ in loads:
        if base <= pa and pa + n <= base + fsz:
            f.seek(off + pa - base)
            return f.read(n)
    raise ValueError("physical %#x not in the dump" % pa)


def _vmcoreinfo_note(f, loads, syms):
    """The guest's VMCOREINFO note, read from its memory (vmcoreinfo_note),
    and its descriptor size; ValueError if it is not there."""
    def u64(pa):
        return struct.unpack("<Q", _phys_read(f, loads, pa, 8))[0]

    phys_base = u64(syms["phys_base"] - START_KERNEL_MAP)
    ptr = u64(syms["vmcoreinfo_note"] - START_KERNEL_MAP + phys_base)
    pa = ptr - PAGE_OFFSET
    namesz, descsz, _ = struct.unpack("<III", _phys_read(f, loads, pa, 12))
    note = _phys_read(f, loads, pa, 12 + ((namesz + 3) & ~3) + ((descsz + 3) & ~3))
    if namesz != 11 or note[12:23] != b"VMCOREINFO\0":
        raise ValueError("no VMCOREINFO note at %#x" % ptr)
    return note, descsz


def _virtual_views(phdrs, loads):
    """The program headers plus, per PT_LOAD, its direct-map view and (in
    the kernel image's first KERNEL_IMAGE_SIZE) its kernel-image view."""
    new = [p for p in phdrs]
    for t, fl, off, _, pa, fsz, msz, al in loads:
        new.append([t, fl, off, PAGE_OFFSET + pa, pa, fsz, msz, al])
        if pa < KERNEL_IMAGE_SIZE:
            n = min(fsz, KERNEL_IMAGE_SIZE - pa)
            new.append([t, fl, off, START_KERNEL_MAP + pa, pa, n, n, al])
    return new


def _append_notes_and_table(f, ehdr, note_ph, notes, phdrs, loads):
    """Append the notes and a new program header table (with the virtual
    views) at the end of the file and point the ELF header at it; return
    the number of headers added."""
    f.seek(0, 2)
    end = (f.tell() + 7) & ~7
    note_ph[2], note_ph[5], note_ph[6] = end, len(notes), len(notes)
    new = _virtual_views(phdrs, loads)
    f.seek(end)
    f.write(notes)
    table = (f.tell() + 7) & ~7
    f.seek(table)
    for p in new:
        f.write(struct.pack("<IIQQQQQQ", *p))
    struct.pack_into("<Q", ehdr, 0x20, table)
    struct.pack_into("<H", ehdr, 0x38, len(new))
    f.seek(0)
    f.write(ehdr)
    return len(new) - len(phdrs)


def make_vmcore(elf, system_map):
    """Make a dump-guest-memory ELF read as a kdump vmcore by drgn 0.0.22.

    Two things QEMU's dump (paging=false) lacks for it here.  The
    VMCOREINFO note: QEMU copies it in when the guest told it where the
    note is, through fw_cfg (-device vmcoreinfo), but the 6.1 debug kernel
    has no PCI, cannot load QEMU's DSDT, and its fw_cfg driver then fails
    on ACPI's global lock; the note is in the kernel's memory all the same
    (vmcoreinfo_note, CONFIG_CRASH_CORE), read here and added to the
    PT_NOTE segment.  And virtual addresses: QEMU's segments have physical
    ones only, and drgn 0.0.22 cannot find the page tables from those
    (newer drgn can); a vmcore also describes the kernel image's and the
    direct map's views of memory, added here as program headers over the
    same file bytes (a new header table at the end of the file).  Returns
    a note for the log.
    """
    syms = _system_map(system_map)
    with open(elf, "r+b") as f:
        ehdr, phdrs = _elf_phdrs(f, elf)
        loads = [p for p in phdrs if p[0] == 1]
        if any(p[3] >= PAGE_OFFSET for p in loads):
            return "the dump has kernel virtual addresses already"
        note_ph = next((p for p in phdrs if p[0] == 4), None)
        if note_ph is None:
            raise ValueError("no PT_NOTE in %s" % elf)
        f.seek(note_ph[2])
        notes = f.read(note_ph[5])
        added = ""
        if b"VMCOREINFO\0" not in notes:
            note, descsz = _vmcoreinfo_note(f, loads, syms)
            notes += note
            added = "the guest's VMCOREINFO note (%d bytes), " % descsz
        n = _append_notes_and_table(f, ehdr, note_ph, notes, phdrs, loads)
    return "added %sthe direct map and kernel image views (%d segments)" % (added, n)


def run_drgn(out, tag, dump_path, args):
    txt = os.path.join(out, tag + ".txt")
    js = os.path.join(out, tag + ".json")
    try:
        say("%s: %s" % (tag, make_vmcore(dump_path, args.system_map)))
    except (OSError, ValueError, KeyError) as e:
        say("%s: cannot make a vmcore of the dump: %s" % (tag, e))
    cmd = ["/usr/bin/python3", os.path.join(HERE, "pfmk-drgn.py"), "-c", dump_path,
           "-s", args.vmlinux, "-d", args.modules, "-o", os.path.join(out, tag), "--json", js,
           "--entries", "16"]
    say("%s: %s" % (tag, " ".join(cmd)))
    with open(txt, "w") as f:
        rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT)
    if rc:
        say("%s: pfmk-drgn.py failed (%d), see %s" % (tag, rc, txt))
        return None
    with open(js) as f:
        return json.load(f)


def wait_for(log, proc, pattern, timeout, start=0):
    """Index of the first line at or after @start matching @pattern."""
    rx = re.compile(pattern)
    end = time.time() + timeout
    while time.time() < end:
        lines = log_lines(log)
        for i in range(start, len(lines)):
            if rx.search(lines[i]):
                return i
        if proc.poll() is not None:
            return None
        time.sleep(0.5)
    return None


def _guest_env(qmp_path, ctl_path):
    """run-guest.sh's environment for the post-mortem run: QMP, a reboot
    instead of a power-off, the control serial line and CMDLINE."""
    env = dict(os.environ)
    env.update({
        "PFMK_GUEST_QMP": qmp_path,
        "PFMK_GUEST_REBOOT": "1",
        "PFMK_QEMU_ARGS": "-chardev socket,id=pmctl,path=%s,server=on,wait=off "
                          "-device isa-serial,chardev=pmctl" % ctl_path,
        "PFMK_GUEST_CMDLINE": (env.get("PFMK_GUEST_CMDLINE", "") + " " + CMDLINE).strip(),
        "PFMK_QEMU_ACCEL": env.get("PFMK_QEMU_ACCEL", "tcg"),
    })
    return env


def _boot_and_dump(args, out, log, qmp_path, ctl_path, rows):
    """Boot the guest; take the live dump and the panic dump when it asks,
    then reset it for the pstore boot.  A host-side failure is a failed row
    in rows.  Return {tag: pfmk-drgn.py's result} of the dumps taken."""
    env = _guest_env(qmp_path, ctl_path)
    say("booting %s (log: %s)" % (os.path.basename(args.kernel), log))
    proc = subprocess.Popen([os.path.join(HERE, "run-guest.sh"), args.kernel, args.initrd, log,
                             args.stall], env=env)
    dumps = {}
    try:
        qmp = Qmp(qmp_path)
        ctl = connect_unix(ctl_path)
        i = wait_for(log, proc, r"PFMK-PM-DUMP live", 1800)
        if i is not None:
            path = os.path.join(out, "live.elf")
            t = time.time()
            qmp.cmd("dump-guest-memory", paging=False, protocol="file:" + path)
            say("live dump in %.1fs" % (time.time() - t))
            ctl.sendall(b"dumped\n")
            dumps["live"] = run_drgn(out, "live", path, args)
            i = wait_for(log, proc, r"end Kernel panic", 900, i)
        if i is not None:
            time.sleep(2)
            path = os.path.join(out, "panic.elf")
            qmp.cmd("dump-guest-memory", paging=False, protocol="file:" + path)
            say("panic dump written; resetting the guest")
            dumps["panic"] = run_drgn(out, "panic", path, args)
            qmp.cmd("system_reset")
            # The second boot prints pstore, then cannot power the
            # machine off (no ACPI namespace): QEMU is told to quit.
            i = wait_for(log, proc, r"PFMK-PSTORE-DONE", 900, i)
            if proc.poll() is None:
                qmp.cmd("quit")
        proc.wait(timeout=300)
    except (OSError, RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
        say("host side failed: %s" % e)
        rows.append(results.row(args.id, "postmortem: host", failed=1, notes=[str(e)]))
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait()
    return dumps


def _pstore_lines(lines):
    """The lines of the pstore files the second boot printed (between
    PFMK-PSTORE-FILE and PFMK-PSTORE-FILE-END)."""
    ps_lines, inside = [], False
    for x in lines:
        if "PFMK-PSTORE-FILE " in x and "PFMK-PSTORE-FILE-END" not in x:
            inside = True
            continue
        if "PFMK-PSTORE-FILE-END" in x:
            inside = False
        if inside:
            ps_lines.append(x)
    return ps_lines


def _crash_path_clean(lines):
    """The kernel reports of the crash path but the oops it was asked for.
    It ran under KASAN and lockdep: nothing but that oops (BUG() in
    pfmk_postmortem) may show up."""
    reps = [(n, t) for n, t in results.scan_reports(lines)
            if not re.search(r"kernel BUG at .*pfmk_postmortem|invalid opcode|pm_crash_set|Kernel panic - not syncing: Fatal exception|Oops", t)]
    clean = Check("reports")
    for n, t in reps:
        clean.bad.append("console.log:%d: %s" % (n, t))
    return clean


def _verdict(lines, dumps, row):
    """Judge the run from its console log and dumps: what the guest
    recorded, both dumps, the crash summary on the console and in pstore,
    and a clean crash path; row(suite, check) records each."""
    crash_at = next((i for i, x in enumerate(lines) if "pfmk-pm: crashing now" in x), len(lines))
    boot2 = next((i for i, x in enumerate(lines) if i > crash_at and "Linux version" in x), len(lines))
    head, gp = guest_prints(lines[:crash_at])
    rec = Check("recorded")
    rec.true("pfmk_postmortem printed 'recorded'", any("pfmk-pm: recorded" in x for x in lines[:crash_at]))
    rec.eq("roles", sorted(g.get("role", "?") for g in gp.values()), ["flightrec", "notifier", "sampler"])
    row("guest recorded", rec)
    row("drgn, live dump", check_dump("live", dumps.get("live"), head, gp, False))
    row("drgn, panic dump", check_dump("panic", dumps.get("panic"), head, gp, True))
    dec = load_pstore_decoder()
    row("crash summary, console",
        check_summary("console", dec.parse(lines[crash_at:boot2]), head, gp, dumps.get("panic")))
    ps_lines = _pstore_lines(lines[boot2:])
    found = Check("pstore")
    found.true("second boot printed pstore records", any("PFMK-PSTORE-DONE" in x for x in lines[boot2:]))
    psck = check_summary("pstore", dec.parse(ps_lines), head, gp, dumps.get("panic"))
    psck.bad = found.bad + psck.bad
    row("crash summary, pstore after reboot", psck)
    row("crash path clean (KASAN, lockdep)", _crash_path_clean(lines[:boot2]))


def main(argv):
    """Run the post-mortem test of one kernel and write its rows."""
    ap = argparse.ArgumentParser()
    for a in ("id", "kernel", "vmlinux", "modules", "initrd", "out", "rows"):
        ap.add_argument("--" + a, required=True)
    ap.add_argument("--system-map", required=True)
    ap.add_argument("--stall", default="600")
    ap.add_argument("--keep-dumps", action="store_true")
    args = ap.parse_args(argv)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    log = os.path.join(out, "console.log")
    qmp_path = os.path.join(out, "qmp.sock")
    ctl_path = os.path.join(out, "ctl.sock")
    for p in (qmp_path, ctl_path):
        if os.path.exists(p):
            os.unlink(p)
    rows = []

    def row(suite, ck, extra=None):
        notes = ck.bad + (extra or [])
        rows.append(results.row(args.id, "postmortem: " + suite, passed=0 if ck.bad else 1,
                                failed=1 if ck.bad else 0, notes=notes))

    dumps = _boot_and_dump(args, out, log, qmp_path, ctl_path, rows)
    _verdict(log_lines(log), dumps, row)
    # The dumps (1 GiB each) stay only for a check that failed.
    if not args.keep_dumps and not any(r["failed"] for r in rows):
        for tag in ("live", "panic"):
            p = os.path.join(out, tag + ".elf")
            if os.path.exists(p):
                os.unlink(p)
    with open(args.rows, "w") as f:
        json.dump(rows, f, indent=1)
    say("%d checks, %d failed" % (len(rows), sum(1 for r in rows if r["failed"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
