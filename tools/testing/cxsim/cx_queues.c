// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: send and receive queues (CREATE/MODIFY/QUERY/DESTROY SQ, RQ).
 * The contexts are decoded into struct cx_sq/cx_rq (cx_obj.h) for the
 * data path (cx_tx.c, cx_rx.c); the state machine of SQs and RQs is
 *
 *	RST -> RDY -> ERR -> RST,  RDY -> RST,  RDY -> RDY (modify)
 *
 * and a MODIFY_SQ/RQ must name the state the queue is in, as on
 * hardware; anything else is BAD_RES_STATE.  References (EQ, UAR, CQ,
 * TIS, PD, counter set) must exist on this function: BAD_RES otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "cx_kshim.h"
#include "cx_obj.h"
#include "cx_dp.h"

#define CX_LOG_MAX_WQ_SZ	16
#define CX_SEND_WQE_BB_LOG	6
/* modify_sq_in.modify_bitmask (driver's MLX5_MODIFY_SQ_BITMASK_*). */
#define CX_MODIFY_SQ_RL		(1ull << 0)
#define CX_MODIFY_SQ_QOS_GROUP	(1ull << 2)

/* ---- work queues ------------------------------------------------------- */

/* Decode and check the "wq" of an SQ or RQ; @pas_off is its pas. */
static uint8_t cx_wq_parse(struct cx_cmd *cmd, const void *wq, size_t pas_off,
			   struct cx_wq *w, bool sq)
{
	struct cx_core *core = cmd->core;
	uint32_t type = MLX5_GET(wq, wq, wq_type);
	uint32_t pd = MLX5_GET(wq, wq, pd);
	uint64_t bytes;

	memset(w, 0, sizeof(*w));
	if (MLX5_GET(wq, wq, wq_umem_valid) || MLX5_GET(wq, wq, dbr_umem_valid))
		return CX_BAD_PARAM(cmd, "umem WQs not supported");
	if (MLX5_GET(wq, wq, wq_signature))
		return CX_BAD_PARAM(cmd, "WQ signature not announced");
	if (MLX5_GET(wq, wq, shampo_enable))
		return CX_BAD_PARAM(cmd, "SHAMPO not announced");
	if (MLX5_GET(wq, wq, log_wq_sz) > CX_LOG_MAX_WQ_SZ)
		return CX_BAD_PARAM(cmd, "log_wq_sz %u",
				    MLX5_GET(wq, wq, log_wq_sz));
	/*
	 * The driver's drop RQ (mlx5e_build_drop_rq_param) names no PD: it
	 * never gets a WQE, so PD 0 is taken for an RQ; any other PD must
	 * exist.
	 */
	if ((pd || sq) && !cx_pd_exists(core, pd))
		return CX_BAD_RES(cmd, "PD 0x%x", pd);
	w->type = type;
	w->end_padding_mode = MLX5_GET(wq, wq, end_padding_mode);
	w->pd = pd;
	w->uar_page = MLX5_GET(wq, wq, uar_page);
	w->dbr_addr = MLX5_GET64(wq, wq, dbr_addr);
	w->log_stride = MLX5_GET(wq, wq, log_wq_stride);
	w->log_sz = MLX5_GET(wq, wq, log_wq_sz);
	w->log_pg_sz = MLX5_GET(wq, wq, log_wq_pg_sz);
	w->page_offset = MLX5_GET(wq, wq, page_offset);
	w->lwm = MLX5_GET(wq, wq, lwm);
	if (sq) {
		if (type != MLX5_WQ_TYPE_CYCLIC)
			return CX_BAD_PARAM(cmd, "SQ wq_type %u", type);
		if (w->log_stride != CX_SEND_WQE_BB_LOG)
			return CX_BAD_PARAM(cmd, "SQ log_wq_stride %u",
					    w->log_stride);
		if (!cx_uar_allocated(core, w->uar_page))
			return CX_BAD_RES(cmd, "UAR %u", w->uar_page);
	} else {
		switch (type) {
		case MLX5_WQ_TYPE_LINKED_LIST:
		case MLX5_WQ_TYPE_CYCLIC:
			break;
		case MLX5_WQ_TYPE_LINKED_LIST_STRIDING_RQ:
		case MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ: {
			uint32_t ns = MLX5_GET(wq, wq, log_wqe_num_of_strides);
			uint32_t ss = MLX5_GET(wq, wq, log_wqe_stride_size);

			/*
			 * data path: ext_stride_num_range is announced (the
			 * Debian driver needs it for striding RQ at MTU 1500):
			 * values 10..15 are 2^3..2^8 strides ((log - 9) & 0xf).
			 */
			if (ns > MLX5_MPWQE_LOG_NUM_STRIDES_MAX -
				 MLX5_MPWQE_LOG_NUM_STRIDES_BASE && ns < 10)
				return CX_BAD_PARAM(cmd, "log_wqe_num_of_strides %u",
						    ns);
			w->log_num_strides = ns >= 10 ? ns - 7 :
					     ns + MLX5_MPWQE_LOG_NUM_STRIDES_BASE;
			w->log_stride_bytes = ss + MLX5_MPWQE_LOG_STRIDE_SZ_BASE;
			if (w->log_stride_bytes > MLX5_MPWQE_LOG_STRIDE_SZ_MAX)
				return CX_BAD_PARAM(cmd, "log_wqe_stride_size %u",
						    ss);
			/*
			 * Two bytes of padding before each frame (an aligned
			 * IP header): not modelled, and no capability the
			 * model reports promises it, so refused rather than
			 * frames placed two bytes off what the driver reads.
			 */
			if (MLX5_GET(wq, wq, two_byte_shift_en))
				return CX_BAD_PARAM(cmd, "two_byte_shift_en not supported");
			break;
		}
		default:
			return CX_BAD_PARAM(cmd, "RQ wq_type %u", type);
		}
		if (w->log_stride < 4 || w->log_stride > 10)
			return CX_BAD_PARAM(cmd, "RQ log_wq_stride %u",
					    w->log_stride);
	}
	bytes = 1ull << (w->log_stride + w->log_sz);
	if (cx_pas_parse(&w->pas, cmd->in, cmd->inlen, pas_off, bytes,
			 w->log_pg_sz, w->page_offset * 64))
		return CX_BAD_PARAM(cmd, "pas: too few or unaligned pages");
	return MLX5_CMD_STAT_OK;
}

static bool cx_qstate_ok(uint8_t from, uint8_t to)
{
	switch (from) {
	case MLX5_SQC_STATE_RST:
		return to == MLX5_SQC_STATE_RST || to == MLX5_SQC_STATE_RDY;
	case MLX5_SQC_STATE_RDY:
		return to == MLX5_SQC_STATE_RDY || to == MLX5_SQC_STATE_ERR ||
		       to == MLX5_SQC_STATE_RST;
	case MLX5_SQC_STATE_ERR:
		return to == MLX5_SQC_STATE_RST || to == MLX5_SQC_STATE_ERR;
	}
	return false;
}

/* ---- SQ ---------------------------------------------------------------- */

static void cx_sq_free_obj(struct cx_sq *sq)
{
	if (!sq)
		return;
	cx_pas_free(&sq->wq.pas);
	free(sq);
}

uint8_t cx_sq_create(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	const void *sqc = MLX5_ADDR_OF(create_sq_in, cmd->in, ctx);
	uint32_t cqn = MLX5_GET(sqc, sqc, cqn);
	uint32_t ntis = MLX5_GET(sqc, sqc, tis_lst_sz);
	uint32_t tisn = MLX5_GET(sqc, sqc, tis_num_0);
	struct cx_cq *cq = cx_cq_lookup(core, cqn);
	struct cx_sq *sq;
	uint32_t id;
	uint8_t st;

	if (MLX5_GET(sqc, sqc, state) != MLX5_SQC_STATE_RST)
		return CX_BAD_PARAM(cmd, "SQ created in state %u",
				    MLX5_GET(sqc, sqc, state));
	if (MLX5_GET(sqc, sqc, hairpin) ||
	    MLX5_GET(sqc, sqc, cd_master) || MLX5_GET(sqc, sqc, non_wire))
		return CX_BAD_PARAM(cmd, "hairpin/cd_master/non_wire not announced");
	if (MLX5_GET(sqc, sqc, allow_multi_pkt_send_wqe) && !core->params.mpwqe)
		return CX_BAD_PARAM(cmd, "multi-packet WQEs not announced");
	if (MLX5_GET(sqc, sqc, packet_pacing_rate_limit_index))
		return CX_BAD_PARAM(cmd, "packet pacing not announced");
	if (MLX5_GET(sqc, sqc, ts_cqe_to_dest_cqn))
		return CX_BAD_PARAM(cmd, "ts_cqe_to_dest_cqn not announced");
	if (!cq)
		return CX_BAD_RES(cmd, "CQ 0x%x", cqn);
	if (ntis > 1)
		return CX_BAD_PARAM(cmd, "tis_lst_sz %u", ntis);
	if (ntis && !cx_tis_lookup(core, tisn))
		return CX_BAD_RES(cmd, "TIS 0x%x", tisn);

	sq = calloc(1, sizeof(*sq));
	if (!sq) {
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_NO_RES_ERR;
	}
	st = cx_wq_parse(cmd, MLX5_ADDR_OF(sqc, sqc, wq),
			 MLX5_BYTE_OFF(create_sq_in, ctx.wq.pas), &sq->wq, true);
	if (st) {
		cx_sq_free_obj(sq);
		return st;
	}
	sq->cqn = cqn;
	sq->state = MLX5_SQC_STATE_RST;
	sq->ntis = ntis;
	sq->tisn = ntis ? tisn : 0;
	sq->min_inline = MLX5_GET(sqc, sqc, min_wqe_inline_mode);
	sq->allow_mpwqe = MLX5_GET(sqc, sqc, allow_multi_pkt_send_wqe);
	sq->reg_umr = MLX5_GET(sqc, sqc, reg_umr);
	sq->allow_swp = MLX5_GET(sqc, sqc, allow_swp);
	sq->flush_in_error_en = MLX5_GET(sqc, sqc, flush_in_error_en);
	sq->ts_format = MLX5_GET(sqc, sqc, ts_format);
	sq->user_index = MLX5_GET(sqc, sqc, user_index);
	if (cx_tab_add(core, &core->func.nic->sq, sq, &id)) {
		cx_sq_free_obj(sq);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	sq->sqn = id;
	cq->refs++;
	MLX5_SET(create_sq_out, cmd->out, sqn, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_sq_modify(struct cx_cmd *cmd)
{
	uint32_t sqn = MLX5_GET(modify_sq_in, cmd->in, sqn);
	uint32_t cur = MLX5_GET(modify_sq_in, cmd->in, sq_state);
	const void *sqc = MLX5_ADDR_OF(modify_sq_in, cmd->in, ctx);
	uint32_t next = MLX5_GET(sqc, sqc, state);
	uint64_t mask = MLX5_GET64(modify_sq_in, cmd->in, modify_bitmask);
	struct cx_sq *sq = cx_sq_lookup(cmd->core, sqn);

	if (!sq)
		return CX_BAD_RES(cmd, "SQ 0x%x", sqn);
	if (cur != sq->state)
		return CX_BAD_STATE(cmd, "SQ 0x%x is in state %u, not %u", sqn,
				    sq->state, cur);
	if (!cx_qstate_ok(cur, next))
		return CX_BAD_STATE(cmd, "SQ 0x%x: %u -> %u", sqn, cur, next);
	/* Rate limits and QoS groups are not announced. */
	if (mask & (CX_MODIFY_SQ_RL | CX_MODIFY_SQ_QOS_GROUP)) {
		if (MLX5_GET(sqc, sqc, packet_pacing_rate_limit_index) ||
		    MLX5_GET(sqc, sqc, qos_queue_group_id))
			return CX_BAD_PARAM(cmd, "rate limits not announced");
	}
	if (next == MLX5_SQC_STATE_RST) {
		sq->pc_seen = 0;
		sq->cc = 0;
		/* Work rung before the reset is forgotten with it. */
		sq->db_pending = false;
		sq->db_fresh = false;
	}
	if (next != MLX5_SQC_STATE_RDY) {
		/* A held UMR out of a queue that stops: never executed. */
		sq->umr_held = false;
		sq->umr_pass = false;
	}
	if (cur == MLX5_SQC_STATE_ERR && next == MLX5_SQC_STATE_RST) {
		struct cx_dp *dp = cx_dp_get(cmd->core);

		sq->err_resets++;
		if (dp)
			dp->sq_recoveries++;
	}
	sq->state = next;
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_sq_destroy(struct cx_cmd *cmd)
{
	uint32_t sqn = MLX5_GET(destroy_sq_in, cmd->in, sqn);
	struct cx_sq *sq = cx_tab_del(cmd->core, &cmd->core->func.nic->sq, sqn);
	struct cx_cq *cq;

	if (!sq)
		return CX_BAD_RES(cmd, "SQ 0x%x", sqn);
	cq = cx_cq_lookup(cmd->core, sq->cqn);
	if (cq && cq->refs)
		cq->refs--;
	cx_sq_free_obj(sq);
	return MLX5_CMD_STAT_OK;
}

static void cx_wq_fill(void *wq, const struct cx_wq *w)
{
	MLX5_SET(wq, wq, wq_type, w->type);
	MLX5_SET(wq, wq, end_padding_mode, w->end_padding_mode);
	MLX5_SET(wq, wq, pd, w->pd);
	MLX5_SET(wq, wq, uar_page, w->uar_page);
	MLX5_SET64(wq, wq, dbr_addr, w->dbr_addr);
	MLX5_SET(wq, wq, log_wq_stride, w->log_stride);
	MLX5_SET(wq, wq, log_wq_sz, w->log_sz);
	MLX5_SET(wq, wq, log_wq_pg_sz, w->log_pg_sz);
	MLX5_SET(wq, wq, lwm, w->lwm);
	if (w->log_num_strides) {
		MLX5_SET(wq, wq, log_wqe_num_of_strides,
			 w->log_num_strides - MLX5_MPWQE_LOG_NUM_STRIDES_BASE);
		MLX5_SET(wq, wq, log_wqe_stride_size,
			 w->log_stride_bytes - MLX5_MPWQE_LOG_STRIDE_SZ_BASE);
	}
}

uint8_t cx_sq_query(struct cx_cmd *cmd)
{
	uint32_t sqn = MLX5_GET(query_sq_in, cmd->in, sqn);
	struct cx_sq *sq = cx_sq_lookup(cmd->core, sqn);
	void *sqc = MLX5_ADDR_OF(query_sq_out, cmd->out, sq_context);

	if (!sq)
		return CX_BAD_RES(cmd, "SQ 0x%x", sqn);
	MLX5_SET(sqc, sqc, state, sq->state);
	MLX5_SET(sqc, sqc, cqn, sq->cqn);
	MLX5_SET(sqc, sqc, tis_lst_sz, sq->ntis);
	MLX5_SET(sqc, sqc, tis_num_0, sq->tisn);
	MLX5_SET(sqc, sqc, min_wqe_inline_mode, sq->min_inline);
	MLX5_SET(sqc, sqc, allow_multi_pkt_send_wqe, sq->allow_mpwqe);
	MLX5_SET(sqc, sqc, reg_umr, sq->reg_umr);
	MLX5_SET(sqc, sqc, flush_in_error_en, sq->flush_in_error_en);
	MLX5_SET(sqc, sqc, user_index, sq->user_index);
	cx_wq_fill(MLX5_ADDR_OF(sqc, sqc, wq), &sq->wq);
	MLX5_SET(wq, MLX5_ADDR_OF(sqc, sqc, wq), hw_counter, sq->cc);
	MLX5_SET(wq, MLX5_ADDR_OF(sqc, sqc, wq), sw_counter, sq->pc_seen);
	return MLX5_CMD_STAT_OK;
}

/* ---- RQ ---------------------------------------------------------------- */

static void cx_rq_free_obj(struct cx_rq *rq)
{
	if (!rq)
		return;
	cx_pas_free(&rq->wq.pas);
	free(rq);
}

uint8_t cx_rq_create(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	const void *rqc = MLX5_ADDR_OF(create_rq_in, cmd->in, ctx);
	uint32_t cqn = MLX5_GET(rqc, rqc, cqn);
	uint32_t cnt = MLX5_GET(rqc, rqc, counter_set_id);
	struct cx_cq *cq = cx_cq_lookup(core, cqn);
	struct cx_rq *rq;
	uint32_t id;
	uint8_t st;

	if (MLX5_GET(rqc, rqc, state) != MLX5_RQC_STATE_RST)
		return CX_BAD_PARAM(cmd, "RQ created in state %u",
				    MLX5_GET(rqc, rqc, state));
	if (MLX5_GET(rqc, rqc, mem_rq_type) != MLX5_RQC_MEM_RQ_TYPE_MEMORY_RQ_INLINE)
		return CX_BAD_PARAM(cmd, "RMP-based RQs not supported");
	if (MLX5_GET(rqc, rqc, hairpin) || MLX5_GET(rqc, rqc, delay_drop_en) ||
	    MLX5_GET(rqc, rqc, scatter_fcs))
		return CX_BAD_PARAM(cmd, "hairpin/delay drop/scatter FCS not announced");
	if (!cq)
		return CX_BAD_RES(cmd, "CQ 0x%x", cqn);
	if (cnt && !cx_qcnt_lookup(core, cnt))
		return CX_BAD_RES(cmd, "counter set 0x%x", cnt);

	rq = calloc(1, sizeof(*rq));
	if (!rq) {
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_NO_RES_ERR;
	}
	st = cx_wq_parse(cmd, MLX5_ADDR_OF(rqc, rqc, wq),
			 MLX5_BYTE_OFF(create_rq_in, ctx.wq.pas), &rq->wq,
			 false);
	if (st) {
		cx_rq_free_obj(rq);
		return st;
	}
	rq->cqn = cqn;
	rq->state = MLX5_RQC_STATE_RST;
	rq->vsd = MLX5_GET(rqc, rqc, vsd);
	rq->flush_in_error_en = MLX5_GET(rqc, rqc, flush_in_error_en);
	rq->mem_rq_type = MLX5_GET(rqc, rqc, mem_rq_type);
	rq->ts_format = MLX5_GET(rqc, rqc, ts_format);
	rq->counter_set_id = cnt;
	rq->user_index = MLX5_GET(rqc, rqc, user_index);
	if (cx_tab_add(core, &core->func.nic->rq, rq, &id)) {
		cx_rq_free_obj(rq);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	rq->rqn = id;
	cq->refs++;
	MLX5_SET(create_rq_out, cmd->out, rqn, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_rq_modify(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	uint32_t rqn = MLX5_GET(modify_rq_in, cmd->in, rqn);
	uint32_t cur = MLX5_GET(modify_rq_in, cmd->in, rq_state);
	const void *rqc = MLX5_ADDR_OF(modify_rq_in, cmd->in, ctx);
	uint32_t next = MLX5_GET(rqc, rqc, state);
	uint64_t mask = MLX5_GET64(modify_rq_in, cmd->in, modify_bitmask);
	struct cx_rq *rq = cx_rq_lookup(core, rqn);
	uint32_t cnt = MLX5_GET(rqc, rqc, counter_set_id);
	struct cx_cq *cq;

	if (!rq)
		return CX_BAD_RES(cmd, "RQ 0x%x", rqn);
	if (cur != rq->state)
		return CX_BAD_STATE(cmd, "RQ 0x%x is in state %u, not %u", rqn,
				    rq->state, cur);
	if (!cx_qstate_ok(cur, next))
		return CX_BAD_STATE(cmd, "RQ 0x%x: %u -> %u", rqn, cur, next);
	if (mask & MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_SCATTER_FCS &&
	    MLX5_GET(rqc, rqc, scatter_fcs))
		return CX_BAD_PARAM(cmd, "scatter FCS not announced");
	if (mask & MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_RQ_COUNTER_SET_ID &&
	    cnt && !cx_qcnt_lookup(core, cnt))
		return CX_BAD_RES(cmd, "counter set 0x%x", cnt);
	if (mask & MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_VSD)
		rq->vsd = MLX5_GET(rqc, rqc, vsd);
	if (mask & MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_RQ_COUNTER_SET_ID)
		rq->counter_set_id = cnt;
	/* An open LRO session out of service ends without a CQE. */
	if (next != MLX5_RQC_STATE_RDY)
		rq->lro.active = false;
	cq = cx_cq_lookup(core, rq->cqn);
	if (cq)
		cx_cq_comp_flush(core, cq);
	if (next == MLX5_RQC_STATE_RST) {
		rq->wqe_cc = 0;
		rq->stride_cc = 0;
		rq->ll_cur = 0;	/* data path */
		rq->fetched = false;
	}
	rq->state = next;
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_rq_destroy(struct cx_cmd *cmd)
{
	uint32_t rqn = MLX5_GET(destroy_rq_in, cmd->in, rqn);
	struct cx_rq *rq = cx_rq_lookup(cmd->core, rqn);
	struct cx_cq *cq;

	if (!rq)
		return CX_BAD_RES(cmd, "RQ 0x%x", rqn);
	if (rq->refs)
		return CX_BAD_STATE(cmd, "RQ 0x%x still named by %u TIRs/RQTs",
				    rqn, rq->refs);
	cx_tab_del(cmd->core, &cmd->core->func.nic->rq, rqn);
	cq = cx_cq_lookup(cmd->core, rq->cqn);
	if (cq)
		cx_cq_comp_flush(cmd->core, cq);
	if (cq && cq->refs)
		cq->refs--;
	cx_rq_free_obj(rq);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_rq_query(struct cx_cmd *cmd)
{
	uint32_t rqn = MLX5_GET(query_rq_in, cmd->in, rqn);
	struct cx_rq *rq = cx_rq_lookup(cmd->core, rqn);
	void *rqc = MLX5_ADDR_OF(query_rq_out, cmd->out, rq_context);

	if (!rq)
		return CX_BAD_RES(cmd, "RQ 0x%x", rqn);
	MLX5_SET(rqc, rqc, state, rq->state);
	MLX5_SET(rqc, rqc, cqn, rq->cqn);
	MLX5_SET(rqc, rqc, vsd, rq->vsd);
	MLX5_SET(rqc, rqc, counter_set_id, rq->counter_set_id);
	MLX5_SET(rqc, rqc, user_index, rq->user_index);
	MLX5_SET(rqc, rqc, flush_in_error_en, rq->flush_in_error_en);
	cx_wq_fill(MLX5_ADDR_OF(rqc, rqc, wq), &rq->wq);
	MLX5_SET(wq, MLX5_ADDR_OF(rqc, rqc, wq), hw_counter, rq->wqe_cc);
	return MLX5_CMD_STAT_OK;
}

static void cx_free_sq(struct cx_core *c, void *o)
{
	(void)c;
	cx_sq_free_obj(o);
}

static void cx_free_rq(struct cx_core *c, void *o)
{
	(void)c;
	cx_rq_free_obj(o);
}

void cx_queues_release_all(struct cx_core *core)
{
	cx_tab_clear(core, &core->func.nic->sq, cx_free_sq);
	cx_tab_clear(core, &core->func.nic->rq, cx_free_rq);
}
