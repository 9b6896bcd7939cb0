# SPDX-License-Identifier: GPL-2.0
"""TAP output and tool loading for the bench tools' unit tests.

    from tap import load_tool, ok, done
    ir = load_tool("insn-report")   # the script beside this file, as a module
    ok(cond, "what it shows")       # one test point
    done()                          # the plan, and the exit status
"""

import importlib.machinery
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

_n = 0
_failed = 0


def tool_path(name):
    """The path of the bench tool NAME (a script without .py)."""
    return os.path.join(HERE, name)


def load_tool(name):
    """Import the bench tool NAME as a module (its name with _ for -)."""
    modname = name.replace("-", "_")
    loader = importlib.machinery.SourceFileLoader(modname, tool_path(name))
    spec = importlib.util.spec_from_loader(modname, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def ok(cond, desc):
    """One TAP test point: passes when COND is true."""
    global _n, _failed
    _n += 1
    if not cond:
        _failed += 1
    print("%sok %d - %s" % ("" if cond else "not ", _n, desc))


def done():
    """The plan, after the points; exit 1 when one failed."""
    print("1..%d" % _n)
    sys.exit(1 if _failed else 0)
