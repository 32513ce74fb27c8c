# SPDX-License-Identifier: BSD-3-Clause
# An interactive dpdk-testpmd driven through a fifo, so that commands,
# telemetry reads and checks interleave. Sourced after lib.sh; the caller
# owns $WORK (a scratch directory) and removes it.

TEL="/usr/bin/python3 $(dirname "${BASH_SOURCE[0]}")/tunnel_tel.py"
# A testpmd that died (a sanitizer report, say) must be reported by tp_sync
# with its output, not kill this script with SIGPIPE on the next command.
trap '' PIPE
SESSION=0
# HWCSUM_KEEP_WORK=1 keeps the scratch directory for a look after a failure.
trap 'exec 3>&- 2>/dev/null; [ -n "${TP_PID:-}" ] && kill "$TP_PID" 2>/dev/null; [ -n "${HWCSUM_KEEP_WORK:-}" ] && echo "kept $WORK" || rm -rf "$WORK"' EXIT

# tp_start "<EAL vdev args>" ["<testpmd args>"]: testpmd in the background,
# stdin from a fifo (fd 3), stdout line-buffered so output follows commands.
tp_start() {
	SESSION=$((SESSION + 1))
	PREFIX=hwcsum-tp-$$-$SESSION
	OUTF=$WORK/out.$SESSION
	mkfifo "$WORK/fifo"
	LD_PRELOAD=$TESTPMD_PRELOAD timeout 300 stdbuf -oL "$TESTPMD" --no-huge -m 256 --no-pci -l 0-1 \
		--file-prefix "$PREFIX" -d "$PMD_SO" $1 -- -i \
		--total-num-mbufs=4096 ${2:-} <"$WORK/fifo" >"$OUTF" 2>&1 &
	TP_PID=$!
	exec 3>"$WORK/fifo"
	rm -f "$WORK/fifo"
	tp_sync || return 1	# also the port list port_of() reads
}

# Wait until testpmd has run everything sent so far: each sync is one more
# "Number of available ports" line (so no test command may print one).
# The count is read from the output, not kept in a variable: helpers run
# in $(...) subshells, whose counts would be lost.
tp_sync() {
	local i want
	want=$(($(grep -c '^Number of available ports:' "$OUTF") + 1))
	echo "show port summary all" >&3
	for i in $(seq 300); do
		[ "$(grep -c '^Number of available ports:' "$OUTF")" -ge "$want" ] && return 0
		kill -0 "$TP_PID" 2>/dev/null || break
		sleep 0.1
	done
	fail "testpmd did not answer (session $SESSION)"
	return 1
}

# tp_cmd "<testpmd command>": its output in $LAST.
tp_cmd() {
	local off
	off=$(stat -c %s "$OUTF")
	echo "$1" >&3
	tp_sync || return 1
	LAST=$(tail -c +$((off + 1)) "$OUTF")
}

tp_stop() {
	echo "quit" >&3
	exec 3>&-
	wait "$TP_PID"
	RC=$?
	TP_PID=
	OUT=$(cat "$OUTF")
	[ "$RC" -eq 0 ] || fail "session $SESSION: testpmd exited $RC"
	! grep -q "Invalid port" <<<"$OUT" || fail "session $SESSION: testpmd said 'Invalid port'"
}

# Port id of an ethdev name, from `show port summary all`.
port_of() {
	awk -v n="$1" '$3 == n { print $1; exit }' "$OUTF"
}

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
