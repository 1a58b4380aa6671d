/*
 * reports_dealers.c - the dealer rotation report: who dealt at which table
 * from when until when, from the dealer changes (table/rounds/rounds.h) made in
 * the range, oldest first.
 */
#include <stdlib.h>

#include "store/store.h"
#include "table/reports/reports_private.h"

/* One change as the report lists it: {"table", "person", "name", "at", "until", "by"}; null for what is not. */
static json_t *
change_json(const struct dealer_change *c)
{
	return json_pack("{s:s,s:o,s:o,s:s,s:o,s:s}", "table", c->table_id,
	    "person", c->person_id[0] ? json_string(c->person_id) : json_null(),
	    "name", c->person_id[0] ? json_string(c->person_name) : json_null(), "at", c->at,
	    "until", c->until[0] ? json_string(c->until) : json_null(), "by", c->by);
}

int
pit_report_dealers(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err)
{
	struct dealer_change *rows = NULL;
	char from[PB_TIME_LEN], to[PB_TIME_LEN], *scope = NULL;
	json_t *arr;
	int n = 0, rc = -1;

	*out = NULL;
	if (report_scope(p, a, q, &scope, err) < 0)
		return -1;
	/* One more than the limit: "truncated" says whether there were more. */
	if ((rows = calloc((size_t)q->limit + 1, sizeof(*rows))) == NULL) {
		pb_oom(err);
		goto out;
	}
	pb_time_format_ms(q->from_ms, from);
	pb_time_format_ms(q->to_ms, to);
	if (store_dealer_changes(p->store, scope, from, to, q->limit + 1, rows, &n, err) < 0)
		goto out;
	arr = json_array();
	for (int i = 0; i < n && i < q->limit; i++)
		json_array_append_new(arr, change_json(&rows[i]));
	*out = json_pack("{s:s,s:s,s:o,s:i,s:b,s:o}", "from", from, "to", to, "table", report_table_json(q),
	    "limit", q->limit, "truncated", n > q->limit, "changes", arr);
	rc = *out != NULL ? 0 : pb_oom(err);
out:
	free(rows);
	free(scope);
	return rc;
}
