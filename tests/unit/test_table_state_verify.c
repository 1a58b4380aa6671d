/*
 * test_table_state_verify.c - a table's own state events and their rows,
 * through the table layer on a real temporary database: the live paths
 * write table_state and dealer_changes only through the events' apply
 * (event_record), so an untouched record verifies; verify's walk
 * (event_walk_verify) names a table_state row that differs from the state
 * its events leave (open, limits, configuration entry, dealer), a stored
 * state no event configured, a table whose state row is gone, a
 * dealer_changes row that differs from its event, is missing, or has no
 * event, and an event its apply cannot take; and event_record refuses a
 * round's step and rolls back with the apply.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table/rounds/rounds.h"
#include "pit_fixture.h"

#define AT "2026-11-26T10:00:00.000Z"

struct fixture {
	char db[256];
	struct config *cfg;
	struct store *store;
	struct pit pit;
};

static const struct actor PITBOSS = {"pitboss-test", ROLE_BIT(ROLE_PITBOSS), NULL, false};

/* A write of the pit with a body text (NULL: none); the status, or the refusal's. */
typedef int (*table_write_fn)(struct pit *, const struct actor *, const struct idempotency *, const char *,
    const json_t *, json_t **, int *, struct pb_error *);

static int
write_table(struct fixture *f, table_write_fn fn, const char *table, const char *body, struct pb_error *err)
{
	json_t *b = body != NULL ? json_loads(body, 0, NULL) : NULL, *out = NULL;
	int status = 0, rc;

	memset(err, 0, sizeof(*err));
	rc = fn(&f->pit, &PITBOSS, NULL, table, b, &out, &status, err);
	json_decref(b);
	json_decref(out);
	return rc == 0 ? status : err->status;
}

static int
set_open(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table, const json_t *body,
    json_t **out, int *status, struct pb_error *err)
{
	return pit_table_set_open(p, a, idem, table, body == NULL, out, status, err);
}

/*
 * The record every test starts from (each table's table_configured is its
 * event 1): T1's dealer E1027 (2), E1028 (3), none (4); T2's dealer E1027
 * (2), T2 closed (3); T3's limits changed (2).
 */
static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct pb_error err;

	pit_fixture_open("tsverify", f->db, &f->cfg, &f->store, &f->pit);
	fixture_add_person(f->store, "E1027", "Ana Ruiz", ROLE_BIT(ROLE_DEALER), true, "ana-secret-1");
	fixture_add_person(f->store, "E1028", "Ben Ode", ROLE_BIT(ROLE_DEALER), true, "ben-secret-1");
	assert_int_equal(write_table(f, pit_table_set_dealer, "T1", "{\"person\": \"E1027\"}", &err), 200);
	assert_int_equal(write_table(f, pit_table_set_dealer, "T1", "{\"person\": \"E1028\"}", &err), 200);
	assert_int_equal(write_table(f, pit_table_set_dealer, "T1", "{\"person\": null}", &err), 200);
	assert_int_equal(write_table(f, pit_table_set_dealer, "T2", "{\"person\": \"E1027\"}", &err), 200);
	assert_int_equal(write_table(f, set_open, "T2", "{}", &err), 200);        /* a body: close */
	assert_int_equal(write_table(f, pit_table_set_limits, "T3", "{\"ante\": {\"min\": 1000, \"max\": 20000}}", &err),
	    200);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	pit_fixture_close(f->db, f->cfg, f->store);
	free(f);
	return 0;
}

/* Verify's walk of the events of no round: its problems (new reference). */
static json_t *
walk(struct fixture *f)
{
	json_t *problems = json_array();
	struct pb_error err;

	if (event_walk_verify(&f->pit, problems, &err) < 0)
		fail_msg("event_walk_verify: %s", err.message);
	return problems;
}

/* The problem of table (event seq, 0: none named) holding both fragments; fails the test naming them all. */
static const char *
problem(const json_t *problems, const char *table, int64_t seq, const char *frag1, const char *frag2)
{
	const json_t *p;
	size_t i;

	json_array_foreach(problems, i, p) {
		const char *text = json_string_value(json_object_get(p, "problem"));
		if (strcmp(json_string_value(json_object_get(p, "table")), table) == 0 &&
		    json_integer_value(json_object_get(p, "event")) == seq && strstr(text, frag1) != NULL &&
		    (frag2 == NULL || strstr(text, frag2) != NULL))
			return text;
	}
	fail_msg("no problem of table %s event %lld with \"%s\" among %s", table, (long long)seq, frag1,
	    json_dumps(problems, JSON_INDENT(1)));
	return NULL;
}

/* problems holds n problems; fails the test showing them otherwise. */
static void
count_is(json_t *problems, size_t n)
{
	if (json_array_size(problems) != n)
		fail_msg("%zu problems where %zu were expected: %s", json_array_size(problems), n,
		    json_dumps(problems, JSON_INDENT(1)));
}

static void
test_untouched_verifies(void **state)
{
	struct fixture *f = *state;
	json_t *problems = walk(f);

	count_is(problems, 0);
	json_decref(problems);
	/* the rows the events' apply wrote live */
	assert_int_equal(db_int(store_db(f->store), "SELECT count(*) FROM dealer_changes WHERE by = 'pitboss-test'"), 4);
	assert_int_equal(db_int(store_db(f->store), "SELECT count(*) FROM table_state WHERE table_id = 'T2' AND status = "
	    "'closed' AND dealer_id = 'E1027'"), 1);
	assert_int_equal(db_int(store_db(f->store), "SELECT count(*) FROM table_state t JOIN events e ON e.table_id = "
	    "t.table_id AND e.table_seq = 2 WHERE t.table_id = 'T3' AND t.updated_at = e.at AND t.limits_json = "
	    "'{\"ante\":{\"max\":20000,\"min\":1000}}'"), 1);
}

static void
test_open_altered(void **state)
{
	struct fixture *f = *state;
	json_t *problems;

	db_exec_ok(store_db(f->store), "UPDATE table_state SET status = 'open' WHERE table_id = 'T2'");
	db_exec_ok(store_db(f->store), "UPDATE table_state SET status = 'closed' WHERE table_id = 'T1'");
	problems = walk(f);
	assert_string_equal(problem(problems, "T2", 3, "its stored state says open", NULL),
	    "its stored state says open, its last event (3) closed it");
	assert_string_equal(problem(problems, "T1", 1, "its stored state says closed", NULL),
	    "its stored state says closed, its last event (1) configured it open");
	count_is(problems, 2);
	json_decref(problems);
}

static void
test_limits_config_and_dealer_altered(void **state)
{
	struct fixture *f = *state;
	json_t *problems;

	db_exec_ok(store_db(f->store), "UPDATE table_state SET limits_json = '{\"ante\":{\"max\":20000,\"min\":100}}' "
	    "WHERE table_id = 'T3'");
	db_exec_ok(store_db(f->store), "UPDATE table_state SET limits_json = '{\"ante\":{\"max\":20000,\"min\":200}}' "
	    "WHERE table_id = 'F1'");
	db_exec_ok(store_db(f->store), "UPDATE table_state SET config_sha256 = '" "0123456789abcdef0123456789abcdef"
	    "0123456789abcdef0123456789abcdef' WHERE table_id = 'P1'");
	db_exec_ok(store_db(f->store), "UPDATE table_state SET dealer_id = 'E1028' WHERE table_id IN ('T1', 'T2', 'T3')");
	problems = walk(f);
	assert_string_equal(problem(problems, "T3", 2, "limits", NULL), "its stored limits are "
	    "{\"ante\":{\"max\":20000,\"min\":100}}, its last event (2, limits_changed) set {\"ante\":{\"max\":20000,"
	    "\"min\":1000}}");
	problem(problems, "F1", 1, "its stored limits are {\"ante\":{\"max\":20000,\"min\":200}}, its last event (1, "
	    "table_configured) set {\"ante\":{\"max\":20000,\"min\":200},\"pair_plus\":", NULL);
	problem(problems, "P1", 1, "its stored state is of the configuration entry 0123456789abcdef", "its last "
	    "table_configured event (1) recorded");
	assert_string_equal(problem(problems, "T1", 4, "dealer", NULL), "its stored dealer is E1028, its last "
	    "dealer_changed event (4) took the dealer off");
	assert_string_equal(problem(problems, "T2", 2, "dealer", NULL), "its stored dealer is E1028, its last "
	    "dealer_changed event (2) set E1027");
	assert_string_equal(problem(problems, "T3", 0, "dealer", NULL), "its stored dealer is E1028, but no "
	    "dealer_changed event set one");
	count_is(problems, 6);
	json_decref(problems);
}

static void
test_state_row_gone_or_without_event(void **state)
{
	struct fixture *f = *state;
	json_t *problems;
	struct pb_error err;

	db_exec_ok(store_db(f->store), "DELETE FROM table_state WHERE table_id = 'P1'");
	db_exec_ok(store_db(f->store), "INSERT INTO table_state (table_id, status, limits_json, config_sha256, updated_at) "
	    "VALUES ('T8', 'open', '{\"ante\":{\"max\":20000,\"min\":100}}', 'x', '" AT "')");
	problems = walk(f);
	problem(problems, "P1", 1, "it has no stored state, though its event 1 configured it", NULL);
	problem(problems, "T8", 0, "it has a stored state (open or closed, limits, dealer) that no table_configured "
	    "event records", NULL);
	count_is(problems, 2);
	json_decref(problems);
	/* a table without its stored state takes no event: there would be no state for it to change */
	assert_int_equal(write_table(f, set_open, "P1", "{}", &err), 500);
	assert_string_equal(err.code, "internal_error");
	assert_non_null(strstr(err.message, "table P1 has no recorded state"));
	assert_int_equal(write_table(f, pit_table_set_dealer, "P1", "{\"person\": \"E1027\"}", &err), 500);
	assert_int_equal(db_int(store_db(f->store), "SELECT count(*) FROM events WHERE table_id = 'P1'"), 1);
}

static void
test_dealer_row_deleted(void **state)
{
	struct fixture *f = *state;
	json_t *problems;

	db_exec_ok(store_db(f->store), "DROP TRIGGER dealer_changes_no_delete");
	/* T1's second change (E1028), between the two others */
	db_exec_ok(store_db(f->store), "DELETE FROM dealer_changes WHERE table_id = 'T1' AND person_id = 'E1028'");
	problems = walk(f);
	problem(problems, "T1", 3, "event 3 (dealer_changed): no dealer_changes row is the change it records, E1028 (Ben "
	    "Ode) at ", "by pitboss-test; the table's next row (3) says no dealer at ");
	count_is(problems, 1);      /* the next event finds its own row */
	json_decref(problems);
	/* and T2's only one */
	db_exec_ok(store_db(f->store), "DELETE FROM dealer_changes WHERE table_id = 'T2'");
	problems = walk(f);
	problem(problems, "T2", 2, "event 2 (dealer_changed): the change it records, E1027 (Ana Ruiz) at ", "has no "
	    "dealer_changes row: the dealer rotation report does not show it");
	count_is(problems, 2);
	json_decref(problems);
}

static void
test_dealer_row_altered_or_added(void **state)
{
	struct fixture *f = *state;
	json_t *problems;

	db_exec_ok(store_db(f->store), "DROP TRIGGER dealer_changes_no_update");
	db_exec_ok(store_db(f->store), "UPDATE dealer_changes SET person_name = 'Someone Else' WHERE table_id = 'T1' AND "
	    "person_id = 'E1027'");
	db_exec_ok(store_db(f->store), "INSERT INTO dealer_changes (table_id, person_id, person_name, at, by) VALUES "
	    "('T3', 'E1028', 'Ben Ode', '" AT "', 'pitboss-test')");
	problems = walk(f);
	problem(problems, "T1", 2, "the change it records, E1027 (Ana Ruiz)", "says E1027 (Someone Else) at");
	problem(problems, "T1", 0, "1 dealer_changes row that no dealer_changed event records", NULL);
	problem(problems, "T3", 0, "1 dealer_changes row that no dealer_changed event records", NULL);
	count_is(problems, 3);
	json_decref(problems);
}

/* An event its apply cannot take is named, and so is the row it lacks; the stored state of no table is not invented. */
static void
test_event_the_apply_refuses(void **state)
{
	struct fixture *f = *state;
	json_t *body = json_pack("{s:n,s:n}", "person", "name"), *problems;
	struct pb_error err;

	assert_int_equal(store_begin(f->store, &err), 0);
	assert_int_equal(store_append_event(f->store, "T7", 0, &EVENT_TYPES[EVT_DEALER_CHANGED], AT, "pb", body, &err), 0);
	assert_int_equal(store_commit(f->store, &err), 0);
	problems = walk(f);
	problem(problems, "T7", 1, "a dealer_changed event the table's state cannot be rebuilt from: a dealer change "
	    "before the table was configured", NULL);
	problem(problems, "T7", 1, "has no dealer_changes row", NULL);
	count_is(problems, 2);
	json_decref(problems);
	json_decref(body);
}

/* event_record: a round's step refused; an event with no rows only appended; the apply's refusal refuses the write. */
static void
test_event_record(void **state)
{
	struct fixture *f = *state;
	json_t *bet = json_pack("{s:i,s:i,s:i,s:i}", "ante", 1000, "pair_plus", 0, "seat", 1, "six_card", 0);
	json_t *rules = json_pack("{s:s,s:s,s:s,s:s}", "config_loaded_sha256", "a", "game", "standard", "game_sha256", "b",
	    "previous_game_sha256", "c");
	json_t *dealer = json_pack("{s:n,s:n}", "person", "name");
	struct pb_error err;
	int events = db_int(store_db(f->store), "SELECT count(*) FROM events");

	assert_int_equal(store_begin(f->store, &err), 0);
	assert_int_equal(event_record(f->store, "T1", &EVENT_TYPES[EVT_BET_PLACED], AT, "pb", bet, &err), -1);
	assert_int_equal(err.status, 500);
	assert_non_null(strstr(err.message, "recorded with its round"));
	assert_int_equal(event_record(f->store, "T1", &EVENT_TYPES[EVT_RULES_CHANGED], AT, "pb", rules, &err), 0);
	assert_int_equal(event_record(f->store, "T7", &EVENT_TYPES[EVT_DEALER_CHANGED], AT, "pb", dealer, &err), -1);
	assert_int_equal(err.status, 422);
	assert_string_equal(err.code, "event_out_of_order");
	store_rollback(f->store);
	assert_int_equal(db_int(store_db(f->store), "SELECT count(*) FROM events"), events);
	json_decref(bet);
	json_decref(rules);
	json_decref(dealer);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_untouched_verifies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_altered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_limits_config_and_dealer_altered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_row_gone_or_without_event, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dealer_row_deleted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dealer_row_altered_or_added, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_the_apply_refuses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_record, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
