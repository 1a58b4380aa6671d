/*
 * pg.c - libpq helpers of the central layer: connecting, running a
 * statement with bound parameters, rolling back.  Every value is bound
 * (PQexecParams); no SQL text is ever made from data.
 */
#include <stdlib.h>
#include <string.h>

#include "central/central_int.h"

/* libpq's message without its trailing newline, into err. */
static int
fail_pg(struct pb_error *err, const char *what, const char *msg)
{
	size_t n = strlen(msg);

	while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		n--;
	return pb_fail(err, 503, "central_unavailable", "%s: %.*s", what, (int)n, msg);
}

/* The server's notices ("already exists, skipping") are not for the operator. */
static void
quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

PGconn *
central_connect(const char *conninfo, struct pb_error *err)
{
	/* expand_dbname: the conninfo's own keys come after connect_timeout, so its own wins */
	const char *const keys[] = {"connect_timeout", "application_name", "dbname", NULL};
	const char *const vals[] = {"5", "pitboss", conninfo, NULL};
	PGconn *c = PQconnectdbParams(keys, vals, 1);

	if (c == NULL) {
		pb_oom(err);
		return NULL;
	}
	if (PQstatus(c) != CONNECTION_OK) {
		fail_pg(err, "connecting to the central server", PQerrorMessage(c));
		PQfinish(c);
		return NULL;
	}
	PQsetNoticeProcessor(c, quiet, NULL);
	return c;
}

int
central_exec(PGconn *c, const char *sql, int n, const char *const *params, PGresult **res, struct pb_error *err)
{
	PGresult *r = PQexecParams(c, sql, n, NULL, params, NULL, NULL, 0);
	ExecStatusType st = r != NULL ? PQresultStatus(r) : PGRES_FATAL_ERROR;

	if (res != NULL)
		*res = NULL;
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		fail_pg(err, "central server", r != NULL ? PQresultErrorMessage(r) : PQerrorMessage(c));
		PQclear(r);
		return -1;
	}
	if (res != NULL)
		*res = r;
	else
		PQclear(r);
	return 0;
}

void
central_rollback(PGconn *c)
{
	if (PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
		PQclear(PQexec(c, "ROLLBACK"));
}

int
central_ensure_property(PGconn *c, const char *property, struct pb_error *err)
{
	const char *p[1] = {property};

	return central_exec(c, "SELECT pitboss.ensure_property($1)", 1, p, NULL, err);
}

/* The single integer a query answers (0 for NULL). */
static int
query_int64(PGconn *c, const char *sql, int n, const char *const *p, int64_t *out, struct pb_error *err)
{
	PGresult *r;

	*out = 0;
	if (central_exec(c, sql, n, p, &r, err) < 0)
		return -1;
	if (PQntuples(r) == 1 && !PQgetisnull(r, 0, 0))
		*out = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	return 0;
}

int
central_chain_end(PGconn *c, const char *property, const char *table_id, int64_t *seq, struct pb_error *err)
{
	const char *p[2] = {property, table_id};

	/* the primary key's index, read backwards: one probe however long the chain */
	return query_int64(c, "SELECT table_seq FROM pitboss.events WHERE property = $1 AND table_id = $2 "
	    "ORDER BY table_seq DESC LIMIT 1", 2, p, seq, err);
}

int
central_checkpoints_position(PGconn *c, const char *property, int64_t *local_id, struct pb_error *err)
{
	const char *p[1] = {property};

	return query_int64(c, "SELECT local_id FROM pitboss.checkpoints WHERE property = $1 ORDER BY local_id DESC LIMIT 1",
	    1, p, local_id, err);
}
