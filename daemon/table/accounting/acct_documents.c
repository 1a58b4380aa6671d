/*
 * acct_documents.c - GET /tables/{t}/documents: a table's accounting
 * documents of one gaming day as the API shows each (the answer of the POST
 * that recorded it), voids included, each fill and credit with the void that
 * voided it (whenever recorded).  What the page's inventory panel lists.
 */
#include <string.h>

#include "common/gaming_day.h"
#include "common/timeutil.h"
#include "config/config.h"
#include "table/accounting/acct_private.h"

/* One document appended to the array; a void also marks the slip it voids ("voided"). */
static int
add_document(void *ctx, const struct acct_document *d, struct pb_error *err)
{
	json_t *arr = ctx, *o = acct_document_json(d);
	size_t i;
	json_t *v;

	if (o == NULL)
		return pb_oom(err);
	if (strcmp(d->kind, "fill") == 0 || strcmp(d->kind, "credit") == 0)
		json_object_set_new(o, "voided", json_null());
	if (d->voids > 0) {
		json_array_foreach(arr, i, v) {
			if (json_integer_value(json_object_get(v, "id")) == d->voids)
				json_object_set_new(v, "voided", json_pack("{s:I,s:s,s:s,s:s,s:s}", "id", (json_int_t)d->id,
				    "at", d->at, "reason", d->reason, "signer", d->signer, "witness", d->witness));
		}
	}
	json_array_append_new(arr, o);
	return 0;
}

int
pit_acct_documents(struct pit *p, const struct actor *a, const char *table_id, const char *gaming_day,
    json_t **out, struct pb_error *err)
{
	const struct gaming_calendar *cal = &p->cfg->property.calendar;
	char day[ACCT_DAY_LEN];
	int64_t n, now = pb_time_now_ms() / 1000;
	json_t *arr;

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
	arr = json_array();
	if (arr == NULL)
		return pb_oom(err);
	if (store_acct_table_day(p->store, table_id, day, add_document, arr, err) != 0) {
		json_decref(arr);
		return -1;
	}
	*out = json_pack("{s:s,s:s,s:o}", "table", table_id, "gaming_day", day, "documents", arr);
	return *out != NULL ? 0 : pb_oom(err);
}
