/*
 * load.c - reading the configuration file (config.h config_load): the
 * bytes, the JSON, then the games, the daemon's settings, the tables and
 * the tokens, each against its key table; every message gets the file's
 * name in front.
 */
#include "config/config.h"

#include <jansson.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/entries.h"
#include "config/settings.h"

#define CONFIG_MAX_BYTES (4 * 1024 * 1024)

/* Prefixes err's message with the file name, keeping its code. */
static int
fail_in_file(struct pb_error *err, const char *path)
{
	char msg[PB_ERROR_MESSAGE_MAX];

	if (err == NULL)
		return -1;
	snprintf(msg, sizeof(msg), "%s: %s", path, err->message);
	snprintf(err->message, sizeof(err->message), "%s", msg);
	return -1;
}

/* The top level: the games first (tables name them), the settings, the tables, then the tokens (they name tables). */
static int
read_top_level(struct config *cfg, const json_t *root, struct pb_error *err)
{
	if (entries_read_games(cfg, json_object_get(root, "games"), err) < 0)
		return -1;
	if (settings_read(cfg, root, err) < 0)
		return -1;
	if (entries_read_tables(cfg, json_object_get(root, "tables"), err) < 0)
		return -1;
	return entries_read_tokens(cfg, json_object_get(root, "tokens"), err);
}

struct config *
config_load(const char *path, struct pb_error *err)
{
	struct config *cfg = NULL;
	json_t *root = NULL;
	json_error_t jerr;
	char *copy = NULL;
	FILE *f = NULL;
	char *buf = NULL;
	size_t len;

	cfg = calloc(1, sizeof(*cfg));
	if (cfg == NULL) {
		pb_oom(err);
		goto fail;
	}
	snprintf(cfg->path, sizeof(cfg->path), "%s", path);
	copy = strdup(path);
	snprintf(cfg->dir, sizeof(cfg->dir), "%s", copy ? dirname(copy) : ".");

	f = fopen(path, "rb");
	if (f == NULL) {
		pb_fail(err, 400, "invalid_config", "cannot open the configuration file");
		goto fail_file;
	}
	buf = malloc(CONFIG_MAX_BYTES + 1);
	len = buf ? fread(buf, 1, CONFIG_MAX_BYTES + 1, f) : 0;
	if (buf == NULL || len > CONFIG_MAX_BYTES) {
		pb_fail(err, 400, "invalid_config", "the file is larger than %d bytes", CONFIG_MAX_BYTES);
		goto fail_file;
	}
	pb_sha256_hex(buf, len, cfg->sha256);
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		pb_fail(err, 400, "invalid_config", "line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
		goto fail_file;
	}
	if (!json_is_object(root)) {
		pb_fail(err, 400, "invalid_config", "the configuration must be a JSON object");
		goto fail_file;
	}
	if (read_top_level(cfg, root, err) < 0 || config_digest(cfg, root, err) < 0)
		goto fail_file;
	json_decref(root);
	free(buf);
	free(copy);
	fclose(f);
	return cfg;

fail_file:
	fail_in_file(err, path);
fail:
	json_decref(root);
	free(buf);
	free(copy);
	if (f != NULL)
		fclose(f);
	config_free(cfg);
	return NULL;
}

