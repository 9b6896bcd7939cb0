# SPDX-License-Identifier: GPL-2.0
"""What the benchmark reports share: loading a tool of this folder by its
file name, guest instructions per packet from insn-count snapshots,
`ethtool -S` dumps, a setting's run of median instructions."""

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


def ethtool(path):
    """{counter: value} of an `ethtool -S` dump ({} when it is missing)."""
    out = {}
    try:
        for line in read(path).splitlines():
            m = re.match(r"\s*([\w.]+):\s+(\d+)$", line)
            if m:
                out[m.group(1)] = int(m.group(2))
    except OSError:
        pass
    return out


def median_settings(rs, key, order, metric="insn_per_pkt"):
    """[(the run of median instructions per packet, its setting's runs,
    the spread of their instructions per packet in % of the median)], a
    setting each (the runs with equal key(r)), sorted by order(key);
    spread None with fewer than two runs counted.  Of an even count of
    runs, the lower of the two middle ones.  metric: the figure that
    stands for instructions (per MiB, say) when not per packet."""
    groups = {}
    for r in rs:
        groups.setdefault(key(r), []).append(r)
    out = []
    for k in sorted(groups, key=order):
        g = groups[k]
        counted = sorted((r for r in g if r[metric] is not None),
                         key=lambda r: r[metric])
        if not counted:
            out.append((g[0], g, None))
            continue
        med = counted[(len(counted) - 1) // 2]
        spread = None
        if len(counted) > 1:
            spread = 100.0 * (counted[-1][metric] -
                              counted[0][metric]) / med[metric]
        out.append((med, g, spread))
    return out


def fmt(v, spec):
    """v by the %-format spec, or "-" for None."""
    return "-" if v is None else spec % v
