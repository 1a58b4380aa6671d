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
 * At most LONGREAD_THREADS run at a time and LONGREAD_QUEUE_MAX wait;
 * beyond that the request is answered 503 busy with Retry-After at once.
 * The readers run at a lower scheduling priority than the workers and the
 * writer, so that on a busy machine a dealer's write goes first.
 */
#ifndef PB_HTTP_LONGREAD_H
#define PB_HTTP_LONGREAD_H

#include <stdbool.h>

#include "http/http.h"

#define LONGREAD_THREADS 2
#define LONGREAD_QUEUE_MAX 8
#define LONGREAD_RETRY_AFTER_S 5
#define LONGREAD_NICE 5

struct longread_pool;
struct longread_job;

/* Starts the reader threads; NULL with err filled when they cannot be made. */
struct longread_pool *longread_start(struct app *app, struct pb_error *err);

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
 * are the connection's and the request's body).
 */
int longread_submit(struct longread_pool *pool, const struct http_request *req, struct longread_job **job,
    struct http_answer *ans);

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
