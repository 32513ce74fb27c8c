#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# install.sh <build dir> <install_app.c>: `meson install` like a DPDK driver.
#
# 1. meson install --destdir into a scratch DESTDIR under /var/tmp.
# 2. Every file where it belongs: the PMD in EAL's default plugin directory
#    (as EAL itself reports it at run time), rte_pmd_hwcsum.h beside DPDK's
#    headers, the libraries, their headers and .pc files, the applications;
#    and nothing installed that meson did not list, nor the reverse.
# 3. The .pc files: valid, Requires right, Cflags finding the headers.
# 4. install_app.c built out of tree against the installed .pc files
#    (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR into DESTDIR; DPDK itself
#    from the host), every hwcsum header taken from DESTDIR, run with
#    LD_LIBRARY_PATH into DESTDIR, the libraries loaded from there.
# 5. EAL loading the installed PMD with -d <DESTDIR plugin directory>
#    (a directory, not the .so), probing a net_hwcsum port.
#
# EAL refuses a plugin whose path has a world-writable directory above it,
# and /var/tmp is one: step 5 checks that refusal, then runs again with the
# same DESTDIR bind-mounted (in a private mount namespace, so nothing leaks
# out) at a root-only path, and checks the .so EAL loaded is the very
# installed file.
set -euo pipefail

BUILD=$(realpath "$1")
APP_SRC=$(realpath "$2")
HWCSUM_CACHE=${HWCSUM_CACHE:-/var/cache/hwcsum}
T0=$SECONDS
fails=0

say() { echo "install: $*"; }
bad() { echo "install: FAIL: $*" >&2; fails=$((fails + 1)); }
die() { echo "install: FAIL: $*" >&2; exit 1; }

SCRATCH=$(mktemp -d /var/tmp/hwcsum-install.XXXXXX)
VIEW=
cleanup() {
	rm -rf "$SCRATCH"
	[ -z "$VIEW" ] || rmdir "$VIEW" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 1' INT TERM
D=$SCRATCH/destdir

# ---- 1. install
meson install -C "$BUILD" --no-rebuild --quiet --destdir "$D" >"$SCRATCH/install.log" 2>&1 ||
	{ cat "$SCRATCH/install.log" >&2; die "meson install --destdir failed"; }
say "meson install --destdir $D: done"

# ---- 2. where everything is
opt() {
	meson introspect "$BUILD" --buildoptions | /usr/bin/python3 -c \
		'import json, sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]][0])' "$1"
}
PREFIX=$(opt prefix)
LIBDIR=$PREFIX/$(opt libdir)
INCDIR=$PREFIX/$(opt includedir)
BINDIR=$PREFIX/$(opt bindir)
SANITIZE=$(opt b_sanitize)
DPDK_INC=$(pkg-config --variable=includedir libdpdk)

# EAL's own default plugin directory, from EAL at run time: with debug
# logs it names every plugin it opens from there (no -d given).
# shellcheck disable=SC2046 # word splitting of pkg-config output is wanted
cc -o "$SCRATCH/eal_probe" -x c - $(pkg-config --cflags --libs libdpdk) <<'EOF'
#include <rte_eal.h>
int main(int argc, char **argv) { int r = rte_eal_init(argc, argv); if (r >= 0) rte_eal_cleanup(); return r < 0; }
EOF
PMD_DIR=$(ASAN_OPTIONS=detect_leaks=0 "$SCRATCH/eal_probe" --no-huge -m 64 --no-pci --no-shconf -l 0 \
	--log-level=lib.eal:debug 2>&1 | sed -n 's|.*open shared lib \(/.*\)/librte_[^/]*\.so.*|\1|p' | sort -u)
if [ -z "$PMD_DIR" ] || [ "$(echo "$PMD_DIR" | wc -l)" != 1 ]; then
	die "cannot tell EAL's default plugin directory from its debug log (got: '$PMD_DIR')"
fi
say "EAL's default plugin directory: $PMD_DIR"

EXPECT=(
	"$PMD_DIR/librte_net_hwcsum.so"
	"$DPDK_INC/rte_pmd_hwcsum.h"
	"$INCDIR/hwcsum/csum.h" "$INCDIR/hwcsum/csum_mbuf.h"
	"$INCDIR/hwcsum/csum_offload.h" "$INCDIR/hwcsum/csum_walk.h"
	"$INCDIR/hwcsum/udp_tunnel.h"
	"$LIBDIR/libhwcsum_csum.so" "$LIBDIR/libhwcsum_udp_tunnel.so"
	"$LIBDIR/pkgconfig/hwcsum-csum.pc" "$LIBDIR/pkgconfig/hwcsum-udp-tunnel.pc"
	"$BINDIR/hwcsum-bench"
)
# Every application this build has (app/*/ with an executable) goes to bindir.
for a in $(meson introspect "$BUILD" --targets | /usr/bin/python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if t["type"] == "executable" and t["defined_in"].split("/")[-3] == "app":
        print(t["name"])'); do
	[[ " ${EXPECT[*]} " == *" $BINDIR/$a "* ]] || EXPECT+=("$BINDIR/$a")
done
for f in "${EXPECT[@]}"; do
	if [ -f "$D$f" ]; then say "installed: $f"; else bad "not installed: $f"; fi
done
for f in "$D$PMD_DIR/librte_net_hwcsum.so" "$D$BINDIR/hwcsum-bench"; do
	[ -x "$f" ] || bad "not executable: ${f#"$D"}"
done
# The shared libraries' versioned names: the .so links resolve inside DESTDIR.
for l in libhwcsum_csum libhwcsum_udp_tunnel; do
	t=$(readlink -f "$D$LIBDIR/$l.so")
	case "$t" in "$D$LIBDIR/$l.so."*) ;; *) bad "$LIBDIR/$l.so does not lead to $l.so.<version> there ($t)" ;; esac
done
# Exactly what meson says it installs, nothing more, nothing less.
meson introspect "$BUILD" --installed | /usr/bin/python3 -c \
	'import json, sys; [print(v) for v in json.load(sys.stdin).values()]' | sort -u >"$SCRATCH/listed"
(cd "$D" && find . \( -type f -o -type l \) | sed 's|^\.||') | sort -u >"$SCRATCH/found"
comm -3 "$SCRATCH/listed" "$SCRATCH/found" | sed 's/^/install: listed vs found: /' >"$SCRATCH/diff"
if [ -s "$SCRATCH/diff" ]; then cat "$SCRATCH/diff" >&2; bad "DESTDIR differs from meson's list of installed files"; fi

# ---- 3. the .pc files
export PKG_CONFIG_PATH=$D$LIBDIR/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D
export PKG_CONFIG_LIBDIR=/usr/lib/x86_64-linux-gnu/pkgconfig:/usr/lib/pkgconfig:/usr/share/pkgconfig
for pc in hwcsum-csum hwcsum-udp-tunnel; do
	# (DPDK's own libdpdk.pc draws warnings too: only ours count.)
	if ! pkg-config --validate "$pc" >"$SCRATCH/validate.log" 2>&1 ||
		grep "$pc\.pc" "$SCRATCH/validate.log" >&2; then
		bad "$pc.pc does not validate"
	fi
	pkg-config --exists "$pc" || bad "pkg-config does not find $pc in $PKG_CONFIG_PATH"
	case " $(pkg-config --cflags-only-I "$pc") " in
	*" -I$D$INCDIR/hwcsum "*) ;;
	*) bad "$pc: Cflags do not name $D$INCDIR/hwcsum" ;;
	esac
	case " $(pkg-config --libs-only-L "$pc") " in
	*" -L$D$LIBDIR "*) ;;
	*) bad "$pc: Libs do not name $D$LIBDIR" ;;
	esac
done
# lib/csum's headers include DPDK's (rte_mbuf.h): libdpdk is a public Requires.
[ "$(pkg-config --print-requires hwcsum-csum)" = libdpdk ] ||
	bad "hwcsum-csum.pc: Requires is '$(pkg-config --print-requires hwcsum-csum)', not libdpdk"
[ -z "$(pkg-config --print-requires hwcsum-udp-tunnel)" ] ||
	bad "hwcsum-udp-tunnel.pc requires '$(pkg-config --print-requires hwcsum-udp-tunnel)' (it needs nothing)"
# rte_pmd_hwcsum.h is found through libdpdk's own Cflags, as DPDK's are.
found=
for dir in $(pkg-config --cflags-only-I libdpdk | sed 's/-I//g'); do
	[ -f "$dir/rte_pmd_hwcsum.h" ] && found=$dir
done
if [ -n "$found" ]; then
	say "rte_pmd_hwcsum.h found by pkg-config --cflags libdpdk in $found"
else
	bad "no -I of pkg-config --cflags libdpdk (rooted in DESTDIR) holds rte_pmd_hwcsum.h"
fi

# ---- 4. an out-of-tree application against the installed files
# DESTDIR holds this project only; DPDK comes from the host, so libdpdk's
# flags follow, unrooted, after the rooted ones.
CFLAGS_D=$(pkg-config --cflags hwcsum-csum hwcsum-udp-tunnel)
LIBS_D=$(pkg-config --libs hwcsum-csum hwcsum-udp-tunnel)
HOST_DPDK_CFLAGS=$(env -u PKG_CONFIG_SYSROOT_DIR -u PKG_CONFIG_PATH pkg-config --cflags libdpdk)
HOST_DPDK_LIBS=$(env -u PKG_CONFIG_SYSROOT_DIR -u PKG_CONFIG_PATH pkg-config --libs libdpdk)
SAN=()
[ "$SANITIZE" = none ] || SAN=("-fsanitize=$SANITIZE")
cp "$APP_SRC" "$SCRATCH/app.c"
# shellcheck disable=SC2086 # word splitting of pkg-config output is wanted
(cd "$SCRATCH" && cc -std=gnu11 -Wall -Wextra -Werror -O2 "${SAN[@]}" -DALLOW_EXPERIMENTAL_API \
	$CFLAGS_D $HOST_DPDK_CFLAGS -H -o app app.c $LIBS_D $HOST_DPDK_LIBS -ldl) 2>"$SCRATCH/cc.log" ||
	{ cat "$SCRATCH/cc.log" >&2; die "the out-of-tree application does not build against DESTDIR"; }
for h in "$DPDK_INC/rte_pmd_hwcsum.h" "$INCDIR/hwcsum/csum.h" "$INCDIR/hwcsum/udp_tunnel.h"; do
	used=$(sed -n "s|^\.* \(.*/$(basename "$h")\)$|\1|p" "$SCRATCH/cc.log" | head -n 1)
	if [ -n "$used" ] && [ "$(realpath "$used")" = "$(realpath "$D$h")" ]; then
		say "compiled with $(basename "$h") from $h in DESTDIR"
	else
		bad "$(basename "$h") came from '${used:-nowhere}', not $D$h"
	fi
done
if grep -q "$(dirname "$BUILD")/\(lib\|drivers\)/" "$SCRATCH/cc.log"; then
	bad "the application saw a header of the source tree"
fi

export LD_LIBRARY_PATH=$D$LIBDIR
export ASAN_OPTIONS=detect_leaks=0
"$SCRATCH/app" >"$SCRATCH/run.log" 2>&1 || { cat "$SCRATCH/run.log" >&2; die "the application failed"; }
for l in csum udp_tunnel; do
	got=$(sed -n "s/^lib $l //p" "$SCRATCH/run.log")
	case "$(realpath "$got")" in
	"$D$LIBDIR"/*) say "lib/$l called in ${got#"$D"} (DESTDIR)" ;;
	*) bad "lib/$l ran from '$got', not DESTDIR" ;;
	esac
done

# ---- 5. EAL loading the installed PMD from its DESTDIR directory
# shellcheck disable=SC2054 # the commas are in a devarg
EAL=(--no-huge -m 128 --no-pci --no-shconf -l 0
	--vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0)
ww=
d=$D$PMD_DIR
while [ "$d" != / ]; do
	[ -n "$(find "$d" -maxdepth 0 -perm -0002)" ] && { ww=$d; break; }
	d=$(dirname "$d")
done
if [ -n "$ww" ]; then
	if "$SCRATCH/app" --eal -d "$D$PMD_DIR" "${EAL[@]}" >"$SCRATCH/eal-ww.log" 2>&1; then
		bad "EAL loaded a plugin below world-writable $ww (it must refuse)"
	elif grep -q "world-writable" "$SCRATCH/eal-ww.log"; then
		say "EAL refuses -d $D$PMD_DIR: $ww is world-writable (as it must)"
	else
		cat "$SCRATCH/eal-ww.log" >&2
		bad "EAL failed on -d $D$PMD_DIR, but not for the world-writable $ww"
	fi
	mkdir -p "$HWCSUM_CACHE"
	VIEW=$(mktemp -d "$HWCSUM_CACHE/install-view.XXXXXX")
	chmod 0755 "$VIEW"
	PLUGIN_DIR=$VIEW$PMD_DIR
	# shellcheck disable=SC2016 # $1.. are the inner shell's
	RUN=(unshare --mount --propagation private sh -c
		'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh "$D" "$VIEW")
	say "bind-mounting DESTDIR at $VIEW in a private mount namespace"
else
	PLUGIN_DIR=$D$PMD_DIR
	RUN=()
fi
[ "$(basename "$PLUGIN_DIR")" != librte_net_hwcsum.so ] || die "internal: -d must name a directory"
"${RUN[@]}" "$SCRATCH/app" --eal -d "$PLUGIN_DIR" "${EAL[@]}" >"$SCRATCH/eal.log" 2>&1 ||
	{ cat "$SCRATCH/eal.log" >&2; die "the application with EAL and -d $PLUGIN_DIR failed"; }
grep -q "driver net_hwcsum" "$SCRATCH/eal.log" || bad "no net_hwcsum port in the EAL run"
grep -q "^OK$" "$SCRATCH/eal.log" || bad "the EAL run did not finish"
loaded=$(sed -n 's/^lib pmd //p' "$SCRATCH/eal.log")
if [ "$loaded" = "$PLUGIN_DIR/librte_net_hwcsum.so" ]; then
	say "EAL loaded the PMD from -d $PLUGIN_DIR: $loaded"
else
	bad "EAL loaded the PMD from '$loaded', not $PLUGIN_DIR"
fi
if [ -n "$VIEW" ]; then
	# The same inode: the file EAL opened is the installed one.
	want=$(stat -c %d:%i "$D$PMD_DIR/librte_net_hwcsum.so")
	got=$("${RUN[@]}" stat -c %d:%i "$PLUGIN_DIR/librte_net_hwcsum.so")
	if [ "$want" = "$got" ]; then
		say "it is the installed file ($D$PMD_DIR/librte_net_hwcsum.so, inode $want)"
	else
		bad "$PLUGIN_DIR/librte_net_hwcsum.so ($got) is not the installed file ($want)"
	fi
fi

say "took $((SECONDS - T0)) s"
if [ "$fails" -gt 0 ]; then
	echo "install: $fails check(s) failed" >&2
	exit 1
fi
say "all checks passed"
