/*
 * acct_serial_explain.c - a serial exception accounted for (accounting.h,
 * pit_serial_explain): the table event serial_explained, whose apply writes
 * its serial_explanations row (live and in a restore alike) and whose check
 * compares the row with it (pitboss verify).
 */
#include "table/accounting/acct_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/event_read.h"
#include "common/text.h"
#include "store/audit.h"
#include "store/serials.h"
#include "store/store.h"
#include "table/people/people.h"

/* Who witnesses an explanation: another floor supervisor or pit boss. */
#define EXPLAIN_WITNESS (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS))

/* One explanation being recorded: what the request said, checked before the write. */
struct explain_call {
	enum serial_kind kind;
	char serial[PB_ID_MAX];
	int64_t year;
	char table[PB_ID_MAX];              /* as given; "" for the table of the slip that shows the exception */
	char note[ACCT_REASON_MAX];
	char witness[PB_ID_MAX];
};

/* The search for one exception among the year's (acct_serial_problem_fn). */
struct find {
	const char *kind, *serial;
	struct acct_serial_problem hit;
};

static int
match(void *ctx, const struct acct_serial_problem *x, struct pb_error *err)
{
	struct find *f = ctx;

	(void)err;
	if (strcmp(x->kind, f->kind) != 0 || strcmp(x->serial, f->serial) != 0)
		return 0;
	f->hit = *x;
	return 1;
}

/* The exception c names, into *x (404 exception_not_found when the year has none such). */
static int
find_problem(struct pit *p, const struct explain_call *c, struct acct_serial_problem *x, struct pb_error *err)
{
	struct find f = {acct_serial_kind_name(c->kind), c->serial, {0}};
	int rc = acct_serial_problems(p, c->year, match, &f, err);

	if (rc < 0)
		return -1;
	if (rc == 0)
		return pb_fail(err, 404, "exception_not_found", "%s serial %s of %lld is no serial exception (a gap's first "
		    "missing serial, a duplicate, or one outside the series%s); see the exceptions report's serial_gap items",
		    f.kind, c->serial, (long long)c->year, p->cfg->accounting.serials[c->kind].configured ? "" :
		    ": and the property has no series of them, accounting.serials");
	*x = f.hit;
	return 0;
}

static int
do_explain(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct explain_call *c = arg;
	struct acct_serial_problem x;
	struct serial_explanation prior;
	char at[PB_TIME_LEN];
	const char *table;
	int64_t id;
	bool found;
	json_t *body;
	int rc;

	if (find_problem(p, c, &x, err) < 0)
		return -1;
	table = c->table[0] ? c->table : x.table_id;
	if (pit_check_table_access(a, table, true, err) < 0 || pit_check_hold(p, table, err) < 0)
		return -1;
	if (store_serial_expl_of(p->store, x.kind, c->year, c->serial, &prior, &found, err) < 0)
		return -1;
	if (found)
		return pb_fail(err, 409, "already_explained", "%s serial %s of %lld was accounted for already (by %s, %s): %s",
		    x.kind, c->serial, (long long)c->year, prior.by, prior.at, prior.note);
	if (store_serial_expl_next_id(p->store, &id, err) < 0)
		return -1;
	pb_time_now(at);
	body = json_pack("{s:I,s:s,s:s,s:s,s:s,s:s,s:I}", "id", (json_int_t)id, "kind", x.kind, "note", c->note,
	    "problem", x.problem, "serial", c->serial, "witness", c->witness, "year", (json_int_t)c->year);
	if (body == NULL)
		return pb_oom(err);
	/* the serial_explanations row is the event's apply's (acct_serial_apply), as a restore's */
	rc = event_record(p->store, table, &EVENT_TYPES[EVT_SERIAL_EXPLAINED], at, a->name, body, err);
	if (rc == 0) {
		json_object_set_new(body, "table", json_string(table));
		json_object_set_new(body, "by", json_string(a->name));
		json_object_set_new(body, "at", json_string(at));
		*out = json_incref(body);
		*status = 201;
	}
	json_decref(body);
	return rc;
}

/* Reads {"note", "witness", "table"?, "year"?} into c (400 naming the field; 422 note_required). */
static int
read_body(struct pit *p, const json_t *body, struct explain_call *c, struct pb_error *err)
{
	static const char *const KEYS[] = {"note", "witness", "table", "year", NULL};
	const json_t *note = json_object_get(body, "note"), *table = json_object_get(body, "table"),
	    *year = json_object_get(body, "year");
	struct acct_document now;

	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"note\", \"witness\": {\"person\", \"password\"}, "
		    "\"table\"?, \"year\"?}");
	if (input_known_keys(body, "serial explanation", KEYS, err) < 0)
		return -1;
	if (!json_is_string(note) || json_string_length(note) == 0 || json_string_length(note) >= ACCT_REASON_MAX ||
	    pb_text_blank(json_string_value(note), json_string_length(note)))
		return pb_fail(err, note == NULL ? 422 : 400, note == NULL ? "note_required" : "invalid_body", "note: say how "
		    "the serial is accounted for, 1..%d bytes, not blank", ACCT_REASON_MAX - 1);
	if (pb_text_check_controls("serial explanation: note", json_string_value(note), json_string_length(note), err) < 0)
		return -1;
	snprintf(c->note, sizeof(c->note), "%s", json_string_value(note));
	if (table != NULL && (!json_is_string(table) || !pb_valid_id(json_string_value(table))))
		return pb_fail(err, 400, "invalid_body", "table: the table whose record keeps the explanation (default: the "
		    "table of the slip that shows the exception)");
	if (table != NULL && config_table(p->cfg, json_string_value(table)) == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", json_string_value(table));
	if (table != NULL)
		snprintf(c->table, sizeof(c->table), "%s", json_string_value(table));
	if (year != NULL && (!json_is_integer(year) || json_integer_value(year) < 1970 || json_integer_value(year) > 9999))
		return pb_fail(err, 400, "invalid_body", "year: the year of the serial, e.g. 2026 (default: the current gaming "
		    "day's)");
	acct_now(p->cfg, &now);
	c->year = year ? json_integer_value(year) : atoi(now.gaming_day);
	return 0;
}

int
pit_serial_explain(struct pit *p, const struct actor *a, const struct idempotency *idem, bool credit,
    const char *serial, const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct explain_call c;

	memset(&c, 0, sizeof(c));
	c.kind = credit ? SERIAL_CREDIT : SERIAL_FILL;
	if (authorize(a, OP_SERIAL_EXPLAIN, NULL, err) < 0)
		return -1;
	if (!a->is_person)
		return pb_fail(err, 403, "person_required", "an explanation is signed by a person: sign in (POST "
		    "/api/v1/sessions) and send your session's token");
	if (!pb_valid_id(serial))
		return pb_fail(err, 404, "exception_not_found", "\"%.40s\" is not a serial", serial);
	snprintf(c.serial, sizeof(c.serial), "%s", serial);
	if (read_body(p, body, &c, err) < 0 || (c.table[0] && pit_check_table_access(a, c.table, true, err) < 0))
		return -1;
	if (pit_witness_check(p, a, body, EXPLAIN_WITNESS, "accounting for a serial", c.witness, err) < 0)
		return -1;
	return pit_write(p, a, idem, do_explain, &c, out, status, err);
}

/* ---- the event: its row, and the row against it ---- */

/* The explanation from its event alone: by and at are the event's. */
static int
from_body(const struct event_type *t, const struct stored_event *e, const json_t *b, struct serial_explanation *x,
    struct pb_error *err)
{
	const char *n = t->name;

	memset(x, 0, sizeof(*x));
	snprintf(x->table_id, sizeof(x->table_id), "%s", e->table_id);
	snprintf(x->by, sizeof(x->by), "%s", e->actor);
	snprintf(x->at, sizeof(x->at), "%s", e->at);
	if (event_int(b, n, "id", EV_REQUIRED, &x->id, err) < 0 ||
	    event_text(b, n, "kind", EV_REQUIRED, x->kind, sizeof(x->kind), err) < 0 ||
	    event_int(b, n, "year", EV_REQUIRED, &x->year, err) < 0 ||
	    event_text(b, n, "serial", EV_REQUIRED, x->serial, sizeof(x->serial), err) < 0 ||
	    event_text(b, n, "note", EV_REQUIRED, x->note, sizeof(x->note), err) < 0 ||
	    event_text(b, n, "witness", EV_REQUIRED, x->witness, sizeof(x->witness), err) < 0)
		return -1;
	if (x->id <= 0 || acct_serial_kind_of(x->kind) < 0)
		return pb_fail(err, 422, "unreadable_event", "a %s event whose id is not positive or whose kind is neither "
		    "fill nor credit", n);
	return 0;
}

int
acct_serial_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	struct serial_explanation x;

	if (from_body(t, e, body, &x, err) < 0)
		return -1;
	return store_serial_expl_put(s, &x, err);
}

int
acct_serial_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err)
{
	struct serial_explanation want, got;
	struct pb_error sub;
	bool found;

	if (from_body(t, e, body, &want, &sub) < 0)
		return pb_is_oom(&sub) ? pb_oom(err) : problem_sink_event(&v->sink, e, err, "a serial_explained event that "
		    "explains nothing: %s", sub.message);
	if (store_serial_expl_get(v->p->store, want.id, &got, &found, err) < 0)
		return -1;
	if (!found)
		return problem_sink_event(&v->sink, e, err, "the explanation of %s %s has no row: the exceptions report shows "
		    "it unexplained", want.kind, want.serial);
	if (strcmp(got.table_id, want.table_id) != 0 || strcmp(got.kind, want.kind) != 0 || got.year != want.year ||
	    strcmp(got.serial, want.serial) != 0 || strcmp(got.note, want.note) != 0 || strcmp(got.by, want.by) != 0 ||
	    strcmp(got.witness, want.witness) != 0 || strcmp(got.at, want.at) != 0)
		return problem_sink_event(&v->sink, e, err, "the explanation of %s %s: its row differs from its event",
		    want.kind, want.serial);
	return 0;
}

int
acct_serial_verify_end(struct event_verify *v, struct pb_error *err)
{
	int64_t rows;

	if (store_serial_expl_count(v->p->store, &rows, err) < 0)
		return -1;
	if (rows > v->seen[EVT_SERIAL_EXPLAINED] && audit_problem(v->sink.problems, "", 0, 0, "%lld serial explanation "
	    "rows have no event in any chain: the exceptions report shows serials accounted for that never were",
	    (long long)(rows - v->seen[EVT_SERIAL_EXPLAINED])) < 0)
		return pb_oom(err);
	return 0;
}
