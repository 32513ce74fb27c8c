#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Run test_probe with the PMD at a path EAL accepts (see plugin-path.sh).
set -euo pipefail
so=$("$(dirname "$0")/../../devtools/plugin-path.sh" "$2")
exec "$1" "$so"
