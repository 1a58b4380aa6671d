/*
 * reports.c - GET /api/v1/reports/{summary,payouts,exceptions,bankers}: the
 * query string read at the edge, the report from the pit, the answer as
 * JSON or, with ?format=csv, as a CSV download.  No SQL, no figures
 * computed here.
 *
 * Answers are rendered here and kept in this thread's report cache
 * (report_cache.h): the same request again, while nothing was committed
 * and the configuration is the same, is answered from it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "common/timeutil.h"
#include "http/report_cache.h"
#include "http/request.h"
#include "http/routes.h"
#include "table/ops/ops.h"
#include "table/reports/reports.h"

#define REPORT_KEY_MAX 4096

/* Content-Disposition outlives the handler (the server sends it after we return), per thread. */
static _Thread_local char disposition[REPORT_CACHE_DISPOSITION_MAX];

static const char *const NAMES[] = {
	[REPORT_SUMMARY] = "summary", [REPORT_PAYOUTS] = "payouts", [REPORT_EXCEPTIONS] = "exceptions",
	[REPORT_BANKERS] = "bankers", [REPORT_DEALERS] = "dealers", [REPORT_MASTER_GAME] = "master-game",
	[REPORT_STATISTICS] = "statistics", [REPORT_DECISIONS] = "decisions",
};

/* A cache key being built: tagged, length-prefixed fields, so no two requests' fields run together. */
struct report_key {
	char buf[REPORT_KEY_MAX];
	size_t len;
	bool full;                  /* did not fit: the request is not cached */
};

/* Appends a field: its tag, then "-" for an absent value or "<length>:<bytes>". */
static void
key_add(struct report_key *k, char tag, const char *value)
{
	size_t n = value ? strlen(value) : 0;
	int w;

	if (k->full)
		return;
	if (value == NULL)
		w = snprintf(k->buf + k->len, sizeof(k->buf) - k->len, "%c-", tag);
	else
		w = snprintf(k->buf + k->len, sizeof(k->buf) - k->len, "%c%zu:", tag, n);
	if (w < 0 || (size_t)w + n >= sizeof(k->buf) - k->len) {
		k->full = true;
		return;
	}
	k->len += (size_t)w;
	memcpy(k->buf + k->len, value ? value : "", n);
	k->len += n;
}

static void
key_add_int(struct report_key *k, char tag, int64_t v)
{
	char s[24];

	snprintf(s, sizeof(s), "%" PRId64, v);
	key_add(k, tag, s);
}

/* MHD_get_connection_values callback: every query argument as received, in order. */
static enum MHD_Result
key_add_argument(void *cls, enum MHD_ValueKind kind, const char *name, const char *value)
{
	(void)kind;
	key_add(cls, 'n', name);
	key_add(cls, 'v', value);
	return MHD_YES;
}

/*
 * The cache key of a checked report request: the report, the format, the
 * range as resolved (a default "today" is concrete times, so the key moves
 * on when the day does), the reader's role and table scope, then every
 * query argument as received.  The raw arguments rather than the parsed
 * query, so that a parameter added to the reports later is in the key
 * without a change here; equivalent spellings of one query are merely
 * separate entries.  The exceptions report also changes as time passes (a
 * slip not received becomes a pending_slip exception after
 * accounting.pending_slip_minutes): its key holds the current minute.
 * Returns false when the key does not fit.
 */
static bool
report_key(struct report_key *k, const char *name, const char *format, const struct report_query *q,
    const struct actor *a, const struct http_request *req)
{
	k->len = 0;
	k->full = false;
	key_add(k, 'r', name);
	key_add(k, 'f', format);
	key_add_int(k, 'a', q->from_ms);
	key_add_int(k, 'b', q->to_ms);
	if (q->kind == REPORT_EXCEPTIONS)
		key_add_int(k, 'm', pb_time_now_ms() / 60000);
	key_add_int(k, 'o', (int64_t)a->roles);
	if (a->token == NULL || a->token->all_tables) {
		key_add(k, 's', "*");
	} else {
		key_add_int(k, 's', (int64_t)a->token->table_count);
		for (size_t i = 0; i < a->token->table_count; i++)
			key_add(k, 't', a->token->tables[i]);
	}
	MHD_get_connection_values(req->conn, MHD_GET_ARGUMENT_KIND, key_add_argument, k);
	return !k->full;
}

/* What the cached answers of this thread are valid for: its connection, the data state, the configuration. */
static int
report_stamp(struct pit *pit, struct report_cache_stamp *stamp, struct pb_error *err)
{
	memset(stamp, 0, sizeof(*stamp));
	stamp->store = pit->store;
	snprintf(stamp->config, sizeof(stamp->config), "%s", pit->cfg->sha256);
	return pit_data_state(pit, &stamp->data, err);
}

/* Fills the answer with a copy of a rendered one (the server frees the copy). */
static int
answer_rendered(struct http_answer *ans, const struct cached_answer *c, struct pb_error *err)
{
	char *text = malloc(c->body_len + 1);

	if (text == NULL)
		return pb_oom(err);
	memcpy(text, c->body, c->body_len);
	text[c->body_len] = '\0';
	ans->status = c->status;
	ans->text = text;
	ans->text_len = c->body_len;
	ans->content_type = c->content_type;
	ans->disposition = NULL;
	if (c->disposition != NULL) {
		snprintf(disposition, sizeof(disposition), "%s", c->disposition);
		ans->disposition = disposition;
	}
	return 0;
}

/* The JSON answer's bytes exactly as the server would send ans->json: compact, ASCII, a newline. */
static char *
render_json(const json_t *out, size_t *len)
{
	return json_text_line(out, len);
}


/* The query parameters each report takes; any other is refused (400 unknown_parameter). */
static const char *const PARAMS[][9] = {
	[REPORT_SUMMARY] = {"table", "from", "to", "group", "shifts", "tz_offset", "format", NULL},
	[REPORT_PAYOUTS] = {"table", "from", "to", "min", "limit", "tz_offset", "format", NULL},
	[REPORT_EXCEPTIONS] = {"table", "from", "to", "limit", "tz_offset", "format", NULL},
	[REPORT_BANKERS] = {"table", "from", "to", "tz_offset", "format", NULL},
	[REPORT_DEALERS] = {"table", "from", "to", "limit", "tz_offset", "format", NULL},
	[REPORT_MASTER_GAME] = {"table", "gaming_day", "shift", "format", NULL},
	[REPORT_STATISTICS] = {"table", "month", "format", NULL},
	[REPORT_DECISIONS] = {"table", "gaming_day", "from", "to", "group", "tz_offset", "format", NULL},
};

/*
 * The report's format and query from the query string, its days those of
 * the property's calendar; 400 unknown_parameter for a parameter the report
 * does not take, 400 invalid_query for a value that is not one.
 */
static int
read_report_query(const struct route_call *c, enum report_kind kind, const char **format, struct report_query *q,
    struct http_answer *ans)
{
	const struct http_request *req = c->req;
	struct report_params rp;
	struct pb_error err;
	bool csv;

	if (query_only(req, PARAMS[kind], ans) < 0)
		return -1;
	if (query_format(req, ans, &csv) < 0)
		return -1;
	*format = csv ? "csv" : "json";
	rp.table = query(req, "table");
	rp.from = query(req, "from");
	rp.to = query(req, "to");
	rp.group = query(req, "group");
	rp.shifts = query(req, "shifts");
	rp.tz_offset = query(req, "tz_offset");
	rp.min = query(req, "min");
	rp.limit = query(req, "limit");
	rp.gaming_day = query(req, "gaming_day");
	rp.shift = query(req, "shift");
	rp.month = query(req, "month");
	rp.property = &c->pit->cfg->property;
	if (report_query_parse(kind, &rp, pb_time_now_ms(), q, &err) < 0) {
		answer_error(ans, &err);
		return -1;
	}
	return 0;
}

/*
 * Computes the report and renders it (into out, the body malloc'd): JSON,
 * or CSV with its Content-Disposition, pitboss-summary-2026-11-21-T1.csv
 * (the report, the range's first day, the table).
 */
static int
render_report(const struct route_call *c, enum report_kind kind, const char *format, const struct report_query *q,
    struct cached_answer *out, struct http_answer *ans)
{
	struct pb_error err;
	json_t *report = NULL;
	char *text, day[PB_TIME_LEN];
	size_t len = 0;

	if (pit_report(c->pit, c->actor, q, &report, &err) < 0) {
		answer_error(ans, &err);
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->status = 200;
	if (strcmp(format, "json") == 0) {
		text = render_json(report, &len);
		out->content_type = "application/json";
	} else {
		text = report_csv(kind, report, &len);
		out->content_type = "text/csv; charset=utf-8";
		pb_time_format_ms(q->from_ms, day);
		day[10] = '\0';
		snprintf(disposition, sizeof(disposition), "attachment; filename=\"pitboss-%s-%s%s%s.csv\"", NAMES[kind], day,
		    q->table[0] ? "-" : "", q->table);
		out->disposition = disposition;
	}
	json_decref(report);
	if (text == NULL) {
		answer_fail(ans, 500, "out_of_memory", "out of memory");
		return -1;
	}
	out->body = text;
	out->body_len = len;
	return 0;
}

/*
 * GET /api/v1/reports/<name> (the route's arg is the kind).  A checked
 * request is looked up in this thread's cache first; a computed 2xx answer
 * is kept there.  The stamp is read before the report: a commit that lands
 * while it is computed changes the state, so the next request misses
 * rather than being answered with what was read before that commit.
 */
void
handle_report(const struct route_call *c, struct http_answer *ans)
{
	enum report_kind kind = (enum report_kind)c->route->arg;
	struct report_key key;
	struct report_cache_stamp stamp;
	struct report_cache *cache = report_cache_thread();
	struct cached_answer rendered;
	struct report_query q;
	struct pb_error err;
	const char *format;
	bool cacheable;

	if (read_report_query(c, kind, &format, &q, ans) < 0)
		return;
	cacheable = cache != NULL && report_key(&key, NAMES[kind], format, &q, c->actor, c->req) &&
	    report_stamp(c->pit, &stamp, &(struct pb_error){0}) == 0;
	if (cacheable && report_cache_get(cache, &stamp, key.buf, key.len, &rendered)) {
		report_cache_note(true);
		if (answer_rendered(ans, &rendered, &err) < 0)
			answer_error(ans, &err);
		return;
	}
	report_cache_note(false);
	if (render_report(c, kind, format, &q, &rendered, ans) < 0)
		return;
	/* Not kept (out of memory) only costs the next request a computation. */
	if (cacheable)
		report_cache_put(cache, &stamp, key.buf, key.len, &rendered, &(struct pb_error){0});
	ans->status = rendered.status;
	ans->text = (char *)rendered.body;
	ans->text_len = rendered.body_len;
	ans->content_type = rendered.content_type;
	ans->disposition = rendered.disposition;
}
