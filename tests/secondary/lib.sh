# SPDX-License-Identifier: BSD-3-Clause
# Helpers for the secondary suite: DPDK's multi-process tools against a
# dpdk-testpmd primary. Sourced after tests/pmd/lib.sh and session.sh.
#
# Secondaries map the primary's memory at the same addresses, which needs
# hugepage files (--no-huge memory is private to the primary). The suite
# reserves what it needs, as root, and gives it back: nr_hugepages as it
# was, the hugetlbfs mount if it made one, and every file its EAL runs left.

HP_SYSCTL=/proc/sys/vm/nr_hugepages
HP_DIR=/dev/hugepages
HP_PAGES=256			# 512 MB of 2 MB pages, more than the runs use
HP_SAVED=
HP_MOUNTED=

# hugepages_take: $HP_PAGES more 2 MB pages than were reserved, mounted.
hugepages_take() {
	HP_SAVED=$(cat "$HP_SYSCTL") || return 1
	echo $((HP_SAVED + HP_PAGES)) > "$HP_SYSCTL" || return 1
	if ! mountpoint -q "$HP_DIR"; then
		mkdir -p "$HP_DIR" && mount -t hugetlbfs none "$HP_DIR" || return 1
		HP_MOUNTED=1
	fi
	[ "$(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo)" -ge "$HP_PAGES" ] ||
		{ echo "only $(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo) hugepages free"; return 1; }
}

# hugepages_give_back <file prefix>: once every process of that prefix is
# gone. Its page files first: a file left behind holds its pages.
hugepages_give_back() {
	rm -f "$HP_DIR/$1"map_* 2>/dev/null
	rm -rf "/var/run/dpdk/$1"
	[ -n "$HP_SAVED" ] && echo "$HP_SAVED" > "$HP_SYSCTL"
	[ -n "$HP_MOUNTED" ] && umount "$HP_DIR"
	HP_SAVED=
	HP_MOUNTED=
}

# EAL arguments of a primary that secondaries can attach to.
mp_primary_eal() {
	echo "-m 128 --no-pci -l 0-1 --file-prefix $1"
}

# The drivers the suite's processes load: the vdev bus, the mempools, the
# sub-ports, and hwcsum.
PLUGINS="librte_bus_vdev.so librte_mempool_ring.so librte_mempool_stack.so
	librte_net_pcap.so librte_net_ring.so librte_net_null.so"

# private_plugin_dir <DPDK plugin dir> <so> "$@": re-run the calling script
# in a private mount namespace where DPDK's plugin directory holds only
# $PLUGINS and <so> (a bind mount: no other process on the machine sees it).
# - dpdk-dumpcap takes no -d: it finds drivers only there;
# - every process of a multi-process group must register its mempool
#   drivers in the same order, or a pool's ops index (shared) names other
#   ops in another process: loading from one directory, none by -d, gives
#   one order;
# - EAL loads every driver of the directory in every process: ~150 of
#   them made each secondary's start-up seconds long on a loaded machine.
private_plugin_dir() {
	local pmd_dir=$1 so=$2 dir all p so_name
	shift 2
	if [ -z "${HWCSUM_IN_PLUGIN_NS:-}" ]; then
		HWCSUM_IN_PLUGIN_NS=1 exec unshare -m --propagation private "$0" "$@"
	fi
	# Debian's binaries also link libraries that live only there (ld.so
	# finds them through ld.so.conf): they stay reachable at another path.
	# Not under /tmp: EAL refuses drivers below a world-writable directory.
	all=$(mktemp -d -p /run hwcsum-pmds.XXXX) && mount --bind "$pmd_dir" "$all" || exit 1
	export LD_LIBRARY_PATH=$all${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	dir=$(mktemp -d -p /run hwcsum-plugins.XXXX) && chmod 0755 "$dir" || exit 1
	for p in $PLUGINS; do
		ln -s "$(readlink -f "$all/$p")" "$dir/$p" ||
			{ echo "FAIL: no $pmd_dir/$p"; exit 1; }
	done
	# Named *.so: EAL loads only *.so and *.so.<ABI> from a directory
	# (<so> may be the versioned file, librte_net_hwcsum.so.0.1.0).
	so_name=$(basename "$so")
	ln -s "$so" "$dir/${so_name%%.so*}.so" &&
	mount --bind "$dir" "$pmd_dir" ||
		{ echo "FAIL: cannot mount the suite's plugins on $pmd_dir"; exit 1; }
	PLUGIN_LINKS="$dir $all"
}
