/*
 * central.c - GET /api/v1/central/summary: the summary across every
 * property, read from the central PostgreSQL (docs/central.md, "Reports"),
 * when this pitbossd is configured with "central": {"reports": true} (a
 * head office's pitbossd, usually with "ship": false).  The report itself is
 * the central layer's (the same as `pitboss central report`), reached
 * through the function main.c hands app; nothing is computed here.
 */
#include <string.h>

#include "http/request.h"
#include "http/routes.h"
#include "table/reports/reports.h"
#include "table/ops/ops.h"

static const char *const PARAMS[] = {"property", "group", "from", "to", "format", NULL};

/* Every table of every property: a token limited to some tables may not read it. */
static int
check_scope(const struct actor *a, struct http_answer *ans)
{
	if (a->token != NULL && !a->token->all_tables) {
		answer_fail(ans, 403, "forbidden", "the central summary covers every table of every property; "
		    "this token is limited to some tables");
		return -1;
	}
	return 0;
}

void
handle_central_summary(const struct route_call *c, struct http_answer *ans)
{
	struct central_report_options o = {0};
	struct pb_error err;
	json_t *out = NULL;
	size_t len = 0;
	char *text;
	bool csv;

	if (c->app->central_report == NULL) {
		answer_fail(ans, 404, "central_reports_off", "this pitbossd does not serve the central summary: "
		    "set \"central\": {\"conninfo\": ..., \"reports\": true} in its configuration");
		return;
	}
	if (query_only(c->req, PARAMS, ans) < 0 || check_scope(c->actor, ans) < 0 || query_format(c->req, ans, &csv) < 0)
		return;
	o.property = query(c->req, "property");
	o.group = query(c->req, "group") != NULL ? query(c->req, "group") : "property";
	o.from = query(c->req, "from");
	o.to = query(c->req, "to");
	if (c->app->central_report(c->app->central_report_arg, &o, &out, &err) < 0) {
		answer_error(ans, &err);
		return;
	}
	if (!csv) {
		ans->status = 200;
		ans->json = out;
		return;
	}
	text = report_csv(REPORT_SUMMARY, out, &len);
	json_decref(out);
	answer_csv(ans, text, len, "attachment; filename=\"pitboss-central-summary.csv\"");
}
