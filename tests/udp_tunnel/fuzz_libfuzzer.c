/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer entry point; built once per parser with -DFUZZ_PARSER=<index>
 * when the compiler is clang (see meson.build).
 */
#include "fuzz_parsers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parser_one(&fuzz_parsers[FUZZ_PARSER], data, size);
	return 0;
}
