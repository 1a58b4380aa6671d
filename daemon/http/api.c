/*
 * api.c - the routes of /api/v1 (API.md): authentication, role checks,
 * request parsing at the edge, and the call into the pit.  Handlers hold no
 * SQL and compute no payout.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "http/http.h"
#include "http/auth.h"
#include "http/routes.h"
#include "table/txn.h"

#define IDEMPOTENCY_KEY_MAX 128

/* Parses the body as one JSON value; an empty body is {}. */
static json_t *
parse_body(const struct http_request *req, struct pb_error *err)
{
	json_error_t jerr;
	json_t *v;
	size_t i;

	for (i = 0; i < req->body_len && isspace((unsigned char)req->body[i]); i++)
		;
	if (i == req->body_len)
		return json_object();
	v = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &jerr);
	if (v == NULL)
		pb_fail(err, 400, "malformed_json", "the body is not valid JSON: %s (line %d, column %d)", jerr.text, jerr.line, jerr.column);
	return v;
}

/* Reads the Idempotency-Key header and hashes the request it protects. */
static int
read_idempotency(const struct http_request *req, struct idempotency *idem, struct pb_error *err)
{
	char *buf;
	size_t n;

	idem->key = req->idempotency_key;
	if (idem->key == NULL)
		return 0;
	n = strlen(idem->key);
	if (n == 0 || n > IDEMPOTENCY_KEY_MAX)
		return pb_fail(err, 400, "invalid_idempotency_key", "Idempotency-Key: 1..%d printable characters", IDEMPOTENCY_KEY_MAX);
	for (size_t i = 0; i < n; i++)
		if (!isprint((unsigned char)idem->key[i]))
			return pb_fail(err, 400, "invalid_idempotency_key", "Idempotency-Key: 1..%d printable characters", IDEMPOTENCY_KEY_MAX);
	buf = malloc(strlen(req->method) + strlen(req->path) + req->body_len + 3);
	if (buf == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	n = (size_t)sprintf(buf, "%s %s\n", req->method, req->path);
	memcpy(buf + n, req->body, req->body_len);
	pb_sha256_hex(buf, n + req->body_len, idem->request_hash);
	free(buf);
	return 0;
}

static const char *
query(const struct http_request *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}

/* A positive decimal id from a path segment or query value. */
static int
parse_id(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || v <= 0)
		return -1;
	*out = v;
	return 0;
}

/* Splits "/api/v1/a/b/c" into segments after /api/v1; returns their count or -1. */
static int
split_path(const char *path, char seg[][PB_NAME_MAX], int max)
{
	const char *p;
	int n = 0;

	if (strncmp(path, "/api/v1", 7) != 0 || (path[7] != '/' && path[7] != '\0'))
		return -1;
	p = path + 7;
	while (*p == '/') {
		const char *e;
		size_t len;
		p++;
		if (*p == '\0')
			break;
		e = strchr(p, '/');
		len = e ? (size_t)(e - p) : strlen(p);
		if (n == max || len == 0 || len >= PB_NAME_MAX)
			return -1;
		memcpy(seg[n], p, len);
		seg[n][len] = '\0';
		if (strcmp(seg[n], "..") == 0 || strcmp(seg[n], ".") == 0)
			return -1;
		n++;
		p += len;
	}
	return n;
}

static void
method_not_allowed(struct http_answer *ans, const char *allow)
{
	struct pb_error e;

	pb_fail(&e, 405, "method_not_allowed", "use %s here", allow);
	answer_error(ans, &e);
	ans->allow = allow;
}

static void
not_found(struct http_answer *ans, const char *path)
{
	struct pb_error e;

	pb_fail(&e, 404, "not_found", "no such resource: %.100s (see docs/api.md)", path);
	answer_error(ans, &e);
}

/* A seat number from a path segment: 1..8 (the table's own range is checked later). */
static int
input_seat_number(const char *s, int *seat)
{
	if (s[0] < '1' || s[0] > '9' || s[1] != '\0')
		return -1;
	*seat = s[0] - '0';
	return 0;
}

/* The round steps by their URL verb. */
static int
step_of(const char *verb, enum round_step *step)
{
	static const struct { const char *verb; enum round_step step; } STEPS[] = {
		{"close", STEP_CLOSE}, {"deal", STEP_DEAL}, {"decisions", STEP_DECIDE},
		{"reveal", STEP_REVEAL}, {"settle", STEP_SETTLE}, {"void", STEP_VOID},
	};
	for (size_t i = 0; i < sizeof(STEPS) / sizeof(STEPS[0]); i++)
		if (strcmp(verb, STEPS[i].verb) == 0) {
			*step = STEPS[i].step;
			return 0;
		}
	return -1;
}

static bool
is(const struct http_request *req, const char *m)
{
	return strcmp(req->method, m) == 0;
}

/* Runs a write operation with its body and idempotency key, and fills the answer. */
static void
finish_answer(struct http_answer *ans, int rc, json_t *out, int status, const struct pb_error *err)
{
	if (rc < 0) {
		answer_error(ans, err);
		return;
	}
	ans->status = status;
	ans->json = out;
}

void
api_dispatch(struct app *app, const struct http_request *req, struct http_answer *ans)
{
	char seg[6][PB_NAME_MAX];
	int n;
	struct pb_error err;
	struct actor actor;
	struct pit pit = {0};
	struct idempotency idem;
	json_t *body = NULL, *out = NULL;
	int status = 200, rc;
	int64_t id;

	memset(&err, 0, sizeof(err));
	memset(&idem, 0, sizeof(idem));
	ans->route = ROUTE_OTHER;
	if (strcmp(req->path, "/metrics") == 0) {
		ans->route = ROUTE_METRICS;
		if (!is(req, "GET"))
			return method_not_allowed(ans, "GET");
		metrics_answer(app, ans);
		return;
	}
	n = split_path(req->path, seg, 6);
	if (n < 1)
		return not_found(ans, req->path);
	if (n == 1 && strcmp(seg[0], "health") == 0) {
		ans->route = ROUTE_HEALTH;
		if (!is(req, "GET"))
			return method_not_allowed(ans, "GET");
		ans->status = 200;
		ans->json = json_pack("{s:s}", "status", "ok");
		return;
	}
	pit.cfg = app->cfg;
	pit.signer = app->signer;
	pit.writer = app->writer;
	pit.store = app_thread_store(app, &err);
	if (pit.store == NULL)
		return answer_error(ans, &err);
	if (auth_authenticate(app, pit.store, req, &actor, &err) < 0)
		return answer_error(ans, &err);
	if (!is(req, "GET") && !is(req, "HEAD")) {
		if (read_idempotency(req, &idem, &err) < 0)
			return answer_error(ans, &err);
		body = parse_body(req, &err);
		if (body == NULL)
			return answer_error(ans, &err);
	}

	if (audit_route(app, &pit, &actor, req, seg, n, ans))
		goto out;
	if (strcmp(seg[0], "tables") == 0) {
		if (n == 1) {
			ans->route = ROUTE_TABLES;
			if (!is(req, "GET")) {
				method_not_allowed(ans, "GET");
				goto out;
			}
			rc = pit_tables_list(&pit, &actor, &out, &err);
		} else if (n == 2) {
			ans->route = ROUTE_TABLE;
			if (!is(req, "GET")) {
				method_not_allowed(ans, "GET");
				goto out;
			}
			rc = pit_table_get(&pit, &actor, seg[1], &out, &err);
		} else if (n == 3 && (strcmp(seg[2], "open") == 0 || strcmp(seg[2], "close") == 0)) {
			ans->route = ROUTE_TABLE_STATUS;
			if (!is(req, "POST")) {
				method_not_allowed(ans, "POST");
				goto out;
			}
			if (json_object_size(body) > 0) {
				const char *k = json_object_iter_key(json_object_iter(body));
				pb_fail(&err, 400, "unknown_field", "%s: takes no fields; \"%.40s\" is not expected", seg[2], k);
				rc = -1;
			} else {
				rc = pit_table_set_open(&pit, &actor, &idem, seg[1], strcmp(seg[2], "open") == 0, &out, &status, &err);
			}
		} else if (n == 3 && strcmp(seg[2], "limits") == 0) {
			ans->route = ROUTE_TABLE_LIMITS;
			if (!is(req, "PUT")) {
				method_not_allowed(ans, "PUT");
				goto out;
			}
			rc = pit_table_set_limits(&pit, &actor, &idem, seg[1], body, &out, &status, &err);
		} else if (n == 3 && strcmp(seg[2], "rounds") == 0) {
			ans->route = ROUTE_TABLE_ROUNDS;
			if (is(req, "POST")) {
				rc = pit_round_open(&pit, &actor, &idem, seg[1], body, &out, &status, &err);
				if (rc == 0) {
					const char *state = json_string_value(json_object_get(json_object_get(out, "round"), "state"));
					atomic_fetch_add(&app->metrics.rounds_opened, 1);
					/* A whole round comes back settled: count it with the step-by-step ones. */
					if (state != NULL && strcmp(state, "settled") == 0)
						atomic_fetch_add(&app->metrics.rounds_settled, 1);
				}
			} else if (is(req, "GET")) {
				const char *ls = query(req, "limit"), *bs = query(req, "before");
				int64_t limit = 10, before = 0;
				if ((ls != NULL && parse_id(ls, &limit) < 0) || (bs != NULL && parse_id(bs, &before) < 0)) {
					pb_fail(&err, 400, "invalid_query", "limit and before must be positive integers");
					rc = -1;
				} else {
					rc = pit_table_rounds(&pit, &actor, seg[1], limit > 1000 ? 1001 : (int)limit, before, &out, &err);
				}
			} else {
				method_not_allowed(ans, "GET, POST");
				goto out;
			}
		} else if (n >= 3 && table_extra_route(app, &pit, &actor, req, seg, n, ans)) {
			goto out;
		} else {
			not_found(ans, req->path);
			goto out;
		}
		finish_answer(ans, rc, out, status, &err);
		goto out;
	}
	if (strcmp(seg[0], "rounds") == 0 && n >= 2) {
		if (parse_id(seg[1], &id) < 0) {
			pb_fail(&err, 404, "round_not_found", "\"%.32s\" is not a round id", seg[1]);
			answer_error(ans, &err);
			goto out;
		}
		if (n == 2) {
			ans->route = ROUTE_ROUND;
			if (!is(req, "GET")) {
				method_not_allowed(ans, "GET");
				goto out;
			}
			rc = pit_round_get(&pit, &actor, id, &out, &err);
		} else if (n == 4 && strcmp(seg[2], "bets") == 0) {
			int seat = 0;
			ans->route = ROUTE_ROUND_BET;
			if (input_seat_number(seg[3], &seat) < 0) {
				pb_fail(&err, 422, "invalid_seat", "\"%.16s\" is not a seat number", seg[3]);
				rc = -1;
			} else if (is(req, "PUT")) {
				rc = pit_round_step(&pit, &actor, &idem, id, STEP_BET_PUT, seat, body, &out, &status, &err);
			} else if (is(req, "DELETE")) {
				rc = pit_round_step(&pit, &actor, &idem, id, STEP_BET_DELETE, seat, body, &out, &status, &err);
			} else {
				method_not_allowed(ans, "PUT, DELETE");
				goto out;
			}
		} else if (n == 3 && step_of(seg[2], &(enum round_step){0}) == 0) {
			enum round_step step = STEP_CLOSE;
			step_of(seg[2], &step);
			ans->route = ROUTE_ROUND_STEP;
			if (!is(req, "POST")) {
				method_not_allowed(ans, "POST");
				goto out;
			}
			rc = pit_round_step(&pit, &actor, &idem, id, step, 0, body, &out, &status, &err);
			if (rc == 0 && step == STEP_SETTLE)
				atomic_fetch_add(&app->metrics.rounds_settled, 1);
			if (rc == 0 && step == STEP_VOID)
				atomic_fetch_add(&app->metrics.rounds_voided, 1);
		} else if (round_extra_route(app, &pit, &actor, req, seg, n, id, ans)) {
			goto out;
		} else {
			not_found(ans, req->path);
			goto out;
		}
		finish_answer(ans, rc, out, status, &err);
		goto out;
	}
	if (!other_route(app, &pit, &actor, req, seg, n, ans))
		not_found(ans, req->path);
out:
	if (ans->status >= 400 && ans->status != 401 && ans->json != NULL)
		record_refusal(app, ans);
	json_decref(body);
}
