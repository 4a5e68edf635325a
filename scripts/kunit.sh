#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the shadow-wheel KUnit suites built into kernels from Debian's
# linux-source-6.1 and linux-source-6.12, each with the kunit.py of the
# tree it is built from:
#
#   uml       6.1 UML, HZ=100 (fixed on UML), one CPU
#   hz250     6.1 x86_64 under QEMU (TCG), HZ=250, 2 CPUs, the debug kernel
#   hz1000    6.1 x86_64 under QEMU (TCG), HZ=1000, 2 CPUs
#   uml612    6.12 UML, HZ=100, one CPU, the same config as uml
#   user      no kernel: the same suites and core in user space, stack
#             variables filled with a pattern, under AddressSanitizer +
#             UndefinedBehaviorSanitizer and under valgrind memcheck
#             (kunit/user/)
#   all       the five (default): the kernels in turn, and user beside
#             them (it needs no kernel and keeps one core busy for minutes,
#             while a kernel's run under QEMU leaves the other mostly
#             idle), its output shown after theirs
# (see SW_KERNELS in sw-lib-kernel.sh)
#
#   scripts/kunit.sh [--build|--exec] [K|all]...
#
# --build builds the kernels and runs nothing (user space is not built);
# --exec runs kernels built before, building nothing, and so neither syncs
# nor locks the kernel trees: make check runs each kernel so as soon as it
# is built, beside the next one's build.
#
# Each kernel is built once into $SW_CACHE/build/<source version>-<kernel>-<config hash>;
# a rerun rebuilds only what changed. kunit.py's own output, with its summary,
# is shown, and after each kernel "kunit: KERNEL took N s"; the exit status
# is non-zero if any kernel failed to build or any test failed.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 [--build|--exec] [user|uml|hz250|hz1000|uml612|all]..." >&2
	exit 2
}

# kunit.py's command $3 (build, run, exec) for the kernel $1 in the tree $2, as
# configured and built for it, with the options "$@" after those. Objects
# come from ccache in its depend mode: a miss compiles once, where the
# default mode first runs the preprocessor to look the file up, which made
# a cold build 1.7 times as long (docs/testing.rst).
sw_kunit_py()
{
	local kernel=$1 tree=$2 cmd=$3 args build

	shift 3
	args=$(sw_kunit_args "$kernel")
	# exec builds nothing, and takes no --jobs
	[ "$cmd" = exec ] || args+=" --jobs=$SW_JOBS"
	build=$(sw_kunit_build_dir "$kernel")
	# kunit.py makes the build directory, not its parents
	mkdir -p "$build"
	# shellcheck disable=SC2086
	(cd "$tree" && CCACHE_DEPEND=1 python3 tools/testing/kunit/kunit.py "$cmd" $args \
		--build_dir="$build" \
		--make_options CC="ccache gcc" "$@")
}

# Run the kernel $1 of the tree $2 with kunit.py's command $4 (run, exec),
# its output in $3. A QEMU kernel whose run failed on a stale int3 of
# multi-threaded TCG (sw_vm_stale_int3(); kunit.py keeps the console in the
# build's test.log) is run again single-threaded, its first run's console
# kept beside it.
sw_kunit_run()
{
	local kernel=$1 tree=$2 log=$3 cmd=$4 build accel rc

	build=$(sw_kunit_build_dir "$kernel")
	for accel in tcg tcg,thread=single; do
		sw_log "kunit: $kernel in $build (-accel $accel)"
		sw_kunit_py "$kernel" "$tree" "$cmd" --timeout=900 \
			--qemu_args="-accel $accel -smp 2" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
		if [ "$rc" -eq 0 ] || [ ! -f "$build/test.log" ] ||
		   ! sw_vm_stale_int3 "$build/test.log"; then
			break
		fi
		cp "$build/test.log" "$build/test.log.int3"
		sw_log "kunit: $kernel: a stale int3, a breakpoint of the kernel's text patching" \
			"met after it was taken out (docs/testing.rst): run again single-threaded," \
			"the first console kept in $build/test.log.int3"
	done
	return "$rc"
}

# The suites in user space, once under the sanitizers and once under
# valgrind, the output of each run in $1; each run closes with
# "kunit-user: P passed, F failed", and all with "kunit: user: P passed,
# F failed" and "kunit: user took N s"
sw_kunit_user_run()
{
	local log=$1 target rc=0 p=0 f=0 rp rf start=$SECONDS

	for target in run-asan run-valgrind; do
		sw_log "kunit: user space, $target"
		make -s -C "$SW_ROOT/kunit/user" "$target" 2>&1 | tee "$log"
		[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
		read -r rp rf < <(sw_summary_counts kunit-user "$log")
		p=$((p + rp))
		f=$((f + rf))
	done
	[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	echo "kunit: user: $p passed, $f failed"
	echo "kunit: user took $((SECONDS - start)) s"
}

# Add the counts of the user-space run whose output is $1 to passed and
# failed; fails if a test failed or the run has no closing line
sw_kunit_user_count()
{
	local p f

	read -r p f < <(sw_summary_counts "kunit: user" "$1")
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -eq 0 ]
}

# Add up kunit.py's summary line: "Ran N tests: passed: P, failed: F, crashed: C"
sw_kunit_count()
{
	local line

	line=$(grep -o 'Ran [0-9]* tests:.*' "$1" | tail -n 1)
	passed=$((passed + $(echo "$line" | grep -o 'passed: [0-9]*' | grep -o '[0-9]*$' || echo 0)))
	failed=$((failed + $(echo "$line" | grep -o 'failed: [0-9]*' | grep -o '[0-9]*$' || echo 0)))
	failed=$((failed + $(echo "$line" | grep -o 'crashed: [0-9]*' | grep -o '[0-9]*$' || echo 0)))
}

# Set tree to the kernel $1's tree, as $mode needs it: synced with our
# sources once for each series, the trees locked first (in this shell, so
# the lock holds to the end), or for --exec the tree as it is
sw_kunit_tree()
{
	local series

	series=$(sw_kunit_series "$1")
	if [ "$mode" = exec ]; then
		tree=$(sw_kernel_source "$series") || exit 1
		return
	fi
	if [ -z "${trees[$series]:-}" ]; then
		sw_need_kernel_build
		sw_lock_kernel_trees
		trees[$series]=$(sw_kernel_tree "$series") || exit 1
	fi
	tree=${trees[$series]}
}

# Build, run, or run as built ($mode) the kernel $1, adding its counts to
# passed and failed; fails if it did not build or a test failed
sw_kunit_kernel()
{
	local k=$1 tree build rc=0

	sw_kunit_tree "$k"
	build=$(sw_kunit_build_dir "$k")
	case "$mode" in
	build)
		sw_log "kunit: building $k in $build"
		sw_kunit_py "$k" "$tree" build
		return
		;;
	exec)
		if [ ! -f "$build/vmlinux" ]; then
			sw_log "kunit: $k is not built in $build (scripts/kunit.sh --build $k)"
			failed=$((failed + 1))
			return 1
		fi
		;;
	esac
	sw_kunit_run "$k" "$tree" "$log" "$mode" || rc=1
	sw_kunit_count "$log"
	return "$rc"
}

build='' exec=''
sw_options build exec -- "$@"
shift "$sw_optind"
[ -z "$build" ] || [ -z "$exec" ] || usage
mode=run
[ -n "$build" ] && mode="build"
[ -n "$exec" ] && mode="exec"
kernels=("$@")
[ ${#kernels[@]} -eq 0 ] && kernels=(all)
# shellcheck disable=SC2206
[ "${kernels[*]}" = all ] && kernels=(user $SW_KERNELS)
[ "$mode" = build ] && mapfile -t kernels < <(printf '%s\n' "${kernels[@]}" | grep -vx user)
for k in "${kernels[@]}"; do
	[ "$k" = user ] || sw_kunit_args "$k" >/dev/null || usage
done

log=$(mktemp)
user_log=$(mktemp)
user_out=$(mktemp)
sw_rm_at_exit "$log" "$user_log" "$user_out"
bad=() passed=0 failed=0 user_pid=
declare -A trees
# The user-space run keeps one core busy for minutes and needs no kernel:
# with kernels to run, it runs beside them, its output shown at the end
if [[ " ${kernels[*]} " == *" user "* ]]; then
	sw_need_packages build-essential valgrind
	if [ ${#kernels[@]} -gt 1 ]; then
		sw_kunit_user_run "$user_log" >"$user_out" 2>&1 &
		user_pid=$!
		sw_log "kunit: user space runs beside the kernels, its output at the end"
	fi
fi
for k in "${kernels[@]}"; do
	if [ "$k" = user ]; then
		if [ -z "$user_pid" ]; then
			sw_kunit_user_run "$user_log" | tee "$user_out"
			sw_kunit_user_count "$user_out" || bad+=("$k")
		fi
		continue
	fi
	start=$SECONDS
	sw_kunit_kernel "$k" || bad+=("$k")
	if [ "$mode" = build ]; then
		echo "kunit: $k build took $((SECONDS - start)) s"
	else
		echo "kunit: $k took $((SECONDS - start)) s"
	fi
done
if [ -n "$user_pid" ]; then
	wait "$user_pid"
	cat "$user_out"
	sw_kunit_user_count "$user_out" || bad+=(user)
fi
if [ "$mode" = build ]; then
	[ ${#bad[@]} -eq 0 ] || { sw_log "kunit: building FAILED: ${bad[*]}"; exit 1; }
	sw_log "kunit: built ${kernels[*]}"
	exit 0
fi
if [ ${#bad[@]} -ne 0 ]; then
	sw_log "kunit: FAILED on ${bad[*]}"
	echo "kunit: $passed passed, $((failed > 0 ? failed : 1)) failed"
	exit 1
fi
sw_log "kunit: all suites passed on ${kernels[*]}"
echo "kunit: $passed passed, $failed failed"
