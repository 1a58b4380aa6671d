/*
 * decisions.c - the decisions report (docs/protection.md): every play/fold
 * decision of the settled rounds in a range judged against the exact
 * values of playing and folding given the seat's own three cards
 * (engine/decision.h), summed per player, dealer or table: decisions,
 * mistakes, EV lost and the z of knowledge of the dealer's hand.  Read from
 * the recorded rounds each time (nothing stored: a replay or a restore gives
 * the same figures).  The decision_knowledge exceptions and their
 * acknowledgment's check are decision_exceptions.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "engine/decision.h"
#include "store/store.h"
#include "table/reports/reports_private.h"

/* Room for one more decision in l: 0, or -1 with err out_of_memory. */
static int
list_reserve(struct decision_list *l, struct pb_error *err)
{
	struct decision_row *grown;
	int cap;

	if (l->count < l->cap)
		return 0;
	cap = l->cap ? l->cap * 2 : 256;
	if ((grown = realloc(l->rows, (size_t)cap * sizeof(*grown))) == NULL)
		return pb_oom(err);
	l->rows = grown;
	l->cap = cap;
	return 0;
}

void
decision_list_free(struct decision_list *l)
{
	free(l->rules);
	free(l->rows);
	free(l->order);
	memset(l, 0, sizeof(*l));
}

/* The rules of round r as l keeps them (one copy per rules id): their index, or -1 with err. */
static int
list_rules(struct decision_list *l, const struct round_record *r, struct pb_error *err)
{
	struct decision_rules *grown;

	for (int i = 0; i < l->rules_count; i++)
		if (l->rules[i].rules_id == r->rules_id)
			return i;
	if ((grown = realloc(l->rules, (size_t)(l->rules_count + 1) * sizeof(*grown))) == NULL)
		return pb_oom(err);
	l->rules = grown;
	l->rules[l->rules_count].rules_id = r->rules_id;
	l->rules[l->rules_count].rules = r->rules;
	return l->rules_count++;
}

struct collect {
	struct store *store;
	struct decision_list *out;
	struct round_record *r;
	struct pb_error *err;
};

/* The decisions of one settled round into the list (store_rounds_settled_in's fn). */
static int
collect_round(void *arg, int64_t id)
{
	struct collect *c = arg;
	struct round_record *r = c->r;
	int rules = -1;

	if (store_round_load(c->store, id, r, c->err) < 0)
		return -1;
	if (!r->has_hand[0])
		return 0;
	for (int s = 1; s <= r->seats; s++) {
		struct decision_row *d;
		if (r->bets[s].ante <= 0 || !r->has_hand[s] ||
		    (r->decisions[s] != DECISION_PLAY && r->decisions[s] != DECISION_FOLD))
			continue;
		if (rules < 0 && (rules = list_rules(c->out, r, c->err)) < 0)
			return -1;
		if (list_reserve(c->out, c->err) < 0)
			return -1;
		d = &c->out->rows[c->out->count++];
		memset(d, 0, sizeof(*d));
		d->round_id = r->id;
		d->round_no = r->round_no;
		d->rules = rules;
		snprintf(d->table, sizeof(d->table), "%s", r->table_id);
		d->seat = s;
		snprintf(d->player, sizeof(d->player), "%s", r->players[s]);
		snprintf(d->dealer, sizeof(d->dealer), "%s", r->dealer_id);
		snprintf(d->dealer_name, sizeof(d->dealer_name), "%s", r->dealer_name);
		d->ante = r->bets[s].ante;
		d->pair_plus = r->bets[s].pair_plus;
		memcpy(d->cards, r->hands[s], 3);
		memcpy(d->dealer_cards, r->hands[0], 3);
		d->played = r->decisions[s] == DECISION_PLAY;
	}
	return 0;
}

int
decisions_collect(struct pit *p, const char *scope, int64_t from_ms, int64_t to_ms, struct decision_list *out,
    struct pb_error *err)
{
	struct collect c = {p->store, out, malloc(sizeof(struct round_record)), err};
	char from[PB_TIME_LEN], to[PB_TIME_LEN];
	int rc;

	memset(out, 0, sizeof(*out));
	if (c.r == NULL)
		return pb_oom(err);
	pb_time_format_ms(from_ms, from);
	pb_time_format_ms(to_ms, to);
	rc = store_rounds_settled_in(p->store, scope, from, to, collect_round, &c, err);
	free(c.r);
	return rc == 0 ? 0 : -1;
}

int
decision_row_value(const struct decision_list *l, struct decision_row *d, struct pb_error *err)
{
	struct decision_value v;
	const struct rules *r = &l->rules[d->rules].rules;

	if (d->valued)
		return 0;
	if (decision_value(r, d->ante, d->pair_plus, d->cards, &v, err) < 0 ||
	    decision_gain(r, d->ante, d->pair_plus, d->cards, d->dealer_cards, &d->gain, err) < 0)
		return -1;
	d->n = v.n;
	d->sum_play = v.sum_play;
	d->sum_fold = v.sum_fold;
	d->sum_g2 = v.sum_g2;
	d->valued = true;
	return 0;
}

bool
decision_row_mistake(const struct decision_row *d)
{
	return d->played ? d->sum_play < d->sum_fold : d->sum_fold < d->sum_play;
}

__int128
decision_row_weight(const struct decision_row *d)
{
	int64_t diff = d->sum_play - d->sum_fold;

	/* n (G_a - E[G_a|X]): G_a = +-G, E[G_a|X] = +-(sum_play - sum_fold) / n */
	return d->played ? (__int128)d->n * d->gain - diff : -((__int128)d->n * d->gain) + diff;
}

void
decision_group_key(const struct decision_row *d, enum report_group g, char key[DECISION_KEY_MAX])
{
	if (g == REPORT_GROUP_TABLE)
		snprintf(key, DECISION_KEY_MAX, "%s", d->table);
	else if (g == REPORT_GROUP_DEALER)
		snprintf(key, DECISION_KEY_MAX, d->dealer[0] ? "%s" : "%s/dealer", d->dealer[0] ? d->dealer : d->table);
	else if (d->player[0])
		snprintf(key, DECISION_KEY_MAX, "%s", d->player);
	else
		snprintf(key, DECISION_KEY_MAX, "%s/%d", d->table, d->seat);
}

/* Sorts the rows' indexes by their group's key, then by their order in the list. */
struct keyed {
	char key[DECISION_KEY_MAX];
	int row;
};

static int
cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = strcmp(a->key, b->key);

	return c != 0 ? c : (a->row > b->row) - (a->row < b->row);
}

/* The rounded-once cents of num / n, half away from zero (num >= 0). */
static int64_t
cents_rounded(__int128 num, int64_t n)
{
	return n > 0 ? (int64_t)((num * 2 + n) / (2 * (__int128)n)) : 0;
}

/* The figures of the rows idx[0..count) of one group into g. */
static void
group_sums(const struct decision_list *l, const struct keyed *idx, int count, struct decision_group *g)
{
	__int128 lost = 0, num = 0, var = 0;
	int64_t n = 0;

	memset(g, 0, sizeof(*g));
	snprintf(g->key, sizeof(g->key), "%s", idx[0].key);
	g->first = idx[0].row;
	for (int i = 0; i < count; i++) {
		const struct decision_row *d = &l->rows[idx[i].row];
		int64_t best = d->sum_play > d->sum_fold ? d->sum_play : d->sum_fold;
		int64_t diff = d->sum_play - d->sum_fold;
		n = d->n;
		g->decisions++;
		g->mistakes += decision_row_mistake(d);
		lost += best - (d->played ? d->sum_play : d->sum_fold);
		num += decision_row_weight(d);
		var += (__int128)d->n * d->sum_g2 - (__int128)diff * diff;
	}
	g->ev_lost = cents_rounded(lost, n);
	g->z = var > 0 ? (double)num / sqrt((double)var) : 0.0;
}

int
decision_groups(struct decision_list *l, enum report_group by, const struct protection_flags *pf,
    struct decision_group **out, int *count, struct pb_error *err)
{
	struct keyed *idx;
	struct decision_group *groups;
	int n = 0;

	*out = NULL;
	*count = 0;
	if (l->count == 0)
		return 0;
	free(l->order);
	l->order = calloc((size_t)l->count, sizeof(*l->order));
	idx = calloc((size_t)l->count, sizeof(*idx));
	groups = calloc((size_t)l->count, sizeof(*groups));
	if (idx == NULL || groups == NULL || l->order == NULL) {
		free(idx);
		free(groups);
		return pb_oom(err);
	}
	for (int i = 0; i < l->count; i++) {
		decision_group_key(&l->rows[i], by, idx[i].key);
		idx[i].row = i;
	}
	qsort(idx, (size_t)l->count, sizeof(*idx), cmp_keyed);
	for (int i = 0; i < l->count; i++)
		l->order[i] = idx[i].row;
	for (int i = 0; i < l->count;) {
		int j = i;
		while (j < l->count && strcmp(idx[j].key, idx[i].key) == 0)
			j++;
		group_sums(l, idx + i, j - i, &groups[n]);
		groups[n].flagged = groups[n].z >= pf->z_flag && groups[n].decisions >= pf->min_decisions;
		groups[n].start = i;
		n++;
		i = j;
	}
	free(idx);
	*out = groups;
	*count = n;
	return 0;
}

json_t *
decision_group_json(const struct decision_list *l, enum report_group by, const struct decision_group *g)
{
	const struct decision_row *d = &l->rows[g->first];
	json_t *o = json_pack("{s:s}", "key", g->key);

	if (o == NULL)
		return NULL;
	if (by == REPORT_GROUP_PLAYER && d->player[0]) {
		json_object_set_new(o, "player", json_string(d->player));
	} else if (by == REPORT_GROUP_PLAYER) {
		json_object_set_new(o, "table", json_string(d->table));
		json_object_set_new(o, "seat", json_integer(d->seat));
	} else if (by == REPORT_GROUP_DEALER) {
		json_object_set_new(o, "dealer", d->dealer[0] ? json_string(d->dealer) : json_null());
		json_object_set_new(o, "name", d->dealer[0] ? json_string(d->dealer_name) : json_null());
		if (d->dealer[0] == '\0')
			json_object_set_new(o, "table", json_string(d->table));
	} else {
		json_object_set_new(o, "table", json_string(d->table));
	}
	json_object_set_new(o, "decisions", json_integer(g->decisions));
	json_object_set_new(o, "mistakes", json_integer(g->mistakes));
	json_object_set_new(o, "ev_lost", json_integer(g->ev_lost));
	json_object_set_new(o, "z", json_real(g->z));
	json_object_set_new(o, "flagged", json_boolean(g->flagged));
	return o;
}

void
protection_flags_of(const struct pit *p, struct protection_flags *pf)
{
	pf->z_flag = p->cfg->protection.z_flag;
	pf->min_decisions = p->cfg->protection.min_decisions;
}

int
pit_report_decisions(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err)
{
	struct decision_list l;
	struct decision_group *groups = NULL;
	struct protection_flags pf;
	char *scope = NULL, day[11];
	json_t *arr = NULL;
	int count = 0, rc = -1;

	*out = NULL;
	if (report_scope(p, a, q, &scope, err) < 0)
		return -1;
	protection_flags_of(p, &pf);
	if (decisions_collect(p, scope, q->from_ms, q->to_ms, &l, err) < 0)
		goto out;
	for (int i = 0; i < l.count; i++)
		if (decision_row_value(&l, &l.rows[i], err) < 0)
			goto out;
	if (decision_groups(&l, q->group, &pf, &groups, &count, err) < 0)
		goto out;
	if ((arr = json_array()) == NULL) {
		pb_oom(err);
		goto out;
	}
	for (int i = 0; i < count; i++)
		if (json_array_append_new(arr, decision_group_json(&l, q->group, &groups[i])) < 0) {
			pb_oom(err);
			goto out;
		}
	*out = json_pack("{s:o,s:o,s:o,s:s,s:f,s:I,s:O}", "from", report_time_json(q->from_ms), "to",
	    report_time_json(q->to_ms), "table", report_table_json(q), "group", report_group_name(q->group),
	    "z_flag", pf.z_flag, "min_decisions", (json_int_t)pf.min_decisions, "groups", arr);
	if (*out != NULL && q->gaming_day != 0) {
		gaming_day_format(q->gaming_day, day);
		json_object_set_new(*out, "gaming_day", json_string(day));
	}
	rc = *out != NULL ? 0 : pb_oom(err);
out:
	json_decref(arr);
	free(groups);
	decision_list_free(&l);
	free(scope);
	return rc;
}
