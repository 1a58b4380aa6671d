/*
 * config.h - pitbossd's configuration file (API.md "Configuration"): listen
 * address, database, games, tables, tokens, and the operational settings
 * documented in docs/operations.md.  The layer of its own between engine and
 * store: it depends on common and engine only.  What each key is (type,
 * bounds, default, field, SIGHUP) is in the key tables of settings.c and
 * entries.c, read by keys.c ("Configuration: where a new key goes" in the
 * architecture notes of docs/).
 */
#ifndef PB_CONFIG_CONFIG_H
#define PB_CONFIG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "common/error.h"
#include "common/gaming_day.h"
#include "common/hash.h"
#include "engine/collection.h"
#include "engine/limits.h"
#include "engine/rules.h"

#include "common/ids.h"

/*
 * What a token or a person may do.  Tokens (machines, and the people of
 * before accounts) hold one of the first four; people may hold several
 * (people issue: floor supervisors, the cage, the count team, surveillance;
 * security: the runners who carry fills and credits between cage and table).
 * The numbers are kept: they are part of cache keys, never of the record.
 */
enum role {
	ROLE_DEALER = 0, ROLE_PITBOSS, ROLE_AUDITOR, ROLE_ADMIN,
	ROLE_FLOOR, ROLE_CAGE, ROLE_COUNT, ROLE_SURVEILLANCE, ROLE_SECURITY,
	ROLE_KINDS
};

/* A set of roles: a bit per role. */
#define ROLE_BIT(r) (1u << (r))

struct game_config {
	char name[RULES_NAME_MAX];
	struct rules rules;
};

struct banker_config {
	int max_consecutive;   /* default 2 (seed 003) */
	int64_t min_bank;
	int64_t max_bank;      /* 0 = no maximum */
};

struct table_config {
	char id[PB_ID_MAX];
	char name[PB_NAME_MAX];
	char game[RULES_NAME_MAX];
	const struct rules *rules;     /* points into config->games */
	int seats;
	bool player_banked;
	struct table_limits limits;
	struct banker_config banker;
	struct collection_schedule collection;   /* player-banked: the house's collection, if posted */
	bool open;
	char currency[4];              /* ISO 4217, default "USD" */
	char sha256[PB_SHA256_HEX_LEN];/* of this entry's canonical JSON, to notice config changes */
};

struct token_config {
	char name[PB_ID_MAX];
	enum role role;
	bool all_tables;               /* no "tables" key: every table */
	char (*tables)[PB_ID_MAX];
	size_t table_count;
	uint8_t sha256[32];
};

#define CONFIG_ZONE_OFFSETS_MAX 16
#define CONFIG_CHIPS_MAX 32
#define CONFIG_BASELINES_MAX 32

/* "property": who the floor is, and its calendar (its zone, gaming day and shifts) for the reports. */
struct property_config {
	char id[PB_ID_MAX];            /* default "main"; the central tier will key on it */
	char name[PB_NAME_MAX];        /* default: the id */
	char time_zone[TZ_NAME_MAX];   /* an IANA name, default "UTC" */
	struct tz *tz;                 /* the zone loaded; owned, freed by config_free */
	struct gaming_calendar calendar;   /* calendar.tz == tz; shift_count 0: none configured */
	int offset_count;              /* the distinct UTC offsets the zone uses since 1970 */
	int32_t offsets[CONFIG_ZONE_OFFSETS_MAX];   /* seconds east of UTC */
};

/* The longest prefix of a series of slips (accounting.serials), with its NUL. */
#define CONFIG_SERIAL_PREFIX_MAX 16

/* A pre-numbered series of slips (accounting.serials): its prefix, then exactly `digits` digits ("F-000123"). */
struct serial_series {
	bool configured;               /* false: the kind's serials are not checked */
	char prefix[CONFIG_SERIAL_PREFIX_MAX];
	int digits;                    /* 1..18 */
};

/* The kinds of slips a series may be configured for: accounting.serials.fill and .credit. */
enum serial_kind { SERIAL_FILL, SERIAL_CREDIT, SERIAL_KINDS };

/* accounting.signatures: who signs the documents (docs/accounting.md, "Who signs"). */
enum acct_signatures {
	ACCT_SIGNATURES_NJ = 0,        /* "nj": dealer and floor on inventories; slips issued, then received at the table */
	ACCT_SIGNATURES_BASIC,         /* "basic": the session and one witness each, slips counted when issued */
};

/* "accounting": openers required, the thresholds of discrepancies and count variances (docs/accounting.md). */
struct accounting_config {
	bool require_opener;           /* a table's first round of a gaming day needs that day's opener */
	int64_t discrepancy_report;    /* cents: an opener differing by this much is reported */
	int64_t discrepancy_regulator; /* cents: ... and by this much goes to the regulator's copy */
	int64_t variance_threshold;    /* cents: |count win - hand win| flagged from here */
	double variance_percent;       /* percent of the drop: flagged from here */
	struct {                       /* win_per_drop_baseline: the statistics report's expected win per drop */
		char game[RULES_NAME_MAX];     /* a game's name (its rules' "name") */
		double value;
	} baselines[CONFIG_BASELINES_MAX];
	size_t baseline_count;
	double win_per_drop_tolerance; /* |win_per_drop - baseline| beyond this is flagged */
	int count_team_min;            /* the drop's signers at least: the count session and its witnesses */
	struct serial_series serials[SERIAL_KINDS];   /* the series of fills and credits, by enum serial_kind */
	enum acct_signatures signatures;
	int pending_slip_minutes;      /* a slip issued and not received this long is an exception (nj) */
};

/* One part of what was loaded (config/digest.c): a file, a setting, a game, a table or a token, and its hash. */
struct config_part {
	char kind[8];                  /* "file", "setting", "game", "table", "token" */
	char name[4352];               /* the file's path, the key, the game's name, the table's id, the token's name */
	char sha256[PB_SHA256_HEX_LEN];/* a file's bytes; a game's file bytes or inline text; an entry's or value's JSON text */
};

/* An address or a network of trusted_proxies: family AF_INET or AF_INET6, the prefix's bits. */
struct config_cidr {
	int family;
	unsigned prefix;
	uint8_t addr[16];
};

#define CONFIG_PROXIES_MAX 32

#define CONFIG_IDEMPOTENCY_RETENTION_DEFAULT 86400u          /* 24 hours */
#define CONFIG_IDEMPOTENCY_RETENTION_MIN 1u                  /* seconds; short ones are for tests */
#define CONFIG_IDEMPOTENCY_RETENTION_MAX (366u * 86400u)     /* a year */

struct config {
	char path[4096];               /* the file it was read from */
	char dir[4096];                /* its directory: relative paths start here */
	char sha256[PB_SHA256_HEX_LEN];/* of the file's bytes */
	char loaded_sha256[PB_SHA256_HEX_LEN]; /* of every file read: the file and its games' (digest.c) */
	struct config_part *parts;     /* what was loaded, part by part (digest.c) */
	size_t part_count;
	char listen_host[256];
	int listen_port;
	char database[4096];
	char web_root[4096];
	char synchronous[8];           /* FULL (default), NORMAL, EXTRA */
	size_t max_body_bytes;         /* 413 beyond; default 1 MiB */
	unsigned threads;              /* HTTP worker threads; default 4 */
	unsigned connection_limit;     /* default 512 */
	unsigned connection_timeout;   /* seconds idle before a connection is closed; default 30 */
	unsigned request_head_timeout; /* seconds for a request's head (and the body's grace); default 10 */
	unsigned body_min_rate;        /* body_min_bytes_per_second: a slower body is dropped; 0: none; default 1024 */
	bool allow_demo_tokens_remote; /* refuse non-loopback listen with demo tokens unless set */
	char tls_cert[4096];           /* PEM files; both set: serve HTTPS (libmicrohttpd with GnuTLS) */
	char tls_key[4096];
	char backup_dir[4096];         /* POST /api/v1/backups writes here; default: the database's directory + "/backups" */
	int64_t backup_keep;           /* after a backup into backup_dir, keep the newest N (0: keep every one) */
	unsigned backup_every_seconds; /* pitbossd's own backups into backup_dir every this many seconds; 0: none */
	char file_group[64];           /* the group that may read pitbossd's files (0640 then); "" none: 0600 */
	long file_gid;                 /* its gid, read at load; -1: none */
	char checkpoint_key[4096];     /* Ed25519 seed file; default: the database path + ".signing-key" */
	unsigned checkpoint_every_rounds;   /* default 100 */
	unsigned checkpoint_every_seconds;  /* default 300 */
	bool startup_full_check;       /* rehash every event at start (default), or only since the last checkpoint */
	unsigned startup_walk_chunk;   /* events per chunk of that walk, each one read transaction; default 2000 */
	unsigned startup_walk_pause_ms;/* "full": pause between chunks of the background walk before the checkpoints; default 0 (a yield) */
	unsigned auth_max_failures;    /* failures per client before a lockout; default 5 */
	unsigned auth_lockout_seconds; /* default 900 */
	unsigned session_idle_seconds;     /* a person's session ends after this long unused; default 1800 */
	unsigned session_absolute_seconds; /* and this long after sign-in at the latest; default 43200 */
	unsigned idempotency_retention_seconds; /* stored Idempotency-Key answers are pruned after this; default 86400 */
	char central_conninfo[1024];   /* "central": the central PostgreSQL's libpq conninfo; "" none (docs/central.md) */
	bool central_ship;             /* central.ship: the shipper runs (default true) */
	bool central_reports;          /* central.reports: GET /api/v1/central/summary is served (default false) */
	unsigned central_statement_timeout_ms; /* central.statement_timeout_ms: the shipper's deadline per connect and statement */
	struct property_config property;
	int64_t chips[CONFIG_CHIPS_MAX];   /* the property's chip denominations, cents, ascending */
	size_t chip_count;
	struct accounting_config accounting;   /* "accounting": the table documents' rules (docs/accounting.md) */
	struct {                               /* "players": rated play (docs/players.md) */
		int64_t comp_share_ppm;        /* comps: this share of the theoretical win, parts per million (exact) */
	} players;
	struct {                               /* "title31": the cash limits, cents (docs/players.md) */
		int64_t mtl_threshold;         /* an MTL entry for each cash transaction at or above this */
		int64_t alert_at;              /* an alert when a side's day total reaches this */
		int64_t ctr_over;              /* a CTR item when a side's day total exceeds this */
	} title31;
	struct {                               /* "protection": the decisions report (docs/protection.md) */
		double z_flag;                 /* a group is flagged at this z or more (default 4.0) ... */
		int64_t min_decisions;         /* ... with at least this many decisions (default 50) */
	} protection;
	struct config_cidr trusted_proxies[CONFIG_PROXIES_MAX]; /* peers whose X-Forwarded-For is believed; default none */
	size_t trusted_proxy_count;
	struct game_config *games;
	size_t game_count;
	struct table_config *tables;
	size_t table_count;
	struct token_config *tokens;
	size_t token_count;
};

/*
 * Reads and checks a configuration file.  Every problem is reported with its
 * place: "config/pitboss.json: tables[1].limits.ante.min: must be ...".
 * Relative paths (games, database, web_root) are taken from the file's directory.
 */
struct config *config_load(const char *path, struct pb_error *err);

void config_free(struct config *cfg);

const struct table_config *config_table(const struct config *cfg, const char *id);

/* The token whose SHA-256 matches, compared in constant time over all tokens; NULL if none. */
const struct token_config *config_token_by_secret(const struct config *cfg, const char *secret, size_t len);

/* True when the token may act on the table (its scope). */
bool token_allows_table(const struct token_config *t, const char *table_id);

const char *role_name(enum role r);

/* The role named name ("dealer", ... "surveillance"), or -1. */
int role_from_name(const char *name);

/* True for the well-known demo tokens shipped in config/ (never to be used off loopback). */
bool config_has_demo_tokens(const struct config *cfg);

/*
 * The digest of what was loaded (digest.c), made by config_load: the files
 * read with their hashes, loaded_sha256 over them, and a hash per setting,
 * game, table and token of root.
 */
int config_digest(struct config *cfg, const json_t *root, struct pb_error *err);

/* The hash of a part ("game", "standard"), or "" when there is none. */
const char *config_part_sha256(const struct config *cfg, const char *kind, const char *name);

/*
 * What changed from old to next: {"tables": {"added": [...], "removed":
 * [...], "changed": [...]}, "games": ..., "tokens": ..., "settings": ...,
 * "files": ...}, naming only the kinds and lists that are not empty.  A new
 * reference.
 */
json_t *config_changes(const struct config *old, const struct config *next);

/* [{"path", "sha256"}, ...]: the files read, main file first.  A new reference. */
json_t *config_files_json(const struct config *cfg);

/*
 * True when addr (an IPv4 or IPv6 address as text; an IPv4-mapped IPv6
 * address counts as its IPv4 address) lies in one of trusted_proxies.
 */
bool config_trusted_proxy(const struct config *cfg, const char *addr);

/* Parses "ADDRESS" or "ADDRESS/BITS" (IPv4 or IPv6); -1 when it is neither. */
int config_parse_cidr(const char *text, struct config_cidr *out);

/* True for a valid id: 1..32 bytes of letters, digits, '_', '.', '-'. */
bool pb_valid_id(const char *s);

#endif
