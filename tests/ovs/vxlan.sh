#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Open vSwitch's userspace VXLAN (or GENEVE: TUNNEL=geneve, in a guest
# whose kernel has it) over an hwcsum underlay, to Linux's vxlan (geneve).
#
#   ns i: vi 10.98.0.1 -- si [af_packet+hwcsum "hi"] br-int -- vxlan (VNI 42, csum)
#                                      ns sw: ovs-vswitchd-dpdk      |
#                         br-phy 192.0.2.1 [hwcsum+af_packet "hu"] su -- vu 192.0.2.2 :ns u
#                                                                      vx0 10.98.0.2 (Linux vxlan, udpcsum)
#
# Per variant (the tunnel port unknown to hwcsum, as OVS leaves it, and
# registered on hwcsum through tunnel_ports=vxlan:4789): ping both ways,
# 4 MiB of TCP each way with equal SHA-256, then crafted VXLAN frames into
# the underlay: a good one must reach ns i; one with a corrupted outer
# UDP checksum, and one with a corrupted outer IPv4 header, must not (OVS
# drops them); one with a corrupted inner TCP checksum may be forwarded
# (OVS does not check inner L4) but must be counted as InCsumErrors by
# ns i and never answered.
# Usage: vxlan.sh <build dir> <librte_net_hwcsum.so> [variant...]
BUILD=$1 PMD_SO=$2
TUNNEL=${TUNNEL:-vxlan}
TCP_BYTES=${TCP_BYTES:-4194304}	# the guest's GENEVE run: 1 MiB (TCG)
case $TUNNEL in
vxlan) TUN_PORT=4789 LINUX_TUN="type vxlan id 42 remote 192.0.2.1 local 192.0.2.2 dstport 4789 udpcsum" ;;
geneve) FRAMES_OPT=--geneve TUN_PORT=6081 LINUX_TUN="type geneve id 42 remote 192.0.2.1 udpcsum" ;;
*) echo "FAIL: TUNNEL=$TUNNEL is neither vxlan nor geneve"; exit 1 ;;
esac
shift 2
VARIANTS=("${@:-unregistered}")
[ $# -gt 0 ] || VARIANTS=(unregistered registered)
. "$(dirname "$0")/lib.sh"
NS_I=hwo-i-$ID NS_U=hwo-u-$ID

ovs_init "--vdev net_af_packet0,iface=su --vdev net_af_packet1,iface=si" &&
peer "$NS_U" su vu 192.0.2.2/24 &&
peer "$NS_I" si vi 10.98.0.1/24 &&
ip -n "$NS_I" link set vi mtu 1400 &&
ip -n "$NS_U" link add vx0 address 02:00:00:00:98:02 $LINUX_TUN &&
ip -n "$NS_U" link set vx0 mtu 1400 &&
in_ns "$NS_U" ethtool -K vx0 tso off gso off >/dev/null &&
ip -n "$NS_U" addr add 10.98.0.2/24 dev vx0 &&
ip -n "$NS_U" link set vx0 up &&
ovs_start || { fail "cannot set up"; finish; }

vsctl add-br br-int -- set Bridge br-int datapath_type=netdev &&
vsctl add-port br-int hi -- set Interface hi type=dpdk \
	options:dpdk-devargs=net_hwcsum1,sub=net_af_packet1 &&
vsctl add-port br-int vx -- set Interface vx type=$TUNNEL \
	options:remote_ip=192.0.2.2 options:key=42 options:csum=true &&
vsctl add-br br-phy -- set Bridge br-phy datapath_type=netdev || fail "bridges"
ip -n "$NS_OVS" addr add 192.0.2.1/24 dev br-phy && ip -n "$NS_OVS" link set br-phy up ||
	fail "br-phy address"
in_ns "$NS_OVS" ethtool -K br-phy tx off >/dev/null 2>&1

# InCsumErrors of Tcp in a namespace.
tcp_csum_errors() {
	in_ns "$1" awk '/^Tcp:/ { if (!h) { for (i = 2; i <= NF; i++) c[$i] = i; h = 1 }
		else print $(c["InCsumErrors"]) }' /proc/net/snmp
}

# The crafted SYNs (to port 9) and any answer (from port 9) on ns i's veth,
# read once: "dstport srcport seq ack" per segment.
read_vi() {
	tshark -r "$WORK/vi.pcap" -Y "tcp.port == 9" -T fields -e tcp.dstport \
		-e tcp.srcport -e tcp.seq_raw -e tcp.ack_raw >"$WORK/vi.txt" 2>/dev/null
}
# seen_on_vi <seq>: frames of that SYN that reached ns i; answered <seq>: replies.
seen_on_vi() { awk -v s="$1" '$1 == 9 && $3 == s' "$WORK/vi.txt" | wc -l; }
answered() { awk -v a="$(($1 + 1))" '$2 == 9 && $4 == a' "$WORK/vi.txt" | wc -l; }

variant() {
	local name=$1 devargs=net_hwcsum0,sub=net_af_packet0 br_mac before after
	echo "== $name"
	[ "$name" = registered ] && devargs="$devargs,tunnel_ports=$TUNNEL:$TUN_PORT"
	vsctl -- --if-exists del-port br-phy hu -- add-port br-phy hu -- \
		set Interface hu type=dpdk "options:dpdk-devargs=$devargs" &&
	iface_ok hu && iface_ok hi || { fail "$name: ports"; return; }
	br_mac=$(mac_of "$NS_OVS" br-phy)
	check "$name: ping i -> u over $TUNNEL" ping_ok "$NS_I" 10.98.0.2
	check "$name: ping u -> i over $TUNNEL" ping_ok "$NS_U" 10.98.0.1
	check "$name: $TCP_BYTES bytes of TCP i -> u, SHA-256 equal" tcp_transfer "$NS_I" "$NS_U" 10.98.0.2 "$TCP_BYTES"
	check "$name: $TCP_BYTES bytes of TCP u -> i, SHA-256 equal" tcp_transfer "$NS_U" "$NS_I" 10.98.0.1 "$TCP_BYTES"

	capture_start vi "$NS_I" vi || fail "tshark on vi"
	before=$(tcp_csum_errors "$NS_I")
	in_ns "$NS_U" "$PY" "$HERE/vxlan_frames.py" $FRAMES_OPT vu 3 "$(mac_of "$NS_U" vu)" \
		"$br_mac" 02:00:00:00:98:02 "$(mac_of "$NS_I" vi)" good:2000 \
		outer-udp-bad:3000 outer-ip-bad:4000 inner-tcp-bad:5000 ||
		fail "$name: scapy"
	capture_stop
	read_vi
	after=$(tcp_csum_errors "$NS_I")
	check "$name: good $TUNNEL frames reach ns i and are answered" \
		eval '[ "$(seen_on_vi 2000)" = 3 ] && [ "$(answered 2000)" -ge 1 ]'
	check "$name: corrupted outer UDP checksum dropped ($(seen_on_vi 3000) of 3 reached ns i)" \
		eval '[ "$(seen_on_vi 3000)" = 0 ]'
	check "$name: corrupted outer IPv4 header dropped ($(seen_on_vi 4000) of 3 reached ns i)" \
		eval '[ "$(seen_on_vi 4000)" = 0 ]'
	check "$name: corrupted inner TCP checksum never accepted (InCsumErrors +$((after - before)), $(answered 5000) answers)" \
		eval '[ "$(answered 5000)" = 0 ] && { [ "$(seen_on_vi 5000)" = 0 ] || [ $((after - before)) -ge "$(seen_on_vi 5000)" ]; }'
	# hwcsum classified the tunnel exactly when it was registered.
	xstats hu >"$WORK/hu-$name.xstats"
	echo "  hu xstats: $(grep -E '^rx_(tunnel_$TUNNEL|l4_bad|outer_l4_bad|ip_bad|outer_ip_bad|[a-z0-9_]*csum_errors)=' "$WORK/hu-$name.xstats" | tr '\n' ' ')"
	local tun_pkts
	tun_pkts=$(sed -n "s/^rx_tunnel_$TUNNEL=//p" "$WORK/hu-$name.xstats")
	if [ "$name" = registered ]; then
		check "$name: hwcsum classified $TUNNEL ($tun_pkts packets)" eval '[ "${tun_pkts:-0}" -gt $((TCP_BYTES / 4096)) ]'
	else
		check "$name: hwcsum saw plain UDP" eval '[ "${tun_pkts:-0}" = 0 ]'
	fi
}
for v in "${VARIANTS[@]}"; do variant "$v"; done
finish
