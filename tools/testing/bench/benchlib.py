# SPDX-License-Identifier: GPL-2.0
"""What the benchmark reports share: loading a tool of this folder by its
file name, and guest instructions per packet from insn-count snapshots."""

import importlib.machinery
import importlib.util
import os

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
                 {"drv": ir.pages_of(ir.read_ranges(text))})
    return d["kernel"] / n, d["text.drv"] / n


def read(path):
    with open(path) as f:
        return f.read()
