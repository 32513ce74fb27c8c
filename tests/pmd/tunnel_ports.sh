#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# UDP tunnel ports through an unmodified dpdk-testpmd: `port config N
# udp_tunnel_port add|rm TYPE P`, with the tables read back through
# telemetry (/usr/bin/dpdk-telemetry.py) while testpmd runs. testpmd reads
# its commands from a fifo, so commands and telemetry reads interleave.
# Covered: add, rm, duplicate, full table, unsupported types, reference
# counting, replay after stop/start and after reset, registry=port and
# registry=shared, the tunnel_ports= devarg, bad telemetry parameters.
PMD_SO=$1
. "$(dirname "$0")/lib.sh"

WORK=$(mktemp -d)
. "$(dirname "$0")/session.sh"

tunnel_cmd() {
	echo "port config $1 udp_tunnel_port $2 $3 $4"
}

expect_ok() {
	tp "$(tunnel_cmd "$@")"
	if grep -q "udp tunneling port add error" <<<"$TP_OUT"; then
		fail "$*: refused: $(grep -v '^testpmd>' <<<"$TP_OUT" | head -3)"
	else
		pass "$*"
	fi
}

# expect_err port add|rm type udp-port "<strerror>" "<log text>"
expect_err() {
	local msg=$5 log=$6
	tp "$(tunnel_cmd "$1" "$2" "$3" "$4")"
	if ! grep -qF "udp tunneling port add error: ($msg)" <<<"$TP_OUT"; then
		fail "$1 $2 $3 $4: no '($msg)' in: $TP_OUT"
	elif ! grep -qF -- "$log" <<<"$TP_OUT"; then
		fail "$1 $2 $3 $4: no log line '$log' in: $TP_OUT"
	else
		pass "$1 $2 $3 $4: $msg, log names it"
	fi
}

entries() {
	expect_tel "$1" "$3" "/hwcsum/tunnels,$2" table0_entries
}

# ---------------------------------------------------------------- per port
VDEVS="--vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0,tables=2:vxlan+vxlan-gpe"
tp_start registry $TP_EAL $VDEVS -- $TP_APP
tp_port_id net_hwcsum0; P=$VAL
[ -n "$P" ] && [ "$P" != 0 ] && pass "hwcsum is port $P" || fail "hwcsum port id '$P'"
expect_tel "/hwcsum/list" "[$P]" /hwcsum/list
entries "empty at start" "$P" '{}'

expect_ok "$P" add vxlan 4789
entries "added" "$P" '{"4789":"vxlan"}'
expect_err "$P" add vxlan 4789 "File exists" \
	"net_hwcsum0 (port $P): UDP port 4789 type vxlan is already added on this port"
expect_ok "$P" add vxlan-gpe 4790
expect_err "$P" add vxlan 4791 "No space left on device" \
	"net_hwcsum0 (port $P): UDP port 4791 type vxlan: no free entry"
# The full table left the registry as it was: no user for 4791.
expect_tel "full: rolled back" "v4 4789 vxlan refcnt 1
v4 4790 vxlan-gpe refcnt 1" "/hwcsum/tunnels,$P" users
expect_err "$P" add ecpri 5000 "Operation not supported" \
	"net_hwcsum0 (port $P): UDP port 5000: tunnel type 8 refused: ecpri: eCPRI"
expect_err "$P" add geneve 6081 "Operation not supported" \
	"net_hwcsum0 (port $P): UDP port 6081 type geneve: no tunnel table of this port takes geneve"
expect_err "$P" rm vxlan 4999 "No such file or directory" \
	"net_hwcsum0 (port $P): UDP port 4999 type vxlan was not added on this port"
expect_err "$P" rm geneve 4789 "No such file or directory" \
	"UDP port 4789 type geneve was not added on this port"

# The dump, line for line as ethtool --show-tunnels prints it.
expect_tel "ethtool text" "Tunnel information for net_hwcsum0:
  UDP port table 0: 
    Size: 2
    Types: vxlan, vxlan-gpe
    Entries (2):
        port 4789, vxlan
        port 4790, vxlan-gpe" "/hwcsum/tunnels,$P" text

expect_ok "$P" rm vxlan 4789
entries "removed" "$P" '{"4790":"vxlan-gpe"}'
# The entries leave out the empty slot; table0_slots shows the hole.
expect_tel "slots: a hole before 4790" "0
4790/vxlan-gpe" "/hwcsum/tunnels,$P" table0_slots
expect_ok "$P" add vxlan 4791
entries "a freed slot is reused" "$P" '{"4791":"vxlan","4790":"vxlan-gpe"}'
expect_tel "slots: the hole filled" "4791/vxlan
4790/vxlan-gpe" "/hwcsum/tunnels,$P" table0_slots
expect_err "$P" rm vxlan 4789 "No such file or directory" "type vxlan was not added"

# Replay at every start; a reset must be followed by one too.
r0=$($TEL "$PREFIX" "/hwcsum/tunnels,$P" tunnel_replays)
tp "port stop $P"
tp "port start $P"
expect_tel "replay after stop/start" "$((r0 + 1))" "/hwcsum/tunnels,$P" tunnel_replays
entries "tables kept over stop/start" "$P" '{"4791":"vxlan","4790":"vxlan-gpe"}'
tp "port stop $P"
tp "port reset $P"
grep -q "Failed to reset" <<<"$TP_OUT" && fail "port reset $P: $(grep 'reset' <<<"$TP_OUT" | head -2)"
tp "port start $P"
expect_tel "replay after reset" "$((r0 + 2))" "/hwcsum/tunnels,$P" tunnel_replays
entries "tables kept over reset" "$P" '{"4791":"vxlan","4790":"vxlan-gpe"}'
xstat "$P" tunnel_replays; v=$VAL
[ "$v" = "$((r0 + 2))" ] && pass "xstat tunnel_replays $v" || fail "xstat tunnel_replays '$v', expected $((r0 + 2))"
xstat "$P" tunnel_entries_not_fitted; v=$VAL
[ "$v" = 0 ] && pass "xstat tunnel_entries_not_fitted 0" || fail "xstat tunnel_entries_not_fitted '$v'"

# Telemetry: the offload view, and bad parameters answer an error.
expect_tel "offload: engine" "none" "/hwcsum/offload,$P" engine
expect_tel "offload: sub driver" "net_ring" "/hwcsum/offload,$P" sub_driver
expect_tel "offload: a TX counter" "0" "/hwcsum/offload,$P" tx tx_bad_request_dropped
expect_tel "offload: an RX tunnel counter" "0" "/hwcsum/offload,$P" rx_tunnel rx_tunnel_vxlan_gpe
for bad in "" ",abc" ",0" ",9999" ",1x" ",-1"; do
	got=$($TEL "$PREFIX" "/hwcsum/tunnels$bad" error 2>&1)
	case "$got" in
	*"port id"* | *"not a net_hwcsum port"*) pass "/hwcsum/tunnels$bad: $got" ;;
	*) fail "/hwcsum/tunnels$bad: '$got'" ;;
	esac
done
got=$($TEL "$PREFIX" "/hwcsum/offload,0" error 2>&1)
[[ "$got" == *"not a net_hwcsum port"* ]] && pass "/hwcsum/offload,0: error" ||
	fail "/hwcsum/offload,0: '$got'"
expect_tel "still alive after bad parameters" "[$P]" /hwcsum/list
tp_stop

# ------------------------------------------- two ports, private registries
VDEVS="--vdev net_ring0 --vdev net_ring1 --vdev net_hwcsum0,sub=net_ring0 --vdev net_hwcsum1,sub=net_ring1"
tp_start two-ports $TP_EAL $VDEVS -- $TP_APP
tp_port_id net_hwcsum0; A=$VAL
tp_port_id net_hwcsum1; B=$VAL
expect_ok "$A" add vxlan 4789
entries "registry=port: not on the other port" "$B" '{}'
expect_ok "$B" add vxlan 4789
expect_ok "$A" rm vxlan 4789
entries "registry=port: A removed" "$A" '{}'
entries "registry=port: B keeps its own" "$B" '{"4789":"vxlan"}'
expect_ok "$A" add geneve 6081
expect_err "$A" add vxlan 6081 "File exists" "the port is already used by type geneve"
expect_tel "default table: 64 entries" '{"size":64,"types":"vxlan, geneve, vxlan-gpe, gue","n_entries":1,"static":0}' \
	"/hwcsum/tunnels,$A" table0
tp_stop

# ----------------------------------------------- two ports, one registry
VDEVS="--vdev net_ring0 --vdev net_ring1"
VDEVS+=" --vdev net_hwcsum0,sub=net_ring0,registry=shared,tables=2:vxlan+vxlan-gpe"
VDEVS+=" --vdev net_hwcsum1,sub=net_ring1,registry=shared,tables=1:vxlan"
tp_start two-ports-b $TP_EAL $VDEVS -- $TP_APP
tp_port_id net_hwcsum0; A=$VAL
tp_port_id net_hwcsum1; B=$VAL
expect_ok "$A" add vxlan 4789
entries "shared: A's port is in B's table" "$B" '{"4789":"vxlan"}'
expect_ok "$B" add vxlan 4789
expect_tel "shared: two references" "v4 4789 vxlan refcnt 2" "/hwcsum/tunnels,$A" users
expect_err "$A" add vxlan 4789 "File exists" "net_hwcsum0 (port $A): UDP port 4789 type vxlan is already added"
expect_ok "$A" rm vxlan 4789
entries "shared: kept while B holds it (A)" "$A" '{"4789":"vxlan"}'
entries "shared: kept while B holds it (B)" "$B" '{"4789":"vxlan"}'
expect_err "$A" rm vxlan 4789 "No such file or directory" "type vxlan was not added on this port"
expect_ok "$B" rm vxlan 4789
entries "shared: gone with the last reference (A)" "$A" '{}'
entries "shared: gone with the last reference (B)" "$B" '{}'
expect_ok "$A" add vxlan 4789
expect_ok "$A" add vxlan 4790
entries "shared: B holds what fits" "$B" '{"4789":"vxlan"}'
expect_tel "shared: B counts the misfit" 1 "/hwcsum/tunnels,$B" tunnel_entries_not_fitted
expect_tel "shared: A has no misfit" 0 "/hwcsum/tunnels,$A" tunnel_entries_not_fitted
xstat "$B" tunnel_entries_not_fitted; v=$VAL
[ "$v" = 1 ] && pass "xstat tunnel_entries_not_fitted 1 on B" || fail "B: xstat tunnel_entries_not_fitted '$v'"
expect_err "$B" add vxlan 4790 "No space left on device" "net_hwcsum1 (port $B): UDP port 4790 type vxlan: no free entry"
expect_tel "shared: B's full add rolled back" "v4 4789 vxlan refcnt 1
v4 4790 vxlan refcnt 1" "/hwcsum/tunnels,$A" users
expect_err "$B" add vxlan-gpe 4800 "Operation not supported" "no tunnel table of this port takes vxlan-gpe"
expect_ok "$A" rm vxlan 4789
entries "shared: the missed port is replayed into B" "$B" '{"4790":"vxlan"}'
expect_tel "shared: B fits everything now" 0 "/hwcsum/tunnels,$B" tunnel_entries_not_fitted
tp_stop

# ------------------------------------------------------- tunnel_ports=
tp_start devarg $TP_EAL --vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0,tunnel_ports=vxlan:8472/geneve:6081 -- $TP_APP
tp_port_id net_hwcsum0; P=$VAL
entries "tunnel_ports= at probe" "$P" '{"8472":"vxlan","6081":"geneve"}'
expect_ok "$P" add vxlan 8472
expect_tel "devarg + application: two references" "v4 8472 vxlan refcnt 2
v4 6081 geneve refcnt 1" "/hwcsum/tunnels,$P" users
expect_ok "$P" rm vxlan 8472
entries "the devarg's reference stays" "$P" '{"8472":"vxlan","6081":"geneve"}'
expect_err "$P" rm geneve 6081 "No such file or directory" "type geneve was not added on this port"
tp_stop

# A tunnel_ports= entry that does not fit fails the probe, naming it (the
# sub-port is then left unowned, so testpmd shows it instead).
testpmd_session "--vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0,tables=1:vxlan,tunnel_ports=geneve:6081" \
	"" < <(echo "show port summary all"; echo quit)
if grep -qF "devarg tunnel_ports: UDP port 6081 type 'geneve': Operation not supported" <<<"$OUT" &&
   grep -q "failed to initialize net_hwcsum0" <<<"$OUT" &&
   ! grep -q "net_hwcsum0 *net_hwcsum" <<<"$OUT"; then
	pass "tunnel_ports= that no table takes: probe fails, log names it"
else
	fail "tunnel_ports=geneve:6081 on tables=1:vxlan: the probe did not fail as expected"
fi
finish
