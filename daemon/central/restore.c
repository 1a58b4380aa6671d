/*
 * restore.c - `pitboss central restore`: a property's database rebuilt
 * from the central copy (docs/central.md, "Restore").  The events are read
 * in chain order through a cursor, in one read-only snapshot, each link and
 * hash checked, and inserted as they are (same table_seq, body and hashes);
 * then the checkpoints; each event of no round is applied to the derived
 * rows by its type's apply; each round is replayed from its events into
 * its derived rows (restore_rounds.c).  Written as path.partial-PID, renamed at the end; an
 * existing path is never touched.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "central/central_int.h"

#define FETCH_EVENTS "FETCH 2000 FROM pitboss_restore"

static const char GENESIS[] = "0000000000000000000000000000000000000000000000000000000000000000";

static const char EVENTS[] =
    "DECLARE pitboss_restore NO SCROLL CURSOR FOR SELECT table_id, table_seq, round_id, type, at, actor, body, "
    "prev_hash, hash FROM pitboss.events WHERE property = $1 ORDER BY table_id, table_seq";
static const char COUNT_EVENTS[] = "SELECT count(*) FROM pitboss.events WHERE property = $1";
static const char CHECKPOINTS[] =
    "SELECT local_id, table_id, table_seq, head_hash, at, public_key, signature FROM pitboss.checkpoints "
    "WHERE property = $1 ORDER BY local_id";

struct walk {
	struct store *s;
	char table[PB_ID_MAX];
	int64_t seq, last_round;
	char hash[PB_SHA256_HEX_LEN];
	int64_t *rounds;             /* the round ids met, in each table's order */
	int64_t nrounds, cap;
	int64_t events;
	struct central_progress *progress;   /* or NULL */
};

static int
remember_round(struct walk *w, int64_t id, struct pb_error *err)
{
	if (id <= w->last_round)
		return 0;
	w->last_round = id;
	if (w->nrounds == w->cap) {
		int64_t cap = w->cap ? w->cap * 2 : 1024, *r = realloc(w->rounds, (size_t)cap * sizeof(*r));
		if (r == NULL)
			return pb_oom(err);
		w->rounds = r;
		w->cap = cap;
	}
	w->rounds[w->nrounds++] = id;
	return 0;
}

/* One row of EVENTS into e (body points into the result). */
static void
event_of_row(PGresult *r, int i, struct stored_event *e)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->table_id, sizeof(e->table_id), "%s", PQgetvalue(r, i, 0));
	e->table_seq = strtoll(PQgetvalue(r, i, 1), NULL, 10);
	e->round_id = PQgetisnull(r, i, 2) ? 0 : strtoll(PQgetvalue(r, i, 2), NULL, 10);
	snprintf(e->type, sizeof(e->type), "%s", PQgetvalue(r, i, 3));
	snprintf(e->at, sizeof(e->at), "%s", PQgetvalue(r, i, 4));
	snprintf(e->actor, sizeof(e->actor), "%s", PQgetvalue(r, i, 5));
	e->body = PQgetvalue(r, i, 6);
	snprintf(e->prev_hash, sizeof(e->prev_hash), "%s", PQgetvalue(r, i, 7));
	snprintf(e->hash, sizeof(e->hash), "%s", PQgetvalue(r, i, 8));
}

/* The event continues its table's chain and its hash is its content's: else the copy is refused. */
static int
check_link(struct walk *w, const struct stored_event *e, struct pb_error *err)
{
	char hash[PB_SHA256_HEX_LEN];

	if (strcmp(e->table_id, w->table) != 0) {
		snprintf(w->table, sizeof(w->table), "%s", e->table_id);
		w->seq = 0;
		w->last_round = 0;
		memcpy(w->hash, GENESIS, sizeof(GENESIS));
	}
	if (e->table_seq != w->seq + 1 || strcmp(e->prev_hash, w->hash) != 0)
		return pb_fail(err, 422, "central_broken", "table %s #%" PRId64 ": the central chain is broken there "
		    "(pitboss central verify names the problem)", e->table_id, e->table_seq);
	store_event_hash_fields(e->prev_hash, e->table_id, e->table_seq, e->round_id, e->type, e->at, e->actor, e->body,
	    strlen(e->body), hash);
	if (strcmp(hash, e->hash) != 0)
		return pb_fail(err, 422, "central_broken", "table %s #%" PRId64 ": its hash does not match its content (altered)",
		    e->table_id, e->table_seq);
	w->seq = e->table_seq;
	snprintf(w->hash, sizeof(w->hash), "%s", e->hash);
	return 0;
}

/* One batch of rows: checked, inserted, and the table events applied, in one transaction of the store's. */
static int
insert_batch(struct walk *w, PGresult *r, struct pb_error *err)
{
	struct stored_event e;
	int64_t round_id;

	if (store_begin(w->s, err) < 0)
		return -1;
	for (int i = 0; i < PQntuples(r); i++) {
		event_of_row(r, i, &e);
		if (check_link(w, &e, err) < 0 || store_event_insert_raw(w->s, &e, err) < 0 ||
		    restore_event(w->s, &e, &round_id, err) < 0 || (round_id > 0 && remember_round(w, round_id, err) < 0)) {
			store_rollback(w->s);
			return -1;
		}
		w->events++;
	}
	central_progress_step(w->progress, w->events);
	return store_commit(w->s, err);
}

static int
copy_events(PGconn *c, struct walk *w, const char *property, struct pb_error *err)
{
	const char *p[1] = {property};
	PGresult *r;
	int n;

	if (w->progress != NULL) {
		if (central_exec(c, COUNT_EVENTS, 1, p, &r, err) < 0)
			return -1;
		w->progress->total = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
		PQclear(r);
	}
	if (central_exec(c, EVENTS, 1, p, NULL, err) < 0)
		return -1;
	do {
		if (central_exec(c, FETCH_EVENTS, 0, NULL, &r, err) < 0)
			return -1;
		n = PQntuples(r);
		if (n > 0 && insert_batch(w, r, err) < 0) {
			PQclear(r);
			return -1;
		}
		PQclear(r);
	} while (n > 0);
	return central_exec(c, "CLOSE pitboss_restore", 0, NULL, NULL, err);
}

static int
copy_checkpoints(PGconn *c, struct store *s, const char *property, int64_t *count, struct pb_error *err)
{
	const char *p[1] = {property};
	PGresult *r;
	int rc = 0;

	if (central_exec(c, CHECKPOINTS, 1, p, &r, err) < 0)
		return -1;
	*count = PQntuples(r);
	if (store_begin(s, err) < 0) {
		PQclear(r);
		return -1;
	}
	for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
		struct checkpoint cp = {0};
		cp.id = strtoll(PQgetvalue(r, i, 0), NULL, 10);
		snprintf(cp.table_id, sizeof(cp.table_id), "%s", PQgetvalue(r, i, 1));
		cp.table_seq = strtoll(PQgetvalue(r, i, 2), NULL, 10);
		snprintf(cp.head_hash, sizeof(cp.head_hash), "%s", PQgetvalue(r, i, 3));
		snprintf(cp.at, sizeof(cp.at), "%s", PQgetvalue(r, i, 4));
		snprintf(cp.public_key, sizeof(cp.public_key), "%s", PQgetvalue(r, i, 5));
		snprintf(cp.signature, sizeof(cp.signature), "%s", PQgetvalue(r, i, 6));
		rc = store_checkpoint_put(s, &cp, err);
	}
	PQclear(r);
	if (rc < 0) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, err);
}

/* Reads the central copy into s: events, then checkpoints, in one snapshot. */
static int
copy_central(const char *conninfo, const char *property, struct walk *w, int64_t *checkpoints, struct pb_error *err)
{
	PGconn *c = central_connect(conninfo, err);
	int rc = -1;

	if (c == NULL)
		return -1;
	if (central_exec(c, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", 0, NULL, NULL, err) < 0 ||
	    copy_events(c, w, property, err) < 0 || copy_checkpoints(c, w->s, property, checkpoints, err) < 0)
		goto out;
	rc = central_exec(c, "COMMIT", 0, NULL, NULL, err);
	if (rc == 0 && w->events == 0)
		rc = pb_fail(err, 404, "property_not_found", "the central copy has no event of property %s", property);
out:
	central_rollback(c);
	PQfinish(c);
	return rc;
}

static int
cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The rounds in id order (the order they were opened in), a few hundred per transaction; the shipping position at the head. */
static int
rebuild(struct walk *w, int64_t checkpoints, struct pb_error *err)
{
	qsort(w->rounds, (size_t)w->nrounds, sizeof(w->rounds[0]), cmp_id);
	for (int64_t i = 0; i < w->nrounds; i += 200) {
		if (store_begin(w->s, err) < 0)
			return -1;
		for (int64_t k = i; k < w->nrounds && k < i + 200; k++)
			if (restore_round(w->s, w->rounds[k], err) < 0) {
				store_rollback(w->s);
				return -1;
			}
		if (store_commit(w->s, err) < 0)
			return -1;
	}
	if (store_begin(w->s, err) < 0)
		return -1;
	if (store_central_position_set(w->s, "events", w->events, err) < 0 ||
	    store_central_position_set(w->s, "checkpoints", checkpoints, err) < 0) {
		store_rollback(w->s);
		return -1;
	}
	return store_commit(w->s, err);
}

/* The closed database left its WAL behind (not folded into the file, which alone is renamed). */
static bool
wal_left(const char *partial)
{
	char wal[4200];
	struct stat st;

	snprintf(wal, sizeof(wal), "%s-wal", partial);
	return stat(wal, &st) == 0 && st.st_size > 0;
}

int
central_restore(const char *conninfo, const char *property, const char *path, int64_t *events, int64_t *rounds,
    struct central_progress *progress, struct pb_error *err)
{
	struct store_options so = {.path = NULL};
	struct walk w;
	struct stat st;
	char partial[4096];
	int64_t checkpoints = 0;
	int rc = -1;

	memset(&w, 0, sizeof(w));
	w.progress = progress;
	*events = *rounds = 0;
	if (lstat(path, &st) == 0 || errno != ENOENT)
		return pb_fail(err, 409, "database_exists", "%s exists: restore writes a new database and never overwrites one", path);
	if ((size_t)snprintf(partial, sizeof(partial), "%s.partial-%ld", path, (long)getpid()) >= sizeof(partial))
		return pb_fail(err, 400, "invalid_path", "the database path is too long");
	if (lstat(partial, &st) == 0)
		return pb_fail(err, 409, "database_exists", "%s exists", partial);
	so.path = partial;
	if ((w.s = store_open(&so, err)) == NULL) {
		store_remove_partial(partial);
		return -1;
	}
	if (copy_central(conninfo, property, &w, &checkpoints, err) == 0 && rebuild(&w, checkpoints, err) == 0)
		rc = 0;
	store_free(w.s);
	if (rc == 0 && wal_left(partial))
		rc = pb_fail(err, 500, "storage_error", "%s-wal was not checkpointed on closing", partial);
	if (rc == 0 && link(partial, path) < 0)   /* link, not rename: a path made meanwhile is not replaced */
		rc = pb_fail(err, 500, "storage_error", "%s: %s", path, strerror(errno));
	store_remove_partial(partial);
	*events = w.events;
	*rounds = w.nrounds;
	free(w.rounds);
	return rc;
}
