/*
 * writer.h - the process's write connection and its group commit.
 *
 * Every write of the HTTP API runs as a job on one shared connection.  Jobs
 * that arrive while another job runs or a COMMIT is being flushed wait in a
 * queue; the first of them then becomes the leader: it opens one
 * transaction (store_begin: the process's write turn, BEGIN IMMEDIATE),
 * runs every queued job in it, each in a savepoint of its own, and commits
 * them all with one COMMIT, that is one fsync with synchronous=FULL.
 *
 * What each job is promised:
 *  - a job that fails is undone alone (ROLLBACK TO its savepoint); the
 *    others of its group are not touched;
 *  - store_writer_run returns only after the COMMIT of the group holding
 *    the job has returned: 0 means the job's changes are durable;
 *  - when that COMMIT fails (or SQLite drops the transaction), every job of
 *    the group fails with the storage error, whatever it answered, since
 *    its answer may rest on another job's changes that are now gone;
 *  - jobs run in arrival order, one at a time, possibly on another thread
 *    than the caller's (the leader's): a job must use only the store it is
 *    given and what its argument points to, and must not begin or end
 *    transactions itself.
 * Readers keep their own connections and see a group's changes when it has
 * committed, never before.
 */
#ifndef PB_STORE_WRITER_H
#define PB_STORE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "store/store.h"

struct store_writer;

/* One job: its writes go through s, inside the group's transaction. */
typedef int (*store_job_fn)(struct store *s, void *arg, struct pb_error *err);

/* Jobs in one group at most (a bound on one COMMIT's size and on a leader's wait). */
#define STORE_WRITER_GROUP_MAX 64

/* Opens the shared write connection (store_open with opt; migrations applied already or now). */
struct store_writer *store_writer_open(const struct store_options *opt, struct pb_error *err);

/* Closes it.  No job may be running or queued. */
void store_writer_free(struct store_writer *w);

/*
 * Runs fn(store, arg, err) as one job of a group and waits for the group's
 * COMMIT.  0: fn succeeded and its changes are committed.  -1: err says why
 * (fn's own refusal, or the group's storage error); nothing of the job is
 * recorded.
 */
int store_writer_run(struct store_writer *w, store_job_fn fn, void *arg, struct pb_error *err);

/* Counters for /metrics and tests, since the writer was opened. */
struct store_writer_stats {
	uint64_t groups;           /* transactions committed or rolled back */
	uint64_t jobs;             /* jobs run */
	uint64_t jobs_failed;      /* jobs answered -1 (their own refusal or their group's failure) */
	uint64_t groups_failed;    /* groups whose COMMIT failed or whose transaction was lost */
	uint64_t largest_group;    /* most jobs in one group */
	int queued;                /* jobs waiting now (not yet taken by a leader) */
	uint64_t faults;           /* groups that failed to write (lost, failed COMMIT, a job's storage_error) */
	bool faulted;              /* the last such failure is not yet followed by a committed change */
};

void store_writer_stats(struct store_writer *w, struct store_writer_stats *out);

/*
 * Whether writes are failing: true from a group that failed to write (its
 * transaction lost, its COMMIT failed, or a job failed with storage_error: disk
 * full, I/O error, read-only file) until a group commits a change again;
 * then why gets the last failure's message and *since_ms when the fault
 * began (pb_time_now_ms).  Faults are logged by the writer (rate-limited).
 */
bool store_writer_fault(struct store_writer *w, char *why, size_t whysz, int64_t *since_ms);

/* The shared connection, for tests; never for use outside a job. */
struct store *store_writer_store(struct store_writer *w);

#endif
