/*
 * acct_count_sheet.c - a drop's count sheet (accounting.h): the bills by
 * denomination, the chips by the property's denominations, the markers and
 * the coupons, checked and totalled exactly in cents.
 */
#include "table/accounting/acct_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/limits.h"

/* The US bills a count sheet counts, in cents: $1, $2, $5, $10, $20, $50, $100. */
static const int64_t BILLS[] = {100, 200, 500, 1000, 2000, 5000, 10000};
#define BILL_KINDS (sizeof(BILLS) / sizeof(BILLS[0]))

/* The index of the bill spelt key ("10000"), or -1. */
static int
bill_index(const char *key)
{
	return acct_denomination_index(key, BILLS, BILL_KINDS);
}

/* a + b into *sum, refused beyond PB_MONEY_MAX (400 total_overflow). */
static int
add_money(int64_t *sum, int64_t b, struct pb_error *err)
{
	if (__builtin_add_overflow(*sum, b, sum) || *sum > PB_MONEY_MAX)
		return pb_fail(err, 400, "total_overflow", "count: the drop is over the largest amount pitboss "
		    "records; count again");
	return 0;
}

/* "cash": {"BILL": COUNT, ...} (absent or {}: no cash): its value into *total, each count into the sheet's cash. */
static int
read_cash(const json_t *v, json_t *cash, int64_t *total, struct pb_error *err)
{
	const char *key;
	const json_t *n;

	*total = 0;
	if (v == NULL)
		return 0;
	if (!json_is_object(v))
		return pb_fail(err, 400, "invalid_body", "count.cash: the bills counted per denomination in cents, e.g. "
		    "{\"10000\": 12, \"2000\": 30}; the denominations are 100, 200, 500, 1000, 2000, 5000, 10000");
	json_object_foreach((json_t *)v, key, n) {
		int i = bill_index(key);
		int64_t value;
		if (i < 0)
			return pb_fail(err, 400, "unknown_denomination", "count.cash: \"%.24s\" is not a bill; the bills are 100, "
			    "200, 500, 1000, 2000, 5000, 10000 (cents)", key);
		if (!json_is_integer(n) || json_integer_value(n) < 0 || json_integer_value(n) > ACCT_BILL_COUNT_MAX)
			return pb_fail(err, 400, "invalid_count", "count.cash.%s: a count of bills, an integer from 0 to %d", key,
			    ACCT_BILL_COUNT_MAX);
		value = json_integer_value(n) * BILLS[i];      /* at most 10^6 x 10^4: no overflow */
		if (add_money(total, value, err) < 0)
			return -1;
		json_object_set_new(cash, key, json_integer(json_integer_value(n)));
	}
	return 0;
}

/* The sheet's amount key (absent: 0), checked as an amount of cents. */
static int
read_cents(const json_t *count, const char *key, int64_t *out, struct pb_error *err)
{
	const json_t *v = json_object_get(count, key);
	char field[24];

	*out = 0;
	snprintf(field, sizeof(field), "count.%s", key);
	return v == NULL ? 0 : input_amount(v, field, out, err);
}

/* The sheet's parts into out and its text; 500 when out of memory. */
static int
sheet_text(json_t *cash, json_t *chips, struct acct_count_sheet *out, struct pb_error *err)
{
	json_t *o = json_pack("{s:O,s:O,s:I,s:I}", "cash", cash, "chips", chips, "markers", (json_int_t)out->markers,
	    "coupons", (json_int_t)out->coupons);
	char *text = o ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	int rc = 0;

	if (text == NULL || strlen(text) >= sizeof(out->json))
		rc = text == NULL ? pb_oom(err) : pb_fail(err, 400, "invalid_body", "count: the sheet is longer than a document holds");
	else
		snprintf(out->json, sizeof(out->json), "%s", text);
	free(text);
	json_decref(o);
	return rc;
}

int
acct_count_sheet_read(const json_t *v, const struct config *cfg, struct acct_count_sheet *out, struct pb_error *err)
{
	static const char *const KEYS[] = {"cash", "chips", "markers", "coupons", NULL};
	const json_t *chips_in;
	json_t *cash = json_object(), *chips = NULL;
	struct acct_chips counted;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (cash == NULL)
		return pb_oom(err);
	if (!json_is_object(v)) {
		pb_fail(err, 400, "invalid_body", "count: the count sheet, {\"cash\": {\"10000\": 12, ...}, \"chips\": "
		    "{\"2500\": 4, ...}, \"markers\": CENTS, \"coupons\": CENTS}");
		goto out;
	}
	if (input_known_keys(v, "count", KEYS, err) < 0 || read_cash(json_object_get(v, "cash"), cash, &out->cash, err) < 0)
		goto out;
	chips_in = json_object_get(v, "chips");
	memset(&counted, 0, sizeof(counted));
	if (chips_in != NULL && !(json_is_object(chips_in) && json_object_size(chips_in) == 0) &&
	    acct_chips_read(chips_in, cfg, "count.chips", &counted, err) < 0)
		goto out;
	out->chip_value = counted.total;
	if ((chips = acct_chips_json(cfg, &counted)) == NULL) {     /* every denomination given; {} for none */
		pb_oom(err);
		goto out;
	}
	if (read_cents(v, "markers", &out->markers, err) < 0 || read_cents(v, "coupons", &out->coupons, err) < 0)
		goto out;
	out->total = out->cash;
	if (add_money(&out->total, out->chip_value, err) < 0 || add_money(&out->total, out->markers, err) < 0)
		goto out;
	rc = sheet_text(cash, chips, out, err);
out:
	json_decref(cash);
	json_decref(chips);
	return rc;
}
