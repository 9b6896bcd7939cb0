#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-args: --port-prop mpwqe=off --port-prop cqe_compression=off
#
# Our netdev on a model without two optional capabilities: enhanced MPWQE
# (enhanced_multi_pkt_send_wqe clear, as on a ConnectX-4) and CQE
# compression (cqe_compression clear). skb_tx_mpwqe, xdp_tx_mpwqe and
# rx_cqe_compress read off; turning any on is refused with the reason in
# dmesg (ethtool's set_priv_flags has no extack) and the flag unchanged;
# traffic flows as one SEND WQE per packet.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "a model with mpwqe=off and cqe_compression=off stands in for a device without them"

ktap_header 10

ours_bound

ethtool --show-priv-flags "$a" | sed 's/^/# /'
# flag_off FLAG: A's private flag FLAG reads off.
flag_off() { ethtool --show-priv-flags "$a" | grep -Eq "^$1 *: off"; }
# refused FLAG REASON: turning FLAG on fails, the kernel log says REASON
# (set_priv_flags has no extack), the flag stays off.
refused() {
	local out msg

	dmesg_mark "refuse_$1"
	out=$(ethtool --set-priv-flags "$a" "$1" on 2>&1) && return 1
	msg=$(dmesg_since "refuse_$1" | grep "$1")
	diag "set $1 on: $out"
	diag "dmesg: $msg"
	echo "$msg" | grep -q "$2" && flag_off "$1"
}
for f in skb_tx_mpwqe xdp_tx_mpwqe rx_cqe_compress; do
	case $f in
	rx_cqe_compress) why='rx_cqe_compress: the device has no CQE compression' ;;
	*) why='no enhanced multi-packet send WQE' ;;
	esac
	ktap_check "$f is off" flag_off "$f"
	ktap_check "turning $f on is refused, with the reason in dmesg" refused "$f" "$why"
done

pair_up "$a" "$b"
# sends_seen N: the model has fetched N SEND WQEs from A in all.
sends_seen() { [ "$(model_get "$bdf_a" wqe.SEND)" -ge "$1" ]; }
sends() {
	local s0 m0 t0 s m t

	s0=$(model_get "$bdf_a" wqe.SEND)
	m0=$(model_get "$bdf_a" wqe.ENHANCED_MPSW)
	t0=$(ethtool_stat "$a" tx_packets)
	ping -c 20 -i 0.05 -W 2 "$B_IP" >/dev/null || return 1
	t=$(( $(ethtool_stat "$a" tx_packets) - t0 ))
	# The driver counts a packet when it posts it; the model, when it has
	# fetched the WQE: give the model a moment to catch up.
	wait_for 10 sends_seen "$((${s0:-0} + t))"
	s=$(( $(model_get "$bdf_a" wqe.SEND) - ${s0:-0} ))
	m=$(( $(model_get "$bdf_a" wqe.ENHANCED_MPSW) - ${m0:-0} ))
	diag "20 pings: tx_packets +$t, model SEND +$s, ENHANCED_MPSW +$m, tx_mpwqe_blks $(ethtool_stat "$a" tx_mpwqe_blks)"
	[ "$s" -eq "$t" ] && [ "$t" -ge 20 ] && [ "$m" -eq 0 ] &&
		[ "$(ethtool_stat "$a" tx_mpwqe_blks)" -eq 0 ]
}
ktap_check "traffic flows, as SEND WQEs only" sends

pair_down
ktap_check "rmmod" unload_mlx5
ktap_check "rmmod: nothing left on the device" all_clean

ktap_finish
