#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The per-tick cost and the lateness of the traces, as PNGs
# (docs/replay.rst):
#
#   scripts/replay.sh --plot DIR [TRACE...]
#
# TRACE as scripts/replay.sh takes it; by default the shipped traces. For
# each trace T, into DIR: T-ticks.dat (sw-replay --tick-cost) and
# T-ticks.png, the cost of each tick processed over the trace's time by
# the seed, mainline and classic wheels and the heap, at the trace's HZ
# and at 1000; T-lateness.dat and T-lateness.png, the lateness histogram
# of each wheel at each HZ of the report (its levels summed).
set -u
. "$(dirname "$0")/sw-lib.sh"
# shellcheck source=sw-lib-replay.sh
. "$SW_ROOT/scripts/sw-lib-replay.sh"

usage()
{
	sw_die "usage: $(dirname "$0")/replay.sh --plot DIR [TRACE...]"
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

# The cost of each tick of the trace $3 (unpacked: $2), named $4, into the
# directory $1: $4-ticks.dat and $4-ticks.png
sw_replay_plot_ticks()
{
	local dir=$1 plain=$2 f=$3 name=$4 hz hzs h i plots

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
}

# The lateness histograms of the trace $3 (unpacked: $2), named $4, into
# the directory $1: $4-lateness.dat and $4-lateness.png
sw_replay_plot_lateness()
{
	local dir=$1 plain=$2 f=$3 name=$4 hzs h cols c i w plots

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
}

sw_replay_plot()
{
	local dir=$1 f plain name
	local traces=("${@:2}")

	[ ${#traces[@]} -gt 0 ] || mapfile -t traces < <(sw_replay_traces)
	[ ${#traces[@]} -gt 0 ] || sw_die "replay: no trace to plot"
	mkdir -p "$dir" || sw_die "cannot create $dir"
	for f in "${traces[@]}"; do
		plain=$(sw_replay_plain "$f") || exit 1
		name=$(basename "$f")
		name=${name%%.dat*}
		sw_replay_plot_ticks "$dir" "$plain" "$f" "$name"
		sw_replay_plot_lateness "$dir" "$plain" "$f" "$name"
		echo "replay: $f: $dir/$name-ticks.png $dir/$name-lateness.png"
	done
}

sw_options -- "$@"
shift "$sw_optind"
[ $# -ge 1 ] || usage
sw_replay_setup
sw_replay_plot "$@"
