/*
 * startup.h - pitbossd's integrity check at start, in two parts.  Before it
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
#ifndef PB_TABLE_STARTUP_H
#define PB_TABLE_STARTUP_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "table/core/pit.h"

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
 * and a significant event recorded (audit_hold_table, table/hold.h).
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

#endif
