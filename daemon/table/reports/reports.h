/*
 * reports.h - the reports domain of the pit (docs/architecture.md, "The
 * pit's domains"), its only header another folder includes;
 * reports_private.h is its own.  The reports of API.md "Reports"
 * (docs/reports.md): the summary (handle, house win, hold, theoretical win and its interval,
 * hands per hour, grouped by hour, day, shift, table or dealer), the largest
 * payouts and the exceptions, as JSON and as CSV.
 *
 * Figures come from the per-hour aggregates and the record through
 * store/reports.h; the theoretical figures from the exact analysis of the
 * rules each round was dealt under (engine/analyze.h), cached per process.
 * Reading a report is for the pitboss, auditor and admin roles, within the
 * token's table scope.
 */
#ifndef PB_TABLE_REPORTS_H
#define PB_TABLE_REPORTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "common/ids.h"
#include "engine/round.h"
#include "table/core/core.h"

enum report_group { REPORT_GROUP_HOUR = 0, REPORT_GROUP_DAY, REPORT_GROUP_SHIFT, REPORT_GROUP_TABLE, REPORT_GROUP_DEALER,
    REPORT_GROUP_PLAYER };

enum report_kind { REPORT_SUMMARY = 0, REPORT_PAYOUTS, REPORT_EXCEPTIONS, REPORT_BANKERS, REPORT_DEALERS, REPORT_MASTER_GAME,
    REPORT_STATISTICS, REPORT_DECISIONS };

#define REPORT_SHIFTS_MAX 24
#define REPORT_DEFAULT_SHIFTS "06:00,14:00,22:00"
#define REPORT_PAYOUTS_DEFAULT_MIN 100000
#define REPORT_PAYOUTS_DEFAULT_LIMIT 100
#define REPORT_PAYOUTS_MAX_LIMIT 1000
#define REPORT_EXCEPTIONS_DEFAULT_LIMIT 1000
#define REPORT_EXCEPTIONS_MAX_LIMIT 10000
#define REPORT_HOUR_GROUPS_MAX 50000
#define REPORT_DEALERS_DEFAULT_LIMIT 1000
#define REPORT_DEALERS_MAX_LIMIT 10000

/* The query-string values of a report request as received; NULL when absent. */
struct report_params {
	const char *table;
	const char *from;
	const char *to;
	const char *group;
	const char *shifts;
	const char *tz_offset;
	const char *min;
	const char *limit;
	const char *gaming_day;         /* master-game, decisions */
	const char *shift;              /* master-game: a shift's name */
	const char *month;              /* statistics: YYYY-MM */
	const struct property_config *property;  /* the property's calendar; NULL: UTC days (as at tz_offset=0) */
};

/* A checked report request. */
struct report_query {
	enum report_kind kind;
	char table[PB_ID_MAX];          /* "" = every table the actor may read */
	int64_t from_ms;                /* [from, to), Unix ms; the summary's are whole hours */
	int64_t to_ms;
	enum report_group group;
	int tz_offset;                  /* minutes east of UTC, for day and shift keys (when cal is NULL) */
	const struct property_config *property;   /* when the query follows the property's zone (no tz_offset) */
	const struct gaming_calendar *cal;        /* &property->calendar, or NULL: days at the fixed tz_offset */
	bool utc_days;                  /* the days are UTC days: the day roll-ups may be read for group=day */
	bool named_shifts;              /* group=shift by the property's shifts (no shifts= in the query) */
	int shift_count;
	int shifts[REPORT_SHIFTS_MAX];  /* local start times, minutes after midnight, ascending (the property's: in its order) */
	int64_t min_net;                /* payouts */
	int limit;                      /* payouts, exceptions */
	bool hours_only;                /* summary, statistics: read the hourly rows only, never the roll-ups (tests) */
	int64_t gaming_day;             /* master-game: the gaming day (days since 1970-01-01) */
	int shift;                      /* master-game: an index of the property's shifts, -1 for the whole day */
	int64_t first_day;              /* statistics: the month's first gaming day (gaming_day: the last one reported) */
};

/*
 * Checks a report request's parameters (400 invalid_query naming the
 * parameter) and fills q.  Without tz_offset, days are the property's
 * gaming days in its zone (rp->property; UTC days when NULL): the default
 * range is the current gaming day, a date-only "from" the start of that
 * gaming day and a date-only "to" its end.  With tz_offset (superseded,
 * kept for one release) days are calendar days at that fixed offset, as
 * before.  The summary's range is widened to whole hours.
 */
int report_query_parse(enum report_kind kind, const struct report_params *rp, int64_t now_ms,
    struct report_query *q, struct pb_error *err);

/*
 * The reports as JSON (new reference in *out).  403 for the dealer role or
 * a table outside the token's scope, 404 for an unknown table.
 */
int pit_report_summary(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err);
int pit_report_payouts(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err);
int pit_report_exceptions(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err);

/*
 * Gives each significant event (GET /events) whose detail names a round
 * its "round_no", the table's number of the round, so that with "table"
 * it makes the label the pages show (T1-277), as the exceptions and the
 * payouts rows have it (table/reports/reports_lists.c).  One read.
 */
int pit_events_round_nos(struct pit *p, json_t *events, struct pb_error *err);

/*
 * Player-banked tables (table/reports/reports_bankers.c): per table and per banker seat, the
 * banker's result, how often the bank ran out, wagers returned for lack of
 * coverage, unpaid shorts and the house's collections.  Every player-banked
 * table in scope, or q->table (404 not_player_banked for a house table).
 */
int pit_report_bankers(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err);

/*
 * The dealer rotation (table/reports/reports_dealers.c): the dealer changes made in
 * the range at the tables in scope, oldest first, each with the time the
 * table's next change ended that dealer's stint.
 */
int pit_report_dealers(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err);

/*
 * GET /reports/statistics?month=YYYY-MM (table/reports/reports_statistics.c): per
 * table and game, each gaming day of the month up to today, the month to
 * date and the year to date: drop, count win, win per drop, hand win,
 * handle, theoretical win and win per handle, and their flags; the totals
 * over every table in scope (docs/reports.md).
 */
int pit_report_statistics(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err);

/*
 * POST /variances/{table}/{gaming_day} {"status", "assignee"?, "cause"?,
 * "note", "witness"?} (table/reports/acct_variances.c, docs/accounting.md
 * "Variances investigated"): a step of the investigation of the table's
 * count variance of that gaming day, in the order assigned (again: a
 * reassignment), cause_found, resolved (409 investigation_out_of_order,
 * already_resolved).  A floor supervisor or pit boss signs; "resolved" is a
 * pit boss's, with a second pit boss or an admin as witness.  404
 * variance_not_found when the day's count is not complete or has no
 * variance.  201 {"table", "gaming_day", "investigation"}.
 */
int pit_variance_investigate(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const char *gaming_day, const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * GET /reports/decisions?gaming_day=D|from&to[&table][&group=player|dealer|table]
 * (table/reports/decisions.c, docs/protection.md): per group, the
 * decisions of the settled rounds in the range, the mistakes, the EV lost
 * and the z of knowledge of the dealer's hand, flagged at
 * protection.z_flag with protection.min_decisions.  Computed from the
 * recorded rounds at read time.
 */
int pit_report_decisions(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err);

/* Any of them by kind. */
int pit_report(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err);

/*
 * A report's JSON answer as CSV (RFC 4180, CRLF, a header row, every cell
 * by common/csv.h), columns documented in docs/reports.md.  Returns a malloc'd NUL-terminated buffer
 * and its length, or NULL when out of memory.
 */
char *report_csv(enum report_kind kind, const json_t *report, size_t *len);

/* The per-unit house edge and variance of each wager of a game (analysis, cached per process). */
struct game_figures {
	double edge[WAGER_COUNT];       /* [WAGER_ANTE]: the Ante/Play game per unit of Ante; play, ante_bonus: 0 */
	double variance[WAGER_COUNT];
	int64_t edge_exact[WAGER_COUNT];   /* the same edges exactly, numerators over THEO_DEN (engine/theo.h) */
};

/* The figures of these rules; sha256 is the canonical rules' hash (the cache key). */
int report_game_figures(const struct rules *r, const char *sha256, struct game_figures *out, struct pb_error *err);

/* ---- the accounting exceptions' acknowledgments (acct_exceptions.c) and rated play (rating.c) ---- */

/*
 * POST /exceptions/acknowledgments {"kind", "table", "ref", "note"} by the
 * pitboss role: the exception (an opener's discrepancy, ref its document
 * id; a flagged count variance, ref "YYYY-MM-DD" or "YYYY-MM-DD/SHIFT") is
 * acknowledged, recorded as the table event exception_acknowledged.
 */
int pit_acct_acknowledge(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err);

/* GET /players/{id}/rating?from&to (times; absent: all). */
int pit_player_rating(struct pit *p, const struct actor *a, const char *id, const char *from, const char *to,
    json_t **out, struct pb_error *err);

/* GET /reports/ratings?gaming_day=D: every rated player of the day, the day's manual ratings and the coverage. */
int pit_ratings_report(struct pit *p, const struct actor *a, const char *gaming_day, json_t **out, struct pb_error *err);

/*
 * POST /players/{id}/ratings {"average_bet", "minutes", "game"?, "table"?,
 * "decisions_per_hour"?, "note"?} by a floor supervisor or pit boss: a
 * manual rating (table/players/players.h), its theoretical win at the
 * game's exact Ante/Play edge; 201 the rating.
 */
int pit_player_manual_rating(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/* ---- a summary of hour rows read elsewhere: the central copy's (reports_summary.c) ---- */

/*
 * The same grouping and figures as pit_report_summary, fed with rows read
 * from another record (the central copy, one property at a time) and merged
 * across properties.  Each property's rows go into a feed of its own (its
 * query: its calendar, its range), then into the combined one.
 */
struct report_feed;
struct report_hour;

/* How a property's groups join the combined summary. */
enum report_merge {
	REPORT_MERGE_KEY,              /* under their own key: a gaming day, a shift */
	REPORT_MERGE_PREFIXED,         /* under "PROPERTY/KEY": a table, a dealer */
	REPORT_MERGE_TOTALS,           /* the property's totals under its id: group=property */
};

/* A feed of q's grouping (q copied; its calendar must outlive the feed). */
struct report_feed *report_feed_new(const struct report_query *q, struct pb_error *err);

/*
 * A row, in hour order per table, dealer and game: rows within q's range
 * are counted, those in the hour before and after only show whether play
 * went on (as the summary reads its neighbours).
 */
int report_feed_row(struct report_feed *f, const struct report_hour *row, struct pb_error *err);

/* The end of the rows: each series' last row counted. */
int report_feed_flush(struct report_feed *f, struct pb_error *err);

/*
 * How a summary's range is read (report_split_range): when spans, hours
 * [from, a), day roll-ups [a, m1), month roll-ups [m1, m2), days [m2, b),
 * day b's carry alone, hours [b, to); else hours [from, to).  Roll-ups only
 * for groups that do not divide a day (table, dealer; day when the days are
 * UTC days), only for days starting before rolled_before - 1 day (the
 * next day's carry must be there), months only where whole ones fit.
 */
struct report_split {
	bool spans, months;
	int64_t from, to, a, b, m1, m2;   /* Unix seconds */
};
void report_split_range(const struct report_query *q, int64_t rolled_before, struct report_split *sp);

struct gaming_calendar;

/*
 * Ends a split whose roll-up units are [sp->a, sp->b) in the calendar made
 * (the calendar the roll-ups were made in): sets spans, and the whole months
 * [m1, m2) inside it when sp->months (m1 = m2 = b when none fits).
 */
void report_split_months(const struct gaming_calendar *made, struct report_split *sp);

/*
 * The hour rows fed next are counted within [from, to) only (the others
 * show joins): for the two ends of a split range.  report_feed_new sets q's
 * range.
 */
void report_feed_emit(struct report_feed *f, int64_t from, int64_t to);

/*
 * A roll-up row (span set, hour its start, play_ms and carry_ms as the
 * property's report_spans has them) counted with its carry, but for the
 * first day read (spans_from), whose carry is owed to the hours before; or,
 * carry_only, only its carry (day b's).
 */
int report_feed_span(struct report_feed *f, const struct report_hour *row, bool carry_only, int64_t spans_from,
    struct pb_error *err);

/* A game the rows name by rules_id, with its rules (analysed once). */
int report_feed_game(struct report_feed *f, int64_t rules_id, const struct rules *r, const char *sha256,
    struct pb_error *err);

/* Adds part's groups (flushed) to into, as how says. */
int report_feed_merge(struct report_feed *into, const struct report_feed *part, const char *property,
    enum report_merge how, struct pb_error *err);

/* {"groups": [...], "totals": {...}} as the summary shows them, groups sorted (new reference). */
json_t *report_feed_json(struct report_feed *f, struct pb_error *err);

void report_feed_free(struct report_feed *f);

#endif
