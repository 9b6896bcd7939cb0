#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Carry QEMU monitor (QMP) commands from the guest to the VM's QEMU.

The guest cannot reach the host's QMP socket; it shares the results folder
with the host. A guest script drops a request, one QMP command as JSON, into
RESULTS/qmp/NAME.req; this agent, run by tools/testing/vm/run beside QEMU,
sends it and writes QEMU's answer to RESULTS/qmp/NAME.resp. Used for what a
person would do at the monitor while a test runs: set_link to flap a port,
qom-get to read a model counter.

    qmp-agent.py QMP_SOCKET DIR
"""

import json
import os
import socket
import sys
import time

POLL_S = 0.05
CONNECT_S = 30


def connect(path):
    deadline = time.monotonic() + CONNECT_S
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


class Qmp:
    def __init__(self, path):
        self.sock = connect(path)
        self.rfile = self.sock.makefile("r", encoding="utf-8")
        self.recv()  # greeting
        self.command({"execute": "qmp_capabilities"})

    def recv(self):
        line = self.rfile.readline()
        if not line:
            raise EOFError("QMP closed")
        return json.loads(line)

    def command(self, cmd):
        self.sock.sendall((json.dumps(cmd) + "\n").encode())
        while True:
            msg = self.recv()
            if "return" in msg or "error" in msg:
                return msg


def serve(qmp, qdir):
    while True:
        names = sorted(n for n in os.listdir(qdir) if n.endswith(".req"))
        if not names:
            time.sleep(POLL_S)
            continue
        for name in names:
            req = os.path.join(qdir, name)
            try:
                with open(req, encoding="utf-8") as f:
                    cmd = json.load(f)
                resp = qmp.command(cmd)
            except (ValueError, OSError) as e:
                resp = {"error": {"class": "AgentError", "desc": str(e)}}
            out = os.path.join(qdir, name[:-4] + ".resp")
            with open(out + ".tmp", "w", encoding="utf-8") as f:
                json.dump(resp, f)
                f.write("\n")
            os.rename(out + ".tmp", out)
            os.unlink(req)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    os.makedirs(argv[2], exist_ok=True)
    try:
        serve(Qmp(argv[1]), argv[2])
    except (EOFError, OSError):
        pass  # QEMU is gone: so is the guest that asked
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
