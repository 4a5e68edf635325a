#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: install what is needed, build the module against Debian's
# headers and with DKMS against Debian's 6.1 and 6.12 headers, build the
# user-space benchmark and run it briefly, check the recorded traces
# (scripts/record-trace.sh --check) and replay them (scripts/replay.sh
# --check), run the selftests inside Debian's kernels of the matrix, then
# the KUnit suites in user space and on the 6.1 UML, HZ=250 and HZ=1000
# kernels and on the 6.12 UML kernel (scripts/kunit.sh all), lint, and
# the selftests inside our kernels of the matrix (SW_VM_KERNELS: Debian's
# 6.1, 6.1-rt, 6.12, 6.12-rt, our HZ=1000 and debug kernels). Our four
# kernels are built beside the stages before KUnit, which need none of
# them (scripts/kunit.sh --build, at a lower priority than the tests).
# Ends with the minutes each stage took (KUnit's and the selftests' by
# kernel, from the "KERNEL took N s" lines of kunit.sh and selftests.sh)
# and in all, then one line "check: N passed, N failed", the last.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 (no arguments; make check runs it)" >&2
	exit 2
}

sw_options_none "$@"
cd "$SW_ROOT" || exit 1

# Each stage's time, "NAME SECONDS" lines, in the order they ended, and
# the log of the stages whose scripts print "WHAT: KERNEL took N s" lines
stages=()
declare -A stage_logs
check_start=$SECONDS
stage_start=$SECONDS

# The stage $1 ends: the time since the last one ended
sw_check_stage()
{
	stages+=("$1 $((SECONDS - stage_start))")
	stage_start=$SECONDS
}

# Each stage's minutes, with those of the kernels its log names ("WHAT:
# KERNEL took N s") under it, and the total
sw_check_times()
{
	local stage name

	echo "check: minutes by stage (kernels: built beside the stages before kunit)"
	for stage in "${stages[@]}"; do
		name=${stage% *}
		echo "$stage"
		[ -z "${stage_logs[$name]:-}" ] ||
			sed -n 's/^[a-z]*: \([^ ]*\) took \([0-9]*\) s$/  \1 \2/p' "${stage_logs[$name]}"
	done | awk '{ ind = /^ / ? "  " : ""; printf "  %s%-" 20 - length(ind) "s %6.1f\n", ind, $1, $2 / 60 }'
	awk -v s=$((SECONDS - check_start)) 'BEGIN { printf "  %-20s %6.1f\n", "total", s / 60 }'
}

# Run "$@" as the stage $1 would: its output shown and kept in the stage's
# log, a failure counted
sw_check_run()
{
	local name=$1

	shift
	"$@" | tee "${stage_logs[$name]}"
	[ "${PIPESTATUS[0]}" -eq 0 ] || steps_failed=$((steps_failed + 1))
	sw_check_stage "$name"
}

sw_need_module_build
sw_need_kernel_build
sw_need_vm
sw_check_stage packages

steps_failed=0
make modules || { sw_log "check: module build FAILED"; steps_failed=$((steps_failed + 1)); }
make clean >/dev/null
sw_check_stage module

for name in dkms replay selftests-debian kunit selftests kernels; do
	stage_logs[$name]=$(mktemp)
	sw_rm_at_exit "${stage_logs[$name]}"
done

# The build of our kernels beside the tests stopped, with all it runs (its
# process group), if the check ends before it does
sw_check_stop_kernels()
{
	kill -- "-$kernels_pid" 2>/dev/null
	return 0
}

# Our kernels, built beside what needs none of them, in a process group of
# their own; a build that fails here fails again, and is reported, in the
# kunit stage
setsid nice -n 10 scripts/kunit.sh --build all >"${stage_logs[kernels]}" 2>&1 &
kernels_pid=$!
sw_at_exit sw_check_stop_kernels

sw_check_run dkms scripts/dkms.sh

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
sw_check_run replay scripts/replay.sh --check

# The selftests on Debian's kernels, and later on ours, once built
debian=() ours=()
for k in $SW_VM_KERNELS; do
	if sw_vm_is_debian "$k"; then debian+=("$k"); else ours+=("$k"); fi
done
sw_check_run selftests-debian scripts/selftests.sh "${debian[@]}"

wait "$kernels_pid" ||
	sw_log "check: building the kernels beside the tests failed (the kunit stage says why)"
sw_check_stage wait
# The builds' own time, not the wait's
stages+=("kernels $(awk '/^kunit: [^ ]+ took [0-9]+ s$/ { s += $4 } END { print s + 0 }' \
			"${stage_logs[kernels]}")")
sw_check_run kunit scripts/kunit.sh all

scripts/lint.sh || { sw_log "check: lint FAILED"; steps_failed=$((steps_failed + 1)); }
sw_check_stage lint

sw_check_run selftests scripts/selftests.sh "${ours[@]}"

read -r kp kf < <(sw_summary_counts kunit "${stage_logs[kunit]}")
read -r sp sf < <(cat "${stage_logs[selftests-debian]}" "${stage_logs[selftests]}" |
		  sw_summary_counts selftests /dev/stdin)
read -r dp df < <(sw_summary_counts dkms "${stage_logs[dkms]}")
read -r rp rf < <(sw_summary_counts replay "${stage_logs[replay]}")
failed=$((kf + sf + df + rf))
# A step that failed without failing a test (build, lint) still fails the check
[ "$failed" -eq 0 ] && failed=$steps_failed
sw_check_times
echo "check: $((kp + sp + dp + rp)) passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$steps_failed" -eq 0 ]
