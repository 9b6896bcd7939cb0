// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: the store of a function's Ethernet objects (struct cx_nic): one
 * table per type, their number ranges, and its life cycle.  Releasing
 * what the function left behind is each owner's job (cx_*_release_all);
 * this file only calls them in order and resets the vport.
 */
#include <stdlib.h>
#include <string.h>

#include "cx_kshim.h"
#include "cx_obj.h"

/* Limits: the sizes the capabilities announce (cx_hca.c). */
#define CX_MAX_PD		(1u << 16)
#define CX_MAX_TD		(1u << 12)
#define CX_MAX_MKEY		(1u << 16)
#define CX_MAX_QCNT		32	/* max_qp_cnt */
#define CX_MAX_CQ		(1u << 12)
#define CX_MAX_SQ		(1u << 12)
#define CX_MAX_RQ		(1u << 12)
#define CX_MAX_TIS		(1u << 12)
#define CX_MAX_TIR		(1u << 12)
#define CX_MAX_RQT		(1u << 12)
#define CX_MAX_FT		(1u << 8)
#define CX_MAX_FG		(1u << 12)
#define CX_MAX_FC		(1u << 12)

/* The VXLAN port table as the device starts: IANA's 4789 only. */
static void cx_vxlan_reset(struct cx_nic *nic)
{
	memset(&nic->tun, 0, sizeof(nic->tun));
	nic->tun.vxlan[0] = CX_VXLAN_IANA_PORT;
	nic->tun.nvxlan = 1;
	nic->tun.geneve_rx = true;	/* tunnel_stateless_geneve_rx */
	nic->tun.gre = true;		/* tunnel_stateless_gre */
	nic->tun.ipip = true;		/* tunnel_stateless_ip_over_ip */
}

int cx_nic_init(struct cx_core *core)
{
	struct cx_nic *nic = calloc(1, sizeof(*nic));

	if (!nic)
		abort();
	nic->vport.uc = calloc(CX_MAX_UC_LIST, 6);
	nic->vport.mc = calloc(CX_MAX_MC_LIST, 6);
	nic->vport.vlan = calloc(CX_MAX_VLAN_LIST, 2);
	if (!nic->vport.uc || !nic->vport.mc || !nic->vport.vlan)
		abort();
	/*
	 * Numbers: distinct ranges per kind, so that a number of the wrong
	 * kind is refused.  SQs and RQs share one range, as QPs do.
	 */
	cx_tab_init(&nic->pd, CX_OBJ_PD, 1, CX_MAX_PD);
	cx_tab_init(&nic->td, CX_OBJ_TD, 1, CX_MAX_TD);
	/* data path: from index 2, so no mkey is 0x100, the terminate lkey. */
	cx_tab_init(&nic->mkey, CX_OBJ_MKEY, 2, CX_MAX_MKEY);
	cx_tab_init(&nic->qcnt, CX_OBJ_QCNT, 1, CX_MAX_QCNT);
	cx_tab_init(&nic->cq, CX_OBJ_CQ, 0x400, CX_MAX_CQ);
	cx_tab_init(&nic->sq, CX_OBJ_SQ, 0x1000, CX_MAX_SQ);
	cx_tab_init(&nic->rq, CX_OBJ_RQ, 0x2000, CX_MAX_RQ);
	cx_tab_init(&nic->tis, CX_OBJ_TIS, 0x100, CX_MAX_TIS);
	cx_tab_init(&nic->tir, CX_OBJ_TIR, 0x1100, CX_MAX_TIR);
	cx_tab_init(&nic->rqt, CX_OBJ_RQT, 0x2100, CX_MAX_RQT);
	cx_tab_init(&nic->ft, CX_OBJ_FT, 1, CX_MAX_FT);
	cx_tab_init(&nic->fg, CX_OBJ_FG, 1, CX_MAX_FG);
	cx_tab_init(&nic->fc, CX_OBJ_FC, 0x800000, CX_MAX_FC);
	core->func.nic = nic;
	cx_vxlan_reset(nic);
	cx_vport_reset(core);
	return 0;
}

void cx_nic_release_all(struct cx_core *core)
{
	struct cx_nic *nic = core->func.nic;

	if (!nic)
		return;
	cx_fs_release_all(core);	/* tables (and their FTEs), groups, counters */
	cx_tir_release_all(core);	/* TIRs, RQTs, TISes */
	cx_queues_release_all(core);	/* SQs, RQs */
	cx_cq_release_all(core);
	cx_mkey_release_all(core);
	cx_qcnt_release_all(core);
	cx_pd_release_all(core);	/* TDs, PDs */
	nic->bad_refs = 0;
	cx_vxlan_reset(nic);
	cx_vport_reset(core);
}

void cx_nic_fini(struct cx_core *core)
{
	struct cx_nic *nic = core->func.nic;
	unsigned int i;

	if (!nic)
		return;
	struct cx_tab *tabs[] = { &nic->pd, &nic->td, &nic->mkey, &nic->qcnt,
		&nic->cq, &nic->sq, &nic->rq, &nic->tis, &nic->tir, &nic->rqt,
		&nic->ft, &nic->fg, &nic->fc };

	for (i = 0; i < CX_ARRAY_SIZE(tabs); i++)
		cx_tab_fini(tabs[i]);
	free(nic->vport.uc);
	free(nic->vport.mc);
	free(nic->vport.vlan);
	free(nic);
	core->func.nic = NULL;
}

/*
 * The VXLAN UDP port table (max_vxlan_udp_ports entries): frames to these
 * ports are parsed as VXLAN for the inner checksums and LSO (TX) and the
 * CQE's tunneled bit and inner checksum verdict (RX).  It starts with
 * IANA's 4789, as the hardware's does (upstream's mlx5_vxlan_create()
 * adds it anyway and mlx5_vxlan_reset_to_default() keeps it over a
 * reset); a reset of the function returns to that.  Adding a port
 * already there is a no-op; adding to a full table or deleting a port
 * not in it is refused.
 */
uint8_t cx_vxlan_add_port(struct cx_cmd *cmd)
{
	struct cx_tun_ports *t = &cmd->core->func.nic->tun;
	uint16_t port = (uint16_t)MLX5_GET(add_vxlan_udp_dport_in, cmd->in,
					   vxlan_udp_port);

	if (cx_tun_port_known(t, port))
		return MLX5_CMD_STAT_OK;
	if (t->nvxlan >= CX_VXLAN_MAX_PORTS)
		return cx_bad(cmd, MLX5_CMD_STAT_LIM_ERR,
			      "VXLAN port %u: table full (%u ports)", port,
			      CX_VXLAN_MAX_PORTS);
	t->vxlan[t->nvxlan++] = port;
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_vxlan_del_port(struct cx_cmd *cmd)
{
	struct cx_tun_ports *t = &cmd->core->func.nic->tun;
	uint16_t port = (uint16_t)MLX5_GET(delete_vxlan_udp_dport_in, cmd->in,
					   vxlan_udp_port);
	unsigned int i;

	for (i = 0; i < t->nvxlan; i++) {
		if (t->vxlan[i] != port)
			continue;
		t->vxlan[i] = t->vxlan[--t->nvxlan];
		t->vxlan[t->nvxlan] = 0;
		return MLX5_CMD_STAT_OK;
	}
	return CX_BAD_PARAM(cmd, "VXLAN port %u not in the table", port);
}
