/*
 * reports_drop.c - the summary's drop and win per drop (docs/reports.md):
 * the counted drop (acct_counts.c) of the gaming days wholly inside the
 * summary's range, beside the summary's win of the hands, for groups by
 * gaming day and by table; null for every other group and wherever no drop
 * was counted.
 */
#include <stdlib.h>
#include <string.h>

#include "table/accounting/accounting.h"
#include "table/reports/reports_private.h"

/* A drop's sum and how many drop documents it holds. */
struct drop_sum {
	int64_t drop;
	int count;
};

/* "drop" and "win_per_drop" of a group (or the totals) whose hands won o's "win". */
static int
set_drop(json_t *o, const struct drop_sum *d, bool known)
{
	int64_t win = json_integer_value(json_object_get(o, "win"));

	known = known && d->count > 0;
	if (json_object_set_new(o, "drop", known ? json_integer(d->drop) : json_null()) < 0 ||
	    json_object_set_new(o, "win_per_drop", known && d->drop != 0 ? json_real((double)win / (double)d->drop) :
	    json_null()) < 0)
		return -1;
	return 0;
}

static int
drop_add(struct drop_sum *s, const struct acct_count *c, struct pb_error *err)
{
	s->count += c->drop_count;
	if (__builtin_add_overflow(s->drop, c->drop, &s->drop))
		return pb_fail(err, 500, "report_overflow", "a report sum exceeds 64 bits; narrow the range");
	return 0;
}

/* The group's drop: its gaming day's over the tables in scope, or its table's over the days. */
static int
group_drop(struct pit *p, const struct report_query *q, const bool *in_scope, const struct acct_count *cells,
    int64_t d0, int64_t days, const char *key, struct drop_sum *s, struct pb_error *err)
{
	int64_t day;

	memset(s, 0, sizeof(*s));
	for (size_t t = 0; t < p->cfg->table_count; t++) {
		if (!in_scope[t])
			continue;
		if (q->group == REPORT_GROUP_DAY) {
			if (gaming_day_parse(key, &day) < 0 || day < d0 || day >= d0 + days)
				return 0;
			if (drop_add(s, &cells[t * (size_t)days + (size_t)(day - d0)], err) < 0)
				return -1;
		} else if (strcmp(p->cfg->tables[t].id, key) == 0) {
			for (int64_t d = 0; d < days; d++)
				if (drop_add(s, &cells[t * (size_t)days + (size_t)d], err) < 0)
					return -1;
		}
	}
	return 0;
}

/* The whole gaming days of [from, to): *d0 to *d1 (none when *d1 < *d0), and whether they fill the range. */
static bool
whole_days(const struct gaming_calendar *cal, int64_t from_s, int64_t to_s, int64_t *d0, int64_t *d1)
{
	int64_t a, b, x, y;

	*d0 = gaming_day_of(cal, from_s);
	gaming_day_bounds(cal, *d0, &a, &b);
	if (a < from_s)
		(*d0)++;
	*d1 = gaming_day_of(cal, to_s - 1);
	gaming_day_bounds(cal, *d1, &x, &y);
	if (y > to_s)
		(*d1)--;
	return a == from_s && y == to_s;
}

int
report_drops(struct pit *p, const struct actor *a, const struct report_query *q, json_t *groups, json_t *totals,
    struct pb_error *err)
{
	struct acct_count *cells = NULL;
	struct drop_sum s, all = {0};
	bool *in_scope = NULL, exact;
	int64_t d0, d1;
	size_t i;
	json_t *g;
	int rc = -1;

	exact = q->cal != NULL && whole_days(q->cal, q->from_ms / 1000, q->to_ms / 1000, &d0, &d1);
	if (q->cal == NULL || (q->group != REPORT_GROUP_DAY && q->group != REPORT_GROUP_TABLE) || d1 < d0) {
		json_array_foreach(groups, i, g)
			set_drop(g, &all, false);
		set_drop(totals, &all, false);
		return 0;
	}
	if ((in_scope = calloc(p->cfg->table_count + 1, sizeof(*in_scope))) == NULL)
		return pb_oom(err);
	for (size_t t = 0; t < p->cfg->table_count; t++)
		in_scope[t] = (q->table[0] == '\0' || strcmp(q->table, p->cfg->tables[t].id) == 0) &&
		    (a->token == NULL || token_allows_table(a->token, p->cfg->tables[t].id));
	if (acct_counts(p, d0, d1, &cells, err) < 0)
		goto out;
	json_array_foreach(groups, i, g) {
		if (group_drop(p, q, in_scope, cells, d0, d1 - d0 + 1, json_string_value(json_object_get(g, "key")), &s, err) < 0)
			goto out;
		set_drop(g, &s, true);
	}
	for (size_t t = 0; t < p->cfg->table_count; t++)
		for (int64_t d = 0; in_scope[t] && d <= d1 - d0; d++)
			if (drop_add(&all, &cells[t * (size_t)(d1 - d0 + 1) + (size_t)d], err) < 0)
				goto out;
	set_drop(totals, &all, exact);
	rc = 0;
out:
	free(cells);
	free(in_scope);
	return rc;
}
