/*
 * acct_variances.c - a count variance investigated (reports.h
 * pit_variance_investigate, docs/accounting.md "Variances investigated";
 * NIGC 25 CFR 543.10, Nevada MICS table games: variances investigated and
 * their cause documented): a table's variance of a gaming day is assigned
 * to someone, its cause found, then resolved with a second person's
 * signature, in that order.  Each step is the table event
 * variance_investigated, whose apply writes its variance_investigations
 * row (live and in a restore alike) and whose check compares the row with
 * it; the master game and exceptions reports show the investigation.
 */
#include <stdio.h>
#include <string.h>

#include "common/gaming_day.h"
#include "common/event_read.h"
#include "common/text.h"
#include "store/audit.h"
#include "store/store.h"
#include "store/variances.h"
#include "table/people/people.h"
#include "table/reports/reports_private.h"

/* The roles of the second person who resolves an investigation with the pit boss. */
#define VARIANCE_RESOLVE_WITNESS (ROLE_BIT(ROLE_PITBOSS) | ROLE_BIT(ROLE_ADMIN))

/* The steps in their order: each status may follow the one before it ("assigned" also itself: a reassignment). */
static const char *const STATUSES[] = {"assigned", "cause_found", "resolved"};

static int
status_index(const char *status)
{
	for (int i = 0; i < (int)(sizeof(STATUSES) / sizeof(STATUSES[0])); i++)
		if (strcmp(STATUSES[i], status) == 0)
			return i;
	return -1;
}

/* ---- the investigation as the reports show it ---- */

/* The state an investigation's steps leave: the last status, the last assignee and cause given, and every step. */
struct inv_state {
	char status[VARIANCE_STATUS_MAX];  /* "": no step yet */
	json_t *steps;
	json_t *assignee, *cause;          /* borrowed from steps */
};

static json_t *
text_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

/* One step into the state (variance_step_fn). */
static int
inv_step(void *ctx, const struct variance_step *v, struct pb_error *err)
{
	struct inv_state *st = ctx;
	json_t *o = json_pack("{s:I,s:s,s:o,s:o,s:s,s:s,s:o,s:s}", "id", (json_int_t)v->id, "status", v->status,
	    "assignee", text_or_null(v->assignee), "cause", text_or_null(v->cause), "note", v->note, "by", v->by,
	    "witness", text_or_null(v->witness), "at", v->at);

	if (o == NULL || json_array_append_new(st->steps, o) < 0)
		return pb_oom(err);
	snprintf(st->status, sizeof(st->status), "%s", v->status);
	if (v->assignee[0])
		st->assignee = json_object_get(o, "assignee");
	if (v->cause[0])
		st->cause = json_object_get(o, "cause");
	return 0;
}

/* The steps of (table, day) into st (st->steps a new array the caller releases). */
static int
inv_read(struct store *s, const char *table_id, const char *day, struct inv_state *st, struct pb_error *err)
{
	memset(st, 0, sizeof(*st));
	if ((st->steps = json_array()) == NULL)
		return pb_oom(err);
	if (store_variance_steps(s, table_id, day, inv_step, st, err) != 0) {
		json_decref(st->steps);
		st->steps = NULL;
		return -1;
	}
	return 0;
}

/* st as the API shows it, or null without a step (new reference; takes st->steps). */
static json_t *
inv_json(struct inv_state *st)
{
	json_t *o;

	if (st->status[0] == '\0') {
		json_decref(st->steps);
		return json_null();
	}
	o = json_pack("{s:s,s:O,s:O,s:o}", "status", st->status, "assignee", st->assignee ? st->assignee : json_null(),
	    "cause", st->cause ? st->cause : json_null(), "steps", st->steps);
	return o;
}

json_t *
variance_investigation_json(struct pit *p, const char *table_id, const char *gaming_day, struct pb_error *err)
{
	struct inv_state st;
	json_t *o;

	if (inv_read(p->store, table_id, gaming_day, &st, err) < 0)
		return NULL;
	if ((o = inv_json(&st)) == NULL)
		pb_oom(err);
	return o;
}

/* ---- the event and its row ---- */

/* The step's event body (new reference; NULL: no memory). */
static json_t *
step_body(const struct variance_step *v)
{
	return json_pack("{s:o,s:o,s:s,s:I,s:s,s:s,s:o}", "assignee", text_or_null(v->assignee),
	    "cause", text_or_null(v->cause), "gaming_day", v->gaming_day, "id", (json_int_t)v->id, "note", v->note,
	    "status", v->status, "witness", text_or_null(v->witness));
}

/* A step from its event (the inverse of step_body), by and at the event's; 422 unreadable_event naming the field. */
static int
step_from_body(const struct event_type *t, const struct stored_event *e, const json_t *b, struct variance_step *v,
    struct pb_error *err)
{
	const char *n = t->name;
	unsigned nullable = EV_REQUIRED | EV_NULLABLE;

	memset(v, 0, sizeof(*v));
	snprintf(v->table_id, sizeof(v->table_id), "%s", e->table_id);
	snprintf(v->by, sizeof(v->by), "%s", e->actor);
	snprintf(v->at, sizeof(v->at), "%s", e->at);
	if (event_int(b, n, "id", EV_REQUIRED, &v->id, err) < 0 ||
	    event_text(b, n, "gaming_day", EV_REQUIRED, v->gaming_day, sizeof(v->gaming_day), err) < 0 ||
	    event_text(b, n, "status", EV_REQUIRED, v->status, sizeof(v->status), err) < 0 ||
	    event_text(b, n, "assignee", nullable, v->assignee, sizeof(v->assignee), err) < 0 ||
	    event_text(b, n, "cause", nullable, v->cause, sizeof(v->cause), err) < 0 ||
	    event_text(b, n, "note", EV_REQUIRED, v->note, sizeof(v->note), err) < 0 ||
	    event_text(b, n, "witness", nullable, v->witness, sizeof(v->witness), err) < 0)
		return -1;
	if (v->id <= 0 || status_index(v->status) < 0)
		return pb_fail(err, 422, "unreadable_event", "a %s event of table %s whose id or status (\"%s\") is none",
		    n, e->table_id, v->status);
	return 0;
}

/* The step's row from its event alone, as the live step writes it. */
int
variance_step_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	struct variance_step v;

	if (step_from_body(t, e, body, &v, err) < 0)
		return -1;
	return store_variance_put(s, &v, err);
}

static bool
steps_equal(const struct variance_step *a, const struct variance_step *b)
{
	return a->id == b->id && strcmp(a->table_id, b->table_id) == 0 && strcmp(a->gaming_day, b->gaming_day) == 0 &&
	    strcmp(a->status, b->status) == 0 && strcmp(a->assignee, b->assignee) == 0 && strcmp(a->cause, b->cause) == 0 &&
	    strcmp(a->note, b->note) == 0 && strcmp(a->by, b->by) == 0 && strcmp(a->witness, b->witness) == 0 &&
	    strcmp(a->at, b->at) == 0;
}

/* The step's row, found by its id, against its event: every field. */
int
variance_step_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err)
{
	struct variance_step want, got;
	struct pb_error sub;
	bool found;

	if (step_from_body(t, e, body, &want, &sub) < 0)
		return pb_is_oom(&sub) ? pb_oom(err) : problem_sink_event(&v->sink, e, err, "a %s event that is no step of "
		    "an investigation: %s", e->type, sub.message);
	if (store_variance_get(v->p->store, want.id, &got, &found, err) < 0)
		return -1;
	if (!found)
		return problem_sink_event(&v->sink, e, err, "the investigation's step %lld has no row: the reports do not show "
		    "it", (long long)want.id);
	if (!steps_equal(&want, &got))
		return problem_sink_event(&v->sink, e, err, "the investigation's step %lld: its row differs from its event",
		    (long long)want.id);
	return 0;
}

int
variance_verify_end(struct event_verify *v, struct pb_error *err)
{
	int64_t rows, events = v->seen[EVT_VARIANCE_INVESTIGATED];

	if (store_variance_count(v->p->store, &rows, err) < 0)
		return -1;
	if (rows > events && audit_problem(v->sink.problems, "", 0, 0, "%lld variance investigation rows have no event in "
	    "any chain: the reports show steps that were never recorded", (long long)(rows - events)) < 0)
		return pb_oom(err);
	return 0;
}

/* ---- recording a step ---- */

struct step_call {
	struct variance_step v;
	const json_t *body;
};

/* A text of the body: absent is "" unless required (422 code); else 1..ACCT_REASON_MAX-1 bytes, not blank. */
static int
read_text(const json_t *body, const char *key, bool required, const char *code, char *dst, size_t n,
    struct pb_error *err)
{
	const json_t *v = json_object_get(body, key);

	dst[0] = '\0';
	if ((v == NULL || json_is_null(v)) && !required)
		return 0;
	if (v == NULL || json_is_null(v))
		return pb_fail(err, 422, code, "%s: required for this step; say it in 1..%zu bytes", key, n - 1);
	if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= n ||
	    pb_text_blank(json_string_value(v), json_string_length(v)))
		return pb_fail(err, 400, "invalid_body", "%s: a string of 1..%zu bytes that is not blank", key, n - 1);
	if (pb_text_check_controls(key, json_string_value(v), json_string_length(v), err) < 0)
		return -1;
	snprintf(dst, n, "%s", json_string_value(v));
	return 0;
}

/* The body {"status", "assignee"?, "cause"?, "note", "witness"?} into c (400, 422 naming the field). */
static int
read_step(struct pit *p, const json_t *body, struct step_call *c, struct pb_error *err)
{
	static const char *const KEYS[] = {"status", "assignee", "cause", "note", "witness", NULL};
	const json_t *status = json_object_get(body, "status");
	struct person who;
	bool found;

	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"status\": \"assigned\"|\"cause_found\"|\"resolved\", "
		    "\"assignee\"?, \"cause\"?, \"note\", \"witness\"?}");
	if (input_known_keys(body, "investigation", KEYS, err) < 0)
		return -1;
	if (!json_is_string(status) || status_index(json_string_value(status)) < 0)
		return pb_fail(err, 400, "invalid_body", "status: \"assigned\" (with \"assignee\"), \"cause_found\" (with "
		    "\"cause\") or \"resolved\" (with a \"witness\"), in that order");
	snprintf(c->v.status, sizeof(c->v.status), "%s", json_string_value(status));
	if (read_text(body, "note", true, "note_required", c->v.note, sizeof(c->v.note), err) < 0 ||
	    read_text(body, "cause", strcmp(c->v.status, "cause_found") == 0, "cause_required", c->v.cause,
	    sizeof(c->v.cause), err) < 0 ||
	    read_text(body, "assignee", strcmp(c->v.status, "assigned") == 0, "assignee_required", c->v.assignee,
	    sizeof(c->v.assignee), err) < 0)
		return -1;
	if (c->v.assignee[0] == '\0')
		return 0;
	if (!pb_valid_id(c->v.assignee))
		return pb_fail(err, 400, "invalid_body", "assignee: a person's id, 1..32 of A-Z a-z 0-9 _ . -");
	if (store_person_get(p->store, c->v.assignee, &who, &found, err) < 0)
		return -1;
	if (!found)
		return pb_fail(err, 422, "unknown_person", "assignee: there is no person %s", c->v.assignee);
	return 0;
}

/* The table's count variance of the day exists: a complete count whose win differs from the hand win (404 otherwise). */
static int
check_variance(struct pit *p, const struct actor *a, const struct step_call *c, int64_t day, struct pb_error *err)
{
	json_t *mg, *row;
	bool has;

	if (acct_master_game(p, a, c->v.table_id, day, -1, false, &mg, err) < 0)
		return -1;
	row = json_array_get(json_object_get(mg, "tables"), 0);
	has = json_is_true(json_object_get(row, "complete")) && json_integer_value(json_object_get(row, "variance")) != 0;
	json_decref(mg);
	if (!has)
		return pb_fail(err, 404, "variance_not_found", "table %s has no count variance on gaming day %s: its count is "
		    "not complete (no opener or closer) or its count win equals its hand win", c->v.table_id, c->v.gaming_day);
	return 0;
}

/* In the write: the step follows the investigation's last one (409 otherwise), then its event and row. */
static int
do_investigate(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct step_call *c = arg;
	struct inv_state st;
	int last, next = status_index(c->v.status);
	json_t *body;
	int rc;

	if (pit_check_hold(p, c->v.table_id, err) < 0 || inv_read(p->store, c->v.table_id, c->v.gaming_day, &st, err) < 0)
		return -1;
	json_decref(st.steps);
	last = st.status[0] ? status_index(st.status) : -1;
	if (last == 2)
		return pb_fail(err, 409, "already_resolved", "the variance of table %s on %s is resolved already", c->v.table_id,
		    c->v.gaming_day);
	if (next != last + 1 && !(next == 0 && last == 0))
		return pb_fail(err, 409, "investigation_out_of_order", "the investigation of table %s on %s is %s: the next "
		    "step is \"%s\" (assigned, then cause_found, then resolved)", c->v.table_id, c->v.gaming_day,
		    last < 0 ? "not begun" : STATUSES[last], STATUSES[last + 1]);
	pb_time_now(c->v.at);
	snprintf(c->v.by, sizeof(c->v.by), "%s", a->name);
	if (store_variance_next_id(p->store, &c->v.id, err) < 0)
		return -1;
	if ((body = step_body(&c->v)) == NULL)
		return pb_oom(err);
	/* the row is the event's apply's (variance_step_apply), as a restore's */
	rc = event_record(p->store, c->v.table_id, &EVENT_TYPES[EVT_VARIANCE_INVESTIGATED], c->v.at, a->name, body, err);
	json_decref(body);
	if (rc < 0)
		return -1;
	*status = 201;
	*out = json_pack("{s:s,s:s}", "table", c->v.table_id, "gaming_day", c->v.gaming_day);
	if (*out == NULL || inv_read(p->store, c->v.table_id, c->v.gaming_day, &st, err) < 0)
		return *out == NULL ? pb_oom(err) : -1;
	json_object_set_new(*out, "investigation", inv_json(&st));
	return 0;
}

int
pit_variance_investigate(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const char *gaming_day, const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct step_call c;
	int64_t day;
	bool resolving;

	memset(&c, 0, sizeof(c));
	c.body = body;
	if (config_table(p->cfg, table_id) == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", table_id);
	if (authorize(a, OP_VARIANCE_INVESTIGATE, table_id, err) < 0 || pit_check_table_access(a, table_id, true, err) < 0)
		return -1;
	if (!a->is_person)
		return pb_fail(err, 403, "person_required", "an investigation's step is signed by a person: sign in (POST "
		    "/api/v1/sessions) and send your session's token");
	if (gaming_day_parse(gaming_day, &day) < 0)
		return pb_fail(err, 422, "invalid_gaming_day", "the path's gaming day: YYYY-MM-DD, e.g. 2026-11-21");
	snprintf(c.v.table_id, sizeof(c.v.table_id), "%s", table_id);
	gaming_day_format(day, c.v.gaming_day);
	if (read_step(p, body, &c, err) < 0)
		return -1;
	resolving = strcmp(c.v.status, "resolved") == 0;
	if (resolving && !(a->roles & ROLE_BIT(ROLE_PITBOSS)))
		return pb_fail(err, 403, "forbidden", "an investigation is resolved by a pit boss, with a second pit boss or an "
		    "admin as witness");
	if (check_variance(p, a, &c, day, err) < 0)
		return -1;
	if ((resolving || json_object_get(body, "witness") != NULL) && pit_witness_check(p, a, body,
	    VARIANCE_RESOLVE_WITNESS, resolving ? "resolving a variance's investigation" : "a step of a variance's "
	    "investigation", c.v.witness, err) < 0)
		return -1;
	return pit_write(p, a, idem, do_investigate, &c, out, status, err);
}
