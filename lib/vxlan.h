/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The device's VXLAN UDP port table: the destination ports whose frames it
 * parses as VXLAN (inner checksums and LSO on send, the tunneled CQE bit
 * and inner checksum verdict on receive).  IANA's 4789 is there from
 * reset; the others are added and deleted with ADD_VXLAN_UDP_DPORT and
 * DELETE_VXLAN_UDP_DPORT, at most max_vxlan_udp_ports in all.
 */
#ifndef __MLX5_LIB_VXLAN_H__
#define __MLX5_LIB_VXLAN_H__

#include <linux/err.h>
#include <linux/types.h>

#include "mlx5_core.h"

struct mlx5_vxlan;

/* The table's size: max_vxlan_udp_ports, 4 when the device says 0. */
static inline u8 mlx5_vxlan_max_udp_ports(struct mlx5_core_dev *mdev)
{
	return MLX5_CAP_ETH(mdev, max_vxlan_udp_ports) ?: 4;
}

/* A table to program: mlx5_vxlan_create() found tunnel_stateless_vxlan. */
static inline bool mlx5_vxlan_allowed(struct mlx5_vxlan *vxlan)
{
	return !IS_ERR_OR_NULL(vxlan);
}

struct mlx5_vxlan *mlx5_vxlan_create(struct mlx5_core_dev *mdev);
void mlx5_vxlan_destroy(struct mlx5_vxlan *vxlan);
int mlx5_vxlan_add_port(struct mlx5_vxlan *vxlan, u16 port);
int mlx5_vxlan_del_port(struct mlx5_vxlan *vxlan, u16 port);
bool mlx5_vxlan_lookup_port(struct mlx5_vxlan *vxlan, u16 port);
void mlx5_vxlan_reset_to_default(struct mlx5_vxlan *vxlan);

#endif /* __MLX5_LIB_VXLAN_H__ */
