// SPDX-License-Identifier: GPL-2.0-or-later
/* cxsim: walking guest page lists (cx_pas.h).  Leaf. */
#include <stdlib.h>
#include <string.h>

#include "cx_kshim.h"
#include "cx_bytes.h"
#include "cx_pas.h"

int cx_pas_parse(struct cx_pas *pas, const void *in, size_t inlen,
		 size_t pas_off, uint64_t bytes, uint8_t log_page_size,
		 uint32_t page_offset_bytes)
{
	const uint8_t *p = (const uint8_t *)in + pas_off;
	uint64_t page_size, need, i;

	memset(pas, 0, sizeof(*pas));
	if (log_page_size > 18)
		return -1;
	page_size = (uint64_t)1 << (CX_PAS_PAGE_SHIFT + log_page_size);
	need = (page_offset_bytes + bytes + page_size - 1) / page_size;
	if (need > (1u << 20) || !need)
		return -1;
	if (pas_off > inlen || (inlen - pas_off) / 8 < need)
		return -1;
	pas->addr = calloc(need, sizeof(*pas->addr));
	if (!pas->addr)
		return -1;
	for (i = 0; i < need; i++) {
		pas->addr[i] = cx_get_be64(p + 8 * i);
		if (pas->addr[i] & (page_size - 1)) {
			free(pas->addr);
			pas->addr = NULL;
			return -1;
		}
	}
	pas->n = need;
	pas->log_page_size = log_page_size;
	pas->page_offset = page_offset_bytes;
	return 0;
}

void cx_pas_free(struct cx_pas *pas)
{
	free(pas->addr);
	memset(pas, 0, sizeof(*pas));
}

int cx_pas_addr(const struct cx_pas *pas, uint64_t off, uint64_t *addr)
{
	uint64_t psz = (uint64_t)1 << (CX_PAS_PAGE_SHIFT + pas->log_page_size);

	off += pas->page_offset;
	if (!pas->addr || off / psz >= pas->n)
		return -1;
	*addr = pas->addr[off / psz] + off % psz;
	return 0;
}

int cx_mtt_xlate(uint8_t access_mode, const uint64_t *mtt, uint32_t nmtt,
		 uint64_t start, uint8_t log_page_size, uint64_t va, bool write,
		 uint64_t *pa, uint64_t *room)
{
	uint64_t off = va - start, idx, psz;

	if (va < start)
		return -1;
	switch (access_mode) {
	case MLX5_MKC_ACCESS_MODE_MTT:
		psz = 1ull << log_page_size;
		idx = off >> log_page_size;
		if (idx >= nmtt)
			return -1;
		/* ptag: address | MLX5_EN_RD | MLX5_EN_WR in bits 1:0. */
		if (!(mtt[idx] & ~7ull))
			return -1;	/* never written: no translation */
		if (!(mtt[idx] & (write ? CX_MTT_EN_WR : CX_MTT_EN_RD)))
			return -1;	/* the entry does not allow it */
		*pa = (mtt[idx] & ~7ull) + (off & (psz - 1));
		*room = psz - (off & (psz - 1));
		return 0;
	case MLX5_MKC_ACCESS_MODE_KSM:
		/* struct mlx5_ksm: be32 reserved, be32 key, be64 va. */
		psz = 1ull << log_page_size;
		idx = off >> log_page_size;
		if (2 * idx + 1 >= nmtt)
			return -1;
		if (!mtt[2 * idx + 1])
			return -1;	/* never written: no translation */
		*pa = mtt[2 * idx + 1] + (off & (psz - 1));
		*room = psz - (off & (psz - 1));
		return 0;
	default:
		return -1;
	}
}
