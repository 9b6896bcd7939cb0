/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef __MLX5_EN_FS_H__
#define __MLX5_EN_FS_H__

#include "../en.h"

int mlx5e_fs_create(struct mlx5e_priv *priv);
void mlx5e_fs_destroy(struct mlx5e_priv *priv);
void mlx5e_fs_apply_rx_mode(struct mlx5e_priv *priv);
int mlx5e_fs_update_root(struct mlx5e_priv *priv);
int mlx5e_fs_fg_create(struct mlx5e_priv *priv, u32 table_id, u32 start,
		       u32 end, const void *criteria, u32 *group_id);
void mlx5e_fs_fg_destroy(struct mlx5e_priv *priv, u32 table_id, u32 group_id);

/* en/fs_ethtool.c: ethtool -N rules, in a table ahead of the L2 table. */
#define MLX5E_ETHTOOL_LEVEL	0

void mlx5e_ethtool_fs_init(struct mlx5e_priv *priv);
void mlx5e_ethtool_fs_cleanup(struct mlx5e_priv *priv);
void mlx5e_ethtool_fs_install(struct mlx5e_priv *priv);
void mlx5e_ethtool_fs_remove(struct mlx5e_priv *priv);
int mlx5e_ethtool_get_rules(struct mlx5e_priv *priv, struct ethtool_rxnfc *nfc,
			    u32 *rule_locs);
int mlx5e_ethtool_set_rule(struct mlx5e_priv *priv, struct ethtool_rxnfc *nfc);
int mlx5e_ethtool_rss_ctx_rule(struct mlx5e_priv *priv, u32 rss_context);

#endif /* __MLX5_EN_FS_H__ */
