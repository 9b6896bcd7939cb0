/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim: the report writer, "key value" lines into a buffer, shared by
 * every part that reports.  Leaf: calls nothing of the model.
 *
 * A report is never cut silently.  A growing writer (cx_out_grow) takes
 * as much memory as the lines need, up to a bound; a fixed one
 * (cx_out_fixed) keeps room for the last line.  Once a line does not fit,
 * it and every later line are left out (the report stays a prefix), and
 * cx_out_end() writes the last line, "report.truncated N" with N the
 * lines left out: 0 says the report is complete.
 */
#ifndef CX_OUT_H
#define CX_OUT_H

#include <stddef.h>
#include <stdint.h>

/* Room a fixed writer keeps for "report.truncated N\n" and the NUL. */
#define CX_OUT_RESERVE		48

struct cx_out {
	char *buf;
	size_t size;		/* bytes of buf */
	size_t len;		/* without the NUL */
	size_t max;		/* 0: buf is the caller's; else malloc'd, grows to max */
	uint64_t dropped;	/* lines left out */
};

/* Write into the caller's @buf of @size bytes (NUL-terminated if size). */
void cx_out_fixed(struct cx_out *o, char *buf, size_t size);
/* Write into a buffer of our own, growing up to @max bytes; 0 or -1. */
int cx_out_grow(struct cx_out *o, size_t max);

void cx_out(struct cx_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Close the report with its "report.truncated N" line; its length. */
size_t cx_out_end(struct cx_out *o);

#define KV(o, key, val)	cx_out(o, "%s %llu\n", key, (unsigned long long)(val))

#endif /* CX_OUT_H */
