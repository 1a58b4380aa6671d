/*
 * cash.h - the rows of the cash that Title 31 counts (schemas 014 and
 * 020): the transactions of the tables and the cage, their voids, the
 * merges of player records, and the notes and statuses of Title 31 items.
 * The store records and reads; table/players/ decides.  Every write is in
 * the caller's transaction, beside its event.
 */
#ifndef PB_STORE_CASH_H
#define PB_STORE_CASH_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "common/error.h"
#include "common/ids.h"
#include "common/timeutil.h"

struct store;

/* The table_id of a cage transaction's row (config refuses a table of that id). */
#define CASH_CAGE_TABLE "_cage"

/* The longest patron's description or name kept with a transaction, in bytes (a record's field: 200). */
#define CASH_PATRON_TEXT_MAX 201

/* One transaction of cash, chips or a marker, at a table or at the cage. */
struct table_txn {
	int64_t id;
	char table_id[PB_ID_MAX];   /* CASH_CAGE_TABLE at the cage */
	int seat;                   /* 0: none given (always at the cage) */
	char player[PB_ID_MAX];
	char direction[4];          /* "in" or "out" */
	char kind[8];               /* "cash", "chips", "marker" */
	char type[24];              /* "" in a row written before types */
	char window[PB_ID_MAX];     /* the cage window; "" at a table */
	int64_t amount;             /* cents, > 0 */
	char at[PB_TIME_LEN];
	char gaming_day[11];
	char by[PB_ID_MAX];
	char description[CASH_PATRON_TEXT_MAX];   /* the patron's, when written; "" when none */
	char name[CASH_PATRON_TEXT_MAX];
};

int store_txn_next_id(struct store *s, int64_t *id, struct pb_error *err);
int store_txn_put(struct store *s, const struct table_txn *t, struct pb_error *err);

/*
 * Transactions as JSON (each as GET /transactions lists it, txn_json in
 * cash.c): the gaming day's by id; one by id (*out NULL when none); the
 * day's of a player (recorded or counted for; NULL: any) at a place (a
 * table id or CASH_CAGE_TABLE; NULL: any).
 */
int store_txns_day(struct store *s, const char *gaming_day, json_t **out, struct pb_error *err);
int store_txn_get(struct store *s, int64_t id, json_t **out, struct pb_error *err);
int store_txns_list(struct store *s, const char *gaming_day, const char *player, const char *where, json_t **out,
    struct pb_error *err);

/* The cash of one side ("in", "out") of player's gaming day, his merged records' included, voids left out. */
int store_txn_side_total(struct store *s, const char *gaming_day, const char *player, const char *direction,
    int64_t *total, struct pb_error *err);

/* The gaming days on which player's own record had cash: ["YYYY-MM-DD", ...]. */
int store_txn_cash_days(struct store *s, const char *player, json_t **out, struct pb_error *err);

/* The gaming days in [from, to] with cash at all. */
int store_txn_days_between(struct store *s, const char *from, const char *to, json_t **out, struct pb_error *err);

/* A transaction's void. */
int store_txn_void_put(struct store *s, int64_t txn_id, const char *reason, const char *witness, const char *by,
    const char *at, struct pb_error *err);

/* The merge of player into into_id: its row, and player and the records merged into it now count for into_id. */
int store_player_merge_put(struct store *s, const char *player, const char *into_id, const char *reason,
    const char *witness, const char *by, const char *at, struct pb_error *err);

/* A note (status NULL) or a CTR status of a Title 31 item; bsa_id and filed_on NULL when not given. */
struct t31_note {
	const char *gaming_day, *player, *direction, *kind, *status, *bsa_id, *filed_on, *note, *by, *at;
};
int store_t31_note_put(struct store *s, const struct t31_note *n, struct pb_error *err);

/* The day's notes and statuses in order: [{"player", "direction", "kind", "status", "bsa_id", "filed_on", "note", "by", "at"}]. */
int store_t31_notes_day(struct store *s, const char *gaming_day, json_t **out, struct pb_error *err);

#endif
