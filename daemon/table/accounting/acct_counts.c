/*
 * acct_counts.c - the counted figures of the accounting documents
 * (accounting.h "acct_count"): one document or segment of a session into
 * its window's sums, the count win of a window, and the sums of every table
 * and gaming day of a range of days read at once, for the statistics report
 * and the summary's win_per_drop.  docs/accounting.md "The formulas" says
 * what each is.
 */
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "store/accounting.h"
#include "table/accounting/accounting.h"

void
acct_count_add(struct acct_count *c, const struct acct_document *d, bool player_banked, bool receipts)
{
	bool slip = strcmp(d->kind, "fill") == 0 || strcmp(d->kind, "credit") == 0;

	if (slip && receipts && !d->received) {
		/* issued, not received at the table (accounting.signatures "nj"): pending, not counted */
		*(strcmp(d->kind, "fill") == 0 ? &c->pending_fills : &c->pending_credits) += d->total;
		c->pending_count++;
	} else if (strcmp(d->kind, "fill") == 0) {
		c->fills += d->total;
		c->fill_count++;
	} else if (strcmp(d->kind, "credit") == 0) {
		c->credits += d->total;
		c->credit_count++;
	} else if (strcmp(d->kind, "drop") == 0) {
		c->drop += player_banked ? d->collections : d->total;
		c->drop_count++;
	}
}

void
acct_count_add_segment(struct acct_count *c, const struct acct_segment *s)
{
	if (s->start == NULL) {
		c->out_of_order++;
		return;
	}
	c->segments++;
	if (c->opener_id == 0 || s->start->id < c->opener_id) {
		c->opener_id = s->start->id;
		c->opener = s->start->total;
	}
	if (s->opens_session && s->start->has_discrepancy)
		c->discrepancy += s->start->discrepancy;
	if (s->end == NULL) {
		c->open_segments++;
		return;
	}
	c->tray += s->end->total - s->start->total;
	if (s->end->id > c->closer_id) {
		c->closer_id = s->end->id;
		c->closer = s->end->total;
	}
}

bool
acct_count_complete(const struct acct_count *c)
{
	/* a closer that closed nothing opened in the window leaves its count unknown: incomplete too */
	return c->segments > 0 && c->open_segments == 0 && c->out_of_order == 0;
}

int
acct_count_win(const struct acct_count *c, int64_t *win, struct pb_error *err)
{
	int64_t w;

	if (__builtin_add_overflow(c->drop, c->tray, &w) || __builtin_add_overflow(w, c->credits, &w) ||
	    __builtin_sub_overflow(w, c->fills, &w))
		return pb_fail(err, 500, "report_overflow", "a count win exceeds 64 bits");
	*win = w;
	return 0;
}

bool
acct_count_any(const struct acct_count *c)
{
	return c->segments || c->out_of_order || c->fill_count || c->credit_count || c->drop_count || c->pending_count;
}

/* The walk of a range's documents into their cells. */
struct counts_walk {
	const struct config *cfg;
	int64_t from_day, days;
	struct acct_count *cells;
};

/* The cell of d's table and gaming day, and whether the table is player-banked; NULL for a day or table not in the walk. */
static struct acct_count *
counts_cell(struct counts_walk *w, const struct acct_document *d, bool *player_banked)
{
	int64_t day;

	if (gaming_day_parse(d->gaming_day, &day) < 0 || day < w->from_day || day >= w->from_day + w->days)
		return NULL;
	for (size_t i = 0; i < w->cfg->table_count; i++)
		if (strcmp(w->cfg->tables[i].id, d->table_id) == 0) {
			*player_banked = w->cfg->tables[i].player_banked;
			return &w->cells[i * (size_t)w->days + (size_t)(day - w->from_day)];
		}
	return NULL;
}

/* One fill, credit or drop into the cell of its table and gaming day; a table no longer configured is left out. */
static int
counts_document(void *ctx, const struct acct_document *d, struct pb_error *err)
{
	struct acct_count *c;
	bool banked;

	(void)err;
	if ((c = counts_cell(ctx, d, &banked)) != NULL)
		acct_count_add(c, d, banked, ((struct counts_walk *)ctx)->cfg->accounting.signatures == ACCT_SIGNATURES_NJ);
	return 0;
}

/* One segment into the cell of its start's table and gaming day (an out-of-order closer: its own). */
static int
counts_segment(void *ctx, const struct acct_segment *s, struct pb_error *err)
{
	struct acct_count *c;
	bool banked;

	(void)err;
	if ((c = counts_cell(ctx, s->start ? s->start : s->end, &banked)) != NULL)
		acct_count_add_segment(c, s);
	return 0;
}

int
acct_counts(struct pit *p, int64_t from_day, int64_t to_day, struct acct_count **cells, struct pb_error *err)
{
	struct counts_walk w = {.cfg = p->cfg, .from_day = from_day, .days = to_day - from_day + 1};
	char from[ACCT_DAY_LEN], to[ACCT_DAY_LEN];

	*cells = NULL;
	if (w.days < 1)
		return pb_fail(err, 500, "internal_error", "acct_counts: an empty range of days");
	w.cells = calloc(p->cfg->table_count * (size_t)w.days + 1, sizeof(w.cells[0]));
	if (w.cells == NULL)
		return pb_oom(err);
	gaming_day_format(from_day, from);
	gaming_day_format(to_day, to);
	if (store_acct_days(p->store, from, to, counts_document, &w, err) != 0 ||
	    acct_segments(p, NULL, from, to, counts_segment, &w, err) != 0) {
		free(w.cells);
		return -1;
	}
	*cells = w.cells;
	return 0;
}
