#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# rte_flow on net_hwcsum through an unmodified dpdk-testpmd: `flow
# validate|create|list|query|destroy|flush|isolate` with tunnel items,
# crafted tunnel traffic from net_pcap (flow_oracle.py), one output
# capture per queue (io forwarding: RX queue q leaves on TX queue q).
# Judged by flow_oracle.py (queue, mark, RSS hash against its own
# Toeplitz; spread of inner flows), by testpmd's own counters and by the
# registry through telemetry (rules hold references on tunnel ports).
PMD_SO=$1
. "$(dirname "$0")/../pmd/lib.sh"
WORK=$(mktemp -d)
. "$(dirname "$0")/../pmd/session.sh"
ORACLE="/usr/bin/python3 $(dirname "$0")/flow_oracle.py"

$ORACLE gen "$WORK" || { echo "FAIL: cannot write the traffic"; exit 1; }
N_IN=$(/usr/bin/python3 -c "from scapy.all import rdpcap; print(len(rdpcap('$WORK/in.pcap')))")
pcap_vdev() {
	local rx="rx_pcap=$WORK/in.pcap" tx="" q
	for q in 1 2 3; do rx="$rx,rx_pcap=$WORK/empty.pcap"; done
	for q in 0 1 2 3; do tx="$tx,tx_pcap=$WORK/o$q.pcap"; done
	echo "--vdev net_pcap0,$rx$tx"
}
HW_ARGS="--vdev net_hwcsum0,sub=net_pcap0,tunnel_ports=gue:6080"
APP_ARGS="--rxq=4 --txq=4 --no-flush-rx"

# flow_ok "<flow command>" "<what>": testpmd must print "Flow rule #N created"
# (or "validated"); the rule id goes to $RULE.
flow_ok() {
	tp "$1"
	RULE=$(sed -n 's/^Flow rule #\([0-9]*\) created.*/\1/p' <<<"$TP_OUT" | tail -1)
	if grep -qE "^Flow rule #[0-9]+ created|^Flow rule validated" <<<"$TP_OUT"; then
		pass "$2"
	else
		fail "$2: $(head -3 <<<"$TP_OUT")"
	fi
}

# flow_err "<flow command>" "<message part>": refused, naming what is wrong.
flow_err() {
	tp "$1"
	if grep -qE "^Flow rule #[0-9]+ created|^Flow rule validated" <<<"$TP_OUT"; then
		fail "accepted: $1"
	elif ! grep -qF -- "$2" <<<"$TP_OUT"; then
		fail "'$1' refused without '$2': $(grep -i 'error\|caught' <<<"$TP_OUT" | head -2)"
	else
		pass "refused: ${2}"
	fi
}

users() {
	expect_tel "$1" "$2" "/hwcsum/tunnels,$P" users
}

# forward_all: forward until the sub-port has read all of in.pcap (net_pcap
# replays it at each port start), not for a fixed time a loaded machine can
# overrun. Steered packets are delivered by the next pass over the queues,
# long before "stop" arrives.
forward_all() {
	local base got
	xstat "$P" sub_rx_good_packets
	base=$VAL
	tp "start"
	counter_wait $((base + N_IN)) xstat "$P" sub_rx_good_packets
	got=$VAL
	tp "stop"
	[ $((got - base)) = "$N_IN" ] && pass "the sub-port read all $N_IN packets of in.pcap" ||
		fail "the sub-port read $((got - base)) of the $N_IN packets in in.pcap"
}

hits() {	# hits <rule> <expected>
	local got
	tp "flow query $P $1 count"
	got=$(awk '/hits:/ { print $2; exit }' <<<"$TP_OUT")
	[ "$got" = "$2" ] && pass "rule $1 COUNT: $got hits" ||
		fail "rule $1 COUNT: '$got' hits, expected $2"
}

# ------------------------------------------------ rules, traffic, verdicts
tp_start rules $TP_EAL $(pcap_vdev) $HW_ARGS -- $TP_APP $APP_ARGS
tp_port_id net_hwcsum0; P=$VAL
[ -n "$P" ] && [ "$P" != 0 ] && pass "hwcsum is port $P" || fail "hwcsum port id '$P'"
users "only the devarg's GUE port at start" "v4 6080 gue refcnt 1"

VX='eth / ipv4 / udp / vxlan'
RSS4='rss level 2 types ipv4-udp end queues 0 1 2 3 end'
flow_ok "flow validate $P ingress pattern $VX vni is 42 / eth / ipv4 / udp / end actions $RSS4 / mark id 7 / count / end" \
	"validate a VXLAN inner-RSS rule"
users "validate took no reference" "v4 6080 gue refcnt 1"

flow_ok "flow create $P ingress pattern $VX vni is 42 / eth / ipv4 / udp / end actions $RSS4 / mark id 7 / count / end" \
	"rule 0: VXLAN VNI 42, inner RSS over 4 queues, MARK 7"
R_VX42=$RULE
users "a VXLAN item took a reference on 4789" "$(printf 'v4 6080 gue refcnt 1\nv4 4789 vxlan refcnt 1')"
flow_ok "flow create $P ingress pattern $VX vni is 43 / end actions queue index 3 / mark id 9 / count / end" \
	"rule 1: VXLAN VNI 43 to queue 3, MARK 9"
R_VX43=$RULE
users "two rules, two references" "$(printf 'v4 6080 gue refcnt 1\nv4 4789 vxlan refcnt 2')"
flow_ok "flow create $P ingress pattern eth / ipv4 / udp dst is 9999 / end actions drop / count / end" \
	"rule 2: UDP 9999 dropped"
R_DROP=$RULE
flow_ok "flow create $P priority 1 ingress pattern eth / ipv4 / tcp / end actions queue index 1 / count / end" \
	"rule 3: any TCP to queue 1 (priority 1)"
R_TCP=$RULE
flow_ok "flow create $P priority 0 ingress pattern eth / ipv4 src is 10.0.0.5 / tcp dst is 80 / end actions queue index 2 / count / end" \
	"rule 4: TCP 80 from 10.0.0.5 to queue 2 (priority 0 wins)"
R_TCP5=$RULE
flow_ok "flow create $P ingress pattern eth / ipv4 / udp dst is 7777 / end actions passthru / flag / count / end" \
	"rule 5: UDP 7777 FLAG, PASSTHRU"
R_PASS=$RULE
flow_ok "flow create $P priority 2 ingress pattern eth / ipv4 / udp / end actions queue index 2 / end" \
	"rule 6: any UDP to queue 2 (priority 2: decides after PASSTHRU)"
flow_ok "flow create $P ingress pattern eth / ipv4 / udp / geneve vni is 7 / geneve-opt class is 0x0102 type is 0x80 length is 1 data is 0x11223344 / end actions $RSS4 / mark id 11 / count / end" \
	"rule 7: GENEVE VNI 7 with option 0102:80 = 11223344, inner RSS, MARK 11"
R_GEN=$RULE
flow_ok "flow create $P ingress pattern eth / ipv4 / udp / geneve vni is 7 / end actions queue index 0 / end" \
	"rule 8: other GENEVE VNI 7 to queue 0"
flow_ok "flow create $P ingress pattern eth / ipv4 / udp dst is 6080 / end actions $RSS4 / mark id 12 / end" \
	"rule 9: GUE (a registry port, no tunnel item), inner RSS, MARK 12"
flow_ok "flow create $P ingress pattern eth / ipv6 / udp / vxlan vni is 50 / end actions rss level 2 types ipv6-udp end queues 0 1 2 3 end / mark id 13 / end" \
	"rule 10: VXLAN VNI 50 over IPv6, inner IPv6 RSS, MARK 13"
users "GENEVE rules share one reference per rule" \
	"$(printf 'v4 6080 gue refcnt 1\nv4 4789 vxlan refcnt 3\nv4 6081 geneve refcnt 2')"

tp "flow list $P"
n=$(grep -cE "^[0-9]+[[:space:]]+[0-9]+[[:space:]]+[0-9]+[[:space:]]+i-" <<<"$TP_OUT")
[ "$n" = 11 ] && pass "flow list shows 11 rules" || fail "flow list shows $n rules: $TP_OUT"
expect_tel "telemetry counts rules and masks" "11" "/hwcsum/flows,$P" n_rules

tp "set fwd io"
tp "set verbose 1"
off=$(stat -c %s "$TP_LOG")
forward_all
tail -c +$((off + 1)) "$TP_LOG" >"$WORK/verbose.log"
tp "set verbose 0"
$ORACLE check "$WORK" "$WORK/verbose.log" >"$WORK/oracle.txt"
orc=$?
cat "$WORK/oracle.txt"
[ $orc -eq 0 ] && pass "flow_oracle.py: every packet where the rules put it" ||
	fail "flow_oracle.py found $(grep -c '^FAIL' "$WORK/oracle.txt") wrong"

hits "$R_VX42" 256
hits "$R_VX43" 32
hits "$R_DROP" 32
hits "$R_TCP" 16
hits "$R_TCP5" 16
hits "$R_PASS" 16
hits "$R_GEN" 256
xstat "$P" rx_flow_drop_action
[ "$VAL" = 32 ] && pass "xstat rx_flow_drop_action 32" ||
	fail "xstat rx_flow_drop_action '$VAL', expected 32"
# Rule 6 alone is a bare QUEUE rule on plain headers (the others count,
# mark or name a tunnel): offered to the sub-port, which as net_pcap has
# no rte_flow; it stays in software and the xstats say so.
xstat "$P" flow_rules_hw; hw=$VAL
xstat "$P" flow_rules_hw_refused; refused=$VAL
[ "$hw/$refused" = 0/1 ] && pass "the bare QUEUE rule offered to net_pcap, refused: all rules in software" ||
	fail "flow_rules_hw $hw, flow_rules_hw_refused $refused (expected 0 and 1)"
xstat "$P" rx_flow_steer_full_dropped
[ "$VAL" = 0 ] && pass "no steered packet lost" ||
	fail "rx_flow_steer_full_dropped '$VAL'"

# ------------------------------------------------------------- errors
flow_err "flow create $P ingress pattern eth / ipv4 ttl is 5 / end actions queue index 1 / end" \
	"IPV4 item #1: byte 8 of the mask asks for a field that cannot be matched (only src, dst, proto)"
flow_err "flow create $P ingress pattern eth / ipv4 / udp / end actions queue index 9 / end" \
	"QUEUE action #0: queue 9"
flow_err "flow create $P ingress pattern eth / ipv4 / udp / end actions rss level 3 types ipv4-udp end queues 0 1 end / end" \
	"RSS action #0: level 3"
flow_err "flow create $P ingress pattern eth / ipv4 / udp / vxlan / vxlan / end actions queue index 1 / end" \
	"VXLAN item #4: a tunnel inside a tunnel cannot be matched"
flow_err "flow create $P ingress pattern eth / vxlan / end actions queue index 1 / end" \
	"VXLAN item #1: needs"
flow_err "flow create $P ingress pattern eth / ipv4 / udp / geneve-opt class is 1 type is 2 length is 1 data is 1 / end actions queue index 1 / end" \
	"GENEVE_OPT item #3: must follow a GENEVE item"
flow_err "flow create $P ingress pattern eth / ipv4 / udp dst is 4789 / geneve / end actions queue index 1 / end" \
	"tunnel item: UDP port 4789 type geneve not added to the registry: File exists"
users "refused rules took no reference" \
	"$(printf 'v4 6080 gue refcnt 1\nv4 4789 vxlan refcnt 3\nv4 6081 geneve refcnt 2')"
flow_err "flow isolate $P 1" "stop the port before changing isolated mode"

# ------------------------------------------- references follow the rules
tp "flow destroy $P rule $R_VX42"
users "destroying a VXLAN rule drops one reference" \
	"$(printf 'v4 6080 gue refcnt 1\nv4 4789 vxlan refcnt 2\nv4 6081 geneve refcnt 2')"
tp "flow destroy $P rule $R_GEN"
tp "flow flush $P"
users "flush drops every rule's reference, the devarg's stays" "v4 6080 gue refcnt 1"
expect_tel "no rules after flush" "0" "/hwcsum/flows,$P" n_rules
expect_tel "4789 left the device table" '{"6080":"gue"}' "/hwcsum/tunnels,$P" table0_entries

# A rule's reference and a udp_tunnel_port user are one registry's users.
tp "port config $P udp_tunnel_port add vxlan 4789"
flow_ok "flow create $P ingress pattern $VX / end actions queue index 1 / end" \
	"a VXLAN rule beside testpmd's udp_tunnel_port add"
R=$RULE
users "udp_tunnel_port and the rule share 4789" \
	"$(printf 'v4 6080 gue refcnt 1\nv4 4789 vxlan refcnt 2')"
tp "port config $P udp_tunnel_port rm vxlan 4789"
expect_tel "the rule keeps 4789 offloaded after rm" '{"6080":"gue","4789":"vxlan"}' \
	"/hwcsum/tunnels,$P" table0_entries
tp "flow destroy $P rule $R"
expect_tel "the last user gone, 4789 leaves the table" '{"6080":"gue"}' \
	"/hwcsum/tunnels,$P" table0_entries
tp_stop

# ------------------------------- isolated mode, outer RSS against inner
tp_start isolated $TP_EAL $(pcap_vdev) $HW_ARGS -- $TP_APP $APP_ARGS
tp_port_id net_hwcsum0; P=$VAL
tp "port stop $P"
tp "flow isolate $P 1"
grep -q "Ingress traffic on port $P is now restricted" <<<"$TP_OUT" &&
	pass "isolate with the port stopped" || fail "isolate: $TP_OUT"
tp "port start $P"
flow_ok "flow create $P ingress pattern $VX vni is 42 / end actions rss level 1 types ipv4-udp end queues 0 1 2 3 end / count / end" \
	"outer RSS (level 1) on VXLAN VNI 42"
R_OUT=$RULE
tp "set fwd io"
forward_all
hits "$R_OUT" 256
q_used=0
for q in 0 1 2 3; do
	n=$(/usr/bin/python3 -c "from scapy.all import rdpcap; print(len(rdpcap('$WORK/o$q.pcap')))" 2>/dev/null)
	[ "${n:-0}" -gt 0 ] && q_used=$((q_used + 1))
	total=$((${total:-0} + ${n:-0}))
done
[ "$q_used" = 1 ] && pass "outer RSS keeps one outer flow on one queue" ||
	fail "outer RSS spread one outer flow over $q_used queues"
[ "$total" = 256 ] && pass "isolated: only the 256 matching packets delivered" ||
	fail "isolated: $total packets delivered, expected 256"
xstat "$P" rx_flow_isolated_dropped; n=$VAL
[ "$n" = $((1040 - 256)) ] && pass "isolated: $n unmatched packets dropped and counted" ||
	fail "rx_flow_isolated_dropped $n, expected $((1040 - 256))"
tp_stop
finish
