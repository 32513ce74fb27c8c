#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Markdown table of the 8139cp transmit checksum decisions, unpatched
against patched kernel, from two analyzed rtl8139 runs of the suite:

    before-after.py UNPATCHED PATCHED

(each a csum-rtl8139.json that tests/kernel/csum-suite.sh wrote, or a run
directory with the csum-table.json of analyze.py). Per case, in
frames the sending NIC transmitted: "chip" = handed to the driver as
CHECKSUM_PARTIAL and filled by the chip, "driver sw" = resolved by the
patched driver through skb_csum_offload_help(), "stack sw" = resolved by
the stack before the driver saw it (NETIF_F_IP_CSUM / hw_enc_features).
Unpatched: from the capture (a partial frame reaches the driver, which only
ever gives it to the chip). Patched: the driver's ethtool -S counters over
the case, plus the capture for the stack's share.
"""

import json
import os
import sys


def load(path):
    """A table JSON (tests/kernel/csum-suite.sh writes csum-MODEL.json) or
    a run directory analyzed by analyze.py alone (csum-table.json)."""
    if os.path.isdir(path):
        path = os.path.join(path, 'csum-table.json')
    with open(path) as f:
        return json.load(f)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    before, after = load(argv[1]), load(argv[2])
    print('| proto | tunnel | family | unpatched: chip | unpatched: stack sw '
          '| patched: chip | patched: driver sw | patched: stack sw |')
    print('|---|---|---|---:|---:|---:|---:|---:|')
    tot = [0] * 5
    for b, a in zip(before['rows'], after['rows']):
        assert (b['proto'], b['tunnel'], b['family']) == \
            (a['proto'], a['tunnel'], a['family'])
        vals = [b['tx_partial'], b['tx_full'], a['drv_hw'], a['drv_sw'],
                a['tx_full']]
        tot = [t + v for t, v in zip(tot, vals)]
        print(f'| {b["proto"]} | {b["tunnel"]} | {b["family"]} | ' +
              ' | '.join(str(v) for v in vals) + ' |')
    print('| **all** | | | ' + ' | '.join(f'**{v}**' for v in tot) + ' |')
    w = after.get('whole_run_8139cp')
    if w:
        print(f'\nPatched, whole run (background traffic included): driver '
              f'tx_csum_hw {w["drv_hw"]}, tx_csum_sw {w["drv_sw"]}; the '
              f'capture between the same cut points: {w["capture_hw"]} '
              f'frames the chip can parse, {w["capture_sw"]} it cannot.')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
