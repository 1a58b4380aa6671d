/*
 * acct_events.c - an accounting document as its table event's body and
 * back, its recording (row and event in one transaction), and the apply
 * functions of its types (table/core/event_types.h: central restore).  The row
 * is always made from the body, live and in a restore, so the two cannot
 * differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/event_read.h"
#include "common/gaming_day.h"
#include "store/audit.h"
#include "store/store.h"
#include "table/accounting/acct_private.h"

const struct event_type *
acct_event_type(const char *kind)
{
	static const struct { const char *kind; enum event_type_id type; } KINDS[] = {
		{"opener", EVT_INVENTORY}, {"closer", EVT_INVENTORY}, {"fill", EVT_FILL}, {"credit", EVT_CREDIT},
		{"fill_void", EVT_FILL_VOID}, {"credit_void", EVT_CREDIT_VOID}, {"fill_receipt", EVT_FILL_RECEIVED},
		{"credit_receipt", EVT_CREDIT_RECEIVED}, {"drop", EVT_DROP}, {"shift_change", EVT_INVENTORY},
	};

	for (size_t i = 0; i < sizeof(KINDS) / sizeof(KINDS[0]); i++)
		if (strcmp(kind, KINDS[i].kind) == 0)
			return &EVENT_TYPES[KINDS[i].type];
	return NULL;
}

static json_t *
text_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

static bool
kind_is(const struct acct_document *d, const char *a, const char *b)
{
	return strcmp(d->kind, a) == 0 || (b != NULL && strcmp(d->kind, b) == 0);
}

json_t *
acct_body(const struct acct_document *d)
{
	json_t *b = json_pack("{s:I,s:s,s:o,s:I,s:s,s:s}", "id", (json_int_t)d->id, "gaming_day", d->gaming_day,
	    "shift", text_or_null(d->shift), "total", (json_int_t)d->total, "signer", d->signer, "witness", d->witness);

	if (b == NULL)
		return NULL;
	if (d->chips_json[0])
		json_object_set_new(b, "chips", json_loads(d->chips_json, 0, NULL));
	if (d->witnesses[0])
		json_object_set_new(b, "witnesses", json_loads(d->witnesses, 0, NULL));
	if (kind_is(d, "opener", "closer") || kind_is(d, "shift_change", NULL)) {
		json_object_set_new(b, "kind", json_string(d->kind));
		json_object_set_new(b, "discrepancy", d->has_discrepancy ? json_integer(d->discrepancy) : json_null());
		json_object_set_new(b, "reason", text_or_null(d->reason));
	} else if (kind_is(d, "fill", "credit")) {
		json_object_set_new(b, "serial", json_string(d->serial));
		json_object_set_new(b, "year", json_integer(d->year));
		json_object_set_new(b, "runner", text_or_null(d->runner));
		json_object_set_new(b, "requester", text_or_null(d->requester));
	} else if (kind_is(d, "fill_void", "credit_void")) {
		json_object_set_new(b, "serial", json_string(d->serial));
		json_object_set_new(b, "year", json_integer(d->year));
		json_object_set_new(b, "voids", json_integer(d->voids));
		json_object_set_new(b, "reason", json_string(d->reason));
	} else if (kind_is(d, "fill_receipt", "credit_receipt")) {
		json_object_set_new(b, "serial", json_string(d->serial));
		json_object_set_new(b, "year", json_integer(d->year));
		json_object_set_new(b, "slip", json_integer(d->voids));
	} else {
		json_object_set_new(b, "box", json_string(d->serial));
		json_object_set_new(b, "cash", json_integer(d->cash));
		json_object_set_new(b, "chips", json_integer(d->chip_value));
		json_object_set_new(b, "markers", json_integer(d->markers));
		json_object_set_new(b, "collections", json_integer(d->collections));
		if (d->count_json[0])
			json_object_set_new(b, "count", json_loads(d->count_json, 0, NULL));
		if (d->approval[0])
			json_object_set_new(b, "approval", json_string(d->approval));
	}
	return b;
}

/*
 * The value of key (absent: dst ""; of type want otherwise) as the row
 * keeps it: compact text, keys sorted, in dst of n bytes (422 when longer).
 */
static int
json_field_text(const struct event_type *t, const json_t *b, const char *key, json_type want, char *dst, size_t n,
    struct pb_error *err)
{
	const json_t *v;
	char *text;
	int rc = 0;

	dst[0] = '\0';
	if (event_value(b, t->name, key, EV_OPTIONAL, want, &v, err) < 0)
		return -1;
	if (v == NULL)
		return 0;
	if ((text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS)) == NULL)   /* a parsed value has a text: out of memory */
		return pb_oom(err);
	if (strlen(text) >= n)
		rc = pb_fail(err, 422, "unreadable_event", "a %s event's \"%s\" is longer than a document holds", t->name, key);
	else
		snprintf(dst, n, "%s", text);
	free(text);
	return rc;
}

/*
 * "witnesses": every witness's id (a body of schema 021 on; absent before),
 * as the row keeps them: compact text.
 */
static int
witnesses_field(const struct event_type *t, const json_t *b, struct acct_document *d, struct pb_error *err)
{
	const json_t *ids, *id;
	char *text;
	size_t i;
	int rc = 0;

	if (event_array(b, t->name, "witnesses", EV_OPTIONAL, &ids, err) < 0)
		return -1;
	if (ids == NULL)
		return 0;
	json_array_foreach(ids, i, id)
		if (!json_is_string(id) || json_string_length(id) == 0 || json_string_length(id) >= PB_ID_MAX)
			return pb_fail(err, 422, "unreadable_event", "a %s event's \"witnesses[%zu]\" is not a person's id",
			    t->name, i);
	if ((text = json_dumps(ids, JSON_COMPACT)) == NULL)
		return pb_oom(err);
	if (strlen(text) >= sizeof(d->witnesses))
		rc = pb_fail(err, 422, "unreadable_event", "a %s event's \"witnesses\" are more than a document holds", t->name);
	else
		snprintf(d->witnesses, sizeof(d->witnesses), "%s", text);
	free(text);
	return rc;
}

/* The fields every document's body has (docs/audit.md, "Accounting events"), into d. */
static int
common_fields(const struct event_type *t, const json_t *b, struct acct_document *d, struct pb_error *err)
{
	if (witnesses_field(t, b, d, err) < 0 || event_int(b, t->name, "id", EV_REQUIRED, &d->id, err) < 0 ||
	    event_text(b, t->name, "gaming_day", EV_REQUIRED, d->gaming_day, sizeof(d->gaming_day), err) < 0 ||
	    event_text(b, t->name, "shift", EV_REQUIRED | EV_NULLABLE, d->shift, sizeof(d->shift), err) < 0 ||
	    event_int(b, t->name, "total", EV_REQUIRED, &d->total, err) < 0 ||
	    event_text(b, t->name, "signer", EV_REQUIRED, d->signer, sizeof(d->signer), err) < 0 ||
	    event_text(b, t->name, "witness", EV_REQUIRED, d->witness, sizeof(d->witness), err) < 0)
		return -1;
	return 0;
}

/* The chips counted, {"2500": 40, ...}, as the row keeps them: compact text, keys sorted. */
static int
chips_field(const struct event_type *t, const json_t *b, struct acct_document *d, struct pb_error *err)
{
	const json_t *chips;
	char *text;
	int rc = 0;

	if (event_object(b, t->name, "chips", EV_REQUIRED, &chips, err) < 0)
		return -1;
	if ((text = json_dumps(chips, JSON_COMPACT | JSON_SORT_KEYS)) == NULL)   /* a parsed object has a text: out of memory */
		return pb_oom(err);
	if (strlen(text) >= sizeof(d->chips_json))
		rc = pb_fail(err, 422, "unreadable_event", "a %s event's \"chips\" are longer than a document holds", t->name);
	else
		snprintf(d->chips_json, sizeof(d->chips_json), "%s", text);
	free(text);
	return rc;
}

/* A slip's serial and year (a fill, a credit, and their voids). */
static int
slip_fields(const struct event_type *t, const json_t *b, struct acct_document *d, struct pb_error *err)
{
	if (event_text(b, t->name, "serial", EV_REQUIRED, d->serial, sizeof(d->serial), err) < 0 ||
	    event_int(b, t->name, "year", EV_REQUIRED, &d->year, err) < 0)
		return -1;
	return 0;
}

/* The fields of d's own type: an opener's or closer's, a slip's, a void's, a drop's. */
static int
type_fields(const struct event_type *t, const json_t *b, struct acct_document *d, struct pb_error *err)
{
	const char *n = t->name;
	const json_t *discrepancy;
	unsigned nullable = EV_REQUIRED | EV_NULLABLE;

	switch (event_type_id(t)) {
	case EVT_INVENTORY:
		if (event_text(b, n, "kind", EV_REQUIRED, d->kind, sizeof(d->kind), err) < 0 ||
		    event_value(b, n, "discrepancy", nullable, JSON_INTEGER, &discrepancy, err) < 0 ||
		    event_text(b, n, "reason", nullable, d->reason, sizeof(d->reason), err) < 0)
			return -1;
		d->has_discrepancy = discrepancy != NULL;
		d->discrepancy = d->has_discrepancy ? json_integer_value(discrepancy) : 0;
		return chips_field(t, b, d, err);
	case EVT_FILL:
	case EVT_CREDIT:
		if (slip_fields(t, b, d, err) < 0 ||
		    event_text(b, n, "runner", nullable, d->runner, sizeof(d->runner), err) < 0 ||
		    event_text(b, n, "requester", nullable, d->requester, sizeof(d->requester), err) < 0)
			return -1;
		return chips_field(t, b, d, err);
	case EVT_FILL_VOID:
	case EVT_CREDIT_VOID:
		if (slip_fields(t, b, d, err) < 0 || event_int(b, n, "voids", EV_REQUIRED, &d->voids, err) < 0)
			return -1;
		return event_text(b, n, "reason", EV_REQUIRED, d->reason, sizeof(d->reason), err);
	case EVT_FILL_RECEIVED:
	case EVT_CREDIT_RECEIVED:
		snprintf(d->kind, sizeof(d->kind), "%s", event_type_id(t) == EVT_FILL_RECEIVED ? "fill_receipt" : "credit_receipt");
		if (slip_fields(t, b, d, err) < 0)
			return -1;
		return event_int(b, n, "slip", EV_REQUIRED, &d->voids, err);
	case EVT_DROP:
		if (event_text(b, n, "box", EV_REQUIRED, d->serial, sizeof(d->serial), err) < 0 ||
		    event_int(b, n, "cash", EV_REQUIRED, &d->cash, err) < 0 ||
		    event_int(b, n, "chips", EV_REQUIRED, &d->chip_value, err) < 0 ||
		    event_int(b, n, "markers", EV_REQUIRED, &d->markers, err) < 0 ||
		    json_field_text(t, b, "count", JSON_OBJECT, d->count_json, sizeof(d->count_json), err) < 0 ||
		    event_text(b, n, "approval", EV_OPTIONAL, d->approval, sizeof(d->approval), err) < 0)
			return -1;
		return event_int(b, n, "collections", EV_REQUIRED, &d->collections, err);
	default:
		return pb_fail(err, 500, "internal_error", "a %s event is no accounting document", n);
	}
}

/* Every field of a document's body into d, by its type's row: the inverse of acct_body (acct_private.h). */
int
acct_from_body(const char *table_id, const char *at, const struct event_type *t, const json_t *b,
    struct acct_document *d, struct pb_error *err)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->table_id, sizeof(d->table_id), "%s", table_id);
	snprintf(d->at, sizeof(d->at), "%s", at);
	if (event_type_id(t) != EVT_INVENTORY)
		snprintf(d->kind, sizeof(d->kind), "%s", t->name);     /* most types are named as their documents' kind */
	if (common_fields(t, b, d, err) < 0 || type_fields(t, b, d, err) < 0)
		return -1;
	if (d->id <= 0 || d->kind[0] == '\0' || d->gaming_day[0] == '\0' || d->signer[0] == '\0')
		return pb_fail(err, 422, "unreadable_event", "table %s: a %s event whose id, kind, gaming day or signer is "
		    "empty", table_id, t->name);
	return 0;
}

json_t *
acct_document_json(const struct acct_document *d)
{
	json_t *o = acct_body(d);

	if (o == NULL)
		return NULL;
	json_object_set_new(o, "table", json_string(d->table_id));
	json_object_set_new(o, "type", json_string(d->kind));
	json_object_set_new(o, "at", json_string(d->at));
	return o;
}

int
acct_record(struct pit *p, const struct actor *a, const struct acct_document *d, json_t **out, struct pb_error *err)
{
	const struct event_type *type = acct_event_type(d->kind);
	struct acct_document row;
	json_t *body;
	int rc = -1;

	if (type == NULL)
		return pb_fail(err, 500, "internal_error", "a document of no known kind (\"%s\")", d->kind);
	if ((body = acct_body(d)) == NULL)
		return pb_oom(err);
	if (acct_from_body(d->table_id, d->at, type, body, &row, err) == 0 && store_acct_put(p->store, &row, err) == 0 &&
	    store_append_event(p->store, row.table_id, 0, type, row.at, a->name, body, err) == 0) {
		*out = acct_document_json(&row);
		rc = *out != NULL ? 0 : pb_oom(err);
		if (rc == 0 && acct_slip_status(p->cfg, &row) != NULL)
			json_object_set_new(*out, "status", json_string(acct_slip_status(p->cfg, &row)));
	}
	json_decref(body);
	return rc;
}

void
acct_now(const struct config *cfg, struct acct_document *d)
{
	const struct gaming_calendar *cal = &cfg->property.calendar;
	int64_t ms = 0, day;
	int shift;

	pb_time_now(d->at);
	pb_time_parse(d->at, &ms);
	shift = gaming_shift_of(cal, ms / 1000, &day);
	if (shift < 0)
		day = gaming_day_of(cal, ms / 1000);
	gaming_day_format(day, d->gaming_day);
	d->shift[0] = '\0';
	if (shift >= 0)
		snprintf(d->shift, sizeof(d->shift), "%s", cal->shifts[shift].name);
}

/* The document's row from its event alone, as acct_record writes it. */
int
acct_document_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	struct acct_document d;

	if (acct_from_body(e->table_id, e->at, t, body, &d, err) < 0)
		return -1;
	return store_acct_put(s, &d, err);
}

/* kind, ref and the row of an acknowledgment, its by and at the event's (acct_private.h). */
int
acct_ack_from_body(const struct event_type *t, const struct stored_event *e, const json_t *body,
    char kind[ACCT_ACK_KIND_MAX], char ref[ACCT_ACK_REF_MAX], struct acct_ack *ack, struct pb_error *err)
{
	memset(ack, 0, sizeof(*ack));
	snprintf(ack->by, sizeof(ack->by), "%s", e->actor);
	snprintf(ack->at, sizeof(ack->at), "%s", e->at);
	if (event_text(body, t->name, "kind", EV_REQUIRED, kind, ACCT_ACK_KIND_MAX, err) < 0 ||
	    event_text(body, t->name, "ref", EV_REQUIRED, ref, ACCT_ACK_REF_MAX, err) < 0 ||
	    event_text(body, t->name, "note", EV_REQUIRED, ack->note, sizeof(ack->note), err) < 0)
		return -1;
	return 0;
}

/* The acknowledgment's row from its event alone, as the live acknowledgment writes it (acct_exceptions.c). */
int
acct_ack_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	char kind[ACCT_ACK_KIND_MAX], ref[ACCT_ACK_REF_MAX];
	struct acct_ack ack;

	if (acct_ack_from_body(t, e, body, kind, ref, &ack, err) < 0)
		return -1;
	return store_acct_ack_put(s, e->table_id, kind, ref, &ack, err);
}
