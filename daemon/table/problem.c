/*
 * problem.c - appending a problem to a list of problems.
 */
#include "table/problem.h"

#include <stdarg.h>
#include <stdio.h>

void
audit_problem(json_t *problems, const char *table_id, int64_t round_id, int64_t table_seq, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	json_t *o;

	if (problems == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o = json_pack("{s:s,s:s}", "table", table_id ? table_id : "", "problem", msg);
	if (round_id > 0)
		json_object_set_new(o, "round", json_integer(round_id));
	if (table_seq > 0)
		json_object_set_new(o, "event", json_integer(table_seq));
	json_array_append_new(problems, o);
}
