# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared by the shadow-wheel scripts. Source it, do not run it: it sources
# the rest of the library, one file a topic:
#
#   sw-lib.sh         where things are cached, logs and errors, the
#                     commands run at exit, options, the tests' summary
#                     lines, the Debian packages the scripts need, locks
#   sw-lib-kernel.sh  the kernels we build from Debian's linux-source, each
#                     running the KUnit suites built in
#   sw-lib-vm.sh      the test kernels QEMU boots (the kernel matrix),
#                     Debian's kernel images among them
#   sw-lib-module.sh  shadow_wheel.ko built for a test kernel
#
# and sw-lib-replay.sh, what the jobs of replay.sh share, which only they
# source.

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

# The commands sw_at_exit() stacked, and the process they belong to: a
# subshell starts a stack of its own
sw_exit_cmds=()
sw_exit_pid=''

# Run the stacked commands, the last added first, each once
sw_run_at_exit()
{
	local i

	for ((i = ${#sw_exit_cmds[@]} - 1; i >= 0; i--)); do
		eval "${sw_exit_cmds[i]}"
		unset 'sw_exit_cmds[i]'
	done
}

# On the signal $1: the stacked commands, then the signal again with its
# default action, so that the caller sees the script killed by it
sw_exit_on_signal()
{
	trap - EXIT "$1"
	sw_run_at_exit
	kill -s "$1" "$BASHPID"
}

# Run the command $1 with the arguments $2... (their values now: a
# caller's locals are gone at exit) when the script exits, also on SIGINT
# and SIGTERM. The commands stack: they run in the reverse order of the
# calls. A script sets no EXIT, INT or TERM trap of its own.
sw_at_exit()
{
	if [ "$sw_exit_pid" != "$BASHPID" ]; then
		sw_exit_cmds=()
		sw_exit_pid=$BASHPID
		trap sw_run_at_exit EXIT
		trap 'sw_exit_on_signal INT' INT
		trap 'sw_exit_on_signal TERM' TERM
	fi
	sw_exit_cmds+=("$(printf '%q ' "$@")")
}

# Remove the files and directories $@ when the script exits (sw_at_exit)
sw_rm_at_exit()
{
	sw_at_exit rm -rf -- "$@"
}

# Read the options at the start of a script's (or a function's) arguments,
# those after "--", into the caller's variables, as the specs before "--"
# name them:
#   NAME=REGEX   "--NAME VALUE": VALUE, which must match the extended
#                regexp REGEX whole, into the variable NAME
#   NAME+=REGEX  the same, VALUE appended to the array NAME (the option
#                may be repeated)
#   NAME         "--NAME", a flag: the variable NAME set to 1
#   ...          an option not named ends the options, left with the
#                words after it for the caller to pass on (to a program
#                the script runs)
# Options end at the first word that does not start with "-" (or after
# "--"). An option not named (without "..."), a value missing or not
# matching, calls the caller's usage(). Sets sw_optind to the number of
# words read, which the caller shifts away:
#   sw_options 'kernel=.+' 'rate=[1-9][0-9]*' -- "$@"
#   shift "$sw_optind"
sw_options()
{
	local _sw_specs=() _sw_spec _sw_s _sw_name _sw_others=''

	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		if [ "$1" = ... ]; then
			_sw_others=1
		else
			_sw_specs+=("$1")
		fi
		shift
	done
	shift
	sw_optind=0
	while [ $# -gt 0 ] && [[ $1 == -* ]]; do
		if [ "$1" = -- ]; then
			sw_optind=$((sw_optind + 1))
			break
		fi
		_sw_spec=''
		for _sw_s in "${_sw_specs[@]}"; do
			[ "--${_sw_s%%[+=]*}" = "$1" ] && _sw_spec=$_sw_s
		done
		if [ -z "$_sw_spec" ]; then
			[ -n "$_sw_others" ] && break
			usage
		fi
		_sw_name=${_sw_spec%%[+=]*}
		if [ "$_sw_spec" = "$_sw_name" ]; then
			printf -v "$_sw_name" 1
			shift
			sw_optind=$((sw_optind + 1))
			continue
		fi
		{ [ $# -ge 2 ] && [[ $2 =~ ^(${_sw_spec#*=})$ ]]; } || usage
		case "$_sw_spec" in
		"$_sw_name+="*)
			local -n _sw_array=$_sw_name
			_sw_array+=("$2")
			unset -n _sw_array
			;;
		*)
			printf -v "$_sw_name" '%s' "$2"
			;;
		esac
		shift 2
		sw_optind=$((sw_optind + 2))
	done
}

# The arguments of a script that takes none, read as sw_options() reads
# them: any calls the caller's usage()
sw_options_none()
{
	sw_options -- "$@"
	shift "$sw_optind"
	[ $# -eq 0 ] || usage
}

# The summary lines "WHAT: P passed, F failed" of the log $2 (WHAT is $1),
# added up: prints "P F". A log without one counts as one failure: its run
# died before its last line. The log is read as text whatever its bytes
# (a guest's console may have some that are not).
sw_summary_counts()
{
	grep -a -E "^$1: [0-9]+ passed, [0-9]+ failed\$" "$2" |
		awk '{ p += $(NF - 3); f += $(NF - 1); n++ } END { print p + 0, (n ? f : 1) }'
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
	sw_need_packages build-essential linux-headers-amd64 sparse linux-source-6.1 rsync \
		shellcheck
}

# What booting a test kernel and building the module for it need
sw_need_vm()
{
	sw_need_packages build-essential linux-headers-amd64 rsync busybox-static \
		cpio gzip xz-utils qemu-system-x86 qemu-system-data util-linux pahole \
		kmod e2fsprogs
}

# 6.1.0-NN-amd64: the release of Debian's current 6.1 kernel, as named by the
# linux-headers-amd64 metapackage (empty if that is not installed)
sw_debian_kernel_release()
{
	dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
		grep -o 'linux-headers-6\.1\.[0-9]*-[0-9]*-amd64' | head -n 1 |
		sed 's/^linux-headers-//'
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

# shellcheck source=sw-lib-kernel.sh
. "$SW_ROOT/scripts/sw-lib-kernel.sh"
# shellcheck source=sw-lib-vm.sh
. "$SW_ROOT/scripts/sw-lib-vm.sh"
# shellcheck source=sw-lib-module.sh
. "$SW_ROOT/scripts/sw-lib-module.sh"
