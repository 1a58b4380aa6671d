/*
 * pg.c - libpq helpers of the central layer: connecting, running a
 * statement with bound parameters, rolling back.  Every value is bound
 * (PQsendQueryParams); no SQL text is ever made from data.
 *
 * Nothing here waits on the network without a deadline: the connection is
 * made with PQconnectStartParams/PQconnectPoll and each statement sent with
 * PQsendQueryParams and read with PQconsumeInput, both through poll() with
 * what is left of the deadline.  A server-side statement_timeout and TCP
 * keepalives do not see a path that silently drops bytes (the server never
 * receives the statement; a proxy's kernel still answers keepalives), so
 * the deadline is the client's own: past it the connection is marked
 * broken (every later statement on it fails at once) and its owner closes
 * it and opens another on its next attempt.  The server is also told the
 * same statement_timeout, so that a statement waiting there on a lock is
 * ended by the server too (no cancel request is sent: PQcancel can block
 * without bound on the very path that failed).
 */
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-events.h>

#include "central/central_int.h"

#define CONNECT_DEADLINE_MS 5000         /* when the caller gives no deadline: the old connect_timeout */

/* What a connection carries (PQinstanceData of watch_event). */
struct pg_watch {
	int deadline_ms;                 /* per statement; 0: none */
	_Atomic int64_t *running_since;  /* the start (central_monotonic_ms) of the statement under way, 0 when none */
	bool broken;                     /* a deadline passed: unusable, to be closed */
};

/* libpq's message without its trailing newline, into err. */
static int
fail_pg(struct pb_error *err, const char *what, const char *msg)
{
	size_t n = strlen(msg);

	while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		n--;
	return pb_fail(err, 503, "central_unavailable", "%s: %.*s", what, (int)n, msg);
}

/* The server's notices ("already exists, skipping") are not for the operator. */
static void
quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* Frees a connection's pg_watch with it. */
static int
watch_event(PGEventId id, void *info, void *pass)
{
	(void)pass;
	if (id == PGEVT_CONNDESTROY) {
		PGconn *c = ((PGEventConnDestroy *)info)->conn;
		free(PQinstanceData(c, watch_event));
	}
	return 1;
}

int64_t
central_monotonic_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * Waits until the socket is ready for events or the deadline (monotonic
 * ms; 0: none) passes: 1 ready, 0 the deadline passed, -1 poll failed.
 */
static int
wait_socket(int fd, short events, int64_t deadline)
{
	struct pollfd p = {.fd = fd, .events = events};

	for (;;) {
		int left = -1, n;
		if (deadline > 0) {
			int64_t now = central_monotonic_ms();
			if (now >= deadline)
				return 0;
			left = (int)(deadline - now);
		}
		n = poll(&p, 1, left);
		if (n > 0)
			return 1;
		if (n == 0)
			return 0;
		if (errno != EINTR)
			return -1;
	}
}

PGconn *
central_connect(const char *conninfo, struct pb_error *err)
{
	return central_connect_within(conninfo, 0, NULL, err);
}

/* Sets the server's statement_timeout to the client's deadline, so that the server ends a statement waiting there. */
static int
tell_server(PGconn *c, int deadline_ms, struct pb_error *err)
{
	char ms[24];
	const char *p[1] = {ms};

	snprintf(ms, sizeof(ms), "%d", deadline_ms);
	return central_exec(c, "SELECT set_config('statement_timeout', $1, false)", 1, p, NULL, err);
}

PGconn *
central_connect_within(const char *conninfo, int deadline_ms, _Atomic int64_t *running_since, struct pb_error *err)
{
	/* expand_dbname: the conninfo's own keys come after these, so its own win */
	const char *const keys[] = {"application_name", "dbname", NULL};
	const char *const vals[] = {"pitboss", conninfo, NULL};
	int64_t deadline = central_monotonic_ms() + (deadline_ms > 0 ? deadline_ms : CONNECT_DEADLINE_MS);
	PostgresPollingStatusType ps = PGRES_POLLING_WRITING;
	struct pg_watch *w = NULL;
	PGconn *c = PQconnectStartParams(keys, vals, 1);

	if (c == NULL) {
		pb_oom(err);
		return NULL;
	}
	if (PQstatus(c) == CONNECTION_BAD) {
		fail_pg(err, "connecting to the central server", PQerrorMessage(c));
		goto fail;
	}
	while (ps != PGRES_POLLING_OK) {
		int ready;
		if (ps == PGRES_POLLING_FAILED) {
			fail_pg(err, "connecting to the central server", PQerrorMessage(c));
			goto fail;
		}
		ready = wait_socket(PQsocket(c), ps == PGRES_POLLING_READING ? POLLIN : POLLOUT, deadline);
		if (ready <= 0) {
			pb_fail(err, 503, "central_unavailable", "connecting to the central server: no answer within %d ms",
			    deadline_ms > 0 ? deadline_ms : CONNECT_DEADLINE_MS);
			goto fail;
		}
		ps = PQconnectPoll(c);
	}
	PQsetNoticeProcessor(c, quiet, NULL);
	if ((w = calloc(1, sizeof(*w))) == NULL || !PQregisterEventProc(c, watch_event, "pitboss", NULL) ||
	    !PQsetInstanceData(c, watch_event, w)) {
		free(w);
		pb_oom(err);
		goto fail;
	}
	w->deadline_ms = deadline_ms;
	w->running_since = running_since;
	if (PQsetnonblocking(c, 1) != 0) {
		fail_pg(err, "connecting to the central server", PQerrorMessage(c));
		goto fail;
	}
	if (deadline_ms > 0 && tell_server(c, deadline_ms, err) < 0)
		goto fail;
	return c;
fail:
	PQfinish(c);
	return NULL;
}

/* Marks the connection broken once its deadline passed: err says so. */
static int
expired(PGconn *c, struct pg_watch *w, struct pb_error *err)
{
	w->broken = true;
	(void)c;
	return pb_fail(err, 503, "central_unavailable", "central server: no answer within %d ms (statement deadline; "
	    "the connection is closed and opened again)", w->deadline_ms);
}

/* Sends what libpq holds of the statement (non-blocking mode), reading what arrives meanwhile. */
static int
flush_within(PGconn *c, struct pg_watch *w, int64_t deadline, struct pb_error *err)
{
	for (;;) {
		int f = PQflush(c), ready;
		if (f == 0)
			return 0;
		if (f < 0)
			return fail_pg(err, "central server", PQerrorMessage(c));
		ready = wait_socket(PQsocket(c), POLLIN | POLLOUT, deadline);
		if (ready == 0)
			return expired(c, w, err);
		if (ready < 0 || !PQconsumeInput(c))
			return fail_pg(err, "central server", PQerrorMessage(c));
	}
}

/* Reads the statement's results within the deadline: the first failed one, else the last (NULL: none). */
static int
results_within(PGconn *c, struct pg_watch *w, int64_t deadline, PGresult **out, struct pb_error *err)
{
	PGresult *keep = NULL, *r;

	*out = NULL;
	for (;;) {
		while (PQisBusy(c)) {
			int ready = wait_socket(PQsocket(c), POLLIN, deadline);
			if (ready == 0) {
				PQclear(keep);
				return expired(c, w, err);
			}
			if (ready < 0 || !PQconsumeInput(c)) {
				PQclear(keep);
				return fail_pg(err, "central server", PQerrorMessage(c));
			}
		}
		if ((r = PQgetResult(c)) == NULL)
			break;
		if (keep != NULL && (PQresultStatus(keep) == PGRES_FATAL_ERROR || PQresultStatus(keep) == PGRES_NONFATAL_ERROR)) {
			PQclear(r);
			continue;
		}
		PQclear(keep);
		keep = r;
	}
	*out = keep;
	return 0;
}

int
central_exec(PGconn *c, const char *sql, int n, const char *const *params, PGresult **res, struct pb_error *err)
{
	struct pg_watch *w = PQinstanceData(c, watch_event);
	struct pg_watch none = {0};
	int64_t deadline;
	PGresult *r = NULL;
	ExecStatusType st;

	if (res != NULL)
		*res = NULL;
	if (w == NULL)
		w = &none;
	if (w->broken)
		return pb_fail(err, 503, "central_unavailable", "central server: the connection passed its deadline");
	deadline = w->deadline_ms > 0 ? central_monotonic_ms() + w->deadline_ms : 0;
	if (w->running_since != NULL)
		atomic_store(w->running_since, central_monotonic_ms());
	if (!PQsendQueryParams(c, sql, n, NULL, params, NULL, NULL, 0)) {
		fail_pg(err, "central server", PQerrorMessage(c));
		goto done;
	}
	if (flush_within(c, w, deadline, err) < 0 || results_within(c, w, deadline, &r, err) < 0)
		goto done;
	st = r != NULL ? PQresultStatus(r) : PGRES_FATAL_ERROR;
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		fail_pg(err, "central server", r != NULL ? PQresultErrorMessage(r) : PQerrorMessage(c));
		PQclear(r);
		r = NULL;
		goto done;
	}
	if (w->running_since != NULL)
		atomic_store(w->running_since, 0);
	if (res != NULL)
		*res = r;
	else
		PQclear(r);
	return 0;
done:
	if (w->running_since != NULL)
		atomic_store(w->running_since, 0);
	return -1;
}

void
central_rollback(PGconn *c)
{
	struct pg_watch *w = PQinstanceData(c, watch_event);
	struct pb_error ignored;

	if (w != NULL && w->broken)
		return;
	if (PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
		central_exec(c, "ROLLBACK", 0, NULL, NULL, &ignored);
}

int
central_ensure_property(PGconn *c, const char *property, struct pb_error *err)
{
	const char *p[1] = {property};

	return central_exec(c, "SELECT pitboss.ensure_property($1)", 1, p, NULL, err);
}

/* The single integer a query answers (0 for NULL). */
static int
query_int64(PGconn *c, const char *sql, int n, const char *const *p, int64_t *out, struct pb_error *err)
{
	PGresult *r;

	*out = 0;
	if (central_exec(c, sql, n, p, &r, err) < 0)
		return -1;
	if (PQntuples(r) == 1 && !PQgetisnull(r, 0, 0))
		*out = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	return 0;
}

int
central_chain_end(PGconn *c, const char *property, const char *table_id, int64_t *seq, struct pb_error *err)
{
	const char *p[2] = {property, table_id};

	/* the primary key's index, read backwards: one probe however long the chain */
	return query_int64(c, "SELECT table_seq FROM pitboss.events WHERE property = $1 AND table_id = $2 "
	    "ORDER BY table_seq DESC LIMIT 1", 2, p, seq, err);
}

int
central_checkpoints_position(PGconn *c, const char *property, int64_t *local_id, struct pb_error *err)
{
	const char *p[1] = {property};

	return query_int64(c, "SELECT local_id FROM pitboss.checkpoints WHERE property = $1 ORDER BY local_id DESC LIMIT 1",
	    1, p, local_id, err);
}
