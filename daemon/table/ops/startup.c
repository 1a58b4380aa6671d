/*
 * startup.c - the integrity check at start: every table's last checkpoint
 * and its chain since then (audit_startup_check), the part before
 * listening, the background walk of the chains before the last
 * checkpoints, and the progress that GET /api/v1/integrity and /metrics
 * show.
 */
#include "store/audit.h"
#include "store/store.h"
#include "table/ops/ops.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/priority.h"
#include "common/timeutil.h"
#include "table/audit/audit.h"

struct startup_walk {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;            /* signalled when stop is asked and when the walk ends */
	bool stop;                      /* asked to stop (under lock) */
	bool ended;                     /* the thread is done (under lock) */
	char database[4096];
	char synchronous[8];
	unsigned pause_ms;
	int chunk;
	struct startup_backlog_entry *backlog;
	int count;
	int64_t events;                 /* to walk */
	int64_t walked;                 /* walked so far (the thread's own) */
};

/* ---- the check before listening ---- */

void
startup_result_free(struct startup_result *r)
{
	if (r == NULL)
		return;
	free(r->backlog);
	memset(r, 0, sizeof(*r));
}

/*
 * One table's part of the start-up check: its last checkpoint (signature, and
 * the signed event still there with the signed hash), then its chain from
 * there to the head, or from genesis with from_genesis.  Otherwise a table
 * with a checkpoint gets *backlog_to set to the checkpoint's event: the chain
 * up to it is left unchecked here.  Problems are appended.
 */
static int
startup_check_table(struct pit *p, const char *table_id, bool from_genesis, json_t *problems, int64_t *walked,
    int64_t *backlog_to, struct pb_error *err)
{
	struct checkpoint c;
	bool found;
	int64_t from = 1, n;
	char prev[PB_SHA256_HEX_LEN];

	memcpy(prev, CHAIN_GENESIS, sizeof(prev));
	*backlog_to = 0;
	if (store_checkpoint_last(p->store, table_id, &c, &found, err) < 0)
		return -1;
	if (found) {
		if (chain_check_checkpoint(p, &c, p->signer ? p->signer->public_hex : NULL, problems, err) < 0)
			return -1;
		if (!from_genesis) {
			from = c.table_seq + 1;
			snprintf(prev, sizeof(prev), "%s", c.head_hash);
			*backlog_to = c.table_seq;
		}
	}
	n = chain_walk_all(p, table_id, from, prev, false, problems, NULL, err);
	if (n < 0)
		return -1;
	*walked = n;
	return 0;
}

int
audit_startup_check(struct pit *p, bool defer_full, struct startup_result *out, struct pb_error *err)
{
	char (*ids)[PB_ID_MAX] = calloc(CHAIN_TABLES_MAX, PB_ID_MAX);
	bool full = p->cfg != NULL && p->cfg->startup_full_check;
	struct pb_error hold_err;
	int n = 0, hold_failed = 0;

	memset(out, 0, sizeof(*out));
	out->backlog = calloc(CHAIN_TABLES_MAX, sizeof(*out->backlog));
	if (ids == NULL || out->backlog == NULL) {
		pb_oom(err);
		goto fail;
	}
	if (store_event_tables(p->store, ids, CHAIN_TABLES_MAX, &n, err) < 0)
		goto fail;
	out->tables = n;
	for (int t = 0; t < n; t++) {
		json_t *problems = json_array();
		int64_t walked = 0, to = 0;
		int recent = 0;

		/* A table that could not be checked (out of memory included) fails the check: it is never taken as intact. */
		if (problems == NULL) {
			pb_oom(err);
			goto fail;
		}
		if (startup_check_table(p, ids[t], full && !defer_full, problems, &walked, &to, err) < 0 ||
		    audit_recent_rounds(p, ids[t], STARTUP_RECENT_ROUNDS, problems, &recent, err) < 0) {
			json_decref(problems);
			goto fail;
		}
		out->rounds += recent;
		out->events += walked;
		out->problems += (int64_t)json_array_size(problems);
		if (json_array_size(problems) > 0) {
			/* A hold that cannot be recorded fails the check, once every table has been looked at. */
			if (audit_hold_table(p->store, ids[t], problems, full && !defer_full ? "whole_chain" : "since_checkpoint",
			    hold_failed ? &hold_err : err) < 0)
				hold_failed++;
			else
				out->held++;
		}
		json_decref(problems);
		if (full && to > 0) {
			struct startup_backlog_entry *b = &out->backlog[out->backlog_count++];
			snprintf(b->table_id, sizeof(b->table_id), "%s", ids[t]);
			b->to = to;
			out->backlog_events += to;
		}
	}
	if (hold_failed)
		goto fail;
	free(ids);
	return out->held;
fail:
	free(ids);
	startup_result_free(out);
	return -1;
}

/* ---- the progress ---- */

static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;
static struct startup_progress progress;

static const char *const STATE_NAMES[] = {
	[STARTUP_NONE] = "none", [STARTUP_RUNNING] = "running", [STARTUP_DONE] = "done",
	[STARTUP_FAILED] = "failed", [STARTUP_STOPPED] = "stopped",
};

/* Milliseconds of a clock that only moves forward, for durations. */
static int64_t
monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
startup_progress_get(struct startup_progress *out)
{
	pthread_mutex_lock(&progress_lock);
	*out = progress;
	pthread_mutex_unlock(&progress_lock);
}

void
startup_progress_reset(void)
{
	pthread_mutex_lock(&progress_lock);
	memset(&progress, 0, sizeof(progress));
	pthread_mutex_unlock(&progress_lock);
}

/* Ends the check in state st (under progress_lock). */
static void
progress_finish_locked(enum startup_state st)
{
	progress.state = st;
	progress.finished_ms = pb_time_now_ms();
	pb_time_format_ms(progress.finished_ms, progress.finished_at);
}

static void
progress_finish(enum startup_state st)
{
	pthread_mutex_lock(&progress_lock);
	progress_finish_locked(st);
	pthread_mutex_unlock(&progress_lock);
}

/* Adds a chunk's counts; table_done and held when a table's walk ends. */
static void
progress_add(int64_t events, int64_t problems, bool table_done, bool held)
{
	pthread_mutex_lock(&progress_lock);
	progress.events_checked += events;
	progress.problems += problems;
	progress.tables_checked += table_done;
	progress.tables_held += held;
	pthread_mutex_unlock(&progress_lock);
}

json_t *
startup_progress_json(void)
{
	struct startup_progress p;

	startup_progress_get(&p);
	if (p.state == STARTUP_NONE)
		return json_null();
	return json_pack("{s:s,s:s,s:b,s:i,s:i,s:i,s:I,s:I,s:I,s:s,s:o}", "mode", p.full ? "full" : "since_checkpoint",
	    "state", STATE_NAMES[p.state], "background", p.background, "tables", p.tables, "tables_checked",
	    p.tables_checked, "tables_held", p.tables_held, "events", (json_int_t)p.events, "events_checked",
	    (json_int_t)p.events_checked, "problems", (json_int_t)p.problems, "started_at", p.started_at, "finished_at",
	    p.finished_at[0] ? json_string(p.finished_at) : json_null());
}

/* ---- before listening ---- */

/* Records what the part before listening did, and ends the check when nothing is left for the background. */
static void
progress_before_listening(const struct startup_result *r)
{
	pthread_mutex_lock(&progress_lock);
	progress.tables = r->tables;
	progress.tables_checked = r->tables - r->backlog_count;
	progress.tables_held = r->held;
	progress.events = r->events + r->backlog_events;
	progress.events_checked = r->events;
	progress.problems = r->problems;
	progress.background = r->backlog_count > 0;
	if (r->backlog_count == 0)
		progress_finish_locked(STARTUP_DONE);
	pthread_mutex_unlock(&progress_lock);
}

int
startup_check_before_listening(struct pit *p, struct startup_result *r)
{
	struct pb_error err;
	int64_t t0 = monotonic_ms();
	double secs;
	int held;

	pthread_mutex_lock(&progress_lock);
	memset(&progress, 0, sizeof(progress));
	progress.state = STARTUP_RUNNING;
	progress.full = p->cfg != NULL && p->cfg->startup_full_check;
	progress.started_ms = pb_time_now_ms();
	pb_time_format_ms(progress.started_ms, progress.started_at);
	pthread_mutex_unlock(&progress_lock);

	held = audit_startup_check(p, true, r, &err);
	if (held < 0) {
		log_error("start-up integrity check could not run: %s", err.message);
		progress_finish(STARTUP_FAILED);
		return -1;
	}
	progress_before_listening(r);
	secs = (double)(monotonic_ms() - t0) / 1000.0;
	if (held > 0)
		log_error("start-up integrity check: %d table(s) failed and are on hold until a pit boss acknowledges; see GET /api/v1/integrity",
		    held);
	else
		log_info("start-up integrity check: every chain matches its last signed checkpoint, and the newest %lld round(s) their events "
		    "(%lld events of %d table(s) checked in %.2f s)", (long long)r->rounds, (long long)r->events, r->tables, secs);
	if (r->backlog_count > 0)
		log_info("start-up integrity check: the %lld events before the last checkpoints of %d table(s) are checked in the background",
		    (long long)r->backlog_events, r->backlog_count);
	return held;
}

/* ---- the background walk ---- */

static bool
stop_asked(struct startup_walk *w)
{
	bool stop;

	pthread_mutex_lock(&w->lock);
	stop = w->stop;
	pthread_mutex_unlock(&w->lock);
	return stop;
}

/* The pause between two chunks: pause_ms, cut short by a stop; with 0, a yield of the processor. */
static void
pause_between_chunks(struct startup_walk *w)
{
	struct timespec until;

	if (w->pause_ms == 0) {
		sched_yield();
		return;
	}
	pb_deadline_in(CLOCK_MONOTONIC, w->pause_ms, &until);   /* the clock w->cond waits on */
	pthread_mutex_lock(&w->lock);
	while (!w->stop && pthread_cond_timedwait(&w->cond, &w->lock, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&w->lock);
}

/* Holds a table whose chain failed the walk, and says so in the log. */
static int
hold_failed_table(struct store *s, const char *table_id, const json_t *problems, struct pb_error *err)
{
	const char *first = json_string_value(json_object_get(json_array_get(problems, 0), "problem"));

	if (audit_hold_table(s, table_id, problems, "before_checkpoint", err) < 0) {
		log_error("start-up integrity check: table %s failed before its last checkpoint (%s), and the hold could not be recorded: %s",
		    table_id, first ? first : "", err->message);
		return -1;
	}
	log_error("start-up integrity check: table %s failed before its last checkpoint (%zu problem(s); the first: %s); "
	    "it is on hold until a pit boss acknowledges (POST /api/v1/tables/%s/acknowledge)",
	    table_id, json_array_size(problems), first ? first : "", table_id);
	return 0;
}

/*
 * Holds table_id when its walk found problems, setting *held; a table held
 * before listening (its newest rounds) is logged, with no second hold and no
 * second event.  -1 when the hold could not be recorded (logged).
 */
static int
hold_if_failed(struct store *s, const char *table_id, const json_t *problems, bool *held)
{
	struct pb_error err;
	char why[8];
	bool already = false;

	*held = false;
	if (json_array_size(problems) == 0)
		return 0;
	if (store_table_hold_get(s, table_id, why, sizeof(why), &already, &err) == 0 && already) {
		log_error("start-up integrity check: table %s, already on hold, also failed before its last checkpoint (%zu problem(s))",
		    table_id, json_array_size(problems));
		return 0;
	}
	if (hold_failed_table(s, table_id, problems, &err) < 0)
		return -1;
	*held = true;
	return 0;
}

/*
 * Walks one table's chain from genesis to its checkpoint's event, a chunk at
 * a time, and holds the table if anything was found (even when stopped part
 * way: what was found is real).  0 when walked to the end, 1 when stopped
 * part way, -1 on a failure to read or to hold (logged).
 */
static int
walk_table(struct startup_walk *w, struct store *s, const struct startup_backlog_entry *b, bool *held)
{
	struct chain_walk cw;
	struct pb_error err;
	json_t *problems = json_array();
	size_t seen = 0;
	int rc = 0;

	*held = false;
	if (problems == NULL) {
		log_error("start-up integrity check: the background walk cannot check table %s: out of memory", b->table_id);
		return -1;
	}
	chain_walk_init(&cw, b->table_id, 1, CHAIN_GENESIS, b->to);
	while (!cw.done) {
		int64_t before = cw.walked;

		if (stop_asked(w)) {
			rc = 1;
			break;
		}
		if (chain_walk_step(s, &cw, w->chunk, problems, &err) < 0) {
			log_error("start-up integrity check: the background walk cannot %s table %s at event %lld: %s",
			    pb_is_oom(&err) ? "check" : "read", b->table_id, (long long)cw.next, err.message);
			rc = -1;
			/*
			 * A chain that cannot be read cannot be vouched for: the table goes on hold, as for an
			 * altered one.  Out of memory says nothing of the chain: the walk fails (its state says
			 * so), and what it found is not taken, for it may be a misreading.
			 */
			if (pb_is_oom(&err)) {
				json_decref(problems);
				return -1;
			}
			audit_unchecked(problems, b->table_id, 0, cw.next, "events from %lld cannot be read (%s); the file is "
			    "damaged or the disk fails: restore the last backup", (long long)cw.next, err.message);
			break;
		}
		w->walked += cw.walked - before;
		progress_add(cw.walked - before, (int64_t)(json_array_size(problems) - seen), false, false);
		seen = json_array_size(problems);
		pause_between_chunks(w);
	}
	if (hold_if_failed(s, b->table_id, problems, held) < 0)
		rc = -1;
	json_decref(problems);
	return rc;
}

/* The walk in file order's state: each backlog table's own walk, its problems, and whether it was set aside. */
struct file_walk {
	const struct startup_walk *w;
	struct chain_walk *cw;
	json_t **problems;
	bool *aside;                    /* out of chain order: walked by its index afterwards */
	int left;                       /* tables neither done nor set aside */
	int at;                         /* the table of the event before (the likeliest next) */
	int64_t checked, found;         /* this chunk's events checked and problems found */
};

/*
 * One event in file order, fed to its table's walk when that table is in the
 * backlog, not done and not set aside; an event out of chain order sets its
 * table aside.  1 once every table is done or aside (the pass can end), -1
 * when the event could not be checked (out of memory).
 */
static int
file_walk_event(void *ctx, const struct stored_event *e, struct pb_error *err)
{
	struct file_walk *f = ctx;
	size_t before;
	int i = f->at;

	/* The tables' events interleave: the table of the event before is the likeliest. */
	if (strcmp(f->w->backlog[i].table_id, e->table_id) != 0) {
		for (i = 0; i < f->w->count && strcmp(f->w->backlog[i].table_id, e->table_id) != 0; i++)
			;
		if (i == f->w->count)
			return 0;
		f->at = i;
	}
	if (f->cw[i].done || f->aside[i])
		return 0;
	if (e->table_seq != f->cw[i].next) {
		f->aside[i] = true;
		return --f->left == 0 ? 1 : 0;
	}
	before = json_array_size(f->problems[i]);
	if (chain_walk_event(&f->cw[i], e, f->problems[i], err) < 0)
		return -1;
	f->checked++;
	f->found += (int64_t)(json_array_size(f->problems[i]) - before);
	if (f->cw[i].done && --f->left == 0)
		return 1;
	return 0;
}

/*
 * The walk in file order: one pass over the events in rowid order (the order
 * they were written, so the pages of the file are read once and in turn),
 * each event of a backlog table fed to that table's own walk with its running
 * hash (chain_walk_event), the pass ending when every table has reached its
 * checkpoint's event.  A table whose events do not come in chain order (a
 * number skipped or repeated: deleted, inserted or moved rows) is left to
 * walk_table afterwards, which reads it by its index and names the problems
 * exactly as the walk by table always has; so is one whose checkpoint's
 * event never came.  Problems of the tables walked here hold them as
 * walk_table's do.  0 when every table was walked to the end, 1 when stopped
 * part way, -1 on a failure to read or to hold (logged); *done and *held
 * count the tables.
 */
static int
walk_file_order(struct startup_walk *w, struct store *s, int *done, int *held)
{
	struct chain_walk *cw = calloc((size_t)w->count, sizeof(*cw));
	json_t **problems = calloc((size_t)w->count, sizeof(*problems));
	bool *aside = calloc((size_t)w->count, sizeof(*aside));
	struct file_walk f = {.w = w, .cw = cw, .problems = problems, .aside = aside, .left = w->count};
	struct pb_error err;
	int64_t last_id = 0;
	int rc = 0;

	*done = *held = 0;
	if (cw == NULL || problems == NULL || aside == NULL) {
		log_error("start-up integrity check: the background walk cannot start: out of memory");
		rc = -1;
		goto out;
	}
	for (int i = 0; i < w->count; i++) {
		chain_walk_init(&cw[i], w->backlog[i].table_id, 1, CHAIN_GENESIS, w->backlog[i].to);
		if ((problems[i] = json_array()) == NULL) {
			log_error("start-up integrity check: the background walk cannot start: out of memory");
			rc = -1;
			goto out;
		}
	}
	while (f.left > 0) {
		int64_t from = last_id;
		int r;

		if (stop_asked(w)) {
			rc = 1;
			break;
		}
		f.checked = f.found = 0;
		r = store_events_after_each(s, from, w->chunk, file_walk_event, &f, &last_id, &err);
		w->walked += f.checked;
		progress_add(f.checked, f.found, false, false);
		if (r < 0 && pb_is_oom(&err)) {
			log_error("start-up integrity check: the background walk cannot check the events after %lld: out of memory",
			    (long long)from);
			rc = -1;
			goto out;
		}
		if (r < 0) {
			/* The tables not yet whole are walked by walk_table below, which holds what it cannot read. */
			log_error("start-up integrity check: the background walk cannot read the events after %lld in file order (%s); "
			    "the tables not yet walked are read one at a time", (long long)from, err.message);
			break;
		}
		if (r > 0 || last_id == from)
			break;
		pause_between_chunks(w);
	}
	for (int i = 0; i < w->count; i++) {
		bool h = false;
		int r;

		if (rc > 0) {
			/* Stopped: what was found is real, and holds its table; the rest waits for the next start. */
			if (!aside[i] && hold_if_failed(s, w->backlog[i].table_id, problems[i], &h) < 0)
				rc = -1;
			*held += h;
			progress_add(0, 0, false, h);
			continue;
		}
		if (cw[i].done && !aside[i]) {
			r = hold_if_failed(s, w->backlog[i].table_id, problems[i], &h) < 0 ? -1 : 0;
		} else {
			/* Out of chain order, or short of its checkpoint: by its index, its file-order part taken back. */
			w->walked -= cw[i].walked;
			progress_add(-cw[i].walked, -(int64_t)json_array_size(problems[i]), false, false);
			r = walk_table(w, s, &w->backlog[i], &h);
		}
		*held += h;
		progress_add(0, 0, r == 0, h);
		if (r == 0)
			(*done)++;
		else if (rc == 0)
			rc = r;
	}
out:
	for (int i = 0; problems != NULL && i < w->count; i++)
		json_decref(problems[i]);
	free(problems);
	free(cw);
	free(aside);
	return rc;
}

/* Tells startup_walk_wait that the thread is done. */
static void
walk_ended(struct startup_walk *w)
{
	pthread_mutex_lock(&w->lock);
	w->ended = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* The walk's thread: every table of the backlog in turn, on a connection of its own. */
static void *
walk_main(void *arg)
{
	struct startup_walk *w = arg;
	struct store_options so = {0};
	struct store *s;
	struct pb_error err;
	int64_t t0 = monotonic_ms();
	enum startup_state end = STARTUP_DONE;
	int done = 0, held = 0, rc;
	double secs;

	if (pb_lower_thread_priority(STARTUP_WALK_NICE) < 0)
		log_warn("start-up integrity check: cannot lower the background walk's priority; it runs at the daemon's");
	so.path = w->database;
	so.synchronous = w->synchronous;
	s = store_open(&so, &err);
	if (s == NULL) {
		log_error("start-up integrity check: the background walk cannot open the database: %s", err.message);
		progress_finish(STARTUP_FAILED);
		walk_ended(w);
		return NULL;
	}
	log_info("start-up integrity check: walking the %lld events before the last checkpoints of %d table(s) in the background",
	    (long long)w->events, w->count);
	rc = walk_file_order(w, s, &done, &held);
	if (rc != 0)
		end = rc > 0 ? STARTUP_STOPPED : STARTUP_FAILED;
	store_free(s);
	secs = (double)(monotonic_ms() - t0) / 1000.0;
	if (end == STARTUP_STOPPED)
		log_info("start-up integrity check: the background walk stopped with the daemon after %lld of %lld events "
		    "(%d of %d table(s)) in %.1f s; it starts again at the next start",
		    (long long)w->walked, (long long)w->events, done, w->count, secs);
	else if (end == STARTUP_FAILED)
		log_error("start-up integrity check: the background walk could not finish (%d of %d table(s) checked in %.1f s); "
		    "see the errors above", done, w->count, secs);
	else if (held > 0)
		log_error("start-up integrity check: %d table(s) failed and are on hold until a pit boss acknowledges; "
		    "see GET /api/v1/integrity (background walk: %lld events of %d table(s) in %.1f s)",
		    held, (long long)w->walked, w->count, secs);
	else
		log_info("start-up integrity check: done; the %lld events before the last checkpoints of %d table(s) are intact "
		    "(background walk: %.1f s, %.0f events/s)", (long long)w->walked, w->count, secs,
		    secs > 0 ? (double)w->walked / secs : 0.0);
	/* Last, so that whoever sees the check finished also finds its lines in the log. */
	progress_finish(end);
	walk_ended(w);
	return NULL;
}

int
startup_walk_start(const struct startup_walk_options *o, struct startup_result *r, struct startup_walk **out,
    struct pb_error *err)
{
	struct startup_walk *w;
	pthread_condattr_t ca;

	*out = NULL;
	if (r->backlog_count == 0)
		return 0;
	w = calloc(1, sizeof(*w));
	if (w == NULL)
		return pb_oom(err);
	snprintf(w->database, sizeof(w->database), "%s", o->database);
	snprintf(w->synchronous, sizeof(w->synchronous), "%s", o->synchronous ? o->synchronous : "FULL");
	w->pause_ms = o->pause_ms;
	w->chunk = o->chunk > 0 ? o->chunk : STARTUP_WALK_CHUNK;
	w->backlog = r->backlog;
	w->count = r->backlog_count;
	w->events = r->backlog_events;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&w->thread, NULL, walk_main, w) != 0) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		free(w);
		progress_finish(STARTUP_FAILED);
		return pb_fail(err, 500, "internal_error", "cannot start the background integrity walk");
	}
	r->backlog = NULL;
	r->backlog_count = 0;
	*out = w;
	return 0;
}

bool
startup_walk_wait(struct startup_walk *w, int timeout_ms)
{
	struct timespec until;
	bool ended;

	if (w == NULL)
		return true;
	pb_deadline_in(CLOCK_MONOTONIC, timeout_ms > 0 ? timeout_ms : 0, &until);
	pthread_mutex_lock(&w->lock);
	while (!w->ended && pthread_cond_timedwait(&w->cond, &w->lock, &until) != ETIMEDOUT)
		;
	ended = w->ended;
	pthread_mutex_unlock(&w->lock);
	return ended;
}

void
startup_walk_free(struct startup_walk *w)
{
	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	free(w->backlog);
	free(w);
}
