/*
 * test_migrations.c - the embedded schema migrations (pb_migrations, made
 * by cmake/embed_schema.cmake from schema/NNN_name.sql): numbered 1..N with
 * no gap, each named and non-empty; a fresh database ends at the newest, and
 * so does a database left at any earlier version.  (A database newer than
 * the build is refused: test_store.c, test_newer_database_is_refused.)
 * Migrations with a purpose of their own are checked at the end: 017's
 * partial index, 019's indexes without regard to case, the rows kept through
 * 020 and 021 (which makes acct_documents again), 023's rowid tables, 025's
 * payouts keyed by rowid.
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

TEMP_DB_FIXTURE("migrations")

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

/* Whether the query plan of the statement names the index. */
static bool
plan_uses(sqlite3 *db, enum stmt_id id, const char *index)
{
	sqlite3_stmt *st;
	bool uses = false;
	char sql[1024];

	snprintf(sql, sizeof(sql), "EXPLAIN QUERY PLAN %s", store_sql_text(id));
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		if (strstr((const char *)sqlite3_column_text(st, 3), index) != NULL)
			uses = true;
	sqlite3_finalize(st);
	return uses;
}

/* 019: the checks of a new id and a new card without regard to case read an index, not every row. */
static void
test_nocase_checks_use_their_indexes(void **state)
{
	struct store *s = open_db();
	sqlite3 *db = store_db(s);

	(void)state;
	assert_true(plan_uses(db, STMT_PERSON_GET_NOCASE, "people_id_nocase"));
	assert_true(plan_uses(db, STMT_PLAYER_CARD_HOLDER, "players_card_nocase"));
	assert_int_equal(db_int(db, "SELECT count(*) FROM sqlite_schema WHERE name IN ('people_id_nocase', "
	    "'players_card_nocase') AND sql NOT LIKE '%UNIQUE%'"), 2);
	store_free(s);
}

/* The version before the migration named name (NNN_name). */
static int
version_before(const char *name)
{
	for (const struct migration *m = pb_migrations; m->version != 0; m++)
		if (strcmp(m->name, name) == 0)
			return m->version - 1;
	return 0;
}

/* A database left at version before, made by the migrations up to it (their SQL run as is). */
static sqlite3 *
db_at(int before)
{
	sqlite3 *db;
	char sql[64];

	temp_db_remove(dbpath);
	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	for (const struct migration *m = pb_migrations; m->version != 0 && m->version <= before; m++)
		db_exec_ok(db, m->sql);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", before);
	db_exec_ok(db, sql);
	return db;
}

/*
 * 019 on a database made before it that holds ids and cards differing only
 * in case (accepted then): the upgrade does not fail, and keeps them all.
 */
static void
test_case_duplicates_survive_019(void **state)
{
	struct store *s;
	sqlite3 *db;
	int before = version_before("019_ids_nocase");

	(void)state;
	assert_true(before > 0);
	db = db_at(before);
	db_exec_ok(db, "INSERT INTO people (id, name, roles, created_at, updated_at) VALUES "
	    "('FL1', 'Flo Floor', 16, 'a', 'a'), ('fl1', 'Flo Floor', 16, 'a', 'a'), ('FL.1', 'Flo Dot', 16, 'a', 'a')");
	db_exec_ok(db, "INSERT INTO players (id, card, name, record_json, created_at, updated_at) VALUES "
	    "('P1', 'ABC-1', 'Ana', '{}', 'a', 'a'), ('P2', 'abc-1', 'Bo', '{}', 'a', 'a'), "
	    "('P3', NULL, NULL, '{}', 'a', 'a'), ('P4', NULL, NULL, '{}', 'a', 'a')");
	sqlite3_close(db);
	s = open_db();
	db = store_db(s);
	assert_int_equal(store_schema_version(s), store_schema_latest());
	assert_int_equal(db_int(db, "SELECT count(*) FROM people WHERE id = 'fl1' COLLATE NOCASE"), 2);
	assert_int_equal(db_int(db, "SELECT count(*) FROM players WHERE card = 'ABC-1' COLLATE NOCASE"), 2);
	assert_int_equal(db_int(db, "SELECT count(*) FROM players"), 4);
	assert_int_equal(db_int(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	store_free(s);
}

/*
 * 020 adds columns to table_transactions and players; 021 makes acct_documents again: the rows
 * written before stay, every column as it was (a void still names its fill), the new columns NULL,
 * and the table still refuses an update.
 */
static void
test_rows_survive_020_and_021(void **state)
{
	struct store *s;
	sqlite3 *db;
	int before = version_before("020_cash_controls");

	(void)state;
	assert_true(before > 0);
	db = db_at(before);
	db_exec_ok(db, "INSERT INTO players (id, card, name, record_json, created_at, updated_at) VALUES "
	    "('P1', 'C1', 'Ana', '{}', 'a', 'a')");
	db_exec_ok(db, "INSERT INTO table_transactions (id, table_id, seat, player_id, direction, kind, amount, at, gaming_day, by) "
	    "VALUES (1, 'T1', 2, 'P1', 'in', 'cash', 300000, 'a', '2026-03-01', 'FL1')");
	db_exec_ok(db, "INSERT INTO acct_documents (id, table_id, kind, at, gaming_day, serial, year, total, chips_json, signer, "
	    "witness, voids) VALUES (1, 'T1', 'fill', 'a', '2026-03-01', 'F-1', 2026, 10000, '{\"2500\":4}', 'CG1', 'PB1', NULL), "
	    "(2, 'T1', 'fill_void', 'b', '2026-03-01', 'F-1', 2026, 10000, NULL, 'FL1', 'PB1', 1)");
	sqlite3_close(db);
	s = open_db();
	db = store_db(s);
	assert_int_equal(store_schema_version(s), store_schema_latest());
	assert_int_equal(db_int(db, "SELECT count(*) FROM table_transactions WHERE id = 1 AND amount = 300000 AND type IS NULL"), 1);
	assert_int_equal(db_int(db, "SELECT count(*) FROM players WHERE id = 'P1' AND merged_into IS NULL"), 1);
	assert_int_equal(db_int(db, "SELECT count(*) FROM acct_documents"), 2);
	assert_int_equal(db_int(db, "SELECT count(*) FROM acct_documents WHERE id = 2 AND voids = 1 AND kind = 'fill_void' "
	    "AND witnesses IS NULL AND count_json IS NULL"), 1);
	assert_int_equal(db_int(db, "SELECT total FROM acct_documents WHERE id = 1"), 10000);
	assert_int_not_equal(sqlite3_exec(db, "UPDATE acct_documents SET total = 1 WHERE id = 1", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(db_int(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	assert_int_equal(db_int(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	store_free(s);
}

/* Asserts that the one text value the query answers is expected. */
static void
assert_text(sqlite3 *db, const char *sql, const char *expected)
{
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_non_null(sqlite3_column_text(st, 0));
	assert_string_equal((const char *)sqlite3_column_text(st, 0), expected);
	sqlite3_finalize(st);
}

/*
 * 023: bets, hands and decisions made again as rowid tables: the rows written before stay, every column as it
 * was, each with id = round_id * 16 + seat, read back in (round_id, seat) order by the rowid; the triggers
 * still refuse what they refused; rounds_open is gone and the round in progress is still found; rounds_settled_at
 * holds the finished rounds only, and the reads by settling time still use it.
 */
static void
test_rows_survive_023(void **state)
{
	struct store *s;
	sqlite3 *db;
	int before = version_before("023_fewer_pages");
	int64_t current = 0;
	struct pb_error err;

	(void)state;
	assert_true(before > 0);
	db = db_at(before);
	db_exec_ok(db, "INSERT INTO rules_sets (id, sha256, rules_json) VALUES (1, 'x', '{}');"
	    "INSERT INTO rounds (id, table_id, round_no, state, rules_id, limits_json, seats, banking, opened_at, opened_by) "
	    "VALUES (7, 'T1', 1, 'betting', 1, '{}', 6, 'house', 'a', 'd'), (9, 'T1', 2, 'betting', 1, '{}', 6, 'house', 'a', 'd');"
	    "INSERT INTO bets (round_id, seat, ante, pair_plus, six_card, placed_at, placed_by) VALUES "
	    "(9, 2, 500, 0, 0, 'b', 'd'), (7, 6, 1500, 500, 0, 'a', 'd'), (7, 1, 1000, 0, 500, 'a', 'd');"
	    "INSERT INTO hands (round_id, seat, cards, hand, dealt_at) VALUES (7, 1, 'AsKdQh', 'high_card', 'c'), "
	    "(7, 0, '2c3c4c', 'straight_flush', 'c');"
	    "INSERT INTO decisions (round_id, seat, action, decided_at, decided_by) VALUES (7, 1, 'play', 'e', 'd');"
	    "UPDATE rounds SET state = 'settled', settled_at = 'f' WHERE id = 7");
	sqlite3_close(db);
	s = open_db();
	db = store_db(s);
	assert_int_equal(store_schema_version(s), store_schema_latest());
	assert_int_equal(db_int(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'rounds_open'"), 0);
	assert_int_equal(db_int(db, "SELECT count(*) FROM bets WHERE id <> round_id * 16 + seat"), 0);
	assert_text(db, "SELECT group_concat(round_id || '/' || seat || ':' || ante || ':' || pair_plus || ':' || "
	    "six_card || ':' || placed_at, ' ') FROM (SELECT * FROM bets ORDER BY id)",
	    "7/1:1000:0:500:a 7/6:1500:500:0:a 9/2:500:0:0:b");
	assert_text(db, "SELECT group_concat(id || ':' || cards || ':' || hand, ' ') FROM (SELECT * FROM hands "
	    "ORDER BY id)", "112:2c3c4c:straight_flush 113:AsKdQh:high_card");
	assert_int_equal(db_int(db, "SELECT id FROM decisions WHERE round_id = 7 AND seat = 1 AND action = 'play'"), 7 * 16 + 1);
	assert_int_not_equal(sqlite3_exec(db, "UPDATE bets SET ante = 1 WHERE round_id = 7", NULL, NULL, NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db, "DELETE FROM hands", NULL, NULL, NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db, "UPDATE decisions SET action = 'fold'", NULL, NULL, NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db, "INSERT INTO hands (round_id, seat, cards, hand, dealt_at, id) "
	    "VALUES (9, 1, 'AsKdQh', 'high_card', 'c', 7 * 16 + 1)", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_round_current(s, "T1", &current, &err), 0);
	assert_int_equal(current, 9);
	/* rounds_settled_at: the settled round only, still the index of the reads by settling time */
	assert_int_equal(db_int(db, "SELECT count(*) FROM rounds INDEXED BY rounds_settled_at WHERE settled_at >= '' "
	    "AND settled_at < 'z'"), 1);
	assert_true(plan_uses(db, STMT_ROUNDS_SETTLED_IN, "rounds_settled_at"));
	assert_true(plan_uses(db, STMT_HANDS_COVERAGE, "rounds_settled_at"));
	assert_int_equal(db_int(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	assert_int_equal(db_int(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	store_free(s);
}

/*
 * 025: payouts made again as a rowid table: the lines written before stay, every column as it was, each with
 * id = round_id * 64 + seq, read back in (round_id, seq) order by the rowid; the append-only triggers and the
 * CHECKs still refuse what they refused; the readers of a round's lines read its rowid range, the largest
 * payouts and the shorts still their partial indexes.
 */
static void
test_rows_survive_025(void **state)
{
	struct store *s;
	sqlite3 *db;
	int before = version_before("025_payouts_rowid");

	(void)state;
	assert_true(before > 0);
	db = db_at(before);
	db_exec_ok(db, "INSERT INTO rules_sets (id, sha256, rules_json) VALUES (1, 'x', '{}');"
	    "INSERT INTO rounds (id, table_id, round_no, state, rules_id, limits_json, seats, banking, opened_at, opened_by) "
	    "VALUES (7, 'T1', 1, 'betting', 1, '{}', 6, 'player', 'a', 'd'), "
	    "(9, 'T1', 2, 'betting', 1, '{}', 6, 'house', 'a', 'd');"
	    "INSERT INTO payouts (round_id, seq, seat, wager, stake, result, net, bank_after, short) VALUES "
	    "(9, 2, 1, 'play', 500, 'lose', -500, NULL, NULL), (7, 40, 8, 'ante_bonus', 0, 'returned', 0, 7000, NULL), "
	    "(7, 1, 1, 'ante', 1000, 'win', 1000, 9000, 250), (9, 1, 1, 'ante', 500, 'push', 0, NULL, NULL);"
	    "UPDATE rounds SET state = 'settled', settled_at = 'f' WHERE id IN (7, 9)");
	sqlite3_close(db);
	s = open_db();
	db = store_db(s);
	assert_int_equal(store_schema_version(s), store_schema_latest());
	assert_int_equal(db_int(db, "SELECT count(*) FROM payouts WHERE id <> round_id * 64 + seq"), 0);
	assert_text(db, "SELECT group_concat(id || ':' || round_id || '/' || seq || ':' || seat || ':' || wager || ':' || "
	    "stake || ':' || result || ':' || net || ':' || quote(bank_after) || ':' || quote(short), ' ') "
	    "FROM (SELECT * FROM payouts ORDER BY id)",
	    "449:7/1:1:ante:1000:win:1000:9000:250 488:7/40:8:ante_bonus:0:returned:0:7000:NULL "
	    "577:9/1:1:ante:500:push:0:NULL:NULL 578:9/2:1:play:500:lose:-500:NULL:NULL");
	assert_int_equal(db_int(db, "SELECT count(*) FROM sqlite_schema WHERE tbl_name = 'payouts' AND name IN "
	    "('payouts_net', 'payouts_short', 'payouts_no_update', 'payouts_no_delete')"), 4);
	assert_int_equal(db_int(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'payouts_025'"), 0);
	assert_int_not_equal(sqlite3_exec(db, "UPDATE payouts SET net = 1 WHERE round_id = 7", NULL, NULL, NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db, "DELETE FROM payouts", NULL, NULL, NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db, "INSERT INTO payouts VALUES (9, 3, 1, 'won', 5, 'win', 5, NULL, NULL, 579)",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db, "INSERT INTO payouts VALUES (9, 3, 1, 'ante', 5, 'win', 5, NULL, NULL, 580)",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_true(plan_uses(db, STMT_ROUND_PAYOUTS, "INTEGER PRIMARY KEY"));
	assert_true(plan_uses(db, STMT_PLAYER_LINES, "INTEGER PRIMARY KEY"));
	assert_true(plan_uses(db, STMT_BANKER_REPORT, "INTEGER PRIMARY KEY"));
	assert_true(plan_uses(db, STMT_REPORT_PAYOUTS, "payouts_net"));
	assert_true(plan_uses(db, STMT_REPORT_SHORTS, "payouts_short"));
	assert_int_equal(db_int(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	assert_int_equal(db_int(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
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
		cmocka_unit_test_setup_teardown(test_nocase_checks_use_their_indexes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_case_duplicates_survive_019, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rows_survive_020_and_021, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rows_survive_023, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rows_survive_025, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
