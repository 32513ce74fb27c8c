# SPDX-License-Identifier: BSD-3-Clause
# Helpers for the PMD suites: drive an unmodified dpdk-testpmd.
# Sourced by tests/pmd/*.sh; $PMD_SO is the librte_net_hwcsum.so to load.

. "$(dirname "${BASH_SOURCE[0]}")/../lib/testpmd.sh"
FAILS=0

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*"; }

# private_netns "$@": re-run the calling script in a private network
# namespace without IPv6, so the kernel adds no packets of its own.
private_netns() {
	if [ -z "${HWCSUM_IN_NETNS:-}" ]; then
		HWCSUM_IN_NETNS=1 exec unshare -n "$0" "$@"
	fi
	sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 ||
		{ echo "FAIL: cannot disable IPv6 in the namespace"; exit 1; }
}

# private_veth_pair "$@": re-run the calling script in a private network
# namespace, then create veth0/veth1 there, up, without IPv6 (no DAD, no
# router solicitations): only the test's own packets cross the pair.
private_veth_pair() {
	if [ -z "${HWCSUM_IN_NETNS:-}" ]; then
		HWCSUM_IN_NETNS=1 exec unshare -n "$0" "$@"
	fi
	sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 &&
	ip link add veth0 type veth peer name veth1 &&
	ip link set veth0 up &&
	ip link set veth1 up || { echo "FAIL: cannot set up the veth pair"; exit 1; }
}

# seg_pcap_gen tso|uso: WORK (a scratch directory, kept at exit only with
# KEEP set) and WORK/in.pcap from tests/pmd/<name>_pcap.py (GEN).
seg_pcap_gen() {
	WORK=$(mktemp -d "/var/tmp/hwcsum-$1.XXXXXX")
	trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
	GEN="$(dirname "${BASH_SOURCE[0]}")/$1_pcap.py"
	/usr/bin/python3 "$GEN" gen "$WORK/in.pcap" || { echo "FAIL: cannot generate the capture"; exit 1; }
}

# seg_pcap_check MSS WHAT DOES [ABSENT]: GEN's check of WORK/out.pcap against
# WORK/in.pcap, cut at MSS, none of the frames from source ports ABSENT
# (a,b) out; "WHAT<N segments>DOES" passes, its FAIL lines fail.
seg_pcap_check() {
	local out
	if out=$(/usr/bin/python3 "$GEN" check "$WORK/in.pcap" "$WORK/out.pcap" "$1" ${4:+"$4"}); then
		pass "$2$(tail -1 <<<"$out")$3"
	else
		fail "$2$(grep FAIL <<<"$out" | head -5)"
	fi
}

# tap_capture IFACE FILE: tcpdump on IFACE's kernel side (what the tap
# hands the kernel) into FILE, its pid in CAPTURE_PID. It writes the pcap
# file header once its socket is bound (-U: at once), and that is what is
# waited for: its "listening on" line on stderr once took over 30 s to
# appear while it captured (CI, stop 33). Up to 120 s; the callers judge
# the capture itself by its packet count.
tap_capture() {
	local waited=0
	tcpdump -i "$1" -Q in -U -w "$2" 2>"$2.log" &
	CAPTURE_PID=$!
	while [ "$(stat -c %s "$2" 2>/dev/null || echo 0)" -lt 24 ] &&
		[ "$waited" -lt 1200 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	[ "$waited" -lt 50 ] || echo "note: tcpdump took $((waited / 10)) s to start"
	[ "$(stat -c %s "$2" 2>/dev/null || echo 0)" -ge 24 ] ||
		{ fail "tcpdump on $1 wrote no pcap header in $((waited / 10)) s: $(cat "$2.log")"; return 1; }
}
tap_capture_stop() {
	sleep 0.5
	kill "$CAPTURE_PID" 2>/dev/null
	wait "$CAPTURE_PID" 2>/dev/null
}
# tap_forward PORT: forward for 2 s, PORT's xstats into OUT, then end the
# testpmd session and the capture.
tap_forward() {
	tp "start"
	sleep 2
	tp "stop"
	tp "show port xstats $1"
	tp_stop
	tap_capture_stop
}

finish() {
	if [ "$FAILS" -ne 0 ]; then
		echo "--- last testpmd output ---"
		echo "$OUT" | tail -60
		echo "$FAILS check(s) failed"
		exit 1
	fi
	echo "all checks passed"
	exit 0
}
