/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Hot-path inlines of the channels: send WQE layouts, WQE fetch and the
 * next producer index, the send doorbell and the CQ arm.
 *
 * A send WQE is a list of 16-byte segments (control, Ethernet, data) in
 * 64-byte basic blocks (WQEBBs); a WQE never wraps the ring, so the ring
 * end is padded with NOP WQEs when the next one would not fit. The
 * doorbell publishes the producer counter in the doorbell record, then
 * writes the first 8 bytes of the last WQE's control segment to the UAR
 * page's send doorbell register.
 */
#ifndef __MLX5_EN_TXRX_H__
#define __MLX5_EN_TXRX_H__

#include <linux/io.h>

#include "../en.h"

#define MLX5E_SEND_WQE_BB	64
#define MLX5E_SEND_WQE_DS	16
#define MLX5E_WQEBB_NUM_DS	(MLX5E_SEND_WQE_BB / MLX5E_SEND_WQE_DS)

/* Send opcodes and control segment flags (PRM). */
#define MLX5E_OPCODE_NOP	0x00
#define MLX5E_OPCODE_SEND	0x0a
#define MLX5E_OPCODE_LSO	0x0e
#define MLX5E_OPCODE_UMR	0x25
#define MLX5E_WQE_CTRL_CQ_UPDATE	(2 << 2)

/* Ethernet segment cs_flags. */
#define MLX5E_ETH_WQE_L3_CSUM	BIT(6)
#define MLX5E_ETH_WQE_L4_CSUM	BIT(7)
#define MLX5E_ETH_WQE_L3_INNER_CSUM	BIT(4)
#define MLX5E_ETH_WQE_L4_INNER_CSUM	BIT(5)
/* Ethernet segment swp_flags: the header types at the swp offsets. */
#define MLX5E_ETH_WQE_SWP_INNER_L3_IPV6	BIT(0)
#define MLX5E_ETH_WQE_SWP_INNER_L4_UDP	BIT(1)
#define MLX5E_ETH_WQE_SWP_OUTER_L3_IPV6	BIT(4)
#define MLX5E_ETH_WQE_SWP_OUTER_L4_UDP	BIT(5)
/* Ethernet segment swp[]: the offsets, in 2-byte words. */
#define MLX5E_SWP_OUTER_L4	0
#define MLX5E_SWP_OUTER_L3	1
#define MLX5E_SWP_INNER_L4	2
#define MLX5E_SWP_INNER_L3	3
/* Ethernet segment: insert the VLAN tag of the union. */
#define MLX5E_ETH_WQE_INSERT_VLAN	BIT(15)

/* An RQ data segment with this lkey ends the WQE's scatter list. */
#define MLX5E_TERMINATE_LKEY	0x100

/* The CQ arm doorbell, at this offset of the UAR page. */
#define MLX5E_CQ_DOORBELL	0x20

/**
 * struct mlx5e_wqe_ctrl_seg - send WQE control segment
 * @opmod_idx_opcode: opcode modifier, WQE index, opcode
 * @qpn_ds: SQ number, size in 16-byte segments
 * @signature: unused (0)
 * @rsvd: reserved
 * @fm_ce_se: fence, completion request, solicited event
 * @imm: immediate data / general id
 */
struct mlx5e_wqe_ctrl_seg {
	__be32 opmod_idx_opcode;
	__be32 qpn_ds;
	u8 signature;
	u8 rsvd[2];
	u8 fm_ce_se;
	__be32 imm;
};

/**
 * struct mlx5e_wqe_eth_seg - send WQE Ethernet segment
 * @swp: software parser offsets, 2-byte words (MLX5E_SWP_*; GENEVE)
 * @cs_flags: checksum offloads (MLX5E_ETH_WQE_*_CSUM)
 * @swp_flags: software parser flags (MLX5E_ETH_WQE_SWP_*)
 * @mss: LSO segment size
 * @flow_table_metadata: unused
 * @inline_hdr_sz: bytes of inline headers, the first two in @inline_hdr
 * @inline_hdr: start of the inline headers
 * @insert: VLAN insertion (type has MLX5E_ETH_WQE_INSERT_VLAN)
 * @insert.type: insertion type
 * @insert.vlan_tci: tag to insert
 */
struct mlx5e_wqe_eth_seg {
	u8 swp[4];
	u8 cs_flags;
	u8 swp_flags;
	__be16 mss;
	__be32 flow_table_metadata;
	union {
		struct {
			__be16 inline_hdr_sz;
			u8 inline_hdr[2];
		};
		struct {
			__be16 type;
			__be16 vlan_tci;
		} insert;
	};
};

/**
 * struct mlx5e_wqe_data_seg - a scatter/gather entry
 * @byte_count: bytes
 * @lkey: memory key
 * @addr: bus address
 */
struct mlx5e_wqe_data_seg {
	__be32 byte_count;
	__be32 lkey;
	__be64 addr;
};

/**
 * struct mlx5e_wqe_inline_seg - a packet inside the WQE (PRM inline data
 *	segment): padded to whole 16-byte segments
 * @byte_count: bytes of @data, with MLX5_INLINE_SEG
 * @data: the packet
 */
struct mlx5e_wqe_inline_seg {
	__be32 byte_count;
	u8 data[];
};

/**
 * struct mlx5e_tx_wqe - the start of every send WQE
 * @ctrl: control segment
 * @eth: Ethernet segment
 * @data: inline header continuation and data segments
 */
struct mlx5e_tx_wqe {
	struct mlx5e_wqe_ctrl_seg ctrl;
	struct mlx5e_wqe_eth_seg eth;
	struct mlx5e_wqe_data_seg data[];
};

/**
 * struct mlx5e_umr_ctrl_seg - UMR control segment (PRM)
 * @flags: MLX5_UMR_*
 * @rsvd0: reserved
 * @xlt_octowords: 16-byte units of translations the WQE carries
 * @xlt_offset: where they go in the mkey, in 16-byte units, bits 15:0
 * @mkey_mask: MLX5_MKEY_MASK_* fields of the mkey segment to apply
 * @xlt_offset_47_16: the offset's bits 47:16
 * @rsvd1: reserved
 */
struct mlx5e_umr_ctrl_seg {
	u8 flags;
	u8 rsvd0[3];
	__be16 xlt_octowords;
	__be16 xlt_offset;
	__be64 mkey_mask;
	__be32 xlt_offset_47_16;
	u8 rsvd1[28];
};

/**
 * struct mlx5e_umr_wqe - a UMR writing one striding RQ WQE's MTT entries
 * @ctrl: control segment; its @imm is the mkey
 * @uctrl: UMR control segment
 * @mkc: mkey segment (status: not free)
 * @mtt: the pages' bus addresses with MLX5_EN_WR, inline
 */
struct mlx5e_umr_wqe {
	struct mlx5e_wqe_ctrl_seg ctrl;
	struct mlx5e_umr_ctrl_seg uctrl;
	struct mlx5_mkey_seg mkc;
	__be64 mtt[MLX5E_MPWQE_PAGES];
};

/**
 * struct mlx5e_rx_wqe_ll - a linked-list RQ WQE: next index, one segment
 * @rsvd0: reserved
 * @next_wqe_index: the WQE the device moves to after this one
 * @rsvd1: reserved
 * @data: the WQE's buffer
 */
struct mlx5e_rx_wqe_ll {
	u8 rsvd0[2];
	__be16 next_wqe_index;
	u8 rsvd1[12];
	struct mlx5e_wqe_data_seg data;
};

static inline u16 mlx5e_sq_pi(const struct mlx5e_txqsq *sq)
{
	return mlx5_wq_cyc_ctr2ix(&sq->wq, sq->pc);
}

/* Free WQEBBs of the SQ (producer side's view). */
static inline u16 mlx5e_sq_room(const struct mlx5e_txqsq *sq)
{
	return mlx5_wq_cyc_size(&sq->wq) - (u16)(sq->pc - READ_ONCE(sq->cc));
}

static inline bool mlx5e_sq_has_room(const struct mlx5e_txqsq *sq, u16 n)
{
	return mlx5e_sq_room(sq) >= n;
}

/**
 * mlx5e_nop_ctrl() - write a one-WQEBB NOP, no completion asked (any SQ)
 * @wq: the SQ's work queue
 * @pc: the producer counter it goes at
 * @qpn_be: the SQ's number, shifted as the control segment holds it, big
 *	endian
 *
 * The caller records it and moves its producer counter past it.
 *
 * Return: its control segment.
 */
static inline struct mlx5e_wqe_ctrl_seg *
mlx5e_nop_ctrl(struct mlx5_wq_cyc *wq, u16 pc, __be32 qpn_be)
{
	struct mlx5e_wqe_ctrl_seg *ctrl;

	ctrl = mlx5_wq_cyc_get_wqe(wq, mlx5_wq_cyc_ctr2ix(wq, pc));
	memset(ctrl, 0, sizeof(*ctrl));
	ctrl->opmod_idx_opcode = cpu_to_be32((u32)pc << 8 | MLX5E_OPCODE_NOP);
	ctrl->qpn_ds = qpn_be | cpu_to_be32(1);
	return ctrl;
}

/**
 * mlx5e_post_nop() - post a one-WQEBB NOP at the producer index
 * @sq: the SQ
 *
 * Return: its control segment.
 */
static inline struct mlx5e_wqe_ctrl_seg *mlx5e_post_nop(struct mlx5e_txqsq *sq)
{
	struct mlx5e_wqe_ctrl_seg *ctrl = mlx5e_nop_ctrl(&sq->wq, sq->pc,
							 sq->qpn_be);

	sq->wqe_info[mlx5e_sq_pi(sq)] =
		(struct mlx5e_tx_wqe_info){ .num_wqebbs = 1 };
	sq->pc++;
	return ctrl;
}

/**
 * mlx5e_fetch_wqe() - the WQE at the producer index, with room for @size
 * @sq: the SQ
 * @num_wqebbs: basic blocks it needs
 * @last_ctrl: updated when NOPs pad the ring end
 *
 * Return: the zeroed WQE, contiguous in the ring.
 */
static inline struct mlx5e_tx_wqe *
mlx5e_fetch_wqe(struct mlx5e_txqsq *sq, u16 num_wqebbs,
		struct mlx5e_wqe_ctrl_seg **last_ctrl)
{
	u16 pi = mlx5e_sq_pi(sq);
	struct mlx5e_tx_wqe *wqe;

	if (unlikely(mlx5_wq_cyc_contig_to_end(&sq->wq, pi) < num_wqebbs)) {
		u16 n = mlx5_wq_cyc_contig_to_end(&sq->wq, pi);
		u16 i;

		for (i = 0; i < n; i++)
			*last_ctrl = mlx5e_post_nop(sq);
		/* Each NOP WQE, as the device sees them, not each run. */
		u64_stats_update_begin(&sq->stats->syncp);
		u64_stats_add(&sq->stats->nop, n);
		u64_stats_update_end(&sq->stats->syncp);
		pi = mlx5e_sq_pi(sq);
	}
	wqe = mlx5_wq_cyc_get_wqe(&sq->wq, pi);
	memset(wqe, 0, sizeof(*wqe));
	return wqe;
}

/*
 * Enhanced MPWQE sessions, shared by the TX SQ (SKBs) and the XDP SQ
 * (frames): one control and one Ethernet segment, then one data segment
 * per packet, all packets sharing the Ethernet segment. The session is
 * built in place at the producer index and the producer counter moves
 * past it only when it is closed.
 */

static inline bool mlx5e_mpwqe_is_open(const struct mlx5e_tx_mpwqe *s)
{
	return s->wqe;
}

/* WQEBBs the session takes (so far, or once closed). */
static inline u16 mlx5e_mpwqe_wqebbs(const struct mlx5e_tx_mpwqe *s)
{
	return DIV_ROUND_UP(s->ds_count, MLX5E_WQEBB_NUM_DS);
}

static inline bool mlx5e_mpwqe_same_eseg(const struct mlx5e_tx_mpwqe *s,
					 const struct mlx5e_wqe_eth_seg *eseg)
{
	return !memcmp(&s->wqe->eth, eseg, sizeof(*eseg));
}

/* Largest session (in WQEBBs) that can open at @pc: the device's limit,
 * and the ring end (a session never wraps, so no NOP pads before it).
 */
static inline u16 mlx5e_mpwqe_max_wqebbs(const struct mlx5_wq_cyc *wq, u16 pc,
					 u8 max_mpw_ds)
{
	u16 contig = mlx5_wq_cyc_contig_to_end(wq, mlx5_wq_cyc_ctr2ix(wq, pc));

	return min_t(u16, DIV_ROUND_UP(max_mpw_ds, MLX5E_WQEBB_NUM_DS), contig);
}

/**
 * mlx5e_mpwqe_open() - open a session at the producer index
 * @s: the session (closed)
 * @wq: the SQ's ring
 * @pc: its producer counter
 * @max_mpw_ds: segments of the largest MPWQE the device takes
 * @eseg: the Ethernet segment every packet of the session shares
 */
static inline void mlx5e_mpwqe_open(struct mlx5e_tx_mpwqe *s,
				    struct mlx5_wq_cyc *wq, u16 pc,
				    u8 max_mpw_ds,
				    const struct mlx5e_wqe_eth_seg *eseg)
{
	struct mlx5e_tx_wqe *wqe = mlx5_wq_cyc_get_wqe(wq,
						       mlx5_wq_cyc_ctr2ix(wq, pc));

	memset(&wqe->ctrl, 0, sizeof(wqe->ctrl));
	wqe->eth = *eseg;
	*s = (struct mlx5e_tx_mpwqe) {
		.wqe = wqe,
		.ds_count = sizeof(struct mlx5e_tx_wqe) / MLX5E_SEND_WQE_DS,
		.max_ds = mlx5e_mpwqe_max_wqebbs(wq, pc, max_mpw_ds) *
			  MLX5E_WQEBB_NUM_DS,
	};
	s->max_ds = min_t(u8, s->max_ds, max_mpw_ds);
}

/* One packet into the open session. */
static inline void mlx5e_mpwqe_add_dseg(struct mlx5e_tx_mpwqe *s,
					dma_addr_t addr, u32 len,
					__be32 mkey_be, u32 num_bytes)
{
	struct mlx5e_wqe_data_seg *dseg;

	dseg = (struct mlx5e_wqe_data_seg *)s->wqe + s->ds_count;
	dseg->addr = cpu_to_be64(addr);
	dseg->lkey = mkey_be;
	dseg->byte_count = cpu_to_be32(len);
	s->ds_count++;
	s->pkts++;
	s->bytes += num_bytes;
}

/* 16-byte segments a packet of @len bytes takes inline in a session. */
static inline u8 mlx5e_mpwqe_inline_ds(u32 len)
{
	return DIV_ROUND_UP(sizeof(struct mlx5e_wqe_inline_seg) + len,
			    MLX5E_SEND_WQE_DS);
}

/* Whether the open session has room for @len bytes inline. */
static inline bool mlx5e_mpwqe_inline_fits(const struct mlx5e_tx_mpwqe *s,
					   u32 len)
{
	return s->ds_count + mlx5e_mpwqe_inline_ds(len) <= s->max_ds;
}

/*
 * One packet copied into the open session (mlx5e_mpwqe_inline_fits()):
 * the device reads it with the WQE, not from @data. Each WQEBB of the
 * session is contiguous (a session never wraps the ring).
 */
static inline void mlx5e_mpwqe_add_inline(struct mlx5e_tx_mpwqe *s,
					  const void *data, u32 len)
{
	struct mlx5e_wqe_inline_seg *iseg;

	iseg = (struct mlx5e_wqe_inline_seg *)
	       ((struct mlx5e_wqe_data_seg *)s->wqe + s->ds_count);
	iseg->byte_count = cpu_to_be32(len | MLX5_INLINE_SEG);
	memcpy(iseg->data, data, len);
	s->ds_count += mlx5e_mpwqe_inline_ds(len);
	s->pkts++;
	s->bytes += len;
}

static inline bool mlx5e_mpwqe_is_full(const struct mlx5e_tx_mpwqe *s)
{
	return s->ds_count == s->max_ds;
}

/**
 * mlx5e_mpwqe_close() - finish the open session's control segment
 * @s: the session; its counts stay readable for the caller
 * @pc: the SQ's producer counter (the session's WQE index)
 * @qpn_be: the SQ number in place for the control segment
 *
 * The caller records what the WQE owns and moves its producer counter
 * past mlx5e_mpwqe_wqebbs().
 *
 * Return: the WQE's control segment.
 */
static inline struct mlx5e_wqe_ctrl_seg *
mlx5e_mpwqe_close(struct mlx5e_tx_mpwqe *s, u16 pc, __be32 qpn_be)
{
	struct mlx5e_wqe_ctrl_seg *ctrl = &s->wqe->ctrl;

	ctrl->opmod_idx_opcode = cpu_to_be32((u32)pc << 8 |
					     MLX5_OPCODE_ENHANCED_MPSW);
	ctrl->qpn_ds = qpn_be | cpu_to_be32(s->ds_count);
	s->wqe = NULL;
	return ctrl;
}

/**
 * mlx5e_ring_sq_db() - ring a send queue's doorbell (any SQ: TX, XDP, ICO)
 * @wq: the SQ's work queue
 * @pc: its producer counter, past the last WQE posted
 * @ctrl: control segment of the last WQE posted
 * @uar_reg: the SQ's doorbell register
 *
 * The doorbell record is written after the WQEs (dma_wmb), and the
 * register after the record (wmb): the device fetches up to the record.
 */
static inline void mlx5e_ring_sq_db(struct mlx5_wq_cyc *wq, u16 pc,
				    struct mlx5e_wqe_ctrl_seg *ctrl,
				    void __iomem *uar_reg)
{
	dma_wmb();
	mlx5_wq_cyc_update_db(wq, pc);
	/* The record is visible before the device is told to read it. */
	wmb();
	__raw_writeq(*(u64 *)ctrl, uar_reg);
}

/**
 * mlx5e_notify_hw() - ring the TX SQ's doorbell
 * @sq: the SQ
 * @ctrl: control segment of the last WQE posted
 */
static inline void mlx5e_notify_hw(struct mlx5e_txqsq *sq,
				   struct mlx5e_wqe_ctrl_seg *ctrl)
{
	mlx5e_ring_sq_db(&sq->wq, sq->pc, ctrl, sq->uar_reg);
}

/**
 * mlx5e_cq_arm() - request an event for the next CQE
 * @cq: the CQ, consumer index up to date
 */
static inline void mlx5e_cq_arm(struct mlx5e_cq *cq)
{
	u32 ci = cq->wq.cc & 0xffffff;
	u32 sn_ci = (cq->arm_sn & 3) << 28 | ci;
	__be32 doorbell[2];

	cq->wq.wqb.db[1] = cpu_to_be32(sn_ci);
	/* The arm record is visible before the doorbell that arms. */
	wmb();
	doorbell[0] = cpu_to_be32(sn_ci);
	doorbell[1] = cpu_to_be32(cq->mcq.cqn);
	__raw_writeq(*(u64 *)doorbell, cq->uar_page + MLX5E_CQ_DOORBELL);
}

/**
 * mlx5e_rx_cqe_time() - a receive CQE's timestamp in the PHC's time
 * @rq: the RQ of the CQE
 * @cqe: the CQE
 *
 * The timestamp of SKBs (with HWTSTAMP_FILTER_ALL) and of the XDP
 * metadata kfunc alike.
 *
 * Return: nanoseconds of the PHC.
 */
static inline u64 mlx5e_rx_cqe_time(struct mlx5e_rq *rq,
				    struct mlx5_cqe64 *cqe)
{
	return mlx5_clock_cyc2time(rq->ch->mdev, get_cqe_ts(cqe));
}

#endif /* __MLX5_EN_TXRX_H__ */
