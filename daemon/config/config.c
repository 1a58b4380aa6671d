/*
 * config.c - the configuration file (config.h): read, check, free, and the
 * lookups the daemon makes in it.  What the keys are lives in key tables:
 * settings.c (the daemon's own settings) and entries.c (games, tables,
 * tokens); keys.c reads any section against its table.
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

/* The secrets of the tokens in the example config/: fine on loopback, never elsewhere. */
static const char *const DEMO_SECRETS[] = {
	"demo-dealer", "demo-pitboss", "demo-auditor", "demo-admin",
};

static const char *const ROLE_NAMES[] = {"dealer", "pitboss", "auditor", "admin"};

/* The role's name as the configuration and the API spell it. */
const char *
role_name(enum role r)
{
	return (unsigned)r <= ROLE_ADMIN ? ROLE_NAMES[r] : "unknown";
}

bool
pb_valid_id(const char *s)
{
	size_t n = 0;

	if (s == NULL)
		return false;
	for (; s[n] != '\0'; n++) {
		char c = s[n];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
			return false;
		if (n >= PB_ID_MAX - 1)
			return false;
	}
	return n > 0;
}

/* Frees cfg and everything it holds (NULL is fine). */
void
config_free(struct config *cfg)
{
	if (cfg == NULL)
		return;
	for (size_t i = 0; i < cfg->token_count; i++)
		free(cfg->tokens[i].tables);
	free(cfg->tokens);
	free(cfg->tables);
	free(cfg->games);
	free(cfg);
}

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
		pb_fail(err, 500, "out_of_memory", "out of memory");
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
	if (read_top_level(cfg, root, err) < 0)
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

const struct table_config *
config_table(const struct config *cfg, const char *id)
{
	for (size_t i = 0; i < cfg->table_count; i++)
		if (strcmp(cfg->tables[i].id, id) == 0)
			return &cfg->tables[i];
	return NULL;
}

const struct token_config *
config_token_by_secret(const struct config *cfg, const char *secret, size_t len)
{
	char hex[PB_SHA256_HEX_LEN];
	uint8_t digest[32];
	const struct token_config *found = NULL;

	pb_sha256_hex(secret, len, hex);
	pb_hex_to_sha256(hex, digest);
	/* Compare against every token so the time taken says nothing about which matched. */
	for (size_t i = 0; i < cfg->token_count; i++)
		if (pb_equal_ct(digest, cfg->tokens[i].sha256, 32))
			found = &cfg->tokens[i];
	return found;
}

bool
token_allows_table(const struct token_config *t, const char *table_id)
{
	if (t->all_tables)
		return true;
	for (size_t i = 0; i < t->table_count; i++)
		if (strcmp(t->tables[i], table_id) == 0)
			return true;
	return false;
}

bool
config_has_demo_tokens(const struct config *cfg)
{
	for (size_t d = 0; d < sizeof(DEMO_SECRETS) / sizeof(DEMO_SECRETS[0]); d++)
		if (config_token_by_secret(cfg, DEMO_SECRETS[d], strlen(DEMO_SECRETS[d])) != NULL)
			return true;
	return false;
}
