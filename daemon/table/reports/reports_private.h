/*
 * reports_private.h - what the pieces of the reports share, and no other
 * folder includes: the scope check (reports.c), the names of the groups
 * (reports_query.c), the sums of one group and their figures
 * (reports_figures.c), which the summary (reports_summary.c) fills, and the
 * master game report and the accounting exceptions (acct_report.c,
 * acct_exceptions.c) the exceptions report merges.  The public interface is
 * table/reports/reports.h.
 */
#ifndef PB_TABLE_REPORTS_PRIVATE_H
#define PB_TABLE_REPORTS_PRIVATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/reports.h"
#include "table/reports/reports.h"

#define HOUR_MS 3600000LL
#define DAY_MS 86400000LL
#define KEY_MAX 72                      /* "PROPERTY/TABLE" in the central reports */

/* The name of a group as the query and the answer spell it ("hour", "day", ...). */
const char *report_group_name(enum report_group g);

/*
 * Checks the role and the table, and builds the scope: a JSON array of the
 * tables the report may read, or NULL (*scope) for every table.  The
 * caller frees *scope.
 */
int report_scope(struct pit *p, const struct actor *a, const struct report_query *q, char **scope, struct pb_error *err);

/*
 * The manual ratings of a player's rating (rating_manual.c): those of the
 * player and of the records merged into him recorded in [from, to), as
 * {"ratings": [...], "minutes", "theoretical"} (the exact sum rounded once).
 */
int rating_manual_of_player(struct pit *p, const char *player, const char *from, const char *to, json_t **out,
    struct pb_error *err);

/* The manual ratings of a gaming day, each with its theoretical win: [...] (new reference into *out). */
int rating_manual_of_day(struct pit *p, const char *gaming_day, json_t **out, struct pb_error *err);

/*
 * The gaming days (days since the epoch, the property's calendar) that start
 * in q's [from, to): *first .. *last, at most max of them (the last max when
 * there are more); *first > *last when none starts there.
 */
void report_days_in(const struct pit *p, const struct report_query *q, int64_t max, int64_t *first, int64_t *last);

/* A Unix-ms time as the API writes it (new reference). */
json_t *report_time_json(int64_t ms);

/* The query's table as the answer shows it: its id, or null for every table (new reference). */
json_t *report_table_json(const struct report_query *q);

/*
 * The handle and resolved lines of one game within a group, of its
 * house-banked rounds only: what the house's theoretical win and variance
 * need.
 */
struct game_part {
	int64_t rules_id;
	int64_t handle[WAGER_COUNT];
	int64_t lines[WAGER_COUNT];
};

/* The sums of one group. */
struct group_acc {
	char key[KEY_MAX];
	int64_t order;                  /* groups sort by order, then key: a gaming day's shifts in its order */
	int64_t rounds, voids, hands;
	int64_t handle[WAGER_COUNT];    /* every round's */
	int64_t win[WAGER_COUNT];       /* the house's win: house-banked rounds only */
	int64_t house_handle;           /* the handle of the house-banked rounds (every wager) */
	int64_t banked_rounds;          /* settled player-banked rounds */
	int64_t banker[WAGER_COUNT];    /* the banker's result: player-banked rounds only */
	int64_t collections;            /* the house's collection fees (player-banked rounds) */
	int64_t play_ms;
	struct game_part *parts;        /* in rules_id order */
	int part_count;
};

/* The figures of the games of one request, by rules id; zeroed to start, report_game_list_free at the end. */
struct game_list {
	struct {
		int64_t rules_id;
		struct game_figures f;
	} *items;
	int count;
	int cap;
};

/* Room in gl for one more game, at gl->items[gl->count]: 0, or -1 with err out_of_memory. */
int report_game_list_reserve(struct game_list *gl, struct pb_error *err);

void report_game_list_free(struct game_list *gl);

/*
 * A group's (or, without its key, the totals') figures as the API shows
 * them: sums, the house's win, the banker's result, collections and win,
 * win per handle (and hold, its deprecated name), theoretical win and win
 * per handle, the 95% interval of the house's win and its flag (house-banked
 * rounds only), hands per hour, average bet, play time.  The games' figures
 * are looked up (and analysed once) through gl.  NULL with err on failure.
 */
json_t *report_group_json(struct pit *p, struct game_list *gl, const struct group_acc *g, bool with_key,
    struct pb_error *err);

/*
 * The summary's "drop" and "win_per_drop" set on each of its groups and
 * its totals (reports_drop.c): for groups by gaming day (in the property's
 * calendar) and by table, the drop counted for the gaming days wholly
 * inside q's range at the tables in scope, and the group's win divided by
 * it; the totals' when the range is whole gaming days; null otherwise.
 */
int report_drops(struct pit *p, const struct actor *a, const struct report_query *q, json_t *groups, json_t *totals,
    struct pb_error *err);

/*
 * GET /reports/master-game?gaming_day=D[&shift=S] (q->kind
 * REPORT_MASTER_GAME): per table in scope and in total, opener, closer,
 * fills, credits, drop, win, win_per_drop, hand_win, variance,
 * variance_percent, flagged (docs/accounting.md).
 */
int pit_report_master_game(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err);

/*
 * The accounting exceptions in [q->from_ms, q->to_ms) for the exceptions
 * report, appended to arr (each {"at", "table", "round": null, "kind",
 * "detail", ..., "acknowledged"}): openers' discrepancies with their level
 * and the flagged count variances of the gaming days starting in the range.
 */
int acct_exceptions(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr,
    struct pb_error *err);

/*
 * The serial exceptions (acct_serial_exceptions.c) for the exceptions
 * report, appended to arr: each {"at", "table", "round": null, "kind":
 * "serial_gap", "problem", "detail", "ref", "slip", "year", "first", "last",
 * "count", "document", "explained"} of the years the range touches, when its
 * slip was recorded in the range or, unexplained, before it.
 */
int acct_serial_exceptions(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr,
    struct pb_error *err);

/*
 * Under accounting.signatures "nj", the fills and credits issued in
 * [q->from_ms, q->to_ms) at least accounting.pending_slip_minutes ago and
 * neither received nor voided, appended to arr as pending_slip exceptions
 * ({"at": when issued, "table", "round": null, "kind", "detail", "ref" and
 * "document": the slip's id, "slip": "fill" or "credit", "serial", "year",
 * "amount"}) (acct_pending.c).
 */
int acct_pending_slips(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr,
    struct pb_error *err);

/*
 * The exceptions report's list arr (oldest first) with the accounting
 * exceptions merged in by time (acct_exceptions) and cut to q->limit;
 * *cut true when something was left out.
 */
int acct_exceptions_merge(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr, bool *cut,
    struct pb_error *err);

/*
 * The master game figures of gaming day `day` (shift: an index of the
 * property's shifts, or -1 for the whole day) for one table (table_id) or
 * every table the actor may read (NULL): the report's {"tables", "total"}
 * (new reference in *out).  only_documented: leave out the tables without a
 * document that day (the exceptions).
 */
int acct_master_game(struct pit *p, const struct actor *a, const char *table_id, int64_t day, int shift,
    bool only_documented, json_t **out, struct pb_error *err);

/*
 * The investigation of table_id's count variance of gaming_day
 * (acct_variances.c): {"status", "assignee", "cause", "steps": [{"id",
 * "status", "assignee", "cause", "note", "by", "witness", "at"}, ...]} with
 * the last status and the last assignee and cause given, or null before its
 * first step (new reference; NULL with err).
 */
json_t *variance_investigation_json(struct pit *p, const char *table_id, const char *gaming_day, struct pb_error *err);

/* ---- the decisions report (decisions.c) and its exceptions (decision_exceptions.c) ---- */

#define DECISION_KEY_MAX (PB_ID_MAX + 12)   /* a player or dealer id, a table, "T1/3", "T1/dealer" */

/* The rules of the rounds a decision list holds, one copy per rules id. */
struct decision_rules {
	int64_t rules_id;
	struct rules rules;
};

/* One decision: a seat with an Ante that played or folded in a settled round, and (valued) its exact values. */
struct decision_row {
	int64_t round_id, round_no;
	char table[PB_ID_MAX];
	int seat;
	char player[PB_ID_MAX];         /* "" when no player was seated */
	char dealer[PB_ID_MAX];         /* "" when no dealer was recorded */
	char dealer_name[ROUND_DEALER_NAME_MAX];
	int rules;                      /* index into the list's rules */
	int64_t ante, pair_plus;
	card_t cards[3], dealer_cards[3];
	bool played;
	bool valued;                    /* the values below are set (decision_row_value) */
	int64_t n, sum_play, sum_fold;  /* engine/decision.h */
	__int128 sum_g2;
	int64_t gain;                   /* G against the dealer's actual hand */
};

struct decision_list {
	struct decision_row *rows;      /* oldest round first, seats in order */
	int count, cap;
	struct decision_rules *rules;
	int rules_count;
	int *order;                     /* the rows by group, as the last decision_groups sorted them */
};

/* One group's figures: its rows are order[start .. start + decisions) of its list, first its first row. */
struct decision_group {
	char key[DECISION_KEY_MAX];
	int first, start;
	int64_t decisions, mistakes, ev_lost;
	double z;
	bool flagged;
};

/* protection.z_flag and protection.min_decisions in force. */
struct protection_flags {
	double z_flag;
	int64_t min_decisions;
};

void protection_flags_of(const struct pit *p, struct protection_flags *pf);

/* The decisions of the settled rounds with settled_at in [from_ms, to_ms) at the scope's tables (not valued yet). */
int decisions_collect(struct pit *p, const char *scope, int64_t from_ms, int64_t to_ms, struct decision_list *out,
    struct pb_error *err);

void decision_list_free(struct decision_list *l);

/* Values d by its exact enumeration (engine/decision.h), once. */
int decision_row_value(const struct decision_list *l, struct decision_row *d, struct pb_error *err);

/* The decision taken has the lower EV (equal: no mistake). */
bool decision_row_mistake(const struct decision_row *d);

/* n (G_a - E[G_a|X]): how much the decision weighed towards knowing the dealer's hand, in cents times n. */
__int128 decision_row_weight(const struct decision_row *d);

/* The key of d's group by `by` (player: the player or "T1/3"; dealer: the dealer or "T1/dealer"; table). */
void decision_group_key(const struct decision_row *d, enum report_group by, char key[DECISION_KEY_MAX]);

/*
 * The groups of the valued rows of l by `by`, sorted by key, flagged by pf
 * (malloc'd array in *out, *count of them).
 */
int decision_groups(struct decision_list *l, enum report_group by, const struct protection_flags *pf,
    struct decision_group **out, int *count, struct pb_error *err);

/* A group as the report lists it (new reference; NULL when out of memory). */
json_t *decision_group_json(const struct decision_list *l, enum report_group by, const struct decision_group *g);

/*
 * The decision_knowledge exceptions of the gaming days starting in q's
 * range (the flagged groups of each day by player, dealer and table, with
 * their evidence and acknowledgment), appended to arr.
 */
int decision_exceptions(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr,
    struct pb_error *err);

/*
 * Whether ref ("YYYY-MM-DD/GROUP/KEY") names a flagged group whose
 * exception stands at table: 0, or -1 with err (400 invalid_body, 404
 * exception_not_found).
 */
int decision_exception_check(struct pit *p, const struct actor *a, const char *table, const char *ref,
    struct pb_error *err);

#endif
