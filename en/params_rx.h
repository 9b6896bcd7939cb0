/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Receive buffer sizing: pure arithmetic from an MTU, the RQ type, XDP
 * and the page size to the buffers the RQ hands the device.
 *
 * A buffer is linear when headroom, the largest frame and the
 * skb_shared_info tailroom fit one stride (a power of two, at most a page
 * and at most MLX5E_RX_MAX_LINEAR_STRIDE): the SKB or the XDP buffer is
 * built around it, and a page holds page_size / stride of them, with or
 * without XDP. Above that the frame is scattered: over page fragments on
 * the legacy RQ, over small strides on the striding RQ, the headers copied.
 * Scattered frames go through a frags-aware XDP program as a multi-buffer
 * xdp_buff: on the legacy RQ the first fragment keeps XDP headroom and
 * skb_shared_info room (a WQE may then need one more fragment); on the
 * striding RQ the headers are copied into a buffer of their own.
 *
 * This header and params_rx.c depend on nothing of the driver, so the unit
 * tests (params_rx_test.c) also build in userspace.
 */
#ifndef __MLX5_EN_PARAMS_RX_H__
#define __MLX5_EN_PARAMS_RX_H__

#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/types.h>

/* What the port adds to the software MTU: Ethernet header, one VLAN, FCS. */
#define MLX5E_ETH_HARD_MTU	(ETH_HLEN + VLAN_HLEN + ETH_FCS_LEN)
#define MLX5E_SW2HW_MTU(mtu)	((mtu) + MLX5E_ETH_HARD_MTU)
#define MLX5E_HW2SW_MTU(mtu)	((mtu) - MLX5E_ETH_HARD_MTU)

/* The largest stride an SKB or XDP buffer is built around. */
#define MLX5E_RX_MAX_LINEAR_STRIDE	8192
/* Bytes copied into the linear part of a scattered receive; also the
 * stride of a non-linear striding RQ.
 */
#define MLX5E_RX_MAX_HEAD		256
/* The most fragments one legacy receive WQE scatters over. */
#define MLX5E_RX_MAX_FRAGS		4

/**
 * enum mlx5e_rq_type - receive queue types
 * @MLX5E_RQ_TYPE_LEGACY: cyclic, one frame per WQE
 * @MLX5E_RQ_TYPE_STRIDING: one WQE of many strides, frames consume strides
 */
enum mlx5e_rq_type {
	MLX5E_RQ_TYPE_LEGACY,
	MLX5E_RQ_TYPE_STRIDING,
};

/**
 * struct mlx5e_rx_buf_layout - the buffers of an RQ for one MTU
 * @type: the RQ type it is for
 * @headroom: bytes before the frame in the first buffer: a linear one, or
 *	the first fragment of a scattered legacy WQE with XDP; else 0
 * @linear_sz: headroom + frame + skb_shared_info, each cache aligned
 * @stride: bytes each buffer (fragment, stride) takes from a page
 * @frag_size: bytes the device may write into each buffer
 * @first_frag_size: bytes the device may write into the first buffer of a
 *	WQE: @frag_size, but for a scattered legacy WQE with XDP, whose first
 *	fragment keeps the headroom and skb_shared_info of the multi-buffer
 *	xdp_buff built around it
 * @xdp_head_sz: scattered striding RQ with XDP: bytes of the buffer the
 *	headers are copied into, the linear part of the multi-buffer
 *	xdp_buff (headroom, MLX5E_RX_MAX_HEAD, skb_shared_info); else 0
 * @num_frags: legacy RQ: buffers per WQE; striding RQ: 1
 * @linear: the SKB or XDP buffer is built around one buffer
 */
struct mlx5e_rx_buf_layout {
	enum mlx5e_rq_type type;
	u32 headroom;
	u32 linear_sz;
	u32 stride;
	u32 frag_size;
	u32 first_frag_size;
	u32 xdp_head_sz;
	u8 num_frags;
	bool linear;
};

u32 mlx5e_rx_headroom(bool xdp);
u32 mlx5e_rx_linear_sz(u32 sw_mtu, bool xdp);
u32 mlx5e_rx_max_linear_stride(unsigned int page_shift);
u32 mlx5e_rx_max_linear_mtu(bool xdp, unsigned int page_shift);
u32 mlx5e_rx_xdp_head_sz(void);
void mlx5e_rx_buf_layout(enum mlx5e_rq_type type, u32 sw_mtu, bool xdp,
			 unsigned int page_shift,
			 struct mlx5e_rx_buf_layout *l);
void mlx5e_rx_buf_layout_lro(u32 sw_mtu, unsigned int page_shift,
			     struct mlx5e_rx_buf_layout *l);
u32 mlx5e_rx_bufs_per_page(const struct mlx5e_rx_buf_layout *l,
			   unsigned int page_shift);
u32 mlx5e_rx_pages_per_kpkt(const struct mlx5e_rx_buf_layout *l,
			    unsigned int page_shift, u32 frame_len);

#endif /* __MLX5_EN_PARAMS_RX_H__ */
