# SPDX-License-Identifier: GPL-2.0
#
# Shared by the shadow-wheel scripts: where things are cached, the packages
# they need and the kernel sources they build. Source it, do not run it.

SW_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Kernels are built once and kept here, keyed by source version and config
SW_CACHE=${SW_CACHE:-/var/cache/shadow-wheel}
SW_JOBS=${SW_JOBS:-$(nproc)}

sw_log()
{
	echo "[$(date +%T)] $*" >&2
}

sw_die()
{
	echo "error: $*" >&2
	exit 1
}

# How long an apt-get call waits in all for the locks of another package
# manager at work on the machine (an apt-get, dpkg or an automatic update),
# in seconds
SW_APT_LOCK_WAIT=${SW_APT_LOCK_WAIT:-600}

# apt-get with the arguments $@, waiting for the package manager's locks up to
# SW_APT_LOCK_WAIT seconds in all, so that another one at work does not fail
# the caller. apt-get waits for the dpkg locks (/var/lib/dpkg/lock-frontend,
# lock) itself with DPkg::Lock::Timeout, but apt 2.6 has no wait for the
# lock of the lists (/var/lib/apt/lists/lock, apt-get update) or of the
# archives (/var/cache/apt/archives/lock, downloads): a run that fails on
# one of those ("Could not get lock") is tried again until the time is up.
# Returns apt-get's status.
sw_apt_get()
{
	local deadline=$((SECONDS + SW_APT_LOCK_WAIT)) err rc waiting=''

	err=$(mktemp) || return 1
	while :; do
		DEBIAN_FRONTEND=noninteractive apt-get \
			-o DPkg::Lock::Timeout=$((deadline > SECONDS ? deadline - SECONDS : 0)) \
			"$@" 2>"$err"
		rc=$?
		if [ "$rc" -eq 0 ] || [ "$SECONDS" -ge "$deadline" ] ||
		   ! grep -q '^E: Could not get lock' "$err"; then
			cat "$err" >&2
			break
		fi
		[ -n "$waiting" ] ||
			sw_log "apt-get $1: $(grep -m 1 '^E: Could not get lock' "$err" | cut -c4-):" \
			       "waiting up to $((deadline - SECONDS)) s"
		waiting=1
		sleep 5
	done
	rm -f "$err"
	return "$rc"
}

# apt-get update, tried a second time if it fails (a mirror that was being
# synced, a network hiccup)
sw_apt_update()
{
	sw_apt_get update -q >&2 && return 0
	sw_log "apt-get update failed: trying once more in 10 s"
	sleep 10
	sw_apt_get update -q >&2
}

# Install the Debian packages that are missing, if any
sw_need_packages()
{
	local missing=() p

	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || sw_die "need packages: ${missing[*]} (run as root to install)"
	sw_log "installing ${missing[*]}"
	sw_apt_update || sw_die "apt-get update failed"
	sw_apt_get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
		sw_die "apt-get install ${missing[*]} failed"
}

# gnuplot, its commands on stdin, into the PNG $1 ($2 by $3 pixels); the
# commands may change the terminal after the picture (a text copy)
sw_gnuplot_png()
{
	sw_need_packages gnuplot-nox
	{
		printf "set terminal pngcairo size %s,%s\nset output '%s'\n" "$2" "$3" "$1"
		cat
	} | gnuplot || sw_die "gnuplot failed ($1)"
}

# What building kernels and running them under UML and QEMU needs
sw_need_kernel_build()
{
	sw_need_packages linux-source-6.1 linux-source-6.12 build-essential flex bison bc \
		libelf-dev libssl-dev python3 qemu-system-x86 qemu-system-data ccache rsync \
		cpio xz-utils kmod
}

# What building the module and linting it needs (Debian's headers included)
sw_need_module_build()
{
	sw_need_packages build-essential linux-headers-amd64 sparse linux-source-6.1 rsync
}

# 6.1.0-NN-amd64: the release of Debian's current 6.1 kernel, as named by the
# linux-headers-amd64 metapackage (empty if that is not installed)
sw_debian_kernel_release()
{
	dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
		grep -o 'linux-headers-6\.1\.[0-9]*-[0-9]*-amd64' | head -n 1 |
		sed 's/^linux-headers-//'
}

# The version of Debian's linux-source-SERIES (6.1, 6.12) that is installed
sw_source_version()
{
	dpkg-query -W -f='${db:Status-Abbrev}${Version}' "linux-source-$1" 2>/dev/null |
		sed -n 's/^ii *//p' | grep .
}

# Debian's linux-source-SERIES, unpacked once into the cache; prints its
# path. The tree is unpacked whole into a scratch directory and renamed into
# place with its mark, so a second caller at the same time either sees it
# complete or loses the rename and uses the winner's.
sw_kernel_source()
{
	local series=$1 ver src tmp

	ver=$(sw_source_version "$series") || sw_die "linux-source-$series is not installed"
	src=$SW_CACHE/src/linux-source-$ver
	if [ ! -f "$src/.sw-unpacked" ]; then
		sw_log "unpacking linux-source-$series $ver into $src"
		mkdir -p "$SW_CACHE/src"
		tmp=$(mktemp -d "$SW_CACHE/src/unpack.XXXXXX")
		tar -C "$tmp" -xf "/usr/src/linux-source-$series.tar.xz" &&
			touch "$tmp/linux-source-$series/.sw-unpacked" ||
			{ rm -rf "$tmp"; sw_die "cannot unpack linux-source-$series"; }
		# A tree without its mark was left half-done: set it aside
		[ -d "$src" ] && [ ! -f "$src/.sw-unpacked" ] &&
			mv -T "$src" "$tmp/stale" 2>/dev/null
		mv -T "$tmp/linux-source-$series" "$src" 2>/dev/null ||
			[ -f "$src/.sw-unpacked" ] ||
			{ rm -rf "$tmp"; sw_die "cannot move linux-source-$series to $src"; }
		rm -rf "$tmp"
	fi
	echo "$src"
}

# The kernels we build, each running the KUnit suites built in, from
# linux-source-6.1 unless named otherwise:
#   uml     UML, HZ=100 (fixed on UML), one CPU
#   hz250   x86_64, HZ=250, SMP, the debug kernel (lockdep, KASAN, kmemleak...)
#   hz1000  x86_64, HZ=1000, SMP
#   uml612  UML from linux-source-6.12, HZ=100, one CPU, the same config as uml
#   kcsan   x86_64, HZ=250, SMP, KCSAN (data races); built on request only,
#           not in SW_KERNELS: it takes long to build and to run
# The x86_64 ones can also load the module and run the selftests.
SW_KERNELS="uml hz250 hz1000 uml612"

# kunit.py's configuration arguments for one kernel
sw_kunit_args()
{
	local cfg="$SW_ROOT/scripts/configs"

	case "$1" in
	uml|uml612)
		echo "--kunitconfig=$SW_ROOT/kunit/.kunitconfig --kunitconfig=$cfg/uml.config"
		;;
	hz250)
		echo "--arch=x86_64 --kunitconfig=$SW_ROOT/kunit/.kunitconfig" \
		     "--kunitconfig=$cfg/vm.config --kunitconfig=$cfg/debug.config" \
		     "--kconfig_add CONFIG_HZ_250=y"
		;;
	hz1000)
		echo "--arch=x86_64 --kunitconfig=$SW_ROOT/kunit/.kunitconfig" \
		     "--kunitconfig=$cfg/vm.config --kconfig_add CONFIG_HZ_1000=y"
		;;
	kcsan)
		echo "--arch=x86_64 --kunitconfig=$SW_ROOT/kunit/.kunitconfig" \
		     "--kunitconfig=$cfg/vm.config --kunitconfig=$cfg/kcsan.config" \
		     "--kconfig_add CONFIG_HZ_250=y"
		;;
	*)
		return 1
		;;
	esac
}

# The linux-source series a kernel is built from
sw_kunit_series()
{
	case "$1" in
	uml612)
		echo 6.12
		;;
	*)
		echo 6.1
		;;
	esac
}

# Where a kernel is built: keyed by source version and configuration
sw_kunit_build_dir()
{
	local args key f ver

	args=$(sw_kunit_args "$1") || sw_die "unknown kernel '$1'"
	key=$( (for f in $(echo "$args" | grep -o -- '--kunitconfig=[^ ]*' | cut -d= -f2); do
			cat "$f"
		done
		echo "$args" | sed "s|$SW_ROOT||g") | sha1sum | cut -c1-12)
	ver=$(sw_source_version "$(sw_kunit_series "$1")") ||
		sw_die "linux-source-$(sw_kunit_series "$1") is not installed"
	echo "$SW_CACHE/build/$ver-$1-$key"
}

# The linux-source-SERIES tree with shadow-wheel linked in as shadow_wheel/
# (for built-in KUnit suites). Files whose content did not change keep their
# times, so a rebuild compiles only what changed. Prints the tree's path.
sw_kernel_tree()
{
	local src

	src=$(sw_kernel_source "$1") || exit 1
	grep -q '^source "shadow_wheel/Kconfig"' "$src/Kconfig" ||
		printf '\nsource "shadow_wheel/Kconfig"\n' >> "$src/Kconfig"
	grep -q '^obj-y += shadow_wheel/' "$src/Kbuild" ||
		printf '\nobj-y += shadow_wheel/\n' >> "$src/Kbuild"
	mkdir -p "$src/shadow_wheel"
	rsync -rc --delete --include='/Kbuild' --include='/Kconfig' --exclude='/core/user/' \
		--include='/core/***' --include='/module/***' --exclude='/kunit/user/' \
		--include='/kunit/***' --exclude='*.o' --exclude='.*.cmd' --exclude='*' \
		"$SW_ROOT/" "$src/shadow_wheel/" || sw_die "cannot sync sources into $src"
	echo "$src"
}

# ---------------------------------------------------------------------------
# Test kernels under QEMU, for scripts/vm.sh and scripts/selftests.sh: the
# kernel matrix. Debian's are unpacked from their packages into
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

# Whether $1 is a test kernel vm.sh can boot
sw_vm_known_kernel()
{
	case " $SW_VM_KERNELS $SW_VM_EXTRA_KERNELS " in
	*" $1 "*)	return 0 ;;
	*)		return 1 ;;
	esac
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

# What booting a test kernel and building the module for it need
sw_need_vm()
{
	sw_need_packages build-essential linux-headers-amd64 rsync busybox-static \
		cpio gzip xz-utils qemu-system-x86 qemu-system-data util-linux pahole \
		kmod e2fsprogs
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

# Take the lock file $1 (waiting for it) on a new descriptor, kept in
# sw_lock_fd; sw_unlock (or exiting) releases it
sw_lock()
{
	mkdir -p "$(dirname "$1")"
	exec {sw_lock_fd}>"$1" || sw_die "cannot open $1"
	flock "$sw_lock_fd" || sw_die "cannot lock $1"
}

sw_unlock()
{
	exec {sw_lock_fd}>&-
}

# The kernel source trees in the cache are shared: kunit.sh and lint.sh
# sync our sources into them and build from them, so one such script runs
# at a time (a second one waits). A script they start (lint.sh running
# kunit.sh) inherits the lock.
sw_lock_kernel_trees()
{
	[ -n "${SW_KERNEL_TREES_LOCKED:-}" ] && return 0
	sw_lock "$SW_CACHE/kernel-trees.lock"
	export SW_KERNEL_TREES_LOCKED=1
}

# Debian packages $2... downloaded into the scratch directory $1 (apt-get
# download, as root past the _apt sandbox user; the lists updated once if
# that fails) and unpacked with dpkg -x into $1/root, never installed; on
# failure $1 is removed and the script dies
sw_fetch_unpack()
{
	local tmp=$1 deb

	shift
	(cd "$tmp" && sw_apt_get download -q -o APT::Sandbox::User=root "$@" >&2) ||
		(sw_apt_update && cd "$tmp" &&
		 sw_apt_get download -q -o APT::Sandbox::User=root "$@" >&2) ||
		{ rm -rf "$tmp"; sw_die "cannot download $*"; }
	mkdir -p "$tmp/root"
	for deb in "$tmp"/*.deb; do
		dpkg -x "$deb" "$tmp/root" || { rm -rf "$tmp"; sw_die "cannot unpack $deb"; }
	done
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

# Whether $1 is one of Debian's kernels (not one of ours)
sw_vm_is_debian()
{
	case "$1" in
	debian|debian-*)	return 0 ;;
	*)			return 1 ;;
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

# The UML kernel's build directory, building it (and running its KUnit
# suites) with scripts/kunit.sh first if it has no linux binary yet
sw_uml_build_dir()
{
	local build

	build=$(sw_kunit_build_dir uml)
	if [ ! -x "$build/linux" ] || [ ! -f "$build/Module.symvers" ]; then
		sw_log "no uml kernel in $build: running scripts/kunit.sh uml"
		"$SW_ROOT/scripts/kunit.sh" uml >&2
		[ -f "$build/Module.symvers" ] ||
			sw_die "the uml kernel in $build has no Module.symvers (CONFIG_MODULES?)"
	fi
	echo "$build"
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
