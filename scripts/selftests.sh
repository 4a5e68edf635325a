#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the kselftests of selftests/shadow_wheel inside test kernels under
# QEMU (scripts/vm.sh):
#
#   debian          Debian's 6.1 (HZ=250, NO_HZ_FULL)
#   debian-rt       Debian's 6.1 PREEMPT_RT
#   debian-6.12     Debian's 6.12 LTS
#   debian-6.12-rt  Debian's 6.12 LTS PREEMPT_RT
#   hz1000          our x86_64 HZ=1000 kernel
#   debug           our x86_64 HZ=250 debug kernel (lockdep, KASAN, kmemleak...)
#   all             the whole matrix in turn (default; SW_VM_KERNELS in sw-lib-vm.sh)
#
#   scripts/selftests.sh [--smp N] [--jobs N] [K|all]...
#
# --smp N boots the guests with N CPUs (default 2; docs/testing.rst names
# the many-CPU runs). --jobs N runs N kernels at once (default
# SW_SELFTESTS_JOBS, 2): a guest spends most of a run waiting for its
# timers, so two of them share this machine's two cores and the matrix
# takes about half the time. Each kernel's output is shown whole when it
# ends, kernels in the order they end.
# The selftests are built with their Makefile in a scratch copy of the repo;
# for each kernel the module is built for it, the built selftests directory
# goes into the guest as /selftests and /selftests/run.sh runs them there, the
# programs named in run.list (which make writes from the Makefile's
# TEST_GEN_PROGS), or those SW_SELFTESTS names (e.g. sw_mirror_test alone),
# with the variables SW_SELFTESTS_ENV sets ("NAME=VALUE ...", exported in
# the guest; e.g. SWT_FUZZ_WRITES=100000 for the full run of sw_fuzz_test).
# Then, unless SW_SELFTESTS names the programs, a second boot of each
# kernel runs those of SW_SELFTESTS_SINGLE_TCG under single-threaded TCG:
# they patch the kernel's text under heavy traffic, which QEMU's
# multi-threaded TCG does not survive (docs/testing.rst).
# Results are counted from the tests' TAP output; a kernel whose run failed
# otherwise (a splat, a crash, a timeout, no results) counts as one failure.
# The console log of a failed run is kept in $SW_SELFTESTS_LOGS, and the
# failed tests are listed at the end.
# After each kernel, "selftests: KERNEL took N s" (both its boots). Ends
# with one line "selftests: P passed, F failed"; the exit status is
# non-zero if anything failed.
set -u
. "$(dirname "$0")/sw-lib.sh"

# How long one kernel's run may take, in seconds (the debug kernel is slow)
SW_SELFTESTS_TIMEOUT=${SW_SELFTESTS_TIMEOUT:-900}
# Run with one host thread for all the guest's CPUs (TEST_GEN_PROGS_EXTENDED)
SW_SELFTESTS_SINGLE_TCG=${SW_SELFTESTS_SINGLE_TCG:-sw_mirror_toggle_test}
# Where the console logs of failed runs are kept, and how many: the newest
SW_SELFTESTS_LOGS=${SW_SELFTESTS_LOGS:-$SW_CACHE/selftests-logs}
SW_SELFTESTS_LOGS_KEEP=${SW_SELFTESTS_LOGS_KEEP:-10}

# What the tests that skip need, one line each: PROGRAM[:CASE] NEED...
# CASE is a glob over the names of the program's cases
# (FIXTURE.VARIANT.TEST); without it the line is every case's, and the
# program's when it skipped as a whole. A NEED is
#   CONFIG_NAME   set (=y or =m) in the kernel's config (sw_vm_config())
#   cpus=N        the guest has N CPUs or more (--smp)
#   cmdline=WORD  WORD on the kernel's command line (SW_VM_APPEND)
# A line that starts with white space goes on with the one before. The
# first line that matches a skipped case is its. A skip is taken only
# where one of its needs is missing: a skip on a kernel that has them
# all, and the skip of a case no line names, fails the run.
SW_SELFTESTS_NEEDS='
sw_failslab_test:failslab.writer.* CONFIG_FAILSLAB CONFIG_FAULT_INJECTION_DEBUG_FS
sw_failslab_test:failslab.cache.* CONFIG_FAILSLAB CONFIG_FAULT_INJECTION_DEBUG_FS
	cmdline=slub_debug=A,sw_shadow
sw_trace_test CONFIG_TRACING CONFIG_EVENT_TRACING
sw_mirror_test CONFIG_TRACEPOINTS
sw_mirror_toggle_test CONFIG_TRACEPOINTS
sw_hotplug_test CONFIG_HOTPLUG_CPU cpus=2
'

usage()
{
	echo "usage: $0 [--smp N] [--jobs N] [K|all]..., K: $SW_VM_KERNELS $SW_VM_EXTRA_KERNELS" >&2
	exit 2
}

# Build the selftests in a scratch copy of the repo under the directory $1
# (in a git checkout only the files git does not ignore, so no stale binary
# comes along); prints the built selftests directory
sw_selftests_build()
{
	local work=$1 dir=selftests/shadow_wheel f

	for f in Makefile run.sh; do
		[ -f "$SW_ROOT/$dir/$f" ] || { sw_log "selftests: no $dir/$f in $SW_ROOT"; return 1; }
	done
	mkdir -p "$work/src"
	if git -C "$SW_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$SW_ROOT" ls-files -co --exclude-standard -z |
			rsync -a --from0 --files-from=- --ignore-missing-args "$SW_ROOT/" "$work/src/"
	else
		rsync -a --exclude=.git "$SW_ROOT/" "$work/src/"
	fi || { sw_log "selftests: cannot copy the sources"; return 1; }
	if ! make -C "$work/src/$dir" -j"$SW_JOBS" >&2; then
		sw_log "selftests: building $dir FAILED"
		return 1
	fi
	grep -q . "$work/src/$dir/run.list" 2>/dev/null || { sw_log "selftests: make wrote no $dir/run.list"; return 1; }
	echo "$work/src/$dir"
}

# The TAP lines of the console log $1, each as "DEPTH<tab>LINE": the
# kernel's messages left out, the "# " prefixes of nested output (each
# program's under run.sh's, as kselftest's runner does) taken off and
# counted in DEPTH
sw_selftests_tap()
{
	awk '
	/^\[ *[0-9]+\.[0-9]+\]/ { next }
	{
		line = $0
		k = 0
		while (substr(line, 1, 2) == "# ") {
			line = substr(line, 3)
			k++
		}
		print k "\t" line
	}' "$1"
}

# Count the results in the console log $1 and print "passed failed skipped".
# Each test binary's TAP output starts with "TAP version" and may be nested
# in "# " prefixes (kselftest's runner). A block with a "# Totals:" line
# (kselftest.h, kselftest_harness.h) counts by it; one without counts its
# "ok N" / "not ok N" lines ("# SKIP" is skipped), and results missing from
# its plan as failed. A block holding other blocks (a runner) does not count:
# its failures show in the exit status of run.sh.
sw_selftests_count()
{
	awk '
	function close_block(d) {
		if (!open[d])
			return
		if (tot[d]) {
			p += tp[d]; f += tf[d]; s += ts[d]
		} else if (!nested[d]) {
			p += op[d]; f += of[d]; s += os[d]
			if (plan[d] > op[d] + of[d] + os[d])
				f += plan[d] - (op[d] + of[d] + os[d])
		}
		open[d] = 0
	}
	function open_block(d,   i) {
		for (i = d; i <= maxd; i++)
			close_block(i)
		for (i = 0; i < d; i++)
			if (open[i])
				nested[i] = 1
		open[d] = 1; nested[d] = 0; tot[d] = 0; plan[d] = 0
		tp[d] = tf[d] = ts[d] = op[d] = of[d] = os[d] = 0
		if (d > maxd)
			maxd = d
	}
	function field(key) {
		if (!match($0, " " key ":[0-9]+"))
			return 0
		return substr($0, RSTART + length(key) + 2, RLENGTH - length(key) - 2) + 0
	}
	BEGIN { maxd = 0; open[0] = 0 }
	{
		k = $0 + 0
		line = substr($0, index($0, "\t") + 1)
		if (line ~ /^TAP version/) {
			open_block(k)
		} else if (k > 0 && line ~ /^Totals: pass:/) {
			d = k - 1
			if (!open[d])
				open_block(d)
			tot[d] = 1
			tp[d] += field("pass") + field("xfail")
			tf[d] += field("fail") + field("xpass") + field("error")
			ts[d] += field("skip")
		} else if (line ~ /^1\.\.[0-9]+/) {
			if (!open[k])
				open_block(k)
			plan[k] = substr(line, 4) + 0
		} else if (line ~ /^(not )?ok [0-9]+/) {
			if (!open[k])
				open_block(k)
			if (line ~ /# *SKIP/)
				os[k]++
			else if (line ~ /^ok/)
				op[k]++
			else
				of[k]++
		}
	}
	END {
		for (i = maxd; i >= 0; i--)
			close_block(i)
		print p + 0, f + 0, s + 0
	}' < <(sw_selftests_tap "$1")
}

# The skipped cases of the console log $1, one "PROGRAM CASE" line each,
# CASE "-" for a program that skipped as a whole without a case of its
# own skipped. A case is named by the harness's "RUN" line before its
# result (6.1's kselftest_harness.h names no case on "ok N # SKIP"); a
# program by run.sh's "selftests: shadow_wheel: PROGRAM" lines.
sw_selftests_skips()
{
	awk '
	{
		k = $0 + 0
		line = substr($0, index($0, "\t") + 1)
		sub(/^#/, "", line)
	}
	line ~ /^selftests: shadow_wheel: [^ ]+$/ { prog = $NF; name = ""; next }
	line ~ /^ +RUN +[^ ]+ \.\.\.$/ { split(line, w, " "); name = w[2]; next }
	line !~ /^ok [0-9]+ .*# *SKIP/ { next }
	k == 0 && match(line, /selftests: shadow_wheel: [^ ]+/) {
		p = substr(line, RSTART + 25, RLENGTH - 25)
		if (!cases[p])
			print p, "-"
		next
	}
	k > 0 && prog != "" {
		split(line, w, " ")
		print prog, (w[3] != "#" ? w[3] : name != "" ? name : "-")
		cases[prog]++
	}' < <(sw_selftests_tap "$1")
}

# The needs of the case $2 of the program $1 (SW_SELFTESTS_NEEDS), on one
# line; fails if no line of the table names it
sw_selftests_needs()
{
	local test needs

	while read -r test needs; do
		# shellcheck disable=SC2053 # CASE is a glob
		case "$test" in
		"$1")	;;
		"$1":*)	[[ $2 == ${test#*:} ]] || continue ;;
		*)	continue ;;
		esac
		echo "$needs"
		return 0
	done < <(awk 'NF == 0 { next } /^[ \t]/ { sub(/^[ \t]+/, ""); l = l " " $0; next }
		      { if (l != "") print l; l = $0 } END { if (l != "") print l }' \
		 <<< "$SW_SELFTESTS_NEEDS")
	return 1
}

# Whether the run of the config file $1 has the need $2 (SW_SELFTESTS_NEEDS):
# 0 it has, 1 it lacks it, 2 no such need
sw_selftests_has()
{
	case "$2" in
	CONFIG_*)	grep -qE "^$2=(y|m)\$" "$1" ;;
	cpus=*)		[ "$smp" -ge "${2#cpus=}" ] ;;
	cmdline=*)	[[ " ${SW_VM_APPEND:-} " == *" ${2#cmdline=} "* ]] ;;
	*)		return 2 ;;
	esac
}

# The skips of the console log $1 that the kernel's config file $2 and the
# run do not justify, one "PROGRAM CASE: why" line each
sw_selftests_bad_skips()
{
	local prog name needs need lacks

	while read -r prog name; do
		if ! needs=$(sw_selftests_needs "$prog" "$name"); then
			echo "$prog $name: skipped, and SW_SELFTESTS_NEEDS names no need of it"
			continue
		fi
		lacks=''
		for need in $needs; do
			sw_selftests_has "$2" "$need"
			case $? in
			0)	;;
			1)	lacks+=" $need" ;;
			*)	echo "$prog $name: skipped, and SW_SELFTESTS_NEEDS names no such need '$need'"
				continue 2 ;;
			esac
		done
		[ -n "$lacks" ] ||
			echo "$prog $name: skipped, but the kernel and the run have what it needs: $needs"
	done < <(sw_selftests_skips "$1")
}

# Run the selftests on one kernel ($1) from the built directory $2, console
# in $3: the programs $4 names (none: run.list's); QEMU's -accel $5 (none:
# vm.sh's). Adds to passed, failed and skipped
sw_selftests_run()
{
	local kernel=$1 built=$2 log=$3 progs=${4:-} accel=${5:-} guest rc counts p f s
	local config line skips=()
	local what=$kernel

	if ! sw_build_module "$kernel" >/dev/null; then
		sw_log "selftests: $kernel: building the module FAILED"
		failed=$((failed + 1))
		return
	fi
	guest=$(dirname "$log")/guest.sh
	{
		[ -n "${SW_SELFTESTS_ENV:-}" ] && printf 'export %s\n' "$SW_SELFTESTS_ENV"
		printf 'cd /selftests || exit 1\nsh ./run.sh %s\n' "$progs"
	} > "$guest"
	[ -n "$accel" ] && what="$kernel (-accel $accel)"
	[ "$smp" -eq 2 ] || what="$what, $smp CPUs"
	sw_log "selftests: $what"
	SW_VM_ACCEL=${accel:-${SW_VM_ACCEL:-}} \
		"$SW_ROOT/scripts/vm.sh" --kernel "$kernel" --timeout "$SW_SELFTESTS_TIMEOUT" \
		--smp "$smp" --file "$built:/selftests" "$guest" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	counts=$(sw_selftests_count "$log")
	read -r p f s <<< "$counts"
	sw_log "selftests: $what: $p passed, $f failed, $s skipped (vm.sh status $rc)"
	if [ "$rc" -ne 0 ] && [[ ${accel:-${SW_VM_ACCEL:-}} != *thread=single* ]] &&
	   sw_vm_stale_int3 "$log"; then
		sw_log "selftests: $what: a stale int3, a breakpoint of the kernel's text" \
		       "patching met after it was taken out, which multi-threaded TCG" \
		       "does (docs/testing.rst): its results are dropped, all run again" \
		       "single-threaded"
		sw_selftests_keep_log "$what" "$log" >/dev/null
		stale_int3+=("$kernel")
		sw_selftests_run "$kernel" "$built" "$log" "$progs" tcg,thread=single
		return
	fi
	# A skip nothing justifies is a failure
	config=$(sw_vm_config "$kernel") || exit 1
	while read -r line; do
		sw_log "selftests: $what: $line: FAILED"
		skips+=("$line")
	done < <(sw_selftests_bad_skips "$log" "$config")
	passed=$((passed + p))
	failed=$((failed + f + ${#skips[@]}))
	skipped=$((skipped + s))
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 125 ] || grep -q '^vm: splat: ' "$log" ||
	   { [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; } || [ $((p + f + s)) -eq 0 ]; then
		sw_log "selftests: $what: the run FAILED (vm.sh status $rc)"
		failed=$((failed + 1))
		bad+=("$kernel")
		sw_selftests_keep "$what" "$log"
	elif [ "$f" -ne 0 ] || [ ${#skips[@]} -ne 0 ]; then
		bad+=("$kernel")
		sw_selftests_keep "$what" "$log"
	fi
	for line in "${skips[@]}"; do
		failures+=("$what: $line")
	done
}

# Copy the console log $2 of a run on $1 into $SW_SELFTESTS_LOGS and print
# its name: the log in the run's directory is gone when the script ends,
# and CI shows only the last lines of the output. Of the logs kept there,
# the newest $SW_SELFTESTS_LOGS_KEEP stay.
sw_selftests_keep_log()
{
	local what=$1 log=$2 kept

	if mkdir -p "$SW_SELFTESTS_LOGS" &&
	   kept=$(mktemp "$SW_SELFTESTS_LOGS/$(date +%Y%m%d-%H%M%S)-${what%% *}.XXXX.log") &&
	   cp "$log" "$kept"; then
		find "$SW_SELFTESTS_LOGS" -maxdepth 1 -name '[0-9]*-*.log' -printf '%T@ %p\n' |
			sort -rn | tail -n +$((SW_SELFTESTS_LOGS_KEEP + 1)) | cut -d' ' -f2- |
			xargs -r -d '\n' rm -f
	else
		kept="(not kept)"
	fi
	sw_log "selftests: $what: console log kept as $kept"
	echo "$kept"
}

# Keep the console log $2 of a failed run on $1, and its failed tests for
# the summary
sw_selftests_keep()
{
	local what=$1 log=$2 kept

	kept=$(sw_selftests_keep_log "$what" "$log")
	failures+=("$what: console log $kept")
	while read -r line; do
		failures+=("$what: $line")
	done < <(sed -n 's/^\(# \)*\(not ok [0-9]* .*\)/\2/p' "$log" | sort -u)
}

# Wait for one of the children whose outputs outs (PID -> file) names to
# end, show its output whole and add its counts to passed and failed (a
# child that died before its last line failed as a whole), its kernel to
# bad if it failed. Every child is waited for here and only here, so none
# is reaped unseen; if none is left to wait for, those outs still names
# failed as a whole.
sw_selftests_reap()
{
	local pid='' out p f

	wait -n -p pid
	if [ -z "$pid" ] || [ -z "${outs[$pid]:-}" ]; then
		for pid in "${!outs[@]}"; do
			sw_log "selftests: $(basename "${outs[$pid]}" .out): its run was lost"
			failed=$((failed + 1))
			bad+=("$(basename "${outs[$pid]}" .out)")
		done
		outs=()
		return
	fi
	out=${outs[$pid]}
	unset "outs[$pid]"
	grep -a -v -E '^selftests: [0-9]+ passed, [0-9]+ failed$' "$out"
	read -r p f < <(sw_summary_counts selftests "$out")
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -eq 0 ] || bad+=("$(basename "$out" .out)")
}

# Run the kernels of $@ as children of this script, $jobs at once, each on
# the selftests built in $built, each reaped by sw_selftests_reap()
sw_selftests_jobs()
{
	local k
	local -A outs=()

	for k in "$@"; do
		while [ ${#outs[@]} -ge "$jobs" ]; do
			sw_selftests_reap
		done
		SW_SELFTESTS_BUILT=$built "$0" --smp "$smp" --jobs 1 "$k" >"$work/$k.out" 2>&1 &
		outs[$!]=$work/$k.out
	done
	while [ ${#outs[@]} -gt 0 ]; do
		sw_selftests_reap
	done
}

# The children still running, stopped (the script ends on a signal)
sw_selftests_stop_jobs()
{
	local pids

	mapfile -t pids < <(jobs -pr)
	[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null
}

smp=2
jobs=${SW_SELFTESTS_JOBS:-2}
sw_options 'smp=[1-9][0-9]*' 'jobs=[1-9][0-9]*' -- "$@"
shift "$sw_optind"
kernels=("$@")
[ ${#kernels[@]} -eq 0 ] && kernels=(all)
# shellcheck disable=SC2206
[ "${kernels[*]}" = all ] && kernels=($SW_VM_KERNELS)
for k in "${kernels[@]}"; do
	sw_vm_known_kernel "$k" || usage
done

sw_need_vm
work=$(mktemp -d)
sw_rm_at_exit "$work"
passed=0 failed=0 skipped=0 bad=() failures=() stale_int3=()
built=${SW_SELFTESTS_BUILT:-}
if [ -z "$built" ] && ! built=$(sw_selftests_build "$work"); then
	sw_log "selftests: cannot build the selftests: nothing ran"
	echo "selftests: 0 passed, 1 failed"
	exit 1
fi
# The kernels this process runs itself: none when its children do
serial=("${kernels[@]}")
if [ "$jobs" -gt 1 ] && [ ${#kernels[@]} -gt 1 ]; then
	sw_at_exit sw_selftests_stop_jobs
	sw_selftests_jobs "${kernels[@]}"
	serial=()
fi
for k in "${serial[@]}"; do
	start=$SECONDS
	sw_selftests_run "$k" "$built" "$work/console.log" "${SW_SELFTESTS:-}"
	[ -n "${SW_SELFTESTS:-}" ] || [ -z "$SW_SELFTESTS_SINGLE_TCG" ] ||
		sw_selftests_run "$k" "$built" "$work/console.log" "$SW_SELFTESTS_SINGLE_TCG" \
			tcg,thread=single
	echo "selftests: $k took $((SECONDS - start)) s"
done
[ ${#stale_int3[@]} -eq 0 ] ||
	sw_log "selftests: run again single-threaded after a stale int3: ${stale_int3[*]}"
if [ ${#bad[@]} -ne 0 ]; then
	for line in "${failures[@]}"; do
		sw_log "selftests: failed on $line"
	done
	sw_log "selftests: FAILED on ${bad[*]} ($skipped skipped)"
else
	sw_log "selftests: all passed on ${kernels[*]} ($skipped skipped)"
fi
echo "selftests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
