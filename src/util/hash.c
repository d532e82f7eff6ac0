/* SPDX-License-Identifier: Apache-2.0
** hash.c: 64-bit FNV-1a (hash.h). */
#include "util/hash.h"

uint64_t sl_hash_bytes(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;   /* FNV's 64-bit prime */
	}
	return h;
}
