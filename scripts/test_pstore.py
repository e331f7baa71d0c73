#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of scripts/pfmk-pstore.py, the decoder of pfmk's crash summaries.

usage: python3 scripts/test_pstore.py   (run by scripts/check.sh)
"""
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


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
