/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim: model errors (enum cx_merr in cx_core.h), counted by kind and
 * logged in one place.  Leaf: calls only the host and the report writer.
 */
#ifndef CX_ERR_H
#define CX_ERR_H

#include "cx_core.h"
#include "cx_out.h"

/*
 * Count a model error of @kind and log it (printf-style, one line, as
 * cx_log lines are: "cxsim: ...\n") through the host's log and model_error
 * hooks.
 */
void cx_model_error(struct cx_core *core, enum cx_merr kind,
		    const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The report name of @kind ("dma.fail.wr.rx", "cq.overrun", ...). */
const char *cx_merr_name(enum cx_merr kind);

/* The report's "model_errors N" and "model_error.<kind> N" lines. */
void cx_merr_report(const struct cx_core *core, struct cx_out *o);

#endif /* CX_ERR_H */
