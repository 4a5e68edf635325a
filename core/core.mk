# SPDX-License-Identifier: GPL-2.0
#
# The core's libraries, each source named once here. Kbuild and the
# user-space makefiles (bench/, kunit/user/, tools/sw-replay/) include this
# file and take the names relative to core/; sources include one another's
# headers by name alone, found through the directories in sw_core_dirs.
#
#   event/	the one vocabulary of the tracepoints' events (a header):
#		the module's probes, the replay's reader, the mirror and
#		sw_order take their events in it (sw_logmerge takes numbers)
#   wheel/	the wheels: seed, mainline, classic, HZ conversion
#   mirror/	the mirror of the kernel's timer events, its differential,
#		the CPUs' softirq model (sw_sirq, which the mirror calls and
#		which never calls it) and its differential (sw_sirq_diff),
#		the table per timer function, the report and its print sink
#   merge/	the merges of per-CPU event streams in the kernel's order,
#		shared by the module and the replay: by timestamps and rules
#		(the replay's), by numbers (the module's logs)
#   heap/	a binary min-heap of timers over the caller's array
#   tree/	an ordered set of timers by tick (a treap), whose lookup is
#		the first tick after t: the CPUs' model keeps a base's timers
#		in one
#   bench/	the benchmark workloads
#
# Dependencies run one way: bench, mirror and merge on wheel, mirror and
# merge on event, mirror on tree, event, wheel, heap and tree on nothing.

sw_core_wheel := wheel/sw_wheel.c wheel/sw_geometry.c wheel/sw_classic.c
sw_core_mirror := mirror/sw_mirror.c mirror/sw_diff.c mirror/sw_mirror_top.c \
		  mirror/sw_mirror_report.c mirror/sw_print.c \
		  mirror/sw_sirq.c mirror/sw_sirq_diff.c
sw_core_merge := merge/sw_order.c merge/sw_logmerge.c
sw_core_heap := heap/sw_heap.c
sw_core_tree := tree/sw_tree.c
sw_core_bench := bench/sw_bench.c
sw_core_dirs := event wheel mirror merge heap tree bench
