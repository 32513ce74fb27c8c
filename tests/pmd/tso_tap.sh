#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# TSO from an unmodified testpmd onto net_tap: tso_testpmd.sh's frames
# (plain IPv4/IPv6, VXLAN/IPv4, GENEVE with options/IPv6, then a 900-byte
# one; tso_pcap.py) read by net_pcap and sent by testpmd's csum engine,
# with `tso set` and `tunnel_tso set`, through a hwcsum port over net_tap;
# what reaches the kernel's side of the tap is captured by tcpdump.
# net_tap's own TSO is rte_gso (TCP over IPv4 only), so hwcsum cuts every
# shape and the tap sums what hwcsum hands it (its UDP/TCP offload).
# Judged by tso_pcap.py (count, order, sequence, lengths, flags, payload
# byte for byte) and by tshark on every IPv4, UDP and TCP checksum.
#
# tso_tap.sh PMD_SO [MSS]: MSS 1300 (the default) or 1400.
# net_tap 22.11 takes no frame longer than its MTU (1500) plus 22 bytes:
# it counts it in its oerrors (hwcsum's sub_tx_errors) and hands it back
# to the caller unfreed, at every call, as if its ring were full. A GENEVE
# over IPv6 segment with options carries 152 bytes of headers: at 1300
# every segment passes; at 1400 the GENEVE packet's first segment is
# refused (1552 bytes), and its segments, which hwcsum owns once it has
# cut them, wait before anything else of the queue. The 900-byte frame,
# in the same burst, is handed back to testpmd, which frees it
# (TX-dropped) unless it retries; the same frames sent to net_tap without
# hwcsum lose it too (docs/pmd.md). So at 1400 testpmd retries
# (`set fwd csum retry`, 64 times 20 ms apart), and the test asserts what
# follows: hwcsum gives the refused segments up after 100 ms
# (tx_tso_dropped_refused, all four), the retry sends the 900-byte frame,
# nothing of the GENEVE packet is on the tap, testpmd dropped nothing
# itself and the pool has every mbuf back.
PMD_SO=$1
. "$(dirname "$0")/lib.sh"
private_netns "$@"
MSS=${2:-1300}
case $MSS in
1300) REFUSED= ;;
1400) REFUSED=7004 ;;	# tso_pcap.py's GENEVE frame
*) echo "FAIL: MSS $MSS: this test knows what net_tap does at 1300 and 1400 only"; exit 1 ;;
esac
seg_pcap_gen tso

# mb_pool_0's mbufs in use, from dump_mempool in $TP_OUT.
pool_in_use() {
	awk '/^mempool </ { on = ($0 ~ /<mb_pool_0>/) }
		on && /^ *size=/ { split($1, a, "="); size = a[2] }
		on && /total_cache_count=/ { split($1, a, "="); cache = a[2] }
		on && /common_pool_count=/ { split($1, a, "="); pool = a[2] }
		END { print size - cache - pool }' <<<"$TP_OUT"
}

# Ports: net_pcap0 0, net_tap0 1, hwcsum over them 2 and 3. Configured
# before the capture starts: a port restart takes the tap down.
tp_start tap $TP_EAL --vdev net_pcap0,rx_pcap=$WORK/in.pcap,tx_pcap=/dev/null \
	--vdev net_tap0,iface=hwtsotap0 --vdev net_hwcsum0,sub=net_pcap0 \
	--vdev net_hwcsum1,sub=net_tap0 -- $TP_APP --no-flush-rx --nb-ports=2
for c in "port stop 3" "csum set ip hw 3" "csum set tcp hw 3" "csum set udp hw 3" \
	 "csum set outer-ip hw 3" "csum set outer-udp hw 3" "csum parse-tunnel on 3" \
	 "tso set $MSS 3" "tunnel_tso set $MSS 3" "port start 3"; do
	tp "$c"
done
tap_capture hwtsotap0 "$WORK/out.pcap" || fail "no capture"
if [ -z "$REFUSED" ]; then
	tp "set fwd csum"
	tap_forward 3
else
	tp "set burst tx delay 20000 retry 64"
	tp "set fwd csum retry"
	tp "dump_mempool"
	in_use0=$(pool_in_use)
	tp "start"
	sleep 3
	tp "stop"
	tp "dump_mempool"
	in_use1=$(pool_in_use)
	tp "show port xstats 3"
	tp_stop
	tap_capture_stop
	[ "$in_use0" -eq "$in_use1" ] &&
		pass "mb_pool_0: $in_use1 mbufs in use after forwarding, as before" ||
		fail "mb_pool_0: $in_use1 mbufs in use after forwarding, $in_use0 before"
fi

seg_pcap_check $MSS "net_tap: " ", in order, payload byte for byte" "$REFUSED"
frames=$(tshark -r "$WORK/out.pcap" 2>/dev/null | wc -l)
read -r good bad < <(/usr/bin/python3 "$(dirname "$0")/../lib/pcap_csum.py" --count good-bad "$WORK/out.pcap")
[ "$frames" -gt 0 ] && [ "$bad" = 0 ] && [ "$good" -gt "$frames" ] &&
	pass "tshark: $frames frames, $good checksums good, none bad" ||
	fail "tshark: $frames frames, $good good, $bad bad"
# testpmd asks TSO of the four frames longer than one segment.
want_segs=$([ -z "$REFUSED" ] && echo 20 || echo 19)
sw=$(xstat_of tx_tso_sw) segs=$(xstat_of tx_tso_segments) hw=$(xstat_of tx_tso_hw)
[ "${sw:-0}" -eq 4 ] && [ "${segs:-0}" -eq "$want_segs" ] && [ "${hw:-0}" -eq 0 ] &&
	pass "cut by hwcsum: tx_tso_sw 4, tx_tso_segments $want_segs, tx_tso_hw 0" ||
	fail "tx_tso_sw ${sw:-none}, tx_tso_segments ${segs:-none}, tx_tso_hw ${hw:-none}: want 4, $want_segs, 0"
if [ -n "$REFUSED" ]; then
	refused=$(xstat_of tx_tso_dropped_refused) sub_err=$(xstat_of sub_tx_errors)
	tx_err=$(xstat_of tx_errors)
	[ "${refused:-0}" -eq 4 ] &&
		pass "the GENEVE packet's 4 segments given up: tx_tso_dropped_refused 4" ||
		fail "tx_tso_dropped_refused ${refused:-none}, want 4"
	# Each refusal is net_tap's, of the 4 waiting segments: the first
	# try and at least one of testpmd's retries.
	[ "${sub_err:-0}" -ge 8 ] && [ $((sub_err % 4)) -eq 0 ] &&
		pass "net_tap refused them $((sub_err / 4)) times (sub_tx_errors $sub_err)" ||
		fail "sub_tx_errors ${sub_err:-none}: want 4 a try, at least 2 tries"
	dropped=$(awk '/Forward statistics for port 3/ { on = 1 }
		on && /TX-dropped:/ { print $4; exit }' <<<"$OUT")
	[ "${dropped:-x}" = "${tx_err:-y}" ] &&
		pass "testpmd dropped nothing itself: TX-dropped $dropped = oerrors" ||
		fail "testpmd TX-dropped ${dropped:-none}, the port's oerrors ${tx_err:-none}"
fi
finish
