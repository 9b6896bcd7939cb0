// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port and the NIC vport as the netdev sees them: the permanent MAC
 * and minimum inline mode from the NIC vport context; the MTU from PMTU
 * (maximum, administrative), the administrative and operational state from
 * PAOS, the speed from PTYS, FEC from PPLM, the lanes from PMLP, phy local
 * loopback from PPLR. Access
 * registers address local port 1: each function drives its own port.
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

/**
 * mlx5e_port_retrain() - take the link down and up again (PAOS), so that
 * it trains with what was just asked of the port (FEC, loopback)
 * @mdev: the device
 *
 * Return: 0 or a command error.
 */
int mlx5e_port_retrain(struct mlx5_core_dev *mdev)
{
	int err;

	err = mlx5e_port_set_admin(mdev, false);
	if (!err)
		err = mlx5e_port_set_admin(mdev, true);
	return err;
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

/*
 * FEC (PPLM), per speed group: what the port can run (cap) and what is
 * asked (admin: 0 auto, else one MLX5E_FEC_* bit).  The groups of speeds
 * up to 25G a lane, all a ConnectX-5 has; PPLM's groups of 50G and 100G
 * lanes (PCAM fec_50G_per_lane_in_pplm, fec_100G_per_lane_in_pplm) are
 * left as the device has them.  Each field is 4 bits wide.
 */
#define MLX5E_PPLM_SPEED(s) {						\
	__mlx5_bit_off(pplm_reg, fec_override_cap_##s),			\
	__mlx5_bit_off(pplm_reg, fec_override_admin_##s),		\
}

static const struct {
	u16 cap;
	u16 admin;
} mlx5e_pplm_speeds[] = {
	MLX5E_PPLM_SPEED(10g_40g),
	MLX5E_PPLM_SPEED(25g),
	MLX5E_PPLM_SPEED(50g),
	MLX5E_PPLM_SPEED(56g),
	MLX5E_PPLM_SPEED(100g),
};

/* The 4-bit field of @pplm at bit offset @off, as MLX5_GET() reads one. */
static u16 mlx5e_pplm_get(const u32 *pplm, unsigned int off)
{
	const __be32 *dw = (const __be32 *)pplm + off / 32;

	return (be32_to_cpu(*dw) >> (28 - off % 32)) & 0xf;
}

static void mlx5e_pplm_set(u32 *pplm, unsigned int off, u16 val)
{
	__be32 *dw = (__be32 *)pplm + off / 32;
	unsigned int shift = 28 - off % 32;

	*dw = cpu_to_be32((be32_to_cpu(*dw) & ~(0xfU << shift)) |
			  (val & 0xf) << shift);
}

/**
 * mlx5e_port_fec_supported() - the port reports FEC (PCAM lists PPLM)
 * @mdev: the device
 *
 * Return: true when PPLM may be read and written.
 */
bool mlx5e_port_fec_supported(struct mlx5_core_dev *mdev)
{
	return MLX5_CAP_GEN(mdev, pcam_reg) && MLX5_CAP_PCAM_REG(mdev, pplm);
}

static int mlx5e_port_pplm(struct mlx5_core_dev *mdev, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(pplm_reg)] = {};

	if (!mlx5e_port_fec_supported(mdev))
		return -EOPNOTSUPP;
	MLX5_SET(pplm_reg, in, local_port, MLX5E_LOCAL_PORT);
	return mlx5e_reg(mdev, in, out, sizeof(in), MLX5E_REG_PPLM, false);
}

/**
 * mlx5e_port_fec() - the port's FEC modes (PPLM)
 * @mdev: the device
 * @caps: filled in: the MLX5E_FEC_* modes some speed can run (may be NULL)
 * @admin: filled in: the mode asked, 0 for auto (may be NULL); the first
 *	speed group not on auto tells it, since mlx5e_port_set_fec() asks
 *	one mode of every group that can run it
 * @active: filled in: the mode the link runs, 0 when down (may be NULL)
 *
 * Return: 0, -EOPNOTSUPP when the port does not report FEC, or a command
 * error.
 */
int mlx5e_port_fec(struct mlx5_core_dev *mdev, u16 *caps, u16 *admin,
		   u16 *active)
{
	u32 pplm[MLX5_ST_SZ_DW(pplm_reg)] = {};
	unsigned int i;
	u16 c = 0, a = 0;
	int err;

	err = mlx5e_port_pplm(mdev, pplm);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(mlx5e_pplm_speeds); i++) {
		c |= mlx5e_pplm_get(pplm, mlx5e_pplm_speeds[i].cap);
		if (!a)
			a = mlx5e_pplm_get(pplm, mlx5e_pplm_speeds[i].admin);
	}
	if (caps)
		*caps = c;
	if (admin)
		*admin = a;
	if (active)
		*active = MLX5_GET(pplm_reg, pplm, fec_mode_active);
	return 0;
}

/**
 * mlx5e_port_set_fec() - ask for one FEC mode (PPLM)
 * @mdev: the device
 * @mode: one MLX5E_FEC_* bit, or 0 for auto
 *
 * Every speed group that can run @mode is asked for it, the others for
 * auto, as upstream does.  The link runs the new mode once it trains
 * again.
 *
 * Return: 0, -EOPNOTSUPP when no speed can run @mode (or the port does
 * not report FEC), or a command error.
 */
int mlx5e_port_set_fec(struct mlx5_core_dev *mdev, u16 mode)
{
	u32 pplm[MLX5_ST_SZ_DW(pplm_reg)] = {};
	u32 out[MLX5_ST_SZ_DW(pplm_reg)] = {};
	bool taken = false;
	unsigned int i;
	int err;

	err = mlx5e_port_pplm(mdev, pplm);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(mlx5e_pplm_speeds); i++) {
		u16 cap = mlx5e_pplm_get(pplm, mlx5e_pplm_speeds[i].cap);
		u16 v = cap & mode ? mode : 0;

		if (v)
			taken = true;
		mlx5e_pplm_set(pplm, mlx5e_pplm_speeds[i].admin, v);
	}
	if (mode && !taken)
		return -EOPNOTSUPP;
	MLX5_SET(pplm_reg, pplm, local_port, MLX5E_LOCAL_PORT);
	return mlx5e_reg(mdev, pplm, out, sizeof(out), MLX5E_REG_PPLM, true);
}

/**
 * mlx5e_port_lanes() - the lanes of the port's module (PMLP width)
 * @mdev: the device
 * @lanes: filled in
 *
 * Return: 0 or a command error.
 */
int mlx5e_port_lanes(struct mlx5_core_dev *mdev, u8 *lanes)
{
	u32 in[MLX5_ST_SZ_DW(pmlp_reg)] = {};
	u32 out[MLX5_ST_SZ_DW(pmlp_reg)] = {};
	int err;

	MLX5_SET(pmlp_reg, in, local_port, MLX5E_LOCAL_PORT);
	err = mlx5e_reg(mdev, in, out, sizeof(out), MLX5E_REG_PMLP, false);
	if (!err)
		*lanes = MLX5_GET(pmlp_reg, out, width);
	return err;
}

/* PPLR lb_cap and lb_en: the port's transmitter looped to its receiver. */
#define MLX5E_PPLR_PHY_LOCAL	BIT(1)
/* PCAM's bit of a port register 0x5000 + n, n in 13..31. */
#define MLX5E_PCAM_REG_31_13(reg)	BIT(((reg) & 0x7f) - 13)

static int mlx5e_port_pplr(struct mlx5_core_dev *mdev, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(pplr_reg)] = {};

	MLX5_SET(pplr_reg, in, local_port, MLX5E_LOCAL_PORT);
	return mlx5e_reg(mdev, in, out, sizeof(in), MLX5E_REG_PPLR, false);
}

/**
 * mlx5e_port_loopback_supported() - the port has phy local loopback
 * @mdev: the device
 *
 * PCAM lists PPLR and PPLR's lb_cap has phy local loopback, where what
 * the port transmits comes back to its own receiver (NETIF_F_LOOPBACK).
 *
 * Return: true when mlx5e_port_set_loopback() may be called.
 */
bool mlx5e_port_loopback_supported(struct mlx5_core_dev *mdev)
{
	u32 out[MLX5_ST_SZ_DW(pplr_reg)] = {};

	if (!MLX5_CAP_GEN(mdev, pcam_reg) ||
	    !(MLX5_CAP_PCAM_REG(mdev, port_access_reg_cap_mask_31_to_13) &
	      MLX5E_PCAM_REG_31_13(MLX5E_REG_PPLR)))
		return false;
	return !mlx5e_port_pplr(mdev, out) &&
	       (MLX5_GET(pplr_reg, out, lb_cap) & MLX5E_PPLR_PHY_LOCAL);
}

/**
 * mlx5e_port_set_loopback() - phy local loopback on or off (PPLR)
 * @mdev: the device
 * @on: loop the port's transmitter back to its receiver
 *
 * The link runs the new mode once it trains again (PAOS down, up), as
 * with FEC; a function reset turns it off.
 *
 * Return: 0 or a command error.
 */
int mlx5e_port_set_loopback(struct mlx5_core_dev *mdev, bool on)
{
	u32 in[MLX5_ST_SZ_DW(pplr_reg)] = {};
	u32 out[MLX5_ST_SZ_DW(pplr_reg)] = {};

	MLX5_SET(pplr_reg, in, local_port, MLX5E_LOCAL_PORT);
	MLX5_SET(pplr_reg, in, lb_en, on ? MLX5E_PPLR_PHY_LOCAL : 0);
	return mlx5e_reg(mdev, in, out, sizeof(out), MLX5E_REG_PPLR, true);
}
