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
#define MLX5E_REG_PMLP	0x5002
#define MLX5E_REG_PPLM	0x5023
#define MLX5E_REG_PPLR	0x5018

/*
 * FEC modes: bits of PPLM's per-speed cap and admin fields and of
 * fec_mode_active (PRM; upstream's enum mlx5e_fec_supported_link_mode
 * bit numbers).  RS(544,514) and LLRS run on 50G and 100G lanes only.
 */
#define MLX5E_FEC_NONE		BIT(0)
#define MLX5E_FEC_BASER		BIT(1)	/* Firecode, clause 74 */
#define MLX5E_FEC_RS_528	BIT(2)	/* RS(528,514), clause 91 */
#define MLX5E_FEC_RS_544	BIT(7)
#define MLX5E_FEC_LLRS		BIT(9)

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
bool mlx5e_port_fec_supported(struct mlx5_core_dev *mdev);
int mlx5e_port_fec(struct mlx5_core_dev *mdev, u16 *caps, u16 *admin,
		   u16 *active);
int mlx5e_port_set_fec(struct mlx5_core_dev *mdev, u16 mode);
int mlx5e_port_lanes(struct mlx5_core_dev *mdev, u8 *lanes);
bool mlx5e_port_loopback_supported(struct mlx5_core_dev *mdev);
int mlx5e_port_set_loopback(struct mlx5_core_dev *mdev, bool on);
int mlx5e_port_retrain(struct mlx5_core_dev *mdev);

#endif /* __MLX5_EN_COMMON_H__ */
