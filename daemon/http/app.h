/*
 * app.h - what the HTTP layer shares between threads: the configuration in
 * force (swapped on SIGHUP under a lock), the database settings, counters
 * for /metrics, and each worker thread's own database connection.
 */
#ifndef PB_HTTP_APP_H
#define PB_HTTP_APP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "config/config.h"
#include "table/ops/ops.h"

struct signer;
struct store;
struct store_writer;

#define METRIC_ROUTES 32
#define METRIC_LATENCY_BUCKETS 12

struct app_metrics {
	atomic_uint_fast64_t requests[METRIC_ROUTES][6];   /* by route and status class 1xx..5xx (index 1..5) */
	atomic_uint_fast64_t latency_us_bucket[METRIC_LATENCY_BUCKETS + 1];
	atomic_uint_fast64_t latency_us_sum;
	atomic_uint_fast64_t latency_count;
	atomic_uint_fast64_t rounds_opened;
	atomic_uint_fast64_t rounds_settled;
	atomic_uint_fast64_t rounds_voided;
	atomic_uint_fast64_t auth_failures;
	atomic_uint_fast64_t conn_open;                    /* open HTTP connections (http/watchdog.c) */
	atomic_uint_fast64_t conn_dropped[4];              /* closed by the watchdog, by enum watchdog_reason */
};

#define METRIC_REFUSAL_CODES 96

struct refusal_count {
	char code[PB_ERROR_CODE_MAX];
	int status;
	uint64_t count;
};

struct app {
	pthread_rwlock_t lock;        /* read: a request; write: a config swap */
	struct config *cfg;
	char database[4096];          /* fixed for the life of the process */
	char synchronous[8];
	int64_t started_ms;
	struct app_metrics metrics;
	pthread_mutex_t refusal_lock;
	struct refusal_count refusals[METRIC_REFUSAL_CODES];
	int refusal_kinds;
	pthread_key_t store_key;      /* this thread's struct store */
	const struct signer *signer;  /* checkpoint key; NULL: no checkpoints */
	struct store_writer *writer;  /* the write connection and its group commit; NULL: each thread writes on its own */
	shipping_status_fn *shipping; /* the shipper to the central tier (main.c); NULL: none */
	void *shipping_arg;
	central_report_fn *central_report;   /* "central": {"reports": true} (main.c); NULL: not served */
	void *central_report_arg;
};

int app_init(struct app *app, struct config *cfg, struct pb_error *err);
void app_free(struct app *app);

/* This thread's database connection, opened on first use. */
struct store *app_thread_store(struct app *app, struct pb_error *err);

#endif
