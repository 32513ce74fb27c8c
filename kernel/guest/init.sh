#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# PID 1 of a hwcsum QEMU guest (started by devtools/vm-run.sh with
# init=<this file>). The root file system is the host's root, read-only over
# virtio-9p. This script gives the guest the writable places programs expect
# (tmpfs), hugepages, debugfs and the kernel's modules, runs the requested
# command from the run directory (a second, writable 9p share), records its
# exit status there and powers the VM off. It never returns: PID 1 exiting
# would panic the kernel.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TERM=dumb LANG=C.UTF-8
RUN=/run/hwcsum

log() { echo "[guest-init] $*"; }

power_off() {
	sync
	# QEMU runs with -no-reboot: a reboot request ends it at once.
	echo b > /proc/sysrq-trigger 2>/dev/null
	busybox reboot -f
	sleep 5
	log "could not reboot; halting here"
	while :; do sleep 3600; done
}

# Mount helper: the guest is only useful if every mount works.
must_mount() {
	local what=$1
	shift
	mount "$@" || { log "FATAL: cannot mount $what ($*)"; power_off; }
}

must_mount proc -t proc proc /proc
must_mount sysfs -t sysfs sysfs /sys
mountpoint -q /dev || must_mount devtmpfs -t devtmpfs devtmpfs /dev
# The host root stays reachable at /mnt, under the tmpfs mounts below, so
# host directories under /tmp or /var/tmp can be bound back (see vm-run.sh).
must_mount "host root at /mnt" --bind / /mnt
must_mount /run -t tmpfs -o mode=0755 tmpfs /run
must_mount /tmp -t tmpfs -o mode=1777 tmpfs /tmp
must_mount /var/tmp -t tmpfs -o mode=1777 tmpfs /var/tmp
# /var/run is a symlink to /run on Debian; mount it only where it is not.
[ -L /var/run ] || must_mount /var/run -t tmpfs -o mode=0755 tmpfs /var/run
mkdir -p /dev/shm
must_mount /dev/shm -t tmpfs -o mode=1777 tmpfs /dev/shm
mkdir -p /dev/pts /dev/hugepages
must_mount devpts -t devpts devpts /dev/pts
must_mount hugetlbfs -t hugetlbfs hugetlbfs /dev/hugepages
must_mount debugfs -t debugfs debugfs /sys/kernel/debug
# devtmpfs has no /dev/fd: bash process substitution needs it.
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr

mkdir -p "$RUN"
must_mount "the run directory (9p tag hwcsumrun)" -t 9p \
	-o trans=virtio,version=9p2000.L,msize=262144,access=any hwcsumrun "$RUN"
[ -r "$RUN/env" ] || { log "FATAL: $RUN/env missing"; power_off; }
# shellcheck source=/dev/null
. "$RUN/env"
for keep in "${HWCSUM_GUEST_KEEP[@]}"; do
	mkdir -p "$keep"
	must_mount "host $keep" --bind "/mnt$keep" "$keep"
done

# The host has no /lib/modules: an overlay (tmpfs upper) on /usr/lib makes
# room for a link to the modules of the kernel that is running.
mkdir -p /run/usrlib/upper /run/usrlib/work
must_mount "overlay on /usr/lib" -t overlay \
	-o lowerdir=/usr/lib,upperdir=/run/usrlib/upper,workdir=/run/usrlib/work overlay /usr/lib
rm -rf /usr/lib/modules
mkdir -p /usr/lib/modules
if [ -d "$HWCSUM_MODULES_DIR" ]; then
	ln -s "$HWCSUM_MODULES_DIR" "/usr/lib/modules/$(uname -r)"
else
	log "WARNING: modules directory '$HWCSUM_MODULES_DIR' not visible in the guest"
fi

hostname hwcsum-guest 2>/dev/null
ip link set lo up

mapfile -d '' -t ARGV < "$RUN/argv"
log "kernel $(uname -r), $(nproc) CPUs, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null), running: ${ARGV[*]}"
cd "${HWCSUM_CWD:-/}" 2>/dev/null || cd /
export HWCSUM_OUT="$RUN" HWCSUM_NICS_FILE="$RUN/nics" HWCSUM_IN_GUEST=1
timeout -k 5 "$HWCSUM_GUEST_TIMEOUT" "${ARGV[@]}" < /dev/null
rc=$?
[ "$rc" = 124 ] && log "command timed out after $HWCSUM_GUEST_TIMEOUT s"
echo "$rc" > "$RUN/status"
log "HWCSUM_GUEST_EXIT=$rc"
cd /
umount "$RUN" 2>/dev/null
power_off
