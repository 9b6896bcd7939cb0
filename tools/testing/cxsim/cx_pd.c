// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: protection domains and transport domains (ALLOC/DEALLOC_PD,
 * ALLOC/DEALLOC_TRANSPORT_DOMAIN): numbers with nothing behind them but
 * their existence, which mkeys, queues and TIRs check.
 */
#include <stdlib.h>

#include "cx_kshim.h"
#include "cx_obj.h"


struct cx_small {
	uint32_t id;
};

bool cx_pd_exists(struct cx_core *core, uint32_t pd)
{
	return cx_tab_get(&core->func.nic->pd, pd) != NULL;
}

bool cx_td_exists(struct cx_core *core, uint32_t td)
{
	return cx_tab_get(&core->func.nic->td, td) != NULL;
}

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

void cx_pd_release_all(struct cx_core *core)
{
	cx_tab_clear(core, &core->func.nic->td, NULL);
	cx_tab_clear(core, &core->func.nic->pd, NULL);
}
