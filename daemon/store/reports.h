/*
 * reports.h - the store's side of the reports: the per-hour aggregates
 * (report_hours, schema/004_reports.sql), the largest payouts, and the
 * exceptions (void rounds, coverage shortfalls, significant events).
 * Rows only; grouping, hold and theoretical win are in table/reports/reports.c,
 * what a round adds to handle and win in engine/tally.h.
 *
 * Table scopes are passed as a JSON array of table ids (bound as one
 * parameter and read with json_each), or NULL for every table.
 * Times are the record's own strings (ISO 8601 UTC with milliseconds),
 * which sort in time order; ranges are [from, to).
 */
#ifndef PB_STORE_REPORTS_H
#define PB_STORE_REPORTS_H

#include "store/store.h"

/* ---- the hourly aggregates (reports.c) ---- */

/* One row of report_hours: the sums of one table's rounds of one hour, dealer and game. */
struct report_hour {
	char table_id[PB_ID_MAX];
	int64_t hour;                      /* Unix seconds of the UTC hour's start */
	char dealer[PB_ID_MAX];
	int64_t rules_id;
	int64_t rounds;                    /* settled */
	int64_t voids;
	int64_t hands;                     /* seats with a bet in settled rounds */
	int64_t handle[WAGER_COUNT];       /* [WAGER_ANTE_BONUS] is always 0 */
	int64_t house_win[WAGER_COUNT];
	int64_t lines[WAGER_COUNT];        /* resolved (not returned) lines */
	/*
	 * The part of the sums above from player-banked rounds (schema 013):
	 * their settled rounds, handle, the banker's result (minus the players'
	 * net) and lines, and the house's collection fees on them.
	 */
	int64_t banked_rounds;
	int64_t banked_handle[WAGER_COUNT];  /* [WAGER_ANTE_BONUS] is always 0 */
	int64_t banked_win[WAGER_COUNT];
	int64_t banked_lines[WAGER_COUNT];
	int64_t collections;
	int64_t first_ms;                  /* earliest opened_at, Unix ms */
	int64_t last_ms;                   /* latest settled_at, Unix ms */
	/*
	 * A row may also be a roll-up (report_spans, schema 006): then `hour` is
	 * the span's start, span its kind (REPORT_SPAN_*), dealer "" for every
	 * dealer, play_ms and carry_ms as the schema says, first_ms and last_ms 0.
	 */
	int span;                          /* 0: a report_hours row */
	int64_t play_ms;
	int64_t carry_ms;
};


/*
 * What one finished (settled or void) round adds to its report_hours row,
 * as that row (every sum its own, first_ms its opening, last_ms its
 * settlement): the one place a round's tally becomes report figures, for
 * the property's aggregates and the central copy's facts alike.
 */
int store_round_hour(const struct round_record *rec, struct report_hour *row, struct pb_error *err);

/* Called for each row; a non-zero return stops the walk and is returned. */
typedef int (*report_hour_fn)(void *arg, const struct report_hour *row, struct pb_error *err);

/*
 * Walks the report_hours rows with hour in [from_hour, to_hour) (Unix
 * seconds) of the tables in `tables` (NULL: all), in key order: hour,
 * table, dealer, rules.
 */
int store_report_hours(struct store *s, const char *tables, int64_t from_hour, int64_t to_hour,
    report_hour_fn fn, void *arg, struct pb_error *err);

/* ---- day and month roll-ups, read snapshots (report_days.c) ---- */

/*
 * The kinds of report_spans rows (schema 006, 023): days, months and shifts
 * of the calendar recorded in report_rollup.calendar.
 */
enum {
	REPORT_SPAN_DAY_DEALER = 1,
	REPORT_SPAN_DAY_TABLE = 2,         /* dealer "": every dealer of the table */
	REPORT_SPAN_MONTH_DEALER = 3,
	REPORT_SPAN_MONTH_TABLE = 4,
	REPORT_SPAN_DAY_DEALER_ALL = 5,    /* table "": the dealer over every table */
	REPORT_SPAN_MONTH_DEALER_ALL = 6,
	REPORT_SPAN_SHIFT_TABLE = 7,       /* dealer "": every dealer of the table */
	REPORT_SPAN_SHIFT_ALL = 8,         /* table "" and dealer "": every table and dealer */
	REPORT_SPAN_DAY_ALL = 9,           /* table "" and dealer "": every table and dealer */
};

/* The longest report_rollup.calendar text: a zone's name, the day's start and every shift's. */
#define REPORT_CALENDAR_MAX 160

/*
 * Walks the report_spans rows of one kind with start in [from, to) (Unix
 * seconds) of the tables in `tables`, in key order: start, table, dealer,
 * rules.
 */
int store_report_spans(struct store *s, const char *tables, int kind, int64_t from, int64_t to,
    report_hour_fn fn, void *arg, struct pb_error *err);

/* Inserts or replaces one report_spans row of row->span's kind (row->hour is its start). */
int store_report_span_put(struct store *s, const struct report_hour *row, struct pb_error *err);

/* Deletes the report_spans rows of one kind and start, before they are rebuilt. */
int store_report_spans_delete(struct store *s, int kind, int64_t start, struct pb_error *err);

/* report_rollup.days_before: every day (of its calendar) starting before it is rolled up (0 when none is). */
int store_report_rollup_get(struct store *s, int64_t *days_before, struct pb_error *err);
int store_report_rollup_set(struct store *s, int64_t days_before, struct pb_error *err);

/* The mark and the calendar the roll-ups were made for (report_rollup.calendar, schema 023). */
int store_report_rollup_calendar(struct store *s, int64_t *days_before, char calendar[REPORT_CALENDAR_MAX],
    struct pb_error *err);

/* Deletes every roll-up and records the calendar the next ones are made for, the mark at 0 (in a write). */
int store_report_rollup_reset(struct store *s, const char *calendar, struct pb_error *err);

/* The first report_hours hour >= at; *found false when there is none. */
int store_report_hours_next(struct store *s, int64_t at, int64_t *hour, bool *found, struct pb_error *err);

/*
 * A read transaction (BEGIN DEFERRED ... COMMIT): the reads between see one
 * snapshot of the database.  Only outside a write transaction.
 */
int store_snapshot_begin(struct store *s, struct pb_error *err);
void store_snapshot_end(struct store *s);

/* ---- stored rules, largest payouts, exceptions (reports.c) ---- */

/* The SHA-256 of a stored rules object's canonical JSON (cheap: no parsing). */
int store_rules_sha256(struct store *s, int64_t rules_id, char sha256[PB_SHA256_HEX_LEN], struct pb_error *err);

/* A stored rules object by id, parsed, with the SHA-256 of its canonical JSON. */
int store_rules_get(struct store *s, int64_t rules_id, struct rules *out, char sha256[PB_SHA256_HEX_LEN],
    struct pb_error *err);

/* A winning payout line with where it was won. */
struct report_payout {
	int64_t round_id;
	char table_id[PB_ID_MAX];
	int seat;
	enum wager wager;
	int64_t stake;
	int64_t net;
	char at[PB_TIME_LEN];              /* the round's settled_at */
	bool has_cards;
	card_t cards[3];                   /* the seat's */
	bool has_dealer;
	card_t dealer[3];
};

/*
 * The payout lines with net >= min_net (min_net >= 1) of rounds settled in
 * [from, to), largest net first (ties: newest round first, then payout
 * order), at most max.  Reads the payouts_net index in net order.
 */
int store_report_payouts(struct store *s, const char *tables, int64_t min_net, const char *from, const char *to,
    int max, struct report_payout *out, int *count, struct pb_error *err);

/* One exception: a void round, a short payout line, or a significant event. */
struct report_exception {
	char at[PB_TIME_LEN];
	char table_id[PB_ID_MAX];          /* "" when the event names no table */
	int64_t round_id;                  /* 0 when none */
	char kind[48];                     /* "void", "coverage_short", or the event's code */
	char *detail;                      /* malloc'd: the void reason, or the event's detail (JSON text) */
	int seat;                          /* coverage_short: the line */
	enum wager wager;
	int64_t stake;
	int64_t net;
	int64_t short_amount;
	int64_t event_id;                  /* significant events: their id */
	char source[PB_NAME_MAX];          /* significant events: who */
};

struct report_exception_list {
	struct report_exception *items;
	int count;
	int cap;
};

void report_exception_list_free(struct report_exception_list *l);

/* Void rounds finished in [from, to), oldest first, at most max; appended to out. */
int store_report_voids(struct store *s, const char *tables, const char *from, const char *to, int max,
    struct report_exception_list *out, struct pb_error *err);

/* Payout lines with a coverage shortfall in rounds settled in [from, to), oldest first, at most max. */
int store_report_shorts(struct store *s, const char *tables, const char *from, const char *to, int max,
    struct report_exception_list *out, struct pb_error *err);

/*
 * Significant events (schema 003, when the table exists) whose code
 * matches one of the GLOB patterns of the JSON array `codes` ("*refused*",
 * or an exact code), at in [from, to), oldest first, at most max.  When `tables` is given, only events naming one of those tables.
 * Without a significant_events table, appends nothing.
 */
int store_report_significant(struct store *s, const char *tables, const char *codes, const char *from,
    const char *to, int max, struct report_exception_list *out, struct pb_error *err);

#endif
