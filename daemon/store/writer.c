/*
 * writer.c - group commit on the process's write connection (writer.h).
 *
 * Leader and followers: a caller queues its job under the writer's lock;
 * if no leader is at work it becomes one, else it sleeps on its job's
 * condition.  The leader takes the queue, runs the jobs (lock released),
 * takes what arrived meanwhile, and so on until the queue is empty or the
 * group is full; then it commits, marks the group's jobs done and wakes
 * them, and wakes the first job still queued so that its caller leads the
 * next group.  While a leader flushes a COMMIT the next group gathers.
 */
#include "store/writer.h"
#include "store/checkpointer.h"
#include "store/store_int.h"

#include "common/log.h"
#include "common/priority.h"
#include "common/timeutil.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct writer_job {
	store_job_fn fn;
	void *arg;
	int rc;
	struct pb_error err;
	bool done;
	pthread_cond_t cond;
	struct writer_job *next;
};

struct store_writer {
	struct store *store;
	pthread_mutex_t lock;
	bool leading;                      /* a leader is at work */
	struct writer_job *head, *tail;    /* queued, not yet taken */
	int queued;
	struct store_writer_stats stats;   /* under lock */
	/* The last storage failure, until a group that changed something commits (under lock). */
	bool faulted;
	char fault[PB_ERROR_MESSAGE_MAX];
	int64_t fault_since_ms;
	uint64_t fault_failures;           /* failed groups since the fault began */
	uint64_t fault_unlogged;           /* of them, not yet in the log */
	int64_t fault_logged_ms;           /* the last fault line (rate limit) */
	struct store_checkpointer *checkpointer;   /* the WAL checkpoints, off the commits (NULL: SQLite's own) */
	int leader_nice;                   /* a leader runs at this nice value at most (the opener's) */
};

/* A fault's log line is repeated once a minute at most, with the count of failures in between. */
#define WRITER_FAULT_LOG_MS 60000

struct store_writer *
store_writer_open(const struct store_options *opt, struct pb_error *err)
{
	struct store_writer *w = calloc(1, sizeof(*w));

	if (w == NULL) {
		pb_oom(err);
		return NULL;
	}
	if (pthread_mutex_init(&w->lock, NULL) != 0) {
		free(w);
		pb_fail(err, 500, "internal_error", "cannot create the writer's lock");
		return NULL;
	}
	w->leader_nice = pb_thread_nice();
	w->store = store_open(opt, err);
	if (w->store == NULL) {
		pthread_mutex_destroy(&w->lock);
		free(w);
		return NULL;
	}
	/*
	 * A savepoint keeps the pages its job changes in a statement journal,
	 * spilled to a temporary file past 64 KiB unless temporary storage is
	 * memory; a whole round changes about that much.
	 */
	if (sqlite3_exec(store_db(w->store), store_sql_text(STMT_TEMP_STORE_MEMORY), NULL, NULL, NULL) != SQLITE_OK) {
		store_fail(w->store, err, "PRAGMA temp_store");
		store_writer_free(w);
		return NULL;
	}
	/* A file's WAL is checkpointed by a thread of its own, not inside a round's COMMIT (checkpointer.h). */
	if (opt->path != NULL && opt->path[0] != '\0' && opt->path[0] != ':') {
		struct pb_error cerr;
		w->checkpointer = store_checkpointer_start(store_db(w->store), opt->path, &cerr);
		if (w->checkpointer == NULL)
			log_warn("%s; each commit past %d WAL pages checkpoints itself", cerr.message, CHECKPOINTER_PAGES);
	}
	return w;
}

void
store_writer_free(struct store_writer *w)
{
	if (w == NULL)
		return;
	store_checkpointer_stop(w->checkpointer);
	store_free(w->store);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

struct store *
store_writer_store(struct store_writer *w)
{
	return w->store;
}

void
store_writer_stats(struct store_writer *w, struct store_writer_stats *out)
{
	pthread_mutex_lock(&w->lock);
	*out = w->stats;
	out->queued = w->queued;
	out->faulted = w->faulted;
	pthread_mutex_unlock(&w->lock);
}

bool
store_writer_fault(struct store_writer *w, char *why, size_t whysz, int64_t *since_ms)
{
	bool faulted;

	pthread_mutex_lock(&w->lock);
	faulted = w->faulted;
	if (faulted) {
		snprintf(why, whysz, "%s", w->fault);
		*since_ms = w->fault_since_ms;
	}
	pthread_mutex_unlock(&w->lock);
	return faulted;
}

/* Detaches up to max jobs from the head of the queue (lock held); their count in *n. */
static struct writer_job *
take_queued(struct store_writer *w, int max, int *n)
{
	struct writer_job *first = w->head, *last = NULL, *j = w->head;

	*n = 0;
	while (j != NULL && *n < max) {
		last = j;
		j = j->next;
		(*n)++;
	}
	if (last == NULL)
		return NULL;
	w->head = j;
	if (j == NULL)
		w->tail = NULL;
	last->next = NULL;
	w->queued -= *n;
	return first;
}

/*
 * Runs one job in a savepoint of the open transaction.  Returns -1 only
 * when the transaction is lost (the group must roll back); the job's own
 * result is in job->rc.
 */
static int
run_in_savepoint(struct store *s, struct writer_job *job)
{
	struct pb_error e;

	if (store_savepoint_begin(s, &job->err) < 0) {
		job->rc = -1;
		return sqlite3_get_autocommit(store_db(s)) ? -1 : 0;
	}
	job->rc = job->fn(s, job->arg, &job->err);
	if (job->rc == 0 && store_savepoint_release(s, &job->err) == 0)
		return 0;
	job->rc = -1;
	if (store_savepoint_rollback(s, &e) < 0) {
		/* The transaction is gone: the job's own error stays its answer, the group fails. */
		return -1;
	}
	return 0;
}

/* Sets every job of the list to the group's failure. */
static void
fail_group(struct writer_job *group, const struct pb_error *why)
{
	for (struct writer_job *j = group; j != NULL; j = j->next) {
		j->rc = -1;
		pb_fail(&j->err, 500, "storage_error",
		    "nothing was recorded: the transaction this write was committed in failed (%s); retry the request",
		    why->message);
	}
}

/*
 * Runs one job of the group.  The first job of a transaction needs no
 * savepoint (a savepoint costs a statement journal of every page it
 * touches): when it fails, the transaction holds nothing else and is rolled
 * back whole.  *open says whether a transaction is open, *kept how many jobs
 * it holds.  Returns -1 when the transaction is lost with jobs in it.
 */
static int
run_job(struct store_writer *w, struct writer_job *job, bool *open, int *kept)
{
	if (!*open) {
		if (store_begin(w->store, &job->err) < 0) {
			job->rc = -1;
			return 0;
		}
		*open = true;
		*kept = 0;
	}
	if (*kept > 0) {
		if (run_in_savepoint(w->store, job) < 0)
			return -1;
	} else {
		job->rc = job->fn(w->store, job->arg, &job->err);
		if (job->rc < 0) {
			store_rollback(w->store);
			*open = false;
			return 0;
		}
	}
	if (job->rc == 0)
		(*kept)++;
	return 0;
}

/* The first storage failure among the jobs of a group that was not lost, or NULL. */
static const char *
job_storage_failure(const struct writer_job *group)
{
	for (const struct writer_job *j = group; j != NULL; j = j->next)
		if (j->rc < 0 && strcmp(j->err.code, "storage_error") == 0)
			return j->err.message;
	return NULL;
}

/*
 * Keeps the writer's fault state (lock held) after a group: a lost group,
 * a failed COMMIT or a job failing with a 500 (a write that could not be
 * made: disk full, I/O error, a read-only file: storage_error) starts or continues a
 * fault; a group that committed a change ends it.  A group that changed
 * nothing (the /ready probe) proves nothing: an empty COMMIT writes nothing.
 * The log gets the first failure at once, then a line a minute at most
 * while failures go on, and a line when writes succeed again.
 */
static void
note_outcome(struct store_writer *w, const struct writer_job *group, bool lost, const char *lost_why, bool committed_change)
{
	const char *why = lost ? lost_why : job_storage_failure(group);
	int64_t now = pb_time_now_ms();

	if (why != NULL) {
		if (!w->faulted) {
			w->faulted = true;
			w->fault_since_ms = now;
			w->fault_failures = 0;
			w->fault_logged_ms = now - WRITER_FAULT_LOG_MS;
		}
		snprintf(w->fault, sizeof(w->fault), "%s", why);
		w->fault_failures++;
		w->fault_unlogged++;
		w->stats.faults++;
		if (now - w->fault_logged_ms >= WRITER_FAULT_LOG_MS) {
			log_error("writes are failing (%llu failed write group(s) since the last line): %s; "
			    "GET /api/v1/ready answers 503 until a write succeeds", (unsigned long long)w->fault_unlogged, w->fault);
			w->fault_unlogged = 0;
			w->fault_logged_ms = now;
		}
	} else if (committed_change && w->faulted) {
		w->faulted = false;
		log_info("writes succeed again after %llu failed write group(s) in %.1f s (the last failure: %s)",
		    (unsigned long long)w->fault_failures, (double)(now - w->fault_since_ms) / 1000.0, w->fault);
		w->fault_unlogged = 0;
	}
}

/*
 * Leads one group (lock held on entry and on return): the queued jobs, in
 * one transaction, each after the first in its savepoint, then COMMIT;
 * then marks them done and wakes them.
 */
static void
lead(struct store_writer *w)
{
	struct writer_job *group = NULL, *tail = NULL, *batch, *from = NULL;
	struct pb_error why;
	bool lost = false, open = false;
	int n, count = 0, kept = 0;
	int64_t changes = sqlite3_total_changes64(store_db(w->store));
	/*
	 * A pool's thread (a wrong password counted at nice 10, a report's roll-up at 5) may lead a group
	 * that holds a dealer's round: it leads at the opener's priority at most, or the round waits
	 * for the CPU the low priority gets on a busy machine (where permitted: root, RLIMIT_NICE).
	 */
	int own_nice = pb_thread_nice();
	bool raised = own_nice > w->leader_nice && pb_set_thread_nice(w->leader_nice) == 0;

	while (!lost && count < STORE_WRITER_GROUP_MAX && (batch = take_queued(w, STORE_WRITER_GROUP_MAX - count, &n)) != NULL) {
		pthread_mutex_unlock(&w->lock);
		if (tail != NULL)
			tail->next = batch;
		else
			group = batch;
		for (struct writer_job *j = batch; j != NULL; j = j->next) {
			tail = j;
			if (!open)
				from = j;   /* the jobs of the transaction about to open */
			if (!lost && run_job(w, j, &open, &kept) < 0) {
				lost = true;
				why = j->err;
			}
		}
		count += n;
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	if (lost) {
		store_rollback(w->store);
		fail_group(from, &why);
	} else if (open && store_commit(w->store, &why) < 0) {
		fail_group(from, &why);
		lost = true;
	}
	pthread_mutex_lock(&w->lock);
	note_outcome(w, group, lost, lost ? why.message : NULL, !lost && open && sqlite3_total_changes64(store_db(w->store)) > changes);
	w->stats.groups++;
	w->stats.jobs += (uint64_t)count;
	if (lost)
		w->stats.groups_failed++;
	if ((uint64_t)count > w->stats.largest_group)
		w->stats.largest_group = (uint64_t)count;
	for (struct writer_job *j = group, *next; j != NULL; j = next) {
		next = j->next;     /* j belongs to its caller once done is set */
		if (j->rc < 0)
			w->stats.jobs_failed++;
		j->done = true;
		pthread_cond_signal(&j->cond);
	}
	if (raised)
		pb_set_thread_nice(own_nice);
}

int
store_writer_run(struct store_writer *w, store_job_fn fn, void *arg, struct pb_error *err)
{
	struct writer_job job;

	memset(&job, 0, sizeof(job));
	job.fn = fn;
	job.arg = arg;
	if (pthread_cond_init(&job.cond, NULL) != 0)
		return pb_fail(err, 500, "internal_error", "cannot create a condition variable");
	pthread_mutex_lock(&w->lock);
	if (w->tail != NULL)
		w->tail->next = &job;
	else
		w->head = &job;
	w->tail = &job;
	w->queued++;
	while (!job.done) {
		if (!w->leading) {
			w->leading = true;
			lead(w);
			w->leading = false;
			/* The first job still queued leads the next group. */
			if (w->head != NULL)
				pthread_cond_signal(&w->head->cond);
		} else {
			pthread_cond_wait(&job.cond, &w->lock);
		}
	}
	pthread_mutex_unlock(&w->lock);
	pthread_cond_destroy(&job.cond);
	if (job.rc < 0 && err != NULL)
		*err = job.err;
	return job.rc;
}
