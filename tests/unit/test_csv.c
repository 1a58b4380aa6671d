/*
 * test_csv.c - the one CSV cell writer (common/csv.h): the formula prefix
 * and the plain numbers that escape it, RFC 4180 quoting, control
 * characters as JSON escapes, numbers formatted as plain numbers, JSON
 * values, rows.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/csv.h"

/* What the writer makes of one cell of text (malloc'd). */
static char *
cell(const char *s)
{
	struct pb_csv c;
	size_t len;
	char *out;

	pb_csv_init(&c);
	pb_csv_text(&c, s);
	out = pb_csv_finish(&c, &len);
	assert_non_null(out);
	assert_int_equal(len, strlen(out));
	return out;
}

static void
assert_cell(const char *s, const char *want)
{
	char *got = cell(s);

	assert_string_equal(got, want);
	free(got);
}

/* Text that starts with = + - @ tab or CR is prefixed with ' (tab and CR themselves escaped). */
static void
test_formula_prefix(void **state)
{
	(void)state;
	assert_cell("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0");
	assert_cell("+SUM(1+1)", "'+SUM(1+1)");
	assert_cell("-2+3", "'-2+3");
	assert_cell("@SUM(1+1)", "'@SUM(1+1)");
	assert_cell("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
	assert_cell("\t=1+1", "'\\u0009=1+1");
	assert_cell("\r=1+1", "\"'\\u000D=1+1\"");
	/* only the first character counts; the prefix is inside the quotes */
	assert_cell("a=1", "a=1");
	assert_cell("=a,b", "\"'=a,b\"");
	assert_cell("", "");
	assert_cell("'=already", "'=already");
}

/* A plain number (-?digits(.digits)?) is written as is, so that a negative amount stays a number. */
static void
test_plain_numbers(void **state)
{
	static const char *const PLAIN[] = {"0", "-0", "7", "-1250", "-12.50", "1234.56", "-0.05", "0.0000125"};
	static const char *const NOT[] = {"", "-", "-.5", ".5", "-1.", "1.", "-1e5", "1e5", "--1", "+5", "-1.2.3", "-1,5",
	    "- 1", "-1 ", "-0x1F", "-\xd9\xa1"};

	(void)state;
	for (size_t i = 0; i < sizeof(PLAIN) / sizeof(PLAIN[0]); i++) {
		assert_true(pb_csv_plain_number(PLAIN[i]));
		assert_cell(PLAIN[i], PLAIN[i]);
	}
	for (size_t i = 0; i < sizeof(NOT) / sizeof(NOT[0]); i++)
		assert_false(pb_csv_plain_number(NOT[i]));
	assert_cell("-1e5", "'-1e5");
	assert_cell("-", "'-");
	assert_cell("-.5", "'-.5");
	assert_cell("+5", "'+5");
	assert_cell("-1,5", "\"'-1,5\"");
}

/* RFC 4180: quoted when holding a quote, comma, CR or LF; quotes doubled; the LF stays raw inside the quotes. */
static void
test_quoting(void **state)
{
	(void)state;
	assert_cell("plain text", "plain text");
	assert_cell("a,b", "\"a,b\"");
	assert_cell("say \"hi\"", "\"say \"\"hi\"\"\"");
	assert_cell("two\nlines", "\"two\nlines\"");
	assert_cell("a\rb", "\"a\\u000Db\"");
	assert_cell("He said \"no\", then\nleft", "\"He said \"\"no\"\", then\nleft\"");
}

/* No control character is written raw but LF: C0, DEL and the C1 controls as JSON escapes; other UTF-8 as it is. */
static void
test_control_characters(void **state)
{
	(void)state;
	assert_cell("a\x1b[2Jb", "a\\u001B[2Jb");
	assert_cell("a\tb", "a\\u0009b");
	assert_cell("x\x7fy\xc2\x85z\xc2\x9b", "x\\u007Fy\\u0085z\\u009B");
	assert_cell("\x1b]0;x\x07", "\\u001B]0;x\\u0007");
	assert_cell("caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac");
}

/*
 * Whatever a cell's first two bytes, what a spreadsheet reads first (after
 * the opening quote) is never = + - @ tab or CR unless the cell is a plain
 * number, and no byte below 0x20 but LF is written (CR only in a row's end).
 */
static void
test_no_cell_starts_like_a_formula(void **state)
{
	static const char SECOND[] = {'1', 'x', '=', '-', '.', '"', ',', '\t', '\r', '\n', ' ', '\0'};

	(void)state;
	for (int b = 1; b < 256; b++) {
		for (size_t k = 0; k < sizeof(SECOND); k++) {
			char s[4] = {(char)b, SECOND[k], '\0', '\0'};
			char *out = cell(s);
			const char *body = out[0] == '"' ? out + 1 : out;
			if (strchr("=+-@\t\r", body[0]) != NULL && body[0] != '\0')
				assert_true(pb_csv_plain_number(body));
			for (const char *p = out; *p; p++)
				assert_true((unsigned char)*p >= 0x20 || *p == '\n');
			free(out);
		}
	}
}

/* A real written by pb_csv_real (malloc'd). */
static char *
real_cell(double v)
{
	struct pb_csv c;
	size_t len;
	char *out;

	pb_csv_init(&c);
	pb_csv_real(&c, v);
	out = pb_csv_finish(&c, &len);
	assert_non_null(out);
	return out;
}

/* Integers, cents and reals: always plain numbers, reals the shortest that read back, without an exponent. */
static void
test_numbers(void **state)
{
	static const struct {
		double v;
		const char *text;
	} REALS[] = {
		{0.1, "0.1"}, {-0.5, "-0.5"}, {2.0, "2"}, {1234.5, "1234.5"}, {0.0, "0"}, {-1.25e-05, "-0.0000125"},
		{1e21, "1000000000000000000000"}, {0.03125, "0.03125"}, {-123456.789, "-123456.789"},
	};
	static const double MORE[] = {1.0 / 3, -2.0 / 3, DBL_MAX, -DBL_MAX, DBL_MIN, 5e-324, 1e-7, 123456789012345678.0,
	    0.1 + 0.2, -1e-300, 9.999999999999999e22};
	struct pb_csv c;
	size_t len;
	char *out;

	(void)state;
	for (size_t i = 0; i < sizeof(REALS) / sizeof(REALS[0]); i++) {
		out = real_cell(REALS[i].v);
		assert_string_equal(out, REALS[i].text);
		free(out);
	}
	for (size_t i = 0; i < sizeof(MORE) / sizeof(MORE[0]); i++) {
		out = real_cell(MORE[i]);
		assert_true(pb_csv_plain_number(out));
		assert_true(strtod(out, NULL) == MORE[i]);
		free(out);
	}
	out = real_cell(NAN);
	assert_string_equal(out, "");
	free(out);

	pb_csv_init(&c);
	pb_csv_integer(&c, -1250);
	pb_csv_integer(&c, LLONG_MIN);
	pb_csv_cents(&c, 123456);
	pb_csv_cents(&c, -5);
	pb_csv_cents(&c, -100);
	pb_csv_cents(&c, 0);
	pb_csv_cents(&c, LLONG_MIN);
	out = pb_csv_finish(&c, &len);
	assert_string_equal(out, "-1250,-9223372036854775808,1234.56,-0.05,-1.00,0.00,-92233720368547758.08");
	free(out);
}

/* JSON values: null empty, numbers, strings by the text rule, booleans, arrays of strings joined, objects empty. */
static void
test_json(void **state)
{
	json_t *v = json_pack("[n,I,f,s,b,[s,s,s],{s:s},s]", (json_int_t)-7, 0.25, "-2+3", 1, "As", "Ks", "Qs", "note",
	    "=x", "a,b");
	struct pb_csv c;
	size_t i, len;
	json_t *x;
	char *out;

	(void)state;
	pb_csv_init(&c);
	json_array_foreach(v, i, x)
		pb_csv_json(&c, x);
	pb_csv_json(&c, NULL);
	pb_csv_end_row(&c);
	out = pb_csv_finish(&c, &len);
	assert_string_equal(out, ",-7,0.25,'-2+3,true,As Ks Qs,,\"a,b\",\r\n");
	assert_int_equal(len, strlen(out));
	free(out);
	json_decref(v);
}

/* Rows: commas between cells, CRLF at each end, an empty cell between two commas; nothing written is "". */
static void
test_rows(void **state)
{
	struct pb_csv c;
	size_t len = 99;
	char *out;

	(void)state;
	pb_csv_init(&c);
	pb_csv_text(&c, "a");
	pb_csv_text(&c, "b");
	pb_csv_end_row(&c);
	pb_csv_empty(&c);
	pb_csv_text(&c, "c");
	pb_csv_end_row(&c);
	out = pb_csv_finish(&c, &len);
	assert_string_equal(out, "a,b\r\n,c\r\n");
	assert_int_equal(len, 9);
	free(out);

	pb_csv_init(&c);
	out = pb_csv_finish(&c, &len);
	assert_string_equal(out, "");
	assert_int_equal(len, 0);
	free(out);

	pb_csv_init(&c);              /* abandoned */
	pb_csv_text(&c, "x");
	pb_csv_free(&c);
	assert_null(c.buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formula_prefix),
		cmocka_unit_test(test_plain_numbers),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_control_characters),
		cmocka_unit_test(test_no_cell_starts_like_a_formula),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
