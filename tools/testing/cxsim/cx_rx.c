// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim data path: the receive side.
 *
 * A frame from the wire (the port must be up, the frame within its MTU:
 * PMTU oper_mtu with the FCS counted, else it is dropped and counted in
 * PPCNT IEEE 802.3 a_frame_too_long_errors, upstream's
 * rx_oversize_pkts_phy; one within it counts in the port's RX wire
 * counters, cx_port_count(), whatever steering does next) is steered from
 * the NIC RX
 * root flow table (SET_FLOW_TABLE_ROOT): the first entry whose group mask
 * matches, in flow_index order (cx_fs_match()); a miss follows the
 * table's miss table if it has one, else drops.  An entry forwards to a
 * flow table (followed, bounded depth) or a TIR; drop/no destination
 * drops.  A TIR gives an RQ directly (inline_rqn) or through RSS:
 * Toeplitz over its hash fields, the RQT entry hash % size.
 *
 * The RQ's doorbell record (be32 at dbr_addr, the driver's wqe counter)
 * says how many WQEs are posted; none left: the frame is dropped and the
 * RQ's queue counter's out_of_buffer counts it (ethtool rx_out_of_buffer).
 *
 *  cyclic / linked list: a WQE of data segments (byte_count, lkey, addr);
 *      the frame is scattered over them; one CQE with wqe_counter = the
 *      consumed WQE's counter (cyclic) or index (linked list).
 *  striding (linked list, as mlx5e uses, or cyclic): one data segment of
 *      2^n strides in the UMR mkey's address space; cx_mpwrq_place() puts
 *      the frame at whole strides, or a filler CQE retires the WQE first;
 *      the CQE says wqe_id, first stride and strides consumed.
 *
 * LRO (a TIR with packet_merge_mask, a striding RQ; cx_lro.c): a TCP
 * segment that may be aggregated opens a session on its RQ instead of a
 * CQE: placed whole at the first free stride, the WQE kept.  The next
 * segments of the flow, in order, put their payload right after it, in
 * the strides that follow.  The session closes with one CQE (the first
 * segment's, byte_cnt and the LRO fields the session's) when a frame
 * that does not join arrives (another flow, out of order, not TCP, IP or
 * TCP options, a checksum error: it is then placed as usual), on PSH,
 * when the next segment would pass the TIR's payload limit or the WQE's
 * end, when the WQE is full, or when the TIR's timeout has run on the
 * virtual clock since the session opened (the host timer).  One session
 * per RQ; a segment that qualifies but cannot wait (PSH, the WQE full,
 * no host timer) gets a CQE of one segment at once.
 *
 * Each RX CQE carries the checksum classification, the RSS hash, the
 * flow tag (sop_drop_qpn) and the RQN (flags_rqpn); the outer 802.1Q tag
 * is stripped unless the RQ has vsd.
 */
#include <string.h>

#include "cx_kshim_dp.h"
#include "cx_datapath.h"
#include "cx_dp.h"

#define CX_FS_MAX_DEPTH		16
#define CX_DATA_SEG		16
#define CX_BYTE_COUNT_MASK	0x7fffffffu	/* bit 31: HW start padding */
#define CX_TERMINATE_LKEY	0x100

struct cx_rx_ctx {
	const uint8_t *frame;
	size_t len;
	uint32_t flow_tag;
	struct cx_tir *tir;
};

/*
 * Frame data into the guest through @lkey, counted as RX data.  Through
 * entries a UMR not yet executed would write (the test port holds it):
 * the old translation is used, as hardware does, and counted.
 */
static int cx_rx_write(struct cx_core *core, const struct cx_rq *rq,
		       uint32_t lkey, uint64_t addr, void *buf, size_t len)
{
	enum cx_dma_wpurpose saved = core->dma_wpurpose;
	int r;

	if (cx_umr_pending(core, lkey, addr, len)) {
		core->dp->umr_early_use++;
		cx_model_error(core, CX_MERR_UMR_EARLY_USE,
			       "cxsim: RX through mkey 0x%x at 0x%llx before its UMR completed\n",
			       lkey, (unsigned long long)addr);
	}
	core->dma_wpurpose = CX_DMAW_RX;
	r = cx_mkey_dma(core, rq->wq.pd, lkey, addr, buf, len, true);
	core->dma_wpurpose = saved;
	return r;
}

/* Steering: 0 with ctx->tir set, or -1 (drop). */
static int cx_rx_steer(struct cx_core *core, struct cx_rx_ctx *x)
{
	struct cx_nic *nic = core->func.nic;
	struct cx_fs_spec key;
	struct cx_ft *ft;
	unsigned int depth;

	if (!nic->root_ft || cx_fs_parse_frame(x->frame, x->len, &key))
		return -1;
	ft = cx_ft_lookup(core, nic->root_ft);
	for (depth = 0; ft && depth < CX_FS_MAX_DEPTH; depth++) {
		struct cx_fte *e = cx_fs_match(core, ft, &key);
		struct cx_ft *next = NULL;
		uint32_t i;

		if (!e) {
			ft = ft->miss_action ? cx_ft_lookup(core, ft->miss_id) :
					       NULL;
			continue;
		}
		for (i = 0; i < e->ncounter; i++) {
			struct cx_fc *fc = cx_fc_lookup(core, e->counter[i]);

			if (fc) {
				fc->packets++;
				fc->octets += x->len;
			}
		}
		if (e->action & MLX5_FLOW_CONTEXT_ACTION_DROP)
			return -1;
		if (e->flow_tag)
			x->flow_tag = e->flow_tag;
		if (!(e->action & MLX5_FLOW_CONTEXT_ACTION_FWD_DEST)) {
			/* Allow/count only: on to the next level. */
			ft = ft->miss_action ? cx_ft_lookup(core, ft->miss_id) :
					       NULL;
			continue;
		}
		/* The first destination that exists takes the frame. */
		for (i = 0; i < e->ndest; i++) {
			if (e->dest[i].type == MLX5_IFC_FLOW_DESTINATION_TYPE_TIR) {
				x->tir = cx_tir_lookup(core, e->dest[i].id);
				if (x->tir)
					return 0;
			} else if (e->dest[i].type ==
				   MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE) {
				next = cx_ft_lookup(core, e->dest[i].id);
				if (next)
					break;
			}
		}
		ft = next;
	}
	return -1;
}

static struct cx_rq *cx_rx_pick_rq(struct cx_core *core, struct cx_tir *tir,
				   const uint8_t *frame,
				   const struct cx_pkt *pkt, uint32_t *hash,
				   uint8_t *htype)
{
	struct cx_rss_cfg cfg;
	struct cx_rqt *rqt;

	*hash = 0;
	*htype = 0;
	if (tir->disp_type != MLX5_TIRC_DISP_TYPE_INDIRECT)
		return cx_rq_lookup(core, tir->inline_rqn);
	rqt = cx_rqt_lookup(core, tir->rqtn);
	if (!rqt || !rqt->size || !rqt->rqn)
		return NULL;
	memset(&cfg, 0, sizeof(cfg));
	memcpy(cfg.key, tir->key, CX_RSS_KEY_LEN);
	cfg.l3_prot_type = tir->outer.l3;
	cfg.l4_prot_type = tir->outer.l4;
	cfg.selected_fields = tir->outer.fields;
	cfg.symmetric = tir->symmetric;
	*hash = cx_rss_hash(&cfg, frame, pkt, htype);
	return cx_rq_lookup(core, rqt->rqn[*hash % rqt->size]);
}

static int cx_rq_wqe_addr(const struct cx_rq *rq, uint32_t idx,
			  uint64_t *addr)
{
	uint64_t off = (uint64_t)(idx & ((1u << rq->wq.log_sz) - 1))
		       << rq->wq.log_stride;

	return cx_pas_addr(&rq->wq.pas, off, addr);
}

/*
 * WQEs posted and not consumed, from the doorbell record.  A counter more
 * than a ring ahead names WQEs the ring cannot hold (the driver overwrote
 * ones not yet consumed): as for an SQ doorbell past the ring, the device
 * takes none of them; the frame is dropped and counted (rq.overposted).
 */
static uint16_t cx_rq_avail(struct cx_core *core, struct cx_rq *rq)
{
	uint8_t rec[4];
	uint16_t n;

	if (cx_dma_read_as(core, CX_DMA_DBR, rq->wq.dbr_addr, rec, 4))
		return 0;
	n = (uint16_t)(cx_get_be32(rec) - rq->wqe_cc);
	if (n > (1u << rq->wq.log_sz)) {
		core->dp->rq_overposted++;
		cx_model_error(core, CX_MERR_RQ_OVERPOSTED,
			       "cxsim: RQ 0x%x: counter 0x%x is %u WQEs past the consumer, the ring holds %u\n",
			       rq->rqn, cx_get_be32(rec), n, 1u << rq->wq.log_sz);
		return 0;
	}
	return n;
}

static bool cx_rq_is_ll(const struct cx_rq *rq)
{
	return rq->wq.type == MLX5_WQ_TYPE_LINKED_LIST ||
	       rq->wq.type == MLX5_WQ_TYPE_LINKED_LIST_STRIDING_RQ;
}

static bool cx_rq_is_striding(const struct cx_rq *rq)
{
	return rq->wq.type == MLX5_WQ_TYPE_LINKED_LIST_STRIDING_RQ ||
	       rq->wq.type == MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ;
}

/* Index of the WQE in use. */
static uint16_t cx_rq_cur(const struct cx_rq *rq)
{
	return cx_rq_is_ll(rq) ? rq->ll_cur :
	       (uint16_t)(rq->wqe_cc & ((1u << rq->wq.log_sz) - 1));
}

/* Fetch the WQE in use (at most 1 KiB). */
static int cx_rq_fetch(struct cx_core *core, struct cx_rq *rq, uint8_t *wqe,
		       uint32_t *len)
{
	uint64_t addr;

	*len = 1u << rq->wq.log_stride;
	if (*len > CX_RQ_WQE_MAX)
		return -1;
	/*
	 * Hardware fetches a WQE once and keeps it while frames fill its
	 * strides (or a too-big frame is dropped): read and count it once.
	 */
	if (!rq->fetched || rq->fetched_cc != rq->wqe_cc) {
		if (cx_rq_wqe_addr(rq, cx_rq_cur(rq), &addr) ||
		    cx_dma_read_as(core, CX_DMA_WQE, addr, rq->wqe, *len))
			return -1;
		core->dp->rx_wqe_bytes += *len;
		rq->fetched_cc = rq->wqe_cc;
		rq->fetched = true;
	}
	memcpy(wqe, rq->wqe, *len);
	return 0;
}

static void cx_rq_retire(struct cx_rq *rq, const uint8_t *wqe)
{
	if (cx_rq_is_ll(rq))
		rq->ll_cur = cx_get_be16(wqe + 2) & ((1u << rq->wq.log_sz) - 1);
	rq->wqe_cc++;
	rq->stride_cc = 0;
}

static int cx_rx_cqe(struct cx_core *core, struct cx_rq *rq,
		     const struct cx_cqe_rx *rx)
{
	struct cx_cq *cq = cx_cq_lookup(core, rq->cqn);
	uint8_t img[CX_CQE_SIZE];

	if (!cq)
		return -1;
	cx_cqe_rx(img, cq->prod, cq->log_size, rx);
	if (rx->filler)
		return cx_cq_write(core, cq, img);
	return cx_cq_write_rx(core, cq, img, rx->striding);
}

/* Close @rq's LRO session: its CQE; the WQE retires if full. */
static void cx_lro_flush(struct cx_core *core, struct cx_rq *rq)
{
	struct cx_lro_sess *x = &rq->lro;
	struct cx_cqe_rx rx = rq->lro_rx;
	uint32_t strides = rq->stride_cc - x->stride;

	if (!x->active)
		return;
	x->active = false;
	cx_lro_cqe(x, &rx);
	rx.rc = &rq->lro_rc;
	rx.consumed_strides = (uint16_t)strides;
	rq->strides += strides;
	if (rq->stride_cc >= (1u << rq->wq.log_num_strides))
		cx_rq_retire(rq, rq->wqe);
	core->dp->lro_sessions++;
	core->dp->lro_segs += x->nseg;
	if (!cx_rx_cqe(core, rq, &rx))
		core->dp->cqe_rx++;
}

/* The host timer: sessions whose timeout ran out close. */
void cx_lro_timer(struct cx_core *core)
{
	struct cx_dp *dp = core->dp;
	struct cx_tab *t;
	uint64_t now, next = 0;
	uint32_t i;

	if (!dp || !dp->lro_deadline || !core->func.nic)
		return;
	now = cx_now(core);
	if (now < dp->lro_deadline)
		return;
	t = &core->func.nic->rq;
	for (i = 0; i < t->cap; i++) {
		struct cx_rq *rq = t->slot[i];

		if (!rq || !rq->lro.active)
			continue;
		if (rq->lro.deadline <= now) {
			dp->lro_timeouts++;
			cx_lro_flush(core, rq);
		} else if (!next || rq->lro.deadline < next) {
			next = rq->lro.deadline;
		}
	}
	dp->lro_deadline = next;
	/* cx_core_timer() rearms the host timer after the commands' turn. */
}

/*
 * A segment @s for @rq's open session: 1 when it joined (its payload
 * placed after the session's bytes), 0 when the session closed first
 * (the frame is then placed as usual), -1 on a refused access.
 */
static int cx_lro_join(struct cx_core *core, struct cx_rq *rq,
		       const uint8_t *frame, const struct cx_lro_seg *s,
		       const struct cx_cqe_rx *rx)
{
	struct cx_lro_sess *x = &rq->lro;
	uint32_t ssz = 1u << rq->wq.log_stride_bytes;
	uint32_t num = 1u << rq->wq.log_num_strides;
	uint32_t need = (x->len + s->plen + ssz - 1) / ssz;
	const uint8_t *ds;
	uint64_t addr;

	if (!cx_lro_match(x, s, rx->vlan_stripped, rx->vlan_tci) ||
	    need > num - x->stride) {
		cx_lro_flush(core, rq);
		return 0;
	}
	/* The session's WQE is the one in use, as fetched. */
	ds = rq->wqe + (cx_rq_is_ll(rq) ? CX_DATA_SEG : 0);
	addr = cx_get_be64(ds + 8) + ((uint64_t)x->stride << rq->wq.log_stride_bytes) +
	       x->len;
	if (cx_rx_write(core, rq, cx_get_be32(ds + 4), addr,
			(void *)(frame + s->hlen), s->plen)) {
		x->active = false;
		return -1;
	}
	core->dp->rx_dma_bytes += s->plen;
	cx_lro_append(x, s, frame);
	rq->stride_cc = x->stride + need;
	if (x->psh || rq->stride_cc == num || x->payload >= x->max_payload)
		cx_lro_flush(core, rq);
	return 1;
}

/*
 * A placed frame that qualifies for LRO: open a session (1), or, when it
 * cannot wait, complete it as a session of one segment now (0).
 */
static int cx_lro_open(struct cx_core *core, struct cx_rq *rq,
		       const uint8_t *frame, const struct cx_lro_seg *s,
		       const struct cx_tir *tir, struct cx_cqe_rx *rx,
		       bool wqe_done)
{
	struct cx_lro_sess *x = &rq->lro;
	struct cx_dp *dp = core->dp;

	cx_lro_start(x, s, frame, tir->lro_max_payload);
	x->vlan_stripped = rx->vlan_stripped;
	x->vlan_tci = rx->vlan_tci;
	x->wqe_id = rx->wqe_id;
	x->stride = rx->wqe_counter;
	if (s->psh || wqe_done || !core->host.timer_mod ||
	    !core->host.now_ns) {
		x->active = false;
		cx_lro_cqe(x, rx);
		dp->lro_sessions++;
		dp->lro_segs++;
		return 0;
	}
	rq->lro_rx = *rx;
	rq->lro_rc = *rx->rc;
	x->deadline = cx_now(core) + (uint64_t)tir->lro_timeout_us * 1000;
	if (!dp->lro_deadline || x->deadline < dp->lro_deadline) {
		dp->lro_deadline = x->deadline;
		cx_timer_rearm(core);
	}
	return 1;
}

static void cx_rx_no_wqe(struct cx_core *core, struct cx_rq *rq)
{
	struct cx_qcnt *q = rq->counter_set_id ?
			    cx_qcnt_lookup(core, rq->counter_set_id) : NULL;

	core->dp->rx_drops_no_wqe++;
	rq->drops++;
	if (q)
		q->out_of_buffer++;
}

/*
 * Scatter into a cyclic/linked-list WQE's data segments: 0, -1 (too long
 * for them) or -2 (an access refused: memory protection).
 */
static int cx_rx_scatter(struct cx_core *core, struct cx_rq *rq,
			 const uint8_t *wqe, uint32_t wqe_len,
			 const uint8_t *frame, size_t len)
{
	uint32_t off = cx_rq_is_ll(rq) ? CX_DATA_SEG : 0;
	size_t done = 0;

	for (; off + CX_DATA_SEG <= wqe_len && done < len; off += CX_DATA_SEG) {
		uint32_t bc = cx_get_be32(wqe + off) & CX_BYTE_COUNT_MASK;
		uint32_t lkey = cx_get_be32(wqe + off + 4);
		uint64_t addr = cx_get_be64(wqe + off + 8);
		size_t n;

		if (lkey == CX_TERMINATE_LKEY || !bc)
			break;
		n = len - done < bc ? len - done : bc;
		if (cx_rx_write(core, rq, lkey, addr, (void *)(frame + done), n))
			return -2;
		done += n;
	}
	return done == len ? 0 : -1;
}

/*
 * An RX error: the WQE is consumed with an error CQE of @syndrome and the
 * RQ goes to the error state.  The frame is lost (-1).  On a striding RQ
 * the CQE also names the WQE (wqe_id, bytes 2-3, reserved in the error
 * CQE layout of other queues).  The test port's injected one has
 * LOCAL_LENGTH_ERR; a data access memory protection refused,
 * LOCAL_PROT_ERR.
 */
static int cx_rx_err(struct cx_core *core, struct cx_rq *rq,
		     const uint8_t *wqe, uint16_t wqe_counter,
		     uint16_t wqe_id, uint8_t syndrome)
{
	struct cx_cq *cq = cx_cq_lookup(core, rq->cqn);
	uint8_t img[CX_CQE_SIZE];

	if (syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR) {
		core->dp->rx_prot_err++;
	} else {
		core->faults.err_cqe_rqn = 0;
		core->dp->rq_err_injected++;
	}
	cx_rq_retire(rq, wqe);
	rq->state = MLX5_RQC_STATE_ERR;
	rq->drops++;
	if (syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR)
		cx_model_error(core, CX_MERR_RQ_ERROR_CQE,
			       "cxsim: RQ 0x%x: data access refused (memory protection), RQ in error\n",
			       rq->rqn);
	else
		cx_log(core, "cxsim: RQ 0x%x: injected error CQE, RQ in error\n",
		       rq->rqn);
	if (cq) {
		cx_cqe_rx_err(img, cq->prod, cq->log_size, syndrome,
			      wqe_counter, rq->rqn);
		if (cx_rq_is_striding(rq))
			cx_put_be16(img + 2, wqe_id);
		cx_cq_write(core, cq, img);
	}
	return -1;
}

/*
 * The test port's BAD_RX_CQE: the striding CQE about to be written names
 * the next WQE or the next stride; the legacy one counts 64 KiB more
 * bytes.  One-shot.
 */
static void cx_rx_bad_cqe(struct cx_core *core, const struct cx_rq *rq,
			  struct cx_cqe_rx *rx)
{
	switch (cx_dp_bad_rx_cqe(core, rq->rqn)) {
	case CX_TP_BAD_CQE_WQE_ID:
		if (!rx->striding)
			return;
		rx->wqe_id = (uint16_t)((rx->wqe_id + 1) &
					((1u << rq->wq.log_sz) - 1));
		break;
	case CX_TP_BAD_CQE_STRIDE:
		if (!rx->striding)
			return;
		rx->wqe_counter++;
		break;
	case CX_TP_BAD_CQE_BYTE_CNT:
		if (rx->striding)
			return;
		rx->byte_cnt += 0x10000;
		break;
	default:
		return;
	}
	cx_dp_bad_rx_cqe_taken(core);
	cx_log(core, "cxsim: RQ 0x%x: injected malformed CQE (wqe_id %u stride %u bytes %u)\n",
	       rq->rqn, rx->wqe_id, rx->wqe_counter, rx->byte_cnt);
}

/*
 * Returns 0 when the frame was placed (a CQE written), 1 when it went
 * into an LRO session (@seg: how LRO sees it, @tir: its TIR), else -1.
 */
static int cx_rx_to_rq(struct cx_core *core, struct cx_rq *rq,
		       const uint8_t *frame, size_t len,
		       struct cx_cqe_rx *rx, const struct cx_lro_seg *seg,
		       const struct cx_tir *tir)
{
	struct cx_dp *dp = core->dp;
	uint8_t wqe[1024];
	uint32_t wqe_len;
	unsigned int tries;

	if (rq->state != MLX5_RQC_STATE_RDY) {
		dp->rx_drops_other++;
		return -1;
	}
	if (!cx_rq_is_striding(rq)) {
		if (!cx_rq_avail(core, rq)) {
			cx_rx_no_wqe(core, rq);
			return -1;
		}
		if (cx_rq_fetch(core, rq, wqe, &wqe_len)) {
			dp->rx_drops_other++;
			return -1;
		}
		rx->wqe_counter = cx_rq_is_ll(rq) ? cx_rq_cur(rq) :
			(uint16_t)rq->wqe_cc;
		if (core->faults.err_cqe_rqn &&
		    (core->faults.err_cqe_rqn == rq->rqn ||
		     core->faults.err_cqe_rqn == CX_TP_ANY_RQ))
			return cx_rx_err(core, rq, wqe, rx->wqe_counter, 0,
					 MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
		switch (cx_rx_scatter(core, rq, wqe, wqe_len, frame, len)) {
		case 0:
			break;
		case -2:
			return cx_rx_err(core, rq, wqe, rx->wqe_counter, 0,
					 MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
		default:
			/* Too long for the WQE: dropped, the WQE stays. */
			dp->rx_drops_too_big++;
			rq->drops++;
			return -1;
		}
		dp->rx_dma_bytes += len;
		cx_rq_retire(rq, wqe);
		cx_rx_bad_cqe(core, rq, rx);
		return cx_rx_cqe(core, rq, rx);
	}

	if (rq->lro.active) {
		int r = seg->ok ? cx_lro_join(core, rq, frame, seg, rx) : 0;

		if (!seg->ok)
			cx_lro_flush(core, rq);
		if (r > 0)
			return 1;
		if (r < 0)
			return cx_rx_err(core, rq, rq->wqe, (uint16_t)rq->stride_cc,
					 cx_rq_cur(rq),
					 MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	}
	/* Striding: at most one filler before the frame fits a fresh WQE. */
	for (tries = 0; tries < 3; tries++) {
		struct cx_mpwrq_geom g = {
			.log_num_strides = rq->wq.log_num_strides,
			.log_stride_sz = rq->wq.log_stride_bytes,
		};
		struct cx_mpwrq_place p;
		uint16_t cur;
		uint32_t lkey;
		uint64_t addr;

		if (!cx_rq_avail(core, rq)) {
			cx_rx_no_wqe(core, rq);
			return -1;
		}
		if (cx_rq_fetch(core, rq, wqe, &wqe_len) ||
		    wqe_len < CX_DATA_SEG * (cx_rq_is_ll(rq) ? 2 : 1)) {
			dp->rx_drops_other++;
			return -1;
		}
		cur = cx_rq_cur(rq);
		if (core->faults.err_cqe_rqn &&
		    (core->faults.err_cqe_rqn == rq->rqn ||
		     core->faults.err_cqe_rqn == CX_TP_ANY_RQ))
			return cx_rx_err(core, rq, wqe, (uint16_t)rq->stride_cc,
					 cur, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
		{
			const uint8_t *ds = wqe + (cx_rq_is_ll(rq) ? CX_DATA_SEG : 0);

			lkey = cx_get_be32(ds + 4);
			addr = cx_get_be64(ds + 8);
		}
		switch (cx_mpwrq_place(&g, rq->stride_cc, (uint32_t)len, &p)) {
		case CX_MPWRQ_FILLER: {
			struct cx_cqe_rx f = {
				.striding = true,
				.filler = true,
				.consumed_strides = (uint16_t)p.strides,
				.wqe_counter = (uint16_t)p.stride,
				.wqe_id = cur,
				.rqn = rq->rqn,
			};

			rq->stride_cc += p.strides;
			rq->filler_strides += p.strides;
			cx_rx_bad_cqe(core, rq, &f);
			if (!cx_rx_cqe(core, rq, &f))
				dp->cqe_filler++;
			if (p.wqe_done)
				cx_rq_retire(rq, wqe);
			continue;
		}
		case CX_MPWRQ_PLACED:
			if (cx_rx_write(core, rq, lkey, addr + p.offset,
					(void *)frame, len))
				return cx_rx_err(core, rq, wqe,
						 (uint16_t)rq->stride_cc, cur,
						 MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
			dp->rx_dma_bytes += len;
			rx->striding = true;
			rx->consumed_strides = (uint16_t)p.strides;
			rx->wqe_counter = (uint16_t)p.stride;
			rx->wqe_id = cur;
			rq->stride_cc += p.strides;
			if (seg->ok &&
			    cx_lro_open(core, rq, frame, seg, tir, rx, p.wqe_done))
				return 1;
			rq->strides += p.strides;
			if (p.wqe_done)
				cx_rq_retire(rq, wqe);
			cx_rx_bad_cqe(core, rq, rx);
			return cx_rx_cqe(core, rq, rx);
		default:
			dp->rx_drops_too_big++;
			rq->drops++;
			return -1;
		}
	}
	dp->rx_drops_other++;
	return -1;
}

static void cx_rx_count_vport(struct cx_core *core, const uint8_t *frame,
			      size_t len)
{
	static const uint8_t ff[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct cx_vport_counters *v = &core->func.nic->vcnt;

	if (!memcmp(frame, ff, 6)) {
		v->rx_bcast_pkts++;
		v->rx_bcast_bytes += len;
		core->dp->rx_bcast++;
	} else if (frame[0] & 1) {
		v->rx_mcast_pkts++;
		v->rx_mcast_bytes += len;
		core->dp->rx_mcast++;
	} else {
		v->rx_ucast_pkts++;
		v->rx_ucast_bytes += len;
	}
}

size_t cx_rx_frame(struct cx_core *core, const void *buf, size_t len)
{
	struct cx_dp *dp = cx_dp_get(core);
	struct cx_rx_ctx x = { .frame = buf, .len = len };
	struct cx_rx_class rc;
	struct cx_lro_seg seg;
	struct cx_cqe_rx rx;
	struct cx_pkt pkt;
	int r;
	struct cx_rq *rq;
	uint8_t *frame;
	size_t flen = len;
	uint16_t tci = 0;
	bool stripped = false;

	cx_pcie_break(core);
	core->stats.rx_frames++;
	if (!dp) {
		core->stats.rx_drops++;
		return len;
	}
	if (!cx_dp_link_up(core)) {
		dp->rx_drops_link++;
		core->stats.rx_drops++;
		return len;
	}
	if (cx_frame_over_mtu(core, len)) {
		/* The MAC drops it before any steering. */
		core->func.nic->port.rx_oversize++;
		core->stats.rx_drops++;
		return len;
	}
	if (len < CX_ETH_HLEN || len > CX_DP_RXBUF) {
		dp->rx_drops_other++;
		core->stats.rx_drops++;
		return len;
	}
	/* Received OK: the port counts it, steered or not. */
	cx_port_count(&core->func.nic->port.rx, buf, len);
	if (cx_rx_steer(core, &x)) {
		dp->rx_drops_steering++;
		core->stats.rx_drops++;
		return len;
	}
	cx_rx_count_vport(core, buf, len);
	memcpy(dp->rxbuf, buf, len);
	frame = dp->rxbuf;
	cx_pkt_parse(frame, flen, &pkt);
	memset(&rx, 0, sizeof(rx));
	rq = cx_rx_pick_rq(core, x.tir, frame, &pkt, &rx.rss_hash,
			   &rx.rss_hash_type);
	if (!rq) {
		dp->rx_drops_steering++;
		core->stats.rx_drops++;
		return len;
	}
	if (!rq->vsd)
		stripped = cx_rx_vlan_strip(frame, &flen, &tci);
	cx_rx_classify_tun(frame, flen, false, &core->func.nic->tun, &rc);
	rx.byte_cnt = (uint32_t)flen;
	rx.rqn = rq->rqn;
	rx.flow_tag = x.flow_tag;
	rx.rc = &rc;
	rx.vlan_stripped = stripped;
	rx.vlan_tci = tci;
	rx.timestamp = cx_now(core);
	memset(&seg, 0, sizeof(seg));
	if (x.tir->lro_mask && cx_rq_is_striding(rq))
		cx_lro_parse(frame, flen, &rc, x.tir->lro_mask, &seg);
	r = cx_rx_to_rq(core, rq, frame, flen, &rx, &seg, x.tir);
	if (r < 0) {
		core->stats.rx_drops++;
		return len;
	}
	rq->packets++;
	if (!r)
		dp->cqe_rx++;
	dp->rx_packets++;
	dp->rx_bytes += len;
	return len;
}
