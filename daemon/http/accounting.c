/*
 * accounting.c - the routes of the table's accounting documents
 * (table/accounting/accounting.h): the opener, closer and shift change,
 * fills and credits, their voids and their receipts at the table, the drop,
 * the acknowledgment of an accounting exception, the investigation of a
 * count variance and the explanation of a serial exception.  Each hands the
 * body to the pit and answers what it says.
 */
#include "http/request.h"
#include "http/routes.h"
#include "table/accounting/accounting.h"
#include "table/reports/reports.h"

/* POST /tables/{t}/inventory {"kind", "chips", "reason"?, "witness"} */
void
handle_acct_inventory(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_acct_inventory(c->pit, c->actor, c->idem, c->table, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* POST /tables/{t}/fills and /credits (the route's arg: 1 for a credit). */
void
handle_acct_transfer(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_acct_transfer(c->pit, c->actor, c->idem, c->table, c->route->arg == 1, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* POST /tables/{t}/fills/{serial}/void and /credits/{serial}/void {"reason", "witness"} */
void
handle_acct_void(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_acct_void(c->pit, c->actor, c->idem, c->table, c->route->arg == 1, c->serial, c->body, &out, &status,
	    &err);

	answer_result(ans, rc, out, status, &err);
}

/* POST /tables/{t}/fills/{serial}/receipt and /credits/{serial}/receipt {"witnesses", "year"?} */
void
handle_acct_receipt(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_acct_receipt(c->pit, c->actor, c->idem, c->table, c->route->arg == 1, c->serial, c->body, &out, &status,
	    &err);

	answer_result(ans, rc, out, status, &err);
}

/* POST /tables/{t}/drop {"box", "count", ..., "witnesses", "approval"?} */
void
handle_acct_drop(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_acct_drop(c->pit, c->actor, c->idem, c->table, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* POST /exceptions/acknowledgments {"kind", "table", "ref", "note"} */
void
handle_acct_acknowledge(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_acct_acknowledge(c->pit, c->actor, c->idem, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* POST /serials/fill/{serial}/explanation and /serials/credit/... (the route's arg: 1 for a credit) */
void
handle_serial_explain(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_serial_explain(c->pit, c->actor, c->idem, c->route->arg == 1, c->serial, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}

/* GET /tables/{t}/documents?gaming_day=YYYY-MM-DD */
void
handle_acct_documents(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int rc;

	if (query_only(c->req, (const char *const[]){"gaming_day", NULL}, ans) < 0)
		return;
	rc = pit_acct_documents(c->pit, c->actor, c->table, query(c->req, "gaming_day"), &out, &err);
	answer_result(ans, rc, out, 200, &err);
}

/* POST /variances/{table}/{gaming_day} {"status", "assignee"?, "cause"?, "note", "witness"?} */
void
handle_variance_investigate(const struct route_call *c, struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 201;
	int rc = pit_variance_investigate(c->pit, c->actor, c->idem, c->table, c->gaming_day, c->body, &out, &status, &err);

	answer_result(ans, rc, out, status, &err);
}
