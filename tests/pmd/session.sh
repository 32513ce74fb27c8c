# SPDX-License-Identifier: BSD-3-Clause
# Checks on an interactive dpdk-testpmd (tests/lib/testpmd.sh's tp_*
# session), so that commands, telemetry reads and checks interleave.
# Sourced after lib.sh; the caller owns $WORK (a scratch directory),
# which is removed on exit.

TEL="/usr/bin/python3 $(dirname "${BASH_SOURCE[0]}")/tunnel_tel.py"
# HWCSUM_KEEP_WORK=1 keeps the scratch directory for a look after a failure.
trap 'exec 3>&- 2>/dev/null; [ -n "${TP_PID:-}" ] && kill "$TP_PID" 2>/dev/null; [ -n "${HWCSUM_KEEP_WORK:-}" ] && echo "kept $WORK" || rm -rf "$WORK"' EXIT

# expect_tel "<what>" "<expected>" <command> [key...]; a replay runs on
# the registry's worker, so a final state gets two seconds to show.
expect_tel() {
	local what=$1 want=$2 got i
	shift 2
	for i in 1 2 3 4 5 6 7 8 9 10; do
		got=$($TEL "$PREFIX" "$@" 2>&1)
		[ "$got" = "$want" ] && break
		sleep 0.2
	done
	if [ "$got" = "$want" ]; then
		pass "$what: $got"
	else
		fail "$what: telemetry $* gave '$got', expected '$want'"
	fi
}

# counter_wait <count> <command> [arg...]: run the command, which prints
# one counter, until the counter reaches <count> (30 s at most), and print
# its last value: a run ends on what arrived, not on a guess of how long a
# loaded machine takes. The caller judges the value.
counter_wait() {
	local want=$1 got i
	shift
	for i in $(seq 150); do
		got=$("$@")
		[ "${got:-0}" -ge "$want" ] && break
		sleep 0.2
	done
	echo "${got:-0}"
}

# rx_packets <port>: the port's RX-packets from "show port stats".
rx_packets() {
	tp_cmd "show port stats $1"
	awk '/RX-packets:/ { print $2; exit }' <<<"$LAST"
}

# tx_first_burst <bursts> <port>...: every port transmits <bursts> bursts
# of 32 packets (txonly), then all only receive until each port listed has
# that many; "stop" prints the forward statistics fwd_stats reads.
tx_first_burst() {
	local n=$1 p
	shift
	tp_cmd "set fwd rxonly"
	tp_cmd "start tx_first $n"
	for p in "$@"; do
		counter_wait $((n * 32)) rx_packets "$p" > /dev/null
	done
	tp_cmd "stop"
}

# xstat <port> <name>: one extended statistic.
xstat() {
	tp_cmd "show port xstats $1"
	awk -v n="$2:" '$1 == n { print $2 }' <<<"$LAST"
}
