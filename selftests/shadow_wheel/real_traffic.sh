#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Real kernel timer traffic that is not the module's, for a busybox guest:
#
#   real_traffic.sh [SECONDS] [IDLE_SECONDS]
#
# For SECONDS (default 10): many short TCP connections over loopback (each
# one a SYN, a FIN, TIME_WAIT, delayed ACKs: inet and tcp timers) and a
# bulk TCP stream beside them (retransmit and keepalive timers, socket
# buffers), from busybox httpd to wget; and, when /mnt is a real
# filesystem (scripts/vm.sh --disk), file writes with fsync on it (block
# I/O completion, the journal's commit timer, writeback's delayed work).
# Then IDLE_SECONDS (default 2) of nothing, where only the kernel's own
# periodic and deferrable timers run. Prints what it did, one line each.
set -u

seconds=${1:-10}
idle=${2:-2}
port=8080
www=/tmp/real_traffic.www

ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
mkdir -p "$www"
echo small > "$www/small"
dd if=/dev/zero of="$www/bulk" bs=1M count=16 2>/dev/null
httpd -f -p "127.0.0.1:$port" -h "$www" &
server=$!
sleep 1

end=$(($(cut -d. -f1 /proc/uptime) + seconds))
now()
{
	cut -d. -f1 /proc/uptime
}

# Short connections, back to back
(
	n=0
	while [ "$(now)" -lt "$end" ]; do
		wget -q -O /dev/null "http://127.0.0.1:$port/small" && n=$((n + 1))
	done
	echo "real_traffic: $n short TCP connections"
) &
short=$!

# A bulk stream, one large transfer after the other
(
	n=0
	while [ "$(now)" -lt "$end" ]; do
		wget -q -O /dev/null "http://127.0.0.1:$port/bulk" && n=$((n + 1))
	done
	echo "real_traffic: $((n * 16)) MB streamed"
) &
bulk=$!

# Writes with fsync on a journaling filesystem
disk=
if grep -q ' /mnt ext4 ' /proc/mounts; then
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

wait $short $bulk $disk
kill $server 2>/dev/null
wait $server 2>/dev/null
rm -rf "$www"
sleep "$idle"
echo "real_traffic: ${seconds} s of traffic, ${idle} s idle"
