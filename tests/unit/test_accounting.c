/*
 * test_accounting.c - the chip counts of the accounting documents
 * (table/accounting/accounting.h): totals to the cent, each refusal,
 * overflow, the differences an opener's refusal names; and a document's
 * event body read back into the same document (acct_events.c), which is
 * what central restore relies on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store/accounting.h"
#include "store/event_types.h"
#include "table/accounting/accounting.h"

static struct config cfg;

static void
set_chips(const int64_t *chips, size_t n)
{
	memset(&cfg, 0, sizeof(cfg));
	memcpy(cfg.chips, chips, n * sizeof(chips[0]));
	cfg.chip_count = n;
}

static int
read_text(const char *text, struct acct_chips *c, struct pb_error *err)
{
	json_t *v = json_loads(text, 0, NULL);
	int rc;

	assert_non_null(v);
	rc = acct_chips_read(v, &cfg, "chips", c, err);
	json_decref(v);
	return rc;
}

static void
refused(const char *text, const char *code, const char *in_message)
{
	struct acct_chips c;
	struct pb_error err;

	assert_int_equal(read_text(text, &c, &err), -1);
	assert_int_equal(err.status, 400);
	assert_string_equal(err.code, code);
	assert_non_null(strstr(err.message, in_message));
}

static void
test_totals(void **state)
{
	static const int64_t CHIPS[] = {100, 500, 2500, 10000, 50000, 100000, 500000};
	struct acct_chips c;
	struct pb_error err;
	json_t *o;
	char *text;

	(void)state;
	set_chips(CHIPS, 7);
	assert_int_equal(read_text("{\"2500\": 40, \"500\": 20, \"100\": 7, \"500000\": 0}", &c, &err), 0);
	assert_int_equal(c.total, 40 * 2500 + 20 * 500 + 7 * 100);
	assert_true(c.given[6]);
	o = acct_chips_json(&cfg, &c);
	text = json_dumps(o, JSON_COMPACT);
	assert_string_equal(text, "{\"100\":7,\"500\":20,\"2500\":40,\"500000\":0}");   /* every one given, ascending */
	free(text);
	json_decref(o);
	assert_int_equal(read_text("{\"100000\": 100000}", &c, &err), 0);
	assert_int_equal(c.total, 10000000000LL);
}

static void
test_refusals(void **state)
{
	static const int64_t CHIPS[] = {100, 500, 2500};

	(void)state;
	set_chips(CHIPS, 3);
	refused("{}", "empty_chips", "100, 500, 2500");
	refused("[1]", "empty_chips", "per denomination");
	refused("{\"300\": 1}", "unknown_denomination", "they are 100, 500, 2500");
	refused("{\"0100\": 1}", "unknown_denomination", "\"0100\"");
	refused("{\"25.00\": 1}", "unknown_denomination", "25.00");
	refused("{\"2500\": -1}", "invalid_count", "chips.2500");
	refused("{\"2500\": 1.0}", "invalid_count", "an integer");
	refused("{\"2500\": \"4\"}", "invalid_count", "an integer");
	refused("{\"2500\": 100001}", "invalid_count", "100000");
}

static void
test_overflow(void **state)
{
	static const int64_t CHIPS[] = {100, 1000000000000LL};
	struct acct_chips c;
	struct pb_error err;

	(void)state;
	set_chips(CHIPS, 2);
	assert_int_equal(read_text("{\"1000000000000\": 1}", &c, &err), 0);     /* exactly the most */
	assert_int_equal(c.total, 1000000000000LL);
	refused("{\"1000000000000\": 1, \"100\": 1}", "total_overflow", "count again");
	refused("{\"1000000000000\": 100000}", "total_overflow", "over");
}

static void
test_differences(void **state)
{
	static const int64_t CHIPS[] = {100, 500, 2500};
	struct acct_chips a, b;
	struct pb_error err;
	char text[200];

	(void)state;
	set_chips(CHIPS, 3);
	assert_int_equal(read_text("{\"2500\": 38, \"500\": 12}", &a, &err), 0);
	assert_int_equal(read_text("{\"2500\": 40, \"500\": 10, \"100\": 0}", &b, &err), 0);
	assert_false(acct_chips_equal(&a, &b));
	acct_chips_differences(&cfg, "USD", &a, &b, text, sizeof(text));
	assert_string_equal(text, "12 x $5 (was 10), 38 x $25 (was 40)");
	acct_chips_differences(&cfg, "JPY", &a, &b, text, sizeof(text));
	assert_string_equal(text, "12 x \xc2\xa5" "500 (was 10), 38 x \xc2\xa5" "2,500 (was 40)");
	assert_int_equal(read_text("{\"2500\": 40, \"500\": 10}", &a, &err), 0);
	assert_true(acct_chips_equal(&a, &b));        /* a denomination left out counts 0 */
}

/* Each kind of document: its body, read back, is the same document. */
static void
test_body_round_trip(void **state)
{
	static const char *const KINDS[] = {"opener", "closer", "fill", "credit", "fill_void", "credit_void", "drop"};
	struct acct_document d, back;
	struct pb_error err;

	(void)state;
	for (size_t k = 0; k < sizeof(KINDS) / sizeof(KINDS[0]); k++) {
		bool drop = strcmp(KINDS[k], "drop") == 0, is_void = strstr(KINDS[k], "void") != NULL;
		bool inventory = strcmp(KINDS[k], "opener") == 0 || strcmp(KINDS[k], "closer") == 0;
		json_t *b;
		memset(&d, 0, sizeof(d));
		d.id = 17 + (int64_t)k;
		strcpy(d.table_id, "T1");
		strcpy(d.kind, KINDS[k]);
		strcpy(d.at, "2026-11-26T03:50:04.123Z");
		strcpy(d.gaming_day, "2026-11-25");
		strcpy(d.shift, k % 2 ? "grave" : "");
		strcpy(d.signer, "FL1");
		strcpy(d.witness, "DL1");
		d.total = 130000;
		if (!drop && !is_void)
			strcpy(d.chips_json, "{\"100\":100,\"2500\":40,\"500\":40}");
		if (inventory) {
			d.has_discrepancy = k == 0;
			d.discrepancy = k == 0 ? -5000 : 0;
			strcpy(d.reason, k == 0 ? "two chips on the floor" : "");
		} else if (!drop) {
			strcpy(d.serial, "F-000123");
			d.year = 2026;
		}
		if (strcmp(KINDS[k], "fill") == 0) {
			strcpy(d.runner, "RN1");
			strcpy(d.requester, "FL1");
		}
		if (is_void) {
			d.voids = 3;
			strcpy(d.reason, "wrong table");
		}
		if (drop) {
			strcpy(d.serial, "D-17");
			d.cash = 100000;
			d.chip_value = 20000;
			d.markers = 10000;
			d.collections = 0;
		}
		b = acct_body(&d);
		assert_non_null(b);
		assert_int_equal(acct_from_body("T1", d.at, acct_event_type(d.kind), b, &back, &err), 0);
		/* the body is what the registry's row of its type says */
		assert_int_equal(event_check(acct_event_type(d.kind), "T1", 0, b, &err), 0);
		assert_memory_equal(&d, &back, sizeof(d));
		json_decref(b);
	}
	/* a body that is no document is refused, naming its type and the field */
	{
		json_t *b = json_pack("{s:s}", "kind", "opener");
		assert_int_equal(acct_from_body("T1", "2026-11-26T03:50:04.123Z", &EVENT_TYPES[EVT_INVENTORY], b, &back, &err),
		    -1);
		assert_string_equal(err.code, "unreadable_event");
		assert_string_equal(err.message, "an inventory event has no \"id\"");
		json_decref(b);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_differences),
		cmocka_unit_test(test_body_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
