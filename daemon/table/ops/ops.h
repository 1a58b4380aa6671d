/*
 * ops.h - the ops domain of the pit (docs/architecture.md, "The pit's
 * domains"), its only header another folder includes; ops_private.h is its
 * own.  What runs the daemon around the domains below it:
 *
 *   context.c, ready.c   what the front end (http/, main.c) needs of the layers
 *                        below the table: connections, the data state, the
 *                        writer's counters, readiness
 *   startup.c            the integrity check at start and its background walk
 *   backup.c             copies of the database; backup_schedule.c: pitbossd's own
 *   shipping             what http/ may ask of the central tier without knowing it
 */
#ifndef PB_TABLE_OPS_H
#define PB_TABLE_OPS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/timeutil.h"
#include "table/core/core.h"

struct signer;
struct store;
struct store_writer;

/*
 * context.c, ready.c - what pitbossd's front end (http/, main.c) needs of
 * the layers below the table, asked of the table: a worker thread's
 * connection, the data state a rendered answer is valid for, the writer's
 * counters, the stored answers pruned (backup.c: the last backup), the
 * list of significant events (failed sign-ins are noted through
 * table/people/people.h) and whether the daemon is ready.
 */

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

/* The Unix time of the last backup made through POST /api/v1/backups since start, 0 when none (table/ops/backup.c). */
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

/*
 * startup.c - pitbossd's integrity check at start, in two parts.  Before it
 * listens: every table's last checkpoint and its chain since then, so that
 * a table altered after its last checkpoint is on hold before any write is
 * taken.  After it listens, with startup_check "full": the chains before
 * the last checkpoints, walked by a thread of its own on its own database
 * connection, at a lower scheduling priority, in chunks (each a short read
 * transaction), pausing between them.  A table that fails either part is put on hold and an
 * integrity_failure significant event recorded (audit_hold_table).
 *
 * The progress of the check is process-wide (one check per process) and
 * read by GET /api/v1/integrity and /metrics.
 */

/* Events read and checked per chunk of the background walk (about 10 ms of work). */
#define STARTUP_WALK_CHUNK 2000

/* The background walk's thread runs this much nicer than the daemon (Linux), below the HTTP workers. */
#define STARTUP_WALK_NICE 10

/* A chain the start-up check left for later: events 1..to of a table, to being its last checkpoint's event. */
struct startup_backlog_entry {
	char table_id[PB_ID_MAX];
	int64_t to;
};

/* What the start-up check did, and what it left for the background walk. */
struct startup_result {
	int tables;                               /* tables with events */
	int held;                                 /* put on hold */
	int64_t events;                           /* events checked */
	int64_t rounds;                           /* newest rounds whose derived rows were compared with their events */
	int64_t problems;                         /* problems found */
	struct startup_backlog_entry *backlog;    /* malloc'd; backlog_count entries */
	int backlog_count;
	int64_t backlog_events;                   /* the sum of their `to` */
};

void startup_result_free(struct startup_result *r);

/*
 * The check at start: for each table, the last checkpoint's signature, that
 * the signed event still has the signed hash, and the chain from it to the
 * head.  With startup_check "full" the chain before the checkpoint is walked
 * too: here when defer_full is false; when it is true it is left in
 * out->backlog for the background walk.  A table that fails is put on hold
 * and a significant event recorded (audit_hold_table, table/audit/audit.h).
 * Returns the number of tables put on hold, or -1 (out emptied) when the
 * store could not be read or a hold could not be recorded.
 */
int audit_startup_check(struct pit *p, bool defer_full, struct startup_result *out, struct pb_error *err);

enum startup_state { STARTUP_NONE = 0, STARTUP_RUNNING, STARTUP_DONE, STARTUP_FAILED, STARTUP_STOPPED };

/* A copy of the start-up check's progress. */
struct startup_progress {
	enum startup_state state;
	bool full;                      /* startup_check "full" (else "since_checkpoint") */
	bool background;                /* a background walk was started */
	int tables;                     /* tables with events */
	int tables_checked;             /* tables whose every part is checked */
	int tables_held;                /* put on hold by this check */
	int64_t events;                 /* events to check, both parts */
	int64_t events_checked;
	int64_t problems;
	char started_at[PB_TIME_LEN];
	char finished_at[PB_TIME_LEN];  /* "" while running */
	int64_t started_ms, finished_ms;
};

/*
 * The part before listening (audit_startup_check with the chains before the
 * checkpoints deferred when full): logged, and recorded as the progress.
 * Fills r (startup_result_free) with what is left for startup_walk_start.
 * Returns the number of tables put on hold, -1 when it could not run.
 */
int startup_check_before_listening(struct pit *p, struct startup_result *r);

struct startup_walk;

/* What the background walk works with; copied, so a reload cannot pull it away. */
struct startup_walk_options {
	const char *database;
	const char *synchronous;
	unsigned pause_ms;       /* between chunks; 0: just yield the processor */
	int chunk;               /* events per chunk; 0: STARTUP_WALK_CHUNK */
};

/*
 * Starts the background walk of r's backlog (taken from r: r->backlog is
 * NULL afterwards) on a thread of its own.  *out is NULL when there is
 * nothing to walk (the progress is then already done).  The walk logs its
 * start, every table that fails, and its end with counts and duration.
 */
int startup_walk_start(const struct startup_walk_options *o, struct startup_result *r, struct startup_walk **out,
    struct pb_error *err);

/*
 * Stops the walk between two chunks (a table being put on hold is finished
 * first), joins its thread and frees it.  NULL does nothing.
 */
void startup_walk_free(struct startup_walk *w);

/* Waits until the walk has ended by itself, at most timeout_ms; true when it has (tests). */
bool startup_walk_wait(struct startup_walk *w, int timeout_ms);

/* The progress so far. */
void startup_progress_get(struct startup_progress *out);

/* The progress as GET /api/v1/integrity shows it ("startup_check"); JSON null before any check. */
json_t *startup_progress_json(void);

/* Forgets the progress (tests that run several checks in one process). */
void startup_progress_reset(void);

/*
 * backup.c - copies of the database: POST /api/v1/backups (a copy made
 * while the daemon runs, into the configured backup directory, rotated),
 * and what goes beside a copy (the checkpoints' public key, and on request
 * a separate copy of the signing key), shared with `pitboss backup`.
 */

/*
 * Copies the database to <backup_dir>/pitboss-<UTC time>.db (the directory
 * made 0700 when missing), writes the signing key's public half beside it
 * (<copy>.public-key), records a "backup" significant event through the
 * write path of every write (table/core/core.h), then removes the oldest copies beyond
 * backup_keep; the admin role's.  *out is {"path", "at", "public_key",
 * "removed": [...]}; the answer's status is 201.  A copy that was made
 * stays made even when its event could not be recorded.
 */
int pit_backup(struct pit *p, const struct actor *a, json_t **out, struct pb_error *err);

/*
 * The public key a copy's checkpoints are verified against: the signer's
 * when given, else the key of the newest checkpoint in the database; ""
 * when there is neither.
 */
int backup_public_key(struct store *s, const struct signer *sg, char out[65], struct pb_error *err);

/* Writes hex and a newline to <copy_path>.public-key (0644, never replacing a file), fsynced. */
int backup_write_public_key(const char *copy_path, const char *hex, struct pb_error *err);

/* Copies the signing key file key_file to `to`, created 0600 (never replacing a file), fsynced. */
int backup_copy_key(const char *key_file, const char *to, struct pb_error *err);

/*
 * Removes the oldest pitboss-*.db copies in dir (and their .public-key)
 * beyond the newest keep; keep 0 removes nothing.  The names removed are
 * appended to removed when it is not NULL.
 */
int backup_rotate(const char *dir, int64_t keep, json_t *removed, struct pb_error *err);

/*
 * backup_schedule.c - pitbossd's own backups, every backup_every_seconds:
 * a thread of its own with its own read-only connection, so that a copy
 * (about 1 s per 600 MB) never holds a request worker or the main loop; the
 * copy, its public key, its "backup" significant event and the rotation are
 * those of POST /api/v1/backups (backup.c, above).
 */

/* What the schedule works with, copied at start (a reload does not change it). */
struct backup_schedule_options {
	const char *database;            /* the live database, opened read-only */
	const char *backup_dir;          /* where the copies go */
	int64_t keep;                    /* copies kept in backup_dir (0: all) */
	unsigned every_seconds;          /* the interval; the first copy one interval after start */
	const struct signer *signer;     /* the public key written beside each copy */
	struct store_writer *writer;     /* the events are recorded through it */
};

struct backup_schedule;

/* Starts the thread; *out NULL when every_seconds is 0 (no schedule). */
int backup_schedule_start(const struct backup_schedule_options *o, struct backup_schedule **out, struct pb_error *err);

/* Stops the schedule (a copy under way is finished first), joins the thread and frees it; NULL does nothing. */
void backup_schedule_free(struct backup_schedule *b);

/*
 * Shipping: what http/ may ask of the central tier (daemon/central/,
 * docs/central.md) without knowing it: what /metrics shows of the shipper,
 * and the cross-property summary of a central read mode.  main.c hands app
 * the functions; central/ implements them.
 */

struct shipping_status {
	bool configured;                 /* "central" is in the configuration */
	bool connected;                  /* the last attempt reached the central server, and no statement is past its deadline */
	int64_t shipped_events;          /* the position: the last event id PostgreSQL acknowledged */
	int64_t shipped_checkpoints;     /* the same for checkpoints */
	int64_t lag_events;              /* events recorded and not yet acknowledged (read when asked, from the record) */
	double lag_seconds;              /* the age of the oldest of them (0 when none) */
	double statement_seconds;        /* how long the statement under way has waited on the server (0: none) */
	double stalled_seconds;          /* events to send and no answer from the server for this long, past the
	                                    deadline (0: not stalled; read with the lag) */
	int deadline_ms;                 /* the shipper's deadline per connection and statement */
	int64_t failures;                /* failed attempts since start */
	char last_error[256];            /* the last failure ("" none since the last success) */
	bool role_sees_others;           /* its central role escapes row-level security (docs/central.md, "Roles") */
	int64_t conflicts;               /* fact rows found centrally that are not this property's own, since start */
	char last_conflict[200];         /* the last of them, a sentence ("" none) */
};

/*
 * Fills out; arg is the function's own (main.c).  reader is the caller's own
 * connection to the record, from which the lag is read (NULL: the lag is
 * left 0); it never waits on the network.
 */
typedef void shipping_status_fn(void *arg, struct store *reader, struct shipping_status *out);

/* A cross-property summary (central/report.c; `pitboss central report`, GET /api/v1/central/summary). */
struct central_report_options {
	const char *conninfo;
	const char *property;            /* NULL: every property; or a comma-separated list */
	const char *group;               /* property, table, day, shift, dealer */
	const char *from, *to;           /* as the summary takes them (gaming days in each property's zone), or NULL */
	int64_t now_ms;                  /* the default range's "today" (0: now) */
};

/* The summary across properties as JSON (new reference in *out); conninfo is the function's own. */
typedef int central_report_fn(void *arg, const struct central_report_options *o, json_t **out, struct pb_error *err);

#endif
