/*
 * acct_documents.c - GET /tables/{t}/documents: a table's accounting
 * documents of one gaming day as the API shows each (the answer of the POST
 * that recorded it), voids and receipts included, each fill and credit with
 * the void that voided it and the receipt that received it (whenever
 * recorded), and its status.  What the page's inventory panel lists.
 */
#include <string.h>

#include "common/gaming_day.h"
#include "common/timeutil.h"
#include "config/config.h"
#include "table/accounting/acct_private.h"

/* The walk of a table's day: the documents so far, and the policy that says an issued slip's status. */
struct documents_walk {
	const struct config *cfg;
	json_t *arr;
};

/* The slip of id among the documents so far, or NULL. */
static json_t *
slip_of(json_t *arr, int64_t id)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (json_integer_value(json_object_get(v, "id")) == id && json_object_get(v, "status") != NULL)
			return v;
	return NULL;
}

/*
 * One document appended to the array; a slip starts "pending" or "issued",
 * a receipt marks the slip it receives ("received"), a void the one it
 * voids ("voided", status "void").
 */
static int
add_document(void *ctx, const struct acct_document *d, struct pb_error *err)
{
	struct documents_walk *w = ctx;
	json_t *o = acct_document_json(d), *slip = d->voids > 0 ? slip_of(w->arr, d->voids) : NULL;
	const char *status = acct_slip_status(w->cfg, d);
	bool receipt = strstr(d->kind, "_receipt") != NULL;

	if (o == NULL)
		return pb_oom(err);
	if (status != NULL) {
		json_object_set_new(o, "voided", json_null());
		json_object_set_new(o, "received", json_null());
		json_object_set_new(o, "status", json_string(status));
	}
	if (slip != NULL && receipt) {
		json_object_set_new(slip, "received", json_pack("{s:I,s:s,s:s,s:s,s:O?}", "id", (json_int_t)d->id, "at", d->at,
		    "signer", d->signer, "witness", d->witness, "witnesses", json_object_get(o, "witnesses")));
		if (json_object_get(slip, "voided") == NULL || json_is_null(json_object_get(slip, "voided")))
			json_object_set_new(slip, "status", json_string("received"));
	} else if (slip != NULL) {
		json_object_set_new(slip, "voided", json_pack("{s:I,s:s,s:s,s:s,s:s}", "id", (json_int_t)d->id, "at", d->at,
		    "reason", d->reason, "signer", d->signer, "witness", d->witness));
		json_object_set_new(slip, "status", json_string("void"));
	}
	json_array_append_new(w->arr, o);
	return 0;
}

int
pit_acct_documents(struct pit *p, const struct actor *a, const char *table_id, const char *gaming_day,
    json_t **out, struct pb_error *err)
{
	const struct gaming_calendar *cal = &p->cfg->property.calendar;
	char day[ACCT_DAY_LEN];
	int64_t n, now = pb_time_now_ms() / 1000;
	struct documents_walk w = {.cfg = p->cfg};

	*out = NULL;
	if (config_table(p->cfg, table_id) == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", table_id);
	if (pit_check_table_access(a, table_id, false, err) < 0)
		return -1;
	if (gaming_day != NULL && gaming_day_parse(gaming_day, &n) < 0)
		return pb_fail(err, 400, "invalid_query", "gaming_day: a date YYYY-MM-DD, e.g. 2026-11-21");
	if (gaming_day == NULL) {
		if (gaming_shift_of(cal, now, &n) < 0)
			n = gaming_day_of(cal, now);
	}
	gaming_day_format(n, day);
	if ((w.arr = json_array()) == NULL)
		return pb_oom(err);
	if (store_acct_table_day(p->store, table_id, day, add_document, &w, err) != 0) {
		json_decref(w.arr);
		return -1;
	}
	*out = json_pack("{s:s,s:s,s:o}", "table", table_id, "gaming_day", day, "documents", w.arr);
	return *out != NULL ? 0 : pb_oom(err);
}
