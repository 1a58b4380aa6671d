/*
 * txn.h - the one way a write happens: BEGIN IMMEDIATE, replay a stored
 * answer for a repeated Idempotency-Key, run the operation, store its answer
 * under the key, COMMIT.  Any failure rolls everything back.
 *
 * With p->writer set (pitbossd), the write is a job of the process's write
 * group (store/writer.h): the same steps in a savepoint of a transaction
 * shared with the writes that arrived with it, one COMMIT for all, and
 * pit_write returns when that COMMIT has.  fn then runs on the writer's
 * connection, perhaps on another thread: it must use p->store only.
 */
#ifndef PB_TABLE_TXN_H
#define PB_TABLE_TXN_H

#include "table/core/access.h"
#include "table/core/pit.h"

typedef int (*pit_write_fn)(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status,
    struct pb_error *err);

int pit_write(struct pit *p, const struct actor *a, const struct idempotency *idem, pit_write_fn fn, void *arg,
    json_t **out, int *status, struct pb_error *err);

#endif
