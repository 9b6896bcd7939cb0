// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: UAR pages.  ALLOC_UAR hands out 4 KiB pages of BAR0 by index,
 * from 1 (page 0 is the init segment) to the end of the core's part of
 * BAR0.  A write to an allocated page is a doorbell:
 *	0x020	CQ doorbell (counted; CQs are a later slice)
 *	0x040	EQ: be32 (eqn << 24) | consumer index, and arm
 *	0x048	EQ: the same without arming
 *	0x800	SQ doorbell, 64-bit (counted; SQs are a later slice)
 * Every write to a page is counted, per page.
 */
#include "cx_kshim.h"
#include "cx_priv.h"
#include "cx_dp.h"

#define CX_UAR_EQ_ARM		0x40
#define CX_UAR_EQ_UPDATE	0x48

int cx_uar_allocated(struct cx_core *core, uint32_t index)
{
	return index && index < CX_UAR_PAGES &&
	       (core->func.uar_used[index / 8] & (1u << (index % 8)));
}

void cx_uar_release_all(struct cx_core *core)
{
	unsigned int i;

	for (i = 0; i < sizeof(core->func.uar_used); i++)
		core->func.uar_used[i] = 0;
}

uint8_t cx_uar_alloc(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	uint32_t i;

	for (i = 1; i < CX_UAR_PAGES; i++) {
		if (cx_uar_allocated(core, i))
			continue;
		core->func.uar_used[i / 8] |= 1u << (i % 8);
		cx_obj_get(core, CX_OBJ_UAR);
		MLX5_SET(alloc_uar_out, cmd->out, uar, i);
		return MLX5_CMD_STAT_OK;
	}
	cmd->syndrome = CX_SYND_NO_RES;
	return MLX5_CMD_STAT_NO_RES_ERR;
}

uint8_t cx_uar_dealloc(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	uint32_t i = MLX5_GET(dealloc_uar_in, cmd->in, uar);

	if (!cx_uar_allocated(core, i)) {
		cmd->syndrome = CX_SYND_BAD_PARAM;
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	}
	core->func.uar_used[i / 8] &= ~(1u << (i % 8));
	cx_obj_put(core, CX_OBJ_UAR);
	return MLX5_CMD_STAT_OK;
}

void cx_uar_write(struct cx_core *core, uint64_t offset, uint64_t value,
		  unsigned int size)
{
	uint32_t page = offset >> CX_PAGE_SHIFT;
	uint32_t off = offset & (CX_PAGE_SIZE - 1);

	if (!cx_uar_allocated(core, page)) {
		core->stats.uar_bad_writes++;
		cx_log(core, "cxsim: write to UAR page %u, not allocated\n",
		       page);
		return;
	}
	core->stats.uar_writes[page]++;
	if (size == 8 && (off == 0x20 || off == 0x800 || off == 0x900)) {
		if (off == 0x20)	/* data path (cx_cq.c, cx_tx.c) */
			cx_cq_doorbell(core, page, value);
		else
			cx_sq_doorbell(core, page, value);
		return;
	}
	if (size != 4)
		return;
	if (off == CX_UAR_EQ_ARM || off == CX_UAR_EQ_UPDATE)
		cx_eq_doorbell(core, page, __builtin_bswap32((uint32_t)value),
			       off == CX_UAR_EQ_ARM);
}
