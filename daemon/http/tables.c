/*
 * tables.c - the routes of /api/v1/tables: the list, one table, opening and
 * closing it, its limits, its dealer, its rounds (listed, or one opened) and
 * its banker rotation.  Each reads the query at the edge and calls the pit.
 */
#include <stdlib.h>
#include <string.h>

#include "http/request.h"
#include "http/routes.h"
#include "table/rounds/rounds.h"

void
handle_tables(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int rc = pit_tables_list(c->pit, c->actor, &out, &err);

	answer_result(ans, rc, out, 200, &err);
}

void
handle_table(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int rc = pit_table_get(c->pit, c->actor, c->table, &out, &err);

	answer_result(ans, rc, out, 200, &err);
}

/* POST /tables/{t}/open and /close (route arg 1 and 0): they take no fields. */
void
handle_table_open(const struct route_call *c, struct http_answer *ans)
{
	const char *verb = c->route->arg ? "open" : "close";
	struct pb_error err;
	json_t *out = NULL;
	int status = 200, rc;

	if (json_object_size(c->body) > 0)
		return answer_fail(ans, 400, "unknown_field", "%s: takes no fields; \"%.40s\" is not expected", verb,
		    json_object_iter_key(json_object_iter((json_t *)c->body)));
	rc = pit_table_set_open(c->pit, c->actor, c->idem, c->table, c->route->arg != 0, &out, &status, &err);
	answer_result(ans, rc, out, status, &err);
}

void
handle_table_limits(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 200;
	int rc = pit_table_set_limits(c->pit, c->actor, c->idem, c->table, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* PUT /tables/{t}/dealer {"person": ID or null}: the person dealing at the table. */
void
handle_table_dealer(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 200;
	int rc = pit_table_set_dealer(c->pit, c->actor, c->idem, c->table, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* GET /tables/{t}/rounds?limit=N&before=ID: the latest rounds (a limit over 1000 is refused by the pit). */
void
handle_table_rounds(const struct route_call *c, struct http_answer *ans)
{
	const char *ls = query(c->req, "limit"), *bs = query(c->req, "before");
	int64_t limit = 10, before = 0;
	struct pb_error err;
	json_t *out = NULL;
	int rc;

	if (query_only(c->req, (const char *const[]){"limit", "before", NULL}, ans) < 0)
		return;
	if ((ls != NULL && parse_id(ls, &limit) < 0) || (bs != NULL && parse_id(bs, &before) < 0))
		return answer_fail(ans, 400, "invalid_query", "limit and before must be positive integers");
	rc = pit_table_rounds(c->pit, c->actor, c->table, limit > 1000 ? 1001 : (int)limit, before, &out, &err);
	answer_result(ans, rc, out, 200, &err);
}

/* POST /tables/{t}/rounds: a round opened, or a whole round recorded (counted as settled too). */
void
handle_round_open(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 200;
	int rc = pit_round_open(c->pit, c->actor, c->idem, c->table, c->body, &out, &status, &err);

	if (rc == 0) {
		const char *state = json_string_value(json_object_get(json_object_get(out, "round"), "state"));
		atomic_fetch_add(&c->app->metrics.rounds_opened, 1);
		if (state != NULL && strcmp(state, "settled") == 0)
			atomic_fetch_add(&c->app->metrics.rounds_settled, 1);
	}
	answer_result(ans, rc, out, status, &err);
}

/* POST /tables/{t}/bank-offers: an offer of the bank and its answer. */
void
handle_bank_offer(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_bank_offer(c->pit, c->actor, c->idem, c->table, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* GET /tables/{t}/bankers?limit=N: the banker rotation of a player-banked table. */
void
handle_table_bankers(const struct route_call *c, struct http_answer *ans)
{
	const char *ls = query(c->req, "limit");
	struct pb_error err;
	json_t *out = NULL;
	long limit = 50;
	char *end = NULL;
	int rc;

	if (query_only(c->req, (const char *const[]){"limit", NULL}, ans) < 0)
		return;
	if (ls != NULL) {
		limit = strtol(ls, &end, 10);
		if (*ls == '\0' || *end != '\0' || limit < 1 || limit > 500)
			return answer_fail(ans, 400, "invalid_query", "limit: must be 1..500");
	}
	rc = pit_table_bankers(c->pit, c->actor, c->table, (int)limit, &out, &err);
	answer_result(ans, rc, out, 200, &err);
}
