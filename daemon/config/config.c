#include "config/config.h"

#include <jansson.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CONFIG_MAX_BYTES (4 * 1024 * 1024)

/* The secrets of the tokens in the example config/: fine on loopback, never elsewhere. */
static const char *const DEMO_SECRETS[] = {
	"demo-dealer", "demo-pitboss", "demo-auditor", "demo-admin",
};

static const char *const ROLE_NAMES[] = {"dealer", "pitboss", "auditor", "admin"};

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

/* Joins dir and a relative path (absolute paths are kept as they are). */
static void
resolve_path(const char *dir, const char *p, char *out, size_t outsz)
{
	if (p[0] == '/')
		snprintf(out, outsz, "%s", p);
	else
		snprintf(out, outsz, "%s/%s", dir, p);
}

static int
parse_listen(const char *text, char *host, size_t hostsz, int *port)
{
	const char *colon = strrchr(text, ':');
	char *end;
	long p;
	size_t hl;

	if (colon == NULL)
		return -1;
	p = strtol(colon + 1, &end, 10);
	if (*end != '\0' || p < 0 || p > 65535 || colon[1] == '\0')
		return -1;
	hl = (size_t)(colon - text);
	if (text[0] == '[' && hl >= 2 && text[hl - 1] == ']') {
		text++;
		hl -= 2;
	}
	if (hl == 0 || hl >= hostsz)
		return -1;
	memcpy(host, text, hl);
	host[hl] = '\0';
	*port = (int)p;
	return 0;
}

int config_parse_listen(const char *text, char *host, size_t hostsz, int *port);

int
config_parse_listen(const char *text, char *host, size_t hostsz, int *port)
{
	return parse_listen(text, host, hostsz, port);
}

static int
load_games(struct config *cfg, const json_t *games, struct pb_error *err)
{
	const char *name;
	const json_t *v;
	size_t i = 0;

	if (!json_is_object(games) || json_object_size(games) == 0)
		return pb_fail(err, 400, "invalid_config", "games: must be an object naming at least one game");
	cfg->game_count = json_object_size(games);
	cfg->games = calloc(cfg->game_count, sizeof(*cfg->games));
	if (cfg->games == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	json_object_foreach((json_t *)games, name, v) {
		struct game_config *g = &cfg->games[i++];
		json_t *loaded = NULL;
		json_error_t jerr;
		char path[4096 + 256];
		struct pb_error sub;
		int rc;

		if (strlen(name) == 0 || strlen(name) >= RULES_NAME_MAX)
			return pb_fail(err, 400, "invalid_config", "games: a game name must be 1..%d bytes", RULES_NAME_MAX - 1);
		snprintf(g->name, sizeof(g->name), "%s", name);
		if (json_is_string(v)) {
			resolve_path(cfg->dir, json_string_value(v), path, sizeof(path));
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
	}
	return 0;
}

static const struct rules *
find_game(const struct config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->game_count; i++)
		if (strcmp(cfg->games[i].name, name) == 0)
			return &cfg->games[i].rules;
	return NULL;
}

static int
read_int(const json_t *v, const char *path, long long min, long long max, long long *out, struct pb_error *err)
{
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
		return pb_fail(err, 400, "invalid_config", "%s: must be an integer from %lld to %lld", path, min, max);
	*out = json_integer_value(v);
	return 0;
}

static int
load_banker(struct table_config *t, const json_t *b, const char *path, struct pb_error *err)
{
	const char *k;
	const json_t *v;
	char p[128];
	long long n = 0;

	t->banker.max_consecutive = 2;
	if (b == NULL)
		return pb_fail(err, 400, "invalid_config", "%s: a player-banked table needs \"banker\": {\"min_bank\": CENTS}", path);
	if (!json_is_object(b))
		return pb_fail(err, 400, "invalid_config", "%s: must be an object", path);
	json_object_foreach((json_t *)b, k, v) {
		snprintf(p, sizeof(p), "%s.%.32s", path, k);
		if (strcmp(k, "max_consecutive") == 0) {
			if (read_int(v, p, 1, 100, &n, err) < 0)
				return -1;
			t->banker.max_consecutive = (int)n;
		} else if (strcmp(k, "min_bank") == 0) {
			if (read_int(v, p, 1, PB_MONEY_MAX, &n, err) < 0)
				return -1;
			t->banker.min_bank = n;
		} else if (strcmp(k, "max_bank") == 0) {
			if (read_int(v, p, 1, PB_MONEY_MAX, &n, err) < 0)
				return -1;
			t->banker.max_bank = n;
		} else {
			return pb_fail(err, 400, "invalid_config", "%s: unknown key; a banker has max_consecutive, min_bank, max_bank", p);
		}
	}
	if (t->banker.min_bank == 0)
		return pb_fail(err, 400, "invalid_config", "%s.min_bank: required for a player-banked table", path);
	if (t->banker.max_bank != 0 && t->banker.max_bank < t->banker.min_bank)
		return pb_fail(err, 400, "invalid_config", "%s.max_bank: below min_bank", path);
	return 0;
}

static int
load_table(struct config *cfg, struct table_config *t, const json_t *o, size_t idx, struct pb_error *err)
{
	const char *k;
	const json_t *v;
	char path[64], p[128];
	long long n = 0;
	bool have_limits = false;
	const json_t *banker = NULL, *collection = NULL;
	char *canon;

	snprintf(path, sizeof(path), "tables[%zu]", idx);
	if (!json_is_object(o))
		return pb_fail(err, 400, "invalid_config", "%s: must be an object", path);
	t->open = true;
	t->seats = 0;
	snprintf(t->currency, sizeof(t->currency), "USD");
	json_object_foreach((json_t *)o, k, v) {
		snprintf(p, sizeof(p), "%s.%.32s", path, k);
		if (strcmp(k, "id") == 0) {
			if (!json_is_string(v) || !pb_valid_id(json_string_value(v)))
				return pb_fail(err, 400, "invalid_config", "%s: must be 1..32 letters, digits, '_', '.' or '-'", p);
			snprintf(t->id, sizeof(t->id), "%s", json_string_value(v));
		} else if (strcmp(k, "name") == 0) {
			if (!json_is_string(v) || json_string_length(v) >= PB_NAME_MAX)
				return pb_fail(err, 400, "invalid_config", "%s: must be a string of at most %d bytes", p, PB_NAME_MAX - 1);
			snprintf(t->name, sizeof(t->name), "%s", json_string_value(v));
		} else if (strcmp(k, "game") == 0) {
			if (!json_is_string(v) || (t->rules = find_game(cfg, json_string_value(v))) == NULL)
				return pb_fail(err, 400, "invalid_config", "%s: must name one of the games", p);
			snprintf(t->game, sizeof(t->game), "%s", json_string_value(v));
		} else if (strcmp(k, "seats") == 0) {
			if (read_int(v, p, 1, MAX_SEATS, &n, err) < 0)
				return -1;
			t->seats = (int)n;
		} else if (strcmp(k, "banking") == 0) {
			if (!json_is_string(v) || (strcmp(json_string_value(v), "house") != 0 && strcmp(json_string_value(v), "player") != 0))
				return pb_fail(err, 400, "invalid_config", "%s: must be \"house\" or \"player\"", p);
			t->player_banked = strcmp(json_string_value(v), "player") == 0;
		} else if (strcmp(k, "limits") == 0) {
			if (limits_from_json(v, p, &t->limits, err) < 0)
				return -1;
			have_limits = true;
		} else if (strcmp(k, "banker") == 0) {
			banker = v;
		} else if (strcmp(k, "collection") == 0) {
			collection = v;
		} else if (strcmp(k, "open") == 0) {
			if (!json_is_boolean(v))
				return pb_fail(err, 400, "invalid_config", "%s: must be true or false", p);
			t->open = json_is_true(v);
		} else if (strcmp(k, "currency") == 0) {
			const char *c = json_is_string(v) ? json_string_value(v) : "";
			if (strlen(c) != 3 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z' || c[2] < 'A' || c[2] > 'Z')
				return pb_fail(err, 400, "invalid_config", "%s: must be an ISO 4217 code such as \"USD\"", p);
			snprintf(t->currency, sizeof(t->currency), "%s", c);
		} else {
			return pb_fail(err, 400, "invalid_config",
			    "%s: unknown key; a table has id, name, game, seats, banking, limits, banker, collection, open, currency", p);
		}
	}
	if (t->id[0] == '\0')
		return pb_fail(err, 400, "invalid_config", "%s.id: required", path);
	if (t->rules == NULL)
		return pb_fail(err, 400, "invalid_config", "%s.game: required", path);
	if (t->seats == 0)
		return pb_fail(err, 400, "invalid_config", "%s.seats: required (1..%d)", path, MAX_SEATS);
	if (!have_limits)
		return pb_fail(err, 400, "invalid_config", "%s.limits: required, at least {\"ante\": {\"min\": ..., \"max\": ...}}", path);
	if (t->name[0] == '\0')
		snprintf(t->name, sizeof(t->name), "%s", t->id);
	snprintf(p, sizeof(p), "%s.banker", path);
	if (t->player_banked) {
		if (load_banker(t, banker, p, err) < 0)
			return -1;
		if (t->seats < 2)
			return pb_fail(err, 400, "invalid_config", "%s.seats: a player-banked table needs at least 2 seats", path);
	} else if (banker != NULL) {
		return pb_fail(err, 400, "invalid_config", "%s: only a player-banked table has a banker", p);
	}
	if (collection != NULL) {
		snprintf(p, sizeof(p), "%s.collection", path);
		if (!t->player_banked)
			return pb_fail(err, 400, "invalid_config", "%s: only a player-banked table posts a collection", p);
		if (collection_from_json(collection, p, &t->collection, err) < 0)
			return -1;
	}
	canon = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	pb_sha256_hex(canon ? canon : "", canon ? strlen(canon) : 0, t->sha256);
	free(canon);
	return 0;
}

static int
load_token(struct token_config *t, const json_t *o, size_t idx, struct pb_error *err)
{
	const char *k;
	const json_t *v;
	char path[64], p[128];
	bool have_role = false, have_hash = false;

	snprintf(path, sizeof(path), "tokens[%zu]", idx);
	if (!json_is_object(o))
		return pb_fail(err, 400, "invalid_config", "%s: must be an object", path);
	t->all_tables = true;
	json_object_foreach((json_t *)o, k, v) {
		snprintf(p, sizeof(p), "%s.%.32s", path, k);
		if (strcmp(k, "name") == 0) {
			if (!json_is_string(v) || !pb_valid_id(json_string_value(v)))
				return pb_fail(err, 400, "invalid_config", "%s: must be 1..32 letters, digits, '_', '.' or '-'", p);
			snprintf(t->name, sizeof(t->name), "%s", json_string_value(v));
		} else if (strcmp(k, "role") == 0) {
			int r = -1;
			for (int i = 0; i <= ROLE_ADMIN && json_is_string(v); i++)
				if (strcmp(json_string_value(v), ROLE_NAMES[i]) == 0)
					r = i;
			if (r < 0)
				return pb_fail(err, 400, "invalid_config", "%s: must be dealer, pitboss, auditor or admin", p);
			t->role = (enum role)r;
			have_role = true;
		} else if (strcmp(k, "tables") == 0) {
			size_t i;
			const json_t *e;
			if (!json_is_array(v))
				return pb_fail(err, 400, "invalid_config", "%s: must be an array of table ids", p);
			t->all_tables = false;
			t->table_count = json_array_size(v);
			t->tables = calloc(t->table_count + 1, sizeof(*t->tables));
			if (t->tables == NULL)
				return pb_fail(err, 500, "out_of_memory", "out of memory");
			json_array_foreach(v, i, e) {
				if (!json_is_string(e) || !pb_valid_id(json_string_value(e)))
					return pb_fail(err, 400, "invalid_config", "%s[%zu]: must be a table id", p, i);
				snprintf(t->tables[i], PB_ID_MAX, "%s", json_string_value(e));
			}
		} else if (strcmp(k, "sha256") == 0) {
			if (!json_is_string(v) || pb_hex_to_sha256(json_string_value(v), t->sha256) < 0)
				return pb_fail(err, 400, "invalid_config", "%s: must be the 64 hex digits of the token's SHA-256 (see `pitboss token new`)", p);
			have_hash = true;
		} else {
			return pb_fail(err, 400, "invalid_config", "%s: unknown key; a token has name, role, tables, sha256", p);
		}
	}
	if (t->name[0] == '\0' || !have_role || !have_hash)
		return pb_fail(err, 400, "invalid_config", "%s: name, role and sha256 are required", path);
	return 0;
}

/* "idempotency": {"retention_seconds": N}: how long a stored answer to an Idempotency-Key is kept. */
static int
load_idempotency(struct config *cfg, const json_t *v, struct pb_error *err)
{
	const char *k;
	const json_t *e;
	long long n = 0;

	if (!json_is_object(v))
		return pb_fail(err, 400, "invalid_config", "idempotency: must be {\"retention_seconds\": SECONDS}, e.g. 86400");
	json_object_foreach((json_t *)v, k, e) {
		char p[64];
		snprintf(p, sizeof(p), "idempotency.%.32s", k);
		if (strcmp(k, "retention_seconds") != 0)
			return pb_fail(err, 400, "invalid_config", "%s: unknown key; idempotency has retention_seconds", p);
		if (read_int(e, p, CONFIG_IDEMPOTENCY_RETENTION_MIN, CONFIG_IDEMPOTENCY_RETENTION_MAX, &n, err) < 0)
			return -1;
		cfg->idempotency_retention_seconds = (unsigned)n;
	}
	return 0;
}

static int
read_top_level(struct config *cfg, const json_t *root, struct pb_error *err)
{
	const char *k;
	const json_t *v;
	long long n = 0;
	const json_t *games = json_object_get(root, "games");
	const json_t *tables = json_object_get(root, "tables");
	const json_t *tokens = json_object_get(root, "tokens");
	size_t i;
	const json_t *e;

	if (load_games(cfg, games, err) < 0)
		return -1;
	json_object_foreach((json_t *)root, k, v) {
		if (strcmp(k, "games") == 0 || strcmp(k, "tables") == 0 || strcmp(k, "tokens") == 0)
			continue;
		if (strcmp(k, "listen") == 0) {
			if (!json_is_string(v) || parse_listen(json_string_value(v), cfg->listen_host, sizeof(cfg->listen_host), &cfg->listen_port) < 0)
				return pb_fail(err, 400, "invalid_config", "listen: must be \"ADDRESS:PORT\", e.g. \"127.0.0.1:8080\" or \"[::1]:8080\"");
		} else if (strcmp(k, "database") == 0) {
			if (!json_is_string(v) || json_string_length(v) == 0)
				return pb_fail(err, 400, "invalid_config", "database: must be the path of the SQLite file");
			resolve_path(cfg->dir, json_string_value(v), cfg->database, sizeof(cfg->database));
		} else if (strcmp(k, "web_root") == 0) {
			if (!json_is_string(v))
				return pb_fail(err, 400, "invalid_config", "web_root: must be the directory of the page's files");
			resolve_path(cfg->dir, json_string_value(v), cfg->web_root, sizeof(cfg->web_root));
		} else if (strcmp(k, "synchronous") == 0) {
			const char *s = json_is_string(v) ? json_string_value(v) : "";
			if (strcmp(s, "FULL") != 0 && strcmp(s, "NORMAL") != 0 && strcmp(s, "EXTRA") != 0)
				return pb_fail(err, 400, "invalid_config", "synchronous: must be \"FULL\" (default), \"EXTRA\" or \"NORMAL\"");
			snprintf(cfg->synchronous, sizeof(cfg->synchronous), "%s", s);
		} else if (strcmp(k, "max_body_bytes") == 0) {
			if (read_int(v, "max_body_bytes", 1024, 64LL * 1024 * 1024, &n, err) < 0)
				return -1;
			cfg->max_body_bytes = (size_t)n;
		} else if (strcmp(k, "threads") == 0) {
			if (read_int(v, "threads", 1, 256, &n, err) < 0)
				return -1;
			cfg->threads = (unsigned)n;
		} else if (strcmp(k, "connection_limit") == 0) {
			if (read_int(v, "connection_limit", 1, 65536, &n, err) < 0)
				return -1;
			cfg->connection_limit = (unsigned)n;
		} else if (strcmp(k, "connection_timeout") == 0) {
			if (read_int(v, "connection_timeout", 1, 3600, &n, err) < 0)
				return -1;
			cfg->connection_timeout = (unsigned)n;
		} else if (strcmp(k, "tls") == 0) {
			const json_t *c = json_object_get(v, "cert"), *key = json_object_get(v, "key");
			if (!json_is_object(v) || json_object_size(v) != 2 || !json_is_string(c) || !json_is_string(key))
				return pb_fail(err, 400, "invalid_config", "tls: must be {\"cert\": PEM_FILE, \"key\": PEM_FILE}");
			resolve_path(cfg->dir, json_string_value(c), cfg->tls_cert, sizeof(cfg->tls_cert));
			resolve_path(cfg->dir, json_string_value(key), cfg->tls_key, sizeof(cfg->tls_key));
			if (access(cfg->tls_cert, R_OK) != 0)
				return pb_fail(err, 400, "invalid_config", "tls.cert: cannot read %s", cfg->tls_cert);
			if (access(cfg->tls_key, R_OK) != 0)
				return pb_fail(err, 400, "invalid_config", "tls.key: cannot read %s", cfg->tls_key);
		} else if (strcmp(k, "backup_dir") == 0) {
			if (!json_is_string(v) || json_string_length(v) == 0)
				return pb_fail(err, 400, "invalid_config", "backup_dir: must be a directory path");
			resolve_path(cfg->dir, json_string_value(v), cfg->backup_dir, sizeof(cfg->backup_dir));
		} else if (strcmp(k, "checkpoint") == 0) {
			const char *ck;
			const json_t *cv;
			if (!json_is_object(v))
				return pb_fail(err, 400, "invalid_config", "checkpoint: must be {\"key_file\", \"every_rounds\", \"every_seconds\"}");
			json_object_foreach((json_t *)v, ck, cv) {
				char p[64];
				snprintf(p, sizeof(p), "checkpoint.%.32s", ck);
				if (strcmp(ck, "key_file") == 0 && json_is_string(cv) && json_string_length(cv) > 0) {
					resolve_path(cfg->dir, json_string_value(cv), cfg->checkpoint_key, sizeof(cfg->checkpoint_key));
				} else if (strcmp(ck, "every_rounds") == 0) {
					if (read_int(cv, p, 1, 1000000, &n, err) < 0)
						return -1;
					cfg->checkpoint_every_rounds = (unsigned)n;
				} else if (strcmp(ck, "startup_check") == 0 && json_is_string(cv) &&
				    (strcmp(json_string_value(cv), "full") == 0 || strcmp(json_string_value(cv), "since_checkpoint") == 0)) {
					cfg->startup_full_check = strcmp(json_string_value(cv), "full") == 0;
				} else if (strcmp(ck, "every_seconds") == 0) {
					if (read_int(cv, p, 1, 86400, &n, err) < 0)
						return -1;
					cfg->checkpoint_every_seconds = (unsigned)n;
				} else if (strcmp(ck, "startup_walk_pause_ms") == 0) {
					if (read_int(cv, p, 0, 10000, &n, err) < 0)
						return -1;
					cfg->startup_walk_pause_ms = (unsigned)n;
				} else {
					return pb_fail(err, 400, "invalid_config", "%s: unknown or bad; checkpoint has key_file (a path), every_rounds, every_seconds, startup_check (\"full\" or \"since_checkpoint\"), startup_walk_pause_ms", p);
				}
			}
		} else if (strcmp(k, "auth") == 0) {
			const char *ak;
			const json_t *av;
			if (!json_is_object(v))
				return pb_fail(err, 400, "invalid_config", "auth: must be {\"max_failures\", \"lockout_seconds\"}");
			json_object_foreach((json_t *)v, ak, av) {
				char p[64];
				snprintf(p, sizeof(p), "auth.%.32s", ak);
				if (strcmp(ak, "max_failures") == 0) {
					if (read_int(av, p, 1, 5, &n, err) < 0)
						return -1;
					cfg->auth_max_failures = (unsigned)n;
				} else if (strcmp(ak, "lockout_seconds") == 0) {
					if (read_int(av, p, 1, 86400, &n, err) < 0)
						return -1;
					cfg->auth_lockout_seconds = (unsigned)n;
				} else {
					return pb_fail(err, 400, "invalid_config", "%s: unknown key; auth has max_failures and lockout_seconds", p);
				}
			}
		} else if (strcmp(k, "idempotency") == 0) {
			if (load_idempotency(cfg, v, err) < 0)
				return -1;
		} else if (strcmp(k, "allow_demo_tokens_remote") == 0) {
			if (!json_is_boolean(v))
				return pb_fail(err, 400, "invalid_config", "allow_demo_tokens_remote: must be true or false");
			cfg->allow_demo_tokens_remote = json_is_true(v);
		} else {
			return pb_fail(err, 400, "invalid_config", "%.40s: unknown key (see docs/operations.md for the configuration reference)", k);
		}
	}
	if (!json_is_array(tables) || json_array_size(tables) == 0)
		return pb_fail(err, 400, "invalid_config", "tables: must be an array of at least one table");
	cfg->table_count = json_array_size(tables);
	cfg->tables = calloc(cfg->table_count, sizeof(*cfg->tables));
	if (cfg->tables == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	json_array_foreach(tables, i, e) {
		if (load_table(cfg, &cfg->tables[i], e, i, err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(cfg->tables[j].id, cfg->tables[i].id) == 0)
				return pb_fail(err, 400, "invalid_config", "tables[%zu].id: \"%s\" is already used by tables[%zu]", i, cfg->tables[i].id, j);
	}
	if (tokens != NULL && !json_is_array(tokens))
		return pb_fail(err, 400, "invalid_config", "tokens: must be an array");
	cfg->token_count = json_array_size(tokens);
	cfg->tokens = calloc(cfg->token_count + 1, sizeof(*cfg->tokens));
	if (cfg->tokens == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	json_array_foreach(tokens, i, e) {
		if (load_token(&cfg->tokens[i], e, i, err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++) {
			if (strcmp(cfg->tokens[j].name, cfg->tokens[i].name) == 0)
				return pb_fail(err, 400, "invalid_config", "tokens[%zu].name: \"%s\" is already used", i, cfg->tokens[i].name);
			if (memcmp(cfg->tokens[j].sha256, cfg->tokens[i].sha256, 32) == 0)
				return pb_fail(err, 400, "invalid_config", "tokens[%zu].sha256: the same token as tokens[%zu]", i, j);
		}
		for (size_t t = 0; t < cfg->tokens[i].table_count; t++)
			if (config_table(cfg, cfg->tokens[i].tables[t]) == NULL)
				return pb_fail(err, 400, "invalid_config", "tokens[%zu].tables: no table \"%s\"", i, cfg->tokens[i].tables[t]);
	}
	return 0;
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
	snprintf(cfg->listen_host, sizeof(cfg->listen_host), "127.0.0.1");
	cfg->listen_port = 8080;
	resolve_path(cfg->dir, "pitboss.db", cfg->database, sizeof(cfg->database));
	snprintf(cfg->synchronous, sizeof(cfg->synchronous), "FULL");
	cfg->max_body_bytes = 1024 * 1024;
	cfg->threads = 4;
	cfg->connection_limit = 512;
	cfg->connection_timeout = 30;
	cfg->checkpoint_every_rounds = 100;
	cfg->checkpoint_every_seconds = 300;
	cfg->startup_full_check = true;
	cfg->auth_max_failures = 5;
	cfg->auth_lockout_seconds = 900;
	cfg->idempotency_retention_seconds = CONFIG_IDEMPOTENCY_RETENTION_DEFAULT;

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
	if (cfg->web_root[0] == '\0')
		resolve_path(cfg->dir, "../web", cfg->web_root, sizeof(cfg->web_root));
	if (cfg->checkpoint_key[0] == '\0')
		snprintf(cfg->checkpoint_key, sizeof(cfg->checkpoint_key), "%s.signing-key", cfg->database);
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
