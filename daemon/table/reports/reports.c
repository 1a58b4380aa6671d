/*
 * reports.c - the reports' common ground: who may read them and which
 * tables (the scope every report reads within), and the JSON of a time and
 * of the table asked for.  It calls no report: each report calls it.
 *
 * The pieces, by subsystem:
 *   reports_query.c    the request: parameters, time bounds, shifts
 *   reports_summary.c  the summary: grouping, accumulation, series, reading
 *   reports_figures.c  hold, theoretical win and its interval; the games' analysis
 *   reports_lists.c    the largest payouts and the exceptions
 *   reports_csv.c      every report as CSV
 *   banker.c           the banker report (player-banked tables)
 *   reports_kind.c     the report of a kind (pit_report)
 * docs/reports.md says how every figure is computed; keep the two in step.
 */
#include <stdlib.h>

#include "table/reports/reports_private.h"

/*
 * Checks the role and the table, and builds the scope: a JSON array of the
 * tables the report may read, or NULL (*scope) for every table.
 */
int
report_scope(struct pit *p, const struct actor *a, const struct report_query *q, char **scope, struct pb_error *err)
{
	json_t *arr;

	*scope = NULL;
	if (authorize(a, OP_REPORT_READ, NULL, err) < 0)
		return -1;
	if (q->table[0] != '\0') {
		if (config_table(p->cfg, q->table) == NULL)
			return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", q->table);
		if (pit_check_table_access(a, q->table, false, err) < 0)
			return -1;
		arr = json_pack("[s]", q->table);
	} else if (a->token != NULL && !a->token->all_tables) {
		arr = json_array();
		for (size_t i = 0; i < a->token->table_count; i++)
			json_array_append_new(arr, json_string(a->token->tables[i]));
	} else {
		return 0;
	}
	*scope = arr ? json_dumps(arr, JSON_COMPACT) : NULL;
	json_decref(arr);
	if (*scope == NULL)
		return pb_oom(err);
	return 0;
}

json_t *
report_time_json(int64_t ms)
{
	char t[PB_TIME_LEN];

	pb_time_format_ms(ms, t);
	return json_string(t);
}

json_t *
report_table_json(const struct report_query *q)
{
	return q->table[0] ? json_string(q->table) : json_null();
}
