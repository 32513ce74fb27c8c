#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# plugin-path.sh <librte_net_hwcsum.so>: print a path EAL will load it from.
#
# EAL refuses a plugin when its directory or any parent is world-writable
# (a clone under /tmp or /var/tmp, say). Then the .so is copied into a
# root-only cache directory keyed by its source path, and that copy's path
# is printed; otherwise the absolute path itself. The plugin links this
# project's libraries (libhwcsum_*.so.0) and finds them through its
# RUNPATH, relative to itself ($ORIGIN/../../../lib in the build tree,
# $ORIGIN installed): the copy takes them along, at the same places
# relative to it (the build tree's layout, or beside it).
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
# The tree the plugin's libraries are laid out in: the meson build
# directory it is in, else its own directory.
root=$(dirname "$so")
while [ ! -d "$root/meson-private" ] && [ "$root" != / ]; do
	root=$(dirname "$root")
done
[ "$root" != / ] || root=$(dirname "$so")

stage() {
	mkdir -p "$(dirname "$2")"
	chmod 0755 "$dir" "$(dirname "$2")"
	cp -L "$1" "$2.new.$$"
	mv -f "$2.new.$$" "$2"
}
mkdir -p "$dir"
# The libraries the loader finds for it inside that tree (by RUNPATH).
ldd "$so" | sed -n 's/^[[:space:]]*[^ ]* => \(\/[^ ]*\) .*/\1/p' | while read -r lib; do
	lib=$(realpath -s "$lib")	# $ORIGIN/../..: normalized, links kept
	case "$lib" in
	"$root"/*) stage "$lib" "$dir/${lib#"$root"/}" ;;
	esac
done
stage "$so" "$dir/${so#"$root"/}"
echo "$dir/${so#"$root"/}"
