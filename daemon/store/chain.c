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
#include "store/store.h"

static const char GENESIS[PB_SHA256_HEX_LEN] =
    "0000000000000000000000000000000000000000000000000000000000000000";

/* Appends "<len>:<bytes>" to buf at *pos (buf sized by the caller); len in decimal, as "%zu". */
static void
put_field(char *buf, size_t *pos, const char *data, size_t len)
{
	char digits[24];
	int n = 0;
	size_t v = len;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0)
		buf[(*pos)++] = digits[--n];
	buf[(*pos)++] = ':';
	memcpy(buf + *pos, data, len);
	*pos += len;
}

char *
store_event_canonical(const char *table_id, int64_t table_seq, int64_t round_id, const char *type,
    const char *at, const char *actor, const char *body, size_t *len)
{
	char seq[32], rid[32];
	size_t cap, pos = 0;
	char *buf;

	snprintf(seq, sizeof(seq), "%lld", (long long)table_seq);
	snprintf(rid, sizeof(rid), "%lld", (long long)round_id);
	cap = strlen(table_id) + strlen(seq) + strlen(rid) + strlen(type) + strlen(at) + strlen(actor) + strlen(body) + 7 * 24 + 32;
	buf = malloc(cap);
	if (buf == NULL)
		return NULL;
	pos += (size_t)sprintf(buf, "pitboss-event-v1\n");
	put_field(buf, &pos, table_id, strlen(table_id));
	put_field(buf, &pos, seq, strlen(seq));
	put_field(buf, &pos, rid, strlen(rid));
	put_field(buf, &pos, type, strlen(type));
	put_field(buf, &pos, at, strlen(at));
	put_field(buf, &pos, actor, strlen(actor));
	put_field(buf, &pos, body, strlen(body));
	*len = pos;
	return buf;
}

void
store_event_hash(const char *prev_hash, const char *canonical, size_t len, char out[PB_SHA256_HEX_LEN])
{
	crypto_hash_sha256_state st;
	unsigned char digest[crypto_hash_sha256_BYTES];

	crypto_hash_sha256_init(&st);
	crypto_hash_sha256_update(&st, (const unsigned char *)prev_hash, 64);
	crypto_hash_sha256_update(&st, (const unsigned char *)canonical, len);
	crypto_hash_sha256_final(&st, digest);
	sodium_bin2hex(out, PB_SHA256_HEX_LEN, digest, sizeof(digest));
}

/* The table's last event (seq 0 and the genesis hash when none), read once per transaction. */
static int
chain_head(struct store *s, const char *table_id, int64_t *seq, char prev[PB_SHA256_HEX_LEN], struct pb_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if (store_head_cached(s, table_id, seq, prev))
		return 0;
	*seq = 0;
	memcpy(prev, GENESIS, PB_SHA256_HEX_LEN);
	st = store_stmt(s, "SELECT table_seq, hash FROM events WHERE table_id = ? ORDER BY table_seq DESC LIMIT 1", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*seq = sqlite3_column_int64(st, 0);
		snprintf(prev, PB_SHA256_HEX_LEN, "%s", (const char *)sqlite3_column_text(st, 1));
	} else if (rc != SQLITE_DONE) {
		store_fail(s, err, "reading the chain head");
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/*
 * Appends one event.  Inside a transaction of store_begin's the chain head
 * is read once per table and then carried in memory (store_head_cached):
 * no other connection can append while this one holds the write lock.
 */
int
store_append_event(struct store *s, const char *table_id, int64_t round_id, const char *type,
    const char *at, const char *actor, const json_t *body, struct pb_error *err)
{
	sqlite3_stmt *st;
	int64_t seq;
	char prev[PB_SHA256_HEX_LEN], hash[PB_SHA256_HEX_LEN];
	char *text = NULL, *canon = NULL;
	size_t len;
	int rc = -1;

	if (chain_head(s, table_id, &seq, prev, err) < 0)
		return -1;
	seq++;
	text = canonical_text(body, NULL);       /* docs/audit.md, "The canonical form" */
	if (text == NULL)
		return pb_fail(err, 500, "internal_error", "cannot encode an event");
	canon = store_event_canonical(table_id, seq, round_id, type, at, actor, text, &len);
	if (canon == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		goto out;
	}
	store_event_hash(prev, canon, len, hash);
	st = store_stmt(s, "INSERT INTO events (table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", err);
	if (st == NULL)
		goto out;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, seq);
	if (round_id > 0)
		sqlite3_bind_int64(st, 3, round_id);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_text(st, 4, type, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, at, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, actor, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, text, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, prev, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, hash, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		store_fail(s, err, "appending an event");
		sqlite3_reset(st);
		goto out;
	}
	sqlite3_reset(st);
	store_head_remember(s, table_id, seq, hash);
	if (round_id > 0)
		store_capture_add(s, round_id, seq, type, at, actor, body, hash);
	rc = 0;
out:
	free(canon);
	free(text);
	return rc;
}

json_t *
store_round_events(struct store *s, int64_t round_id, struct pb_error *err)
{
	sqlite3_stmt *st;
	json_t *arr;
	int seq = 0, rc;

	/* A round created in the open transaction: its events are all in memory (store_capture_start). */
	if ((arr = store_captured_events(s, round_id)) != NULL)
		return arr;
	st = store_stmt(s, "SELECT table_seq, type, at, actor, body, hash FROM events WHERE round_id = ? ORDER BY table_seq", err);
	if (st == NULL)
		return NULL;
	sqlite3_bind_int64(st, 1, round_id);
	arr = json_array();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *body = json_loads((const char *)sqlite3_column_text(st, 4), 0, NULL);
		json_array_append_new(arr, json_pack("{s:i,s:I,s:s,s:s,s:s,s:o,s:s}",
		    "seq", ++seq,
		    "table_seq", (json_int_t)sqlite3_column_int64(st, 0),
		    "type", (const char *)sqlite3_column_text(st, 1),
		    "at", (const char *)sqlite3_column_text(st, 2),
		    "actor", (const char *)sqlite3_column_text(st, 3),
		    "body", body ? body : json_null(),
		    "hash", (const char *)sqlite3_column_text(st, 5)));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		json_decref(arr);
		store_fail(s, err, "reading a round's events");
		return NULL;
	}
	return arr;
}
