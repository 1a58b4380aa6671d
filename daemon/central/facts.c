/*
 * facts.c - what each finished round counts for in the cross-property
 * reports (pitboss.round_facts, docs/central.md "Reports"): the round's
 * tally (engine/tally.h, the same figures as the property's report_hours),
 * its UTC hour, dealer and game, sent after the round's events, one batch
 * in one transaction with the games' rules objects.  The central trigger
 * adds each new fact to pitboss.report_hours; a resent fact is ignored (ON
 * CONFLICT DO NOTHING), so nothing is counted twice, and a row already
 * there with other content is answered as a conflict (conflict.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "central/central_int.h"
#include "store/reports.h"
#include "store/audit.h"
#include "store/store.h"

#define FACT_COLUMNS 19

static const char RULES_INSERT[] =
    "INSERT INTO pitboss.rules (sha256, body) SELECT * FROM unnest($1::text[], $2::text[]) "
    "ON CONFLICT (sha256) DO NOTHING";
/*
 * The batch's facts inserted unless there (ON CONFLICT DO NOTHING), and in
 * the same statement (which sees the table as it was before it) every row
 * already there that conflicts with one of them: the same round with other
 * content, or another round at the same finishing event (docs/central.md,
 * "Conflicts").
 */
static const char FACTS_INSERT[] =
    "WITH b AS (SELECT * FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], "
    "$8::text[], $9::boolean[], $10::bigint[], $11::text[], $12::text[], $13::text[], $14::bigint[], $15::bigint[], "
    "$16::bigint[], $17::text[], $18::text[], $19::text[], $20::bigint[]) "
    "AS u(round_id, table_id, final_event, hour, dealer, dealer_name, rules_sha256, voided, hands, handle, house_win, "
    "lines, opened_ms, settled_ms, banked_rounds, banked_handle, banked_win, banked_lines, collections)), "
    "ins AS (INSERT INTO pitboss.round_facts (property, round_id, table_id, final_event, hour, dealer, dealer_name, "
    "rules_sha256, voided, hands, handle, house_win, lines, opened_ms, settled_ms, banked_rounds, banked_handle, "
    "banked_win, banked_lines, collections) "
    "SELECT $1, round_id, table_id, final_event, hour, dealer, dealer_name, rules_sha256, voided, hands, "
    "handle::bigint[], house_win::bigint[], lines::bigint[], opened_ms, settled_ms, banked_rounds, "
    "banked_handle::bigint[], banked_win::bigint[], banked_lines::bigint[], collections FROM b "
    "ON CONFLICT (property, round_id) DO NOTHING) "
    "SELECT f.round_id, f.table_id, f.final_event, b.round_id FROM b JOIN pitboss.round_facts f ON f.property = $1 "
    "AND ((f.round_id = b.round_id AND (f.table_id, f.final_event, f.hour, f.dealer, f.dealer_name, f.rules_sha256, "
    "f.voided, f.hands, f.handle, f.house_win, f.lines, f.opened_ms, f.settled_ms, f.banked_rounds, f.banked_handle, "
    "f.banked_win, f.banked_lines, f.collections) IS DISTINCT FROM (b.table_id, b.final_event, b.hour, b.dealer, "
    "b.dealer_name, b.rules_sha256, b.voided, b.hands, b.handle::bigint[], b.house_win::bigint[], b.lines::bigint[], "
    "b.opened_ms, b.settled_ms, b.banked_rounds, b.banked_handle::bigint[], b.banked_win::bigint[], "
    "b.banked_lines::bigint[], b.collections)) OR (f.final_event = b.final_event AND f.round_id <> b.round_id)) "
    "ORDER BY b.final_event";

/* The games of a batch: each rules id once, with its hash and text. */
struct batch_rules {
	int64_t ids[64];
	char sha[64][PB_SHA256_HEX_LEN];
	int count;
	struct pg_array sha_col, body_col;
};

/* The hash of a round's rules, adding the rules object to the batch the first time. */
static const char *
rules_of(struct store *s, struct batch_rules *br, int64_t rules_id, struct pb_error *err)
{
	char *json;

	for (int i = 0; i < br->count; i++)
		if (br->ids[i] == rules_id)
			return br->sha[i];
	if (br->count == 64) {
		pb_fail(err, 500, "internal_error", "more than 64 games in one batch of report facts");
		return NULL;
	}
	if (store_rules_text(s, rules_id, br->sha[br->count], &json, err) < 0)
		return NULL;
	pg_array_text(&br->sha_col, br->sha[br->count]);
	pg_array_text(&br->body_col, json);
	free(json);
	br->ids[br->count] = rules_id;
	return br->sha[br->count++];
}

/* "{a,b,c,d,e}" of a per-wager array. */
static void
wager_array(struct pg_array *col, const int64_t v[WAGER_COUNT])
{
	char t[WAGER_COUNT * 24 + 4];
	size_t n = 0;

	for (int w = 0; w < WAGER_COUNT; w++)
		n += (size_t)snprintf(t + n, sizeof(t) - n, "%c%" PRId64, w == 0 ? '{' : ',', v[w]);
	snprintf(t + n, sizeof(t) - n, "}");
	pg_array_text(col, t);
}

/* One round's fact into the batch's columns ($2..$20): its report_hours row (store_round_hour). */
static int
add_fact(struct store *s, struct batch_rules *br, const struct round_record *r, int64_t final_event,
    struct pg_array cols[FACT_COLUMNS], struct pb_error *err)
{
	struct report_hour row;
	const char *sha;

	if (store_round_hour(r, &row, err) < 0 || (sha = rules_of(s, br, r->rules_id, err)) == NULL)
		return -1;
	pg_array_int64(&cols[0], r->id);
	pg_array_text(&cols[1], row.table_id);
	pg_array_int64(&cols[2], final_event);
	pg_array_int64(&cols[3], row.hour);
	pg_array_text(&cols[4], row.dealer);
	pg_array_text(&cols[5], r->dealer_id[0] ? r->dealer_name : r->opened_by);
	pg_array_text(&cols[6], sha);
	pg_array_text(&cols[7], row.voids ? "true" : "false");
	pg_array_int64(&cols[8], row.hands);
	wager_array(&cols[9], row.handle);
	wager_array(&cols[10], row.house_win);
	wager_array(&cols[11], row.lines);
	pg_array_int64(&cols[12], row.first_ms);
	pg_array_int64(&cols[13], row.last_ms);
	pg_array_int64(&cols[14], row.banked_rounds);
	wager_array(&cols[15], row.banked_handle);
	wager_array(&cols[16], row.banked_win);
	wager_array(&cols[17], row.banked_lines);
	pg_array_int64(&cols[18], row.collections);
	return 0;
}

/* The conflicting rows the insert answered, into c (at most max), *n how many. */
static void
read_conflicts(PGresult *r, struct fact_conflict *c, int max, int *n)
{
	*n = 0;
	for (int i = 0; i < PQntuples(r) && *n < max; i++, (*n)++) {
		c[*n].round_id = strtoll(PQgetvalue(r, i, 0), NULL, 10);
		snprintf(c[*n].table_id, sizeof(c[*n].table_id), "%s", PQgetvalue(r, i, 1));
		c[*n].final_event = strtoll(PQgetvalue(r, i, 2), NULL, 10);
		c[*n].own_round_id = strtoll(PQgetvalue(r, i, 3), NULL, 10);
	}
}

/* Sends the rules and the facts in one transaction; the conflicting rows found into conflicts. */
static int
send_facts(PGconn *c, const char *property, struct batch_rules *br, struct pg_array cols[FACT_COLUMNS],
    struct fact_conflict *conflicts, int max, int *nconflicts, struct pb_error *err)
{
	const char *rp[2], *fp[FACT_COLUMNS + 1] = {property};
	PGresult *r;

	if ((rp[0] = pg_array_end(&br->sha_col)) == NULL || (rp[1] = pg_array_end(&br->body_col)) == NULL)
		return pb_oom(err);
	for (int k = 0; k < FACT_COLUMNS; k++)
		if ((fp[k + 1] = pg_array_end(&cols[k])) == NULL)
			return pb_oom(err);
	if (central_exec(c, "BEGIN", 0, NULL, NULL, err) < 0)
		return -1;
	if (central_exec(c, RULES_INSERT, 2, rp, NULL, err) < 0 ||
	    central_exec(c, FACTS_INSERT, FACT_COLUMNS + 1, fp, &r, err) < 0)
		goto fail;
	read_conflicts(r, conflicts, max, nconflicts);
	PQclear(r);
	if (central_exec(c, "COMMIT", 0, NULL, NULL, err) < 0)
		goto fail;
	return 0;
fail:
	central_rollback(c);
	return -1;
}

int
central_push_facts(PGconn *c, struct store *s, const char *property, const int64_t *event_ids,
    const int64_t *round_ids, int count, struct fact_conflict *conflicts, int max_conflicts, int *nconflicts,
    struct pb_error *err)
{
	struct round_record *r = malloc(sizeof(*r));
	struct batch_rules *br = calloc(1, sizeof(*br));
	struct pg_array cols[FACT_COLUMNS];
	int rc = -1;

	memset(cols, 0, sizeof(cols));
	*nconflicts = 0;
	if (r == NULL || br == NULL) {
		pb_oom(err);
		goto out;
	}
	for (int i = 0; i < count; i++)
		if (store_round_load(s, round_ids[i], r, err) < 0 || add_fact(s, br, r, event_ids[i], cols, err) < 0)
			goto out;
	rc = send_facts(c, property, br, cols, conflicts, max_conflicts, nconflicts, err);
out:
	for (int k = 0; k < FACT_COLUMNS; k++)
		pg_array_free(&cols[k]);
	if (br != NULL) {
		pg_array_free(&br->sha_col);
		pg_array_free(&br->body_col);
	}
	free(br);
	free(r);
	return rc;
}
