# SPDX-License-Identifier: GPL-2.0
"""What the benchmark reports share: loading a tool of this folder by its
file name, and guest instructions per packet from insn-count snapshots."""

import importlib.machinery
import importlib.util
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def load_tool(name):
    path = os.path.join(HERE, name)
    modname = name.replace("-", "_")
    loader = importlib.machinery.SourceFileLoader(modname, path)
    spec = importlib.util.spec_from_loader(modname, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def load_estimator():
    return load_tool("pcie-estimate")


def insn_figures(rawdir, tag, driver, n):
    """(kernel instructions, the driver's share) per packet, or Nones."""
    base = os.path.join(rawdir, tag)
    text = os.path.join(rawdir, driver + ".text")
    if not (os.path.exists(base + ".insn0") and os.path.exists(base + ".insn1")
            and os.path.exists(text)):
        return None, None
    ir = load_tool("insn-report")
    d = ir.delta(ir.read_snapshot(base + ".insn0"),
                 ir.read_snapshot(base + ".insn1"), None,
                 {"drv": ir.read_ranges(text)})
    return d["kernel"] / n, d["text.drv"] / n


def insn_user(rawdir, tag):
    """User-mode instructions between the snapshots (all vCPUs), or None:
    in a window that holds only insn-mark and the kernel's work, insn-mark's
    own few."""
    base = os.path.join(rawdir, tag)
    if not (os.path.exists(base + ".insn0") and os.path.exists(base + ".insn1")):
        return None
    ir = load_tool("insn-report")
    return ir.delta(ir.read_snapshot(base + ".insn0"),
                    ir.read_snapshot(base + ".insn1"), None, {})["user"]


def insn_symbols(rawdir, tag, driver, n, top=10):
    """[(function, kernel instructions per packet)], the top ones first,
    from the run's kallsyms where it saved them (<tag>.kallsyms.gz), else
    the driver's turn's (bench_unload); [] without them."""
    base = os.path.join(rawdir, tag)
    syms = base + ".kallsyms.gz"
    if not os.path.exists(syms):
        # One of several runs with the same symbols (TAG-rN).
        syms = re.sub(r"-r\d+$", "", base) + ".kallsyms.gz"
    if not os.path.exists(syms):
        syms = os.path.join(rawdir, driver + ".kallsyms.gz")
    if not (os.path.exists(base + ".insn0") and os.path.exists(base + ".insn1")
            and os.path.exists(syms)):
        return []
    ir = load_tool("insn-report")
    split = ir.by_symbol(ir.read_snapshot(base + ".insn0"),
                         ir.read_snapshot(base + ".insn1"), None,
                         ir.read_kallsyms(syms))
    return [(name, cnt / n) for name, cnt in
            sorted(split.items(), key=lambda kv: -kv[1])[:top]]


def print_symbol_split(rawdir, runs, what, top=10):
    """Markdown: the top functions by kernel instructions per packet of
    each run, side by side; runs: [(column title, driver, tag, packets)].
    Nothing when no run has its snapshots and symbols."""
    cols = [(title, insn_symbols(rawdir, tag, drv, n, top))
            for title, drv, tag, n in runs]
    cols = [(t, c) for t, c in cols if c]
    if not cols:
        return
    print()
    print("Where the kernel instructions of %s go: the %d functions that "
          "ran the most, per packet (insn-count's 64-byte units by "
          "/proc/kallsyms)." % (what, top))
    print()
    print("| " + " | ".join("%s | per packet" % t for t, _ in cols) + " |")
    print("|" + " --- | ---: |" * len(cols))
    for i in range(top):
        cells = []
        for _, c in cols:
            if i < len(c):
                cells.append("`%s` | %.0f" % c[i])
            else:
                cells.append(" | ")
        print("| " + " | ".join(cells) + " |")


def read(path):
    with open(path) as f:
        return f.read()
