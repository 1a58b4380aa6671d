/*
 * test_text.c - free text (common/text.h): what is blank, what is a control
 * character, and the refusal's code and message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/text.h"

#define S(lit) (lit), sizeof(lit) - 1

static void
test_blank(void **state)
{
	(void)state;
	assert_true(pb_text_blank(S("")));
	assert_true(pb_text_blank(S("   ")));
	assert_true(pb_text_blank(S(" \t\n\r\v\f ")));
	assert_true(pb_text_blank(S("\xc2\xa0\xe2\x80\x83\xe3\x80\x80\xe2\x80\x8b\xef\xbb\xbf")));  /* NBSP, em, ideographic, ZWSP, BOM */
	assert_false(pb_text_blank(S(" x ")));
	assert_false(pb_text_blank(S("\xc3\xa9")));
	assert_false(pb_text_blank(S("\xc2")));       /* a truncated sequence is not a blank */
	assert_false(pb_text_blank(S("  .")));
}

static void
test_control_len(void **state)
{
	unsigned cp = 0;
	const char *s;

	(void)state;
	s = "\x1b[";
	assert_int_equal(pb_text_control_len(s, s + 2, &cp), 1);
	assert_int_equal(cp, 0x1b);
	s = "\x7f";
	assert_int_equal(pb_text_control_len(s, s + 1, &cp), 1);
	assert_int_equal(cp, 0x7f);
	s = "\xc2\x9b";
	assert_int_equal(pb_text_control_len(s, s + 2, &cp), 2);
	assert_int_equal(cp, 0x9b);
	s = "\xc2\xa0";                                  /* NBSP: not a control */
	assert_int_equal(pb_text_control_len(s, s + 2, &cp), 0);
	s = "\xc2\x85";
	assert_int_equal(pb_text_control_len(s, s + 1, &cp), 0);   /* never reads past end */
	s = "a";
	assert_int_equal(pb_text_control_len(s, s + 1, NULL), 0);
	assert_int_equal(pb_text_control_len(s, s, NULL), 0);
}

static void
test_check_controls(void **state)
{
	struct pb_error err;

	(void)state;
	assert_int_equal(pb_text_check_controls("void: reason", S("misdeal\nexposed card \xc3\xa9"), &err), 0);
	assert_int_equal(pb_text_check_controls("void: reason", S("mis\x1b[2Jdeal"), &err), -1);
	assert_int_equal(err.status, 400);
	assert_string_equal(err.code, "invalid_text");
	assert_non_null(strstr(err.message, "void: reason"));
	assert_non_null(strstr(err.message, "U+001B at byte 3"));
	assert_non_null(strstr(err.message, "newline"));
	assert_int_equal(pb_text_check_controls("x", S("a\tb"), &err), -1);
	assert_non_null(strstr(err.message, "U+0009"));
	assert_int_equal(pb_text_check_controls("x", S("a\r\nb"), &err), -1);
	assert_non_null(strstr(err.message, "U+000D"));
	assert_int_equal(pb_text_check_controls("x", S("a\0b"), &err), -1);     /* a NUL inside the length */
	assert_non_null(strstr(err.message, "U+0000 at byte 1"));
	assert_int_equal(pb_text_check_controls("x", S("\xc2\x85"), &err), -1);
	assert_non_null(strstr(err.message, "U+0085"));
	assert_int_equal(pb_text_check_controls("x", S("\x7f"), &err), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blank),
		cmocka_unit_test(test_control_len),
		cmocka_unit_test(test_check_controls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
