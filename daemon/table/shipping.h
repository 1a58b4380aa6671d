/*
 * shipping.h - what /metrics shows of the shipper to the central tier
 * (daemon/central/, docs/central.md).  Here so that http/ can show it
 * without knowing the central layer: main.c hands app a function that
 * fills it.
 */
#ifndef PB_TABLE_SHIPPING_H
#define PB_TABLE_SHIPPING_H

#include <stdbool.h>
#include <stdint.h>

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

#endif
