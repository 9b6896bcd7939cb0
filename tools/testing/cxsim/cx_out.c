// SPDX-License-Identifier: GPL-2.0-or-later
/* cxsim: the report writer (cx_out.h).  Leaf. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cx_out.h"

void cx_out_fixed(struct cx_out *o, char *buf, size_t size)
{
	o->buf = buf;
	o->size = size;
	o->len = 0;
	o->max = 0;
	o->dropped = 0;
	if (size)
		buf[0] = '\0';
}

int cx_out_grow(struct cx_out *o, size_t max)
{
	size_t size = 4096;

	if (max < 2 * CX_OUT_RESERVE)
		max = 2 * CX_OUT_RESERVE;
	if (size > max)
		size = max;
	cx_out_fixed(o, malloc(size), size);
	o->max = max;
	if (!o->buf) {
		o->size = 0;
		return -1;
	}
	return 0;
}

/* Bytes a line may take now, keeping room for the last line. */
static size_t cx_out_room(const struct cx_out *o)
{
	if (o->size < o->len + CX_OUT_RESERVE)
		return 0;
	return o->size - o->len - CX_OUT_RESERVE;
}

/* Make room for a line of @n bytes and its NUL; 0 or -1. */
static int cx_out_make_room(struct cx_out *o, size_t n)
{
	size_t want = o->len + n + 1 + CX_OUT_RESERVE, size = o->size;
	char *b;

	if (!o->max || want > o->max)
		return -1;
	while (size < want)
		size = size * 2 < o->max ? size * 2 : o->max;
	b = realloc(o->buf, size);
	if (!b)
		return -1;
	o->buf = b;
	o->size = size;
	return 0;
}

void cx_out(struct cx_out *o, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;

	if (o->dropped || !o->buf) {
		o->dropped++;
		return;
	}
	room = cx_out_room(o);
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= room && !cx_out_make_room(o, n)) {
		room = cx_out_room(o);
		va_start(ap, fmt);
		n = vsnprintf(o->buf + o->len, room, fmt, ap);
		va_end(ap);
	}
	if (n < 0 || (size_t)n >= room) {
		/* Left out, with every line after it. */
		if (o->len < o->size)
			o->buf[o->len] = '\0';
		o->dropped++;
		return;
	}
	o->len += n;
}

size_t cx_out_end(struct cx_out *o)
{
	int n;

	if (!o->buf || o->len >= o->size)
		return o->len;
	/*
	 * A line written in parts and cut short is left out whole: the
	 * report stays a prefix of whole lines.
	 */
	if (o->dropped)
		while (o->len && o->buf[o->len - 1] != '\n')
			o->buf[--o->len] = '\0';
	n = snprintf(o->buf + o->len, o->size - o->len,
		     "report.truncated %llu\n", (unsigned long long)o->dropped);
	if (n > 0 && (size_t)n < o->size - o->len)
		o->len += n;
	else
		o->buf[o->len] = '\0';
	return o->len;
}
