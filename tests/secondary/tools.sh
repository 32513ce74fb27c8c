#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# tools.sh <librte_net_hwcsum.so> <DPDK plugin dir> <sec_probe>: DPDK's multi-process
# tools against a dpdk-testpmd primary whose only port is hwcsum on a
# net_pcap sub-port on veth0 (a private network namespace), forwarding
# (csum engine, RX checksums on) what comes in back out:
#   dpdk-dumpcap on the hwcsum port, both directions, 10 frames sent in;
#   dpdk-pdump, RX and TX to two pcap files, 10 frames more;
#   then dpdk-proc-info --stats, --xstats, --show-port against what the
#   primary itself shows; sec_probe.c (probe, info, stats in a secondary,
#   and what it refuses: configure, tunnel ports, rte_flow, bursts); and
#   the primary still answering and exiting 0.
# Captures are judged by tshark (check_capture.py). Forwarding runs from
# the start: dpdk-pdump hot-plugs its own net_pcap ports into the primary
# too, and testpmd will not start forwarding with ports it did not start.
# The sub-port reads an interface, not a file: net_pcap opens its devargs'
# files again in every secondary (a tx_pcap would be truncated). IPv4 and
# UDP checksums are asked for from the command line (--tx-offloads), not
# with "csum set": a port restart would not reopen net_pcap's rx_iface_in.
PMD_SO=$1
PMD_DIR=$2
SEC_PROBE=$3
. "$(dirname "$0")/../pmd/lib.sh"
. "$(dirname "$0")/lib.sh"
# One re-run in private network and mount namespaces serves both helpers.
if [ -z "${HWCSUM_IN_NETNS:-}" ]; then
	HWCSUM_IN_NETNS=1 HWCSUM_IN_PLUGIN_NS=1 exec unshare -n -m --propagation private "$0" "$@"
fi
private_plugin_dir "$PMD_DIR" "$PMD_SO"
private_veth_pair
WORK=$(mktemp -d)
. "$(dirname "$0")/../pmd/session.sh"
HERE=$(dirname "$0")
PREFIX=hwcsum-sec-$$
SEC_EAL="--file-prefix $PREFIX --no-pci"
# A mempool's ops are an index into each process's table, filled in the
# order drivers register. Debian's testpmd links librte_mempool_dpaa
# itself, while the tools load every mempool driver from the plugin
# directory: their tables differ, and the primary, copying packets into a
# tool's pool, calls dpaa2's ops on a ring (dumpcap then counts every
# packet as dropped). The tools get testpmd's linked mempool drivers first.
TOOL_PRELOAD=$(ldd "$(command -v "$TESTPMD")" |
	awk '$1 ~ /^librte_mempool_/ { print $3 }' | paste -sd:)
N=10
SEC_PIDS=

cleanup() {
	local p
	for p in $SEC_PIDS ${TP_PID:-}; do
		kill "$p" 2>/dev/null
	done
	for p in $SEC_PIDS ${TP_PID:-}; do
		wait "$p" 2>/dev/null
	done
	hugepages_give_back "$PREFIX"
	umount "$PMD_DIR" 2>/dev/null
	umount ${PLUGIN_LINKS#* } 2>/dev/null
	rm -rf $PLUGIN_LINKS
	[ -n "${HWCSUM_KEEP_WORK:-}" ] && echo "kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT

hugepages_take || { echo "FAIL: cannot reserve $HP_PAGES hugepages"; exit 1; }
/usr/bin/python3 "$HERE/gen_frames.py" "$WORK/in.pcap" ||
	{ echo "FAIL: gen_frames.py"; exit 1; }

# The primary: a tp session on hugepages (the PMD from the plugin
# directory, no -d).
tp_start primary $(mp_primary_eal "$PREFIX") \
	--vdev net_pcap0,rx_iface_in=veth0,tx_iface=veth0 --vdev net_hwcsum0,sub=net_pcap0 -- \
	$TP_APP --nb-ports=1 --forward-mode=csum --enable-rx-cksum --tx-offloads=0x6
tp_port_id net_hwcsum0
P=$VAL
[ -n "$P" ] || die "no hwcsum port in testpmd: $TP_OUT"
tp start

# send_round <total>: the frames into veth1, until the hwcsum port has sent
# <total> in all.
send_round() {
	/usr/bin/python3 "$HERE/gen_frames.py" "$WORK/in.pcap" veth1 ||
		fail "gen_frames.py could not send on veth1"
	counter_wait "$1" tp_counter "$P" TX-packets
	[ "$VAL" -ge "$1" ] || fail "the hwcsum port did not send $1 frames"
}

# alive <after what>: a dead primary ends the test there, with its output.
alive() {
	kill -0 "$TP_PID" 2>/dev/null && return 0
	fail "the primary died after $1"
	OUT=$(cat "$TP_LOG")
	finish
}

# wait_for <file> <pattern>: a secondary's output says it is ready.
wait_for() {
	local i
	for i in $(seq 150); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

# --- round 1: dpdk-dumpcap ---
LD_PRELOAD=$TOOL_PRELOAD timeout 60 stdbuf -oL dpdk-dumpcap --file-prefix "$PREFIX" \
	-i net_hwcsum0 -c $((2 * N)) -w "$WORK/dumpcap.pcapng" >"$WORK/dumpcap.log" 2>&1 &
DUMPCAP=$!
SEC_PIDS="$DUMPCAP"
if wait_for "$WORK/dumpcap.log" "Capturing on"; then
	pass "dumpcap attached: $(grep -m1 'Capturing on' "$WORK/dumpcap.log")"
else
	fail "dumpcap did not attach: $(tail -5 "$WORK/dumpcap.log")"
fi
send_round "$N"
wait "$DUMPCAP"
rc=$?
SEC_PIDS=
[ "$rc" = 0 ] && pass "dumpcap exited 0 after $((2 * N)) packets" ||
	fail "dumpcap exited $rc: $(tail -5 "$WORK/dumpcap.log")"
/usr/bin/python3 "$HERE/check_capture.py" dumpcap "$WORK/dumpcap.pcapng" "$WORK/in.pcap" &&
	pass "dumpcap capture judged by tshark" || fail "dumpcap capture"

alive "dpdk-dumpcap"

# --- round 2: dpdk-pdump, RX and TX to their own files ---
LD_PRELOAD=$TOOL_PRELOAD timeout 60 stdbuf -oL dpdk-pdump $SEC_EAL -l 1 -- --pdump \
	"device_id=net_hwcsum0,queue=*,rx-dev=$WORK/pdump-rx.pcap,tx-dev=$WORK/pdump-tx.pcap,ring-size=1024,total-num-mbufs=2047" \
	>"$WORK/pdump.log" 2>&1 &
PDUMP=$!
SEC_PIDS="$PDUMP"
if wait_for "$WORK/pdump.log" "capture for"; then
	pass "pdump attached"
else
	fail "pdump did not attach: $(tail -5 "$WORK/pdump.log")"
fi
send_round $((2 * N))
sleep 0.5	# pdump's lcore drains its rings every burst; let it see the last
kill -INT "$PDUMP"
wait "$PDUMP"
rc=$?
SEC_PIDS=
[ "$rc" = 0 ] && pass "pdump exited 0 on SIGINT" || fail "pdump exited $rc: $(tail -5 "$WORK/pdump.log")"
/usr/bin/python3 "$HERE/check_capture.py" pdump-rx "$WORK/pdump-rx.pcap" "$WORK/in.pcap" &&
/usr/bin/python3 "$HERE/check_capture.py" pdump-tx "$WORK/pdump-tx.pcap" "$WORK/in.pcap" &&
	pass "pdump captures judged by tshark" || fail "pdump captures"

alive "dpdk-pdump"

# --- dpdk-proc-info against the primary's own view ---
proc_info() {
	LD_PRELOAD=$TOOL_PRELOAD timeout 30 dpdk-proc-info $SEC_EAL -- "$@" 2>&1
}
tp stop
tp show port stats "$P"
PRIM_STATS=$TP_OUT
tp show port xstats "$P"
PRIM_XSTATS=$TP_OUT
# --stats and --xstats exclude each other in proc-info; --show-port does not.
SEC_STATS=$(proc_info --stats --show-port) || fail "proc-info --stats --show-port exited non-zero"
SEC_SHOW=$SEC_STATS
SEC_XSTATS=$(proc_info --xstats) || fail "proc-info --xstats exited non-zero"

for k in RX-packets TX-packets RX-bytes TX-bytes; do
	a=$(grep -o "$k: *[0-9]*" <<<"$PRIM_STATS" | head -1 | awk '{ print $2 }')
	b=$(grep -o "$k: *[0-9]*" <<<"$SEC_STATS" | head -1 | awk '{ print $2 }')
	[ -n "$a" ] && [ "$a" = "$b" ] && pass "proc-info --stats $k $b = testpmd's" ||
		fail "proc-info --stats $k '$b', testpmd '$a'"
done
[ "$(grep -o 'RX-packets: *[0-9]*' <<<"$SEC_STATS" | head -1 | awk '{ print $2 }')" = $((2 * N)) ] &&
	pass "2 rounds of $N frames received" || fail "RX-packets is not $((2 * N))"

# Every xstat the primary shows, by name and value (both print "name: value";
# xstats names are lower case, the basic stats' are not).
xlist() { awk 'NF == 2 && $1 ~ /^[a-z0-9_]+:$/ { print $1, $2 }' | sort; }
diff <(xlist <<<"$PRIM_XSTATS") <(xlist <<<"$SEC_XSTATS") > "$WORK/xstats.diff" &&
	pass "proc-info --xstats: $(xlist <<<"$SEC_XSTATS" | wc -l) xstats equal to testpmd's" ||
	fail "proc-info --xstats differs from testpmd's: $(head -10 "$WORK/xstats.diff")"
for x in rx_complete tx_req_dpdk_flags tx_l4_sw_no_engine; do
	v=$(xlist <<<"$SEC_XSTATS" | awk -v n="$x:" '$1 == n { print $2 }')
	[ "$v" = $((2 * N)) ] && pass "hwcsum xstat $x = $v in the secondary" ||
		fail "hwcsum xstat $x '$v' in the secondary, expected $((2 * N))"
done
grep -q "driver net_hwcsum device net_hwcsum0" <<<"$SEC_SHOW" &&
	pass "proc-info --show-port shows the hwcsum port" ||
	fail "proc-info --show-port: $(head -20 <<<"$SEC_SHOW")"
grep -q "net_pcap" <<<"$SEC_SHOW" && fail "proc-info shows the owned sub-port" ||
	pass "the sub-port stays hidden in the secondary"

alive "dpdk-proc-info"

# --- a secondary of our own, through ethdev ---
LD_PRELOAD=$TOOL_PRELOAD timeout 60 "$SEC_PROBE" net_hwcsum0 $((2 * N)) \
	--proc-type=secondary $SEC_EAL -l 1 --log-level=pmd.net.hwcsum:info \
	>"$WORK/sec_probe.log" 2>&1
rc=$?
sed 's/^/  sec_probe: /' "$WORK/sec_probe.log" | grep -E "ok:|FAIL|net_hwcsum:"
[ "$rc" = 0 ] && pass "sec_probe: every check held" ||
	fail "sec_probe exited $rc: $(tail -5 "$WORK/sec_probe.log")"
alive "sec_probe"

# --- the primary after all of it ---
tp show port info "$P"
grep -q "Driver name: *net_hwcsum" <<<"$TP_OUT" && pass "the primary still answers" ||
	fail "the primary: $TP_OUT"
tp_stop
finish
