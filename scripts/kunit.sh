#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the shadow-wheel KUnit suites with the kernel's own kunit.py, built
# into kernels from Debian's linux-source-6.1:
#
#   uml       UML, HZ=100 (fixed in 6.1), one CPU
#   hz250     x86_64 under QEMU (TCG), HZ=250, 2 CPUs
#   hz1000    x86_64 under QEMU (TCG), HZ=1000, 2 CPUs
#   all       the three in turn (default)
#
# Each kernel is built once into $SW_CACHE/build/<source version>-<kernel>-<config hash>;
# a rerun rebuilds only what changed. kunit.py's own output, with its summary,
# is shown; the exit status is non-zero if any kernel failed to build or any
# test failed.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 [uml|hz250|hz1000|all]..." >&2
	exit 2
}

# kunit.py arguments for one kernel
sw_kunit_args()
{
	case "$1" in
	uml)
		;;
	hz250|hz1000)
		echo "--arch=x86_64 --kconfig_add CONFIG_SMP=y --kconfig_add CONFIG_HZ_${1#hz}=y"
		;;
	*)
		usage
		;;
	esac
}

sw_kunit_run()
{
	local kernel=$1 tree=$2 args key build

	args=$(sw_kunit_args "$kernel")
	key=$( (cat "$SW_ROOT/kunit/.kunitconfig"; echo "$args") | sha1sum | cut -c1-12)
	build=$SW_CACHE/build/$(sw_source_version)-$kernel-$key
	mkdir -p "$build"
	sw_log "kunit: $kernel in $build"
	# shellcheck disable=SC2086
	(cd "$tree" && python3 tools/testing/kunit/kunit.py run $args \
		--build_dir="$build" --kunitconfig="$SW_ROOT/kunit/.kunitconfig" \
		--make_options CC="ccache gcc" --jobs="$SW_JOBS" --timeout=900 \
		--qemu_args="-accel tcg -smp 2")
}

kernels=("$@")
[ ${#kernels[@]} -eq 0 ] && kernels=(all)
[ "${kernels[*]}" = all ] && kernels=(uml hz250 hz1000)
for k in "${kernels[@]}"; do
	sw_kunit_args "$k" >/dev/null
done

sw_need_kernel_build
tree=$(sw_kernel_tree) || exit 1

failed=()
for k in "${kernels[@]}"; do
	sw_kunit_run "$k" "$tree" || failed+=("$k")
done
if [ ${#failed[@]} -ne 0 ]; then
	sw_log "kunit: FAILED on ${failed[*]}"
	exit 1
fi
sw_log "kunit: all suites passed on ${kernels[*]}"
