// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: UAR pages.  ALLOC_UAR hands out 4 KiB pages of BAR0 by index,
 * from 1 (page 0 is the init segment) to the end of the core's part of
 * BAR0.  A write to an allocated page is a doorbell, which cx_core.c
 * routes to the queue it names.
 */
#include "cx_kshim.h"
#include "cx_priv.h"
#include "cx_tab.h"

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

