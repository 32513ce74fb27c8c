#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guest side of tests/qemu/gw-lro.sh (through devtools/vm-run.sh):
#
#   tests/qemu/guest-gw-lro.sh GATEWAY PMD_SO
#
# NIC 0 (virtio, the VM's tap) and NIC 1 (virtio, the underlay's tap) go
# to uio_pci_generic; hwcsum-tunnel runs with net_hwcsum1 on NIC 0 as the
# inner port (LRO on: the VM's GSO frames come whole) and net_hwcsum0 on
# NIC 1 as the underlay (tx_engine=none: every checksum summed by hwcsum,
# none left partial for the host, so the VTEP's kernel really verifies
# them), one VXLAN tunnel to 192.0.2.2. Writes $HWCSUM_OUT/gw-ready when
# it runs, waits for the host's $HWCSUM_OUT/host-done, stops it with
# SIGINT; its log is $HWCSUM_OUT/gateway.log.

set -u
GW=${1:?usage: guest-gw-lro.sh GATEWAY PMD_SO}
PMD_SO=${2:?usage: guest-gw-lro.sh GATEWAY PMD_SO}
OUT=${HWCSUM_OUT:?run me through devtools/vm-run.sh}
T0=$(date +%s)
say() { echo "[qemu-guest +$(($(date +%s) - T0))s] $*"; }
die() {
	say "FAILED: $*"
	touch "$OUT/guest-failed"
	[ -n "${GW_PID:-}" ] && kill -INT "$GW_PID" 2> /dev/null
	exit 1
}
PMDS=/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0
LOG="$OUT/gateway.log"

bind_uio() {
	local bdf=$1 kdrv
	[ -d "/sys/bus/pci/devices/$bdf" ] || die "no PCI device $bdf"
	kdrv=$(basename "$(readlink "/sys/bus/pci/devices/$bdf/driver" 2> /dev/null)" 2> /dev/null)
	echo uio_pci_generic > "/sys/bus/pci/devices/$bdf/driver_override" || die "driver_override on $bdf"
	[ -z "$kdrv" ] || echo "$bdf" > "/sys/bus/pci/drivers/$kdrv/unbind" || die "cannot unbind $bdf"
	echo "$bdf" > /sys/bus/pci/drivers_probe
	[ "$(basename "$(readlink "/sys/bus/pci/devices/$bdf/driver")")" = uio_pci_generic ] ||
		die "$bdf did not bind to uio_pci_generic"
}
INNER=0000:00:10.0 UNDER=0000:00:11.0
bind_uio "$INNER"
bind_uio "$UNDER"
echo 128 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
[ "$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)" -ge 96 ] || die "too few hugepages"
[ -d "$OUT/pmds" ] || die "$OUT/pmds missing (gw-lro.sh writes it before the boot)"
mount --bind "$OUT/pmds" "$PMDS" || die "cannot bind the plugin directory"
[ -r "$PMD_SO" ] || die "hwcsum PMD $PMD_SO not readable in the guest"

say "starting hwcsum-tunnel (inner $INNER with LRO, underlay $UNDER)"
"$GW" -l 0-1 -n 1 -m 192 --file-prefix gw-lro --iova-mode=pa -a "$INNER" -a "$UNDER" \
	-d "$PMDS/librte_mempool_ring.so.23" -d "$PMDS/librte_net_virtio.so.23" \
	--vdev "net_hwcsum0,sub=$UNDER,tx_engine=none" --vdev "net_hwcsum1,sub=$INNER" \
	--log-level=pmd.net.virtio.*:info -- \
	--underlay net_hwcsum0 -s 20 --duration 900 --mbufs 16384 \
	--tunnel "name=vm,type=vxlan,vni=42,inner_port=net_hwcsum1,local=192.0.2.1,remote=192.0.2.2,remote_mac=02:00:00:00:20:01,udp_csum=on" \
	> "$LOG" 2>&1 &
GW_PID=$!
for _ in $(seq 600); do
	grep -q "tunnel(s)" "$LOG" && break
	kill -0 "$GW_PID" 2> /dev/null || break
	sleep 0.5
done
grep -q "tunnel(s)" "$LOG" || { tail -n 20 "$LOG"; die "the gateway did not start"; }
say "gateway up"
touch "$OUT/gw-ready"
t=0
while [ ! -e "$OUT/host-done" ]; do
	kill -0 "$GW_PID" 2> /dev/null || { tail -n 20 "$LOG"; die "the gateway exited during the transfer"; }
	sleep 2
	t=$((t + 2))
	[ $((t % 30)) != 0 ] || say "transfer running ($t s); $(grep -E '^  tso:' "$LOG" | tail -n1)"
	[ "$t" -lt 800 ] || die "the host never finished"
done
kill -INT "$GW_PID"
wait "$GW_PID"
rc=$?
say "gateway exit status $rc"
grep -E "tso:|encap|drops:|leak" "$LOG" | tail -n 5
[ "$rc" = 0 ] || die "the gateway exited with $rc"
say "done"
exit 0
