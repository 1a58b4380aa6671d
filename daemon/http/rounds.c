/*
 * rounds.c - the routes of /api/v1/rounds/{id}: the round, and its steps
 * (a bet put or taken back, close, deal, decisions, reveal, settle, void).
 */
#include "http/routes.h"
#include "table/rounds/rounds.h"

void
handle_round(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int rc = pit_round_get(c->pit, c->actor, c->round, &out, &err);

	answer_result(ans, rc, out, 200, &err);
}

/* One step (the route's arg); settled and voided rounds are counted for /metrics. */
void
handle_round_step(const struct route_call *c, struct http_answer *ans)
{
	enum round_step step = (enum round_step)c->route->arg;
	struct pb_error err;
	json_t *out = NULL;
	int status = 200;
	int rc = pit_round_step(c->pit, c->actor, c->idem, c->round, step, c->seat, c->body, &out, &status, &err);

	if (rc == 0 && step == STEP_SETTLE)
		atomic_fetch_add(&c->app->metrics.rounds_settled, 1);
	if (rc == 0 && step == STEP_VOID)
		atomic_fetch_add(&c->app->metrics.rounds_voided, 1);
	answer_result(ans, rc, out, status, &err);
}

/* POST /rounds/{id}/corrections {"seat", "wager", "paid", "supersedes"?, "reason", "witness"}: a mispay (201). */
void
handle_round_correction(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_round_correct(c->pit, c->actor, c->idem, c->round, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}
