// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port and the NIC vport as the netdev sees them: the permanent MAC
 * and minimum inline mode from the NIC vport context; the MTU from PMTU
 * (maximum, administrative), the administrative and operational state from
 * PAOS, the speed from PTYS. Access registers address local port 1: each
 * function drives its own port.
 */
#include "common.h"

#define MLX5E_LOCAL_PORT	1
#define MLX5E_PORT_UP		1
#define MLX5E_PORT_DOWN		2
#define MLX5E_PTYS_EN		BIT(2)

static int mlx5e_query_nic_vport(struct mlx5_core_dev *mdev, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(query_nic_vport_context_in)] = {};

	MLX5_SET(query_nic_vport_context_in, in, opcode,
		 MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	return mlx5_cmd_exec_inout(mdev, query_nic_vport_context, in, out);
}

/**
 * mlx5e_query_mac() - the function's permanent MAC address
 * @mdev: the device
 * @addr: ETH_ALEN bytes, filled in
 *
 * Return: 0 or a command error.
 */
int mlx5e_query_mac(struct mlx5_core_dev *mdev, u8 *addr)
{
	u32 *out;
	u8 *mac;
	int err;

	out = kvzalloc(MLX5_ST_SZ_BYTES(query_nic_vport_context_out),
		       GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	err = mlx5e_query_nic_vport(mdev, out);
	if (!err) {
		mac = MLX5_ADDR_OF(query_nic_vport_context_out, out,
				   nic_vport_context.permanent_address);
		/* The 6-byte address ends the 8-byte field. */
		ether_addr_copy(addr, mac + 2);
	}
	kvfree(out);
	return err;
}

/**
 * mlx5e_query_min_inline() - headers the vport requires inline in a WQE
 * @mdev: the device
 * @mode: MLX5_INLINE_MODE_*, filled in
 *
 * Return: 0 or a command error.
 */
int mlx5e_query_min_inline(struct mlx5_core_dev *mdev, u8 *mode)
{
	u32 *out;
	int err;

	out = kvzalloc(MLX5_ST_SZ_BYTES(query_nic_vport_context_out),
		       GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	err = mlx5e_query_nic_vport(mdev, out);
	if (!err)
		*mode = MLX5_GET(query_nic_vport_context_out, out,
				 nic_vport_context.min_wqe_inline_mode);
	kvfree(out);
	return err;
}

static int mlx5e_reg(struct mlx5_core_dev *mdev, void *in, void *out,
		     int size, u16 reg, bool write)
{
	return mlx5_access_reg(mdev, in, size, out, size, reg, 0, write);
}

/**
 * mlx5e_port_max_mtu() - the largest frame the port takes
 * @mdev: the device
 * @hw_mtu: filled in (hardware MTU: headers and FCS included)
 *
 * Return: 0 or a command error.
 */
int mlx5e_port_max_mtu(struct mlx5_core_dev *mdev, u16 *hw_mtu)
{
	u32 in[MLX5_ST_SZ_DW(pmtu_reg)] = {};
	u32 out[MLX5_ST_SZ_DW(pmtu_reg)] = {};
	int err;

	MLX5_SET(pmtu_reg, in, local_port, MLX5E_LOCAL_PORT);
	err = mlx5e_reg(mdev, in, out, sizeof(out), MLX5E_REG_PMTU, false);
	if (!err)
		*hw_mtu = MLX5_GET(pmtu_reg, out, max_mtu);
	return err;
}

int mlx5e_port_set_mtu(struct mlx5_core_dev *mdev, u16 hw_mtu)
{
	u32 in[MLX5_ST_SZ_DW(pmtu_reg)] = {};
	u32 out[MLX5_ST_SZ_DW(pmtu_reg)] = {};

	MLX5_SET(pmtu_reg, in, local_port, MLX5E_LOCAL_PORT);
	MLX5_SET(pmtu_reg, in, admin_mtu, hw_mtu);
	return mlx5e_reg(mdev, in, out, sizeof(out), MLX5E_REG_PMTU, true);
}

int mlx5e_port_set_admin(struct mlx5_core_dev *mdev, bool up)
{
	u32 in[MLX5_ST_SZ_DW(paos_reg)] = {};
	u32 out[MLX5_ST_SZ_DW(paos_reg)] = {};

	MLX5_SET(paos_reg, in, local_port, MLX5E_LOCAL_PORT);
	MLX5_SET(paos_reg, in, admin_status, up ? MLX5E_PORT_UP : MLX5E_PORT_DOWN);
	MLX5_SET(paos_reg, in, ase, 1);
	return mlx5e_reg(mdev, in, out, sizeof(out), MLX5E_REG_PAOS, true);
}

int mlx5e_port_oper_up(struct mlx5_core_dev *mdev, bool *up)
{
	u32 in[MLX5_ST_SZ_DW(paos_reg)] = {};
	u32 out[MLX5_ST_SZ_DW(paos_reg)] = {};
	int err;

	MLX5_SET(paos_reg, in, local_port, MLX5E_LOCAL_PORT);
	err = mlx5e_reg(mdev, in, out, sizeof(out), MLX5E_REG_PAOS, false);
	if (!err)
		*up = MLX5_GET(paos_reg, out, oper_status) == MLX5E_PORT_UP;
	return err;
}

/* Legacy PTYS protocol bits and their speeds (Mb/s), highest first. */
static const struct {
	u32 mask;
	u32 mbps;
} mlx5e_ptys_speeds[] = {
	{ GENMASK(26, 23), 100000 },	/* 100GBASE-CR4/SR4/KR4/LR4 */
	{ GENMASK(30, 29) | BIT(21), 50000 },
	{ GENMASK(18, 15), 40000 },
	{ GENMASK(29, 27), 25000 },
	{ GENMASK(14, 12), 10000 },
};

/**
 * mlx5e_port_speed() - the operational speed from PTYS
 * @mdev: the device
 * @mbps: filled in (SPEED_UNKNOWN when down or unknown)
 *
 * Return: 0 or a command error.
 */
int mlx5e_port_speed(struct mlx5_core_dev *mdev, u32 *mbps)
{
	u32 in[MLX5_ST_SZ_DW(ptys_reg)] = {};
	u32 out[MLX5_ST_SZ_DW(ptys_reg)] = {};
	unsigned int i;
	u32 oper;
	int err;

	MLX5_SET(ptys_reg, in, local_port, MLX5E_LOCAL_PORT);
	MLX5_SET(ptys_reg, in, proto_mask, MLX5E_PTYS_EN);
	err = mlx5e_reg(mdev, in, out, sizeof(out), MLX5E_REG_PTYS, false);
	if (err)
		return err;
	oper = MLX5_GET(ptys_reg, out, eth_proto_oper);
	*mbps = SPEED_UNKNOWN;
	for (i = 0; i < ARRAY_SIZE(mlx5e_ptys_speeds); i++) {
		if (oper & mlx5e_ptys_speeds[i].mask) {
			*mbps = mlx5e_ptys_speeds[i].mbps;
			break;
		}
	}
	return 0;
}
