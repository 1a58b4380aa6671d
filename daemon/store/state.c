/*
 * state.c - the connection's view of "has the database changed" (state.h).
 */
#include "store/state.h"
#include "store/store_int.h"

#include <string.h>

/*
 * Steps PRAGMA data_version (prepared once per connection) and resets it at
 * once, so that no read transaction is left open on the connection.
 */
int
store_data_state(struct store *s, struct store_data_state *out, struct pb_error *err)
{
	struct store_query q;

	memset(out, 0, sizeof(*out));
	if (store_query(&q, s, STMT_DATA_VERSION, "reading the data version", err) < 0 ||
	    store_query_int64(&q, &out->data_version, NULL) < 0)
		return -1;
	out->own_changes = (int64_t)sqlite3_total_changes64(store_db(s));
	return 0;
}

bool
store_data_state_equal(const struct store_data_state *a, const struct store_data_state *b)
{
	return a->data_version == b->data_version && a->own_changes == b->own_changes;
}
