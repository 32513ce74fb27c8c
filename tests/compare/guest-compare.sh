#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guest side of the kernel-against-bypass matrix (tests/compare/compare.sh
# runs it through devtools/vm-run.sh):
#
#   tests/compare/guest-compare.sh MODEL PMD_SO GATEWAY CELLSET [DPDK_PMD]
#
# Two NICs of MODEL on one link: NIC 0 is side A, NIC 1 side B. The same
# UDP traffic (tests/compare/cells.py) crosses the emulated wire from A to
# B, once per stack pairing:
#   linux         Linux with the series on both NICs (namespaces a and b),
#                 tunnels as Linux devices (vxlan, geneve, ipip/sit/ip6tnl
#                 over GUE);
#   hwcsum-linux  NIC 0 bound to DPDK: hwcsum-tunnel (net_hwcsum over the
#                 NIC's PMD) encapsulates what namespace i sends on a veth,
#                 Linux decapsulates on NIC 1;
#   linux-hwcsum  the reverse, in the same run of the gateway;
#   hwcsum        NIC 1 bound to DPDK too: gateway to gateway, i to j.
# Plain (tunnel "none") bypass cells go through testpmd's csum engine on
# hwcsum instead of the gateway. DPDK_PMD empty: no DPDK driver for MODEL,
# only the linux cells run. Per cell one JSON line in $HWCSUM_OUT/cells.jsonl
# (sent, counters before/after); receivers' reports in recv-*.json;
# tcpdump of every Linux sender's NIC in tx-*.pcap (what the stack left to
# the device). The host judges it all (tests/compare/analyze.py).

set -u
MODEL=${1:?usage: guest-compare.sh MODEL PMD_SO GATEWAY CELLSET [DPDK_PMD]}
PMD_SO=${2:?}
GW=${3:?}
CELLSET=${4:?}
DPDK_PMD=${5:-}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${HWCSUM_OUT:?run me through devtools/vm-run.sh}
PY=/usr/bin/python3
CELLS_PY="$HERE/cells.py"
GUEST_TAG=compare-guest
. "$HERE/../../kernel/guest/lib.sh"
PMDS=/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0
MAC=("$(nic_mac 0)" "$(nic_mac 1)")
BDF=(0000:00:10.0 0000:00:11.0)
DEV=("$(nic_by_mac "${MAC[0]}")" "$(nic_by_mac "${MAC[1]}")")
[ -n "${DEV[0]}" ] && [ -n "${DEV[1]}" ] || die "NICs ${MAC[*]} not found"
DRIVER=$(ethtool -i "${DEV[0]}" | awk '/^driver:/ { print $2 }')
say "model $MODEL: ${DEV[0]} ${DEV[1]}, driver $DRIVER, kernel $(uname -r), cells $CELLSET"
: > "$OUT/cells.jsonl"
{
	echo "model $MODEL"
	echo "kernel $(uname -r)"
	echo "driver $DRIVER"
	echo "dpdk_pmd ${DPDK_PMD:-none}"
	echo "mac0 ${MAC[0]}"
	echo "mac1 ${MAC[1]}"
} > "$OUT/info.txt"
for mod in vxlan geneve fou fou6 ipip sit ip6_tunnel; do
	run modprobe "$mod"
done

# --- the cells --------------------------------------------------------
# tunnel index T (none 0, vxlan 1, geneve 2, gue 3, vxlan-gpe 4), outer and inner IP
# version O, I. Inner subnets 10.6T.O.0/24 and fd6T:O::/64 (GUE: inner I
# on its own device, 10.63.O / fd63:O); cell port BASE + 100 T + 10 O + I.
TUNNELS=(none vxlan geneve gue vxlan-gpe)
# HWCSUM_TUNNELS: hwcsum on both ends starts two gateways per cell, about
# 50 s under TCG, so the reduced set (make test) keeps GENEVE there (with
# options: the most the two gateways must agree on).
# CROSS_TUNNELS: each tunnel of the cross phase starts a gateway (about
# 15 s); the reduced set keeps the three whose encapsulation the two
# stacks must agree on in detail (VXLAN, GENEVE with options, GUE of the
# RFC series), and leaves plain UDP (qemu-hwcsum-e1000 covers hwcsum's
# side of it) and VXLAN-GPE to the full set; every tunnel still runs
# Linux to Linux.
# IDLE_SLEEP: the reduced set lets the gateways sleep when idle, as an idle
# polling lcore is a host thread spinning under TCG, which make test pays
# for; the full set keeps busy polling, as measured in docs/compare.md.
case "$CELLSET" in
full) CELL_TUNNELS="0 1 2 3 4"; FAMILIES="4 6"; COUNT=400
	CROSS_TUNNELS=$CELL_TUNNELS; HWCSUM_TUNNELS=$CELL_TUNNELS; IDLE_SLEEP=0 ;;
reduced) CELL_TUNNELS="0 1 2 3 4"; FAMILIES="4"; COUNT=200
	CROSS_TUNNELS="1 2 3"; HWCSUM_TUNNELS="2"; IDLE_SLEEP=200 ;;
*) die "unknown cell set '$CELLSET' (full, reduced)" ;;
esac
SIZE=512
# The throughput sample after each cell (cells.py: port + 500).
FLOOD=1000
# GENEVE carries the same two RFC 8926 options from both stacks.
GENEVE_OPTS=(0x0102:0x01:00112233 0x0103:0x02:0011223344556677)
# The Ethernet ends of GENEVE: Linux's external geneve device of side 0/1,
# and the veth of the inner namespace that stands in for it (i, j). The
# external device sends nothing without a route's tunnel key, ARP neither:
# these are static neighbours on both sides.
GNV_MAC=(02:00:00:00:62:01 02:00:00:00:62:02)
U4=(192.168.60.1 192.168.60.2)
U6=(fd60::1 fd60::2)
# GUE with inner IPv6 needs its own underlay pair: sit/ip6tnl devices are
# found by their endpoints, one device per pair and protocol family.
G4=(192.168.61.1 192.168.61.2)
G6=(fd61::1 fd61::2)
under() { # under T O I SIDE: the underlay address of SIDE (0/1) for a cell
	local pair=U$2
	[ "$1" = 3 ] && [ "$3" = 6 ] && pair=G$2
	eval "echo \${$pair[$4]}"
}
inner_addr() { # inner_addr T O I SIDE
	[ "$3" = 4 ] && echo "10.6$1.$2.$(($4 + 1))" || echo "fd6$1:$2::$(($4 + 1))"
}
# One port range per pairing: the wire captures hold every phase.
declare -A PAIR_BASE=([linux]=30000 [hwcsum-linux]=31000 [linux-hwcsum]=32000 [hwcsum]=33000)
cell_port() { echo $((PAIR_BASE[$1] + 100 * $2 + 10 * $3 + $4)); } # PAIRING T O I
# The inner families of (T, O); INNERS_ONLY (a family, set by the phases
# whose application serves one GUE device at a time) narrows it.
inners() {
	if [ "$1" = 0 ]; then echo "$2"
	elif [ "${INNERS_ONLY:-x}" != x ]; then echo "$INNERS_ONLY"
	else echo "$FAMILIES"; fi
}

# --- Linux side of a NIC ------------------------------------------------
# linux_side NS DEV SIDE: underlay addresses and every tunnel device of
# the matrix in namespace NS on DEV (side 0 or 1 picks the addresses).
linux_side() {
	local ns=$1 dev=$2 me=$3 peer=$((1 - $3)) f=/tmp/linux-$1.ip o
	run ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
		net.ipv6.conf.default.accept_dad=0
	# Frames as the stack built them: no GRO merging at the receiver.
	ip netns exec "$ns" ethtool -K "$dev" gro off 2> /dev/null
	{
		echo "link set lo up"
		echo "link set $dev up"
		for a in "${U4[$me]}/24" "${G4[$me]}/24"; do echo "addr add $a dev $dev"; done
		for a in "${U6[$me]}/64" "${G6[$me]}/64"; do echo "addr add $a dev $dev nodad"; done
		echo "addr add $(inner_addr 0 4 4 $me)/24 dev $dev"
		echo "addr add $(inner_addr 0 6 6 $me)/64 dev $dev nodad"
		echo "fou add port 6080 gue"
		echo "fou add port 6080 gue -6"
		for o in 4 6; do
			local u=U$o g=G$o l r gl gr
			eval "l=\${$u[$me]} r=\${$u[$peer]} gl=\${$g[$me]} gr=\${$g[$peer]}"
			local csum=""
			[ "$o" = 4 ] && csum=udpcsum
			echo "link add vx$o type vxlan id 1$o dstport 4789 local $l remote $r dev $dev $csum"
			if [ "$o" = 4 ]; then
				echo "link add gu44 type ipip local $l remote $r encap gue encap-sport auto encap-dport 6080"
				echo "link add gu46 type sit local $gl remote $gr encap gue encap-sport auto encap-dport 6080"
			else
				echo "link add gu64 type ip6tnl mode ipip6 local $l remote $r encap gue encap-sport auto encap-dport 6080"
				echo "link add gu66 type ip6tnl mode ip6ip6 local $gl remote $gr encap gue encap-sport auto encap-dport 6080"
			fi
		done
		# GENEVE with options and VXLAN-GPE need Linux's external
		# (collect_md) devices: the key comes from the route.
		echo "link add gnx address ${GNV_MAC[$me]} type geneve external"
		echo "link add gpx type vxlan gpe external dstport 4790"
		for d in vx4 vx6 gnx gpx gu44 gu46 gu64 gu66; do echo "link set $d mtu 1400 up"; done
		for o in 4 6; do
			# csum: the outer UDP checksum (the tunnel key's flag), as the
			# gateway and the classic devices here send it.
			local encap="encap ip" udst=${U4[$peer]} opts
			[ "$o" = 6 ] && encap="encap ip6" udst=${U6[$peer]}
			opts=$(IFS=,; echo "${GENEVE_OPTS[*]}" | sed 's/0x//g')
			for i in 4 6; do
				local plen=24 host=32
				[ "$i" = 6 ] && plen="64 nodad" host=128
				echo "addr add $(inner_addr 1 $o $i $me)/$plen dev vx$o"
				echo "addr add $(inner_addr 2 $o $i $me)/$plen dev gnx"
				echo "addr add $(inner_addr 3 $o $i $me)/$plen dev gu$o$i"
				echo "addr add $(inner_addr 4 $o $i $me)/$host dev gpx"
				echo "route add $(inner_addr 2 $o $i $peer)/$host $encap id 2$o dst $udst csum geneve_opts $opts dev gnx"
				echo "route add $(inner_addr 4 $o $i $peer)/$host $encap id 4$o dst $udst csum dev gpx"
				echo "neigh add $(inner_addr 2 $o $i $peer) lladdr ${GNV_MAC[$peer]} dev gnx nud permanent"
			done
		done
	} > "$f"
	run ip -n "$ns" -batch "$f"
}

# --- DPDK side of a NIC -------------------------------------------------
bind_dpdk() { # bind_dpdk SIDE
	local b=${BDF[$1]} k
	k=$(basename "$(readlink /sys/bus/pci/devices/$b/driver 2> /dev/null)" 2> /dev/null)
	echo uio_pci_generic > "/sys/bus/pci/devices/$b/driver_override" || die "driver_override $b"
	[ -n "$k" ] && [ "$k" != uio_pci_generic ] && { echo "$b" > "/sys/bus/pci/drivers/$k/unbind" || die "unbind $b"; }
	echo "$b" > /sys/bus/pci/drivers_probe
	[ "$(basename "$(readlink "/sys/bus/pci/devices/$b/driver")")" = uio_pci_generic ] ||
		die "$b did not bind to uio_pci_generic"
	say "NIC $1 ($b) bound to uio_pci_generic"
}

# inner_ns NS VETH SIDE: the namespace behind a DPDK side, on a veth
# whose other end (VETH"0") the application takes with net_af_packet.
inner_ns() {
	local ns=$1 v=$2 me=$3 t o i f=/tmp/inner-$1.ip
	run ip netns add "$ns"
	run ip link add "${v}0" type veth peer name "${v}1" netns "$ns" address "${GNV_MAC[$me]}"
	# One packet per frame on the AF_PACKET side; checksums stay
	# CHECKSUM_PARTIAL from the inner stack (the application completes
	# them: that is the point).
	ethtool -K "${v}0" gro off tso off gso off > /dev/null 2>&1
	ip netns exec "$ns" ethtool -K "${v}1" gro off tso off gso off > /dev/null 2>&1
	run ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
	run ip link set "${v}0" up
	{
		echo "link set lo up"
		echo "link set ${v}1 mtu 1400 up"
		for t in 0 1 2 3 4; do
			for o in 4 6; do
				for i in $(inners $t $o); do
					[ "$i" = 4 ] && echo "addr add $(inner_addr $t $o $i $me)/24 dev ${v}1" ||
						echo "addr add $(inner_addr $t $o $i $me)/64 dev ${v}1 nodad"
					[ "$t" = 2 ] && echo "neigh add $(inner_addr 2 $o $i $((1 - me))) lladdr ${GNV_MAC[$((1 - me))]} dev ${v}1 nud permanent"
				done
			done
		done
	} > "$f"
	run ip -n "$ns" -batch "$f"
}

# --- traffic ------------------------------------------------------------
declare -A RPID RREPORT
start_receiver() { # start_receiver NS NAME: one receiver for a pairing
	local ports=() t o i pidf=/tmp/recv-$2.pid
	for t in $CELL_TUNNELS; do
		for o in $FAMILIES; do
			for i in $(inners $t $o); do
				ports+=("$(cell_port "$2" $t $o $i)" "$(($(cell_port "$2" $t $o $i) + 500))")
			done
		done
	done
	RREPORT[$2]="$OUT/recv-$2.json"
	rm -f "$pidf"
	ip netns exec "$1" "$PY" "$CELLS_PY" recv "$pidf" "${RREPORT[$2]}" "${ports[@]}" &
	for _ in $(seq 100); do [ -s "$pidf" ] && break; sleep 0.1; done
	[ -s "$pidf" ] || die "the receiver in $1 did not start"
	RPID[$2]=$(cat "$pidf")
}
stop_receiver() { # stop_receiver NAME
	kill -TERM "${RPID[$1]}"
	for _ in $(seq 100); do kill -0 "${RPID[$1]}" 2> /dev/null || break; sleep 0.1; done
	[ -s "${RREPORT[$1]}" ] || die "no receiver report ${RREPORT[$1]}"
}

# send_cells NS PAIRING T O RECV_SIDE [COUNTER...]: the cells of tunnel T
# over outer O (every inner family) from namespace NS to the receiver of
# PAIRING; COUNTERs (cells.py) are read before and after each cell.
send_cells() {
	local ns=$1 pairing=$2 t=$3 o=$4 rs=$5 i first=1 f=/tmp/cells.json ctr
	shift 5
	ctr=$(printf '"%s",' "snmp:${RPID[$pairing]}" "$@")
	{
		echo "["
		for i in $(inners $t $o); do
			[ "$first" = 1 ] || echo ","
			first=0
			printf '{"id": "%s/%s/%s%s", "pairing": "%s", "tunnel": "%s", "outer": %s, "inner": %s, "dst": "%s", "port": %s, "count": %s, "size": %s, "flood": %s, "recv": "%s", "counters": [%s]}\n' \
				"$pairing" "${TUNNELS[$t]}" "$o" "$i" "$pairing" "${TUNNELS[$t]}" "$o" "$i" \
				"$(inner_addr $t $o $i $rs)" "$(cell_port "$pairing" $t $o $i)" "$COUNT" "$SIZE" "$FLOOD" \
				"$(basename "${RREPORT[$pairing]}")" "${ctr%,}"
		done
		echo "]"
	} > "$f"
	ip netns exec "$ns" "$PY" "$CELLS_PY" send "$f" "$OUT/cells.jsonl" ||
		die "sending the $pairing cells of ${TUNNELS[$t]} over IPv$o"
}

# A sender-side capture of a Linux NIC: what the stack gave the device.
TCPDUMP=
# No "udp" filter: it misses IPv6 with an extension header (ip6tnl's
# encapsulation limit option in front of GUE).
capture() { # capture NS DEV NAME
	ip netns exec "$1" tcpdump -i "$2" -s 256 -B 16384 -U -n -Q out -w "$OUT/tx-$3.pcap" \
		2> "/tmp/tcpdump-$3.log" &
	TCPDUMP=$!
	for _ in $(seq 100); do grep -q listening "/tmp/tcpdump-$3.log" && return 0; sleep 0.1; done
	die "tcpdump on $2 did not start: $(cat "/tmp/tcpdump-$3.log")"
}
stop_capture() {
	kill -TERM "$TCPDUMP"
	wait "$TCPDUMP" 2> /dev/null
}

# --- the bypass applications -------------------------------------------
# app_start SIDE T O I: on NIC SIDE, hwcsum-tunnel with the one tunnel of
# (T, O) (GUE: of (O, I) too), or for T=0 testpmd's csum engine bridging
# the NIC and the veth; the inner port is hwcsum over net_af_packet on the
# veth of namespace i (side 0) or j (side 1).
declare -A APP_PID APP_LOG APP_PREFIX
APP_RUN=0
app_start() {
	local s=$1 t=$2 o=$3 i=$4 peer=$((1 - $1)) v log eal keys vmac
	v=$([ "$s" = 0 ] && echo vi || echo vj)
	APP_RUN=$((APP_RUN + 1))
	APP_PREFIX[$s]=app$s-$APP_RUN
	log="$OUT/app-$s-$APP_RUN-${TUNNELS[$t]}$o$i.log"
	APP_LOG[$s]=$log
	eal=(--lcores "0@$s,1@$((1 - s))" -n 1 -m 64 --file-prefix "${APP_PREFIX[$s]}"
		--iova-mode=pa -a "${BDF[$s]}" -d "$PMDS/librte_mempool_ring.so.23"
		-d "$PMDS/librte_net_af_packet.so.23" -d "$PMDS/$DPDK_PMD"
		--vdev "net_hwcsum0,sub=${BDF[$s]}" --vdev "net_af_packet0,iface=${v}0"
		--vdev "net_hwcsum1,sub=net_af_packet0")
	vmac=$(ip netns exec "$([ "$s" = 0 ] && echo i || echo j)" cat "/sys/class/net/${v}1/address")
	if [ "$t" = 0 ]; then
		# Ports: 0 the NIC (owned by hwcsum), 1 net_hwcsum0, 2 the
		# AF_PACKET socket (owned), 3 net_hwcsum1; checked below.
		dpdk-testpmd "${eal[@]}" -d "$PMD_SO" -- --forward-mode=csum --stats-period 30 \
			--tx-offloads=0xe --rx-offloads=0xe --eth-peer="1,${MAC[$peer]}" --eth-peer="3,$vmac" \
			--total-num-mbufs=8192 --txd=512 --rxd=512 > "$log" 2>&1 &
		APP_PID[$s]=$!
		# Printed after the RX flush and the stream table, just before the
		# forwarding lcore starts ("Set csum packet forwarding mode" comes
		# before the ports are even configured).
		app_wait "$s" "packet forwarding packets/burst=" || die "testpmd on NIC $s did not start"
		grep -qi "TX P=1/Q=0 .* peer=${MAC[$peer]}" "$log" && grep -qi "TX P=3/Q=0 .* peer=$vmac" "$log" ||
			{ cat "$log"; die "testpmd on NIC $s: ports 1 and 3 are not the NIC's and the veth's hwcsum"; }
		return 0
	fi
	keys="type=${TUNNELS[$t]},inner_port=net_hwcsum1,remote_mac=${MAC[$peer]}"
	keys+=",local=$(under $t $o $i $s),remote=$(under $t $o $i $peer)"
	case $t in
	1) keys+=",vni=1$o" ;;
	2) keys+=",vni=2$o,geneve_opt=${GENEVE_OPTS[0]},geneve_opt=${GENEVE_OPTS[1]}" ;;
	3 | 4)
		keys+=",inner_dst_mac=$vmac,inner_src_mac=02:00:00:00:00:fe"
		# Linux's vxlan gpe device carries IP, not Ethernet.
		[ "$t" = 4 ] && keys+=",vni=4$o,gpe_payload=ip"
		;;
	esac
	# The gateway links the PMD itself: no -d.
	"$GW" "${eal[@]}" -- --underlay net_hwcsum0 -s 0 --duration 600 --idle-sleep "$IDLE_SLEEP" \
		--tunnel "name=c,$keys" \
		> "$log" 2>&1 &
	APP_PID[$s]=$!
	app_wait "$s" "tunnel(s)" || die "the gateway on NIC $s did not start"
}
# app_wait SIDE TEXT: until the application's log says TEXT (60 s), or it
# exits; its log on the console when it did not get there.
app_wait() {
	for _ in $(seq 300); do
		grep -qF "$2" "${APP_LOG[$1]}" 2> /dev/null && return 0
		kill -0 "${APP_PID[$1]}" 2> /dev/null || break
		sleep 0.2
	done
	cat "${APP_LOG[$1]}"
	return 1
}
app_stop() { # app_stop SIDE: SIGINT, a clean exit, no leaked mbuf
	local rc
	kill -INT "${APP_PID[$1]}"
	wait "${APP_PID[$1]}"
	rc=$?
	[ "$rc" = 0 ] || { tail -n 20 "${APP_LOG[$1]}"; die "the application on NIC $1 exited $rc"; }
}
# The xstats of the NIC-side hwcsum port (cells.py resolves the name).
app_counter() { echo "dpdk:${APP_PREFIX[$1]}:net_hwcsum0"; }

# The inner namespace's neighbours: the gateway answers no ARP/ND on the
# underlay, and GUE and plain cells have no Ethernet peer to resolve
# (testpmd and the gateway rewrite the destination MAC anyway).
static_neighbours() { # static_neighbours NS DEV SIDE_OF_PEER MAC
	local t o i f=/tmp/neigh-$1.ip
	: > "$f"
	for t in 0 3 4; do
		for o in 4 6; do
			for i in $(inners $t $o); do
				echo "neigh replace $(inner_addr $t $o $i $3) lladdr $4 dev $2 nud permanent" >> "$f"
			done
		done
	done
	run ip -n "$1" -batch "$f"
}
underlay_neighbours() { # underlay_neighbours NS DEV SIDE_OF_PEER MAC
	local a f=/tmp/uneigh-$1.ip
	: > "$f"
	for a in "${U4[$3]}" "${G4[$3]}" "${U6[$3]}" "${G6[$3]}"; do
		echo "neigh replace $a lladdr $4 dev $2 nud permanent" >> "$f"
	done
	run ip -n "$1" -batch "$f"
}

# --- the phases ---------------------------------------------------------
phase_linux() {
	say "phase linux: Linux on both NICs"
	run ip netns add a
	run ip netns add b
	run ip link set "${DEV[0]}" netns a
	run ip link set "${DEV[1]}" netns b
	linux_side a "${DEV[0]}" 0
	linux_side b "${DEV[1]}" 1
	capture a "${DEV[0]}" linux
	start_receiver b linux
	local t o
	for t in $CELL_TUNNELS; do
		for o in $FAMILIES; do send_cells a linux "$t" "$o" 1; done
	done
	stop_receiver linux
	stop_capture
	# Deleting the namespaces gives the NICs back to the initial one.
	run ip netns del a
	run ip netns del b
	for _ in $(seq 50); do nic_by_mac "${MAC[1]}" > /dev/null && nic_by_mac "${MAC[0]}" > /dev/null && break; sleep 0.1; done
}

phase_cross() {
	say "phase hwcsum-linux and linux-hwcsum: DPDK on NIC 0, Linux on NIC 1"
	local t o i dev1 vmac
	dev1=$(nic_by_mac "${MAC[1]}") || die "NIC 1 did not come back"
	bind_dpdk 0
	run ip netns add b
	run ip link set "$dev1" netns b
	linux_side b "$dev1" 1
	underlay_neighbours b "$dev1" 0 "${MAC[0]}"
	static_neighbours b "$dev1" 0 "${MAC[0]}"
	inner_ns i vi 0
	static_neighbours i vi1 1 02:00:00:00:00:fe
	capture b "$dev1" linux-hwcsum
	start_receiver b hwcsum-linux
	start_receiver i linux-hwcsum
	for t in $CROSS_TUNNELS; do
		for o in $FAMILIES; do
			for i in $([ "$t" = 3 ] && inners $t $o || echo x); do
				app_start 0 "$t" "$o" "$i"
				INNERS_ONLY=$i send_cells i hwcsum-linux "$t" "$o" 1 "$(app_counter 0)"
				INNERS_ONLY=$i send_cells b linux-hwcsum "$t" "$o" 0 "$(app_counter 0)"
				app_stop 0
			done
		done
	done
	stop_receiver hwcsum-linux
	stop_receiver linux-hwcsum
	stop_capture
	run ip netns del b
}

phase_hwcsum() {
	say "phase hwcsum: DPDK on both NICs"
	local t o i dev1
	dev1=$(nic_by_mac "${MAC[1]}")
	for _ in $(seq 50); do dev1=$(nic_by_mac "${MAC[1]}") && break; sleep 0.1; done
	bind_dpdk 1
	# Namespace i learnt Linux's tunnel devices' MACs in the last phase.
	run ip -n i neigh flush dev vi1
	static_neighbours i vi1 1 02:00:00:00:00:fe
	inner_ns j vj 1
	static_neighbours j vj1 0 02:00:00:00:00:fe
	start_receiver j hwcsum
	for t in $HWCSUM_TUNNELS; do
		for o in $FAMILIES; do
			for i in $([ "$t" = 3 ] && inners $t $o || echo x); do
				app_start 0 "$t" "$o" "$i"
				app_start 1 "$t" "$o" "$i"
				INNERS_ONLY=$i send_cells i hwcsum "$t" "$o" 1 "$(app_counter 0)" "$(app_counter 1)"
				app_stop 0
				app_stop 1
			done
		done
	done
	stop_receiver hwcsum
}

phase_linux
if [ -n "$DPDK_PMD" ]; then
	[ "$(nproc)" -ge 2 ] || die "EAL needs 2 vCPUs, the guest has $(nproc)"
	echo 160 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	[ -d "$OUT/pmds" ] || die "$OUT/pmds missing (compare.sh writes it before the boot)"
	run mount --bind "$OUT/pmds" "$PMDS"
	phase_cross
	phase_hwcsum
else
	say "no DPDK driver for $MODEL: only the linux cells"
fi
say "done"
