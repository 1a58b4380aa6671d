/*
 * central.h - the central tier (docs/central.md): every property's record
 * shipped to one PostgreSQL.  A layer above table/ and store/ (the shipper
 * reads the record and advances its position through the writer), below
 * main.c and the `pitboss central` commands.  No libpq type here:
 * central_int.h is the folder's own header.
 */
#ifndef PB_CENTRAL_CENTRAL_H
#define PB_CENTRAL_CENTRAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "common/error.h"
#include "table/ops/ops.h"

struct store_writer;
struct property_config;

/* The schema version this build creates (pitboss.schema_version). */
#define CENTRAL_SCHEMA_VERSION 6

/*
 * Creates the schema `pitboss` or upgrades it to version to (0:
 * CENTRAL_SCHEMA_VERSION; an older one for an upgrade in steps), all in one
 * transaction under an advisory lock; *from is the version found (0: none).
 * A newer schema than this build's is refused; one at or past to is left.
 */
int central_init(const char *conninfo, int to, int *from, struct pb_error *err);

/*
 * How far restore or verify is (progress.c): on a terminal a line
 * rewritten in place (done of total, rate, ETA); central_progress_end
 * prints the count, time and rate in any case.  total is set by the
 * command once it has counted the events.
 */
struct central_progress {
	FILE *out;
	const char *what;
	bool live, drawn;
	int64_t total, done, start_ms, drawn_ms;
};
void central_progress_start(struct central_progress *p, FILE *out, const char *what);
void central_progress_step(struct central_progress *p, int64_t done);
void central_progress_end(struct central_progress *p);

/*
 * Checks the central copy (of one property, or of all when property is
 * NULL): chains continuous, each prev_hash the previous hash, each hash
 * recomputed, each checkpoint's signature and head.  Each problem is a line
 * on out; *problems counts them.  -1 only when the check could not run.
 * progress (or NULL) is told the events walked.
 */
int central_verify(const char *conninfo, const char *property, FILE *out, int64_t *events, int64_t *problems,
    struct central_progress *progress, struct pb_error *err);

/*
 * Rebuilds a property's database at path from the central copy: the events
 * byte for byte, the checkpoints, and every derived row by replaying the
 * events (restore.c).  A path that exists is refused; the database is
 * written as path.partial-PID and renamed at the end.  *events and *rounds
 * count what was restored; progress (or NULL) is told the events copied.
 */
int central_restore(const char *conninfo, const char *property, const char *path, int64_t *events, int64_t *rounds,
    struct central_progress *progress, struct pb_error *err);

/*
 * `pitboss central grant` (grant.c): the login role (created when missing,
 * with password unless NULL) may insert and read only property's rows of
 * the central tables (row-level security, schema version 3).  Run by the
 * schema's owner or a role with CREATEROLE.
 */
int central_grant(const char *conninfo, const char *property, const char *role, const char *password,
    struct pb_error *err);

/* ---- cross-property reports (report.c) ---- */

/*
 * The summary across the properties of the central copy, in one snapshot:
 * each property's rows through its own calendar and range, merged (new
 * reference in *out).  Table and dealer groups are keyed "PROPERTY/ID".
 */
int central_report(const struct central_report_options *o, json_t **out, struct pb_error *err);

/* ---- the shipper (ship.c) ---- */

struct shipper_options {
	const char *conninfo;            /* the central server; copied */
	const char *property;            /* property.id; copied */
	const struct property_config *calendar;   /* its name, zone, gaming day and shifts, sent at connection (NULL: UTC days) */
	const char *database;            /* the live database, read through a connection of the shipper's own */
	struct store_writer *writer;     /* the position is advanced through it, after PostgreSQL's COMMIT */
	int batch_events;                /* events per PostgreSQL transaction (0: 500) */
	int statement_timeout_ms;        /* the deadline of each connection and statement (0: 30000) */
};

struct shipper;

/* Starts the shipper's thread. */
int shipper_start(const struct shipper_options *o, struct shipper **out, struct pb_error *err);

/*
 * What /metrics shows (table/ops/ops.h); s may be NULL (not configured).
 * The lag is read from reader (the caller's own connection to the record;
 * NULL: left 0); nothing waits on the shipper's thread or the network.
 */
void shipper_status(struct shipper *s, struct store *reader, struct shipping_status *out);

/* Stops the thread (a batch under way is finished or failed first), joins and frees; NULL does nothing. */
void shipper_free(struct shipper *s);

#endif
