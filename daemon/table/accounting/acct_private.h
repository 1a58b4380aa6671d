/*
 * acct_private.h - what the files of accounting/ share and no other folder
 * includes: a document's recording, its gaming day, its JSON, an
 * acknowledgment read back from its event, and the denominations for
 * messages.  The public interface is
 * table/accounting/accounting.h.
 */
#ifndef PB_TABLE_ACCT_PRIVATE_H
#define PB_TABLE_ACCT_PRIVATE_H

#include <jansson.h>

#include "store/accounting.h"
#include "table/accounting/accounting.h"

struct stored_event;

/* An acknowledgment from its event e (exception_acknowledged): its kind, ref and row; 422 unreadable_event as above. */
int acct_ack_from_body(const struct event_type *t, const struct stored_event *e, const json_t *body,
    char kind[ACCT_ACK_KIND_MAX], char ref[ACCT_ACK_REF_MAX], struct acct_ack *ack, struct pb_error *err);

/*
 * Records d in the caller's transaction: its row and its table event
 * (actor a), the row made from the event's body so that a restore writes
 * the same.  *out: the document as the API answers it.
 */
int acct_record(struct pit *p, const struct actor *a, const struct acct_document *d, json_t **out,
    struct pb_error *err);

/*
 * Before an opener, closer or shift change d is recorded (in its write):
 * refuses it while a round is in progress (409 round_in_progress) or out of
 * the session's order (409 opener_out_of_order: the table is open;
 * closer_out_of_order: closed by its closer; shift_change_out_of_order: not
 * open); a shift change gets the gaming day and shift it opens.
 */
int acct_session_check_document(struct pit *p, struct acct_document *d, struct pb_error *err);

/*
 * The table's opener, closer or shift change nearest to document id: the
 * first after it (after true) or the last before it (*found false when none).
 */
int acct_inventory_neighbour(struct pit *p, const char *table_id, int64_t id, bool after, struct acct_document *d,
    bool *found, struct pb_error *err);

/* Now, its gaming day and shift (when the property has shifts) into d->at, d->gaming_day, d->shift. */
void acct_now(const struct config *cfg, struct acct_document *d);

/*
 * Records d, a void or a receipt (d->kind fill_void, credit_void,
 * fill_receipt, credit_receipt; its table, signers, time and year set) of
 * the slip (fill or credit) of serial recorded at d's table: 404
 * document_not_found for no such slip there that year, 409 already_voided
 * or already_received for the second, 409 slip_voided for a receipt of a
 * voided slip.  201 the document, as acct_record answers it.
 */
int acct_record_follow_up(struct pit *p, const struct actor *a, struct acct_document *d, const char *slip, const char *serial,
    json_t **out, int *status, struct pb_error *err);

/* The document as the API shows it (new reference). */
json_t *acct_document_json(const struct acct_document *d);

/* The denominations of the property, "100, 500, 2500", for messages. */
void acct_chips_denominations(const struct config *cfg, char *out, size_t n);

/* The index of the denomination spelt key (cents in decimal, "2500", no sign, no leading 0) among n, or -1. */
int acct_denomination_index(const char *key, const int64_t *denominations, size_t n);

/*
 * acct_signatures.c - who signs a document, by accounting.signatures
 * (docs/accounting.md, "Who signs"), and what a slip's status is.
 */

/* What a document's signatures gave: its first witness, every witness, and (a slip under "nj") its runner. */
struct acct_signed {
	char witness[PB_ID_MAX];
	char witnesses[ACCT_WITNESSES_JSON_MAX];   /* ["ID", ...], compact */
	char runner[PB_ID_MAX];                     /* "" unless the runner signed */
};

/*
 * Checks the signatures of a document of kind (opener, fill, fill_receipt,
 * ...) signed by session a (table/people/people.h pit_witnesses_check, its
 * refusals).  Under "nj": an inventory (opener, closer, shift_change) and a
 * receipt are signed by the dealer and a floor supervisor or pit boss, one
 * the session, the other a witness; a fill or credit by a floor supervisor
 * or pit boss and the runner (security) besides the cage's session, the
 * body's "runner", when given, being that runner (422 invalid_runner, as for
 * a runner who is a dealer).  Every other document, and every one under
 * "basic", takes one witness of basic_roles; "basic" refuses a dealer's
 * session on an inventory (403 forbidden).  what: "a fill", for messages.
 */
int acct_sign(struct pit *p, const struct actor *a, const char *kind, const json_t *body, unsigned basic_roles,
    const char *what, struct acct_signed *out, struct pb_error *err);

/*
 * A fill's or credit's status as issued: "pending" (not counted until
 * received) under "nj", "issued" (counted) under "basic"; NULL for another
 * kind.  A receipt makes it "received", a void "void".
 */
const char *acct_slip_status(const struct config *cfg, const struct acct_document *d);

/*
 * acct_count_sheet.c - a drop's count sheet (docs/accounting.md, "The drop
 * and the count"): {"cash": {"BILL": COUNT}, "chips": {"DENOMINATION":
 * COUNT}, "markers": CENTS, "coupons": CENTS}, every part optional.
 */

/* The most bills of one denomination a count sheet may count. */
#define ACCT_BILL_COUNT_MAX 1000000

/* A count sheet read: its parts in cents and its text as the document keeps it. */
struct acct_count_sheet {
	int64_t cash, chip_value, markers, coupons;
	int64_t total;                     /* cash + chips + markers: the drop (coupons are kept, not counted) */
	char json[ACCT_COUNT_JSON_MAX];    /* compact, keys sorted: cash, chips (each denomination given), markers, coupons */
};

/*
 * Reads the sheet v against the property's chips (cfg).  Refusals (400,
 * naming the field): not an object (invalid_body), an unknown key
 * (unknown_field), a bill that is not a US bill or a chip not of the
 * property (unknown_denomination), a count that is not an integer from 0
 * to its maximum (invalid_count), an amount that is not cents
 * (invalid_amount), a total over PB_MONEY_MAX (total_overflow).
 */
int acct_count_sheet_read(const json_t *v, const struct config *cfg, struct acct_count_sheet *out, struct pb_error *err);

/*
 * acct_serial_explain.c: the serial explanation rows beyond the
 * serial_explained events the walk counted (pitboss verify; called by
 * acct_verify_end).
 */
struct event_verify;
int acct_serial_verify_end(struct event_verify *v, struct pb_error *err);

#endif
