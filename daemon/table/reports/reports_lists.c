/*
 * reports_lists.c - the reports that list records rather than sum them:
 * the largest payouts (with the hand each was paid on) and the exceptions
 * (voids, coverage shorts, significant events), oldest first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "engine/hand3.h"
#include "engine/hand6.h"
#include "store/store.h"
#include "table/players/players.h"
#include "table/rounds/rounds.h"
#include "table/reports/reports_private.h"

/*
 * Significant-event codes (schema 003) that the exceptions report lists,
 * as SQLite GLOB patterns.  Add a code here when a new kind of refusal or
 * alarm is recorded; docs/reports.md lists them.
 */
static const char *const EXCEPTION_CODE_PATTERNS[] = {
	"*refused*",            /* refused steps, banker rotation refusals */
	"*lockout*",            /* authentication lockouts */
	"*locked_out*",
	"integrity*",           /* integrity check failures, holds */
	"*_integrity*",
	"*tamper*",
	"chain_*",
	"checkpoint_failed",
	"backup_failed",
	NULL,
};

/* The numbers of rounds by their id, {"1390": 277}, as store_round_nos gives them; oom set when one was lost. */
struct round_nos {
	json_t *by_id;
	bool oom;
};

static void
round_no_found(void *arg, int64_t id, int64_t round_no)
{
	struct round_nos *r = arg;
	char key[24];

	snprintf(key, sizeof(key), "%lld", (long long)id);
	if (json_object_set_new(r->by_id, key, json_integer(round_no)) < 0)
		r->oom = true;
}

/* The round a row names: its integer "round", or with in_detail its detail's (a significant event's); else NULL. */
static json_t *
row_round(json_t *row, bool in_detail)
{
	json_t *round = json_object_get(in_detail ? json_object_get(row, "detail") : row, "round");

	return json_is_integer(round) ? round : NULL;
}

/*
 * Gives each row of arr that names a round (an integer "round", or with
 * in_detail one in its "detail") its "round_no": the table's number of the
 * round, which with "table" makes the label the pages show (T1-277).  One
 * read for the whole list.
 */
static int
rows_round_nos_of(struct pit *p, json_t *arr, bool in_detail, struct pb_error *err)
{
	struct round_nos nos = {.by_id = json_object()};
	json_t *ids = json_array(), *row;
	char *text = NULL, key[24];
	size_t i;
	int rc = 0;

	if (nos.by_id == NULL || ids == NULL) {
		rc = pb_oom(err);
		goto out;
	}
	json_array_foreach(arr, i, row) {
		json_t *round = row_round(row, in_detail);
		if (round != NULL && json_array_append(ids, round) < 0) {
			rc = pb_oom(err);
			goto out;
		}
	}
	if (json_array_size(ids) == 0)
		goto out;
	if ((text = json_dumps(ids, JSON_COMPACT)) == NULL) {
		rc = pb_oom(err);
		goto out;
	}
	if ((rc = store_round_nos(p->store, text, round_no_found, &nos, err)) < 0)
		goto out;
	if (nos.oom) {
		rc = pb_oom(err);
		goto out;
	}
	json_array_foreach(arr, i, row) {
		json_t *round = row_round(row, in_detail), *no;
		if (round == NULL)
			continue;
		snprintf(key, sizeof(key), "%lld", (long long)json_integer_value(round));
		no = json_object_get(nos.by_id, key);
		if (no != NULL && json_object_set(row, "round_no", no) < 0) {
			rc = pb_oom(err);
			goto out;
		}
	}
out:
	free(text);
	json_decref(ids);
	json_decref(nos.by_id);
	return rc;
}

/* The rows of a report that name a round in "round": each its "round_no". */
static int
rows_round_nos(struct pit *p, json_t *arr, struct pb_error *err)
{
	return rows_round_nos_of(p, arr, false, err);
}

int
pit_events_round_nos(struct pit *p, json_t *events, struct pb_error *err)
{
	return rows_round_nos_of(p, events, true, err);
}

/* ---- the largest payouts ---- */

/* The hand a line was paid on: best five of six for the six card bonus, else the seat's three cards. */
static json_t *
payout_hand(const struct report_payout *rp)
{
	if (!rp->has_cards)
		return json_null();
	if (rp->wager == WAGER_SIX_CARD) {
		card_t six[6];
		if (!rp->has_dealer)
			return json_null();
		memcpy(six, rp->cards, 3);
		memcpy(six + 3, rp->dealer, 3);
		return json_string(hand6_category_name(hand6_category(six)));
	}
	return json_string(hand3_category_name(HAND3_CATEGORY(hand3_value(rp->cards))));
}

/* One payout line as the report lists it. */
static json_t *
payout_json(const struct report_payout *r)
{
	return json_pack("{s:I,s:s,s:i,s:s,s:I,s:I,s:o,s:o,s:o,s:s}",
	    "round", (json_int_t)r->round_id, "table", r->table_id, "seat", r->seat, "wager", wager_name(r->wager),
	    "stake", (json_int_t)r->stake, "net", (json_int_t)r->net, "hand", payout_hand(r),
	    "cards", r->has_cards ? cards_to_json(r->cards) : json_null(),
	    "dealer", r->has_dealer ? cards_to_json(r->dealer) : json_null(), "at", r->at);
}

int
pit_report_payouts(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err)
{
	struct report_payout *rows = NULL;
	char from[PB_TIME_LEN], to[PB_TIME_LEN], *scope = NULL;
	json_t *arr;
	int n = 0, rc = -1;

	*out = NULL;
	if (report_scope(p, a, q, &scope, err) < 0)
		return -1;
	rows = calloc((size_t)q->limit, sizeof(*rows));
	if (rows == NULL) {
		pb_oom(err);
		goto out;
	}
	pb_time_format_ms(q->from_ms, from);
	pb_time_format_ms(q->to_ms, to);
	if (store_report_payouts(p->store, scope, q->min_net, from, to, q->limit, rows, &n, err) < 0)
		goto out;
	arr = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(arr, payout_json(&rows[i]));
	if (rows_round_nos(p, arr, err) < 0) {
		json_decref(arr);
		goto out;
	}
	*out = json_pack("{s:s,s:s,s:o,s:I,s:i,s:o}", "from", from, "to", to,
	    "table", report_table_json(q), "min", (json_int_t)q->min_net, "limit", q->limit,
	    "payouts", arr);
	rc = *out != NULL ? 0 : pb_oom(err);
out:
	free(rows);
	free(scope);
	return rc;
}

/* ---- exceptions ---- */

static int
cmp_exception(const void *a, const void *b)
{
	const struct report_exception *x = a, *y = b;
	int c = strcmp(x->at, y->at);

	if (c != 0)
		return c;
	if (x->round_id != y->round_id)
		return x->round_id < y->round_id ? -1 : 1;
	if (x->event_id != y->event_id)
		return x->event_id < y->event_id ? -1 : 1;
	if (x->seat != y->seat)
		return x->seat < y->seat ? -1 : 1;
	if (x->wager != y->wager)
		return x->wager < y->wager ? -1 : 1;
	return strcmp(x->kind, y->kind);
}

static json_t *
exception_json(const struct report_exception *e)
{
	json_t *o = json_pack("{s:s,s:o,s:o,s:s}", "at", e->at,
	    "table", e->table_id[0] ? json_string(e->table_id) : json_null(),
	    "round", e->round_id ? json_integer(e->round_id) : json_null(), "kind", e->kind);
	char detail[256];

	if (o == NULL)
		return NULL;
	if (strcmp(e->kind, "coverage_short") == 0) {
		snprintf(detail, sizeof(detail), "seat %d %s: a win of %lld was paid %lld; %lld short, the bank ran out", e->seat,
		    wager_name(e->wager), (long long)(e->net + e->short_amount), (long long)e->net, (long long)e->short_amount);
		json_object_set_new(o, "detail", json_string(detail));
		json_object_set_new(o, "seat", json_integer(e->seat));
		json_object_set_new(o, "wager", json_string(wager_name(e->wager)));
		json_object_set_new(o, "stake", json_integer(e->stake));
		json_object_set_new(o, "net", json_integer(e->net));
		json_object_set_new(o, "short", json_integer(e->short_amount));
	} else {
		json_object_set_new(o, "detail", json_string(e->detail ? e->detail : ""));
	}
	if (e->event_id != 0) {
		json_object_set_new(o, "event", json_integer(e->event_id));
		json_object_set_new(o, "source", json_string(e->source));
	}
	return o;
}

/* The significant-event codes listed, as the store's JSON array of GLOB patterns (malloc'd; NULL: no memory). */
static char *
exception_codes(void)
{
	json_t *pat = json_array();
	char *codes;

	for (int i = 0; EXCEPTION_CODE_PATTERNS[i] != NULL; i++)
		json_array_append_new(pat, json_string(EXCEPTION_CODE_PATTERNS[i]));
	codes = json_dumps(pat, JSON_COMPACT);
	json_decref(pat);
	return codes;
}

/* The first n exceptions of the list, sorted, as a JSON array; NULL when out of memory. */
static json_t *
exceptions_json(const struct report_exception_list *list, int n)
{
	json_t *arr = json_array();

	for (int i = 0; i < n && arr != NULL; i++) {
		json_t *e = exception_json(&list->items[i]);
		if (e == NULL) {
			json_decref(arr);
			return NULL;
		}
		json_array_append_new(arr, e);
	}
	return arr;
}


/* How far before a period's start the exceptions report looks for overdue CTR items, in gaming days. */
#define CTR_LOOKBACK_DAYS 90

/*
 * The CTR items overdue now (table/players/title31.c), of the gaming days
 * from CTR_LOOKBACK_DAYS before the period's start to its end, for the
 * readers of personal data (the others see none).
 */
static int
report_ctr_overdue(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr, struct pb_error *err)
{
	char from_day[11], to_day[11], at[PB_TIME_LEN];
	int64_t day = 0;

	if ((a->roles & PLAYER_PERSONAL_ROLES) == 0)
		return 0;
	pb_time_format_ms(q->from_ms, at);
	title31_gaming_day(&p->cfg->property.calendar, at, from_day);
	gaming_day_parse(from_day, &day);
	gaming_day_format(day - CTR_LOOKBACK_DAYS, from_day);
	pb_time_format_ms(q->to_ms - 1, at);
	title31_gaming_day(&p->cfg->property.calendar, at, to_day);
	return title31_overdue_exceptions(p, from_day, to_day, arr, err);
}

int
pit_report_exceptions(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err)
{
	struct report_exception_list list = {0};
	char from[PB_TIME_LEN], to[PB_TIME_LEN], *scope = NULL, *codes = NULL;
	json_t *arr, *mispays = NULL;
	bool cut = false;
	int rc = -1;

	*out = NULL;
	if (report_scope(p, a, q, &scope, err) < 0)
		return -1;
	if ((codes = exception_codes()) == NULL) {
		pb_oom(err);
		goto out;
	}
	pb_time_format_ms(q->from_ms, from);
	pb_time_format_ms(q->to_ms, to);
	/* Each source oldest first, one more than the limit: merged, cut, and "truncated" says so. */
	if (store_report_voids(p->store, scope, from, to, q->limit + 1, &list, err) < 0 ||
	    store_report_shorts(p->store, scope, from, to, q->limit + 1, &list, err) < 0 ||
	    store_report_significant(p->store, scope, codes, from, to, q->limit + 1, &list, err) < 0)
		goto out;
	if (list.count > 0)
		qsort(list.items, (size_t)list.count, sizeof(list.items[0]), cmp_exception);
	arr = exceptions_json(&list, list.count < q->limit ? list.count : q->limit);
	/* the mispays (table/rounds/corrections.c) and their total */
	if (arr != NULL && corrections_exceptions(p, scope, from, to, q->limit + 1, arr, &mispays, err) < 0) {
		json_decref(arr);
		goto out;
	}
	/* the groups whose decisions knew the dealer's hand (table/reports/decision_exceptions.c), merged in below */
	if (arr != NULL && decision_exceptions(p, a, q, arr, err) < 0) {
		json_decref(arr);
		goto out;
	}
	/* the accounting exceptions (table/reports/acct_exceptions.c) merged in by time */
	if (arr != NULL && acct_exceptions_merge(p, a, q, arr, &cut, err) < 0) {
		json_decref(arr);
		goto out;
	}
	/* the CTR items overdue now, of the gaming days up to the period's end (property-wide: no table's) */
	if (arr != NULL && q->table[0] == '\0' && report_ctr_overdue(p, a, q, arr, err) < 0) {
		json_decref(arr);
		goto out;
	}
	/* each row of a round with the table's number of it (its label T1-277) */
	if (arr != NULL && rows_round_nos(p, arr, err) < 0) {
		json_decref(arr);
		goto out;
	}
	*out = arr == NULL ? NULL : json_pack("{s:s,s:s,s:o,s:i,s:b,s:o,s:O}", "from", from, "to", to,
	    "table", report_table_json(q), "limit", q->limit,
	    "truncated", list.count > q->limit || cut, "exceptions", arr, "mispays", mispays);
	rc = *out != NULL ? 0 : pb_oom(err);
out:
	report_exception_list_free(&list);
	json_decref(mispays);
	free(codes);
	free(scope);
	return rc;
}
