/* SPDX-License-Identifier: Apache-2.0
** sha256.h (private): SHA-256 (FIPS 180-4), fed in pieces. */
#ifndef SL_SHA256_H
#define SL_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sl_sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t n;
} sl_sha256;

void sl_sha256_init(sl_sha256 *s);
void sl_sha256_update(sl_sha256 *s, const void *data, size_t len);
/* Finishes s and writes the digest as 64 lowercase hex digits and a NUL. */
void sl_sha256_hex(sl_sha256 *s, char hex[65]);

#endif
