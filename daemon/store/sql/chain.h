/*
 * sql/chain.h - the column lists of the chain's statements (chain.def),
 * with the indices chain.c and audit.c bind and read them by.  An event
 * as read is also the row of verify's walk of the events of no round
 * (STMT_TABLE_EVENTS), and the
 * significant events' first columns are those of the exceptions report
 * (STMT_REPORT_SIGNIFICANT).
 */
#ifndef PB_STORE_SQL_CHAIN_H
#define PB_STORE_SQL_CHAIN_H

#include "store/sql/columns.h"

/* The fields of an event, in the order of the events table; round_id is the text its statement needs. */
#define EVENT_FIELDS(X, Y, round_id) \
	X(EVENT_COL_TABLE_ID, "table_id") \
	Y(EVENT_COL_TABLE_SEQ, "table_seq") \
	Y(EVENT_COL_ROUND_ID, round_id) \
	Y(EVENT_COL_TYPE, "type") \
	Y(EVENT_COL_AT, "at") \
	Y(EVENT_COL_ACTOR, "actor") \
	Y(EVENT_COL_BODY, "body") \
	Y(EVENT_COL_PREV_HASH, "prev_hash") \
	Y(EVENT_COL_HASH, "hash")
/* An event as written (STMT_EVENT_INSERT: its id is SQLite's). */
#define EVENT_INSERT_COLS(X, Y) EVENT_FIELDS(X, Y, "round_id")
/* An event as read (read_event in audit.c): round_id 0 when it has none, then its id. */
#define EVENT_COLS(X, Y) EVENT_FIELDS(X, Y, "coalesce(round_id, 0)") Y(EVENT_COL_ID, "id")
enum event_col {
	SQL_INDICES(EVENT_COLS)
	EVENT_COL_COUNT,
	EVENT_COL_WRITTEN = EVENT_COL_ID   /* the columns of EVENT_INSERT_COLS */
};
#define EVENT_COLUMNS SQL_NAMES(EVENT_COLS)

/* An event of a round as store_round_events gives it (STMT_ROUND_EVENTS). */
#define ROUND_EVENT_COLS(X, Y) \
	X(ROUND_EVENT_COL_TABLE_SEQ, "table_seq") \
	Y(ROUND_EVENT_COL_TYPE, "type") \
	Y(ROUND_EVENT_COL_AT, "at") \
	Y(ROUND_EVENT_COL_ACTOR, "actor") \
	Y(ROUND_EVENT_COL_BODY, "body") \
	Y(ROUND_EVENT_COL_HASH, "hash")
enum round_event_col { SQL_INDICES(ROUND_EVENT_COLS) ROUND_EVENT_COL_COUNT };

/* A checkpoint as written (STMT_CHECKPOINT_INSERT). */
#define CHECKPOINT_INSERT_COLS(X, Y) \
	X(CHECKPOINT_IN_TABLE_ID, "table_id") \
	Y(CHECKPOINT_IN_TABLE_SEQ, "table_seq") \
	Y(CHECKPOINT_IN_HEAD_HASH, "head_hash") \
	Y(CHECKPOINT_IN_AT, "at") \
	Y(CHECKPOINT_IN_PUBLIC_KEY, "public_key") \
	Y(CHECKPOINT_IN_SIGNATURE, "signature")
enum checkpoint_in { SQL_INDICES(CHECKPOINT_INSERT_COLS) CHECKPOINT_IN_COUNT };

/* A checkpoint as read (read_checkpoint in audit.c): its id, then the columns written. */
#define CHECKPOINT_COLS(X, Y) \
	X(CHECKPOINT_COL_ID, "id") \
	Y(CHECKPOINT_COL_TABLE_ID, "table_id") \
	Y(CHECKPOINT_COL_TABLE_SEQ, "table_seq") \
	Y(CHECKPOINT_COL_HEAD_HASH, "head_hash") \
	Y(CHECKPOINT_COL_AT, "at") \
	Y(CHECKPOINT_COL_PUBLIC_KEY, "public_key") \
	Y(CHECKPOINT_COL_SIGNATURE, "signature")
enum checkpoint_col { SQL_INDICES(CHECKPOINT_COLS) CHECKPOINT_COL_COUNT };
#define CHECKPOINT_COLUMNS SQL_NAMES(CHECKPOINT_COLS)

/* A significant event as written (STMT_SIGNIFICANT_INSERT). */
#define SIGNIFICANT_INSERT_COLS(X, Y) \
	X(SIGNIFICANT_IN_AT, "at") \
	Y(SIGNIFICANT_IN_SOURCE, "source") \
	Y(SIGNIFICANT_IN_CODE, "code") \
	Y(SIGNIFICANT_IN_TABLE_ID, "table_id") \
	Y(SIGNIFICANT_IN_DETAIL, "detail") \
	Y(SIGNIFICANT_IN_PREV_HASH, "prev_hash") \
	Y(SIGNIFICANT_IN_HASH, "hash")
enum significant_in { SQL_INDICES(SIGNIFICANT_INSERT_COLS) SIGNIFICANT_IN_COUNT };

/*
 * The first columns of a significant event as every reader selects them;
 * table_id is the text its statement needs.  Then STMT_SIGNIFICANT_LIST
 * reads its hash, STMT_SIGNIFICANT_WALK its prev_hash and hash, and
 * STMT_REPORT_SIGNIFICANT nothing more.
 */
#define SIGNIFICANT_FIELDS(X, Y, table_id) \
	X(SIGNIFICANT_COL_ID, "id") \
	Y(SIGNIFICANT_COL_AT, "at") \
	Y(SIGNIFICANT_COL_SOURCE, "source") \
	Y(SIGNIFICANT_COL_CODE, "code") \
	Y(SIGNIFICANT_COL_TABLE_ID, table_id) \
	Y(SIGNIFICANT_COL_DETAIL, "detail")
#define SIGNIFICANT_COLS(X, Y) SIGNIFICANT_FIELDS(X, Y, "table_id")
enum significant_col { SQL_INDICES(SIGNIFICANT_COLS) SIGNIFICANT_COL_COUNT };
#define SIGNIFICANT_COLUMNS SQL_NAMES(SIGNIFICANT_COLS)
#define SIGNIFICANT_LIST_COLUMNS SIGNIFICANT_COLUMNS ", hash"
enum { SIGNIFICANT_LIST_COL_HASH = SIGNIFICANT_COL_COUNT, SIGNIFICANT_LIST_COL_COUNT };
#define SIGNIFICANT_WALK_COLUMNS \
	SIGNIFICANT_FIELDS(SQL_NAME_FIRST, SQL_NAME_NEXT, "coalesce(table_id, '')") ", prev_hash, hash"
enum { SIGNIFICANT_WALK_COL_PREV_HASH = SIGNIFICANT_COL_COUNT, SIGNIFICANT_WALK_COL_HASH, SIGNIFICANT_WALK_COL_COUNT };

#endif
