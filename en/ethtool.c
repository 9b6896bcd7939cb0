// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ethtool: driver info, link modes, FEC and pause, counters and the
 * standard counter groups (en/stats.c), channels, rings,
 * interrupt moderation, private flags, RSS indirection table and key, the
 * hashed fields. Every change of queue
 * parameters goes through mlx5e_safe_switch_params(), so a refused or
 * failed one leaves the running queues as they were.
 */
#include <linux/ethtool.h>

#include "../en.h"
#include "common.h"
#include "fs.h"
#include "params.h"
#include "rss.h"
#include "stats.h"
#include "xdp.h"

/* Private flags, in enum mlx5e_priv_flag order, by upstream's names. */
static const char mlx5e_priv_flags[MLX5E_NUM_PFLAGS][ETH_GSTRING_LEN] = {
	"rx_cqe_moder",
	"tx_cqe_moder",
	"skb_tx_mpwqe",
	"rx_striding_rq",
	"xdp_tx_mpwqe",
	"rx_cqe_compress",
};

static void mlx5e_get_drvinfo(struct net_device *netdev,
			      struct ethtool_drvinfo *info)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	struct mlx5_core_dev *mdev = priv->mdev;

	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	snprintf(info->fw_version, sizeof(info->fw_version), "%u.%u.%u",
		 mdev->fw.major, mdev->fw.minor, mdev->fw.subminor);
	strscpy(info->bus_info, dev_name(mdev->device), sizeof(info->bus_info));
}

static int mlx5e_get_sset_count(struct net_device *netdev, int sset)
{
	switch (sset) {
	case ETH_SS_STATS:
		return mlx5e_stats_count(netdev_priv(netdev));
	case ETH_SS_PRIV_FLAGS:
		return MLX5E_NUM_PFLAGS;
	default:
		return -EOPNOTSUPP;
	}
}

static void mlx5e_get_strings(struct net_device *netdev, u32 sset, u8 *data)
{
	unsigned int i;

	switch (sset) {
	case ETH_SS_STATS:
		mlx5e_stats_strings(netdev_priv(netdev), data);
		break;
	case ETH_SS_PRIV_FLAGS:
		for (i = 0; i < MLX5E_NUM_PFLAGS; i++)
			ethtool_puts(&data, mlx5e_priv_flags[i]);
		break;
	}
}

static void mlx5e_get_ethtool_stats(struct net_device *netdev,
				    struct ethtool_stats *stats, u64 *data)
{
	mlx5e_stats_fill(netdev_priv(netdev), data);
}

static void mlx5e_get_channels(struct net_device *netdev,
			       struct ethtool_channels *ch)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	mutex_lock(&priv->state_lock);
	ch->max_combined = priv->max_nch;
	ch->combined_count = priv->params.num_channels;
	mutex_unlock(&priv->state_lock);
}

static int mlx5e_set_channels(struct net_device *netdev,
			      struct ethtool_channels *ch)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	struct netlink_ext_ack *extack = NULL;
	struct mlx5e_params params;
	int err;

	if (!ch->combined_count || ch->rx_count || ch->tx_count) {
		netdev_err(netdev, "only combined channels, at least one\n");
		return -EINVAL;
	}
	mutex_lock(&priv->state_lock);
	params = priv->params;
	params.num_channels = ch->combined_count;
	if (params.num_channels == priv->params.num_channels) {
		mutex_unlock(&priv->state_lock);
		return 0;
	}
	if (!netif_is_rxfh_configured(netdev))
		mlx5e_rss_default_indir(priv, params.num_channels);
	err = mlx5e_safe_switch_params(priv, &params, extack);
	if (err && !netif_is_rxfh_configured(netdev))
		mlx5e_rss_default_indir(priv, priv->params.num_channels);
	mutex_unlock(&priv->state_lock);
	return err;
}

static void mlx5e_get_ringparam(struct net_device *netdev,
				struct ethtool_ringparam *ring,
				struct kernel_ethtool_ringparam *kring,
				struct netlink_ext_ack *extack)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	ring->rx_max_pending = 1 << mlx5e_log_max_ring_size(priv->mdev, false);
	ring->tx_max_pending = 1 << mlx5e_log_max_ring_size(priv->mdev, true);
	mutex_lock(&priv->state_lock);
	ring->rx_pending = 1 << priv->params.log_rq_size;
	ring->tx_pending = 1 << priv->params.log_sq_size;
	mutex_unlock(&priv->state_lock);
}

static int mlx5e_set_ringparam(struct net_device *netdev,
			       struct ethtool_ringparam *ring,
			       struct kernel_ethtool_ringparam *kring,
			       struct netlink_ext_ack *extack)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	struct mlx5e_params params;
	int err;

	if (ring->rx_mini_pending || ring->rx_jumbo_pending) {
		NL_SET_ERR_MSG_MOD(extack, "mini and jumbo rings are not supported");
		return -EINVAL;
	}
	if (!is_power_of_2(ring->rx_pending) || !is_power_of_2(ring->tx_pending)) {
		NL_SET_ERR_MSG_MOD(extack, "ring sizes must be powers of two");
		return -EINVAL;
	}
	mutex_lock(&priv->state_lock);
	params = priv->params;
	params.log_rq_size = ilog2(ring->rx_pending);
	params.log_sq_size = ilog2(ring->tx_pending);
	err = 0;
	if (params.log_rq_size != priv->params.log_rq_size ||
	    params.log_sq_size != priv->params.log_sq_size)
		err = mlx5e_safe_switch_params(priv, &params, extack);
	mutex_unlock(&priv->state_lock);
	return err;
}

/* The widths of cq_period and cq_max_count in the CQ context. */
#define MLX5E_MAX_COAL_USECS	(BIT(__mlx5_bit_sz(cqc, cq_period)) - 1)
#define MLX5E_MAX_COAL_FRAMES	(BIT(__mlx5_bit_sz(cqc, cq_max_count)) - 1)

static int mlx5e_get_coalesce(struct net_device *netdev,
			      struct ethtool_coalesce *coal,
			      struct kernel_ethtool_coalesce *kcoal,
			      struct netlink_ext_ack *extack)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	mutex_lock(&priv->state_lock);
	coal->rx_coalesce_usecs = priv->params.rx_cq_usecs;
	coal->rx_max_coalesced_frames = priv->params.rx_cq_frames;
	coal->tx_coalesce_usecs = priv->params.tx_cq_usecs;
	coal->tx_max_coalesced_frames = priv->params.tx_cq_frames;
	coal->use_adaptive_rx_coalesce = priv->params.rx_dim_enabled;
	coal->use_adaptive_tx_coalesce = priv->params.tx_dim_enabled;
	kcoal->use_cqe_mode_rx = mlx5e_cqe_based_moder(&priv->params, true);
	kcoal->use_cqe_mode_tx = mlx5e_cqe_based_moder(&priv->params, false);
	mutex_unlock(&priv->state_lock);
	return 0;
}

/*
 * A change of the static values is made in place (MODIFY_CQ on each CQ
 * whose DIM is off); turning DIM on or off, or the period mode
 * (cqe-mode-rx/tx, the private flags rx_cqe_moder and tx_cqe_moder),
 * builds new channels.
 */
static int mlx5e_set_coalesce(struct net_device *netdev,
			      struct ethtool_coalesce *coal,
			      struct kernel_ethtool_coalesce *kcoal,
			      struct netlink_ext_ack *extack)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	struct mlx5e_params params;
	int err = 0;

	if (!MLX5_CAP_GEN(priv->mdev, cq_moderation)) {
		NL_SET_ERR_MSG_MOD(extack, "the device has no CQ moderation");
		return -EOPNOTSUPP;
	}
	if (coal->rx_coalesce_usecs > MLX5E_MAX_COAL_USECS ||
	    coal->tx_coalesce_usecs > MLX5E_MAX_COAL_USECS) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "usecs must be 0..%lu",
				       MLX5E_MAX_COAL_USECS);
		return -ERANGE;
	}
	if (coal->rx_max_coalesced_frames > MLX5E_MAX_COAL_FRAMES ||
	    coal->tx_max_coalesced_frames > MLX5E_MAX_COAL_FRAMES) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "frames must be 0..%lu",
				       MLX5E_MAX_COAL_FRAMES);
		return -ERANGE;
	}
	if ((kcoal->use_cqe_mode_rx || kcoal->use_cqe_mode_tx) &&
	    !MLX5_CAP_GEN(priv->mdev, cq_period_start_from_cqe)) {
		NL_SET_ERR_MSG_MOD(extack, MLX5E_CQE_MODER_UNSUPPORTED_MSG);
		return -EOPNOTSUPP;
	}
	mutex_lock(&priv->state_lock);
	params = priv->params;
	params.pflags &= ~(BIT(MLX5E_PFLAG_RX_CQE_BASED_MODER) |
			   BIT(MLX5E_PFLAG_TX_CQE_BASED_MODER));
	if (kcoal->use_cqe_mode_rx)
		params.pflags |= BIT(MLX5E_PFLAG_RX_CQE_BASED_MODER);
	if (kcoal->use_cqe_mode_tx)
		params.pflags |= BIT(MLX5E_PFLAG_TX_CQE_BASED_MODER);
	params.rx_cq_usecs = coal->rx_coalesce_usecs;
	params.rx_cq_frames = coal->rx_max_coalesced_frames;
	params.tx_cq_usecs = coal->tx_coalesce_usecs;
	params.tx_cq_frames = coal->tx_max_coalesced_frames;
	params.rx_dim_enabled = !!coal->use_adaptive_rx_coalesce;
	params.tx_dim_enabled = !!coal->use_adaptive_tx_coalesce;
	if (!test_bit(MLX5E_STATE_OPENED, &priv->state)) {
		priv->params = params;
	} else if (params.rx_dim_enabled != priv->params.rx_dim_enabled ||
		   params.tx_dim_enabled != priv->params.tx_dim_enabled ||
		   params.pflags != priv->params.pflags) {
		err = mlx5e_safe_switch_params(priv, &params, extack);
	} else {
		err = mlx5e_channels_set_moderation(priv, &params);
		if (err) {
			NL_SET_ERR_MSG_MOD(extack, "MODIFY_CQ failed");
			/* Some CQs may have the new values: put the old back. */
			mlx5e_channels_set_moderation(priv, &priv->params);
		} else {
			priv->params = params;
			priv->channels.params = params;
		}
	}
	mutex_unlock(&priv->state_lock);
	return err;
}

static u32 mlx5e_get_priv_flags(struct net_device *netdev)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	return priv->params.pflags;
}

/* xdp_tx_mpwqe on the running XDP SQs: each switches in place (see
 * mlx5e_xdpsq_set_mpwqe()); nothing is reopened.
 */
static void mlx5e_set_xdp_tx_mpwqe(struct mlx5e_priv *priv, bool on)
{
	unsigned int i;

	if (!test_bit(MLX5E_STATE_OPENED, &priv->state))
		return;
	for (i = 0; i < priv->channels.num; i++) {
		struct mlx5e_channel *c = priv->channels.c[i];

		mlx5e_xdpsq_set_mpwqe(c->xdpsq, on);
		if (c->rq_xdpsq)
			mlx5e_xdpsq_set_mpwqe(c->rq_xdpsq, on);
		/* The XSK SQ's NAPI posts under its lock. */
		if (c->xsksq)
			mlx5e_xdpsq_set_mpwqe(c->xsksq, on);
	}
}

/* A flag that changes the queues (skb_tx_mpwqe, rx_striding_rq,
 * rx_cqe_compress, rx_cqe_moder, tx_cqe_moder) reopens the channels through
 * mlx5e_safe_switch_params(): the new queues take it from their first
 * packet, the old ones complete what they hold. rx_cqe_compress is refused
 * while RX timestamps are on. xdp_tx_mpwqe switches the XDP SQs in place.
 */
static int mlx5e_set_priv_flags(struct net_device *netdev, u32 flags)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	const u32 cqe_moder = BIT(MLX5E_PFLAG_RX_CQE_BASED_MODER) |
			      BIT(MLX5E_PFLAG_TX_CQE_BASED_MODER);
	const u32 reopen = BIT(MLX5E_PFLAG_SKB_TX_MPWQE) |
			   BIT(MLX5E_PFLAG_RX_STRIDING_RQ) |
			   BIT(MLX5E_PFLAG_RX_CQE_COMPRESS) | cqe_moder;
	const u32 xdp_mpwqe = BIT(MLX5E_PFLAG_XDP_TX_MPWQE);
	struct mlx5e_params params;
	u32 changed;
	int err = 0;

	if (flags & ~GENMASK(MLX5E_NUM_PFLAGS - 1, 0))
		return -EINVAL;
	mutex_lock(&priv->state_lock);
	params = priv->params;
	params.pflags = flags;
	changed = flags ^ priv->params.pflags;
	/* ethtool's set_priv_flags has no extack: say it in dmesg. */
	if ((changed & xdp_mpwqe) && (flags & xdp_mpwqe) &&
	    !mlx5e_xdp_mpwqe_caps(priv->mdev)) {
		netdev_err(netdev, "%s\n", MLX5E_XDP_MPWQE_UNSUPPORTED_MSG);
		err = -EOPNOTSUPP;
	} else if (changed & reopen) {
		if ((changed & flags & cqe_moder) &&
		    !MLX5_CAP_GEN(priv->mdev, cq_period_start_from_cqe)) {
			netdev_err(netdev, "%s\n", MLX5E_CQE_MODER_UNSUPPORTED_MSG);
			err = -EOPNOTSUPP;
		} else if ((flags & BIT(MLX5E_PFLAG_SKB_TX_MPWQE)) &&
		    !MLX5_CAP_ETH(priv->mdev, enhanced_multi_pkt_send_wqe)) {
			netdev_err(netdev, "%s\n", MLX5E_MPWQE_UNSUPPORTED_MSG);
			err = -EOPNOTSUPP;
		} else if ((flags & BIT(MLX5E_PFLAG_RX_STRIDING_RQ)) &&
			   !mlx5e_striding_rq_caps(priv->mdev)) {
			netdev_err(netdev, "%s\n", MLX5E_STRIDING_UNSUPPORTED_MSG);
			err = -EOPNOTSUPP;
		} else if (!(flags & BIT(MLX5E_PFLAG_RX_STRIDING_RQ)) &&
			   (params.features & NETIF_F_LRO)) {
			netdev_err(netdev, "%s: turn LRO off first\n",
				   MLX5E_LRO_LEGACY_MSG);
			err = -EINVAL;
		} else if ((changed & flags & BIT(MLX5E_PFLAG_RX_CQE_COMPRESS)) &&
			   priv->hwtstamp.rx_filter != HWTSTAMP_FILTER_NONE) {
			netdev_err(netdev, "%s\n", MLX5E_CQE_COMPRESS_TSTAMP_MSG);
			err = -EINVAL;
		} else if (mlx5e_cqe_compress_validate(priv->mdev, &params)) {
			err = mlx5e_cqe_compress_validate(priv->mdev, &params);
			netdev_err(netdev, "%s\n", err == -EOPNOTSUPP ?
				   MLX5E_CQE_COMPRESS_UNSUPPORTED_MSG :
				   MLX5E_CQE_COMPRESS_STRIDX_MSG);
		} else {
			err = mlx5e_safe_switch_params(priv, &params, NULL);
			if (!err && (changed & BIT(MLX5E_PFLAG_RX_CQE_COMPRESS)))
				priv->rx_cqe_compress_def =
					flags & BIT(MLX5E_PFLAG_RX_CQE_COMPRESS);
		}
	} else {
		priv->params = params;
		if (changed & xdp_mpwqe) {
			priv->channels.params.pflags = flags;
			mlx5e_set_xdp_tx_mpwqe(priv, flags & xdp_mpwqe);
		}
	}
	mutex_unlock(&priv->state_lock);
	return err;
}

static u32 mlx5e_get_rxfh_key_size(struct net_device *netdev)
{
	return MLX5E_RSS_KEY_SIZE;
}

static u32 mlx5e_get_rxfh_indir_size(struct net_device *netdev)
{
	return MLX5E_INDIR_RQT_SIZE;
}

static int mlx5e_get_rxfh(struct net_device *netdev,
			  struct ethtool_rxfh_param *rxfh)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	mutex_lock(&priv->state_lock);
	if (rxfh->indir)
		memcpy(rxfh->indir, priv->rss.indir, sizeof(priv->rss.indir));
	if (rxfh->key)
		memcpy(rxfh->key, priv->rss.key, sizeof(priv->rss.key));
	rxfh->hfunc = ETH_RSS_HASH_TOP;
	mutex_unlock(&priv->state_lock);
	return 0;
}

static int mlx5e_set_rxfh(struct net_device *netdev,
			  struct ethtool_rxfh_param *rxfh,
			  struct netlink_ext_ack *extack)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	bool opened;
	int err = 0;

	if (rxfh->hfunc != ETH_RSS_HASH_NO_CHANGE &&
	    rxfh->hfunc != ETH_RSS_HASH_TOP) {
		NL_SET_ERR_MSG_MOD(extack, "only the Toeplitz hash is supported");
		return -EOPNOTSUPP;
	}
	mutex_lock(&priv->state_lock);
	opened = test_bit(MLX5E_STATE_OPENED, &priv->state);
	if (rxfh->indir) {
		memcpy(priv->rss.indir, rxfh->indir, sizeof(priv->rss.indir));
		if (opened)
			err = mlx5e_rss_redirect_indir(priv, &priv->channels);
	}
	if (!err && rxfh->key) {
		if (opened)
			err = mlx5e_rss_set_key(priv, rxfh->key);
		else
			memcpy(priv->rss.key, rxfh->key, sizeof(priv->rss.key));
	}
	mutex_unlock(&priv->state_lock);
	return err;
}

/* ethtool -X context new|N: extra RSS contexts (en/rss.c). */
static int mlx5e_rxfh_ctx_check(const struct ethtool_rxfh_param *rxfh,
				struct netlink_ext_ack *extack)
{
	if (rxfh->hfunc != ETH_RSS_HASH_NO_CHANGE &&
	    rxfh->hfunc != ETH_RSS_HASH_TOP) {
		NL_SET_ERR_MSG_MOD(extack, "only the Toeplitz hash is supported");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int mlx5e_create_rxfh_context(struct net_device *netdev,
				     struct ethtool_rxfh_context *ctx,
				     const struct ethtool_rxfh_param *rxfh,
				     struct netlink_ext_ack *extack)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	u32 *indir = ethtool_rxfh_context_indir(ctx);
	unsigned int i;
	int err;

	err = mlx5e_rxfh_ctx_check(rxfh, extack);
	if (err)
		return err;
	mutex_lock(&priv->state_lock);
	/* What the core fills in only when given: the defaults are the
	 * channels in turn and the main context's key.
	 */
	if (rxfh->indir)
		memcpy(indir, rxfh->indir, sizeof(u32) * MLX5E_INDIR_RQT_SIZE);
	else
		for (i = 0; i < MLX5E_INDIR_RQT_SIZE; i++)
			indir[i] = ethtool_rxfh_indir_default(i,
							      priv->params.num_channels);
	memcpy(ethtool_rxfh_context_key(ctx), rxfh->key ?: priv->rss.key,
	       MLX5E_RSS_KEY_SIZE);
	ctx->hfunc = ETH_RSS_HASH_TOP;
	err = mlx5e_rss_ctx_add(priv, rxfh->rss_context, ctx);
	if (err)
		NL_SET_ERR_MSG_MOD(extack, "creating the context's RQT and TIRs failed");
	mutex_unlock(&priv->state_lock);
	return err;
}

static int mlx5e_modify_rxfh_context(struct net_device *netdev,
				     struct ethtool_rxfh_context *ctx,
				     const struct ethtool_rxfh_param *rxfh,
				     struct netlink_ext_ack *extack)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	int err;

	err = mlx5e_rxfh_ctx_check(rxfh, extack);
	if (err)
		return err;
	mutex_lock(&priv->state_lock);
	err = mlx5e_rss_ctx_modify(priv, ctx, rxfh->indir, rxfh->key);
	mutex_unlock(&priv->state_lock);
	return err;
}

static int mlx5e_remove_rxfh_context(struct net_device *netdev,
				     struct ethtool_rxfh_context *ctx,
				     u32 rss_context,
				     struct netlink_ext_ack *extack)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	int rule;

	mutex_lock(&priv->state_lock);
	/* In use by a rule: refused, but for the netdev going away (its
	 * rules then stay down with it).
	 */
	rule = mlx5e_ethtool_rss_ctx_rule(priv, rss_context);
	if (rule >= 0 && netdev->reg_state == NETREG_REGISTERED) {
		mutex_unlock(&priv->state_lock);
		netdev_err(netdev, "RSS context %u: ethtool rule %d steers to it\n",
			   rss_context, rule);
		NL_SET_ERR_MSG_MOD(extack, "an ethtool rule steers to the context");
		return -EBUSY;
	}
	mlx5e_rss_ctx_del(priv, rss_context);
	mutex_unlock(&priv->state_lock);
	return 0;
}

/* The traffic types ethtool's rx-flow-hash names, and whether their
 * fields can be changed (TCP and UDP only, as upstream).
 */
static const struct {
	u32 flow_type;
	enum mlx5e_traffic_type tt;
	bool settable;
} mlx5e_rxfh_flows[] = {
	{ TCP_V4_FLOW, MLX5E_TT_IPV4_TCP, true },
	{ TCP_V6_FLOW, MLX5E_TT_IPV6_TCP, true },
	{ UDP_V4_FLOW, MLX5E_TT_IPV4_UDP, true },
	{ UDP_V6_FLOW, MLX5E_TT_IPV6_UDP, true },
	{ IPV4_FLOW, MLX5E_TT_IPV4, false },
	{ IPV6_FLOW, MLX5E_TT_IPV6, false },
};

/* The entry of mlx5e_rxfh_flows[] for @flow_type, -1 for none. */
static int mlx5e_rxfh_flow(u32 flow_type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mlx5e_rxfh_flows); i++)
		if (mlx5e_rxfh_flows[i].flow_type == flow_type)
			return i;
	return -1;
}

/* ethtool -n rx-flow-hash T [context N]: what the TIR of a flow type
 * hashes.
 */
static int mlx5e_get_rxfh_fields(struct net_device *netdev,
				 struct ethtool_rxfh_fields *rxfh)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	int i = mlx5e_rxfh_flow(rxfh->flow_type);
	const u8 *fields;
	u8 f;

	if (i < 0)
		return -EOPNOTSUPP;
	mutex_lock(&priv->state_lock);
	fields = mlx5e_rss_hash_fields(priv, rxfh->rss_context);
	f = fields ? fields[mlx5e_rxfh_flows[i].tt] : 0;
	mutex_unlock(&priv->state_lock);
	if (!fields)
		return -ENOENT;
	rxfh->data = 0;
	if (f & MLX5_HASH_FIELD_SEL_SRC_IP)
		rxfh->data |= RXH_IP_SRC;
	if (f & MLX5_HASH_FIELD_SEL_DST_IP)
		rxfh->data |= RXH_IP_DST;
	if (f & MLX5_HASH_FIELD_SEL_L4_SPORT)
		rxfh->data |= RXH_L4_B_0_1;
	if (f & MLX5_HASH_FIELD_SEL_L4_DPORT)
		rxfh->data |= RXH_L4_B_2_3;
	return 0;
}

/* ethtool -N rx-flow-hash T F [context N]: the addresses and ports a TCP
 * or UDP flow type hashes, in the main context or an extra one.
 */
static int mlx5e_set_rxfh_fields(struct net_device *netdev,
				 const struct ethtool_rxfh_fields *rxfh,
				 struct netlink_ext_ack *extack)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	int i = mlx5e_rxfh_flow(rxfh->flow_type);
	u8 f = 0;
	int err;

	if (i < 0 || !mlx5e_rxfh_flows[i].settable) {
		netdev_err(netdev, "rx-flow-hash: only tcp4, udp4, tcp6 and udp6 can be set\n");
		NL_SET_ERR_MSG_MOD(extack, "only TCP and UDP flow types can be set");
		return -EOPNOTSUPP;
	}
	if (rxfh->data & ~(RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1 |
			   RXH_L4_B_2_3)) {
		netdev_err(netdev, "rx-flow-hash: only the IP addresses and L4 ports can be hashed\n");
		NL_SET_ERR_MSG_MOD(extack, "only the IP addresses and L4 ports can be hashed");
		return -EOPNOTSUPP;
	}
	if (rxfh->data & RXH_IP_SRC)
		f |= MLX5_HASH_FIELD_SEL_SRC_IP;
	if (rxfh->data & RXH_IP_DST)
		f |= MLX5_HASH_FIELD_SEL_DST_IP;
	if (rxfh->data & RXH_L4_B_0_1)
		f |= MLX5_HASH_FIELD_SEL_L4_SPORT;
	if (rxfh->data & RXH_L4_B_2_3)
		f |= MLX5_HASH_FIELD_SEL_L4_DPORT;
	mutex_lock(&priv->state_lock);
	err = mlx5e_rss_set_hash_fields(priv, rxfh->rss_context,
					mlx5e_rxfh_flows[i].tt, f);
	mutex_unlock(&priv->state_lock);
	return err;
}

static int mlx5e_get_rxnfc(struct net_device *netdev,
			   struct ethtool_rxnfc *nfc, u32 *rule_locs)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	int err;

	switch (nfc->cmd) {
	case ETHTOOL_GRXRINGS:
		nfc->data = priv->params.num_channels;
		return 0;
	default:
		mutex_lock(&priv->state_lock);
		err = mlx5e_ethtool_get_rules(priv, nfc, rule_locs);
		mutex_unlock(&priv->state_lock);
		return err;
	}
}

/* ethtool -N/-U: ntuple steering rules (en/fs_ethtool.c). */
static int mlx5e_set_rxnfc(struct net_device *netdev, struct ethtool_rxnfc *nfc)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	int err;

	mutex_lock(&priv->state_lock);
	err = mlx5e_ethtool_set_rule(priv, nfc);
	mutex_unlock(&priv->state_lock);
	return err;
}

/* PPLM's FEC modes as ethtool names them, the link mode bit of each. */
static const struct {
	u16 pplm;
	u32 fec;
	u8 link_mode;
	const char *name;
} mlx5e_fec_modes[] = {
	{ MLX5E_FEC_NONE, ETHTOOL_FEC_OFF, ETHTOOL_LINK_MODE_FEC_NONE_BIT,
	  "off" },
	{ MLX5E_FEC_BASER, ETHTOOL_FEC_BASER, ETHTOOL_LINK_MODE_FEC_BASER_BIT,
	  "baser" },
	{ MLX5E_FEC_RS_528, ETHTOOL_FEC_RS, ETHTOOL_LINK_MODE_FEC_RS_BIT,
	  "rs" },
	{ MLX5E_FEC_RS_544, ETHTOOL_FEC_RS, ETHTOOL_LINK_MODE_FEC_RS_BIT,
	  "rs" },
	{ MLX5E_FEC_LLRS, ETHTOOL_FEC_LLRS, ETHTOOL_LINK_MODE_FEC_LLRS_BIT,
	  "llrs" },
};

/* The ethtool FEC mode of the PPLM mode @pplm, 0 when none names it. */
static u32 mlx5e_fec_ethtool(u16 pplm)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mlx5e_fec_modes); i++)
		if (mlx5e_fec_modes[i].pplm == pplm)
			return mlx5e_fec_modes[i].fec;
	return 0;
}

/*
 * FEC link modes: supported, every mode some speed can run; advertised,
 * the one the link runs.  Nothing where the port does not report FEC.
 */
static void mlx5e_fec_link_modes(struct mlx5_core_dev *mdev,
				 struct ethtool_link_ksettings *ks)
{
	u16 caps, active;
	unsigned int i;

	if (mlx5e_port_fec(mdev, &caps, NULL, &active))
		return;
	for (i = 0; i < ARRAY_SIZE(mlx5e_fec_modes); i++) {
		if (caps & mlx5e_fec_modes[i].pplm)
			__set_bit(mlx5e_fec_modes[i].link_mode,
				  ks->link_modes.supported);
		if (active == mlx5e_fec_modes[i].pplm)
			__set_bit(mlx5e_fec_modes[i].link_mode,
				  ks->link_modes.advertising);
	}
}

/*
 * Link modes from PTYS: supported from the port's capability, advertised
 * from what is enabled; the speed of the protocol running, when the link
 * is up; FEC modes from PPLM.
 */
static int mlx5e_get_link_ksettings(struct net_device *netdev,
				    struct ethtool_link_ksettings *ks)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	u32 cap = 0, admin = 0, oper = 0;
	u32 speed = SPEED_UNKNOWN;

	ethtool_link_ksettings_zero_link_mode(ks, supported);
	ethtool_link_ksettings_zero_link_mode(ks, advertising);
	if (test_bit(MLX5E_STATE_HW_READY, &priv->state) &&
	    !mlx5e_port_ptys(priv->mdev, &cap, &admin, &oper)) {
		mlx5e_ptys_link_modes(cap, ks->link_modes.supported);
		mlx5e_ptys_link_modes(admin, ks->link_modes.advertising);
		if (netif_carrier_ok(netdev))
			speed = mlx5e_ptys_speed(oper);
		mlx5e_fec_link_modes(priv->mdev, ks);
	}
	__set_bit(ETHTOOL_LINK_MODE_Pause_BIT, ks->link_modes.supported);
	__set_bit(ETHTOOL_LINK_MODE_Asym_Pause_BIT, ks->link_modes.supported);
	__set_bit(ETHTOOL_LINK_MODE_FIBRE_BIT, ks->link_modes.supported);
	__set_bit(ETHTOOL_LINK_MODE_FIBRE_BIT, ks->link_modes.advertising);
	ks->base.speed = speed;
	ks->base.duplex = speed == SPEED_UNKNOWN ? DUPLEX_UNKNOWN : DUPLEX_FULL;
	ks->base.port = PORT_DA;
	ks->base.autoneg = AUTONEG_DISABLE;
	return 0;
}

/*
 * FEC (PPLM): the mode asked (auto, or the one mode every speed that can
 * run it was asked for) and the one the link runs (none while it is down).
 */
static int mlx5e_get_fecparam(struct net_device *netdev,
			      struct ethtool_fecparam *fecparam)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	u16 admin, active;
	int err;

	if (!test_bit(MLX5E_STATE_HW_READY, &priv->state))
		return -ENETDOWN;
	err = mlx5e_port_fec(priv->mdev, NULL, &admin, &active);
	if (err)
		return err;
	fecparam->fec = admin ? mlx5e_fec_ethtool(admin) : ETHTOOL_FEC_AUTO;
	if (!fecparam->fec)
		fecparam->fec = ETHTOOL_FEC_NONE;
	fecparam->active_fec = mlx5e_fec_ethtool(active);
	return 0;
}

/*
 * The entry of mlx5e_fec_modes[] of the ethtool FEC mode @fec (one bit;
 * RS is RS(528,514), the RS of the speed groups up to 25G a lane), -1
 * when none.
 */
static int mlx5e_fec_lookup(u32 fec)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mlx5e_fec_modes); i++)
		if (mlx5e_fec_modes[i].fec == fec)
			return i;
	return -1;
}

/*
 * Ask for one FEC mode at every speed that can run it (the others on
 * auto), then retrain a running link (PAOS down, up) so that it runs it,
 * as upstream does; a port that is down takes it when it comes up.
 */
static int mlx5e_set_fecparam(struct net_device *netdev,
			      struct ethtool_fecparam *fecparam)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	u32 fec = fecparam->fec;
	int err, i = -1;
	u16 mode = 0;

	if (!mlx5e_port_fec_supported(priv->mdev))
		return -EOPNOTSUPP;
	if (fec != ETHTOOL_FEC_AUTO) {
		i = mlx5e_fec_lookup(fec);
		if (hweight32(fec) != 1 || i < 0) {
			netdev_err(netdev, "FEC: one known mode at a time (asked 0x%x)\n",
				   fec);
			return -EOPNOTSUPP;
		}
		mode = mlx5e_fec_modes[i].pplm;
	}
	mutex_lock(&priv->state_lock);
	if (!test_bit(MLX5E_STATE_HW_READY, &priv->state)) {
		err = -ENETDOWN;
		goto out;
	}
	err = mlx5e_port_set_fec(priv->mdev, mode);
	if (err == -EOPNOTSUPP)
		netdev_err(netdev, "FEC: no speed of the port can run %s\n",
			   i < 0 ? "auto" : mlx5e_fec_modes[i].name);
	if (err || !test_bit(MLX5E_STATE_OPENED, &priv->state))
		goto out;
	err = mlx5e_port_retrain(priv->mdev);
out:
	mutex_unlock(&priv->state_lock);
	return err;
}

static void mlx5e_get_fec_stats(struct net_device *netdev,
				struct ethtool_fec_stats *fec_stats)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	if (test_bit(MLX5E_STATE_HW_READY, &priv->state))
		mlx5e_stats_fec(priv, fec_stats);
}

/* Global pause (PFCC); its autonegotiation is not supported. */
static void mlx5e_get_pauseparam(struct net_device *netdev,
				 struct ethtool_pauseparam *pause)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	u32 rx = 0, tx = 0;

	if (mlx5e_port_query_pause(priv->mdev, &rx, &tx))
		netdev_err(netdev, "querying pause (PFCC) failed\n");
	pause->autoneg = AUTONEG_DISABLE;
	pause->rx_pause = rx;
	pause->tx_pause = tx;
}

static int mlx5e_set_pauseparam(struct net_device *netdev,
				struct ethtool_pauseparam *pause)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	int err;

	if (pause->autoneg) {
		netdev_err(netdev, "pause autonegotiation is not supported\n");
		return -EINVAL;
	}
	err = mlx5e_port_set_pause(priv->mdev, !!pause->rx_pause,
				   !!pause->tx_pause);
	if (err)
		netdev_err(netdev, "setting pause (PFCC) failed: %d\n", err);
	return err;
}

static void mlx5e_get_pause_stats(struct net_device *netdev,
				  struct ethtool_pause_stats *stats)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	u64 rx, tx;

	if (mlx5e_port_pause_frames(priv->mdev, &rx, &tx))
		return;
	stats->rx_pause_frames = rx;
	stats->tx_pause_frames = tx;
}

static void mlx5e_get_eth_mac_stats(struct net_device *netdev,
				    struct ethtool_eth_mac_stats *mac)
{
	mlx5e_stats_eth_mac(netdev_priv(netdev), mac);
}

static void mlx5e_get_eth_ctrl_stats(struct net_device *netdev,
				     struct ethtool_eth_ctrl_stats *ctrl)
{
	mlx5e_stats_eth_ctrl(netdev_priv(netdev), ctrl);
}

static void mlx5e_get_eth_phy_stats(struct net_device *netdev,
				    struct ethtool_eth_phy_stats *phy)
{
	mlx5e_stats_eth_phy(netdev_priv(netdev), phy);
}

static void
mlx5e_get_rmon_stats(struct net_device *netdev, struct ethtool_rmon_stats *rmon,
		     const struct ethtool_rmon_hist_range **ranges)
{
	mlx5e_stats_rmon(netdev_priv(netdev), rmon, ranges);
}

/*
 * The PHC and, with it, hardware timestamps of every received packet and
 * of the sends that ask; the core adds the software modes.
 */
static int mlx5e_get_ts_info(struct net_device *netdev,
			     struct kernel_ethtool_ts_info *info)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	info->phc_index = mlx5_clock_phc_index(priv->mdev);
	if (info->phc_index < 0)
		return 0;
	info->so_timestamping = SOF_TIMESTAMPING_TX_HARDWARE |
				SOF_TIMESTAMPING_RX_HARDWARE |
				SOF_TIMESTAMPING_RAW_HARDWARE;
	info->tx_types = BIT(HWTSTAMP_TX_OFF) | BIT(HWTSTAMP_TX_ON);
	info->rx_filters = BIT(HWTSTAMP_FILTER_NONE) | BIT(HWTSTAMP_FILTER_ALL);
	return 0;
}

const struct ethtool_ops mlx5e_ethtool_ops = {
	.rxfh_per_ctx_key	= true,
	.rxfh_per_ctx_fields	= true,
	.rxfh_priv_size		= sizeof(struct mlx5e_rss_ctx),
	.rxfh_max_num_contexts	= MLX5E_RSS_MAX_CTX,
	.supported_coalesce_params = ETHTOOL_COALESCE_USECS |
				     ETHTOOL_COALESCE_MAX_FRAMES |
				     ETHTOOL_COALESCE_USE_ADAPTIVE |
				     ETHTOOL_COALESCE_USE_CQE,
	.get_drvinfo		= mlx5e_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= mlx5e_get_link_ksettings,
	.get_pauseparam		= mlx5e_get_pauseparam,
	.set_pauseparam		= mlx5e_set_pauseparam,
	.get_pause_stats	= mlx5e_get_pause_stats,
	.get_fecparam		= mlx5e_get_fecparam,
	.set_fecparam		= mlx5e_set_fecparam,
	.get_fec_stats		= mlx5e_get_fec_stats,
	.get_eth_mac_stats	= mlx5e_get_eth_mac_stats,
	.get_eth_ctrl_stats	= mlx5e_get_eth_ctrl_stats,
	.get_eth_phy_stats	= mlx5e_get_eth_phy_stats,
	.get_rmon_stats		= mlx5e_get_rmon_stats,
	.get_sset_count		= mlx5e_get_sset_count,
	.get_strings		= mlx5e_get_strings,
	.get_ethtool_stats	= mlx5e_get_ethtool_stats,
	.get_channels		= mlx5e_get_channels,
	.set_channels		= mlx5e_set_channels,
	.get_ringparam		= mlx5e_get_ringparam,
	.set_ringparam		= mlx5e_set_ringparam,
	.get_coalesce		= mlx5e_get_coalesce,
	.set_coalesce		= mlx5e_set_coalesce,
	.get_priv_flags		= mlx5e_get_priv_flags,
	.set_priv_flags		= mlx5e_set_priv_flags,
	.get_rxnfc		= mlx5e_get_rxnfc,
	.set_rxnfc		= mlx5e_set_rxnfc,
	.get_rxfh_key_size	= mlx5e_get_rxfh_key_size,
	.get_rxfh_indir_size	= mlx5e_get_rxfh_indir_size,
	.get_rxfh		= mlx5e_get_rxfh,
	.set_rxfh		= mlx5e_set_rxfh,
	.get_rxfh_fields	= mlx5e_get_rxfh_fields,
	.set_rxfh_fields	= mlx5e_set_rxfh_fields,
	.create_rxfh_context	= mlx5e_create_rxfh_context,
	.modify_rxfh_context	= mlx5e_modify_rxfh_context,
	.remove_rxfh_context	= mlx5e_remove_rxfh_context,
	.get_ts_info		= mlx5e_get_ts_info,
};
