#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: install what is needed, build the module against Debian's
# headers and with DKMS against Debian's 6.1 and 6.12 headers, build the
# user-space benchmark and run it briefly, check the recorded traces
# (scripts/record-trace.sh --check) and replay them (scripts/replay.sh
# --check) and run the selftests inside Debian's kernels of the matrix
# (SW_VM_KERNELS: 6.1, 6.1-rt, 6.12, 6.12-rt). Beside all that, from the
# start, runs the lane of our kernels (sw_check_lane()): each kernel
# built (scripts/kunit.sh --build, under SCHED_IDLE: the tests first),
# then, beside the next one's build, its KUnit suites (kunit.sh --exec)
# and the selftests on it if the matrix boots it (our HZ=1000 and debug
# kernels), one kernel's tests at a time and none while the selftests on
# Debian's kernels run; the KUnit suites in user space beside the
# builds, and lint after them. Ends with the minutes each stage took (the lane's jobs by
# kernel, from the "WHAT: NAME took N s" lines of the scripts) and in
# all, then one line "check: N passed, N failed", the last.
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

	echo "check: minutes by stage (kernels: the lane of our kernels, beside the stages before it)"
	for stage in "${stages[@]}"; do
		name=${stage% *}
		echo "$stage"
		[ -z "${stage_logs[$name]:-}" ] ||
			sed -n 's/^\([a-z]*\): \(.*\) took \([0-9]*\) s$/  \1 \2 \3/p' "${stage_logs[$name]}"
	done | awk '{ ind = /^ / ? "  " : ""; s = $NF; $NF = ""; sub(/^ +/, ""); sub(/ +$/, "")
		      printf "  %s%-" 24 - length(ind) "s %6.1f\n", ind, $0, s / 60 }'
	awk -v s=$((SECONDS - check_start)) 'BEGIN { printf "  %-24s %6.1f\n", "total", s / 60 }'
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

for name in dkms replay selftests-debian kernels; do
	stage_logs[$name]=$(mktemp)
	sw_rm_at_exit "${stage_logs[$name]}"
done
lane_logs=$(mktemp -d)
sw_rm_at_exit "$lane_logs"

# The selftests on Debian's kernels, and in the lane on ours
debian=() ours=()
for k in $SW_VM_KERNELS; do
	if sw_vm_is_debian "$k"; then debian+=("$k"); else ours+=("$k"); fi
done
# Our kernels in the order the lane builds them: the debug kernel first, as
# its tests take longest, the UML kernels last, as theirs take least
# shellcheck disable=SC2086 # one word per kernel
lane=$(printf '%s\n' hz250 hz1000 $SW_KERNELS | awk '!seen[$0]++')

# The tests of the kernel $1, built: its KUnit suites, then the selftests
# on each of our test kernels it is, once no other test kernel runs (the
# tests lock); fails if one failed
sw_check_tests()
{
	local vm rc=0

	sw_lock "$tests_lock"
	scripts/kunit.sh --exec "$1" || rc=1
	for vm in "${ours[@]}"; do
		if [ "$(sw_vm_kunit_kernel "$vm")" = "$1" ]; then
			scripts/selftests.sh "$vm" || rc=1
		fi
	done
	return "$rc"
}

# The lane of our kernels, its jobs' outputs in $lane_logs: each kernel
# built under SCHED_IDLE, so that it takes only what the tests leave idle
# and a guest's vCPU seldom waits behind it (at nice 10, the debug kernel's
# guest took a tick 3 jiffies late and failed the mirror's lateness
# contract), then tested (sw_check_tests()) beside the next build; the
# KUnit suites in user space beside the builds (SCHED_IDLE too) from the
# start, and lint once they are done (it builds in the UML kernels'
# trees). Fails if a kernel did not build, a job failed or lint did.
sw_check_lane()
{
	local k start pid pids=() rc=0

	chrt --idle 0 scripts/kunit.sh user >"$lane_logs/1-user" 2>&1 &
	pids+=($!)
	for k in $lane; do
		if chrt --idle 0 scripts/kunit.sh --build "$k" >>"$lane_logs/0-build" 2>&1; then
			sw_check_tests "$k" >"$lane_logs/2-$k" 2>&1 &
			pids+=($!)
		else
			echo "check: building $k FAILED, its tests not run" >>"$lane_logs/0-build"
			rc=1
		fi
	done
	start=$SECONDS
	scripts/lint.sh >"$lane_logs/3-lint" 2>&1 ||
		{ echo "check: lint FAILED" >>"$lane_logs/3-lint"; rc=1; }
	echo "lint: all took $((SECONDS - start)) s" >>"$lane_logs/3-lint"
	for pid in "${pids[@]}"; do
		wait "$pid" || rc=1
	done
	return "$rc"
}

# The lane stopped, with all it runs (its process group), if the check
# ends before it does
sw_check_stop_lane()
{
	kill -- "-$lane_pid" 2>/dev/null
	return 0
}

# One test kernel's run at a time beside the builds: the lane's tests take
# this lock, and the check holds it while the selftests on Debian's
# kernels run (two guests already). More guests than cores starve each
# other: the debug kernel's KUnit run, beside four others, met its soft
# lockup detector and its time limit. The lane inherits the check's hold
# of it, so it is let go explicitly (flock -u), not by closing.
tests_lock=$lane_logs/tests.lock
exec {tests_fd}>"$tests_lock"
flock "$tests_fd"

# The lane in a process group of its own (job control on while it starts)
lane_start=$SECONDS
set -m
sw_check_lane &
lane_pid=$!
set +m
sw_at_exit sw_check_stop_lane

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

sw_check_run selftests-debian scripts/selftests.sh "${debian[@]}"
flock -u "$tests_fd"

sw_log "check: waiting for the lane of our kernels"
wait "$lane_pid" || steps_failed=$((steps_failed + 1))
sw_check_stage wait
# The lane's jobs' outputs, whole and in order, and its own time
cat "$lane_logs"/* | tee "${stage_logs[kernels]}"
stages+=("kernels $((SECONDS - lane_start))")

read -r kp kf < <(sw_summary_counts kunit "${stage_logs[kernels]}")
read -r sp sf < <(cat "${stage_logs[selftests-debian]}" "${stage_logs[kernels]}" |
		  sw_summary_counts selftests /dev/stdin)
read -r dp df < <(sw_summary_counts dkms "${stage_logs[dkms]}")
read -r rp rf < <(sw_summary_counts replay "${stage_logs[replay]}")
failed=$((kf + sf + df + rf))
# A step that failed without failing a test (build, lint) still fails the check
[ "$failed" -eq 0 ] && failed=$steps_failed
sw_check_times
echo "check: $((kp + sp + dp + rp)) passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$steps_failed" -eq 0 ]
