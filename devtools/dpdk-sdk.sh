#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Debian ships DPDK's application headers but not the driver SDK ones
# (ethdev_driver.h, ethdev_vdev.h, bus_vdev_driver.h, ...). Take them from
# the Debian source package of exactly the installed libdpdk-dev version
# into $HWCSUM_CACHE/dpdk-sdk-<version>/include, never into git.
#
# Prints the include directory on stdout; progress goes to stderr.

set -euo pipefail

HWCSUM_CACHE=${HWCSUM_CACHE:-/var/cache/hwcsum}

# Headers a vdev PMD needs, and the headers they include in turn that are
# not installed by libdpdk-dev (path inside the source tree).
SDK_HEADERS=(
	lib/ethdev/ethdev_driver.h
	lib/ethdev/ethdev_vdev.h
	lib/ethdev/ethdev_pci.h
	lib/ethdev/rte_flow_driver.h
	lib/ethdev/rte_mtr_driver.h
	lib/ethdev/rte_tm_driver.h
	lib/eal/include/dev_driver.h
	lib/eal/include/bus_driver.h
	drivers/bus/vdev/bus_vdev_driver.h
	drivers/bus/pci/bus_pci_driver.h
)

log() { echo "[dpdk-sdk] $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }

VERSION=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null) ||
	fail "libdpdk-dev is not installed (run devtools/setup.sh)"
SRCPKG=$(dpkg-query -W -f='${source:Package}' libdpdk-dev)
SRCVER=$(dpkg-query -W -f='${source:Version}' libdpdk-dev)
SDK_DIR="$HWCSUM_CACHE/dpdk-sdk-$VERSION"
INC="$SDK_DIR/include"

if [ -f "$SDK_DIR/.complete" ]; then
	echo "$INC"
	exit 0
fi

have_deb_src() {
	grep -rqsE '^[[:space:]]*(deb-src|Types:.*deb-src)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/
}

if ! have_deb_src; then
	log "adding a deb-src entry for Debian's archive"
	cat >/etc/apt/sources.list.d/hwcsum-deb-src.sources <<-'EOF'
	# Added by hwcsum devtools/dpdk-sdk.sh: DPDK driver SDK headers come
	# from the dpdk source package.
	Types: deb-src
	URIs: http://deb.debian.org/debian
	Suites: bookworm bookworm-updates
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

	Types: deb-src
	URIs: http://deb.debian.org/debian-security
	Suites: bookworm-security
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 ||
		fail "apt-get update after adding deb-src failed"
fi

WORK="$SDK_DIR/src"
rm -rf "$WORK"
mkdir -p "$WORK"
log "fetching source package $SRCPKG=$SRCVER"
(cd "$WORK" && apt-get source --download-only -q "$SRCPKG=$SRCVER" >&2) ||
	fail "apt-get source $SRCPKG=$SRCVER (is a deb-src entry for this version reachable?)"

ORIG=$(ls "$WORK"/"$SRCPKG"_*.orig.tar.* 2>/dev/null | head -n1)
[ -n "$ORIG" ] || fail "no upstream tarball for $SRCPKG=$SRCVER in $WORK"

mkdir -p "$INC"
log "extracting ${#SDK_HEADERS[@]} SDK headers from $(basename "$ORIG")"
for h in "${SDK_HEADERS[@]}"; do
	tar -xf "$ORIG" -C "$WORK" --wildcards --strip-components=1 "*/$h" ||
		fail "header $h is not in $(basename "$ORIG")"
	cp "$WORK/$h" "$INC/"
done
# Keep only the headers, not the source tarballs.
rm -rf "$WORK"
echo "$SRCPKG=$SRCVER" >"$SDK_DIR/.complete"
log "SDK headers for $VERSION in $INC"
echo "$INC"
