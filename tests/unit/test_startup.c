/*
 * test_startup.c - the start-up integrity check: the chunked chain walk
 * (chain_walk_step), the part before listening leaving the chains before the
 * checkpoints for later, and the background walk (in file order, a table out
 * of that order walked by its index) that holds a table whose older record
 * was altered, stops promptly when asked, and reports progress.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "store/audit.h"
#include "table/audit/audit.h"
#include "table/ops/ops.h"
#include "temp_db.h"

#define AT "2026-01-01T00:00:00.000Z"
#define T1_EVENTS 25        /* T1: checkpoint at 20, then 5 more */
#define T1_CHECKPOINT 20
#define T2_EVENTS 7         /* T2: checkpoint at 5, then 2 more */
#define T2_CHECKPOINT 5

struct fixture {
	char path[256];
	char key[300];
	struct store *store;
	struct signer *signer;
	struct config *cfg;
	struct pit pit;
};

static void
append(struct store *s, const char *table_id, int n)
{
	struct pb_error err;
	json_t *body;

	assert_int_equal(store_begin(s, &err), 0);
	for (int i = 0; i < n; i++) {
		body = json_pack("{s:s,s:i}", "note", "test", "i", i);
		assert_int_equal(store_event_append_as_is(s, table_id, 0, "table_opened", AT, "pb", body, &err), 0);
		json_decref(body);
	}
	assert_int_equal(store_commit(s, &err), 0);
}

static void
table_row(struct store *s, const char *table_id)
{
	struct pb_error err;
	struct table_state ts;

	memset(&ts, 0, sizeof(ts));
	ts.open = true;
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_table_state_put(s, table_id, &ts, AT, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
}

/* T1 and T2, each with a signed checkpoint part way and events after it. */
static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct store_options o = {0};
	struct pb_error err;

	if (f == NULL || sodium_init() < 0)
		return -1;
	temp_db_path(f->path, sizeof(f->path), "startup");
	snprintf(f->key, sizeof(f->key), "%s.signing-key", f->path);
	unlink(f->key);
	o.path = f->path;
	f->store = store_open(&o, &err);
	f->signer = signer_load(f->key, &err);
	f->cfg = calloc(1, sizeof(*f->cfg));
	if (f->store == NULL || f->signer == NULL || f->cfg == NULL)
		return -1;
	f->cfg->startup_full_check = true;
	f->pit.store = f->store;
	f->pit.cfg = f->cfg;
	f->pit.signer = f->signer;
	table_row(f->store, "T1");
	table_row(f->store, "T2");
	append(f->store, "T1", T1_CHECKPOINT);
	append(f->store, "T2", T2_CHECKPOINT);
	if (audit_checkpoint_all(&f->pit, &err) < 0)
		return -1;
	append(f->store, "T1", T1_EVENTS - T1_CHECKPOINT);
	append(f->store, "T2", T2_EVENTS - T2_CHECKPOINT);
	startup_progress_reset();
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	store_free(f->store);
	signer_free(f->signer);
	free(f->cfg);
	temp_db_remove(f->path);
	unlink(f->key);
	free(f);
	startup_progress_reset();
	return 0;
}

/* Runs SQL on a connection of its own, as someone holding the file would (the append-only triggers dropped). */
static void
tamper(const struct fixture *f, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "DROP TRIGGER IF EXISTS events_no_update; DROP TRIGGER IF EXISTS events_no_delete",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* Walks a chain to the end in chunks of `chunk`; the problems found. */
static json_t *
walk(struct store *s, const char *table_id, int64_t to, int chunk, struct chain_walk *w)
{
	struct pb_error err;
	json_t *problems = json_array();
	int steps = 0;

	chain_walk_init(w, table_id, 1, "0000000000000000000000000000000000000000000000000000000000000000", to);
	while (!w->done) {
		assert_int_equal(chain_walk_step(s, w, chunk, problems, &err), 0);
		assert_true(++steps < 1000);
	}
	return problems;
}

/* Some problem of table_id at event (-1: any) says fragment. */
static bool
has_problem(const json_t *problems, const char *table_id, int64_t event, const char *fragment)
{
	size_t i;
	json_t *p;

	json_array_foreach(problems, i, p) {
		if (strcmp(json_string_value(json_object_get(p, "table")), table_id) == 0 &&
		    (event < 0 || json_integer_value(json_object_get(p, "event")) == event) &&
		    strstr(json_string_value(json_object_get(p, "problem")), fragment) != NULL)
			return true;
	}
	return false;
}

/* Any chunk size walks the same events, to the head or to the bound, and ends on the right hash. */
static void
test_chain_walk_chunks(void **state)
{
	static const int CHUNKS[] = {1, 2, 3, 7, 20, 1000};
	struct fixture *f = *state;
	struct checkpoint c;
	struct chain_walk w;
	struct pb_error err;
	bool found;
	json_t *problems;

	assert_int_equal(store_checkpoint_last(f->store, "T1", &c, &found, &err), 0);
	assert_true(found);
	assert_int_equal(c.table_seq, T1_CHECKPOINT);
	for (size_t i = 0; i < sizeof(CHUNKS) / sizeof(CHUNKS[0]); i++) {
		problems = walk(f->store, "T1", 0, CHUNKS[i], &w);
		assert_int_equal(json_array_size(problems), 0);
		assert_int_equal(w.walked, T1_EVENTS);
		assert_int_equal(w.rounds_opened, 0);
		json_decref(problems);
		problems = walk(f->store, "T1", T1_CHECKPOINT, CHUNKS[i], &w);
		assert_int_equal(json_array_size(problems), 0);
		assert_int_equal(w.walked, T1_CHECKPOINT);
		assert_int_equal(w.next, T1_CHECKPOINT + 1);
		assert_string_equal(w.prev, c.head_hash);
		json_decref(problems);
	}
	/* A table without events is done at once. */
	problems = walk(f->store, "T9", 0, 5, &w);
	assert_int_equal(w.walked, 0);
	assert_int_equal(json_array_size(problems), 0);
	json_decref(problems);
}

/* An edited, a deleted and a run of deleted events are found whatever the chunk size. */
static void
test_chain_walk_finds_changes(void **state)
{
	struct fixture *f = *state;
	struct chain_walk w;
	json_t *problems;

	tamper(f, "UPDATE events SET body = '{\"i\":3,\"note\":\"TEST\"}' WHERE table_id = 'T1' AND table_seq = 4;"
	    "DELETE FROM events WHERE table_id = 'T1' AND table_seq = 9;"
	    "DELETE FROM events WHERE table_id = 'T1' AND table_seq BETWEEN 12 AND 17");
	for (int chunk = 1; chunk <= 8; chunk++) {
		problems = walk(f->store, "T1", T1_CHECKPOINT, chunk, &w);
		assert_true(has_problem(problems, "T1", 4, "event 4 (table_opened): its hash does not match its content"));
		/* Said at event 10 when it is in the same chunk, at event 9 when a chunk holds only the gap. */
		assert_true(has_problem(problems, "T1", -1, "events 9 to 9 are missing"));
		assert_true(has_problem(problems, "T1", 10, "event 10: its prev_hash does not match"));
		assert_true(has_problem(problems, "T1", 18, "event 18: its prev_hash does not match"));
		assert_int_equal(w.walked, T1_CHECKPOINT - 7);
		assert_int_equal(w.next, T1_CHECKPOINT + 1);
		json_decref(problems);
	}
}

/* "full", deferred: the checkpoints and the events after them now, the rest left as a backlog. */
static void
test_startup_check_defers(void **state)
{
	struct fixture *f = *state;
	struct startup_result r;
	struct pb_error err;
	char reason[300];
	bool held;

	tamper(f, "UPDATE events SET body = '{\"i\":3,\"note\":\"TEST\"}' WHERE table_id = 'T1' AND table_seq = 4");
	assert_int_equal(audit_startup_check(&f->pit, true, &r, &err), 0);
	assert_int_equal(r.tables, 2);
	assert_int_equal(r.events, (T1_EVENTS - T1_CHECKPOINT) + (T2_EVENTS - T2_CHECKPOINT));
	assert_int_equal(r.backlog_count, 2);
	assert_string_equal(r.backlog[0].table_id, "T1");
	assert_int_equal(r.backlog[0].to, T1_CHECKPOINT);
	assert_string_equal(r.backlog[1].table_id, "T2");
	assert_int_equal(r.backlog[1].to, T2_CHECKPOINT);
	assert_int_equal(r.backlog_events, T1_CHECKPOINT + T2_CHECKPOINT);
	assert_int_equal(store_table_hold_get(f->store, "T1", reason, sizeof(reason), &held, &err), 0);
	assert_false(held);
	startup_result_free(&r);
	/* Not deferred: the whole chain now, as before the background walk existed. */
	assert_int_equal(audit_startup_check(&f->pit, false, &r, &err), 1);
	assert_int_equal(r.backlog_count, 0);
	assert_int_equal(r.events, T1_EVENTS + T2_EVENTS);
	assert_int_equal(store_table_hold_get(f->store, "T1", reason, sizeof(reason), &held, &err), 0);
	assert_true(held);
	assert_non_null(strstr(reason, "event 4 (table_opened)"));
	startup_result_free(&r);
	/* "since_checkpoint": nothing is left for later. */
	f->cfg->startup_full_check = false;
	assert_int_equal(audit_startup_check(&f->pit, true, &r, &err), 0);
	assert_int_equal(r.backlog_count, 0);
	startup_result_free(&r);
}

/* The significant events with this code for this table, oldest first. */
static json_t *
significant(struct fixture *f, const char *code, const char *table_id)
{
	struct pb_error err;
	json_t *all = store_significant_list(f->store, 0, 1000, &err), *out = json_array(), *e;
	size_t i;

	assert_non_null(all);
	json_array_foreach(all, i, e) {
		if (strcmp(json_string_value(json_object_get(e, "code")), code) == 0 &&
		    json_is_string(json_object_get(e, "table")) &&
		    strcmp(json_string_value(json_object_get(e, "table")), table_id) == 0)
			json_array_append(out, e);
	}
	json_decref(all);
	return out;
}

/* The background walk finds what the part before listening left, holds the table, and says so. */
static void
test_startup_walk_holds(void **state)
{
	struct fixture *f = *state;
	struct startup_walk_options o = {0};
	struct startup_walk *w = NULL;
	struct startup_progress p;
	struct startup_result r;
	struct pb_error err;
	char reason[300];
	bool held;
	json_t *js, *evs;

	tamper(f, "UPDATE events SET body = '{\"i\":3,\"note\":\"TEST\"}' WHERE table_id = 'T1' AND table_seq = 4");
	assert_int_equal(startup_check_before_listening(&f->pit, &r), 0);
	startup_progress_get(&p);
	assert_int_equal(p.state, STARTUP_RUNNING);
	assert_true(p.background);
	assert_int_equal(p.events_checked, r.events);
	assert_int_equal(p.events, T1_EVENTS + T2_EVENTS);
	assert_int_equal(p.tables_checked, 0);
	js = startup_progress_json();
	assert_string_equal(json_string_value(json_object_get(js, "state")), "running");
	assert_string_equal(json_string_value(json_object_get(js, "mode")), "full");
	assert_true(json_is_null(json_object_get(js, "finished_at")));
	json_decref(js);

	o.database = f->path;
	o.chunk = 3;
	assert_int_equal(startup_walk_start(&o, &r, &w, &err), 0);
	assert_non_null(w);
	assert_null(r.backlog);
	assert_true(startup_walk_wait(w, 20000));
	startup_walk_free(w);
	startup_result_free(&r);

	startup_progress_get(&p);
	assert_int_equal(p.state, STARTUP_DONE);
	assert_int_equal(p.tables_checked, 2);
	assert_int_equal(p.tables_held, 1);
	assert_int_equal(p.problems, 1);
	assert_int_equal(p.events_checked, T1_EVENTS + T2_EVENTS);
	assert_true(p.finished_at[0] != '\0');
	assert_int_equal(store_table_hold_get(f->store, "T1", reason, sizeof(reason), &held, &err), 0);
	assert_true(held);
	assert_non_null(strstr(reason, "event 4 (table_opened): its hash does not match"));
	assert_int_equal(store_table_hold_get(f->store, "T2", reason, sizeof(reason), &held, &err), 0);
	assert_false(held);
	evs = significant(f, "integrity_failure", "T1");
	assert_int_equal(json_array_size(evs), 1);
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_array_get(evs, 0), "detail"), "part")),
	    "before_checkpoint");
	json_decref(evs);
	evs = significant(f, "integrity_failure", "T2");
	assert_int_equal(json_array_size(evs), 0);
	json_decref(evs);
}

/* An intact record: done, nothing held. */
static void
test_startup_walk_intact(void **state)
{
	struct fixture *f = *state;
	struct startup_walk_options o = {0};
	struct startup_walk *w = NULL;
	struct startup_progress p;
	struct startup_result r;
	struct pb_error err;
	json_t *evs;

	assert_int_equal(startup_check_before_listening(&f->pit, &r), 0);
	o.database = f->path;
	assert_int_equal(startup_walk_start(&o, &r, &w, &err), 0);
	assert_true(startup_walk_wait(w, 20000));
	startup_walk_free(w);
	startup_result_free(&r);
	startup_progress_get(&p);
	assert_int_equal(p.state, STARTUP_DONE);
	assert_int_equal(p.tables_held, 0);
	assert_int_equal(p.problems, 0);
	assert_int_equal(p.tables_checked, 2);
	evs = significant(f, "integrity_failure", "T1");
	assert_int_equal(json_array_size(evs), 0);
	json_decref(evs);
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Asked to stop in a long pause between chunks, the walk ends at once, and says it stopped. */
static void
test_startup_walk_stops(void **state)
{
	struct fixture *f = *state;
	struct startup_walk_options o = {0};
	struct startup_walk *w = NULL;
	struct startup_progress p;
	struct startup_result r;
	struct pb_error err;
	double t0;

	assert_int_equal(startup_check_before_listening(&f->pit, &r), 0);
	o.database = f->path;
	o.chunk = 1;
	o.pause_ms = 10000;
	assert_int_equal(startup_walk_start(&o, &r, &w, &err), 0);
	assert_false(startup_walk_wait(w, 200));
	t0 = now_s();
	startup_walk_free(w);
	assert_true(now_s() - t0 < 2.0);
	startup_result_free(&r);
	startup_progress_get(&p);
	assert_int_equal(p.state, STARTUP_STOPPED);
	assert_true(p.events_checked < T1_EVENTS + T2_EVENTS);
	assert_int_equal(p.tables_held, 0);
}

/* Runs the background walk of a fresh start to its end, in chunks of chunk events; the progress it leaves. */
static void
walk_to_end(struct fixture *f, int chunk, struct startup_progress *p)
{
	struct startup_walk_options o = {0};
	struct startup_walk *w = NULL;
	struct startup_result r;
	struct pb_error err;

	assert_int_equal(startup_check_before_listening(&f->pit, &r), 0);
	o.database = f->path;
	o.chunk = chunk;
	assert_int_equal(startup_walk_start(&o, &r, &w, &err), 0);
	assert_true(startup_walk_wait(w, 20000));
	startup_walk_free(w);
	startup_result_free(&r);
	startup_progress_get(p);
}

/*
 * The walk reads the events in file order; an intact chain whose rows are not
 * in that order (an event deleted and written again further on, its content
 * and hash the same) is walked by its index instead: nothing held, every
 * event counted once.
 */
static void
test_startup_walk_out_of_file_order(void **state)
{
	struct fixture *f = *state;
	struct startup_progress p;
	struct pb_error err;
	char reason[300];
	bool held;

	tamper(f, "CREATE TEMP TABLE moved AS SELECT * FROM events WHERE table_id = 'T1' AND table_seq = 3; "
	    "DELETE FROM events WHERE table_id = 'T1' AND table_seq = 3; "
	    "INSERT INTO events (table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash) "
	    "SELECT table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash FROM moved");
	for (int chunk = 1; chunk <= 50; chunk += 7) {
		startup_progress_reset();
		walk_to_end(f, chunk, &p);
		assert_int_equal(p.state, STARTUP_DONE);
		assert_int_equal(p.tables_checked, 2);
		assert_int_equal(p.tables_held, 0);
		assert_int_equal(p.problems, 0);
		assert_int_equal(p.events_checked, T1_EVENTS + T2_EVENTS);
	}
	assert_int_equal(store_table_hold_get(f->store, "T1", reason, sizeof(reason), &held, &err), 0);
	assert_false(held);
}

/* An event deleted before the checkpoint: the walk names it as the walk by table does, and holds the table. */
static void
test_startup_walk_deleted_event(void **state)
{
	struct fixture *f = *state;
	struct startup_progress p;
	struct pb_error err;
	char reason[300];
	bool held;

	tamper(f, "DELETE FROM events WHERE table_id = 'T1' AND table_seq = 7");
	walk_to_end(f, 4, &p);
	assert_int_equal(p.state, STARTUP_DONE);
	assert_int_equal(p.tables_checked, 2);
	assert_int_equal(p.tables_held, 1);
	/* the missing event, and the link of the one after it */
	assert_int_equal(p.problems, 2);
	assert_int_equal(p.events_checked, T1_EVENTS - 1 + T2_EVENTS);
	assert_int_equal(store_table_hold_get(f->store, "T1", reason, sizeof(reason), &held, &err), 0);
	assert_true(held);
	assert_non_null(strstr(reason, "events 7 to 7 are missing"));
	assert_int_equal(store_table_hold_get(f->store, "T2", reason, sizeof(reason), &held, &err), 0);
	assert_false(held);
}

/* A second hold keeps the first reason; each is a significant event. */
static void
test_hold_keeps_first_reason(void **state)
{
	struct fixture *f = *state;
	struct pb_error err;
	json_t *a = json_pack("[{s:s,s:s}]", "table", "T2", "problem", "first"), *b = json_pack("[{s:s,s:s}]", "table", "T2",
	    "problem", "second"), *evs;
	char reason[300];
	bool held;

	assert_int_equal(audit_hold_table(f->store, "T2", a, "since_checkpoint", &err), 0);
	assert_int_equal(audit_hold_table(f->store, "T2", b, "before_checkpoint", &err), 0);
	assert_int_equal(store_table_hold_get(f->store, "T2", reason, sizeof(reason), &held, &err), 0);
	assert_true(held);
	assert_string_equal(reason, "start-up integrity check failed: first");
	evs = significant(f, "integrity_failure", "T2");
	assert_int_equal(json_array_size(evs), 2);
	json_decref(evs);
	json_decref(a);
	json_decref(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_chain_walk_chunks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_chain_walk_finds_changes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_startup_check_defers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_startup_walk_holds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_startup_walk_intact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_startup_walk_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_startup_walk_out_of_file_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_startup_walk_deleted_event, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hold_keeps_first_reason, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
