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
ktap_check "skb_tx_mpwqe is off" \
	bash -c "ethtool --show-priv-flags $a | grep -Eq 'skb_tx_mpwqe *: off'"
refused() {
	local out msg

	dmesg_mark refuse
	out=$(ethtool --set-priv-flags "$a" skb_tx_mpwqe on 2>&1) && return 1
	msg=$(dmesg_since refuse | grep 'skb_tx_mpwqe')
	diag "set skb_tx_mpwqe on: $out"
	diag "dmesg: $msg"
	echo "$msg" | grep -q 'no enhanced multi-packet send WQE' &&
		ethtool --show-priv-flags "$a" | grep -Eq 'skb_tx_mpwqe *: off'
}
ktap_check "turning skb_tx_mpwqe on is refused, with the reason in dmesg" refused

ktap_check "xdp_tx_mpwqe is off" \
	bash -c "ethtool --show-priv-flags $a | grep -Eq 'xdp_tx_mpwqe *: off'"
xdp_refused() {
	local out msg

	dmesg_mark xdprefuse
	out=$(ethtool --set-priv-flags "$a" xdp_tx_mpwqe on 2>&1) && return 1
	msg=$(dmesg_since xdprefuse | grep 'xdp_tx_mpwqe')
	diag "set xdp_tx_mpwqe on: $out"
	diag "dmesg: $msg"
	echo "$msg" | grep -q 'no enhanced multi-packet send WQE' &&
		ethtool --show-priv-flags "$a" | grep -Eq 'xdp_tx_mpwqe *: off'
}
ktap_check "turning xdp_tx_mpwqe on is refused, with the reason in dmesg" xdp_refused

ktap_check "rx_cqe_compress is off" \
	bash -c "ethtool --show-priv-flags $a | grep -Eq 'rx_cqe_compress *: off'"
cqe_refused() {
	local out msg

	dmesg_mark cqe_nocap
	out=$(ethtool --set-priv-flags "$a" rx_cqe_compress on 2>&1) && return 1
	msg=$(dmesg_since cqe_nocap | grep 'rx_cqe_compress')
	diag "set rx_cqe_compress on: $out"
	diag "dmesg: $msg"
	echo "$msg" | grep -q 'rx_cqe_compress: the device has no CQE compression' &&
		ethtool --show-priv-flags "$a" | grep -Eq 'rx_cqe_compress *: off'
}
ktap_check "turning rx_cqe_compress on is refused, with the reason in dmesg" cqe_refused

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
