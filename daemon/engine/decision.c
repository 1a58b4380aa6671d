/*
 * decision.c - the exact value of a play/fold decision (decision.h).
 *
 * A seat's settlement, six card bonus left out, depends on the dealer's hand
 * D only through two facts: whether D qualifies (its value against the
 * rules' dealer_qualifier) and how the seat's hand X compares with D (lower,
 * equal, higher: Ante and Play, and Pair Plus where it must beat the
 * dealer).  Everything else (the pay tables, the Pair Plus tie rule, the
 * Ante Bonus) is a function of X alone.  So the 18,424 dealer hands fall
 * into at most six cells, and every hand of a cell settles to the same net
 * for given stakes.  For X and a qualifier the cells' counts and one dealer
 * hand of each (its representative) are found by enumerating the 22,100
 * hands once; a decision's sums are then, per non-empty cell, one
 * settle_round of a one-seat house-banked round for play and one for fold,
 * times the cell's count: the engine's own settlement, exact in cents.
 *
 * The counts are the same for every X of a class under suit symmetry (the
 * 24 permutations of the suits change neither hand values nor pays: a mini
 * royal stays a suited A-K-Q), so they are kept per class: 1,755 classes of
 * the 22,100 hands, each filled the first time a decision of that class is
 * valued under that qualifier and kept for the process.  The cache is keyed
 * by the qualifier, the only rule the counts depend on; the stakes and every
 * other rule enter through settle_round on each call.  Thread-safe: the hand
 * tables are built under pthread_once, a qualifier's cache is added under a
 * mutex and never freed, and a class is filled under its cache's mutex and
 * published with a release store that readers acquire.
 */
#include "engine/decision.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hand3.h"
#include "engine/limits.h"
#include "engine/settle.h"

#define HAND_COUNT 22100            /* C(52,3) */
#define DEALER_HANDS 18424          /* C(49,3) */
#define CLASS_MAX 2048              /* classes under suit symmetry: 1,755 */

/* The six cells: qualifies (0/1) x the seat's hand against the dealer's (lower, equal, higher). */
enum { CMP_SEAT_LOWER = 0, CMP_EQUAL, CMP_SEAT_HIGHER };
#define CELL_COUNT 6
#define CELL_OF(qualifies, cmp) (((qualifies) ? 3 : 0) + (cmp))

/* The rules-independent tables: every hand, its value, and its class. */
static struct {
	card_t cards[HAND_COUNT][3];        /* ascending, colex order of (c0 < c1 < c2) */
	card_set_t mask[HAND_COUNT];
	hand3_value_t value[HAND_COUNT];
	uint16_t class_of[HAND_COUNT];
	uint16_t class_rep[CLASS_MAX];      /* the class's canonical hand (lowest index of its orbit) */
	int classes;
	bool ok;
} hands;

static pthread_once_t hands_once = PTHREAD_ONCE_INIT;

/* One class's cells under one qualifier. */
struct class_cells {
	atomic_int ready;
	uint32_t count[CELL_COUNT];
	card_t dealer[CELL_COUNT][3];       /* a representative dealer hand of each non-empty cell */
};

/* All classes' cells under one dealer qualifier; added once, never freed. */
struct qualifier_cache {
	hand3_value_t qualifier;
	pthread_mutex_t fill;
	struct qualifier_cache *next;
	struct class_cells cells[CLASS_MAX];
};

static _Atomic(struct qualifier_cache *) caches;
static pthread_mutex_t caches_lock = PTHREAD_MUTEX_INITIALIZER;

/* The colex index of three ascending cards a < b < c among the C(52,3) hands. */
static int
hand_index(int a, int b, int c)
{
	return c * (c - 1) * (c - 2) / 6 + b * (b - 1) / 2 + a;
}

/* Sorts three cards ascending in place. */
static void
sort3(card_t c[3])
{
	card_t t;

	if (c[0] > c[1]) { t = c[0]; c[0] = c[1]; c[1] = t; }
	if (c[1] > c[2]) { t = c[1]; c[1] = c[2]; c[2] = t; }
	if (c[0] > c[1]) { t = c[0]; c[0] = c[1]; c[1] = t; }
}

/* The index of the lowest hand of h's orbit under the 24 permutations of the suits. */
static int
canonical_index(const card_t h[3])
{
	static const uint8_t perms[24][4] = {
		{0,1,2,3},{0,1,3,2},{0,2,1,3},{0,2,3,1},{0,3,1,2},{0,3,2,1},
		{1,0,2,3},{1,0,3,2},{1,2,0,3},{1,2,3,0},{1,3,0,2},{1,3,2,0},
		{2,0,1,3},{2,0,3,1},{2,1,0,3},{2,1,3,0},{2,3,0,1},{2,3,1,0},
		{3,0,1,2},{3,0,2,1},{3,1,0,2},{3,1,2,0},{3,2,0,1},{3,2,1,0}};
	int best = HAND_COUNT;

	for (int p = 0; p < 24; p++) {
		card_t m[3];
		int idx;

		for (int k = 0; k < 3; k++)
			m[k] = CARD_MAKE(CARD_RANK(h[k]), perms[p][CARD_SUIT(h[k])]);
		sort3(m);
		idx = hand_index(m[0], m[1], m[2]);
		if (idx < best)
			best = idx;
	}
	return best;
}

/* Builds every hand's cards, mask, value and class.  Once per process; sets hands.ok when consistent. */
static void
build_hands(void)
{
	static int16_t class_of_canonical[HAND_COUNT];
	int n = 0;

	for (int c = 0; c < CARD_COUNT; c++)
		for (int b = 0; b < c; b++)
			for (int a = 0; a < b; a++, n++) {
				hands.cards[n][0] = (card_t)a;
				hands.cards[n][1] = (card_t)b;
				hands.cards[n][2] = (card_t)c;
				hands.mask[n] = ((card_set_t)1 << a) | ((card_set_t)1 << b) | ((card_set_t)1 << c);
				hands.value[n] = hand3_value(hands.cards[n]);
			}
	memset(class_of_canonical, -1, sizeof(class_of_canonical));
	hands.classes = 0;
	for (int i = 0; i < n; i++) {
		int canon = canonical_index(hands.cards[i]);

		if (class_of_canonical[canon] < 0) {
			if (hands.classes == CLASS_MAX)
				return;
			hands.class_rep[hands.classes] = (uint16_t)canon;
			class_of_canonical[canon] = (int16_t)hands.classes++;
		}
		hands.class_of[i] = (uint16_t)class_of_canonical[canon];
	}
	hands.ok = n == HAND_COUNT;
}

/* The cache of qualifier q, added on first use; NULL when out of memory. */
static struct qualifier_cache *
cache_for(hand3_value_t q)
{
	struct qualifier_cache *c;

	for (c = atomic_load_explicit(&caches, memory_order_acquire); c != NULL; c = c->next)
		if (c->qualifier == q)
			return c;
	pthread_mutex_lock(&caches_lock);
	for (c = atomic_load_explicit(&caches, memory_order_acquire); c != NULL; c = c->next)
		if (c->qualifier == q)
			break;
	if (c == NULL && (c = calloc(1, sizeof(*c))) != NULL) {
		c->qualifier = q;
		pthread_mutex_init(&c->fill, NULL);
		c->next = atomic_load_explicit(&caches, memory_order_relaxed);
		atomic_store_explicit(&caches, c, memory_order_release);
	}
	pthread_mutex_unlock(&caches_lock);
	return c;
}

/*
 * Counts the dealer hands disjoint from the class's canonical hand by cell
 * under the cache's qualifier and keeps the first of each cell.
 */
static void
fill_class(const struct qualifier_cache *c, int cls, struct class_cells *out)
{
	int x = hands.class_rep[cls];
	card_set_t xm = hands.mask[x];
	hand3_value_t pv = hands.value[x];

	memset(out->count, 0, sizeof(out->count));
	for (int d = 0; d < HAND_COUNT; d++) {
		hand3_value_t dv = hands.value[d];
		int cmp, cell;

		if (hands.mask[d] & xm)
			continue;
		cmp = pv < dv ? CMP_SEAT_LOWER : pv == dv ? CMP_EQUAL : CMP_SEAT_HIGHER;
		cell = CELL_OF(dv >= c->qualifier, cmp);
		if (out->count[cell]++ == 0)
			memcpy(out->dealer[cell], hands.cards[d], 3);
	}
}

/* The cells of class cls under qualifier q, filled on first use; NULL when out of memory. */
static const struct class_cells *
class_cells_for(hand3_value_t q, int cls)
{
	struct qualifier_cache *c = cache_for(q);
	struct class_cells *cc;

	if (c == NULL)
		return NULL;
	cc = &c->cells[cls];
	if (atomic_load_explicit(&cc->ready, memory_order_acquire))
		return cc;
	pthread_mutex_lock(&c->fill);
	if (!atomic_load_explicit(&cc->ready, memory_order_relaxed)) {
		fill_class(c, cls, cc);
		atomic_store_explicit(&cc->ready, 1, memory_order_release);
	}
	pthread_mutex_unlock(&c->fill);
	return cc;
}

/* Checks three cards: each a card, all distinct; 400 invalid_cards otherwise. */
static int
check_cards(const card_t *cards, int n, const char *what, struct pb_error *err)
{
	card_set_t seen = 0;

	for (int i = 0; i < n; i++) {
		if (cards[i] >= CARD_COUNT)
			return pb_fail(err, 400, "invalid_cards", "%s: a card is missing or out of range", what);
		if (card_set_has(seen, cards[i]))
			return pb_fail(err, 400, "invalid_cards", "%s: a card appears twice", what);
		seen = card_set_add(seen, cards[i]);
	}
	return 0;
}

/* Checks the rules and the stakes a decision is valued for. */
static int
check_stakes(const struct rules *r, int64_t ante, int64_t pair_plus, struct pb_error *err)
{
	if (r == NULL)
		return pb_fail(err, 400, "invalid_rules", "no rules to value the decision under");
	if (ante <= 0 || ante > PB_MONEY_MAX)
		return pb_fail(err, 400, "invalid_amount", "the Ante must be 1 to %lld cents", (long long)PB_MONEY_MAX);
	if (pair_plus < 0 || pair_plus > PB_MONEY_MAX)
		return pb_fail(err, 400, "invalid_amount", "the Pair Plus must be 0 to %lld cents",
		    (long long)PB_MONEY_MAX);
	if (pair_plus > 0 && !r->has_pair_plus)
		return pb_fail(err, 400, "invalid_amount", "this game offers no Pair Plus: value the decision with 0");
	return 0;
}

/*
 * The seat's net in cents when it plays and when it folds against dealer,
 * from settle_round on a one-seat house-banked round (no six card bonus).
 */
static int
settle_both(const struct rules *r, int64_t ante, int64_t pair_plus, const card_t hand[3], const card_t dealer[3],
    int64_t *net_play, int64_t *net_fold, struct pb_error *err)
{
	struct round_input in;
	struct settlement s;
	struct pb_error why;

	memset(&in, 0, sizeof(in));
	memset(in.hands, CARD_NONE, sizeof(in.hands));
	in.rules = r;
	in.seats = 1;
	in.bets[1].ante = ante;
	in.bets[1].pair_plus = pair_plus;
	memcpy(in.hands[1], hand, 3);
	memcpy(in.dealer, dealer, 3);
	in.decisions[1] = DECISION_PLAY;
	if (settle_round(&in, &s, &why) < 0)
		goto refused;
	*net_play = s.players_net;
	in.decisions[1] = DECISION_FOLD;
	if (settle_round(&in, &s, &why) < 0)
		goto refused;
	*net_fold = s.players_net;
	return 0;
refused:
	return pb_fail(err, 400, "invalid_amount", "the stakes cannot be settled: %s", why.message);
}

/* |G| above this could overflow sum_g2 over 18,424 hands; no table's limits come near it. */
#define GAIN_MAX 1000000000000000LL     /* 10^15 cents */

int
decision_value(const struct rules *r, int64_t ante, int64_t pair_plus, const card_t hand[3],
    struct decision_value *out, struct pb_error *err)
{
	const struct class_cells *cells;
	__int128 sum_play = 0, sum_fold = 0, sum_g2 = 0;
	int cls, x;

	if (check_cards(hand, 3, "the seat's hand", err) < 0 || check_stakes(r, ante, pair_plus, err) < 0)
		return -1;
	pthread_once(&hands_once, build_hands);
	if (!hands.ok)
		return pb_fail(err, 500, "decision_failed", "the hand tables could not be built");
	{
		card_t s[3] = {hand[0], hand[1], hand[2]};

		sort3(s);
		cls = hands.class_of[hand_index(s[0], s[1], s[2])];
	}
	cells = class_cells_for(r->dealer_qualifier, cls);
	if (cells == NULL)
		return pb_oom(err);
	x = hands.class_rep[cls];
	for (int cell = 0; cell < CELL_COUNT; cell++) {
		int64_t play, fold, g;

		if (cells->count[cell] == 0)
			continue;
		if (settle_both(r, ante, pair_plus, hands.cards[x], cells->dealer[cell], &play, &fold, err) < 0)
			return -1;
		g = play - fold;
		if (g > GAIN_MAX || g < -GAIN_MAX)
			return pb_fail(err, 400, "invalid_amount", "the stakes are too large to value");
		sum_play += (__int128)play * cells->count[cell];
		sum_fold += (__int128)fold * cells->count[cell];
		sum_g2 += (__int128)g * g * cells->count[cell];
	}
	if (sum_play > INT64_MAX || sum_play < INT64_MIN || sum_fold > INT64_MAX || sum_fold < INT64_MIN)
		return pb_fail(err, 400, "invalid_amount", "the stakes are too large to value");
	out->n = DEALER_HANDS;
	out->sum_play = (int64_t)sum_play;
	out->sum_fold = (int64_t)sum_fold;
	out->sum_g2 = sum_g2;
	return 0;
}

int
decision_gain(const struct rules *r, int64_t ante, int64_t pair_plus, const card_t hand[3],
    const card_t dealer[3], int64_t *gain, struct pb_error *err)
{
	card_t six[6] = {hand[0], hand[1], hand[2], dealer[0], dealer[1], dealer[2]};
	int64_t play, fold;

	if (check_cards(hand, 3, "the seat's hand", err) < 0 || check_cards(dealer, 3, "the dealer's hand", err) < 0 ||
	    check_cards(six, 6, "the seat's and the dealer's hands", err) < 0 || check_stakes(r, ante, pair_plus, err) < 0)
		return -1;
	if (settle_both(r, ante, pair_plus, hand, dealer, &play, &fold, err) < 0)
		return -1;
	*gain = play - fold;
	return 0;
}
