/*
 * ship.c - the shipper: a thread of its own that sends the committed record
 * to the central server (docs/central.md).  It reads events after its
 * acknowledged position on a read-only connection of its own (no lock held
 * while it waits on the network), sends a batch in one PostgreSQL
 * transaction, and only after COMMIT advances the position, in SQLite,
 * through the writer (one small job).  A failure is logged once, counted,
 * kept for /metrics, and retried with a backoff of 1 s doubling to 30 s;
 * the floor never waits for it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "central/central_int.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "store/writer.h"

#define DEFAULT_BATCH 500
#define CHECKPOINT_BATCH 100
#define IDLE_MS 200
#define BACKOFF_MIN_MS 1000
#define BACKOFF_MAX_MS 30000

struct shipper {
	pthread_t thread;
	pthread_mutex_t lock;            /* stop, status */
	pthread_cond_t wake;
	bool stop;
	struct shipping_status status;
	char conninfo[1024];
	char property[PB_ID_MAX];
	char database[4096];
	int batch;
	struct store_writer *writer;
	struct store *store;             /* the thread's read-only connection */
	PGconn *pg;                      /* NULL between a failure and the next attempt */
	int64_t pos_events, pos_checkpoints;
};

/* Sleeps ms, or less when stopped; true when the shipper is to stop. */
static bool
nap(struct shipper *s, int ms)
{
	struct timespec until;
	bool stop;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&s->lock);
	while (!s->stop && pthread_cond_timedwait(&s->wake, &s->lock, &until) != ETIMEDOUT)
		;
	stop = s->stop;
	pthread_mutex_unlock(&s->lock);
	return stop;
}

struct advance {
	const char *stream;
	int64_t last_id;
};

static int
advance_job(struct store *st, void *arg, struct pb_error *err)
{
	const struct advance *a = arg;

	return store_central_position_set(st, a->stream, a->last_id, err);
}

/* Sends the next batch of events; *sent how many. */
static int
ship_events(struct shipper *s, int *sent, struct pb_error *err)
{
	struct event_list l;
	struct advance a = {.stream = "events"};
	int rc = -1;

	*sent = 0;
	if (store_events_after(s->store, s->pos_events, s->batch, &l, err) < 0)
		return -1;
	if (l.count == 0)
		return 0;
	if (central_push_events(s->pg, s->property, &l, err) < 0)
		goto out;
	a.last_id = l.events[l.count - 1].id;
	if (store_writer_run(s->writer, advance_job, &a, err) < 0)
		goto out;
	s->pos_events = a.last_id;
	*sent = l.count;
	rc = 0;
out:
	event_list_free(&l);
	return rc;
}

/* Sends the next batch of checkpoints; *sent how many. */
static int
ship_checkpoints(struct shipper *s, int *sent, struct pb_error *err)
{
	struct checkpoint cps[CHECKPOINT_BATCH];
	struct advance a = {.stream = "checkpoints"};
	int count = 0;

	*sent = 0;
	if (store_checkpoints(s->store, NULL, s->pos_checkpoints, CHECKPOINT_BATCH, cps, &count, err) < 0)
		return -1;
	if (count == 0)
		return 0;
	if (central_push_checkpoints(s->pg, s->property, cps, count, err) < 0)
		return -1;
	a.last_id = cps[count - 1].id;
	if (store_writer_run(s->writer, advance_job, &a, err) < 0)
		return -1;
	s->pos_checkpoints = a.last_id;
	*sent = count;
	return 0;
}

/* The lag behind the record, for /metrics (a failure leaves the last figures). */
static void
measure(struct shipper *s)
{
	struct pb_error err;
	char first_at[PB_TIME_LEN];
	int64_t newest = 0, at_ms = 0;
	double age = 0;

	if (store_central_lag(s->store, s->pos_events, &newest, first_at, &err) < 0)
		return;
	if (first_at[0] != '\0' && pb_time_parse(first_at, &at_ms) == 0)
		age = (double)(pb_time_now_ms() - at_ms) / 1000.0;
	pthread_mutex_lock(&s->lock);
	s->status.shipped_events = s->pos_events;
	s->status.shipped_checkpoints = s->pos_checkpoints;
	s->status.lag_events = newest > s->pos_events ? newest - s->pos_events : 0;
	s->status.lag_seconds = age > 0 ? age : 0;
	s->status.connected = s->pg != NULL;
	pthread_mutex_unlock(&s->lock);
}

/* Connects when needed, then one batch of events, else one of checkpoints; *sent what went. */
static int
ship_once(struct shipper *s, int *sent, struct pb_error *err)
{
	*sent = 0;
	if (s->pg == NULL) {
		if ((s->pg = central_connect(s->conninfo, err)) == NULL)
			return -1;
		if (central_ensure_property(s->pg, s->property, err) < 0)
			return -1;
		log_info("central: connected, shipping after event %lld and checkpoint %lld", (long long)s->pos_events,
		    (long long)s->pos_checkpoints);
	}
	if (ship_events(s, sent, err) < 0)
		return -1;
	if (*sent > 0)
		return 0;
	return ship_checkpoints(s, sent, err);
}

/* Notes a failure: logged when it differs from the last one, kept for /metrics; the connection dropped. */
static void
note_failure(struct shipper *s, const struct pb_error *err)
{
	bool same;

	if (s->pg != NULL) {
		PQfinish(s->pg);
		s->pg = NULL;
	}
	pthread_mutex_lock(&s->lock);
	same = strcmp(s->status.last_error, err->message) == 0;
	snprintf(s->status.last_error, sizeof(s->status.last_error), "%s", err->message);
	s->status.failures++;
	s->status.connected = false;
	pthread_mutex_unlock(&s->lock);
	if (!same)
		log_error("central: %s (retrying with backoff; the floor is not affected)", err->message);
}

static void
note_success(struct shipper *s)
{
	pthread_mutex_lock(&s->lock);
	if (s->status.last_error[0] != '\0')
		log_info("central: shipping again");
	s->status.last_error[0] = '\0';
	pthread_mutex_unlock(&s->lock);
}

static void *
ship_main(void *arg)
{
	struct shipper *s = arg;
	struct pb_error err;
	int backoff = BACKOFF_MIN_MS, sent;

	for (;;) {
		if (ship_once(s, &sent, &err) < 0) {
			note_failure(s, &err);
			measure(s);
			if (nap(s, backoff))
				break;
			backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
			continue;
		}
		backoff = BACKOFF_MIN_MS;
		note_success(s);
		measure(s);
		if (nap(s, sent > 0 ? 0 : IDLE_MS))
			break;
	}
	if (s->pg != NULL)
		PQfinish(s->pg);
	s->pg = NULL;
	return NULL;
}

/* The thread's read-only connection and the positions acknowledged so far. */
static int
open_record(struct shipper *s, struct pb_error *err)
{
	struct store_options so = {.path = s->database, .read_only = true};

	if ((s->store = store_open(&so, err)) == NULL)
		return -1;
	if (store_central_position(s->store, "events", &s->pos_events, err) < 0 ||
	    store_central_position(s->store, "checkpoints", &s->pos_checkpoints, err) < 0) {
		store_free(s->store);
		s->store = NULL;
		return -1;
	}
	return 0;
}

int
shipper_start(const struct shipper_options *o, struct shipper **out, struct pb_error *err)
{
	struct shipper *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (s == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	snprintf(s->conninfo, sizeof(s->conninfo), "%s", o->conninfo);
	snprintf(s->property, sizeof(s->property), "%s", o->property);
	snprintf(s->database, sizeof(s->database), "%s", o->database);
	s->batch = o->batch_events > 0 ? o->batch_events : DEFAULT_BATCH;
	s->writer = o->writer;
	s->status.configured = true;
	if (open_record(s, err) < 0) {
		free(s);
		return -1;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->wake, NULL);
	if (pthread_create(&s->thread, NULL, ship_main, s) != 0) {
		pthread_cond_destroy(&s->wake);
		pthread_mutex_destroy(&s->lock);
		store_free(s->store);
		free(s);
		return pb_fail(err, 500, "internal_error", "cannot start the shipper's thread");
	}
	log_info("central: shipping property %s's record", s->property);
	*out = s;
	return 0;
}

void
shipper_status(struct shipper *s, struct shipping_status *out)
{
	memset(out, 0, sizeof(*out));
	if (s == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	*out = s->status;
	pthread_mutex_unlock(&s->lock);
}

void
shipper_free(struct shipper *s)
{
	if (s == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	store_free(s->store);
	free(s);
}
