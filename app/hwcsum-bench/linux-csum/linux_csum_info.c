/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Linked into the same shared object as the kernel's csum-partial_64.c by
 * build.sh (a separate translation unit: the kernel file is compiled as it
 * is), so hwcsum-bench csum can say exactly what it loaded.
 */
#ifndef HWCSUM_LINUX_SOURCE
#error "build.sh defines HWCSUM_LINUX_SOURCE"
#endif
#ifndef HWCSUM_LINUX_CFLAGS
#error "build.sh defines HWCSUM_LINUX_CFLAGS"
#endif

const char hwcsum_linux_csum_source[] = HWCSUM_LINUX_SOURCE;
const char hwcsum_linux_csum_cflags[] = HWCSUM_LINUX_CFLAGS;
