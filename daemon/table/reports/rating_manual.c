/*
 * rating_manual.c - the manual ratings in rated play (reports.h,
 * reports_private.h; docs/players.md, "Manual ratings"): recording one,
 * with its theoretical win at the game's exact Ante/Play edge, and the
 * manual ratings of a player's rating and of the day's report, kept apart
 * from the ratings measured from the hands (rating.c).  The row and its
 * event are the players' (table/players/manual_rating.c); the edge is the
 * analysis' (report_game_figures), here because an analysis is a report's.
 *
 * A rating's game is read from the configuration as it stands: a rating
 * whose game is no longer configured shows "theoretical": null and is left
 * out of the sum.
 */
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "engine/settle.h"
#include "engine/theo.h"
#include "store/ratings.h"
#include "table/players/players.h"
#include "table/reports/reports_private.h"

/*
 * The exact Ante/Play edge of rules: report_game_figures, cached by the
 * hash of the canonical rules' text, the key the rounds' rules are cached
 * by (store_rules_id), so that a game dealt and rated is analysed once.
 */
static int
ante_play_edge(const struct rules *r, int64_t *edge, struct pb_error *err)
{
	struct game_figures f;
	char sha[PB_SHA256_HEX_LEN];
	json_t *j = rules_to_json(r);
	char *text = j != NULL ? json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT) : NULL;

	json_decref(j);
	if (text == NULL)
		return pb_oom(err);
	pb_sha256_hex(text, strlen(text), sha);
	free(text);
	if (report_game_figures(r, sha, &f, err) < 0)
		return -1;
	*edge = f.edge_exact[WAGER_ANTE];
	return 0;
}

int
pit_player_manual_rating(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct manual_rating_call c;

	if (authorize(a, OP_MANUAL_RATING, NULL, err) < 0 || manual_rating_read(p, a, id, body, &c, err) < 0 ||
	    ante_play_edge(c.rules, &c.edge, err) < 0)
		return -1;
	return manual_rating_record(p, a, idem, &c, out, status, err);
}

/* The manual ratings read so far: each as the API shows it, the exact sum of their theoretical wins, their minutes. */
struct manual_walk {
	struct pit *p;
	json_t *ratings;
	struct theo_sum theo;
	int64_t minutes;
};

/* One manual rating into the walk, with its theoretical win (null, and not summed, when its game is gone). */
static int
add_rating(void *ctx, const struct manual_rating *m, struct pb_error *err)
{
	struct manual_walk *w = ctx;
	const struct rules *r = manual_rating_rules(w->p->cfg, m->game);
	int64_t edge, cents = 0;
	json_t *o;

	if (r != NULL && (ante_play_edge(r, &edge, err) < 0 || manual_rating_theoretical(m, edge, &cents, err) < 0 ||
	    theo_manual_add(&w->theo, m->average_bet, m->minutes, m->decisions_per_hour, edge, err) < 0))
		return -1;
	if (__builtin_add_overflow(w->minutes, m->minutes, &w->minutes))
		return pb_fail(err, 500, "report_overflow", "a rating's minutes exceed 64 bits; ask for a shorter period");
	if ((o = manual_rating_json(m, r != NULL ? &cents : NULL)) == NULL || json_array_append_new(w->ratings, o) < 0)
		return pb_oom(err);
	return 0;
}

int
rating_manual_of_player(struct pit *p, const char *player, const char *from, const char *to, json_t **out,
    struct pb_error *err)
{
	struct manual_walk w = {.p = p, .ratings = json_array()};
	int64_t theoretical;

	*out = NULL;
	if (w.ratings == NULL)
		return pb_oom(err);
	if (store_manual_ratings_of_player(p->store, player, from, to, add_rating, &w, err) != 0 ||
	    theo_manual_cents(&w.theo, &theoretical, err) < 0) {
		json_decref(w.ratings);
		return -1;
	}
	*out = json_pack("{s:o,s:I,s:I}", "ratings", w.ratings, "minutes", (json_int_t)w.minutes, "theoretical",
	    (json_int_t)theoretical);
	return *out != NULL ? 0 : pb_oom(err);
}

int
rating_manual_of_day(struct pit *p, const char *gaming_day, json_t **out, struct pb_error *err)
{
	struct manual_walk w = {.p = p, .ratings = json_array()};

	*out = NULL;
	if (w.ratings == NULL)
		return pb_oom(err);
	if (store_manual_ratings_of_day(p->store, gaming_day, add_rating, &w, err) != 0) {
		json_decref(w.ratings);
		return -1;
	}
	*out = w.ratings;
	return 0;
}
