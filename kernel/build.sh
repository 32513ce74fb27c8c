#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Build the hwcsum guest kernel from Debian's linux-source-6.1 package
# (or linux-source-6.12).
#
#   kernel/build.sh                 patched kernel (kernel/patches/*.patch
#                                   and kernel/patches/*/*.patch)
#   kernel/build.sh --unpatched     the same kernel without any patch
#                                   (also: HWCSUM_KERNEL_UNPATCHED=1)
#   kernel/build.sh --patches DIR   DIR's patches instead of kernel/patches
#                                   (for developing a series; also:
#                                   HWCSUM_KERNEL_PATCHES=DIR)
#   kernel/build.sh --tree 6.12     the 6.12 tree: linux-source-6.12, the
#                                   series in kernel/patches-6.12 and its
#                                   config-overrides.config merged after
#                                   kernel/config/ (also: HWCSUM_KERNEL_TREE)
#   kernel/build.sh --profile NAME  kernel/config/profiles/NAME.config merged
#                                   last: a smaller kernel for guests that
#                                   need less (selftest: KUnit and netdevsim
#                                   only, one vCPU); its own build tree and
#                                   cache key (also: HWCSUM_KERNEL_PROFILE)
#
# Steps: unpack /usr/src/linux-source-<tree>.tar.xz into a persistent build tree
# outside git, bring that tree to exactly "pristine + the series" (patches in
# glob order), make tinyconfig + kernel/config/*.config (every option of the
# fragments is checked in the final .config; a later fragment overrides an
# earlier one, as in merge_config.sh), build bzImage and modules,
# install the modules. The result is cached under a key hashing the source
# package version, the patches, the config fragments and this script, so a
# second run with the same inputs is instant. A changed series reuses the
# build tree: only the files the patches touch are rebuilt.
#
# Progress goes to stderr. The last line of stdout is the output directory:
#   bzImage, config, kernelrelease, source-version, inputs (what was hashed),
#   modroot/lib/modules/<kernelrelease>/, selftests/netdevsim/ (the tree's
#   tools/testing/selftests/drivers/net/netdevsim), build.log
#
# Environment: HWCSUM_CACHE (default /var/cache/hwcsum), HWCSUM_JOBS
# (default 2: the machine is shared), HWCSUM_KERNEL_TARBALL (default
# /usr/src/linux-source-<tree>.tar.xz), HWCSUM_THP=keep (leave the host's
# transparent huge page mode alone during the build; see below).

# The whole script is one compound command: bash parses it completely
# before running it, so editing this file cannot break runs in progress.
{
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SCRIPT="$HERE/$(basename "$0")"
HWCSUM_CACHE=${HWCSUM_CACHE:-/var/cache/hwcsum}
CACHE="$HWCSUM_CACHE/kernel"
JOBS=${HWCSUM_JOBS:-2}
VARIANT=patched
[ "${HWCSUM_KERNEL_UNPATCHED:-0}" = 1 ] && VARIANT=unpatched
KTREE=${HWCSUM_KERNEL_TREE:-6.1}
PATCH_DIR=${HWCSUM_KERNEL_PATCHES:-}
PROFILE=${HWCSUM_KERNEL_PROFILE:-}
KEEP_OUTPUTS=8

usage() {
	sed -n '3,/^$/s/^# \{0,1\}//p' "$SCRIPT"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--unpatched) VARIANT=unpatched ;;
	--patched) VARIANT=patched ;;
	--patches)
		[ $# -ge 2 ] || { echo "build.sh: --patches needs a directory" >&2; exit 2; }
		PATCH_DIR=$2
		shift
		;;
	--tree)
		[ $# -ge 2 ] || { echo "build.sh: --tree needs 6.1 or 6.12" >&2; exit 2; }
		KTREE=$2
		shift
		;;
	--profile)
		[ $# -ge 2 ] || { echo "build.sh: --profile needs a name (kernel/config/profiles/NAME.config)" >&2; exit 2; }
		PROFILE=$2
		shift
		;;
	-h | --help) usage; exit 0 ;;
	*) echo "build.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done

# Per tree: the source package, the series, and (6.12) a config fragment
# merged after kernel/config/ for what changed between the trees.
case "$KTREE" in
6.1) SERIES_DIR=$HERE/patches; TREE_PREFIX= ;;
6.12) SERIES_DIR=$HERE/patches-6.12; TREE_PREFIX=6.12- ;;
*) echo "build.sh: unknown tree '$KTREE' (6.1 or 6.12)" >&2; exit 2 ;;
esac
SOURCE_PACKAGE=linux-source-$KTREE
TARBALL=${HWCSUM_KERNEL_TARBALL:-/usr/src/$SOURCE_PACKAGE.tar.xz}
PATCH_DIR=${PATCH_DIR:-$SERIES_DIR}

T0=$(date +%s)
say() { echo "[kernel-build +$(($(date +%s) - T0))s] $*" >&2; }
die() { echo "[kernel-build] FAILED: $*" >&2; exit 1; }

[ -r "$TARBALL" ] || die "kernel source $TARBALL not found: install $SOURCE_PACKAGE (devtools/setup.sh)"
SOURCE_VERSION=$(dpkg-query -W -f='${Version}' "$SOURCE_PACKAGE" 2>/dev/null) ||
	die "cannot read the version of package $SOURCE_PACKAGE (dpkg-query)"
for tool in make gcc flex bison bc depmod git sha256sum flock; do
	command -v "$tool" >/dev/null || die "'$tool' is missing: run devtools/setup.sh"
done

# The series, in the order it is applied.
PATCHES=()
if [ "$VARIANT" = patched ]; then
	shopt -s nullglob
	[ -d "$PATCH_DIR" ] || [ "$PATCH_DIR" = "$SERIES_DIR" ] ||
		die "patch directory $PATCH_DIR not found"
	# Patches directly in DIR, then each subdirectory in order (one posted
	# series each); cover letters (0000-*) carry no change.
	for p in "$PATCH_DIR"/*.patch "$PATCH_DIR"/*/*.patch; do
		case "$(basename "$p")" in 0000-*) continue ;; esac
		PATCHES+=("$p")
	done
	shopt -u nullglob
fi
shopt -s nullglob
FRAGMENTS=("$HERE"/config/*.config)
shopt -u nullglob
[ "${#FRAGMENTS[@]}" -gt 0 ] || die "no config fragment in $HERE/config/*.config"
[ "$KTREE" = 6.1 ] || FRAGMENTS+=("$SERIES_DIR/config-overrides.config")
# A profile comes last and has a build tree of its own: switching profiles
# in one tree would rebuild most of it each time.
if [ -n "$PROFILE" ]; then
	[ -f "$HERE/config/profiles/$PROFILE.config" ] ||
		die "unknown profile '$PROFILE': no $HERE/config/profiles/$PROFILE.config"
	FRAGMENTS+=("$HERE/config/profiles/$PROFILE.config")
	TREE_PREFIX=$TREE_PREFIX$PROFILE-
fi

# Everything that determines the result, one line each; its hash is the key.
inputs() {
	local f
	echo "variant $VARIANT"
	echo "source $SOURCE_PACKAGE $SOURCE_VERSION $(stat -c %s "$TARBALL")"
	echo "build.sh $(sha256sum < "$SCRIPT" | cut -c1-64)"
	for f in "${FRAGMENTS[@]}"; do
		echo "config ${f#"$HERE"/} $(sha256sum < "$f" | cut -c1-64)"
	done
	for f in "${PATCHES[@]}"; do
		echo "patch $(basename "$f") $(sha256sum < "$f" | cut -c1-64)"
	done
}
INPUTS=$(inputs)
KEY=$(echo "$INPUTS" | sha256sum | cut -c1-16)
OUT="$CACHE/out/$TREE_PREFIX$VARIANT-$KEY"

if [ -f "$OUT/complete" ]; then
	say "cached: $VARIANT kernel $(cat "$OUT/kernelrelease") ($SOURCE_PACKAGE $SOURCE_VERSION, ${#PATCHES[@]} patches)"
	echo "$OUT"
	exit 0
fi

mkdir -p "$CACHE/out" "$CACHE/trees"
exec 9> "$CACHE/build.lock"
if ! flock -n 9; then
	say "another kernel build is running; waiting for it (up to 1 h)"
	flock -w 3600 9 || die "timed out waiting for $CACHE/build.lock"
fi
if [ -f "$OUT/complete" ]; then
	say "built meanwhile by the other run: $OUT"
	echo "$OUT"
	exit 0
fi

say "building the $VARIANT kernel, key $KEY ($SOURCE_PACKAGE $SOURCE_VERSION, ${#PATCHES[@]} patches)"

# Transparent huge pages for the compilers. Under Debian's "madvise" mode
# every cc1 faults its heap in 4 KiB at a time, and on a virtual machine a
# fault is dear: "always" cut a sample of 40 kernel files from 23 s to 17 s
# here (docs/decisions.md). The mode is the host's, so it is switched only
# while this build holds the lock and put back when the script exits;
# HWCSUM_THP=keep, or a read-only /sys, leaves it as it is.
THP_MODE=/sys/kernel/mm/transparent_hugepage/enabled
THP_RESTORE=
if [ "${HWCSUM_THP:-}" != keep ] && [ -w "$THP_MODE" ] &&
	! grep -q '\[always\]' "$THP_MODE"; then
	THP_RESTORE=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$THP_MODE")
	if echo always > "$THP_MODE" 2>/dev/null; then
		say "transparent huge pages: always for this build (was $THP_RESTORE)"
	else
		THP_RESTORE=
	fi
fi
MAKE_PID=
on_exit() {
	[ -z "$MAKE_PID" ] || kill "$MAKE_PID" 2>/dev/null || true
	[ -z "$THP_RESTORE" ] || echo "$THP_RESTORE" > "$THP_MODE" || true
}
trap on_exit EXIT
trap 'exit 143' TERM INT HUP   # so that on_exit runs when a test times out
TREE="$CACHE/trees/$TREE_PREFIX$VARIANT"
SRC="$TREE/src"
APPLIED="$TREE/applied"   # copies of the patches applied to $SRC, in order

fresh_tree() {
	say "unpacking $TARBALL into $SRC"
	rm -rf "$TREE"
	mkdir -p "$SRC" "$APPLIED"
	touch "$TREE/dirty"
	nice tar -xJf "$TARBALL" -C "$SRC" --strip-components=1 ||
		die "cannot unpack $TARBALL"
	echo "$SOURCE_VERSION" > "$TREE/source-version"
	rm -f "$TREE/dirty"
}

# Bring $SRC back to "pristine + common prefix of the old and new series",
# reverting with `git apply -R` the patches that are no longer wanted.
# Anything odd (interrupted run, other source version, revert that does not
# apply) means a fresh unpack: correctness over speed.
prepare_tree() {
	if [ ! -d "$SRC" ] || [ -e "$TREE/dirty" ] ||
		[ "$(cat "$TREE/source-version" 2>/dev/null)" != "$SOURCE_VERSION" ]; then
		fresh_tree
		return
	fi
	local old=() keep=0 i
	mapfile -t old < <(cd "$APPLIED" && ls | LC_ALL=C sort)
	while [ "$keep" -lt "${#old[@]}" ] && [ "$keep" -lt "${#PATCHES[@]}" ] &&
		cmp -s "$APPLIED/${old[$keep]}" "${PATCHES[$keep]}"; do
		keep=$((keep + 1))
	done
	for ((i = ${#old[@]} - 1; i >= keep; i--)); do
		say "reverting ${old[$i]#*-} from the build tree"
		touch "$TREE/dirty"
		if ! (cd "$SRC" && git apply -R "$APPLIED/${old[$i]}"); then
			say "revert failed: starting from a fresh tree"
			fresh_tree
			return
		fi
		rm -f "$APPLIED/${old[$i]}"
		rm -f "$TREE/dirty"
	done
	APPLY_FROM=$keep
}

APPLY_FROM=0
prepare_tree
for ((i = APPLY_FROM; i < ${#PATCHES[@]}; i++)); do
	p=${PATCHES[$i]}
	name=$(basename "$p")
	say "applying $name"
	(cd "$SRC" && git apply --check "$p" 2> "$TREE/apply.err") || {
		cat "$TREE/apply.err" >&2
		die "patch $name does not apply on $SOURCE_PACKAGE $SOURCE_VERSION$([ "$i" -gt 0 ] && echo " + the patches before it")"
	}
	touch "$TREE/dirty"
	(cd "$SRC" && git apply "$p") || die "patch $name failed to apply after a clean --check"
	cp "$p" "$APPLIED/$(printf '%03d' "$i")-$name"
	rm -f "$TREE/dirty"
done

# Config: tinyconfig, the fragments merged on top, then every requested
# option checked (Kconfig silently drops what it cannot satisfy).
say "configuring: tinyconfig + ${FRAGMENTS[*]##*/}"
LOG="$TREE/build.log"
: > "$LOG"
cd "$SRC"
nice make -s tinyconfig >> "$LOG" 2>&1 || die "make tinyconfig failed (see $LOG)"
nice scripts/kconfig/merge_config.sh -m .config "${FRAGMENTS[@]}" >> "$LOG" 2>&1 ||
	die "merge_config.sh failed (see $LOG)"
nice make -s olddefconfig >> "$LOG" 2>&1 || die "make olddefconfig failed (see $LOG)"
missing=0
# The unpatched kernel, and a part of the series (--patches DIR, e.g. to
# check that each patch builds on its own), lack options the full series
# adds (such as its KUnit tests): there, skip the options no Kconfig of the
# tree defines. The real series is always checked strictly.
KCONFIG_SYMS=
if [ "$VARIANT" = unpatched ] || [ "$(readlink -f "$PATCH_DIR")" != "$(readlink -f "$SERIES_DIR")" ]; then
	KCONFIG_SYMS=$(grep -rhoE --include='Kconfig*' '^(menu)?config [A-Za-z0-9_]+' . |
		awk '{ print "CONFIG_" $2 }' | sort -u)
fi
# What the fragments ask for, the last one winning: option -> value ("n"
# for "is not set") and the fragment that asked.
declare -A WANT WANT_FROM
for f in "${FRAGMENTS[@]}"; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) opt=${line%%=*}; WANT[$opt]=${line#*=} ;;
		"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}; WANT[$opt]=n ;;
		*) continue ;;
		esac
		WANT_FROM[$opt]=$(basename "$f")
	done < "$f"
done
for opt in "${!WANT[@]}"; do
	want=${WANT[$opt]}
	if [ -n "$KCONFIG_SYMS" ] && ! grep -qx "$opt" <<< "$KCONFIG_SYMS"; then
		say "skipping $opt: no Kconfig of this tree defines it"
		continue
	fi
	have=$(grep -m1 "^$opt=" .config | cut -d= -f2- || true)
	if [ "$want" = n ] && [ -n "$have" ]; then
		echo "[kernel-build] option $opt: requested not set in ${WANT_FROM[$opt]}, got $opt=$have" >&2
		missing=$((missing + 1))
	elif [ "$want" != n ] && [ "$have" != "$want" ]; then
		echo "[kernel-build] option $opt: requested $want in ${WANT_FROM[$opt]}, got ${have:-not set}" >&2
		missing=$((missing + 1))
	fi
done
[ "$missing" = 0 ] || die "$missing requested config option(s) did not end up in .config (dependencies missing?)"

# Build, with a progress line every 20 s (the full log is kept).
say "make -j$JOBS bzImage modules (log: $LOG)"
nice make -j"$JOBS" bzImage modules >> "$LOG" 2>&1 &
MAKE_PID=$!
while kill -0 "$MAKE_PID" 2>/dev/null; do
	for _ in $(seq 20); do
		kill -0 "$MAKE_PID" 2>/dev/null || break
		sleep 1
	done
	kill -0 "$MAKE_PID" 2>/dev/null &&
		say "still building, $(grep -c '^  CC' "$LOG" || true) files compiled, last: $(tail -n1 "$LOG" | cut -c1-80)"
done
if ! wait "$MAKE_PID"; then
	MAKE_PID=
	grep -n -B2 -A8 -m5 'error:\|Error [0-9]' "$LOG" >&2 || tail -n 40 "$LOG" >&2
	die "kernel build failed (full log: $LOG)"
fi
MAKE_PID=

RELEASE=$(make -s kernelrelease)
TMP="$OUT.tmp.$$"
rm -rf "$TMP"
mkdir -p "$TMP/modroot"
say "installing modules of $RELEASE"
nice make -s modules_install INSTALL_MOD_PATH="$TMP/modroot" INSTALL_MOD_STRIP=1 >> "$LOG" 2>&1 ||
	die "make modules_install failed (see $LOG)"
[ -f "$TMP/modroot/lib/modules/$RELEASE/modules.dep" ] || die "modules_install produced no modules.dep"
cp arch/x86/boot/bzImage "$TMP/bzImage"
# The netdevsim selftests of this very tree, so guests run the scripts that
# match the kernel even after the build tree moved on.
mkdir -p "$TMP/selftests"
cp -r tools/testing/selftests/drivers/net/netdevsim "$TMP/selftests/netdevsim"
cp .config "$TMP/config"
cp "$LOG" "$TMP/build.log"
echo "$RELEASE" > "$TMP/kernelrelease"
echo "$SOURCE_PACKAGE $SOURCE_VERSION" > "$TMP/source-version"
echo "$INPUTS" > "$TMP/inputs"
touch "$TMP/complete"
rm -rf "$OUT"
mv "$TMP" "$OUT"

# Keep the newest few outputs of this variant only (development builds of
# the patched kernel must not evict the unpatched one).
ls -1dt "$CACHE"/out/"$TREE_PREFIX$VARIANT"-* 2>/dev/null | grep -v '\.tmp\.' | tail -n +$((KEEP_OUTPUTS + 1)) |
	while read -r old; do rm -rf "$old"; done

say "done: $VARIANT kernel $RELEASE in $(($(date +%s) - T0)) s"
echo "$OUT"
exit
}
