/*
 * audit.c - the audit routes: GET /rounds/{id}/verify, GET /integrity (with
 * the progress of the start-up check), GET /checkpoints, GET /events
 * (significant events), and POST /tables/{t}/acknowledge (lifting an
 * integrity hold).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "http/routes.h"
#include "store/audit.h"
#include "table/audit.h"
#include "table/startup.h"

static const char *
query(const struct http_request *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}

/* A non-negative integer query value, or the default; -1 when malformed. */
static int
query_int(const struct http_request *req, const char *name, int64_t def, int64_t *out)
{
	const char *v = query(req, name);
	char *end;
	long long n;

	*out = def;
	if (v == NULL)
		return 0;
	n = strtoll(v, &end, 10);
	if (*v == '\0' || *end != '\0' || n < 0)
		return -1;
	*out = n;
	return 0;
}

static bool
only_get(const struct http_request *req, struct http_answer *ans)
{
	struct pb_error e;

	if (strcmp(req->method, "GET") == 0)
		return true;
	pb_fail(&e, 405, "method_not_allowed", "use GET here");
	answer_error(ans, &e);
	ans->allow = "GET";
	return false;
}

static void
reply(struct http_answer *ans, int rc, json_t *out, const struct pb_error *err)
{
	if (rc < 0) {
		answer_error(ans, err);
		return;
	}
	ans->status = 200;
	ans->json = out;
}

static bool
reader_role(const struct actor *a, struct http_answer *ans)
{
	struct pb_error e;

	if (a->role != ROLE_DEALER)
		return true;
	pb_fail(&e, 403, "forbidden", "this is for the pitboss, auditor and admin roles");
	answer_error(ans, &e);
	return false;
}

bool
audit_route(struct app *app, struct pit *pit, const struct actor *a, const struct http_request *req,
    char seg[][PB_NAME_MAX], int n, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int64_t after, limit, id;
	int rc;

	(void)app;
	memset(&err, 0, sizeof(err));
	if (n == 3 && strcmp(seg[0], "rounds") == 0 && strcmp(seg[2], "verify") == 0) {
		ans->route = ROUTE_ROUND_VERIFY;
		if (!only_get(req, ans))
			return true;
		id = strtoll(seg[1], NULL, 10);
		rc = pit_round_verify(pit, a, id, &out, &err);
		reply(ans, rc, out, &err);
		return true;
	}
	if (n == 1 && strcmp(seg[0], "integrity") == 0) {
		struct integrity_scope scope = {0};
		ans->route = ROUTE_INTEGRITY;
		if (!only_get(req, ans) || !reader_role(a, ans))
			return true;
		scope.table_id = query(req, "table");
		if (query_int(req, "from_round", 0, &scope.from_round) < 0) {
			pb_fail(&err, 400, "invalid_query", "from_round: must be a round id");
			answer_error(ans, &err);
			return true;
		}
		if (scope.table_id != NULL && config_table(pit->cfg, scope.table_id) == NULL) {
			pb_fail(&err, 404, "table_not_found", "there is no table \"%.32s\"", scope.table_id);
			answer_error(ans, &err);
			return true;
		}
		rc = audit_integrity(pit, &scope, &out, &err);
		if (rc == 0)
			json_object_set_new(out, "startup_check", startup_progress_json());
		reply(ans, rc, out, &err);
		return true;
	}
	if (n == 1 && strcmp(seg[0], "checkpoints") == 0) {
		ans->route = ROUTE_CHECKPOINTS;
		if (!only_get(req, ans))
			return true;
		if (query_int(req, "after", 0, &after) < 0 || query_int(req, "limit", 100, &limit) < 0) {
			pb_fail(&err, 400, "invalid_query", "after and limit must be non-negative integers");
			answer_error(ans, &err);
			return true;
		}
		rc = pit_checkpoints(pit, a, query(req, "table"), after, (int)(limit > 1000 ? 1001 : limit), &out, &err);
		reply(ans, rc, out, &err);
		return true;
	}
	if (n == 1 && strcmp(seg[0], "events") == 0) {
		json_t *list;
		ans->route = ROUTE_EVENTS;
		if (!only_get(req, ans) || !reader_role(a, ans))
			return true;
		if (query_int(req, "after", 0, &after) < 0 || query_int(req, "limit", 200, &limit) < 0 || limit < 1 || limit > 1000) {
			pb_fail(&err, 400, "invalid_query", "after: a sequence number; limit: 1..1000");
			answer_error(ans, &err);
			return true;
		}
		list = store_significant_list(pit->store, after, (int)limit, &err);
		if (list == NULL) {
			answer_error(ans, &err);
			return true;
		}
		ans->status = 200;
		ans->json = json_pack("{s:o}", "events", list);
		return true;
	}
	if (n == 1 && strcmp(seg[0], "backups") == 0) {
		char path[4200], at[PB_TIME_LEN], stamp[32];
		json_t *detail;
		size_t j = 0;
		ans->route = ROUTE_OTHER;
		if (strcmp(req->method, "POST") != 0) {
			pb_fail(&err, 405, "method_not_allowed", "use POST here");
			answer_error(ans, &err);
			ans->allow = "POST";
			return true;
		}
		if (a->role != ROLE_ADMIN) {
			pb_fail(&err, 403, "forbidden", "backups are the admin role's");
			answer_error(ans, &err);
			return true;
		}
		pb_time_now(at);
		for (size_t k = 0; at[k] != '\0' && j < sizeof(stamp) - 1; k++)
			if (at[k] != '-' && at[k] != ':' && at[k] != '.')
				stamp[j++] = at[k];
		stamp[j] = '\0';
		mkdir(pit->cfg->backup_dir, 0700);
		snprintf(path, sizeof(path), "%s/pitboss-%s.db", pit->cfg->backup_dir, stamp);
		if (store_backup(pit->store, path, &err) < 0) {
			answer_error(ans, &err);
			return true;
		}
		detail = json_pack("{s:s}", "to", path);
		store_significant(pit->store, a->name, "backup", NULL, detail, &err);
		json_decref(detail);
		ans->status = 201;
		ans->json = json_pack("{s:s,s:s}", "path", path, "at", at);
		return true;
	}
	if (n == 3 && strcmp(seg[0], "tables") == 0 && strcmp(seg[2], "acknowledge") == 0) {
		json_t *body;
		json_error_t jerr;
		ans->route = ROUTE_TABLE_STATUS;
		if (strcmp(req->method, "POST") != 0) {
			pb_fail(&err, 405, "method_not_allowed", "use POST here");
			answer_error(ans, &err);
			ans->allow = "POST";
			return true;
		}
		body = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &jerr);
		if (body == NULL) {
			pb_fail(&err, 400, "malformed_json", "the body is {\"note\": \"...\"}");
			answer_error(ans, &err);
			return true;
		}
		rc = pit_table_acknowledge(pit, a, seg[1], body, &out, &err);
		json_decref(body);
		reply(ans, rc, out, &err);
		return true;
	}
	return false;
}
