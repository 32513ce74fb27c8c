#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# plugin-path.sh <librte_net_hwcsum.so>: print a path EAL will load it from.
#
# EAL refuses a plugin when its directory or any parent is world-writable
# (a clone under /tmp or /var/tmp, say). Then the .so is copied into a
# root-only cache directory keyed by its source path, and that copy's path
# is printed (the plugin is self-contained); otherwise the absolute path
# itself.
set -euo pipefail

so=$(realpath "$1")
[ -f "$so" ] || { echo "plugin-path: $1: no such file" >&2; exit 1; }

world_writable_parent() {
	local d
	d=$(dirname "$1")
	while :; do
		[ -n "$(find "$d" -maxdepth 0 -perm -0002)" ] && return 0
		[ "$d" = / ] && return 1
		d=$(dirname "$d")
	done
}

if ! world_writable_parent "$so"; then
	echo "$so"
	exit 0
fi
dir="${HWCSUM_CACHE:-/var/cache/hwcsum}/plugins/$(echo "$so" | sha256sum | cut -c1-16)"
mkdir -p "$dir"
chmod 0755 "$dir"
cp "$so" "$dir/.new.$$"
mv -f "$dir/.new.$$" "$dir/$(basename "$so")"
echo "$dir/$(basename "$so")"
