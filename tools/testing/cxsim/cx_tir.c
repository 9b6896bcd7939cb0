// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: transport interface send/receive objects and RQ tables.
 *
 * A TIS is what an SQ transmits through (transport domain, priority).
 * An RQT is a list of RQs; a TIR picks one: directly (inline_rqn) or by
 * hashing the packet (rx_hash_fn, fields, Toeplitz key) into an RQT.
 * LRO (packet_merge_mask IPv4/IPv6) takes a timeout and a payload
 * limit; TLS and tunnel offloads are not announced, so contexts asking
 * for them are refused with BAD_PARAM, as hardware without them does.
 */
#include <stdlib.h>
#include <string.h>

#include "cx_kshim.h"
#include "cx_obj.h"

#define CX_LOG_MAX_RQT_SIZE	8
/* The largest of lro_timer_supported_periods (cx_hca.c). */
#define CX_LRO_MAX_TIMEOUT_US	1024

/* ---- TIS --------------------------------------------------------------- */

static uint8_t cx_tisc_check(struct cx_cmd *cmd, const void *tisc)
{
	if (MLX5_GET(tisc, tisc, tls_en))
		return CX_BAD_PARAM(cmd, "TLS not announced");
	if (MLX5_GET(tisc, tisc, lag_tx_port_affinity) > 1 ||
	    MLX5_GET(tisc, tisc, strict_lag_tx_port_affinity))
		return CX_BAD_PARAM(cmd, "LAG port affinity on a one-port function");
	if (MLX5_GET(tisc, tisc, underlay_qpn))
		return CX_BAD_PARAM(cmd, "underlay QPN (IPoIB) not supported");
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_tis_create(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	const void *tisc = MLX5_ADDR_OF(create_tis_in, cmd->in, ctx);
	uint32_t td = MLX5_GET(tisc, tisc, transport_domain);
	struct cx_tis *tis;
	uint32_t id;
	uint8_t st = cx_tisc_check(cmd, tisc);

	if (st)
		return st;
	if (!cx_td_exists(core, td))
		return CX_BAD_RES(cmd, "transport domain 0x%x", td);
	tis = calloc(1, sizeof(*tis));
	if (!tis || cx_tab_add(core, &core->func.nic->tis, tis, &id)) {
		free(tis);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	tis->tisn = id;
	tis->td = td;
	tis->pd = MLX5_GET(tisc, tisc, pd);
	tis->prio = MLX5_GET(tisc, tisc, prio);
	tis->lag_tx_port_affinity = MLX5_GET(tisc, tisc, lag_tx_port_affinity);
	MLX5_SET(create_tis_out, cmd->out, tisn, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_tis_modify(struct cx_cmd *cmd)
{
	uint32_t tisn = MLX5_GET(modify_tis_in, cmd->in, tisn);
	struct cx_tis *tis = cx_tis_lookup(cmd->core, tisn);
	const void *tisc = MLX5_ADDR_OF(modify_tis_in, cmd->in, ctx);
	const void *bm = MLX5_ADDR_OF(modify_tis_in, cmd->in, bitmask);
	uint8_t st;

	if (!tis)
		return CX_BAD_RES(cmd, "TIS 0x%x", tisn);
	st = cx_tisc_check(cmd, tisc);
	if (st)
		return st;
	if (MLX5_GET(modify_tis_bitmask, bm, prio))
		tis->prio = MLX5_GET(tisc, tisc, prio);
	if (MLX5_GET(modify_tis_bitmask, bm, lag_tx_port_affinity))
		tis->lag_tx_port_affinity =
			MLX5_GET(tisc, tisc, lag_tx_port_affinity);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_tis_destroy(struct cx_cmd *cmd)
{
	uint32_t tisn = MLX5_GET(destroy_tis_in, cmd->in, tisn);
	struct cx_tis *tis = cx_tab_del(cmd->core, &cmd->core->func.nic->tis,
					tisn);

	if (!tis)
		return CX_BAD_RES(cmd, "TIS 0x%x", tisn);
	free(tis);
	return MLX5_CMD_STAT_OK;
}

/* ---- RQT --------------------------------------------------------------- */

static void cx_rq_unref(struct cx_core *core, uint32_t rqn)
{
	struct cx_rq *rq = cx_rq_lookup(core, rqn);

	if (rq && rq->refs)
		rq->refs--;
}

static void cx_rqt_unref_all(struct cx_core *core, struct cx_rqt *rqt)
{
	uint32_t i;

	for (i = 0; i < rqt->size; i++)
		cx_rq_unref(core, rqt->rqn[i]);
}

static void cx_rqt_free_obj(struct cx_rqt *rqt)
{
	if (!rqt)
		return;
	free(rqt->rqn);
	free(rqt);
}

/* Read and check the RQ list of @rqtc against @max; a new array or NULL. */
static uint32_t *cx_rqt_list(struct cx_cmd *cmd, const void *rqtc,
			     size_t rqtc_off, uint32_t max, uint32_t *size,
			     uint8_t *st)
{
	uint32_t n = MLX5_GET(rqtc, rqtc, rqt_actual_size);
	size_t list_off = rqtc_off + MLX5_BYTE_OFF(rqtc, rq_num);
	uint32_t *list, i;

	*st = MLX5_CMD_STAT_OK;
	if (MLX5_GET(rqtc, rqtc, list_q_type) || MLX5_GET(rqtc, rqtc, rq_vhca_id_format)) {
		*st = CX_BAD_PARAM(cmd, "list type/vhca format not announced");
		return NULL;
	}
	if (!n || n > max) {
		*st = CX_BAD_PARAM(cmd, "rqt_actual_size %u (max %u)", n, max);
		return NULL;
	}
	if (cmd->inlen < list_off || (cmd->inlen - list_off) / 4 < n) {
		*st = CX_BAD_PARAM(cmd, "input shorter than its RQ list");
		return NULL;
	}
	list = calloc(n, sizeof(*list));
	if (!list) {
		cmd->syndrome = CX_SYND_NO_RES;
		*st = MLX5_CMD_STAT_NO_RES_ERR;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		list[i] = MLX5_GET(rqtc, rqtc, rq_num[i]);
		if (!cx_rq_lookup(cmd->core, list[i])) {
			*st = CX_BAD_RES(cmd, "RQ 0x%x in entry %u", list[i], i);
			free(list);
			return NULL;
		}
	}
	*size = n;
	return list;
}

static void cx_rqt_ref_all(struct cx_core *core, struct cx_rqt *rqt)
{
	uint32_t i;

	for (i = 0; i < rqt->size; i++)
		cx_rq_lookup(core, rqt->rqn[i])->refs++;
}

uint8_t cx_rqt_create(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	const void *rqtc = MLX5_ADDR_OF(create_rqt_in, cmd->in, rqt_context);
	uint32_t max = MLX5_GET(rqtc, rqtc, rqt_max_size);
	struct cx_rqt *rqt;
	uint32_t id, size = 0;
	uint32_t *list;
	uint8_t st;

	if (!max || max > (1u << CX_LOG_MAX_RQT_SIZE))
		return CX_BAD_PARAM(cmd, "rqt_max_size %u", max);
	list = cx_rqt_list(cmd, rqtc, MLX5_BYTE_OFF(create_rqt_in, rqt_context),
			   max, &size, &st);
	if (!list)
		return st;
	rqt = calloc(1, sizeof(*rqt));
	if (!rqt || cx_tab_add(core, &core->func.nic->rqt, rqt, &id)) {
		free(rqt);
		free(list);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	rqt->rqtn = id;
	rqt->max_size = max;
	rqt->size = size;
	rqt->rqn = list;
	cx_rqt_ref_all(core, rqt);
	MLX5_SET(create_rqt_out, cmd->out, rqtn, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_rqt_modify(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	uint32_t rqtn = MLX5_GET(modify_rqt_in, cmd->in, rqtn);
	struct cx_rqt *rqt = cx_rqt_lookup(core, rqtn);
	const void *rqtc = MLX5_ADDR_OF(modify_rqt_in, cmd->in, ctx);
	uint32_t size = 0, *list;
	uint8_t st;

	if (!rqt)
		return CX_BAD_RES(cmd, "RQT 0x%x", rqtn);
	if (!MLX5_GET(modify_rqt_in, cmd->in, bitmask.rqn_list))
		return MLX5_CMD_STAT_OK;
	list = cx_rqt_list(cmd, rqtc, MLX5_BYTE_OFF(modify_rqt_in, ctx),
			   rqt->max_size, &size, &st);
	if (!list)
		return st;
	cx_rqt_unref_all(core, rqt);
	free(rqt->rqn);
	rqt->rqn = list;
	rqt->size = size;
	cx_rqt_ref_all(core, rqt);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_rqt_destroy(struct cx_cmd *cmd)
{
	uint32_t rqtn = MLX5_GET(destroy_rqt_in, cmd->in, rqtn);
	struct cx_rqt *rqt = cx_tab_del(cmd->core, &cmd->core->func.nic->rqt,
					rqtn);

	if (!rqt)
		return CX_BAD_RES(cmd, "RQT 0x%x", rqtn);
	cx_rqt_unref_all(cmd->core, rqt);
	cx_rqt_free_obj(rqt);
	return MLX5_CMD_STAT_OK;
}

/* ---- TIR --------------------------------------------------------------- */

/*
 * The LRO fields: a mask of IPv4/IPv6 LRO only (no SHAMPO), and with a
 * mask a timeout within the announced periods' range and a payload limit
 * (in 256-byte units) of at least one unit.
 */
static uint8_t cx_tir_lro(struct cx_cmd *cmd, const void *tirc,
			  struct cx_tir *tir)
{
	uint32_t mask = MLX5_GET(tirc, tirc, packet_merge_mask);
	uint32_t us = MLX5_GET(tirc, tirc, lro_timeout_period_usecs);
	uint32_t max = MLX5_GET(tirc, tirc, lro_max_ip_payload_size);

	if (mask & ~(uint32_t)(MLX5_TIRC_PACKET_MERGE_MASK_IPV4_LRO |
			       MLX5_TIRC_PACKET_MERGE_MASK_IPV6_LRO))
		return CX_BAD_PARAM(cmd, "packet_merge_mask 0x%x", mask);
	if (mask && (!us || us > CX_LRO_MAX_TIMEOUT_US))
		return CX_BAD_PARAM(cmd, "lro_timeout_period_usecs %u", us);
	if (mask && !max)
		return CX_BAD_PARAM(cmd, "lro_max_ip_payload_size 0");
	tir->lro_mask = (uint8_t)mask;
	tir->lro_timeout_us = mask ? (uint16_t)us : 0;
	tir->lro_max_payload = mask ? max << 8 : 0;
	return MLX5_CMD_STAT_OK;
}

static void cx_hash_sel_get(const void *sel, struct cx_hash_sel *h)
{
	h->l3 = MLX5_GET(rx_hash_field_select, sel, l3_prot_type);
	h->l4 = MLX5_GET(rx_hash_field_select, sel, l4_prot_type);
	h->fields = MLX5_GET(rx_hash_field_select, sel, selected_fields);
}

static uint8_t cx_tir_hash(struct cx_cmd *cmd, const void *tirc,
			   struct cx_tir *tir)
{
	uint32_t fn = MLX5_GET(tirc, tirc, rx_hash_fn);

	if (fn > MLX5_RX_HASH_FN_TOEPLITZ)
		return CX_BAD_PARAM(cmd, "rx_hash_fn %u", fn);
	tir->hash_fn = fn;
	tir->symmetric = MLX5_GET(tirc, tirc, rx_hash_symmetric);
	memcpy(tir->key, MLX5_ADDR_OF(tirc, tirc, rx_hash_toeplitz_key),
	       sizeof(tir->key));
	cx_hash_sel_get(MLX5_ADDR_OF(tirc, tirc, rx_hash_field_selector_outer),
			&tir->outer);
	cx_hash_sel_get(MLX5_ADDR_OF(tirc, tirc, rx_hash_field_selector_inner),
			&tir->inner);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_tir_create(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	const void *tirc = MLX5_ADDR_OF(create_tir_in, cmd->in, ctx);
	uint32_t disp = MLX5_GET(tirc, tirc, disp_type);
	uint32_t td = MLX5_GET(tirc, tirc, transport_domain);
	struct cx_tir t, *tir;
	struct cx_rq *rq = NULL;
	uint32_t id;
	uint8_t st;

	memset(&t, 0, sizeof(t));
	st = cx_tir_lro(cmd, tirc, &t);
	if (st)
		return st;
	if (MLX5_GET(tirc, tirc, tls_en))
		return CX_BAD_PARAM(cmd, "TLS not announced");
	if (MLX5_GET(tirc, tirc, tunneled_offload_en))
		return CX_BAD_PARAM(cmd, "tunnel offloads not announced");
	if (!cx_td_exists(core, td))
		return CX_BAD_RES(cmd, "transport domain 0x%x", td);
	t.disp_type = disp;
	t.td = td;
	t.self_lb_block = MLX5_GET(tirc, tirc, self_lb_block);
	if (disp == MLX5_TIRC_DISP_TYPE_DIRECT) {
		t.inline_rqn = MLX5_GET(tirc, tirc, inline_rqn);
		rq = cx_rq_lookup(core, t.inline_rqn);
		if (!rq)
			return CX_BAD_RES(cmd, "RQ 0x%x", t.inline_rqn);
	} else if (disp == MLX5_TIRC_DISP_TYPE_INDIRECT) {
		t.rqtn = MLX5_GET(tirc, tirc, indirect_table);
		if (!cx_rqt_lookup(core, t.rqtn))
			return CX_BAD_RES(cmd, "RQT 0x%x", t.rqtn);
		st = cx_tir_hash(cmd, tirc, &t);
		if (st)
			return st;
	} else {
		return CX_BAD_PARAM(cmd, "disp_type %u", disp);
	}
	tir = malloc(sizeof(*tir));
	if (!tir || cx_tab_add(core, &core->func.nic->tir, tir, &id)) {
		free(tir);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	*tir = t;
	tir->tirn = id;
	if (rq)
		rq->refs++;
	MLX5_SET(create_tir_out, cmd->out, tirn, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_tir_modify(struct cx_cmd *cmd)
{
	uint32_t tirn = MLX5_GET(modify_tir_in, cmd->in, tirn);
	struct cx_tir *tir = cx_tir_lookup(cmd->core, tirn);
	const void *tirc = MLX5_ADDR_OF(modify_tir_in, cmd->in, ctx);
	const void *bm = MLX5_ADDR_OF(modify_tir_in, cmd->in, bitmask);
	struct cx_tir t;
	uint8_t st;

	if (!tir)
		return CX_BAD_RES(cmd, "TIR 0x%x", tirn);
	t = *tir;
	if (MLX5_GET(modify_tir_bitmask, bm, packet_merge)) {
		st = cx_tir_lro(cmd, tirc, &t);
		if (st)
			return st;
	}
	if (MLX5_GET(modify_tir_bitmask, bm, hash)) {
		if (t.disp_type != MLX5_TIRC_DISP_TYPE_INDIRECT)
			return CX_BAD_PARAM(cmd, "hash of a direct TIR");
		if (MLX5_GET(tirc, tirc, tunneled_offload_en))
			return CX_BAD_PARAM(cmd, "tunnel offloads not announced");
		st = cx_tir_hash(cmd, tirc, &t);
		if (st)
			return st;
	}
	if (MLX5_GET(modify_tir_bitmask, bm, self_lb_en))
		t.self_lb_block = MLX5_GET(tirc, tirc, self_lb_block);
	*tir = t;
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_tir_destroy(struct cx_cmd *cmd)
{
	uint32_t tirn = MLX5_GET(destroy_tir_in, cmd->in, tirn);
	struct cx_tir *tir = cx_tab_del(cmd->core, &cmd->core->func.nic->tir,
					tirn);

	if (!tir)
		return CX_BAD_RES(cmd, "TIR 0x%x", tirn);
	if (tir->disp_type == MLX5_TIRC_DISP_TYPE_DIRECT)
		cx_rq_unref(cmd->core, tir->inline_rqn);
	free(tir);
	return MLX5_CMD_STAT_OK;
}

static void cx_free_rqt(struct cx_core *c, void *o)
{
	(void)c;
	cx_rqt_free_obj(o);
}

void cx_tir_release_all(struct cx_core *core)
{
	cx_tab_clear(core, &core->func.nic->tir, NULL);
	cx_tab_clear(core, &core->func.nic->rqt, cx_free_rqt);
	cx_tab_clear(core, &core->func.nic->tis, NULL);
}
