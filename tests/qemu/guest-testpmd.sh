# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
#
# Drive an interactive dpdk-testpmd from a guest script, command by command
# (sourced through guest-lib.sh, which defines say and die).
#
#   tp_start SESSION EAL-AND-TESTPMD-ARGS...   start it, wait for the prompt
#   tp CMD...                                  send CMD, wait for the next prompt
#   tp_last                                    what CMD printed
#   tp_counter PORT FIELD                      VAL = FIELD of "show port stats PORT"
#   tp_stop                                    quit, check the exit status
#
# Under TCG every process a poll spawns costs tens of milliseconds, so the
# wait for a prompt spawns none: the log is read incrementally through a
# descriptor with bash's read, and the pause between polls is a read timing
# out on a FIFO nobody writes. The whole log stays in the guest's tmpfs and
# is copied to $HWCSUM_OUT/testpmd-SESSION.log by tp_stop (and by die, via
# tp_save_log).

TP_PID=
TP_LOG=
TP_SESSION=
TP_BUF=   # read from the log, not yet consumed by a prompt
TP_OUT=   # the output of the last command

# The forwarding lcore prints asynchronously (a refused burst, a port
# event), even in the middle of a prompt: such complete lines are cut out
# before prompts are looked for.
TP_ASYNC_RE=$'(Preparing packet burst to transmit failed: [^\n]*|Port [0-9]+: [a-z ]+ event)\n'

tp_save_log() {
	[ -n "$TP_LOG" ] && [ -f "$TP_LOG" ] && cp "$TP_LOG" "$HWCSUM_OUT/testpmd-$TP_SESSION.log"
	return 0
}

tp_pause() { read -r -t "$1" -u 5 _ 2> /dev/null; }

# tp_wait_prompt LIMIT WHAT: consume the log up to the next prompt (within
# LIMIT seconds) and keep what came before it in TP_OUT.
tp_wait_prompt() {
	local limit=$1 what=$2 chunk start=$SECONDS
	while :; do
		while IFS= read -r -N 65536 -u 4 chunk; do TP_BUF+=$chunk; done
		TP_BUF+=$chunk
		while [[ $TP_BUF =~ $TP_ASYNC_RE ]]; do
			TP_BUF=${TP_BUF/"${BASH_REMATCH[0]}"/}
		done
		if [[ $TP_BUF == *'testpmd> '* ]]; then
			TP_OUT=${TP_BUF%%'testpmd> '*}
			TP_BUF=${TP_BUF#*'testpmd> '}
			return 0
		fi
		kill -0 "$TP_PID" 2> /dev/null || die "testpmd ($TP_SESSION) exited during $what (log: $TP_LOG)"
		[ $((SECONDS - start)) -lt "$limit" ] || die "testpmd ($TP_SESSION): no prompt $limit s after $what"
		tp_pause 0.05
	done
}

tp_start() {
	local t0=$SECONDS
	TP_SESSION=$1
	shift
	TP_LOG="/run/testpmd-$TP_SESSION.log"
	TP_BUF=
	rm -f /run/tp.fifo /run/tp-pause.fifo
	mkfifo /run/tp.fifo /run/tp-pause.fifo
	: > "$TP_LOG"
	# stdout unbuffered: command output must come before the next prompt,
	# which the cmdline library writes directly.
	stdbuf -o0 -e0 dpdk-testpmd "$@" < /run/tp.fifo >> "$TP_LOG" 2>&1 &
	TP_PID=$!
	exec 3> /run/tp.fifo 4< "$TP_LOG" 5<> /run/tp-pause.fifo
	tp_wait_prompt 240 "start-up"
	say "testpmd ($TP_SESSION) up in $((SECONDS - t0)) s"
}

tp() {
	echo "$*" >&3
	tp_wait_prompt 120 "'$*'"
}

tp_last() { printf '%s' "$TP_OUT"; }

# tp_counter PORT FIELD: RX-packets or TX-packets of "show port stats PORT".
tp_counter() {
	tp show port stats "$1"
	[[ $TP_OUT =~ $2:\ +([0-9]+) ]] || die "no $2 in 'show port stats $1'"
	VAL=${BASH_REMATCH[1]}
}

# tp_port_id NAME: VAL = the testpmd port id of device NAME (empty if none).
tp_port_id() {
	local re=$'(^|\n)([0-9]+) +[^ ]+ +'"$1"' '
	tp show port summary all
	VAL=
	[[ $TP_OUT =~ $re ]] && VAL=${BASH_REMATCH[2]}
}

tp_stop() {
	local t0=$SECONDS rc
	echo quit >&3
	exec 3>&-
	while kill -0 "$TP_PID" 2> /dev/null; do
		tp_pause 0.2
		[ $((SECONDS - t0)) -lt 30 ] || { kill "$TP_PID"; die "testpmd ($TP_SESSION) did not quit"; }
	done
	wait "$TP_PID"
	rc=$?
	exec 4<&- 5>&-
	tp_save_log
	[ "$rc" = 0 ] || die "testpmd ($TP_SESSION) exited with status $rc (log: $TP_LOG)"
}
