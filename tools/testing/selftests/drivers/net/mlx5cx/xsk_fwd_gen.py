#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""xsk_fwd.sh's sender and checker, on port A:

    xsk_fwd_gen.py IFNAME DST_MAC COUNT [--at N CMD]... [--deadline S]
                   [--retry S]

sends COUNT numbered frames of EtherType 0x88b5 to DST_MAC (payloads of
46 to 1500 bytes, their sizes and bytes a function of the number), at most
WINDOW unanswered at a time, and takes each back from the forwarder: it
must be the frame sent, byte for byte, with its two addresses swapped. A
frame not back within a second is sent again (frames in flight while the
forwarder's queues are rebuilt are lost there), or after --retry S
seconds, for a run that wants no frame sent twice: there a frame only
late (a guest the host stalls) must not count as lost. Replies already
waiting are taken before any frame is sent again. "--at N CMD" runs the
shell command CMD, without waiting for it, once N frames are back. Prints
"key value" lines: back (distinct frames back), sent (transmissions),
resent, dup (a number back twice), bad (frames back that differ from the
one sent: the first few also on stderr), secs; on stderr, progress each
tenth of COUNT; exit 0 when all COUNT came
back and none was bad, else 1.
"""
import argparse
import select
import socket
import struct
import subprocess
import sys
import time

ETHERTYPE = 0x88B5
WINDOW = 64
RETRY = 1.0
PATTERN = bytes(range(256)) * 8


def payload(n):
    size = 46 + (n * 149) % 1455
    off = n % 256
    return struct.pack("!IH", n, size) + PATTERN[off:off + size - 6]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ifname")
    ap.add_argument("dst")
    ap.add_argument("count", type=int)
    ap.add_argument("--at", nargs=2, action="append", default=[],
                    metavar=("N", "CMD"))
    ap.add_argument("--deadline", type=float, default=900)
    ap.add_argument("--retry", type=float, default=RETRY)
    args = ap.parse_args()

    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETHERTYPE))
    s.bind((args.ifname, ETHERTYPE))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    src = s.getsockname()[4]
    dst = bytes.fromhex(args.dst.replace(":", ""))
    hdr_out = dst + src + struct.pack("!H", ETHERTYPE)
    hdr_back = src + dst + struct.pack("!H", ETHERTYPE)
    events = sorted((int(n), cmd) for n, cmd in args.at)
    procs = []

    inflight = {}       # number -> when last sent
    done = set()
    nxt = 0
    sent = resent = dup = bad = 0
    t0 = time.monotonic()
    shown = 0

    def take():
        """Every frame waiting on the socket, checked."""
        nonlocal dup, bad
        while True:
            try:
                frame = s.recv(2048, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return
            if frame[:6] != src:
                continue
            n = struct.unpack("!I", frame[14:18])[0] if len(frame) >= 18 else -1
            if n < 0 or n >= args.count or frame != hdr_back + payload(n):
                bad += 1
                if bad <= 5:
                    print("bad frame (%d bytes): %s" % (len(frame), frame[:32].hex()),
                          file=sys.stderr)
                continue
            if n in done:
                dup += 1
                continue
            done.add(n)
            inflight.pop(n, None)

    while len(done) < args.count:
        if len(done) >= shown + args.count // 10:
            shown = len(done)
            print("%d back after %.1f s, %d sent again" %
                  (shown, time.monotonic() - t0, resent), file=sys.stderr, flush=True)
        now = time.monotonic()
        if now - t0 > args.deadline:
            break
        while events and len(done) >= events[0][0]:
            procs.append(subprocess.Popen(events.pop(0)[1], shell=True))
        late = [n for n, when in inflight.items() if now - when > args.retry]
        if late:
            take()
        for n in late:
            if n in inflight:
                s.send(hdr_out + payload(n))
                inflight[n] = now
                sent += 1
                resent += 1
        while len(inflight) < WINDOW and nxt < args.count:
            s.send(hdr_out + payload(nxt))
            inflight[nxt] = now
            nxt += 1
            sent += 1
        if select.select([s], [], [], 0.05)[0]:
            take()
    for p in procs:
        p.wait()
    print("back %d\nsent %d\nresent %d\ndup %d\nbad %d\nsecs %.1f" %
          (len(done), sent, resent, dup, bad, time.monotonic() - t0))
    return 0 if len(done) == args.count and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
