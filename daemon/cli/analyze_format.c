/*
 * analyze_format.c - the exact analysis as `pitboss analyze` prints it: the
 * API.md JSON object (--json) and the readable tables.  Nothing here counts;
 * every figure comes from struct analysis (engine/analyze.c).
 */
#include "cli/analyze_format.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {"<net>": count, ...} in ascending order of net; zero counts left out. */
static json_t *
net_to_json(const struct net_dist *d)
{
	json_t *o = json_object();
	char key[48];

	if (o == NULL)
		return NULL;
	for (int i = 0; i < d->n; i++) {
		if (d->v[i].count == 0)
			continue;
		analysis_format_net(d->v[i].net, key, sizeof(key));
		json_object_set_new(o, key, json_integer((json_int_t)d->v[i].count));
	}
	return o;
}

static const char *const PAY_ROW_NAMES[ANALYSIS_PAY_ROWS] = {
	"high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush", "mini_royal",
};

/* Six card keys in the order API.md lists them. */
static const enum six_category SIX_ORDER[SIX_CATEGORY_COUNT] = {
	SIX_ROYAL_FLUSH, SIX_STRAIGHT_FLUSH, SIX_FOUR_OF_A_KIND, SIX_FULL_HOUSE, SIX_FLUSH,
	SIX_STRAIGHT, SIX_THREE_OF_A_KIND, SIX_TWO_PAIR, SIX_PAIR, SIX_NOTHING,
};

/* Pay-table rows from best to worst. */
static const int PAY_ROW_ORDER[ANALYSIS_PAY_ROWS] = {
	ANALYSIS_MINI_ROYAL, H3_STRAIGHT_FLUSH, H3_THREE_OF_A_KIND, H3_STRAIGHT, H3_FLUSH, H3_PAIR, H3_HIGH_CARD,
};

#define JI(n) json_integer((json_int_t)(n))

json_t *
analysis_to_json(const struct analysis *a)
{
	const struct ante_play_figures *ap = &a->ante_play;
	json_t *o, *h, *x, *oc, *w;

	if ((o = json_object()) == NULL)
		return NULL;
	json_object_set_new(o, "rules", json_string(a->rules_name));

	h = json_object();
	json_object_set_new(h, "straight_flush", JI(a->hands[H3_STRAIGHT_FLUSH]));
	json_object_set_new(h, "mini_royal", JI(a->mini_royal));
	json_object_set_new(h, "three_of_a_kind", JI(a->hands[H3_THREE_OF_A_KIND]));
	json_object_set_new(h, "straight", JI(a->hands[H3_STRAIGHT]));
	json_object_set_new(h, "flush", JI(a->hands[H3_FLUSH]));
	json_object_set_new(h, "pair", JI(a->hands[H3_PAIR]));
	json_object_set_new(h, "high_card", JI(a->hands[H3_HIGH_CARD]));
	json_object_set_new(h, "total", JI(a->hands_total));
	json_object_set_new(o, "hands", h);

	x = json_object();
	json_object_set_new(x, "strategy", json_string(ap->strategy));
	json_object_set_new(x, "combinations", JI(ap->combinations));
	oc = json_object();
	json_object_set_new(oc, "fold", JI(ap->fold));
	json_object_set_new(oc, "dealer_not_qualify", JI(ap->dealer_not_qualify));
	json_object_set_new(oc, "player_wins", JI(ap->player_wins));
	json_object_set_new(oc, "push", JI(ap->push));
	json_object_set_new(oc, "dealer_wins", JI(ap->dealer_wins));
	json_object_set_new(x, "outcomes", oc);
	json_object_set_new(x, "net", net_to_json(&ap->net));
	json_object_set_new(x, "house_edge", json_real(ap->house_edge));
	json_object_set_new(x, "element_of_risk", json_real(ap->element_of_risk));
	json_object_set_new(x, "raise_rate", json_real(ap->raise_rate));
	json_object_set_new(x, "raised_hands", JI(ap->raised_hands));
	if (ap->any_folded) {
		char folded[24];

		hand3_format_value(ap->highest_folded, folded, sizeof(folded));
		json_object_set_new(x, "highest_folded", json_string(folded));
	}
	json_object_set_new(x, "variance", json_real(ap->net.variance));
	json_object_set_new(o, "ante_play", x);

	if (a->has_pair_plus) {
		const struct pair_plus_figures *pp = &a->pair_plus;

		x = json_object();
		json_object_set_new(x, "combinations", JI(pp->combinations));
		json_object_set_new(x, "net", net_to_json(&pp->net));
		json_object_set_new(x, "house_edge", json_real(pp->house_edge));
		json_object_set_new(x, "variance", json_real(pp->net.variance));
		w = json_object();
		for (int i = 0; i < ANALYSIS_PAY_ROWS; i++) {
			int row = PAY_ROW_ORDER[i];
			if (pp->wins[row] > 0)
				json_object_set_new(w, PAY_ROW_NAMES[row], JI(pp->wins[row]));
		}
		json_object_set_new(x, "wins", w);
		json_object_set_new(x, "push", JI(pp->push));
		json_object_set_new(x, "lose", JI(pp->lose));
		json_object_set_new(o, "pair_plus", x);
	}

	if (a->has_six_card) {
		const struct six_card_figures *s = &a->six_card;

		x = json_object();
		json_object_set_new(x, "combinations", JI(s->combinations));
		h = json_object();
		for (int i = 0; i < SIX_CATEGORY_COUNT; i++)
			json_object_set_new(h, hand6_category_name(SIX_ORDER[i]), JI(s->hands[SIX_ORDER[i]]));
		json_object_set_new(x, "hands", h);
		json_object_set_new(x, "net", net_to_json(&s->net));
		json_object_set_new(x, "house_edge", json_real(s->house_edge));
		json_object_set_new(x, "variance", json_real(s->net.variance));
		json_object_set_new(o, "six_card_bonus", x);
	}
	return o;
}

/* A growing string for the text report. */
struct strbuf {
	char *s;
	size_t len, cap;
	bool failed;
};

static void __attribute__((format(printf, 2, 3)))
sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = true;
			return;
		}
		if (b->s != NULL && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		{
			size_t cap = b->cap ? b->cap * 2 : 4096;
			char *p;

			while (cap < b->len + (size_t)n + 1)
				cap *= 2;
			if ((p = realloc(b->s, cap)) == NULL) {
				b->failed = true;
				return;
			}
			b->s = p;
			b->cap = cap;
		}
	}
}

/* Writes n with thousands separators: 407,170,400. */
static const char *
commas(uint64_t n, char buf[32])
{
	char tmp[32];
	int len = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)n), o = 0;

	for (int i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

#define ROW_FMT "%-34s %10s %13s %12s %11s\n"

/* One table row: event, pays (net units), combinations, probability, return. */
static void
row(struct strbuf *b, const char *event, int64_t pays, uint64_t count, uint64_t total)
{
	char p[48], c[32], pr[32], rt[32];
	double prob = total ? (double)count / (double)total : 0.0;

	analysis_format_net(pays, p, sizeof(p));
	snprintf(pr, sizeof(pr), "%.6f", prob);
	snprintf(rt, sizeof(rt), "%.6f", prob * (double)pays / ANALYSIS_NET_DEN);
	sb_printf(b, ROW_FMT, event, p, commas(count, c), pr, rt);
}

/* The closing row of a table; total 0 leaves the count and probability blank. */
static void
total_row(struct strbuf *b, const char *label, uint64_t total, double ret)
{
	char c[32], rt[32];

	snprintf(rt, sizeof(rt), "%.6f", ret);
	sb_printf(b, ROW_FMT, label, "", total ? commas(total, c) : "", total ? "1.000000" : "", rt);
}

static const char *const PAY_ROW_LABELS[ANALYSIS_PAY_ROWS] = {
	"high card", "pair", "flush", "straight", "three of a kind", "straight flush", "mini royal",
};

static const char *const SIX_LABELS[SIX_CATEGORY_COUNT] = {
	"Nothing", "Pair", "Two pair", "Three of a kind", "Straight", "Flush",
	"Full house", "Four of a kind", "Straight flush", "Royal flush",
};

static void
format_hands(struct strbuf *b, const struct analysis *a)
{
	static const char *const LABELS[H3_CATEGORY_COUNT] = {
		"High card", "Pair", "Flush", "Straight", "Three of a kind", "Straight flush",
	};
	char c[32], pr[32];

	sb_printf(b, "Three-card hands\n");
	sb_printf(b, "%-34s %13s %12s\n", "Hand", "Combinations", "Probability");
	for (int cat = H3_STRAIGHT_FLUSH; cat >= H3_HIGH_CARD; cat--) {
		snprintf(pr, sizeof(pr), "%.6f", (double)a->hands[cat] / (double)a->hands_total);
		sb_printf(b, "%-34s %13s %12s\n", LABELS[cat], commas(a->hands[cat], c), pr);
		if (cat == H3_STRAIGHT_FLUSH)
			sb_printf(b, "%-34s %13s\n", "  of which mini royal", commas(a->mini_royal, c));
	}
	sb_printf(b, "%-34s %13s %12s\n\n", "Total", commas(a->hands_total, c), "1.000000");
}

static void
format_ante_play(struct strbuf *b, const struct analysis *a)
{
	const struct ante_play_figures *ap = &a->ante_play;
	const int64_t U = ANALYSIS_NET_DEN;
	uint64_t t = ap->combinations;
	double base;
	char label[64];

	sb_printf(b, "Ante and Play (%s strategy: raise with %s or better; dealer qualifies with %s)\n",
	    a->rules.raise_optimal ? "optimal" : "fixed", ap->strategy, a->rules.dealer_qualifier_text);
	sb_printf(b, ROW_FMT, "Event", "Pays", "Combinations", "Probability", "Return");
	row(b, "Player wins", 2 * U, ap->player_wins, t);
	row(b, "Dealer doesn't qualify", U, ap->dealer_not_qualify, t);
	row(b, "Push", 0, ap->push, t);
	row(b, "Player folds", -U, ap->fold, t);
	row(b, "Dealer wins", -2 * U, ap->dealer_wins, t);
	base = ((double)ap->player_wins * 2 + (double)ap->dealer_not_qualify -
	    (double)ap->fold - 2 * (double)ap->dealer_wins) / (double)t;
	total_row(b, "Total", t, base);
	if (a->rules.has_ante_bonus) {
		for (int i = 0; i < ANALYSIS_PAY_ROWS; i++) {
			int r = PAY_ROW_ORDER[i];
			struct pay p;

			if (ap->bonus_paid[r] == 0)
				continue;
			p = r == ANALYSIS_MINI_ROYAL ? a->rules.ante_bonus.mini_royal : a->rules.ante_bonus.by_category[r];
			snprintf(label, sizeof(label), "Ante bonus: %s", PAY_ROW_LABELS[r]);
			row(b, label, analysis_pay_units(p), ap->bonus_paid[r], t);
		}
		total_row(b, "Total with ante bonus", 0, -ap->house_edge);
		sb_printf(b, "(ante bonus rows are paid on raised hands whatever the dealer holds, in addition to the outcome)\n");
	}
	{
		char raised[32], all[32];

		sb_printf(b, "House edge %.4f%% of the ante; raise rate %.4f%% (%s of %s hands); "
		    "element of risk %.4f%%; variance %.6f\n\n",
		    100.0 * ap->house_edge, 100.0 * ap->raise_rate, commas(ap->raised_hands, raised),
		    commas(ANALYSIS_HANDS, all), 100.0 * ap->element_of_risk, ap->net.variance);
	}
}

static void
format_pair_plus(struct strbuf *b, const struct analysis *a)
{
	const struct pair_plus_figures *pp = &a->pair_plus;
	bool mbd = pp->mode == PAIR_PLUS_MUST_BEAT_DEALER;
	char label[64];

	if (mbd)
		sb_printf(b, "Pair Plus (must beat the dealer; %s)\n",
		    pp->tie == PAIR_PLUS_TIE_PUSH ? "all ties push" : "a tie pushes only with a pair or better");
	else
		sb_printf(b, "Pair Plus\n");
	sb_printf(b, ROW_FMT, "Event", "Pays", "Combinations", "Probability", "Return");
	for (int i = 0; i < ANALYSIS_PAY_ROWS; i++) {
		int r = PAY_ROW_ORDER[i];
		struct pay p = r == ANALYSIS_MINI_ROYAL ? a->rules.pair_plus.mini_royal : a->rules.pair_plus.by_category[r];

		if (!p.present)
			continue;
		snprintf(label, sizeof(label), "%s%s", mbd ? "Player wins with " : "", PAY_ROW_LABELS[r]);
		if (!mbd && label[0] >= 'a' && label[0] <= 'z')
			label[0] = (char)(label[0] - 'a' + 'A');
		row(b, label, analysis_pay_units(p), pp->wins[r], pp->combinations);
	}
	if (mbd)
		row(b, "Tie", 0, pp->push, pp->combinations);
	row(b, "Loss", -ANALYSIS_NET_DEN, pp->lose, pp->combinations);
	total_row(b, "Total", pp->combinations, -pp->house_edge);
	sb_printf(b, "House edge %.4f%%; variance %.6f\n\n", 100.0 * pp->house_edge, pp->net.variance);
}

static void
format_six_card(struct strbuf *b, const struct analysis *a)
{
	const struct six_card_figures *s = &a->six_card;

	sb_printf(b, "Six card bonus (best five of the player's and the dealer's six cards)\n");
	sb_printf(b, ROW_FMT, "Event", "Pays", "Combinations", "Probability", "Return");
	for (int i = 0; i < SIX_CATEGORY_COUNT; i++) {
		enum six_category c = SIX_ORDER[i];
		struct pay p = a->rules.six_card[c];

		row(b, SIX_LABELS[c], p.present ? analysis_pay_units(p) : -ANALYSIS_NET_DEN, s->hands[c], s->combinations);
	}
	total_row(b, "Total", s->combinations, -s->house_edge);
	sb_printf(b, "House edge %.4f%%; variance %.6f\n\n", 100.0 * s->house_edge, s->net.variance);
}

char *
analysis_format_text(const struct analysis *a)
{
	struct strbuf b = {0};

	sb_printf(&b, "Three Card Poker analysis: %s (complete enumeration)\n\n", a->rules_name);
	format_hands(&b, a);
	format_ante_play(&b, a);
	if (a->has_pair_plus)
		format_pair_plus(&b, a);
	if (a->has_six_card)
		format_six_card(&b, a);
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
