/*
 * players.c - the routes of the players (table/players/players.h): their records,
 * seating, the cash and chips at a table, ratings and Title 31.  Each hands
 * the request to the pit and answers what it says.
 */
#include <string.h>

#include "http/request.h"
#include "http/routes.h"
#include "table/players/players.h"
#include "table/reports/reports.h"

/* GET /players?card=&name= */
void
handle_players(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int rc;

	if (query_only(c->req, (const char *const[]){"card", "name", NULL}, ans) < 0)
		return;
	rc = pit_player_search(c->pit, c->actor, query(c->req, "card"), query(c->req, "name"), &out, &err);
	answer_result(ans, rc, out, 200, &err);
}

/* POST /players {"card", "name", ...} or {"description"} */
void
handle_player_add(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_player_create(c->pit, c->actor, c->idem, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* GET /players/{id} */
void
handle_player(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int rc = pit_player_get(c->pit, c->actor, c->person, &out, &err);

	answer_result(ans, rc, out, 200, &err);
}

/* PATCH /players/{id} */
void
handle_player_change(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 200;
	int rc = pit_player_update(c->pit, c->actor, c->idem, c->person, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* GET /players/{id}/rating?from&to */
void
handle_player_rating(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int rc;

	if (query_only(c->req, (const char *const[]){"from", "to", NULL}, ans) < 0)
		return;
	rc = pit_player_rating(c->pit, c->actor, c->person, query(c->req, "from"), query(c->req, "to"), &out, &err);
	answer_result(ans, rc, out, 200, &err);
}

/* POST /players/{id}/ratings: a manual rating */
void
handle_player_manual_rating(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_player_manual_rating(c->pit, c->actor, c->idem, c->person, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* PUT and DELETE /tables/{t}/seats/{s}/player (the route's arg: 1 for DELETE) */
void
handle_seat_player(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 200;
	int rc = pit_seat_player(c->pit, c->actor, c->idem, c->table, c->seat, c->body, c->route->arg == 1, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* GET /tables/{t}/seats */
void
handle_table_seats(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int rc;

	if (query_only(c->req, (const char *const[]){NULL}, ans) < 0)
		return;
	rc = pit_table_seats(c->pit, c->actor, c->table, &out, &err);
	answer_result(ans, rc, out, 200, &err);
}

/* POST /tables/{t}/transactions */
void
handle_table_transaction(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_table_transaction(c->pit, c->actor, c->idem, c->table, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* GET /reports/ratings and /reports/title31 ?gaming_day=D&format=json|csv (the route's arg: 1 for title31) */
void
handle_players_report(const struct route_call *c, struct http_answer *ans)
{
	static const char *const DISPOSITION[] = {"attachment; filename=\"pitboss-ratings.csv\"",
	    "attachment; filename=\"pitboss-title31.csv\""};
	const char *format = query(c->req, "format"), *day = query(c->req, "gaming_day");
	struct pb_error err;
	json_t *out = NULL;
	int rc;

	if (query_only(c->req, (const char *const[]){"gaming_day", "format", NULL}, ans) < 0)
		return;
	if (format != NULL && strcmp(format, "json") != 0 && strcmp(format, "csv") != 0) {
		answer_fail(ans, 400, "invalid_query", "format: json (the default) or csv (got \"%.20s\")", format);
		return;
	}
	rc = c->route->arg == 1 ? pit_title31_report(c->pit, c->actor, day, &out, &err)
	    : pit_ratings_report(c->pit, c->actor, day, &out, &err);
	if (rc < 0 || format == NULL || strcmp(format, "json") == 0) {
		answer_result(ans, rc, out, 200, &err);
		return;
	}
	ans->text = players_csv(c->route->arg == 1, out, &ans->text_len);
	json_decref(out);
	if (ans->text == NULL) {
		answer_fail(ans, 500, "out_of_memory", "out of memory");
		return;
	}
	ans->status = 200;
	ans->content_type = "text/csv; charset=utf-8";
	ans->disposition = DISPOSITION[c->route->arg == 1];
}

/* POST /title31/acknowledgments */
void
handle_title31_ack(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_title31_acknowledge(c->pit, c->actor, c->idem, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}
