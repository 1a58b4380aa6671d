/*
 * cli.c - `pitboss`, the command-line tool: analyze, simulate, verify,
 * replay, token, backup, central, person, event-types, routes.  Each
 * subcommand lives in cli/<name>.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "common/faults.h"
#include "common/json_alloc.h"
#include "common/version.h"

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
};

static const struct subcommand SUBCOMMANDS[] = {
	{"analyze", cmd_analyze, "analyze --rules FILE [--json]          exact analysis of a game by complete enumeration"},
	{"simulate", cmd_simulate, "simulate --url URL --token T [...]     deal realistic rounds against a running pitbossd"},
	{"verify", cmd_verify, "verify --database DB [--table T]       check a whole database offline, read-only"},
	{"replay", cmd_replay, "replay --database DB ROUND             print a round reconstructed from its events, read-only"},
	{"token", cmd_token, "token new --role R [--tables T1,T2]    make a new API token and its config line"},
	{"backup", cmd_backup, "backup --database DB --to FILE         copy a live database consistently, with its public key"},
	{"central", cmd_central, "central init|verify|restore --conninfo C [--property P] [--database FILE]  the central PostgreSQL: its schema, the check of its copy, a database rebuilt from it"},
	{"person", cmd_person, "person add|passwd|disable --database DB --id ID ...  manage people offline (the first admin)"},
	{"event-types", cmd_event_types, "event-types [--json]                   every type of event the record can hold, with its fields"},
	{"routes", cmd_routes, "routes [--json]                        list the API's routes: method, path, who may call it"},
};

static void
usage(FILE *f)
{
	fprintf(f, "usage: pitboss COMMAND [ARGS]\n       pitboss --help | --version\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(SUBCOMMANDS) / sizeof(SUBCOMMANDS[0]); i++)
		fprintf(f, "  %s\n", SUBCOMMANDS[i].usage);
	fprintf(f, "\n\"pitboss COMMAND --help\" describes a command and its exit statuses.\n"
	    "exit status: 0 success; 1 the command ran and failed or found a problem; 2 usage\n");
}

/* A line of the tool's own on stderr: "pitboss: ...". */
static void __attribute__((format(printf, 1, 2)))
say(const char *fmt, ...)
{
	va_list ap;

	fputs("pitboss: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int
main(int argc, char **argv)
{
	/* jansson through malloc, its failures counted (a check tells "could not read" from "altered" by them). */
	json_alloc_init_plain();
	/*
	 * A build for the tests makes allocations fail on demand when the
	 * environment names a control file (common/faults.h): every allocation
	 * of the process counts.
	 */
	if (pb_faults_use(true, false, say, say) < 0)
		return 1;
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		pb_version_print(stdout, "pitboss", false);
		return 0;
	}
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (size_t i = 0; i < sizeof(SUBCOMMANDS) / sizeof(SUBCOMMANDS[0]); i++)
		if (strcmp(argv[1], SUBCOMMANDS[i].name) == 0)
			return SUBCOMMANDS[i].run(argc - 1, argv + 1);
	fprintf(stderr, "pitboss: unknown command \"%s\"\n", argv[1]);
	usage(stderr);
	return 2;
}
