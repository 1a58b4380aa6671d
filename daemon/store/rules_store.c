/*
 * rules_store.c - stored copies of the rules in force, one row per distinct
 * canonical rules object, so each round points at exactly what it was dealt under.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

/*
 * The id of the stored copy of r, inserting it when new.  Every round asks
 * with the rules of its table, so the answer is cached per connection,
 * keyed by the rules struct itself (store_rules_cached): the canonical
 * JSON, its hash and both statements run once per distinct rules.
 */
int
store_rules_id(struct store *s, const struct rules *r, int64_t *id, struct pb_error *err)
{
	json_t *j;
	char *text;
	char hash[PB_SHA256_HEX_LEN];
	sqlite3_stmt *st;
	int rc = -1;

	if (store_rules_cached(s, r, id))
		return 0;
	j = rules_to_json(r);
	text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(j);
	if (text == NULL)
		return pb_fail(err, 500, "internal_error", "cannot encode the rules");
	pb_sha256_hex(text, strlen(text), hash);
	st = store_stmt(s, "INSERT INTO rules_sets (sha256, rules_json) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING", err);
	if (st == NULL)
		goto out;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		store_fail(s, err, "storing the rules");
		sqlite3_reset(st);
		goto out;
	}
	sqlite3_reset(st);
	st = store_stmt(s, "SELECT id FROM rules_sets WHERE sha256 = ?", err);
	if (st == NULL)
		goto out;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW) {
		store_fail(s, err, "reading the rules id");
		sqlite3_reset(st);
		goto out;
	}
	*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	store_rules_remember(s, r, *id);
	rc = 0;
out:
	free(text);
	return rc;
}
