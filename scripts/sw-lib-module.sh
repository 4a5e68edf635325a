# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# shadow_wheel.ko built for a test kernel, and the kernel headers it is
# built against.
# Part of the scripts' library: sw-lib.sh sources it.

# The headers of one of Debian's kernels (release $1, e.g. one that
# sw_debian_release names) with the packages they depend on for building
# (their common half and kbuild), fetched once with apt-get download and
# unpacked into the cache (never installed); prints the directory to build
# against
sw_debian_headers_dir()
{
	local release=$1 dir kdir tmp pkgs

	dir=$SW_CACHE/headers/$release
	kdir=$dir/usr/src/linux-headers-$release
	[ -f "$dir/.sw-unpacked" ] && { echo "$kdir"; return 0; }
	mkdir -p "$SW_CACHE/headers"
	sw_lock "$SW_CACHE/headers/.lock"
	if [ ! -f "$dir/.sw-unpacked" ]; then
		sw_log "fetching the headers of $release into $dir"
		pkgs=$(apt-cache depends "linux-headers-$release" 2>/dev/null |
		       sed -n 's/^ *|\{0,1\}Depends: \(linux-\(headers\|kbuild\)-[^ ]*\)$/\1/p' |
		       sort -u)
		[ -n "$pkgs" ] || sw_die "no package linux-headers-$release (apt-get update?)"
		tmp=$(mktemp -d "$SW_CACHE/headers/fetch.XXXXXX")
		# shellcheck disable=SC2086 # one word per package
		sw_fetch_unpack "$tmp" "linux-headers-$release" $pkgs
		# The headers include their common half by its installed path
		sed -i "s|^include /usr/src/|include $dir/usr/src/|" \
			"$tmp/root/usr/src/linux-headers-$release/Makefile" ||
			{ rm -rf "$tmp"; sw_die "no headers Makefile for $release"; }
		rm -rf "$dir"
		mv "$tmp/root" "$dir"
		rm -rf "$tmp"
		touch "$dir/.sw-unpacked"
	fi
	sw_unlock
	echo "$kdir"
}

# Where an out-of-tree module for a test kernel is built against (KDIR)
sw_module_kdir()
{
	local kdir

	case "$1" in
	uml)
		sw_uml_build_dir
		;;
	debian)
		kdir=/usr/src/linux-headers-$(sw_debian_kernel_release)
		[ -d "$kdir" ] || sw_die "no kernel headers at $kdir"
		echo "$kdir"
		;;
	debian-*)
		kdir=$(sw_debian_release "$1")
		[ -n "$kdir" ] || sw_die "cannot resolve the release of Debian's $1 kernel"
		sw_debian_headers_dir "$kdir"
		;;
	*)
		sw_vm_build_dir "$1"
		;;
	esac
}

# Build shadow_wheel.ko for a test kernel (one of SW_VM_KERNELS, or uml) with the
# repo's Kbuild, in a scratch copy of the repo under $SW_CACHE/module/ so no
# object lands in the repo; prints the path of the .ko. The copy is kept per
# kernel and checkout: a rebuild compiles only the files whose content
# changed.
sw_build_module()
{
	local kdir work log arch=()

	kdir=$(sw_module_kdir "$1") || exit 1
	[ "$1" = uml ] && arch=(ARCH=um)
	work=$SW_CACHE/module/$(basename "$kdir")-$(echo "$SW_ROOT" | sha1sum | cut -c1-8)
	log=$work/build.log
	sw_lock "$work.lock"
	mkdir -p "$work/src"
	rsync -rc --delete --exclude=/.git --exclude='*.o' --exclude='*.ko' \
		--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' --exclude='*.a' \
		--exclude=Module.symvers --exclude=modules.order --exclude='.tmp_*' \
		"$SW_ROOT/" "$work/src/" || sw_die "cannot copy the sources to $work/src"
	if ! make -C "$kdir" "${arch[@]}" M="$work/src" -j"$SW_JOBS" modules >"$log" 2>&1; then
		cat "$log" >&2
		sw_die "building shadow_wheel.ko for $1 ($kdir) failed"
	fi
	sw_unlock
	[ -f "$work/src/shadow_wheel.ko" ] || sw_die "no shadow_wheel.ko in $work/src"
	echo "$work/src/shadow_wheel.ko"
}
