#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Drive the cxsim test port (BAR2) from inside the VM.

The test port is not part of the hardware: it exists only in the QEMU
model, for tests (see tools/testing/cxsim/README.md).  Stdlib only; run
as root.

    cxsim.py report [BDF]            the model's report (all functions)
    cxsim.py fault BDF OPCODE [COUNT]  fail OPCODE COUNT times (default 1;
                                       'always' or -1 for every time)
    cxsim.py delay BDF MS [OPCODE] [COUNT]
    cxsim.py freeze BDF on|off       freeze the health counter
    cxsim.py synd BDF SYND [rfr]     set the health syndrome (0 clears);
                                     rfr: with the reset-request bit (fatal)
    cxsim.py dead BDF on|allones|mute|off
                                     the firmware dies: commands never
                                     complete, counter stops, syndrome
                                     DEAD_IRISC; allones: init segment reads
                                     return all ones too; mute: commands
                                     never complete, the rest lives on
    cxsim.py dropirq BDF N           lose the next N MSI-X messages
    cxsim.py pages BDF N [TIMES]     page request event (N < 0: reclaim),
                                     TIMES of them (default 1)
    cxsim.py pageoffset BDF OFF      page addresses handed back carry the
                                     in-page offset OFF (0: none)
    cxsim.py pagebogus BDF N         the next N page addresses handed back
                                     were never given (the pages stay)
    cxsim.py initpages BDF N         QUERY_PAGES(init) asks for N pages
                                     (0: the model's own figure)
    cxsim.py eqflood BDF N           N port-change events to the async EQ,
                                     as fast as the driver takes them
                                     (0 stops); eqflood BDF prints what
                                     is left
    cxsim.py xoff BDF on|off         the link partner's PAUSE: XOFF holds the
                                     port's sending (where RX pause is on),
                                     XON lets it go; xoff BDF prints 1
                                     while held off
    cxsim.py fecerrors BDF CORR [UNCORR]
                                     the port's FEC decoder corrected CORR
                                     more blocks and could not correct
                                     UNCORR (default 0), counted by the
                                     FEC the link runs (none: uncounted)
    cxsim.py msix BDF VECTOR [createeq]
                                     an MSI-X message on VECTOR now, or
                                     when the next CREATE_EQ is rung
    cxsim.py timeout BDF MS          command timeout the init segment states
                                     (read by a driver at probe; 0: 60 s)
    cxsim.py errcqe BDF SQN          the next WQE run on SQ SQN completes
                                     with an error CQE (one-shot; 0 disarms)
    cxsim.py errcqerq BDF RQN|any    the next frame for RQ RQN (or any RQ)
                                     completes with an error CQE and the RQ
                                     goes to error (one-shot; 0 disarms)
    cxsim.py inlinefault BDF MODE    the next SEND WQE inlining fewer header
                                     bytes than MODE (l2, ip, tcp; none
                                     disarms) asks fails (error CQE)
    cxsim.py badrxcqe BDF RQN|any KIND
                                     the next CQE of a striding RQ names the
                                     WQE or the stride after the right one
                                     (KIND wqe_id, stride), a legacy RQ's
                                     counts 64 KiB more (byte_cnt), the next
                                     compressed block's title counts 0 CQEs
                                     or more than its CQ holds (title_zero,
                                     title_long); one-shot, the frames are
                                     placed as usual
    cxsim.py umrhold BDF MS|until [COUNT]
                                     hold UMR WQEs (no translation, no CQE,
                                     their SQ stopped) for MS ms or until
                                     umrrelease; COUNT holds (default always)
    cxsim.py umrrelease BDF          end every UMR hold now, disarm
    cxsim.py umrfail BDF [N]         the next N UMRs (default 1) fail with
                                     an error CQE on their SQ
    cxsim.py sqs BDF                 the function's SQ numbers in RDY state
    cxsim.py dmaprobe BDF ADDR       the device DMA-writes 8 bytes at ADDR
                                     (the VM runner's self-test: behind the
                                     IOMMU, unmapped, a model error); prints
                                     written, refused or blocked (bus
                                     mastering off)
    cxsim.py clear BDF               clear faults, delays and the timeout
    cxsim.py present BDF...          exit 0 when every BDF has the test port
                                     (real hardware, or testport=off: none)

OPCODE is a number (0x104) or a name (ENABLE_HCA, MLX5_CMD_OP_ENABLE_HCA).

While an mlx5 driver is bound it owns every BAR, and the kernel maps BAR2
for us only when booted with iomem=relaxed (vm/run --append iomem=relaxed).
"""

import glob
import mmap
import os
import re
import struct
import sys

VENDOR = 0x15B3
MAGIC = 0x4D534358
ALWAYS = 0xFFFFFFFF
MLX5_CMD_STAT_INT_ERR = 0x1

REG_MAGIC = 0x000
REG_VERSION = 0x004
REG_SNAPSHOT = 0x008
REG_FAULT_OPCODE = 0x010
REG_FAULT_COUNT = 0x014
REG_FAULT_STATUS = 0x018
REG_FAULT_SYNDROME = 0x01C
REG_DELAY_OPCODE = 0x020
REG_DELAY_MS = 0x024
REG_DELAY_COUNT = 0x028
REG_HEALTH_FREEZE = 0x030
REG_HEALTH_SYND = 0x034
REG_PAGE_REQUEST = 0x038
REG_CMD_TIMEOUT = 0x03C
REG_LINK_DOWN = 0x040
REG_ERR_CQE_SQN = 0x044
REG_ERR_CQE_RQN = 0x050
REG_INLINE_MODE = 0x054
REG_BAD_RX_CQE = 0x058
BAD_CQE_KINDS = {"wqe_id": 0x1, "stride": 0x2, "title_zero": 0x3,
                 "title_long": 0x4, "byte_cnt": 0x5}
REG_UMR_HOLD = 0x05C
REG_UMR_HOLD_COUNT = 0x060
REG_UMR_RELEASE = 0x064
REG_UMR_FAIL = 0x068
REG_DMA_PROBE = 0x06C
REG_DMA_PROBE_HI = 0x070
REG_PAGE_OFFSET = 0x08C
REG_PAGE_BOGUS = 0x090
REG_EQ_FLOOD = 0x094
REG_XOFF = 0x098
REG_INIT_PAGES = 0x09C
REG_FEC_CORRECTED = 0x0A0
REG_FEC_UNCORRECTABLE = 0x0A4
REG_MSIX_RAISE = 0x074
MSIX_ON_CREATE_EQ = 0x80000000
MSIX_NOW = 0x40000000
DMA_PROBE_OUTCOMES = {0: "none", 1: "written", 2: "refused", 3: "blocked"}
INLINE_MODES = {"none": 0, "l2": 1, "ip": 2, "tcp": 3}
ANY_RQ = 0xFFFFFF
REG_REPORT_LEN = 0x080
REG_REPORT_PAGE = 0x084
REG_FW_DEAD = 0x048
REG_DROP_IRQ = 0x04C
FW_DEAD_ON = 0x1
FW_DEAD_ALL_ONES = 0x2
FW_MUTE = 0x4
HEALTH_SYND_RFR = 0x100
REPORT = 0x8000
SIZE = 0x10000
REPORT_PAGE = SIZE - REPORT

# Used when the kernel headers are not at hand.
_OPCODES = {
    "QUERY_HCA_CAP": 0x100, "QUERY_ADAPTER": 0x101, "INIT_HCA": 0x102,
    "TEARDOWN_HCA": 0x103, "ENABLE_HCA": 0x104, "DISABLE_HCA": 0x105,
    "QUERY_PAGES": 0x107, "MANAGE_PAGES": 0x108, "SET_HCA_CAP": 0x109,
    "QUERY_ISSI": 0x10A, "SET_ISSI": 0x10B, "CREATE_EQ": 0x301,
    "DESTROY_EQ": 0x302, "QUERY_EQ": 0x303, "CREATE_CQ": 0x400,
    "ALLOC_UAR": 0x802, "DEALLOC_UAR": 0x803, "ACCESS_REG": 0x805,
}


def opcodes():
    """Opcode names from the kernel's mlx5_ifc.h (the host / is visible)."""
    table = dict(_OPCODES)
    for hdr in sorted(glob.glob("/usr/src/linux-headers-*/include/linux/mlx5/mlx5_ifc.h")):
        try:
            with open(hdr) as f:
                for m in re.finditer(r"MLX5_CMD_OP_(\w+)\s*=\s*(0x[0-9a-fA-F]+)", f.read()):
                    table[m.group(1)] = int(m.group(2), 16)
        except OSError:
            continue
        break
    return table


def parse_opcode(s):
    """A number or a name, with or without MLX5_CMD_OP_."""
    try:
        return int(str(s), 0)
    except ValueError:
        pass
    name = str(s).upper()
    if name.startswith("MLX5_CMD_OP_"):
        name = name[len("MLX5_CMD_OP_"):]
    table = opcodes()
    if name not in table:
        raise ValueError("unknown opcode %r" % s)
    return table[name]


def functions():
    """BDFs of the cxsim functions, sorted."""
    out = []
    for dev in sorted(glob.glob("/sys/bus/pci/devices/*")):
        try:
            with open(dev + "/vendor") as f:
                if int(f.read(), 16) != VENDOR:
                    continue
        except OSError:
            continue
        if os.path.exists(dev + "/resource2"):
            out.append(os.path.basename(dev))
    return out


def _ensure_memory_decoding(bdf):
    """Set the memory space bit of the PCI command register if it is off.

    Done through config space rather than the 'enable' file, which would
    pin the device's enable count.
    """
    path = "/sys/bus/pci/devices/%s/config" % bdf
    with open(path, "r+b", buffering=0) as f:
        f.seek(4)
        cmd = struct.unpack("<H", f.read(2))[0]
        if not cmd & 0x2:
            f.seek(4)
            f.write(struct.pack("<H", cmd | 0x2))


class Port:
    """The test port of one function."""

    def __init__(self, bdf):
        self.bdf = bdf
        _ensure_memory_decoding(bdf)
        fd = os.open("/sys/bus/pci/devices/%s/resource2" % bdf, os.O_RDWR | os.O_SYNC)
        try:
            self.map = mmap.mmap(fd, SIZE, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        except OSError as e:
            # A bound mlx5 driver claims every BAR (pci_request_regions);
            # with CONFIG_IO_STRICT_DEVMEM the kernel then refuses the
            # mapping unless booted with iomem=relaxed.
            raise RuntimeError("%s: cannot map the test port (%s); boot the "
                               "guest with iomem=relaxed" % (bdf, e)) from e
        finally:
            os.close(fd)
        if self.rd(REG_MAGIC) != MAGIC:
            raise RuntimeError("%s: no cxsim test port (magic 0x%x)" % (bdf, self.rd(REG_MAGIC)))

    def rd(self, off):
        # One aligned 32-bit access through a memoryview.
        return memoryview(self.map).cast("I")[off // 4]

    def wr(self, off, val):
        memoryview(self.map).cast("I")[off // 4] = val & 0xFFFFFFFF

    def _report_text(self):
        """The whole snapshot, page by page through the window."""
        self.wr(REG_SNAPSHOT, 1)
        n = self.rd(REG_REPORT_LEN)
        words = memoryview(self.map).cast("I")
        raw = bytearray()
        if not n:
            # A model without REPORT_LEN: one window, up to the NUL.
            for i in range(REPORT // 4, SIZE // 4):
                w = struct.pack("<I", words[i])
                raw += w
                if 0 in w:
                    break
            return raw.split(b"\0", 1)[0].decode()
        page = 0
        while len(raw) < n:
            self.wr(REG_REPORT_PAGE, page)
            take = min(n - len(raw), REPORT_PAGE)
            for i in range(REPORT // 4, REPORT // 4 + (take + 3) // 4):
                raw += struct.pack("<I", words[i])
            raw = raw[:page * REPORT_PAGE + take]
            page += 1
        self.wr(REG_REPORT_PAGE, 0)
        return raw.decode()

    def report(self):
        text = self._report_text()
        out = {}
        for line in text.splitlines():
            key, _, val = line.partition(" ")
            try:
                out[key] = int(val, 0)
            except ValueError:
                out[key] = val
        if out.get("report.truncated", 0):
            raise RuntimeError("%s: report truncated, %s lines left out"
                               % (self.bdf, out["report.truncated"]))
        return out


_ports = {}


def port(bdf):
    if bdf not in _ports:
        _ports[bdf] = Port(bdf)
    return _ports[bdf]


def report(bdf):
    return port(bdf).report()


def set_fault(bdf, opcode, count=1, status=MLX5_CMD_STAT_INT_ERR, syndrome=0):
    p = port(bdf)
    p.wr(REG_FAULT_OPCODE, 0)
    p.wr(REG_FAULT_STATUS, status)
    p.wr(REG_FAULT_SYNDROME, syndrome)
    p.wr(REG_FAULT_COUNT, ALWAYS if count in (None, -1, "always") else count)
    p.wr(REG_FAULT_OPCODE, parse_opcode(opcode))


def delay(bdf, ms, opcode=0, count=1):
    p = port(bdf)
    p.wr(REG_DELAY_COUNT, 0)
    p.wr(REG_DELAY_OPCODE, parse_opcode(opcode))
    p.wr(REG_DELAY_MS, ms)
    p.wr(REG_DELAY_COUNT, ALWAYS if count in (None, -1, "always") else count)


def clear_faults(bdf):
    p = port(bdf)
    p.wr(REG_FAULT_OPCODE, 0)
    p.wr(REG_FAULT_COUNT, 0)
    p.wr(REG_FAULT_STATUS, MLX5_CMD_STAT_INT_ERR)
    p.wr(REG_FAULT_SYNDROME, 0)
    p.wr(REG_DELAY_COUNT, 0)
    p.wr(REG_DELAY_MS, 0)
    p.wr(REG_DELAY_OPCODE, 0)
    p.wr(REG_CMD_TIMEOUT, 0)
    p.wr(REG_ERR_CQE_SQN, 0)
    p.wr(REG_ERR_CQE_RQN, 0)
    p.wr(REG_INLINE_MODE, 0)
    p.wr(REG_BAD_RX_CQE, 0)
    p.wr(REG_UMR_FAIL, 0)
    p.wr(REG_UMR_RELEASE, 1)
    p.wr(REG_FW_DEAD, 0)
    p.wr(REG_DROP_IRQ, 0)
    p.wr(REG_PAGE_OFFSET, 0)
    p.wr(REG_PAGE_BOGUS, 0)
    p.wr(REG_INIT_PAGES, 0)
    p.wr(REG_EQ_FLOOD, 0)
    p.wr(REG_MSIX_RAISE, 0)


def health_freeze(bdf, on):
    port(bdf).wr(REG_HEALTH_FREEZE, 1 if on else 0)


def health_synd(bdf, synd, rfr=False):
    port(bdf).wr(REG_HEALTH_SYND, (synd & 0xFF) | (HEALTH_SYND_RFR if rfr else 0))


def fw_dead(bdf, mode):
    """'on', 'allones' (on, and all-ones init segment reads), 'mute' (no
    command answered, the health counter runs) or 'off'."""
    val = {"on": FW_DEAD_ON, "allones": FW_DEAD_ON | FW_DEAD_ALL_ONES,
           "mute": FW_MUTE, "off": 0}[mode]
    port(bdf).wr(REG_FW_DEAD, val)


def drop_irq(bdf, n):
    port(bdf).wr(REG_DROP_IRQ, n)


def cmd_timeout(bdf, ms):
    port(bdf).wr(REG_CMD_TIMEOUT, ms)


def err_cqe(bdf, sqn):
    """Arm the one-shot error CQE on SQ sqn (0 disarms)."""
    port(bdf).wr(REG_ERR_CQE_SQN, sqn & 0xFFFFFF)


def err_cqe_rq(bdf, rqn):
    """Arm the one-shot RX error CQE on RQ rqn (ANY_RQ: any; 0 disarms)."""
    port(bdf).wr(REG_ERR_CQE_RQN, rqn & 0xFFFFFF)


def inline_fault(bdf, mode):
    """The next SEND WQE inlining less than mode (l2, ip, tcp) fails."""
    port(bdf).wr(REG_INLINE_MODE, INLINE_MODES[mode])


def bad_rx_cqe(bdf, rqn, kind):
    """The next CQE of RQ rqn (ANY_RQ: any) lies about kind: wqe_id and
    stride a striding RQ's CQE, byte_cnt a legacy RQ's (64 KiB more),
    title_zero and title_long the next compressed block's title (its
    count: 0, or one more than the CQ)."""
    port(bdf).wr(REG_BAD_RX_CQE, BAD_CQE_KINDS[kind] << 28 | (rqn & 0xFFFFFF))


def umr_hold(bdf, ms, count=ALWAYS):
    """Hold the next COUNT UMRs (default: all) for MS ms; MS ALWAYS: until umr_release."""
    p = port(bdf)
    p.wr(REG_UMR_HOLD_COUNT, count)
    p.wr(REG_UMR_HOLD, ms)


def umr_release(bdf):
    port(bdf).wr(REG_UMR_RELEASE, 1)


def umr_fail(bdf, n=1):
    port(bdf).wr(REG_UMR_FAIL, n)


def sqs(bdf, state="RDY"):
    """SQ numbers of the function in @state, from the report's sq.<n> lines."""
    out = []
    for key, val in report(bdf).items():
        m = re.fullmatch(r"sq\.(\d+)", key)
        if not m or not isinstance(val, str):
            continue
        fields = dict(f.split("=", 1) for f in val.split() if "=" in f)
        if fields.get("st") == state:
            out.append(int(m.group(1)))
    return sorted(out)


def dma_probe(bdf, addr):
    """The device DMA-writes 8 bytes at addr; 'written', 'refused' or 'blocked'."""
    p = port(bdf)
    p.wr(REG_DMA_PROBE_HI, addr >> 32)
    p.wr(REG_DMA_PROBE, addr & 0xFFFFFFFF)
    return DMA_PROBE_OUTCOMES.get(p.rd(REG_DMA_PROBE), "?")


def page_request(bdf, n, times=1):
    p = port(bdf)
    for _ in range(times):
        p.wr(REG_PAGE_REQUEST, n & 0xFFFFFFFF)


def msix_raise(bdf, vector, on_create_eq=False):
    """An MSI-X message on vector now, or when the next CREATE_EQ is rung."""
    port(bdf).wr(REG_MSIX_RAISE, (vector & 0x3F) |
                 (MSIX_ON_CREATE_EQ if on_create_eq else MSIX_NOW))


def page_offset(bdf, off):
    port(bdf).wr(REG_PAGE_OFFSET, off)


def page_bogus(bdf, n):
    port(bdf).wr(REG_PAGE_BOGUS, n)


def init_pages(bdf, n):
    port(bdf).wr(REG_INIT_PAGES, n)


def eq_flood(bdf, n=None):
    """Start a flood of n events (0 stops); without n, what is left."""
    if n is None:
        return port(bdf).rd(REG_EQ_FLOOD)
    port(bdf).wr(REG_EQ_FLOOD, n)
    return n


def xoff(bdf, on=None):
    """The partner's XOFF (on) or XON (off); without on, whether held off."""
    if on is None:
        return port(bdf).rd(REG_XOFF)
    port(bdf).wr(REG_XOFF, 1 if on else 0)
    return int(on)


def fec_errors(bdf, corrected, uncorrectable=0):
    """Blocks the port's FEC decoder corrected and could not correct."""
    p = port(bdf)
    if corrected:
        p.wr(REG_FEC_CORRECTED, corrected)
    if uncorrectable:
        p.wr(REG_FEC_UNCORRECTABLE, uncorrectable)


def _count(s):
    return ALWAYS if s in ("always", "-1") else int(s, 0)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    cmd, args = argv[1], argv[2:]
    if cmd == "report":
        for bdf in args or functions():
            print("# %s" % bdf)
            for k, v in report(bdf).items():
                print(k, v)
        return 0
    if not args:
        print("%s: BDF needed" % cmd, file=sys.stderr)
        return 2
    if cmd == "present":
        for bdf in args:
            # Nothing is touched on a device without a 64 KiB BAR2.
            res = "/sys/bus/pci/devices/%s/resource2" % bdf
            try:
                if os.path.getsize(res) != SIZE:
                    return 1
                port(bdf)
            except (OSError, RuntimeError) as e:
                print("%s: %s" % (bdf, e), file=sys.stderr)
                return 1
        return 0
    bdf = args[0]
    if cmd == "fault":
        set_fault(bdf, args[1], _count(args[2]) if len(args) > 2 else 1)
    elif cmd == "delay":
        delay(bdf, int(args[1], 0), args[2] if len(args) > 2 else 0,
              _count(args[3]) if len(args) > 3 else 1)
    elif cmd == "freeze":
        health_freeze(bdf, args[1] in ("on", "1", "yes"))
    elif cmd == "synd":
        health_synd(bdf, int(args[1], 0), len(args) > 2 and args[2] == "rfr")
    elif cmd == "dead":
        fw_dead(bdf, args[1])
    elif cmd == "dropirq":
        drop_irq(bdf, int(args[1], 0))
    elif cmd == "pages":
        page_request(bdf, int(args[1], 0),
                     int(args[2], 0) if len(args) > 2 else 1)
    elif cmd == "msix":
        msix_raise(bdf, int(args[1], 0), len(args) > 2 and args[2] == "createeq")
    elif cmd == "pageoffset":
        page_offset(bdf, int(args[1], 0))
    elif cmd == "pagebogus":
        page_bogus(bdf, int(args[1], 0))
    elif cmd == "initpages":
        init_pages(bdf, int(args[1], 0))
    elif cmd == "xoff":
        if len(args) > 1:
            xoff(bdf, args[1] in ("on", "1", "yes"))
        else:
            print(xoff(bdf))
    elif cmd == "fecerrors":
        fec_errors(bdf, int(args[1], 0),
                   int(args[2], 0) if len(args) > 2 else 0)
    elif cmd == "eqflood":
        if len(args) > 1:
            eq_flood(bdf, int(args[1], 0))
        else:
            print(eq_flood(bdf))
    elif cmd == "timeout":
        cmd_timeout(bdf, int(args[1], 0))
    elif cmd == "errcqe":
        err_cqe(bdf, int(args[1], 0))
    elif cmd == "errcqerq":
        err_cqe_rq(bdf, ANY_RQ if args[1] == "any" else int(args[1], 0))
    elif cmd == "inlinefault":
        inline_fault(bdf, args[1])
    elif cmd == "badrxcqe":
        bad_rx_cqe(bdf, ANY_RQ if args[1] == "any" else int(args[1], 0),
                   args[2])
    elif cmd == "umrhold":
        umr_hold(bdf, ALWAYS if args[1] == "until" else int(args[1], 0),
                 _count(args[2]) if len(args) > 2 else ALWAYS)
    elif cmd == "umrrelease":
        umr_release(bdf)
    elif cmd == "umrfail":
        umr_fail(bdf, int(args[1], 0) if len(args) > 1 else 1)
    elif cmd == "sqs":
        for n in sqs(bdf):
            print(n)
    elif cmd == "clear":
        clear_faults(bdf)
    elif cmd == "dmaprobe":
        print(dma_probe(bdf, int(args[1], 0)))
    else:
        print("unknown command %r" % cmd, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
