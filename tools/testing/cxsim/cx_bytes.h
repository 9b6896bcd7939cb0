/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim: byte order and bit fields, the one set of helpers every file
 * uses.  Device layouts (mlx5_ifc.h), WQEs, CQEs, EQEs and frames are big
 * endian; these load and store them byte by byte, so any alignment is
 * fine.  Leaf: needs nothing but <stdint.h>.
 */
#ifndef CX_BYTES_H
#define CX_BYTES_H

#include <stdint.h>

static inline uint16_t cx_get_be16(const void *p)
{
	const uint8_t *b = p;

	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline uint32_t cx_get_be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

static inline uint64_t cx_get_be64(const void *p)
{
	const uint8_t *b = p;

	return (uint64_t)cx_get_be32(b) << 32 | cx_get_be32(b + 4);
}

static inline void cx_put_be16(void *p, uint16_t v)
{
	uint8_t *b = p;

	b[0] = v >> 8;
	b[1] = v & 0xff;
}

static inline void cx_put_be32(void *p, uint32_t v)
{
	uint8_t *b = p;

	cx_put_be16(b, v >> 16);
	cx_put_be16(b + 2, v & 0xffff);
}

static inline void cx_put_be64(void *p, uint64_t v)
{
	uint8_t *b = p;

	cx_put_be32(b, v >> 32);
	cx_put_be32(b + 4, (uint32_t)v);
}

/*
 * A big-endian bit field of a layout: @bit_sz bits at bit @bit_off
 * (mlx5_ifc.h numbering, bit 0 the MSB of the first dword), inside one
 * dword.
 */
static inline void cx_bits_set(void *buf, unsigned int bit_off,
			       unsigned int bit_sz, uint32_t val)
{
	uint8_t *p = (uint8_t *)buf + (bit_off / 32) * 4;
	unsigned int shift = 32 - bit_off % 32 - bit_sz;
	uint32_t mask = bit_sz >= 32 ? ~0u : ((1u << bit_sz) - 1) << shift;
	uint32_t dw = cx_get_be32(p);

	cx_put_be32(p, (dw & ~mask) | ((val << shift) & mask));
}

static inline uint32_t cx_bits_get(const void *buf, unsigned int bit_off,
				   unsigned int bit_sz)
{
	const uint8_t *p = (const uint8_t *)buf + (bit_off / 32) * 4;
	uint32_t dw = cx_get_be32(p) >> (32 - bit_off % 32 - bit_sz);

	return bit_sz >= 32 ? dw : dw & ((1u << bit_sz) - 1);
}

#endif /* CX_BYTES_H */
