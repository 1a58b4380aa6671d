/*
 * acct_shifts.c - the count of every table's shifts over a range of gaming
 * days (accounting.h acct_shift_counts), for the statistics report's
 * breakdown by shift: each shift's window is the master game's (the
 * segments of the sessions that start in it, fills, credits and drops
 * recorded for it), its hand win the rounds settled in its closed segments.
 */
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "store/count_window.h"
#include "table/accounting/acct_private.h"

struct shift_walk {
	struct pit *p;
	int64_t from_day, days;
	int shifts;
	struct acct_shift_cell *cells;
};

/* The cell of d's table, gaming day and shift, and its table's banking; NULL when not in the walk. */
static struct acct_shift_cell *
shift_cell(struct shift_walk *w, const struct acct_document *d, bool *player_banked)
{
	const struct gaming_calendar *cal = &w->p->cfg->property.calendar;
	int64_t day;
	int shift = -1;

	if (gaming_day_parse(d->gaming_day, &day) < 0 || day < w->from_day || day >= w->from_day + w->days)
		return NULL;
	for (int i = 0; i < cal->shift_count; i++)
		if (strcmp(cal->shifts[i].name, d->shift) == 0)
			shift = i;
	if (shift < 0)
		return NULL;                /* a drop for the whole day, or a shift no longer configured */
	for (size_t i = 0; i < w->p->cfg->table_count; i++)
		if (strcmp(w->p->cfg->tables[i].id, d->table_id) == 0) {
			*player_banked = w->p->cfg->tables[i].player_banked;
			return &w->cells[(i * (size_t)w->days + (size_t)(day - w->from_day)) * (size_t)w->shifts + (size_t)shift];
		}
	return NULL;
}

/* One fill, credit or drop into its shift's cell (acct_document_fn). */
static int
shift_document(void *ctx, const struct acct_document *d, struct pb_error *err)
{
	struct acct_shift_cell *c;
	bool banked;

	(void)err;
	if ((c = shift_cell(ctx, d, &banked)) != NULL)
		acct_count_add(&c->c, d, banked,
		    ((struct shift_walk *)ctx)->p->cfg->accounting.signatures == ACCT_SIGNATURES_NJ);
	return 0;
}

/* One segment into its start's shift cell, with the hand win of its rounds when it is closed (acct_segment_fn). */
static int
shift_segment(void *ctx, const struct acct_segment *s, struct pb_error *err)
{
	struct shift_walk *w = ctx;
	struct acct_shift_cell *c;
	int64_t win, rounds;
	bool banked;

	if ((c = shift_cell(w, s->start ? s->start : s->end, &banked)) == NULL)
		return 0;
	acct_count_add_segment(&c->c, s);
	if (s->start == NULL || s->end == NULL || strcmp(s->start->at, s->end->at) >= 0)
		return 0;
	if (store_window_hand_win(w->p->store, s->start->table_id, banked, s->start->at, s->end->at, &win, &rounds, err) < 0)
		return -1;
	if (__builtin_add_overflow(c->hand_win, win, &c->hand_win))
		return pb_fail(err, 500, "report_overflow", "a hand win exceeds 64 bits");
	return 0;
}

int
acct_shift_counts(struct pit *p, int64_t from_day, int64_t to_day, struct acct_shift_cell **cells,
    struct pb_error *err)
{
	struct shift_walk w = {.p = p, .from_day = from_day, .days = to_day - from_day + 1,
	    .shifts = p->cfg->property.calendar.shift_count};
	char from[ACCT_DAY_LEN], to[ACCT_DAY_LEN];

	*cells = NULL;
	if (w.days < 1)
		return pb_fail(err, 500, "internal_error", "acct_shift_counts: an empty range of days");
	w.cells = calloc(p->cfg->table_count * (size_t)w.days * (size_t)w.shifts + 1, sizeof(w.cells[0]));
	if (w.cells == NULL)
		return pb_oom(err);
	if (w.shifts == 0) {
		*cells = w.cells;
		return 0;
	}
	gaming_day_format(from_day, from);
	gaming_day_format(to_day, to);
	if (store_acct_days(p->store, from, to, shift_document, &w, err) != 0 ||
	    acct_segments(p, NULL, from, to, shift_segment, &w, err) != 0) {
		free(w.cells);
		return -1;
	}
	*cells = w.cells;
	return 0;
}
