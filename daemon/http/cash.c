/*
 * cash.c - the routes of the cash controls (table/players/players.h): the
 * cage's transactions, a day's transactions, voids, merges of player
 * records and CTR work items.  Each hands the request to the pit and
 * answers what it says.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "http/request.h"
#include "http/routes.h"
#include "table/players/players.h"

/* POST /cage/transactions {"player", "direction", "type", "amount", "window"?} */
void
handle_cage_transaction(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_cage_transaction(c->pit, c->actor, c->idem, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* GET /transactions?gaming_day=D&player=&where=&format=json|csv */
void
handle_transactions(const struct route_call *c, struct http_answer *ans)
{
	const char *format = query(c->req, "format");
	struct pb_error err;
	json_t *out = NULL;
	int rc;

	if (query_only(c->req, (const char *const[]){"gaming_day", "player", "where", "format", NULL}, ans) < 0)
		return;
	if (format != NULL && strcmp(format, "json") != 0 && strcmp(format, "csv") != 0) {
		answer_fail(ans, 400, "invalid_query", "format: json (the default) or csv (got \"%.20s\")", format);
		return;
	}
	rc = pit_transactions_list(c->pit, c->actor, query(c->req, "gaming_day"), query(c->req, "player"),
	    query(c->req, "where"), &out, &err);
	if (rc < 0 || format == NULL || strcmp(format, "json") == 0) {
		answer_result(ans, rc, out, 200, &err);
		return;
	}
	ans->text = transactions_csv(json_object_get(out, "transactions"), &ans->text_len);
	json_decref(out);
	if (ans->text == NULL) {
		answer_fail(ans, 500, "out_of_memory", "out of memory");
		return;
	}
	ans->status = 200;
	ans->content_type = "text/csv; charset=utf-8";
	ans->disposition = "attachment; filename=\"pitboss-transactions.csv\"";
}

/* POST /transactions/{id}/void {"reason", "witness"} */
void
handle_transaction_void(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201, rc;
	char *end;
	long long id;

	errno = 0;
	id = strtoll(c->id, &end, 10);
	if (errno != 0 || *end != '\0' || id < 1 || c->id[0] < '1' || c->id[0] > '9') {
		answer_fail(ans, 404, "transaction_not_found", "\"%.32s\" is not a transaction id", c->id);
		return;
	}
	rc = pit_transaction_void(c->pit, c->actor, c->idem, id, c->body, &out, &status, &err);
	answer_result(ans, rc, out, status, &err);
}

/* POST /players/{id}/merge {"into", "reason", "witness"} */
void
handle_player_merge(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_player_merge(c->pit, c->actor, c->idem, c->person, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* POST /title31/ctr/{id} {"status"?, "bsa_id"?, "filed_on"?, "note"} */
void
handle_ctr_update(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_ctr_update(c->pit, c->actor, c->idem, c->id, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}
