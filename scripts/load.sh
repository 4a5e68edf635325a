#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The load the module holds: on each kernel, a stepped ramp of a preset
# (net by default) finds the highest arm rate (timers a second) the
# shadow wheels sustain with the delivery delay p99 at most one tick, and
# shows what happens past it:
#
#   scripts/load.sh [--preset P] [--step S] [--rates "R1 R2 ..."] [K...]
#
# K: kernels of the matrix (default: all of SW_VM_KERNELS). Each step runs
# the preset at one rate for S seconds (default 5) after a cancel-all and
# a reset, then stops it (stop must return: no lockup) and reads stats
# and lateness. A step holds when the delivery delay (lateness: jiffies
# when the callback ran minus the tick that ran it) is at most one tick
# for 99% of the timers that expired, and the timers armed reach 90% of
# the rate asked. The ramp goes on to the first two steps in a row that
# do not hold, then runs one step at the last rate, so the figures show
# how it falls behind and what the most load does. Every step's stats
# must add up (armed = expired + cancelled + pending) with no early
# expiry, and at the end cancel-all must leave nothing alive: no timer
# lost however far behind it fell.
#
# The net preset by default: its timers are not deferrable, whereas the
# mixed preset's poll timers are, and those wait on an idle CPU for
# whatever wakes it next, late by design: that would measure idleness,
# not load.
#
# One line per step on stdout ("load: K rate=R ..."), then each kernel's
# figure ("load: K holds R/s"); the exit status is non-zero if a guest
# failed or an invariant broke. Under QEMU's TCG emulation every figure
# is far below what the same kernel does on hardware.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 [--preset P] [--step S] [--rates \"R1 R2 ...\"] [K...]" >&2
	echo "K: $SW_VM_KERNELS $SW_VM_EXTRA_KERNELS" >&2
	exit 2
}

step=5 preset=net
rates="100 200 500 1000 2000 5000 10000 20000 50000 100000 200000 500000 1000000"
sw_options 'preset=net|io|poll|mixed' 'step=[1-9][0-9]*' \
	'rates=[1-9][0-9]*( [1-9][0-9]*)*' -- "$@"
shift "$sw_optind"
kernels=("$@")
# shellcheck disable=SC2206 # one word per kernel
[ ${#kernels[@]} -eq 0 ] && kernels=($SW_VM_KERNELS)
for k in "${kernels[@]}"; do
	sw_vm_known_kernel "$k" || usage
done

# The guest's ramp: each step's figures between "== step" and "== end"
sw_load_guest()
{
	cat <<GUEST_END
D=/sys/kernel/debug/shadow_wheel
up()
{
	cut -d' ' -f1 /proc/uptime
}
# One step at rate \$1; fails if it did not hold
step()
{
	echo cancel-all > \$D/control || exit 1
	echo reset > \$D/control || exit 1
	t0=\$(up)
	echo "run preset=$preset rate=\$1 duration=$step" > \$D/control || exit 1
	sleep $step
	echo stop > \$D/control || exit 1
	t1=\$(up)
	echo "== step \$1 \$t0 \$t1"
	# One read of each file, both printed and judged
	cat \$D/stats \$D/lateness > /tmp/load.step
	cat /tmp/load.step
	# Held: p99 of the delivery delay within a tick, 90% of the rate armed
	awk -v rate=\$1 '/^delivery expired/ { e = \$3 } /^delivery hist/ {
		for (i = 3; i <= NF; i++) { split(\$i, r, ":"); if (r[1] == "0" || r[1] == "1") n += r[2] }
	} /^armed / { a = \$2 } END { exit !(e && n >= 0.99 * e && a >= 0.9 * rate * $step) }' \
		/tmp/load.step
	held=\$?
	echo "== end \$([ \$held = 0 ] && echo holds || echo behind)"
	return \$held
}
insmod /shadow_wheel.ko || exit 1
bad=0
for rate in $rates; do
	if step \$rate; then
		bad=0
	else
		bad=\$((bad + 1))
		[ \$bad -ge 2 ] && break
	fi
done
# Past the two that did not hold: the highest rate, once
[ \$rate = $top ] || step $top
echo cancel-all > \$D/control || exit 1
sleep 1
echo "== final"
cat \$D/stats
echo "== end"
rmmod shadow_wheel || exit 1
GUEST_END
}

# The steps of one kernel's console ($2) as lines, and its figure; fails
# if an invariant broke
sw_load_report()
{
	awk -v kernel="$1" -v step="$step" '
	/^== step / { in_step = 1; rate = $3; t0 = $4; t1 = $5; delete v; e = 0; p99 = ""; next }
	/^== final/ { in_final = 1; delete v; next }
	/^== end/ {
		bad = ""
		if (v["armed"] != v["expired"] + v["cancelled"] + v["pending"])
			bad = bad " invariant"
		if (v["early"] != 0)
			bad = bad " early=" v["early"]
		if (in_final) {
			if (v["alive"] != 0 || v["pending"] != 0)
				bad = bad " alive=" v["alive"] " pending=" v["pending"]
			printf "load: %s after cancel-all: pending %s alive %s%s\n", kernel,
				v["pending"], v["alive"], bad == "" ? "" : " BROKEN" bad
			broken += bad != ""
			in_final = 0
			next
		}
		holds = $3 == "holds"
		if (holds && !broken_ramp)
			best = rate
		else
			broken_ramp = 1
		printf "load: %s rate=%d armed/s=%.0f expired=%d delivery_p99=%s delivery_max=%d",
			kernel, rate, v["armed"] / step, e, p99, dmax
		printf " catchup_max=%s tick_ns_max=%s pending=%s step_s=%.1f %s%s\n",
			v["catchup_max"], v["tick_ns_max"], v["pending"], t1 - t0,
			holds ? "holds" : "behind", bad == "" ? "" : " BROKEN" bad
		broken += bad != ""
		in_step = 0
		next
	}
	in_step && /^delivery expired / { e = $3; dmax = $7; next }
	in_step && /^delivery hist/ {
		for (i = 3; i <= NF; i++) {
			split($i, r, ":")
			c += r[2]
			if (p99 == "" && c >= 0.99 * e)
				p99 = r[1]
		}
		c = 0
		next
	}
	(in_step || in_final) && NF == 2 { v[$1] = $2 }
	END {
		# The rate below which every step held
		if (best)
			printf "load: %s holds %d/s (delivery p99 <= 1 tick)\n", kernel, best
		else
			printf "load: %s holds no rate of the ramp (its first step was behind)\n", kernel
		exit broken != 0
	}' "$2"
}

guest=$(mktemp)
out=$(mktemp)
sw_rm_at_exit "$guest" "$out"
top=${rates##* }
sw_load_guest > "$guest"
nrates=$(echo "$rates" | wc -w)
failed=()
for k in "${kernels[@]}"; do
	sw_log "load: $k: the $preset preset stepped through $nrates rates, $step s each"
	"$SW_ROOT/scripts/vm.sh" --kernel "$k" --timeout $((nrates * (step + 60) + 600)) \
		"$guest" > "$out"
	rc=$?
	# Under TCG the guest's ticks are the host's to give: say how busy it was
	echo "load: $k host load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
	sw_load_report "$k" "$out" || rc=1
	if [ $rc -ne 0 ]; then
		tail -n 40 "$out" >&2
		sw_log "load: $k FAILED (status $rc)"
		failed+=("$k")
	fi
done
[ ${#failed[@]} -eq 0 ] || { sw_log "load: FAILED on ${failed[*]}"; exit 1; }
