/*
 * central.c - `pitboss central init|verify`: the central PostgreSQL's
 * schema, and the check of the central copy (docs/central.md).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "central/central.h"
#include "cli/commands.h"

static const char HELP[] =
    "usage: pitboss central init --conninfo C\n"
    "       pitboss central verify --conninfo C [--property P]\n"
    "       pitboss central restore --conninfo C --property P --database FILE\n"
    "\n"
    "init creates the schema \"pitboss\" in the central PostgreSQL, or upgrades it to this\n"
    "pitboss's version; run it as the role that is to own the schema.\n"
    "\n"
    "verify checks the central copy of every property (or of P): each table's chain has no\n"
    "gap, each prev_hash is the previous hash, each hash is recomputed from the event, each\n"
    "checkpoint's signature verifies and its head is the central chain's hash. Each problem\n"
    "is a line on stdout.\n"
    "\n"
    "restore rebuilds property P's database as FILE from the central copy (disaster\n"
    "recovery): the events as recorded, the checkpoints, and every derived row replayed from\n"
    "the events. FILE must not exist; it is written as FILE.partial-PID and renamed at the\n"
    "end. Check it with pitboss verify --public-key before starting pitbossd on it.\n"
    "\n"
    "  --conninfo C     a libpq connection string (\"host=hq dbname=pitboss\")\n"
    "  --property P     only this property (restore: the property to rebuild)\n"
    "  --database FILE  restore: the new database\n"
    "\n"
    "exit status: 0 done (verify: no problem), 1 failed or a problem found, 2 usage\n";

static int
run_init(const char *conninfo)
{
	struct pb_error err;
	int from;

	if (central_init(conninfo, &from, &err) < 0) {
		fprintf(stderr, "pitboss central init: %s\n", err.message);
		return 1;
	}
	if (from == CENTRAL_SCHEMA_VERSION)
		printf("central schema already at version %d\n", from);
	else
		printf("central schema: version %d -> %d\n", from, CENTRAL_SCHEMA_VERSION);
	return 0;
}

static int
run_verify(const char *conninfo, const char *property)
{
	struct pb_error err;
	int64_t events, problems;

	if (central_verify(conninfo, property, stdout, &events, &problems, &err) < 0) {
		fprintf(stderr, "pitboss central verify: %s\n", err.message);
		return 1;
	}
	if (problems > 0) {
		printf("%" PRId64 " problem%s in %" PRId64 " events\n", problems, problems == 1 ? "" : "s", events);
		return 1;
	}
	printf("OK: %" PRId64 " events verified\n", events);
	return 0;
}

static int
run_restore(const char *conninfo, const char *property, const char *database)
{
	struct pb_error err;
	int64_t events, rounds;

	if (central_restore(conninfo, property, database, &events, &rounds, &err) < 0) {
		fprintf(stderr, "pitboss central restore: %s\n", err.message);
		return 1;
	}
	printf("restored %s: %" PRId64 " events, %" PRId64 " rounds of property %s\n", database, events, rounds, property);
	return 0;
}

int
cmd_central(int argc, char **argv)
{
	static const struct option LONG[] = {
		{"conninfo", required_argument, NULL, 'c'}, {"property", required_argument, NULL, 'p'},
		{"database", required_argument, NULL, 'd'}, {NULL, 0, NULL, 0},
	};
	const char *conninfo = NULL, *property = NULL, *database = NULL, *what;
	int c;

	if (cli_help(argc, argv, HELP))
		return 0;
	if (argc < 2)
		goto usage;
	what = argv[1];
	argc--;
	argv++;
	while ((c = cli_option(argc, argv, LONG)) != -1) {
		switch (c) {
		case 'c': conninfo = optarg; break;
		case 'p': property = optarg; break;
		case 'd': database = optarg; break;
		default: goto usage;
		}
	}
	if (conninfo == NULL || optind != argc)
		goto usage;
	if (strcmp(what, "restore") == 0 && property != NULL && database != NULL)
		return run_restore(conninfo, property, database);
	if (database != NULL)
		goto usage;
	if (strcmp(what, "init") == 0 && property == NULL)
		return run_init(conninfo);
	if (strcmp(what, "verify") == 0)
		return run_verify(conninfo, property);
usage:
	fputs(HELP, stderr);
	return 2;
}
