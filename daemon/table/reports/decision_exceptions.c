/*
 * decision_exceptions.c - the decision_knowledge exceptions
 * (docs/protection.md): for each gaming day starting in the exceptions
 * report's range, the groups the decisions report flags by player, by
 * dealer and by table, each with the decisions that weighed most (its
 * cards and the dealer's) and its acknowledgment; and the check of an
 * acknowledgment's ref.  Only the decisions of groups large enough to be
 * flagged are valued.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "common/money_text.h"
#include "config/table_money.h"
#include "store/accounting.h"
#include "store/store.h"
#include "table/accounting/accounting.h"
#include "table/reports/reports_private.h"
#include "table/rounds/rounds.h"

#define DECISION_DAYS_MAX 93    /* the latest gaming days of a range one report judges */
#define EVIDENCE_MAX 5          /* the decisions that weighed most, listed with an exception */

static const enum report_group GROUPINGS[] = {REPORT_GROUP_PLAYER, REPORT_GROUP_DEALER, REPORT_GROUP_TABLE};

/* An exact expectation sum / n in cents as a number rounded to two decimals. */
static json_t *
cents2(double sum, int64_t n)
{
	return json_real(n > 0 ? round(sum * 100.0 / (double)n) / 100.0 : 0.0);
}

/* The table the exception of group g stands at: its own (by table), else where it made most decisions. */
static void
group_table(const struct decision_list *l, enum report_group by, const struct decision_group *g, char table[PB_ID_MAX])
{
	int best = 0;

	snprintf(table, PB_ID_MAX, "%s", l->rows[g->first].table);
	if (by == REPORT_GROUP_TABLE)
		return;
	for (int64_t i = 0; i < g->decisions; i++) {
		const char *t = l->rows[l->order[g->start + i]].table;
		int n = 0;
		for (int64_t j = 0; j < g->decisions; j++)
			n += strcmp(l->rows[l->order[g->start + j]].table, t) == 0;
		if (n > best || (n == best && strcmp(t, table) < 0)) {
			best = n;
			snprintf(table, PB_ID_MAX, "%s", t);
		}
	}
}

/* The decisions that weighed most towards knowing the dealer's hand, heaviest first. */
static json_t *
evidence_json(const struct decision_list *l, const struct decision_group *g)
{
	json_t *arr = json_array();
	int picked[EVIDENCE_MAX], count = 0;

	for (int k = 0; k < EVIDENCE_MAX && k < g->decisions; k++) {
		int best = -1;
		for (int64_t i = 0; i < g->decisions; i++) {
			int row = l->order[g->start + i];
			bool taken = false;
			for (int j = 0; j < count; j++)
				taken = taken || picked[j] == row;
			if (!taken && (best < 0 || decision_row_weight(&l->rows[row]) > decision_row_weight(&l->rows[best])))
				best = row;
		}
		picked[count++] = best;
	}
	for (int k = 0; k < count && arr != NULL; k++) {
		const struct decision_row *d = &l->rows[picked[k]];
		json_t *o = json_pack("{s:I,s:I,s:s,s:i,s:o,s:o,s:o,s:s,s:o,s:o,s:I,s:o}", "round", (json_int_t)d->round_id,
		    "round_no", (json_int_t)d->round_no, "table", d->table, "seat", d->seat,
		    "player", d->player[0] ? json_string(d->player) : json_null(), "cards", cards_to_json(d->cards),
		    "dealer", cards_to_json(d->dealer_cards), "decision", d->played ? "play" : "fold",
		    "ev_play", cents2((double)d->sum_play, d->n), "ev_fold", cents2((double)d->sum_fold, d->n),
		    "gain", (json_int_t)(d->played ? d->gain : -d->gain), "weight", cents2((double)decision_row_weight(d), d->n));
		if (o == NULL || json_array_append_new(arr, o) < 0) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* The groups of l by `by`, those that could be flagged valued first; groups flagged by pf. */
static int
judged_groups(struct pit *p, struct decision_list *l, enum report_group by, const struct protection_flags *pf,
    struct decision_group **groups, int *count, struct pb_error *err)
{
	if (decision_groups(l, by, pf, groups, count, err) < 0)
		return -1;
	for (int g = 0; g < *count; g++) {
		if ((*groups)[g].decisions < pf->min_decisions)
			continue;
		for (int64_t i = 0; i < (*groups)[g].decisions; i++)
			if (decision_row_value(l, &l->rows[l->order[(*groups)[g].start + i]], err) < 0) {
				free(*groups);
				*groups = NULL;
				return -1;
			}
	}
	free(*groups);
	(void)p;
	return decision_groups(l, by, pf, groups, count, err);
}

/* The flagged groups of one gaming day by one grouping, appended to arr. */
static int
add_day_groups(struct pit *p, struct decision_list *l, enum report_group by, const char *day_text, int64_t at_ms,
    json_t *arr, struct pb_error *err)
{
	struct protection_flags pf;
	struct decision_group *groups = NULL;
	int count = 0, rc = 0;

	protection_flags_of(p, &pf);
	if (judged_groups(p, l, by, &pf, &groups, &count, err) < 0)
		return -1;
	for (int i = 0; i < count && rc == 0; i++) {
		const struct decision_group *g = &groups[i];
		char table[PB_ID_MAX], ref[ACCT_ACK_REF_MAX], detail[400], lost[MONEY_TEXT_LEN];
		struct acct_ack ack;
		bool found;
		json_t *o;

		if (!g->flagged)
			continue;
		group_table(l, by, g, table);
		snprintf(ref, sizeof(ref), "%s/%s/%s", day_text, report_group_name(by), g->key);
		if (store_acct_ack_get(p->store, table, "decision_knowledge", ref, &ack, &found, err) < 0) {
			rc = -1;
			break;
		}
		snprintf(detail, sizeof(detail), "gaming day %s: %s %s's %lld decisions knew the dealer's hand (z = %.2f, "
		    "flagged at %.2f); %lld mistakes, %s of EV lost", day_text, report_group_name(by), g->key,
		    (long long)g->decisions, g->z, pf.z_flag, (long long)g->mistakes, table_money(p->cfg, table, g->ev_lost, lost));
		o = decision_group_json(l, by, g);
		if (o == NULL) {
			rc = pb_oom(err);
			break;
		}
		json_object_set_new(o, "at", report_time_json(at_ms));
		json_object_set_new(o, "table", json_string(table));
		json_object_set_new(o, "round", json_null());
		json_object_set_new(o, "kind", json_string("decision_knowledge"));
		json_object_set_new(o, "detail", json_string(detail));
		json_object_set_new(o, "ref", json_string(ref));
		json_object_set_new(o, "group", json_string(report_group_name(by)));
		json_object_set_new(o, "gaming_day", json_string(day_text));
		json_object_set_new(o, "evidence", evidence_json(l, g));
		json_object_set_new(o, "acknowledged", found ? json_pack("{s:s,s:s,s:s}", "by", ack.by, "at", ack.at, "note",
		    ack.note) : json_null());
		if (json_array_append_new(arr, o) < 0)
			rc = pb_oom(err);
	}
	free(groups);
	return rc;
}

/* The decisions of gaming day `day` at the scope's tables into l. */
static int
day_decisions(struct pit *p, const char *scope, int64_t day, struct decision_list *l, int64_t *from_ms,
    struct pb_error *err)
{
	int64_t from_s, to_s;

	gaming_day_bounds(&p->cfg->property.calendar, day, &from_s, &to_s);
	*from_ms = from_s * 1000;
	return decisions_collect(p, scope, from_s * 1000, to_s * 1000, l, err);
}

int
decision_exceptions(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr,
    struct pb_error *err)
{
	int64_t first, last;
	char *scope = NULL;
	int rc = 0;

	if (report_scope(p, a, q, &scope, err) < 0)
		return -1;
	report_days_in(p, q, DECISION_DAYS_MAX, &first, &last);
	for (int64_t day = first; day <= last && rc == 0; day++) {
		struct decision_list l;
		char text[11];
		int64_t at_ms;
		gaming_day_format(day, text);
		if (day_decisions(p, scope, day, &l, &at_ms, err) < 0) {
			rc = -1;
			break;
		}
		for (size_t g = 0; g < sizeof(GROUPINGS) / sizeof(GROUPINGS[0]) && rc == 0; g++)
			rc = add_day_groups(p, &l, GROUPINGS[g], text, at_ms, arr, err);
		decision_list_free(&l);
	}
	free(scope);
	return rc;
}

int
decision_exception_check(struct pit *p, const struct actor *a, const char *table, const char *ref,
    struct pb_error *err)
{
	struct report_query q;
	struct protection_flags pf;
	struct decision_list l;
	struct decision_group *groups = NULL;
	enum report_group by;
	const char *s1 = strchr(ref, '/'), *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	char day_text[11], group[12], at[PB_ID_MAX], *scope = NULL;
	int64_t day, at_ms;
	int count = 0, rc = -1;
	bool flagged = false;

	if (s1 == NULL || s2 == NULL || s1 - ref != 10 || s2 - s1 - 1 >= (long)sizeof(group) || s2[1] == '\0')
		return pb_fail(err, 400, "invalid_body", "ref: a decision_knowledge exception is \"YYYY-MM-DD/GROUP/KEY\", "
		    "as the exceptions report shows it");
	snprintf(day_text, sizeof(day_text), "%.10s", ref);
	snprintf(group, sizeof(group), "%.*s", (int)(s2 - s1 - 1), s1 + 1);
	if (gaming_day_parse(day_text, &day) < 0)
		return pb_fail(err, 400, "invalid_body", "ref: \"%s\" does not begin with a gaming day", ref);
	if (strcmp(group, "player") == 0)
		by = REPORT_GROUP_PLAYER;
	else if (strcmp(group, "dealer") == 0)
		by = REPORT_GROUP_DEALER;
	else if (strcmp(group, "table") == 0)
		by = REPORT_GROUP_TABLE;
	else
		return pb_fail(err, 400, "invalid_body", "ref: the group is player, dealer or table (got \"%s\")", group);
	memset(&q, 0, sizeof(q));
	q.kind = REPORT_DECISIONS;
	if (report_scope(p, a, &q, &scope, err) < 0)
		return -1;
	protection_flags_of(p, &pf);
	if (day_decisions(p, scope, day, &l, &at_ms, err) < 0)
		goto out;
	if (judged_groups(p, &l, by, &pf, &groups, &count, err) < 0)
		goto out;
	for (int i = 0; i < count; i++)
		if (strcmp(groups[i].key, s2 + 1) == 0 && groups[i].flagged) {
			group_table(&l, by, &groups[i], at);
			flagged = strcmp(at, table) == 0;
		}
	rc = flagged ? 0 : pb_fail(err, 404, "exception_not_found", "there is no flagged decision_knowledge exception %s at "
	    "table %s; give the exceptions report's \"table\" and \"ref\"", ref, table);
out:
	free(groups);
	decision_list_free(&l);
	free(scope);
	return rc;
}
