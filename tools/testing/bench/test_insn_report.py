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
    mod = ir.read_ranges(paths["r"])
    r = ir.Ranges(mod)
    ok(r.overlaps(0xffffffffc0001000, 4096) and r.overlaps(0xffffffffc0002000, 4096)
       and not r.overlaps(0xffffffffc0003000, 4096)
       and not r.overlaps(0xffffffffc0009000, 4096),
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
    # 64-byte units: the first two in f1, the third in f2; one before
    # any symbol; a data symbol does not count.
    g0 = "# insn-count snapshot g0\nunit 64\nvcpu 0 user 0 kernel_other 0\n"
    g1 = g0 + ("k 0 ffffffff81000000 30\nk 0 ffffffff81000040 12\n"
               "k 0 ffffffff81000080 5\nk 0 ffffffff80000000 1\n"
               "k 0 ffffffff81000070 2\n")
    ksyms = ("ffffffff81000000 T f1\nffffffff81000070 d data1\n"
             "ffffffff81000070 t __pfx_f2\t[mlx5_core]\n"
             "ffffffff81000080 t f2\t[mlx5_core]\n")
    for name, text in (("g0", g0), ("g1", g1), ("ks", ksyms)):
        paths[name] = os.path.join(tmp, name)
        with open(paths[name], "w") as f:
            f.write(text)
    s0, s1 = ir.read_snapshot(paths["g0"]), ir.read_snapshot(paths["g1"])
    ok(s1[0]["unit"] == 64 and before[0]["unit"] == 4096,
       "a snapshot's unit: as stated, 4 KiB pages without the line")
    split = ir.by_symbol(s0, s1, None, ir.read_kallsyms(paths["ks"]))
    ok(split == {"f1": 42, "f2 [mlx5_core]": 7, "?": 1},
       "by symbol: a unit to the text symbol its start lies in, past __pfx_")
    d = ir.delta(s0, s1, None, {"m": [(0xffffffff81000070, 0x10)]})
    ok(d["kernel"] == 50 and d["text.m"] == 14,
       "64-byte units: a range counts only the units it overlaps")
    out = subprocess.run([sys.executable, TOOL, "--symbols", paths["ks"],
                          "--top", "1", "--packets", "2",
                          paths["g0"], paths["g1"]],
                         capture_output=True, text=True)
    ok(out.returncode == 0 and "insn.sym.f1=42" in out.stdout and
       "insn.sym.f1.per_packet=21.0" in out.stdout and
       "f2" not in out.stdout, "command line: --symbols --top")
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
