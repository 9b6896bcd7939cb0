#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Per-channel doorbells (devlink num_doorbells), counted by the model per
# UAR page and send doorbell register. On 4 vCPUs, 4 channels: for
# num_doorbells 0, 1, 2 and 4, multiqueue pktgen as the kernel's
# samples/pktgen/pktgen_sample02_multiqueue.sh runs it (one thread per
# queue, no burst, equal counts) rings exactly min(N, 4) registers (one,
# the global doorbell, for 0), evenly (max/min at most 1.2), channel i on
# register i mod N and no other, its CQs on that register's page. The
# parameter shows, survives reload and refuses values out of range;
# ethtool -L re-spreads without a reload; a reload under traffic resumes
# it; nothing is left in the model. Then the distribution's mlx5_core
# under the same load, for the MMIO writes per packet beside ours.
# vm-args: --smp 4 --timeout 1500

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

# Packets per queue and setting: doorbells are counted, not timed.
PER_QUEUE=${PER_QUEUE:-$(sized 1000 200)}
NCH=4

require_testport "the doorbells are counted per register by the model"
ktap_header 16

WORK=$(mktemp -d)
trap 'echo stop >/proc/net/pktgen/pgctrl 2>/dev/null; rm -rf "$WORK"' EXIT

ours_pair_up
dl=pci/$bdf_a
diag "netdevs: $bdf_a=$a $bdf_b=$b, $(nproc) CPUs"

# The default is the kernel's default RSS queue count; the doorbells are
# sized from the most there can be.
combined() { ethtool -l "$a" | awk '/^Combined:/ { n = $2 } END { print n }'; }
diag "$a: $(combined) channels by default"
ktap_check "$NCH channels on $(nproc) vCPUs (ethtool -L)" \
	bash -c "ethtool -L $a combined $NCH && [ \"\$(ethtool -l $a | awk '/^Combined:/ { n = \$2 } END { print n }')\" = $NCH ]"
wait_for 30 carrier "$a" 1

doorbells() { devlink_param_get "$dl" num_doorbells; }
ktap_check "num_doorbells shown, default 8" test "$(doorbells)" = 8

ktap_check "num_doorbells 65 refused with the range, value unchanged" \
	devlink_param_refused "$dl" num_doorbells 65 "num_doorbells must be between 0 and 64"

# set_doorbells N: the parameter, a reload, the link back.
set_doorbells() {
	devlink_param_reload "$dl" num_doorbells "$1" && wait_for 30 carrier "$a" 1
}

# mq_pktgen NQ COUNT: samples/pktgen's multiqueue setup on A, thread i
# sending COUNT packets on queue i (0: until stopped), no burst, towards
# B; then run (returns when every thread is done).
mq_pktgen() {
	pktgen_mq_setup "$a" "$@" && pktgen_start
}

report() { cxsim report "$bdf_a" >"$WORK/$1"; }

# check BEFORE AFTER N NCH SPREAD: the model's counters from report BEFORE
# to report AFTER, for num_doorbells N and NCH channels. Prints what it
# found; fails unless SQ doorbells rang exactly min(N, NCH) registers
# (1 for N 0: the EQs' page), the SQ of channel i (SQs in creation order)
# only register i mod that, its control SQ (striding RQ) the same, its
# XDP SQ on that page and silent, its CQs on that page and armed there, nothing
# on a wrong page, and (SPREAD 1) max/min over the registers <= 1.2.
# NCH 0 (a driver with more SQs than channels): every SQ on one register,
# the registers and nothing on a wrong page only.
check() {
	python3 - "$WORK/$1" "$WORK/$2" "$3" "$4" "$5" "$PER_QUEUE" <<'EOF'
import sys

def load(path):
    kv = {}
    for line in open(path):
        if line.startswith("#") or " " not in line:
            continue
        k, v = line.rstrip("\n").split(" ", 1)
        kv[k] = v
    return kv

def fields(v):
    return dict(f.split("=", 1) for f in v.split() if "=" in f)

before, after = load(sys.argv[1]), load(sys.argv[2])
n, nch, spread, per_q = (int(x) for x in sys.argv[3:7])
want = min(n, nch) if n and nch else 1
bad = []

def delta(k):
    return int(after.get(k, 0)) - int(before.get(k, 0))

regs = {}
for k in after:
    if k.startswith("doorbell.sq."):
        d = delta(k)
        if d:
            regs[k[len("doorbell.sq."):]] = d
print("# SQ doorbells per register (page.offset): %s" %
      ", ".join("%s %d" % kv for kv in sorted(regs.items())))
pkts = delta("tx.packets")
mmio = delta("pcie.mmio_uar_writes")
sqd = sum(regs.values())
arms = sum(delta(k) for k in after if k.startswith("doorbell.cq_arm."))
eqd = sum(delta(k) for k in after if k.startswith("doorbell.eq."))
if pkts:
    print("# %d packets: %.3f UAR writes per packet (SQ %.3f, CQ arm %.3f, EQ %.3f)"
          % (pkts, mmio / pkts, sqd / pkts, arms / pkts, eqd / pkts))
if len(regs) != want:
    bad.append("%d registers rang, %d expected" % (len(regs), want))
if spread and regs and max(regs.values()) > 1.2 * min(regs.values()):
    bad.append("spread max/min %.2f" % (max(regs.values()) / min(regs.values())))
for k in ("sq.doorbells_wrong_uar", "cq.arms_wrong_uar", "sq.doorbells_bad"):
    if delta(k):
        bad.append("%s +%d" % (k, delta(k)))

# The striding RQs' control SQs (UMR WQEs, umr=1) apart: one a channel,
# on its channel's register. Each channel creates its TX SQ, then its XDP
# SQ (every channel has one, XDP program or not): the SQs alternate.
ready = sorted((int(k[3:]), fields(v)) for k, v in after.items()
               if k[:3] == "sq." and k[3:].isdigit() and fields(v).get("st") == "RDY")
sqs = [(q, f) for q, f in ready if f.get("umr", "0") == "0"]
xdpsqs = sqs[1::2] if nch else []
sqs = sqs[0::2] if nch else sqs
icosqs = [(q, f) for q, f in ready if f.get("umr", "0") != "0"]
rqs = sorted((int(k[3:]), fields(v)) for k, v in after.items()
             if k[:3] == "rq." and k[3:].isdigit() and fields(v).get("state") == "1")
cqs = {int(k[3:]): fields(v) for k, v in after.items()
       if k[:3] == "cq." and k[3:].isdigit()}
eq_uars = {fields(v)["uar"] for k, v in after.items()
           if k[:3] == "eq." and k[3:].isdigit()}
if not nch:
    for sqn, f in sqs:
        r = int(f["regs"], 16)
        print("# SQ %d: UAR %s regs %s doorbells %s" % (sqn, f["uar"], f["regs"], f["doorbells"]))
        if r & (r - 1) or int(f.get("wrong_uar", 0)):
            bad.append("SQ %d rang registers %s" % (sqn, f["regs"]))
    sqs = []
elif len(sqs) != nch or len(rqs) != nch:
    bad.append("%d SQs, %d RQs ready, %d expected" % (len(sqs), len(rqs), nch))
owner = {}
for i, (sqn, f) in enumerate(sqs):
    r = int(f["regs"], 16)
    key = (f["uar"], r)
    print("# channel %d: SQ %d UAR %s regs %s doorbells %s" %
          (i, sqn, f["uar"], f["regs"], f["doorbells"]))
    if r == 0 or r & (r - 1):
        bad.append("SQ %d rang registers %s" % (sqn, f["regs"]))
    if int(f["doorbells"]) < per_q * 9 // 10:
        bad.append("SQ %d: %s doorbells" % (sqn, f["doorbells"]))
    if int(f.get("wrong_uar", 0)):
        bad.append("SQ %d: doorbells on a wrong page" % sqn)
    if n == 0 and f["uar"] not in eq_uars:
        bad.append("SQ %d on UAR %s, not the global one %s" % (sqn, f["uar"], eq_uars))
    owner.setdefault(key, set()).add(i % want)
    for cqn in (int(f["cqn"]), int(rqs[i][1]["cqn"]) if i < len(rqs) else -1):
        c = cqs.get(cqn)
        if not c or c["uar"] != f["uar"] or not int(c["arms"]) or int(c["arms_wrong_uar"]):
            bad.append("channel %d CQ %d: %s" % (i, cqn, c))
if nch and icosqs:
    if len(icosqs) != len(sqs):
        bad.append("%d control SQs for %d channels" % (len(icosqs), len(sqs)))
    for i, ((q, f), (sqn, g)) in enumerate(zip(icosqs, sqs)):
        print("# channel %d: control SQ %d UAR %s regs %s doorbells %s" %
              (i, q, f["uar"], f["regs"], f["doorbells"]))
        if (f["uar"], f["regs"]) != (g["uar"], g["regs"]) or int(f.get("wrong_uar", 0)):
            bad.append("control SQ %d not on channel %d's register" % (q, i))
# The XDP SQs: one a channel, on its channel's page, silent (no XDP
# traffic here); their CQs there too, armed by the channel's NAPI.
if nch:
    if len(xdpsqs) != len(sqs):
        bad.append("%d XDP SQs for %d channels" % (len(xdpsqs), len(sqs)))
    for i, ((q, f), (sqn, g)) in enumerate(zip(xdpsqs, sqs)):
        c = cqs.get(int(f["cqn"]))
        print("# channel %d: XDP SQ %d UAR %s doorbells %s, CQ %d arms %s" %
              (i, q, f["uar"], f["doorbells"], int(f["cqn"]), c and c["arms"]))
        if f["uar"] != g["uar"] or int(f["doorbells"]) or int(f.get("wrong_uar", 0)):
            bad.append("XDP SQ %d: UAR %s doorbells %s, channel %d's UAR %s" %
                       (q, f["uar"], f["doorbells"], i, g["uar"]))
        if not c or c["uar"] != g["uar"] or not int(c["arms"]) or int(c["arms_wrong_uar"]):
            bad.append("channel %d XDP CQ %s: %s" % (i, f["cqn"], c))
for key, owners in owner.items():
    if len(owners) != 1:
        bad.append("register %s shared by channels of doorbells %s" % (key, owners))
if nch and len(owner) != want:
    bad.append("%d distinct channel registers, %d expected" % (len(owner), want))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
EOF
}

# run_setting N: reload with num_doorbells N, then equal traffic on the
# four queues.
run_setting() {
	local n=$1

	set_doorbells "$n" || { diag "num_doorbells $n: reload failed"; return 1; }
	[ "$(doorbells)" = "$n" ] || { diag "num_doorbells shows $(doorbells)"; return 1; }
	report "pre$n"
	mq_pktgen "$NCH" "$PER_QUEUE" || return 1
	report "post$n"
	diag "num_doorbells $n (shown after reload: $(doorbells)):"
	check "pre$n" "post$n" "$n" "$NCH" 1
}
for n in 0 1 2 4; do
	want=$(( n ? (n < NCH ? n : NCH) : 1 ))
	ktap_check "num_doorbells $n survives reload; pktgen on $NCH queues: $want register(s), even, channel i on register i mod $want only" \
		run_setting "$n"
done

# The allocated doorbells: min(4, channels), two a UAR page, plus the
# global page.
ktap_check "num_doorbells 4: the model holds 3 UAR pages (2 doorbell pages + global)" \
	test "$(model_get "$bdf_a" obj.uar)" = 3

# ethtool -L: 2 doorbells, then 3 channels: channel 2 joins channel 0's
# register without a reload.
respread() {
	set_doorbells 2 && ethtool -L "$a" combined 3 &&
		wait_for 30 carrier "$a" 1 || return 1
	report pre_l
	mq_pktgen 3 "$PER_QUEUE" || return 1
	report post_l
	diag "num_doorbells 2, ethtool -L combined 3:"
	check pre_l post_l 2 3 0
}
ktap_check "ethtool -L 3 over 2 doorbells: channels 0 and 2 share one register, 1 the other" \
	respread
ethtool -L "$a" combined "$NCH"
wait_for 30 carrier "$a" 1

# Reload under traffic, to num_doorbells 1 from 2: pktgen on every queue
# and a ping. pktgen stops a device that loses its carrier (as it does on
# any driver): the ping goes on and must get answers again after the
# reload; then pktgen again, on the new doorbell.
model_tx() { model_get "$bdf_a" tx.packets; }
sys_tx() { cat "/sys/class/net/$a/statistics/tx_packets"; }
sys_tx_above() { [ "$(sys_tx)" -gt "$1" ]; }
replies() { grep -c 'bytes from' "$WORK/ping"; }
replies_above() { [ "$(replies)" -gt "$1" ]; }
under_traffic() {
	local t0 t1 t2 s0 r0 r1 pid ok=1

	devlink dev param set "$dl" name num_doorbells value 1 cmode driverinit &&
		pktgen_mq_setup "$a" "$NCH" 0 || return 1
	pktgen_start until_stopped &
	ping -i 0.05 -W 1 "$B_IP" >"$WORK/ping" 2>&1 &
	pid=$!
	t0=$(model_tx)
	s0=$(sys_tx)
	wait_for 60 sys_tx_above $((s0 + 500)) || { diag "no traffic before the reload"; ok=0; }
	r0=$(replies)
	devlink dev reload "$dl" || { diag "reload under traffic failed"; ok=0; }
	wait_for 30 carrier "$a" 1
	t1=$(model_tx)
	r1=$(replies)
	# Answers again: 20 more replies.
	wait_for 120 replies_above $((r1 + 20)) || { diag "ping not answered after the reload"; ok=0; }
	pktgen_ctl stop
	kill -INT "$pid"
	traffic 0 wait
	t2=$(model_tx)
	diag "reload under traffic: model tx.packets $t0 at the start, $t1 after the reload, $t2 at the end; ping replies $r0 before, $r1 just after, $(replies) at the end"
	[ "$ok" = 1 ] && [ "$t2" -ge $((t1 + 20)) ] || return 1
	report pre_t
	mq_pktgen "$NCH" "$PER_QUEUE" || return 1
	report post_t
	diag "after the reload, num_doorbells 1:"
	check pre_t post_t 1 "$NCH" 1
}
ktap_check "reload under pktgen and ping: traffic resumes, then all on 1 register" under_traffic

no_complaints "no error or warning in the kernel log"

pair_down
unload_mlx5
ktap_check "rmmod: no object or page left in the model, no leak report" all_clean

# The distribution's mlx5_core under the same load: one doorbell.
distro() {
	modprobe mlx5_core && all_bound mlx5_core && ! ours_loaded || return 1
	a=$(netdev_of "$bdf_a")
	b=$(netdev_of "$bdf_b")
	PEER_DEV=$b
	pair_up "$a" "$b" || return 1
	ethtool -L "$a" combined "$NCH" 2>/dev/null
	[ "$(combined)" = "$NCH" ] || { diag "distribution: $(combined) channels"; return 1; }
	report pre_d
	mq_pktgen "$NCH" "$PER_QUEUE" || return 1
	report post_d
	diag "distribution mlx5_core, $NCH queues:"
	check pre_d post_d 1 0 1
}
if [ "${VM_KERNEL:-debian}" != debian ]; then
	why="the distribution driver is built for the Debian kernel, not $(uname -r)"
	ktap_skip "distribution mlx5_core: every SQ on its one doorbell register" "$why"
	ktap_skip "distribution unloaded: nothing left in the model" "$why"
else
	ktap_check "distribution mlx5_core: every SQ on its one doorbell register" distro
	pair_down
	unload_mlx5
	ktap_check "distribution unloaded: nothing left in the model" all_clean
fi

ktap_finish
