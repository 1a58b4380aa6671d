/*
 * metrics.c - GET /metrics in the Prometheus text format: requests by route
 * and status class, a latency histogram, rounds recorded, refusals by code,
 * report answers from the cache or computed, stored idempotency answers
 * pruned, the database's size on disk, the start-up integrity check.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/version.h"
#include "http/report_cache.h"
#include "http/routes.h"
#include "http/watchdog.h"
#include "table/ops/ops.h"

const char *const api_route_names[METRIC_ROUTES] = {
	[ROUTE_OTHER] = "other", [ROUTE_HEALTH] = "health", [ROUTE_METRICS] = "metrics",
	[ROUTE_TABLES] = "tables", [ROUTE_TABLE] = "table", [ROUTE_TABLE_STATUS] = "table_status",
	[ROUTE_TABLE_LIMITS] = "table_limits", [ROUTE_TABLE_ROUNDS] = "table_rounds",
	[ROUTE_TABLE_BANKERS] = "table_bankers", [ROUTE_ROUND] = "round", [ROUTE_ROUND_BET] = "round_bet",
	[ROUTE_ROUND_STEP] = "round_step", [ROUTE_ROUND_VERIFY] = "round_verify", [ROUTE_REPORTS] = "reports",
	[ROUTE_EVENTS] = "events", [ROUTE_INTEGRITY] = "integrity", [ROUTE_CHECKPOINTS] = "checkpoints",
	[ROUTE_STATIC] = "static", [ROUTE_READY] = "ready", [ROUTE_PEOPLE] = "people", [ROUTE_SESSIONS] = "sessions",
	[ROUTE_ACCOUNTING] = "accounting",
};

static const double LATENCY_BOUNDS_S[] = {
	0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
};

void
record_refusal(struct app *app, const struct http_answer *ans)
{
	json_t *e = json_object_get(json_object_get(ans->json, "error"), "code");
	const char *code = json_is_string(e) ? json_string_value(e) : "unknown";
	int i;

	pthread_mutex_lock(&app->refusal_lock);
	for (i = 0; i < app->refusal_kinds; i++)
		if (strcmp(app->refusals[i].code, code) == 0 && app->refusals[i].status == ans->status)
			break;
	if (i == app->refusal_kinds && i < METRIC_REFUSAL_CODES) {
		snprintf(app->refusals[i].code, sizeof(app->refusals[i].code), "%s", code);
		app->refusals[i].status = ans->status;
		app->refusal_kinds++;
	}
	if (i < METRIC_REFUSAL_CODES)
		app->refusals[i].count++;
	pthread_mutex_unlock(&app->refusal_lock);
}

/* Appends printf output to a growing buffer. */
static void
emit(char **buf, size_t *len, size_t *cap, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
emit(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < *cap - *len) {
			*len += (size_t)n;
			return;
		}
		*cap *= 2;
		*buf = realloc(*buf, *cap);
		if (*buf == NULL)
			abort();
	}
}

static long long
file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/*
 * The shipper's watch over the central server (docs/central.md, "Roles" and
 * "Conflicts"): whether its role can read other properties' rows, and the
 * fact rows found there that are not this property's own.
 */
static void
emit_central_integrity(struct app *app, char **buf, size_t *len, size_t *cap)
{
	struct shipping_status st;

	if (app->shipping == NULL)
		return;
	app->shipping(app->shipping_arg, NULL, &st);   /* no lag needed here */
	emit(buf, len, cap, "# HELP pitboss_central_role_sees_other_properties Whether the shipper's central role escapes "
	    "row-level security (it can read and write every property's rows).\n"
	    "# TYPE pitboss_central_role_sees_other_properties gauge\npitboss_central_role_sees_other_properties %d\n"
	    "# HELP pitboss_central_conflicts_total Report fact rows found on the central server that are not this "
	    "property's own (never taken as the position).\n"
	    "# TYPE pitboss_central_conflicts_total counter\npitboss_central_conflicts_total %lld\n",
	    st.role_sees_others ? 1 : 0, (long long)st.conflicts);
}

/*
 * /ready's reasons about the central tier: the shipper found rows on the
 * central server that are not this property's own (its central record is
 * not what it sent), or shipping is stalled (events wait and the server has
 * not answered for longer than the deadline; the lag read from reader, the
 * request's own connection, never from the shipper's thread).
 */
static void
central_ready_reasons(struct app *app, struct store *reader, json_t *reasons)
{
	struct shipping_status st;
	char text[600];

	if (app->shipping == NULL)
		return;
	app->shipping(app->shipping_arg, reader, &st);
	if (st.conflicts > 0) {
		snprintf(text, sizeof(text), "central: %lld report fact row%s on the central server not this property's "
		    "own (the last: %s); see the significant events central_conflict", (long long)st.conflicts,
		    st.conflicts == 1 ? "" : "s", st.last_conflict);
		json_array_append_new(reasons, json_string(text));
	}
	if (st.stalled_seconds > 0) {
		snprintf(text, sizeof(text), "central: shipping stalled for %.0f s: %lld event%s not yet acknowledged by "
		    "the central server (the oldest %.0f s old); %s%s", st.stalled_seconds, (long long)st.lag_events,
		    st.lag_events == 1 ? "" : "s", st.lag_seconds,
		    st.last_error[0] != '\0' ? "the last failure: " : "a statement has waited past its deadline",
		    st.last_error);
		json_array_append_new(reasons, json_string(text));
	}
}

/* The start-up integrity check's progress (table/ops/ops.h): cheap to read while its background walk runs. */
/*
 * The shipper to the central tier (docs/central.md), when configured: its
 * lag in events and seconds (read now from the record through this
 * thread's connection, never from the shipper's thread, so that it grows
 * while the shipper waits on the network), its failures, and the last
 * error as a label.
 */
static void
emit_central(struct app *app, char **buf, size_t *len, size_t *cap)
{
	struct shipping_status st;
	struct pb_error err;
	char msg[2 * sizeof(st.last_error)];
	size_t n = 0;

	if (app->shipping == NULL)
		return;
	app->shipping(app->shipping_arg, app_thread_store(app, &err), &st);
	emit(buf, len, cap, "# HELP pitboss_central_lag_events Events recorded and not yet acknowledged by the central server.\n"
	    "# TYPE pitboss_central_lag_events gauge\npitboss_central_lag_events %lld\n"
	    "# HELP pitboss_central_lag_seconds Age of the oldest event not yet acknowledged by the central server.\n"
	    "# TYPE pitboss_central_lag_seconds gauge\npitboss_central_lag_seconds %.3f\n"
	    "# HELP pitboss_central_shipped_events The id of the last event the central server acknowledged.\n"
	    "# TYPE pitboss_central_shipped_events gauge\npitboss_central_shipped_events %lld\n"
	    "# HELP pitboss_central_failures_total Failed attempts to ship since start.\n"
	    "# TYPE pitboss_central_failures_total counter\npitboss_central_failures_total %lld\n"
	    "# HELP pitboss_central_up Whether the last attempt reached the central server "
	    "and no statement is past its deadline.\n"
	    "# TYPE pitboss_central_up gauge\npitboss_central_up %d\n"
	    "# HELP pitboss_central_statement_seconds How long the statement under way "
	    "has waited on the central server (0: none).\n"
	    "# TYPE pitboss_central_statement_seconds gauge\npitboss_central_statement_seconds %.3f\n"
	    "# HELP pitboss_central_stalled_seconds How long events have waited with no answer from the central server, "
	    "once past the deadline (0: not stalled).\n"
	    "# TYPE pitboss_central_stalled_seconds gauge\npitboss_central_stalled_seconds %.3f\n",
	    (long long)st.lag_events, st.lag_seconds, (long long)st.shipped_events, (long long)st.failures,
	    st.connected ? 1 : 0, st.statement_seconds, st.stalled_seconds);
	for (const char *c = st.last_error; *c != '\0' && n + 2 < sizeof(msg); c++) {
		if (*c == '\\' || *c == '"')
			msg[n++] = '\\';
		msg[n++] = *c == '\n' ? ' ' : *c;
	}
	msg[n] = '\0';
	emit(buf, len, cap, "# HELP pitboss_central_last_error The last failure to ship (1 while one stands; none since a success).\n"
	    "# TYPE pitboss_central_last_error gauge\n");
	if (n > 0)
		emit(buf, len, cap, "pitboss_central_last_error{message=\"%s\"} 1\n", msg);
}

static void
emit_startup_check(char **buf, size_t *len, size_t *cap)
{
	struct startup_progress p;
	int64_t end;

	startup_progress_get(&p);
	if (p.state == STARTUP_NONE)
		return;
	end = p.state == STARTUP_RUNNING ? pb_time_now_ms() : p.finished_ms;
	emit(buf, len, cap, "# HELP pitboss_startup_check_running 1 while the start-up integrity check runs (its background walk included).\n"
	    "# TYPE pitboss_startup_check_running gauge\npitboss_startup_check_running %d\n"
	    "# HELP pitboss_startup_check_events Events the start-up integrity check walks, by progress.\n"
	    "# TYPE pitboss_startup_check_events gauge\npitboss_startup_check_events{progress=\"checked\"} %lld\n"
	    "pitboss_startup_check_events{progress=\"all\"} %lld\n"
	    "# HELP pitboss_startup_check_problems Problems the start-up integrity check found.\n"
	    "# TYPE pitboss_startup_check_problems gauge\npitboss_startup_check_problems %lld\n"
	    "# HELP pitboss_startup_check_tables_held Tables the start-up integrity check put on hold.\n"
	    "# TYPE pitboss_startup_check_tables_held gauge\npitboss_startup_check_tables_held %d\n"
	    "# HELP pitboss_startup_check_seconds How long the start-up integrity check has run, or ran.\n"
	    "# TYPE pitboss_startup_check_seconds gauge\npitboss_startup_check_seconds %.3f\n",
	    p.state == STARTUP_RUNNING, (long long)p.events_checked, (long long)p.events, (long long)p.problems,
	    p.tables_held, (double)(end - p.started_ms) / 1000.0);
}

void
handle_health(const struct route_call *c, struct http_answer *ans)
{
	(void)c;
	ans->status = 200;
	ans->json = json_pack("{s:s}", "status", "ok");
}

/*
 * GET /api/v1/ready, no token: 200 {"status": "ready"} when a round sent
 * now would be recorded, else 503 {"status": "not_ready", "reasons": [...]}
 * (table/ops/ops.h pit_ready says what is checked).  Health stays liveness.
 */
void
handle_ready(const struct route_call *c, struct http_answer *ans)
{
	struct pit pit = {0};
	struct pb_error err;
	json_t *reasons = NULL;

	pit.cfg = c->app->cfg;
	pit.writer = c->app->writer;
	pit.store = app_thread_store(c->app, &err);
	if (pit.store == NULL || pit_ready(&pit, c->app->database, &reasons, &err) < 0) {
		ans->status = 503;
		ans->json = json_pack("{s:s,s:[s+]}", "status", "not_ready", "reasons", "the database cannot be read: ",
		    err.message);
		return;
	}
	central_ready_reasons(c->app, pit.store, reasons);
	ans->status = json_array_size(reasons) == 0 ? 200 : 503;
	ans->json = ans->status == 200 ? json_pack("{s:s}", "status", "ready") :
	    json_pack("{s:s,s:O}", "status", "not_ready", "reasons", reasons);
	json_decref(reasons);
}

/* The group commit's counters, when writes go through one. */
static void
emit_writer(struct app *app, char **buf, size_t *len, size_t *cap)
{
	struct pit_writer_stats ws;

	if (app->writer == NULL)
		return;
	pit_writer_stats(app->writer, &ws);
	emit(buf, len, cap, "# HELP pitboss_write_groups_total Write transactions of the group commit (one COMMIT each).\n"
	    "# TYPE pitboss_write_groups_total counter\npitboss_write_groups_total %llu\n"
	    "# HELP pitboss_write_jobs_total Writes run in those transactions, each in its savepoint.\n"
	    "# TYPE pitboss_write_jobs_total counter\npitboss_write_jobs_total %llu\n"
	    "# HELP pitboss_write_jobs_failed_total Writes refused or lost with their group.\n"
	    "# TYPE pitboss_write_jobs_failed_total counter\npitboss_write_jobs_failed_total %llu\n"
	    "# HELP pitboss_write_groups_failed_total Write transactions whose COMMIT failed or that SQLite rolled back.\n"
	    "# TYPE pitboss_write_groups_failed_total counter\npitboss_write_groups_failed_total %llu\n"
	    "# HELP pitboss_write_group_largest Most writes committed together so far.\n"
	    "# TYPE pitboss_write_group_largest gauge\npitboss_write_group_largest %llu\n"
	    "# HELP pitboss_write_queued Writes waiting for the next group now.\n"
	    "# TYPE pitboss_write_queued gauge\npitboss_write_queued %d\n",
	    (unsigned long long)ws.groups, (unsigned long long)ws.jobs, (unsigned long long)ws.jobs_failed,
	    (unsigned long long)ws.groups_failed, (unsigned long long)ws.largest_group, ws.queued);
}

/* Requests by route and status class, and the latency histogram. */
static void
emit_http(struct app *app, char **buf, size_t *len, size_t *cap)
{
	struct app_metrics *m = &app->metrics;
	uint64_t cumulative = 0;

	emit(buf, len, cap, "# HELP pitboss_http_requests_total HTTP requests by route and status class.\n"
	    "# TYPE pitboss_http_requests_total counter\n");
	for (int r = 0; r < ROUTE_COUNT; r++)
		for (int c = 1; c <= 5; c++) {
			uint64_t v = atomic_load(&m->requests[r][c]);
			if (v > 0)
				emit(buf, len, cap, "pitboss_http_requests_total{route=\"%s\",status=\"%dxx\"} %llu\n",
				    api_route_names[r] ? api_route_names[r] : "other", c, (unsigned long long)v);
		}
	emit(buf, len, cap, "# HELP pitboss_http_request_duration_seconds Time from the first byte of a request to its answer.\n"
	    "# TYPE pitboss_http_request_duration_seconds histogram\n");
	for (int b = 0; b < METRIC_LATENCY_BUCKETS; b++) {
		cumulative += atomic_load(&m->latency_us_bucket[b]);
		emit(buf, len, cap, "pitboss_http_request_duration_seconds_bucket{le=\"%g\"} %llu\n", LATENCY_BOUNDS_S[b],
		    (unsigned long long)cumulative);
	}
	cumulative += atomic_load(&m->latency_us_bucket[METRIC_LATENCY_BUCKETS]);
	emit(buf, len, cap, "pitboss_http_request_duration_seconds_bucket{le=\"+Inf\"} %llu\n", (unsigned long long)cumulative);
	emit(buf, len, cap, "pitboss_http_request_duration_seconds_sum %.6f\n", (double)atomic_load(&m->latency_us_sum) / 1e6);
	emit(buf, len, cap, "pitboss_http_request_duration_seconds_count %llu\n", (unsigned long long)atomic_load(&m->latency_count));
}

/* Open connections and those the watchdog closed, by reason (http/watchdog.c). */
static void
emit_connections(struct app *app, char **buf, size_t *len, size_t *cap)
{
	struct app_metrics *m = &app->metrics;

	emit(buf, len, cap, "# HELP pitboss_connections_open Open HTTP connections.\n"
	    "# TYPE pitboss_connections_open gauge\npitboss_connections_open %llu\n",
	    (unsigned long long)atomic_load(&m->conn_open));
	emit(buf, len, cap, "# HELP pitboss_connections_dropped_total Connections closed for a late head, a slow body or "
	    "to make room.\n# TYPE pitboss_connections_dropped_total counter\n");
	for (int r = 0; r < WATCHDOG_REASONS; r++)
		emit(buf, len, cap, "pitboss_connections_dropped_total{reason=\"%s\"} %llu\n",
		    watchdog_reason_name((enum watchdog_reason)r), (unsigned long long)atomic_load(&m->conn_dropped[r]));
}

/* Rounds recorded, refusals by code, authentication failures, the report cache, pruned idempotency answers. */
static void
emit_records(struct app *app, char **buf, size_t *len, size_t *cap)
{
	struct app_metrics *m = &app->metrics;
	uint64_t hits, misses;

	emit(buf, len, cap, "# HELP pitboss_rounds_total Rounds opened, settled and voided since start.\n"
	    "# TYPE pitboss_rounds_total counter\n"
	    "pitboss_rounds_total{event=\"opened\"} %llu\npitboss_rounds_total{event=\"settled\"} %llu\n"
	    "pitboss_rounds_total{event=\"voided\"} %llu\n",
	    (unsigned long long)atomic_load(&m->rounds_opened), (unsigned long long)atomic_load(&m->rounds_settled),
	    (unsigned long long)atomic_load(&m->rounds_voided));
	emit(buf, len, cap, "# HELP pitboss_refusals_total Refused requests by status and error code.\n"
	    "# TYPE pitboss_refusals_total counter\n");
	pthread_mutex_lock(&app->refusal_lock);
	for (int i = 0; i < app->refusal_kinds; i++)
		emit(buf, len, cap, "pitboss_refusals_total{status=\"%d\",code=\"%s\"} %llu\n", app->refusals[i].status,
		    app->refusals[i].code, (unsigned long long)app->refusals[i].count);
	pthread_mutex_unlock(&app->refusal_lock);
	emit(buf, len, cap, "# HELP pitboss_auth_failures_total Requests with an unknown token.\n"
	    "# TYPE pitboss_auth_failures_total counter\npitboss_auth_failures_total %llu\n",
	    (unsigned long long)atomic_load(&m->auth_failures));
	report_cache_counters(&hits, &misses);
	emit(buf, len, cap, "# HELP pitboss_report_cache_total Report requests answered from a worker's cache (hit) or computed (miss).\n"
	    "# TYPE pitboss_report_cache_total counter\npitboss_report_cache_total{result=\"hit\"} %llu\n"
	    "pitboss_report_cache_total{result=\"miss\"} %llu\n", (unsigned long long)hits, (unsigned long long)misses);
	emit(buf, len, cap, "# HELP pitboss_idempotency_pruned_total Stored Idempotency-Key answers deleted after their retention.\n"
	    "# TYPE pitboss_idempotency_pruned_total counter\npitboss_idempotency_pruned_total %llu\n",
	    (unsigned long long)pit_idempotency_pruned_total());
}

/* The database file and its WAL on disk. */
static void
emit_database(struct app *app, char **buf, size_t *len, size_t *cap)
{
	char wal[4200];

	snprintf(wal, sizeof(wal), "%s-wal", app->database);
	emit(buf, len, cap, "# HELP pitboss_database_bytes Size of the database file and its WAL.\n"
	    "# TYPE pitboss_database_bytes gauge\npitboss_database_bytes{file=\"main\"} %lld\npitboss_database_bytes{file=\"wal\"} %lld\n",
	    file_size(app->database), file_size(wal));
}

/* GET /metrics in the Prometheus text format; no token needed. */
void
handle_metrics(const struct route_call *c, struct http_answer *ans)
{
	struct app *app = c->app;
	size_t len = 0, cap = 8192;
	char *buf = malloc(cap);

	if (buf == NULL)
		return;
	buf[0] = '\0';
	emit(&buf, &len, &cap, "# HELP pitboss_build_info The version and commit of this pitbossd (always 1).\n"
	    "# TYPE pitboss_build_info gauge\npitboss_build_info{version=\"%s\",commit=\"%s\"} 1\n", pb_version(),
	    pb_version_commit());
	emit_http(app, &buf, &len, &cap);
	emit_connections(app, &buf, &len, &cap);
	emit_records(app, &buf, &len, &cap);
	emit_writer(app, &buf, &len, &cap);
	emit_database(app, &buf, &len, &cap);
	emit_startup_check(&buf, &len, &cap);
	emit(&buf, &len, &cap, "# HELP pitboss_last_backup_timestamp_seconds Unix time of the last POST /api/v1/backups copy since start (0: none).\n# TYPE pitboss_last_backup_timestamp_seconds gauge\npitboss_last_backup_timestamp_seconds %lld\n", (long long)pit_last_backup_unix());
	emit_central(app, &buf, &len, &cap);
	emit_central_integrity(app, &buf, &len, &cap);
	emit(&buf, &len, &cap, "# HELP pitboss_uptime_seconds Seconds since pitbossd started.\n"
	    "# TYPE pitboss_uptime_seconds gauge\npitboss_uptime_seconds %lld\n",
	    (long long)((pb_time_now_ms() - app->started_ms) / 1000));
	ans->status = 200;
	ans->text = buf;
	ans->text_len = len;
	ans->content_type = "text/plain; version=0.0.4; charset=utf-8";
}
