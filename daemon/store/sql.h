/*
 * sql.h - every fixed SQL statement of the store, named.  The texts are in
 * one static table in sql.c (one list to review); a connection prepares a
 * statement the first time it is asked for it (store_stmt, store_int.h) and
 * keeps it in an array indexed by its name.  For daemon/store/ only.
 *
 * Not in the table, because their text is made at run time: the migrations
 * themselves (schema/NNN_*.sql, migrations.h), "PRAGMA user_version = N"
 * after each of them, and store_open's "PRAGMA synchronous = FULL|EXTRA|
 * NORMAL; ..." (one of three fixed words, checked before).
 */
#ifndef PB_STORE_SQL_H
#define PB_STORE_SQL_H

enum stmt_id {
	/* store.c: transactions, savepoints, the schema */
	STMT_BEGIN,
	STMT_COMMIT,
	STMT_ROLLBACK,
	STMT_SAVEPOINT,
	STMT_RELEASE,
	STMT_ROLLBACK_TO,
	STMT_USER_VERSION,
	STMT_APPLICATION_ID,
	STMT_SCHEMA_OBJECTS,
	STMT_JOURNAL_WAL,

	/* writer.c, backup.c, state.c: connection settings */
	STMT_TEMP_STORE_MEMORY,
	STMT_JOURNAL_DELETE,
	STMT_DATA_VERSION,

	/* chain.c */
	STMT_CHAIN_HEAD,
	STMT_EVENT_INSERT,
	STMT_ROUND_EVENTS,

	/* rules_store.c */
	STMT_RULES_INSERT,
	STMT_RULES_ID,

	/* tables.c */
	STMT_TABLE_STATE_GET,
	STMT_TABLE_STATE_PUT,

	/* rounds.c */
	STMT_ROUND_NEXT_NO,
	STMT_ROUND_INSERT,
	STMT_ROUND_HAS_EVENTS,
	STMT_ROUND_CURRENT,
	STMT_ROUND_GET,
	STMT_ROUND_BETS,
	STMT_ROUND_HANDS,
	STMT_ROUND_DECISIONS,
	STMT_ROUND_PAYOUTS,
	STMT_ROUND_BANKER_TURNS,
	STMT_ROUND_COLLECTIONS,
	STMT_ROUND_UPDATE,
	STMT_BET_PUT,
	STMT_BET_DELETE,
	STMT_HAND_INSERT,
	STMT_DECISION_INSERT,
	STMT_PAYOUT_INSERT,
	STMT_TABLE_ROUNDS,

	/* bankers.c */
	STMT_BANKER_TURN_INSERT,
	STMT_BANKER_LAST,
	STMT_BANKER_TURNS,
	STMT_COLLECTION_INSERT,
	STMT_BANKER_REPORT,
	STMT_BANKER_VOIDS,

	/* dealers.c */
	STMT_TABLE_DEALER_SET,
	STMT_DEALER_CHANGE_INSERT,
	STMT_DEALER_CHANGES,

	/* aggregates.c */
	STMT_REPORT_HOUR_ADD,

	/* idempotency.c */
	STMT_IDEMPOTENCY_GET,
	STMT_IDEMPOTENCY_INSERT,
	STMT_IDEMPOTENCY_PRUNE,

	/* audit.c */
	STMT_EVENTS_RANGE,
	STMT_EVENTS_OF_ROUND,
	STMT_EVENT_BEFORE,
	STMT_EVENT_TABLES,
	STMT_ROUND_IDS,
	STMT_ROUND_COUNTS,
	STMT_CHECKPOINT_INSERT,
	STMT_CHECKPOINT_LAST,
	STMT_CHECKPOINTS_AFTER,
	STMT_SIGNIFICANT_HEAD,
	STMT_SIGNIFICANT_INSERT,
	STMT_SIGNIFICANT_LIST,
	STMT_SIGNIFICANT_WALK,
	STMT_TABLE_HOLD_SET,
	STMT_TABLE_HOLD_GET,
	STMT_REPORT_HOURS_VERIFY,

	/* reports.c */
	STMT_REPORT_HOURS,
	STMT_RULES_SHA256,
	STMT_RULES_GET,
	STMT_REPORT_PAYOUTS,
	STMT_REPORT_VOIDS,
	STMT_REPORT_SHORTS,
	STMT_HAS_TABLE,
	STMT_REPORT_SIGNIFICANT,

	/* report_days.c */
	STMT_REPORT_SPANS,
	STMT_REPORT_SPAN_PUT,
	STMT_REPORT_SPANS_DELETE,
	STMT_ROLLUP_GET,
	STMT_ROLLUP_SET,
	STMT_REPORT_HOURS_NEXT,
	STMT_BEGIN_DEFERRED,

	/* people.c */
	STMT_PERSON_GET,
	STMT_PERSON_FAILED,
	STMT_PERSON_SUCCEEDED,

	STMT_COUNT
};

/* The SQL text of a statement (never NULL for id < STMT_COUNT: tests/unit/test_store.c prepares them all). */
const char *store_sql_text(enum stmt_id id);

#endif
