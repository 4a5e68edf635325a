#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Record the kernel's own timer events with trace-cmd inside a test kernel
# in QEMU, or on this machine's own kernel, during one workload, and bring
# the trace.dat back:
#
#   scripts/record-trace.sh [--kernel K] [--seconds S] [--idle S] [--out FILE]
#                           WORKLOAD
#   scripts/record-trace.sh --host [--seconds S] [--idle S] [--out FILE]
#                           HOST-WORKLOAD
#   scripts/record-trace.sh --check FILE...
#
# K is any kernel of the matrix (scripts/vm.sh; default debian). WORKLOAD
# is one of selftests/shadow_wheel/real_traffic.sh's: idle, tcp (many short
# connections and a bulk stream over loopback), disk (fsynced writes on ext4
# on a virtio disk) or mix (tcp and disk), run for S seconds (default 10; 60
# for idle) and followed by --idle seconds of nothing (default 1). FILE
# defaults to traces/<kernel>-<workload>.dat, the kernel named by its
# series (debian-6.1, debian-6.12...).
#
# --host records this machine's running kernel (root; docs/traces.rst):
# HOST-WORKLOAD is idle, tcp (as in a guest) or build (make of the
# user-space KUnit suites, again and again), FILE by default
# traces/host-<series>-<workload>.dat. It refuses if this machine's
# tracing is in use, and leaves it as it found it, also when interrupted.
#
# The guest runs Debian's trace-cmd (the host's, with its libraries and
# loader): the events below (the timer events, and the CPU's own: its timer
# softirq's entry and exit, and its idle) go into a ring buffer large enough
# for the whole run, with nothing reading it while the workload runs, and a marker
# names the kernel's HZ and release. Then the guest checks that no event was
# lost (overrun, dropped), keeps of /proc/kallsyms only the symbols of the
# timer functions in the trace (bind-mounted over it while trace-cmd extract
# writes the file; the whole table would be most of the file) and checks
# that trace-cmd report of that file gives every event of the kernel's own
# text output with the same function name. Of the event formats, only the
# recorded events' and ftrace's go into the file. The file comes back as
# base64 on the console.
#
# The guest's own work after the run (the kernel's text output read and
# sorted, trace-cmd report of the file, the base64) grows with the events,
# about 2.5 times the run's length under TCG for the mix workload (400 s
# of mix, 1,145,773 events, a 7.1 MB file: 16 minutes): the guest gets
# 900 s and four times S.
#
# --check prints, for each trace, its events by type, timers, CPUs,
# duration, size and marker, and fails if an event was lost, the file
# gives back fewer events than were read from the kernel, a timer function
# does not resolve to a name, the marker or an event of the three that the
# replay needs is missing.
set -u
. "$(dirname "$0")/sw-lib.sh"

# The events recorded, as system:event, or a system for all its events;
# those the kernel does not have are left out (timer_base_idle is 6.12's,
# timer_migration 6.9's). The first three are the ones a replay needs. The
# timer softirq's entry and exit and the CPU's idle say when the kernel ran
# its timer softirq and when the CPU slept; the tick's hrtimer
# (hrtimer_expire_entry), local_timer_entry (its interrupt), tick_stop and
# softirq_raise when each CPU took its tick, what it saw, and when the
# softirq was asked for; timer_migration where a CPU's timers ran remotely.
SW_RECORD_EVENTS="timer:timer_start timer:timer_cancel timer:timer_expire_entry \
timer:timer_expire_exit timer:timer_base_idle irq:softirq_entry irq:softirq_exit power:cpu_idle \
timer:hrtimer_expire_entry timer:tick_stop irq_vectors:local_timer_entry irq:softirq_raise \
timer_migration"
SW_RECORD_NEEDED="timer_start timer_cancel timer_expire_entry"
# The kernel's filter of an event, where it has one: of the softirqs, only
# TIMER_SOFTIRQ's (vector 1); of the hrtimers, the tick's (TICK: its
# function's address)
SW_RECORD_FILTERS="softirq_entry:vec==1 softirq_exit:vec==1 softirq_raise:vec==1 \
hrtimer_expire_entry:function==TICK"
# An awk pattern that matches the name of a recorded event, as the kernel's
# text output and trace-cmd report print it (with its colon)
SW_RECORD_EVENT_RE='^(timer_[a-z_]+|softirq_(entry|exit|raise)|cpu_idle|hrtimer_expire_entry|'
SW_RECORD_EVENT_RE+='tick_stop|local_timer_entry|tmigr_[a-z_]+):$'
# The lines of the ring buffer's statistics that count lost events (awk)
# shellcheck disable=SC2016 # awk's fields, not the shell's
SW_RECORD_LOST='/^(overrun|commit overrun|dropped events):/ { n += $NF } END { print n + 0 }'
# The ring buffer, in KB per CPU: the whole run stays in it
SW_RECORD_BUFFER_KB=65536
SW_RECORD_WORKLOADS="idle tcp disk mix"
# Those of --host: no ext4 disk of its own there, a build instead
SW_RECORD_HOST_WORKLOADS="idle tcp build"
# This machine's tracefs
SW_RECORD_TRACEFS=/sys/kernel/tracing

usage()
{
	echo "usage: $0 [--kernel K] [--seconds S] [--idle S] [--out FILE] WORKLOAD" >&2
	echo "       $0 --host [--seconds S] [--idle S] [--out FILE] HOST-WORKLOAD" >&2
	echo "       $0 --check FILE..." >&2
	echo "K: $SW_VM_KERNELS" >&2
	echo "WORKLOAD: $SW_RECORD_WORKLOADS" >&2
	echo "HOST-WORKLOAD: $SW_RECORD_HOST_WORKLOADS" >&2
	exit 2
}

# The name a trace of kernel $1 goes by: Debian's by their series
# (debian-6.1, debian-6.12-rt), ours by their name in the matrix
sw_record_kernel_name()
{
	local release series

	sw_vm_is_debian "$1" || { echo "$1"; return; }
	release=$(sw_debian_release "$1")
	series=$(echo "$release" | cut -d. -f1-2)
	case "$release" in
	*-rt-*)	echo "debian-$series-rt" ;;
	*)	echo "debian-$series" ;;
	esac
}

# trace-cmd, its shared libraries and the loader into the directory $1,
# at the paths they have on the host (the libraries resolved), trace-cmd
# itself as opt/bin/trace-cmd
sw_record_stage()
{
	local dir=$1 tc lib

	tc=$(command -v trace-cmd) || sw_die "no trace-cmd"
	mkdir -p "$dir/opt/bin"
	cp "$tc" "$dir/opt/bin/trace-cmd" || sw_die "cannot copy $tc"
	for lib in $(ldd "$tc" | grep -o '/[^ ]*'); do
		mkdir -p "$dir$(dirname "$lib")"
		cp -L "$lib" "$dir$lib" || sw_die "cannot copy $lib"
	done
	if [ ! -d "$dir/lib64" ] || [ ! -d "$dir/lib" ]; then
		sw_die "ldd $tc: no loader or libraries"
	fi
}

# The recorder, a plain sh script run as root on the kernel it records (in
# a guest, or on this machine under a mount namespace of its own): enable
# the events by hand, run the workload command $2 between a marker and the
# end, check that nothing was lost, write the file with trace-cmd extract
# and check it against the kernel's own text output. $1 is its scratch
# directory; $3 where the file goes: a path, or "console" for base64
# between two lines on its output.
sw_record_script()
{
	cat <<REC_END
W=$1
T=/sys/kernel/tracing
[ -e \$T/trace ] || { echo "record: no tracefs"; exit 1; }
mkdir -p \$W || exit 1
# The kernel's messages would break the base64 lines
[ "$3" != console ] || dmesg -n 1
# The tick's hrtimer (tick_sched_timer up to 6.8, tick_nohz_handler since),
# by address: the filter of hrtimer_expire_entry keeps it alone
tick=\$(awk '\$3 == "tick_nohz_handler" || \$3 == "tick_sched_timer" { print \$1; exit }' \
	/proc/kallsyms)
# The directory of the event (system:event) or system (system) \$1
dir()
{
	case "\$1" in
	*:*)	echo \$T/events/\${1%%:*}/\${1#*:} ;;
	*)	echo \$T/events/\$1 ;;
	esac
}
# The events by hand, where trace-cmd start would also set up the function
# tracer, which not every kernel lets it; the global clock orders the
# CPUs' events with each other (a timer armed on one CPU may run on another)
echo global > \$T/trace_clock || exit 1
echo $SW_RECORD_BUFFER_KB > \$T/buffer_size_kb || exit 1
for se in $SW_RECORD_EVENTS; do
	d=\$(dir \$se)
	[ -d \$d ] || continue
	f=
	for sf in $SW_RECORD_FILTERS; do
		[ "\${sf%%:*}" = "\${se#*:}" ] && f=\${sf#*:}
	done
	case "\$f" in
	*TICK*)
		[ -n "\$tick" ] || { echo "record: \$se: no tick function"; continue; }
		f=\$(echo "\$f" | sed "s/TICK/0x\$tick/")
		;;
	esac
	[ -z "\$f" ] || echo "\$f" > \$d/filter || exit 1
	echo 1 > \$d/enable || exit 1
	echo "record: \$se\${f:+ if \$f}"
done
echo > \$T/trace
echo 1 > \$T/tracing_on
echo "shadow_wheel_trace: hz=$hz release=\$(uname -r) kernel=$name workload=$workload" \
	"seconds=$seconds idle=$idle" > \$T/trace_marker
$2 || exit 1
echo 0 > \$T/tracing_on

lost=0
for c in \$T/per_cpu/cpu*; do
	n=\$(awk '$SW_RECORD_LOST' \$c/stats)
	echo "record: \$(basename \$c): \$n events lost"
	lost=\$((lost + n))
done
[ \$lost -eq 0 ] || { echo "record: events were lost: record with a larger buffer"; exit 1; }

# Each event's name and function (timer events), as the kernel prints them
events()
{
	awk '{
		ev = ""
		fn = ""
		for (i = 1; i <= NF; i++) {
			if (\$i ~ /$SW_RECORD_EVENT_RE/)
				ev = \$i
			else if (\$i ~ /^function=/)
				fn = \$i
		}
		if (ev != "")
			print ev, fn
	}' | sort
}
grep -v '^#' \$T/trace | events > \$W/kernel.events
echo "record: \$(wc -l < \$W/kernel.events) events in the buffer"
# The marker's own function too, so that its line reads right
{ sed -n 's/.*function=//p' \$W/kernel.events; echo tracing_mark_write; } | sort -u \
	> \$W/functions
awk 'NR == FNR { want[\$1] = 1; next } (\$3 in want)' \$W/functions /proc/kallsyms \
	> \$W/kallsyms
echo "record: \$(wc -l < \$W/functions) timer functions," \
	"\$(wc -l < \$W/kallsyms) of \$(wc -l < /proc/kallsyms) symbols kept"
# Of the events' formats, those of the recorded events and ftrace's own
# (the marker is one): trace-cmd extract would save every event's
# (each file read with cat: 6.12's eventfs gives them all one inode
# number, and busybox cp -r would link them to the first it copied)
E=\$W/events
copy()
{
	mkdir -p \$(dirname \$E/\$1) && cat \$T/events/\$1 > \$E/\$1 || exit 1
}
copy header_page
copy header_event
for d in \$T/events/ftrace/*/; do
	copy ftrace/\$(basename \$d)/format
done
for se in $SW_RECORD_EVENTS; do
	d=\$(dir \$se)
	[ -d \$d ] || continue
	s=\${se%%:*}
	[ -f \$E/\$s/enable ] || copy \$s/enable
	for e in \$(cd \$T/events/\$s && ls); do
		[ -d \$T/events/\$s/\$e ] || continue
		[ "\$s:\$e" = "\$se" ] || [ "\$s" = "\$se" ] || continue
		for f in format id enable; do
			copy \$s/\$e/\$f
		done
	done
done
mount --bind \$W/kallsyms /proc/kallsyms || exit 1
mount --bind \$E \$T/events || exit 1
trace-cmd extract -o \$W/trace.dat > \$W/extract.log 2>&1
rc=\$?
umount \$T/events
umount /proc/kallsyms
if [ \$rc -ne 0 ]; then
	sed 's/^/record: extract: /' \$W/extract.log
	exit 1
fi
trace-cmd report -N -i \$W/trace.dat 2>\$W/report.log | events > \$W/file.events
if ! cmp -s \$W/kernel.events \$W/file.events; then
	echo "record: the file's events are not the kernel's:" \
		"\$(wc -l < \$W/file.events) of \$(wc -l < \$W/kernel.events)"
	head -n 20 \$W/report.log | sed 's/^/record: report: /'
	diff \$W/kernel.events \$W/file.events | head -n 20 | sed 's/^/record: diff: /'
	exit 1
fi
echo "record: trace.dat of \$(wc -c < \$W/trace.dat) bytes, every event and name in it"
if [ "$3" = console ]; then
	echo SW_TRACE_BEGIN
	base64 \$W/trace.dat
	echo SW_TRACE_END
else
	cp \$W/trace.dat "$3" || exit 1
fi
REC_END
}

# Check the trace $1 and print what is in it
sw_record_check()
{
	local file=$1 report stat lost read got e n rc=0

	[ -f "$file" ] || { echo "$file: no such file" >&2; return 1; }
	report=$(mktemp)
	if ! trace-cmd report -N -i "$file" > "$report" 2>/dev/null; then
		echo "$file: trace-cmd report cannot read it" >&2
		rm -f "$report"
		return 1
	fi
	stat=$(trace-cmd report -N --stat -i "$file" 2>/dev/null)
	lost=$(echo "$stat" | awk "$SW_RECORD_LOST")
	# What the recorder read from the kernel's buffer, against what the
	# file gives back: a file cut short reads fewer
	read=$(echo "$stat" | awk '/^read events:/ { n += $NF; seen = 1 } END { if (seen) print n }')
	got=$(grep -cE '\[[0-9]+\] +[0-9]+\.[0-9]+: ' "$report")
	awk -v file="$file" -v size="$(stat -c %s "$file")" -v lost="$lost" \
		-v events="$SW_RECORD_EVENTS" \
		-v re="$SW_RECORD_EVENT_RE" '
	/shadow_wheel_trace:/ { sub(/.*shadow_wheel_trace: /, ""); marker = $0; next }
	{
		ev = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^\[[0-9]+\]$/)
				cpu[$i] = 1
			else if ($i ~ /^[0-9]+\.[0-9]+:$/)
				ts = $i + 0
			else if ($i ~ re)
				ev = substr($i, 1, length($i) - 1)
			else if (ev != "" && $i ~ /^timer=/)
				timer[$i] = 1
			else if (ev != "" && $i ~ /^function=0x/)
				unresolved++
		}
		if (ev == "")
			next
		if (!nev++)
			first = ts
		last = ts
		count[ev]++
	}
	END {
		printf "%s: %d bytes, %s\n", file, size, marker
		printf "  %d events, %d timers, %d CPUs, %.1f s, %d lost, %d unresolved functions\n",
			nev, length(timer), length(cpu), last - first, lost, unresolved
		n = split(events, order, " ")
		for (i = 1; i <= n; i++)
			if (sub(/.*:/, "", order[i]) && order[i] in count)
				printf "  %-20s %d\n", order[i], count[order[i]]
	}' "$report"
	for e in $SW_RECORD_NEEDED; do
		n=$(grep -c " $e:" "$report")
		[ "$n" -gt 0 ] || { echo "$file: no $e event" >&2; rc=1; }
	done
	grep -q ' function=0x' "$report" && { echo "$file: unresolved timer functions" >&2; rc=1; }
	grep -q 'EVENTS DROPPED' "$report" && { echo "$file: events were dropped" >&2; rc=1; }
	grep -q 'shadow_wheel_trace:' "$report" || { echo "$file: no marker" >&2; rc=1; }
	[ "$lost" -eq 0 ] || { echo "$file: $lost events lost" >&2; rc=1; }
	if [ -z "$read" ]; then
		echo "$file: no count of the events read from the kernel" >&2
		rc=1
	elif [ "$read" -ne "$got" ]; then
		echo "$file: $read events read from the kernel, $got in the file" >&2
		rc=1
	fi
	rm -f "$report"
	return $rc
}

# The tracefs directory, under events/, of the event (system:event) or
# system (system) $1 of SW_RECORD_EVENTS
sw_record_event_dir()
{
	case "$1" in
	*:*)	echo "events/${1%%:*}/${1#*:}" ;;
	*)	echo "events/$1" ;;
	esac
}

# This machine's tracing as it is: refuses (and changes nothing) if a
# tracer or an event is on; else saves in $work/saved what the recorder
# changes (tracing_on, the buffer's size, the clock, our events' filters),
# for sw_record_host_restore()
sw_record_host_save()
{
	local t=$SW_RECORD_TRACEFS se d

	[ -w "$t/tracing_on" ] ||
		sw_die "no tracefs at $t (mount -t tracefs nodev $t)"
	[ "$(cat "$t/current_tracer")" = nop ] ||
		sw_die "this machine's tracing is in use (current_tracer $(cat "$t/current_tracer")): not recording"
	[ -z "$(cat "$t/set_event")" ] ||
		sw_die "this machine's tracing is in use (events on: $(head -n 3 "$t/set_event" | tr '\n' ' ')...): not recording"
	{
		echo "tracing_on $(cat "$t/tracing_on")"
		# A buffer not yet expanded ("7 (expanded: 1408)") comes back at
		# the size it would have expanded to
		echo "buffer_size_kb $(sed 's/.*expanded: \([0-9]*\).*/\1/' "$t/buffer_size_kb" |
				       cut -d' ' -f1)"
		echo "trace_clock $(sed 's/.*\[\(.*\)\].*/\1/' "$t/trace_clock")"
		for se in $SW_RECORD_EVENTS; do
			d=$(sw_record_event_dir "$se")
			[ -f "$t/$d/filter" ] && echo "$d/filter $(head -n 1 "$t/$d/filter")"
		done
	} > "$work/saved"
}

# This machine's tracing as sw_record_host_save() found it: our events off,
# their filters, the clock and the buffer's size back, the buffer emptied
sw_record_host_restore()
{
	local t=$SW_RECORD_TRACEFS file value se d

	echo 0 > "$t/tracing_on"
	for se in $SW_RECORD_EVENTS; do
		d=$(sw_record_event_dir "$se")
		[ -f "$t/$d/enable" ] && echo 0 > "$t/$d/enable"
	done
	while read -r file value; do
		case "$file" in
		*/filter)	[ "$value" = none ] && value=0 ;;
		tracing_on)	continue ;;
		esac
		echo "$value" > "$t/$file"
	done < "$work/saved"
	echo > "$t/trace"
	awk '$1 == "tracing_on" { print $2 }' "$work/saved" > "$t/tracing_on"
	sw_log "record: this machine's tracing restored"
}

# The workload $1 on this machine, as a script: idle and tcp as in a guest
# (busybox's httpd serving), build a make -j$SW_JOBS of the user-space KUnit
# suites again and again for S seconds, then idle
sw_record_host_workload()
{
	mkdir -p "$work/bin"
	ln -sf "$(command -v busybox)" "$work/bin/httpd"
	if [ "$1" != build ]; then
		echo "PATH=$work/bin:\$PATH sh $SW_ROOT/selftests/shadow_wheel/real_traffic.sh" \
			"$seconds $idle $1"
		return
	fi
	cat <<BUILD_END
now() { cut -d. -f1 /proc/uptime; }
end=\$((\$(now) + $seconds))
n=0
while [ "\$(now)" -lt "\$end" ]; do
	rm -rf $work/build
	make -s -j$SW_JOBS -C $SW_ROOT/kunit/user O=$work/build all >/dev/null 2>&1 || exit 1
	n=\$((n + 1))
done
echo "real_traffic: build, \$n builds of the user-space KUnit suites"
sleep $idle
BUILD_END
}

# The recorder's lines of $work/console; with its exit status $1 not 0,
# the console's end and an error naming $2, where it ran
sw_record_ran()
{
	grep -a -E '^(record|real_traffic):' "$work/console"
	if [ "$1" -ne 0 ]; then
		tail -n 40 "$work/console" >&2
		sw_die "record: the $2 failed (exit status $1)"
	fi
}

# Record on this machine's own kernel into $work/trace.dat, the recorder
# in a mount namespace of its own (its bind mounts seen by it alone, gone
# with it) and this machine's tracing restored at exit, also on a signal
sw_record_host()
{
	[ "$(id -u)" -eq 0 ] || sw_die "recording this machine's kernel needs root"
	sw_need_packages busybox-static util-linux
	hz=$( (zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null) |
		sed -n 's/^CONFIG_HZ=//p')
	[ -n "$hz" ] || sw_die "this kernel's CONFIG_HZ is not known (no /proc/config.gz or /boot/config-*)"
	sw_record_host_save
	sw_at_exit sw_record_host_restore
	sw_record_host_workload "$workload" > "$work/workload.sh"
	sw_record_script "$work/rec" "sh $work/workload.sh" "$work/trace.dat" > "$work/record.sh"
	sw_log "record: $workload for ${seconds}s (then ${idle}s idle) on this machine, $(uname -r), HZ=$hz"
	unshare --mount --propagation private sh "$work/record.sh" > "$work/console" 2>&1
	sw_record_ran $? recorder
}

# Record in a guest of the matrix into $work/trace.dat: the recorder with
# Debian's trace-cmd staged in, its file back as base64 on the console
sw_record_vm()
{
	local config disk=()

	config=$(sw_vm_config "$kernel") || exit 1
	hz=$(sed -n 's/^CONFIG_HZ=//p' "$config")
	[ -n "$hz" ] || sw_die "no CONFIG_HZ in $config"
	sw_record_stage "$work/stage"
	{
		echo "export PATH=/opt/bin:\$PATH"
		sw_record_script /tmp/record "sh /real_traffic.sh $seconds $idle $workload" console
	} > "$work/guest.sh"
	[ "$workload" = disk ] || [ "$workload" = mix ] && disk=(--disk 256)

	sw_log "record: $workload for ${seconds}s (then ${idle}s idle) on the $kernel kernel, HZ=$hz"
	"$SW_ROOT/scripts/vm.sh" --kernel "$kernel" "${disk[@]}" --timeout $((4 * seconds + 900)) \
		--file "$work/stage/opt:/opt" --file "$work/stage/lib:/lib" \
		--file "$work/stage/lib64:/lib64" \
		--file "$SW_ROOT/selftests/shadow_wheel/real_traffic.sh" \
		"$work/guest.sh" > "$work/console"
	sw_record_ran $? guest
	sed -n '/^SW_TRACE_BEGIN$/,/^SW_TRACE_END$/p' "$work/console" | grep -v '^SW_TRACE_' |
		base64 -d > "$work/trace.dat" || sw_die "record: the trace did not come back whole"
}

kernel='' seconds='' idle=1 out='' check=0 host=0
sw_options check host 'kernel=.+' 'seconds=[1-9][0-9]*' 'idle=[0-9]+' 'out=.+' -- "$@"
shift "$sw_optind"

sw_need_packages trace-cmd
if [ $check -eq 1 ]; then
	[ $# -ge 1 ] || usage
	rc=0
	for f in "$@"; do
		sw_record_check "$f" || rc=1
	done
	exit $rc
fi

[ $# -eq 1 ] || usage
workload=$1
if [ $host -eq 1 ]; then
	[ -z "$kernel" ] || usage
	workloads=$SW_RECORD_HOST_WORKLOADS
	name=host
else
	kernel=${kernel:-debian}
	case " $SW_VM_KERNELS " in
	*" $kernel "*) ;;
	*) usage ;;
	esac
	workloads=$SW_RECORD_WORKLOADS
	name=$kernel
fi
case " $workloads " in
*" $workload "*) ;;
*) usage ;;
esac
if [ -z "$seconds" ]; then
	seconds=10
	[ "$workload" = idle ] && seconds=60
fi
if [ -z "$out" ]; then
	if [ $host -eq 1 ]; then
		out=$SW_ROOT/traces/host-$(uname -r | cut -d. -f1-2)-$workload.dat
	else
		out=$SW_ROOT/traces/$(sw_record_kernel_name "$kernel")-$workload.dat
	fi
fi
[ -d "$(dirname "$out")" ] || sw_die "no directory $(dirname "$out")"

work=$(mktemp -d)
sw_rm_at_exit "$work"
if [ $host -eq 1 ]; then
	sw_record_host
else
	sw_record_vm
fi
sw_record_check "$work/trace.dat" || sw_die "record: the trace fails its check"
mv "$work/trace.dat" "$out" || sw_die "cannot write $out"
sw_log "record: $out"
