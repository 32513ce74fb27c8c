#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guest side of the QEMU hwcsum receive suite (run inside the VM by
# tests/qemu/rx.sh through devtools/vm-run.sh):
#
#   tests/qemu/guest-rx.sh MODEL PMD_SO SESSION ...
#
# NIC 0 of $HWCSUM_NICS_FILE is the NIC under test: bound to
# uio_pci_generic, driven by the host's dpdk-testpmd (csum engine,
# --enable-rx-cksum, `csum parse-tunnel on`, VXLAN 4789 and GENEVE 6081
# added with `port config N udp_tunnel_port add`, promiscuous and
# all-multicast off so that only frames to NIC 0's MAC count). NIC 1 is
# the injector, on the same QEMU hub (e1000, e1000e) or the same bridge
# of taps in vm-run.sh's private namespace (virtio): it stays with the
# guest kernel, and a raw AF_PACKET socket writes $HWCSUM_OUT/rx-frames.pcap
# to it byte for byte (CHECKSUM_NONE: neither the guest kernel nor the
# injecting NIC model touches a checksum; the host-side capture proves it).
#
# A SESSION is one testpmd process: "bare" (the NIC's own driver) or
# "hwcsum" (net_hwcsum0,sub=<PCI address> over it). For each session the
# file is injected once; then testpmd's forward statistics (Bad-ipcsum,
# Bad-l4csum, Bad-outer-ipcsum, Bad-outer-l4csum of NIC 0's port), port
# stats and xstats are written to $HWCSUM_OUT: fwd-stats-SESSION.txt,
# stats-SESSION.txt, xstats-SESSION.txt, testpmd-SESSION.log, and the
# line "session SESSION RX_PACKETS" to sessions.txt. Between the sessions
# a marker frame (ethertype 0x88b5) is sent so the host capture can be
# split. Counts are judged on the host (analyze-rx.py); this script fails
# only when the set-up or the injection fails.

set -u
usage="usage: guest-rx.sh MODEL PMD_SO SESSION ..."
MODEL=${1:?$usage}
PMD_SO=${2:?$usage}
shift 2
[ $# -ge 1 ] || { echo "guest-rx: no session given"; exit 2; }
OUT=${HWCSUM_OUT:?run me through devtools/vm-run.sh}
T0=$(date +%s)
say() { echo "[qemu-guest-rx +$(($(date +%s) - T0))s] $*"; }
die() {
	say "FAILED: $*"
	tp_save_log
	exit 1
}
run() { "$@" || die "command failed: $*"; }
# shellcheck source=tests/qemu/guest-testpmd.sh
. "$(dirname "$0")/guest-testpmd.sh"

PMDS=/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0
FRAMES="$OUT/rx-frames.pcap"
[ -r "$FRAMES" ] || die "$FRAMES missing (rx.sh writes it before the boot)"

mac0=$(awk '$1 == 0 { print $4 }' "$HWCSUM_NICS_FILE")
mac1=$(awk '$1 == 1 { print $4 }' "$HWCSUM_NICS_FILE")
[ -n "$mac1" ] || die "no NIC 1 (the injector)"
BDF=0000:00:10.0
[ -d /sys/bus/pci/devices/$BDF ] || die "NIC 0 ($mac0) not at PCI $BDF"
DEVID=$(cat /sys/bus/pci/devices/$BDF/device)
KDRV=$(basename "$(readlink /sys/bus/pci/devices/$BDF/driver 2>/dev/null)" 2>/dev/null)
say "model $MODEL: NIC 0 $mac0 at $BDF (device $DEVID, kernel driver ${KDRV:-none}), kernel $(uname -r)"
[ "$(nproc)" -ge 2 ] || die "EAL needs 2 vCPUs, the guest has $(nproc)"

# No IPv6 autoconfiguration on the injector: it would send ND/MLD frames.
for f in /proc/sys/net/ipv6/conf/{all,default}/disable_ipv6; do
	[ -w "$f" ] && echo 1 > "$f"
done
INJ=
for d in /sys/class/net/*; do
	[ "$(cat "$d/address" 2>/dev/null)" = "$mac1" ] && INJ=$(basename "$d")
done
[ -n "$INJ" ] || die "NIC 1 ($mac1) has no kernel interface"
[ -w "/proc/sys/net/ipv6/conf/$INJ/disable_ipv6" ] && echo 1 > "/proc/sys/net/ipv6/conf/$INJ/disable_ipv6"
run ip link set "$INJ" up
say "injector: NIC 1 $mac1 = $INJ ($(basename "$(readlink "/sys/class/net/$INJ/device/driver")"))"

[ -d /sys/bus/pci/drivers/uio_pci_generic ] || die "uio_pci_generic is not in the guest kernel"
echo uio_pci_generic > /sys/bus/pci/devices/$BDF/driver_override || die "driver_override on $BDF"
if [ -n "$KDRV" ]; then
	echo "$BDF" > "/sys/bus/pci/drivers/$KDRV/unbind" || die "cannot unbind $BDF from $KDRV"
fi
echo "$BDF" > /sys/bus/pci/drivers_probe
[ "$(basename "$(readlink /sys/bus/pci/devices/$BDF/driver)")" = uio_pci_generic ] ||
	die "$BDF did not bind to uio_pci_generic"

echo 64 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
HP=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)
[ "$HP" -ge 48 ] || die "only $HP hugepages"

# Only the PMDs this test needs in EAL's plugin directory: rx.sh wrote the
# links (tests/qemu/guest-pmd-dir.sh).
[ -d "$OUT/pmds" ] || die "$OUT/pmds missing (rx.sh writes it before the boot)"
run mount --bind "$OUT/pmds" "$PMDS"

# inject FILE|marker: write every frame of the pcap to NIC 1, raw.
inject() {
	/usr/bin/python3 - "$INJ" "$1" <<'EOF'
import socket, struct, sys, time
ifname, what = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
if what == "marker":
    frames = [bytes.fromhex("ffffffffffff020000000001") + b"\x88\xb5" + b"hwcsum-rx-marker".ljust(46, b"\0")]
else:
    data = open(what, "rb").read()
    assert struct.unpack("<I", data[:4])[0] == 0xa1b2c3d4, "not a little-endian pcap"
    frames, off = [], 24
    while off < len(data):
        _, _, incl, _ = struct.unpack("<IIII", data[off:off + 16])
        frames.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
for i, f in enumerate(frames):
    s.send(f)
    if i % 16 == 15:
        time.sleep(0.05)  # let testpmd drain the RX ring under TCG
print("injected %d frames on %s" % (len(frames), ifname))
EOF
}

NFRAMES=$(/usr/bin/python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$OUT/rx-frames.json")
: > "$OUT/sessions.txt"
first=1
for session in "$@"; do
	extra=(-d "$PMDS/librte_mempool_ring.so.23")
	case "$MODEL" in
	e1000 | e1000e) extra+=(-d "$PMDS/librte_net_e1000.so.23") ;;
	virtio) extra+=(-d "$PMDS/librte_net_virtio.so.23") ;;
	*) die "unknown model $MODEL" ;;
	esac
	case "$session" in
	bare) name=$BDF ;;
	hwcsum)
		[ -r "$PMD_SO" ] || die "hwcsum PMD $PMD_SO not readable in the guest"
		extra+=(-d "$PMD_SO" --vdev "net_hwcsum0,sub=$BDF")
		name=net_hwcsum0
		;;
	*) die "unknown session '$session' (bare, hwcsum)" ;;
	esac
	# The capture on the host is split by these markers (one before each session).
	[ "$first" = 1 ] || inject marker > /dev/null
	first=0
	RX_CKSUM_OPT=--enable-rx-cksum RX_OFFLOAD_CMDS=0
	if [ "$MODEL" = virtio ] && [ "$session" = bare ]; then
		RX_CKSUM_OPT= RX_OFFLOAD_CMDS=1
	fi
	tp_start "$session" -l 0-1 -n 1 -m 64 --file-prefix "hwcsum-rx-$session" --iova-mode=pa \
		-a "$BDF" "${extra[@]}" -- \
		-i $RX_CKSUM_OPT --mask-event intr_lsc --total-num-mbufs=4096 --txd=256 --rxd=256
	tp_port_id "$name"; p=$VAL
	[ -n "$p" ] || { tp_last; die "port $name not found"; }
	tp port stop all
	tp csum parse-tunnel on "$p"
	if [ "$RX_OFFLOAD_CMDS" = 1 ]; then
		# net_virtio has no IPv4 header checksum offload: --enable-rx-cksum
		# (IPv4+UDP+TCP) would fail its configure; ask for what it has.
		tp port config "$p" rx_offload udp_cksum on
		tp port config "$p" rx_offload tcp_cksum on
	fi
	tp port start all
	# Tunnel ports: bare e1000/virtio cannot take them (the answer is logged).
	tp port config "$p" udp_tunnel_port add vxlan 4789
	tp_last > "$OUT/tunnel-add-$session.txt"
	tp port config "$p" udp_tunnel_port add geneve 6081
	tp_last >> "$OUT/tunnel-add-$session.txt"
	tp set promisc all off
	tp set allmulti all off
	tp set eth-peer "$p" 02:00:00:00:ff:ff
	tp set fwd csum
	tp show port info "$p"
	tp_last > "$OUT/port-info-$session.txt"
	tp clear port stats all
	tp clear port xstats "$p"
	tp start
	sleep 1
	# virtio: rx.sh switches br_netfilter off in the taps' namespace first
	# (it drops IPv4 frames with a wrong header checksum on the bridge).
	if [ "$MODEL" = virtio ]; then
		t=0
		until [ -s "$OUT/netns-ready" ]; do
			sleep 0.5
			t=$((t + 1))
			[ "$t" -lt 120 ] || die "rx.sh did not prepare the tap namespace (no $OUT/netns-ready)"
		done
	fi
	msg=$(inject "$FRAMES") || die "injection failed"
	say "session $session (port $p = $name): $msg"
	t=0
	while :; do
		sleep 1
		tp_counter "$p" RX-packets
		[ "$VAL" -ge "$NFRAMES" ] && break
		t=$((t + 1))
		[ "$t" -lt 20 ] || break
	done
	sleep 1
	tp stop
	tp_last > "$OUT/fwd-stats-$session.txt"
	tp show port stats "$p"
	tp_last > "$OUT/stats-$session.txt"
	tp_counter "$p" RX-packets
	tp show port xstats "$p"
	tp_last > "$OUT/xstats-$session.txt"
	echo "session $session $VAL" >> "$OUT/sessions.txt"
	say "session $session: port $p received $VAL of $NFRAMES"
	tp_stop
done
say "done"
exit 0
