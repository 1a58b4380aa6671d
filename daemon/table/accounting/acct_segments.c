/*
 * acct_segments.c - the segments of the tables' sessions (accounting.h
 * acct_segments, docs/accounting.md "The table's session"): an opener opens
 * a session, each shift change closes one segment and opens the next at the
 * same count, the closer closes the last.  The inventory documents of a
 * range of gaming days are read once, in the order recorded, every table at
 * once; what a table's session was before the range is read from its last
 * inventory document before it, and a segment still open at the end of the
 * range is closed by the table's next inventory document after it, if any.
 *
 * Documents recorded before this release may be out of the order the
 * daemon now keeps: an opener while the session is open (a recount) closes
 * the segment and opens the next, as a shift change does; a closer while it
 * is closed closes nothing and is handed over as such (start NULL).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/accounting.h"
#include "table/accounting/acct_private.h"

/* The kinds of inventory document, in no particular order. */
static const char *const INVENTORY_KINDS[] = {"opener", "closer", "shift_change"};

/* What the walk knows of one table's session. */
struct seg_table {
	char table_id[PB_ID_MAX];
	bool open;                         /* a segment is open */
	bool in_range;                     /* ... and it started in the range: it is handed over */
	bool opens_session;                /* ... and its start is an opener that began a session */
	struct acct_document start;        /* its start, when in_range */
};

struct seg_walk {
	struct pit *p;
	const char *table_id;              /* NULL: every table */
	acct_segment_fn fn;
	void *ctx;
	struct seg_table *tables;
	size_t count, cap;
};

int
acct_inventory_neighbour(struct pit *p, const char *table_id, int64_t id, bool after, struct acct_document *d,
    bool *found, struct pb_error *err)
{
	struct acct_document x;
	bool got;

	*found = false;
	for (size_t i = 0; i < sizeof(INVENTORY_KINDS) / sizeof(INVENTORY_KINDS[0]); i++) {
		if (store_acct_neighbour(p->store, table_id, INVENTORY_KINDS[i], id, after, &x, &got, err) < 0)
			return -1;
		if (got && (!*found || (after ? x.id < d->id : x.id > d->id))) {
			*d = x;
			*found = true;
		}
	}
	return 0;
}

/* The walk's state of d's table, made from the table's last inventory document before d when first met. */
static struct seg_table *
seg_table(struct seg_walk *w, const struct acct_document *d, struct pb_error *err)
{
	struct acct_document before;
	struct seg_table *t;
	bool found;

	for (size_t i = 0; i < w->count; i++)
		if (strcmp(w->tables[i].table_id, d->table_id) == 0)
			return &w->tables[i];
	if (w->count == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		struct seg_table *n = realloc(w->tables, cap * sizeof(*n));
		if (n == NULL) {
			pb_oom(err);
			return NULL;
		}
		w->tables = n;
		w->cap = cap;
	}
	if (acct_inventory_neighbour(w->p, d->table_id, d->id, false, &before, &found, err) < 0)
		return NULL;
	t = &w->tables[w->count++];
	memset(t, 0, sizeof(*t));
	snprintf(t->table_id, sizeof(t->table_id), "%s", d->table_id);
	t->open = found && strcmp(before.kind, "closer") != 0;
	return t;
}

/* Hands over the segment of t that end closes (end NULL: still open), when it started in the range. */
static int
seg_emit(struct seg_walk *w, const struct seg_table *t, const struct acct_document *end, struct pb_error *err)
{
	struct acct_segment s = {.start = &t->start, .end = end, .opens_session = t->opens_session};

	if (!t->open || !t->in_range)
		return 0;
	return w->fn(w->ctx, &s, err);
}

/* One inventory document of the range, in order (acct_document_fn). */
static int
seg_document(void *ctx, const struct acct_document *d, struct pb_error *err)
{
	struct seg_walk *w = ctx;
	struct seg_table *t;
	bool closer = strcmp(d->kind, "closer") == 0;

	if (w->table_id != NULL && strcmp(w->table_id, d->table_id) != 0)
		return 0;
	if ((t = seg_table(w, d, err)) == NULL)
		return -1;
	if (closer && !t->open) {
		struct acct_segment s = {.start = NULL, .end = d};
		return w->fn(w->ctx, &s, err);
	}
	if (t->open && seg_emit(w, t, d, err) != 0)
		return -1;
	if (closer) {
		t->open = t->in_range = false;
		return 0;
	}
	/* an opener after a closer (or the table's first) begins a session; a shift change (or a recount) goes on with it */
	t->opens_session = strcmp(d->kind, "opener") == 0 && !t->open;
	t->open = t->in_range = true;
	t->start = *d;
	return 0;
}

int
acct_segments(struct pit *p, const char *table_id, const char *from_day, const char *to_day, acct_segment_fn fn,
    void *ctx, struct pb_error *err)
{
	struct seg_walk w = {.p = p, .table_id = table_id, .fn = fn, .ctx = ctx};
	struct acct_document next;
	bool found;
	int rc;

	rc = store_acct_inventory_days(p->store, from_day, to_day, seg_document, &w, err);
	/* the segments still open at the range's end: closed by the table's next inventory document, if any */
	for (size_t i = 0; rc == 0 && i < w.count; i++) {
		struct seg_table *t = &w.tables[i];
		if (!t->open || !t->in_range)
			continue;
		if (acct_inventory_neighbour(p, t->table_id, t->start.id, true, &next, &found, err) < 0)
			rc = -1;
		else
			rc = seg_emit(&w, t, found ? &next : NULL, err);
	}
	free(w.tables);
	return rc != 0 ? -1 : 0;
}
