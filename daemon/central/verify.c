/*
 * verify.c - `pitboss central verify`: the central copy checked as the
 * property's own verify checks its file (docs/audit.md): per (property,
 * table) the chain starts at 1 with the genesis prev_hash and has no gap,
 * each prev_hash is the previous hash, each hash is recomputed from the
 * canonical form (store/chain.c); each checkpoint's signature verifies
 * (table/core/signer.c), its head is the central chain's hash at its seq, and a
 * property's checkpoints carry one key; each report row is the sum of its
 * rounds' facts, and no fact names a round the copy never saw finish.
 * Read through a cursor, in one
 * read-only transaction: one consistent snapshot, memory bounded.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "central/central_int.h"
#include "table/core/core.h"

#define FETCH "FETCH 5000 FROM pitboss_verify"

static const char GENESIS[] = "0000000000000000000000000000000000000000000000000000000000000000";

struct chain_pos {
	char property[PB_ID_MAX];
	char table_id[PB_ID_MAX];
	int64_t seq;
	char hash[PB_SHA256_HEX_LEN];
};

struct tally {
	FILE *out;
	int64_t events, problems;
	struct central_progress *progress;   /* or NULL */
};

static void
problem(struct tally *t, const char *property, const char *table_id, const char *seq, const char *what)
{
	fprintf(t->out, "property %s table %s #%s: %s\n", property, table_id, seq, what);
	t->problems++;
}

/* One event row (columns as in EVENTS below) against the chain so far. */
static void
check_event(struct tally *t, PGresult *r, int i, struct chain_pos *c)
{
	const char *prop = PQgetvalue(r, i, 0), *table = PQgetvalue(r, i, 1), *seqtext = PQgetvalue(r, i, 2);
	int64_t seq = strtoll(seqtext, NULL, 10);
	int64_t round_id = PQgetisnull(r, i, 3) ? 0 : strtoll(PQgetvalue(r, i, 3), NULL, 10);
	char hash[PB_SHA256_HEX_LEN], msg[200];

	if (strcmp(prop, c->property) != 0 || strcmp(table, c->table_id) != 0) {
		snprintf(c->property, sizeof(c->property), "%s", prop);
		snprintf(c->table_id, sizeof(c->table_id), "%s", table);
		c->seq = 0;
		memcpy(c->hash, GENESIS, sizeof(GENESIS));
	}
	if (seq != c->seq + 1) {
		snprintf(msg, sizeof(msg), "gap: the chain goes from #%" PRId64 " to #%" PRId64, c->seq, seq);
		problem(t, prop, table, seqtext, msg);
	} else if (strcmp(PQgetvalue(r, i, 8), c->hash) != 0) {
		problem(t, prop, table, seqtext, "prev_hash is not the previous event's hash");
	}
	store_event_hash_fields(PQgetvalue(r, i, 8), table, seq, round_id, PQgetvalue(r, i, 4), PQgetvalue(r, i, 5),
	    PQgetvalue(r, i, 6), PQgetvalue(r, i, 7), strlen(PQgetvalue(r, i, 7)), hash);
	if (strcmp(hash, PQgetvalue(r, i, 9)) != 0)
		problem(t, prop, table, seqtext, "its hash does not match its content (altered)");
	c->seq = seq;
	snprintf(c->hash, sizeof(c->hash), "%s", PQgetvalue(r, i, 9));
	t->events++;
}

/* Walks a cursor opened on sql, calling each row; in the caller's transaction. */
static int
walk(PGconn *c, const char *sql, const char *property, void (*row)(struct tally *, PGresult *, int, void *), void *arg,
    struct tally *t, struct pb_error *err)
{
	const char *p[1] = {property};
	PGresult *r;
	int n;

	if (central_exec(c, sql, 1, p, NULL, err) < 0)
		return -1;
	do {
		if (central_exec(c, FETCH, 0, NULL, &r, err) < 0)
			return -1;
		n = PQntuples(r);
		for (int i = 0; i < n; i++)
			row(t, r, i, arg);
		PQclear(r);
		central_progress_step(t->progress, t->events);
	} while (n > 0);
	return central_exec(c, "CLOSE pitboss_verify", 0, NULL, NULL, err);
}

/* The events' walk: the chain so far, and the facts check riding along. */
struct event_walk {
	struct chain_pos pos;
	struct facts_walk *facts;
	struct pb_error err;
	bool failed;                     /* the facts check could not go on: err says why */
};

static void
facts_problem(void *arg, const char *property, const char *table_id, const char *seq, const char *what)
{
	problem(arg, property, table_id, seq, what);
}

static void
event_row(struct tally *t, PGresult *r, int i, void *arg)
{
	struct event_walk *w = arg;
	struct stored_event e;

	check_event(t, r, i, &w->pos);
	if (w->failed)
		return;
	memset(&e, 0, sizeof(e));
	snprintf(e.table_id, sizeof(e.table_id), "%s", PQgetvalue(r, i, 1));
	e.table_seq = strtoll(PQgetvalue(r, i, 2), NULL, 10);
	e.round_id = PQgetisnull(r, i, 3) ? 0 : strtoll(PQgetvalue(r, i, 3), NULL, 10);
	snprintf(e.type, sizeof(e.type), "%s", PQgetvalue(r, i, 4));
	snprintf(e.at, sizeof(e.at), "%s", PQgetvalue(r, i, 5));
	snprintf(e.actor, sizeof(e.actor), "%s", PQgetvalue(r, i, 6));
	e.body = PQgetvalue(r, i, 7);
	snprintf(e.prev_hash, sizeof(e.prev_hash), "%s", PQgetvalue(r, i, 8));
	snprintf(e.hash, sizeof(e.hash), "%s", PQgetvalue(r, i, 9));
	if (facts_walk_event(w->facts, PQgetvalue(r, i, 0), &e, facts_problem, t, &w->err) < 0)
		w->failed = true;
}

struct key_seen {
	char property[PB_ID_MAX];
	char key[65];
};

/* One checkpoint row: property, local_id, table_id, table_seq, head_hash, at, public_key, signature, central hash. */
static void
checkpoint_row(struct tally *t, PGresult *r, int i, void *arg)
{
	struct key_seen *k = arg;
	struct checkpoint cp = {0};
	const char *prop = PQgetvalue(r, i, 0), *seq = PQgetvalue(r, i, 3);

	cp.id = strtoll(PQgetvalue(r, i, 1), NULL, 10);
	snprintf(cp.table_id, sizeof(cp.table_id), "%s", PQgetvalue(r, i, 2));
	cp.table_seq = strtoll(seq, NULL, 10);
	snprintf(cp.head_hash, sizeof(cp.head_hash), "%s", PQgetvalue(r, i, 4));
	snprintf(cp.at, sizeof(cp.at), "%s", PQgetvalue(r, i, 5));
	snprintf(cp.public_key, sizeof(cp.public_key), "%s", PQgetvalue(r, i, 6));
	snprintf(cp.signature, sizeof(cp.signature), "%s", PQgetvalue(r, i, 7));
	if (strcmp(k->property, prop) != 0) {
		snprintf(k->property, sizeof(k->property), "%s", prop);
		snprintf(k->key, sizeof(k->key), "%s", cp.public_key);
	}
	if (checkpoint_verify_signature(&cp, NULL) != 0)
		problem(t, prop, cp.table_id, seq, "checkpoint: its signature does not verify");
	else if (strcmp(k->key, cp.public_key) != 0)
		problem(t, prop, cp.table_id, seq, "checkpoint: signed with another key than the property's first");
	if (PQgetisnull(r, i, 8))
		problem(t, prop, cp.table_id, seq, "checkpoint: the central copy has no event at its seq");
	else if (strcmp(PQgetvalue(r, i, 8), cp.head_hash) != 0)
		problem(t, prop, cp.table_id, seq, "checkpoint: its head hash is not the central event's hash");
}

static const char EVENTS[] =
    "DECLARE pitboss_verify NO SCROLL CURSOR FOR SELECT property, table_id, table_seq, round_id, type, at, actor, "
    "body, prev_hash, hash FROM pitboss.events WHERE ($1::text IS NULL OR property = $1) "
    "ORDER BY property, table_id, table_seq";
static const char CHECKPOINTS[] =
    "DECLARE pitboss_verify NO SCROLL CURSOR FOR SELECT c.property, c.local_id, c.table_id, c.table_seq, "
    "c.head_hash, c.at, c.public_key, c.signature, e.hash FROM pitboss.checkpoints c "
    "LEFT JOIN pitboss.events e ON e.property = c.property AND e.table_id = c.table_id AND e.table_seq = c.table_seq "
    "WHERE ($1::text IS NULL OR c.property = $1) ORDER BY c.property, c.local_id";

/*
 * The reports' rows against the facts they sum: each pitboss.report_hours
 * row equal to the sum of its rounds' facts (kept by a trigger, so a
 * difference is an edit made round it), none missing on either side.
 */
static const char REPORT_ROWS[] =
    "DECLARE pitboss_verify NO SCROLL CURSOR FOR WITH s AS (SELECT property, table_id, hour, dealer, rules_sh"
    "a256, count(*) FILTER (WHERE NOT voided) AS rounds, count(*) FILTER (WHERE voided) AS voids, sum(hands):"
    ":bigint AS hands, array[sum(handle[1])::bigint, sum(handle[2])::bigint, sum(handle[3])::bigint, sum(hand"
    "le[4])::bigint, sum(handle[5])::bigint] AS handle, array[sum(house_win[1])::bigint, sum(house_win[2])::b"
    "igint, sum(house_win[3])::bigint, sum(house_win[4])::bigint, sum(house_win[5])::bigint] AS house_win, ar"
    "ray[sum(lines[1])::bigint, sum(lines[2])::bigint, sum(lines[3])::bigint, sum(lines[4])::bigint, sum(line"
    "s[5])::bigint] AS lines, array[sum(banked_handle[1])::bigint, sum(banked_handle[2])::bigint, sum(banked_"
    "handle[3])::bigint, sum(banked_handle[4])::bigint, sum(banked_handle[5])::bigint] AS banked_handle, arra"
    "y[sum(banked_win[1])::bigint, sum(banked_win[2])::bigint, sum(banked_win[3])::bigint, sum(banked_win[4])"
    "::bigint, sum(banked_win[5])::bigint] AS banked_win, array[sum(banked_lines[1])::bigint, sum(banked_line"
    "s[2])::bigint, sum(banked_lines[3])::bigint, sum(banked_lines[4])::bigint, sum(banked_lines[5])::bigint]"
    " AS banked_lines, min(opened_ms) AS first_ms, max(settled_ms) AS last_ms, sum(banked_rounds)::bigint AS "
    "banked_rounds, sum(collections)::bigint AS collections FROM pitboss.round_facts WHERE ($1::text IS NULL "
    "OR property = $1) GROUP BY property, table_id, hour, dealer, rules_sha256), h AS (SELECT * FROM pitboss."
    "report_hours WHERE ($1::text IS NULL OR property = $1)) SELECT property, table_id, hour, dealer FROM s F"
    "ULL JOIN h USING (property, table_id, hour, dealer, rules_sha256) WHERE s.rounds IS DISTINCT FROM h.roun"
    "ds OR s.voids IS DISTINCT FROM h.voids OR s.hands IS DISTINCT FROM h.hands OR s.handle IS DISTINCT FROM "
    "h.handle OR s.house_win IS DISTINCT FROM h.house_win OR s.lines IS DISTINCT FROM h.lines OR s.banked_han"
    "dle IS DISTINCT FROM h.banked_handle OR s.banked_win IS DISTINCT FROM h.banked_win OR s.banked_lines IS "
    "DISTINCT FROM h.banked_lines OR s.first_ms IS DISTINCT FROM h.first_ms OR s.last_ms IS DISTINCT FROM h.l"
    "ast_ms OR s.banked_rounds IS DISTINCT FROM h.banked_rounds OR s.collections IS DISTINCT FROM h.collectio"
    "ns ORDER BY property, table_id, hour, dealer";
static const char COUNT_EVENTS[] = "SELECT count(*) FROM pitboss.events WHERE $1::text IS NULL OR property = $1";
/* Report facts of a round whose finishing event the central copy does not hold. */
static const char ORPHAN_FACTS[] =
    "DECLARE pitboss_verify NO SCROLL CURSOR FOR SELECT f.property, f.table_id, f.round_id FROM pitboss.round_facts f "
    "WHERE ($1::text IS NULL OR f.property = $1) AND NOT EXISTS (SELECT 1 FROM pitboss.events e "
    "WHERE e.property = f.property AND e.round_id = f.round_id AND e.type IN ('round_settled', 'round_voided')) "
    "ORDER BY f.property, f.round_id";

static void
report_row(struct tally *t, PGresult *r, int i, void *arg)
{
	char what[160];

	(void)arg;
	snprintf(what, sizeof(what), "report row of hour %s, dealer %s: not the sum of its rounds' facts (a report figure "
	    "was altered)", PQgetvalue(r, i, 2), PQgetvalue(r, i, 3));
	problem(t, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), "-", what);
}

static void
orphan_fact(struct tally *t, PGresult *r, int i, void *arg)
{
	char what[160];

	(void)arg;
	snprintf(what, sizeof(what), "report facts of round %s, which the central copy never saw finish",
	    PQgetvalue(r, i, 2));
	problem(t, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), "-", what);
}

int
central_verify(const char *conninfo, const char *property, FILE *out, int64_t *events, int64_t *problems,
    struct central_progress *progress, struct pb_error *err)
{
	struct tally t = {.out = out, .progress = progress};
	const char *p[1] = {property};
	PGresult *count;
	struct event_walk ew = {0};
	struct key_seen keys = {0};
	PGconn *c = central_connect(conninfo, err);
	int rc = -1;

	*events = *problems = 0;
	if (c == NULL)
		return -1;
	if ((ew.facts = facts_walk_new(c, err)) == NULL)
		goto out;
	if (central_exec(c, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", 0, NULL, NULL, err) < 0)
		goto out;
	if (progress != NULL) {
		if (central_exec(c, COUNT_EVENTS, 1, p, &count, err) < 0)
			goto out;
		progress->total = strtoll(PQgetvalue(count, 0, 0), NULL, 10);
		PQclear(count);
	}
	if (walk(c, EVENTS, property, event_row, &ew, &t, err) < 0)
		goto out;
	if (ew.failed) {
		*err = ew.err;
		goto out;
	}
	if (facts_walk_free(ew.facts, err) < 0) {
		ew.facts = NULL;
		goto out;
	}
	ew.facts = NULL;
	if (walk(c, CHECKPOINTS, property, checkpoint_row, &keys, &t, err) < 0 ||
	    walk(c, REPORT_ROWS, property, report_row, NULL, &t, err) < 0 ||
	    walk(c, ORPHAN_FACTS, property, orphan_fact, NULL, &t, err) < 0)
		goto out;
	rc = central_exec(c, "COMMIT", 0, NULL, NULL, err);
	*events = t.events;
	*problems = t.problems;
out:
	facts_walk_free(ew.facts, &(struct pb_error){0});
	central_rollback(c);
	PQfinish(c);
	return rc;
}
