#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: install what is needed, build the module against Debian's
# headers and with DKMS against Debian's 6.1 and 6.12 headers, run the KUnit
# suites in user space, on the 6.1 UML, HZ=250 and HZ=1000 kernels and on
# the 6.12 UML kernel (scripts/kunit.sh all), lint,
# build and run the user-space benchmark briefly, check the recorded
# traces (scripts/record-trace.sh --check) and replay them
# (scripts/replay.sh --check), and run the selftests
# inside every kernel of the matrix (SW_VM_KERNELS: Debian's 6.1, 6.1-rt,
# 6.12, 6.12-rt, our HZ=1000 and debug kernels). Ends with the minutes
# each stage took (KUnit's and the selftests' by kernel, from the
# "KERNEL took N s" lines of kunit.sh and selftests.sh) and in all, then
# one line "check: N passed, N failed", the last.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 (no arguments; make check runs it)" >&2
	exit 2
}

sw_options_none "$@"
cd "$SW_ROOT" || exit 1

# Each stage's time, "NAME SECONDS" lines, in the order they ran
stages=()
check_start=$SECONDS
stage_start=$SECONDS

# The stage $1 ends: the time since the last one ended
sw_check_stage()
{
	stages+=("$1 $((SECONDS - stage_start))")
	stage_start=$SECONDS
}

# Each stage's minutes, with those of the kernels the logs of kunit.sh and
# selftests.sh name ("WHAT: KERNEL took N s") under theirs, and the total
sw_check_times()
{
	local stage name

	echo "check: minutes by stage"
	for stage in "${stages[@]}"; do
		name=${stage% *}
		echo "$stage"
		case "$name" in
		kunit)		sed -n 's/^kunit: \([^ ]*\) took \([0-9]*\) s$/  \1 \2/p' "$kunit_log" ;;
		selftests)	sed -n 's/^selftests: \([^ ]*\) took \([0-9]*\) s$/  \1 \2/p' "$selftests_log" ;;
		esac
	done | awk '{ ind = /^ / ? "  " : ""; printf "  %s%-" 20 - length(ind) "s %6.1f\n", ind, $1, $2 / 60 }'
	awk -v s=$((SECONDS - check_start)) 'BEGIN { printf "  %-20s %6.1f\n", "total", s / 60 }'
}

sw_need_module_build
sw_need_kernel_build
sw_check_stage packages

steps_failed=0
make modules || { sw_log "check: module build FAILED"; steps_failed=$((steps_failed + 1)); }
make clean >/dev/null
sw_check_stage module

kunit_log=$(mktemp)
selftests_log=$(mktemp)
dkms_log=$(mktemp)
replay_log=$(mktemp)
sw_rm_at_exit "$kunit_log" "$selftests_log" "$dkms_log" "$replay_log"

scripts/dkms.sh | tee "$dkms_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || steps_failed=$((steps_failed + 1))
sw_check_stage dkms
scripts/kunit.sh all | tee "$kunit_log"
kunit_rc=${PIPESTATUS[0]}
[ "$kunit_rc" -eq 0 ] || steps_failed=$((steps_failed + 1))
sw_check_stage kunit

scripts/lint.sh || { sw_log "check: lint FAILED"; steps_failed=$((steps_failed + 1)); }
sw_check_stage lint

# The user-space benchmark builds and runs (its figures are read, not judged)
scripts/bench.sh user --timers 1000 --ops 4096 --ticks 1000 >/dev/null ||
	{ sw_log "check: user-space benchmark FAILED"; steps_failed=$((steps_failed + 1)); }
sw_check_stage bench

# The shipped traces read back whole: every event there, none lost, every
# timer function named (docs/traces.rst)
scripts/record-trace.sh --check traces/*.dat >/dev/null ||
	{ sw_log "check: traces FAILED"; steps_failed=$((steps_failed + 1)); }
sw_check_stage traces

# The shipped traces replayed: the kernel's own placements and expiry ticks
# reproduced, every wheel within its contract (docs/replay.rst)
scripts/replay.sh --check | tee "$replay_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || steps_failed=$((steps_failed + 1))
sw_check_stage replay

scripts/selftests.sh all | tee "$selftests_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || steps_failed=$((steps_failed + 1))
sw_check_stage selftests

# "<what>: P passed, F failed" from a log; a missing line counts as a failure
sw_totals()
{
	local line

	line=$(grep -E "^$1: [0-9]+ passed, [0-9]+ failed" "$2" | tail -n 1)
	[ -n "$line" ] || { echo "0 1"; return; }
	echo "$line" | awk '{print $2, $4}'
}

read -r kp kf < <(sw_totals kunit "$kunit_log")
read -r sp sf < <(sw_totals selftests "$selftests_log")
read -r dp df < <(sw_totals dkms "$dkms_log")
read -r rp rf < <(sw_totals replay "$replay_log")
failed=$((kf + sf + df + rf))
# A step that failed without failing a test (build, lint) still fails the check
[ "$failed" -eq 0 ] && failed=$steps_failed
sw_check_times
echo "check: $((kp + sp + dp + rp)) passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$steps_failed" -eq 0 ]
