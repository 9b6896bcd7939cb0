/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef __MLX5_EN_FS_H__
#define __MLX5_EN_FS_H__

#include "../en.h"

int mlx5e_fs_create(struct mlx5e_priv *priv);
void mlx5e_fs_destroy(struct mlx5e_priv *priv);
void mlx5e_fs_apply_rx_mode(struct mlx5e_priv *priv);

#endif /* __MLX5_EN_FS_H__ */
