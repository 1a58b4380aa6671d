/*
 * test_money_text.c - amounts as sentences say them (common/money_text.h):
 * the sign of each currency, its decimals, grouping, negatives and the
 * extremes of an int64, and the short form of a chip's value.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/money_text.h"

static void
test_usd(void **state)
{
	char out[MONEY_TEXT_LEN];

	(void)state;
	assert_string_equal(money_text(123450, "USD", out), "$1,234.50");
	assert_string_equal(money_text(0, "USD", out), "$0.00");
	assert_string_equal(money_text(5, "USD", out), "$0.05");
	assert_string_equal(money_text(-2000, "USD", out), "-$20.00");
	assert_string_equal(money_text(100000000, NULL, out), "$1,000,000.00");
	assert_string_equal(money_text(99999, "", out), "$999.99");
}

static void
test_other_currencies(void **state)
{
	char out[MONEY_TEXT_LEN];

	(void)state;
	assert_string_equal(money_text(123450, "EUR", out), "\xe2\x82\xac" "1,234.50");
	assert_string_equal(money_text(-50, "GBP", out), "-\xc2\xa3" "0.50");
	assert_string_equal(money_text(2500, "JPY", out), "\xc2\xa5" "2,500");
	assert_string_equal(money_text(1234567, "BHD", out), "BHD 1,234.567");
	assert_string_equal(money_text(995, "CHF", out), "CHF 9.95");
}

static void
test_extremes(void **state)
{
	char out[MONEY_TEXT_LEN], want[MONEY_TEXT_LEN];

	(void)state;
	/* INT64_MIN has no positive int64: its digits are written whole all the same */
	assert_string_equal(money_text(INT64_MIN, "USD", out), "-$92,233,720,368,547,758.08");
	assert_string_equal(money_text(INT64_MAX, "USD", out), "$92,233,720,368,547,758.07");
	snprintf(want, sizeof(want), "BHD %s", "9,223,372,036,854,775.807");
	assert_string_equal(money_text(INT64_MAX, "BHD", out), want);
}

static void
test_short(void **state)
{
	char out[MONEY_TEXT_LEN];

	(void)state;
	assert_string_equal(money_text_short(2500, "USD", out), "$25");
	assert_string_equal(money_text_short(2550, "USD", out), "$25.50");
	assert_string_equal(money_text_short(100000, "USD", out), "$1,000");
	assert_string_equal(money_text_short(50, "USD", out), "$0.50");
	assert_string_equal(money_text_short(500, "JPY", out), "\xc2\xa5" "500");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usd),
		cmocka_unit_test(test_other_currencies),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_short),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
