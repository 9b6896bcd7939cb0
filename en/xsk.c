// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * AF_XDP zero copy: the control path.
 *
 * A socket bound with XDP_ZEROCOPY to queue N hands its UMEM's buffer
 * pool to ndo_bpf (XDP_SETUP_XSK_POOL). The pool is checked against the
 * parameters (mlx5e_validate_xsk_param()), DMA mapped for the device, and
 * kept per channel index in the netdev's private area, where channel
 * rebuilds find it. While it is there and an XDP program runs, channel N
 * has an XSK RQ (an RQ on the pool's frames, en_rx.c: striding, a frame
 * per stride, where mlx5e_xsk_striding() says so, else legacy) and an XSK SQ
 * (an XDP SQ sending the socket's TX ring, en/xdp.c) beside its regular
 * queues, which keep running; the RQTs that name channel N name its XSK
 * RQ (en/rss.c). Attaching or detaching the pool rebuilds the channels by
 * the build-then-swap path, so that a failure leaves the old ones
 * running: the pool is unmapped only once no queue uses it. In any
 * rebuild the new channels' XSK queues start only after the old ones
 * are closed (mlx5e_start_xsk()): a pool has one consumer at a time.
 *
 * ndo_xsk_wakeup schedules the channel's NAPI, which sends the TX ring
 * and refills the RQ from the fill ring (need_wakeup: en_main.c).
 */
#include <net/xdp_sock_drv.h>

#include "params.h"
#include "xdp.h"

/* The smallest UMEM frame: an MTU of 1500 with XDP headroom, as upstream. */
#define MLX5E_MIN_XSK_CHUNK_SIZE	2048

/**
 * mlx5e_validate_xsk_param() - whether a UMEM's frames fit an XSK RQ
 * @chunk_size: the UMEM's frame size
 * @headroom: the UMEM's headroom, XDP_PACKET_HEADROOM included
 * @rx_frame_size: bytes the device may write into a frame
 *	(xsk_pool_get_rx_frame_size())
 * @sw_mtu: the netdev MTU
 * @qid: the queue the socket is bound to
 * @num_channels: the channels
 * @extack: why not, when given
 *
 * A frame takes a whole received frame of the MTU (the XSK RQ does not
 * scatter), within a page.
 *
 * Return: 0 or -EINVAL.
 */
int mlx5e_validate_xsk_param(u32 chunk_size, u32 headroom, u32 rx_frame_size,
			     u16 sw_mtu, u16 qid, u16 num_channels,
			     struct netlink_ext_ack *extack)
{
	if (qid >= num_channels) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "AF_XDP zero copy on queue %u of %u channels",
				       qid, num_channels);
		return -EINVAL;
	}
	if (chunk_size > PAGE_SIZE || chunk_size < MLX5E_MIN_XSK_CHUNK_SIZE) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "AF_XDP frame size %u out of %u..%lu",
				       chunk_size, MLX5E_MIN_XSK_CHUNK_SIZE,
				       PAGE_SIZE);
		return -EINVAL;
	}
	if (headroom >= chunk_size ||
	    rx_frame_size < MLX5E_SW2HW_MTU(sw_mtu)) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "AF_XDP frame of %u bytes past headroom %u: MTU %u needs %u",
				       rx_frame_size, headroom, sw_mtu,
				       MLX5E_SW2HW_MTU(sw_mtu));
		return -EINVAL;
	}
	return 0;
}

/* A page, the striding XSK RQ's frame, is at most the largest stride. */
#define MLX5E_XSK_PAGE_FITS_STRIDE (PAGE_SHIFT <= MLX5_MPWQE_LOG_STRIDE_SZ_MAX)

/**
 * mlx5e_xsk_striding() - whether a pool's XSK RQ is a striding RQ
 * @params: the channels' parameters
 * @pool: the pool
 *
 * Where the regular RQ is striding and each of the pool's frames can be
 * a stride the UMR maps with one MTT entry: aligned frames of a page (at
 * most the largest stride, 8 KiB). Other pools (frames of 2 KiB,
 * unaligned mode) get the legacy XSK RQ, a frame per WQE.
 *
 * So does a ring smaller than the striding RQ's fewest WQEs
 * (2^MLX5E_MPWQE_LOG_WQES_MIN of MLX5E_MPWQE_PAGES frames: 512 at 4 KiB).
 * A striding XSK RQ takes the socket's frames a WQE at a time and the
 * device receives into none of them before the WQE's UMR completes; the
 * frames of a WQE still filling or mapping are frames the socket lent
 * and the device cannot use. Against a UMEM of a few ring sizes whose
 * sender keeps all of it but a batch in flight (the kernel's
 * xskxceiver, HW_SW_MIN_RING_SIZE: an RX ring of 128, batches of 1 and
 * 63), that loses frames; the legacy XSK RQ hands each frame to the
 * device as the refill takes it, and holds no more than the ring.
 *
 * Return: true for a striding XSK RQ.
 */
bool mlx5e_xsk_striding(const struct mlx5e_params *params,
			struct xsk_buff_pool *pool)
{
	return mlx5e_rq_is_striding(params) && !pool->unaligned &&
	       xsk_pool_get_chunk_size(pool) == PAGE_SIZE &&
	       MLX5E_XSK_PAGE_FITS_STRIDE &&
	       params->log_rq_size >= MLX5E_MPWQE_LOG_PAGES +
				      MLX5E_MPWQE_LOG_WQES_MIN;
}

static int mlx5e_xsk_validate_pool(struct xsk_buff_pool *pool, u16 sw_mtu,
				   u16 qid, u16 num_channels,
				   struct netlink_ext_ack *extack)
{
	return mlx5e_validate_xsk_param(xsk_pool_get_chunk_size(pool),
					xsk_pool_get_headroom(pool),
					xsk_pool_get_rx_frame_size(pool),
					sw_mtu, qid, num_channels, extack);
}

/**
 * mlx5e_xsk_validate_params() - whether the attached pools fit @params
 * @priv: the netdev's private area
 * @params: the parameters the channels are to be built from
 * @extack: why not
 *
 * An MTU or channel count that a pool in use cannot take is refused, as
 * upstream: the socket is unbound first.
 *
 * Return: 0 or -EINVAL.
 */
int mlx5e_xsk_validate_params(struct mlx5e_priv *priv,
			      const struct mlx5e_params *params,
			      struct netlink_ext_ack *extack)
{
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(priv->xsk_pools); i++) {
		if (!priv->xsk_pools[i])
			continue;
		err = mlx5e_xsk_validate_pool(priv->xsk_pools[i],
					      params->sw_mtu, i,
					      params->num_channels, extack);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Rebuild the channels with the pools as they are now, when the XSK
 * queues are there to change (the netdev up, a program attached).
 */
static int mlx5e_xsk_rebuild(struct mlx5e_priv *priv)
{
	struct mlx5e_params params = priv->params;

	if (!test_bit(MLX5E_STATE_OPENED, &priv->state) || !params.xdp_prog)
		return 0;
	return mlx5e_safe_switch_params(priv, &params, NULL);
}

static int mlx5e_xsk_enable(struct mlx5e_priv *priv,
			    struct xsk_buff_pool *pool, u16 qid)
{
	struct netlink_ext_ack extack = {};
	int err;

	if (qid >= ARRAY_SIZE(priv->xsk_pools))
		return -EINVAL;
	if (priv->xsk_pools[qid])
		return -EBUSY;
	err = mlx5e_xsk_validate_pool(pool, priv->params.sw_mtu, qid,
				      priv->params.num_channels, &extack);
	if (err) {
		netdev_warn(priv->netdev, "AF_XDP zero copy refused: %s\n",
			    extack._msg);
		return err;
	}
	err = xsk_pool_dma_map(pool, priv->mdev->device,
			       DMA_ATTR_SKIP_CPU_SYNC);
	if (err)
		return err;
	priv->xsk_pools[qid] = pool;
	err = mlx5e_xsk_rebuild(priv);
	if (err) {
		/* The old channels run on, without it. */
		netdev_warn(priv->netdev,
			    "AF_XDP zero copy on queue %u: rebuilding the channels failed (%d)\n",
			    qid, err);
		priv->xsk_pools[qid] = NULL;
		xsk_pool_dma_unmap(pool, DMA_ATTR_SKIP_CPU_SYNC);
	}
	return err;
}

static int mlx5e_xsk_disable(struct mlx5e_priv *priv, u16 qid)
{
	struct xsk_buff_pool *pool;
	int err;

	if (qid >= ARRAY_SIZE(priv->xsk_pools) || !priv->xsk_pools[qid])
		return -EINVAL;
	pool = priv->xsk_pools[qid];
	priv->xsk_pools[qid] = NULL;
	err = mlx5e_xsk_rebuild(priv);
	if (err) {
		/*
		 * The old channels still use the pool, which the socket is
		 * about to free: they go, and the netdev is opened afresh
		 * without it.
		 */
		netdev_err(priv->netdev,
			   "AF_XDP zero copy off on queue %u: rebuilding the channels failed (%d), reopening\n",
			   qid, err);
		mlx5e_close_locked(priv->netdev);
		err = mlx5e_open_locked(priv->netdev);
		if (err)
			netdev_err(priv->netdev, "reopening failed: %d\n", err);
	}
	xsk_pool_dma_unmap(pool, DMA_ATTR_SKIP_CPU_SYNC);
	return 0;
}

/**
 * mlx5e_xsk_setup_pool() - ndo_bpf XDP_SETUP_XSK_POOL
 * @netdev: the netdev
 * @pool: the pool to attach, or NULL to detach queue @qid's
 * @qid: the queue
 *
 * Return: 0 or a negative errno, the device working as before.
 */
int mlx5e_xsk_setup_pool(struct net_device *netdev,
			 struct xsk_buff_pool *pool, u16 qid)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	int err;

	/* The XSK RQ's xdp_buffs are our mlx5e_xdp_buff (the metadata
	 * kfuncs read the CQE from it): it fits the pool's buffers.
	 */
	XSK_CHECK_PRIV_TYPE(struct mlx5e_xdp_buff);
	mutex_lock(&priv->state_lock);
	err = pool ? mlx5e_xsk_enable(priv, pool, qid) :
		     mlx5e_xsk_disable(priv, qid);
	mutex_unlock(&priv->state_lock);
	return err;
}

/**
 * mlx5e_xsk_wakeup() - ndo_xsk_wakeup: run the queue's NAPI
 * @netdev: the netdev
 * @qid: the socket's queue
 * @flags: XDP_WAKEUP_RX, XDP_WAKEUP_TX: both are NAPI's
 *
 * Called under RCU: the channels are replaced only after
 * MLX5E_STATE_XDP_XMIT was cleared and a grace period passed.
 *
 * Return: 0, -ENETDOWN while the channels change or are down or the
 * queue has no XSK queues (no XDP program: as upstream, so that
 * applications that kick their TX ring go on), -EINVAL for a queue id
 * past the channels.
 */
int mlx5e_xsk_wakeup(struct net_device *netdev, u32 qid, u32 flags)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	struct mlx5e_channel *c;

	if (unlikely(!test_bit(MLX5E_STATE_XDP_XMIT, &priv->state)))
		return -ENETDOWN;
	if (unlikely(qid >= priv->channels.num))
		return -EINVAL;
	c = priv->channels.c[qid];
	if (unlikely(!test_bit(MLX5E_CHANNEL_STATE_XSK, &c->state)))
		return -ENETDOWN;
	if (!napi_if_scheduled_mark_missed(&c->napi))
		mlx5e_channel_kick(c);
	return 0;
}
