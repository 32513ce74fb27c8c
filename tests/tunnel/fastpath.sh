#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# hwcsum-tunnel decapsulation: the fast path (headers from the lengths,
# packet_type and verdicts hwcsum's receive work left in the mbuf) against
# the walk it falls back to. The same underlay traffic (every tunnel type,
# both families, GENEVE options long enough for the lengths not to fit,
# and packets wrong in one way each) is decapsulated with hwcsum's receive
# work on (the default) and off (rx=off: no lengths, no verdicts, the
# gateway walks and sums everything itself). The inner ports must get the
# same frames, byte for byte, and the drops the same counts.
# Usage: fastpath.sh <hwcsum-tunnel> <librte_net_hwcsum.so>
GW=$1 PMD_SO=$2
. "$(dirname "$0")/lib.sh"

"$PY" "$HERE/frames.py" gen "$WORK" && "$PY" "$HERE/frames.py" ini "$WORK" ||
	{ echo "FAIL: cannot generate traffic"; exit 1; }
NAMES=$(tunnel_names)

# Frames of two captures, byte for byte: "same N" or what differs.
same_frames() {
	"$PY" - "$1" "$2" <<'EOF'
import sys
from scapy.all import rdpcap
a = [bytes(p) for p in rdpcap(sys.argv[1])]
b = [bytes(p) for p in rdpcap(sys.argv[2])]
if a == b:
    print("same %d" % len(a))
else:
    diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    print("differ: %d and %d frames, first differing %s" % (len(a), len(b), diff[:5]))
EOF
}

run_gw encap $(gw_vdevs "" "$WORK/empty.pcap" "$WORK/under.pcap" "$WORK/inner_@.pcap" \
	"$WORK/inner_out_@.pcap") -- -f "$WORK/gw.ini" --duration 2
[ "$RC" -eq 0 ] && pass "encap run exits 0" || fail "encap run exit status $RC"
sent=$(tshark -r "$WORK/under.pcap" 2>/dev/null | wc -l)
[ "$sent" -gt 0 ] || fail "encap: nothing on the underlay"

for mode in on off; do
	args=""
	[ $mode = off ] && args=",rx=off"
	run_gw decap-$mode $(gw_vdevs "$args" "$WORK/under.pcap" "$WORK/under_out_$mode.pcap" \
		"$WORK/empty.pcap" "$WORK/back_${mode}_@.pcap") -- -f "$WORK/gw.ini" --duration 2
	[ "$RC" -eq 0 ] && pass "decap rx=$mode exits 0" || fail "decap rx=$mode exit status $RC"
	expect_in "$WORK/decap-$mode.log" "none leaked" "decap rx=$mode: no mbuf leaked"
	expect_in "$WORK/decap-$mode.log" "encap 0 decap $sent " "decap rx=$mode: $sent delivered"
	run_gw drops-$mode $(gw_vdevs "$args" "$WORK/bad.pcap" "$WORK/under_out2_$mode.pcap" \
		"$WORK/empty.pcap" "$WORK/drop_${mode}_@.pcap") -- -f "$WORK/gw.ini" --duration 2
	[ "$RC" -eq 0 ] && pass "drops rx=$mode exits 0" || fail "drops rx=$mode exit status $RC"
	expect_in "$WORK/drops-$mode.log" "none leaked" "drops rx=$mode: every dropped mbuf freed"
done

# Which path each run took: rx on takes hwcsum's lengths for all but the
# long GENEVE options (gn6: l2_len does not fit 7 bits), rx off walks all.
expect_in "$WORK/decap-on.log" "decap headers: hwcsum [1-9][0-9]* walked [1-9]" \
	"rx=on: most packets from hwcsum's lengths, gn6 walked"
expect_in "$WORK/decap-off.log" "decap headers: hwcsum 0 walked $sent\$" \
	"rx=off: every packet walked by the gateway"
expect_in "$WORK/drops-on.log" "decap headers: hwcsum [1-9]" \
	"rx=on: bad packets judged from hwcsum's lengths too"

for n in $NAMES; do
	r=$(same_frames "$WORK/back_on_$n.pcap" "$WORK/back_off_$n.pcap")
	case $r in
	same\ 0) fail "$n: nothing delivered" ;;
	same*) pass "$n: rx=on and rx=off deliver the same frames (${r#same })" ;;
	*) fail "$n: rx=on and rx=off: $r" ;;
	esac
done
d_on=$(grep "^  drops:" "$WORK/drops-on.log" | tail -1)
d_off=$(grep "^  drops:" "$WORK/drops-off.log" | tail -1)
[ -n "$d_on" ] && [ "$d_on" = "$d_off" ] && pass "same drops by reason:$d_on" ||
	fail "drops differ: rx=on '$d_on', rx=off '$d_off'"
finish
