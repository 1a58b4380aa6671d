/*
 * variances.c - the rows of the variance investigations
 * (store/variances.h, schema 021).  Written in the caller's transaction,
 * beside the table event the table layer records; append-only.
 */
#include <string.h>

#include "store/sql/variances.h"
#include "store/store_int.h"
#include "store/variances.h"

/* The columns of VAR_COLS and the members of a step that hold them. */
#define VAR_FIELD(member, col) STORE_FIELD(struct variance_step, member, col)
static const struct store_field VAR_FIELDS[] = {
	VAR_FIELD(id, VAR_COL_ID), VAR_FIELD(table_id, VAR_COL_TABLE_ID), VAR_FIELD(gaming_day, VAR_COL_GAMING_DAY),
	VAR_FIELD(status, VAR_COL_STATUS), VAR_FIELD(assignee, VAR_COL_ASSIGNEE), VAR_FIELD(cause, VAR_COL_CAUSE),
	VAR_FIELD(note, VAR_COL_NOTE), VAR_FIELD(by, VAR_COL_BY), VAR_FIELD(witness, VAR_COL_WITNESS),
	VAR_FIELD(at, VAR_COL_AT),
};
_Static_assert(sizeof(VAR_FIELDS) / sizeof(VAR_FIELDS[0]) == VAR_COL_COUNT, "every column of a step is read");

static void
read_row(sqlite3_stmt *st, struct variance_step *v)
{
	memset(v, 0, sizeof(*v));
	store_fields_read(st, VAR_FIELDS, VAR_COL_COUNT, v);
}

int
store_variance_next_id(struct store *s, int64_t *id, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_VAR_NEXT_ID, "numbering an investigation's step", err) < 0)
		return -1;
	return store_query_int64(&q, id, NULL);
}

int
store_variance_put(struct store *s, const struct variance_step *v, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_VAR_INSERT, "recording an investigation's step", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, SQL_PARAM(VAR_COL_ID), v->id);
	sqlite3_bind_text(q.st, SQL_PARAM(VAR_COL_TABLE_ID), v->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(VAR_COL_GAMING_DAY), v->gaming_day, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(VAR_COL_STATUS), v->status, -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, SQL_PARAM(VAR_COL_ASSIGNEE), v->assignee);
	store_bind_text_or_null(q.st, SQL_PARAM(VAR_COL_CAUSE), v->cause);
	sqlite3_bind_text(q.st, SQL_PARAM(VAR_COL_NOTE), v->note, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(VAR_COL_BY), v->by, -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, SQL_PARAM(VAR_COL_WITNESS), v->witness);
	sqlite3_bind_text(q.st, SQL_PARAM(VAR_COL_AT), v->at, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_variance_get(struct store *s, int64_t id, struct variance_step *v, bool *found, struct pb_error *err)
{
	struct store_query q;

	*found = false;
	if (store_query(&q, s, STMT_VAR_GET, "reading an investigation's step", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, id);
	if (store_query_row(&q, found))
		read_row(q.st, v);
	return store_query_end(&q);
}

int
store_variance_steps(struct store *s, const char *table_id, const char *gaming_day, variance_step_fn fn, void *ctx,
    struct pb_error *err)
{
	struct store_query q;
	struct variance_step v;
	int rc = 0;

	if (store_query(&q, s, STMT_VAR_OF_DAY, "reading an investigation", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, gaming_day, -1, SQLITE_STATIC);
	while (rc == 0 && store_query_next(&q)) {
		read_row(q.st, &v);
		rc = fn(ctx, &v, err);
	}
	if (store_query_end(&q) < 0)
		return -1;
	return rc;
}

int
store_variance_count(struct store *s, int64_t *count, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_VAR_COUNT, "counting the investigations' steps", err) < 0)
		return -1;
	return store_query_int64(&q, count, NULL);
}
