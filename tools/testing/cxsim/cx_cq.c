// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: completion queues.  CREATE/MODIFY/QUERY/DESTROY_CQ decode the
 * context into struct cx_cq (cx_obj.h); the data path writes CQEs here.
 *
 * A CQE for producer counter pi goes to index pi & (nent - 1), in slots
 * of 64 << cqe_sz bytes; with 128-byte CQEs the 64-byte image is in the
 * second half (upstream mlx5_cqwq_get_wqe()).  The body is written first,
 * then the byte with the owner bit.  Before writing, the driver's
 * consumer index is read from the CQ's doorbell record (be32, low 24
 * bits): a CQ with nent CQEs not consumed is overrun, and as hardware
 * does the model raises a CQ error event (MLX5_EVENT_TYPE_CQ_ERROR) and
 * drops the CQE instead of overwriting one (unless the CQ has oi set).
 *
 * The CQ doorbell (UAR offset 0x20, 64-bit) is upstream mlx5_cq_arm():
 * be32 (sn << 28 | cmd | ci), be32 cqn.  An armed CQ posts one
 * completion EQE (data.comp.cqn) on its EQ at the next CQE and disarms;
 * arming with CQEs beyond ci posts it at once.  The arm's sequence number
 * (bits 29:28) must be the count of the CQ's completion events so far
 * (mod 4), as the driver's arm_sn counts them: an arm asked before the
 * driver saw the last event is stale and ignored (cq.arms_stale).  On an
 * asynchronous device (cx_async()) the arm takes effect once due, from the
 * host timer; a later arm meanwhile replaces the recorded one.
 *
 * Moderation (cq_max_count, cq_period in us; "0: moderation disabled", so
 * a CQ with either at 0 posts its EQE at the first CQE): an armed CQ posts
 * its EQE once cq_max_count CQEs came since the arm, or once cq_period
 * ran out, whichever is first.  The period starts at the first CQE after
 * the arm (cq_period_mode 1, START_FROM_CQE) or at the CQ's previous EQE
 * (mode 0, START_FROM_EQE: a CQE long after the last EQE goes out at
 * once).  eqe.comp.mod_timer counts the EQEs the period posted, at once
 * or from the timer; eqe.comp.mod_waited those from the timer only, which
 * the CQ waited for.  Time is the host's clock (QEMU's virtual clock),
 * through the one host timer (cx_timer_rearm()); without a host timer the
 * period counts as run out.
 *
 * CQE compression (cqe_comp_en, the basic layout of cx_datapath.h): the
 * RX CQEs of one step of the device's work (the frames one delivery of the
 * host brought) are held and go out as compressed blocks at its end, from
 * the host timer set to now (cx_cq_comp_timer()): a completion never waits
 * for a later frame.  A CQE joins the block when the title carries all it
 * needs (cx_cqe_comp_match()), up to CX_CQ_COMP_MAX; any other CQE of the
 * CQ (an error, a filler, a CQE that differs) writes the held ones first.
 * A block of one is written as a plain CQE.  The mini CQE arrays go out
 * before the title: the driver reads them once the title's owner bit
 * says the block is there.  Without a host timer nothing is held.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cx_kshim_dp.h"
#include "cx_datapath.h"
#include "cx_dp.h"

#define CX_LOG_MAX_CQ_SZ	22
/* cq.h MLX5_CQ_MODIFY_* (modify_field_select of MODIFY_CQ). */
#define CX_CQ_MODIFY_PERIOD	(1u << 0)
#define CX_CQ_MODIFY_COUNT	(1u << 1)
#define CX_CQ_MODIFY_OVERRUN	(1u << 2)
#define CX_CQ_MODIFY_PERIOD_MODE (1u << 4)

#define CX_CI_MASK		0xffffffu
#define CX_CQ_ERR_OVERRUN	1	/* cq_err syndrome: CQ overrun */

/* ---- CQ ---------------------------------------------------------------- */

static void cx_cq_free_obj(struct cx_cq *cq)
{
	if (!cq)
		return;
	cx_pas_free(&cq->pas);
	free(cq->comp_held);
	free(cq);
}

static bool cx_eq_valid(struct cx_core *core, uint32_t eqn)
{
	return eqn < CX_MAX_EQS && core->func.eq[eqn].valid;
}

/*
 * What CREATE_CQ may ask of compression: the basic layout (no
 * enhanced_cqe_compression), 64-byte CQEs (no cqe_compression_128), the
 * hash, checksum or checksum + stride index mini CQE format, and only
 * where announced (cx_params.cqe_comp).  Sets the
 * syndrome and returns nonzero when refused.
 */
static int cx_cq_comp_check(struct cx_cmd *cmd, const void *cqc)
{
	uint32_t fmt = MLX5_GET(cqc, cqc, mini_cqe_res_format);

	if (!cmd->core->params.cqe_comp)
		return CX_BAD_PARAM(cmd, "CQE compression not announced");
	if (MLX5_GET(cqc, cqc, cqe_sz))
		return CX_BAD_PARAM(cmd, "CQE compression with 128-byte CQEs");
	if (MLX5_GET(cqc, cqc, cqe_compression_layout))
		return CX_BAD_PARAM(cmd, "CQE compression layout %u",
				    MLX5_GET(cqc, cqc, cqe_compression_layout));
	if (fmt != CX_CQE_FORMAT_HASH && fmt != CX_CQE_FORMAT_CSUM &&
	    fmt != CX_CQE_FORMAT_CSUM_STRIDX)
		return CX_BAD_PARAM(cmd, "mini_cqe_res_format %u", fmt);
	return 0;
}

uint8_t cx_cq_create(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	const void *cqc = MLX5_ADDR_OF(create_cq_in, cmd->in, cq_context);
	uint32_t log_size = MLX5_GET(cqc, cqc, log_cq_size);
	uint32_t cqe_sz = MLX5_GET(cqc, cqc, cqe_sz);
	uint32_t eqn = MLX5_GET(cqc, cqc, c_eqn_or_apu_element);
	uint32_t uar = MLX5_GET(cqc, cqc, uar_page);
	uint32_t lps = MLX5_GET(cqc, cqc, log_page_size);
	struct cx_cq *cq;
	uint32_t id;

	if (MLX5_GET(create_cq_in, cmd->in, cq_umem_valid) ||
	    MLX5_GET(cqc, cqc, dbr_umem_valid) || MLX5_GET(cqc, cqc, apu_cq))
		return CX_BAD_PARAM(cmd, "umem/APU CQs not supported");
	if (log_size > CX_LOG_MAX_CQ_SZ)
		return CX_BAD_PARAM(cmd, "log_cq_size %u", log_size);
	if (cqe_sz > 1)
		return CX_BAD_PARAM(cmd, "cqe_sz %u", cqe_sz);
	if (MLX5_GET(cqc, cqc, cqe_comp_en) && cx_cq_comp_check(cmd, cqc))
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	if (MLX5_GET(cqc, cqc, cq_period_mode) > 1)
		return CX_BAD_PARAM(cmd, "cq_period_mode %u",
				    MLX5_GET(cqc, cqc, cq_period_mode));
	if (!cx_eq_valid(core, eqn))
		return CX_BAD_RES(cmd, "EQ %u", eqn);
	if (!cx_uar_allocated(core, uar))
		return CX_BAD_RES(cmd, "UAR %u", uar);

	cq = calloc(1, sizeof(*cq));
	if (!cq) {
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_NO_RES_ERR;
	}
	if (cx_pas_parse(&cq->pas, cmd->in, cmd->inlen,
			 MLX5_BYTE_OFF(create_cq_in, pas),
			 (uint64_t)(64u << cqe_sz) << log_size, lps,
			 MLX5_GET(cqc, cqc, page_offset) * 64)) {
		free(cq);
		return CX_BAD_PARAM(cmd, "pas: too few or unaligned pages");
	}
	cq->log_size = log_size;
	cq->cqe_sz = cqe_sz;
	cq->uar_page = uar;
	cq->eqn = eqn;
	cq->period = MLX5_GET(cqc, cqc, cq_period);
	cq->max_count = MLX5_GET(cqc, cqc, cq_max_count);
	cq->period_mode = MLX5_GET(cqc, cqc, cq_period_mode);
	cq->oi = MLX5_GET(cqc, cqc, oi);
	cq->cc = MLX5_GET(cqc, cqc, cc);
	cq->dbr_addr = MLX5_GET64(cqc, cqc, dbr_addr);
	if (MLX5_GET(cqc, cqc, cqe_comp_en)) {
		cq->comp_en = true;
		cq->comp_fmt = MLX5_GET(cqc, cqc, mini_cqe_res_format);
		cq->comp_held = calloc(CX_CQ_COMP_MAX, sizeof(*cq->comp_held));
		if (!cq->comp_held) {
			cx_cq_free_obj(cq);
			cmd->syndrome = CX_SYND_NO_RES;
			return MLX5_CMD_STAT_NO_RES_ERR;
		}
	}
	if (cx_tab_add(core, &core->func.nic->cq, cq, &id)) {
		cx_cq_free_obj(cq);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	cq->cqn = id;
	MLX5_SET(create_cq_out, cmd->out, cqn, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_cq_destroy(struct cx_cmd *cmd)
{
	uint32_t cqn = MLX5_GET(destroy_cq_in, cmd->in, cqn);
	struct cx_cq *cq = cx_cq_lookup(cmd->core, cqn);

	if (!cq)
		return CX_BAD_RES(cmd, "CQ 0x%x", cqn);
	if (cq->refs)
		return CX_BAD_STATE(cmd, "CQ 0x%x still has %u queues", cqn,
				    cq->refs);
	cx_tab_del(cmd->core, &cmd->core->func.nic->cq, cqn);
	cx_cq_free_obj(cq);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_cq_query(struct cx_cmd *cmd)
{
	uint32_t cqn = MLX5_GET(query_cq_in, cmd->in, cqn);
	struct cx_cq *cq = cx_cq_lookup(cmd->core, cqn);
	void *cqc = MLX5_ADDR_OF(query_cq_out, cmd->out, cq_context);

	if (!cq)
		return CX_BAD_RES(cmd, "CQ 0x%x", cqn);
	MLX5_SET(cqc, cqc, log_cq_size, cq->log_size);
	MLX5_SET(cqc, cqc, cqe_sz, cq->cqe_sz);
	MLX5_SET(cqc, cqc, uar_page, cq->uar_page);
	MLX5_SET(cqc, cqc, c_eqn_or_apu_element, cq->eqn);
	MLX5_SET(cqc, cqc, cq_period, cq->period);
	MLX5_SET(cqc, cqc, cq_max_count, cq->max_count);
	MLX5_SET(cqc, cqc, cq_period_mode, cq->period_mode);
	MLX5_SET(cqc, cqc, oi, cq->oi);
	MLX5_SET(cqc, cqc, cc, cq->cc);
	MLX5_SET(cqc, cqc, log_page_size, cq->pas.log_page_size);
	MLX5_SET(cqc, cqc, producer_counter, cq->prod & 0xffffff);
	MLX5_SET(cqc, cqc, st, cq->armed ? 0x6 : 0xa);	/* armed / fired */
	MLX5_SET64(cqc, cqc, dbr_addr, cq->dbr_addr);
	return MLX5_CMD_STAT_OK;
}

enum {
	CX_CQ_OPMOD_MODIFY = 0,
	CX_CQ_OPMOD_RESIZE = 1,
};

uint8_t cx_cq_modify(struct cx_cmd *cmd)
{
	uint32_t cqn = MLX5_GET(modify_cq_in, cmd->in, cqn);
	struct cx_cq *cq = cx_cq_lookup(cmd->core, cqn);
	const void *cqc = MLX5_ADDR_OF(modify_cq_in, cmd->in, cq_context);
	uint32_t sel = MLX5_GET(modify_cq_in, cmd->in,
				modify_field_select_resize_field_select.
				modify_field_select.modify_field_select);

	if (!cq)
		return CX_BAD_RES(cmd, "CQ 0x%x", cqn);
	/* Resizing is an RDMA feature the Ethernet driver does not use. */
	if (cmd->op_mod != CX_CQ_OPMOD_MODIFY)
		return CX_BAD_PARAM(cmd, "op_mod %u (resize) not supported",
				    cmd->op_mod);
	if (sel & CX_CQ_MODIFY_PERIOD_MODE &&
	    MLX5_GET(cqc, cqc, cq_period_mode) > 1)
		return CX_BAD_PARAM(cmd, "cq_period_mode %u",
				    MLX5_GET(cqc, cqc, cq_period_mode));
	if (sel & CX_CQ_MODIFY_PERIOD)
		cq->period = MLX5_GET(cqc, cqc, cq_period);
	if (sel & CX_CQ_MODIFY_COUNT)
		cq->max_count = MLX5_GET(cqc, cqc, cq_max_count);
	if (sel & CX_CQ_MODIFY_OVERRUN)
		cq->oi = MLX5_GET(cqc, cqc, oi);
	if (sel & CX_CQ_MODIFY_PERIOD_MODE)
		cq->period_mode = MLX5_GET(cqc, cqc, cq_period_mode);
	return MLX5_CMD_STAT_OK;
}

/* ---- CQEs --------------------------------------------------------------- */

static int cx_cq_addr(const struct cx_cq *cq, uint32_t idx, uint64_t *addr)
{
	uint64_t slot = 64ull << cq->cqe_sz;

	return cx_pas_addr(&cq->pas, idx * slot + (cq->cqe_sz ? 64 : 0), addr);
}

static uint32_t cx_cq_ci(struct cx_core *core, const struct cx_cq *cq)
{
	uint8_t b[4];

	if (cx_dma_read_as(core, CX_DMA_DBR, cq->dbr_addr, b, 4))
		return cq->prod & CX_CI_MASK;
	return cx_get_be32(b) & CX_CI_MASK;
}

static void cx_cq_event(struct cx_core *core, struct cx_cq *cq)
{
	struct mlx5_eqe eqe;
	struct cx_dp *dp = core->dp;

	cq->armed = false;
	cq->events++;
	cq->mod_cqes = 0;
	cq->mod_deadline = 0;
	if (core->host.now_ns)
		cq->last_eqe_ns = cx_now(core);
	memset(&eqe, 0, sizeof(eqe));
	eqe.type = MLX5_EVENT_TYPE_COMP;
	eqe.data.comp.cqn = cpu_to_be32(cq->cqn);
	if (!cx_eq_post(core, (int)cq->eqn, &eqe) && dp)
		dp->eqe_comp++;
}

/*
 * @cq is armed and has @cq->mod_cqes CQEs since: post its EQE now, or
 * leave it to the count or the period.
 */
static void cx_cq_moderate(struct cx_core *core, struct cx_cq *cq)
{
	struct cx_dp *dp = core->dp;
	uint64_t now, start, deadline;

	if (!cq->max_count || !cq->period || !core->host.timer_mod ||
	    !core->host.now_ns) {
		cx_cq_event(core, cq);
		return;
	}
	if (cq->mod_cqes >= cq->max_count) {
		dp->cq_mod_count++;
		cx_cq_event(core, cq);
		return;
	}
	if (cq->mod_deadline)
		return;
	now = cx_now(core);
	start = cq->period_mode == MLX5_CQ_PERIOD_MODE_START_FROM_CQE ?
		now : cq->last_eqe_ns;
	deadline = start + (uint64_t)cq->period * 1000;
	if (deadline <= now) {
		dp->cq_mod_timer++;
		cx_cq_event(core, cq);
		return;
	}
	cq->mod_deadline = deadline;
	if (!dp->cq_deadline || deadline < dp->cq_deadline) {
		dp->cq_deadline = deadline;
		cx_timer_rearm(core);
	}
}

void cx_cq_timer(struct cx_core *core)
{
	struct cx_dp *dp = core->dp;
	uint64_t now, next = 0;
	struct cx_tab *t;
	uint32_t i;

	if (!dp || !core->func.nic || !dp->cq_deadline)
		return;
	now = cx_now(core);
	t = &core->func.nic->cq;
	for (i = 0; i < t->cap; i++) {
		struct cx_cq *cq = t->slot[i];

		if (!cq || !cq->mod_deadline)
			continue;
		if (cq->mod_deadline > now) {
			if (!next || cq->mod_deadline < next)
				next = cq->mod_deadline;
			continue;
		}
		cq->mod_deadline = 0;
		if (cq->armed) {
			dp->cq_mod_timer++;
			dp->cq_mod_waited++;
			cx_cq_event(core, cq);
		}
	}
	dp->cq_deadline = next;
	/* cx_core_timer() rearms the host timer after the commands' turn. */
}

/*
 * Room for @n more CQEs?  If not, and overrun is not ignored, the CQ
 * overruns: the CQ error event on the first, counted.
 */
static bool cx_cq_room(struct cx_core *core, struct cx_cq *cq, uint32_t n)
{
	struct cx_dp *dp = core->dp;
	uint32_t nent = 1u << cq->log_size;
	uint32_t pending;

	pending = (cq->prod - cx_cq_ci(core, cq)) & CX_CI_MASK;
	if (pending + n > nent && !cq->oi) {
		dp->cqe_dropped++;
		if (!cq->overrun) {
			struct mlx5_eqe eqe;

			cq->overrun = true;
			dp->cq_overruns++;
			cx_model_error(core, CX_MERR_CQ_OVERRUN,
				       "cxsim: CQ 0x%x overrun (%u CQEs not consumed)\n",
				       cq->cqn, pending);
			memset(&eqe, 0, sizeof(eqe));
			eqe.type = MLX5_EVENT_TYPE_CQ_ERROR;
			eqe.data.cq_err.cqn = cpu_to_be32(cq->cqn);
			eqe.data.cq_err.syndrome = CX_CQ_ERR_OVERRUN;
			cx_eq_event(core, MLX5_EVENT_TYPE_CQ_ERROR, &eqe);
		}
		return false;
	}
	cq->overrun = false;
	return true;
}

/* @n CQEs were written: count them, moderate the armed CQ's EQE. */
static void cx_cq_written(struct cx_core *core, struct cx_cq *cq, uint32_t n)
{
	cq->prod += n;
	cq->cqes += n;
	if (cq->armed) {
		cq->mod_cqes += n;
		cx_cq_moderate(core, cq);
	}
}

/* One plain CQE (cx_cq_write() without the held ones). */
static int cx_cq_put(struct cx_core *core, struct cx_cq *cq, const void *img)
{
	struct cx_dp *dp = core->dp;
	uint64_t addr;

	if (!cx_cq_room(core, cq, 1))
		return -1;
	if (cx_cq_addr(cq, cx_cqe_index(cq->prod, cq->log_size), &addr) ||
	    cx_dma_write_entry(core, CX_DMAW_CQE, addr, img, CX_CQE_SIZE)) {
		dp->cqe_dropped++;
		return -1;
	}
	cx_cq_written(core, cq, 1);
	return 0;
}

/*
 * The test port's BAD_RX_CQE title kinds: the block's title miscounts its
 * CQEs.  One-shot.
 */
static void cx_cq_bad_title(struct cx_core *core, const struct cx_cq *cq,
			    struct mlx5_cqe64 *t)
{
	uint32_t n;

	switch (cx_dp_bad_rx_cqe(core, be32_to_cpu(t->flags_rqpn) & 0xffffff)) {
	case CX_TP_BAD_CQE_TITLE_ZERO:
		n = 0;
		break;
	case CX_TP_BAD_CQE_TITLE_LONG:
		n = (1u << cq->log_size) + 1;
		break;
	default:
		return;
	}
	cx_log(core, "cxsim: CQ 0x%x: injected compressed block title counting %u CQEs, not %u\n",
	       cq->cqn, n, be32_to_cpu(t->byte_cnt));
	t->byte_cnt = cpu_to_be32(n);
	cx_dp_bad_rx_cqe_taken(core);
}

/* The @n held CQEs as one block from cq->prod: 0, or -1 (DMA failed). */
static int cx_cq_put_block(struct cx_core *core, struct cx_cq *cq, uint32_t n)
{
	uint8_t arrs[CX_CQ_COMP_MAX / CX_MINI_PER_ARRAY][CX_CQE_SIZE];
	uint8_t title[CX_CQE_SIZE];
	uint32_t k, narr;
	uint64_t addr;

	cx_cqe_comp_block(title, arrs, (const uint8_t (*)[64])cq->comp_held,
			  n, cq->comp_fmt, cq->prod, cq->log_size);
	cx_cq_bad_title(core, cq, (struct mlx5_cqe64 *)title);
	narr = (n + CX_MINI_PER_ARRAY - 1) / CX_MINI_PER_ARRAY;
	for (k = 0; k < narr; k++) {
		uint32_t pi = cq->prod + cx_cqe_comp_arr_slot(k);

		if (cx_cq_addr(cq, cx_cqe_index(pi, cq->log_size), &addr) ||
		    cx_dma_write_entry(core, CX_DMAW_CQE, addr, arrs[k],
				       CX_CQE_SIZE))
			return -1;
	}
	/* The title last: its owner bit hands the block over. */
	if (cx_cq_addr(cq, cx_cqe_index(cq->prod, cq->log_size), &addr) ||
	    cx_dma_write_entry(core, CX_DMAW_CQE, addr, title, CX_CQE_SIZE))
		return -1;
	core->dp->cqe_comp_blocks++;
	core->dp->cqe_comp_cqes += n;
	cq->comp_blocks++;
	cq->comp_cqes += n;
	cx_cq_written(core, cq, n);
	return 0;
}

void cx_cq_comp_flush(struct cx_core *core, struct cx_cq *cq)
{
	uint32_t i, n = cq->comp_n, nent = 1u << cq->log_size;

	if (!n)
		return;
	cq->comp_n = 0;
	if (n > 1 && (cq->oi ||
		      ((cq->prod - cx_cq_ci(core, cq)) & CX_CI_MASK) + n <= nent)) {
		if (cx_cq_put_block(core, cq, n))
			core->dp->cqe_dropped += n;
		return;
	}
	/*
	 * One CQE, or a block that does not fit (the CQ overruns at the
	 * first that does not): plain CQEs, each built for its own slot.
	 */
	for (i = 0; i < n; i++) {
		struct mlx5_cqe64 *c = (struct mlx5_cqe64 *)cq->comp_held[i];

		c->validity_iteration_count = (uint8_t)(cq->prod >> cq->log_size);
		c->op_own = (uint8_t)((c->op_own & ~1) |
				      cx_cqe_owner(cq->prod, cq->log_size));
		if (cx_cq_put(core, cq, c) && cq->overrun) {
			core->dp->cqe_dropped += n - i - 1;
			return;
		}
	}
}

int cx_cq_write(struct cx_core *core, struct cx_cq *cq, const void *img)
{
	if (!cx_dp_get(core))
		return -1;
	cx_cq_comp_flush(core, cq);
	return cx_cq_put(core, cq, img);
}

int cx_cq_write_rx(struct cx_core *core, struct cx_cq *cq, const void *img,
		   bool striding)
{
	struct cx_dp *dp = cx_dp_get(core);
	uint32_t n;

	if (!dp)
		return -1;
	if (!cq->comp_en || !core->host.timer_mod || !core->host.now_ns)
		return cx_cq_write(core, cq, img);
	n = cq->comp_n;
	if (n && (n == CX_CQ_COMP_MAX || striding != cq->comp_striding ||
		  !cx_cqe_comp_match(cq->comp_held[0], cq->comp_held[n - 1],
				     img, cq->comp_fmt, striding))) {
		cx_cq_comp_flush(core, cq);
		n = 0;
	}
	memcpy(cq->comp_held[n], img, CX_CQE_SIZE);
	cq->comp_n = n + 1;
	cq->comp_striding = striding;
	if (!dp->comp_deadline) {
		/* Due now: the host timer runs once this step is over. */
		dp->comp_deadline = cx_now(core);
		cx_timer_rearm(core);
	}
	return 0;
}

void cx_cq_comp_timer(struct cx_core *core)
{
	struct cx_dp *dp = core->dp;
	struct cx_tab *t;
	uint32_t i;

	if (!dp || !core->func.nic || !dp->comp_deadline)
		return;
	dp->comp_deadline = 0;
	t = &core->func.nic->cq;
	for (i = 0; i < t->cap; i++)
		if (t->slot[i])
			cx_cq_comp_flush(core, t->slot[i]);
}

static void cx_cq_arm(struct cx_core *core, struct cx_cq *cq, uint64_t value);

/* Arms the asynchronous engine recorded, applied once due. */
void cx_cq_arm_timer(struct cx_core *core)
{
	struct cx_dp *dp = core->dp;
	uint64_t now, next = 0;
	struct cx_tab *t;
	uint32_t i;

	if (!dp || !core->func.nic || !dp->arm_deadline)
		return;
	now = cx_now(core);
	if (dp->arm_deadline > now)
		return;
	t = &core->func.nic->cq;
	for (i = 0; i < t->cap; i++) {
		struct cx_cq *cq = t->slot[i];

		if (!cq || !cx_async_take(now, &cq->arm_pending,
					  cq->arm_due_ns, &next))
			continue;
		dp->async_arms++;
		cx_cq_arm(core, cq, cq->arm_db);
	}
	dp->arm_deadline = next;
	/* cx_core_timer() rearms the host timer. */
}

void cx_cq_doorbell(struct cx_core *core, uint32_t uar_page, uint64_t value)
{
	struct cx_dp *dp = cx_dp_get(core);
	uint32_t cqn = __builtin_bswap32((uint32_t)(value >> 32)) & CX_CI_MASK;
	struct cx_cq *cq;

	if (!dp || !core->func.nic)
		return;
	dp->cq_doorbells++;
	cq = cx_cq_lookup(core, cqn);
	if (!cq) {
		cx_model_error(core, CX_MERR_DB_UNKNOWN_CQ,
			       "cxsim: CQ doorbell for CQ 0x%x: no such CQ\n", cqn);
		return;
	}
	if (cq->uar_page != uar_page) {
		/* Not the page the CQ was created with: hardware ignores it. */
		dp->cq_arms_wrong_uar++;
		cq->arms_wrong_uar++;
		cx_model_error(core, CX_MERR_DB_WRONG_UAR_CQ,
			       "cxsim: CQ doorbell for CQ 0x%x on UAR %u, its UAR is %u\n",
			       cqn, uar_page, cq->uar_page);
		return;
	}
	dp->cq_arms++;
	cq->arms++;
	if (cx_async(core)) {
		/* Recorded; a later arm replaces it (cx_cq_arm_timer()). */
		cq->arm_db = value;
		cx_async_defer(core, &cq->arm_pending, &cq->arm_due_ns,
			       &dp->arm_deadline);
		return;
	}
	cx_cq_arm(core, cq, value);
}

/* The device takes an arm doorbell's @value (cx_cq_doorbell()). */
static void cx_cq_arm(struct cx_core *core, struct cx_cq *cq, uint64_t value)
{
	uint32_t w0 = __builtin_bswap32((uint32_t)value);
	uint32_t ci = w0 & CX_CI_MASK, pending;

	if ((w0 >> 28 & 3) != (cq->events & 3)) {
		/* Asked before the driver saw the last event: stale. */
		core->dp->cq_arms_stale++;
		cq->arms_stale++;
		return;
	}
	cq->arm_sn = w0 >> 28 & 3;
	cq->arm_ci = ci;
	cq->armed = true;
	cq->armed_solicited = (w0 & MLX5_CQ_DB_REQ_NOT_SOL) != 0;
	pending = (cq->prod - ci) & CX_CI_MASK;
	cq->mod_cqes = 0;
	if (pending && pending <= (1u << cq->log_size)) {
		cq->mod_cqes = pending;
		cx_cq_moderate(core, cq);
	}
}

static void cx_free_cq(struct cx_core *c, void *o)
{
	(void)c;
	cx_cq_free_obj(o);
}

void cx_cq_release_all(struct cx_core *core)
{
	cx_tab_clear(core, &core->func.nic->cq, cx_free_cq);
}
