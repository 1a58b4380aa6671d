/*
 * test_store_write.c - the write path of the store: the process's write turn
 * (taken by store_begin, given back exactly once by commit or rollback on
 * every path), the chain head and rules id carried between statements, and
 * migration 007 (payouts rebuilt with OR-chain CHECKs: same refusals, same
 * rows) and 025 (payouts keyed by rowid round_id * 64 + seq).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/audit.h"
#include "store/migrations.h"
#include "store/sql.h"
#include "store/sql/rounds.h"
#include "store/store.h"
#include "table/core/core.h"
#include "temp_db.h"

#define AT "2026-01-01T00:00:00.000Z"

TEMP_DB_FIXTURE("store-write")

static struct store *
open_db(int busy_timeout_ms)
{
	struct store_options o = {0};
	struct pb_error err;
	struct store *s;

	o.path = dbpath;
	o.synchronous = "NORMAL";
	o.busy_timeout_ms = busy_timeout_ms;
	s = store_open(&o, &err);
	if (s == NULL)
		fail_msg("store_open: %s", err.message);
	return s;
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* store_begin on s must succeed quickly: nobody holds the turn any more. */
static void
begin_promptly(struct store *s)
{
	struct pb_error err;
	double t0 = now_ms();

	if (store_begin(s, &err) != 0)
		fail_msg("store_begin: %s", err.message);
	assert_true(now_ms() - t0 < 1000);
}

/* store_begin on s must fail: another connection of the process holds the turn. */
static void
begin_refused(struct store *s)
{
	struct pb_error err;

	assert_int_equal(store_begin(s, &err), -1);
	assert_string_equal(err.code, "storage_error");
}

/* The turn is held from begin to commit or rollback, and given back once on every path. */
static void
test_write_turn_every_path(void **state)
{
	struct store *a = open_db(2000), *b = open_db(200);
	struct pb_error err;
	sqlite3 *raw;

	(void)state;
	/* Commit and rollback give it back; a second rollback does nothing. */
	begin_promptly(a);
	begin_refused(b);
	assert_int_equal(store_commit(a, &err), 0);
	begin_promptly(b);
	store_rollback(b);
	store_rollback(b);
	begin_promptly(a);
	begin_refused(b);
	store_rollback(a);
	begin_promptly(b);
	assert_int_equal(store_commit(b, &err), 0);

	/* A nested begin fails and leaves the turn with the outer transaction. */
	begin_promptly(a);
	assert_int_equal(store_begin(a, &err), -1);
	begin_refused(b);
	assert_int_equal(store_commit(a, &err), 0);
	begin_promptly(b);
	assert_int_equal(store_commit(b, &err), 0);

	/* A failed commit (the transaction ended behind the store's back) gives it back. */
	begin_promptly(a);
	assert_int_equal(sqlite3_exec(store_db(a), "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_commit(a, &err), -1);
	store_rollback(a);
	begin_promptly(b);
	assert_int_equal(store_commit(b, &err), 0);

	/* BEGIN refused by SQLite (another process holds the lock): the turn taken is given back. */
	assert_int_equal(sqlite3_open(dbpath, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_begin(b, &err), -1);
	assert_int_equal(sqlite3_exec(raw, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);
	begin_promptly(a);
	assert_int_equal(store_commit(a, &err), 0);

	/* Closing a connection in the middle of a transaction gives it back. */
	begin_promptly(a);
	store_free(a);
	begin_promptly(b);
	assert_int_equal(store_commit(b, &err), 0);
	store_free(b);
}

#define WRITERS 4
#define WRITES 40

struct writer {
	pthread_t thread;
	int n;
	int failures;
};

/* One connection writing WRITES transactions of 3 events on T0 and one on its own table. */
static void *
writer_run(void *arg)
{
	struct writer *w = arg;
	struct store_options o = {0};
	struct pb_error err;
	struct store *s;
	json_t *body = json_pack("{s:i}", "writer", w->n);
	char own[16];

	o.path = dbpath;
	o.synchronous = "NORMAL";
	s = store_open(&o, &err);
	snprintf(own, sizeof(own), "W%d", w->n);
	for (int i = 0; s != NULL && i < WRITES; i++) {
		if (store_begin(s, &err) < 0) {
			w->failures++;
			continue;
		}
		if (store_event_append_as_is(s, "T0", 0, "t", AT, own, body, &err) < 0 ||
		    store_event_append_as_is(s, own, 0, "t", AT, own, body, &err) < 0 ||
		    store_event_append_as_is(s, "T0", 0, "t", AT, own, body, &err) < 0 ||
		    store_event_append_as_is(s, "T0", 0, "t", AT, own, body, &err) < 0 ||
		    store_commit(s, &err) < 0) {
			store_rollback(s);
			w->failures++;
		}
	}
	if (s == NULL)
		w->failures = WRITES;
	json_decref(body);
	store_free(s);
	return NULL;
}

/* Each link of a table's chain: numbered 1..n, each hash over its predecessor's. */
static void
check_chain(struct store *s, const char *table_id, int want)
{
	struct event_list evs;
	struct pb_error err;
	char h[PB_SHA256_HEX_LEN];

	assert_int_equal(store_events_range(s, table_id, 1, 0, &evs, &err), 0);
	assert_int_equal(evs.count, want);
	for (int i = 0; i < evs.count; i++) {
		size_t len;
		char *canon = store_event_canonical(table_id, i + 1, evs.events[i].round_id, evs.events[i].type,
		    evs.events[i].at, evs.events[i].actor, evs.events[i].body, &len);

		assert_int_equal(evs.events[i].table_seq, i + 1);
		assert_string_equal(evs.events[i].prev_hash,
		    i == 0 ? "0000000000000000000000000000000000000000000000000000000000000000" : evs.events[i - 1].hash);
		store_event_hash(evs.events[i].prev_hash, canon, len, h);
		free(canon);
		assert_string_equal(h, evs.events[i].hash);
	}
	event_list_free(&evs);
}

/* Writers of several threads at once: none fails, every chain stays whole. */
static void
test_writers_take_turns(void **state)
{
	struct writer w[WRITERS];
	struct store *s = open_db(0);

	(void)state;
	memset(w, 0, sizeof(w));
	for (int i = 0; i < WRITERS; i++) {
		w[i].n = i + 1;
		assert_int_equal(pthread_create(&w[i].thread, NULL, writer_run, &w[i]), 0);
	}
	for (int i = 0; i < WRITERS; i++) {
		pthread_join(w[i].thread, NULL);
		assert_int_equal(w[i].failures, 0);
	}
	check_chain(s, "T0", WRITERS * WRITES * 3);
	for (int i = 0; i < WRITERS; i++) {
		char own[16];
		snprintf(own, sizeof(own), "W%d", i + 1);
		check_chain(s, own, WRITES);
	}
	store_free(s);
}

/* The head carried in memory never outlives its transaction: rollback, another connection's write. */
static void
test_chain_head_per_transaction(void **state)
{
	struct store *a = open_db(0), *b = open_db(0);
	json_t *body = json_object();
	struct pb_error err;

	(void)state;
	assert_int_equal(store_begin(a, &err), 0);
	assert_int_equal(store_append_event(a, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "a", body, &err), 0);
	assert_int_equal(store_append_event(a, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "a", body, &err), 0);
	store_rollback(a);
	/* Rolled back: the chain starts at 1 again. */
	assert_int_equal(store_begin(a, &err), 0);
	assert_int_equal(store_append_event(a, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "a", body, &err), 0);
	assert_int_equal(store_commit(a, &err), 0);
	/* Another connection appends... */
	assert_int_equal(store_begin(b, &err), 0);
	assert_int_equal(store_append_event(b, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "b", body, &err), 0);
	assert_int_equal(store_commit(b, &err), 0);
	/* ...and the first one follows it, in a transaction and outside one. */
	assert_int_equal(store_begin(a, &err), 0);
	assert_int_equal(store_append_event(a, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "a", body, &err), 0);
	assert_int_equal(store_append_event(a, "T2", 0, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "a", body, &err), 0);
	assert_int_equal(store_append_event(a, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "a", body, &err), 0);
	assert_int_equal(store_commit(a, &err), 0);
	assert_int_equal(store_append_event(b, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "b", body, &err), 0);
	assert_int_equal(store_append_event(a, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "a", body, &err), 0);
	check_chain(a, "T1", 6);
	check_chain(a, "T2", 1);
	json_decref(body);
	store_free(a);
	store_free(b);
}

static void
load_rules(const char *game, struct rules *r)
{
	char path[512];
	json_error_t jerr;
	struct pb_error err;
	json_t *j;

	snprintf(path, sizeof(path), "%s/config/games/%s.json", PB_SOURCE_DIR, game);
	j = json_load_file(path, 0, &jerr);
	assert_non_null(j);
	memset(r, 0, sizeof(*r));
	assert_int_equal(rules_from_json(j, r, &err), 0);
	json_decref(j);
}

/* The rules_json stored under id is r's canonical JSON. */
static void
assert_rules_row(struct store *s, int64_t id, const struct rules *r)
{
	sqlite3_stmt *st = NULL;
	json_t *j = rules_to_json(r);
	char *want = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);

	assert_int_equal(sqlite3_prepare_v2(store_db(s), "SELECT rules_json FROM rules_sets WHERE id = ?", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), want);
	sqlite3_finalize(st);
	free(want);
	json_decref(j);
}

static int
count_rows(struct store *s, const char *sql)
{
	return db_int(store_db(s), sql);
}

/* A cached rules id is one whose row committed: an id inserted by a rolled-back transaction is not reused. */
static void
test_rules_id_cache(void **state)
{
	struct store *a = open_db(0), *b = open_db(0);
	struct rules std, florida;
	int64_t id1 = 0, id1b = 0, idf = 0, id2 = 0, id3 = 0;
	struct pb_error err;

	(void)state;
	load_rules("standard", &std);
	load_rules("florida", &florida);
	assert_int_equal(store_begin(a, &err), 0);
	assert_int_equal(store_rules_id(a, &std, &id1, &err), 0);
	assert_int_equal(store_rules_id(a, &std, &id1b, &err), 0);
	assert_true(id1 == id1b);
	store_rollback(a);
	/* Another connection takes the rolled-back row's id for other rules. */
	assert_int_equal(store_begin(b, &err), 0);
	assert_int_equal(store_rules_id(b, &florida, &idf, &err), 0);
	assert_int_equal(store_commit(b, &err), 0);
	assert_rules_row(b, idf, &florida);
	/* The first connection must not answer with its forgotten id. */
	assert_int_equal(store_begin(a, &err), 0);
	assert_int_equal(store_rules_id(a, &std, &id2, &err), 0);
	assert_true(id2 != idf);
	assert_rules_row(a, id2, &std);
	assert_int_equal(store_commit(a, &err), 0);
	/* Committed: kept, inside and outside transactions, without a new row. */
	assert_int_equal(store_begin(a, &err), 0);
	assert_int_equal(store_rules_id(a, &std, &id3, &err), 0);
	assert_int_equal(store_commit(a, &err), 0);
	assert_true(id3 == id2);
	assert_int_equal(store_rules_id(a, &std, &id3, &err), 0);
	assert_true(id3 == id2);
	assert_int_equal(count_rows(a, "SELECT count(*) FROM rules_sets"), 2);
	store_free(a);
	store_free(b);
}

/* A round to hang payout lines on (foreign key), through plain SQL. */

static const char ROUND_SQL[] =
    "INSERT INTO rules_sets (id, sha256, rules_json) VALUES (1, 'x', '{}');"
    "INSERT INTO rounds (id, table_id, round_no, state, rules_id, limits_json, seats, banking, opened_at, opened_by) "
    "VALUES (1, 'T1', 1, 'betting', 1, '{}', 6, 'house', '" AT "', 'd');";

/* The lines as written before 025 (nine columns, no rowid of their own). */
static const char PAYOUTS_SQL[] =
    "INSERT INTO payouts VALUES (1, 1, 1, 'ante', 500, 'win', 500, NULL, NULL);"
    "INSERT INTO payouts VALUES (1, 2, 1, 'play', 500, 'lose', -500, NULL, NULL);"
    "INSERT INTO payouts VALUES (1, 3, 2, 'pair_plus', 100, 'push', 0, 9000, NULL);"
    "INSERT INTO payouts VALUES (1, 4, 2, 'six_card', 100, 'forfeit', -100, 9100, 25);"
    "INSERT INTO payouts VALUES (1, 5, 3, 'ante_bonus', 0, 'returned', 0, NULL, NULL);";

/* The same lines as written since 025: the rowid id = round_id * 64 + seq last. */
static const char PAYOUTS_SQL_025[] =
    "INSERT INTO payouts VALUES (1, 1, 1, 'ante', 500, 'win', 500, NULL, NULL, 65);"
    "INSERT INTO payouts VALUES (1, 2, 1, 'play', 500, 'lose', -500, NULL, NULL, 66);"
    "INSERT INTO payouts VALUES (1, 3, 2, 'pair_plus', 100, 'push', 0, 9000, NULL, 67);"
    "INSERT INTO payouts VALUES (1, 4, 2, 'six_card', 100, 'forfeit', -100, 9100, 25, 68);"
    "INSERT INTO payouts VALUES (1, 5, 3, 'ante_bonus', 0, 'returned', 0, NULL, NULL, 69);";

/*
 * Every bad value the IN lists refused is refused still; the append-only triggers and the foreign key hold;
 * since 025 a seq outside 0..63 and a rowid other than round_id * 64 + seq are refused too.
 */
static void
check_payouts_refusals(sqlite3 *db)
{
	static const char *const REFUSED[] = {
		"INSERT INTO payouts VALUES (1, 30, 1, 'Ante', 5, 'win', 5, NULL, NULL, 94)",
		"INSERT INTO payouts VALUES (1, 31, 1, 'bonus', 5, 'win', 5, NULL, NULL, 95)",
		"INSERT INTO payouts VALUES (1, 32, 1, 'ante ', 5, 'win', 5, NULL, NULL, 96)",
		"INSERT INTO payouts VALUES (1, 33, 1, 'ante', 5, 'won', 5, NULL, NULL, 97)",
		"INSERT INTO payouts VALUES (1, 34, 1, 'ante', 5, '', 5, NULL, NULL, 98)",
		"INSERT INTO payouts VALUES (1, 35, 1, 1, 5, 'win', 5, NULL, NULL, 99)",
		"INSERT INTO payouts VALUES (1, 64, 1, 'ante', 5, 'win', 5, NULL, NULL, 128)",
		"INSERT INTO payouts VALUES (1, -1, 1, 'ante', 5, 'win', 5, NULL, NULL, 63)",
		"INSERT INTO payouts VALUES (1, 36, 1, 'ante', 5, 'win', 5, NULL, NULL, 101)",
		"INSERT INTO payouts (round_id, seq, seat, wager, stake, result, net) VALUES (1, 37, 1, 'ante', 5, 'win', 5)",
	};

	for (size_t i = 0; i < sizeof(REFUSED) / sizeof(REFUSED[0]); i++) {
		assert_int_equal(sqlite3_exec(db, REFUSED[i], NULL, NULL, NULL), SQLITE_CONSTRAINT_CHECK);
		assert_non_null(strstr(sqlite3_errmsg(db), "CHECK constraint failed"));
	}
	assert_int_equal(sqlite3_exec(db, "INSERT INTO payouts VALUES (1, 38, 1, NULL, 5, 'win', 5, NULL, NULL, 102)", NULL,
	    NULL, NULL), SQLITE_CONSTRAINT_NOTNULL);
	assert_int_equal(sqlite3_exec(db, "INSERT INTO payouts VALUES (2, 1, 1, 'ante', 5, 'win', 5, NULL, NULL, 129)", NULL,
	    NULL, NULL), SQLITE_CONSTRAINT_FOREIGNKEY);
	assert_int_equal(sqlite3_exec(db, "INSERT INTO payouts VALUES (1, 1, 1, 'ante', 5, 'win', 5, NULL, NULL, 65)", NULL,
	    NULL, NULL), SQLITE_CONSTRAINT_PRIMARYKEY);
	assert_int_equal(sqlite3_exec(db, "UPDATE payouts SET net = 0", NULL, NULL, NULL) & 0xff, SQLITE_CONSTRAINT);
	assert_non_null(strstr(sqlite3_errmsg(db), "payouts: append-only"));
	assert_int_equal(sqlite3_exec(db, "DELETE FROM payouts", NULL, NULL, NULL) & 0xff, SQLITE_CONSTRAINT);
	assert_non_null(strstr(sqlite3_errmsg(db), "payouts: append-only"));
}

/* The payout lines, one text row each, in order. */
static char *
payouts_dump(sqlite3 *db)
{
	sqlite3_stmt *st;
	size_t cap = 4096, pos = 0;
	char *out = calloc(1, cap);

	assert_int_equal(sqlite3_prepare_v2(db, "SELECT round_id, seq, seat, wager, stake, result, net, "
	    "quote(bank_after), quote(short) FROM payouts ORDER BY round_id, seq", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		pos += (size_t)snprintf(out + pos, cap - pos, "%lld|%lld|%lld|%s|%lld|%s|%lld|%s|%s\n",
		    (long long)sqlite3_column_int64(st, 0), (long long)sqlite3_column_int64(st, 1),
		    (long long)sqlite3_column_int64(st, 2), (const char *)sqlite3_column_text(st, 3),
		    (long long)sqlite3_column_int64(st, 4), (const char *)sqlite3_column_text(st, 5),
		    (long long)sqlite3_column_int64(st, 6), (const char *)sqlite3_column_text(st, 7),
		    (const char *)sqlite3_column_text(st, 8));
		assert_true(pos < cap);
	}
	sqlite3_finalize(st);
	return out;
}

/* A database as the migrations before 007 leave it, with one round's payout lines. */
static void
make_pre_007_database(void)
{
	sqlite3 *db;
	int version = 0;
	char sql[64];

	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	for (const struct migration *m = pb_migrations; m->version != 0 && m->version < 7; m++) {
		db_exec_ok(db, m->sql);
		version = m->version;
	}
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
	db_exec_ok(db, sql);
	db_exec_ok(db, ROUND_SQL);
	db_exec_ok(db, PAYOUTS_SQL);
	sqlite3_close(db);
}

/* How many OpenEphemeral a payout INSERT runs (the temporary b-trees of IN lists). */
static int
insert_ephemerals(sqlite3 *db)
{
	sqlite3_stmt *st;
	int n = 0;

	assert_int_equal(sqlite3_prepare_v2(db, "EXPLAIN INSERT INTO payouts (round_id, seq, seat, wager, stake, result, net, "
	    "bank_after, short) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		if (strcmp((const char *)sqlite3_column_text(st, 1), "OpenEphemeral") == 0)
			n++;
	sqlite3_finalize(st);
	return n;
}

/* A fresh database: the OR chains are in the schema, refuse what the IN lists refused, and build no temporary b-tree. */
static void
test_payouts_fresh(void **state)
{
	struct store *s = open_db(0);
	sqlite3 *db = store_db(s);

	(void)state;
	assert_true(store_schema_latest() >= 7);
	assert_int_equal(count_rows(s, "SELECT count(*) FROM sqlite_master WHERE name = 'payouts' "
	    "AND sql LIKE '%wager = ''ante'' OR wager = ''play''%' AND sql NOT LIKE '% IN (%'"), 1);
	assert_int_equal(count_rows(s, "SELECT count(*) FROM sqlite_master WHERE tbl_name = 'payouts' AND name IN "
	    "('payouts_net', 'payouts_short', 'payouts_no_update', 'payouts_no_delete')"), 4);
	assert_int_equal(count_rows(s, "SELECT count(*) FROM sqlite_master WHERE name LIKE '%payouts_new%'"), 0);
	db_exec_ok(db, ROUND_SQL);
	db_exec_ok(db, PAYOUTS_SQL_025);
	check_payouts_refusals(db);
	assert_int_equal(count_rows(s, "SELECT count(*) FROM payouts"), 5);
	assert_int_equal(insert_ephemerals(db), 0);
	store_free(s);
}

/* An existing database: rebuilt in place, every row kept, the same refusals. */
static void
test_payouts_upgraded(void **state)
{
	struct store *s;
	sqlite3 *raw;
	char *before, *after;

	(void)state;
	make_pre_007_database();
	assert_int_equal(sqlite3_open(dbpath, &raw), SQLITE_OK);
	before = payouts_dump(raw);
	assert_true(insert_ephemerals(raw) > 0);   /* what 007 is for */
	sqlite3_close(raw);
	s = open_db(0);
	assert_int_equal(store_schema_version(s), store_schema_latest());
	after = payouts_dump(store_db(s));
	assert_string_equal(before, after);
	assert_int_equal(count_rows(s, "SELECT count(*) FROM payouts WHERE id <> round_id * 64 + seq"), 0);
	assert_int_equal(count_rows(s, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	assert_int_equal(count_rows(s, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	assert_int_equal(count_rows(s, "SELECT count(*) FROM payouts WHERE short IS NOT NULL"), 1);
	check_payouts_refusals(store_db(s));
	assert_int_equal(insert_ephemerals(store_db(s)), 0);
	free(before);
	free(after);
	store_free(s);
}

/* A line of a full round (8 seats, 5 wagers a seat, seq i + 1): its values computed from i. */
static void
full_round_line(int i, struct payout_line *l)
{
	memset(l, 0, sizeof(*l));
	l->seq = i + 1;
	l->seat = i / WAGERS_PER_SEAT + 1;
	l->wager = (enum wager)(i % WAGERS_PER_SEAT);
	l->stake = 100 * (i + 1);
	l->result = i % 3 == 0 ? RESULT_WIN : RESULT_LOSE;
	l->net = i % 3 == 0 ? l->stake : -l->stake;
	l->banked = i % 4 == 0;
	if (l->banked) {
		l->bank_after = 50000 - i;
		l->short_amount = i % 8 == 0 ? i + 1 : 0;
	}
}

/*
 * Since 025 a round's lines are the rowids round_id * 64 + seq: the most a round has (40) written by
 * store_payouts_put for two neighbouring rounds, each read back by the round's reader (STMT_ROUND_PAYOUTS)
 * whole, in payout order, with nothing of the other; verify's count agrees.
 */
static void
test_payouts_by_rowid(void **state)
{
	struct store *s = open_db(0);
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	struct settlement set;
	struct derived_counts n;
	struct pb_error err;

	(void)state;
	db_exec_ok(db, ROUND_SQL);
	db_exec_ok(db, "INSERT INTO rounds (id, table_id, round_no, state, rules_id, limits_json, seats, banking, "
	    "opened_at, opened_by) VALUES (2, 'T1', 2, 'betting', 1, '{}', 6, 'house', '" AT "', 'd')");
	memset(&set, 0, sizeof(set));
	set.line_count = MAX_PAYOUT_LINES;
	for (int i = 0; i < MAX_PAYOUT_LINES; i++)
		full_round_line(i, &set.lines[i]);
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_payouts_put(s, 2, &set, &err), 0);
	assert_int_equal(store_payouts_put(s, 1, &set, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(count_rows(s, "SELECT count(*) FROM payouts WHERE id <> round_id * 64 + seq"), 0);
	assert_int_equal(sqlite3_prepare_v2(db, store_sql_text(STMT_ROUND_PAYOUTS), -1, &st, NULL), SQLITE_OK);
	for (int64_t round = 1; round <= 2; round++) {
		int i = 0;

		sqlite3_bind_int64(st, 1, round);
		for (; sqlite3_step(st) == SQLITE_ROW; i++) {
			struct payout_line want;

			assert_true(i < MAX_PAYOUT_LINES);
			full_round_line(i, &want);
			assert_int_equal(sqlite3_column_int(st, PAYOUT_COL_SEQ), want.seq);
			assert_int_equal(sqlite3_column_int(st, PAYOUT_COL_SEAT), want.seat);
			assert_string_equal((const char *)sqlite3_column_text(st, PAYOUT_COL_WAGER), wager_name(want.wager));
			assert_int_equal(sqlite3_column_int64(st, PAYOUT_COL_STAKE), want.stake);
			assert_string_equal((const char *)sqlite3_column_text(st, PAYOUT_COL_RESULT), result_name(want.result));
			assert_int_equal(sqlite3_column_int64(st, PAYOUT_COL_NET), want.net);
			assert_int_equal(sqlite3_column_type(st, PAYOUT_COL_BANK_AFTER) != SQLITE_NULL, want.banked);
			assert_int_equal(sqlite3_column_int64(st, PAYOUT_COL_BANK_AFTER), want.bank_after);
			assert_int_equal(sqlite3_column_int64(st, PAYOUT_COL_SHORT), want.short_amount);
		}
		assert_int_equal(i, MAX_PAYOUT_LINES);
		sqlite3_reset(st);
		assert_int_equal(store_round_counts(s, round, &n, &err), 0);
		assert_int_equal(n.payouts, MAX_PAYOUT_LINES);
	}
	sqlite3_finalize(st);
	store_free(s);
}

/* Something on payouts the rebuild does not know: 007 refuses and rolls back, losing nothing. */
static void
test_payouts_rebuild_guard(void **state)
{
	struct store_options o = {0};
	struct pb_error err;
	struct store *s;
	sqlite3 *raw;
	int version = 0;
	char *before, *after;

	(void)state;
	make_pre_007_database();
	assert_int_equal(sqlite3_open(dbpath, &raw), SQLITE_OK);
	db_exec_ok(raw, "CREATE INDEX payouts_by_seat ON payouts(seat)");
	before = payouts_dump(raw);
	sqlite3_close(raw);
	o.path = dbpath;
	s = store_open(&o, &err);
	assert_null(s);
	assert_string_equal(err.code, "migration_failed");
	assert_non_null(strstr(err.message, "payouts_has_no_index_or_trigger_007_does_not_recreate"));
	assert_int_equal(sqlite3_open(dbpath, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "SELECT 1", NULL, NULL, NULL), SQLITE_OK);
	{
		sqlite3_stmt *st;
		assert_int_equal(sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		version = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	assert_true(version < 7);
	after = payouts_dump(raw);
	assert_string_equal(before, after);
	sqlite3_close(raw);
	free(before);
	free(after);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_turn_every_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writers_take_turns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_chain_head_per_transaction, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_id_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_payouts_fresh, setup, teardown),
		cmocka_unit_test_setup_teardown(test_payouts_upgraded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_payouts_rebuild_guard, setup, teardown),
		cmocka_unit_test_setup_teardown(test_payouts_by_rowid, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
