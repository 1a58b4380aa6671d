/*
 * rules_store.c - stored copies of the rules in force, one row per distinct
 * canonical rules object, so each round points at exactly what it was dealt under.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"

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
	struct store_query q;
	int rc = -1;

	if (store_rules_cached(s, r, id))
		return 0;
	j = rules_to_json(r);
	text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(j);
	if (text == NULL)
		return pb_fail(err, 500, "internal_error", "cannot encode the rules");
	pb_sha256_hex(text, strlen(text), hash);
	if (store_query(&q, s, STMT_RULES_INSERT, "storing the rules", err) < 0)
		goto out;
	sqlite3_bind_text(q.st, 1, hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, text, -1, SQLITE_STATIC);
	if (store_query_done(&q) < 0)
		goto out;
	if (store_query(&q, s, STMT_RULES_ID, "reading the rules id", err) < 0)
		goto out;
	sqlite3_bind_text(q.st, 1, hash, -1, SQLITE_STATIC);
	if (!store_query_next(&q)) {
		store_fail(s, err, q.what);     /* before the reset: its message names the step */
		store_query_end(&q);
		goto out;
	}
	*id = sqlite3_column_int64(q.st, 0);
	store_query_end(&q);
	store_rules_remember(s, r, *id);
	rc = 0;
out:
	free(text);
	return rc;
}
