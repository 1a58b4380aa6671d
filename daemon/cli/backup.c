/*
 * backup.c - `pitboss backup --database DB --to FILE`: a consistent copy of
 * a live database through SQLite's online backup API, recorded as a
 * significant event in the database itself.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "store/audit.h"

/*
 * Copies the database to FILE and records the copy as a significant event.
 * Exit 0 copied (a failed record is only reported), 1 failed, 2 usage.
 */
int
cmd_backup(int argc, char **argv)
{
	static const struct option LONG[] = {
		{"database", required_argument, NULL, 'd'}, {"to", required_argument, NULL, 't'}, {NULL, 0, NULL, 0},
	};
	const char *db = NULL, *to = NULL;
	struct store *s;
	struct pb_error err;
	json_t *detail;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", LONG, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 't': to = optarg; break;
		default: goto usage;
		}
	}
	if (db == NULL || to == NULL || optind != argc)
		goto usage;
	if ((s = cli_open_database("backup", db, false)) == NULL)
		return 1;
	if (store_backup(s, to, &err) < 0) {
		fprintf(stderr, "pitboss backup: %s\n", err.message);
		store_free(s);
		return 1;
	}
	detail = json_pack("{s:s}", "to", to);
	if (store_significant(s, "pitboss-backup", "backup", NULL, detail, &err) < 0)
		fprintf(stderr, "pitboss backup: the copy is made, but recording it failed: %s\n", err.message);
	json_decref(detail);
	store_free(s);
	printf("%s: backed up to %s\n", db, to);
	return 0;
usage:
	fprintf(stderr, "usage: pitboss backup --database DB --to FILE\n");
	return 2;
}
