# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Test kernels under QEMU, for scripts/vm.sh and scripts/selftests.sh.
# Part of the scripts' library: sw-lib.sh sources it.

# The kernel matrix. Debian's are unpacked from their packages into
# $SW_CACHE/debian/<release>/ (never installed), the module built against
# their headers; ours are the x86_64 KUnit kernels.
#
#   debian          Debian's 6.1 (HZ=250, NO_HZ_FULL)
#   debian-rt       Debian's 6.1 PREEMPT_RT
#   debian-6.12     Debian's 6.12 LTS (HZ=250, NO_HZ_FULL)
#   debian-6.12-rt  Debian's 6.12 LTS PREEMPT_RT
#   hz1000          our x86_64 HZ=1000 kernel (the hz1000 KUnit kernel)
#   debug           our x86_64 HZ=250 debug kernel (the hz250 KUnit kernel)
# shellcheck disable=SC2034 # used by the scripts that source this
SW_VM_KERNELS="debian debian-rt debian-6.12 debian-6.12-rt hz1000 debug"

# Test kernels run on request only, not in the matrix (a kernel named on
# the command line of vm.sh or selftests.sh):
#   kcsan           our x86_64 HZ=250 KCSAN kernel (the kcsan KUnit kernel)
# shellcheck disable=SC2034 # used by the scripts that source this
SW_VM_EXTRA_KERNELS="kcsan"

# The first line of the oops of a CPU that met an int3 in the kernel: 6.1
# prints "int3: 0000 [#1] ...", 6.12 "Oops: int3: 0000 [#1] ..." (extended
# regexp). Under multi-threaded TCG it is most likely a breakpoint of the
# kernel's text patching met after it was taken out (sw_vm_stale_int3())
# shellcheck disable=SC2034 # used by the scripts that source this
SW_VM_INT3='int3: [0-9a-f]{4} \[#'

# Console lines that are kernel splats (extended regexp)
# shellcheck disable=SC2034 # used by the scripts that source this
SW_VM_SPLATS='BUG:|WARNING:|Oops|general protection fault|Kernel panic|ODEBUG:'
SW_VM_SPLATS+='|kernel BUG at|possible circular locking|possible recursive locking'
SW_VM_SPLATS+='|inconsistent lock state|bad unlock balance|suspicious RCU usage'
SW_VM_SPLATS+='|UBSAN:|list_add corruption'
SW_VM_SPLATS+='|list_del corruption|rcu_.* detected stalls|rcu_.* self-detected stall'
SW_VM_SPLATS+='|INFO: task .* blocked|hard LOCKUP'
SW_VM_SPLATS+="|$SW_VM_INT3"

# Boot-time lines that match but are no splats: CPU vulnerability notes
# under TCG's emulated CPU
# shellcheck disable=SC2034 # used by the scripts that source this
SW_VM_NOT_SPLATS='(Spectre V2|RETBleed|MMIO Stale Data|MDS|TAA|GDS|SRBDS|Speculative Return Stack Overflow|ITS|VMSCAPE) *: WARNING:'
# and lines of base64 alone, such as a file sent over the console
# (scripts/record-trace.sh: a trace of a million events is 9 MB of it,
# where "Oops" comes up by chance; a splat line has spaces or colons)
SW_VM_NOT_SPLATS+='|^[A-Za-z0-9+/]+=*$'

# The lines of the console log $1 that are kernel splats by their text
# alone (vm.sh's sw_vm_splats() then drops the ones that are not the guest's)
sw_vm_splat_lines()
{
	grep -aE "$SW_VM_SPLATS" "$1" | grep -avE "$SW_VM_NOT_SPLATS"
}

# Whether the first splat of the console log $1 is the oops of a CPU that
# met an int3 no text_poke_bp() was patching any more. The kernel takes its
# breakpoints out before it ends a patch and waits for every CPU to have
# passed a serializing instruction; multi-threaded TCG can still run a
# translation of the patch's middle state on another vCPU. Seen at boot on
# Debian's 6.12-rt before anything of the module was loaded (a static key
# of sched_clock), in __schedule() while the mirror's probes were
# registered, and booting 6.12 with 16 vCPUs; never single-threaded. The
# same breakpoint can instead hold a vCPU in the int3 handler for good (the
# patched site of a timer tracepoint, Debian's 6.1-rt starting the
# mirror): the first splat is then a stall or lockup report, and a
# backtrace shows that CPU at the handler's first instruction. The scripts
# run such a guest again with -accel tcg,thread=single.
sw_vm_stale_int3()
{
	local first

	first=$(sw_vm_splat_lines "$1" | head -n 1)
	echo "$first" | grep -aqE "$SW_VM_INT3" && return 0
	echo "$first" | grep -aqE 'detected stalls|self-detected stall|soft lockup|hard LOCKUP' &&
		grep -aqE 'RIP: [0-9a-f]{4}:asm_exc_int3\+0x0/' "$1"
}

# Whether $1 is a test kernel vm.sh can boot
sw_vm_known_kernel()
{
	case " $SW_VM_KERNELS $SW_VM_EXTRA_KERNELS " in
	*" $1 "*)	return 0 ;;
	*)		return 1 ;;
	esac
}

# Whether $1 is one of Debian's kernels (not one of ours)
sw_vm_is_debian()
{
	case "$1" in
	debian|debian-*)	return 0 ;;
	*)			return 1 ;;
	esac
}

# The KUnit kernel (scripts/kunit.sh) behind one of our test kernels
sw_vm_kunit_kernel()
{
	case "$1" in
	hz1000)
		echo hz1000
		;;
	debug)
		echo hz250
		;;
	kcsan)
		echo kcsan
		;;
	*)
		return 1
		;;
	esac
}

# The build directory of one of our test kernels, building it (and running
# its KUnit suites) with scripts/kunit.sh first if it has no bzImage yet
sw_vm_build_dir()
{
	local kunit build

	kunit=$(sw_vm_kunit_kernel "$1") || sw_die "unknown kernel '$1'"
	build=$(sw_kunit_build_dir "$kunit")
	if [ ! -f "$build/arch/x86/boot/bzImage" ] || [ ! -f "$build/Module.symvers" ]; then
		sw_log "no $kunit kernel in $build: running scripts/kunit.sh $kunit"
		"$SW_ROOT/scripts/kunit.sh" "$kunit" >&2
		[ -f "$build/arch/x86/boot/bzImage" ] || sw_die "building the $kunit kernel failed"
		[ -f "$build/Module.symvers" ] ||
			sw_die "the $kunit kernel in $build has no Module.symvers (CONFIG_MODULES?)"
	fi
	echo "$build"
}

# The kernel image QEMU boots for a test kernel (for Debian's, the vmlinux
# when there is one)
sw_vm_kernel_image()
{
	local dir

	case "$1" in
	debian|debian-*)
		dir=$(sw_debian_kernel_dir "$1") || exit 1
		sw_debian_vmlinux "$1" | grep . ||
			echo "$dir/boot/vmlinuz-$(sw_debian_release "$1")"
		;;
	*)
		dir=$(sw_vm_build_dir "$1") || exit 1
		echo "$dir/arch/x86/boot/bzImage"
		;;
	esac
}

# The configuration file of a test kernel, on the host: the one Debian's
# image package ships (/boot/config-RELEASE), or our build's .config
sw_vm_config()
{
	local dir

	if sw_vm_is_debian "$1"; then
		dir=$(sw_debian_kernel_dir "$1") || exit 1
		echo "$dir/boot/config-$(sw_debian_release "$1")"
	else
		dir=$(sw_vm_build_dir "$1") || exit 1
		echo "$dir/.config"
	fi
}

# The metapackage that names the release of one of Debian's kernels
sw_debian_metapackage()
{
	case "$1" in
	debian)		echo linux-image-amd64 ;;
	debian-rt)	echo linux-image-rt-amd64 ;;
	debian-6.12)	echo linux-image-6.12-amd64 ;;
	debian-6.12-rt)	echo linux-image-6.12-rt-amd64 ;;
	*)		return 1 ;;
	esac
}

# The release of one of Debian's kernels (6.1.0-57-amd64,
# 6.12.118+deb12-rt-amd64...): for debian, the one of the installed 6.1
# headers the module builds against by default; for the others, the one
# their metapackage names
sw_debian_release()
{
	local meta

	[ "$1" = debian ] && { sw_debian_kernel_release; return; }
	meta=$(sw_debian_metapackage "$1") || sw_die "no Debian kernel '$1'"
	apt-cache depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*\)$/\1/p' | head -n 1
}

# The image of one of Debian's kernels ($1), fetched once with apt-get
# download and unpacked with dpkg -x into the cache (never installed);
# prints the directory
sw_debian_kernel_dir()
{
	local release dir pkg tmp

	release=$(sw_debian_release "$1")
	[ -n "$release" ] || sw_die "cannot resolve the release of Debian's $1 kernel"
	dir=$SW_CACHE/debian/$release
	pkg=linux-image-$release
	[ -f "$dir/.sw-unpacked" ] && { echo "$dir"; return 0; }
	mkdir -p "$SW_CACHE/debian"
	sw_lock "$SW_CACHE/debian/.lock"
	if [ ! -f "$dir/.sw-unpacked" ]; then
		sw_log "fetching $pkg into $dir"
		tmp=$(mktemp -d "$SW_CACHE/debian/fetch.XXXXXX")
		sw_fetch_unpack "$tmp" "$pkg"
		[ -f "$tmp/root/boot/vmlinuz-$release" ] ||
			{ rm -rf "$tmp"; sw_die "$pkg has no boot/vmlinuz-$release"; }
		rm -rf "$dir"
		mv "$tmp/root" "$dir"
		rm -rf "$tmp"
		touch "$dir/.sw-unpacked"
	fi
	sw_unlock
	echo "$dir"
}

# One of Debian's kernels ($1) as an uncompressed ELF vmlinux, taken once
# out of its xz-compressed vmlinuz; prints its path, or nothing if that
# failed. QEMU boots it through its PVH entry (CONFIG_PVH=y), which saves
# the 7 s the decompressor takes under TCG.
sw_debian_vmlinux()
{
	local dir release vmlinuz vmlinux off

	dir=$(sw_debian_kernel_dir "$1") || exit 1
	release=$(sw_debian_release "$1")
	vmlinuz=$dir/boot/vmlinuz-$release
	vmlinux=$dir/boot/vmlinux-$release
	if [ ! -f "$vmlinux" ]; then
		sw_lock "$SW_CACHE/debian/.lock"
		off=$(LC_ALL=C grep -abo $'\xfd7zXZ\x00' "$vmlinuz" | head -n 1 | cut -d: -f1)
		if [ -n "$off" ] && [ ! -f "$vmlinux" ]; then
			tail -c +$((off + 1)) "$vmlinuz" | xz -dcq > "$vmlinux.tmp" 2>/dev/null
			# xz complains about the data after the stream: check the
			# result has the PVH entry note (Xen note type 18)
			if readelf -n "$vmlinux.tmp" 2>/dev/null |
			   grep -qE 'Xen .*\(0x00000012\)'; then
				mv "$vmlinux.tmp" "$vmlinux"
			else
				rm -f "$vmlinux.tmp"
			fi
		fi
		sw_unlock
	fi
	[ -f "$vmlinux" ] && echo "$vmlinux"
	return 0
}

# The loadable modules one of Debian's kernels ($1) needs to provide the
# modules $2..., with their dependencies, in the order to insmod them, one
# path per line (built-in ones give none). depmod runs once over the
# unpacked image in the cache: the package ships no modules.dep.
sw_debian_kmods()
{
	local kernel=$1 dir release
	shift

	dir=$(sw_debian_kernel_dir "$kernel") || exit 1
	release=$(sw_debian_release "$kernel")
	if [ ! -f "$dir/lib/modules/$release/modules.dep" ]; then
		sw_lock "$SW_CACHE/debian/.lock"
		[ -f "$dir/lib/modules/$release/modules.dep" ] || depmod -b "$dir" "$release" ||
			sw_die "depmod failed over $dir"
		sw_unlock
	fi
	modprobe -d "$dir" -S "$release" --show-depends -a "$@" |
		awk '$1 == "insmod" && !seen[$2]++ { print $2 }'
	[ "${PIPESTATUS[0]}" -eq 0 ] || sw_die "$kernel: cannot resolve modules $*"
}
