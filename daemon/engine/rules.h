/*
 * rules.h - a game's rules object (API.md "Game rules object"): qualifier,
 * pay tables as exact rationals, Pair Plus mode and tie rule, optional
 * wagers, and the raise strategy used by the analysis.
 */
#ifndef PB_ENGINE_RULES_H
#define PB_ENGINE_RULES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/hand3.h"
#include "engine/hand6.h"

/* A pay of num/den to 1; den is a power of ten.  present is false when the hand does not pay. */
struct pay {
	bool present;
	int64_t num;
	int64_t den;
};

/* Pays by three-card category, plus the optional mini royal (suited A-K-Q). */
struct hand_paytable {
	struct pay by_category[H3_CATEGORY_COUNT];
	struct pay mini_royal;
};

enum pair_plus_mode { PAIR_PLUS_STANDARD = 0, PAIR_PLUS_MUST_BEAT_DEALER };
enum pair_plus_tie { PAIR_PLUS_TIE_PUSH = 0, PAIR_PLUS_TIE_PUSH_PAIR_OR_BETTER };

#define RULES_NAME_MAX 64

struct rules {
	char name[RULES_NAME_MAX];
	hand3_value_t dealer_qualifier;      /* lowest qualifying hand */
	char dealer_qualifier_text[16];      /* as written: "Q" or "Q-6-4" */
	bool has_ante_bonus;                 /* false when {} or absent */
	struct hand_paytable ante_bonus;
	bool has_pair_plus;                  /* false when the game offers no Pair Plus */
	struct hand_paytable pair_plus;
	enum pair_plus_mode pair_plus_mode;
	enum pair_plus_tie pair_plus_tie;
	bool pair_plus_requires_ante;
	bool has_six_card;                   /* false when no six card bonus */
	struct pay six_card[SIX_CATEGORY_COUNT];
	bool raise_optimal;                  /* raise_strategy "optimal" */
	hand3_value_t raise_min;             /* otherwise: lowest hand raised */
	char raise_text[16];
};

/*
 * Reads a rules object.  Every problem is reported as 400 invalid_rules with
 * the key's path and what is wrong ("pair_plus.flush: ...").  Unknown keys
 * are refused so that a misspelt key never silently changes a game.
 */
int rules_from_json(const json_t *obj, struct rules *out, struct pb_error *err);

/*
 * The canonical rules object (all keys, pays as decimal strings); new reference.
 * Shared with the last call on the thread for equal rules: never change it.
 */
json_t *rules_to_json(const struct rules *r);

/*
 * The same object with its keys in sorted order at every depth, as
 * json_loads gives it back from its canonical text: for an event body,
 * whose timeline in a whole round's answer can then share it
 * (store/capture.h).  Shared like rules_to_json's; new reference.
 */
json_t *rules_to_event_json(const struct rules *r);

/* Parses a pay string such as "40" or "12.5" (at most 4 decimals, 0 < pay <= 1000000). */
int pay_parse(const char *text, struct pay *out);

/* Writes the pay as its shortest decimal string ("40", "12.5"). */
void pay_format(struct pay p, char *out, size_t outsz);

/* The player's win on stake at pay p, rounded down to the cent; -1 on overflow. */
int64_t pay_win(struct pay p, int64_t stake);

/* The pay for a three-card hand on a pay table (mini royal first), or a pay with present=false. */
struct pay paytable_lookup(const struct hand_paytable *t, const card_t cards[3]);

/* The same from a hand value and mini-royal flag (for the analysis). */
struct pay paytable_lookup_value(const struct hand_paytable *t, hand3_value_t v, bool mini_royal);

#endif
