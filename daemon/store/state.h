/*
 * state.h - whether the database changed, as one connection sees it.
 *
 * Two numbers together change whenever anything committed since they were
 * last read: SQLite's PRAGMA data_version (commits by every other
 * connection, those of this process's other threads included) and
 * sqlite3_total_changes64() (rows this connection wrote itself, which
 * data_version leaves out).  The HTTP layer uses them to tell whether an
 * answer it rendered earlier on this connection still holds.
 */
#ifndef PB_STORE_STATE_H
#define PB_STORE_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

struct store_data_state {
	int64_t data_version;      /* PRAGMA data_version */
	int64_t own_changes;       /* sqlite3_total_changes64() of this connection */
};

/*
 * Reads the connection's current state, outside any transaction of its own.
 * Only meaningful compared with another state of the same connection.
 */
int store_data_state(struct store *s, struct store_data_state *out, struct pb_error *err);

/* True when a and b are the same state. */
bool store_data_state_equal(const struct store_data_state *a, const struct store_data_state *b);

#endif
