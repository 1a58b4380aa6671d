/*
 * test_config.c - pitbossd's configuration file (daemon/config/).
 *
 * Data-driven, in jansson's manner; each case is a folder, read from inside
 * it (config_load("pitboss.json"), so relative paths and messages do not
 * depend on where the tree lies):
 *   tests/unit/data/config/valid/NAME/pitboss.json      must be read; the game
 *       files and PEM files it names lie beside it.  When
 *   tests/unit/data/config/valid/NAME/expected.json     exists, every key it
 *       holds must equal the same key of what was read (test_config --dump
 *       FILE prints what was read, in that shape);
 *   tests/unit/data/config/invalid/NAME/pitboss.json    must be refused with
 *       400 and the message "pitboss.json: " followed by the text of
 *   tests/unit/data/config/invalid/NAME/error           (one line).
 * Adding a case is adding a folder.  Then: every key of the key tables has
 * its row in docs/operations.md (with its default and whether SIGHUP changes
 * it) and every row there is a key; the lookups on the example config.
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "config/entries.h"
#include "config/settings.h"

#ifndef PB_SOURCE_DIR
#error "PB_SOURCE_DIR must be defined by the build"
#endif

#define DATA_DIR PB_SOURCE_DIR "/tests/unit/data/config"
#define DOC_PATH PB_SOURCE_DIR "/docs/operations.md"

/* The whole of a file, NUL-terminated, without its trailing newlines; NULL when it cannot be read. */
static char *
read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t len;

	if (f == NULL)
		return NULL;
	buf = malloc(1 << 20);
	len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (buf == NULL)
		return NULL;
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	buf[len] = '\0';
	return buf;
}

/* ---- what was read, as JSON ---- */

/* The default page stands as "<default>" in expected.json: where it lies depends on where the binary runs. */
static const char *
web_root_shown(const struct config *c)
{
	char def[4096];

	config_default_web_root(def, sizeof(def));
	return strcmp(c->web_root, def) == 0 ? "<default>" : c->web_root;
}

static json_t *
dump_settings(const struct config *c)
{
	return json_pack("{s:s,s:i,s:s,s:s,s:s,s:I,s:i,s:i,s:i,s:i,s:i,s:b,s:s,s:s,s:s,s:s,s:i,s:i,s:b,s:i,s:i,s:i,s:i,s:i,s:i}",
	    "listen_host", c->listen_host, "listen_port", c->listen_port, "database", c->database,
	    "web_root", web_root_shown(c), "synchronous", c->synchronous, "max_body_bytes", (json_int_t)c->max_body_bytes,
	    "threads", (int)c->threads, "connection_limit", (int)c->connection_limit,
	    "connection_timeout", (int)c->connection_timeout, "request_head_timeout", (int)c->request_head_timeout,
	    "body_min_bytes_per_second", (int)c->body_min_rate, "allow_demo_tokens_remote", c->allow_demo_tokens_remote,
	    "tls_cert", c->tls_cert, "tls_key", c->tls_key, "backup_dir", c->backup_dir,
	    "checkpoint_key", c->checkpoint_key, "checkpoint_every_rounds", (int)c->checkpoint_every_rounds,
	    "checkpoint_every_seconds", (int)c->checkpoint_every_seconds, "startup_full_check", c->startup_full_check,
	    "startup_walk_pause_ms", (int)c->startup_walk_pause_ms, "auth_max_failures", (int)c->auth_max_failures,
	    "auth_lockout_seconds", (int)c->auth_lockout_seconds,
	    "session_idle_seconds", (int)c->session_idle_seconds, "session_absolute_seconds", (int)c->session_absolute_seconds,
	    "idempotency_retention_seconds", (int)c->idempotency_retention_seconds);
}

static json_t *
dump_table(const struct table_config *t)
{
	return json_pack("{s:s,s:s,s:s,s:s,s:i,s:b,s:b,s:s,s:o,s:{s:i,s:I,s:I},s:o}",
	    "id", t->id, "name", t->name, "game", t->game, "rules", t->rules ? t->rules->name : "",
	    "seats", t->seats, "player_banked", t->player_banked, "open", t->open, "currency", t->currency,
	    "limits", limits_to_json(&t->limits), "banker", "max_consecutive", t->banker.max_consecutive,
	    "min_bank", (json_int_t)t->banker.min_bank, "max_bank", (json_int_t)t->banker.max_bank,
	    "collection", collection_to_json(&t->collection));
}

static json_t *
dump_token(const struct token_config *t)
{
	char hex[65];
	json_t *tables = json_array();

	for (size_t i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", t->sha256[i]);
	for (size_t i = 0; i < t->table_count; i++)
		json_array_append_new(tables, json_string(t->tables[i]));
	return json_pack("{s:s,s:s,s:b,s:o,s:s}", "name", t->name, "role", role_name(t->role),
	    "all_tables", t->all_tables, "tables", tables, "sha256", hex);
}

static json_t *
hhmm_json(int min)
{
	char t[8];

	snprintf(t, sizeof(t), "%02d:%02d", min / 60, min % 60);
	return json_string(t);
}

/* The property as read, its calendar's times as "HH:MM", and the zone's offsets in seconds. */
static json_t *
dump_property(const struct property_config *p)
{
	json_t *shifts = json_array(), *offsets = json_array();

	for (int i = 0; i < p->calendar.shift_count; i++)
		json_array_append_new(shifts, json_pack("{s:s,s:o}", "name", p->calendar.shifts[i].name,
		    "start", hhmm_json(p->calendar.shifts[i].start_min)));
	for (int i = 0; i < p->offset_count; i++)
		json_array_append_new(offsets, json_integer(p->offsets[i]));
	return json_pack("{s:s,s:s,s:s,s:s,s:o,s:o,s:o}", "id", p->id, "name", p->name, "time_zone", p->time_zone,
	    "loaded", p->tz != NULL && p->calendar.tz == p->tz ? tz_name(p->tz) : "", "gaming_day_start",
	    hhmm_json(p->calendar.day_start_min), "shifts", shifts, "offsets", offsets);
}

/* What was read: the settings (by field name), the games (name -> rules name), the tables and tokens. */
/* trusted_proxies as "ADDRESS/BITS". */
static json_t *
dump_proxies(const struct config *c)
{
	json_t *list = json_array();

	for (size_t i = 0; i < c->trusted_proxy_count; i++) {
		char addr[INET6_ADDRSTRLEN], text[INET6_ADDRSTRLEN + 8];
		inet_ntop(c->trusted_proxies[i].family, c->trusted_proxies[i].addr, addr, sizeof(addr));
		snprintf(text, sizeof(text), "%s/%u", addr, c->trusted_proxies[i].prefix);
		json_array_append_new(list, json_string(text));
	}
	return list;
}

static json_t *
dump_config(const struct config *c)
{
	json_t *out = dump_settings(c), *games = json_object(), *tables = json_array(), *tokens = json_array();

	for (size_t i = 0; i < c->game_count; i++)
		json_object_set_new(games, c->games[i].name, json_string(c->games[i].rules.name));
	for (size_t i = 0; i < c->table_count; i++)
		json_array_append_new(tables, dump_table(&c->tables[i]));
	for (size_t i = 0; i < c->token_count; i++)
		json_array_append_new(tokens, dump_token(&c->tokens[i]));
	json_object_set_new(out, "games", games);
	json_object_set_new(out, "tables", tables);
	json_object_set_new(out, "tokens", tokens);
	json_object_set_new(out, "property", dump_property(&c->property));
	json_t *chips = json_array();
	for (size_t i = 0; i < c->chip_count; i++)
		json_array_append_new(chips, json_integer(c->chips[i]));
	json_object_set_new(out, "chips", chips);
	json_object_set_new(out, "trusted_proxies", dump_proxies(c));
	return out;
}

/* True when every key of want (recursively; arrays element by element, same length) equals got's. */
static bool
subset_equal(const json_t *want, const json_t *got, const char *where)
{
	char sub[256];

	if (json_is_object(want)) {
		const char *k;
		json_t *v;
		bool ok = json_is_object(got);
		json_object_foreach((json_t *)want, k, v) {
			snprintf(sub, sizeof(sub), "%s.%s", where, k);
			ok = ok && subset_equal(v, json_object_get(got, k), sub);
		}
		return ok;
	}
	if (json_is_array(want)) {
		size_t i;
		json_t *v;
		bool ok = json_is_array(got) && json_array_size(got) == json_array_size(want);
		json_array_foreach(want, i, v) {
			snprintf(sub, sizeof(sub), "%s[%zu]", where, i);
			ok = ok && subset_equal(v, json_array_get(got, i), sub);
		}
		if (!ok)
			print_error("  %s differs\n", where);
		return ok;
	}
	if (!json_equal(want, got)) {
		char *w = json_dumps(want, JSON_ENCODE_ANY), *g = got ? json_dumps(got, JSON_ENCODE_ANY) : NULL;
		print_error("  %s: want %s, got %s\n", where, w, g ? g : "(nothing)");
		free(w);
		free(g);
		return false;
	}
	return true;
}

/* ---- the data-driven suites ---- */

static int
not_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Loads DIR/NAME/pitboss.json from inside DIR/NAME; err as config_load fills it. */
static struct config *
load_case(const char *dir, const char *name, struct pb_error *err)
{
	char path[1024], cwd[4096];
	struct config *cfg;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (getcwd(cwd, sizeof(cwd)) == NULL || chdir(path) != 0)
		fail_msg("cannot enter %s", path);
	pb_error_clear(err);
	cfg = config_load("pitboss.json", err);
	if (chdir(cwd) != 0)
		fail_msg("cannot return to %s", cwd);
	return cfg;
}

/* A valid case: read, and equal to its expected.json where there is one; returns the failures. */
static int
check_valid_case(const char *name, int *compared)
{
	char path[1024];
	struct pb_error err;
	struct config *cfg = load_case(DATA_DIR "/valid", name, &err);
	json_t *want, *got;
	json_error_t jerr;
	int failures = 0;

	if (cfg == NULL) {
		print_error("valid/%s: refused: %s\n", name, err.message);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/valid/%s/expected.json", DATA_DIR, name);
	want = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (want != NULL) {
		(*compared)++;
		got = dump_config(cfg);
		if (!subset_equal(want, got, name)) {
			print_error("valid/%s: what was read differs from expected.json\n", name);
			failures++;
		}
		json_decref(got);
		json_decref(want);
	}
	config_free(cfg);
	return failures;
}

static void
test_valid_cases(void **state)
{
	struct dirent **names = NULL;
	int n, failures = 0, compared = 0;

	(void)state;
	n = scandir(DATA_DIR "/valid", &names, not_dot, alphasort);
	if (n < 0)
		fail_msg("cannot read %s", DATA_DIR "/valid");
	for (int i = 0; i < n; i++) {
		failures += check_valid_case(names[i]->d_name, &compared);
		free(names[i]);
	}
	free(names);
	print_message("valid configurations: %d, with expected.json: %d\n", n, compared);
	assert_int_equal(failures, 0);
	assert_true(n >= 8);
	assert_true(compared >= 8);
}

/* An invalid case: refused with 400 and exactly its message; returns the failures. */
static int
check_invalid_case(const char *name)
{
	char path[1024], want[PB_ERROR_MESSAGE_MAX + 64];
	struct pb_error err;
	struct config *cfg = load_case(DATA_DIR "/invalid", name, &err);
	char *text;
	int failures = 0;

	snprintf(path, sizeof(path), "%s/invalid/%s/error", DATA_DIR, name);
	text = read_text(path);
	if (text == NULL) {
		print_error("invalid/%s: no error file\n", name);
		failures++;
	} else if (cfg != NULL) {
		print_error("invalid/%s: accepted\n", name);
		failures++;
	} else {
		snprintf(want, sizeof(want), "pitboss.json: %s", text);
		if (err.status != 400 || strcmp(err.message, want) != 0) {
			print_error("invalid/%s:\n  want 400 %s\n  got  %d %s\n", name, want, err.status, err.message);
			failures++;
		}
	}
	free(text);
	config_free(cfg);
	return failures;
}

static void
test_invalid_cases(void **state)
{
	struct dirent **names = NULL;
	int n, failures = 0;

	(void)state;
	n = scandir(DATA_DIR "/invalid", &names, not_dot, alphasort);
	if (n < 0)
		fail_msg("cannot read %s", DATA_DIR "/invalid");
	for (int i = 0; i < n; i++) {
		failures += check_invalid_case(names[i]->d_name);
		free(names[i]);
	}
	free(names);
	print_message("invalid configurations: %d\n", n);
	assert_int_equal(failures, 0);
	assert_true(n >= 40);
}

/* ---- the key tables against docs/operations.md ---- */

/* A row of the reference: "| `NAME` | DEFAULT | SIGHUP | MEANING |". */
struct doc_row {
	char name[96];
	char def[256];
	char sighup[32];
	bool used;
};

struct doc {
	struct doc_row rows[128];
	size_t count;
};

/* Copies a table cell (between two '|') without its surrounding spaces; the end of the cell, or NULL. */
static const char *
cell(const char *p, char *out, size_t outsz)
{
	const char *end = strchr(p, '|');
	size_t len;

	if (end == NULL)
		return NULL;
	while (*p == ' ')
		p++;
	len = (size_t)(end - p);
	while (len > 0 && p[len - 1] == ' ')
		len--;
	snprintf(out, outsz, "%.*s", (int)len, p);
	return end + 1;
}

/* The rows of the "## Configuration reference" part whose first cell is one `name`. */
static void
read_doc(struct doc *d)
{
	char *text = read_text(DOC_PATH), *line, *save = NULL;
	bool in = false;

	if (text == NULL)
		fail_msg("cannot read %s", DOC_PATH);
	d->count = 0;
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char first[128];
		const char *p;
		struct doc_row *r = &d->rows[d->count];

		if (strncmp(line, "## ", 3) == 0)
			in = strcmp(line, "## Configuration reference") == 0;
		if (!in || strncmp(line, "| `", 3) != 0 || d->count == 128)
			continue;
		p = cell(line + 1, first, sizeof(first));
		if (first[strlen(first) - 1] != '`' || strchr(first + 1, '`') != first + strlen(first) - 1)
			continue;
		snprintf(r->name, sizeof(r->name), "%.*s", (int)strlen(first) - 2, first + 1);
		p = p ? cell(p, r->def, sizeof(r->def)) : NULL;
		p = p ? cell(p, r->sighup, sizeof(r->sighup)) : NULL;
		if (p != NULL)
			d->count++;
	}
	free(text);
}

/* Checks each key of s (its place prefix + name) against the rows; returns the failures. */
static int
check_doc_section(struct doc *d, const struct cfg_section *s, const char *prefix)
{
	int failures = 0;

	for (size_t i = 0; i < s->count; i++) {
		const struct cfg_key *k = &s->keys[i];
		char name[96], want_def[128];
		struct doc_row *r = NULL;

		snprintf(name, sizeof(name), "%s%s", prefix, k->name);
		if (k->type == CFG_SECTION) {
			snprintf(name, sizeof(name), "%s%s.", prefix, k->name);
			failures += check_doc_section(d, k->section, name);
			continue;
		}
		for (size_t j = 0; j < d->count && r == NULL; j++)
			if (strcmp(d->rows[j].name, name) == 0)
				r = &d->rows[j];
		if (r == NULL) {
			print_error("docs/operations.md: no row for `%s`\n", name);
			failures++;
			continue;
		}
		r->used = true;
		snprintf(want_def, sizeof(want_def), "`%s`", k->def ? k->def : "");
		if (k->def != NULL && strstr(r->def, want_def) == NULL) {
			print_error("docs/operations.md: `%s`: the default is %s, the doc says %s\n", name, want_def, r->def);
			failures++;
		}
		if (strcmp(r->sighup, k->reload ? "yes" : "restart") != 0) {
			print_error("docs/operations.md: `%s`: SIGHUP %s, the doc says %s\n", name, k->reload ? "yes" : "restart",
			    r->sighup);
			failures++;
		}
		if (k->describe == NULL || k->describe[0] == '\0') {
			print_error("`%s` has no description in its key table\n", name);
			failures++;
		}
	}
	return failures;
}

static void
test_every_key_documented(void **state)
{
	static struct doc d;
	int failures = 0;

	(void)state;
	memset(&d, 0, sizeof(d));
	read_doc(&d);
	failures += check_doc_section(&d, &config_settings, "");
	failures += check_doc_section(&d, &config_table_entry, "tables[].");
	failures += check_doc_section(&d, &config_banker_entry, "tables[].banker.");
	failures += check_doc_section(&d, &config_token_entry, "tokens[].");
	for (size_t j = 0; j < d.count; j++) {
		if (!d.rows[j].used) {
			print_error("docs/operations.md: `%s` is not a key of the configuration\n", d.rows[j].name);
			failures++;
		}
	}
	print_message("documented keys: %zu\n", d.count);
	assert_int_equal(failures, 0);
	assert_true(d.count >= 40);
}

/* ---- the key tables themselves, the listen parser, the lookups ---- */

/* Names unique within a section, bounds in order, required keys marked as such. */
static void
check_section_shape(const struct cfg_section *s)
{
	for (size_t i = 0; i < s->count; i++) {
		const struct cfg_key *k = &s->keys[i];
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(s->keys[j].name, k->name);
		if (k->type == CFG_INT)
			assert_true(k->min <= k->max);
		if (k->type == CFG_WORD || k->type == CFG_CHOICE)
			assert_non_null(k->choices);
		if (k->type == CFG_CUSTOM)
			assert_non_null(k->read);
		if (k->type == CFG_SECTION)
			check_section_shape(k->section);
	}
	assert_true(s->count <= 64);
}

static void
test_key_tables(void **state)
{
	(void)state;
	check_section_shape(&config_settings);
	check_section_shape(&config_table_entry);
	check_section_shape(&config_banker_entry);
	check_section_shape(&config_token_entry);
	assert_non_null(cfg_find_key(&config_settings, "threads"));
	assert_null(cfg_find_key(&config_settings, "colour"));
}

static void
test_parse_listen(void **state)
{
	char host[64];
	int port = -1;

	(void)state;
	assert_int_equal(config_parse_listen("127.0.0.1:8080", host, sizeof(host), &port), 0);
	assert_string_equal(host, "127.0.0.1");
	assert_int_equal(port, 8080);
	assert_int_equal(config_parse_listen("[::1]:0", host, sizeof(host), &port), 0);
	assert_string_equal(host, "::1");
	assert_int_equal(port, 0);
	assert_int_equal(config_parse_listen("localhost:65535", host, sizeof(host), &port), 0);
	assert_int_equal(config_parse_listen("localhost:65536", host, sizeof(host), &port), -1);
	assert_int_equal(config_parse_listen("localhost:", host, sizeof(host), &port), -1);
	assert_int_equal(config_parse_listen(":80", host, sizeof(host), &port), -1);
	assert_int_equal(config_parse_listen("nonsense", host, sizeof(host), &port), -1);
	assert_int_equal(config_parse_listen("host:8o", host, sizeof(host), &port), -1);
	assert_int_equal(config_parse_listen("abcdefgh:1", host, 8, &port), -1);   /* the host does not fit */
}

static void
test_lookups(void **state)
{
	struct pb_error err;
	struct config *cfg = config_load(PB_SOURCE_DIR "/config/pitboss.json", &err);
	const struct token_config *t;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(config_table(cfg, "P1"));
	assert_true(config_table(cfg, "P1")->player_banked);
	assert_null(config_table(cfg, "P9"));
	t = config_token_by_secret(cfg, "demo-auditor", strlen("demo-auditor"));
	assert_non_null(t);
	assert_string_equal(role_name(t->role), "auditor");
	assert_true(token_allows_table(t, "T1"));
	assert_null(config_token_by_secret(cfg, "demo-auditor ", strlen("demo-auditor ")));
	assert_true(config_has_demo_tokens(cfg));
	assert_string_equal(role_name((enum role)7), "surveillance");
	assert_string_equal(role_name(ROLE_KINDS), "unknown");
	assert_int_equal(role_from_name("floor"), ROLE_FLOOR);
	assert_int_equal(role_from_name("boss"), -1);
	assert_true(pb_valid_id("A.b_c-9"));
	assert_false(pb_valid_id(""));
	assert_false(pb_valid_id("a/b"));
	assert_false(pb_valid_id("123456789012345678901234567890123"));
	config_free(cfg);
	assert_null(config_load(PB_SOURCE_DIR "/config/no-such-file.json", &err));
	assert_string_equal(err.message, PB_SOURCE_DIR "/config/no-such-file.json: cannot open the configuration file");
}

/* test_config --dump FILE: what FILE reads as, in the shape of expected.json. */
static int
dump_file(const char *path)
{
	struct pb_error err;
	struct config *cfg = config_load(path, &err);
	json_t *j;

	if (cfg == NULL) {
		fprintf(stderr, "%d %s %s\n", err.status, err.code, err.message);
		return 1;
	}
	j = dump_config(cfg);
	json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(j);
	config_free(cfg);
	return 0;
}

/* trusted_proxies: which peers are believed, by address and network, IPv4 in IPv6 included. */
static void
test_trusted_proxy_match(void **state)
{
	static const char *const NETS[] = {"127.0.0.1", "10.0.0.0/8", "192.168.4.0/23", "fd00::/8", "2001:db8::7/128"};
	struct config *c = calloc(1, sizeof(*c));

	(void)state;
	assert_non_null(c);
	assert_false(config_trusted_proxy(c, "127.0.0.1"));     /* none by default */
	for (size_t i = 0; i < sizeof(NETS) / sizeof(NETS[0]); i++)
		assert_int_equal(config_parse_cidr(NETS[i], &c->trusted_proxies[c->trusted_proxy_count++]), 0);
	assert_true(config_trusted_proxy(c, "127.0.0.1"));
	assert_false(config_trusted_proxy(c, "127.0.0.2"));
	assert_true(config_trusted_proxy(c, "10.255.1.2"));
	assert_false(config_trusted_proxy(c, "11.0.0.1"));
	assert_true(config_trusted_proxy(c, "192.168.5.255"));
	assert_false(config_trusted_proxy(c, "192.168.6.0"));
	assert_true(config_trusted_proxy(c, "::ffff:10.1.2.3"));
	assert_true(config_trusted_proxy(c, "fdab::1"));
	assert_false(config_trusted_proxy(c, "fe80::1"));
	assert_true(config_trusted_proxy(c, "2001:db8::7"));
	assert_false(config_trusted_proxy(c, "2001:db8::8"));
	assert_false(config_trusted_proxy(c, "10.0.0.0/8"));     /* a network is no client address */
	assert_false(config_trusted_proxy(c, "unknown"));
	assert_int_equal(config_parse_cidr("10.0.0.0/", &c->trusted_proxies[0]), -1);
	assert_int_equal(config_parse_cidr("10.0.0.0/x", &c->trusted_proxies[0]), -1);
	assert_int_equal(config_parse_cidr("::/129", &c->trusted_proxies[0]), -1);
	free(c);
}

/*
 * players.comp_share as read: parts per million, exactly.  The default (0.3)
 * from the example configuration; the other values written into a copy of a
 * small configuration in a temporary directory.
 */
static void
test_comp_share_exact(void **state)
{
	static const struct {
		const char *text;
		int64_t ppm;
	} CASES[] = {{"0.123456", 123456}, {"1", 1000000}, {"0", 0}, {"0.000001", 1}, {"0.999999", 999999}, {"1.0", 1000000}};
	char *base = read_text(DATA_DIR "/invalid/players_comp_share_above_one/pitboss.json"), dir[] = "/tmp/pb_comp_XXXXXX";
	char path[64], *at;
	struct pb_error err;
	struct config *cfg = config_load(PB_SOURCE_DIR "/config/pitboss.json", &err);

	(void)state;
	assert_non_null(cfg);
	assert_int_equal(cfg->players.comp_share_ppm, 300000);
	config_free(cfg);
	assert_non_null(base);
	assert_non_null(at = strstr(base, "\"comp_share\": 1.5"));
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/pitboss.json", dir);
	for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "%.*s\"comp_share\": %s%s\n", (int)(at - base), base, CASES[i].text, at + strlen("\"comp_share\": 1.5"));
		fclose(f);
		cfg = config_load(path, &err);
		if (cfg == NULL)
			fail_msg("comp_share %s: %s", CASES[i].text, err.message);
		assert_int_equal(cfg->players.comp_share_ppm, CASES[i].ppm);
		config_free(cfg);
	}
	unlink(path);
	rmdir(dir);
	free(base);
}

/* Without web_root a binary of the build tree serves the source tree's page (an installed one, its own: package test). */
static void
test_default_web_root(void **state)
{
	char def[4096];

	(void)state;
	config_default_web_root(def, sizeof(def));
	assert_string_equal(def, PB_SOURCE_DIR "/web");
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_cases),
		cmocka_unit_test(test_invalid_cases),
		cmocka_unit_test(test_every_key_documented),
		cmocka_unit_test(test_key_tables),
		cmocka_unit_test(test_parse_listen),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_default_web_root),
		cmocka_unit_test(test_comp_share_exact),
		cmocka_unit_test(test_trusted_proxy_match),
	};

	if (argc == 3 && strcmp(argv[1], "--dump") == 0)
		return dump_file(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
