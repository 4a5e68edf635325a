#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the shadow-wheel selftests (POSIX sh, for busybox), as root, in a
# guest with the module at /shadow_wheel.ko (SW_MODULE overrides) and
# debugfs at /sys/kernel/debug. Prints one TAP stream, each program's own
# TAP indented as a "# " comment under its result line, as kselftest's
# runner does.
#
# Exit: 0 when every program passed (or some skipped), 1 when any failed,
# 4 (KSFT_SKIP) when all skipped.
#
# Usage: run.sh [program...]    (default: all, in the order of run.list)
#
# run.list names the programs, one a line: make writes it from the
# Makefile's TEST_GEN_PROGS, the one place they are listed.

ksft_skip=4
dir=$(cd "$(dirname "$0")" && pwd)
# The built programs and their list; also found one level down, in shadow_wheel/
[ -f "$dir/run.list" ] || [ ! -d "$dir/shadow_wheel" ] || dir="$dir/shadow_wheel"
if [ $# -gt 0 ]; then
	tests="$*"
elif [ -f "$dir/run.list" ]; then
	tests=$(cat "$dir/run.list")
fi
# No list, or one naming nothing, is a failure, not a run of no test
if [ -z "$(echo $tests)" ]; then
	echo "TAP version 13"
	echo "1..1"
	echo "not ok 1 selftests: shadow_wheel: no program in $dir/run.list: build with make first"
	exit 1
fi

tmp=${TMPDIR:-/tmp}
mkdir -p "$tmp" 2>/dev/null
rcfile="$tmp/sw_selftest_rc.$$"

# With a module to test, debugfs must be there
if [ -e "${SW_MODULE:-/shadow_wheel.ko}" ] && ! grep -q ' /sys/kernel/debug ' /proc/mounts; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
fi

set -- $tests
echo "TAP version 13"
echo "1..$#"
num=0
passed=0
failed=0
skipped=0
start=$(date +%s)
for t in "$@"; do
	num=$((num + 1))
	name="selftests: shadow_wheel: $t"
	echo "# $name"
	if [ ! -x "$dir/$t" ]; then
		echo "# Warning: $dir/$t is missing or not executable"
		echo "not ok $num $name"
		failed=$((failed + 1))
		continue
	fi
	t0=$(date +%s)
	# The program's exit status outlives the pipe through a file
	( cd "$dir" && "./$t" 2>&1; echo $? > "$rcfile" ) | sed -e 's/^/# /'
	rc=$(cat "$rcfile" 2>/dev/null)
	rm -f "$rcfile"
	echo "# $t: exit ${rc:-?} after $(( $(date +%s) - t0 )) s"
	case "$rc" in
	0)
		echo "ok $num $name"
		passed=$((passed + 1))
		;;
	"$ksft_skip")
		echo "ok $num $name # SKIP"
		skipped=$((skipped + 1))
		;;
	*)
		echo "not ok $num $name # exit=${rc:-?}"
		failed=$((failed + 1))
		;;
	esac
done
echo "# shadow_wheel: $passed passed, $failed failed, $skipped skipped" \
	"in $(( $(date +%s) - start )) s"

[ "$failed" -eq 0 ] || exit 1
[ "$passed" -eq 0 ] && [ "$skipped" -gt 0 ] && exit "$ksft_skip"
exit 0
