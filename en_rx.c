// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The legacy (cyclic) RQ on page_pool.
 *
 * Each WQE scatters one frame over its fragments. Fragments come from the
 * RQ's page_pool: when the frame with headroom and skb_shared_info fits a
 * page, one fragment of that size (a power of two), several to a page, and
 * the SKB is built around it; else whole pages, the headers copied into a
 * small SKB and the rest attached as page fragments. Pages return to the
 * pool when the SKB is freed (skb_mark_for_recycle).
 *
 * With an XDP program (en/xdp.c) each linear buffer goes through it
 * first; what XDP consumes builds no SKB.
 *
 * NAPI polls the CQ, hands SKBs to GRO and refills the WQEs it consumed.
 * A failed allocation stops the refill, is counted and is retried at the
 * next poll.
 */
#include <linux/bpf_trace.h>
#include <linux/filter.h>
#include <linux/prefetch.h>
#include <net/ip6_checksum.h>
#include <net/tcp.h>
#include <net/page_pool/helpers.h>
#include <net/xdp_sock_drv.h>
#include <trace/events/xdp.h>

#include "en.h"
#include "en/txrx.h"
#include "en/xdp.h"

/* CQE opcodes (PRM) of the receive side. */
#define MLX5E_CQE_RESP_SEND	0x2
#define MLX5E_CQE_RESP_ERR	0xe
#define MLX5E_CQE_REQ_ERR	0xd
/* The error CQE syndrome of a WQE flushed behind a failed one (PRM). */
#define MLX5E_CQE_SYNDROME_WR_FLUSH_ERR	0x5

#define MLX5E_ICOSQ_POLL_BUDGET	64

#define MLX5E_RX_REFILL_BULK	8

static bool mlx5e_post_rx_mpwqes(struct mlx5e_rq *rq);

static struct mlx5e_rq_frag *mlx5e_rq_frags(struct mlx5e_rq *rq, u16 ix)
{
	return &rq->frags[(u32)ix * rq->num_frags];
}

static void mlx5e_rq_stats_inc(struct mlx5e_rq *rq, u64_stats_t *c)
{
	mlx5e_stats_add(&rq->stats->syncp, c, 1);
}

/*
 * A buffer no SKB, XDP SQ or redirect took (an XDP_DROP, the unused tail
 * of a scattered WQE, an error CQE) stays in its WQE and is posted again
 * as it is: the pool's DMA sync for the device, which an allocation does,
 * is all it needs (the CPU may have written to it under XDP).
 */
static void mlx5e_reuse_rx_frag(struct mlx5e_rq *rq, struct mlx5e_rq_frag *frag)
{
	dma_sync_single_range_for_device(rq->pdev,
					 page_pool_get_dma_addr(frag->page),
					 frag->offset, rq->frag_stride,
					 page_pool_get_dma_dir(rq->page_pool));
}

/* Buffers for the WQE at @ix: those still in it, new ones where taken. */
static int mlx5e_alloc_rx_wqe(struct mlx5e_rq *rq, u16 ix)
{
	struct mlx5e_wqe_data_seg *seg = mlx5_wq_cyc_get_wqe(&rq->wq, ix);
	struct mlx5e_rq_frag *frag = mlx5e_rq_frags(rq, ix);
	unsigned int offset;
	u8 i;

	for (i = 0; i < rq->num_frags; i++, frag++, seg++) {
		struct page *page;

		if (frag->page) {
			mlx5e_reuse_rx_frag(rq, frag);
			continue;
		}
		page = page_pool_dev_alloc_frag(rq->page_pool, &offset,
						rq->frag_stride);
		if (unlikely(!page))
			return -ENOMEM;
		/* The pool starts a page with the buffer at offset 0. */
		if (!offset)
			mlx5e_rq_stats_inc(rq, &rq->stats->pages);
		frag->page = page;
		frag->offset = offset;
		/* Headroom before the first fragment only. */
		seg->addr = cpu_to_be64(page_pool_get_dma_addr(page) + offset +
					(i ? 0 : rq->headroom));
	}
	return 0;
}

/* Return the buffers still in a WQE to the pool. */
static void mlx5e_release_rx_wqe(struct mlx5e_rq *rq, u16 ix)
{
	struct mlx5e_rq_frag *frag = mlx5e_rq_frags(rq, ix);
	u8 i;

	for (i = 0; i < rq->num_frags; i++, frag++) {
		if (frag->page)
			page_pool_put_full_page(rq->page_pool, frag->page, false);
		frag->page = NULL;
	}
}

/**
 * mlx5e_post_rx_wqes() - fill the consumed WQEs and publish them
 * @rq: the RQ
 *
 * Return: whether the ring is still short (an allocation failed).
 */
bool mlx5e_post_rx_wqes(struct mlx5e_rq *rq)
{
	u16 size = mlx5_wq_cyc_size(&rq->wq);
	u16 pc = rq->pc;
	bool short_of = false;

	/* Not into an RQ in error: its recovery posts afresh. */
	if (unlikely(test_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state)))
		return false;
	if (rq->striding)
		return mlx5e_post_rx_mpwqes(rq);
	while ((u16)(pc - rq->cc) < size) {
		if (unlikely(mlx5e_alloc_rx_wqe(rq, mlx5_wq_cyc_ctr2ix(&rq->wq, pc)))) {
			mlx5e_rq_stats_inc(rq, &rq->stats->buff_alloc_err);
			short_of = true;
			break;
		}
		pc++;
	}
	if (pc != rq->pc) {
		rq->pc = pc;
		/* WQE contents before the counter the device reads. */
		dma_wmb();
		mlx5_wq_cyc_update_db(&rq->wq, pc);
	}
	return short_of;
}

/* Frames this short may carry Ethernet padding the CQE's checksum misses. */
#define MLX5E_RX_SHORT_FRAME	(ETH_ZLEN + ETH_FCS_LEN)

/*
 * The IP header after the Ethernet header and any VLAN tags left in the
 * frame: its offset in *@depth, the EtherType in *@proto.
 */
static bool mlx5e_rx_frame_is_ip(struct sk_buff *skb, int *depth,
				 __be16 *proto)
{
	/* Where __vlan_get_protocol() finds an untagged frame's IP header. */
	skb->mac_len = ETH_HLEN;
	*proto = __vlan_get_protocol(skb, ((struct ethhdr *)skb->data)->h_proto,
				     depth);
	return *proto == htons(ETH_P_IP) || *proto == htons(ETH_P_IPV6);
}

/*
 * The CQE's checksum is the ones' complement sum from the IP header to
 * the IP packet's end. CHECKSUM_COMPLETE wants it from the end of the
 * Ethernet header to the frame's end: add VLAN tags left in the frame
 * and any bytes past the IP packet (Ethernet padding, a trailer).
 */
static void mlx5e_rx_csum_fixup(struct sk_buff *skb, int depth, __be16 proto)
{
	u32 ip_end;

	if (depth > ETH_HLEN)
		skb->csum = csum_partial(skb->data + ETH_HLEN, depth - ETH_HLEN,
					 skb->csum);
	if (proto == htons(ETH_P_IP))
		ip_end = depth + ntohs(((struct iphdr *)(skb->data + depth))->tot_len);
	else
		ip_end = depth + sizeof(struct ipv6hdr) +
			 ntohs(((struct ipv6hdr *)(skb->data + depth))->payload_len);
	if (likely(ip_end >= skb->len))
		return;
	skb->csum = csum_block_add(skb->csum,
				   skb_checksum(skb, ip_end, skb->len - ip_end, 0),
				   ip_end);
}

/* Segments of an LRO session (0: the frame was in none). */
static u8 mlx5e_cqe_lro_segs(struct mlx5_cqe64 *cqe)
{
	return be32_to_cpu(cqe->srqn) >> 24;
}

/*
 * The first segment's TCP header for the whole: the last segment's PSH,
 * and with an ACK its ACK number and window; the checksum from the
 * payload's sum in the CQE, the header and the pseudo header's @sum.
 */
static void mlx5e_lro_tcp_fix(struct mlx5_cqe64 *cqe, struct tcphdr *tcp,
			      __wsum pseudo)
{
	__wsum payload = csum_unfold((__force __sum16)cqe->check_sum);
	u8 l4 = get_cqe_l4_hdr_type(cqe);

	tcp->psh = get_cqe_lro_tcppsh(cqe);
	if (l4 == CQE_L4_HDR_TYPE_TCP_ACK_NO_DATA ||
	    l4 == CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA) {
		tcp->ack = 1;
		tcp->ack_seq = cqe->lro.ack_seq_num;
		tcp->window = cqe->lro.tcp_win;
	}
	tcp->check = 0;
	tcp->check = csum_fold(csum_partial(tcp, tcp->doff * 4,
					    csum_add(pseudo, payload)));
}

/*
 * An LRO SKB (its headers in the linear part, VLAN tag stripped or not)
 * made one packet of @len bytes as the stack expects, as upstream's
 * mlx5e_lro_update_hdr(): the first segment's IP header gets the whole's
 * length, the lowest TTL/hop limit (and IPv4 its checksum), the TCP
 * header mlx5e_lro_tcp_fix(); gso_size/gso_segs let the stack
 * resegment it to forward.
 */
static void mlx5e_lro_fix_hdr(struct sk_buff *skb, struct mlx5_cqe64 *cqe,
			      u32 len, u8 segs)
{
	struct tcphdr *tcp;
	int depth = 0;
	__be16 proto;
	u32 hlen;

	/* Where __vlan_get_protocol() finds an untagged frame's IP header. */
	skb->mac_len = ETH_HLEN;
	proto = __vlan_get_protocol(skb, ((struct ethhdr *)skb->data)->h_proto,
				    &depth);
	if (proto == htons(ETH_P_IP)) {
		struct iphdr *iph = (struct iphdr *)(skb->data + depth);
		u32 tot = len - depth;

		tcp = (struct tcphdr *)((u8 *)iph + iph->ihl * 4);
		iph->tot_len = htons(tot);
		iph->ttl = cqe->lro.min_ttl;
		iph->check = 0;
		iph->check = ip_fast_csum((u8 *)iph, iph->ihl);
		mlx5e_lro_tcp_fix(cqe, tcp,
				  csum_tcpudp_nofold(iph->saddr, iph->daddr,
						     tot - iph->ihl * 4,
						     IPPROTO_TCP, 0));
		skb_shinfo(skb)->gso_type = SKB_GSO_TCPV4;
	} else {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)(skb->data + depth);
		u32 plen = len - depth - sizeof(*ip6);

		tcp = (struct tcphdr *)(ip6 + 1);
		ip6->payload_len = htons(plen);
		ip6->hop_limit = cqe->lro.min_ttl;
		mlx5e_lro_tcp_fix(cqe, tcp,
				  csum_unfold(~csum_ipv6_magic(&ip6->saddr,
							       &ip6->daddr, plen,
							       IPPROTO_TCP, 0)));
		skb_shinfo(skb)->gso_type = SKB_GSO_TCPV6;
	}
	hlen = (u8 *)tcp + tcp->doff * 4 - skb->data;
	skb_shinfo(skb)->gso_size = DIV_ROUND_UP(len - hlen, segs);
	skb_shinfo(skb)->gso_segs = segs;
}

/*
 * The CQE's checksum verdict on the SKB (before eth_type_trans), as
 * upstream mlx5e: CHECKSUM_COMPLETE for IP frames, from the CQE's sum;
 * CHECKSUM_UNNECESSARY when that cannot be used (an XDP program may have
 * changed the frame, a short frame's padding, SCTP's CRC) and the device
 * found both checksums good; else CHECKSUM_NONE.
 */
static void mlx5e_rx_csum(struct mlx5e_rq *rq, struct mlx5_cqe64 *cqe,
			  struct sk_buff *skb)
{
	u8 l4 = get_cqe_l4_hdr_type(cqe);
	__be16 proto;
	int depth;
	u8 ipproto;

	if (!(rq->netdev->features & NETIF_F_RXCSUM))
		goto none;
	/* LRO: the device aggregated only segments it found good. */
	if (mlx5e_cqe_lro_segs(cqe)) {
		skb->ip_summed = CHECKSUM_UNNECESSARY;
		mlx5e_rq_stats_inc(rq, &rq->stats->csum_unnecessary);
		return;
	}
	if (rcu_access_pointer(rq->xdp_prog) ||
	    skb->len <= MLX5E_RX_SHORT_FRAME ||
	    !mlx5e_rx_frame_is_ip(skb, &depth, &proto) ||
	    !pskb_may_pull(skb, depth + (proto == htons(ETH_P_IP) ?
					 sizeof(struct iphdr) :
					 sizeof(struct ipv6hdr))))
		goto unnecessary;
	ipproto = proto == htons(ETH_P_IP) ?
		  ((struct iphdr *)(skb->data + depth))->protocol :
		  ((struct ipv6hdr *)(skb->data + depth))->nexthdr;
	if (ipproto == IPPROTO_SCTP)
		goto unnecessary;
	skb->ip_summed = CHECKSUM_COMPLETE;
	skb->csum = csum_unfold((__force __sum16)cqe->check_sum);
	mlx5e_rx_csum_fixup(skb, depth, proto);
	mlx5e_rq_stats_inc(rq, &rq->stats->csum_complete);
	return;
unnecessary:
	if ((cqe->hds_ip_ext & (CQE_L3_OK | CQE_L4_OK)) ==
	    (CQE_L3_OK | CQE_L4_OK) && l4 != CQE_L4_HDR_TYPE_NONE) {
		skb->ip_summed = CHECKSUM_UNNECESSARY;
		/* a tunnel the device parsed: its verdict is the inner's */
		if (cqe_is_tunneled(cqe)) {
			skb->csum_level = 1;
			skb->encapsulation = 1;
			mlx5e_rq_stats_inc(rq, &rq->stats->csum_unnecessary_inner);
			return;
		}
		mlx5e_rq_stats_inc(rq, &rq->stats->csum_unnecessary);
		return;
	}
none:
	skb->ip_summed = CHECKSUM_NONE;
	mlx5e_rq_stats_inc(rq, &rq->stats->csum_none);
}

static void mlx5e_rx_hash(struct mlx5e_rq *rq, struct mlx5_cqe64 *cqe,
			  struct sk_buff *skb)
{
	u8 ht = cqe->rss_hash_type;
	enum pkt_hash_types type = PKT_HASH_TYPE_NONE;

	/* A decompressed CQE has no hash: the mini CQE carries the checksum. */
	if (!(rq->netdev->features & NETIF_F_RXHASH) || !ht)
		return;
	if (ht & CQE_RSS_HTYPE_L4)
		type = PKT_HASH_TYPE_L4;
	else if (ht & CQE_RSS_HTYPE_IP)
		type = PKT_HASH_TYPE_L3;
	skb_set_hash(skb, be32_to_cpu(cqe->rss_hash_result), type);
}

/* The buffer is synced for the CPU; XDP may have moved the frame. */
static struct sk_buff *mlx5e_skb_from_linear(struct mlx5e_rq *rq,
					     struct mlx5e_rq_frag *frag,
					     u32 headroom, u32 len)
{
	void *va = page_address(frag->page) + frag->offset;
	struct sk_buff *skb;

	skb = napi_build_skb(va, rq->frag_stride);
	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, headroom);
	skb_put(skb, len);
	skb_mark_for_recycle(skb);
	frag->page = NULL;
	return skb;
}

static struct sk_buff *mlx5e_skb_from_frags(struct mlx5e_rq *rq,
					    struct mlx5e_rq_frag *frag,
					    u32 len)
{
	struct sk_buff *skb;
	u32 headlen;
	u8 i;

	skb = napi_alloc_skb(rq->napi, MLX5E_RX_MAX_HEAD);
	if (unlikely(!skb))
		return NULL;
	skb_mark_for_recycle(skb);
	for (i = 0; i < rq->num_frags && len; i++, frag++) {
		u32 n = min_t(u32, len, rq->frag_size);

		page_pool_dma_sync_for_cpu(rq->page_pool, frag->page,
					   frag->offset, n);
		skb_add_rx_frag(skb, i, frag->page, frag->offset, n,
				rq->frag_stride);
		frag->page = NULL;
		len -= n;
	}
	headlen = eth_get_headlen(rq->netdev, skb_frag_address(&skb_shinfo(skb)->frags[0]),
				  min_t(u32, skb_frag_size(&skb_shinfo(skb)->frags[0]),
					MLX5E_RX_MAX_HEAD));
	__pskb_pull_tail(skb, max_t(u32, headlen, ETH_HLEN));
	return skb;
}

/*
 * Multi-buffer XDP on a scattered legacy WQE: the first fragment is the
 * linear part of the xdp_buff (XDP headroom before the frame, its
 * skb_shared_info at the end), the others its fragments. The fragments
 * the SKB, the XDP SQ or a redirect take leave the WQE (page NULL), the
 * rest return to the pool with it. Return: the SKB for XDP_PASS, else
 * NULL with *@consumed set (or not, for an SKB that could not be built).
 */
static struct sk_buff *mlx5e_skb_from_frags_xdp(struct mlx5e_rq *rq,
						struct bpf_prog *prog,
						struct mlx5_cqe64 *cqe,
						struct mlx5e_rq_frag *frag,
						u32 *len, bool *consumed)
{
	void *va = page_address(frag->page) + frag->offset;
	u32 n = min_t(u32, *len, rq->first_frag_size), rest = *len - n;
	struct mlx5e_xdp_buff mxbuf;
	struct xdp_buff *xdp = &mxbuf.xdp;
	struct sk_buff *skb = NULL;
	u8 nr = 0, kept, i;
	int verdict;

	page_pool_dma_sync_for_cpu(rq->page_pool, frag->page,
				   frag->offset + rq->headroom, n);
	net_prefetch(va + rq->headroom);
	mxbuf.cqe = cqe;
	mxbuf.rq = rq;
	xdp_init_buff(xdp, rq->frag_stride, &rq->xdp_rxq);
	xdp_prepare_buff(xdp, va, rq->headroom, n, true);
	while (rest && nr + 1 < rq->num_frags) {
		struct mlx5e_rq_frag *f = &frag[++nr];

		n = min_t(u32, rest, rq->frag_size);
		page_pool_dma_sync_for_cpu(rq->page_pool, f->page, f->offset, n);
		mlx5e_xdp_add_frag(xdp, f->page, f->offset, n);
		rest -= n;
	}
	verdict = mlx5e_xdp_run(rq, prog, xdp, &kept);
	/* Fragments bpf_xdp_adjust_tail() dropped went back to the pool. */
	for (i = kept + 1; i <= nr; i++)
		frag[i].page = NULL;
	*consumed = verdict != MLX5E_XDP_PASS;
	if (verdict == MLX5E_XDP_DROP)
		return NULL;
	if (verdict == MLX5E_XDP_PASS) {
		skb = mlx5e_skb_from_xdp(rq, xdp, kept * rq->frag_stride);
		if (unlikely(!skb))
			return NULL;
		*len = skb->len;
	}
	for (i = 0; i <= kept; i++)
		frag[i].page = NULL;
	return verdict == MLX5E_XDP_PASS ? skb : NULL;
}

/* The CQE's timestamp, of the PHC's timer, in the PHC's nanoseconds. */
static void mlx5e_rx_hwtstamp(struct mlx5e_rq *rq, struct mlx5_cqe64 *cqe,
			      struct sk_buff *skb)
{
	skb_hwtstamps(skb)->hwtstamp = ns_to_ktime(mlx5e_rx_cqe_time(rq, cqe));
}

/* The CQE's offloads on the SKB, counted, handed to GRO. */
static void mlx5e_complete_rx_skb(struct mlx5e_rq *rq, struct mlx5_cqe64 *cqe,
				  struct sk_buff *skb, u32 len)
{
	u8 segs = mlx5e_cqe_lro_segs(cqe);

	if (segs > 1) {
		mlx5e_lro_fix_hdr(skb, cqe, len, segs);
		u64_stats_update_begin(&rq->stats->syncp);
		u64_stats_inc(&rq->stats->lro_packets);
		u64_stats_add(&rq->stats->lro_bytes, len);
		/* Each segment is a packet, as upstream counts them. */
		u64_stats_add(&rq->stats->packets, segs - 1);
		u64_stats_update_end(&rq->stats->syncp);
	}
	mlx5e_rx_csum(rq, cqe, skb);
	mlx5e_rx_hash(rq, cqe, skb);
	if (unlikely(READ_ONCE(rq->hwtstamp->rx_filter) == HWTSTAMP_FILTER_ALL))
		mlx5e_rx_hwtstamp(rq, cqe, skb);
	if (cqe_has_vlan(cqe))
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q),
				       be16_to_cpu(cqe->vlan_info));
	skb_record_rx_queue(skb, rq->ix);
	skb->protocol = eth_type_trans(skb, rq->netdev);

	u64_stats_update_begin(&rq->stats->syncp);
	u64_stats_inc(&rq->stats->packets);
	u64_stats_add(&rq->stats->bytes, len);
	u64_stats_update_end(&rq->stats->syncp);
	napi_gro_receive(rq->napi, skb);
}

/* An error CQE: the RQ went to the error state, its reporter recovers
 * it; an XSK RQ is rebuilt with the channels instead (reopen_work).
 */
static void mlx5e_rx_err_cqe(struct mlx5e_rq *rq, struct mlx5_cqe64 *cqe)
{
	struct mlx5e_priv *priv = rq->ch->priv;

	mlx5e_rq_stats_inc(rq, &rq->stats->wqe_err);
	if (get_cqe_opcode(cqe) != MLX5E_CQE_RESP_ERR ||
	    test_and_set_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state))
		return;
	if (rq->xsk_pool)
		queue_delayed_work(priv->wq, &priv->reopen_work, 0);
	else
		queue_work(priv->wq, &rq->recover_work);
}

static void mlx5e_handle_rx_cqe(struct mlx5e_rq *rq, struct bpf_prog *prog,
				struct mlx5_cqe64 *cqe)
{
	u16 ix = mlx5_wq_cyc_ctr2ix(&rq->wq, be16_to_cpu(cqe->wqe_counter));
	struct mlx5e_rq_frag *frag = mlx5e_rq_frags(rq, ix);
	u32 len = be32_to_cpu(cqe->byte_cnt);
	struct sk_buff *skb;

	if (unlikely(get_cqe_opcode(cqe) != MLX5E_CQE_RESP_SEND)) {
		mlx5e_rx_err_cqe(rq, cqe);
		goto release;
	}
	if (unlikely(!len || len > rq->wqe_bytes)) {
		/* The device never writes more than the WQE holds. */
		mlx5e_rq_stats_inc(rq, &rq->stats->oversize_pkts_sw_drop);
		if (net_ratelimit())
			netdev_err(rq->netdev,
				   "RQ 0x%x: CQE of %u bytes for WQE %u of %u bytes: dropped\n",
				   rq->rqn, len, ix, rq->wqe_bytes);
		goto release;
	}
	if (rq->linear) {
		u32 headroom = rq->headroom, meta = 0;

		page_pool_dma_sync_for_cpu(rq->page_pool, frag->page,
					   frag->offset + headroom, len);
		net_prefetch(page_address(frag->page) + frag->offset + headroom);
		if (prog && mlx5e_xdp_rx(rq, prog, cqe, frag, &headroom, &len,
					 &meta))
			goto release;
		skb = mlx5e_skb_from_linear(rq, frag, headroom, len);
		if (skb && meta)
			skb_metadata_set(skb, meta);
	} else if (prog) {
		bool consumed;

		skb = mlx5e_skb_from_frags_xdp(rq, prog, cqe, frag, &len,
					       &consumed);
		if (consumed)
			goto release;
	} else {
		skb = mlx5e_skb_from_frags(rq, frag, len);
	}
	if (unlikely(!skb)) {
		mlx5e_rq_stats_inc(rq, &rq->stats->buff_alloc_err);
		goto release;
	}
	mlx5e_complete_rx_skb(rq, cqe, skb, len);
release:
	/* The buffers no SKB took stay in the WQE for its refill. */
	rq->cc++;
}

/* ---- the XSK RQ (AF_XDP zero copy) ---------------------------------- */

/*
 * A legacy RQ of one data segment per WQE (or a striding RQ of a frame
 * per stride: see the striding RQ below) whose buffers are the frames
 * of an AF_XDP socket's UMEM: xsk_buff_alloc_batch() takes them from the
 * fill ring, already DMA mapped (the pool was mapped when it was
 * attached), each with the UMEM's headroom and XDP_PACKET_HEADROOM
 * before the address the WQE gets. The channel's RQTs name this RQ while
 * it exists. The XDP program runs on every frame: XDP_REDIRECT into the
 * socket hands the frame over without a copy; XDP_PASS copies it into a
 * new SKB and frees the frame to the pool; XDP_TX copies it into an
 * xdp_frame sent by the channel's XDP SQ; XDP_DROP frees it to the pool.
 */

/* Fill @n WQEs from ring index @ix on (no wrap). Return: how many. */
static u32 mlx5e_xsk_alloc_rx_wqes(struct mlx5e_rq *rq, u16 ix, u16 n)
{
	u32 got = xsk_buff_alloc_batch(rq->xsk_pool, &rq->xsk_bufs[ix], n);
	u32 i;

	for (i = 0; i < got; i++) {
		struct mlx5e_wqe_data_seg *seg;

		seg = mlx5_wq_cyc_get_wqe(&rq->wq, ix + i);
		seg->addr = cpu_to_be64(xsk_buff_xdp_get_dma(rq->xsk_bufs[ix + i]));
	}
	return got;
}

/**
 * mlx5e_xsk_post_rx_wqes() - fill an XSK RQ's consumed WQEs from the
 *	socket's fill ring and publish them
 * @rq: the XSK RQ
 *
 * The striding XSK RQ posts the UMRs of its WQEs, published once they
 * complete (mlx5e_poll_icosq_cq()).
 *
 * Return: whether the ring is still short (the fill ring ran dry).
 */
bool mlx5e_xsk_post_rx_wqes(struct mlx5e_rq *rq)
{
	u16 size = mlx5_wq_cyc_size(&rq->wq);
	bool short_of = false;
	u16 pc = rq->pc;

	if (unlikely(test_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state)))
		return false;
	if (rq->striding)
		return mlx5e_post_rx_mpwqes(rq);
	while ((u16)(pc - rq->cc) < size) {
		u16 ix = mlx5_wq_cyc_ctr2ix(&rq->wq, pc);
		u16 n = min_t(u16, size - (u16)(pc - rq->cc),
			      mlx5_wq_cyc_contig_to_end(&rq->wq, ix));
		u32 got = mlx5e_xsk_alloc_rx_wqes(rq, ix, n);

		pc += got;
		if (got < n) {
			mlx5e_rq_stats_inc(rq, &rq->stats->buff_alloc_err);
			short_of = true;
			break;
		}
	}
	if (pc != rq->pc) {
		rq->pc = pc;
		/* WQE contents before the counter the device reads. */
		dma_wmb();
		mlx5_wq_cyc_update_db(&rq->wq, pc);
	}
	return short_of;
}

/**
 * mlx5e_xsk_rx_short() - whether the striding XSK RQ waits for its UMRs
 *	with fewer strides for the device than @need
 * @rq: the XSK RQ
 * @need: strides the caller's frames may take
 *
 * The WQEs a refill posted are the device's only once their UMRs
 * complete (the next NAPI poll after their CQE): until then frames the
 * port loops back from the channel's own XSK SQ would find no stride.
 *
 * Return: true while UMRs are in flight and the published WQEs hold
 *	fewer than @need free strides; false on a legacy XSK RQ.
 */
bool mlx5e_xsk_rx_short(struct mlx5e_rq *rq, u32 need)
{
	u32 free;

	if (!rq->striding || rq->umr_pc == rq->pc)
		return false;
	free = (u32)(u16)(rq->pc - rq->cc) << rq->log_strides;
	if (free)
		free -= rq->mpw_consumed[mlx5_wq_cyc_ctr2ix(&rq->wq, rq->cc)];
	return free < need;
}

/* XDP_PASS: the frame (and the metadata the program left) copied into a
 * new SKB; the caller frees the frame to its pool.
 */
static struct sk_buff *mlx5e_xsk_skb(struct mlx5e_rq *rq,
				     struct xdp_buff *xdp)
{
	u32 meta = xdp->data - xdp->data_meta;
	u32 len = xdp->data_end - xdp->data_meta;
	struct sk_buff *skb;

	skb = napi_alloc_skb(rq->napi, len);
	if (unlikely(!skb))
		return NULL;
	skb_put_data(skb, xdp->data_meta, len);
	if (meta) {
		__skb_pull(skb, meta);
		skb_metadata_set(skb, meta);
	}
	return skb;
}

static void mlx5e_xsk_rx_count(struct mlx5e_rq *rq, u64_stats_t *verdict,
			       u32 len)
{
	u64_stats_update_begin(&rq->stats->syncp);
	u64_stats_inc(&rq->stats->packets);
	u64_stats_add(&rq->stats->bytes, len);
	if (verdict)
		u64_stats_inc(verdict);
	u64_stats_update_end(&rq->stats->syncp);
}

/*
 * A frame of @len bytes the device wrote into @xdp's frame, the RQ's no
 * more: the program's verdict hands it to the socket (XDP_REDIRECT) or
 * frees it to the pool after a copy (XDP_PASS, XDP_TX) or none.
 */
static void mlx5e_xsk_rx_frame(struct mlx5e_rq *rq, struct bpf_prog *prog,
			       struct mlx5_cqe64 *cqe, struct xdp_buff *xdp,
			       u32 len)
{
	struct mlx5e_xdp_buff *mxbuf;
	struct xdp_frame *frame;
	struct sk_buff *skb;
	u32 act;

	xsk_buff_set_size(xdp, len);
	xsk_buff_dma_sync_for_cpu(xdp);
	net_prefetch(xdp->data);
	mxbuf = container_of(xdp, struct mlx5e_xdp_buff, xdp);
	mxbuf->cqe = cqe;
	mxbuf->rq = rq;

	/* The XSK RQ exists only with a program (it is rebuilt without). */
	act = bpf_prog_run_xdp(prog, xdp);
	switch (act) {
	case XDP_REDIRECT:
		if (unlikely(xdp_do_redirect(rq->netdev, xdp, prog)))
			goto abort;
		rq->xdp_flush = true;
		/* The socket owns the frame, and may have reused it. */
		mlx5e_xsk_rx_count(rq, &rq->stats->xdp_redirect, len);
		return;
	case XDP_PASS:
		skb = mlx5e_xsk_skb(rq, xdp);
		xsk_buff_free(xdp);
		if (unlikely(!skb)) {
			mlx5e_rq_stats_inc(rq, &rq->stats->buff_alloc_err);
			return;
		}
		mlx5e_complete_rx_skb(rq, cqe, skb, skb->len);
		return;
	case XDP_TX:
		/* Copied out of the UMEM; the frame goes back to the pool. */
		len = xdp->data_end - xdp->data;
		frame = xdp_convert_buff_to_frame(xdp);
		if (unlikely(!frame))
			goto abort;
		if (unlikely(!mlx5e_xdp_tx_frame(rq, frame))) {
			mlx5e_xsk_rx_count(rq, &rq->stats->xdp_drop, len);
			return;
		}
		mlx5e_xsk_rx_count(rq, &rq->stats->xdp_tx_xmit, len);
		return;
	default:
		bpf_warn_invalid_xdp_action(rq->netdev, prog, act);
		fallthrough;
	case XDP_ABORTED:
abort:
		trace_xdp_exception(rq->netdev, prog, act);
		fallthrough;
	case XDP_DROP:
		mlx5e_xsk_rx_count(rq, &rq->stats->xdp_drop, len);
		break;
	}
	xsk_buff_free(xdp);
}

static void mlx5e_xsk_handle_rx_cqe(struct mlx5e_rq *rq, struct bpf_prog *prog,
				    struct mlx5_cqe64 *cqe)
{
	u16 ix = mlx5_wq_cyc_ctr2ix(&rq->wq, be16_to_cpu(cqe->wqe_counter));
	struct xdp_buff *xdp = rq->xsk_bufs[ix];
	u32 len = be32_to_cpu(cqe->byte_cnt);

	rq->xsk_bufs[ix] = NULL;
	rq->cc++;
	if (unlikely(get_cqe_opcode(cqe) != MLX5E_CQE_RESP_SEND)) {
		mlx5e_rx_err_cqe(rq, cqe);
		goto free;
	}
	if (unlikely(!len || len > rq->wqe_bytes)) {
		mlx5e_rq_stats_inc(rq, &rq->stats->oversize_pkts_sw_drop);
		goto free;
	}
	mlx5e_xsk_rx_frame(rq, prog, cqe, xdp, len);
	return;
free:
	xsk_buff_free(xdp);
}

/* ---- the striding RQ ------------------------------------------------ */

/*
 * Each WQE is MLX5E_MPWQE_PAGES page_pool pages, mapped by a UMR on the
 * channel's ICOSQ at the WQE's range of the RQ's MTT mkey, and
 * 2^log_strides strides of one linear buffer each (params_rx.c): the
 * device writes a frame at a stride plus the headroom (the WQE's address
 * carries it) and says in the CQE which stride and how many it consumed;
 * a filler CQE skips the strides a frame did not fit in. A WQE is retired
 * when all its strides are consumed; WQEs retire in order.
 *
 * A page starts with MLX5E_PAGECNT_BIAS fragment references: each stride
 * an SKB, XDP_TX or a redirect takes away counts one (@frags); when the
 * WQE retires, the references nobody took are dropped at once, and the
 * page returns to the pool with its last user.
 *
 * Refill takes pages for at least @mpw_batch free WQEs at once and posts
 * their UMRs, one ICOSQ doorbell; a WQE is published to the device (the
 * RQ's doorbell record) only once its UMR completed.
 *
 * One completion per doorbell: only the last WQE a doorbell rings asks
 * for a CQE (as upstream's ICOSQ does). The ICOSQ executes and completes
 * its WQEs in order, so that CQE says every UMR of the batch, and of the
 * batches before it, is done: the RQ publishes them all at once. A UMR
 * that fails completes with an error CQE whether it asked or not, and the
 * SQ flushes the WQEs behind it (flush_in_error_en), so a failure is
 * never mistaken for success. The CQE's wqe_counter names the WQE; its
 * ring index holds what it means (@cqe_info): how far the RQ's WQEs are
 * mapped, and where the ICOSQ's consumer goes.
 *
 * The striding XSK RQ (AF_XDP zero copy, aligned UMEM frames of a page,
 * mlx5e_xsk_striding()) is the same RQ on frames of the socket's pool
 * instead of pages: one frame per stride (the stride is the frame), the
 * UMR's MTT entries the frames' DMA addresses, on a control SQ of its
 * own (&mlx5e_channel.xskicosq). The frames are @xsk_bufs, per WQE
 * MLX5E_MPWQE_PAGES of them; the WQE's address carries the pool's
 * headroom. A frame consumed is the RQ's no more (handed to the socket
 * or freed to the pool at once); a retired WQE frees to the pool the
 * frames no CQE named (filler strides).
 */

static struct mlx5e_mpw_page *mlx5e_mpw_pages(struct mlx5e_rq *rq, u16 ix)
{
	return &rq->mpw_pages[(u32)ix << MLX5E_MPWQE_LOG_PAGES];
}

/* The striding XSK RQ: WQE @ix's frames, one per stride. */
static struct xdp_buff **mlx5e_xsk_mpw_bufs(struct mlx5e_rq *rq, u16 ix)
{
	return &rq->xsk_bufs[(u32)ix << MLX5E_MPWQE_LOG_PAGES];
}

/* The frames of WQE @ix no CQE took back to the pool. */
static void mlx5e_xsk_mpw_release(struct mlx5e_rq *rq, u16 ix)
{
	struct xdp_buff **bufs = mlx5e_xsk_mpw_bufs(rq, ix);
	unsigned int i;

	for (i = 0; i < MLX5E_MPWQE_PAGES; i++) {
		if (bufs[i]) {
			xsk_buff_free(bufs[i]);
			bufs[i] = NULL;
		}
	}
}

static void mlx5e_mpw_release(struct mlx5e_rq *rq, u16 ix, bool napi)
{
	struct mlx5e_mpw_page *mp;
	unsigned int i;

	if (rq->xsk_pool) {
		mlx5e_xsk_mpw_release(rq, ix);
		return;
	}
	mp = mlx5e_mpw_pages(rq, ix);
	for (i = 0; i < MLX5E_MPWQE_PAGES; i++, mp++) {
		if (!mp->page)
			continue;
		if (!page_pool_unref_page(mp->page,
					  MLX5E_PAGECNT_BIAS - mp->frags))
			page_pool_put_unrefed_page(rq->page_pool, mp->page, -1,
						   napi);
		mp->page = NULL;
	}
}

/**
 * mlx5e_init_mpwqes() - the fixed part of every striding RQ WQE
 * @rq: the RQ, not yet created
 *
 * WQE i points at its range of the mkey (plus the headroom) and links to
 * WQE i + 1, the last back to the first.
 */
void mlx5e_init_mpwqes(struct mlx5e_rq *rq)
{
	u16 n = mlx5_wq_cyc_size(&rq->wq), i;
	u32 bytes = MLX5E_MPWQE_PAGES << PAGE_SHIFT;

	for (i = 0; i < n; i++) {
		struct mlx5e_rx_wqe_ll *wqe = mlx5_wq_cyc_get_wqe(&rq->wq, i);

		memset(wqe, 0, sizeof(*wqe));
		wqe->next_wqe_index = cpu_to_be16((i + 1) & (n - 1));
		wqe->data.byte_count = cpu_to_be32(bytes);
		wqe->data.lkey = rq->umr_mkey_be;
		wqe->data.addr = cpu_to_be64((u64)i * bytes + rq->headroom);
	}
	memset(rq->mpw_consumed, 0, n * sizeof(*rq->mpw_consumed));
}

/*
 * The ring index of the next WQE of @wqebbs, contiguous: a WQE never
 * wraps the ring's end, which one-WQEBB NOPs pad (no completion asked;
 * the last of them is rung should nothing follow).
 */
static u16 mlx5e_icosq_next_pi(struct mlx5e_icosq *sq, u16 wqebbs)
{
	u16 pi = mlx5_wq_cyc_ctr2ix(&sq->wq, sq->pc);
	u16 n = mlx5_wq_cyc_contig_to_end(&sq->wq, pi);

	if (likely(n >= wqebbs))
		return pi;
	while (n--) {
		sq->db_ctrl = mlx5e_nop_ctrl(&sq->wq, sq->pc,
					     cpu_to_be32(sq->sqn << 8));
		sq->db_pc = sq->pc++;
	}
	return mlx5_wq_cyc_ctr2ix(&sq->wq, sq->pc);
}

/*
 * Take the pages of WQE @ix and write their MTT entries. A failed
 * allocation keeps the pages taken so far in the WQE's table (the RQ's
 * drain returns them): the next refill goes on from there, so that a
 * WQE fills even when every few allocations fail.
 */
static int mlx5e_mpwqe_fill_pages(struct mlx5e_rq *rq, u16 ix, __be64 *mtt)
{
	struct mlx5e_mpw_page *mp = mlx5e_mpw_pages(rq, ix);
	unsigned int i;

	for (i = 0; i < MLX5E_MPWQE_PAGES; i++) {
		if (!mp[i].page) {
			struct page *page;

			page = page_pool_dev_alloc_pages(rq->page_pool);
			if (unlikely(!page))
				return -ENOMEM;
			page_pool_fragment_page(page, MLX5E_PAGECNT_BIAS);
			mp[i].page = page;
			mp[i].frags = 0;
		}
		mtt[i] = cpu_to_be64(page_pool_get_dma_addr(mp[i].page) |
				     MLX5_EN_WR);
	}
	return 0;
}

/*
 * The striding XSK RQ: the frames of WQE @ix from the socket's fill ring,
 * each a page (aligned mode, mlx5e_xsk_striding()), its MTT entry the
 * frame's start. As above, the frames taken so far stay when the fill
 * ring runs dry (they fill the WQE from its first stride on).
 */
static int mlx5e_mpwqe_fill_xsk(struct mlx5e_rq *rq, u16 ix, __be64 *mtt)
{
	struct xdp_buff **bufs = mlx5e_xsk_mpw_bufs(rq, ix);
	unsigned int i, n;

	for (i = 0; i < MLX5E_MPWQE_PAGES && bufs[i]; i++)
		;
	n = MLX5E_MPWQE_PAGES - i;
	if (n && xsk_buff_alloc_batch(rq->xsk_pool, &bufs[i], n) < n)
		return -ENOMEM;
	for (i = 0; i < MLX5E_MPWQE_PAGES; i++)
		mtt[i] = cpu_to_be64(xsk_buff_xdp_get_frame_dma(bufs[i]) |
				     MLX5_EN_WR);
	return 0;
}

/* Take the buffers of WQE @ix and post the UMR that maps them. */
static int mlx5e_alloc_mpwqe(struct mlx5e_rq *rq, u16 ix)
{
	struct mlx5e_icosq *sq = rq->icosq;
	u16 pi = mlx5e_icosq_next_pi(sq, MLX5E_UMR_WQEBBS);
	struct mlx5e_umr_wqe *wqe = mlx5_wq_cyc_get_wqe(&sq->wq, pi);
	u32 octw = (u32)ix * (MLX5E_MPWQE_PAGES / 2);
	int err;

	err = rq->xsk_pool ? mlx5e_mpwqe_fill_xsk(rq, ix, wqe->mtt) :
			     mlx5e_mpwqe_fill_pages(rq, ix, wqe->mtt);
	if (unlikely(err))
		return err;
	mlx5e_stats_add(&rq->stats->syncp, &rq->stats->pages,
			MLX5E_MPWQE_PAGES);

	/* No completion asked: mlx5e_icosq_ring() asks on the last WQE. */
	memset(wqe, 0, offsetof(struct mlx5e_umr_wqe, mtt));
	wqe->ctrl.opmod_idx_opcode = cpu_to_be32((u32)sq->pc << 8 |
						 MLX5E_OPCODE_UMR);
	wqe->ctrl.qpn_ds = cpu_to_be32(sq->sqn << 8 |
				       sizeof(*wqe) / MLX5E_SEND_WQE_DS);
	wqe->ctrl.imm = rq->umr_mkey_be;
	wqe->uctrl.flags = MLX5_UMR_TRANSLATION_OFFSET_EN | MLX5_UMR_INLINE;
	wqe->uctrl.xlt_octowords = cpu_to_be16(MLX5E_MPWQE_PAGES / 2);
	wqe->uctrl.xlt_offset = cpu_to_be16(octw & 0xffff);
	wqe->uctrl.xlt_offset_47_16 = cpu_to_be32(octw >> 16);
	wqe->uctrl.mkey_mask = cpu_to_be64(MLX5_MKEY_MASK_FREE);
	sq->db_ctrl = &wqe->ctrl;
	sq->db_pc = sq->pc;
	sq->pc += MLX5E_UMR_WQEBBS;
	rq->mpw_consumed[ix] = 0;
	return 0;
}

static_assert(sizeof(struct mlx5e_umr_wqe) ==
	      MLX5E_UMR_WQEBBS * MLX5E_SEND_WQE_BB);
/* The control segment's ds_cnt is 6 bits. */
static_assert(sizeof(struct mlx5e_umr_wqe) / MLX5E_SEND_WQE_DS < 64);

/*
 * Ring the WQEs posted since the last doorbell; the last of them asks for
 * the completion that tells the RQ its WQEs up to @rq_pc are mapped.
 */
static void mlx5e_icosq_ring(struct mlx5e_icosq *sq, u16 rq_pc)
{
	struct mlx5e_wqe_ctrl_seg *ctrl = sq->db_ctrl;

	if (!ctrl)
		return;
	ctrl->fm_ce_se = MLX5E_WQE_CTRL_CQ_UPDATE;
	/* The last WQE ends at the producer counter. */
	sq->cqe_info[mlx5_wq_cyc_ctr2ix(&sq->wq, sq->db_pc)] =
		(struct mlx5e_icosq_cqe_info){
			.rq_pc = rq_pc,
			.wqebbs = sq->pc - sq->db_pc,
		};
	mlx5e_ring_sq_db(&sq->wq, sq->pc, ctrl, sq->uar_reg);
	sq->db_ctrl = NULL;
}

static bool mlx5e_post_rx_mpwqes(struct mlx5e_rq *rq)
{
	u16 size = mlx5_wq_cyc_size(&rq->wq);
	u16 free = size - (u16)(rq->umr_pc - rq->cc);
	bool short_of = false;

	if (free < rq->mpw_batch || unlikely(rq->icosq->error))
		return false;
	while (free--) {
		u16 ix = mlx5_wq_cyc_ctr2ix(&rq->wq, rq->umr_pc);

		if (unlikely(mlx5e_alloc_mpwqe(rq, ix))) {
			mlx5e_rq_stats_inc(rq, &rq->stats->buff_alloc_err);
			short_of = true;
			break;
		}
		rq->umr_pc++;
	}
	mlx5e_icosq_ring(rq->icosq, rq->umr_pc);
	return short_of;
}

/*
 * Have recovery reset the RQ (and its ICOSQ), unless it is under way; an
 * XSK RQ is rebuilt with the channels instead (reopen_work).
 */
static bool mlx5e_rx_request_reset(struct mlx5e_rq *rq)
{
	struct mlx5e_priv *priv = rq->ch->priv;

	if (test_and_set_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state))
		return false;
	set_bit(MLX5E_RQ_STATE_BAD_CQE, &rq->state);
	if (rq->xsk_pool)
		queue_delayed_work(priv->wq, &priv->reopen_work, 0);
	else
		queue_work(priv->wq, &rq->recover_work);
	return true;
}

/*
 * A UMR failed, or a completion came that no UMR of ours accounts for:
 * the WQE's pages are not mapped, so neither it nor any WQE behind it is
 * published. Recovery resets the ICOSQ and the RQ, returns every WQE's
 * pages and posts the ring afresh. The flushed UMRs behind a failed one
 * are not counted as errors of their own.
 */
static void mlx5e_icosq_err(struct mlx5e_icosq *sq, struct mlx5e_rq *rq,
			    struct mlx5_cqe64 *cqe)
{
	u8 opcode = get_cqe_opcode(cqe);
	u8 synd = opcode == MLX5E_CQE_REQ_ERR ?
		  ((struct mlx5_err_cqe *)cqe)->syndrome : 0;

	if (synd != MLX5E_CQE_SYNDROME_WR_FLUSH_ERR)
		mlx5e_rq_stats_inc(rq, &rq->stats->umr_cqe_err);
	if (sq->error)
		return;
	sq->error = true;
	netdev_err(rq->netdev,
		   "RQ 0x%x: UMR completion opcode 0x%x syndrome 0x%x with %u UMRs outstanding: resetting the RQ\n",
		   rq->rqn, opcode, synd, (u16)(rq->umr_pc - rq->pc));
	mlx5e_rx_request_reset(rq);
}

/*
 * The completion of the WQE at @wqe_counter: a WQE posted and not yet
 * completed that asked for one. Return: what it means, or NULL.
 */
static struct mlx5e_icosq_cqe_info *
mlx5e_icosq_cqe_info(struct mlx5e_icosq *sq, struct mlx5e_rq *rq,
		     u16 wqe_counter)
{
	struct mlx5e_icosq_cqe_info *info;

	if ((u16)(wqe_counter - sq->cc) >= (u16)(sq->pc - sq->cc))
		return NULL;
	info = &sq->cqe_info[mlx5_wq_cyc_ctr2ix(&sq->wq, wqe_counter)];
	if (!info->wqebbs ||
	    (u16)(info->rq_pc - rq->pc) > (u16)(rq->umr_pc - rq->pc))
		return NULL;
	return info;
}

/**
 * mlx5e_poll_icosq_cq() - completed UMRs: publish their WQEs (NAPI)
 * @sq: the channel's ICOSQ
 * @rq: its striding RQ
 *
 * A CQE completes its WQE and every WQE before it (one per doorbell, see
 * above): the RQ's WQEs up to the counter its WQE recorded become the
 * device's.
 *
 * Return: whether more CQEs may be waiting.
 */
bool mlx5e_poll_icosq_cq(struct mlx5e_icosq *sq, struct mlx5e_rq *rq)
{
	struct mlx5_cqwq *cqwq = &sq->cq.wq;
	struct mlx5e_icosq_cqe_info *info;
	struct mlx5_cqe64 *cqe;
	u16 pc = rq->pc;
	int n = 0;

	while (n < MLX5E_ICOSQ_POLL_BUDGET && (cqe = mlx5_cqwq_get_cqe(cqwq))) {
		u16 wqe_counter = be16_to_cpu(cqe->wqe_counter);

		mlx5_cqwq_pop(cqwq);
		n++;
		info = sq->error ? NULL :
		       mlx5e_icosq_cqe_info(sq, rq, wqe_counter);
		if (unlikely(get_cqe_opcode(cqe) == MLX5E_CQE_REQ_ERR ||
			     !info)) {
			mlx5e_icosq_err(sq, rq, cqe);
			continue;
		}
		sq->cc = wqe_counter + info->wqebbs;
		rq->pc = info->rq_pc;
		info->wqebbs = 0;
	}
	if (!n)
		return false;
	mlx5_cqwq_update_db(cqwq);
	if (rq->pc != pc &&
	    likely(!test_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state))) {
		/* The WQEs before the counter the device reads. */
		dma_wmb();
		mlx5_wq_cyc_update_db(&rq->wq, rq->pc);
	}
	return n == MLX5E_ICOSQ_POLL_BUDGET;
}

/**
 * mlx5e_icosq_drain() - wait for the UMRs in flight (RQ recovery)
 * @sq: the ICOSQ
 * @rq: its RQ, NAPI off
 *
 * Return: 0 once every UMR completed; -EIO when one failed (the rest
 * never will), -ETIMEDOUT when the device did not complete them: either
 * way only resetting the ICOSQ makes its UMRs harmless.
 */
int mlx5e_icosq_drain(struct mlx5e_icosq *sq, struct mlx5e_rq *rq)
{
	unsigned int i;

	for (i = 0; i < 100; i++) {
		mlx5e_poll_icosq_cq(sq, rq);
		if (sq->error)
			return -EIO;
		if (sq->cc == sq->pc)
			return 0;
		usleep_range(1000, 2000);
	}
	return -ETIMEDOUT;
}

static void mlx5e_mpwqe_consume(struct mlx5e_rq *rq, u16 ix, u16 strides)
{
	rq->mpw_consumed[ix] += strides;
	if (rq->mpw_consumed[ix] < BIT(rq->log_strides))
		return;
	mlx5e_mpw_release(rq, ix, true);
	rq->mpw_consumed[ix] = 0;
	rq->cc++;
}

/*
 * Non-linear: the frame fills @len bytes of consecutive strides from
 * @offset of the WQE (no headroom), maybe over several pages. Each page
 * part becomes a fragment (one reference of its page); the headers are
 * pulled into the SKB's linear part.
 */
static struct sk_buff *
mlx5e_skb_from_mpwrq_nonlinear(struct mlx5e_rq *rq, struct mlx5e_mpw_page *mp,
			       u32 offset, u32 len)
{
	u32 pg_off = offset & (PAGE_SIZE - 1), headlen;
	struct sk_buff *skb;
	int nr = 0;

	mp += offset >> PAGE_SHIFT;
	skb = napi_alloc_skb(rq->napi, MLX5E_RX_MAX_HEAD);
	if (unlikely(!skb))
		return NULL;
	skb_mark_for_recycle(skb);
	while (len) {
		u32 n = min_t(u32, len, PAGE_SIZE - pg_off);

		page_pool_dma_sync_for_cpu(rq->page_pool, mp->page, pg_off, n);
		skb_add_rx_frag(skb, nr++, mp->page, pg_off, n,
				ALIGN(n, BIT(rq->log_stride_sz)));
		mp->frags++;
		len -= n;
		pg_off = 0;
		mp++;
	}
	headlen = eth_get_headlen(rq->netdev,
				  skb_frag_address(&skb_shinfo(skb)->frags[0]),
				  min_t(u32, skb_frag_size(&skb_shinfo(skb)->frags[0]),
					MLX5E_RX_MAX_HEAD));
	__pskb_pull_tail(skb, max_t(u32, headlen, ETH_HLEN));
	return skb;
}

/*
 * Multi-buffer XDP on a scattered striding RQ frame (@len bytes of
 * consecutive strides from @offset of the WQE, no headroom): the headers
 * are copied into a page_pool buffer of rq->xdp_head_sz bytes, the linear
 * part of the xdp_buff with XDP headroom and skb_shared_info; the rest of
 * each page the frame fills is a fragment. Every fragment the SKB, the
 * XDP SQ or a redirect takes, or that bpf_xdp_adjust_tail() dropped,
 * counts one reference of its page (@frags); the header buffer is the
 * SKB's or the new owner's, else returned. Return: the SKB for XDP_PASS,
 * else NULL with *@consumed set (or not, for an SKB that failed).
 */
static struct sk_buff *
mlx5e_skb_from_mpwrq_xdp(struct mlx5e_rq *rq, struct bpf_prog *prog,
			 struct mlx5_cqe64 *cqe, struct mlx5e_mpw_page *mp,
			 u32 offset, u32 *len, bool *consumed)
{
	u32 pg_off = offset & (PAGE_SIZE - 1), headroom;
	u32 rest = *len, headlen, hoff, truesize = 0;
	struct mlx5e_xdp_buff mxbuf;
	struct xdp_buff *xdp = &mxbuf.xdp;
	struct mlx5e_mpw_page *first, *start;
	struct sk_buff *skb = NULL;
	struct page *head;
	u8 nr = 0, kept, i;
	void *data, *va;
	int verdict;

	*consumed = false;
	head = page_pool_dev_alloc_frag(rq->page_pool, &hoff, rq->xdp_head_sz);
	if (unlikely(!head))
		return NULL;
	if (!hoff)
		mlx5e_rq_stats_inc(rq, &rq->stats->pages);
	va = page_address(head) + hoff;
	headroom = mlx5e_rx_headroom(true);

	mp += offset >> PAGE_SHIFT;
	start = mp;
	data = page_address(mp->page) + pg_off;
	page_pool_dma_sync_for_cpu(rq->page_pool, mp->page, pg_off,
				   min_t(u32, rest, PAGE_SIZE - pg_off));
	/* Strides are MLX5E_RX_MAX_HEAD aligned: so many bytes in one page. */
	headlen = eth_get_headlen(rq->netdev, data,
				  min_t(u32, rest, MLX5E_RX_MAX_HEAD));
	/* At least what an XDP_TX SEND inlines, and a byte beyond. */
	headlen = min_t(u32, rest,
			max_t(u32, headlen, MLX5E_XDP_MIN_INLINE + 1));
	memcpy(va + headroom, data, headlen);
	mxbuf.cqe = cqe;
	mxbuf.rq = rq;
	xdp_init_buff(xdp, rq->xdp_head_sz, &rq->xdp_rxq);
	xdp_prepare_buff(xdp, va, headroom, headlen, true);

	rest -= headlen;
	pg_off += headlen;
	if (pg_off == PAGE_SIZE) {
		pg_off = 0;
		mp++;
	}
	first = mp;
	while (rest) {
		u32 n = min_t(u32, rest, PAGE_SIZE - pg_off);

		/* The frame's first page was synced for the headers. */
		if (mp != start)
			page_pool_dma_sync_for_cpu(rq->page_pool, mp->page,
						   pg_off, n);
		mlx5e_xdp_add_frag(xdp, mp->page, pg_off, n);
		nr++;
		rest -= n;
		pg_off = 0;
		mp++;
	}

	verdict = mlx5e_xdp_run(rq, prog, xdp, &kept);
	/* The references of the fragments bpf_xdp_adjust_tail() dropped
	 * went back to the pool.
	 */
	for (i = kept; i < nr; i++)
		first[i].frags++;
	*consumed = verdict != MLX5E_XDP_PASS;
	if (verdict == MLX5E_XDP_DROP)
		goto drop_head;
	if (verdict == MLX5E_XDP_PASS) {
		struct skb_shared_info *sinfo;

		/* The strides of the fragments the SKB keeps. */
		sinfo = xdp_get_shared_info_from_buff(xdp);
		for (i = 0; i < kept; i++)
			truesize += ALIGN(skb_frag_off(&sinfo->frags[i]) +
					  skb_frag_size(&sinfo->frags[i]),
					  BIT(rq->log_stride_sz)) -
				    ALIGN_DOWN(skb_frag_off(&sinfo->frags[i]),
					       BIT(rq->log_stride_sz));
		skb = mlx5e_skb_from_xdp(rq, xdp, truesize);
		if (unlikely(!skb))
			goto drop_head;
		*len = skb->len;
	}
	for (i = 0; i < kept; i++)
		first[i].frags++;
	return skb;

drop_head:
	page_pool_put_full_page(rq->page_pool, head, true);
	return NULL;
}

/*
 * A striding RQ completion that does not name the WQE and stride in use:
 * what the device consumed is unknown, so no stride is touched and the RQ
 * is reset by recovery (which returns every WQE's pages).
 */
static void mlx5e_rx_bad_mpwrq_cqe(struct mlx5e_rq *rq,
				   struct mlx5_cqe64 *cqe, u16 ix, u32 stride)
{
	mlx5e_rq_stats_inc(rq, &rq->stats->wqe_err);
	if (!mlx5e_rx_request_reset(rq))
		return;
	netdev_err(rq->netdev,
		   "RQ 0x%x: CQE opcode 0x%x for WQE %u stride %u, expected WQE %u stride %u: resetting the RQ\n",
		   rq->rqn, get_cqe_opcode(cqe), ix, stride,
		   mlx5_wq_cyc_ctr2ix(&rq->wq, rq->cc),
		   rq->cc == rq->pc ? 0 :
		   rq->mpw_consumed[mlx5_wq_cyc_ctr2ix(&rq->wq, rq->cc)]);
}

static void mlx5e_handle_rx_cqe_mpwrq(struct mlx5e_rq *rq,
				      struct bpf_prog *prog,
				      struct mlx5_cqe64 *cqe)
{
	u16 ix = mlx5_wq_cyc_ctr2ix(&rq->wq, be16_to_cpu(cqe->wqe_id));
	u16 strides = mpwrq_get_cqe_consumed_strides(cqe);
	u32 stride = mpwrq_get_cqe_stride_index(cqe);
	u32 headroom = rq->headroom, meta = 0, len, offset;
	struct mlx5e_mpw_page *mp;
	struct mlx5e_rq_frag frag;
	struct sk_buff *skb;

	if (unlikely(get_cqe_opcode(cqe) == MLX5E_CQE_RESP_ERR)) {
		/* Recovery returns every WQE's pages. */
		mlx5e_rx_err_cqe(rq, cqe);
		return;
	}
	if (unlikely(get_cqe_opcode(cqe) != MLX5E_CQE_RESP_SEND ||
		     rq->cc == rq->pc ||
		     ix != mlx5_wq_cyc_ctr2ix(&rq->wq, rq->cc) ||
		     stride != rq->mpw_consumed[ix] || !strides ||
		     stride + strides > BIT(rq->log_strides))) {
		/* The device consumes a WQE's strides in order. */
		mlx5e_rx_bad_mpwrq_cqe(rq, cqe, ix, stride);
		return;
	}
	if (unlikely(mpwrq_is_filler_cqe(cqe))) {
		u64_stats_update_begin(&rq->stats->syncp);
		u64_stats_inc(&rq->stats->mpwqe_filler_cqes);
		u64_stats_add(&rq->stats->mpwqe_filler_strides, strides);
		u64_stats_update_end(&rq->stats->syncp);
		goto consumed;
	}
	len = mpwrq_get_cqe_byte_cnt(cqe);
	if (unlikely(!len ||
		     (rq->linear ? strides != 1 || len > rq->frag_size :
				   len > ((u32)strides << rq->log_stride_sz)))) {
		mlx5e_rq_stats_inc(rq, &rq->stats->oversize_pkts_sw_drop);
		goto consumed;
	}
	if (rq->xsk_pool) {
		/* The stride's frame: the socket's or the pool's now. */
		struct xdp_buff *xdp = mlx5e_xsk_mpw_bufs(rq, ix)[stride];

		mlx5e_xsk_mpw_bufs(rq, ix)[stride] = NULL;
		mlx5e_xsk_rx_frame(rq, prog, cqe, xdp, len);
		goto consumed;
	}
	offset = stride << rq->log_stride_sz;
	if (!rq->linear && prog) {
		bool xdp_consumed;

		skb = mlx5e_skb_from_mpwrq_xdp(rq, prog, cqe,
					       mlx5e_mpw_pages(rq, ix), offset,
					       &len, &xdp_consumed);
		if (xdp_consumed)
			goto consumed;
		goto built;
	}
	if (!rq->linear) {
		skb = mlx5e_skb_from_mpwrq_nonlinear(rq, mlx5e_mpw_pages(rq, ix),
						     offset, len);
		goto built;
	}
	mp = mlx5e_mpw_pages(rq, ix) + (offset >> PAGE_SHIFT);
	frag.page = mp->page;
	frag.offset = offset & (PAGE_SIZE - 1);
	page_pool_dma_sync_for_cpu(rq->page_pool, frag.page,
				   frag.offset + headroom, len);
	net_prefetch(page_address(frag.page) + frag.offset + headroom);
	if (prog && mlx5e_xdp_rx(rq, prog, cqe, &frag, &headroom, &len,
				 &meta)) {
		if (!frag.page)
			mp->frags++; /* XDP_TX or redirect took the stride */
		goto consumed;
	}
	skb = mlx5e_skb_from_linear(rq, &frag, headroom, len);
	if (skb) {
		mp->frags++;
		if (meta)
			skb_metadata_set(skb, meta);
	}
built:
	if (unlikely(!skb)) {
		mlx5e_rq_stats_inc(rq, &rq->stats->buff_alloc_err);
		goto consumed;
	}
	mlx5e_complete_rx_skb(rq, cqe, skb, len);
consumed:
	mlx5e_mpwqe_consume(rq, ix, strides);
}

/*
 * CQE compression (rx_cqe_compress, the basic layout): a CQE whose format
 * is MLX5_COMPRESSED is the title of a block of byte_cnt CQEs that takes
 * as many slots from it.  Mini CQE array k (eight 8-byte mini CQEs) is in
 * the block's slot 1 for k = 0, slot 8 * k after; a mini CQE gives its
 * CQE's byte count, checksum and (striding RQ) stride index, the title
 * everything else, the hash aside (none).  Only the title's owner bit is
 * checked: the device writes it last.  The driver gives each slot it
 * consumes its own lap's owner bit, so that slots the device did not
 * write this lap do not look valid on the next.  The block's state lives
 * in the RQ (rq->cqd): a block may span NAPI polls.
 */
static void mlx5e_cqd_read_mini(struct mlx5e_rq *rq, u32 cc)
{
	struct mlx5_cqwq *wq = &rq->cq.wq;

	memcpy(rq->cqd.mini, wq->wqb.buf + ((size_t)(cc & wq->sz_m1) << 6),
	       sizeof(rq->cqd.mini));
	rq->cqd.mini_idx = 0;
}

/* The title at the consumer counter: the block starts. */
static void mlx5e_cqd_start(struct mlx5e_rq *rq, struct mlx5_cqe64 *title)
{
	struct mlx5e_cq_decomp *d = &rq->cqd;

	d->title = *title;
	d->title.rss_hash_type = 0;
	d->title.rss_hash_result = 0;
	d->left = be32_to_cpu(title->byte_cnt);
	d->wqe_counter = be16_to_cpu(title->wqe_counter);
	mlx5e_cqd_read_mini(rq, rq->cq.wq.cc + 1);
}

/* The next CQE of the block, at the consumer counter. */
static struct mlx5_cqe64 *mlx5e_cqd_next(struct mlx5e_rq *rq)
{
	struct mlx5e_cq_decomp *d = &rq->cqd;
	struct mlx5_mini_cqe8 *m;

	if (d->mini_idx == MLX5_MINI_CQE_ARRAY_SIZE)
		mlx5e_cqd_read_mini(rq, rq->cq.wq.cc);
	m = &d->mini[d->mini_idx++];
	d->title.byte_cnt = m->byte_cnt;
	d->title.check_sum = m->checksum;
	if (rq->striding) {
		d->title.wqe_counter = m->stridx;
	} else {
		d->title.wqe_counter = cpu_to_be16(d->wqe_counter);
		d->wqe_counter++;
	}
	return &d->title;
}

/* A slot of a block handled: software's for the rest of this lap. */
static void mlx5e_cqd_pop(struct mlx5e_rq *rq)
{
	struct mlx5_cqwq *wq = &rq->cq.wq;
	struct mlx5_cqe64 *slot = wq->wqb.buf + ((size_t)(wq->cc & wq->sz_m1) << 6);

	WRITE_ONCE(slot->op_own, (wq->cc >> wq->log_sz) & 1);
	rq->cqd.left--;
	wq->cc++;
}

/*
 * A title counting fewer than two CQEs (the first mini CQE array is the
 * block's second slot) or more than the CQ holds.  Where the device's
 * writes end is then unknown and no later CQE of this CQ can be found:
 * nothing of the block is handled, the RQ stops (RECOVERING) and the
 * channels are rebuilt (mlx5e_reopen_work()).  Upstream trusts the count.
 */
static bool mlx5e_cqd_title_bad(struct mlx5e_rq *rq,
				const struct mlx5_cqe64 *title)
{
	struct mlx5_cqwq *wq = &rq->cq.wq;
	u32 n = be32_to_cpu(title->byte_cnt);
	struct mlx5e_priv *priv;

	if (likely(n >= 2 && n <= wq->sz_m1 + 1))
		return false;
	set_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state);
	/* Once: a recovery's drain may come to the same title again. */
	if (test_and_set_bit(MLX5E_RQ_STATE_CQ_BAD, &rq->state))
		return true;
	priv = rq->ch->priv;
	mlx5e_rq_stats_inc(rq, &rq->stats->cqe_compress_err);
	netdev_err(rq->netdev,
		   "RQ 0x%x: compressed CQE block of %u CQEs at CQ index %u (CQ of %u): reopening the channels\n",
		   rq->rqn, n, wq->cc & wq->sz_m1, wq->sz_m1 + 1);
	queue_delayed_work(priv->wq, &priv->reopen_work, 0);
	return true;
}

/* The next CQE to handle, plain or from a block; NULL when none. */
static struct mlx5_cqe64 *mlx5e_rx_next_cqe(struct mlx5e_rq *rq, u32 *blks)
{
	struct mlx5_cqe64 *cqe;

	if (rq->cqd.left)
		return mlx5e_cqd_next(rq);
	cqe = mlx5_cqwq_get_cqe(&rq->cq.wq);
	if (!cqe || mlx5_get_cqe_format(cqe) != MLX5_COMPRESSED)
		return cqe;
	if (unlikely(mlx5e_cqd_title_bad(rq, cqe)))
		return NULL;
	mlx5e_cqd_start(rq, cqe);
	(*blks)++;
	return mlx5e_cqd_next(rq);
}

/* Count what the poll decompressed. */
static void mlx5e_rx_cqd_stats(struct mlx5e_rq *rq, u32 blks, u32 pkts)
{
	if (!pkts)
		return;
	u64_stats_update_begin(&rq->stats->syncp);
	u64_stats_add(&rq->stats->cqe_compress_blks, blks);
	u64_stats_add(&rq->stats->cqe_compress_pkts, pkts);
	u64_stats_update_end(&rq->stats->syncp);
}

/**
 * mlx5e_poll_rx_cq() - receive completions (NAPI)
 * @rq: the RQ
 * @budget: the most packets to handle
 *
 * Return: CQEs handled.
 */
int mlx5e_poll_rx_cq(struct mlx5e_rq *rq, int budget)
{
	struct mlx5_cqwq *cqwq = &rq->cq.wq;
	u32 blks = 0, pkts = 0;
	struct mlx5_cqe64 *cqe;
	struct bpf_prog *prog;
	int work = 0;

	if (unlikely(test_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state)))
		return 0;
	rcu_read_lock();
	prog = rcu_dereference(rq->xdp_prog);
	while (work < budget && (cqe = mlx5e_rx_next_cqe(rq, &blks))) {
		if (cqe == &rq->cqd.title) {
			mlx5e_cqd_pop(rq);
			pkts++;
		} else {
			mlx5_cqwq_pop(cqwq);
		}
		work++;
		if (rq->xsk_pool && !rq->striding) {
			mlx5e_xsk_handle_rx_cqe(rq, prog, cqe);
			continue;
		}
		if (!rq->striding) {
			mlx5e_handle_rx_cqe(rq, prog, cqe);
			continue;
		}
		mlx5e_handle_rx_cqe_mpwrq(rq, prog, cqe);
		/* A completion it could not account for: the RQ is reset. */
		if (unlikely(test_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state)))
			break;
	}
	mlx5e_rx_cqd_stats(rq, blks, pkts);
	if (work)
		mlx5_cqwq_update_db(cqwq);
	if (prog)
		mlx5e_xdp_rx_done(rq);
	rcu_read_unlock();
	return work;
}

/**
 * mlx5e_rx_cq_drain() - drop every CQE the RQ's CQ holds, compressed
 *	blocks whole
 * @rq: the RQ, its NAPI disabled
 *
 * Return: 0, or -EIO at a compressed block that cannot be (the channels
 *	are then reopened; the CQEs before it are dropped).
 */
int mlx5e_rx_cq_drain(struct mlx5e_rq *rq)
{
	struct mlx5_cqwq *wq = &rq->cq.wq;
	struct mlx5_cqe64 *cqe;
	int err = 0;

	for (;;) {
		while (rq->cqd.left)
			mlx5e_cqd_pop(rq);
		cqe = mlx5_cqwq_get_cqe(wq);
		if (!cqe)
			break;
		if (mlx5_get_cqe_format(cqe) != MLX5_COMPRESSED) {
			mlx5_cqwq_pop(wq);
			continue;
		}
		if (mlx5e_cqd_title_bad(rq, cqe)) {
			err = -EIO;
			break;
		}
		rq->cqd.left = be32_to_cpu(cqe->byte_cnt);
	}
	mlx5_cqwq_update_db(wq);
	return err;
}

/**
 * mlx5e_free_rx_descs() - return the buffers of every posted WQE
 * @rq: the RQ, destroyed: the device writes none of them
 */
void mlx5e_free_rx_descs(struct mlx5e_rq *rq)
{
	u16 ix;

	if (rq->xsk_pool && !rq->striding) {
		/* Back to the socket's pool, for its fill ring. */
		while (rq->cc != rq->pc) {
			u16 ix = mlx5_wq_cyc_ctr2ix(&rq->wq, rq->cc);

			xsk_buff_free(rq->xsk_bufs[ix]);
			rq->xsk_bufs[ix] = NULL;
			rq->cc++;
		}
		return;
	}
	if (rq->striding) {
		/* Posted, or UMR in flight: the device writes none now. */
		while (rq->cc != rq->umr_pc) {
			mlx5e_mpw_release(rq, mlx5_wq_cyc_ctr2ix(&rq->wq, rq->cc),
					  false);
			rq->mpw_consumed[mlx5_wq_cyc_ctr2ix(&rq->wq, rq->cc)] = 0;
			rq->cc++;
		}
		/* The pages (frames) a failed refill took for the next WQE
		 * (none left if the ring was full: released above).
		 */
		mlx5e_mpw_release(rq, mlx5_wq_cyc_ctr2ix(&rq->wq, rq->umr_pc),
				  false);
		rq->pc = rq->umr_pc;
		return;
	}
	/* Consumed WQEs not yet refilled hold buffers as well. */
	for (ix = 0; ix < mlx5_wq_cyc_size(&rq->wq); ix++)
		mlx5e_release_rx_wqe(rq, ix);
	rq->cc = rq->pc;
}
