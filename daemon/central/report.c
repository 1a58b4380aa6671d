/*
 * report.c - `pitboss central report`: the summary across properties
 * (docs/central.md, "Reports").  PostgreSQL sums each property's finished
 * rounds per table, UTC hour, dealer and game (pitboss.report_hours, kept
 * by a trigger from pitboss.round_facts); here each property's rows go
 * through the property's own summary code (table/reports/reports.h, report_feed)
 * with its own calendar and range, and the properties' groups are merged:
 * the same figures, and the same JSON, as each property's summary.  Every
 * property's calendar and range are worked out first, then all their rows
 * read in one statement (READ), then fed property by property.
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
#include "table/rounds/rounds.h"
#include "table/ops/ops.h"

static const char PROPERTIES[] =
    "SELECT property, coalesce(nullif(name, ''), property), time_zone, gaming_day_start, shifts "
    "FROM pitboss.properties WHERE $1::text IS NULL OR property = ANY (string_to_array($1, ',')) ORDER BY property";
static const char GAMES[] = "SELECT id, sha256, body FROM pitboss.rules ORDER BY id";
/*
 * Every row the report reads, of every property, in one statement (one
 * round trip: a report of 20 properties made 120 of them, each waiting its
 * turn for the CPU on a busy server): the segments $1..$5 (number, kind,
 * property, [lo, hi) in Unix seconds) answered in order, each row with its
 * segment last.  Kind 0 reads report_hours; 1 and 3 report_days (3: one
 * day for its carry alone); 2 report_months.  The roll-up rows are those
 * kept per table over its dealers (%s: "x.table_id", "''", the last %s:
 * KIND_TABLE), per dealer over the tables, or for the whole property, one
 * per group, start and game already (the primary key), so read as they
 * are: summing them again in the query cost 40 to 100 ms per
 * property-month of days at 50 tables.  The columns: table, start (hour,
 * day or month), dealer, game, the sums, first_ms and last_ms (hours),
 * the dealer's name, the player-banked sums, play_ms and carry_ms
 * (roll-ups), the segment.
 */
static const char READ_HOURS[] =
    "WITH s AS (SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[]) "
    "AS s(seg, kind, property, lo, hi, spans_from)) "
    "SELECT h.table_id, h.hour, h.dealer, r.id, h.rounds, h.voids, h.hands, h.handle, h.house_win, h.lines, "
    "h.first_ms, h.last_ms, h.dealer_name, h.banked_rounds, h.banked_handle, h.banked_win, h.banked_lines, "
    "h.collections, 0::bigint, 0::bigint, s.seg FROM s JOIN pitboss.report_hours h ON h.property = s.property "
    "AND h.hour >= s.lo AND h.hour < s.hi JOIN pitboss.rules r ON r.sha256 = h.rules_sha256 WHERE s.kind = 0";
/*
 * A segment's roll-up rows as they are (%s: the table column or '', the
 * start column, the dealer column or '', the table, the start column twice,
 * the kinds, the kind of rows).
 */
static const char READ_ROWS[] =
    " UNION ALL SELECT %s, x.%s, %s, r.id, x.rounds, x.voids, x.hands, x.handle, x.house_win, x.lines, 0, 0, "
    "x.dealer_name, x.banked_rounds, x.banked_handle, x.banked_win, x.banked_lines, x.collections, x.play_ms, "
    "x.carry_ms, s.seg FROM s JOIN pitboss.report_%s x ON x.property = s.property AND x.%s >= s.lo "
    "AND x.%s < s.hi JOIN pitboss.rules r ON r.sha256 = x.rules_sha256 WHERE s.kind IN (%s) AND %s";
/*
 * For groups by table or by dealer, whose key is not the start: a
 * segment's rows summed per group and game into one, as the summary would
 * add them one by one (report_feed_span): the start the first's, each
 * row's carry counted as play but for the row starting the roll-ups read
 * (spans_from), whose carry stays its carry; the dealer's name the latest.
 * A year of a 50-table property is then 50 rows a segment, not 1,500 days
 * or 575 months.  %s as READ_ROWS, the start column in the sums too.
 */
#define WAGER_SUM(c) "array[sum(x." c "[1])::bigint, sum(x." c "[2])::bigint, sum(x." c "[3])::bigint, " \
	"sum(x." c "[4])::bigint, sum(x." c "[5])::bigint], "
static const char READ_SUMS[] =
    " UNION ALL SELECT %s, min(x.%s), %s, r.id, sum(x.rounds)::bigint, sum(x.voids)::bigint, sum(x.hands)::bigint, "
    WAGER_SUM("handle") WAGER_SUM("house_win") WAGER_SUM("lines") "0, 0, "
    "(array_agg(x.dealer_name ORDER BY x.%s DESC))[1], sum(x.banked_rounds)::bigint, "
    WAGER_SUM("banked_handle") WAGER_SUM("banked_win") WAGER_SUM("banked_lines")
    "sum(x.collections)::bigint, "
    "(sum(x.play_ms) + coalesce(sum(x.carry_ms) FILTER (WHERE x.%s <> s.spans_from), 0))::bigint, "
    "coalesce(sum(x.carry_ms) FILTER (WHERE x.%s = s.spans_from), 0)::bigint, s.seg "
    "FROM s JOIN pitboss.report_%s x ON x.property = s.property AND x.%s >= s.lo "
    "AND x.%s < s.hi JOIN pitboss.rules r ON r.sha256 = x.rules_sha256 WHERE s.kind IN (%s) AND %s "
    "GROUP BY s.seg, 1, 3, 4";
#define SEG_COLUMN 20
#define KIND_TABLE "x.table_id <> '' AND x.dealer = ''"
#define KIND_DEALER "x.table_id = '' AND x.dealer <> ''"
#define KIND_PROPERTY "x.table_id = '' AND x.dealer = ''"
/* whether the schema has the roll-ups (version 4), and whether by the property's gaming days (version 6) */
static const char HAS_SPANS[] = "SELECT to_regclass('pitboss.report_days') IS NOT NULL, "
    "to_regprocedure('pitboss.rollup_follow(text)') IS NOT NULL";
/* version 6: whether each property's roll-ups were made for its calendar (they are, but for a change under way) */
static const char PROPERTIES_6[] =
    "SELECT property, coalesce(nullif(name, ''), property), time_zone, gaming_day_start, shifts, "
    "rollup_zone = time_zone AND rollup_day_start = gaming_day_start "
    "FROM pitboss.properties WHERE $1::text IS NULL OR property = ANY (string_to_array($1, ',')) ORDER BY property";

/* What a segment of READ reads: hours, days, months, or one day's carry alone. */
enum segment_kind { SEG_HOURS, SEG_DAYS, SEG_MONTHS, SEG_CARRY };

/* One range of one property's rows, and how they are fed (as its own summary reads them). */
struct segment {
	int prop;                        /* index in central_run.props */
	enum segment_kind kind;
	int64_t lo, hi;                  /* the rows' start (hour, day or month) in [lo, hi) */
	int64_t emit_from, emit_to;      /* SEG_HOURS: the hours counted (the others show joins) */
	int64_t spans_from;              /* roll-ups: the first day read, whose carry is owed to the hours before */
};

/* One property of the report: its calendar, its query (range in its gaming days) and its summary. */
struct prop_run {
	struct property_config pc;
	bool pc_set;
	struct report_query q;
	struct report_feed *f;
};

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
	bool gaming_days;                /* by each property's gaming days (version 6), else by UTC days */
	PGresult *props_res;             /* the properties read (PROPERTIES) */
	struct prop_run *props;          /* one per row of props_res */
	struct segment *segs;            /* every property's segments, in the order they are fed */
	int seg_count, seg_cap;
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

/* Appends a segment (one of [lo, hi) empty: none). */
static int
add_segment(struct central_run *run, const struct segment *sg, struct pb_error *err)
{
	if (sg->hi <= sg->lo)
		return 0;
	if (run->seg_count == run->seg_cap) {
		int cap = run->seg_cap > 0 ? run->seg_cap * 2 : 64;
		struct segment *n = realloc(run->segs, (size_t)cap * sizeof(*n));
		if (n == NULL)
			return pb_oom(err);
		run->segs = n;
		run->seg_cap = cap;
	}
	run->segs[run->seg_count++] = *sg;
	return 0;
}

/*
 * The split of q's range over roll-ups made by the gaming days of calendar
 * `made` (version 6), as the property's own summary splits its range over
 * its roll-ups (reports_summary.c, summary_plan): by table or dealer, the
 * whole gaming days and the whole months of gaming days between; by day,
 * the whole days when q's days are `made`'s; hours at the ends.  Every day
 * is rolled up centrally (in the facts' transaction), so B may be the last.
 */
static void
split_gaming_days(const struct report_query *q, const struct gaming_calendar *made, struct report_split *sp)
{
	int64_t first;

	memset(sp, 0, sizeof(*sp));
	sp->from = q->from_ms / 1000;
	sp->to = q->to_ms / 1000;
	if (q->hours_only)
		return;
	if (q->group == REPORT_GROUP_DAY) {
		if (q->cal == NULL ? !(q->utc_days && made->day_start_min == 0 && strcmp(tz_name(made->tz), "UTC") == 0) :
		    q->cal->day_start_min != made->day_start_min || strcmp(tz_name(q->cal->tz), tz_name(made->tz)) != 0)
			return;
	} else if (q->group == REPORT_GROUP_TABLE || q->group == REPORT_GROUP_DEALER) {
		sp->months = true;
	} else {
		return;
	}
	first = report_first_day(made);
	sp->a = report_day_start(made, sp->from);
	if (sp->a < sp->from)
		sp->a = report_day_next(made, sp->a);
	if (sp->a < first)
		sp->a = first;
	sp->b = report_day_start(made, sp->to);
	if (sp->b <= sp->a)
		return;
	report_split_months(made, sp);
}

/*
 * One property's segments of its range q, as its own summary reads them
 * (report_split_range, or split_gaming_days when the roll-ups are by its
 * gaming days): roll-ups for the whole days and months, hours at the ends
 * (read an hour wider each side, for the joins); hours only without
 * roll-ups or whole days.
 */
static int
plan_property(struct central_run *run, int prop, const struct report_query *q, struct pb_error *err)
{
	struct report_split sp;
	struct segment hours = {.prop = prop, .kind = SEG_HOURS}, span = {.prop = prop};

	if (run->gaming_days) {
		memset(&sp, 0, sizeof(sp));
		sp.from = q->from_ms / 1000;
		sp.to = q->to_ms / 1000;
		if (PQgetvalue(run->props_res, prop, 5)[0] == 't')
			split_gaming_days(q, &run->props[prop].pc.calendar, &sp);
	} else {
		report_split_range(q, INT64_MAX, &sp);
	}
	if (!run->spans || !sp.spans) {
		hours.lo = sp.from - 3600, hours.hi = sp.to + 3600, hours.emit_from = sp.from, hours.emit_to = sp.to;
		return add_segment(run, &hours, err);
	}
	hours.lo = sp.from - 3600, hours.hi = sp.a + 3600, hours.emit_from = sp.from, hours.emit_to = sp.a;
	if (sp.from < sp.a && add_segment(run, &hours, err) < 0)
		return -1;
	span.spans_from = sp.a;
	span.kind = SEG_DAYS, span.lo = sp.a, span.hi = sp.m1;
	if (add_segment(run, &span, err) < 0)
		return -1;
	span.kind = SEG_MONTHS, span.lo = sp.m1, span.hi = sp.m2;
	if (add_segment(run, &span, err) < 0)
		return -1;
	span.kind = SEG_DAYS, span.lo = sp.m2, span.hi = sp.b;
	if (add_segment(run, &span, err) < 0)
		return -1;
	span.kind = SEG_CARRY, span.lo = sp.b, span.hi = sp.b + 1;           /* the day starting at B */
	if (add_segment(run, &span, err) < 0)
		return -1;
	hours.lo = sp.b - 3600, hours.hi = sp.to + 3600, hours.emit_from = sp.b, hours.emit_to = sp.to;
	return add_segment(run, &hours, err);
}

/* Property i: its calendar, its query, its summary with every game, and its segments. */
static int
prepare_property(struct central_run *run, int i, struct pb_error *err)
{
	struct prop_run *pr = &run->props[i];
	struct report_params rp = {.from = run->o->from, .to = run->o->to,
	    .group = run->merge == REPORT_MERGE_TOTALS ? "table" : run->o->group};

	if (property_of(run->props_res, i, &pr->pc, err) < 0)
		return -1;
	pr->pc_set = true;
	rp.property = &pr->pc;
	if (report_query_parse(REPORT_SUMMARY, &rp, run->now_ms, &pr->q, err) < 0 ||
	    (pr->f = report_feed_new(&pr->q, err)) == NULL || feed_games(run, pr->f, err) < 0)
		return -1;
	return plan_property(run, i, &pr->q, err);
}

/* Appends a roll-up branch of the statement: fmt (READ_ROWS or READ_SUMS) for days or months. */
static void
add_branch(char *sql, size_t size, size_t *n, const char *fmt, bool months, const char *col1, const char *col3,
    const char *kinds, const char *which)
{
	const char *st = months ? "month" : "day", *tbl = months ? "months" : "days";

	if (*n >= size)
		return;
	if (fmt == READ_ROWS)
		*n += (size_t)snprintf(sql + *n, size - *n, READ_ROWS, col1, st, col3, tbl, st, st, kinds, which);
	else
		*n += (size_t)snprintf(sql + *n, size - *n, READ_SUMS, col1, st, col3, st, st, st, tbl, st, st, kinds,
		    which);
}

/* READ for every segment: one statement, its rows ordered by segment. */
static int
read_segments(struct central_run *run, PGresult **res, struct pb_error *err)
{
	/* by property only the totals are taken: the property's own sums, not its tables' */
	bool by_dealer = run->group == REPORT_GROUP_DEALER, totals = run->merge == REPORT_MERGE_TOTALS;
	bool summed = by_dealer || run->group == REPORT_GROUP_TABLE;
	const char *col1 = by_dealer || totals || run->group == REPORT_GROUP_DAY ? "''" : "x.table_id";
	const char *col3 = by_dealer ? "x.dealer" : "''";
	const char *which = by_dealer ? KIND_DEALER : totals || run->group == REPORT_GROUP_DAY ? KIND_PROPERTY
	    : KIND_TABLE;
	struct pg_array cols[6];
	const char *p[6];
	char sql[sizeof(READ_HOURS) + 3 * sizeof(READ_SUMS) + 512];
	size_t n = 0;
	int rc = -1;

	memset(cols, 0, sizeof(cols));
	for (int k = 0; k < run->seg_count; k++) {
		const struct segment *sg = &run->segs[k];
		pg_array_int64(&cols[0], k);
		pg_array_int64(&cols[1], sg->kind == SEG_CARRY ? 3 : (int64_t)sg->kind);
		pg_array_text(&cols[2], PQgetvalue(run->props_res, sg->prop, 0));
		pg_array_int64(&cols[3], sg->lo);
		pg_array_int64(&cols[4], sg->hi);
		pg_array_int64(&cols[5], sg->spans_from);
	}
	for (int k = 0; k < 6; k++)
		if ((p[k] = pg_array_end(&cols[k])) == NULL) {
			pb_oom(err);
			goto out;
		}
	n = (size_t)snprintf(sql, sizeof(sql), "%s", READ_HOURS);
	if (run->spans && summed) {
		add_branch(sql, sizeof(sql), &n, READ_SUMS, false, col1, col3, "1", which);
		add_branch(sql, sizeof(sql), &n, READ_SUMS, true, col1, col3, "2", which);
		add_branch(sql, sizeof(sql), &n, READ_ROWS, false, col1, col3, "3", which);
	} else if (run->spans) {
		add_branch(sql, sizeof(sql), &n, READ_ROWS, false, col1, col3, "1, 3", which);
		add_branch(sql, sizeof(sql), &n, READ_ROWS, true, col1, col3, "2", which);
	}
	if (n >= sizeof(sql)) {
		pb_fail(err, 500, "internal_error", "the central report's statement is longer than its buffer");
		goto out;
	}
	/* the sums of a segment's rows grouped in memory, not on disk */
	if (central_exec(run->pg, "SET LOCAL work_mem = '64MB'", 0, NULL, NULL, err) < 0)
		goto out;
	rc = central_exec(run->pg, sql, 6, p, res, err);
out:
	for (int k = 0; k < 6; k++)
		pg_array_free(&cols[k]);
	return rc;
}

/*
 * READ's rows in the order they are fed: by segment, then start, table,
 * dealer and game (byte order, as the property's SQLite orders its own).
 * Sorted here, not by the server: a year of 20 properties' ends is some
 * 15,000 wide rows, which the server sorted in a tenth of the report's time.
 */
struct row_key {
	int seg, row;
	int64_t start, game;
	const char *table, *dealer;
};

static int
cmp_row_key(const void *a, const void *b)
{
	const struct row_key *x = a, *y = b;
	int c;

	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if ((c = strcmp(x->table, y->table)) != 0 || (c = strcmp(x->dealer, y->dealer)) != 0)
		return c;
	return x->game < y->game ? -1 : x->game > y->game;
}

/* The rows of r in feeding order (a new array, freed by the caller; NULL when memory ran out and r had rows). */
static struct row_key *
order_rows(PGresult *r)
{
	int n = PQntuples(r);
	struct row_key *keys = malloc((size_t)(n > 0 ? n : 1) * sizeof(*keys));

	if (keys == NULL)
		return NULL;
	for (int i = 0; i < n; i++) {
		keys[i].row = i;
		keys[i].seg = atoi(PQgetvalue(r, i, SEG_COLUMN));
		keys[i].start = strtoll(PQgetvalue(r, i, 1), NULL, 10);
		keys[i].game = strtoll(PQgetvalue(r, i, 3), NULL, 10);
		keys[i].table = PQgetvalue(r, i, 0);
		keys[i].dealer = PQgetvalue(r, i, 2);
	}
	qsort(keys, (size_t)n, sizeof(*keys), cmp_row_key);
	return keys;
}

/* Feeds segment k its rows (keys from *at on, those of segment k), as the property's own summary reads them. */
static int
feed_segment(struct central_run *run, int k, PGresult *r, const struct row_key *keys, int *at, struct pb_error *err)
{
	const struct segment *sg = &run->segs[k];
	const char *property = PQgetvalue(run->props_res, sg->prop, 0);
	struct report_feed *f = run->props[sg->prop].f;
	bool by_dealer = run->group == REPORT_GROUP_DEALER, months = sg->kind == SEG_MONTHS;
	struct report_hour h;
	char key[128];

	if (sg->kind == SEG_HOURS)
		report_feed_emit(f, sg->emit_from, sg->emit_to);
	for (; *at < PQntuples(r) && keys[*at].seg == k; (*at)++) {
		int row = keys[*at].row;

		hour_row(r, row, &h);
		if (sg->kind == SEG_HOURS) {
			if (report_feed_row(f, &h, err) < 0)
				return -1;
		} else {
			h.span = months ? (by_dealer ? REPORT_SPAN_MONTH_DEALER_ALL : REPORT_SPAN_MONTH_TABLE) :
			    by_dealer ? REPORT_SPAN_DAY_DEALER_ALL : REPORT_SPAN_DAY_TABLE;
			h.play_ms = strtoll(PQgetvalue(r, row, 18), NULL, 10);
			h.carry_ms = strtoll(PQgetvalue(r, row, 19), NULL, 10);
			if (report_feed_span(f, &h, sg->kind == SEG_CARRY, sg->spans_from, err) < 0)
				return -1;
		}
		if (sg->kind == SEG_HOURS || (by_dealer && sg->kind != SEG_CARRY)) {
			snprintf(key, sizeof(key), "%s/%s", property, h.dealer);
			json_object_set_new(run->names, key, json_string(PQgetvalue(r, row, 12)));
		}
	}
	return sg->kind == SEG_HOURS ? report_feed_flush(f, err) : 0;
}

/* Property i's summary merged into the whole, and the property listed with its range. */
static int
merge_property(struct central_run *run, int i, struct pb_error *err)
{
	const struct prop_run *pr = &run->props[i];
	const char *property = PQgetvalue(run->props_res, i, 0);
	char from[PB_TIME_LEN], to[PB_TIME_LEN];

	if (report_feed_merge(run->all, pr->f, property, run->merge, err) < 0)
		return -1;
	json_object_set_new(run->names, property, json_string(PQgetvalue(run->props_res, i, 1)));
	pb_time_format_ms(pr->q.from_ms, from);
	pb_time_format_ms(pr->q.to_ms, to);
	json_array_append_new(run->properties, json_pack("{s:s,s:s,s:s,s:s,s:s}", "property", property, "name",
	    PQgetvalue(run->props_res, i, 1), "time_zone", pr->pc.time_zone, "from", from, "to", to));
	return 0;
}

/* Every property prepared, every row read in one statement and fed, the properties merged in order. */
static int
report_properties(struct central_run *run, struct pb_error *err)
{
	int n = PQntuples(run->props_res), at = 0, rc = -1;
	struct row_key *keys = NULL;
	PGresult *r = NULL;

	if (n == 0)
		return 0;
	if ((run->props = calloc((size_t)n, sizeof(*run->props))) == NULL)
		return pb_oom(err);
	for (int i = 0; i < n; i++)
		if (prepare_property(run, i, err) < 0)
			return -1;
	if (run->seg_count > 0) {
		if (read_segments(run, &r, err) < 0)
			return -1;
		if ((keys = order_rows(r)) == NULL) {
			pb_oom(err);
			goto out;
		}
	}
	for (int k = 0; k < run->seg_count; k++)
		if (feed_segment(run, k, r, keys, &at, err) < 0)
			goto out;
	for (int i = 0; i < n; i++)
		if (merge_property(run, i, err) < 0)
			goto out;
	rc = 0;
out:
	free(keys);
	PQclear(r);
	return rc;
}

/* Frees what report_properties made. */
static void
free_properties(struct central_run *run)
{
	for (int i = 0; run->props != NULL && i < PQntuples(run->props_res); i++) {
		report_feed_free(run->props[i].f);
		if (run->props[i].pc_set)
			property_release(&run->props[i].pc);
	}
	free(run->props);
	free(run->segs);
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
	run.gaming_days = PQgetvalue(props, 0, 1)[0] == 't';
	PQclear(props);
	props = NULL;
	if (central_exec(run.pg, GAMES, 0, NULL, &run.games, err) < 0 || feed_games(&run, run.all, err) < 0 ||
	    central_exec(run.pg, run.gaming_days ? PROPERTIES_6 : PROPERTIES, 1, p, &props, err) < 0)
		goto out;
	if (o->property != NULL && PQntuples(props) != property_count(o->property)) {
		pb_fail(err, 404, "property_not_found", "the central copy lacks a property of \"%s\" (it has %d of them)",
		    o->property, PQntuples(props));
		goto out;
	}
	run.props_res = props;
	if (report_properties(&run, err) < 0)
		goto out;
	rc = assemble(&run, out, err);
out:
	free_properties(&run);
	PQclear(props);
	PQclear(run.games);
	if (run.pg != NULL)
		PQfinish(run.pg);
	report_feed_free(run.all);
	json_decref(run.properties);
	json_decref(run.names);
	return rc;
}
