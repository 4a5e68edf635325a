#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: install what is needed, build the module against Debian's
# headers, lint, and run the KUnit suites on the UML, HZ=250 and HZ=1000
# kernels. Ends with one line "check: N passed, N failed".
set -u
. "$(dirname "$0")/sw-lib.sh"
cd "$SW_ROOT" || exit 1

sw_need_module_build
sw_need_kernel_build

steps_failed=0
make modules || { sw_log "check: module build FAILED"; steps_failed=$((steps_failed + 1)); }
make clean >/dev/null

kunit_log=$(mktemp)
trap 'rm -f "$kunit_log"' EXIT
scripts/kunit.sh all | tee "$kunit_log"
kunit_rc=${PIPESTATUS[0]}
[ "$kunit_rc" -eq 0 ] || steps_failed=$((steps_failed + 1))

scripts/lint.sh || { sw_log "check: lint FAILED"; steps_failed=$((steps_failed + 1)); }

totals=$(grep -E '^kunit: [0-9]+ passed, [0-9]+ failed' "$kunit_log" | tail -n 1)
passed=$(echo "$totals" | awk '{print $2}')
failed=$(echo "$totals" | awk '{print $4}')
passed=${passed:-0}
failed=$(( ${failed:-1} + steps_failed ))
echo "check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
