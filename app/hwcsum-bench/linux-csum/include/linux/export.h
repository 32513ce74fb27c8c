/* SPDX-License-Identifier: BSD-3-Clause */
/* Stub for the kernel's <linux/export.h>: everything is in linux_shim.h. */
#include "../../linux_shim.h"
