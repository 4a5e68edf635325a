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
	apt-get update -q >&2 || sw_die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >&2 || sw_die "apt-get install ${missing[*]} failed"
}

# What building kernels and running them under UML and QEMU needs
sw_need_kernel_build()
{
	sw_need_packages linux-source-6.1 build-essential flex bison bc libelf-dev libssl-dev \
		python3 qemu-system-x86 qemu-system-data ccache rsync cpio xz-utils kmod
}

# linux-headers-6.1.0-NN-amd64 that Debian's current 6.1 kernel goes with
sw_debian_kernel_abi()
{
	sw_need_packages linux-headers-amd64
	dpkg-query -W -f='${Depends}' linux-headers-amd64 |
		grep -o 'linux-headers-6\.1\.[0-9]*-[0-9]*-amd64' | head -n 1 |
		sed 's/^linux-headers-//'
}

sw_source_version()
{
	dpkg-query -W -f='${Version}' linux-source-6.1
}

# Debian's linux-source-6.1, unpacked once into the cache; prints its path
sw_kernel_source()
{
	local ver src tmp

	ver=$(sw_source_version) || sw_die "linux-source-6.1 is not installed"
	src=$SW_CACHE/src/linux-source-$ver
	if [ ! -f "$src/.sw-unpacked" ]; then
		sw_log "unpacking linux-source $ver into $src"
		mkdir -p "$SW_CACHE/src"
		tmp=$(mktemp -d "$SW_CACHE/src/unpack.XXXXXX")
		tar -C "$tmp" -xf /usr/src/linux-source-6.1.tar.xz || sw_die "cannot unpack"
		rm -rf "$src"
		mv "$tmp/linux-source-6.1" "$src"
		rmdir "$tmp"
		touch "$src/.sw-unpacked"
	fi
	echo "$src"
}

# The kernel tree with shadow-wheel linked in as shadow_wheel/ (for built-in
# KUnit suites). Files whose content did not change keep their times, so a
# rebuild compiles only what changed. Prints the tree's path.
sw_kernel_tree()
{
	local src

	src=$(sw_kernel_source) || exit 1
	grep -q '^source "shadow_wheel/Kconfig"' "$src/Kconfig" ||
		printf '\nsource "shadow_wheel/Kconfig"\n' >> "$src/Kconfig"
	grep -q '^obj-y += shadow_wheel/' "$src/Kbuild" ||
		printf '\nobj-y += shadow_wheel/\n' >> "$src/Kbuild"
	mkdir -p "$src/shadow_wheel"
	rsync -rc --delete --include='/Kbuild' --include='/Kconfig' --include='/module/***' \
		--include='/kunit/***' --exclude='*.o' --exclude='.*.cmd' --exclude='*' \
		"$SW_ROOT/" "$src/shadow_wheel/" || sw_die "cannot sync sources into $src"
	echo "$src"
}
