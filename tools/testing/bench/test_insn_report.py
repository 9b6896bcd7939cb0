#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit test of insn-report on synthetic snapshots; TAP output.

    python3 tools/testing/bench/test_insn_report.py
"""

import lzma
import os
import subprocess
import sys
import tempfile

from tap import done, load_tool, ok, tool_path

TOOL = tool_path("insn-report")
ir = load_tool("insn-report")


BEFORE = """# insn-count snapshot a
vcpu 0 user 100 kernel_other 5
k 0 ffffffff81000000 1000
k 0 ffffffffc0001000 50
vcpu 1 user 7 kernel_other 0
k 1 ffffffff81000000 10
"""
# vCPU 0: +500 in the kernel image, +300 and +200 on the module's two
# pages, +50 user; vCPU 1: +40 on the image; vCPU 2 appears.
AFTER = """# insn-count snapshot b
vcpu 0 user 150 kernel_other 5
k 0 ffffffff81000000 1500
k 0 ffffffffc0001000 350
k 0 ffffffffc0002000 200
vcpu 1 user 7 kernel_other 0
k 1 ffffffff81000000 50
vcpu 2 user 1 kernel_other 2
k 2 ffffffffc0002000 3
"""
# .text from c0001010, 0x1100 bytes: pages c0001000 and c0002000.
RANGES = ".text ffffffffc0001010 4352\n.text.unlikely ffffffffc0009000 0\n"

with tempfile.TemporaryDirectory() as tmp:
    paths = {}
    for name, text in (("b", BEFORE), ("a", AFTER), ("r", RANGES)):
        paths[name] = os.path.join(tmp, name)
        with open(paths[name], "w") as f:
            f.write(text)
    before = ir.read_snapshot(paths["b"])
    after = ir.read_snapshot(paths["a"])
    mod = ir.pages_of(ir.read_ranges(paths["r"]))
    ok(mod == {0xffffffffc0001000, 0xffffffffc0002000},
       "a range covers the pages it touches; an empty one none")
    d = ir.delta(before, after, {0}, {"mlx5_core": mod})
    ok(d == {"kernel": 1000, "kernel_other": 0, "user": 50,
             "text.mlx5_core": 500}, "vCPU 0: kernel, user and module share")
    d = ir.delta(before, after, None, {"mlx5_core": mod})
    ok(d["kernel"] == 1043 and d["user"] == 51 and d["kernel_other"] == 2 and
       d["text.mlx5_core"] == 503,
       "all vCPUs, one appearing between the snapshots")
    out = subprocess.run([sys.executable, TOOL, "--vcpus", "0,1", "--text",
                          "drv=" + paths["r"], "--packets", "10",
                          paths["b"], paths["a"]],
                         capture_output=True, text=True)
    ok(out.returncode == 0 and "insn.kernel=1040" in out.stdout and
       "insn.text.drv.per_packet=50.0" in out.stdout,
       "command line: per packet figures")
    sizes = ir.elf_section_sizes(sys.executable)
    ok(sizes.get(".text", 0) > 0, "section sizes from an ELF file")
    with open(sys.executable, "rb") as f:
        elf = f.read()
    with open(os.path.join(tmp, "m.ko.xz"), "wb") as f:
        f.write(lzma.compress(elf))
    ok(ir.elf_section_sizes(os.path.join(tmp, "m.ko.xz")) == sizes,
       "the same from the file compressed with xz, as distributions ship modules")
    with open(paths["b"], "a") as f:
        f.write("garbage\n")
    try:
        ir.read_snapshot(paths["b"])
        ok(False, "a malformed snapshot is refused")
    except ValueError:
        ok(True, "a malformed snapshot is refused")

done()
