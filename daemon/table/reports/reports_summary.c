/*
 * reports_summary.c - the summary: the per-hour aggregates (and their day
 * and month roll-ups, table/rounds/rounds.h) read in one snapshot, each row's play time
 * decided by its series, the rows summed into their groups (hour, day,
 * shift, table or dealer) and the totals; reports_figures.c turns each
 * group's sums into the figures the API shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/hash.h"
#include "store/store.h"
#include "table/reports/reports_private.h"
#include "table/rounds/rounds.h"

/* A series: one table, dealer and game; its latest row waits for the next hour's to know if play went on. */
struct series {
	struct report_hour row;
	bool joined_before;                /* row continues the hour before it */
};

struct summary {
	const struct report_query *q;
	int64_t from_hour, to_hour;        /* Unix seconds: the rows reported */
	struct group_acc *groups;
	size_t count, cap;
	size_t *slots;                     /* open addressing: group index + 1, 0 = empty */
	size_t slot_cap;
	struct group_acc totals;
	struct series *series;             /* open addressing by table, dealer, game; hour 0 = empty */
	size_t series_count, series_cap;
	int64_t emit_from, emit_to;        /* hour rows outside are neighbours, read only for the joins */
	int64_t spans_from;                /* the first roll-up start read: its carry is not the range's */
	int64_t last_hour;                 /* hour, day, shift: the group of the last hour added */
	size_t last_group;                 /* its index + 1 */
	struct {                           /* in the property's zone: the gaming day or shift keyed last */
		int64_t from, to;          /* Unix seconds, [from, to); to == 0: none yet */
		int64_t order;
		char key[KEY_MAX];
	} span;
};

static int
add_checked(int64_t *a, int64_t b, struct pb_error *err)
{
	return report_sum_add(a, b, "a report sum exceeds 64 bits; narrow the range", err);
}

/* a - b into *out, refused when it overflows. */
static int
sub_checked(int64_t a, int64_t b, int64_t *out, struct pb_error *err)
{
	if (__builtin_sub_overflow(a, b, out))
		return pb_fail(err, 500, "report_overflow", "a report sum exceeds 64 bits; narrow the range");
	return 0;
}

/* The group's part of game rules_id, made (zeroed) when new; NULL when memory runs out. */
static struct game_part *
acc_part(struct group_acc *g, int64_t rules_id, struct pb_error *err)
{
	struct game_part *n;
	int at;

	for (int i = 0; i < g->part_count; i++)
		if (g->parts[i].rules_id == rules_id)
			return &g->parts[i];
	if ((n = realloc(g->parts, (size_t)(g->part_count + 1) * sizeof(*n))) == NULL) {
		pb_oom(err);
		return NULL;
	}
	g->parts = n;
	/* Kept in rules_id order: the theoretical figures sum the games in that order, whatever the rows' order. */
	at = g->part_count;
	while (at > 0 && g->parts[at - 1].rules_id > rules_id)
		at--;
	memmove(&g->parts[at + 1], &g->parts[at], (size_t)(g->part_count - at) * sizeof(*n));
	g->part_count++;
	memset(&g->parts[at], 0, sizeof(*n));
	g->parts[at].rules_id = rules_id;
	return &g->parts[at];
}

/*
 * Adds a row's sums (and play time) to a group: every round's counts and
 * handle; the house-banked part of its win, handle and lines (the row's sum
 * minus its banked_* part) as the house's; the banked part as the banker's
 * result; its collections.
 */
static int
acc_add(struct group_acc *g, const struct report_hour *row, int64_t play_ms, struct pb_error *err)
{
	struct game_part *part = acc_part(g, row->rules_id, err);
	int64_t house_win, house_handle, house_lines;
	int rc = 0;

	if (part == NULL)
		return -1;
	rc |= add_checked(&g->rounds, row->rounds, err);
	rc |= add_checked(&g->voids, row->voids, err);
	rc |= add_checked(&g->hands, row->hands, err);
	rc |= add_checked(&g->play_ms, play_ms, err);
	rc |= add_checked(&g->banked_rounds, row->banked_rounds, err);
	rc |= add_checked(&g->collections, row->collections, err);
	for (int w = 0; w < WAGER_COUNT; w++) {
		if (sub_checked(row->house_win[w], row->banked_win[w], &house_win, err) < 0 ||
		    sub_checked(row->handle[w], row->banked_handle[w], &house_handle, err) < 0 ||
		    sub_checked(row->lines[w], row->banked_lines[w], &house_lines, err) < 0)
			return -1;
		rc |= add_checked(&g->handle[w], row->handle[w], err);
		rc |= add_checked(&g->win[w], house_win, err);
		rc |= add_checked(&g->house_handle, house_handle, err);
		rc |= add_checked(&g->banker[w], row->banked_win[w], err);
		rc |= add_checked(&part->handle[w], house_handle, err);
		rc |= add_checked(&part->lines[w], house_lines, err);
	}
	return rc ? -1 : 0;
}

static void
acc_free(struct group_acc *g)
{
	free(g->parts);
	g->parts = NULL;
	g->part_count = 0;
}

/* The group of this key, created when new (with its order). */
static struct group_acc *
group_get(struct summary *sm, const char *key, int64_t order, struct pb_error *err)
{
	size_t i;

	if ((sm->count + 1) * 2 > sm->slot_cap) {
		size_t cap = sm->slot_cap ? sm->slot_cap * 2 : 256;
		size_t *slots = calloc(cap, sizeof(*slots));
		if (slots == NULL) {
			pb_oom(err);
			return NULL;
		}
		for (size_t g = 0; g < sm->count; g++) {
			for (i = pb_str_hash(sm->groups[g].key) & (cap - 1); slots[i] != 0; i = (i + 1) & (cap - 1))
				;
			slots[i] = g + 1;
		}
		free(sm->slots);
		sm->slots = slots;
		sm->slot_cap = cap;
	}
	for (i = pb_str_hash(key) & (sm->slot_cap - 1); sm->slots[i] != 0; i = (i + 1) & (sm->slot_cap - 1))
		if (strcmp(sm->groups[sm->slots[i] - 1].key, key) == 0)
			return &sm->groups[sm->slots[i] - 1];
	if (sm->count == sm->cap) {
		size_t cap = sm->cap ? sm->cap * 2 : 64;
		struct group_acc *n = realloc(sm->groups, cap * sizeof(*n));
		if (n == NULL) {
			pb_oom(err);
			return NULL;
		}
		sm->groups = n;
		sm->cap = cap;
	}
	memset(&sm->groups[sm->count], 0, sizeof(sm->groups[0]));
	snprintf(sm->groups[sm->count].key, KEY_MAX, "%s", key);
	sm->groups[sm->count].order = order;
	sm->slots[i] = sm->count + 1;
	return &sm->groups[sm->count++];
}

static void
utc_date(int64_t unix_s, struct tm *tm)
{
	time_t t = (time_t)unix_s;

	gmtime_r(&t, tm);
}

/*
 * The key of a gaming day or named shift in the property's zone, and its
 * order: the span holding the UTC hour `hour`, kept while the next rows
 * fall in it (the rows come in hour order; the bounds cost a zone lookup).
 */
static void
zone_key(struct summary *sm, int64_t hour, char key[KEY_MAX], int64_t *order)
{
	const struct report_query *q = sm->q;
	char date[11];
	int64_t day;

	if (sm->span.to == 0 || hour < sm->span.from || hour >= sm->span.to) {
		if (q->group == REPORT_GROUP_DAY) {
			day = gaming_day_of(q->cal, hour);
			gaming_day_bounds(q->cal, day, &sm->span.from, &sm->span.to);
			gaming_day_format(day, sm->span.key);
			sm->span.order = 0;
		} else {
			int s = gaming_shift_of(q->cal, hour, &day);
			gaming_shift_bounds(q->cal, day, s, &sm->span.from, &sm->span.to);
			gaming_day_format(day, date);
			snprintf(sm->span.key, KEY_MAX, "%s %s", date, q->cal->shifts[s].name);
			sm->span.order = day * GAMING_SHIFTS_MAX + s;
		}
	}
	snprintf(key, KEY_MAX, "%s", sm->span.key);
	*order = sm->span.order;
}

/* The key of the group a UTC hour (Unix seconds) of a row belongs to, and its order (0 but for named shifts). */
static void
group_key(struct summary *sm, const struct report_hour *row, char key[KEY_MAX], int64_t *order)
{
	const struct report_query *q = sm->q;
	struct tm tm;
	int64_t local, day;
	int tod, i;

	*order = 0;
	if (q->cal != NULL && (q->group == REPORT_GROUP_DAY || (q->group == REPORT_GROUP_SHIFT && q->named_shifts))) {
		zone_key(sm, row->hour, key, order);
		return;
	}
	local = q->cal != NULL ? tz_local_of(q->cal->tz, row->hour) : row->hour + (int64_t)q->tz_offset * 60;
	switch (q->group) {
	case REPORT_GROUP_HOUR:
		utc_date(row->hour, &tm);
		snprintf(key, KEY_MAX, "%04d-%02d-%02dT%02d:00Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour);
		return;
	case REPORT_GROUP_DAY:
		utc_date(local, &tm);
		snprintf(key, KEY_MAX, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
		return;
	case REPORT_GROUP_SHIFT:
		day = report_floor_div(local, 86400) * 86400;
		tod = (int)((local - day) / 60);
		for (i = q->shift_count - 1; i >= 0 && q->shifts[i] > tod; i--)
			;
		if (i < 0) {
			/* Before the day's first shift: the last shift of the day before. */
			i = q->shift_count - 1;
			day -= 86400;
		}
		utc_date(day, &tm);
		snprintf(key, KEY_MAX, "%04d-%02d-%02d %02d:%02d-%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		    q->shifts[i] / 60, q->shifts[i] % 60, q->shifts[(i + 1) % q->shift_count] / 60,
		    q->shifts[(i + 1) % q->shift_count] % 60);
		return;
	case REPORT_GROUP_TABLE:
		snprintf(key, KEY_MAX, "%s", row->table_id);
		return;
	case REPORT_GROUP_DEALER:
		snprintf(key, KEY_MAX, "%s", row->dealer);
		return;
	case REPORT_GROUP_PLAYER:        /* the decisions report's only: the summary's query never has it */
		break;
	}
	key[0] = '\0';
}

/*
 * Adds a roll-up row's carry (play owed to the hour before the row's start)
 * to the group of that hour: for groups by table or dealer the row's own,
 * for groups by day the day before.
 */
static int
summary_carry(struct summary *sm, const struct report_hour *row, struct pb_error *err)
{
	struct report_hour before = *row;
	char key[KEY_MAX];
	struct group_acc *g;
	int64_t order;

	if (row->carry_ms == 0)
		return 0;
	before.hour = row->hour - 3600;
	group_key(sm, &before, key, &order);
	if ((g = group_get(sm, key, order, err)) == NULL)
		return -1;
	if (add_checked(&g->play_ms, row->carry_ms, err) < 0)
		return -1;
	return add_checked(&sm->totals.play_ms, row->carry_ms, err);
}

/* A roll-up row's carry alone (the row itself lies after the range read from roll-ups). */
static int
summary_carry_only(void *arg, const struct report_hour *row, struct pb_error *err)
{
	return summary_carry(arg, row, err);
}

/*
 * Adds one row to its group and to the totals.  Its play time is the part
 * of its hour from its first round's opening to its last round's
 * settlement, extended to the hour's start (end) when play went on from the
 * hour before (into the hour after) with the same table, dealer and game.
 */
static int
summary_add(struct summary *sm, const struct report_hour *row, int64_t play_ms, struct pb_error *err)
{
	char key[KEY_MAX];
	struct group_acc *g;
	int64_t order;

	if (sm->q->group <= REPORT_GROUP_SHIFT && sm->last_group > 0 && sm->last_hour == row->hour) {
		g = &sm->groups[sm->last_group - 1];
	} else {
		group_key(sm, row, key, &order);
		if ((g = group_get(sm, key, order, err)) == NULL)
			return -1;
		sm->last_hour = row->hour;
		sm->last_group = (size_t)(g - sm->groups) + 1;
	}
	if (acc_add(g, row, play_ms, err) < 0)
		return -1;
	return acc_add(&sm->totals, row, play_ms, err);
}

static int
summary_emit(struct summary *sm, const struct report_hour *row, bool joined_before, bool joined_after,
    struct pb_error *err)
{
	if (row->hour < sm->emit_from || row->hour >= sm->emit_to)
		return 0;     /* a neighbour read only to see whether play went on */
	return summary_add(sm, row, report_hour_play_ms(row, joined_before, joined_after), err);
}

/*
 * A roll-up row (report_spans): its sums and play time, and its carry (the
 * play owed to the hour before its start) unless it starts the roll-ups
 * read, whose hour before lies outside them.
 */
static int
summary_span(void *arg, const struct report_hour *row, struct pb_error *err)
{
	struct summary *sm = arg;

	if (summary_add(sm, row, row->play_ms, err) < 0)
		return -1;
	if (row->hour != sm->spans_from && summary_carry(sm, row, err) < 0)
		return -1;
	return 0;
}

static uint64_t
series_hash(const struct report_hour *r)
{
	return pb_str_hash(r->table_id) * 31 + pb_str_hash(r->dealer) * 7 + (uint64_t)r->rules_id;
}

/* The slot of the row's series (empty when new); grows the table as needed. */
static struct series *
series_slot(struct summary *sm, const struct report_hour *row, struct pb_error *err)
{
	size_t i;

	if ((sm->series_count + 1) * 2 > sm->series_cap) {
		size_t cap = sm->series_cap ? sm->series_cap * 2 : 256;
		struct series *n = calloc(cap, sizeof(*n));
		if (n == NULL) {
			pb_oom(err);
			return NULL;
		}
		for (size_t k = 0; k < sm->series_cap; k++) {
			if (sm->series[k].row.hour == 0)
				continue;
			for (i = series_hash(&sm->series[k].row) & (cap - 1); n[i].row.hour != 0; i = (i + 1) & (cap - 1))
				;
			n[i] = sm->series[k];
		}
		free(sm->series);
		sm->series = n;
		sm->series_cap = cap;
	}
	for (i = series_hash(row) & (sm->series_cap - 1); sm->series[i].row.hour != 0; i = (i + 1) & (sm->series_cap - 1))
		if (report_same_series(&sm->series[i].row, row))
			return &sm->series[i];
	sm->series_count++;
	return &sm->series[i];
}

/*
 * The rows come in hour order.  Each waits in its series until the series'
 * next row shows whether play went on into the following hour (that row
 * is for the next hour and began within JOIN_GAP_MS of this one's last
 * round); then it is added.  summary_flush adds the last of each series.
 */
static int
summary_row(void *arg, const struct report_hour *row, struct pb_error *err)
{
	struct summary *sm = arg;
	struct series *se;
	bool joined = false;

	if (row->hour <= 0)
		return 0;     /* before 1970: not a time this record holds */
	if ((se = series_slot(sm, row, err)) == NULL)
		return -1;
	if (se->row.hour != 0) {
		joined = report_joined(&se->row, row);
		if (summary_emit(sm, &se->row, se->joined_before, joined, err) < 0)
			return -1;
	}
	se->row = *row;
	se->joined_before = joined;
	return 0;
}

static int
summary_flush(struct summary *sm, struct pb_error *err)
{
	for (size_t i = 0; i < sm->series_cap; i++)
		if (sm->series[i].row.hour != 0 && summary_emit(sm, &sm->series[i].row, sm->series[i].joined_before, false, err) < 0)
			return -1;
	return 0;
}

static int
cmp_group(const void *a, const void *b)
{
	const struct group_acc *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Reads hour rows [from, to) into the summary, emitting those in [emit_from, emit_to); then adds the series' last rows. */
static int
summary_hours(struct pit *p, const char *scope, struct summary *sm, int64_t from, int64_t to, int64_t emit_from,
    int64_t emit_to, struct pb_error *err)
{
	int rc;

	sm->emit_from = emit_from;
	sm->emit_to = emit_to;
	if ((rc = store_report_hours(p->store, scope, from, to, summary_row, sm, err)) != 0)
		return rc;
	if (summary_flush(sm, err) < 0)
		return -1;
	/* The next read starts new series: forget these. */
	if (sm->series != NULL)
		memset(sm->series, 0, sm->series_cap * sizeof(sm->series[0]));
	sm->series_count = 0;
	return 0;
}

/*
 * How a range is split over roll-ups by UTC day and month (the central
 * copy's, daemon/central/report.c; the property's own summary splits by its
 * roll-ups' calendar, summary_plan below).  Groupings that do not divide a
 * day (table, dealer, and day when days are UTC days) read the roll-ups of
 * the whole days rolled up, months where whole months fit (not for day),
 * and hours at the two ends:
 *   hours [from, A), with A's first hour read only for the joins;
 *   spans [A, B), each with its carry except the first;
 *   the carry of day B (owed to B's hour before), then hours [B, to), with
 *   the hour before B read only for the joins.
 * B is before the last day rolled up, so that day B's carry exists.  Other
 * groupings, and ranges without a whole day rolled up, read the hours.
 */
void
report_split_range(const struct report_query *q, int64_t rolled_before, struct report_split *sp)
{
	sp->from = q->from_ms / 1000;
	sp->to = q->to_ms / 1000;
	sp->months = q->group != REPORT_GROUP_DAY;
	sp->a = sp->b = sp->m1 = sp->m2 = 0;
	sp->spans = !q->hours_only && (q->group == REPORT_GROUP_TABLE || q->group == REPORT_GROUP_DEALER ||
	    (q->group == REPORT_GROUP_DAY && q->utc_days));
	if (!sp->spans)
		return;
	sp->a = report_floor_div(sp->from + 86399, 86400) * 86400;
	if (sp->a < 86400)
		sp->a = 86400;
	sp->b = report_floor_div(sp->to, 86400) * 86400;
	if (sp->b > rolled_before - 86400)
		sp->b = rolled_before - 86400;
	if (sp->b <= sp->a) {
		sp->spans = false;
		return;
	}
	sp->m1 = sp->months ? report_month_start(sp->a) : sp->a;
	if (sp->m1 < sp->a)
		sp->m1 = report_month_next(sp->m1);
	sp->m2 = sp->months ? report_month_start(sp->b) : sp->a;
	if (sp->m2 <= sp->m1)       /* no whole month: days only */
		sp->m1 = sp->m2 = sp->b;
}

/* How the property's summary reads its range through the roll-ups: report_split's bounds, the kinds, the units. */
struct span_plan {
	struct report_split sp;
	int kind_unit, kind_month;
	bool shifts;                       /* the units are shift spans, else day spans */
};

/* Whether the roll-ups made for `made` have q's days: the property's gaming days, or UTC days without a calendar. */
static bool
same_days(const struct report_query *q, const struct gaming_calendar *made)
{
	if (q->cal == NULL)
		return q->utc_days && made->day_start_min == 0 && strcmp(tz_name(made->tz), "UTC") == 0;
	return q->cal->day_start_min == made->day_start_min && strcmp(tz_name(q->cal->tz), tz_name(made->tz)) == 0;
}

static int64_t
unit_start(const struct span_plan *pl, const struct gaming_calendar *c, int64_t t)
{
	return pl->shifts ? report_shift_start(c, t) : report_day_start(c, t);
}

static int64_t
unit_next(const struct span_plan *pl, const struct gaming_calendar *c, int64_t start)
{
	return pl->shifts ? report_shift_next(c, start) : report_day_next(c, start);
}

/*
 * Splits the range as report_split_range does, in the spans of the
 * calendar the roll-ups were made for (`made`, recorded as made_text; NULL:
 * hours only): a summary by table or dealer reads day and month spans
 * whatever their calendar; by day, day spans when they are q's days; by
 * shift, shift spans when q groups by the property's shifts and the
 * roll-ups were made for its calendar.  Only units whose day is rolled up
 * (before days_before) and whose next day's carry is there.
 */
static void
summary_plan(const struct report_query *q, const char *scope, const struct gaming_calendar *made, const char *made_text,
    int64_t days_before, struct span_plan *pl)
{
	struct report_split *sp = &pl->sp;
	char text[REPORT_CALENDAR_MAX];
	int64_t first, last;

	memset(pl, 0, sizeof(*pl));
	sp->from = q->from_ms / 1000;
	sp->to = q->to_ms / 1000;
	if (made == NULL || q->hours_only)
		return;
	switch (q->group) {
	case REPORT_GROUP_TABLE:
		pl->kind_unit = REPORT_SPAN_DAY_TABLE;
		pl->kind_month = REPORT_SPAN_MONTH_TABLE;
		sp->months = true;
		break;
	case REPORT_GROUP_DEALER:
		pl->kind_unit = scope == NULL ? REPORT_SPAN_DAY_DEALER_ALL : REPORT_SPAN_DAY_DEALER;
		pl->kind_month = scope == NULL ? REPORT_SPAN_MONTH_DEALER_ALL : REPORT_SPAN_MONTH_DEALER;
		sp->months = true;
		break;
	case REPORT_GROUP_DAY:
		if (!same_days(q, made))
			return;
		pl->kind_unit = scope == NULL ? REPORT_SPAN_DAY_ALL : REPORT_SPAN_DAY_TABLE;
		break;
	case REPORT_GROUP_SHIFT:
		if (q->cal == NULL || !q->named_shifts || made->shift_count == 0)
			return;
		report_calendar_text(q->cal, text);
		if (strcmp(text, made_text) != 0)
			return;
		pl->kind_unit = scope == NULL ? REPORT_SPAN_SHIFT_ALL : REPORT_SPAN_SHIFT_TABLE;
		pl->shifts = true;
		break;
	default:
		return;
	}
	first = report_first_day(made);
	sp->a = unit_start(pl, made, sp->from);
	if (sp->a < sp->from)
		sp->a = unit_next(pl, made, sp->a);
	if (sp->a < first)
		sp->a = first;
	last = days_before - 3600 < sp->to ? days_before - 3600 : sp->to;
	sp->b = unit_start(pl, made, last);
	if (sp->b <= sp->a)
		return;
	report_split_months(made, sp);
}

/*
 * Reads the rows of the range into the summary, in one read snapshot, as
 * summary_plan splits it: roll-ups (report_spans) for the whole units and
 * months, hours at the two ends.  By dealer, the roll-ups over every table
 * when the reader sees every table, else per table within the scope; by
 * day or shift, over every table and dealer when the reader sees every
 * table.
 */
static int
summary_read(struct pit *p, const struct report_query *q, const char *scope, struct summary *sm, struct pb_error *err)
{
	char made_text[REPORT_CALENDAR_MAX] = "";
	const struct gaming_calendar *made = NULL;
	int64_t days_before = 0;
	struct span_plan pl;
	struct report_split *sp = &pl.sp;
	int rc = -1;

	if (store_snapshot_begin(p->store, err) < 0)
		return -1;
	if (!q->hours_only && (store_report_rollup_calendar(p->store, &days_before, made_text, err) < 0 ||
	    (made = report_calendar_of(made_text, err)) == NULL))
		goto out;
	summary_plan(q, scope, made, made_text, days_before, &pl);
	if (!sp->spans) {
		rc = summary_hours(p, scope, sm, sp->from - 3600, sp->to + 3600, sp->from, sp->to, err);
		goto out;
	}
	if (sp->from < sp->a && (rc = summary_hours(p, scope, sm, sp->from - 3600, sp->a + 3600, sp->from, sp->a, err)) != 0)
		goto out;
	sm->spans_from = sp->a;
	if ((rc = store_report_spans(p->store, scope, pl.kind_unit, sp->a, sp->m1, summary_span, sm, err)) != 0 ||
	    (rc = store_report_spans(p->store, scope, pl.kind_month, sp->m1, sp->m2, summary_span, sm, err)) != 0 ||
	    (rc = store_report_spans(p->store, scope, pl.kind_unit, sp->m2, sp->b, summary_span, sm, err)) != 0 ||
	    (rc = store_report_spans(p->store, scope, pl.kind_unit, sp->b, sp->b + 1, summary_carry_only, sm, err)) != 0)
		goto out;
	rc = summary_hours(p, scope, sm, sp->b - 3600, sp->to + 3600, sp->b, sp->to, err);
out:
	store_snapshot_end(p->store);
	return rc;
}

static void
summary_free(struct summary *sm)
{
	for (size_t i = 0; i < sm->count; i++)
		acc_free(&sm->groups[i]);
	free(sm->groups);
	free(sm->slots);
	free(sm->series);
	acc_free(&sm->totals);
}

/* The shifts' start times ("HH:MM"), or with names their names, in the query's order (new reference). */
static json_t *
summary_shifts_json(const struct report_query *q, bool names)
{
	json_t *sh = json_array();

	for (int i = 0; i < q->shift_count; i++) {
		char t[8];
		snprintf(t, sizeof(t), "%02d:%02d", q->shifts[i] / 60, q->shifts[i] % 60);
		json_array_append_new(sh, json_string(names ? q->cal->shifts[i].name : t));
	}
	return sh;
}

/*
 * In the property's zone: the zone, the gaming day's start, and as
 * tz_offset the zone's offset (minutes) at the range's start.
 */
static void
summary_zone_json(const struct report_query *q, json_t *out)
{
	char t[8];

	snprintf(t, sizeof(t), "%02d:%02d", q->cal->day_start_min / 60, q->cal->day_start_min % 60);
	json_object_set_new(out, "tz_offset", json_integer(tz_offset_at(q->cal->tz, q->from_ms / 1000) / 60));
	json_object_set_new(out, "time_zone", json_string(tz_name(q->cal->tz)));
	json_object_set_new(out, "gaming_day_start", json_string(t));
}

/* A dealer group whose key is a person's id also gets the person's name ("name"), as the page shows it. */
static int
dealer_group_name(struct pit *p, json_t *group, const char *key, struct pb_error *err)
{
	struct person who;
	bool found;

	if (!pb_valid_id(key) || store_person_get(p->store, key, &who, &found, err) < 0)
		return pb_valid_id(key) ? -1 : 0;
	if (found)
		json_object_set_new(group, "name", json_string(who.name));
	return 0;
}

int
pit_report_summary(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err)
{
	struct summary sm;
	struct game_list gl = {0};
	char *scope = NULL;
	json_t *groups = NULL, *o = NULL;
	int rc = -1;

	*out = NULL;
	memset(&sm, 0, sizeof(sm));
	if (report_scope(p, a, q, &scope, err) < 0)
		return -1;
	sm.q = q;
	sm.from_hour = q->from_ms / 1000;
	sm.to_hour = q->to_ms / 1000;
	if (summary_read(p, q, scope, &sm, err) != 0)
		goto out;
	if (sm.count > 0)
		qsort(sm.groups, sm.count, sizeof(sm.groups[0]), cmp_group);
	groups = json_array();
	for (size_t i = 0; i < sm.count; i++) {
		json_t *g = report_group_json(p, &gl, &sm.groups[i], true, err);
		if (g == NULL)
			goto out;
		json_array_append_new(groups, g);
		if (q->group == REPORT_GROUP_DEALER && dealer_group_name(p, g, sm.groups[i].key, err) < 0)
			goto out;
	}
	if ((o = report_group_json(p, &gl, &sm.totals, false, err)) == NULL)
		goto out;
	if (report_drops(p, a, q, groups, o, err) < 0)
		goto out;
	*out = json_pack("{s:o,s:o,s:s,s:o,s:i,s:o,s:o}", "from", report_time_json(q->from_ms),
	    "to", report_time_json(q->to_ms), "group", report_group_name(q->group), "table", report_table_json(q),
	    "tz_offset", q->tz_offset, "groups", groups, "totals", o);
	groups = o = NULL;
	if (*out == NULL) {
		pb_oom(err);
		goto out;
	}
	if (q->cal != NULL)
		summary_zone_json(q, *out);
	if (q->group == REPORT_GROUP_SHIFT)
		json_object_set_new(*out, "shifts", summary_shifts_json(q, false));
	if (q->group == REPORT_GROUP_SHIFT && q->named_shifts)
		json_object_set_new(*out, "shift_names", summary_shifts_json(q, true));
	rc = 0;
out:
	json_decref(groups);
	json_decref(o);
	summary_free(&sm);
	report_game_list_free(&gl);
	free(scope);
	return rc;
}


/* ---- a summary fed with rows read elsewhere (reports.h, "report_feed") ---- */

struct report_feed {
	struct report_query q;
	struct summary sm;
	struct game_list gl;
};

struct report_feed *
report_feed_new(const struct report_query *q, struct pb_error *err)
{
	struct report_feed *f = calloc(1, sizeof(*f));

	if (f == NULL) {
		pb_oom(err);
		return NULL;
	}
	f->q = *q;
	f->sm.q = &f->q;
	f->sm.from_hour = q->from_ms / 1000;
	f->sm.to_hour = q->to_ms / 1000;
	f->sm.emit_from = f->sm.from_hour;
	f->sm.emit_to = f->sm.to_hour;
	return f;
}

int
report_feed_row(struct report_feed *f, const struct report_hour *row, struct pb_error *err)
{
	if (row->hour < f->sm.from_hour - 3600 || row->hour >= f->sm.to_hour + 3600)
		return 0;
	return summary_row(&f->sm, row, err);
}

void
report_feed_emit(struct report_feed *f, int64_t from, int64_t to)
{
	f->sm.emit_from = from;
	f->sm.emit_to = to;
}

int
report_feed_span(struct report_feed *f, const struct report_hour *row, bool carry_only, int64_t spans_from,
    struct pb_error *err)
{
	f->sm.spans_from = spans_from;
	return carry_only ? summary_carry_only(&f->sm, row, err) : summary_span(&f->sm, row, err);
}

int
report_feed_flush(struct report_feed *f, struct pb_error *err)
{
	if (summary_flush(&f->sm, err) < 0)
		return -1;
	if (f->sm.series != NULL)
		memset(f->sm.series, 0, f->sm.series_cap * sizeof(f->sm.series[0]));
	f->sm.series_count = 0;
	return 0;
}

int
report_feed_game(struct report_feed *f, int64_t rules_id, const struct rules *r, const char *sha256,
    struct pb_error *err)
{
	struct game_list *gl = &f->gl;

	if (report_game_list_reserve(gl, err) < 0)
		return -1;
	if (report_game_figures(r, sha256, &gl->items[gl->count].f, err) < 0)
		return -1;
	gl->items[gl->count++].rules_id = rules_id;
	return 0;
}

/* Adds group src's sums, play time and games to dst. */
static int
acc_merge(struct group_acc *dst, const struct group_acc *src, struct pb_error *err)
{
	int rc = 0;

	for (int i = 0; i < src->part_count; i++) {
		struct game_part *part = acc_part(dst, src->parts[i].rules_id, err);
		if (part == NULL)
			return -1;
		for (int w = 0; w < WAGER_COUNT; w++) {
			rc |= add_checked(&part->handle[w], src->parts[i].handle[w], err);
			rc |= add_checked(&part->lines[w], src->parts[i].lines[w], err);
		}
	}
	rc |= add_checked(&dst->rounds, src->rounds, err);
	rc |= add_checked(&dst->voids, src->voids, err);
	rc |= add_checked(&dst->hands, src->hands, err);
	rc |= add_checked(&dst->play_ms, src->play_ms, err);
	rc |= add_checked(&dst->banked_rounds, src->banked_rounds, err);
	rc |= add_checked(&dst->collections, src->collections, err);
	rc |= add_checked(&dst->house_handle, src->house_handle, err);
	for (int w = 0; w < WAGER_COUNT; w++) {
		rc |= add_checked(&dst->handle[w], src->handle[w], err);
		rc |= add_checked(&dst->win[w], src->win[w], err);
		rc |= add_checked(&dst->banker[w], src->banker[w], err);
	}
	return rc ? -1 : 0;
}

int
report_feed_merge(struct report_feed *into, const struct report_feed *part, const char *property,
    enum report_merge how, struct pb_error *err)
{
	char key[KEY_MAX];
	struct group_acc *g;

	for (size_t i = 0; how != REPORT_MERGE_TOTALS && i < part->sm.count; i++) {
		const struct group_acc *src = &part->sm.groups[i];
		if (how == REPORT_MERGE_PREFIXED)
			snprintf(key, sizeof(key), "%s/%s", property, src->key);
		else
			snprintf(key, sizeof(key), "%s", src->key);
		if ((g = group_get(&into->sm, key, src->order, err)) == NULL || acc_merge(g, src, err) < 0)
			return -1;
	}
	if (how == REPORT_MERGE_TOTALS &&
	    ((g = group_get(&into->sm, property, 0, err)) == NULL || acc_merge(g, &part->sm.totals, err) < 0))
		return -1;
	return acc_merge(&into->sm.totals, &part->sm.totals, err);
}

json_t *
report_feed_json(struct report_feed *f, struct pb_error *err)
{
	json_t *groups = json_array(), *totals;

	if (groups == NULL) {
		pb_oom(err);
		return NULL;
	}
	if (f->sm.count > 0)
		qsort(f->sm.groups, f->sm.count, sizeof(f->sm.groups[0]), cmp_group);
	for (size_t i = 0; i < f->sm.count; i++) {
		json_t *g = report_group_json(NULL, &f->gl, &f->sm.groups[i], true, err);
		if (g == NULL || json_array_append_new(groups, g) < 0) {
			json_decref(groups);
			return NULL;
		}
	}
	if ((totals = report_group_json(NULL, &f->gl, &f->sm.totals, false, err)) == NULL) {
		json_decref(groups);
		return NULL;
	}
	return json_pack("{s:o,s:o}", "groups", groups, "totals", totals);
}

void
report_feed_free(struct report_feed *f)
{
	if (f == NULL)
		return;
	summary_free(&f->sm);
	report_game_list_free(&f->gl);
	free(f);
}

void
report_split_months(const struct gaming_calendar *made, struct report_split *sp)
{
	sp->spans = true;
	if (sp->months) {
		sp->m1 = report_gmonth_start(made, sp->a);
		if (sp->m1 < sp->a)
			sp->m1 = report_gmonth_next(made, sp->m1);
		sp->m2 = report_gmonth_start(made, sp->b);
	}
	if (!sp->months || sp->m2 <= sp->m1)       /* no whole month: units only */
		sp->m1 = sp->m2 = sp->b;
}
