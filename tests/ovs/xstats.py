#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""All xstats of one ethdev of a running DPDK process, from its telemetry
socket (Open vSwitch 3.1 shows only the *_errors and *_dropped ones).

xstats.py RUNTIME_DIR PORT_ID    prints "name=value" lines
"""
import json
import socket
import sys


def main():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(sys.argv[1] + "/dpdk_telemetry.v2")
    json.loads(s.recv(1024))		# the greeting
    s.send(("/ethdev/xstats," + sys.argv[2]).encode())
    reply = json.loads(s.recv(1 << 20))
    for name, value in reply["/ethdev/xstats"].items():
        print("%s=%s" % (name, value))


if __name__ == "__main__":
    main()
