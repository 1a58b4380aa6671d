/*
 * pg.c - libpq helpers of the central layer: connecting, running a
 * statement with bound parameters, rolling back.  Every value is bound
 * (PQexecParams); no SQL text is ever made from data.
 */
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
		pb_fail(err, 500, "out_of_memory", "out of memory");
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
