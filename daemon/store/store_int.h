/*
 * store_int.h - the store's private header: SQLite's types, the named
 * statements, the step helpers and the per-connection caches of the write
 * path.  Included by the files of daemon/store/ only (and by tests that
 * need the raw handle); nothing above the store sees <sqlite3.h>.
 *
 * How a function of the store runs a statement:
 *
 *	struct store_query q;
 *
 *	if (store_query(&q, s, STMT_ROUND_BETS, "reading bets", err) < 0)
 *		return -1;
 *	sqlite3_bind_int64(q.st, 1, round_id);
 *	while (store_query_next(&q))
 *		... sqlite3_column_*(q.st, BET_COL_SEAT) ...   (sql/rounds.h)
 *	return store_query_end(&q);
 *
 * store_query_end resets the statement whatever happened (so that no read
 * transaction stays open) and turns a failed step into the one error of
 * the store: 500 storage_error "<what>: <SQLite's message>" (store_fail).
 * A write is store_query, binds, store_query_done; a query of one integer
 * is store_query, binds, store_query_int64; a query of at most one row
 * steps with store_query_row.  A struct read from a row (or bound to an
 * INSERT) member by member says its columns once, in a table of
 * STORE_FIELDs (below).
 */
#ifndef PB_STORE_STORE_INT_H
#define PB_STORE_STORE_INT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/reports.h"
#include "store/sql.h"
#include "store/store.h"

/* ---- the connection (store.c) ---- */

/* The raw handle, for the backup API and tests; not for queries outside store/. */
sqlite3 *store_db(struct store *s);

/*
 * The connection's copy of the corrected payout lines the master game reads
 * (count_window.c): NULL inside a write transaction (then it reads them with
 * SQL); forgotten at every BEGIN, COMMIT and ROLLBACK of this connection, and
 * rebuilt when the corrections' count or newest id moves (they are
 * append-only).  window_corrections_free frees one (NULL: nothing).
 */
struct window_corrections;
struct window_corrections **store_window_corrections(struct store *s);
void window_corrections_free(struct window_corrections *c);

/*
 * The statement named id, prepared on this connection the first time it is
 * asked for (SQLITE_PREPARE_PERSISTENT) and kept until store_free; reset
 * and with its bindings cleared.  NULL with err filled when it cannot be
 * prepared.
 */
sqlite3_stmt *store_stmt(struct store *s, enum stmt_id id, struct pb_error *err);

/*
 * Fills err from the connection's last SQLite error and returns -1: 500
 * out_of_memory when SQLite could not allocate (pb_oom: the read may be
 * tried again, the file is not at fault), else 500 storage_error "what:
 * message".
 */
int store_fail(struct store *s, struct pb_error *err, const char *what);

/*
 * When the tests make allocations fail (common/faults.h), counts SQLite's
 * allocations with pitboss's own; called before the first connection is
 * opened (store_open).  0 otherwise.
 */
int store_faults_hook(struct pb_error *err);

/*
 * Caches of the write path, per connection.  A table's chain head as
 * appended in the open transaction (store_begin's); forgotten at every
 * begin, commit and rollback, and at every ROLLBACK TO of a savepoint
 * (store_savepoint_rollback, which forgets the pending rules ids and the
 * captured events as well).
 */
bool store_head_cached(struct store *s, const char *table_id, int64_t *seq, char hash[PB_SHA256_HEX_LEN]);
void store_head_remember(struct store *s, const char *table_id, int64_t seq, const char hash[PB_SHA256_HEX_LEN]);

/*
 * The rules_sets id of rules byte-for-byte equal to r.  An id learnt inside
 * the open transaction is used only in it until it commits, and forgotten
 * if it rolls back (the row may be gone and its id given to other rules).
 */
bool store_rules_cached(struct store *s, const struct rules *r, int64_t *id);
void store_rules_remember(struct store *s, const struct rules *r, int64_t id);

/*
 * store_append_event without the registry's check (chain.c): the type and
 * body are written as given.  For store_append_event, once it checked
 * them, and for the tests of the chain and the capture, which append
 * bodies of every shape.
 */
int store_event_append_as_is(struct store *s, const char *table_id, int64_t round_id, const char *type,
    const char *at, const char *actor, const json_t *body, struct pb_error *err);

/*
 * The events of a round created in the open transaction (store_begin's),
 * kept in memory as they are appended (capture.c): store_round_create
 * starts the capture, store_append_event feeds it, every begin, commit and
 * rollback forgets it.  store_captured_events gives the round's events as
 * store_round_events would read them back, or NULL when it holds no
 * complete list of that round's events (the caller then reads them).
 * A body appended must not be changed afterwards: the capture keeps a
 * reference to it.
 */
void store_capture_start(struct store *s, int64_t round_id);
void store_capture_add(struct store *s, int64_t round_id, int64_t table_seq, const char *type, const char *at,
    const char *actor, const json_t *body, const char hash[PB_SHA256_HEX_LEN]);
json_t *store_captured_events(struct store *s, int64_t round_id);

/*
 * Forgets the caches above.  For whoever replaces the database under an
 * open connection (sqlite3_deserialize in the fuzz harness); pitbossd
 * never does.
 */
void store_caches_reset(struct store *s);

/* ---- running a statement (query.c) ---- */

struct store_query {
	struct store *s;
	sqlite3_stmt *st;          /* bind to it after store_query; read its columns after store_query_next */
	const char *what;          /* what the caller was doing, for the error message */
	struct pb_error *err;
	int rc;                    /* the last step's result */
};

/* Takes the statement named id (store_stmt) for one run.  -1 with err filled when it cannot be prepared. */
int store_query(struct store_query *q, struct store *s, enum stmt_id id, const char *what, struct pb_error *err);

/* Steps once: true when the statement stands on a row, false at its end or on an error (store_query_end tells). */
bool store_query_next(struct store_query *q);

/*
 * Ends the run: resets the statement (also when the caller stopped before
 * the last row).  0 when every step went well, else -1 with err filled by
 * store_fail(what); also -1, out_of_memory, when a column's text could not
 * be allocated while a row was read.
 */
int store_query_end(struct store_query *q);

/* Runs a statement that gives no row (a write, BEGIN ...), then store_query_end: 0 or -1. */
int store_query_done(struct store_query *q);

/*
 * Steps once, keeps the first column of the row as an integer in *out (left
 * as it was when there is no row), then store_query_end.  found NULL: a row
 * is required, none is an error (store_fail(what)); else *found tells.
 */
int store_query_int64(struct store_query *q, int64_t *out, bool *found);

/*
 * Runs the query (store_query, no binds) and gathers its rows into *out (a
 * new reference): with counts false, an array of every row's first column
 * as text; with counts true, an object from the first column (text) to the
 * second (an integer).  0, or -1 with err (store_fail(what), out of
 * memory) and *out NULL.
 */
int store_query_json(struct store *s, enum stmt_id id, const char *what, bool counts, json_t **out,
    struct pb_error *err);

/* The text of a column into a fixed buffer ("" for NULL, truncated to dstsz - 1 bytes). */
void store_column_text(char *dst, size_t dstsz, sqlite3_stmt *st, int col);

/*
 * The text of a column, never NULL: "" for NULL, and "" when SQLite could
 * not allocate the text (store_query_end then fails, out_of_memory), so
 * that a reader never follows a NULL pointer and never keeps what it read.
 */
const char *store_column_str(sqlite3_stmt *st, int col);

/*
 * Steps once, for a statement of at most one row: *found tells whether it
 * stands on one, and so does the answer; read it, then store_query_end.
 */
bool store_query_row(struct store_query *q, bool *found);

/* Binds text to parameter param, or leaves it NULL when text is NULL or "" (an optional name, time or reason). */
void store_bind_text_or_null(sqlite3_stmt *st, int param, const char *text);

/* ---- a row's columns and a struct's members (query.c) ---- */

/* How a member is read and bound, by its type (STORE_FIELD). */
enum store_field_type { STORE_FIELD_INT64, STORE_FIELD_INT, STORE_FIELD_BOOL, STORE_FIELD_TEXT };

/* Column col of a row and the member of a struct it is read into and bound from (STORE_FIELD). */
struct store_field {
	int col;
	enum store_field_type type;
	size_t offset;
	size_t size;
};

/*
 * The field of column col in member of struct type: an int64_t, int or
 * bool member holds the column's integer (a bool: not 0), a char array its
 * text.  A member of any other type does not compile.  A table of them
 * says once which column goes where, for store_fields_read and
 * store_fields_bind.
 */
#define STORE_FIELD(type, member, col) \
	{(col), _Generic(((type *)0)->member, int64_t: STORE_FIELD_INT64, int: STORE_FIELD_INT, bool: STORE_FIELD_BOOL, \
	    char *: STORE_FIELD_TEXT), offsetof(type, member), sizeof(((type *)0)->member)}

/* Reads the n fields f of the row st stands on into the struct at dst; a text as store_column_text reads it. */
void store_fields_read(sqlite3_stmt *st, const struct store_field *f, size_t n, void *dst);

/*
 * Binds the n fields f of the struct at src, each to the parameter that
 * writes its column (SQL_PARAM, sql/columns.h); a text as it is, "" too,
 * and not copied (src must outlive the statement's run).
 */
void store_fields_bind(sqlite3_stmt *st, const struct store_field *f, size_t n, const void *src);

/* ---- rounds (rounds.c) ---- */

/* Three cards from their stored text "AsKdQh"; -1 when NULL or malformed. */
int store_cards_parse(const char *text, card_t out[3]);

/* ---- report rows (reports.c) ---- */


/*
 * The key and sums of a report row, read from column 0 on: table, hour (or
 * a span's start), dealer, rules, then its sums and its player-banked sums
 * (REPORT_COL_*, sql/reports.h), the order report_hours and report_spans
 * are both read in.
 */
void store_report_row_read(sqlite3_stmt *st, struct report_hour *row);

/*
 * Binds the sums of row: REPORT_SUMS from parameter sums on, BANKED_SUMS
 * from parameter banked on (sql/reports.h), as a report_hours or
 * report_spans row is written.
 */
void store_report_sums_bind(sqlite3_stmt *st, int sums, int banked, const struct report_hour *row);

/*
 * Runs the report statement id with ?1 from, ?2 to, ?3 the table scope
 * (a JSON array of ids, or NULL for all) and, when kind is not 0, ?4 kind;
 * calls fn for each row, read into a zeroed report_hour by read.  A
 * non-zero return of fn stops the walk and is returned.
 */
int store_report_rows(struct store *s, enum stmt_id id, const char *what, int64_t from, int64_t to, const char *tables,
    int kind, void (*read)(sqlite3_stmt *, struct report_hour *), report_hour_fn fn, void *arg, struct pb_error *err);

#endif
