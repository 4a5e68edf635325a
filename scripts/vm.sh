#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a test kernel in QEMU (TCG) with a busybox initramfs, run a shell
# script inside it and return the script's exit status:
#
#   scripts/vm.sh [--kernel K] [--smp N] [--mem MB] [--disk MB]
#                 [--timeout SECONDS] [--file SRC[:DEST]]... GUEST_SCRIPT
#
#   K: one of the kernel matrix (SW_VM_KERNELS in sw-lib-vm.sh)
#   debian          Debian's 6.1 (default; HZ=250, NO_HZ_FULL)
#   debian-rt       Debian's 6.1 PREEMPT_RT
#   debian-6.12     Debian's 6.12 LTS
#   debian-6.12-rt  Debian's 6.12 LTS PREEMPT_RT
#   hz1000          our x86_64 HZ=1000 kernel
#   debug           our x86_64 HZ=250 debug kernel (lockdep, KASAN, kmemleak...)
#   kcsan           our x86_64 HZ=250 KCSAN kernel (data races), on request
#
# Nothing is loaded: the guest gets shadow_wheel.ko built for that kernel as
# /shadow_wheel.ko, each --file SRC (a file or a directory) as DEST (default
# /<basename>) and the script as /guest.sh, run by /init with "sh /guest.sh"
# once proc, sysfs, devtmpfs, debugfs, tracefs (if the kernel has it) and a
# tmpfs on /tmp are mounted. With kmemleak, /init then scans twice and
# prints what it found. --disk MB gives the guest a virtio disk of that
# size with a fresh ext4 filesystem, mounted on /mnt (on Debian's kernels
# /init first loads the modules it takes from the image), for real block
# I/O and journal traffic.
#
# For debugging, SW_VM_APPEND adds to the kernel's command line (e.g.
# nokaslr) and SW_VM_QEMU_ARGS to QEMU's (e.g. a -monitor socket, to read
# the CPUs' registers of a guest that hangs).
#
# The console goes to stdout. The exit status is the script's, or 124 on a
# timeout, 125 if the guest never reported one (a crash), 3 if the script
# passed but the console shows a kernel splat (each is printed on stderr as
# "vm: splat: <line>"). A KCSAN report is a splat when one of the two racing
# accesses is the module's; the kernel's own races are counted apart. On a
# kernel with lockdep, lockdep off at the end of the run is said loudly
# ("vm: WARNING: ..."): it turns itself off after its first report, and
# checked nothing after it. It fails no run, as the console's own report
# under TCG turns it off (docs/testing.rst).
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 [--kernel K] [--smp N] [--mem MB] [--disk MB]" \
	     "[--timeout SECONDS] [--file SRC[:DEST]]... GUEST_SCRIPT" >&2
	echo "K: $SW_VM_KERNELS $SW_VM_EXTRA_KERNELS" >&2
	exit 2
}

# The guest prints this, then the script's exit status, as its last word
SW_VM_MARKER=SW_GUEST_EXIT

# /init: mount what tests need, run /guest.sh, scan for leaks, power off
sw_vm_init()
{
	cat <<EOF
#!/bin/sh
export PATH=/sbin:/bin:/usr/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec </dev/console >/dev/console 2>&1
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp
# What kmemleak suspects from boot is not ours: scan and forget it. Then
# stop its automatic scans: one takes tens of seconds on the debug kernel
# under TCG and keeps a CPU busy, which the idle test must not find busy;
# the scans after the script are the ones that count
if [ -e /sys/kernel/debug/kmemleak ]; then
	echo scan > /sys/kernel/debug/kmemleak
	echo clear > /sys/kernel/debug/kmemleak
	echo scan=off > /sys/kernel/debug/kmemleak
fi
# The disk of --disk: its modules (Debian's kernels), then /dev/vda on /mnt
for m in /kmod/*.ko; do
	# A soft dependency the emulated CPU lacks (crc32c-intel) fails
	[ -e "\$m" ] && { insmod "\$m" 2>/dev/null || echo "vm: \$m not loaded"; }
done
if [ -e /kmod ]; then
	i=0
	while [ ! -b /dev/vda ] && [ \$i -lt 50 ]; do
		sleep 0.1
		i=\$((i + 1))
	done
	mkdir -p /mnt
	mount -t ext4 /dev/vda /mnt || echo "vm: cannot mount the disk"
fi
echo "SW_GUEST_START uptime \$(cut -d' ' -f1 /proc/uptime)"
cd /
sh /guest.sh </dev/null
rc=\$?
if [ -e /sys/kernel/debug/kmemleak ]; then
	echo "SW_GUEST_KMEMLEAK scanning"
	echo scan > /sys/kernel/debug/kmemleak
	sleep 5
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak
fi
# Whether lockdep still checks (kernels with lockdep): it turns itself off
# after its first report, whatever reported
[ -r /proc/lockdep_stats ] &&
	echo "SW_GUEST_DEBUG_LOCKS=\$(sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats)"
echo "$SW_VM_MARKER=\$rc"
# Our kernels have no ACPI, so they cannot power off: a reboot ends QEMU
# (-no-reboot) on every kernel
reboot -f
sleep 5
poweroff -f
EOF
}

# Put busybox, /init, the module, the files and the guest script into the
# directory $1 ($2: the .ko, $3: the script, then SRC[:DEST] pairs)
sw_vm_fill_root()
{
	local root=$1 ko=$2 script=$3 spec src dest applet
	shift 3

	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,root}
	cp /bin/busybox "$root/bin/busybox" || sw_die "no /bin/busybox"
	for applet in $(/bin/busybox --list-full); do
		[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
	done
	sw_vm_init > "$root/init"
	chmod 755 "$root/init"
	cp "$ko" "$root/shadow_wheel.ko" || sw_die "cannot copy $ko"
	cp "$script" "$root/guest.sh" || sw_die "cannot copy $script"
	[ -n "$disk" ] && sw_vm_fill_kmods "$root/kmod"
	for spec in "$@"; do
		src=${spec%%:*}
		dest=/$(basename "$src")
		[ "$src" = "$spec" ] || dest=${spec#*:}
		dest=/${dest#/}
		case "$dest" in
		/proc|/proc/*|/sys|/sys/*|/dev|/dev/*|/tmp|/tmp/*)
			sw_die "--file $spec: $dest is mounted over in the guest"
			;;
		esac
		[ -e "$src" ] || sw_die "--file $spec: no $src"
		mkdir -p "$root$(dirname "$dest")"
		rm -rf "${root:?}$dest"
		cp -a "$src" "$root$dest" || sw_die "cannot copy $src"
	done
}

# The modules the disk needs into the directory $1, numbered in load order
# and uncompressed (busybox insmod takes plain .ko files); none for our
# kernels, which have them built in
sw_vm_fill_kmods()
{
	local dir=$1 n=10 path

	mkdir -p "$dir"
	sw_vm_is_debian "$kernel" || return 0
	for path in $(sw_debian_kmods "$kernel" virtio_pci virtio_blk ext4); do
		case "$path" in
		*.xz)	xz -dc "$path" > "$dir/$n-$(basename "$path" .xz)" ;;
		*)	cp "$path" "$dir/$n-$(basename "$path")" ;;
		esac || sw_die "cannot copy $path"
		n=$((n + 1))
	done
}

# A sparse file of $2 MB at $1 holding an empty ext4 filesystem
sw_vm_make_disk()
{
	{ truncate -s "${2}M" "$1" && mkfs.ext4 -q -F "$1" >/dev/null; } ||
		sw_die "cannot make the disk image $1"
}

# Pack the directory $1 into the gzipped newc initramfs $2
sw_vm_initramfs()
{
	(cd "$1" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$2" ||
		sw_die "cannot build the initramfs"
}

# Boot the kernel image $1 with initramfs $2 under a timeout; the console, without
# carriage returns, goes to stdout and to the log $3. Returns QEMU's status.
sw_vm_boot()
{
	local image=$1 initrd=$2 log=$3 bios=() drive=() cmdline

	# A stalled guest panics (and QEMU exits) after the stall report, not
	# at the run's timeout: a stall is a splat, a failed run, either way
	cmdline="console=ttyS0 panic=-1 printk.time=1 sysctl.kernel.panic_on_rcu_stall=1"
	cmdline+=" ${SW_VM_APPEND:-}"
	# Ours have the KUnit suites built in: they ran when the kernel was built
	sw_vm_is_debian "$kernel" || cmdline+=" kunit.enable=0"
	# qboot starts the kernel faster than SeaBIOS. --foreground: in a
	# terminal, Ctrl-C reaches QEMU too
	[ -f /usr/share/qemu/qboot.rom ] && bios=(-bios qboot.rom)
	[ -n "$disk" ] && drive=(-drive "file=$work/disk.img,if=virtio,format=raw")
	# shellcheck disable=SC2086 # SW_VM_QEMU_ARGS: one word per argument
	timeout --foreground -k 10 "$timeout" qemu-system-x86_64 -accel "${SW_VM_ACCEL:-tcg}" -smp "$smp" -m "$mem" \
		"${bios[@]}" "${drive[@]}" -nodefaults -nographic -no-reboot -serial stdio \
		-kernel "$image" -initrd "$initrd" -append "$cmdline" ${SW_VM_QEMU_ARGS:-} \
		</dev/null | sed -u 's/\r//g' | tee "$log"
	return "${PIPESTATUS[0]}"
}

# The "Invalid wait context" reports of the console log $1 that are the
# kernel's own console, not ours: a printk from hard interrupt context
# (e.g. "hrtimer: interrupt took ... ns" in a slow guest) reaches the 8250
# console's port lock, a spinlock_t, which PROVE_RAW_LOCK_NESTING reports
# on 6.1 whoever printed
sw_vm_console_nesting()
{
	awk '
	/BUG: Invalid wait context/ { bug = $0; left = 6; next }
	left > 0 && /port_lock_key.*serial8250_console_write/ { print bug; left = 0; next }
	left > 0 { left-- }
	' "$1"
}

# KCSAN's reports of the console log $1 ("BUG: KCSAN: data-race in A / B")
# that are not about the module: neither racing access was made by a
# function of shadow_wheel. They are the kernel's own races, which the
# kcsan kernel finds under TCG in its scheduler, RCU and timer code; they
# are counted on stderr, not taken for splats.
sw_vm_kcsan_not_ours()
{
	grep -a 'BUG: KCSAN: ' "$1" | grep -av '\[shadow_wheel\]'
}

# A line if the console log $1 says lockdep was off at the end of the run
# (debug_locks 0, on a kernel with lockdep): it turns itself off after its
# first report, so the rest of the run checked no lock, and a
# report not counted as a splat (the kernel's console) hides that
sw_vm_lockdep_off()
{
	local why=''

	grep -aq '^SW_GUEST_DEBUG_LOCKS=0' "$1" || return 0
	[ -n "$(sw_vm_console_nesting "$1")" ] &&
		why=" after its report of the kernel's console (Invalid wait context)"
	echo "lockdep turned itself off during the run$why (debug_locks=0): locks went unchecked from then on"
}

# The splats on the console log $1, one per line
sw_vm_splats()
{
	local console kcsan

	console=$(sw_vm_console_nesting "$1")
	kcsan=$(sw_vm_kcsan_not_ours "$1")
	sw_vm_splat_lines "$1" |
		{ if [ -n "$console" ]; then grep -avxF "$console"; else cat; fi; } |
		{ if [ -n "$kcsan" ]; then grep -avxF "$kcsan"; else cat; fi; }
	sw_vm_leaks "$1"
}

# The objects kmemleak reports as leaked by the module, from the console
# log $1: a report ("unreferenced object ...", its hex dump and backtrace)
# counts when its backtrace has a function of shadow_wheel in it. The
# debug kernel's own early boot allocations (ACPI's caches) show up too,
# late and whatever /init does, and are not ours.
sw_vm_leaks()
{
	awk '
	/unreferenced object/ { if (ours) print head; head = $0; ours = 0; inrep = 1; next }
	inrep && /\[shadow_wheel\]|sw_[a-z_]+\+0x/ { ours = 1 }
	inrep && !/^ / && !/unreferenced object/ { if (ours) print head; inrep = 0; ours = 0 }
	END { if (ours) print head }
	' "$1"
}

# The exit status for console log $1 and QEMU status $2, reported on stderr
sw_vm_status()
{
	local log=$1 qemu_rc=$2 rc splats up line kcsan

	splats=$(sw_vm_splats "$log")
	line=$(sw_vm_lockdep_off "$log")
	[ -z "$line" ] || echo "vm: WARNING: $line" >&2
	kcsan=$(sw_vm_kcsan_not_ours "$log" | wc -l)
	[ "$kcsan" -eq 0 ] ||
		sw_log "vm: $kcsan KCSAN reports of the kernel's own races (none in shadow_wheel)"
	rc=$(grep -ao "$SW_VM_MARKER=[0-9]\+" "$log" | tail -n 1 | cut -d= -f2)
	up=$(grep -ao 'SW_GUEST_START uptime [0-9.]*' "$log" | head -n 1 | awk '{print $3}')
	sw_log "vm: $kernel: init at ${up:-?} s of guest uptime;" \
	       "QEMU ran $((SECONDS - boot_start)) s, $((SECONDS - start)) s in all"
	if [ "$qemu_rc" -eq 124 ] || [ "$qemu_rc" -eq 137 ]; then
		sw_log "vm: timed out after $timeout s"
		rc=124
	elif [ -z "$rc" ]; then
		[ "$qemu_rc" -eq 0 ] || sw_log "vm: qemu failed (status $qemu_rc)"
		sw_log "vm: the guest reported no exit status (crashed?)"
		rc=125
	fi
	if [ -n "$splats" ]; then
		while IFS= read -r line; do
			echo "vm: splat: $line" >&2
		done <<< "$splats"
		[ "$rc" -eq 0 ] && rc=3
	fi
	sw_log "vm: exit status $rc"
	return "$rc"
}

kernel=debian smp=2 mem='' disk='' timeout=600 file=()
sw_options 'kernel=.+' 'smp=[1-9][0-9]*' 'mem=[1-9][0-9]*' 'disk=[1-9][0-9]*' \
	'timeout=[1-9][0-9]*' 'file+=.+' -- "$@"
shift "$sw_optind"
[ $# -eq 1 ] || usage
script=$1
[ -f "$script" ] || sw_die "no guest script $script"
sw_vm_known_kernel "$kernel" || usage
if [ -z "$mem" ]; then
	mem=1024
	[ "$kernel" = debug ] && mem=2048
	# The per-CPU data of a guest with many CPUs
	[ "$smp" -le 2 ] || mem=$((mem + 64 * (smp - 2)))
fi

start=$SECONDS
sw_need_vm
ko=$(sw_build_module "$kernel") || exit 1
image=$(sw_vm_kernel_image "$kernel") || exit 1
work=$(mktemp -d)
sw_rm_at_exit "$work"
sw_vm_fill_root "$work/root" "$ko" "$script" "${file[@]}"
[ -n "$disk" ] && sw_vm_make_disk "$work/disk.img" "$disk"
sw_vm_initramfs "$work/root" "$work/initrd.gz"
sw_log "vm: booting $kernel ($image), $smp CPUs, $mem MB"
boot_start=$SECONDS
sw_vm_boot "$image" "$work/initrd.gz" "$work/console.log"
sw_vm_status "$work/console.log" $?
