#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Control ops through hwcsum reach the device underneath: MTU, MAC and
# promiscuous mode set on a hwcsum port (stacked on net_af_packet over a
# veth end) are read back from the kernel after testpmd has exited, so the
# check does not depend on what hwcsum itself reports.
PMD_SO=$1
. "$(dirname "$0")/lib.sh"
private_veth_pair "$@"

VDEVS="--vdev net_af_packet0,iface=veth0 --vdev net_hwcsum0,sub=net_af_packet0"

kernel_mtu() { ip -o link show veth0 | sed -n 's/.* mtu \([0-9]*\) .*/\1/p'; }
kernel_mac() { ip -o link show veth0 | sed -n 's/.*link\/ether \([0-9a-f:]*\) .*/\1/p'; }
kernel_promisc() { ip -o link show veth0 | grep -q '[<,]PROMISC[,>]' && echo on || echo off; }

session() {
	local mtu=$1 mac=$2 promisc=$3
	testpmd_session "$VDEVS" "--nb-ports=1" < <(
		echo "port config mtu 1 $mtu"
		echo "mac_addr set 1 $mac"
		echo "set promisc 1 $promisc"
		echo "show port info 1"
		echo "quit")
	[ "$RC" -eq 0 ] || fail "testpmd exited $RC"
	[ "$(kernel_mtu)" = "$mtu" ] && pass "MTU $mtu reached veth0" ||
		fail "veth0 MTU is '$(kernel_mtu)', expected $mtu"
	[ "$(kernel_mac)" = "$mac" ] && pass "MAC $mac reached veth0" ||
		fail "veth0 MAC is '$(kernel_mac)', expected $mac"
	echo "$OUT" | grep -q "MAC address: ${mac^^}" && pass "testpmd shows $mac" ||
		fail "testpmd does not show MAC $mac"
}

session 1400 02:11:22:33:44:55 off
[ "$(kernel_promisc)" = off ] && pass "promiscuous off reached veth0" ||
	fail "veth0 is still promiscuous"
session 1280 02:66:77:88:99:aa on
[ "$(kernel_promisc)" = on ] && pass "promiscuous on reached veth0" ||
	fail "veth0 is not promiscuous"

# A sub-port with no MTU setting of its own (net_pcap has no mtu_set):
# the MTU is hwcsum's, within the limits the sub-port reports.
testpmd_session "--vdev net_pcap0,iface=veth0 --vdev net_hwcsum0,sub=net_pcap0" \
	"--nb-ports=1" < <(echo "port config mtu 1 9000"; echo "show port info 1"; echo quit)
echo "$OUT" | grep -q '^MTU: 9000' && pass "MTU 9000 on hwcsum over net_pcap" ||
	fail "hwcsum over net_pcap did not take MTU 9000"
# A sub-port whose limits refuse it (net_af_packet: 1518-byte frames).
testpmd_session "$VDEVS" "--nb-ports=1" < <(echo "port config mtu 1 9000"; echo quit)
[ "$(kernel_mtu)" = 1280 ] && pass "MTU 9000 refused by net_af_packet, veth0 kept 1280" ||
	fail "veth0 MTU is '$(kernel_mtu)' after a refused 9000"
# hwcsum reports the sub-port's limits, so ethdev refuses before asking it.
echo "$OUT" | grep -q 'Frame size (9018) > device max frame size (1518)' &&
	pass "refused by the sub-port's max frame size" ||
	fail "no refusal by the sub-port's max frame size"
finish
