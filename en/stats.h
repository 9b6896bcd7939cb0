/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef __MLX5_EN_STATS_H__
#define __MLX5_EN_STATS_H__

#include <linux/ethtool.h>
#include <net/netdev_queues.h>

#include "../en.h"

void mlx5e_stats_init(struct mlx5e_priv *priv);
int mlx5e_stats_count(struct mlx5e_priv *priv);
void mlx5e_stats_strings(struct mlx5e_priv *priv, u8 *data);
void mlx5e_stats_fill(struct mlx5e_priv *priv, u64 *data);
void mlx5e_stats_eth_mac(struct mlx5e_priv *priv,
			 struct ethtool_eth_mac_stats *mac);
void mlx5e_stats_eth_ctrl(struct mlx5e_priv *priv,
			  struct ethtool_eth_ctrl_stats *ctrl);
void mlx5e_stats_eth_phy(struct mlx5e_priv *priv,
			 struct ethtool_eth_phy_stats *phy);
void mlx5e_stats_rmon(struct mlx5e_priv *priv, struct ethtool_rmon_stats *rmon,
		      const struct ethtool_rmon_hist_range **ranges);
void mlx5e_stats_fec(struct mlx5e_priv *priv, struct ethtool_fec_stats *fec);
void mlx5e_get_stats64(struct net_device *netdev,
		       struct rtnl_link_stats64 *stats);
extern const struct netdev_stat_ops mlx5e_stat_ops;

#endif /* __MLX5_EN_STATS_H__ */
