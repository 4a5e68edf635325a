#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Real kernel timer traffic that is not the module's, for a busybox guest:
#
#   real_traffic.sh [SECONDS] [IDLE_SECONDS] [WORKLOAD]
#
# For SECONDS (default 10), WORKLOAD (default mix):
#   tcp   many short TCP connections over loopback (each one a SYN, a FIN,
#         TIME_WAIT, delayed ACKs: inet and tcp timers) and a bulk TCP
#         stream beside them (retransmit and keepalive timers, socket
#         buffers), from busybox httpd to wget
#   disk  file writes with fsync on the ext4 filesystem on /mnt
#         (scripts/vm.sh --disk): block I/O completion, the journal's
#         commit timer, writeback's delayed work
#   mix   tcp, and disk when /mnt is an ext4 filesystem
#   idle  nothing
# Then IDLE_SECONDS (default 2) of nothing, where only the kernel's own
# periodic and deferrable timers run. Prints what it did, one line each.
set -u

seconds=${1:-10}
idle=${2:-2}
workload=${3:-mix}
port=8080
www=/tmp/real_traffic.www

for n in "$seconds" "$idle"; do
	case "$n" in
	''|*[!0-9]*)
		echo "real_traffic: SECONDS and IDLE_SECONDS are whole numbers, not '$n'" >&2
		exit 2
		;;
	esac
done
ext4=0
grep -q ' /mnt ext4 ' /proc/mounts && ext4=1
case "$workload" in
tcp|idle|mix)
	;;
disk)
	if [ $ext4 -eq 0 ]; then
		echo "real_traffic: disk needs an ext4 filesystem on /mnt" >&2
		exit 2
	fi
	;;
*)
	echo "real_traffic: unknown workload '$workload' (tcp, disk, mix, idle)" >&2
	exit 2
	;;
esac

now()
{
	cut -d. -f1 /proc/uptime
}

# Fetch /$1 from the server again and again until $end; print how many times
fetch_until_end()
{
	n=0
	while [ "$(now)" -lt "$end" ]; do
		wget -q -O /dev/null "http://127.0.0.1:$port/$1" && n=$((n + 1))
	done
	echo "$n"
}

short=
bulk=
disk=
server=

# Short connections, back to back, and a bulk stream, one large transfer
# after the other
if [ "$workload" = tcp ] || [ "$workload" = mix ]; then
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
	mkdir -p "$www"
	echo small > "$www/small"
	dd if=/dev/zero of="$www/bulk" bs=1M count=16 2>/dev/null
	httpd -f -p "127.0.0.1:$port" -h "$www" &
	server=$!
	sleep 1
fi
end=$(($(now) + seconds))
if [ -n "$server" ]; then
	echo "real_traffic: $(fetch_until_end small) short TCP connections" &
	short=$!
	echo "real_traffic: $(($(fetch_until_end bulk) * 16)) MB streamed" &
	bulk=$!
fi

# Writes with fsync on a journaling filesystem
if [ "$workload" = disk ] || { [ "$workload" = mix ] && [ $ext4 -eq 1 ]; }; then
	(
		n=0
		while [ "$(now)" -lt "$end" ]; do
			dd if=/dev/zero of=/mnt/real_traffic bs=64k count=16 conv=fsync \
				2>/dev/null && n=$((n + 1))
			rm -f /mnt/real_traffic
		done
		sync
		echo "real_traffic: $n fsynced 1 MB writes on /mnt"
	) &
	disk=$!
fi

[ "$workload" = idle ] && sleep "$seconds"
# shellcheck disable=SC2086 # the jobs that were started, one word each
wait $short $bulk $disk
if [ -n "$server" ]; then
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	rm -rf "$www"
fi
sleep "$idle"
echo "real_traffic: $workload, ${seconds} s of traffic, ${idle} s idle"
