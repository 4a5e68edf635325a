#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Recorded kernel timer traffic replayed in user space (tools/sw-replay,
# docs/replay.rst):
#
#   scripts/replay.sh [sw-replay options] TRACE      the report of a trace (the
#                                                    summary; --raw, --json...)
#   scripts/replay.sh --check [TRACE...]             the test of make check
#   scripts/replay.sh --fuzz [--runs N] [TRACE]      the reader under ASan,
#                                                    fed broken copies
#   scripts/replay.sh --plot DIR [TRACE...]          per-tick cost and
#                                                    lateness, as PNGs
#   scripts/replay.sh --pareto DIR [--grid GRID] [TRACE...]
#                                                    a sweep's work against
#                                                    lateness, its Pareto
#                                                    fronts, as PNGs
#
# TRACE is a trace.dat, or one compressed with xz, gzip or zstd
# (.dat.xz/.gz/.zst); --check and --fuzz take the shipped traces under
# traces/ by default. --check replays each one with sw-replay --check,
# checks that its sw-replay --json parses and carries every figure of
# core/mirror/sw_mirror_figures_list.h, and that docs/ABI documents every
# key mirror/stats prints; it ends with "replay: P passed, F failed"; no
# trace at all is a failure. Each trace is also replayed (sw-replay
# --check) as tie-trace.py rewrites it, at each grid of SW_TIE_GRIDS (ns):
# its timestamps tied across CPUs and some nudged by a few us, which the
# replay must still put in an order the kernel can produce.
# --fuzz (default 500 runs) truncates the trace at random lengths and flips
# random bytes of it, and runs each copy through sw-replay built with
# AddressSanitizer and UBSan: every run must end with the report or a
# clear error (exit 0 or 2), never a sanitizer report, a signal or a hang.
# --plot writes, for each trace T (default: the shipped ones), into DIR:
# T-ticks.dat (sw-replay --tick-cost) and T-ticks.png, the cost of each
# tick processed over the trace's time by the seed, mainline and classic
# wheels and the heap, at the trace's HZ and at 1000; T-lateness.dat and
# T-lateness.png, the lateness histogram of each wheel at each HZ of the
# report (its levels summed).
# --pareto sweeps each trace T (default: the shipped ones) through GRID
# (sw-replay --sweep: a file or the range syntax; default: the named wheels
# at HZ 100, 250, 300 and 1000 and 90 other shapes, sw_replay_pareto_grid)
# and writes into DIR T-pareto.dat, every geometry's timer softirqs/s, p99
# lateness, idle wakeups/s and late>10% share, then the rows of each Pareto
# front, and T-pareto.png: softirqs/s against p99 lateness and wakeups/s
# against the late>10% share, the front (the geometries no other beats on
# both axes) a staircase, seed, mainline and classic marked by their HZ.
set -u
. "$(dirname "$0")/sw-lib.sh"

SW_REPLAY_DIR=$SW_ROOT/tools/sw-replay

sw_need_packages build-essential pkg-config libtracecmd-dev libtraceevent-dev \
	libtracefs-dev libjson-c-dev xz-utils zstd gzip trace-cmd python3

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

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

SW_FIG_LIST=$SW_ROOT/core/mirror/sw_mirror_figures_list.h
SW_ABI=$SW_ROOT/docs/ABI/debugfs-shadow-wheel

# The list of figures as "SCOPE NAME STATS" lines, read from the header
sw_replay_figures()
{
	sed -n 's/^SW_MIRROR_FIG(\(.*\))$/\1/p' "$SW_FIG_LIST" |
		awk -F', *|,\t*' '{ gsub(/[ \t]/, "", $1); gsub(/[ \t]/, "", $2);
				   gsub(/[ \t]/, "", $5); print $1, $2, $5 }'
}

# "replay: WHAT: ok|FAILED TEXT", counted in $passed and $failed
sw_replay_result()
{
	if [ "$1" -eq 0 ]; then
		echo "replay: $2: ok $3"
		passed=$((passed + 1))
	else
		echo "replay: $2: FAILED $3"
		failed=$((failed + 1))
	fi
}

# Every key mirror/stats prints is in its entry of docs/ABI
sw_replay_check_abi()
{
	local name stats missing=() n=0

	while read -r _ name stats; do
		[ "$stats" = none ] && continue
		n=$((n + 1))
		awk -v key="$name" '
			/^What:/ { in_stats = $0 ~ /mirror\/stats$/ }
			in_stats && index(" " $0 " ", " " key " ") { found = 1 }
			END { exit !found }' "$SW_ABI" || missing+=("$name")
	done < <(sw_replay_figures)
	[ "$n" -gt 0 ] || missing+=("(no figure read from $SW_FIG_LIST)")
	sw_replay_result ${#missing[@]} "docs/ABI" \
		"mirror/stats: $n keys of the list documented${missing[*]:+, missing: ${missing[*]}}"
}

# sw-replay --json of the trace $1 parses and carries every figure of the list
sw_replay_check_json()
{
	local rc

	"$SW_REPLAY_DIR/sw-replay" --json "$1" >"$work/json"
	rc=$?
	[ $rc -eq 0 ] && sw_replay_figures | python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
missing, n = [], 0
for line in sys.stdin:
    scope, name, stats = line.split()
    n += 1
    if scope in ("wheel", "wcount"):
        if not doc["wheels"] or any(name not in w for w in doc["wheels"]):
            missing.append(name)
    elif name not in doc["figures"]:
        missing.append(name)
print("%d figures%s" % (n, ", missing: " + " ".join(missing) if missing else ""))
sys.exit(1 if missing or not n else 0)' "$work/json" >"$work/json.out" 2>&1
	rc=$?
	sw_replay_result $rc "$2" "sw-replay --json parses and carries every figure of the list ($(tail -n 1 "$work/json.out"))"
}

# sw-replay --check of the trace $1, its lines shown with $2 for its name;
# its totals added to $passed and $failed
sw_replay_check_one()
{
	local line p fl

	"$SW_REPLAY_DIR/sw-replay" --check "$1" | sed "s|^replay: $1:|replay: $2:|" | tee "$work/out"
	line=$(grep -E "^replay: .*: [0-9]+ passed, [0-9]+ failed$" "$work/out" | tail -n 1)
	if [ -z "$line" ]; then
		sw_log "replay: $2: no result"
		failed=$((failed + 1))
		return 1
	fi
	read -r p fl < <(echo "$line" | awk '{print $(NF-3), $(NF-1)}')
	passed=$((passed + p))
	failed=$((failed + fl))
}

# The model with the stale-next_expiry rule off (--exact-next) must fail
# the softirq differential of the trace $1 (named $2), unless the trace
# does not decide between the two models or recorded no softirq
sw_replay_check_exact_next()
{
	local line

	line=$("$SW_REPLAY_DIR/sw-replay" --exact-next --check "$1" |
		grep -E '^replay: .*: (ok|FAILED|skipped) softirq differential: ')
	case $line in
	*FAILED*)
		sw_replay_result 0 "$2" "the stale next_expiry rule turned off fails the softirq differential" ;;
	*undecided*|*skipped*)
		sw_replay_result 0 "$2" "the stale next_expiry rule turned off: not decided by this trace" ;;
	*)
		sw_replay_result 1 "$2" "the stale next_expiry rule turned off passes the softirq differential: ${line#*: }" ;;
	esac
}

# The sweep of the trace $1 (named $2) against its ordinary replay (its
# --json in $work/json): every geometry of a grid that is a default wheel
# (seed, mainline, classic at 100, 250, 300, 1000), interleaved with other
# shapes so that they fall in more than one pass of the mirror, must get
# exactly the ordinary replay's figures and lateness; those at the trace's
# HZ must be there; and a row per spec of the grid, in its order, named
# as its geometry is
sw_replay_check_sweep()
{
	local k h s=1 rc

	for k in seed mainline classic; do
		s=$((s + 1))
		for h in 100 250 300 1000; do
			echo "$k,hz=$h"
			echo "bits=5,shift=$s,depth=8,hz=$h,clamp  # not a named wheel"
		done
	done >"$work/grid"
	"$SW_REPLAY_DIR/sw-replay" --sweep "$work/grid" --json "$1" >"$work/sweep.json"
	rc=$?
	[ $rc -eq 0 ] && python3 -c '
import json, sys
sweep = json.load(open(sys.argv[1]))
plain = {w["name"]: w for w in json.load(open(sys.argv[2]))["wheels"]}
hz = sweep["trace"]["hz"]
rows = {r["spec"]: r for r in sweep["rows"]}
same, differ = 0, []
# A row per line of the grid, in its order, under the name of its geometry
want = []
for line in open(sys.argv[3]):
    spec = line.split("#")[0].strip()
    k, _, h = spec.partition(",hz=")
    want.append("%s.%s" % (k, h) if k in ("seed", "mainline", "classic") else spec)
got = [r["spec"] for r in sweep["rows"]]
if got != want:
    differ += ["row %d is %s, not %s" % (i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    if len(got) != len(want):
        differ.append("%d rows for %d lines" % (len(got), len(want)))
for name, w in plain.items():
    if name not in rows:
        differ.append(name + " (no row)")
    elif rows[name]["wheel"] != w:
        differ.append(name + " (" + " ".join(k for k in w if rows[name]["wheel"].get(k) != w[k]) + ")")
    else:
        same += 1
for k in ("seed", "mainline", "classic"):
    if "%s.%d" % (k, hz) not in rows:
        differ.append("%s.%d (no row)" % (k, hz))
print("%d rows for %d specs in %d passes; the default wheels equal to the ordinary replay: %d%s"
      % (len(got), len(want), sweep["passes"], same, ", differ: " + ", ".join(differ) if differ else ""))
sys.exit(1 if differ or sweep["passes"] < 2 or same < 9 else 0)' "$work/sweep.json" "$work/json" "$work/grid" \
		>"$work/sweep.out" 2>&1
	rc=$?
	sw_replay_result $rc "$2" "sw-replay --sweep: $(tail -n 1 "$work/sweep.out")"
}

# A bad spec, given to --wheel or in a --sweep grid, exits 2 with the
# parser's message naming the parameter and its range, and prints nothing else
sw_replay_check_bad_spec()
{
	local how rc out err

	for how in --wheel --sweep; do
		out=$("$SW_REPLAY_DIR/sw-replay" "$how" bits=9 "$1" 2>"$work/err")
		rc=$?
		err=$(cat "$work/err")
		[ $rc -eq 2 ] && [ -z "$out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
			[[ $err == *"bits=9: buckets per level, log2, 2 to 6"* ]]
		sw_replay_result $? "$2" "$how bits=9: exit $rc, ${#out} bytes out, \"$err\""
	done
}

# The grids (ns) the trace's timestamps are tied to, the coarser one a
# quarter of a jiffy at HZ=250
SW_TIE_GRIDS=${SW_TIE_GRIDS:-100000 1000000}

# The trace $1 (named $2) with its timestamps tied across CPUs at each grid
sw_replay_check_ties()
{
	local grid

	for grid in $SW_TIE_GRIDS; do
		if ! python3 "$SW_REPLAY_DIR/tie-trace.py" --grid "$grid" "$1" "$work/tied.dat" \
		     >"$work/tie.out" 2>&1; then
			cat "$work/tie.out" >&2
			sw_replay_result 1 "$2 tied at $grid ns" "tie-trace.py wrote no copy"
			continue
		fi
		sw_replay_check_one "$work/tied.dat" "$2 tied at $grid ns"
	done
}

sw_replay_check()
{
	local passed=0 failed=0 f plain first=
	local traces=("$@")

	[ ${#traces[@]} -gt 0 ] || mapfile -t traces < <(sw_replay_traces)
	if [ ${#traces[@]} -eq 0 ]; then
		sw_log "replay: no trace under traces/"
		echo "replay: 0 passed, 1 failed"
		return 1
	fi
	for f in "${traces[@]}"; do
		if ! plain=$(sw_replay_plain "$f"); then
			failed=$((failed + 1))
			continue
		fi
		sw_replay_check_one "$plain" "$f" || continue
		sw_replay_check_json "$plain" "$f"
		sw_replay_check_sweep "$plain" "$f"
		sw_replay_check_bad_spec "$plain" "$f"
		sw_replay_check_exact_next "$plain" "$f"
		sw_replay_check_ties "$plain" "$f"
		[ -n "$first" ] || { first=$f; sw_replay_check_pareto "$plain" "$f"; }
	done
	sw_replay_check_abi
	echo "replay: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

# Whether a sanitizer report in $work/san shows a fault of ours: one whose
# first frame outside the sanitizer is not in the trace libraries or libc.
# A fault in the libraries can only happen in the reading child (the
# parent calls none of them): it dies, and the tool says the file is
# corrupt; a fault of the tool itself, parent or child, is ours.
sw_replay_fault_of_ours()
{
	local f frame

	for f in "$work"/san/*; do
		[ -e "$f" ] || continue
		frame=$(grep -E '^ +#[0-9]+ ' "$f" | grep -v -E 'libsanitizer|libasan|libubsan' |
			head -n 1)
		if ! echo "$frame" |
		     grep -q -E 'libtracecmd|libtraceevent|libtracefs|libc\.so|libzstd|libz\.so'; then
			cat "$f" >&2
			return 0
		fi
	done
	return 1
}

sw_replay_fuzz()
{
	local runs=500 f plain size i cut rc bad=0 errs=0 reports=0 contained=0

	if [ "${1:-}" = --runs ]; then
		runs=$2
		shift 2
	fi
	f=${1:-$(sw_replay_traces | head -n 1)}
	[ -n "$f" ] || sw_die "replay: no trace to fuzz"
	make -C "$SW_REPLAY_DIR" sw-replay-asan >/dev/null || sw_die "replay: build FAILED"
	plain=$(sw_replay_plain "$f") || exit 1
	size=$(stat -c %s "$plain")
	mkdir -p "$work/san"
	for ((i = 0; i < runs; i++)); do
		cp "$plain" "$work/fuzz.dat"
		# Even runs truncate, odd ones flip 1 to 16 bytes; some do both
		if ((i % 2 == 0 || i % 7 == 0)); then
			cut=$(((RANDOM * 32768 + RANDOM) % size))
			truncate -s "$cut" "$work/fuzz.dat"
		fi
		if ((i % 2 == 1)); then
			python3 - "$work/fuzz.dat" "$i" <<'PYEND'
import random, sys
path, seed = sys.argv[1], int(sys.argv[2])
rnd = random.Random(seed)
data = bytearray(open(path, 'rb').read())
for _ in range(rnd.randint(1, 16)):
    if data:
        data[rnd.randrange(len(data))] = rnd.randrange(256)
open(path, 'wb').write(data)
PYEND
		fi
		rm -f "$work"/san/*
		ASAN_OPTIONS=detect_leaks=0:exitcode=99:log_path=$work/san/asan \
			UBSAN_OPTIONS=print_stacktrace=1:log_path=$work/san/ubsan \
			timeout 60 "$SW_REPLAY_DIR/sw-replay-asan" "$work/fuzz.dat" \
			>/dev/null 2>"$work/err"
		rc=$?
		[ "$rc" -eq 2 ] && errs=$((errs + 1))
		[ "$rc" -eq 0 ] && reports=$((reports + 1))
		ls "$work"/san/* >/dev/null 2>&1 && contained=$((contained + 1))
		# A clear error is a line of the tool's own
		if { [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; } || sw_replay_fault_of_ours ||
		   { [ "$rc" -eq 2 ] && ! grep -q '^sw-replay: ' "$work/err"; }; then
			bad=$((bad + 1))
			cp "$work/fuzz.dat" "$SW_ROOT/replay-fuzz-$i.dat"
			sw_log "replay: fuzz run $i: exit $rc, kept as replay-fuzz-$i.dat"
			head -n 5 "$work/err" >&2
		fi
	done
	echo "replay fuzz: $runs runs of $(basename "$f"): $reports reports, $errs clear errors ($contained with the reader's fault contained), $bad faults of ours"
	[ "$bad" -eq 0 ]
}

# The lateness histograms of the report (sw-replay --only lateness $1), one
# column per wheel, its levels summed, a row per bin up to the last used:
# "BIN LABEL COUNT..."; the first line names the columns (gnuplot's
# columnhead)
sw_replay_lateness_dat()
{
	"$SW_REPLAY_DIR/sw-replay" --only lateness "$1" | awk '
	/^# lateness hist_tops / { nb = split($4, top, ",") }
	/^wheel / {
		if (!($2 in col)) { col[$2] = ++nw; name[nw] = $2 }
		n = split($NF, h, ",")
		for (b = 1; b <= n; b++) {
			c[col[$2], b] += h[b]
			if (h[b] && b > last)
				last = b
		}
	}
	END {
		if (!nb || !nw)
			exit 1
		printf "bin label"
		for (w = 1; w <= nw; w++)
			printf " %s", name[w]
		printf "\n"
		for (b = 1; b <= last; b++) {
			if (b == 1)
				label = "early"
			else if (top[b] == "max")
				label = ">" top[b - 1]
			else if (top[b] == top[b - 1] + 1)
				label = top[b]
			else
				label = top[b - 1] + 1 "-" top[b]
			printf "%d %s", b - 1, label
			for (w = 1; w <= nw; w++)
				printf " %d", c[w, b]
			printf "\n"
		}
	}'
}

sw_replay_plot()
{
	local dir=$1 f plain name hz hzs h cols c i w plots
	local traces=("${@:2}")

	[ ${#traces[@]} -gt 0 ] || mapfile -t traces < <(sw_replay_traces)
	[ ${#traces[@]} -gt 0 ] || sw_die "replay: no trace to plot"
	mkdir -p "$dir" || sw_die "cannot create $dir"
	for f in "${traces[@]}"; do
		plain=$(sw_replay_plain "$f") || exit 1
		name=$(basename "$f")
		name=${name%%.dat*}
		"$SW_REPLAY_DIR/sw-replay" --tick-cost "$plain" | sed 's/^replay /# replay /' \
			>"$dir/$name-ticks.dat"
		[ "${PIPESTATUS[0]}" -eq 0 ] || sw_die "replay: sw-replay --tick-cost $f failed"
		hz=$(sed -n 's/^# replay hz \([0-9]*\) .*/\1/p' "$dir/$name-ticks.dat")
		hzs=$hz
		[ "$hz" = 1000 ] || hzs="$hz 1000"
		# Blocks by HZ, then seed, mainline, classic, heap (gnuplot's index);
		# the heap, which looks at every tick, drawn first, under the wheels
		plots=
		i=0
		for h in $hzs; do
			plots+="set title '$name: the cost of each tick processed, HZ $h'
set ylabel 'ns (log)'
set logscale y
plot for [k = 3:0:-1] '$dir/$name-ticks.dat' index ($i * 4 + k) using 1:2 \\
	with points pt 7 ps 0.3 lc k + 1 title word('seed mainline classic heap', k + 1)
set title '$name: tick processing so far, HZ $h'
set ylabel 'ns, summed'
unset logscale y
plot for [k = 3:0:-1] '$dir/$name-ticks.dat' index ($i * 4 + k) \\
	using 1:(s = (\$0 == 0 ? 0 : s) + \$2) \\
	with lines lw 2 lc k + 1 title word('seed mainline classic heap', k + 1)
"
			i=$((i + 1))
		done
		sw_gnuplot_png "$dir/$name-ticks.png" 1000 $((i * 700)) <<PLOTEND
set multiplot layout $((i * 2)),1
set xlabel "seconds into the trace"
set key top left
s = 0
$plots
unset multiplot
PLOTEND
		sw_replay_lateness_dat "$plain" >"$dir/$name-lateness.dat" ||
			sw_die "replay: no lateness report for $f"
		hzs=$(head -n 1 "$dir/$name-lateness.dat" | tr ' ' '\n' | sed -n 's/.*\.//p' |
			awk '!seen[$0]++')
		plots=
		i=0
		for h in $hzs; do
			cols=
			c=3
			for w in $(head -n 1 "$dir/$name-lateness.dat" | cut -d' ' -f3-); do
				[ "${w#*.}" = "$h" ] && cols+=" $c"
				c=$((c + 1))
			done
			plots+="set title '$name: lateness of the expired timers, HZ $h'
plot for [c in '$cols'] '$dir/$name-lateness.dat' using 1:(column(c + 0)):xtic(2) \\
	with linespoints pt 7 title columnhead(c + 0)
"
			i=$((i + 1))
		done
		sw_gnuplot_png "$dir/$name-lateness.png" 1000 $((i * 300)) <<PLOTEND
set multiplot layout $i,1
set xlabel "ticks late (the histogram's bins)"
set ylabel "timers (log)"
set logscale y
set key top right
set xtics rotate by -45
$plots
unset multiplot
PLOTEND
		echo "replay: $f: $dir/$name-ticks.png $dir/$name-lateness.png"
	done
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

# The Pareto plot of the sweep of the trace $2 through the grid $3 (a
# file), into DIR $1: T-pareto.dat (sw_replay_pareto_dat) and T-pareto.png,
# two panels, each every geometry, its front as a staircase, the named
# wheels marked by kind and labelled by HZ
sw_replay_pareto_one()
{
	local dir=$1 f=$2 grid=$3 plain name dat out

	plain=$(sw_replay_plain "$f") || exit 1
	name=$(basename "$f")
	name=${name%%.dat*}
	dat=$dir/$name-pareto.dat
	"$SW_REPLAY_DIR/sw-replay" --sweep "$grid" --json "$plain" >"$work/pareto.json" ||
		sw_die "replay: sw-replay --sweep $f failed"
	sw_replay_pareto_dat "$work/pareto.json" | sed "s|$work/[^ ,]*\.plain|$f|" >"$dat"
	[ "${PIPESTATUS[0]}" -eq 0 ] || sw_die "replay: no sweep rows for $f"
	sw_gnuplot_png "$dir/$name-pareto.png" 1600 750 <<PLOTEND
set multiplot layout 1,2 title "$name: $(sed -n 's/^# pareto: [^,]*, //p' "$dat"); lower left is better"
set key below horizontal
set grid
set autoscale fix
set offsets graph 0.03, graph 0.1, graph 0.05, graph 0.05
kinds = 'seed mainline classic'
pts = '9 5 13'
up = '0.7 -0.7 0.7'
array ptitle[2] = ['timer softirqs against p99 lateness', \\
	'idle wakeups against the share of timers run late']
array pxlabel[2] = ['timer softirqs/s, all CPUs', 'idle wakeups/s, all CPUs']
array pylabel[2] = ['p99 lateness of the expired timers, ms', \\
	'expired timers run later than a tenth of their timeout, %']
# Panel p: column 2p + 3 against 2p + 2, its front at index p
do for [p = 1:2] {
	x = 2 * p + 2
	y = x + 1
	set title ptitle[p]
	set xlabel pxlabel[p]
	set ylabel pylabel[p]
	plot '$dat' index 0 using x:y with points pt 7 ps 0.7 lc rgb 'gray60' title 'other geometries', \\
		'' index p using x:y with steps lw 2 lc rgb 'black' title 'Pareto front', \\
		'' index p using x:y with points pt 6 ps 2.5 lw 1.5 lc rgb 'black' title 'on the front', \\
		for [i = 1:3] '' index 0 using x:(strcol(2) eq word(kinds, i) ? column(y) : NaN) \\
			with points pt (word(pts, i) + 0) ps 1.4 lc i title word(kinds, i) . ' (label: HZ)', \\
		for [i = 1:3] '' index 0 using x:(strcol(2) eq word(kinds, i) ? column(y) : NaN):3 \\
			with labels offset char 1.2, (word(up, i) + 0) left tc lt i notitle
}
unset multiplot
PLOTEND
	out=$(sw_replay_pareto_verify "$dat") || sw_die "replay: $dat: $out"
	echo "replay: $f: $dir/$name-pareto.png ($out)"
}

sw_replay_pareto()
{
	local dir=$1 grid=$work/pareto.grid f
	local traces=("${@:2}")

	if [ "${traces[0]:-}" = --grid ]; then
		[ ${#traces[@]} -ge 2 ] || sw_die "replay: --grid needs a GRID"
		grid=${traces[1]}
		traces=("${traces[@]:2}")
	else
		sw_replay_pareto_grid >"$grid"
	fi
	[ ${#traces[@]} -gt 0 ] || mapfile -t traces < <(sw_replay_traces)
	[ ${#traces[@]} -gt 0 ] || sw_die "replay: no trace to plot"
	mkdir -p "$dir" || sw_die "cannot create $dir"
	for f in "${traces[@]}"; do
		sw_replay_pareto_one "$dir" "$f" "$grid"
	done
}

# The Pareto step on the trace $1 (named $2), the default grid: the fronts
# its .dat holds are true ones (sw_replay_pareto_verify, which shares no
# code with their computation); and the verification tells false fronts
# apart: the first front without its first row, or with a row off it
sw_replay_check_pareto()
{
	local out rc off row

	sw_replay_pareto_grid >"$work/pareto.grid"
	"$SW_REPLAY_DIR/sw-replay" --sweep "$work/pareto.grid" --json "$1" >"$work/pareto.json" &&
		sw_replay_pareto_dat "$work/pareto.json" >"$work/pareto.dat"
	rc=$?
	out=$(sw_replay_pareto_verify "$work/pareto.dat") || rc=1
	sw_replay_result $rc "$2" "pareto: $out"
	[ $rc -eq 0 ] || return

	awk '{ print } /^# index 1:/ { getline; print; getline }' "$work/pareto.dat" >"$work/pareto.bad"
	out=$(sw_replay_pareto_verify "$work/pareto.bad")
	[ $? -eq 1 ] && [[ $out == *"(off the front, not dominated)"* ]]
	rc=$?
	out=${out#*FALSE:}
	sw_replay_result $rc "$2" "pareto: the first front without its first row is told false:${out%%;*}"

	off=$(awk '/^# index [0-9]+:/ { b = $3 + 0 } /^#/ || !NF { next }
		   !b { row[++n] = $1 } b == 1 { on[$1] = 1 }
		   END { for (i = 1; i <= n; i++) if (!(row[i] in on)) { print row[i]; exit } }' \
		"$work/pareto.dat")
	row=$(awk -v spec="$off" '$1 == spec { print; exit }' "$work/pareto.dat")
	awk -v row="$row" '{ print } /^# index 1:/ { getline; print; print row }' \
		"$work/pareto.dat" >"$work/pareto.bad"
	out=$(sw_replay_pareto_verify "$work/pareto.bad")
	[ $? -eq 1 ] && [ -n "$off" ] && [[ $out == *"$off(dominated by "* ]]
	rc=$?
	out=${out#*FALSE:}
	sw_replay_result $rc "$2" "pareto: the first front with $off, off it, is told false:${out%%;*}"
}

make -C "$SW_REPLAY_DIR" sw-replay >/dev/null || sw_die "replay: building tools/sw-replay FAILED"
case "${1:-}" in
--check)
	shift
	sw_replay_check "$@"
	;;
--fuzz)
	shift
	sw_replay_fuzz "$@"
	;;
--plot)
	[ $# -ge 2 ] || sw_die "usage: $0 --plot DIR [TRACE...]"
	shift
	sw_replay_plot "$@"
	;;
--pareto)
	[ $# -ge 2 ] || sw_die "usage: $0 --pareto DIR [--grid GRID] [TRACE...]"
	shift
	sw_replay_pareto "$@"
	;;
"")
	sw_die "usage: $0 [--check|--fuzz [--runs N]|--plot DIR|--pareto DIR [--grid GRID]] [sw-replay options] TRACE..."
	;;
*)
	args=()
	while [ $# -gt 1 ]; do
		args+=("$1")
		shift
	done
	plain=$(sw_replay_plain "$1") || exit 1
	"$SW_REPLAY_DIR/sw-replay" "${args[@]}" "$plain"
	;;
esac
