// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Receive buffer sizing (see params_rx.h): what an RQ hands the device for
 * an MTU. Pure functions: no allocation, no device, no global state; the
 * page size is an argument so that the unit tests cover 4K and 64K pages
 * on any host.
 */
#include <linux/bpf.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/skbuff.h>

#include "params_rx.h"

/**
 * mlx5e_rx_headroom() - bytes before the frame in a linear buffer
 * @xdp: an XDP program runs on the buffer
 *
 * Return: XDP_PACKET_HEADROOM with XDP (what bpf_xdp_adjust_head() and
 * xdp_frame may use), else the stack's NET_SKB_PAD; plus NET_IP_ALIGN.
 */
u32 mlx5e_rx_headroom(bool xdp)
{
	return NET_IP_ALIGN + (xdp ? XDP_PACKET_HEADROOM : NET_SKB_PAD);
}

/**
 * mlx5e_rx_linear_sz() - bytes of a buffer built around a whole frame
 * @sw_mtu: the netdev MTU
 * @xdp: an XDP program runs on the buffer
 *
 * Return: headroom and the largest frame, then the skb_shared_info
 * tailroom, each aligned as build_skb() lays them out.
 */
u32 mlx5e_rx_linear_sz(u32 sw_mtu, bool xdp)
{
	return SKB_DATA_ALIGN(mlx5e_rx_headroom(xdp) + MLX5E_SW2HW_MTU(sw_mtu)) +
	       SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
}

/**
 * mlx5e_rx_max_linear_stride() - the largest stride a frame is linear in
 * @page_shift: log2 of the page size
 *
 * A buffer never spans pages (the pool's pages are order 0) and stays at
 * most MLX5E_RX_MAX_LINEAR_STRIDE.
 *
 * Return: bytes.
 */
u32 mlx5e_rx_max_linear_stride(unsigned int page_shift)
{
	return min_t(u32, 1U << page_shift, MLX5E_RX_MAX_LINEAR_STRIDE);
}

/**
 * mlx5e_rx_max_linear_mtu() - the largest MTU whose frames are linear
 * @xdp: with an XDP program
 * @page_shift: log2 of the page size
 *
 * Return: the software MTU; single-buffer XDP works up to it.
 */
u32 mlx5e_rx_max_linear_mtu(bool xdp, unsigned int page_shift)
{
	u32 room = mlx5e_rx_max_linear_stride(page_shift) -
		   SKB_DATA_ALIGN(sizeof(struct skb_shared_info));

	return MLX5E_HW2SW_MTU(room - mlx5e_rx_headroom(xdp));
}

/**
 * mlx5e_rx_xdp_head_sz() - the buffer a scattered frame's headers are
 *	copied into for XDP on the striding RQ
 *
 * Return: XDP headroom and MLX5E_RX_MAX_HEAD, then skb_shared_info, each
 * aligned as build_skb() lays them out.
 */
u32 mlx5e_rx_xdp_head_sz(void)
{
	return SKB_DATA_ALIGN(mlx5e_rx_headroom(true) + MLX5E_RX_MAX_HEAD) +
	       SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
}

static void mlx5e_rx_layout_scattered(enum mlx5e_rq_type type, u32 hw_mtu,
				      bool xdp, unsigned int page_shift,
				      struct mlx5e_rx_buf_layout *l)
{
	l->linear = false;
	l->headroom = 0;
	l->xdp_head_sz = 0;
	if (type == MLX5E_RQ_TYPE_STRIDING) {
		/* A frame consumes as many small strides as it needs; XDP
		 * gets the headers copied into a buffer of their own.
		 */
		l->stride = MLX5E_RX_MAX_HEAD;
		l->frag_size = l->stride;
		l->first_frag_size = l->stride;
		l->num_frags = 1;
		if (xdp)
			l->xdp_head_sz = mlx5e_rx_xdp_head_sz();
		return;
	}
	l->stride = mlx5e_rx_max_linear_stride(page_shift);
	l->frag_size = l->stride;
	l->first_frag_size = l->stride;
	if (xdp) {
		/* The first fragment is the linear part of the xdp_buff. */
		l->headroom = mlx5e_rx_headroom(true);
		l->first_frag_size = l->stride - l->headroom -
				     SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	}
	l->num_frags = 1 + DIV_ROUND_UP(hw_mtu - min_t(u32, hw_mtu, l->first_frag_size),
					l->stride);
}

/**
 * mlx5e_rx_buf_layout() - the receive buffers for an MTU
 * @type: legacy or striding RQ
 * @sw_mtu: the netdev MTU
 * @xdp: an XDP program runs on the buffers
 * @page_shift: log2 of the page size
 * @l: filled in
 *
 * Linear when the linear size rounded up to a power of two fits
 * mlx5e_rx_max_linear_stride(): that power of two is the stride, on both
 * RQ types, with or without XDP (XDP needs more headroom, never a page of
 * its own). Else scattered, for multi-buffer XDP too.
 */
void mlx5e_rx_buf_layout(enum mlx5e_rq_type type, u32 sw_mtu, bool xdp,
			 unsigned int page_shift,
			 struct mlx5e_rx_buf_layout *l)
{
	u32 hw_mtu = MLX5E_SW2HW_MTU(sw_mtu);
	u32 stride;

	l->type = type;
	l->linear_sz = mlx5e_rx_linear_sz(sw_mtu, xdp);
	stride = roundup_pow_of_two(l->linear_sz);
	if (stride > mlx5e_rx_max_linear_stride(page_shift)) {
		mlx5e_rx_layout_scattered(type, hw_mtu, xdp, page_shift, l);
		return;
	}
	l->linear = true;
	l->headroom = mlx5e_rx_headroom(xdp);
	l->stride = stride;
	l->frag_size = hw_mtu;
	l->first_frag_size = hw_mtu;
	l->xdp_head_sz = 0;
	l->num_frags = 1;
}

/**
 * mlx5e_rx_buf_layout_lro() - the striding RQ's buffers with LRO
 * @sw_mtu: the netdev MTU
 * @page_shift: log2 of the page size
 * @l: filled in
 *
 * Scattered whatever the MTU, as upstream: an LRO session fills as many
 * consecutive strides as it needs, which only the scattered layout
 * builds an SKB over. No XDP with LRO.
 */
void mlx5e_rx_buf_layout_lro(u32 sw_mtu, unsigned int page_shift,
			     struct mlx5e_rx_buf_layout *l)
{
	l->type = MLX5E_RQ_TYPE_STRIDING;
	l->linear_sz = mlx5e_rx_linear_sz(sw_mtu, false);
	mlx5e_rx_layout_scattered(MLX5E_RQ_TYPE_STRIDING,
				  MLX5E_SW2HW_MTU(sw_mtu), false, page_shift, l);
}

/**
 * mlx5e_rx_bufs_per_page() - buffers of a layout one page holds
 * @l: the layout
 * @page_shift: log2 of the page size
 *
 * Return: linear: frames per page; legacy scattered: WQEs per page (0 when
 * a WQE needs more than a page); striding scattered: strides per page.
 */
u32 mlx5e_rx_bufs_per_page(const struct mlx5e_rx_buf_layout *l,
			   unsigned int page_shift)
{
	return (1U << page_shift) / (l->stride * l->num_frags);
}

/**
 * mlx5e_rx_pages_per_kpkt() - pages 1000 frames take from the page pool
 * @l: the layout
 * @page_shift: log2 of the page size
 * @frame_len: bytes of each frame as the device writes it
 *
 * A legacy WQE takes all its fragments whatever the frame's size; a
 * striding RQ frame takes the strides it fills, and with XDP when
 * scattered the buffer its headers are copied into.
 *
 * Return: pages, rounded up.
 */
u32 mlx5e_rx_pages_per_kpkt(const struct mlx5e_rx_buf_layout *l,
			    unsigned int page_shift, u32 frame_len)
{
	u32 bytes = l->stride * l->num_frags;

	if (!l->linear && l->type == MLX5E_RQ_TYPE_STRIDING)
		bytes = DIV_ROUND_UP(frame_len, l->stride) * l->stride +
			l->xdp_head_sz;
	return DIV_ROUND_UP(1000 * bytes, 1U << page_shift);
}
