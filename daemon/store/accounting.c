/*
 * accounting.c - the rows of the accounting documents and of the
 * acknowledgments of their exceptions (store/accounting.h, schema 012).
 * Written in the caller's transaction, beside the table event the table
 * layer records; append-only.
 */
#include <string.h>

#include "store/accounting.h"
#include "store/sql/accounting.h"
#include "store/store_int.h"

/* Binds an amount, or leaves NULL when the document has none (has false). */
static void
bind_amount(sqlite3_stmt *st, int col, bool has, int64_t v)
{
	if (has)
		sqlite3_bind_int64(st, col, v);
}

/* The columns of ACCT_COLS (sql/accounting.h) and the members of a document that hold them. */
#define ACCT_FIELD(member, col) STORE_FIELD(struct acct_document, member, col)
static const struct store_field ACCT_FIELDS[] = {
	ACCT_FIELD(id, ACCT_COL_ID), ACCT_FIELD(table_id, ACCT_COL_TABLE_ID), ACCT_FIELD(kind, ACCT_COL_KIND),
	ACCT_FIELD(at, ACCT_COL_AT), ACCT_FIELD(gaming_day, ACCT_COL_GAMING_DAY), ACCT_FIELD(shift, ACCT_COL_SHIFT),
	ACCT_FIELD(serial, ACCT_COL_SERIAL), ACCT_FIELD(year, ACCT_COL_YEAR), ACCT_FIELD(total, ACCT_COL_TOTAL),
	ACCT_FIELD(chips_json, ACCT_COL_CHIPS_JSON), ACCT_FIELD(cash, ACCT_COL_CASH),
	ACCT_FIELD(chip_value, ACCT_COL_CHIP_VALUE), ACCT_FIELD(markers, ACCT_COL_MARKERS),
	ACCT_FIELD(collections, ACCT_COL_COLLECTIONS), ACCT_FIELD(discrepancy, ACCT_COL_DISCREPANCY),
	ACCT_FIELD(reason, ACCT_COL_REASON), ACCT_FIELD(voids, ACCT_COL_VOIDS), ACCT_FIELD(signer, ACCT_COL_SIGNER),
	ACCT_FIELD(witness, ACCT_COL_WITNESS), ACCT_FIELD(runner, ACCT_COL_RUNNER),
	ACCT_FIELD(requester, ACCT_COL_REQUESTER), ACCT_FIELD(witnesses, ACCT_COL_WITNESSES),
	ACCT_FIELD(count_json, ACCT_COL_COUNT_JSON), ACCT_FIELD(approval, ACCT_COL_APPROVAL),
};
_Static_assert(sizeof(ACCT_FIELDS) / sizeof(ACCT_FIELDS[0]) == ACCT_COL_COUNT, "every column of a document is read");

/* One row of ACCT_COLS into d; has_discrepancy: the column is not NULL. */
static void
read_row(sqlite3_stmt *st, struct acct_document *d)
{
	memset(d, 0, sizeof(*d));
	store_fields_read(st, ACCT_FIELDS, ACCT_COL_COUNT, d);
	d->has_discrepancy = sqlite3_column_type(st, ACCT_COL_DISCREPANCY) != SQLITE_NULL;
}

int
store_acct_next_id(struct store *s, int64_t *id, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_NEXT_ID, "numbering a document", err) < 0)
		return -1;
	return store_query_int64(&q, id, NULL);
}

int
store_acct_put(struct store *s, const struct acct_document *d, struct pb_error *err)
{
	bool is_drop = strcmp(d->kind, "drop") == 0;
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_INSERT, "recording a document", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, SQL_PARAM(ACCT_COL_ID), d->id);
	sqlite3_bind_text(q.st, SQL_PARAM(ACCT_COL_TABLE_ID), d->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(ACCT_COL_KIND), d->kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(ACCT_COL_AT), d->at, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(ACCT_COL_GAMING_DAY), d->gaming_day, -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, SQL_PARAM(ACCT_COL_SHIFT), d->shift);
	store_bind_text_or_null(q.st, SQL_PARAM(ACCT_COL_SERIAL), d->serial);
	bind_amount(q.st, SQL_PARAM(ACCT_COL_YEAR), d->year != 0, d->year);
	sqlite3_bind_int64(q.st, SQL_PARAM(ACCT_COL_TOTAL), d->total);
	store_bind_text_or_null(q.st, SQL_PARAM(ACCT_COL_CHIPS_JSON), d->chips_json);
	bind_amount(q.st, SQL_PARAM(ACCT_COL_CASH), is_drop, d->cash);
	bind_amount(q.st, SQL_PARAM(ACCT_COL_CHIP_VALUE), is_drop, d->chip_value);
	bind_amount(q.st, SQL_PARAM(ACCT_COL_MARKERS), is_drop, d->markers);
	bind_amount(q.st, SQL_PARAM(ACCT_COL_COLLECTIONS), is_drop, d->collections);
	bind_amount(q.st, SQL_PARAM(ACCT_COL_DISCREPANCY), d->has_discrepancy, d->discrepancy);
	store_bind_text_or_null(q.st, SQL_PARAM(ACCT_COL_REASON), d->reason);
	bind_amount(q.st, SQL_PARAM(ACCT_COL_VOIDS), d->voids != 0, d->voids);
	sqlite3_bind_text(q.st, SQL_PARAM(ACCT_COL_SIGNER), d->signer, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(ACCT_COL_WITNESS), d->witness, -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, SQL_PARAM(ACCT_COL_RUNNER), d->runner);
	store_bind_text_or_null(q.st, SQL_PARAM(ACCT_COL_REQUESTER), d->requester);
	store_bind_text_or_null(q.st, SQL_PARAM(ACCT_COL_WITNESSES), d->witnesses);
	store_bind_text_or_null(q.st, SQL_PARAM(ACCT_COL_COUNT_JSON), d->count_json);
	store_bind_text_or_null(q.st, SQL_PARAM(ACCT_COL_APPROVAL), d->approval);
	if (store_query_done(&q) == 0)
		return 0;
	if (sqlite3_extended_errcode(store_db(s)) == SQLITE_CONSTRAINT_UNIQUE)
		return pb_fail(err, 409, "duplicate_serial", "serial %s was used for a %s in %lld already", d->serial, d->kind,
		    (long long)d->year);
	return -1;
}

/* The one row of a query bound by the caller, into d. */
static int
one_row(struct store_query *q, struct acct_document *d, bool *found)
{
	if (store_query_row(q, found))
		read_row(q->st, d);
	return store_query_end(q);
}

int
store_acct_get(struct store *s, int64_t id, struct acct_document *d, bool *found, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_GET, "reading a document", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, id);
	return one_row(&q, d, found);
}

int
store_acct_by_serial(struct store *s, const char *kind, int64_t year, const char *serial, struct acct_document *d,
    bool *found, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_BY_SERIAL, "reading a document by its serial", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, year);
	sqlite3_bind_text(q.st, 3, serial, -1, SQLITE_STATIC);
	return one_row(&q, d, found);
}

int
store_acct_last(struct store *s, const char *table_id, const char *kind, struct acct_document *d, bool *found,
    struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_LAST, "reading the table's last document", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, kind, -1, SQLITE_STATIC);
	return one_row(&q, d, found);
}

int
store_acct_neighbour(struct store *s, const char *table_id, const char *kind, int64_t id, bool after,
    struct acct_document *d, bool *found, struct pb_error *err)
{
	struct store_query q;

	*found = false;
	if (store_query(&q, s, after ? STMT_ACCT_NEXT_OF_KIND : STMT_ACCT_PREV_OF_KIND, "reading the table's documents in "
	    "order", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 3, id);
	return one_row(&q, d, found);
}

int
store_acct_has_opener(struct store *s, const char *table_id, const char *gaming_day, bool *found,
    struct pb_error *err)
{
	struct store_query q;
	int64_t n = 0;

	if (store_query(&q, s, STMT_ACCT_HAS_OPENER, "looking for the day's opener", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, gaming_day, -1, SQLITE_STATIC);
	if (store_query_int64(&q, &n, NULL) < 0)
		return -1;
	*found = n > 0;
	return 0;
}

/* Every row of a query bound by the caller, handed to fn (with received when the query reads it after the columns). */
static int
walk(struct store_query *q, acct_document_fn fn, void *ctx, struct pb_error *err)
{
	bool has_received = sqlite3_column_count(q->st) > ACCT_COL_COUNT;
	struct acct_document d;
	int rc = 0;

	while (rc == 0 && store_query_next(q)) {
		read_row(q->st, &d);
		d.received = has_received && sqlite3_column_int(q->st, ACCT_COL_COUNT) != 0;
		rc = fn(ctx, &d, err);
	}
	if (store_query_end(q) < 0)
		return -1;
	return rc;
}

int
store_acct_day(struct store *s, const char *gaming_day, acct_document_fn fn, void *ctx, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_DAY, "reading the day's documents", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, gaming_day, -1, SQLITE_STATIC);
	return walk(&q, fn, ctx, err);
}

int
store_acct_table_day(struct store *s, const char *table_id, const char *gaming_day, acct_document_fn fn,
    void *ctx, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_TABLE_DAY, "reading the table's documents", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, gaming_day, -1, SQLITE_STATIC);
	return walk(&q, fn, ctx, err);
}

int
store_acct_days(struct store *s, const char *from_day, const char *to_day, acct_document_fn fn, void *ctx,
    struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_DAYS, "reading the days' documents", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, from_day, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, to_day, -1, SQLITE_STATIC);
	return walk(&q, fn, ctx, err);
}

int
store_acct_pending(struct store *s, const char *from, const char *to, const char *before, acct_document_fn fn,
    void *ctx, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_PENDING, "reading the slips not received", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, to, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 3, before, -1, SQLITE_STATIC);
	return walk(&q, fn, ctx, err);
}

int
store_acct_inventory_days(struct store *s, const char *from_day, const char *to_day, acct_document_fn fn, void *ctx,
    struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_INVENTORY_DAYS, "reading the days' openers, closers and shift changes", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, from_day, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, to_day, -1, SQLITE_STATIC);
	return walk(&q, fn, ctx, err);
}

int
store_acct_discrepancies(struct store *s, const char *from, const char *to, acct_document_fn fn, void *ctx,
    struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_DISCREPANCIES, "reading the openers' discrepancies", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, to, -1, SQLITE_STATIC);
	return walk(&q, fn, ctx, err);
}

int
store_acct_drop_box(struct store *s, const char *gaming_day, const char *box, struct acct_document *d, bool *found,
    struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_DROP_BOX, "looking for the box's drop", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, gaming_day, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, box, -1, SQLITE_STATIC);
	return one_row(&q, d, found);
}

int
store_acct_year_slips(struct store *s, int64_t year, acct_document_fn fn, void *ctx, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_YEAR_SLIPS, "reading the year's slips", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, year);
	return walk(&q, fn, ctx, err);
}

int
store_acct_ack_put(struct store *s, const char *table_id, const char *kind, const char *ref,
    const struct acct_ack *ack, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ACCT_ACK_INSERT, "recording an acknowledgment", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(ACK_COL_TABLE_ID), table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(ACK_COL_KIND), kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(ACK_COL_REF), ref, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(ACK_COL_NOTE), ack->note, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(ACK_COL_BY), ack->by, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(ACK_COL_AT), ack->at, -1, SQLITE_STATIC);
	if (store_query_done(&q) == 0)
		return 0;
	if (sqlite3_extended_errcode(store_db(s)) == SQLITE_CONSTRAINT_UNIQUE)
		return pb_fail(err, 409, "already_acknowledged", "the %s %s of table %s is acknowledged already", kind, ref, table_id);
	return -1;
}

int
store_acct_ack_get(struct store *s, const char *table_id, const char *kind, const char *ref, struct acct_ack *ack,
    bool *found, struct pb_error *err)
{
	struct store_query q;

	*found = false;
	if (store_query(&q, s, STMT_ACCT_ACK_GET, "reading an acknowledgment", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 3, ref, -1, SQLITE_STATIC);
	if (store_query_row(&q, found)) {
		store_column_text(ack->note, sizeof(ack->note), q.st, 0);
		store_column_text(ack->by, sizeof(ack->by), q.st, 1);
		store_column_text(ack->at, sizeof(ack->at), q.st, 2);
	}
	return store_query_end(&q);
}

int
store_acct_counts(struct store *s, int64_t *documents, int64_t *acknowledgments, struct pb_error *err)
{
	struct store_query q;

	*documents = *acknowledgments = 0;
	if (store_query(&q, s, STMT_ACCT_COUNTS, "counting the accounting rows", err) < 0)
		return -1;
	if (store_query_next(&q)) {
		*documents = sqlite3_column_int64(q.st, 0);
		*acknowledgments = sqlite3_column_int64(q.st, 1);
	}
	return store_query_end(&q);
}
