/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim: guest memory access and MSI-X through struct cx_host, counted as
 * PCIe traffic (README "PCIe accounting").  A failed access is a model
 * error of its purpose (dma.fail.rd.<purpose>, dma.fail.wr.<purpose>).
 * Leaf: inline, calls only the host and cx_err.c.
 */
#ifndef CX_DMA_H
#define CX_DMA_H

#include "cx_core.h"
#include "cx_err.h"

/* Read request TLPs of a read of @len bytes at @addr (MRRS, 4 KiB). */
static inline uint64_t cx_pcie_tlps(uint64_t addr, uint64_t len,
				    uint64_t max)
{
	uint64_t n = 0;

	while (len) {
		uint64_t room = CX_PCIE_BOUNDARY - (addr & (CX_PCIE_BOUNDARY - 1));
		uint64_t chunk = len < room ? len : room;

		n += (chunk + max - 1) / max;
		addr += chunk;
		len -= chunk;
	}
	return n;
}

/*
 * Count a read as PCIe traffic.  A read that continues the previous one of
 * the same purpose (the next WQEBB of a WQE, the next WQE of a batch) is
 * the same DMA read to a device, which fetches a contiguous run at once:
 * its TLPs are recounted over the whole run.  cx_pcie_break() ends the
 * runs (a new doorbell).
 */
static inline void cx_pcie_count_read(struct cx_core *core,
				      enum cx_dma_purpose p, uint64_t addr,
				      size_t len)
{
	struct cx_pcie_stats *ps = &core->stats.pcie;
	struct cx_pcie_rd *rd = &ps->rd[p];
	uint64_t start = addr;

	if (!len)
		return;
	if (addr == ps->last_end[p] && ps->last_end[p]) {
		uint64_t old = ps->last_end[p] - ps->last_start[p];

		start = ps->last_start[p];
		rd->tlps -= cx_pcie_tlps(start, old, CX_PCIE_MRRS);
		rd->cpl_tlps -= cx_pcie_tlps(start, old, CX_PCIE_MPS);
	} else {
		rd->req++;
	}
	rd->bytes += len;
	rd->tlps += cx_pcie_tlps(start, addr + len - start, CX_PCIE_MRRS);
	rd->cpl_tlps += cx_pcie_tlps(start, addr + len - start, CX_PCIE_MPS);
	ps->last_start[p] = start;
	ps->last_end[p] = addr + len;
}

static inline void cx_pcie_break(struct cx_core *core)
{
	unsigned int i;

	for (i = 0; i < CX_DMA_NPURPOSES; i++)
		core->stats.pcie.last_end[i] = 0;
}

/*
 * The host's answer @r to a DMA of @kind: a refusal is a model error;
 * bus mastering off (CX_DMA_BLOCKED) only counted.  Returns @r.
 */
static inline int cx_dma_check(struct cx_core *core, int r,
			       enum cx_merr kind, uint64_t addr, size_t len)
{
	if (!r)
		return 0;
	if (r == CX_DMA_BLOCKED) {
		core->stats.dma_blocked++;
		return r;
	}
	cx_model_error(core, kind, "cxsim: DMA %s of %zu bytes at 0x%llx refused\n",
		       kind >= CX_MERR_DMA_WR ? "write" : "read", len,
		       (unsigned long long)addr);
	return r;
}

static inline int cx_dma_read(struct cx_core *core, uint64_t addr, void *buf,
			      size_t len)
{
	enum cx_dma_purpose p = core->dma_purpose;

	if ((unsigned int)p >= CX_DMA_NPURPOSES)
		p = CX_DMA_OTHER;
	cx_pcie_count_read(core, p, addr, len);
	return cx_dma_check(core, core->host.dma_read(core->host.opaque, addr,
						      buf, len),
			    (enum cx_merr)(CX_MERR_DMA_RD + p), addr, len);
}

/* A read of a known purpose. */
static inline int cx_dma_read_as(struct cx_core *core, enum cx_dma_purpose p,
				 uint64_t addr, void *buf, size_t len)
{
	enum cx_dma_purpose saved = core->dma_purpose;
	int r;

	core->dma_purpose = p;
	r = cx_dma_read(core, addr, buf, len);
	core->dma_purpose = saved;
	return r;
}

/* Count a write of @len bytes as one DMA write request. */
static inline void cx_pcie_count_write(struct cx_core *core,
				       enum cx_dma_wpurpose p, uint64_t addr,
				       size_t len)
{
	struct cx_pcie_wr *wr = &core->stats.pcie.wr[p];
	uint64_t first, last;

	if (!len)
		return;
	wr->req++;
	wr->bytes += len;
	wr->tlps += cx_pcie_tlps(addr, len, CX_PCIE_MPS);
	first = addr >> 12;
	last = (addr + len - 1) >> 12;
	wr->pages += last - first + (first + 1 != wr->last_page);
	wr->last_page = last + 1;
}

/* A write of the purpose in progress (core->dma_wpurpose). */
static inline int cx_dma_write(struct cx_core *core, uint64_t addr,
			       const void *buf, size_t len)
{
	enum cx_dma_wpurpose p = core->dma_wpurpose;

	if ((unsigned int)p >= CX_DMAW_NPURPOSES)
		p = CX_DMAW_OTHER;
	cx_pcie_count_write(core, p, addr, len);
	return cx_dma_check(core, core->host.dma_write(core->host.opaque, addr,
						       buf, len),
			    (enum cx_merr)(CX_MERR_DMA_WR + p), addr, len);
}

/* A write of a known purpose. */
static inline int cx_dma_write_as(struct cx_core *core,
				  enum cx_dma_wpurpose p, uint64_t addr,
				  const void *buf, size_t len)
{
	enum cx_dma_wpurpose saved = core->dma_wpurpose;
	int r;

	core->dma_wpurpose = p;
	r = cx_dma_write(core, addr, buf, len);
	core->dma_wpurpose = saved;
	return r;
}

/*
 * A queue entry of @len bytes whose last byte holds the owner bit: the
 * body first, then that byte, so software never sees a valid owner bit
 * on a partial entry.  One write request on the link.
 */
static inline int cx_dma_write_entry(struct cx_core *core,
				     enum cx_dma_wpurpose p, uint64_t addr,
				     const void *img, size_t len)
{
	const uint8_t *b = img;
	int r;

	if ((unsigned int)p >= CX_DMAW_NPURPOSES)
		p = CX_DMAW_OTHER;
	cx_pcie_count_write(core, p, addr, len);
	r = core->host.dma_write(core->host.opaque, addr, b, len - 1);
	if (!r)
		r = core->host.dma_write(core->host.opaque, addr + len - 1,
					 b + len - 1, 1);
	return cx_dma_check(core, r, (enum cx_merr)(CX_MERR_DMA_WR + p),
			    addr, len);
}

/* Signal @vector, counted as delivered or as masked, per vector. */
static inline void cx_msix(struct cx_core *core, unsigned int vector)
{
	struct cx_stats *st = &core->stats;
	bool masked = core->host.msix_masked &&
		      core->host.msix_masked(core->host.opaque, vector);

	/* A message lost on the way, injected through the test port. */
	if (core->faults.drop_irqs) {
		core->faults.drop_irqs--;
		st->irqs_dropped++;
		return;
	}
	if (masked)
		st->msix_masked++;
	else
		st->msix_sent++;
	if (vector < CX_MSIX_VECTORS) {
		if (masked)
			st->msix_vec_masked[vector]++;
		else
			st->msix_vec_sent[vector]++;
	}
	core->host.msix_notify(core->host.opaque, vector);
}

#endif /* CX_DMA_H */
