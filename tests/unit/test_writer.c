/*
 * test_writer.c - the group commit (store/writer.c) on a real database file:
 * jobs from many threads each committed or refused alone, several jobs in
 * one COMMIT, a refused first job of a transaction not taking the others
 * with it, a failed COMMIT failing every job of its group and recording
 * none, the chain-head cache forgotten when a savepoint is undone, and the
 * fault state (a storage failure until a change commits) that /ready shows,
 * and the WAL checkpointed by the checkpointer's thread (store/checkpointer.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/store.h"
#include "store/writer.h"
#include "temp_db.h"

#define AT "2026-01-01T00:00:00.000Z"

static char dbpath[256];

/* Opens the writer on a fresh database with the test's own tables. */
static struct store_writer *
open_writer(void)
{
	struct store_options opt = {.path = dbpath};
	struct pb_error err;
	struct store_writer *w;
	sqlite3 *db;

	temp_db_remove(dbpath);
	w = store_writer_open(&opt, &err);
	assert_non_null(w);
	db = store_db(store_writer_store(w));
	assert_int_equal(sqlite3_exec(db,
	    "CREATE TABLE wtest (who INTEGER NOT NULL, i INTEGER NOT NULL, PRIMARY KEY (who, i));"
	    "CREATE TABLE wparent (id INTEGER PRIMARY KEY);"
	    "CREATE TABLE wchild (pid INTEGER REFERENCES wparent(id) DEFERRABLE INITIALLY DEFERRED);",
	    NULL, NULL, NULL), SQLITE_OK);
	return w;
}

/* A value from the file through a connection of its own: what is committed. */
static int64_t
committed(const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t v = -1;

	assert_int_equal(sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* ---- jobs ---- */

struct row_job {
	struct store_writer *w;
	int who, i;
	bool refuse;             /* insert, then refuse: the row must not stay */
	int wait_for_queued;     /* > 0: block until that many jobs are queued behind */
	bool orphan;             /* insert a child without its parent (deferred FK: COMMIT fails) */
	atomic_bool started;     /* set when the job begins to run */
	int rc;
	struct pb_error err;
};

/* Waits (at most 10 s) for a flag. */
static void
wait_flag(atomic_bool *flag)
{
	for (int t = 0; t < 10000 && !atomic_load(flag); t++)
		usleep(1000);
	assert_true(atomic_load(flag));
}

/* Waits (at most 10 s) until n jobs are queued behind the running one. */
static void
wait_queued(struct store_writer *w, int n)
{
	struct store_writer_stats st;

	for (int t = 0; t < 10000; t++) {
		store_writer_stats(w, &st);
		if (st.queued >= n)
			return;
		usleep(1000);
	}
	fail_msg("only %d jobs queued, waited for %d", st.queued, n);
}

static int
row_job(struct store *s, void *arg, struct pb_error *err)
{
	struct row_job *j = arg;
	sqlite3_stmt *st = NULL;
	int rc;

	atomic_store(&j->started, true);
	if (sqlite3_prepare_v2(store_db(s), "INSERT INTO wtest (who, i) VALUES (?, ?)", -1, &st, NULL) != SQLITE_OK)
		return store_fail(s, err, "preparing a statement");
	sqlite3_bind_int(st, 1, j->who);
	sqlite3_bind_int(st, 2, j->i);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		store_fail(s, err, "inserting");
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -1;
	if (j->orphan && sqlite3_exec(store_db(s), "INSERT INTO wchild (pid) VALUES (999)", NULL, NULL, NULL) != SQLITE_OK)
		return store_fail(s, err, "inserting a child");
	if (j->wait_for_queued > 0)
		wait_queued(j->w, j->wait_for_queued);
	if (j->refuse)
		return pb_fail(err, 409, "refused_for_the_test", "job %d/%d refuses", j->who, j->i);
	return 0;
}

static void *
run_row_job(void *arg)
{
	struct row_job *j = arg;

	j->rc = store_writer_run(j->w, row_job, j, &j->err);
	return NULL;
}

/* ---- tests ---- */

static void
test_one_job(void **state)
{
	struct store_writer *w = open_writer();
	struct row_job j = {.w = w, .who = 1, .i = 1};
	struct store_writer_stats st;

	(void)state;
	run_row_job(&j);
	assert_int_equal(j.rc, 0);
	assert_int_equal(committed("SELECT count(*) FROM wtest WHERE who = 1 AND i = 1"), 1);
	j.i = 2;
	j.refuse = true;
	run_row_job(&j);
	assert_int_equal(j.rc, -1);
	assert_int_equal(j.err.status, 409);
	assert_string_equal(j.err.code, "refused_for_the_test");
	assert_int_equal(committed("SELECT count(*) FROM wtest"), 1);
	store_writer_stats(w, &st);
	assert_int_equal(st.jobs, 2);
	assert_int_equal(st.jobs_failed, 1);
	assert_int_equal(st.groups_failed, 0);
	assert_int_equal(st.queued, 0);
	store_writer_free(w);
}

#define THREADS 6
#define PER_THREAD 60

struct worker_arg {
	struct store_writer *w;
	int who;
	int ok, refused;
};

/* PER_THREAD jobs in a row; every fifth refuses after inserting. */
static void *
worker(void *arg)
{
	struct worker_arg *a = arg;

	for (int i = 0; i < PER_THREAD; i++) {
		struct row_job j = {.w = a->w, .who = a->who, .i = i, .refuse = i % 5 == 3};

		run_row_job(&j);
		if (j.rc == 0)
			a->ok++;
		else if (j.err.status == 409)
			a->refused++;
	}
	return NULL;
}

static void
test_many_threads(void **state)
{
	struct store_writer *w = open_writer();
	pthread_t th[THREADS];
	struct worker_arg args[THREADS];
	struct store_writer_stats st;
	int ok = 0;

	(void)state;
	for (int t = 0; t < THREADS; t++) {
		args[t] = (struct worker_arg){.w = w, .who = t};
		assert_int_equal(pthread_create(&th[t], NULL, worker, &args[t]), 0);
	}
	for (int t = 0; t < THREADS; t++) {
		pthread_join(th[t], NULL);
		assert_int_equal(args[t].refused, PER_THREAD / 5);
		ok += args[t].ok;
	}
	assert_int_equal(ok, THREADS * PER_THREAD * 4 / 5);
	assert_int_equal(committed("SELECT count(*) FROM wtest"), ok);
	assert_int_equal(committed("SELECT count(*) FROM wtest WHERE i % 5 = 3"), 0);
	store_writer_stats(w, &st);
	assert_int_equal(st.jobs, THREADS * PER_THREAD);
	assert_int_equal(st.jobs_failed, THREADS * PER_THREAD / 5);
	assert_true(st.groups <= st.jobs);
	assert_int_equal(st.queued, 0);
	store_writer_free(w);
}

/*
 * Starts the first job, which blocks until n more are queued, then the n
 * others; all run in one group.  jobs[0] is the blocking one.
 */
static void
run_group(struct row_job *jobs, int n)
{
	pthread_t th[16];

	assert_true(n + 1 <= 16);
	jobs[0].wait_for_queued = n;
	assert_int_equal(pthread_create(&th[0], NULL, run_row_job, &jobs[0]), 0);
	/* The others queue only once the first runs. */
	wait_flag(&jobs[0].started);
	for (int k = 1; k <= n; k++)
		assert_int_equal(pthread_create(&th[k], NULL, run_row_job, &jobs[k]), 0);
	for (int k = 0; k <= n; k++)
		pthread_join(th[k], NULL);
}

static void
test_one_commit_for_many(void **state)
{
	struct store_writer *w = open_writer();
	struct row_job jobs[6];
	struct store_writer_stats before, after;

	(void)state;
	for (int k = 0; k < 6; k++)
		jobs[k] = (struct row_job){.w = w, .who = 7, .i = k, .refuse = k == 3};
	store_writer_stats(w, &before);
	run_group(jobs, 5);
	store_writer_stats(w, &after);
	/* The first job, then the five that queued behind it, in the same transaction. */
	assert_int_equal(after.groups - before.groups, 1);
	assert_int_equal(after.largest_group, 6);
	assert_int_equal(after.jobs - before.jobs, 6);
	for (int k = 0; k < 6; k++)
		assert_int_equal(jobs[k].rc, k == 3 ? -1 : 0);
	assert_int_equal(jobs[3].err.status, 409);
	assert_int_equal(committed("SELECT count(*) FROM wtest WHERE who = 7"), 5);
	assert_int_equal(committed("SELECT count(*) FROM wtest WHERE who = 7 AND i = 3"), 0);
	store_writer_free(w);
}

/* A job writing 400 rows of 3,000 random bytes: about 400 pages of WAL. */
static int
blob_job(struct store *s, void *arg, struct pb_error *err)
{
	(void)arg;
	if (sqlite3_exec(store_db(s), "CREATE TABLE IF NOT EXISTS wblob (b BLOB NOT NULL);"
	    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) "
	    "INSERT INTO wblob SELECT randomblob(3000) FROM n", NULL, NULL, NULL) != SQLITE_OK)
		return store_fail(s, err, "inserting blobs");
	return 0;
}

/* The database file's bytes (the WAL's pages reach it only through a checkpoint). */
static long long
db_file_bytes(void)
{
	struct stat st;

	return stat(dbpath, &st) == 0 ? (long long)st.st_size : -1;
}

/*
 * Past CHECKPOINTER_PAGES of WAL the pages reach the database file without
 * anyone asking for a checkpoint (the checkpointer's thread does it), and the
 * rows are all there; the writer stops with its checkpointer.
 */
static void
test_wal_checkpointed_by_its_thread(void **state)
{
	struct store_writer *w = open_writer();
	struct pb_error err;
	long long want = 3LL * 400 * 3000;   /* the first three jobs' rows at least: the WAL crossed the mark there */

	(void)state;
	for (int k = 0; k < 4; k++)
		assert_int_equal(store_writer_run(w, blob_job, NULL, &err), 0);
	for (int t = 0; t < 10000 && db_file_bytes() < want; t++)
		usleep(1000);
	assert_true(db_file_bytes() >= want);
	assert_int_equal(committed("SELECT count(*) FROM wblob"), 4 * 400);
	store_writer_free(w);
}

static void
test_refused_first_job_alone(void **state)
{
	struct store_writer *w = open_writer();
	struct row_job jobs[4];

	(void)state;
	/* The first job of the transaction refuses (no savepoint: the transaction is rolled back whole). */
	for (int k = 0; k < 4; k++)
		jobs[k] = (struct row_job){.w = w, .who = 8, .i = k, .refuse = k == 0};
	run_group(jobs, 3);
	assert_int_equal(jobs[0].rc, -1);
	assert_int_equal(jobs[0].err.status, 409);
	for (int k = 1; k < 4; k++)
		assert_int_equal(jobs[k].rc, 0);
	assert_int_equal(committed("SELECT count(*) FROM wtest WHERE who = 8"), 3);
	assert_int_equal(committed("SELECT count(*) FROM wtest WHERE who = 8 AND i = 0"), 0);
	store_writer_free(w);
}

static void
test_failed_commit_fails_the_group(void **state)
{
	struct store_writer *w = open_writer();
	struct row_job jobs[5];
	struct store_writer_stats st;
	struct row_job after = {.who = 9, .i = 100};

	(void)state;
	/* Job 2 leaves a deferred foreign-key violation: the group's COMMIT fails. */
	for (int k = 0; k < 5; k++)
		jobs[k] = (struct row_job){.w = w, .who = 9, .i = k, .orphan = k == 2, .refuse = k == 4};
	run_group(jobs, 4);
	for (int k = 0; k < 5; k++) {
		assert_int_equal(jobs[k].rc, -1);
		assert_int_equal(jobs[k].err.status, 500);
		assert_string_equal(jobs[k].err.code, "storage_error");
		assert_non_null(strstr(jobs[k].err.message, "nothing was recorded"));
	}
	assert_int_equal(committed("SELECT count(*) FROM wtest WHERE who = 9"), 0);
	assert_int_equal(committed("SELECT count(*) FROM wchild"), 0);
	store_writer_stats(w, &st);
	assert_true(st.groups_failed >= 1);
	/* The writer goes on: the next job commits. */
	after.w = w;
	run_row_job(&after);
	assert_int_equal(after.rc, 0);
	assert_int_equal(committed("SELECT count(*) FROM wtest WHERE who = 9"), 1);
	store_writer_free(w);
}

static int
write_nothing(struct store *s, void *arg, struct pb_error *err)
{
	(void)s;
	(void)arg;
	(void)err;
	return 0;
}

static int
storage_failure(struct store *s, void *arg, struct pb_error *err)
{
	(void)s;
	(void)arg;
	return pb_fail(err, 500, "storage_error", "inserting: database or disk is full");
}

/*
 * The fault state /ready shows: a job failing with storage_error, or a failed
 * COMMIT, starts it; a job refused for its own reasons or a group that
 * changes nothing (the /ready probe) does not end it; a committed change does.
 */
static void
test_fault_lasts_until_a_change_commits(void **state)
{
	struct store_writer *w = open_writer();
	struct store_writer_stats st;
	struct pb_error err;
	struct row_job refused = {.who = 7, .i = 1, .refuse = true}, ok = {.who = 7, .i = 2};
	char why[PB_ERROR_MESSAGE_MAX];
	int64_t since = 0;

	(void)state;
	assert_false(store_writer_fault(w, why, sizeof(why), &since));
	assert_int_equal(store_writer_run(w, write_nothing, NULL, &err), 0);
	assert_false(store_writer_fault(w, why, sizeof(why), &since));
	assert_int_equal(store_writer_run(w, storage_failure, NULL, &err), -1);
	assert_true(store_writer_fault(w, why, sizeof(why), &since));
	assert_string_equal(why, "inserting: database or disk is full");
	assert_true(since > 0);
	refused.w = w;
	run_row_job(&refused);
	assert_int_equal(refused.rc, -1);
	assert_int_equal(store_writer_run(w, write_nothing, NULL, &err), 0);
	assert_true(store_writer_fault(w, why, sizeof(why), &since));
	store_writer_stats(w, &st);
	assert_true(st.faulted);
	assert_int_equal(st.faults, 1);
	ok.w = w;
	run_row_job(&ok);
	assert_int_equal(ok.rc, 0);
	assert_false(store_writer_fault(w, why, sizeof(why), &since));
	store_writer_free(w);
}

/* A failed COMMIT is a fault too. */
static void
test_failed_commit_is_a_fault(void **state)
{
	struct store_writer *w = open_writer();
	struct row_job orphan = {.who = 8, .i = 1, .orphan = true};
	char why[PB_ERROR_MESSAGE_MAX];
	int64_t since;

	(void)state;
	orphan.w = w;
	run_row_job(&orphan);
	assert_int_equal(orphan.rc, -1);
	assert_true(store_writer_fault(w, why, sizeof(why), &since));
	assert_non_null(strstr(why, "FOREIGN KEY"));
	store_writer_free(w);
}

/* A job appending to a table's chain, then refusing when told. */
struct chain_job {
	const char *table;
	bool refuse;
};

static int
chain_job(struct store *s, void *arg, struct pb_error *err)
{
	struct chain_job *j = arg;
	json_t *body = json_pack("{s:b}", "refused", j->refuse);
	int rc = store_event_append_as_is(s, j->table, 0, "test_event", AT, "test", body, err);

	json_decref(body);
	if (rc == 0 && j->refuse)
		return pb_fail(err, 409, "refused_for_the_test", "refused after appending");
	return rc;
}

struct chain_thread {
	struct store_writer *w;
	struct chain_job job;
	int rc;
	bool block;
};

static void *
run_chain_thread(void *arg)
{
	struct chain_thread *c = arg;
	struct pb_error err;

	c->rc = store_writer_run(c->w, chain_job, &c->job, &err);
	return NULL;
}

struct block {
	struct store_writer *w;
	atomic_bool started;
};

/* Holds the writer until three jobs are queued. */
static int
block_job(struct store *s, void *arg, struct pb_error *err)
{
	struct block *b = arg;

	(void)s;
	(void)err;
	atomic_store(&b->started, true);
	wait_queued(b->w, 3);
	return 0;
}

static void *
run_block(void *arg)
{
	struct block *b = arg;
	struct pb_error err;

	store_writer_run(b->w, block_job, b, &err);
	return NULL;
}

/*
 * Three appends to one chain in one group, the middle one undone: the third
 * must chain to the first (the cached head of the undone one forgotten), so
 * the chain has two events, seq 1 and 2, the second's prev_hash the first's hash.
 */
static void
test_undone_savepoint_forgets_the_head(void **state)
{
	struct store_writer *w = open_writer();
	struct chain_thread c[3];
	pthread_t blocker, th[3];
	struct block b = {.w = w};

	(void)state;
	assert_int_equal(pthread_create(&blocker, NULL, run_block, &b), 0);
	wait_flag(&b.started);
	for (int k = 0; k < 3; k++) {
		c[k] = (struct chain_thread){.w = w, .job = {"T1", k == 1}};
		assert_int_equal(pthread_create(&th[k], NULL, run_chain_thread, &c[k]), 0);
		/* In this order in the queue. */
		for (int t = 0; t < 10000; t++) {
			struct store_writer_stats st;
			store_writer_stats(w, &st);
			if (st.queued == k + 1)
				break;
			usleep(500);
		}
	}
	pthread_join(blocker, NULL);
	for (int k = 0; k < 3; k++)
		pthread_join(th[k], NULL);
	assert_int_equal(c[0].rc, 0);
	assert_int_equal(c[1].rc, -1);
	assert_int_equal(c[2].rc, 0);
	assert_int_equal(committed("SELECT count(*) FROM events WHERE table_id = 'T1'"), 2);
	assert_int_equal(committed("SELECT max(table_seq) FROM events WHERE table_id = 'T1'"), 2);
	assert_int_equal(committed("SELECT count(*) FROM events a JOIN events b ON b.prev_hash = a.hash "
	    "WHERE a.table_id = 'T1' AND a.table_seq = 1 AND b.table_seq = 2"), 1);
	store_writer_free(w);
}

static int
setup(void **state)
{
	(void)state;
	temp_db_path(dbpath, sizeof(dbpath), "writer");
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	temp_db_remove(dbpath);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_job, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_commit_for_many, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_first_job_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_commit_fails_the_group, setup, teardown),
		cmocka_unit_test_setup_teardown(test_undone_savepoint_forgets_the_head, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_lasts_until_a_change_commits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_commit_is_a_fault, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wal_checkpointed_by_its_thread, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
