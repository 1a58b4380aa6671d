/*
 * acct_events.c - an accounting document as its table event's body and
 * back, its recording (row and event in one transaction), and its rebuilding
 * by central restore (acct_private.h, accounting.h).  The row is always made
 * from the body, live and in a restore, so the two cannot differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "store/store.h"
#include "table/accounting/acct_private.h"

const struct event_type *
acct_event_type(const char *kind)
{
	static const struct { const char *kind; enum event_type_id type; } KINDS[] = {
		{"opener", EVT_INVENTORY}, {"closer", EVT_INVENTORY}, {"fill", EVT_FILL}, {"credit", EVT_CREDIT},
		{"fill_void", EVT_FILL_VOID}, {"credit_void", EVT_CREDIT_VOID}, {"drop", EVT_DROP},
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
	if (kind_is(d, "opener", "closer")) {
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
	} else {
		json_object_set_new(b, "box", json_string(d->serial));
		json_object_set_new(b, "cash", json_integer(d->cash));
		json_object_set_new(b, "chips", json_integer(d->chip_value));
		json_object_set_new(b, "markers", json_integer(d->markers));
		json_object_set_new(b, "collections", json_integer(d->collections));
	}
	return b;
}

/* Copies the string field key of b into dst ("" when absent or null); -1 when it is something else or too long. */
static int
get_text(const json_t *b, const char *key, char *dst, size_t n)
{
	const json_t *v = json_object_get(b, key);

	dst[0] = '\0';
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v) || json_string_length(v) >= n)
		return -1;
	memcpy(dst, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

/* The integer field key of b into dst (0 when absent or null); -1 when it is something else. */
static int
get_int(const json_t *b, const char *key, int64_t *dst)
{
	const json_t *v = json_object_get(b, key);

	*dst = 0;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_integer(v))
		return -1;
	*dst = json_integer_value(v);
	return 0;
}

int
acct_from_body(const char *table_id, const char *type, const char *at, const json_t *b, struct acct_document *d,
    struct pb_error *err)
{
	const json_t *chips = json_object_get(b, "chips");
	bool drop = strcmp(type, "drop") == 0;
	int bad = 0;

	memset(d, 0, sizeof(*d));
	snprintf(d->table_id, sizeof(d->table_id), "%s", table_id);
	snprintf(d->at, sizeof(d->at), "%s", at);
	if (strcmp(type, "inventory") == 0)
		bad |= get_text(b, "kind", d->kind, sizeof(d->kind));
	else
		snprintf(d->kind, sizeof(d->kind), "%s", type);
	bad |= get_int(b, "id", &d->id) | get_int(b, "total", &d->total) | get_int(b, "year", &d->year);
	bad |= get_text(b, "gaming_day", d->gaming_day, sizeof(d->gaming_day)) | get_text(b, "shift", d->shift, sizeof(d->shift));
	bad |= get_text(b, "signer", d->signer, sizeof(d->signer)) | get_text(b, "witness", d->witness, sizeof(d->witness));
	bad |= get_text(b, "reason", d->reason, sizeof(d->reason)) | get_int(b, "voids", &d->voids);
	bad |= get_text(b, "runner", d->runner, sizeof(d->runner)) | get_text(b, "requester", d->requester, sizeof(d->requester));
	bad |= get_text(b, drop ? "box" : "serial", d->serial, sizeof(d->serial));
	if (drop) {
		bad |= get_int(b, "cash", &d->cash) | get_int(b, "chips", &d->chip_value) | get_int(b, "markers", &d->markers);
		bad |= get_int(b, "collections", &d->collections);
	} else if (json_is_object(chips)) {
		char *text = json_dumps(chips, JSON_COMPACT | JSON_SORT_KEYS);
		if (text == NULL)       /* a parsed object always has a text: out of memory, not a bad body */
			return pb_oom(err);
		if (strlen(text) >= sizeof(d->chips_json))
			bad = -1;
		else
			snprintf(d->chips_json, sizeof(d->chips_json), "%s", text);
		free(text);
	}
	d->has_discrepancy = json_is_integer(json_object_get(b, "discrepancy"));
	d->discrepancy = d->has_discrepancy ? json_integer_value(json_object_get(b, "discrepancy")) : 0;
	if (bad || d->id <= 0 || d->kind[0] == '\0' || d->gaming_day[0] == '\0' || d->signer[0] == '\0')
		return pb_fail(err, 422, "central_unreadable", "table %s: a %s event whose body is not an accounting document",
		    table_id, type);
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
	if (acct_from_body(d->table_id, type->name, d->at, body, &row, err) == 0 && store_acct_put(p->store, &row, err) == 0 &&
	    store_append_event(p->store, row.table_id, 0, type, row.at, a->name, body, err) == 0) {
		*out = acct_document_json(&row);
		rc = *out != NULL ? 0 : pb_oom(err);
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

int
acct_restore_event(struct store *s, const char *table_id, const char *type, const char *at, const char *actor,
    const char *body, bool *handled, struct pb_error *err)
{
	static const char *const TYPES[] = {"inventory", "fill", "credit", "fill_void", "credit_void", "drop", NULL};
	struct acct_document d;
	json_t *b;
	int rc;

	*handled = strcmp(type, "exception_acknowledged") == 0;
	for (int i = 0; TYPES[i] != NULL; i++)
		*handled = *handled || strcmp(type, TYPES[i]) == 0;
	if (!*handled)
		return 0;
	if ((b = json_loads(body, 0, NULL)) == NULL)
		return pb_fail(err, 422, "central_unreadable", "table %s: a %s event with an unreadable body", table_id, type);
	if (strcmp(type, "exception_acknowledged") == 0) {
		struct acct_ack ack;
		char kind[32] = "", ref[64] = "";
		memset(&ack, 0, sizeof(ack));
		snprintf(ack.by, sizeof(ack.by), "%s", actor);
		snprintf(ack.at, sizeof(ack.at), "%s", at);
		rc = get_text(b, "kind", kind, sizeof(kind)) | get_text(b, "ref", ref, sizeof(ref)) |
		    get_text(b, "note", ack.note, sizeof(ack.note));
		rc = rc == 0 ? store_acct_ack_put(s, table_id, kind, ref, &ack, err)
		    : pb_fail(err, 422, "central_unreadable", "table %s: an unreadable acknowledgment", table_id);
	} else {
		rc = acct_from_body(table_id, type, at, b, &d, err);
		if (rc == 0)
			rc = store_acct_put(s, &d, err);
	}
	json_decref(b);
	return rc;
}
