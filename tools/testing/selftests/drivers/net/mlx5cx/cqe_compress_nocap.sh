#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-args: --port-prop cqe_compression=off
#
# A model without CQE compression: our rx_cqe_compress stays off, turning
# it on is refused with the reason in the kernel log (ethtool's
# set_priv_flags has no extack), and traffic flows as before.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "a model with cqe_compression=off stands in for a device without it"

ktap_header 7

ours_pair_up
ktap_check "rx_cqe_compress is off" \
	bash -c "ethtool --show-priv-flags $a | grep -Eq 'rx_cqe_compress *: off'"
refused() {
	local out

	dmesg_mark cqe_nocap
	out=$(ethtool --set-priv-flags "$a" rx_cqe_compress on 2>&1) && return 1
	diag "set rx_cqe_compress on: $out"
	dmesg_since cqe_nocap | grep -q 'rx_cqe_compress: the device has no CQE compression' &&
		ethtool --show-priv-flags "$a" | grep -Eq 'rx_cqe_compress *: off'
}
ktap_check "turning rx_cqe_compress on is refused, the reason logged" refused
ktap_check "traffic flows (ping A -> B)" ping -c 5 -i 0.1 -W 2 "$B_IP"

pair_down
ktap_check "rmmod" unload_mlx5
ktap_check "rmmod: nothing left on the device" all_clean

ktap_finish
