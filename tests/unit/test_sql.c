/*
 * test_sql.c - the store's column lists (daemon/store/sql/<domain>.h) against the
 * statements that use them: each statement read by named columns gives as
 * many columns as its list names, and each one bound by named parameters
 * takes as many as its list names.  (test_store.c prepares every
 * statement.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>

#include "store/sql/accounting.h"
#include "store/sql/bankers.h"
#include "store/sql/chain.h"
#include "store/sql/corrections.h"
#include "store/sql/idempotency.h"
#include "store/sql/people.h"
#include "store/sql/cash.h"
#include "store/sql/players.h"
#include "store/sql/ratings.h"
#include "store/sql/reports.h"
#include "store/sql/rounds.h"
#include "store/sql/tables.h"
#include "temp_db.h"

/* A statement, the columns it gives and the parameters it takes, as its lists say. */
struct shape {
	enum stmt_id id;
	const char *name;
	int columns;
	int params;
};

#define SHAPE(id, columns, params) {id, #id, columns, params}

static const struct shape SHAPES[] = {
	/* chain.def */
	SHAPE(STMT_EVENT_INSERT, 0, EVENT_COL_WRITTEN),
	SHAPE(STMT_ROUND_EVENTS, ROUND_EVENT_COL_COUNT, 1),
	SHAPE(STMT_EVENTS_RANGE, EVENT_COL_COUNT, 3),
	SHAPE(STMT_EVENTS_OF_ROUND, EVENT_COL_COUNT, 1),
	SHAPE(STMT_EVENT_BEFORE, EVENT_COL_COUNT, 2),
	SHAPE(STMT_EVENTS_AFTER, EVENT_COL_COUNT, 2),
	SHAPE(STMT_CHECKPOINT_INSERT, 0, CHECKPOINT_IN_COUNT),
	SHAPE(STMT_CHECKPOINT_LAST, CHECKPOINT_COL_COUNT, 1),
	SHAPE(STMT_CHECKPOINTS_AFTER, CHECKPOINT_COL_COUNT, 3),
	SHAPE(STMT_SIGNIFICANT_INSERT, 0, SIGNIFICANT_IN_COUNT),
	SHAPE(STMT_SIGNIFICANT_LIST, SIGNIFICANT_LIST_COL_COUNT, 2),
	SHAPE(STMT_SIGNIFICANT_WALK, SIGNIFICANT_WALK_COL_COUNT, 0),
	/* the verify walks of the accounting, players' and corrections' events, and the exceptions report */
	SHAPE(STMT_TABLE_EVENTS, EVENT_COL_COUNT, 0),
	/* rounds.def */
	SHAPE(STMT_ROUND_INSERT, 0, ROUND_IN_COUNT),
	SHAPE(STMT_ROUND_GET, ROUND_COL_COUNT, 1),
	SHAPE(STMT_ROUND_UPDATE, 0, ROUND_SET_COUNT),
	SHAPE(STMT_ROUND_BETS, BET_COL_COUNT, 1),
	SHAPE(STMT_ROUND_HANDS, HAND_COL_COUNT, 1),
	SHAPE(STMT_ROUND_DECISIONS, DECISION_COL_COUNT, 1),
	SHAPE(STMT_ROUND_PAYOUTS, PAYOUT_COL_COUNT, 1),
	SHAPE(STMT_ROUND_BANKER_TURNS, ROUND_BANKER_COL_COUNT, 1),
	SHAPE(STMT_BET_PUT, 0, BET_IN_COUNT),
	SHAPE(STMT_HAND_INSERT, 0, HAND_IN_COUNT),
	SHAPE(STMT_DECISION_INSERT, 0, DECISION_IN_COUNT),
	SHAPE(STMT_PAYOUT_INSERT, 0, PAYOUT_IN_COUNT),
	SHAPE(STMT_ROUND_COUNTS, ROUND_COUNT_COL_COUNT, 1),
	/* players.def */
	SHAPE(STMT_PLAYER_PUT, 0, PLAYER_PUT_P_AT),
	SHAPE(STMT_PLAYER_GET, PLAYER_COL_COUNT, 1),
	SHAPE(STMT_PLAYER_SEARCH, PLAYER_COL_COUNT, 3),
	SHAPE(STMT_SEAT_PUT, 0, SEAT_IN_COUNT),
	SHAPE(STMT_SEAT_DELETE, 0, SQL_PARAM(SEAT_IN_SEAT)),
	SHAPE(STMT_SEAT_CHANGE_INSERT, 0, SEAT_CHANGE_IN_COUNT),
	SHAPE(STMT_SEAT_CHANGES_OF_PLAYER, SEAT_CHANGE_COL_COUNT, 1),
	SHAPE(STMT_T31_ACK_INSERT, 0, T31_IN_COUNT),
	SHAPE(STMT_T31_ACKS_DAY, T31_COL_COUNT, 1),
	SHAPE(STMT_PLAYER_LINES, PLAYER_LINE_COL_COUNT, 3),
	/* cash.def */
	SHAPE(STMT_TXN_INSERT, 0, TXN_IN_COUNT),
	SHAPE(STMT_TXNS_DAY, TXN_COL_COUNT, 1),
	SHAPE(STMT_TXN_GET, TXN_COL_COUNT, 1),
	SHAPE(STMT_TXNS_LIST, TXN_COL_COUNT, TXNS_LIST_P_WHERE),
	SHAPE(STMT_TXN_SIDE_TOTAL, 1, TXN_SIDE_P_DIRECTION),
	SHAPE(STMT_TXN_VOID_INSERT, 0, TXN_VOID_IN_COUNT),
	SHAPE(STMT_PLAYER_MERGE_INSERT, 0, MERGE_IN_COUNT),
	SHAPE(STMT_PLAYER_MERGED_SET, 0, 2),
	SHAPE(STMT_T31_NOTE_INSERT, 0, T31_NOTE_COUNT),
	SHAPE(STMT_T31_NOTES_DAY, T31_NOTE_COUNT, 1),
	/* bankers.def */
	SHAPE(STMT_BANKER_TURN_INSERT, 0, BANKER_TURN_IN_COUNT),
	SHAPE(STMT_BANKER_TURNS, BANKER_TURN_COL_COUNT, 2),
	SHAPE(STMT_BANKER_RECENT, BANKER_RECENT_COL_COUNT, 2),
	SHAPE(STMT_BANK_OFFERS, BANK_OFFER_COL_COUNT, 2),
	SHAPE(STMT_BANKER_REPORT, BANKER_REPORT_COL_COUNT, 3),
	SHAPE(STMT_BANKER_REPORT_PEOPLE, BANKER_PERSON_COL_COUNT, 3),
	/* tables.def */
	SHAPE(STMT_TABLE_STATE_GET, TABLE_STATE_COL_COUNT, 1),
	SHAPE(STMT_TABLE_STATE_PUT, 0, TABLE_STATE_IN_COUNT),
	SHAPE(STMT_DEALER_CHANGE_INSERT, 0, DEALER_CHANGE_IN_COUNT),
	SHAPE(STMT_DEALER_CHANGES, DEALER_CHANGE_COL_COUNT, RANGE_P_LIMIT),
	SHAPE(STMT_TABLE_STATE_IDS, 1, 0),
	SHAPE(STMT_DEALER_CHANGE_NEXT, DEALER_ROW_COL_COUNT, DEALER_NEXT_P_COUNT),
	SHAPE(STMT_DEALER_CHANGE_COUNTS, DEALER_COUNT_COL_COUNT, 0),
	/* people.def */
	SHAPE(STMT_PERSON_GET, PERSON_COL_COUNT, 1),
	SHAPE(STMT_PERSON_GET_NOCASE, PERSON_COL_COUNT, 1),
	SHAPE(STMT_PEOPLE_LIST, PERSON_COL_COUNT, 0),
	SHAPE(STMT_PERSON_ADD, 0, PERSON_ADD_P_AT),
	SHAPE(STMT_PERSON_FAILED, 2, PERSON_FAILED_P_NOW),
	SHAPE(STMT_PERSON_UPDATE, 0, PERSON_UPDATE_P_AT),
	SHAPE(STMT_PERSON_PASSWORD, 0, PERSON_PASSWORD_P_AT),
	SHAPE(STMT_SESSION_ADD, 0, SESSION_ADD_P_ADDRESS),
	SHAPE(STMT_SESSION_GET, SESSION_COL_COUNT, 1),
	/* idempotency.def */
	SHAPE(STMT_IDEMPOTENCY_INSERT, 0, IDEMPOTENCY_IN_COUNT),
	/* reports.def */
	SHAPE(STMT_REPORT_HOUR_ADD, 0, HOUR_IN_COUNT),
	SHAPE(STMT_REPORT_HOURS, HOURS_COL_COUNT, RANGE_P_TABLES),
	SHAPE(STMT_REPORT_PAYOUTS, LARGE_PAYOUT_COL_COUNT, LARGE_PAYOUT_P_LIMIT),
	SHAPE(STMT_REPORT_VOIDS, VOID_COL_COUNT, RANGE_P_LIMIT),
	SHAPE(STMT_REPORT_SHORTS, SHORT_COL_COUNT, RANGE_P_LIMIT),
	SHAPE(STMT_REPORT_SIGNIFICANT, SIGNIFICANT_COL_COUNT, RANGE_P_CODES),
	SHAPE(STMT_REPORT_SPANS, SPAN_COL_COUNT, RANGE_P_KIND),
	SHAPE(STMT_REPORT_SPAN_PUT, 0, SPAN_IN_COUNT),
	SHAPE(STMT_REPORT_HOURS_VERIFY, HOURS_DIFF_COL_COUNT, 1),
	/* accounting.def */
	SHAPE(STMT_ACCT_INSERT, 0, ACCT_COL_COUNT),
	SHAPE(STMT_ACCT_GET, ACCT_COL_COUNT, 1),
	SHAPE(STMT_ACCT_BY_SERIAL, ACCT_COL_COUNT, 3),
	SHAPE(STMT_ACCT_LAST, ACCT_COL_COUNT, 2),
	SHAPE(STMT_ACCT_DAY, ACCT_COL_COUNT + 1, 1),                /* the columns, then ACCT_RECEIVED */
	SHAPE(STMT_ACCT_TABLE_DAY, ACCT_COL_COUNT, 2),
	SHAPE(STMT_ACCT_DAYS, ACCT_COL_COUNT + 1, 2),
	SHAPE(STMT_ACCT_PENDING, ACCT_COL_COUNT, 3),
	SHAPE(STMT_ACCT_DISCREPANCIES, ACCT_COL_COUNT, 2),
	SHAPE(STMT_ACCT_ACK_INSERT, 0, ACK_COL_COUNT),
	/* corrections.def */
	SHAPE(STMT_CORR_INSERT, 0, CORR_COL_AT + 1),
	SHAPE(STMT_CORR_GET, CORR_COL_COUNT, 1),
	SHAPE(STMT_CORR_OF_ROUND, CORR_COL_COUNT, 1),
	SHAPE(STMT_CORR_LATEST, CORR_COL_COUNT, 3),
	SHAPE(STMT_CORR_RANGE, CORR_COL_COUNT, RANGE_P_LIMIT),
	SHAPE(STMT_CORR_TOTAL, 2, RANGE_P_TABLES),
	/* ratings.def */
	SHAPE(STMT_MANUAL_RATING_INSERT, 0, MANUAL_RATING_COL_COUNTED_FOR),
	SHAPE(STMT_MANUAL_RATINGS_OF_PLAYER, MANUAL_RATING_COL_COUNT, RATING_P_TO),
	SHAPE(STMT_MANUAL_RATINGS_OF_DAY, MANUAL_RATING_COL_COUNT, 1),
	SHAPE(STMT_RATING_CORRECTIONS, 1, RATING_P_TO),
	SHAPE(STMT_RATING_SEAT_CHANGES, SEAT_CHANGE_COL_COUNT, RATING_P_PLAYER),
};

TEMP_DB_FIXTURE("sql")

/* Each statement of SHAPES, prepared against the newest schema, gives the columns and takes the parameters its lists name. */
static void
test_statements_match_their_lists(void **state)
{
	struct store_options o = {0};
	struct pb_error err;
	struct store *s;
	int bad = 0;

	(void)state;
	o.path = dbpath;
	s = store_open(&o, &err);
	assert_non_null(s);
	for (size_t i = 0; i < sizeof(SHAPES) / sizeof(SHAPES[0]); i++) {
		const struct shape *w = &SHAPES[i];
		sqlite3_stmt *st = store_stmt(s, w->id, &err);

		if (st == NULL)
			fail_msg("%s: %s", w->name, err.message);
		if (sqlite3_column_count(st) != w->columns || sqlite3_bind_parameter_count(st) != w->params) {
			print_error("%s gives %d columns and takes %d parameters; its lists name %d and %d\n", w->name,
			    sqlite3_column_count(st), sqlite3_bind_parameter_count(st), w->columns, w->params);
			bad++;
		}
	}
	store_free(s);
	assert_int_equal(bad, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_statements_match_their_lists, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
