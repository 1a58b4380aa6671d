/*
 * hold.h - the integrity hold: a table whose chain failed a check takes no
 * write until a pit boss acknowledges what was found.
 */
#ifndef PB_TABLE_HOLD_H
#define PB_TABLE_HOLD_H

#include <jansson.h>

#include "table/core/pit.h"

/*
 * Puts a table on integrity hold and records the significant event
 * integrity_failure with the problems ({"problems": [...], "part": part}),
 * in one transaction of its own on s (store_begin: it waits for the
 * process's write turn).  A table already on hold keeps the reason it was
 * held for; the event is recorded either way.
 */
int audit_hold_table(struct store *s, const char *table_id, const json_t *problems, const char *part, struct pb_error *err);

/* POST /api/v1/tables/{t}/acknowledge: a pit boss lifts the integrity hold, with a note. */
int pit_table_acknowledge(struct pit *p, const struct actor *a, const char *table_id, const json_t *body, json_t **out,
    struct pb_error *err);

#endif
