/*
 * reports.c - the report queries: per-hour aggregates, the largest payout
 * lines, void rounds, coverage shortfalls and significant events.  Every
 * value is bound; a table scope is one bound JSON array read by json_each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/reports.h"
#include "store/store_int.h"

/* Binds a table scope (JSON array text) or NULL. */
static void
bind_scope(sqlite3_stmt *st, int col, const char *tables)
{
	if (tables != NULL)
		sqlite3_bind_text(st, col, tables, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

/*
 * The sums of a report row from consecutive columns starting at col
 * (rounds, voids, hands, handle x4, house win x5, lines x5, then the
 * player-banked part: rounds, handle x4, win x5, lines x5, collections);
 * returns the column after them.
 */
static int
report_sums_read(sqlite3_stmt *st, int col, struct report_hour *row)
{
	row->rounds = sqlite3_column_int64(st, col++);
	row->voids = sqlite3_column_int64(st, col++);
	row->hands = sqlite3_column_int64(st, col++);
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		row->handle[w] = sqlite3_column_int64(st, col++);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		row->house_win[w] = sqlite3_column_int64(st, col++);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		row->lines[w] = sqlite3_column_int64(st, col++);
	row->banked_rounds = sqlite3_column_int64(st, col++);
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		row->banked_handle[w] = sqlite3_column_int64(st, col++);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		row->banked_win[w] = sqlite3_column_int64(st, col++);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		row->banked_lines[w] = sqlite3_column_int64(st, col++);
	row->collections = sqlite3_column_int64(st, col++);
	return col;
}

int
store_report_row_read(sqlite3_stmt *st, struct report_hour *row)
{
	store_column_text(row->table_id, sizeof(row->table_id), st, 0);
	row->hour = sqlite3_column_int64(st, 1);
	store_column_text(row->dealer, sizeof(row->dealer), st, 2);
	row->rules_id = sqlite3_column_int64(st, 3);
	return report_sums_read(st, 4, row);
}

/* Calls fn for each row of q, read into a zeroed report_hour by read; fn's non-zero return stops the walk. */
static int
report_walk(struct store_query *q, void (*read)(sqlite3_stmt *, struct report_hour *), report_hour_fn fn, void *arg)
{
	struct report_hour row;
	int stop = 0;

	while (store_query_next(q)) {
		memset(&row, 0, sizeof(row));
		read(q->st, &row);
		if ((stop = fn(arg, &row, q->err)) != 0)
			break;
	}
	if (store_query_end(q) < 0)
		return -1;
	return stop;
}

int
store_report_rows(struct store *s, enum stmt_id id, const char *what, int64_t from, int64_t to, const char *tables,
    int kind, void (*read)(sqlite3_stmt *, struct report_hour *), report_hour_fn fn, void *arg, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, id, what, err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, from);
	sqlite3_bind_int64(q.st, 2, to);
	bind_scope(q.st, 3, tables);
	if (kind != 0)
		sqlite3_bind_int(q.st, 4, kind);
	return report_walk(&q, read, fn, arg);
}

/* A row of STMT_REPORT_HOURS. */
static void
read_hour(sqlite3_stmt *st, struct report_hour *row)
{
	int col = store_report_row_read(st, row);

	row->first_ms = sqlite3_column_int64(st, col++);
	row->last_ms = sqlite3_column_int64(st, col);
}

int
store_report_hours(struct store *s, const char *tables, int64_t from_hour, int64_t to_hour,
    report_hour_fn fn, void *arg, struct pb_error *err)
{
	return store_report_rows(s, STMT_REPORT_HOURS, "reading the report aggregates", from_hour, to_hour, tables, 0,
	    read_hour, fn, arg, err);
}

/* The stored rules' hash (and, when j is given, their parsed JSON); 500 when there are none. */
static int
rules_row(struct store *s, enum stmt_id id, int64_t rules_id, char sha256[PB_SHA256_HEX_LEN], json_t **j,
    struct pb_error *err)
{
	struct store_query q;
	bool row;

	if (store_query(&q, s, id, "reading stored rules", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, rules_id);
	if ((row = store_query_next(&q))) {
		store_column_text(sha256, PB_SHA256_HEX_LEN, q.st, 0);
		if (j != NULL)
			*j = json_loads((const char *)sqlite3_column_text(q.st, 1), 0, NULL);
	}
	if (store_query_end(&q) < 0)
		return -1;
	if (!row)
		return pb_fail(err, 500, "storage_error", "rules %lld: no such stored rules", (long long)rules_id);
	return 0;
}

int
store_rules_sha256(struct store *s, int64_t rules_id, char sha256[PB_SHA256_HEX_LEN], struct pb_error *err)
{
	return rules_row(s, STMT_RULES_SHA256, rules_id, sha256, NULL, err);
}

int
store_rules_get(struct store *s, int64_t rules_id, struct rules *out, char sha256[PB_SHA256_HEX_LEN],
    struct pb_error *err)
{
	json_t *j = NULL;
	struct pb_error sub;

	if (rules_row(s, STMT_RULES_GET, rules_id, sha256, &j, err) < 0)
		return -1;
	if (j == NULL || rules_from_json(j, out, &sub) < 0) {
		json_decref(j);
		return pb_fail(err, 500, "storage_error", "rules %lld: the stored rules are unreadable", (long long)rules_id);
	}
	json_decref(j);
	return 0;
}

/* A row of STMT_REPORT_PAYOUTS. */
static void
read_payout(sqlite3_stmt *st, struct report_payout *p)
{
	int w = wager_from_name((const char *)sqlite3_column_text(st, 3));

	memset(p, 0, sizeof(*p));
	p->round_id = sqlite3_column_int64(st, 0);
	store_column_text(p->table_id, sizeof(p->table_id), st, 1);
	p->seat = sqlite3_column_int(st, 2);
	p->wager = w < 0 ? WAGER_ANTE : (enum wager)w;
	p->stake = sqlite3_column_int64(st, 4);
	p->net = sqlite3_column_int64(st, 5);
	store_column_text(p->at, sizeof(p->at), st, 6);
	p->has_cards = store_cards_parse((const char *)sqlite3_column_text(st, 7), p->cards) == 0;
	p->has_dealer = store_cards_parse((const char *)sqlite3_column_text(st, 8), p->dealer) == 0;
}

/* Reads the payouts_net index in net order (why it is written so: sql.c). */
int
store_report_payouts(struct store *s, const char *tables, int64_t min_net, const char *from, const char *to,
    int max, struct report_payout *out, int *count, struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_REPORT_PAYOUTS, "reading the largest payouts", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, min_net);
	sqlite3_bind_text(q.st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 3, to, -1, SQLITE_STATIC);
	bind_scope(q.st, 4, tables);
	sqlite3_bind_int(q.st, 5, max);
	while (store_query_next(&q) && *count < max)
		read_payout(q.st, &out[(*count)++]);
	return store_query_end(&q);
}

void
report_exception_list_free(struct report_exception_list *l)
{
	if (l == NULL)
		return;
	for (int i = 0; i < l->count; i++)
		free(l->items[i].detail);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

/* A new zeroed entry at the end of the list; NULL when out of memory. */
static struct report_exception *
exception_add(struct report_exception_list *l, const char *detail)
{
	struct report_exception *e;

	if (l->count == l->cap) {
		int cap = l->cap ? l->cap * 2 : 64;
		struct report_exception *n = realloc(l->items, (size_t)cap * sizeof(*n));
		if (n == NULL)
			return NULL;
		l->items = n;
		l->cap = cap;
	}
	e = &l->items[l->count];
	memset(e, 0, sizeof(*e));
	e->detail = strdup(detail ? detail : "");
	if (e->detail == NULL)
		return NULL;
	l->count++;
	return e;
}

/*
 * Appends an exception for each row of q (bound by the caller), its detail
 * from column detail_col (none when -1), the rest filled by fill; ends q.
 */
static int
exceptions_walk(struct store_query *q, int detail_col, void (*fill)(sqlite3_stmt *, struct report_exception *),
    struct report_exception_list *out)
{
	while (store_query_next(q)) {
		const char *detail = detail_col < 0 ? NULL : (const char *)sqlite3_column_text(q->st, detail_col);
		struct report_exception *e = exception_add(out, detail);

		if (e == NULL) {
			store_query_end(q);
			return pb_oom(q->err);
		}
		fill(q->st, e);
	}
	return store_query_end(q);
}

/* Binds [from, to), the table scope and the limit: ?1 .. ?4 of the exception queries. */
static void
bind_range_scope(sqlite3_stmt *st, const char *from, const char *to, const char *tables, int max)
{
	sqlite3_bind_text(st, 1, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, to, -1, SQLITE_STATIC);
	bind_scope(st, 3, tables);
	sqlite3_bind_int(st, 4, max);
}

/* A row of STMT_REPORT_VOIDS (its void_reason is the detail). */
static void
fill_void(sqlite3_stmt *st, struct report_exception *e)
{
	e->round_id = sqlite3_column_int64(st, 0);
	store_column_text(e->table_id, sizeof(e->table_id), st, 1);
	store_column_text(e->at, sizeof(e->at), st, 2);
	snprintf(e->kind, sizeof(e->kind), "void");
}

int
store_report_voids(struct store *s, const char *tables, const char *from, const char *to, int max,
    struct report_exception_list *out, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_REPORT_VOIDS, "reading void rounds", err) < 0)
		return -1;
	bind_range_scope(q.st, from, to, tables, max);
	return exceptions_walk(&q, 3, fill_void, out);
}

/* A row of STMT_REPORT_SHORTS. */
static void
fill_short(sqlite3_stmt *st, struct report_exception *e)
{
	int w;

	e->round_id = sqlite3_column_int64(st, 0);
	store_column_text(e->table_id, sizeof(e->table_id), st, 1);
	store_column_text(e->at, sizeof(e->at), st, 2);
	snprintf(e->kind, sizeof(e->kind), "coverage_short");
	e->seat = sqlite3_column_int(st, 3);
	w = wager_from_name((const char *)sqlite3_column_text(st, 4));
	e->wager = w < 0 ? WAGER_ANTE : (enum wager)w;
	e->stake = sqlite3_column_int64(st, 5);
	e->net = sqlite3_column_int64(st, 6);
	e->short_amount = sqlite3_column_int64(st, 7);
}

int
store_report_shorts(struct store *s, const char *tables, const char *from, const char *to, int max,
    struct report_exception_list *out, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_REPORT_SHORTS, "reading coverage shortfalls", err) < 0)
		return -1;
	bind_range_scope(q.st, from, to, tables, max);
	return exceptions_walk(&q, -1, fill_short, out);
}

/* True when the database has a table of this name (a later migration's). */
static int
has_table(struct store *s, const char *name, bool *found, struct pb_error *err)
{
	struct store_query q;
	int64_t one;

	if (store_query(&q, s, STMT_HAS_TABLE, "reading the schema", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, name, -1, SQLITE_STATIC);
	return store_query_int64(&q, &one, found);
}

/* A row of STMT_REPORT_SIGNIFICANT (its detail is the event's). */
static void
fill_significant(sqlite3_stmt *st, struct report_exception *e)
{
	e->event_id = sqlite3_column_int64(st, 0);
	store_column_text(e->at, sizeof(e->at), st, 1);
	store_column_text(e->source, sizeof(e->source), st, 2);
	store_column_text(e->kind, sizeof(e->kind), st, 3);
	store_column_text(e->table_id, sizeof(e->table_id), st, 4);
}

int
store_report_significant(struct store *s, const char *tables, const char *codes, const char *from,
    const char *to, int max, struct report_exception_list *out, struct pb_error *err)
{
	struct store_query q;
	bool found = false;

	if (has_table(s, "significant_events", &found, err) < 0)
		return -1;
	if (!found)
		return 0;
	if (store_query(&q, s, STMT_REPORT_SIGNIFICANT, "reading significant events", err) < 0)
		return -1;
	bind_range_scope(q.st, from, to, tables, max);
	sqlite3_bind_text(q.st, 5, codes, -1, SQLITE_STATIC);
	return exceptions_walk(&q, 5, fill_significant, out);
}
