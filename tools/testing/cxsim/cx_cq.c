// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim data path: completion queues, mkey translation, and the data
 * path's counters.
 *
 * A CQE for producer counter pi goes to index pi & (nent - 1), in slots
 * of 64 << cqe_sz bytes; with 128-byte CQEs the 64-byte image is in the
 * second half (upstream mlx5_cqwq_get_wqe()).  The body is written first,
 * then the byte with the owner bit.  Before writing, the driver's
 * consumer index is read from the CQ's doorbell record (be32, low 24
 * bits): a CQ with nent CQEs not consumed is overrun, and as hardware
 * does the model raises a CQ error event (MLX5_EVENT_TYPE_CQ_ERROR) and
 * drops the CQE instead of overwriting one (unless the CQ has oi set).
 *
 * The CQ doorbell (UAR offset 0x20, 64-bit) is upstream mlx5_cq_arm():
 * be32 (sn << 28 | cmd | ci), be32 cqn.  An armed CQ posts one
 * completion EQE (data.comp.cqn) on its EQ at the next CQE and disarms;
 * arming with CQEs beyond ci posts it at once.  No moderation: one EQE
 * per arm.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cx_kshim_dp.h"
#include "cx_datapath.h"
#include "cx_dp.h"

#define CX_CI_MASK		0xffffffu
#define CX_CQ_ERR_OVERRUN	1	/* cq_err syndrome: CQ overrun */

struct cx_dp *cx_dp_get(struct cx_core *core)
{
	struct cx_dp *dp = core->dp;

	if (dp)
		return dp;
	dp = calloc(1, sizeof(*dp));
	if (!dp)
		return NULL;
	dp->txbuf = malloc(CX_DP_TXBUF);
	dp->scratch = malloc(CX_DP_SCRATCH);
	dp->rxbuf = malloc(CX_DP_RXBUF);
	if (!dp->txbuf || !dp->scratch || !dp->rxbuf) {
		free(dp->txbuf);
		free(dp->scratch);
		free(dp->rxbuf);
		free(dp);
		return NULL;
	}
	core->dp = dp;
	return dp;
}

void cx_dp_fini(struct cx_core *core)
{
	struct cx_dp *dp = core->dp;

	if (!dp)
		return;
	free(dp->txbuf);
	free(dp->scratch);
	free(dp->rxbuf);
	free(dp);
	core->dp = NULL;
}

bool cx_dp_link_up(struct cx_core *core)
{
	return core->func.state == CX_HCA_INITIALISED && core->func.nic &&
	       core->func.nic->port.oper_up;
}

/* ---- guest memory through mkeys ---------------------------------------- */

int cx_mkey_dma(struct cx_core *core, uint32_t lkey, uint64_t addr,
		void *buf, size_t len, bool write)
{
	struct cx_mkey *mk = core->func.nic ? cx_mkey_lookup(core, lkey) : NULL;
	uint8_t *p = buf;

	if (!mk || mk->access_mode == MLX5_MKC_ACCESS_MODE_PA)
		return write ? cx_dma_write(core, addr, buf, len) :
			       cx_dma_read(core, addr, buf, len);
	while (len) {
		uint64_t pa, room;
		size_t n;
		int r;

		if (cx_mtt_xlate(mk->access_mode, mk->mtt, mk->nmtt, mk->start,
				 mk->log_page_size, addr, &pa, &room))
			return -1;
		n = len < room ? len : (size_t)room;
		r = write ? cx_dma_write(core, pa, p, n) :
			    cx_dma_read(core, pa, p, n);
		if (r)
			return -1;
		p += n;
		addr += n;
		len -= n;
	}
	return 0;
}

/* ---- CQs ---------------------------------------------------------------- */

static int cx_cq_addr(const struct cx_cq *cq, uint32_t idx, uint64_t *addr)
{
	uint64_t slot = 64ull << cq->cqe_sz;
	uint64_t off = cq->pas.page_offset + idx * slot + (cq->cqe_sz ? 64 : 0);
	uint64_t psz = (uint64_t)CX_PAGE_SIZE << cq->pas.log_page_size;

	if (!cq->pas.addr || off / psz >= cq->pas.n)
		return -1;
	*addr = cq->pas.addr[off / psz] + off % psz;
	return 0;
}

static uint32_t cx_cq_ci(struct cx_core *core, const struct cx_cq *cq)
{
	uint8_t b[4];

	if (cx_dma_read_as(core, CX_DMA_DBR, cq->dbr_addr, b, 4))
		return cq->prod & CX_CI_MASK;
	return ((uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]) &
	       CX_CI_MASK;
}

static void cx_cq_event(struct cx_core *core, struct cx_cq *cq)
{
	struct mlx5_eqe eqe;
	struct cx_dp *dp = core->dp;

	cq->armed = false;
	memset(&eqe, 0, sizeof(eqe));
	eqe.type = MLX5_EVENT_TYPE_COMP;
	eqe.data.comp.cqn = cpu_to_be32(cq->cqn);
	if (!cx_eq_post(core, (int)cq->eqn, &eqe) && dp)
		dp->eqe_comp++;
}

int cx_cq_write(struct cx_core *core, struct cx_cq *cq, const void *img)
{
	struct cx_dp *dp = cx_dp_get(core);
	uint32_t nent = 1u << cq->log_size;
	uint32_t pending;
	uint64_t addr;

	if (!dp)
		return -1;
	pending = (cq->prod - cx_cq_ci(core, cq)) & CX_CI_MASK;
	if (pending >= nent && !cq->oi) {
		dp->cqe_dropped++;
		if (!cq->overrun) {
			struct mlx5_eqe eqe;

			cq->overrun = true;
			dp->cq_overruns++;
			cx_log(core, "cxsim: CQ 0x%x overrun (%u CQEs not consumed)\n",
			       cq->cqn, pending);
			memset(&eqe, 0, sizeof(eqe));
			eqe.type = MLX5_EVENT_TYPE_CQ_ERROR;
			eqe.data.cq_err.cqn = cpu_to_be32(cq->cqn);
			eqe.data.cq_err.syndrome = CX_CQ_ERR_OVERRUN;
			cx_eq_event(core, MLX5_EVENT_TYPE_CQ_ERROR, &eqe);
		}
		return -1;
	}
	cq->overrun = false;
	if (cx_cq_addr(cq, cx_cqe_index(cq->prod, cq->log_size), &addr) ||
	    cx_dma_write(core, addr, img, CX_CQE_SIZE - 1) ||
	    cx_dma_write(core, addr + CX_CQE_SIZE - 1,
			 (const uint8_t *)img + CX_CQE_SIZE - 1, 1)) {
		dp->cqe_dropped++;
		return -1;
	}
	cq->prod++;
	cq->cqes++;
	if (cq->armed)
		cx_cq_event(core, cq);
	return 0;
}

void cx_cq_doorbell(struct cx_core *core, uint32_t uar_page, uint64_t value)
{
	struct cx_dp *dp = cx_dp_get(core);
	uint32_t w0 = __builtin_bswap32((uint32_t)value);
	uint32_t cqn = __builtin_bswap32((uint32_t)(value >> 32)) & CX_CI_MASK;
	struct cx_cq *cq;
	uint32_t ci = w0 & CX_CI_MASK, pending;

	(void)uar_page;
	if (!dp || !core->func.nic)
		return;
	dp->cq_doorbells++;
	cq = cx_cq_lookup(core, cqn);
	if (!cq) {
		cx_log(core, "cxsim: CQ doorbell for CQ 0x%x: no such CQ\n", cqn);
		return;
	}
	dp->cq_arms++;
	cq->arm_sn = w0 >> 28 & 3;
	cq->arm_ci = ci;
	cq->armed = true;
	cq->armed_solicited = (w0 & MLX5_CQ_DB_REQ_NOT_SOL) != 0;
	pending = (cq->prod - ci) & CX_CI_MASK;
	if (pending && pending <= (1u << cq->log_size))
		cx_cq_event(core, cq);
}

/* ---- report ------------------------------------------------------------- */



static const char *cx_sq_state_name(uint8_t state)
{
	switch (state) {
	case MLX5_SQC_STATE_RST:	return "RST";
	case MLX5_SQC_STATE_RDY:	return "RDY";
	case MLX5_SQC_STATE_ERR:	return "ERR";
	default:			return "?";
	}
}

size_t cx_dp_report(struct cx_core *core, char *buf, size_t size)
{
	static const struct cx_dp zero;
	const struct cx_dp *dp = core->dp ? core->dp : &zero;
	struct cx_out o = { buf, size, 0 };
	uint32_t i;

	if (!size)
		return 0;
	buf[0] = '\0';
	KV(&o, "dp.desc_bytes", dp->desc_bytes);
	KV(&o, "dp.payload_bytes", dp->payload_bytes);
	KV(&o, "dp.rx_wqe_bytes", dp->rx_wqe_bytes);
	KV(&o, "dp.rx_dma_bytes", dp->rx_dma_bytes);
	KV(&o, "sq.doorbells", dp->sq_doorbells);
	KV(&o, "sq.doorbells_bad", dp->sq_doorbells_bad);
	KV(&o, "sq.errors", dp->sq_errors);
	KV(&o, "sq.errors_injected", dp->sq_err_injected);
	KV(&o, "sq.recoveries", dp->sq_recoveries);
	KV(&o, "wqe.flushed", dp->wqe_flushed);
	KV(&o, "wqe.SEND", dp->wqe_send);
	KV(&o, "wqe.LSO", dp->wqe_lso);
	KV(&o, "wqe.ENHANCED_MPSW", dp->wqe_mpw);
	KV(&o, "wqe.NOP", dp->wqe_nop);
	KV(&o, "wqe.UMR", dp->wqe_umr);
	KV(&o, "wqe.errors", dp->wqe_err);
	KV(&o, "cqe.tx", dp->cqe_tx);
	KV(&o, "cqe.rx", dp->cqe_rx);
	KV(&o, "cqe.filler", dp->cqe_filler);
	KV(&o, "cqe.err", dp->cqe_err);
	KV(&o, "cqe.dropped", dp->cqe_dropped);
	KV(&o, "cq.overruns", dp->cq_overruns);
	KV(&o, "cq.doorbells", dp->cq_doorbells);
	KV(&o, "cq.arms", dp->cq_arms);
	KV(&o, "eqe.comp", dp->eqe_comp);
	KV(&o, "tx.packets", dp->tx_packets);
	KV(&o, "tx.bytes", dp->tx_bytes);
	KV(&o, "tx.drops.link_down", dp->tx_drops_link);
	KV(&o, "tx.lso_errors", dp->tx_lso_err);
	KV(&o, "rx.packets", dp->rx_packets);
	KV(&o, "rx.bytes", dp->rx_bytes);
	KV(&o, "rx.multicast", dp->rx_mcast);
	KV(&o, "rx.broadcast", dp->rx_bcast);
	KV(&o, "rx.drops.no_wqe", dp->rx_drops_no_wqe);
	KV(&o, "rx.drops.steering", dp->rx_drops_steering);
	KV(&o, "rx.drops.link_down", dp->rx_drops_link);
	KV(&o, "rx.drops.too_big", dp->rx_drops_too_big);
	KV(&o, "rx.drops.other", dp->rx_drops_other);
	if (!core->func.nic)
		return o.len;
	for (i = 0; i < core->func.nic->sq.cap; i++) {
		const struct cx_sq *sq = core->func.nic->sq.slot[i];

		if (sq)
			cx_out(&o, "sq.%u doorbells=%llu wqes=%llu cc=%u state=%u cqn=%u st=%s errors=%u err_resets=%u\n",
				  sq->sqn, (unsigned long long)sq->doorbells,
				  (unsigned long long)sq->wqes, sq->cc,
				  sq->state, sq->cqn, cx_sq_state_name(sq->state),
				  sq->errors, sq->err_resets);
	}
	for (i = 0; i < core->func.nic->rq.cap; i++) {
		const struct cx_rq *rq = core->func.nic->rq.slot[i];

		if (rq)
			cx_out(&o, "rq.%u type=%u packets=%llu drops=%llu wqe_cc=%u state=%u cqn=%u\n",
				  rq->rqn, rq->wq.type,
				  (unsigned long long)rq->packets,
				  (unsigned long long)rq->drops, rq->wqe_cc,
				  rq->state, rq->cqn);
	}
	return o.len;
}

/* ---- link --------------------------------------------------------------- */

void cx_core_set_link(struct cx_core *core, bool up)
{
	if (core->func.nic)
		cx_port_set_link(core, up);
}
