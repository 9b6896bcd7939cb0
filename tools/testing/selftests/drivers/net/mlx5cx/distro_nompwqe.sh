#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-args: --port-prop mpwqe=off
#
# A ConnectX-5 model without enhanced MPWQE (as a ConnectX-4 has none): the
# distribution mlx5_core leaves skb_tx_mpwqe off and refuses to turn it on,
# and traffic still flows, one SEND WQE per packet.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "a model with mpwqe=off stands in for a device without MPWQE"

ktap_header 5

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)
modprobe mlx5_core
ktap_check "distribution mlx5_core binds both functions" all_bound mlx5_core
a=$(netdev_of "$bdf_a")
b=$(netdev_of "$bdf_b")

ethtool --show-priv-flags "$a" | sed 's/^/# /'
ktap_check "skb_tx_mpwqe is off" \
	bash -c "ethtool --show-priv-flags $a | grep -Eq 'skb_tx_mpwqe +: off'"
refused() {
	local out

	out=$(ethtool --set-priv-flags "$a" skb_tx_mpwqe on 2>&1) && return 1
	diag "set skb_tx_mpwqe on: $out"
	ethtool --show-priv-flags "$a" | grep -Eq 'skb_tx_mpwqe +: off'
}
ktap_check "turning skb_tx_mpwqe on is refused" refused

pair_up "$a" "$b"
sends() {
	local s0 m0 s m

	s0=$(model_get "$bdf_a" wqe.SEND)
	m0=$(model_get "$bdf_a" wqe.ENHANCED_MPSW)
	ping -c 20 -i 0.05 -W 2 "$B_IP" >/dev/null || return 1
	s=$(( $(model_get "$bdf_a" wqe.SEND) - ${s0:-0} ))
	m=$(( $(model_get "$bdf_a" wqe.ENHANCED_MPSW) - ${m0:-0} ))
	diag "20 pings: model SEND +$s, ENHANCED_MPSW +$m"
	[ "$s" -ge 20 ] && [ "$m" -eq 0 ]
}
ktap_check "traffic flows, as SEND WQEs only" sends

pair_down
modprobe -r mlx5_core
ktap_check "rmmod: nothing left on the device" all_clean

ktap_finish
