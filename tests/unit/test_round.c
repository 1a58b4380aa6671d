/*
 * test_round.c - the round state machine through the pit API on a real
 * temporary SQLite database: every step in and out of order, a whole round,
 * a void, the dealer's cards at reveal, and idempotent retries.
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

#include "store/store.h"
#include "pit_fixture.h"
#include "table/rounds/rounds.h"

struct fixture {
	char db[256];
	struct config *cfg;
	struct store *store;
	struct pit pit;
	struct actor dealer;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	pit_fixture_open("round", f->db, &f->cfg, &f->store, &f->pit);
	f->dealer.name = "dealer-test";
	f->dealer.roles = ROLE_BIT(ROLE_DEALER);
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

/* Runs a step with a JSON body text; returns the HTTP-style status (200/201 or the error's). */
static int
step(struct fixture *f, int64_t id, enum round_step st, int seat, const char *body, struct pb_error *err)
{
	json_t *b = json_loads(body ? body : "{}", 0, NULL), *out = NULL;
	int status = 0, rc;

	assert_non_null(b);
	rc = pit_round_step(&f->pit, &f->dealer, NULL, id, st, seat, b, &out, &status, err);
	json_decref(b);
	json_decref(out);
	return rc == 0 ? status : err->status;
}

static int64_t
open_round(struct fixture *f, const char *table, const char *body, json_t **round)
{
	json_t *b = json_loads(body, 0, NULL), *out = NULL;
	struct pb_error err;
	int status = 0;
	int64_t id;

	assert_int_equal(pit_round_open(&f->pit, &f->dealer, NULL, table, b, &out, &status, &err), 0);
	assert_int_equal(status, 201);
	id = json_integer_value(json_object_get(json_object_get(out, "round"), "id"));
	json_decref(b);
	if (round != NULL)
		*round = out;
	else
		json_decref(out);
	return id;
}

static json_t *
get_round(struct fixture *f, int64_t id)
{
	json_t *out = NULL;
	struct pb_error err;

	assert_int_equal(pit_round_get(&f->pit, &f->dealer, id, &out, &err), 0);
	return out;
}

static void
test_steps_in_order_and_out_of_order(void **state)
{
	struct fixture *f = *state;
	struct pb_error err;
	int64_t id = open_round(f, "T1", "{}", NULL);
	json_t *whole, *r;

	/* Nothing but bets before close. */
	assert_int_equal(step(f, id, STEP_DEAL, 0, "{\"hands\": {}}", &err), 409);
	assert_string_equal(err.code, "wrong_state");
	assert_int_equal(step(f, id, STEP_SETTLE, 0, NULL, &err), 409);
	assert_int_equal(step(f, id, STEP_CLOSE, 0, NULL, &err), 422);
	assert_string_equal(err.code, "no_bets");
	assert_int_equal(step(f, id, STEP_BET_PUT, 1, "{\"ante\": 2500, \"pair_plus\": 500}", &err), 200);
	assert_int_equal(step(f, id, STEP_BET_PUT, 2, "{\"ante\": 1000}", &err), 200);
	assert_int_equal(step(f, id, STEP_BET_DELETE, 2, NULL, &err), 200);
	assert_int_equal(step(f, id, STEP_BET_DELETE, 2, NULL, &err), 404);
	assert_int_equal(step(f, id, STEP_CLOSE, 0, NULL, &err), 200);
	assert_int_equal(step(f, id, STEP_BET_PUT, 3, "{\"ante\": 1000}", &err), 409);
	assert_int_equal(step(f, id, STEP_DECIDE, 0, "{\"seat\": 1, \"action\": \"play\"}", &err), 409);
	/* Deal without the dealer; decide; reveal; settle. */
	assert_int_equal(step(f, id, STEP_DEAL, 0, "{\"hands\": {\"1\": [\"As\",\"Ks\",\"Qs\"]}}", &err), 200);
	assert_int_equal(step(f, id, STEP_SETTLE, 0, NULL, &err), 409);
	assert_string_equal(err.code, "decisions_pending");
	assert_int_equal(step(f, id, STEP_REVEAL, 0, "{\"dealer\": [\"Qd\",\"7c\",\"2h\"]}", &err), 409);
	assert_int_equal(step(f, id, STEP_DECIDE, 0, "{\"seat\": 1, \"action\": \"play\"}", &err), 200);
	assert_int_equal(step(f, id, STEP_DECIDE, 0, "{\"seat\": 1, \"action\": \"fold\"}", &err), 409);
	assert_string_equal(err.code, "already_decided");
	assert_int_equal(step(f, id, STEP_REVEAL, 0, "{\"dealer\": [\"As\",\"7c\",\"2h\"]}", &err), 422);
	assert_string_equal(err.code, "duplicate_card");
	assert_int_equal(step(f, id, STEP_REVEAL, 0, "{\"dealer\": [\"Qd\",\"7c\",\"2h\"]}", &err), 200);
	assert_int_equal(step(f, id, STEP_SETTLE, 0, NULL, &err), 200);
	assert_int_equal(step(f, id, STEP_VOID, 0, "{\"reason\": \"late\"}", &err), 409);
	assert_string_equal(err.code, "round_final");

	whole = get_round(f, id);
	r = json_object_get(whole, "round");
	assert_string_equal(json_string_value(json_object_get(r, "state")), "settled");
	/* Straight flush, played, dealer Q-7-2 qualifies: ante 1:1, play 1:1, pair plus 40:1, ante bonus 5:1. */
	assert_int_equal(json_array_size(json_object_get(r, "payouts")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "totals"), "players_net")),
	    2500 + 2500 + 20000 + 12500);
	json_decref(whole);
}

static void
test_whole_round_and_void(void **state)
{
	struct fixture *f = *state;
	struct pb_error err;
	json_t *out = NULL, *r;
	int64_t id;

	id = open_round(f, "T1", "{\"bets\": {\"1\": {\"ante\": 2500}, \"3\": {\"ante\": 1000, \"six_card\": 500}},"
	    "\"hands\": {\"1\": [\"2c\",\"3d\",\"4h\"], \"3\": [\"Kc\",\"Kd\",\"9s\"]}, \"dealer\": [\"Qd\",\"7c\",\"2h\"],"
	    "\"decisions\": {\"1\": \"fold\", \"3\": \"play\"}}", &out);
	r = json_object_get(out, "round");
	assert_string_equal(json_string_value(json_object_get(r, "state")), "settled");
	assert_int_equal(json_array_size(json_object_get(r, "events")), 8);
	json_decref(out);

	id = open_round(f, "T1", "{}", NULL);
	assert_int_equal(step(f, id, STEP_BET_PUT, 1, "{\"ante\": 2500}", &err), 200);
	assert_int_equal(step(f, id, STEP_CLOSE, 0, NULL, &err), 200);
	assert_int_equal(step(f, id, STEP_VOID, 0, "{}", &err), 422);
	assert_int_equal(step(f, id, STEP_VOID, 0, "{\"reason\": \"misdeal: exposed card\"}", &err), 200);
	r = get_round(f, id);
	assert_string_equal(json_string_value(json_object_get(json_object_get(r, "round"), "state")), "void");
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(json_object_get(r, "round"), "payouts"), 0),
	    "result")), "returned");
	json_decref(r);
}

static void
test_idempotent_retry(void **state)
{
	struct fixture *f = *state;
	struct idempotency idem = {"retry-1", "aaaa"};
	json_t *b = json_object(), *first = NULL, *second = NULL;
	struct pb_error err;
	int s1 = 0, s2 = 0;

	assert_int_equal(pit_round_open(&f->pit, &f->dealer, &idem, "T2", b, &first, &s1, &err), 0);
	assert_int_equal(pit_round_open(&f->pit, &f->dealer, &idem, "T2", b, &second, &s2, &err), 0);
	assert_int_equal(s1, 201);
	assert_int_equal(s2, 201);
	assert_true(json_equal(first, second));
	/* A second open without the key is refused: the first is in progress. */
	json_decref(second);
	second = NULL;
	assert_int_equal(pit_round_open(&f->pit, &f->dealer, NULL, "T2", b, &second, &s2, &err), -1);
	assert_string_equal(err.code, "round_in_progress");
	json_decref(first);
	json_decref(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_steps_in_order_and_out_of_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_whole_round_and_void, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idempotent_retry, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
