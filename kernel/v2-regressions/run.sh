#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Show that the issue 27 findings on v2 of the checksum series (items 8 and
# 10) have tests that fail on v2 and pass on v3, on the 6.1 tree:
#
#   item 8   kernel/guest/pkt-vnet.sh gso-no-csum on the whole series:
#            v2 (kernel/patches as of $V2_COMMIT) must fail (8139cp's
#            tx_csum_sw +15), v3 (kernel/patches now) must pass.
#   item 10  kernel/guest/pkt-vnet.sh vlan-proto on a kernel with 1-csum 1/5
#            alone (the fix for net and stable, without the spec that
#            replaces cp_vlan_tag_in_frame() in 4/5): v2's 1/5 must fail
#            (the datagram lost, UdpInCsumErrors +1), v3's must pass.
#
#   kernel/v2-regressions/run.sh
#
# Not part of `make test`: up to three kernel builds (cached by hash like
# any other; the two "1/5 alone" kernels share the patched build tree with
# the whole series, so switching between them rebuilds most of the tree:
# about 8 min each on an idle machine). Exit status 0 when every test
# failed where it must and passed where it must.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
V2_COMMIT=7483d0d
GUEST="$ROOT/kernel/guest"
VM_RUN="$ROOT/devtools/vm-run.sh"
WORK=$(mktemp -d /var/tmp/hwcsum-v2r.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

say() { echo "[v2-regressions] $*"; }

# series_at COMMIT DIR [GLOB]: the 6.1 patches of COMMIT matching GLOB, in
# their series directories (so that the cache key is the one the series
# had in kernel/patches: v2's kernel is usually cached already).
series_at() {
	local p
	mkdir -p "$2"
	for p in $(git -C "$ROOT" ls-tree -r --name-only "$1" kernel/patches/ | grep -E "${3:-/000[1-9]-}"); do
		mkdir -p "$2/$(basename "$(dirname "$p")")"
		git -C "$ROOT" show "$1:$p" > "$2/$(basename "$(dirname "$p")")/$(basename "$p")" ||
			{ say "cannot read $p at $1 (needs the git history)"; exit 1; }
	done
}
series_at "$V2_COMMIT" "$WORK/v2" '/1-csum/000[1-5]-|/2-gue-rfc/000[1-4]-'
series_at "$V2_COMMIT" "$WORK/v2-1of5" '/1-csum/0001-'
mkdir -p "$WORK/v3-1of5/1-csum"
cp "$ROOT"/kernel/patches/1-csum/0001-*.patch "$WORK/v3-1of5/1-csum/"

build() { "$ROOT/kernel/build.sh" --patches "$1" | tail -1; }
bad=0
# check NAME EXPECT(fail|pass) KERNEL_DIR MODE
check() {
	local name=$1 expect=$2 kernel=$3 mode=$4 got
	if "$VM_RUN" --kernel "$kernel" --smp 1 --timeout 600 --nic rtl8139@a --nic rtl8139@a \
		"$GUEST/pkt-vnet.sh" "$mode" > "$WORK/out" 2>&1; then
		got=pass
	else
		got=fail
	fi
	if [ "$got" = "$expect" ]; then
		say "$name: $got, as it must"
	else
		say "$name: $got, but must $expect"
		bad=1
	fi
	grep -E 'receiver:|tx_csum_sw|FAIL' "$WORK/out" | head -8 | sed 's/^/    /'
}

K=$(build "$WORK/v2") || { say "v2 build failed"; exit 1; }
check "item 8 on v2" fail "$K" gso-no-csum
K=$(build "$ROOT/kernel/patches") || { say "v3 build failed"; exit 1; }
check "item 8 on v3" pass "$K" gso-no-csum
K=$(build "$WORK/v2-1of5") || { say "v2 1/5 build failed"; exit 1; }
check "item 10 on v2's 1/5 alone" fail "$K" vlan-proto
K=$(build "$WORK/v3-1of5") || { say "v3 1/5 build failed"; exit 1; }
check "item 10 on v3's 1/5 alone" pass "$K" vlan-proto
exit $bad
