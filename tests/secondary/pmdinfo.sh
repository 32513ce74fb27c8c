#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# pmdinfo.sh <librte_net_hwcsum.so> <README.md>: dpdk-pmdinfo.py finds the
# driver in the plugin, and its parameter string is the one the README
# prints, whose keys are the rows of the README's devargs table.
set -o pipefail
SO=$1
README=$2
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*"; }

INFO=$(dpdk-pmdinfo.py "$SO") || { echo "FAIL: dpdk-pmdinfo.py $SO: $INFO"; exit 1; }
read -r NAME PARAMS < <(/usr/bin/python3 -c '
import json, sys
d = [x for x in json.load(sys.stdin) if x.get("name") == "net_hwcsum"]
print(d[0]["name"], d[0].get("params", "")) if len(d) == 1 else print("")
' <<<"$INFO")
[ "$NAME" = net_hwcsum ] && pass "dpdk-pmdinfo.py shows net_hwcsum" ||
	fail "dpdk-pmdinfo.py shows no net_hwcsum: $INFO"

# The README's copy: the "params" line of the output it shows.
DOC=$(awk '/^\$ dpdk-pmdinfo.py/ { on = 1 } on && /^```/ { exit } on' "$README" |
	sed -n 's/.*"params": "\(.*\)".*/\1/p')
[ -n "$DOC" ] || fail "no dpdk-pmdinfo.py output in $README"
[ "$PARAMS" = "$DOC" ] && pass "params match the README: $PARAMS" ||
	fail "params '$PARAMS', README '$DOC'"

# Every key once, and the same keys as the devargs table.
keys=$(grep -o '\(^\| \)[a-z_]*=' <<<"$PARAMS" | tr -d ' =' | sort)
table=$(sed -n '/^### `net_hwcsum` devargs/,/^The sub-port must/p' "$README" |
	awk -F'|' '/^\| `[a-z_]*` \|/ { gsub(/[` ]/, "", $2); print $2 }' | sort)
[ -n "$table" ] && [ "$keys" = "$table" ] &&
	pass "keys equal the README's devargs table ($(wc -l <<<"$keys"))" ||
	fail "keys [$(echo $keys)] and the README's table [$(echo $table)] differ"
[ "$FAILS" -eq 0 ] && { echo "all checks passed"; exit 0; }
echo "$FAILS check(s) failed"
exit 1
