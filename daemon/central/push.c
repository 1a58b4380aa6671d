/*
 * push.c - one batch into the central server, in one transaction: each row
 * INSERT ... ON CONFLICT DO NOTHING (PQexecParams, every value bound), so a resend after a lost acknowledgement changes nothing.  A
 * row the central copy holds already is compared by its hash: another hash
 * there means two different records under one property's name, refused.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "central/central_int.h"

static const char EVENT_INSERT[] =
    "INSERT INTO pitboss.events (property, table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash) "
    "VALUES ($1, $2, $3::bigint, $4::bigint, $5, $6, $7, $8, $9, $10) "
    "ON CONFLICT (property, table_id, table_seq) DO NOTHING RETURNING 1";
static const char EVENT_HASH[] =
    "SELECT hash FROM pitboss.events WHERE property = $1 AND table_id = $2 AND table_seq = $3::bigint";
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
push_event(PGconn *c, const char *property, const struct stored_event *e, struct pb_error *err)
{
	char seq[24], rid[24], what[160];
	const char *p[10] = {property, e->table_id, seq, e->round_id > 0 ? rid : NULL, e->type, e->at, e->actor,
	    e->body, e->prev_hash, e->hash};

	snprintf(seq, sizeof(seq), "%" PRId64, e->table_seq);
	snprintf(rid, sizeof(rid), "%" PRId64, e->round_id);
	snprintf(what, sizeof(what), "event %s #%s", e->table_id, seq);
	return insert_row(c, EVENT_INSERT, EVENT_HASH, 10, 3, p, e->hash, what, err);
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
event_item(PGconn *c, const char *property, const void *items, int i, struct pb_error *err)
{
	return push_event(c, property, &((const struct stored_event *)items)[i], err);
}

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

int
central_push_events(PGconn *c, const char *property, const struct event_list *l, struct pb_error *err)
{
	return push_batch(c, property, l->events, l->count, event_item, err);
}

int
central_push_checkpoints(PGconn *c, const char *property, const struct checkpoint *cps, int count,
    struct pb_error *err)
{
	return push_batch(c, property, cps, count, checkpoint_item, err);
}
