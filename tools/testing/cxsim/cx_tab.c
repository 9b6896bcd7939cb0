// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: object tables and the function's object registry (cx_tab.h).
 * Leaf: calls nothing of the model.
 */
#include <stdlib.h>
#include <string.h>

#include "cx_tab.h"

static const char * const cx_obj_names[CX_OBJ_NTYPES] = {
	[CX_OBJ_EQ]	= "eq",
	[CX_OBJ_UAR]	= "uar",
	[CX_OBJ_PD]	= "pd",
	[CX_OBJ_TD]	= "td",
	[CX_OBJ_MKEY]	= "mkey",
	[CX_OBJ_QCNT]	= "q_counter",
	[CX_OBJ_CQ]	= "cq",
	[CX_OBJ_SQ]	= "sq",
	[CX_OBJ_RQ]	= "rq",
	[CX_OBJ_TIS]	= "tis",
	[CX_OBJ_TIR]	= "tir",
	[CX_OBJ_RQT]	= "rqt",
	[CX_OBJ_FT]	= "ft",
	[CX_OBJ_FG]	= "fg",
	[CX_OBJ_FTE]	= "fte",
	[CX_OBJ_FC]	= "flow_counter",
};

const char *cx_obj_name(enum cx_obj_type type)
{
	return (unsigned int)type < CX_OBJ_NTYPES ? cx_obj_names[type] : "?";
}

void cx_obj_get(struct cx_core *core, enum cx_obj_type type)
{
	core->func.alive[type]++;
}

void cx_obj_put(struct cx_core *core, enum cx_obj_type type)
{
	if (core->func.alive[type])
		core->func.alive[type]--;
}

void cx_tab_init(struct cx_tab *t, enum cx_obj_type type, uint32_t base,
		 uint32_t max)
{
	memset(t, 0, sizeof(*t));
	t->type = type;
	t->base = base;
	t->max = max;
}

void *cx_tab_get(const struct cx_tab *t, uint32_t id)
{
	uint32_t i = id - t->base;

	if (id < t->base || i >= t->cap)
		return NULL;
	return t->slot[i];
}

/* Room for one more slot: the table doubled, up to t->max; -1 if full. */
static int cx_tab_grow(struct cx_tab *t, uint32_t *i)
{
	uint32_t n;
	void **s;

	if (t->cap >= t->max)
		return -1;
	n = t->cap ? t->cap * 2 : 16;
	if (n > t->max)
		n = t->max;
	s = realloc(t->slot, n * sizeof(*s));
	if (!s)
		return -1;
	memset(s + t->cap, 0, (n - t->cap) * sizeof(*s));
	t->slot = s;
	*i = t->cap;
	t->cap = n;
	return 0;
}

int cx_tab_add(struct cx_core *core, struct cx_tab *t, void *obj,
	       uint32_t *id)
{
	uint32_t i, n;

	for (n = 0; n < t->cap; n++) {
		i = (t->next + n) % t->cap;
		if (!t->slot[i])
			goto found;
	}
	if (cx_tab_grow(t, &i))
		return -1;
found:
	t->slot[i] = obj;
	t->next = i + 1 < t->cap ? i + 1 : 0;
	*id = t->base + i;
	cx_obj_get(core, t->type);
	return 0;
}

void *cx_tab_del(struct cx_core *core, struct cx_tab *t, uint32_t id)
{
	void *obj = cx_tab_get(t, id);

	if (obj) {
		t->slot[id - t->base] = NULL;
		cx_obj_put(core, t->type);
	}
	return obj;
}

void cx_tab_clear(struct cx_core *core, struct cx_tab *t,
		  void (*fn)(struct cx_core *, void *))
{
	uint32_t i;

	for (i = 0; i < t->cap; i++) {
		if (!t->slot[i])
			continue;
		if (fn)
			fn(core, t->slot[i]);
		else
			free(t->slot[i]);
		t->slot[i] = NULL;
		cx_obj_put(core, t->type);
	}
	t->next = 0;
}

void cx_tab_fini(struct cx_tab *t)
{
	free(t->slot);
	t->slot = NULL;
	t->cap = 0;
}
