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
# (.dat.xz/.gz/.zst); the jobs take the shipped traces under traces/ by
# default. Each job is a script of its own, which this one runs with the
# words after the job's option, and which says what it does:
# scripts/replay-check.sh, replay-fuzz.sh, replay-plot.sh and
# replay-pareto.sh; what they share is in scripts/sw-lib-replay.sh.
set -u
. "$(dirname "$0")/sw-lib.sh"
# shellcheck source=sw-lib-replay.sh
. "$SW_ROOT/scripts/sw-lib-replay.sh"

usage()
{
	sw_die "usage: $0 [--check|--fuzz [--runs N]|--plot DIR|--pareto DIR [--grid GRID]] [sw-replay options] TRACE..."
}

# sw-replay's report of the trace $N, with the options before it
sw_replay_report()
{
	local args=("${@:1:$#-1}") plain

	plain=$(sw_replay_plain "${!#}") || exit 1
	"$SW_REPLAY_DIR/sw-replay" "${args[@]}" "$plain"
}

# The job, by its option; none: a report, the words sw-replay's
check=0 fuzz=0 plot='' pareto=''
sw_options check fuzz 'plot=.+' 'pareto=.+' ... -- "$@"
shift "$sw_optind"
case "$check$fuzz${plot:+p}${pareto:+P}" in
00)
	[ $# -ge 1 ] || usage
	sw_replay_setup
	sw_replay_report "$@"
	;;
10)
	exec "$SW_ROOT/scripts/replay-check.sh" "$@"
	;;
01)
	exec "$SW_ROOT/scripts/replay-fuzz.sh" "$@"
	;;
00p)
	exec "$SW_ROOT/scripts/replay-plot.sh" "$plot" "$@"
	;;
00P)
	exec "$SW_ROOT/scripts/replay-pareto.sh" "$pareto" "$@"
	;;
*)
	usage
	;;
esac
