#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Host side: the plugin directory a guest's testpmd gets (bypass.sh, rx.sh).
#
#   tests/qemu/guest-pmd-dir.sh RUN_DIR LIB...
#
# EAL loads every .so of its plugin directory, 384 files on Debian, over
# 9p: under TCG that alone takes about 40 s, and finding the few testpmd
# itself links against with ldd in the guest another 15. So the host writes
# RUN_DIR/pmds: links to the libraries testpmd links against from that
# directory (ldd here, where it is fast) and to each LIB given, through the
# guest's view of the host root (/mnt, kernel/guest/init.sh). The guest
# binds RUN_DIR/pmds over the plugin directory: nothing else is loaded.
set -euo pipefail
PMDS=/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0
RUN=${1:?usage: guest-pmd-dir.sh RUN_DIR LIB...}
shift
fail() { echo "guest-pmd-dir: $*" >&2; exit 1; }
[ -d "$PMDS" ] || fail "$PMDS missing (dpdk)"
keep=()
mapfile -t keep < <(ldd /usr/bin/dpdk-testpmd | awk -v d="$PMDS/" 'index($3, d) == 1 { print $1 }')
[ "${#keep[@]}" -gt 0 ] || fail "ldd finds no library of $PMDS in dpdk-testpmd"
keep+=("$@")
rm -rf "$RUN/pmds"
mkdir -p "$RUN/pmds"
for f in "${keep[@]}"; do
	[ -e "$PMDS/$f" ] || fail "$PMDS/$f missing"
	ln -sf "/mnt$PMDS/$(basename "$(readlink -f "$PMDS/$f")")" "$RUN/pmds/$f"
done
echo "${#keep[@]}"
