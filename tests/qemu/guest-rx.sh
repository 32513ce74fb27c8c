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
RESULTS=${HWCSUM_OUT:?run me through devtools/vm-run.sh}
GUEST_TAG=qemu-guest-rx
# shellcheck source=tests/qemu/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"

FRAMES="$RESULTS/rx-frames.pcap"
[ -r "$FRAMES" ] || die "$FRAMES missing (rx.sh writes it before the boot)"

nic0_find
mac1=$(nic_mac 1)
[ -n "$mac1" ] || die "no NIC 1 (the injector)"
say "model $MODEL: NIC 0 $mac0 at $BDF (device $DEVID, kernel driver ${KDRV:-none}), kernel $(uname -r)"

# No IPv6 autoconfiguration on the injector: it would send ND/MLD frames.
for f in /proc/sys/net/ipv6/conf/{all,default}/disable_ipv6; do
	[ -w "$f" ] && echo 1 > "$f"
done
INJ=$(nic_by_mac "$mac1") || die "NIC 1 ($mac1) has no kernel interface"
[ -w "/proc/sys/net/ipv6/conf/$INJ/disable_ipv6" ] && echo 1 > "/proc/sys/net/ipv6/conf/$INJ/disable_ipv6"
run ip link set "$INJ" up
say "injector: NIC 1 $mac1 = $INJ ($(basename "$(readlink "/sys/class/net/$INJ/device/driver")"))"

nic0_to_uio
hugepages_and_pmds rx.sh

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

NFRAMES=$(/usr/bin/python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$RESULTS/rx-frames.json")
: > "$RESULTS/sessions.txt"
first=1
for session in "$@"; do
	model_pmds
	session_port "$session"
	name=$VAL
	# The capture on the host is split by these markers (one before each session).
	[ "$first" = 1 ] || inject marker > /dev/null
	first=0
	RX_CKSUM_OPT=--enable-rx-cksum RX_OFFLOAD_CMDS=0
	if [ "$MODEL" = virtio ] && [ "$session" = bare ]; then
		RX_CKSUM_OPT= RX_OFFLOAD_CMDS=1
	fi
	tp_start "$session" -l 0-1 -n 1 -m 64 --file-prefix "hwcsum-rx-$session" --iova-mode=pa \
		-a "$BDF" "${EXTRA[@]}" -- \
		-i $RX_CKSUM_OPT --mask-event intr_lsc --total-num-mbufs=4096 --txd=256 --rxd=256
	tp_port_id "$name"; p=$VAL
	[ -n "$p" ] || { echo "$TP_OUT"; die "port $name not found"; }
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
	printf '%s' "$TP_OUT" > "$RESULTS/tunnel-add-$session.txt"
	tp port config "$p" udp_tunnel_port add geneve 6081
	printf '%s' "$TP_OUT" >> "$RESULTS/tunnel-add-$session.txt"
	tp set promisc all off
	tp set allmulti all off
	tp set eth-peer "$p" 02:00:00:00:ff:ff
	tp set fwd csum
	tp show port info "$p"
	printf '%s' "$TP_OUT" > "$RESULTS/port-info-$session.txt"
	tp clear port stats all
	tp clear port xstats "$p"
	tp start
	sleep 1
	# virtio: rx.sh switches br_netfilter off in the taps' namespace first
	# (it drops IPv4 frames with a wrong header checksum on the bridge).
	if [ "$MODEL" = virtio ]; then
		t=0
		until [ -s "$RESULTS/netns-ready" ]; do
			sleep 0.5
			t=$((t + 1))
			[ "$t" -lt 120 ] || die "rx.sh did not prepare the tap namespace (no $RESULTS/netns-ready)"
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
	printf '%s' "$TP_OUT" > "$RESULTS/fwd-stats-$session.txt"
	tp show port stats "$p"
	printf '%s' "$TP_OUT" > "$RESULTS/stats-$session.txt"
	tp_counter "$p" RX-packets
	tp show port xstats "$p"
	printf '%s' "$TP_OUT" > "$RESULTS/xstats-$session.txt"
	echo "session $session $VAL" >> "$RESULTS/sessions.txt"
	say "session $session: port $p received $VAL of $NFRAMES"
	tp_stop
done
say "done"
exit 0
