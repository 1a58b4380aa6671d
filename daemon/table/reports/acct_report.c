/*
 * acct_report.c - the master game report (accounting.h): the documents of
 * a gaming day (or one of its shifts) per table, the count win they give,
 * and the win of the hands dealt in the same window from the summary's
 * figures (house-banked tables) and the banker report's collections
 * (player-banked tables), and their variance; and the accounting exceptions
 * of the exceptions report.  docs/accounting.md says how each figure is
 * computed; keep the two in step.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "store/accounting.h"
#include "table/accounting/accounting.h"
#include "table/reports/reports_private.h"

/* One table's sums over the window. */
struct mg_table {
	const struct table_config *t;
	struct acct_count c;               /* the documents' figures (acct_counts.c) */
	int64_t hand_win;
};

struct mg {
	struct mg_table *tables;
	size_t count;
	const char *shift;                 /* NULL: the whole day */
	bool receipts;                     /* accounting.signatures "nj": only slips received count */
};

static const char *
text_of(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "";
}

static struct mg_table *
mg_find(struct mg *m, const char *table_id)
{
	for (size_t i = 0; i < m->count; i++)
		if (strcmp(m->tables[i].t->id, table_id) == 0)
			return &m->tables[i];
	return NULL;
}

/* One document of the day into its table's sums (acct_document_fn). */
static int
mg_document(void *ctx, const struct acct_document *d, struct pb_error *err)
{
	struct mg *m = ctx;
	struct mg_table *x = mg_find(m, d->table_id);

	(void)err;
	if (x == NULL || (m->shift != NULL && strcmp(d->shift, m->shift) != 0))
		return 0;
	acct_count_add(&x->c, d, x->t->player_banked, m->receipts);
	return 0;
}

/* A summary or banker report request over [from, to) for the hand win. */
static void
window_query(const struct config *cfg, enum report_kind kind, const char *table_id, int64_t from_ms, int64_t to_ms,
    struct report_query *q)
{
	memset(q, 0, sizeof(*q));
	q->kind = kind;
	snprintf(q->table, sizeof(q->table), "%s", table_id ? table_id : "");
	q->from_ms = from_ms;
	q->to_ms = to_ms;
	q->group = REPORT_GROUP_TABLE;
	q->property = &cfg->property;
	q->cal = &cfg->property.calendar;
	q->hours_only = true;
}

/*
 * The hands' win over the window: house-banked tables, the summary's
 * house_win.total per table (the players' net, negated); player-banked
 * tables, the collection fees of the banker report (seats' and banker's).
 */
static int
mg_hand_win(struct pit *p, const struct actor *a, struct mg *m, const char *table_id, int64_t from_ms, int64_t to_ms,
    struct pb_error *err)
{
	struct report_query q;
	json_t *r = NULL, *g;
	size_t i;

	window_query(p->cfg, REPORT_SUMMARY, table_id, from_ms, to_ms, &q);
	if (pit_report_summary(p, a, &q, &r, err) < 0)
		return -1;
	json_array_foreach(json_object_get(r, "groups"), i, g) {
		struct mg_table *x = mg_find(m, text_of(json_object_get(g, "key")));
		if (x != NULL && !x->t->player_banked)
			x->hand_win = json_integer_value(json_object_get(json_object_get(g, "house_win"), "total"));
	}
	json_decref(r);
	if (table_id != NULL && !config_table(p->cfg, table_id)->player_banked)
		return 0;
	window_query(p->cfg, REPORT_BANKERS, table_id, from_ms, to_ms, &q);
	if (pit_report_bankers(p, a, &q, &r, err) < 0)
		return -1;
	json_array_foreach(json_object_get(r, "tables"), i, g) {
		struct mg_table *x = mg_find(m, text_of(json_object_get(g, "table")));
		const json_t *t = json_object_get(g, "total");
		if (x != NULL)
			x->hand_win = json_integer_value(json_object_get(t, "seat_fees")) +
			    json_integer_value(json_object_get(t, "banker_fees"));
	}
	json_decref(r);
	return 0;
}

static json_t *
id_or_null(int64_t id)
{
	return id ? json_integer(id) : json_null();
}

/* The figures of a row (a table, or the total with t NULL), as the report shows them. */
static json_t *
mg_row_json(const struct accounting_config *ac, const struct mg_table *m, bool has_opener, bool has_closer)
{
	const struct acct_count *x = &m->c;
	int64_t win = 0, variance;
	double pct;
	bool flagged;

	if (acct_count_win(x, &win, &(struct pb_error){0}) < 0 || __builtin_sub_overflow(win, m->hand_win, &variance))
		return NULL;
	pct = x->drop != 0 ? 100.0 * (double)variance / (double)x->drop : NAN;
	flagged = llabs(variance) >= ac->variance_threshold || (x->drop != 0 && fabs(pct) >= ac->variance_percent);
	return json_pack("{s:o,s:o,s:I,s:I,s:I,s:I,s:o,s:I,s:I,s:o,s:b,s:{s:o,s:o,s:i,s:i,s:i}}",
	    "opener", has_opener ? json_integer(x->opener) : json_null(),
	    "closer", has_closer ? json_integer(x->closer) : json_null(),
	    "fills", (json_int_t)x->fills, "credits", (json_int_t)x->credits, "drop", (json_int_t)x->drop,
	    "win", (json_int_t)win, "win_per_drop", x->drop != 0 ? json_real((double)win / (double)x->drop) : json_null(),
	    "hand_win", (json_int_t)m->hand_win, "variance", (json_int_t)variance,
	    "variance_percent", x->drop != 0 ? json_real(pct) : json_null(), "flagged", flagged,
	    "documents", "opener", id_or_null(x->opener_id), "closer", id_or_null(x->closer_id),
	    "fills", x->fill_count, "credits", x->credit_count, "drops", x->drop_count);
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
		if ((table_id != NULL && strcmp(t->id, table_id) != 0) || (a->token != NULL && !token_allows_table(a->token, t->id)))
			continue;
		m->tables[m->count++].t = t;
	}
	return 0;
}

/* Does a table of m have a document in the window? */
static bool
mg_any(const struct mg_table *x)
{
	return acct_count_any(&x->c);
}

static bool
mg_documented(const struct mg *m)
{
	for (size_t i = 0; i < m->count; i++)
		if (mg_any(&m->tables[i]))
			return true;
	return false;
}

/* The rows and the total of m as {"tables", "total"}. */
static json_t *
mg_json(const struct accounting_config *ac, const struct mg *m, bool only_documented)
{
	struct mg_table total;
	bool any_opener = false, any_closer = false;
	json_t *rows = json_array(), *row, *o;

	memset(&total, 0, sizeof(total));
	for (size_t i = 0; rows != NULL && i < m->count; i++) {
		const struct mg_table *x = &m->tables[i];
		if (only_documented && !mg_any(x))
			continue;
		if ((row = mg_row_json(ac, x, x->c.opener_id != 0, x->c.closer_id != 0)) == NULL)
			break;
		json_object_set_new(row, "table", json_string(x->t->id));
		json_object_set_new(row, "player_banked", json_boolean(x->t->player_banked));
		json_array_append_new(rows, row);
		total.c.opener += x->c.opener;
		total.c.closer += x->c.closer;
		total.c.fills += x->c.fills;
		total.c.credits += x->c.credits;
		total.c.drop += x->c.drop;
		total.hand_win += x->hand_win;
		total.c.fill_count += x->c.fill_count;
		total.c.credit_count += x->c.credit_count;
		total.c.drop_count += x->c.drop_count;
		any_opener = any_opener || x->c.opener_id != 0;
		any_closer = any_closer || x->c.closer_id != 0;
	}
	o = mg_row_json(ac, &total, any_opener, any_closer);
	if (o != NULL)
		json_object_del(o, "documents");
	return rows && o ? json_pack("{s:o,s:o}", "tables", rows, "total", o) : NULL;
}

int
acct_master_game(struct pit *p, const struct actor *a, const char *table_id, int64_t day, int shift,
    bool only_documented, json_t **out, struct pb_error *err)
{
	const struct gaming_calendar *cal = &p->cfg->property.calendar;
	struct mg m = {.receipts = p->cfg->accounting.signatures == ACCT_SIGNATURES_NJ};
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
	if (mg_tables(p, a, table_id, &m, err) < 0)
		return -1;
	if (store_acct_day(p->store, text, mg_document, &m, err) != 0)
		goto out;
	/* the exceptions ask of every day of their range: a day without documents needs no hands */
	if ((!only_documented || mg_documented(&m)) && mg_hand_win(p, a, &m, table_id, from_s * 1000, to_s * 1000, err) < 0)
		goto out;
	*out = mg_json(&p->cfg->accounting, &m, only_documented);
	rc = *out != NULL ? 0 : pb_oom(err);
out:
	free(m.tables);
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
