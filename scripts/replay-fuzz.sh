#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The trace reader fed broken copies of a trace, under AddressSanitizer
# and UBSan (docs/replay.rst):
#
#   scripts/replay.sh --fuzz [--runs N] [TRACE]
#
# TRACE as scripts/replay.sh takes it; by default the first of the shipped
# traces. N runs (default 500) truncate the trace at random lengths and
# flip random bytes of it, and run each copy through sw-replay built with
# AddressSanitizer and UBSan: every run must end with the report or a
# clear error (exit 0 or 2), never a sanitizer report, a signal or a hang.
set -u
. "$(dirname "$0")/sw-lib.sh"
# shellcheck source=sw-lib-replay.sh
. "$SW_ROOT/scripts/sw-lib-replay.sh"

usage()
{
	sw_die "usage: $(dirname "$0")/replay.sh --fuzz [--runs N] [TRACE]"
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

# $1 runs on the trace $2 (none: the first shipped one)
sw_replay_fuzz()
{
	local runs=$1 f plain size i cut rc bad=0 errs=0 reports=0 contained=0

	f=${2:-$(sw_replay_traces | head -n 1)}
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

runs=500
sw_options 'runs=[1-9][0-9]*' -- "$@"
shift "$sw_optind"
[ $# -le 1 ] || usage
sw_replay_setup
sw_replay_fuzz "$runs" "$@"
