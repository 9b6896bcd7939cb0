/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef __MLX5_EN_RSS_H__
#define __MLX5_EN_RSS_H__

#include "../en.h"

void mlx5e_rss_init(struct mlx5e_priv *priv);
void mlx5e_rss_default_indir(struct mlx5e_priv *priv, u16 num_channels);
int mlx5e_rss_create(struct mlx5e_priv *priv, struct mlx5e_channels *chs);
void mlx5e_rss_destroy(struct mlx5e_priv *priv);
int mlx5e_rss_redirect(struct mlx5e_priv *priv, struct mlx5e_channels *chs);
int mlx5e_rss_redirect_indir(struct mlx5e_priv *priv,
			     struct mlx5e_channels *chs);
int mlx5e_rss_set_key(struct mlx5e_priv *priv, const u8 *key);
int mlx5e_rss_set_lro(struct mlx5e_priv *priv, bool lro);
int mlx5e_rss_ctx_add(struct mlx5e_priv *priv, u32 id,
		      struct ethtool_rxfh_context *ctx);
int mlx5e_rss_ctx_modify(struct mlx5e_priv *priv,
			 struct ethtool_rxfh_context *ctx, const u32 *indir,
			 const u8 *key);
void mlx5e_rss_ctx_del(struct mlx5e_priv *priv, u32 id);
int mlx5e_rss_ctx_tirn(struct mlx5e_priv *priv, u32 id,
		       enum mlx5e_traffic_type tt, u32 *tirn);
u8 *mlx5e_rss_hash_fields(struct mlx5e_priv *priv, u32 id);
int mlx5e_rss_set_hash_fields(struct mlx5e_priv *priv, u32 id,
			      enum mlx5e_traffic_type tt, u8 fields);

#endif /* __MLX5_EN_RSS_H__ */
