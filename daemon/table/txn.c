#include "table/txn.h"

#include <stdlib.h>
#include <string.h>

#include "store/audit.h"

int
pit_write(struct pit *p, const struct actor *a, const struct idempotency *idem, pit_write_fn fn, void *arg,
    json_t **out, int *status, struct pb_error *err)
{
	bool found = false;
	char *stored = NULL, *answer = NULL;
	char at[PB_TIME_LEN];

	*out = NULL;
	if (store_begin(p->store, err) < 0)
		return -1;
	if (idem != NULL && idem->key != NULL) {
		if (store_idempotency_get(p->store, a->name, idem->key, idem->request_hash, &found, status, &stored, err) < 0)
			goto fail;
		if (found) {
			store_rollback(p->store);
			*out = json_loads(stored, 0, NULL);
			free(stored);
			if (*out == NULL)
				return pb_fail(err, 500, "storage_error", "the stored answer for this Idempotency-Key is unreadable");
			return 0;
		}
	}
	if (fn(p, a, arg, out, status, err) < 0)
		goto fail;
	if (idem != NULL && idem->key != NULL) {
		answer = json_dumps(*out, JSON_COMPACT);
		pb_time_now(at);
		if (answer == NULL || store_idempotency_put(p->store, a->name, idem->key, idem->request_hash, *status, answer, at, err) < 0)
			goto fail;
		free(answer);
		answer = NULL;
	}
	if (store_commit(p->store, err) < 0)
		goto fail;
	return 0;
fail:
	free(answer);
	store_rollback(p->store);
	json_decref(*out);
	*out = NULL;
	return -1;
}

/* A table whose record failed its integrity check takes no writes until a pit boss acknowledges it. */
int
pit_check_hold(struct pit *p, const char *table_id, struct pb_error *err)
{
	char reason[300];
	bool held;

	if (store_table_hold_get(p->store, table_id, reason, sizeof(reason), &held, err) < 0)
		return -1;
	if (held)
		return pb_fail(err, 409, "integrity_hold",
		    "table %s is on hold: %s; a pit boss must look into it and acknowledge it (POST /api/v1/tables/%s/acknowledge)",
		    table_id, reason, table_id);
	return 0;
}

