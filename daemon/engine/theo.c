/*
 * theo.c - a rating's money as exact rationals, rounded once (theo.h).
 *
 * Every figure is value = (whole + part / parts) / den with 0 <= part <
 * parts: a whole numerator, an exact fraction of one more, over a positive
 * denominator.  round_mixed rounds that once; each figure only finds its
 * whole, part and parts with floor divisions that lose nothing, chosen so
 * that no product passes 2^127 (the bounds are in theo.h).
 */
#include "engine/theo.h"

#define OVERFLOW_MSG "a rating's sum exceeds 64 bits; ask for a shorter period"

static int
overflow(struct pb_error *err)
{
	return pb_fail(err, 500, "report_overflow", OVERFLOW_MSG);
}

/* a = q x b + r with 0 <= r < b (b > 0): the floor division C's / is not for a negative a. */
static void
floor_divmod(__int128 a, __int128 b, __int128 *q, __int128 *r)
{
	*q = a / b;
	*r = a % b;
	if (*r < 0) {
		*r += b;
		*q -= 1;
	}
}

/*
 * (whole + part / parts) / den to the nearest integer, a half away from
 * zero, into *out.  Needs 0 <= part < parts < 2^63 and 0 < den < 2^63:
 * with whole = k x den + m (0 <= m < den) the value is k + f / g, f = m x
 * parts + part and g = den x parts < 2^126, 0 <= f < g.  A value k + f/g
 * with k >= 0 is not negative and goes up from a half; with k < 0 it is
 * negative, and a half stays at k (away from zero).  -1 beyond an int64.
 */
static int
round_mixed(__int128 whole, __int128 part, __int128 parts, __int128 den, int64_t *out, struct pb_error *err)
{
	__int128 k, m, f, g;

	floor_divmod(whole, den, &k, &m);
	f = m * parts + part;
	g = den * parts;
	if (k >= 0 ? 2 * f >= g : 2 * f > g)
		k += 1;
	if (k > INT64_MAX || k < INT64_MIN)
		return overflow(err);
	*out = (int64_t)k;
	return 0;
}

/*
 * The edge is -total_net / (combinations x ANALYSIS_NET_DEN); scaled to
 * THEO_DEN its numerator is -total_net x (ANALYSIS_PAIRS / combinations).
 * total_net is at most combinations x the largest net, so the product is
 * checked against the bound before it is kept.
 */
int
theo_edge_of(const struct net_dist *d, int64_t *edge, struct pb_error *err)
{
	__int128 num, max = (__int128)THEO_EDGE_MAX;

	if (d->combinations == 0 || ANALYSIS_PAIRS % d->combinations != 0)
		return pb_fail(err, 500, "internal_error", "an edge over %llu deals is not a count over %llu",
		    (unsigned long long)d->combinations, (unsigned long long)ANALYSIS_PAIRS);
	/* beyond the bound before the product means beyond it after (the scale is at least 1) */
	num = d->total_net > max || d->total_net < -max ? max + 1 :
	    -d->total_net * (__int128)(ANALYSIS_PAIRS / d->combinations);
	if (num > max || num < -max)
		return pb_fail(err, 500, "report_overflow", "an edge beyond %d units per unit staked", THEO_EDGE_UNITS_MAX);
	*edge = (int64_t)num;
	return 0;
}

int
theo_add(struct theo_sum *s, int64_t weight, int64_t edge, struct pb_error *err)
{
	int64_t w;

	if (weight < 0 || edge > THEO_EDGE_MAX || edge < -THEO_EDGE_MAX)
		return pb_fail(err, 500, "internal_error", "a weight below zero or an edge beyond the bound");
	if (__builtin_add_overflow(s->weight, weight, &w))
		return overflow(err);
	/* |num| <= w x THEO_EDGE_MAX < 2^63 x 2^63: no step can overflow */
	s->num += (__int128)weight * edge;
	s->weight = w;
	return 0;
}

int
theo_cents(const struct theo_sum *s, int64_t *cents, struct pb_error *err)
{
	return round_mixed(s->num, 0, 1, THEO_DEN, cents, err);
}

/*
 * initial x A / (hands x THEO_DEN), A = per_hand->num.  With A = q x hands
 * + r (0 <= r < hands; |q| <= THEO_EDGE_MAX, an average of edges) and
 * initial x r = q2 x hands + r2, it is (initial x q + q2 + r2 / hands) /
 * THEO_DEN: initial x q and initial x r are below 2^126.
 */
int
theo_estimate(const struct theo_sum *per_hand, int64_t initial, int64_t *cents, struct pb_error *err)
{
	__int128 hands = per_hand->weight, q, r, q2, r2;

	if (initial < 0)
		return pb_fail(err, 500, "internal_error", "an initial wager below zero");
	if (hands == 0) {
		*cents = 0;
		return 0;
	}
	floor_divmod(per_hand->num, hands, &q, &r);
	if (q > THEO_EDGE_MAX || q < -THEO_EDGE_MAX)
		return pb_fail(err, 500, "internal_error", "per_hand is not a sum of hands' edges");
	floor_divmod((__int128)initial * r, hands, &q2, &r2);
	return round_mixed((__int128)initial * q + q2, r2, hands, THEO_DEN, cents, err);
}

/*
 * theo->num x share / (THEO_DEN x THEO_SHARE_DEN).  With num = k x THEO_DEN
 * + m (0 <= m < THEO_DEN) and m x share = q x THEO_DEN + r, it is (k x share
 * + q + r / THEO_DEN) / THEO_SHARE_DEN: m x share < 2^42 x 2^20, and k x
 * share < 2^85 x 2^20.
 */
int
theo_comps(const struct theo_sum *theo, int64_t share_ppm, int64_t *cents, struct pb_error *err)
{
	__int128 k, m, q, r;

	if (share_ppm < 0 || share_ppm > THEO_SHARE_DEN)
		return pb_fail(err, 500, "internal_error", "a share outside 0 to 1");
	floor_divmod(theo->num, THEO_DEN, &k, &m);
	floor_divmod(m * share_ppm, THEO_DEN, &q, &r);
	return round_mixed(k * share_ppm + q, r, THEO_DEN, THEO_SHARE_DEN, cents, err);
}

int
theo_manual_add(struct theo_sum *s, int64_t average_bet, int64_t minutes, int64_t decisions_per_hour, int64_t edge,
    struct pb_error *err)
{
	int64_t weight;

	if (average_bet < 0 || minutes < 0 || decisions_per_hour < 0)
		return pb_fail(err, 500, "internal_error", "a manual rating's bet, minutes or decisions below zero");
	if (__builtin_mul_overflow(average_bet, minutes, &weight) ||
	    __builtin_mul_overflow(weight, decisions_per_hour, &weight))
		return overflow(err);
	return theo_add(s, weight, edge, err);
}

/* The sum is in 1/THEO_DEN of a cent-decision-minute an hour: over THEO_MINUTES x THEO_DEN (< 2^48) it is cents. */
int
theo_manual_cents(const struct theo_sum *s, int64_t *cents, struct pb_error *err)
{
	return round_mixed(s->num, 0, 1, (__int128)THEO_MINUTES * THEO_DEN, cents, err);
}

int
theo_average(int64_t total, int64_t count, int64_t *out, struct pb_error *err)
{
	if (count < 0)
		return pb_fail(err, 500, "internal_error", "a count below zero");
	if (count == 0) {
		*out = 0;
		return 0;
	}
	return round_mixed(total, 0, 1, count, out, err);
}

int
theo_share_ppm(double x, int64_t *ppm)
{
	int64_t n;

	if (!(x >= 0 && x <= 1))
		return -1;
	n = (int64_t)(x * THEO_SHARE_DEN + 0.5);   /* x x 10^6 is within 10^-9 of a six-decimal share's n */
	if ((double)n / THEO_SHARE_DEN != x)
		return -1;
	*ppm = n;
	return 0;
}
