/*
 * round.h - the round as the domain knows it: its states, the steps that
 * move it between them, and the whole record of one round (bets, cards,
 * decisions, payouts, collection).  Plain data: the table layer drives it,
 * the store keeps it, the engine settles it.
 */
#ifndef PB_ENGINE_ROUND_H
#define PB_ENGINE_ROUND_H

#include <stdbool.h>
#include <stdint.h>

#include "common/ids.h"
#include "common/timeutil.h"
#include "engine/cards.h"
#include "engine/collection.h"
#include "engine/limits.h"
#include "engine/rules.h"
#include "engine/settle.h"

#define ROUND_REASON_MAX 257
#define ROUND_COMPANY_MAX 97         /* a provider company's name, bytes with the NUL */
#define ROUND_DEALER_NAME_MAX 129   /* a person's name (store.h PERSON_NAME_MAX) */

/*
 * The steps of a round, as the dealer terminal sends them; STEP_OPEN, the
 * step that creates the round, comes last so that the others keep their
 * values.
 */
enum round_step {
	STEP_BET_PUT, STEP_BET_DELETE, STEP_CLOSE, STEP_DEAL, STEP_DECIDE, STEP_REVEAL, STEP_SETTLE, STEP_VOID, STEP_OPEN
};
#define ROUND_STEP_COUNT (STEP_OPEN + 1)

enum round_state { ROUND_BETTING = 0, ROUND_CLOSED, ROUND_DEALT, ROUND_REVEALED, ROUND_SETTLED, ROUND_VOID };

/* The state's name as the API writes it ("betting", ... "void"); "unknown" out of range. */
const char *round_state_name(enum round_state st);

/* ---- the state machine, written once: the live steps and the replay both ask it ---- */

/* A set of states, as bits. */
#define ROUND_IN(st) (1u << (st))

/*
 * One step of the state machine: the event it records, the words the live
 * path's refusal uses for it, the states it may be taken from (none: it
 * opens a round that does not exist yet) and whether and where it moves the
 * round.
 */
struct round_step_rule {
	const char *event;        /* "bet_placed", ...: the type of the event the step records */
	const char *doing;        /* "placing a bet": "... %s needs a round that is %s" */
	unsigned from;            /* ROUND_IN(state) bits; 0 for STEP_OPEN */
	bool moves;               /* false: the round stays in the state it was in */
	enum round_state to;      /* the state it leaves the round in, when moves */
};

/* The rule of a step; NULL out of range. */
const struct round_step_rule *round_step_rule(enum round_step step);

/* The step whose event is type ("round_opened", ...), or -1 for a type no step records. */
int round_step_by_event(const char *type);

/* Whether step may be taken from a round in state st (STEP_OPEN: never, it needs no round). */
bool round_step_allowed(enum round_step step, enum round_state st);

/* The state a round in st is left in by step (st itself for a step that does not move it). */
enum round_state round_step_next(enum round_step step, enum round_state st);

/*
 * Checks that round round_id, in state st, may take step.  Refuses with 409:
 * round_final "round N is settled; nothing more can be done to it" when st is
 * final, else wrong_state "round N is closed; <doing> needs a round that is
 * <the first state the step may be taken from>".
 */
int round_step_check(enum round_step step, int64_t round_id, enum round_state st, struct pb_error *err);

struct round_record {
	int64_t id;
	char table_id[PB_ID_MAX];
	int64_t round_no;
	enum round_state state;
	int64_t rules_id;
	struct rules rules;               /* the rules in force, read back from the stored copy */
	struct table_limits limits;       /* the limits in force */
	int seats;
	bool player_banked;
	int banker_seat;
	int64_t bank;
	char opened_at[PB_TIME_LEN];
	char opened_by[PB_ID_MAX];
	char closed_at[PB_TIME_LEN];
	char settled_at[PB_TIME_LEN];     /* settled or voided */
	char void_reason[ROUND_REASON_MAX];
	bool has_bet[MAX_SEATS + 1];
	struct seat_bet bets[MAX_SEATS + 1];
	char bet_at[MAX_SEATS + 1][PB_TIME_LEN];
	bool has_hand[MAX_SEATS + 1];     /* index 0 = the dealer */
	card_t hands[MAX_SEATS + 1][3];
	char dealt_at[MAX_SEATS + 1][PB_TIME_LEN];
	enum decision decisions[MAX_SEATS + 1];
	char decided_at[MAX_SEATS + 1][PB_TIME_LEN];
	bool dealer_qualifies;
	int64_t players_net;
	int payout_count;
	struct payout_line payouts[MAX_PAYOUT_LINES];
	struct collection_schedule collection;   /* in force for the round (player-banked tables) */
	struct collection_fees fees;             /* collected when the round finished */
	char bet_by[MAX_SEATS + 1][PB_ID_MAX];   /* who placed each bet */
	char decided_by[MAX_SEATS + 1][PB_ID_MAX];
	bool hand_label_bad[MAX_SEATS + 1];      /* a stored hand name that is not its cards' (index 0 = dealer) */
	int banker_consecutive;                  /* player-banked: the turn recorded for this round */
	int declined[MAX_SEATS];                 /* seats recorded as passing the bank on the way to this banker */
	int declined_count;
	char dealer_id[PB_ID_MAX];               /* the person dealing when the round opened; "" when none was set */
	char dealer_name[ROUND_DEALER_NAME_MAX]; /* their name then */
	char players[MAX_SEATS + 1][PB_ID_MAX];  /* the player seated at each seat when it opened; "" when none */
	char banker_player[PB_ID_MAX];           /* player-banked: the banker's player id; "" when not named */
	char provider_badge[PB_ID_MAX];          /* or the third-party proposition player's badge ... */
	char provider_company[ROUND_COMPANY_MAX];/* ... and the provider company he banks for */
};

/* The state named name, or -1. */
int round_state_from_name(const char *name);

#endif
