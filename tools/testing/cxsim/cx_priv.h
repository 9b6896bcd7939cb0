/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cxsim device core: declarations shared between the core's files. */
#ifndef CX_PRIV_H
#define CX_PRIV_H

#include "cx_core.h"

#define cx_log(core, ...)						\
	do {								\
		if ((core)->host.log)					\
			(core)->host.log((core)->host.opaque, __VA_ARGS__); \
	} while (0)

static inline uint64_t cx_now(struct cx_core *core)
{
	return core->host.now_ns(core->host.opaque);
}

/* Init segment (cx_iseg.c); @off is dword aligned and inside it. */
int cx_iseg_contains(uint64_t off);
void cx_iseg_reset(struct cx_core *core);
uint32_t cx_iseg_read32(struct cx_core *core, uint64_t off);
void cx_iseg_write32(struct cx_core *core, uint64_t off, uint32_t val);

/* Command interface (cx_cmd.c): the driver rang the command doorbell. */
void cx_cmd_doorbell(struct cx_core *core, uint32_t vector);

#endif /* CX_PRIV_H */
