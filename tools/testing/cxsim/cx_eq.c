// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: event queues.
 *
 * An EQ is a ring of 2^log_eq_size 64-byte struct mlx5_eqe in guest pages
 * (the pas list of CREATE_EQ).  The model writes EQE number p at index
 * p & (nent - 1) with owner bit (p >> log_nent) & 1: the driver starts
 * with every owner bit 1 and takes an EQE when its owner bit equals the
 * lap parity of its consumer index (upstream eq.c next_eqe_sw()), so lap 0
 * writes 0.  An armed EQ raises its MSI-X vector on the next EQE and
 * disarms; arming with EQEs not yet consumed fires at once.  The model
 * never overwrites an EQE the driver has not consumed: it counts an
 * overrun and drops the event instead.
 */
#include <stdlib.h>
#include <string.h>

#include "cx_kshim.h"
#include "cx_priv.h"
#include "cx_dp.h"

#define CX_EQE_SIZE		64
#define CX_EQ_MAX_LOG_PAGE	18
#define CX_CI_MASK		0xffffffu

static uint32_t cx_eq_pending(const struct cx_eq *eq)
{
	return (eq->prod - eq->cons) & CX_CI_MASK;
}

static void cx_eq_free(struct cx_core *core, unsigned int eqn)
{
	struct cx_eq *eq = &core->func.eq[eqn];

	free(eq->pas);
	memset(eq, 0, sizeof(*eq));
}

void cx_eq_release_all(struct cx_core *core)
{
	unsigned int i;

	for (i = 0; i < CX_MAX_EQS; i++)
		if (core->func.eq[i].valid || core->func.eq[i].pas)
			cx_eq_free(core, i);
}

int cx_eq_find(struct cx_core *core, unsigned int event_type)
{
	unsigned int i;

	if (event_type >= 256)
		return -1;
	for (i = 0; i < CX_MAX_EQS; i++) {
		const struct cx_eq *eq = &core->func.eq[i];

		if (eq->valid &&
		    (eq->events[event_type / 64] >> (event_type % 64)) & 1)
			return (int)i;
	}
	return -1;
}

static void cx_eq_fire(struct cx_core *core, struct cx_eq *eq)
{
	eq->armed = false;
	cx_msix(core, eq->intr);
}

int cx_eq_post(struct cx_core *core, int eqn, void *eqe_buf)
{
	struct mlx5_eqe *eqe = eqe_buf;
	struct cx_eq *eq;
	uint32_t nent, idx;
	uint64_t off, page_size, addr;

	if (eqn < 0 || eqn >= CX_MAX_EQS || !core->func.eq[eqn].valid) {
		core->stats.eqe_dropped++;
		return -1;
	}
	eq = &core->func.eq[eqn];
	nent = 1u << eq->log_nent;
	if (cx_eq_pending(eq) >= nent) {
		eq->overruns++;
		core->stats.eq_overruns++;
		cx_model_error(core, CX_MERR_EQ_OVERRUN,
			       "cxsim: EQ %d overrun, event 0x%x dropped\n",
			       eqn, eqe->type);
		return -1;
	}
	idx = eq->prod & (nent - 1);
	off = (uint64_t)idx * CX_EQE_SIZE;
	page_size = (uint64_t)CX_PAGE_SIZE << eq->log_page_size;
	addr = eq->pas[off / page_size] + off % page_size;
	eqe->owner = (eq->prod >> eq->log_nent) & 1;
	/* Body first, then the byte holding the owner bit. */
	if (cx_dma_write_entry(core, CX_DMAW_EQE, addr, eqe, CX_EQE_SIZE)) {
		core->stats.eqe_dropped++;
		return -1;
	}
	eq->prod++;
	eq->posted++;
	core->stats.eqe_posted++;
	if (eq->armed)
		cx_eq_fire(core, eq);
	return 0;
}

int cx_eq_event(struct cx_core *core, unsigned int event_type, void *eqe)
{
	int eqn = cx_eq_find(core, event_type);

	if (eqn < 0) {
		core->stats.eqe_dropped++;
		return -1;
	}
	return cx_eq_post(core, eqn, eqe);
}

static void cx_eq_arm(struct cx_core *core, struct cx_eq *eq);

void cx_eq_flood(struct cx_core *core)
{
	struct cx_faults *f = &core->faults;
	struct mlx5_eqe eqe;
	struct cx_eq *eq;
	int eqn;

	if (!f->eq_flood)
		return;
	eqn = cx_eq_find(core, MLX5_EVENT_TYPE_PORT_CHANGE);
	if (eqn < 0)
		return;
	eq = &core->func.eq[eqn];
	while (f->eq_flood &&
	       cx_eq_pending(eq) < (1u << eq->log_nent) / 2) {
		memset(&eqe, 0, sizeof(eqe));
		eqe.type = MLX5_EVENT_TYPE_PORT_CHANGE;
		eqe.sub_type = f->eq_flood_subtype;
		eqe.data.port.port = 1 << 4;
		if (cx_eq_post(core, eqn, &eqe))
			return;
		f->eq_flood--;
		core->stats.eq_flood_posted++;
		if (!f->eq_flood)
			f->eq_flood_end_ns = cx_now(core);
	}
}

void cx_eq_doorbell(struct cx_core *core, uint32_t uar_page, uint32_t val,
		    bool arm)
{
	uint32_t eqn = val >> 24;
	struct cx_eq *eq;

	core->stats.eq_doorbells++;
	if (eqn >= CX_MAX_EQS || !core->func.eq[eqn].valid) {
		cx_model_error(core, CX_MERR_DB_UNKNOWN_EQ,
			       "cxsim: doorbell of EQ %u on UAR %u: no such EQ\n",
			       eqn, uar_page);
		return;
	}
	if (core->func.eq[eqn].uar_page != uar_page) {
		cx_model_error(core, CX_MERR_DB_WRONG_UAR_EQ,
			       "cxsim: doorbell of EQ %u on UAR %u, its UAR is %u\n",
			       eqn, uar_page, core->func.eq[eqn].uar_page);
		return;
	}
	eq = &core->func.eq[eqn];
	if (((eq->prod - val) & CX_CI_MASK) > (1u << eq->log_nent)) {
		/*
		 * A consumer index ahead of the producer (or more than a ring
		 * behind): EQEs the device never wrote cannot be consumed.
		 * Refused, the doorbell is dropped.
		 */
		core->stats.eq_ci_bad++;
		cx_model_error(core, CX_MERR_EQ_CI_AHEAD,
			       "cxsim: EQ %u consumer index 0x%x beyond producer 0x%x: refused\n",
			       eqn, val & CX_CI_MASK, eq->prod & CX_CI_MASK);
		return;
	}
	eq->cons = val & CX_CI_MASK;
	cx_eq_flood(core);
	if (!arm)
		return;
	if (cx_async(core)) {
		/* Taken once due (cx_eq_timer()); the index is already. */
		cx_async_defer(core, &eq->arm_pending, &eq->arm_due_ns,
			       &core->eq_arm_deadline);
		return;
	}
	cx_eq_arm(core, eq);
}

/* The device takes an arm: an interrupt at once if EQEs are pending. */
static void cx_eq_arm(struct cx_core *core, struct cx_eq *eq)
{
	eq->armed = true;
	if (cx_eq_pending(eq) && cx_eq_pending(eq) <= (1u << eq->log_nent))
		cx_eq_fire(core, eq);
}

void cx_eq_timer(struct cx_core *core)
{
	uint64_t now, next = 0;
	unsigned int i;

	if (!core->eq_arm_deadline)
		return;
	now = cx_now(core);
	if (core->eq_arm_deadline > now)
		return;
	for (i = 0; i < CX_MAX_EQS; i++) {
		struct cx_eq *eq = &core->func.eq[i];

		if (eq->valid && cx_async_take(now, &eq->arm_pending,
					       eq->arm_due_ns, &next))
			cx_eq_arm(core, eq);
	}
	core->eq_arm_deadline = next;
	/* cx_core_timer() rearms the host timer. */
}

static uint8_t cx_eq_bad(struct cx_cmd *cmd, const char *why)
{
	cx_log(cmd->core, "cxsim: CREATE_EQ: %s\n", why);
	cmd->syndrome = CX_SYND_BAD_PARAM;
	return MLX5_CMD_STAT_BAD_PARAM_ERR;
}

uint8_t cx_eq_create(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	const void *eqc = MLX5_ADDR_OF(create_eq_in, cmd->in, eq_context_entry);
	const uint8_t *pas = MLX5_ADDR_OF(create_eq_in, cmd->in, pas);
	const uint8_t *mask = MLX5_ADDR_OF(create_eq_in, cmd->in, event_bitmask);
	uint32_t log_nent = MLX5_GET(eqc, eqc, log_eq_size);
	uint32_t uar = MLX5_GET(eqc, eqc, uar_page);
	uint32_t intr = MLX5_GET(eqc, eqc, intr);
	uint32_t lps = MLX5_GET(eqc, eqc, log_page_size);
	size_t have = (cmd->inlen - MLX5_ST_SZ_BYTES(create_eq_in)) / 8;
	uint64_t bytes, page_size, need;
	struct cx_eq *eq;
	unsigned int i, eqn;

	if (log_nent > CX_LOG_MAX_EQ_SZ)
		return cx_eq_bad(cmd, "log_eq_size too large");
	if (!cx_uar_allocated(core, uar))
		return cx_eq_bad(cmd, "uar_page not allocated");
	if (intr >= CX_MSIX_VECTORS)
		return cx_eq_bad(cmd, "intr beyond the MSI-X vectors");
	if (lps > CX_EQ_MAX_LOG_PAGE)
		return cx_eq_bad(cmd, "log_page_size too large");
	if (MLX5_GET(eqc, eqc, page_offset))
		return cx_eq_bad(cmd, "page_offset not supported");
	bytes = (uint64_t)CX_EQE_SIZE << log_nent;
	page_size = (uint64_t)CX_PAGE_SIZE << lps;
	need = (bytes + page_size - 1) / page_size;
	if (have < need)
		return cx_eq_bad(cmd, "fewer pas than the EQ needs");
	for (i = 0; i < need; i++)
		if (cx_get_be64(pas + 8 * i) & (page_size - 1))
			return cx_eq_bad(cmd, "unaligned page address");

	for (eqn = 0; eqn < CX_MAX_EQS; eqn++)
		if (!core->func.eq[eqn].valid)
			break;
	if (eqn == CX_MAX_EQS) {
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	eq = &core->func.eq[eqn];
	memset(eq, 0, sizeof(*eq));
	eq->pas = calloc(need, sizeof(*eq->pas));
	if (!eq->pas) {
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_NO_RES_ERR;
	}
	for (i = 0; i < need; i++)
		eq->pas[i] = cx_get_be64(pas + 8 * i);
	for (i = 0; i < 4; i++)
		eq->events[i] = cx_get_be64(mask + 8 * i);
	eq->npas = need;
	eq->log_nent = log_nent;
	eq->log_page_size = lps;
	eq->intr = intr;
	eq->uar_page = uar;
	eq->valid = true;
	cx_obj_get(core, CX_OBJ_EQ);
	MLX5_SET(create_eq_out, cmd->out, eq_number, eqn);
	return MLX5_CMD_STAT_OK;
}

static struct cx_eq *cx_eq_lookup(struct cx_cmd *cmd, uint32_t eqn)
{
	if (eqn >= CX_MAX_EQS || !cmd->core->func.eq[eqn].valid) {
		cmd->syndrome = CX_SYND_BAD_PARAM;
		return NULL;
	}
	return &cmd->core->func.eq[eqn];
}

uint8_t cx_eq_destroy(struct cx_cmd *cmd)
{
	uint32_t eqn = MLX5_GET(destroy_eq_in, cmd->in, eq_number);

	if (!cx_eq_lookup(cmd, eqn))
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	cx_eq_free(cmd->core, eqn);
	cx_obj_put(cmd->core, CX_OBJ_EQ);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_eq_query(struct cx_cmd *cmd)
{
	uint32_t eqn = MLX5_GET(query_eq_in, cmd->in, eq_number);
	struct cx_eq *eq = cx_eq_lookup(cmd, eqn);
	void *eqc = MLX5_ADDR_OF(query_eq_out, cmd->out, eq_context_entry);

	if (!eq)
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	MLX5_SET(eqc, eqc, log_eq_size, eq->log_nent);
	MLX5_SET(eqc, eqc, uar_page, eq->uar_page);
	MLX5_SET(eqc, eqc, intr, eq->intr);
	MLX5_SET(eqc, eqc, log_page_size, eq->log_page_size);
	MLX5_SET(eqc, eqc, consumer_counter, eq->cons);
	MLX5_SET(eqc, eqc, producer_counter, eq->prod & CX_CI_MASK);
	MLX5_SET(eqc, eqc, st, eq->armed ? 0x9 : 0xa);	/* armed / fired */
	cx_put_be64(MLX5_ADDR_OF(query_eq_out, cmd->out, event_bitmask),
		    eq->events[0]);
	return MLX5_CMD_STAT_OK;
}
