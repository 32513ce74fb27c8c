/* SPDX-License-Identifier: BSD-3-Clause */
/* Stub for the kernel's <asm/checksum.h>: everything is in linux_shim.h. */
#include "../../linux_shim.h"
