/*
 * accounting.h - the accounting domain of the pit (docs/architecture.md,
 * "The pit's domains"), its only header another folder includes;
 * acct_private.h is its own.  A table's accounting documents (API.md "Table
 * accounting", docs/accounting.md): the opener and closer (the tray's
 * inventory), fills and credits with their serials and their voids, the
 * drop as the count team counted it.  The master game report over them,
 * the accounting exceptions and their acknowledgments are reports
 * (table/reports/acct_report.c, acct_exceptions.c).
 *
 * Every document is a table event in the table's chain (inventory, fill,
 * credit, fill_void, credit_void, fill_received, credit_received, drop)
 * whose body holds everything its row
 * (store/accounting.h) and the report need, written in one transaction with
 * the row; central restore rebuilds the rows from the events alone and
 * verify compares them (the apply and check functions of their rows of the
 * registry, table/core/event_types.h).  A document is signed by the session
 * of a person holding the session's role (a terminal token signs nothing)
 * and by witnesses (table/people/people.h) as accounting.signatures wants
 * them (acct_signatures.c).  Under "basic", one witness each:
 *
 *   opener, closer   floor|pitboss        with dealer|floor|pitboss
 *   fill, credit     cage                 with floor|pitboss
 *   their voids      cage|floor|pitboss   with floor|pitboss
 *   drop             count                with count (accounting.count_team_min in all)
 *
 * Under "nj" (the default) an opener or closer is signed by the dealer and
 * a floor supervisor or pit boss (either as the session); a fill or credit
 * by the cage with a floor supervisor or pit boss and the runner (security),
 * then received at the table as an opener is signed, and counted only then.
 *
 * A refused document records nothing and says what to fix.
 */
#ifndef PB_TABLE_ACCOUNTING_H
#define PB_TABLE_ACCOUNTING_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/timeutil.h"
#include "config/config.h"
#include "store/accounting.h"
#include "table/core/core.h"

struct event_type;
struct store;

/* The witness roles of each document under "basic" (the session's are the operation's, table/core/access.c). */
#define ACCT_INVENTORY_WITNESS (ROLE_BIT(ROLE_DEALER) | ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS))
#define ACCT_TRANSFER_WITNESS (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS))
#define ACCT_VOID_WITNESS (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS))
#define ACCT_DROP_WITNESS (ROLE_BIT(ROLE_COUNT))

/*
 * POST /tables/{t}/inventory {"kind": "opener"|"closer", "chips", "reason"?,
 * "witness"} -> 201 the document ({"id", "total", ...}).  An opener whose
 * count differs from the table's last closer needs a reason (409
 * opener_discrepancy naming each denomination and the amount); with one it
 * is recorded with its discrepancy, an exception of the exceptions report.
 */
int pit_acct_inventory(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * POST /tables/{t}/fills and /credits {"serial", "chips", "runner"?,
 * "requester"?, "witness"} -> 201.  The serial is unique among the fills
 * (credits) of its year, the year of the document's gaming day (409
 * duplicate_serial).
 */
int pit_acct_transfer(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    bool credit, const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * POST /tables/{t}/fills/{serial}/receipt and /credits/{serial}/receipt
 * {"witnesses"|"witness", "year"?} -> 201 the receipt (fill_receipt,
 * credit_receipt; "slip": the slip's id): the slip recorded at the table in
 * that year (default: the current gaming day's) received there, signed by
 * the dealer and a floor supervisor or pit boss, one as the session, the
 * other as a witness.  404 document_not_found, 409 slip_voided, 409
 * already_received.
 */
int pit_acct_receipt(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    bool credit, const char *serial, const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * POST /tables/{t}/drop {"box", "count": {"cash": {"10000": n, ...},
 * "chips": {...}, "markers", "coupons"?}, "collections"?, "gaming_day"?,
 * "shift"?, "witnesses": [...], "approval"?} -> 201 (acct_drop.c).  The
 * cash, chips and markers are computed from the count sheet; the signers
 * are the count session and its witnesses of the count, at least
 * accounting.count_team_min people (403 witness_required naming how many
 * more); gaming_day defaults to the last that ended, an earlier one needs
 * the approval of a pit boss or admin (403 approval_required); a box is
 * counted once a gaming day, at one table (409 duplicate_box); collections
 * only on a player-banked table.
 */
int pit_acct_drop(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * POST /tables/{t}/fills/{serial}/void and /credits/{serial}/void
 * {"reason", "year"?, "witness"} -> 201 the void.  404 document_not_found
 * for a serial not recorded at the table in that year (default: the
 * current gaming day's), 409 already_voided.
 */
int pit_acct_void(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    bool credit, const char *serial, const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * GET /tables/{t}/documents?gaming_day=D (default: the current gaming day)
 * -> {"table", "gaming_day", "documents": [...]}: every document of the
 * table's gaming day in the order recorded, as its POST answered it, voids
 * and receipts included; a fill or credit has "voided" (null, or the void's
 * {"id", "at", "reason", "signer", "witness"}), "received" (null, or the
 * receipt's {"id", "at", "signer", "witness", "witnesses"}) and "status":
 * "pending" ("nj") or "issued" ("basic") until received, then "received";
 * "void" once voided.  Any role that may read the table.
 */
int pit_acct_documents(struct pit *p, const struct actor *a, const char *table_id, const char *gaming_day,
    json_t **out, struct pb_error *err);

/*
 * With accounting.require_opener, a round at a table needs an opener of
 * the current gaming day (409 opener_required); 0 otherwise.  Called in the
 * round's write transaction.
 */
int acct_check_opener(struct pit *p, const char *table_id, struct pb_error *err);

/*
 * The table's session (acct_session.c, docs/accounting.md "The table's
 * session"): its last opener, closer or shift change.  An opener opens it,
 * a shift change goes on with it, a closer closes it; a table with none of
 * them has no session kept (any false) and deals as before.
 */
struct acct_session {
	bool any;                          /* the table has an opener, closer or shift change */
	bool open;                         /* the last of them is an opener or a shift change */
	struct acct_document last;         /* that last one, when any */
};

/* The table's session now. */
int acct_session_get(struct pit *p, const char *table_id, struct acct_session *s, struct pb_error *err);

/*
 * A round at the table: refused after the table's closer until its next
 * opener (409 table_closed, saying to record one).  Called in the round's
 * write transaction.
 */
int acct_check_session(struct pit *p, const char *table_id, struct pb_error *err);

/*
 * {"state": "open"|"closed"|"none", "document": {"id", "kind", "at"} of the
 * last opener, closer or shift change, or null} (new reference; NULL: no
 * memory): what GET /tables shows of the table's session.
 */
json_t *acct_session_json(const struct acct_session *s);

/*
 * One segment of a session (acct_segments.c): from the opener or shift
 * change that opened it to the shift change or closer that closed it.  It
 * belongs to the window (gaming day and shift) of its start.  start NULL:
 * a closer (end) that closed nothing, recorded out of order.
 */
struct acct_segment {
	const struct acct_document *start;
	const struct acct_document *end;   /* NULL: still open */
	bool opens_session;                /* start is an opener after a closer (or the table's first): its discrepancy */
};

typedef int (*acct_segment_fn)(void *ctx, const struct acct_segment *s, struct pb_error *err);

/*
 * Every segment starting on the gaming days from_day to to_day
 * (YYYY-MM-DD, both included) at table_id (NULL: every table), and every
 * closer of those days that closed nothing, handed to fn in the order
 * recorded (a segment when its end is met; those open at the range's end
 * last).  fn returning non-zero stops the walk (-1).
 */
int acct_segments(struct pit *p, const char *table_id, const char *from_day, const char *to_day, acct_segment_fn fn,
    void *ctx, struct pb_error *err);

/*
 * The counted figures of one table over a window (a gaming day, a shift),
 * docs/accounting.md "The formulas": the window's first opening count (an
 * opener or shift change) and last closing one, what the tray moved over
 * its segments, its fills, credits and drops (on a player-banked table the
 * counted collections), and how many documents of each.
 */
struct acct_count {
	int64_t opener_id, closer_id;      /* 0: none */
	int64_t opener, closer, fills, credits, drop;
	int fill_count, credit_count, drop_count;
	int64_t pending_fills, pending_credits;   /* "nj": the slips issued, not received, so not counted */
	int pending_count;
	int segments, open_segments;       /* the window's segments, and those not closed yet */
	int out_of_order;                  /* closers of the window that closed nothing */
	int64_t tray;                      /* the sum of closing minus opening count over the closed segments */
	int64_t discrepancy;               /* the sessions' openers' differences from the last closer: kept out of the win */
};

/*
 * Adds a fill, credit or drop (never a void, nor one voided) to its
 * window's figures; other documents add nothing.  With receipts
 * (accounting.signatures "nj"), a fill or credit not received
 * (d->received) goes to the pending figures instead of the count.
 */
void acct_count_add(struct acct_count *c, const struct acct_document *d, bool player_banked, bool receipts);

/* Adds a segment of the window (acct_segments, in order) to its figures. */
void acct_count_add_segment(struct acct_count *c, const struct acct_segment *s);

/* Has the window an opener and a closer for each of its segments (at least one), and no closer that closed nothing? */
bool acct_count_complete(const struct acct_count *c);

/*
 * The count win of the window's segments, drop + the tray's movement over
 * them (closer - opener, less the discrepancies of the openers between) +
 * credits - fills (500 report_overflow beyond 64 bits).  Meaningful when
 * acct_count_complete.
 */
int acct_count_win(const struct acct_count *c, int64_t *win, struct pb_error *err);

/* Has the window any document? */
bool acct_count_any(const struct acct_count *c);

/*
 * The counted figures of every configured table and gaming day from
 * from_day to to_day (days since 1970-01-01, both included), read in one
 * query and one walk of the sessions' segments: *cells (malloc'd, the caller frees) holds the figures of table i
 * (p->cfg->tables[i]) and day d at [i * days + (d - from_day)].  No scope
 * check: the caller shows only the tables its reader may read.
 */
int acct_counts(struct pit *p, int64_t from_day, int64_t to_day, struct acct_count **cells, struct pb_error *err);

/* One table's shift of one gaming day: the count's figures and the hand win of the rounds of its closed segments. */
struct acct_shift_cell {
	struct acct_count c;
	int64_t hand_win;
};

/*
 * The shifts' figures of every configured table and gaming day from
 * from_day to to_day (days since 1970-01-01, both included), for the
 * statistics report (acct_shifts.c): *cells (malloc'd, the caller frees)
 * holds table i's, day d's, shift s's at [(i * days + (d - from_day)) *
 * shifts + s], shifts the property's count (none: an empty array).  A drop
 * for the whole day belongs to no shift.  No scope check.
 */
int acct_shift_counts(struct pit *p, int64_t from_day, int64_t to_day, struct acct_shift_cell **cells,
    struct pb_error *err);

/* An acknowledgment's kind ("inventory_discrepancy", "count_variance") and the ref of its exception, with their NUL. */
#define ACCT_ACK_KIND_MAX 32
#define ACCT_ACK_REF_MAX 64

/*
 * acct_chips.c - a count of chips per denomination (API.md "Table
 * accounting": {"2500": 40, ...}) checked against the property's
 * denominations and totalled exactly in cents, and the differences of two
 * counts (an opener against the table's last closer).
 */

/* The most chips of one denomination a document may count: far above any tray, fill or credit. */
#define ACCT_CHIP_COUNT_MAX 100000

/* A count: count[i] chips of the property's denomination chips[i]; given[i] when the body named it. */
struct acct_chips {
	int64_t count[CONFIG_CHIPS_MAX];
	bool given[CONFIG_CHIPS_MAX];
	int64_t total;                  /* cents */
};

/*
 * Reads v, {"DENOMINATION": COUNT, ...}, against the denominations of cfg
 * (what: "chips", for the messages).  Refusals (400, naming what to fix):
 * not an object or empty (empty_chips), a denomination the property does not
 * have (unknown_denomination, listing the property's), a count that is not an
 * integer, negative or over ACCT_CHIP_COUNT_MAX (invalid_count), a total over
 * PB_MONEY_MAX (total_overflow).
 */
int acct_chips_read(const json_t *v, const struct config *cfg, const char *what, struct acct_chips *out,
    struct pb_error *err);

/* The count as the record writes it: every denomination given, ascending (new reference; NULL: no memory). */
json_t *acct_chips_json(const struct config *cfg, const struct acct_chips *c);

/* True when the two counts have the same number of each denomination (one not given counts 0). */
bool acct_chips_equal(const struct acct_chips *a, const struct acct_chips *b);

/*
 * "38 x $25 (was 40), 12 x $5 (was 10)": the denominations where a differs
 * from was, in the currency, for a message (truncated to n).
 */
void acct_chips_differences(const struct config *cfg, const char *currency, const struct acct_chips *a,
    const struct acct_chips *was, char *out, size_t n);

/*
 * acct_events.c - a document's table event: its body, and the document read
 * back from it (what central restore and verify rebuild).
 */

/* The registry's row of a document's table event: inventory for an opener or closer, else its kind's; NULL for no kind. */
const struct event_type *acct_event_type(const char *kind);

/* The document's event body: every field its row and the reports need (new reference; NULL: no memory). */
json_t *acct_body(const struct acct_document *d);

/*
 * A document from its event of type t (the inverse of acct_body), every
 * field read by common/event_read.h; 422 unreadable_event naming the type
 * and the field when the body is not one.
 */
int acct_from_body(const char *table_id, const char *at, const struct event_type *t, const json_t *b,
    struct acct_document *d, struct pb_error *err);

/*
 * acct_serials.c - serial control (docs/accounting.md, "Serial control"):
 * the fills and credits of a year against their series (accounting.serials;
 * a kind without one is not checked; two kinds with the same prefix and
 * digits are one series).  A voided slip is accounted for.
 */

/* A problem of a series, as the exceptions report lists it (kind serial_gap). */
struct acct_serial_problem {
	const char *problem;               /* "gap", "duplicate", "out_of_series" */
	char kind[8];                      /* the kind of the slip that shows it: "fill", "credit" */
	int64_t year;
	char serial[PB_ID_MAX];            /* the ref: the serial; a gap's first missing serial */
	char last[PB_ID_MAX];              /* a gap's last missing serial; "" otherwise */
	char before[PB_ID_MAX], after[PB_ID_MAX];   /* a gap: the serials used either side of it */
	int64_t count;                     /* a gap's missing serials; a duplicate's uses not voided; 1 */
	int64_t document;                  /* the slip that shows it: the first after a gap, a duplicate's latest use */
	char table_id[PB_ID_MAX];          /* that slip's table and time */
	char at[PB_TIME_LEN];
};

typedef int (*acct_serial_problem_fn)(void *ctx, const struct acct_serial_problem *x, struct pb_error *err);

/*
 * Every problem of the year's slips handed to fn (non-zero stops the walk
 * with that value): each serial outside its kind's series that is not
 * voided, then per series each number used by two slips not voided and
 * each run of numbers missing between two used ones (voided or not), by
 * number.  Nothing without a configured series.
 */
int acct_serial_problems(struct pit *p, int64_t year, acct_serial_problem_fn fn, void *ctx, struct pb_error *err);

/* Is serial in the series (its prefix, then exactly its digits)?  *number: the digits' value. */
bool acct_serial_in_series(const struct serial_series *s, const char *serial, int64_t *number);

/* The serial of number in the series: the prefix, then the number in exactly its digits. */
void acct_serial_format(const struct serial_series *s, int64_t number, char out[PB_ID_MAX]);

/* "fill" or "credit"; and the kind of a name (-1 for neither). */
const char *acct_serial_kind_name(enum serial_kind k);
int acct_serial_kind_of(const char *name);

/*
 * POST /serials/fill/{serial}/explanation and /serials/credit/...
 * {"note", "witness", "table"?, "year"?} (acct_serial_explain.c) -> 201: a
 * serial exception of the year (default: the current gaming day's)
 * accounted for, the table event serial_explained (its row
 * serial_explanations) in the chain of `table` (default: the table of the
 * slip that shows it).  A pit boss's or the cage's session with a floor or
 * pit boss witness.  404 exception_not_found when the serial (a gap's first
 * missing serial) is no exception of that year, 409 already_explained.
 */
int pit_serial_explain(struct pit *p, const struct actor *a, const struct idempotency *idem, bool credit,
    const char *serial, const json_t *body, json_t **out, int *status, struct pb_error *err);

#endif
