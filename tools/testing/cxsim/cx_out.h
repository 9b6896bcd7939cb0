/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim: the report writer, "key value" lines into a buffer, shared by
 * every part that reports.  Leaf: calls nothing of the model.
 */
#ifndef CX_OUT_H
#define CX_OUT_H

#include <stddef.h>

struct cx_out {
	char *buf;
	size_t size;
	size_t len;
};

void cx_out(struct cx_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define KV(o, key, val)	cx_out(o, "%s %llu\n", key, (unsigned long long)(val))

#endif /* CX_OUT_H */
