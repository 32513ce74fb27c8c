#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The hand-off to a sub-port's own checksum engine, judged by tshark.
#
# net_tap computes UDP/TCP checksums from l2_len/l3_len itself: a driver
# hwcsum did not write, standing in for hardware on the host. testpmd's
# csum engine forwards 24 packets with every checksum wrong (VXLAN/IPv4
# with inner UDP, VXLAN/IPv6 with inner TCP, plain TCP) from a net_pcap
# port to hwcsum over net_tap, with ip, udp, tcp, outer-ip and outer-udp
# in "hw" (the offloads given with --tx-offloads). The kernel side of the tap is captured and every checksum must
# be right, for each tx_engine, with the xstats saying who did what:
#   generic: every L4 checksum by the tap (the inner one of a tunnel
#            too), the outer UDP by LCO;
#   parse:   inner checksums here (reason encap), the outer UDP by the tap;
#   none:    everything here.
# The same packets io-forwarded (no checksum computed by anyone) must be
# judged bad: the oracle can fail.
PMD_SO=$1
. "$(dirname "$0")/lib.sh"
private_netns "$@"

WORK=$(mktemp -d /var/tmp/hwcsum-handoff.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
/usr/bin/python3 "$(dirname "$0")/tx_handoff_gen.py" "$WORK/in.pcap" "$WORK/empty.pcap" ||
	{ echo "FAIL: cannot generate the capture"; exit 1; }

# run <session> <tx_engine> [tx offload mask]: capture in $WORK/tap.pcap,
# log in $OUT.
# The offloads are given at start (--tx-offloads), so no port is stopped
# and restarted: a restart takes the tap down under tcpdump.
run() {
	local engine=$2 offloads=${3:-}
	rm -f "$WORK/tap.pcap"
	tp_start "$1" $TP_EAL --vdev net_pcap0,rx_pcap=$WORK/in.pcap,tx_pcap=/dev/null \
		--vdev net_tap0,iface=hwcsumtap0 --vdev net_hwcsum0,sub=net_pcap0 \
		--vdev net_hwcsum1,sub=net_tap0,tx_engine=$engine -- \
		-i --no-flush-rx --total-num-mbufs=2048 --nb-ports=2 ${offloads:+--tx-offloads=$offloads}
	# testpmd started the ports, which brought the tap up: it must be
	# captured before anything is forwarded.
	ip -o link show hwcsumtap0 2>/dev/null | grep -q '[<,]UP[,>]' ||
		fail "$engine: the tap is not up"
	tap_capture hwcsumtap0 "$WORK/tap.pcap" || fail "$engine: no capture"
	# No offload given: io forwarding, nothing computed by anyone.
	[ -n "$offloads" ] && tp set fwd csum || tp set fwd io
	tp csum parse-tunnel on 3
	tap_forward 3
}

# verdicts: "good bad" counts of IP/UDP/TCP checksums in the capture
verdicts() {
	/usr/bin/python3 "$(dirname "$0")/../lib/pcap_csum.py" --count good-bad "$WORK/tap.pcap"
}

xstat() { awk -v k="$1:" '$1 == k { print $2; exit }' <<<"$OUT"; }

expect_xstats() {
	local engine=$1 kv k v got
	shift
	for kv in "$@"; do
		k=${kv%%=*} v=${kv#*=}
		got=$(xstat "$k")
		[ "${got:-0}" = "$v" ] && pass "$engine: $k = $v" ||
			fail "$engine: $k = '${got:-0}', expected $v"
	done
}

# What "csum set ip|udp|tcp|outer-ip|outer-udp hw" enables: IPV4_CKSUM,
# UDP_CKSUM, TCP_CKSUM, OUTER_IPV4_CKSUM, OUTER_UDP_CKSUM.
CSUM_HW=0x10008e
# 24 packets: 16 tunnelled (4 checksums each: outer IP (v4 only), outer
# UDP, inner IP (v4 only), inner L4) and 8 plain (IP, TCP).
GOOD_EXPECTED=$((8 * 4 + 8 * 2 + 8 * 2))
for engine in generic parse none; do
	run "$engine" "$engine" "$CSUM_HW"
	read -r good bad < <(verdicts)
	packets=$(tshark -r "$WORK/tap.pcap" 2>/dev/null | wc -l)
	[ "$packets" = 24 ] && pass "$engine: 24 packets reached the kernel" ||
		fail "$engine: $packets packets reached the kernel, expected 24"
	[ "$bad" = 0 ] && [ "$good" = "$GOOD_EXPECTED" ] &&
		pass "$engine: tshark: $good checksums good, 0 bad" ||
		fail "$engine: tshark: $good good (expected $GOOD_EXPECTED), $bad bad"
	case $engine in
	generic) expect_xstats generic tx_req_dpdk_flags=24 tx_l4_hw=24 tx_l4_sw=0 \
			tx_outer_udp_lco=16 tx_ip_hw=8 tx_ip_sw=16 ;;
	parse) expect_xstats parse tx_l4_hw=8 tx_l4_sw=16 tx_l4_sw_encap=16 \
			tx_outer_udp_hw=16 tx_outer_udp_lco=0 ;;
	none) expect_xstats none tx_l4_hw=0 tx_l4_sw=24 tx_l4_sw_no_engine=24 \
			tx_outer_udp_lco=16 tx_ip_sw=24 ;;
	esac
done

# The oracle must be able to say no: no checksum asked, nothing fixed.
run control generic
read -r good bad < <(verdicts)
packets=$(tshark -r "$WORK/tap.pcap" 2>/dev/null | wc -l)
[ "$packets" = 24 ] && pass "control: 24 packets reached the kernel" ||
	fail "control: $packets packets reached the kernel, expected 24"
[ "$bad" -gt 0 ] && pass "control: tshark finds $bad bad checksums when none are offloaded" ||
	fail "control: tshark found no bad checksum in uncorrected packets"
finish
