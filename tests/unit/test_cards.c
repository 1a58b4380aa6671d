#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "engine/cards.h"

static void
test_parse_and_format(void **state)
{
	card_t c;
	char out[3];
	struct pb_error err;

	(void)state;
	assert_int_equal(card_parse("As", &c, &err), 0);
	card_format(c, out);
	assert_string_equal(out, "As");
	assert_int_equal(card_parse("10h", &c, &err), 0);
	card_format(c, out);
	assert_string_equal(out, "Th");
	assert_int_equal(card_parse("tD", &c, &err), 0);
	card_format(c, out);
	assert_string_equal(out, "Td");
	assert_int_equal(card_parse("1h", &c, &err), -1);
	assert_string_equal(err.code, "invalid_card");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_and_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
