// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: queue counters (ALLOC/DEALLOC/QUERY_Q_COUNTER).  An RQ names its
 * counter set; out_of_buffer counts what its RQs dropped for want of a
 * WQE.
 */
#include <stdlib.h>

#include "cx_kshim.h"
#include "cx_obj.h"

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
	uint32_t id = MLX5_GET(dealloc_q_counter_in, cmd->in, counter_set_id);
	struct cx_qcnt *q = cx_tab_del(cmd->core, &cmd->core->func.nic->qcnt, id);

	if (!q)
		return CX_BAD_RES(cmd, "no object 0x%x", id);
	free(q);
	return MLX5_CMD_STAT_OK;
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

void cx_qcnt_release_all(struct cx_core *core)
{
	cx_tab_clear(core, &core->func.nic->qcnt, NULL);
}
