/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim: object tables and the function's object registry.
 *
 * Every object a function creates is counted by type in the registry
 * (func.alive[], what the leak report shows); objects with numbers live
 * in per-type tables where a number names a slot (number = base + slot).
 * Leaf: calls nothing of the model.
 */
#ifndef CX_TAB_H
#define CX_TAB_H

#include "cx_core.h"

/* The registry: one more / one fewer object of @type alive. */
void cx_obj_get(struct cx_core *core, enum cx_obj_type type);
void cx_obj_put(struct cx_core *core, enum cx_obj_type type);
const char *cx_obj_name(enum cx_obj_type type);

/* A table of objects of one type, numbered base .. base + max - 1. */
struct cx_tab {
	void **slot;
	uint32_t cap;		/* slots allocated */
	uint32_t base;		/* number of slot 0 */
	uint32_t max;		/* most objects at once */
	uint32_t next;		/* next slot to try, so numbers are not reused at once */
	enum cx_obj_type type;
};

void cx_tab_init(struct cx_tab *t, enum cx_obj_type type, uint32_t base,
		 uint32_t max);
/* The object numbered @id, or NULL. */
void *cx_tab_get(const struct cx_tab *t, uint32_t id);
/* Give @obj a number (*@id) and count it; 0, or -1 when full or ENOMEM. */
int cx_tab_add(struct cx_core *core, struct cx_tab *t, void *obj,
	       uint32_t *id);
/* Take the object numbered @id out (uncounted); NULL if none. */
void *cx_tab_del(struct cx_core *core, struct cx_tab *t, uint32_t id);
/* Free every object with @fn (NULL: free()), keep the table. */
void cx_tab_clear(struct cx_core *core, struct cx_tab *t,
		  void (*fn)(struct cx_core *, void *));
/* Free the table itself (after cx_tab_clear). */
void cx_tab_fini(struct cx_tab *t);

#endif /* CX_TAB_H */
