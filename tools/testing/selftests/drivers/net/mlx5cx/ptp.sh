#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PTP hardware clock: each port's ethtool -T names a PHC of ours
# (/dev/ptpN, "mlx5_ptp"); phc_ctl sets it, reads it back and steps it;
# a frequency adjustment of +/-1% makes it run that much faster or slower
# against CLOCK_MONOTONIC; phc2sys locks it to CLOCK_REALTIME. Hardware
# timestamps, with the ports as two hosts: ethtool -T lists them,
# SIOCSHWTSTAMP takes TX on and widens an RX filter to ALL; UDP from A to
# B gets every send stamped on A's PHC and every receive on B's, none
# with them off; ptp4l over the two ports locks B's PHC to A's. devlink
# reload and unbind/bind leave one working PHC a function and none
# leaked; rmmod leaves none. Then the distribution's mlx5_core: its PHC
# on the model's timer keeps time.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

# Datagrams each timestamp check sends.
STAMP_PKTS=${STAMP_PKTS:-$(sized 200 20)}
# Seconds each rate is measured over, and the frequency offset asked
# (ppb, 1%): timing noise of a TCG guest is well under 10% of it.
RATE_SECS=${RATE_SECS:-$(sized 8 3)}
FREQ_PPB=10000000
# Seconds ptp4l's slave runs.
PTP4L_SECS=${PTP4L_SECS:-$(sized 15 8)}
DRV=/sys/bus/pci/drivers/mlx5_core

if ! command -v phc_ctl >/dev/null || ! command -v phc2sys >/dev/null; then
	ktap_print_header
	ktap_skip_all "needs phc_ctl and phc2sys (linuxptp)"
	exit "$KSFT_SKIP"
fi

ktap_header 16

load_ours
bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)

# phc_of BDF: /dev/ptpN that ethtool -T of the function's netdev names.
phc_of() {
	local dev n

	dev=$(netdev_of "$1") || return 1
	n=$(ethtool -T "$dev" | sed -n 's/^PTP Hardware Clock: \([0-9][0-9]*\)$/\1/p')
	[ -n "$n" ] && echo "/dev/ptp$n"
}

# Our PHCs in sysfs, one a line.
mlx5_phcs() {
	grep -lx mlx5_ptp /sys/class/ptp/ptp*/clock_name 2>/dev/null
}

# phcs_ok: every function's netdev names its own /dev/ptpN of ours, that
# keeps time, and there are no other mlx5_ptp clocks.
phcs_ok() {
	local bdf p seen=''

	for bdf in $(cx_functions); do
		p=$(phc_of "$bdf") || { diag "$bdf: no PHC in ethtool -T"; return 1; }
		[ -c "$p" ] || { diag "$bdf: $p is no device"; return 1; }
		[ "$(cat "/sys/class/ptp/${p#/dev/}/clock_name")" = mlx5_ptp ] || return 1
		case " $seen " in *" $p "*) diag "$p twice"; return 1 ;; esac
		seen+=" $p"
		phc_get_ok "$p" || return 1
	done
	diag "PHCs:$seen; mlx5_ptp clocks: $(mlx5_phcs | wc -l)"
	[ "$(mlx5_phcs | wc -l)" = "$(cx_functions | wc -l)" ]
}

# phc_time PHC: the clock's seconds, as phc_ctl get prints them.
phc_time() {
	phc_ctl -q "$1" -- get | sed -n 's/.*clock time is \([0-9.]*\).*/\1/p'
}

# phc_get_ok PHC: set to 1000 s, read back between 1000 and 1010 s.
phc_get_ok() {
	local t

	phc_ctl -q "$1" -- set 1000 >/dev/null 2>&1 || return 1
	t=$(phc_time "$1")
	awk -v t="$t" 'BEGIN { exit !(t >= 1000 && t < 1010) }'
}

# phc_rate PHC SECS: the PHC's rate against CLOCK_MONOTONIC over SECS, in
# ppb; each end the best of 20 reads bracketed by CLOCK_MONOTONIC.
phc_rate() {
	python3 - "$1" "$2" <<'EOF'
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
clk = ((~fd) << 3) | 3
def pair():
    best = None
    for _ in range(20):
        a = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        p = time.clock_gettime_ns(clk)
        b = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        if best is None or b - a < best[0]:
            best = (b - a, (a + b) // 2, p)
    return best
d0, m0, p0 = pair()
time.sleep(float(sys.argv[2]))
d1, m1, p1 = pair()
print(round(((p1 - p0) - (m1 - m0)) * 1e9 / (m1 - m0)))
EOF
}

# rate_moves PHC PPB BASE: with the frequency offset PPB, the PHC's rate
# is BASE + PPB within 10% of PPB.
rate_moves() {
	local r

	phc_ctl -q "$1" -- freq "$2" >/dev/null 2>&1 || return 1
	r=$(phc_rate "$1" "$RATE_SECS") || return 1
	diag "freq $2 ppb: rate $r ppb (nominal $3)"
	awk -v r="$r" -v b="$3" -v f="$2" \
		'BEGIN { d = r - b - f; if (d < 0) d = -d; exit !(d * 10 < (f < 0 ? -f : f)) }'
}

ktap_check "ethtool -T of each port names its own PHC (/dev/ptpN, mlx5_ptp) that keeps time" \
	phcs_ok

phc=$(phc_of "$bdf_a")
phc_b=$(phc_of "$bdf_b")
diag "port A $bdf_a: ${phc:-none}, port B $bdf_b: ${phc_b:-none}"

set_get() {
	local t

	t=$(phc_ctl -q "$phc" -- set 1000000000 get | sed -n 's/.*clock time is \([0-9.]*\).*/\1/p')
	diag "set 1000000000 s, read $t s"
	awk -v t="$t" 'BEGIN { exit !(t >= 1000000000 && t < 1000000002) }'
}
ktap_check "phc_ctl set 1000000000 s, get: read back within 2 s" set_get

# Step it by +100 s and -50 s: 1000000050 s within 2 s.
adj_get() {
	local t

	t=$(phc_ctl -q "$phc" -- set 1000000000 adj 100 adj -50 get |
		sed -n 's/.*clock time is \([0-9.]*\).*/\1/p')
	diag "set 1000000000 s, adj +100 s, adj -50 s, read $t s"
	awk -v t="$t" 'BEGIN { exit !(t >= 1000000050 && t < 1000000052) }'
}
ktap_check "phc_ctl adj +100 s, adj -50 s: the clock stepped by +50 s" adj_get

phc_ctl -q "$phc" -- freq 0 >/dev/null 2>&1
base=$(phc_rate "$phc" "$RATE_SECS")
diag "nominal rate against CLOCK_MONOTONIC over $RATE_SECS s: $base ppb"
ktap_check "nominal frequency: the PHC runs with CLOCK_MONOTONIC within 0.1%" \
	awk -v r="$base" 'BEGIN { exit !(r > -1000000 && r < 1000000) }'
ktap_check "freq +$FREQ_PPB ppb: the PHC runs 1% faster, within 10%" \
	rate_moves "$phc" "$FREQ_PPB" "$base"
ktap_check "freq -$FREQ_PPB ppb: the PHC runs 1% slower, within 10%" \
	rate_moves "$phc" "-$FREQ_PPB" "$base"
phc_ctl -q "$phc" -- freq 0 >/dev/null 2>&1

# phc2sys steps the PHC from 0 to CLOCK_REALTIME and steers its frequency;
# locked (s2), the last offsets are within 1 ms.
phc2sys_locks() {
	local out offs

	phc_ctl -q "$phc" -- set 0 >/dev/null 2>&1 || return 1
	out=$(timeout "$RATE_SECS" phc2sys -s CLOCK_REALTIME -c "$phc" -O 0 -R 4 -m -q)
	echo "$out" | tail -n 3 | sed 's/^/# /'
	offs=$(echo "$out" | sed -n 's/.* offset *\(-\{0,1\}[0-9]*\) s2 .*/\1/p' | tail -n 4)
	[ "$(echo "$offs" | grep -c .)" -ge 4 ] || return 1
	echo "$offs" | awk '{ if ($1 > 1000000 || $1 < -1000000) bad = 1 } END { exit bad }'
}
ktap_check "phc2sys -s CLOCK_REALTIME locks the PHC (s2), last offsets within 1 ms" \
	phc2sys_locks
phc_ctl -q "$phc" -- freq 0 >/dev/null 2>&1

# ---- hardware timestamps, port A to port B (in netns $NS) ----

a=$(netdev_of "$bdf_a")
b=$(netdev_of "$bdf_b")

ts_modes() {
	local out

	out=$(ethtool -T "$a") || return 1
	echo "$out" | grep -A20 '^Capabilities' | tr -d '\t' | tr '\n' ' ' | sed 's/^/# /'
	echo
	for m in hardware-transmit hardware-receive hardware-raw-clock; do
		echo "$out" | grep -q "$m" || return 1
	done
	echo "$out" | grep -A3 'Hardware Transmit Timestamp Modes' | grep -qw on &&
		echo "$out" | grep -A3 'Hardware Receive Filter Modes' | grep -qw all
}
ktap_check "ethtool -T lists hardware transmit, receive and raw-clock stamps, tx on, rx all" \
	ts_modes

# hwts_set DEV TX RX [NETNS]: SIOCSHWTSTAMP by hwstamp_ctl; prints what
# the driver made of it ("tx_type N rx_filter M").
hwts_set() {
	${4:+ip netns exec "$4"} hwstamp_ctl -i "$1" -t "$2" -r "$3" |
		awk '/^new settings:/ { n = 1 } n && $1 == "tx_type" { t = $2 }
		     n && $1 == "rx_filter" { r = $2 }
		     END { if (n) print "tx_type " t " rx_filter " r }'
}

hwts_on() {
	local ra rb

	pair_up "$a" "$b" || return 1
	# 12: PTP v2 events, any layer; the driver stamps all (1).
	ra=$(hwts_set "$a" 1 12) rb=$(hwts_set "$b" 1 12 "$NS")
	diag "$a: $ra; $b: $rb"
	[ "$ra" = "tx_type 1 rx_filter 1" ] && [ "$rb" = "tx_type 1 rx_filter 1" ]
}
ktap_check "SIOCSHWTSTAMP on both ports: TX on, RX filter PTP v2 widened to ALL" \
	hwts_on

# stamp_rx ADDR COUNT PHC OUT: receive COUNT datagrams on ADDR:5400 with
# SO_TIMESTAMPING; OUT gets "hw-stamped in-window in-order" counts.
stamp_rx() {
	python3 - "$@" <<'PY'
import os, socket, struct, sys, time
ip, n, phc, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
clk = ((~os.open(phc, os.O_RDONLY)) << 3) | 3
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 37, (1 << 2) | (1 << 6))
s.bind((ip, 5400))
s.settimeout(30)
open(out + ".ready", "w").close()
t0, st = time.clock_gettime_ns(clk), []
try:
    for _ in range(n):
        _, anc, _, _ = s.recvmsg(2048, 1024)
        hw = [struct.unpack("6q", d[:48]) for l, t, d in anc if l == socket.SOL_SOCKET and t == 37]
        st.append(hw[0][4] * 10**9 + hw[0][5] if hw else 0)
except socket.timeout:
    pass
t1 = time.clock_gettime_ns(clk)
hw = [x for x in st if x]
print(len(st), len(hw), sum(t0 <= x <= t1 for x in hw), sum(1 for i in range(1, len(hw)) if hw[i] >= hw[i - 1]) + (1 if hw else 0), file=open(out, "w"))
PY
}

# stamp_tx ADDR COUNT PHC WAIT: send COUNT datagrams to ADDR:5400 asking
# for hardware TX stamps, waiting up to WAIT s for each; prints the same.
stamp_tx() {
	python3 - "$@" <<'PY'
import os, socket, struct, sys, time
ip, n, phc, wait = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
clk = ((~os.open(phc, os.O_RDONLY)) << 3) | 3
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 37, (1 << 0) | (1 << 6) | (1 << 11))
s.setblocking(False)
t0, st = time.clock_gettime_ns(clk), []
for i in range(n):
    s.sendto(bytes([i & 0xff]) * 64, (ip, 5400))
    hw, end = 0, time.monotonic() + wait
    while time.monotonic() < end:
        try:
            _, anc, _, _ = s.recvmsg(2048, 1024, socket.MSG_ERRQUEUE)
        except BlockingIOError:
            time.sleep(0.001)
            continue
        for l, t, d in anc:
            if l == socket.SOL_SOCKET and t == 37:
                ts = struct.unpack("6q", d[:48])
                hw = ts[4] * 10**9 + ts[5]
        break
    st.append(hw)
    time.sleep(0.005)
t1 = time.clock_gettime_ns(clk)
hw = [x for x in st if x]
print(len(st), len(hw), sum(t0 <= x <= t1 for x in hw), sum(1 for i in range(1, len(hw)) if hw[i] >= hw[i - 1]) + (1 if hw else 0))
PY
}

# stamp_run WAIT: UDP A -> B; sets tx and rx to the counts of each side.
stamp_run() {
	local out=${TMPDIR:-/tmp}/mlx5cx-ptp-rx.$$ pid

	rm -f "$out" "$out.ready"
	ip netns exec "$NS" bash -c "$(declare -f stamp_rx); stamp_rx $B_IP $STAMP_PKTS $phc_b $out" &
	pid=$!
	# A python3 start in a TCG guest: seconds, a minute on the debug kernel.
	wait_for 60 test -e "$out.ready" || { diag "receiver not ready"; kill "$pid"; return 1; }
	tx=$(stamp_tx "$B_IP" "$STAMP_PKTS" "$phc" "$1")
	wait "$pid"
	rx=$(cat "$out" 2>/dev/null)
	rm -f "$out" "$out.ready"
	diag "$STAMP_PKTS datagrams: TX sent/stamped/in-window/in-order $tx; RX received/stamped/in-window/in-order $rx"
}

stamps_on() {
	local n=$STAMP_PKTS

	stamp_run 2 || return 1
	[ "$tx" = "$n $n $n $n" ] && [ "$rx" = "$n $n $n $n" ]
}
ktap_check "UDP A -> B: every send stamped on A's PHC, every receive on B's, within the run, in order" \
	stamps_on

stamps_off() {
	local n=$STAMP_PKTS ra rb

	ra=$(hwts_set "$a" 0 0) rb=$(hwts_set "$b" 0 0 "$NS")
	diag "$a: $ra; $b: $rb"
	[ "$ra" = "tx_type 0 rx_filter 0" ] && [ "$rb" = "tx_type 0 rx_filter 0" ] || return 1
	stamp_run 0.02 || return 1
	[ "$tx" = "$n 0 0 0" ] && [ "$rx" = "$n 0 0 0" ]
}
ktap_check "TX off and RX filter none: no hardware stamps either way" stamps_off

# ptp4l on both ports (IEEE 802.3, hardware stamps, four syncs and
# announces a second, 100 ms for a TX stamp under TCG rather than 1): A
# the master, B a slave that locks its PHC to A's (s2), the last offsets
# within 1 ms (TCG jitter), path delays not negative (a TX stamp is taken
# before the peer can receive the frame).
PTP4L_OPTS=(-2 -q --logSyncInterval=-2 --logAnnounceInterval=-2
	    --announceReceiptTimeout=2 --summary_interval=-2
	    --tx_timestamp_timeout=100)
ptp4l_locks() {
	local out s2 pid

	ptp4l -i "$a" "${PTP4L_OPTS[@]}" >/dev/null 2>&1 &
	pid=$!
	out=$(ip netns exec "$NS" timeout "$PTP4L_SECS" ptp4l -i "$b" -s -m \
		"${PTP4L_OPTS[@]}" 2>&1)
	kill "$pid" 2>/dev/null
	wait "$pid"
	echo "$out" | tail -n 3 | sed 's/^/# /'
	s2=$(echo "$out" | grep ' s2 freq' | tail -n 8)
	[ "$(echo "$s2" | grep -c .)" -ge 8 ] || return 1
	echo "$s2" | awk '{ for (i = 1; i < NF; i++) {
				if ($i == "offset") o = $(i + 1)
				if ($i == "delay") d = $(i + 1) }
			    if (o > 1000000 || o < -1000000 || d < 0) bad = 1 }
			  END { exit bad }'
}
ktap_check "ptp4l -2 over the two ports: B's PHC locks to A's (s2), offsets within 1 ms, delays >= 0" \
	ptp4l_locks
hwts_set "$a" 0 0 >/dev/null
pair_down

reload_each() {
	local bdf

	for bdf in $(cx_functions); do
		devlink dev reload "pci/$bdf" || return 1
	done
	phcs_ok
}
ktap_check "devlink dev reload of each function: one working PHC each, none leaked" \
	reload_each

rebind_each() {
	local bdf

	for bdf in $(cx_functions); do
		echo "$bdf" >"$DRV/unbind" || return 1
		[ -z "$(phc_of "$bdf" 2>/dev/null)" ] || return 1
		echo "$bdf" >"$DRV/bind" || return 1
	done
	phcs_ok
}
ktap_check "PCI unbind and bind of each function: one working PHC each, none leaked" \
	rebind_each

unload_mlx5
ktap_check "rmmod: no mlx5_ptp clock left" test -z "$(mlx5_phcs)"

# The distribution's driver on the same timer (device_frequency_khz).
distro_phc() {
	distro_here || return 1
	modprobe mlx5_core || return 1
	! ours_loaded && all_bound mlx5_core || return 1
	phc=$(phc_of "$bdf_a") || return 1
	diag "distribution mlx5_core: $bdf_a has $phc ($(cat "/sys/class/ptp/${phc#/dev/}/clock_name"))"
	set_get || return 1
	base=$(phc_rate "$phc" "$RATE_SECS")
	diag "distribution driver: rate against CLOCK_MONOTONIC $base ppb"
	awk -v r="$base" 'BEGIN { exit !(r > -1000000 && r < 1000000) }' || return 1
	rate_moves "$phc" "$FREQ_PPB" "$base"
}
ktap_check "distribution mlx5_core: its PHC sets, reads back, runs at the timer's rate, takes freq" \
	distro_phc
modprobe -r mlx5_core 2>/dev/null

ktap_finish
