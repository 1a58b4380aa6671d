/*
 * chain.c - the append-only, hash-chained event log.  Each table has its own
 * chain: events numbered 1, 2, ... by table_seq, each hash covering the
 * previous hash and the event's canonical bytes.  The genesis prev_hash is
 * 64 zeros.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "common/json_text.h"
#include "common/sha256.h"
#include "store/audit.h"
#include "store/event_types.h"
#include "store/sql/chain.h"
#include "store/store_int.h"

static const char GENESIS[PB_SHA256_HEX_LEN] =
    "0000000000000000000000000000000000000000000000000000000000000000";

/*
 * Where an event's framing goes: into a buffer sized by the caller (buf
 * set), or into a hash (st set).  The framing is written once, below, for
 * both.
 */
struct frame_sink {
	char *buf;
	size_t pos;
	struct pb_sha256 *st;
};

static void
sink_put(struct frame_sink *k, const char *data, size_t len)
{
	if (k->st != NULL) {
		pb_sha256_update(k->st, data, len);
	} else {
		memcpy(k->buf + k->pos, data, len);
		k->pos += len;
	}
}

/* Writes "<len>:<bytes>", len in decimal as "%zu". */
static void
put_field(struct frame_sink *k, const char *data, size_t len)
{
	char digits[24];
	int n = (int)sizeof(digits);
	size_t v = len;

	digits[--n] = ':';
	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	sink_put(k, digits + n, sizeof(digits) - (size_t)n);
	sink_put(k, data, len);
}

/* Writes an integer's "%lld" text as a field. */
static void
put_int_field(struct frame_sink *k, int64_t v)
{
	char b[24];
	int n = (int)sizeof(b);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do {
		b[--n] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		b[--n] = '-';
	put_field(k, b + n, sizeof(b) - (size_t)n);
}

/* The canonical framing of an event (docs/audit.md, "The canonical form"), into k. */
static void
frame_event(struct frame_sink *k, const char *table_id, int64_t table_seq, int64_t round_id, const char *type,
    const char *at, const char *actor, const char *body, size_t body_len)
{
	static const char MAGIC[] = "pitboss-event-v1\n";

	sink_put(k, MAGIC, sizeof(MAGIC) - 1);
	put_field(k, table_id, strlen(table_id));
	put_int_field(k, table_seq);
	put_int_field(k, round_id);
	put_field(k, type, strlen(type));
	put_field(k, at, strlen(at));
	put_field(k, actor, strlen(actor));
	put_field(k, body, body_len);
}

char *
store_event_canonical(const char *table_id, int64_t table_seq, int64_t round_id, const char *type,
    const char *at, const char *actor, const char *body, size_t *len)
{
	size_t body_len = strlen(body);
	size_t cap = strlen(table_id) + strlen(type) + strlen(at) + strlen(actor) + body_len + 9 * 24 + 32;
	struct frame_sink k = {malloc(cap), 0, NULL};

	if (k.buf == NULL)
		return NULL;
	frame_event(&k, table_id, table_seq, round_id, type, at, actor, body, body_len);
	k.buf[k.pos] = '\0';
	*len = k.pos;
	return k.buf;
}

void
store_event_hash_fields(const char *prev_hash, const char *table_id, int64_t table_seq, int64_t round_id,
    const char *type, const char *at, const char *actor, const char *body, size_t body_len,
    char out[PB_SHA256_HEX_LEN])
{
	struct pb_sha256 st;
	struct frame_sink k = {NULL, 0, &st};
	unsigned char digest[crypto_hash_sha256_BYTES];

	pb_sha256_init(&st);
	pb_sha256_update(&st, prev_hash, 64);
	frame_event(&k, table_id, table_seq, round_id, type, at, actor, body, body_len);
	pb_sha256_final(&st, digest);
	sodium_bin2hex(out, PB_SHA256_HEX_LEN, digest, sizeof(digest));
}

void
store_event_hash(const char *prev_hash, const char *canonical, size_t len, char out[PB_SHA256_HEX_LEN])
{
	struct pb_sha256 st;
	unsigned char digest[crypto_hash_sha256_BYTES];

	pb_sha256_init(&st);
	pb_sha256_update(&st, prev_hash, 64);
	pb_sha256_update(&st, canonical, len);
	pb_sha256_final(&st, digest);
	sodium_bin2hex(out, PB_SHA256_HEX_LEN, digest, sizeof(digest));
}

/* The table's last event (seq 0 and the genesis hash when none), read once per transaction. */
static int
chain_head(struct store *s, const char *table_id, int64_t *seq, char prev[PB_SHA256_HEX_LEN], struct pb_error *err)
{
	struct store_query q;

	if (store_head_cached(s, table_id, seq, prev))
		return 0;
	*seq = 0;
	memcpy(prev, GENESIS, PB_SHA256_HEX_LEN);
	if (store_query(&q, s, STMT_CHAIN_HEAD, "reading the chain head", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	if (store_query_next(&q)) {
		*seq = sqlite3_column_int64(q.st, 0);
		snprintf(prev, PB_SHA256_HEX_LEN, "%s", (const char *)sqlite3_column_text(q.st, 1));
	}
	return store_query_end(&q);
}

/*
 * Inserts an event exactly as recorded elsewhere (its seq, body and hashes
 * as given): a database rebuilt from the central copy (central/restore.c).
 * The caller checks the chain; the head cache of the transaction follows.
 */
int
store_event_insert_raw(struct store *s, const struct stored_event *e, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_EVENT_INSERT, "restoring an event", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_TABLE_ID), e->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, SQL_PARAM(EVENT_COL_TABLE_SEQ), e->table_seq);
	if (e->round_id > 0)
		sqlite3_bind_int64(q.st, SQL_PARAM(EVENT_COL_ROUND_ID), e->round_id);
	else
		sqlite3_bind_null(q.st, SQL_PARAM(EVENT_COL_ROUND_ID));
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_TYPE), e->type, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_AT), e->at, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_ACTOR), e->actor, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_BODY), e->body, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_PREV_HASH), e->prev_hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_HASH), e->hash, -1, SQLITE_STATIC);
	if (store_query_done(&q) < 0)
		return -1;
	store_head_remember(s, e->table_id, e->table_seq, e->hash);
	return 0;
}

/*
 * Appends one event, as given, without asking the registry (store_int.h).
 * Inside a transaction of store_begin's the chain head is read once per
 * table and then carried in memory (store_head_cached): no other
 * connection can append while this one holds the write lock.
 */
int
store_event_append_as_is(struct store *s, const char *table_id, int64_t round_id, const char *type,
    const char *at, const char *actor, const json_t *body, struct pb_error *err)
{
	struct store_query q;
	int64_t seq;
	char prev[PB_SHA256_HEX_LEN], hash[PB_SHA256_HEX_LEN];
	char *text = NULL;
	size_t len;
	int rc = -1;

	if (chain_head(s, table_id, &seq, prev, err) < 0)
		return -1;
	seq++;
	text = canonical_text(body, &len);       /* docs/audit.md, "The canonical form" */
	if (text == NULL)
		return pb_fail(err, 500, "internal_error", "cannot encode an event");
	/* The same bytes as store_event_hash over store_event_canonical's text, streamed: no copy of the body. */
	store_event_hash_fields(prev, table_id, seq, round_id, type, at, actor, text, len, hash);
	if (store_query(&q, s, STMT_EVENT_INSERT, "appending an event", err) < 0)
		goto out;
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_TABLE_ID), table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, SQL_PARAM(EVENT_COL_TABLE_SEQ), seq);
	if (round_id > 0)
		sqlite3_bind_int64(q.st, SQL_PARAM(EVENT_COL_ROUND_ID), round_id);
	else
		sqlite3_bind_null(q.st, SQL_PARAM(EVENT_COL_ROUND_ID));
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_TYPE), type, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_AT), at, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_ACTOR), actor, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_BODY), text, (int)len, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_PREV_HASH), prev, 64, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(EVENT_COL_HASH), hash, 64, SQLITE_STATIC);
	if (store_query_done(&q) < 0)
		goto out;
	store_head_remember(s, table_id, seq, hash);
	if (round_id > 0)
		store_capture_add(s, round_id, seq, type, at, actor, body, hash);
	rc = 0;
out:
	free(text);
	return rc;
}

/* Appends one event of a registered type whose body matches its row (event_check), else refuses it: 500. */
int
store_append_event(struct store *s, const char *table_id, int64_t round_id, const struct event_type *type,
    const char *at, const char *actor, const json_t *body, struct pb_error *err)
{
	if (event_check(type, table_id, round_id, body, err) < 0)
		return -1;
	return store_event_append_as_is(s, table_id, round_id, type->name, at, actor, body, err);
}

/* A round created in the open transaction gives its events from memory (store_capture_start), others read them. */
json_t *
store_round_events(struct store *s, int64_t round_id, struct pb_error *err)
{
	struct store_query q;
	json_t *arr;
	int seq = 0;

	if ((arr = store_captured_events(s, round_id)) != NULL)
		return arr;
	if (store_query(&q, s, STMT_ROUND_EVENTS, "reading a round's events", err) < 0)
		return NULL;
	sqlite3_bind_int64(q.st, 1, round_id);
	arr = json_array();
	while (store_query_next(&q)) {
		json_t *body = json_loads((const char *)sqlite3_column_text(q.st, ROUND_EVENT_COL_BODY), 0, NULL);
		json_array_append_new(arr, json_pack("{s:i,s:I,s:s,s:s,s:s,s:o,s:s}",
		    "seq", ++seq,
		    "table_seq", (json_int_t)sqlite3_column_int64(q.st, ROUND_EVENT_COL_TABLE_SEQ),
		    "type", (const char *)sqlite3_column_text(q.st, ROUND_EVENT_COL_TYPE),
		    "at", (const char *)sqlite3_column_text(q.st, ROUND_EVENT_COL_AT),
		    "actor", (const char *)sqlite3_column_text(q.st, ROUND_EVENT_COL_ACTOR),
		    "body", body ? body : json_null(),
		    "hash", (const char *)sqlite3_column_text(q.st, ROUND_EVENT_COL_HASH)));
	}
	if (store_query_end(&q) < 0) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}
