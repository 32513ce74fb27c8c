# SPDX-License-Identifier: BSD-3-Clause
# Helpers for the tunnel suite. Sourced with $GW (hwcsum-tunnel) and
# $PMD_SO (librte_net_hwcsum.so) set by the calling script.

HERE=$(dirname "${BASH_SOURCE[0]}")
PY=/usr/bin/python3	# Debian's python3-scapy; the one on PATH may lack it
FAILS=0
# The gateway links the PMD (NEEDED, found through its RUNPATH): no -d.
# It must be this build's.
gw_pmd=$(ldd "$GW" | sed -n 's/^[[:space:]]*librte_net_hwcsum\.so[.0-9]* => \([^ ]*\) .*/\1/p')
[ -n "$gw_pmd" ] && [ "$(realpath "$gw_pmd")" = "$(realpath "$PMD_SO")" ] ||
	{ echo "FAIL: $GW loads the PMD from '$gw_pmd', not $PMD_SO"; exit 1; }
for tool in "$GW" "$PY" tshark; do
	command -v "$tool" >/dev/null || { echo "FAIL: missing $tool"; exit 1; }
done
"$PY" -c 'import scapy' 2>/dev/null || { echo "FAIL: $PY has no scapy"; exit 1; }

# Scratch under /var/tmp (not /tmp: EAL's plugin check, and tmpfs cleanup).
WORK=$(mktemp -d /var/tmp/hwcsum-tunnel-test.XXXXXX)
# EAL leaves its runtime directory behind: ours go with the scratch.
trap 'rm -rf "$WORK" /var/run/dpdk/hwcsum-tunnel-$$-*' EXIT

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*${TS:+ [$SECONDS s]}"; }

# run_gw <name> <eal and app args...>: output in $WORK/<name>.log, status $RC.
RUN_N=0
run_gw() {
	local name=$1
	shift
	RUN_N=$((RUN_N + 1))
	timeout 60 "$GW" --no-huge -m 256 --no-pci -l 0-1 \
		--file-prefix "hwcsum-tunnel-$$-$RUN_N" "$@" \
		>"$WORK/$name.log" 2>&1
	RC=$?
}

# The tunnel names of $WORK/gw.ini, in order (the inner ports 1..N).
tunnel_names() {
	grep -o '^\[tunnel:[a-z0-9]*' "$WORK/gw.ini" | cut -d: -f2
}

# gw_vdevs <underlay hwcsum devargs> <under rx> <under tx> <inner rx> <inner tx>:
# the underlay as port 0 (",key=value" devargs appended to its hwcsum port),
# then one inner port per tunnel; '@' in an inner file name is the tunnel's.
gw_vdevs() {
	local args=$1 under_rx=$2 under_tx=$3 inner_rx=$4 inner_tx=$5 i=1 n
	echo "--vdev net_pcap0,rx_pcap=$under_rx,tx_pcap=$under_tx --vdev net_hwcsum0,sub=net_pcap0$args"
	for n in $(tunnel_names); do
		echo "--vdev net_pcap$i,rx_pcap=${inner_rx//@/$n},tx_pcap=${inner_tx//@/$n}"
		echo "--vdev net_hwcsum$i,sub=net_pcap$i"
		i=$((i + 1))
	done
}

# expect_in <log> <regex> <what>
expect_in() {
	if grep -Eq -- "$2" "$1"; then pass "$3"; else fail "$3 (no /$2/ in $(basename "$1"))"; fi
}

# Bad checksums tshark reports in a capture (expert info and statuses).
bad_checksums() {
	"$PY" "$HERE/../lib/pcap_csum.py" --count bad-frames "$1"
}

finish() {
	if [ "$FAILS" -ne 0 ]; then
		echo "$FAILS check(s) failed; logs:"
		for f in "$WORK"/*.log; do echo "--- $f"; grep -v '^EAL' "$f" | tail -30; done
		exit 1
	fi
	echo "all checks passed"
	exit 0
}
