// SPDX-License-Identifier: GPL-2.0-or-later
/* cxsim: the report writer (cx_out.h).  Leaf. */
#include <stdarg.h>
#include <stdio.h>

#include "cx_out.h"

/* Append one formatted line to a report; a line that does not fit is cut. */
void cx_out(struct cx_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->len + 1 >= o->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* Truncated: drop the partial line. */
	if ((size_t)n >= o->size - o->len) {
		o->buf[o->len] = '\0';
		o->size = o->len + 1;
		return;
	}
	o->len += n;
}
