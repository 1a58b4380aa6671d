/*
 * rating.c - rated play from the hands themselves (players.h;
 * docs/players.md): a player's hands, stakes, result and theoretical win
 * from the payout lines of the rounds he played, the conventional estimate
 * beside it, time seated and comps; the day's rating report and coverage.
 * The result adds the recorded corrections of his lines (each line at its
 * latest correction).  A player's rounds, corrections and seatings are
 * those of his record and of every record merged into it; the report lists
 * a merged record's play under the surviving one.  The manual ratings are
 * shown beside, never mixed in (rating_manual.c).
 *
 * The money is the engine's (engine/theo.h): exact sums of stake x edge,
 * rounded once to the cent.  No money here passes through a double; the
 * one double is the coverage's share of hands, a ratio.
 */
#include "table/players/players.h"

#include <stdio.h>
#include <string.h>

#include "common/gaming_day.h"
#include "common/timeutil.h"
#include "engine/settle.h"
#include "engine/theo.h"
#include "store/players.h"
#include "store/ratings.h"
#include "store/reports.h"
#include "store/store.h"
#include "table/reports/reports_private.h"

#define GAMES_MAX 16
#define TIME_MIN "0000-00-00T00:00:00.000Z"
#define TIME_MAX "9999-12-31T23:59:59.999Z"

struct rating_game {
	int64_t rules_id;
	struct game_figures f;
	int64_t hands;
};

struct rating {
	int64_t hands, wagered, initial, result, corrections;
	int64_t per_wager[WAGER_COUNT];
	struct theo_sum theo;            /* sum of stake x edge, exact */
	struct theo_sum est_edges;       /* each hand's Ante/Play edge (weight 1 a hand), exact */
	struct rating_game games[GAMES_MAX];
	int game_count;
};

/* The figures of the rating as the API shows them, cents. */
struct rating_money {
	int64_t average, theoretical, estimated, comps;
};

static int
wager_of(const char *name)
{
	static const char *const NAMES[WAGER_COUNT] = {"ante", "play", "pair_plus", "six_card", "ante_bonus"};

	for (int w = 0; w < WAGER_COUNT; w++)
		if (strcmp(name, NAMES[w]) == 0)
			return w;
	return -1;
}

/* The figures of the game of rules_id (analysed once per rating). */
static int
game_of(struct pit *p, struct rating *r, int64_t rules_id, struct rating_game **out, struct pb_error *err)
{
	struct rules rules;
	char sha[PB_SHA256_HEX_LEN];
	struct rating_game *g;

	for (int i = 0; i < r->game_count; i++)
		if (r->games[i].rules_id == rules_id) {
			*out = &r->games[i];
			return 0;
		}
	if (r->game_count == GAMES_MAX)
		return pb_fail(err, 422, "too_many_games", "a rating covers at most %d games; ask for a shorter period", GAMES_MAX);
	g = &r->games[r->game_count];
	memset(g, 0, sizeof(*g));
	g->rules_id = rules_id;
	if (store_rules_get(p->store, rules_id, &rules, sha, err) < 0 || report_game_figures(&rules, sha, &g->f, err) < 0)
		return -1;
	r->game_count++;
	*out = g;
	return 0;
}

/* *sum += v, or 500 report_overflow beyond 64 bits. */
static int
add_cents(int64_t *sum, int64_t v, struct pb_error *err)
{
	if (__builtin_add_overflow(*sum, v, sum))
		return pb_fail(err, 500, "report_overflow", "a rating's sum exceeds 64 bits; ask for a shorter period");
	return 0;
}

/*
 * Sums the lines [[round, rules_id, wager, stake, result, net, seat]] (by
 * round and seat) into r: a hand is a round's seat (a patron's records
 * merged into one may have held two seats of a round); every cent sum
 * checked against 64 bits, each stake x its wager's exact edge into
 * r->theo (Play's edge is 0: the Ante's covers the game), each hand's
 * Ante/Play edge into r->est_edges.
 */
static int
sum_lines(struct pit *p, const json_t *lines, struct rating *r, struct pb_error *err)
{
	int64_t last_round = 0, last_seat = 0;
	size_t i;
	const json_t *l;

	memset(r, 0, sizeof(*r));
	json_array_foreach(lines, i, l) {
		int64_t round = json_integer_value(json_array_get(l, 0)), stake = json_integer_value(json_array_get(l, 3));
		int64_t seat = json_integer_value(json_array_get(l, 6));
		int w = wager_of(json_string_value(json_array_get(l, 2)));
		bool returned = strcmp(json_string_value(json_array_get(l, 4)), "returned") == 0;
		struct rating_game *g = NULL;

		if (game_of(p, r, json_integer_value(json_array_get(l, 1)), &g, err) < 0)
			return -1;
		if (round != last_round || seat != last_seat) {
			r->hands++;
			g->hands++;
			if (theo_add(&r->est_edges, 1, g->f.edge_exact[WAGER_ANTE], err) < 0)
				return -1;
			last_round = round;
			last_seat = seat;
		}
		if (add_cents(&r->result, json_integer_value(json_array_get(l, 5)), err) < 0)
			return -1;
		if (w < 0 || w == WAGER_ANTE_BONUS || returned)
			continue;   /* the Ante Bonus's stake is the Ante's; a returned line was not wagered */
		if (add_cents(&r->wagered, stake, err) < 0 || add_cents(&r->per_wager[w], stake, err) < 0 ||
		    (w != WAGER_PLAY && add_cents(&r->initial, stake, err) < 0) ||
		    theo_add(&r->theo, stake, g->f.edge_exact[w], err) < 0)
			return -1;
	}
	return 0;
}

/*
 * The rating's money, each rounded once, half away from zero: the average
 * initial wager per hand; the theoretical win; the conventional estimate,
 * average bet x hands x the Ante/Play edge, as initial / hands x the sum of
 * the hands' edges; comps, the comp share of the exact theoretical win.
 */
static int
rating_money(const struct pit *p, const struct rating *r, struct rating_money *m, struct pb_error *err)
{
	if (theo_average(r->initial, r->hands, &m->average, err) < 0 || theo_cents(&r->theo, &m->theoretical, err) < 0 ||
	    theo_estimate(&r->est_edges, r->initial, &m->estimated, err) < 0 ||
	    theo_comps(&r->theo, p->cfg->players.comp_share_ppm, &m->comps, err) < 0)
		return -1;
	return 0;
}

/* Seconds of the player's seatings within [from, to) (an open one lasts until now). */
static int64_t
seated_seconds(const json_t *seatings, int64_t from_ms, int64_t to_ms)
{
	int64_t total = 0, now = pb_time_now_ms();
	size_t i, j;
	const json_t *s, *e;

	json_array_foreach(seatings, i, s) {
		int64_t start = 0, end = now;
		if (!json_is_true(json_object_get(s, "seated")))
			continue;
		pb_time_parse(json_string_value(json_object_get(s, "at")), &start);
		for (j = i + 1; j < json_array_size(seatings); j++) {
			e = json_array_get(seatings, j);
			if (!json_is_true(json_object_get(e, "seated")) && json_equal(json_object_get(e, "table"), json_object_get(s, "table")) &&
			    json_equal(json_object_get(e, "seat"), json_object_get(s, "seat"))) {
				pb_time_parse(json_string_value(json_object_get(e, "at")), &end);
				break;
			}
		}
		start = start > from_ms ? start : from_ms;
		end = end < to_ms ? end : to_ms;
		if (end > start)
			total += end - start;
	}
	return total / 1000;
}

/*
 * The rating of player (his record and those merged into it) over [from,
 * to) (times as stored): the result is his lines' net plus the corrections
 * of his lines ("corrections": the sum of each line's latest paid - owed).
 */
static int
rate(struct pit *p, const char *player, const char *from, const char *to, json_t **out, struct pb_error *err)
{
	struct rating r;
	struct rating_money m;
	json_t *lines, *seatings;
	int64_t from_ms = 0, to_ms = INT64_MAX;

	if (store_player_lines(p->store, player, from, to, &lines, err) < 0)
		return -1;
	if (sum_lines(p, lines, &r, err) < 0 || rating_money(p, &r, &m, err) < 0) {
		json_decref(lines);
		return -1;
	}
	json_decref(lines);
	if (store_rating_corrections(p->store, player, from, to, &r.corrections, err) < 0 ||
	    add_cents(&r.result, r.corrections, err) < 0 || store_rating_seat_changes(p->store, player, &seatings, err) < 0)
		return -1;
	if (strcmp(from, TIME_MIN) != 0)
		pb_time_parse(from, &from_ms);
	if (strcmp(to, TIME_MAX) != 0)
		pb_time_parse(to, &to_ms);
	*out = json_pack("{s:s,s:I,s:I,s:{s:I,s:I,s:I,s:I},s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "player", player, "hands",
	    (json_int_t)r.hands, "wagered", (json_int_t)r.wagered, "wagered_by_wager", "ante", (json_int_t)r.per_wager[WAGER_ANTE],
	    "play", (json_int_t)r.per_wager[WAGER_PLAY], "pair_plus", (json_int_t)r.per_wager[WAGER_PAIR_PLUS], "six_card",
	    (json_int_t)r.per_wager[WAGER_SIX_CARD], "average_bet", (json_int_t)m.average, "result", (json_int_t)r.result,
	    "corrections", (json_int_t)r.corrections, "theoretical", (json_int_t)m.theoretical, "estimated_theoretical",
	    (json_int_t)m.estimated, "seconds", (json_int_t)seated_seconds(seatings, from_ms, to_ms), "comps",
	    (json_int_t)m.comps);
	json_decref(seatings);
	return *out != NULL ? 0 : pb_oom(err);
}

/*
 * A query time in the stored form, or the default; a date alone is the
 * property's gaming day (from: its start; to: its end, exclusive); 400 when
 * malformed.
 */
static int
query_time(const struct pit *p, const char *text, const char *name, const char *def, char out[PB_TIME_LEN],
    struct pb_error *err)
{
	int64_t ms, day, from_s, to_s;

	if (text == NULL || text[0] == '\0') {
		snprintf(out, PB_TIME_LEN, "%s", def);
		return 0;
	}
	if (strlen(text) == 10 && gaming_day_parse(text, &day) == 0) {
		gaming_day_bounds(&p->cfg->property.calendar, day, &from_s, &to_s);
		pb_time_format_ms((strcmp(name, "to") == 0 ? to_s : from_s) * 1000, out);
		return 0;
	}
	if (pb_time_parse(text, &ms) < 0)
		return pb_fail(err, 400, "invalid_query", "%s: a gaming day such as 2026-03-01, or a time such as "
		    "2026-03-01T08:00:00Z", name);
	pb_time_format_ms(ms, out);
	return 0;
}

static int
need_reader(const struct actor *a, struct pb_error *err)
{
	if ((a->roles & PLAYER_PERSONAL_ROLES) == 0)
		return pb_fail(err, 403, "forbidden", "ratings are for the cage, floor, pitboss, surveillance, auditor and admin roles");
	return 0;
}

int
pit_player_rating(struct pit *p, const struct actor *a, const char *id, const char *from, const char *to,
    json_t **out, struct pb_error *err)
{
	char f[PB_TIME_LEN], t[PB_TIME_LEN], into[PB_ID_MAX];
	json_t *manual;
	bool found = false;

	if (need_reader(a, err) < 0 || query_time(p, from, "from", TIME_MIN, f, err) < 0 ||
	    query_time(p, to, "to", TIME_MAX, t, err) < 0)
		return -1;
	if (strlen(id) < PB_ID_MAX && store_player_merged_into(p->store, id, &found, into, err) < 0)
		return -1;
	if (!found)
		return pb_fail(err, 404, "player_not_found", "there is no player \"%.32s\"", id);
	if (rating_manual_of_player(p, id, f, t, &manual, err) < 0)
		return -1;
	if (rate(p, id, f, t, out, err) < 0) {
		json_decref(manual);
		return -1;
	}
	json_object_set_new(*out, "merged_into", into[0] ? json_string(into) : json_null());
	json_object_set_new(*out, "manual", manual);
	json_object_set_new(*out, "from", strcmp(f, TIME_MIN) ? json_string(f) : json_null());
	json_object_set_new(*out, "to", strcmp(t, TIME_MAX) ? json_string(t) : json_null());
	return 0;
}

int
pit_ratings_report(struct pit *p, const struct actor *a, const char *gaming_day, json_t **out, struct pb_error *err)
{
	char f[PB_TIME_LEN], t[PB_TIME_LEN];
	int64_t day, from_s, to_s, hands, known;
	json_t *players, *rows, *manual;
	size_t i;
	const json_t *v;

	if (need_reader(a, err) < 0)
		return -1;
	if (gaming_day == NULL || gaming_day_parse(gaming_day, &day) < 0)
		return pb_fail(err, 400, "invalid_query", "gaming_day: a gaming day YYYY-MM-DD");
	gaming_day_bounds(&p->cfg->property.calendar, day, &from_s, &to_s);
	pb_time_format_ms(from_s * 1000, f);
	pb_time_format_ms(to_s * 1000, t);
	if (store_players_between(p->store, f, t, &players, err) < 0)
		return -1;
	if (store_hands_coverage(p->store, f, t, &hands, &known, err) < 0 ||
	    rating_manual_of_day(p, gaming_day, &manual, err) < 0) {
		json_decref(players);
		return -1;
	}
	rows = json_array();
	json_array_foreach(players, i, v) {
		json_t *row;
		if (rate(p, json_string_value(v), f, t, &row, err) < 0) {
			json_decref(players);
			json_decref(rows);
			json_decref(manual);
			return -1;
		}
		json_array_append_new(rows, row);
	}
	json_decref(players);
	*out = json_pack("{s:s,s:s,s:s,s:o,s:o,s:{s:I,s:I,s:o}}", "gaming_day", gaming_day, "from", f, "to", t, "players", rows,
	    "manual", manual, "coverage", "hands", (json_int_t)hands, "rated_hands", (json_int_t)known, "share",
	    hands > 0 ? json_real((double)known / (double)hands) : json_null());
	return 0;
}
