/*
 * entries.c - "games", "tables" and "tokens" (entries.h): the key tables of
 * a table entry, its banker and a token, their readers, and the checks
 * across entries.
 */
#include "config/entries.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

/* The rules of the game named name, or NULL. */
static const struct rules *
find_game(const struct config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->game_count; i++)
		if (strcmp(cfg->games[i].name, name) == 0)
			return &cfg->games[i].rules;
	return NULL;
}

/* One game: a rules object, or the path of a file holding one. */
static int
read_game(struct config *cfg, struct game_config *g, const char *name, const json_t *v, struct pb_error *err)
{
	json_t *loaded;
	json_error_t jerr;
	char path[4096 + 256];
	struct pb_error sub;
	int rc;

	if (strlen(name) == 0 || strlen(name) >= RULES_NAME_MAX)
		return pb_fail(err, 400, "invalid_config", "games: a game name must be 1..%d bytes", RULES_NAME_MAX - 1);
	snprintf(g->name, sizeof(g->name), "%s", name);
	if (json_is_string(v)) {
		cfg_resolve_path(cfg->dir, json_string_value(v), path, sizeof(path));
		loaded = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
		if (loaded == NULL)
			return pb_fail(err, 400, "invalid_config", "games.%s: cannot read rules file %s: %s (line %d)",
			    name, path, jerr.text, jerr.line);
		rc = rules_from_json(loaded, &g->rules, &sub);
		json_decref(loaded);
	} else if (json_is_object(v)) {
		rc = rules_from_json(v, &g->rules, &sub);
	} else {
		return pb_fail(err, 400, "invalid_config", "games.%s: must be a rules object or the path of a file holding one", name);
	}
	if (rc < 0)
		return pb_fail(err, 400, "invalid_config", "games.%s: %s", name, sub.message);
	if (strcmp(g->rules.name, "unnamed") == 0)
		snprintf(g->rules.name, sizeof(g->rules.name), "%s", name);
	return 0;
}

int
entries_read_games(struct config *cfg, const json_t *games, struct pb_error *err)
{
	const char *name;
	const json_t *v;
	size_t i = 0;

	if (!json_is_object(games) || json_object_size(games) == 0)
		return pb_fail(err, 400, "invalid_config", "games: must be an object naming at least one game");
	cfg->game_count = json_object_size(games);
	cfg->games = calloc(cfg->game_count, sizeof(*cfg->games));
	if (cfg->games == NULL)
		return pb_oom(err);
	json_object_foreach((json_t *)games, name, v)
		if (read_game(cfg, &cfg->games[i++], name, v, err) < 0)
			return -1;
	return 0;
}

/* ---- a table ---- */

/* "game": one of the games read before. */
static int
read_table_game(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path, struct pb_error *err)
{
	struct table_config *t = at->dst;

	(void)k;
	(void)path;
	(void)err;
	if (!json_is_string(v) || (t->rules = find_game(at->owner, json_string_value(v))) == NULL)
		return 1;
	snprintf(t->game, sizeof(t->game), "%s", json_string_value(v));
	return 0;
}

/* "limits": the engine's limits object (its own messages). */
static int
read_table_limits(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path,
    struct pb_error *err)
{
	struct table_config *t = at->dst;

	(void)k;
	return limits_from_json(v, path, &t->limits, err);
}

/* "currency": three capital letters (ISO 4217). */
static int
read_currency(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path, struct pb_error *err)
{
	struct table_config *t = at->dst;
	const char *c = json_is_string(v) ? json_string_value(v) : "";

	(void)k;
	(void)path;
	(void)err;
	if (strlen(c) != 3 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z' || c[2] < 'A' || c[2] > 'Z')
		return 1;
	snprintf(t->currency, sizeof(t->currency), "%s", c);
	return 0;
}

/* A banker's bank: max_bank, when set, is not below min_bank. */
static int
check_banker(const struct cfg_at *at, struct pb_error *err)
{
	const struct banker_config *b = at->dst;

	if (b->max_bank != 0 && b->max_bank < b->min_bank)
		return pb_fail(err, 400, "invalid_config", "%s.max_bank: below min_bank", at->path);
	return 0;
}

static const struct cfg_key BANKER_KEYS[] = {
	{.name = "max_consecutive", .type = CFG_INT, .min = 1, .max = 100,
	 CFG_FIELD(struct banker_config, max_consecutive), .def = "2", .reload = true,
	 .describe = "rounds one player may bank in a row (seed 003)"},
	{.name = "min_bank", .type = CFG_INT, .min = 1, .max = PB_MONEY_MAX, CFG_FIELD(struct banker_config, min_bank),
	 .required = "required for a player-banked table", .reload = true, .describe = "the least bank, in cents"},
	{.name = "max_bank", .type = CFG_INT, .min = 1, .max = PB_MONEY_MAX, CFG_FIELD(struct banker_config, max_bank),
	 .reload = true, .describe = "the largest bank, in cents; none when absent"},
};

const struct cfg_section config_banker_entry = {
	.name = "banker", .keys = BANKER_KEYS, .count = CFG_COUNT(BANKER_KEYS),
	.must = "be an object", .noun = "a banker", .check = check_banker,
};

/* The most rates a collection posts (California Penal Code 337j; docs/players.md, "The banker"). */
#define COLLECTION_RATES_MAX 5

/* Keys that would make a fee a share of the wagers rather than a flat amount. */
static const char *const SHARE_KEYS[] = {"percent", "percentage", "rate", "share", NULL};

/* 0, or 400 naming where obj (at path) carries a key of SHARE_KEYS. */
static int
refuse_share_keys(const json_t *obj, const char *path, struct pb_error *err)
{
	for (int k = 0; SHARE_KEYS[k] != NULL; k++)
		if (json_object_get(obj, SHARE_KEYS[k]) != NULL)
			return pb_fail(err, 400, "invalid_config", "%s.%s: a collection fee is a flat amount in cents, never a share of "
			    "the wagers (California Penal Code 337j)", path, SHARE_KEYS[k]);
	return 0;
}

/*
 * The collection c (at path) as California's Penal Code 337j allows it,
 * before its shape is read: flat amounts only (a fee that is a fraction, or
 * a percentage key, is refused) and at most COLLECTION_RATES_MAX rates (the
 * tiers of seat_fees, each a rate).  Each refusal names its key.
 */
static int
check_collection_law(const json_t *c, const char *path, struct pb_error *err)
{
	const json_t *tiers = json_object_get(c, "seat_fees"), *t;
	char at[160];
	size_t i;

	if (refuse_share_keys(c, path, err) < 0)
		return -1;
	if (json_is_real(json_object_get(c, "banker_fee")))
		return pb_fail(err, 400, "invalid_config", "%s.banker_fee: a flat amount in whole cents, not a fraction or a "
		    "percentage (California Penal Code 337j)", path);
	json_array_foreach(tiers, i, t) {
		snprintf(at, sizeof(at), "%s.seat_fees[%zu]", path, i);
		if (refuse_share_keys(t, at, err) < 0)
			return -1;
		if (json_is_real(json_object_get(t, "fee")))
			return pb_fail(err, 400, "invalid_config", "%s.fee: a flat amount in whole cents, not a fraction or a "
			    "percentage (California Penal Code 337j)", at);
	}
	if (json_is_array(tiers) && json_array_size(tiers) > COLLECTION_RATES_MAX)
		return pb_fail(err, 400, "invalid_config", "%s.seat_fees: %zu rates; California Penal Code 337j allows at most %d "
		    "flat rates", path, json_array_size(tiers), COLLECTION_RATES_MAX);
	return 0;
}

/* "banker" and "collection", which only a player-banked table has. */
static int
check_player_banked(struct table_config *t, const struct cfg_at *at, struct pb_error *err)
{
	const json_t *banker = json_object_get(at->object, "banker");
	const json_t *collection = json_object_get(at->object, "collection");
	char p[128];

	snprintf(p, sizeof(p), "%s.banker", at->path);
	if (t->player_banked) {
		if (banker == NULL)
			return pb_fail(err, 400, "invalid_config",
			    "%s: a player-banked table needs \"banker\": {\"min_bank\": CENTS}", p);
		if (cfg_read_section(&config_banker_entry, banker, p, at->dir, at->owner, &t->banker, err) < 0)
			return -1;
		if (t->seats < 2)
			return pb_fail(err, 400, "invalid_config", "%s.seats: a player-banked table needs at least 2 seats", at->path);
	} else if (banker != NULL) {
		return pb_fail(err, 400, "invalid_config", "%s: only a player-banked table has a banker", p);
	}
	if (collection == NULL)
		return 0;
	snprintf(p, sizeof(p), "%s.collection", at->path);
	if (!t->player_banked)
		return pb_fail(err, 400, "invalid_config", "%s: only a player-banked table posts a collection", p);
	if (check_collection_law(collection, p, err) < 0)
		return -1;
	return collection_from_json(collection, p, &t->collection, err);
}

/* A table once its keys are read: its name, its banker and collection, the hash of its entry. */
static int
check_table(const struct cfg_at *at, struct pb_error *err)
{
	struct table_config *t = at->dst;
	char *canon;

	if (t->name[0] == '\0')
		snprintf(t->name, sizeof(t->name), "%s", t->id);
	if (strcmp(t->id, "_players") == 0)   /* the players' own chain (table/players/players.h) */
		return pb_fail(err, 400, "invalid_config", "%s.id: \"_players\" is the players' record; name the table otherwise",
		    at->path);
	if (strcmp(t->id, "_cage") == 0)      /* where the cage's transactions are kept (store/cash.h) */
		return pb_fail(err, 400, "invalid_config", "%s.id: \"_cage\" is the cage's place in the record; name the table "
		    "otherwise", at->path);
	if (check_player_banked(t, at, err) < 0)
		return -1;
	canon = json_dumps(at->object, JSON_SORT_KEYS | JSON_COMPACT);
	pb_sha256_hex(canon ? canon : "", canon ? strlen(canon) : 0, t->sha256);
	free(canon);
	return 0;
}

static const char *const BANKINGS[] = {"house", "player", NULL};

static const struct cfg_key TABLE_KEYS[] = {
	{.name = "id", .type = CFG_ID, CFG_FIELD(struct table_config, id), .required = "required", .reload = true,
	 .describe = "the table's id in the API"},
	{.name = "name", .type = CFG_TEXT, CFG_FIELD(struct table_config, name), .reload = true,
	 .describe = "shown on the page; default: the id"},
	{.name = "game", .type = CFG_CUSTOM, .read = read_table_game, CFG_FIELD(struct table_config, game),
	 .must = "name one of the games", .required = "required", .reload = true, .describe = "one of \"games\""},
	{.name = "seats", .type = CFG_INT, .min = 1, .max = MAX_SEATS, CFG_FIELD(struct table_config, seats),
	 .required = "required (1.." STR(MAX_SEATS) ")", .reload = true, .describe = "seats at the table"},
	{.name = "banking", .type = CFG_CHOICE, .choices = BANKINGS, CFG_FIELD(struct table_config, player_banked),
	 .reload = true, .describe = "who banks the game"},
	{.name = "limits", .type = CFG_CUSTOM, .read = read_table_limits, CFG_FIELD(struct table_config, limits),
	 .required = "required, at least {\"ante\": {\"min\": ..., \"max\": ...}}", .reload = true,
	 .describe = "betting limits per wager, in cents"},
	{.name = "banker", .type = CFG_LATER, CFG_FIELD(struct table_config, banker), .reload = true,
	 .describe = "player-banked: the banker's rotation and bank (config_banker_entry)"},
	{.name = "collection", .type = CFG_LATER, CFG_FIELD(struct table_config, collection), .reload = true,
	 .describe = "player-banked: the house's collection"},
	{.name = "open", .type = CFG_BOOL, CFG_FIELD(struct table_config, open), .def = "true", .reload = true,
	 .describe = "false starts the table closed"},
	{.name = "currency", .type = CFG_CUSTOM, .read = read_currency, CFG_FIELD(struct table_config, currency),
	 .def = "\"USD\"", .must = "be an ISO 4217 code such as \"USD\"", .reload = true,
	 .describe = "ISO 4217"},
};

const struct cfg_section config_table_entry = {
	.name = "a table", .keys = TABLE_KEYS, .count = CFG_COUNT(TABLE_KEYS),
	.must = "be an object", .noun = "a table", .check = check_table,
};

int
entries_read_tables(struct config *cfg, const json_t *tables, struct pb_error *err)
{
	size_t i;
	const json_t *e;
	char path[64];

	if (!json_is_array(tables) || json_array_size(tables) == 0)
		return pb_fail(err, 400, "invalid_config", "tables: must be an array of at least one table");
	cfg->table_count = json_array_size(tables);
	cfg->tables = calloc(cfg->table_count, sizeof(*cfg->tables));
	if (cfg->tables == NULL)
		return pb_oom(err);
	json_array_foreach(tables, i, e) {
		snprintf(path, sizeof(path), "tables[%zu]", i);
		if (cfg_read_section(&config_table_entry, e, path, cfg->dir, cfg, &cfg->tables[i], err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(cfg->tables[j].id, cfg->tables[i].id) == 0)
				return pb_fail(err, 400, "invalid_config", "tables[%zu].id: \"%s\" is already used by tables[%zu]",
				    i, cfg->tables[i].id, j);
	}
	return 0;
}

/* ---- a token ---- */

/* "tables": the ids of the tables the token may act on (checked against "tables" later). */
static int
read_token_tables(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path,
    struct pb_error *err)
{
	struct token_config *t = at->dst;
	size_t i;
	const json_t *e;

	(void)k;
	if (!json_is_array(v))
		return 1;
	t->all_tables = false;
	t->table_count = json_array_size(v);
	t->tables = calloc(t->table_count + 1, sizeof(*t->tables));
	if (t->tables == NULL)
		return pb_oom(err);
	json_array_foreach(v, i, e) {
		if (!json_is_string(e) || !pb_valid_id(json_string_value(e)))
			return pb_fail(err, 400, "invalid_config", "%s[%zu]: must be a table id", path, i);
		snprintf(t->tables[i], PB_ID_MAX, "%s", json_string_value(e));
	}
	return 0;
}

/* "sha256": the token's hash, 64 hex digits. */
static int
read_token_hash(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path,
    struct pb_error *err)
{
	struct token_config *t = at->dst;

	(void)k;
	(void)path;
	(void)err;
	return json_is_string(v) && pb_hex_to_sha256(json_string_value(v), t->sha256) == 0 ? 0 : 1;
}

static const char *const ROLES[] = {"dealer", "pitboss", "auditor", "admin", NULL};

static const struct cfg_key TOKEN_KEYS[] = {
	{.name = "name", .type = CFG_ID, CFG_FIELD(struct token_config, name), .required = "required", .reload = true,
	 .describe = "who holds the token, for the record"},
	{.name = "role", .type = CFG_CHOICE, .choices = ROLES, CFG_FIELD(struct token_config, role),
	 .must = "be dealer, pitboss, auditor or admin", .required = "required", .reload = true,
	 .describe = "what the token may do"},
	{.name = "tables", .type = CFG_CUSTOM, .read = read_token_tables, CFG_FIELD(struct token_config, tables),
	 .must = "be an array of table ids", .reload = true, .describe = "the tables it may act on; default: all"},
	{.name = "sha256", .type = CFG_CUSTOM, .read = read_token_hash, CFG_FIELD(struct token_config, sha256),
	 .must = "be the 64 hex digits of the token's SHA-256 (see `pitboss token new`)", .required = "required",
	 .reload = true, .describe = "the SHA-256 of the secret (only the hash is kept)"},
};

const struct cfg_section config_token_entry = {
	.name = "a token", .keys = TOKEN_KEYS, .count = CFG_COUNT(TOKEN_KEYS),
	.must = "be an object", .noun = "a token", .required = "name, role and sha256 are required",
};

/* Token i against the ones before it and against the tables. */
static int
check_token(const struct config *cfg, size_t i, struct pb_error *err)
{
	const struct token_config *t = &cfg->tokens[i];

	for (size_t j = 0; j < i; j++) {
		if (strcmp(cfg->tokens[j].name, t->name) == 0)
			return pb_fail(err, 400, "invalid_config", "tokens[%zu].name: \"%s\" is already used", i, t->name);
		if (memcmp(cfg->tokens[j].sha256, t->sha256, 32) == 0)
			return pb_fail(err, 400, "invalid_config", "tokens[%zu].sha256: the same token as tokens[%zu]", i, j);
	}
	for (size_t k = 0; k < t->table_count; k++)
		if (config_table(cfg, t->tables[k]) == NULL)
			return pb_fail(err, 400, "invalid_config", "tokens[%zu].tables: no table \"%s\"", i, t->tables[k]);
	return 0;
}

int
entries_read_tokens(struct config *cfg, const json_t *tokens, struct pb_error *err)
{
	size_t i;
	const json_t *e;
	char path[64];

	if (tokens != NULL && !json_is_array(tokens))
		return pb_fail(err, 400, "invalid_config", "tokens: must be an array");
	cfg->token_count = json_array_size(tokens);
	cfg->tokens = calloc(cfg->token_count + 1, sizeof(*cfg->tokens));
	if (cfg->tokens == NULL)
		return pb_oom(err);
	json_array_foreach(tokens, i, e) {
		snprintf(path, sizeof(path), "tokens[%zu]", i);
		cfg->tokens[i].all_tables = true;
		if (cfg_read_section(&config_token_entry, e, path, cfg->dir, cfg, &cfg->tokens[i], err) < 0)
			return -1;
		if (check_token(cfg, i, err) < 0)
			return -1;
	}
	return 0;
}
