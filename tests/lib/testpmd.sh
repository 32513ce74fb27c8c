# SPDX-License-Identifier: BSD-3-Clause
# The shell testpmd driver: an unmodified dpdk-testpmd with the PMD loaded
# by -d. Sourced with $PMD_SO (librte_net_hwcsum.so) set; the caller
# defines fail() (and for a tp_* session owns $WORK, a scratch directory).
#   testpmd_session <eal args> <app args>: commands on stdin, all at once;
#       output in $OUT, exit status in $RC; fwd_stats reads $OUT.
#   pcap_session <cmds> <in.pcap> <out.pcap>: hwcsum over net_pcap, the
#       commands from a file; xstat_of reads an xstat from $OUT.
#   tp_start NAME $TP_EAL <vdevs> -- $TP_APP <app args> / tp / tp_stop
#       ...: one interactive testpmd, tests/lib/testpmd_driver.sh (its
#       log in $WORK; die ends the script with the log's tail).

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
# PREFIX names it for telemetry (tests/pmd/session.sh).
PREFIX=hwcsum-test-$$
EAL_COMMON="--no-huge -m 256 --no-pci -l 0-1 --file-prefix $PREFIX"

# shellcheck source=tests/lib/testpmd_driver.sh
. "$(dirname "${BASH_SOURCE[0]}")/testpmd_driver.sh"
# tp_start's words for a host session: EAL on no hugepages with the PMD,
# and (after --) the interactive app with a pool small enough for it.
TP_EAL="$EAL_COMMON -d $PMD_SO"
TP_APP="-i --total-num-mbufs=4096"
# Only testpmd gets the ASan runtime back; a hung session ends at 300 s.
TP_WRAP=(env "LD_PRELOAD=$TESTPMD_PRELOAD" timeout 300)
die() {
	echo "FAIL: $*"
	[ -n "${TP_LOG:-}" ] && [ -f "$TP_LOG" ] && { echo "--- end of $TP_LOG ---"; tail -40 "$TP_LOG"; }
	exit 1
}

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

