/*
 * reports_statistics.c - the statistics report (reports.h
 * pit_report_statistics, docs/reports.md "Statistics"): per table and
 * game, each gaming day of a month up to today, the month to date and the
 * year to date, the count (drop, count win, win per drop: acct_counts.c,
 * the master game's formulas) beside the hands (hand win, handle,
 * theoretical win and win per handle, the 95% interval: the summary's
 * figures, through a report feed per row and period), with the interval's
 * flag and the distance from the game's configured baseline.
 *
 * Beside the month to date: the month before (prior_month), and the
 * breakdown by the property's shifts of both (acct_shifts.c: each shift's
 * window as the master game counts it, its hand win the rounds of its
 * sessions' closed segments).
 *
 * One read of the day roll-ups (report_spans by table and game, when they
 * were made for the property's gaming days) from the earlier of January 1
 * and the month before's first day to the last day rolled up, of the hour
 * rows after it, and one of their documents; without roll-ups, of the hour
 * rows alone.  A table's documents of
 * a day count for the game of its last round that day (else of the latest
 * day before with rounds, else its configured game).  A table's day whose
 * session is still open (an opener without its closer) is left out of the
 * count and counted as incomplete.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "table/accounting/accounting.h"
#include "table/reports/reports_private.h"
#include "table/rounds/rounds.h"

#define DAY_LEN 11                      /* YYYY-MM-DD */

/* The count's sums of one period. */
struct st_count {
	int64_t drop, win;
	int drops;                          /* drop documents */
	int incomplete;                     /* table-days left out: their session still open */
};

/* One shift's sums over a period: its complete windows' count and hands. */
struct st_shift_sum {
	int64_t drop, win, hand_win;
	int windows, incomplete;            /* table-days of the shift counted, and left out (not complete) */
};

/* One shift of a row: the month to date and the month before. */
struct st_shift {
	struct st_shift_sum mtd, prior;
};

/* A row: one table and game. */
struct st_row {
	size_t table;                       /* index in cfg->tables */
	char game[RULES_NAME_MAX];
	struct report_feed *month, *year, *prior;
	struct st_count *days, mtd, ytd, prior_count;   /* days: [month's days] */
	struct st_shift *shifts;            /* [the property's shifts] */
};

struct st_game {
	int64_t rules_id;
	char sha[PB_SHA256_HEX_LEN];
	struct rules r;
};

struct stats {
	struct pit *p;
	struct report_query mq, yq, pq;     /* the month's feeds (by day), the year's and the month before's (one group) */
	int64_t year_day, ydays, mdays;     /* Jan 1, the days of the year and of the month reported */
	int64_t prior_day, pdays;           /* the month before's first day and its days */
	int64_t base_day, bdays;            /* the earlier of Jan 1 and prior_day, and the days from it to the last reported */
	int64_t *last_rules;                /* [table * bdays + day - base_day]: the rules of the table's last row that day */
	struct st_game *games;
	size_t game_count;
	struct st_row *rows;
	size_t row_count;
	struct st_row total;                /* table unused, game "" */
	int64_t spans_to;                   /* Unix seconds: day roll-ups read before it, hour rows from it */
	bool *mixed;                        /* [as last_rules]: the day's roll-ups have more than one game */
	bool any_mixed;
};

/* The game of rules_id, read once per request. */
static struct st_game *
st_game(struct stats *st, int64_t rules_id, struct pb_error *err)
{
	struct st_game *n;

	for (size_t i = 0; i < st->game_count; i++)
		if (st->games[i].rules_id == rules_id)
			return &st->games[i];
	if ((n = realloc(st->games, (st->game_count + 1) * sizeof(*n))) == NULL) {
		pb_oom(err);
		return NULL;
	}
	st->games = n;
	n = &st->games[st->game_count];
	n->rules_id = rules_id;
	if (store_rules_get(st->p->store, rules_id, &n->r, n->sha, err) < 0)
		return NULL;
	st->game_count++;
	return n;
}

/* A row's feeds count the hour rows from the later of their start and the day roll-ups' end (st_read). */
static void
st_row_emit(struct stats *st, struct st_row *r)
{
	struct report_feed *f[3] = {r->month, r->year, r->prior};
	const struct report_query *q[3] = {&st->mq, &st->yq, &st->pq};

	for (int k = 0; k < 3; k++)
		report_feed_emit(f[k], q[k]->from_ms / 1000 > st->spans_to ? q[k]->from_ms / 1000 : st->spans_to,
		    q[k]->to_ms / 1000);
}

/* The feeds and day sums of a row (zeroed). */
static int
st_row_init(struct stats *st, struct st_row *r, struct pb_error *err)
{
	r->month = report_feed_new(&st->mq, err);
	r->year = report_feed_new(&st->yq, err);
	r->prior = report_feed_new(&st->pq, err);
	r->days = calloc((size_t)st->mdays, sizeof(r->days[0]));
	r->shifts = calloc((size_t)st->p->cfg->property.calendar.shift_count + 1, sizeof(r->shifts[0]));
	if (r->days == NULL || r->shifts == NULL)
		pb_oom(err);
	if (!(r->month && r->year && r->prior && r->days && r->shifts))
		return -1;
	st_row_emit(st, r);
	return 0;
}

/* The row of table and game, made when new; NULL with err. */
static struct st_row *
st_row(struct stats *st, size_t table, const char *game, struct pb_error *err)
{
	struct st_row *n;

	for (size_t i = 0; i < st->row_count; i++)
		if (st->rows[i].table == table && strcmp(st->rows[i].game, game) == 0)
			return &st->rows[i];
	if ((n = realloc(st->rows, (st->row_count + 1) * sizeof(*n))) == NULL) {
		pb_oom(err);
		return NULL;
	}
	st->rows = n;
	n = &st->rows[st->row_count++];
	memset(n, 0, sizeof(*n));
	n->table = table;
	snprintf(n->game, sizeof(n->game), "%s", game);
	return st_row_init(st, n, err) < 0 ? NULL : n;
}

static size_t
table_index(const struct config *cfg, const char *id)
{
	for (size_t i = 0; i < cfg->table_count; i++)
		if (strcmp(cfg->tables[i].id, id) == 0)
			return i;
	return cfg->table_count;
}

/* One hour row (in hour order) into its row's feeds and the totals', and its table's game of the day. */
static int
st_hour(void *arg, const struct report_hour *h, struct pb_error *err)
{
	struct stats *st = arg;
	size_t t = table_index(st->p->cfg, h->table_id);
	struct st_game *g;
	struct st_row *r;
	int64_t day;

	if (t == st->p->cfg->table_count)
		return 0;                   /* a table no longer configured */
	if ((g = st_game(st, h->rules_id, err)) == NULL || (r = st_row(st, t, g->r.name, err)) == NULL)
		return -1;
	day = gaming_day_of(&st->p->cfg->property.calendar, h->hour) - st->base_day;
	if (day >= 0 && day < st->bdays)
		st->last_rules[t * (size_t)st->bdays + (size_t)day] = h->rules_id;
	if (report_feed_row(r->month, h, err) < 0 || report_feed_row(r->year, h, err) < 0 ||
	    report_feed_row(r->prior, h, err) < 0 || report_feed_row(st->total.month, h, err) < 0 ||
	    report_feed_row(st->total.year, h, err) < 0 || report_feed_row(st->total.prior, h, err) < 0)
		return -1;
	return 0;
}

/* The feeds of row r and of the totals, with the query of each. */
static void
st_feeds(struct stats *st, struct st_row *r, struct report_feed *f[6], const struct report_query *q[6])
{
	f[0] = r->month, f[1] = r->year, f[2] = r->prior;
	f[3] = st->total.month, f[4] = st->total.year, f[5] = st->total.prior;
	q[0] = q[3] = &st->mq, q[1] = q[4] = &st->yq, q[2] = q[5] = &st->pq;
}

/*
 * A day roll-up row into a feed: counted with its carry when it starts in
 * the feed's range before the hours read (spans_to), but for the carry of
 * the feed's first day (owed to the hours before the range); the carry
 * alone of the day at the end of the roll-ups read (or of the range), owed
 * to the hour before it.
 */
static int
st_feed_span(struct report_feed *f, const struct report_query *q, int64_t spans_to, const struct report_hour *h,
    struct pb_error *err)
{
	int64_t from = q->from_ms / 1000, to = q->to_ms / 1000, end = to < spans_to ? to : spans_to;

	if (h->hour < from)
		return 0;
	if (h->hour < end)
		return report_feed_span(f, h, false, from, err);
	if (h->hour == end && h->hour > from)
		return report_feed_span(f, h, true, from, err);
	return 0;
}

/*
 * One day roll-up row (by table and game, in start order) into its row's
 * feeds and the totals', and its table's game of the day (a day with more
 * than one game is marked: its hours tell the last, st_mixed_days).
 */
static int
st_span(void *arg, const struct report_hour *h, struct pb_error *err)
{
	struct stats *st = arg;
	size_t t = table_index(st->p->cfg, h->table_id);
	struct report_feed *f[6];
	const struct report_query *q[6];
	struct st_game *g;
	struct st_row *r;
	int64_t day;

	if (t == st->p->cfg->table_count)
		return 0;                   /* a table no longer configured */
	if (h->hour >= st->spans_to && h->carry_ms == 0)
		return 0;                   /* the day after the roll-ups read, for its carry only: none */
	if ((g = st_game(st, h->rules_id, err)) == NULL || (r = st_row(st, t, g->r.name, err)) == NULL)
		return -1;
	day = gaming_day_of(&st->p->cfg->property.calendar, h->hour) - st->base_day;
	if (h->hour < st->spans_to && day >= 0 && day < st->bdays) {
		size_t at = t * (size_t)st->bdays + (size_t)day;
		if (st->last_rules[at] != 0 && st->last_rules[at] != h->rules_id)
			st->mixed[at] = st->any_mixed = true;
		st->last_rules[at] = h->rules_id;
	}
	st_feeds(st, r, f, q);
	for (int i = 0; i < 6; i++)
		if (st_feed_span(f[i], q[i], st->spans_to, h, err) < 0)
			return -1;
	return 0;
}

/* An hour row of a day with more than one game: the game of its table's last row that day (rows in hour order). */
static int
st_mixed_hour(void *arg, const struct report_hour *h, struct pb_error *err)
{
	struct stats *st = arg;
	size_t t = table_index(st->p->cfg, h->table_id);
	int64_t day = gaming_day_of(&st->p->cfg->property.calendar, h->hour) - st->base_day;

	(void)err;
	if (t < st->p->cfg->table_count && day >= 0 && day < st->bdays && st->mixed[t * (size_t)st->bdays + (size_t)day])
		st->last_rules[t * (size_t)st->bdays + (size_t)day] = h->rules_id;
	return 0;
}

/* The days rolled up with more than one game at a table: their hours read for the last game. */
static int
st_mixed_days(struct stats *st, const char *scope, struct pb_error *err)
{
	const struct gaming_calendar *cal = &st->p->cfg->property.calendar;
	size_t tables = st->p->cfg->table_count;

	for (int64_t d = 0; st->any_mixed && d < st->bdays; d++) {
		bool any = false;
		int64_t from, to;
		int rc;

		for (size_t t = 0; t < tables && !any; t++)
			any = st->mixed[t * (size_t)st->bdays + (size_t)d];
		if (!any)
			continue;
		gaming_day_bounds(cal, st->base_day + d, &from, &to);
		if ((rc = store_report_hours(st->p->store, scope, from, to, st_mixed_hour, st, err)) != 0)
			return rc;
	}
	return 0;
}

/*
 * The rows of the period: the day roll-ups where they were made for the
 * property's gaming days (from the first day to the last rolled up), then
 * the hour rows to the end, each feed counting the hours from the later of
 * its start and the roll-ups' end.  One read snapshot (the caller's).
 */
static int
st_read(struct stats *st, const struct report_query *q, const char *scope, struct pb_error *err)
{
	const struct gaming_calendar *cal = &st->p->cfg->property.calendar, *made = NULL;
	char made_text[REPORT_CALENDAR_MAX];
	int64_t days_before = 0, from = (st->pq.from_ms < st->yq.from_ms ? st->pq.from_ms : st->yq.from_ms) / 1000;
	int64_t to = q->to_ms / 1000, end;
	int rc;

	st->spans_to = from;
	if (!q->hours_only && (store_report_rollup_calendar(st->p->store, &days_before, made_text, err) < 0 ||
	    (made = report_calendar_of(made_text, err)) == NULL))
		return -1;
	if (made != NULL && made->day_start_min == cal->day_start_min && strcmp(tz_name(made->tz), tz_name(cal->tz)) == 0 &&
	    report_day_start(made, from) == from && from >= report_first_day(made)) {
		end = report_day_start(made, days_before - 3600 < to ? days_before - 3600 : to);
		if (end > from)
			st->spans_to = end;
	}
	if (st->spans_to > from) {
		/* The hour before the first day: its rows name their games as the hours' read would. */
		if ((rc = store_report_hours(st->p->store, scope, from - 3600, from, st_hour, st, err)) != 0 ||
		    (rc = store_report_spans(st->p->store, scope, REPORT_SPAN_DAY_TABLE, from, st->spans_to + 1, st_span, st,
		    err)) != 0 || (rc = st_mixed_days(st, scope, err)) != 0)
			return rc;
	}
	for (size_t i = 0; i <= st->row_count; i++)
		st_row_emit(st, i < st->row_count ? &st->rows[i] : &st->total);
	return store_report_hours(st->p->store, scope, st->spans_to - 3600, to + 3600, st_hour, st, err);
}

static int
count_add(struct st_count *c, int64_t drop, int64_t win, int drops, bool complete, struct pb_error *err)
{
	if (!complete) {
		c->incomplete++;
		return 0;
	}
	c->drops += drops;
	if (__builtin_add_overflow(c->drop, drop, &c->drop) || __builtin_add_overflow(c->win, win, &c->win))
		return pb_fail(err, 500, "report_overflow", "a report sum exceeds 64 bits");
	return 0;
}

/* The row of table t's game on a day whose rules are rules_id (0: none known, the table's configured game). */
static struct st_row *
st_row_of_day(struct stats *st, size_t t, int64_t rules_id, struct pb_error *err)
{
	struct st_game *g = rules_id ? st_game(st, rules_id, err) : NULL;

	if (rules_id && g == NULL)
		return NULL;
	return st_row(st, t, g ? g->r.name : st->p->cfg->tables[t].rules->name, err);
}

/* A count into a period of the row and of the totals. */
static int
count_add_both(struct st_count *a, struct st_count *b, const struct acct_count *c, int64_t win, struct pb_error *err)
{
	bool complete = c->open_segments == 0;

	if (count_add(a, c->drop, win, c->drop_count, complete, err) < 0 ||
	    count_add(b, c->drop, win, c->drop_count, complete, err) < 0)
		return -1;
	return 0;
}

/* A day's documents of table t (day: days since base_day) into the row of its game, and the totals. */
static int
st_day_count(struct stats *st, size_t t, int64_t day, int64_t rules_id, const struct acct_count *c,
    struct pb_error *err)
{
	struct st_row *r;
	int64_t win, abs_day = st->base_day + day, m = abs_day - st->mq.first_day;

	if (acct_count_win(c, &win, err) < 0 || (r = st_row_of_day(st, t, rules_id, err)) == NULL)
		return -1;
	if (abs_day >= st->prior_day && abs_day < st->prior_day + st->pdays &&
	    count_add_both(&r->prior_count, &st->total.prior_count, c, win, err) < 0)
		return -1;
	if (abs_day >= st->year_day && count_add_both(&r->ytd, &st->total.ytd, c, win, err) < 0)
		return -1;
	if (m < 0)
		return 0;
	if (count_add_both(&r->mtd, &st->total.mtd, c, win, err) < 0 || count_add_both(&r->days[m], &st->total.days[m], c, win, err) < 0)
		return -1;
	return 0;
}

/* The documents of the year to date, table by table and day by day, into the rows. */
static int
st_counts(struct stats *st, const struct actor *a, const char *table_id, struct pb_error *err)
{
	const struct config *cfg = st->p->cfg;
	struct acct_count *cells;
	int rc = 0;

	if (acct_counts(st->p, st->base_day, st->base_day + st->bdays - 1, &cells, err) < 0)
		return -1;
	for (size_t t = 0; rc == 0 && t < cfg->table_count; t++) {
		int64_t rules_id = 0;
		if ((table_id != NULL && strcmp(cfg->tables[t].id, table_id) != 0) ||
		    (a->token != NULL && !token_allows_table(a->token, cfg->tables[t].id)))
			continue;
		for (int64_t d = 0; rc == 0 && d < st->bdays; d++) {
			const struct acct_count *c = &cells[t * (size_t)st->bdays + (size_t)d];
			if (st->last_rules[t * (size_t)st->bdays + (size_t)d] != 0)
				rules_id = st->last_rules[t * (size_t)st->bdays + (size_t)d];
			if (acct_count_any(c))
				rc = st_day_count(st, t, d, rules_id, c, err);
		}
	}
	free(cells);
	return rc;
}

/* A shift's window of one day into a period's sums: counted when complete, else counted as incomplete. */
static int
shift_add(struct st_shift_sum *s, const struct acct_shift_cell *c, struct pb_error *err)
{
	int64_t win;

	if (!acct_count_complete(&c->c)) {
		s->incomplete++;
		return 0;
	}
	if (acct_count_win(&c->c, &win, err) < 0)
		return -1;
	s->windows++;
	if (__builtin_add_overflow(s->drop, c->c.drop, &s->drop) || __builtin_add_overflow(s->win, win, &s->win) ||
	    __builtin_add_overflow(s->hand_win, c->hand_win, &s->hand_win))
		return pb_fail(err, 500, "report_overflow", "a report sum exceeds 64 bits");
	return 0;
}

/* The shifts of the month before and of the month to date, table by table and day by day, into the rows. */
static int
st_shifts(struct stats *st, const struct actor *a, const char *table_id, struct pb_error *err)
{
	const struct config *cfg = st->p->cfg;
	int shifts = cfg->property.calendar.shift_count;
	int64_t from = st->prior_day, days = st->mq.gaming_day - from + 1, off = from - st->base_day;
	struct acct_shift_cell *cells;
	int rc = 0;

	if (shifts == 0)
		return 0;
	if (acct_shift_counts(st->p, from, st->mq.gaming_day, &cells, err) < 0)
		return -1;
	for (size_t t = 0; rc == 0 && t < cfg->table_count; t++) {
		int64_t rules_id = 0;
		if ((table_id != NULL && strcmp(cfg->tables[t].id, table_id) != 0) ||
		    (a->token != NULL && !token_allows_table(a->token, cfg->tables[t].id)))
			continue;
		for (int64_t d = 0; d < off; d++)       /* the rules of the days before the month before */
			if (st->last_rules[t * (size_t)st->bdays + (size_t)d] != 0)
				rules_id = st->last_rules[t * (size_t)st->bdays + (size_t)d];
		for (int64_t d = 0; rc == 0 && d < days; d++) {
			bool mtd = from + d >= st->mq.first_day;
			struct st_row *r = NULL;
			if (st->last_rules[t * (size_t)st->bdays + (size_t)(off + d)] != 0)
				rules_id = st->last_rules[t * (size_t)st->bdays + (size_t)(off + d)];
			for (int s = 0; rc == 0 && s < shifts; s++) {
				const struct acct_shift_cell *c = &cells[(t * (size_t)days + (size_t)d) * (size_t)shifts + (size_t)s];
				if (!acct_count_any(&c->c))
					continue;
				if (r == NULL && (r = st_row_of_day(st, t, rules_id, err)) == NULL) {
					rc = -1;
					break;
				}
				rc = shift_add(mtd ? &r->shifts[s].mtd : &r->shifts[s].prior, c, err) < 0 ||
				    shift_add(mtd ? &st->total.shifts[s].mtd : &st->total.shifts[s].prior, c, err) < 0 ? -1 : 0;
			}
		}
	}
	free(cells);
	return rc;
}

/* Flushes a feed, gives it every game read, and makes its JSON (new reference; NULL with err). */
static json_t *
st_feed_json(struct stats *st, struct report_feed *f, struct pb_error *err)
{
	if (report_feed_flush(f, err) < 0)
		return NULL;
	for (size_t i = 0; i < st->game_count; i++)
		if (report_feed_game(f, st->games[i].rules_id, &st->games[i].r, st->games[i].sha, err) < 0)
			return NULL;
	return report_feed_json(f, err);
}

/* A row's feeds' JSON (new references). */
static int
st_feeds_json(struct stats *st, struct st_row *r, json_t **month, json_t **year, json_t **prior, struct pb_error *err)
{
	*month = *year = *prior = NULL;
	if ((*month = st_feed_json(st, r->month, err)) == NULL || (*year = st_feed_json(st, r->year, err)) == NULL ||
	    (*prior = st_feed_json(st, r->prior, err)) == NULL)
		return -1;
	return 0;
}

static bool
baseline_of(const struct accounting_config *ac, const char *game, double *value)
{
	for (size_t i = 0; game[0] && i < ac->baseline_count; i++)
		if (strcmp(ac->baselines[i].game, game) == 0) {
			*value = ac->baselines[i].value;
			return true;
		}
	return false;
}

/*
 * The figures of a period: the count's (c), the hands' (g, a summary group
 * or its totals; NULL when nothing was dealt) and the flags.  has_base: the
 * game's baseline; interval: whether the summary's interval flag applies.
 */
static json_t *
st_figures(const struct accounting_config *ac, const struct st_count *c, const json_t *g, bool has_base, double base,
    bool interval)
{
	json_t *wpd = c->drop != 0 ? json_real((double)c->win / (double)c->drop) : json_null();
	json_t *bflag = json_null(), *iflag = interval && g ? json_deep_copy(json_object_get(g, "hold_flag")) : NULL;
	const json_t *handle = g ? json_object_get(json_object_get(g, "handle"), "total") : NULL;

	if (has_base && c->drop != 0) {
		double v = (double)c->win / (double)c->drop;
		if (fabs(v - base) > ac->win_per_drop_tolerance)
			bflag = json_string(v > base ? "high" : "low");
	}
	return json_pack("{s:I,s:I,s:i,s:i,s:o,s:I,s:I,s:I,s:O?,s:O?,s:O?,s:{s:o,s:o}}",
	    "drop", (json_int_t)c->drop, "win", (json_int_t)c->win, "drops", c->drops, "incomplete", c->incomplete,
	    "win_per_drop", wpd,
	    "hand_win", (json_int_t)(g ? json_integer_value(json_object_get(g, "win")) : 0),
	    "handle", (json_int_t)(handle ? json_integer_value(handle) : 0),
	    "theoretical_win", (json_int_t)(g ? json_integer_value(json_object_get(g, "theoretical_win")) : 0),
	    "theoretical_win_per_handle", g ? json_object_get(g, "theoretical_win_per_handle") : NULL,
	    "win_per_handle", g ? json_object_get(g, "win_per_handle") : NULL,
	    "win_interval", g ? json_object_get(g, "win_interval") : NULL,
	    "flags", "interval", iflag ? iflag : json_null(), "baseline", bflag);
}

/* A group of the month feed's JSON by its key (a gaming day), or NULL. */
static const json_t *
group_of(const json_t *month, const char *key)
{
	size_t i;
	const json_t *g;

	json_array_foreach(json_object_get(month, "groups"), i, g)
		if (strcmp(json_string_value(json_object_get(g, "key")), key) == 0)
			return g;
	return NULL;
}

/* A shift's sums over a period: its count, its hands, their variance (new reference). */
static json_t *
st_shift_json(const struct st_shift_sum *s)
{
	return json_pack("{s:I,s:I,s:o,s:I,s:I,s:i,s:i}", "drop", (json_int_t)s->drop, "win", (json_int_t)s->win,
	    "win_per_drop", s->drop != 0 ? json_real((double)s->win / (double)s->drop) : json_null(),
	    "hand_win", (json_int_t)s->hand_win, "variance", (json_int_t)(s->win - s->hand_win),
	    "windows", s->windows, "incomplete", s->incomplete);
}

/* A row's shifts: [{"shift", "month_to_date", "prior_month"}, ...] in the property's order (new reference). */
static json_t *
st_shifts_json(const struct stats *st, const struct st_row *r)
{
	const struct gaming_calendar *cal = &st->p->cfg->property.calendar;
	json_t *arr = json_array();

	for (int i = 0; arr != NULL && i < cal->shift_count; i++) {
		json_t *o = json_pack("{s:s,s:o,s:o}", "shift", cal->shifts[i].name,
		    "month_to_date", st_shift_json(&r->shifts[i].mtd), "prior_month", st_shift_json(&r->shifts[i].prior));
		if (o == NULL || json_array_append_new(arr, o) < 0) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/*
 * A row's (or the total's) periods as {"days", "month_to_date",
 * "year_to_date", "prior_month", "shifts"} (new reference).
 */
static json_t *
st_row_json(struct stats *st, struct st_row *r, bool has_base, double base, bool interval, struct pb_error *err)
{
	const struct accounting_config *ac = &st->p->cfg->accounting;
	json_t *month = NULL, *year = NULL, *prior = NULL, *days = json_array(), *o = NULL;
	char key[DAY_LEN];

	if (days == NULL || st_feeds_json(st, r, &month, &year, &prior, err) < 0)
		goto out;
	for (int64_t d = 0; d < st->mdays; d++) {
		json_t *f;
		gaming_day_format(st->mq.first_day + d, key);
		f = st_figures(ac, &r->days[d], group_of(month, key), has_base, base, interval);
		if (f == NULL || json_object_set_new(f, "gaming_day", json_string(key)) < 0 || json_array_append_new(days, f) < 0)
			goto out;
	}
	o = json_pack("{s:O,s:o,s:o,s:o,s:o}", "days", days,
	    "month_to_date", st_figures(ac, &r->mtd, json_object_get(month, "totals"), has_base, base, interval),
	    "year_to_date", st_figures(ac, &r->ytd, json_object_get(year, "totals"), has_base, base, interval),
	    "prior_month", st_figures(ac, &r->prior_count, json_object_get(prior, "totals"), has_base, base, interval),
	    "shifts", st_shifts_json(st, r));
out:
	if (o == NULL && err->status == 0)
		pb_oom(err);
	json_decref(days);
	json_decref(month);
	json_decref(year);
	json_decref(prior);
	return o;
}

static int
cmp_row(const void *a, const void *b)
{
	const struct st_row *x = a, *y = b;

	if (x->table != y->table)
		return x->table < y->table ? -1 : 1;
	return strcmp(x->game, y->game);
}

/* Every row's JSON and the total's into out. */
static int
st_json(struct stats *st, const struct report_query *q, json_t **out, struct pb_error *err)
{
	const struct config *cfg = st->p->cfg;
	json_t *rows = json_array(), *o;
	char first[DAY_LEN], last[DAY_LEN], jan1[DAY_LEN], prior_first[DAY_LEN], prior_last[DAY_LEN];

	if (st->row_count > 0)
		qsort(st->rows, st->row_count, sizeof(st->rows[0]), cmp_row);
	for (size_t i = 0; rows != NULL && i < st->row_count; i++) {
		const struct table_config *t = &cfg->tables[st->rows[i].table];
		double base = 0;
		bool has_base = baseline_of(&cfg->accounting, st->rows[i].game, &base);
		if ((o = st_row_json(st, &st->rows[i], has_base, base, !t->player_banked, err)) == NULL)
			goto fail;
		json_object_set_new(o, "table", json_string(t->id));
		json_object_set_new(o, "game", json_string(st->rows[i].game));
		json_object_set_new(o, "player_banked", json_boolean(t->player_banked));
		json_object_set_new(o, "baseline", has_base ? json_real(base) : json_null());
		json_array_append_new(rows, o);
	}
	if (rows == NULL || (o = st_row_json(st, &st->total, false, 0, true, err)) == NULL)
		goto fail;
	gaming_day_format(q->first_day, first);
	gaming_day_format(q->gaming_day, last);
	gaming_day_format(st->year_day, jan1);
	gaming_day_format(st->prior_day, prior_first);
	gaming_day_format(st->prior_day + st->pdays - 1, prior_last);
	*out = json_pack("{s:s%,s:s,s:s,s:s,s:{s:s%,s:s,s:s},s:o,s:s,s:f,s:o,s:o}", "month", first, (size_t)7,
	    "from_day", first, "to_day", last, "year_from_day", jan1,
	    "prior_month", "month", prior_first, (size_t)7, "from_day", prior_first, "to_day", prior_last,
	    "table", report_table_json(q), "time_zone", cfg->property.time_zone,
	    "win_per_drop_tolerance", cfg->accounting.win_per_drop_tolerance, "rows", rows, "total", o);
	if (*out == NULL)
		return pb_oom(err);
	return 0;
fail:
	json_decref(rows);
	if (err->status == 0)
		pb_oom(err);
	return -1;
}

/* The feeds' queries and the year's first day (the gaming day of January 1 of the month's year). */
static void
st_setup(struct stats *st, const struct report_query *q)
{
	const struct gaming_calendar *cal = &st->p->cfg->property.calendar;
	char text[DAY_LEN];
	int64_t from_s, to_s;

	gaming_day_format(q->first_day, text);
	memcpy(text + 5, "01-01", 5);
	gaming_day_parse(text, &st->year_day);
	st->ydays = q->gaming_day - st->year_day + 1;
	st->mdays = q->gaming_day - q->first_day + 1;
	/* the month before: from its first day to the day before the month reported */
	gaming_day_format(q->first_day - 1, text);
	memcpy(text + 8, "01", 2);
	gaming_day_parse(text, &st->prior_day);
	st->pdays = q->first_day - st->prior_day;
	st->base_day = st->prior_day < st->year_day ? st->prior_day : st->year_day;
	st->bdays = q->gaming_day - st->base_day + 1;
	st->mq = *q;
	st->mq.kind = REPORT_SUMMARY;
	st->mq.group = REPORT_GROUP_DAY;
	st->mq.table[0] = '\0';
	st->yq = st->mq;
	st->yq.group = REPORT_GROUP_TABLE;
	gaming_day_bounds(cal, st->year_day, &from_s, &to_s);
	st->yq.from_ms = from_s * 1000;
	st->pq = st->yq;
	gaming_day_bounds(cal, st->prior_day, &from_s, &to_s);
	st->pq.from_ms = from_s * 1000;
	gaming_day_bounds(cal, q->first_day, &from_s, &to_s);
	st->pq.to_ms = from_s * 1000;
}

static void
st_free(struct stats *st)
{
	for (size_t i = 0; i <= st->row_count; i++) {
		struct st_row *r = i < st->row_count ? &st->rows[i] : &st->total;
		report_feed_free(r->month);
		report_feed_free(r->year);
		report_feed_free(r->prior);
		free(r->days);
		free(r->shifts);
	}
	free(st->rows);
	free(st->games);
	free(st->last_rules);
	free(st->mixed);
}

int
pit_report_statistics(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err)
{
	struct stats st;
	char *scope = NULL;
	int rc = -1;

	*out = NULL;
	memset(&st, 0, sizeof(st));
	st.p = p;
	if (report_scope(p, a, q, &scope, err) < 0)
		return -1;
	st_setup(&st, q);
	st.last_rules = calloc(p->cfg->table_count * (size_t)st.bdays + 1, sizeof(st.last_rules[0]));
	st.mixed = calloc(p->cfg->table_count * (size_t)st.bdays + 1, sizeof(st.mixed[0]));
	if (st.last_rules == NULL || st.mixed == NULL) {
		pb_oom(err);
		goto out;
	}
	if (st_row_init(&st, &st.total, err) < 0 || store_snapshot_begin(p->store, err) < 0)
		goto out;
	rc = st_read(&st, q, scope, err);
	if (rc == 0)
		rc = st_counts(&st, a, q->table[0] ? q->table : NULL, err);
	if (rc == 0)
		rc = st_shifts(&st, a, q->table[0] ? q->table : NULL, err);
	store_snapshot_end(p->store);
	if (rc == 0)
		rc = st_json(&st, q, out, err);
out:
	st_free(&st);
	free(scope);
	return rc != 0 ? -1 : 0;
}
