/*
 * test_rules.c - the game rules object and pay arithmetic.
 *
 * Data-driven, in jansson's manner:
 *   tests/unit/data/rules/valid/NAME.json           must parse; when
 *   tests/unit/data/rules/valid/NAME.expected.json  exists, rules_to_json()
 *       dumped with JSON_SORT_KEYS|JSON_COMPACT must equal it, dumped the same way;
 *   tests/unit/data/rules/invalid/NAME.json         {"rules": <value>, "error": "<message>"}:
 *       must be refused with 400 invalid_rules and exactly that message.
 * Adding a case is adding a file.  Unit tests of pay_parse, pay_format,
 * pay_win and the pay-table lookup follow.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rules.h"

#ifndef PB_SOURCE_DIR
#error "PB_SOURCE_DIR must be defined by the build"
#endif

#define DATA_DIR PB_SOURCE_DIR "/tests/unit/data/rules"
#define DUMP_FLAGS (JSON_SORT_KEYS | JSON_COMPACT)

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int
only_json(const struct dirent *d)
{
	return ends_with(d->d_name, ".json") && !ends_with(d->d_name, ".expected.json");
}

/* The canonical text of a rules object. */
static char *
canonical(const struct rules *r)
{
	json_t *j = rules_to_json(r);
	char *s = json_dumps(j, DUMP_FLAGS);

	json_decref(j);
	return s;
}

/* Parses a rules object given as JSON text; the test fails when it is refused. */
static void
rules_from_text(const char *text, struct rules *r)
{
	json_error_t jerr;
	json_t *j = json_loads(text, 0, &jerr);
	struct pb_error err;

	if (j == NULL)
		fail_msg("bad JSON in test: %s", jerr.text);
	if (rules_from_json(j, r, &err) != 0)
		fail_msg("rules refused: %s", err.message);
	json_decref(j);
}

/* ---- data-driven suites ---- */

static void
test_valid_files(void **state)
{
	struct dirent **names = NULL;
	int n, files = 0, compared = 0, failures = 0;

	(void)state;
	n = scandir(DATA_DIR "/valid", &names, only_json, alphasort);
	if (n < 0)
		fail_msg("cannot read %s", DATA_DIR "/valid");
	for (int i = 0; i < n; i++) {
		char path[1024], exp_path[1024];
		json_error_t jerr;
		json_t *in, *exp;
		struct rules r, r2;
		struct pb_error err;
		char *got = NULL, *again = NULL;

		snprintf(path, sizeof(path), "%s/valid/%s", DATA_DIR, names[i]->d_name);
		snprintf(exp_path, sizeof(exp_path), "%.*s.expected.json", (int)(strlen(path) - 5), path);
		files++;
		in = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
		if (in == NULL) {
			print_error("%s: not JSON: %s\n", names[i]->d_name, jerr.text);
			failures++;
			goto next;
		}
		pb_error_clear(&err);
		if (rules_from_json(in, &r, &err) != 0) {
			print_error("%s: refused: %s %s\n", names[i]->d_name, err.code, err.message);
			failures++;
			json_decref(in);
			goto next;
		}
		json_decref(in);
		got = canonical(&r);
		/* The canonical object reads back to the same canonical object. */
		{
			json_t *cj = json_loads(got, 0, &jerr);
			if (cj == NULL || rules_from_json(cj, &r2, &err) != 0) {
				print_error("%s: canonical output refused: %s\n", names[i]->d_name, got);
				failures++;
			} else {
				again = canonical(&r2);
				if (strcmp(got, again) != 0) {
					print_error("%s: canonical output not stable:\n  %s\n  %s\n", names[i]->d_name, got, again);
					failures++;
				}
			}
			json_decref(cj);
		}
		exp = json_load_file(exp_path, JSON_REJECT_DUPLICATES, &jerr);
		if (exp != NULL) {
			char *want = json_dumps(exp, DUMP_FLAGS);
			compared++;
			if (strcmp(got, want) != 0) {
				print_error("%s: canonical output differs\n  want %s\n  got  %s\n", names[i]->d_name, want, got);
				failures++;
			}
			free(want);
			json_decref(exp);
		}
next:
		free(got);
		free(again);
		free(names[i]);
	}
	free(names);
	print_message("valid rules files: %d, with expected output: %d\n", files, compared);
	assert_int_equal(failures, 0);
	assert_true(files >= 10);
	assert_true(compared >= 8);
}

static void
test_invalid_files(void **state)
{
	struct dirent **names = NULL;
	int n, files = 0, failures = 0;

	(void)state;
	n = scandir(DATA_DIR "/invalid", &names, only_json, alphasort);
	if (n < 0)
		fail_msg("cannot read %s", DATA_DIR "/invalid");
	for (int i = 0; i < n; i++) {
		char path[1024];
		json_error_t jerr;
		json_t *doc, *rules_v, *error_v;
		struct rules r;
		struct pb_error err;
		int rc;

		snprintf(path, sizeof(path), "%s/invalid/%s", DATA_DIR, names[i]->d_name);
		files++;
		doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
		rules_v = doc ? json_object_get(doc, "rules") : NULL;
		error_v = doc ? json_object_get(doc, "error") : NULL;
		if (rules_v == NULL || !json_is_string(error_v) || json_object_size(doc) != 2) {
			print_error("%s: not a test case {\"rules\": ..., \"error\": \"...\"}\n", names[i]->d_name);
			failures++;
			json_decref(doc);
			free(names[i]);
			continue;
		}
		pb_error_clear(&err);
		rc = rules_from_json(rules_v, &r, &err);
		if (rc != -1) {
			print_error("%s: accepted\n", names[i]->d_name);
			failures++;
		} else if (err.status != 400 || strcmp(err.code, "invalid_rules") != 0) {
			print_error("%s: status %d code %s, want 400 invalid_rules\n", names[i]->d_name, err.status, err.code);
			failures++;
		} else if (strcmp(err.message, json_string_value(error_v)) != 0) {
			print_error("%s: message differs\n  want %s\n  got  %s\n", names[i]->d_name,
			    json_string_value(error_v), err.message);
			failures++;
		}
		json_decref(doc);
		free(names[i]);
	}
	free(names);
	print_message("invalid rules files: %d\n", files);
	assert_int_equal(failures, 0);
	assert_true(files >= 50);
}

/* ---- the parsed structure ---- */

static hand3_value_t
spec(const char *text)
{
	hand3_value_t v;

	assert_int_equal(hand3_parse_high_card(text, &v, NULL), 0);
	return v;
}

static void
assert_pay(struct pay p, int64_t num, int64_t den)
{
	assert_true(p.present);
	assert_int_equal(p.num, num);
	assert_int_equal(p.den, den);
}

static void
test_standard_fields(void **state)
{
	struct rules r;

	(void)state;
	rules_from_text("{\"name\": \"standard\", \"dealer_qualifier\": \"Q\","
	    " \"ante_bonus\": {\"straight_flush\": \"5\", \"three_of_a_kind\": \"4\", \"straight\": \"1\"},"
	    " \"pair_plus\": {\"straight_flush\": \"40\", \"three_of_a_kind\": \"30\", \"straight\": \"6\", \"flush\": \"3\", \"pair\": \"1\"},"
	    " \"pair_plus_mode\": \"standard\", \"pair_plus_requires_ante\": true,"
	    " \"six_card_bonus\": {\"royal_flush\": \"1000\", \"straight_flush\": \"200\", \"four_of_a_kind\": \"100\","
	    " \"full_house\": \"20\", \"flush\": \"15\", \"straight\": \"10\", \"three_of_a_kind\": \"7\"},"
	    " \"raise_strategy\": \"optimal\"}", &r);
	assert_string_equal(r.name, "standard");
	assert_int_equal(r.dealer_qualifier, spec("Q"));
	assert_string_equal(r.dealer_qualifier_text, "Q");
	assert_true(r.has_ante_bonus);
	assert_pay(r.ante_bonus.by_category[H3_STRAIGHT_FLUSH], 5, 1);
	assert_pay(r.ante_bonus.by_category[H3_THREE_OF_A_KIND], 4, 1);
	assert_pay(r.ante_bonus.by_category[H3_STRAIGHT], 1, 1);
	assert_false(r.ante_bonus.by_category[H3_FLUSH].present);
	assert_false(r.ante_bonus.by_category[H3_PAIR].present);
	assert_false(r.ante_bonus.by_category[H3_HIGH_CARD].present);
	assert_false(r.ante_bonus.mini_royal.present);
	assert_true(r.has_pair_plus);
	assert_pay(r.pair_plus.by_category[H3_PAIR], 1, 1);
	assert_pay(r.pair_plus.by_category[H3_FLUSH], 3, 1);
	assert_false(r.pair_plus.by_category[H3_HIGH_CARD].present);
	assert_int_equal(r.pair_plus_mode, PAIR_PLUS_STANDARD);
	assert_true(r.pair_plus_requires_ante);
	assert_true(r.has_six_card);
	assert_pay(r.six_card[SIX_ROYAL_FLUSH], 1000, 1);
	assert_pay(r.six_card[SIX_THREE_OF_A_KIND], 7, 1);
	assert_false(r.six_card[SIX_TWO_PAIR].present);
	assert_false(r.six_card[SIX_PAIR].present);
	assert_false(r.six_card[SIX_NOTHING].present);
	assert_true(r.raise_optimal);
	assert_string_equal(r.raise_text, "optimal");
}

static void
test_defaults_and_variants(void **state)
{
	struct rules r;

	(void)state;
	rules_from_text("{}", &r);
	assert_string_equal(r.name, "unnamed");
	assert_int_equal(r.dealer_qualifier, spec("Q"));
	assert_false(r.has_ante_bonus);
	assert_false(r.has_pair_plus);
	assert_false(r.has_six_card);
	assert_true(r.pair_plus_requires_ante);
	assert_true(r.raise_optimal);

	rules_from_text("{\"pair_plus\": {\"pair\": \"2\"}, \"pair_plus_mode\": \"must_beat_dealer\","
	    " \"pair_plus_tie\": \"push_pair_or_better\", \"ante_bonus\": {}}", &r);
	assert_int_equal(r.pair_plus_mode, PAIR_PLUS_MUST_BEAT_DEALER);
	assert_int_equal(r.pair_plus_tie, PAIR_PLUS_TIE_PUSH_PAIR_OR_BETTER);
	assert_false(r.has_ante_bonus);
	rules_from_text("{\"pair_plus\": {\"pair\": \"2\"}, \"pair_plus_mode\": \"must_beat_dealer\", \"pair_plus_tie\": \"push\"}", &r);
	assert_int_equal(r.pair_plus_tie, PAIR_PLUS_TIE_PUSH);
	/* The tie rule may come before the mode. */
	rules_from_text("{\"pair_plus_tie\": \"push_pair_or_better\", \"pair_plus_mode\": \"must_beat_dealer\", \"pair_plus\": {\"pair\": \"2\"}}", &r);
	assert_int_equal(r.pair_plus_tie, PAIR_PLUS_TIE_PUSH_PAIR_OR_BETTER);

	rules_from_text("{\"dealer_qualifier\": \"Q-6-4\", \"raise_strategy\": \"Q-6-4\", \"pair_plus_requires_ante\": false,"
	    " \"pair_plus\": {\"pair\": 1}}", &r);
	assert_int_equal(r.dealer_qualifier, spec("Q-6-4"));
	assert_string_equal(r.dealer_qualifier_text, "Q-6-4");
	assert_false(r.raise_optimal);
	assert_int_equal(r.raise_min, spec("Q-6-4"));
	assert_string_equal(r.raise_text, "Q-6-4");
	assert_false(r.pair_plus_requires_ante);

	rules_from_text("{\"dealer_qualifier\": \"10-6-4\"}", &r);
	assert_int_equal(r.dealer_qualifier, spec("T-6-4"));
	rules_from_text("{\"dealer_qualifier\": \"A\"}", &r);
	assert_int_equal(r.dealer_qualifier, spec("A-4-2"));
}

/* Refusals set 400 invalid_rules; a NULL object and a NULL error pointer are handled. */
static void
test_refusal_shape(void **state)
{
	struct rules r;
	struct pb_error err;
	json_t *j;

	(void)state;
	pb_error_clear(&err);
	assert_int_equal(rules_from_json(NULL, &r, &err), -1);
	assert_int_equal(err.status, 400);
	assert_string_equal(err.code, "invalid_rules");
	assert_string_equal(err.message, "a rules object must be a JSON object");
	j = json_loads("{\"pair_plus\": {\"pair\": \"0\"}}", 0, NULL);
	assert_int_equal(rules_from_json(j, &r, NULL), -1);
	json_decref(j);
}

/* ---- pay arithmetic ---- */

static void
test_pay_parse(void **state)
{
	static const struct { const char *text; int64_t num, den; } ok[] = {
		{"40", 40, 1}, {"12.5", 125, 10}, {"12.50", 125, 10}, {"1", 1, 1}, {"0.5", 5, 10},
		{"0.0001", 1, 10000}, {"1.0000", 1, 1}, {"3.25", 325, 100}, {"1000000", 1000000, 1},
		{"999999.9999", 9999999999, 10000}, {"007", 7, 1}, {"200", 200, 1}, {"1.2345", 12345, 10000},
		{"10.10", 101, 10}, {"0.001", 1, 1000},
	};
	static const char *const bad[] = {
		"0", "0.0", "0.0000", "-1", "1.23456", "0.00001", "abc", "1e3", ".5", "5.", "", " 5", "5 ",
		"+5", "1,5", "1.2.3", "1000000.0001", "1000001", "99999999999999999999999999", "0x10", ".",
		"3/2", "-0", "1-", "1..5",
	};
	struct pay p;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		memset(&p, 0, sizeof(p));
		if (pay_parse(ok[i].text, &p) != 0)
			fail_msg("pay \"%s\" refused", ok[i].text);
		assert_true(p.present);
		if (p.num != ok[i].num || p.den != ok[i].den)
			fail_msg("pay \"%s\": %lld/%lld", ok[i].text, (long long)p.num, (long long)p.den);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&p, 0, sizeof(p));
		if (pay_parse(bad[i], &p) != -1)
			fail_msg("pay \"%s\" accepted", bad[i]);
		assert_false(p.present);
	}
	assert_int_equal(pay_parse(NULL, &p), -1);
}

static void
test_pay_format(void **state)
{
	static const struct { int64_t num, den; const char *text; } cases[] = {
		{40, 1, "40"}, {125, 10, "12.5"}, {5, 10, "0.5"}, {1, 10000, "0.0001"}, {325, 100, "3.25"},
		{1000000, 1, "1000000"}, {101, 10, "10.1"}, {12345, 10000, "1.2345"}, {1, 1, "1"},
		{9999999999, 10000, "999999.9999"}, {105, 100, "1.05"}, {1001, 1000, "1.001"},
	};
	char out[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pay p = {true, cases[i].num, cases[i].den};
		pay_format(p, out, sizeof(out));
		assert_string_equal(out, cases[i].text);
	}
	/* Every pay with up to 4 decimals in a range formats to text that parses back to it. */
	for (int64_t den = 1; den <= 10000; den *= 10) {
		for (int64_t num = 1; num <= 30000; num += (num < 2000 ? 1 : 97)) {
			struct pay p = {true, num, den}, q;
			if (den > 1 && num % 10 == 0)
				continue; /* not in lowest terms: pay_parse never yields it */
			pay_format(p, out, sizeof(out));
			if (pay_parse(out, &q) != 0 || q.num != num || q.den != den)
				fail_msg("%lld/%lld formats as \"%s\" which does not read back", (long long)num, (long long)den, out);
		}
	}
}

static void
test_pay_win(void **state)
{
	struct pay p;

	(void)state;
	assert_int_equal(pay_parse("3.5", &p), 0);
	assert_int_equal(pay_win(p, 333), 1165);        /* 1165.5 rounded down */
	assert_int_equal(pay_win(p, 334), 1169);
	assert_int_equal(pay_win(p, 0), 0);
	assert_int_equal(pay_parse("12.5", &p), 0);
	assert_int_equal(pay_win(p, 1), 12);            /* 12.5 rounded down */
	assert_int_equal(pay_win(p, 2), 25);
	assert_int_equal(pay_win(p, 2500), 31250);
	assert_int_equal(pay_parse("40", &p), 0);
	assert_int_equal(pay_win(p, 500), 20000);
	assert_int_equal(pay_parse("1", &p), 0);
	assert_int_equal(pay_win(p, 2500), 2500);
	assert_int_equal(pay_parse("0.0001", &p), 0);
	assert_int_equal(pay_win(p, 9999), 0);
	assert_int_equal(pay_win(p, 10000), 1);
	assert_int_equal(pay_win(p, 19999), 1);
	assert_int_equal(pay_parse("1.25", &p), 0);
	assert_int_equal(pay_win(p, 333), 416);         /* 416.25 */
	assert_int_equal(pay_win(p, 3), 3);             /* 3.75 */
	/* Not a paying hand, or a negative stake: nothing. */
	p.present = false;
	assert_int_equal(pay_win(p, 1000), 0);
	assert_int_equal(pay_parse("2", &p), 0);
	assert_int_equal(pay_win(p, -5), 0);
	/* Overflow is reported as -1, just past the edge and far past it. */
	assert_int_equal(pay_parse("1000000", &p), 0);
	assert_int_equal(pay_win(p, INT64_MAX / 1000000), (INT64_MAX / 1000000) * 1000000);
	assert_int_equal(pay_win(p, INT64_MAX / 1000000 + 1), -1);
	assert_int_equal(pay_win(p, INT64_MAX), -1);
	assert_int_equal(pay_parse("1.5", &p), 0);
	assert_int_equal(pay_win(p, INT64_MAX), -1);
	assert_int_equal(pay_parse("1", &p), 0);
	assert_int_equal(pay_win(p, INT64_MAX), INT64_MAX);
	assert_int_equal(pay_parse("0.5", &p), 0);
	assert_int_equal(pay_win(p, INT64_MAX), INT64_MAX / 2);
}

/* pay_win is floor(stake * num / den): w * den <= stake * num < (w + 1) * den. */
static void
test_pay_win_floor_property(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15u;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		struct pay p;
		int64_t stake, w;
		char text[32];

		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		snprintf(text, sizeof(text), "%u.%04u", (unsigned)((x >> 8) % 1000), (unsigned)((x >> 24) % 10000));
		if (pay_parse(text, &p) != 0)
			continue; /* "0.0000" */
		stake = (int64_t)((x >> 32) % 10000000);
		w = pay_win(p, stake);
		assert_true(w >= 0);
		assert_true((__int128)w * p.den <= (__int128)stake * p.num);
		assert_true((__int128)(w + 1) * p.den > (__int128)stake * p.num);
	}
}

static void
test_paytable_lookup(void **state)
{
	struct rules r;
	card_t c[3];
	struct pay p;

	(void)state;
	rules_from_text("{\"pair_plus\": {\"mini_royal\": \"200\", \"straight_flush\": \"40\", \"pair\": \"2\"},"
	    " \"ante_bonus\": {\"straight_flush\": \"5\", \"straight\": \"1\"}}", &r);
#define HAND(a, b, cc) do { \
		assert_int_equal(card_parse(a, &c[0], NULL), 0); \
		assert_int_equal(card_parse(b, &c[1], NULL), 0); \
		assert_int_equal(card_parse(cc, &c[2], NULL), 0); } while (0)
	HAND("As", "Ks", "Qs");
	assert_pay(paytable_lookup(&r.pair_plus, c), 200, 1);     /* mini royal pays instead of straight flush */
	assert_pay(paytable_lookup(&r.ante_bonus, c), 5, 1);      /* no mini royal pay: the straight flush pay */
	assert_pay(paytable_lookup_value(&r.pair_plus, hand3_value(c), true), 200, 1);
	assert_pay(paytable_lookup_value(&r.pair_plus, hand3_value(c), false), 40, 1);
	HAND("Ks", "Qs", "Js");
	assert_pay(paytable_lookup(&r.pair_plus, c), 40, 1);
	HAND("As", "Kd", "Qs");
	assert_false(paytable_lookup(&r.pair_plus, c).present);   /* straight: not on this table */
	assert_pay(paytable_lookup(&r.ante_bonus, c), 1, 1);
	HAND("9s", "9d", "2c");
	assert_pay(paytable_lookup(&r.pair_plus, c), 2, 1);
	assert_false(paytable_lookup(&r.ante_bonus, c).present);
	HAND("As", "Kd", "9s");
	p = paytable_lookup(&r.pair_plus, c);
	assert_false(p.present);
	assert_int_equal(pay_win(p, 500), 0);
#undef HAND
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_files),
		cmocka_unit_test(test_invalid_files),
		cmocka_unit_test(test_standard_fields),
		cmocka_unit_test(test_defaults_and_variants),
		cmocka_unit_test(test_refusal_shape),
		cmocka_unit_test(test_pay_parse),
		cmocka_unit_test(test_pay_format),
		cmocka_unit_test(test_pay_win),
		cmocka_unit_test(test_pay_win_floor_property),
		cmocka_unit_test(test_paytable_lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
