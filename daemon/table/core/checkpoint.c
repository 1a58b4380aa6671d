/*
 * checkpoint.c - making checkpoints: signing a table's chain head when it
 * moved (after each round's write, and for every table at stop), and the
 * list of them an auditor keeps.  Walking the chains and checking the
 * checkpoints is audit's (audit/chain.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "table/core/signer.h"

int
audit_checkpoint_table(struct pit *p, const char *table_id, struct pb_error *err)
{
	struct checkpoint last, c;
	bool found;

	if (p->signer == NULL)
		return 0;
	memset(&c, 0, sizeof(c));
	if (store_checkpoint_last(p->store, table_id, &last, &found, err) < 0 ||
	    store_chain_head(p->store, table_id, &c.table_seq, c.head_hash, err) < 0)
		return -1;
	if (c.table_seq == 0 || (found && last.table_seq == c.table_seq))
		return 0;
	snprintf(c.table_id, sizeof(c.table_id), "%s", table_id);
	pb_time_now(c.at);
	signer_sign_checkpoint(p->signer, &c);
	return store_checkpoint_put(p->store, &c, err);
}

int
audit_checkpoint_all(struct pit *p, struct pb_error *err)
{
	char (*ids)[PB_ID_MAX] = calloc(CHAIN_TABLES_MAX, PB_ID_MAX);
	int n = 0, rc = -1;

	if (ids == NULL)
		return pb_oom(err);
	if (store_begin(p->store, err) < 0)
		goto out;
	if (store_event_tables(p->store, ids, CHAIN_TABLES_MAX, &n, err) < 0)
		goto rollback;
	for (int i = 0; i < n; i++)
		if (audit_checkpoint_table(p, ids[i], err) < 0)
			goto rollback;
	rc = store_commit(p->store, err);
	goto out;
rollback:
	store_rollback(p->store);
out:
	free(ids);
	return rc;
}

int
pit_checkpoints(struct pit *p, const struct actor *a, const char *table_id, int64_t after, int limit, json_t **out,
    struct pb_error *err)
{
	struct checkpoint *cps;
	int n = 0;
	json_t *arr;

	(void)a;
	if (limit < 1 || limit > 1000)
		return pb_fail(err, 400, "invalid_query", "limit: must be 1..1000");
	cps = calloc((size_t)limit, sizeof(*cps));
	if (cps == NULL)
		return pb_oom(err);
	if (store_checkpoints(p->store, table_id, after, limit, cps, &n, err) < 0) {
		free(cps);
		return -1;
	}
	/* An auditor keeps these copies: a list short of one would look whole, so it is all or nothing. */
	arr = json_array();
	for (int i = 0; arr != NULL && i < n; i++) {
		if (json_array_append_new(arr, json_pack("{s:I,s:s,s:I,s:s,s:s,s:s,s:s}", "id", (json_int_t)cps[i].id,
		    "table", cps[i].table_id, "table_seq", (json_int_t)cps[i].table_seq, "head_hash", cps[i].head_hash,
		    "at", cps[i].at, "public_key", cps[i].public_key, "signature", cps[i].signature)) < 0) {
			json_decref(arr);
			arr = NULL;
		}
	}
	free(cps);
	*out = arr == NULL ? NULL : json_pack("{s:o,s:s,s:o}", "public_key", p->signer ? json_string(p->signer->public_hex) :
	    json_null(), "message_format", "pitboss-checkpoint-v1\\n{table}\\n{table_seq}\\n{head_hash}\\n{at}", "checkpoints", arr);
	return *out != NULL ? 0 : pb_oom(err);
}
