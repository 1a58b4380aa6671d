/*
 * test_replay.c - a round rebuilt from its events (table/rounds/replay.c)
 * through each event's row of the registry and its replay: the events the
 * live path records are read back whole and without a problem; a body whose
 * field is of another JSON type, missing, or names no seat, wager or card
 * is a problem of the round naming the event and the field (a tampered
 * "seat": "3" used to become seat 0, a missing "ante" 0), and the replay
 * goes on with the next event; a caller that wants only the round (GET
 * /rounds/{id}) still gets it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/audit.h"
#include "store/store.h"
#include "pit_fixture.h"
#include "table/rounds/rounds.h"

/* Seat 1 plays a straight flush, seat 3 folds a pair of kings with a six card bet; the dealer's Q-7-2 qualifies. */
#define HOUSE_ROUND "{\"bets\": {\"1\": {\"ante\": 2500, \"pair_plus\": 500}, \"3\": {\"ante\": 1000, \"six_card\": 500}}," \
	"\"hands\": {\"1\": [\"As\",\"Ks\",\"Qs\"], \"3\": [\"Kc\",\"Kd\",\"9s\"]}, \"dealer\": [\"Qd\",\"7c\",\"2h\"]," \
	"\"decisions\": {\"1\": \"play\", \"3\": \"fold\"}}"
/* The same at the player-banked table, seat 4 banking as a named provider. */
#define BANKED_ROUND "{\"banker\": {\"seat\": 4, \"bank\": 100000, \"provider\": {\"badge\": \"TP-1\", \"company\": " \
	"\"Acme\"}}, \"bets\": {\"1\": {\"ante\": 2500}}, \"hands\": {\"1\": [\"As\",\"Ks\",\"Qs\"]}, " \
	"\"dealer\": [\"Qd\",\"7c\",\"2h\"], \"decisions\": {\"1\": \"play\"}}"

struct fixture {
	char db[256];
	struct config *cfg;
	struct store *store;
	struct pit pit;
	struct actor dealer;
	struct round_record rec;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	pit_fixture_open("replay", f->db, &f->cfg, &f->store, &f->pit);
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

/* Deals a whole round at table as the dealer terminal would; its id. */
static int64_t
whole_round(struct fixture *f, const char *table, const char *body)
{
	json_t *b = json_loads(body, 0, NULL), *out = NULL;
	struct pb_error err;
	int status = 0;
	int64_t id;

	assert_non_null(b);
	if (pit_round_open(&f->pit, &f->dealer, NULL, table, b, &out, &status, &err) < 0)
		fail_msg("%s: %s", table, err.message);
	id = json_integer_value(json_object_get(json_object_get(out, "round"), "id"));
	json_decref(b);
	json_decref(out);
	return id;
}

/* The round's events as stored. */
static void
events_of(struct fixture *f, int64_t id, struct event_list *evs)
{
	struct pb_error err;

	memset(evs, 0, sizeof(*evs));
	assert_int_equal(store_round_events_raw(f->store, id, evs, &err), 0);
	assert_true(evs->count > 0);
}

/* The index of the round's event of type in evs (its first). */
static int
event_index(const struct event_list *evs, const char *type)
{
	for (int i = 0; i < evs->count; i++)
		if (strcmp(evs->events[i].type, type) == 0)
			return i;
	fail_msg("the round has no %s event", type);
	return -1;
}

/*
 * Rewrites the body of the round's first event of type, as someone holding
 * the file would: find becomes repl in its stored text (which must hold it).
 */
static void
alter(struct event_list *evs, const char *type, const char *find, const char *repl)
{
	struct stored_event *e = &evs->events[event_index(evs, type)];
	char *at = strstr(e->body, find), *body;
	size_t n = strlen(e->body) - strlen(find) + strlen(repl) + 1;

	if (at == NULL)
		fail_msg("%s's body %s lacks %s", type, e->body, find);
	body = malloc(n);
	assert_non_null(body);
	snprintf(body, n, "%.*s%s%s", (int)(at - e->body), e->body, repl, at + strlen(find));
	free(e->body);
	e->body = body;
}

/* Replays evs into f->rec; the problems found (an array, the caller's). */
static json_t *
replay(struct fixture *f, const struct event_list *evs)
{
	json_t *problems = json_array();
	struct pb_error err;

	assert_non_null(problems);
	if (audit_round_from_events(evs, &f->rec, problems, &err) < 0)
		fail_msg("audit_round_from_events: %s", err.message);
	return problems;
}

/* problems is exactly one problem, of round id at the event of type in evs, saying "event N: " then want. */
static void
one_problem(const json_t *problems, const struct event_list *evs, int64_t id, const char *type, const char *want)
{
	const struct stored_event *e = &evs->events[event_index(evs, type)];
	const json_t *p = json_array_get(problems, 0);
	char text[512];

	if (json_array_size(problems) != 1) {
		char *all = json_dumps(problems, 0);
		fail_msg("wanted one problem, got %s", all);
	}
	snprintf(text, sizeof(text), "event %lld: %s", (long long)e->table_seq, want);
	assert_string_equal(json_string_value(json_object_get(p, "problem")), text);
	assert_string_equal(json_string_value(json_object_get(p, "table")), e->table_id);
	assert_int_equal(json_integer_value(json_object_get(p, "round")), id);
	assert_int_equal(json_integer_value(json_object_get(p, "event")), e->table_seq);
}

/* What the live path records is read back whole, and without a problem. */
static void
test_recorded_rounds_replay_clean(void **state)
{
	struct fixture *f = *state;
	int64_t house = whole_round(f, "T1", HOUSE_ROUND), banked = whole_round(f, "P1", BANKED_ROUND);
	struct event_list evs;
	json_t *problems;

	events_of(f, house, &evs);
	problems = replay(f, &evs);
	assert_int_equal(json_array_size(problems), 0);
	assert_int_equal(f->rec.state, ROUND_SETTLED);
	assert_string_equal(f->rec.table_id, "T1");
	assert_true(f->rec.has_bet[1] && f->rec.has_bet[3] && !f->rec.has_bet[2]);
	assert_int_equal(f->rec.bets[1].ante, 2500);
	assert_int_equal(f->rec.bets[1].pair_plus, 500);
	assert_int_equal(f->rec.bets[3].six_card, 500);
	assert_int_equal(f->rec.decisions[1], DECISION_PLAY);
	assert_int_equal(f->rec.decisions[3], DECISION_FOLD);
	assert_true(f->rec.has_hand[0] && f->rec.has_hand[1] && f->rec.has_hand[3]);
	assert_true(f->rec.dealer_qualifies);
	assert_true(f->rec.payout_count > 0);
	json_decref(problems);
	event_list_free(&evs);

	events_of(f, banked, &evs);
	problems = replay(f, &evs);
	assert_int_equal(json_array_size(problems), 0);
	assert_true(f->rec.player_banked);
	assert_int_equal(f->rec.banker_seat, 4);
	assert_int_equal(f->rec.bank, 100000);
	assert_string_equal(f->rec.provider_badge, "TP-1");
	assert_string_equal(f->rec.provider_company, "Acme");
	assert_true(f->rec.payouts[0].banked);
	json_decref(problems);
	event_list_free(&evs);
}

/* The tampered bet_placed of the issue: "seat": "3" and a missing "ante" are named, not read as 0. */
static void
test_bet_placed_field_named(void **state)
{
	struct fixture *f = *state;
	int64_t id = whole_round(f, "T1", HOUSE_ROUND);
	struct event_list evs;
	json_t *problems;
	struct pb_error err;

	events_of(f, id, &evs);
	alter(&evs, "bet_placed", "\"seat\":1", "\"seat\":\"1\"");
	problems = replay(f, &evs);
	one_problem(problems, &evs, id, "bet_placed", "a bet_placed event's \"seat\" is a string, not an integer");
	/* the replay went on: the round is settled, without the bet it could not read */
	assert_int_equal(f->rec.state, ROUND_SETTLED);
	assert_false(f->rec.has_bet[1]);
	assert_false(f->rec.has_bet[0]);
	assert_true(f->rec.has_bet[3]);
	json_decref(problems);
	/* a caller that wants only the round (GET /rounds/{id}) still gets it */
	assert_int_equal(audit_round_from_events(&evs, &f->rec, NULL, &err), 0);
	assert_int_equal(f->rec.state, ROUND_SETTLED);
	event_list_free(&evs);

	events_of(f, id, &evs);
	alter(&evs, "bet_placed", "\"ante\":2500,", "");
	problems = replay(f, &evs);
	one_problem(problems, &evs, id, "bet_placed", "a bet_placed event has no \"ante\"");
	assert_false(f->rec.has_bet[1]);
	json_decref(problems);
	event_list_free(&evs);

	events_of(f, id, &evs);
	alter(&evs, "bet_placed", "\"seat\":1", "\"seat\":12");
	problems = replay(f, &evs);
	one_problem(problems, &evs, id, "bet_placed", "a bet_placed event's \"seat\" is 12, not a seat (1..8)");
	json_decref(problems);
	event_list_free(&evs);
}

/* Every other step's fields, nested ones by their path. */
static void
test_each_step_names_its_field(void **state)
{
	static const struct {
		const char *type, *find, *repl, *want;
	} CASES[] = {
		{"round_opened", "\"round_no\":", "\"round_no\":\"x\",\"was\":", "a round_opened event's \"round_no\" is a "
		    "string, not an integer"},
		{"round_opened", "\"rules\":{", "\"rules\":{\"bogus\":1,", "a round_opened event's \"rules\" "
		    "cannot be read: "},
		{"cards_dealt", "\"3\":[\"Kc\",\"Kd\",\"9s\"]", "\"3\":[\"Kc\",\"Kd\",\"Zz\"]", "a cards_dealt event's "
		    "\"hands.3\" is not three cards such as [\"As\", \"Td\", \"2c\"]"},
		{"cards_dealt", "\"3\":[", "\"03\":[", "a cards_dealt event's \"hands.03\" names no seat (1..8)"},
		{"decision", "\"action\":\"play\"", "\"action\":\"raise\"", "a decision event's \"action\" is \"raise\", "
		    "neither play nor fold"},
		{"decision", "\"action\":\"play\",", "", "a decision event has no \"action\""},
		{"round_settled", "\"dealer_qualifies\":true", "\"dealer_qualifies\":1", "a round_settled event's "
		    "\"dealer_qualifies\" is an integer, not a boolean"},
		{"round_settled", "\"players_net\":", "\"players_net\":null,\"was\":", "a round_settled event's "
		    "\"players_net\" is null, not an integer"},
		{"round_settled", "\"seq\":2,\"stake\":", "\"seq\":2,\"stake\":\"x\",\"was\":", "a round_settled event's "
		    "\"payouts[1].stake\" is a string, not an integer"},
		{"round_settled", "\"result\":\"win\"", "\"result\":\"won\"", "].result\" is \"won\", which is no result "
		    "of a wager"},
		{"round_settled", "\"payouts\":[{", "\"payouts\":[7,{\"was\":7},{", "a round_settled event's \"payouts[0]\" is "
		    "an integer, not an object"},
	};
	struct fixture *f = *state;
	int64_t id = whole_round(f, "T1", HOUSE_ROUND);

	for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
		struct event_list evs;
		json_t *problems, *p;
		const char *text;

		events_of(f, id, &evs);
		alter(&evs, CASES[i].type, CASES[i].find, CASES[i].repl);
		problems = replay(f, &evs);
		p = json_array_get(problems, 0);
		text = json_string_value(json_object_get(p, "problem"));
		if (json_array_size(problems) != 1 || text == NULL || strstr(text, CASES[i].want) == NULL)
			fail_msg("%s %s: wanted one problem with \"%s\", got %s", CASES[i].type, CASES[i].repl, CASES[i].want,
			    text ? text : "none");
		assert_int_equal(json_integer_value(json_object_get(p, "round")), id);
		assert_int_equal(json_integer_value(json_object_get(p, "event")),
		    evs.events[event_index(&evs, CASES[i].type)].table_seq);
		json_decref(problems);
		event_list_free(&evs);
	}
}

/* A player-banked round's nested fields: the banker, who he is, the collections. */
static void
test_banked_round_names_nested_fields(void **state)
{
	static const struct {
		const char *type, *find, *repl, *want;
	} CASES[] = {
		{"round_opened", "\"company\":\"Acme\"", "\"firm\":\"Acme\"", "a round_opened event has no "
		    "\"banker.provider.company\""},
		{"round_opened", "\"bank\":100000", "\"bank\":\"100000\"", "a round_opened event's \"banker.bank\" is a "
		    "string, not an integer"},
		{"round_settled", "\"total\":", "\"total\":true,\"was\":", "a round_settled event's \"collections.total\" is "
		    "a boolean, not an integer"},
		{"round_settled", "\"bank_after\":", "\"bank_after\":\"x\",\"was\":", "a round_settled event's "
		    "\"payouts[0].bank_after\" is a string, not an integer"},
	};
	struct fixture *f = *state;
	int64_t id = whole_round(f, "P1", BANKED_ROUND);

	for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
		struct event_list evs;
		json_t *problems;

		events_of(f, id, &evs);
		alter(&evs, CASES[i].type, CASES[i].find, CASES[i].repl);
		problems = replay(f, &evs);
		one_problem(problems, &evs, id, CASES[i].type, CASES[i].want);
		json_decref(problems);
		event_list_free(&evs);
	}
}

/* A type the registry has, but no round's (a table's event in a round), is named as before. */
static void
test_event_of_no_round_named(void **state)
{
	struct fixture *f = *state;
	int64_t id = whole_round(f, "T1", HOUSE_ROUND);
	struct event_list evs;
	json_t *problems;
	struct stored_event *e;

	events_of(f, id, &evs);
	e = &evs.events[event_index(&evs, "betting_closed")];
	snprintf(e->type, sizeof(e->type), "table_opened");
	problems = replay(f, &evs);
	/* named, and the deal then follows a round still open for bets */
	assert_int_equal(json_array_size(problems), 2);
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(problems, 0), "problem")),
	    "unknown type \"table_opened\" or unreadable body"));
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(problems, 1), "problem")),
	    "(cards_dealt) cannot follow a round that is betting"));
	json_decref(problems);
	event_list_free(&evs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_recorded_rounds_replay_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bet_placed_field_named, setup, teardown),
		cmocka_unit_test_setup_teardown(test_each_step_names_its_field, setup, teardown),
		cmocka_unit_test_setup_teardown(test_banked_round_names_nested_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_of_no_round_named, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
