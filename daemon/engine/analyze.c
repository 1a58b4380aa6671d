/*
 * analyze.c - exact analysis by complete enumeration, made fast by counting.
 *
 * Ante/Play and must-beat-dealer Pair Plus need, for each of the 22,100
 * player hands, how many of the 18,424 dealer hands left in the deck rank
 * below a given hand value.  With the hands' values replaced by a dense
 * index 0..NV-1 in hand order, that count is, by inclusion-exclusion over
 * the dealer hands that share cards with the player's {a, b, c}:
 *
 *   below(x) = T(x) - S_a(x) - S_b(x) - S_c(x)
 *            + P_ab(x) + P_ac(x) + P_bc(x) - [player's own index < x]
 *
 * where T counts all hands with index < x, S_a those holding card a, and
 * P_ab those holding both a and b (50 hands, kept sorted per pair).  T and
 * S are prefix tables built once per process; P comes from per-pair cursors
 * that only move forward while the player hands are visited in value order.
 * Each player hand then costs a few dozen operations and a whole analysis
 * about a millisecond, against 407,170,400 comparisons by brute force.
 */
#include "engine/analyze.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VALUE_SPACE (H3_CATEGORY_COUNT << 12)  /* hand3 values are below this */
#define NV_MAX 1024                             /* distinct hand values: 741 */
#define PAIR_COUNT 1326                         /* C(52,2) */
#define PAIR_THIRDS 50

struct hand_entry {
	card_t c[3];
	bool mini;
	hand3_value_t value;
	uint16_t vi;                            /* dense index of value */
};

/* The rules-independent tables, built once by build_tables(). */
static struct {
	struct hand_entry hands[ANALYSIS_HANDS];
	int nv;
	hand3_value_t values[NV_MAX];           /* distinct values, ascending */
	uint16_t vi_of_value[VALUE_SPACE];
	uint32_t below_all[NV_MAX + 1];          /* T(x) */
	uint16_t below_card[CARD_COUNT][NV_MAX + 1]; /* S_card(x) */
	uint16_t pair_id[CARD_COUNT][CARD_COUNT];
	uint16_t pair_thirds[PAIR_COUNT][PAIR_THIRDS]; /* value indices of {a, b, any third}, sorted */
	uint16_t by_value[ANALYSIS_HANDS];      /* hand numbers in ascending value order */
	bool ok;
} tables;

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static pthread_once_t six_once = PTHREAD_ONCE_INIT;
static uint64_t six_counts[SIX_CATEGORY_COUNT];

/* Sorts a short array in place (insertion sort: 50 entries, no call per compare). */
static void
sort_u16(uint16_t *v, int n)
{
	for (int i = 1; i < n; i++) {
		uint16_t x = v[i];
		int j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * Builds the hand list, the dense value index and the prefix tables.  Runs
 * once per process under pthread_once; sets tables.ok when every count checks.
 */
static void
build_tables(void)
{
	static uint8_t seen[VALUE_SPACE];
	unsigned n = 0;
	int np = 0;

	for (int a = 0; a < CARD_COUNT; a++)
		for (int b = a + 1; b < CARD_COUNT; b++)
			for (int c = b + 1; c < CARD_COUNT; c++) {
				struct hand_entry *h = &tables.hands[n++];

				h->c[0] = (card_t)a;
				h->c[1] = (card_t)b;
				h->c[2] = (card_t)c;
				h->value = hand3_value(h->c);
				h->mini = hand3_is_mini_royal(h->c);
				seen[h->value] = 1;
			}
	tables.nv = 0;
	for (unsigned v = 0; v < VALUE_SPACE; v++)
		if (seen[v]) {
			if (tables.nv == NV_MAX)
				return;
			tables.vi_of_value[v] = (uint16_t)tables.nv;
			tables.values[tables.nv++] = (hand3_value_t)v;
		}
	for (unsigned i = 0; i < n; i++) {
		struct hand_entry *h = &tables.hands[i];

		h->vi = tables.vi_of_value[h->value];
		tables.below_all[h->vi + 1]++;
		for (int k = 0; k < 3; k++)
			tables.below_card[h->c[k]][h->vi + 1]++;
	}
	for (int x = 1; x <= tables.nv; x++) {
		tables.below_all[x] += tables.below_all[x - 1];
		for (int card = 0; card < CARD_COUNT; card++)
			tables.below_card[card][x] += tables.below_card[card][x - 1];
	}
	{
		uint32_t next[NV_MAX];

		memcpy(next, tables.below_all, sizeof(next));
		for (unsigned i = 0; i < n; i++)
			tables.by_value[next[tables.hands[i].vi]++] = (uint16_t)i;
	}
	for (int a = 0; a < CARD_COUNT; a++)
		for (int b = a + 1; b < CARD_COUNT; b++) {
			int k = 0;

			tables.pair_id[a][b] = tables.pair_id[b][a] = (uint16_t)np;
			for (int c = 0; c < CARD_COUNT; c++) {
				card_t h[3] = {(card_t)a, (card_t)b, (card_t)c};

				if (c == a || c == b)
					continue;
				tables.pair_thirds[np][k++] = tables.vi_of_value[hand3_value(h)];
			}
			sort_u16(tables.pair_thirds[np], PAIR_THIRDS);
			np++;
		}
	tables.ok = n == ANALYSIS_HANDS && np == PAIR_COUNT && tables.below_all[tables.nv] == ANALYSIS_HANDS;
}

/*
 * Number of the 50 hands holding both cards of pair p whose index is below
 * x: a branch-free binary search of the pair's sorted indices.
 */
static inline uint32_t
pair_below(int p, uint32_t x)
{
	const uint16_t *t = tables.pair_thirds[p];
	uint32_t lo = 0, len = PAIR_THIRDS;

	while (len > 1) {
		uint32_t half = len / 2;
		lo = t[lo + half - 1] < x ? lo + half : lo;
		len -= half;
	}
	return lo + (t[lo] < x);
}

/*
 * What the three pairs of cards in a player hand contribute to the
 * inclusion-exclusion: over the 3 x 50 hands holding two of its cards, how
 * many have an index below the qualifier's, below the player's, and below
 * or equal to it.
 */
struct pair_sums {
	uint32_t below_q, below_v, upto_v;
};

/*
 * Per-analysis cursors over each pair's sorted thirds.  Player hands are
 * visited in ascending value order, so each cursor only moves forward: all
 * pair counts of a whole analysis cost 1,326 x 50 steps in total.
 */
struct pair_cursors {
	uint8_t below_q[PAIR_COUNT];
	uint8_t pos[PAIR_COUNT];
};

static void
pair_cursors_init(struct pair_cursors *pc, uint32_t qidx)
{
	for (int p = 0; p < PAIR_COUNT; p++) {
		pc->below_q[p] = (uint8_t)pair_below(p, qidx);
		pc->pos[p] = 0;
	}
}

/* Pair sums for h; hands must come in non-decreasing value index. */
static void
pair_sums_next(struct pair_cursors *pc, const struct hand_entry *h, struct pair_sums *ps)
{
	int a = h->c[0], b = h->c[1], c = h->c[2];
	int pairs[3] = {tables.pair_id[a][b], tables.pair_id[a][c], tables.pair_id[b][c]};

	memset(ps, 0, sizeof(*ps));
	for (int k = 0; k < 3; k++) {
		int p = pairs[k];
		const uint16_t *t = tables.pair_thirds[p];
		unsigned i = pc->pos[p], j;

		while (i < PAIR_THIRDS && t[i] < h->vi)
			i++;
		pc->pos[p] = (uint8_t)i;
		for (j = i; j < PAIR_THIRDS && t[j] == h->vi; j++)
			;
		ps->below_q += pc->below_q[p];
		ps->below_v += i;
		ps->upto_v += j;
	}
}

/* Pair sums for one hand on its own (binary searches). */
static void
pair_sums_one(const struct hand_entry *h, uint32_t qidx, struct pair_sums *ps)
{
	int a = h->c[0], b = h->c[1], c = h->c[2];
	int pairs[3] = {tables.pair_id[a][b], tables.pair_id[a][c], tables.pair_id[b][c]};

	memset(ps, 0, sizeof(*ps));
	for (int k = 0; k < 3; k++) {
		ps->below_q += pair_below(pairs[k], qidx);
		ps->below_v += pair_below(pairs[k], h->vi);
		ps->upto_v += pair_below(pairs[k], (uint32_t)h->vi + 1);
	}
}

/*
 * The number of dealer hands disjoint from h whose value index is below x,
 * given the pair term of the inclusion-exclusion for that x.
 */
static inline uint32_t
dealer_below(const struct hand_entry *h, uint32_t x, uint32_t pair_term)
{
	int64_t v = (int64_t)tables.below_all[x]
	    - tables.below_card[h->c[0]][x] - tables.below_card[h->c[1]][x] - tables.below_card[h->c[2]][x]
	    + pair_term - (h->vi < x ? 1 : 0);

	return (uint32_t)v;
}

/* Dense index of the lowest hand value >= v (NV when none). */
static uint32_t
index_at_least(hand3_value_t v)
{
	int lo = 0, hi = tables.nv;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (tables.values[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

/* A pay as a net result in 1/ANALYSIS_NET_DEN units (pays have den | 10^4). */
int64_t
analysis_pay_units(struct pay p)
{
	return p.present ? p.num * (ANALYSIS_NET_DEN / p.den) : 0;
}

/* Adds count deals with the given net to a distribution, keeping it sorted by net. */
static int
dist_add(struct net_dist *d, int64_t net, uint64_t count)
{
	int i;

	if (count == 0)
		return 0;
	for (i = 0; i < d->n && d->v[i].net < net; i++)
		;
	if (i < d->n && d->v[i].net == net) {
		d->v[i].count += count;
		return 0;
	}
	if (d->n == ANALYSIS_NET_MAX)
		return -1;
	memmove(&d->v[i + 1], &d->v[i], (size_t)(d->n - i) * sizeof(d->v[0]));
	d->v[i].net = net;
	d->v[i].count = count;
	d->n++;
	return 0;
}

/* Fills the exact total and the per-unit moments of a distribution. */
static void
dist_finish(struct net_dist *d)
{
	__int128 sum = 0, sq = 0;
	uint64_t total = 0;
	double den = (double)ANALYSIS_NET_DEN, n;

	for (int i = 0; i < d->n; i++) {
		sum += (__int128)d->v[i].net * d->v[i].count;
		sq += (__int128)d->v[i].net * d->v[i].net * d->v[i].count;
		total += d->v[i].count;
	}
	d->combinations = total;
	d->total_net = sum;
	n = (double)total;
	d->mean = total ? (double)sum / den / n : 0.0;
	d->second_moment = total ? (double)sq / (den * den) / n : 0.0;
	d->variance = d->second_moment - d->mean * d->mean;
}

/* Pay-table row of a hand: its category, or the mini royal row when that has its own pay. */
static int
pay_row(const struct hand_paytable *t, const struct hand_entry *h)
{
	if (h->mini && t->mini_royal.present)
		return ANALYSIS_MINI_ROYAL;
	return (int)HAND3_CATEGORY(h->value);
}

/*
 * Counts six-card sets by category.  Non-flush sets depend only on their
 * rank multiset: each multiset (counts <= 4 summing to 6) stands for
 * prod C(4, count) suit assignments, evaluated once with suits spread so no
 * suit holds more than two cards.  Sets with five or six cards of one suit
 * (207,636 of them) are then moved from their rank category to their true
 * (flush) category, by symmetry from one suit times four.
 */
static void
count_rank_multisets(int rank, int left, int cnt[13], uint64_t ways, uint64_t *counts)
{
	static const uint64_t choose4[5] = {1, 4, 6, 4, 1};

	if (rank == 13) {
		card_t cards[6];
		int k = 0;

		if (left != 0)
			return;
		for (int r = 0; r < 13; r++)
			for (int j = 0; j < cnt[r]; j++, k++)
				cards[k] = CARD_MAKE(r, k % 4);
		counts[hand6_category(cards)] += ways;
		return;
	}
	for (int c = 0; c <= 4 && c <= left; c++) {
		cnt[rank] = c;
		count_rank_multisets(rank + 1, left - c, cnt, ways * choose4[c], counts);
	}
	cnt[rank] = 0;
}

/* The category six cards of these ranks would have without a flush. */
static enum six_category
rank_category(const int ranks[6])
{
	int sorted[6], cnt[13] = {0}, k = 0;
	card_t cards[6];

	for (int i = 0; i < 6; i++)
		cnt[ranks[i]]++;
	for (int r = 0; r < 13; r++)
		for (int j = 0; j < cnt[r]; j++)
			sorted[k++] = r;
	for (int i = 0; i < 6; i++)
		cards[i] = CARD_MAKE(sorted[i], i % 4);
	return hand6_category(cards);
}

static void
build_six_counts(void)
{
	int cnt[13] = {0};
	uint64_t counts[SIX_CATEGORY_COUNT] = {0};

	count_rank_multisets(0, 6, cnt, 1, counts);
	/* Flush sets of suit 0; the other three suits are the same by symmetry. */
	for (unsigned m = 0; m < (1u << 13); m++) {
		int bits = __builtin_popcount(m), ranks[6], k = 0;
		card_t cards[6];

		if (bits != 5 && bits != 6)
			continue;
		for (int r = 0; r < 13; r++)
			if (m & (1u << r)) {
				ranks[k] = r;
				cards[k++] = CARD_MAKE(r, 0);
			}
		if (bits == 6) {
			counts[rank_category(ranks)] -= 4;
			counts[hand6_category(cards)] += 4;
			continue;
		}
		/*
		 * The sixth card, of another suit, cannot lift five suited cards
		 * above their flush or straight flush: one true category for all
		 * 39 of them, and 13 rank categories (3 suits each) to undo.
		 */
		cards[5] = CARD_MAKE(ranks[0], 1);
		counts[hand6_category(cards)] += 4 * 39;
		for (int r = 0; r < 13; r++) {
			ranks[5] = r;
			counts[rank_category(ranks)] -= 4 * 3;
		}
	}
	memcpy(six_counts, counts, sizeof(six_counts));
}

const uint64_t *
analyze_six_card_counts(void)
{
	pthread_once(&six_once, build_six_counts);
	return six_counts;
}

/* The pay of one pay-table row (a category, or ANALYSIS_MINI_ROYAL). */
static struct pay
row_pay(const struct hand_paytable *t, int row)
{
	return row == ANALYSIS_MINI_ROYAL ? t->mini_royal : t->by_category[row];
}

/*
 * Counts for player hand h over the dealer hands left, and the strategy's
 * decision; qidx is the qualifier's index, ps the hand's pair sums.
 */
static void
hand_outcomes_of(const struct rules *r, const struct hand_entry *h, uint32_t qidx,
    const struct pair_sums *ps, struct hand_outcomes *o)
{
	const int64_t D = ANALYSIS_DEALER_HANDS, U = ANALYSIS_NET_DEN;
	uint32_t nq, less, tie, win, push;
	int64_t bonus = 0;

	nq = dealer_below(h, qidx, ps->below_q);
	less = dealer_below(h, h->vi, ps->below_v);
	tie = dealer_below(h, (uint32_t)h->vi + 1, ps->upto_v) - less;
	win = less > nq ? less - nq : 0;
	push = h->vi >= qidx ? tie : 0;
	o->dealer_not_qualify = nq;
	o->player_wins = win;
	o->push = push;
	o->dealer_wins = (uint32_t)D - nq - win - push;
	o->dealer_lower = less;
	o->dealer_equal = tie;
	o->dealer_higher = (uint32_t)D - less - tie;
	if (r->has_ante_bonus)
		bonus = analysis_pay_units(paytable_lookup_value(&r->ante_bonus, h->value, h->mini));
	o->ante_bonus = bonus;
	o->raise_net_total = U * (2 * (int64_t)win + nq - 2 * (int64_t)o->dealer_wins) + bonus * D;
	/* Raise iff EV(raise) > EV(fold) = -1, compared exactly over the D dealer hands. */
	if (r->raise_optimal)
		o->raise = o->raise_net_total + U * D > 0;
	else
		o->raise = h->value >= r->raise_min;
}

/* Deal counts gathered by pay-table row; the net distributions are built from them at the end. */
struct deal_counts {
	uint64_t ante[ANALYSIS_PAY_ROWS][4];    /* raised: not qualify, win, push, dealer wins; by ante bonus row */
	uint64_t fold;
};

/*
 * Ante/Play and, in must-beat-dealer mode, Pair Plus over all player/dealer
 * pairs; standard Pair Plus over the player's hands alone.
 */
static int
analyze_deals(const struct rules *r, struct analysis *a)
{
	struct ante_play_figures *ap = &a->ante_play;
	struct pair_plus_figures *pp = &a->pair_plus;
	const int64_t D = ANALYSIS_DEALER_HANDS, U = ANALYSIS_NET_DEN;
	uint32_t qidx = index_at_least(r->dealer_qualifier);
	bool mbd = r->has_pair_plus && r->pair_plus_mode == PAIR_PLUS_MUST_BEAT_DEALER;
	struct pair_cursors pc;
	struct deal_counts dc;

	memset(&dc, 0, sizeof(dc));
	pair_cursors_init(&pc, qidx);
	for (unsigned i = 0; i < ANALYSIS_HANDS; i++) {
		const struct hand_entry *h = &tables.hands[tables.by_value[i]];
		struct hand_outcomes o;
		struct pair_sums ps;

		pair_sums_next(&pc, h, &ps);
		hand_outcomes_of(r, h, qidx, &ps, &o);
		if (o.raise) {
			uint64_t *n = dc.ante[pay_row(&r->ante_bonus, h)];

			ap->raised_hands++;
			if (!ap->any_raised || h->value < ap->lowest_raised)
				ap->lowest_raised = h->value;
			ap->any_raised = true;
			n[0] += o.dealer_not_qualify;
			n[1] += o.player_wins;
			n[2] += o.push;
			n[3] += o.dealer_wins;
		} else {
			if (!ap->any_folded || h->value > ap->highest_folded)
				ap->highest_folded = h->value;
			ap->any_folded = true;
			dc.fold += (uint64_t)D;
		}
		if (!r->has_pair_plus)
			continue;
		{
			int row = pay_row(&r->pair_plus, h);
			bool pays = row_pay(&r->pair_plus, row).present;
			uint64_t n_win, n_push;

			if (!mbd) {
				n_win = pays ? 1 : 0;
				n_push = 0;
				pp->lose += 1 - n_win;
			} else {
				/* Paid only above the dealer; a tie pushes, or under
				 * push_pair_or_better only when both hold a pair or better. */
				bool tie_push = r->pair_plus_tie == PAIR_PLUS_TIE_PUSH ||
				    HAND3_CATEGORY(h->value) >= H3_PAIR;

				n_win = pays ? o.dealer_lower : 0;
				n_push = tie_push ? o.dealer_equal : 0;
				pp->lose += (uint64_t)D - n_win - n_push;
			}
			pp->wins[row] += n_win;
			pp->push += n_push;
		}
	}

	ap->fold = dc.fold;
	if (dist_add(&ap->net, -U, dc.fold) < 0)
		return -1;
	for (int row = 0; row < ANALYSIS_PAY_ROWS; row++) {
		const uint64_t *n = dc.ante[row];
		int64_t bonus = r->has_ante_bonus ? analysis_pay_units(row_pay(&r->ante_bonus, row)) : 0;

		ap->dealer_not_qualify += n[0];
		ap->player_wins += n[1];
		ap->push += n[2];
		ap->dealer_wins += n[3];
		if (bonus > 0)
			ap->bonus_paid[row] = n[0] + n[1] + n[2] + n[3];
		if (dist_add(&ap->net, U + bonus, n[0]) < 0 ||
		    dist_add(&ap->net, 2 * U + bonus, n[1]) < 0 ||
		    dist_add(&ap->net, bonus, n[2]) < 0 ||
		    dist_add(&ap->net, -2 * U + bonus, n[3]) < 0)
			return -1;
	}
	if (r->has_pair_plus) {
		for (int row = 0; row < ANALYSIS_PAY_ROWS; row++)
			if (pp->wins[row] > 0 && dist_add(&pp->net, analysis_pay_units(row_pay(&r->pair_plus, row)), pp->wins[row]) < 0)
				return -1;
		if (dist_add(&pp->net, 0, pp->push) < 0 || dist_add(&pp->net, -U, pp->lose) < 0)
			return -1;
	}
	return 0;
}

int
analyze_player_hand(const struct rules *r, const card_t cards[3], struct hand_outcomes *out,
    struct pb_error *err)
{
	struct hand_entry h;
	struct pair_sums ps;
	uint32_t qidx;

	pthread_once(&tables_once, build_tables);
	if (!tables.ok)
		return pb_fail(err, 500, "analysis_failed", "the hand tables could not be built");
	for (int i = 0; i < 3; i++) {
		if (cards[i] >= CARD_COUNT)
			return pb_fail(err, 400, "invalid_card", "a card is out of range");
		for (int j = 0; j < i; j++)
			if (cards[i] == cards[j])
				return pb_fail(err, 400, "duplicate_card", "a hand holds three different cards");
	}
	memset(&h, 0, sizeof(h));
	memcpy(h.c, cards, 3);
	h.value = hand3_value(h.c);
	h.mini = hand3_is_mini_royal(h.c);
	h.vi = tables.vi_of_value[h.value];
	qidx = index_at_least(r->dealer_qualifier);
	pair_sums_one(&h, qidx, &ps);
	hand_outcomes_of(r, &h, qidx, &ps, out);
	return 0;
}

/* True when every pay is a whole number of 1/ANALYSIS_NET_DEN (as pay_parse makes them). */
static bool
pays_exact(const struct rules *r)
{
	const struct pay *all[2 * ANALYSIS_PAY_ROWS + SIX_CATEGORY_COUNT];
	int n = 0;

	for (int row = 0; row < ANALYSIS_PAY_ROWS; row++) {
		all[n++] = row == ANALYSIS_MINI_ROYAL ? &r->ante_bonus.mini_royal : &r->ante_bonus.by_category[row];
		all[n++] = row == ANALYSIS_MINI_ROYAL ? &r->pair_plus.mini_royal : &r->pair_plus.by_category[row];
	}
	for (int c = 0; c < SIX_CATEGORY_COUNT; c++)
		all[n++] = &r->six_card[c];
	for (int i = 0; i < n; i++)
		if (all[i]->present && (all[i]->den <= 0 || ANALYSIS_NET_DEN % all[i]->den != 0 ||
		    all[i]->num <= 0 || all[i]->num > INT64_MAX / ANALYSIS_NET_DEN))
			return false;
	return true;
}

int
analyze_rules(const struct rules *r, struct analysis *out, struct pb_error *err)
{
	struct analysis *a = out;

	pthread_once(&tables_once, build_tables);
	if (!tables.ok)
		return pb_fail(err, 500, "analysis_failed", "the hand tables could not be built");
	if (r == NULL)
		return pb_fail(err, 400, "invalid_rules", "no rules to analyse");
	if (!pays_exact(r))
		return pb_fail(err, 400, "invalid_rules", "a pay has more than four decimals");
	memset(a, 0, sizeof(*a));
	a->rules = *r;
	snprintf(a->rules_name, sizeof(a->rules_name), "%s", r->name);

	for (unsigned i = 0; i < ANALYSIS_HANDS; i++) {
		a->hands[HAND3_CATEGORY(tables.hands[i].value)]++;
		a->mini_royal += tables.hands[i].mini;
	}
	a->hands_total = ANALYSIS_HANDS;

	a->has_pair_plus = r->has_pair_plus;
	a->pair_plus.mode = r->pair_plus_mode;
	a->pair_plus.tie = r->pair_plus_tie;
	if (analyze_deals(r, a) < 0)
		return pb_fail(err, 500, "analysis_failed", "too many distinct net results");

	a->ante_play.combinations = ANALYSIS_PAIRS;
	dist_finish(&a->ante_play.net);
	a->ante_play.house_edge = -a->ante_play.net.mean;
	a->ante_play.raise_rate = (double)a->ante_play.raised_hands / ANALYSIS_HANDS;
	a->ante_play.element_of_risk = a->ante_play.house_edge / (1.0 + a->ante_play.raise_rate);
	if (a->ante_play.any_raised)
		hand3_format_value(a->ante_play.lowest_raised, a->ante_play.strategy, sizeof(a->ante_play.strategy));
	else
		snprintf(a->ante_play.strategy, sizeof(a->ante_play.strategy), "none");

	if (r->has_pair_plus) {
		dist_finish(&a->pair_plus.net);
		a->pair_plus.combinations = a->pair_plus.net.combinations;
		a->pair_plus.house_edge = -a->pair_plus.net.mean;
	}

	if (r->has_six_card) {
		const uint64_t *six = analyze_six_card_counts();
		struct six_card_figures *s = &a->six_card;

		a->has_six_card = true;
		for (int c = 0; c < SIX_CATEGORY_COUNT; c++) {
			struct pay p = r->six_card[c];

			s->hands[c] = six[c];
			if (dist_add(&s->net, p.present ? analysis_pay_units(p) : -ANALYSIS_NET_DEN, six[c]) < 0)
				return pb_fail(err, 500, "analysis_failed", "too many distinct net results");
		}
		dist_finish(&s->net);
		s->combinations = s->net.combinations;
		s->house_edge = -s->net.mean;
	}
	return 0;
}

void
analysis_format_net(int64_t net, char *out, size_t outsz)
{
	struct pay p;
	char buf[32];
	uint64_t mag = net < 0 ? (uint64_t)(-(net + 1)) + 1 : (uint64_t)net;

	if (net == 0) {
		snprintf(out, outsz, "0");
		return;
	}
	p.present = true;
	p.num = (int64_t)mag;
	p.den = ANALYSIS_NET_DEN;
	pay_format(p, buf, sizeof(buf));
	snprintf(out, outsz, "%s%s", net < 0 ? "-" : "", buf);
}
