/* SPDX-License-Identifier: BSD-3-Clause */
/* Telemetry (stub until the commands land). */
#include "hwcsum_private.h"

void
hwcsum_telemetry_register(void)
{
}
