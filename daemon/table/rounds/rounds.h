/*
 * rounds.h - the rounds domain of the pit (docs/architecture.md, "The pit's
 * domains"), its only header another folder includes; rounds_private.h is
 * its own.  A table and its rounds: the live steps and their answers, a
 * round rebuilt from its events, the dealer and the banker of a table, the
 * offers of the bank, the corrections of a settled round's payouts, and the
 * report aggregates' roll-ups each round's write keeps up to date.
 */
#ifndef PB_TABLE_ROUNDS_H
#define PB_TABLE_ROUNDS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/round.h"
#include "common/gaming_day.h"
#include "engine/settle.h"
#include "store/audit.h"
#include "store/reports.h"
#include "table/core/core.h"

struct event_in;        /* common/event_read.h */
struct store;

/*
 * view.c, round.c - the tables and their rounds: the tables brought in line
 * with the configuration, a table's state, its rounds as GET shows them,
 * the live steps of a round (each checked against the round's state
 * machine, engine/round.h) and their answers.
 */

/*
 * Brings table_state in line with the configuration at start and on reload:
 * a table seen for the first time, or whose config entry changed, takes its
 * settings from the config (recorded as an event); otherwise the settings
 * changed through the API stay.  Also rolls up the report aggregates of the
 * days before today not rolled up yet (rollup.c, below).
 */
int pit_sync_tables(struct pit *p, struct pb_error *err);

/*
 * On reload, after pit_sync_tables: each table whose entry did not change
 * but whose game's rules did (a pay table edited in a game file) gets the
 * table event rules_changed {game, game_sha256, previous_game_sha256,
 * config_loaded_sha256}; the table's state is not touched (rounds record
 * the rules in force when they open).
 */
int pit_record_rules_changes(struct pit *p, const struct config *old, struct pb_error *err);

/* ---- reads ---- */
int pit_tables_list(struct pit *p, const struct actor *a, json_t **out, struct pb_error *err);
int pit_table_get(struct pit *p, const struct actor *a, const char *table_id, json_t **out, struct pb_error *err);
int pit_round_get(struct pit *p, const struct actor *a, int64_t round_id, json_t **out, struct pb_error *err);

/*
 * round_label.c: a round's label "TABLE-NO" (the table's id and the
 * table's number of the round, as "T1-277") split into both; -1 when the
 * text has not that shape.  pit_round_find gives the global id of the
 * round a label names; 404 round_not_found when the text is no label or
 * the table has no round of that number.  Who may read the round is the
 * caller's check (the table's access), as for an id.
 */
int round_label_parse(const char *text, char table[PB_ID_MAX], int64_t *round_no);
int pit_round_find(struct pit *p, const char *text, int64_t *round_id, struct pb_error *err);
int pit_table_rounds(struct pit *p, const struct actor *a, const char *table_id, int limit, int64_t before,
    json_t **out, struct pb_error *err);

/* ---- writes: *status is the HTTP status of the answer (200 or 201) ---- */
int pit_table_set_open(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    bool open, json_t **out, int *status, struct pb_error *err);
int pit_table_set_limits(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/* POST /tables/{t}/rounds: opens a round, or runs a whole round when the body carries bets. */
int pit_round_open(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/* One step of a round in progress; seat is used by the bet steps. */
int pit_round_step(struct pit *p, const struct actor *a, const struct idempotency *idem, int64_t round_id,
    enum round_step step, int seat, const json_t *body, json_t **out, int *status, struct pb_error *err);

/* Payout lines as the API shows them, with bank_after and short on player-banked rounds. */
json_t *payout_lines_json(const struct payout_line *lines, int n);

/*
 * replay.c - a round rebuilt from its recorded events alone, and the
 * engine's view of a round.  The events are checked against the round's
 * state machine (engine/round.h), the same table the live steps ask.
 */

/*
 * Rebuilds a round from its events (the recorded payouts included).
 * Problems in the events themselves (an unknown type, a step out of order,
 * an unreadable body) are appended to problems when it is not NULL; the
 * event is still applied as far as it can be read.  Fails with 404 when
 * there are no events, 422 when none opens the round, and 500
 * out_of_memory when an event could not be parsed or a problem recorded for
 * want of memory (the round is then not rebuilt, and nothing is called
 * unreadable for it).
 */
int audit_round_from_events(const struct event_list *evs, struct round_record *rec, json_t *problems,
    struct pb_error *err);

/* The engine's view of a round record (cards not yet dealt are CARD_NONE). */
void round_engine_input(const struct round_record *r, struct round_input *in);

/*
 * dealer.c - the person dealing at each table (API.md "People and
 * sessions"): PUT /tables/{t}/dealer records a dealer change, a table event
 * (dealer_changed) in the table's chain; every round opened afterwards
 * carries that dealer in its round_opened event and its row.  And the rule
 * a dealer's session meets when voiding a round after the deal: a floor
 * supervisor's or pit boss's witness (table/people/people.h).
 */

/* The roles a witness of a dealer's void after the deal may hold. */
#define DEALER_VOID_WITNESS_ROLES (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS))

/*
 * PUT /tables/{t}/dealer {"person": ID or null}: the dealer at the table
 * becomes that person (null: nobody).  The actor is a floor supervisor, a
 * pit boss or an admin (a person or a token), or the dealer's own session
 * setting himself (or taking himself off).  The person must exist, be
 * active and hold the dealer role (422 unknown_person, person_inactive,
 * not_a_dealer).  Setting the dealer already there records nothing.  The
 * answer is the table as GET shows it.
 */
int pit_table_set_dealer(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * Does this actor voiding a round in state `state` need a witness?  Yes
 * for a person's session that may void only as a dealer (no floor, pitboss
 * or admin role) once the cards are dealt (dealt or revealed); terminal
 * tokens void as before.
 */
bool dealer_void_needs_witness(const struct actor *a, enum round_state state);

/*
 * banker.c, banker_person.c - the rotation of the bank on player-banked
 * tables (seed 003):
 * a seat banks at most max_consecutive rounds in a row, then the position
 * passes clockwise.  A seat the position passes over is not recorded as
 * declining it: only the offers made and their answers are (bank_offer.c).
 */

/*
 * Reads who banks from the round's banker block b into r: "player": ID (a
 * player's id, kept as text) or "provider": {"badge": ID, "company": TEXT}
 * (a third-party proposition player); neither leaves r's fields "".  400
 * naming the key when the block gives both or a malformed one.
 */
int banker_identity_parse(const json_t *b, struct round_record *r, struct pb_error *err);

/* Adds "player" or "provider" to the banker object o when r names the banker. */
void banker_identity_to_json(const struct round_record *r, json_t *o);

/* Adds "player": player, or "provider": {"badge", "company"} when badge is not "", to o. */
void banker_names_to_json(const char *player, const char *badge, const char *company, json_t *o);

/*
 * Reads "player" or "provider" {"badge", "company"} of a recorded banker
 * object o, the value at in (common/event_read.h: round_opened's "banker"),
 * into r (replay).  0, or -1 with 422 unreadable_event naming the field.
 */
int banker_identity_from_json(const json_t *o, const struct event_in *in, struct round_record *r, struct pb_error *err);

/* True when both name the same banker (both unnamed, the same player, or the same badge and company). */
bool banker_identity_equal(const struct round_record *a, const struct round_record *b);

/*
 * Records the turn of the bank round r opened with, at `at`: a row for
 * each seat its round_opened event records as having declined it, in the
 * order given (declined[0 .. declined_count); only rounds recorded before
 * the seats passed over stopped being counted as declines have any), then
 * the banker's own, with his run of `consecutive` rounds in a row and who
 * he is.  The round's opening (round.c, no declines) and central restore
 * (central/restore_rounds.c, as the event says) both write it.
 */
int banker_turn_rows_put(struct store *s, const struct round_record *r, int consecutive, const int *declined,
    int declined_count, const char *at, struct pb_error *err);

/* GET /api/v1/tables/{t}/bankers: the current position and the rotation history. */
int pit_table_bankers(struct pit *p, const struct actor *a, const char *table_id, int limit, json_t **out,
    struct pb_error *err);

/*
 * bank_offer.c - the offers of the bank on player-banked tables: each time
 * the dealer offers the bank to a seat, whether its player accepted or
 * declined it, recorded as a table event (bank_offered) and listed from the
 * events (GET /api/v1/tables/{t}/bankers, "offers": table/rounds/banker.c).
 */

/*
 * POST /api/v1/tables/{t}/bank-offers {"seat": S, "answer": "accepted" |
 * "declined", "player": ID | "provider": {"badge", "company"}}: records the
 * offer as the event bank_offered.  An acceptance by a person (or at a seat)
 * whom the rotation would refuse the bank is refused as the round would be
 * (banker_check_rotation), so that the log shows only offers that could be.
 * 201 with the offer as recorded.
 */
int pit_bank_offer(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * corrections.c - corrections of a settled round's payouts (API.md
 * "Corrections and the dealer page", docs/api.md "Corrections"; NJ
 * 13:69E-1.28P(d): dealer errors are corrected and recorded).
 *
 * A floor supervisor or pit boss (a person's session) records, with a
 * witness (floor or pitboss, another person), that a seat's wager of a
 * settled round was paid differently from what the round owed: "owed" is
 * the round's payout line (its net: positive is paid to the player,
 * negative taken), "paid" what the dealer actually paid (negative: took).
 * The correction is the table event payout_corrected in the table's chain,
 * naming the round in its body, so the round's own events, its payouts and
 * its verify are unchanged; a row (schema 016) is written from the event's
 * body in the same transaction; central restore rebuilds the rows from the
 * events (correction_restore_event) and pitboss verify checks them
 * (corrections_verify).  A mispay is an exception of the exceptions
 * report, with its difference (paid - owed), and the report gives their
 * count and total.
 *
 * A payout line (a round's seat and wager) is corrected once: a later
 * figure for it is a correction that names the line's latest in
 * "supersedes" (carried by its event), and only a line's latest correction
 * counts, in the reports and in the round's view.
 */

/* The witness's roles. */
#define CORRECTION_WITNESS (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS))

/*
 * POST /rounds/{id}/corrections {"seat", "wager", "paid", "supersedes"?,
 * "reason", "witness"} -> 201 the correction {"id", "round", "table",
 * "seat", "wager", "owed", "paid", "difference", "reason", "by", "witness",
 * "at", "supersedes"}.  Refusals: 403 forbidden (the role), 403
 * person_required (a terminal's token), 400 invalid_body / unknown_field,
 * 422 reason_required, the witness's refusals (table/people/people.h), 404
 * round_not_found, 409 round_not_settled, 422 unknown_payout_line (the seat
 * and wager are not a line of the round's payouts), 422 paid_equals_owed,
 * 409 already_corrected (the line has a correction and none is named), 422
 * unknown_correction (no correction of that id), 422 supersedes_other_line
 * (it is of another round, seat or wager), 409 correction_superseded (it is
 * not the line's latest), 409 integrity_hold.
 */
int pit_round_correct(struct pit *p, const struct actor *a, const struct idempotency *idem, int64_t round_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * The mispays recorded in [from, to) at the tables of scope (NULL: every
 * table), each the latest correction of its line, for the exceptions
 * report: at most max of them appended to arr ({"at", "table", "round",
 * "kind": "mispay", "detail", "seat", "wager", "owed", "paid",
 * "difference", ..., "correction", "supersedes"}), and *summary (new
 * reference) their {"count", "difference"} over the whole range.
 */
int corrections_exceptions(struct pit *p, const char *scope, const char *from, const char *to, int max, json_t *arr,
    json_t **summary, struct pb_error *err);

/*
 * Central restore: the row of a payout_corrected event rebuilt from its
 * body, as the live path wrote it; *handled false (and nothing done) for
 * any other type.
 */
int correction_restore_event(struct store *s, const char *table_id, const char *type, const char *at,
    const char *actor, const char *body, bool *handled, struct pb_error *err);

/*
 * pitboss verify: each correction row equal to what its event says, and no
 * row without its event; each difference appended to problems.
 */
int corrections_verify(struct pit *p, json_t *problems, struct pb_error *err);

/*
 * rollup.c - play time of the report aggregates, and their roll-ups by
 * the property's gaming day, month and shift (report_spans,
 * schema/006_report_days.sql and 023_gaming_day_rollups.sql) that let a
 * summary over a year read a few hundred rows instead of every table-hour.
 * The roll-ups are made for the calendar report_rollup.calendar records
 * (report_calendar_text); a day span holds the hours starting in its gaming
 * day (23, 24 or 25 of them), a month span the days of its month, a shift
 * span the hours starting in its shift.
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

/* The text report_rollup.calendar records for a calendar: "ZONE HH:MM" (the day's start), then " HH:MM" per shift. */
void report_calendar_text(const struct gaming_calendar *cal, char out[REPORT_CALENDAR_MAX]);

/*
 * The calendar a report_rollup.calendar text names (the shifts without
 * names), loaded once per process and kept; NULL with err when the text is
 * malformed or its zone unknown.
 */
const struct gaming_calendar *report_calendar_of(const char *text, struct pb_error *err);

/*
 * The spans of a calendar, in Unix seconds on whole hours: the start of the
 * day span, month span or shift span holding the hour `hour` (a time is
 * taken as the hour holding it), and the start of the span after the one
 * starting at `start`.  A span starts at the first whole hour of its gaming
 * day, month or shift; report_first_day is the first day span starting
 * after 1970-01-01T24:00Z (the summary ignores hours before).
 */
int64_t report_day_start(const struct gaming_calendar *cal, int64_t hour);
int64_t report_day_next(const struct gaming_calendar *cal, int64_t start);
int64_t report_gmonth_start(const struct gaming_calendar *cal, int64_t hour);
int64_t report_gmonth_next(const struct gaming_calendar *cal, int64_t start);
int64_t report_shift_start(const struct gaming_calendar *cal, int64_t hour);
int64_t report_shift_next(const struct gaming_calendar *cal, int64_t start);
int64_t report_first_day(const struct gaming_calendar *cal);

/*
 * At start-up and reload, in the caller's write transaction: when the
 * roll-ups were made for another calendar than cal, deletes them and
 * records cal; then rolls up every day of cal before the current one.
 */
int report_rollup_follow(struct store *s, const struct gaming_calendar *cal, int64_t now_ms, struct pb_error *err);

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
