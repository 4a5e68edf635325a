#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test of make check (make replay): the traces replayed and checked
# (docs/replay.rst, docs/testing.rst):
#
#   scripts/replay.sh --check [TRACE...]
#
# TRACE as scripts/replay.sh takes it; by default the shipped traces under
# traces/. Replays each one with sw-replay --check, checks that its
# sw-replay --json parses and carries every figure of
# core/mirror/sw_mirror_figures_list.h, and that docs/ABI documents every
# key mirror/stats prints; it ends with "replay: P passed, F failed"; no
# trace at all is a failure. Each trace is also replayed (sw-replay
# --check) as tie-trace.py rewrites it, at each grid of SW_TIE_GRIDS (ns):
# its timestamps tied across CPUs and some nudged by a few us, which the
# replay must still put in an order the kernel can produce.
set -u
. "$(dirname "$0")/sw-lib.sh"
# shellcheck source=sw-lib-replay.sh
. "$SW_ROOT/scripts/sw-lib-replay.sh"

usage()
{
	sw_die "usage: $(dirname "$0")/replay.sh --check [TRACE...]"
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

# A line of sw-replay --check that passes a check nothing decided
# ("undecided"), and one that skips a check without the tool's reason
# ("skipped WHAT: REASON"), both failures (extended regexps)
SW_REPLAY_UNDECIDED='^replay: .*: ok .*undecided'
SW_REPLAY_SKIPPED='^replay: .*: skipped [^:]*(:[[:space:]]*)?$'

# sw-replay --check of the trace $1, its lines shown with $2 for its name;
# its totals added to $passed and $failed, and a failure more for each
# check it passed undecided or skipped without a reason
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
	while read -r line; do
		sw_replay_result 1 "$2" "a check passed undecided, or skipped without a reason: ${line#replay: "$2": }"
	done < <(grep -E -e "$SW_REPLAY_UNDECIDED" -e "$SW_REPLAY_SKIPPED" "$work/out")
}

# The model with the stale-next_expiry rule off (--exact-next) must fail
# the softirq differential of the trace $1 (named $2). A trace that does
# not decide between the two models fails; one that cannot decide it (or
# recorded no softirq) passes when sw-replay skips the check with its
# reason ("skipped softirq differential: REASON")
sw_replay_check_exact_next()
{
	local lines what="the stale next_expiry rule turned off"

	lines=$("$SW_REPLAY_DIR/sw-replay" --exact-next --check "$1" |
		grep -E '^replay: .*: (ok|FAILED|skipped) (softirq differential|[^:]*next_expiry)[^:]*:' |
		sed "s|^replay: $1: ||")
	if [[ $lines == *undecided* ]]; then
		sw_replay_result 1 "$2" "$what: undecided by this trace: $lines"
	elif [[ $lines == *FAILED* ]]; then
		sw_replay_result 0 "$2" "$what fails the softirq differential"
	elif [[ $lines == skipped* ]]; then
		! grep -qE "$SW_REPLAY_SKIPPED" <<<"replay: $2: $lines"
		sw_replay_result $? "$2" "$what: $lines"
	else
		sw_replay_result 1 "$2" "$what passes the softirq differential: $lines"
	fi
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

sw_options -- "$@"
shift "$sw_optind"
sw_replay_setup
sw_replay_check "$@"
