#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# A selftest must leave the machine it runs on as it found it (issue 12,
# bug 6: v1's FOU/GUE selftest deleted ports 5555-5560 of the initial
# namespace and unloaded fou under them). Give the host FOU and GUE ports on
# exactly those numbers, run the selftest through netdevsim-selftest.sh,
# then require every host port and the fou module to still be there.
#
#   kernel/guest/host-fou-ports-survive.sh SCRIPT MIN_CHECKS

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
GUEST_TAG=fou-survive
. "$HERE/lib.sh"

# the fou dump is not filtered by family: one listing shows every port
listing() { ip fou show 2>/dev/null | sort; }

run modprobe fou
run ip -4 fou add port 5555 ipproto 4
run ip -4 fou add port 5556 gue
run ip -6 fou add port 5557 gue
run ip -6 fou add port 5560 ipproto 41
before=$(listing)
say "host FOU/GUE ports before the selftest:"
echo "$before"

"$HERE/netdevsim-selftest.sh" "$@"
rc=$?

after=$(listing)
fail=0
if [ "$after" != "$before" ]; then
	say "FAIL: the selftest changed the host's FOU/GUE ports"
	diff <(echo "$before") <(echo "$after")
	fail=1
fi
[ -d /sys/module/fou ] || { say "FAIL: the selftest unloaded fou, which it had not loaded"; fail=1; }
[ $fail = 0 ] && say "host FOU/GUE ports and the fou module intact"
[ $rc = 0 ] && [ $fail = 0 ]
