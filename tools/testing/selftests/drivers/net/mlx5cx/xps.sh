#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# XPS: each TX queue is mapped to the CPUs whose completion vectors its
# channel takes, so that xmit runs on the CPU of the queue's NAPI.  On 4
# vCPUs with 4 channels, tx-i on CPU i; with 2, tx-0 on CPUs 0 and 2 and
# tx-1 on 1 and 3; with 1, tx-0 on all.  Pinned with taskset, a sender's
# datagrams leave on its CPU's queue and no other.  A map the user wrote
# survives down and up; a new channel count sets the defaults again.
# vm-args: --smp 4

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

ktap_header 13

ours_pair_up

# xps_of Q: TX queue Q's CPU mask (hex, no leading zeros or commas).
xps_of() {
	sed 's/,//g; s/^0*//' "/sys/class/net/$a/queues/tx-$1/xps_cpus"
}

# txqs: A's number of TX queues.
txqs() {
	local q=(/sys/class/net/"$a"/queues/tx-*)

	echo ${#q[@]}
}

# xps_is M0 M1...: the masks of tx-0, tx-1... in order, and as many queues.
xps_is() {
	local q got=""

	for ((q = 0; q < $#; q++)); do
		got+="$(xps_of $q) "
	done
	diag "$a: xps_cpus $got(want $*), $(txqs) TX queues"
	[ "$got" = "$* " ] && [ "$(txqs)" = $# ]
}

# channels N M0 M1...: N channels, then the masks as xps_is.
channels() {
	ethtool -L "$a" combined "$1" && wait_for 30 carrier "$a" 1 &&
		shift && xps_is "$@"
}

# user_map: tx-0 on CPU 1 by hand, the netdev down and up.
user_map() {
	echo 2 >"/sys/class/net/$a/queues/tx-0/xps_cpus" &&
		ip link set "$a" down && ip link set "$a" up &&
		wait_for 30 carrier "$a" 1 && xps_is 2 2 4 8
}

ktap_check "4 channels on $(nproc) vCPUs: tx-i on CPU i" channels 4 1 2 4 8
ktap_check "2 channels: tx-0 on CPUs 0 and 2, tx-1 on 1 and 3" channels 2 5 a
ktap_check "1 channel: tx-0 on every CPU" channels 1 f
ktap_check "4 channels again: tx-i on CPU i" channels 4 1 2 4 8

# pinned CPU: UDP from a sender pinned to CPU, each datagram on a socket
# of its own (no cached queue), leaves on tx-CPU only (4 channels).
pinned() {
	local cpu=$1 n=200 q before after moved=0 stray=0 nq

	nq=$(txqs)
	for q in $(seq 0 $((nq - 1))); do
		before[q]=$(ethtool_stat "$a" "tx${q}_packets")
	done
	taskset -c "$cpu" python3 - "$B_IP" "$n" <<'PY' || return 1
import socket, sys
ip, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"x" * 64, (ip, 9))
    s.close()
PY
	for q in $(seq 0 $((nq - 1))); do
		after=$(ethtool_stat "$a" "tx${q}_packets")
		if [ "$q" = "$cpu" ]; then
			moved=$((moved + after - before[q]))
		else
			stray=$((stray + after - before[q]))
		fi
	done
	diag "$n datagrams from CPU $cpu: $moved on tx-$cpu, $stray on the others"
	[ "$moved" -ge "$n" ] && [ "$stray" -lt $((n / 10)) ]
}
ktap_check "a sender pinned to CPU 0: its datagrams on tx-0" pinned 0
ktap_check "a sender pinned to CPU 3: its datagrams on tx-3" pinned 3

ktap_check "a map the user wrote (tx-0 on CPU 1) survives down and up" user_map
ktap_check "a new channel count sets the defaults again" channels 2 5 a
ktap_check "rmmod" unload_mlx5
ktap_check "rmmod: nothing left on the device" all_clean
no_complaints "no mlx5 error or warning in the kernel log"

ktap_finish
