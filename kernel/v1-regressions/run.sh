#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Show that every bug of issue 12 has a test that fails on v1 of the series:
# build v1 (kernel/patches/000[1-7] as of commit $V1_COMMIT) plus a test-only
# patch that carries v2's KUnit cases against v1's API (and the spec bits v2
# removed), then run v2's tests on it. Each test is expected to FAIL here;
# the script reports which did and exits non-zero if one passed, since that
# would mean it cannot catch the bug it was written for.
#
#   kernel/v1-regressions/run.sh
#
# Not part of `make test`: it costs a kernel build (about 4 min, cached by
# hash like any other) and shares the patched build tree, so the next
# normal build rebuilds the files the two series touch.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
V1_COMMIT=9e17162
GUEST="$ROOT/kernel/guest"
VM_RUN="$ROOT/devtools/vm-run.sh"
WORK=$(mktemp -d /var/tmp/hwcsum-v1r.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

say() { echo "[v1-regressions] $*"; }

mkdir -p "$WORK/series"
for p in $(git -C "$ROOT" ls-tree --name-only "$V1_COMMIT" kernel/patches/ | grep '/000[1-7]-'); do
	git -C "$ROOT" show "$V1_COMMIT:$p" > "$WORK/series/$(basename "$p")" ||
		{ say "cannot read $p at $V1_COMMIT (needs the git history)"; exit 1; }
done
cp "$HERE"/0001-test-only-*.patch "$WORK/series/0008-test-only-v2-kunit-on-v1.patch"
say "v1 series: $(ls "$WORK/series" | tr '\n' ' ')"

KERNEL=$("$ROOT/kernel/build.sh" --patches "$WORK/series" | tail -1) || { say "v1 build failed"; exit 1; }
say "v1 kernel: $KERNEL"

# name | vm-run arguments: every one must fail on v1
tests=(
	"kunit-v2-cases|--timeout 600 $GUEST/csum/kunit.sh 18 skb_csum_offload_test skb_csum_offload_v2_on_v1"
	"vlan-tso (bug 1)|--timeout 900 --nic rtl8139@a --nic rtl8139@a $GUEST/vlan-tso.sh"
	"host FOU ports (bug 6)|--timeout 900 $GUEST/host-fou-ports-survive.sh udp_tunnel_nic_fou.sh 1"
)
unexpected=0
for t in "${tests[@]}"; do
	name=${t%%|*}
	# shellcheck disable=SC2086 # the arguments are words on purpose
	if "$VM_RUN" --kernel "$KERNEL" ${t#*|} > "$WORK/out" 2>&1; then
		say "PASSED on v1, so it cannot catch its bug: $name"
		unexpected=1
	else
		say "fails on v1, as it must: $name"
	fi
	grep -E '^kunit|EXPECTATION FAILED|FAIL|tx_dropped|took' "$WORK/out" | head -20 | sed 's/^/    /'
done

# bug 2: the driver lock. v1 resolves IPv6/tunnel checksums in 8139cp's
# xmit under cp->lock; v2's analysis requires the driver's software count
# to be 0 (kernel/guest/csum/analyze.py --expect-8139cp patched).
if "$ROOT/tests/kernel/csum-suite.sh" rtl8139 "$WORK/csum" --kernel "$KERNEL" \
	--expect-8139cp patched > "$WORK/out" 2>&1; then
	say "PASSED on v1, so it cannot catch its bug: checksum suite on rtl8139 (bug 2)"
	unexpected=1
else
	say "fails on v1, as it must: checksum suite on rtl8139 (bug 2)"
fi
grep -E 'FAIL|tx_csum_sw|cannot' "$WORK/out" | head -10 | sed 's/^/    /'
exit $unexpected
