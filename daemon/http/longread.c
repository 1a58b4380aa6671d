/*
 * longread.c - the reader pool for long reads (longread.h).
 */
#include "http/longread.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/log.h"
#include "common/priority.h"
#include "http/answer.h"
#include "http/routes.h"

const struct longread_kind LONGREAD_READERS = {
	.name = "long reads", .threads = 2, .queue_max = 8, .retry_after_s = 5, .nice = 5,
	.busy_message = "%d long reads run and %d wait already (integrity checks, large reports); retry in %d seconds",
};

const struct longread_kind LONGREAD_PASSWORDS = {
	.name = "password checks", .threads = 1, .queue_max = 16, .retry_after_s = 2, .nice = 10, .per_client_max = 2,
	.busy_message = "%d password check runs and %d wait already (sign-ins, witnesses, password changes); "
	    "retry in %d seconds",
};

const struct longread_kind LONGREAD_REPORTS = {
	.name = "reports", .threads = 2, .queue_max = 32, .retry_after_s = 2, .nice = 5,
	.busy_message = "%d reports run and %d wait already (reports, verifications, events); retry in %d seconds",
};

#define LONGREAD_CLIENTS 32             /* addresses with jobs at once (queue_max and threads at most) */

struct longread_job {
	struct http_request req;           /* the worker's, with on_reader set */
	struct http_answer ans;            /* filled by the reader */
	char disposition[256];             /* ans.disposition copied: the reader's own buffer is reused */
	atomic_bool done;                  /* ans is ready; set before the connection is resumed */
	char client[46];                   /* counted in the pool's share of its address ("": not) */
	struct longread_job *next;
};

/*
 * One reader and its queue.  A connection's long reads always go to the
 * same reader (by the connection's address), as they went to the same
 * worker before: the report cache is per thread, and a report asked again
 * on one keep-alive connection is answered from it.
 */
struct reader {
	struct longread_pool *pool;
	pthread_cond_t cond;               /* a job queued here, or stop */
	struct longread_job *head, *tail;  /* waiting for this reader */
	pthread_t thread;
};

struct longread_pool {
	struct app *app;
	pthread_mutex_t lock;
	const struct longread_kind *kind;
	struct reader readers[LONGREAD_THREADS_MAX];
	int waiting, running;              /* over all readers */
	bool stop;
	unsigned long long refused;
	int started;
	struct {                           /* the jobs of each client address, running or waiting */
		char addr[46];
		int jobs;
	} clients[LONGREAD_CLIENTS];
};

/* Runs one request as the worker would have, under the configuration's read lock. */
static void
run_job(struct longread_pool *pool, struct longread_job *job)
{
	memset(&job->ans, 0, sizeof(job->ans));
	pthread_rwlock_rdlock(&pool->app->lock);
	api_dispatch(pool->app, &job->req, &job->ans);
	pthread_rwlock_unlock(&pool->app->lock);
	if (job->ans.disposition != NULL) {
		snprintf(job->disposition, sizeof(job->disposition), "%s", job->ans.disposition);
		job->ans.disposition = job->disposition;
	}
}

/*
 * The pool's count of client's jobs moved by delta (+1 taking one: false when
 * the address has per_client_max already, or no entry is free; -1 its end).
 * Call with pool->lock held.
 */
static bool
client_jobs(struct longread_pool *pool, const char *client, int delta)
{
	int free_slot = -1;

	if (client == NULL || client[0] == '\0' || pool->kind->per_client_max == 0)
		return true;
	for (int i = 0; i < LONGREAD_CLIENTS; i++) {
		if (pool->clients[i].jobs > 0 && strcmp(pool->clients[i].addr, client) == 0) {
			if (delta > 0 && pool->clients[i].jobs >= pool->kind->per_client_max)
				return false;
			pool->clients[i].jobs += delta;
			return true;
		}
		if (pool->clients[i].jobs == 0 && free_slot < 0)
			free_slot = i;
	}
	if (delta < 0 || free_slot < 0)
		return delta < 0;
	snprintf(pool->clients[free_slot].addr, sizeof(pool->clients[free_slot].addr), "%s", client);
	pool->clients[free_slot].jobs = 1;
	return true;
}

/* Marks the job answered and gives its connection back to its worker; the job is the worker's from here. */
static void
finish(struct longread_pool *pool, struct longread_job *job)
{
	struct MHD_Connection *conn = job->req.conn;

	pthread_mutex_lock(&pool->lock);
	client_jobs(pool, job->client, -1);
	pthread_mutex_unlock(&pool->lock);
	atomic_store(&job->done, true);
	MHD_resume_connection(conn);
}

static void *
reader_main(void *arg)
{
	struct reader *r = arg;
	struct longread_pool *pool = r->pool;

	if (pb_lower_thread_priority(pool->kind->nice) < 0)
		log_warn("%s: cannot lower the pool's priority; it runs at the daemon's", pool->kind->name);
	pthread_mutex_lock(&pool->lock);
	for (;;) {
		struct longread_job *job;

		while (r->head == NULL && !pool->stop)
			pthread_cond_wait(&r->cond, &pool->lock);
		if (r->head == NULL)
			break;
		job = r->head;
		r->head = job->next;
		if (r->head == NULL)
			r->tail = NULL;
		pool->waiting--;
		pool->running++;
		pthread_mutex_unlock(&pool->lock);
		run_job(pool, job);
		finish(pool, job);
		pthread_mutex_lock(&pool->lock);
		pool->running--;
	}
	pthread_mutex_unlock(&pool->lock);
	return NULL;
}

struct longread_pool *
longread_start(struct app *app, const struct longread_kind *kind, struct pb_error *err)
{
	struct longread_pool *pool = calloc(1, sizeof(*pool));

	if (pool == NULL) {
		pb_oom(err);
		return NULL;
	}
	pool->app = app;
	pool->kind = kind;
	if (pthread_mutex_init(&pool->lock, NULL) != 0) {
		free(pool);
		pb_fail(err, 500, "internal_error", "cannot create the long reads' locks");
		return NULL;
	}
	for (int i = 0; i < kind->threads && i < LONGREAD_THREADS_MAX; i++) {
		pool->readers[i].pool = pool;
		if (pthread_cond_init(&pool->readers[i].cond, NULL) != 0 ||
		    pthread_create(&pool->readers[i].thread, NULL, reader_main, &pool->readers[i]) != 0) {
			longread_stop(pool);
			pb_fail(err, 500, "internal_error", "cannot start the threads of the %s", kind->name);
			return NULL;
		}
		pool->started++;
	}
	return pool;
}

void
longread_stop(struct longread_pool *pool)
{
	struct longread_job *waiting[LONGREAD_THREADS_MAX] = {0};

	if (pool == NULL)
		return;
	pthread_mutex_lock(&pool->lock);
	pool->stop = true;
	for (int i = 0; i < pool->started; i++) {
		waiting[i] = pool->readers[i].head;
		pool->readers[i].head = pool->readers[i].tail = NULL;
		pthread_cond_broadcast(&pool->readers[i].cond);
	}
	pool->waiting = 0;
	pthread_mutex_unlock(&pool->lock);
	for (int i = 0; i < pool->started; i++) {
		for (struct longread_job *job = waiting[i], *next; job != NULL; job = next) {
			next = job->next;
			memset(&job->ans, 0, sizeof(job->ans));
			answer_fail(&job->ans, 503, "shutting_down", "pitbossd is stopping; retry shortly");
			finish(pool, job);
		}
	}
	for (int i = 0; i < pool->started; i++)
		pthread_join(pool->readers[i].thread, NULL);
	for (int i = 0; i < pool->started; i++)
		pthread_cond_destroy(&pool->readers[i].cond);
	pthread_mutex_destroy(&pool->lock);
	free(pool);
}

int
longread_submit(struct longread_pool *pool, const struct http_request *req, const char *client,
    struct longread_job **out, struct http_answer *ans)
{
	struct longread_job *job = calloc(1, sizeof(*job));
	bool busy, stopping, crowded = false;

	if (job == NULL) {
		answer_fail(ans, 500, "out_of_memory", "out of memory");
		return -1;
	}
	job->req = *req;
	job->req.on_reader = true;
	snprintf(job->client, sizeof(job->client), "%s", client ? client : "");
	pthread_mutex_lock(&pool->lock);
	stopping = pool->stop;
	busy = pool->waiting >= pool->kind->queue_max;
	if (!stopping && !busy && !client_jobs(pool, job->client, +1))
		busy = crowded = true;
	if (!stopping && !busy) {
		struct reader *r = &pool->readers[((uintptr_t)req->conn / 64) % (uintptr_t)pool->started];

		/* Suspended before a reader can see it: the reader's resume always follows this suspend. */
		MHD_suspend_connection(req->conn);
		if (r->tail != NULL)
			r->tail->next = job;
		else
			r->head = job;
		r->tail = job;
		pool->waiting++;
		pthread_cond_signal(&r->cond);
		pthread_mutex_unlock(&pool->lock);
		*out = job;
		return 0;
	}
	if (busy && !stopping)
		pool->refused++;
	pthread_mutex_unlock(&pool->lock);
	free(job);
	if (stopping) {
		answer_fail(ans, 503, "shutting_down", "pitbossd is stopping; retry shortly");
		return -1;
	}
	if (crowded) {
		answer_fail(ans, 503, "busy", "%d %s from %s run or wait already; retry in %d seconds",
		    pool->kind->per_client_max, pool->kind->name, client, pool->kind->retry_after_s);
		ans->retry_after = pool->kind->retry_after_s;
		record_refusal(pool->app, ans);
		return -1;
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	answer_fail(ans, 503, "busy", pool->kind->busy_message, pool->kind->threads, pool->kind->queue_max,
	    pool->kind->retry_after_s);
#pragma GCC diagnostic pop
	ans->retry_after = pool->kind->retry_after_s;
	record_refusal(pool->app, ans);
	return -1;
}

bool
longread_take(struct longread_job *job, struct http_answer *ans)
{
	if (!atomic_load(&job->done))
		return false;
	*ans = job->ans;
	memset(&job->ans, 0, sizeof(job->ans));
	return true;
}

void
longread_job_free(struct longread_job *job)
{
	if (job == NULL)
		return;
	json_decref(job->ans.json);
	free(job->ans.text);
	free(job);
}

void
longread_stats(struct longread_pool *pool, int *running, int *waiting, unsigned long long *refused)
{
	pthread_mutex_lock(&pool->lock);
	*running = pool->running;
	*waiting = pool->waiting;
	*refused = pool->refused;
	pthread_mutex_unlock(&pool->lock);
}
