#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# tunnel_stress.sh <test_tunnel_stress> <librte_net_hwcsum.so> MODE [ops] [seed]:
# run the stress/push test with the PMD at a path EAL accepts.
set -euo pipefail
so=$("$(dirname "$0")/../../devtools/plugin-path.sh" "$2")
exe=$1
shift 2
exec "$exe" "$so" "$@"
