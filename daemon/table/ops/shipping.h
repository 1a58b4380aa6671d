/*
 * shipping.h - what http/ may ask of the central tier (daemon/central/,
 * docs/central.md) without knowing it: what /metrics shows of the shipper,
 * and the cross-property summary of a central read mode.  main.c hands app
 * the functions.
 */
#ifndef PB_TABLE_SHIPPING_H
#define PB_TABLE_SHIPPING_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

struct shipping_status {
	bool configured;                 /* "central" is in the configuration */
	bool connected;                  /* the last attempt reached the central server */
	int64_t shipped_events;          /* the position: the last event id PostgreSQL acknowledged */
	int64_t shipped_checkpoints;     /* the same for checkpoints */
	int64_t lag_events;              /* events recorded and not yet acknowledged */
	double lag_seconds;              /* the age of the oldest of them (0 when none) */
	int64_t failures;                /* failed attempts since start */
	char last_error[256];            /* the last failure ("" none since the last success) */
};

/* Fills out; arg is the function's own (main.c). */
typedef void shipping_status_fn(void *arg, struct shipping_status *out);

/* A cross-property summary (central/report.c; `pitboss central report`, GET /api/v1/central/summary). */
struct central_report_options {
	const char *conninfo;
	const char *property;            /* NULL: every property; or a comma-separated list */
	const char *group;               /* property, table, day, shift, dealer */
	const char *from, *to;           /* as the summary takes them (gaming days in each property's zone), or NULL */
	int64_t now_ms;                  /* the default range's "today" (0: now) */
};

struct pb_error;

/* The summary across properties as JSON (new reference in *out); conninfo is the function's own. */
typedef int central_report_fn(void *arg, const struct central_report_options *o, json_t **out, struct pb_error *err);

#endif
