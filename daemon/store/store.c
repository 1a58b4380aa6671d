/*
 * store.c - opening the database, migrations, transactions, and the cache
 * of prepared statements.
 */
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/migrations.h"

#define STMT_CACHE_MAX 96

struct cached_stmt {
	const char *sql;        /* the caller's string literal: compared by address first */
	sqlite3_stmt *stmt;
};

struct store {
	sqlite3 *db;
	bool read_only;
	int stmt_count;
	struct cached_stmt stmts[STMT_CACHE_MAX];
};

sqlite3 *
store_db(struct store *s)
{
	return s->db;
}

int
store_fail(struct store *s, struct pb_error *err, const char *what)
{
	return pb_fail(err, 500, "storage_error", "%s: %s", what, s && s->db ? sqlite3_errmsg(s->db) : "no database");
}

sqlite3_stmt *
store_stmt(struct store *s, const char *sql, struct pb_error *err)
{
	sqlite3_stmt *st;

	for (int i = 0; i < s->stmt_count; i++) {
		if (s->stmts[i].sql == sql || strcmp(s->stmts[i].sql, sql) == 0) {
			st = s->stmts[i].stmt;
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
			return st;
		}
	}
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
		store_fail(s, err, "preparing a statement");
		return NULL;
	}
	if (s->stmt_count < STMT_CACHE_MAX) {
		s->stmts[s->stmt_count].sql = sql;
		s->stmts[s->stmt_count].stmt = st;
		s->stmt_count++;
	}
	/* A full cache never happens with the fixed set of queries; the statement would leak. */
	return st;
}

static int
exec_sql(struct store *s, const char *sql, struct pb_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		pb_fail(err, 500, "storage_error", "%s", msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int
pragma_int(struct store *s, const char *sql, int *out)
{
	sqlite3_stmt *st;
	int rc = -1;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*out = sqlite3_column_int(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

int
store_schema_latest(void)
{
	int v = 0;

	for (const struct migration *m = pb_migrations; m->version != 0; m++)
		if (m->version > v)
			v = m->version;
	return v;
}

int
store_schema_version(struct store *s)
{
	int v = -1;

	pragma_int(s, "PRAGMA user_version", &v);
	return v;
}

/*
 * Brings the schema up to date: refuses another application's file and a
 * newer schema; applies each missing migration in its own transaction.
 */
static int
migrate(struct store *s, const char *path, struct pb_error *err)
{
	int version = 0, app = 0, objects = 0, latest = store_schema_latest();

	if (pragma_int(s, "PRAGMA application_id", &app) < 0 || pragma_int(s, "PRAGMA user_version", &version) < 0)
		return pb_fail(err, 500, "storage_error", "%s: cannot read the schema version: %s", path, sqlite3_errmsg(s->db));
	pragma_int(s, "SELECT count(*) FROM sqlite_master", &objects);
	if (app != 0 && app != PB_APPLICATION_ID)
		return pb_fail(err, 500, "not_a_pitboss_database", "%s is the database of another application (application_id %d)", path, app);
	if (app == 0 && objects > 0)
		return pb_fail(err, 500, "not_a_pitboss_database", "%s already holds tables and is not a pitboss database", path);
	if (version > latest)
		return pb_fail(err, 500, "database_too_new",
		    "%s is at schema version %d, newer than this pitboss knows (%d): upgrade pitboss, do not open it with this one",
		    path, version, latest);
	if (s->read_only) {
		if (version < latest)
			return pb_fail(err, 500, "database_too_old", "%s is at schema version %d; open it once with pitbossd to upgrade it to %d",
			    path, version, latest);
		return 0;
	}
	for (const struct migration *m = pb_migrations; m->version != 0; m++) {
		char pragma[64];

		if (m->version <= version)
			continue;
		if (exec_sql(s, "BEGIN IMMEDIATE", err) < 0)
			return -1;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", m->version);
		if (exec_sql(s, m->sql, err) < 0 || exec_sql(s, pragma, err) < 0) {
			char msg[PB_ERROR_MESSAGE_MAX];
			snprintf(msg, sizeof(msg), "migration %s failed: %s", m->name, err ? err->message : "");
			exec_sql(s, "ROLLBACK", NULL);
			return pb_fail(err, 500, "migration_failed", "%s", msg);
		}
		if (exec_sql(s, "COMMIT", err) < 0)
			return -1;
	}
	return 0;
}

struct store *
store_open(const struct store_options *opt, struct pb_error *err)
{
	struct store *s = calloc(1, sizeof(*s));
	char sql[128];
	int flags;
	const char *sync = opt->synchronous ? opt->synchronous : "FULL";

	if (s == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		return NULL;
	}
	s->read_only = opt->read_only;
	flags = opt->read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
	flags |= SQLITE_OPEN_NOMUTEX;
	if (sqlite3_open_v2(opt->path, &s->db, flags, NULL) != SQLITE_OK) {
		pb_fail(err, 500, "storage_error", "cannot open database %s: %s", opt->path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto fail;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, opt->busy_timeout_ms > 0 ? opt->busy_timeout_ms : 10000);
	if (strcmp(sync, "FULL") != 0 && strcmp(sync, "EXTRA") != 0 && strcmp(sync, "NORMAL") != 0) {
		pb_fail(err, 500, "storage_error", "synchronous must be FULL, EXTRA or NORMAL");
		goto fail;
	}
	if (!opt->read_only && exec_sql(s, "PRAGMA journal_mode = WAL", err) < 0)
		goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA synchronous = %s; PRAGMA foreign_keys = ON; PRAGMA trusted_schema = OFF", sync);
	if (exec_sql(s, sql, err) < 0)
		goto fail;
	if (migrate(s, opt->path, err) < 0)
		goto fail;
	return s;
fail:
	/* Name the file in every refusal, so the operator knows which one. */
	if (err != NULL && strstr(err->message, opt->path) == NULL) {
		char msg[PB_ERROR_MESSAGE_MAX];
		snprintf(msg, sizeof(msg), "database %s: %s", opt->path, err->message);
		snprintf(err->message, sizeof(err->message), "%s", msg);
	}
	store_free(s);
	return NULL;
}

void
store_free(struct store *s)
{
	if (s == NULL)
		return;
	for (int i = 0; i < s->stmt_count; i++)
		sqlite3_finalize(s->stmts[i].stmt);
	sqlite3_close(s->db);
	free(s);
}

int
store_begin(struct store *s, struct pb_error *err)
{
	return exec_sql(s, "BEGIN IMMEDIATE", err);
}

int
store_commit(struct store *s, struct pb_error *err)
{
	if (exec_sql(s, "COMMIT", err) < 0) {
		store_rollback(s);
		return -1;
	}
	return 0;
}

void
store_rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		exec_sql(s, "ROLLBACK", NULL);
}
