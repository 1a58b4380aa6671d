/*
 * authlog.c - failed sign-ins counted in memory, written as bounded
 * significant events (people.h).
 */
#include "table/people/people.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "common/hash.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "store/audit.h"
#include "store/store.h"

#define ADDR_LEN 46 /* INET6_ADDRSTRLEN */

struct addr_count {
	uint64_t hash;
	uint64_t failures;
	uint64_t over;            /* how much failures may overstate (the count of the address it replaced) */
	char addr[ADDR_LEN];
};

struct pending_lockout {
	char addr[ADDR_LEN];
	unsigned failures;
	unsigned seconds;
	int64_t at_ms;
};

/* One summary's minute. */
struct window {
	int64_t first_ms;         /* its first failure; 0: nothing noted */
	int64_t last_ms;
	uint64_t failures, while_locked, served_while_locked, lockouts, lockouts_unrecorded;
	uint64_t replaced;        /* addresses that took the place of another (the count of addresses is then a bound) */
	size_t used;
	struct addr_count addrs[AUTHLOG_ADDRS];
};

static pthread_mutex_t authlog_lock = PTHREAD_MUTEX_INITIALIZER;
static struct window current;
static struct pending_lockout pending[AUTHLOG_LOCKOUTS_PER_MINUTE];
static size_t pending_n;
static int64_t lockout_window_ms;
static unsigned lockouts_in_window;

/* Opens the minute at now when none is open. Call with authlog_lock held. */
static void
window_touch(int64_t now_ms)
{
	if (current.first_ms == 0)
		current.first_ms = now_ms;
	current.last_ms = now_ms;
}

/* The count of client in the minute: found, a free place, or the place of the address that failed least. */
static struct addr_count *
addr_slot(const char *client)
{
	uint64_t h = pb_str_hash(client);
	struct addr_count *least = NULL;

	for (size_t i = 0; i < current.used; i++)
		if (current.addrs[i].hash == h && strcmp(current.addrs[i].addr, client) == 0)
			return &current.addrs[i];
	if (current.used < AUTHLOG_ADDRS) {
		least = &current.addrs[current.used++];
		memset(least, 0, sizeof(*least));
	} else {
		least = &current.addrs[0];
		for (size_t i = 1; i < AUTHLOG_ADDRS; i++)
			if (current.addrs[i].failures < least->failures)
				least = &current.addrs[i];
		least->over = least->failures;
		current.replaced++;
	}
	least->hash = h;
	snprintf(least->addr, sizeof(least->addr), "%s", client);
	return least;
}

void
authlog_failure(const char *client, bool while_locked, int64_t now_ms)
{
	pthread_mutex_lock(&authlog_lock);
	window_touch(now_ms);
	current.failures++;
	if (while_locked)
		current.while_locked++;
	addr_slot(client)->failures++;
	pthread_mutex_unlock(&authlog_lock);
}

void
authlog_lockout(const char *client, unsigned failures, unsigned seconds, int64_t now_ms)
{
	pthread_mutex_lock(&authlog_lock);
	window_touch(now_ms);
	current.lockouts++;
	if (now_ms - lockout_window_ms >= AUTHLOG_SUMMARY_MS) {
		lockout_window_ms = now_ms;
		lockouts_in_window = 0;
	}
	if (lockouts_in_window < AUTHLOG_LOCKOUTS_PER_MINUTE && pending_n < AUTHLOG_LOCKOUTS_PER_MINUTE) {
		struct pending_lockout *l = &pending[pending_n++];
		lockouts_in_window++;
		snprintf(l->addr, sizeof(l->addr), "%s", client);
		l->failures = failures;
		l->seconds = seconds;
		l->at_ms = now_ms;
	} else {
		current.lockouts_unrecorded++;
	}
	pthread_mutex_unlock(&authlog_lock);
}

void
authlog_served_while_locked(int64_t now_ms)
{
	pthread_mutex_lock(&authlog_lock);
	window_touch(now_ms);
	current.served_while_locked++;
	pthread_mutex_unlock(&authlog_lock);
}

void
authlog_reset(void)
{
	pthread_mutex_lock(&authlog_lock);
	memset(&current, 0, sizeof(current));
	pending_n = 0;
	lockout_window_ms = 0;
	lockouts_in_window = 0;
	pthread_mutex_unlock(&authlog_lock);
}

/* The AUTHLOG_TOP addresses of w that failed most (most first, then by address), as a JSON array. */
static json_t *
top_addresses(struct window *w)
{
	json_t *top = json_array();
	bool taken[AUTHLOG_ADDRS] = {false};

	for (int k = 0; k < AUTHLOG_TOP && top != NULL; k++) {
		struct addr_count *best = NULL;
		size_t bi = 0;
		json_t *o;
		for (size_t i = 0; i < w->used; i++) {
			struct addr_count *a = &w->addrs[i];
			if (taken[i] || a->failures == 0)
				continue;
			if (best == NULL || a->failures > best->failures ||
			    (a->failures == best->failures && strcmp(a->addr, best->addr) < 0)) {
				best = a;
				bi = i;
			}
		}
		if (best == NULL)
			break;
		taken[bi] = true;
		o = json_pack("{s:s,s:I}", "client", best->addr, "failures", (json_int_t)best->failures);
		if (o != NULL && best->over > 0)
			json_object_set_new(o, "failures_at_least", json_integer((json_int_t)(best->failures - best->over)));
		json_array_append_new(top, o);
	}
	return top;
}

/* The summary event's detail. */
static json_t *
summary_detail(struct window *w)
{
	char from[PB_TIME_LEN], to[PB_TIME_LEN];

	pb_time_format_ms(w->first_ms, from);
	pb_time_format_ms(w->last_ms, to);
	return json_pack("{s:s,s:s,s:I,s:I,s:I,s:b,s:I,s:I,s:I,s:o}", "from", from, "to", to,
	    "failures", (json_int_t)w->failures, "failures_while_locked", (json_int_t)w->while_locked,
	    "addresses", (json_int_t)(w->used + w->replaced), "addresses_exact", w->replaced == 0,
	    "lockouts", (json_int_t)w->lockouts, "lockouts_not_recorded", (json_int_t)w->lockouts_unrecorded,
	    "served_while_locked", (json_int_t)w->served_while_locked, "top", top_addresses(w));
}

/* The summary's log line: the counts and the three addresses that failed most. */
static void
log_summary(struct window *w, const json_t *detail, const char *outcome)
{
	const json_t *top = json_object_get(detail, "top");
	char names[3 * (ADDR_LEN + 24)] = "";
	size_t i, len = 0;
	const json_t *o;

	json_array_foreach(top, i, o) {
		if (i >= 3)
			break;
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s (%" PRId64 ")", i ? ", " : "",
		    json_string_value(json_object_get(o, "client")), (int64_t)json_integer_value(json_object_get(o, "failures")));
	}
	log_warn("auth: %" PRIu64 " failed sign-ins from %s%" PRIu64 " addresses since %s (most: %s), %" PRIu64
	    " lockouts%s", w->failures, w->replaced ? "at most " : "", (uint64_t)(w->used + w->replaced),
	    json_string_value(json_object_get(detail, "from")), len ? names : "none", w->lockouts, outcome);
}

/* Writes the lockouts and (when w is not NULL) the summary in one transaction. */
static int
write_events(struct store *s, const struct pending_lockout *l, size_t n, json_t *summary, struct pb_error *err)
{
	if (store_begin(s, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char at[PB_TIME_LEN];
		json_t *d;
		int rc;
		pb_time_format_ms(l[i].at_ms, at);
		d = json_pack("{s:s,s:i,s:i,s:s}", "client", l[i].addr, "failures", (int)l[i].failures, "lockout_seconds",
		    (int)l[i].seconds, "locked_at", at);
		rc = d ? store_significant(s, l[i].addr, "auth_lockout", NULL, d, err) : pb_oom(err);
		json_decref(d);
		if (rc < 0)
			goto fail;
	}
	if (summary != NULL && store_significant(s, "pitbossd", "auth_failures", NULL, summary, err) < 0)
		goto fail;
	return store_commit(s, err);
fail:
	store_rollback(s);
	return -1;
}

int
authlog_flush(struct pit *p, bool at_stop, int64_t now_ms, struct pb_error *err)
{
	static struct window w;           /* the main thread's alone: only it flushes */
	struct pending_lockout l[AUTHLOG_LOCKOUTS_PER_MINUTE];
	size_t n;
	bool due;
	json_t *summary = NULL;
	int rc;

	pthread_mutex_lock(&authlog_lock);
	n = pending_n;
	memcpy(l, pending, n * sizeof(l[0]));
	pending_n = 0;
	due = current.first_ms != 0 && (at_stop || now_ms - current.first_ms >= AUTHLOG_SUMMARY_MS);
	if (due) {
		w = current;
		memset(&current, 0, sizeof(current));
	}
	pthread_mutex_unlock(&authlog_lock);
	if (n == 0 && !due)
		return 0;
	if (due && (summary = summary_detail(&w)) == NULL)
		return pb_oom(err);
	rc = write_events(p->store, l, n, summary, err);
	if (due)
		log_summary(&w, summary, rc < 0 ? " (NOT RECORDED)" : "");
	if (rc < 0)
		log_error("auth: recording %zu lockout%s%s failed: %s", n, n == 1 ? "" : "s", due ? " and the summary" : "",
		    err->message);
	json_decref(summary);
	return rc;
}
