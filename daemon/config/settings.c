/*
 * settings.c - the daemon's own settings as key tables (settings.h).  A new
 * setting is a field in struct config (config.h), a row here, and a line in
 * docs/operations.md; the reader, the messages and the docs check follow.
 */
#include "config/settings.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/files.h"
#include "config/property.h"
#include "engine/theo.h"

#define STR_(x) #x
#define STR(x) STR_(x)

_Static_assert(CONFIG_IDEMPOTENCY_RETENTION_DEFAULT == 86400u, "the default of idempotency.retention_seconds below");

int
config_parse_listen(const char *text, char *host, size_t hostsz, int *port)
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

/* "listen": into listen_host and listen_port. */
static int
read_listen(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path, struct pb_error *err)
{
	struct config *cfg = at->dst;

	(void)k;
	(void)path;
	(void)err;
	if (!json_is_string(v) ||
	    config_parse_listen(json_string_value(v), cfg->listen_host, sizeof(cfg->listen_host), &cfg->listen_port) < 0)
		return 1;
	return 0;
}

int
config_parse_cidr(const char *text, struct config_cidr *out)
{
	char addr[INET6_ADDRSTRLEN + 8], *slash, *end;
	long bits;

	memset(out, 0, sizeof(*out));
	if (strlen(text) >= sizeof(addr))
		return -1;
	snprintf(addr, sizeof(addr), "%s", text);
	slash = strchr(addr, '/');
	if (slash != NULL)
		*slash = '\0';
	if (inet_pton(AF_INET, addr, out->addr) == 1)
		out->family = AF_INET;
	else if (inet_pton(AF_INET6, addr, out->addr) == 1)
		out->family = AF_INET6;
	else
		return -1;
	out->prefix = out->family == AF_INET ? 32 : 128;
	if (slash == NULL)
		return 0;
	bits = strtol(slash + 1, &end, 10);
	if (slash[1] == '\0' || *end != '\0' || bits < 0 || bits > (long)out->prefix)
		return -1;
	out->prefix = (unsigned)bits;
	return 0;
}

/* Whether the first bits of a and b are equal. */
static bool
prefix_equal(const uint8_t *a, const uint8_t *b, unsigned bits)
{
	unsigned whole = bits / 8, rest = bits % 8;

	if (memcmp(a, b, whole) != 0)
		return false;
	return rest == 0 || ((a[whole] ^ b[whole]) & (uint8_t)(0xff << (8 - rest))) == 0;
}

bool
config_trusted_proxy(const struct config *cfg, const char *addr)
{
	static const uint8_t MAPPED[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	struct config_cidr a;

	if (cfg->trusted_proxy_count == 0 || config_parse_cidr(addr, &a) < 0 || a.prefix != (a.family == AF_INET ? 32u : 128u))
		return false;
	if (a.family == AF_INET6 && memcmp(a.addr, MAPPED, 12) == 0) {
		memmove(a.addr, a.addr + 12, 4);
		a.family = AF_INET;
	}
	for (size_t i = 0; i < cfg->trusted_proxy_count; i++) {
		const struct config_cidr *n = &cfg->trusted_proxies[i];
		if (n->family == a.family && prefix_equal(n->addr, a.addr, n->prefix))
			return true;
	}
	return false;
}

/* "trusted_proxies": a list of addresses and networks, CONFIG_PROXIES_MAX at most. */
static int
read_trusted_proxies(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path,
    struct pb_error *err)
{
	struct config *cfg = at->dst;
	const json_t *e;
	size_t i;

	(void)k;
	if (!json_is_array(v) || json_array_size(v) > CONFIG_PROXIES_MAX)
		return 1;
	json_array_foreach(v, i, e) {
		if (!json_is_string(e) || config_parse_cidr(json_string_value(e), &cfg->trusted_proxies[i]) < 0)
			return pb_fail(err, 400, "invalid_config", "%s[%zu]: must be an IP address or a network such as "
			    "\"10.0.0.0/8\" or \"fd00::/8\"", path, i);
	}
	cfg->trusted_proxy_count = json_array_size(v);
	return 0;
}

/* "tls": both PEM files must be readable now, not at the first connection. */
static int
check_tls(const struct cfg_at *at, struct pb_error *err)
{
	const struct config *cfg = at->dst;

	if (access(cfg->tls_cert, R_OK) != 0)
		return pb_fail(err, 400, "invalid_config", "tls.cert: cannot read %s", cfg->tls_cert);
	if (access(cfg->tls_key, R_OK) != 0)
		return pb_fail(err, 400, "invalid_config", "tls.key: cannot read %s", cfg->tls_key);
	return 0;
}

static const struct cfg_key TLS_KEYS[] = {
	{.name = "cert", .type = CFG_PATH, CFG_FIELD(struct config, tls_cert), .required = "required",
	 .describe = "the certificate chain, PEM"},
	{.name = "key", .type = CFG_PATH, CFG_FIELD(struct config, tls_key), .required = "required",
	 .describe = "the certificate's private key, PEM"},
};

static const struct cfg_section TLS = {
	.name = "tls", .keys = TLS_KEYS, .count = CFG_COUNT(TLS_KEYS),
	.must = "be {\"cert\": PEM_FILE, \"key\": PEM_FILE}", .noun = "tls", .strict = true, .check = check_tls,
};

static const char *const STARTUP_CHECKS[] = {"since_checkpoint", "full", NULL};

static const struct cfg_key CHECKPOINT_KEYS[] = {
	{.name = "key_file", .type = CFG_PATH, .min = 1, CFG_FIELD(struct config, checkpoint_key),
	 .must = "be the path of the signing key's file",
	 .describe = "the Ed25519 seed that signs checkpoints; default: the database path + \".signing-key\""},
	{.name = "every_rounds", .type = CFG_INT, .min = 1, .max = 1000000,
	 CFG_FIELD(struct config, checkpoint_every_rounds), .def = "100", .reload = true,
	 .describe = "a checkpoint after every N rounds of a table"},
	{.name = "every_seconds", .type = CFG_INT, .min = 1, .max = 86400,
	 CFG_FIELD(struct config, checkpoint_every_seconds), .def = "300", .reload = true,
	 .describe = "a checkpoint of each moved chain every N seconds"},
	{.name = "startup_check", .type = CFG_CHOICE, .choices = STARTUP_CHECKS,
	 CFG_FIELD(struct config, startup_full_check), .def = "\"full\"", .must = "be \"full\" or \"since_checkpoint\"",
	 .describe = "\"full\": every chain, the part before the last checkpoint in the background"},
	{.name = "startup_walk_pause_ms", .type = CFG_INT, .min = 0, .max = 10000,
	 CFG_FIELD(struct config, startup_walk_pause_ms), .def = "0",
	 .describe = "the background walk's pause between chunks"},
	{.name = "startup_walk_chunk", .type = CFG_INT, .min = 100, .max = 100000,
	 CFG_FIELD(struct config, startup_walk_chunk), .def = "2000",
	 .describe = "the events the background walk reads at a time (one short read transaction each)"},
};

static const struct cfg_section CHECKPOINT = {
	.name = "checkpoint", .keys = CHECKPOINT_KEYS, .count = CFG_COUNT(CHECKPOINT_KEYS),
	.must = "be {\"key_file\", \"every_rounds\", \"every_seconds\"}", .noun = "checkpoint",
};

static const struct cfg_key AUTH_KEYS[] = {
	{.name = "max_failures", .type = CFG_INT, .min = 1, .max = 5, CFG_FIELD(struct config, auth_max_failures),
	 .def = "5", .reload = true, .describe = "failed sign-ins per client address before a lockout"},
	{.name = "lockout_seconds", .type = CFG_INT, .min = 1, .max = 86400,
	 CFG_FIELD(struct config, auth_lockout_seconds), .def = "900", .reload = true,
	 .describe = "how long a locked-out address waits"},
};

static const struct cfg_section AUTH = {
	.name = "auth", .keys = AUTH_KEYS, .count = CFG_COUNT(AUTH_KEYS),
	.must = "be {\"max_failures\", \"lockout_seconds\"}", .noun = "auth",
};

static const struct cfg_key SESSIONS_KEYS[] = {
	{.name = "idle_seconds", .type = CFG_INT, .min = 1, .max = 86400, CFG_FIELD(struct config, session_idle_seconds),
	 .def = "1800", .reload = true, .describe = "a person's session ends after this long without a request"},
	{.name = "absolute_seconds", .type = CFG_INT, .min = 1, .max = 604800,
	 CFG_FIELD(struct config, session_absolute_seconds), .def = "43200", .reload = true,
	 .describe = "a person's session ends this long after sign-in, used or not"},
};

static const struct cfg_section SESSIONS = {
	.name = "sessions", .keys = SESSIONS_KEYS, .count = CFG_COUNT(SESSIONS_KEYS),
	.must = "be {\"idle_seconds\", \"absolute_seconds\"}", .noun = "sessions",
};

static const struct cfg_key IDEMPOTENCY_KEYS[] = {
	{.name = "retention_seconds", .type = CFG_INT, .min = CONFIG_IDEMPOTENCY_RETENTION_MIN,
	 .max = CONFIG_IDEMPOTENCY_RETENTION_MAX, CFG_FIELD(struct config, idempotency_retention_seconds),
	 .def = "86400", .reload = true,
	 .describe = "how long the stored answer to an Idempotency-Key is kept"},
};

static const struct cfg_section IDEMPOTENCY = {
	.name = "idempotency", .keys = IDEMPOTENCY_KEYS, .count = CFG_COUNT(IDEMPOTENCY_KEYS),
	.must = "be {\"retention_seconds\": SECONDS}, e.g. 86400", .noun = "idempotency",
};

static const struct cfg_key CENTRAL_KEYS[] = {
	{.name = "conninfo", .type = CFG_TEXT, .min = 1, CFG_FIELD(struct config, central_conninfo), .required = "required",
	 .must = "be a libpq connection string of at most 1023 bytes, e.g. \"host=hq.example dbname=pitboss\"",
	 .describe = "the central PostgreSQL the record is shipped to (docs/central.md)"},
	{.name = "ship", .type = CFG_BOOL, CFG_FIELD(struct config, central_ship), .def = "true",
	 .describe = "ship this property's record there (false: a head office's pitbossd that only reads)"},
	{.name = "reports", .type = CFG_BOOL, CFG_FIELD(struct config, central_reports), .def = "false",
	 .describe = "serve GET /api/v1/central/summary, the summary across properties, from there"},
	{.name = "statement_timeout_ms", .type = CFG_INT, .min = 100, .max = 600000,
	 CFG_FIELD(struct config, central_statement_timeout_ms), .def = "30000",
	 .describe = "the shipper's deadline for each connection and statement; past it the connection is closed and opened again"},
};

static const struct cfg_section CENTRAL = {
	.name = "central", .keys = CENTRAL_KEYS, .count = CFG_COUNT(CENTRAL_KEYS),
	.must = "be {\"conninfo\": \"host=... dbname=...\", \"ship\": true, \"reports\": false, "
	    "\"statement_timeout_ms\": 30000 (100 to 600000)}", .noun = "central",
	.strict = true,
};

/* accounting.win_per_drop_baseline: {"GAME": RATIO, ...}, each ratio from -1 to 1. */
static int
read_baselines(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path,
    struct pb_error *err)
{
	struct config *cfg = at->dst;
	const char *game;
	json_t *x;

	(void)k;
	if (!json_is_object(v) || json_object_size(v) > CONFIG_BASELINES_MAX)
		return 1;
	cfg->accounting.baseline_count = 0;
	json_object_foreach((json_t *)v, game, x) {
		double r = json_number_value(x);
		size_t n = cfg->accounting.baseline_count;
		if (game[0] == '\0' || strlen(game) >= RULES_NAME_MAX)
			return pb_fail(err, 400, "invalid_config", "%s: \"%.80s\" is not a game's name (1 to %d bytes)", path, game,
			    RULES_NAME_MAX - 1);
		if (!json_is_number(x) || !(r >= -1 && r <= 1))
			return pb_fail(err, 400, "invalid_config", "%s.%s: must be a win per drop, a number from -1 to 1 (e.g. 0.2)",
			    path, game);
		snprintf(cfg->accounting.baselines[n].game, RULES_NAME_MAX, "%s", game);
		cfg->accounting.baselines[n].value = r;
		cfg->accounting.baseline_count = n + 1;
	}
	return 0;
}

/* One series of accounting.serials, {"prefix": TEXT, "digits": N}, into *out; 1 to refuse it with the key's text. */
static int
read_series(const json_t *v, const char *path, struct serial_series *out, struct pb_error *err)
{
	const json_t *prefix = json_object_get(v, "prefix"), *digits = json_object_get(v, "digits");
	const char *k;
	json_t *x;

	if (!json_is_object(v))
		return 1;
	json_object_foreach((json_t *)v, k, x)
		if (strcmp(k, "prefix") != 0 && strcmp(k, "digits") != 0)
			return pb_fail(err, 400, "invalid_config", "%s.%.40s: unknown key; a series has prefix and digits", path, k);
	if (prefix != NULL && (!json_is_string(prefix) || json_string_length(prefix) >= CONFIG_SERIAL_PREFIX_MAX ||
	    (json_string_length(prefix) > 0 && !pb_valid_id(json_string_value(prefix)))))
		return pb_fail(err, 400, "invalid_config", "%s.prefix: must be 0..%d of A-Z a-z 0-9 _ . -, e.g. \"F-\"", path,
		    CONFIG_SERIAL_PREFIX_MAX - 1);
	if (!json_is_integer(digits) || json_integer_value(digits) < 1 || json_integer_value(digits) > 18 ||
	    (prefix ? json_string_length(prefix) : 0) + (size_t)json_integer_value(digits) >= PB_ID_MAX)
		return pb_fail(err, 400, "invalid_config", "%s.digits: must be the count of digits after the prefix, 1..18, "
		    "the serial at most %d characters in all", path, PB_ID_MAX - 1);
	out->configured = true;
	snprintf(out->prefix, sizeof(out->prefix), "%s", prefix ? json_string_value(prefix) : "");
	out->digits = (int)json_integer_value(digits);
	return 0;
}

/* accounting.serials: {"fill": SERIES, "credit": SERIES}, either or both. */
static int
read_serials(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path,
    struct pb_error *err)
{
	static const char *const KINDS[SERIAL_KINDS] = {[SERIAL_FILL] = "fill", [SERIAL_CREDIT] = "credit"};
	struct config *cfg = at->dst;
	char where[160];
	const char *kind;
	json_t *x;

	(void)k;
	if (!json_is_object(v))
		return 1;
	memset(cfg->accounting.serials, 0, sizeof(cfg->accounting.serials));
	json_object_foreach((json_t *)v, kind, x) {
		int i = strcmp(kind, KINDS[SERIAL_FILL]) == 0 ? SERIAL_FILL : strcmp(kind, KINDS[SERIAL_CREDIT]) == 0 ?
		    SERIAL_CREDIT : -1;
		int rc;
		if (i < 0)
			return pb_fail(err, 400, "invalid_config", "%s.%.40s: unknown key; serials has fill and credit", path, kind);
		snprintf(where, sizeof(where), "%s.%s", path, kind);
		if ((rc = read_series(x, where, &cfg->accounting.serials[i], err)) != 0)
			return rc > 0 ? pb_fail(err, 400, "invalid_config", "%s: must be {\"prefix\": \"F-\", \"digits\": 6}", where) : -1;
	}
	return 0;
}

/* The regulator's threshold is not below the report's. */
static int
check_accounting(const struct cfg_at *at, struct pb_error *err)
{
	const struct config *cfg = at->dst;

	if (cfg->accounting.discrepancy_regulator < cfg->accounting.discrepancy_report)
		return pb_fail(err, 400, "invalid_config", "%s%sdiscrepancy_regulator: must not be below discrepancy_report (%lld)",
		    at->path, at->path[0] ? "." : "", (long long)cfg->accounting.discrepancy_report);
	return 0;
}

static const char *const SIGNATURES[] = {"nj", "basic", NULL};

static const struct cfg_key ACCOUNTING_KEYS[] = {
	{.name = "require_opener", .type = CFG_BOOL, CFG_FIELD(struct config, accounting.require_opener), .def = "false",
	 .reload = true, .describe = "a table's first round of a gaming day needs an opener of that day"},
	{.name = "discrepancy_report", .type = CFG_INT, .min = 1, .max = PB_MONEY_MAX,
	 CFG_FIELD(struct config, accounting.discrepancy_report), .def = "2500", .reload = true,
	 .describe = "cents: an opener differing from the last closer by this much is a reported exception"},
	{.name = "discrepancy_regulator", .type = CFG_INT, .min = 1, .max = PB_MONEY_MAX,
	 CFG_FIELD(struct config, accounting.discrepancy_regulator), .def = "10000", .reload = true,
	 .describe = "cents: ... and by this much, one for the regulator's copy"},
	{.name = "variance_threshold", .type = CFG_INT, .min = 1, .max = PB_MONEY_MAX,
	 CFG_FIELD(struct config, accounting.variance_threshold), .def = "2500", .reload = true,
	 .describe = "cents: a count win this far from the hand win is flagged"},
	{.name = "variance_percent", .type = CFG_REAL, .real_min = 0, .min_open = true, .real_max = 100,
	 CFG_FIELD(struct config, accounting.variance_percent), .def = "2.0", .reload = true,
	 .must = "be a number above 0 and at most 100 (percent of the drop)",
	 .describe = "a variance of this percent of the drop is flagged"},
	{.name = "win_per_drop_baseline", .type = CFG_CUSTOM, .read = read_baselines, .def = "{}", .reload = true,
	 .must = "be an object of at most 32 games' names to a win per drop, e.g. {\"standard\": 0.2}",
	 .describe = "the statistics report's expected win per drop of each game (none: no baseline flag)"},
	{.name = "win_per_drop_tolerance", .type = CFG_REAL, .real_min = 0, .min_open = true, .real_max = 1,
	 CFG_FIELD(struct config, accounting.win_per_drop_tolerance), .def = "0.05", .reload = true,
	 .must = "be a number above 0 and at most 1 (a distance of win per drop)",
	 .describe = "a win per drop further than this from its game's baseline is flagged"},
	{.name = "signatures", .type = CFG_CHOICE, .choices = SIGNATURES, CFG_FIELD(struct config, accounting.signatures),
	 .def = "\"nj\"", .reload = true, .must = "be \"nj\" or \"basic\"",
	 .describe = "who signs the documents: nj (dealer and floor; slips issued, then received at the table) or basic"},
	{.name = "pending_slip_minutes", .type = CFG_INT, .min = 1, .max = 10080,
	 CFG_FIELD(struct config, accounting.pending_slip_minutes), .def = "30", .reload = true,
	 .describe = "minutes: a fill or credit issued and not received this long is a pending_slip exception (nj)"},
	{.name = "count_team_min", .type = CFG_INT, .min = 2, .max = 5, CFG_FIELD(struct config, accounting.count_team_min),
	 .def = "3", .reload = true, .describe = "the drop is signed by at least this many of the count team, all different"},
	{.name = "serials", .type = CFG_CUSTOM, .read = read_serials, .def = "{}", .reload = true,
	 .must = "be {\"fill\": {\"prefix\": \"F-\", \"digits\": 6}, \"credit\": {...}}, either or both",
	 .describe = "the pre-numbered series of fill and credit slips: gaps, duplicates and serials outside are exceptions"},
};

static const struct cfg_section ACCOUNTING = {
	.name = "accounting", .keys = ACCOUNTING_KEYS, .count = CFG_COUNT(ACCOUNTING_KEYS),
	.must = "be {\"require_opener\", \"discrepancy_report\", \"discrepancy_regulator\", \"variance_threshold\", "
	    "\"variance_percent\", \"win_per_drop_baseline\", \"win_per_drop_tolerance\", \"signatures\", "
	    "\"pending_slip_minutes\", \"count_team_min\", \"serials\"}",
	.noun = "accounting", .check = check_accounting,
};

/*
 * players.comp_share: a number from 0 to 1 with at most six decimals, kept
 * exactly in parts per million (engine/theo.h says why the double the parser
 * made of the text gives it back exactly).
 */
static int
read_comp_share(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path,
    struct pb_error *err)
{
	struct config *cfg = at->dst;

	(void)k;
	(void)path;
	(void)err;
	if (!json_is_number(v) || theo_share_ppm(json_number_value(v), &cfg->players.comp_share_ppm) < 0)
		return 1;
	return 0;
}

static const struct cfg_key PLAYERS_KEYS[] = {
	{.name = "comp_share", .type = CFG_CUSTOM, .read = read_comp_share, .def = "0.3", .reload = true,
	 .must = "be a number from 0 to 1 with at most six decimals (a share of the theoretical win)",
	 .describe = "a rating's comps: this share of the player's theoretical win"},
};

static const struct cfg_section PLAYERS = {
	.name = "players", .keys = PLAYERS_KEYS, .count = CFG_COUNT(PLAYERS_KEYS), .must = "be {\"comp_share\": 0.3}",
	.noun = "players",
};

static int
check_title31(const struct cfg_at *at, struct pb_error *err)
{
	const struct config *cfg = at->dst;

	if (cfg->title31.alert_at > cfg->title31.ctr_over)
		return pb_fail(err, 400, "invalid_config", "%s%salert_at: must not be above ctr_over (%lld)",
		    at->path, at->path[0] ? "." : "", (long long)cfg->title31.ctr_over);
	return 0;
}

static const struct cfg_key TITLE31_KEYS[] = {
	{.name = "mtl_threshold", .type = CFG_INT, .min = 1, .max = PB_MONEY_MAX, CFG_FIELD(struct config, title31.mtl_threshold),
	 .def = "300000", .reload = true, .describe = "cents: a cash transaction of this or more is an MTL entry"},
	{.name = "alert_at", .type = CFG_INT, .min = 1, .max = PB_MONEY_MAX, CFG_FIELD(struct config, title31.alert_at),
	 .def = "800000", .reload = true, .describe = "cents: a player's cash in, or out, of a gaming day reaching this is an alert"},
	{.name = "ctr_over", .type = CFG_INT, .min = 1, .max = PB_MONEY_MAX, CFG_FIELD(struct config, title31.ctr_over),
	 .def = "1000000", .reload = true, .describe = "cents: a player's cash in, or out, of a gaming day above this is a CTR item"},
};

static const struct cfg_section TITLE31 = {
	.name = "title31", .keys = TITLE31_KEYS, .count = CFG_COUNT(TITLE31_KEYS),
	.must = "be {\"mtl_threshold\", \"alert_at\", \"ctr_over\"}", .noun = "title31", .check = check_title31,
};

/* "z_flag": a finite number from 1 to 100 (the decisions report's threshold, docs/protection.md). */
static int
read_z_flag(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path, struct pb_error *err)
{
	struct config *cfg = at->dst;

	(void)k;
	(void)path;
	(void)err;
	if (!json_is_number(v) || !(json_number_value(v) >= 1.0 && json_number_value(v) <= 100.0))
		return 1;
	cfg->protection.z_flag = json_number_value(v);
	return 0;
}

static const struct cfg_key PROTECTION_KEYS[] = {
	{.name = "z_flag", .type = CFG_CUSTOM, .read = read_z_flag, .def = "4.0", .reload = true,
	 .must = "be a number from 1 to 100 (the z at which a group's decisions are flagged)",
	 .describe = "the decisions report flags a group whose z is this or more"},
	{.name = "min_decisions", .type = CFG_INT, .min = 1, .max = 1000000, CFG_FIELD(struct config, protection.min_decisions),
	 .def = "50", .reload = true, .describe = "a group is flagged only with at least this many decisions"},
};

static const struct cfg_section PROTECTION = {
	.name = "protection", .keys = PROTECTION_KEYS, .count = CFG_COUNT(PROTECTION_KEYS),
	.must = "be {\"z_flag\": 4.0, \"min_decisions\": 50}", .noun = "protection",
};

static const char *const SYNCHRONOUS[] = {"FULL", "NORMAL", "EXTRA", NULL};

static const struct cfg_key SETTINGS_KEYS[] = {
	{.name = "listen", .type = CFG_CUSTOM, .read = read_listen, .def = "\"127.0.0.1:8080\"",
	 .must = "be \"ADDRESS:PORT\", e.g. \"127.0.0.1:8080\" or \"[::1]:8080\"",
	 .describe = "the address and port to listen on"},
	{.name = "database", .type = CFG_PATH, .min = 1, CFG_FIELD(struct config, database), .def = "\"pitboss.db\"",
	 .must = "be the path of the SQLite file", .describe = "the SQLite file"},
	{.name = "web_root", .type = CFG_PATH, CFG_FIELD(struct config, web_root),
	 .must = "be the directory of the page's files", .reload = true, .describe = "the page's files"},
	{.name = "synchronous", .type = CFG_WORD, .choices = SYNCHRONOUS, CFG_FIELD(struct config, synchronous),
	 .def = "\"FULL\"", .must = "be \"FULL\" (default), \"EXTRA\" or \"NORMAL\"",
	 .describe = "SQLite's synchronous setting"},
	{.name = "max_body_bytes", .type = CFG_INT, .min = 1024, .max = 64LL * 1024 * 1024,
	 CFG_FIELD(struct config, max_body_bytes), .def = "1048576", .describe = "a larger request body gets 413"},
	{.name = "threads", .type = CFG_INT, .min = 1, .max = 256, CFG_FIELD(struct config, threads), .def = "4",
	 .describe = "HTTP worker threads"},
	{.name = "connection_limit", .type = CFG_INT, .min = 1, .max = 65536, CFG_FIELD(struct config, connection_limit),
	 .def = "512", .describe = "open connections at once"},
	{.name = "connection_timeout", .type = CFG_INT, .min = 1, .max = 3600,
	 CFG_FIELD(struct config, connection_timeout), .def = "30", .describe = "seconds before an idle connection is closed"},
	{.name = "request_head_timeout", .type = CFG_INT, .min = 1, .max = 600,
	 CFG_FIELD(struct config, request_head_timeout), .def = "10",
	 .describe = "seconds for a request's line and headers, whatever trickles in"},
	{.name = "body_min_bytes_per_second", .type = CFG_INT, .min = 0, .max = 1073741824,
	 CFG_FIELD(struct config, body_min_rate), .def = "1024",
	 .describe = "a request body slower than this after request_head_timeout is dropped (0: no minimum)"},
	{.name = "tls", .type = CFG_SECTION, .section = &TLS, .describe = "serve HTTPS with these PEM files"},
	{.name = "auth", .type = CFG_SECTION, .section = &AUTH, .reload = true, .describe = "lockout after failed sign-ins"},
	{.name = "sessions", .type = CFG_SECTION, .section = &SESSIONS, .reload = true,
	 .describe = "how long a person's session lasts"},
	{.name = "checkpoint", .type = CFG_SECTION, .section = &CHECKPOINT, .describe = "signed checkpoints"},
	{.name = "idempotency", .type = CFG_SECTION, .section = &IDEMPOTENCY, .reload = true,
	 .describe = "stored answers to Idempotency-Keys"},
	{.name = "backup_dir", .type = CFG_PATH, .min = 1, CFG_FIELD(struct config, backup_dir),
	 .must = "be a directory path", .reload = true, .describe = "where POST /api/v1/backups writes"},
	{.name = "backup_keep", .type = CFG_INT, .min = 0, .max = 100000, CFG_FIELD(struct config, backup_keep), .def = "0",
	 .reload = true, .describe = "how many backups POST /api/v1/backups keeps in backup_dir, oldest removed (0: all)"},
	{.name = "file_group", .type = CFG_TEXT, CFG_FIELD(struct config, file_group), .def = "\"\"",
	 .must = "be the name of a group of this system", .describe = "the group that may read pitbossd's files (0640)"},
	{.name = "backup_every_seconds", .type = CFG_INT, .min = 0, .max = 31622400,
	 CFG_FIELD(struct config, backup_every_seconds), .def = "0",
	 .describe = "pitbossd's own backups into backup_dir every this many seconds (0: none)"},
	{.name = "allow_demo_tokens_remote", .type = CFG_BOOL, CFG_FIELD(struct config, allow_demo_tokens_remote),
	 .def = "false", .reload = true, .describe = "allow the demo tokens on a non-loopback address"},
	{.name = "central", .type = CFG_SECTION, .section = &CENTRAL,
	 .describe = "ship the record to a central PostgreSQL (docs/central.md)"},
	{.name = "property", .type = CFG_SECTION, .section = &config_property, CFG_FIELD(struct config, property),
	 .reload = true,
	 .describe = "the property: its id, name, time zone, gaming day and shifts"},
	{.name = "chips", .type = CFG_CUSTOM, .read = config_read_chips, .def = "[100, 500, 2500, 10000, 50000, 100000, 500000]",
	 .must = "be an array of 1 to 32 chip denominations in cents, ascending, e.g. [100, 500, 2500]", .reload = true,
	 .describe = "the property's chip denominations, in cents"},
	{.name = "accounting", .type = CFG_SECTION, .section = &ACCOUNTING, .reload = true,
	 .describe = "the table documents: openers required, discrepancy and variance thresholds"},
	{.name = "players", .type = CFG_SECTION, .section = &PLAYERS, .reload = true,
	 .describe = "rated play: the comps' share of the theoretical win"},
	{.name = "title31", .type = CFG_SECTION, .section = &TITLE31, .reload = true,
	 .describe = "the Title 31 cash limits: MTL entries, alerts, CTR items"},
	{.name = "protection", .type = CFG_SECTION, .section = &PROTECTION, .reload = true,
	 .describe = "game protection: when the decisions report flags a group (docs/protection.md)"},
	{.name = "trusted_proxies", .type = CFG_CUSTOM, .read = read_trusted_proxies, .def = "[]", .reload = true,
	 .must = "be a list of at most " STR(CONFIG_PROXIES_MAX) " addresses or networks, e.g. [\"127.0.0.1\", \"10.0.0.0/8\"]",
	 .describe = "reverse proxies whose X-Forwarded-For gives the client's address"},
	{.name = "games", .type = CFG_LATER, .reload = true, .describe = "name -> rules (config.c)"},
	{.name = "tables", .type = CFG_LATER, .reload = true, .describe = "the tables (config/entries.c)"},
	{.name = "tokens", .type = CFG_LATER, .reload = true, .describe = "the API tokens (config/entries.c)"},
};

#ifndef PB_WEB_ROOT_FROM_PREFIX
#define PB_WEB_ROOT_FROM_PREFIX "share/pitboss/web"
#endif
#ifndef PB_INSTALLED_WEB_ROOT
#define PB_INSTALLED_WEB_ROOT "/usr/share/pitboss/web"
#endif

void
config_default_web_root(char *out, size_t n)
{
	char exe[4096], *slash;
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (len <= 0) {
		snprintf(out, n, "%s", PB_INSTALLED_WEB_ROOT);
		return;
	}
	exe[len] = '\0';
#if defined(PB_BUILD_DIR) && defined(PB_SOURCE_DIR)
	if (strncmp(exe, PB_BUILD_DIR "/", strlen(PB_BUILD_DIR) + 1) == 0) {
		snprintf(out, n, "%s/web", PB_SOURCE_DIR);
		return;
	}
#endif
	slash = strrchr(exe, '/');
	*slash = '\0';
	snprintf(out, n, "%s/../%s", exe, PB_WEB_ROOT_FROM_PREFIX);
	if (realpath(out, exe) != NULL)
		snprintf(out, n, "%s", exe);
}

/*
 * The defaults that follow from other keys or from where pitbossd runs: the
 * signing key lies beside the database; the page is the one installed with
 * the binary.  Then the property's calendar, in its zone (property.c).
 */
static int
settings_derived(const struct cfg_at *at, struct pb_error *err)
{
	struct config *cfg = at->dst;

	if (cfg->web_root[0] == '\0')
		config_default_web_root(cfg->web_root, sizeof(cfg->web_root));
	if (cfg->checkpoint_key[0] == '\0')
		snprintf(cfg->checkpoint_key, sizeof(cfg->checkpoint_key), "%s.signing-key", cfg->database);
	cfg->file_gid = -1;
	if (cfg->file_group[0] != '\0') {
		gid_t gid;
		if (pb_files_group_of(cfg->file_group, &gid, err) < 0)
			return -1;
		cfg->file_gid = (long)gid;
	}
	return property_finish(cfg, err);
}

const struct cfg_section config_settings = {
	.name = "the top level", .keys = SETTINGS_KEYS, .count = CFG_COUNT(SETTINGS_KEYS),
	.must = "be a JSON object", .noun = NULL, .check = settings_derived,
};

int
settings_read(struct config *cfg, const json_t *root, struct pb_error *err)
{
	return cfg_read_section(&config_settings, root, "", cfg->dir, cfg, cfg, err);
}
