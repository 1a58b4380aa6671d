/*
 * reports_csv.c - a report's JSON answer as CSV (RFC 4180, CRLF, a header
 * row); the columns are documented in docs/reports.md.  Every cell goes
 * through common/csv.h.
 */

#include "common/csv.h"
#include "table/reports/reports.h"

/* Cents as a decimal amount: 123456 -> "1234.56", -5 -> "-0.05"; empty for null. */
static void
csv_amount(struct pb_csv *c, const json_t *v)
{
	if (json_is_integer(v))
		pb_csv_cents(c, (long long)json_integer_value(v));
	else
		pb_csv_empty(c);
}

/* The summary's columns: a JSON path of one or two keys, as an amount or as is. */
static const struct summary_column {
	const char *header;
	const char *k1, *k2;
	bool amount;
} SUMMARY_COLUMNS[] = {
	{"key", "key", NULL, false},
	{"rounds", "rounds", NULL, false},
	{"voids", "voids", NULL, false},
	{"hands", "hands", NULL, false},
	{"handle_ante", "handle", "ante", false},
	{"handle_play", "handle", "play", false},
	{"handle_pair_plus", "handle", "pair_plus", false},
	{"handle_six_card", "handle", "six_card", false},
	{"handle_total", "handle", "total", false},
	{"house_win_ante", "house_win", "ante", false},
	{"house_win_play", "house_win", "play", false},
	{"house_win_pair_plus", "house_win", "pair_plus", false},
	{"house_win_six_card", "house_win", "six_card", false},
	{"house_win_ante_bonus", "house_win", "ante_bonus", false},
	{"house_win_total", "house_win", "total", false},
	{"hold", "hold", NULL, false},
	{"theoretical_win", "theoretical_win", NULL, false},
	{"theoretical_hold", "theoretical_hold", NULL, false},
	{"hold_flag", "hold_flag", NULL, false},
	{"win_interval_low", "win_interval", "low", false},
	{"win_interval_high", "win_interval", "high", false},
	{"hands_per_hour", "hands_per_hour", NULL, false},
	{"average_bet", "average_bet", NULL, false},
	{"play_seconds", "play_seconds", NULL, false},
	{"handle_total_amount", "handle", "total", true},
	{"house_win_total_amount", "house_win", "total", true},
	{"theoretical_win_amount", "theoretical_win", NULL, true},
	/* Added with the split of house-banked and player-banked figures (docs/reports.md). */
	{"win_per_handle", "win_per_handle", NULL, false},
	{"theoretical_win_per_handle", "theoretical_win_per_handle", NULL, false},
	{"house_banked_handle", "house_banked_handle", NULL, false},
	{"player_banked_rounds", "player_banked_rounds", NULL, false},
	{"banker_result_ante", "banker_result", "ante", false},
	{"banker_result_play", "banker_result", "play", false},
	{"banker_result_pair_plus", "banker_result", "pair_plus", false},
	{"banker_result_six_card", "banker_result", "six_card", false},
	{"banker_result_ante_bonus", "banker_result", "ante_bonus", false},
	{"banker_result_total", "banker_result", "total", false},
	{"collections", "collections", NULL, false},
	{"win", "win", NULL, false},
	{"banker_result_total_amount", "banker_result", "total", true},
	{"collections_amount", "collections", NULL, true},
	{"win_amount", "win", NULL, true},
	/* Added with the statistics: the counted drop where known, and the win over it (docs/reports.md). */
	{"drop", "drop", NULL, false},
	{"win_per_drop", "win_per_drop", NULL, false},
};

static const json_t *
path_get(const json_t *o, const char *k1, const char *k2)
{
	const json_t *v = json_object_get(o, k1);

	return k2 != NULL && json_is_object(v) ? json_object_get(v, k2) : (k2 != NULL ? NULL : v);
}

static void
summary_csv_row(struct pb_csv *c, const char *row, const json_t *g)
{
	pb_csv_text(c, row);
	for (size_t i = 0; i < sizeof(SUMMARY_COLUMNS) / sizeof(SUMMARY_COLUMNS[0]); i++) {
		const struct summary_column *col = &SUMMARY_COLUMNS[i];
		const json_t *v = path_get(g, col->k1, col->k2);
		if (col->amount)
			csv_amount(c, v);
		else
			pb_csv_json(c, v);
	}
	pb_csv_end_row(c);
}

/* The summary: a header row, a row per group, then the totals. */
static void
summary_csv(struct pb_csv *c, const json_t *report)
{
	const json_t *g;
	size_t i;

	pb_csv_text(c, "row");
	for (size_t k = 0; k < sizeof(SUMMARY_COLUMNS) / sizeof(SUMMARY_COLUMNS[0]); k++)
		pb_csv_text(c, SUMMARY_COLUMNS[k].header);
	pb_csv_end_row(c);
	json_array_foreach(json_object_get(report, "groups"), i, g)
		summary_csv_row(c, "group", g);
	if (json_object_get(report, "totals") != NULL)
		summary_csv_row(c, "totals", json_object_get(report, "totals"));
}

/* A column of a list: the field of that name, or (amount_of) that field's cents as an amount. */
struct list_column {
	const char *header;
	const char *amount_of;
};

#define COLUMNS(a) (a), sizeof(a) / sizeof((a)[0])

static const struct list_column PAYOUT_COLUMNS[] = {
	{"round", NULL}, {"table", NULL}, {"seat", NULL}, {"wager", NULL}, {"stake", NULL}, {"net", NULL},
	{"net_amount", "net"}, {"hand", NULL}, {"cards", NULL}, {"dealer", NULL}, {"at", NULL}, {"round_no", NULL},
};

static const struct list_column EXCEPTION_COLUMNS[] = {
	{"at", NULL}, {"table", NULL}, {"round", NULL}, {"kind", NULL}, {"detail", NULL}, {"seat", NULL},
	{"wager", NULL}, {"stake", NULL}, {"net", NULL}, {"short", NULL}, {"event", NULL}, {"source", NULL},
	{"correction", NULL}, {"round_no", NULL},
};

static const struct list_column BANKER_COLUMNS[] = {
	{"table", NULL}, {"banker_seat", NULL}, {"rounds", NULL}, {"banker_result", NULL},
	{"banker_result_amount", "banker_result"}, {"banks_exhausted", NULL}, {"returned_for_coverage", NULL},
	{"unpaid_short", NULL}, {"seat_fees", NULL}, {"banker_fees", NULL},
};

static const struct list_column DEALER_COLUMNS[] = {
	{"table", NULL}, {"person", NULL}, {"name", NULL}, {"at", NULL}, {"until", NULL}, {"by", NULL},
};

static const struct list_column DECISION_COLUMNS[] = {
	{"key", NULL}, {"player", NULL}, {"dealer", NULL}, {"table", NULL}, {"seat", NULL}, {"decisions", NULL},
	{"mistakes", NULL}, {"ev_lost", NULL}, {"ev_lost_amount", "ev_lost"}, {"z", NULL}, {"flagged", NULL},
};

static const struct list_column MASTER_GAME_COLUMNS[] = {
	{"table", NULL}, {"opener", NULL}, {"closer", NULL}, {"fills", NULL}, {"credits", NULL}, {"drop", NULL},
	{"win", NULL}, {"win_per_drop", NULL}, {"hand_win", NULL}, {"variance", NULL}, {"variance_percent", NULL},
	{"flagged", NULL}, {"complete", NULL}, {"discrepancy", NULL}, {"mispays", NULL}, {"voids", NULL},
	{"pending_slips", NULL}, {"unexplained", NULL}, {"investigation", NULL},
};

/* A master game row made flat for its CSV line: "explained"'s parts beside the rest, the investigation's status. */
static void
master_game_flat(json_t *row)
{
	static const char *const PARTS[] = {"mispays", "voids", "pending_slips", "unexplained"};
	const json_t *e = json_object_get(row, "explained"), *inv = json_object_get(row, "investigation");

	for (size_t i = 0; i < sizeof(PARTS) / sizeof(PARTS[0]); i++)
		json_object_set(row, PARTS[i], e ? json_object_get(e, PARTS[i]) : json_null());
	json_object_set(row, "investigation", json_is_object(inv) ? json_object_get(inv, "status") : json_null());
}

/* An array of objects: a header row, then a row per object. */
static void
list_csv(struct pb_csv *c, const json_t *arr, const struct list_column *cols, size_t ncols)
{
	size_t i;
	const json_t *o;

	for (size_t f = 0; f < ncols; f++)
		pb_csv_text(c, cols[f].header);
	pb_csv_end_row(c);
	json_array_foreach(arr, i, o) {
		for (size_t f = 0; f < ncols; f++) {
			if (cols[f].amount_of != NULL)
				csv_amount(c, json_object_get(o, cols[f].amount_of));
			else
				pb_csv_json(c, json_object_get(o, cols[f].header));
		}
		pb_csv_end_row(c);
	}
}

/* A copy of a banker row (or a table's total) with its table and banker_seat set, appended to rows. */
static void
banker_row(json_t *rows, const json_t *t, const json_t *b, json_t *seat)
{
	json_t *row = json_deep_copy(b);

	json_object_set(row, "table", json_object_get(t, "table"));
	json_object_set_new(row, "banker_seat", seat);
	json_array_append_new(rows, row);
}

/* The master game report's rows: one per table, then the total with table "total". */
static void
master_game_csv(struct pb_csv *c, const json_t *report)
{
	json_t *rows = json_deep_copy(json_object_get(report, "tables")), *total = json_deep_copy(json_object_get(report, "total"));

	if (rows == NULL || total == NULL) {
		c->oom = true;
	} else {
		size_t i;
		json_t *row;
		json_object_set_new(total, "table", json_string("total"));
		json_array_append(rows, total);
		json_array_foreach(rows, i, row)
			master_game_flat(row);
		list_csv(c, rows, COLUMNS(MASTER_GAME_COLUMNS));
	}
	json_decref(rows);
	json_decref(total);
}

static const struct list_column STATISTICS_COLUMNS[] = {
	{"table", NULL}, {"game", NULL}, {"period", NULL}, {"gaming_day", NULL}, {"drop", NULL}, {"win", NULL},
	{"win_per_drop", NULL}, {"hand_win", NULL}, {"handle", NULL}, {"theoretical_win", NULL},
	{"theoretical_win_per_handle", NULL}, {"win_per_handle", NULL}, {"interval_flag", NULL}, {"baseline_flag", NULL},
	/* Added with the prior month and the shifts (docs/reports.md): after the others, so that they keep their places. */
	{"drops", NULL}, {"incomplete", NULL}, {"shift", NULL}, {"variance", NULL}, {"windows", NULL},
};

/*
 * A period's figures with its row's table and game, the period, its flags
 * and (a shift's part of the period) the shift as columns, appended to rows.
 */
static void
statistics_row(json_t *rows, const json_t *r, const json_t *f, const char *period, json_t *day, json_t *shift)
{
	json_t *row = json_deep_copy(f), *flags = json_object_get(f, "flags");

	if (row == NULL)
		return;
	if (json_object_get(r, "table") != NULL)
		json_object_set(row, "table", json_object_get(r, "table"));
	else
		json_object_set_new(row, "table", json_string("total"));
	json_object_set(row, "game", json_object_get(r, "game"));
	json_object_set_new(row, "period", json_string(period));
	json_object_set(row, "gaming_day", day);
	json_object_set(row, "interval_flag", json_object_get(flags, "interval"));
	json_object_set(row, "baseline_flag", json_object_get(flags, "baseline"));
	json_object_set(row, "shift", shift);
	json_array_append_new(rows, row);
}

/* A row's (or the total's) shifts: each shift's month to date (to to_day), then its month before (to prior_to). */
static void
statistics_shift_rows(json_t *rows, const json_t *r, json_t *to_day, json_t *prior_to)
{
	const json_t *s;
	size_t i;

	json_array_foreach(json_object_get(r, "shifts"), i, s) {
		json_t *name = json_object_get(s, "shift");
		statistics_row(rows, r, json_object_get(s, "month_to_date"), "month_to_date", to_day, name);
		statistics_row(rows, r, json_object_get(s, "prior_month"), "prior_month", prior_to, name);
	}
}

/*
 * The statistics report: per row (then the total, table "total"), a line
 * per day, the month and the year to date, the month before, then the
 * shifts' lines (a "shift" named).
 */
static void
statistics_csv(struct pb_csv *c, const json_t *report)
{
	json_t *rows = json_array(), *all = json_deep_copy(json_object_get(report, "rows")), *r, *f;
	json_t *to_day = json_object_get(report, "to_day");
	json_t *prior_to = json_object_get(json_object_get(report, "prior_month"), "to_day");
	size_t i, j;

	if (rows == NULL || all == NULL) {
		c->oom = true;
		goto out;
	}
	json_array_append(all, json_object_get(report, "total"));
	json_array_foreach(all, i, r) {
		json_array_foreach(json_object_get(r, "days"), j, f)
			statistics_row(rows, r, f, "day", json_object_get(f, "gaming_day"), NULL);
		statistics_row(rows, r, json_object_get(r, "month_to_date"), "month_to_date", to_day, NULL);
		statistics_row(rows, r, json_object_get(r, "year_to_date"), "year_to_date", to_day, NULL);
		statistics_row(rows, r, json_object_get(r, "prior_month"), "prior_month", prior_to, NULL);
		statistics_shift_rows(rows, r, to_day, prior_to);
	}
	list_csv(c, rows, COLUMNS(STATISTICS_COLUMNS));
out:
	json_decref(rows);
	json_decref(all);
}

/* The banker report's rows: one per banker seat, then the table's total with banker_seat "all". */
static void
bankers_csv(struct pb_csv *c, const json_t *report)
{
	json_t *rows = json_array(), *t, *b, *seat;
	size_t i, j;

	json_array_foreach(json_object_get(report, "tables"), i, t) {
		json_array_foreach(json_object_get(t, "bankers"), j, b) {
			seat = json_object_get(b, "seat");
			banker_row(rows, t, b, seat ? json_copy(seat) : json_null());
		}
		if (json_object_get(t, "total") != NULL)
			banker_row(rows, t, json_object_get(t, "total"), json_string("all"));
	}
	list_csv(c, rows, COLUMNS(BANKER_COLUMNS));
	json_decref(rows);
}

char *
report_csv(enum report_kind kind, const json_t *report, size_t *len)
{
	struct pb_csv c;

	pb_csv_init(&c);
	switch (kind) {
	case REPORT_SUMMARY:
		summary_csv(&c, report);
		break;
	case REPORT_PAYOUTS:
		list_csv(&c, json_object_get(report, "payouts"), COLUMNS(PAYOUT_COLUMNS));
		break;
	case REPORT_BANKERS:
		bankers_csv(&c, report);
		break;
	case REPORT_EXCEPTIONS:
		list_csv(&c, json_object_get(report, "exceptions"), COLUMNS(EXCEPTION_COLUMNS));
		break;
	case REPORT_DEALERS:
		list_csv(&c, json_object_get(report, "changes"), COLUMNS(DEALER_COLUMNS));
		break;
	case REPORT_MASTER_GAME:
		master_game_csv(&c, report);
		break;
	case REPORT_STATISTICS:
		statistics_csv(&c, report);
		break;
	case REPORT_DECISIONS:
		list_csv(&c, json_object_get(report, "groups"), COLUMNS(DECISION_COLUMNS));
		break;
	}
	return pb_csv_finish(&c, len);
}
