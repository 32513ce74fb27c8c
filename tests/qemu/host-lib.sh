# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
#
# Sourced by the host side of the QEMU tests (bypass.sh, rx.sh, tso.sh,
# gw-lro.sh) with NAME set (the test in messages), after HERE and REPO:
#   PY, T0                     scapy's python; the start, for say
#   fail MSG, say MSG          "NAME: FAILED: MSG" (exit 1), "[NAME +Ns] MSG"
#   kernel_arg ARGS...         KERNEL_ARG from an optional --kernel DIR
#   need_tools TOOL...         each on PATH, or fail
#   stage_pmd                  PMD (a built librte_net_hwcsum.so) staged for EAL
#   results_dir DIR RUN_NAME   RESULTS (DIR, absolute), RUN = run-RUN_NAME in it
#                              and TABLE = qemu-RUN_NAME.txt, both emptied
#   guest_result RC            the guest's progress lines from RUN/console.log;
#                              RC not 0: the console's and testpmd logs' tails,
#                              and fail
#   check STATUS LINE          "ok   LINE" (STATUS 0) or "FAIL LINE" (failed=1),
#                              also into TABLE

PY=/usr/bin/python3
T0=$(date +%s)
failed=0
fail() { echo "$NAME: FAILED: $*" >&2; exit 1; }
say() { echo "[$NAME +$(($(date +%s) - T0))s] $*"; }

kernel_arg() {
	KERNEL_ARG=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--kernel) KERNEL_ARG=(--kernel "$2"); shift ;;
		*) echo "$NAME: unknown argument '$1'" >&2; exit 2 ;;
		esac
		shift
	done
}

need_tools() {
	local tool
	for tool in "$@"; do
		command -v "$tool" > /dev/null || fail "$tool missing (devtools/setup.sh)"
	done
}

stage_pmd() {
	[ -f "$PMD" ] || fail "PMD $PMD not built"
	# EAL refuses plugins under world-writable directories.
	PMD=$("$REPO/devtools/plugin-path.sh" "$PMD") || fail "cannot stage $PMD for EAL"
}

results_dir() {
	mkdir -p "$1" || exit 1
	RESULTS=$(readlink -f "$1")
	RUN="$RESULTS/run-$2"
	TABLE="$RESULTS/qemu-$2.txt"
	rm -rf "$RUN"
	mkdir -p "$RUN"
	: > "$TABLE"
}

guest_result() {
	local l
	grep -E '^\[qemu-guest' "$RUN/console.log" 2> /dev/null
	[ "$1" = 0 ] && return 0
	tail -n 30 "$RUN/console.log" >&2
	for l in "$RUN"/testpmd-*.log; do
		[ -f "$l" ] && { echo "--- tail of $l" >&2; tail -n 25 "$l" >&2; }
	done
	fail "the guest run failed (status $1); console: $RUN/console.log"
}

check() {
	if [ "$1" = 0 ]; then
		echo "ok   $2" | tee -a "$TABLE"
	else
		echo "FAIL $2" | tee -a "$TABLE"
		failed=1
	fi
}
