# SPDX-License-Identifier: BSD-3-Clause
# Helpers for the ovs suite: an Open vSwitch of the test's own, no system
# service. ovsdb-server and ovs-vswitchd-dpdk keep their run, db and log
# directories in a scratch directory under the build directory; the
# switch runs in a network namespace of its own (its ovs-netdev and bridge
# taps, and the veth ends its sub-ports open, stay out of the host's), and
# every peer in another. Sourced with $BUILD and $PMD_SO set; everything
# started or created here is removed on exit.

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PY=/usr/bin/python3
STREAMS=$HERE/../tunnel/streams.py
VSWITCHD=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk
FAILS=0
for tool in ovsdb-tool ovsdb-server ovs-vsctl ovs-appctl "$VSWITCHD" \
	    tshark ip ethtool "$PY"; do
	command -v "$tool" >/dev/null || { echo "FAIL: missing $tool"; exit 1; }
done
PMD_SO=$("$HERE/../../devtools/plugin-path.sh" "$PMD_SO") ||
	{ echo "FAIL: cannot stage the PMD for EAL"; exit 1; }

ID=$$
WORK=$(mktemp -d "$(realpath "$BUILD")/ovs-test.XXXXXX")
export OVS_RUNDIR=$WORK/run OVS_DBDIR=$WORK/db OVS_LOGDIR=$WORK/log
mkdir -p "$OVS_RUNDIR" "$OVS_DBDIR" "$OVS_LOGDIR"
CTL=$OVS_RUNDIR/ovs-vswitchd.ctl
LOG=$OVS_LOGDIR/ovs-vswitchd.log
NS_OVS=hwo-sw-$ID
EAL_PREFIX=hwcsum-ovs-$ID
NAMESPACES=$NS_OVS

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $* [$SECONDS s]"; }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }

pid_of() { cat "$OVS_RUNDIR/$1.pid" 2>/dev/null; }

# Stops a daemon started here, by the pid it wrote, and waits for it.
stop_daemon() {
	local pid
	pid=$(pid_of "$1") || return 0
	kill "$pid" 2>/dev/null
	for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -9 "$pid" 2>/dev/null
	rm -f "$OVS_RUNDIR/$1.pid"
}

cleanup() {
	local ns
	stop_daemon ovs-vswitchd
	stop_daemon ovsdb-server
	for ns in $NAMESPACES; do ip netns del "$ns" 2>/dev/null; done
	rm -rf "/var/run/dpdk/$EAL_PREFIX"
	if [ "$FAILS" -eq 0 ]; then rm -rf "$WORK"; else echo "logs kept in $WORK"; fi
}
trap cleanup EXIT

in_ns() { local ns=$1; shift; ip netns exec "$ns" "$@"; }
vsctl() { ovs-vsctl --timeout=30 "$@"; }
appctl() { ovs-appctl -t "$CTL" "$@"; }

# peer <ns> <veth in $NS_OVS> <veth in ns> <address/prefix>: a namespace
# with one veth to the switch's namespace. No offloads on the path: the
# sub-ports are AF_PACKET sockets, which see one frame per packet and
# would hand on a CHECKSUM_PARTIAL packet's seed as its checksum.
peer() {
	local ns=$1 sw_end=$2 end=$3 addr=$4
	ip netns add "$ns" && NAMESPACES="$NAMESPACES $ns" &&
	ip -n "$ns" link set lo up &&
	ip link add "$sw_end" netns "$NS_OVS" type veth peer name "$end" netns "$ns" &&
	in_ns "$NS_OVS" ethtool -K "$sw_end" gro off tso off gso off tx off >/dev/null &&
	in_ns "$ns" ethtool -K "$end" gro off tso off gso off tx off >/dev/null &&
	ip -n "$NS_OVS" link set "$sw_end" up &&
	ip -n "$ns" addr add "$addr" dev "$end" &&
	ip -n "$ns" link set "$end" up
}

# ovs_init <dpdk-extra vdevs>: the database, DPDK's settings, and the
# switch namespace. --no-pci: the machine's own NIC is never probed.
# --no-huge needs --legacy-mem, or OVS 3.1 adds --in-memory, which EAL
# refuses beside it. per-port-memory sizes each port's pool from its
# queues (about 22k mbufs) instead of the shared 256k-mbuf pool.
ovs_init() {
	ip netns add "$NS_OVS" && ip -n "$NS_OVS" link set lo up || return 1
	ovsdb-tool create "$OVS_DBDIR/conf.db" /usr/share/openvswitch/vswitch.ovsschema &&
	ovsdb-server --remote=punix:"$OVS_RUNDIR/db.sock" \
		--pidfile="$OVS_RUNDIR/ovsdb-server.pid" --detach \
		--log-file="$OVS_LOGDIR/ovsdb-server.log" "$OVS_DBDIR/conf.db" &&
	vsctl --no-wait init &&
	vsctl --no-wait set Open_vSwitch . other_config:dpdk-init=true \
		"other_config:dpdk-extra=--no-pci --no-huge --legacy-mem -m 1024 --file-prefix $EAL_PREFIX -d $PMD_SO $1" \
		other_config:dpdk-lcore-mask=0x1 other_config:pmd-cpu-mask=0x2 \
		other_config:per-port-memory=true other_config:pmd-maxsleep=1000
}

# The switch, niced: the machine is shared. Returns once DPDK is up.
ovs_start() {
	in_ns "$NS_OVS" nice -n 19 "$VSWITCHD" --pidfile="$OVS_RUNDIR/ovs-vswitchd.pid" \
		--unixctl="$CTL" --detach --log-file="$LOG" \
		unix:"$OVS_RUNDIR/db.sock" >>"$WORK/vswitchd.out" 2>&1 || return 1
	vsctl wait-until Open_vSwitch . dpdk_initialized=true
}

ovs_stop() {
	appctl exit >/dev/null 2>&1
	stop_daemon ovs-vswitchd
}

# iface_ok <iface>: up, attached, no error.
iface_ok() {
	ovs-vsctl --timeout=20 wait-until Interface "$1" link_state=up >/dev/null &&
	[ "$(vsctl get Interface "$1" error)" = "[]" ]
}

# stat <iface> <key>: one value of its statistics column.
stat() {
	vsctl get Interface "$1" "statistics:$2" 2>/dev/null
}

# mac_of <ns> <dev>
mac_of() {
	ip -n "$1" -o link show "$2" | grep -o 'link/ether [0-9a-f:]*' | cut -d' ' -f2
}

# xstats <iface>: every xstat of the port, from DPDK's telemetry socket.
xstats() {
	"$PY" "$HERE/xstats.py" "/var/run/dpdk/$EAL_PREFIX" \
		"$(vsctl get Interface "$1" status:port_no | tr -d '"')"
}

# ping_ok <ns> <address>: at least 3 of 4 echoes answered.
ping_ok() {
	local got
	got=$(in_ns "$1" "$PY" "$STREAMS" ping "$2" 4 2>&1 | grep -o '[0-9]* received' | cut -d' ' -f1)
	[ "${got:-0}" -ge 3 ]
}

# Bad checksums tshark reports in a capture.
bad_checksums() {
	"$PY" "$HERE/../lib/pcap_csum.py" --count bad-frames "$1"
}

# capture_start <name> <ns> <iface>; capture_stop: tshark into $WORK/<name>.pcap.
CAPTURES=
capture_start() {
	# ip netns exec execs tshark: $! is tshark itself.
	ip netns exec "$2" tshark -q -i "$3" -w "$WORK/$1.pcap" >"$WORK/$1.tshark.log" 2>&1 &
	CAPTURES="$CAPTURES $!"
	for _ in $(seq 50); do
		grep -q "Capturing on" "$WORK/$1.tshark.log" && return 0
		sleep 0.1
	done
	return 1
}
capture_stop() {
	local pid
	sleep 0.5
	for pid in $CAPTURES; do kill -INT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
	CAPTURES=
}

# tcp_transfer <from ns> <to ns> <to address> <bytes>: the receiver's and
# the sender's SHA-256 must match.
tcp_transfer() {
	local from=$1 to=$2 addr=$3 bytes=$4 port=$((20000 + RANDOM % 20000)) sent got
	in_ns "$to" "$PY" "$STREAMS" tcp-recv "$port" >"$WORK/tcp-recv.out" 2>&1 &
	local rpid=$!
	sleep 0.5
	sent=$(in_ns "$from" "$PY" "$STREAMS" tcp-send "$addr" "$port" "$bytes" 2>&1)
	wait "$rpid"
	got=$(cat "$WORK/tcp-recv.out")
	echo "  $sent / $got"
	[ -n "$sent" ] && [ "${sent#tcp sent }" = "${got#tcp received }" ] &&
		[ "$(echo "$got" | cut -d' ' -f3)" = "$bytes" ]
}

finish() {
	if [ "$FAILS" -ne 0 ]; then
		echo "$FAILS check(s) failed; the switch's log (dpdk and netdev lines):"
		grep -E 'dpdk|netdev|hwcsum|ERR|WARN' "$LOG" | tail -40
		exit 1
	fi
	echo "all checks passed"
	exit 0
}
