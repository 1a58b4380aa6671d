/*
 * test_migrations.c - the embedded schema migrations (pb_migrations, made
 * by cmake/embed_schema.cmake from schema/NNN_name.sql): numbered 1..N with
 * no gap, each named and non-empty; a fresh database ends at the newest, and
 * so does a database left at any earlier version.  (A database newer than
 * the build is refused: test_store.c, test_newer_database_is_refused.)
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

#include "store/migrations.h"
#include "store/sql.h"
#include "store/store.h"
#include "temp_db.h"

static char dbpath[256];

static int
setup(void **state)
{
	(void)state;
	temp_db_path(dbpath, sizeof(dbpath), "migrations");
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	temp_db_remove(dbpath);
	return 0;
}

static struct store *
open_db(void)
{
	struct store_options o = {0};
	struct pb_error err;
	struct store *s;

	o.path = dbpath;
	o.synchronous = "NORMAL";
	s = store_open(&o, &err);
	if (s == NULL)
		fail_msg("store_open: %s", err.message);
	return s;
}



/* Versions 1..latest in order, none missing or repeated; each named NNN_name after its version, with SQL. */
static void
test_versions_contiguous(void **state)
{
	int n = 0;

	(void)state;
	for (const struct migration *m = pb_migrations; m->version != 0; m++) {
		char prefix[8];

		n++;
		assert_int_equal(m->version, n);
		assert_non_null(m->name);
		assert_non_null(m->sql);
		snprintf(prefix, sizeof(prefix), "%03d_", m->version);
		assert_int_equal(strncmp(m->name, prefix, 4), 0);
		assert_true(strlen(m->name) > 4);
		assert_true(strlen(m->sql) > 0);
	}
	assert_true(n >= 8);
	assert_int_equal(n, store_schema_latest());
	assert_null(pb_migrations[n].name);
	assert_null(pb_migrations[n].sql);
}

/* A fresh file is migrated to the newest version, is pitboss's, and is sound. */
static void
test_fresh_database_is_latest(void **state)
{
	struct store *s = open_db();

	(void)state;
	assert_int_equal(store_schema_version(s), store_schema_latest());
	assert_int_equal(db_int(store_db(s), "PRAGMA application_id"), PB_APPLICATION_ID);
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	store_free(s);
}

/* A database left at each earlier version (empty, as those migrations made it) is brought up to the newest. */
static void
test_every_version_upgrades(void **state)
{
	int latest = store_schema_latest();

	(void)state;
	for (int v = 1; v < latest; v++) {
		struct store *s;
		sqlite3 *db;
		char sql[64];

		temp_db_remove(dbpath);
		assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
		db_exec_ok(db, "PRAGMA foreign_keys = ON");
		for (const struct migration *m = pb_migrations; m->version != 0 && m->version <= v; m++)
			db_exec_ok(db, m->sql);
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v);
		db_exec_ok(db, sql);
		sqlite3_close(db);
		s = open_db();
		assert_int_equal(store_schema_version(s), latest);
		assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
		store_free(s);
	}
}

/*
 * 017: the offers of the bank are read through the partial index of the
 * events of no round, and a round's events take no entry in it.
 */
static void
test_bank_offers_use_the_nonround_index(void **state)
{
	struct store *s = open_db();
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	bool uses = false;
	char sql[512];

	(void)state;
	snprintf(sql, sizeof(sql), "EXPLAIN QUERY PLAN %s", store_sql_text(STMT_BANK_OFFERS));
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		if (strstr((const char *)sqlite3_column_text(st, 3), "USING INDEX events_nonround_type") != NULL)
			uses = true;
	sqlite3_finalize(st);
	assert_true(uses);
	assert_int_equal(db_int(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'events_table_type'"), 0);
	db_exec_ok(db, "INSERT INTO events (table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash) VALUES "
	    "('T1', 1, NULL, 'bank_offered', 'a', 'b', '{}', 'p', 'h1'), ('T1', 2, 7, 'bet_placed', 'a', 'b', '{}', 'h1', 'h2')");
	assert_int_equal(db_int(db, "SELECT count(*) FROM events INDEXED BY events_nonround_type WHERE round_id IS NULL "
	    "AND table_id = 'T1'"), 1);
	assert_int_equal(db_int(db, "SELECT count(*) FROM pragma_index_info('events_nonround_type')"), 3);
	store_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_versions_contiguous),
		cmocka_unit_test_setup_teardown(test_fresh_database_is_latest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_version_upgrades, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bank_offers_use_the_nonround_index, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
