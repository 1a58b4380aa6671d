/*
 * state.c - the connection's view of "has the database changed" (state.h).
 */
#include "store/state.h"

#include <string.h>

/*
 * Steps PRAGMA data_version (prepared once per connection) and resets it at
 * once, so that no read transaction is left open on the connection.
 */
int
store_data_state(struct store *s, struct store_data_state *out, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "PRAGMA data_version", err);
	int rc;

	memset(out, 0, sizeof(*out));
	if (st == NULL)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		out->data_version = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return store_fail(s, err, "reading the data version");
	out->own_changes = (int64_t)sqlite3_total_changes64(store_db(s));
	return 0;
}

bool
store_data_state_equal(const struct store_data_state *a, const struct store_data_state *b)
{
	return a->data_version == b->data_version && a->own_changes == b->own_changes;
}
