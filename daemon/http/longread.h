/*
 * longread.h - long reads off the writers' path: a small pool of reader
 * threads for the routes marked RT_LONG (GET /integrity, the payouts and
 * exceptions reports), with their own database connections.
 *
 * libmicrohttpd's thread pool gives each connection to one worker thread;
 * a write arriving on the worker busy with a walk of the whole chain would
 * wait for the walk.  So such a request, once authenticated and authorized
 * on its worker (routes.c sets http_answer.deferred instead of running the
 * handler), is handed over here: its connection is suspended, the worker is
 * free at once, a reader thread runs the request (api_dispatch again, with
 * http_request.on_reader set) and resumes the connection; the worker then
 * sends the answer (longread_take).
 *
 * A connection's long reads go to one reader (by the connection), as they
 * went to one worker before: the per-thread report cache keeps its hits.
 * At most kind->threads run at a time and kind->queue_max wait; beyond
 * that the request is answered 503 busy with Retry-After at once.  A pool's
 * threads run at a lower scheduling priority than the workers and the
 * writer, so that on a busy machine a dealer's write goes first.
 *
 * The same mechanism runs password work off the workers (a second pool,
 * LONGREAD_PASSWORDS): Argon2id on a worker held every request queued
 * behind it on that worker, a dealer's round included.
 */
#ifndef PB_HTTP_LONGREAD_H
#define PB_HTTP_LONGREAD_H

#include <stdbool.h>

#include "http/http.h"

#define LONGREAD_THREADS_MAX 4

/*
 * A kind of pool: its threads, how many requests may wait, the Retry-After
 * of its 503 busy, the scheduling priority of its threads (a nice value:
 * below the workers and the writer) and what its busy answer says.
 */
struct longread_kind {
	const char *name;             /* "long reads", for the log */
	int threads;                  /* at most LONGREAD_THREADS_MAX */
	int queue_max;
	int retry_after_s;
	int nice;
	int per_client_max;           /* requests of one client address running and waiting at once; 0: no bound */
	const char *busy_message;     /* the 503's message: "%d ... %d ... %d": threads, queue_max, retry_after_s */
};

/*
 * The readers: two threads at nice 5 and 8 waiting, for the RT_LONG routes.
 * The password pool: sign-ins, witnesses and password changes (Argon2id,
 * 64 MiB and about a tenth of a second each): one thread at nice 10, so that
 * a flood of them never takes more than one core from the dealers, and 16
 * waiting, at most 2 of them sign-ins from one client address (one address
 * cannot hold the queue while its first failures lock it out); beyond, 503
 * busy with Retry-After (docs/security.md).
 */
extern const struct longread_kind LONGREAD_READERS, LONGREAD_PASSWORDS;

/*
 * The report pool: the short reads a pit boss's or an auditor's page asks
 * again and again (the reports, a round's verify, the events; RT_REPORT), two
 * threads at nice 5 with 32 waiting.  On a worker (nice 0) each such read
 * held the dealers' connections of its worker and took the CPU from their
 * writes; here a dealer's write goes first, and a report never waits behind
 * a walk of the whole record on the reader pool.
 */
extern const struct longread_kind LONGREAD_REPORTS;

struct longread_pool;
struct longread_job;

/* Starts a pool of this kind; NULL with err filled when its threads cannot be made. */
struct longread_pool *longread_start(struct app *app, const struct longread_kind *kind, struct pb_error *err);

/*
 * Stops taking requests, answers those still waiting 503 shutting_down,
 * waits for the running ones to finish and joins the threads.  Every
 * connection handed over is resumed before it returns.
 */
void longread_stop(struct longread_pool *pool);

/*
 * Hands the request over (called by the worker from the access handler,
 * with req->conn): 0 with *job set and the connection suspended, or -1
 * with ans filled (503 busy and its Retry-After, or 503 shutting_down) to
 * be sent at once.  req's strings must live until the answer is sent (they
 * are the connection's and the request's body).  client: the client's
 * address, counted against the kind's per_client_max ("" or NULL: not).
 */
int longread_submit(struct longread_pool *pool, const struct http_request *req, const char *client,
    struct longread_job **job, struct http_answer *ans);

/*
 * The answer of a job whose connection was resumed: true with *ans moved
 * out of it (the caller sends and frees it, then frees the job), false
 * when the job is not done (the connection was resumed for another reason).
 */
bool longread_take(struct longread_job *job, struct http_answer *ans);

/* Frees a job that is done or was never run (the connection ended). */
void longread_job_free(struct longread_job *job);

/* Counters for /metrics: running now, waiting now, refused busy since start. */
void longread_stats(struct longread_pool *pool, int *running, int *waiting, unsigned long long *refused);

#endif
