// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: the store of Ethernet objects, and the small ones: protection
 * domains, transport domains, memory keys, queue counters.
 *
 * Objects live in per-type tables (struct cx_tab); a number names a slot
 * (number = base + slot).  Every table counts in the function's object
 * registry, so what the driver leaves behind shows in the leak report.
 */
#include <stdarg.h>
#include <stdio.h>
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
/* The most MTT entries one mkey may hold (8 MiB of translations). */
#define CX_MKEY_MAX_MTT		(1u << 20)

struct cx_small {
	uint32_t id;
};

/* ---- helpers ----------------------------------------------------------- */

bool cx_pd_exists(struct cx_core *core, uint32_t pd)
{
	return cx_tab_get(&core->func.nic->pd, pd) != NULL;
}

bool cx_td_exists(struct cx_core *core, uint32_t td)
{
	return cx_tab_get(&core->func.nic->td, td) != NULL;
}

/* ---- the store --------------------------------------------------------- */

static void cx_vport_defaults(struct cx_core *core)
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
	memset(&nic->vcnt, 0, sizeof(nic->vcnt));
	nic->root_ft = 0;
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
	cx_vport_defaults(core);
	return 0;
}

static void cx_free_cq(struct cx_core *c, void *o) { (void)c; cx_cq_free_obj(o); }
static void cx_free_sq(struct cx_core *c, void *o) { (void)c; cx_sq_free_obj(o); }
static void cx_free_rq(struct cx_core *c, void *o) { (void)c; cx_rq_free_obj(o); }
static void cx_free_rqt(struct cx_core *c, void *o) { (void)c; cx_rqt_free_obj(o); }
static void cx_free_ft(struct cx_core *c, void *o) { cx_ft_free_obj(c, o); }
static void cx_free_mkey(struct cx_core *c, void *o) { (void)c; cx_mkey_free_obj(o); }

void cx_nic_release_all(struct cx_core *core)
{
	struct cx_nic *nic = core->func.nic;

	if (!nic)
		return;
	cx_tab_clear(core, &nic->ft, cx_free_ft);	/* and their FTEs */
	cx_tab_clear(core, &nic->fg, NULL);
	cx_tab_clear(core, &nic->fc, NULL);
	cx_tab_clear(core, &nic->tir, NULL);
	cx_tab_clear(core, &nic->rqt, cx_free_rqt);
	cx_tab_clear(core, &nic->sq, cx_free_sq);
	cx_tab_clear(core, &nic->rq, cx_free_rq);
	cx_tab_clear(core, &nic->cq, cx_free_cq);
	cx_tab_clear(core, &nic->tis, NULL);
	cx_tab_clear(core, &nic->mkey, cx_free_mkey);
	cx_tab_clear(core, &nic->qcnt, NULL);
	cx_tab_clear(core, &nic->td, NULL);
	cx_tab_clear(core, &nic->pd, NULL);
	nic->bad_refs = 0;
	cx_vport_defaults(core);
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
		free(tabs[i]->slot);
	free(nic->vport.uc);
	free(nic->vport.mc);
	free(nic->vport.vlan);
	free(nic);
	core->func.nic = NULL;
}

/* ---- PD, TD ------------------------------------------------------------ */

static uint8_t cx_small_alloc(struct cx_cmd *cmd, struct cx_tab *t,
			      uint32_t *id)
{
	struct cx_small *o = calloc(1, sizeof(*o));

	if (!o || cx_tab_add(cmd->core, t, o, id)) {
		free(o);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	o->id = *id;
	return MLX5_CMD_STAT_OK;
}

static uint8_t cx_small_free(struct cx_cmd *cmd, struct cx_tab *t, uint32_t id)
{
	void *o = cx_tab_del(cmd->core, t, id);

	if (!o)
		return CX_BAD_RES(cmd, "no object 0x%x", id);
	free(o);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_pd_alloc(struct cx_cmd *cmd)
{
	uint32_t id;
	uint8_t st = cx_small_alloc(cmd, &cmd->core->func.nic->pd, &id);

	if (!st)
		MLX5_SET(alloc_pd_out, cmd->out, pd, id);
	return st;
}

uint8_t cx_pd_dealloc(struct cx_cmd *cmd)
{
	return cx_small_free(cmd, &cmd->core->func.nic->pd,
			     MLX5_GET(dealloc_pd_in, cmd->in, pd));
}

uint8_t cx_td_alloc(struct cx_cmd *cmd)
{
	uint32_t id;
	uint8_t st = cx_small_alloc(cmd, &cmd->core->func.nic->td, &id);

	if (!st)
		MLX5_SET(alloc_transport_domain_out, cmd->out,
			 transport_domain, id);
	return st;
}

uint8_t cx_td_dealloc(struct cx_cmd *cmd)
{
	return cx_small_free(cmd, &cmd->core->func.nic->td,
			     MLX5_GET(dealloc_transport_domain_in, cmd->in,
				      transport_domain));
}

/* ---- mkeys ------------------------------------------------------------- */

void cx_mkey_free_obj(struct cx_mkey *mk)
{
	if (!mk)
		return;
	free(mk->mtt);
	free(mk);
}

struct cx_mkey *cx_mkey_lookup(struct cx_core *c, uint32_t mkey)
{
	struct cx_mkey *mk = cx_tab_get(&c->func.nic->mkey, mkey >> 8);

	return mk && mk->variant == (mkey & 0xff) ? mk : NULL;
}

uint8_t cx_mkey_create(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	const void *mkc = MLX5_ADDR_OF(create_mkey_in, cmd->in,
				       memory_key_mkey_entry);
	size_t hdr = MLX5_ST_SZ_BYTES(create_mkey_in);
	uint32_t actual = MLX5_GET(create_mkey_in, cmd->in,
				   translations_octword_actual_size);
	uint32_t octw = MLX5_GET(mkc, mkc, translations_octword_size);
	uint8_t mode = MLX5_GET(mkc, mkc, access_mode_1_0) |
		       MLX5_GET(mkc, mkc, access_mode_4_2) << 2;
	uint32_t pd = MLX5_GET(mkc, mkc, pd);
	const uint8_t *tr = (const uint8_t *)cmd->in + hdr;
	struct cx_mkey *mk;
	uint32_t id, i, n;

	if (MLX5_GET(create_mkey_in, cmd->in, mkey_umem_valid) ||
	    MLX5_GET(create_mkey_in, cmd->in, pg_access))
		return CX_BAD_PARAM(cmd, "umem/pg_access not supported");
	if (mode != MLX5_MKC_ACCESS_MODE_PA && mode != MLX5_MKC_ACCESS_MODE_MTT &&
	    mode != MLX5_MKC_ACCESS_MODE_KSM && mode != MLX5_MKC_ACCESS_MODE_KLMS)
		return CX_BAD_PARAM(cmd, "access mode %u", mode);
	if (!cx_pd_exists(core, pd))
		return CX_BAD_RES(cmd, "pd 0x%x", pd);
	if (octw > CX_MKEY_MAX_MTT / 2 || actual > octw)
		return CX_BAD_PARAM(cmd, "translations %u of %u", actual, octw);
	if (mode == MLX5_MKC_ACCESS_MODE_MTT &&
	    (MLX5_GET(mkc, mkc, log_page_size) < 12 ||
	     MLX5_GET(mkc, mkc, log_page_size) > 30))
		return CX_BAD_PARAM(cmd, "log_page_size %u",
				    MLX5_GET(mkc, mkc, log_page_size));
	if (cmd->inlen < hdr || (cmd->inlen - hdr) / 16 < actual)
		return CX_BAD_PARAM(cmd, "input shorter than its translations");
	if (MLX5_GET(mkc, mkc, bsf_en))
		return CX_BAD_PARAM(cmd, "signature not supported");

	mk = calloc(1, sizeof(*mk));
	n = octw * 2;
	if (mk && n)
		mk->mtt = calloc(n, sizeof(*mk->mtt));
	if (!mk || (n && !mk->mtt)) {
		cx_mkey_free_obj(mk);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_NO_RES_ERR;
	}
	mk->nmtt = n;
	for (i = 0; i < actual * 2 && i < n; i++)
		mk->mtt[i] = cx_get_be64(tr + 8 * i);
	mk->variant = MLX5_GET(mkc, mkc, mkey_7_0);
	mk->free = MLX5_GET(mkc, mkc, free);
	mk->umr_en = MLX5_GET(mkc, mkc, umr_en);
	mk->access_mode = mode;
	mk->access = MLX5_GET(mkc, mkc, a) << 4 | MLX5_GET(mkc, mkc, rw) << 3 |
		     MLX5_GET(mkc, mkc, rr) << 2 | MLX5_GET(mkc, mkc, lw) << 1 |
		     MLX5_GET(mkc, mkc, lr);
	mk->length64 = MLX5_GET(mkc, mkc, length64);
	mk->pd = pd;
	mk->qpn = MLX5_GET(mkc, mkc, qpn);
	mk->start = MLX5_GET64(mkc, mkc, start_addr);
	mk->len = MLX5_GET64(mkc, mkc, len);
	mk->log_page_size = MLX5_GET(mkc, mkc, log_page_size);
	mk->octwords = octw;
	if (cx_tab_add(core, &core->func.nic->mkey, mk, &id)) {
		cx_mkey_free_obj(mk);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	mk->index = id;
	MLX5_SET(create_mkey_out, cmd->out, mkey_index, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_mkey_destroy(struct cx_cmd *cmd)
{
	uint32_t idx = MLX5_GET(destroy_mkey_in, cmd->in, mkey_index);
	struct cx_mkey *mk = cx_tab_del(cmd->core, &cmd->core->func.nic->mkey,
					idx);

	if (!mk)
		return CX_BAD_RES(cmd, "mkey index 0x%x", idx);
	cx_mkey_free_obj(mk);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_mkey_query(struct cx_cmd *cmd)
{
	uint32_t idx = MLX5_GET(query_mkey_in, cmd->in, mkey_index);
	struct cx_mkey *mk = cx_tab_get(&cmd->core->func.nic->mkey, idx);
	void *mkc = MLX5_ADDR_OF(query_mkey_out, cmd->out,
				 memory_key_mkey_entry);

	if (!mk)
		return CX_BAD_RES(cmd, "mkey index 0x%x", idx);
	MLX5_SET(mkc, mkc, free, mk->free);
	MLX5_SET(mkc, mkc, umr_en, mk->umr_en);
	MLX5_SET(mkc, mkc, access_mode_1_0, mk->access_mode & 3);
	MLX5_SET(mkc, mkc, access_mode_4_2, mk->access_mode >> 2);
	MLX5_SET(mkc, mkc, a, mk->access >> 4 & 1);
	MLX5_SET(mkc, mkc, rw, mk->access >> 3 & 1);
	MLX5_SET(mkc, mkc, rr, mk->access >> 2 & 1);
	MLX5_SET(mkc, mkc, lw, mk->access >> 1 & 1);
	MLX5_SET(mkc, mkc, lr, mk->access & 1);
	MLX5_SET(mkc, mkc, qpn, mk->qpn);
	MLX5_SET(mkc, mkc, mkey_7_0, mk->variant);
	MLX5_SET(mkc, mkc, length64, mk->length64);
	MLX5_SET(mkc, mkc, pd, mk->pd);
	MLX5_SET64(mkc, mkc, start_addr, mk->start);
	MLX5_SET64(mkc, mkc, len, mk->len);
	MLX5_SET(mkc, mkc, translations_octword_size, mk->octwords);
	MLX5_SET(mkc, mkc, log_page_size, mk->log_page_size);
	return MLX5_CMD_STAT_OK;
}

/* ---- queue counters ---------------------------------------------------- */

uint8_t cx_qcnt_alloc(struct cx_cmd *cmd)
{
	struct cx_qcnt *q = calloc(1, sizeof(*q));
	uint32_t id;

	if (!q || cx_tab_add(cmd->core, &cmd->core->func.nic->qcnt, q, &id)) {
		free(q);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	q->id = id;
	MLX5_SET(alloc_q_counter_out, cmd->out, counter_set_id, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_qcnt_dealloc(struct cx_cmd *cmd)
{
	return cx_small_free(cmd, &cmd->core->func.nic->qcnt,
			     MLX5_GET(dealloc_q_counter_in, cmd->in,
				      counter_set_id));
}

uint8_t cx_qcnt_query(struct cx_cmd *cmd)
{
	uint32_t id = MLX5_GET(query_q_counter_in, cmd->in, counter_set_id);
	struct cx_qcnt *q = cx_qcnt_lookup(cmd->core, id);

	if (MLX5_GET(query_q_counter_in, cmd->in, other_vport))
		return CX_BAD_PARAM(cmd, "other_vport without an e-switch");
	if (!q)
		return CX_BAD_RES(cmd, "counter set 0x%x", id);
	MLX5_SET(query_q_counter_out, cmd->out, out_of_buffer,
		 q->out_of_buffer);
	if (MLX5_GET(query_q_counter_in, cmd->in, clear))
		q->out_of_buffer = 0;
	return MLX5_CMD_STAT_OK;
}

/*
 * Special mkeys.  None of the capabilities that announce them
 * (dump_fill_mkey, null_mkey, terminate_scatter_list_mkey,
 * repeated_mkey) is set; the reserved lkey is what every device has.
 */
#define CX_RESD_LKEY	0x100

uint8_t cx_query_special_contexts(struct cx_cmd *cmd)
{
	MLX5_SET(query_special_contexts_out, cmd->out, resd_lkey,
		 CX_RESD_LKEY);
	return MLX5_CMD_STAT_OK;
}
