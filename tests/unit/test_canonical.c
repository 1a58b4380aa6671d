/*
 * test_canonical.c - the canonical form of an event (docs/audit.md, "The
 * canonical form"): first against fixed byte vectors written out here by
 * hand (bodies, whole events and their SHA-256, computed once with
 * printf ... | sha256sum), then, as a second check, json_text
 * (common/json_text.c) against jansson's json_dumps(JSON_SORT_KEYS |
 * JSON_COMPACT | JSON_ENSURE_ASCII) and json_dumps(JSON_COMPACT |
 * JSON_ENSURE_ASCII), the bytes of every JSON answer: edge cases one by
 * one, and a few thousand random bodies (fixed seed).
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
#include "store/store.h"

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

/* ---- fixed byte vectors ---- */

/* canonical_text(v) is exactly the n bytes of want (NULL: refused); frees the text. */
static void
assert_canonical_bytes(const json_t *v, const char *want, size_t n)
{
	size_t len = 12345;
	char *got = canonical_text(v, &len);

	if (want == NULL) {
		assert_null(got);
		assert_int_equal(len, 12345);
		return;
	}
	assert_non_null(got);
	assert_int_equal(len, n);
	assert_memory_equal(got, want, n);
	assert_int_equal(got[n], '\0');
	free(got);
}

/* A string literal with its length (it may hold a NUL). */
#define BYTES(lit) (lit), (sizeof(lit) - 1)

/* Keys sorted bytewise over their UTF-8: case, prefixes, a NUL, non-ASCII (not UTF-16 order). */
static void
test_vector_key_order(void **state)
{
	json_t *o = json_object(), *bets = json_object();

	(void)state;
	json_object_set_new(o, "seat", json_integer(3));
	json_object_set_new(bets, "pair_plus", json_integer(500));
	json_object_set_new(bets, "ante", json_integer(2500));
	json_object_set_new(o, "bets", bets);
	json_object_set_new(o, "Seat", json_true());
	json_object_set_new(o, "se", json_null());
	json_object_set_new(o, "sea", json_pack("[i,[i,[]],{}]", 1, 2));
	json_object_set_new(o, "z", json_false());
	json_object_set_new(o, "\xf0\x9f\x82\xa1", json_integer(2));       /* U+1F0A1: after U+FFFD in UTF-8, before it in UTF-16 */
	json_object_set_new(o, "\xef\xbf\xbd", json_integer(1));           /* U+FFFD */
	json_object_set_new(o, "\xc3\xa9", json_string("x"));              /* U+00E9 */
	json_object_setn_new(o, "a\0b", 3, json_integer(-1));
	json_object_set_new(o, "a", json_true());
	json_object_set_new(o, "", json_integer(0));
	assert_canonical_bytes(o, BYTES("{\"\":0,\"Seat\":true,\"a\":true,\"a\\u0000b\":-1,\"bets\":{\"ante\":2500,\"pair_plus\":500},"
	    "\"se\":null,\"sea\":[1,[2,[]],{}],\"seat\":3,\"z\":false,\"\\u00E9\":\"x\",\"\\uFFFD\":1,\"\\uD83C\\uDCA1\":2}"));
	json_decref(o);
}

/* Every escape: the seven by name, other controls as capital \\u00XX, '/' and DEL as they are, non-ASCII as \\uXXXX. */
static void
test_vector_escapes(void **state)
{
	static const char S[] = "\"\\/\b\f\n\r\t\0\x01\x1f\x7f \xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\xc2\x80~";
	json_t *o = json_object();

	(void)state;
	json_object_set_new(o, "s", json_stringn(S, sizeof(S) - 1));
	assert_canonical_bytes(o, BYTES("{\"s\":\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u0001\\u001F\x7f \\u00E9\\u2028\\uD83D\\uDE00"
	    "\\uDBFF\\uDFFF\\u0080~\"}"));
	json_decref(o);
}

/* Integers in decimal, '-' for negatives, INT64 at both ends; true, false, null; empty containers; an array at the root. */
static void
test_vector_numbers_and_containers(void **state)
{
	json_t *o;

	(void)state;
	o = json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "zero", (json_int_t)0, "neg", (json_int_t)-1, "max", (json_int_t)INT64_MAX,
	    "min", (json_int_t)INT64_MIN, "big", (json_int_t)1000000000000, "ten", (json_int_t)10, "cents", (json_int_t)-250);
	assert_canonical_bytes(o, BYTES("{\"big\":1000000000000,\"cents\":-250,\"max\":9223372036854775807,"
	    "\"min\":-9223372036854775808,\"neg\":-1,\"ten\":10,\"zero\":0}"));
	json_decref(o);
	o = json_object();
	assert_canonical_bytes(o, BYTES("{}"));
	json_decref(o);
	o = json_array();
	assert_canonical_bytes(o, BYTES("[]"));
	json_decref(o);
	o = json_pack("{s:{},s:[],s:[b,b,n,[[[]]]]}", "b", "a", "c", 1, 0);
	assert_canonical_bytes(o, BYTES("{\"a\":[],\"b\":{},\"c\":[true,false,null,[[[]]]]}"));
	json_decref(o);
}

/* Reals (pitbossd writes none): "%.17g", ".0" when neither '.' nor 'e', the exponent bare. */
static void
test_vector_reals(void **state)
{
	json_t *a = json_pack("[f,f,f,f,f,f,f]", 0.1, -0.0, 1e300, 1e-05, 100.0, 1.5, 2.5e-7);

	(void)state;
	assert_canonical_bytes(a, BYTES("[0.10000000000000001,-0.0,1.0000000000000001e300,1.0000000000000001e-5,100.0,1.5,"
	    "2.4999999999999999e-7]"));
	json_decref(a);
}

/* Outside the form: refused whole, never a partial text. */
static void
test_vector_refused(void **state)
{
	json_t *o, *a, *inner;

	(void)state;
	o = json_object();
	json_object_set_new(o, "s", json_stringn_nocheck("ok\xc0\xaf", 4));     /* an overlong '/' */
	assert_canonical_bytes(o, NULL, 0);
	json_decref(o);
	o = json_object();
	json_object_set_new(o, "s", json_stringn_nocheck("\xc3", 1));           /* cut short */
	assert_canonical_bytes(o, NULL, 0);
	json_decref(o);
	o = json_object();
	json_object_set_new_nocheck(o, "\xed\xa0\x80", json_integer(1));        /* a surrogate, as a key */
	assert_canonical_bytes(o, NULL, 0);
	json_decref(o);
	o = json_string("x");
	assert_canonical_bytes(o, NULL, 0);
	json_decref(o);
	assert_canonical_bytes(NULL, NULL, 0);
	/* JSON_TEXT_MAX_DEPTH nested arrays are written; one more is refused. */
	a = json_array();
	for (int i = 1; i < JSON_TEXT_MAX_DEPTH; i++) {
		inner = a;
		a = json_array();
		json_array_append_new(a, inner);
	}
	{
		char *want = malloc(2 * JSON_TEXT_MAX_DEPTH);

		assert_non_null(want);
		memset(want, '[', JSON_TEXT_MAX_DEPTH);
		memset(want + JSON_TEXT_MAX_DEPTH, ']', JSON_TEXT_MAX_DEPTH);
		assert_canonical_bytes(a, want, 2 * JSON_TEXT_MAX_DEPTH);
		free(want);
	}
	inner = a;
	a = json_array();
	json_array_append_new(a, inner);
	assert_canonical_bytes(a, NULL, 0);
	json_decref(a);
}

/* A whole event: its hashed bytes ("pitboss-event-v1\\n" and seven "<len>:<bytes>" fields) and its hash. */
static void
assert_event(const char *table_id, int64_t seq, int64_t round_id, const char *type, const char *at, const char *actor,
    const json_t *body, const char *prev, const char *want_canon, size_t want_len, const char *want_hash)
{
	char hash[PB_SHA256_HEX_LEN], *text = canonical_text(body, NULL), *canon;
	size_t len = 0;

	assert_non_null(text);
	canon = store_event_canonical(table_id, seq, round_id, type, at, actor, text, &len);
	assert_non_null(canon);
	assert_int_equal(len, want_len);
	assert_memory_equal(canon, want_canon, want_len);
	store_event_hash(prev, canon, len, hash);
	assert_string_equal(hash, want_hash);
	store_event_hash_fields(prev, table_id, seq, round_id, type, at, actor, text, strlen(text), hash);
	assert_string_equal(hash, want_hash);
	free(canon);
	free(text);
}

static void
test_vector_events(void **state)
{
	static const char GENESIS[] = "0000000000000000000000000000000000000000000000000000000000000000";
	static const char H1[] = "183b8d1d175afd261e1227e0df3c7a366c8208a46848973558ca6b81f75d460f";
	static const char H2[] = "cc38eba1e6ec22a237194fb631746be90c58363cfbd633df6fbe6761bae81a32";
	json_t *b;

	(void)state;
	/* The first event of table T1: round 7, a bet; prev_hash is the genesis. */
	b = json_pack("{s:i,s:I,s:I}", "seat", 3, "pair_plus", (json_int_t)500, "ante", (json_int_t)2500);
	assert_event("T1", 1, 7, "bet_placed", "2026-11-21T20:15:03.250Z", "dealer-1", b, GENESIS,
	    BYTES("pitboss-event-v1\n2:T11:11:710:bet_placed24:2026-11-21T20:15:03.250Z8:dealer-1"
	    "38:{\"ante\":2500,\"pair_plus\":500,\"seat\":3}"), H1);
	json_decref(b);
	/* Its second: a table event (round 0), an actor of 3 characters and 4 bytes, escapes in the body. */
	b = json_pack("{s:[],s:s}", "seats", "note", "line\nnext \xc3\xa9");
	assert_event("T1", 2, 0, "table_closed", "2026-11-21T23:59:59.999Z", "Zo\xc3\xab", b, H1,
	    BYTES("pitboss-event-v1\n2:T11:21:012:table_closed24:2026-11-21T23:59:59.999Z4:Zo\xc3\xab"
	    "39:{\"note\":\"line\\nnext \\u00E9\",\"seats\":[]}"), H2);
	json_decref(b);
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

/*
 * canonical_text on random bodies: json_dumps' bytes, or NULL only where
 * the body holds text that is not UTF-8 (the only thing outside the form
 * these bodies can hold): json_dumps then gives NULL (a string) or a text
 * that is not JSON (a key).
 */
static void
test_random_canonical(void **state)
{
	int written = 0;

	(void)state;
	for (int i = 0; i < 5000; i++) {
		json_t *v = json_object();
		char *want, *got;
		size_t len = 0;

		for (unsigned k = rnd(8); k > 0; k--) {
			char t[32];
			size_t n = random_text(t, sizeof(t), rnd(8) == 0);

			json_object_setn_new_nocheck(v, t, n, random_value(1));
		}
		want = json_dumps(v, FLAGS);
		got = canonical_text(v, &len);
		if (got != NULL) {
			assert_non_null(want);
			assert_int_equal(len, strlen(want));
			assert_string_equal(got, want);
			written++;
		} else if (want != NULL) {
			json_t *back = json_loads(want, 0, NULL);

			assert_null(back);
		}
		free(want);
		free(got);
		json_decref(v);
	}
	assert_true(written > 2500);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vector_key_order),
		cmocka_unit_test(test_vector_escapes),
		cmocka_unit_test(test_vector_numbers_and_containers),
		cmocka_unit_test(test_vector_reals),
		cmocka_unit_test(test_vector_refused),
		cmocka_unit_test(test_vector_events),
		cmocka_unit_test(test_edge_cases),
		cmocka_unit_test(test_random_bodies),
		cmocka_unit_test(test_random_canonical),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
