#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The soak: the module under everything at once for a long stretch of
# guest time, on the debug kernel by default (lockdep, KASAN, kmemleak,
# debug objects):
#
#   scripts/soak.sh [--kernel K] [--smp N] [--minutes M] [--rate R] [--presets "P..."]
#
# For M minutes (default 10) the mixed preset runs at R timers a second
# (default 1000000, the most a run takes; with --presets, the presets
# named take turns, each for an equal share of the time), while CPU 1
# goes offline and online again every second, the figures are reset every
# 15 s, the bench runs every 30 s (seed wheel, small, on CPU 0 or CPU 1,
# with and without the kernel's timers) and the mirror (mirror/enable) is
# turned on and off every 5 s. Every second the stats must add up (armed
# = expired + cancelled + pending, in total and on each CPU, with the
# timers that moved) and no timer may have expired early; each time the
# mirror stops its invariant must hold. At the end the run is stopped,
# cancel-all must leave nothing pending and nothing alive, and after
# rmmod the kernel's slab usage (Slab in /proc/meminfo, caches shrunk,
# less the caches of DEBUG_OBJECTS and kmemleak, which keep their own
# tracking objects) must be back to what it was before insmod, within
# SW_SOAK_SLAB_SLACK_KB (default 1024 kB: the kernel's own allocations
# meanwhile, for the processes the soak starts among them).
# vm.sh fails the run on a splat or a leak that kmemleak finds.
#
# The figures go to stdout, one "soak:" line each, closing with
# "soak: PASS" or "soak: FAIL ..."; the exit status is non-zero on any
# failure.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 [--kernel K] [--smp N] [--minutes M] [--rate R] [--presets \"P...\"]" >&2
	exit 2
}

kernel=debug smp=2 minutes=10 rate=1000000 presets=mixed
sw_options 'kernel=.+' 'smp=[1-9][0-9]*' 'minutes=[1-9][0-9]*' 'rate=[1-9][0-9]*' \
	'presets=(net|io|poll|mixed)( (net|io|poll|mixed))*' -- "$@"
shift "$sw_optind"
if [ $# -ne 0 ] || [ "$minutes" -gt 60 ] || [ "$rate" -gt 1000000 ]; then
	usage
fi
sw_vm_known_kernel "$kernel" || usage
share=$((minutes * 60 / $(echo "$presets" | wc -w)))
slack=${SW_SOAK_SLAB_SLACK_KB:-1024}

guest=$(mktemp)
out=$(mktemp)
sw_rm_at_exit "$guest" "$out"
cat > "$guest" <<GUEST_END
D=/sys/kernel/debug/shadow_wheel
CPU1=/sys/devices/system/cpu/cpu1/online
SECS=$((minutes * 60))
presets_left="$presets"
STOP=/tmp/soak.stop
FAILS=/tmp/soak.fails

fail()
{
	echo "soak: FAIL \$*"
	echo "\$*" >> \$FAILS
}

now()
{
	cut -d. -f1 /proc/uptime
}

# Slab in kB once the kernel's caches are shrunk as far as they go, less
# the debug kernel's own bookkeeping: DEBUG_OBJECTS keeps a pool of the
# tracking objects it freed (one per kernel timer of the bench's runs),
# kmemleak's metadata goes back lazily. Then that bookkeeping, in kB.
slab_kb()
{
	sync
	echo 3 > /proc/sys/vm/drop_caches
	for s in /sys/kernel/slab/*/shrink; do echo 1 > \$s 2>/dev/null; done
	sleep 2
	awk '
	FILENAME == "/proc/meminfo" { if (\$1 == "Slab:") slab = \$2; next }
	\$1 == "debug_objects_cache" || \$1 == "kmemleak_object" { own += \$15 * \$6 * 4 }
	END { print slab - own, own }' /proc/meminfo /proc/slabinfo
}

# The stats add up, in total and on every CPU, and nothing expired early:
# one awk for the lot, as a process costs much in the debug kernel under
# TCG. Prints the uptime in whole seconds and the totals ("UP armed A
# expired E cancelled C pending P alive L ..."), then what broke if
# anything did, and fails then.
check_stats()
{
	awk '
	FILENAME == "/proc/uptime" { up = int(\$1); next }
	{ v[\$1] = \$2 }
	END {
		bad = ""
		if (v["armed"] != v["expired"] + v["cancelled"] + v["pending"])
			bad = bad " total"
		if (v["early"] != 0)
			bad = bad " early=" v["early"]
		for (c = 0; ("cpu" c ".armed") in v; c++) {
			p = "cpu" c "."
			if (v[p "armed"] + v[p "migrated_in"] != v[p "expired"] + v[p "cancelled"] + \
			    v[p "pending"] + v[p "migrated_out"])
				bad = bad " cpu" c
		}
		printf "%d armed %s expired %s cancelled %s pending %s alive %s migrated %s catchup_max %s tick_ns_max %s\n",
			up, v["armed"], v["expired"], v["cancelled"], v["pending"], v["alive"],
			v["migrated"], v["catchup_max"], v["tick_ns_max"]
		if (bad != "") {
			print "BROKEN" bad
			exit 1
		}
	}' /proc/uptime \$D/stats
}

# The caches of /proc/slabinfo (\$1 then \$2) that grew, in kB, most first
slab_growth()
{
	awk '
	FNR == 1 { f++ }
	/^#|^slabinfo/ { next }
	{ kb[f, \$1] = \$15 * \$6 * 4; names[\$1] = 1 }
	END {
		for (n in names)
			if (kb[2, n] - kb[1, n] > 0)
				printf "%d %s\n", kb[2, n] - kb[1, n], n
	}' \$1 \$2 | sort -rn | head -n 8 | tr '\n' ' '
}

# CPU 1 offline and online again, a second each way
hotplug_loop()
{
	local n=0 err=0
	while [ ! -e \$STOP ]; do
		echo 0 > \$CPU1 2>/dev/null || err=\$((err + 1))
		sleep 1
		echo 1 > \$CPU1 2>/dev/null || err=\$((err + 1))
		sleep 1
		n=\$((n + 1))
	done
	echo "soak: hotplug \$n offline/online cycles, \$err refused"
}

# The bench every 30 s; a refused run must be refused for a reason the
# ABI gives for it: -ENODEV (CPU 1 offline) or -EBUSY
bench_loop()
{
	local n=0 ok=0 nodev=0 busy=0 k cpu msg
	while [ ! -e \$STOP ]; do
		k=\$((n % 2))
		cpu=\$(((n / 2) % 2))
		n=\$((n + 1))
		msg=\$( (echo "wheel=seed timers=20000 ops=20000 ticks=2000 gap=500 cpu=\$cpu kernel=\$k" > \$D/bench) 2>&1)
		case "\$msg" in
		"") ok=\$((ok + 1)); grep -q '^bench wheel=seed hz=' \$D/bench ||
			fail "bench: no report after a run" ;;
		*"No such device"*) nodev=\$((nodev + 1)) ;;
		*"busy"*) busy=\$((busy + 1)) ;;
		*) fail "bench: \$msg" ;;
		esac
		i=0
		while [ \$i -lt 30 ] && [ ! -e \$STOP ]; do sleep 1; i=\$((i + 1)); done
	done
	echo "soak: bench \$n runs, \$ok done, \$nodev refused -ENODEV, \$busy refused -EBUSY"
}

# The mirror on for 5 s, off for 5 s; its invariant checked at each stop
mirror_loop()
{
	local n=0 msg
	[ -e \$D/mirror/enable ] || { echo "soak: mirror not built in"; return; }
	while [ ! -e \$STOP ]; do
		msg=\$( (echo 1 > \$D/mirror/enable) 2>&1) || { fail "mirror on: \$msg"; break; }
		sleep 5
		msg=\$( (echo 0 > \$D/mirror/enable) 2>&1) || { fail "mirror off: \$msg"; break; }
		grep -q '^consistent 1\$' \$D/mirror/stats ||
			fail "mirror: \$(grep '^consistent' \$D/mirror/stats)"
		n=\$((n + 1))
		sleep 5
	done
	echo "soak: mirror \$n on/off cycles, its invariant held at each"
}

rm -f \$STOP \$FAILS
set -- \$(slab_kb)
base=\$1
cat /proc/slabinfo > /tmp/soak.slab.before
echo "soak: slab before insmod \$base kB (and \$2 kB of debug objects and kmemleak)"
insmod /shadow_wheel.ko || exit 1
hotplug_loop &
bench_loop &
mirror_loop &
start=\$(now)
checks=0 resets=0 last=0 p0=0 sum_armed=0 sum_expired=0 sum_cancelled=0
next=0 t=0 prev=-1
set -- $presets
while [ \$t -lt \$SECS ]; do
	# The next preset's turn
	if [ \$t -ge \$next ] && [ -n "\${1-}" ]; then
		echo stop > \$D/control || fail "stop refused"
		echo "run preset=\$1 rate=$rate duration=$((share + 60))" > \$D/control ||
			{ fail "run preset=\$1 refused"; break; }
		echo "soak: t=\$t preset \$1 at $rate/s"
		shift
		next=\$((next + $share))
		presets_left="\$*"
	fi
	# Once a second: at once when the last check took a second or more
	[ \$t -gt \$prev ] || sleep 1
	prev=\$t
	line=\$(check_stats) || { fail "invariant: \$line"; cat \$D/stats; }
	checks=\$((checks + 1))
	set -- \$line
	t=\$((\$1 - start))
	if [ \$((t - last)) -ge 15 ]; then
		# The period's figures, then the reset that clears them
		echo "soak: t=\$t \${line#* }"
		# armed starts again from pending at a reset
		sum_armed=\$((sum_armed + \$3 - p0))
		p0=\$9
		sum_expired=\$((sum_expired + \$5))
		sum_cancelled=\$((sum_cancelled + \$7))
		echo reset > \$D/control || fail "reset refused"
		resets=\$((resets + 1))
		last=\$t
	fi
	set -- \$presets_left
done
touch \$STOP
wait
echo 1 > \$CPU1 2>/dev/null
echo "soak: \$((\$(now) - start)) s of guest time, \$checks invariant checks, \$resets resets"
echo "soak: about \$sum_armed timers armed, \$sum_expired expired, \$sum_cancelled cancelled" \
	"(the periods between resets)"
echo stop > \$D/control || fail "stop refused"
echo cancel-all > \$D/control || fail "cancel-all refused"
sleep 2
line=\$(check_stats) || fail "invariant: \$line"
echo "soak: after stop and cancel-all: \${line#* }"
set -- \$line
[ "\$9" = 0 ] && [ "\${11}" = 0 ] || fail "after cancel-all: pending \$9 alive \${11}"
rmmod shadow_wheel || fail "rmmod"
set -- \$(slab_kb)
after=\$1
cat /proc/slabinfo > /tmp/soak.slab.after
echo "soak: slab after rmmod \$after kB (and \$2 kB of debug objects and kmemleak)," \
	"before insmod \$base kB: \$((after - base)) kB more"
echo "soak: slab caches grown (kB name): \$(slab_growth /tmp/soak.slab.before /tmp/soak.slab.after)"
[ \$((after - base)) -le $slack ] || fail "slab: \$((after - base)) kB more than before insmod"
if [ -s \$FAILS ]; then
	echo "soak: FAIL (\$(wc -l < \$FAILS) failures)"
	exit 1
fi
echo "soak: PASS"
GUEST_END

sw_log "soak: $minutes min on the $kernel kernel, mixed at $rate/s, hotplug, resets, bench, mirror"
"$SW_ROOT/scripts/vm.sh" --kernel "$kernel" --smp "$smp" --timeout $((minutes * 60 + 900)) \
	"$guest" > "$out"
rc=$?
grep -a '^soak:' "$out"
if [ $rc -ne 0 ]; then
	tail -n 60 "$out" >&2
	sw_log "soak: FAILED (vm.sh exit status $rc)"
fi
exit $rc
