#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmarks: every wheel on the same workload, with the ratios the
# targets are stated in (docs/benchmarks.rst has the figures):
#
#   scripts/bench.sh user [sw-bench options]     native, in user space
#   scripts/bench.sh callgrind [--timers N] [--ops N] [--hz HZ]
#                                                instructions per call, inclusive
#   scripts/bench.sh best [--runs N] [--out DIR] [sw-bench options]
#                                                per-tick cost, best of N runs
#   scripts/bench.sh plot [--out DIR] [sw-bench options]
#                                                per-tick cost over time
#   scripts/bench.sh kernel [--kernel uml|K] [--smp N] [RUN WORDS...]
#                                                the bench file, in QEMU (N vCPUs)
#                                                or UML (K: scripts/vm.sh's)
#
# "user" builds bench/sw-bench (the core, unchanged, in user space) and
# runs it. "callgrind" runs each operation alone under callgrind and
# prints the instructions of the calls, all they call included, per call
# (the benchmark's loop around them left out). "best" runs sw-bench N
# times (default 5) and takes, for each tick, the least it took in any run
# (the runs do the same work tick by tick): the per-tick figures and their
# ratios with the machine's interruptions left out; --out DIR keeps the
# runs and DIR/best.dat, the best tick by tick. "plot"
# writes the per-tick cost of the classic and seed wheels, tick by tick,
# to DIR/bench-ticks.dat and plots it with gnuplot into DIR/bench-ticks.png
# and, as text, to stdout. "kernel" boots a test kernel, loads the module,
# writes RUN WORDS (docs/ABI/debugfs-shadow-wheel has the grammar; none:
# the defaults) to /sys/kernel/debug/shadow_wheel/bench and prints the
# report: in QEMU (TCG: emulated, so only ratios mean much) or, for uml,
# natively as a process (HZ=100, one CPU) with the host's files as its
# root.
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	sed -n '5,16p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

sw_bench_build()
{
	sw_need_packages build-essential valgrind
	make -s -C "$SW_ROOT/bench" sw-bench >&2 || sw_die "cannot build bench/sw-bench"
}

bench_user()
{
	sw_bench_build
	"$SW_ROOT/bench/sw-bench" "$@"
}

bench_callgrind()
{
	local timers=100000 ops=20000 hz=1000 out wheel op ir loop per line
	local opnames="arm cancel mod_near mod_far next empty_tick"

	sw_options 'timers=[1-9][0-9]*' 'ops=[1-9][0-9]*' 'hz=[1-9][0-9]*' -- "$@"
	shift "$sw_optind"
	[ $# -eq 0 ] || usage
	sw_bench_build
	out=$(mktemp -d)
	sw_rm_at_exit "$out"
	echo "instructions per call, inclusive (callgrind), $timers timers pending, HZ $hz"
	printf '%-10s' "wheel"
	for op in $opnames; do printf '%11s' "$op"; done
	echo
	for wheel in seed mainline classic heap; do
		line=$(printf '%-10s' "$wheel")
		for op in $opnames; do
			valgrind --tool=callgrind --collect-atstart=no \
				--callgrind-out-file="$out/cg" \
				"$SW_ROOT/bench/sw-bench" --wheel "$wheel" --callgrind "$op" \
				--timers "$timers" --ops "$ops" --hz "$hz" >/dev/null 2>"$out/log" ||
				{ cat "$out/log" >&2; sw_die "callgrind: $wheel $op failed"; }
			ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$out/cg")
			[ -n "$ir" ] || sw_die "callgrind: no count for $wheel $op"
			# The loop around the calls is sw-bench.c's own: not the call's
			loop=$(callgrind_annotate "$out/cg" 2>/dev/null |
				awk '/sw-bench\.c:/ {gsub(",", "", $1); s += $1} END {print s + 0}')
			per=$(awk -v ir="$ir" -v loop="$loop" -v n="$ops" \
				'BEGIN {printf "%.1f", (ir - loop) / n}')
			line+=$(printf '%11s' "$per")
		done
		echo "$line"
	done
}

# Per-tick cost, best of several runs: each run does the same work tick by
# tick (the same seeds), so the least a tick took in any run is its cost
# with the machine's interruptions left out
bench_best()
{
	local runs=5 out='' dir i c n names args

	sw_options 'runs=[1-9][0-9]*' 'out=.+' ... -- "$@"
	shift "$sw_optind"
	args=("$@")
	dir=$out
	sw_bench_build
	if [ -z "$dir" ]; then
		dir=$(mktemp -d)
		sw_rm_at_exit "$dir"
	fi
	mkdir -p "$dir" || sw_die "cannot create $dir"
	for i in $(seq "$runs"); do
		"$SW_ROOT/bench/sw-bench" --trace "$dir/run$i.dat" "${args[@]}" > "$dir/run$i.txt" ||
			sw_die "sw-bench failed"
	done
	# Tick by tick, the least of the runs: DIR/best.dat, columns as the traces'
	awk '/^# tick/ { if (!hdr) print; hdr = 1; next }
	     /^#/ { next }
	     { t = $1; if (t + 1 > nt) nt = t + 1; nc = NF
	       for (c = 2; c <= NF; c++)
		       if (!((t, c) in b) || $c < b[t, c]) b[t, c] = $c }
	     END { for (t = 0; t < nt; t++) { line = t
		   for (c = 2; c <= nc; c++) line = line " " b[t, c]
		   print line } }' "$dir"/run*.dat > "$dir/best.dat"
	echo "per-tick cost in ns, the least of $runs runs for each tick"
	names=$(sed -n 's/^# tick //p' "$dir/best.dat")
	c=2
	for n in $names; do
		awk -v c="$c" '!/^#/ {print $c}' "$dir/best.dat" | sort -n |
		awk -v runs="$runs" -v name="$n" '{ v[NR - 1] = $1; total += $1 }
		END { printf "best runs=%d wheel=%s ticks=%d tick_median=%d tick_p99=%d tick_p999=%d tick_max=%d tick_total_us=%d\n",
			runs, name, NR, v[int(NR / 2)], v[int(NR * 99 / 100)],
			v[int(NR * 999 / 1000)], v[NR - 1], total / 1000 }'
		c=$((c + 1))
	done | tee "$dir/best.txt"
	awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	       tot[f["wheel"]] = f["tick_total_us"]; max[f["wheel"]] = f["tick_max"] }
	END {
		for (w in tot) {
			if (w == "classic" || !("classic" in tot) || !tot[w] || !max["classic"])
				continue
			r = tot["classic"] / tot[w]
			printf "ratio classic/%s.tick_total=%.3f target=>=2.00 %s\n", w, r,
				(r >= 2 ? "met" : "missed")
			r = max[w] / max["classic"]
			printf "ratio %s/classic.tick_max=%.3f target=<=0.10 %s\n", w, r,
				(r <= 0.1 ? "met" : "missed")
		}
	}' "$dir/best.txt"
}

bench_plot()
{
	local out=. dir args

	sw_options 'out=.+' ... -- "$@"
	shift "$sw_optind"
	args=("$@")
	dir=$out
	sw_bench_build
	mkdir -p "$dir" || sw_die "cannot create $dir"
	"$SW_ROOT/bench/sw-bench" --wheel classic --wheel seed --trace "$dir/bench-ticks.dat" \
		"${args[@]}" >&2 || sw_die "sw-bench failed"
	# Columns: tick seed classic. The picture shows it all; the text the first
	# 1024 ticks, four root revolutions of the classic wheel
	sw_gnuplot_png "$dir/bench-ticks.png" 1000 500 <<EOF
set title "Per-tick cost under the same traffic"
set xlabel "tick"
set ylabel "ns (log)"
set logscale y
set key top left
plot '$dir/bench-ticks.dat' using 1:3 with points pt 7 ps 0.3 title 'classic', \\
     '' using 1:2 with points pt 7 ps 0.3 title 'seed'
set terminal dumb size 100,28
set output
set title "Per-tick cost in ns, first 1024 ticks (c: classic, s: seed)"
unset key
plot [0:1023] '$dir/bench-ticks.dat' using 1:3 with points pt "c", \\
     '' using 1:2 with points pt "s"
EOF
}

# The bench file in the UML kernel: no emulation, the figures are native
bench_uml()
{
	local build ko dir rc

	sw_need_packages busybox-static
	build=$(sw_uml_build_dir) || exit 1
	ko=$(sw_build_module uml) || exit 1
	dir=$(mktemp -d "$SW_CACHE/uml-run.XXXXXX")
	sw_rm_at_exit "$dir"
	cat > "$dir/init.sh" <<EOF
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
D=/sys/kernel/debug/shadow_wheel
rc=1
if insmod $ko; then
	if echo "$*" > \$D/bench; then
		echo SW_BENCH_BEGIN
		cat \$D/bench
		echo SW_BENCH_END
		rc=0
	fi
	rmmod shadow_wheel
fi
echo "SW_UML_EXIT \$rc"
exec busybox poweroff -f
EOF
	chmod +x "$dir/init.sh"
	sw_log "bench: '$*' on the uml kernel (native, HZ=100, one CPU)"
	timeout 3600 "$build/linux" mem=2048M rootfstype=hostfs rootflags=/ ro \
		init="$dir/init.sh" con=null con0=fd:0,fd:1 </dev/null >"$dir/out" 2>&1
	sed -n '/^SW_BENCH_BEGIN/,/^SW_BENCH_END/p' "$dir/out" | grep -v '^SW_BENCH_'
	rc=$(sed -n 's/^SW_UML_EXIT \([0-9]*\).*/\1/p' "$dir/out" | tail -n 1)
	if [ "$rc" != 0 ]; then
		tail -n 40 "$dir/out" >&2
		sw_die "bench: the uml run failed"
	fi
}

bench_kernel()
{
	local kernel=debian smp=2 guest out rc

	sw_options 'kernel=.+' 'smp=[1-9][0-9]*' -- "$@"
	shift "$sw_optind"
	if [ "$kernel" = uml ]; then
		bench_uml "$@"
		return
	fi
	guest=$(mktemp)
	out=$(mktemp)
	sw_rm_at_exit "$guest" "$out"
	cat > "$guest" <<EOF
D=/sys/kernel/debug/shadow_wheel
insmod /shadow_wheel.ko || exit 1
echo "$*" > \$D/bench || exit 1
echo SW_BENCH_BEGIN
cat \$D/bench
echo SW_BENCH_END
rmmod shadow_wheel
EOF
	sw_log "bench: '$*' on the $kernel kernel, $smp vCPUs"
	"$SW_ROOT/scripts/vm.sh" --kernel "$kernel" --smp "$smp" --mem 2048 --timeout 3600 "$guest" \
		> "$out"
	rc=$?
	sed -n '/^SW_BENCH_BEGIN/,/^SW_BENCH_END/p' "$out" | grep -v '^SW_BENCH_'
	if [ $rc -ne 0 ]; then
		tail -n 40 "$out" >&2
		sw_die "bench: the guest failed (exit status $rc)"
	fi
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case "$cmd" in
user) bench_user "$@" ;;
callgrind) bench_callgrind "$@" ;;
best) bench_best "$@" ;;
plot) bench_plot "$@" ;;
kernel) bench_kernel "$@" ;;
*) usage ;;
esac
