/*
 * bankers.c - GET /api/v1/tables/{t}/bankers?limit=N: the banker rotation of
 * a player-banked table.
 */
#include <stdlib.h>
#include <string.h>

#include "http/routes.h"
#include "table/banker.h"

bool
bankers_route(struct pit *pit, const struct actor *a, const struct http_request *req, const char *table_id,
    struct http_answer *ans)
{
	struct pb_error err;
	json_t *out = NULL;
	const char *ls = MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, "limit");
	long limit = 50;
	char *end = NULL;

	ans->route = ROUTE_TABLE_BANKERS;
	if (strcmp(req->method, "GET") != 0) {
		pb_fail(&err, 405, "method_not_allowed", "use GET here");
		answer_error(ans, &err);
		ans->allow = "GET";
		return true;
	}
	if (ls != NULL) {
		limit = strtol(ls, &end, 10);
		if (*ls == '\0' || *end != '\0' || limit < 1 || limit > 500) {
			pb_fail(&err, 400, "invalid_query", "limit: must be 1..500");
			answer_error(ans, &err);
			return true;
		}
	}
	if (pit_table_bankers(pit, a, table_id, (int)limit, &out, &err) < 0) {
		answer_error(ans, &err);
		return true;
	}
	ans->status = 200;
	ans->json = out;
	return true;
}
