#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of what results.py leaves out of the kernel reports it counts.

Two filters decide that a report in a guest's console is not a failure:
known_boot_leaks() drops kmemleak's reports of objects the boot task
allocated before any module was loaded, and PFMK_WARNINGS lets the steps
that provoke pfmk's own warnings print them.  A filter that drops too much
hides a leak or a warning of pfmk's; these tests put both kinds of line, in
the shapes the guests print them (kmemleak_report in scripts/guest-init.sh,
pr_warn in core/), into the recorded passing guest log
(scripts/fixtures/results/pass.log) and read the "reports" row.

usage: python3 scripts/test_reports.py   (run by scripts/check.sh)
"""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import results  # noqa: E402

FIX = os.path.join(HERE, "fixtures", "results")

# Debian 6.1's ACPI cache, allocated by the boot task under start_kernel()
# and reported by a scan after the baseline (a debug-6.1 guest's console).
BOOT_LEAK = """\
kmemleak-report: unreferenced object 0xffff88800018db40 (size 216):
kmemleak-report:   comm "swapper/0", pid 0, jiffies 4294892296
kmemleak-report:   hex dump (first 32 bytes):
kmemleak-report:     e0 a5 03 00 00 00 00 00 00 00 00 48 00 00 00 00  ...........H....
kmemleak-report:     05 00 00 00 00 00 00 00 68 00 00 00 48 00 00 00  ........h...H...
kmemleak-report:   backtrace:
kmemleak-report:     [<(____ptrval____)>] kmem_cache_create_usercopy+0x11e/0x320
kmemleak-report:     [<(____ptrval____)>] kmem_cache_create+0xd/0x10
kmemleak-report:     [<(____ptrval____)>] acpi_os_create_cache+0x14/0x30
kmemleak-report:     [<(____ptrval____)>] acpi_ut_init_globals+0x9/0x4b0
kmemleak-report:     [<(____ptrval____)>] acpi_initialize_subsystem+0x46/0xdf
kmemleak-report:     [<(____ptrval____)>] acpi_early_init+0x85/0x16b
kmemleak-report:     [<(____ptrval____)>] start_kernel+0x2d6/0x349
kmemleak-report:     [<(____ptrval____)>] secondary_startup_64_no_verify+0xcd/0xdb
"""

# An object a pfmk module allocated while insmod ran it.
PFMK_LEAK = """\
kmemleak-report: unreferenced object 0xffff888009a3c400 (size 512):
kmemleak-report:   comm "insmod", pid 97, jiffies 4294937110
kmemleak-report:   hex dump (first 32 bytes):
kmemleak-report:     00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
kmemleak-report:   backtrace (crc 5b1d2e70):
kmemleak-report:     [<ffffffff81a1d2c4>] kmemleak_alloc+0x4b/0x80
kmemleak-report:     [<ffffffff8145e0b3>] __kmalloc_cache_noprof+0x2a3/0x3c0
kmemleak-report:     [<ffffffffa0012f31>] pfmk_ctx_alloc+0x41/0x1d0 [pfmk]
kmemleak-report:     [<ffffffffa0013a02>] pfmk_create_context+0x92/0x2e0 [pfmk]
kmemleak-report:     [<ffffffffa0040c17>] pfmk_smoke_init+0x117/0x1000 [pfmk_smoke]
kmemleak-report:     [<ffffffff81002a6d>] do_one_initcall+0x5d/0x390
kmemleak-report:     [<ffffffff811e8f41>] do_init_module+0x91/0x270
"""

# Allocated by the boot task, but in its idle loop: an interrupt of any
# origin (a pfmk overflow's irq_work included) runs on that stack.
IDLE_LEAK = """\
kmemleak-report: unreferenced object 0xffff888005c1e000 (size 64):
kmemleak-report:   comm "swapper/0", pid 0, jiffies 4294938001
kmemleak-report:   backtrace:
kmemleak-report:     [<(____ptrval____)>] __kmalloc+0x4a/0x160
kmemleak-report:     [<(____ptrval____)>] pfmk_ovfl_work+0x33/0x90 [pfmk]
kmemleak-report:     [<(____ptrval____)>] irq_work_run_list+0x2b/0x40
kmemleak-report:     [<(____ptrval____)>] __sysvec_irq_work+0x2c/0xd0
kmemleak-report:     [<(____ptrval____)>] asm_sysvec_irq_work+0x1a/0x20
kmemleak-report:     [<(____ptrval____)>] default_idle+0xf/0x20
kmemleak-report:     [<(____ptrval____)>] do_idle+0x1ed/0x280
kmemleak-report:     [<(____ptrval____)>] cpu_startup_entry+0x19/0x20
kmemleak-report:     [<(____ptrval____)>] rest_init+0xd3/0xe0
kmemleak-report:     [<(____ptrval____)>] start_kernel+0x2f0/0x349
"""

# Under start_kernel(), but not allocated by the boot task.
OTHER_TASK_LEAK = BOOT_LEAK.replace('comm "swapper/0", pid 0,', 'comm "kworker/0:1", pid 12,')

UNLOADED = ("pfmk: module pfmk_test_leaky unloaded with 4 open context(s); pfmk closed "
            "them (further reclaims are counted in debugfs pfmk/stats)")
REARM = "pfmk: context 0x26a790c700000001: cannot re-arm on CPU1: -12"


def reports(block, step="tracepoints", stamp=False):
    """The "reports" row of pass.log with @block printed inside @step (a
    step of the log, or a new one inserted before rmmod:pfmk), each line
    with a printk time stamp if @stamp."""
    with open(os.path.join(FIX, "pass.log")) as f:
        log = f.read().splitlines()
    lines = block.splitlines()
    if stamp:
        lines = ["[   46.%06d] %s" % (i, x) for i, x in enumerate(lines)]
    begin = "PFMK-STEP-BEGIN %s" % step
    if begin in log:
        at = log.index(begin) + 1
    else:
        at = log.index("PFMK-STEP-BEGIN rmmod:pfmk")
        lines = [begin] + lines + ["PFMK-STEP-END %s rc=0" % step]
    log[at:at] = lines
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write("\n".join(log) + "\n")
    try:
        rows = results.parse("fixture", f.name, os.path.join(FIX, "plan.json"), 0)
    finally:
        os.unlink(f.name)
    rep = {r["suite"]: r for r in rows}["reports"]
    return rep["failed"], rep["notes"]


class KmemleakBootLeaks(unittest.TestCase):
    def test_boot_task_leak_under_start_kernel_skipped(self):
        self.assertEqual(reports(BOOT_LEAK), (0, []))

    def test_boot_leak_with_time_stamps_skipped(self):
        self.assertEqual(reports(BOOT_LEAK, stamp=True), (0, []))

    def test_pfmk_module_leak_reported(self):
        failed, notes = reports(PFMK_LEAK)
        self.assertEqual(failed, 1, notes)
        self.assertIn("unreferenced object 0xffff888009a3c400", notes[0])

    def test_pfmk_leak_after_boot_leak_reported(self):
        # The boot leak's lines end where the next object starts.
        failed, notes = reports(BOOT_LEAK + PFMK_LEAK + BOOT_LEAK)
        self.assertEqual(failed, 1, notes)
        self.assertIn("unreferenced object 0xffff888009a3c400", notes[0])

    def test_boot_task_leak_in_idle_loop_reported(self):
        failed, notes = reports(IDLE_LEAK)
        self.assertEqual(failed, 1, notes)
        self.assertIn("unreferenced object 0xffff888005c1e000", notes[0])

    def test_other_task_under_start_kernel_reported(self):
        failed, notes = reports(OTHER_TASK_LEAK)
        self.assertEqual(failed, 1, notes)

    def test_boot_task_leak_without_start_kernel_reported(self):
        failed, notes = reports(BOOT_LEAK.replace("start_kernel+", "kernel_init+"))
        self.assertEqual(failed, 1, notes)

    def test_skipped_lines_are_the_report_only(self):
        lines = (BOOT_LEAK + PFMK_LEAK).splitlines()
        n = len(BOOT_LEAK.splitlines())
        self.assertEqual(results.known_boot_leaks(lines), set(range(n)))


class PfmkWarnings(unittest.TestCase):
    def test_unloaded_in_reclaim_step_passes(self):
        self.assertEqual(reports(UNLOADED, step="reclaim"), (0, []))

    def test_unloaded_in_other_step_fails(self):
        failed, notes = reports(UNLOADED)
        self.assertEqual(failed, 1, notes)
        self.assertIn("pfmk warning in step tracepoints: pfmk: module pfmk_test_leaky "
                      "unloaded with 4 open context(s)", notes[0])

    def test_rearm_in_kunit_step_passes(self):
        self.assertEqual(reports(REARM, step="insmod:pfmk_kunit", stamp=True), (0, []))

    def test_rearm_in_other_step_fails(self):
        # Another KUnit module's step: the prefix is pfmk_kunit's, not any
        # module's whose name starts with pfmk.
        failed, notes = reports(REARM, step="insmod:pfmk_fx_kunit")
        self.assertEqual(failed, 1, notes)
        self.assertIn("pfmk warning in step insmod:pfmk_fx_kunit: " + REARM, notes[0])

    def test_warning_allowed_in_one_step_only(self):
        # The re-arm warning in the reclaim step, the unload one in KUnit's.
        self.assertEqual(reports(REARM, step="reclaim")[0], 1)
        self.assertEqual(reports(UNLOADED, step="insmod:pfmk_kunit")[0], 1)

    def test_warning_before_any_step_fails(self):
        lines = ["pfmk: pfmk 0.26 loaded", UNLOADED]
        self.assertEqual(results.pfmk_warnings(lines),
                         [(2, "pfmk warning in step None: " + UNLOADED)])


if __name__ == "__main__":
    unittest.main()
