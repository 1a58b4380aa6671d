/*
 * report.c - `pitboss central report`: the summary across properties
 * (docs/central.md, "Reports").  PostgreSQL sums each property's finished
 * rounds per table, UTC hour, dealer and game (pitboss.report_hours, kept
 * by a trigger from pitboss.round_facts); here each property's rows go
 * through the property's own summary code (table/reports/reports.h, report_feed)
 * with its own calendar and range, and the properties' groups are merged:
 * the same figures, and the same JSON, as each property's summary.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "central/central_int.h"
#include "common/timeutil.h"
#include "config/property.h"
#include "engine/rules.h"
#include "store/reports.h"
#include "table/reports/reports.h"
#include "table/ops/ops.h"

static const char PROPERTIES[] =
    "SELECT property, coalesce(nullif(name, ''), property), time_zone, gaming_day_start, shifts "
    "FROM pitboss.properties WHERE $1::text IS NULL OR property = ANY (string_to_array($1, ',')) ORDER BY property";
static const char GAMES[] = "SELECT id, sha256, body FROM pitboss.rules ORDER BY id";
static const char HOURS[] =
    "SELECT h.table_id, h.hour, h.dealer, r.id, h.rounds, h.voids, h.hands, h.handle, h.house_win, h.lines, "
    "h.first_ms, h.last_ms, h.dealer_name, h.banked_rounds, h.banked_handle, h.banked_win, h.banked_lines, "
    "h.collections FROM pitboss.report_hours h JOIN pitboss.rules r ON r.sha256 = h.rules_sha256 "
    "WHERE h.property = $1 AND h.hour >= $2::bigint AND h.hour < $3::bigint "
    "ORDER BY h.hour, h.table_id, h.dealer, r.id";

/*
 * The roll-up rows (schema version 4) of one property with start in
 * [$2, $3), as HOURS's columns (first_ms and last_ms 0) then play_ms and
 * carry_ms: the rows kept per table over its dealers (%s: "x.table_id",
 * "''", the last %s: KIND_TABLE), per dealer over the tables, or for the
 * whole property; from report_days (%s: day) or report_months (month).
 * One row per group and game: the grouping only names the columns.
 */
static const char SPANS[] =
    "SELECT %s, x.%s, %s, r.id, sum(x.rounds)::bigint, sum(x.voids)::bigint, sum(x.hands)::bigint, "
    "array[sum(x.handle[1])::bigint, sum(x.handle[2])::bigint, sum(x.handle[3])::bigint, "
    "sum(x.handle[4])::bigint, sum(x.handle[5])::bigint], "
    "array[sum(x.house_win[1])::bigint, sum(x.house_win[2])::bigint, sum(x.house_win[3])::bigint, "
    "sum(x.house_win[4])::bigint, sum(x.house_win[5])::bigint], "
    "array[sum(x.lines[1])::bigint, sum(x.lines[2])::bigint, sum(x.lines[3])::bigint, "
    "sum(x.lines[4])::bigint, sum(x.lines[5])::bigint], 0, 0, "
    "(array_agg(x.dealer_name ORDER BY x.table_id DESC))[1], sum(x.banked_rounds)::bigint, "
    "array[sum(x.banked_handle[1])::bigint, sum(x.banked_handle[2])::bigint, sum(x.banked_handle[3])::bigint, "
    "sum(x.banked_handle[4])::bigint, sum(x.banked_handle[5])::bigint], "
    "array[sum(x.banked_win[1])::bigint, sum(x.banked_win[2])::bigint, sum(x.banked_win[3])::bigint, "
    "sum(x.banked_win[4])::bigint, sum(x.banked_win[5])::bigint], "
    "array[sum(x.banked_lines[1])::bigint, sum(x.banked_lines[2])::bigint, sum(x.banked_lines[3])::bigint, "
    "sum(x.banked_lines[4])::bigint, sum(x.banked_lines[5])::bigint], "
    "sum(x.collections)::bigint, sum(x.play_ms)::bigint, sum(x.carry_ms)::bigint "
    "FROM pitboss.report_%s x JOIN pitboss.rules r ON r.sha256 = x.rules_sha256 "
    "WHERE x.property = $1 AND x.%s >= $2::bigint AND x.%s < $3::bigint AND %s "
    "GROUP BY 1, 2, 3, r.id ORDER BY 2, 1, 3, 4";
#define KIND_TABLE "x.table_id <> '' AND x.dealer = ''"
#define KIND_DEALER "x.table_id = '' AND x.dealer <> ''"
#define KIND_PROPERTY "x.table_id = '' AND x.dealer = ''"
static const char HAS_SPANS[] = "SELECT to_regclass('pitboss.report_days') IS NOT NULL";

/* What one report needs along the way. */
struct central_run {
	const struct central_report_options *o;
	PGconn *pg;
	PGresult *games;                 /* every game: its id, hash and rules object */
	struct report_feed *all;         /* the properties merged */
	enum report_group group;         /* each property's own grouping (property: by table, totals taken) */
	enum report_merge merge;
	json_t *properties;              /* [{"property", "name", "time_zone", "from", "to"}] */
	json_t *names;                   /* "PROPERTY/KEY" or "PROPERTY" -> a name to show */
	int64_t now_ms;
	bool spans;                      /* the schema has the roll-ups (version 4) */
};

/* "{1,2,3}" (a bigint[] as text) into v[0..n); missing elements are 0. */
static void
parse_array(const char *text, int64_t *v, int n)
{
	const char *p = text;

	memset(v, 0, (size_t)n * sizeof(*v));
	if (*p == '{')
		p++;
	for (int i = 0; i < n && *p != '\0' && *p != '}'; i++) {
		char *end;
		v[i] = strtoll(p, &end, 10);
		p = *end == ',' ? end + 1 : end;
	}
}

/*
 * A number column of HOURS and the report_hour member it is read into: an
 * integer (n 1), or a bigint[] of the wagers (n WAGER_COUNT).  The macros
 * refuse, at compile time, a member of another type.
 */
struct hour_column {
	int col;
	size_t offset;
	int n;
};
#define HOUR_INT(col, m) {(col), _Generic(((struct report_hour *)0)->m, int64_t: offsetof(struct report_hour, m)), 1}
#define HOUR_WAGERS(col, m) \
	{(col), _Generic(&((struct report_hour *)0)->m, int64_t (*)[WAGER_COUNT]: offsetof(struct report_hour, m)), WAGER_COUNT}

/* HOURS's number columns (12, the dealer's name, names the dealer: feed_hours). */
static const struct hour_column HOUR_COLUMNS[] = {
	HOUR_INT(1, hour), HOUR_INT(3, rules_id),
	HOUR_INT(4, rounds), HOUR_INT(5, voids), HOUR_INT(6, hands),
	HOUR_WAGERS(7, handle), HOUR_WAGERS(8, house_win), HOUR_WAGERS(9, lines),
	HOUR_INT(10, first_ms), HOUR_INT(11, last_ms),
	HOUR_INT(13, banked_rounds), HOUR_WAGERS(14, banked_handle), HOUR_WAGERS(15, banked_win), HOUR_WAGERS(16, banked_lines),
	HOUR_INT(17, collections),
};

/* Row i of HOURS as the summary reads a row of report_hours. */
static void
hour_row(PGresult *r, int i, struct report_hour *row)
{
	memset(row, 0, sizeof(*row));
	snprintf(row->table_id, sizeof(row->table_id), "%s", PQgetvalue(r, i, 0));
	snprintf(row->dealer, sizeof(row->dealer), "%s", PQgetvalue(r, i, 2));
	for (size_t k = 0; k < sizeof(HOUR_COLUMNS) / sizeof(HOUR_COLUMNS[0]); k++) {
		const struct hour_column *c = &HOUR_COLUMNS[k];
		int64_t *v = (int64_t *)((char *)row + c->offset);

		if (c->n == 1)
			*v = strtoll(PQgetvalue(r, i, c->col), NULL, 10);
		else
			parse_array(PQgetvalue(r, i, c->col), v, c->n);
	}
}

/* Every game into a feed (analysed once per process, by its hash). */
static int
feed_games(struct central_run *run, struct report_feed *f, struct pb_error *err)
{
	for (int i = 0; i < PQntuples(run->games); i++) {
		json_error_t je;
		json_t *obj = json_loads(PQgetvalue(run->games, i, 2), 0, &je);
		struct rules r;
		int rc = obj != NULL ? rules_from_json(obj, &r, err) : pb_fail(err, 500, "central_corrupt",
		    "pitboss.rules %s: not JSON", PQgetvalue(run->games, i, 1));
		json_decref(obj);
		if (rc < 0 || report_feed_game(f, strtoll(PQgetvalue(run->games, i, 0), NULL, 10), &r,
		    PQgetvalue(run->games, i, 1), err) < 0)
			return -1;
	}
	return 0;
}

/* The property's settings as its configuration would have them. */
static int
property_of(PGresult *r, int i, struct property_config *pc, struct pb_error *err)
{
	json_error_t je;
	json_t *shifts = json_loads(PQgetvalue(r, i, 4), 0, &je), *obj;
	int rc;

	obj = json_pack("{s:s,s:s,s:s,s:s,s:o}", "id", PQgetvalue(r, i, 0), "name", PQgetvalue(r, i, 1), "time_zone",
	    PQgetvalue(r, i, 2), "gaming_day_start", PQgetvalue(r, i, 3), "shifts", shifts != NULL ? shifts : json_array());
	if (obj == NULL)
		return pb_oom(err);
	rc = property_from_json(obj, pc, err);
	json_decref(obj);
	if (rc < 0)
		return pb_fail(err, 500, "central_corrupt", "property %s's calendar: %s", PQgetvalue(r, i, 0), err->message);
	return 0;
}

/* Reads one property's hour rows in [from, to) into f, counted within [emit_from, emit_to); names its dealers. */
static int
feed_hours(struct central_run *run, const char *property, int64_t from_s, int64_t to_s, int64_t emit_from,
    int64_t emit_to, struct report_feed *f, struct pb_error *err)
{
	char from[24], to[24], key[128];
	const char *p[3] = {property, from, to};
	struct report_hour row;
	PGresult *r;

	snprintf(from, sizeof(from), "%" PRId64, from_s);
	snprintf(to, sizeof(to), "%" PRId64, to_s);
	if (central_exec(run->pg, HOURS, 3, p, &r, err) < 0)
		return -1;
	report_feed_emit(f, emit_from, emit_to);
	for (int i = 0; i < PQntuples(r); i++) {
		hour_row(r, i, &row);
		if (report_feed_row(f, &row, err) < 0) {
			PQclear(r);
			return -1;
		}
		snprintf(key, sizeof(key), "%s/%s", property, row.dealer);
		json_object_set_new(run->names, key, json_string(PQgetvalue(r, i, 12)));
	}
	PQclear(r);
	return report_feed_flush(f, err);
}

/*
 * Reads one property's roll-up rows of [from, to) (days, or months) into f
 * as report_feed_span takes them (carry_only: day b's carry alone); names
 * the dealers read by dealer.
 */
static int
feed_spans(struct central_run *run, const char *property, bool months, int64_t from_s, int64_t to_s, bool carry_only,
    int64_t spans_from, struct report_feed *f, struct pb_error *err)
{
	bool by_dealer = run->group == REPORT_GROUP_DEALER;
	const char *start = months ? "month" : "day";
	char from[24], to[24], key[128], sql[sizeof(SPANS) + 160];
	const char *p[3] = {property, from, to};
	struct report_hour row;
	PGresult *r;
	int rc = 0;

	if (to_s <= from_s)
		return 0;
	snprintf(from, sizeof(from), "%" PRId64, from_s);
	snprintf(to, sizeof(to), "%" PRId64, to_s);
	snprintf(sql, sizeof(sql), SPANS, by_dealer || run->group == REPORT_GROUP_DAY ? "''" : "x.table_id", start,
	    by_dealer ? "x.dealer" : "''", months ? "months" : "days", start, start,
	    by_dealer ? KIND_DEALER : run->group == REPORT_GROUP_DAY ? KIND_PROPERTY : KIND_TABLE);
	if (central_exec(run->pg, sql, 3, p, &r, err) < 0)
		return -1;
	for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
		hour_row(r, i, &row);
		row.span = months ? (by_dealer ? REPORT_SPAN_MONTH_DEALER_ALL : REPORT_SPAN_MONTH_TABLE) :
		    by_dealer ? REPORT_SPAN_DAY_DEALER_ALL : REPORT_SPAN_DAY_TABLE;
		row.play_ms = strtoll(PQgetvalue(r, i, 18), NULL, 10);
		row.carry_ms = strtoll(PQgetvalue(r, i, 19), NULL, 10);
		rc = report_feed_span(f, &row, carry_only, spans_from, err);
		if (by_dealer && !carry_only) {
			snprintf(key, sizeof(key), "%s/%s", property, row.dealer);
			json_object_set_new(run->names, key, json_string(PQgetvalue(r, i, 12)));
		}
	}
	PQclear(r);
	return rc;
}

/*
 * One property's rows of its range q into f, as its own summary reads
 * them (report_split_range): roll-ups for the whole days and months, hours
 * at the ends; hours only without roll-ups or whole days.
 */
static int
feed_property(struct central_run *run, const char *property, const struct report_query *q, struct report_feed *f,
    struct pb_error *err)
{
	struct report_split sp;

	report_split_range(q, INT64_MAX, &sp);
	if (!run->spans || !sp.spans)
		return feed_hours(run, property, sp.from - 3600, sp.to + 3600, sp.from, sp.to, f, err);
	if (sp.from < sp.a && feed_hours(run, property, sp.from - 3600, sp.a + 3600, sp.from, sp.a, f, err) < 0)
		return -1;
	if (feed_spans(run, property, false, sp.a, sp.m1, false, sp.a, f, err) < 0 ||
	    feed_spans(run, property, true, sp.m1, sp.m2, false, sp.a, f, err) < 0 ||
	    feed_spans(run, property, false, sp.m2, sp.b, false, sp.a, f, err) < 0 ||
	    feed_spans(run, property, false, sp.b, sp.b + 86400, true, sp.a, f, err) < 0)
		return -1;
	return feed_hours(run, property, sp.b - 3600, sp.to + 3600, sp.b, sp.to, f, err);
}

/* One property: its query (its calendar, the range in its gaming days), its rows, merged into the whole. */
static int
report_property(struct central_run *run, PGresult *props, int i, struct pb_error *err)
{
	const char *property = PQgetvalue(props, i, 0);
	struct property_config pc;
	struct report_params rp = {.from = run->o->from, .to = run->o->to,
	    .group = run->merge == REPORT_MERGE_TOTALS ? "table" : run->o->group};
	char from[PB_TIME_LEN], to[PB_TIME_LEN];
	struct report_query q;
	struct report_feed *f = NULL;
	int rc = -1;

	if (property_of(props, i, &pc, err) < 0)
		return -1;
	rp.property = &pc;
	if (report_query_parse(REPORT_SUMMARY, &rp, run->now_ms, &q, err) < 0 || (f = report_feed_new(&q, err)) == NULL ||
	    feed_games(run, f, err) < 0 || feed_property(run, property, &q, f, err) < 0 ||
	    report_feed_merge(run->all, f, property, run->merge, err) < 0)
		goto out;
	json_object_set_new(run->names, property, json_string(PQgetvalue(props, i, 1)));
	pb_time_format_ms(q.from_ms, from);
	pb_time_format_ms(q.to_ms, to);
	json_array_append_new(run->properties, json_pack("{s:s,s:s,s:s,s:s,s:s}", "property", property, "name",
	    PQgetvalue(props, i, 1), "time_zone", pc.time_zone, "from", from, "to", to));
	rc = 0;
out:
	report_feed_free(f);
	property_release(&pc);
	return rc;
}

/* Splits each group's "PROPERTY/KEY" into its parts, and names what has a name. */
static void
label_groups(struct central_run *run, json_t *groups)
{
	const char *part = run->o->group;
	size_t i;
	json_t *g;

	json_array_foreach(groups, i, g) {
		const char *key = json_string_value(json_object_get(g, "key")), *slash;
		json_t *name = json_object_get(run->names, key);
		if (run->merge == REPORT_MERGE_TOTALS)
			json_object_set_new(g, "property", json_string(key));
		if (run->merge == REPORT_MERGE_PREFIXED && (slash = strchr(key, '/')) != NULL) {
			json_object_set_new(g, "property", json_stringn(key, (size_t)(slash - key)));
			json_object_set_new(g, part, json_string(slash + 1));
		}
		if (name != NULL && run->merge != REPORT_MERGE_KEY && strcmp(part, "table") != 0)
			json_object_set(g, "name", name);
	}
}

/* How each property is grouped and how its groups join the whole, for the report's group. */
static int
grouping(struct central_run *run, struct pb_error *err)
{
	const char *g = run->o->group;

	if (strcmp(g, "property") == 0) {
		run->group = REPORT_GROUP_TABLE;
		run->merge = REPORT_MERGE_TOTALS;
	} else if (strcmp(g, "table") == 0 || strcmp(g, "dealer") == 0) {
		run->group = strcmp(g, "table") == 0 ? REPORT_GROUP_TABLE : REPORT_GROUP_DEALER;
		run->merge = REPORT_MERGE_PREFIXED;
	} else if (strcmp(g, "day") == 0 || strcmp(g, "shift") == 0) {
		run->group = strcmp(g, "day") == 0 ? REPORT_GROUP_DAY : REPORT_GROUP_SHIFT;
		run->merge = REPORT_MERGE_KEY;
	} else {
		return pb_fail(err, 400, "invalid_query", "--group: property, table, day, shift or dealer, not \"%s\"", g);
	}
	return 0;
}

/* The report's JSON: the query, the properties read, the groups and totals. */
static int
assemble(struct central_run *run, json_t **out, struct pb_error *err)
{
	json_t *body = report_feed_json(run->all, err);

	if (body == NULL)
		return -1;
	label_groups(run, json_object_get(body, "groups"));
	*out = json_pack("{s:s,s:o,s:o,s:O}", "group", run->o->group,
	    "from", run->o->from ? json_string(run->o->from) : json_null(),
	    "to", run->o->to ? json_string(run->o->to) : json_null(), "properties", run->properties);
	if (*out == NULL || json_object_update(*out, body) < 0) {
		json_decref(body);
		return pb_oom(err);
	}
	json_decref(body);
	return 0;
}

/* How many properties a comma-separated list names. */
static int
property_count(const char *list)
{
	int n = 1;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

int
central_report(const struct central_report_options *o, json_t **out, struct pb_error *err)
{
	struct central_run run = {.o = o, .now_ms = o->now_ms > 0 ? o->now_ms : pb_time_now_ms()};
	const char *p[1] = {o->property};
	PGresult *props = NULL;
	struct report_query all_q;
	int rc = -1;

	*out = NULL;
	if (grouping(&run, err) < 0)
		return -1;
	memset(&all_q, 0, sizeof(all_q));
	all_q.group = run.group;
	run.properties = json_array();
	run.names = json_object();
	if ((run.all = report_feed_new(&all_q, err)) == NULL || (run.pg = central_connect(o->conninfo, err)) == NULL)
		goto out;
	/* one snapshot: every property's rows as of one moment */
	if (central_exec(run.pg, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", 0, NULL, NULL, err) < 0 ||
	    central_exec(run.pg, HAS_SPANS, 0, NULL, &props, err) < 0)
		goto out;
	run.spans = PQgetvalue(props, 0, 0)[0] == 't';
	PQclear(props);
	props = NULL;
	if (central_exec(run.pg, GAMES, 0, NULL, &run.games, err) < 0 ||
	    feed_games(&run, run.all, err) < 0 || central_exec(run.pg, PROPERTIES, 1, p, &props, err) < 0)
		goto out;
	if (o->property != NULL && PQntuples(props) != property_count(o->property)) {
		pb_fail(err, 404, "property_not_found", "the central copy lacks a property of \"%s\" (it has %d of them)",
		    o->property, PQntuples(props));
		goto out;
	}
	for (int i = 0; i < PQntuples(props); i++)
		if (report_property(&run, props, i, err) < 0)
			goto out;
	rc = assemble(&run, out, err);
out:
	PQclear(props);
	PQclear(run.games);
	if (run.pg != NULL)
		PQfinish(run.pg);
	report_feed_free(run.all);
	json_decref(run.properties);
	json_decref(run.names);
	return rc;
}
