#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job: boot a test kernel (Debian's by default) in QEMU, load the
# module, run a realistic workload for a while, then print the wheel's
# geometry, stats and lateness:
#
#   scripts/demo.sh [--kernel K] [--smp N] [--geometry seed|mainline|classic]
#                   [--preset net|io|poll|mixed] [--rate N] [--seconds S]
#   scripts/demo.sh --mirror [--kernel K] [--smp N] [--seconds S]
#
# K is any kernel of the matrix (scripts/vm.sh; default debian). Exits
# non-zero if the guest failed, or if any timer expired early.
#
# --mirror: the kernel's own timers instead of ours. The guest gets a
# virtio disk with ext4, the module mirrors every real timer while
# selftests/shadow_wheel/real_traffic.sh runs (loopback TCP, fsynced
# writes, then an idle stretch), and mirror/summary shows every wheel at
# every HZ side by side, with the differential against the kernel's wheel
# and the timer functions behind the traffic. Exits non-zero if the guest
# failed, the mirror's invariant broke or a mirror wheel ran a timer early.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 [--kernel K] [--smp N] [--geometry G] [--preset P] [--rate N] [--seconds S]" >&2
	echo "       $0 --mirror [--kernel K] [--smp N] [--seconds S]" >&2
	echo "K: $SW_VM_KERNELS" >&2
	exit 2
}

# The mirror's run: the kernel's own traffic, every wheel, the table
sw_demo_mirror()
{
	local rc summary

	cat > "$guest" <<EOF
D=/sys/kernel/debug/shadow_wheel
insmod /shadow_wheel.ko mirror=1 || exit 1
sh /real_traffic.sh $seconds 2 || exit 1
echo 0 > \$D/mirror/enable
echo SW_DEMO_BEGIN
cat \$D/mirror/summary
echo; echo "== each CPU's log"; cat \$D/mirror/logs
echo SW_DEMO_END
rmmod shadow_wheel || exit 1
EOF
	sw_log "demo: mirroring the $kernel kernel's own timers over ${seconds}s of real traffic"
	"$SW_ROOT/scripts/vm.sh" --kernel "$kernel" --smp "$smp" --disk 64 --timeout $((seconds + 600)) \
		--file "$SW_ROOT/selftests/shadow_wheel/real_traffic.sh" "$guest" > "$out"
	rc=$?
	grep -a '^real_traffic:' "$out"
	summary=$(sed -n '/^SW_DEMO_BEGIN/,/^SW_DEMO_END/p' "$out" | grep -av '^SW_DEMO_' | tr -d '\r')
	if [ $rc -eq 0 ]; then
		echo
		echo "$summary"
		# The summary says whether the invariant held and any wheel ran a timer early
		echo "$summary" | grep -q '^invariant held$' || rc=1
		! echo "$summary" | grep -q '^EARLY' || rc=1
	else
		tail -n 40 "$out" >&2
	fi
	[ $rc -eq 0 ] || sw_log "demo: FAILED (exit status $rc)"
	return $rc
}

kernel=debian smp=2 geometry=seed preset=mixed rate='' seconds=10 mirror=0
sw_options mirror 'kernel=.+' 'smp=[1-9][0-9]*' 'geometry=.+' 'preset=.+' 'rate=.+' \
	'seconds=[1-9][0-9]*' -- "$@"
shift "$sw_optind"
[ $# -eq 0 ] || usage

guest=$(mktemp)
out=$(mktemp)
sw_rm_at_exit "$guest" "$out"
if [ $mirror -eq 1 ]; then
	sw_demo_mirror
	exit
fi
cat > "$guest" <<EOF
D=/sys/kernel/debug/shadow_wheel
insmod /shadow_wheel.ko geometry=$geometry || exit 1
echo "run preset=$preset duration=$seconds${rate:+ rate=$rate}" > \$D/control || exit 1
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
"$SW_ROOT/scripts/vm.sh" --kernel "$kernel" --smp "$smp" --timeout $((seconds + 600)) "$guest" > "$out"
rc=$?
sed -n '/^SW_DEMO_BEGIN/,/^SW_DEMO_END/p' "$out" | grep -v '^SW_DEMO_'
if [ $rc -ne 0 ]; then
	tail -n 40 "$out" >&2
	sw_log "demo: FAILED (exit status $rc)"
fi
exit $rc
