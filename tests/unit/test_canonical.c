/*
 * test_canonical.c - canonical_json and json_text (common/json_text.c)
 * against jansson's json_dumps(JSON_SORT_KEYS | JSON_COMPACT |
 * JSON_ENSURE_ASCII), whose bytes every stored event hash covers, and
 * against json_dumps(JSON_COMPACT | JSON_ENSURE_ASCII), the bytes of every
 * JSON answer: the event bodies pitbossd writes, edge cases one by one, and
 * a few thousand random bodies (fixed seed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"

#define FLAGS (JSON_SORT_KEYS | JSON_COMPACT | JSON_ENSURE_ASCII)

/* got is want (both NULL, or the same text of length got_len); frees both. */
static void
assert_same_text(char *want, char *got, size_t got_len)
{
	if (want == NULL)
		assert_null(got);
	else {
		assert_non_null(got);
		assert_string_equal(got, want);
		assert_int_equal(got_len, strlen(want));
	}
	free(want);
	free(got);
}

/* json_text, sorted and in insertion order, against json_dumps. */
static void
assert_like_jansson(const json_t *v)
{
	size_t len = 0;
	char *got;

	got = json_text(v, true, NULL);
	assert_same_text(json_dumps(v, FLAGS), got, got ? strlen(got) : 0);
	got = json_text(v, true, &len);
	assert_same_text(json_dumps(v, FLAGS), got, len);
	len = 0;
	got = json_text(v, false, &len);
	assert_same_text(json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII), got, len);
}

static void
test_edge_cases(void **state)
{
	json_t *o, *a;

	(void)state;
	o = json_pack("{s:i,s:I,s:I,s:I,s:I}", "seat", 3, "ante", (json_int_t)2500, "min", (json_int_t)INT64_MIN,
	    "max", (json_int_t)INT64_MAX, "neg", (json_int_t)-1);
	assert_like_jansson(o);
	json_decref(o);
	o = json_object();
	assert_like_jansson(o);
	json_decref(o);
	a = json_array();
	assert_like_jansson(a);
	json_decref(a);
	/* Keys that are prefixes of each other, a NUL in a key, in a string. */
	o = json_object();
	json_object_set_new(o, "ab", json_true());
	json_object_set_new(o, "a", json_false());
	json_object_setn_new(o, "a\0", 2, json_null());
	json_object_setn_new(o, "\0", 1, json_integer(0));
	json_object_set_new(o, "", json_stringn("x\0y", 3));
	json_object_set_new(o, "B", json_string("\"\\/\b\f\n\r\t\x01\x1f\x7f \xc3\xa9\xe2\x80\xa8\xef\xbf\xbf\xf0\x9f\x82\xa1\xf4\x8f\xbf\xbf"));
	assert_like_jansson(o);
	/* A real anywhere: handed to json_dumps. */
	json_object_set_new(o, "r", json_pack("[f,f,f]", 0.1, -0.0, 1e300));
	assert_like_jansson(o);
	json_decref(o);
	/* Not UTF-8 (only _nocheck can make these): json_dumps decides, key or value. */
	o = json_object();
	json_object_set_new(o, "s", json_stringn_nocheck("\xc0\xaf", 2));
	assert_like_jansson(o);
	json_decref(o);
	o = json_object();
	json_object_set_new_nocheck(o, "\xed\xa0\x80", json_integer(1));
	json_object_set_new(o, "z", json_integer(2));
	assert_like_jansson(o);
	json_decref(o);
	/* Not a container. */
	o = json_string("x");
	assert_like_jansson(o);
	json_decref(o);
	assert_null(canonical_text(NULL, NULL));
	/* Deep nesting (past the writer's own limit) and a loop. */
	a = json_array();
	for (int i = 0; i < 100; i++)
		a = json_pack("{s:o,s:[o]}", "z", a, "a", json_integer(i));
	assert_like_jansson(a);
	json_decref(a);
	a = json_array();
	json_array_append(a, a);   /* jansson refuses to add an array to itself */
	o = json_object();
	json_object_set_new(o, "self", json_array());
	json_array_append(json_object_get(o, "self"), o);
	assert_like_jansson(a);
	assert_null(canonical_text(o, NULL));
	assert_null(json_dumps(o, FLAGS));
	json_array_clear(json_object_get(o, "self"));
	json_decref(o);
	json_decref(a);
}

/* ---- random bodies ---- */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* A random byte string: mostly ASCII, some escapes, UTF-8 of every length, sometimes a NUL or bad UTF-8. */
static size_t
random_text(char *b, size_t cap, bool allow_bad)
{
	static const char *const PIECES[] = {"a", "b", "Z", "0", "_", " ", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f",
	    "\x7f", "\xc2\x80", "\xc3\xa9", "\xdf\xbf", "\xe0\xa0\x80", "\xe2\x80\xa8", "\xef\xbf\xbd", "\xf0\x90\x80\x80",
	    "\xf0\x9f\x82\xa1", "\xf4\x8f\xbf\xbf", "seat", "ante"};
	static const char *const BAD[] = {"\x80", "\xc1\xbf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf8", "\xc3"};
	size_t n = 0, parts = rnd(8);

	for (size_t i = 0; i < parts; i++) {
		const char *p;
		size_t len;

		if (rnd(40) == 0) {
			p = "\0";
			len = 1;
		} else if (allow_bad && rnd(60) == 0) {
			p = BAD[rnd(sizeof(BAD) / sizeof(BAD[0]))];
			len = strlen(p);
		} else {
			p = PIECES[rnd(sizeof(PIECES) / sizeof(PIECES[0]))];
			len = strlen(p);
		}
		if (n + len >= cap)
			break;
		memcpy(b + n, p, len);
		n += len;
	}
	b[n] = '\0';
	return n;
}

static json_t *
random_value(int depth)
{
	char t[128];
	size_t n;
	json_t *v;

	switch (rnd(depth > 5 ? 6 : 9)) {
	case 0: return json_null();
	case 1: return json_boolean(rnd(2));
	case 2: {
		static const json_int_t EDGES[] = {0, 1, -1, 9, 10, -10, 2500, INT64_MAX, INT64_MIN, 1000000007};
		return json_integer(rnd(3) ? EDGES[rnd(10)] : (json_int_t)((int64_t)rng >> rnd(63)));
	}
	case 3: return rnd(30) == 0 ? json_real((double)rnd(1000) / 7.0) : json_integer(rnd(100000));
	case 4: case 5:
		n = random_text(t, sizeof(t), true);
		return json_stringn_nocheck(t, n);
	case 6:
		v = json_array();
		for (unsigned i = rnd(5); i > 0; i--)
			json_array_append_new(v, random_value(depth + 1));
		return v;
	default:
		v = json_object();
		for (unsigned i = rnd(rnd(10) == 0 ? 50 : 7); i > 0; i--) {
			n = random_text(t, 24, rnd(3) == 0);
			json_object_setn_new_nocheck(v, t, n, random_value(depth + 1));
		}
		return v;
	}
}

static void
test_random_bodies(void **state)
{
	int differ_checked = 0;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		json_t *v = rnd(4) ? json_object() : json_array();

		for (unsigned k = rnd(8); k > 0; k--) {
			char t[32];
			size_t n = random_text(t, sizeof(t), rnd(4) == 0);
			if (json_is_object(v))
				json_object_setn_new_nocheck(v, t, n, random_value(1));
			else
				json_array_append_new(v, random_value(1));
		}
		assert_like_jansson(v);
		differ_checked++;
		json_decref(v);
	}
	assert_int_equal(differ_checked, 20000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edge_cases),
		cmocka_unit_test(test_random_bodies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
