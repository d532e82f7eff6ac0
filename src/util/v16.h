/* SPDX-License-Identifier: Apache-2.0
** v16.h: scanning text sixteen bytes at a time. GCC's and Clang's vector extension: SSE2
** instructions on x86-64 (a byte mask by pmovmskb), plain code elsewhere. The scanners that look
** at every byte of every file (the encoding check, the kind scan, the template pretest) test a
** block at once and look at single bytes only where the block's mask has a bit. */
#ifndef SL_V16_H
#define SL_V16_H

#include <stdint.h>
#include <string.h>

/* Signed: a byte of 0x80 or above compares below every ASCII character. */
typedef signed char sl_v16 __attribute__((vector_size(16)));
typedef char sl_v16c __attribute__((vector_size(16)));
typedef unsigned char sl_v16u __attribute__((vector_size(16)));

static inline sl_v16 sl_v16_load(const void *p)
{
	sl_v16 v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* Bit i set when byte i of m (a comparison's result: 0 or -1 per byte) is set. */
static inline unsigned sl_v16_mask(sl_v16 m)
{
#if defined(__SSE2__)
	return (unsigned)__builtin_ia32_pmovmskb128((sl_v16c)m);
#else
	unsigned r = 0;
	for (int i = 0; i < 16; i++)
		r |= (unsigned)(m[i] & 1) << i;
	return r;
#endif
}

/* (v >= lo) & (v <= hi), per byte (0 <= lo <= hi < 0x80): v - lo is at most hi - lo, unsigned,
** exactly then; moved by 0x80 (an add, wrapping as unsigned bytes do), one signed compare. */
static inline sl_v16 sl_v16_between(sl_v16 v, signed char lo, signed char hi)
{
	sl_v16u x = (sl_v16u)v + (unsigned char)(0x80 - lo);
	return (sl_v16)((sl_v16)x <= (signed char)(hi - lo - 0x80));
}

#endif
