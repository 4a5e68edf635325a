# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the jobs of scripts/replay.sh share (replay.sh itself, and
# replay-check.sh, replay-fuzz.sh, replay-plot.sh, replay-pareto.sh):
# sw-replay built, a scratch directory, the traces and their unpacking,
# and the Pareto grid and fronts (--pareto draws them, --check verifies
# them). Source it after sw-lib.sh, then call sw_replay_setup.

SW_REPLAY_DIR=$SW_ROOT/tools/sw-replay

# What the jobs need: the packages, tools/sw-replay built, and the scratch
# directory $work, removed at exit
sw_replay_setup()
{
	sw_need_packages build-essential pkg-config libtracecmd-dev libtraceevent-dev \
		libtracefs-dev libjson-c-dev xz-utils zstd gzip trace-cmd python3
	work=$(mktemp -d) || exit 1
	sw_rm_at_exit "$work"
	make -C "$SW_REPLAY_DIR" sw-replay >/dev/null || sw_die "replay: building tools/sw-replay FAILED"
}

# The trace $1 as a plain trace.dat: itself, or unpacked into $work
sw_replay_plain()
{
	local f=$1 out

	out=$work/$(basename "$f").plain
	case "$f" in
	*.xz)	xz -dc "$f" >"$out" ;;
	*.gz)	gzip -dc "$f" >"$out" ;;
	*.zst)	zstd -qdc "$f" >"$out" ;;
	*)	echo "$f"; return 0 ;;
	esac || { sw_log "replay: cannot unpack $f"; return 1; }
	echo "$out"
}

# The shipped traces
sw_replay_traces()
{
	ls "$SW_ROOT"/traces/*.dat "$SW_ROOT"/traces/*.dat.xz "$SW_ROOT"/traces/*.dat.gz \
		"$SW_ROOT"/traces/*.dat.zst 2>/dev/null
}

# The default grid of --pareto, one spec a line: the named wheels at the
# HZ choices of Kconfig (100, 250, 300, 1000), and a spread of
# non-cascading shapes around them (4 to 6 bits, shift 2 to 4, 6 or 9
# levels, clamped) at those HZ and 500; about 100 geometries
sw_replay_pareto_grid()
{
	local k h b s d

	for k in seed mainline classic; do
		for h in 100 250 300 1000; do
			echo "$k,hz=$h"
		done
	done
	for b in 4 5 6; do
		for s in 2 3 4; do
			for d in 6 9; do
				for h in 100 250 300 500 1000; do
					echo "bits=$b,shift=$s,depth=$d,hz=$h,clamp"
				done
			done
		done
	done
}

# The rows of a sweep's JSON ($1) as the Pareto .dat, gnuplot's index:
# block 0 every geometry, block 1 the Pareto front of softirqs/s against
# p99 lateness, block 2 that of idle wakeups/s against the late>10% share;
# a front's rows sorted by its work axis. A geometry is on a front when no
# other is at most as high on both of its axes and lower on one.
sw_replay_pareto_dat()
{
	python3 -c '
import json, re, sys
sweep = json.load(open(sys.argv[1]))
t = sweep["trace"]
rows = []
for r in sweep["rows"]:
    w = r["wheel"]
    m = re.fullmatch(r"(seed|mainline|classic)\.([0-9]+)", r["spec"])
    # rates from the counts (the figures per s are whole numbers), the
    # values compared as they are printed
    rows.append({"spec": r["spec"], "kind": m.group(1) if m else "other",
                 "hz": w["hz"],
                 "softirq": round(w["softirqs"] / t["seconds"], 2),
                 "p99": round(r["p99_ms"], 2),
                 "wakeup": round(w["idle_wakeups"] / t["seconds"], 2),
                 "late": round(r["late_10pct_permille"] / 10, 1),
                 "us": round(r["wheel_us_per_s"], 1)})
def dominates(a, b, x, y):
    return a[x] <= b[x] and a[y] <= b[y] and (a[x] < b[x] or a[y] < b[y])
def front(x, y):
    f = [r for r in rows if not any(dominates(q, r, x, y) for q in rows)]
    return sorted(f, key=lambda r: (r[x], r[y], r["spec"]))
cols = "spec kind hz softirq/s p99_ms wakeups/s late>10%_pct wheel_us/s"
print("# pareto: %s, %d events, %.3f s at HZ %d, %d geometries" %
      (t["path"], t["events"], t["seconds"], t["hz"], len(rows)))
blocks = [("every geometry", rows),
          ("the front of softirq/s against p99_ms", front("softirq", "p99")),
          ("the front of wakeups/s against late>10%_pct", front("wakeup", "late"))]
for i, (what, b) in enumerate(blocks):
    print("%s# index %d: %s\n# %s" % ("\n\n" if i else "", i, what, cols))
    for r in b:
        print("%s %s %d %.2f %.2f %.2f %.1f %.1f" % (r["spec"], r["kind"], r["hz"],
              r["softirq"], r["p99"], r["wakeup"], r["late"], r["us"]))
' "$1"
}

# Whether the Pareto .dat $1 holds true fronts, by its numbers alone: for
# each front (block 1: columns 4 and 5, block 2: 6 and 7), it is not
# empty, its rows are rows of block 0 and none of them is dominated by a
# row of block 0, and every row of block 0 not on it is dominated by one
# of its rows. Prints what it found; exits 1 on a false front
sw_replay_pareto_verify()
{
	awk '
	BEGIN { b = -1 }
	/^# index [0-9]+:/ { b = $3 + 0; next }
	/^#/ || /^$/ { next }
	b >= 0 {
		n[b]++
		for (c = 1; c <= 7; c++)
			v[b, n[b], c] = $c
		if (b)
			on[b, $1] = 1
	}
	function dom(ba, a, bb, o, x, y) {
		return v[ba, a, x] + 0 <= v[bb, o, x] + 0 && v[ba, a, y] + 0 <= v[bb, o, y] + 0 &&
		       (v[ba, a, x] + 0 < v[bb, o, x] + 0 || v[ba, a, y] + 0 < v[bb, o, y] + 0)
	}
	END {
		bad = 0
		for (f = 1; f <= 2; f++) {
			x = 2 * f + 2
			y = x + 1
			err = ""
			if (!n[f])
				err = err " empty"
			for (i = 1; i <= n[f]; i++) {
				known = 0
				for (j = 1; j <= n[0]; j++) {
					if (v[0, j, 1] == v[f, i, 1])
						known = 1
					if (dom(0, j, f, i, x, y))
						err = err " " v[f, i, 1] "(dominated by " v[0, j, 1] ")"
				}
				if (!known)
					err = err " " v[f, i, 1] "(not a row)"
			}
			off = 0
			for (j = 1; j <= n[0]; j++) {
				if ((f, v[0, j, 1]) in on)
					continue
				off++
				for (i = 1; i <= n[f]; i++)
					if (dom(f, i, 0, j, x, y))
						break
				if (i > n[f])
					err = err " " v[0, j, 1] "(off the front, not dominated)"
			}
			printf "%sfront %d: %d rows, %d off it dominated%s", (f > 1 ? "; " : ""),
				f, n[f], off, (err != "" ? ", FALSE:" err : "")
			bad += (err != "")
		}
		printf " (of %d rows)\n", n[0]
		exit (bad != 0 || !n[0])
	}' "$1"
}
