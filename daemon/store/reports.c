/*
 * reports.c - the report queries: per-hour aggregates, the largest payout
 * lines, void rounds, coverage shortfalls and significant events.  Every
 * value is bound; a table scope is one bound JSON array read by json_each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/reports.h"
#include "store/sql/chain.h"
#include "store/sql/reports.h"
#include "store/store_int.h"

/* The runs of sums per wager are in the order of enum wager: the loops below index them by it. */
#define WAGER_RUN(p) \
	(p##_PLAY == p##_ANTE + WAGER_PLAY && p##_PAIR_PLUS == p##_ANTE + WAGER_PAIR_PLUS && \
	p##_SIX_CARD == p##_ANTE + WAGER_SIX_CARD)
#define WAGER_RUN5(p) (WAGER_RUN(p) && p##_ANTE_BONUS == p##_ANTE + WAGER_ANTE_BONUS)
_Static_assert(WAGER_RUN(REPORT_SUM_HANDLE) && WAGER_RUN5(REPORT_SUM_WIN) && WAGER_RUN5(REPORT_SUM_LINES) &&
    WAGER_RUN(BANKED_SUM_HANDLE) && WAGER_RUN5(BANKED_SUM_WIN) && WAGER_RUN5(BANKED_SUM_LINES),
    "the sums of a report row per wager follow enum wager");

/* Binds a table scope (JSON array text) or NULL. */
static void
bind_scope(sqlite3_stmt *st, int param, const char *tables)
{
	if (tables != NULL)
		sqlite3_bind_text(st, param, tables, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, param);
}

/* The sums of a report row (REPORT_SUMS from column sums, BANKED_SUMS from column banked; sql/reports.h). */
static void
report_sums_read(sqlite3_stmt *st, int sums, int banked, struct report_hour *row)
{
	row->rounds = sqlite3_column_int64(st, sums + REPORT_SUM_ROUNDS);
	row->voids = sqlite3_column_int64(st, sums + REPORT_SUM_VOIDS);
	row->hands = sqlite3_column_int64(st, sums + REPORT_SUM_HANDS);
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		row->handle[w] = sqlite3_column_int64(st, sums + REPORT_SUM_HANDLE_ANTE + w);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++) {
		row->house_win[w] = sqlite3_column_int64(st, sums + REPORT_SUM_WIN_ANTE + w);
		row->lines[w] = sqlite3_column_int64(st, sums + REPORT_SUM_LINES_ANTE + w);
	}
	row->banked_rounds = sqlite3_column_int64(st, banked + BANKED_SUM_ROUNDS);
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		row->banked_handle[w] = sqlite3_column_int64(st, banked + BANKED_SUM_HANDLE_ANTE + w);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++) {
		row->banked_win[w] = sqlite3_column_int64(st, banked + BANKED_SUM_WIN_ANTE + w);
		row->banked_lines[w] = sqlite3_column_int64(st, banked + BANKED_SUM_LINES_ANTE + w);
	}
	row->collections = sqlite3_column_int64(st, banked + BANKED_SUM_COLLECTIONS);
}

void
store_report_row_read(sqlite3_stmt *st, struct report_hour *row)
{
	store_column_text(row->table_id, sizeof(row->table_id), st, REPORT_COL_TABLE_ID);
	row->hour = sqlite3_column_int64(st, REPORT_COL_HOUR);
	store_column_text(row->dealer, sizeof(row->dealer), st, REPORT_COL_DEALER);
	row->rules_id = sqlite3_column_int64(st, REPORT_COL_RULES_ID);
	report_sums_read(st, REPORT_COL_SUMS, REPORT_COL_BANKED, row);
}

void
store_report_sums_bind(sqlite3_stmt *st, int sums, int banked, const struct report_hour *row)
{
	sqlite3_bind_int64(st, sums + REPORT_SUM_ROUNDS, row->rounds);
	sqlite3_bind_int64(st, sums + REPORT_SUM_VOIDS, row->voids);
	sqlite3_bind_int64(st, sums + REPORT_SUM_HANDS, row->hands);
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		sqlite3_bind_int64(st, sums + REPORT_SUM_HANDLE_ANTE + w, row->handle[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++) {
		sqlite3_bind_int64(st, sums + REPORT_SUM_WIN_ANTE + w, row->house_win[w]);
		sqlite3_bind_int64(st, sums + REPORT_SUM_LINES_ANTE + w, row->lines[w]);
	}
	sqlite3_bind_int64(st, banked + BANKED_SUM_ROUNDS, row->banked_rounds);
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		sqlite3_bind_int64(st, banked + BANKED_SUM_HANDLE_ANTE + w, row->banked_handle[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++) {
		sqlite3_bind_int64(st, banked + BANKED_SUM_WIN_ANTE + w, row->banked_win[w]);
		sqlite3_bind_int64(st, banked + BANKED_SUM_LINES_ANTE + w, row->banked_lines[w]);
	}
	sqlite3_bind_int64(st, banked + BANKED_SUM_COLLECTIONS, row->collections);
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
	sqlite3_bind_int64(q.st, RANGE_P_FROM, from);
	sqlite3_bind_int64(q.st, RANGE_P_TO, to);
	bind_scope(q.st, RANGE_P_TABLES, tables);
	if (kind != 0)
		sqlite3_bind_int(q.st, RANGE_P_KIND, kind);
	return report_walk(&q, read, fn, arg);
}

/* A row of STMT_REPORT_HOURS (HOURS_COLUMNS). */
static void
read_hour(sqlite3_stmt *st, struct report_hour *row)
{
	store_report_row_read(st, row);
	row->first_ms = sqlite3_column_int64(st, HOURS_COL_FIRST_MS);
	row->last_ms = sqlite3_column_int64(st, HOURS_COL_LAST_MS);
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

/* A row of STMT_REPORT_PAYOUTS (LARGE_PAYOUT_COLS). */
static void
read_payout(sqlite3_stmt *st, struct report_payout *p)
{
	int w = wager_from_name((const char *)sqlite3_column_text(st, LARGE_PAYOUT_COL_WAGER));

	memset(p, 0, sizeof(*p));
	p->round_id = sqlite3_column_int64(st, LARGE_PAYOUT_COL_ROUND_ID);
	store_column_text(p->table_id, sizeof(p->table_id), st, LARGE_PAYOUT_COL_TABLE_ID);
	p->seat = sqlite3_column_int(st, LARGE_PAYOUT_COL_SEAT);
	p->wager = w < 0 ? WAGER_ANTE : (enum wager)w;
	p->stake = sqlite3_column_int64(st, LARGE_PAYOUT_COL_STAKE);
	p->net = sqlite3_column_int64(st, LARGE_PAYOUT_COL_NET);
	store_column_text(p->at, sizeof(p->at), st, LARGE_PAYOUT_COL_AT);
	p->has_cards = store_cards_parse((const char *)sqlite3_column_text(st, LARGE_PAYOUT_COL_CARDS), p->cards) == 0;
	p->has_dealer =
	    store_cards_parse((const char *)sqlite3_column_text(st, LARGE_PAYOUT_COL_DEALER_CARDS), p->dealer) == 0;
}

/* Reads the payouts_net index in net order (why it is written so: sql/reports.def). */
int
store_report_payouts(struct store *s, const char *tables, int64_t min_net, const char *from, const char *to,
    int max, struct report_payout *out, int *count, struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_REPORT_PAYOUTS, "reading the largest payouts", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, LARGE_PAYOUT_P_MIN_NET, min_net);
	sqlite3_bind_text(q.st, LARGE_PAYOUT_P_FROM, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, LARGE_PAYOUT_P_TO, to, -1, SQLITE_STATIC);
	bind_scope(q.st, LARGE_PAYOUT_P_TABLES, tables);
	sqlite3_bind_int(q.st, LARGE_PAYOUT_P_LIMIT, max);
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
	sqlite3_bind_text(st, RANGE_P_FROM, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, RANGE_P_TO, to, -1, SQLITE_STATIC);
	bind_scope(st, RANGE_P_TABLES, tables);
	sqlite3_bind_int(st, RANGE_P_LIMIT, max);
}

/* A row of STMT_REPORT_VOIDS (VOID_COLS; its void_reason is the detail). */
static void
fill_void(sqlite3_stmt *st, struct report_exception *e)
{
	e->round_id = sqlite3_column_int64(st, VOID_COL_ROUND_ID);
	store_column_text(e->table_id, sizeof(e->table_id), st, VOID_COL_TABLE_ID);
	store_column_text(e->at, sizeof(e->at), st, VOID_COL_AT);
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
	return exceptions_walk(&q, VOID_COL_REASON, fill_void, out);
}

/* A row of STMT_REPORT_SHORTS (SHORT_COLS). */
static void
fill_short(sqlite3_stmt *st, struct report_exception *e)
{
	int w;

	e->round_id = sqlite3_column_int64(st, SHORT_COL_ROUND_ID);
	store_column_text(e->table_id, sizeof(e->table_id), st, SHORT_COL_TABLE_ID);
	store_column_text(e->at, sizeof(e->at), st, SHORT_COL_AT);
	snprintf(e->kind, sizeof(e->kind), "coverage_short");
	e->seat = sqlite3_column_int(st, SHORT_COL_SEAT);
	w = wager_from_name((const char *)sqlite3_column_text(st, SHORT_COL_WAGER));
	e->wager = w < 0 ? WAGER_ANTE : (enum wager)w;
	e->stake = sqlite3_column_int64(st, SHORT_COL_STAKE);
	e->net = sqlite3_column_int64(st, SHORT_COL_NET);
	e->short_amount = sqlite3_column_int64(st, SHORT_COL_SHORT);
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

/* A row of STMT_REPORT_SIGNIFICANT (SIGNIFICANT_COLS, sql/chain.h; its detail is the event's). */
static void
fill_significant(sqlite3_stmt *st, struct report_exception *e)
{
	e->event_id = sqlite3_column_int64(st, SIGNIFICANT_COL_ID);
	store_column_text(e->at, sizeof(e->at), st, SIGNIFICANT_COL_AT);
	store_column_text(e->source, sizeof(e->source), st, SIGNIFICANT_COL_SOURCE);
	store_column_text(e->kind, sizeof(e->kind), st, SIGNIFICANT_COL_CODE);
	store_column_text(e->table_id, sizeof(e->table_id), st, SIGNIFICANT_COL_TABLE_ID);
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
	sqlite3_bind_text(q.st, RANGE_P_CODES, codes, -1, SQLITE_STATIC);
	return exceptions_walk(&q, SIGNIFICANT_COL_DETAIL, fill_significant, out);
}
