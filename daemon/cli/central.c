/*
 * central.c - `pitboss central init|grant|verify|restore|report`: the
 * central PostgreSQL's schema, a property's role, the check of the central
 * copy, disaster recovery and the reports (docs/central.md).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "central/central.h"
#include "cli/commands.h"
#include "table/reports/reports.h"
#include "table/ops/ops.h"

static const char HELP[] =
    "usage: pitboss central init --conninfo C [--version N]\n"
    "       pitboss central grant --conninfo C --property P --role R < PASSWORD\n"
    "       pitboss central verify --conninfo C [--property P]\n"
    "       pitboss central restore --conninfo C --property P --database FILE\n"
    "       pitboss central report --conninfo C --group G [--property P] [--from F] [--to T] [--format csv]\n"
    "\n"
    "init creates the schema \"pitboss\" in the central PostgreSQL, or upgrades it to this\n"
    "pitboss's version (with --version, to version N only: an upgrade in steps); run it as the\n"
    "role that is to own the schema.\n"
    "\n"
    "grant gives property P the login role R (created when missing): row-level security lets\n"
    "R insert and read only P's events, checkpoints and report facts. The password is the\n"
    "first line of stdin when stdin is not a terminal (empty: none, e.g. for certificates).\n"
    "Run it as the schema's owner (a role with CREATEROLE).\n"
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
    "report is the summary across properties (or of P, a comma-separated list), computed from the central copy:\n"
    "the same figures and JSON as each property's GET /api/v1/reports/summary, grouped by\n"
    "property, table, day, shift or dealer (tables and dealers keyed PROPERTY/ID). --from and\n"
    "--to are as the summary takes them: a date is a gaming day in each property's own zone;\n"
    "without them, each property's current gaming day.\n"
    "\n"
    "  --conninfo C     a libpq connection string (\"host=hq dbname=pitboss\")\n"
    "  --property P     only this property (restore: the property to rebuild; grant: R's property)\n"
    "  --role R         grant: the property's login role\n"
    "  --database FILE  restore: the new database\n"
    "  --group G        report: property, table, day, shift or dealer\n"
    "  --from, --to     report: the range (YYYY-MM-DD gaming days, or times)\n"
    "  --format F       report: json (the default) or csv\n"
    "  --version N      init: the schema version to stop at (the default: this pitboss's)\n"
    "\n"
    "exit status: 0 done (verify: no problem), 1 failed or a problem found, 2 usage\n";

static int
run_init(const char *conninfo, const char *version)
{
	struct pb_error err;
	char *end;
	long to = version != NULL ? strtol(version, &end, 10) : CENTRAL_SCHEMA_VERSION;
	int from;

	if (version != NULL && (*version == '\0' || *end != '\0' || to < 1 || to > CENTRAL_SCHEMA_VERSION)) {
		fprintf(stderr, "pitboss central init: --version must be 1 to %d, not \"%s\"\n", CENTRAL_SCHEMA_VERSION,
		    version);
		return 2;
	}
	if (central_init(conninfo, (int)to, &from, &err) < 0) {
		fprintf(stderr, "pitboss central init: %s\n", err.message);
		return 1;
	}
	if (from >= to)
		printf("central schema already at version %d\n", from);
	else
		printf("central schema: version %d -> %ld\n", from, to);
	return 0;
}

/* The password for grant: stdin's first line when it is not a terminal; NULL for none. */
static const char *
read_password(char *buf, size_t size)
{
	size_t n;

	if (isatty(STDIN_FILENO) || fgets(buf, (int)size, stdin) == NULL)
		return NULL;
	n = strcspn(buf, "\r\n");
	buf[n] = '\0';
	return n > 0 ? buf : NULL;
}

static int
run_grant(const char *conninfo, const char *property, const char *role)
{
	struct pb_error err;
	char buf[1024];
	const char *password = read_password(buf, sizeof(buf));
	int rc = central_grant(conninfo, property, role, password, &err);

	explicit_bzero(buf, sizeof(buf));
	if (rc < 0) {
		fprintf(stderr, "pitboss central grant: %s\n", err.message);
		return 1;
	}
	printf("role %s may insert and read only property %s's rows%s\n", role, property,
	    password != NULL ? " (password set)" : "");
	return 0;
}

static int
run_verify(const char *conninfo, const char *property)
{
	struct pb_error err;
	int64_t events, problems;
	struct central_progress progress;

	central_progress_start(&progress, stderr, "verify");
	if (central_verify(conninfo, property, stdout, &events, &problems, &progress, &err) < 0) {
		fprintf(stderr, "%spitboss central verify: %s\n", progress.drawn ? "\n" : "", err.message);
		return 1;
	}
	central_progress_end(&progress);
	if (problems > 0) {
		printf("%" PRId64 " problem%s in %" PRId64 " events\n", problems, problems == 1 ? "" : "s", events);
		return 1;
	}
	printf("OK: %" PRId64 " events verified\n", events);
	/* Problems printed into a full disk or a closed pipe were not seen: say so in the exit status. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pitboss central verify: cannot write the report\n");
		return 1;
	}
	return 0;
}

static int
run_restore(const char *conninfo, const char *property, const char *database)
{
	struct pb_error err;
	int64_t events, rounds;
	struct central_progress progress;

	central_progress_start(&progress, stderr, "restore");
	if (central_restore(conninfo, property, database, &events, &rounds, &progress, &err) < 0) {
		fprintf(stderr, "%spitboss central restore: %s\n", progress.drawn ? "\n" : "", err.message);
		return 1;
	}
	central_progress_end(&progress);
	printf("restored %s: %" PRId64 " events, %" PRId64 " rounds of property %s\n", database, events, rounds, property);
	return 0;
}

static int
run_report(const struct central_report_options *o, const char *format)
{
	struct pb_error err;
	json_t *out;
	char *text;
	size_t len;

	if (central_report(o, &out, &err) < 0) {
		fprintf(stderr, "pitboss central report: %s\n", err.message);
		return 1;
	}
	text = strcmp(format, "csv") == 0 ? report_csv(REPORT_SUMMARY, out, &len)
	    : json_dumps(out, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	json_decref(out);
	if (text == NULL) {
		fprintf(stderr, "pitboss central report: out of memory\n");
		return 1;
	}
	fputs(text, stdout);
	if (strcmp(format, "csv") != 0)
		fputc('\n', stdout);
	free(text);
	return 0;
}

int
cmd_central(int argc, char **argv)
{
	static const struct option LONG[] = {
		{"conninfo", required_argument, NULL, 'c'}, {"property", required_argument, NULL, 'p'},
		{"database", required_argument, NULL, 'd'}, {"group", required_argument, NULL, 'g'},
		{"from", required_argument, NULL, 'f'}, {"to", required_argument, NULL, 't'},
		{"format", required_argument, NULL, 'F'}, {"role", required_argument, NULL, 'r'},
		{"version", required_argument, NULL, 'v'}, {NULL, 0, NULL, 0},
	};
	const char *conninfo = NULL, *property = NULL, *database = NULL, *role = NULL, *what, *format = "json";
	const char *version = NULL;
	struct central_report_options ro = {0};
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
		case 'g': ro.group = optarg; break;
		case 'f': ro.from = optarg; break;
		case 't': ro.to = optarg; break;
		case 'F': format = optarg; break;
		case 'r': role = optarg; break;
		case 'v': version = optarg; break;
		default: goto usage;
		}
	}
	if (conninfo == NULL || optind != argc || (version != NULL && strcmp(what, "init") != 0))
		goto usage;
	if (strcmp(what, "restore") == 0 && property != NULL && database != NULL)
		return run_restore(conninfo, property, database);
	if (strcmp(what, "report") == 0 && database == NULL && ro.group != NULL &&
	    (strcmp(format, "json") == 0 || strcmp(format, "csv") == 0)) {
		ro.conninfo = conninfo;
		ro.property = property;
		return run_report(&ro, format);
	}
	if (strcmp(what, "grant") == 0 && property != NULL && role != NULL && database == NULL && ro.group == NULL)
		return run_grant(conninfo, property, role);
	if (role != NULL || database != NULL || ro.group != NULL || ro.from != NULL || ro.to != NULL)
		goto usage;
	if (strcmp(what, "init") == 0 && property == NULL)
		return run_init(conninfo, version);
	if (strcmp(what, "verify") == 0)
		return run_verify(conninfo, property);
usage:
	fputs(HELP, stderr);
	return 2;
}
