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

#include "table/pit.h"

typedef int (*pit_write_fn)(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status,
    struct pb_error *err);

int pit_write(struct pit *p, const struct actor *a, const struct idempotency *idem, pit_write_fn fn, void *arg,
    json_t **out, int *status, struct pb_error *err);

/* May this actor act on (write=true) or read this table?  403 otherwise. */
int pit_check_table_access(const struct actor *a, const char *table_id, bool write, struct pb_error *err);

/* 409 integrity_hold when the table failed its start-up integrity check and no pit boss acknowledged it yet. */
int pit_check_hold(struct pit *p, const char *table_id, struct pb_error *err);

#endif
