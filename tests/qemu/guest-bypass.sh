#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guest side of the QEMU hwcsum suite (run inside the VM by
# tests/qemu/bypass.sh through devtools/vm-run.sh):
#
#   tests/qemu/guest-bypass.sh MODEL PMD_SO SESSION[:RUN,...] ...
#
# NIC 0 of $HWCSUM_NICS_FILE is the NIC under test. It is taken from the
# guest kernel, bound to uio_pci_generic and driven by the host's
# dpdk-testpmd: port "pcap" (net_pcap) reads $HWCSUM_OUT/frames.pcap (every
# checksum in it wrong, tests/qemu/gen-frames.py), testpmd's csum engine
# forwards it to the NIC port, which transmits it onto the emulated wire,
# where the host captures it (QEMU filter-dump, see bypass.sh).
#
# A SESSION is one testpmd process: "bare" drives the NIC directly
# (net_e1000_em / net_virtio), "hwcsum" drives net_hwcsum0 stacked on it
# (sub=<PCI address>, PMD_SO loaded with -d). Each RUN of a session is one
# replay of the capture file with the csum engine set to RUN's checksum
# mode: "sw" (testpmd computes every checksum itself) or "hw" (`csum set
# ip|udp|tcp|outer-ip|outer-udp hw`, `csum parse-tunnel on`: the port is
# asked for everything). Run k sends to the peer MAC 02:00:00:00:a0:<k>,
# so the host can tell the runs apart in one capture.
#
# Written to $HWCSUM_OUT: runs.txt ("run K SESSION MODE PEER_MAC SENT
# PCAP_READ"), testpmd-SESSION.log, fwd-stats-K.txt, xstats-K.txt (the TX port's
# xstats after run K), info.txt. This script fails when the set-up or the
# forwarding fails (a frame not sent); the checksums are judged on the host.

set -u
MODEL=${1:?usage: guest-bypass.sh MODEL PMD_SO SESSION[:RUN,...] ...}
PMD_SO=${2:?usage: guest-bypass.sh MODEL PMD_SO SESSION[:RUN,...] ...}
shift 2
[ $# -ge 1 ] || { echo "guest-bypass: no session given"; exit 2; }
RESULTS=${HWCSUM_OUT:?run me through devtools/vm-run.sh}
GUEST_TAG=qemu-guest
# shellcheck source=tests/qemu/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"

FRAMES="$RESULTS/frames.pcap"
[ -r "$FRAMES" ] || die "$FRAMES missing (bypass.sh writes it before the boot)"
NFRAMES=$(awk 'END { print NR }' "$RESULTS/frames.cases")

nic0_find
say "model $MODEL: NIC 0 $mac0 at $BDF (device $DEVID, kernel driver ${KDRV:-none}), kernel $(uname -r), $(nproc) CPUs"
nic0_to_uio
say "$BDF bound to uio_pci_generic"
# The other NICs (the receiving end of a virtio-tap bridge) stay with
# their kernel drivers, up, so that QEMU delivers to them.
other_nics_up
hugepages_and_pmds bypass.sh

{
	echo "model $MODEL"
	echo "kernel $(uname -r)"
	echo "nic0 $mac0 $BDF device $DEVID kernel-driver ${KDRV:-none}"
	echo "frames $NFRAMES"
} > "$RESULTS/info.txt"
: > "$RESULTS/runs.txt"

# These set VAL instead of printing: tp must not run in a subshell (it
# keeps its place in testpmd's log).
RUN_NO=0
# one_run SESSION MODE PCAP_PORT TX_PORT
one_run() {
	local session=$1 mode=$2 pp=$3 txp=$4 peer what rx tx
	RUN_NO=$((RUN_NO + 1))
	peer=$(printf '02:00:00:00:a0:%02x' "$RUN_NO")
	tp port stop all
	for what in ip udp tcp outer-ip outer-udp; do
		tp csum set "$what" "$mode" "$txp"
	done
	tp csum parse-tunnel on "$txp"
	tp set eth-peer "$txp" "$peer"
	tp port start all
	tp set fwd csum
	tp clear port xstats "$txp"
	replay "$pp" "$txp" "$RUN_NO" 60 1
	tp show port xstats "$txp"
	printf '%s' "$TP_OUT" > "$RESULTS/xstats-$RUN_NO.txt"
	echo "run $RUN_NO $session $mode $peer $tx $rx" >> "$RESULTS/runs.txt"
	say "run $RUN_NO ($session, csum $mode): pcap port read $rx, TX port sent $tx of $NFRAMES, peer $peer"
	# What was sent is judged on the host, against the capture; a frame
	# not even read from the file is a broken set-up.
	[ "$rx" = "$NFRAMES" ] || die "run $RUN_NO: the pcap port read $rx frames, the file has $NFRAMES"
}

for spec in "$@"; do
	session=${spec%%:*}
	modes=sw,hw
	[[ $spec == *:* ]] && modes=${spec#*:}
	model_pmds librte_net_pcap.so.23
	session_port "$session"
	tx_name=$VAL
	# No link state change events: they are printed asynchronously, in
	# the middle of a prompt.
	tp_start "$session" -l 0-1 -n 1 -m 64 --file-prefix "hwcsum-$session" --iova-mode=pa \
		-a "$BDF" --vdev "net_pcap0,rx_pcap=$FRAMES" "${EXTRA[@]}" -- \
		-i --no-flush-rx --mask-event intr_lsc --total-num-mbufs=4096 --txd=256 --rxd=256
	tp_port_id net_pcap0; pp=$VAL
	tp_port_id "$tx_name"; txp=$VAL
	[ -n "$pp" ] && [ -n "$txp" ] || { echo "$TP_OUT"; die "ports net_pcap0/$tx_name not found"; }
	tp show port info "$txp"
	printf '%s' "$TP_OUT" > "$RESULTS/port-info-$session.txt"
	say "session $session: pcap port $pp, TX port $txp ($tx_name)"
	for mode in ${modes//,/ }; do
		one_run "$session" "$mode" "$pp" "$txp"
	done
	tp_stop
done
say "done"
exit 0
