/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * XDP on the receive queues, and the XDP send queue of each channel.
 */
#ifndef __MLX5_EN_XDP_H__
#define __MLX5_EN_XDP_H__

#include <linux/bpf.h>
#include <linux/spinlock.h>
#include <net/xdp.h>

#include "../en.h"

/* Header bytes an XDP send WQE inlines when the SQ must inline L2. */
#define MLX5E_XDP_MIN_INLINE	(ETH_HLEN + VLAN_HLEN)

/**
 * enum mlx5e_xdp_info_mode - what a posted XDP WQE owns
 * @MLX5E_XDP_INFO_PAGE: a page_pool fragment of our RQ (XDP_TX), returned
 *	to its pool on completion
 * @MLX5E_XDP_INFO_FRAME: an xdp_frame from ndo_xdp_xmit, mapped for this
 *	send, unmapped and returned on completion
 */
enum mlx5e_xdp_info_mode {
	MLX5E_XDP_INFO_PAGE,
	MLX5E_XDP_INFO_FRAME,
};

/**
 * struct mlx5e_xdp_info - one posted XDP WQE
 * @page: MLX5E_XDP_INFO_PAGE: the fragment's page
 * @frame: MLX5E_XDP_INFO_FRAME: the frame
 * @dma: MLX5E_XDP_INFO_FRAME: its mapping
 * @len: MLX5E_XDP_INFO_FRAME: bytes mapped
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
 * struct mlx5e_xdpsq - the XDP send queue of a channel
 * @cc: WQEs completed
 * @pc: WQEs posted
 * @db_ctrl: control segment of the last WQE posted and not rung yet
 * @lock: serialises posting: XDP_TX in the channel's NAPI, ndo_xdp_xmit
 *	from any CPU
 * @cq: its completion queue (polled by the channel's NAPI)
 * @wq: the WQEBB ring, one WQEBB per WQE
 * @info: per WQE index, what it owns
 * @pdev: the DMA device
 * @uar_reg: the channel's send doorbell register
 * @mkey_be: the memory key of data segments, big endian
 * @sqn: SQ number
 * @min_inline_mode: headers the eseg must inline
 * @rq_stats: XDP_TX counters (the channel's RQ, written in NAPI)
 * @xmit_stats: ndo_xdp_xmit counters (written under @lock)
 */
struct mlx5e_xdpsq {
	/* dirtied @completion */
	u16 cc;

	/* dirtied @xmit, under @lock */
	u16 pc ____cacheline_aligned_in_smp;
	struct mlx5e_wqe_ctrl_seg *db_ctrl;
	spinlock_t lock; /* posting */

	/* read only */
	struct mlx5e_cq cq ____cacheline_aligned_in_smp;
	struct mlx5_wq_cyc wq;
	struct mlx5e_xdp_info *info;
	struct device *pdev;
	void __iomem *uar_reg;
	__be32 mkey_be;
	u32 sqn;
	u8 min_inline_mode;
	struct mlx5e_rq_stats *rq_stats;
	struct mlx5e_xdp_xmit_stats *xmit_stats;
};

/* en/xdp.c: the data path */
bool mlx5e_xdp_rx(struct mlx5e_rq *rq, struct bpf_prog *prog,
		  struct mlx5e_rq_frag *frag, u32 *headroom, u32 *len);
void mlx5e_xdp_rx_done(struct mlx5e_rq *rq);
bool mlx5e_poll_xdpsq_cq(struct mlx5e_xdpsq *sq);
int mlx5e_xdp_xmit(struct net_device *netdev, int n,
		   struct xdp_frame **frames, u32 flags);

/* en/xdp.c: the control path */
int mlx5e_open_xdpsq(struct mlx5e_channel *c,
		     const struct mlx5e_params *params);
void mlx5e_close_xdpsq(struct mlx5e_channel *c);
int mlx5e_xdp_bpf(struct net_device *netdev, struct netdev_bpf *bpf);
void mlx5e_xdp_xmit_enable(struct mlx5e_priv *priv);
void mlx5e_xdp_xmit_disable(struct mlx5e_priv *priv);
xdp_features_t mlx5e_xdp_features(void);

#endif /* __MLX5_EN_XDP_H__ */
