// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: port access registers (ACCESS_REG), the ones the Ethernet driver
 * reads and writes at probe, open and close:
 *
 *	PAOS	admin status (up/down) and operational status
 *	PMTU	maximum, administrative and operational port MTU
 *	PTYS	Ethernet protocols: capability, admin, operational
 *	PMLP	module lanes of the port
 *	PPCNT	port counters: IEEE 802.3, RFC 2863, RFC 2819, physical
 *		layer and its statistical group (the rest 0)
 *	PFCC	global pause and PFC
 *	PPLM	FEC: what each speed can run, the admin mode, the active one
 *	PPLR	loopback: phy local only
 *	PCAM	which of the port registers 0x5000..0x507f and which of their
 *		features the port has
 *	DTOR	default timeouts (all 0: the driver keeps its own)
 *
 * pcam_reg is 1 and PCAM lists exactly the port registers above; mcam_reg
 * and qcam_reg are 0, so the driver assumes nothing of the other optional
 * registers (PCMR, PDDR, MTPPS, ...) and of extended PTYS; those answer
 * BAD_PARAM, as hardware does for a register it does not have.  Register
 * numbers come from the driver's <linux/mlx5/driver.h>, which the model
 * does not include.
 *
 * FEC (PPLM) as a ConnectX-5 port runs it, per speed group: 10G and 40G
 * none or BASE-R (Firecode, clause 74); 25G and 50G none, BASE-R or
 * RS(528,514) (clause 91); 100G none or RS (no BASE-R FEC exists there);
 * no 56G.  An admin mode is 0 (auto: what the speed's standard picks: RS
 * at 25G and up, none below) or one mode the speed can run; anything else
 * is refused with BAD_PARAM.  A new admin mode takes effect when the link
 * next comes up (cx_vport.c), as a real link retrains: a driver toggles
 * the port (PAOS down, up) after writing PPLM.  The port reports no FEC
 * at 50G or 100G per lane (PCAM fec_50G_per_lane_in_pplm and
 * fec_100G_per_lane_in_pplm 0), so those fields read 0 and may only be
 * written 0.
 *
 * Loopback (PPLR): the port has phy local loopback (lb_cap), where what it
 * transmits comes back to its own receiver and its transmitter is off
 * (cx_tx.c).  lb_en is 0 or that one bit ("only one bit shall be set");
 * any other value, a loopback the port lacks or two at once, is refused
 * with BAD_PARAM.  As FEC, a new mode takes effect when the link next
 * comes up (apply_im, immediate, is for link layer loopback only).
 */
#include <string.h>

#include "cx_kshim.h"
#include "cx_obj.h"

#define CX_REG_PMLP		0x5002
#define CX_REG_PMTU		0x5003
#define CX_REG_PTYS		0x5004
#define CX_REG_PAOS		0x5006
#define CX_REG_PFCC		0x5007
#define CX_REG_PPCNT		0x5008
#define CX_REG_PPLR		0x5018
#define CX_REG_PPLM		0x5023
#define CX_REG_PCAM		0x507f
#define CX_REG_DTOR		0xc00e

/* The registers modelled, in the order the report counts them. */
static const struct {
	unsigned int id;
	const char *name;
} cx_regs[CX_NR_REGS] = {
	{ CX_REG_PMLP, "PMLP" }, { CX_REG_PMTU, "PMTU" },
	{ CX_REG_PTYS, "PTYS" }, { CX_REG_PAOS, "PAOS" },
	{ CX_REG_PFCC, "PFCC" }, { CX_REG_PPCNT, "PPCNT" },
	{ CX_REG_PPLM, "PPLM" }, { CX_REG_PCAM, "PCAM" },
	{ CX_REG_DTOR, "DTOR" }, { CX_REG_PPLR, "PPLR" },
};

const char *cx_reg_name(unsigned int idx)
{
	return idx < CX_NR_REGS ? cx_regs[idx].name : NULL;
}

/* Count one access of a modelled register (others are refused). */
static void cx_reg_count(struct cx_core *core, unsigned int reg, bool write)
{
	unsigned int i;

	for (i = 0; i < CX_NR_REGS; i++) {
		if (cx_regs[i].id != reg)
			continue;
		if (write)
			core->stats.reg_writes[i]++;
		else
			core->stats.reg_reads[i]++;
		return;
	}
}

#define CX_LOCAL_PORT		1
#define CX_PORT_STATUS_UP	1	/* MLX5_PORT_UP */
#define CX_PORT_STATUS_DOWN	2	/* MLX5_PORT_DOWN */
#define CX_PTYS_EN		(1u << 2)	/* MLX5_PTYS_EN */
#define CX_PORT_MAX_MTU		9978
#define CX_PORT_MIN_MTU		68
#define CX_PPCNT_MAX_GRP	0x3f

/* Legacy PTYS Ethernet protocols (enum mlx5e_link_mode): 10/25/40/50/100G copper. */
#define CX_PROTO_BIT(n)		(1u << (n))
#define CX_PROTO_100G		CX_PROTO_BIT(20)	/* 100GBASE_CR4 */
#define CX_ETH_PROTO_CAP	(CX_PROTO_BIT(12) | CX_PROTO_BIT(6) | \
				 CX_PROTO_BIT(27) | CX_PROTO_BIT(30) | \
				 CX_PROTO_100G)
#define CX_CONNECTOR_DA		2	/* direct attach copper */
#define CX_DATA_RATE_100G	1000	/* data_rate_oper in units of 100 Mb/s */

/* FEC each speed group can run (PPLM fec_override_cap_*). */
static const uint16_t cx_fec_cap[CX_FEC_SPEEDS] = {
	[CX_FEC_10G_40G]	= CX_FEC_NONE | CX_FEC_FC,
	[CX_FEC_25G]		= CX_FEC_NONE | CX_FEC_FC | CX_FEC_RS,
	[CX_FEC_50G]		= CX_FEC_NONE | CX_FEC_FC | CX_FEC_RS,
	[CX_FEC_100G]		= CX_FEC_NONE | CX_FEC_RS,
};

/* What auto (admin 0) runs at each speed. */
static const uint16_t cx_fec_auto[CX_FEC_SPEEDS] = {
	[CX_FEC_10G_40G]	= CX_FEC_NONE,
	[CX_FEC_25G]		= CX_FEC_RS,
	[CX_FEC_50G]		= CX_FEC_RS,
	[CX_FEC_56G]		= CX_FEC_NONE,
	[CX_FEC_100G]		= CX_FEC_RS,
};

/* The largest register the model answers, in bytes. */
#define CX_REG_MAX		MLX5_ST_SZ_BYTES(ppcnt_reg)

static uint8_t cx_reg_paos(struct cx_cmd *cmd, bool write, const void *in,
			   void *out)
{
	struct cx_port *p = &cmd->core->func.nic->port;

	if (write) {
		uint32_t st = MLX5_GET(paos_reg, in, admin_status);

		if (MLX5_GET(paos_reg, in, ase)) {
			if (st != CX_PORT_STATUS_UP && st != CX_PORT_STATUS_DOWN)
				return CX_BAD_PARAM(cmd, "PAOS admin_status %u", st);
			p->admin_up = st == CX_PORT_STATUS_UP;
		}
		if (MLX5_GET(paos_reg, in, ee))
			p->ee_event = MLX5_GET(paos_reg, in, e);
		cx_port_update(cmd->core);
	}
	MLX5_SET(paos_reg, out, local_port, CX_LOCAL_PORT);
	MLX5_SET(paos_reg, out, admin_status,
		 p->admin_up ? CX_PORT_STATUS_UP : CX_PORT_STATUS_DOWN);
	MLX5_SET(paos_reg, out, oper_status,
		 p->oper_up ? CX_PORT_STATUS_UP : CX_PORT_STATUS_DOWN);
	MLX5_SET(paos_reg, out, e, p->ee_event);
	return MLX5_CMD_STAT_OK;
}

static uint8_t cx_reg_pmtu(struct cx_cmd *cmd, bool write, const void *in,
			   void *out)
{
	struct cx_port *p = &cmd->core->func.nic->port;

	if (write) {
		uint32_t mtu = MLX5_GET(pmtu_reg, in, admin_mtu);

		if (mtu < CX_PORT_MIN_MTU || mtu > CX_PORT_MAX_MTU)
			return CX_BAD_PARAM(cmd, "PMTU admin_mtu %u", mtu);
		p->admin_mtu = p->oper_mtu = mtu;
	}
	MLX5_SET(pmtu_reg, out, local_port, CX_LOCAL_PORT);
	MLX5_SET(pmtu_reg, out, max_mtu, CX_PORT_MAX_MTU);
	MLX5_SET(pmtu_reg, out, admin_mtu, p->admin_mtu);
	MLX5_SET(pmtu_reg, out, oper_mtu, p->oper_mtu);
	return MLX5_CMD_STAT_OK;
}

/* The PTYS protocol the link runs, 0 when it is down. */
static uint32_t cx_port_oper_proto(const struct cx_port *p)
{
	uint32_t admin = p->eth_proto_admin ? p->eth_proto_admin :
					      CX_ETH_PROTO_CAP;

	if (!p->oper_up)
		return 0;
	return admin & CX_PROTO_100G ? CX_PROTO_100G : admin & -admin;
}

static uint8_t cx_reg_ptys(struct cx_cmd *cmd, bool write, const void *in,
			   void *out)
{
	struct cx_port *p = &cmd->core->func.nic->port;
	uint32_t mask = MLX5_GET(ptys_reg, in, proto_mask);

	if (mask != CX_PTYS_EN)
		return CX_BAD_PARAM(cmd, "PTYS proto_mask 0x%x (Ethernet only)",
				    mask);
	if (write) {
		uint32_t admin = MLX5_GET(ptys_reg, in, eth_proto_admin);

		if (MLX5_GET(ptys_reg, in, ext_eth_proto_admin))
			return CX_BAD_PARAM(cmd, "extended PTYS not announced");
		if (!admin || (admin & ~CX_ETH_PROTO_CAP))
			return CX_BAD_PARAM(cmd, "PTYS eth_proto_admin 0x%x",
					    admin);
		p->eth_proto_admin = admin;
	}
	if (!p->eth_proto_admin)
		p->eth_proto_admin = CX_ETH_PROTO_CAP;
	MLX5_SET(ptys_reg, out, local_port, CX_LOCAL_PORT);
	MLX5_SET(ptys_reg, out, proto_mask, CX_PTYS_EN);
	MLX5_SET(ptys_reg, out, an_disable_cap, 1);
	MLX5_SET(ptys_reg, out, eth_proto_capability, CX_ETH_PROTO_CAP);
	MLX5_SET(ptys_reg, out, eth_proto_admin, p->eth_proto_admin);
	MLX5_SET(ptys_reg, out, connector_type, CX_CONNECTOR_DA);
	if (p->oper_up) {
		uint32_t oper = cx_port_oper_proto(p);

		MLX5_SET(ptys_reg, out, eth_proto_oper, oper);
		MLX5_SET(ptys_reg, out, eth_proto_lp_advertise, CX_ETH_PROTO_CAP);
		if (oper == CX_PROTO_100G)
			MLX5_SET(ptys_reg, out, data_rate_oper,
				 CX_DATA_RATE_100G);
	}
	return MLX5_CMD_STAT_OK;
}

/* Lane N of module 0: its TX lane and RX lane are N. */
#define CX_PMLP_LANE(n)	((uint32_t)(n) << 16 | (uint32_t)(n) << 8)

static uint8_t cx_reg_pmlp(struct cx_cmd *cmd, bool write, void *out)
{
	if (write)
		return CX_BAD_PARAM(cmd, "PMLP is read-only here (no port split)");
	MLX5_SET(pmlp_reg, out, local_port, CX_LOCAL_PORT);
	MLX5_SET(pmlp_reg, out, width, 4);
	MLX5_SET(pmlp_reg, out, lane0_module_mapping, CX_PMLP_LANE(0));
	MLX5_SET(pmlp_reg, out, lane1_module_mapping, CX_PMLP_LANE(1));
	MLX5_SET(pmlp_reg, out, lane2_module_mapping, CX_PMLP_LANE(2));
	MLX5_SET(pmlp_reg, out, lane3_module_mapping, CX_PMLP_LANE(3));
	return MLX5_CMD_STAT_OK;
}

/* A 64-bit PPCNT counter: its _high and _low halves. */
#define CX_CTR(layout, set, name, v) do {				\
	uint64_t v_ = (v);						\
	MLX5_SET(layout, set, name##_high, (uint32_t)(v_ >> 32));	\
	MLX5_SET(layout, set, name##_low, (uint32_t)v_);		\
} while (0)

static void cx_ppcnt_802_3(const struct cx_port *p, void *set)
{
#define C(name, v) CX_CTR(eth_802_3_cntrs_grp_data_layout, set, name, v)
	C(a_frames_transmitted_ok, p->tx.frames);
	C(a_frames_received_ok, p->rx.frames);
	C(a_octets_transmitted_ok, p->tx.octets);
	C(a_octets_received_ok, p->rx.octets);
	C(a_multicast_frames_xmitted_ok, p->tx.mcast);
	C(a_broadcast_frames_xmitted_ok, p->tx.bcast);
	C(a_multicast_frames_received_ok, p->rx.mcast);
	C(a_broadcast_frames_received_ok, p->rx.bcast);
	C(a_frame_too_long_errors, p->rx_oversize);
	C(a_mac_control_frames_transmitted, p->tx_pause_frames);
	C(a_mac_control_frames_received, p->rx_pause_frames);
	C(a_pause_mac_ctrl_frames_transmitted, p->tx_pause_frames);
	C(a_pause_mac_ctrl_frames_received, p->rx_pause_frames);
#undef C
}

static void cx_ppcnt_2863(const struct cx_port *p, void *set)
{
#define C(name, v) CX_CTR(eth_2863_cntrs_grp_data_layout, set, name, v)
	C(if_in_octets, p->rx.octets);
	C(if_in_ucast_pkts, p->rx.ucast);
	C(if_in_errors, p->rx_oversize);
	C(if_out_octets, p->tx.octets);
	C(if_out_ucast_pkts, p->tx.ucast);
	C(if_out_errors, p->tx_oversize);
	C(if_in_multicast_pkts, p->rx.mcast);
	C(if_in_broadcast_pkts, p->rx.bcast);
	C(if_out_multicast_pkts, p->tx.mcast);
	C(if_out_broadcast_pkts, p->tx.bcast);
#undef C
}

/* RFC 2819 (RMON etherStats) counts what the port received. */
static void cx_ppcnt_2819(const struct cx_port *p, void *set)
{
	const uint64_t *h = p->rx.hist;

#define C(name, v) CX_CTR(eth_2819_cntrs_grp_data_layout, set, name, v)
	C(ether_stats_octets, p->rx.octets);
	C(ether_stats_pkts, p->rx.frames);
	C(ether_stats_broadcast_pkts, p->rx.bcast);
	C(ether_stats_multicast_pkts, p->rx.mcast);
	C(ether_stats_oversize_pkts, p->rx_oversize);
	C(ether_stats_pkts64octets, h[0]);
	C(ether_stats_pkts65to127octets, h[1]);
	C(ether_stats_pkts128to255octets, h[2]);
	C(ether_stats_pkts256to511octets, h[3]);
	C(ether_stats_pkts512to1023octets, h[4]);
	C(ether_stats_pkts1024to1518octets, h[5]);
	C(ether_stats_pkts1519to2047octets, h[6]);
	C(ether_stats_pkts2048to4095octets, h[7]);
	C(ether_stats_pkts4096to8191octets, h[8]);
	C(ether_stats_pkts8192to10239octets, h[9]);
#undef C
}

/*
 * Physical layer: link down events and the FEC decoder's blocks, BASE-R
 * per lane, RS over the port (cx_port_fec_blocks()).
 */
static void cx_ppcnt_phys(const struct cx_port *p, void *set)
{
#define C(name, v) CX_CTR(phys_layer_cntrs, set, name, v)
	C(fc_fec_corrected_blocks_lane0, p->fc_corrected[0]);
	C(fc_fec_corrected_blocks_lane1, p->fc_corrected[1]);
	C(fc_fec_corrected_blocks_lane2, p->fc_corrected[2]);
	C(fc_fec_corrected_blocks_lane3, p->fc_corrected[3]);
	C(fc_fec_uncorrectable_blocks_lane0, p->fc_uncorrectable[0]);
	C(fc_fec_uncorrectable_blocks_lane1, p->fc_uncorrectable[1]);
	C(fc_fec_uncorrectable_blocks_lane2, p->fc_uncorrectable[2]);
	C(fc_fec_uncorrectable_blocks_lane3, p->fc_uncorrectable[3]);
	C(rs_fec_corrected_blocks, p->rs_corrected);
	C(rs_fec_uncorrectable_blocks, p->rs_uncorrectable);
	/* One symbol a corrected block, all of them on lane 0's count. */
	C(rs_fec_corrected_symbols_total, p->rs_corrected);
#undef C
	MLX5_SET(phys_layer_cntrs, set, link_down_events,
		 (uint32_t)p->link_down_events);
}

/*
 * Counters of what crossed the port's wire (struct cx_port_wire, counted
 * in cx_tx.c and cx_rx.c): IEEE 802.3, RFC 2863 and RFC 2819.  The wire
 * never corrupts a frame, so the error counters (FCS, alignment, symbol,
 * length, undersize, fragments, jabbers, collisions) stay 0, as do drops
 * inside the port; frames over the MTU are the errors it counts.  The
 * physical layer groups count FEC blocks and link down events; the
 * statistical group only the bits FEC corrected (received bits, symbol
 * errors and the BER read 0).  Other groups (per priority, ...) read 0.
 */
static uint8_t cx_reg_ppcnt(struct cx_cmd *cmd, bool write, const void *in,
			    void *out)
{
	uint32_t grp = MLX5_GET(ppcnt_reg, in, grp);

	if (grp > CX_PPCNT_MAX_GRP || MLX5_GET(ppcnt_reg, in, pnat))
		return CX_BAD_PARAM(cmd, "PPCNT grp 0x%x pnat %u", grp,
				    MLX5_GET(ppcnt_reg, in, pnat));
	struct cx_port *p = &cmd->core->func.nic->port;
	void *set = MLX5_ADDR_OF(ppcnt_reg, out, counter_set);

	/* Writing only clears (clr), which no driver asks; not modelled. */
	(void)write;
	MLX5_SET(ppcnt_reg, out, local_port, CX_LOCAL_PORT);
	MLX5_SET(ppcnt_reg, out, grp, grp);
	MLX5_SET(ppcnt_reg, out, prio_tc, MLX5_GET(ppcnt_reg, in, prio_tc));
	switch (grp) {
	case MLX5_IEEE_802_3_COUNTERS_GROUP:
		cx_ppcnt_802_3(p, set);
		break;
	case MLX5_RFC_2863_COUNTERS_GROUP:
		cx_ppcnt_2863(p, set);
		break;
	case MLX5_RFC_2819_COUNTERS_GROUP:
		cx_ppcnt_2819(p, set);
		break;
	case MLX5_PHYSICAL_LAYER_COUNTERS_GROUP:
		cx_ppcnt_phys(p, set);
		break;
	case MLX5_PHYSICAL_LAYER_STATISTICAL_GROUP:
		CX_CTR(phys_layer_statistical_cntrs, set, phy_corrected_bits,
		       p->fec_corrected_bits);
		break;
	default:
		break;
	}
	return MLX5_CMD_STAT_OK;
}

static uint8_t cx_reg_pfcc(struct cx_cmd *cmd, bool write, const void *in,
			   void *out)
{
	struct cx_port *p = &cmd->core->func.nic->port;

	if (write) {
		/* PFC needs the qos capability, not announced. */
		if (MLX5_GET(pfcc_reg, in, pfctx) || MLX5_GET(pfcc_reg, in, pfcrx))
			return CX_BAD_PARAM(cmd, "PFC not announced");
		p->pptx = MLX5_GET(pfcc_reg, in, pptx);
		p->pprx = MLX5_GET(pfcc_reg, in, pprx);
	}
	MLX5_SET(pfcc_reg, out, local_port, CX_LOCAL_PORT);
	MLX5_SET(pfcc_reg, out, pptx, p->pptx);
	MLX5_SET(pfcc_reg, out, pprx, p->pprx);
	return MLX5_CMD_STAT_OK;
}

/* The PPLM speed group the link runs at, CX_FEC_SPEEDS when down. */
static enum cx_fec_speed cx_fec_speed_of(uint32_t proto)
{
	if (proto & CX_PROTO_100G)
		return CX_FEC_100G;
	if (proto & CX_PROTO_BIT(30))		/* 50GBASE-CR2 */
		return CX_FEC_50G;
	if (proto & CX_PROTO_BIT(27))		/* 25GBASE-CR */
		return CX_FEC_25G;
	if (proto & (CX_PROTO_BIT(12) | CX_PROTO_BIT(6)))	/* 10G, 40G */
		return CX_FEC_10G_40G;
	return CX_FEC_SPEEDS;
}

uint16_t cx_port_fec_active(const struct cx_port *p)
{
	enum cx_fec_speed s = cx_fec_speed_of(cx_port_oper_proto(p));

	if (s == CX_FEC_SPEEDS)
		return 0;
	return p->fec_link[s] ? p->fec_link[s] : cx_fec_auto[s];
}

void cx_port_fec_blocks(struct cx_core *core, bool uncorrectable, uint32_t n)
{
	struct cx_port *p = &core->func.nic->port;
	uint64_t *lanes = uncorrectable ? p->fc_uncorrectable : p->fc_corrected;
	unsigned int i;

	switch (cx_port_fec_active(p)) {
	case CX_FEC_FC:
		/* Spread over the lanes, lane 0 first. */
		for (i = 0; i < CX_PORT_LANES; i++)
			lanes[i] += n / CX_PORT_LANES + (i < n % CX_PORT_LANES);
		break;
	case CX_FEC_RS:
		if (uncorrectable)
			p->rs_uncorrectable += n;
		else
			p->rs_corrected += n;
		break;
	default:
		p->fec_uncounted += n;
		return;
	}
	if (!uncorrectable)
		p->fec_corrected_bits += n;
}

/* The legacy per-speed fields of PPLM, by speed group. */
static void cx_pplm_put(void *out, enum cx_fec_speed s, uint16_t cap,
			uint16_t admin)
{
#define F(speed) do {							\
	MLX5_SET(pplm_reg, out, fec_override_cap_##speed, cap);		\
	MLX5_SET(pplm_reg, out, fec_override_admin_##speed, admin);	\
} while (0)
	switch (s) {
	case CX_FEC_10G_40G:
		F(10g_40g);
		break;
	case CX_FEC_25G:
		F(25g);
		break;
	case CX_FEC_50G:
		F(50g);
		break;
	case CX_FEC_56G:
		F(56g);
		break;
	case CX_FEC_100G:
		F(100g);
		break;
	default:
		break;
	}
#undef F
}

static uint16_t cx_pplm_admin(const void *in, enum cx_fec_speed s)
{
	switch (s) {
	case CX_FEC_10G_40G:
		return MLX5_GET(pplm_reg, in, fec_override_admin_10g_40g);
	case CX_FEC_25G:
		return MLX5_GET(pplm_reg, in, fec_override_admin_25g);
	case CX_FEC_50G:
		return MLX5_GET(pplm_reg, in, fec_override_admin_50g);
	case CX_FEC_56G:
		return MLX5_GET(pplm_reg, in, fec_override_admin_56g);
	case CX_FEC_100G:
		return MLX5_GET(pplm_reg, in, fec_override_admin_100g);
	default:
		return 0;
	}
}

/* FEC per lane at 50G and 100G a lane: not on this port, 0 only. */
static bool cx_pplm_per_lane_admin(const void *in)
{
	return MLX5_GET(pplm_reg, in, fec_override_admin_50g_1x) ||
	       MLX5_GET(pplm_reg, in, fec_override_admin_100g_2x) ||
	       MLX5_GET(pplm_reg, in, fec_override_admin_200g_4x) ||
	       MLX5_GET(pplm_reg, in, fec_override_admin_400g_8x) ||
	       MLX5_GET(pplm_reg, in, fec_override_admin_100g_1x) ||
	       MLX5_GET(pplm_reg, in, fec_override_admin_200g_2x) ||
	       MLX5_GET(pplm_reg, in, fec_override_admin_400g_4x) ||
	       MLX5_GET(pplm_reg, in, fec_override_admin_800g_8x) ||
	       MLX5_GET(pplm_reg, in, rs_fec_correction_bypass_admin);
}

static uint8_t cx_reg_pplm(struct cx_cmd *cmd, bool write, const void *in,
			   void *out)
{
	struct cx_port *p = &cmd->core->func.nic->port;
	uint16_t admin[CX_FEC_SPEEDS];
	unsigned int s;

	if (write) {
		if (cx_pplm_per_lane_admin(in))
			return CX_BAD_PARAM(cmd,
					    "PPLM: FEC per 50G/100G lane or RS bypass not announced");
		for (s = 0; s < CX_FEC_SPEEDS; s++) {
			admin[s] = cx_pplm_admin(in, s);
			if ((admin[s] & (admin[s] - 1)) ||
			    (admin[s] & ~cx_fec_cap[s]))
				return CX_BAD_PARAM(cmd,
						    "PPLM: FEC admin 0x%x of speed group %u (cap 0x%x)",
						    admin[s], s, cx_fec_cap[s]);
		}
		memcpy(p->fec_admin, admin, sizeof(p->fec_admin));
	}
	MLX5_SET(pplm_reg, out, local_port, CX_LOCAL_PORT);
	MLX5_SET(pplm_reg, out, fec_mode_active, cx_port_fec_active(p));
	for (s = 0; s < CX_FEC_SPEEDS; s++)
		cx_pplm_put(out, s, cx_fec_cap[s], p->fec_admin[s]);
	return MLX5_CMD_STAT_OK;
}

/* The loopbacks this port has. */
#define CX_PPLR_LB_CAP		CX_PPLR_LB_PHY_LOCAL

static uint8_t cx_reg_pplr(struct cx_cmd *cmd, bool write, const void *in,
			   void *out)
{
	struct cx_port *p = &cmd->core->func.nic->port;

	if (write) {
		uint32_t lb = MLX5_GET(pplr_reg, in, lb_en);

		if (lb & ~CX_PPLR_LB_CAP)
			return CX_BAD_PARAM(cmd, "PPLR lb_en 0x%x (lb_cap 0x%x)",
					    lb, CX_PPLR_LB_CAP);
		p->lb_admin = (uint8_t)lb;
	}
	MLX5_SET(pplr_reg, out, local_port, CX_LOCAL_PORT);
	MLX5_SET(pplr_reg, out, lb_cap, CX_PPLR_LB_CAP);
	MLX5_SET(pplr_reg, out, lb_en, p->lb_admin);
	return MLX5_CMD_STAT_OK;
}

/*
 * PCAM: the port registers this port has (bit N: register 0x5000 + N) and
 * the features it announces: PPCNT's statistical group, nothing else.
 */
static uint8_t cx_reg_pcam(struct cx_cmd *cmd, bool write, const void *in,
			   void *out)
{
	void *regs = MLX5_ADDR_OF(pcam_reg, out,
				  port_access_reg_cap_mask.regs_5000_to_507f);
	void *feat = MLX5_ADDR_OF(pcam_reg, out,
				  feature_cap_mask.enhanced_features);

	if (write)
		return CX_BAD_PARAM(cmd, "PCAM is read-only");
	if (MLX5_GET(pcam_reg, in, feature_group) ||
	    MLX5_GET(pcam_reg, in, access_reg_group))
		return CX_BAD_PARAM(cmd, "PCAM feature group %u, register group %u",
				    MLX5_GET(pcam_reg, in, feature_group),
				    MLX5_GET(pcam_reg, in, access_reg_group));
	/*
	 * 0x507f (PCAM itself) is bit 127; 0x5002..0x5007 bits 2..7;
	 * PPLR (0x5018) bit 24.
	 */
	MLX5_SET(pcam_regs_5000_to_507f, regs, port_access_reg_cap_mask_127_to_96,
		 1u << 31);
	MLX5_SET(pcam_regs_5000_to_507f, regs, port_access_reg_cap_mask_07_to_00,
		 (1u << (CX_REG_PMLP & 0x7f)) | (1u << (CX_REG_PMTU & 0x7f)) |
		 (1u << (CX_REG_PTYS & 0x7f)) | (1u << (CX_REG_PAOS & 0x7f)) |
		 (1u << (CX_REG_PFCC & 0x7f)));
	MLX5_SET(pcam_regs_5000_to_507f, regs, port_access_reg_cap_mask_31_to_13,
		 1u << ((CX_REG_PPLR & 0x7f) - 13));
	MLX5_SET(pcam_regs_5000_to_507f, regs, ppcnt, 1);
	MLX5_SET(pcam_regs_5000_to_507f, regs, pplm, 1);
	MLX5_SET(pcam_enhanced_features, feat, ppcnt_statistical_group, 1);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_reg_access(struct cx_cmd *cmd, unsigned int reg, bool write,
		      const uint8_t *data_in, size_t in_len, uint8_t *data_out,
		      size_t out_len)
{
	uint8_t in[CX_REG_MAX], out[CX_REG_MAX];
	uint8_t st;

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	memcpy(in, data_in, in_len < sizeof(in) ? in_len : sizeof(in));
	cx_reg_count(cmd->core, reg, write);

	switch (reg) {
	case CX_REG_PAOS:
	case CX_REG_PMTU:
	case CX_REG_PMLP:
	case CX_REG_PPCNT:
	case CX_REG_PFCC:
	case CX_REG_PTYS:
	case CX_REG_PPLM:
	case CX_REG_PPLR:
		/* Every one of these starts with local_port at bits 8..15. */
		if (cx_bits_get(in, 8, 8) != CX_LOCAL_PORT)
			return CX_BAD_PARAM(cmd, "register 0x%x of local port %u",
					    reg, cx_bits_get(in, 8, 8));
		break;
	default:
		break;
	}
	switch (reg) {
	case CX_REG_PAOS:
		st = cx_reg_paos(cmd, write, in, out);
		break;
	case CX_REG_PMTU:
		st = cx_reg_pmtu(cmd, write, in, out);
		break;
	case CX_REG_PTYS:
		st = cx_reg_ptys(cmd, write, in, out);
		break;
	case CX_REG_PMLP:
		st = cx_reg_pmlp(cmd, write, out);
		break;
	case CX_REG_PPCNT:
		st = cx_reg_ppcnt(cmd, write, in, out);
		break;
	case CX_REG_PFCC:
		st = cx_reg_pfcc(cmd, write, in, out);
		break;
	case CX_REG_PPLM:
		st = cx_reg_pplm(cmd, write, in, out);
		break;
	case CX_REG_PPLR:
		st = cx_reg_pplr(cmd, write, in, out);
		break;
	case CX_REG_PCAM:
		st = cx_reg_pcam(cmd, write, in, out);
		break;
	case CX_REG_DTOR:
		/*
		 * Default timeouts: every field 0, "use the driver's own",
		 * which the driver reads as no override (lib/tout.c).
		 */
		if (write)
			return CX_BAD_PARAM(cmd, "DTOR is read-only");
		st = MLX5_CMD_STAT_OK;
		break;
	default:
		return CX_BAD_PARAM(cmd, "register 0x%x not modelled", reg);
	}
	if (st == MLX5_CMD_STAT_OK)
		memcpy(data_out, out, out_len < sizeof(out) ? out_len : sizeof(out));
	return st;
}
