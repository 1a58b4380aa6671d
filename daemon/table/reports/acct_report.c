/*
 * acct_report.c - the master game report (accounting.h): per table, the
 * window of its session in the gaming day (or one of its shifts), from the
 * opener (or shift change) that opened it to the closer (or shift change)
 * that closed it; the count win of its documents, the win of the rounds
 * settled in it, their variance, and what explains it (the mispays
 * corrected on those rounds, the voided slips, the slips still pending);
 * the openers' discrepancies apart; the state of the day's investigation.
 * docs/accounting.md says how each figure is computed; keep the two in
 * step.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "store/accounting.h"
#include "store/count_window.h"
#include "table/accounting/accounting.h"
#include "table/reports/reports_private.h"

/*
 * What explains a table's variance (docs/accounting.md "Variances
 * explained"), each as the variance it accounts for: the mispays and the
 * pending slips are in it (the dealer paid what the correction says; a
 * slip not yet received counts for nothing though its chips are there),
 * a voided slip only if its chips moved all the same.
 */
struct mg_explained {
	int64_t mispays;                   /* owed - paid of the corrected lines of the window's rounds */
	int64_t voids;                     /* voided fills minus voided credits: beside, not subtracted */
	int64_t pending;                   /* pending fills minus pending credits */
};

/* One table's sums over the window. */
struct mg_table {
	const struct table_config *t;
	struct acct_count c;               /* the documents' figures (acct_counts.c) */
	int64_t hand_win;
	struct mg_explained x;
	json_t *out_of_order;              /* the ids of its closers that closed nothing */
};

struct mg {
	struct pit *p;
	struct mg_table *tables;
	size_t count;
	const char *shift;                 /* NULL: the whole day */
	bool receipts;                     /* accounting.signatures "nj": only slips received count */
	char from[PB_TIME_LEN], to[PB_TIME_LEN];   /* the window's bounds (the day's or the shift's) */
};

static struct mg_table *
mg_find(struct mg *m, const char *table_id)
{
	for (size_t i = 0; i < m->count; i++)
		if (strcmp(m->tables[i].t->id, table_id) == 0)
			return &m->tables[i];
	return NULL;
}

/* Is d in the report's shift (any, for the whole day)? */
static bool
in_shift(const struct mg *m, const struct acct_document *d)
{
	return m->shift == NULL || strcmp(d->shift, m->shift) == 0;
}

/* One fill, credit or drop of the day into its table's sums (acct_document_fn). */
static int
mg_document(void *ctx, const struct acct_document *d, struct pb_error *err)
{
	struct mg *m = ctx;
	struct mg_table *x = mg_find(m, d->table_id);

	(void)err;
	if (x != NULL && in_shift(m, d))
		acct_count_add(&x->c, d, x->t->player_banked, m->receipts);
	return 0;
}

/* The hand win and the mispays of the rounds settled at x's table in [from, to), added to x. */
static int
mg_rounds(struct mg *m, struct mg_table *x, const char *from, const char *to, struct pb_error *err)
{
	int64_t win, mispays, n;

	if (strcmp(from, to) >= 0)
		return 0;
	if (store_window_hand_win(m->p->store, x->t->id, x->t->player_banked, from, to, &win, &n, err) < 0 ||
	    store_window_mispays(m->p->store, x->t->id, from, to, &mispays, &n, err) < 0)
		return -1;
	if (__builtin_add_overflow(x->hand_win, win, &x->hand_win) || __builtin_add_overflow(x->x.mispays, mispays,
	    &x->x.mispays))
		return pb_fail(err, 500, "report_overflow", "a hand win exceeds 64 bits");
	return 0;
}

/*
 * One segment of a session starting on the day (acct_segment_fn): in the
 * report's shift, its counts into its table's figures and the rounds
 * settled in it (to the window's end while it is open) into its hand win.
 */
static int
mg_segment(void *ctx, const struct acct_segment *s, struct pb_error *err)
{
	struct mg *m = ctx;
	const struct acct_document *d = s->start ? s->start : s->end;
	struct mg_table *x = mg_find(m, d->table_id);

	if (x == NULL || !in_shift(m, d))
		return 0;
	acct_count_add_segment(&x->c, s);
	if (s->start == NULL)
		return json_array_append_new(x->out_of_order, json_integer(s->end->id)) == 0 ? 0 : pb_oom(err);
	return mg_rounds(m, x, s->start->at, s->end ? s->end->at : m->to, err);
}

/* A fill or credit of the window, and whether it was voided or received (the table's documents, in order). */
struct mg_slip {
	int64_t id, amount;                /* amount: + a fill, - a credit */
	bool voided, received;
};

struct mg_slips {
	const struct mg *m;
	struct mg_slip *v;
	size_t n, cap;
};

/* One document of the table's day (acct_document_fn): a slip of the window kept, a void or receipt marking its slip. */
static int
mg_slip_document(void *ctx, const struct acct_document *d, struct pb_error *err)
{
	struct mg_slips *w = ctx;
	bool fill = strcmp(d->kind, "fill") == 0, credit = strcmp(d->kind, "credit") == 0;

	if (d->voids > 0) {
		bool receipt = strstr(d->kind, "_receipt") != NULL;
		for (size_t i = 0; i < w->n; i++)
			if (w->v[i].id == d->voids)
				*(receipt ? &w->v[i].received : &w->v[i].voided) = true;
		return 0;
	}
	if ((!fill && !credit) || !in_shift(w->m, d))
		return 0;
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		struct mg_slip *n = realloc(w->v, cap * sizeof(*n));
		if (n == NULL)
			return pb_oom(err);
		w->v = n;
		w->cap = cap;
	}
	/* a slip recorded before receipts existed (schema 021: no witnesses list) counts as received */
	w->v[w->n++] = (struct mg_slip){.id = d->id, .amount = fill ? d->total : -d->total, .received = d->witnesses[0] == '\0'};
	return 0;
}

/* Whether an issued slip counts only once received at the table (the "nj" signature policy, docs/accounting.md). */
static bool
slips_need_receipt(const struct config *cfg)
{
	return cfg->accounting.signatures == ACCT_SIGNATURES_NJ;
}

/* The voided and pending slips of x's window: the variance each would account for had its chips moved. */
static int
mg_slips(struct mg *m, struct mg_table *x, const char *day, struct pb_error *err)
{
	struct mg_slips w = {.m = m};
	bool receipts = slips_need_receipt(m->p->cfg);
	int rc = store_acct_table_day(m->p->store, x->t->id, day, mg_slip_document, &w, err);

	for (size_t i = 0; rc == 0 && i < w.n; i++) {
		if (w.v[i].voided)
			x->x.voids += w.v[i].amount;
		else if (receipts && !w.v[i].received)
			x->x.pending += w.v[i].amount;
	}
	free(w.v);
	return rc != 0 ? -1 : 0;
}

static json_t *
id_or_null(int64_t id)
{
	return id ? json_integer(id) : json_null();
}

/*
 * The figures of a row (a table, or the total), as the report shows them:
 * win, variance and unexplained (variance - mispays - pending slips) only
 * when complete, flagged only then.
 */
static json_t *
mg_row_json(const struct accounting_config *ac, const struct acct_count *x, int64_t hand_win,
    const struct mg_explained *e, bool complete)
{
	int64_t win = 0, variance = 0, unexplained = 0;
	double pct = NAN;
	bool flagged = false;

	if (complete) {
		/* the mispays and the pending slips are in the variance; a void or a discrepancy only may be (shown beside) */
		if (acct_count_win(x, &win, &(struct pb_error){0}) < 0 || __builtin_sub_overflow(win, hand_win, &variance) ||
		    __builtin_sub_overflow(variance, e->mispays, &unexplained) ||
		    __builtin_sub_overflow(unexplained, e->pending, &unexplained))
			return NULL;
		pct = x->drop != 0 ? 100.0 * (double)variance / (double)x->drop : NAN;
		flagged = llabs(variance) >= ac->variance_threshold || (x->drop != 0 && fabs(pct) >= ac->variance_percent);
	}
	return json_pack("{s:b,s:o,s:o,s:I,s:I,s:I,s:o,s:o,s:I,s:o,s:o,s:b,s:I,s:{s:I,s:I,s:I,s:I,s:o}}",
	    "complete", complete, "opener", x->opener_id ? json_integer(x->opener) : json_null(),
	    "closer", complete ? json_integer(x->closer) : json_null(),
	    "fills", (json_int_t)x->fills, "credits", (json_int_t)x->credits, "drop", (json_int_t)x->drop,
	    "win", complete ? json_integer(win) : json_null(),
	    "win_per_drop", complete && x->drop != 0 ? json_real((double)win / (double)x->drop) : json_null(),
	    "hand_win", (json_int_t)hand_win, "variance", complete ? json_integer(variance) : json_null(),
	    "variance_percent", complete && x->drop != 0 ? json_real(pct) : json_null(), "flagged", flagged,
	    "discrepancy", (json_int_t)x->discrepancy,
	    "explained", "mispays", (json_int_t)e->mispays, "voids", (json_int_t)e->voids,
	    "pending_slips", (json_int_t)e->pending, "discrepancies", (json_int_t)x->discrepancy,
	    "unexplained", complete ? json_integer(unexplained) : json_null());
}

/* The tables of the report: table_id, or every one the actor may read. */
static int
mg_tables(struct pit *p, const struct actor *a, const char *table_id, struct mg *m, struct pb_error *err)
{
	m->tables = calloc(p->cfg->table_count + 1, sizeof(m->tables[0]));
	if (m->tables == NULL)
		return pb_oom(err);
	for (size_t i = 0; i < p->cfg->table_count; i++) {
		const struct table_config *t = &p->cfg->tables[i];
		if ((table_id != NULL && strcmp(t->id, table_id) != 0) ||
		    (a->token != NULL && !token_allows_table(a->token, t->id)))
			continue;
		m->tables[m->count].t = t;
		if ((m->tables[m->count++].out_of_order = json_array()) == NULL)
			return pb_oom(err);
	}
	return 0;
}

static void
mg_free(struct mg *m)
{
	for (size_t i = 0; i < m->count; i++)
		json_decref(m->tables[i].out_of_order);
	free(m->tables);
}

/*
 * What the documents do not give: the rounds of a table without a segment
 * in the window (the window's own, shown though not reconciled), the voided
 * and pending slips.  only_documented: the tables without a document are
 * left out, and need nothing.
 */
static int
mg_rest(struct mg *m, const char *day, bool only_documented, struct pb_error *err)
{
	for (size_t i = 0; i < m->count; i++) {
		struct mg_table *x = &m->tables[i];
		if (only_documented && !acct_count_any(&x->c))
			continue;
		if (x->c.segments == 0 && mg_rounds(m, x, m->from, m->to, err) < 0)
			return -1;
		if (mg_slips(m, x, day, err) < 0)
			return -1;
	}
	return 0;
}

/* A row's object completed with its table, documents, out-of-order closers and investigation; 0 or -1 with err. */
static int
mg_row_extras(struct pit *p, const struct mg_table *x, const char *day, json_t *row, struct pb_error *err)
{
	json_t *inv = variance_investigation_json(p, x->t->id, day, err);

	if (inv == NULL)
		return -1;
	json_object_set_new(row, "table", json_string(x->t->id));
	json_object_set_new(row, "player_banked", json_boolean(x->t->player_banked));
	json_object_set_new(row, "out_of_order", json_incref(x->out_of_order));
	json_object_set_new(row, "investigation", inv);
	json_object_set_new(row, "documents", json_pack("{s:o,s:o,s:i,s:i,s:i,s:i}", "opener", id_or_null(x->c.opener_id),
	    "closer", acct_count_complete(&x->c) ? id_or_null(x->c.closer_id) : json_null(), "segments", x->c.segments,
	    "fills", x->c.fill_count, "credits", x->c.credit_count, "drops", x->c.drop_count));
	return 0;
}

/* Adds a complete row's figures to the total's. */
static void
mg_total_add(struct mg_table *total, const struct mg_table *x)
{
	total->c.opener += x->c.opener;
	total->c.closer += x->c.closer;
	total->c.tray += x->c.tray;
	total->c.fills += x->c.fills;
	total->c.credits += x->c.credits;
	total->c.drop += x->c.drop;
	total->c.discrepancy += x->c.discrepancy;
	total->hand_win += x->hand_win;
	total->x.mispays += x->x.mispays;
	total->x.voids += x->x.voids;
	total->x.pending += x->x.pending;
	total->c.opener_id = 1;            /* the total has an opener (the sum) once a row is added */
}

/*
 * The rows and the total of m as {"tables", "total"}: the total sums the
 * complete rows; "incomplete" lists the tables with a document whose row is
 * not complete.
 */
static json_t *
mg_json(struct pit *p, const struct mg *m, const char *day, bool only_documented, struct pb_error *err)
{
	const struct accounting_config *ac = &p->cfg->accounting;
	struct mg_table total;
	json_t *rows = json_array(), *incomplete = json_array(), *row, *o;
	int complete_rows = 0;

	memset(&total, 0, sizeof(total));
	for (size_t i = 0; rows != NULL && incomplete != NULL && i < m->count; i++) {
		const struct mg_table *x = &m->tables[i];
		bool complete = acct_count_complete(&x->c);
		if (only_documented && !acct_count_any(&x->c))
			continue;
		row = mg_row_json(ac, &x->c, x->hand_win, &x->x, complete);
		if (row == NULL || mg_row_extras(p, x, day, row, err) < 0) {
			json_decref(row);
			goto fail;
		}
		json_array_append_new(rows, row);
		if (complete) {
			mg_total_add(&total, x);
			complete_rows++;
		} else if (acct_count_any(&x->c)) {
			json_array_append_new(incomplete, json_string(x->t->id));
		}
	}
	if (rows == NULL || incomplete == NULL)
		goto fail;
	total.c.segments = complete_rows;
	if ((o = mg_row_json(ac, &total.c, total.hand_win, &total.x, complete_rows > 0)) == NULL)
		goto fail;
	json_object_set_new(o, "complete", json_boolean(json_array_size(incomplete) == 0));
	json_object_set_new(o, "incomplete", incomplete);
	return json_pack("{s:o,s:o}", "tables", rows, "total", o);
fail:
	json_decref(rows);
	json_decref(incomplete);
	if (err->status == 0)
		pb_oom(err);
	return NULL;
}

int
acct_master_game(struct pit *p, const struct actor *a, const char *table_id, int64_t day, int shift,
    bool only_documented, json_t **out, struct pb_error *err)
{
	const struct gaming_calendar *cal = &p->cfg->property.calendar;
	struct mg m = {.p = p, .receipts = p->cfg->accounting.signatures == ACCT_SIGNATURES_NJ};
	char text[ACCT_DAY_LEN];
	int64_t from_s, to_s;
	int rc = -1;

	*out = NULL;
	gaming_day_format(day, text);
	if (shift >= 0) {
		gaming_shift_bounds(cal, day, shift, &from_s, &to_s);
		m.shift = cal->shifts[shift].name;
	} else {
		gaming_day_bounds(cal, day, &from_s, &to_s);
	}
	pb_time_format_ms(from_s * 1000, m.from);
	pb_time_format_ms(to_s * 1000, m.to);
	if (mg_tables(p, a, table_id, &m, err) < 0)
		goto out;
	if (store_acct_day(p->store, text, mg_document, &m, err) != 0 ||
	    acct_segments(p, table_id, text, text, mg_segment, &m, err) != 0 || mg_rest(&m, text, only_documented, err) < 0)
		goto out;
	*out = mg_json(p, &m, text, only_documented, err);
	rc = *out != NULL ? 0 : -1;
out:
	mg_free(&m);
	return rc;
}

int
pit_report_master_game(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err)
{
	const struct gaming_calendar *cal = &p->cfg->property.calendar;
	char day[ACCT_DAY_LEN], *scope = NULL;
	json_t *figures;

	*out = NULL;
	if (report_scope(p, a, q, &scope, err) < 0)
		return -1;
	free(scope);
	if (acct_master_game(p, a, q->table[0] ? q->table : NULL, q->gaming_day, q->shift, false, &figures, err) < 0)
		return -1;
	gaming_day_format(q->gaming_day, day);
	*out = json_pack("{s:s,s:o,s:o,s:o,s:o,s:s,s:{s:I,s:f}}", "gaming_day", day,
	    "shift", q->shift >= 0 ? json_string(cal->shifts[q->shift].name) : json_null(),
	    "from", report_time_json(q->from_ms), "to", report_time_json(q->to_ms), "table", report_table_json(q),
	    "time_zone", p->cfg->property.time_zone, "thresholds",
	    "variance", (json_int_t)p->cfg->accounting.variance_threshold,
	    "variance_percent", p->cfg->accounting.variance_percent);
	if (*out == NULL || json_object_update(*out, figures) < 0) {
		json_decref(figures);
		return pb_oom(err);
	}
	json_decref(figures);
	return 0;
}
