/*
 * central_int.h - the central layer's own header: libpq, the connection
 * helpers (pg.c) and the batch sent by the shipper (push.c).
 */
#ifndef PB_CENTRAL_INT_H
#define PB_CENTRAL_INT_H

#include <stdatomic.h>

#include <libpq-fe.h>

#include "central/central.h"
#include "store/audit.h"

/* Connects within 5 s, statements without a deadline (the commands); NULL with err filled. */
PGconn *central_connect(const char *conninfo, struct pb_error *err);

/*
 * Connects within deadline_ms (0: 5 s), and gives every statement on the
 * connection the same deadline (0: none), the server's statement_timeout
 * too.  A statement past it fails (503 central_unavailable) and leaves the
 * connection broken: each later statement fails at once; PQfinish it.
 * running_since (may be NULL) holds the start, in central_monotonic_ms, of
 * the statement under way, 0 when none: for a reader that must not wait.
 */
PGconn *central_connect_within(const char *conninfo, int deadline_ms, _Atomic int64_t *running_since,
    struct pb_error *err);

/* Milliseconds of CLOCK_MONOTONIC (never 0 once the machine is up): the clock of the deadlines. */
int64_t central_monotonic_ms(void);

/*
 * Runs sql with its text parameters bound (PQsendQueryParams, within the
 * connection's deadline; NULL params are SQL NULL) and checks the result: PGRES_COMMAND_OK or PGRES_TUPLES_OK.  The
 * result into *res when res is not NULL (PQclear it), else cleared.
 */
int central_exec(PGconn *c, const char *sql, int n, const char *const *params, PGresult **res, struct pb_error *err);

/* ROLLBACK when a transaction is open, ignoring its outcome (the connection may be gone). */
void central_rollback(PGconn *c);

/* Registers the property and makes sure its partition exists (pitboss.ensure_property). */
int central_ensure_property(PGconn *c, const char *property, struct pb_error *err);

/*
 * Sends events in one transaction (INSERT ... ON CONFLICT DO NOTHING): 0
 * only after COMMIT returned.  An event the central copy already holds with
 * another hash is refused (409 central_conflict) and nothing is committed.
 */
int central_push_events(PGconn *c, const char *property, const struct event_list *l, struct pb_error *err);

/* The same for checkpoints. */
int central_push_checkpoints(PGconn *c, const char *property, const struct checkpoint *cps, int count,
    struct pb_error *err);

/*
 * A fact row the central server holds that is not the property's own: its
 * round, table and finishing event there, and the round of the batch it
 * collided with (the same round with other content, or another round at
 * the same finishing event).
 */
struct fact_conflict {
	int64_t round_id;
	int64_t final_event;
	int64_t own_round_id;
	char table_id[PB_ID_MAX];
};

/*
 * Sends the report facts of finished rounds (round_ids, finished by the
 * events event_ids, in that order) with their games' rules, in one
 * transaction (facts.c).  Facts already there are left as they are; those
 * there with other content (or another round at one of their finishing
 * events) are answered in conflicts (at most max, *nconflicts how many),
 * and the rest of the batch is committed.
 */
int central_push_facts(PGconn *c, struct store *s, const char *property, const int64_t *event_ids,
    const int64_t *round_ids, int count, struct fact_conflict *conflicts, int max_conflicts, int *nconflicts,
    struct pb_error *err);

/*
 * The finishing event of the property's last own fact the central server
 * holds (0: none), read from the newest down (conflict.c): a fact is its
 * own when its round was finished here (st) by that event.  The newer rows
 * passed over are not its own: into rejected (at most max, *nrejected how
 * many).
 */
int central_facts_position(PGconn *c, struct store *st, const char *property, int64_t *last_event,
    struct fact_conflict *rejected, int max, int *nrejected, struct pb_error *err);

/* A table's last table_seq in the central copy (0: none there). */
int central_chain_end(PGconn *c, const char *property, const char *table_id, int64_t *seq, struct pb_error *err);

/* The property's last checkpoint (its local id) in the central copy (0: none). */
int central_checkpoints_position(PGconn *c, const char *property, int64_t *local_id, struct pb_error *err);

/* Whether the connection's role escapes row-level security and can read other properties' rows (grant.c). */
int central_role_sees_others(PGconn *c, bool *sees_others, struct pb_error *err);

/* ---- the shipper's report of conflicts (ship_conflict.c) ---- */

#define CONFLICT_LOG_MAX 256

/* The conflicting rows reported so far (the first CONFLICT_LOG_MAX are remembered). */
struct conflict_log {
	int64_t round_id[CONFLICT_LOG_MAX], final_event[CONFLICT_LOG_MAX];
	int count;
};

struct store_writer;

/*
 * Reports each of the n conflicts not reported before: a log line and the
 * significant event "central_conflict" (through w); *fresh how many were
 * new, the last one's sentence into last.  A failure to record is logged.
 */
void central_conflicts_record(struct conflict_log *log, struct store_writer *w, const char *property,
    const struct fact_conflict *c, int n, int *fresh, char *last, size_t lastsz);

/* ---- central verify's check of the report facts (verify_facts.c) ---- */

/* A problem found: the property, table and event seq it is at, and what. */
typedef void (*facts_problem_fn)(void *arg, const char *property, const char *table_id, const char *seq, const char *what);

struct facts_walk;

/* A walk over the central events (in property, table, seq order) that checks each finished round's facts. */
struct facts_walk *facts_walk_new(PGconn *c, struct pb_error *err);

/*
 * The next event of the walk: a finished round is rebuilt from its events
 * and its report row compared with its table's next fact (problems through
 * problem).  -1 only when the check cannot go on (the server).
 */
int facts_walk_event(struct facts_walk *w, const char *property, const struct stored_event *e, facts_problem_fn problem,
    void *arg, struct pb_error *err);

/* The rounds whose facts were compared. */
int64_t facts_walk_rounds(const struct facts_walk *w);

/* Closes its cursor and frees it (NULL does nothing). */
int facts_walk_free(struct facts_walk *w, struct pb_error *err);

/* ---- array literals (pgarray.c) ---- */

/* A PostgreSQL array literal being built; zero it to start. */
struct pg_array {
	char *text;
	size_t len, cap;
	int count;
	bool failed;                     /* out of memory: pg_array_end says NULL */
};

/* Appends an element: text (NULL for SQL NULL), or an integer. */
void pg_array_text(struct pg_array *a, const char *value);
void pg_array_int64(struct pg_array *a, int64_t value);

/* Closes the literal: its text (owned by a), or NULL when memory ran out. */
const char *pg_array_end(struct pg_array *a);

void pg_array_free(struct pg_array *a);

/* ---- restore (restore.c, restore_rounds.c) ---- */

/*
 * A copied event e dispatched by its row of the registry (table/core/event_types.h):
 * a table's or the players' event applied to the derived rows now by its
 * row's apply (nothing for EVENT_NO_ROWS); a round's step
 * (EVENT_WITH_ROUND) left to its round: *round_id gets the round, whose rows
 * restore_round writes once all its events are in (*round_id 0 otherwise).
 * A type the registry lacks, one in a chain it does not belong to, and a
 * body its apply cannot read are refused: 422 central_unreadable naming the
 * table, the event and the type.
 */
int restore_event(struct store *s, const struct stored_event *e, int64_t *round_id, struct pb_error *err);

/* One round's rows rebuilt from its events, already in the database, by the replay. */
int restore_round(struct store *s, int64_t round_id, struct pb_error *err);

#endif
