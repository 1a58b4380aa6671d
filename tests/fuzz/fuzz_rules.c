/*
 * fuzz_rules.c - rules_from_json on arbitrary bytes parsed as JSON (with
 * JSON_REJECT_DUPLICATES, as every reader of rules does).
 *
 * Oracles: a refusal carries 400 invalid_rules and a message; accepted rules
 * written out by rules_to_json read back to the same canonical object (the
 * stored copy of the rules in force must mean the same game); every pay of
 * an accepted table gives a win that is exact and not negative.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/rules.h"

#define FUZZ_MAX_INPUT 8192

static void
check_pay(struct pay p, const char *what)
{
	static const int64_t STAKES[] = {0, 1, 3, 7, 500, 2500, 99999, 1000000000000LL};

	if (!p.present)
		return;
	if (p.num <= 0 || p.den <= 0) {
		fprintf(stderr, "%s: pay %lld/%lld\n", what, (long long)p.num, (long long)p.den);
		abort();
	}
	for (size_t i = 0; i < sizeof(STAKES) / sizeof(STAKES[0]); i++) {
		int64_t w = pay_win(p, STAKES[i]);
		if (w < 0) {
			fprintf(stderr, "%s: pay_win(%lld) = %lld\n", what, (long long)STAKES[i], (long long)w);
			abort();
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *in, *canon, *canon2;
	json_error_t jerr;
	struct rules r, r2;
	struct pb_error err;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	in = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	if (in == NULL)
		return 0;
	memset(&err, 0, sizeof(err));
	if (rules_from_json(in, &r, &err) < 0) {
		if (err.status != 400 || strcmp(err.code, "invalid_rules") != 0 || err.message[0] == '\0') {
			fprintf(stderr, "refusal without 400 invalid_rules: %d %s %s\n", err.status, err.code, err.message);
			abort();
		}
		json_decref(in);
		return 0;
	}
	canon = rules_to_json(&r);
	if (canon == NULL || rules_from_json(canon, &r2, &err) < 0) {
		fprintf(stderr, "the canonical form of accepted rules is refused: %s\n", err.message);
		abort();
	}
	canon2 = rules_to_json(&r2);
	if (!json_equal(canon, canon2) || r.dealer_qualifier != r2.dealer_qualifier ||
	    r.raise_optimal != r2.raise_optimal || r.raise_min != r2.raise_min) {
		char *a = json_dumps(canon, JSON_SORT_KEYS), *b = json_dumps(canon2, JSON_SORT_KEYS);
		fprintf(stderr, "rules do not survive a round trip:\n%s\n%s\n", a, b);
		abort();
	}
	for (int c = 0; c < H3_CATEGORY_COUNT; c++) {
		check_pay(r.ante_bonus.by_category[c], "ante_bonus");
		check_pay(r.pair_plus.by_category[c], "pair_plus");
	}
	check_pay(r.pair_plus.mini_royal, "pair_plus.mini_royal");
	check_pay(r.ante_bonus.mini_royal, "ante_bonus.mini_royal");
	for (int c = 0; c < SIX_CATEGORY_COUNT; c++)
		check_pay(r.six_card[c], "six_card_bonus");
	json_decref(canon);
	json_decref(canon2);
	json_decref(in);
	return 0;
}
