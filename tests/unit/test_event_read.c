/*
 * test_event_read.c - the one reader of a recorded event's body
 * (common/event_read.h), data-driven: each field read as what it is, as
 * absent and as null, and each wrong JSON type, absent required field and
 * oversized text refused with 422 unreadable_event naming the type, the
 * key and what was found; a value nested in a body read and refused the
 * same way, named by its path ("payouts[1].stake").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/event_read.h"

#define BODY "{\"seat\": 3, \"name\": \"Ana\", \"open\": true, \"limits\": {\"min\": 5}, \"dealer\": [\"As\"], " \
	"\"shift\": null, \"real\": 2.5, \"nul\": \"a\\u0000b\", \"text_seat\": \"3\"}"

static json_t *
body(void)
{
	json_t *b = json_loads(BODY, JSON_ALLOW_NUL, NULL);    /* a stored body never parses so: the reader still refuses it */

	assert_non_null(b);
	return b;
}

/* err is 422 unreadable_event and its message holds every fragment given. */
static void
refused_with(const struct pb_error *err, const char *f1, const char *f2, const char *f3)
{
	const char *frags[] = {f1, f2, f3};

	assert_int_equal(err->status, 422);
	assert_string_equal(err->code, "unreadable_event");
	for (size_t i = 0; i < 3; i++)
		if (frags[i] != NULL && strstr(err->message, frags[i]) == NULL)
			fail_msg("\"%s\" lacks \"%s\"", err->message, frags[i]);
}

static void
test_reads_what_is_there(void **state)
{
	json_t *b = body();
	struct pb_error err;
	char text[8];
	int64_t n;
	bool yes;
	const json_t *v;

	(void)state;
	assert_int_equal(event_int(b, "player_seated", "seat", EV_REQUIRED, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(event_text(b, "dealer_changed", "name", EV_REQUIRED, text, sizeof(text), &err), 0);
	assert_string_equal(text, "Ana");
	assert_int_equal(event_bool(b, "table_configured", "open", EV_REQUIRED, &yes, &err), 0);
	assert_true(yes);
	assert_int_equal(event_object(b, "table_configured", "limits", EV_REQUIRED, &v, &err), 0);
	assert_non_null(v);
	assert_int_equal(json_integer_value(json_object_get(v, "min")), 5);
	assert_int_equal(event_array(b, "cards_dealt", "dealer", EV_OPTIONAL, &v, &err), 0);
	assert_int_equal(json_array_size(v), 1);
	assert_int_equal(event_value(b, "x", "seat", EV_REQUIRED, JSON_INTEGER, &v, &err), 0);
	assert_ptr_equal(v, json_object_get(b, "seat"));
	json_decref(b);
}

/* Absent and optional, or null and nullable: "", 0, false, NULL. */
static void
test_absent_and_null(void **state)
{
	json_t *b = body();
	struct pb_error err;
	char text[8] = "x";
	int64_t n = 7;
	bool yes = true;
	const json_t *v = b;

	(void)state;
	assert_int_equal(event_text(b, "fill", "runner", EV_OPTIONAL, text, sizeof(text), &err), 0);
	assert_string_equal(text, "");
	assert_int_equal(event_int(b, "inventory", "discrepancy", EV_OPTIONAL, &n, &err), 0);
	assert_int_equal(n, 0);
	assert_int_equal(event_bool(b, "x", "anonymous", EV_OPTIONAL, &yes, &err), 0);
	assert_false(yes);
	assert_int_equal(event_object(b, "x", "collection", EV_OPTIONAL, &v, &err), 0);
	assert_null(v);
	strcpy(text, "x");
	assert_int_equal(event_text(b, "fill", "shift", EV_REQUIRED | EV_NULLABLE, text, sizeof(text), &err), 0);
	assert_string_equal(text, "");
	n = 7;
	assert_int_equal(event_int(b, "inventory", "shift", EV_REQUIRED | EV_NULLABLE, &n, &err), 0);
	assert_int_equal(n, 0);
	json_decref(b);
}

/* Every refusal names the type, the key and what was found. */
static void
test_refusals(void **state)
{
	json_t *b = body(), *arr = json_array();
	struct pb_error err;
	char text[8] = "x", small[3];
	int64_t n = 7;
	bool yes = true;
	const json_t *v = b;

	(void)state;
	/* a required field absent */
	assert_int_equal(event_int(b, "fill", "total", EV_REQUIRED, &n, &err), -1);
	refused_with(&err, "a fill event has no \"total\"", NULL, NULL);
	assert_int_equal(n, 0);
	assert_int_equal(event_text(b, "fill", "signer", EV_REQUIRED | EV_NULLABLE, text, sizeof(text), &err), -1);
	refused_with(&err, "fill", "\"signer\"", NULL);
	assert_string_equal(text, "");
	/* a value of another type: the "3" that used to become seat 0 */
	assert_int_equal(event_int(b, "player_seated", "text_seat", EV_REQUIRED, &n, &err), -1);
	refused_with(&err, "a player_seated event's \"text_seat\" is a string, not an integer", NULL, NULL);
	assert_int_equal(event_int(b, "drop", "real", EV_OPTIONAL, &n, &err), -1);
	refused_with(&err, "drop", "\"real\"", "a real number, not an integer");
	assert_int_equal(event_text(b, "fill", "seat", EV_OPTIONAL, text, sizeof(text), &err), -1);
	refused_with(&err, "\"seat\" is an integer, not a string", NULL, NULL);
	assert_int_equal(event_bool(b, "table_configured", "name", EV_REQUIRED, &yes, &err), -1);
	refused_with(&err, "\"name\" is a string, not a boolean", NULL, NULL);
	assert_int_equal(event_object(b, "x", "dealer", EV_REQUIRED, &v, &err), -1);
	refused_with(&err, "\"dealer\" is an array, not an object", NULL, NULL);
	assert_null(v);
	assert_int_equal(event_array(b, "x", "limits", EV_REQUIRED, &v, &err), -1);
	refused_with(&err, "\"limits\" is an object, not an array", NULL, NULL);
	/* null where the type has no null */
	assert_int_equal(event_text(b, "fill", "shift", EV_REQUIRED, text, sizeof(text), &err), -1);
	refused_with(&err, "\"shift\" is null, not a string", NULL, NULL);
	/* a text that does not fit, or that holds a NUL byte */
	assert_int_equal(event_text(b, "dealer_changed", "name", EV_REQUIRED, small, sizeof(small), &err), -1);
	refused_with(&err, "dealer_changed", "\"name\" is 3 bytes long", "more than the 2");
	assert_int_equal(event_text(b, "x", "nul", EV_REQUIRED, text, sizeof(text), &err), -1);
	refused_with(&err, "\"nul\" holds a NUL byte", NULL, NULL);
	/* a body that is no object */
	assert_int_equal(event_int(arr, "bet_placed", "seat", EV_REQUIRED, &n, &err), -1);
	refused_with(&err, "a bet_placed event's body is an array, not an object", NULL, NULL);
	assert_int_equal(event_int(NULL, "bet_placed", "seat", EV_OPTIONAL, &n, &err), -1);
	refused_with(&err, "bet_placed", "body", NULL);
	json_decref(arr);
	json_decref(b);
}

/* Values nested in a body: read as at the top, refused naming their path. */
static void
test_nested(void **state)
{
	json_t *b = json_loads("{\"payouts\": [{\"stake\": 500, \"wager\": \"ante\"}, {\"stake\": \"500\"}, 7], "
	    "\"banker\": {\"provider\": {\"badge\": \"B-1\"}}}", 0, NULL);
	const struct event_in top = {"round_settled", NULL, -1}, line0 = {"round_settled", "payouts", 0},
	    line1 = {"round_settled", "payouts", 1}, line2 = {"round_settled", "payouts", 2},
	    line5 = {"round_settled", "payouts", 5}, provider = {"round_opened", "banker.provider", -1};
	const json_t *payouts, *o;
	struct pb_error err;
	char text[8];
	int64_t n;

	(void)state;
	assert_non_null(b);
	assert_int_equal(event_array_in(b, &top, "payouts", EV_REQUIRED, &payouts, &err), 0);
	assert_int_equal(event_item_in(payouts, &line0, JSON_OBJECT, &o, &err), 0);
	assert_int_equal(event_int_in(o, &line0, "stake", EV_REQUIRED, &n, &err), 0);
	assert_int_equal(n, 500);
	assert_int_equal(event_text_in(o, &line0, "wager", EV_REQUIRED, text, sizeof(text), &err), 0);
	assert_string_equal(text, "ante");
	/* a member of another type, absent, too long; an element of another type or absent */
	assert_int_equal(event_item_in(payouts, &line1, JSON_OBJECT, &o, &err), 0);
	assert_int_equal(event_int_in(o, &line1, "stake", EV_REQUIRED, &n, &err), -1);
	refused_with(&err, "a round_settled event's \"payouts[1].stake\" is a string, not an integer", NULL, NULL);
	assert_int_equal(event_int_in(o, &line1, "net", EV_REQUIRED, &n, &err), -1);
	refused_with(&err, "a round_settled event has no \"payouts[1].net\"", NULL, NULL);
	assert_int_equal(event_text_in(o, &line1, "stake", EV_OPTIONAL, text, sizeof(text), &err), 0);
	assert_int_equal(event_text_in(o, &line1, "stake", EV_OPTIONAL, text, 3, &err), -1);
	refused_with(&err, "\"payouts[1].stake\" is 3 bytes long, more than the 2", NULL, NULL);
	assert_int_equal(event_item_in(payouts, &line2, JSON_OBJECT, &o, &err), -1);
	refused_with(&err, "a round_settled event's \"payouts[2]\" is an integer, not an object", NULL, NULL);
	assert_null(o);
	assert_int_equal(event_item_in(payouts, &line5, JSON_OBJECT, &o, &err), -1);
	refused_with(&err, "\"payouts[5]\" is absent", NULL, NULL);
	assert_int_equal(event_item_in(b, &line0, JSON_OBJECT, &o, &err), -1);
	refused_with(&err, "\"payouts\" is an object, not an array", NULL, NULL);
	/* a path of objects, and a value at it that is no object */
	o = json_object_get(json_object_get(b, "banker"), "provider");
	assert_int_equal(event_text_in(o, &provider, "company", EV_REQUIRED, text, sizeof(text), &err), -1);
	refused_with(&err, "a round_opened event has no \"banker.provider.company\"", NULL, NULL);
	assert_int_equal(event_text_in(payouts, &provider, "badge", EV_REQUIRED, text, sizeof(text), &err), -1);
	refused_with(&err, "a round_opened event's \"banker.provider\" is an array, not an object", NULL, NULL);
	/* a value refused for what it says, the top's fields by their key alone */
	assert_int_equal(event_refuse(&line0, "wager", &err, "is \"%s\", which is no wager", "tip"), -1);
	refused_with(&err, "a round_settled event's \"payouts[0].wager\" is \"tip\", which is no wager", NULL, NULL);
	assert_int_equal(event_refuse(&top, "seat", &err, "is %d, not a seat", 12), -1);
	refused_with(&err, "a round_settled event's \"seat\" is 12, not a seat", NULL, NULL);
	json_decref(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_what_is_there),
		cmocka_unit_test(test_absent_and_null),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_nested),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
