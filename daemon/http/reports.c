/*
 * reports.c - GET /api/v1/reports/{summary,payouts,exceptions}: the query
 * string read at the edge, the report from the pit, the answer as JSON or,
 * with ?format=csv, as a CSV download.  No SQL, no figures computed here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/routes.h"
#include "table/reports.h"

/* Content-Disposition outlives the handler (the server sends it after we return), per thread. */
static _Thread_local char disposition[128];

static const char *
query(const struct http_request *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}


/*
 * Answers /api/v1/reports/<name>; returns false for any other path so the
 * caller may try its other routes.
 */
bool
reports_route(struct app *app, struct pit *pit, const struct actor *a, const struct http_request *req,
    char seg[][PB_NAME_MAX], int n, struct http_answer *ans)
{
	static const char *const NAMES[] = {"summary", "payouts", "exceptions", "bankers"};
	struct report_params rp;
	struct report_query q;
	struct pb_error err;
	const char *format;
	enum report_kind kind = REPORT_SUMMARY;
	json_t *out = NULL;
	bool found = false;
	char *csv, day[PB_TIME_LEN];
	size_t len = 0;

	(void)app;
	memset(&err, 0, sizeof(err));
	if (n < 1 || strcmp(seg[0], "reports") != 0)
		return false;
	ans->route = ROUTE_REPORTS;
	for (size_t i = 0; n == 2 && i < sizeof(NAMES) / sizeof(NAMES[0]); i++)
		if (strcmp(seg[1], NAMES[i]) == 0) {
			kind = (enum report_kind)i;
			found = true;
		}
	if (!found) {
		pb_fail(&err, 404, "not_found", "no such report: %.100s (summary, payouts, exceptions, bankers)", req->path);
		answer_error(ans, &err);
		return true;
	}
	if (strcmp(req->method, "GET") != 0 && strcmp(req->method, "HEAD") != 0) {
		pb_fail(&err, 405, "method_not_allowed", "use GET here");
		answer_error(ans, &err);
		ans->allow = "GET";
		return true;
	}
	if (a->role == ROLE_DEALER) {
		pb_fail(&err, 403, "forbidden", "reports are for the pitboss, auditor and admin roles");
		answer_error(ans, &err);
		return true;
	}
	format = query(req, "format");
	if (format != NULL && strcmp(format, "json") != 0 && strcmp(format, "csv") != 0) {
		pb_fail(&err, 400, "invalid_query", "format: json (the default) or csv (got \"%.20s\")", format);
		answer_error(ans, &err);
		return true;
	}
	rp.table = query(req, "table");
	rp.from = query(req, "from");
	rp.to = query(req, "to");
	rp.group = query(req, "group");
	rp.shifts = query(req, "shifts");
	rp.tz_offset = query(req, "tz_offset");
	rp.min = query(req, "min");
	rp.limit = query(req, "limit");
	if (report_query_parse(kind, &rp, pb_time_now_ms(), &q, &err) < 0 || pit_report(pit, a, &q, &out, &err) < 0) {
		answer_error(ans, &err);
		return true;
	}
	if (format == NULL || strcmp(format, "json") == 0) {
		ans->status = 200;
		ans->json = out;
		return true;
	}
	csv = report_csv(kind, out, &len);
	json_decref(out);
	if (csv == NULL) {
		pb_fail(&err, 500, "out_of_memory", "out of memory");
		answer_error(ans, &err);
		return true;
	}
	/* pitboss-summary-2026-11-21-T1.csv: the report, the range's first day, the table. */
	pb_time_format_ms(q.from_ms, day);
	day[10] = '\0';
	snprintf(disposition, sizeof(disposition), "attachment; filename=\"pitboss-%s-%s%s%s.csv\"", NAMES[kind], day,
	    q.table[0] ? "-" : "", q.table);
	ans->status = 200;
	ans->text = csv;
	ans->text_len = len;
	ans->content_type = "text/csv; charset=utf-8";
	ans->disposition = disposition;
	return true;
}
