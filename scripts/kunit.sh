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
#   all       the five in turn (default)
# (see SW_KERNELS in sw-lib-kernel.sh)
#
# Each kernel is built once into $SW_CACHE/build/<source version>-<kernel>-<config hash>;
# a rerun rebuilds only what changed. kunit.py's own output, with its summary,
# is shown, and after each kernel "kunit: KERNEL took N s"; the exit status
# is non-zero if any kernel failed to build or any test failed.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 [user|uml|hz250|hz1000|uml612|all]..." >&2
	exit 2
}

# A QEMU kernel whose run failed on a stale int3 of multi-threaded TCG
# (sw_vm_stale_int3(); kunit.py keeps the console in the build's test.log)
# is run again single-threaded, its first run's console kept beside it
sw_kunit_run()
{
	local kernel=$1 tree=$2 log=$3 args build accel rc

	args=$(sw_kunit_args "$kernel")
	build=$(sw_kunit_build_dir "$kernel")
	mkdir -p "$build"
	for accel in tcg tcg,thread=single; do
		sw_log "kunit: $kernel in $build (-accel $accel)"
		# shellcheck disable=SC2086
		(cd "$tree" && python3 tools/testing/kunit/kunit.py run $args \
			--build_dir="$build" \
			--make_options CC="ccache gcc" --jobs="$SW_JOBS" --timeout=900 \
			--qemu_args="-accel $accel -smp 2") 2>&1 | tee "$log"
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
# valgrind; each run closes with "kunit-user: P passed, F failed"
sw_kunit_user_run()
{
	local log=$1 target rc=0 line

	for target in run-asan run-valgrind; do
		sw_log "kunit: user space, $target"
		make -s -C "$SW_ROOT/kunit/user" "$target" 2>&1 | tee "$log"
		[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
		line=$(grep -E '^kunit-user: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
		# A run that died before its last line failed as a whole
		[ -n "$line" ] || line="kunit-user: 0 passed, 1 failed"
		passed=$((passed + $(echo "$line" | awk '{print $2}')))
		failed=$((failed + $(echo "$line" | awk '{print $4}')))
	done
	return $rc
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

sw_options -- "$@"
shift "$sw_optind"
kernels=("$@")
[ ${#kernels[@]} -eq 0 ] && kernels=(all)
# shellcheck disable=SC2206
[ "${kernels[*]}" = all ] && kernels=(user $SW_KERNELS)
for k in "${kernels[@]}"; do
	[ "$k" = user ] || sw_kunit_args "$k" >/dev/null || usage
done

log=$(mktemp)
sw_rm_at_exit "$log"
bad=() passed=0 failed=0
declare -A trees
for k in "${kernels[@]}"; do
	start=$SECONDS
	if [ "$k" = user ]; then
		sw_need_packages build-essential valgrind
		sw_kunit_user_run "$log" || bad+=("$k")
	else
		# Each series' kernel tree, prepared and synced once for its kernels
		series=$(sw_kunit_series "$k")
		if [ -z "${trees[$series]:-}" ]; then
			sw_need_kernel_build
			sw_lock_kernel_trees
			trees[$series]=$(sw_kernel_tree "$series") || exit 1
		fi
		sw_kunit_run "$k" "${trees[$series]}" "$log" || bad+=("$k")
		sw_kunit_count "$log"
	fi
	echo "kunit: $k took $((SECONDS - start)) s"
done
if [ ${#bad[@]} -ne 0 ]; then
	sw_log "kunit: FAILED on ${bad[*]}"
	echo "kunit: $passed passed, $((failed > 0 ? failed : 1)) failed"
	exit 1
fi
sw_log "kunit: all suites passed on ${kernels[*]}"
echo "kunit: $passed passed, $failed failed"
