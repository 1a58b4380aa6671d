/*
 * routes.h - route indexes for /metrics, and the route groups that live in
 * their own files (reports, audit, bankers).  Each *_route function answers
 * and returns true when the path is one of its own, else returns false.
 */
#ifndef PB_HTTP_ROUTES_H
#define PB_HTTP_ROUTES_H

#include "http/http.h"

enum route {
	ROUTE_OTHER = 0,
	ROUTE_HEALTH,
	ROUTE_METRICS,
	ROUTE_TABLES,
	ROUTE_TABLE,
	ROUTE_TABLE_STATUS,
	ROUTE_TABLE_LIMITS,
	ROUTE_TABLE_ROUNDS,
	ROUTE_TABLE_BANKERS,
	ROUTE_ROUND,
	ROUTE_ROUND_BET,
	ROUTE_ROUND_STEP,
	ROUTE_ROUND_VERIFY,
	ROUTE_REPORTS,
	ROUTE_EVENTS,
	ROUTE_INTEGRITY,
	ROUTE_CHECKPOINTS,
	ROUTE_STATIC,
	ROUTE_COUNT
};

/* /api/v1/tables/{t}/<more>: routes beyond the core ones (bankers, ...). */
bool table_extra_route(struct app *app, struct pit *pit, const struct actor *a, const struct http_request *req,
    char seg[][PB_NAME_MAX], int n, struct http_answer *ans);

/* /api/v1/rounds/{id}/<more>: verify, ... */
bool round_extra_route(struct app *app, struct pit *pit, const struct actor *a, const struct http_request *req,
    char seg[][PB_NAME_MAX], int n, int64_t round_id, struct http_answer *ans);

/* Everything else under /api/v1: reports, events, integrity, checkpoints. */
bool other_route(struct app *app, struct pit *pit, const struct actor *a, const struct http_request *req,
    char seg[][PB_NAME_MAX], int n, struct http_answer *ans);

/* Verify, integrity, checkpoints, significant events, acknowledging a hold (audit.c). */
bool audit_route(struct app *app, struct pit *pit, const struct actor *a, const struct http_request *req,
    char seg[][PB_NAME_MAX], int n, struct http_answer *ans);

/* GET /api/v1/reports/{summary,payouts,exceptions,bankers}, JSON or CSV (reports.c). */
bool reports_route(struct app *app, struct pit *pit, const struct actor *a, const struct http_request *req,
    char seg[][PB_NAME_MAX], int n, struct http_answer *ans);

/* GET /api/v1/tables/{t}/bankers (bankers.c). */
bool bankers_route(struct pit *pit, const struct actor *a, const struct http_request *req, const char *table_id,
    struct http_answer *ans);

/* GET /metrics in Prometheus text format. */
void metrics_answer(struct app *app, struct http_answer *ans);

/* Counts a refused request by its error code (for /metrics). */
void record_refusal(struct app *app, const struct http_answer *ans);

#endif
