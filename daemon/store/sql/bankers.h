/*
 * sql/bankers.h - the column lists of the bank's statements (bankers.def),
 * with the indices bankers.c binds and reads them by.
 */
#ifndef PB_STORE_SQL_BANKERS_H
#define PB_STORE_SQL_BANKERS_H

#include "store/sql/columns.h"

/* A turn of the bank as written (STMT_BANKER_TURN_INSERT). */
#define BANKER_TURN_INSERT_COLS(X, Y) \
	X(BANKER_TURN_IN_TABLE_ID, "table_id") \
	Y(BANKER_TURN_IN_ROUND_ID, "round_id") \
	Y(BANKER_TURN_IN_SEAT, "seat") \
	Y(BANKER_TURN_IN_KIND, "kind") \
	Y(BANKER_TURN_IN_CONSECUTIVE, "consecutive") \
	Y(BANKER_TURN_IN_AT, "at") \
	Y(BANKER_TURN_IN_PLAYER, "banker_player") \
	Y(BANKER_TURN_IN_BADGE, "provider_badge") \
	Y(BANKER_TURN_IN_COMPANY, "provider_company")
enum banker_turn_in { SQL_INDICES(BANKER_TURN_INSERT_COLS) BANKER_TURN_IN_COUNT };

/* A table's turns of the bank as listed (STMT_BANKER_TURNS). */
#define BANKER_TURN_COLS(X, Y) \
	X(BANKER_TURN_COL_ID, "id") \
	Y(BANKER_TURN_COL_ROUND_ID, "round_id") \
	Y(BANKER_TURN_COL_SEAT, "seat") \
	Y(BANKER_TURN_COL_KIND, "kind") \
	Y(BANKER_TURN_COL_CONSECUTIVE, "coalesce(consecutive, 0)") \
	Y(BANKER_TURN_COL_AT, "at") \
	Y(BANKER_TURN_COL_PLAYER, "banker_player") \
	Y(BANKER_TURN_COL_BADGE, "provider_badge") \
	Y(BANKER_TURN_COL_COMPANY, "provider_company")
enum banker_turn_col { SQL_INDICES(BANKER_TURN_COLS) BANKER_TURN_COL_COUNT };

/* The last banks and who banked (STMT_BANKER_RECENT). */
#define BANKER_RECENT_COLS(X, Y) \
	X(BANKER_RECENT_COL_SEAT, "b.seat") \
	Y(BANKER_RECENT_COL_PLAYER, "coalesce(b.banker_player, '')") \
	Y(BANKER_RECENT_COL_BADGE, "coalesce(b.provider_badge, '')") \
	Y(BANKER_RECENT_COL_COMPANY, "coalesce(b.provider_company, '')")
enum banker_recent_col { SQL_INDICES(BANKER_RECENT_COLS) BANKER_RECENT_COL_COUNT };

/* An offer of the bank, from its event (STMT_BANK_OFFERS). */
#define BANK_OFFER_COLS(X, Y) \
	X(BANK_OFFER_COL_TABLE_SEQ, "table_seq") \
	Y(BANK_OFFER_COL_AT, "at") \
	Y(BANK_OFFER_COL_ACTOR, "actor") \
	Y(BANK_OFFER_COL_BODY, "body")
enum bank_offer_col { SQL_INDICES(BANK_OFFER_COLS) BANK_OFFER_COL_COUNT };

/* The payout lines p of the round r: their rowids are r.id * 64 + seq (schema 025). */
#define ROUND_PAYOUTS_OF_R "p.id BETWEEN r.id * 64 AND r.id * 64 + 63"

/* A banker seat's row of the banker report (STMT_BANKER_REPORT: ?1 the table, [?2, ?3) settled). */
#define BANKER_REPORT_COLS(X, Y) \
	X(BANKER_REPORT_COL_SEAT, "r.banker_seat") \
	Y(BANKER_REPORT_COL_ROUNDS, "count(*)") \
	Y(BANKER_REPORT_COL_RESULT, "coalesce(sum(-r.players_net), 0)") \
	Y(BANKER_REPORT_COL_EXHAUSTED, \
	    "coalesce(sum(EXISTS (SELECT 1 FROM payouts p WHERE " ROUND_PAYOUTS_OF_R " AND p.bank_after = 0)), 0)") \
	Y(BANKER_REPORT_COL_RETURNED, "coalesce(sum((SELECT coalesce(sum(p.stake), 0) FROM payouts p " \
	    "WHERE " ROUND_PAYOUTS_OF_R " AND p.result = 'returned' AND p.wager <> 'ante_bonus')), 0)") \
	Y(BANKER_REPORT_COL_SHORTS, \
	    "coalesce(sum((SELECT coalesce(sum(p.short), 0) FROM payouts p WHERE " ROUND_PAYOUTS_OF_R ")), 0)") \
	Y(BANKER_REPORT_COL_SEAT_FEES, "coalesce(sum((SELECT coalesce(sum(c.fee), 0) FROM collections c " \
	    "WHERE c.round_id = r.id AND c.seat > 0)), 0)") \
	Y(BANKER_REPORT_COL_BANKER_FEES, "coalesce(sum((SELECT coalesce(sum(c.fee), 0) FROM collections c " \
	    "WHERE c.round_id = r.id AND c.seat = 0)), 0)")
enum banker_report_col { SQL_INDICES(BANKER_REPORT_COLS) BANKER_REPORT_COL_COUNT };

/* A named banker's row of the banker report (STMT_BANKER_REPORT_PEOPLE: the parameters of STMT_BANKER_REPORT). */
#define BANKER_PERSON_COLS(X, Y) \
	X(BANKER_PERSON_COL_PLAYER, "coalesce(b.banker_player, '')") \
	Y(BANKER_PERSON_COL_BADGE, "coalesce(b.provider_badge, '')") \
	Y(BANKER_PERSON_COL_COMPANY, "coalesce(max(b.provider_company), '')") \
	Y(BANKER_PERSON_COL_ROUNDS, "count(*)") \
	Y(BANKER_PERSON_COL_RESULT, "coalesce(sum(-r.players_net), 0)") \
	Y(BANKER_PERSON_COL_BANKER_FEES, "coalesce(sum((SELECT coalesce(sum(c.fee), 0) FROM collections c " \
	    "WHERE c.round_id = r.id AND c.seat = 0)), 0)") \
	Y(BANKER_PERSON_COL_SEATS, "count(DISTINCT b.seat)")
enum banker_person_col { SQL_INDICES(BANKER_PERSON_COLS) BANKER_PERSON_COL_COUNT };

#endif
