#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Replay UDP tunnel scenario files (README.md in this directory) against a
# Linux kernel with netdevsim: NIC = netdevsim port, tunnel = vxlan/geneve
# netdev, knobs = netdevsim debugfs files, tables = debugfs table0/table1.
# Run as root in a throw-away guest, e.g.
#
#   devtools/vm-run.sh --kernel <kernel/build.sh output> -- \
#       /bin/bash tests/scenarios/udp_tunnel/replay-netdevsim.sh \
#       tests/scenarios/udp_tunnel/*.scn
#
# Prints "PASSED all N checks" / "FAILED E/N checks" per file and exits
# non-zero if any check failed. Needs modules netdevsim, vxlan, geneve,
# debugfs, ip, ethtool.
#
# --dump OUT (before the files) also writes the tables each check found to
# OUT, one line per check in the format the three-way comparison reads
# (README.md, "Three ways"; three-way.py passes $HWCSUM_OUT/...).

set -u

NSIM_ID=$((RANDOM % 1024 + 1))
SYS=/sys/bus/netdevsim/devices/netdevsim$NSIM_ID
DFS=/sys/kernel/debug/netdevsim/netdevsim$NSIM_ID
VNI=100
total_errors=0
DUMP=
if [ "${1:-}" = --dump ]; then
	DUMP=${2:?--dump needs a file}
	shift 2
	: > "$DUMP" || exit 1
fi

declare -A NETDEV TUN_UP TUN_FAM
declare -a EXP0 EXP1
STATIC=0

type_bit() {
	case $1 in
	vxlan) echo 1 ;;
	geneve) echo 2 ;;
	vxlan-gpe) echo 4 ;;
	*) echo 0 ;;
	esac
}

slot_val() {
	[ "$1" = 0 ] && { echo 0; return; }
	local port=${1%%/*} type=${1#*/}
	echo $((port << 16 | $(type_bit "$type")))
}

# slot_fmt VALUE: "0" or "<port>/<type>" in REPLY (no subshell: TCG forks slowly).
slot_fmt() {
	local v=$1
	REPLY=0
	[ "$v" = 0 ] && return
	case $((v & 0xffff)) in
	1) REPLY="$((v >> 16))/vxlan" ;;
	2) REPLY="$((v >> 16))/geneve" ;;
	4) REPLY="$((v >> 16))/vxlan-gpe" ;;
	*) REPLY="$((v >> 16))/bit$((v & 0xffff))" ;;
	esac
}

slot_str() {
	slot_fmt "$1"
	echo "$REPLY"
}

fail() {
	echo "ERROR $FILE:$LINE: $MSG: $*"
	((errors++))
}

bus_down() {
	local t
	for t in "${!TUN_UP[@]}"; do
		ip link del dev "$t" 2> /dev/null
	done
	TUN_UP=()
	TUN_FAM=()
	DUAL_SLOT=()
	DUAL_OF=()
	[ -e "$SYS" ] && echo "$NSIM_ID" > /sys/bus/netdevsim/del_device
	NETDEV=()
}

bus_up() {
	echo "$NSIM_ID" > /sys/bus/netdevsim/new_device
	udevadm settle 2> /dev/null
	echo 0 > "$SYS/del_port"
	STATIC=0
}

nic_new() {
	local id=$1 before after n
	before=$(ls /sys/class/net)
	echo "$id" > "$SYS/new_port" || { fail "nic new $id"; return; }
	for _ in $(seq 50); do
		after=$(ls /sys/class/net)
		for n in $after; do
			grep -qx "$n" <<< "$before" || { NETDEV[$id]=$n; return; }
		done
		sleep 0.02
	done
	fail "nic new $id: no netdev appeared"
}

# "dual" = an external (collect_md) device: Linux opens a v6 and a v4
# socket for it. Two of them may share a port if one is configured v4 and
# the other v6: DUAL_SLOT["port/type/v4|v6"] = the device holding that one.
declare -A DUAL_SLOT DUAL_OF
tunnel_add() {
	local name=$1 fam=$2 port=$3 type=$4 remote ext="" key
	[ "$fam" = v6 ] && remote=2001:db8::2 || remote=1.1.1.2
	if [ "$fam" = dual ]; then
		key=$port/$type/v4
		if [ -n "${DUAL_SLOT[$key]:-}" ]; then
			key=$port/$type/v6
			remote=2001:db8::2
		fi
		DUAL_SLOT[$key]=$name
		DUAL_OF[$name]=$key
		ext=external
	elif [ "$type" = vxlan-gpe ]; then
		fail "vxlan-gpe exists only as an external (dual) device in Linux"
		return
	fi
	case $type in
	vxlan) ip link add "$name" type vxlan ${ext:-id $((VNI++))} remote $remote dstport "$port" ;;
	vxlan-gpe) ip link add "$name" type vxlan external gpe remote $remote dstport "$port" ;;
	geneve) ip link add "$name" type geneve ${ext:-vni $((VNI++))} remote $remote dstport "$port" ;;
	*) fail "tunnel type $type has no kernel netdev here"; return ;;
	esac || { fail "ip link add $name"; return; }
	ip link set dev "$name" up
	TUN_UP[$name]=1
	TUN_FAM[$name]=$fam
}

# read_table ID T: the raw slots of table T in the array TABLE<T>, read
# without a fork (TCG forks slowly).
declare -a TABLE0 TABLE1
read_table() {
	local -n out=TABLE$2
	out=()
	read -r -a out < "$DFS/ports/$1/udp_ports/table$2"
}

# tables_match: do TABLE0/TABLE1 hold the expectations?
tables_match() {
	[ "${TABLE0[*]}" = "${EXP0[*]}" ] && [ "${TABLE1[*]}" = "${EXP1[*]}" ]
}

# One dump line: the slots of both tables as last read, and the static
# 4789/vxlan entries ethtool shows (its 4789/vxlan entries outside them).
dump_line() {
	local id=$1 t v n_slot=0 line=
	local -a out
	for t in "${TABLE0[*]}" "${TABLE1[*]}"; do
		out=()
		for v in $t; do
			slot_fmt "$v"
			out+=("$REPLY")
			[ "$v" = $((4789 << 16 | 1)) ] && ((n_slot++))
		done
		line+=$'\t'"${out[*]}"
	done
	printf 'check\t%s\t%s\t%s\t%s%s\t%s\n' "$FILE" "$LINE" "$checks" "$id" \
		"$line" "$((VIEW_4789 - n_slot))" >> "$DUMP"
}

check() {
	local id=$1 t i retries want
	local -a h
	((checks++))
	for retries in $(seq 100); do
		read_table "$id" 0
		read_table "$id" 1
		tables_match && break
		sleep 0.02
	done
	VIEW_4789=0
	if [ -n "${NETDEV[$id]:-}" ] && { [ "$STATIC" = 1 ] || [ -n "$DUMP" ]; }; then
		VIEW_4789=$(ethtool --show-tunnels "${NETDEV[$id]}" 2> /dev/null | grep -c "port 4789, vxlan")
	fi
	[ -n "$DUMP" ] && dump_line "$id"
	if ! tables_match; then
		for t in 0 1; do
			[ $t = 0 ] && h=("${TABLE0[@]}") || h=("${TABLE1[@]}")
			for i in 0 1 2 3; do
				[ $t = 0 ] && want=${EXP0[$i]} || want=${EXP1[$i]}
				[ "${h[$i]:-}" = "$want" ] ||
					fail "nic $id table $t entry $i: expected $(slot_str "$want"), have $(slot_str "${h[$i]:-}")"
			done
		done
		return
	fi
	if [ "$STATIC" = 1 ] && [ -n "${NETDEV[$id]:-}" ] && [ "$VIEW_4789" != 1 ]; then
		fail "nic $id: ethtool shows the static 4789 vxlan $VIEW_4789 times"
	fi
}

run_file() {
	FILE=$1
	LINE=0
	MSG=start
	errors=0
	checks=0
	EXP0=(0 0 0 0)
	EXP1=(0 0 0 0)
	bus_up
	local -a w
	while IFS= read -r raw || [ -n "$raw" ]; do
		((LINE++))
		case $raw in
		"msg "*) MSG=${raw#msg }; continue ;;
		"#"* | "") continue ;;
		esac
		read -r -a w <<< "$raw"
		[ ${#w[@]} = 0 ] && continue
		case "${w[0]} ${w[1]:-}" in
		"set "*)
			echo "${w[2]}" > "$DFS/udp_ports_${w[1]}" || fail "set ${w[1]}"
			[ "${w[1]}" = static_iana_vxlan ] && STATIC=${w[2]}
			;;
		"nic new") nic_new "${w[2]}" ;;
		"nic del") echo "${w[2]}" > "$SYS/del_port"; unset "NETDEV[${w[2]}]" ;;
		"nic up") ip link set dev "${NETDEV[${w[2]}]}" up ;;
		"nic down") ip link set dev "${NETDEV[${w[2]}]}" down ;;
		"nic offload") ethtool -K "${NETDEV[${w[2]}]}" rx-udp_tunnel-port-offload "${w[3]}" ;;
		"nic reset") echo 1 > "$DFS/ports/${w[2]}/udp_ports/reset" ;;
		"nic inject_error") echo "${w[3]}" > "$DFS/ports/${w[2]}/udp_ports/inject_error" ;;
		"tunnel add") tunnel_add "${w[2]}" "${w[3]}" "${w[4]}" "${w[5]}" ;;
		"tunnel up") ip link set dev "${w[2]}" up ;;
		"tunnel down") ip link set dev "${w[2]}" down ;;
		"tunnel del")
			ip link del dev "${w[2]}"
			unset "TUN_UP[${w[2]}]"
			if [ -n "${DUAL_OF[${w[2]}]:-}" ]; then
				unset "DUAL_SLOT[${DUAL_OF[${w[2]}]}]"
				unset "DUAL_OF[${w[2]}]"
			fi
			;;
		"tunnel flush")
			for t in "${!TUN_UP[@]}"; do ip link del dev "$t"; done
			TUN_UP=()
			DUAL_SLOT=()
			DUAL_OF=()
			;;
		"expect table")
			local -a vals=()
			for s in "${w[@]:3}"; do vals+=("$(slot_val "$s")"); done
			if [ "${w[2]}" = 0 ]; then EXP0=("${vals[@]}"); else EXP1=("${vals[@]}"); fi
			;;
		"check "*) check "${w[1]}" ;;
		"bus reset") bus_down; bus_up ;;
		*) fail "unknown command: $raw" ;;
		esac
	done < "$FILE"
	bus_down
	if [ $errors = 0 ]; then
		echo "$FILE: PASSED all $checks checks"
	else
		echo "$FILE: FAILED $errors errors in $checks checks"
	fi
	((total_errors += errors))
}

modprobe netdevsim || exit 1
modprobe vxlan || exit 1
modprobe geneve || exit 1
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
for f in "$@"; do
	run_file "$f"
done
[ $total_errors = 0 ]
