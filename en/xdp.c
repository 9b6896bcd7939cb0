// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XDP (native mode) on the legacy RQ, and the XDP send queue.
 *
 * The program runs on each linear receive buffer before an SKB is built:
 * the buffer is a page_pool fragment with XDP_PACKET_HEADROOM before the
 * frame and skb_shared_info room after it, several to a page (see
 * params_rx.c). XDP_PASS builds the SKB from what the program left;
 * XDP_DROP and XDP_ABORTED leave the fragment to the RQ, which returns it
 * to the pool; XDP_TX posts it on the channel's XDP SQ and returns it to
 * the pool when the send completes; XDP_REDIRECT hands it to
 * xdp_do_redirect() as a page_pool frame, flushed at the end of the poll.
 *
 * Every channel has an XDP SQ, a program attached or not: XDP_TX posts
 * on it from the channel's NAPI while a program runs there, and
 * ndo_xdp_xmit (frames other devices redirect to us) always, so that the
 * netdev is a redirect target (NDO_XMIT) with no program of its own, as
 * upstream's. With xdp_tx_mpwqe (on
 * where the device has enhanced MPWQE) frames share Enhanced MPWQE
 * sessions built with the TX SQ's helpers (txrx.h): one control and one
 * Ethernet segment, a data segment per frame; a session opens on the
 * first frame and is closed when full, when the next frame's Ethernet
 * segment would differ, and before each doorbell. Without it, or when the
 * device's minimum inline mode asks for the L2 header in the Ethernet
 * segment (an MPWQE inlines none), each frame is a one-WQEBB SEND. Every
 * WQE asks for a completion, which frees each of its frames: XDP_TX pages
 * back to their page_pool, ndo_xdp_xmit frames unmapped and returned.
 * XDP_TX rings the doorbell once per NAPI poll; ndo_xdp_xmit (frames
 * other devices redirect to us) posts on the XDP SQ of the CPU's channel
 * under the SQ's lock and rings once per call with XDP_XMIT_FLUSH.
 *
 * An error CQE stops posting and hands the SQ to the devlink health
 * reporter "tx" (en/reporter_tx.c), which recovers it as a TX SQ:
 * ERR -> RST -> RDY, every frame still posted returned.
 *
 * Attaching or detaching a program rebuilds the channels (the page pool
 * maps pages bidirectionally and headroom grows for XDP); replacing one
 * program by another swaps the RQs' pointers under RCU.
 */
#include <linux/bpf_trace.h>
#include <linux/filter.h>
#include <net/page_pool/helpers.h>
#include <net/xdp_sock_drv.h>
#include <trace/events/xdp.h>

#include "xdp.h"
#include "params.h"
#include "txrx.h"

/* CQE opcodes (PRM) of the send side. */
#define MLX5E_CQE_REQ_ERR	0xd

#define MLX5E_XDPSQ_POLL_BUDGET	128

/**
 * struct mlx5e_xdp_post_stats - a poster's counters of what it posts
 * @syncp: their sync
 * @mpwqe: MPWQE sessions it opened
 * @inlnw: frames it copied into a session's WQE
 */
struct mlx5e_xdp_post_stats {
	struct u64_stats_sync *syncp;
	u64_stats_t *mpwqe;
	u64_stats_t *inlnw;
};

/* A frame the SQ did not take, in its poster's counters. */
static void mlx5e_xdp_refused(struct u64_stats_sync *syncp, int err,
			      u64_stats_t *full, u64_stats_t *errs)
{
	mlx5e_stats_add(syncp, err == -ENOSPC ? full : errs, 1);
}

/*
 * An error completion or a recovery, from NAPI or the recovery work: the
 * ndo_xdp_xmit SQ's counters are written by posters on any CPU, under the
 * lock.
 */
static void mlx5e_xdpsq_stat_add(struct mlx5e_xdpsq *sq, u64_stats_t *c,
				 u32 n)
{
	spin_lock_bh(&sq->lock);
	mlx5e_stats_add(sq->err_syncp, c, n);
	spin_unlock_bh(&sq->lock);
}

static void mlx5e_xdpsq_stat(struct mlx5e_xdpsq *sq, u64_stats_t *c)
{
	mlx5e_xdpsq_stat_add(sq, c, 1);
}

/* ---- the XDP send queue: posting ------------------------------------ */

/* Free WQEBBs of the ring (producer side's view). */
static u16 mlx5e_xdpsq_room(const struct mlx5e_xdpsq *sq)
{
	return mlx5_wq_cyc_size(&sq->wq) - (u16)(sq->pc - READ_ONCE(sq->cc));
}

static void mlx5e_xdpsq_push_frame(struct mlx5e_xdpsq *sq,
				   const struct mlx5e_xdp_info *info)
{
	sq->fifo[sq->fifo_pc++ & sq->fifo_mask] = *info;
}

/*
 * The WQE at the producer index is posted: it owns @frames frames. It
 * asks for no completion: the last WQE before the doorbell does, for all
 * (mlx5e_xdpsq_ring()).
 */
static void mlx5e_xdpsq_posted(struct mlx5e_xdpsq *sq,
			       struct mlx5e_wqe_ctrl_seg *ctrl, u8 wqebbs,
			       u8 frames)
{
	sq->wqe_info[mlx5_wq_cyc_ctr2ix(&sq->wq, sq->pc)] =
		(struct mlx5e_xdp_wqe_info) {
			.num_wqebbs = wqebbs,
			.num_frames = frames,
		};
	sq->db_ctrl = ctrl;
	sq->pc += wqebbs;
}

/* Close the open MPWQE session, if any: it is posted, not rung. */
static void mlx5e_xdpsq_mpwqe_close(struct mlx5e_xdpsq *sq)
{
	struct mlx5e_tx_mpwqe *s = &sq->mpwqe;
	struct mlx5e_wqe_ctrl_seg *ctrl;

	if (!mlx5e_mpwqe_is_open(s))
		return;
	ctrl = mlx5e_mpwqe_close(s, sq->pc, sq->qpn_be);
	mlx5e_xdpsq_posted(sq, ctrl, mlx5e_mpwqe_wqebbs(s), s->pkts);
}

/*
 * Whether the session opening now inlines small frames: on once the
 * device owes completions for MLX5E_XDP_INLINE_WATERMARK_HIGH frames or
 * more, off again at MLX5E_XDP_INLINE_WATERMARK_LOW or fewer. Only the
 * SQ's poster (its lock, or its NAPI) moves it; the completion side's
 * counter is read as it stands.
 */
static void mlx5e_xdpsq_update_inline(struct mlx5e_xdpsq *sq)
{
	u32 outstanding = sq->fifo_pc - READ_ONCE(sq->fifo_cc);

	if (sq->mpwqe_inline)
		sq->mpwqe_inline = outstanding > MLX5E_XDP_INLINE_WATERMARK_LOW;
	else
		sq->mpwqe_inline = outstanding >= MLX5E_XDP_INLINE_WATERMARK_HIGH;
}

/**
 * mlx5e_xdpsq_post_mpwqe() - one frame into the SQ's MPWQE session
 * @sq: the XDP SQ, its lock held
 * @dma: bus address of the frame
 * @data: the frame
 * @len: its bytes
 * @info: what the session owns for it until it completes
 * @st: the poster's counters
 *
 * A session opens on the first frame (when the ring has room for the
 * largest one), takes frames while their Ethernet segments are the same
 * (an XDP frame asks for no offload: always), and is closed when full,
 * before a frame that cannot join, and before the doorbell. While the
 * device is behind (mlx5e_xdpsq_update_inline()) a frame of up to
 * MLX5E_XDP_INLINE_MAX bytes is copied into the WQE when the session has
 * room for it, else it takes a data segment as any other.
 *
 * Return: 0, or -ENOSPC when the SQ is full.
 */
static int mlx5e_xdpsq_post_mpwqe(struct mlx5e_xdpsq *sq, dma_addr_t dma,
				  const void *data, u32 len,
				  const struct mlx5e_xdp_info *info,
				  const struct mlx5e_xdp_post_stats *st)
{
	static const struct mlx5e_wqe_eth_seg eseg = {};
	struct mlx5e_tx_mpwqe *s = &sq->mpwqe;

	if (mlx5e_mpwqe_is_open(s) && !mlx5e_mpwqe_same_eseg(s, &eseg))
		mlx5e_xdpsq_mpwqe_close(sq);
	if (!mlx5e_mpwqe_is_open(s)) {
		if (unlikely(mlx5e_xdpsq_room(sq) <
			     mlx5e_mpwqe_max_wqebbs(&sq->wq, sq->pc,
						    sq->max_mpw_ds)))
			return -ENOSPC;
		mlx5e_xdpsq_update_inline(sq);
		mlx5e_mpwqe_open(s, &sq->wq, sq->pc, sq->max_mpw_ds, &eseg);
		mlx5e_stats_add(st->syncp, st->mpwqe, 1);
	}
	mlx5e_xdpsq_push_frame(sq, info);
	if (sq->mpwqe_inline && len <= MLX5E_XDP_INLINE_MAX &&
	    mlx5e_mpwqe_inline_fits(s, len)) {
		mlx5e_mpwqe_add_inline(s, data, len);
		mlx5e_stats_add(st->syncp, st->inlnw, 1);
	} else {
		mlx5e_mpwqe_add_dseg(s, dma, len, sq->mkey_be, len);
	}
	if (mlx5e_mpwqe_is_full(s))
		mlx5e_xdpsq_mpwqe_close(sq);
	return 0;
}

/**
 * mlx5e_xdpsq_post_send() - one frame as a SEND WQE of its own
 * @sq: the XDP SQ, its lock held
 * @dma: bus address of the frame
 * @data: the frame
 * @len: its bytes
 * @info: what the WQE owns until it completes
 *
 * One WQEBB: control, Ethernet segment with the L2 header inline when the
 * SQ's minimum inline mode asks for it, one data segment.
 *
 * Return: 0, -ENOSPC when the SQ is full, -EINVAL when the frame is too
 * short to inline.
 */
static int mlx5e_xdpsq_post_send(struct mlx5e_xdpsq *sq, dma_addr_t dma,
				 void *data, u32 len,
				 const struct mlx5e_xdp_info *info)
{
	struct mlx5e_wqe_data_seg *dseg;
	struct mlx5e_tx_wqe *wqe;
	u16 ihs = 0, ds_cnt;

	mlx5e_xdpsq_mpwqe_close(sq);
	if (unlikely(!mlx5e_xdpsq_room(sq)))
		return -ENOSPC;
	if (sq->min_inline_mode != MLX5_INLINE_MODE_NONE) {
		ihs = MLX5E_XDP_MIN_INLINE;
		if (unlikely(len <= ihs))
			return -EINVAL;
	}

	wqe = mlx5_wq_cyc_get_wqe(&sq->wq, mlx5_wq_cyc_ctr2ix(&sq->wq, sq->pc));
	memset(wqe, 0, MLX5E_SEND_WQE_BB);
	dseg = wqe->data;
	if (ihs) {
		wqe->eth.inline_hdr_sz = cpu_to_be16(ihs);
		unsafe_memcpy(wqe->eth.inline_hdr, data, ihs,
			      /* the headers run on into the next segment */);
		dseg++;
	}
	dseg->addr = cpu_to_be64(dma + ihs);
	dseg->byte_count = cpu_to_be32(len - ihs);
	dseg->lkey = sq->mkey_be;

	ds_cnt = (sizeof(struct mlx5e_tx_wqe) + (ihs ? MLX5E_SEND_WQE_DS : 0)) /
		 MLX5E_SEND_WQE_DS + 1;
	wqe->ctrl.opmod_idx_opcode = cpu_to_be32((u32)sq->pc << 8 |
						 MLX5E_OPCODE_SEND);
	wqe->ctrl.qpn_ds = sq->qpn_be | cpu_to_be32(ds_cnt);

	mlx5e_xdpsq_push_frame(sq, info);
	mlx5e_xdpsq_posted(sq, &wqe->ctrl, 1, 1);
	return 0;
}

/* The bus address of fragment @i of @sg. */
static dma_addr_t mlx5e_xdp_sg_frag_dma(const struct mlx5e_xdp_sg *sg, u8 i)
{
	const skb_frag_t *frag = &sg->sinfo->frags[i];

	if (sg->frag_dma)
		return sg->frag_dma[i];
	return page_pool_get_dma_addr(skb_frag_page(frag)) + skb_frag_off(frag);
}

/* What the WQE of @sg owns until it completes, into the frame fifo: each
 * page_pool reference (XDP_TX), or each fragment's mapping and then the
 * frame (ndo_xdp_xmit), which the frame's completion returns.
 */
static void mlx5e_xdpsq_push_sg(struct mlx5e_xdpsq *sq,
				const struct mlx5e_xdp_sg *sg)
{
	const skb_frag_t *frags = sg->sinfo->frags;
	struct mlx5e_xdp_info info;
	u8 i;

	if (!sg->frame) {
		info = (struct mlx5e_xdp_info) {
			.mode = MLX5E_XDP_INFO_PAGE,
			.page = virt_to_head_page(sg->data),
		};
		mlx5e_xdpsq_push_frame(sq, &info);
		for (i = 0; i < sg->sinfo->nr_frags; i++) {
			info.page = skb_frag_page(&frags[i]);
			mlx5e_xdpsq_push_frame(sq, &info);
		}
		return;
	}
	info = (struct mlx5e_xdp_info) { .mode = MLX5E_XDP_INFO_UNMAP };
	for (i = 0; i < sg->sinfo->nr_frags; i++) {
		info.dma = sg->frag_dma[i];
		info.len = skb_frag_size(&frags[i]);
		mlx5e_xdpsq_push_frame(sq, &info);
	}
	info = (struct mlx5e_xdp_info) {
		.mode = MLX5E_XDP_INFO_FRAME,
		.frame = sg->frame,
		.dma = sg->dma,
		.len = sg->len,
	};
	mlx5e_xdpsq_push_frame(sq, &info);
}

/**
 * mlx5e_xdpsq_post_sg() - one multi-buffer frame as a SEND WQE of its own
 * @sq: the XDP SQ, its lock held
 * @sg: the frame: its linear part (headers inlined when the SQ's minimum
 *	inline mode asks for it) and one fragment or more
 *
 * Never inside an MPWQE session (one data segment per frame there): the
 * open session is closed first. Control, Ethernet segment, one data
 * segment per buffer, over as many WQEBBs as that takes; NOPs pad the
 * ring end before it when it would wrap. The completion frees every
 * buffer.
 *
 * Return: 0, -ENOSPC when the SQ is full or recovering, -EINVAL when the
 * frame has more buffers than the device's largest WQE can take or its
 * linear part is too short to inline.
 */
static int mlx5e_xdpsq_post_sg(struct mlx5e_xdpsq *sq,
			       const struct mlx5e_xdp_sg *sg)
{
	u16 ihs = 0, ds_cnt, wqebbs, contig, pi;
	u8 i, n = sg->sinfo->nr_frags + 1;
	struct mlx5e_wqe_data_seg *dseg;
	struct mlx5e_tx_wqe *wqe;

	if (unlikely(test_bit(MLX5E_XDPSQ_STATE_RECOVERING, &sq->state)))
		return -ENOSPC;
	mlx5e_xdpsq_mpwqe_close(sq);
	if (sq->min_inline_mode != MLX5_INLINE_MODE_NONE) {
		ihs = MLX5E_XDP_MIN_INLINE;
		if (unlikely(sg->len <= ihs))
			return -EINVAL;
	}
	ds_cnt = sizeof(struct mlx5e_tx_wqe) / MLX5E_SEND_WQE_DS +
		 (ihs ? 1 : 0) + n;
	if (unlikely(ds_cnt > sq->max_mpw_ds))
		return -EINVAL;
	wqebbs = DIV_ROUND_UP(ds_cnt, MLX5E_WQEBB_NUM_DS);
	pi = mlx5_wq_cyc_ctr2ix(&sq->wq, sq->pc);
	contig = mlx5_wq_cyc_contig_to_end(&sq->wq, pi);
	if (contig >= wqebbs)
		contig = 0;
	if (unlikely(mlx5e_xdpsq_room(sq) < contig + wqebbs))
		return -ENOSPC;
	/* A WQE never wraps: NOPs, completed with the WQE after them. */
	while (contig--) {
		mlx5e_nop_ctrl(&sq->wq, sq->pc, sq->qpn_be);
		sq->wqe_info[mlx5_wq_cyc_ctr2ix(&sq->wq, sq->pc)] =
			(struct mlx5e_xdp_wqe_info) { .num_wqebbs = 1 };
		sq->pc++;
	}

	wqe = mlx5_wq_cyc_get_wqe(&sq->wq, mlx5_wq_cyc_ctr2ix(&sq->wq, sq->pc));
	memset(wqe, 0, (size_t)wqebbs * MLX5E_SEND_WQE_BB);
	dseg = wqe->data;
	if (ihs) {
		wqe->eth.inline_hdr_sz = cpu_to_be16(ihs);
		unsafe_memcpy(wqe->eth.inline_hdr, sg->data, ihs,
			      /* the headers run on into the next segment */);
		dseg++;
	}
	dseg->addr = cpu_to_be64(sg->dma + ihs);
	dseg->byte_count = cpu_to_be32(sg->len - ihs);
	dseg->lkey = sq->mkey_be;
	for (i = 0; i + 1 < n; i++) {
		dseg++;
		dseg->addr = cpu_to_be64(mlx5e_xdp_sg_frag_dma(sg, i));
		dseg->byte_count =
			cpu_to_be32(skb_frag_size(&sg->sinfo->frags[i]));
		dseg->lkey = sq->mkey_be;
	}
	mlx5e_xdpsq_push_sg(sq, sg);
	wqe->ctrl.opmod_idx_opcode = cpu_to_be32((u32)sq->pc << 8 |
						 MLX5E_OPCODE_SEND);
	wqe->ctrl.qpn_ds = sq->qpn_be | cpu_to_be32(ds_cnt);
	mlx5e_xdpsq_posted(sq, &wqe->ctrl, wqebbs, n);
	return 0;
}

/**
 * mlx5e_xdpsq_post() - post one frame, the doorbell left for later
 * @sq: the XDP SQ, its lock held
 * @dma: bus address of the frame
 * @data: the frame
 * @len: its bytes
 * @info: what the SQ owns for it until it completes
 * @st: the poster's counters
 *
 * Return: 0, -ENOSPC when the SQ is full or recovering, -EINVAL when it
 * cannot take the frame.
 */
static int mlx5e_xdpsq_post(struct mlx5e_xdpsq *sq, dma_addr_t dma,
			    void *data, u32 len,
			    const struct mlx5e_xdp_info *info,
			    const struct mlx5e_xdp_post_stats *st)
{
	if (unlikely(test_bit(MLX5E_XDPSQ_STATE_RECOVERING, &sq->state)))
		return -ENOSPC;
	if (test_bit(MLX5E_XDPSQ_STATE_MPWQE, &sq->state))
		return mlx5e_xdpsq_post_mpwqe(sq, dma, data, len, info, st);
	return mlx5e_xdpsq_post_send(sq, dma, data, len, info);
}

/*
 * Close the open session and ring the doorbell for what was posted since
 * the last one (none on an SQ in recovery: it is not ready). The last WQE
 * asks for the one completion of them all: a CQE completes every WQE up
 * to the one it names.
 */
static void mlx5e_xdpsq_ring(struct mlx5e_xdpsq *sq)
{
	/* Recovery owns the ring, and returns what it holds. */
	if (test_bit(MLX5E_XDPSQ_STATE_RECOVERING, &sq->state))
		return;
	mlx5e_xdpsq_mpwqe_close(sq);
	if (!sq->db_ctrl)
		return;
	sq->db_ctrl->fm_ce_se |= MLX5E_WQE_CTRL_CQ_UPDATE;
	mlx5e_ring_sq_db(&sq->wq, sq->pc, sq->db_ctrl, sq->uar_reg);
	sq->db_ctrl = NULL;
}

/**
 * mlx5e_xdpsq_set_mpwqe() - switch the SQ between MPWQE and SEND WQEs
 * @sq: the XDP SQ, its channel active
 * @on: xdp_tx_mpwqe
 *
 * Under traffic: the open session is closed and rung first, and the two
 * layouts complete alike. A minimum inline mode keeps SEND WQEs: an
 * MPWQE's Ethernet segment inlines nothing.
 *
 * The XDP_TX SQ has no lock to take against its NAPI: the bit flips
 * between two of its frames, and the next one closes the session (a SEND)
 * or opens one; NAPI rings at the end of each poll.
 */
void mlx5e_xdpsq_set_mpwqe(struct mlx5e_xdpsq *sq, bool on)
{
	bool mpwqe = on && sq->min_inline_mode == MLX5_INLINE_MODE_NONE;

	if (sq->lockless) {
		assign_bit(MLX5E_XDPSQ_STATE_MPWQE, &sq->state, mpwqe);
		return;
	}
	spin_lock_bh(&sq->lock);
	mlx5e_xdpsq_ring(sq);
	assign_bit(MLX5E_XDPSQ_STATE_MPWQE, &sq->state, mpwqe);
	spin_unlock_bh(&sq->lock);
}

/* ---- the XDP send queue: completions -------------------------------- */

/*
 * One posted buffer's release. Frames go back in bulk (@bq, flushed by
 * the caller, under rcu_read_lock()): a run of redirected page_pool
 * frames returns to their pool in one call.
 */
static void mlx5e_xdpsq_free_info(struct mlx5e_xdpsq *sq,
				  struct mlx5e_xdp_info *info,
				  struct xdp_frame_bulk *bq, bool napi)
{
	if (info->mode == MLX5E_XDP_INFO_PAGE) {
		page_pool_put_full_page(info->page->pp, info->page, napi);
	} else if (info->mode == MLX5E_XDP_INFO_XSK) {
		sq->xsk_done++;
	} else if (info->mode == MLX5E_XDP_INFO_UNMAP) {
		dma_unmap_page(sq->pdev, info->dma, info->len, DMA_TO_DEVICE);
	} else {
		dma_unmap_single(sq->pdev, info->dma, info->len, DMA_TO_DEVICE);
		xdp_return_frame_bulk(info->frame, bq);
	}
}

/* Release the frames of the WQE at @cc. Return: the counter past it. */
static u16 mlx5e_xdpsq_complete_wqe(struct mlx5e_xdpsq *sq, u16 cc,
				    struct xdp_frame_bulk *bq, bool napi)
{
	struct mlx5e_xdp_wqe_info *wi;
	u32 fifo_cc = sq->fifo_cc;
	u8 i;

	wi = &sq->wqe_info[mlx5_wq_cyc_ctr2ix(&sq->wq, cc)];
	for (i = 0; i < wi->num_frames; i++)
		mlx5e_xdpsq_free_info(sq, &sq->fifo[fifo_cc++ & sq->fifo_mask],
				      bq, napi);
	/* ndo_xdp_xmit reads it on another CPU (its inline state). */
	WRITE_ONCE(sq->fifo_cc, fifo_cc);
	return cc + wi->num_wqebbs;
}

/* Completions, in NAPI (@napi) or with NAPI off (recovery). */
static bool mlx5e_xdpsq_poll(struct mlx5e_xdpsq *sq, bool napi)
{
	struct mlx5_cqwq *cqwq = &sq->cq.wq;
	struct xdp_frame_bulk bq;
	struct mlx5_cqe64 *cqe;
	u16 cc = sq->cc;
	int n = 0;

	xdp_frame_bulk_init(&bq);
	rcu_read_lock(); /* xdp_return_frame_bulk() */

	while (n < MLX5E_XDPSQ_POLL_BUDGET && (cqe = mlx5_cqwq_get_cqe(cqwq))) {
		u16 last = be16_to_cpu(cqe->wqe_counter);
		/* Posted before the device completed it: the WQE is there. */
		u16 pc = READ_ONCE(sq->pc);

		mlx5_cqwq_pop(cqwq);
		n++;
		if (unlikely(get_cqe_opcode(cqe) == MLX5E_CQE_REQ_ERR)) {
			mlx5e_xdpsq_stat(sq, sq->err_stat);
			if (test_bit(MLX5E_XDPSQ_STATE_ENABLED, &sq->state) &&
			    !test_and_set_bit(MLX5E_XDPSQ_STATE_RECOVERING,
					      &sq->state))
				queue_work(sq->ch->priv->wq, &sq->recover_work);
		}
		while (cc != pc) {
			bool done = cc == last;

			cc = mlx5e_xdpsq_complete_wqe(sq, cc, &bq, napi);
			if (done)
				break;
		}
	}
	xdp_flush_frame_bulk(&bq);
	rcu_read_unlock();
	if (!n)
		return false;
	mlx5_cqwq_update_db(cqwq);
	/* The WQEs' owners are released before posting reuses them. */
	smp_store_release(&sq->cc, cc);
	if (sq->xsk_pool) {
		/* In the order the descriptors were peeked. */
		if (sq->xsk_done)
			xsk_tx_completed(sq->xsk_pool, sq->xsk_done);
		sq->xsk_done = 0;
		mlx5e_stats_add(&sq->xsk_stats->syncp, &sq->xsk_stats->cqes, n);
	}
	return n == MLX5E_XDPSQ_POLL_BUDGET;
}

/**
 * mlx5e_poll_xdpsq_cq() - complete sent XDP WQEs (NAPI)
 * @sq: the XDP SQ
 *
 * One CQE completes every WQE up to the one it names, and every frame of
 * those WQEs. An error CQE hands the SQ to its recovery work.
 *
 * Return: whether more CQEs may be waiting.
 */
bool mlx5e_poll_xdpsq_cq(struct mlx5e_xdpsq *sq)
{
	return mlx5e_xdpsq_poll(sq, true);
}

/* WQEs the device will never complete (the SQ destroyed or in reset),
 * and the frames of a session left open. Return: how many WQEs.
 */
static u32 mlx5e_xdpsq_free_descs(struct mlx5e_xdpsq *sq)
{
	struct xdp_frame_bulk bq;
	u32 n = 0;

	xdp_frame_bulk_init(&bq);
	mlx5e_xdpsq_mpwqe_close(sq);
	sq->db_ctrl = NULL;
	rcu_read_lock(); /* xdp_return_frame_bulk() */
	for (; sq->cc != sq->pc; n++)
		sq->cc = mlx5e_xdpsq_complete_wqe(sq, sq->cc, &bq, false);
	xdp_flush_frame_bulk(&bq);
	rcu_read_unlock();
	/* Their descriptors go back to the socket's completion ring. */
	if (sq->xsk_done)
		xsk_tx_completed(sq->xsk_pool, sq->xsk_done);
	sq->xsk_done = 0;
	return n;
}

/**
 * mlx5e_xdpsq_recover() - bring an XDP SQ in error back to service
 * @sq: the SQ, MLX5E_XDPSQ_STATE_RECOVERING set (nothing is posted)
 *
 * As the TX SQ's: the device moved the SQ to ERR and flushed what was
 * posted behind the failed WQE. NAPI is kept away while the completions
 * it left are taken, every frame still posted (or in an open session) is
 * returned, each such WQE counted as an error completion, and the SQ goes
 * ERR -> RST -> RDY with its counters at zero.
 *
 * Also where an earlier attempt stopped: the SQ still in ERR, or in RST
 * when only the move to RDY failed.
 *
 * Return: 0 (back in service, or it never left: still ready) or a
 *	negative errno (the SQ then stays out of service, RECOVERING).
 */
int mlx5e_xdpsq_recover(struct mlx5e_xdpsq *sq)
{
	struct mlx5e_channel *c = sq->ch;
	struct mlx5_core_dev *mdev = c->mdev;
	u32 unsent;
	u8 state;
	int err;

	/* A poster that took the lock before the state bit is gone. */
	spin_lock_bh(&sq->lock);
	spin_unlock_bh(&sq->lock);

	err = mlx5e_sq_expect_err(c, sq->sqn, "XDP SQ", false, &state);
	if (err)
		return err;
	if (state == MLX5_SQC_STATE_RDY) {
		/* Still ready: it sends on, in service. */
		clear_bit(MLX5E_XDPSQ_STATE_RECOVERING, &sq->state);
		return 0;
	}

	napi_disable(&c->napi);
	/*
	 * In RST the device writes no more completions: the flush CQEs of
	 * everything rung are in the CQ before it is drained, none comes
	 * later to a ring whose counters restarted.  An SQ already in RST
	 * (an earlier attempt stopped after leaving ERR) goes on from there.
	 */
	if (state == MLX5_SQC_STATE_ERR)
		err = mlx5e_modify_sq_state(mdev, sq->sqn, MLX5_SQC_STATE_ERR,
					    MLX5_SQC_STATE_RST);
	while (mlx5e_xdpsq_poll(sq, false))
		;
	/*
	 * Left: WQEs posted as the error came and never rung (the doorbell
	 * is not rung on an SQ in recovery), and any the device dropped at
	 * the reset. Their frames are lost as the flushed ones are.
	 */
	unsent = mlx5e_xdpsq_free_descs(sq);
	if (unsent)
		mlx5e_xdpsq_stat_add(sq, sq->err_stat, unsent);
	if (!err) {
		sq->cc = 0;
		sq->pc = 0;
		sq->fifo_cc = 0;
		sq->fifo_pc = 0;
		sq->mpwqe_inline = false;
		err = mlx5e_modify_sq_state(mdev, sq->sqn, MLX5_SQC_STATE_RST,
					    MLX5_SQC_STATE_RDY);
	}
	if (!err) {
		spin_lock_bh(&sq->lock);
		mlx5e_stats_add(sq->err_syncp, sq->recover_stat, 1);
		clear_bit(MLX5E_XDPSQ_STATE_RECOVERING, &sq->state);
		spin_unlock_bh(&sq->lock);
	}
	napi_enable(&c->napi);
	/* The channel's completion events while NAPI was off were lost. */
	mlx5e_channel_kick(c);
	return err;
}

/* ---- receive ------------------------------------------------------- */

/*
 * XDP_TX: every buffer of the xdp_buff (the linear part and each
 * fragment) is one reference of a page_pool page of this RQ (a fragment,
 * a stride of a striding WQE, or the buffer the headers were copied
 * into): the completion returns each reference.
 */
static bool mlx5e_xdp_tx(struct mlx5e_rq *rq, struct xdp_buff *xdp)
{
	struct page *page = virt_to_head_page(xdp->data);
	struct mlx5e_xdpsq *sq = rq->xdpsq;
	struct mlx5e_xdp_sg sg = {
		.data = xdp->data,
		.dma = page_pool_get_dma_addr(page) +
		       (xdp->data - page_address(page)),
		.len = xdp->data_end - xdp->data,
	};
	int err;
	u8 i;

	dma_sync_single_for_device(rq->pdev, sg.dma, sg.len,
				   DMA_BIDIRECTIONAL);
	if (unlikely(xdp_buff_has_frags(xdp))) {
		sg.sinfo = xdp_get_shared_info_from_buff(xdp);
		for (i = 0; i < sg.sinfo->nr_frags; i++)
			dma_sync_single_for_device(rq->pdev,
						   mlx5e_xdp_sg_frag_dma(&sg, i),
						   skb_frag_size(&sg.sinfo->frags[i]),
						   DMA_BIDIRECTIONAL);
	}
	/* The XDP_TX SQ is this NAPI's alone: no lock. */
	if (likely(!sg.sinfo)) {
		struct mlx5e_xdp_info info = {
			.mode = MLX5E_XDP_INFO_PAGE,
			.page = page,
		};

		struct mlx5e_xdp_post_stats st = {
			.syncp = &rq->stats->syncp,
			.mpwqe = &rq->stats->xdp_tx_mpwqe,
			.inlnw = &rq->stats->xdp_tx_inlnw,
		};

		err = mlx5e_xdpsq_post(sq, sg.dma, sg.data, sg.len, &info, &st);
	} else {
		err = mlx5e_xdpsq_post_sg(sq, &sg);
	}
	if (unlikely(err)) {
		mlx5e_xdp_refused(&rq->stats->syncp, err,
				  &rq->stats->xdp_tx_full,
				  &rq->stats->xdp_tx_err);
		return false;
	}
	mlx5e_stats_add(&rq->stats->syncp, &rq->stats->xdp_tx_xmit, 1);
	return true;
}

/**
 * mlx5e_xdp_act() - act on a verdict other than XDP_PASS and XDP_DROP (NAPI)
 * @rq: the RQ
 * @prog: its program (RCU)
 * @xdp: the frame the program ran on
 * @act: its verdict
 *
 * Return: as mlx5e_xdp_run(): MLX5E_XDP_TAKEN when sent or redirected,
 * else MLX5E_XDP_DROP (aborted, an invalid verdict, or the action failed).
 */
int mlx5e_xdp_act(struct mlx5e_rq *rq, struct bpf_prog *prog,
		  struct xdp_buff *xdp, u32 act)
{
	switch (act) {
	case XDP_TX:
		if (unlikely(!mlx5e_xdp_tx(rq, xdp)))
			goto xdp_abort;
		return MLX5E_XDP_TAKEN;
	case XDP_REDIRECT:
		if (unlikely(xdp_do_redirect(rq->netdev, xdp, prog)))
			goto xdp_abort;
		rq->xdp_flush = true;
		mlx5e_stats_add(&rq->stats->syncp, &rq->stats->xdp_redirect, 1);
		return MLX5E_XDP_TAKEN;
	default:
		bpf_warn_invalid_xdp_action(rq->netdev, prog, act);
		fallthrough;
	case XDP_ABORTED:
xdp_abort:
		trace_xdp_exception(rq->netdev, prog, act);
		mlx5e_stats_add(&rq->stats->syncp, &rq->stats->xdp_drop, 1);
		return MLX5E_XDP_DROP;
	}
}

/**
 * mlx5e_xdp_add_frag() - append a buffer to a multi-buffer xdp_buff
 * @xdp: the frame, its linear part prepared
 * @page: the buffer's page
 * @offset: where its bytes start in @page
 * @len: its bytes
 */
void mlx5e_xdp_add_frag(struct xdp_buff *xdp, struct page *page, u32 offset,
			u32 len)
{
	struct skb_shared_info *sinfo = xdp_get_shared_info_from_buff(xdp);

	if (!xdp_buff_has_frags(xdp)) {
		sinfo->nr_frags = 0;
		sinfo->xdp_frags_size = 0;
		xdp_buff_set_frags_flag(xdp);
	}
	skb_frag_fill_page_desc(&sinfo->frags[sinfo->nr_frags++], page, offset,
				len);
	sinfo->xdp_frags_size += len;
	if (page_is_pfmemalloc(page))
		xdp_buff_set_frag_pfmemalloc(xdp);
}

/**
 * mlx5e_skb_from_xdp() - the SKB of a frame XDP passed (NAPI)
 * @rq: the RQ
 * @xdp: the frame: its linear part a page_pool buffer of
 *	@xdp->frame_sz bytes, its fragments page_pool references
 * @frag_truesize: bytes the fragments take from their pages, together
 *
 * Built around the linear part, the fragments attached as they are in its
 * skb_shared_info (build_skb() keeps the array, clears the count). On
 * success every buffer is the SKB's.
 *
 * Return: the SKB, or NULL (nothing taken).
 */
struct sk_buff *mlx5e_skb_from_xdp(struct mlx5e_rq *rq, struct xdp_buff *xdp,
				   u32 frag_truesize)
{
	struct skb_shared_info *sinfo = xdp_get_shared_info_from_buff(xdp);
	u8 nr = xdp_buff_has_frags(xdp) ? sinfo->nr_frags : 0;
	struct sk_buff *skb;

	skb = napi_build_skb(xdp->data_hard_start, xdp->frame_sz);
	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, xdp->data - xdp->data_hard_start);
	skb_put(skb, xdp->data_end - xdp->data);
	if (xdp->data > xdp->data_meta)
		skb_metadata_set(skb, xdp->data - xdp->data_meta);
	skb_mark_for_recycle(skb);
	if (nr)
		xdp_update_skb_shared_info(skb, nr, sinfo->xdp_frags_size,
					   frag_truesize,
					   xdp_buff_is_frag_pfmemalloc(xdp));
	return skb;
}

/**
 * mlx5e_xdp_rx_done() - end of an RX poll: flush redirects, ring XDP_TX
 * @rq: the RQ
 */
void mlx5e_xdp_rx_done(struct mlx5e_rq *rq)
{
	if (rq->xdp_flush) {
		xdp_do_flush();
		rq->xdp_flush = false;
	}
	/* One doorbell for the poll's XDP_TX frames, the session closed. */
	if (rq->xdpsq)
		mlx5e_xdpsq_ring(rq->xdpsq);
}

/*
 * Room for one more descriptor of the socket: in the open session, or a
 * new one / a SEND, and after it the NOP that a descriptor the SQ cannot
 * send takes instead (a session, however long, leaves one WQEBB).
 */
static bool mlx5e_xdpsq_can_post(struct mlx5e_xdpsq *sq)
{
	if (!test_bit(MLX5E_XDPSQ_STATE_MPWQE, &sq->state))
		return mlx5e_xdpsq_room(sq) >= 1;
	if (mlx5e_mpwqe_is_open(&sq->mpwqe))
		return true;
	return mlx5e_xdpsq_room(sq) >=
	       mlx5e_mpwqe_max_wqebbs(&sq->wq, sq->pc, sq->max_mpw_ds) + 1;
}

/*
 * The pool maps its UMEM page by page. An unaligned-chunk descriptor may
 * run into the next page when the two are contiguous for the device; each
 * page is its own mapping, so each part is synced on its own (one sync
 * across both is a sync of memory no single mapping holds).
 */
static void mlx5e_xsk_sync_for_device(struct xsk_buff_pool *pool,
				      dma_addr_t dma, u32 len)
{
	u32 first = min_t(u32, len, PAGE_SIZE - offset_in_page(dma));

	xsk_buff_raw_dma_sync_for_device(pool, dma, first);
	if (unlikely(len > first))
		xsk_buff_raw_dma_sync_for_device(pool, dma + first,
						 len - first);
}

/**
 * mlx5e_xsk_tx() - send from the XSK SQ's socket TX ring (NAPI)
 * @sq: the channel's XSK SQ
 * @budget: the most descriptors to take
 *
 * Each descriptor is a frame of the UMEM, mapped by the pool: posted as
 * it is (MPWQE sessions where on), rung once for the poll, completed to
 * the socket when its WQE completes. Room is checked before a descriptor
 * is taken from the ring: one taken is always posted. One the SQ cannot
 * send (longer than the port's MTU, or too short to inline) goes as a
 * NOP, so that completions stay in order, and is counted as an error.
 *
 * Return: whether descriptors may be left (the budget ran out).
 */
bool mlx5e_xsk_tx(struct mlx5e_xdpsq *sq, int budget)
{
	struct mlx5e_xdp_info info = { .mode = MLX5E_XDP_INFO_XSK };
	struct mlx5e_xsk_tx_stats *st = sq->xsk_stats;
	const struct mlx5e_xdp_post_stats post = {
		.syncp = &st->syncp,
		.mpwqe = &st->mpwqe,
		.inlnw = &st->inlnw,
	};
	struct xsk_buff_pool *pool = sq->xsk_pool;
	u32 pkts = 0, bytes = 0, errs = 0;
	bool more = true, full = false;
	struct xdp_desc desc;

	if (unlikely(test_bit(MLX5E_XDPSQ_STATE_RECOVERING, &sq->state)))
		return false;
	spin_lock(&sq->lock);
	for (; budget > 0; budget--) {
		dma_addr_t dma;
		void *data;

		if (unlikely(!mlx5e_xdpsq_can_post(sq))) {
			full = true;
			more = false;
			break;
		}
		if (!xsk_tx_peek_desc(pool, &desc)) {
			more = false;
			break;
		}
		dma = xsk_buff_raw_get_dma(pool, desc.addr);
		data = xsk_buff_raw_get_data(pool, desc.addr);
		mlx5e_xsk_sync_for_device(pool, dma, desc.len);
		if (unlikely(desc.len > sq->hw_mtu ||
			     mlx5e_xdpsq_post(sq, dma, data, desc.len, &info,
					      &post))) {
			struct mlx5e_wqe_ctrl_seg *ctrl;

			/* The open session's WQE is at pc: it goes first. */
			mlx5e_xdpsq_mpwqe_close(sq);
			ctrl = mlx5e_nop_ctrl(&sq->wq, sq->pc, sq->qpn_be);
			mlx5e_xdpsq_push_frame(sq, &info);
			mlx5e_xdpsq_posted(sq, ctrl, 1, 1);
			errs++;
			continue;
		}
		pkts++;
		bytes += desc.len;
	}
	if (pkts || errs) {
		mlx5e_xdpsq_ring(sq);
		xsk_tx_release(pool);
	}
	spin_unlock(&sq->lock);

	u64_stats_update_begin(&st->syncp);
	u64_stats_add(&st->packets, pkts);
	u64_stats_add(&st->bytes, bytes);
	u64_stats_add(&st->err, errs);
	if (full)
		u64_stats_inc(&st->full);
	u64_stats_update_end(&st->syncp);
	return more;
}

/* ---- XDP metadata kfuncs --------------------------------------------- */

/*
 * bpf_xdp_metadata_rx_*() of a device-bound program: what the CQE says of
 * the frame. The xdp_md the program passes is the xdp_buff first in our
 * mlx5e_xdp_buff, on every receive path (linear and multi-buffer, legacy
 * and striding RQ).
 */

/* The RSS hash, as the SKB gets it (mlx5e_rx_hash()): none without
 * NETIF_F_RXHASH or when the CQE has none (one a mini CQE expanded).
 */
static int mlx5e_xdp_rx_hash(const struct xdp_md *ctx, u32 *hash,
			     enum xdp_rss_hash_type *rss_type)
{
	const struct mlx5e_xdp_buff *mxbuf = (const void *)ctx;
	const struct mlx5_cqe64 *cqe = mxbuf->cqe;
	u8 ht = cqe->rss_hash_type;
	enum xdp_rss_hash_type type;

	if (!(mxbuf->rq->netdev->features & NETIF_F_RXHASH) || !ht)
		return -ENODATA;
	switch (FIELD_GET(CQE_RSS_HTYPE_IP, ht)) {
	case CQE_RSS_IPV4:
		type = XDP_RSS_L3_IPV4;
		break;
	case CQE_RSS_IPV6:
		type = XDP_RSS_L3_IPV6;
		break;
	default:
		/* No L3 hash, no L4 one either. */
		type = XDP_RSS_TYPE_NONE;
		goto out;
	}
	switch (FIELD_GET(CQE_RSS_HTYPE_L4, ht)) {
	case CQE_RSS_L4_TCP:
		type |= XDP_RSS_L4 | XDP_RSS_L4_TCP;
		break;
	case CQE_RSS_L4_UDP:
		type |= XDP_RSS_L4 | XDP_RSS_L4_UDP;
		break;
	case CQE_RSS_L4_IPSEC:
		type |= XDP_RSS_L4 | XDP_RSS_L4_IPSEC;
		break;
	}
out:
	*hash = be32_to_cpu(cqe->rss_hash_result);
	*rss_type = type;
	return 0;
}

/* The timestamp, in the PHC's time as the SKB's hwtstamp: only while RX
 * timestamping is on (HWTSTAMP_FILTER_ALL), as upstream.
 */
static int mlx5e_xdp_rx_timestamp(const struct xdp_md *ctx, u64 *timestamp)
{
	const struct mlx5e_xdp_buff *mxbuf = (const void *)ctx;

	if (READ_ONCE(mxbuf->rq->hwtstamp->rx_filter) != HWTSTAMP_FILTER_ALL)
		return -ENODATA;
	*timestamp = mlx5e_rx_cqe_time(mxbuf->rq, mxbuf->cqe);
	return 0;
}

/* The 802.1Q tag the device stripped (rxvlan on), PCP and DEI included. */
static int mlx5e_xdp_rx_vlan_tag(const struct xdp_md *ctx, __be16 *vlan_proto,
				 u16 *vlan_tci)
{
	const struct mlx5e_xdp_buff *mxbuf = (const void *)ctx;

	if (!cqe_has_vlan(mxbuf->cqe))
		return -ENODATA;
	*vlan_proto = htons(ETH_P_8021Q);
	*vlan_tci = be16_to_cpu(mxbuf->cqe->vlan_info);
	return 0;
}

const struct xdp_metadata_ops mlx5e_xdp_metadata_ops = {
	.xmo_rx_timestamp	= mlx5e_xdp_rx_timestamp,
	.xmo_rx_hash		= mlx5e_xdp_rx_hash,
	.xmo_rx_vlan_tag	= mlx5e_xdp_rx_vlan_tag,
};

/* ---- xdp_frames: ndo_xdp_xmit's, and XDP_TX copies of XSK frames ----- */

/*
 * A multi-buffer frame: its fragments mapped one by one, unmapped on
 * completion before the frame (the last entry) is returned with them.
 */
static int mlx5e_xdpsq_post_frame_sg(struct mlx5e_xdpsq *sq,
				     struct xdp_frame *f)
{
	struct skb_shared_info *sinfo = xdp_get_shared_info_from_frame(f);
	dma_addr_t frag_dma[MAX_SKB_FRAGS];
	struct mlx5e_xdp_sg sg = {
		.data = f->data,
		.len = f->len,
		.sinfo = sinfo,
		.frag_dma = frag_dma,
		.frame = f,
	};
	int err = -ENOMEM;
	u8 i;

	sg.dma = dma_map_single(sq->pdev, f->data, f->len, DMA_TO_DEVICE);
	if (unlikely(dma_mapping_error(sq->pdev, sg.dma)))
		return err;
	for (i = 0; i < sinfo->nr_frags; i++) {
		skb_frag_t *frag = &sinfo->frags[i];

		frag_dma[i] = skb_frag_dma_map(sq->pdev, frag, 0,
					       skb_frag_size(frag),
					       DMA_TO_DEVICE);
		if (unlikely(dma_mapping_error(sq->pdev, frag_dma[i])))
			goto err_unmap;
	}
	err = mlx5e_xdpsq_post_sg(sq, &sg);
	if (likely(!err))
		return 0;

err_unmap:
	while (i--)
		dma_unmap_page(sq->pdev, frag_dma[i],
			       skb_frag_size(&sinfo->frags[i]), DMA_TO_DEVICE);
	dma_unmap_single(sq->pdev, sg.dma, f->len, DMA_TO_DEVICE);
	return err;
}

/**
 * mlx5e_xdpsq_post_frame() - map an xdp_frame and post it
 * @sq: the XDP SQ, its lock held unless it is lockless
 * @f: the frame, returned (with its fragments) when its WQE completes
 * @st: the poster's counters
 *
 * Return: 0, -ENOMEM when a mapping failed, or mlx5e_xdpsq_post()'s
 * error; on error the frame is still the caller's, unmapped.
 */
static int mlx5e_xdpsq_post_frame(struct mlx5e_xdpsq *sq,
				  struct xdp_frame *f,
				  const struct mlx5e_xdp_post_stats *st)
{
	struct mlx5e_xdp_info info = {
		.mode = MLX5E_XDP_INFO_FRAME,
		.frame = f,
		.len = f->len,
	};
	int err;

	if (unlikely(xdp_frame_has_frags(f)))
		return mlx5e_xdpsq_post_frame_sg(sq, f);
	info.dma = dma_map_single(sq->pdev, f->data, f->len, DMA_TO_DEVICE);
	if (unlikely(dma_mapping_error(sq->pdev, info.dma)))
		return -ENOMEM;
	err = mlx5e_xdpsq_post(sq, info.dma, f->data, f->len, &info, st);
	if (unlikely(err))
		dma_unmap_single(sq->pdev, info.dma, f->len, DMA_TO_DEVICE);
	return err;
}

/**
 * mlx5e_xdp_tx_frame() - XDP_TX of a frame copied out of an XSK RQ's UMEM
 * @rq: the XSK RQ
 * @f: the copy (xdp_convert_buff_to_frame()), a page of its own
 *
 * Posted on the channel's XDP_TX SQ as ndo_xdp_xmit posts its frames,
 * rung at the end of the poll (mlx5e_xdp_rx_done()). A refusal is
 * counted as the RQ's XDP_TX (rx_xsk_xdp_tx_full, _err); the caller
 * counts the frame sent.
 *
 * Return: whether it was posted; if not, the frame was returned.
 */
bool mlx5e_xdp_tx_frame(struct mlx5e_rq *rq, struct xdp_frame *f)
{
	struct mlx5e_rq_stats *s = rq->stats;
	const struct mlx5e_xdp_post_stats st = {
		.syncp = &s->syncp,
		.mpwqe = &s->xdp_tx_mpwqe,
		.inlnw = &s->xdp_tx_inlnw,
	};
	int err;

	err = mlx5e_xdpsq_post_frame(rq->xdpsq, f, &st);
	if (likely(!err))
		return true;
	mlx5e_xdp_refused(&s->syncp, err, &s->xdp_tx_full, &s->xdp_tx_err);
	xdp_return_frame(f);
	return false;
}

/* ---- ndo_xdp_xmit --------------------------------------------------- */

static bool mlx5e_xdp_xmit_one(struct mlx5e_xdpsq *sq, struct xdp_frame *f)
{
	struct mlx5e_xdp_xmit_stats *s = sq->xmit_stats;
	const struct mlx5e_xdp_post_stats st = {
		.syncp = &s->syncp,
		.mpwqe = &s->xdp_mpwqe,
		.inlnw = &s->xdp_inlnw,
	};
	int err;

	err = mlx5e_xdpsq_post_frame(sq, f, &st);
	if (unlikely(err)) {
		mlx5e_xdp_refused(&s->syncp, err, &s->xdp_full, &s->xdp_err);
		return false;
	}
	mlx5e_stats_add(&s->syncp, &s->xdp_xmit, 1);
	return true;
}

/**
 * mlx5e_xdp_xmit() - send frames other devices redirected to us
 * @netdev: the netdev
 * @n: frames
 * @frames: the frames
 * @flags: XDP_XMIT_*
 *
 * The frames join the XDP SQ's MPWQE session (xdp_tx_mpwqe); with
 * XDP_XMIT_FLUSH the session is closed and the doorbell rung, once for
 * the call.
 *
 * Return: frames posted (the caller frees the rest), or a negative errno.
 */
int mlx5e_xdp_xmit(struct net_device *netdev, int n,
		   struct xdp_frame **frames, u32 flags)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	struct mlx5e_xdpsq *sq;
	int i;

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	/* Cleared, then synchronize_net(), before the channels change. */
	if (unlikely(!test_bit(MLX5E_STATE_XDP_XMIT, &priv->state)))
		return -ENETDOWN;
	sq = priv->channels.c[smp_processor_id() % priv->channels.num]->xdpsq;

	spin_lock(&sq->lock);
	for (i = 0; i < n; i++)
		if (!mlx5e_xdp_xmit_one(sq, frames[i]))
			break;
	if (flags & XDP_XMIT_FLUSH)
		mlx5e_xdpsq_ring(sq);
	spin_unlock(&sq->lock);
	return i;
}

/* ---- the XDP send queue: open and close ----------------------------- */

/**
 * mlx5e_open_xdpsq() - an XDP SQ of the channel, ready to send
 * @c: the channel
 * @params: the parameters
 * @kind: what it sends
 * @pool: MLX5E_XDPSQ_XSK: the AF_XDP pool of the channel's index, DMA
 *	mapped (else NULL)
 * @errp: the error, on failure
 *
 * The SQ goes to RDY here: nothing is posted on it before the channel's
 * NAPI runs (or, for ndo_xdp_xmit, before mlx5e_xdp_xmit_enable()).
 *
 * Return: the SQ, or NULL and *@errp, nothing left behind.
 */
struct mlx5e_xdpsq *mlx5e_open_xdpsq(struct mlx5e_channel *c,
				     const struct mlx5e_params *params,
				     enum mlx5e_xdpsq_kind kind,
				     struct xsk_buff_pool *pool, int *errp)
{
	struct mlx5e_channel_stats *stats = &c->priv->channel_stats[c->ix];
	int node = cpu_to_node(c->cpu);
	struct mlx5e_xdpsq *sq;
	u32 fifo_sz;
	int err;

	sq = kvzalloc_node(sizeof(*sq), GFP_KERNEL, node);
	if (!sq) {
		*errp = -ENOMEM;
		return NULL;
	}
	err = mlx5e_create_cq(c, &sq->cq, params, false, params->log_sq_size);
	if (err)
		goto err_free;
	err = mlx5_wq_cyc_create(c->mdev->device, params->log_sq_size,
				 ilog2(MLX5E_SEND_WQE_BB), MLX5_WQ_DBR_SND,
				 &sq->wq);
	if (err)
		goto err_cq;
	/* Each frame takes a data segment at least. */
	fifo_sz = roundup_pow_of_two(mlx5_wq_cyc_size(&sq->wq) *
				     MLX5E_WQEBB_NUM_DS);
	sq->wqe_info = kvcalloc_node(mlx5_wq_cyc_size(&sq->wq),
				     sizeof(*sq->wqe_info), GFP_KERNEL, node);
	sq->fifo = kvcalloc_node(fifo_sz, sizeof(*sq->fifo), GFP_KERNEL, node);
	if (!sq->wqe_info || !sq->fifo) {
		err = -ENOMEM;
		goto err_info;
	}
	sq->fifo_mask = fifo_sz - 1;
	spin_lock_init(&sq->lock);
	sq->ch = c;
	sq->pdev = c->mdev->device;
	sq->uar_reg = c->db.reg;
	sq->mkey_be = cpu_to_be32(c->priv->res.mkey);
	sq->min_inline_mode = params->tx_min_inline_mode;
	sq->max_mpw_ds = mlx5e_max_mpw_ds(c->mdev);
	sq->hw_mtu = MLX5E_SW2HW_MTU(params->sw_mtu);
	if ((params->pflags & BIT(MLX5E_PFLAG_XDP_TX_MPWQE)) &&
	    sq->min_inline_mode == MLX5_INLINE_MODE_NONE)
		set_bit(MLX5E_XDPSQ_STATE_MPWQE, &sq->state);
	switch (kind) {
	case MLX5E_XDPSQ_XMIT:
		sq->xmit_stats = &stats->xdp_xmit;
		sq->err_syncp = &stats->xdp_xmit.syncp;
		sq->err_stat = &stats->xdp_xmit.xdp_err;
		sq->recover_stat = &stats->xdp_xmit.xdp_recover;
		break;
	case MLX5E_XDPSQ_TX:
		sq->lockless = true;
		sq->err_syncp = &stats->rq.syncp;
		sq->err_stat = &stats->rq.xdp_tx_err;
		sq->recover_stat = &stats->rq.xdp_tx_recover;
		break;
	case MLX5E_XDPSQ_XSK:
		sq->xsk_pool = pool;
		sq->xsk_stats = &stats->xsktx;
		sq->err_syncp = &stats->xsktx.syncp;
		sq->err_stat = &stats->xsktx.err;
		sq->recover_stat = &stats->xsktx.recover;
		break;
	}
	INIT_WORK(&sq->recover_work, mlx5e_xdpsq_err_cqe_work);

	err = mlx5e_create_sq_cmd(c, params, &sq->wq, sq->cq.mcq.cqn, false,
				  &sq->sqn);
	if (err)
		goto err_info;
	sq->qpn_be = cpu_to_be32(sq->sqn << 8);
	err = mlx5e_modify_sq_state(c->mdev, sq->sqn, MLX5_SQC_STATE_RST,
				    MLX5_SQC_STATE_RDY);
	if (err)
		goto err_obj;
	return sq;

err_obj:
	mlx5e_destroy_sq_cmd(c->mdev, sq->sqn);
err_info:
	kvfree(sq->fifo);
	kvfree(sq->wqe_info);
	mlx5_wq_cyc_destroy(c->mdev->device, &sq->wq);
err_cq:
	mlx5e_destroy_cq(c->mdev, &sq->cq);
err_free:
	kvfree(sq);
	*errp = err;
	return NULL;
}

/**
 * mlx5e_close_xdpsq() - destroy an XDP SQ of a channel
 * @sq: the SQ, its channel's NAPI off; what is still posted is returned
 *	(an XSK SQ's descriptors completed to the socket)
 */
void mlx5e_close_xdpsq(struct mlx5e_xdpsq *sq)
{
	struct mlx5e_channel *c = sq->ch;

	/* Deactivated: no recovery was queued after this one ran. */
	cancel_work_sync(&sq->recover_work);
	mlx5e_health_unfail(&sq->state, MLX5E_XDPSQ_STATE_RECOVER_FAILED,
			    &c->priv->tx_failed);
	mlx5e_destroy_sq_cmd(c->mdev, sq->sqn);
	mlx5e_xdpsq_free_descs(sq);
	kvfree(sq->fifo);
	kvfree(sq->wqe_info);
	mlx5_wq_cyc_destroy(c->mdev->device, &sq->wq);
	mlx5e_destroy_cq(c->mdev, &sq->cq);
	kvfree(sq);
}

/**
 * mlx5e_activate_xdpsq() - error CQEs of the SQ may start its recovery
 * @sq: the XDP SQ, its channel's NAPI about to run
 */
void mlx5e_activate_xdpsq(struct mlx5e_xdpsq *sq)
{
	set_bit(MLX5E_XDPSQ_STATE_ENABLED, &sq->state);
}

/**
 * mlx5e_deactivate_xdpsq() - no recovery past this point
 * @sq: the XDP SQ, its channel's NAPI still on (recovery needs it)
 */
void mlx5e_deactivate_xdpsq(struct mlx5e_xdpsq *sq)
{
	clear_bit(MLX5E_XDPSQ_STATE_ENABLED, &sq->state);
	cancel_work_sync(&sq->recover_work);
}

/**
 * mlx5e_xdp_mpwqe_caps() - whether xdp_tx_mpwqe can be on
 * @mdev: the device
 *
 * Return: the device takes enhanced multi-packet send WQEs.
 */
bool mlx5e_xdp_mpwqe_caps(struct mlx5_core_dev *mdev)
{
	return MLX5_CAP_ETH(mdev, enhanced_multi_pkt_send_wqe);
}

/* ---- ndo_bpf -------------------------------------------------------- */

/**
 * mlx5e_xdp_xmit_enable() - let ndo_xdp_xmit use the open channels
 * @priv: the netdev's private area, the channels active (each with its
 *	XDP SQ, a program attached or not)
 */
void mlx5e_xdp_xmit_enable(struct mlx5e_priv *priv)
{
	set_bit(MLX5E_STATE_XDP_XMIT, &priv->state);
}

/**
 * mlx5e_xdp_xmit_disable() - no ndo_xdp_xmit past this point
 * @priv: the netdev's private area
 */
void mlx5e_xdp_xmit_disable(struct mlx5e_priv *priv)
{
	if (!test_and_clear_bit(MLX5E_STATE_XDP_XMIT, &priv->state))
		return;
	/* ndo_xdp_xmit runs in NAPI or under rcu_read_lock_bh(). */
	synchronize_net();
}

/**
 * mlx5e_xdp_features() - what XDP the netdev supports
 * Return: NETDEV_XDP_ACT_* flags, the same with a program or without: a
 *	redirect target (NDO_XMIT) always, every channel having its XDP SQ,
 *	of multi-buffer frames too (NDO_XMIT_SG: one SEND WQE of a data
 *	segment per buffer, mlx5e_xdpsq_post_sg()); AF_XDP zero copy
 *	(XSK_ZEROCOPY: en/xsk.c), of single-buffer frames.
 */
xdp_features_t mlx5e_xdp_features(void)
{
	return NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_REDIRECT |
	       NETDEV_XDP_ACT_RX_SG | NETDEV_XDP_ACT_NDO_XMIT |
	       NETDEV_XDP_ACT_NDO_XMIT_SG | NETDEV_XDP_ACT_XSK_ZEROCOPY;
}

static void mlx5e_xdp_swap_progs(struct mlx5e_priv *priv,
				 struct bpf_prog *prog)
{
	unsigned int i;

	for (i = 0; i < priv->channels.num; i++) {
		struct mlx5e_channel *c = priv->channels.c[i];

		rcu_assign_pointer(c->rq.xdp_prog, prog);
		if (c->xskrq)
			rcu_assign_pointer(c->xskrq->xdp_prog, prog);
	}
}

static int mlx5e_xdp_set(struct net_device *netdev, struct bpf_prog *prog,
			 struct netlink_ext_ack *extack)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	struct bpf_prog *old = priv->params.xdp_prog;
	struct mlx5e_params params = priv->params;
	bool opened;
	int err;

	params.xdp_prog = prog;
	err = mlx5e_params_validate(priv->mdev, &params, priv->max_mtu, extack);
	if (err)
		return err;

	opened = test_bit(MLX5E_STATE_OPENED, &priv->state);
	if (opened && old && prog) {
		/* Same buffers, same queues: the RQs switch programs. */
		mlx5e_xdp_swap_progs(priv, prog);
		priv->channels.params.xdp_prog = prog;
		priv->params.xdp_prog = prog;
	} else {
		err = mlx5e_safe_switch_params(priv, &params, extack);
		if (err)
			return err;
	}
	/* The RQs read the program under RCU: it is freed after a grace
	 * period.
	 */
	if (old)
		bpf_prog_put(old);
	return 0;
}

/**
 * mlx5e_xdp_bpf() - ndo_bpf: attach, replace or detach an XDP program, or
 *	an AF_XDP zero-copy pool (en/xsk.c)
 * @netdev: the netdev
 * @bpf: the command
 *
 * Return: 0 or a negative errno with an extack message, nothing changed.
 */
int mlx5e_xdp_bpf(struct net_device *netdev, struct netdev_bpf *bpf)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	int err;

	switch (bpf->command) {
	case XDP_SETUP_PROG:
		mutex_lock(&priv->state_lock);
		err = mlx5e_xdp_set(netdev, bpf->prog, bpf->extack);
		mutex_unlock(&priv->state_lock);
		return err;
	case XDP_SETUP_XSK_POOL:
		return mlx5e_xsk_setup_pool(netdev, bpf->xsk.pool,
					    bpf->xsk.queue_id);
	default:
		return -EINVAL;
	}
}
