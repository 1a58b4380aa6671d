/*
 * checkpointer.h - WAL checkpoints off the writers' path.
 *
 * SQLite's automatic checkpoint runs on the connection that commits, inside
 * its COMMIT: every thousand pages of WAL, the round whose commit crosses the
 * mark copies them into the database file and syncs it, tens of milliseconds
 * more on that round's answer (hundreds on a busy machine).  A checkpointer
 * turns that off on the write connection and does the same work on a thread
 * of its own, with its own connection, at a lower priority: the write
 * connection's WAL hook only wakes it.  Should it fall far behind (a machine
 * too busy to give it any time), the committing connection checkpoints
 * itself, as SQLite would have, so the WAL stays bounded.
 */
#ifndef PB_STORE_CHECKPOINTER_H
#define PB_STORE_CHECKPOINTER_H

#include <sqlite3.h>

#include "common/error.h"

/* WAL pages after which the checkpointer is woken (SQLite's own automatic mark). */
#define CHECKPOINTER_PAGES 1000
/* WAL pages after which the committing connection checkpoints itself (the checkpointer is not keeping up). */
#define CHECKPOINTER_PAGES_MAX 16000
/* The checkpointer thread's nice value above the daemon's. */
#define CHECKPOINTER_NICE 5

struct store_checkpointer;

/*
 * Starts the checkpointer of the database at path for the write connection
 * writer_db (its automatic checkpoints replaced by the hook).  NULL with err
 * filled when its connection or thread cannot be made; writer_db is then
 * left as it was (checkpointing itself).
 */
struct store_checkpointer *store_checkpointer_start(sqlite3 *writer_db, const char *path, struct pb_error *err);

/* Gives writer_db its automatic checkpoints back, stops the thread and closes its connection.  NULL is accepted. */
void store_checkpointer_stop(struct store_checkpointer *c);

#endif
