#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A device whose firmware dies, answers late or loses an interrupt never
# hangs the host: dead firmware is found within 3 health polls and put in
# internal error (commands fail at once); fw_fatal recovers it once the
# firmware lives again and gives up cleanly while it does not; commands
# answered after their timeout give their entries back (the reported
# reload hang: 40 doorbells, 300 ms timeout, DEALLOC_UAR 1 s late); a
# command answered 3 s late in a reload's teardown leaves nothing behind;
# one still unanswered when the unload stops waiting (8 s late) has the
# next load reset the function before DMA is on again;
# a lost command interrupt is recovered by polling the EQ; 20 recoveries
# leave nothing behind; mute firmware (alive, answering no command) is
# found by 3 command timeouts in a row and put in internal error, so that
# a reload, closing the netdev or rmmod returns within a few timeouts at
# the default 60 s instead of one per command (over an hour), and
# recovery brings it back once it answers again; a stated timeout above
# 60 s is capped; a reload with dead firmware while the peer floods
# the port stops the device's DMA before its RX buffers go back (behind
# the IOMMU, a write into them would fault). The VM powers off at the end
# with the firmware of one function dead, of the other mute, and the
# driver loaded.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

RECOVERIES=${RECOVERIES:-$(sized 20 5)}

ktap_header 33

bdf=$(cx_functions | head -n 1)
dl=pci/$bdf

# rep_get REPORTER KEY: a field of "devlink health show" for REPORTER.
rep_get() {
	devlink -j health show "$dl" reporter "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)["health"]
for reps in d.values():
    for r in reps:
        if r.get("reporter") == sys.argv[1]:
            print(r.get(sys.argv[2], ""))
' "$1" "$2"
}

# diag_get REPORTER KEY: a field of "devlink health diagnose" for REPORTER.
diag_get() { devlink_diag_get "$dl" "$1" "$2"; }

rep_is() { [ "$(rep_get "$1" "$2")" = "$3" ]; }

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f\n", b - a }'; }
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }

# No task sleeps uninterruptibly (D) now, and none did long enough for the
# hung task detector.
no_d_state() {
	local d

	d=$(ps -eo stat=,comm=,wchan= | awk '$1 ~ /^D/')
	[ -z "$d" ] || { diag "D state: $d"; return 1; }
	! dmesg | grep -q 'blocked for more than'
}

# Objects and pages the model holds for the function.
model_objs() { model_sum "$bdf" obj.; }

# The command timeout is read from the init segment at each load.
cxsim timeout "$bdf" 1000
dmesg_mark deadfw
load_ours
devlink health set "$dl" reporter fw_fatal auto_recover false

# 1-4: the firmware dies; found within 3 polls, reported with its syndrome.
# The switch goes on between two reads of the poll count (the tools take
# a while under TCG): detection must come at most 3 polls after the second.
p0=$(diag_get fw polls)
cxsim dead "$bdf" on
p1=$(diag_get fw polls)
ktap_check "dead firmware: fw_fatal reports an error" \
	wait_for 30 rep_is fw_fatal error 1
det=$(diag_get fw_fatal detected_at_poll)
# The poll stops at the detection: its missed_polls says whether the
# counter still moved at the poll before (firmware alive one poll earlier).
miss=$(diag_get fw missed_polls)
diag "switch set between health polls $p0 and $p1, fatal error found at poll $det, counter stopped for $miss polls before"
ktap_check "found within 3 health polls of the switch ($p0..$p1 -> $det, $miss missed)" \
	test -n "$det" -a "$det" -gt "$p0" -a "$det" -le $((p1 + 3)) -a "$miss" -lt 3
devlink health diagnose "$dl" reporter fw_fatal | sed 's/^/# /'
ktap_check "fw_fatal diagnose: syndrome 7 (DEAD_IRISC), reset requested, internal error" \
	bash -c "[ '$(diag_get fw_fatal syndrome)' = 7 ] &&
		 [ '$(diag_get fw_fatal internal_error)' = true ] &&
		 devlink health diagnose $dl reporter fw_fatal | grep -q 'requests a reset'"
ktap_check "dmesg: fatal error detected, device in internal error" \
	bash -c "dmesg | sed -n '/selftest-mark: deadfw$/,\$p' | grep -q 'mlx5_core $bdf: fatal error detected' &&
		 dmesg | sed -n '/selftest-mark: deadfw$/,\$p' | grep -q 'mlx5_core $bdf: device in internal error'"

# 5-6: in internal error nothing waits on the device: a reload tears down
# without a single command reaching it and fails (no sign of life) quickly.
dead0=$(model_get "$bdf" cmd.dead)
to0=$(diag_get fw cmd_timeouts)
t0=$(now)
devlink dev reload "$dl" 2>/dev/null && diag "reload with dead firmware succeeded?"
t_dead_reload=$(elapsed "$t0")
diag "reload with dead firmware returned after $t_dead_reload s"
ktap_check "reload in internal error: no command posted, none timed out" \
	bash -c "[ '$(model_get "$bdf" cmd.dead)' = '$dead0' ] && [ '$(diag_get fw cmd_timeouts)' = '$to0' ]"
# Bound: no command, a function reset and at most 5 s waiting for signs of
# life; 30 s leaves room for a loaded TCG host.
ktap_check "reload in internal error returns within 30 s ($t_dead_reload s)" \
	below "$t_dead_reload" 30

# 7-8: the firmware lives again: recovery brings the function back.
cxsim dead "$bdf" off
devlink health recover "$dl" reporter fw_fatal
ktap_check "switch cleared: devlink health recover brings the function back" \
	bash -c "source $LIB_DIR/lib.sh; [ '$(rep_get fw_fatal state)' = healthy ] &&
		 [ \"\$(model_get $bdf hca_state)\" = initialised ]"
devlink health show "$dl" reporter fw_fatal | sed 's/^/# /'
ktap_check "then the function reloads, reporters healthy, no internal error" \
	bash -c "devlink dev reload $dl && [ '$(diag_get fw internal_error)' = false ] &&
		 devlink health show $dl reporter fw_fatal | grep -q 'state healthy'"

# 9-11: the firmware stays dead: automatic recovery gives up cleanly, the
# device stays in internal error and rmmod is quick.
devlink health set "$dl" reporter fw_fatal auto_recover true grace_period 0
dmesg_mark giveup
cxsim dead "$bdf" on
gave_up() {
	dmesg_since giveup | grep -q "mlx5_core $bdf: recovery failed"
}
ktap_check "switch left on: recovery gives up (firmware shows no sign of life)" \
	wait_for 60 gave_up
dmesg_since giveup | grep "mlx5_core $bdf" | sed 's/^/# /'
ktap_check "the device stays in internal error, reporter in error" \
	bash -c "[ '$(diag_get fw_fatal internal_error)' = true ] &&
		 [ '$(rep_get fw_fatal state)' = error ]"
t0=$(now)
rmmod mlx5_core
t_rmmod=$(elapsed "$t0")
diag "rmmod with dead firmware: $t_rmmod s"
ktap_check "rmmod with dead firmware completes in under 10 s ($t_rmmod s)" \
	bash -c "$(declare -f below); below $t_rmmod 10 && [ ! -d /sys/module/mlx5_core ]"
cxsim dead "$bdf" off

# 12-15: the reported hang. num_doorbells 40 (the pool takes as many as
# there can be channels, two a UAR page), commands time out after 300 ms,
# DEALLOC_UAR answered 1 s late: reload returns, nothing in D state, the
# late answers free their entries and what they free leaves the device.
cxsim timeout "$bdf" 300
load_ours
devlink_param_reload "$dl" num_doorbells 40
nuar=$(model_get "$bdf" obj.uar)
leaks0=$(model_get "$bdf" leak.reports)
late0=$(diag_get fw cmd_late_answers)
cxsim delay "$bdf" 1000 DEALLOC_UAR always
dmesg_mark repro
t0=$(now)
devlink dev reload "$dl"
rc=$?
t_repro=$(elapsed "$t0")
cxsim clear "$bdf"
late=$(( $(diag_get fw cmd_late_answers) - late0 ))
diag "reload with $nuar DEALLOC_UAR 1 s late (timeout 300 ms): status $rc after $t_repro s, $late late answers freed their entries"
# Bound: at most 41 timeouts of 300 ms, at most 5 s for the last late answers,
# and a load: about 20 s; 90 s leaves room for a loaded TCG host.
ktap_check "repro: reload returns within 90 s ($t_repro s), status 0" \
	bash -c "[ $rc = 0 ] && $(declare -f below); below $t_repro 90"
ktap_check "repro: no task in D state, no hung task report" no_d_state
ktap_check "repro: late answers freed their entries ($late of $nuar)" \
	test "$late" -ge "$nuar"
ktap_check "repro: the next reload binds, the device left nothing behind" \
	bash -c "source $LIB_DIR/lib.sh; devlink dev reload $dl &&
		 [ \"\$(model_get $bdf obj.uar)\" = $nuar ] &&
		 [ \"\$(model_get $bdf leak.reports)\" = '$leaks0' ]"

# 16-17: a command answered 3 s late in a reload's teardown.
cxsim timeout "$bdf" 1000
devlink dev reload "$dl"
cxsim delay "$bdf" 3000 TEARDOWN_HCA 1
dmesg_mark late3
devlink dev reload "$dl"
ktap_check "3 s late TEARDOWN_HCA: timed out, the reload went on" \
	bash -c "dmesg | sed -n '/selftest-mark: late3$/,\$p' | grep -q 'TEARDOWN_HCA(0x103) timed out after 1000 ms'"
ktap_check "3 s late: next reload and rmmod clean, no dma_pool complaint, device empty" \
	bash -c "source $LIB_DIR/lib.sh; devlink dev reload $dl && rmmod mlx5_core &&
		 ! dmesg | sed -n '/selftest-mark: late3$/,\$p' | grep -qi 'dma_pool' &&
		 [ \"\$(model_sum $bdf obj.)\" = 0 ] && [ \"\$(model_get $bdf pages)\" = 0 ]"

# 18-19: a command answered 8 s late in a reload's teardown, after the
# 5 s the unload gives late answers: the function still owns its entry
# in the command queue the driver freed.  The next load resets the
# function before it turns DMA on again; without the reset the load's
# first command is rung in that entry while the device still executes it
# (the model's cmd.busy, a model error) and the late answer lands in
# freed memory.
cxsim timeout "$bdf" 1000
load_ours
busy0=$(model_get "$bdf" cmd.busy)
cxsim delay "$bdf" 8000 TEARDOWN_HCA 1
dmesg_mark late8
t0=$SECONDS
devlink dev reload "$dl"
rc=$?
dmesg_since late8 | grep -e 'unanswered' -e 'resetting the function' | sed 's/^/# /'
ktap_check "8 s late TEARDOWN_HCA: unanswered after the wait, the next load reset the function first" \
	bash -c "[ $rc = 0 ] && dmesg | sed -n '/selftest-mark: late8$/,\$p' | grep -q 'command entries still unanswered' &&
		 dmesg | sed -n '/selftest-mark: late8$/,\$p' | grep -q 'resetting the function: the last unload left it'"
# Past the time the answer was due.
[ $((t0 + 10 - SECONDS)) -gt 0 ] && sleep $((t0 + 10 - SECONDS))
diag "cmd.busy $busy0 -> $(model_get "$bdf" cmd.busy), delayed commands $(model_get "$bdf" cmd.delays)"
ktap_check "8 s late: never answered into the old queue, no doorbell on a busy entry; reload and rmmod clean, device empty" \
	bash -c "source $LIB_DIR/lib.sh; [ \"\$(model_get $bdf cmd.busy)\" = '$busy0' ] &&
		 devlink dev reload $dl && rmmod mlx5_core &&
		 [ \"\$(model_sum $bdf obj.)\" = 0 ] && [ \"\$(model_get $bdf pages)\" = 0 ]"

# 20: one command completion interrupt is lost.
cxsim timeout "$bdf" 1000
load_ours
rec0=$(diag_get fw cmd_eq_recoveries)
to0=$(diag_get fw cmd_timeouts)
dmesg_mark dropirq
cxsim dropirq "$bdf" 1
devlink dev reload "$dl"
rec=$(diag_get fw cmd_eq_recoveries)
diag "EQ recoveries $rec0 -> $rec, timeouts $to0 -> $(diag_get fw cmd_timeouts), irqs dropped $(model_get "$bdf" irq.dropped)"
dmesg_since dropirq | grep -e 'polling the EQ' -e 'EQEs on the async' | sed 's/^/# /'
ktap_check "a lost completion interrupt: the command completes by EQ recovery, counted" \
	bash -c "[ '$rec' = $((rec0 + 1)) ] && [ '$(diag_get fw cmd_timeouts)' = '$to0' ] &&
		 [ '$(model_get "$bdf" irq.dropped)' = 1 ]"

# 21-22: recoveries from a fatal syndrome, which a function reset clears.
devlink health set "$dl" reporter fw_fatal auto_recover true grace_period 0
objs0=$(model_objs)
pages0=$(model_get "$bdf" pages)
recoveries() {
	local i n0 n

	n0=$(rep_get fw_fatal recover)
	for i in $(seq "$RECOVERIES"); do
		cxsim synd "$bdf" 1 rfr
		n=$((n0 + i))
		wait_for 60 rep_is fw_fatal recover "$n" ||
			{ diag "recovery $i did not happen"; return 1; }
		wait_for 10 rep_is fw_fatal state healthy ||
			{ diag "recovery $i: not healthy"; return 1; }
	done
}
ktap_check "$RECOVERIES recoveries from a fatal syndrome" recoveries
diag "objects $objs0 -> $(model_objs), pages $pages0 -> $(model_get "$bdf" pages), function resets $(model_get "$bdf" resets)"
ktap_check "after $RECOVERIES recoveries: as many objects and pages as before, none after rmmod" \
	bash -c "source $LIB_DIR/lib.sh; [ \"\$(model_sum $bdf obj.)\" = '$objs0' ] &&
		 [ \"\$(model_get $bdf pages)\" = '$pages0' ] &&
		 [ \"\$(model_get $bdf hca_state)\" = initialised ] &&
		 rmmod mlx5_core && [ \"\$(model_sum $bdf obj.)\" = 0 ] &&
		 [ \"\$(model_get $bdf pages)\" = 0 ]"

# 23-30: mute firmware: alive (its health counter runs, no syndrome) but
# answering no command, at the default command timeout (60 s; 2 s under
# make check). Three commands in a row that time out with nothing
# answered, over three timeouts (and at least 5 s), put the device in
# internal error as dead firmware does, instead of each command of a
# teardown waiting a timeout of its own (an hour at 60 s).
MUTE_TO_MS=$(sized 0 2000)	# 0: the init segment's default, 60 s
mute_to=$(sized 60 2)
# Bounds: a teardown finds the firmware mute at its third command and goes
# on without waiting; a reload then resets the function and its load
# waits one timeout more (a new queue is no answer from the firmware).
# 30 s for the rest, on a loaded TCG host. At 60 s: 270 s for a reload,
# 210 s for a teardown (rmmod, closing the netdev, a power off); at 2 s:
# 38 s and 36 s. Before, the reload alone took 140 s at 2 s.
bound_teardown=$((3 * mute_to + 30))
bound_reload=$((4 * mute_to + 30))

# 23: a stated timeout above upstream's default is not taken. The reload
# waits for nothing: every command is answered.
cxsim timeout "$bdf" 600000
dmesg_mark tocap
load_ours
capped=$(dmesg_since tocap | grep -c "mlx5_core $bdf: the device states a command timeout of 600000 ms: using 60000 ms")
ktap_check "a stated command timeout of 600 s: the driver uses 60 s and says so once" \
	test "$capped" = 1

cxsim timeout "$bdf" "$MUTE_TO_MS"
devlink dev reload "$dl"
devlink health set "$dl" reporter fw_fatal auto_recover false
nd=$(netdev_of "$bdf")
ip link set dev "$nd" up
sleep 2
link0=$(ip -br link show dev "$nd" | awk '{ print $2, $4 }')
err0=$(rep_get fw_fatal error)

# link_is STATE: the netdev's operstate and flags, as before the mute.
link_is() { [ "$(ip -br link show dev "$nd" | awk '{ print $2, $4 }')" = "$1" ]; }

# 24-26: reload with the firmware mute.
muted0=$(model_get "$bdf" cmd.muted)
dmesg_mark mute
cxsim dead "$bdf" mute
t0=$(now)
devlink dev reload "$dl" 2>/dev/null && diag "reload with mute firmware succeeded?"
t_mute_reload=$(elapsed "$t0")
diag "reload with mute firmware, timeout $mute_to s: returned after $t_mute_reload s"
dmesg_since mute | grep "mlx5_core $bdf" | grep -e 'mute' -e 'fatal' -e 'internal error' | sed 's/^/# /'
ktap_check "mute firmware: reload returns within 4 timeouts + 30 s = $bound_reload s ($t_mute_reload s)" \
	below "$t_mute_reload" "$bound_reload"
devlink health diagnose "$dl" reporter fw_fatal | sed 's/^/# /'
ktap_check "mute firmware: found (dmesg), internal error, fw_fatal reports it; the model ignored its doorbells" \
	bash -c "dmesg | sed -n '/selftest-mark: mute\$/,\$p' | grep -q 'mlx5_core $bdf: firmware mute: [0-9]* commands in a row timed out' &&
		 [ '$(diag_get fw_fatal internal_error)' = true ] &&
		 [ '$(diag_get fw_fatal fatal_error)' = 'firmware answers no command' ] &&
		 [ '$(rep_get fw_fatal state)' = error ] && [ '$(rep_get fw_fatal error)' -gt '$err0' ] &&
		 [ '$(model_get "$bdf" cmd.muted)' -gt '$muted0' ]"
# Internal error for the netdev: it stays, detached from the device (no
# carrier; it cannot be opened until the function is back).
ip -br link show dev "$nd" | sed 's/^/# /'
ktap_check "mute firmware: the netdev stays, detached: no carrier, cannot be opened" \
	bash -c "! ip link show dev $nd | grep -q LOWER_UP && ip link set dev $nd down &&
		 ! ip link set dev $nd up 2>/dev/null"

# 27: the firmware answers again: recovery brings the function back.
cxsim dead "$bdf" off
devlink health recover "$dl" reporter fw_fatal
ip link set dev "$nd" up
mute_back() {
	rep_is fw_fatal state healthy && [ "$(diag_get fw internal_error)" = false ] &&
		wait_for 20 link_is "$link0"
}
ktap_check "firmware answers again: devlink health recover, the netdev is back ($link0)" \
	mute_back

# 28-29: mute while loaded: closing the netdev finds it; the health poll,
# which still sees the counter run, leaves the device in internal error.
cxsim dead "$bdf" mute
t0=$(now)
ip link set dev "$nd" down
t_mute_down=$(elapsed "$t0")
diag "closing the netdev with mute firmware: $t_mute_down s"
ktap_check "mute firmware: closing the netdev returns within 3 timeouts + 30 s = $bound_teardown s ($t_mute_down s)" \
	bash -c "$(declare -f below); below $t_mute_down $bound_teardown && [ '$(diag_get fw_fatal internal_error)' = true ]"
hc0=$(diag_get fw health_counter)
sleep 4
hc1=$(diag_get fw health_counter)
ktap_check "4 health polls later: counter ran ($hc0 -> $hc1), still internal error, fw_fatal in error" \
	bash -c "[ '$hc1' != '$hc0' ] && [ '$(diag_get fw_fatal internal_error)' = true ] &&
		 [ '$(rep_get fw_fatal state)' = error ]"
cxsim dead "$bdf" off
devlink health recover "$dl" reporter fw_fatal

# 30-31: rmmod with the firmware mute, not yet found (the driver idle): the
# same teardown as a power off.
hca0=$(model_get "$bdf" hca_state)
cxsim dead "$bdf" mute
t0=$(now)
rmmod mlx5_core
t_mute_rmmod=$(elapsed "$t0")
diag "rmmod with mute firmware (function $hca0 before): $t_mute_rmmod s"
ktap_check "mute firmware: rmmod of the loaded function returns within 3 timeouts + 30 s = $bound_teardown s ($t_mute_rmmod s)" \
	bash -c "$(declare -f below); [ '$hca0' = initialised ] && below $t_mute_rmmod $bound_teardown &&
		 [ ! -d /sys/module/mlx5_core ]"
# The firmware never saw that teardown (the function enabled, its EQs,
# its queues): the driver's remove resets the function, so that the next
# probe finds it forgotten and no old EQ of the function is written once
# bus mastering is back on (point 30 loads the driver again).
ktap_check "rmmod in internal error reset the function: the firmware holds nothing of it ($(model_get "$bdf" hca_state), $(model_sum "$bdf" obj.) objects, $(model_get "$bdf" pages) pages)" \
	bash -c "source $LIB_DIR/lib.sh; [ \"\$(model_sum $bdf obj.)\" = 0 ] && [ \"\$(model_get $bdf pages)\" = 0 ] &&
		 [ \"\$(model_get $bdf hca_state)\" != initialised ]"
cxsim dead "$bdf" off
cxsim timeout "$bdf" 1000

# 32-33: dead firmware while the peer floods the port.  The device's data
# path still runs: it reads the RQs' doorbell records and WQEs and writes
# received frames into the RX buffers; the teardown gives them back
# (DESTROY_RQ cannot reach dead firmware), so bus mastering must be off
# before (the device then issues nothing: dma.blocked).  Behind the IOMMU
# an access to an unmapped buffer faults (DMAR) and is a model error
# (dma.fail.rd.dbr, dma.fail.wr.rx, ...), which also fails the run.  The
# teardown is a reload's (32), then the fw_fatal reporter's own
# auto-recovery's, which gives up while the firmware stays dead (33).
#
# flood_dead reload|auto
flood_dead() {
	local how=$1 bdf2 pg i fault torn=1

	bdf2=$(cx_functions | sed -n 2p)
	load_ours
	a=$(netdev_of "$bdf") b=$(netdev_of "$bdf2") PEER_DEV=$b
	pair_up "$a" "$b" || { diag "no carrier"; return 1; }
	if [ "$how" = reload ]; then
		devlink health set "pci/$bdf2" reporter fw_fatal auto_recover false
	else
		devlink health set "pci/$bdf2" reporter fw_fatal auto_recover true grace_period 0
	fi
	dmesg_mark "flood_$how"
	pktgen_setup "$a" 0 1 64
	# Until the stop below: the reload or recovery between takes longer
	# than a traffic step's bound on the debug kernel.
	pktgen_start until_stopped &
	pg=$!
	wait_for 10 bash -c "source $LIB_DIR/lib.sh; [ \"\$(model_get $bdf2 rx.packets)\" -gt 1000 ]"
	cxsim dead "$bdf2" on
	wait_for 30 bash -c "dmesg | grep -q 'mlx5_core $bdf2: device in internal error'"
	if [ "$how" = reload ]; then
		devlink dev reload "pci/$bdf2" 2>/dev/null
	else
		# The teardown under test is the one of a recovery that gave
		# up: without it the point proves nothing.
		wait_for 60 bash -c "dmesg | sed -n '/selftest-mark: flood_auto\$/,\$p' | grep -q 'mlx5_core $bdf2: recovery failed'" ||
			{ diag "the auto-recovery did not give up"; torn=0; }
	fi
	# Frames keep arriving after the teardown freed the buffers.
	i=$(model_get "$bdf2" rx.packets)
	wait_for 10 bash -c "source $LIB_DIR/lib.sh; [ \"\$(model_get $bdf2 rx.packets)\" -gt $((i + 1000)) ]"
	echo stop >/proc/net/pktgen/pgctrl
	wait "$pg"
	fault=$(dmesg_since "flood_$how" | grep -c -E "DMAR: \[DMA (Read|Write).*Request device \[${bdf2#0000:}\]")
	diag "$how with dead firmware under a flood: $bdf2 dma.blocked $(model_get "$bdf2" dma.blocked), model errors $(model_get "$bdf2" model_errors), DMAR faults $fault"
	[ "$how" = reload ] ||
		dmesg_since flood_auto | grep "mlx5_core $bdf2" | grep -E 'recover|error' | head -n 5 | sed 's/^/# /'
	cxsim report "$bdf2" | grep '^model_error\.' | grep -v ' 0$' | sed 's/^/# /'
	cxsim dead "$bdf2" off
	pair_down
	rmmod mlx5_core
	[ "$torn" = 1 ] && [ "$(model_get "$bdf2" model_errors)" = 0 ] &&
		[ "$fault" = 0 ] && [ "$(model_get "$bdf2" dma.blocked)" -gt 0 ]
}
if [ -e "/sys/bus/pci/devices/$(cx_functions | sed -n 2p)/iommu_group" ]; then
	ktap_check "dead firmware, the peer flooding, reload: DMA stopped before the RX buffers go back (no DMA fault)" \
		flood_dead reload
	ktap_check "the same with fw_fatal's auto-recovery, which gives up: DMA stopped first (no DMA fault)" \
		flood_dead auto
else
	ktap_skip "dead firmware, the peer flooding, reload: DMA stopped before the RX buffers go back" \
		"needs the IOMMU (vm/run without --no-iommu)"
	ktap_skip "the same with fw_fatal's auto-recovery" \
		"needs the IOMMU (vm/run without --no-iommu)"
fi

# The VM powers off with the driver loaded, the firmware of the first
# function dead and of the second mute (its teardown finds it within 3
# timeouts, as rmmod above): the runner fails the run if that hangs.
bdf2=$(cx_functions | sed -n 2p)
cxsim timeout "$bdf2" "$MUTE_TO_MS"
load_ours
cxsim dead "$bdf" on
cxsim dead "$bdf2" mute
wait_for 30 rep_is fw_fatal error 1
diag "powering off with $bdf's firmware dead, $bdf2's mute (timeout $mute_to s)"

ktap_finish
