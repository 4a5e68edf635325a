#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job: boot a test kernel (Debian's by default) in QEMU, load the
# module, run a realistic workload for a while, then print the wheel's
# geometry, stats and lateness:
#
#   scripts/demo.sh [--kernel K] [--geometry seed|mainline|classic]
#                   [--preset net|io|poll|mixed] [--rate N] [--seconds S]
#   scripts/demo.sh --mirror [--kernel K] [--seconds S]
#
# K is any kernel of the matrix (scripts/vm.sh; default debian). Exits
# non-zero if the guest failed, or if any timer expired early.
#
# --mirror: the kernel's own timers instead of ours. The guest gets a
# virtio disk with ext4, the module mirrors every real timer while
# selftests/shadow_wheel/real_traffic.sh runs (loopback TCP, fsynced
# writes, then an idle stretch), and the table shows every wheel at every
# HZ side by side, with the differential against the kernel's wheel and
# the timer functions behind the traffic. Exits non-zero if the guest
# failed, the mirror's invariant broke or a mirror wheel ran a timer early.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 [--kernel K] [--geometry G] [--preset P] [--rate N] [--seconds S]" >&2
	echo "       $0 --mirror [--kernel K] [--seconds S]" >&2
	echo "K: $SW_VM_KERNELS" >&2
	exit 2
}

# The table of a mirror run, from the mirror's files (the guest's dump, $1)
sw_demo_mirror_table()
{
	awk '
	function ms(us) { return sprintf("%.0f", us / 1000) }
	/^== / { f = $2; next }
	f == "stats" && /^(hz|elapsed_ms|consistent|expired_remote) / { s[$1] = $2 }
	f == "stats" && /^wheel / {
		n = $2
		order[++nw] = n
		for (i = 3; i < NF; i += 2)
			w[n, $i] = $(i + 1)
	}
	f == "lateness" && /^wheel / {
		n = $2
		l = $4
		for (i = 5; i < NF; i += 2)
			v[$i] = $(i + 1)
		lat[n, l] = ms(v["p50_us"]) "/" ms(v["p99_us"])
		if (l + 1 > depth)
			depth = l + 1
		split($NF, h, ",")
		if (h[1] > 0)
			early++
	}
	f == "diff" && /^(placement|expiry)\./ { d[$1] = $2 }
	f == "top" && /^fn / && ntop < 8 {
		# A module'"'"'s function is followed by its module: "fn [mod]"
		name = $2
		for (i = 3; i < NF; i++) {
			if ($i == "events")
				break
			name = name " " $i
		}
		top[++ntop] = sprintf("%-40s %8d events", name, $(i + 1))
	}
	END {
		if (!nw) {
			print "mirror: no figures"
			exit 1
		}
		first = order[1]
		seen = w[first, "seen"]
		printf "mirror: %.1f s of the kernel'"'"'s own timers, HZ=%d: %d armed, %d expired, %d cancelled, %d pending, %d dropped, %d run remotely\n",
			s["elapsed_ms"] / 1000, s["hz"], seen, w[first, "expired"],
			w[first, "cancelled"], w[first, "pending"], w[first, "dropped"],
			s["expired_remote"]
		printf "\n%-14s %8s %11s %12s", "wheel", "expired%", "cascades/s", "busy ticks/s"
		for (l = 0; l < depth; l++)
			printf " %12s", "L" l " p50/p99"
		printf "\n"
		for (i = 1; i <= nw; i++) {
			n = order[i]
			printf "%-14s %8.1f %11d %12d", n, seen ? 100 * w[n, "expired"] / seen : 0,
				w[n, "cascaded_per_s"], w[n, "due_ticks_per_s"]
			for (l = 0; l < depth; l++)
				printf " %12s", ((n, l) in lat) ? lat[n, l] " ms" : "-"
			printf "\n"
		}
		printf "\ndifferential, mainline at HZ=%d against the kernel'"'"'s wheel:\n", s["hz"]
		nr = split("mirror_behind clk_at_jiffies clk_ahead clk_behind placed_apart unexplained", r, " ")
		for (k = 1; k <= 2; k++) {
			what = k == 1 ? "placement" : "expiry"
			c = d[what ".compared"]
			m = d[what ".match"]
			printf "  %-9s %d of %d match (%.3f%%)", what, m, c, c ? 100 * m / c : 100
			for (j = 1; j <= nr; j++)
				if (d[what "." r[j]] > 0)
					printf ", %d %s", d[what "." r[j]], r[j]
			printf "\n"
		}
		printf "\ntimer functions, most events first:\n"
		for (i = 1; i <= ntop; i++)
			printf "  %s\n", top[i]
		printf "\ninvariant %s\n", s["consistent"] == 1 ? "held" : "BROKEN"
		if (early)
			printf "EARLY expiries at %d wheel levels\n", early
		exit (s["consistent"] == 1 && !early) ? 0 : 1
	}' "$1"
}

# The mirror's run: the kernel's own traffic, every wheel, the table
sw_demo_mirror()
{
	local rc dump

	cat > "$guest" <<EOF
D=/sys/kernel/debug/shadow_wheel
insmod /shadow_wheel.ko mirror=1 || exit 1
sh /real_traffic.sh $seconds 2 || exit 1
echo 0 > \$D/mirror/enable
echo SW_DEMO_BEGIN
for f in stats lateness diff top; do echo "== \$f"; cat \$D/mirror/\$f; done
echo SW_DEMO_END
rmmod shadow_wheel || exit 1
EOF
	sw_log "demo: mirroring the $kernel kernel's own timers over ${seconds}s of real traffic"
	"$SW_ROOT/scripts/vm.sh" --kernel "$kernel" --disk 64 --timeout $((seconds + 600)) \
		--file "$SW_ROOT/selftests/shadow_wheel/real_traffic.sh" "$guest" > "$out"
	rc=$?
	grep -a '^real_traffic:' "$out"
	dump=$(mktemp)
	sed -n '/^SW_DEMO_BEGIN/,/^SW_DEMO_END/p' "$out" | grep -v '^SW_DEMO_' > "$dump"
	if [ $rc -eq 0 ]; then
		echo
		sw_demo_mirror_table "$dump" || rc=1
	else
		tail -n 40 "$out" >&2
	fi
	rm -f "$dump"
	[ $rc -eq 0 ] || sw_log "demo: FAILED (exit status $rc)"
	return $rc
}

kernel=debian geometry=seed preset=mixed rate="" seconds=10 mirror=0
while [ $# -gt 0 ]; do
	if [ "$1" = --mirror ]; then
		mirror=1
		shift
		continue
	fi
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
if [ $mirror -eq 1 ]; then
	sw_demo_mirror
	exit
fi
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
