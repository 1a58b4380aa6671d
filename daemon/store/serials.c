/*
 * serials.c - the rows of the serial explanations (store/serials.h, schema
 * 021).  Written in the caller's transaction, beside the table event the
 * table layer records; append-only.
 */
#include <string.h>

#include "store/serials.h"
#include "store/sql/serials.h"
#include "store/store_int.h"

/* The columns of SERIAL_EXPL_COLS and the members of an explanation that hold them. */
#define EXPL_FIELD(member, col) STORE_FIELD(struct serial_explanation, member, col)
static const struct store_field EXPL_FIELDS[] = {
	EXPL_FIELD(id, SERIAL_EXPL_COL_ID), EXPL_FIELD(table_id, SERIAL_EXPL_COL_TABLE_ID),
	EXPL_FIELD(kind, SERIAL_EXPL_COL_KIND), EXPL_FIELD(year, SERIAL_EXPL_COL_YEAR),
	EXPL_FIELD(serial, SERIAL_EXPL_COL_SERIAL), EXPL_FIELD(note, SERIAL_EXPL_COL_NOTE),
	EXPL_FIELD(by, SERIAL_EXPL_COL_BY), EXPL_FIELD(witness, SERIAL_EXPL_COL_WITNESS),
	EXPL_FIELD(at, SERIAL_EXPL_COL_AT),
};
_Static_assert(sizeof(EXPL_FIELDS) / sizeof(EXPL_FIELDS[0]) == SERIAL_EXPL_COL_COUNT,
    "every column of an explanation is read");

/* The one row of a query bound by the caller, into x. */
static int
one_row(struct store_query *q, struct serial_explanation *x, bool *found)
{
	if (store_query_row(q, found)) {
		memset(x, 0, sizeof(*x));
		store_fields_read(q->st, EXPL_FIELDS, SERIAL_EXPL_COL_COUNT, x);
	}
	return store_query_end(q);
}

int
store_serial_expl_next_id(struct store *s, int64_t *id, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_SERIAL_EXPL_NEXT_ID, "numbering a serial's explanation", err) < 0)
		return -1;
	return store_query_int64(&q, id, NULL);
}

int
store_serial_expl_put(struct store *s, const struct serial_explanation *x, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_SERIAL_EXPL_INSERT, "recording a serial's explanation", err) < 0)
		return -1;
	store_fields_bind(q.st, EXPL_FIELDS, SERIAL_EXPL_COL_COUNT, x);
	return store_query_done(&q);
}

int
store_serial_expl_get(struct store *s, int64_t id, struct serial_explanation *x, bool *found, struct pb_error *err)
{
	struct store_query q;

	*found = false;
	if (store_query(&q, s, STMT_SERIAL_EXPL_GET, "reading a serial's explanation", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, id);
	return one_row(&q, x, found);
}

int
store_serial_expl_of(struct store *s, const char *kind, int64_t year, const char *serial,
    struct serial_explanation *x, bool *found, struct pb_error *err)
{
	struct store_query q;

	*found = false;
	if (store_query(&q, s, STMT_SERIAL_EXPL_OF, "reading a serial's explanation", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, year);
	sqlite3_bind_text(q.st, 3, serial, -1, SQLITE_STATIC);
	return one_row(&q, x, found);
}

int
store_serial_expl_count(struct store *s, int64_t *n, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_SERIAL_EXPL_COUNT, "counting the serials' explanations", err) < 0)
		return -1;
	return store_query_int64(&q, n, NULL);
}
