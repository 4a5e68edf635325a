#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make lint: the module built with W=1 and sparse (C=2) against Debian's
# headers, the KUnit suites likewise inside the UML KUnit trees of 6.1 and
# 6.12, checkpatch.pl --strict over every C file and shellcheck over the
# scripts. Any warning in our files fails.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 (no arguments; make lint runs it; KDIR=DIR for other headers)" >&2
	exit 2
}

sw_options_none "$@"
sw_need_module_build
release=$(sw_debian_kernel_release)
kdir=${KDIR:-/usr/src/linux-headers-$release}
[ -d "$kdir" ] || sw_die "no kernel headers at $kdir"
sw_lock_kernel_trees
src=$(sw_kernel_source 6.1) || exit 1
status=0
SW_TRACE_HEADER=module/sw_trace.h

# Warnings and errors that point into our sources ($1: how paths start)
sw_our_warnings()
{
	grep -E "^($1)[^:]*:[0-9]+(:[0-9]+)?: (warning|error)" || true
}

sw_report()
{
	local what=$1 out=$2

	if [ -n "$out" ]; then
		echo "$out"
		sw_log "lint: $what: FAILED"
		status=1
	else
		sw_log "lint: $what: clean"
	fi
}

# The module, out of tree, in a scratch copy so no object lands in the repo
work=$(mktemp -d)
sw_rm_at_exit "$work"
rsync -a --exclude=.git --exclude=/kunit/user/build "$SW_ROOT/" "$work/"
out=$(make -C "$kdir" M="$work" W=1 C=2 modules 2>&1)
rc=$?
[ $rc -eq 0 ] || { echo "$out"; sw_die "module build failed"; }
sw_report "module W=1 C=2 ($kdir)" "$(echo "$out" | sed "s|^$work/||" | sw_our_warnings 'core/|module/|kunit/')"

# The KUnit suites in a UML KUnit kernel's tree ($1: uml, uml612), built
# first by scripts/kunit.sh if it is not there yet
sw_lint_kunit()
{
	local kernel=$1 series tree build out rc

	series=$(sw_kunit_series "$kernel")
	tree=$(sw_kernel_tree "$series") || exit 1
	build=$(sw_kunit_build_dir "$kernel")
	if [ ! -f "$build/.config" ] ||
	   ! grep -q '^CONFIG_SHADOW_WHEEL_KUNIT_TEST=y' "$build/.config"; then
		sw_log "lint: building the $kernel KUnit kernel first"
		"$SW_ROOT/scripts/kunit.sh" "$kernel" >/dev/null || sw_die "$kernel KUnit run failed"
	fi
	out=$(make -C "$tree" O="$build" ARCH=um W=1 C=2 shadow_wheel/ 2>&1)
	rc=$?
	[ $rc -eq 0 ] || { echo "$out"; sw_die "KUnit suites build failed ($kernel)"; }
	sw_report "KUnit suites W=1 C=2 (UML, linux-source-$series)" \
		"$(echo "$out" | sed "s|^$tree/||" | sw_our_warnings 'shadow_wheel/')"
}

sw_lint_kunit uml
sw_lint_kunit uml612

# checkpatch over every C source and header, and the Kconfig; not over
# core/user/include and kunit/user/include, the user-space stand-ins for
# kernel headers, which define the kernel's own types and macros the
# kernel's way
files=$(cd "$SW_ROOT" && git ls-files -co --exclude-standard '*.c' '*.h' Kconfig |
	grep -v -e '^core/user/include/' -e '^kunit/user/include/' -e "^$SW_TRACE_HEADER\$")
# shellcheck disable=SC2086 # one word per file
out=$(cd "$SW_ROOT" && "$src/scripts/checkpatch.pl" --strict --no-tree --quiet \
	--show-types -f $files 2>&1)
sw_report "checkpatch --strict" "$out"

# The scripts and their library, as shellcheck reads them (scripts/.shellcheckrc)
sw_report "shellcheck scripts/" "$(cd "$SW_ROOT/scripts" && shellcheck -x ./*.sh 2>&1)"

# The trace header is laid out as the kernel's own are (include/trace/events/
# timer.h has the same three): TRACE_EVENT(name, and TP_STRUCT__entry( ending
# their lines, the parts of TRACE_EVENT() not aligned to its parenthesis, and
# TRACE_DEFINE_ENUM(x); in a macro, as it expands to declarations; and fields
# several events share, written once as a macro of __field()s and one of
# their assignments (as include/trace/events/sunrpc.h's
# SVC_RQST_ENDPOINT_FIELDS), which checkpatch takes for complex values
out=$(cd "$SW_ROOT" && "$src/scripts/checkpatch.pl" --strict --no-tree --quiet \
	--show-types \
	--ignore OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT,TRAILING_SEMICOLON,COMPLEX_MACRO,MACRO_ARG_REUSE \
	-f "$SW_TRACE_HEADER" 2>&1)
sw_report "checkpatch --strict $SW_TRACE_HEADER" "$out"

exit $status
