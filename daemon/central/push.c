/*
 * push.c - one batch into the central server, in one transaction, every
 * value bound (events: one statement over arrays; checkpoints: a row at a
 * time): INSERT ... ON CONFLICT DO NOTHING, so a resend after a lost
 * acknowledgement changes nothing.  A row the central copy holds already is
 * compared by its hash (a checkpoint by its signature): another one there
 * means two different records under one property's name, refused.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "central/central_int.h"

/*
 * A whole batch of events in one statement: the rows unnested from one array
 * per column, inserted unless there (ON CONFLICT DO NOTHING), and in the
 * same statement (which sees the table as it was before it) any row the
 * central copy already held under the same key with another hash.
 */
static const char EVENTS_INSERT[] =
    "WITH b AS (SELECT * FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[], "
    "$8::text[], $9::text[], $10::text[]) AS u(table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash)), "
    "ins AS (INSERT INTO pitboss.events (property, table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash) "
    "SELECT $1, table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash FROM b "
    "ON CONFLICT (property, table_id, table_seq) DO NOTHING RETURNING 1) "
    "SELECT b.table_id, b.table_seq FROM b JOIN pitboss.events e ON e.property = $1 AND e.table_id = b.table_id "
    "AND e.table_seq = b.table_seq WHERE e.hash <> b.hash LIMIT 1";
static const char CHECKPOINT_INSERT[] =
    "INSERT INTO pitboss.checkpoints (property, local_id, table_id, table_seq, head_hash, at, public_key, signature) "
    "VALUES ($1, $2::bigint, $3, $4::bigint, $5, $6, $7, $8) ON CONFLICT (property, local_id) DO NOTHING RETURNING 1";
static const char CHECKPOINT_SIGNATURE[] =
    "SELECT signature FROM pitboss.checkpoints WHERE property = $1 AND local_id = $2::bigint";

/*
 * Inserts one row (n parameters p); when it was there already, looks it up by
 * the first lookup_n of them and checks that want (its hash or signature) is there.
 */
static int
insert_row(PGconn *c, const char *insert, const char *lookup, int n, int lookup_n, const char *const *p, const char *want,
    const char *what, struct pb_error *err)
{
	PGresult *r;
	int inserted;

	if (central_exec(c, insert, n, p, &r, err) < 0)
		return -1;
	inserted = PQntuples(r);
	PQclear(r);
	if (inserted == 1)
		return 0;
	if (central_exec(c, lookup, lookup_n, p, &r, err) < 0)
		return -1;
	if (PQntuples(r) != 1 || strcmp(PQgetvalue(r, 0, 0), want) != 0) {
		PQclear(r);
		return pb_fail(err, 409, "central_conflict", "the central server holds another %s under property %s", what,
		    p[0]);
	}
	PQclear(r);
	return 0;
}

static int
push_checkpoint(PGconn *c, const char *property, const struct checkpoint *k, struct pb_error *err)
{
	char id[24], seq[24], what[64];
	const char *p[8] = {property, id, k->table_id, seq, k->head_hash, k->at, k->public_key, k->signature};

	snprintf(id, sizeof(id), "%" PRId64, k->id);
	snprintf(seq, sizeof(seq), "%" PRId64, k->table_seq);
	snprintf(what, sizeof(what), "checkpoint %s", id);
	return insert_row(c, CHECKPOINT_INSERT, CHECKPOINT_SIGNATURE, 8, 2, p, k->signature, what, err);
}

/* Pushes item i of a batch (an event or a checkpoint). */
typedef int (*push_item_fn)(PGconn *c, const char *property, const void *items, int i, struct pb_error *err);

static int
checkpoint_item(PGconn *c, const char *property, const void *items, int i, struct pb_error *err)
{
	return push_checkpoint(c, property, &((const struct checkpoint *)items)[i], err);
}

/* A batch in one PostgreSQL transaction: all of it is in once COMMIT has returned, or none of it. */
static int
push_batch(PGconn *c, const char *property, const void *items, int count, push_item_fn push, struct pb_error *err)
{
	if (central_exec(c, "BEGIN", 0, NULL, NULL, err) < 0)
		return -1;
	for (int i = 0; i < count; i++)
		if (push(c, property, items, i, err) < 0)
			goto fail;
	if (central_exec(c, "COMMIT", 0, NULL, NULL, err) < 0)
		goto fail;
	return 0;
fail:
	central_rollback(c);
	return -1;
}

/* The batch's columns as array literals, in EVENTS_INSERT's order ($2..$10). */
static int
event_columns(const struct event_list *l, struct pg_array cols[9], const char *p[10], struct pb_error *err)
{
	for (int i = 0; i < l->count; i++) {
		const struct stored_event *e = &l->events[i];
		pg_array_text(&cols[0], e->table_id);
		pg_array_int64(&cols[1], e->table_seq);
		if (e->round_id > 0)
			pg_array_int64(&cols[2], e->round_id);
		else
			pg_array_text(&cols[2], NULL);
		pg_array_text(&cols[3], e->type);
		pg_array_text(&cols[4], e->at);
		pg_array_text(&cols[5], e->actor);
		pg_array_text(&cols[6], e->body);
		pg_array_text(&cols[7], e->prev_hash);
		pg_array_text(&cols[8], e->hash);
	}
	for (int k = 0; k < 9; k++)
		if ((p[k + 1] = pg_array_end(&cols[k])) == NULL)
			return pb_oom(err);
	return 0;
}

int
central_push_events(PGconn *c, const char *property, const struct event_list *l, struct pb_error *err)
{
	struct pg_array cols[9];
	const char *p[10] = {property};
	PGresult *r = NULL;
	int rc = -1;

	memset(cols, 0, sizeof(cols));
	if (event_columns(l, cols, p, err) < 0)
		goto out;
	if (central_exec(c, "BEGIN", 0, NULL, NULL, err) < 0)
		goto out;
	if (central_exec(c, EVENTS_INSERT, 10, p, &r, err) < 0)
		goto fail;
	if (PQntuples(r) > 0) {
		pb_fail(err, 409, "central_conflict", "the central server holds another event %s #%s under property %s",
		    PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 1), property);
		goto fail;
	}
	if (central_exec(c, "COMMIT", 0, NULL, NULL, err) < 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	central_rollback(c);
out:
	PQclear(r);
	for (int k = 0; k < 9; k++)
		pg_array_free(&cols[k]);
	return rc;
}

int
central_push_checkpoints(PGconn *c, const char *property, const struct checkpoint *cps, int count,
    struct pb_error *err)
{
	return push_batch(c, property, cps, count, checkpoint_item, err);
}
