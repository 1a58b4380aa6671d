/*
 * ship.c - the shipper: a thread of its own that sends the committed record
 * to the central server (docs/central.md).  It reads events after its
 * acknowledged position on a read-only connection of its own (no lock held
 * while it waits on the network), sends a batch in one PostgreSQL
 * transaction, and only after COMMIT advances the position, in SQLite,
 * through the writer (one small job).  A failure is logged once, counted,
 * kept for /metrics, and retried with a backoff of 1 s doubling to 5 s;
 * the floor never waits for it.  Every connection and statement has a
 * deadline (central.statement_timeout_ms, pg.c): past it the connection is
 * closed and the next attempt opens another, so a server that stalls or a
 * path that silently drops bytes costs one deadline, not the shipping.
 *
 * What /metrics shows is read when asked, without waiting on the thread:
 * the lag from the record (its newest event against the acknowledged
 * position, published here under a lock never held across the network),
 * and `up` 0 as soon as a statement is past its deadline.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "central/central_int.h"
#include "common/log.h"
#include "config/config.h"
#include "common/timeutil.h"
#include "store/writer.h"

#define DEFAULT_BATCH 500
#define DEFAULT_DEADLINE_MS 30000
#define CHECKPOINT_BATCH 100
#define FACTS_BATCH 500
#define IDLE_MS 200
#define BACKOFF_MIN_MS 1000
#define BACKOFF_MAX_MS 5000

struct shipper {
	pthread_t thread;
	pthread_mutex_t lock;            /* stop, status */
	pthread_cond_t wake;
	bool stop;
	struct shipping_status status;
	char conninfo[1024];
	char property[PB_ID_MAX];
	char calendar[4][1024];          /* name, time zone, gaming day start, shifts (JSON) */
	char database[4096];
	int batch;
	int deadline_ms;                 /* per connection and statement */
	_Atomic int64_t running_since;   /* the start of the statement under way (central_monotonic_ms), 0 when none */
	_Atomic int64_t answered_at;     /* the server's last answer to a whole exchange (central_monotonic_ms) */
	struct store_writer *writer;
	struct store *store;             /* the thread's read-only connection */
	PGconn *pg;                      /* NULL between a failure and the next attempt */
	int64_t pos_events, pos_checkpoints;
	int64_t pos_facts;               /* the last finishing event whose round's facts the server holds (read from it) */
	struct conflict_log conflicts;   /* the fact rows not its own reported so far */
	bool role_checked;               /* its role's reach was checked (at the first connection) */
};

#define CONFLICTS_MAX 64

/* Reports the fact rows not the property's own (ship_conflict.c) and counts the new ones for /metrics and /ready. */
static void
note_conflicts(struct shipper *s, const struct fact_conflict *c, int n)
{
	char last[sizeof(s->status.last_conflict)];
	int fresh;

	if (n == 0)
		return;
	central_conflicts_record(&s->conflicts, s->writer, s->property, c, n, &fresh, last, sizeof(last));
	if (fresh == 0)
		return;
	pthread_mutex_lock(&s->lock);
	s->status.conflicts += fresh;
	snprintf(s->status.last_conflict, sizeof(s->status.last_conflict), "%s", last);
	pthread_mutex_unlock(&s->lock);
}

/*
 * At the first connection: whether its role can read (and write) other
 * properties' rows, warned in the log and kept for /metrics.
 */
static int
check_role(struct shipper *s, struct pb_error *err)
{
	bool sees_others;

	if (s->role_checked)
		return 0;
	if (central_role_sees_others(s->pg, &sees_others, err) < 0)
		return -1;
	s->role_checked = true;
	if (sees_others)
		log_warn("central: the role in central.conninfo can read and write every property's rows (a superuser, "
		    "BYPASSRLS, the schema's owner, or a schema without row-level security): give property %s a role "
		    "of its own with pitboss central grant", s->property);
	pthread_mutex_lock(&s->lock);
	s->status.role_sees_others = sees_others;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

/* Sleeps ms, or less when stopped; true when the shipper is to stop. */
static bool
nap(struct shipper *s, int ms)
{
	struct timespec until;
	bool stop;

	pb_deadline_in(CLOCK_REALTIME, ms, &until);
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

/* Sends the report facts of the next rounds finished by events already shipped; *sent how many. */
static int
ship_facts(struct shipper *s, int *sent, struct pb_error *err)
{
	int64_t event_ids[FACTS_BATCH], round_ids[FACTS_BATCH];
	struct fact_conflict conflicts[CONFLICTS_MAX];
	int count, nconflicts;

	*sent = 0;
	if (store_central_finished(s->store, s->pos_facts, s->pos_events, FACTS_BATCH, event_ids, round_ids, &count,
	    err) < 0)
		return -1;
	if (count == 0)
		return 0;
	if (central_push_facts(s->pg, s->store, s->property, event_ids, round_ids, count, conflicts, CONFLICTS_MAX,
	    &nconflicts, err) < 0)
		return -1;
	note_conflicts(s, conflicts, nconflicts);
	s->pos_facts = event_ids[count - 1];
	*sent = count;
	return 0;
}

/* Publishes the acknowledged positions and whether the attempt reached the server, for /metrics. */
static void
measure(struct shipper *s)
{
	pthread_mutex_lock(&s->lock);
	s->status.shipped_events = s->pos_events;
	s->status.shipped_checkpoints = s->pos_checkpoints;
	s->status.connected = s->pg != NULL;
	pthread_mutex_unlock(&s->lock);
}

/* The property's name and calendar, so that the central reports group by its gaming days. */
static int
send_calendar(struct shipper *s, struct pb_error *err)
{
	const char *p[5] = {s->property, s->calendar[0], s->calendar[1], s->calendar[2], s->calendar[3]};

	return central_exec(s->pg, "SELECT pitboss.set_property_calendar($1, $2, $3, $4, $5)", 5, p, NULL, err);
}

/*
 * Where the central server's copy ends, read from it at every connection:
 * when it holds less than the position kept here says (a batch the old
 * primary acknowledged never reached the standby now promoted, or the
 * central database was restored from an older backup), shipping restarts
 * at the first event it lacks, so no gap is left.  Per table: its last
 * table_seq there, and the id here of the event after it.
 */
static int
resync(struct shipper *s, struct pb_error *err)
{
	char tables[256][PB_ID_MAX];
	struct fact_conflict rejected[CONFLICTS_MAX];
	int64_t from = s->pos_events, id, cps;
	int n, nrejected;
	bool found;

	if (store_event_tables(s->store, tables, 256, &n, err) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		int64_t seq;
		if (central_chain_end(s->pg, s->property, tables[i], &seq, err) < 0 ||
		    store_event_id_at(s->store, tables[i], seq + 1, &id, &found, err) < 0)
			return -1;
		if (found && id - 1 < from)
			from = id - 1;
	}
	if (from < s->pos_events) {
		log_error("central: the server lacks events after %lld, though %lld were acknowledged: resending from there",
		    (long long)from, (long long)s->pos_events);
		s->pos_events = from;
	}
	if (central_checkpoints_position(s->pg, s->property, &cps, err) < 0)
		return -1;
	if (cps < s->pos_checkpoints)
		s->pos_checkpoints = cps;
	if (central_facts_position(s->pg, s->store, s->property, &s->pos_facts, rejected, CONFLICTS_MAX, &nrejected,
	    err) < 0)
		return -1;
	note_conflicts(s, rejected, nrejected);
	return 0;
}

/* Connects when needed, then one batch of events, else one of checkpoints; *sent what went. */
static int
ship_once(struct shipper *s, int *sent, struct pb_error *err)
{
	*sent = 0;
	if (s->pg == NULL) {
		if ((s->pg = central_connect_within(s->conninfo, s->deadline_ms, &s->running_since, err)) == NULL)
			return -1;
		if (check_role(s, err) < 0 || central_ensure_property(s->pg, s->property, err) < 0 ||
		    send_calendar(s, err) < 0 || resync(s, err) < 0)
			return -1;
		measure(s);              /* resync may have moved the positions back */
		log_info("central: connected, shipping after event %lld, facts after %lld, checkpoint %lld",
		    (long long)s->pos_events, (long long)s->pos_facts, (long long)s->pos_checkpoints);
	}
	if (ship_events(s, sent, err) < 0)
		return -1;
	if (*sent > 0)
		return 0;
	if (ship_facts(s, sent, err) < 0)
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
		atomic_store(&s->answered_at, central_monotonic_ms());
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

/* The property's name, zone, gaming day start and shifts (a JSON array) as sent to the central server. */
static void
calendar_text(const struct property_config *pc, char out[4][1024])
{
	json_t *shifts = json_array();
	char *text;

	snprintf(out[0], 1024, "%s", pc != NULL ? pc->name : "");
	snprintf(out[1], 1024, "%s", pc != NULL ? pc->time_zone : "UTC");
	snprintf(out[2], 1024, "%02d:%02d", pc != NULL ? pc->calendar.day_start_min / 60 : 0,
	    pc != NULL ? pc->calendar.day_start_min % 60 : 0);
	for (int i = 0; pc != NULL && i < pc->calendar.shift_count; i++) {
		const struct gaming_shift *sh = &pc->calendar.shifts[i];
		char start[8];
		snprintf(start, sizeof(start), "%02d:%02d", sh->start_min / 60, sh->start_min % 60);
		json_array_append_new(shifts, json_pack("{s:s,s:s}", "name", sh->name, "start", start));
	}
	text = json_dumps(shifts, JSON_COMPACT);
	snprintf(out[3], 1024, "%s", text != NULL ? text : "[]");
	free(text);
	json_decref(shifts);
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
	s->status.shipped_events = s->pos_events;
	s->status.shipped_checkpoints = s->pos_checkpoints;
	return 0;
}

int
shipper_start(const struct shipper_options *o, struct shipper **out, struct pb_error *err)
{
	struct shipper *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (s == NULL)
		return pb_oom(err);
	snprintf(s->conninfo, sizeof(s->conninfo), "%s", o->conninfo);
	snprintf(s->property, sizeof(s->property), "%s", o->property);
	snprintf(s->database, sizeof(s->database), "%s", o->database);
	s->batch = o->batch_events > 0 ? o->batch_events : DEFAULT_BATCH;
	s->deadline_ms = o->statement_timeout_ms > 0 ? o->statement_timeout_ms : DEFAULT_DEADLINE_MS;
	s->status.deadline_ms = s->deadline_ms;
	calendar_text(o->calendar, s->calendar);
	s->writer = o->writer;
	s->status.configured = true;
	atomic_store(&s->answered_at, central_monotonic_ms());
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

/*
 * The lag behind the record, read from reader (the caller's connection):
 * its newest event against the acknowledged position, and the age of the
 * first event after it.  Nothing here waits on the shipper's thread or the
 * network, so the lag grows while a statement is blocked.
 */
static void
read_lag(struct store *reader, struct shipping_status *st)
{
	struct pb_error err;
	char first_at[PB_TIME_LEN];
	int64_t newest = 0, at_ms = 0;
	double age = 0;

	if (reader == NULL || store_central_lag(reader, st->shipped_events, &newest, first_at, &err) < 0)
		return;
	if (first_at[0] != '\0' && pb_time_parse(first_at, &at_ms) == 0)
		age = (double)(pb_time_now_ms() - at_ms) / 1000.0;
	st->lag_events = newest > st->shipped_events ? newest - st->shipped_events : 0;
	st->lag_seconds = st->lag_events > 0 && age > 0 ? age : 0;
}

/*
 * Stalled: events wait to be sent and the server has not answered for
 * longer than the deadline; for how long, the shorter of the time since its
 * last answer and the oldest waiting event's age (a shipper idle for hours
 * and then blocked is stalled from the first event it could not send).
 */
static void
read_stall(struct shipper *s, struct shipping_status *st)
{
	double quiet = (double)(central_monotonic_ms() - atomic_load(&s->answered_at)) / 1000.0;
	double stalled = quiet < st->lag_seconds ? quiet : st->lag_seconds;

	st->stalled_seconds = st->lag_events > 0 && stalled * 1000.0 > st->deadline_ms ? stalled : 0;
}

void
shipper_status(struct shipper *s, struct store *reader, struct shipping_status *out)
{
	int64_t since;

	memset(out, 0, sizeof(*out));
	if (s == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	*out = s->status;
	pthread_mutex_unlock(&s->lock);
	since = atomic_load(&s->running_since);
	if (since > 0) {
		int64_t ran = central_monotonic_ms() - since;
		out->statement_seconds = ran > 0 ? (double)ran / 1000.0 : 0;
		if (ran > out->deadline_ms)
			out->connected = false;
	}
	read_lag(reader, out);
	read_stall(s, out);
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
