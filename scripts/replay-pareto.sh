#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A sweep's work against lateness, its Pareto fronts, as PNGs
# (docs/replay.rst):
#
#   scripts/replay.sh --pareto DIR [--grid GRID] [TRACE...]
#
# TRACE as scripts/replay.sh takes it; by default the shipped traces.
# Sweeps each trace T through GRID (sw-replay --sweep: a file or the range
# syntax; default: the named wheels at HZ 100, 250, 300 and 1000 and 90
# other shapes, sw_replay_pareto_grid) and writes into DIR T-pareto.dat,
# every geometry's timer softirqs/s, p99 lateness, idle wakeups/s and
# late>10% share, then the rows of each Pareto front, and T-pareto.png:
# softirqs/s against p99 lateness and wakeups/s against the late>10%
# share, the front (the geometries no other beats on both axes) a
# staircase, seed, mainline and classic marked by their HZ.
set -u
. "$(dirname "$0")/sw-lib.sh"
# shellcheck source=sw-lib-replay.sh
. "$SW_ROOT/scripts/sw-lib-replay.sh"

usage()
{
	sw_die "usage: $(dirname "$0")/replay.sh --pareto DIR [--grid GRID] [TRACE...]"
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

# Into the directory $1, the traces $3... (none: the shipped ones) swept
# through the grid $2 (none: sw_replay_pareto_grid's)
sw_replay_pareto()
{
	local dir=$1 grid=$2 f
	local traces=("${@:3}")

	if [ -z "$grid" ]; then
		grid=$work/pareto.grid
		sw_replay_pareto_grid >"$grid"
	fi
	[ ${#traces[@]} -gt 0 ] || mapfile -t traces < <(sw_replay_traces)
	[ ${#traces[@]} -gt 0 ] || sw_die "replay: no trace to plot"
	mkdir -p "$dir" || sw_die "cannot create $dir"
	for f in "${traces[@]}"; do
		sw_replay_pareto_one "$dir" "$f" "$grid"
	done
}

[ $# -ge 1 ] || usage
dir=$1
shift
grid=''
sw_options 'grid=.+' -- "$@"
shift "$sw_optind"
sw_replay_setup
sw_replay_pareto "$dir" "$grid" "$@"
