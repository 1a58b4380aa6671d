/*
 * acct_serial_exceptions.c - the serial exceptions of the exceptions
 * report (kind serial_gap, docs/accounting.md "Serial control"): the
 * problems of the fill and credit series (table/accounting/acct_serials.c)
 * of the years the report's range touches, each with its explanation
 * (serial_explained) or null.  An exception is listed when the slip that
 * shows it was recorded in the range, and, until it is accounted for, in
 * every later report of its year.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "store/serials.h"
#include "table/accounting/accounting.h"
#include "table/reports/reports_private.h"
#include "table/rounds/rounds.h"

/* The most years of series one report walks (the latest ones of its range). */
#define SERIAL_YEARS_MAX 10

struct serial_walk {
	struct pit *p;
	const struct actor *a;
	const struct report_query *q;
	char from[PB_TIME_LEN], to[PB_TIME_LEN];
	json_t *arr;
};

/* The exception's words: what is missing or wrong, and where. */
static void
serial_detail(const struct pit *p, const struct acct_serial_problem *x, char *out, size_t n)
{
	const struct serial_series *s = &p->cfg->accounting.serials[acct_serial_kind_of(x->kind)];

	if (strcmp(x->problem, "gap") == 0)
		snprintf(out, n, "%s serials %s to %s (%lld) are missing between %s and %s (%lld): void or explain them",
		    x->kind, x->serial, x->last, (long long)x->count, x->before, x->after, (long long)x->year);
	else if (strcmp(x->problem, "duplicate") == 0)
		snprintf(out, n, "serial %s is used by %lld slips not voided (%lld); the last is this %s at table %s", x->serial,
		    (long long)x->count, (long long)x->year, x->kind, x->table_id);
	else
		snprintf(out, n, "%s serial %s (%lld) is outside its series: \"%s\" and %d digits", x->kind, x->serial,
		    (long long)x->year, s->prefix, s->digits);
}

/* One problem into the list when its table is in scope and the range shows it (acct_serial_problem_fn). */
static int
add_problem(void *ctx, const struct acct_serial_problem *x, struct pb_error *err)
{
	struct serial_walk *w = ctx;
	struct serial_explanation e;
	char detail[400];
	bool explained, in_range = strcmp(x->at, w->from) >= 0 && strcmp(x->at, w->to) < 0;
	json_t *o, *ex;

	if ((w->q->table[0] && strcmp(w->q->table, x->table_id) != 0) ||
	    (w->a->token != NULL && !token_allows_table(w->a->token, x->table_id)) || strcmp(x->at, w->to) >= 0)
		return 0;
	if (store_serial_expl_of(w->p->store, x->kind, x->year, x->serial, &e, &explained, err) < 0)
		return -1;
	if (!in_range && explained)
		return 0;
	ex = explained ? json_pack("{s:s,s:s,s:s,s:s,s:s}", "by", e.by, "witness", e.witness, "at", e.at, "note", e.note,
	    "table", e.table_id) : json_null();
	serial_detail(w->p, x, detail, sizeof(detail));
	o = json_pack("{s:s,s:s,s:n,s:s,s:s,s:s,s:s,s:s,s:I,s:s,s:s,s:I,s:I,s:o}", "at", x->at, "table", x->table_id,
	    "round", "kind", "serial_gap", "problem", x->problem, "detail", detail, "ref", x->serial, "slip", x->kind,
	    "year", (json_int_t)x->year, "first", x->serial, "last", x->last[0] ? x->last : x->serial,
	    "count", (json_int_t)x->count, "document", (json_int_t)x->document, "explained", ex);
	if (o == NULL)
		return pb_oom(err);
	json_array_append_new(w->arr, o);
	return 0;
}

int
acct_serial_exceptions(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr,
    struct pb_error *err)
{
	const struct gaming_calendar *cal = &p->cfg->property.calendar;
	struct serial_walk w = {.p = p, .a = a, .q = q, .arr = arr};
	char first_day[11], last_day[11];     /* YYYY-MM-DD */
	int first, last;

	pb_time_format_ms(q->from_ms, w.from);
	pb_time_format_ms(q->to_ms, w.to);
	gaming_day_format(gaming_day_of(cal, report_floor_div(q->from_ms, 1000)), first_day);
	gaming_day_format(gaming_day_of(cal, report_floor_div(q->to_ms - 1, 1000)), last_day);
	first = atoi(first_day);
	last = atoi(last_day);
	if (last - first >= SERIAL_YEARS_MAX)
		first = last - SERIAL_YEARS_MAX + 1;
	for (int year = first; year <= last; year++)
		if (acct_serial_problems(p, year, add_problem, &w, err) < 0)
			return -1;
	return 0;
}
