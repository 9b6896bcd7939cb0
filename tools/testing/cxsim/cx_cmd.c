// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: the command interface.
 *
 * First slice: the doorbell is counted and otherwise ignored.  The command
 * queue lives at cmdq_addr_h:cmdq_addr_l in guest memory; a later slice
 * walks the entries set in @vector.
 */
#include "cx_priv.h"

void cx_cmd_doorbell(struct cx_core *core, uint32_t vector)
{
	(void)vector;
	core->stats.cmd_doorbells++;
}
