#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job: boot a test kernel (Debian's by default) in QEMU, load the
# module, run a realistic workload for a while, then print the wheel's
# geometry, stats and lateness:
#
#   scripts/demo.sh [--kernel K] [--geometry seed|mainline|classic]
#                   [--preset net|io|poll|mixed] [--rate N] [--seconds S]
#
# K is any kernel of the matrix (scripts/vm.sh; default debian). Exits
# non-zero if the guest failed, or if any timer expired early.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 [--kernel K] [--geometry G] [--preset P] [--rate N] [--seconds S]" >&2
	echo "K: $SW_VM_KERNELS" >&2
	exit 2
}

kernel=debian geometry=seed preset=mixed rate="" seconds=10
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || usage
	case "$1" in
	--kernel) kernel=$2 ;;
	--geometry) geometry=$2 ;;
	--preset) preset=$2 ;;
	--rate) rate=" rate=$2" ;;
	--seconds) seconds=$2 ;;
	*) usage ;;
	esac
	shift 2
done
[[ $seconds =~ ^[1-9][0-9]*$ ]] || usage

guest=$(mktemp)
out=$(mktemp)
trap 'rm -f "$guest" "$out"' EXIT
cat > "$guest" <<EOF
D=/sys/kernel/debug/shadow_wheel
insmod /shadow_wheel.ko geometry=$geometry || exit 1
echo "run preset=$preset duration=$seconds$rate" > \$D/control || exit 1
sleep $((seconds + 1))
echo SW_DEMO_BEGIN
echo "== geometry"; cat \$D/geometry
echo "== stats"; cat \$D/stats
echo "== lateness"; cat \$D/lateness
echo SW_DEMO_END
early=\$(sed -n 's/^early //p' \$D/stats)
rmmod shadow_wheel || exit 1
[ "\$early" = 0 ]
EOF

sw_log "demo: $preset workload for ${seconds}s on the $kernel kernel, $geometry wheel"
"$SW_ROOT/scripts/vm.sh" --kernel "$kernel" --timeout $((seconds + 600)) "$guest" > "$out"
rc=$?
sed -n '/^SW_DEMO_BEGIN/,/^SW_DEMO_END/p' "$out" | grep -v '^SW_DEMO_'
if [ $rc -ne 0 ]; then
	tail -n 40 "$out" >&2
	sw_log "demo: FAILED (exit status $rc)"
fi
exit $rc
