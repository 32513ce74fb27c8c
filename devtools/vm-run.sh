#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Boot the hwcsum guest kernel in QEMU (TCG, no KVM) and run one command in it.
#
#   devtools/vm-run.sh [options] [--] COMMAND [ARGS...]
#
# The guest's root is the host's root, read-only over virtio-9p, so COMMAND
# and everything it uses are the host's files. The guest mounts its own
# tmpfs on /tmp and /var/tmp; the repository, the working directory and
# COMMAND's directory are bound back over it when they live there (a clone
# under /tmp works). Nothing may live under /run or /dev. The guest gets
# tmpfs on /tmp, /run, /var/tmp, /dev/shm, hugetlbfs on /dev/hugepages,
# debugfs, and the kernel's modules at /lib/modules/$(uname -r).
# COMMAND's exit status becomes this script's exit status.
#
# Options:
#   --kernel DIR|FILE  a kernel/build.sh output dir (or a bzImage inside one);
#                      default: the output of kernel/build.sh (instant when
#                      cached; builds the kernel otherwise)
#   --tree 6.1|6.12    without --kernel: which tree kernel/build.sh builds
#                      (default 6.1; 6.12 carries kernel/patches-6.12)
#   --profile NAME     without --kernel: kernel/build.sh --profile NAME (a
#                      smaller kernel, kernel/config/profiles/NAME.config)
#   --nic MODEL[,PROP=VAL...][@LINK]
#                      add a NIC (repeatable; guest order = option order).
#                      PROPs are passed to QEMU's -device (guest_csum=off).
#                      MODEL: virtio, e1000, e1000e, rtl8139: a QEMU hub
#                      port on hub LINK (default link: 0; NICs on the same
#                      link see each other's frames, like on a hub);
#                      virtio-tap: virtio-net on a host tap WITH vnet headers
#                      (checksum/GSO offloads pass through), created in a
#                      private network namespace (unshare -n); the taps of
#                      one LINK are joined by a bridge in that namespace.
#                      NIC i (from 0) has MAC 52:54:00:12:34:(0x10+i) and PCI
#                      slot 0x10+i; the guest finds the list in
#                      $HWCSUM_NICS_FILE ("index model link mac" per line).
#   --dump I           record every frame through NIC I's QEMU netdev (both
#                      directions, as on the emulated wire, after the NIC
#                      model's own offloads) in <outdir>/nic<I>.pcap, with
#                      QEMU's filter-dump (repeatable). On a virtio-tap
#                      NIC, QEMU 7.2 writes the 10- or 12-byte virtio-net
#                      header in front of each frame (tests/qemu/analyze.py
#                      cuts it off and reads NEEDS_CSUM from it)
#   --smp N            vCPUs (default 2)
#   --mem MB           guest memory (default 1024)
#   --timeout SEC      whole-run limit (default 900): QEMU is killed after
#                      it; COMMAND gets SEC-30 inside the guest
#   --append ARGS      extra kernel command line (e.g. hugepages=64); the
#                      guest is also given the host's TSC rate
#                      (tsc_early_khz, see host_tsc_khz below; HWCSUM_TSC_KHZ
#                      in the environment overrides it, 0 leaves it out)
#   --outdir DIR       run directory (default: a new dir under
#                      $HWCSUM_CACHE/vm-runs): console.log, status, and
#                      whatever the guest writes to $HWCSUM_OUT (= this dir)
#   --env NAME=VALUE   export NAME=VALUE to COMMAND in the guest (repeatable)
#   --root-cache MODE  9p cache mode of the host root (default: loose, which
#                      makes exec and reads about 3x faster under TCG; it is
#                      safe because the guest only reads the root and
#                      nothing it uses changes during a run; "none" if a
#                      test must see host files change while it runs)
#   --host-hook CMD    run CMD (a path; argument: the run directory) in the
#                      private network namespace of the virtio-tap NICs,
#                      in the background while QEMU runs: the host side
#                      of a test (it can address the taps hwtapI and the
#                      bridges hwbrLINK, and meet the guest through files
#                      in the run directory); its output goes to
#                      <outdir>/hook.log. Needs a virtio-tap NIC
#   --quiet            do not copy the guest console to stdout
#   -h, --help         this text
#
# Environment inside the guest: HWCSUM_OUT (writable, shared with the host),
# HWCSUM_NICS_FILE, HWCSUM_IN_GUEST=1, HWCSUM_KERNEL_DIR, the host's current
# directory as the working directory.
#
# Exit status: COMMAND's status; 124 if the run timed out; 125 if the VM
# could not be started or ended without reporting a status (kernel panic,
# init failure: see console.log).

# The whole script is one compound command: bash parses it completely
# before running it, so editing this file cannot break runs in progress.
{
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
HWCSUM_CACHE=${HWCSUM_CACHE:-/var/cache/hwcsum}
INIT="$REPO/kernel/guest/init.sh"

KERNEL=
KTREE=6.1
PROFILE_ARG=()
NICS=()
DUMPS=()
SMP=2
MEM=1024
TIMEOUT=900
APPEND=
OUTDIR=
QUIET=0
GUEST_ENV=()
ROOT_CACHE=loose
HOOK=

T0=$(date +%s)

# The guest's TSC under TCG is the host's (QEMU reads it with rdtsc), but
# the guest kernel cannot measure its rate: without ACPI there is no HPET
# or PM timer to calibrate against, and the PIT loop fails under TCG when
# the host is busy. Without a TSC the clocksource is jiffies: no
# high-resolution timers, every sleep rounded up to a 4 ms tick (DPDK's
# e1000 driver sleeps 50 us per bit to read its EEPROM: 18 s to probe
# instead of 1 s). So the guest is told the rate: HWCSUM_TSC_KHZ (0: do
# not), else the host kernel's own measurement from its log, else "cpu MHz"
# of a constant-TSC CPU without frequency scaling (a VM's, like this one).
host_tsc_khz() {
	local mhz= log re
	if [ -n "${HWCSUM_TSC_KHZ:-}" ]; then
		[[ $HWCSUM_TSC_KHZ =~ ^[0-9]+$ ]] ||
			die "HWCSUM_TSC_KHZ must be the TSC rate in kHz (0: none), got '$HWCSUM_TSC_KHZ'"
		[ "$HWCSUM_TSC_KHZ" = 0 ] || echo "$HWCSUM_TSC_KHZ"
		return 0
	fi
	log=$(dmesg 2>/dev/null)
	for re in 'Refined TSC clocksource calibration: \([0-9.]*\) MHz' \
		'Detected \([0-9.]*\) MHz TSC' 'Detected \([0-9.]*\) MHz processor'; do
		mhz=$(sed -n "s/.*tsc: $re.*/\1/p" <<< "$log" | tail -n1)
		[ -z "$mhz" ] || break
	done
	if [ -z "$mhz" ] && grep -qw constant_tsc /proc/cpuinfo &&
		[ ! -d /sys/devices/system/cpu/cpu0/cpufreq ]; then
		mhz=$(awk -F': *' '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)
	fi
	[[ $mhz =~ ^[1-9][0-9]*(\.[0-9]+)?$ ]] || return 0
	awk -v m="$mhz" 'BEGIN { printf "%d\n", m * 1000 + 0.5 }'
}
say() { echo "[vm-run +$(($(date +%s) - T0))s] $*" >&2; }
die() { echo "[vm-run] FAILED: $*" >&2; exit 125; }
usage() { sed -n '3,/^$/s/^# \{0,1\}//p' "$0"; }

need_arg() { [ $# -ge 2 ] || die "option $1 needs a value (see --help)"; }
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) need_arg "$@"; KERNEL=$2; shift ;;
	--tree) need_arg "$@"; KTREE=$2; shift ;;
	--profile) need_arg "$@"; PROFILE_ARG=(--profile "$2"); shift ;;
	--nic) need_arg "$@"; NICS+=("$2"); shift ;;
	--dump) need_arg "$@"; DUMPS+=("$2"); shift ;;
	--smp) need_arg "$@"; SMP=$2; shift ;;
	--mem) need_arg "$@"; MEM=$2; shift ;;
	--timeout) need_arg "$@"; TIMEOUT=$2; shift ;;
	--append) need_arg "$@"; APPEND=$2; shift ;;
	--outdir) need_arg "$@"; OUTDIR=$2; shift ;;
	--env)
		need_arg "$@"
		[[ $2 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || die "--env wants NAME=VALUE, got '$2'"
		GUEST_ENV+=("$2")
		shift
		;;
	--root-cache) need_arg "$@"; ROOT_CACHE=$2; shift ;;
	--host-hook) need_arg "$@"; HOOK=$2; shift ;;
	--quiet) QUIET=1 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] || die "no command to run in the guest (see --help)"
for n in SMP MEM TIMEOUT; do
	[[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "--${n,,} must be a positive integer, got '${!n}'"
done
[ "$TIMEOUT" -gt 60 ] || die "--timeout must be more than 60 s (boot alone takes a few)"

# Paths the guest reads must be visible through the read-only host root.
guest_visible() {
	case "$(readlink -f "$1")" in
	/run | /run/* | /var/run/* | /dev/* | /proc/* | /sys/*) return 1 ;;
	esac
	return 0
}

# Host directories under the guest's own tmpfs (/tmp, /var/tmp) that the
# guest must still see: init.sh binds them back from the host root.
GUEST_KEEP=()
guest_keep() {
	local d
	d=$(readlink -f "$1")
	case "$d" in
	/tmp/* | /var/tmp/*) GUEST_KEEP+=("$d") ;;
	esac
}

CMD=("$@")
if [[ ${CMD[0]} == */* ]]; then
	[ -e "${CMD[0]}" ] || die "command ${CMD[0]} not found"
	CMD[0]=$(readlink -f "${CMD[0]}")
	guest_visible "${CMD[0]}" || die "command ${CMD[0]} is under a directory the guest replaces with tmpfs"
fi
CWD=$(pwd)
guest_visible "$CWD" || CWD=/
guest_keep "$REPO"
guest_keep "$CWD"
[[ ${CMD[0]} == /* ]] && guest_keep "$(dirname "${CMD[0]}")"

# Kernel.
if [ -z "$KERNEL" ]; then
	KERNEL=$("$REPO/kernel/build.sh" --tree "$KTREE" "${PROFILE_ARG[@]}" | tail -n1) ||
		die "kernel/build.sh --tree $KTREE ${PROFILE_ARG[*]} failed"
fi
[ -f "$KERNEL" ] && KERNEL=$(dirname "$KERNEL")
KERNEL=$(readlink -f "$KERNEL")
[ -f "$KERNEL/bzImage" ] && [ -f "$KERNEL/kernelrelease" ] ||
	die "$KERNEL is not a kernel/build.sh output (no bzImage/kernelrelease)"
RELEASE=$(cat "$KERNEL/kernelrelease")
MODULES_DIR="$KERNEL/modroot/lib/modules/$RELEASE"
guest_visible "$MODULES_DIR" || die "kernel dir $KERNEL is not visible in the guest"
guest_visible "$INIT" || die "$INIT is not visible in the guest"

command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run devtools/setup.sh"

# Run directory, shared read-write with the guest.
if [ -z "$OUTDIR" ]; then
	mkdir -p "$HWCSUM_CACHE/vm-runs" || die "cannot create $HWCSUM_CACHE/vm-runs"
	OUTDIR=$(mktemp -d "$HWCSUM_CACHE/vm-runs/$(date +%Y%m%d-%H%M%S)-XXXXXX") ||
		die "cannot create a run directory"
	# Keep the 30 newest runs.
	ls -1dt "$HWCSUM_CACHE"/vm-runs/*/ 2>/dev/null | tail -n +31 | xargs -r rm -rf
fi
mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
OUTDIR=$(readlink -f "$OUTDIR")
rm -f "$OUTDIR/status" "$OUTDIR/console.log" "$OUTDIR/argv" "$OUTDIR/env" "$OUTDIR/nics"
printf '%s\0' "${CMD[@]}" > "$OUTDIR/argv"
{
	printf 'HWCSUM_MODULES_DIR=%q\n' "$MODULES_DIR"
	printf 'HWCSUM_KERNEL_DIR=%q\n' "$KERNEL"
	printf 'HWCSUM_CWD=%q\n' "$CWD"
	printf 'HWCSUM_GUEST_TIMEOUT=%q\n' "$((TIMEOUT - 30))"
	printf 'HWCSUM_GUEST_KEEP=('
	for k in "${GUEST_KEEP[@]}"; do printf '%q ' "$k"; done
	echo ')'
	echo "export HWCSUM_KERNEL_DIR"
	for kv in "${GUEST_ENV[@]}"; do
		printf 'export %s=%q\n' "${kv%%=*}" "${kv#*=}"
	done
} > "$OUTDIR/env"

# NICs and links.
# One socket per vCPU: SeaBIOS's MP table has one entry per package, so
# this is how every vCPU comes up without ACPI (kernel/config/hwcsum.config).
QEMU=(qemu-system-x86_64 -accel tcg -cpu max -smp "$SMP,sockets=$SMP" -m "$MEM" -M pc
	-nodefaults -no-reboot -display none -monitor none
	-chardev stdio,id=con,signal=off -serial chardev:con
	-kernel "$KERNEL/bzImage"
	-fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot,addr=0x08
	-fsdev "local,id=run,path=$OUTDIR,security_model=none,multidevs=remap"
	-device virtio-9p-pci,fsdev=run,mount_tag=hwcsumrun,addr=0x09)
NETNS_SETUP=
declare -A HUBS=() BRIDGES=()
: > "$OUTDIR/nics"
i=0
for spec in "${NICS[@]}"; do
	model=${spec%@*}
	# MODEL,PROP=VAL,...: extra QEMU device properties (e.g. guest_csum=off).
	props=
	if [[ $model == *,* ]]; then
		props=,${model#*,}
		model=${model%%,*}
		[[ $props =~ ^(,[A-Za-z0-9_.-]+=[A-Za-z0-9_.-]+)+$ ]] ||
			die "--nic $spec: properties must be ,name=value,..."
	fi
	link=0
	[[ $spec == *@* ]] && link=${spec#*@}
	[[ $link =~ ^[A-Za-z0-9]{1,8}$ ]] || die "--nic $spec: link name must be 1-8 letters/digits"
	mac=$(printf '52:54:00:12:34:%02x' $((0x10 + i)))
	slot=$(printf '0x%02x' $((0x10 + i)))
	[ "$i" -lt 15 ] || die "at most 15 NICs"
	case "$model" in
	virtio) dev=virtio-net-pci ;;
	e1000 | e1000e | rtl8139) dev=$model ;;
	virtio-tap) dev=virtio-net-pci ;;
	*) die "--nic $spec: unknown model '$model' (virtio, virtio-tap, e1000, e1000e, rtl8139)" ;;
	esac
	if [ "$model" = virtio-tap ]; then
		tap=hwtap$i
		br=hwbr$link
		if [ -z "${BRIDGES[$link]:-}" ]; then
			NETNS_SETUP+="ip link add $br type bridge && ip link set $br up && "
			BRIDGES[$link]=1
		fi
		NETNS_SETUP+="ip tuntap add dev $tap mode tap vnet_hdr && ip link set $tap master $br && ip link set $tap up && "
		QEMU+=(-netdev "tap,id=n$i,ifname=$tap,script=no,downscript=no,vnet_hdr=on")
	else
		HUBS[$link]=${HUBS[$link]:-$((${#HUBS[@]}))}
		QEMU+=(-netdev "hubport,id=n$i,hubid=${HUBS[$link]}")
	fi
	QEMU+=(-device "$dev,netdev=n$i,mac=$mac,addr=$slot$props")
	echo "$i $model $link $mac" >> "$OUTDIR/nics"
	i=$((i + 1))
done
for d in "${DUMPS[@]}"; do
	[[ $d =~ ^[0-9]+$ ]] && [ "$d" -lt "$i" ] || die "--dump $d: no NIC $d (NICs are numbered from 0 in --nic order)"
	rm -f "$OUTDIR/nic$d.pcap"
	QEMU+=(-object "filter-dump,id=dump$d,netdev=n$d,file=$OUTDIR/nic$d.pcap")
done

CMDLINE="console=ttyS0 root=hostroot rootfstype=9p"
TSC_KHZ=$(host_tsc_khz) || exit 125
if [ -n "$TSC_KHZ" ]; then
	CMDLINE+=" tsc_early_khz=$TSC_KHZ tsc=reliable"
else
	say "the host's TSC rate is unknown: the guest may run on jiffies (4 ms timers)"
fi
case "$ROOT_CACHE" in
none | loose | mmap) ;;
*) die "--root-cache must be none, loose or mmap, got '$ROOT_CACHE'" ;;
esac
CMDLINE+=" rootflags=version=9p2000.L,trans=virtio,access=any,msize=262144,cache=$ROOT_CACHE ro"
CMDLINE+=" init=$INIT panic=-1 loglevel=4 $APPEND"
QEMU+=(-append "$CMDLINE")

RUNNER=()
if [ -n "$HOOK" ]; then
	[ -n "$NETNS_SETUP" ] || die "--host-hook needs a virtio-tap NIC (its namespace)"
	[ -x "$HOOK" ] || die "--host-hook $HOOK is not executable"
	HOOK=$(readlink -f "$HOOK")
	NETNS_SETUP+="{ $(printf '%q %q' "$HOOK" "$OUTDIR") > $(printf '%q' "$OUTDIR/hook.log") 2>&1 & } && "
fi
if [ -n "$NETNS_SETUP" ]; then
	command -v unshare >/dev/null || die "unshare missing (util-linux)"
	[ -c /dev/net/tun ] || die "/dev/net/tun missing: virtio-tap NICs need it"
	# A private network namespace: the taps and bridges never touch the
	# host's own networking and vanish with QEMU. No IPv6 there: the
	# bridge's and taps' own MLD reports and router solicitations would
	# reach the guest's NICs among the frames a test counts.
	NETNS_QUIET="sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 && "
	RUNNER=(unshare --net -- bash -c "ip link set lo up && ${NETNS_QUIET}${NETNS_SETUP}exec \"\$@\"" netns)
fi

say "booting $RELEASE ($KERNEL) smp=$SMP mem=${MEM}M nics=[${NICS[*]}] timeout=${TIMEOUT}s"
say "run dir $OUTDIR; command: ${CMD[*]}"
run_qemu() {
	if [ "$QUIET" = 1 ]; then
		timeout -k 10 "$TIMEOUT" "${RUNNER[@]}" "${QEMU[@]}" < /dev/null 2>&1 |
			sed -u 's/\r$//' > "$OUTDIR/console.log"
	else
		timeout -k 10 "$TIMEOUT" "${RUNNER[@]}" "${QEMU[@]}" < /dev/null 2>&1 |
			sed -u 's/\r$//' | tee "$OUTDIR/console.log"
	fi
	qemu_rc=${PIPESTATUS[0]}
}
run_qemu
# QEMU 7.2 (TCG) once died of SIGSEGV before the guest's kernel printed
# anything (cold CI, qemu-hwcsum-rx-e1000): nothing of the guest ran, so
# it is booted once more, and says so.
if [ "$qemu_rc" = 139 ] && ! grep -q "guest-init" "$OUTDIR/console.log"; then
	say "QEMU crashed (SIGSEGV) before the guest started; booting once more"
	cp "$OUTDIR/console.log" "$OUTDIR/console-crashed.log"
	run_qemu
fi

if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
	say "TIMEOUT: the VM was killed after $TIMEOUT s (console: $OUTDIR/console.log)"
	exit 124
fi
if [ ! -s "$OUTDIR/status" ]; then
	say "the guest ended without reporting a status (QEMU exit $qemu_rc); last console lines:"
	tail -n 15 "$OUTDIR/console.log" >&2
	exit 125
fi
rc=$(cat "$OUTDIR/status")
say "guest command exit status $rc after $(($(date +%s) - T0)) s (console: $OUTDIR/console.log)"
exit "$rc"
exit
}
