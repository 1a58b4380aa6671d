/*
 * extra.c - the route groups beyond the core table and round routes.
 * Each group is answered by its own file; this one only dispatches.
 */
#include <string.h>

#include "http/routes.h"

bool
table_extra_route(struct app *app, struct pit *pit, const struct actor *a, const struct http_request *req,
    char seg[][PB_NAME_MAX], int n, struct http_answer *ans)
{
	(void)app;
	if (n == 3 && strcmp(seg[2], "bankers") == 0)
		return bankers_route(pit, a, req, seg[1], ans);
	return false;
}

bool
round_extra_route(struct app *app, struct pit *pit, const struct actor *a, const struct http_request *req,
    char seg[][PB_NAME_MAX], int n, int64_t round_id, struct http_answer *ans)
{
	(void)app;
	(void)pit;
	(void)a;
	(void)req;
	(void)seg;
	(void)n;
	(void)round_id;
	(void)ans;
	return false;
}

bool
other_route(struct app *app, struct pit *pit, const struct actor *a, const struct http_request *req,
    char seg[][PB_NAME_MAX], int n, struct http_answer *ans)
{
	return reports_route(app, pit, a, req, seg, n, ans);
}
