/*
 * audit.c - raw reads of the event chain, checkpoints, the significant-events
 * log and table holds.
 */
#include "store/audit.h"
#include "store/sql/chain.h"
#include "store/sql/reports.h"
#include "store/sql/rounds.h"
#include "store/store_int.h"

#include "common/json_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char GENESIS[PB_SHA256_HEX_LEN] =
    "0000000000000000000000000000000000000000000000000000000000000000";

void
event_list_free(struct event_list *l)
{
	if (l == NULL)
		return;
	for (int i = 0; i < l->count; i++)
		free(l->events[i].body);
	free(l->events);
	memset(l, 0, sizeof(*l));
}

/* The columns of an event as read (EVENT_COLS, sql/chain.h) but its body, and the members that hold them. */
#define EVENT_FIELD(member, col) STORE_FIELD(struct stored_event, member, col)
static const struct store_field EVENT_FIELDS_READ[] = {
	EVENT_FIELD(table_id, EVENT_COL_TABLE_ID), EVENT_FIELD(table_seq, EVENT_COL_TABLE_SEQ),
	EVENT_FIELD(round_id, EVENT_COL_ROUND_ID), EVENT_FIELD(type, EVENT_COL_TYPE), EVENT_FIELD(at, EVENT_COL_AT),
	EVENT_FIELD(actor, EVENT_COL_ACTOR), EVENT_FIELD(prev_hash, EVENT_COL_PREV_HASH),
	EVENT_FIELD(hash, EVENT_COL_HASH), EVENT_FIELD(id, EVENT_COL_ID),
};
_Static_assert(sizeof(EVENT_FIELDS_READ) / sizeof(EVENT_FIELDS_READ[0]) == EVENT_COL_COUNT - 1,
    "every column of an event is read (the body apart)");

/*
 * Reads the row (table_id, table_seq, round_id, type, at, actor, body,
 * prev_hash, hash, id); -1 when the body could not be copied (out of
 * memory: e->body NULL, nothing to free).  A column SQLite could not give
 * fails the query at its end (store_query_end).
 */
static int
read_event(sqlite3_stmt *st, struct stored_event *e)
{
	store_fields_read(st, EVENT_FIELDS_READ, sizeof(EVENT_FIELDS_READ) / sizeof(EVENT_FIELDS_READ[0]), e);
	e->body = strdup(store_column_str(st, EVENT_COL_BODY));
	return e->body != NULL ? 0 : -1;
}

/*
 * Appends every row of the query (bound by the caller) to out, then ends the
 * query.  On failure (a read error part way, as on a damaged file, or out of
 * memory) out is emptied: the caller has nothing to free.
 */
static int
collect(struct store_query *q, struct event_list *out)
{
	while (store_query_next(q)) {
		if (out->count == out->cap) {
			int cap = out->cap ? out->cap * 2 : 64;
			struct stored_event *n = realloc(out->events, (size_t)cap * sizeof(*n));
			if (n == NULL) {
				store_query_end(q);
				event_list_free(out);
				return pb_oom(q->err);
			}
			out->events = n;
			out->cap = cap;
		}
		if (read_event(q->st, &out->events[out->count]) < 0) {
			store_query_end(q);
			event_list_free(out);
			return pb_oom(q->err);
		}
		out->count++;
	}
	if (store_query_end(q) < 0) {
		event_list_free(out);
		return -1;
	}
	return 0;
}

int
store_events_range(struct store *s, const char *table_id, int64_t from, int64_t to, struct event_list *out,
    struct pb_error *err)
{
	struct store_query q;

	memset(out, 0, sizeof(*out));
	if (store_query(&q, s, STMT_EVENTS_RANGE, "reading events", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, from);
	sqlite3_bind_int64(q.st, 3, to > 0 ? to : INT64_MAX);
	return collect(&q, out);
}

int
store_events_after(struct store *s, int64_t after_id, int max, struct event_list *out, struct pb_error *err)
{
	struct store_query q;

	memset(out, 0, sizeof(*out));
	if (store_query(&q, s, STMT_EVENTS_AFTER, "reading events to ship", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, after_id);
	sqlite3_bind_int(q.st, 2, max);
	return collect(&q, out);
}

int
store_round_events_raw(struct store *s, int64_t round_id, struct event_list *out, struct pb_error *err)
{
	struct store_query q;

	memset(out, 0, sizeof(*out));
	if (store_query(&q, s, STMT_EVENTS_OF_ROUND, "reading events", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, round_id);
	return collect(&q, out);
}

int
store_event_before(struct store *s, const char *table_id, int64_t table_seq, struct stored_event *out,
    bool *found, struct pb_error *err)
{
	struct store_query q;

	*found = false;
	if (store_query(&q, s, STMT_EVENT_BEFORE, "reading an event", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, table_seq);
	if (store_query_next(&q)) {
		if (read_event(q.st, out) < 0) {
			store_query_end(&q);
			return pb_oom(err);
		}
		*found = true;
	}
	if (store_query_end(&q) < 0) {
		if (*found)
			free(out->body);
		*found = false;
		return -1;
	}
	return 0;
}

int
store_chain_head(struct store *s, const char *table_id, int64_t *seq, char hash[PB_SHA256_HEX_LEN], struct pb_error *err)
{
	struct store_query q;

	*seq = 0;
	memcpy(hash, GENESIS, PB_SHA256_HEX_LEN);
	if (store_query(&q, s, STMT_CHAIN_HEAD, "reading a chain head", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	if (store_query_next(&q)) {
		*seq = sqlite3_column_int64(q.st, 0);
		store_column_text(hash, PB_SHA256_HEX_LEN, q.st, 1);
	}
	return store_query_end(&q);
}

int
store_event_tables(struct store *s, char (*ids)[PB_ID_MAX], int max, int *count, struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_EVENT_TABLES, "listing chains", err) < 0)
		return -1;
	while (store_query_next(&q) && *count < max)
		store_column_text(ids[(*count)++], PB_ID_MAX, q.st, 0);
	return store_query_end(&q);
}

int
store_round_ids_last(struct store *s, const char *table_id, int max, int64_t *ids, int *count, struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_ROUND_IDS_LAST, "listing a table's last rounds", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, 2, max);
	while (*count < max && store_query_next(&q))
		ids[(*count)++] = sqlite3_column_int64(q.st, 0);
	return store_query_end(&q);
}

int
store_round_ids(struct store *s, const char *table_id, int64_t from_id, int64_t **ids, int *count, struct pb_error *err)
{
	struct store_query q;
	int cap = 0;

	*ids = NULL;
	*count = 0;
	if (store_query(&q, s, STMT_ROUND_IDS, "listing rounds", err) < 0)
		return -1;
	if (table_id != NULL)
		sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, from_id);
	while (store_query_next(&q)) {
		if (*count == cap) {
			int64_t *n;
			cap = cap ? cap * 2 : 256;
			n = realloc(*ids, (size_t)cap * sizeof(**ids));
			if (n == NULL) {
				store_query_end(&q);
				free(*ids);
				*ids = NULL;
				return pb_oom(err);
			}
			*ids = n;
		}
		(*ids)[(*count)++] = sqlite3_column_int64(q.st, 0);
	}
	return store_query_end(&q);
}

int
store_round_counts(struct store *s, int64_t round_id, struct derived_counts *out, struct pb_error *err)
{
	struct store_query q;
	bool row;

	if (store_query(&q, s, STMT_ROUND_COUNTS, "counting a round's rows", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, round_id);
	if ((row = store_query_next(&q))) {
		out->bets = sqlite3_column_int(q.st, ROUND_COUNT_COL_BETS);
		out->hands = sqlite3_column_int(q.st, ROUND_COUNT_COL_HANDS);
		out->decisions = sqlite3_column_int(q.st, ROUND_COUNT_COL_DECISIONS);
		out->payouts = sqlite3_column_int(q.st, ROUND_COUNT_COL_PAYOUTS);
		out->collections = sqlite3_column_int(q.st, ROUND_COUNT_COL_COLLECTIONS);
	}
	if (store_query_end(&q) < 0)
		return -1;
	return row ? 0 : store_fail(s, err, q.what);
}

/* ---- checkpoints ---- */

int
store_checkpoint_put(struct store *s, const struct checkpoint *c, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_CHECKPOINT_INSERT, "recording a checkpoint", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(CHECKPOINT_IN_TABLE_ID), c->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, SQL_PARAM(CHECKPOINT_IN_TABLE_SEQ), c->table_seq);
	sqlite3_bind_text(q.st, SQL_PARAM(CHECKPOINT_IN_HEAD_HASH), c->head_hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(CHECKPOINT_IN_AT), c->at, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(CHECKPOINT_IN_PUBLIC_KEY), c->public_key, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(CHECKPOINT_IN_SIGNATURE), c->signature, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

/* The columns of a checkpoint as read (CHECKPOINT_COLS, sql/chain.h) and the members that hold them. */
#define CHECKPOINT_FIELD(member, col) STORE_FIELD(struct checkpoint, member, col)
static const struct store_field CHECKPOINT_FIELDS[] = {
	CHECKPOINT_FIELD(id, CHECKPOINT_COL_ID), CHECKPOINT_FIELD(table_id, CHECKPOINT_COL_TABLE_ID),
	CHECKPOINT_FIELD(table_seq, CHECKPOINT_COL_TABLE_SEQ), CHECKPOINT_FIELD(head_hash, CHECKPOINT_COL_HEAD_HASH),
	CHECKPOINT_FIELD(at, CHECKPOINT_COL_AT), CHECKPOINT_FIELD(public_key, CHECKPOINT_COL_PUBLIC_KEY),
	CHECKPOINT_FIELD(signature, CHECKPOINT_COL_SIGNATURE),
};
_Static_assert(sizeof(CHECKPOINT_FIELDS) / sizeof(CHECKPOINT_FIELDS[0]) == CHECKPOINT_COL_COUNT,
    "every column of a checkpoint is read");

static void
read_checkpoint(sqlite3_stmt *st, struct checkpoint *c)
{
	store_fields_read(st, CHECKPOINT_FIELDS, CHECKPOINT_COL_COUNT, c);
}

int
store_checkpoint_last(struct store *s, const char *table_id, struct checkpoint *out, bool *found, struct pb_error *err)
{
	struct store_query q;

	*found = false;
	if (store_query(&q, s, STMT_CHECKPOINT_LAST, "reading a checkpoint", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	if (store_query_row(&q, found))
		read_checkpoint(q.st, out);
	return store_query_end(&q);
}

int
store_checkpoints(struct store *s, const char *table_id, int64_t after, int max, struct checkpoint *out, int *count,
    struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_CHECKPOINTS_AFTER, "listing checkpoints", err) < 0)
		return -1;
	if (table_id != NULL)
		sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, after);
	sqlite3_bind_int(q.st, 3, max);
	while (store_query_next(&q) && *count < max)
		read_checkpoint(q.st, &out[(*count)++]);
	return store_query_end(&q);
}

/* ---- significant events ---- */

static char *
significant_canonical(const char *at, const char *source, const char *code, const char *table_id, const char *detail,
    size_t *len)
{
	size_t cap = strlen(at) + strlen(source) + strlen(code) + strlen(table_id) + strlen(detail) + 160;
	char *buf = malloc(cap);
	int n;

	if (buf == NULL)
		return NULL;
	n = snprintf(buf, cap, "pitboss-significant-v1\n%zu:%s%zu:%s%zu:%s%zu:%s%zu:%s", strlen(at), at, strlen(source), source,
	    strlen(code), code, strlen(table_id), table_id, strlen(detail), detail);
	*len = (size_t)n;
	return buf;
}

/*
 * Appends an entry chained to the last one, in the caller's transaction or
 * (when none is open) in one of its own.
 */
int
store_significant(struct store *s, const char *source, const char *code, const char *table_id, const json_t *detail,
    struct pb_error *err)
{
	struct store_query q;
	char prev[PB_SHA256_HEX_LEN], hash[PB_SHA256_HEX_LEN], at[PB_TIME_LEN];
	char *text = NULL, *canon = NULL;
	size_t len;
	bool own_tx = sqlite3_get_autocommit(store_db(s)) != 0;
	int rc = -1;

	if (own_tx && store_begin(s, err) < 0)
		return -1;
	memcpy(prev, GENESIS, sizeof(prev));
	if (store_query(&q, s, STMT_SIGNIFICANT_HEAD, "reading the significant-events chain", err) < 0)
		goto out;
	if (store_query_next(&q))
		store_column_text(prev, sizeof(prev), q.st, 0);
	if (store_query_end(&q) < 0)
		goto out;
	pb_time_now(at);
	text = detail ? json_dumps(detail, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENSURE_ASCII) : strdup("{}");
	canon = text ? significant_canonical(at, source, code, table_id ? table_id : "", text, &len) : NULL;
	if (canon == NULL) {
		pb_oom(err);
		goto out;
	}
	store_event_hash(prev, canon, len, hash);
	if (store_query(&q, s, STMT_SIGNIFICANT_INSERT, "recording a significant event", err) < 0)
		goto out;
	sqlite3_bind_text(q.st, SQL_PARAM(SIGNIFICANT_IN_AT), at, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(SIGNIFICANT_IN_SOURCE), source, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(SIGNIFICANT_IN_CODE), code, -1, SQLITE_STATIC);
	if (table_id != NULL)
		sqlite3_bind_text(q.st, SQL_PARAM(SIGNIFICANT_IN_TABLE_ID), table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(SIGNIFICANT_IN_DETAIL), text, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(SIGNIFICANT_IN_PREV_HASH), prev, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(SIGNIFICANT_IN_HASH), hash, -1, SQLITE_STATIC);
	if (store_query_done(&q) < 0)
		goto out;
	rc = 0;
out:
	free(text);
	free(canon);
	if (own_tx) {
		if (rc == 0)
			rc = store_commit(s, err);
		else
			store_rollback(s);
	}
	return rc;
}

json_t *
store_significant_list(struct store *s, int64_t after, int limit, struct pb_error *err)
{
	struct store_query q;
	json_t *arr;

	if (store_query(&q, s, STMT_SIGNIFICANT_LIST, "reading significant events", err) < 0)
		return NULL;
	sqlite3_bind_int64(q.st, 1, after);
	sqlite3_bind_int(q.st, 2, limit);
	/* The log as the auditor reads it: a page short of an entry would look whole, so it is all or nothing. */
	arr = json_array();
	while (arr != NULL && store_query_next(&q)) {
		sqlite3_stmt *st = q.st;
		bool oom;
		json_t *detail = json_parse_checked(store_column_str(st, SIGNIFICANT_COL_DETAIL), &oom);
		const unsigned char *t = sqlite3_column_text(st, SIGNIFICANT_COL_TABLE_ID);
		if (oom || json_array_append_new(arr, json_pack("{s:I,s:s,s:s,s:s,s:o,s:o,s:s}",
		    "seq", (json_int_t)sqlite3_column_int64(st, SIGNIFICANT_COL_ID),
		    "at", store_column_str(st, SIGNIFICANT_COL_AT), "source", store_column_str(st, SIGNIFICANT_COL_SOURCE),
		    "code", store_column_str(st, SIGNIFICANT_COL_CODE),
		    "table", t ? json_string((const char *)t) : json_null(), "detail", detail ? detail : json_null(),
		    "hash", store_column_str(st, SIGNIFICANT_LIST_COL_HASH))) < 0) {
			json_decref(arr);
			arr = NULL;
		}
	}
	if (store_query_end(&q) < 0 || arr == NULL) {
		json_decref(arr);
		if (arr == NULL)
			pb_oom(err);
		return NULL;
	}
	return arr;
}

/*
 * Checks one entry of the walk against the hash before it: 1 when it holds,
 * 0 when it breaks the chain (its id into *broken_id), -1 when it could not
 * be checked (out of memory).  A column SQLite could not give reads "" here
 * and fails the walk at its end (store_query_end), never a break.
 */
static int
significant_entry_ok(sqlite3_stmt *st, const char prev[PB_SHA256_HEX_LEN], int64_t *broken_id, char *why, size_t whysz)
{
	char hash[PB_SHA256_HEX_LEN], stored_prev[PB_SHA256_HEX_LEN];
	const char *stored_hash;
	size_t len;
	char *canon;

	store_column_text(stored_prev, sizeof(stored_prev), st, SIGNIFICANT_WALK_COL_PREV_HASH);
	canon = significant_canonical(store_column_str(st, SIGNIFICANT_COL_AT), store_column_str(st, SIGNIFICANT_COL_SOURCE),
	    store_column_str(st, SIGNIFICANT_COL_CODE), store_column_str(st, SIGNIFICANT_COL_TABLE_ID),
	    store_column_str(st, SIGNIFICANT_COL_DETAIL), &len);
	stored_hash = store_column_str(st, SIGNIFICANT_WALK_COL_HASH);
	if (canon == NULL)
		return -1;
	store_event_hash(stored_prev, canon, len, hash);
	free(canon);
	if (strcmp(stored_prev, prev) != 0) {
		*broken_id = sqlite3_column_int64(st, SIGNIFICANT_COL_ID);
		snprintf(why, whysz, "its prev_hash does not match the entry before it (an entry was deleted or inserted)");
		return 0;
	}
	if (strcmp(hash, stored_hash) != 0) {
		*broken_id = sqlite3_column_int64(st, SIGNIFICANT_COL_ID);
		snprintf(why, whysz, "its hash does not match its content (the entry was edited)");
		return 0;
	}
	return 1;
}

int
store_significant_verify(struct store *s, int64_t *broken_id, char *why, size_t whysz, struct pb_error *err)
{
	struct store_query q;
	char prev[PB_SHA256_HEX_LEN];
	int ok = 1;

	*broken_id = 0;
	memcpy(prev, GENESIS, sizeof(prev));
	if (store_query(&q, s, STMT_SIGNIFICANT_WALK, "walking the significant-events chain", err) < 0)
		return -1;
	while (store_query_next(&q) && (ok = significant_entry_ok(q.st, prev, broken_id, why, whysz)) == 1)
		store_column_text(prev, sizeof(prev), q.st, SIGNIFICANT_WALK_COL_HASH);
	if (store_query_end(&q) < 0 || ok < 0) {
		*broken_id = 0;
		return ok < 0 ? pb_oom(err) : -1;
	}
	return 0;
}

/* ---- holds ---- */

int
store_table_hold(struct store *s, const char *table_id, const char *reason, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_TABLE_HOLD_SET, "setting an integrity hold", err) < 0)
		return -1;
	if (reason != NULL)
		sqlite3_bind_text(q.st, 1, reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, table_id, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_table_hold_get(struct store *s, const char *table_id, char *reason, size_t reasonsz, bool *held,
    struct pb_error *err)
{
	struct store_query q;

	*held = false;
	if (store_query(&q, s, STMT_TABLE_HOLD_GET, "reading an integrity hold", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	if (store_query_next(&q) && sqlite3_column_type(q.st, 0) != SQLITE_NULL) {
		*held = true;
		store_column_text(reason, reasonsz, q.st, 0);
	}
	return store_query_end(&q);
}

/* ---- report aggregates ---- */

/* Lists the table-hours whose stored sums differ from those recomputed from the rounds (sql/reports.h). */
int
store_report_hours_verify(struct store *s, char (*out)[200], int max, int *count, struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_REPORT_HOURS_VERIFY, "checking the report aggregates", err) < 0)
		return -1;
	sqlite3_bind_int(q.st, 1, max);
	while (store_query_next(&q) && *count < max) {
		char hour[PB_TIME_LEN];
		pb_time_format_ms(sqlite3_column_int64(q.st, HOURS_DIFF_COL_HOUR) * 1000, hour);
		snprintf(out[(*count)++], 200, "report aggregates of table %s, hour %.16sZ, dealer %s differ from the rounds "
		    "recorded (a report figure was altered, or rounds removed)", store_column_str(q.st, HOURS_DIFF_COL_TABLE_ID),
		    hour, store_column_str(q.st, HOURS_DIFF_COL_DEALER));
	}
	return store_query_end(&q);
}

/* Walks the events a statement (no parameter) selects, one at a time. */
static int
walk_events(struct store *s, enum stmt_id stmt, const char *what, stored_event_fn fn, void *ctx, struct pb_error *err)
{
	struct store_query q;
	struct stored_event e;
	int rc = 0;

	if (store_query(&q, s, stmt, what, err) < 0)
		return -1;
	while (rc == 0 && store_query_next(&q)) {
		if (read_event(q.st, &e) < 0) {
			store_query_end(&q);
			return pb_oom(err);
		}
		rc = fn(ctx, &e, err);
		free(e.body);
	}
	if (rc != 0) {
		store_query_end(&q);
		return rc;
	}
	return store_query_end(&q);
}

int
store_events_after_each(struct store *s, int64_t after_id, int max, stored_event_fn fn, void *ctx, int64_t *last_id,
    struct pb_error *err)
{
	struct store_query q;
	struct stored_event e;
	int rc = 0;

	*last_id = after_id;
	if (store_query(&q, s, STMT_EVENTS_AFTER, "reading events", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, after_id);
	sqlite3_bind_int(q.st, 2, max);
	while (rc == 0 && store_query_next(&q)) {
		store_fields_read(q.st, EVENT_FIELDS_READ, sizeof(EVENT_FIELDS_READ) / sizeof(EVENT_FIELDS_READ[0]), &e);
		e.body = (char *)store_column_str(q.st, EVENT_COL_BODY);
		*last_id = e.id;
		rc = fn(ctx, &e, err);
	}
	if (rc != 0) {
		store_query_end(&q);
		return rc;
	}
	return store_query_end(&q);
}

int
store_table_events(struct store *s, stored_event_fn fn, void *ctx, struct pb_error *err)
{
	return walk_events(s, STMT_TABLE_EVENTS, "reading the tables' and the players' events", fn, ctx, err);
}

int
store_player_rows(struct store *s, enum player_rows which, char **text, struct pb_error *err)
{
	static const enum stmt_id STMTS[] = {
		[PLAYER_ROWS_PLAYERS] = STMT_ROWS_PLAYERS, [PLAYER_ROWS_SEATS] = STMT_ROWS_SEAT_PLAYERS,
		[PLAYER_ROWS_SEAT_CHANGES] = STMT_ROWS_SEAT_CHANGES, [PLAYER_ROWS_TRANSACTIONS] = STMT_ROWS_TRANSACTIONS,
		[PLAYER_ROWS_TITLE31_ACKS] = STMT_ROWS_TITLE31_ACKS, [PLAYER_ROWS_TXN_VOIDS] = STMT_ROWS_TXN_VOIDS,
		[PLAYER_ROWS_MERGES] = STMT_ROWS_MERGES, [PLAYER_ROWS_TITLE31_NOTES] = STMT_ROWS_TITLE31_NOTES,
		[PLAYER_ROWS_MANUAL_RATINGS] = STMT_ROWS_MANUAL_RATINGS,
	};
	struct store_query q;
	const unsigned char *t;

	*text = NULL;
	if (store_query(&q, s, STMTS[which], "reading the players' rows", err) < 0)
		return -1;
	/* A NULL text is "no rows" or SQLite's failed allocation, which store_query_end then reports. */
	if (store_query_next(&q) && (t = sqlite3_column_text(q.st, 0)) != NULL && (*text = strdup((const char *)t)) == NULL) {
		store_query_end(&q);
		return pb_oom(err);
	}
	if (store_query_end(&q) < 0) {
		free(*text);
		*text = NULL;
		return -1;
	}
	return 0;
}
