/*
 * token.c - `pitboss token new --role R [--tables T1,T2] [--name N]`: makes a
 * new random API token, prints it once, and prints the configuration entry
 * that holds only its SHA-256.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "cli/commands.h"
#include "common/hash.h"

static const char HELP[] =
    "usage: pitboss token new --role dealer|pitboss|auditor|admin [--tables T1,T2] [--name NAME]\n"
    "\n"
    "Makes a new random API token, prints it once, and prints the entry for the\n"
    "configuration's \"tokens\", which keeps only its SHA-256.\n"
    "\n"
    "exit status: 0 made, 1 failed, 2 usage\n";

/*
 * Makes a token from 32 random bytes, prints it once with its configuration
 * entry (name, role, SHA-256, tables), and wipes it.  Exit 0, or 2 usage.
 */
int
cmd_token(int argc, char **argv)
{
	static const struct option LONG[] = {
		{"role", required_argument, NULL, 'r'}, {"tables", required_argument, NULL, 't'},
		{"name", required_argument, NULL, 'n'}, {NULL, 0, NULL, 0},
	};
	const char *role = NULL, *tables = NULL, *name = NULL;
	unsigned char raw[32];
	char token[64], b64[sodium_base64_ENCODED_LEN(32, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
	char hash[PB_SHA256_HEX_LEN], defname[40];
	json_t *entry;
	char *text;
	int c;

	if (cli_help(argc, argv, HELP))
		return 0;
	if (argc < 2 || strcmp(argv[1], "new") != 0)
		goto usage;
	optind = 2;
	while ((c = cli_option(argc, argv, LONG)) != -1) {
		switch (c) {
		case 'r': role = optarg; break;
		case 't': tables = optarg; break;
		case 'n': name = optarg; break;
		default: goto usage;
		}
	}
	if (role == NULL || optind != argc ||
	    (strcmp(role, "dealer") != 0 && strcmp(role, "pitboss") != 0 && strcmp(role, "auditor") != 0 && strcmp(role, "admin") != 0))
		goto usage;
	if (sodium_init() < 0)
		return 1;
	randombytes_buf(raw, sizeof(raw));
	sodium_bin2base64(b64, sizeof(b64), raw, sizeof(raw), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	snprintf(token, sizeof(token), "pb_%s", b64);
	sodium_memzero(raw, sizeof(raw));
	pb_sha256_hex(token, strlen(token), hash);
	if (name == NULL) {
		snprintf(defname, sizeof(defname), "%s-%.8s", role, hash);
		name = defname;
	}
	entry = json_pack("{s:s,s:s,s:s}", "name", name, "role", role, "sha256", hash);
	if (tables != NULL) {
		json_t *arr = json_array();
		char *copy = strdup(tables), *save = NULL;
		for (char *t = strtok_r(copy, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save))
			json_array_append_new(arr, json_string(t));
		free(copy);
		json_object_set_new(entry, "tables", arr);
	}
	text = json_dumps(entry, JSON_COMPACT | JSON_PRESERVE_ORDER);
	printf("token (shown once; give it to the %s, keep no copy):\n  %s\n\n", role, token);
	printf("add this to \"tokens\" in the configuration, then reload pitbossd (SIGHUP):\n  %s\n", text);
	free(text);
	json_decref(entry);
	sodium_memzero(token, sizeof(token));
	return 0;
usage:
	fprintf(stderr, "usage: pitboss token new --role dealer|pitboss|auditor|admin [--tables T1,T2] [--name NAME]\n");
	return 2;
}
