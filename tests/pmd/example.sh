#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Run the rte_pmd_hwcsum.h example over hwcsum on a looping net_ring.
set -euo pipefail
so=$("$(dirname "$0")/../../devtools/plugin-path.sh" "$2")
exec "$1" --no-huge -m 256 --no-pci -l 0-1 --file-prefix hwcsum-example-$$ \
	-d "$so" --vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0,rx=on
