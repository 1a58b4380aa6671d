/*
 * test_dealer.c - the dealer at a table and the witness of a dealer's void,
 * through the table layer on a real temporary database, with actors that are
 * people's sessions (is_person) as well as terminal tokens: who may set the
 * dealer, the person checks, the dealer on the rounds opened afterwards (its
 * event, its row, GET, verify), and a dealer's void after the deal refused
 * for each wrong witness and accepted with a right one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/password.h"
#include "table/rounds/rounds.h"
#include "table/audit/audit.h"
#include "pit_fixture.h"

struct fixture {
	char db[256];
	struct config *cfg;
	struct store *store;
	struct pit pit;
};

/* Tokens and sessions. */
static const struct actor PITBOSS_TOKEN = {"pitboss-test", ROLE_BIT(ROLE_PITBOSS), NULL, false};
static const struct actor DEALER_TOKEN = {"dealer-test", ROLE_BIT(ROLE_DEALER), NULL, false};
static const struct actor ANA = {"E1027", ROLE_BIT(ROLE_DEALER), NULL, true};         /* a dealer */
static const struct actor BEN = {"E1028", ROLE_BIT(ROLE_DEALER), NULL, true};         /* another dealer */
static const struct actor FLO = {"F2001", ROLE_BIT(ROLE_FLOOR), NULL, true};          /* a floor supervisor */

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	pit_fixture_open("dealer", f->db, &f->cfg, &f->store, &f->pit);
	fixture_add_person(f->store, "E1027", "Ana Ruiz", ROLE_BIT(ROLE_DEALER), true, "ana-secret-1");
	fixture_add_person(f->store, "E1028", "Ben Ode", ROLE_BIT(ROLE_DEALER), true, "ben-secret-1");
	fixture_add_person(f->store, "F2001", "Flo Ng", ROLE_BIT(ROLE_FLOOR), true, "flo-secret-1");
	fixture_add_person(f->store, "P3001", "Pat Kim", ROLE_BIT(ROLE_PITBOSS) | ROLE_BIT(ROLE_DEALER), true, "pat-secret-1");
	fixture_add_person(f->store, "C4001", "Cy Old", ROLE_BIT(ROLE_DEALER) | ROLE_BIT(ROLE_FLOOR), false, "cy-secret-1");
	fixture_add_person(f->store, "A5001", "Al Audit", ROLE_BIT(ROLE_AUDITOR), true, "al-secret-1");
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

/* PUT /tables/{t}/dealer with a body text; the status (200 or the refusal's), the answer in *out when asked. */
static int
set_dealer(struct fixture *f, const struct actor *a, const char *table, const char *body, struct pb_error *err,
    json_t **out)
{
	json_t *b = json_loads(body, 0, NULL), *o = NULL;
	int status = 0, rc;

	assert_non_null(b);
	memset(err, 0, sizeof(*err));
	rc = pit_table_set_dealer(&f->pit, a, NULL, table, b, &o, &status, err);
	json_decref(b);
	if (out != NULL)
		*out = o;
	else
		json_decref(o);
	return rc == 0 ? status : err->status;
}

/* A step of a round by actor a; the status. */
static int
step(struct fixture *f, const struct actor *a, int64_t id, enum round_step st, const char *body, struct pb_error *err)
{
	json_t *b = json_loads(body, 0, NULL), *out = NULL;
	int status = 0, rc;

	assert_non_null(b);
	memset(err, 0, sizeof(*err));
	rc = pit_round_step(&f->pit, a, NULL, id, st, 0, b, &out, &status, err);
	json_decref(b);
	json_decref(out);
	return rc == 0 ? status : err->status;
}

/* Opens a round at T1 as actor a and takes it to dealt. */
static int64_t
dealt_round(struct fixture *f, const struct actor *a)
{
	json_t *b = json_object(), *out = NULL;
	struct pb_error err;
	int status = 0;
	int64_t id;

	assert_int_equal(pit_round_open(&f->pit, a, NULL, "T1", b, &out, &status, &err), 0);
	id = json_integer_value(json_object_get(json_object_get(out, "round"), "id"));
	json_decref(b);
	json_decref(out);
	b = json_loads("{\"ante\": 2500}", 0, NULL);
	assert_int_equal(pit_round_step(&f->pit, a, NULL, id, STEP_BET_PUT, 1, b, &out, &status, &err), 0);
	json_decref(b);
	json_decref(out);
	assert_int_equal(step(f, a, id, STEP_CLOSE, "{}", &err), 200);
	assert_int_equal(step(f, a, id, STEP_DEAL, "{\"hands\": {\"1\": [\"As\",\"Kd\",\"Qh\"]}}", &err), 200);
	return id;
}

static json_t *
get_round(struct fixture *f, int64_t id)
{
	json_t *out = NULL;
	struct pb_error err;

	assert_int_equal(pit_round_get(&f->pit, &PITBOSS_TOKEN, id, &out, &err), 0);
	return out;
}

/* The body of the round's last event of a type, parsed (NULL when none). */
static json_t *
event_body(struct fixture *f, int64_t round_id, const char *type)
{
	sqlite3_stmt *st;
	json_t *b = NULL;

	assert_int_equal(sqlite3_prepare_v2(store_db(f->store), "SELECT body FROM events WHERE round_id = ? AND type = ? "
	    "ORDER BY table_seq DESC LIMIT 1", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, round_id);
	sqlite3_bind_text(st, 2, type, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		b = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL);
	sqlite3_finalize(st);
	return b;
}

static void
test_who_sets_the_dealer(void **state)
{
	struct fixture *f = *state;
	struct pb_error err;
	json_t *out = NULL;

	/* A terminal token of the dealer role sets nobody; a dealer's session only himself. */
	assert_int_equal(set_dealer(f, &DEALER_TOKEN, "T1", "{\"person\": \"E1027\"}", &err, NULL), 403);
	assert_string_equal(err.code, "forbidden");
	assert_int_equal(set_dealer(f, &BEN, "T1", "{\"person\": \"E1027\"}", &err, NULL), 403);
	assert_int_equal(set_dealer(f, &ANA, "T1", "{\"person\": \"E1027\"}", &err, &out), 200);
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(out, "table"), "dealer"), "name")),
	    "Ana Ruiz");
	json_decref(out);
	/* Ben may not take Ana off; Ana may take herself off; a floor supervisor sets anyone. */
	assert_int_equal(set_dealer(f, &BEN, "T1", "{\"person\": null}", &err, NULL), 403);
	assert_int_equal(set_dealer(f, &ANA, "T1", "{\"person\": null}", &err, &out), 200);
	assert_true(json_is_null(json_object_get(json_object_get(out, "table"), "dealer")));
	json_decref(out);
	assert_int_equal(set_dealer(f, &FLO, "T1", "{\"person\": \"E1028\"}", &err, NULL), 200);
	assert_int_equal(set_dealer(f, &PITBOSS_TOKEN, "T1", "{\"person\": \"E1027\"}", &err, NULL), 200);
	/* The same dealer again records nothing. */
	assert_int_equal(set_dealer(f, &PITBOSS_TOKEN, "T1", "{\"person\": \"E1027\"}", &err, NULL), 200);
	assert_int_equal(db_int(store_db(f->store), "SELECT count(*) FROM dealer_changes"), 4);
	assert_int_equal(db_int(store_db(f->store), "SELECT count(*) FROM events WHERE type = 'dealer_changed'"), 4);
	assert_int_equal(db_int(store_db(f->store), "SELECT count(*) FROM dealer_changes WHERE person_id IS NULL "
	    "AND person_name IS NULL"), 1);
}

static void
test_person_checks_and_bodies(void **state)
{
	struct fixture *f = *state;
	struct pb_error err;

	assert_int_equal(set_dealer(f, &PITBOSS_TOKEN, "T1", "{\"person\": \"NOBODY\"}", &err, NULL), 422);
	assert_string_equal(err.code, "unknown_person");
	assert_int_equal(set_dealer(f, &PITBOSS_TOKEN, "T1", "{\"person\": \"C4001\"}", &err, NULL), 422);
	assert_string_equal(err.code, "person_inactive");
	assert_int_equal(set_dealer(f, &PITBOSS_TOKEN, "T1", "{\"person\": \"F2001\"}", &err, NULL), 422);
	assert_string_equal(err.code, "not_a_dealer");
	assert_int_equal(set_dealer(f, &PITBOSS_TOKEN, "T1", "{}", &err, NULL), 400);
	assert_int_equal(set_dealer(f, &PITBOSS_TOKEN, "T1", "{\"person\": 7}", &err, NULL), 400);
	assert_int_equal(set_dealer(f, &PITBOSS_TOKEN, "T1", "{\"person\": \"E1027\", \"x\": 1}", &err, NULL), 400);
	assert_int_equal(set_dealer(f, &PITBOSS_TOKEN, "NOPE", "{\"person\": \"E1027\"}", &err, NULL), 404);
	assert_int_equal(db_int(store_db(f->store), "SELECT count(*) FROM dealer_changes"), 0);
}

static void
test_rounds_carry_the_dealer(void **state)
{
	struct fixture *f = *state;
	struct pb_error err;
	json_t *r, *body, *problems;
	int64_t before, after;

	before = dealt_round(f, &DEALER_TOKEN);
	body = event_body(f, before, "round_opened");
	assert_null(json_object_get(body, "dealer"));   /* no dealer: the bytes as before */
	json_decref(body);
	assert_int_equal(step(f, &PITBOSS_TOKEN, before, STEP_VOID, "{\"reason\": \"test\"}", &err), 200);
	assert_int_equal(set_dealer(f, &PITBOSS_TOKEN, "T1", "{\"person\": \"E1027\"}", &err, NULL), 200);
	after = dealt_round(f, &DEALER_TOKEN);
	body = event_body(f, after, "round_opened");
	assert_string_equal(json_string_value(json_object_get(json_object_get(body, "dealer"), "id")), "E1027");
	assert_string_equal(json_string_value(json_object_get(json_object_get(body, "dealer"), "name")), "Ana Ruiz");
	json_decref(body);
	r = get_round(f, after);
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(r, "round"), "dealer"), "id")), "E1027");
	json_decref(r);
	r = get_round(f, before);
	assert_true(json_is_null(json_object_get(json_object_get(r, "round"), "dealer")));
	json_decref(r);
	problems = json_array();
	assert_int_equal(audit_round(&f->pit, after, problems, &err), 0);
	assert_int_equal(json_array_size(problems), 0);
	/* A row that disagrees with its event is found. */
	db_exec_ok(store_db(f->store), "UPDATE rounds SET dealer_name = 'Someone Else' WHERE dealer_id = 'E1027'");
	assert_int_equal(audit_round(&f->pit, after, problems, &err), 0);
	assert_int_equal(json_array_size(problems), 1);
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(problems, 0), "problem")), "dealer_name"));
	json_decref(problems);
}

/* A dealer's session voiding after the deal: each wrong witness refused, changing nothing; a right one recorded. */
static void
test_void_after_the_deal_needs_a_witness(void **state)
{
	struct fixture *f = *state;
	struct pb_error err;
	int64_t id = dealt_round(f, &ANA);
	json_t *body;
	char *text;

	assert_int_equal(step(f, &ANA, id, STEP_VOID, "{\"reason\": \"misdeal\"}", &err), 403);
	assert_string_equal(err.code, "witness_required");
	assert_int_equal(step(f, &ANA, id, STEP_VOID, "{\"reason\": \"misdeal\", \"witness\": {\"person\": \"E1027\", "
	    "\"password\": \"ana-secret-1\"}}", &err), 403);
	assert_string_equal(err.code, "witness_same_person");
	assert_int_equal(step(f, &ANA, id, STEP_VOID, "{\"reason\": \"misdeal\", \"witness\": {\"person\": \"E1028\", "
	    "\"password\": \"ben-secret-1\"}}", &err), 403);
	assert_string_equal(err.code, "witness_refused");
	assert_int_equal(step(f, &ANA, id, STEP_VOID, "{\"reason\": \"misdeal\", \"witness\": {\"person\": \"C4001\", "
	    "\"password\": \"cy-secret-1\"}}", &err), 403);
	assert_string_equal(err.code, "witness_refused");
	assert_int_equal(step(f, &ANA, id, STEP_VOID, "{\"reason\": \"misdeal\", \"witness\": {\"person\": \"F2001\", "
	    "\"password\": \"wrong-one-1\"}}", &err), 403);
	assert_string_equal(err.code, "witness_refused");
	assert_int_equal(db_int(store_db(f->store), "SELECT failures FROM people WHERE id = 'F2001'"), 1);
	assert_int_equal(step(f, &ANA, id, STEP_VOID, "{\"reason\": \"misdeal\", \"witness\": {\"person\": \"F2001\"}}", &err), 400);
	assert_string_equal(err.code, "invalid_witness");
	assert_int_equal(db_int(store_db(f->store), "SELECT count(*) FROM events WHERE type = 'round_voided'"), 0);
	/* A floor supervisor's witness: voided, the witness's id in the event; the failures start again. */
	assert_int_equal(step(f, &ANA, id, STEP_VOID, "{\"reason\": \"misdeal\", \"witness\": {\"person\": \"F2001\", "
	    "\"password\": \"flo-secret-1\"}}", &err), 200);
	body = event_body(f, id, "round_voided");
	assert_string_equal(json_string_value(json_object_get(body, "witness")), "F2001");
	text = json_dumps(body, 0);
	assert_null(strstr(text, "flo-secret-1"));
	free(text);
	json_decref(body);
	assert_int_equal(db_int(store_db(f->store), "SELECT failures FROM people WHERE id = 'F2001'"), 0);
	assert_int_equal(db_int(store_db(f->store), "SELECT count(*) FROM events WHERE body LIKE '%secret%'"), 0);
}

static void
test_void_without_a_witness(void **state)
{
	struct fixture *f = *state;
	struct pb_error err;
	json_t *b = json_object(), *out = NULL, *body;
	int status = 0;
	int64_t id;

	/* Before the deal a dealer's session voids alone. */
	assert_int_equal(pit_round_open(&f->pit, &ANA, NULL, "T1", b, &out, &status, &err), 0);
	json_decref(b);
	id = json_integer_value(json_object_get(json_object_get(out, "round"), "id"));
	json_decref(out);
	assert_int_equal(step(f, &ANA, id, STEP_VOID, "{\"reason\": \"no players\"}", &err), 200);
	body = event_body(f, id, "round_voided");
	assert_null(json_object_get(body, "witness"));
	json_decref(body);
	/* A terminal token after the deal, as before; a person who is also a pit boss too. */
	id = dealt_round(f, &DEALER_TOKEN);
	assert_int_equal(step(f, &DEALER_TOKEN, id, STEP_VOID, "{\"reason\": \"misdeal\"}", &err), 200);
	{
		static const struct actor PAT = {"P3001", ROLE_BIT(ROLE_PITBOSS) | ROLE_BIT(ROLE_DEALER), NULL, true};
		id = dealt_round(f, &PAT);
		assert_int_equal(step(f, &PAT, id, STEP_VOID, "{\"reason\": \"misdeal\"}", &err), 200);
	}
	/* An auditor's token may not void, so its witness is never checked (no password oracle). */
	id = dealt_round(f, &DEALER_TOKEN);
	{
		static const struct actor AUD = {"auditor-test", ROLE_BIT(ROLE_AUDITOR), NULL, false};
		assert_int_equal(step(f, &AUD, id, STEP_VOID, "{\"reason\": \"x\", \"witness\": {\"person\": \"F2001\", "
		    "\"password\": \"guess-guess\"}}", &err), 403);
		assert_string_equal(err.code, "forbidden");
	}
	assert_int_equal(db_int(store_db(f->store), "SELECT failures FROM people WHERE id = 'F2001'"), 0);
	assert_false(dealer_void_needs_witness(&ANA, ROUND_BETTING));
	assert_false(dealer_void_needs_witness(&ANA, ROUND_CLOSED));
	assert_true(dealer_void_needs_witness(&ANA, ROUND_REVEALED));
	assert_false(dealer_void_needs_witness(&FLO, ROUND_DEALT));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_who_sets_the_dealer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_person_checks_and_bodies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rounds_carry_the_dealer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_void_after_the_deal_needs_a_witness, setup, teardown),
		cmocka_unit_test_setup_teardown(test_void_without_a_witness, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
