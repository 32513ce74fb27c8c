# SPDX-License-Identifier: BSD-3-Clause
# Checks on an interactive dpdk-testpmd (tests/lib/testpmd_driver.sh's
# session), so that commands, telemetry reads and checks interleave.
# Sourced after lib.sh; the caller owns $WORK (a scratch directory, where
# the session logs go), which is removed on exit.

TEL="/usr/bin/python3 $(dirname "${BASH_SOURCE[0]}")/tunnel_tel.py"
# HWCSUM_KEEP_WORK=1 keeps the scratch directory for a look after a failure.
trap '[ -n "${TP_PID:-}" ] && kill "$TP_PID" 2>/dev/null; [ -n "${HWCSUM_KEEP_WORK:-}" ] && echo "kept $WORK" || rm -rf "$WORK"' EXIT

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

# counter_wait <count> <command> [arg...]: run the command, which sets
# one counter in VAL, until the counter reaches <count> (30 s at most); VAL
# is its last value: a run ends on what arrived, not on a guess of how
# long a loaded machine takes. The caller judges the value.
counter_wait() {
	local want=$1 i
	shift
	for i in $(seq 150); do
		"$@"
		VAL=${VAL:-0}
		[ "$VAL" -ge "$want" ] && break
		sleep 0.2
	done
}

# tx_first_burst <bursts> <port>...: every port transmits <bursts> bursts
# of 32 packets (txonly), then all only receive until each port listed has
# that many; "stop" prints the forward statistics fwd_stats reads.
tx_first_burst() {
	local n=$1 p
	shift
	tp set fwd rxonly
	tp start tx_first "$n"
	for p in "$@"; do
		counter_wait $((n * 32)) tp_counter "$p" RX-packets
	done
	tp stop
}

# xstat <port> <name>: VAL = one extended statistic (empty if none).
xstat() {
	local re=$'(^|\n) *'"$2"': +([0-9]+)'
	tp show port xstats "$1"
	VAL=
	[[ $TP_OUT =~ $re ]] && VAL=${BASH_REMATCH[2]}
}
