#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# hwcsum-tunnel against Linux's own vxlan and geneve devices.
#
#   ns i (VM)              ns gw                             ns u (Linux VTEP)
#   vi1 198.51.100.1 ---- vi0 [af_packet+hwcsum] gateway
#                          vu0 [af_packet+hwcsum] ----------- vu1 192.0.2.2, 2001:db8::2
#                                                             tun0 (vxlan/geneve) 198.51.100.2
#
# Per variant (outer checksum computed or zero, IPv4 and IPv6 underlay):
# ping, a UDP and a TCP stream in both directions; then 0 InCsumErrors in
# both Linux namespaces, 0 bad checksums in hwcsum's xstats, no drops for
# checksums, no leaked mbuf. Both Linux sides keep TX checksum offload on
# (veth's default), so their frames reach the gateway CHECKSUM_PARTIAL
# (seed only).
# Only namespaces created here are touched; removed on exit.
# Usage: linux.sh <hwcsum-tunnel> <librte_net_hwcsum.so> [variant...]
GW=$1 PMD_SO=$2
ARGS=("$@")
. "$(dirname "$0")/lib.sh"
for tool in ip ethtool; do
	command -v $tool >/dev/null || { echo "FAIL: missing $tool"; exit 1; }
done

ID=$$
TCP_BYTES=${TCP_BYTES:-1048576}
NS_GW=hwt-gw-$ID NS_U=hwt-u-$ID NS_I=hwt-i-$ID
cleanup() {
	[ -n "${GW_PID:-}" ] && kill "$GW_PID" 2>/dev/null && wait "$GW_PID" 2>/dev/null
	for ns in $NS_GW $NS_U $NS_I; do ip netns del "$ns" 2>/dev/null; done
	rm -rf "$WORK" /var/run/dpdk/hwcsum-tunnel-$$-*
}
trap cleanup EXIT
in_gw() { ip netns exec "$NS_GW" "$@"; }
in_u() { ip netns exec "$NS_U" "$@"; }
in_i() { ip netns exec "$NS_I" "$@"; }

setup() {
	local ns
	for ns in $NS_GW $NS_U $NS_I; do
		ip netns add "$ns" && ip -n "$ns" link set lo up || return 1
	done
	# The gateway's kernel stays quiet: no IPv6 on its veth ends.
	in_gw sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 &&
	ip link add vu0 netns "$NS_GW" type veth peer name vu1 netns "$NS_U" &&
	ip link add vi0 netns "$NS_GW" type veth peer name vi1 netns "$NS_I" || return 1
	# GRO off on the gateway's ends: AF_PACKET frames are one packet each
	# (net_af_packet hands over a 64 KiB frame cut to its ring's frame
	# size, with nothing to say so).
	in_gw ethtool -K vu0 gro off >/dev/null 2>&1
	in_gw ethtool -K vi0 gro off >/dev/null 2>&1
	# Linux's VTEP and the VM keep veth's defaults: TX checksum offload
	# (their packets reach the gateway CHECKSUM_PARTIAL, the seed in the
	# field, completed by hwcsum: rx_partial_seed) and TSO/GSO, which the
	# kernel takes off while hwcsum's XDP_PASS sits on the gateway's end
	# (peer_segment). A kernel without BPF (the GENEVE guest's) cannot:
	# there the peers turn TSO/GSO off themselves.
	in_u ethtool -k vu1 | grep -q '^tx-checksumming: on' ||
		{ echo "FAIL: vu1 has no TX checksum offload: nothing tested"; return 1; }
	in_u ethtool -k vu1 | grep -q '^tcp-segmentation-offload: on' ||
		{ echo "FAIL: vu1 has no TSO by default: nothing tested"; return 1; }
	if [ ! -e /proc/sys/kernel/unprivileged_bpf_disabled ]; then
		echo "note: this kernel has no BPF syscall: peers turn TSO/GSO off"
		NO_BPF=1
		in_gw ethtool -K vu0 tso off gso off >/dev/null 2>&1
		in_gw ethtool -K vi0 tso off gso off >/dev/null 2>&1
		in_u ethtool -K vu1 gro off tso off gso off >/dev/null 2>&1
		in_i ethtool -K vi1 gro off tso off gso off >/dev/null 2>&1
	fi
	ip -n "$NS_GW" link set vu0 up && ip -n "$NS_GW" link set vi0 up &&
	ip -n "$NS_U" addr add 192.0.2.2/24 dev vu1 &&
	ip -n "$NS_U" addr add 2001:db8::2/64 dev vu1 nodad &&
	ip -n "$NS_U" link set vu1 up &&
	ip -n "$NS_I" link set vi1 mtu 1400 &&
	ip -n "$NS_I" addr add 198.51.100.1/24 dev vi1 &&
	ip -n "$NS_I" addr add 2001:db8:1::1/64 dev vi1 nodad &&
	ip -n "$NS_I" link set vi1 up || return 1
	GW_MAC=$(cat /sys/class/net/vu0/address 2>/dev/null ||
		ip -n "$NS_GW" -o link show vu0 | grep -o 'link/ether [0-9a-f:]*' | cut -d' ' -f2)
	U_MAC=$(ip -n "$NS_U" -o link show vu1 | grep -o 'link/ether [0-9a-f:]*' | cut -d' ' -f2)
	# The gateway answers no ARP/ND: Linux is told where 192.0.2.1 is.
	ip -n "$NS_U" neigh add 192.0.2.1 lladdr "$GW_MAC" dev vu1 nud permanent &&
	ip -n "$NS_U" neigh add 2001:db8::1 lladdr "$GW_MAC" dev vu1 nud permanent
}
setup || { echo "FAIL: cannot set up the namespaces"; exit 1; }
echo "gateway underlay MAC $GW_MAC, Linux VTEP MAC $U_MAC"

# InCsumErrors of Udp, Tcp (snmp) and Udp6 (snmp6) in a namespace.
csum_errors() {
	ip netns exec "$1" awk '
		/^(Udp|Tcp):/ { if (!h[$1]) { for (i = 2; i <= NF; i++) col[$1, $i] = i; h[$1] = 1 }
				else s += $(col[$1, "InCsumErrors"]) }
		END { print s + 0 }' /proc/net/snmp
}
csum6_errors() {
	ip netns exec "$1" awk '$1 == "Udp6InCsumErrors" { print $2 }' /proc/net/snmp6
}

# variant <name> <Linux "ip link add tun0 ..." args> <gateway --tunnel keys>
variant() {
	local name=$1 linux=$2 keys=$3 log="$WORK/gw-$1.log" got out
	echo "== $name"
	# A fixed MAC: the VM's neighbour entry stays right across variants.
	ip -n "$NS_U" link add tun0 address 02:00:00:00:20:02 $linux &&
	ip -n "$NS_U" link set tun0 mtu 1400 &&
	ip -n "$NS_U" addr add 198.51.100.2/24 dev tun0 &&
	ip -n "$NS_U" addr add 2001:db8:1::2/64 dev tun0 nodad &&
	ip -n "$NS_U" link set tun0 up || { fail "$name: ip link add tun0 $linux"; return; }
	[ -z "${NO_BPF:-}" ] || in_u ethtool -K tun0 tso off gso off >/dev/null 2>&1
	RUN_N=$((RUN_N + 1))
	# --duration: a guard only, the run ends with SIGINT below, sent to
	# the gateway itself (ip netns exec forks: its pid is not the gateway's).
	# Busy polling, not --idle-sleep: with it, a cold make test once saw
	# 173 of 200 datagrams of a burst arrive (ns u -> ns i, GENEVE over
	# IPv6, in a guest beside a kernel build); this test counts every one.
	in_gw sh -c 'echo $$ >"$0"; exec "$@"' "$WORK/gw.pid" "$GW" --no-huge -m 256 --no-pci -l 0-1 \
		--file-prefix "hwcsum-tunnel-$$-$RUN_N" \
		--vdev net_af_packet0,iface=vu0 --vdev net_hwcsum0,sub=net_af_packet0 \
		--vdev net_af_packet1,iface=vi0 --vdev net_hwcsum1,sub=net_af_packet1 -- \
		--underlay net_hwcsum0 -s 0 --duration 90 \
		--tunnel "name=$name,inner_port=net_hwcsum1,remote_mac=$U_MAC,$keys" \
		>"$log" 2>&1 &
	GW_PID=$!
	for _ in $(seq 100); do
		grep -q "tunnel(s)" "$log" && break
		kill -0 "$GW_PID" 2>/dev/null || break
		sleep 0.2
	done
	grep -q "tunnel(s)" "$log" || { fail "$name: gateway did not start"; GW_PID=; return; }
	if [ -z "${NO_BPF:-}" ]; then
		# The kernel's own word that the peers now segment before the veth.
		in_u ethtool -k vu1 | grep -q '^tcp-segmentation-offload: off' &&
		in_i ethtool -k vi1 | grep -q '^tcp-segmentation-offload: off' &&
			pass "$name: the veth peers' TSO is off while the gateway runs (XDP_PASS on its ends)" ||
			fail "$name: a veth peer still has TSO on while the gateway runs"
	fi

	for dir in "i 198.51.100.2" "u 198.51.100.1" "i 2001:db8:1::2"; do
		set -- $dir
		got=$(ip netns exec "$( [ "$1" = i ] && echo "$NS_I" || echo "$NS_U")" \
			"$PY" "$HERE/streams.py" ping "$2" 4 2>&1 | grep -o '[0-9]* received' | cut -d' ' -f1)
		[ "${got:-0}" -ge 3 ] && pass "$name: ping from ns $1 to $2: $got/4" ||
			fail "$name: ping from ns $1 to $2: ${got:-0}/4"
	done
	# UDP both ways, 200 datagrams of 200..1299 bytes.
	for dir in "i u 198.51.100.2" "u i 198.51.100.1"; do
		set -- $dir
		local from=hwt-$1-$ID to=hwt-$2-$ID
		ip netns exec "$to" "$PY" "$HERE/streams.py" udp-recv 5001 200 >"$WORK/udp.out" &
		local rpid=$!
		sleep 0.5
		ip netns exec "$from" "$PY" "$HERE/streams.py" udp-send "$3" 5001 200
		wait $rpid
		got=$(awk '{print $3}' "$WORK/udp.out")
		[ "${got:-0}" -ge 190 ] && pass "$name: UDP ns $1 -> ns $2: $got/200 intact" ||
			fail "$name: UDP ns $1 -> ns $2: ${got:-0}/200"
	done
	# TCP both ways (1 MiB; TCP_BYTES=4194304 for docs/tunnel.md's 4 MiB),
	# compared by SHA-256. With the peers' TSO on and no peer_segment it
	# stalls after about 350 KiB.
	for dir in "i u 198.51.100.2" "u i 198.51.100.1"; do
		set -- $dir
		local from=hwt-$1-$ID to=hwt-$2-$ID
		ip netns exec "$to" "$PY" "$HERE/streams.py" tcp-recv 5002 >"$WORK/tcp.out" &
		local rpid=$!
		sleep 0.5
		out=$(ip netns exec "$from" timeout 30 "$PY" "$HERE/streams.py" tcp-send "$3" 5002 "$TCP_BYTES")
		wait $rpid
		got=$(cat "$WORK/tcp.out")
		[ "${out#tcp sent }" = "${got#tcp received }" ] && [ -n "$out" ] &&
			pass "$name: TCP ns $1 -> ns $2: $TCP_BYTES bytes, same SHA-256" ||
			fail "$name: TCP ns $1 -> ns $2: sent '$out', got '$got'"
	done

	kill -INT "$(cat "$WORK/gw.pid")"
	wait "$GW_PID"
	local rc=$?
	GW_PID=
	[ "$rc" -eq 0 ] && pass "$name: gateway exits 0 on SIGINT" || fail "$name: gateway exit $rc"
	if [ -z "${NO_BPF:-}" ]; then
		in_u ethtool -k vu1 | grep -q '^tcp-segmentation-offload: on' &&
			pass "$name: vu1's TSO is back once the gateway closed its ports" ||
			fail "$name: vu1's TSO stays off after the gateway exited"
	fi
	expect_in "$log" "none leaked" "$name: no mbuf leaked"
	expect_in "$log" "rx_l4_bad 0 rx_outer_l4_bad 0" "$name: 0 bad checksums in hwcsum xstats"
	expect_in "$log" "rx_l4_partial_seed_resolved [1-9]" "$name: Linux's partial seeds completed by hwcsum"
	expect_in "$log" "outer_csum 0 inner_ip_csum 0 inner_csum 0" "$name: no checksum drops"
	expect_in "$log" "encap [1-9][0-9]* decap [1-9]" "$name: encapsulated and decapsulated"
	grep -E "encap|drops:|hwcsum net" "$log" | tail -3 | sed 's/^/    /'
	for ns in $NS_U $NS_I; do
		local e4 e6
		e4=$(csum_errors "$ns") e6=$(csum6_errors "$ns")
		[ "$e4" = 0 ] && [ "$e6" = 0 ] && pass "$name: ns ${ns%-$ID}: InCsumErrors 0 (Udp+Tcp), Udp6InCsumErrors 0" ||
			fail "$name: ns ${ns%-$ID}: InCsumErrors $e4, Udp6InCsumErrors $e6"
	done
	ip -n "$NS_U" link del tun0
}

V4="local=192.0.2.1,remote=192.0.2.2"
V6="local=2001:db8::1,remote=2001:db8::2"
run() {
	case $1 in
	vxlan4-csum) variant $1 "type vxlan id 42 remote 192.0.2.1 local 192.0.2.2 dev vu1 dstport 4789 udpcsum" \
		"type=vxlan,vni=42,$V4,udp_csum=on" ;;
	vxlan4-zero) variant $1 "type vxlan id 42 remote 192.0.2.1 local 192.0.2.2 dev vu1 dstport 4789 noudpcsum" \
		"type=vxlan,vni=42,$V4,udp_csum=off" ;;
	vxlan6-csum) variant $1 "type vxlan id 66 remote 2001:db8::1 local 2001:db8::2 dev vu1 dstport 4789" \
		"type=vxlan,vni=66,$V6" ;;
	vxlan6-zerorx) variant $1 "type vxlan id 77 remote 2001:db8::1 local 2001:db8::2 dev vu1 dstport 4789 udp6zerocsumtx udp6zerocsumrx" \
		"type=vxlan,vni=77,$V6,udp6_zero_csum_rx=on" ;;
	# Needs CONFIG_GENEVE, which this host's kernel lacks: meson's
	# tunnel-linux-geneve-guest runs these in a QEMU guest.
	geneve4-csum) variant $1 "type geneve id 4242 remote 192.0.2.1 dstport 6081 udpcsum" \
		"type=geneve,vni=4242,$V4,udp_csum=on" ;;
	geneve4-zero) variant $1 "type geneve id 4242 remote 192.0.2.1 dstport 6081 noudpcsum" \
		"type=geneve,vni=4242,$V4,udp_csum=off" ;;
	geneve6-csum) variant $1 "type geneve id 4343 remote 2001:db8::1 dstport 6081 udpcsum" \
		"type=geneve,vni=4343,$V6" ;;
	*) fail "unknown variant $1" ;;
	esac
}
VARIANTS=${ARGS[*]:2}
for v in ${VARIANTS:-vxlan4-csum vxlan4-zero vxlan6-csum vxlan6-zerorx}; do
	run "$v"
done
finish
