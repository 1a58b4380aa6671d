/*
 * accounting.h - a table's accounting documents (API.md "Table
 * accounting", docs/accounting.md): the opener and closer (the tray's
 * inventory), fills and credits with their serials and their voids, the
 * drop as the count team counted it, the acknowledgments of accounting
 * exceptions, and the master game report over them.
 *
 * Every document is a table event in the table's chain (inventory, fill,
 * credit, fill_void, credit_void, drop) whose body holds everything its row
 * (store/accounting.h) and the report need, written in one transaction with
 * the row; central restore rebuilds the rows from the events alone and
 * verify compares them (the apply and check functions of their rows of the
 * registry, table/event_types.h).  A document is signed by two people: the session of
 * a person holding the session's role (a terminal token signs nothing) and
 * a witness (table/witness.h) holding the witness's role:
 *
 *   opener, closer   floor|pitboss        with dealer|floor|pitboss
 *   fill, credit     cage                 with floor|pitboss
 *   their voids      cage|floor|pitboss   with floor|pitboss
 *   drop             count                with count
 *
 * A refused document records nothing and says what to fix.
 */
#ifndef PB_TABLE_ACCOUNTING_H
#define PB_TABLE_ACCOUNTING_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "table/pit.h"
#include "table/reports.h"

struct store;
struct acct_document;

/* The witness roles of each document (the session's are the operation's, table/access.c). */
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
 * POST /tables/{t}/drop {"box", "cash", "chips", "markers", "collections"?,
 * "gaming_day"?, "shift"?, "witness"} -> 201.  gaming_day defaults to the
 * current one (the count is usually the next morning); collections only on a
 * player-banked table.
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
 * included; a fill or credit has "voided" (null, or the void's {"id", "at",
 * "reason", "signer", "witness"}).  Any role that may read the table.
 */
int pit_acct_documents(struct pit *p, const struct actor *a, const char *table_id, const char *gaming_day,
    json_t **out, struct pb_error *err);

/*
 * POST /exceptions/acknowledgments {"kind", "table", "ref", "note"} by the
 * pitboss role: the exception (an opener's discrepancy, ref its document
 * id; a flagged count variance, ref "YYYY-MM-DD" or "YYYY-MM-DD/SHIFT") is
 * acknowledged, recorded as the table event exception_acknowledged.
 */
int pit_acct_acknowledge(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err);

/*
 * With accounting.require_opener, a round at a table needs an opener of
 * the current gaming day (409 opener_required); 0 otherwise.  Called in the
 * round's write transaction.
 */
int acct_check_opener(struct pit *p, const char *table_id, struct pb_error *err);

/*
 * The counted figures of one table over a window (a gaming day, a shift),
 * docs/accounting.md "The formulas": the window's first opener and last
 * closer, its fills, credits and drops (on a player-banked table the
 * counted collections), and how many documents of each.
 */
struct acct_count {
	int64_t opener_id, closer_id;      /* 0: none */
	int64_t opener, closer, fills, credits, drop;
	int fill_count, credit_count, drop_count;
};

/* Adds a document (never a void, nor one voided) to its window's figures. */
void acct_count_add(struct acct_count *c, const struct acct_document *d, bool player_banked);

/* The count win, drop + closer - opener + credits - fills (500 report_overflow beyond 64 bits). */
int acct_count_win(const struct acct_count *c, int64_t *win, struct pb_error *err);

/* Has the window any document? */
bool acct_count_any(const struct acct_count *c);

/*
 * The counted figures of every configured table and gaming day from
 * from_day to to_day (days since 1970-01-01, both included), read in one
 * query: *cells (malloc'd, the caller frees) holds the figures of table i
 * (p->cfg->tables[i]) and day d at [i * days + (d - from_day)].  No scope
 * check: the caller shows only the tables its reader may read.
 */
int acct_counts(struct pit *p, int64_t from_day, int64_t to_day, struct acct_count **cells, struct pb_error *err);

/*
 * GET /reports/master-game?gaming_day=D[&shift=S] (q->kind
 * REPORT_MASTER_GAME): per table in scope and in total, opener, closer,
 * fills, credits, drop, win, win_per_drop, hand_win, variance,
 * variance_percent, flagged (docs/accounting.md).
 */
int pit_report_master_game(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err);

/*
 * The accounting exceptions in [q->from_ms, q->to_ms) for the exceptions
 * report, appended to arr (each {"at", "table", "round": null, "kind",
 * "detail", ..., "acknowledged"}): openers' discrepancies with their level
 * and the flagged count variances of the gaming days starting in the range.
 */
int acct_exceptions(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr,
    struct pb_error *err);

/*
 * The exceptions report's list arr (oldest first) with the accounting
 * exceptions merged in by time (acct_exceptions) and cut to q->limit;
 * *cut true when something was left out.
 */
int acct_exceptions_merge(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr, bool *cut,
    struct pb_error *err);

#endif
