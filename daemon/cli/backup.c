/*
 * backup.c - `pitboss backup --database DB --to FILE [--key-to PATH]`: a
 * consistent copy of a live database (store_backup: one pass, atomic),
 * the checkpoints' public key beside it, on request a separate copy of the
 * signing key, and a significant event in the database itself when its
 * schema is this build's.  The source is opened read-only: never created,
 * never migrated.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "store/audit.h"
#include "table/ops/ops.h"

static const char HELP[] =
    "usage: pitboss backup --database DB --to FILE [--key-to PATH] [--key-file KEY]\n"
    "\n"
    "Copies a live database consistently while pitbossd keeps writing: one pass in one\n"
    "read transaction, written to FILE.partial-PID beside FILE (mode 0600), synced, then\n"
    "put at FILE, which must not exist. A killed backup leaves nothing at FILE.\n"
    "The source is opened read-only: a missing file is refused, and it is never migrated.\n"
    "\n"
    "Beside the copy goes FILE.public-key: the public key its checkpoints verify against\n"
    "(pitboss verify --database FILE --public-key $(cat FILE.public-key)). It is that of\n"
    "KEY when it can be read, else that of the newest checkpoint in the database.\n"
    "\n"
    "  --database DB    the database (pitbossd may be running)\n"
    "  --to FILE        the copy; must not exist\n"
    "  --key-to PATH    also copy the signing key (KEY) to PATH, mode 0600, for keeping\n"
    "                   apart from the database copy (offline); PATH must not exist\n"
    "  --key-file KEY   the signing key (checkpoint.key_file); default DB.signing-key\n"
    "\n"
    "The copy is recorded as a significant event \"backup\" when the database's schema is\n"
    "this pitboss's; an older or newer one is copied without a record.\n"
    "\n"
    "exit status: 0 copied, 1 failed (nothing at FILE), 2 usage\n";

/* The key files beside the copy: the public key, and with key_to the signing key. */
static int
key_files(struct store *s, const char *key_file, const char *to, const char *key_to)
{
	struct signer *sg = NULL;
	struct pb_error err;
	char pub[65];
	int rc = 0;

	if (access(key_file, R_OK) == 0 && (sg = signer_load(key_file, &err)) == NULL) {
		fprintf(stderr, "pitboss backup: %s\n", err.message);
		return -1;
	}
	if (key_to != NULL && sg == NULL) {
		fprintf(stderr, "pitboss backup: the signing key %s cannot be read; nothing copied to %s\n", key_file, key_to);
		rc = -1;
	} else if (key_to != NULL && backup_copy_key(key_file, key_to, &err) < 0) {
		fprintf(stderr, "pitboss backup: %s\n", err.message);
		rc = -1;
	}
	if (backup_public_key(s, sg, pub, &err) < 0 || (pub[0] != '\0' && backup_write_public_key(to, pub, &err) < 0)) {
		fprintf(stderr, "pitboss backup: %s\n", err.message);
		rc = -1;
	} else if (pub[0] == '\0') {
		fprintf(stderr, "pitboss backup: no signing key and no checkpoint yet: no %s.public-key\n", to);
	}
	signer_free(sg);
	return rc;
}

/* The "backup" significant event, on a read-write connection, when the schema is this build's. */
static void
record(const char *db, int version, const char *to)
{
	struct store_options so = {.path = db};
	struct pb_error err;
	struct store *w;
	json_t *detail;

	if (version != store_schema_latest()) {
		fprintf(stderr, "pitboss backup: %s is at schema %d, this pitboss's is %d: copied as it is, not recorded in it\n",
		    db, version, store_schema_latest());
		return;
	}
	if ((w = store_open(&so, &err)) == NULL) {
		fprintf(stderr, "pitboss backup: the copy is made, but recording it failed: %s\n", err.message);
		return;
	}
	detail = json_pack("{s:s}", "to", to);
	if (store_significant(w, "pitboss-backup", "backup", NULL, detail, &err) < 0)
		fprintf(stderr, "pitboss backup: the copy is made, but recording it failed: %s\n", err.message);
	json_decref(detail);
	store_free(w);
}

/*
 * Copies the database to FILE with its public key beside it (and the
 * signing key to --key-to), then records the copy.  Exit 0 copied (a
 * failed record is only reported), 1 failed, 2 usage.
 */
int
cmd_backup(int argc, char **argv)
{
	static const struct option LONG[] = {
		{"database", required_argument, NULL, 'd'}, {"to", required_argument, NULL, 't'},
		{"key-to", required_argument, NULL, 'k'}, {"key-file", required_argument, NULL, 'K'}, {NULL, 0, NULL, 0},
	};
	const char *db = NULL, *to = NULL, *key_to = NULL, *key_file = NULL;
	char default_key[4200];
	struct store *s;
	struct pb_error err;
	int c, status = 0, version;

	if (cli_help(argc, argv, HELP))
		return 0;
	while ((c = cli_option(argc, argv, LONG)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 't': to = optarg; break;
		case 'k': key_to = optarg; break;
		case 'K': key_file = optarg; break;
		default: goto usage;
		}
	}
	if (db == NULL || to == NULL || optind != argc)
		goto usage;
	if (key_file == NULL) {
		snprintf(default_key, sizeof(default_key), "%s.signing-key", db);
		key_file = default_key;
	}
	if ((s = cli_open("backup", db, true, true)) == NULL)
		return 1;
	version = store_schema_file_version(s);
	if (store_backup(s, to, &err) < 0) {
		fprintf(stderr, "pitboss backup: %s\n", err.message);
		store_free(s);
		return 1;
	}
	if (key_files(s, key_file, to, key_to) < 0)
		status = 1;
	store_free(s);
	record(db, version, to);
	printf("%s: backed up to %s%s\n", db, to, status == 0 ? "" : " (but see the key files above)");
	return status;
usage:
	fputs(HELP, stderr);
	return 2;
}
