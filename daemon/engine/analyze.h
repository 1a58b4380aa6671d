/*
 * analyze.h - exact analysis of a game by complete enumeration.
 *
 * Every figure is a count over all deals: 22,100 player hands for the hand
 * table and standard Pair Plus, 22,100 x 18,424 player/dealer pairs
 * (407,170,400) for Ante/Play and must-beat-dealer Pair Plus, and all
 * C(52,6) = 20,358,520 six-card sets for the six card bonus.  Nothing is
 * sampled.  The player/dealer pairs are counted by card removal
 * (inclusion-exclusion over dealer hands that share cards with the player's)
 * so one analysis costs about a millisecond once the rules-independent
 * tables are built (once per process, thread-safe, a few milliseconds).
 *
 * Net results are exact: they are kept in units of 1/ANALYSIS_NET_DEN of the
 * wager (pays have at most four decimals).  Derived ratios (house edge,
 * probabilities, variance) are doubles: they are statistics, not money.
 */
#ifndef PB_ENGINE_ANALYZE_H
#define PB_ENGINE_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/hand3.h"
#include "engine/hand6.h"
#include "engine/rules.h"

#define ANALYSIS_HANDS 22100u            /* C(52,3) */
#define ANALYSIS_DEALER_HANDS 18424u     /* C(49,3) */
#define ANALYSIS_PAIRS 407170400ull      /* 22,100 x 18,424 */
#define ANALYSIS_SIX_SETS 20358520ull    /* C(52,6) */
#define ANALYSIS_NET_DEN 10000           /* net results in 1/10000 of the wager */
#define ANALYSIS_NET_MAX 64

/* One possible net result of a wager and the number of deals that give it. */
struct net_count {
	int64_t net;        /* in 1/ANALYSIS_NET_DEN units of the wager */
	uint64_t count;
};

/*
 * A wager's distribution of net results, sorted by net, and its moments.
 * total_net is the exact sum of count * net (same units); mean, second
 * moment and variance are per unit of the wager.
 */
struct net_dist {
	int n;
	struct net_count v[ANALYSIS_NET_MAX];
	uint64_t combinations;
	__int128 total_net;
	double mean;            /* expected net per unit wagered (negative: house wins) */
	double second_moment;   /* E[net^2] per unit wagered squared */
	double variance;        /* second_moment - mean^2 */
};

/* Pair Plus and Ante Bonus rows: three-card categories plus the mini royal. */
#define ANALYSIS_MINI_ROYAL H3_CATEGORY_COUNT
#define ANALYSIS_PAY_ROWS (H3_CATEGORY_COUNT + 1)

struct ante_play_figures {
	char strategy[24];               /* lowest hand raised, "Q-6-4"; "none" when nothing is raised */
	hand3_value_t lowest_raised;
	bool any_raised;
	bool any_folded;
	hand3_value_t highest_folded;    /* > lowest_raised only if the strategy is not a threshold */
	uint64_t raised_hands;           /* of 22,100 */
	uint64_t combinations;           /* 407,170,400 */
	uint64_t fold, dealer_not_qualify, player_wins, push, dealer_wins;
	uint64_t bonus_paid[ANALYSIS_PAY_ROWS];   /* raised deals paid an ante bonus, by hand */
	struct net_dist net;             /* per unit of ante */
	double house_edge;               /* expected loss per unit ante */
	double element_of_risk;          /* expected loss per unit of average total wager */
	double raise_rate;               /* raised hands / all hands */
};

struct pair_plus_figures {
	enum pair_plus_mode mode;
	enum pair_plus_tie tie;
	uint64_t combinations;           /* 22,100 or 407,170,400 */
	uint64_t wins[ANALYSIS_PAY_ROWS];     /* winning deals by paying hand (mini royal apart when it has its own pay) */
	uint64_t push;                   /* must_beat_dealer ties that push */
	uint64_t lose;
	struct net_dist net;
	double house_edge;
};

struct six_card_figures {
	uint64_t combinations;           /* 20,358,520 */
	uint64_t hands[SIX_CATEGORY_COUNT];
	struct net_dist net;
	double house_edge;
};

struct analysis {
	char rules_name[RULES_NAME_MAX];
	struct rules rules;              /* a copy of what was analysed */
	uint64_t hands[H3_CATEGORY_COUNT];
	uint64_t mini_royal;             /* subset of hands[H3_STRAIGHT_FLUSH] */
	uint64_t hands_total;
	struct ante_play_figures ante_play;
	bool has_pair_plus;
	struct pair_plus_figures pair_plus;
	bool has_six_card;
	struct six_card_figures six_card;
};

/*
 * Analyses a game exactly.  Fills *out completely and returns 0, or returns
 * -1 with err set (500 analysis_failed: only if the process cannot build its
 * tables, or 400 invalid_rules for a rules struct that no parser would make).
 * Safe to call from several threads at once.
 */
int analyze_rules(const struct rules *r, struct analysis *out, struct pb_error *err);

/*
 * The six card bonus counts of the best-five category over all 20,358,520
 * six-card sets, indexed by enum six_category.  Rules-independent; computed
 * once per process (thread-safe) by rank multisets and flush sets, not by
 * brute force.  Returns a pointer to a static table.
 */
const uint64_t *analyze_six_card_counts(void);

/*
 * What one player hand meets over the 18,424 dealer hands left in the deck.
 * The first four add up to 18,424 (Ante/Play outcomes if raised), as do the
 * three dealer_* counts (qualified or not: must-beat-dealer Pair Plus).
 */
struct hand_outcomes {
	uint32_t dealer_not_qualify;
	uint32_t player_wins;            /* dealer qualifies and is lower */
	uint32_t push;                   /* dealer qualifies and ties exactly */
	uint32_t dealer_wins;            /* dealer qualifies and is higher */
	uint32_t dealer_lower, dealer_equal, dealer_higher;
	int64_t ante_bonus;              /* paid if raised, 1/ANALYSIS_NET_DEN units */
	int64_t raise_net_total;         /* sum of the raised net over the dealer hands, same units */
	bool raise;                      /* what the rules' strategy does with this hand */
};

/*
 * The outcomes of one player hand (three distinct cards) under r: the same
 * counting the full analysis uses, exposed for tests and per-hand advice.
 * EV(raise) is raise_net_total / (18,424 * ANALYSIS_NET_DEN) units of ante.
 */
int analyze_player_hand(const struct rules *r, const card_t cards[3], struct hand_outcomes *out,
    struct pb_error *err);

/* Writes a net result (1/ANALYSIS_NET_DEN units) as its shortest decimal: "-2", "12.5", "-0.5". */
void analysis_format_net(int64_t net, char *out, size_t outsz);

/*
 * A pay as a net result in 1/ANALYSIS_NET_DEN units of the wager (0 for an
 * absent pay); exact, since every pay's denominator divides ANALYSIS_NET_DEN.
 */
int64_t analysis_pay_units(struct pay p);

/* Printing an analysis (JSON, readable tables) is the command-line tool's: cli/analyze_format.c. */

#endif
