/*
 * settle.h - settlement of one round: the only place a payout is computed.
 *
 * Given the rules, the table's seats and banking, the bets, the cards and the
 * decisions, settle_round() produces the payout lines in payout order
 * (API.md): seats from the dealer's left, clockwise (on a player-banked
 * table from the seat after the banker's, the banker's seat left out); within
 * a seat ante, play, pair_plus, six_card, ante_bonus.  Wins are rounded down
 * to the cent.  On a player-banked table the coverage walk then pays wins
 * from the bank while it lasts.
 */
#ifndef PB_ENGINE_SETTLE_H
#define PB_ENGINE_SETTLE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/cards.h"
#include "engine/rules.h"

#define MAX_SEATS 8
#define WAGERS_PER_SEAT 5
#define MAX_PAYOUT_LINES (MAX_SEATS * WAGERS_PER_SEAT)

enum wager { WAGER_ANTE = 0, WAGER_PLAY, WAGER_PAIR_PLUS, WAGER_SIX_CARD, WAGER_ANTE_BONUS, WAGER_COUNT };
enum result { RESULT_WIN = 0, RESULT_LOSE, RESULT_PUSH, RESULT_FORFEIT, RESULT_RETURNED };
enum decision { DECISION_NONE = 0, DECISION_PLAY, DECISION_FOLD };

/* What one seat put up before the deal.  Play is not here: it equals the Ante when the seat plays. */
struct seat_bet {
	int64_t ante;
	int64_t pair_plus;
	int64_t six_card;
};

struct round_input {
	const struct rules *rules;
	int seats;                                   /* 1..MAX_SEATS */
	bool player_banked;
	int banker_seat;                             /* player-banked: 1..seats */
	int64_t bank;                                /* player-banked: the banker's stake */
	struct seat_bet bets[MAX_SEATS + 1];         /* index = seat; all zero = empty seat */
	card_t hands[MAX_SEATS + 1][3];              /* cards of each seat with a bet */
	card_t dealer[3];                            /* the dealer's (banker's) hand */
	enum decision decisions[MAX_SEATS + 1];      /* for seats with an Ante */
	bool is_void;                                /* misdeal: every wager returned */
};

struct payout_line {
	int seq;                /* 1-based, in payout order */
	int seat;
	enum wager wager;
	int64_t stake;
	enum result result;
	int64_t net;            /* the player's gain in cents */
	bool banked;            /* player-banked: bank_after and short apply */
	int64_t bank_after;
	int64_t short_amount;   /* unpaid rest of a win the bank could not cover */
};

struct settlement {
	int line_count;
	struct payout_line lines[MAX_PAYOUT_LINES];
	bool dealer_qualifies;
	hand3_value_t dealer_value;
	int64_t players_net;     /* sum of net over all lines */
	int64_t bank_start;      /* player-banked only */
	int64_t bank_end;
	bool bank_exhausted;
};

/* True when the seat put up any wager. */
bool seat_bet_any(const struct seat_bet *b);

/* The seat's Play wager given its decision: the Ante when it plays, else 0. */
int64_t seat_play_stake(const struct seat_bet *b, enum decision d);

/*
 * Checks that the round is complete and consistent enough to settle: bets
 * non-negative and only on the table's seats, cards for every seat with a bet
 * and for the dealer, none for empty seats (CARD_NONE), no card twice (the
 * message names both places: "card As dealt twice: seat 1 and dealer"), a
 * play/fold decision for every Ante seat and none for others, Pair Plus or six
 * card alone only where the rules allow, the banker's seat without wagers.  A
 * void round needs no cards.
 */
int settle_check(const struct round_input *in, struct pb_error *err);

/*
 * Settles the round into out.  Runs settle_check first; on failure nothing is
 * written to out and err says why (422).
 */
int settle_round(const struct round_input *in, struct settlement *out, struct pb_error *err);

/* Payout order: the seats in the order they are paid (banker's seat left out). Returns the count. */
int payout_seat_order(const struct round_input *in, int order[MAX_SEATS]);

const char *wager_name(enum wager w);
const char *result_name(enum result r);
const char *decision_name(enum decision d);
int wager_from_name(const char *name);
int decision_from_name(const char *name);

#endif
