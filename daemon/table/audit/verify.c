/*
 * verify.c - verifying rounds (chain links around their events, the replay
 * through the engine, the derived rows against the events: verify_rows.c)
 * and the whole record (audit_integrity): the chains, the checkpoints, the
 * rounds, and every other event once, by its row's check (event_walk.c).
 *
 * Verification fails closed (docs/audit.md): every check returns a status,
 * and a part of the record that could not be checked (a read error, out of
 * memory) is a problem marked "unchecked", never a part found intact.
 */
#include "store/store.h"
#include "table/audit/verify_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "engine/collection.h"
#include "store/audit.h"
#include "table/accounting/accounting.h"
#include "table/rounds/rounds.h"
#include "table/players/players.h"

/* A round with no events: its rows were put there by someone else than pitboss. */
static int
round_without_events(struct pit *p, int64_t round_id, json_t *problems, struct pb_error *err)
{
	struct round_record *d = malloc(sizeof(*d));
	int rc = -1;

	if (d == NULL)
		return pb_oom(err);
	if (store_round_load(p->store, round_id, d, err) == 0)
		rc = audit_problem(problems, d->table_id, round_id, 0, "the round has no recorded events: its rows were "
		    "inserted outside pitboss") < 0 ? pb_oom(err) : 0;
	free(d);
	return rc;
}

/* The chain around each of the round's events: its own hash, and the event before it in the table's chain. */
static int
round_links(struct pit *p, const struct event_list *evs, int64_t round_id, json_t *problems, struct pb_error *err)
{
	for (int i = 0; i < evs->count; i++) {
		const struct stored_event *e = &evs->events[i];
		struct stored_event before;
		bool found;
		int rc = 0;

		if (chain_check_event(e, true, problems, err) < 0)
			return -1;
		memset(&before, 0, sizeof(before));
		if (store_event_before(p->store, e->table_id, e->table_seq, &before, &found, err) < 0)
			return -1;
		if (!found && (e->table_seq != 1 || strcmp(e->prev_hash, CHAIN_GENESIS) != 0))
			rc = audit_problem(problems, e->table_id, round_id, e->table_seq, "event %lld: the events before it are "
			    "missing", (long long)e->table_seq);
		if (found && before.table_seq != e->table_seq - 1)
			rc = audit_problem(problems, e->table_id, round_id, e->table_seq, "event %lld: event %lld before it is "
			    "missing (deleted?)", (long long)e->table_seq, (long long)e->table_seq - 1);
		else if (found && strcmp(before.hash, e->prev_hash) != 0)
			rc = audit_problem(problems, e->table_id, round_id, e->table_seq, "event %lld: its prev_hash does not match "
			    "event %lld's hash (an event was replaced or inserted)", (long long)e->table_seq,
			    (long long)before.table_seq);
		if (found)
			free(before.body);
		if (rc < 0)
			return pb_oom(err);
	}
	return 0;
}

/* A finished round replayed through the engine: every payout line and the collection as recorded. */
static int
round_replay(const struct round_record *r, struct settlement *set, json_t *problems, struct pb_error *err)
{
	struct round_input in;
	struct pb_error sub;
	struct collection_fees fees;

	if (r->state != ROUND_SETTLED && r->state != ROUND_VOID)
		return 0;
	round_engine_input(r, &in);
	in.is_void = r->state == ROUND_VOID;
	if (settle_round(&in, set, &sub) < 0)
		return audit_problem(problems, r->table_id, r->id, 0, "the replay cannot settle the round: %s", sub.message) < 0 ?
		    pb_oom(err) : 0;
	if (audit_compare_lines("replay", set->lines, set->line_count, r->payouts, r->payout_count, r->table_id, r->id,
	    problems, err) < 0)
		return -1;
	collection_compute(&r->collection, &in, set, &fees);
	if (memcmp(&fees, &r->fees, sizeof(fees)) != 0 && audit_problem(problems, r->table_id, r->id, 0, "replay: the "
	    "collection recomputes to %lld, %lld was recorded", (long long)fees.total, (long long)r->fees.total) < 0)
		return pb_oom(err);
	return 0;
}

/*
 * Verifies a round; with check_chain false the events' hashes and links are
 * left to a walk of the whole chain.  0 when every part of it was checked
 * (problems appended); -1 with err when one could not be.
 */
static int
audit_round_inner(struct pit *p, int64_t round_id, bool check_chain, json_t *problems, struct pb_error *err)
{
	struct event_list evs;
	struct round_record *r = NULL;
	struct settlement *set = NULL;
	int rc = -1;

	if (store_round_events_raw(p->store, round_id, &evs, err) < 0)
		return -1;
	if (evs.count == 0) {
		rc = round_without_events(p, round_id, problems, err);
		goto out;
	}
	if (check_chain && round_links(p, &evs, round_id, problems, err) < 0)
		goto out;
	r = malloc(sizeof(*r));
	set = malloc(sizeof(*set));
	if (r == NULL || set == NULL) {
		pb_oom(err);
		goto out;
	}
	if (audit_round_from_events(&evs, r, problems, err) < 0) {
		if (pb_is_oom(err))
			goto out;
		rc = audit_problem(problems, evs.events[0].table_id, round_id, 0, "the round cannot be rebuilt from its events: %s",
		    err->message) < 0 ? pb_oom(err) : 0;
		goto out;
	}
	if (round_replay(r, set, problems, err) < 0)
		goto out;
	rc = audit_compare_derived(p, r, problems, err);
out:
	free(r);
	free(set);
	event_list_free(&evs);
	return rc;
}

int
audit_round(struct pit *p, int64_t round_id, json_t *problems, struct pb_error *err)
{
	struct check_part part;

	check_part_begin(&part, problems);
	return check_part_end(&part, audit_round_inner(p, round_id, true, problems, err), err);
}

int
audit_recent_rounds(struct pit *p, const char *table_id, int max, json_t *problems, int *checked, struct pb_error *err)
{
	int64_t *ids = calloc((size_t)(max > 0 ? max : 1), sizeof(*ids));
	int n = 0, rc = 0;

	*checked = 0;
	if (ids == NULL)
		return pb_oom(err);
	if (store_round_ids_last(p->store, table_id, max, ids, &n, err) < 0) {
		free(ids);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct pb_error rerr;
		if (audit_round(p, ids[i], problems, &rerr) < 0) {
			/* Out of memory says nothing of the record: the check could not be made, it did not fail. */
			if (pb_is_oom(&rerr)) {
				rc = pb_oom(err);
			} else if (audit_unchecked(problems, table_id, ids[i], 0, "round %lld cannot be read: %s", (long long)ids[i],
			    rerr.message) < 0) {
				rc = pb_oom(err);
			}
			break;
		}
		(*checked)++;
	}
	free(ids);
	return rc;
}

int
pit_round_verify(struct pit *p, const struct actor *a, int64_t round_id, json_t **out, struct pb_error *err)
{
	struct round_record *d = malloc(sizeof(*d));
	json_t *problems;

	if (d == NULL)
		return pb_oom(err);
	if (store_round_load(p->store, round_id, d, err) < 0 || pit_check_table_access(a, d->table_id, false, err) < 0) {
		free(d);
		return -1;
	}
	free(d);
	if ((problems = json_array()) == NULL)
		return pb_oom(err);
	if (audit_round(p, round_id, problems, err) < 0) {
		json_decref(problems);
		return -1;
	}
	*out = json_pack("{s:I,s:b,s:o}", "round", (json_int_t)round_id, "ok", json_array_size(problems) == 0, "problems", problems);
	return *out != NULL ? 0 : pb_oom(err);
}

/* The tables to look at: every table in the config and every table with events. */
static int
all_tables(struct pit *p, const char *only, char (*ids)[PB_ID_MAX], int *n, struct pb_error *err)
{
	if (only != NULL) {
		snprintf(ids[0], PB_ID_MAX, "%s", only);
		*n = 1;
		return 0;
	}
	if (store_event_tables(p->store, ids, CHAIN_TABLES_MAX, n, err) < 0)
		return -1;
	for (size_t i = 0; p->cfg != NULL && i < p->cfg->table_count; i++) {
		bool have = false;
		for (int j = 0; j < *n; j++)
			have = have || strcmp(ids[j], p->cfg->tables[i].id) == 0;
		if (!have && *n < CHAIN_TABLES_MAX)
			snprintf(ids[(*n)++], PB_ID_MAX, "%s", p->cfg->tables[i].id);
	}
	return 0;
}

/* Rounds that cannot be checked before an integrity check stops checking rounds (a damaged file fails many). */
#define UNREADABLE_ROUNDS_MAX 20

/* What one integrity check gathers. */
struct integrity {
	struct pit *p;
	const struct integrity_scope *scope;
	json_t *problems, *tables, *holds;
	int64_t events, rounds, checkpoints;
	int unread;                  /* rounds that could not be checked */
};

/*
 * What cannot be read of a table (a damaged page, an I/O error: a
 * storage_error in err) is a problem of the check, not its failure: it is
 * appended, marked unchecked, and in the daemon (a pit with a writer; the
 * read-only tools only report) the table goes on hold with an
 * integrity_failure event, once: a table already held gets no second event,
 * however often the check runs.
 */
static int
unreadable(struct pit *p, const char *table_id, const char *what, json_t *problems, struct pb_error *err)
{
	json_t *mine;
	char reason[8];
	bool held = false;
	struct pb_error herr;

	if (audit_unchecked(problems, table_id, 0, 0, "table %s: %s cannot be read (%s); the file is damaged or the disk "
	    "fails: restore the last backup (docs/operations.md)", table_id, what, err->message) < 0)
		return pb_oom(err);
	if (p->writer == NULL || store_table_hold_get(p->store, table_id, reason, sizeof(reason), &held, &herr) < 0 || held)
		return 0;
	mine = json_array();
	if (mine == NULL || json_array_append(mine, json_array_get(problems, json_array_size(problems) - 1)) < 0 ||
	    audit_hold_table(p->store, table_id, mine, "unreadable", &herr) < 0)
		log_error("integrity check: table %s cannot be read and its hold could not be recorded: %s", table_id,
		    mine == NULL ? "out of memory" : herr.message);
	else
		log_error("integrity check: table %s cannot be read (%s); it is on hold until a pit boss acknowledges", table_id, err->message);
	json_decref(mine);
	return 0;
}

/*
 * A part of a table that could not be checked: a read error as unreadable
 * says; out of memory a problem marked unchecked, and no hold (nothing is
 * wrong with the record: the check is to be run again).  Any other error
 * fails the whole check (-1).
 */
static int
table_not_checked(struct integrity *in, const char *table_id, const char *what, struct pb_error *err)
{
	if (strcmp(err->code, "storage_error") == 0)
		return unreadable(in->p, table_id, what, in->problems, err);
	if (!pb_is_oom(err))
		return -1;
	return audit_unchecked(in->problems, table_id, 0, 0, "%s could not be checked (out of memory); the record is not "
	    "vouched for: run the check again", what) < 0 ? -1 : 0;
}

/* Appends {"table", "reason"} to holds when the table is on integrity hold: a held table is not "ok". */
static int
add_hold(struct pit *p, const char *table_id, json_t *holds, struct pb_error *err)
{
	char reason[256];
	bool held = false;

	if (store_table_hold_get(p->store, table_id, reason, sizeof(reason), &held, err) < 0)
		return -1;
	if (held && json_array_append_new(holds, json_pack("{s:s,s:s}", "table", table_id, "reason", reason)) < 0)
		return pb_oom(err);
	return 0;
}

/* Every checkpoint of a table checked; their count added.  -1 with err when one could not be. */
static int
table_checkpoints(struct integrity *in, const char *table_id, struct checkpoint *cps, struct pb_error *err)
{
	int64_t after = 0;
	int got;

	do {
		if (store_checkpoints(in->p->store, table_id, after, 256, cps, &got, err) < 0)
			return -1;
		for (int i = 0; i < got; i++) {
			if (chain_check_checkpoint(in->p, &cps[i], in->scope->public_key_hex, in->problems, err) < 0)
				return -1;
			after = cps[i].id;
		}
		in->checkpoints += got;
	} while (got == 256);
	return 0;
}

/* One table: its chain walked from event 1, its head, its checkpoints, its hold. */
static int
integrity_table(struct integrity *in, const char *table_id, struct checkpoint *cps, struct pb_error *err)
{
	struct check_part part;
	int64_t walked, opened = 0, head;
	char hh[PB_SHA256_HEX_LEN] = "";

	check_part_begin(&part, in->problems);
	walked = chain_walk_all(in->p, table_id, 1, CHAIN_GENESIS, true, in->problems, &opened, err);
	if (check_part_end(&part, walked < 0 ? -1 : 0, err) < 0 && table_not_checked(in, table_id, "its events", err) < 0)
		return -1;
	if (store_chain_head(in->p->store, table_id, &head, hh, err) < 0 &&
	    table_not_checked(in, table_id, "its chain head", err) < 0)
		return -1;
	walked = walked < 0 ? 0 : walked;
	in->events += walked;
	check_part_begin(&part, in->problems);
	if (check_part_end(&part, table_checkpoints(in, table_id, cps, err), err) < 0 &&
	    table_not_checked(in, table_id, "its checkpoints", err) < 0)
		return -1;
	if (json_array_append_new(in->tables, json_pack("{s:s,s:I,s:s,s:I}", "table", table_id, "events", (json_int_t)walked,
	    "head", hh, "rounds_opened", (json_int_t)opened)) < 0)
		return pb_oom(err);
	return add_hold(in->p, table_id, in->holds, err);
}

/*
 * Every round in scope.  A round that cannot be read or checked is a
 * problem marked unchecked; after UNREADABLE_ROUNDS_MAX of them the rest are
 * not checked (and a problem says so).
 */
static int
integrity_rounds(struct integrity *in, struct pb_error *err)
{
	int64_t *ids = NULL;
	int count = 0, rc = 0;

	if (store_round_ids(in->p->store, in->scope->table_id, in->scope->from_round, &ids, &count, err) < 0) {
		if (!pb_is_oom(err))
			return -1;
		return audit_unchecked(in->problems, in->scope->table_id, 0, 0, "the rounds could not be checked (out of memory "
		    "while they were listed); run the check again") < 0 ? pb_oom(err) : 0;
	}
	for (int i = 0; i < count && in->unread < UNREADABLE_ROUNDS_MAX && rc == 0; i++) {
		struct check_part part;
		const char *rest;

		check_part_begin(&part, in->problems);
		if (check_part_end(&part, audit_round_inner(in->p, ids[i], false, in->problems, err), err) == 0) {
			in->rounds++;
			continue;
		}
		if (strcmp(err->code, "storage_error") != 0 && !pb_is_oom(err)) {
			rc = -1;
			break;
		}
		rest = ++in->unread == UNREADABLE_ROUNDS_MAX ? "; the rounds after it are not checked" : "";
		if (pb_is_oom(err))
			rc = audit_unchecked(in->problems, "", ids[i], 0, "round %lld could not be checked (out of memory)%s; run "
			    "the check again", (long long)ids[i], rest);
		else
			rc = audit_unchecked(in->problems, "", ids[i], 0, "round %lld cannot be read: %s%s", (long long)ids[i],
			    err->message, rest);
		if (rc < 0)
			pb_oom(err);
		in->rounds++;
	}
	free(ids);
	return rc;
}

/* A part of the full check that could not be completed: a problem marked unchecked, or -1 for any other error. */
static int
full_not_checked(struct integrity *in, const char *what, struct pb_error *err)
{
	int rc;

	if (pb_is_oom(err))
		rc = audit_unchecked(in->problems, "", 0, 0, "the %s could not be checked (out of memory); the record is not "
		    "vouched for: run the check again", what);
	else if (strcmp(err->code, "storage_error") == 0)
		rc = audit_unchecked(in->problems, "", 0, 0, "the %s cannot be read (%s); the file is damaged or the disk fails: "
		    "restore the last backup (docs/operations.md)", what, err->message);
	else
		return -1;
	return rc < 0 ? pb_oom(err) : 0;
}

/* The report aggregates recomputed from the rounds and compared with what is stored. */
static int
report_hours(struct integrity *in, struct pb_error *err)
{
	char agg[20][200];
	int bad = 0;

	if (store_report_hours_verify(in->p->store, agg, 20, &bad, err) < 0)
		return -1;
	for (int i = 0; i < bad; i++)
		if (audit_problem(in->problems, "", 0, 0, "%s", agg[i]) < 0)
			return pb_oom(err);
	return 0;
}

/* The significant-events log walked as one chain. */
static int
significant_log(struct integrity *in, struct pb_error *err)
{
	int64_t broken = 0;
	char why[128];

	if (store_significant_verify(in->p->store, &broken, why, sizeof(why), err) < 0)
		return -1;
	if (broken > 0 && audit_problem(in->problems, "", 0, 0, "significant event %lld: %s", (long long)broken, why) < 0)
		return pb_oom(err);
	return 0;
}

/*
 * Every event of no round checked by its row's check: the accounting, players', corrections', tables' state and
 * dealer changes' rows (event_walk.c).
 */
static int
event_rows(struct integrity *in, struct pb_error *err)
{
	return event_walk_verify(in->p, in->problems, err);
}

/* The parts of a full check (no table, no from_round), then the significant-events log; each a part of its own. */
static int
integrity_rest(struct integrity *in, struct pb_error *err)
{
	static const struct {
		const char *what;
		bool full_only;
		int (*run)(struct integrity *, struct pb_error *);
	} PARTS[] = {
		{"report aggregates", true, report_hours},
		{"rows of the tables' and the players' events (accounting, players, payout corrections, tables' state, dealer "
		    "changes)", true, event_rows},
		{"significant-events log", false, significant_log},
	};
	bool full = in->scope->table_id == NULL && in->scope->from_round == 0;

	for (size_t i = 0; i < sizeof(PARTS) / sizeof(PARTS[0]); i++) {
		struct check_part part;

		if (PARTS[i].full_only && !full)
			continue;
		check_part_begin(&part, in->problems);
		if (check_part_end(&part, PARTS[i].run(in, err), err) < 0 && full_not_checked(in, PARTS[i].what, err) < 0)
			return -1;
	}
	return 0;
}

int
audit_integrity(struct pit *p, const struct integrity_scope *scope, json_t **out, struct pb_error *err)
{
	char (*ids)[PB_ID_MAX] = calloc(CHAIN_TABLES_MAX, PB_ID_MAX);
	struct checkpoint *cps = calloc(256, sizeof(*cps));
	struct integrity in = {.p = p, .scope = scope, .problems = json_array(), .tables = json_array(), .holds = json_array()};
	int n = 0;

	*out = NULL;
	if (ids == NULL || cps == NULL || in.problems == NULL || in.tables == NULL || in.holds == NULL) {
		pb_oom(err);
		goto fail;
	}
	if (all_tables(p, scope->table_id, ids, &n, err) < 0)
		goto fail;
	for (int t = 0; t < n; t++)
		if (integrity_table(&in, ids[t], cps, err) < 0)
			goto fail;
	if (integrity_rounds(&in, err) < 0 || integrity_rest(&in, err) < 0)
		goto fail;
	*out = json_pack("{s:b,s:{s:I,s:I,s:I,s:I},s:O,s:O,s:O}", "ok",
	    json_array_size(in.problems) == 0 && json_array_size(in.holds) == 0, "checked", "tables", (json_int_t)n,
	    "events", (json_int_t)in.events, "rounds", (json_int_t)in.rounds, "checkpoints", (json_int_t)in.checkpoints,
	    "tables", in.tables, "problems", in.problems, "holds", in.holds);
	if (*out == NULL)
		pb_oom(err);
fail:
	free(ids);
	free(cps);
	json_decref(in.problems);
	json_decref(in.tables);
	json_decref(in.holds);
	return *out != NULL ? 0 : -1;
}
