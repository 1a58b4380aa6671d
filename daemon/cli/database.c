/*
 * database.c - what the offline commands share: opening the database for
 * the commands that read or copy it (verify, replay, backup), read-only,
 * with one place for libsodium's start-up, the store's options and the
 * error line; the --help of every command, and the reading of a round id.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <getopt.h>
#include <string.h>

#include <sodium.h>

#include "cli/commands.h"
#include "store/store.h"

/*
 * Starts libsodium and opens the database at path, read-only when asked (no
 * migration, no write).  On failure prints "pitboss CMD: why" on stderr
 * (nothing when libsodium itself fails) and returns NULL; the caller exits 1.
 */
bool
cli_help(int argc, char **argv, const char *text)
{
	optind = 1;   /* getopt_long starts again for every command */
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(text, stdout);
			return true;
		}
	}
	return false;
}

int
cli_option(int argc, char **argv, const struct option *options)
{
	return getopt_long(argc, argv, "", options, NULL);
}

struct store *
cli_open_database(const char *cmd, const char *path, bool read_only)
{
	return cli_open(cmd, path, read_only, false);
}

/*
 * As cli_open_database; with as_is (read-only only) an older schema is
 * opened as it is, not read through a migrated private copy.
 */
struct store *
cli_open(const char *cmd, const char *path, bool read_only, bool as_is)
{
	struct store_options so = {0};
	struct pb_error err;
	struct store *s;

	if (sodium_init() < 0)
		return NULL;
	so.path = path;
	so.read_only = read_only;
	so.as_is = as_is;
	if ((s = store_open(&so, &err)) == NULL)
		fprintf(stderr, "pitboss %s: %s\n", cmd, err.message);
	return s;
}

bool
cli_round_id(const char *cmd, const char *what, const char *text, int64_t *out)
{
	char *end;
	long long n;

	errno = 0;
	n = isdigit((unsigned char)text[0]) ? strtoll(text, &end, 10) : 0;
	if (n < 1 || errno != 0 || *end != '\0') {
		fprintf(stderr, "pitboss %s: %s: expected a round id (a whole number from 1, digits only), got \"%s\"\n", cmd,
		    what, text);
		return false;
	}
	*out = (int64_t)n;
	return true;
}
