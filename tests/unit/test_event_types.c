/*
 * test_event_types.c - the registry of event types (table/core/event_types.h):
 * its rows are well formed and agree with the round's state machine
 * (engine/round.c); every row has an apply and a check, or the flag that
 * says why not, every round's step a replay and no other row one (the
 * replays themselves: test_replay.c), and its apply reads what the live path
 * records and refuses a wrong body naming the type and the field; the check
 * of an event refuses a row that is not well formed, a body that does not
 * match its row and a chain the type does not belong to, and
 * store_append_event writes nothing then; docs/audit.md's list of types
 * ("The event types") holds exactly the registry's types, each in its
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
#include "store/store.h"
#include "table/core/core.h"
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
	struct event_type bogus = {"bogus", EVENT_CHAIN_TABLE, EVENT_NO_STEP, EVENT_TYPES[EVT_TABLE_OPENED].fields, NULL, NULL,
	    0, NULL, "no apply and no reason why", NULL};
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
	refused(&bogus, "T1", 0, "{}", "\"bogus\" is not a row of the registry", "no apply");
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
	struct event_type bogus = EVENT_TYPES[EVT_TABLE_OPENED];    /* made a round's step in the table's chain */
	json_t *empty = json_object(), *wrong = json_pack("{s:s}", "note", "x");
	struct event_list evs;

	(void)state;
	temp_db_path(path, sizeof(path), "event-types");
	o.path = path;
	s = store_open(&o, &err);
	assert_non_null(s);
	bogus.name = "table_reopened";
	bogus.step = 3;
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_append_event(s, "T1", 0, &bogus, AT, "pb", empty, &err), -1);
	assert_int_equal(err.status, 500);
	assert_string_equal(err.code, "internal_error");
	assert_non_null(strstr(err.message, "\"table_reopened\" is not a row of the registry"));
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

/* ---- the dispatch: apply and check ---- */

/*
 * Every row has an apply and a check, or the one flag that says why not: a
 * round's step is applied and checked with its round, through its replay, a
 * type that changes no derived row has nothing to apply or check; every
 * other row's rows are compared by verify; every round's step has a replay
 * and no other row has one; and a row that breaks this is no row for the
 * store.
 */
static void
test_every_row_dispatches(void **state)
{
	const unsigned reasons = EVENT_WITH_ROUND | EVENT_NO_ROWS;
	struct event_type bad;

	(void)state;
	for (int i = 0; i < EVT_COUNT; i++) {
		const struct event_type *t = &EVENT_TYPES[i];
		unsigned why = t->flags & reasons;
		const char *wrong = event_type_malformed(t);

		if (wrong != NULL)
			fail_msg("%s: %s", t->name, wrong);
		assert_int_equal(event_type_id(t), i);
		assert_int_equal(t->replay != NULL, t->chain == EVENT_CHAIN_ROUND);
		if (t->chain == EVENT_CHAIN_ROUND) {
			assert_int_equal(why, EVENT_WITH_ROUND);
			assert_null(t->apply);
			assert_null(t->check);
		} else if (why == EVENT_NO_ROWS) {
			assert_null(t->apply);
			assert_null(t->check);
			assert_null(t->derived);
		} else {
			assert_int_equal(why, 0);
			assert_non_null(t->apply);
			assert_non_null(t->check);
		}
	}
	assert_int_equal(EVENT_TYPES[EVT_RULES_CHANGED].flags & reasons, EVENT_NO_ROWS);
	assert_int_equal(EVENT_TYPES[EVT_BANK_OFFERED].flags & reasons, EVENT_NO_ROWS);
	assert_ptr_equal(EVENT_TYPES[EVT_FILL].apply, EVENT_TYPES[EVT_DROP].apply);
	assert_ptr_equal(EVENT_TYPES[EVT_PLAYER_SEATED].check, EVENT_TYPES[EVT_TITLE31_ACKNOWLEDGED].check);
	assert_ptr_equal(EVENT_TYPES[EVT_BET_PLACED].replay, EVENT_TYPES[EVT_BET_REMOVED].replay);
	assert_ptr_equal(EVENT_TYPES[EVT_ROUND_SETTLED].replay, EVENT_TYPES[EVT_ROUND_VOIDED].replay);
	assert_ptr_equal(EVENT_TYPES[EVT_TABLE_OPENED].check, EVENT_TYPES[EVT_LIMITS_CHANGED].check);
	assert_non_null(EVENT_TYPES[EVT_DEALER_CHANGED].check);
	assert_int_equal(event_type_id(NULL), EVT_COUNT);
	/* each way of breaking the rule is caught */
	bad = EVENT_TYPES[EVT_FILL];
	bad.apply = NULL;
	assert_non_null(strstr(event_type_malformed(&bad), "no apply"));
	bad = EVENT_TYPES[EVT_FILL];
	bad.check = NULL;
	assert_non_null(strstr(event_type_malformed(&bad), "no check"));
	bad = EVENT_TYPES[EVT_DEALER_CHANGED];
	bad.check = NULL;
	assert_non_null(strstr(event_type_malformed(&bad), "no check"));
	bad = EVENT_TYPES[EVT_DEALER_CHANGED];
	bad.flags = EVENT_NO_ROWS;
	assert_non_null(event_type_malformed(&bad));
	bad = EVENT_TYPES[EVT_RULES_CHANGED];
	bad.flags |= EVENT_WITH_ROUND;
	assert_non_null(strstr(event_type_malformed(&bad), "more than one reason"));
	bad = EVENT_TYPES[EVT_BET_PLACED];
	bad.flags = 0;
	assert_non_null(strstr(event_type_malformed(&bad), "EVENT_WITH_ROUND"));
	bad = EVENT_TYPES[EVT_DECISION];              /* a round's step without its replay */
	bad.replay = NULL;
	assert_non_null(strstr(event_type_malformed(&bad), "has a replay"));
	bad = EVENT_TYPES[EVT_FILL];                  /* a table's event with one */
	bad.replay = EVENT_TYPES[EVT_DECISION].replay;
	assert_non_null(strstr(event_type_malformed(&bad), "has a replay"));
	bad = EVENT_TYPES[EVT_TABLE_OPENED];
	bad.step = 2;
	assert_non_null(strstr(event_type_malformed(&bad), "round step"));
	bad = EVENT_TYPES[EVT_RULES_CHANGED];
	bad.derived = "table_state";
	assert_non_null(strstr(event_type_malformed(&bad), "derived"));
	bad = EVENT_TYPES[EVT_TABLE_CLOSED];
	bad.name = "";
	assert_non_null(strstr(event_type_malformed(&bad), "no name"));
}

/* The event of type id at T1 (event 5), its body from text, applied to s: the apply's result, err filled. */
static int
apply_text(struct store *s, enum event_type_id id, const char *text, struct pb_error *err)
{
	const struct event_type *t = &EVENT_TYPES[id];
	struct stored_event e;
	json_t *body = json_loads(text, 0, NULL);
	int rc;

	assert_non_null(body);
	memset(&e, 0, sizeof(e));
	snprintf(e.table_id, sizeof(e.table_id), "%s", t->chain == EVENT_CHAIN_PLAYERS ? EVENT_PLAYERS_TABLE : "T1");
	e.table_seq = 5;
	snprintf(e.type, sizeof(e.type), "%s", t->name);
	snprintf(e.at, sizeof(e.at), "%s", AT);
	snprintf(e.actor, sizeof(e.actor), "FL1");
	memset(err, 0, sizeof(*err));
	rc = t->apply(s, t, &e, body, err);
	json_decref(body);
	return rc;
}

/* apply_text refused with 422 and code, the message holding both fragments. */
static void
apply_refused(struct store *s, enum event_type_id id, const char *text, const char *code, const char *f1, const char *f2)
{
	struct pb_error err;

	assert_int_equal(apply_text(s, id, text, &err), -1);
	assert_int_equal(err.status, 422);
	assert_string_equal(err.code, code);
	if (strstr(err.message, f1) == NULL || (f2 != NULL && strstr(err.message, f2) == NULL))
		fail_msg("\"%s\" lacks \"%s\" or \"%s\"", err.message, f1, f2 ? f2 : "");
}

/* The applies read what the live path records, and refuse a wrong body naming the type and the field. */
static void
test_apply_reads_bodies(void **state)
{
	struct store_options o = {.path = ":memory:"};
	struct pb_error err;
	struct store *s = store_open(&o, &err);
	const char *txn = "{\"amount\": 50000, \"direction\": \"in\", \"gaming_day\": \"2026-01-01\", \"id\": 1, "
	    "\"kind\": \"cash\", \"player\": \"P1\", \"seat\": %s}";
	char text[256];

	(void)state;
	assert_non_null(s);
	assert_int_equal(store_begin(s, &err), 0);
	/* the "3" that a restore used to take for seat 0 */
	snprintf(text, sizeof(text), txn, "\"3\"");
	apply_refused(s, EVT_TABLE_TRANSACTION, text, "unreadable_event", "a table_transaction event's \"seat\"",
	    "is a string, not an integer");
	apply_refused(s, EVT_PLAYER_SEATED, "{\"player\": \"P1\", \"seat\": \"3\"}", "unreadable_event",
	    "a player_seated event's \"seat\" is a string", NULL);
	apply_refused(s, EVT_PLAYER_SEATED, "{\"player\": \"P1\", \"seat\": 12}", "unreadable_event", "player_seated",
	    "not a seat");
	apply_refused(s, EVT_PLAYER_REGISTERED, "{\"anonymous\": true, \"description\": \"red cap\"}", "unreadable_event",
	    "a player_registered event has no \"id\"", NULL);
	apply_refused(s, EVT_PAYOUT_CORRECTED, "{\"difference\": -500, \"id\": 3, \"owed\": 1000, \"paid\": 500, "
	    "\"reason\": \"r\", \"round\": 9, \"seat\": 1, \"witness\": \"FL2\"}", "unreadable_event",
	    "a payout_corrected event has no \"wager\"", NULL);
	apply_refused(s, EVT_FILL, "{\"id\": 1}", "unreadable_event", "a fill event has no \"gaming_day\"", NULL);
	apply_refused(s, EVT_EXCEPTION_ACKNOWLEDGED, "{\"kind\": \"count_variance\", \"note\": 7, \"ref\": \"x\"}",
	    "unreadable_event", "an exception_acknowledged event's \"note\" is an integer, not a string", NULL);
	apply_refused(s, EVT_DEALER_CHANGED, "{\"name\": null, \"person\": null}", "event_out_of_order",
	    "before the table was configured", NULL);
	apply_refused(s, EVT_LIMITS_CHANGED, "{\"previous\": {}}", "unreadable_event", "a limits_changed event has no "
	    "\"limits\"", NULL);
	apply_refused(s, EVT_MANUAL_RATING, "{\"average_bet\": 2500, \"decisions_per_hour\": 60, \"gaming_day\": "
	    "\"2026-01-01\", \"id\": 1, \"minutes\": 90, \"player\": \"P1\", \"table\": null}", "unreadable_event",
	    "a manual_rating event has no \"game\"", NULL);
	apply_refused(s, EVT_MANUAL_RATING, "{\"average_bet\": 0, \"decisions_per_hour\": 60, \"game\": \"standard\", "
	    "\"gaming_day\": \"2026-01-01\", \"id\": 1, \"minutes\": 90, \"player\": \"P1\", \"table\": null}",
	    "unreadable_event", "manual_rating", "not above 0");
	/* what the live path records is applied */
	snprintf(text, sizeof(text), txn, "null");
	assert_int_equal(apply_text(s, EVT_TABLE_TRANSACTION, text, &err), 0);
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM table_transactions WHERE id = 1 AND seat IS NULL"), 1);
	assert_int_equal(apply_text(s, EVT_PLAYER_REGISTERED, "{\"anonymous\": false, \"card\": \"100001\", \"id\": "
	    "\"P1\", \"name\": \"Ana Lopez\"}", &err), 0);
	assert_int_equal(apply_text(s, EVT_PLAYER_SEATED, "{\"player\": \"P1\", \"seat\": 3}", &err), 0);
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM seat_players WHERE table_id = 'T1' AND seat = 3 AND "
	    "player_id = 'P1'"), 1);
	assert_int_equal(apply_text(s, EVT_PLAYER_LEFT, "{\"player\": \"P1\", \"seat\": 3}", &err), 0);
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM seat_players"), 0);
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM seat_changes WHERE by = 'FL1'"), 2);
	assert_int_equal(apply_text(s, EVT_MANUAL_RATING, "{\"average_bet\": 2500, \"decisions_per_hour\": 60, \"game\": "
	    "\"standard\", \"gaming_day\": \"2026-01-01\", \"id\": 1, \"minutes\": 90, \"player\": \"P1\", "
	    "\"table\": null}", &err), 0);
	assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM manual_ratings WHERE id = 1 AND table_id IS NULL AND "
	    "note IS NULL AND by = 'FL1' AND average_bet = 2500"), 1);
	assert_int_equal(store_commit(s, &err), 0);
	store_free(s);
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
			print_error("docs/audit.md: `%s` is no type of the registry (table/core/event_types.c)\n", rows[j].name);
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
		cmocka_unit_test(test_every_row_dispatches),
		cmocka_unit_test(test_apply_reads_bodies),
		cmocka_unit_test(test_docs_list_every_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
