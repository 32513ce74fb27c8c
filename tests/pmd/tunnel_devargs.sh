#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The devargs that describe the tunnel tables of the hardware underneath
# (Linux's udp_tunnel_nic_info flags), through an unmodified dpdk-testpmd
# with telemetry: tables_open_only (flushed at stop, replayed at start),
# static_iana_vxlan (4789 hard-wired, a static table), tables_shared (ports
# sharing one set of tables, freed with its last port); bad values and
# combinations fail the probe with a log line naming them.
PMD_SO=$1
. "$(dirname "$0")/lib.sh"

WORK=$(mktemp -d)
. "$(dirname "$0")/session.sh"

add() {
	tp "port config $1 udp_tunnel_port $2 $3 $4"
	if grep -q "udp tunneling port add error" <<<"$TP_OUT"; then
		fail "$*: refused: $(grep -v '^testpmd>' <<<"$TP_OUT" | head -3)"
	else
		pass "port $1 $2 $3 $4"
	fi
}

entries() {
	expect_tel "$1" "$3" "/hwcsum/tunnels,$2" "${4:-table0_entries}"
}

# ------------------------------------------------------- bad devargs
# expect_bad <what> <vdevs> <hwcsum port that must fail> <log line>: the
# probe fails (the port is missing from testpmd's list), naming why.
expect_bad() {
	local what=$1 vdevs=$2 port=$3 message=$4
	testpmd_session "$vdevs" "" < <(echo "show port summary all"; echo quit)
	if grep -q "$port *net_hwcsum" <<<"$OUT"; then
		fail "$what: $port was probed"
	elif ! grep -qF -- "$message" <<<"$OUT"; then
		fail "$what: no log line \"$message\""
	else
		pass "$what: $port not probed, \"$message\""
	fi
}
H="--vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0"
expect_bad "tables_open_only=yes" "$H,tables_open_only=yes" net_hwcsum0 \
	"net_hwcsum0: devarg tables_open_only='yes' is not one of: 0 1"
expect_bad "static_iana_vxlan=2" "$H,static_iana_vxlan=2" net_hwcsum0 \
	"net_hwcsum0: devarg static_iana_vxlan='2' is not one of: 0 1"
expect_bad "tables_shared without registry=shared" "$H,tables_shared=a" net_hwcsum0 \
	"net_hwcsum0: devarg tables_shared=a needs registry=shared"
expect_bad "tables_shared with tables_open_only" \
	"$H,registry=shared,tables_shared=a,tables_open_only=1" net_hwcsum0 \
	"net_hwcsum0: devargs tables_shared and tables_open_only=1 exclude each other"
expect_bad "tables_shared name too long" "$H,registry=shared,tables_shared=$(printf 'x%.0s' $(seq 40))" net_hwcsum0 \
	"net_hwcsum0: devarg tables_shared: name 'xxxx"
expect_bad "shared set of another shape" \
	"$H,registry=shared,tables_shared=a,tables=2:vxlan --vdev net_ring1 --vdev net_hwcsum1,sub=net_ring1,registry=shared,tables_shared=a,tables=1:vxlan" net_hwcsum1 \
	"devarg tables_shared=a: tables or flags differ from those of net_hwcsum0, which shares them"

# -------------------------------------------------- tables_open_only
tp_start open-only $TP_EAL $H,tables_open_only=1,tables=2:vxlan -- $TP_APP
tp_port_id net_hwcsum0; P=$VAL
add "$P" add vxlan 4789
entries "open_only, started: in the table" "$P" '{"4789":"vxlan"}'
tp "port stop $P"
entries "open_only, stopped: flushed" "$P" '{}'
expect_tel "open_only, stopped: the user stays" "v4 4789 vxlan refcnt 1" "/hwcsum/tunnels,$P" users
# A stopped open_only port has no entries to judge fullness by: accepted.
add "$P" add vxlan 4790
add "$P" add vxlan 4791
entries "open_only, stopped: still empty" "$P" '{}'
tp "port start $P"
entries "open_only, started: replayed (what fits)" "$P" '{"4789":"vxlan","4790":"vxlan"}'
expect_tel "open_only: the misfit is counted" 1 "/hwcsum/tunnels,$P" tunnel_entries_not_fitted
tp_stop

# -------------------------------------------------- static_iana_vxlan
tp_start static-iana $TP_EAL $H,static_iana_vxlan=1,tables=1:vxlan -- $TP_APP
tp_port_id net_hwcsum0; P=$VAL
entries "static: a static table" "$P" '{"size":1,"types":"none","n_entries":1,"static":1}' table1
entries "static: 4789 in it from the start" "$P" '{"4789":"vxlan"}' table1_entries
entries "static: its one slot" "$P" "4789/vxlan" table1_slots
add "$P" add vxlan 4789
entries "static: 4789 takes no entry" "$P" '{}'
add "$P" add vxlan 4790
entries "static: the one entry is free for 4790" "$P" '{"4790":"vxlan"}'
tp_stop

# ------------------------------------------------------ tables_shared
S="registry=shared,tables_shared=nic,tables=2:vxlan"
tp_start shared $TP_EAL --vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0,$S \
	--vdev net_ring1 --vdev net_hwcsum1,sub=net_ring1,$S -- $TP_APP
tp_port_id net_hwcsum0; A=$VAL
tp_port_id net_hwcsum1; B=$VAL
add "$A" add vxlan 4789
add "$B" add vxlan 4790
entries "shared: A" "$A" '{"4789":"vxlan","4790":"vxlan"}'
entries "shared: B, the same tables" "$B" '{"4789":"vxlan","4790":"vxlan"}'
tp "port stop $A"
tp "port close $A"
entries "shared: B keeps the tables A made" "$B" '{"4790":"vxlan"}'
entries "shared: 4790 stays in slot 1" "$B" "0
4790/vxlan" table0_slots
tp "port stop $B"
tp "port close $B"
# The set went with its last port: the name takes another shape now.
tp "port attach net_ring2"
tp "port attach net_hwcsum2,sub=net_ring2,registry=shared,tables_shared=nic,tables=1:vxlan"
tp_port_id net_hwcsum2; C=$VAL
[ -n "$C" ] && pass "shared: the freed name is reused by port $C" ||
	fail "shared: net_hwcsum2 did not attach: $TP_OUT"
[ -n "$C" ] && entries "shared: a fresh set" "$C" '{"size":1,"types":"vxlan","n_entries":0,"static":0}' table0
tp_stop
finish
