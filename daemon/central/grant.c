/*
 * grant.c - a login role per property (docs/central.md, "Roles"):
 * `pitboss central grant` through pitboss.grant_property (schema version
 * 3), and the shipper's check that its own role cannot read other
 * properties' rows.
 */
#include <stdio.h>
#include <string.h>

#include "central/central_int.h"

int
central_grant(const char *conninfo, const char *property, const char *role, const char *password,
    struct pb_error *err)
{
	const char *p[3] = {role, property, password};
	PGconn *c;
	PGresult *r;
	int rc = -1;

	if (role[0] == '\0' || property[0] == '\0')
		return pb_fail(err, 400, "bad_request", "--role and --property must not be empty");
	if ((c = central_connect(conninfo, err)) == NULL)
		return -1;
	if (central_exec(c, "SELECT to_regprocedure('pitboss.grant_property(text, text, text)') IS NOT NULL", 0, NULL, &r,
	    err) < 0)
		goto out;
	if (PQgetvalue(r, 0, 0)[0] != 't') {
		PQclear(r);
		pb_fail(err, 409, "central_schema_old", "the central schema has no row-level security yet: run pitboss "
		    "central init (version %d) first", CENTRAL_SCHEMA_VERSION);
		goto out;
	}
	PQclear(r);
	if (central_exec(c, "BEGIN", 0, NULL, NULL, err) < 0)
		goto out;
	if (central_exec(c, "SELECT pitboss.grant_property($1, $2, $3)", 3, p, NULL, err) < 0 ||
	    central_exec(c, "COMMIT", 0, NULL, NULL, err) < 0) {
		central_rollback(c);
		goto out;
	}
	rc = 0;
out:
	PQfinish(c);
	return rc;
}

/*
 * Whether the connection's role escapes the row-level security of the
 * tables the shipper writes: a superuser, a role with BYPASSRLS, the
 * tables' owner (or a member of it), or a table without row-level security
 * (a schema before version 3).  Such a role can read and write every
 * property's rows.
 */
int
central_role_sees_others(PGconn *c, bool *sees_others, struct pb_error *err)
{
	PGresult *r;

	*sees_others = false;
	if (central_exec(c, "SELECT coalesce(bool_or(r.rolsuper OR r.rolbypassrls OR pg_has_role(current_user, t.relowner, "
	    "'USAGE') OR NOT t.relrowsecurity), true) FROM pg_roles r, pg_class t WHERE r.rolname = current_user "
	    "AND t.oid IN ('pitboss.events'::regclass, 'pitboss.checkpoints'::regclass, 'pitboss.round_facts'::regclass)",
	    0, NULL, &r, err) < 0)
		return -1;
	*sees_others = PQgetvalue(r, 0, 0)[0] == 't';
	PQclear(r);
	return 0;
}
