/*
 * people.c - the routes of /api/v1/people and /api/v1/sessions: employees,
 * their passwords, signing in and out.  A body that carries a password is
 * never kept under an Idempotency-Key (its stored request hash would be an
 * unsalted hash of the password): those routes ignore the header.
 */
#include <string.h>

#include "http/auth.h"
#include "http/request.h"
#include "http/routes.h"
#include "table/people/people.h"

void
handle_people(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int rc = pit_people_list(c->pit, c->actor, &out, &err);

	answer_result(ans, rc, out, 200, &err);
}

void
handle_person(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int rc = pit_person_get(c->pit, c->actor, c->person, &out, &err);

	answer_result(ans, rc, out, 200, &err);
}

/* POST /people: the body carries a one-time password, so no Idempotency-Key (a retry gets 409 person_exists). */
void
handle_person_add(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_person_add(c->pit, c->actor, NULL, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

void
handle_person_change(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 200;
	int rc = pit_person_change(c->pit, c->actor, c->idem, c->person, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* PUT /people/{id}/password: while a session must change its password, only its own. */
void
handle_person_password(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 200, rc;

	if (c->session != NULL && c->session->must_change && strcmp(c->person, c->session->person_id) != 0)
		return answer_fail(ans, 403, "password_change_required", "change your one-time password first: PUT "
		    "/api/v1/people/%s/password {\"current\", \"password\"}", c->session->person_id);
	rc = pit_person_password(c->pit, c->actor, c->session ? c->session->token_sha256 : NULL, c->person, c->body, &out,
	    &status, &err);
	answer_result(ans, rc, out, status, &err);
}

/* POST /sessions (no token): a wrong person or password counts towards the address's lockout too (routes.c). */
void
handle_session_open(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201, rc;

	rc = pit_session_open(c->pit, c->body, &out, &status, &err);
	answer_result(ans, rc, out, status, &err);
	ans->cache_control = "no-store";
}

void
handle_session_close(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 200;
	int rc = pit_session_close(c->pit, c->actor, c->session, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}
