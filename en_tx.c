// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The TX pipeline, one function a stage:
 *
 *   mlx5e_xmit()
 *     mlx5e_sq_xmit_prepare()    header length, segments, bytes, MSS
 *     mlx5e_sq_calc_wqe_attr()   data segments and WQEBBs of the WQE
 *     mlx5e_txwqe_build_eseg()   checksum flags, VLAN insertion, inline
 *     then either
 *     mlx5e_sq_xmit_mpwqe()      a small linear SKB joins the SQ's open
 *                                MPWQE session (one data segment)
 *     or
 *     mlx5e_sq_xmit_wqe()        SEND or LSO: data segments, DMA fifo
 *     mlx5e_tx_doorbell_stage()  queue stop, BQL, completion request,
 *                                doorbell unless more is coming
 *
 * MPWQE (Enhanced Multi-Packet WQE, skb_tx_mpwqe): packets whose Ethernet
 * segments are identical share one WQE, a control and an Ethernet segment
 * followed by one data segment per packet. The session stays open across
 * calls while more is coming; it is closed when full (the device's largest
 * WQE, or the ring end: it never wraps, so no NOP pads before it), when an
 * SKB with another Ethernet segment or one that cannot join arrives, and
 * before every doorbell. Its SKBs wait in the SKB fifo.
 *
 * Completions (NAPI) walk the CQEs; one CQE completes every WQE up to the
 * one it names: a completion is requested on each doorbell, and within a
 * long batch every quarter ring. An error CQE hands the SQ to its
 * recovery work.
 */
#include <linux/fault-inject.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/geneve.h>
#include <net/netdev_queues.h>

#include "en.h"
#include "en/txrx.h"

#define MLX5E_TX_CQ_POLL_BUDGET	128

/* CQE opcodes (PRM) of the send side. */
#define MLX5E_CQE_REQ		0x0
#define MLX5E_CQE_REQ_ERR	0xd

/**
 * struct mlx5e_tx_attr - what the prepare stage learnt of an SKB
 * @num_bytes: bytes on the wire (headers counted per segment), for BQL
 * @num_pkts: packets on the wire
 * @headlen: bytes of the linear part after the inline headers
 * @ihs: header bytes inlined into the eseg
 * @mss: segment size (TSO), else 0
 * @opcode: SEND or LSO
 * @hwts: the send's hardware timestamp goes to the socket: a WQE of its
 *	own that requests a CQE
 */
struct mlx5e_tx_attr {
	u32 num_bytes;
	u16 num_pkts;
	u16 headlen;
	u16 ihs;
	u16 mss;
	u8 opcode;
	bool hwts;
};

/**
 * struct mlx5e_tx_wqe_attr - the WQE's shape
 * @ds_cnt: 16-byte segments
 * @ds_cnt_inl: segments taken by inline headers beyond the eseg
 * @num_wqebbs: basic blocks
 */
struct mlx5e_tx_wqe_attr {
	u16 ds_cnt;
	u16 ds_cnt_inl;
	u16 num_wqebbs;
};

/* Header bytes the SQ's minimum inline mode requires in the eseg. */
static u16 mlx5e_min_inline_len(struct mlx5e_txqsq *sq, struct sk_buff *skb)
{
	switch (sq->min_inline_mode) {
	case MLX5_INLINE_MODE_NONE:
		return 0;
	case MLX5_INLINE_MODE_L2:
		return min_t(u16, skb_headlen(skb), ETH_HLEN + VLAN_HLEN);
	default: /* IP or TCP/UDP: every header up to the payload */
		return eth_get_headlen(skb->dev, skb->data, skb_headlen(skb));
	}
}

/*
 * The socket asks for the send's hardware timestamp (SKBTX_HW_TSTAMP) and
 * the netdev gives them: it is in progress.
 */
static bool mlx5e_tx_hwtstamp_wanted(const struct mlx5e_txqsq *sq,
				     struct sk_buff *skb)
{
	if (likely(!(skb_shinfo(skb)->tx_flags & SKBTX_HW_TSTAMP)))
		return false;
	if (READ_ONCE(sq->hwtstamp->tx_type) != HWTSTAMP_TX_ON)
		return false;
	skb_shinfo(skb)->tx_flags |= SKBTX_IN_PROGRESS;
	return true;
}

/*
 * The headers an LSO WQE replicates in front of every segment: through
 * TCP's options, or the UDP header; of a tunnel (VXLAN, GENEVE, GRE,
 * IP-in-IP), through the inner TCP header.
 */
static u16 mlx5e_tx_gso_ihs(struct sk_buff *skb)
{
	if (skb->encapsulation)
		return skb_inner_tcp_all_headers(skb);
	if (skb_shinfo(skb)->gso_type & SKB_GSO_UDP_L4)
		return skb_transport_offset(skb) + sizeof(struct udphdr);
	return skb_tcp_all_headers(skb);
}

/*
 * UDP segmentation: the device copies the UDP header into every segment
 * as it finds it, length included, so the length must be one segment's.
 * GSO_PARTIAL made the segments equal; the stack left the whole
 * payload's length there. The checksum field is not touched: the
 * device computes each segment's.
 */
static void mlx5e_udp_gso_handle_tx_skb(struct sk_buff *skb)
{
	udp_hdr(skb)->len = htons(skb_shinfo(skb)->gso_size +
				  sizeof(struct udphdr));
}

static __always_inline void mlx5e_sq_xmit_prepare(struct mlx5e_txqsq *sq,
						  struct sk_buff *skb,
						  struct mlx5e_tx_attr *attr)
{
	if (skb_is_gso(skb)) {
		u16 ihs = mlx5e_tx_gso_ihs(skb);

		if (skb_shinfo(skb)->gso_type & SKB_GSO_UDP_L4)
			mlx5e_udp_gso_handle_tx_skb(skb);

		attr->opcode = MLX5E_OPCODE_LSO;
		attr->mss = skb_shinfo(skb)->gso_size;
		attr->ihs = ihs;
		attr->num_pkts = skb_shinfo(skb)->gso_segs;
		attr->num_bytes = skb->len + (attr->num_pkts - 1) * ihs;
	} else {
		attr->opcode = MLX5E_OPCODE_SEND;
		attr->mss = 0;
		attr->ihs = mlx5e_min_inline_len(sq, skb);
		/* A tag the eseg cannot insert goes in with inline headers. */
		if (skb_vlan_tag_present(skb) && !sq->vlan_insert)
			attr->ihs = max_t(u16, attr->ihs,
					  min_t(u16, skb_headlen(skb), ETH_HLEN));
		attr->num_pkts = 1;
		attr->num_bytes = max_t(unsigned int, skb->len, ETH_ZLEN);
	}
	attr->headlen = skb_headlen(skb) - attr->ihs;
	attr->hwts = mlx5e_tx_hwtstamp_wanted(sq, skb);
}

static void mlx5e_sq_calc_wqe_attr(struct sk_buff *skb,
				   const struct mlx5e_tx_attr *attr,
				   struct mlx5e_tx_wqe_attr *wqe_attr)
{
	u16 ds_cnt = sizeof(struct mlx5e_tx_wqe) / MLX5E_SEND_WQE_DS;
	u16 ds_cnt_inl = 0;

	ds_cnt += !!attr->headlen + skb_shinfo(skb)->nr_frags;
	if (attr->ihs) {
		/* Two bytes fit in the eseg itself, plus a VLAN tag if any. */
		u16 inl = attr->ihs - 2 + (skb_vlan_tag_present(skb) ? VLAN_HLEN : 0);

		ds_cnt_inl = DIV_ROUND_UP(inl, MLX5E_SEND_WQE_DS);
		ds_cnt += ds_cnt_inl;
	}
	wqe_attr->ds_cnt = ds_cnt;
	wqe_attr->ds_cnt_inl = ds_cnt_inl;
	wqe_attr->num_wqebbs = DIV_ROUND_UP(ds_cnt, MLX5E_WQEBB_NUM_DS);
}

/* Headers copied into the eseg, the VLAN tag spliced in after the MACs.
 * The copy starts in the eseg's two inline bytes and runs on into the
 * segments that follow it in the WQE (sized by mlx5e_sq_calc_wqe_attr()).
 */
static void mlx5e_insert_inline(struct sk_buff *skb, u16 ihs, u8 *dst)
{
	if (skb_vlan_tag_present(skb)) {
		struct vlan_ethhdr vhdr;

		memcpy(&vhdr, skb->data, 2 * ETH_ALEN);
		vhdr.h_vlan_proto = skb->vlan_proto;
		vhdr.h_vlan_TCI = cpu_to_be16(skb_vlan_tag_get(skb));
		vhdr.h_vlan_encapsulated_proto = *(__be16 *)(skb->data + 2 * ETH_ALEN);
		unsafe_memcpy(dst, &vhdr, sizeof(vhdr),
			      /* inline headers span the following segments */);
		unsafe_memcpy(dst + VLAN_ETH_HLEN, skb->data + ETH_HLEN,
			      ihs - ETH_HLEN,
			      /* inline headers span the following segments */);
	} else {
		unsafe_memcpy(dst, skb->data, ihs,
			      /* inline headers span the following segments */);
	}
}

/*
 * GENEVE to 6081 (mlx5e_features_check() let no other UDP tunnel but
 * VXLAN through): the device does not parse it, the software parser
 * offsets (2-byte words) and flags tell it where the outer and inner
 * headers are, as upstream's mlx5e_tx_tunnel_accel(). They are of the
 * frame as the WQE gives it: a VLAN tag the driver inlines moves them.
 */
static void mlx5e_txwqe_build_eseg_swp(struct sk_buff *skb,
				       const struct mlx5e_tx_attr *attr,
				       struct mlx5e_wqe_eth_seg *eseg)
{
	u8 vlan = skb_vlan_tag_present(skb) && attr->ihs ? VLAN_HLEN / 2 : 0;
	__be16 l3_proto = vlan_get_protocol(skb);
	unsigned int offset = 0;
	u8 flags, inner_l4;
	int l4_proto;

	switch (l3_proto) {
	case htons(ETH_P_IP):
		l4_proto = ip_hdr(skb)->protocol;
		break;
	case htons(ETH_P_IPV6):
		l4_proto = ipv6_find_hdr(skb, &offset, -1, NULL, NULL);
		break;
	default:
		return;
	}
	if (l4_proto != IPPROTO_UDP ||
	    udp_hdr(skb)->dest != htons(GENEVE_UDP_PORT))
		return;
	flags = MLX5E_ETH_WQE_SWP_OUTER_L4_UDP;
	if (l3_proto == htons(ETH_P_IPV6))
		flags |= MLX5E_ETH_WQE_SWP_OUTER_L3_IPV6;
	if (inner_ip_hdr(skb)->version == 6) {
		flags |= MLX5E_ETH_WQE_SWP_INNER_L3_IPV6;
		inner_l4 = inner_ipv6_hdr(skb)->nexthdr;
	} else {
		inner_l4 = inner_ip_hdr(skb)->protocol;
	}
	eseg->swp[MLX5E_SWP_OUTER_L3] = skb_network_offset(skb) / 2 + vlan;
	eseg->swp[MLX5E_SWP_OUTER_L4] = skb_transport_offset(skb) / 2 + vlan;
	eseg->swp[MLX5E_SWP_INNER_L3] = skb_inner_network_offset(skb) / 2 +
					vlan;
	if (inner_l4 == IPPROTO_UDP)
		flags |= MLX5E_ETH_WQE_SWP_INNER_L4_UDP;
	if (inner_l4 == IPPROTO_UDP || inner_l4 == IPPROTO_TCP)
		eseg->swp[MLX5E_SWP_INNER_L4] =
			skb_inner_transport_offset(skb) / 2 + vlan;
	eseg->swp_flags = flags;
}

static void mlx5e_txwqe_build_eseg(struct mlx5e_txqsq *sq, struct sk_buff *skb,
				   const struct mlx5e_tx_attr *attr,
				   struct mlx5e_wqe_eth_seg *eseg)
{
	if (likely(skb->ip_summed == CHECKSUM_PARTIAL)) {
		/*
		 * A tunnel (mlx5e_features_check() let only VXLAN to a port
		 * of the device's table, GENEVE to 6081, GRE and IP-in-IP
		 * through): the inner checksums, and the outer IPv4
		 * header's; an outer UDP or GRE checksum is the stack's (0,
		 * or local checksum offload).
		 */
		if (skb->encapsulation) {
			eseg->cs_flags = MLX5E_ETH_WQE_L3_CSUM |
					 MLX5E_ETH_WQE_L3_INNER_CSUM |
					 MLX5E_ETH_WQE_L4_INNER_CSUM;
			if (sq->swp)
				mlx5e_txwqe_build_eseg_swp(skb, attr, eseg);
			mlx5e_stats_add(&sq->stats->syncp,
					&sq->stats->csum_partial_inner, 1);
		} else {
			eseg->cs_flags = MLX5E_ETH_WQE_L3_CSUM |
					 MLX5E_ETH_WQE_L4_CSUM;
			mlx5e_stats_add(&sq->stats->syncp,
					&sq->stats->csum_partial, 1);
		}
	} else {
		mlx5e_stats_add(&sq->stats->syncp, &sq->stats->csum_none, 1);
	}
	eseg->mss = cpu_to_be16(attr->mss);

	if (attr->ihs) {
		u16 len = attr->ihs + (skb_vlan_tag_present(skb) ? VLAN_HLEN : 0);

		eseg->inline_hdr_sz = cpu_to_be16(len);
		mlx5e_insert_inline(skb, attr->ihs, eseg->inline_hdr);
	} else if (skb_vlan_tag_present(skb)) {
		eseg->insert.type = cpu_to_be16(MLX5E_ETH_WQE_INSERT_VLAN);
		eseg->insert.vlan_tci = cpu_to_be16(skb_vlan_tag_get(skb));
	}
}

static void mlx5e_dma_push(struct mlx5e_txqsq *sq, dma_addr_t addr, u32 size,
			   bool page)
{
	struct mlx5e_sq_dma *d = &sq->dma_fifo[sq->dma_fifo_pc++ & sq->dma_fifo_mask];

	d->addr = addr;
	d->size = size;
	d->page = page;
}

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
/*
 * debugfs mlx5/fail_tx_map: TX mappings failed on purpose, as an exhausted
 * IOMMU fails them (Documentation/fault-injection/fault-injection.rst).
 * Off (probability 0) until a test sets it.
 */
static DECLARE_FAULT_ATTR(mlx5e_fail_tx_map);

/**
 * mlx5e_fault_debugfs_init() - the data path's fault injection attributes
 * @root: the module's debugfs directory
 */
void mlx5e_fault_debugfs_init(struct dentry *root)
{
	fault_create_debugfs_attr("fail_tx_map", root, &mlx5e_fail_tx_map);
}

static bool mlx5e_tx_map_fails(u32 len)
{
	return should_fail(&mlx5e_fail_tx_map, len);
}
#else
static bool mlx5e_tx_map_fails(u32 len)
{
	return false;
}
#endif

/* Map a linear TX buffer: 0, or -ENOMEM and nothing mapped. */
static __always_inline int mlx5e_tx_map_single(struct mlx5e_txqsq *sq,
					       void *ptr, u32 len,
					       dma_addr_t *addr)
{
	if (mlx5e_tx_map_fails(len))
		return -ENOMEM;
	*addr = dma_map_single(sq->pdev, ptr, len, DMA_TO_DEVICE);
	return unlikely(dma_mapping_error(sq->pdev, *addr)) ? -ENOMEM : 0;
}

static void mlx5e_dma_unmap(struct mlx5e_txqsq *sq, struct mlx5e_sq_dma *d)
{
	if (d->page)
		dma_unmap_page(sq->pdev, d->addr, d->size, DMA_TO_DEVICE);
	else
		dma_unmap_single(sq->pdev, d->addr, d->size, DMA_TO_DEVICE);
}

static void mlx5e_dma_unmap_n(struct mlx5e_txqsq *sq, u8 n)
{
	while (n--)
		mlx5e_dma_unmap(sq, &sq->dma_fifo[--sq->dma_fifo_pc & sq->dma_fifo_mask]);
}

/* Data segments for the linear part and the fragments. */
static int mlx5e_txwqe_build_dsegs(struct mlx5e_txqsq *sq, struct sk_buff *skb,
				   const struct mlx5e_tx_attr *attr,
				   struct mlx5e_wqe_data_seg *dseg)
{
	int i, n = 0;

	if (attr->headlen) {
		dma_addr_t addr;

		if (mlx5e_tx_map_single(sq, skb->data + attr->ihs,
					attr->headlen, &addr))
			return -ENOMEM;
		dseg->addr = cpu_to_be64(addr);
		dseg->lkey = sq->mkey_be;
		dseg->byte_count = cpu_to_be32(attr->headlen);
		mlx5e_dma_push(sq, addr, attr->headlen, false);
		dseg++;
		n++;
	}
	for (i = 0; i < skb_shinfo(skb)->nr_frags; i++, dseg++, n++) {
		skb_frag_t *frag = &skb_shinfo(skb)->frags[i];
		u32 len = skb_frag_size(frag);
		dma_addr_t addr = skb_frag_dma_map(sq->pdev, frag, 0, len,
						   DMA_TO_DEVICE);

		if (unlikely(dma_mapping_error(sq->pdev, addr)))
			goto err_unmap;
		dseg->addr = cpu_to_be64(addr);
		dseg->lkey = sq->mkey_be;
		dseg->byte_count = cpu_to_be32(len);
		mlx5e_dma_push(sq, addr, len, true);
	}
	return n;

err_unmap:
	mlx5e_dma_unmap_n(sq, n);
	return -ENOMEM;
}

static void mlx5e_tx_request_cqe(struct mlx5e_txqsq *sq,
				 struct mlx5e_wqe_ctrl_seg *ctrl)
{
	ctrl->fm_ce_se |= MLX5E_WQE_CTRL_CQ_UPDATE;
	sq->last_cqe_pc = sq->pc;
}

/* Within a long batch, a completion every cqe_mod WQEBBs. */
static void mlx5e_tx_maybe_request_cqe(struct mlx5e_txqsq *sq,
				       struct mlx5e_wqe_ctrl_seg *ctrl)
{
	if (unlikely((u16)(sq->pc - sq->last_cqe_pc) >= sq->cqe_mod))
		mlx5e_tx_request_cqe(sq, ctrl);
}

static bool mlx5e_tx_mpwqe_session_is_open(const struct mlx5e_txqsq *sq)
{
	return mlx5e_mpwqe_is_open(&sq->mpwqe);
}

/* WQEBBs the open session takes beyond the producer counter. */
static u16 mlx5e_tx_mpwqe_session_wqebbs(const struct mlx5e_txqsq *sq)
{
	return mlx5e_mpwqe_wqebbs(&sq->mpwqe);
}

/* An SKB that can be a data segment of a session: one linear buffer, no
 * LSO, no header to inline and no VLAN tag to insert (both would make its
 * Ethernet segment its own), no hardware timestamp (it needs a CQE of its
 * own WQE).
 */
static bool mlx5e_tx_skb_fits_mpwqe(const struct sk_buff *skb,
				    const struct mlx5e_tx_attr *attr)
{
	return !skb_is_nonlinear(skb) && !attr->mss && !attr->ihs &&
	       !skb_vlan_tag_present(skb) && !attr->hwts;
}

/* Open a session at the producer index (txrx.h). */
static void mlx5e_tx_mpwqe_session_start(struct mlx5e_txqsq *sq,
					 const struct mlx5e_wqe_eth_seg *eseg)
{
	mlx5e_mpwqe_open(&sq->mpwqe, &sq->wq, sq->pc, sq->max_mpw_ds, eseg);
	mlx5e_stats_add(&sq->stats->syncp, &sq->stats->mpwqe_blks, 1);
}

/* Post the open session: one WQE info owns all of its SKBs and mappings. */
static struct mlx5e_wqe_ctrl_seg *
mlx5e_tx_mpwqe_session_complete(struct mlx5e_txqsq *sq)
{
	struct mlx5e_tx_mpwqe *session = &sq->mpwqe;
	struct mlx5e_tx_wqe_info *wi = &sq->wqe_info[mlx5e_sq_pi(sq)];
	struct mlx5e_wqe_ctrl_seg *ctrl;

	ctrl = mlx5e_mpwqe_close(session, sq->pc, sq->qpn_be);
	*wi = (struct mlx5e_tx_wqe_info) {
		.num_bytes = session->bytes,
		.num_wqebbs = mlx5e_mpwqe_wqebbs(session),
		.num_dma = session->pkts,
		.num_fifo_pkts = session->pkts,
	};
	sq->pc += wi->num_wqebbs;
	mlx5e_tx_maybe_request_cqe(sq, ctrl);
	return ctrl;
}

/**
 * mlx5e_tx_doorbell_stage() - queue stop, BQL, doorbell
 * @sq: the SQ
 * @ctrl: control segment of the WQE just posted (NULL: the SKB joined the
 *	open session)
 * @num_bytes: bytes of the SKB, for BQL
 * @xmit_more: the stack has more for this queue
 *
 * The queue stops while room remains for the largest WQE and its ring-end
 * padding after the open session is closed; a stopping queue closes the
 * session and rings, so that its completions can wake it. Otherwise the
 * doorbell waits for the end of the burst, and rings after closing the
 * session, with a completion request.
 *
 * BQL stops the queue (STACK_XOFF) only at the end of a burst, which rings
 * anyway. A sender that goes on under xmit_more while BQL has the queue
 * stopped (pktgen: it heeds only the driver's stop) ends its burst or
 * meets the driver's stop, both of which ring: such an SKB does not ring
 * (__netdev_tx_sent_queue() tells the driver's stop only), else each of
 * them would close the session and ring until BQL's completions wake the
 * queue.
 */
static void mlx5e_tx_doorbell_stage(struct mlx5e_txqsq *sq,
				    struct mlx5e_wqe_ctrl_seg *ctrl,
				    u32 num_bytes, bool xmit_more)
{
	struct mlx5e_sq_stats *stats = sq->stats;
	bool open = mlx5e_tx_mpwqe_session_is_open(sq);
	bool ring;

	/*
	 * Above the stop room, counting the open session's WQEBBs, there is
	 * nothing to close or stop: one look at the ring per SKB.
	 */
	if (unlikely((int)mlx5e_sq_room(sq) -
		     (open ? mlx5e_tx_mpwqe_session_wqebbs(sq) : 0) <
		     sq->stop_room)) {
		if (open)
			ctrl = mlx5e_tx_mpwqe_session_complete(sq);
		if (!netif_txq_maybe_stop(sq->txq, mlx5e_sq_room(sq),
					  sq->stop_room, sq->wake_room))
			mlx5e_stats_add(&stats->syncp, &stats->stopped, 1);
	}
	ring = __netdev_tx_sent_queue(sq->txq, num_bytes, xmit_more);

	if (ring && mlx5e_tx_mpwqe_session_is_open(sq))
		ctrl = mlx5e_tx_mpwqe_session_complete(sq);

	u64_stats_update_begin(&stats->syncp);
	if (xmit_more && !ring)
		u64_stats_inc(&stats->xmit_more);
	if (ring)
		u64_stats_inc(&stats->doorbells);
	u64_stats_update_end(&stats->syncp);

	if (ring) {
		/* Nothing rung waits for a later WQE to be completed. */
		mlx5e_tx_request_cqe(sq, ctrl);
		sq->rung_pc = sq->pc;
		mlx5e_notify_hw(sq, ctrl);
	}
}

/* Close the session, post a NOP (the doorbell names a WQE) and ring. */
static void mlx5e_tx_ring_nop(struct mlx5e_txqsq *sq)
{
	struct mlx5e_wqe_ctrl_seg *ctrl;

	if (mlx5e_tx_mpwqe_session_is_open(sq))
		mlx5e_tx_mpwqe_session_complete(sq);
	ctrl = mlx5e_post_nop(sq);
	u64_stats_update_begin(&sq->stats->syncp);
	u64_stats_inc(&sq->stats->nop);
	u64_stats_inc(&sq->stats->doorbells);
	u64_stats_update_end(&sq->stats->syncp);
	mlx5e_tx_request_cqe(sq, ctrl);
	sq->rung_pc = sq->pc;
	mlx5e_notify_hw(sq, ctrl);
}

/**
 * mlx5e_tx_flush_pending() - ring for WQEs a broken burst left unrung
 * @sq: the SQ, out of service (ENABLED cleared, no xmit runs on it)
 *
 * A sender that stops mid-burst once the queue is stopped (pktgen does)
 * never sends the SKB that was to ring: before the SQ is taken down, what
 * it holds is posted and rung, so that it is sent rather than dropped.
 * Not in error: the device takes no doorbell of an SQ in ERR.
 */
void mlx5e_tx_flush_pending(struct mlx5e_txqsq *sq)
{
	if (test_bit(MLX5E_SQ_STATE_RECOVERING, &sq->state))
		return;
	if (mlx5e_tx_mpwqe_session_is_open(sq) || sq->pc != sq->rung_pc)
		mlx5e_tx_ring_nop(sq);
}

/**
 * mlx5e_tx_flush() - ring for what was posted before a dropped SKB
 * @sq: the SQ
 * @xmit_more: what the stack said of the dropped SKB
 *
 * WQEs posted earlier in the burst were waiting for the dropped SKB's
 * doorbell: close the session, post a NOP (the doorbell names a WQE) and
 * ring. Nothing is owed while more is coming and the driver has not
 * stopped the queue: the rule __netdev_tx_sent_queue() gives
 * mlx5e_tx_doorbell_stage() (BQL stops a queue only for an SKB without
 * xmit_more, which rings anyway).
 */
static void mlx5e_tx_flush(struct mlx5e_txqsq *sq, bool xmit_more)
{
	if (xmit_more && !netif_tx_queue_stopped(sq->txq))
		return;
	if (mlx5e_tx_mpwqe_session_is_open(sq) || sq->pc != sq->rung_pc)
		mlx5e_tx_ring_nop(sq);
}

static void mlx5e_tx_drop(struct mlx5e_txqsq *sq, struct sk_buff *skb,
			  bool xmit_more)
{
	mlx5e_stats_add(&sq->stats->syncp, &sq->stats->dropped, 1);
	dev_kfree_skb_any(skb);
	mlx5e_tx_flush(sq, xmit_more);
}

static void mlx5e_sq_xmit_wqe(struct mlx5e_txqsq *sq, struct sk_buff *skb,
			      const struct mlx5e_tx_attr *attr,
			      const struct mlx5e_tx_wqe_attr *wqe_attr,
			      struct mlx5e_tx_wqe *wqe, bool xmit_more)
{
	struct mlx5e_wqe_ctrl_seg *ctrl = &wqe->ctrl;
	struct mlx5e_sq_stats *stats = sq->stats;
	struct mlx5e_tx_wqe_info *wi;
	u16 pi = mlx5e_sq_pi(sq);
	int num_dma;

	num_dma = mlx5e_txwqe_build_dsegs(sq, skb, attr,
					  wqe->data + wqe_attr->ds_cnt_inl);
	if (unlikely(num_dma < 0)) {
		mlx5e_tx_drop(sq, skb, xmit_more);
		return;
	}

	ctrl->opmod_idx_opcode = cpu_to_be32((u32)sq->pc << 8 | attr->opcode);
	ctrl->qpn_ds = sq->qpn_be | cpu_to_be32(wqe_attr->ds_cnt);

	wi = &sq->wqe_info[pi];
	wi->skb = skb;
	wi->num_bytes = attr->num_bytes;
	wi->num_wqebbs = wqe_attr->num_wqebbs;
	wi->num_dma = num_dma;
	wi->num_fifo_pkts = 0;
	sq->pc += wqe_attr->num_wqebbs;
	if (unlikely(attr->hwts))
		mlx5e_tx_request_cqe(sq, ctrl);
	else
		mlx5e_tx_maybe_request_cqe(sq, ctrl);
	skb_tx_timestamp(skb);

	u64_stats_update_begin(&stats->syncp);
	u64_stats_add(&stats->packets, attr->num_pkts);
	u64_stats_add(&stats->bytes, attr->num_bytes);
	if (attr->mss && skb->encapsulation) {
		u64_stats_inc(&stats->tso_inner_packets);
		u64_stats_add(&stats->tso_inner_bytes, skb->len - attr->ihs);
	} else if (attr->mss) {
		u64_stats_inc(&stats->tso_packets);
		u64_stats_add(&stats->tso_bytes, skb->len - attr->ihs);
	}
	u64_stats_update_end(&stats->syncp);

	mlx5e_tx_doorbell_stage(sq, ctrl, attr->num_bytes, xmit_more);
}

/* An SKB into the open session, or a new one. */
static void mlx5e_sq_xmit_mpwqe(struct mlx5e_txqsq *sq, struct sk_buff *skb,
				const struct mlx5e_tx_attr *attr,
				const struct mlx5e_wqe_eth_seg *eseg,
				bool xmit_more)
{
	struct mlx5e_sq_stats *stats = sq->stats;
	struct mlx5e_wqe_ctrl_seg *ctrl = NULL;
	dma_addr_t addr;

	if (mlx5e_tx_map_single(sq, skb->data, skb->len, &addr)) {
		mlx5e_tx_drop(sq, skb, xmit_more);
		return;
	}

	if (!mlx5e_tx_mpwqe_session_is_open(sq)) {
		mlx5e_tx_mpwqe_session_start(sq, eseg);
	} else if (!mlx5e_mpwqe_same_eseg(&sq->mpwqe, eseg)) {
		mlx5e_tx_mpwqe_session_complete(sq);
		mlx5e_tx_mpwqe_session_start(sq, eseg);
	}

	mlx5e_dma_push(sq, addr, skb->len, false);
	sq->skb_fifo[sq->skb_fifo_pc++ & sq->skb_fifo_mask] = skb;
	mlx5e_mpwqe_add_dseg(&sq->mpwqe, addr, skb->len, sq->mkey_be,
			     attr->num_bytes);
	skb_tx_timestamp(skb);

	u64_stats_update_begin(&stats->syncp);
	u64_stats_inc(&stats->packets);
	u64_stats_add(&stats->bytes, attr->num_bytes);
	u64_stats_inc(&stats->mpwqe_pkts);
	u64_stats_update_end(&stats->syncp);

	if (mlx5e_mpwqe_is_full(&sq->mpwqe))
		ctrl = mlx5e_tx_mpwqe_session_complete(sq);
	mlx5e_tx_doorbell_stage(sq, ctrl, attr->num_bytes, xmit_more);
}

/*
 * No SQ in service behind the SKB's queue: the SKB is dropped and counted
 * on the queue's channel (its writer is xmit, under the queue's lock).
 * A switch or a close takes the SQs out of service a moment before the
 * stack's TX queues stop. Once they are stopped
 * (MLX5E_STATE_TX_DISABLED), only a wake of a queue the driver disabled,
 * a bug, brings xmit here: counted apart and said once. The bit is read
 * after a read barrier (paired with the one in mlx5e_activate_priv()):
 * an earlier read may predate the stack's own of the queue's state.
 */
static void mlx5e_xmit_no_sq(struct mlx5e_priv *priv, struct sk_buff *skb,
			     u16 qid)
{
	struct mlx5e_sq_stats *stats = &priv->channel_stats[qid].sq;
	bool disabled;

	dev_kfree_skb_any(skb);
	/* The queue's state before the bit: pairs with the wake's. */
	smp_rmb();
	disabled = test_bit(MLX5E_STATE_TX_DISABLED, &priv->state);
	u64_stats_update_begin(&stats->syncp);
	u64_stats_inc(&stats->dropped);
	if (disabled)
		u64_stats_inc(&stats->xmit_disabled);
	u64_stats_update_end(&stats->syncp);
	if (disabled)
		netdev_warn_once(priv->netdev,
				 "xmit on TX queue %u while the TX queues are disabled\n",
				 qid);
}

/**
 * mlx5e_xmit() - ndo_start_xmit
 * @skb: the packet
 * @netdev: the netdev
 *
 * Return: NETDEV_TX_OK (the SKB is sent or dropped and counted).
 */
netdev_tx_t mlx5e_xmit(struct sk_buff *skb, struct net_device *netdev)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	struct mlx5e_wqe_ctrl_seg *nop_ctrl = NULL;
	bool xmit_more = netdev_xmit_more();
	struct mlx5e_tx_wqe_attr wqe_attr;
	struct mlx5e_tx_attr attr;
	struct mlx5e_tx_wqe *wqe;
	struct mlx5e_txqsq *sq;

	sq = READ_ONCE(priv->txq2sq[skb_get_queue_mapping(skb)]);
	if (unlikely(!sq || !test_bit(MLX5E_SQ_STATE_ENABLED, &sq->state))) {
		mlx5e_xmit_no_sq(priv, skb, skb_get_queue_mapping(skb));
		return NETDEV_TX_OK;
	}

	mlx5e_sq_xmit_prepare(sq, skb, &attr);
	if (unlikely(attr.ihs > MLX5E_MAX_INLINE_HDR))
		goto drop;

	if (test_bit(MLX5E_SQ_STATE_MPWQE, &sq->state)) {
		if (mlx5e_tx_skb_fits_mpwqe(skb, &attr)) {
			struct mlx5e_wqe_eth_seg eseg = {};

			mlx5e_txwqe_build_eseg(sq, skb, &attr, &eseg);
			mlx5e_sq_xmit_mpwqe(sq, skb, &attr, &eseg, xmit_more);
			return NETDEV_TX_OK;
		}
		/* It goes alone, after what the session holds. */
		if (mlx5e_tx_mpwqe_session_is_open(sq))
			mlx5e_tx_mpwqe_session_complete(sq);
	}

	mlx5e_sq_calc_wqe_attr(skb, &attr, &wqe_attr);
	if (unlikely(wqe_attr.num_wqebbs > MLX5E_SQ_MAX_WQEBBS)) {
		if (skb_linearize(skb))
			goto drop;
		mlx5e_sq_xmit_prepare(sq, skb, &attr);
		mlx5e_sq_calc_wqe_attr(skb, &attr, &wqe_attr);
	}

	wqe = mlx5e_fetch_wqe(sq, wqe_attr.num_wqebbs, &nop_ctrl);
	mlx5e_txwqe_build_eseg(sq, skb, &attr, &wqe->eth);
	mlx5e_sq_xmit_wqe(sq, skb, &attr, &wqe_attr, wqe, xmit_more);
	return NETDEV_TX_OK;

drop:
	mlx5e_tx_drop(sq, skb, xmit_more);
	return NETDEV_TX_OK;
}

/* The send's timestamp, of the PHC's timer, to the socket's error queue. */
static void mlx5e_tx_hwtstamp(struct mlx5e_txqsq *sq, struct sk_buff *skb,
			      struct mlx5_cqe64 *cqe)
{
	struct skb_shared_hwtstamps hwts = {};
	u64 ns = mlx5_clock_cyc2time(sq->ch->priv->mdev, get_cqe_ts(cqe));

	hwts.hwtstamp = ns_to_ktime(ns);
	skb_tstamp_tx(skb, &hwts);
}

/* Release what one posted WQE owns: its SKB, or a session's SKBs. The
 * DMA fifo's consumer counter is the caller's (@dma_fifo_cc). @cqe: the
 * successful completion of this very WQE, which stamps an SKB waiting for
 * its timestamp; else NULL.
 */
static void mlx5e_tx_wi_free(struct mlx5e_txqsq *sq,
			     struct mlx5e_tx_wqe_info *wi,
			     struct mlx5_cqe64 *cqe, u32 *dma_fifo_cc,
			     int napi_budget, u32 *pkts, u32 *bytes)
{
	u8 i;

	if (!wi->skb && !wi->num_fifo_pkts)
		return;
	for (i = 0; i < wi->num_dma; i++)
		mlx5e_dma_unmap(sq, &sq->dma_fifo[(*dma_fifo_cc)++ &
						  sq->dma_fifo_mask]);
	*bytes += wi->num_bytes;
	if (wi->skb) {
		if (unlikely(skb_shinfo(wi->skb)->tx_flags & SKBTX_IN_PROGRESS) &&
		    cqe)
			mlx5e_tx_hwtstamp(sq, wi->skb, cqe);
		napi_consume_skb(wi->skb, napi_budget);
		wi->skb = NULL;
		(*pkts)++;
		return;
	}
	for (i = 0; i < wi->num_fifo_pkts; i++)
		napi_consume_skb(sq->skb_fifo[sq->skb_fifo_cc++ &
					      sq->skb_fifo_mask], napi_budget);
	*pkts += wi->num_fifo_pkts;
	wi->num_fifo_pkts = 0;
}

/* Release what the WQEs from @sqcc up to @last own; returns the new
 * consumer counter (not yet the SQ's: see mlx5e_poll_tx_cq()). @last is
 * a posted WQE: in [@sqcc, pc). @cqe, when not NULL, is @last's
 * successful completion, with its timestamp.
 */
static u16 mlx5e_tx_complete_wqes(struct mlx5e_txqsq *sq, u16 sqcc, u16 last,
				  struct mlx5_cqe64 *cqe, u32 *dma_fifo_cc,
				  int napi_budget, u32 *pkts, u32 *bytes)
{
	bool done;

	do {
		u16 ci = mlx5_wq_cyc_ctr2ix(&sq->wq, sqcc);
		struct mlx5e_tx_wqe_info *wi = &sq->wqe_info[ci];

		done = sqcc == last;
		mlx5e_tx_wi_free(sq, wi, done ? cqe : NULL, dma_fifo_cc,
				 napi_budget, pkts, bytes);
		sqcc += wi->num_wqebbs;
	} while (!done);
	return sqcc;
}

/*
 * A CQE must name a WQE posted and not yet completed: in [@sqcc, *@pc).
 * *@pc may be older than the WQE (read before the CQE): it is read again
 * before a CQE is called stale. Any other (a completion left from before
 * a reset of the SQ) would complete WQEs that are not there, or in
 * flight, and take the consumer counter past the producer: it completes
 * nothing, and is counted.
 */
static bool mlx5e_tx_cqe_stale(struct mlx5e_txqsq *sq, u16 sqcc, u16 *pc,
			       u16 last)
{
	if (likely((u16)(last - sqcc) < (u16)(*pc - sqcc)))
		return false;
	/* Posted before the device completed it: a fresh read sees it. */
	*pc = READ_ONCE(sq->pc);
	if (likely((u16)(last - sqcc) < (u16)(*pc - sqcc)))
		return false;
	netdev_warn_once(sq->ch->netdev,
			 "SQ 0x%x: CQE for WQE %u outside the posted [%u, %u): ignored\n",
			 sq->sqn, last, sqcc, *pc);
	return true;
}

/* Up to a budget of TX completions; whether CQEs may remain. */
static bool __mlx5e_poll_tx_cq(struct mlx5e_txqsq *sq, int napi_budget)
{
	struct mlx5e_sq_cq_stats *stats = sq->cq_stats;
	struct mlx5e_cq *cq = &sq->cq;
	u32 pkts = 0, bytes = 0;
	struct mlx5_cqe64 *cqe;
	int n = 0, err = 0, stale = 0;
	u32 dma_fifo_cc;
	u16 sqcc, pc;

	/*
	 * The TX CQ has as many entries as the SQ: slots freed to xmit
	 * before the CQ's doorbell record says its CQEs are consumed let
	 * the device complete more WQEs than the CQ has room for (overrun).
	 * The counters are local until the record is written.
	 */
	sqcc = sq->cc;
	dma_fifo_cc = sq->dma_fifo_cc;
	/*
	 * The producer, read once: a CQE naming a WQE posted since has it
	 * read again (mlx5e_tx_cqe_stale()).
	 */
	pc = READ_ONCE(sq->pc);
	while (n < MLX5E_TX_CQ_POLL_BUDGET && (cqe = mlx5_cqwq_get_cqe(&cq->wq))) {
		u16 last = be16_to_cpu(cqe->wqe_counter);
		u8 opcode = get_cqe_opcode(cqe);

		mlx5_cqwq_pop(&cq->wq);
		n++;
		if (unlikely(opcode == MLX5E_CQE_REQ_ERR)) {
			err++;
			if (!test_and_set_bit(MLX5E_SQ_STATE_RECOVERING,
					      &sq->state))
				queue_work(sq->ch->priv->wq, &sq->recover_work);
		}
		if (unlikely(mlx5e_tx_cqe_stale(sq, sqcc, &pc, last))) {
			stale++;
			continue;
		}
		sqcc = mlx5e_tx_complete_wqes(sq, sqcc, last,
					      opcode == MLX5E_CQE_REQ ? cqe : NULL,
					      &dma_fifo_cc, napi_budget,
					      &pkts, &bytes);
	}
	if (!n)
		return false;
	mlx5_cqwq_update_db(&cq->wq);
	/* The CQ's room is the device's before the SQ's is xmit's. */
	wmb();
	sq->dma_fifo_cc = dma_fifo_cc;
	WRITE_ONCE(sq->cc, sqcc);

	u64_stats_update_begin(&stats->syncp);
	u64_stats_add(&stats->cqes, n);
	u64_stats_add(&stats->cqe_err, err);
	u64_stats_add(&stats->cqe_stale, stale);
	u64_stats_update_end(&stats->syncp);

	if (!__netif_txq_completed_wake(sq->txq, pkts, bytes, mlx5e_sq_room(sq),
					sq->wake_room,
					test_bit(MLX5E_SQ_STATE_RECOVERING,
						 &sq->state))) {
		mlx5e_stats_add(&stats->syncp, &stats->wake, 1);
	}
	return n == MLX5E_TX_CQ_POLL_BUDGET;
}

/**
 * mlx5e_poll_tx_cq() - TX completions of an SQ (NAPI)
 * @sq: the SQ
 * @napi_budget: NAPI budget
 *
 * Only while the SQ is in service (ENABLED): one taken out of it
 * (mlx5e_deactivate_priv()) has left its bytes in flight out of BQL, and
 * its TX queue may be the next SQ's already: no completion of its own
 * wakes that queue or touches its BQL state any more.
 *
 * Return: whether CQEs may remain.
 */
bool mlx5e_poll_tx_cq(struct mlx5e_txqsq *sq, int napi_budget)
{
	if (unlikely(!test_bit(MLX5E_SQ_STATE_ENABLED, &sq->state)))
		return false;
	return __mlx5e_poll_tx_cq(sq, napi_budget);
}

/**
 * mlx5e_drain_tx_cq() - every completion of an SQ in recovery
 * @sq: the SQ, RECOVERING set (no queue wake), its NAPI disabled
 */
void mlx5e_drain_tx_cq(struct mlx5e_txqsq *sq)
{
	while (__mlx5e_poll_tx_cq(sq, 0))
		;
}

/**
 * mlx5e_tx_bql_detach() - take an SQ's bytes in flight out of BQL
 * @sq: the SQ, out of service (ENABLED cleared, no xmit or poll on it)
 *
 * Its TX queue goes to another SQ (or to this one again, after a failed
 * switch) while the device may still complete these WQEs: they are
 * reported to BQL as completed now, once, and complete later with no
 * bytes, so that BQL sees each byte completed once and never from two
 * SQs at the same time.
 */
void mlx5e_tx_bql_detach(struct mlx5e_txqsq *sq)
{
	u32 pkts = 0, bytes = 0;
	u16 cc = sq->cc;

	/* Its bytes were reported sent SKB by SKB (a RECOVERING SQ's). */
	if (mlx5e_tx_mpwqe_session_is_open(sq))
		mlx5e_tx_mpwqe_session_complete(sq);
	while (cc != sq->pc) {
		struct mlx5e_tx_wqe_info *wi =
			&sq->wqe_info[mlx5_wq_cyc_ctr2ix(&sq->wq, cc)];

		bytes += wi->num_bytes;
		pkts += wi->skb ? 1 : wi->num_fifo_pkts;
		wi->num_bytes = 0;
		cc += wi->num_wqebbs;
	}
	netdev_tx_completed_queue(sq->txq, pkts, bytes);
}

/**
 * mlx5e_free_txqsq_descs() - drop what posted WQEs still own
 * @sq: the SQ, destroyed or in reset: the device reads none of it
 *
 * BQL is the caller's: the bytes left the queue's count when the SQ went
 * out of service (mlx5e_tx_bql_detach()), or a recovery resets it.
 */
void mlx5e_free_txqsq_descs(struct mlx5e_txqsq *sq)
{
	u32 pkts = 0, bytes = 0;

	/* A session left open (more was promised, then the queue went down). */
	if (mlx5e_tx_mpwqe_session_is_open(sq))
		mlx5e_tx_mpwqe_session_complete(sq);
	while (sq->cc != sq->pc) {
		u16 ci = mlx5_wq_cyc_ctr2ix(&sq->wq, sq->cc);
		struct mlx5e_tx_wqe_info *wi = &sq->wqe_info[ci];

		mlx5e_tx_wi_free(sq, wi, NULL, &sq->dma_fifo_cc, 0, &pkts,
				 &bytes);
		sq->cc += wi->num_wqebbs;
	}
}
