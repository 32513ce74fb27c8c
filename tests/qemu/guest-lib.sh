# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
#
# Sourced by the guest scripts that drive testpmd on NIC 0 (guest-bypass.sh,
# guest-rx.sh, guest-tso.sh) with MODEL, RESULTS and GUEST_TAG set. Gives say,
# run, nic_mac and nic_by_mac (kernel/guest/lib.sh), the tp_* testpmd
# driver (tests/lib/testpmd_driver.sh; the guest sees the repository
# where the host has it), session logs in /run copied to $RESULTS as
# testpmd-SESSION.log, a die that also saves testpmd's log, and:
#   nic0_find         BDF (NIC 0: PCI slot 0x10, vm-run.sh), mac0, DEVID
#                     and KDRV (its kernel driver, or empty)
#   nic0_to_uio       NIC 0 from KDRV to uio_pci_generic (built in,
#                     kernel/config/hwcsum.config); EAL's 2 vCPUs checked
#   other_nics_up     every other NIC up with its kernel driver, so that
#                     QEMU delivers to it (filter-dump records what arrives)
#   hugepages_and_pmds WRITER  64 2-MB hugepages; $RESULTS/pmds, the PMDs the
#                     host script WRITER linked (guest-pmd-dir.sh), over
#                     EAL's plugin directory, so only those load
#   model_pmds PMD... EXTRA: -d for the mempool ring, each PMD (a file
#                     name in that directory) and MODEL's driver
#   session_port SESSION  VAL: NIC 0 ("bare") or a hwcsum port over it
#                     ("hwcsum", its -d and --vdev added to EXTRA)
#   replay PP TXP K LIMIT [ALL_SENT]  one replay of the pcap port PP's
#                     NFRAMES frames through TX port TXP: start, wait,
#                     stop, forward statistics in fwd-stats-K.txt; rx, tx
#                     what PP read and TXP sent

HERE_GUEST_LIB=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=kernel/guest/lib.sh
. "$HERE_GUEST_LIB/../../kernel/guest/lib.sh"
# shellcheck source=tests/lib/testpmd_driver.sh
. "$HERE_GUEST_LIB/../lib/testpmd_driver.sh"
TP_DIR=/run
TP_SAVE_DIR=$RESULTS
die() {
	say "FAILED: $*"
	tp_save_log
	exit 1
}

PMDS=/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0

nic0_find() {
	mac0=$(nic_mac 0)
	BDF=0000:00:10.0
	[ -d /sys/bus/pci/devices/$BDF ] || die "NIC 0 ($mac0) not at PCI $BDF"
	DEVID=$(cat /sys/bus/pci/devices/$BDF/device)
	KDRV=$(basename "$(readlink /sys/bus/pci/devices/$BDF/driver 2>/dev/null)" 2>/dev/null)
}

nic0_to_uio() {
	[ "$(nproc)" -ge 2 ] || die "EAL needs 2 vCPUs, the guest has $(nproc)"
	[ -d /sys/bus/pci/drivers/uio_pci_generic ] || die "uio_pci_generic is not in the guest kernel"
	echo uio_pci_generic > /sys/bus/pci/devices/$BDF/driver_override || die "driver_override on $BDF"
	if [ -n "$KDRV" ]; then
		echo "$BDF" > "/sys/bus/pci/drivers/$KDRV/unbind" || die "cannot unbind $BDF from $KDRV"
	fi
	echo "$BDF" > /sys/bus/pci/drivers_probe
	[ "$(basename "$(readlink /sys/bus/pci/devices/$BDF/driver)")" = uio_pci_generic ] ||
		die "$BDF did not bind to uio_pci_generic"
}

other_nics_up() {
	local idx _model _link mac dev
	while read -r idx _model _link mac; do
		[ "$idx" = 0 ] && continue
		dev=$(nic_by_mac "$mac") && run ip link set "$dev" up
	done < "$HWCSUM_NICS_FILE"
}

hugepages_and_pmds() {
	local hp
	echo 64 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	hp=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)
	[ "$hp" -ge 48 ] || die "only $hp hugepages"
	[ -d "$RESULTS/pmds" ] || die "$RESULTS/pmds missing ($1 writes it before the boot)"
	run mount --bind "$RESULTS/pmds" "$PMDS"
}

model_pmds() {
	local so
	EXTRA=(-d "$PMDS/librte_mempool_ring.so.23")
	for so in "$@"; do
		EXTRA+=(-d "$PMDS/$so")
	done
	case "$MODEL" in
	e1000 | e1000e) EXTRA+=(-d "$PMDS/librte_net_e1000.so.23") ;;
	virtio*) EXTRA+=(-d "$PMDS/librte_net_virtio.so.23") ;;
	*) die "unknown model $MODEL" ;;
	esac
}

# session_port SESSION: VAL = the device testpmd uses NIC 0 through, NIC 0
# itself ("bare") or a hwcsum port over it ("hwcsum", its PMD and vdev
# added to EXTRA).
session_port() {
	case "$1" in
	bare) VAL=$BDF ;;
	hwcsum)
		[ -r "$PMD_SO" ] || die "hwcsum PMD $PMD_SO not readable in the guest"
		EXTRA+=(-d "$PMD_SO" --vdev "net_hwcsum0,sub=$BDF")
		VAL=net_hwcsum0
		;;
	*) die "unknown session '$1' (bare, hwcsum)" ;;
	esac
}

replay() {
	local pp=$1 txp=$2 k=$3 limit=$4 all_sent=${5:-0} t=0 last=-1 still=0 rx0 tx0
	# The pcap port re-reads its file from the start on every port start;
	# testpmd runs with --no-flush-rx, or "start" would drain it first.
	tp_counter "$pp" RX-packets; rx0=$VAL
	tp_counter "$txp" TX-packets; tx0=$VAL
	tp start
	# Until every frame is read and the TX count stands still (frames the
	# port refuses are counted by testpmd as TX-dropped), or (ALL_SENT)
	# until NFRAMES are sent, or LIMIT seconds.
	while :; do
		sleep 1
		tp_counter "$pp" RX-packets; rx=$VAL
		tp_counter "$txp" TX-packets; tx=$VAL
		[ "$all_sent" = 1 ] && [ $((tx - tx0)) -ge "$NFRAMES" ] && break
		if [ $((rx - rx0)) -ge "$NFRAMES" ] && [ "$tx" = "$last" ]; then
			still=$((still + 1))
			[ "$still" -lt 2 ] || break
		fi
		last=$tx
		t=$((t + 1))
		[ "$t" -lt "$limit" ] || break
	done
	tp stop
	printf '%s' "$TP_OUT" > "$RESULTS/fwd-stats-$k.txt"
	tp_counter "$pp" RX-packets; rx=$((VAL - rx0))
	tp_counter "$txp" TX-packets; tx=$((VAL - tx0))
}
