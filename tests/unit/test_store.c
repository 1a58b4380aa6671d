/*
 * test_store.c - the SQLite layer: migrations on empty, old, newer and
 * foreign databases; append-only triggers; the event chain; idempotency;
 * every named statement of the store.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/audit.h"
#include "store/migrations.h"
#include "store/store.h"
#include "table/core/core.h"
#include "temp_db.h"

TEMP_DB_FIXTURE("store")

static struct store *
open_db(struct pb_error *err)
{
	struct store_options o = {0};

	o.path = dbpath;
	return store_open(&o, err);
}

static void
raw_exec(const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void
test_fresh_database_is_migrated(void **state)
{
	struct pb_error err;
	struct store *s = open_db(&err);

	(void)state;
	assert_non_null(s);
	assert_int_equal(store_schema_version(s), store_schema_latest());
	assert_true(store_schema_latest() >= 3);
	store_free(s);
	/* Opening again changes nothing. */
	s = open_db(&err);
	assert_non_null(s);
	assert_int_equal(store_schema_version(s), store_schema_latest());
	store_free(s);
}

/* A database at schema 1 (as the first release wrote it) is upgraded in place, its rows kept. */
static void
test_previous_version_is_upgraded(void **state)
{
	struct pb_error err;
	struct store *s;
	int n = 0;

	(void)state;
	raw_exec(pb_migrations[0].sql);
	raw_exec("PRAGMA user_version = 1;"
	    "INSERT INTO rules_sets (sha256, rules_json) VALUES ('x', '{\"name\":\"standard\"}');"
	    "INSERT INTO rounds (table_id, round_no, state, rules_id, limits_json, seats, banking, opened_at, opened_by) "
	    "VALUES ('T1', 1, 'betting', 1, '{\"ante\":{\"min\":500,\"max\":50000}}', 6, 'house', '2026-01-01T00:00:00.000Z', 'd');");
	s = open_db(&err);
	assert_non_null(s);
	assert_int_equal(store_schema_version(s), store_schema_latest());
	n = db_int(store_db(s), "SELECT count(*) FROM rounds WHERE table_id = 'T1' AND collection_json IS NULL");
	assert_int_equal(n, 1);
	/* The tables of later migrations exist. */
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM sqlite_master WHERE name IN ('banker_turns', 'collections', "
	    "'significant_events', 'checkpoints')"), 4);
	store_free(s);
}

static void
test_newer_database_is_refused(void **state)
{
	struct pb_error err;
	struct store *s = open_db(&err);
	char sql[64];

	(void)state;
	assert_non_null(s);
	store_free(s);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", store_schema_latest() + 1);
	raw_exec(sql);
	s = open_db(&err);
	assert_null(s);
	assert_string_equal(err.code, "database_too_new");
	assert_non_null(strstr(err.message, "upgrade pitboss"));
	assert_non_null(strstr(err.message, dbpath));
}

static void
test_foreign_database_is_refused(void **state)
{
	struct pb_error err;
	struct store *s;

	(void)state;
	raw_exec("CREATE TABLE something (x); INSERT INTO something VALUES (1);");
	s = open_db(&err);
	assert_null(s);
	assert_string_equal(err.code, "not_a_pitboss_database");
	raw_exec("PRAGMA application_id = 42;");
	s = open_db(&err);
	assert_null(s);
	assert_string_equal(err.code, "not_a_pitboss_database");
}

/* Events chain: numbering, prev_hash linkage, and the hash of the canonical form. */
static void
test_event_chain(void **state)
{
	struct pb_error err;
	struct store *s = open_db(&err);
	struct event_list evs;
	json_t *body = json_pack("{s:i,s:s}", "b", 2, "a", "x");
	char h[PB_SHA256_HEX_LEN];
	char *canon;
	size_t len;

	(void)state;
	assert_non_null(s);
	assert_int_equal(store_begin(s, &err), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(store_event_append_as_is(s, "T1", 0, "table_opened", "2026-01-01T00:00:00.000Z", "pb", body, &err), 0);
	assert_int_equal(store_event_append_as_is(s, "T2", 0, "table_opened", "2026-01-01T00:00:00.000Z", "pb", body, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_events_range(s, "T1", 1, 0, &evs, &err), 0);
	assert_int_equal(evs.count, 3);
	assert_string_equal(evs.events[0].prev_hash, "0000000000000000000000000000000000000000000000000000000000000000");
	assert_string_equal(evs.events[0].body, "{\"a\":\"x\",\"b\":2}");
	for (int i = 0; i < 3; i++) {
		assert_int_equal(evs.events[i].table_seq, i + 1);
		if (i > 0)
			assert_string_equal(evs.events[i].prev_hash, evs.events[i - 1].hash);
		canon = store_event_canonical("T1", i + 1, 0, "table_opened", "2026-01-01T00:00:00.000Z", "pb", evs.events[i].body, &len);
		store_event_hash(evs.events[i].prev_hash, canon, len, h);
		free(canon);
		assert_string_equal(h, evs.events[i].hash);
	}
	event_list_free(&evs);
	/* Each table has its own chain. */
	assert_int_equal(store_events_range(s, "T2", 1, 0, &evs, &err), 0);
	assert_int_equal(evs.count, 1);
	assert_int_equal(evs.events[0].table_seq, 1);
	event_list_free(&evs);
	json_decref(body);
	store_free(s);
}

static void
test_append_only_triggers(void **state)
{
	/* The tables given a row here; the round tables' triggers are tested on real rounds in test_durability.py. */
	static const char *const REFUSED[] = {
		"UPDATE events SET type = 'x'", "DELETE FROM events",
		"UPDATE significant_events SET code = 'x'", "DELETE FROM significant_events",
	};
	struct pb_error err;
	struct store *s = open_db(&err);
	json_t *body = json_object();
	sqlite3 *db;

	(void)state;
	assert_non_null(s);
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_append_event(s, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], "2026-01-01T00:00:00.000Z", "pb", body, &err), 0);
	assert_int_equal(store_significant(s, "pb", "test", NULL, body, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	db = store_db(s);
	for (size_t i = 0; i < sizeof(REFUSED) / sizeof(REFUSED[0]); i++) {
		assert_int_equal(sqlite3_exec(db, REFUSED[i], NULL, NULL, NULL) & 0xff, SQLITE_CONSTRAINT);
		assert_non_null(strstr(sqlite3_errmsg(db), "append-only"));
	}
	json_decref(body);
	store_free(s);
}

static void
test_idempotency(void **state)
{
	struct pb_error err;
	struct store *s = open_db(&err);
	bool found = true;
	int status = 0;
	char *resp = NULL;

	(void)state;
	assert_non_null(s);
	assert_int_equal(store_idempotency_get(s, "d", "k1", "h1", &found, &status, &resp, &err), 0);
	assert_false(found);
	assert_int_equal(store_idempotency_put(s, "d", "k1", "h1", 201, "{\"x\":1}", "2026-01-01T00:00:00.000Z", &err), 0);
	assert_int_equal(store_idempotency_get(s, "d", "k1", "h1", &found, &status, &resp, &err), 0);
	assert_true(found);
	assert_int_equal(status, 201);
	assert_string_equal(resp, "{\"x\":1}");
	free(resp);
	/* Another actor's key of the same name is another key. */
	assert_int_equal(store_idempotency_get(s, "e", "k1", "h2", &found, &status, &resp, &err), 0);
	assert_false(found);
	/* The same key for another request is refused. */
	assert_int_equal(store_idempotency_get(s, "d", "k1", "h2", &found, &status, &resp, &err), -1);
	assert_string_equal(err.code, "idempotency_key_reused");
	store_free(s);
}

/* Every named statement (sql.c) has a text and prepares against the newest schema, and is kept: asked twice, the same. */
static void
test_every_statement_prepares(void **state)
{
	struct pb_error err;
	struct store *s;

	(void)state;
	s = open_db(&err);
	assert_non_null(s);
	for (int id = 0; id < STMT_COUNT; id++) {
		sqlite3_stmt *st;

		if (store_sql_text((enum stmt_id)id) == NULL)
			fail_msg("statement %d has no text", id);
		st = store_stmt(s, (enum stmt_id)id, &err);
		if (st == NULL)
			fail_msg("statement %d (%s): %s", id, store_sql_text((enum stmt_id)id), err.message);
		assert_ptr_equal(store_stmt(s, (enum stmt_id)id, &err), st);
	}
	assert_null(store_sql_text(STMT_COUNT));
	store_free(s);
}

/*
 * No statement scans a whole table inside a subquery run once per row: since
 * schemas 023 and 025 a round's rows (bets, hands, decisions, payouts) are
 * keyed by a rowid made of the round's id (round_id * 16 + seat, round_id *
 * 64 + seq) with no index on round_id, so a condition on round_id in a
 * correlated subquery scanned the whole table for every round (a verify of
 * the report hours went from seconds to many minutes).  The plan of every
 * statement is read; a plain SCAN (no index) below a CORRELATED subquery
 * fails, naming the statement, unless it is of a table of a few rows.
 */
static void
test_no_correlated_scan(void **state)
{
	enum { NODES = 8192 };
	static const char *const SMALL[] = {"schema_version"};
	static int parent_of[NODES], correlated[NODES];
	struct pb_error err;
	struct store *s;

	(void)state;
	s = open_db(&err);
	assert_non_null(s);
	for (int id = 0; id < STMT_COUNT; id++) {
		char sql[32768];
		sqlite3_stmt *st;

		memset(parent_of, 0, sizeof(parent_of));
		memset(correlated, 0, sizeof(correlated));
		snprintf(sql, sizeof(sql), "EXPLAIN QUERY PLAN %s", store_sql_text((enum stmt_id)id));
		if (sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL) != SQLITE_OK)
			fail_msg("statement %d: %s", id, sqlite3_errmsg(store_db(s)));
		while (sqlite3_step(st) == SQLITE_ROW) {
			int node = sqlite3_column_int(st, 0), parent = sqlite3_column_int(st, 1);
			const char *detail = (const char *)sqlite3_column_text(st, 3);
			bool under = false, small = false;

			if (node <= 0 || node >= NODES || parent < 0 || parent >= NODES)
				fail_msg("statement %d: a plan node %d (parent %d) beyond the test's %d", id, node, parent, NODES);
			parent_of[node] = parent;
			correlated[node] = strstr(detail, "CORRELATED") != NULL;
			for (int up = parent, n = 0; up != 0 && n < 64; up = parent_of[up], n++)
				under = under || correlated[up];
			/* a virtual table (json_each of a parameter) is a list the request gave, not a table of the file */
			if (!under || strncmp(detail, "SCAN ", 5) != 0 || strstr(detail, " USING ") != NULL ||
			    strstr(detail, " VIRTUAL TABLE ") != NULL ||
			    strncmp(detail, "SCAN (", 6) == 0 || strncmp(detail, "SCAN CONSTANT", 13) == 0)
				continue;
			for (size_t k = 0; k < sizeof(SMALL) / sizeof(SMALL[0]); k++)
				small = small || strcmp(detail + 5, SMALL[k]) == 0;
			if (!small)
				fail_msg("statement %d scans a table for every row of a correlated subquery (%s): %s", id, detail,
				    store_sql_text((enum stmt_id)id));
		}
		sqlite3_finalize(st);
	}
	store_free(s);
}

/*
 * A damaged file: a leaf page of the events table in the middle of the
 * chain overwritten.  Reading the chain fails part way (500 storage_error)
 * and leaves nothing behind to free (the sanitizer run catches a leak).
 */
static void
test_damaged_events_read(void **state)
{
	struct pb_error err;
	struct store *s;
	struct event_list evs;
	json_t *body;
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t page = 0, page_size;
	int leaves = 0, i;
	char filler[300];
	FILE *f;

	(void)state;
	s = open_db(&err);
	assert_non_null(s);
	memset(filler, 'x', sizeof(filler) - 1);
	filler[sizeof(filler) - 1] = '\0';
	body = json_pack("{s:s}", "filler", filler);
	assert_int_equal(store_begin(s, &err), 0);
	for (i = 0; i < 2000; i++)
		assert_int_equal(store_event_append_as_is(s, "T1", 0, "table_opened", "2026-01-01T00:00:00.000Z", "pb", body, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	json_decref(body);
	store_free(s);

	/* the middle leaf of the events table, in the b-tree's own order */
	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	page_size = db_int(db, "PRAGMA page_size");
	leaves = (int)db_int(db, "SELECT count(*) FROM dbstat WHERE name = 'events' AND pagetype = 'leaf'");
	assert_true(leaves > 10);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' "
	    "ORDER BY path LIMIT 1 OFFSET ?", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int(st, 1, leaves / 2);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	page = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);

	f = fopen(dbpath, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, (long)((page - 1) * page_size), SEEK_SET), 0);
	for (i = 0; i < page_size; i++)
		fputc(0xA5, f);
	fclose(f);

	s = open_db(&err);
	assert_non_null(s);
	memset(&evs, 0x5A, sizeof(evs));
	assert_int_equal(store_events_range(s, "T1", 1, 0, &evs, &err), -1);
	assert_int_equal(err.status, 500);
	assert_string_equal(err.code, "storage_error");
	assert_int_equal(evs.count, 0);
	assert_null(evs.events);
	store_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fresh_database_is_migrated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_previous_version_is_upgraded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_database_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_database_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_append_only_triggers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idempotency, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_statement_prepares, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_correlated_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged_events_read, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
