/* SPDX-License-Identifier: BSD-3-Clause */
/* Stub for the kernel's <asm/word-at-a-time.h>: everything is in linux_shim.h. */
#include "../../linux_shim.h"
