# SPDX-License-Identifier: BSD-3-Clause
# The shell testpmd driver: an unmodified dpdk-testpmd with the PMD loaded
# by -d. Sourced with $PMD_SO (librte_net_hwcsum.so) set; the caller
# defines fail() (and for a tp_* session owns $WORK, a scratch directory).
#   testpmd_session <eal args> <app args>: commands on stdin, all at once;
#       output in $OUT, exit status in $RC; fwd_stats reads $OUT.
#   pcap_session <cmds> <in.pcap> <out.pcap>: hwcsum over net_pcap, the
#       commands from a file; xstat_of reads an xstat from $OUT.
#   tp_start / tp_cmd / tp_stop: one interactive testpmd through a fifo,
#       each command's output in $LAST as soon as testpmd has run it.

TESTPMD=${TESTPMD:-dpdk-testpmd}
# An ASan build preloads its runtime for testpmd, which is not built with it
# (meson.build). Only testpmd gets it back (LD_PRELOAD=$TESTPMD_PRELOAD on
# each run): every grep, sleep and python of a script would otherwise pay
# the runtime's start-up, which doubled tunnel_ports.sh (29 s against 13 s).
# Kept when a script re-runs itself in a namespace (private_veth_pair).
export TESTPMD_PRELOAD=${TESTPMD_PRELOAD:-${LD_PRELOAD:-}}
unset LD_PRELOAD
PMD_SO=$("$(dirname "${BASH_SOURCE[0]}")/../../devtools/plugin-path.sh" "$PMD_SO") ||
	{ echo "FAIL: cannot stage the PMD for EAL"; exit 1; }
# meson test puts the build's library directories in LD_LIBRARY_PATH; a
# user's testpmd has none: the PMD must find its libraries (libhwcsum_*)
# through its own RUNPATH.
unset LD_LIBRARY_PATH
# A file prefix per run: meson runs tests in parallel and EAL's runtime
# directory would otherwise collide.
EAL_COMMON="--no-huge -m 256 --no-pci -l 0-1 --file-prefix hwcsum-test-$$"

# testpmd_session <eal args> <app args>; testpmd commands on stdin.
# Output in $OUT, exit status in $RC.
testpmd_session() {
	local eal=$1 app=$2
	OUT=$(LD_PRELOAD=$TESTPMD_PRELOAD timeout 120 "$TESTPMD" $EAL_COMMON -d "$PMD_SO" $eal -- \
		-i --total-num-mbufs=4096 $app 2>&1)
	RC=$?
}

# pcap_session <cmds file> <in.pcap> <out.pcap> [what]: the commands on a
# hwcsum port (1) over a net_pcap sub-port (0, owned and hidden) that reads
# in.pcap once and writes what hwcsum sends to out.pcap; before "stop" it
# waits 2 s for the reads. Output in $OUT, exit status in $RC; a failed
# exit or "Invalid port" fails, named by what.
pcap_session() {
	local cmds=$1 in=$2 out=$3 what=${4:+$4: }
	OUT=$(LD_PRELOAD=$TESTPMD_PRELOAD timeout 120 "$TESTPMD" $EAL_COMMON -d "$PMD_SO" \
		--vdev "net_pcap0,rx_pcap=$in,tx_pcap=$out" \
		--vdev net_hwcsum0,sub=net_pcap0 \
		-- -i --no-flush-rx --total-num-mbufs=4096 --nb-ports=1 \
		< <(while read -r l; do
			[ "$l" = "stop" ] && sleep 2
			echo "$l"
		done < "$cmds") 2>&1)
	RC=$?
	[ "$RC" -eq 0 ] || fail "${what}testpmd exited $RC"
	! grep -q "Invalid port" <<<"$OUT" || fail "${what}testpmd said Invalid port"
}

# xstat_of <name>: its value in `show port xstats` output in $OUT.
xstat_of() {
	awk -v n="$1:" '$1 == n { print $2 }' <<<"$OUT"
}

# Print "rx tx" from the accumulated forward statistics block of a port.
fwd_stats() {
	echo "$OUT" | awk -v port="$1" '
		/Forward statistics for port/ { inblk = ($(NF-1) == port) }
		inblk && /RX-packets:/ { rx = $2 }
		inblk && /TX-packets:/ { tx = $2; print rx, tx; exit }'
}

SESSION=${SESSION:-0}

# tp_start "<EAL vdev args>" ["<testpmd args>"]: testpmd in the background,
# stdin from a fifo (fd 3), stdout line-buffered so output follows commands.
tp_start() {
	# A testpmd that died (a sanitizer report, say) must be reported by
	# tp_sync with its output, not kill the script with SIGPIPE.
	trap '' PIPE
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
