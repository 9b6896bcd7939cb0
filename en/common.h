/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef __MLX5_EN_COMMON_H__
#define __MLX5_EN_COMMON_H__

#include "../en.h"

/* Access register ids (PRM). */
#define MLX5E_REG_PFCC	0x5007
#define MLX5E_REG_PPCNT	0x5008
#define MLX5E_REG_PMTU	0x5003
#define MLX5E_REG_PTYS	0x5004
#define MLX5E_REG_PAOS	0x5006

int mlx5e_hw_res_create(struct mlx5_core_dev *mdev, struct mlx5e_hw_res *res);
void mlx5e_hw_res_destroy(struct mlx5_core_dev *mdev, struct mlx5e_hw_res *res);
int mlx5e_query_out_of_buffer(struct mlx5_core_dev *mdev, u16 q_counter,
			      u32 *out_of_buffer);

/* en/port.c */
int mlx5e_query_mac(struct mlx5_core_dev *mdev, u8 *addr);
int mlx5e_query_min_inline(struct mlx5_core_dev *mdev, u8 *mode);
int mlx5e_port_max_mtu(struct mlx5_core_dev *mdev, u16 *hw_mtu);
int mlx5e_port_set_mtu(struct mlx5_core_dev *mdev, u16 hw_mtu);
int mlx5e_port_set_admin(struct mlx5_core_dev *mdev, bool up);
int mlx5e_port_oper_up(struct mlx5_core_dev *mdev, bool *up);
int mlx5e_port_speed(struct mlx5_core_dev *mdev, u32 *mbps);
bool mlx5e_port_slow_pci(struct mlx5_core_dev *mdev);
int mlx5e_port_ptys(struct mlx5_core_dev *mdev, u32 *cap, u32 *admin,
		    u32 *oper);
u32 mlx5e_ptys_speed(u32 proto);
void mlx5e_ptys_link_modes(u32 proto, unsigned long *modes);
int mlx5e_port_query_pause(struct mlx5_core_dev *mdev, u32 *rx, u32 *tx);
int mlx5e_port_set_pause(struct mlx5_core_dev *mdev, u32 rx, u32 tx);
int mlx5e_port_ppcnt(struct mlx5_core_dev *mdev, u8 grp, void *out);
int mlx5e_port_pause_frames(struct mlx5_core_dev *mdev, u64 *rx, u64 *tx);

#endif /* __MLX5_EN_COMMON_H__ */
