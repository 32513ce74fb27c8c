# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
#
# The interactive dpdk-testpmd driver of the shell tests, on the host
# (through tests/lib/testpmd.sh) and in QEMU guests (through
# tests/qemu/guest-lib.sh). Sourcing it only defines functions and TP_*
# variables. The sourcing script defines die MSG (fatal: every failure of
# the driver is), and may set:
#   TP_DIR       where session logs go (default: $WORK)
#   TP_WRAP      an array of words run before testpmd (the host's
#                env LD_PRELOAD=... timeout ...)
#   TP_SAVE_DIR  where tp_stop and tp_save_log copy the log (the guest's
#                $HWCSUM_OUT), as testpmd-NAME.log
#   TESTPMD      the binary (default dpdk-testpmd)
#
#   tp_start NAME ARG...   run testpmd ARG... (EAL args, --, app args with
#                          -i), wait until it reads commands; log in TP_LOG
#   tp CMD...              send CMD, wait until testpmd has run it: what CMD
#                          printed is in TP_OUT (CMD must be one testpmd
#                          knows: see TP_SYNC)
#   tp_counter PORT FIELD  VAL = FIELD (RX-packets, ...) of "show port stats"
#   tp_port_id NAME        VAL = the port id of ethdev NAME from "show port
#                          summary all" (empty if none)
#   tp_stop                quit; the whole log in OUT; fails unless testpmd
#                          exited 0 without an "Invalid port"
#   tp_save_log            copy the log to TP_SAVE_DIR (for a die)
#
# The wait for an answer spawns no process (under TCG each costs tens of
# milliseconds): the log is read incrementally through a descriptor with
# bash's read, and the pause between polls is a read timing out on a FIFO
# nobody writes. The reading position is the shell's, so tp may not run in
# a $(...) subshell: its result comes back in variables, and a subshell
# call fails. Safe under set -eu.

TP_PID=
TP_NAME=
TP_LOG=
TP_SHELL=
TP_BUF=		# read from the log, not yet consumed by a sync
TP_OUT=		# what the last command printed
TP_START_LIMIT=${TP_START_LIMIT:-240}	# seconds to the first answer
TP_CMD_LIMIT=${TP_CMD_LIMIT:-120}	# seconds from a command to its answer

# Each command is followed by a sentinel, a command testpmd does not know:
# its answer "Command not found" ends the command's output. The prompt
# cannot: cmdline writes it (and its echo of the input) a byte at a time,
# and lines the forwarding lcore prints (verbose, a refused burst, a port
# event) land between those bytes, while a message is written whole.
# (testpmd's stdout is line buffered: its own lines arrive whole too.)
TP_SYNC=tp-sync
TP_SYNC_RE=$'Command not found\n(.*)'
TP_SYNC_ECHO="testpmd> $TP_SYNC"$'\r\n'	# cmdline echoes a line with CR LF

tp_save_log() {
	[ -n "${TP_SAVE_DIR:-}" ] && [ -n "$TP_LOG" ] && [ -f "$TP_LOG" ] &&
		cp "$TP_LOG" "$TP_SAVE_DIR/testpmd-$TP_NAME.log"
	return 0
}

# tp_fail MSG: testpmd is ended (a caller's cleanup need not know it), die.
tp_fail() {
	[ -n "$TP_PID" ] && kill "$TP_PID" 2> /dev/null
	die "testpmd ($TP_NAME): $* (log: $TP_LOG)"
}

tp_pause() { read -r -t "$1" -u "$TP_PAUSE_FD" _ 2> /dev/null || :; }

# tp_wait_sync LIMIT WHAT: consume the log up to the next sentinel's answer
# (within LIMIT seconds) and keep what came before it in TP_OUT, without
# the sentinel's echo.
tp_wait_sync() {
	local limit=$1 what=$2 chunk start=$SECONDS
	while :; do
		while IFS= read -r -N 65536 -u "$TP_READ_FD" chunk; do TP_BUF+=$chunk; done
		TP_BUF+=$chunk
		# Cut by the length of a regex's match, the first in the buffer:
		# ${x%%p*} and ${x#*p} are quadratic in bash, and verbose
		# forwarding fills the buffer with hundreds of kilobytes.
		if [[ $TP_BUF =~ $TP_SYNC_RE ]]; then
			TP_OUT=${TP_BUF:0:${#TP_BUF}-${#BASH_REMATCH[0]}}
			TP_BUF=${BASH_REMATCH[1]}
			[[ $TP_OUT == *"$TP_SYNC_ECHO" ]] && TP_OUT=${TP_OUT:0:${#TP_OUT}-${#TP_SYNC_ECHO}}
			return 0
		fi
		kill -0 "$TP_PID" 2> /dev/null || tp_fail "exited during $what"
		[ $((SECONDS - start)) -lt "$limit" ] || tp_fail "no answer $limit s after $what"
		tp_pause 0.05
	done
}

tp_start() {
	local t0=$SECONDS dir=${TP_DIR:-${WORK:-}} wrap=()
	[ -z "$TP_PID" ] || die "tp_start $1: session $TP_NAME still runs"
	[ -d "$dir" ] || die "tp_start $1: no log directory (TP_DIR or WORK)"
	[ -n "${TP_WRAP+set}" ] && wrap=("${TP_WRAP[@]}")
	TP_NAME=$1
	shift
	TP_LOG=$dir/testpmd-$TP_NAME.log
	TP_BUF=
	TP_OUT=
	TP_SHELL=$BASHPID
	rm -f "$dir/tp-in.fifo" "$dir/tp-pause.fifo"
	mkfifo "$dir/tp-in.fifo" "$dir/tp-pause.fifo" || die "tp_start $TP_NAME: mkfifo in $dir"
	: > "$TP_LOG"
	# Line-buffered stdout: a command's output is out before the
	# sentinel's answer (which cmdline writes directly), and lines from
	# two lcores stay whole.
	"${wrap[@]}" stdbuf -oL -eL "${TESTPMD:-dpdk-testpmd}" "$@" < "$dir/tp-in.fifo" >> "$TP_LOG" 2>&1 &
	TP_PID=$!
	exec {TP_IN_FD}> "$dir/tp-in.fifo" {TP_READ_FD}< "$TP_LOG" {TP_PAUSE_FD}<> "$dir/tp-pause.fifo"
	rm -f "$dir/tp-in.fifo" "$dir/tp-pause.fifo"
	echo "$TP_SYNC" >&"$TP_IN_FD"
	tp_wait_sync "$TP_START_LIMIT" "start-up"
	# The guest's say stamps its lines with the guest's uptime.
	if declare -F say > /dev/null; then
		say "testpmd ($TP_NAME) up in $((SECONDS - t0)) s"
	else
		echo "testpmd ($TP_NAME) up in $((SECONDS - t0)) s"
	fi
}

tp() {
	[ "$BASHPID" = "$TP_SHELL" ] || tp_fail "'$*' sent from a subshell, whose output the session would lose"
	[ -n "$TP_PID" ] || die "tp '$*': no testpmd session"
	printf '%s\n%s\n' "$*" "$TP_SYNC" >&"$TP_IN_FD" 2> /dev/null || tp_fail "cannot send '$*'"
	tp_wait_sync "$TP_CMD_LIMIT" "'$*'"
}

# tp_counter PORT FIELD: VAL = FIELD (RX-packets, TX-packets, ...) of
# "show port stats PORT".
tp_counter() {
	tp show port stats "$1"
	[[ $TP_OUT =~ $2:\ +([0-9]+) ]] || tp_fail "no $2 in 'show port stats $1'"
	VAL=${BASH_REMATCH[1]}
}

# tp_port_id NAME: VAL = the port id of device NAME (empty if none).
tp_port_id() {
	local re=$'(^|\n)([0-9]+) +[^ ]+ +'"$1"' '
	tp show port summary all
	VAL=
	[[ $TP_OUT =~ $re ]] && VAL=${BASH_REMATCH[2]}
	return 0
}

tp_stop() {
	local t0=$SECONDS rc
	[ -n "$TP_PID" ] || die "tp_stop: no testpmd session"
	echo quit >&"$TP_IN_FD" 2> /dev/null
	exec {TP_IN_FD}>&-
	while kill -0 "$TP_PID" 2> /dev/null; do
		[ $((SECONDS - t0)) -lt 30 ] || tp_fail "did not quit in 30 s"
		tp_pause 0.1
	done
	wait "$TP_PID"
	rc=$?
	TP_PID=
	exec {TP_READ_FD}<&- {TP_PAUSE_FD}>&-
	OUT=
	IFS= read -r -d '' OUT < "$TP_LOG" || :
	tp_save_log
	[ "$rc" = 0 ] || tp_fail "exited with status $rc"
	[[ $OUT != *"Invalid port"* ]] || tp_fail "said 'Invalid port'"
}
