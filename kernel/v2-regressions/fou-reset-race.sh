#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Issue 27 item 9 on the 6.12 tree: kernel/guest/fou-reset-race.sh (ip fou
# add/del against netdevsim's udp_ports/reset, on a lockdep kernel) must
# pass on the v3 series and fail where fou changes udp_tunnel_nic's table
# of a device without that device's lock:
#
#   v3         kernel/patches-6.12 as it is: must pass
#   v3-nolock  v3 with udp_tunnel_nic_lock()/unlock() taken out of
#              fou_report_port(): fou_offload_port()'s assertion
#              (udp_tunnel_nic_assert_locked(), lockdep_assert_held) must
#              fire, so the run must fail
#   v2         v2's 2-gue-rfc 2/4 (no lock, no assertion) with v3's other
#              patches: reported, not judged (without an assertion only the
#              race itself can show, which timing decides)
#
#   kernel/v2-regressions/fou-reset-race.sh [SECONDS]   (default 60)
#
# Not part of any suite: three kernel builds with the lockdep profile (the
# first a full build; the others rebuild fou and netdevsim in the same
# tree). Exit status 0 when v3 passed and v3-nolock failed.

set -u
SECS=${1:-60}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
V2_COMMIT=15115e2^
FOU=2-gue-rfc/0002-fou-report-GUE-ports-to-devices-through-udp_tunnel_n.patch
WORK=$(mktemp -d /var/tmp/hwcsum-fou-race.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
say() { echo "[fou-reset-race] $*"; }

series() {	# series DIR: a copy of kernel/patches-6.12's series
	mkdir -p "$1"
	cp -r "$ROOT/kernel/patches-6.12/1-csum" "$ROOT/kernel/patches-6.12/2-gue-rfc" "$1/"
}
series "$WORK/v3-nolock"
# Drop the lock/unlock pair (and its comment) and fix the hunk's length.
python3 - "$WORK/v3-nolock/$FOU" <<'EOF' || exit 1
import re, sys
path = sys.argv[1]
lines = open(path).read().split("\n")
drop = {"+\t\t/* As udp_tunnel_notify_add_rx_port() does. */",
        "+\t\tudp_tunnel_nic_lock(dev);", "+\t\tudp_tunnel_nic_unlock(dev);"}
out, hunk, removed = [], None, 0
for ln in lines:
    if ln.startswith("@@"):
        if hunk is not None and removed:
            out[hunk] = re.sub(r"\+(\d+),(\d+)", lambda m: "+%s,%d" % (
                m.group(1), int(m.group(2)) - removed), out[hunk], count=1)
        hunk, removed = len(out), 0
    if ln in drop:
        removed += 1
        continue
    out.append(ln)
if hunk is not None and removed:
    out[hunk] = re.sub(r"\+(\d+),(\d+)", lambda m: "+%s,%d" % (
        m.group(1), int(m.group(2)) - removed), out[hunk], count=1)
if sum(1 for ln in lines if ln in drop) != 3:
    sys.exit("fou patch: the lock/unlock lines were not found")
open(path, "w").write("\n".join(out))
EOF
series "$WORK/v2"
git -C "$ROOT" show "$V2_COMMIT:kernel/patches-6.12/$FOU" > "$WORK/v2/$FOU" ||
	{ say "cannot read v2's fou patch at $V2_COMMIT (needs the git history)"; exit 1; }

build() {
	HWCSUM_KERNEL_PROFILE=lockdep "$ROOT/kernel/build.sh" --tree 6.12 ${1:+--patches "$1"} | tail -1
}
run() {	# run NAME KERNEL_DIR: 0 when the guest test passed
	local name=$1
	"$ROOT/devtools/vm-run.sh" --kernel "$2" --smp 2 --timeout $((SECS + 600)) \
		--outdir "$WORK/run-$name" "$ROOT/kernel/guest/fou-reset-race.sh" "$SECS" \
		> "$WORK/$name.out" 2>&1
	local rc=$?
	grep -E 'fou-reset-race|WARNING|lockdep|assert|held|Call Trace|fou_' "$WORK/$name.out" |
		head -40 | sed "s/^/[$name] /"
	return $rc
}

bad=0
k=$(build "") || { say "v3 build failed"; exit 1; }
if run v3 "$k"; then say "v3: passed (expected)"; else say "v3: FAILED (must pass)"; bad=1; fi
k=$(build "$WORK/v3-nolock") || { say "v3-nolock build failed"; exit 1; }
if run v3-nolock "$k"; then say "v3-nolock: passed (must fail)"; bad=1; else say "v3-nolock: failed (expected)"; fi
k=$(build "$WORK/v2") || { say "v2 build failed"; exit 1; }
if run v2 "$k"; then say "v2: passed (no assertion; the race did not show in $SECS s)"
else say "v2: failed (the race showed)"; fi
exit $bad
