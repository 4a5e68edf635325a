# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The kernels we build from Debian's linux-source, with the KUnit suites
# built in.
# Part of the scripts' library: sw-lib.sh sources it.

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
		if ! tar -C "$tmp" -xf "/usr/src/linux-source-$series.tar.xz" ||
		   ! touch "$tmp/linux-source-$series/.sw-unpacked"; then
			rm -rf "$tmp"
			sw_die "cannot unpack linux-source-$series"
		fi
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
# shellcheck disable=SC2034 # used by the scripts that source this
SW_KERNELS="uml hz250 hz1000 uml612"

# kunit.py's configuration arguments for one kernel: the suites'
# .kunitconfig, what no kernel needs left out (slim.config), and the
# kernel's own
sw_kunit_args()
{
	local cfg="$SW_ROOT/scripts/configs" own

	case "$1" in
	uml|uml612)
		own="--kunitconfig=$cfg/uml.config"
		;;
	hz250)
		own="--arch=x86_64 --kunitconfig=$cfg/vm.config --kunitconfig=$cfg/debug.config"
		own+=" --kconfig_add CONFIG_HZ_250=y"
		;;
	hz1000)
		own="--arch=x86_64 --kunitconfig=$cfg/vm.config --kconfig_add CONFIG_HZ_1000=y"
		;;
	kcsan)
		own="--arch=x86_64 --kunitconfig=$cfg/vm.config --kunitconfig=$cfg/kcsan.config"
		own+=" --kconfig_add CONFIG_HZ_250=y"
		;;
	*)
		return 1
		;;
	esac
	echo "--kunitconfig=$SW_ROOT/kunit/.kunitconfig --kunitconfig=$cfg/slim.config $own"
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
		echo "${args//"$SW_ROOT"/}") | sha1sum | cut -c1-12)
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
