/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * XDP on the receive queues, and the XDP send queue of each channel.
 */
#ifndef __MLX5_EN_XDP_H__
#define __MLX5_EN_XDP_H__

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/spinlock.h>
#include <net/xdp.h>

#include "../en.h"

/* Header bytes an XDP send WQE inlines when the SQ must inline L2. */
#define MLX5E_XDP_MIN_INLINE	(ETH_HLEN + VLAN_HLEN)

/*
 * Inline frames in MPWQE sessions (upstream's inline state): once
 * MLX5E_XDP_INLINE_WATERMARK_HIGH frames or more are outstanding (posted,
 * not yet completed: the device is behind, its reads of the frames the
 * bottleneck), a session opened copies each frame of up to
 * MLX5E_XDP_INLINE_MAX bytes into its WQE (an inline segment of at most
 * MLX5E_XDP_INLINE_MAX_DS segments), sparing the device a read; back to
 * data segments once MLX5E_XDP_INLINE_WATERMARK_LOW or fewer are.
 */
#define MLX5E_XDP_INLINE_WATERMARK_LOW	10
#define MLX5E_XDP_INLINE_WATERMARK_HIGH	128
#define MLX5E_XDP_INLINE_MAX_DS		16
#define MLX5E_XDP_INLINE_MAX \
	(MLX5E_XDP_INLINE_MAX_DS * MLX5E_SEND_WQE_DS - \
	 sizeof(struct mlx5e_wqe_inline_seg))

/**
 * enum mlx5e_xdp_verdict - what became of a frame XDP ran on
 * @MLX5E_XDP_PASS: to the stack: build the SKB
 * @MLX5E_XDP_DROP: dropped (or aborted, or the action failed): every
 *	buffer is still the RQ's
 * @MLX5E_XDP_TAKEN: sent (XDP_TX) or redirected: every buffer of the
 *	frame belongs to the XDP SQ or the frame's new owner
 */
enum mlx5e_xdp_verdict {
	MLX5E_XDP_PASS,
	MLX5E_XDP_DROP,
	MLX5E_XDP_TAKEN,
};

/**
 * enum mlx5e_xdp_info_mode - what a posted XDP buffer is
 * @MLX5E_XDP_INFO_PAGE: one page_pool reference of our RQ (XDP_TX: a
 *	fragment, a stride or a copied header), returned to its pool on
 *	completion
 * @MLX5E_XDP_INFO_FRAME: an xdp_frame from ndo_xdp_xmit, mapped for this
 *	send, unmapped and returned (with its fragments) on completion
 * @MLX5E_XDP_INFO_UNMAP: a fragment of such a frame, only unmapped (the
 *	frame, later in the fifo, returns it)
 * @MLX5E_XDP_INFO_XSK: a descriptor of the XSK SQ's socket, its UMEM
 *	mapped by the pool: completed to the socket (xsk_tx_completed(),
 *	in order) when the WQE completes
 */
enum mlx5e_xdp_info_mode {
	MLX5E_XDP_INFO_PAGE,
	MLX5E_XDP_INFO_FRAME,
	MLX5E_XDP_INFO_UNMAP,
	MLX5E_XDP_INFO_XSK,
};

/**
 * struct mlx5e_xdp_sg - a multi-buffer frame to post as one SEND WQE
 * @data: the linear part, whose headers are inlined when the SQ asks
 * @dma: its bus address
 * @len: its bytes
 * @sinfo: the fragments
 * @frag_dma: ndo_xdp_xmit: each fragment's mapping; NULL for XDP_TX,
 *	whose fragments are page_pool pages the pool mapped
 * @frame: ndo_xdp_xmit: the frame, returned when the WQE completes; NULL
 *	for XDP_TX, each buffer of which is a page_pool reference
 */
struct mlx5e_xdp_sg {
	void *data;
	dma_addr_t dma;
	u32 len;
	const struct skb_shared_info *sinfo;
	const dma_addr_t *frag_dma;
	struct xdp_frame *frame;
};

/**
 * struct mlx5e_xdp_info - one posted XDP frame, in the SQ's frame fifo
 * @page: MLX5E_XDP_INFO_PAGE: the buffer's page
 * @frame: MLX5E_XDP_INFO_FRAME: the frame
 * @dma: MLX5E_XDP_INFO_FRAME, _UNMAP: the mapping
 * @len: MLX5E_XDP_INFO_FRAME, _UNMAP: bytes mapped
 * @mode: enum mlx5e_xdp_info_mode
 */
struct mlx5e_xdp_info {
	union {
		struct page *page;
		struct xdp_frame *frame;
	};
	dma_addr_t dma;
	u32 len;
	u8 mode;
};

/**
 * struct mlx5e_xdp_wqe_info - what one posted XDP WQE owns
 * @num_wqebbs: basic blocks it spans
 * @num_frames: frames it sends, the next ones of the frame fifo
 */
struct mlx5e_xdp_wqe_info {
	u8 num_wqebbs;
	u8 num_frames;
};

/* struct mlx5e_xdpsq's state bits. */
enum {
	MLX5E_XDPSQ_STATE_ENABLED,	/* its channel is active */
	MLX5E_XDPSQ_STATE_RECOVERING,	/* an error CQE: nothing is posted */
	MLX5E_XDPSQ_STATE_MPWQE,	/* frames go in MPWQE sessions */
	/* a recovery failed: RECOVERING stays set until devlink health recover */
	MLX5E_XDPSQ_STATE_RECOVER_FAILED,
};

/**
 * enum mlx5e_xdpsq_kind - what an XDP SQ of a channel sends
 * @MLX5E_XDPSQ_XMIT: frames other devices redirect to us (ndo_xdp_xmit),
 *	from any CPU, under the SQ's lock; always there
 * @MLX5E_XDPSQ_TX: XDP_TX of the channel's RQ and XSK RQ, posted by its
 *	NAPI alone, lockless; there while a program is attached
 * @MLX5E_XDPSQ_XSK: the TX ring of the channel's AF_XDP socket
 */
enum mlx5e_xdpsq_kind {
	MLX5E_XDPSQ_XMIT,
	MLX5E_XDPSQ_TX,
	MLX5E_XDPSQ_XSK,
};

/**
 * struct mlx5e_xdpsq - an XDP send queue of a channel
 * @cc: WQEBBs completed
 * @fifo_cc: frame fifo consumer counter
 * @pc: WQEBBs posted
 * @fifo_pc: frame fifo producer counter
 * @db_ctrl: control segment of the last WQE posted and not rung yet
 * @mpwqe: the open MPWQE session
 * @mpwqe_inline: sessions opened now inline small frames (MPWQE sessions
 *	only; MLX5E_XDP_INLINE_WATERMARK_HIGH, _LOW)
 * @lock: serialises posting on the channel's ndo_xdp_xmit SQ (any CPU)
 *	and its XSK SQ (NAPI, against ethtool's xdp_tx_mpwqe), and the
 *	error counters; the XDP_TX SQ (@lockless) is fenced from recovery
 *	by napi_disable(), not by it
 * @cq: its completion queue (polled by the channel's NAPI)
 * @wq: the WQEBB ring
 * @wqe_info: per WQE index, what the WQE owns
 * @fifo: the frames of posted WQEs (and of the open session), in order
 * @fifo_mask: frame fifo entries minus one
 * @pdev: the DMA device
 * @uar_reg: the channel's send doorbell register
 * @mkey_be: the memory key of data segments, big endian
 * @qpn_be: SQ number in place for a control segment, big endian
 * @sqn: SQ number
 * @max_mpw_ds: 16-byte segments of the largest MPWQE the device takes
 * @min_inline_mode: headers the eseg must inline (then no MPWQE: its
 *	Ethernet segment inlines nothing)
 * @state: MLX5E_XDPSQ_STATE_*
 * @lockless: the XDP_TX SQ: only its channel's NAPI posts on it (the
 *	RQ's and the XSK RQ's XDP_TX), without @lock
 * @xmit_stats: ndo_xdp_xmit counters (written under @lock)
 * @err_syncp: the counters of error completions and recoveries
 * @err_stat: error completions, written under @lock
 *	(&mlx5e_rq_stats.xdp_tx_err, &mlx5e_xdp_xmit_stats.xdp_err or
 *	&mlx5e_xsk_tx_stats.err)
 * @recover_stat: recoveries (xdp_tx_recover, xdp_recover or an XSK SQ's
 *	recover), written under @lock
 * @xsk_pool: an XSK SQ: the AF_XDP pool whose TX ring it sends (else
 *	NULL); only its channel's NAPI posts on it
 * @xsk_stats: an XSK SQ's counters
 * @xsk_done: XSK descriptors completed this poll, told to the pool at
 *	its end
 * @hw_mtu: the largest frame the port sends (the MTU with the Ethernet
 *	header, VLAN tag and FCS): an XSK descriptor longer is refused
 * @ch: the channel
 * @recover_work: recovery after an error CQE
 */
struct mlx5e_xdpsq {
	/* dirtied @completion */
	u16 cc;
	u32 fifo_cc;

	/* dirtied @xmit, under @lock */
	u16 pc ____cacheline_aligned_in_smp;
	u32 fifo_pc;
	struct mlx5e_wqe_ctrl_seg *db_ctrl;
	struct mlx5e_tx_mpwqe mpwqe;
	bool mpwqe_inline;
	spinlock_t lock; /* posting */

	/* read only */
	struct mlx5e_cq cq ____cacheline_aligned_in_smp;
	struct mlx5_wq_cyc wq;
	struct mlx5e_xdp_wqe_info *wqe_info;
	struct mlx5e_xdp_info *fifo;
	u32 fifo_mask;
	struct device *pdev;
	void __iomem *uar_reg;
	__be32 mkey_be;
	__be32 qpn_be;
	u32 sqn;
	u8 max_mpw_ds;
	u8 min_inline_mode;
	unsigned long state;
	bool lockless;
	struct mlx5e_xdp_xmit_stats *xmit_stats;
	struct u64_stats_sync *err_syncp;
	u64_stats_t *err_stat;
	u64_stats_t *recover_stat;
	struct xsk_buff_pool *xsk_pool;
	struct mlx5e_xsk_tx_stats *xsk_stats;
	u32 xsk_done;
	u16 hw_mtu;

	/* control path */
	struct mlx5e_channel *ch;
	struct work_struct recover_work;
};

/* en/xdp.c: the data path */
int mlx5e_xdp_act(struct mlx5e_rq *rq, struct bpf_prog *prog,
		  struct xdp_buff *xdp, u32 act);
void mlx5e_xdp_add_frag(struct xdp_buff *xdp, struct page *page, u32 offset,
			u32 len);
struct sk_buff *mlx5e_skb_from_xdp(struct mlx5e_rq *rq, struct xdp_buff *xdp,
				   u32 frag_truesize);
void mlx5e_xdp_rx_done(struct mlx5e_rq *rq);
bool mlx5e_xdp_tx_frame(struct mlx5e_rq *rq, struct xdp_frame *f);
bool mlx5e_xsk_tx(struct mlx5e_xdpsq *sq, int budget);
bool mlx5e_poll_xdpsq_cq(struct mlx5e_xdpsq *sq);
int mlx5e_xdp_xmit(struct net_device *netdev, int n,
		   struct xdp_frame **frames, u32 flags);

/**
 * mlx5e_xdp_run() - run the RQ's XDP program on a frame and act (NAPI)
 * @rq: the RQ
 * @prog: its program (RCU)
 * @xdp: the frame, one buffer or several (a frags-aware program)
 * @nr_frags: set to the fragments the frame has once the program ran
 *
 * Buffers bpf_xdp_adjust_tail() took off a multi-buffer frame went back
 * to the page pool whatever the verdict: the caller compares @nr_frags
 * with the fragments it built. They are counted before the action: a
 * redirected frame may be freed before this returns.
 *
 * XDP_PASS and XDP_DROP, which need nothing more than the verdict, are
 * taken here, in the RX handler; the other verdicts by mlx5e_xdp_act().
 *
 * Return: MLX5E_XDP_PASS (build the SKB from @xdp), MLX5E_XDP_DROP (the
 * buffers are still the RQ's) or MLX5E_XDP_TAKEN (sent or redirected:
 * every buffer of @xdp is the frame's owner's now).
 */
static __always_inline int mlx5e_xdp_run(struct mlx5e_rq *rq,
					 struct bpf_prog *prog,
					 struct xdp_buff *xdp, u8 *nr_frags)
{
	u32 act = bpf_prog_run_xdp(prog, xdp);

	*nr_frags = xdp_buff_has_frags(xdp) ?
		    xdp_get_shared_info_from_buff(xdp)->nr_frags : 0;
	switch (act) {
	case XDP_PASS:
		return MLX5E_XDP_PASS;
	case XDP_DROP:
		mlx5e_stats_add(&rq->stats->syncp, &rq->stats->xdp_drop, 1);
		return MLX5E_XDP_DROP;
	default:
		return mlx5e_xdp_act(rq, prog, xdp, act);
	}
}

/**
 * mlx5e_xdp_rx() - run the RQ's XDP program on a linear buffer (NAPI)
 * @rq: the RQ
 * @prog: its program (RCU)
 * @cqe: the frame's completion, for the XDP metadata kfuncs
 * @frag: the buffer, synced for the CPU
 * @headroom: in: bytes before the frame; out: after the program
 * @len: in: the frame's bytes; out: after the program
 * @meta: out: bytes of metadata the program left before the frame
 *	(bpf_xdp_adjust_meta()), for skb_metadata_set()
 *
 * The frame is @rq->mxbuf, whose fixed part mlx5e_open_rq() set: per
 * frame only its data pointers and CQE.
 *
 * Return: true when XDP consumed the frame (dropped, sent or redirected;
 * unless taken, the buffer stays in the RQ's WQE, posted again), false
 * for XDP_PASS.
 */
static __always_inline bool mlx5e_xdp_rx(struct mlx5e_rq *rq,
					 struct bpf_prog *prog,
					 struct mlx5_cqe64 *cqe,
					 struct mlx5e_rq_frag *frag,
					 u32 *headroom, u32 *len, u32 *meta)
{
	struct xdp_buff *xdp = &rq->mxbuf.xdp;
	u8 nr_frags;

	rq->mxbuf.cqe = cqe;
	xdp_prepare_buff(xdp, page_address(frag->page) + frag->offset,
			 *headroom, *len, true);
	switch (mlx5e_xdp_run(rq, prog, xdp, &nr_frags)) {
	case MLX5E_XDP_PASS:
		*headroom = xdp->data - xdp->data_hard_start;
		*len = xdp->data_end - xdp->data;
		*meta = xdp->data - xdp->data_meta;
		return false;
	case MLX5E_XDP_TAKEN:
		frag->page = NULL; /* the XDP SQ or the frame's owner returns it */
		return true;
	default:
		return true;
	}
}

/* en/xdp.c: the control path */
struct mlx5e_xdpsq *mlx5e_open_xdpsq(struct mlx5e_channel *c,
				     const struct mlx5e_params *params,
				     enum mlx5e_xdpsq_kind kind,
				     struct xsk_buff_pool *pool, int *errp);
void mlx5e_close_xdpsq(struct mlx5e_xdpsq *sq);
void mlx5e_activate_xdpsq(struct mlx5e_xdpsq *sq);
void mlx5e_deactivate_xdpsq(struct mlx5e_xdpsq *sq);
void mlx5e_xdpsq_set_mpwqe(struct mlx5e_xdpsq *sq, bool on);
int mlx5e_xdpsq_recover(struct mlx5e_xdpsq *sq);
bool mlx5e_xdp_mpwqe_caps(struct mlx5_core_dev *mdev);

/* en/reporter_tx.c */
void mlx5e_xdpsq_err_cqe_work(struct work_struct *work);
int mlx5e_xdp_bpf(struct net_device *netdev, struct netdev_bpf *bpf);
void mlx5e_xdp_xmit_enable(struct mlx5e_priv *priv);
void mlx5e_xdp_xmit_disable(struct mlx5e_priv *priv);
xdp_features_t mlx5e_xdp_features(void);

extern const struct xdp_metadata_ops mlx5e_xdp_metadata_ops;

/* en/xsk.c: AF_XDP zero copy, the control path */
int mlx5e_validate_xsk_param(u32 chunk_size, u32 headroom, u32 rx_frame_size,
			     u16 sw_mtu, u16 qid, u16 num_channels,
			     struct netlink_ext_ack *extack);
int mlx5e_xsk_setup_pool(struct net_device *netdev,
			 struct xsk_buff_pool *pool, u16 qid);
int mlx5e_xsk_validate_params(struct mlx5e_priv *priv,
			      const struct mlx5e_params *params,
			      struct netlink_ext_ack *extack);
int mlx5e_xsk_wakeup(struct net_device *netdev, u32 qid, u32 flags);
bool mlx5e_xsk_striding(const struct mlx5e_params *params,
			struct xsk_buff_pool *pool);

#endif /* __MLX5_EN_XDP_H__ */
