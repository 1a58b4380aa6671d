/*
 * reports_figures.c - the figures of a group of the summary: the house's
 * win, the banker's result and collections, win per handle, theoretical
 * win and win per handle from the exact analysis of each game (cached per
 * process), the 95% interval of the house's win and its flag, hands per hour.
 *
 * Money is summed in int64 cents and never passes through a double; only
 * ratios (hold, hands per hour) and the statistical figures (theoretical
 * win before rounding to the cent, its standard deviation) are doubles.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/analyze.h"
#include "engine/theo.h"
#include "store/store.h"
#include "table/reports/reports_private.h"

#define HOLD_Z 1.96                     /* two-sided 95% */

#define FIGURES_CACHE_MAX 64

static pthread_mutex_t figures_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char sha256[PB_SHA256_HEX_LEN];
	struct game_figures f;
} figures_cache[FIGURES_CACHE_MAX];
static int figures_count, figures_next;

static bool
figures_cached(const char *sha256, struct game_figures *out)
{
	bool found = false;

	pthread_mutex_lock(&figures_lock);
	for (int i = 0; i < figures_count && !found; i++)
		if (strcmp(figures_cache[i].sha256, sha256) == 0) {
			*out = figures_cache[i].f;
			found = true;
		}
	pthread_mutex_unlock(&figures_lock);
	return found;
}

/*
 * Analyses the rules (outside the lock: two threads may both compute a new
 * game once, which is harmless) and keeps the per-unit edges (as doubles for
 * the summary's statistics, exactly for the ratings) and variances.
 */
int
report_game_figures(const struct rules *r, const char *sha256, struct game_figures *out, struct pb_error *err)
{
	struct analysis *an;
	int slot, rc;

	if (figures_cached(sha256, out))
		return 0;
	an = malloc(sizeof(*an));
	if (an == NULL)
		return pb_oom(err);
	if (analyze_rules(r, an, err) < 0) {
		free(an);
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->edge[WAGER_ANTE] = an->ante_play.house_edge;
	out->variance[WAGER_ANTE] = an->ante_play.net.variance;
	rc = theo_edge_of(&an->ante_play.net, &out->edge_exact[WAGER_ANTE], err);
	if (rc == 0 && an->has_pair_plus) {
		out->edge[WAGER_PAIR_PLUS] = an->pair_plus.house_edge;
		out->variance[WAGER_PAIR_PLUS] = an->pair_plus.net.variance;
		rc = theo_edge_of(&an->pair_plus.net, &out->edge_exact[WAGER_PAIR_PLUS], err);
	}
	if (rc == 0 && an->has_six_card) {
		out->edge[WAGER_SIX_CARD] = an->six_card.house_edge;
		out->variance[WAGER_SIX_CARD] = an->six_card.net.variance;
		rc = theo_edge_of(&an->six_card.net, &out->edge_exact[WAGER_SIX_CARD], err);
	}
	free(an);
	if (rc < 0)
		return -1;

	pthread_mutex_lock(&figures_lock);
	slot = -1;
	for (int i = 0; i < figures_count; i++)
		if (strcmp(figures_cache[i].sha256, sha256) == 0)
			slot = i;
	if (slot < 0) {
		if (figures_count < FIGURES_CACHE_MAX) {
			slot = figures_count++;
		} else {
			slot = figures_next;
			figures_next = (figures_next + 1) % FIGURES_CACHE_MAX;
		}
		snprintf(figures_cache[slot].sha256, sizeof(figures_cache[slot].sha256), "%s", sha256);
		figures_cache[slot].f = *out;
	}
	pthread_mutex_unlock(&figures_lock);
	return 0;
}

/*
 * The figures of the game dealt under rules_id, kept in gl for the rest of
 * the request: from the process cache by the rules' hash, else analysed
 * once.  *out points into gl (valid until gl grows).
 */
static int
game_figures_by_id(struct pit *p, struct game_list *gl, int64_t rules_id, const struct game_figures **out,
    struct pb_error *err)
{
	struct rules r;
	char sha[PB_SHA256_HEX_LEN];

	for (int i = 0; i < gl->count; i++)
		if (gl->items[i].rules_id == rules_id) {
			*out = &gl->items[i].f;
			return 0;
		}
	if (report_game_list_reserve(gl, err) < 0)
		return -1;
	if (p == NULL)       /* a summary fed from elsewhere (report_feed) names its games beforehand */
		return pb_fail(err, 500, "internal_error", "the report's rows name a game (rules %lld) it was not given",
		    (long long)rules_id);
	/* The hash first: a game analysed before needs no parsing. */
	if (store_rules_sha256(p->store, rules_id, sha, err) < 0)
		return -1;
	if (!figures_cached(sha, &gl->items[gl->count].f) && (store_rules_get(p->store, rules_id, &r, sha, err) < 0 ||
	    report_game_figures(&r, sha, &gl->items[gl->count].f, err) < 0))
		return -1;
	gl->items[gl->count].rules_id = rules_id;
	*out = &gl->items[gl->count++].f;
	return 0;
}

int
report_game_list_reserve(struct game_list *gl, struct pb_error *err)
{
	int cap;
	void *n;

	if (gl->count < gl->cap)
		return 0;
	cap = gl->cap ? gl->cap * 2 : 8;
	if ((n = realloc(gl->items, (size_t)cap * sizeof(gl->items[0]))) == NULL)
		return pb_oom(err);
	gl->items = n;
	gl->cap = cap;
	return 0;
}

void
report_game_list_free(struct game_list *gl)
{
	free(gl->items);
	gl->items = NULL;
	gl->count = gl->cap = 0;
}

/*
 * An integral double (from floor, ceil or round) as int64, saturating
 * outside its range (and NaN to INT64_MIN) where a cast would be undefined.
 * The values are far inside that range: theoretical wins and their
 * deviations in cents.
 */
static int64_t
int64_of(double v)
{
	if (!(v > -9e18 && v < 9e18))
		return v > 0 ? INT64_MAX : INT64_MIN;
	return (int64_t)v;
}

/* num / den as a JSON number, or null when den is 0. */
static json_t *
ratio_json(double num, double den)
{
	double v;

	if (den == 0)
		return json_null();
	v = num / den;
	return isfinite(v) ? json_real(v) : json_null();
}

/* Per-wager sums as the API shows them: each wager and the total (new reference; NULL when out of memory). */
static json_t *
wager_sums_json(const int64_t v[WAGER_COUNT], int64_t total)
{
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}", "ante", (json_int_t)v[WAGER_ANTE], "play", (json_int_t)v[WAGER_PLAY],
	    "pair_plus", (json_int_t)v[WAGER_PAIR_PLUS], "six_card", (json_int_t)v[WAGER_SIX_CARD],
	    "ante_bonus", (json_int_t)v[WAGER_ANTE_BONUS], "total", (json_int_t)total);
}

/*
 * The house's theoretical win (cents, unrounded) and its variance over the
 * group's games, from each game's house-banked handle and lines.  A game
 * without house-banked handle is not analysed.
 */
static int
group_theoretical(struct pit *p, struct game_list *gl, const struct group_acc *g, double *theo, double *var,
    struct pb_error *err)
{
	static const enum wager GAME_WAGERS[] = {WAGER_ANTE, WAGER_PAIR_PLUS, WAGER_SIX_CARD};

	*theo = *var = 0;
	for (int i = 0; i < g->part_count; i++) {
		const struct game_part *pt = &g->parts[i];
		const struct game_figures *f;
		bool any = false;

		for (int w = 0; w < WAGER_COUNT; w++)
			any |= pt->handle[w] != 0;
		if (!any)
			continue;
		if (game_figures_by_id(p, gl, pt->rules_id, &f, err) < 0)
			return -1;
		for (size_t k = 0; k < sizeof(GAME_WAGERS) / sizeof(GAME_WAGERS[0]); k++) {
			enum wager w = GAME_WAGERS[k];
			double h = (double)pt->handle[w];
			*theo += f->edge[w] * h;
			if (pt->lines[w] > 0)
				*var += f->variance[w] * h * h / (double)pt->lines[w];
		}
	}
	return 0;
}

/*
 * The money a group's rounds made besides the house's win on house-banked
 * rounds (house_win, beside the handle): the banker's result on player-banked ones, the
 * house's collection fees and its revenue ("win" = house win + collections),
 * and the count and handle each ratio divides by.  Added to o.
 */
static int
group_money_json(json_t *o, const struct group_acc *g, int64_t house_win, struct pb_error *err)
{
	int64_t banker = 0, win;
	json_t *br;

	for (int w = 0; w < WAGER_COUNT; w++)
		if (__builtin_add_overflow(banker, g->banker[w], &banker))
			return pb_fail(err, 500, "report_overflow", "a report sum exceeds 64 bits; narrow the range");
	if (__builtin_add_overflow(house_win, g->collections, &win))
		return pb_fail(err, 500, "report_overflow", "a report sum exceeds 64 bits; narrow the range");
	br = wager_sums_json(g->banker, banker);
	if (br == NULL || json_object_set_new(o, "banker_result", br) < 0 ||
	    json_object_set_new(o, "collections", json_integer(g->collections)) < 0 ||
	    json_object_set_new(o, "win", json_integer(win)) < 0 ||
	    json_object_set_new(o, "player_banked_rounds", json_integer(g->banked_rounds)) < 0 ||
	    json_object_set_new(o, "house_banked_handle", json_integer(g->house_handle)) < 0)
		return pb_oom(err);
	return 0;
}

/*
 * A group's (or the totals') figures as the API shows them.  Every ratio
 * of the house's win divides by the handle of the house-banked rounds; the
 * interval and the flag are the house's too, so a group of player-banked
 * rounds only has neither (its banker's result is no house's hold).
 */
json_t *
report_group_json(struct pit *p, struct game_list *gl, const struct group_acc *g, bool with_key,
    struct pb_error *err)
{
	int64_t handle = 0, win = 0;
	double theo, var, sd;
	json_t *o, *flag = json_null(), *interval = json_null();

	for (int w = 0; w < WAGER_COUNT; w++) {
		handle += g->handle[w];
		win += g->win[w];
	}
	if (group_theoretical(p, gl, g, &theo, &var, err) < 0)
		return NULL;
	sd = var > 0 && isfinite(var) ? sqrt(var) : 0;
	if (g->house_handle > 0 && sd > 0) {
		/* win is an integer: win > x exactly when win > floor(x), win < y when win < ceil(y). */
		int64_t lo = int64_of(ceil(theo - HOLD_Z * sd)), hi = int64_of(floor(theo + HOLD_Z * sd));
		interval = json_pack("{s:I,s:I}", "low", (json_int_t)lo, "high", (json_int_t)hi);
		if (win > hi)
			flag = json_string("high");
		else if (win < lo)
			flag = json_string("low");
	}
	o = json_pack("{s:I,s:I,s:I,s:{s:I,s:I,s:I,s:I,s:I},s:o,s:o,s:o,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:f}",
	    "rounds", (json_int_t)g->rounds, "voids", (json_int_t)g->voids, "hands", (json_int_t)g->hands,
	    "handle", "ante", (json_int_t)g->handle[WAGER_ANTE], "play", (json_int_t)g->handle[WAGER_PLAY],
	    "pair_plus", (json_int_t)g->handle[WAGER_PAIR_PLUS], "six_card", (json_int_t)g->handle[WAGER_SIX_CARD],
	    "total", (json_int_t)handle,
	    "house_win", wager_sums_json(g->win, win),
	    "win_per_handle", ratio_json((double)win, (double)g->house_handle),
	    "hold", ratio_json((double)win, (double)g->house_handle),   /* deprecated: win_per_handle */
	    "theoretical_win", (json_int_t)int64_of(round(theo)),  /* half away from zero */
	    "theoretical_win_per_handle", ratio_json(theo, (double)g->house_handle),
	    "theoretical_hold", ratio_json(theo, (double)g->house_handle),   /* deprecated: theoretical_win_per_handle */
	    "hold_flag", flag,
	    "win_interval", interval,
	    "hands_per_hour", ratio_json((double)g->hands * (double)HOUR_MS, (double)g->play_ms),
	    "average_bet", g->hands > 0 ? json_integer((2 * handle + g->hands) / (2 * g->hands)) : json_null(),
	    "play_seconds", (double)g->play_ms / 1000.0);
	if (o == NULL) {
		pb_oom(err);
		return NULL;
	}
	if (group_money_json(o, g, win, err) < 0) {
		json_decref(o);
		return NULL;
	}
	if (with_key) {
		json_t *k = json_pack("{s:s}", "key", g->key);
		if (k == NULL || json_object_update(k, o) < 0) {
			json_decref(k);
			json_decref(o);
			pb_oom(err);
			return NULL;
		}
		json_decref(o);
		o = k;
	}
	return o;
}

