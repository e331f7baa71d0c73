#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""pfmk's contexts in a kernel crash dump or a live kernel, with drgn.

usage:
  pfmk-drgn.py -c VMCORE -s VMLINUX -s pfmk.ko [-s MODULE.ko ...] [options]
  pfmk-drgn.py --live -s VMLINUX -s pfmk.ko ...          (/proc/kcore, root)
  drgn -c VMCORE -s VMLINUX -s pfmk.ko scripts/pfmk-drgn.py [options]

-s takes the debug info of the kernel (a vmlinux with DWARF) and of the
loaded modules (pfmk.ko, the PMU descriptions' and sampling formats'
modules), as built, unstripped; -d DIR adds every .ko under DIR.

For every context in pfmk's descriptor table it prints the descriptor,
state, CPU, PMU description, event sets with their PMD values, the
crash freeze (what core/crash.c kept at an oops or a panic), the pending
messages, and with the default sampling format the entries (symbolized)
and the top functions.  Each AUX buffer's bytes are written in stream
order to OUT/aux-<desc>.bin (the bytes a crash kept aside to
OUT/aux-kept-<desc>.bin), and its head and tail shown in hex.  --json
FILE writes the same as JSON (scripts/postmortem-test.sh compares it with
what the guest printed).

Needs drgn (Debian: python3-drgn), which must know the kernel's layout:
Debian bookworm's 0.0.22 reads kernels up to 6.3 (6.4 changed how module
memory is laid out).  Documentation/postmortem.rst.
"""
import argparse
import binascii
import json
import os
import sys
import zlib

try:
    import drgn
    from drgn import cast, FaultError
    from drgn.helpers.linux.list import list_for_each_entry
except ImportError:
    sys.exit("pfmk-drgn.py: needs drgn (apt install python3-drgn; run with /usr/bin/python3)")

PFM_CTX_STATES = {1: "UNLOADED", 2: "LOADED", 3: "MASKED"}
PFM_MSG_OVFL = 1
PFMK_MSG_CPU = {0x100: "CPU_OFFLINE", 0x101: "CPU_ONLINE"}
CRASH_REASONS = {0: "none", 1: "oops", 2: "panic"}


def u(obj):
    return obj.value_()


def _unalias(t):
    while t.kind == drgn.TypeKind.TYPEDEF:
        t = t.type
    return t


def counter(obj):
    """The value of an atomic_t, atomic64_t, local_t or local64_t."""
    for _ in range(4):
        names = [m.name for m in _unalias(obj.type_).members]
        if "counter" in names:
            return u(obj.counter)
        obj = getattr(obj, names[0])
    raise TypeError("not a counter: %s" % obj.type_)


def string(obj):
    try:
        return obj.string_().decode(errors="replace")
    except FaultError:
        return "?"


def symbolize(prog, ip):
    """'function+0xoff/0xsize' and the bare function name of an address."""
    try:
        sym = prog.symbol(ip)
    except LookupError:
        return "%#x" % ip, "%#x" % ip
    return "%s+%#x/%#x" % (sym.name, ip - sym.address, sym.size), sym.name


def popcount_bv(arr, n):
    return sum(bin(u(arr[i])).count("1") for i in range(n))


class Decoder:
    def __init__(self, prog, out_dir, max_entries, top):
        self.prog = prog
        self.out_dir = out_dir
        self.max_entries = max_entries
        self.top = top
        self.dfl_handler = None
        try:
            self.dfl_handler = u(prog["pfmk_dfl_handler"].address_of_())
        except (KeyError, LookupError):
            pass

    def contexts(self):
        """The contexts of pfmk's descriptor table (core/desc.c), an RCU
        array indexed by descriptor; a reserved slot is still NULL."""
        tab = self.prog["pfmk_desc_tab"]
        if not u(tab):
            return
        for i in range(u(tab.size)):
            ctx = tab.slot[i]
            if u(ctx):
                yield ctx

    # -- PMDs and sets -------------------------------------------------
    def pmd_value(self, pmd):
        value = u(pmd.value)
        if u(pmd.event):
            count = counter(pmd.event.count)
            value = (value + count - u(pmd.perf_base)) & (2**64 - 1)
        return value

    def sets(self, ctx):
        nregs = u(ctx.nregs)
        out = []
        for s in list_for_each_entry("struct pfmk_set", ctx.sets.address_of_(), "list"):
            pmds = []
            for i in range(nregs):
                p = s.pmds[i]
                pmds.append({"num": i, "value": self.pmd_value(p),
                             "event": bool(u(p.event)),
                             "smpl_pmds": popcount_bv(p.smpl_pmds, len(p.smpl_pmds))})
            out.append({"id": u(s.id), "flags": u(s.flags), "runs": u(s.runs),
                        "active": u(s) == u(ctx.active_set),
                        "pmds": pmds})
        return out

    # -- messages ------------------------------------------------------
    def messages(self, ctx):
        q = ctx.msgq
        n = len(q.msgs)
        out = []
        for k in range(u(q.count)):
            m = q.msgs[(u(q.head) + k) % n]
            t = u(m.type)
            if t == PFM_MSG_OVFL:
                o = m.pfm_ovfl_msg
                pmds = [i * 64 + b for i in range(len(o.msg_ovfl_pmds))
                        for b in range(64) if u(o.msg_ovfl_pmds[i]) >> b & 1]
                out.append({"type": "OVFL", "pmds": pmds, "set": u(o.msg_active_set),
                            "cpu": u(o.msg_ovfl_cpu), "ip": u(o.msg_ovfl_ip),
                            "pid": u(o.msg_ovfl_pid), "tid": u(o.msg_ovfl_tid)})
            else:
                c = m.pfmk_cpu_msg
                out.append({"type": PFMK_MSG_CPU.get(t, str(t)), "cpu": u(c.msg_cpu),
                            "cycle": u(c.msg_cycle)})
        return {"queued": out, "dropped": u(q.dropped),
                "pending": bool(u(ctx.msg_pending))}

    # -- default-format samples ----------------------------------------
    def samples(self, ctx, sets):
        fmt = ctx.fmt
        if not u(fmt) or u(fmt.handler) != self.dfl_handler:
            return None
        buf = u(ctx.smpl_buf)
        size = u(ctx.smpl_size)
        raw = self.prog.read(buf, size)
        hdr = self.prog.type("struct pfm_dfl_smpl_hdr")
        h = drgn.Object.from_bytes_(self.prog, hdr, raw[:drgn.sizeof(hdr)])
        count = u(h.hdr_count)
        aux_bytes = u(h.hdr_reserved[0])
        by_id = {s["id"]: s for s in sets}
        ent_t = self.prog.type("struct pfm_dfl_smpl_entry")
        off, entries, funcs = drgn.sizeof(hdr), [], {}
        esize = drgn.sizeof(ent_t)
        for i in range(count):
            if off + esize > size:
                break
            e = drgn.Object.from_bytes_(self.prog, ent_t, raw[off:off + esize])
            s = by_id.get(u(e.set))
            if s is None or u(e.ovfl_pmd) >= len(s["pmds"]):
                break
            n = s["pmds"][u(e.ovfl_pmd)]["smpl_pmds"]
            ip = u(e.ip)
            full, name = symbolize(self.prog, ip)
            funcs[name] = funcs.get(name, 0) + 1
            if len(entries) < self.max_entries or i >= count - self.max_entries:
                vals = [int.from_bytes(raw[off + esize + 8 * j:off + esize + 8 * j + 8], "little")
                        for j in range(n)]
                entries.append({"n": i, "pid": u(e.pid), "tgid": u(e.tgid), "cpu": u(e.cpu),
                                "set": u(e.set), "pmd": u(e.ovfl_pmd), "ip": ip, "sym": full,
                                "tstamp": u(e.tstamp), "last_reset_val": u(e.last_reset_val),
                                "values": vals})
            off += esize + 8 * n + aux_bytes
        top = sorted(funcs.items(), key=lambda kv: (-kv[1], kv[0]))[:self.top]
        return {"buf": buf, "size": size, "count": count,
                "cur_offs": u(h.hdr_cur_offs), "overflows": u(h.hdr_overflows),
                "aux_bytes": aux_bytes, "entries": entries,
                "top": [{"name": k, "count": v} for k, v in top]}

    # -- AUX -----------------------------------------------------------
    def aux(self, ctx, desc):
        if not u(ctx.aux):
            return None
        aux = cast(self.prog.type("struct pfmk_aux *"), ctx.aux)
        event = aux.buf.event
        res = {"pmd": u(aux.pmd), "size": u(aux.buf.size),
               "snapshot": bool(u(aux.buf.flags) & 1), "attached": bool(u(event))}
        if not u(event) or not u(event.rb):
            return res
        rb = event.rb
        if not u(rb.aux_kernel):
            return res
        try:
            psize = self.prog["PAGE_SIZE"].value_()
        except KeyError:
            psize = 4096
        size = u(rb.aux_nr_pages) * psize
        head = counter(rb.aux_kernel_head)
        if u(rb.aux_overwrite):
            start = max(0, head - size)
        else:
            start = u(rb.user_page.aux_tail)
        data = bytearray()
        pos = start
        while pos < head:
            off = pos % size
            page = u(rb.aux_pages[off // psize])
            n = min(psize - off % psize, head - pos)
            data += self.prog.read(page + off % psize, n)
            pos += n
        path = os.path.join(self.out_dir, "aux-%#x.bin" % desc)
        with open(path, "wb") as f:
            f.write(data)
        res.update({"head": head, "from": start, "to": head, "bytes": len(data),
                    "overwrite": bool(u(rb.aux_overwrite)),
                    "crc32": zlib.crc32(bytes(data)) & 0xffffffff, "file": path,
                    "first": binascii.hexlify(bytes(data[:64])).decode(),
                    "last": binascii.hexlify(bytes(data[-64:])).decode()})
        return res

    # -- the crash freeze ------------------------------------------------
    def crash(self, ctx, desc):
        if not u(ctx.crash):
            return None
        rec = cast(self.prog.type("struct pfmk_crash *"), ctx.crash)
        info = rec.info
        res = {"flags": u(rec.flags), "reason": CRASH_REASONS.get(u(info.reason), str(u(info.reason))),
               "frozen": bool(u(ctx.frozen)), "aux_keep": u(rec.aux_keep)}
        if not u(info.reason):
            return res
        npmds = u(info.npmds)
        kept = self.prog.read(u(rec.aux), u(info.aux_len)) if u(info.aux_len) else b""
        path = os.path.join(self.out_dir, "aux-kept-%#x.bin" % desc)
        if kept:
            with open(path, "wb") as f:
                f.write(kept)
        res.update({"cpu": u(info.cpu), "ctx_cpu": u(info.ctx_cpu), "flags_kept": u(info.flags),
                    "tstamp": u(info.tstamp), "ovfl_count": u(info.ovfl_count),
                    "smpl_count": u(info.smpl_count), "set": u(info.set),
                    "pmds": [u(rec.pmds[i]) for i in range(npmds)],
                    "aux_head": u(info.aux_head), "aux_len": u(info.aux_len),
                    "aux_crc32": zlib.crc32(kept) & 0xffffffff,
                    "aux_file": path if kept else None,
                    "logged": bool(u(rec.logged))})
        return res

    def context(self, ctx):
        desc = (u(ctx.cookie) << 32) | (u(ctx.id) + 1)
        state = u(ctx.state)
        name = PFM_CTX_STATES.get(state, str(state))
        if state == 2 and u(ctx.masked):
            name = "MASKED"
        sets = self.sets(ctx)
        pmu = string(ctx.pmu.name) if u(ctx.pmu) else "?"
        return {"desc": desc, "addr": u(ctx), "state": name, "started": bool(u(ctx.started)),
                "offline": bool(u(ctx.offline)), "frozen": bool(u(ctx.frozen)),
                "cpu": u(ctx.cpu), "pmu": pmu, "flags": u(ctx.flags),
                "owner": string(ctx.owner.name) if u(ctx.owner) else None,
                "active_set": u(ctx.active_set.id) if u(ctx.active_set) else None,
                "sets": sets, "messages": self.messages(ctx),
                "samples": self.samples(ctx, sets), "aux": self.aux(ctx, desc),
                "crash": self.crash(ctx, desc)}


def print_text(ctxs, out):
    w = out.write
    w("pfmk: %d contexts\n" % len(ctxs))
    for c in ctxs:
        w("\ncontext %#x  state %s%s%s%s  cpu %d  pmu %s  owner %s\n" % (
            c["desc"], c["state"], " STARTED" if c["started"] else "",
            " OFFLINE" if c["offline"] else "", " FROZEN" if c["frozen"] else "",
            c["cpu"], c["pmu"], c["owner"]))
        for s in c["sets"]:
            w("  set %d%s runs %d flags %#x\n" % (s["id"], " (active)" if s["active"] else "",
                                                  s["runs"], s["flags"]))
            for p in s["pmds"]:
                if p["event"] or p["value"]:
                    w("    pmd%-3d %20d%s\n" % (p["num"], p["value"], "" if p["event"] else "  (no event)"))
        cr = c["crash"]
        if cr:
            w("  crash set-up flags %#x, aux_keep %d: %s\n" % (cr["flags"], cr["aux_keep"],
                                                            "frozen by " + cr["reason"] if cr["reason"] != "none" else "not frozen"))
            if cr["reason"] != "none":
                w("    on cpu %d at %d ns, context cpu %d, set %d, flags %#x, overflows %d, samples %d\n" % (
                    cr["cpu"], cr["tstamp"], cr["ctx_cpu"], cr["set"], cr["flags_kept"],
                    cr["ovfl_count"], cr["smpl_count"]))
                for i, v in enumerate(cr["pmds"]):
                    if v:
                        w("    pmd%-3d %20d  (at the freeze)\n" % (i, v))
                if cr["aux_len"]:
                    w("    AUX kept: %d bytes ending at %d, crc32 %#010x -> %s\n" % (
                        cr["aux_len"], cr["aux_head"], cr["aux_crc32"], cr["aux_file"]))
        m = c["messages"]
        w("  messages: %d queued, %d dropped%s\n" % (len(m["queued"]), m["dropped"],
                                                   ", one pending in the irq_work" if m["pending"] else ""))
        for msg in m["queued"]:
            w("    %s\n" % " ".join("%s=%s" % (k, hex(v) if k == "ip" else v) for k, v in msg.items()))
        smp = c["samples"]
        if smp:
            w("  samples: %d in a %d-byte buffer (%d overflows of it)\n" % (smp["count"], smp["size"],
                                                                         smp["overflows"]))
            for e in smp["entries"]:
                w("    #%-6d cpu %d pid %d pmd %d %s%s\n" % (e["n"], e["cpu"], e["pid"], e["pmd"], e["sym"],
                                                          " " + str(e["values"]) if e["values"] else ""))
            w("  top functions:\n")
            for t in smp["top"]:
                w("    %8d  %s\n" % (t["count"], t["name"]))
        a = c["aux"]
        if a:
            w("  AUX pmd%d, %d bytes, %s" % (a["pmd"], a["size"], "snapshot" if a["snapshot"] else "stop-when-full"))
            if "head" in a:
                w(": stream [%d, %d), %d bytes, crc32 %#010x -> %s\n" % (a["from"], a["to"], a["bytes"],
                                                                      a["crc32"], a["file"]))
                w("    head %s\n    tail %s\n" % (a["first"], a["last"]))
            else:
                w(" (no buffer attached)\n")


def main(argv, prog=None):
    ap = argparse.ArgumentParser(description="pfmk contexts in a crash dump or the live kernel (drgn)")
    ap.add_argument("-c", "--core", help="vmcore or QEMU dump-guest-memory ELF file")
    ap.add_argument("--live", action="store_true", help="the running kernel (/proc/kcore)")
    ap.add_argument("-s", "--symbols", action="append", default=[], help="vmlinux or module with debug info")
    ap.add_argument("-d", "--module-dir", action="append", default=[], help="directory of .ko files")
    ap.add_argument("-o", "--out", default=".", help="directory for the AUX files")
    ap.add_argument("--json", help="write the result as JSON to this file")
    ap.add_argument("--entries", type=int, default=8, help="first and last N samples to show")
    ap.add_argument("--top", type=int, default=10, help="top functions to show")
    args = ap.parse_args(argv)
    if prog is None:
        prog = drgn.Program()
        if args.live:
            prog.set_kernel()
        elif args.core:
            prog.set_core_dump(args.core)
        else:
            ap.error("-c CORE or --live")
        paths = list(args.symbols)
        for d in args.module_dir:
            for root, _, files in os.walk(d):
                paths += [os.path.join(root, f) for f in files if f.endswith(".ko")]
        try:
            prog.load_debug_info(paths, default=not paths)
        except drgn.MissingDebugInfoError as e:
            # Modules loaded in the kernel without a file here: fine.
            print("pfmk-drgn.py: %s" % str(e).splitlines()[0], file=sys.stderr)
    os.makedirs(args.out, exist_ok=True)
    dec = Decoder(prog, args.out, args.entries, args.top)
    ctxs = [dec.context(c) for c in dec.contexts()]
    print_text(ctxs, sys.stdout)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"contexts": ctxs}, f, indent=1)
    return 0


if __name__ == "__main__":
    if "prog" in globals():         # run by drgn: the program is set up
        sys.exit(main(sys.argv[1:], globals()["prog"]))
    sys.exit(main(sys.argv[1:]))
