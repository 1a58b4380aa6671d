/*
 * routes.c - the route table of the API and its one matcher.
 *
 * A request under /api/ (or /metrics) goes: the path split into segments
 * (404 at once when it is no API path); a public route (health, ready, metrics)
 * answered without a token; a sign-in (POST /sessions) gets the connection and
 * its body without a token; then the token (401, 429), the
 * Idempotency-Key and the body of any method but GET and HEAD (400), in
 * that order, before the path is routed; then the route: 404 when no
 * pattern fits (round_not_found when the round id is not one), the ids
 * parsed once (a round's label looked up: 404 round_not_found, 422
 * invalid_seat), 405 with the Allow
 * list of the pattern, 403 for the operations checked at the edge, and the
 * handler.  This is the order the answers have always had.
 */
#include <stdio.h>
#include <string.h>

#include "common/faults.h"
#include "http/auth.h"
#include "http/request.h"
#include "http/routes.h"
#include "table/people/people.h"
#include "table/reports/reports.h"
#include "table/rounds/rounds.h"

#define V1 "/api/v1"
#define WRITE (RT_BODY | RT_IDEMPOTENT)
#define POOLED_REPORT (RT_AUTHORIZE | RT_HEAD | RT_REPORT)     /* a report on the report pool */

const struct route api_routes[] = {
	{"GET", "/metrics", ROUTE_METRICS, OP_READ, RT_PUBLIC, handle_metrics, 0},
	{"GET", V1 "/health", ROUTE_HEALTH, OP_READ, RT_PUBLIC, handle_health, 0},
	{"GET", V1 "/ready", ROUTE_READY, OP_READ, RT_PUBLIC, handle_ready, 0},
	{"GET", V1 "/tables", ROUTE_TABLES, OP_READ, 0, handle_tables, 0},
	{"GET", V1 "/tables/{table}", ROUTE_TABLE, OP_READ, 0, handle_table, 0},
	{"POST", V1 "/tables/{table}/open", ROUTE_TABLE_STATUS, OP_TABLE_CHANGE, WRITE, handle_table_open, 1},
	{"POST", V1 "/tables/{table}/close", ROUTE_TABLE_STATUS, OP_TABLE_CHANGE, WRITE, handle_table_open, 0},
	{"PUT", V1 "/tables/{table}/limits", ROUTE_TABLE_LIMITS, OP_TABLE_CHANGE, WRITE, handle_table_limits, 0},
	{"PUT", V1 "/tables/{table}/dealer", ROUTE_TABLE_STATUS, OP_DEALER_SET, WRITE, handle_table_dealer, 0},
	{"GET", V1 "/tables/{table}/rounds", ROUTE_TABLE_ROUNDS, OP_READ, 0, handle_table_rounds, 0},
	{"POST", V1 "/tables/{table}/rounds", ROUTE_TABLE_ROUNDS, OP_ROUND_OPEN, WRITE, handle_round_open, 0},
	{"GET", V1 "/tables/{table}/bankers", ROUTE_TABLE_BANKERS, OP_READ, 0, handle_table_bankers, 0},
	{"POST", V1 "/tables/{table}/bank-offers", ROUTE_TABLE_BANKERS, OP_BANK_OFFER, WRITE, handle_bank_offer, 0},
	{"POST", V1 "/tables/{table}/acknowledge", ROUTE_TABLE_STATUS, OP_ACKNOWLEDGE, 0, handle_table_acknowledge, 0},
	{"POST", V1 "/tables/{table}/inventory", ROUTE_ACCOUNTING, OP_INVENTORY, WRITE, handle_acct_inventory, 0},
	{"POST", V1 "/tables/{table}/fills", ROUTE_ACCOUNTING, OP_TRANSFER, WRITE, handle_acct_transfer, 0},
	{"POST", V1 "/tables/{table}/credits", ROUTE_ACCOUNTING, OP_TRANSFER, WRITE, handle_acct_transfer, 1},
	{"POST", V1 "/tables/{table}/fills/{serial}/void", ROUTE_ACCOUNTING, OP_TRANSFER_VOID, WRITE, handle_acct_void, 0},
	{"POST", V1 "/tables/{table}/credits/{serial}/void", ROUTE_ACCOUNTING, OP_TRANSFER_VOID, WRITE, handle_acct_void, 1},
	{"POST", V1 "/tables/{table}/fills/{serial}/receipt", ROUTE_ACCOUNTING, OP_TRANSFER_RECEIPT, WRITE,
	    handle_acct_receipt, 0},
	{"POST", V1 "/tables/{table}/credits/{serial}/receipt", ROUTE_ACCOUNTING, OP_TRANSFER_RECEIPT, WRITE,
	    handle_acct_receipt, 1},
	{"GET", V1 "/tables/{table}/documents", ROUTE_ACCOUNTING, OP_READ, 0, handle_acct_documents, 0},
	{"POST", V1 "/tables/{table}/drop", ROUTE_ACCOUNTING, OP_DROP, WRITE, handle_acct_drop, 0},
	{"GET", V1 "/rounds/{round}", ROUTE_ROUND, OP_READ, 0, handle_round, 0},
	{"PUT", V1 "/rounds/{round}/bets/{seat}", ROUTE_ROUND_BET, OP_ROUND_STEP, WRITE, handle_round_step, STEP_BET_PUT},
	{"DELETE", V1 "/rounds/{round}/bets/{seat}", ROUTE_ROUND_BET, OP_ROUND_STEP, WRITE, handle_round_step, STEP_BET_DELETE},
	{"POST", V1 "/rounds/{round}/close", ROUTE_ROUND_STEP, OP_ROUND_STEP, WRITE, handle_round_step, STEP_CLOSE},
	{"POST", V1 "/rounds/{round}/deal", ROUTE_ROUND_STEP, OP_ROUND_STEP, WRITE, handle_round_step, STEP_DEAL},
	{"POST", V1 "/rounds/{round}/decisions", ROUTE_ROUND_STEP, OP_ROUND_STEP, WRITE, handle_round_step, STEP_DECIDE},
	{"POST", V1 "/rounds/{round}/reveal", ROUTE_ROUND_STEP, OP_ROUND_STEP, WRITE, handle_round_step, STEP_REVEAL},
	{"POST", V1 "/rounds/{round}/settle", ROUTE_ROUND_STEP, OP_ROUND_STEP, WRITE, handle_round_step, STEP_SETTLE},
	{"POST", V1 "/rounds/{round}/void", ROUTE_ROUND_STEP, OP_ROUND_VOID, WRITE, handle_round_step, STEP_VOID},
	{"POST", V1 "/rounds/{round}/corrections", ROUTE_ACCOUNTING, OP_CORRECTION, WRITE, handle_round_correction, 0},
	{"GET", V1 "/rounds/{round_text}/verify", ROUTE_ROUND_VERIFY, OP_READ, RT_REPORT, handle_round_verify, 0},
	{"GET", V1 "/reports/summary", ROUTE_REPORTS, OP_REPORT_READ, POOLED_REPORT, handle_report, REPORT_SUMMARY},
	{"GET", V1 "/reports/payouts", ROUTE_REPORTS, OP_REPORT_READ, RT_AUTHORIZE | RT_HEAD | RT_LONG, handle_report, REPORT_PAYOUTS},
	{"GET", V1 "/reports/exceptions", ROUTE_REPORTS, OP_REPORT_READ, RT_AUTHORIZE | RT_HEAD | RT_LONG, handle_report, REPORT_EXCEPTIONS},
	{"GET", V1 "/reports/bankers", ROUTE_REPORTS, OP_REPORT_READ, POOLED_REPORT, handle_report, REPORT_BANKERS},
	{"GET", V1 "/reports/dealers", ROUTE_REPORTS, OP_REPORT_READ, POOLED_REPORT, handle_report, REPORT_DEALERS},
	{"GET", V1 "/reports/master-game", ROUTE_REPORTS, OP_REPORT_READ, POOLED_REPORT, handle_report, REPORT_MASTER_GAME},
	{"GET", V1 "/reports/statistics", ROUTE_REPORTS, OP_REPORT_READ, POOLED_REPORT, handle_report, REPORT_STATISTICS},
	{"GET", V1 "/reports/decisions", ROUTE_REPORTS, OP_REPORT_READ, RT_AUTHORIZE | RT_HEAD | RT_LONG, handle_report,
	    REPORT_DECISIONS},
	{"POST", V1 "/exceptions/acknowledgments", ROUTE_ACCOUNTING, OP_EXCEPTION_ACK, WRITE, handle_acct_acknowledge, 0},
	{"POST", V1 "/variances/{table}/{gaming_day}", ROUTE_ACCOUNTING, OP_VARIANCE_INVESTIGATE, WRITE,
	    handle_variance_investigate, 0},
	{"POST", V1 "/serials/fill/{serial}/explanation", ROUTE_ACCOUNTING, OP_SERIAL_EXPLAIN, WRITE, handle_serial_explain, 0},
	{"POST", V1 "/serials/credit/{serial}/explanation", ROUTE_ACCOUNTING, OP_SERIAL_EXPLAIN, WRITE, handle_serial_explain, 1},
	{"GET", V1 "/central/summary", ROUTE_REPORTS, OP_REPORT_READ, RT_AUTHORIZE | RT_HEAD | RT_LONG, handle_central_summary, 0},
	{"GET", V1 "/events", ROUTE_EVENTS, OP_AUDIT_READ, RT_AUTHORIZE | RT_REPORT, handle_events, 0},
	{"GET", V1 "/integrity", ROUTE_INTEGRITY, OP_AUDIT_READ, RT_AUTHORIZE | RT_LONG, handle_integrity, 0},
	{"GET", V1 "/checkpoints", ROUTE_CHECKPOINTS, OP_READ, 0, handle_checkpoints, 0},
	{"POST", V1 "/backups", ROUTE_OTHER, OP_BACKUP, RT_AUTHORIZE, handle_backup, 0},
	{"GET", V1 "/people", ROUTE_PEOPLE, OP_PEOPLE_READ, RT_AUTHORIZE, handle_people, 0},
	{"POST", V1 "/people", ROUTE_PEOPLE, OP_PEOPLE_CHANGE, RT_AUTHORIZE | RT_BODY | RT_PASSWORD, handle_person_add, 0},
	{"GET", V1 "/people/{person}", ROUTE_PEOPLE, OP_PEOPLE_READ, RT_AUTHORIZE, handle_person, 0},
	{"PATCH", V1 "/people/{person}", ROUTE_PEOPLE, OP_PEOPLE_CHANGE, RT_AUTHORIZE | WRITE, handle_person_change, 0},
	{"PUT", V1 "/people/{person}/password", ROUTE_PEOPLE, OP_PASSWORD, RT_BODY | RT_MUST_CHANGE | RT_PASSWORD, handle_person_password, 0},
	{"GET", V1 "/players", ROUTE_PEOPLE, OP_PLAYER_READ, RT_AUTHORIZE, handle_players, 0},
	{"POST", V1 "/players", ROUTE_PEOPLE, OP_PLAYER_CHANGE, RT_AUTHORIZE | WRITE, handle_player_add, 0},
	{"GET", V1 "/players/{person}", ROUTE_PEOPLE, OP_PLAYER_READ, RT_AUTHORIZE, handle_player, 0},
	{"PATCH", V1 "/players/{person}", ROUTE_PEOPLE, OP_PLAYER_CHANGE, RT_AUTHORIZE | WRITE, handle_player_change, 0},
	{"GET", V1 "/players/{person}/rating", ROUTE_PEOPLE, OP_PLAYER_PERSONAL, RT_AUTHORIZE, handle_player_rating, 0},
	{"POST", V1 "/players/{person}/ratings", ROUTE_PEOPLE, OP_MANUAL_RATING, RT_AUTHORIZE | WRITE, handle_player_manual_rating, 0},
	{"GET", V1 "/tables/{table}/seats", ROUTE_TABLE, OP_READ, 0, handle_table_seats, 0},
	{"PUT", V1 "/tables/{table}/seats/{seat}/player", ROUTE_TABLE_STATUS, OP_SEATING, WRITE, handle_seat_player, 0},
	{"DELETE", V1 "/tables/{table}/seats/{seat}/player", ROUTE_TABLE_STATUS, OP_SEATING, WRITE, handle_seat_player, 1},
	{"POST", V1 "/tables/{table}/transactions", ROUTE_ACCOUNTING, OP_SEATING, WRITE, handle_table_transaction, 0},
	{"GET", V1 "/reports/ratings", ROUTE_REPORTS, OP_PLAYER_PERSONAL, RT_AUTHORIZE | RT_REPORT,
	    handle_players_report, 0},
	{"GET", V1 "/reports/title31", ROUTE_REPORTS, OP_PLAYER_PERSONAL, RT_AUTHORIZE | RT_REPORT,
	    handle_players_report, 1},
	{"POST", V1 "/title31/acknowledgments", ROUTE_ACCOUNTING, OP_TITLE31_ACK, RT_AUTHORIZE | WRITE, handle_title31_ack, 0},
	{"POST", V1 "/title31/ctr/{id}", ROUTE_ACCOUNTING, OP_CTR_UPDATE, RT_AUTHORIZE | WRITE, handle_ctr_update, 0},
	{"POST", V1 "/cage/transactions", ROUTE_ACCOUNTING, OP_CAGE_CASH, RT_AUTHORIZE | WRITE, handle_cage_transaction, 0},
	{"GET", V1 "/transactions", ROUTE_REPORTS, OP_PLAYER_PERSONAL, RT_AUTHORIZE | RT_REPORT, handle_transactions, 0},
	{"POST", V1 "/transactions/{id}/void", ROUTE_ACCOUNTING, OP_TXN_VOID, RT_AUTHORIZE | WRITE, handle_transaction_void, 0},
	{"POST", V1 "/players/{person}/merge", ROUTE_PEOPLE, OP_PLAYER_MERGE, RT_AUTHORIZE | WRITE, handle_player_merge, 0},
	{"POST", V1 "/sessions", ROUTE_SESSIONS, OP_SESSION, RT_SIGN_IN | RT_BODY | RT_PASSWORD, handle_session_open, 0},
	{"DELETE", V1 "/sessions/current", ROUTE_SESSIONS, OP_SESSION, RT_MUST_CHANGE, handle_session_close, 0},
};

const size_t api_route_count = sizeof(api_routes) / sizeof(api_routes[0]);

#define SEGMENTS_MAX 8     /* "api", "v1" and six more */

/* A path split into its segments. */
struct path {
	char seg[SEGMENTS_MAX][PB_NAME_MAX];
	int n;
};

/*
 * Splits "/metrics", or "/api/v1" and what follows, into segments; -1 for
 * any other path, an empty or over-long segment, "." or "..".  A trailing
 * slash is ignored.
 */
static int
split_path(const char *path, struct path *out)
{
	const char *p = path + 7;

	out->n = 0;
	if (strcmp(path, "/metrics") == 0) {
		snprintf(out->seg[out->n++], PB_NAME_MAX, "metrics");
		return 0;
	}
	if (strncmp(path, V1, 7) != 0 || (path[7] != '/' && path[7] != '\0'))
		return -1;
	snprintf(out->seg[out->n++], PB_NAME_MAX, "api");
	snprintf(out->seg[out->n++], PB_NAME_MAX, "v1");
	while (*p == '/') {
		const char *e;
		size_t len;
		p++;
		if (*p == '\0')
			break;
		e = strchr(p, '/');
		len = e ? (size_t)(e - p) : strlen(p);
		if (out->n == SEGMENTS_MAX || len == 0 || len >= PB_NAME_MAX)
			return -1;
		memcpy(out->seg[out->n], p, len);
		out->seg[out->n][len] = '\0';
		if (strcmp(out->seg[out->n], "..") == 0 || strcmp(out->seg[out->n], ".") == 0)
			return -1;
		out->n++;
		p += len;
	}
	return 0;
}

/* Copies the pattern's next segment into buf (at most PB_NAME_MAX - 1 bytes); false at its end. */
static bool
next_segment(const char **pattern, char buf[PB_NAME_MAX])
{
	const char *p = *pattern, *e;
	size_t len;

	if (*p != '/')
		return false;
	p++;
	e = strchr(p, '/');
	len = e ? (size_t)(e - p) : strlen(p);
	snprintf(buf, PB_NAME_MAX, "%.*s", (int)len, p);
	*pattern = p + len;
	return true;
}

/* Does the path have this pattern's shape (literals equal, a parameter for any segment)? */
static bool
shape_matches(const char *pattern, const struct path *path)
{
	char ps[PB_NAME_MAX];
	int i = 0;

	while (next_segment(&pattern, ps)) {
		if (i == path->n || (ps[0] != '{' && strcmp(ps, path->seg[i]) != 0))
			return false;
		i++;
	}
	return i == path->n;
}

/* The first route of the pattern the path has, or NULL. */
static const struct route *
match_pattern(const struct path *path)
{
	for (size_t i = 0; i < api_route_count; i++)
		if (shape_matches(api_routes[i].pattern, path))
			return &api_routes[i];
	return NULL;
}

/* A seat number from a path segment: 1..9 (the table's own range is checked later). */
static int
parse_seat(const char *s, int *seat)
{
	if (s[0] < '1' || s[0] > '9' || s[1] != '\0')
		return -1;
	*seat = s[0] - '0';
	return 0;
}

static void
round_not_found(struct http_answer *ans, const char *segment)
{
	answer_fail(ans, 404, "round_not_found", "\"%.32s\" is not a round id", segment);
}

/*
 * A {round} segment: the round's global id ("1390"), or its label, the
 * table and the table's number of the round ("T1-277"), looked up in the
 * store.  404 round_not_found for anything else or a label of no round.
 */
static int
read_round(struct route_call *c, const char *s, struct http_answer *ans)
{
	struct pb_error err;
	char table[PB_ID_MAX];
	int64_t round_no;

	if (parse_id(s, &c->round) == 0)
		return 0;
	if (c->pit == NULL || round_label_parse(s, table, &round_no) < 0) {
		round_not_found(ans, s);
		return -1;
	}
	if (pit_round_find(c->pit, s, &c->round, &err) < 0) {
		answer_error(ans, &err);
		return -1;
	}
	return 0;
}

/* A round id or the shape of a round's label (not looked up). */
static bool
round_segment_shape(const char *s)
{
	char table[PB_ID_MAX];
	int64_t n;

	return parse_id(s, &n) == 0 || round_label_parse(s, table, &n) == 0;
}

/*
 * Reads the parameters of the pattern from the path into c.  A round id is
 * refused before the route counts as found (its /metrics route stays
 * "other"), a seat after.
 */
static int
read_params(const struct route *r, const struct path *path, struct route_call *c, struct http_answer *ans)
{
	const char *pattern = r->pattern;
	char ps[PB_NAME_MAX];

	for (int i = 0; next_segment(&pattern, ps); i++) {
		const char *s = path->seg[i];
		if (strcmp(ps, "{table}") == 0) {
			c->table = s;
		} else if (strcmp(ps, "{person}") == 0) {
			c->person = s;
		} else if (strcmp(ps, "{round_text}") == 0) {
			c->round_text = s;
		} else if (strcmp(ps, "{serial}") == 0) {
			c->serial = s;
		} else if (strcmp(ps, "{id}") == 0) {
			c->id = s;
		} else if (strcmp(ps, "{gaming_day}") == 0) {
			c->gaming_day = s;
		} else if (strcmp(ps, "{round}") == 0 && read_round(c, s, ans) < 0) {
			return -1;
		} else if (strcmp(ps, "{seat}") == 0 && parse_seat(s, &c->seat) < 0) {
			ans->route = r->metric;
			answer_fail(ans, 422, "invalid_seat", "\"%.16s\" is not a seat number", s);
			return -1;
		}
	}
	ans->route = r->metric;
	return 0;
}

/*
 * No pattern fits the path.  Under /rounds/{round} a malformed round id is
 * what is wrong (404 round_not_found); under /reports the report is
 * unknown; anything else is no resource.
 */
static void
no_route(const struct http_request *req, const struct path *path, struct http_answer *ans)
{
	for (size_t i = 0; i < api_route_count; i++) {
		const char *pattern = api_routes[i].pattern;
		char ps[PB_NAME_MAX];
		for (int k = 0; k < path->n && next_segment(&pattern, ps); k++) {
			if (strcmp(ps, "{round}") == 0 && !round_segment_shape(path->seg[k]))
				return round_not_found(ans, path->seg[k]);
			if (ps[0] != '{' && strcmp(ps, path->seg[k]) != 0)
				break;
		}
	}
	if (path->n >= 3 && strcmp(path->seg[2], "reports") == 0) {
		ans->route = ROUTE_REPORTS;
		answer_fail(ans, 404, "not_found", "no such report: %.100s (summary, payouts, exceptions, bankers, dealers, master-game, statistics)", req->path);
		return;
	}
	answer_not_found(ans, req->path);
}

/* The route of first's pattern for this method, or NULL; allow gets the pattern's methods ("GET, POST"). */
static const struct route *
route_for_method(const struct route *first, const char *method, char *allow, size_t allowsz)
{
	const struct route *found = NULL;
	size_t len = 0;

	allow[0] = '\0';
	for (const struct route *r = first; r < api_routes + api_route_count; r++) {
		if (strcmp(r->pattern, first->pattern) != 0)
			continue;
		if (strcmp(r->method, method) == 0 || ((r->flags & RT_HEAD) && strcmp(method, "HEAD") == 0))
			found = found ? found : r;
		len += (size_t)snprintf(allow + len, allowsz - len, "%s%s", len ? ", " : "", r->method);
		if (len >= allowsz)
			len = allowsz - 1;
	}
	return found;
}

/*
 * Whether the request hashes a password: a sign-in, a password change, a
 * person added with one, or any body with a witness's (or witnesses', or an
 * approval's) signature.  Such requests run on the password pool, never on
 * a worker.
 */
static bool
password_work(const struct route *r, const struct route_call *c)
{
	if (r->flags & RT_PASSWORD)
		return true;
	return json_is_object(c->body) && (json_object_get(c->body, "witness") != NULL ||
	    json_object_get(c->body, "witnesses") != NULL || json_object_get(c->body, "approval") != NULL);
}

/* A wrong password or witness (ans->guess) counts towards the client address's lockout; a sign-in's 401 may become 429. */
static void
count_guess(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error e = {.status = ans->status};

	if (c->pit->client == NULL)
		return;
	auth_password_failed(c->app, c->pit->client, &e);
	if (e.status != ans->status)
		answer_error(ans, &e);
}

/* The pattern's route for this method (405 otherwise), its edge authorization (403), its handler. */
static void
run_route(struct route_call *c, const struct route *first, const struct path *path, struct http_answer *ans)
{
	char allow[sizeof(ans->allow)];
	const struct route *r;
	struct pb_error err;

	if (read_params(first, path, c, ans) < 0)
		return;
	r = route_for_method(first, c->req->method, allow, sizeof(allow));
	if (r == NULL)
		return answer_method_not_allowed(ans, allow);
	if (c->session != NULL && c->session->must_change && !(r->flags & RT_MUST_CHANGE))
		return answer_fail(ans, 403, "password_change_required", "change your one-time password first: PUT "
		    "/api/v1/people/%s/password {\"current\", \"password\"}", c->session->person_id);
	if (c->actor != NULL && (r->flags & RT_AUTHORIZE) && authorize(c->actor, r->op, NULL, &err) < 0)
		return answer_error(ans, &err);
	c->route = r;
	if ((r->flags & (RT_LONG | RT_REPORT)) && c->req->may_defer && !c->req->on_reader) {
		/* Authenticated and authorized here; the reader or report pool runs it all again and the handler. */
		ans->deferred = (r->flags & RT_LONG) ? DEFER_READER : DEFER_REPORT;
		return;
	}
	if (password_work(r, c)) {
		/* Refused here, before any hashing, when the address (or, signing in, the id) is locked out. */
		if (pit_lockout_address(c->pit, &err) < 0 ||
		    ((r->flags & RT_SIGN_IN) && pit_session_precheck(c->pit, c->body, &err) < 0)) {
			answer_error(ans, &err);
			if (ans->guess)
				count_guess(c, ans);
			return;
		}
		if (c->req->may_defer && !c->req->on_reader) {
			ans->deferred = DEFER_PASSWORD;
			/* Sign-ins, which carry no token, share the pool by address; a token's requests are its holder's. */
			snprintf(ans->client, sizeof(ans->client), "%s", (r->flags & RT_SIGN_IN) && c->pit->client ? c->pit->client : "");
			return;
		}
	}
	r->handler(c, ans);
	if (ans->guess)
		count_guess(c, ans);
}

/*
 * The checks before routing: this thread's connection, the token (not for
 * a sign-in: actor NULL), the Idempotency-Key and the body.
 */
static int
before_routing(struct app *app, const struct http_request *req, struct pit *pit, struct actor *actor,
    struct pit_session *session, struct idempotency *idem, json_t **body, struct pb_error *err)
{
	pit->cfg = app->cfg;
	pit->signer = app->signer;
	pit->writer = app->writer;
	pit->store = app_thread_store(app, err);
	if (pit->store == NULL || (actor != NULL && auth_authenticate(app, pit, req, actor, session, err) < 0))
		return -1;
	if (strcmp(req->method, "GET") == 0 || strcmp(req->method, "HEAD") == 0)
		return 0;
	if (read_idempotency(req, idem, err) < 0)
		return -1;
	*body = parse_body(req, err);
	if (*body == NULL)
		return -1;
	return idempotency_hash(req, *body, idem, err);
}

/* api_dispatch's work, on whichever thread runs the request. */
static void
dispatch(struct app *app, const struct http_request *req, struct http_answer *ans)
{
	struct path path;
	struct route_call c;
	struct pit pit = {0};
	struct actor actor = {0};
	struct pit_session session;
	struct idempotency idem;
	struct pb_error err;
	const struct route *first;
	json_t *body = NULL;
	char client[INET6_ADDRSTRLEN];
	bool sign_in;

	memset(&c, 0, sizeof(c));
	memset(&idem, 0, sizeof(idem));
	memset(&err, 0, sizeof(err));
	c.app = app;
	c.req = req;
	ans->route = ROUTE_OTHER;
	if (split_path(req->path, &path) < 0 || path.n == 2)
		return answer_not_found(ans, req->path);
	first = match_pattern(&path);
	if (first != NULL && (first->flags & RT_PUBLIC))
		return run_route(&c, first, &path, ans);
	sign_in = first != NULL && (first->flags & RT_SIGN_IN);
	if (before_routing(app, req, &pit, sign_in ? NULL : &actor, &session, &idem, &body, &err) < 0)
		return answer_error(ans, &err);
	auth_client_address(app, req, client);
	pit.client = client;
	c.pit = &pit;
	c.actor = sign_in ? NULL : &actor;
	c.session = !sign_in && actor.is_person ? &session : NULL;
	c.idem = &idem;
	c.body = body;
	if (first == NULL)
		no_route(req, &path, ans);
	else
		run_route(&c, first, &path, ans);
	if (ans->status >= 400 && ans->status != 401 && ans->json != NULL && ans->deferred == DEFER_NONE)
		record_refusal(app, ans);
	json_decref(body);
}

/* The allocations made here are the request's: those the tests may make fail (common/faults.h). */
void
api_dispatch(struct app *app, const struct http_request *req, struct http_answer *ans)
{
	pb_faults_scope(true);
	dispatch(app, req, ans);
	pb_faults_scope(false);
}
