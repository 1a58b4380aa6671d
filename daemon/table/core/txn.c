#include "table/core/core.h"

#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "store/audit.h"
#include "store/writer.h"

/*
 * The write inside an open transaction: the stored answer when the
 * Idempotency-Key was seen with this request (*replayed, nothing written),
 * else fn and its answer stored under the key.  On failure *out is NULL and
 * the caller rolls back.
 */
static int
write_in_transaction(struct pit *p, const struct actor *a, const struct idempotency *idem, pit_write_fn fn, void *arg,
    json_t **out, int *status, bool *replayed, struct pb_error *err)
{
	bool found = false;
	char *stored = NULL, *answer = NULL;
	char at[PB_TIME_LEN];

	*out = NULL;
	*replayed = false;
	if (idem != NULL && idem->key != NULL) {
		if (store_idempotency_get(p->store, a->name, idem->key, idem->request_hash, &found, status, &stored, err) < 0)
			return -1;
		if (found) {
			*replayed = true;
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
		answer = json_text(*out, false, NULL);
		pb_time_now(at);
		if (answer == NULL || store_idempotency_put(p->store, a->name, idem->key, idem->request_hash, *status, answer, at, err) < 0)
			goto fail;
		free(answer);
	}
	return 0;
fail:
	free(answer);
	json_decref(*out);
	*out = NULL;
	return -1;
}

/* A write handed to the process's writer (store/writer.h): what write_job runs with. */
struct write_job {
	struct pit pit;             /* the caller's, its store replaced by the writer's */
	const struct actor *actor;
	const struct idempotency *idem;
	pit_write_fn fn;
	void *arg;
	json_t **out;
	int *status;
};

/* Runs one write as a job of a write group, on the writer's connection. */
static int
write_job(struct store *s, void *arg, struct pb_error *err)
{
	struct write_job *j = arg;
	bool replayed;

	j->pit.store = s;
	return write_in_transaction(&j->pit, j->actor, j->idem, j->fn, j->arg, j->out, j->status, &replayed, err);
}

int
pit_write(struct pit *p, const struct actor *a, const struct idempotency *idem, pit_write_fn fn, void *arg,
    json_t **out, int *status, struct pb_error *err)
{
	bool replayed;

	*out = NULL;
	if (p->writer != NULL) {
		struct write_job j = {*p, a, idem, fn, arg, out, status};

		if (store_writer_run(p->writer, write_job, &j, err) == 0)
			return 0;
		/* Refused, or its group did not commit: the answer fn built is not the answer. */
		json_decref(*out);
		*out = NULL;
		return -1;
	}
	if (store_begin(p->store, err) < 0)
		return -1;
	if (write_in_transaction(p, a, idem, fn, arg, out, status, &replayed, err) < 0)
		goto fail;
	if (replayed) {
		store_rollback(p->store);
		return 0;
	}
	if (store_commit(p->store, err) < 0)
		goto fail;
	return 0;
fail:
	store_rollback(p->store);
	json_decref(*out);
	*out = NULL;
	return -1;
}
