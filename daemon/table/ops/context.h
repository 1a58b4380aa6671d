/*
 * context.h - what pitbossd's front end (http/, main.c) needs of the layers
 * below the table, asked of the table: a worker thread's connection, the
 * data state a rendered answer is valid for, the writer's counters, the
 * stored answers pruned, and the list of significant events (failed
 * sign-ins are noted through table/authlog.h).
 */
#ifndef PB_TABLE_CONTEXT_H
#define PB_TABLE_CONTEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"

struct actor;
struct pit;
struct store;
struct store_writer;

/* A read-write connection to the database (migrated on open); NULL with err filled. */
struct store *pit_connect(const char *database, const char *synchronous, struct pb_error *err);
void pit_disconnect(struct store *s);

/*
 * Whether the database changed as p's connection sees it (store/state.h):
 * two states of the same connection are equal when nothing was committed
 * in between, by anyone.
 */
struct pit_data_state {
	int64_t data_version;
	int64_t own_changes;
};

int pit_data_state(struct pit *p, struct pit_data_state *out, struct pb_error *err);
bool pit_data_state_equal(const struct pit_data_state *a, const struct pit_data_state *b);

/* The group commit's counters (store/writer.h), for /metrics. */
struct pit_writer_stats {
	uint64_t groups;
	uint64_t jobs;
	uint64_t jobs_failed;
	uint64_t groups_failed;
	uint64_t largest_group;
	int queued;
};

void pit_writer_stats(struct store_writer *w, struct pit_writer_stats *out);

/* The Unix time of the last backup made through POST /api/v1/backups since start, 0 when none (table/backup.c). */
int64_t pit_last_backup_unix(void);

/* Stored Idempotency-Key answers deleted after their retention since start. */
uint64_t pit_idempotency_pruned_total(void);

/* GET /events: {"events": [...]} after seq `after`, at most limit; the pitboss, auditor and admin roles. */
int pit_significant_events(struct pit *p, const struct actor *a, int64_t after, int limit, json_t **out,
    struct pb_error *err);

/*
 * GET /api/v1/ready: the reasons this daemon cannot record a round now, as
 * sentences in a new array (empty: ready): the database cannot be written
 * (a probe through p->writer's write path, the file's and directory's
 * permissions, free space) or a table is on integrity hold.  -1 only when
 * the holds cannot be read at all (err).
 */
int pit_ready(struct pit *p, const char *database, json_t **reasons, struct pb_error *err);

#endif
