/*
 * database.c - opening the database for the commands that read or copy it
 * offline (verify, replay, backup): one place for libsodium's start-up, the
 * store's options and the error line.
 */
#include <stdio.h>

#include <sodium.h>

#include "cli/commands.h"
#include "store/store.h"

/*
 * Starts libsodium and opens the database at path, read-only when asked (no
 * migration, no write).  On failure prints "pitboss CMD: why" on stderr
 * (nothing when libsodium itself fails) and returns NULL; the caller exits 1.
 */
struct store *
cli_open_database(const char *cmd, const char *path, bool read_only)
{
	struct store_options so = {0};
	struct pb_error err;
	struct store *s;

	if (sodium_init() < 0)
		return NULL;
	so.path = path;
	so.read_only = read_only;
	if ((s = store_open(&so, &err)) == NULL)
		fprintf(stderr, "pitboss %s: %s\n", cmd, err.message);
	return s;
}
