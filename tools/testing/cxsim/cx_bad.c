// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: how a command handler refuses a command: one log line naming the
 * command, the status, and a syndrome that tells the model's refusals
 * apart.  Below every handler; calls nothing of the model.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cx_kshim.h"
#include "cx_obj.h"

uint8_t cx_bad(struct cx_cmd *cmd, uint8_t status, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cx_log(cmd->core, "cxsim: %s: %s\n", cmd->name ? cmd->name : "?", msg);
	if (status == MLX5_CMD_STAT_BAD_RES_ERR)
		cmd->core->func.nic->bad_refs++;
	cmd->syndrome = status == MLX5_CMD_STAT_BAD_RES_STATE_ERR ?
			CX_SYND_BAD_STATE : CX_SYND_BAD_PARAM;
	return status;
}
