/*
 * accounting.h - the table's accounting documents as rows (acct_documents,
 * schema 012) and the acknowledgments of accounting exceptions
 * (acct_acknowledgments).  What a document means, who signs it and the
 * checks it meets are the table layer's (table/accounting/accounting.h); the store
 * records the row in the caller's transaction, beside the document's table
 * event, and reads rows back for the master game report and the exceptions.
 */
#ifndef PB_STORE_ACCOUNTING_H
#define PB_STORE_ACCOUNTING_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/gaming_day.h"
#include "common/ids.h"
#include "common/timeutil.h"

struct store;

#define ACCT_KIND_MAX 16
#define ACCT_CHIPS_JSON_MAX 1024
#define ACCT_REASON_MAX 512
#define ACCT_DAY_LEN 11
#define ACCT_WITNESSES_JSON_MAX 192      /* ["ID", ...]: the witnesses' ids, a few of at most 32 bytes each */
#define ACCT_COUNT_JSON_MAX 2048        /* a drop's count sheet as compact JSON */

/* One document as its row holds it. */
struct acct_document {
	int64_t id;
	char table_id[PB_ID_MAX];
	char kind[ACCT_KIND_MAX];           /* opener, closer, shift_change, fill, credit, fill_void, credit_void,
	                                       fill_receipt, credit_receipt, drop */
	char at[PB_TIME_LEN];
	char gaming_day[ACCT_DAY_LEN];      /* YYYY-MM-DD */
	char shift[GAMING_SHIFT_NAME_MAX];  /* "" when none */
	char serial[PB_ID_MAX];             /* fills, credits, voids, receipts: the serial; a drop: its box; "" otherwise */
	int64_t year;                       /* the serial's year; 0 when none */
	int64_t total;
	char chips_json[ACCT_CHIPS_JSON_MAX];   /* "" for a drop and a void */
	int64_t cash, chip_value, markers, collections;   /* a drop's parts */
	bool has_discrepancy;               /* an opener after a closer */
	int64_t discrepancy;                /* opener total - previous closer total */
	char reason[ACCT_REASON_MAX];
	int64_t voids;                      /* a void: the document it voids; a receipt: the slip received; 0 otherwise */
	char signer[PB_ID_MAX], witness[PB_ID_MAX], runner[PB_ID_MAX], requester[PB_ID_MAX];
	char witnesses[ACCT_WITNESSES_JSON_MAX];   /* every witness's id, compact JSON; "" before schema 021 */
	char count_json[ACCT_COUNT_JSON_MAX];      /* a drop's count sheet, compact JSON, keys sorted; "" otherwise */
	char approval[PB_ID_MAX];                  /* a back-dated drop: the pit boss or admin who approved it; "" otherwise */
	bool received;                      /* the window reads (store_acct_day, _days): a slip received at the table */
};

/* An acknowledgment of an accounting exception. */
struct acct_ack {
	char note[ACCT_REASON_MAX];
	char by[PB_ID_MAX];
	char at[PB_TIME_LEN];
};

/* The id the next document gets (the largest so far plus one). */
int store_acct_next_id(struct store *s, int64_t *id, struct pb_error *err);

/* Records a document's row (its id as given); 409 duplicate_serial when its (kind, year, serial) is taken. */
int store_acct_put(struct store *s, const struct acct_document *d, struct pb_error *err);

/* The document of this id (*found false when none). */
int store_acct_get(struct store *s, int64_t id, struct acct_document *d, bool *found, struct pb_error *err);

/* The document of kind with this serial in this year (*found false when none). */
int store_acct_by_serial(struct store *s, const char *kind, int64_t year, const char *serial, struct acct_document *d,
    bool *found, struct pb_error *err);

/* The table's latest document of kind (*found false when none). */
int store_acct_last(struct store *s, const char *table_id, const char *kind, struct acct_document *d, bool *found,
    struct pb_error *err);

/*
 * The table's document of kind nearest to document id: the first after it
 * (after true) or the last before it (*found false when none).
 */
int store_acct_neighbour(struct store *s, const char *table_id, const char *kind, int64_t id, bool after,
    struct acct_document *d, bool *found, struct pb_error *err);

/* Does the table have an opener (or a shift change) of this gaming day? */
int store_acct_has_opener(struct store *s, const char *table_id, const char *gaming_day, bool *found,
    struct pb_error *err);

typedef int (*acct_document_fn)(void *ctx, const struct acct_document *d, struct pb_error *err);

/*
 * Every document of the gaming day that is not a void nor a receipt and was
 * not voided (whenever the void was recorded), in the order recorded, each
 * fill and credit saying whether it was received (whenever the receipt was
 * recorded; one recorded before receipts existed counts as received); fn
 * returning non-zero stops the walk with that value.
 */
int store_acct_day(struct store *s, const char *gaming_day, acct_document_fn fn, void *ctx, struct pb_error *err);

/*
 * Every document of the table's gaming day, voids and voided slips
 * included, and the voids (whenever recorded) of its slips, in the order
 * recorded: what the table's inventory panel lists.
 */
int store_acct_table_day(struct store *s, const char *table_id, const char *gaming_day, acct_document_fn fn,
    void *ctx, struct pb_error *err);

/* What store_acct_day reads, over the gaming days from_day to to_day (YYYY-MM-DD, both included), in the order recorded. */
int store_acct_days(struct store *s, const char *from_day, const char *to_day, acct_document_fn fn, void *ctx,
    struct pb_error *err);

/* The fills and credits recorded in [from, to) and before `before`, neither voided nor received, oldest first. */
int store_acct_pending(struct store *s, const char *from, const char *to, const char *before, acct_document_fn fn,
    void *ctx, struct pb_error *err);

/* The openers, closers and shift changes of the gaming days from_day to to_day (both included), every table, in order. */
int store_acct_inventory_days(struct store *s, const char *from_day, const char *to_day, acct_document_fn fn, void *ctx,
    struct pb_error *err);

/* The openers recorded in [from, to) whose total differed from the previous closer's, oldest first. */
int store_acct_discrepancies(struct store *s, const char *from, const char *to, acct_document_fn fn, void *ctx,
    struct pb_error *err);

/* The drop of this box counted for this gaming day, at any table (*found false when none). */
int store_acct_drop_box(struct store *s, const char *gaming_day, const char *box, struct acct_document *d, bool *found,
    struct pb_error *err);

/* Every fill and credit of the year (the year of their serials) and every void of one, in the order recorded. */
int store_acct_year_slips(struct store *s, int64_t year, acct_document_fn fn, void *ctx, struct pb_error *err);

/* Records an acknowledgment; 409 already_acknowledged when (table, kind, ref) has one. */
int store_acct_ack_put(struct store *s, const char *table_id, const char *kind, const char *ref,
    const struct acct_ack *ack, struct pb_error *err);

/* The acknowledgment of (table, kind, ref) (*found false when none). */
int store_acct_ack_get(struct store *s, const char *table_id, const char *kind, const char *ref, struct acct_ack *ack,
    bool *found, struct pb_error *err);

/* How many document rows and acknowledgment rows there are (pitboss verify counts them against the events). */
int store_acct_counts(struct store *s, int64_t *documents, int64_t *acknowledgments, struct pb_error *err);

#endif
