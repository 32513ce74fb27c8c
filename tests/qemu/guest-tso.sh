#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guest side of the QEMU TSO test (tests/qemu/tso.sh runs it through
# devtools/vm-run.sh):
#
#   tests/qemu/guest-tso.sh MODEL PMD_SO MSS
#
# NIC 0 goes to uio_pci_generic; testpmd drives net_hwcsum0 on it
# (sub=<PCI address>) and a net_pcap port that reads $HWCSUM_OUT/frames.pcap
# (large TCP frames: plain IPv4 and IPv6, VXLAN/IPv4, GENEVE/IPv6 with
# options, one short; tests/pmd/tso_pcap.py). testpmd's csum engine asks
# for every checksum in hardware, `tso set MSS` and `tunnel_tso set MSS` on
# the hwcsum port; the host judges the wire. The replay runs twice (to
# peer MAC 02:00:00:00:a0:01, then :02): the
# mempool's in-use count after the second must equal the one after the
# first (no mbuf kept by a cut or a hand-down).
#
# Written to $HWCSUM_OUT: result.txt (pcap frames read, TX port's
# packets, mempool in use after each pass), xstats-K.txt, port-stats-K.txt,
# tx-offloads.txt, port-info.txt, testpmd-tso.log.

set -u
MODEL=${1:?usage: guest-tso.sh MODEL PMD_SO MSS}
PMD_SO=${2:?usage: guest-tso.sh MODEL PMD_SO MSS}
MSS=${3:?usage: guest-tso.sh MODEL PMD_SO MSS}
RESULTS=${HWCSUM_OUT:?run me through devtools/vm-run.sh}
GUEST_TAG=qemu-guest
# shellcheck source=tests/qemu/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"

FRAMES="$RESULTS/frames.pcap"
[ -r "$FRAMES" ] || die "$FRAMES missing (tso.sh writes it before the boot)"
# Counted on the host (python and scapy are slow to start under TCG).
NFRAMES=$(cat "$RESULTS/frames.count") || die "$RESULTS/frames.count missing (tso.sh writes it)"

nic0_find
say "model $MODEL: NIC 0 at $BDF (device $DEVID, kernel driver ${KDRV:-none}), $NFRAMES frames, MSS $MSS"
nic0_to_uio
# The other NICs (virtio: the receiving tap of the bridge) stay with the
# kernel, up, so that QEMU delivers to them and filter-dump records it.
other_nics_up
hugepages_and_pmds tso.sh
[ -r "$PMD_SO" ] || die "hwcsum PMD $PMD_SO not readable in the guest"
model_pmds librte_net_pcap.so.23
tp_start tso -l 0-1 -n 1 -m 64 --file-prefix hwcsum-tso --iova-mode=pa \
	-a "$BDF" --vdev "net_pcap0,rx_pcap=$FRAMES" -d "$PMD_SO" --vdev "net_hwcsum0,sub=$BDF" \
	"${EXTRA[@]}" -- -i --no-flush-rx --mask-event intr_lsc --total-num-mbufs=4096 \
	--txd=256 --rxd=256
tp_port_id net_pcap0; pp=$VAL
tp_port_id net_hwcsum0; txp=$VAL
[ -n "$pp" ] && [ -n "$txp" ] || { echo "$TP_OUT"; die "ports net_pcap0/net_hwcsum0 not found"; }
say "pcap port $pp, hwcsum port $txp"

tp port stop all
for what in ip udp tcp outer-ip outer-udp; do
	tp csum set "$what" hw "$txp"
done
tp csum parse-tunnel on "$txp"
tp tso set "$MSS" "$txp"
tp tunnel_tso set "$MSS" "$txp"
tp set fwd csum
tp show port info "$txp"
printf '%s' "$TP_OUT" > "$RESULTS/port-info.txt"

# mempool_in_use: VAL = mbufs of testpmd's pool not in the pool.
mempool_in_use() {
	local size common cache
	tp dump_mempool mb_pool_0
	[[ $TP_OUT =~ size=([0-9]+) ]] || die "no size in dump_mempool"
	size=${BASH_REMATCH[1]}
	[[ $TP_OUT =~ common_pool_count=([0-9]+) ]] || die "no common_pool_count in dump_mempool"
	common=${BASH_REMATCH[1]}
	[[ $TP_OUT =~ total_cache_count=([0-9]+) ]] || die "no total_cache_count in dump_mempool"
	cache=${BASH_REMATCH[1]}
	VAL=$((size - common - cache))
}

: > "$RESULTS/result.txt"
for pass in 1 2; do
	# Pass k goes to peer MAC 02:00:00:00:a0:0k: the host tells the
	# passes apart. The pcap port reads its file again on each port start.
	tp set eth-peer "$txp" "02:00:00:00:a0:0$pass"
	tp port start all
	tp clear port xstats "$txp"
	tp show port "$txp" tx_offload configuration
	printf '%s' "$TP_OUT" > "$RESULTS/tx-offloads.txt"
	replay "$pp" "$txp" "$pass" 90
	tp show port stats "$txp"
	printf '%s' "$TP_OUT" > "$RESULTS/port-stats-$pass.txt"
	tp show port xstats "$txp"
	printf '%s' "$TP_OUT" > "$RESULTS/xstats-$pass.txt"
	tp port stop all
	mempool_in_use
	echo "pass $pass read $rx sent $tx in_use $VAL" >> "$RESULTS/result.txt"
	say "pass $pass: pcap port read $rx of $NFRAMES, hwcsum port sent $tx, mempool in use after stop: $VAL"
	[ "$rx" = "$NFRAMES" ] || die "pass $pass: the pcap port read $rx frames, the file has $NFRAMES"
done
tp_stop
say "done"
exit 0
