/*
 * sql/rounds.h - the column lists of a round's statements (rounds.def),
 * with the indices rounds.c and audit.c bind and read them by.
 */
#ifndef PB_STORE_SQL_ROUNDS_H
#define PB_STORE_SQL_ROUNDS_H

#include "store/sql/columns.h"

/* A round as created (STMT_ROUND_INSERT): its state, between the two, is always 'betting'. */
#define ROUND_INSERT_HEAD(X, Y) \
	X(ROUND_IN_TABLE_ID, "table_id") \
	Y(ROUND_IN_ROUND_NO, "round_no")
#define ROUND_INSERT_TAIL(X, Y) \
	X(ROUND_IN_RULES_ID, "rules_id") \
	Y(ROUND_IN_LIMITS_JSON, "limits_json") \
	Y(ROUND_IN_SEATS, "seats") \
	Y(ROUND_IN_BANKING, "banking") \
	Y(ROUND_IN_BANKER_SEAT, "banker_seat") \
	Y(ROUND_IN_BANK, "bank") \
	Y(ROUND_IN_OPENED_AT, "opened_at") \
	Y(ROUND_IN_OPENED_BY, "opened_by") \
	Y(ROUND_IN_COLLECTION_JSON, "collection_json") \
	Y(ROUND_IN_DEALER_ID, "dealer_id") \
	Y(ROUND_IN_DEALER_NAME, "dealer_name")
enum round_in { SQL_INDICES(ROUND_INSERT_HEAD) SQL_INDICES(ROUND_INSERT_TAIL) ROUND_IN_COUNT };

/* A round as read (STMT_ROUND_GET), with its rules' text. */
#define ROUND_COLS(X, Y) \
	X(ROUND_COL_TABLE_ID, "r.table_id") \
	Y(ROUND_COL_ROUND_NO, "r.round_no") \
	Y(ROUND_COL_STATE, "r.state") \
	Y(ROUND_COL_RULES_ID, "r.rules_id") \
	Y(ROUND_COL_LIMITS_JSON, "r.limits_json") \
	Y(ROUND_COL_SEATS, "r.seats") \
	Y(ROUND_COL_BANKING, "r.banking") \
	Y(ROUND_COL_BANKER_SEAT, "r.banker_seat") \
	Y(ROUND_COL_BANK, "r.bank") \
	Y(ROUND_COL_OPENED_AT, "r.opened_at") \
	Y(ROUND_COL_OPENED_BY, "r.opened_by") \
	Y(ROUND_COL_CLOSED_AT, "r.closed_at") \
	Y(ROUND_COL_SETTLED_AT, "r.settled_at") \
	Y(ROUND_COL_VOID_REASON, "r.void_reason") \
	Y(ROUND_COL_DEALER_QUALIFIES, "r.dealer_qualifies") \
	Y(ROUND_COL_PLAYERS_NET, "r.players_net") \
	Y(ROUND_COL_RULES_JSON, "s.rules_json") \
	Y(ROUND_COL_COLLECTION_JSON, "r.collection_json") \
	Y(ROUND_COL_DEALER_ID, "r.dealer_id") \
	Y(ROUND_COL_DEALER_NAME, "r.dealer_name")
enum round_col { SQL_INDICES(ROUND_COLS) ROUND_COL_COUNT };

/* What a round's step changes (STMT_ROUND_UPDATE: SET each, then WHERE id). */
#define ROUND_SET_COLS(X, Y) \
	X(ROUND_SET_STATE, "state") \
	Y(ROUND_SET_CLOSED_AT, "closed_at") \
	Y(ROUND_SET_SETTLED_AT, "settled_at") \
	Y(ROUND_SET_VOID_REASON, "void_reason") \
	Y(ROUND_SET_DEALER_QUALIFIES, "dealer_qualifies") \
	Y(ROUND_SET_PLAYERS_NET, "players_net")
enum round_set { SQL_INDICES(ROUND_SET_COLS) ROUND_SET_ID, ROUND_SET_COUNT };

/* A bet as written (STMT_BET_PUT): its seat of its round, then what a later bet of the seat replaces. */
#define BET_KEY(X, Y) \
	X(BET_IN_ROUND_ID, "round_id") \
	Y(BET_IN_SEAT, "seat")
#define BET_VALUES(X, Y) \
	X(BET_IN_ANTE, "ante") \
	Y(BET_IN_PAIR_PLUS, "pair_plus") \
	Y(BET_IN_SIX_CARD, "six_card") \
	Y(BET_IN_PLACED_AT, "placed_at") \
	Y(BET_IN_PLACED_BY, "placed_by")
enum bet_in { SQL_INDICES(BET_KEY) SQL_INDICES(BET_VALUES) BET_IN_COUNT };

/* A round's bet as read (STMT_ROUND_BETS). */
#define BET_COLS(X, Y) \
	X(BET_COL_SEAT, "seat") \
	Y(BET_COL_ANTE, "ante") \
	Y(BET_COL_PAIR_PLUS, "pair_plus") \
	Y(BET_COL_SIX_CARD, "six_card") \
	Y(BET_COL_PLACED_AT, "placed_at") \
	Y(BET_COL_PLACED_BY, "placed_by")
enum bet_col { SQL_INDICES(BET_COLS) BET_COL_COUNT };

/* A hand as written (STMT_HAND_INSERT) and as read (STMT_ROUND_HANDS). */
#define HAND_INSERT_COLS(X, Y) \
	X(HAND_IN_ROUND_ID, "round_id") \
	Y(HAND_IN_SEAT, "seat") \
	Y(HAND_IN_CARDS, "cards") \
	Y(HAND_IN_HAND, "hand") \
	Y(HAND_IN_DEALT_AT, "dealt_at")
enum hand_in { SQL_INDICES(HAND_INSERT_COLS) HAND_IN_COUNT };
#define HAND_COLS(X, Y) \
	X(HAND_COL_SEAT, "seat") \
	Y(HAND_COL_CARDS, "cards") \
	Y(HAND_COL_DEALT_AT, "dealt_at") \
	Y(HAND_COL_HAND, "hand")
enum hand_col { SQL_INDICES(HAND_COLS) HAND_COL_COUNT };

/* A play/fold decision as written (STMT_DECISION_INSERT) and as read (STMT_ROUND_DECISIONS). */
#define DECISION_INSERT_COLS(X, Y) \
	X(DECISION_IN_ROUND_ID, "round_id") \
	Y(DECISION_IN_SEAT, "seat") \
	Y(DECISION_IN_ACTION, "action") \
	Y(DECISION_IN_DECIDED_AT, "decided_at") \
	Y(DECISION_IN_DECIDED_BY, "decided_by")
enum decision_in { SQL_INDICES(DECISION_INSERT_COLS) DECISION_IN_COUNT };
#define DECISION_COLS(X, Y) \
	X(DECISION_COL_SEAT, "seat") \
	Y(DECISION_COL_ACTION, "action") \
	Y(DECISION_COL_DECIDED_AT, "decided_at") \
	Y(DECISION_COL_DECIDED_BY, "decided_by")
enum decision_col { SQL_INDICES(DECISION_COLS) DECISION_COL_COUNT };

/* A payout line as written (STMT_PAYOUT_INSERT) and as read (STMT_ROUND_PAYOUTS). */
#define PAYOUT_INSERT_COLS(X, Y) \
	X(PAYOUT_IN_ROUND_ID, "round_id") \
	Y(PAYOUT_IN_SEQ, "seq") \
	Y(PAYOUT_IN_SEAT, "seat") \
	Y(PAYOUT_IN_WAGER, "wager") \
	Y(PAYOUT_IN_STAKE, "stake") \
	Y(PAYOUT_IN_RESULT, "result") \
	Y(PAYOUT_IN_NET, "net") \
	Y(PAYOUT_IN_BANK_AFTER, "bank_after") \
	Y(PAYOUT_IN_SHORT, "short")
enum payout_in { SQL_INDICES(PAYOUT_INSERT_COLS) PAYOUT_IN_COUNT };
#define PAYOUT_COLS(X, Y) \
	X(PAYOUT_COL_SEQ, "seq") \
	Y(PAYOUT_COL_SEAT, "seat") \
	Y(PAYOUT_COL_WAGER, "wager") \
	Y(PAYOUT_COL_STAKE, "stake") \
	Y(PAYOUT_COL_RESULT, "result") \
	Y(PAYOUT_COL_NET, "net") \
	Y(PAYOUT_COL_BANK_AFTER, "bank_after") \
	Y(PAYOUT_COL_SHORT, "short")
enum payout_col { SQL_INDICES(PAYOUT_COLS) PAYOUT_COL_COUNT };

/* A round's turn of the bank, declined or taken (STMT_ROUND_BANKER_TURNS; written by bankers.c). */
#define ROUND_BANKER_COLS(X, Y) \
	X(ROUND_BANKER_COL_SEAT, "seat") \
	Y(ROUND_BANKER_COL_KIND, "kind") \
	Y(ROUND_BANKER_COL_CONSECUTIVE, "coalesce(consecutive, 0)") \
	Y(ROUND_BANKER_COL_PLAYER, "coalesce(banker_player, '')") \
	Y(ROUND_BANKER_COL_BADGE, "coalesce(provider_badge, '')") \
	Y(ROUND_BANKER_COL_COMPANY, "coalesce(provider_company, '')")
enum round_banker_col { SQL_INDICES(ROUND_BANKER_COLS) ROUND_BANKER_COL_COUNT };

/* The counts of a round's derived rows (STMT_ROUND_COUNTS: ?1 the round), for verify. */
#define ROUND_COUNT_COLS(X, Y) \
	X(ROUND_COUNT_COL_BETS, "(SELECT count(*) FROM bets WHERE id BETWEEN ?1 * 16 AND ?1 * 16 + 15)") \
	Y(ROUND_COUNT_COL_HANDS, "(SELECT count(*) FROM hands WHERE id BETWEEN ?1 * 16 AND ?1 * 16 + 15)") \
	Y(ROUND_COUNT_COL_DECISIONS, "(SELECT count(*) FROM decisions WHERE id BETWEEN ?1 * 16 AND ?1 * 16 + 15)") \
	Y(ROUND_COUNT_COL_PAYOUTS, "(SELECT count(*) FROM payouts WHERE id BETWEEN ?1 * 64 AND ?1 * 64 + 63)") \
	Y(ROUND_COUNT_COL_COLLECTIONS, "(SELECT count(*) FROM collections WHERE round_id = ?1)")
enum round_count_col { SQL_INDICES(ROUND_COUNT_COLS) ROUND_COUNT_COL_COUNT };

#endif
