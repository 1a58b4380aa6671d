/*
 * person.c - `pitboss person add|passwd|disable --database DB --id ID ...`:
 * the people of table/people/people.h offline, for the first admin before anyone
 * can sign in (and for an admin locked out).  The same checks and events
 * as the API's, recorded with "pitboss-cli" as their source.  A password
 * is read from stdin (--password-stdin, its first line) or made at random
 * and printed once; either way it is a one-time password, changed at the
 * first sign-in.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "cli/commands.h"
#include "common/password.h"
#include "store/store.h"
#include "table/people/people.h"

static const char HELP[] =
    "usage: pitboss person add --database DB --id ID --name NAME --roles R1,R2 [--password-stdin]\n"
    "       pitboss person passwd --database DB --id ID [--password-stdin]\n"
    "       pitboss person disable --database DB --id ID\n"
    "\n"
    "Manages people offline, as an admin does through /api/v1/people: the first admin\n"
    "(pitboss person add --id E1 --name \"Ana Ruiz\" --roles admin), or a new password\n"
    "for an admin locked out. Roles: dealer, floor, pitboss, cage, count, security,\n"
    "surveillance, auditor, admin. The password is a one-time password the person changes at the\n"
    "first sign-in: the first line of stdin with --password-stdin, else one made at\n"
    "random and printed once. disable deactivates the person and ends their sessions.\n"
    "Each change is a significant event with the source \"pitboss-cli\". pitbossd may run.\n"
    "\n"
    "exit status: 0 done, 1 refused or failed, 2 usage\n";

/* A one-time password: the first line of stdin, or 16 random characters printed once. */
static int
one_time_password(bool from_stdin, const char *id, const char *name, char out[PASSWORD_MAX + 2], bool *made)
{
	unsigned char raw[12];

	*made = !from_stdin;
	if (from_stdin) {
		if (fgets(out, PASSWORD_MAX + 2, stdin) == NULL) {
			fprintf(stderr, "pitboss person: no password on stdin\n");
			return -1;
		}
		out[strcspn(out, "\r\n")] = '\0';
		return 0;
	}
	do {
		randombytes_buf(raw, sizeof(raw));
		sodium_bin2base64(out, PASSWORD_MAX + 2, raw, sizeof(raw), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	} while (password_policy(out, id, name, &(struct pb_error){0}) < 0);
	sodium_memzero(raw, sizeof(raw));
	return 0;
}

/* Runs one change against the database; prints the refusal or the result. */
static int
run(const char *verb, const char *db, const char *id, const char *name, const char *roles, bool from_stdin)
{
	struct actor a = {.name = "pitboss-cli", .roles = ROLE_BIT(ROLE_ADMIN)};
	struct pit p = {0};
	struct pb_error err;
	char password[PASSWORD_MAX + 2] = "";
	json_t *body = json_object(), *out = NULL;
	bool made = false;
	int status, rc = -1;

	if ((p.store = cli_open_database("person", db, false)) == NULL)
		goto done;
	if (strcmp(verb, "disable") == 0) {
		json_object_set_new(body, "active", json_false());
		rc = pit_person_change(&p, &a, NULL, id, body, &out, &status, &err);
		goto done;
	}
	if (one_time_password(from_stdin, id, name ? name : "", password, &made) < 0)
		goto done;
	json_object_set_new(body, "password", json_string(password));
	if (strcmp(verb, "add") == 0) {
		json_t *list = json_array();
		char buf[256], *save = NULL;
		snprintf(buf, sizeof(buf), "%s", roles);
		for (char *r = strtok_r(buf, ",", &save); r != NULL; r = strtok_r(NULL, ",", &save))
			json_array_append_new(list, json_string(r));
		json_object_set_new(body, "id", json_string(id));
		json_object_set_new(body, "name", json_string(name));
		json_object_set_new(body, "roles", list);
		rc = pit_person_add(&p, &a, NULL, body, &out, &status, &err);
	} else {
		rc = pit_person_password(&p, &a, NULL, id, body, &out, &status, &err);
	}
done:
	if (rc < 0 && p.store != NULL)
		fprintf(stderr, "pitboss person %s: %s\n", verb, err.message);
	else if (rc == 0 && made)
		printf("%s: one-time password %s (shown once; to be changed at the first sign-in)\n", id, password);
	else if (rc == 0)
		printf("%s: %s\n", id, strcmp(verb, "disable") == 0 ? "deactivated, sessions ended" : "done");
	sodium_memzero(password, sizeof(password));
	json_decref(body);
	json_decref(out);
	store_free(p.store);
	return rc < 0 ? 1 : 0;
}

/* Parses the options of add, passwd or disable and runs it.  Exit 0 done, 1 refused, 2 usage. */
int
cmd_person(int argc, char **argv)
{
	static const struct option LONG[] = {
		{"database", required_argument, NULL, 'd'}, {"id", required_argument, NULL, 'i'},
		{"name", required_argument, NULL, 'n'}, {"roles", required_argument, NULL, 'r'},
		{"password-stdin", no_argument, NULL, 'p'}, {NULL, 0, NULL, 0},
	};
	const char *verb = argc >= 2 ? argv[1] : "", *db = NULL, *id = NULL, *name = NULL, *roles = NULL;
	bool from_stdin = false, add = strcmp(verb, "add") == 0;
	int c;

	if (cli_help(argc, argv, HELP))
		return 0;
	if (!add && strcmp(verb, "passwd") != 0 && strcmp(verb, "disable") != 0)
		goto usage;
	optind = 2;
	while ((c = getopt_long(argc, argv, "", LONG, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'i': id = optarg; break;
		case 'n': name = optarg; break;
		case 'r': roles = optarg; break;
		case 'p': from_stdin = true; break;
		default: goto usage;
		}
	}
	if (db == NULL || id == NULL || optind != argc || add != (name != NULL && roles != NULL) ||
	    (!add && (name != NULL || roles != NULL)) || (strcmp(verb, "disable") == 0 && from_stdin))
		goto usage;
	return run(verb, db, id, name, roles, from_stdin);
usage:
	fputs(HELP, stderr);
	return 2;
}
