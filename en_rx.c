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
#include <linux/prefetch.h>
#include <net/page_pool/helpers.h>

#include "en.h"
#include "en/txrx.h"
#include "en/xdp.h"

/* CQE opcodes (PRM) of the receive side. */
#define MLX5E_CQE_RESP_SEND	0x2
#define MLX5E_CQE_RESP_ERR	0xe

#define MLX5E_RX_REFILL_BULK	8

static struct mlx5e_rq_frag *mlx5e_rq_frags(struct mlx5e_rq *rq, u16 ix)
{
	return &rq->frags[(u32)ix * rq->num_frags];
}

static void mlx5e_rq_stats_inc(struct mlx5e_rq *rq, u64_stats_t *c)
{
	u64_stats_update_begin(&rq->stats->syncp);
	u64_stats_inc(c);
	u64_stats_update_end(&rq->stats->syncp);
}

static int mlx5e_alloc_rx_wqe(struct mlx5e_rq *rq, u16 ix)
{
	struct mlx5e_wqe_data_seg *seg = mlx5_wq_cyc_get_wqe(&rq->wq, ix);
	struct mlx5e_rq_frag *frag = mlx5e_rq_frags(rq, ix);
	unsigned int offset;
	u8 i;

	for (i = 0; i < rq->num_frags; i++, frag++, seg++) {
		struct page *page;

		page = page_pool_dev_alloc_frag(rq->page_pool, &offset,
						rq->frag_stride);
		if (unlikely(!page))
			goto err_free;
		/* The pool starts a page with the buffer at offset 0. */
		if (!offset)
			mlx5e_rq_stats_inc(rq, &rq->stats->pages);
		frag->page = page;
		frag->offset = offset;
		seg->addr = cpu_to_be64(page_pool_get_dma_addr(page) + offset +
					rq->headroom);
	}
	return 0;

err_free:
	while (i--) {
		frag--;
		page_pool_put_full_page(rq->page_pool, frag->page, true);
		frag->page = NULL;
	}
	return -ENOMEM;
}

/* Return the fragments of a WQE that no SKB took. */
static void mlx5e_release_rx_wqe(struct mlx5e_rq *rq, u16 ix, bool napi)
{
	struct mlx5e_rq_frag *frag = mlx5e_rq_frags(rq, ix);
	u8 i;

	for (i = 0; i < rq->num_frags; i++, frag++) {
		if (frag->page)
			page_pool_put_full_page(rq->page_pool, frag->page, napi);
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

static void mlx5e_rx_csum(struct mlx5e_rq *rq, struct mlx5_cqe64 *cqe,
			  struct sk_buff *skb)
{
	u8 l4 = get_cqe_l4_hdr_type(cqe);

	if (!(rq->netdev->features & NETIF_F_RXCSUM))
		goto none;
	if ((cqe->hds_ip_ext & (CQE_L3_OK | CQE_L4_OK)) ==
	    (CQE_L3_OK | CQE_L4_OK) && l4 != CQE_L4_HDR_TYPE_NONE) {
		skb->ip_summed = CHECKSUM_UNNECESSARY;
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

	if (!(rq->netdev->features & NETIF_F_RXHASH))
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

static void mlx5e_handle_rx_cqe(struct mlx5e_rq *rq, struct bpf_prog *prog,
				struct mlx5_cqe64 *cqe)
{
	u16 ix = mlx5_wq_cyc_ctr2ix(&rq->wq, be16_to_cpu(cqe->wqe_counter));
	struct mlx5e_rq_frag *frag = mlx5e_rq_frags(rq, ix);
	u32 len = be32_to_cpu(cqe->byte_cnt);
	struct sk_buff *skb;

	if (unlikely(get_cqe_opcode(cqe) != MLX5E_CQE_RESP_SEND)) {
		mlx5e_rq_stats_inc(rq, &rq->stats->wqe_err);
		/* The RQ went to the error state: its reporter recovers it. */
		if (get_cqe_opcode(cqe) == MLX5E_CQE_RESP_ERR &&
		    !test_and_set_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state))
			queue_work(container_of(rq, struct mlx5e_channel,
						rq)->priv->wq, &rq->recover_work);
		goto release;
	}
	if (rq->linear) {
		u32 headroom = rq->headroom;

		page_pool_dma_sync_for_cpu(rq->page_pool, frag->page,
					   frag->offset + headroom, len);
		net_prefetch(page_address(frag->page) + frag->offset + headroom);
		if (prog && mlx5e_xdp_rx(rq, prog, frag, &headroom, &len))
			goto release;
		skb = mlx5e_skb_from_linear(rq, frag, headroom, len);
	} else {
		skb = mlx5e_skb_from_frags(rq, frag, len);
	}
	if (unlikely(!skb)) {
		mlx5e_rq_stats_inc(rq, &rq->stats->buff_alloc_err);
		goto release;
	}

	mlx5e_rx_csum(rq, cqe, skb);
	mlx5e_rx_hash(rq, cqe, skb);
	if (cqe_has_vlan(cqe))
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q),
				       be16_to_cpu(cqe->vlan_info));
	skb_record_rx_queue(skb, rq->ix);
	skb->protocol = eth_type_trans(skb, rq->netdev);

	u64_stats_update_begin(&rq->stats->syncp);
	u64_stats_inc(&rq->stats->packets);
	u64_stats_add(&rq->stats->bytes, len);
	u64_stats_inc(&rq->stats->gro_packets);
	u64_stats_update_end(&rq->stats->syncp);
	napi_gro_receive(rq->napi, skb);
release:
	/* Fragments no SKB took go back to the pool. */
	mlx5e_release_rx_wqe(rq, ix, true);
	rq->cc++;
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
	struct mlx5_cqe64 *cqe;
	struct bpf_prog *prog;
	int work = 0;

	if (unlikely(test_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state)))
		return 0;
	rcu_read_lock();
	prog = rcu_dereference(rq->xdp_prog);
	while (work < budget && (cqe = mlx5_cqwq_get_cqe(cqwq))) {
		mlx5_cqwq_pop(cqwq);
		mlx5e_handle_rx_cqe(rq, prog, cqe);
		work++;
	}
	if (work)
		mlx5_cqwq_update_db(cqwq);
	if (prog)
		mlx5e_xdp_rx_done(rq);
	rcu_read_unlock();
	return work;
}

/**
 * mlx5e_free_rx_descs() - return the buffers of every posted WQE
 * @rq: the RQ, destroyed: the device writes none of them
 */
void mlx5e_free_rx_descs(struct mlx5e_rq *rq)
{
	while (rq->cc != rq->pc) {
		mlx5e_release_rx_wqe(rq, mlx5_wq_cyc_ctr2ix(&rq->wq, rq->cc), false);
		rq->cc++;
	}
}
