// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: model errors, counted by kind (cx_err.h).  Leaf.
 *
 * What counts is what the guest got wrong and hardware would notice or
 * suffer: see enum cx_merr.  What does not: a command the model refuses
 * with a bad status (drivers probe commands and fields they cannot know
 * are there), a fault the test port injected, the model's own limits.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cx_err.h"

static const char * const cx_merr_names[CX_MERR_NKINDS] = {
	[CX_MERR_DMA_RD + CX_DMA_OTHER]		= "dma.fail.rd.other",
	[CX_MERR_DMA_RD + CX_DMA_WQE]		= "dma.fail.rd.wqe",
	[CX_MERR_DMA_RD + CX_DMA_PAYLOAD]	= "dma.fail.rd.payload",
	[CX_MERR_DMA_RD + CX_DMA_DBR]		= "dma.fail.rd.dbr",
	[CX_MERR_DMA_RD + CX_DMA_CMD]		= "dma.fail.rd.cmd",
	[CX_MERR_DMA_WR + CX_DMAW_OTHER]	= "dma.fail.wr.other",
	[CX_MERR_DMA_WR + CX_DMAW_CQE]		= "dma.fail.wr.cqe",
	[CX_MERR_DMA_WR + CX_DMAW_EQE]		= "dma.fail.wr.eqe",
	[CX_MERR_DMA_WR + CX_DMAW_RX]		= "dma.fail.wr.rx",
	[CX_MERR_DMA_WR + CX_DMAW_CMD]		= "dma.fail.wr.cmd",
	[CX_MERR_CQ_OVERRUN]		= "cq.overrun",
	[CX_MERR_EQ_OVERRUN]		= "eq.overrun",
	[CX_MERR_EQ_CI_AHEAD]		= "eq.ci_ahead",
	[CX_MERR_DB_UNKNOWN_SQ]		= "doorbell.unknown_sq",
	[CX_MERR_DB_UNKNOWN_CQ]		= "doorbell.unknown_cq",
	[CX_MERR_DB_UNKNOWN_EQ]		= "doorbell.unknown_eq",
	[CX_MERR_DB_WRONG_UAR_SQ]	= "doorbell.wrong_uar_sq",
	[CX_MERR_DB_WRONG_UAR_CQ]	= "doorbell.wrong_uar_cq",
	[CX_MERR_DB_WRONG_UAR_EQ]	= "doorbell.wrong_uar_eq",
	[CX_MERR_UAR_UNALLOCATED]	= "uar.unallocated",
	[CX_MERR_BAR_BAD_ACCESS]	= "bar.bad_access",
	[CX_MERR_SQ_ERROR_CQE]		= "sq.error_cqe",
	[CX_MERR_RQ_ERROR_CQE]		= "rq.error_cqe",
	[CX_MERR_UMR_EARLY_USE]		= "umr.early_use",
	[CX_MERR_CMD_NO_QUEUE]		= "cmd.no_queue",
	[CX_MERR_CMD_EARLY]		= "cmd.early",
	[CX_MERR_CMD_DELIVERY]		= "cmd.delivery",
	[CX_MERR_CMD_BUSY]		= "cmd.busy",
	[CX_MERR_PAGES_BAD_GIVE]	= "pages.bad_give",
	[CX_MERR_RQ_OVERPOSTED]		= "rq.overposted",
};

const char *cx_merr_name(enum cx_merr kind)
{
	if ((unsigned int)kind >= CX_MERR_NKINDS || !cx_merr_names[kind])
		return "unknown";
	return cx_merr_names[kind];
}

void cx_model_error(struct cx_core *core, enum cx_merr kind,
		    const char *fmt, ...)
{
	struct cx_stats *st = &core->stats;
	char msg[256];
	va_list ap;

	if ((unsigned int)kind >= CX_MERR_NKINDS)
		return;
	st->model_errors++;
	st->model_error[kind]++;
	if (!core->host.log && !core->host.model_error)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (core->host.log)
		core->host.log(core->host.opaque, "%s", msg);
	if (core->host.model_error)
		core->host.model_error(core->host.opaque, cx_merr_name(kind),
				       msg);
}

void cx_merr_report(const struct cx_core *core, struct cx_out *o)
{
	const struct cx_stats *st = &core->stats;
	unsigned int i;

	KV(o, "model_errors", st->model_errors);
	for (i = 0; i < CX_MERR_NKINDS; i++)
		cx_out(o, "model_error.%s %llu\n", cx_merr_name(i),
		       (unsigned long long)st->model_error[i]);
}
