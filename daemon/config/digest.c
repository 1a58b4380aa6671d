/*
 * digest.c - what a configuration was made of (config.h "the digest"): the
 * files read, each with the SHA-256 of its bytes, and one hash over them
 * all; a hash of every part (each setting, game, table and token) so that
 * two configurations can say what changed between them.
 *
 * loaded_sha256 is the SHA-256 of the text sha256sum(1) prints for the
 * files, main file first, then the game files in the order the
 * configuration names them: `sha256sum pitboss.json games/a.json ... |
 * sha256sum` gives it (with the paths written as the configuration gives
 * them, resolved from its directory).
 */
#include "config/config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/keys.h"

#define CONFIG_FILE_MAX_BYTES (4 * 1024 * 1024)

/* Appends a part; the array grows by doubling. */
static int
add_part(struct config *cfg, const char *kind, const char *name, const char *sha256, struct pb_error *err)
{
	struct config_part *p;

	if ((cfg->part_count & (cfg->part_count - 1)) == 0) {
		size_t cap = cfg->part_count ? cfg->part_count * 2 : 16;
		struct config_part *np = realloc(cfg->parts, cap * sizeof(*np));
		if (np == NULL)
			return pb_oom(err);
		cfg->parts = np;
	}
	p = &cfg->parts[cfg->part_count++];
	memset(p, 0, sizeof(*p));
	snprintf(p->kind, sizeof(p->kind), "%s", kind);
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->sha256, sizeof(p->sha256), "%s", sha256);
	return 0;
}

/* The SHA-256 of a JSON value's sorted, compact text. */
static void
json_sha256(const json_t *v, char out[PB_SHA256_HEX_LEN])
{
	char *text = json_dumps(v, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);

	pb_sha256_hex(text ? text : "", text ? strlen(text) : 0, out);
	free(text);
}

/* The SHA-256 of a file's bytes (a game file: read once more, right after the games were read from it). */
static int
file_sha256(const char *path, char out[PB_SHA256_HEX_LEN], struct pb_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(CONFIG_FILE_MAX_BYTES + 1);
	size_t n = 0;

	if (f != NULL && buf != NULL)
		n = fread(buf, 1, CONFIG_FILE_MAX_BYTES + 1, f);
	if (f != NULL)
		fclose(f);
	if (f == NULL || buf == NULL || n > CONFIG_FILE_MAX_BYTES) {
		free(buf);
		return pb_fail(err, 400, "invalid_config", "cannot read %s again to hash it", path);
	}
	pb_sha256_hex(buf, n, out);
	free(buf);
	return 0;
}

/* The entries of an array ("tables", "tokens") named by their key ("id", "name"). */
static int
add_entries(struct config *cfg, const char *kind, const json_t *list, const char *key, struct pb_error *err)
{
	size_t i;
	const json_t *e;
	char sha[PB_SHA256_HEX_LEN];

	json_array_foreach(list, i, e) {
		const json_t *name = json_object_get(e, key);
		json_sha256(e, sha);
		if (add_part(cfg, kind, json_is_string(name) ? json_string_value(name) : "?", sha, err) < 0)
			return -1;
	}
	return 0;
}

/* The games: a file's bytes, or an inline rules object's text; each file also as a "file" part. */
static int
add_games(struct config *cfg, const json_t *games, struct pb_error *err)
{
	const char *name;
	const json_t *v;
	char sha[PB_SHA256_HEX_LEN], path[4096 + 256];

	json_object_foreach((json_t *)games, name, v) {
		if (json_is_string(v)) {
			cfg_resolve_path(cfg->dir, json_string_value(v), path, sizeof(path));
			if (file_sha256(path, sha, err) < 0 || add_part(cfg, "file", path, sha, err) < 0)
				return -1;
		} else {
			json_sha256(v, sha);
		}
		if (add_part(cfg, "game", name, sha, err) < 0)
			return -1;
	}
	return 0;
}

int
config_digest(struct config *cfg, const json_t *root, struct pb_error *err)
{
	const char *key;
	const json_t *v;
	char sha[PB_SHA256_HEX_LEN], *text = NULL;
	size_t len = 0;
	FILE *mem;

	if (add_part(cfg, "file", cfg->path, cfg->sha256, err) < 0 ||
	    add_games(cfg, json_object_get(root, "games"), err) < 0 ||
	    add_entries(cfg, "table", json_object_get(root, "tables"), "id", err) < 0 ||
	    add_entries(cfg, "token", json_object_get(root, "tokens"), "name", err) < 0)
		return -1;
	json_object_foreach((json_t *)root, key, v) {
		if (strcmp(key, "games") == 0 || strcmp(key, "tables") == 0 || strcmp(key, "tokens") == 0)
			continue;
		json_sha256(v, sha);
		if (add_part(cfg, "setting", key, sha, err) < 0)
			return -1;
	}
	mem = open_memstream(&text, &len);
	if (mem == NULL)
		return pb_oom(err);
	for (size_t i = 0; i < cfg->part_count; i++)
		if (strcmp(cfg->parts[i].kind, "file") == 0)
			fprintf(mem, "%s  %s\n", cfg->parts[i].sha256, cfg->parts[i].name);
	fclose(mem);
	pb_sha256_hex(text ? text : "", text ? len : 0, cfg->loaded_sha256);
	free(text);
	return 0;
}

/* The part of this kind and name, or NULL. */
static const struct config_part *
find_part(const struct config *cfg, const char *kind, const char *name)
{
	for (size_t i = 0; i < cfg->part_count; i++)
		if (strcmp(cfg->parts[i].kind, kind) == 0 && strcmp(cfg->parts[i].name, name) == 0)
			return &cfg->parts[i];
	return NULL;
}

const char *
config_part_sha256(const struct config *cfg, const char *kind, const char *name)
{
	const struct config_part *p = find_part(cfg, kind, name);

	return p ? p->sha256 : "";
}

/* Adds name to out[plural][what], creating the lists as needed. */
static void
note_change(json_t *out, const char *plural, const char *what, const char *name)
{
	json_t *kind = json_object_get(out, plural), *list;

	if (kind == NULL) {
		kind = json_object();
		json_object_set_new(out, plural, kind);
	}
	list = json_object_get(kind, what);
	if (list == NULL) {
		list = json_array();
		json_object_set_new(kind, what, list);
	}
	json_array_append_new(list, json_string(name));
}

json_t *
config_changes(const struct config *old, const struct config *next)
{
	static const char *const KINDS[][2] = {
		{"file", "files"}, {"setting", "settings"}, {"game", "games"}, {"table", "tables"}, {"token", "tokens"},
	};
	json_t *out = json_object();

	for (size_t k = 0; k < sizeof(KINDS) / sizeof(KINDS[0]); k++) {
		for (size_t i = 0; i < next->part_count; i++) {
			const struct config_part *n = &next->parts[i], *o;
			if (strcmp(n->kind, KINDS[k][0]) != 0)
				continue;
			o = find_part(old, n->kind, n->name);
			if (o == NULL)
				note_change(out, KINDS[k][1], "added", n->name);
			else if (strcmp(o->sha256, n->sha256) != 0)
				note_change(out, KINDS[k][1], "changed", n->name);
		}
		for (size_t i = 0; i < old->part_count; i++)
			if (strcmp(old->parts[i].kind, KINDS[k][0]) == 0 && find_part(next, old->parts[i].kind, old->parts[i].name) == NULL)
				note_change(out, KINDS[k][1], "removed", old->parts[i].name);
	}
	return out;
}

json_t *
config_files_json(const struct config *cfg)
{
	json_t *files = json_array();

	for (size_t i = 0; i < cfg->part_count; i++)
		if (strcmp(cfg->parts[i].kind, "file") == 0)
			json_array_append_new(files, json_pack("{s:s,s:s}", "path", cfg->parts[i].name, "sha256",
			    cfg->parts[i].sha256));
	return files;
}
