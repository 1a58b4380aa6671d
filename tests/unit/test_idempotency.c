/*
 * test_idempotency.c - the expiry of stored Idempotency-Key answers
 * (store_idempotency_prune): what is old goes, what is recent stays, a
 * transaction never deletes more than a batch, bad calls change nothing, and
 * the index of schema/005 is what the delete walks.  And schema/008: a
 * database from before it keeps every stored answer, now in a rowid table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/migrations.h"
#include "store/store.h"
#include "temp_db.h"

static char dbpath[256];

/* 2026-01-01T00:00:00.000Z */
#define CUTOFF_MS 1767225600000LL

static int
setup(void **state)
{
	(void)state;
	temp_db_path(dbpath, sizeof(dbpath), "idempotency");
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
	s = store_open(&o, &err);
	assert_non_null(s);
	return s;
}

/* Stores an answer for key under actor "d", created at unix_ms. */
static void
put_at(struct store *s, const char *key, int64_t unix_ms)
{
	struct pb_error err;
	char at[PB_TIME_LEN];

	pb_time_format_ms(unix_ms, at);
	assert_int_equal(store_idempotency_put(s, "d", key, "h", 201, "{\"x\":1}", at, &err), 0);
}

/* Stores n answers "old-0".."old-(n-1)", created 1 ms apart, the last 1 ms before the cutoff. */
static void
put_old(struct store *s, int n)
{
	char key[32];

	for (int i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "old-%d", i);
		put_at(s, key, CUTOFF_MS - n + i);
	}
}

static bool
has_key(struct store *s, const char *key)
{
	struct pb_error err;
	bool found = false;
	int status = 0;
	char *resp = NULL;

	assert_int_equal(store_idempotency_get(s, "d", key, "h", &found, &status, &resp, &err), 0);
	free(resp);
	return found;
}

static int
count_rows(struct store *s)
{
	sqlite3_stmt *st;
	int n;

	assert_int_equal(sqlite3_prepare_v2(store_db(s), "SELECT count(*) FROM idempotency", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* Counts the transactions committed, and the most rows any one of them changed. */
struct commits {
	sqlite3 *db;
	int count;
	int64_t changes_before;
	int64_t most_changes;
};

static int
on_commit(void *arg)
{
	struct commits *c = arg;
	int64_t now = sqlite3_total_changes(c->db), n = now - c->changes_before;

	c->count++;
	if (n > c->most_changes)
		c->most_changes = n;
	c->changes_before = now;
	return 0;
}

static void
watch_commits(struct store *s, struct commits *c)
{
	memset(c, 0, sizeof(*c));
	c->db = store_db(s);
	c->changes_before = sqlite3_total_changes(c->db);
	sqlite3_commit_hook(c->db, on_commit, c);
}

/* Older than the cutoff goes; at the cutoff and after stays, to the millisecond. */
static void
test_old_removed_recent_kept(void **state)
{
	struct store *s = open_db();
	struct pb_error err;
	int64_t removed = -1;
	uint64_t total_before = store_idempotency_pruned_total();
	bool found = true;
	int status = 0;
	char *resp = NULL;

	(void)state;
	put_at(s, "year-before", CUTOFF_MS - 365LL * 86400 * 1000);
	put_at(s, "second-before", CUTOFF_MS - 1000);
	put_at(s, "ms-before", CUTOFF_MS - 1);          /* 2025-12-31T23:59:59.999Z */
	put_at(s, "at-cutoff", CUTOFF_MS);              /* 2026-01-01T00:00:00.000Z */
	put_at(s, "ms-after", CUTOFF_MS + 1);
	put_at(s, "day-after", CUTOFF_MS + 86400LL * 1000);
	assert_int_equal(store_idempotency_prune(s, CUTOFF_MS, 1000, 10, &removed, &err), 0);
	assert_int_equal(removed, 3);
	assert_false(has_key(s, "year-before"));
	assert_false(has_key(s, "second-before"));
	assert_false(has_key(s, "ms-before"));
	assert_true(has_key(s, "at-cutoff"));
	assert_true(has_key(s, "ms-after"));
	assert_true(has_key(s, "day-after"));
	assert_int_equal(count_rows(s), 3);
	assert_int_equal(store_idempotency_pruned_total() - total_before, 3);

	/* A pruned key is unknown again: the same key with another request is no longer "reused". */
	assert_int_equal(store_idempotency_get(s, "d", "ms-before", "another-request", &found, &status, &resp, &err), 0);
	assert_false(found);
	/* ... while a kept one still refuses another request. */
	assert_int_equal(store_idempotency_get(s, "d", "at-cutoff", "another-request", &found, &status, &resp, &err), -1);
	assert_string_equal(err.code, "idempotency_key_reused");

	/* Pruning again at the same cutoff finds nothing. */
	assert_int_equal(store_idempotency_prune(s, CUTOFF_MS, 1000, 10, &removed, &err), 0);
	assert_int_equal(removed, 0);
	assert_int_equal(count_rows(s), 3);
	store_free(s);
}

/* No transaction deletes more than a batch; a call runs at most max_batches of them, oldest rows first. */
static void
test_batch_bound(void **state)
{
	struct store *s = open_db();
	struct pb_error err;
	struct commits c;
	int64_t removed = -1;

	(void)state;
	put_old(s, 25);
	put_at(s, "recent", CUTOFF_MS + 5000);

	watch_commits(s, &c);
	assert_int_equal(store_idempotency_prune(s, CUTOFF_MS, 10, 1, &removed, &err), 0);
	assert_int_equal(removed, 10);
	assert_int_equal(c.count, 1);
	assert_int_equal(c.most_changes, 10);
	assert_int_equal(count_rows(s), 16);
	/* The oldest went first. */
	assert_false(has_key(s, "old-0"));
	assert_false(has_key(s, "old-9"));
	assert_true(has_key(s, "old-10"));

	/* 15 old rows left, batches of 4, at most 3 batches: 12 removed in 3 transactions of 4. */
	watch_commits(s, &c);
	assert_int_equal(store_idempotency_prune(s, CUTOFF_MS, 4, 3, &removed, &err), 0);
	assert_int_equal(removed, 12);
	assert_int_equal(c.count, 3);
	assert_int_equal(c.most_changes, 4);
	assert_false(has_key(s, "old-21"));
	assert_true(has_key(s, "old-22"));

	/* The last 3: one short batch, and it stops there although more batches were allowed. */
	watch_commits(s, &c);
	assert_int_equal(store_idempotency_prune(s, CUTOFF_MS, 4, 100, &removed, &err), 0);
	assert_int_equal(removed, 3);
	assert_int_equal(c.count, 1);
	assert_int_equal(c.most_changes, 3);
	assert_int_equal(count_rows(s), 1);
	assert_true(has_key(s, "recent"));
	sqlite3_commit_hook(store_db(s), NULL, NULL);
	store_free(s);
}

/* Bad arguments, or a call inside the caller's transaction, are refused and change nothing. */
static void
test_refused_changes_nothing(void **state)
{
	struct store *s = open_db();
	struct pb_error err;
	int64_t removed = -1;
	uint64_t total_before;

	(void)state;
	put_old(s, 5);
	total_before = store_idempotency_pruned_total();

	assert_int_equal(store_idempotency_prune(s, CUTOFF_MS, 0, 1, &removed, &err), -1);
	assert_string_equal(err.code, "invalid_argument");
	assert_int_equal(removed, 0);
	assert_int_equal(store_idempotency_prune(s, CUTOFF_MS, 10, 0, &removed, &err), -1);
	assert_string_equal(err.code, "invalid_argument");
	assert_int_equal(store_idempotency_prune(s, -1, 10, 1, &removed, &err), -1);
	assert_string_equal(err.code, "invalid_argument");
	assert_int_equal(count_rows(s), 5);

	/* Inside a transaction of the caller's: refused, and the caller's transaction is left alone. */
	assert_int_equal(store_begin(s, &err), 0);
	put_at(s, "in-callers-transaction", CUTOFF_MS - 100000);
	assert_int_equal(store_idempotency_prune(s, CUTOFF_MS, 10, 1, &removed, &err), -1);
	assert_string_equal(err.code, "storage_error");
	assert_int_equal(removed, 0);
	assert_int_equal(sqlite3_get_autocommit(store_db(s)), 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(count_rows(s), 6);
	assert_true(has_key(s, "in-callers-transaction"));
	assert_int_equal(store_idempotency_pruned_total(), total_before);
	store_free(s);
}

/*
 * The delete finds its rows through idempotency_created_at (schema/005), not
 * by scanning the table.  The statement is the one of store/idempotency.c.
 */
static void
test_delete_uses_the_index(void **state)
{
	struct store *s = open_db();
	sqlite3_stmt *st;
	bool indexed = false, scans = false;

	(void)state;
	assert_int_equal(sqlite3_prepare_v2(store_db(s),
	    "EXPLAIN QUERY PLAN DELETE FROM idempotency WHERE rowid IN "
	    "(SELECT rowid FROM idempotency WHERE created_at < ? ORDER BY created_at LIMIT ?)", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *detail = (const char *)sqlite3_column_text(st, 3);
		/* The index alone: the rows (1-2 KB each) are not read to find which to delete. */
		if (strstr(detail, "COVERING INDEX idempotency_created_at") != NULL)
			indexed = true;
		if (strncmp(detail, "SCAN", 4) == 0)
			scans = true;
	}
	sqlite3_finalize(st);
	assert_true(indexed);
	assert_false(scans);
	store_free(s);
}



/* Every stored answer, ordered, as one string (to compare before and after a migration); free it. */
static char *
idempotency_dump(sqlite3 *db)
{
	sqlite3_stmt *st;
	char *out;

	assert_int_equal(sqlite3_prepare_v2(db, "SELECT group_concat(line, char(10)) FROM (SELECT "
	    "actor || '|' || key || '|' || request_hash || '|' || status || '|' || created_at || '|' || response AS line "
	    "FROM idempotency ORDER BY actor, key)", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	out = strdup(sqlite3_column_type(st, 0) == SQLITE_NULL ? "" : (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	assert_non_null(out);
	return out;
}

#define PRE_008_ROWS 300

/*
 * The answer stored under key i of a pre-008 database: 1-2 KB of JSON (the
 * size that overflowed a WITHOUT ROWID page), a few short ones, one with a
 * quote and non-ASCII text.
 */
static void
pre_008_answer(int i, char *buf, size_t size)
{
	int len = i % 10 == 0 ? 20 : 1000 + (i * 37) % 1000;
	int n = snprintf(buf, size, "{\"i\":%d,\"note\":\"%s\",\"pad\":\"", i, i == 7 ? "it's \xc3\xa9t\xc3\xa9" : "x");

	for (; n < len && (size_t)n < size - 3; n++)
		buf[n] = (char)('a' + (i + n) % 26);
	snprintf(buf + n, size - (size_t)n, "\"}");
}

/*
 * A database as the migrations before 008 leave it, with PRE_008_ROWS
 * answers: keys "k-0".. under actor "d", and the same keys under actor
 * "pitboss" for every third (one key, two actors), created 1 s apart from
 * CUTOFF_MS - 100 s.  Written with plain SQLite, as the older pitbossd did.
 */
static void
make_pre_008_database(void)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int version = 0;
	char sql[64], answer[2100], key[32], at[PB_TIME_LEN];

	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	db_exec_ok(db, "PRAGMA foreign_keys = ON");
	for (const struct migration *m = pb_migrations; m->version != 0 && m->version < 8; m++) {
		db_exec_ok(db, m->sql);
		version = m->version;
	}
	assert_int_equal(version, 7);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
	db_exec_ok(db, sql);
	assert_int_equal(db_int(db, "SELECT sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE name = 'idempotency'"), 1);
	assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO idempotency (actor, key, request_hash, status, response, created_at) "
	    "VALUES (?, ?, ?, ?, ?, ?)", -1, &st, NULL), SQLITE_OK);
	db_exec_ok(db, "BEGIN");
	for (int i = 0; i < PRE_008_ROWS; i++) {
		for (int a = 0; a < (i % 3 == 0 ? 2 : 1); a++) {
			snprintf(key, sizeof(key), "k-%d", i);
			pre_008_answer(i + a, answer, sizeof(answer));
			pb_time_format_ms(CUTOFF_MS - 100000 + i * 1000LL, at);
			sqlite3_bind_text(st, 1, a == 0 ? "d" : "pitboss", -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 3, a == 0 ? "h" : "h2", -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 4, 200 + i % 3);
			sqlite3_bind_text(st, 5, answer, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(st, 6, at, -1, SQLITE_TRANSIENT);
			assert_int_equal(sqlite3_step(st), SQLITE_DONE);
			sqlite3_reset(st);
		}
	}
	db_exec_ok(db, "COMMIT");
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/*
 * An existing database: 008 rebuilds idempotency as a rowid table in
 * place, every row kept byte for byte; each answer is found again, a key
 * is still unique per actor, and pruning works on the rebuilt table.
 */
static void
test_pre_008_upgraded(void **state)
{
	struct store *s;
	struct pb_error err;
	sqlite3 *raw;
	char *before, *after, answer[2100], key[32];
	int64_t removed = -1;
	bool found;
	int status;
	char *resp;

	(void)state;
	make_pre_008_database();
	assert_int_equal(sqlite3_open(dbpath, &raw), SQLITE_OK);
	before = idempotency_dump(raw);
	sqlite3_close(raw);

	s = open_db();
	assert_int_equal(store_schema_version(s), store_schema_latest());
	after = idempotency_dump(store_db(s));
	assert_string_equal(before, after);
	assert_int_equal(count_rows(s), PRE_008_ROWS + PRE_008_ROWS / 3);
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM sqlite_master WHERE name = 'idempotency' "
	    "AND type = 'table' AND sql NOT LIKE '%WITHOUT ROWID%'"), 1);
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM sqlite_master WHERE tbl_name = 'idempotency' AND type = 'index' "
	    "AND name IN ('idempotency_created_at', 'sqlite_autoindex_idempotency_1')"), 2);
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM sqlite_master WHERE name LIKE '%idempotency_new%'"), 0);
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	/* The rows were copied oldest first: rowid order is created_at order. */
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM idempotency AS a JOIN idempotency AS b "
	    "ON b.rowid = a.rowid + 1 WHERE b.created_at < a.created_at"), 0);

	/* Each answer is found through store_idempotency_get, under its actor. */
	for (int i = 0; i < PRE_008_ROWS; i++) {
		snprintf(key, sizeof(key), "k-%d", i);
		resp = NULL;
		assert_int_equal(store_idempotency_get(s, "d", key, "h", &found, &status, &resp, &err), 0);
		assert_true(found);
		assert_int_equal(status, 200 + i % 3);
		pre_008_answer(i, answer, sizeof(answer));
		assert_string_equal(resp, answer);
		free(resp);
		resp = NULL;
		assert_int_equal(store_idempotency_get(s, "pitboss", key, "h2", &found, &status, &resp, &err), 0);
		assert_int_equal(found, i % 3 == 0);
		free(resp);
	}
	/* One answer per (actor, key), as before. */
	assert_int_equal(store_idempotency_put(s, "d", "k-1", "h", 201, "{}", "2026-01-01T00:00:00.000Z", &err), -1);
	assert_int_equal(store_idempotency_put(s, "pitboss", "k-1", "h", 201, "{}", "2026-01-01T00:00:00.000Z", &err), 0);
	/* The 100 oldest keys (and the 34 of them also under "pitboss") are older than the cutoff. */
	assert_int_equal(store_idempotency_prune(s, CUTOFF_MS, 50, 100, &removed, &err), 0);
	assert_int_equal(removed, 100 + 34);
	assert_false(has_key(s, "k-99"));
	assert_true(has_key(s, "k-100"));
	free(before);
	free(after);
	store_free(s);
}

/* Something on idempotency the rebuild does not know: 008 refuses and rolls back, losing nothing. */
static void
test_pre_008_rebuild_guard(void **state)
{
	struct store_options o = {0};
	struct pb_error err;
	struct store *s;
	sqlite3 *raw;
	char *before, *after;

	(void)state;
	make_pre_008_database();
	assert_int_equal(sqlite3_open(dbpath, &raw), SQLITE_OK);
	db_exec_ok(raw, "CREATE INDEX idempotency_by_status ON idempotency(status)");
	before = idempotency_dump(raw);
	sqlite3_close(raw);
	o.path = dbpath;
	s = store_open(&o, &err);
	assert_null(s);
	assert_string_equal(err.code, "migration_failed");
	assert_non_null(strstr(err.message, "idempotency_has_no_index_or_trigger_008_does_not_recreate"));
	assert_int_equal(sqlite3_open(dbpath, &raw), SQLITE_OK);
	assert_int_equal(db_int(raw, "PRAGMA user_version"), 7);
	assert_int_equal(db_int(raw, "SELECT sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE name = 'idempotency'"), 1);
	after = idempotency_dump(raw);
	assert_string_equal(before, after);
	sqlite3_close(raw);
	free(before);
	free(after);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_old_removed_recent_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_batch_bound, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_changes_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delete_uses_the_index, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pre_008_upgraded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pre_008_rebuild_guard, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
