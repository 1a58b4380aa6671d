/*
 * fuzz_config.c - config_load on a temporary file holding the bytes.
 *
 * The file lies in a private temporary directory that also holds a link
 * "games" to config/games, so that inputs may name the example rules files
 * ("games/standard.json") as a real configuration does.  Oracles: a refusal
 * names the file and carries a message; an accepted configuration has at
 * least one game and one table, every table points at one of its games, and
 * token lookups work; nothing leaks either way.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"

#ifndef PB_SOURCE_DIR
#error "PB_SOURCE_DIR must be defined"
#endif

#define FUZZ_MAX_INPUT 65536

static char dir[256];
static char path[300];

static void
cleanup(void)
{
	char p[300];

	unlink(path);
	snprintf(p, sizeof(p), "%s/games", dir);
	unlink(p);
	rmdir(dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char link[300];

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "/tmp/pb-fuzz-config-XXXXXX");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		abort();
	}
	snprintf(link, sizeof(link), "%s/games", dir);
	if (symlink(PB_SOURCE_DIR "/config/games", link) < 0) {
		perror("symlink");
		abort();
	}
	snprintf(path, sizeof(path), "%s/pitboss.json", dir);
	atexit(cleanup);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;
	struct config *cfg;
	struct pb_error err;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	f = fopen(path, "wb");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
		perror("writing the temporary config");
		abort();
	}
	memset(&err, 0, sizeof(err));
	cfg = config_load(path, &err);
	if (cfg == NULL) {
		if (err.status == 0 || err.message[0] == '\0' || strncmp(err.message, path, strlen(path)) != 0) {
			fprintf(stderr, "refusal without status or file name: %d %s %s\n", err.status, err.code, err.message);
			abort();
		}
		return 0;
	}
	if (cfg->game_count == 0 || cfg->table_count == 0) {
		fprintf(stderr, "accepted a configuration without games or tables\n");
		abort();
	}
	for (size_t i = 0; i < cfg->table_count; i++) {
		const struct table_config *t = &cfg->tables[i];
		bool found = false;
		for (size_t g = 0; g < cfg->game_count; g++)
			found = found || t->rules == &cfg->games[g].rules;
		if (!found || t->seats < 1 || t->seats > MAX_SEATS || !pb_valid_id(t->id) || config_table(cfg, t->id) != t) {
			fprintf(stderr, "tables[%zu] is inconsistent\n", i);
			abort();
		}
	}
	for (size_t i = 0; i < cfg->token_count; i++)
		for (size_t k = 0; k < cfg->tokens[i].table_count; k++)
			if (config_table(cfg, cfg->tokens[i].tables[k]) == NULL) {
				fprintf(stderr, "tokens[%zu] names an unknown table\n", i);
				abort();
			}
	(void)config_has_demo_tokens(cfg);
	(void)config_token_by_secret(cfg, "demo-dealer", 11);
	config_free(cfg);
	return 0;
}
