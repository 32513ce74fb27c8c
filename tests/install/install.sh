#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# install.sh <build dir> <install_app.c>: `meson install` like a DPDK driver.
#
# 1. meson install --destdir into a scratch DESTDIR under /var/tmp.
# 2. Every file where it belongs: the PMD in libdir as a versioned shared
#    library and, linked to it, in EAL's default plugin directory (as EAL
#    itself reports it at run time), rte_pmd_hwcsum.h beside DPDK's
#    headers, the libraries, their headers and .pc files, the applications;
#    and nothing installed that meson did not list, nor the reverse. Who
#    links what (readelf: NEEDED) and where they look (RUNPATH, relative
#    to themselves).
# 3. The .pc files: valid, Requires right, Cflags finding the headers.
# 4. install_app.c built out of tree against the installed .pc files
#    (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR into DESTDIR; DPDK itself
#    from the host), every hwcsum header taken from DESTDIR, linked with
#    the PMD (hwcsum-pmd.pc) and the libraries, run with an rpath into
#    DESTDIR: the PMD and the libraries loaded from there, once each.
# 5. The PMD both ways: install_app (linked with it) with -d <DESTDIR
#    plugin directory> (a directory, not the .so), probing a net_hwcsum
#    port, the PMD still mapped once; and dpdk-testpmd, which does not link
#    it, loading it with -d and no library path: its libraries are found
#    through its RUNPATH (LD_DEBUG=libs says from where).
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

LIBS=(libhwcsum_csum libhwcsum_udp_tunnel libhwcsum_flow librte_net_hwcsum)
PCS=(hwcsum-csum hwcsum-udp-tunnel hwcsum-flow hwcsum-pmd)
EXPECT=(
	"$PMD_DIR/librte_net_hwcsum.so"
	"$DPDK_INC/rte_pmd_hwcsum.h"
	"$INCDIR/hwcsum/csum.h" "$INCDIR/hwcsum/csum_mbuf.h"
	"$INCDIR/hwcsum/csum_offload.h" "$INCDIR/hwcsum/csum_walk.h"
	"$INCDIR/hwcsum/udp_tunnel.h" "$INCDIR/hwcsum/hwcsum_flow.h"
	"$BINDIR/hwcsum-bench"
)
for l in "${LIBS[@]}"; do EXPECT+=("$LIBDIR/$l.so"); done
for pc in "${PCS[@]}"; do EXPECT+=("$LIBDIR/pkgconfig/$pc.pc"); done
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
for l in "${LIBS[@]}"; do
	t=$(readlink -f "$D$LIBDIR/$l.so")
	case "$t" in "$D$LIBDIR/$l.so."*) ;; *) bad "$LIBDIR/$l.so does not lead to $l.so.<version> there ($t)" ;; esac
done
# The plugin directory holds a link to the PMD in libdir, as DPDK's own.
PMD_LIB=$(readlink -f "$D$LIBDIR/librte_net_hwcsum.so")
if [ -L "$D$PMD_DIR/librte_net_hwcsum.so" ] &&
	[ "$(readlink -f "$D$PMD_DIR/librte_net_hwcsum.so")" = "$PMD_LIB" ]; then
	say "$PMD_DIR/librte_net_hwcsum.so -> $(readlink "$D$PMD_DIR/librte_net_hwcsum.so") (${PMD_LIB#"$D"})"
else
	bad "$PMD_DIR/librte_net_hwcsum.so is not a link to ${PMD_LIB#"$D"}"
fi

# Who links what, found where: NEEDED and RUNPATH of the installed files.
dyn() { readelf -d "$1" | sed -n "s/.*($2).*\[\(.*\)\]/\1/p" | tr '\n' ' '; }
needs() { # needs <file> <RUNPATH> <soname>...
	local f=$1 runpath=$2 n got
	shift 2
	got=$(dyn "$D$f" NEEDED)
	for n in "$@"; do
		[[ " $got" == *" $n "* ]] || bad "${f##*/} does not link $n (NEEDED: $got)"
	done
	[ "$(dyn "$D$f" RUNPATH)" = "$runpath " ] ||
		bad "${f##*/}: RUNPATH '$(dyn "$D$f" RUNPATH)', not '$runpath'"
	[ -z "$(dyn "$D$f" RPATH)" ] || bad "${f##*/} has an RPATH: $(dyn "$D$f" RPATH)"
	say "${f##*/}: NEEDED $(echo "$got" | grep -o 'lib\(hwcsum\|rte_net_hwcsum\)[^ ]*' | tr '\n' ' ')RUNPATH $runpath"
}
BIN_TO_LIB=$(realpath -m --relative-to="$BINDIR" "$LIBDIR")
needs "${PMD_LIB#"$D"}" '$ORIGIN' libhwcsum_csum.so.0 libhwcsum_udp_tunnel.so.0 libhwcsum_flow.so.0
needs "$BINDIR/hwcsum-tunnel" "\$ORIGIN/$BIN_TO_LIB" librte_net_hwcsum.so.0 libhwcsum_udp_tunnel.so.0 libhwcsum_csum.so.0
# hwcsum-bench times the PMD's hwcsum_rx_one() through the PMD's library
# (its INTERNAL version node), holding no copy of the driver: no function
# it defines is also one of the PMD's (a second net_hwcsum would register).
needs "$BINDIR/hwcsum-bench" "\$ORIGIN/$BIN_TO_LIB" librte_net_hwcsum.so.0 libhwcsum_csum.so.0 \
	libhwcsum_udp_tunnel.so.0 libhwcsum_flow.so.0
both=$(comm -12 <(nm --defined-only "$D$BINDIR/hwcsum-bench" | awk '$2 == "T" && $3 !~ /^_(init|fini)$/ { print $3 }' | sort -u) \
	<(nm "$PMD_LIB" | awk '$2 ~ /^[tT]$/ { sub(/@.*/, "", $3); print $3 }' | sort -u) | tr '\n' ' ')
[ -z "$both" ] || bad "hwcsum-bench holds its own copy of the PMD's ${both:0:200}"
for l in libhwcsum_csum libhwcsum_udp_tunnel libhwcsum_flow; do
	[ -z "$(dyn "$D$LIBDIR/$l.so" RUNPATH)$(dyn "$D$LIBDIR/$l.so" RPATH)" ] ||
		bad "$l.so has a run path: it needs none of ours"
	# One copy: no function a library exports is also defined in the PMD.
	both=$(comm -12 <(nm -D --defined-only "$D$LIBDIR/$l.so" | awk '{ sub(/@.*/, "", $3); print $3 }' | sort -u) \
		<(nm "$PMD_LIB" | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u) | tr '\n' ' ')
	[ -z "$both" ] || bad "the PMD holds its own copy of $l's ${both:0:200}"
done
# Exactly what meson says it installs, nothing more, nothing less.
# (meson's list is keyed by file name: of the PMD's two links named
# librte_net_hwcsum.so, the development link in libdir and the one in the
# plugin directory, it keeps one; both are named here.)
{
	meson introspect "$BUILD" --installed | /usr/bin/python3 -c \
		'import json, sys; [print(v) for v in json.load(sys.stdin).values()]'
	printf '%s\n' "$LIBDIR/librte_net_hwcsum.so" "$PMD_DIR/librte_net_hwcsum.so"
} | sort -u >"$SCRATCH/listed"
(cd "$D" && find . \( -type f -o -type l \) | sed 's|^\.||') | sort -u >"$SCRATCH/found"
comm -3 "$SCRATCH/listed" "$SCRATCH/found" | sed 's/^/install: listed vs found: /' >"$SCRATCH/diff"
if [ -s "$SCRATCH/diff" ]; then cat "$SCRATCH/diff" >&2; bad "DESTDIR differs from meson's list of installed files"; fi

# ---- 3. the .pc files
export PKG_CONFIG_PATH=$D$LIBDIR/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D
export PKG_CONFIG_LIBDIR=/usr/lib/x86_64-linux-gnu/pkgconfig:/usr/lib/pkgconfig:/usr/share/pkgconfig
for pc in "${PCS[@]}"; do
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
# The PMD's API hands out lib/udp_tunnel registries: both are public Requires.
[ "$(pkg-config --print-requires hwcsum-pmd | sort | tr '\n' ' ')" = "hwcsum-udp-tunnel libdpdk " ] ||
	bad "hwcsum-pmd.pc: Requires is '$(pkg-config --print-requires hwcsum-pmd | tr '\n' ' ')', not libdpdk and hwcsum-udp-tunnel"
case " $(pkg-config --libs-only-l hwcsum-pmd) " in
*" -lrte_net_hwcsum "*) ;;
*) bad "hwcsum-pmd.pc: Libs do not name -lrte_net_hwcsum" ;;
esac
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
CFLAGS_D=$(pkg-config --cflags hwcsum-pmd hwcsum-csum hwcsum-udp-tunnel)
LIBS_D=$(pkg-config --libs hwcsum-pmd hwcsum-csum hwcsum-udp-tunnel)
HOST_DPDK_CFLAGS=$(env -u PKG_CONFIG_SYSROOT_DIR -u PKG_CONFIG_PATH pkg-config --cflags libdpdk)
HOST_DPDK_LIBS=$(env -u PKG_CONFIG_SYSROOT_DIR -u PKG_CONFIG_PATH pkg-config --libs libdpdk)
SAN=()
[ "$SANITIZE" = none ] || SAN=("-fsanitize=$SANITIZE")
cp "$APP_SRC" "$SCRATCH/app.c"
# shellcheck disable=SC2086 # word splitting of pkg-config output is wanted
(cd "$SCRATCH" && cc -std=gnu11 -Wall -Wextra -Werror -O2 "${SAN[@]}" -DALLOW_EXPERIMENTAL_API \
	$CFLAGS_D $HOST_DPDK_CFLAGS -H -o app app.c $LIBS_D $HOST_DPDK_LIBS -ldl \
	-Wl,-rpath,"$D$LIBDIR") 2>"$SCRATCH/cc.log" ||
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

# No library path anywhere below: the app's rpath, the PMD's RUNPATH.
unset LD_LIBRARY_PATH
export ASAN_OPTIONS=detect_leaks=0
"$SCRATCH/app" >"$SCRATCH/run.log" 2>&1 || { cat "$SCRATCH/run.log" >&2; die "the application failed"; }
for l in csum udp_tunnel pmd; do
	got=$(sed -n "s/^lib $l //p" "$SCRATCH/run.log")
	case "$(realpath "$got")" in
	"$D$LIBDIR"/*) say "lib/$l called in ${got#"$D"} (DESTDIR)" ;;
	*) bad "lib/$l ran from '$got', not DESTDIR" ;;
	esac
done

# The installed hwcsum-bench finds the PMD's library through its own
# RUNPATH, and times hwcsum_rx_one() from it (a contender it cannot use
# it refuses, and prints no column for).
LD_DEBUG=libs "$D$BINDIR/hwcsum-bench" rxverify --rounds 1 --packets 256 \
	--json "$SCRATCH/rxverify.json" >"$SCRATCH/bench.log" 2>"$SCRATCH/bench-ld.log" ||
	{ cat "$SCRATCH/bench.log" >&2; tail -n 20 "$SCRATCH/bench-ld.log" >&2; bad "the installed hwcsum-bench rxverify failed"; }
from=$(sed -n '/find library=librte_net_hwcsum\.so\.0 /,/^[[:space:]]*[0-9]*:[[:space:]]*$/p' "$SCRATCH/bench-ld.log" |
	sed -n 's/.*trying file=//p' | tail -n 1)
# (ld.so prints the RUNPATH entry as it expanded it: $ORIGIN/../lib/...)
if [ -n "$from" ] && [ "$(realpath -m "$from")" = "$(realpath -m "$D$LIBDIR/librte_net_hwcsum.so.0")" ]; then
	say "hwcsum-bench: librte_net_hwcsum.so.0 loaded from ${from#"$D"} (DESTDIR)"
else
	bad "hwcsum-bench: librte_net_hwcsum.so.0 loaded from '$from', not $D$LIBDIR"
fi
grep -q "hwcsum_rx_one best/med" "$SCRATCH/bench.log" ||
	{ cat "$SCRATCH/bench.log" >&2; bad "the installed hwcsum-bench did not time hwcsum_rx_one"; }

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
grep -q "^registry of port .*: GUE 6080 added, looked up, deleted$" "$SCRATCH/eal.log" ||
	bad "the application's lib/udp_tunnel did not act on the PMD's registry"
grep -q "^OK$" "$SCRATCH/eal.log" || bad "the EAL run did not finish"
say "linked application with -d $PLUGIN_DIR: one PMD ($(sed -n 's/^map \(.*librte_net_hwcsum.*\)/\1/p' "$SCRATCH/eal.log" | sort -u | tr '\n' ' ')), a port probed, its registry ours"

# testpmd does not link the PMD: EAL loads it from -d alone, its libraries
# come through its RUNPATH (no LD_LIBRARY_PATH is set).
TESTPMD_ENV=(env -u LD_LIBRARY_PATH LD_DEBUG=libs)
if [ "$SANITIZE" != none ]; then
	# testpmd is not built with ASan: the runtime must come first.
	TESTPMD_ENV+=("LD_PRELOAD=$(cc -print-file-name=libasan.so)")
fi
printf 'show port summary all\nquit\n' |
	"${RUN[@]}" "${TESTPMD_ENV[@]}" dpdk-testpmd --no-huge -m 256 --no-pci --no-shconf -l 0-1 \
	-d "$PLUGIN_DIR/librte_net_hwcsum.so" --vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0 \
	-- -i --total-num-mbufs=2048 --nb-ports=1 >"$SCRATCH/testpmd.log" 2>&1 ||
	{ tail -n 40 "$SCRATCH/testpmd.log" >&2; bad "dpdk-testpmd -d $PLUGIN_DIR/librte_net_hwcsum.so failed"; }
grep -q "net_hwcsum" "$SCRATCH/testpmd.log" || bad "testpmd shows no net_hwcsum port"
for l in libhwcsum_csum libhwcsum_udp_tunnel libhwcsum_flow; do
	# "trying file=<path>" under "find library=<l>.so.0" and "(RUNPATH from
	# file <the PMD>)": the last file tried is the one loaded.
	from=$(sed -n "/find library=$l\.so\.0 /,/^[[:space:]]*[0-9]*:[[:space:]]*\$/p" "$SCRATCH/testpmd.log" |
		sed -n 's/.*trying file=//p' | tail -n 1)
	how=$(sed -n "/find library=$l\.so\.0 /,/^[[:space:]]*[0-9]*:[[:space:]]*\$/p" "$SCRATCH/testpmd.log" |
		grep -o 'RUNPATH from file [^)]*' | head -n 1)
	case "$from" in
	"$VIEW$LIBDIR/$l.so.0" | "$D$LIBDIR/$l.so.0")
		say "testpmd: $l.so.0 loaded from $from ($how)" ;;
	*) bad "testpmd: $l.so.0 loaded from '$from' ($how), not the installed one" ;;
	esac
	[[ "$how" == "RUNPATH from file "*librte_net_hwcsum* ]] ||
		bad "testpmd: $l.so.0 was not found through the PMD's RUNPATH"
done

# The built plugin copied alone to a root-only directory (as a checker or
# a cache takes it) still loads: its build-tree RUNPATH also names the
# build's lib directory by its absolute path.
COPY_DIR=$HWCSUM_CACHE/plugins/install-test-$$
mkdir -p "$COPY_DIR" && chmod 700 "$COPY_DIR"
cp "$BUILD/drivers/net/hwcsum/librte_net_hwcsum.so" "$COPY_DIR/librte_net_hwcsum.so"
printf 'show port summary all\nquit\n' |
	"${TESTPMD_ENV[@]}" dpdk-testpmd --no-huge -m 256 --no-pci --no-shconf -l 0-1 \
	-d "$COPY_DIR/librte_net_hwcsum.so" --vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0 \
	-- -i --total-num-mbufs=2048 --nb-ports=1 >"$SCRATCH/testpmd-copy.log" 2>&1 ||
	{ tail -n 20 "$SCRATCH/testpmd-copy.log" >&2; bad "dpdk-testpmd -d <a copy of the built plugin> failed"; }
grep -q "net_hwcsum0 *net_hwcsum" "$SCRATCH/testpmd-copy.log" &&
	say "a copy of the built plugin alone loads: net_hwcsum port shown" ||
	bad "testpmd shows no net_hwcsum port with a copy of the built plugin"
rm -rf "$COPY_DIR"

say "took $((SECONDS - T0)) s"
if [ "$fails" -gt 0 ]; then
	echo "install: $fails check(s) failed" >&2
	exit 1
fi
say "all checks passed"
