#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS, the way an out-of-tree module reaches distribution kernels: with
# dkms.conf, dkms builds shadow_wheel.ko against Debian's 6.1 headers (the
# linux-headers-amd64 metapackage's) and its 6.12 LTS headers (the
# linux-headers-6.12-amd64 metapackage's, fetched into the cache and given
# with --kernelsourcedir, never installed), from the tracked sources.
# Nothing is installed into /lib/modules: the module is added, built for
# each kernel, checked and removed again. Ends with "dkms: N passed, N failed".
set -u
. "$(dirname "$0")/sw-lib.sh"

usage()
{
	echo "usage: $0 (no arguments; make dkms runs it)" >&2
	exit 2
}

sw_options_none "$@"
cd "$SW_ROOT" || exit 1

sw_need_packages dkms pahole build-essential linux-headers-amd64 git
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' dkms.conf)
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
{ [ -n "$name" ] && [ -n "$version" ]; } || sw_die "dkms.conf names no package or version"
release612=$(sw_debian_release debian-6.12)
[ -n "$release612" ] || sw_die "no linux-headers-6.12-amd64 metapackage to resolve"
kdir612=$(sw_debian_headers_dir "$release612") || exit 1

# dkms keeps one tree for the machine: one run at a time, and none of ours left
sw_lock "$SW_CACHE/dkms.lock"
sw_dkms_forget()
{
	dkms remove "$name/$version" --all >/dev/null 2>&1
	rm -rf "/usr/src/$name-$version"
}
sw_dkms_forget
src=$(mktemp -d)
sw_rm_at_exit "$src"
sw_at_exit sw_dkms_forget
git ls-files | rsync -a --files-from=- ./ "$src/" || sw_die "cannot copy the sources"
dkms add "$src" >&2 || sw_die "dkms add failed"

passed=0 failed=0
sw_dkms_build()
{
	local kver=$1 ko

	shift
	ko=/var/lib/dkms/$name/$version/$kver/$(uname -m)/module/$name.ko
	if dkms build "$name/$version" -k "$kver" "$@" >&2 && [ -f "$ko" ]; then
		sw_log "dkms: built for $kver"
		passed=$((passed + 1))
	else
		sw_log "dkms: build for $kver FAILED"
		failed=$((failed + 1))
	fi
}

sw_dkms_build "$(sw_debian_kernel_release)"
sw_dkms_build "$release612" --kernelsourcedir "$kdir612"
echo "dkms: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
