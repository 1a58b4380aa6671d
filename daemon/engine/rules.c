#include "engine/rules.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAY_MAX_DECIMALS 4
#define PAY_MAX_UNITS 1000000

/* Keys of the three-card pay tables, in the order they are written out. */
static const struct {
	const char *key;
	int category; /* -1 for mini_royal */
} HAND_PAY_KEYS[] = {
	{"mini_royal", -1},
	{"straight_flush", H3_STRAIGHT_FLUSH},
	{"three_of_a_kind", H3_THREE_OF_A_KIND},
	{"straight", H3_STRAIGHT},
	{"flush", H3_FLUSH},
	{"pair", H3_PAIR},
};

int
pay_parse(const char *text, struct pay *out)
{
	int64_t num = 0, den = 1;
	int decimals = -1;
	const char *p;

	if (text == NULL || *text == '\0')
		return -1;
	for (p = text; *p != '\0'; p++) {
		if (*p == '.') {
			if (decimals >= 0 || p == text || p[1] == '\0')
				return -1;
			decimals = 0;
			continue;
		}
		if (!isdigit((unsigned char)*p))
			return -1;
		if (decimals >= 0 && ++decimals > PAY_MAX_DECIMALS)
			return -1;
		num = num * 10 + (*p - '0');
		if (decimals >= 0)
			den *= 10;
		if (num > (int64_t)PAY_MAX_UNITS * 10000)
			return -1;
	}
	if (num <= 0 || num > (int64_t)PAY_MAX_UNITS * den)
		return -1;
	while (den > 1 && num % 10 == 0) {
		num /= 10;
		den /= 10;
	}
	out->present = true;
	out->num = num;
	out->den = den;
	return 0;
}

void
pay_format(struct pay p, char *out, size_t outsz)
{
	int64_t whole = p.num / p.den, frac = p.num % p.den;
	int width = 0;

	if (frac == 0) {
		snprintf(out, outsz, "%lld", (long long)whole);
		return;
	}
	for (int64_t d = p.den; d > 1; d /= 10)
		width++;
	while (frac % 10 == 0) {
		frac /= 10;
		width--;
	}
	snprintf(out, outsz, "%lld.%0*lld", (long long)whole, width, (long long)frac);
}

int64_t
pay_win(struct pay p, int64_t stake)
{
	__int128 w;

	if (!p.present || stake < 0)
		return 0;
	w = (__int128)stake * p.num / p.den;
	if (w > INT64_MAX)
		return -1;
	return (int64_t)w;
}

struct pay
paytable_lookup_value(const struct hand_paytable *t, hand3_value_t v, bool mini_royal)
{
	if (mini_royal && t->mini_royal.present)
		return t->mini_royal;
	return t->by_category[HAND3_CATEGORY(v)];
}

struct pay
paytable_lookup(const struct hand_paytable *t, const card_t cards[3])
{
	return paytable_lookup_value(t, hand3_value(cards), hand3_is_mini_royal(cards));
}

/* Reads one pay value (a decimal string, or a JSON integer) at path. */
static int
read_pay(const json_t *v, const char *path, struct pay *out, struct pb_error *err)
{
	char buf[32];

	if (json_is_integer(v)) {
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
		if (pay_parse(buf, out) == 0)
			return 0;
	} else if (json_is_string(v)) {
		if (pay_parse(json_string_value(v), out) == 0)
			return 0;
	}
	return pb_fail(err, 400, "invalid_rules",
	    "%s: a pay is \"N to 1\" written as a decimal string greater than 0 and at most %d, "
	    "with at most %d decimals, e.g. \"40\" or \"12.5\"", path, PAY_MAX_UNITS, PAY_MAX_DECIMALS);
}

/* Reads a three-card pay table object such as {"straight": "6", "pair": "1"}. */
static int
read_hand_paytable(const json_t *obj, const char *key, struct hand_paytable *t, bool *any,
    struct pb_error *err)
{
	const char *k;
	const json_t *v;
	char path[96];

	memset(t, 0, sizeof(*t));
	*any = false;
	if (!json_is_object(obj))
		return pb_fail(err, 400, "invalid_rules", "%s: must be an object of hand -> pay, e.g. {\"straight\": \"1\"}", key);
	json_object_foreach((json_t *)obj, k, v) {
		size_t i;

		snprintf(path, sizeof(path), "%s.%.40s", key, k);
		for (i = 0; i < sizeof(HAND_PAY_KEYS) / sizeof(HAND_PAY_KEYS[0]); i++)
			if (strcmp(k, HAND_PAY_KEYS[i].key) == 0)
				break;
		if (i == sizeof(HAND_PAY_KEYS) / sizeof(HAND_PAY_KEYS[0]))
			return pb_fail(err, 400, "invalid_rules",
			    "%s: unknown hand; use mini_royal, straight_flush, three_of_a_kind, straight, flush, pair", path);
		if (read_pay(v, path, HAND_PAY_KEYS[i].category < 0 ? &t->mini_royal : &t->by_category[HAND_PAY_KEYS[i].category], err) < 0)
			return -1;
		*any = true;
	}
	return 0;
}

static const char *const SIX_PAY_KEYS[] = {
	"royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
	"straight", "three_of_a_kind", "two_pair", "pair",
};

static int
read_six_card(const json_t *obj, struct rules *r, struct pb_error *err)
{
	const char *k;
	const json_t *v;
	char path[96];
	bool any = false;

	if (!json_is_object(obj))
		return pb_fail(err, 400, "invalid_rules", "six_card_bonus: must be an object of hand -> pay, e.g. {\"flush\": \"15\"}");
	json_object_foreach((json_t *)obj, k, v) {
		int cat = hand6_category_from_name(k);

		snprintf(path, sizeof(path), "six_card_bonus.%.40s", k);
		if (cat <= SIX_NOTHING)
			return pb_fail(err, 400, "invalid_rules",
			    "%s: unknown hand; use royal_flush, straight_flush, four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, pair", path);
		if (read_pay(v, path, &r->six_card[cat], err) < 0)
			return -1;
		any = true;
	}
	if (!any)
		return pb_fail(err, 400, "invalid_rules", "six_card_bonus: name at least one paying hand, or leave the key out to offer no six card bonus");
	r->has_six_card = true;
	return 0;
}

static int
read_enum(const json_t *v, const char *key, const char *const *names, int n, int *out, struct pb_error *err)
{
	if (json_is_string(v))
		for (int i = 0; i < n; i++)
			if (strcmp(json_string_value(v), names[i]) == 0) {
				*out = i;
				return 0;
			}
	if (n == 2)
		return pb_fail(err, 400, "invalid_rules", "%s: must be \"%s\" or \"%s\"", key, names[0], names[1]);
	return pb_fail(err, 400, "invalid_rules", "%s: unknown value", key);
}

int
rules_from_json(const json_t *obj, struct rules *r, struct pb_error *err)
{
	static const char *const MODES[] = {"standard", "must_beat_dealer"};
	static const char *const TIES[] = {"push", "push_pair_or_better"};
	const char *k;
	const json_t *v;
	struct pb_error sub;
	bool any, tie_given = false;
	int e = 0;

	memset(r, 0, sizeof(*r));
	snprintf(r->dealer_qualifier_text, sizeof(r->dealer_qualifier_text), "Q");
	hand3_parse_high_card("Q", &r->dealer_qualifier, NULL);
	r->pair_plus_requires_ante = true;
	r->raise_optimal = true;
	snprintf(r->raise_text, sizeof(r->raise_text), "optimal");

	if (!json_is_object(obj))
		return pb_fail(err, 400, "invalid_rules", "a rules object must be a JSON object");
	json_object_foreach((json_t *)obj, k, v) {
		if (strcmp(k, "name") == 0) {
			if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= RULES_NAME_MAX)
				return pb_fail(err, 400, "invalid_rules", "name: must be a non-empty string of at most %d bytes", RULES_NAME_MAX - 1);
			snprintf(r->name, sizeof(r->name), "%s", json_string_value(v));
		} else if (strcmp(k, "dealer_qualifier") == 0) {
			if (!json_is_string(v) || hand3_parse_high_card(json_string_value(v), &r->dealer_qualifier, &sub) < 0)
				return pb_fail(err, 400, "invalid_rules",
				    "dealer_qualifier: must be the lowest qualifying high-card hand, \"Q\" or a full hand such as \"Q-6-4\"");
			snprintf(r->dealer_qualifier_text, sizeof(r->dealer_qualifier_text), "%s", json_string_value(v));
		} else if (strcmp(k, "ante_bonus") == 0) {
			if (read_hand_paytable(v, "ante_bonus", &r->ante_bonus, &any, err) < 0)
				return -1;
			r->has_ante_bonus = any;
		} else if (strcmp(k, "pair_plus") == 0) {
			if (read_hand_paytable(v, "pair_plus", &r->pair_plus, &any, err) < 0)
				return -1;
			if (!any)
				return pb_fail(err, 400, "invalid_rules", "pair_plus: name at least one paying hand, or leave the key out to offer no Pair Plus");
			r->has_pair_plus = true;
		} else if (strcmp(k, "pair_plus_mode") == 0) {
			if (read_enum(v, "pair_plus_mode", MODES, 2, &e, err) < 0)
				return -1;
			r->pair_plus_mode = (enum pair_plus_mode)e;
		} else if (strcmp(k, "pair_plus_tie") == 0) {
			if (read_enum(v, "pair_plus_tie", TIES, 2, &e, err) < 0)
				return -1;
			r->pair_plus_tie = (enum pair_plus_tie)e;
			tie_given = true;
		} else if (strcmp(k, "pair_plus_requires_ante") == 0) {
			if (!json_is_boolean(v))
				return pb_fail(err, 400, "invalid_rules", "pair_plus_requires_ante: must be true or false");
			r->pair_plus_requires_ante = json_is_true(v);
		} else if (strcmp(k, "six_card_bonus") == 0) {
			if (read_six_card(v, r, err) < 0)
				return -1;
		} else if (strcmp(k, "raise_strategy") == 0) {
			if (!json_is_string(v))
				return pb_fail(err, 400, "invalid_rules", "raise_strategy: must be \"optimal\" or the lowest hand raised, such as \"Q-6-4\"");
			if (strcmp(json_string_value(v), "optimal") == 0) {
				r->raise_optimal = true;
			} else if (hand3_parse_high_card(json_string_value(v), &r->raise_min, &sub) == 0) {
				r->raise_optimal = false;
			} else {
				return pb_fail(err, 400, "invalid_rules", "raise_strategy: must be \"optimal\" or the lowest hand raised, such as \"Q-6-4\"");
			}
			snprintf(r->raise_text, sizeof(r->raise_text), "%s", json_string_value(v));
		} else {
			return pb_fail(err, 400, "invalid_rules",
			    "%.40s: unknown key; a rules object has name, dealer_qualifier, ante_bonus, pair_plus, "
			    "pair_plus_mode, pair_plus_tie, pair_plus_requires_ante, six_card_bonus, raise_strategy", k);
		}
	}
	if (tie_given && r->pair_plus_mode != PAIR_PLUS_MUST_BEAT_DEALER)
		return pb_fail(err, 400, "invalid_rules", "pair_plus_tie: applies only with \"pair_plus_mode\": \"must_beat_dealer\"");
	if (r->name[0] == '\0')
		snprintf(r->name, sizeof(r->name), "unnamed");
	return 0;
}

static json_t *
hand_paytable_to_json(const struct hand_paytable *t)
{
	json_t *o = json_object();
	char buf[32];

	for (size_t i = 0; i < sizeof(HAND_PAY_KEYS) / sizeof(HAND_PAY_KEYS[0]); i++) {
		const struct pay *p = HAND_PAY_KEYS[i].category < 0 ? &t->mini_royal : &t->by_category[HAND_PAY_KEYS[i].category];
		if (!p->present)
			continue;
		pay_format(*p, buf, sizeof(buf));
		json_object_set_new(o, HAND_PAY_KEYS[i].key, json_string(buf));
	}
	return o;
}

static json_t *
rules_json_build(const struct rules *r)
{
	json_t *o = json_object();
	char buf[32];

	json_object_set_new(o, "name", json_string(r->name));
	json_object_set_new(o, "dealer_qualifier", json_string(r->dealer_qualifier_text));
	json_object_set_new(o, "ante_bonus", r->has_ante_bonus ? hand_paytable_to_json(&r->ante_bonus) : json_object());
	if (r->has_pair_plus) {
		json_object_set_new(o, "pair_plus", hand_paytable_to_json(&r->pair_plus));
		json_object_set_new(o, "pair_plus_mode",
		    json_string(r->pair_plus_mode == PAIR_PLUS_MUST_BEAT_DEALER ? "must_beat_dealer" : "standard"));
		if (r->pair_plus_mode == PAIR_PLUS_MUST_BEAT_DEALER)
			json_object_set_new(o, "pair_plus_tie",
			    json_string(r->pair_plus_tie == PAIR_PLUS_TIE_PUSH ? "push" : "push_pair_or_better"));
	}
	json_object_set_new(o, "pair_plus_requires_ante", json_boolean(r->pair_plus_requires_ante));
	if (r->has_six_card) {
		json_t *s = json_object();
		for (size_t i = 0; i < sizeof(SIX_PAY_KEYS) / sizeof(SIX_PAY_KEYS[0]); i++) {
			int cat = hand6_category_from_name(SIX_PAY_KEYS[i]);
			if (!r->six_card[cat].present)
				continue;
			pay_format(r->six_card[cat], buf, sizeof(buf));
			json_object_set_new(s, SIX_PAY_KEYS[i], json_string(buf));
		}
		json_object_set_new(o, "six_card_bonus", s);
	}
	json_object_set_new(o, "raise_strategy", json_string(r->raise_text));
	return o;
}

/*
 * The last rules object built on each thread, for the rules byte for byte
 * equal: every round puts its rules in its round_opened event and in its
 * answer.  The object is shared (jansson counts references atomically) and
 * nobody changes it once built.
 */
struct rules_memo {
	struct rules key;
	json_t *json;
	json_t *sorted;           /* json as json_loads reads its sorted text back; NULL until asked for */
};

static pthread_key_t memo_key;
static pthread_once_t memo_once = PTHREAD_ONCE_INIT;
static bool memo_ok;

static void
memo_free(void *p)
{
	struct rules_memo *m = p;

	json_decref(m->json);
	json_decref(m->sorted);
	free(m);
}

static void
memo_init(void)
{
	memo_ok = pthread_key_create(&memo_key, memo_free) == 0;
}

json_t *
rules_to_json(const struct rules *r)
{
	struct rules_memo *m;
	json_t *o;

	pthread_once(&memo_once, memo_init);
	m = memo_ok ? pthread_getspecific(memo_key) : NULL;
	if (m != NULL && memcmp(&m->key, r, sizeof(*r)) == 0)
		return json_incref(m->json);
	o = rules_json_build(r);
	if (o == NULL || !memo_ok)
		return o;
	if (m == NULL) {
		if ((m = malloc(sizeof(*m))) == NULL)
			return o;
		m->json = NULL;
		m->sorted = NULL;
		if (pthread_setspecific(memo_key, m) != 0) {
			free(m);
			return o;
		}
	}
	json_decref(m->json);
	json_decref(m->sorted);
	m->key = *r;
	m->json = json_incref(o);
	m->sorted = NULL;
	return o;
}

/* o's sorted compact text read back (the order json_loads keeps); NULL when that fails. */
static json_t *
sorted_copy(const json_t *o)
{
	char *text = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	json_t *back = text ? json_loads(text, 0, NULL) : NULL;

	free(text);
	return back;
}

json_t *
rules_to_event_json(const struct rules *r)
{
	json_t *o = rules_to_json(r), *sorted;
	struct rules_memo *m;

	if (o == NULL)
		return NULL;
	m = memo_ok ? pthread_getspecific(memo_key) : NULL;
	if (m == NULL || m->json != o) {      /* not remembered: a copy of its own */
		sorted = sorted_copy(o);
		json_decref(o);
		return sorted;
	}
	json_decref(o);
	if (m->sorted == NULL)
		m->sorted = sorted_copy(m->json);
	return m->sorted ? json_incref(m->sorted) : NULL;
}
