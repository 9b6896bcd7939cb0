#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# FEC where the port reports it (PCAM lists PPLM): ethtool --show-fec
# gives the mode asked and the one the link runs, as the model's port has
# them (auto: RS at 100G); --set-fec rs, baser, off and auto each read
# back, the model's PPLM admin modes are what the driver wrote (every
# speed group that can run the mode, the others auto: no BASE-R at 100G,
# so baser leaves the link on RS) and the link retrained once to take
# it; modes no speed runs (llrs) and two modes at once are refused with
# a message, nothing changed, the link left alone. The test port's
# FEC_CORRECTED/FEC_UNCORRECTABLE make the port's RS decoder count
# blocks: ethtool -I --show-fec shows exactly what the model counted,
# and with FEC off nothing is counted or shown. Then the distribution's
# mlx5_core on the same model: its --show-fec, --set-fec and FEC
# statistics agree.
# vm-args: --timeout 600

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the model's port counts FEC blocks"

NCORR=1000
NUNCORR=7

ktap_header 14

ours_pair_up

# fec_field DEV conf|active: the configured encodings ("Configured FEC
# encodings", "Supported/Configured" in ethtool before 6.2) or the active
# one of ethtool --show-fec, lower case.
fec_field() {
	local k='Active FEC encoding'

	[ "$2" = conf ] && k='Configured FEC encodings'
	ethtool --show-fec "$1" |
		awk -F': *' -v k="$k" '$1 ~ k "$" { print tolower($2); exit }'
}

# fec_stat DEV NAME: a total of ethtool -I --show-fec (corrected_blocks,
# uncorrectable_blocks, corrected_bits), empty when not shown.
fec_stat() {
	ethtool -I --show-fec "$1" |
		awk -v k="$2" '$1 == k ":" { print $2; exit }'
}

# The model's PPLM admin mode of each speed group, one line.
model_admin() {
	local r g

	r=$(cxsim report "$1")
	for g in 10g_40g 25g 50g 100g; do
		printf '%s=%s ' "$g" "$(report_get "port.fec_admin.$g" <<<"$r")"
	done
}

show_fec() {
	local conf act m

	ethtool --show-fec "$a" | sed 's/^/# /'
	conf=$(fec_field "$a" conf)
	act=$(fec_field "$a" active)
	m=$(model_get "$bdf_a" port.fec_active)
	diag "configured '$conf', active '$act'; model: active $m, $(model_admin "$bdf_a")"
	[ "$conf" = auto ] && [ "$act" = rs ] && [ "$m" = rs ]
}
ktap_check "--show-fec: configured auto, active RS (100G), as the model's port" show_fec

# set_fec MODE CONF ACT ADMIN: --set-fec encoding MODE reads back CONF
# and ACT once the link is back; the model's admin modes are ADMIN; the
# link went down once (retrained).
set_fec() {
	local d0 d conf act adm

	d0=$(model_get "$bdf_a" port.link_down_events)
	ethtool --set-fec "$a" encoding "$1" || return 1
	wait_for 15 carrier "$a" 1 || return 1
	d=$(( $(model_get "$bdf_a" port.link_down_events) - d0 ))
	conf=$(fec_field "$a" conf)
	act=$(fec_field "$a" active)
	adm=$(model_admin "$bdf_a")
	diag "$1: configured '$conf', active '$act', model $adm, link down $d time(s)"
	[ "$conf" = "$2" ] && [ "$act" = "$3" ] && [ "$adm" = "$4 " ] &&
		[ "$d" -eq 1 ]
}
ktap_check "--set-fec rs: reads back RS; the model's admin RS where it runs (not 10G/40G), link retrained" \
	set_fec rs rs rs "10g_40g=auto 25g=rs 50g=rs 100g=rs"
ktap_check "--set-fec baser: reads back BaseR, RS still runs (none at 100G): admin BaseR up to 50G, 100G auto" \
	set_fec baser baser rs "10g_40g=baser 25g=baser 50g=baser 100g=auto"
ktap_check "--set-fec off: reads back Off, active Off; admin off at every speed" \
	set_fec off off off "10g_40g=off 25g=off 50g=off 100g=off"

# FEC off: the port counts no block, ethtool shows none.
stats_off() {
	local u0 u s

	u0=$(model_get "$bdf_a" port.fec_uncounted)
	cxsim fecerrors "$bdf_a" 5 1 || return 1
	u=$(( $(model_get "$bdf_a" port.fec_uncounted) - u0 ))
	s=$(fec_stat "$a" corrected_blocks)
	diag "FEC off: 6 blocks asked, model left $u uncounted; ethtool corrected_blocks '${s}'"
	[ "$u" -eq 6 ] && [ -z "$s" ]
}
ktap_check "FEC off: no block counted, no FEC statistics shown" stats_off

ktap_check "--set-fec auto: reads back Auto, active RS; admin auto everywhere" \
	set_fec auto auto rs "10g_40g=auto 25g=auto 50g=auto 100g=auto"

# refused MODE...: --set-fec encoding MODE... fails with a message in the
# kernel log; configured mode, model and link unchanged.
refused() {
	local d0 adm0 d adm conf mark=fec-refused-$RANDOM out

	d0=$(model_get "$bdf_a" port.link_down_events)
	adm0=$(model_admin "$bdf_a")
	dmesg_mark "$mark"
	out=$(ethtool --set-fec "$a" encoding "$@" 2>&1) && return 1
	d=$(( $(model_get "$bdf_a" port.link_down_events) - d0 ))
	adm=$(model_admin "$bdf_a")
	conf=$(fec_field "$a" conf)
	diag "encoding $*: ethtool: $out"
	dmesg_since "$mark" | grep 'FEC:' | sed 's/^/# /'
	dmesg_since "$mark" | grep -q "$a: FEC: " &&
		[ "$adm" = "$adm0" ] && [ "$d" -eq 0 ] && [ "$conf" = auto ]
}
ktap_check "--set-fec llrs (no speed runs it): refused with a message, nothing changed" refused llrs
ktap_check "--set-fec rs baser (two modes): refused with a message, nothing changed" refused rs baser

# ethtool -I --show-fec against the model's counts, after the test port
# made the port's RS decoder count NCORR corrected and NUNCORR
# uncorrectable blocks.
fec_stats() {
	local c0 u0 b0 c u b mc mu

	ethtool -I --show-fec "$a" | sed 's/^/# /'
	c0=$(fec_stat "$a" corrected_blocks)
	u0=$(fec_stat "$a" uncorrectable_blocks)
	b0=$(fec_stat "$a" corrected_bits)
	cxsim fecerrors "$bdf_a" "$NCORR" "$NUNCORR" || return 1
	ethtool -I --show-fec "$a" | sed 's/^/# /'
	c=$(fec_stat "$a" corrected_blocks)
	u=$(fec_stat "$a" uncorrectable_blocks)
	b=$(fec_stat "$a" corrected_bits)
	mc=$(model_get "$bdf_a" port.fec_corrected)
	mu=$(model_get "$bdf_a" port.fec_uncorrectable)
	diag "corrected ${c0:-?} -> ${c:-?}, uncorrectable ${u0:-?} -> ${u:-?}, bits ${b0:-?} -> ${b:-?}; model $mc, $mu"
	[ -n "$c0" ] && [ -n "$u0" ] && [ -n "$b0" ] &&
		[ $((c - c0)) -eq "$NCORR" ] && [ $((u - u0)) -eq "$NUNCORR" ] &&
		[ $((b - b0)) -eq "$NCORR" ] && [ "$c" -eq "$mc" ] && [ "$u" -eq "$mu" ]
}
ktap_check "-I --show-fec: +$NCORR corrected, +$NUNCORR uncorrectable RS blocks, +$NCORR bits: the model's counts" fec_stats

ktap_check "traffic still crosses both ways" \
	bash -c "ping -c 3 -W 2 $B_IP >/dev/null && ip netns exec $NS ping -c 3 -W 2 $A_IP >/dev/null"

no_complaints "no mlx5 error or warning but the refusals" "FEC: "

# The distribution's driver on the same port: what it shows and sets
# agrees with the model, and so with ours.
distro_fec() {
	local conf act adm conf_rs c0 c mc

	distro_here || return 1
	pair_down
	rmmod mlx5_core || return 1
	modprobe mlx5_core || return 1
	! ours_loaded || return 1
	wait_for 15 bash -c "[ -n \"\$(ls /sys/bus/pci/devices/$bdf_a/net 2>/dev/null)\" ]" || return 1
	a=$(netdev_of "$bdf_a")
	ip link set "$a" up
	wait_for 15 carrier "$a" 1 || return 1
	ethtool --show-fec "$a" | sed 's/^/# distro: /'
	conf=$(fec_field "$a" conf)
	act=$(fec_field "$a" active)
	ethtool --set-fec "$a" encoding rs || return 1
	wait_for 15 carrier "$a" 1 || return 1
	adm=$(model_admin "$bdf_a")
	conf_rs=$(fec_field "$a" conf)
	c0=$(fec_stat "$a" corrected_blocks)
	cxsim fecerrors "$bdf_a" "$NCORR" 0 || return 1
	c=$(fec_stat "$a" corrected_blocks)
	mc=$(model_get "$bdf_a" port.fec_corrected)
	diag "distro: configured '$conf', active '$act'; rs: configured '$conf_rs', model $adm; corrected ${c0:-?} -> ${c:-?} (model $mc)"
	ethtool --set-fec "$a" encoding auto || return 1
	[ "$conf" = auto ] && [ "$act" = rs ] && [ "$conf_rs" = rs ] &&
		[ "$(fec_field "$a" conf)" = auto ] &&
		[ "$adm" = "10g_40g=auto 25g=rs 50g=rs 100g=rs " ] &&
		[ $((c - c0)) -eq "$NCORR" ] && [ "$c" -eq "$mc" ]
}
ktap_check "distribution mlx5_core: --show-fec auto/RS, --set-fec rs as ours writes it, the same FEC counts" distro_fec

rmmod mlx5_core
ktap_finish
