/*
 * problem.c - appending a problem to a list of problems, and the parts of a
 * check whose findings count only when they were completed, and the sink
 * that names the first problems of a walk and counts the rest.
 */
#include "table/core/problem.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "common/json_alloc.h"
#include "store/audit.h"

/* The problem object, appended; -1 when anything of it could not be allocated. */
static int
append(json_t *problems, const char *table_id, int64_t round_id, int64_t table_seq, bool unchecked, const char *msg)
{
	json_t *o = json_pack("{s:s,s:s}", "table", table_id ? table_id : "", "problem", msg);

	if (o == NULL)
		return -1;
	if ((round_id > 0 && json_object_set_new(o, "round", json_integer(round_id)) < 0) ||
	    (table_seq > 0 && json_object_set_new(o, "event", json_integer(table_seq)) < 0) ||
	    (unchecked && json_object_set_new(o, "unchecked", json_true()) < 0)) {
		json_decref(o);
		return -1;
	}
	return json_array_append_new(problems, o) < 0 ? -1 : 0;
}

/*
 * The problem fmt and ap say, formatted and cut at 511 bytes, appended
 * (append); 0 without appending when problems is NULL.
 */
static int __attribute__((format(printf, 6, 0)))
append_v(json_t *problems, const char *table_id, int64_t round_id, int64_t table_seq, bool unchecked, const char *fmt,
    va_list ap)
{
	char msg[512];

	if (problems == NULL)
		return 0;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	return append(problems, table_id, round_id, table_seq, unchecked, msg);
}

int
audit_problem(json_t *problems, const char *table_id, int64_t round_id, int64_t table_seq, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = append_v(problems, table_id, round_id, table_seq, false, fmt, ap);
	va_end(ap);
	return rc;
}

int
audit_unchecked(json_t *problems, const char *table_id, int64_t round_id, int64_t table_seq, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = append_v(problems, table_id, round_id, table_seq, true, fmt, ap);
	va_end(ap);
	return rc;
}

void
check_part_begin(struct check_part *c, json_t *problems)
{
	c->problems = problems;
	c->first = json_array_size(problems);
	c->json_failures = json_alloc_failures();
}

int
check_part_end(struct check_part *c, int rc, struct pb_error *err)
{
	if (rc == 0 && json_alloc_failures() == c->json_failures)
		return 0;
	if (rc == 0 || json_alloc_failures() != c->json_failures)
		pb_oom(err);
	if (!pb_is_oom(err))
		return -1;
	while (json_array_size(c->problems) > c->first)
		json_array_remove(c->problems, json_array_size(c->problems) - 1);
	return -1;
}

void
problem_sink_init(struct problem_sink *k, json_t *problems, int cap, const char *more)
{
	k->problems = problems;
	k->cap = cap;
	k->found = 0;
	k->more = more;
}

int
problem_sink_event(struct problem_sink *k, const struct stored_event *e, struct pb_error *err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	if (k->found++ >= k->cap)
		return 0;
	va_start(ap, fmt);
	rc = append_v(k->problems, e->table_id, e->round_id, e->table_seq, false, fmt, ap);
	va_end(ap);
	return rc < 0 ? pb_oom(err) : 0;
}

int
problem_sink_end(struct problem_sink *k, struct pb_error *err)
{
	if (k->found <= k->cap)
		return 0;
	return audit_problem(k->problems, "", 0, 0, "%d more %s", k->found - k->cap, k->more) < 0 ? pb_oom(err) : 0;
}
