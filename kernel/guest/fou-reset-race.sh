#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Issue 27 item 9 (6.12): fou reports a GUE socket's port to a device with
# udp_tunnel_push_rx_port()/drop_rx_port(), which change udp_tunnel_nic's
# table of that device; a reset through the driver (netdevsim's
# udp_ports/reset) changes the same table holding only udp_tunnel_nic's lock
# of the device, not the RTNL. v2 called push/drop under the RTNL alone.
# Run `ip fou add/del` in a loop against a loop of resets, on a lockdep
# kernel (kernel/build.sh --tree 6.12 --profile lockdep), then require:
# no lockdep, WARNING or BUG report (v3's fou asserts the lock at each
# push/drop, udp_tunnel_nic_assert_locked()), and netdevsim's GUE table
# (table2) empty once every socket is gone and after one more reset.
# netdevsim logs every port it sets, which can push an early report out of
# the kernel's ring buffer: the verdict also reads the kernel's own marks,
# lockdep's debug_locks (0 once it reported), and the log is followed as it
# comes
# ($HWCSUM_OUT/fou-reset-race-dmesg.log, without netdevsim's set/unset
# lines).
#
#   kernel/guest/fou-reset-race.sh [SECONDS]   (default 30)
#
# Only netdevsim and fou are loaded: Debian's 6.12 vxlan trips lockdep on
# its own (kernel/patches-6.12/README.md), which would turn it off.

set -u
SECS=${1:-30}
GUEST_TAG=fou-reset-race
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

grep -q lockdep /proc/lockdep_stats 2>/dev/null || [ -e /proc/lockdep ] ||
	say "note: this kernel has no lockdep: the run only looks for WARNING/BUG and the table"
dmesg -c > /dev/null
klog=${HWCSUM_OUT:-/tmp}/fou-reset-race-dmesg.log
dmesg -w | grep --line-buffered -v -E 'netdevsim.* (un)?set \[' > "$klog" &
follower=$!
run modprobe netdevsim
run modprobe fou
NSIM_ID=$((RANDOM % 1000 + 2000))
echo "$NSIM_ID 1" > /sys/bus/netdevsim/new_device || die "cannot create netdevsim $NSIM_ID"
DFS=/sys/kernel/debug/netdevsim/netdevsim$NSIM_ID/ports/0/udp_ports
for _ in $(seq 50); do [ -e "$DFS/reset" ] && break; sleep 0.1; done
[ -e "$DFS/reset" ] || die "no $DFS/reset (debugfs mounted?)"
dev=$(ls /sys/bus/netdevsim/devices/netdevsim$NSIM_ID/net/ | head -1)
run ip link set "$dev" up
SECONDS=0

# ip -batch: one process for many commands (an exec costs a lot under TCG);
# $SECONDS, not date, for the same reason.
batch=${HWCSUM_OUT:-/tmp}/fou-batch
for _ in $(seq 100); do
	printf 'fou add port 6081 gue\nfou add port 6082 gue\nfou del port 6081\nfou del port 6082\n'
done > "$batch"
(
	n=0
	while [ "$SECONDS" -lt "$SECS" ]; do
		ip -force -batch "$batch" 2>/dev/null
		n=$((n + 100))
	done
	echo "$n" > "${HWCSUM_OUT:-/tmp}/fou-loops"
) &
adder=$!
resets=0
while [ "$SECONDS" -lt "$SECS" ]; do
	echo 1 > "$DFS/reset"
	resets=$((resets + 1))
done
wait $adder
echo 1 > "$DFS/reset"
sleep 1
table=$(cat "$DFS/table2")
say "$(cat "${HWCSUM_OUT:-/tmp}/fou-loops" 2>/dev/null) add/del rounds, $resets resets; table2 after: $table"

sleep 1
kill "$follower" 2>/dev/null
fail=0
# netdevsim's udp_ports/reset zeroes its table before udp_tunnel_nic's
# reset takes the device's lock, so a port set or unset meanwhile trips its
# own "entry already in use" / "entry not installed" WARN (-EBUSY/-ENOENT,
# "UDP tunnel port sync failed"): counted and shown, not held against fou.
nsim=$(grep -c -E 'WARNING: .* nsim_udp_tunnel_(un)?set_port' "$klog")
[ "$nsim" -eq 0 ] || say "note: $nsim WARNs of netdevsim's own reset window (nsim_udp_tunnel_*set_port)"
report=$(grep -E -A12 'possible circular|WARNING:|BUG:|lockdep|suspicious RCU|Invalid wait' "$klog" |
	grep -v -E 'WARNING: .* nsim_udp_tunnel_(un)?set_port' |
	grep -E -B2 -A12 'possible circular|WARNING:|BUG:|lockdep|suspicious RCU|Invalid wait')
if [ -n "$report" ]; then
	echo "$report" | head -80
	say "FAIL: the kernel log has a report (above; whole log: $klog)"
	fail=1
fi
if [ -e /proc/lockdep_stats ] && grep -q 'debug_locks: *0' /proc/lockdep_stats; then
	say "FAIL: lockdep turned itself off (debug_locks 0): it reported something"
	fail=1
fi
[ -z "$(echo "$table" | tr -d ' 0\n')" ] || { say "FAIL: GUE ports left in table2 with no socket open"; fail=1; }
echo "$NSIM_ID" > /sys/bus/netdevsim/del_device
[ $fail = 0 ] || die "see above"
say "OK"
