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
TP_LOG=
TP_SESSION=
die() {
	say "FAILED: $*"
	[ -n "$TP_LOG" ] && cp "$TP_LOG" "$OUT/testpmd-$TP_SESSION.log"
	exit 1
}
run() { "$@" || die "command failed: $*"; }

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

# Only the PMDs this test needs in EAL's plugin directory (as guest-bypass.sh).
keep=()
mapfile -t keep < <(ldd /usr/bin/dpdk-testpmd | awk -v d="$PMDS/" 'index($3, d) == 1 { print $1 }')
keep+=(librte_mempool_ring.so.23 librte_bus_pci.so.23 librte_bus_vdev.so.23
	librte_net_e1000.so.23 librte_net_virtio.so.23)
run mount -t tmpfs -o mode=0755 pmds "$PMDS"
for f in "${keep[@]}"; do
	[ -e "/mnt$PMDS/$f" ] || die "$PMDS/$f missing on the host"
	ln -sf "/mnt$PMDS/$(readlink "/mnt$PMDS/$f" || echo "$f")" "$PMDS/$f"
done

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

# --- testpmd, driven through a FIFO; each command waits for its prompt.
TP_PID=
tp_clean() { perl -0777 -pe 's/(Port \d+: [a-z ]+ event)\n//g' "$TP_LOG"; }
tp_prompts() { tp_clean | grep -o 'testpmd> ' | wc -l; }
TP_SEEN=0
tp() {
	local want=$((TP_SEEN + 1)) t=0
	echo "$*" >&3
	while [ "$(tp_prompts)" -lt "$want" ]; do
		kill -0 "$TP_PID" 2>/dev/null || die "testpmd died during '$*' (log: $TP_LOG)"
		sleep 0.2
		t=$((t + 1))
		[ "$t" -lt 600 ] || die "testpmd did not answer '$*' in 120 s"
	done
	TP_SEEN=$want
}
tp_last() { tp_clean | awk -v n="$TP_SEEN" 'BEGIN { RS = "testpmd> " } NR == n { print }'; }

start_testpmd() {
	local session=$1 t
	shift
	TP_LOG="/run/testpmd-$session.log"
	TP_SESSION=$session
	rm -f /run/tp.fifo
	mkfifo /run/tp.fifo
	t=$(date +%s)
	stdbuf -o0 -e0 dpdk-testpmd -l 0-1 -n 1 -m 64 --file-prefix "hwcsum-rx-$session" --iova-mode=pa \
		-a "$BDF" "$@" -- \
		-i $RX_CKSUM_OPT --mask-event intr_lsc --total-num-mbufs=4096 --txd=256 --rxd=256 \
		< /run/tp.fifo > "$TP_LOG" 2>&1 &
	TP_PID=$!
	exec 3> /run/tp.fifo
	TP_SEEN=0
	while [ "$(tp_prompts)" -lt 1 ]; do
		kill -0 "$TP_PID" 2>/dev/null || { tail -n 30 "$TP_LOG"; die "testpmd ($session) exited during start-up"; }
		sleep 0.5
		[ $(($(date +%s) - t)) -lt 240 ] || die "testpmd ($session) not up after 240 s"
	done
	TP_SEEN=1
	say "testpmd ($session) up in $(($(date +%s) - t)) s"
}

stop_testpmd() {
	echo quit >&3
	exec 3>&-
	local t=0
	while kill -0 "$TP_PID" 2>/dev/null; do
		sleep 0.5
		t=$((t + 1))
		[ "$t" -lt 60 ] || { kill "$TP_PID"; die "testpmd did not quit"; }
	done
	wait "$TP_PID"
	local rc=$?
	cp "$TP_LOG" "$OUT/testpmd-$TP_SESSION.log"
	[ "$rc" = 0 ] || die "testpmd exited with status $rc"
}

rx_packets() {
	tp show port stats "$1"
	VAL=$(tp_last | awk '{ for (i = 1; i < NF; i++) if ($i == "RX-packets:") { print $(i + 1); exit } }')
	[[ $VAL =~ ^[0-9]+$ ]] || die "no RX-packets in 'show port stats $1'"
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
	start_testpmd "$session" "${extra[@]}"
	tp show port summary all
	p=$(tp_last | awk -v n="$name" '$3 == n { print $1 }')
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
		rx_packets "$p"
		[ "$VAL" -ge "$NFRAMES" ] && break
		t=$((t + 1))
		[ "$t" -lt 20 ] || break
	done
	sleep 1
	tp stop
	tp_last > "$OUT/fwd-stats-$session.txt"
	tp show port stats "$p"
	tp_last > "$OUT/stats-$session.txt"
	rx_packets "$p"
	tp show port xstats "$p"
	tp_last > "$OUT/xstats-$session.txt"
	echo "session $session $VAL" >> "$OUT/sessions.txt"
	say "session $session: port $p received $VAL of $NFRAMES"
	stop_testpmd
done
say "done"
exit 0
