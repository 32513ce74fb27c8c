#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# hwcsum-tunnel refuses bad configuration with a message naming the file,
# line, section and key, and a non-zero exit; likewise a missing port, a
# pool too small for the queues, a pool memory cannot hold, no hwcsum port.
# Usage: badconfig.sh <hwcsum-tunnel> <librte_net_hwcsum.so>
GW=$1 PMD_SO=$2
. "$(dirname "$0")/lib.sh"

base() {
	cat <<-'INI'
	; a valid configuration, line 1
	[global]
	underlay = net_hwcsum0
	stats_interval = 0

	[tunnel:a]
	type = vxlan
	vni = 42
	inner_port = net_hwcsum1
	local = 192.0.2.1
	remote = 192.0.2.2
	remote_mac = 02:00:00:00:00:02
	INI
}

# bad_ini <name> <expected message regex> <sed script applied to base>
bad_ini() {
	local f="$WORK/$1.ini"
	base | sed "$3" >"$f"
	"$GW" -- -f "$f" >"$WORK/$1.log" 2>&1
	RC=$?
	if [ "$RC" -ne 0 ] && grep -Eq -- "$2" "$WORK/$1.log"; then
		pass "$1: exit $RC, '$(head -1 "$WORK/$1.log")'"
	else
		fail "$1: exit $RC, wanted /$2/: $(cat "$WORK/$1.log")"
	fi
}

F='[^ ]*/'
bad_ini unknown_section "${F}unknown_section.ini:13 \[tunel:b\]: unknown section" '$a [tunel:b]\ntype = vxlan'
bad_ini unknown_key "${F}unknown_key.ini:10 \[tunnel:a\]: unknown key 'vnid'" '9a vnid = 7'
bad_ini bad_vni "${F}bad_vni.ini:8 \[tunnel:a\]: key 'vni': bad value '16777216'" 's/^vni = 42/vni = 16777216/'
bad_ini bad_type "${F}bad_type.ini:7 \[tunnel:a\]: key 'type': bad value 'vxlan6'" 's/^type = vxlan/type = vxlan6/'
bad_ini bad_addr "${F}bad_addr.ini:11 \[tunnel:a\]: key 'remote': bad value '192.0.2.300'" 's/^remote = .*/remote = 192.0.2.300/'
bad_ini mixed_family "${F}mixed_family.ini:11 \[tunnel:a\]: key 'remote': .*one family" 's/^remote = .*/remote = 2001:db8::2/'
bad_ini bad_mac "${F}bad_mac.ini:12 \[tunnel:a\]: key 'remote_mac': bad value" 's/^remote_mac = .*/remote_mac = 02:00:00:00:00/'
bad_ini bad_bool "${F}bad_bool.ini:13 \[tunnel:a\]: key 'udp_csum': bad value 'maybe'" '$a udp_csum = maybe'
bad_ini bad_opt "${F}bad_opt.ini:8 \[tunnel:a\]: key 'geneve_opt': bad value '0x1:0x2:abc'" 's/^type = vxlan/type = geneve/; 8i geneve_opt = 0x1:0x2:abc'
bad_ini bad_gpe_payload "${F}bad_gpe_payload.ini:8 \[tunnel:a\]: key 'gpe_payload': bad value 'ipv4'" 's/^type = vxlan/type = vxlan-gpe/; 8i gpe_payload = ipv4'
bad_ini gpe_payload_vxlan "${F}gpe_payload_vxlan.ini:6 \[tunnel:a\]: key 'gpe_payload': only for type vxlan-gpe" '8i gpe_payload = ip'
bad_ini bad_global "${F}bad_global.ini:4 \[global\]: key 'mbufs': bad value '12x'" '3a mbufs = 12x'
bad_ini bad_idle_sleep "${F}bad_idle_sleep.ini:4 \[global\]: key 'idle_sleep': bad value '100001' \(0..100000 microseconds\)" '3a idle_sleep = 100001'
bad_ini missing_key "${F}missing_key.ini:6 \[tunnel:a\]: missing required key 'remote_mac'" '/^remote_mac/d'
bad_ini missing_type "${F}missing_type.ini:6 \[tunnel:a\]: missing required key 'type'" 's/^type = vxlan/dst_port = 4789/'
bad_ini missing_vni "${F}missing_vni.ini:6 \[tunnel:a\]: missing required key 'vni'" '/^vni/d'
bad_ini dup_vni "${F}dup_vni.ini:13 \[tunnel:b\]: key 'vni': duplicate VNI 42 .*tunnel 'a'" \
	'$a [tunnel:b]\ntype = vxlan\nvni = 42\ninner_port = net_hwcsum2\nlocal = 192.0.2.1\nremote = 192.0.2.3\nremote_mac = 02:00:00:00:00:03'
bad_ini dup_inner "${F}dup_inner.ini:13 \[tunnel:b\]: key 'inner_port': 'net_hwcsum1' already belongs" \
	'$a [tunnel:b]\ntype = geneve\nvni = 42\ninner_port = net_hwcsum1\nlocal = 192.0.2.1\nremote = 192.0.2.3\nremote_mac = 02:00:00:00:00:03'
bad_ini v6_nocsum "${F}v6_nocsum.ini:6 \[tunnel:a\]: key 'udp_csum': must be on over IPv6" \
	's/^local = .*/local = 2001:db8::1/; s/^remote = .*/remote = 2001:db8::2/; $a udp_csum = off'
bad_ini syntax "${F}syntax.ini:9: not a \[section\], key = value" '8a this line is wrong'
bad_ini long_value "${F}long_value.ini:8: value of 256 characters, rte_cfgfile keeps at most 255" \
	's/^type = vxlan/type = geneve/; 8i geneve_opt = 0x1:0x2:01020304010203040102030401020304010203040102030401020304010203040102030401020304010203040102030401020304010203040102030401020304010203040102030401020304010203040102030401020304010203040102030401020304010203040102030401020304010203040102030401020304'
bad_ini no_underlay "no underlay port" '/^underlay/d'

"$GW" -- -f "$WORK/none.ini" >"$WORK/nofile.log" 2>&1
RC=$?
[ "$RC" -ne 0 ] && grep -q "none.ini: cannot open" "$WORK/nofile.log" &&
	pass "missing file: exit $RC" || fail "missing file: exit $RC: $(cat "$WORK/nofile.log")"
"$GW" -- -f "$WORK" >"$WORK/dir.log" 2>&1
RC=$?
[ "$RC" -ne 0 ] && grep -q "^hwcsum-tunnel: $WORK: is a directory, not a configuration file" "$WORK/dir.log" &&
	pass "a directory: exit $RC, $(head -1 "$WORK/dir.log")" || fail "a directory: exit $RC: $(cat "$WORK/dir.log")"
"$GW" -- --underlay net_hwcsum0 --tunnel type=gue,inner_port=x,local=192.0.2.1,remote=192.0.2.2,remote_mac=02:00:00:00:00:02,dst_port=0 \
	>"$WORK/cli.log" 2>&1
RC=$?
[ "$RC" -ne 0 ] && grep -q "^hwcsum-tunnel: --tunnel #1: key 'dst_port': bad value '0'" "$WORK/cli.log" &&
	pass "command line: exit $RC, $(head -1 "$WORK/cli.log")" || fail "command line: exit $RC: $(cat "$WORK/cli.log")"
# Each [global] key as an option: the message names both spellings.
base >"$WORK/ok.ini"
for opt in underlay= mbufs=12x stats-interval=3601 duration=-1 idle-sleep=100001 \
	   underlay-mtu=67 underlay-mtu=65536; do
	name=${opt%%=*} value=${opt#*=}
	"$GW" -- -f "$WORK/ok.ini" "--$name" "$value" >"$WORK/cli-$name.log" 2>&1
	RC=$?
	[ "$RC" -ne 0 ] && grep -q "^hwcsum-tunnel: --$name: key '${name//-/_}': bad value '$value'" "$WORK/cli-$name.log" &&
		pass "--$name $value: exit $RC, named" || fail "--$name $value: exit $RC: $(cat "$WORK/cli-$name.log")"
done
"$GW" --help >"$WORK/help.log" 2>&1 && grep -q "^SYNOPSIS" "$WORK/help.log" &&
	grep -q "^TUNNEL KEYS" "$WORK/help.log" && pass "--help: a manual page" || fail "--help"

# With EAL and ports: one net_ring-backed hwcsum port only.
base >"$WORK/ok.ini"
RING="--vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0"
run_gw noport $RING -- -f "$WORK/ok.ini" --duration 1
[ "$RC" -ne 0 ] && grep -q "tunnel 'a' inner port 'net_hwcsum1' not found; ports are: net_hwcsum0" "$WORK/noport.log" &&
	pass "missing port: exit $RC, named" || fail "missing port: exit $RC"
RING2="$RING --vdev net_ring1 --vdev net_hwcsum1,sub=net_ring1"
run_gw fewmbufs $RING2 -- -f "$WORK/ok.ini" --mbufs 600 --duration 1
[ "$RC" -ne 0 ] && grep -q "mempool too small: 600 mbufs, 2 ports x 1 queues need at least" "$WORK/fewmbufs.log" &&
	pass "too few mbufs: exit $RC, named" || fail "too few mbufs: exit $RC"
run_gw hugepool $RING2 -- -f "$WORK/ok.ini" --mbufs 16000000 --duration 1
[ "$RC" -ne 0 ] && grep -q "cannot create a pool of 16000000 mbufs" "$WORK/hugepool.log" &&
	pass "pool beyond memory: exit $RC, named" || fail "pool beyond memory: exit $RC"
run_gw nopmd --vdev net_ring0 -- -f "$WORK/ok.ini" --duration 1
[ "$RC" -ne 0 ] && grep -q "no net_hwcsum port probed" "$WORK/nopmd.log" &&
	pass "no hwcsum port: exit $RC, named" || fail "no hwcsum port: exit $RC"
# And the valid file runs: statistics lines each second, telemetry.
TEL_PREFIX=hwcsum-tunnel-$$-tel
timeout 60 "$GW" --no-huge -m 256 --no-pci -l 0-1 --file-prefix $TEL_PREFIX \
	$RING2 -- -f "$WORK/ok.ini" --stats-interval 1 --duration 4 --underlay-mtu 9000 \
	>"$WORK/ok.log" 2>&1 &
pid=$!
for _ in $(seq 40); do grep -q "tunnel(s)" "$WORK/ok.log" && break; sleep 0.1; done
echo /hwcsum_tunnel/stats | /usr/bin/python3 /usr/bin/dpdk-telemetry.py -f $TEL_PREFIX \
	>"$WORK/tel.log" 2>&1
wait $pid
RC=$?
[ "$RC" -eq 0 ] && grep -q "none leaked" "$WORK/ok.log" && pass "valid file: exit 0" ||
	fail "valid file: exit $RC"
grep -q "^hwcsum-tunnel: underlay MTU 9000" "$WORK/ok.log" &&
	pass "--underlay-mtu 9000 set on the underlay" || fail "underlay MTU not 9000"
n=$(grep -c "underlay net_hwcsum0 .* pps .*Mbit/s" "$WORK/ok.log")
[ "$n" -ge 2 ] && pass "statistics lines: $n" || fail "statistics lines: $n"
grep -q '"/hwcsum_tunnel/stats": {"encap": 0, "decap": 0' "$WORK/tel.log" &&
	grep -q '"drops": {"not_tunnel": 0' "$WORK/tel.log" &&
	grep -q '"net_hwcsum0": {"port_id": ' "$WORK/tel.log" &&
	pass "telemetry /hwcsum_tunnel/stats answers" ||
	fail "telemetry: $(cat "$WORK/tel.log")"
finish
