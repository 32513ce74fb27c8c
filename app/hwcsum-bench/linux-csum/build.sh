#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# build.sh: compile Linux's x86-64 csum_partial() (arch/x86/lib/csum-partial_64.c
# of Debian's linux-source-6.12, with the 6.5/6.8 rewrites) for user space,
# as a shared object for `hwcsum-bench csum --linux-csum`. Prints its path
# as the last line; devtools/bench.sh runs it before the benchmarks.
#
# Only that file (and the top Makefile, for the version) is unpacked from
# the package's tarball, into a cache outside the repository
# ($HWCSUM_CACHE, default /var/cache/hwcsum). It is compiled unmodified,
# with the shim headers beside this script standing in for the kernel's
# (include/ and linux_shim.h); nothing of the kernel enters the
# repository. The result is cached by the hash of every input.
#
#   app/hwcsum-bench/linux-csum/build.sh
#   HWCSUM_LINUX_SERIES=6.1 ... (another linux-source-X.Y package)
set -euo pipefail

HWCSUM_CACHE=${HWCSUM_CACHE:-/var/cache/hwcsum}
SERIES=${HWCSUM_LINUX_SERIES:-6.12}
PKG=linux-source-$SERIES
TARBALL=/usr/src/$PKG.tar.xz
FILE=arch/x86/lib/csum-partial_64.c
HERE=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-gcc}
# -O2 as the kernel; -fno-strict-aliasing as the kernel (the file reads the
# buffer through unsigned long); -fPIC for the shared object.
CFLAGS=(-O2 -std=gnu11 -fno-strict-aliasing -fno-common -fPIC -Wall)

die() { echo "linux-csum: $*" >&2; exit 1; }

[ "$(uname -m)" = x86_64 ] || die "$FILE is x86-64 code; this machine is $(uname -m)"
[ -f "$TARBALL" ] || die "$TARBALL not found: install Debian's $PKG (devtools/setup.sh does; or apt-get install $PKG)"
VERSION=$(dpkg-query -W -f='${Version}' "$PKG" 2>/dev/null) ||
	die "package $PKG is not installed, though $TARBALL is there"
TREE=$HWCSUM_CACHE/linux-csum/$PKG-$VERSION
mkdir -p "$HWCSUM_CACHE/linux-csum"
exec 9>"$HWCSUM_CACHE/linux-csum/.lock"
flock 9

if [ ! -f "$TREE/$PKG/$FILE" ] || [ ! -f "$TREE/$PKG/Makefile" ]; then
	echo "linux-csum: unpacking $FILE from $TARBALL into $TREE" >&2
	rm -rf "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xJf "$TARBALL" -C "$TREE.tmp" --wildcards "$PKG/$FILE" "$PKG/Makefile" ||
		die "cannot extract $PKG/$FILE from $TARBALL"
	rm -rf "$TREE"
	mv "$TREE.tmp" "$TREE"
fi
SRC=$TREE/$PKG/$FILE
KVER=$(awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { p = $3 } /^SUBLEVEL =/ { s = $3 }
	END { print v "." p "." s }' "$TREE/$PKG/Makefile")
KEY=$({ cat "$SRC" "$HERE/linux_shim.h" "$HERE/linux_csum_info.c" "$HERE"/include/*/*.h "$0"
	"$CC" --version; echo "${CFLAGS[*]}"; } | sha256sum | cut -c1-16)
OUTDIR=$TREE/build-$KEY
OUT=$OUTDIR/linux_csum_partial.so

if [ ! -f "$OUT" ]; then
	echo "linux-csum: compiling $SRC (Linux $KVER) for user space" >&2
	rm -rf "$OUTDIR.tmp"
	mkdir -p "$OUTDIR.tmp"
	"$CC" "${CFLAGS[@]}" -I"$HERE/include" -c "$SRC" -o "$OUTDIR.tmp/csum-partial_64.o" ||
		die "$SRC does not compile against the shim (app/hwcsum-bench/linux-csum/): a newer kernel may need more of it"
	"$CC" "${CFLAGS[@]}" \
		-DHWCSUM_LINUX_SOURCE="\"Linux $KVER ($PKG $VERSION) $FILE\"" \
		-DHWCSUM_LINUX_CFLAGS="\"$CC ${CFLAGS[*]}\"" \
		-c "$HERE/linux_csum_info.c" -o "$OUTDIR.tmp/linux_csum_info.o"
	# -Bsymbolic: the object's own calls stay inside it, never reaching
	# lib/csum's csum_partial() (same name) in the process loading it.
	"$CC" -shared -Wl,-Bsymbolic -o "$OUTDIR.tmp/linux_csum_partial.so" \
		"$OUTDIR.tmp/csum-partial_64.o" "$OUTDIR.tmp/linux_csum_info.o"
	rm -rf "$OUTDIR"
	mv "$OUTDIR.tmp" "$OUTDIR"
fi
echo "$OUT"
