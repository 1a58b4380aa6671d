/*
 * verify.c - `pitboss verify`: a whole database checked offline, opened
 * read-only (never migrated, never written; an older schema is read
 * through a private migrated copy).
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "store/audit.h"
#include "table/audit/audit.h"

static const char HELP[] =
    "usage: pitboss verify --database DB [--table T] [--from ROUND] [--public-key HEX] [--json]\n"
    "\n"
    "Checks a whole database offline, read-only (it is never migrated or written; an\n"
    "older schema is read through a private copy): every chain and hash, every checkpoint\n"
    "signature, every round replayed, the derived rows, the report aggregates, the\n"
    "significant-events log, and the integrity holds recorded in it.\n"
    "\n"
    "  --database DB       the database or a backup of it\n"
    "  --table T           only table T (refused when the database has no table T)\n"
    "  --from ROUND        only the rounds from this id (a whole number from 1)\n"
    "  --public-key HEX    every checkpoint must be signed by this Ed25519 key (64 hex\n"
    "                      digits; a backup's is in FILE.public-key)\n"
    "  --json              the report as JSON (GET /api/v1/integrity's)\n"
    "\n"
    "Nothing is taken as intact that was not checked: a part that could not be read or\n"
    "checked (a damaged file, out of memory) is a PROBLEM line that says so, and fails.\n"
    "\n"
    "exit status: 0 every check was made, the record is intact and no table is on hold;\n"
    "             1 altered, a table on hold, unreadable, or a part could not be checked;\n"
    "             2 usage (an unknown table, a --from that is not a round id included);\n"
    "             3 intact, but checkpoints are signed by another key than --public-key\n";

/* The integrity report as text: the counts, one line per problem and per hold. */
static void
print_integrity(const char *db, json_t *out)
{
	json_t *problems = json_object_get(out, "problems"), *checked = json_object_get(out, "checked"), *pr;
	size_t i;

	printf("%s: %lld tables, %lld events, %lld rounds, %lld checkpoints checked\n", db,
	    (long long)json_integer_value(json_object_get(checked, "tables")),
	    (long long)json_integer_value(json_object_get(checked, "events")),
	    (long long)json_integer_value(json_object_get(checked, "rounds")),
	    (long long)json_integer_value(json_object_get(checked, "checkpoints")));
	json_array_foreach(problems, i, pr) {
		json_t *round = json_object_get(pr, "round");
		const char *table = json_string_value(json_object_get(pr, "table"));
		if (table != NULL && table[0] != '\0')
			printf("PROBLEM table %s", table);
		else if (round == NULL)
			printf("PROBLEM log");
		else
			printf("PROBLEM");
		if (round != NULL)
			printf(" round %lld", (long long)json_integer_value(round));
		printf(": %s\n", json_string_value(json_object_get(pr, "problem")));
	}
	json_array_foreach(json_object_get(out, "holds"), i, pr)
		printf("HOLD table %s: on integrity hold (%s); writes are refused until a pit boss acknowledges\n",
		    json_string_value(json_object_get(pr, "table")), json_string_value(json_object_get(pr, "reason")));
}

/* Is hex 64 hex digits? */
static bool
is_key_hex(const char *hex)
{
	if (strlen(hex) != 64)
		return false;
	for (const char *c = hex; *c; c++)
		if (strchr("0123456789abcdefABCDEF", *c) == NULL)
			return false;
	return true;
}

/* Does the database hold events of table id?  -1 when it cannot be read. */
static int
table_known(struct store *s, const char *id)
{
	char (*ids)[PB_ID_MAX] = calloc(CHAIN_TABLES_MAX, PB_ID_MAX);
	struct pb_error err;
	int n = 0, found = 0;

	if (ids == NULL || store_event_tables(s, ids, CHAIN_TABLES_MAX, &n, &err) < 0) {
		free(ids);
		return -1;
	}
	for (int i = 0; i < n; i++)
		found = found || strcmp(ids[i], id) == 0;
	free(ids);
	return found;
}

/*
 * Checkpoints (in scope) signed by another key than want: their number and
 * one such key.  -1 with err when they cannot all be read: no count is
 * then given, for a partial one would vouch for the rest.
 */
static int64_t
other_key_checkpoints(struct store *s, const char *table_id, const char *want, char other[65], struct pb_error *err)
{
	struct checkpoint *cps = calloc(256, sizeof(*cps));
	int64_t after = 0, n = 0;
	int got = 0;

	if (cps == NULL)
		return pb_oom(err);
	do {
		if (store_checkpoints(s, table_id, after, 256, cps, &got, err) < 0) {
			free(cps);
			return -1;
		}
		for (int i = 0; i < got; i++) {
			if (strcmp(cps[i].public_key, want) != 0) {
				snprintf(other, 65, "%s", cps[i].public_key);
				n++;
			}
			after = cps[i].id;
		}
	} while (got == 256);
	free(cps);
	return n;
}

/* Problems marked "unchecked": parts of the record that could not be read or checked. */
static size_t
unchecked_count(json_t *out)
{
	size_t i, n = 0;
	json_t *pr;

	json_array_foreach(json_object_get(out, "problems"), i, pr)
		n += json_is_true(json_object_get(pr, "unchecked"));
	return n;
}

/* The verdict line and the exit status (HELP's). */
static int
verdict(json_t *out, int64_t wrong_key, const char *want, const char *other, bool as_json)
{
	size_t problems = json_array_size(json_object_get(out, "problems"));
	size_t holds = json_array_size(json_object_get(out, "holds"));

	if (wrong_key > 0 && unchecked_count(out) == 0 && problems <= (size_t)wrong_key) {
		if (!as_json)
			printf("FAILED: %lld checkpoint(s) are signed by another key (%.16s...) than --public-key %.16s...: "
			    "check which key is right (a backup's is in FILE.public-key); the chains themselves are intact%s\n",
			    (long long)wrong_key, other, want, holds > 0 ? ", but tables are on hold" : "");
		return holds > 0 ? 1 : 3;
	}
	if (!as_json) {
		size_t unchecked = unchecked_count(out);
		if (problems > unchecked)
			printf("FAILED: the record was altered%s\n", unchecked > 0 ? ", and parts of it could not be checked" : "");
		else if (problems > 0)
			printf("FAILED: %zu part(s) of the record could not be checked (see the PROBLEM lines): the record is not "
			    "vouched for\n", unchecked);
		else if (holds > 0)
			printf("FAILED: the record is intact, but %zu table(s) are on integrity hold: see docs/operations.md, \"Restore\"\n",
			    holds);
		else
			printf("OK: the record is intact\n");
	}
	return problems > 0 || holds > 0 ? 1 : 0;
}

/* --json: the report as GET /api/v1/integrity gives it.  -1 when it could not be written whole. */
static int
print_json(json_t *out)
{
	char *text = json_dumps(out, JSON_INDENT(2));

	if (text == NULL) {
		fprintf(stderr, "pitboss verify: cannot write the report (out of memory)\n");
		return -1;
	}
	printf("%s\n", text);
	free(text);
	return 0;
}

/* The check could not be completed: nothing is vouched for, whatever was found before. */
static int
not_completed(const char *db, const struct pb_error *err, bool as_json)
{
	fprintf(stderr, "pitboss verify: %s\n", err->message);
	if (!as_json)
		printf("FAILED: %s could not be checked (%s): the record is not vouched for\n", db, err->message);
	return 1;
}

/* The options: 0, or 2 after saying what is wrong (a usage error). */
static int
read_options(int argc, char **argv, struct integrity_scope *scope, const char **db, bool *as_json, char key[66])
{
	static const struct option LONG[] = {
		{"database", required_argument, NULL, 'd'}, {"table", required_argument, NULL, 't'},
		{"from", required_argument, NULL, 'f'}, {"public-key", required_argument, NULL, 'k'},
		{"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0},
	};
	int c;

	while ((c = cli_option(argc, argv, LONG)) != -1) {
		switch (c) {
		case 'd': *db = optarg; break;
		case 't': scope->table_id = optarg; break;
		case 'f':
			if (!cli_round_id("verify", "--from", optarg, &scope->from_round))
				return 2;
			break;
		case 'k':
			snprintf(key, 66, "%s", optarg);
			for (char *k = key; *k; k++)
				*k = (char)tolower((unsigned char)*k);
			scope->public_key_hex = strlen(optarg) < 66 ? key : optarg;
			break;
		case 'j': *as_json = true; break;
		default: goto usage;
		}
	}
	if (*db == NULL || optind != argc)
		goto usage;
	if (scope->public_key_hex != NULL && !is_key_hex(scope->public_key_hex)) {
		fprintf(stderr, "pitboss verify: --public-key must be 64 hex digits (an Ed25519 public key)\n");
		return 2;
	}
	return 0;
usage:
	fputs(HELP, stderr);
	return 2;
}

/*
 * `pitboss verify`: walks the chains, checkpoints and rounds of a database
 * opened read-only and prints what it found.  Exit statuses in HELP: 0 only
 * when every check was made and found nothing, and the report was written.
 */
int
cmd_verify(int argc, char **argv)
{
	struct integrity_scope scope = {0};
	const char *db = NULL;
	bool as_json = false;
	struct pb_error err;
	struct pit pit = {0};
	json_t *out = NULL;
	char other[65] = "", key[66];
	int64_t wrong_key = 0;
	int status, known;

	if (cli_help(argc, argv, HELP))
		return 0;
	if ((status = read_options(argc, argv, &scope, &db, &as_json, key)) != 0)
		return status;
	if ((pit.store = cli_open_database("verify", db, true)) == NULL)
		return 1;
	if (store_schema_file_version(pit.store) != store_schema_latest())
		fprintf(stderr, "pitboss verify: %s is at schema %d: read through a private copy at schema %d; the file is not changed\n",
		    db, store_schema_file_version(pit.store), store_schema_latest());
	if (scope.table_id != NULL && (known = table_known(pit.store, scope.table_id)) != 1) {
		if (known < 0)
			fprintf(stderr, "pitboss verify: cannot read the tables of %s\n", db);
		else
			fprintf(stderr, "pitboss verify: there is no table \"%s\" in %s\n", scope.table_id, db);
		store_free(pit.store);
		return known < 0 ? 1 : 2;
	}
	if (audit_integrity(&pit, &scope, &out, &err) < 0 ||
	    (scope.public_key_hex != NULL && (wrong_key = other_key_checkpoints(pit.store, scope.table_id,
	    scope.public_key_hex, other, &err)) < 0)) {
		json_decref(out);
		store_free(pit.store);
		return not_completed(db, &err, as_json);
	}
	status = as_json && print_json(out) < 0 ? 1 : 0;
	if (!as_json)
		print_integrity(db, out);
	if (status == 0)
		status = verdict(out, wrong_key, scope.public_key_hex, other, as_json);
	json_decref(out);
	store_free(pit.store);
	/* A report that did not reach its reader (a full disk, a closed pipe) vouches for nothing. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pitboss verify: cannot write the report\n");
		return 1;
	}
	return status;
}
