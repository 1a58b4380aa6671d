/*
 * config.c - what the configuration holds, once read (config.h): freeing
 * it and the lookups the daemon makes in it.  It calls nothing of the
 * reading: load.c reads the file, settings.c and entries.c hold the key
 * tables, keys.c reads any section against its table.
 */
#include "config/config.h"

#include <stdlib.h>
#include <string.h>

/* The secrets of the tokens in the example config/: fine on loopback, never elsewhere. */
static const char *const DEMO_SECRETS[] = {
	"demo-dealer", "demo-pitboss", "demo-auditor", "demo-admin",
};

static const char *const ROLE_NAMES[ROLE_KINDS] = {
	"dealer", "pitboss", "auditor", "admin", "floor", "cage", "count", "surveillance", "security",
};

/* The role's name as the configuration and the API spell it. */
const char *
role_name(enum role r)
{
	return (unsigned)r < ROLE_KINDS ? ROLE_NAMES[r] : "unknown";
}

int
role_from_name(const char *name)
{
	for (int r = 0; r < ROLE_KINDS; r++)
		if (strcmp(name, ROLE_NAMES[r]) == 0)
			return r;
	return -1;
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
	tz_free(cfg->property.tz);
	free(cfg->parts);
	free(cfg);
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
