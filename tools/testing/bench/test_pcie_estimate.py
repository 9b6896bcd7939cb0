#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit test of pcie-estimate on synthetic reports; TAP output.

    python3 tools/testing/bench/test_pcie_estimate.py
"""

import os
import subprocess
import sys
import tempfile

from tap import done, load_tool, ok, tool_path

TOOL = tool_path("pcie-estimate")
pe = load_tool("pcie-estimate")


def near(a, b, eps=1e-6):
    return abs(a - b) <= eps * max(1.0, abs(b))


# 1000 64-byte packets, one 64-byte SEND WQE and one 8-byte doorbell each.
SYNTH = """# 0000:00:04.0
hca_state initialised
sq.4096 doorbells=1000 wqes=1000 cc=1000 state=1 cqn=1 st=RDY errors=0 err_resets=0
tx.packets 1000
pcie.mps 256
pcie.rd_tlps 2000
pcie.wqe.rd_req 1000
pcie.wqe.rd_bytes 64000
pcie.wqe.rd_tlps 1000
pcie.wqe.cpl_tlps 1000
pcie.payload.rd_req 1000
pcie.payload.rd_bytes 64000
pcie.payload.rd_tlps 1000
pcie.payload.cpl_tlps 1000
pcie.mmio_writes 1000
pcie.mmio_bytes 8000
pcie.mmio_reads 0
# 0000:00:04.1
tx.packets 5
pcie.wqe.rd_bytes 7
"""

rep = pe.parse_report(SYNTH)
ok(rep["tx.packets"] == 1000 and "sq.4096" not in rep,
   "parse: first function, integer values only")
ok(pe.parse_report(SYNTH, "0000:00:04.1")["tx.packets"] == 5,
   "parse: --bdf picks a function")
ok(pe.parse_report("tx.packets 3\npcie.mmio_bytes 0x10\n")["pcie.mmio_bytes"] == 16,
   "parse: a report= file (no header), hex values")

r = pe.estimate(rep, 1000, 20e6, gen=3)
ok(near(r["rows"]["wqe"][2], 64 + 24) and near(r["rows"]["payload"][2], 88),
   "WQE and payload: 64 B data + 24 B per completion TLP = 88 B")
ok(near(r["rows"]["mmio"][2], 8 + 24), "doorbell: 8 B + 24 B = 32 B")
ok(near(r["total"], 208), "total 208 B per packet")
link3 = 8 * 8e9 * 128 / 130
ok(near(r["link_bps"], link3), "Gen3 x8: 8 GT/s, 128b/130b, 63.0 Gbit/s")
ok(near(r["util"], 208 * 8 * 20e6 / link3) and near(r["util"], 0.52813, 1e-4),
   "20 Mpps Gen3 x8: 33.28 Gbit/s = 52.8%")
r2 = pe.estimate(rep, 1000, 20e6, gen=2)
ok(near(r2["link_bps"], 32e9) and near(r2["util"], 1.04),
   "Gen2 x8: 5 GT/s 8b/10b = 32 Gbit/s, 104%")
ok(near(r["outbound_req_bytes"], 48), "outbound: 2 read request TLPs x 24 B")

# No cpl_tlps in an older report: one completion per MPS, at least per request.
old = {"pcie.payload.rd_req": 10, "pcie.payload.rd_bytes": 10 * 600}
r3 = pe.estimate(old, 10, 1e6)
ok(near(r3["rows"]["payload"][1], 3) and near(r3["rows"]["payload"][2], 600 + 72),
   "fallback: 600 B -> 3 completions of <= 256 B")

before = pe.parse_report("tx.packets 400\npcie.wqe.rd_bytes 25600\n")
d = pe.delta(rep, before)
ok(d["tx.packets"] == 600 and d["pcie.wqe.rd_bytes"] == 38400,
   "delta between two reports")
ok(pe.parse_rate("20M") == 20e6 and pe.parse_rate("1.5k") == 1500,
   "rates with suffixes")

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "r.txt")
    with open(path, "w") as f:
        f.write(SYNTH)
    out = subprocess.run([sys.executable, TOOL, "--pps", "20M", "--gen", "3",
                          path], capture_output=True, text=True)
    ok(out.returncode == 0 and "total" in out.stdout and
       "52.8% of the link" in out.stdout and "33.28 Gbit/s" in out.stdout,
       "command line: 20 Mpps Gen3 -> 33.28 Gbit/s, 52.8%")
    for line in out.stdout.splitlines():
        print("# " + line)

done()
