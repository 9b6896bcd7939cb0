/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim: walking guest page lists.  A queue's buffer is a list of guest
 * pages (the pas of its CREATE command); an mkey's translations are MTT
 * entries (one page each) or KSM entries (key and address).  Leaf: calls
 * nothing of the model.
 */
#ifndef CX_PAS_H
#define CX_PAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CX_PAS_PAGE_SHIFT	12

/* A list of guest pages backing a queue (the pas of its command). */
struct cx_pas {
	uint64_t *addr;
	uint32_t n;
	uint8_t log_page_size;	/* pages of 4 KiB << log_page_size */
	uint32_t page_offset;	/* in 64-byte units (CQ) or as the context says */
};

/*
 * Read the page list at byte @pas_off of the command input @in (@inlen
 * bytes): as many be64 page addresses as @bytes from @page_offset_bytes
 * need, each aligned to its page size.  0, or -1 (nothing allocated).
 */
int cx_pas_parse(struct cx_pas *pas, const void *in, size_t inlen,
		 size_t pas_off, uint64_t bytes, uint8_t log_page_size,
		 uint32_t page_offset_bytes);
void cx_pas_free(struct cx_pas *pas);

/* The guest address of byte @off of the buffer (past page_offset); 0/-1. */
int cx_pas_addr(const struct cx_pas *pas, uint64_t off, uint64_t *addr);

/*
 * Translate @va through an mkey's entries (@mtt, @nmtt of them, the mkey
 * starting at @start with pages of 1 << @log_page_size): MTT mode (one
 * entry per page, access bits 2:0) or KSM mode (two entries per page, the
 * address second).  The guest address and the bytes left in its page;
 * 0, or -1 outside the mkey, through an entry never written (address 0),
 * through an MTT entry without the enable bit of the access (@write:
 * CX_MTT_EN_WR, else CX_MTT_EN_RD), or for another mode.
 */
#define CX_MTT_EN_RD	1ull	/* MLX5_EN_RD */
#define CX_MTT_EN_WR	2ull	/* MLX5_EN_WR */
int cx_mtt_xlate(uint8_t access_mode, const uint64_t *mtt, uint32_t nmtt,
		 uint64_t start, uint8_t log_page_size, uint64_t va, bool write,
		 uint64_t *pa, uint64_t *room);

#endif /* CX_PAS_H */
