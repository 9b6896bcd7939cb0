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

/*
 * The legacy PTYS Ethernet protocol bits (the PRM's eth_proto_* fields,
 * enum mlx5e_link_mode upstream): the ethtool link mode and the speed of
 * each.
 */
static const struct {
	u8 ptys_bit;
	u8 link_mode;
	u32 mbps;
} mlx5e_ptys_modes[] = {
	{ 0, ETHTOOL_LINK_MODE_1000baseKX_Full_BIT, 1000 },	/* CX SGMII */
	{ 1, ETHTOOL_LINK_MODE_1000baseKX_Full_BIT, 1000 },
	{ 2, ETHTOOL_LINK_MODE_10000baseKX4_Full_BIT, 10000 },	/* CX4 */
	{ 3, ETHTOOL_LINK_MODE_10000baseKX4_Full_BIT, 10000 },
	{ 4, ETHTOOL_LINK_MODE_10000baseKR_Full_BIT, 10000 },
	{ 5, ETHTOOL_LINK_MODE_20000baseKR2_Full_BIT, 20000 },
	{ 6, ETHTOOL_LINK_MODE_40000baseCR4_Full_BIT, 40000 },
	{ 7, ETHTOOL_LINK_MODE_40000baseKR4_Full_BIT, 40000 },
	{ 8, ETHTOOL_LINK_MODE_56000baseKR4_Full_BIT, 56000 },
	{ 12, ETHTOOL_LINK_MODE_10000baseCR_Full_BIT, 10000 },
	{ 13, ETHTOOL_LINK_MODE_10000baseSR_Full_BIT, 10000 },
	{ 14, ETHTOOL_LINK_MODE_10000baseER_Full_BIT, 10000 },
	{ 15, ETHTOOL_LINK_MODE_40000baseSR4_Full_BIT, 40000 },
	{ 16, ETHTOOL_LINK_MODE_40000baseLR4_Full_BIT, 40000 },
	{ 18, ETHTOOL_LINK_MODE_50000baseSR2_Full_BIT, 50000 },
	{ 20, ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT, 100000 },
	{ 21, ETHTOOL_LINK_MODE_100000baseSR4_Full_BIT, 100000 },
	{ 22, ETHTOOL_LINK_MODE_100000baseKR4_Full_BIT, 100000 },
	{ 23, ETHTOOL_LINK_MODE_100000baseLR4_ER4_Full_BIT, 100000 },
	{ 24, ETHTOOL_LINK_MODE_100baseT_Full_BIT, 100 },
	{ 25, ETHTOOL_LINK_MODE_1000baseT_Full_BIT, 1000 },
	{ 26, ETHTOOL_LINK_MODE_10000baseT_Full_BIT, 10000 },
	{ 27, ETHTOOL_LINK_MODE_25000baseCR_Full_BIT, 25000 },
	{ 28, ETHTOOL_LINK_MODE_25000baseKR_Full_BIT, 25000 },
	{ 29, ETHTOOL_LINK_MODE_25000baseSR_Full_BIT, 25000 },
	{ 30, ETHTOOL_LINK_MODE_50000baseCR2_Full_BIT, 50000 },
	{ 31, ETHTOOL_LINK_MODE_50000baseKR2_Full_BIT, 50000 },
};

/**
 * mlx5e_port_ptys() - the port's Ethernet protocols from PTYS
 * @mdev: the device
 * @cap: filled in: the protocols the port can run (may be NULL)
 * @admin: filled in: those enabled (may be NULL)
 * @oper: filled in: the one running, 0 when down (may be NULL)
 *
 * Return: 0 or a command error.
 */
int mlx5e_port_ptys(struct mlx5_core_dev *mdev, u32 *cap, u32 *admin,
		    u32 *oper)
{
	u32 in[MLX5_ST_SZ_DW(ptys_reg)] = {};
	u32 out[MLX5_ST_SZ_DW(ptys_reg)] = {};
	int err;

	MLX5_SET(ptys_reg, in, local_port, MLX5E_LOCAL_PORT);
	MLX5_SET(ptys_reg, in, proto_mask, MLX5E_PTYS_EN);
	err = mlx5e_reg(mdev, in, out, sizeof(out), MLX5E_REG_PTYS, false);
	if (err)
		return err;
	if (cap)
		*cap = MLX5_GET(ptys_reg, out, eth_proto_capability);
	if (admin)
		*admin = MLX5_GET(ptys_reg, out, eth_proto_admin);
	if (oper)
		*oper = MLX5_GET(ptys_reg, out, eth_proto_oper);
	return 0;
}

/* The highest speed among the PTYS protocol bits @proto, or SPEED_UNKNOWN. */
u32 mlx5e_ptys_speed(u32 proto)
{
	u32 mbps = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mlx5e_ptys_modes); i++)
		if (proto & BIT(mlx5e_ptys_modes[i].ptys_bit))
			mbps = max(mbps, mlx5e_ptys_modes[i].mbps);
	return mbps ?: SPEED_UNKNOWN;
}

/* Set in @modes the ethtool link modes of the PTYS protocol bits @proto. */
void mlx5e_ptys_link_modes(u32 proto, unsigned long *modes)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mlx5e_ptys_modes); i++)
		if (proto & BIT(mlx5e_ptys_modes[i].ptys_bit))
			__set_bit(mlx5e_ptys_modes[i].link_mode, modes);
}

/**
 * mlx5e_port_speed() - the operational speed from PTYS
 * @mdev: the device
 * @mbps: filled in (SPEED_UNKNOWN when down or unknown)
 *
 * Return: 0 or a command error.
 */
int mlx5e_port_speed(struct mlx5_core_dev *mdev, u32 *mbps)
{
	u32 oper;
	int err;

	err = mlx5e_port_ptys(mdev, NULL, NULL, &oper);
	if (!err)
		*mbps = mlx5e_ptys_speed(oper);
	return err;
}

/**
 * mlx5e_port_slow_pci() - whether PCIe is the bottleneck (upstream's
 *	slow_pci_heuristic())
 * @mdev: the device
 *
 * The port's fastest protocol (PTYS capability) more than twice what the
 * PCIe link to the host can carry (pcie_bandwidth_available()).  Either
 * unknown: not slow.
 *
 * Return: true when PCIe is slow for the port.
 */
bool mlx5e_port_slow_pci(struct mlx5_core_dev *mdev)
{
	u32 cap, mbps, pci_bw;

	if (mlx5e_port_ptys(mdev, &cap, NULL, NULL))
		return false;
	mbps = mlx5e_ptys_speed(cap);
	if (mbps == SPEED_UNKNOWN)
		return false;
	pci_bw = pcie_bandwidth_available(mdev->pdev, NULL, NULL, NULL);
	return pci_bw && mbps > 2 * pci_bw;
}

/**
 * mlx5e_port_query_pause() - global pause from PFCC
 * @mdev: the device
 * @rx: filled in: pause frames received are honoured
 * @tx: filled in: pause frames are sent
 *
 * Return: 0 or a command error.
 */
int mlx5e_port_query_pause(struct mlx5_core_dev *mdev, u32 *rx, u32 *tx)
{
	u32 in[MLX5_ST_SZ_DW(pfcc_reg)] = {};
	u32 out[MLX5_ST_SZ_DW(pfcc_reg)] = {};
	int err;

	MLX5_SET(pfcc_reg, in, local_port, MLX5E_LOCAL_PORT);
	err = mlx5e_reg(mdev, in, out, sizeof(out), MLX5E_REG_PFCC, false);
	if (err)
		return err;
	*rx = MLX5_GET(pfcc_reg, out, pprx);
	*tx = MLX5_GET(pfcc_reg, out, pptx);
	return 0;
}

/* Global pause on or off in each direction (PFC stays off). */
int mlx5e_port_set_pause(struct mlx5_core_dev *mdev, u32 rx, u32 tx)
{
	u32 in[MLX5_ST_SZ_DW(pfcc_reg)] = {};
	u32 out[MLX5_ST_SZ_DW(pfcc_reg)] = {};

	MLX5_SET(pfcc_reg, in, local_port, MLX5E_LOCAL_PORT);
	MLX5_SET(pfcc_reg, in, pprx, rx);
	MLX5_SET(pfcc_reg, in, pptx, tx);
	return mlx5e_reg(mdev, in, out, sizeof(out), MLX5E_REG_PFCC, true);
}

/**
 * mlx5e_port_ppcnt() - one counter group of the port (PPCNT)
 * @mdev: the device
 * @grp: MLX5_*_COUNTERS_GROUP
 * @out: MLX5_ST_SZ_BYTES(ppcnt_reg) bytes, filled in; the counters are at
 *	 its counter_set
 *
 * Return: 0 or a command error.
 */
int mlx5e_port_ppcnt(struct mlx5_core_dev *mdev, u8 grp, void *out)
{
	u32 in[MLX5_ST_SZ_DW(ppcnt_reg)] = {};

	MLX5_SET(ppcnt_reg, in, local_port, MLX5E_LOCAL_PORT);
	MLX5_SET(ppcnt_reg, in, grp, grp);
	return mlx5e_reg(mdev, in, out, sizeof(in), MLX5E_REG_PPCNT, false);
}

/**
 * mlx5e_port_pause_frames() - pause frames counted by the port (PPCNT,
 * IEEE 802.3 group)
 * @mdev: the device
 * @rx: filled in: received
 * @tx: filled in: sent
 *
 * Return: 0 or a command error.
 */
int mlx5e_port_pause_frames(struct mlx5_core_dev *mdev, u64 *rx, u64 *tx)
{
	u32 out[MLX5_ST_SZ_DW(ppcnt_reg)];
	void *grp;
	int err;

	err = mlx5e_port_ppcnt(mdev, MLX5_IEEE_802_3_COUNTERS_GROUP, out);
	if (err)
		return err;
	grp = MLX5_ADDR_OF(ppcnt_reg, out, counter_set);
	*rx = MLX5_GET64(eth_802_3_cntrs_grp_data_layout, grp,
			 a_pause_mac_ctrl_frames_received_high);
	*tx = MLX5_GET64(eth_802_3_cntrs_grp_data_layout, grp,
			 a_pause_mac_ctrl_frames_transmitted_high);
	return 0;
}
