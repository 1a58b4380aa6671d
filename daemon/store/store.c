/*
 * store.c - opening the database, migrations, transactions (and the
 * process's queue of writers), the cache of prepared statements, and the
 * small per-connection caches of the write path (chain heads, rules ids).
 */
#include "common/files.h"
#include "store/store_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "common/timeutil.h"
#include "store/capture.h"
#include "store/migrations.h"

#define HEAD_CACHE_MAX 8
#define RULES_CACHE_MAX 8
#define STORE_JOURNAL_SIZE_LIMIT (16 * 1024 * 1024)

/* A table's chain head as appended in the current write transaction. */
struct cached_head {
	char table_id[PB_ID_MAX];
	int64_t seq;
	char hash[PB_SHA256_HEX_LEN];
};

/* The rules_sets id of a rules struct, compared byte for byte. */
struct cached_rules {
	struct rules key;
	int64_t id;
	bool pending;           /* read or inserted in the open transaction: dropped unless it commits */
};

struct store {
	sqlite3 *db;
	bool read_only;
	bool as_is;             /* read-only, an older schema as it is (no private copy) */
	int file_version;       /* the schema version of the file as opened (before any migration) */
	bool writing;           /* holds the process's write turn (store_begin .. commit/rollback) */
	int busy_timeout_ms;
	sqlite3_stmt *stmts[STMT_COUNT];   /* by name (sql.h), prepared on first use */
	int head_count;
	struct cached_head heads[HEAD_CACHE_MAX];
	int rules_count;
	int rules_next;         /* the slot replaced next when full (round robin) */
	struct cached_rules rules[RULES_CACHE_MAX];
	struct event_capture capture;   /* the events of the round created in the open transaction */
	struct window_corrections *corrections;   /* the corrected lines the master game reads (count_window.c) */
};

/*
 * The process's writers take turns here, first come first served, before
 * BEGIN IMMEDIATE.  Left to SQLite's busy handler, a waiting connection
 * sleeps 1, 2, 5 ... 100 ms between tries and a newcomer can take the lock
 * in between, so with a few connections a write waited hundreds of
 * milliseconds behind transactions of a few.  Here the writer that ends its
 * transaction hands the turn to the oldest waiter and wakes it at once.
 * Other processes (pitboss backup, verify, sqlite3) still meet SQLite's busy
 * timeout.  Invariant: when no one holds the turn, no one waits.
 */
struct write_waiter {
	pthread_cond_t cond;
	bool granted;
	struct write_waiter *next;
};

static struct {
	pthread_mutex_t lock;
	bool held;
	struct write_waiter *head, *tail;
} write_queue = {PTHREAD_MUTEX_INITIALIZER, false, NULL, NULL};

/*
 * Waits for the write turn, at most timeout_ms.  0 when it is ours (release
 * it with write_turn_give exactly once), -1 on a timeout.
 */
static int
write_turn_take(int timeout_ms)
{
	struct write_waiter w = {.granted = false, .next = NULL};
	pthread_condattr_t attr;
	struct timespec until;
	int rc = 0;

	pthread_mutex_lock(&write_queue.lock);
	if (!write_queue.held) {
		write_queue.held = true;
		pthread_mutex_unlock(&write_queue.lock);
		return 0;
	}
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w.cond, &attr);
	pthread_condattr_destroy(&attr);
	if (write_queue.tail != NULL)
		write_queue.tail->next = &w;
	else
		write_queue.head = &w;
	write_queue.tail = &w;
	pb_deadline_in(CLOCK_MONOTONIC, timeout_ms, &until);
	while (!w.granted && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&w.cond, &write_queue.lock, &until);
	if (!w.granted) {
		/* Timed out: leave the queue (the turn was not handed to us). */
		struct write_waiter **pp = &write_queue.head, *prev = NULL;

		while (*pp != &w) {
			prev = *pp;
			pp = &(*pp)->next;
		}
		*pp = w.next;
		if (write_queue.tail == &w)
			write_queue.tail = prev;
	}
	pthread_mutex_unlock(&write_queue.lock);
	pthread_cond_destroy(&w.cond);
	return w.granted ? 0 : -1;
}

/* Ends our turn: hands it to the oldest waiter, woken at once, or frees it. */
static void
write_turn_give(void)
{
	struct write_waiter *w;

	pthread_mutex_lock(&write_queue.lock);
	w = write_queue.head;
	if (w != NULL) {
		write_queue.head = w->next;
		if (write_queue.head == NULL)
			write_queue.tail = NULL;
		w->granted = true;
		pthread_cond_signal(&w->cond);
	} else {
		write_queue.held = false;
	}
	pthread_mutex_unlock(&write_queue.lock);
}

sqlite3 *
store_db(struct store *s)
{
	return s->db;
}

/* Whether SQLite's last error on db was a failed allocation. */
static bool
out_of_memory(sqlite3 *db)
{
	int code = sqlite3_extended_errcode(db);

	return (code & 0xff) == SQLITE_NOMEM || code == SQLITE_IOERR_NOMEM;
}

int
store_fail(struct store *s, struct pb_error *err, const char *what)
{
	if (s != NULL && s->db != NULL && out_of_memory(s->db))
		return pb_oom(err);
	return pb_fail(err, 500, "storage_error", "%s: %s", what, s && s->db ? sqlite3_errmsg(s->db) : "no database");
}

/*
 * The statement named id: an index into the connection's array, prepared
 * the first time.  On the write path of every round, so nothing here
 * searches.
 */
sqlite3_stmt *
store_stmt(struct store *s, enum stmt_id id, struct pb_error *err)
{
	sqlite3_stmt *st = s->stmts[id];

	if (st != NULL) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		return st;
	}
	if (sqlite3_prepare_v3(s->db, store_sql_text(id), -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
		store_fail(s, err, "preparing a statement");
		return NULL;
	}
	s->stmts[id] = st;
	return st;
}

static int
exec_sql(struct store *s, const char *sql, struct pb_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		if (out_of_memory(s->db))
			pb_oom(err);
		else
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
store_schema_file_version(struct store *s)
{
	return s->file_version;
}

int
store_schema_version(struct store *s)
{
	int v = -1;

	pragma_int(s, store_sql_text(STMT_USER_VERSION), &v);
	return v;
}

/* Applies every migration after version, each in its own transaction. */
static int
apply_migrations(struct store *s, int version, struct pb_error *err)
{
	for (const struct migration *m = pb_migrations; m->version != 0; m++) {
		char pragma[64];

		if (m->version <= version)
			continue;
		if (exec_sql(s, store_sql_text(STMT_BEGIN), err) < 0)
			return -1;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", m->version);
		if (exec_sql(s, m->sql, err) < 0 || exec_sql(s, pragma, err) < 0) {
			char msg[PB_ERROR_MESSAGE_MAX];
			bool oom = pb_is_oom(err);
			snprintf(msg, sizeof(msg), "migration %s failed: %s", m->name, err ? err->message : "");
			exec_sql(s, store_sql_text(STMT_ROLLBACK), NULL);
			return oom ? pb_oom(err) : pb_fail(err, 500, "migration_failed", "%s", msg);
		}
		if (exec_sql(s, store_sql_text(STMT_COMMIT), err) < 0)
			return -1;
	}
	return 0;
}

/*
 * A read-only connection to a database of an older schema: copies it, in
 * one read transaction, into a private temporary database of this
 * connection's own (deleted when it closes) and migrates that copy, so
 * verify and replay read every older version without writing a byte of
 * the file.  The connection then reads the copy.
 */
static int
read_older_schema(struct store *s, const char *path, int version, struct pb_error *err)
{
	sqlite3 *copy = NULL;
	sqlite3_backup *b;
	int rc;

	if (sqlite3_open_v2("", &copy, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		sqlite3_close(copy);
		return pb_fail(err, 500, "storage_error", "%s: cannot make a private copy to read schema %d", path, version);
	}
	if ((b = sqlite3_backup_init(copy, "main", s->db, "main")) == NULL) {
		pb_fail(err, 500, "storage_error", "%s: cannot copy it to read schema %d: %s", path, version, sqlite3_errmsg(copy));
		sqlite3_close(copy);
		return -1;
	}
	while ((rc = sqlite3_backup_step(b, -1)) == SQLITE_BUSY || rc == SQLITE_LOCKED)
		sqlite3_sleep(20);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		sqlite3_close(copy);
		return pb_fail(err, 500, "storage_error", "%s: cannot copy it to read schema %d: %s", path, version, sqlite3_errstr(rc));
	}
	sqlite3_close(s->db);
	s->db = copy;
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, s->busy_timeout_ms);
	if (exec_sql(s, "PRAGMA journal_mode = DELETE; PRAGMA foreign_keys = ON; PRAGMA trusted_schema = OFF", err) < 0)
		return -1;
	return apply_migrations(s, version, err);
}

/*
 * Brings the schema up to date: refuses another application's file and a
 * newer schema; applies each missing migration in its own transaction and
 * logs "migrated from N to M".  A read-only connection never migrates the
 * file: an older schema is read through a private migrated copy
 * (read_older_schema).
 */
static int
migrate(struct store *s, const char *path, struct pb_error *err)
{
	int version = 0, app = 0, objects = 0, latest = store_schema_latest();

	if (pragma_int(s, store_sql_text(STMT_APPLICATION_ID), &app) < 0 ||
	    pragma_int(s, store_sql_text(STMT_USER_VERSION), &version) < 0)
		return out_of_memory(s->db) ? pb_oom(err) : pb_fail(err, 500, "storage_error", "%s: cannot read the schema "
		    "version: %s", path, sqlite3_errmsg(s->db));
	pragma_int(s, store_sql_text(STMT_SCHEMA_OBJECTS), &objects);
	if (app != 0 && app != PB_APPLICATION_ID)
		return pb_fail(err, 500, "not_a_pitboss_database", "%s is the database of another application (application_id %d)", path, app);
	if (app == 0 && objects > 0)
		return pb_fail(err, 500, "not_a_pitboss_database", "%s already holds tables and is not a pitboss database", path);
	if (s->read_only && app == 0)
		return pb_fail(err, 500, "not_a_pitboss_database", "%s is empty: not a pitboss database", path);
	if (version > latest)
		return pb_fail(err, 500, "database_too_new",
		    "%s is at schema version %d, newer than this pitboss knows (%d): upgrade pitboss, do not open it with this one",
		    path, version, latest);
	s->file_version = version;
	if (version == latest)
		return 0;
	if (s->read_only)
		return s->as_is ? 0 : read_older_schema(s, path, version, err);
	if (apply_migrations(s, version, err) < 0)
		return -1;
	if (version > 0)
		log_info("database %s: migrated from schema %d to %d", path, version, latest);
	return 0;
}

/*
 * A database opened read-write for the first time is created here, empty
 * (SQLite takes an empty file for a new database), mode 0600 (0640 and its
 * group with file_group, common/files.h) whatever the umask: SQLite would create it 0644 less the umask, and its WAL and
 * shared-memory files take the database's mode.  An existing file is left
 * as it is; a name that is no plain path (":memory:", a URI) is SQLite's.
 */
static int
create_private(const char *path, struct pb_error *err)
{
	int fd;

	if (path[0] == '\0' || path[0] == ':' || strncmp(path, "file:", 5) == 0)
		return 0;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return errno == EEXIST ? 0 : pb_fail(err, 500, "storage_error", "cannot create %s: %s", path, strerror(errno));
	if (pb_files_secure_fd(fd, path, err) < 0) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

struct store *
store_open(const struct store_options *opt, struct pb_error *err)
{
	struct store *s = calloc(1, sizeof(*s));
	char sql[128];
	int flags;
	const char *sync = opt->synchronous ? opt->synchronous : "FULL";

	if (s == NULL || store_faults_hook(err) < 0) {
		if (s != NULL)
			free(s);
		else
			pb_oom(err);
		return NULL;
	}
	s->read_only = opt->read_only;
	s->as_is = opt->read_only && opt->as_is;
	flags = opt->read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
	flags |= SQLITE_OPEN_NOMUTEX;
	if (!opt->read_only && create_private(opt->path, err) < 0)
		goto fail;
	if (sqlite3_open_v2(opt->path, &s->db, flags, NULL) != SQLITE_OK) {
		if (s->db == NULL || out_of_memory(s->db))
			pb_oom(err);
		else
			pb_fail(err, 500, "storage_error", "cannot open database %s: %s", opt->path, sqlite3_errmsg(s->db));
		goto fail;
	}
	sqlite3_extended_result_codes(s->db, 1);
	s->busy_timeout_ms = opt->busy_timeout_ms > 0 ? opt->busy_timeout_ms : 10000;
	sqlite3_busy_timeout(s->db, s->busy_timeout_ms);
	if (strcmp(sync, "FULL") != 0 && strcmp(sync, "EXTRA") != 0 && strcmp(sync, "NORMAL") != 0) {
		pb_fail(err, 500, "storage_error", "synchronous must be FULL, EXTRA or NORMAL");
		goto fail;
	}
	if (!opt->read_only && exec_sql(s, store_sql_text(STMT_JOURNAL_WAL), err) < 0)
		goto fail;
	/* A checkpoint that restarts the WAL truncates it to this: a WAL grown while a long read (a backup) held old pages comes back down. */
	snprintf(sql, sizeof(sql), "PRAGMA synchronous = %s; PRAGMA foreign_keys = ON; PRAGMA trusted_schema = OFF; "
	    "PRAGMA journal_size_limit = %d", sync, STORE_JOURNAL_SIZE_LIMIT);
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
	/* A transaction left open (a caller's bug) must not keep the other writers of the process waiting. */
	if (s->db != NULL && s->writing)
		store_rollback(s);
	for (int i = 0; i < STMT_COUNT; i++)
		sqlite3_finalize(s->stmts[i]);
	sqlite3_close(s->db);
	capture_free(&s->capture);
	window_corrections_free(s->corrections);
	free(s);
}

struct window_corrections **
store_window_corrections(struct store *s)
{
	return s->writing ? NULL : &s->corrections;
}

/*
 * Forgets what was learnt in the transaction that ends or begins: chain
 * heads, uncommitted rules ids, the captured events.
 */
static void
forget_transaction(struct store *s, bool committed)
{
	int kept = 0;

	s->head_count = 0;
	capture_reset(&s->capture);
	window_corrections_free(s->corrections);
	s->corrections = NULL;
	for (int i = 0; i < s->rules_count; i++) {
		if (s->rules[i].pending && !committed)
			continue;
		s->rules[i].pending = false;
		if (kept != i)
			s->rules[kept] = s->rules[i];
		kept++;
	}
	s->rules_count = kept;
	if (s->rules_next >= kept)
		s->rules_next = 0;
}

/*
 * Runs BEGIN, COMMIT, ROLLBACK or a savepoint's statement; a failure names
 * the statement.  Stepped here, not through query.c's helpers, which stand
 * on this file.
 */
static int
step_tx(struct store *s, enum stmt_id id, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, id, err);
	int rc;

	if (st == NULL)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, err, store_sql_text(id));
}

/*
 * Takes the process's write turn (unless this connection holds it already:
 * a BEGIN inside a transaction then fails and leaves the turn to the outer
 * one), then BEGIN IMMEDIATE.  On failure the turn taken here is given back.
 */
int
store_begin(struct store *s, struct pb_error *err)
{
	bool took = false;

	if (!s->writing && !s->read_only) {
		if (write_turn_take(s->busy_timeout_ms) < 0)
			return pb_fail(err, 500, "storage_error",
			    "waiting for the write lock: other writers of this process held it for more than %d ms",
			    s->busy_timeout_ms);
		s->writing = took = true;
	}
	forget_transaction(s, false);
	if (step_tx(s, STMT_BEGIN, err) < 0) {
		if (took) {
			s->writing = false;
			write_turn_give();
		}
		return -1;
	}
	return 0;
}

/* COMMIT, or on failure ROLLBACK; either way the write turn is given back. */
int
store_commit(struct store *s, struct pb_error *err)
{
	if (step_tx(s, STMT_COMMIT, err) < 0) {
		store_rollback(s);
		return -1;
	}
	forget_transaction(s, true);
	if (s->writing) {
		s->writing = false;
		write_turn_give();
	}
	return 0;
}

/* ROLLBACK when a transaction is open; gives the write turn back once (a second call does nothing). */
void
store_rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		step_tx(s, STMT_ROLLBACK, NULL);
	forget_transaction(s, false);
	if (s->writing) {
		s->writing = false;
		write_turn_give();
	}
}

/*
 * A savepoint inside the open transaction of store_begin's, for one job of
 * a write group (writer.c).  The captured events are the job's own: they
 * start empty and are forgotten when the savepoint ends.
 */
int
store_savepoint_begin(struct store *s, struct pb_error *err)
{
	if (!s->writing || sqlite3_get_autocommit(s->db))
		return pb_fail(err, 500, "internal_error", "a savepoint needs the open transaction of store_begin");
	capture_reset(&s->capture);
	return step_tx(s, STMT_SAVEPOINT, err);
}

/* Keeps the savepoint's changes in the transaction (RELEASE). */
int
store_savepoint_release(struct store *s, struct pb_error *err)
{
	int rc = step_tx(s, STMT_RELEASE, err);

	capture_reset(&s->capture);
	return rc;
}

/*
 * Undoes the savepoint's changes (ROLLBACK TO, then RELEASE) and forgets
 * what the caches learnt in the transaction: chain heads and rules ids are
 * read again from the database, which holds what the earlier savepoints
 * kept.  -1 when the transaction itself is gone (SQLite rolls a whole
 * transaction back on some errors: disk full, I/O error, out of memory) or
 * the savepoint could not be undone; the caller must then end the
 * transaction with store_rollback.
 */
int
store_savepoint_rollback(struct store *s, struct pb_error *err)
{
	forget_transaction(s, false);
	if (sqlite3_get_autocommit(s->db))
		return pb_fail(err, 500, "storage_error", "the transaction was rolled back by SQLite: %s", sqlite3_errmsg(s->db));
	if (step_tx(s, STMT_ROLLBACK_TO, err) < 0 || step_tx(s, STMT_RELEASE, err) < 0)
		return -1;
	return 0;
}

/* Is this connection inside a write transaction of its own (store_begin), still open? */
static bool
in_own_transaction(struct store *s)
{
	return s->writing && !sqlite3_get_autocommit(s->db);
}

bool
store_head_cached(struct store *s, const char *table_id, int64_t *seq, char hash[PB_SHA256_HEX_LEN])
{
	if (!in_own_transaction(s))
		return false;
	for (int i = 0; i < s->head_count; i++) {
		if (strcmp(s->heads[i].table_id, table_id) == 0) {
			*seq = s->heads[i].seq;
			memcpy(hash, s->heads[i].hash, PB_SHA256_HEX_LEN);
			return true;
		}
	}
	return false;
}

void
store_head_remember(struct store *s, const char *table_id, int64_t seq, const char hash[PB_SHA256_HEX_LEN])
{
	struct cached_head *h = NULL;
	size_t n = strlen(table_id);

	if (!in_own_transaction(s) || n >= PB_ID_MAX)
		return;
	for (int i = 0; i < s->head_count && h == NULL; i++)
		if (strcmp(s->heads[i].table_id, table_id) == 0)
			h = &s->heads[i];
	if (h == NULL && s->head_count < HEAD_CACHE_MAX) {
		h = &s->heads[s->head_count++];
		memcpy(h->table_id, table_id, n + 1);
	}
	if (h == NULL)
		return;
	h->seq = seq;
	memcpy(h->hash, hash, PB_SHA256_HEX_LEN);
}

bool
store_rules_cached(struct store *s, const struct rules *r, int64_t *id)
{
	bool own = in_own_transaction(s);

	for (int i = 0; i < s->rules_count; i++) {
		if ((!s->rules[i].pending || own) && memcmp(&s->rules[i].key, r, sizeof(*r)) == 0) {
			*id = s->rules[i].id;
			return true;
		}
	}
	return false;
}

void
store_rules_remember(struct store *s, const struct rules *r, int64_t id)
{
	struct cached_rules *c;
	bool pending = !sqlite3_get_autocommit(s->db);

	/* Inside someone else's transaction we would not see it end: do not remember. */
	if (pending && !in_own_transaction(s))
		return;
	if (s->rules_count < RULES_CACHE_MAX) {
		c = &s->rules[s->rules_count++];
	} else {
		c = &s->rules[s->rules_next];
		s->rules_next = (s->rules_next + 1) % RULES_CACHE_MAX;
	}
	memcpy(&c->key, r, sizeof(*r));
	c->id = id;
	c->pending = pending;
}

/* Forgets every cached chain head and rules id (the database was replaced under the connection). */
void
store_caches_reset(struct store *s)
{
	s->head_count = 0;
	s->rules_count = 0;
	s->rules_next = 0;
	capture_reset(&s->capture);
}

void
store_capture_start(struct store *s, int64_t round_id)
{
	if (in_own_transaction(s))
		capture_start(&s->capture, round_id);
}

void
store_capture_add(struct store *s, int64_t round_id, int64_t table_seq, const char *type, const char *at,
    const char *actor, const json_t *body, const char hash[PB_SHA256_HEX_LEN])
{
	if (in_own_transaction(s))
		capture_add(&s->capture, round_id, table_seq, type, at, actor, body, hash);
}

json_t *
store_captured_events(struct store *s, int64_t round_id)
{
	if (!in_own_transaction(s))
		return NULL;
	return capture_events(&s->capture, round_id);
}
