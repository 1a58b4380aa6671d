/*
 * test_event_types.c - the registry of event types (store/event_types.h):
 * its rows are well formed and agree with the round's state machine
 * (engine/round.c); the check of an event refuses a type that is not a row,
 * a body that does not match its row and a chain the type does not belong
 * to, and store_append_event writes nothing then; docs/audit.md's list of
 * types ("The event types") holds exactly the registry's types, each in its
 * chain, both ways.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/round.h"
#include "store/audit.h"
#include "store/event_types.h"
#include "store/store.h"
#include "temp_db.h"

#define DOC_PATH PB_SOURCE_DIR "/docs/audit.md"
#define AT "2026-01-01T00:00:00.000Z"

/* ---- the rows ---- */

static void
test_rows_are_well_formed(void **state)
{
	(void)state;
	for (int i = 0; i < EVT_COUNT; i++) {
		const struct event_type *t = &EVENT_TYPES[i];

		assert_non_null(t->name);               /* every EVT_ index has its row */
		assert_true(strspn(t->name, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(t->name));
		assert_non_null(t->description);
		assert_true(t->description[0] != '\0' && strchr(t->description, '\n') == NULL);
		assert_non_null(t->fields);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(EVENT_TYPES[j].name, t->name);
		/* a round's event is a step of the state machine, and only a round's event is */
		assert_int_equal(t->chain == EVENT_CHAIN_ROUND, t->step != EVENT_NO_STEP);
		/* personal data is kept out of the tables' chains */
		if (t->flags & EVENT_PERSONAL)
			assert_int_equal(t->chain, EVENT_CHAIN_PLAYERS);
		for (const struct event_field *f = t->fields; f->key != NULL; f++) {
			assert_true(f->types != 0 && (f->types & ~(EF_STRING | EF_INTEGER | EF_BOOLEAN | EF_OBJECT | EF_ARRAY |
			    EF_NULL)) == 0);
			if (f[1].key != NULL)               /* in key order, each key once: the canonical text's order */
				assert_true(strcmp(f->key, f[1].key) < 0);
		}
	}
	assert_int_equal(EVENT_TYPES[EVT_PLAYER_REGISTERED].flags & EVENT_PERSONAL, EVENT_PERSONAL);
	assert_int_equal(EVENT_TYPES[EVT_TITLE31_ACKNOWLEDGED].flags & EVENT_PERSONAL, EVENT_PERSONAL);
	assert_int_equal(EVENT_TYPES[EVT_TABLE_TRANSACTION].chain, EVENT_CHAIN_TABLE);
}

/* Each step of the state machine records the type whose row says it is that step, and the replay finds it back. */
static void
test_steps_match_the_state_machine(void **state)
{
	int rows = 0;

	(void)state;
	for (int step = 0; step < ROUND_STEP_COUNT; step++) {
		const struct event_type *t = event_type_of_step(step);

		assert_non_null(t);
		assert_int_equal(t->step, step);
		assert_int_equal(t->chain, EVENT_CHAIN_ROUND);
		assert_string_equal(t->name, round_step_rule((enum round_step)step)->event);
		assert_int_equal(round_step_by_event(t->name), step);
	}
	for (int i = 0; i < EVT_COUNT; i++)
		rows += EVENT_TYPES[i].chain == EVENT_CHAIN_ROUND;
	assert_int_equal(rows, ROUND_STEP_COUNT);
	assert_null(event_type_of_step(EVENT_NO_STEP));
	assert_null(event_type_of_step(ROUND_STEP_COUNT));
}

static void
test_lookups(void **state)
{
	struct event_type copy = EVENT_TYPES[EVT_FILL];
	char buf[64];

	(void)state;
	for (int i = 0; i < EVT_COUNT; i++) {
		assert_ptr_equal(event_type_named(EVENT_TYPES[i].name), &EVENT_TYPES[i]);
		assert_true(event_type_registered(&EVENT_TYPES[i]));
	}
	assert_null(event_type_named("bogus"));
	assert_null(event_type_named(""));
	assert_null(event_type_named("round_opened "));
	assert_false(event_type_registered(NULL));
	assert_false(event_type_registered(&copy));     /* the same row, not the registry's */
	assert_string_equal(event_chain_name(EVENT_CHAIN_ROUND), "round");
	assert_string_equal(event_chain_name(EVENT_CHAIN_TABLE), "table");
	assert_string_equal(event_chain_name(EVENT_CHAIN_PLAYERS), "players");
	assert_string_equal(event_field_types(EF_STRING, buf, sizeof(buf)), "string");
	assert_string_equal(event_field_types(EF_STRING | EF_NULL, buf, sizeof(buf)), "string|null");
	assert_string_equal(event_field_types(EF_NULL | EF_INTEGER, buf, sizeof(buf)), "integer|null");
	assert_string_equal(event_field_types(EF_BOOLEAN | EF_OBJECT | EF_ARRAY, buf, sizeof(buf)), "boolean|object|array");
	assert_string_equal(event_field_types(EF_STRING | EF_NULL, buf, 7), "string");   /* what fits */
}

/* ---- the check of an event ---- */

/* event_check refuses with 500 internal_error and a message holding each fragment given. */
static void
refused(const struct event_type *t, const char *table, int64_t round, const char *body_text, const char *frag1,
    const char *frag2)
{
	struct pb_error err;
	json_t *body = json_loads(body_text, JSON_DECODE_ANY, NULL);

	assert_non_null(body);
	memset(&err, 0, sizeof(err));
	assert_int_equal(event_check(t, table, round, body, &err), -1);
	assert_int_equal(err.status, 500);
	assert_string_equal(err.code, "internal_error");
	if (strstr(err.message, frag1) == NULL || (frag2 != NULL && strstr(err.message, frag2) == NULL))
		fail_msg("\"%s\" lacks \"%s\" or \"%s\"", err.message, frag1, frag2 ? frag2 : "");
	json_decref(body);
}

static void
accepted(const struct event_type *t, const char *table, int64_t round, const char *body_text)
{
	struct pb_error err;
	json_t *body = json_loads(body_text, 0, NULL);

	assert_non_null(body);
	if (event_check(t, table, round, body, &err) < 0)
		fail_msg("%s %s refused: %s", t->name, body_text, err.message);
	json_decref(body);
}

static void
test_check(void **state)
{
	const struct event_type *bet = &EVENT_TYPES[EVT_BET_PLACED], *dealer = &EVENT_TYPES[EVT_DEALER_CHANGED];
	struct event_type bogus = {"bogus", EVENT_CHAIN_TABLE, EVENT_NO_STEP, EVENT_TYPES[EVT_TABLE_OPENED].fields, 0, NULL,
	    "not one of the registry's"};
	const char *bet_ok = "{\"ante\": 1000, \"pair_plus\": 0, \"seat\": 2, \"six_card\": 0}";

	(void)state;
	accepted(bet, "T1", 7, bet_ok);
	accepted(&EVENT_TYPES[EVT_BETTING_CLOSED], "T1", 7, "{}");
	accepted(dealer, "T1", 0, "{\"name\": null, \"person\": null}");
	accepted(dealer, "T1", 0, "{\"name\": \"Ana Ruiz\", \"person\": \"E1027\"}");
	accepted(&EVENT_TYPES[EVT_PAYOUT_CORRECTED], "T1", 0, "{\"difference\": -500, \"id\": 3, \"owed\": 1000, \"paid\": "
	    "500, \"reason\": \"r\", \"round\": 9, \"seat\": 1, \"wager\": \"ante\", \"witness\": \"FL1\"}");
	accepted(&EVENT_TYPES[EVT_PLAYER_UPDATED], "_players", 0, "{\"anonymous\": true, \"description\": \"red cap\", "
	    "\"id\": \"P2\"}");
	/* a type that is no row of the registry, named */
	refused(NULL, "T1", 0, "{}", "without a type", NULL);
	refused(&bogus, "T1", 0, "{}", "\"bogus\"", "not in the registry");
	/* the body against the row, the type and the key named */
	refused(bet, "T1", 7, "{\"ante\": 1000, \"pair_plus\": 0, \"seat\": 2}", "bet_placed", "\"six_card\"");
	refused(bet, "T1", 7, "{\"ante\": 1000, \"pair_plus\": 0, \"seat\": 2, \"six_card\": 0, \"tip\": 5}", "bet_placed",
	    "\"tip\", which is no field");
	refused(bet, "T1", 7, "{\"ante\": 1000, \"pair_plus\": 0, \"seat\": \"2\", \"six_card\": 0}", "\"seat\"",
	    "not of type integer");
	refused(bet, "T1", 7, "{\"ante\": 10.5, \"pair_plus\": 0, \"seat\": 2, \"six_card\": 0}", "\"ante\"", "integer");
	refused(bet, "T1", 7, "{\"ante\": null, \"pair_plus\": 0, \"seat\": 2, \"six_card\": 0}", "\"ante\"", "integer");
	refused(dealer, "T1", 0, "{\"name\": null, \"person\": 7}", "\"person\"", "string|null");
	refused(dealer, "T1", 0, "[]", "dealer_changed", "not a JSON object");
	refused(&EVENT_TYPES[EVT_TABLE_OPENED], "T1", 0, "{\"note\": \"x\"}", "table_opened", "\"note\"");
	/* the chain */
	refused(bet, "T1", 0, bet_ok, "bet_placed", "without a round");
	refused(dealer, "T1", 7, "{\"name\": null, \"person\": null}", "dealer_changed", "as a round's");
	refused(&EVENT_TYPES[EVT_PLAYER_UPDATED], "T1", 0, "{\"anonymous\": true, \"id\": \"P2\"}", "player_updated",
	    "outside the chain _players");
	refused(dealer, "_players", 0, "{\"name\": null, \"person\": null}", "dealer_changed", "in the players' chain");
}

/* store_append_event refuses what event_check refuses, and writes nothing of it; a matching event is written. */
static void
test_append_refuses_and_writes_nothing(void **state)
{
	char path[256];
	struct store_options o = {0};
	struct pb_error err;
	struct store *s;
	struct event_type bogus = EVENT_TYPES[EVT_TABLE_OPENED];
	json_t *empty = json_object(), *wrong = json_pack("{s:s}", "note", "x");
	struct event_list evs;

	(void)state;
	temp_db_path(path, sizeof(path), "event-types");
	o.path = path;
	s = store_open(&o, &err);
	assert_non_null(s);
	bogus.name = "table_reopened";
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_append_event(s, "T1", 0, &bogus, AT, "pb", empty, &err), -1);
	assert_int_equal(err.status, 500);
	assert_string_equal(err.code, "internal_error");
	assert_non_null(strstr(err.message, "\"table_reopened\" is not in the registry"));
	assert_int_equal(store_append_event(s, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "pb", wrong, &err), -1);
	assert_non_null(strstr(err.message, "\"note\""));
	assert_int_equal(store_append_event(s, "T1", 3, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "pb", empty, &err), -1);
	assert_int_equal(store_append_event(s, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], AT, "pb", empty, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	/* only the one that matched: event 1, nothing before it */
	assert_int_equal(store_events_range(s, "T1", 1, 0, &evs, &err), 0);
	assert_int_equal(evs.count, 1);
	assert_int_equal(evs.events[0].table_seq, 1);
	assert_string_equal(evs.events[0].type, "table_opened");
	event_list_free(&evs);
	json_decref(empty);
	json_decref(wrong);
	store_free(s);
	temp_db_remove(path);
}

/* ---- docs/audit.md's list ---- */

static char *
read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf != NULL)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A row of the list: "| `TYPE` | CHAIN | what it records |". */
struct doc_type {
	char name[64];
	char chain[16];
	bool matched;
};

/* The rows of the "### The event types" part of docs/audit.md whose first cell is one `name`; their count. */
static size_t
read_doc_types(struct doc_type *rows, size_t max)
{
	char *text = read_text(DOC_PATH), *line, *save = NULL;
	size_t n = 0;
	bool in = false;

	if (text == NULL)
		fail_msg("cannot read %s", DOC_PATH);
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		const char *name, *end, *chain;

		if (line[0] == '#')
			in = strcmp(line, "### The event types") == 0;
		if (!in || strncmp(line, "| `", 3) != 0 || n == max)
			continue;
		name = line + 3;
		end = strstr(name, "` |");
		if (end == NULL || memchr(name, '`', (size_t)(end - name)) != NULL)
			fail_msg("docs/audit.md: a row of the event types whose first cell is not one `type`: %.60s", line);
		chain = end + 3;
		while (*chain == ' ')
			chain++;
		snprintf(rows[n].name, sizeof(rows[n].name), "%.*s", (int)(end - name), name);
		snprintf(rows[n].chain, sizeof(rows[n].chain), "%.*s", (int)strcspn(chain, " |"), chain);
		rows[n].matched = false;
		n++;
	}
	free(text);
	return n;
}

/* Every registered type is in docs/audit.md's list with its chain, and every type listed there is registered. */
static void
test_docs_list_every_type(void **state)
{
	struct doc_type rows[128];
	size_t n = read_doc_types(rows, 128);
	int failures = 0;

	(void)state;
	assert_true(n > 0);
	for (int i = 0; i < EVT_COUNT; i++) {
		const struct event_type *t = &EVENT_TYPES[i];
		size_t j = 0;

		while (j < n && strcmp(rows[j].name, t->name) != 0)
			j++;
		if (j == n) {
			print_error("docs/audit.md: `%s` is not in \"The event types\"\n", t->name);
			failures++;
			continue;
		}
		if (rows[j].matched) {
			print_error("docs/audit.md: `%s` is listed twice\n", t->name);
			failures++;
		}
		rows[j].matched = true;
		if (strcmp(rows[j].chain, event_chain_name(t->chain)) != 0) {
			print_error("docs/audit.md: `%s` is in the %s chain, the list says %s\n", t->name,
			    event_chain_name(t->chain), rows[j].chain);
			failures++;
		}
	}
	for (size_t j = 0; j < n; j++)
		if (!rows[j].matched && event_type_named(rows[j].name) == NULL) {
			print_error("docs/audit.md: `%s` is no type of the registry (store/event_types.c)\n", rows[j].name);
			failures++;
		}
	assert_int_equal(failures, 0);
	assert_int_equal(n, EVT_COUNT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_are_well_formed),
		cmocka_unit_test(test_steps_match_the_state_machine),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_append_refuses_and_writes_nothing),
		cmocka_unit_test(test_docs_list_every_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
