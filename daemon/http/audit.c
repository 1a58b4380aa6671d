/*
 * audit.c - the audit routes: GET /rounds/{id}/verify, GET /integrity (with
 * the progress of the start-up check), GET /checkpoints, GET /events
 * (significant events), POST /backups, and POST /tables/{t}/acknowledge
 * (lifting an integrity hold).
 */
#include <stdlib.h>
#include <string.h>

#include "http/request.h"
#include "http/routes.h"
#include "table/audit/audit.h"
#include "table/ops/ops.h"

/* The id is read with strtoll, as it always was: "12abc" verifies round 12, "abc" round 0 (not found). */
void
handle_round_verify(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int rc = pit_round_verify(c->pit, c->actor, strtoll(c->round_text, NULL, 10), &out, &err);

	answer_result(ans, rc, out, 200, &err);
}

void
handle_integrity(const struct route_call *c, struct http_answer *ans)
{
	struct integrity_scope scope = {0};
	struct pb_error err;
	json_t *out = NULL;
	int rc;

	if (query_only(c->req, (const char *const[]){"table", "from_round", NULL}, ans) < 0)
		return;
	scope.table_id = query(c->req, "table");
	if (query_int(c->req, "from_round", 0, &scope.from_round) < 0)
		return answer_fail(ans, 400, "invalid_query", "from_round: must be a round id");
	if (scope.table_id != NULL && config_table(c->pit->cfg, scope.table_id) == NULL)
		return answer_fail(ans, 404, "table_not_found", "there is no table \"%.32s\"", scope.table_id);
	rc = audit_integrity(c->pit, &scope, &out, &err);
	if (rc == 0 && json_object_set_new(out, "startup_check", startup_progress_json()) < 0) {
		json_decref(out);
		out = NULL;
		rc = pb_oom(&err);
	}
	answer_result(ans, rc, out, 200, &err);
}

/* ?after=N&limit=N of a paged list: -1 when either is not a non-negative integer. */
static int
read_page(const struct http_request *req, int64_t default_limit, int64_t *after, int64_t *limit)
{
	if (query_int(req, "after", 0, after) < 0 || query_int(req, "limit", default_limit, limit) < 0)
		return -1;
	return 0;
}

void
handle_checkpoints(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int64_t after, limit;
	int rc;

	if (query_only(c->req, (const char *const[]){"table", "after", "limit", NULL}, ans) < 0)
		return;
	if (read_page(c->req, 100, &after, &limit) < 0)
		return answer_fail(ans, 400, "invalid_query", "after and limit must be non-negative integers");
	rc = pit_checkpoints(c->pit, c->actor, query(c->req, "table"), after, (int)(limit > 1000 ? 1001 : limit), &out, &err);
	answer_result(ans, rc, out, 200, &err);
}

void
handle_events(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int64_t after, limit;
	int rc;

	if (query_only(c->req, (const char *const[]){"after", "limit", NULL}, ans) < 0)
		return;
	if (read_page(c->req, 200, &after, &limit) < 0 || limit < 1 || limit > 1000)
		return answer_fail(ans, 400, "invalid_query", "after: a sequence number; limit: 1..1000");
	rc = pit_significant_events(c->pit, c->actor, after, (int)limit, &out, &err);
	answer_result(ans, rc, out, 200, &err);
}

/* The body, read here as sent, is empty or {}: any field is refused (400 unknown_field), not ignored. */
void
handle_backup(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_error_t jerr;
	json_t *body, *out = NULL;
	int rc;

	if (c->req->body_len > 0) {
		body = json_loadb(c->req->body, c->req->body_len, JSON_REJECT_DUPLICATES, &jerr);
		if (!json_is_object(body)) {
			json_decref(body);
			return answer_fail(ans, 400, "malformed_json", "the body is empty or {}");
		}
		if (json_object_size(body) > 0) {
			answer_fail(ans, 400, "unknown_field", "backups: takes no fields; \"%.40s\" is not expected",
			    json_object_iter_key(json_object_iter(body)));
			json_decref(body);
			return;
		}
		json_decref(body);
	}
	rc = pit_backup(c->pit, c->actor, &out, &err);
	answer_result(ans, rc, out, 201, &err);
}

/* The body is read again as sent: an empty one is refused here, where the other writes take it as {}. */
void
handle_table_acknowledge(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_error_t jerr;
	json_t *body, *out = NULL;
	int rc;

	body = json_loadb(c->req->body, c->req->body_len, JSON_REJECT_DUPLICATES, &jerr);
	if (body == NULL)
		return answer_fail(ans, 400, "malformed_json", "the body is {\"note\": \"...\"}");
	rc = pit_table_acknowledge(c->pit, c->actor, c->table, body, &out, &err);
	json_decref(body);
	answer_result(ans, rc, out, 200, &err);
}
