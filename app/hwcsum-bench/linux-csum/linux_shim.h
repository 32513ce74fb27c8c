/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_LINUX_SHIM_H
#define HWCSUM_LINUX_SHIM_H

/*
 * Just enough of the kernel's environment for Linux's x86-64
 * arch/x86/lib/csum-partial_64.c to compile, unmodified, as user-space C
 * (build.sh compiles it from the unpacked linux-source package; the kernel
 * file is never copied into this repository). The stub headers under
 * include/ (linux/compiler.h, linux/export.h, asm/checksum.h,
 * asm/word-at-a-time.h: the ones the file includes) all come here.
 *
 * What the file needs, found by compiling it: the sparse types __wsum and
 * __sum16 with __force, u64, likely(), EXPORT_SYMBOL(), ror64() (from
 * linux/bitops.h), csum_fold() (asm/checksum_64.h, for ip_compute_csum())
 * and load_unaligned_zeropad() (asm/word-at-a-time.h).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

/* Sparse annotations: plain integers to the compiler, as in the kernel. */
#define __force
#define __bitwise
typedef u32 __wsum;
typedef u16 __sum16;

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* The bench finds csum_partial with dlsym(); nothing to export. */
#define EXPORT_SYMBOL(sym)

/* Rotate right; shift taken modulo 64 (the kernel's has the same contract). */
static inline u64
ror64(u64 word, unsigned int shift)
{
	return (word >> (shift & 63)) | (word << (-shift & 63));
}

/* Fold a 32-bit partial sum to 16 bits and complement it (a checksum). */
static inline __sum16
csum_fold(__wsum sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__sum16)~sum;
}

__wsum csum_partial(const void *buff, int len, __wsum sum);
__sum16 ip_compute_csum(const void *buff, int len);

/*
 * Load 8 bytes from any address, the bytes of a page that cannot be read
 * reading as zero. The kernel issues one unaligned load and lets a fault
 * fix-up zero the part past the page; user space has no fix-up. So a load
 * that would cross a 4 KiB boundary (the smallest page) reads what is left
 * of this page, then the next page's bytes only if the kernel says they are
 * readable: it copies them through a pipe, and write() fails with EFAULT
 * where a load would have faulted. csum_partial() keeps only the bytes
 * inside the buffer, so the zeros never matter. The common case is the
 * kernel's single load plus one well-predicted compare; the slow path
 * (one load in 585 at random tail positions, none in the benchmark's
 * timed loops, whose buffers are 64-byte aligned) is single-threaded.
 */
#define HWCSUM_SHIM_PAGE 4096ul

static int hwcsum_shim_pipe[2] = { -1, -1 };

/* Out of line, so the fast path keeps the kernel's code shape. */
static __attribute__((noinline, cold)) unsigned long
hwcsum_shim_zeropad_slow(const void *addr, unsigned long off)
{
	size_t here = HWCSUM_SHIM_PAGE - off, rest = sizeof(unsigned long) - here;
	const char *next = (const char *)addr + here;
	unsigned long ret = 0;

	memcpy(&ret, addr, here);
	if (hwcsum_shim_pipe[0] < 0) {
		if (pipe(hwcsum_shim_pipe) != 0)
			abort();
		fcntl(hwcsum_shim_pipe[0], F_SETFD, FD_CLOEXEC);
		fcntl(hwcsum_shim_pipe[1], F_SETFD, FD_CLOEXEC);
	}
	if (write(hwcsum_shim_pipe[1], next, rest) == (ssize_t)rest) {
		if (read(hwcsum_shim_pipe[0], (char *)&ret + here, rest) != (ssize_t)rest)
			abort();
	} else if (errno != EFAULT) {
		abort();
	}
	return ret;
}

static inline unsigned long
load_unaligned_zeropad(const void *addr)
{
	unsigned long off = (uintptr_t)addr & (HWCSUM_SHIM_PAGE - 1);
	unsigned long ret;

	if (unlikely(off > HWCSUM_SHIM_PAGE - sizeof(ret)))
		return hwcsum_shim_zeropad_slow(addr, off);
	/* An asm load, so reading past the buffer is no C-level access. */
	__asm__("movq %[mem], %[ret]"
		: [ret] "=r"(ret)
		: [mem] "m"(*(const unsigned long *)addr));
	return ret;
}

#endif
