/* SPDX-License-Identifier: Apache-2.0
** hash.h: the library's one hash, 64-bit FNV-1a: the hash tables' (strmap.h) and a text's
** fingerprint (whether a file still holds what was read: fs/write.c; a diff's lines). */
#ifndef SL_HASH_H
#define SL_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a's 64-bit offset basis: where a hash starts. */
#define SL_HASH_INIT 0xcbf29ce484222325ull

/* h with the bytes data[0..len) fed in: start from SL_HASH_INIT, and feed the bytes in as many
** pieces as convenient (the hash of the whole is the same). */
uint64_t sl_hash_bytes(uint64_t h, const void *data, size_t len);

#endif
