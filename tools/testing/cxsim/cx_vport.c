// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: the function's vport (NIC vport context: permanent MAC, MTU,
 * promiscuous modes, UC/MC/VLAN address lists; vport state; vport
 * counters) and the physical port's link state.
 *
 * The link is up when the port is administratively up (PAOS, cx_reg.c),
 * the cable is in (the test port's LINK_DOWN is 0) and the function is
 * initialised.  Every change of that posts a PORT_CHANGE event (subtype
 * ACTIVE or DOWN) on the EQ subscribed to it; the driver then reads the
 * vport state with QUERY_VPORT_STATE.  A link coming up trains with the
 * FEC modes PPLM and the loopback PPLR ask at that moment; a link going
 * down is counted (PPCNT physical layer link_down_events).
 *
 * There is no e-switch: commands about other vports answer BAD_PARAM, as
 * on a function without vport_group_manager.
 */
#include <string.h>

#include "cx_kshim.h"
#include "cx_obj.h"

#define CX_PORT_EVENT_PORT	1	/* native port number in the EQE */
/* vport.h MLX5_VPORT_STATE_*, which the model does not include. */
#define CX_VPORT_STATE_DOWN	0
#define CX_VPORT_STATE_UP	1

static bool cx_vport_up(struct cx_core *core)
{
	struct cx_nic *nic = core->func.nic;

	return nic->port.oper_up &&
	       nic->vport.admin_state != MLX5_VPORT_ADMIN_STATE_DOWN;
}

void cx_port_update(struct cx_core *core)
{
	struct cx_nic *nic = core->func.nic;
	bool up = nic->port.admin_up && !nic->port.link_down &&
		  core->func.state == CX_HCA_INITIALISED;
	struct mlx5_eqe eqe;

	if (up == nic->port.oper_up)
		return;
	nic->port.oper_up = up;
	nic->port.port_events++;
	/* The link trains with the FEC modes and loopback asked now. */
	if (up) {
		memcpy(nic->port.fec_link, nic->port.fec_admin,
		       sizeof(nic->port.fec_link));
		nic->port.lb_link = nic->port.lb_admin;
	} else {
		nic->port.link_down_events++;
	}
	memset(&eqe, 0, sizeof(eqe));
	eqe.type = MLX5_EVENT_TYPE_PORT_CHANGE;
	eqe.sub_type = up ? MLX5_PORT_CHANGE_SUBTYPE_ACTIVE :
			    MLX5_PORT_CHANGE_SUBTYPE_DOWN;
	eqe.data.port.port = CX_PORT_EVENT_PORT << 4;
	cx_eq_event(core, MLX5_EVENT_TYPE_PORT_CHANGE, &eqe);
}

void cx_port_set_link(struct cx_core *core, bool up)
{
	core->func.nic->port.link_down = !up;
	cx_port_update(core);
}

/* ---- vport state ------------------------------------------------------- */

uint8_t cx_vport_query_state(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;

	if (MLX5_GET(query_vport_state_in, cmd->in, other_vport) ||
	    MLX5_GET(query_vport_state_in, cmd->in, vport_number))
		return CX_BAD_PARAM(cmd, "other vport without an e-switch");
	switch (cmd->op_mod) {
	case MLX5_VPORT_STATE_OP_MOD_VNIC_VPORT:
		MLX5_SET(query_vport_state_out, cmd->out, admin_state,
			 core->func.nic->vport.admin_state);
		MLX5_SET(query_vport_state_out, cmd->out, state,
			 cx_vport_up(core) ? CX_VPORT_STATE_UP :
					     CX_VPORT_STATE_DOWN);
		return MLX5_CMD_STAT_OK;
	case MLX5_VPORT_STATE_OP_MOD_UPLINK:
		MLX5_SET(query_vport_state_out, cmd->out, admin_state,
			 core->func.nic->port.admin_up ?
			 MLX5_VPORT_ADMIN_STATE_UP : MLX5_VPORT_ADMIN_STATE_DOWN);
		MLX5_SET(query_vport_state_out, cmd->out, state,
			 core->func.nic->port.oper_up ? CX_VPORT_STATE_UP :
							CX_VPORT_STATE_DOWN);
		return MLX5_CMD_STAT_OK;
	default:
		return CX_BAD_PARAM(cmd, "op_mod %u (e-switch vport)",
				    cmd->op_mod);
	}
}

uint8_t cx_vport_modify_state(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	uint32_t admin = MLX5_GET(modify_vport_state_in, cmd->in, admin_state);
	bool was_up = cx_vport_up(core);

	if (MLX5_GET(modify_vport_state_in, cmd->in, other_vport) ||
	    MLX5_GET(modify_vport_state_in, cmd->in, vport_number))
		return CX_BAD_PARAM(cmd, "other vport without an e-switch");
	if (cmd->op_mod != MLX5_VPORT_STATE_OP_MOD_VNIC_VPORT)
		return CX_BAD_PARAM(cmd, "op_mod %u", cmd->op_mod);
	if (admin > MLX5_VPORT_ADMIN_STATE_AUTO)
		return CX_BAD_PARAM(cmd, "admin_state %u", admin);
	core->func.nic->vport.admin_state = admin;
	if (was_up != cx_vport_up(core)) {
		struct mlx5_eqe eqe;

		memset(&eqe, 0, sizeof(eqe));
		eqe.type = MLX5_EVENT_TYPE_PORT_CHANGE;
		eqe.sub_type = cx_vport_up(core) ?
			       MLX5_PORT_CHANGE_SUBTYPE_ACTIVE :
			       MLX5_PORT_CHANGE_SUBTYPE_DOWN;
		eqe.data.port.port = CX_PORT_EVENT_PORT << 4;
		cx_eq_event(core, MLX5_EVENT_TYPE_PORT_CHANGE, &eqe);
	}
	return MLX5_CMD_STAT_OK;
}

/* ---- NIC vport context ------------------------------------------------- */

static void cx_mac_put(void *layout, const uint8_t *mac)
{
	MLX5_SET(mac_address_layout, layout, mac_addr_47_32,
		 cx_get_be16(mac));
	MLX5_SET(mac_address_layout, layout, mac_addr_31_0,
		 cx_get_be32(mac + 2));
}

static void cx_mac_get(const void *layout, uint8_t *mac)
{
	uint32_t hi = MLX5_GET(mac_address_layout, layout, mac_addr_47_32);
	uint32_t lo = MLX5_GET(mac_address_layout, layout, mac_addr_31_0);

	mac[0] = hi >> 8;
	mac[1] = hi;
	mac[2] = lo >> 24;
	mac[3] = lo >> 16;
	mac[4] = lo >> 8;
	mac[5] = lo;
}

static uint32_t cx_list_max(uint32_t type)
{
	switch (type) {
	case MLX5_NVPRT_LIST_TYPE_UC:	return CX_MAX_UC_LIST;
	case MLX5_NVPRT_LIST_TYPE_MC:	return CX_MAX_MC_LIST;
	case MLX5_NVPRT_LIST_TYPE_VLAN:	return CX_MAX_VLAN_LIST;
	}
	return 0;
}

uint8_t cx_vport_query_nic(struct cx_cmd *cmd)
{
	struct cx_vport *v = &cmd->core->func.nic->vport;
	void *ctx = MLX5_ADDR_OF(query_nic_vport_context_out, cmd->out,
				 nic_vport_context);
	size_t list_off = MLX5_BYTE_OFF(query_nic_vport_context_out,
					nic_vport_context.current_uc_mac_address);
	uint32_t type = MLX5_GET(query_nic_vport_context_in, cmd->in,
				 allowed_list_type);
	size_t room = cmd->outlen > list_off ? (cmd->outlen - list_off) / 8 : 0;
	uint32_t n, i;

	if (MLX5_GET(query_nic_vport_context_in, cmd->in, other_vport) ||
	    MLX5_GET(query_nic_vport_context_in, cmd->in, vport_number))
		return CX_BAD_PARAM(cmd, "other vport without an e-switch");
	if (!cx_list_max(type))
		return CX_BAD_PARAM(cmd, "allowed_list_type %u", type);
	MLX5_SET(nic_vport_context, ctx, min_wqe_inline_mode, v->min_inline);
	MLX5_SET(nic_vport_context, ctx, disable_mc_local_lb,
		 v->disable_mc_local_lb);
	MLX5_SET(nic_vport_context, ctx, disable_uc_local_lb,
		 v->disable_uc_local_lb);
	MLX5_SET(nic_vport_context, ctx, arm_change_event, v->arm_change_event);
	MLX5_SET(nic_vport_context, ctx, mtu, v->mtu);
	MLX5_SET64(nic_vport_context, ctx, system_image_guid,
		   v->system_image_guid);
	MLX5_SET64(nic_vport_context, ctx, port_guid, v->port_guid);
	MLX5_SET64(nic_vport_context, ctx, node_guid, v->node_guid);
	MLX5_SET(nic_vport_context, ctx, promisc_uc, v->promisc_uc);
	MLX5_SET(nic_vport_context, ctx, promisc_mc, v->promisc_mc);
	MLX5_SET(nic_vport_context, ctx, promisc_all, v->promisc_all);
	cx_mac_put(MLX5_ADDR_OF(nic_vport_context, ctx, permanent_address),
		   v->perm_mac);
	n = type == MLX5_NVPRT_LIST_TYPE_UC ? v->nuc :
	    type == MLX5_NVPRT_LIST_TYPE_MC ? v->nmc : v->nvlan;
	if (n > room)
		n = room;
	MLX5_SET(nic_vport_context, ctx, allowed_list_type, type);
	MLX5_SET(nic_vport_context, ctx, allowed_list_size, n);
	for (i = 0; i < n; i++) {
		void *e = MLX5_ADDR_OF(nic_vport_context, ctx,
				       current_uc_mac_address[i]);

		if (type == MLX5_NVPRT_LIST_TYPE_UC)
			cx_mac_put(e, v->uc[i]);
		else if (type == MLX5_NVPRT_LIST_TYPE_MC)
			cx_mac_put(e, v->mc[i]);
		else
			MLX5_SET(vlan_layout, e, vlan, v->vlan[i]);
	}
	return MLX5_CMD_STAT_OK;
}

static uint8_t cx_vport_set_list(struct cx_cmd *cmd, const void *ctx)
{
	struct cx_vport *v = &cmd->core->func.nic->vport;
	uint32_t type = MLX5_GET(nic_vport_context, ctx, allowed_list_type);
	uint32_t n = MLX5_GET(nic_vport_context, ctx, allowed_list_size);
	size_t list_off = MLX5_BYTE_OFF(modify_nic_vport_context_in,
					nic_vport_context.current_uc_mac_address);
	uint32_t i;

	if (!cx_list_max(type))
		return CX_BAD_PARAM(cmd, "allowed_list_type %u", type);
	if (n > cx_list_max(type))
		return CX_BAD_PARAM(cmd, "allowed_list_size %u (max %u)", n,
				    cx_list_max(type));
	if (cmd->inlen < list_off || (cmd->inlen - list_off) / 8 < n)
		return CX_BAD_PARAM(cmd, "input shorter than its list");
	for (i = 0; i < n; i++) {
		const void *e = MLX5_ADDR_OF(nic_vport_context, ctx,
					     current_uc_mac_address[i]);

		if (type == MLX5_NVPRT_LIST_TYPE_UC)
			cx_mac_get(e, v->uc[i]);
		else if (type == MLX5_NVPRT_LIST_TYPE_MC)
			cx_mac_get(e, v->mc[i]);
		else
			v->vlan[i] = MLX5_GET(vlan_layout, e, vlan);
	}
	if (type == MLX5_NVPRT_LIST_TYPE_UC)
		v->nuc = n;
	else if (type == MLX5_NVPRT_LIST_TYPE_MC)
		v->nmc = n;
	else
		v->nvlan = n;
	return MLX5_CMD_STAT_OK;
}

/* The port MTU bounds the vport MTU (cx_reg.c PMTU). */
#define CX_PORT_MAX_MTU		9978
#define CX_PORT_MIN_MTU		68

uint8_t cx_vport_modify_nic(struct cx_cmd *cmd)
{
	struct cx_vport *v = &cmd->core->func.nic->vport;
	const void *sel = MLX5_ADDR_OF(modify_nic_vport_context_in, cmd->in,
				       field_select);
	const void *ctx = MLX5_ADDR_OF(modify_nic_vport_context_in, cmd->in,
				       nic_vport_context);
	struct cx_vport save = *v;
	uint8_t st;

	if (MLX5_GET(modify_nic_vport_context_in, cmd->in, other_vport) ||
	    MLX5_GET(modify_nic_vport_context_in, cmd->in, vport_number))
		return CX_BAD_PARAM(cmd, "other vport without an e-switch");
	if (MLX5_GET(modify_nic_vport_field_select, sel, affiliation))
		return CX_BAD_PARAM(cmd, "affiliation (multi-host) not supported");
	if (MLX5_GET(modify_nic_vport_field_select, sel, roce_en) &&
	    MLX5_GET(nic_vport_context, ctx, roce_en))
		return CX_BAD_PARAM(cmd, "RoCE not announced");
	if (MLX5_GET(modify_nic_vport_field_select, sel, mtu)) {
		uint32_t mtu = MLX5_GET(nic_vport_context, ctx, mtu);

		if (mtu < CX_PORT_MIN_MTU || mtu > CX_PORT_MAX_MTU)
			return CX_BAD_PARAM(cmd, "mtu %u", mtu);
		v->mtu = mtu;
	}
	if (MLX5_GET(modify_nic_vport_field_select, sel, addresses_list)) {
		st = cx_vport_set_list(cmd, ctx);
		if (st) {
			*v = save;
			return st;
		}
	}
	if (MLX5_GET(modify_nic_vport_field_select, sel, promisc)) {
		v->promisc_uc = MLX5_GET(nic_vport_context, ctx, promisc_uc);
		v->promisc_mc = MLX5_GET(nic_vport_context, ctx, promisc_mc);
		v->promisc_all = MLX5_GET(nic_vport_context, ctx, promisc_all);
	}
	if (MLX5_GET(modify_nic_vport_field_select, sel, permanent_address))
		cx_mac_get(MLX5_ADDR_OF(nic_vport_context, ctx,
					permanent_address), v->perm_mac);
	if (MLX5_GET(modify_nic_vport_field_select, sel, change_event))
		v->arm_change_event = MLX5_GET(nic_vport_context, ctx,
					       arm_change_event);
	if (MLX5_GET(modify_nic_vport_field_select, sel, min_inline))
		v->min_inline = MLX5_GET(nic_vport_context, ctx,
					 min_wqe_inline_mode);
	if (MLX5_GET(modify_nic_vport_field_select, sel, disable_uc_local_lb))
		v->disable_uc_local_lb = MLX5_GET(nic_vport_context, ctx,
						  disable_uc_local_lb);
	if (MLX5_GET(modify_nic_vport_field_select, sel, disable_mc_local_lb))
		v->disable_mc_local_lb = MLX5_GET(nic_vport_context, ctx,
						  disable_mc_local_lb);
	if (MLX5_GET(modify_nic_vport_field_select, sel, node_guid))
		v->node_guid = MLX5_GET64(nic_vport_context, ctx, node_guid);
	if (MLX5_GET(modify_nic_vport_field_select, sel, port_guid))
		v->port_guid = MLX5_GET64(nic_vport_context, ctx, port_guid);
	return MLX5_CMD_STAT_OK;
}

/* ---- vport counters ---------------------------------------------------- */

#define CNT(f, p, b)							\
	do {								\
		MLX5_SET64(query_vport_counter_out, cmd->out, f.packets, p); \
		MLX5_SET64(query_vport_counter_out, cmd->out, f.octets, b); \
	} while (0)

uint8_t cx_vport_query_counter(struct cx_cmd *cmd)
{
	struct cx_vport_counters *c = &cmd->core->func.nic->vcnt;

	if (MLX5_GET(query_vport_counter_in, cmd->in, other_vport) ||
	    MLX5_GET(query_vport_counter_in, cmd->in, vport_number))
		return CX_BAD_PARAM(cmd, "other vport without an e-switch");
	CNT(received_errors, c->rx_err_pkts, 0);
	CNT(transmit_errors, c->tx_err_pkts, 0);
	CNT(received_eth_unicast, c->rx_ucast_pkts, c->rx_ucast_bytes);
	CNT(received_eth_multicast, c->rx_mcast_pkts, c->rx_mcast_bytes);
	CNT(received_eth_broadcast, c->rx_bcast_pkts, c->rx_bcast_bytes);
	CNT(transmitted_eth_unicast, c->tx_ucast_pkts, c->tx_ucast_bytes);
	CNT(transmitted_eth_multicast, c->tx_mcast_pkts, c->tx_mcast_bytes);
	CNT(transmitted_eth_broadcast, c->tx_bcast_pkts, c->tx_bcast_bytes);
	if (MLX5_GET(query_vport_counter_in, cmd->in, clear))
		memset(c, 0, sizeof(*c));
	return MLX5_CMD_STAT_OK;
}

/* The vport and the port as a function finds them (no objects, link off). */
void cx_vport_reset(struct cx_core *core)
{
	struct cx_nic *nic = core->func.nic;
	struct cx_vport *v = &nic->vport;
	void *uc = v->uc, *mc = v->mc, *vlan = v->vlan;
	uint64_t guid = 0;
	int i;

	memset(v, 0, sizeof(*v));
	v->uc = uc;
	v->mc = mc;
	v->vlan = vlan;
	memcpy(v->perm_mac, core->params.mac, 6);
	v->mtu = 1500 + 14 + 4 + 4;	/* what the port starts with */
	v->min_inline = core->params.min_inline;
	v->admin_state = MLX5_VPORT_ADMIN_STATE_AUTO;
	/* EUI-64 from the MAC, as firmware derives it. */
	for (i = 0; i < 3; i++)
		guid = guid << 8 | v->perm_mac[i];
	guid = guid << 16 | 0xfffe;
	for (i = 3; i < 6; i++)
		guid = guid << 8 | v->perm_mac[i];
	v->node_guid = v->port_guid = v->system_image_guid = guid;

	memset(&nic->port, 0, sizeof(nic->port));
	nic->port.admin_mtu = nic->port.oper_mtu = v->mtu;
	nic->port.ee_event = 1;
	/* Global pause is on in both directions out of reset. */
	nic->port.pptx = true;
	nic->port.pprx = true;
	memset(&nic->vcnt, 0, sizeof(nic->vcnt));
}
