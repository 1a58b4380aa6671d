/*
 * acct_private.h - what the files of the accounting documents share
 * (accounting.c, acct_events.c, acct_exceptions.c, acct_report.c,
 * acct_verify.c) and nothing else includes: a document's event body and
 * back, its recording, its gaming day.  The public interface is
 * table/accounting.h.
 */
#ifndef PB_TABLE_ACCT_PRIVATE_H
#define PB_TABLE_ACCT_PRIVATE_H

#include <jansson.h>

#include "store/accounting.h"
#include "table/accounting.h"
#include "table/event_types.h"

struct stored_event;

/* An acknowledgment's kind ("inventory_discrepancy", "count_variance") and the ref of its exception, with their NUL. */
#define ACCT_ACK_KIND_MAX 32
#define ACCT_ACK_REF_MAX 64

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

/* Now, its gaming day and shift (when the property has shifts) into d->at, d->gaming_day, d->shift. */
void acct_now(const struct config *cfg, struct acct_document *d);

/* The document as the API shows it (new reference). */
json_t *acct_document_json(const struct acct_document *d);

/*
 * The master game figures of gaming day `day` (shift: an index of the
 * property's shifts, or -1 for the whole day) for one table (table_id) or
 * every table the actor may read (NULL): the report's {"tables", "total"}
 * (new reference in *out).  only_documented: leave out the tables without a
 * document that day (the exceptions).
 */
int acct_master_game(struct pit *p, const struct actor *a, const char *table_id, int64_t day, int shift,
    bool only_documented, json_t **out, struct pb_error *err);

#endif
