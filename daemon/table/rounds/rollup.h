/*
 * rollup.h - play time of the report aggregates, and their roll-ups by UTC
 * day and month (report_spans, schema/006_report_days.sql) that let a
 * summary over a year read a few hundred rows instead of every table-hour.
 *
 * Play time (docs/reports.md, "Hands per hour"): a report_hours row plays
 * from its first round's opening to its last round's settlement, clamped to
 * its hour; when the same series (table, dealer, game) has a row in the
 * next hour that began within REPORT_JOIN_GAP_MS of this one's last round,
 * play went on across the hour: this row plays to its hour's end and the
 * next from its hour's start.  A roll-up row carries the play time of its
 * span with the span's last hours not extended into the next span, and
 * that extension owed to the span before it (carry_ms), so that spans add
 * up to what the hours give, to the millisecond.
 */
#ifndef PB_TABLE_ROLLUP_H
#define PB_TABLE_ROLLUP_H

#include <stdbool.h>
#include <stdint.h>

#include "store/reports.h"

#define REPORT_HOUR_MS 3600000LL
#define REPORT_JOIN_GAP_MS (15 * 60 * 1000LL)   /* a longer break between two hours is not play */

/* a / b rounded toward minus infinity (b > 0): the day or hour holding a time before 1970 too. */
int64_t report_floor_div(int64_t a, int64_t b);

/* *sum += v; on overflow 500 report_overflow with the message `overflow` (*sum then holds the wrapped sum). */
int report_sum_add(int64_t *sum, int64_t v, const char *overflow, struct pb_error *err);

/* Whether two rows are of the same series: table, dealer and game (rules). */
bool report_same_series(const struct report_hour *a, const struct report_hour *b);

/* Whether play went on from the hour row `before` into the hour row `after` (same series). */
bool report_joined(const struct report_hour *before, const struct report_hour *after);

/* The play time of one hour row, given whether it joins the hour before and the hour after. */
int64_t report_hour_play_ms(const struct report_hour *row, bool joined_before, bool joined_after);

/* The start of the UTC month holding t, and of the month after the one starting at m (Unix seconds). */
int64_t report_month_start(int64_t t);
int64_t report_month_next(int64_t m);

/*
 * Rolls up every UTC day before `until_day` (Unix seconds, a multiple of
 * 86400) not rolled up yet, and every month that ends by then, and moves
 * the mark there.  Runs in the caller's write transaction.  Days without
 * aggregates cost nothing.
 */
int report_rollup_advance(struct store *s, int64_t until_day, struct pb_error *err);

/*
 * After a round was added to report_hours (same transaction): when its hour
 * lies in a day already rolled up, rebuilds that day, the next, and their
 * months if rolled up; when it is the first round of a later day, rolls up
 * the days before.
 */
int report_rollup_after_round(struct store *s, int64_t settled_ms, struct pb_error *err);

/* At start-up: rolls up every day before the current one, in its own transaction. */
int report_rollup_catch_up(struct store *s, int64_t now_ms, struct pb_error *err);

#endif
