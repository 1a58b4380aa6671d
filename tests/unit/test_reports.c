/*
 * test_reports.c - the reports against the record they summarise.
 *
 * A temporary database is filled through the pit API (pit_round_open,
 * pit_round_step: the code path of the daemon) with seeded random rounds on
 * four games, house- and player-banked, with voids, spread over three days
 * by a fake wall clock.  Each report is then checked against figures
 * computed here independently: from every round as GET /rounds/{id} shows
 * it, and from the payouts table with plain SQL.  Also: the CSV of each
 * report parsed back equals its JSON; hold flags on constructed extreme
 * tables; hands per hour on a constructed timeline; the migration's
 * backfill (a database at schema 1 opened with the full store) equals the
 * live aggregates; access and scope; parameter checks.
 *
 * The fake clock: this file defines clock_gettime(), which the static
 * libraries' pb_time_now() binds to; CLOCK_REALTIME answers fake_now_ms when
 * set, every other clock (and the real time when unset) goes to the kernel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/hash.h"
#include "engine/analyze.h"
#include "engine/hand3.h"
#include "engine/hand6.h"
#include "store/count_window.h"
#include "store/migrations.h"
#include "store/reports.h"
#include "store/store_int.h"
#include "table/reports/reports.h"
#include "table/rounds/rounds.h"

#ifndef PB_SOURCE_DIR
#define PB_SOURCE_DIR "."
#endif

#define ROUNDS_RANDOM 700
#define BASE_MS 1772323200000LL      /* 2026-03-01T00:00:00Z */
#define HOUR 3600000LL
#define MINUTE 60000LL

/* ---- the fake clock ---- */

#include "../common/fake_clock.h"

/* ---- a seeded generator (xorshift64*) ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
#include "../common/xorshift.h"

static int
rng_int(int lo, int hi)
{
	return (int)rng_between(lo, hi);
}

/* ---- the fixture: a config, a database, actors ---- */

struct fixture {
	char dir[64];
	char db[128];
	char cfg_path[128];
	struct config *cfg;
	struct store *store;
	struct pit pit;
	int64_t last_ms;          /* the random rounds span [BASE_MS, last_ms] */
	int voids_made;
};

static struct fixture fx;

static const struct actor DEALER_A = {"dealer-a", ROLE_BIT(ROLE_DEALER), NULL, false};
static const struct actor DEALER_B = {"dealer-b", ROLE_BIT(ROLE_DEALER), NULL, false};
static const struct actor DEALER_C = {"dealer-c", ROLE_BIT(ROLE_DEALER), NULL, false};
static const struct actor BOSS = {"boss", ROLE_BIT(ROLE_PITBOSS), NULL, false};
static const struct actor AUDITOR = {"audit", ROLE_BIT(ROLE_AUDITOR), NULL, false};

static void
token_json(FILE *f, const char *name, const char *role, const char *tables, bool last)
{
	char hex[PB_SHA256_HEX_LEN];

	pb_sha256_hex(name, strlen(name), hex);
	fprintf(f, "  {\"name\": \"%s\", \"role\": \"%s\", \"sha256\": \"%s\"%s%s%s}%s\n", name, role, hex,
	    tables ? ", \"tables\": " : "", tables ? tables : "", "", last ? "" : ",");
}

static void
write_config(const char *path, const char *db)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "{\"listen\": \"127.0.0.1:1\", \"database\": \"%s\",\n", db);
	fprintf(f, " \"games\": {\"standard\": \"%s/config/games/standard.json\", \"tricard\": \"%s/config/games/tricard.json\","
	    " \"florida\": \"%s/config/games/florida.json\"},\n", PB_SOURCE_DIR, PB_SOURCE_DIR, PB_SOURCE_DIR);
	fprintf(f, " \"tables\": [\n");
	fprintf(f, "  {\"id\": \"T1\", \"name\": \"std\", \"game\": \"standard\", \"seats\": 6, \"banking\": \"house\","
	    " \"limits\": {\"ante\": {\"min\": 500, \"max\": 50000}, \"pair_plus\": {\"min\": 500, \"max\": 10000},"
	    " \"six_card\": {\"min\": 500, \"max\": 2500}}},\n");
	fprintf(f, "  {\"id\": \"T3\", \"name\": \"tri\", \"game\": \"tricard\", \"seats\": 7, \"banking\": \"house\","
	    " \"limits\": {\"ante\": {\"min\": 500, \"max\": 25000}, \"pair_plus\": {\"min\": 500, \"max\": 10000}}},\n");
	fprintf(f, "  {\"id\": \"F1\", \"name\": \"fl\", \"game\": \"florida\", \"seats\": 7, \"banking\": \"house\","
	    " \"limits\": {\"ante\": {\"min\": 200, \"max\": 20000}, \"pair_plus\": {\"min\": 200, \"max\": 5000}}},\n");
	fprintf(f, "  {\"id\": \"P1\", \"name\": \"pb\", \"game\": \"standard\", \"seats\": 8, \"banking\": \"player\","
	    " \"limits\": {\"ante\": {\"min\": 500, \"max\": 20000}, \"pair_plus\": {\"min\": 500, \"max\": 5000}},"
	    " \"banker\": {\"max_consecutive\": 2, \"min_bank\": 10000, \"max_bank\": 500000},"
	    " \"collection\": {\"seat_fees\": [{\"up_to\": 1000, \"fee\": 100}, {\"up_to\": 20000, \"fee\": 200}],"
	    " \"banker_fee\": 300}},\n");
	fprintf(f, "  {\"id\": \"H1\", \"name\": \"hph\", \"game\": \"standard\", \"seats\": 6, \"banking\": \"house\","
	    " \"limits\": {\"ante\": {\"min\": 500, \"max\": 50000}, \"pair_plus\": {\"min\": 500, \"max\": 10000}}},\n");
	fprintf(f, "  {\"id\": \"X1\", \"name\": \"high\", \"game\": \"standard\", \"seats\": 6, \"banking\": \"house\","
	    " \"limits\": {\"ante\": {\"min\": 500, \"max\": 50000}, \"pair_plus\": {\"min\": 500, \"max\": 10000}}},\n");
	fprintf(f, "  {\"id\": \"X2\", \"name\": \"low\", \"game\": \"standard\", \"seats\": 6, \"banking\": \"house\","
	    " \"limits\": {\"ante\": {\"min\": 500, \"max\": 50000}, \"pair_plus\": {\"min\": 500, \"max\": 10000}}}\n");
	fprintf(f, " ],\n \"tokens\": [\n");
	token_json(f, "dealer-a", "dealer", NULL, false);
	token_json(f, "boss", "pitboss", NULL, false);
	token_json(f, "boss-t1", "pitboss", "[\"T1\"]", false);
	token_json(f, "audit", "auditor", NULL, true);
	fprintf(f, " ]}\n");
	fclose(f);
}

static struct store *
open_store(const char *path)
{
	struct store_options opt = {0};
	struct pb_error err;
	struct store *s;

	opt.path = path;
	opt.synchronous = "NORMAL";
	s = store_open(&opt, &err);
	if (s == NULL)
		fail_msg("store_open %s: %s", path, err.message);
	return s;
}

/* ---- making rounds ---- */

static json_t *
cards3(const card_t *c)
{
	json_t *a = json_array();
	char t[3];

	for (int i = 0; i < 3; i++) {
		card_format(c[i], t);
		json_array_append_new(a, json_string(t));
	}
	return a;
}

static void
shuffle(card_t deck[52])
{
	for (int i = 0; i < 52; i++)
		deck[i] = (card_t)i;
	for (int i = 51; i > 0; i--) {
		int j = rng_int(0, i);
		card_t t = deck[i];
		deck[i] = deck[j];
		deck[j] = t;
	}
}

static int64_t
amount(int64_t lo, int64_t hi)
{
	return (int64_t)rng_int((int)(lo / 100), (int)(hi / 100)) * 100;
}

/* Runs one round to its end at time at_ms; returns its id. */
static int64_t
post_round(const struct actor *a, const char *table, json_t *body, int64_t at_ms)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 0;
	int64_t id;

	fake_now_ms = at_ms;
	if (pit_round_open(&fx.pit, a, NULL, table, body, &out, &status, &err) < 0)
		fail_msg("%s: pit_round_open: %d %s: %s\n%s", table, err.status, err.code, err.message, json_dumps(body, 0));
	id = json_integer_value(json_object_get(json_object_get(out, "round"), "id"));
	json_decref(out);
	json_decref(body);
	return id;
}

static void
step(const struct actor *a, int64_t round_id, enum round_step st, int seat, json_t *body, int64_t at_ms)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 0;

	fake_now_ms = at_ms;
	if (pit_round_step(&fx.pit, a, NULL, round_id, st, seat, body, &out, &status, &err) < 0)
		fail_msg("round %lld step %d: %d %s: %s", (long long)round_id, st, err.status, err.code, err.message);
	json_decref(out);
	json_decref(body);
}

struct table_game {
	const char *id;
	int seats;
	int64_t ante_min, ante_max, pp_min, pp_max, six_min, six_max;
	bool pp_alone;
	bool player_banked;
	int banker;               /* the seat banking next (player-banked) */
};

static struct table_game GAMES[] = {
	{"T1", 6, 500, 50000, 500, 10000, 500, 2500, false, false, 0},
	{"T3", 7, 500, 25000, 500, 10000, 0, 0, true, false, 0},
	{"F1", 7, 200, 20000, 200, 5000, 0, 0, true, false, 0},
	{"P1", 8, 500, 20000, 500, 5000, 0, 0, false, true, 1},
};

/* A random whole round for the table (bets within its limits, cards from a shuffled deck). */
static json_t *
random_round(struct table_game *g)
{
	json_t *bets = json_object(), *hands = json_object(), *dec = json_object(), *body;
	card_t deck[52];
	int used = 0, n = 0;
	char key[4];

	shuffle(deck);
	for (int s = 1; s <= g->seats; s++) {
		json_t *b;
		bool ante;

		if (g->player_banked && s == g->banker)
			continue;
		if (rng_int(0, 99) < 40)
			continue;
		ante = !g->pp_alone || rng_int(0, 99) < 80;
		b = json_object();
		if (ante)
			json_object_set_new(b, "ante", json_integer(amount(g->ante_min, g->ante_max / 4)));
		if (!ante || rng_int(0, 99) < 50)
			json_object_set_new(b, "pair_plus", json_integer(amount(g->pp_min, g->pp_max / 2)));
		if (ante && g->six_max > 0 && rng_int(0, 99) < 40)
			json_object_set_new(b, "six_card", json_integer(amount(g->six_min, g->six_max)));
		snprintf(key, sizeof(key), "%d", s);
		json_object_set_new(bets, key, b);
		json_object_set_new(hands, key, cards3(deck + used));
		used += 3;
		if (ante)
			json_object_set_new(dec, key, json_string(rng_int(0, 99) < 70 ? "play" : "fold"));
		n++;
	}
	if (n == 0) {
		snprintf(key, sizeof(key), "%d", g->player_banked && g->banker == 1 ? 2 : 1);
		json_object_set_new(bets, key, json_pack("{s:I}", "ante", (json_int_t)g->ante_min));
		json_object_set_new(hands, key, cards3(deck + used));
		used += 3;
		json_object_set_new(dec, key, json_string("play"));
	}
	body = json_pack("{s:o,s:o,s:o,s:o}", "bets", bets, "hands", hands, "dealer", cards3(deck + used), "decisions", dec);
	if (g->player_banked)
		json_object_set_new(body, "banker", json_pack("{s:i,s:I}", "seat", g->banker, "bank", (json_int_t)amount(10000, 30000)));
	return body;
}

/* A void round: opened, some bets, voided by the pit boss. */
static void
void_round(struct table_game *g, const struct actor *dealer, int64_t at_ms)
{
	json_t *open = json_object();
	int64_t id;

	if (g->player_banked)
		json_object_set_new(open, "banker", json_pack("{s:i,s:I}", "seat", g->banker, "bank", (json_int_t)20000));
	id = post_round(dealer, g->id, open, at_ms);
	for (int s = 1; s <= g->seats; s++) {
		if ((g->player_banked && s == g->banker) || rng_int(0, 99) < 50)
			continue;
		step(dealer, id, STEP_BET_PUT, s, json_pack("{s:I}", "ante", (json_int_t)amount(g->ante_min, g->ante_max / 4)),
		    at_ms + 5000);
	}
	step(&BOSS, id, STEP_VOID, 0, json_pack("{s:s}", "reason", rng_int(0, 1) ? "misdeal: exposed card" : "shuffler fault, redeal"),
	    at_ms + 30000);
	fx.voids_made++;
}

/* ---- independent sums from the rounds as the API shows them ---- */

struct round_sum {
	int64_t id;
	char table[PB_ID_MAX];
	char dealer[PB_ID_MAX];
	bool settled;
	int64_t settled_ms;
	int64_t hands;
	int64_t handle[WAGER_COUNT], win[WAGER_COUNT], lines[WAGER_COUNT];
	int game;                 /* index into games[] below */
	bool banked;              /* dealt player-banked: its win is the banker's result, not the house's */
	int64_t collections;      /* the house's fees on it */
};

static struct round_sum *rsums;
static int rsum_count;
static struct {
	char sha[PB_SHA256_HEX_LEN];
	struct analysis an;
} games_an[8];
static int games_count;

static int
game_index(const json_t *rules)
{
	char *text = json_dumps(rules, JSON_SORT_KEYS | JSON_COMPACT);
	char sha[PB_SHA256_HEX_LEN];
	struct rules r;
	struct pb_error err;

	pb_sha256_hex(text, strlen(text), sha);
	free(text);
	for (int i = 0; i < games_count; i++)
		if (strcmp(games_an[i].sha, sha) == 0)
			return i;
	assert_true(games_count < 8);
	assert_int_equal(rules_from_json(rules, &r, &err), 0);
	assert_int_equal(analyze_rules(&r, &games_an[games_count].an, &err), 0);
	snprintf(games_an[games_count].sha, sizeof(games_an[0].sha), "%s", sha);
	return games_count++;
}

/* Reads every round back through pit_round_get and sums its payout lines. */
static void
load_round_sums(void)
{
	struct pb_error err;

	free(rsums);
	rsums = NULL;
	rsum_count = 0;
	for (int64_t id = 1;; id++) {
		json_t *out = NULL, *r, *p;
		struct round_sum *s;
		size_t i;
		const char *state;

		if (pit_round_get(&fx.pit, &AUDITOR, id, &out, &err) < 0) {
			assert_int_equal(err.status, 404);
			break;
		}
		r = json_object_get(out, "round");
		state = json_string_value(json_object_get(r, "state"));
		if (strcmp(state, "settled") != 0 && strcmp(state, "void") != 0) {
			json_decref(out);
			continue;
		}
		rsums = realloc(rsums, (size_t)(rsum_count + 1) * sizeof(*rsums));
		s = &rsums[rsum_count++];
		memset(s, 0, sizeof(*s));
		s->id = id;
		snprintf(s->table, sizeof(s->table), "%s", json_string_value(json_object_get(r, "table")));
		snprintf(s->dealer, sizeof(s->dealer), "%s", json_string_value(json_object_get(r, "opened_by")));
		s->settled = strcmp(state, "settled") == 0;
		s->banked = strcmp(json_string_value(json_object_get(r, "banking")), "player") == 0;
		s->collections = json_integer_value(json_object_get(json_object_get(r, "collections"), "total"));
		assert_int_equal(pb_time_parse(json_string_value(json_object_get(r, "settled_at")), &s->settled_ms), 0);
		if (s->settled)
			s->hands = (int64_t)json_object_size(json_object_get(r, "bets"));
		json_array_foreach(json_object_get(r, "payouts"), i, p) {
			int w = wager_from_name(json_string_value(json_object_get(p, "wager")));
			bool returned = strcmp(json_string_value(json_object_get(p, "result")), "returned") == 0;
			assert_true(w >= 0);
			s->win[w] -= json_integer_value(json_object_get(p, "net"));
			if (!returned) {
				s->lines[w]++;
				if (w != WAGER_ANTE_BONUS)
					s->handle[w] += json_integer_value(json_object_get(p, "stake"));
			}
		}
		s->game = game_index(json_object_get(r, "rules"));
		json_decref(out);
	}
}

/* ---- setup ---- */

/* Three days of play: random gaps, dealers changing, voids, a pause now and then. */
static void
make_random_rounds(void)
{
	const struct actor *dealers[] = {&DEALER_A, &DEALER_B, &DEALER_C};
	int64_t t = BASE_MS + 5 * MINUTE;

	for (int i = 0; i < ROUNDS_RANDOM; i++) {
		struct table_game *g = &GAMES[rng_int(0, 3)];
		const struct actor *d = dealers[(t / (3 * HOUR)) % 3];

		if (rng_int(0, 99) < 8) {
			void_round(g, d, t);
		} else {
			post_round(d, g->id, random_round(g), t);
		}
		if (g->player_banked)
			g->banker = g->banker % g->seats + 1;
		t += rng_int(1, 8) * MINUTE + rng_int(0, 59999);
		if (rng_int(0, 99) < 3)
			t += rng_int(1, 5) * HOUR;     /* a break */
	}
	fx.last_ms = t;
}

static int
setup(void **state)
{
	struct pb_error err;

	(void)state;
	snprintf(fx.dir, sizeof(fx.dir), "/tmp/pbreports-XXXXXX");
	if (mkdtemp(fx.dir) == NULL)
		return -1;
	snprintf(fx.db, sizeof(fx.db), "%s/pb.db", fx.dir);
	snprintf(fx.cfg_path, sizeof(fx.cfg_path), "%s/pitboss.json", fx.dir);
	write_config(fx.cfg_path, fx.db);
	fx.cfg = config_load(fx.cfg_path, &err);
	if (fx.cfg == NULL) {
		fprintf(stderr, "config: %s\n", err.message);
		return -1;
	}
	fx.store = open_store(fx.db);
	fx.pit.store = fx.store;
	fx.pit.cfg = fx.cfg;
	fake_now_ms = BASE_MS;
	if (pit_sync_tables(&fx.pit, &err) < 0) {
		fprintf(stderr, "sync: %s\n", err.message);
		return -1;
	}
	make_random_rounds();
	load_round_sums();
	return 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	store_free(fx.store);
	config_free(fx.cfg);
	free(rsums);
	fake_now_ms = -1;
	if (getenv("PB_KEEP_TMP") == NULL) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx.dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", fx.dir);
	}
	return 0;
}

/* ---- running reports ---- */

static json_t *
report(const struct actor *a, enum report_kind kind, const struct report_params *rp)
{
	struct report_query q;
	struct pb_error err;
	json_t *out = NULL;

	if (report_query_parse(kind, rp, BASE_MS + 12 * HOUR, &q, &err) < 0)
		fail_msg("report_query_parse: %s", err.message);
	if (pit_report(&fx.pit, a, &q, &out, &err) < 0)
		fail_msg("report: %d %s: %s", err.status, err.code, err.message);
	return out;
}

static int
report_refused(const struct actor *a, enum report_kind kind, const struct report_params *rp, const char *code)
{
	struct report_query q;
	struct pb_error err;
	json_t *out = NULL;

	if (report_query_parse(kind, rp, BASE_MS + 12 * HOUR, &q, &err) < 0 || pit_report(&fx.pit, a, &q, &out, &err) < 0) {
		assert_string_equal(err.code, code);
		return err.status;
	}
	json_decref(out);
	fail_msg("a report that should be refused (%s) was answered", code);
	return 0;
}

static int64_t
jint(const json_t *o, const char *k1, const char *k2)
{
	const json_t *v = json_object_get(o, k1);

	if (k2 != NULL)
		v = json_object_get(v, k2);
	if (!json_is_integer(v))
		fail_msg("%s%s%s is not an integer", k1, k2 ? "." : "", k2 ? k2 : "");
	return json_integer_value(v);
}

/* ---- expected groups, computed here ---- */

struct expect {
	char key[48];
	int64_t rounds, voids, hands;
	int64_t handle[WAGER_COUNT], win[WAGER_COUNT];                /* win: the house's, house-banked rounds */
	int64_t banker[WAGER_COUNT], house_handle, banked_rounds, collections;
	int64_t g_handle[8][WAGER_COUNT], g_lines[8][WAGER_COUNT];   /* per game, house-banked rounds */
};

static int64_t
floordiv(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* The group key of a round, written independently of table/reports/reports.c. */
static void
expected_key(const struct round_sum *s, const char *group, int tz, const int *shifts, int nshifts, char *key, size_t keysz)
{
	time_t t;
	struct tm tm;

	if (strcmp(group, "table") == 0) {
		snprintf(key, keysz, "%s", s->table);
	} else if (strcmp(group, "dealer") == 0) {
		snprintf(key, keysz, "%s", s->dealer);
	} else if (strcmp(group, "hour") == 0) {
		t = (time_t)(s->settled_ms / 1000);
		gmtime_r(&t, &tm);
		strftime(key, keysz, "%Y-%m-%dT%H:00Z", &tm);
	} else if (strcmp(group, "day") == 0) {
		t = (time_t)floordiv(s->settled_ms + tz * MINUTE, 1000);
		gmtime_r(&t, &tm);
		strftime(key, keysz, "%Y-%m-%d", &tm);
	} else {
		/* The shift whose [start, next start) holds the local time, on this local day or the one before. */
		int64_t local = s->settled_ms + tz * MINUTE;
		int64_t day0 = floordiv(local, 24 * HOUR) * 24 * HOUR;
		for (int back = 0; back <= 1; back++) {
			int64_t day = day0 - back * 24 * HOUR;
			for (int i = 0; i < nshifts; i++) {
				int64_t start = day + shifts[i] * MINUTE;
				int64_t end = i + 1 < nshifts ? day + shifts[i + 1] * MINUTE : day + 24 * HOUR + shifts[0] * MINUTE;
				if (local >= start && local < end) {
					char d[16];
					t = (time_t)(day / 1000);
					gmtime_r(&t, &tm);
					strftime(d, sizeof(d), "%Y-%m-%d", &tm);
					snprintf(key, keysz, "%s %02d:%02d-%02d:%02d", d, shifts[i] / 60, shifts[i] % 60,
					    shifts[(i + 1) % nshifts] / 60, shifts[(i + 1) % nshifts] % 60);
					return;
				}
			}
		}
		fail_msg("no shift for round %lld", (long long)s->id);
	}
}

static int
cmp_expect(const void *a, const void *b)
{
	return strcmp(((const struct expect *)a)->key, ((const struct expect *)b)->key);
}

static void
expect_add(struct expect *e, const struct round_sum *s)
{
	e->rounds += s->settled;
	e->voids += !s->settled;
	e->hands += s->hands;
	e->banked_rounds += s->banked && s->settled;
	e->collections += s->collections;
	for (int w = 0; w < WAGER_COUNT; w++) {
		e->handle[w] += s->handle[w];
		if (s->banked) {
			e->banker[w] += s->win[w];
			continue;
		}
		e->win[w] += s->win[w];
		e->house_handle += s->handle[w];
		e->g_handle[s->game][w] += s->handle[w];
		e->g_lines[s->game][w] += s->lines[w];
	}
}

/* Checks one group (or the totals) of a summary against the expected sums. */
static void
check_group(const json_t *g, const struct expect *e)
{
	static const char *const W[] = {"ante", "play", "pair_plus", "six_card", "ante_bonus"};
	int64_t handle = 0, win = 0, banker = 0;
	double theo = 0, var = 0;

	assert_int_equal(jint(g, "rounds", NULL), e->rounds);
	assert_int_equal(jint(g, "voids", NULL), e->voids);
	assert_int_equal(jint(g, "hands", NULL), e->hands);
	for (int w = 0; w < WAGER_COUNT; w++) {
		if (w != WAGER_ANTE_BONUS)
			assert_int_equal(jint(g, "handle", W[w]), e->handle[w]);
		assert_int_equal(jint(g, "house_win", W[w]), e->win[w]);
		assert_int_equal(jint(g, "banker_result", W[w]), e->banker[w]);
		handle += e->handle[w];
		win += e->win[w];
		banker += e->banker[w];
	}
	assert_int_equal(jint(g, "handle", "total"), handle);
	assert_int_equal(jint(g, "house_win", "total"), win);
	assert_int_equal(jint(g, "banker_result", "total"), banker);
	assert_int_equal(jint(g, "collections", NULL), e->collections);
	assert_int_equal(jint(g, "win", NULL), win + e->collections);
	assert_int_equal(jint(g, "house_banked_handle", NULL), e->house_handle);
	assert_int_equal(jint(g, "player_banked_rounds", NULL), e->banked_rounds);
	if (handle > 0)
		assert_int_equal(jint(g, "average_bet", NULL), (2 * handle + e->hands) / (2 * e->hands));
	/* win per handle (and hold, its old name): the house's win over the house-banked handle */
	if (e->house_handle > 0) {
		assert_true(json_real_value(json_object_get(g, "win_per_handle")) == (double)win / (double)e->house_handle);
		assert_true(json_real_value(json_object_get(g, "hold")) == (double)win / (double)e->house_handle);
	} else {
		assert_true(json_is_null(json_object_get(g, "win_per_handle")));
		assert_true(json_is_null(json_object_get(g, "hold")));
		assert_true(json_is_null(json_object_get(g, "hold_flag")));
		assert_true(json_is_null(json_object_get(g, "win_interval")));
	}
	/* Theoretical win: Ante/Play edge per unit of ante handle, Pair Plus and six card per their own handle. */
	for (int gi = 0; gi < games_count; gi++) {
		const struct analysis *an = &games_an[gi].an;
		double h[3] = {(double)e->g_handle[gi][WAGER_ANTE], (double)e->g_handle[gi][WAGER_PAIR_PLUS],
			(double)e->g_handle[gi][WAGER_SIX_CARD]};
		int64_t n[3] = {e->g_lines[gi][WAGER_ANTE], e->g_lines[gi][WAGER_PAIR_PLUS], e->g_lines[gi][WAGER_SIX_CARD]};
		double edge[3] = {an->ante_play.house_edge, an->has_pair_plus ? an->pair_plus.house_edge : 0,
			an->has_six_card ? an->six_card.house_edge : 0};
		double v[3] = {an->ante_play.net.variance, an->has_pair_plus ? an->pair_plus.net.variance : 0,
			an->has_six_card ? an->six_card.net.variance : 0};
		for (int k = 0; k < 3; k++) {
			theo += edge[k] * h[k];
			if (n[k] > 0)
				var += v[k] * h[k] * h[k] / (double)n[k];
		}
	}
	{
		int64_t got = jint(g, "theoretical_win", NULL);
		int64_t want = (int64_t)(theo < 0 ? theo - 0.5 : theo + 0.5);
		assert_true(got - want <= 1 && want - got <= 1);
	}
	if (e->house_handle > 0 && var > 0) {
		const json_t *flag = json_object_get(g, "hold_flag");
		int64_t lo = jint(g, "win_interval", "low"), hi = jint(g, "win_interval", "high");
		double sd = 0;
		/* sd by bisection, independently of the library's square root */
		double a = 0, b = var > 1 ? var : 1;
		for (int i = 0; i < 200; i++) {
			double m = (a + b) / 2;
			if (m * m < var)
				a = m;
			else
				b = m;
		}
		sd = a;
		assert_true(lo >= (int64_t)(theo - 1.96 * sd) - 2 && lo <= (int64_t)(theo - 1.96 * sd) + 2);
		assert_true(hi >= (int64_t)(theo + 1.96 * sd) - 2 && hi <= (int64_t)(theo + 1.96 * sd) + 2);
		if (win > hi)
			assert_string_equal(json_string_value(flag), "high");
		else if (win < lo)
			assert_string_equal(json_string_value(flag), "low");
		else
			assert_true(json_is_null(flag));
	}
}

/*
 * Runs the summary with these parameters and checks every group and the
 * totals against the rounds settled in the range (computed here).
 */
static void
check_summary(const char *group, const char *from, const char *to, const char *table, int tz, const char *shifts_text)
{
	struct report_params rp = {0};
	struct report_query q;
	struct pb_error err;
	char tzs[16];
	int shifts[24], nshifts = 0;
	struct expect *ex = calloc((size_t)rsum_count + 1, sizeof(*ex)), total;
	int nex = 0;
	json_t *out, *groups, *g;
	size_t i;

	memset(&total, 0, sizeof(total));
	rp.group = group;
	rp.from = from;
	rp.to = to;
	rp.table = table;
	snprintf(tzs, sizeof(tzs), "%d", tz);
	rp.tz_offset = tzs;
	rp.shifts = shifts_text;
	assert_int_equal(report_query_parse(REPORT_SUMMARY, &rp, BASE_MS + 12 * HOUR, &q, &err), 0);
	for (int k = 0; k < q.shift_count; k++)
		shifts[nshifts++] = q.shifts[k];
	out = report(&AUDITOR, REPORT_SUMMARY, &rp);
	assert_string_equal(json_string_value(json_object_get(out, "group")), group);

	for (int r = 0; r < rsum_count; r++) {
		const struct round_sum *s = &rsums[r];
		char key[48];
		int k;
		if (s->settled_ms < q.from_ms || s->settled_ms >= q.to_ms)
			continue;
		if (table != NULL && strcmp(s->table, table) != 0)
			continue;
		expected_key(s, group, tz, shifts, nshifts, key, sizeof(key));
		for (k = 0; k < nex && strcmp(ex[k].key, key) != 0; k++)
			;
		if (k == nex)
			snprintf(ex[nex++].key, sizeof(ex[0].key), "%s", key);
		expect_add(&ex[k], s);
		expect_add(&total, s);
	}
	qsort(ex, (size_t)nex, sizeof(*ex), cmp_expect);
	groups = json_object_get(out, "groups");
	if ((int)json_array_size(groups) != nex)
		fail_msg("group=%s from=%s to=%s: %zu groups, expected %d", group, from ? from : "-", to ? to : "-",
		    json_array_size(groups), nex);
	json_array_foreach(groups, i, g) {
		assert_string_equal(json_string_value(json_object_get(g, "key")), ex[i].key);
		check_group(g, &ex[i]);
	}
	check_group(json_object_get(out, "totals"), &total);
	json_decref(out);
	free(ex);
}

/* ---- the tests ---- */

static char range_to[32];

static void
test_summary_groupings(void **state)
{
	(void)state;
	assert_true(rsum_count > ROUNDS_RANDOM / 2);
	snprintf(range_to, sizeof(range_to), "2026-03-%02d", (int)((fx.last_ms - BASE_MS) / (24 * HOUR)) + 1);
	check_summary("day", "2026-03-01", range_to, NULL, 0, NULL);
	check_summary("hour", "2026-03-01", range_to, NULL, 0, NULL);
	check_summary("table", "2026-03-01", range_to, NULL, 0, NULL);
	check_summary("dealer", "2026-03-01", range_to, NULL, 0, NULL);
	check_summary("shift", "2026-03-01", range_to, NULL, 0, NULL);
	check_summary("shift", "2026-03-01", range_to, NULL, -300, "07:00,15:00,23:00");
	check_summary("shift", "2026-03-01", range_to, NULL, 120, "06:00,18:00");
	check_summary("day", "2026-03-01", range_to, NULL, -300, NULL);
	check_summary("day", "2026-03-01", range_to, NULL, 60, NULL);
}

static void
test_summary_ranges(void **state)
{
	(void)state;
	/* sub-ranges, whole hours and widened to hours, a table filter */
	check_summary("table", "2026-03-01T10:00Z", "2026-03-02T03:00Z", NULL, 0, NULL);
	check_summary("hour", "2026-03-01T10:30Z", "2026-03-01T20:15Z", NULL, 0, NULL);
	check_summary("dealer", "2026-03-02", "2026-03-02", NULL, 0, NULL);
	check_summary("day", "2026-03-01", range_to, "T1", 0, NULL);
	check_summary("hour", "2026-03-02T00:00Z", "2026-03-03T00:00Z", "P1", 0, NULL);
	check_summary("shift", "2026-02-28", "2026-03-01", NULL, 0, NULL);      /* before any round: empty */
	/* the default range: the day of "now" (BASE + 12h) */
	check_summary("table", NULL, NULL, NULL, 0, NULL);
}

/* The totals per table, computed with plain SQL from rounds, bets and payouts. */
static void
test_summary_against_sql(void **state)
{
	struct report_params rp = {.group = "table", .from = "2026-03-01", .to = range_to};
	json_t *out = report(&BOSS, REPORT_SUMMARY, &rp), *g;
	sqlite3 *db = store_db(fx.store);
	sqlite3_stmt *st;
	size_t i;

	(void)state;
	assert_int_equal(sqlite3_prepare_v2(db,
	    "SELECT r.table_id, "
	    " (SELECT count(*) FROM rounds x WHERE x.table_id = r.table_id AND x.state = 'settled'),"
	    " (SELECT count(*) FROM rounds x WHERE x.table_id = r.table_id AND x.state = 'void'),"
	    " (SELECT count(*) FROM bets b JOIN rounds x ON x.id = b.round_id WHERE x.table_id = r.table_id AND x.state = 'settled'),"
	    " sum(CASE WHEN p.wager <> 'ante_bonus' AND p.result <> 'returned' THEN p.stake ELSE 0 END),"
	    " -sum(CASE WHEN r.banking = 'house' THEN p.net ELSE 0 END),"
	    " sum(CASE WHEN p.wager = 'pair_plus' AND p.result <> 'returned' THEN p.stake ELSE 0 END),"
	    " -sum(CASE WHEN p.wager = 'ante_bonus' AND r.banking = 'house' THEN p.net ELSE 0 END),"
	    " -sum(CASE WHEN r.banking = 'player' THEN p.net ELSE 0 END),"
	    " (SELECT coalesce(sum(c.fee), 0) FROM collections c JOIN rounds x ON x.id = c.round_id WHERE x.table_id = r.table_id)"
	    " FROM rounds r JOIN payouts p ON p.round_id = r.id WHERE r.state IN ('settled', 'void')"
	    " GROUP BY r.table_id ORDER BY r.table_id", -1, &st, NULL), SQLITE_OK);
	i = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		g = json_array_get(json_object_get(out, "groups"), i++);
		assert_non_null(g);
		assert_string_equal(json_string_value(json_object_get(g, "key")), (const char *)sqlite3_column_text(st, 0));
		assert_int_equal(jint(g, "rounds", NULL), sqlite3_column_int64(st, 1));
		assert_int_equal(jint(g, "voids", NULL), sqlite3_column_int64(st, 2));
		assert_int_equal(jint(g, "hands", NULL), sqlite3_column_int64(st, 3));
		assert_int_equal(jint(g, "handle", "total"), sqlite3_column_int64(st, 4));
		assert_int_equal(jint(g, "house_win", "total"), sqlite3_column_int64(st, 5));
		assert_int_equal(jint(g, "handle", "pair_plus"), sqlite3_column_int64(st, 6));
		assert_int_equal(jint(g, "house_win", "ante_bonus"), sqlite3_column_int64(st, 7));
		assert_int_equal(jint(g, "banker_result", "total"), sqlite3_column_int64(st, 8));
		assert_int_equal(jint(g, "collections", NULL), sqlite3_column_int64(st, 9));
		assert_int_equal(jint(g, "win", NULL), sqlite3_column_int64(st, 5) + sqlite3_column_int64(st, 9));
	}
	sqlite3_finalize(st);
	assert_int_equal(i, json_array_size(json_object_get(out, "groups")));
	json_decref(out);
}

/* ---- CSV parsed back ---- */

struct csv_table {
	int rows, cols;
	char *cell[2048][64];
};

/* An RFC 4180 parser (quotes, doubled quotes, CRLF), written for the test. */
static void
csv_parse(const char *text, struct csv_table *t)
{
	const char *p = text;
	char buf[4096];
	size_t n = 0;
	int col = 0;

	memset(t, 0, sizeof(*t));
	while (*p) {
		bool quoted = false;
		n = 0;
		if (*p == '"') {
			quoted = true;
			p++;
			for (;;) {
				assert_true(*p != '\0');
				if (*p == '"' && p[1] == '"') {
					buf[n++] = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					buf[n++] = *p++;
				}
			}
		} else {
			while (*p && *p != ',' && *p != '\r' && *p != '\n')
				buf[n++] = *p++;
		}
		(void)quoted;
		buf[n] = '\0';
		assert_true(t->rows < 2048 && col < 64);
		t->cell[t->rows][col++] = strdup(buf);
		if (*p == ',') {
			p++;
		} else {
			assert_true(p[0] == '\r' && p[1] == '\n');
			p += 2;
			if (t->rows == 0)
				t->cols = col;
			else
				assert_int_equal(col, t->cols);
			t->rows++;
			col = 0;
		}
	}
	assert_int_equal(col, 0);
}

static void
csv_free(struct csv_table *t)
{
	for (int r = 0; r < t->rows; r++)
		for (int c = 0; c < t->cols; c++)
			free(t->cell[r][c]);
}

static int
csv_col(const struct csv_table *t, const char *name)
{
	for (int c = 0; c < t->cols; c++)
		if (strcmp(t->cell[0][c], name) == 0)
			return c;
	fail_msg("no CSV column %s", name);
	return -1;
}

/* One cell against a JSON value: null empty, integers and reals read back exactly, strings equal. */
static void
cell_equals(const char *cell, const json_t *v, const char *what)
{
	if (v == NULL || json_is_null(v)) {
		if (cell[0] != '\0')
			fail_msg("%s: CSV \"%s\", JSON null", what, cell);
	} else if (json_is_integer(v)) {
		char *end;
		long long x = strtoll(cell, &end, 10);
		if (*end != '\0' || x != json_integer_value(v))
			fail_msg("%s: CSV \"%s\", JSON %lld", what, cell, (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		char *end;
		double x = strtod(cell, &end);
		if (*end != '\0' || x != json_real_value(v))
			fail_msg("%s: CSV \"%s\", JSON %.17g", what, cell, json_real_value(v));
	} else if (json_is_string(v)) {
		if (strcmp(cell, json_string_value(v)) != 0)
			fail_msg("%s: CSV \"%s\", JSON \"%s\"", what, cell, json_string_value(v));
	} else if (json_is_boolean(v)) {
		assert_string_equal(cell, json_is_true(v) ? "true" : "false");
	} else if (json_is_array(v)) {
		char joined[256] = "";
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) {
			if (i > 0)
				strcat(joined, " ");
			strcat(joined, json_string_value(x));
		}
		assert_string_equal(cell, joined);
	}
}

/* The JSON value a summary CSV column stands for: handle_*, house_win_*, banker_result_*, win_interval_* are nested. */
static const json_t *
summary_value(const json_t *g, const char *col)
{
	static const char *const NESTED[] = {"handle_", "house_win_", "banker_result_", "win_interval_", NULL};

	for (int i = 0; NESTED[i]; i++) {
		size_t n = strlen(NESTED[i]);
		if (strncmp(col, NESTED[i], n) == 0 && strstr(col, "_amount") == NULL) {
			char outer[32];
			snprintf(outer, sizeof(outer), "%.*s", (int)n - 1, col);
			return json_object_get(json_object_get(g, outer), col + n);
		}
	}
	return json_object_get(g, col);
}

static void
check_amount(const char *cell, int64_t cents)
{
	char want[40];

	snprintf(want, sizeof(want), "%s%lld.%02lld", cents < 0 ? "-" : "", (long long)(cents < 0 ? -cents : cents) / 100,
	    (long long)(cents < 0 ? -cents : cents) % 100);
	assert_string_equal(cell, want);
}

static void
check_summary_csv(const char *group)
{
	struct report_params rp = {.group = group, .from = "2026-03-01", .to = range_to};
	json_t *out = report(&AUDITOR, REPORT_SUMMARY, &rp);
	struct csv_table *t = malloc(sizeof(*t));
	size_t len;
	char *text = report_csv(REPORT_SUMMARY, out, &len);
	json_t *groups = json_object_get(out, "groups");

	assert_non_null(text);
	assert_int_equal(strlen(text), len);
	csv_parse(text, t);
	assert_int_equal(t->rows, (int)json_array_size(groups) + 2);
	for (int r = 1; r < t->rows; r++) {
		bool totals = r == t->rows - 1;
		const json_t *g = totals ? json_object_get(out, "totals") : json_array_get(groups, (size_t)r - 1);
		assert_string_equal(t->cell[r][csv_col(t, "row")], totals ? "totals" : "group");
		for (int c = 1; c < t->cols; c++) {
			const char *name = t->cell[0][c];
			if (strstr(name, "_amount") != NULL) {
				if (strcmp(name, "handle_total_amount") == 0)
					check_amount(t->cell[r][c], jint(g, "handle", "total"));
				else if (strcmp(name, "house_win_total_amount") == 0)
					check_amount(t->cell[r][c], jint(g, "house_win", "total"));
				else if (strcmp(name, "banker_result_total_amount") == 0)
					check_amount(t->cell[r][c], jint(g, "banker_result", "total"));
				else if (strcmp(name, "collections_amount") == 0)
					check_amount(t->cell[r][c], jint(g, "collections", NULL));
				else if (strcmp(name, "win_amount") == 0)
					check_amount(t->cell[r][c], jint(g, "win", NULL));
				else
					check_amount(t->cell[r][c], jint(g, "theoretical_win", NULL));
				continue;
			}
			cell_equals(t->cell[r][c], summary_value(g, name), name);
		}
	}
	/* every JSON field has its column */
	{
		const char *key;
		json_t *v;
		json_object_foreach(json_array_get(groups, 0), key, v) {
			if (json_is_null(v))
				continue;
			if (json_is_object(v)) {
				const char *k2;
				json_t *v2;
				json_object_foreach(v, k2, v2) {
					char name[64];
					snprintf(name, sizeof(name), "%s_%s", key, k2);
					csv_col(t, name);
				}
			} else {
				csv_col(t, key);
			}
		}
	}
	csv_free(t);
	free(t);
	free(text);
	json_decref(out);
}

static void
check_list_csv(enum report_kind kind, const json_t *out, const char *list)
{
	struct csv_table *t = malloc(sizeof(*t));
	size_t len, i;
	char *text = report_csv(kind, out, &len);
	const json_t *arr = json_object_get(out, list), *o;

	assert_non_null(text);
	csv_parse(text, t);
	assert_int_equal(t->rows, (int)json_array_size(arr) + 1);
	json_array_foreach(arr, i, o) {
		const char *key;
		json_t *v;
		for (int c = 0; c < t->cols; c++) {
			const char *name = t->cell[0][c];
			if (strcmp(name, "net_amount") == 0)
				check_amount(t->cell[i + 1][c], jint(o, "net", NULL));
			else
				cell_equals(t->cell[i + 1][c], json_object_get(o, name), name);
		}
		json_object_foreach((json_t *)o, key, v)
			csv_col(t, key);
	}
	csv_free(t);
	free(t);
	free(text);
}

static void
test_csv_equals_json(void **state)
{
	struct report_params rp = {.from = "2026-03-01", .to = range_to, .min = "1", .limit = "1000"};
	json_t *out;

	(void)state;
	check_summary_csv("hour");
	check_summary_csv("shift");
	check_summary_csv("table");
	out = report(&AUDITOR, REPORT_PAYOUTS, &rp);
	assert_true(json_array_size(json_object_get(out, "payouts")) > 10);
	check_list_csv(REPORT_PAYOUTS, out, "payouts");
	json_decref(out);
	rp.min = NULL;
	rp.limit = NULL;
	out = report(&AUDITOR, REPORT_EXCEPTIONS, &rp);
	assert_true(json_array_size(json_object_get(out, "exceptions")) > 0);
	check_list_csv(REPORT_EXCEPTIONS, out, "exceptions");
	json_decref(out);
}

/* A typed void reason that looks like a formula is neutralised in CSV, and quoting holds. */
static void
test_csv_quoting(void **state)
{
	json_t *rep = json_pack("{s:[{s:s,s:s,s:I,s:s,s:s}]}", "exceptions", "at", "2026-03-01T00:00:00.000Z", "table", "T1",
	    "round", (json_int_t)1, "kind", "void", "detail", "=HYPERLINK(\"x\"),\r\nmore");
	size_t len;
	char *text = report_csv(REPORT_EXCEPTIONS, rep, &len);

	(void)state;
	/* the CR is no longer written raw (it is a control character): only the LF of the field's line break */
	assert_non_null(strstr(text, "\"'=HYPERLINK(\"\"x\"\"),\\u000D\nmore\""));
	free(text);
	json_decref(rep);
}

/*
 * No control character is written raw in CSV but the LF of a quoted field:
 * ESC, tab, CR, DEL and the C1 controls (U+0085, U+009B: a terminal's CSI)
 * come out as their JSON escape, in every column (a source is not typed
 * free text, and is escaped all the same); other UTF-8 passes as it is.
 */
static void
test_csv_control_characters(void **state)
{
	json_t *rep = json_pack("{s:[{s:s,s:s,s:I,s:s,s:s,s:s}]}", "exceptions", "at", "2026-03-01T00:00:00.000Z", "table",
	    "T1", "round", (json_int_t)1, "kind", "void", "detail", "a\x1b[2Jb\tc\x7f d\xc2\x85" "e\xc2\x9b" "f \xc3\xa9\xe2\x82\xac\nend",
	    "source", "\x1b]0;x\x07");
	size_t len;
	char *text = report_csv(REPORT_EXCEPTIONS, rep, &len);

	(void)state;
	assert_non_null(strstr(text, "\"a\\u001B[2Jb\\u0009c\\u007F d\\u0085e\\u009Bf \xc3\xa9\xe2\x82\xac\nend\""));
	assert_non_null(strstr(text, ",\\u001B]0;x\\u0007,,\r\n"));   /* source, then an empty correction and round_no */
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f)
			assert_true(text[i] == '\n' || (text[i] == '\r' && text[i + 1] == '\n'));
	assert_null(strstr(text, "\xc2\x85"));
	free(text);
	json_decref(rep);
}

/* ---- payouts and exceptions against SQL ---- */

static void
test_payouts(void **state)
{
	struct report_params rp = {.from = "2026-03-01", .to = range_to, .min = "2000", .limit = "50"};
	json_t *out = report(&BOSS, REPORT_PAYOUTS, &rp), *p;
	sqlite3_stmt *st;
	size_t i = 0;

	(void)state;
	assert_int_equal(sqlite3_prepare_v2(store_db(fx.store), "SELECT p.round_id, p.seq, p.net, p.stake, p.wager, p.seat, r.table_id "
	    "FROM payouts p JOIN rounds r ON r.id = p.round_id WHERE p.net >= 2000 AND r.state = 'settled' "
	    "ORDER BY p.net DESC, p.round_id DESC, p.seq LIMIT 50", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		p = json_array_get(json_object_get(out, "payouts"), i++);
		assert_non_null(p);
		assert_int_equal(jint(p, "round", NULL), sqlite3_column_int64(st, 0));
		assert_int_equal(jint(p, "net", NULL), sqlite3_column_int64(st, 2));
		assert_int_equal(jint(p, "stake", NULL), sqlite3_column_int64(st, 3));
		assert_string_equal(json_string_value(json_object_get(p, "wager")), (const char *)sqlite3_column_text(st, 4));
		assert_int_equal(jint(p, "seat", NULL), sqlite3_column_int(st, 5));
		assert_string_equal(json_string_value(json_object_get(p, "table")), (const char *)sqlite3_column_text(st, 6));
	}
	sqlite3_finalize(st);
	assert_true(i > 0);
	assert_int_equal(i, json_array_size(json_object_get(out, "payouts")));
	/* the hand a line was paid on */
	json_array_foreach(json_object_get(out, "payouts"), i, p) {
		card_t c[6];
		for (int k = 0; k < 3; k++) {
			assert_int_equal(card_parse(json_string_value(json_array_get(json_object_get(p, "cards"), (size_t)k)), &c[k], NULL), 0);
			assert_int_equal(card_parse(json_string_value(json_array_get(json_object_get(p, "dealer"), (size_t)k)), &c[3 + k], NULL), 0);
		}
		if (strcmp(json_string_value(json_object_get(p, "wager")), "six_card") == 0)
			assert_string_equal(json_string_value(json_object_get(p, "hand")), hand6_category_name(hand6_category(c)));
		else
			assert_string_equal(json_string_value(json_object_get(p, "hand")),
			    hand3_category_name(HAND3_CATEGORY(hand3_value(c))));
	}
	json_decref(out);
}

/*
 * The largest-payouts walk is bounded by min: with a min above every win it
 * reads (almost) nothing, however many winning lines the record holds.
 * Counted in virtual machine steps of the report's prepared statement.
 */
static void
test_payouts_walk_bounded(void **state)
{
	struct report_params rp = {.from = "2026-03-01", .to = range_to, .min = "900000000", .limit = "10", .table = "T1"};
	sqlite3 *db = store_db(fx.store);
	sqlite3_stmt *st = NULL, *wins;
	json_t *out;
	int steps;

	(void)state;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM payouts WHERE net > 0", -1, &wins, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(wins), SQLITE_ROW);
	assert_true(sqlite3_column_int64(wins, 0) > 500);
	sqlite3_finalize(wins);
	out = report(&AUDITOR, REPORT_PAYOUTS, &rp);
	assert_int_equal(json_array_size(json_object_get(out, "payouts")), 0);
	json_decref(out);
	while ((st = sqlite3_next_stmt(db, st)) != NULL)
		if (strstr(sqlite3_sql(st), "INDEXED BY payouts_net") != NULL)
			break;
	assert_non_null(st);
	sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 1);
	out = report(&AUDITOR, REPORT_PAYOUTS, &rp);
	steps = sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 0);
	json_decref(out);
	if (steps > 200)
		fail_msg("the payouts report took %d steps for no line: the walk is not bounded by min", steps);
}

static void
test_exceptions(void **state)
{
	struct report_params rp = {.from = "2026-03-01", .to = range_to};
	sqlite3 *db = store_db(fx.store);
	json_t *out, *e;
	int64_t voids = 0, shorts = 0, sig = 0;
	size_t i;
	char prev[PB_TIME_LEN] = "";
	sqlite3_stmt *st;

	(void)state;
	/* significant events (schema 003): two exceptions, one that is not */
	assert_int_equal(sqlite3_exec(db, "INSERT INTO significant_events (at, source, code, table_id, detail, prev_hash, hash) VALUES "
	    "('2026-03-01T08:00:00.000Z', '127.0.0.1', 'auth_lockout', NULL, '{\"failures\":10}', 'x', 'y'),"
	    "('2026-03-01T09:00:00.000Z', 'dealer-a', 'step_refused', 'T1', '{\"code\":\"duplicate_card\"}', 'x', 'y'),"
	    "('2026-03-01T09:30:00.000Z', 'pitbossd', 'daemon_started', NULL, '{}', 'x', 'y')", NULL, NULL, NULL), SQLITE_OK);
	out = report(&AUDITOR, REPORT_EXCEPTIONS, &rp);
	json_array_foreach(json_object_get(out, "exceptions"), i, e) {
		const char *kind = json_string_value(json_object_get(e, "kind"));
		const char *at = json_string_value(json_object_get(e, "at"));
		assert_true(strcmp(prev, at) <= 0);
		snprintf(prev, sizeof(prev), "%s", at);
		if (strcmp(kind, "void") == 0) {
			voids++;
			assert_true(json_string_length(json_object_get(e, "detail")) > 0);
		} else if (strcmp(kind, "coverage_short") == 0) {
			shorts++;
			assert_true(jint(e, "short", NULL) > 0);
			assert_string_equal(json_string_value(json_object_get(e, "table")), "P1");
		} else {
			sig++;
			assert_true(strcmp(kind, "auth_lockout") == 0 || strcmp(kind, "step_refused") == 0);
		}
	}
	assert_int_equal(voids, fx.voids_made);
	assert_int_equal(sig, 2);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM payouts WHERE short IS NOT NULL", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(shorts, sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	assert_false(json_is_true(json_object_get(out, "truncated")));
	json_decref(out);

	/* a table filter leaves out events of other tables and of none */
	rp.table = "T1";
	out = report(&AUDITOR, REPORT_EXCEPTIONS, &rp);
	json_array_foreach(json_object_get(out, "exceptions"), i, e)
		assert_string_equal(json_string_value(json_object_get(e, "table")), "T1");
	json_decref(out);

	/* the limit cuts and says so */
	rp.table = NULL;
	rp.limit = "2";
	out = report(&AUDITOR, REPORT_EXCEPTIONS, &rp);
	assert_int_equal(json_array_size(json_object_get(out, "exceptions")), 2);
	assert_true(json_is_true(json_object_get(out, "truncated")));
	json_decref(out);
}

/* ---- constructed cases ---- */

static json_t *
fixed_round(const char *seat1, const char *seat2, const char *dealer, const char *action, int64_t ante, int64_t pp)
{
	return json_pack("{s:{s:{s:I,s:I},s:{s:I,s:I}},s:{s:[sss],s:[sss]},s:[sss],s:{s:s,s:s}}",
	    "bets", "1", "ante", (json_int_t)ante, "pair_plus", (json_int_t)pp, "2", "ante", (json_int_t)ante, "pair_plus", (json_int_t)pp,
	    "hands", "1", seat1, seat1 + 3, seat1 + 6, "2", seat2, seat2 + 3, seat2 + 6,
	    "dealer", dealer, dealer + 3, dealer + 6,
	    "decisions", "1", action, "2", action);
}

/*
 * X1: every seat folds 60 times (the house keeps every stake: hold 100%):
 * flagged high.  X2: straight flushes on Pair Plus 30 times: flagged low.
 */
static void
test_hold_flags(void **state)
{
	struct report_params rp = {.group = "table", .from = "2026-04-01", .to = "2026-04-01"};
	int64_t t = BASE_MS + 31 * 24 * HOUR + HOUR;    /* 2026-04-01T01:00Z */
	json_t *out, *g;
	size_t i;
	int seen = 0;

	(void)state;
	for (int k = 0; k < 60; k++, t += 30000)
		post_round(&DEALER_A, "X1", fixed_round("2c\0" "7d\0" "9h", "3c\0" "8d\0" "Th", "Ac\0" "Kd\0" "4h", "fold", 5000, 1000), t);
	for (int k = 0; k < 30; k++, t += 30000)
		post_round(&DEALER_A, "X2", fixed_round("As\0" "Ks\0" "Qs", "2h\0" "3h\0" "4h", "5c\0" "9d\0" "Jc", "play", 500, 10000), t);
	out = report(&AUDITOR, REPORT_SUMMARY, &rp);
	json_array_foreach(json_object_get(out, "groups"), i, g) {
		const char *key = json_string_value(json_object_get(g, "key"));
		if (strcmp(key, "X1") == 0) {
			assert_int_equal(jint(g, "house_win", "total"), jint(g, "handle", "total"));
			assert_true(json_real_value(json_object_get(g, "hold")) == 1.0);
			assert_string_equal(json_string_value(json_object_get(g, "hold_flag")), "high");
			assert_true(jint(g, "house_win", "total") > jint(g, "win_interval", "high"));
			seen++;
		} else if (strcmp(key, "X2") == 0) {
			assert_string_equal(json_string_value(json_object_get(g, "hold_flag")), "low");
			assert_true(jint(g, "house_win", "total") < jint(g, "win_interval", "low"));
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	json_decref(out);
	load_round_sums();
}

/*
 * H1, one dealer: rounds at 10:05, 10:20, 10:50, 11:02, 11:40, then 13:10,
 * 13:30.  Hour 10 plays from 10:05 and runs on into 11 (next round 12
 * minutes later): 55 min; hour 11 from 11:00 to 11:40: 40 min; hour 13:
 * 20 min.  115 minutes, 7 rounds of 2 hands.
 */
static void
test_hands_per_hour(void **state)
{
	static const int MINUTES[] = {10 * 60 + 5, 10 * 60 + 20, 10 * 60 + 50, 11 * 60 + 2, 11 * 60 + 40, 13 * 60 + 10, 13 * 60 + 30};
	struct report_params rp = {.group = "table", .from = "2026-04-02", .to = "2026-04-02", .table = "H1"};
	int64_t day = BASE_MS + 32 * 24 * HOUR;
	json_t *out, *g;

	(void)state;
	for (size_t k = 0; k < sizeof(MINUTES) / sizeof(MINUTES[0]); k++)
		post_round(&DEALER_B, "H1", fixed_round("2c\0" "7d\0" "9h", "3c\0" "8d\0" "Th", "Ac\0" "Kd\0" "4h", "play", 1000, 500),
		    day + MINUTES[k] * MINUTE);
	out = report(&AUDITOR, REPORT_SUMMARY, &rp);
	g = json_array_get(json_object_get(out, "groups"), 0);
	assert_non_null(g);
	assert_int_equal(jint(g, "hands", NULL), 14);
	assert_true(json_real_value(json_object_get(g, "play_seconds")) == 115 * 60.0);
	assert_true(json_real_value(json_object_get(g, "hands_per_hour")) == 14 * 3600.0 / (115 * 60.0));
	json_decref(out);

	/* by hour: each hour its own part */
	rp.group = "hour";
	out = report(&AUDITOR, REPORT_SUMMARY, &rp);
	assert_int_equal(json_array_size(json_object_get(out, "groups")), 3);
	assert_true(json_real_value(json_object_get(json_array_get(json_object_get(out, "groups"), 0), "play_seconds")) == 55 * 60.0);
	assert_true(json_real_value(json_object_get(json_array_get(json_object_get(out, "groups"), 1), "play_seconds")) == 40 * 60.0);
	assert_true(json_real_value(json_object_get(json_array_get(json_object_get(out, "groups"), 2), "play_seconds")) == 20 * 60.0);
	json_decref(out);

	/* a range starting at 11:00 still sees that play ran on from 10 */
	rp.from = "2026-04-02T11:00Z";
	out = report(&AUDITOR, REPORT_SUMMARY, &rp);
	assert_true(json_real_value(json_object_get(json_array_get(json_object_get(out, "groups"), 0), "play_seconds")) == 40 * 60.0);
	json_decref(out);
	load_round_sums();
}

/* ---- the migration's backfill ---- */

static int64_t
db_count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t n;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void
exec_ok(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
}

/*
 * A database at schema 1 holding the same record (the schema-1 columns of
 * every table copied), migrated to 12 and given the collections, opened
 * with the full store: 013 runs, and the backfills (004's, then 013's
 * player-banked part) fill report_hours, which must equal the live
 * aggregates row for row, and the reports must answer the same.
 */
static void
test_migration_backfill(void **state)
{
	char old_path[160], sql[512];
	const char *v1 = NULL;
	sqlite3 *db;
	struct store *s;
	struct report_params rp = {.group = "hour", .from = "2026-03-01", .to = "2026-04-03"};
	json_t *a, *b;
	sqlite3_stmt *x, *y;
	int rows = 0;

	(void)state;
	for (const struct migration *m = pb_migrations; m->version != 0; m++)
		if (m->version == 1)
			v1 = m->sql;
	assert_non_null(v1);
	snprintf(old_path, sizeof(old_path), "%s/old.db", fx.dir);
	assert_int_equal(sqlite3_open(old_path, &db), SQLITE_OK);
	exec_ok(db, "BEGIN");
	exec_ok(db, v1);
	exec_ok(db, "PRAGMA user_version = 1");
	exec_ok(db, "COMMIT");
	snprintf(sql, sizeof(sql), "ATTACH '%s' AS live", fx.db);
	exec_ok(db, sql);
	exec_ok(db, "BEGIN;"
	    "INSERT INTO rules_sets (id, sha256, rules_json) SELECT id, sha256, rules_json FROM live.rules_sets;"
	    "INSERT INTO table_state (table_id, status, limits_json, config_sha256, updated_at) "
	    " SELECT table_id, status, limits_json, config_sha256, updated_at FROM live.table_state;"
	    "INSERT INTO rounds (id, table_id, round_no, state, rules_id, limits_json, seats, banking, banker_seat, bank, opened_at, "
	    " opened_by, closed_at, settled_at, void_reason, dealer_qualifies, players_net) SELECT id, table_id, round_no, state, rules_id, "
	    " limits_json, seats, banking, banker_seat, bank, opened_at, opened_by, closed_at, settled_at, void_reason, dealer_qualifies, "
	    " players_net FROM live.rounds;"
	    "INSERT INTO bets (round_id, seat, ante, pair_plus, six_card, placed_at, placed_by) "
	    " SELECT round_id, seat, ante, pair_plus, six_card, placed_at, placed_by FROM live.bets;"
	    "INSERT INTO hands (round_id, seat, cards, hand, dealt_at) SELECT round_id, seat, cards, hand, dealt_at FROM live.hands;"
	    "INSERT INTO decisions (round_id, seat, action, decided_at, decided_by) "
	    " SELECT round_id, seat, action, decided_at, decided_by FROM live.decisions;"
	    "INSERT INTO payouts (round_id, seq, seat, wager, stake, result, net, bank_after, short) "
	    " SELECT round_id, seq, seat, wager, stake, result, net, bank_after, short FROM live.payouts;"
	    "INSERT INTO events (id, table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash) "
	    " SELECT id, table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash FROM live.events;"
	    "COMMIT");
	/*
	 * Up to the version before 013 as those migrations found the record
	 * (004 backfills report_hours without the banked part), with the
	 * collections 002 made room for: 013 must backfill the banked part.
	 */
	for (const struct migration *m = pb_migrations; m->version != 0 && m->version < 13; m++)
		if (m->version > 1)
			exec_ok(db, m->sql);
	exec_ok(db, "INSERT INTO collections (round_id, seat, fee) SELECT round_id, seat, fee FROM live.collections;"
	    "PRAGMA user_version = 12");
	assert_true(db_count(db, "SELECT count(*) FROM collections") > 0);
	exec_ok(db, "DETACH live");
	sqlite3_close(db);

	s = open_store(old_path);
	assert_int_equal(store_schema_version(s), store_schema_latest());
	assert_int_equal(sqlite3_prepare_v2(store_db(fx.store), "SELECT * FROM report_hours ORDER BY table_id, hour, dealer, rules_id",
	    -1, &x, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(store_db(s), "SELECT * FROM report_hours ORDER BY table_id, hour, dealer, rules_id",
	    -1, &y, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_column_count(x), sqlite3_column_count(y));
	for (;;) {
		int rx = sqlite3_step(x), ry = sqlite3_step(y);
		assert_int_equal(rx, ry);
		if (rx != SQLITE_ROW)
			break;
		for (int c = 0; c < sqlite3_column_count(x); c++) {
			const char *vx = (const char *)sqlite3_column_text(x, c), *vy = (const char *)sqlite3_column_text(y, c);
			if (strcmp(vx, vy) != 0)
				fail_msg("report_hours row %d column %s: live %s, backfilled %s", rows, sqlite3_column_name(x, c), vx, vy);
		}
		rows++;
	}
	sqlite3_finalize(x);
	sqlite3_finalize(y);
	assert_true(rows > 20);

	a = report(&AUDITOR, REPORT_SUMMARY, &rp);
	fx.pit.store = s;
	b = report(&AUDITOR, REPORT_SUMMARY, &rp);
	fx.pit.store = fx.store;
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	store_free(s);
}

/* ---- access, scope, parameters ---- */

static void
test_access(void **state)
{
	const struct token_config *t1 = config_token_by_secret(fx.cfg, "boss-t1", 7);
	struct actor scoped = {"boss-t1", ROLE_BIT(ROLE_PITBOSS), t1, false};
	struct actor dealer = {"dealer-a", ROLE_BIT(ROLE_DEALER), config_token_by_secret(fx.cfg, "dealer-a", 8), false};
	struct report_params rp = {.group = "table", .from = "2026-03-01", .to = "2026-04-03"};
	json_t *out, *g;
	size_t i;

	(void)state;
	assert_non_null(t1);
	assert_int_equal(report_refused(&dealer, REPORT_SUMMARY, &rp, "forbidden"), 403);
	assert_int_equal(report_refused(&dealer, REPORT_PAYOUTS, &rp, "forbidden"), 403);
	assert_int_equal(report_refused(&dealer, REPORT_EXCEPTIONS, &rp, "forbidden"), 403);
	/* a token scoped to T1 sees T1 only, and is refused another table */
	out = report(&scoped, REPORT_SUMMARY, &rp);
	assert_int_equal(json_array_size(json_object_get(out, "groups")), 1);
	json_array_foreach(json_object_get(out, "groups"), i, g)
		assert_string_equal(json_string_value(json_object_get(g, "key")), "T1");
	json_decref(out);
	rp.table = "T3";
	assert_int_equal(report_refused(&scoped, REPORT_SUMMARY, &rp, "forbidden"), 403);
	rp.table = "NOPE";
	assert_int_equal(report_refused(&BOSS, REPORT_SUMMARY, &rp, "table_not_found"), 404);
	/* admin reads */
	rp.table = NULL;
	out = report(&(struct actor){"root", ROLE_BIT(ROLE_ADMIN), NULL, false}, REPORT_PAYOUTS, &rp);
	json_decref(out);
}

static void
test_parameters(void **state)
{
	struct report_params rp = {0};
	struct report_query q;
	struct pb_error err;
	int64_t now = BASE_MS + 12 * HOUR + 1234;

	(void)state;
	/* defaults: today (UTC), group=day, the three shifts */
	assert_int_equal(report_query_parse(REPORT_SUMMARY, &rp, now, &q, &err), 0);
	assert_int_equal(q.from_ms, BASE_MS);
	assert_int_equal(q.to_ms, BASE_MS + 24 * HOUR);
	assert_int_equal(q.group, REPORT_GROUP_DAY);
	assert_int_equal(q.shift_count, 3);
	assert_int_equal(q.shifts[0], 360);
	/* today at tz_offset -300 (UTC-5): 2026-03-01T05:00Z .. 2026-03-02T05:00Z */
	rp.tz_offset = "-300";
	assert_int_equal(report_query_parse(REPORT_SUMMARY, &rp, now, &q, &err), 0);
	assert_int_equal(q.from_ms, BASE_MS + 5 * HOUR);
	assert_int_equal(q.to_ms, BASE_MS + 29 * HOUR);
	rp.tz_offset = NULL;
	/* a date-only "to" is the end of its day; times widen to hours */
	rp.from = "2026-03-01T06:30Z";
	rp.to = "2026-03-01";
	assert_int_equal(report_query_parse(REPORT_SUMMARY, &rp, now, &q, &err), 0);
	assert_int_equal(q.from_ms, BASE_MS + 6 * HOUR);
	assert_int_equal(q.to_ms, BASE_MS + 24 * HOUR);
	rp.to = "2026-03-01T07:00:01Z";
	assert_int_equal(report_query_parse(REPORT_SUMMARY, &rp, now, &q, &err), 0);
	assert_int_equal(q.to_ms, BASE_MS + 8 * HOUR);
	/* payouts keep exact bounds */
	assert_int_equal(report_query_parse(REPORT_PAYOUTS, &rp, now, &q, &err), 0);
	assert_int_equal(q.from_ms, BASE_MS + 6 * HOUR + 30 * MINUTE);
	assert_int_equal(q.min_net, REPORT_PAYOUTS_DEFAULT_MIN);
	rp.to = NULL;
	rp.from = NULL;

	/* refusals */
	{
		static const struct {
			struct report_params rp;
			enum report_kind kind;
		} BAD[] = {
			{{.from = "yesterday"}, REPORT_SUMMARY},
			{{.from = "2026-03-02", .to = "2026-03-01"}, REPORT_SUMMARY},
			{{.from = "2026-03-01T10:00Z", .to = "2026-03-01T10:00Z"}, REPORT_PAYOUTS},
			{{.group = "week"}, REPORT_SUMMARY},
			{{.shifts = "6:00"}, REPORT_SUMMARY},
			{{.shifts = "06:00,06:00"}, REPORT_SUMMARY},
			{{.shifts = "24:00"}, REPORT_SUMMARY},
			{{.tz_offset = "abc"}, REPORT_SUMMARY},
			{{.tz_offset = "2000"}, REPORT_SUMMARY},
			{{.group = "day", .tz_offset = "330"}, REPORT_SUMMARY},
			{{.group = "shift", .shifts = "06:30"}, REPORT_SUMMARY},
			{{.group = "hour", .from = "2000-01-01", .to = "2026-01-01"}, REPORT_SUMMARY},
			{{.table = "bad id!"}, REPORT_SUMMARY},
			{{.min = "0"}, REPORT_PAYOUTS},
			{{.min = "12x"}, REPORT_PAYOUTS},
			{{.limit = "1001"}, REPORT_PAYOUTS},
			{{.limit = "0"}, REPORT_EXCEPTIONS},
		};
		for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++) {
			pb_error_clear(&err);
			if (report_query_parse(BAD[i].kind, &BAD[i].rp, now, &q, &err) == 0)
				fail_msg("bad parameters #%zu were accepted", i);
			assert_int_equal(err.status, 400);
			assert_string_equal(err.code, "invalid_query");
		}
	}
	/* shifts at half hours work where the offset makes them UTC hours (India, +05:30) */
	rp.group = "shift";
	rp.tz_offset = "330";
	rp.shifts = "05:30,13:30,21:30";
	assert_int_equal(report_query_parse(REPORT_SUMMARY, &rp, now, &q, &err), 0);
}

/* The analysis cache: the same figures from a second call, for each game. */
static void
test_game_figures(void **state)
{
	struct game_figures a, b;
	struct pb_error err;

	(void)state;
	for (int i = 0; i < games_count; i++) {
		assert_int_equal(report_game_figures(&games_an[i].an.rules, games_an[i].sha, &a, &err), 0);
		assert_int_equal(report_game_figures(&games_an[i].an.rules, games_an[i].sha, &b, &err), 0);
		assert_memory_equal(&a, &b, sizeof(a));
		assert_true(a.edge[WAGER_ANTE] == games_an[i].an.ante_play.house_edge);
		assert_true(a.variance[WAGER_ANTE] == games_an[i].an.ante_play.net.variance);
	}
}

/* ---- the master game's window: hourly rows plus partial hours against every round ---- */

/* The statements the master game read before the hourly rows (sql/count_window.def as of afd9550). */
static const char *const OLD_WINDOW_SQL[3] = {
	"SELECT coalesce(sum(-players_net), 0) FROM rounds INDEXED BY rounds_settled_at WHERE settled_at >= ?2 "
	"AND settled_at < ?3 AND table_id = ?1 AND state = 'settled' AND banking = 'house'",
	"SELECT coalesce(sum(c.fee), 0) FROM rounds r INDEXED BY rounds_settled_at JOIN collections c ON c.round_id = r.id "
	"WHERE r.settled_at >= ?2 AND r.settled_at < ?3 AND r.table_id = ?1 AND r.state = 'settled' "
	"AND r.banking = 'player'",
	"SELECT coalesce(sum(c.owed - c.paid), 0) FROM rounds r INDEXED BY rounds_settled_at JOIN corrections c "
	"ON c.round_id = r.id WHERE r.settled_at >= ?2 AND r.settled_at < ?3 AND r.table_id = ?1 AND NOT EXISTS "
	"(SELECT 1 FROM corrections n WHERE n.round_id = c.round_id AND n.seat = c.seat AND n.wager = c.wager "
	"AND n.id > c.id)",
};

static int64_t
old_window_sum(int which, const char *table, const char *from, const char *to)
{
	sqlite3_stmt *st;
	int64_t v = 0;

	assert_int_equal(sqlite3_prepare_v2(store_db(fx.store), OLD_WINDOW_SQL[which], -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, to, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A corrected payout line written for the test: the latest of its (round, seat, wager) counts. */
struct mg_correction {
	int64_t round, owed, paid;
	int seat, wager;
};

#define MG_CORRECTIONS 60

/* The window [from_ms, to_ms) of table g read both ways and computed here from the rounds as the API shows them. */
static void
check_window(const struct table_game *g, int64_t from_ms, int64_t to_ms, const struct mg_correction *cs, int ncs)
{
	char from[PB_TIME_LEN], to[PB_TIME_LEN];
	int64_t win, rounds, mispays, lines, want_win = 0, want_rounds = 0, want_mispays = 0;
	struct pb_error err;

	pb_time_format_ms(from_ms, from);
	pb_time_format_ms(to_ms, to);
	for (int i = 0; i < rsum_count; i++) {
		const struct round_sum *r = &rsums[i];

		if (strcmp(r->table, g->id) != 0 || !r->settled || r->settled_ms < from_ms || r->settled_ms >= to_ms)
			continue;
		for (int k = 0; k < ncs; k++) {
			bool latest = true;

			for (int j = k + 1; j < ncs; j++)
				latest = latest && !(cs[j].round == cs[k].round && cs[j].seat == cs[k].seat &&
				    cs[j].wager == cs[k].wager);
			if (latest && cs[k].round == r->id)
				want_mispays += cs[k].owed - cs[k].paid;
		}
		if (r->banked != g->player_banked)
			continue;
		want_rounds++;
		if (g->player_banked)
			want_win += r->collections;
		else
			for (int w = 0; w < WAGER_COUNT; w++)
				want_win += r->win[w];
	}
	assert_int_equal(store_window_hand_win(fx.store, g->id, g->player_banked, from, to, &win, &rounds, &err), 0);
	assert_int_equal(store_window_mispays(fx.store, g->id, from, to, &mispays, &lines, &err), 0);
	if (win != want_win || mispays != want_mispays || rounds != want_rounds)
		fail_msg("%s [%s, %s): hand win %lld (want %lld), rounds %lld (want %lld), mispays %lld (want %lld)", g->id,
		    from, to, (long long)win, (long long)want_win, (long long)rounds, (long long)want_rounds,
		    (long long)mispays, (long long)want_mispays);
	assert_int_equal(win, old_window_sum(g->player_banked ? 1 : 0, g->id, from, to));
	assert_int_equal(mispays, old_window_sum(2, g->id, from, to));
}

/* Every kind of window (random_windows random ones of each kind) of every table, with the first ncs corrections. */
static void
check_windows(int ncs, const struct mg_correction *cs, int random_windows)
{
	const int64_t day_starts[] = {14 * HOUR, 13 * HOUR};
	int64_t span = fx.last_ms - BASE_MS;

	for (size_t t = 0; t < sizeof(GAMES) / sizeof(GAMES[0]); t++) {
		const struct table_game *g = &GAMES[t];

		for (int i = 0; i < random_windows; i++) {
			int64_t from = BASE_MS + rng_between(0, span);
			int64_t to = from + rng_between(0, 30 * HOUR);

			check_window(g, from, to, cs, ncs);
			check_window(g, from, from + rng_between(0, HOUR), cs, ncs);
			check_window(g, from / HOUR * HOUR, to / HOUR * HOUR, cs, ncs);
			check_window(g, from / HOUR * HOUR, to, cs, ncs);
			check_window(g, from, to / HOUR * HOUR, cs, ncs);
		}
		for (int i = 0; i < rsum_count; i += 7) {
			int64_t at_ms = rsums[i].settled_ms;

			check_window(g, at_ms, at_ms + 5 * HOUR + 1, cs, ncs);
			check_window(g, at_ms - 3 * HOUR - 1, at_ms, cs, ncs);
			check_window(g, at_ms + 1, at_ms + 2 * HOUR, cs, ncs);
			check_window(g, at_ms, at_ms, cs, ncs);
		}
		for (int64_t day = BASE_MS - 24 * HOUR; day < fx.last_ms; day += 24 * HOUR)
			for (int z = 0; z < 2; z++)
				for (int e = 0; e < 2; e++) {
					int64_t from = day + day_starts[z] + rng_between(0, 59 * MINUTE);
					int64_t to = day + 24 * HOUR + day_starts[e] + rng_between(0, 59 * MINUTE);

					check_window(g, from, to, cs, ncs);
					check_window(g, day + day_starts[z], day + 24 * HOUR + day_starts[e], cs, ncs);
				}
	}
}

/*
 * The master game's hand win and mispays of a table's window (store/count_window.h), now read from the hourly
 * rows strictly inside the window plus the rounds of its partial hours, equal the same figures summed from every
 * round of the window (here from the rounds read back through the API, and with the statements read before):
 * house- and player-banked tables, voids, windows at any millisecond (random, inside one hour, on whole hours,
 * starting or ending on a round's settled_at, empty), and Los Angeles gaming days from 06:00 (14:00Z in standard
 * time, 13:00Z in daylight time: windows of 23 and 25 hours as across a change of clock).  The mispays with no
 * correction recorded, with 3 and with 60 (some lines corrected twice: the latest counts), the connection's copy
 * of the corrected lines read again as they are added and after they are gone.
 */
static void
test_master_game_windows(void **state)
{
	struct mg_correction cs[MG_CORRECTIONS];
	char sql[512], at[PB_TIME_LEN];
	int settled = 0;

	(void)state;
	load_round_sums();
	for (int i = 0; i < rsum_count; i++)
		settled += rsums[i].settled;
	assert_true(settled > 100);
	assert_int_equal(sqlite3_exec(store_db(fx.store), "SAVEPOINT mg_windows", NULL, NULL, NULL), SQLITE_OK);
	check_windows(0, cs, 10);
	for (int k = 0; k < MG_CORRECTIONS; k++) {
		const struct round_sum *r;
		bool again = k > 0 && rng_int(0, 3) == 0;

		do
			r = &rsums[rng_int(0, rsum_count - 1)];
		while (!r->settled);
		cs[k] = (struct mg_correction){again ? cs[k - 1].round : r->id, amount(100, 5000), amount(100, 5000),
		    again ? cs[k - 1].seat : rng_int(1, 6), again ? cs[k - 1].wager : rng_int(0, 1)};
		pb_time_format_ms(fx.last_ms + k * MINUTE, at);
		snprintf(sql, sizeof(sql), "INSERT INTO corrections (id, table_id, round_id, seat, wager, owed, paid, "
		    "reason, by, witness, at) SELECT %d, table_id, %lld, %d, '%s', %lld, %lld, 'test', 'boss', 'witness', "
		    "'%s' FROM rounds WHERE id = %lld", 1000 + k, (long long)cs[k].round, cs[k].seat,
		    cs[k].wager ? "pair_plus" : "ante", (long long)cs[k].owed, (long long)cs[k].paid, at,
		    (long long)cs[k].round);
		assert_int_equal(sqlite3_exec(store_db(fx.store), sql, NULL, NULL, NULL), SQLITE_OK);
		if (k == 2)
			check_windows(3, cs, 20);
	}
	check_windows(MG_CORRECTIONS, cs, 60);
	assert_int_equal(sqlite3_exec(store_db(fx.store), "ROLLBACK TO mg_windows; RELEASE mg_windows", NULL, NULL, NULL),
	    SQLITE_OK);
	check_windows(0, cs, 5);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parameters),
		cmocka_unit_test(test_summary_groupings),
		cmocka_unit_test(test_summary_ranges),
		cmocka_unit_test(test_summary_against_sql),
		cmocka_unit_test(test_csv_equals_json),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_csv_control_characters),
		cmocka_unit_test(test_payouts),
		cmocka_unit_test(test_payouts_walk_bounded),
		cmocka_unit_test(test_exceptions),
		cmocka_unit_test(test_hold_flags),
		cmocka_unit_test(test_hands_per_hour),
		cmocka_unit_test(test_migration_backfill),
		cmocka_unit_test(test_access),
		cmocka_unit_test(test_game_figures),
		cmocka_unit_test(test_master_game_windows),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
