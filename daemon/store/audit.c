/*
 * audit.c - raw reads of the event chain, checkpoints, the significant-events
 * log and table holds.
 */
#include "store/audit.h"

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

static void
copy_text(char *dst, size_t n, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	snprintf(dst, n, "%s", t ? (const char *)t : "");
}

/* Reads the row (table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash, id). */
static void
read_event(sqlite3_stmt *st, struct stored_event *e)
{
	const unsigned char *body = sqlite3_column_text(st, 6);

	copy_text(e->table_id, sizeof(e->table_id), st, 0);
	e->table_seq = sqlite3_column_int64(st, 1);
	e->round_id = sqlite3_column_int64(st, 2);
	copy_text(e->type, sizeof(e->type), st, 3);
	copy_text(e->at, sizeof(e->at), st, 4);
	copy_text(e->actor, sizeof(e->actor), st, 5);
	e->body = strdup(body ? (const char *)body : "");
	copy_text(e->prev_hash, sizeof(e->prev_hash), st, 7);
	copy_text(e->hash, sizeof(e->hash), st, 8);
	e->id = sqlite3_column_int64(st, 9);
}

#define EVENT_COLUMNS "table_id, table_seq, coalesce(round_id, 0), type, at, actor, body, prev_hash, hash, id"

static int
collect(struct store *s, sqlite3_stmt *st, struct event_list *out, struct pb_error *err)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (out->count == out->cap) {
			int cap = out->cap ? out->cap * 2 : 64;
			struct stored_event *n = realloc(out->events, (size_t)cap * sizeof(*n));
			if (n == NULL) {
				sqlite3_reset(st);
				return pb_fail(err, 500, "out_of_memory", "out of memory");
			}
			out->events = n;
			out->cap = cap;
		}
		read_event(st, &out->events[out->count++]);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading events");
	return 0;
}

int
store_events_range(struct store *s, const char *table_id, int64_t from, int64_t to, struct event_list *out,
    struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT " EVENT_COLUMNS " FROM events WHERE table_id = ? AND table_seq >= ? "
	    "AND table_seq <= ? ORDER BY table_seq", err);

	memset(out, 0, sizeof(*out));
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, from);
	sqlite3_bind_int64(st, 3, to > 0 ? to : INT64_MAX);
	return collect(s, st, out, err);
}

int
store_round_events_raw(struct store *s, int64_t round_id, struct event_list *out, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT " EVENT_COLUMNS " FROM events WHERE round_id = ? ORDER BY table_seq", err);

	memset(out, 0, sizeof(*out));
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, round_id);
	return collect(s, st, out, err);
}

int
store_event_before(struct store *s, const char *table_id, int64_t table_seq, struct stored_event *out,
    bool *found, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT " EVENT_COLUMNS " FROM events WHERE table_id = ? AND table_seq < ? "
	    "ORDER BY table_seq DESC LIMIT 1", err);
	int rc;

	*found = false;
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, table_seq);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		read_event(st, out);
		*found = true;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, err, "reading an event");
	return 0;
}

int
store_chain_head(struct store *s, const char *table_id, int64_t *seq, char hash[PB_SHA256_HEX_LEN], struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT table_seq, hash FROM events WHERE table_id = ? ORDER BY table_seq DESC LIMIT 1", err);
	int rc;

	*seq = 0;
	memcpy(hash, GENESIS, PB_SHA256_HEX_LEN);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*seq = sqlite3_column_int64(st, 0);
		copy_text(hash, PB_SHA256_HEX_LEN, st, 1);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, err, "reading a chain head");
	return 0;
}

int
store_event_tables(struct store *s, char (*ids)[PB_ID_MAX], int max, int *count, struct pb_error *err)
{
	/*
	 * One index probe per table (each the next table_id after the last),
	 * where SELECT DISTINCT would scan the whole index: a second or two at
	 * 10^7 events, at every start.
	 */
	sqlite3_stmt *st = store_stmt(s, "WITH RECURSIVE t(id) AS (SELECT min(table_id) FROM events UNION ALL "
	    "SELECT (SELECT min(table_id) FROM events WHERE table_id > t.id) FROM t WHERE t.id IS NOT NULL) "
	    "SELECT id FROM t WHERE id IS NOT NULL", err);
	int rc;

	*count = 0;
	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < max)
		copy_text(ids[(*count)++], PB_ID_MAX, st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_fail(s, err, "listing chains");
	return 0;
}

int
store_round_ids(struct store *s, const char *table_id, int64_t from_id, int64_t **ids, int *count, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT id FROM rounds WHERE (?1 IS NULL OR table_id = ?1) AND id >= ?2 ORDER BY id", err);
	int rc, cap = 0;

	*ids = NULL;
	*count = 0;
	if (st == NULL)
		return -1;
	if (table_id != NULL)
		sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, from_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*count == cap) {
			int64_t *n;
			cap = cap ? cap * 2 : 256;
			n = realloc(*ids, (size_t)cap * sizeof(**ids));
			if (n == NULL) {
				sqlite3_reset(st);
				free(*ids);
				*ids = NULL;
				return pb_fail(err, 500, "out_of_memory", "out of memory");
			}
			*ids = n;
		}
		(*ids)[(*count)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "listing rounds");
	return 0;
}

int
store_round_counts(struct store *s, int64_t round_id, struct derived_counts *out, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT (SELECT count(*) FROM bets WHERE round_id = ?1), "
	    "(SELECT count(*) FROM hands WHERE round_id = ?1), (SELECT count(*) FROM decisions WHERE round_id = ?1), "
	    "(SELECT count(*) FROM payouts WHERE round_id = ?1), (SELECT count(*) FROM collections WHERE round_id = ?1)", err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, round_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->bets = sqlite3_column_int(st, 0);
		out->hands = sqlite3_column_int(st, 1);
		out->decisions = sqlite3_column_int(st, 2);
		out->payouts = sqlite3_column_int(st, 3);
		out->collections = sqlite3_column_int(st, 4);
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : store_fail(s, err, "counting a round's rows");
}

/* ---- checkpoints ---- */

int
store_checkpoint_put(struct store *s, const struct checkpoint *c, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "INSERT INTO checkpoints (table_id, table_seq, head_hash, at, public_key, signature) "
	    "VALUES (?, ?, ?, ?, ?, ?)", err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, c->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, c->table_seq);
	sqlite3_bind_text(st, 3, c->head_hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, c->at, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, c->public_key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, c->signature, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, err, "recording a checkpoint");
}

static void
read_checkpoint(sqlite3_stmt *st, struct checkpoint *c)
{
	c->id = sqlite3_column_int64(st, 0);
	copy_text(c->table_id, sizeof(c->table_id), st, 1);
	c->table_seq = sqlite3_column_int64(st, 2);
	copy_text(c->head_hash, sizeof(c->head_hash), st, 3);
	copy_text(c->at, sizeof(c->at), st, 4);
	copy_text(c->public_key, sizeof(c->public_key), st, 5);
	copy_text(c->signature, sizeof(c->signature), st, 6);
}

int
store_checkpoint_last(struct store *s, const char *table_id, struct checkpoint *out, bool *found, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT id, table_id, table_seq, head_hash, at, public_key, signature FROM checkpoints "
	    "WHERE table_id = ? ORDER BY id DESC LIMIT 1", err);
	int rc;

	*found = false;
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		read_checkpoint(st, out);
		*found = true;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, err, "reading a checkpoint");
	return 0;
}

int
store_checkpoints(struct store *s, const char *table_id, int64_t after, int max, struct checkpoint *out, int *count,
    struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT id, table_id, table_seq, head_hash, at, public_key, signature FROM checkpoints "
	    "WHERE (?1 IS NULL OR table_id = ?1) AND id > ?2 ORDER BY id LIMIT ?3", err);
	int rc;

	*count = 0;
	if (st == NULL)
		return -1;
	if (table_id != NULL)
		sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, after);
	sqlite3_bind_int(st, 3, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < max)
		read_checkpoint(st, &out[(*count)++]);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_fail(s, err, "listing checkpoints");
	return 0;
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

int
store_significant(struct store *s, const char *source, const char *code, const char *table_id, const json_t *detail,
    struct pb_error *err)
{
	sqlite3_stmt *st;
	char prev[PB_SHA256_HEX_LEN], hash[PB_SHA256_HEX_LEN], at[PB_TIME_LEN];
	char *text = NULL, *canon = NULL;
	size_t len;
	bool own_tx = sqlite3_get_autocommit(store_db(s)) != 0;
	int rc = -1, step;

	if (own_tx && store_begin(s, err) < 0)
		return -1;
	memcpy(prev, GENESIS, sizeof(prev));
	st = store_stmt(s, "SELECT hash FROM significant_events ORDER BY id DESC LIMIT 1", err);
	if (st == NULL)
		goto out;
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		copy_text(prev, sizeof(prev), st, 0);
	sqlite3_reset(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		store_fail(s, err, "reading the significant-events chain");
		goto out;
	}
	pb_time_now(at);
	text = detail ? json_dumps(detail, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENSURE_ASCII) : strdup("{}");
	canon = text ? significant_canonical(at, source, code, table_id ? table_id : "", text, &len) : NULL;
	if (canon == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		goto out;
	}
	store_event_hash(prev, canon, len, hash);
	st = store_stmt(s, "INSERT INTO significant_events (at, source, code, table_id, detail, prev_hash, hash) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?)", err);
	if (st == NULL)
		goto out;
	sqlite3_bind_text(st, 1, at, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, code, -1, SQLITE_STATIC);
	if (table_id != NULL)
		sqlite3_bind_text(st, 4, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, text, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, prev, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, hash, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	sqlite3_reset(st);
	if (step != SQLITE_DONE) {
		store_fail(s, err, "recording a significant event");
		goto out;
	}
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
	sqlite3_stmt *st = store_stmt(s, "SELECT id, at, source, code, table_id, detail, hash FROM significant_events "
	    "WHERE id > ? ORDER BY id LIMIT ?", err);
	json_t *arr;
	int rc;

	if (st == NULL)
		return NULL;
	sqlite3_bind_int64(st, 1, after);
	sqlite3_bind_int(st, 2, limit);
	arr = json_array();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *detail = json_loads((const char *)sqlite3_column_text(st, 5), 0, NULL);
		const unsigned char *t = sqlite3_column_text(st, 4);
		json_array_append_new(arr, json_pack("{s:I,s:s,s:s,s:s,s:o,s:o,s:s}",
		    "seq", (json_int_t)sqlite3_column_int64(st, 0), "at", (const char *)sqlite3_column_text(st, 1),
		    "source", (const char *)sqlite3_column_text(st, 2), "code", (const char *)sqlite3_column_text(st, 3),
		    "table", t ? json_string((const char *)t) : json_null(), "detail", detail ? detail : json_null(),
		    "hash", (const char *)sqlite3_column_text(st, 6)));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		json_decref(arr);
		store_fail(s, err, "reading significant events");
		return NULL;
	}
	return arr;
}

int
store_significant_verify(struct store *s, int64_t *broken_id, char *why, size_t whysz, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT id, at, source, code, coalesce(table_id, ''), detail, prev_hash, hash "
	    "FROM significant_events ORDER BY id", err);
	char prev[PB_SHA256_HEX_LEN], hash[PB_SHA256_HEX_LEN];
	int rc;

	*broken_id = 0;
	memcpy(prev, GENESIS, sizeof(prev));
	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		size_t len;
		char *canon = significant_canonical((const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2),
		    (const char *)sqlite3_column_text(st, 3), (const char *)sqlite3_column_text(st, 4),
		    (const char *)sqlite3_column_text(st, 5), &len);
		const char *stored_prev = (const char *)sqlite3_column_text(st, 6);
		const char *stored_hash = (const char *)sqlite3_column_text(st, 7);

		if (canon == NULL)
			break;
		store_event_hash(stored_prev, canon, len, hash);
		free(canon);
		if (strcmp(stored_prev, prev) != 0) {
			*broken_id = sqlite3_column_int64(st, 0);
			snprintf(why, whysz, "its prev_hash does not match the entry before it (an entry was deleted or inserted)");
			break;
		}
		if (strcmp(hash, stored_hash) != 0) {
			*broken_id = sqlite3_column_int64(st, 0);
			snprintf(why, whysz, "its hash does not match its content (the entry was edited)");
			break;
		}
		memcpy(prev, stored_hash, sizeof(prev));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_fail(s, err, "walking the significant-events chain");
	return 0;
}

/* ---- holds ---- */

int
store_table_hold(struct store *s, const char *table_id, const char *reason, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "UPDATE table_state SET integrity_hold = ? WHERE table_id = ?", err);
	int rc;

	if (st == NULL)
		return -1;
	if (reason != NULL)
		sqlite3_bind_text(st, 1, reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, table_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, err, "setting an integrity hold");
}

int
store_table_hold_get(struct store *s, const char *table_id, char *reason, size_t reasonsz, bool *held,
    struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT integrity_hold FROM table_state WHERE table_id = ?", err);
	int rc;

	*held = false;
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*held = true;
		copy_text(reason, reasonsz, st, 0);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, err, "reading an integrity hold");
	return 0;
}

/* ---- report aggregates ---- */

#define RECOMPUTED_HOURS \
	"SELECT r.table_id AS table_id, CAST(strftime('%s', r.settled_at) AS INTEGER) / 3600 * 3600 AS hour, " \
	"r.opened_by AS dealer, r.rules_id AS rules_id, sum(r.state = 'settled') AS rounds, sum(r.state = 'void') AS voids, " \
	"sum(CASE WHEN r.state = 'settled' THEN (SELECT count(*) FROM bets b WHERE b.round_id = r.id) ELSE 0 END) AS hands, " \
	"coalesce(sum(p.handle_ante), 0), coalesce(sum(p.handle_play), 0), coalesce(sum(p.handle_pair_plus), 0), " \
	"coalesce(sum(p.handle_six_card), 0), coalesce(sum(p.win_ante), 0), coalesce(sum(p.win_play), 0), " \
	"coalesce(sum(p.win_pair_plus), 0), coalesce(sum(p.win_six_card), 0), coalesce(sum(p.win_ante_bonus), 0), " \
	"coalesce(sum(p.lines_ante), 0), coalesce(sum(p.lines_play), 0), coalesce(sum(p.lines_pair_plus), 0), " \
	"coalesce(sum(p.lines_six_card), 0), coalesce(sum(p.lines_ante_bonus), 0) " \
	"FROM rounds r LEFT JOIN (SELECT round_id, " \
	"sum(CASE WHEN wager = 'ante' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_ante, " \
	"sum(CASE WHEN wager = 'play' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_play, " \
	"sum(CASE WHEN wager = 'pair_plus' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_pair_plus, " \
	"sum(CASE WHEN wager = 'six_card' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_six_card, " \
	"-sum(CASE WHEN wager = 'ante' THEN net ELSE 0 END) AS win_ante, -sum(CASE WHEN wager = 'play' THEN net ELSE 0 END) AS win_play, " \
	"-sum(CASE WHEN wager = 'pair_plus' THEN net ELSE 0 END) AS win_pair_plus, " \
	"-sum(CASE WHEN wager = 'six_card' THEN net ELSE 0 END) AS win_six_card, " \
	"-sum(CASE WHEN wager = 'ante_bonus' THEN net ELSE 0 END) AS win_ante_bonus, " \
	"sum(wager = 'ante' AND result <> 'returned') AS lines_ante, sum(wager = 'play' AND result <> 'returned') AS lines_play, " \
	"sum(wager = 'pair_plus' AND result <> 'returned') AS lines_pair_plus, " \
	"sum(wager = 'six_card' AND result <> 'returned') AS lines_six_card, " \
	"sum(wager = 'ante_bonus' AND result <> 'returned') AS lines_ante_bonus FROM payouts GROUP BY round_id) p " \
	"ON p.round_id = r.id WHERE r.state IN ('settled', 'void') GROUP BY 1, 2, 3, 4"

#define STORED_HOURS \
	"SELECT table_id, hour, dealer, rules_id, rounds, voids, hands, handle_ante, handle_play, handle_pair_plus, " \
	"handle_six_card, win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, lines_ante, lines_play, " \
	"lines_pair_plus, lines_six_card, lines_ante_bonus FROM report_hours"

int
store_report_hours_verify(struct store *s, char (*out)[200], int max, int *count, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT DISTINCT '', table_id, hour, dealer FROM ("
	    "SELECT table_id, hour, dealer FROM (" RECOMPUTED_HOURS " EXCEPT " STORED_HOURS ") UNION "
	    "SELECT table_id, hour, dealer FROM (" STORED_HOURS " EXCEPT " RECOMPUTED_HOURS ")) ORDER BY 2, 3, 4 LIMIT ?", err);
	int rc;

	*count = 0;
	if (st == NULL)
		return -1;
	sqlite3_bind_int(st, 1, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < max) {
		char hour[PB_TIME_LEN];
		pb_time_format_ms(sqlite3_column_int64(st, 2) * 1000, hour);
		snprintf(out[(*count)++], 200, "report aggregates of table %s, hour %.16sZ, dealer %s differ from the rounds recorded "
		    "(a report figure was altered, or rounds removed)", (const char *)sqlite3_column_text(st, 1), hour,
		    (const char *)sqlite3_column_text(st, 3));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_fail(s, err, "checking the report aggregates");
	return 0;
}
