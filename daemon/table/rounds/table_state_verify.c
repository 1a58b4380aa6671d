/*
 * table_state_verify.c - the check of a table's own state events (pitboss
 * verify, GET /integrity: table/core/event_walk.h).  table_state keeps one
 * row per table, the state its events leave (open or closed, its limits,
 * the configuration entry it was derived from, its dealer), which every
 * round and the floor read; dealer_changes keeps one row per
 * dealer_changed event, which the dealer rotation report reads.
 *
 * As the walk meets each table_configured, table_opened, table_closed,
 * limits_changed and dealer_changed event, its row's apply (the function
 * the live path and central restore call) writes it into the walk's
 * database in memory, and the walk notes which event last set each part of
 * the table's state; at the walk's end each table's stored state is
 * compared with its rebuild, part by part, naming that event.  Each
 * dealer_changed event is compared with its dealer_changes row as the walk
 * meets it: a table's rows are its events' in order, so the row of an event
 * is the first row after the previous event's equal to it; a row no event
 * matched is counted at the end.
 */
#include "table/rounds/rounds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/event_read.h"
#include "engine/limits.h"
#include "store/audit.h"
#include "store/store.h"

/* What the walk saw of table_id so far, or NULL. */
static struct table_seen *
find_seen(struct event_verify *v, const char *table_id)
{
	for (size_t i = 0; i < v->table_count; i++)
		if (strcmp(v->tables[i].table_id, table_id) == 0)
			return &v->tables[i];
	return NULL;
}

/* What the walk saw of table_id, a new entry the first time; NULL with err out of memory. */
static struct table_seen *
seen_table(struct event_verify *v, const char *table_id, struct pb_error *err)
{
	struct table_seen *ts = find_seen(v, table_id);

	if (ts != NULL)
		return ts;
	if (v->table_count == v->table_cap) {
		size_t cap = v->table_cap ? v->table_cap * 2 : 16;
		struct table_seen *more = realloc(v->tables, cap * sizeof(*more));
		if (more == NULL) {
			pb_oom(err);
			return NULL;
		}
		v->tables = more;
		v->table_cap = cap;
	}
	ts = &v->tables[v->table_count++];
	memset(ts, 0, sizeof(*ts));
	snprintf(ts->table_id, sizeof(ts->table_id), "%s", table_id);
	return ts;
}

/*
 * Event e into the rebuild by its row's apply: *applied tells.  An event its
 * apply cannot take is a problem of its own; running out of memory is not
 * the event's fault: -1 with err, and the state is not checked.
 */
static int
rebuild(struct event_verify *v, const struct event_type *t, const struct stored_event *e, const json_t *body,
    bool *applied, struct pb_error *err)
{
	struct pb_error sub;

	*applied = t->apply(v->rebuilt, t, e, body, &sub) == 0;
	if (*applied)
		return 0;
	if (pb_is_oom(&sub))
		return pb_oom(err);
	return problem_sink_event(&v->sink, e, err, "a %s event the table's state cannot be rebuilt from: %s", e->type,
	    sub.message);
}

/* table_configured, table_opened, table_closed, limits_changed: rebuilt, and noted as the last to set what it sets. */
int
table_state_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	enum event_type_id id = event_type_id(t);
	struct table_seen *ts;
	bool applied;

	if (rebuild(v, t, e, body, &applied, err) < 0)
		return -1;
	if (!applied)
		return 0;
	if ((ts = seen_table(v, e->table_id, err)) == NULL)
		return -1;
	if (id != EVT_LIMITS_CHANGED) {
		ts->open_seq = e->table_seq;
		ts->open_type = id;
	}
	if (id == EVT_TABLE_CONFIGURED || id == EVT_LIMITS_CHANGED) {
		ts->limits_seq = e->table_seq;
		ts->limits_type = id;
	}
	if (id == EVT_TABLE_CONFIGURED)
		ts->config_seq = e->table_seq;
	return 0;
}

/* "E1027 (Ana Ruiz) at AT by FL1", or "no dealer at AT by FL1", into buf of n bytes. */
static const char *
change_text(const struct dealer_change *c, char *buf, size_t n)
{
	if (c->person_id[0] != '\0')
		snprintf(buf, n, "%s (%s) at %s by %s", c->person_id, c->person_name, c->at, c->by);
	else
		snprintf(buf, n, "no dealer at %s by %s", c->at, c->by);
	return buf;
}

/*
 * The dealer_changes row of dealer_changed event e: the first of its table
 * after the row of the table's previous event that is equal to what e
 * records (the rows between are rows of no event, counted at the end).
 * None: a problem naming the table's next row, and the next event is
 * looked for from the same place.
 */
static int
dealer_row_check(struct event_verify *v, struct table_seen *ts, const struct event_type *t,
    const struct stored_event *e, const json_t *body, struct pb_error *err)
{
	struct dealer_change want, got;
	struct pb_error sub;
	char said[256], says[256];
	bool found;

	memset(&want, 0, sizeof(want));
	if (event_text(body, t->name, "person", EV_REQUIRED | EV_NULLABLE, want.person_id, sizeof(want.person_id), &sub) < 0 ||
	    event_text(body, t->name, "name", EV_REQUIRED | EV_NULLABLE, want.person_name, sizeof(want.person_name), &sub) < 0)
		return pb_is_oom(&sub) ? pb_oom(err) : 0;     /* unreadable: named by the rebuild */
	if (want.person_id[0] == '\0')
		want.person_name[0] = '\0';                   /* no dealer, no name: as the row is written */
	snprintf(want.at, sizeof(want.at), "%s", e->at);
	snprintf(want.by, sizeof(want.by), "%s", e->actor);
	if (store_dealer_change_next(v->p->store, e->table_id, ts->dealer_row, &want, &got, &found, err) < 0)
		return -1;
	if (found) {
		ts->dealer_row = got.id;
		ts->dealer_rows++;
		return 0;
	}
	if (store_dealer_change_next(v->p->store, e->table_id, ts->dealer_row, NULL, &got, &found, err) < 0)
		return -1;
	change_text(&want, said, sizeof(said));
	if (!found)
		return problem_sink_event(&v->sink, e, err, "event %lld (dealer_changed): the change it records, %s, has no "
		    "dealer_changes row: the dealer rotation report does not show it", (long long)e->table_seq, said);
	return problem_sink_event(&v->sink, e, err, "event %lld (dealer_changed): no dealer_changes row is the change it "
	    "records, %s; the table's next row (%lld) says %s: the dealer rotation report reads those rows",
	    (long long)e->table_seq, said, (long long)got.id, change_text(&got, says, sizeof(says)));
}

/* dealer_changed: rebuilt, noted as the table's last, and compared with its dealer_changes row. */
int
table_dealer_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	struct table_seen *ts;
	bool applied;

	if (rebuild(v, t, e, body, &applied, err) < 0 || (ts = seen_table(v, e->table_id, err)) == NULL)
		return -1;
	if (applied)
		ts->dealer_seq = e->table_seq;
	return dealer_row_check(v, ts, t, e, body, err);
}

/* The rows of each table beyond those its events matched. */
int
dealer_changes_verify_end(struct event_verify *v, struct pb_error *err)
{
	const char *table_id;
	json_t *counts, *n;
	int rc = 0;

	if (store_dealer_change_counts(v->p->store, &counts, err) < 0)
		return -1;
	json_object_foreach(counts, table_id, n) {
		const struct table_seen *ts = find_seen(v, table_id);
		int64_t extra = json_integer_value(n) - (ts != NULL ? ts->dealer_rows : 0);
		if (extra > 0 && audit_problem(v->sink.problems, table_id, 0, 0, "%lld dealer_changes row%s that no "
		    "dealer_changed event records: the dealer rotation report shows changes that were never recorded",
		    (long long)extra, extra == 1 ? "" : "s") < 0) {
			rc = pb_oom(err);
			break;
		}
	}
	json_decref(counts);
	return rc;
}

static bool
wager_limit_equal(const struct wager_limit *a, const struct wager_limit *b)
{
	return a->offered == b->offered && (!a->offered || (a->min == b->min && a->max == b->max));
}

static bool
limits_equal(const struct table_limits *a, const struct table_limits *b)
{
	return wager_limit_equal(&a->ante, &b->ante) && wager_limit_equal(&a->pair_plus, &b->pair_plus) &&
	    wager_limit_equal(&a->six_card, &b->six_card);
}

/* The limits as their compact JSON text, malloc'd; NULL when out of memory. */
static char *
limits_text(const struct table_limits *l)
{
	json_t *o = limits_to_json(l);
	char *text = o != NULL ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;

	json_decref(o);
	return text;
}

/* The stored limits against those its last event set: a problem naming both when they differ. */
static int
compare_limits(struct event_verify *v, const struct table_seen *ts, const struct table_state *have,
    const struct table_state *want, struct pb_error *err)
{
	char *stored, *set;
	int rc = 0;

	if (limits_equal(&have->limits, &want->limits))
		return 0;
	stored = limits_text(&have->limits);
	set = limits_text(&want->limits);
	if (stored == NULL || set == NULL || audit_problem(v->sink.problems, ts->table_id, 0, ts->limits_seq, "its stored "
	    "limits are %s, its last event (%lld, %s) set %s", stored, (long long)ts->limits_seq,
	    EVENT_TYPES[ts->limits_type].name, set) < 0)
		rc = pb_oom(err);
	free(stored);
	free(set);
	return rc;
}

/* What the table's last event that set open did: "closed it", "configured it open" ... */
static const char *
open_deed(const struct table_seen *ts, bool open)
{
	if (ts->open_type == EVT_TABLE_OPENED)
		return "opened it";
	if (ts->open_type == EVT_TABLE_CLOSED)
		return "closed it";
	return open ? "configured it open" : "configured it closed";
}

/* Each part of the stored state against the rebuilt one (have: the file's, want: its events'). */
static int
compare_parts(struct event_verify *v, const struct table_seen *ts, const struct table_state *have,
    const struct table_state *want, struct pb_error *err)
{
	json_t *pr = v->sink.problems;
	const char *id = ts->table_id;

	if (have->open != want->open && audit_problem(pr, id, 0, ts->open_seq, "its stored state says %s, its last event "
	    "(%lld) %s", have->open ? "open" : "closed", (long long)ts->open_seq, open_deed(ts, want->open)) < 0)
		return pb_oom(err);
	if (compare_limits(v, ts, have, want, err) < 0)
		return -1;
	if (strcmp(have->config_sha256, want->config_sha256) != 0 && audit_problem(pr, id, 0, ts->config_seq, "its "
	    "stored state is of the configuration entry %s, its last table_configured event (%lld) recorded %s",
	    have->config_sha256, (long long)ts->config_seq, want->config_sha256) < 0)
		return pb_oom(err);
	if (strcmp(have->dealer_id, want->dealer_id) == 0)
		return 0;
	if (ts->dealer_seq == 0)
		return audit_problem(pr, id, 0, 0, "its stored dealer is %s, but no dealer_changed event set one",
		    have->dealer_id) < 0 ? pb_oom(err) : 0;
	return audit_problem(pr, id, 0, ts->dealer_seq, "its stored dealer is %s, its last dealer_changed event (%lld) %s%s",
	    have->dealer_id[0] ? have->dealer_id : "none", (long long)ts->dealer_seq,
	    want->dealer_id[0] ? "set " : "took the dealer off", want->dealer_id) < 0 ? pb_oom(err) : 0;
}

/* One table's stored state against the state its events leave, rebuilt. */
static int
compare_state(struct event_verify *v, const struct table_seen *ts, struct pb_error *err)
{
	struct table_state have, want;

	if (store_table_state_get(v->p->store, ts->table_id, &have, err) < 0 ||
	    store_table_state_get(v->rebuilt, ts->table_id, &want, err) < 0)
		return -1;
	if (!want.found)
		return 0;       /* none of its events could be applied: each was named as the walk met it */
	if (ts->config_seq == 0)
		return audit_problem(v->sink.problems, ts->table_id, 0, 0, "its state events do not begin with a "
		    "table_configured event: its stored state cannot be derived from them") < 0 ? pb_oom(err) : 0;
	if (!have.found)
		return audit_problem(v->sink.problems, ts->table_id, 0, ts->config_seq, "it has no stored state, though its "
		    "event %lld configured it: the pit shows the configuration's settings instead of its own",
		    (long long)ts->config_seq) < 0 ? pb_oom(err) : 0;
	return compare_parts(v, ts, &have, &want, err);
}

/* Every table walked compared; a stored state of a table whose events never configured it named. */
int
table_state_verify_end(struct event_verify *v, struct pb_error *err)
{
	json_t *ids, *id;
	size_t i;
	int rc = 0;

	for (size_t k = 0; k < v->table_count; k++)
		if (compare_state(v, &v->tables[k], err) < 0)
			return -1;
	if (store_table_state_ids(v->p->store, &ids, err) < 0)
		return -1;
	json_array_foreach(ids, i, id) {
		const char *table_id = json_string_value(id);
		if (find_seen(v, table_id) == NULL && audit_problem(v->sink.problems, table_id, 0, 0, "it has a stored state "
		    "(open or closed, limits, dealer) that no table_configured event records") < 0) {
			rc = pb_oom(err);
			break;
		}
	}
	json_decref(ids);
	return rc;
}
