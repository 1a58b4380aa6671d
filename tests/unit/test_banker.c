/*
 * test_banker.c - the banker as a person (table/rounds/rounds.h) through the table
 * layer on a real temporary database, table P1 of the example configuration
 * (8 seats, max_consecutive 2): the rotation counted per person whatever
 * seat he banks from, broken by another banker and by nothing else (not by a
 * void round's bank); the rule of one badge of a provider company at a table
 * (another seat refused, the same seat a relief); the names read from a
 * banker block, and written and read back as the event records them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/event_read.h"
#include "store/players.h"
#include "table/rounds/rounds.h"
#include "pit_fixture.h"

struct fixture {
	char db[256];
	struct config *cfg;
	struct store *store;
	struct pit pit;
};

static const struct actor DEALER = {"dealer-test", ROLE_BIT(ROLE_DEALER), NULL, false};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	pit_fixture_open("banker", f->db, &f->cfg, &f->store, &f->pit);
	/* the players the tests name as bankers: a banker named as a player is a registered one */
	for (int i = 1; i <= 9; i++) {
		char id[8];
		struct pb_error err;
		snprintf(id, sizeof(id), "PL%d", i);
		if (store_player_put(f->store, id, "", "", "{\"description\": \"banker\"}", "2026-01-01T00:00:00.000Z", &err) < 0)
			fail_msg("registering %s: %s", id, err.message);
	}
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

/*
 * A whole round at P1 banked from seat by who (a JSON fragment such as
 * "\"player\": \"PL1\"", or "" for an unnamed banker); the status, or the
 * refusal's, with its code in code.
 */
static int
bank(struct fixture *f, int seat, const char *who, char code[64])
{
	char text[512];
	int other = seat % 8 + 1, status = 0, rc;
	struct pb_error err;
	json_t *b, *out = NULL;

	snprintf(text, sizeof(text), "{\"banker\": {\"seat\": %d, \"bank\": 20000%s%s}, \"bets\": {\"%d\": {\"ante\": 1000}}, "
	    "\"hands\": {\"%d\": [\"9h\", \"9c\", \"5d\"]}, \"dealer\": [\"Qd\", \"7c\", \"2h\"], \"decisions\": {\"%d\": \"play\"}}",
	    seat, who[0] ? ", " : "", who, other, other, other);
	b = json_loads(text, 0, NULL);
	assert_non_null(b);
	memset(&err, 0, sizeof(err));
	rc = pit_round_open(&f->pit, &DEALER, NULL, "P1", b, &out, &status, &err);
	json_decref(b);
	json_decref(out);
	snprintf(code, 64, "%s", rc == 0 ? "" : err.code);
	return rc == 0 ? status : err.status;
}

static void
test_rotation_per_person(void **state)
{
	struct fixture *f = *state;
	char code[64];

	assert_int_equal(bank(f, 1, "\"player\": \"PL1\"", code), 201);
	assert_int_equal(bank(f, 1, "\"player\": \"PL1\"", code), 201);
	/* a seat change does not reset his run */
	assert_int_equal(bank(f, 5, "\"player\": \"PL1\"", code), 422);
	assert_string_equal(code, "rotation_violation");
	/* the seat rule alone lets another seat bank: an unnamed banker at seat 5 */
	assert_int_equal(bank(f, 5, "", code), 201);
	/* an unnamed round broke nobody's run but it is not PL1's: he banks again, from seat 6 */
	assert_int_equal(bank(f, 6, "\"player\": \"PL1\"", code), 201);
	assert_int_equal(bank(f, 7, "\"player\": \"PL1\"", code), 201);
	assert_int_equal(bank(f, 8, "\"player\": \"PL1\"", code), 422);
	assert_string_equal(code, "rotation_violation");
	/* another person breaks the run */
	assert_int_equal(bank(f, 8, "\"player\": \"PL2\"", code), 201);
	assert_int_equal(bank(f, 2, "\"player\": \"PL1\"", code), 201);
	/* a badge is a person too */
	assert_int_equal(bank(f, 3, "\"provider\": {\"badge\": \"B1\", \"company\": \"Acme\"}", code), 201);
	assert_int_equal(bank(f, 3, "\"provider\": {\"badge\": \"B1\", \"company\": \"Acme\"}", code), 201);
	assert_int_equal(bank(f, 4, "\"provider\": {\"badge\": \"B1\", \"company\": \"Acme\"}", code), 422);
	assert_string_equal(code, "rotation_violation");
}

static void
test_one_badge_of_a_company_at_a_table(void **state)
{
	struct fixture *f = *state;
	char code[64];

	assert_int_equal(bank(f, 3, "\"provider\": {\"badge\": \"B1\", \"company\": \"Acme\"}", code), 201);
	assert_int_equal(bank(f, 4, "\"provider\": {\"badge\": \"B2\", \"company\": \"Acme\"}", code), 422);
	assert_string_equal(code, "provider_company_at_table");
	/* another company is another matter; so is a relief at the same seat */
	assert_int_equal(bank(f, 4, "\"provider\": {\"badge\": \"C1\", \"company\": \"Acme Two\"}", code), 201);
	assert_int_equal(bank(f, 5, "\"provider\": {\"badge\": \"B2\", \"company\": \"Acme\"}", code), 201);
	assert_int_equal(bank(f, 5, "\"provider\": {\"badge\": \"B3\", \"company\": \"Acme\"}", code), 201);
	assert_int_equal(bank(f, 5, "\"provider\": {\"badge\": \"B4\", \"company\": \"Acme\"}", code), 422);
	assert_string_equal(code, "rotation_violation");   /* seat 5 has banked two in a row, whoever sat there */
}

static void
test_identity_parse_and_json(void **state)
{
	static const char *const BAD[] = {
		"{\"player\": \"P1\", \"provider\": {\"badge\": \"B\", \"company\": \"C\"}}",
		"{\"player\": \"\"}", "{\"player\": \"a b\"}", "{\"player\": 3}",
		"{\"provider\": {\"badge\": \"B\"}}", "{\"provider\": {\"company\": \"C\"}}",
		"{\"provider\": {\"badge\": \"B\", \"company\": \" \"}}", "{\"provider\": {\"badge\": \"B\", \"company\": \"a\\nb\"}}",
		"{\"provider\": {\"badge\": \"B\", \"company\": \"C\", \"x\": 1}}", "{\"provider\": []}",
	};
	struct round_record *r = calloc(1, sizeof(*r)), *back = calloc(1, sizeof(*back));
	struct pb_error err;
	json_t *b, *o;

	(void)state;
	for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++) {
		b = json_loads(BAD[i], 0, NULL);
		assert_non_null(b);
		if (banker_identity_parse(b, r, &err) == 0)
			fail_msg("accepted %s", BAD[i]);
		assert_int_equal(err.status, 400);
		json_decref(b);
	}
	b = json_loads("{\"provider\": {\"badge\": \"TPPPS-0192\", \"company\": \"Acme Banking LLC\"}}", 0, NULL);
	assert_int_equal(banker_identity_parse(b, r, &err), 0);
	assert_string_equal(r->provider_badge, "TPPPS-0192");
	assert_string_equal(r->provider_company, "Acme Banking LLC");
	assert_string_equal(r->banker_player, "");
	o = json_object();
	banker_identity_to_json(r, o);
	assert_int_equal(banker_identity_from_json(o, &(struct event_in){"round_opened", "banker", -1}, back, &err), 0);
	assert_true(banker_identity_equal(r, back));
	json_decref(o);
	json_decref(b);
	b = json_loads("{\"player\": \"PL-7\"}", 0, NULL);
	assert_int_equal(banker_identity_parse(b, r, &err), 0);
	assert_false(banker_identity_equal(r, back));
	o = json_object();
	banker_identity_to_json(r, o);
	assert_string_equal(json_string_value(json_object_get(o, "player")), "PL-7");
	assert_null(json_object_get(o, "provider"));
	json_decref(o);
	json_decref(b);
	/* nobody named: nothing written */
	b = json_object();
	assert_int_equal(banker_identity_parse(b, r, &err), 0);
	o = json_object();
	banker_identity_to_json(r, o);
	assert_int_equal(json_object_size(o), 0);
	json_decref(o);
	json_decref(b);
	free(r);
	free(back);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rotation_per_person, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_badge_of_a_company_at_a_table, setup, teardown),
		cmocka_unit_test(test_identity_parse_and_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
