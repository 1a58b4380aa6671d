/*
 * routes.c - `pitboss routes [--json]`: the API's routes as pitbossd's route
 * table has them (http/routes.c): each method and path pattern, how a
 * caller authenticates, and the roles its operation is for
 * (table/core/access.c).  The same binary's table, so it is never out of date;
 * tests/integration/test_routes.py walks the paths it lists.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/commands.h"
#include "cli/text_table.h"
#include "config/config.h"
#include "http/routes.h"
#include "table/core/core.h"

static const char HELP[] =
    "usage: pitboss routes [--json]\n"
    "\n"
    "Lists the routes of pitbossd's API, in the order of its route table: the method, the\n"
    "path pattern ({table}, {round}, {seat}, ... stand for a path segment), and who may call\n"
    "it: \"no token\" (public), \"sign-in\" (an id and a password in the body, no token), else\n"
    "the roles of the operation (a token's or a signed-in person's). The pit may refuse more\n"
    "finely than the role (a token's tables, a dealer's own table, another's password).\n"
    "A GET marked GET,HEAD answers HEAD too. No configuration and no database are read.\n"
    "\n"
    "  --json   {\"routes\": [{\"method\", \"path\", \"head\", \"authentication\": \"none\"|\"sign-in\"|\"token\",\n"
    "           \"roles\": [...]}]}, roles empty for \"none\"\n"
    "\n"
    "exit status: 0 listed, 1 failed, 2 usage\n";

/* How a caller of r authenticates: "none", "sign-in" or "token". */
static const char *
authentication(const struct route *r)
{
	if (r->flags & RT_PUBLIC)
		return "none";
	if (r->flags & RT_SIGN_IN)
		return "sign-in";
	return "token";
}

/* The roles of r's operation (none for a public route), in the order of enum role. */
static unsigned
route_roles(const struct route *r)
{
	return (r->flags & RT_PUBLIC) ? 0 : pit_operation_roles(r->op);
}

static json_t *
routes_json(void)
{
	json_t *list = json_array();

	for (size_t i = 0; i < api_route_count; i++) {
		const struct route *r = &api_routes[i];
		json_t *roles = json_array();
		unsigned bits = route_roles(r);
		for (int k = 0; k < ROLE_KINDS; k++)
			if (bits & ROLE_BIT(k))
				json_array_append_new(roles, json_string(role_name((enum role)k)));
		json_array_append_new(list, json_pack("{s:s, s:s, s:b, s:s, s:o}", "method", r->method, "path", r->pattern,
		    "head", (r->flags & RT_HEAD) != 0, "authentication", authentication(r), "roles", roles));
	}
	return json_pack("{s:o}", "routes", list);
}

/* Who may call r, as the WHO column says it: "no token", "sign-in", "every role" or its roles. */
static void
who(const struct route *r, char *buf, size_t size)
{
	const unsigned every = ROLE_BIT(ROLE_KINDS) - 1u;
	unsigned bits = route_roles(r);
	size_t used = 0;

	if (r->flags & RT_PUBLIC) {
		snprintf(buf, size, "no token");
		return;
	}
	if (r->flags & RT_SIGN_IN) {
		snprintf(buf, size, "sign-in");
		return;
	}
	if (bits == every) {
		snprintf(buf, size, "every role");
		return;
	}
	buf[0] = '\0';
	for (int k = 0; k < ROLE_KINDS && used < size; k++) {
		if (bits & ROLE_BIT(k)) {
			snprintf(buf + used, size - used, "%s%s", used ? ", " : "", role_name((enum role)k));
			used += strlen(buf + used);
		}
	}
}

static void
print_table(void)
{
	static const int widths[] = {8, 44};
	static const char *const header[] = {"METHOD", "PATH", "WHO"};
	const struct cli_table table = {stdout, 3, widths, header};

	cli_table_header(&table);
	for (size_t i = 0; i < api_route_count; i++) {
		const struct route *r = &api_routes[i];
		char method[16], roles[256];
		const char *cells[] = {method, r->pattern, roles};

		snprintf(method, sizeof(method), "%s%s", r->method, (r->flags & RT_HEAD) ? ",HEAD" : "");
		who(r, roles, sizeof(roles));
		cli_table_row(&table, 3, cells);
	}
}

/* Prints the route table as text or JSON.  Exit 0, or 2 usage. */
int
cmd_routes(int argc, char **argv)
{
	static const struct option LONG[] = {{"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0}};
	bool as_json = false;
	int c;

	if (cli_help(argc, argv, HELP))
		return 0;
	while ((c = cli_option(argc, argv, LONG)) != -1) {
		if (c != 'j') {
			fputs(HELP, stderr);
			return 2;
		}
		as_json = true;
	}
	if (optind != argc) {
		fputs(HELP, stderr);
		return 2;
	}
	if (as_json) {
		json_t *out = routes_json();
		char *text = json_dumps(out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(out);
		if (text == NULL) {
			fprintf(stderr, "pitboss routes: out of memory\n");
			return 1;
		}
		printf("%s\n", text);
		free(text);
		return 0;
	}
	print_table();
	return 0;
}
